"""`bonepile analyze` in words on the train games (RULES.md §15–16): a hand's points there are
each seat's penalty (the lowest total wins), and the text says so instead of signing them as
points won; the other games keep their signed points."""

from __future__ import annotations

import pathlib
import re

import pytest
from typer.testing import CliRunner

from bonepile.cli import app
from bonepile.engine import record as rec

EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples"
BUDGET = ("--simulations", "1", "--nodes", "300", "--playouts", "0")


def analyze_words(path: pathlib.Path, hand: int) -> str:
    r = CliRunner().invoke(app, ["analyze", str(path), "--hand", str(hand), "--seat", "0", *BUDGET])
    assert r.exit_code == 0 and r.exception is None, r.output
    return r.stdout


@pytest.mark.parametrize("name", ["mexican-train-3p", "chicken-foot-3p"])
def test_s15_s16_analyze_calls_a_hands_points_penalties(name):
    path = EXAMPLES / f"{name}.record.json"
    game = rec.read(str(path))
    names = game.names
    for hand in (1, 2):
        points = game.hands[hand - 1].result.points
        who = [f"{names[s]} {p}" if names else f"seat {s} {p}" for s, p in enumerate(points)]
        line = f"Hand {hand} (penalty points: {', '.join(who)})"
        out = analyze_words(path, hand)
        assert line in out.splitlines()
        assert not re.search(rf"Hand {hand} \([^)]*\+", out)  # no "+41" read as points won


def test_a_line_game_still_signs_the_points_won():
    path = EXAMPLES / "draw-3p.record.json"
    game = rec.read(str(path))
    out = analyze_words(path, 1)
    points = game.hands[0].result.points
    header = next(line for line in out.splitlines() if line.startswith("Hand 1 ("))
    assert "penalty" not in header
    assert all(f"{p:+d}" in header for p in points)


@pytest.mark.parametrize("command", ["random", "play", "arena", "tournament", "selfplay"])
def test_the_commands_help_names_the_train_games_they_play(command):
    r = CliRunner().invoke(app, [command, "--help"], env={"COLUMNS": "400"})
    assert r.exit_code == 0
    text = " ".join(r.stdout.split())
    assert "mexican-train" in text and "chicken-foot" in text


def test_random_plays_the_train_games():
    for name in ("mexican-train", "chicken-foot"):
        r = CliRunner().invoke(app, ["random", name, "--players", "3", "--option", "rounds=1", "--seed", "2"])
        assert r.exit_code == 0, r.output
        game = rec.replay(rec.loads(r.stdout))
        assert game.variant.name == name and game.over
