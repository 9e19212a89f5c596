"""Bring your own bot (issue 11): a ``module:Class`` spec or an entry point of the group
``bonepile.bots`` is resolved in one place (``bots.plugins``), plays in the arena and in
``bonepile play``, and every way it can go wrong is one clear line with exit status 2."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from bonepile.arena import ArenaSpec, run_arena
from bonepile.bots import Bot, BotError, Budget, make_bot, plugins
from bonepile.engine import Game, make_variant

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "bots"


@pytest.fixture()
def example_path(monkeypatch):
    monkeypatch.syspath_prepend(str(EXAMPLE))
    yield
    sys.modules.pop("heavy", None)


def run(*args: str, cwd: Path, input: str | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    return subprocess.run(
        [sys.executable, "-m", "bonepile.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        input=input,
        timeout=300,
    )


def one_line_error(r: subprocess.CompletedProcess) -> str:
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    return lines[0]


def test_the_example_bot_plays_in_the_arena(example_path):
    """The documented example is a real bot: it plays legal moves through whole games and,
    laying its heaviest tile, beats random on duplicate deals."""
    spec = ArenaSpec("block", {"players": 4, "teams": True}, ("heavy:HeavyBot", "random"), 120, seed=3)
    run_ = run_arena(spec, workers=1)
    wins = {"heavy:HeavyBot": 0, "random": 0}
    v = make_variant("block", {"players": 4, "teams": True})
    for g in run_.games:
        for winner, _pts, _end in g.hands:
            if winner is not None:
                seat = v.sides[winner][0]
                wins[spec.bots[g.seats[seat]]] += 1
    assert run_.hands >= 120
    assert wins["heavy:HeavyBot"] > wins["random"]


def test_a_module_class_spec_and_an_entry_point_lead_to_the_same_class(example_path, monkeypatch):
    v = make_variant("draw", {"players": 2})
    a = make_bot(
        "heavy:HeavyBot", v, seed=1, budget=Budget(simulations=3)
    )  # a budget it does not take: dropped
    assert type(a).__name__ == "HeavyBot" and isinstance(a, Bot)
    ep = EntryPoint(name="heavy", value="heavy:HeavyBot", group=plugins.GROUP)
    monkeypatch.setattr(plugins, "entry_points", lambda group: [ep] if group == plugins.GROUP else [])
    b = make_bot("heavy", v, seed=1)
    assert type(b) is type(a)
    assert "heavy" in str(pytest.raises(BotError, make_bot, "nope", v).value)  # listed among the choices


def test_an_entry_point_that_fails_to_load_is_a_bot_error(monkeypatch):
    ep = EntryPoint(name="broken", value="no_such_module_xyz:Bot", group=plugins.GROUP)
    monkeypatch.setattr(plugins, "entry_points", lambda group: [ep])
    with pytest.raises(BotError, match="broken.*loading failed"):
        make_bot("broken", make_variant("block", {}))


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        (
            "nosuchbot",
            "unknown bot 'nosuchbot'; choose from random, greedy, expert, beginner, casual, strong",
        ),
        ("no_such_module_xyz:Bot", "no module named 'no_such_module_xyz'"),
        ("heavy:Missing", "heavy has no 'Missing'"),
        ("heavy:", "write module:Class"),
        ("os.path:join", "is not a bonepile Bot class"),
        ("bonepile.bots.base:Bot", "does not define choose(view) or evaluate(view)"),
    ],
)
def test_bad_names_are_clear_errors(example_path, spec, words):
    with pytest.raises(BotError) as e:
        make_bot(spec, make_variant("block", {}))
    assert words in str(e.value)
    assert "\n" not in str(e.value)


def test_a_bot_that_only_evaluates_is_a_bot():
    """A bot may define evaluate(view) alone (the base choose plays its best action), as the
    expert and the policy do: such a subclass loads by name and plays."""
    v = make_variant("block", {"players": 4, "teams": True})
    bot = make_bot("bonepile.bots.policy:PolicyBot", v, seed=1)
    g = Game.new("block", {"players": 4, "teams": True}, seed=5)
    view = g.view(g.to_move)
    while len(view.legal) < 2:  # to the first real choice
        g.apply(view.legal[0])
        view = g.view(g.to_move)
    assert bot.choose(view) == bot.evaluate(view)[0].action
    assert bot.choose(view) in view.legal


BAD_BOTS = """
from bonepile.bots import Bot


class Cheat(Bot):
    def choose(self, view):
        return 999


class Crash(Bot):
    def choose(self, view):
        raise RuntimeError("lost my tiles")


class NotABot:
    def choose(self, view):
        return view.legal[0]
"""


@pytest.fixture()
def bad_bots(tmp_path):
    (tmp_path / "badbots.py").write_text(BAD_BOTS)
    return tmp_path


@pytest.mark.parametrize("workers", ["1", "2"])
def test_arena_illegal_move_is_one_line_with_status_2(bad_bots, workers):
    r = run(
        "arena", "block", "--bots", "badbots:Cheat,random", "--hands", "4", "-w", workers, "-q", cwd=bad_bots
    )
    line = one_line_error(r)
    assert "bot badbots:Cheat (seat" in line and "chose 999, which is not a legal action" in line


@pytest.mark.slow
def test_arena_and_play_refuse_bad_plugins_in_one_line(bad_bots):
    cases = {
        "badbots:NotABot": "is not a bonepile Bot class",
        "badbots:Crash": "failed: RuntimeError: lost my tiles",
        "nosuch:Bot": "no module named 'nosuch'",
        "mystery": "unknown bot 'mystery'",
    }
    for spec, words in cases.items():
        r = run("arena", "block", "--bots", f"{spec},random", "--hands", "4", "-w", "1", "-q", cwd=bad_bots)
        assert words in one_line_error(r), spec
    # play: a bad name is refused before the game; a cheating bot stops it with the reason
    r = run("play", "block", "--bots", "badbots:NotABot", "--seed", "1", cwd=bad_bots, input="quit\n")
    assert "is not a bonepile Bot class" in one_line_error(r)
    r = run(
        "play", "block", "--seat", "1", "--bots", "badbots:Cheat", "--seed", "1", cwd=bad_bots, input="quit\n"
    )
    assert "chose 999, which is not a legal action" in one_line_error(r)


def test_play_uses_a_plugin_bot(bad_bots):
    (bad_bots / "heavy.py").write_text((EXAMPLE / "heavy.py").read_text())
    r = run(
        "play",
        "block",
        "--seat",
        "1",
        "--bots",
        "heavy:HeavyBot",
        "--seed",
        "2",
        cwd=bad_bots,
        input="quit\n",
    )
    assert r.returncode == 0, r.stderr
    assert re.search(r"HeavyBot [123] plays", r.stdout), r.stdout


def test_a_plugin_sees_only_a_view(example_path):
    """The bot is handed a View (a frozen copy), never the game."""
    seen = []

    class Spy(Bot):
        def choose(self, view):
            seen.append(type(view).__name__)
            return view.legal[0]

    g = Game.new("block", {"teams": True}, seed=5)
    bot = Spy(g.variant, seed=0)
    while not g.over:
        g.apply(bot.choose(g.view(g.to_move)))
    assert set(seen) == {"View"}
