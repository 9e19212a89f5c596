"""Ratings on PostgreSQL: a rated table is rated once, a restart rates nothing again, and the
leaderboard's query runs there too (a throwaway cluster, as in test_web_postgres)."""

from __future__ import annotations

from test_web_ratings import PROFILE, _play, _rated, _rows, profiled  # noqa: F401
from webutil import InProcess

pytest_plugins = ["pgcluster"]  # the pg_url fixture: a throwaway PostgreSQL cluster


def test_a_rated_table_on_postgresql_is_rated_once(pg_url, profiled):  # noqa: F811
    with InProcess(pg_url, grace=1000, hand_pause=0) as s:
        assert s.server.store.engine.dialect.name == "postgresql"
        tid = _play(s, rated=True)
        casual = _play(s, rated=False)
        assert s.info(tid)["status"] == "over" and s.info(casual)["status"] == "over"
        assert _rated(s) == [tid]
        got = {r.participant: (r.mu, r.sigma, r.games) for r in _rows(s)}
        assert set(got) == {"bot:casual", f"profile:{PROFILE}"} and {g[2] for g in got.values()} == {1}
    with InProcess(pg_url, grace=1000) as s:
        assert _rated(s) == [tid]
        assert {r.participant: (r.mu, r.sigma, r.games) for r in _rows(s)} == got
        r = s.get("/api/ratings/block-2")
        assert r.status_code == 200 and r.json()["ratings"] == []
        one = s.get(f"/api/ratings/block-2/profile:{PROFILE}").json()
        assert (one["mu"], one["sigma"], one["games"]) == got[f"profile:{PROFILE}"]
