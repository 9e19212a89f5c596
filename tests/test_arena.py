"""The arena: intervals, the SPRT, duplicate seating, outputs, determinism, the command."""

from __future__ import annotations

import json
import math
import random

import pytest

from bonepile.arena import (
    ArenaSpec,
    lineup,
    mean_ci,
    percentile,
    play_deal_set,
    run_arena,
    sprt,
    sprt_sequence,
    wilson,
    write_outputs,
)
from bonepile.arena.stats import elo_to_score, parse_sprt, sprt_bounds
from bonepile.engine import make_variant
from bonepile.engine import record as rec
from bonepile.engine.deals import derive
from support import cli

TEAMS = {"teams": True, "players": 4}


# ------------------------------------------------------------------------------ statistics


@pytest.mark.parametrize(
    "k, n, low, high",
    [
        (5, 10, 0.236593, 0.763407),
        (0, 10, 0.0, 0.277533),
        (10, 10, 0.722467, 1.0),
        (8, 10, 0.490162, 0.943318),
        (50, 100, 0.403832, 0.596168),
        (1, 1, 0.206549, 1.0),
    ],
)
def test_wilson_interval_exact_values(k, n, low, high):
    lo, hi = wilson(k, n)
    assert lo == pytest.approx(low, abs=1e-6)
    assert hi == pytest.approx(high, abs=1e-6)


def test_wilson_interval_matches_closed_form_and_edges():
    # the closed form with z = 1.96 for 3 of 7
    z, p, n = 1.959963984540054, 3 / 7, 7
    c = (p + z * z / (2 * n)) / (1 + z * z / n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    assert wilson(3, 7) == pytest.approx((c - h, c + h))
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(4, 3)


def test_mean_ci_and_percentile():
    mean, half = mean_ci([1, 2, 3, 4])
    assert mean == 2.5
    assert half == pytest.approx(1.959963984540054 * math.sqrt((5 / 3) / 4))
    assert mean_ci([]) == (0.0, 0.0) and mean_ci([7]) == (7, 0.0)
    assert percentile([1, 2, 3, 4, 5], 50) == 3
    assert percentile(list(range(1, 101)), 95) == pytest.approx(95.05)
    assert percentile([], 50) == 0.0


def test_sprt_bounds_and_llr_sign():
    lo, hi = sprt_bounds(0.05, 0.05)
    assert lo == pytest.approx(-2.944439) and hi == pytest.approx(2.944439)
    assert elo_to_score(0) == 0.5
    # a score right between s0 and s1 carries no evidence either way
    mid = (elo_to_score(0) + elo_to_score(100)) / 2
    assert abs(sprt(int(round(mid * 1000)), 0, 1000 - int(round(mid * 1000)), 0, 100).llr) < 0.2
    assert sprt(60, 10, 30, 0, 50).llr > 0 > sprt(30, 10, 60, 0, 50).llr
    assert sprt(0, 0, 0, 0, 50).decision is None


def test_sprt_decides_on_synthetic_data():
    rng = random.Random(1)
    strong = [1.0 if rng.random() < 0.75 else 0.0 for _ in range(2000)]  # about +190 Elo
    state, used = sprt_sequence(strong, 0, 50)
    assert state.decision == "H1" and used < 300
    even = [1.0 if rng.random() < 0.5 else 0.0 for _ in range(5000)]
    state, used = sprt_sequence(even, 0, 50)
    assert state.decision == "H0" and used < 5000
    weak = [1.0 if rng.random() < 0.3 else 0.0 for _ in range(2000)]
    assert sprt_sequence(weak, 0, 50)[0].decision == "H0"
    # too few results: no decision
    assert sprt_sequence([1.0, 0.0, 0.5], 0, 50)[0].decision is None


def test_parse_sprt():
    assert parse_sprt("0,50") == (0.0, 50.0)
    assert parse_sprt("-10, 20.5") == (-10.0, 20.5)
    for bad in ("5", "a,b", "50,0", "1,2,3", "nan,5"):
        with pytest.raises(ValueError):
            parse_sprt(bad)


# ------------------------------------------------------------------------------ seating


@pytest.mark.parametrize(
    "variant, options, k",
    [
        ("draw", {"players": 2}, 2),
        ("draw", {"players": 3}, 2),
        ("draw", {"players": 3}, 3),
        ("draw", {"players": 4}, 4),
        ("block", TEAMS, 2),
        ("quinientos", {}, 2),
        ("billitonnen", {"players": 5}, 3),
    ],
)
def test_rotations_put_every_bot_on_every_seat(variant, options, k):
    spec = ArenaSpec(variant, options, ("random",) * k, hands=1)
    v = make_variant(variant, options)
    seatings = [lineup(spec, r) for r in range(k)]
    for s in range(v.players):
        assert sorted(row[s] for row in seatings) == list(range(k))  # each bot once per seat
    for row in seatings:  # partners are the same bot: the bots form the sides
        for side in v.sides:
            assert len({row[s] for s in side}) == 1


def test_a_deal_set_replays_the_same_deals_under_every_seating():
    spec = ArenaSpec("block", TEAMS, ("random", "random"), hands=1, seed=3)
    games = play_deal_set(spec, 0)
    assert [g.rotation for g in games] == [0, 1]
    docs = [rec.loads(g.record) for g in games]
    assert docs[0]["players"] == ["random", "random#2", "random", "random#2"]
    assert docs[1]["players"] == ["random#2", "random", "random#2", "random"]
    n = min(len(d["hands"]) for d in docs)
    assert n >= 1
    for i in range(n):
        assert docs[0]["hands"][i]["deal"] == docs[1]["hands"][i]["deal"]


# ------------------------------------------------------------------------------ runs


def small_spec(**kw):
    base = dict(variant="draw", options={"players": 3}, bots=("random", "random"), hands=12, seed=7)
    base.update(kw)
    return ArenaSpec(**base)


def test_run_counts_whole_deal_sets_and_writes_outputs(tmp_path):
    spec = small_spec(sprt=(0, 50))
    run = run_arena(spec, workers=1)
    assert run.hands >= 12
    assert len(run.games) == 2 * run.deal_sets
    assert run.hands == sum(len(g.hands) for g in run.games)
    # stopping is on whole deal sets: without the last set fewer than 12 hands were played
    assert run.hands - sum(len(g.hands) for g in run.games[-2:]) < 12
    res = write_outputs(run, str(tmp_path), 1)
    doc = json.loads((tmp_path / "results.json").read_text())
    assert doc == json.loads(json.dumps(res))
    for key in ("settings", "totals", "bots", "ratings", "sprt"):
        assert key in doc
    assert set(doc["bots"]) == {"random", "random#2"}
    for b in doc["bots"].values():
        for key in (
            "hands_won_rate",
            "hands_won_ci95",
            "points_per_hand",
            "decision_ms_median",
            "decision_ms_p95",
            "decision_ms_mean",
            "games_won",
            "rating",
        ):
            assert key in b
        lo, hi = b["hands_won_ci95"]
        assert 0 <= lo <= b["hands_won_rate"] <= hi <= 1
        assert b["hands"] == run.hands
    total_won = sum(b["hands_won"] for b in doc["bots"].values())
    assert total_won <= run.hands  # a hand has one winning bot or none
    assert doc["sprt"]["decision"] in (None, "H0", "H1")
    assert (tmp_path / "winrates.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    records = sorted((tmp_path / "records").iterdir())
    assert len(records) == len(run.games)
    for path in records:  # every record replays to the game that was played
        game = rec.read(str(path))
        assert game.over


def test_records_replay_with_the_command(tmp_path):
    run = run_arena(small_spec(hands=3), workers=1)
    write_outputs(run, str(tmp_path), 1)
    path = sorted((tmp_path / "records").iterdir())[0]
    r = cli("replay", str(path), "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["finished"] is True


def test_same_seed_same_outcome_whatever_the_worker_count():
    spec = small_spec(variant="block", options=TEAMS, hands=30, seed=11)
    one = run_arena(spec, workers=1)
    two = run_arena(spec, workers=2)
    assert [g.record for g in one.games] == [g.record for g in two.games]
    assert one.hands == two.hands and one.deal_sets == two.deal_sets
    other = run_arena(small_spec(variant="block", options=TEAMS, hands=30, seed=12), workers=1)
    assert [g.record for g in other.games] != [g.record for g in one.games]


def test_sprt_stops_early_in_order():
    # two random bots: the SPRT with a huge elo1 decides H0 quickly, before the hand budget
    spec = small_spec(hands=5000, sprt=(0, 400))
    run = run_arena(spec, workers=1)
    assert run.stopped_by == "sprt" and run.hands < 5000
    w = sum(1 for x in run.sprt_scores if x == 1.0)
    lo = sum(1 for x in run.sprt_scores if x == 0.0)
    assert sprt(w, len(run.sprt_scores) - w - lo, lo, 0, 400).decision == "H0"


def test_derive_is_stable():
    assert derive(0, "game", 0) == derive(0, "game", 0)
    assert derive(0, "game", 0) != derive(0, "game", 1)
    assert 0 <= derive("x") < 2**63


# ------------------------------------------------------------------------------ the command


def test_arena_command_writes_table_and_files(tmp_path):
    out = tmp_path / "out"
    r = cli(
        "arena",
        "block",
        "--players",
        "4",
        "--option",
        "teams=true",
        "--bots",
        "random,random",
        "--hands",
        "10",
        "--workers",
        "1",
        "--seed",
        "2",
        "--out",
        str(out),
        "--sprt",
        "0,50",
    )
    assert r.returncode == 0, r.stderr
    assert "random#2" in r.stdout and "SPRT" in r.stdout and "hands" in r.stdout
    doc = json.loads((out / "results.json").read_text())
    assert doc["settings"]["seed"] == 2 and doc["totals"]["hands"] >= 10
    assert (out / "winrates.png").exists() and list((out / "records").iterdir())


@pytest.mark.parametrize(
    "args, message",
    [
        (["draw", "--bots", "random,nope", "--hands", "3"], "unknown bot 'nope'"),
        (["nope", "--bots", "random,random", "--hands", "3"], "unknown variant"),
        (["draw", "--bots", "random,random", "--hands", "0"], "--hands must be at least 1"),
        (
            ["draw", "--bots", "random,random", "--hands", "3", "--workers", "0"],
            "--workers must be at least 1",
        ),
        (["draw", "--bots", "random,random", "--hands", "3", "--sprt", "5"], "--sprt expects"),
        (["draw", "--bots", "random,random", "--hands", "3", "--sprt", "50,0"], "elo0 < elo1"),
        (["draw", "--bots", "random,random,random", "--hands", "3", "--sprt", "0,5"], "exactly two bots"),
        (["draw", "--bots", "random,random", "--hands", "3", "--option", "foo=1"], "unknown option 'foo'"),
        (["draw", "--bots", "random,random", "--hands", "3", "--players", "9"], "players must be one of"),
        (["quinientos", "--bots", "random,random,random", "--hands", "3"], "only 2 sides"),
        (["draw", "--bots", "random", "--hands", "3"], "at least two bots"),
        (["draw", "--bots", "random,random", "--hands", "3", "--time", "-1"], "--time must be"),
    ],
)
def test_arena_command_errors_are_one_line(tmp_path, args, message):
    r = cli("arena", *args, "--out", str(tmp_path / "o"))
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], r.stderr
