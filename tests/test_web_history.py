"""A profile's finished games (``GET /api/profiles/{id}/games``, docs/PROTOCOL.md): short
tables played to the end with a profile, then the history row's exact fields, the game
filter, the pages, the stats, another profile's games left out, private tables only to the
profile itself, and every bad request a clear JSON error."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from bonepile.engine import record as rec
from bonepile.engine.tally import seat_tallies
from bonepile.web.store.database import actions_t
from webutil import Driver, InProcess, run


def auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def make(s: InProcess, name: str) -> dict:
    r = s.post("/api/profiles", {"name": name})
    assert r.status_code == 200, r.text
    return r.json()


def play(s: InProcess, key: str, variant: str = "block", **extra) -> str:
    body = {
        "variant": variant,
        "players": 2,
        "options": {"target": 1},
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "casual"}],
        **extra,
    }
    r = s.post("/api/tables", body, headers=auth(key))
    assert r.status_code == 200, r.text
    made = r.json()
    d = Driver(s.ws, made["id"], {made["seat"]: made["token"]})

    async def go():
        try:
            await d.play_out(timeout=120)
        finally:
            await d.close()

    run(go())
    assert s.info(made["id"])["status"] == "over"
    return made["id"]


def history(s: InProcess, pid: str, query: str = "", key: str | None = None):
    with s.client() as c:
        return c.get(f"/api/profiles/{pid}/games{query}", headers=auth(key) if key else {})


def tally(s: InProcess, table_id: str, seat: int):
    """The engine's tally of one seat over the finished table's game (from its record)."""
    game = rec.replay(rec.loads(s.get(f"/api/tables/{table_id}/record").text))
    assert game.over
    return seat_tallies(game)[seat]


def expected_result(info: dict, side: int) -> str:
    """The side's result, worked out here from the table's info: the winner, or with no
    winner the higher total (as ratings rank it)."""
    if info["winner"] is not None:
        return "won" if info["winner"] == side else "lost"
    mine, theirs = info["totals"][side], info["totals"][1 - side]
    return "tie" if mine == theirs else ("won" if mine > theirs else "lost")


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    db = tmp_path_factory.mktemp("history") / "db"
    with InProcess(f"sqlite:///{db}", grace=1000, hand_pause=0) as s:
        ana, bea = make(s, "Ana"), make(s, "Bea")
        first = play(s, ana["key"], rated=True)
        second = play(s, ana["key"], "draw")
        hidden = play(s, ana["key"], private=True)
        beas = play(s, bea["key"])
        # a table not finished is no history
        waiting = s.post(
            "/api/tables",
            {"variant": "block", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]},
            headers=auth(ana["key"]),
        ).json()["id"]
        yield (
            s,
            ana,
            bea,
            {"first": first, "second": second, "hidden": hidden, "beas": beas, "waiting": waiting},
        )


def test_a_finished_game_is_listed_with_its_exact_fields(played):
    s, ana, _bea, ids = played
    r = history(s, ana["id"])
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["profile"] == {"id": ana["id"], "name": "Ana"} and body["game"] is None
    # newest first; the private table left out without Ana's key, Bea's and the unfinished one too
    assert [g["table"] for g in body["games"]] == [ids["second"], ids["first"]]
    row = body["games"][1]
    info = s.info(ids["first"])
    with s.server.store.engine.connect() as c:
        last = c.execute(
            select(func.max(actions_t.c.at)).where(actions_t.c.table_id == ids["first"])
        ).scalar()
    bot = info["seats"][1]
    assert row == {
        "table": ids["first"],
        "name": info["name"],
        "variant": "block",
        "players": 2,
        "created": info["created"],
        "finished": last,
        "seat": 0,
        "side": 0,
        "partners": [],
        "opponents": [
            {
                "seat": 1,
                "name": bot["name"],
                "named": False,
                "kind": "bot",
                "level": "casual",
                "profile": None,
            }
        ],
        "sides": [[0], [1]],
        "totals": info["totals"],
        "winner": info["winner"],
        "result": expected_result(info, 0),
        "rated": True,
        "private": False,
        "replay": f"/replay?table={ids['first']}",
        "luck": None,
    }
    assert last > info["created"]
    assert body["games"][0]["variant"] == "draw" and body["games"][0]["rated"] is False
    results = [expected_result(s.info(ids[k]), 0) for k in ("second", "first")]
    wins = results.count("won")
    stats = body["stats"]
    assert {k: stats[k] for k in ("games", "wins", "ties", "losses", "win_rate")} == {
        "games": 2,
        "wins": wins,
        "ties": results.count("tie"),
        "losses": results.count("lost"),
        "win_rate": wins / 2,
    }
    # the hand facts, summed: the engine's tally of each game (rebuilt here from its record)
    tallies = [tally(s, ids[k], 0) for k in ("second", "first")]
    assert stats["hands"] == sum(t.hands for t in tallies)
    assert stats["dominoes"] == sum(t.dominoes for t in tallies)
    assert stats["blocked_won"] == sum(t.blocked_won for t in tallies)
    # two games (draw, block): points of different games are not added; neither has capicús
    assert stats["points_per_hand"] is None
    assert stats["capicus"] is None and stats["chuchazos"] is None
    assert body["next_before"] is None
    # the replay link opens that table's replay
    rep = s.get(f"/api/tables/{ids['first']}/replay")
    assert rep.status_code == 200 and rep.json()["totals"] == info["totals"]


def test_the_profile_itself_sees_its_private_games(played):
    s, ana, bea, ids = played
    own = history(s, ana["id"], key=ana["key"]).json()
    assert [g["table"] for g in own["games"]] == [ids["hidden"], ids["second"], ids["first"]]
    assert own["games"][0]["private"] is True and own["stats"]["games"] == 3
    # another profile's key does not show them
    other = history(s, ana["id"], key=bea["key"]).json()
    assert [g["table"] for g in other["games"]] == [ids["second"], ids["first"]]


def test_another_profiles_games_do_not_appear(played):
    s, ana, bea, ids = played
    theirs = history(s, bea["id"]).json()
    assert [g["table"] for g in theirs["games"]] == [ids["beas"]]
    assert theirs["games"][0]["opponents"][0]["kind"] == "bot" and theirs["stats"]["games"] == 1
    mine = history(s, ana["id"], key=ana["key"]).json()
    assert ids["beas"] not in {g["table"] for g in mine["games"]}
    # a profile that played nothing yet
    none = history(s, make(s, "Cy")["id"]).json()
    assert none["games"] == [] and none["stats"] == {
        "games": 0,
        "wins": 0,
        "ties": 0,
        "losses": 0,
        "win_rate": None,
        "hands": 0,
        "points_per_hand": None,
        "dominoes": 0,
        "blocked_won": 0,
        "capicus": None,
        "chuchazos": None,
        "luck": None,
    }


def test_the_game_filter_and_the_pages(played):
    s, ana, _bea, ids = played
    block = history(s, ana["id"], "?game=block", ana["key"]).json()
    assert block["game"] == "block"
    assert [g["table"] for g in block["games"]] == [ids["hidden"], ids["first"]]
    assert block["stats"]["games"] == 2  # the stats follow the filter
    # one game: its points per hand, the side's points over the hands of both tables
    mine = [tally(s, ids[k], 0) for k in ("hidden", "first")]
    assert block["stats"]["points_per_hand"] == round(
        sum(t.points for t in mine) / sum(t.hands for t in mine), 2
    )
    assert block["stats"]["hands"] == sum(t.hands for t in mine)
    draw = history(s, ana["id"], "?game=draw").json()
    assert [g["table"] for g in draw["games"]] == [ids["second"]]
    assert history(s, ana["id"], "?game=passing").json()["games"] == []
    # one a page, then the next from next_before, to the end
    seen = []
    query = "?limit=1"
    while True:
        page = history(s, ana["id"], query, ana["key"]).json()
        assert len(page["games"]) == 1 and page["stats"]["games"] == 3
        seen.append(page["games"][0]["table"])
        if page["next_before"] is None:
            break
        query = f"?limit=1&before={page['next_before']!r}"
    assert seen == [ids["hidden"], ids["second"], ids["first"]]


@pytest.mark.parametrize(
    ("path", "status", "says"),
    [
        ("/api/profiles/NOT-HEX/games", 400, "hexadecimal"),
        ("/api/profiles/" + "a" * 40 + "/games", 400, "hexadecimal"),
        ("/api/profiles/abcdef0123456789/games", 404, "no profile 'abcdef0123456789'"),
        ("/api/profiles/{ana}/games?game=chess", 400, "no game 'chess'"),
        ("/api/profiles/{ana}/games?limit=0", 400, "limit= is a whole number from 1 to 100"),
        ("/api/profiles/{ana}/games?limit=500", 400, "limit="),
        ("/api/profiles/{ana}/games?limit=ten", 400, "limit="),
        ("/api/profiles/{ana}/games?before=yesterday", 400, "before= is a table's creation time"),
        ("/api/profiles/{ana}/games?before=-1", 400, "before="),
        ("/api/profiles/{ana}/games?before=nan", 400, "before="),
    ],
)
def test_a_bad_history_request_is_a_clear_error(played, path, status, says):
    s, ana, _bea, _ids = played
    r = s.get(path.format(ana=ana["id"]))
    assert r.status_code == status and says in r.json()["error"], r.text


def test_a_wrong_key_is_refused_and_profiles_off_has_no_history(played, tmp_path):
    s, ana, _bea, _ids = played
    r = history(s, ana["id"], key="not-a-key")
    assert r.status_code == 401 and "not known" in r.json()["error"]
    with InProcess(f"sqlite:///{tmp_path}/off.db", profiles="off") as off:
        r = off.get(f"/api/profiles/{ana['id']}/games")
        assert r.status_code == 404 and "turned off" in r.json()["error"]


def test_a_four_player_game_names_the_partner_and_both_opponents(tmp_path):
    with InProcess(f"sqlite:///{tmp_path}/four.db", grace=1000, hand_pause=0) as s:
        ana = make(s, "Ana")
        bots = [{"kind": "bot", "level": lvl} for lvl in ("casual", "random", "greedy")]
        tid = play(
            s, ana["key"], players=4, seats=[{"kind": "human"}, *bots], options={"target": 1, "teams": True}
        )
        info = s.info(tid)
        row = history(s, ana["id"]).json()["games"][0]
    assert info["sides"] == [[0, 2], [1, 3]]
    names = [x["name"] for x in info["seats"]]
    assert (row["table"], row["players"], row["seat"], row["side"]) == (tid, 4, 0, 0)
    assert row["partners"] == [
        {"seat": 2, "name": names[2], "named": False, "kind": "bot", "level": "random", "profile": None}
    ]
    assert row["opponents"] == [
        {"seat": 1, "name": names[1], "named": False, "kind": "bot", "level": "casual", "profile": None},
        {"seat": 3, "name": names[3], "named": False, "kind": "bot", "level": "greedy", "profile": None},
    ]
    assert row["sides"] == [[0, 2], [1, 3]] and row["totals"] == info["totals"]
    assert row["result"] == expected_result(info, 0) and row["rated"] is False


def test_luck_and_skill_are_stored_with_a_tables_analysis_and_shown_per_game_and_summed(played):
    """The figures /me shows come from the table's stored analysis (``luck`` per side, summed
    over the hands), per hand, for the profile's side; a game not analysed has none."""
    import time

    from bonepile.bots.budget import Budget

    s, _ana, _bea, _ids = played
    dee = make(s, "Dee")
    analysed, plain = play(s, dee["key"]), play(s, dee["key"])
    jobs = s.app.state.analyses
    jobs.budget, jobs.processes = Budget(simulations=2, nodes=2000), False  # (the plumbing, not the expert)
    with s.client() as c:
        assert c.post(f"/api/tables/{analysed}/analysis").status_code in (200, 202)
        deadline = time.monotonic() + 60
        while (got := c.get(f"/api/tables/{analysed}/analysis").json())["status"] != "done":
            assert time.monotonic() < deadline, "the analysis did not finish"
            time.sleep(0.05)
    totals = got["analysis"]["luck"][0]  # Dee sat at seat 0, side 0
    hands = totals["hands"]
    assert hands == len(got["analysis"]["hands"]) >= 1 and totals["skill"] is not None
    want = {
        "hands": hands,
        "luck": round(totals["luck"] / hands, 1),
        "skill": round(totals["skill"] / hands, 1),
    }
    body = history(s, dee["id"]).json()
    by_table = {g["table"]: g["luck"] for g in body["games"]}
    assert by_table == {analysed: want, plain: None}
    assert body["stats"]["luck"] == want
    # the side's luck is its hands' deal values summed; the two sides' add up to nothing
    per_hand = [h["luck"] for h in got["analysis"]["hands"]]
    assert totals["luck"] == pytest.approx(sum(lk["deal_value"][0] for lk in per_hand), abs=0.01)
    assert got["analysis"]["luck"][1]["luck"] == pytest.approx(-totals["luck"], abs=0.01)
    # asked again, nothing is stored twice
    from bonepile.web.store.luck import store_figures

    assert store_figures(s.server.store.engine, analysed, got["analysis"]) == 0
