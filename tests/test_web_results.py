"""Finished tables' stored results (migration 0004_results, web/store/results.py) and the
stats counted from them: exact figures for hand-made Quinientos games (a capicú, a blocked
hand, a chuchazo by a partner), each stat only where the game has it, and a database of the
0003 schema with finished tables that gets their results from the upgrade."""

from __future__ import annotations

import json
import random
import time

import pytest
from sqlalchemy import create_engine, insert, select

from bonepile.engine import Game, make_variant
from bonepile.engine import record as rec
from bonepile.engine.tally import bonus_kinds, seat_tallies, side_outcomes
from bonepile.web.store import results as rs
from bonepile.web.store.database import (
    TableRow,
    actions_t,
    migrations,
    profile_stats_t,
    profiles_t,
    result_seats_t,
    results_t,
    tables_t,
)
from test_rules_quinientos import Q_BLOCK_OTHERS_WIN, Q_CAPICU, Q_CHUCH_BOTH, hand, record
from webutil import InProcess


# ---------------------------------------------------------------------------- hand-made games
def capicu_then_blocked() -> Game:
    """Hand 1: seat 0 goes out with 5-1 on [1|5], a capicú: 8 + 100 (round bonus) + 100 =
    208 to side 0.  Hand 2 (seat 1 leads): blocked, side 0 holds 25 pips against 65, so side
    0 scores 65.  273 reaches the target 250: side 0 wins."""
    doc = record(
        [hand(Q_CAPICU, 0, give_leader=False), hand(Q_BLOCK_OTHERS_WIN, 1, give_leader=False)],
        {"target": 250},
    )
    return rec.replay(doc)


def chuchazo_by_seat_0() -> Game:
    """One hand: seat 0 goes out with 0-0 on [0|0], a chuchazo: 12 + 100 + 100 = 212 to side 0,
    past the target 100."""
    return rec.replay(record([hand(Q_CHUCH_BOTH, 0, give_leader=False)], {"target": 100}))


def test_the_engine_tallies_a_capicu_and_a_blocked_hand():
    g = capicu_then_blocked()
    assert g.over and g.totals == [273, 0] and g.winner == 0
    t = seat_tallies(g)
    assert [(x.side, x.hands, x.points, x.dominoes, x.blocked_won, dict(x.bonuses)) for x in t] == [
        (0, 2, 273, 1, 1, {"capicu": 1, "chuchazo": 0}),  # went out with the capicú
        (1, 2, 0, 0, 0, {"capicu": 0, "chuchazo": 0}),
        (0, 2, 273, 0, 1, {"capicu": 0, "chuchazo": 0}),  # its partner: the side's points, not the domino
        (1, 2, 0, 0, 0, {"capicu": 0, "chuchazo": 0}),
    ]
    assert side_outcomes(g) == ["won", "lost"]
    assert bonus_kinds(g.variant) == ("capicu", "chuchazo")
    for other in ("draw", "block", "passing", "cinque", "blind-hugie", "billitonnen"):
        assert bonus_kinds(make_variant(other, {})) == ()


def auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def stored_table(s: InProcess, game: Game, variant: str, profiles: list[str | None], created: float) -> str:
    """A table row tied to ``profiles``, finished with ``game``'s result as the server stores it."""
    tid = f"{random.getrandbits(48):012x}"
    seats = [
        {"name": f"P{i}", "kind": "human", "level": None, "token_hash": "x" * 64, "profile": p}
        for i, p in enumerate(profiles)
    ]
    row = TableRow(tid, created, "hand made", variant, dict(game.variant.options), 1, seats, {}, "playing")
    store = s.server.store
    store.create_table(row)
    assert rs.finish_table(store.engine, tid, rs.finished_of(game, variant, created, profiles))
    assert not rs.finish_table(store.engine, tid, rs.finished_of(game, variant, created, profiles))  # once
    return tid


def test_exact_stats_of_hand_made_games(tmp_path):
    with InProcess(f"sqlite:///{tmp_path}/db") as s:
        ana = s.post("/api/profiles", {"name": "Ana"}).json()
        now = time.time()
        first = stored_table(s, capicu_then_blocked(), "quinientos", [ana["id"], None, None, None], now - 20)
        # Ana is seat 2 here: her partner made the chuchazo, her side won the hand
        second = stored_table(s, chuchazo_by_seat_0(), "quinientos", [None, None, ana["id"], None], now - 10)
        with s.client() as c:
            got = c.get(f"/api/profiles/{ana['id']}/games?game=quinientos").json()
        assert [g["table"] for g in got["games"]] == [second, first]
        assert [(g["seat"], g["side"], g["result"], g["totals"]) for g in got["games"]] == [
            (2, 0, "won", [212, 0]),
            (0, 0, "won", [273, 0]),
        ]
        assert got["stats"] == {
            "games": 2,
            "wins": 2,
            "ties": 0,
            "losses": 0,
            "win_rate": 1.0,
            "hands": 3,
            "points_per_hand": round((273 + 212) / 3, 2),
            "dominoes": 1,  # the capicú hand; the chuchazo was her partner's
            "blocked_won": 1,
            "capicus": 1,
            "chuchazos": 0,
            "luck": None,  # no game of hers analysed: no luck and skill figures
        }
        # a draw game lost: no capicús there, and points of two games do not add up
        draw = Game(
            make_variant("draw", {"players": 2, "target": 1}), seed=5, auto_deal=False, snapshots=False
        )
        finish_randomly(draw, random.Random(1))
        tid = stored_table(s, draw, "draw", [None, ana["id"]], now - 30)
        with s.client() as c:
            every = c.get(f"/api/profiles/{ana['id']}/games").json()
            only_draw = c.get(f"/api/profiles/{ana['id']}/games?game=draw").json()
        mine = seat_tallies(draw)[1]
        assert every["games"][-1]["table"] == tid and every["stats"]["games"] == 3
        assert every["stats"]["points_per_hand"] is None
        assert every["stats"]["capicus"] == 1 and every["stats"]["chuchazos"] == 0
        assert every["stats"]["hands"] == 3 + mine.hands
        assert only_draw["stats"]["capicus"] is None and only_draw["stats"]["chuchazos"] is None
        assert only_draw["stats"]["points_per_hand"] == round(mine.points / mine.hands, 2)
        assert only_draw["stats"]["dominoes"] == mine.dominoes
        assert only_draw["stats"]["blocked_won"] == mine.blocked_won
        # the sums kept game by game are the sums made anew from the stored results
        engine = s.server.store.engine
        with engine.connect() as c:
            kept = sorted(map(tuple, c.execute(select(profile_stats_t))))
        rs.resum(engine)
        with engine.connect() as c:
            assert sorted(map(tuple, c.execute(select(profile_stats_t)))) == kept
        assert len(kept) == 2  # Ana's quinientos and draw rows


def finish_randomly(g: Game, rng: random.Random) -> list[tuple[str, str, int]]:
    """Play random legal moves to the game's end; the actions a server would have stored."""
    acts = []
    while not g.over:
        if not g.hands or g.hand.over:
            g.next_hand(dealt=g.deal_next())
        seat = g.to_move
        tok = rng.choice(g.legal_tokens())
        g.play(tok)
        acts.append(("move", tok, seat))
    return acts


# ---------------------------------------------------------------------------- the migration
GAMES = [
    ("quinientos", {"target": 150}),
    ("draw", {"players": 2, "target": 30}),
    ("billitonnen", {"players": 3}),
]


@pytest.fixture
def at_0003(tmp_path):
    """A database of the 0003 schema with finished tables (one private, one rated), a table
    being played, one closed while it waited (over, no game), a damaged one, and a profile."""
    url = f"sqlite:///{tmp_path}/old.db"
    engine = create_engine(url)
    migrations.upgrade(engine, "0003_ratings")
    games = {}
    with engine.begin() as c:
        c.execute(insert(profiles_t).values(id="a1", name="Ana", created=1.0))
        for k, (variant, opts) in enumerate(GAMES):
            g = Game(make_variant(variant, opts), seed=100 + k, auto_deal=False, snapshots=False)
            acts = finish_randomly(g, random.Random(k))
            tid = f"over{k}"
            seats = [
                {"name": f"P{i}", "kind": "human", "level": None, "token_hash": None}
                for i in range(g.variant.players)
            ]
            seats[k % len(seats)]["profile"] = "a1"
            settings = [{"timer": 0}, {"timer": 0, "invite_hash": "h" * 64}, {"timer": 0, "rated": True}][k]
            c.execute(
                insert(tables_t).values(
                    id=tid,
                    created=1000.0 + k,
                    name=f"t{k}",
                    variant=variant,
                    options=json.dumps(dict(g.variant.options)),
                    seed=100 + k,
                    seats=json.dumps(seats),
                    settings=json.dumps(settings),
                    status="over",
                )
            )
            c.execute(
                insert(actions_t),
                [
                    {
                        "table_id": tid,
                        "seq": i,
                        "kind": kind,
                        "value": v,
                        "seat": seat,
                        "at": 2000.0 + k + i / 1000,
                    }
                    for i, (kind, v, seat) in enumerate(acts)
                ],
            )
            games[tid] = (g, seats, settings, 2000.0 + k + (len(acts) - 1) / 1000)
        base = {"created": 1.0, "name": "x", "variant": "draw", "options": "{}", "seed": 1, "settings": "{}"}
        c.execute(insert(tables_t).values(id="closed", seats="[]", status="over", **base))
        c.execute(insert(tables_t).values(id="broken", seats="not json", status="over", **base))
        c.execute(insert(tables_t).values(id="playing", seats="[]", status="playing", **base))
    engine.dispose()
    return url, games


def test_the_upgrade_from_0003_stores_every_finished_tables_result(at_0003):
    url, games = at_0003
    engine = create_engine(url)
    migrations.upgrade(engine)
    with engine.connect() as c:
        assert migrations.current(c) == migrations.head()
        results = {r.table_id: r for r in c.execute(select(results_t))}
        seats = sorted(c.execute(select(result_seats_t)).mappings(), key=lambda r: (r["table_id"], r["seat"]))
    assert set(results) == set(games)  # not the closed, damaged or unfinished tables
    for tid, (g, stored_seats, settings, last) in games.items():
        r = results[tid]
        want = rs.finished_of(
            g,
            r.variant,
            r.created,
            [s.get("profile") for s in stored_seats],
            rated=settings.get("rated") is True,
            private="invite_hash" in settings,
        )
        assert (r.variant, r.players, json.loads(r.sides), json.loads(r.totals), r.winner, r.hands) == (
            want.variant,
            want.players,
            want.sides,
            want.totals,
            want.winner,
            want.hands,
        )
        assert (bool(r.rated), bool(r.private), r.finished) == (want.rated, want.private, last)
        mine = [x for x in seats if x["table_id"] == tid]
        table_wide = ("table_id", "created", "variant", "private", "hands")
        assert [{k: v for k, v in x.items() if k not in table_wide} for x in mine] == want.seats
        assert {(x["created"], x["variant"], bool(x["private"]), x["hands"]) for x in mine} == {
            (r.created, r.variant, want.private, want.hands)
        }
    # the profile's sums, one row per game (and private or not)
    with engine.connect() as c:
        sums = {(r.variant, bool(r.private)): r for r in c.execute(select(profile_stats_t))}
    assert set(sums) == {("quinientos", False), ("draw", True), ("billitonnen", False)}
    for tid, (g, stored_seats, _settings, _last) in games.items():
        seat = next(i for i, x in enumerate(stored_seats) if x.get("profile") == "a1")
        t = seat_tallies(g)[seat]
        row = sums[(g.variant.name, tid == "over1")]
        assert (row.profile, row.games, row.hands, row.points, row.dominoes, row.blocked_won) == (
            "a1",
            1,
            t.hands,
            t.points,
            t.dominoes,
            t.blocked_won,
        )
        assert (row.wins, row.ties) == (
            int(side_outcomes(g)[t.side] == "won"),
            int(side_outcomes(g)[t.side] == "tie"),
        )
        assert row.capicus == t.bonuses.get("capicu") and row.chuchazos == t.bonuses.get("chuchazo")
    # the quinientos table counts capicús and chuchazos, the others have none
    assert {x["capicus"] is None for x in seats if x["table_id"] == "over0"} == {False}
    assert {x["capicus"] is None for x in seats if x["table_id"] != "over0"} == {True}
    assert {x["points"] is None for x in seats if x["table_id"] == "over2"} == {True}  # hands only
    engine.dispose()


def test_a_server_on_the_upgraded_database_shows_the_old_games(at_0003):
    url, games = at_0003
    with InProcess(url) as s:
        got = s.get("/api/profiles/a1/games").json()
        assert [g["table"] for g in got["games"]] == ["over2", "over0"]  # the private one left out
        assert got["stats"]["games"] == 2
        g0 = games["over0"][0]
        row = got["games"][1]
        assert (row["seat"], row["totals"], row["winner"]) == (0, list(g0.totals), g0.winner)
        assert row["result"] == side_outcomes(g0)[0]
