"""Hints in plain words on the web (issue 11): the hint message carries the expected points,
the chances and the reasons as codes with their numbers (docs/PROTOCOL.md), the catalogue
offers the levels people choose from, and the browser's hint panel shows words, no codes."""

from __future__ import annotations

import pytest

from bonepile.bots import LEVELS
from bonepile.bots.reasons import CODES
from webutil import InProcess, Sock, run, wait_until


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    db = tmp_path_factory.mktemp("hints") / "db"
    with InProcess(f"sqlite:///{db}", grace=1000, hand_pause=1000, hint_time=0.05) as s:
        yield s


def test_the_hint_message_has_points_chances_and_reasons(srv):
    tid, tokens = srv.people_table("block", 4, {"teams": True})

    async def go():
        socks = [await Sock.open(srv.ws, tid, tok) for tok in tokens]
        t = srv.server.tables[tid]
        wait_until(lambda: t.game.hands, 30, "the deal")
        seen = believed = 0
        for _ in range(12):  # a few turns: ask, check, play the best move
            seq = t.seq
            st = await socks[0].at(seq)
            mover = st["view"]["to_move"]
            mine = await socks[mover].at(seq)
            if mine["forced"]:
                wait_until(lambda seq=seq: t.seq > seq, 30, "the forced move")
                continue
            await socks[mover].send({"type": "hint", "id": seq})
            hint = await socks[mover].expect(lambda m: m["type"] == "hint", timeout=60)
            assert set(hint) == {"type", "id", "figure", "moves", "beliefs"}
            # where the unseen tiles probably are: never the mover's own tiles or the table's
            lay = mine["view"]["layout"]
            mine_seen = {*mine["view"]["hand"], lay["first"]} | {
                p["tile"] for a in lay["arms"].values() for p in a
            }
            for b in hint["beliefs"]:
                assert set(b) == {"seat", "tiles"} and b["seat"] != mover and b["tiles"]
                assert all(x["tile"] not in mine_seen and 0.4 <= x["p"] <= 1 for x in b["tiles"])
                believed += len(b["tiles"])
            assert hint["figure"] == "points"
            # one move per decision (the state's `decision`), ranked by the figure shown
            legal = mine["view"]["legal"]
            assert {m["move"] for m in hint["moves"]} == {
                x["move"] for i, x in enumerate(legal) if x["decision"] == i
            }
            points = [m["points"] for m in hint["moves"]]
            assert points == sorted(points, reverse=True)
            for m in hint["moves"]:
                assert set(m) == {"move", "points", "win", "game", "reasons"}
                assert isinstance(m["points"], (int, float))
                assert m["win"] is None or 0 <= m["win"] <= 1
                assert m["game"] is None or 0 <= m["game"] <= 1
                for r in m["reasons"]:
                    assert r["code"] in CODES
                    assert set(r) <= {"code", "pips", "points", "seat"}
                    assert all(type(r[k]) is int for k in r if k != "code")
                    seen += 1
            await socks[mover].send({"type": "move", "move": hint["moves"][0]["move"], "id": 1})
            wait_until(lambda seq=seq: t.seq > seq, 30, "the move")
        assert seen  # some reasons were given
        assert believed  # and some tiles were likely somewhere
        for s in socks:
            await s.close()

    run(go())


def test_the_catalogue_offers_the_levels_and_a_casual_default(srv):
    cat = srv.get("/api/variants").json()
    assert cat["bot_levels"] == list(LEVELS) == ["beginner", "casual", "strong", "expert"]
    assert cat["default_bot_level"] == "casual"
    assert len(cat["bot_labels"]) == len(cat["bot_levels"])
    # the researchers' bots still sit at a table made through the API
    made = srv.create(
        {
            "variant": "block",
            "players": 4,
            "options": {"teams": True},
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}]
            + [{"kind": "bot", "level": lv} for lv in ("greedy", "strong")],
        }
    )
    info = srv.info(made["id"])
    assert [s["level"] for s in info["seats"][1:]] == ["random", "greedy", "strong"]
    bad = srv.post(
        "/api/tables",
        {
            "variant": "block",
            "players": 2,
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "os:system"}],
        },
    )
    assert bad.status_code == 400 and "bot level" in bad.json()["error"]


def test_each_level_has_its_own_words(srv):
    cat = srv.get("/api/variants").json()
    assert len(set(cat["bot_labels"])) == len(cat["bot_levels"])  # no two levels named alike


def test_a_table_of_levels_plays_itself(srv):
    """Every level sits at a web table and plays (the strong level's small search runs off
    the event loop, the expert's in the bot workers)."""
    made = srv.create(
        {
            "variant": "block",
            "players": 4,
            "options": {"teams": True},
            "seats": [{"kind": "bot", "level": lv} for lv in LEVELS],
        }
    )
    t = srv.server.tables[made["id"]]
    wait_until(lambda: t.game.hands and len(t.game.hands[0].log) >= 12, 60, "twelve moves")
    movers = {s for s, _m, _t in t.game.hands[0].log[:12]}
    assert movers == {0, 1, 2, 3}
