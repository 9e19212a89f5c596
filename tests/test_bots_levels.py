"""Levels people understand (issue 11): beginner, casual, strong and expert, built from the
researchers' bots with fixed noise or budgets; how strong each is, is measured by
bench/levels.py (docs/BENCHMARKS.md), not here."""

from __future__ import annotations

import pytest

from bonepile.bots import (
    BOT_LEVELS,
    DEFAULT_LEVEL,
    EXPERT_BUDGET,
    LEVELS,
    Budget,
    ExpertBot,
    GreedyBot,
    make_bot,
)
from bonepile.bots.levels import BEGINNER_TEMPERATURE, STRONG_SIMULATIONS
from bonepile.engine import Game, make_variant
from support import cli

GAMES = [
    ("block", {"players": 4, "teams": True}),
    pytest.param(("cinque", {}), marks=pytest.mark.slow),
    ("quinientos", {}),
    ("passing", {"players": 3}),
    ("blind-hugie", {"players": 2}),
    ("billitonnen", {"players": 3}),
]


def test_the_levels_weakest_first_and_the_researchers_names():
    assert LEVELS == ("beginner", "casual", "strong", "expert")
    assert DEFAULT_LEVEL == "casual"
    assert set(BOT_LEVELS) == {"random", "greedy", *LEVELS}


def test_what_each_level_is():
    v = make_variant("block", {"teams": True})
    b = make_bot("beginner", v, seed=1)
    assert type(b) is GreedyBot and b.temperature == BEGINNER_TEMPERATURE > 0
    c = make_bot("casual", v, seed=1)
    assert type(c) is GreedyBot and c.temperature == 0
    # the strong level keeps its own small budget, whatever the caller gives
    s = make_bot("strong", v, seed=1, budget=Budget(time=5.0, simulations=500))
    assert type(s) is ExpertBot and s.budget == Budget(simulations=STRONG_SIMULATIONS)
    e = make_bot("expert", v, seed=1, budget=Budget(simulations=12))
    assert type(e) is ExpertBot and e.budget.simulations == 12
    assert make_bot("expert", v, seed=1).budget == EXPERT_BUDGET == Budget(time=0.1)
    with pytest.raises(TypeError, match="temperature"):
        make_bot("casual", v, temperature=3)


@pytest.mark.parametrize("case", GAMES, ids=lambda c: c[0])
def test_every_level_plays_whole_games_legally_and_deterministically(case):
    name, opts = case
    v = make_variant(name, opts)
    for level in LEVELS:
        runs = []
        for _ in range(2):
            g = Game.new(name, opts, seed=4)
            bots = [make_bot(level, v, seed=s, budget=Budget(simulations=2)) for s in range(v.players)]
            moves = []
            while not g.over and len(g.hands) < 3:
                view = g.view(g.to_move)
                m = bots[g.to_move].choose(view)
                assert m in view.legal, (level, name)
                moves.append(m)
                g.apply(m)
            runs.append(moves)
        assert runs[0] == runs[1], level


@pytest.mark.slow
def test_the_beginner_misses_the_best_move_sometimes_but_not_always():
    """With a temperature the choice is drawn among the moves, weighted by greedy's scores:
    over many positions it sometimes differs from greedy's best and often agrees with it."""
    v = make_variant("block", {"players": 4, "teams": True})
    same = differ = 0
    for seed in range(30):
        g = Game.new("block", {"players": 4, "teams": True}, seed=seed)
        while not g.hand.over:
            view = g.view(g.to_move)
            if len(view.legal) > 1:
                best = make_bot("casual", v, seed=seed).choose(view)
                pick = make_bot("beginner", v, seed=seed).choose(view)
                same += pick == best
                differ += pick != best
            g.apply(view.legal[0])
    assert differ > 0 and same > 0
    assert GreedyBot(v, seed=3, temperature=0).choose(view) == GreedyBot(v, seed=3).choose(view)


def test_play_offers_the_casual_level_by_default(tmp_path):
    rec = str(tmp_path / "game.record.json")
    r = cli("play", "block", "--seed", "3", "--record", rec, input="quit\n")
    assert r.returncode == 0, r.stderr
    assert "Casual bot" in r.stdout and "Expert" not in r.stdout
    r = cli(
        "play", "block", "--bots", "beginner,strong,expert", "--seed", "3", "--record", rec, input="quit\n"
    )
    assert r.returncode == 0, r.stderr
    assert "Beginner bot" in r.stdout and "Strong bot" in r.stdout and "Expert bot" in r.stdout
