"""``bonepile tournament``: bots play a format; the standings printed and written agree with
a computation from the written records."""

from __future__ import annotations

import json

from bonepile.arena.matchpoints import outcomes_of_hand, score
from bonepile.engine import record as rec
from support import cli


def test_a_swiss_tournament_of_bots_writes_records_and_standings_that_agree(tmp_path):
    out = tmp_path / "t"
    p = cli(
        "tournament",
        "draw",
        "-n",
        "2",
        "--bots",
        "casual*2,beginner,random,casual",
        "--rounds",
        "2",
        "--hands",
        "2",
        "--seed",
        "7",
        "-o",
        str(out),
    )
    assert p.returncode == 0, p.stderr
    assert "matchpoints" in p.stdout and "Buchholz" in p.stdout
    res = json.loads((out / "standings.json").read_text())
    field = res["field"]
    assert len(field) == 6 and [f["bot"] for f in field] == [False] * 5 + [True]
    # every table's record replays; the points per hand give the same matchpoints
    outcomes = []
    met = set()
    for t in res["tables"]:
        game = rec.replay(rec.loads((out / t["record"]).read_text()))
        assert len(game.hands) <= 2
        for n, h in enumerate(game.hands):
            outcomes += outcomes_of_hand(t["round"], t["table"], n, t["entrants"], list(h.result.points))
        pair = frozenset(t["entrants"])
        assert pair not in met  # 6 entrants, 2 rounds: no rematch
        met.add(pair)
    assert len(res["tables"]) == 6
    totals = {f["entrant"]: 0.0 for f in field}
    for o, s in zip(outcomes, score(outcomes), strict=True):
        totals[o.entrant] += s
    rows = res["standings"]
    assert {r["entrant"]: r["score"] for r in rows} == totals
    assert [r["rank"] for r in rows] == [1, 2, 3, 4, 5, None]
    ranked = [r["score"] for r in rows[:5]]
    assert ranked == sorted(ranked, reverse=True)


def test_a_round_robin_of_pairs_plays_every_round_by_default():
    p = cli(
        "tournament",
        "draw",
        "--pairs",
        "--bots",
        "casual,random,beginner",
        "--format",
        "round-robin",
        "--hands",
        "1",
    )
    assert p.returncode == 0, p.stderr
    assert "6 tables over 3 rounds" in p.stdout  # 3 pairs and a bot pair: 3 rounds of 2 tables


def test_bad_options_fail_in_one_line():
    p = cli("tournament", "cinque", "--bots", "casual,random", "--format", "round-robin", "--rounds", "3")
    assert p.returncode == 2 and p.stderr == "error: a round robin of 2 entrants has at most 1 round, not 3\n"
    p = cli("tournament", "draw", "--players", "2", "--bots", "casual,random", "--format", "knockout")
    assert p.returncode == 2 and "unknown format 'knockout'" in p.stderr
    p = cli("tournament", "draw", "--players", "2", "--bots", "casual*x")
    assert p.returncode == 2 and "needs a count of at least 1" in p.stderr
    p = cli("tournament", "draw", "--players", "2", "--bots", "casual,nobody")
    assert p.returncode == 2 and "nobody" in p.stderr
