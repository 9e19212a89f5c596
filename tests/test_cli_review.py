"""`bonepile play`'s review at the end of the game: the person's own inaccuracies, mistakes
and blunders, worst first, as the analysis found them."""

from __future__ import annotations

import functools
import re

import pytest
from typer.testing import CliRunner

import bonepile.analysis as analysis
import bonepile.cli.review as review
from bonepile.bots import Budget
from bonepile.cli import app
from support import cli

PROMPT = "Your move> "
HEADER = re.compile(
    r"── (\d+) of (\d+): (inaccuracy|mistake|blunder) \S+ · hand (\d+), move (\d+) · lost about ([\d.]+) points ──"
)
BETTER = re.compile(r"You played (\S+); better was (\S+)\.")
#: a short game of Draw: the person always plays the last move of the list (often not the best)
GAME = ["draw", "--players", "2", "--option", "target=40", "--bots", "casual", "--seed", "11"]


def run(args, lines, tmp_path, **kw):
    r = CliRunner().invoke(
        app,
        ["play", *args, "--record", str(tmp_path / "g.record.json"), *kw.pop("extra", ())],
        input="".join(f"{x}\n" for x in lines),
        env={"COLUMNS": "200", "NO_COLOR": "1"},
    )
    assert r.exception is None or isinstance(r.exception, SystemExit), r.output
    return r.output


@functools.cache
def moves(until_hand: int | None = None) -> tuple[str, ...]:
    """What the person types in the game of ``GAME``, always the last move of the list,
    learnt by playing it once (the deals and the bots are seeded: the game is the same);
    only the moves before hand ``until_hand`` when given."""
    import io

    from rich.console import Console

    from bonepile.cli.play import PlaySession, Quit

    console = Console(file=io.StringIO(), width=200, color_system=None)
    s = PlaySession("draw", {"players": 2, "target": 40}, 0, ["you", "casual"], 11, "/dev/null", console)
    typed: list[str] = []

    def ask(prompt: str) -> str:
        if until_hand is not None and len(s.game.hands) >= until_hand:
            raise Quit
        typed.append(str(len(s.choices(s.game.view(0)))))  # the last move listed
        return typed[-1]

    s.ask = ask  # type: ignore[method-assign]
    s.run()
    return tuple(typed)


@pytest.fixture
def small_budget(monkeypatch):
    """A fast analysis, and a record of what it found."""
    monkeypatch.setattr(review, "BUDGET", Budget(simulations=4, nodes=3000))
    found = []
    real = analysis.analyze

    def spy(game, **kw):
        a = real(game, **kw)
        found.append((game, kw, a))
        return a

    monkeypatch.setattr(analysis, "analyze", spy)
    return found


@pytest.fixture
def terminal(monkeypatch):
    monkeypatch.setattr(review, "stdin_is_terminal", lambda: True)


def bad_decisions(a):
    order = review.ORDER
    return sorted(
        (d for h in a.hands for d in h.decisions if d.knew.mark in order),
        key=lambda d: (order.index(d.knew.mark), -d.knew.loss, d.hand, d.move),
    )


@pytest.mark.slow
def test_review_walks_through_the_analysis_own_mistakes_worst_first(tmp_path, small_budget, terminal):
    typed = moves()
    out = run(GAME, [*typed, "y", *[""] * 200], tmp_path)
    assert "Review your mistakes with the expert? [y/N]" in out
    ((game, kw, a),) = small_budget
    assert kw["seats"] == [0]
    summary = a.summary["knew"][0]
    marks = summary.marks
    bad = bad_decisions(a)
    assert len(bad) >= 2, "the game has mistakes to show"
    # the counts first, and the accuracy
    for m, word in (("blunder", "blunders"), ("mistake", "mistakes"), ("inaccuracy", "inaccuracies")):
        assert f"{marks[m]} {m if marks[m] == 1 else word}" in out
    assert f"{summary.accuracy:.0f}% accuracy" in out
    # then each one, worst first, as the analysis has it
    headers = HEADER.findall(out)
    assert len(headers) == len(bad) == marks["inaccuracy"] + marks["mistake"] + marks["blunder"]
    better = BETTER.findall(out)
    assert len(better) == len(bad)
    for (_k, n, mark, hand, move, lost), (played, best), d in zip(headers, better, bad):
        assert int(n) == len(bad) and lost == f"{d.knew.loss:.1f}"
        assert (mark, int(hand), int(move)) == (d.knew.mark, d.hand, d.move)
        assert (played, best) == (d.played, d.knew.best)
    assert [int(h[0]) for h in headers] == list(range(1, len(bad) + 1))
    # each position as the game shows one, the reason, the points lost, every hand shown
    assert out.count("Your hand: ") >= len(bad) and out.count("With every hand shown:") == len(bad)
    assert bad[0].knew.reason in out
    from bonepile.engine.tiles import NAME

    for d in bad:  # every hand shown as it was at that moment
        h = review.at_decision(game, d.hand, d.move).hand
        assert len(h.log) == d.move - 1 and h.to_move == 0
        assert "Casual bot: " + " ".join(NAME[t] for t in h.held(1)) in out
    assert "That was the last one" in out
    assert "Traceback" not in out


@pytest.mark.slow
def test_q_stops_the_review(tmp_path, small_budget, terminal):
    typed = moves()
    out = run(GAME, [*typed, "yes", "q", *[""] * 50], tmp_path)
    ((_g, _kw, a),) = small_budget
    assert len(bad_decisions(a)) >= 2
    assert [h[0] for h in HEADER.findall(out)] == ["1"]
    assert "Review stopped." in out and "That was the last one" not in out


@pytest.mark.parametrize("answer", ["n", "", "no"])
def test_no_skips_the_review(tmp_path, small_budget, terminal, answer):
    typed = moves()
    out = run(GAME, [*typed, answer], tmp_path)
    assert "Review your mistakes" in out
    assert small_budget == [] and "Review:" not in out


def test_no_review_option_does_not_ask(tmp_path, small_budget, terminal):
    typed = moves()
    out = run(GAME, [*typed, "y"], tmp_path, extra=["--no-review"])
    assert "Review your mistakes" not in out and small_budget == []


@pytest.mark.slow
def test_review_option_reviews_without_asking(tmp_path, small_budget):
    typed = moves()
    out = run(GAME, [*typed, "q"], tmp_path, extra=["--review"])  # standard input is no terminal
    assert "Review your mistakes" not in out
    assert len(small_budget) == 1 and "% accuracy" in out


def test_non_interactive_input_is_not_asked_and_play_prints_the_same(tmp_path):
    typed = moves()
    lines = "".join(f"{x}\n" for x in [*typed, "y", ""])
    rec = str(tmp_path / "g.record.json")
    plain = cli("play", *GAME, "--record", rec, input=lines)
    off = cli("play", *GAME, "--record", rec, "--no-review", input=lines)
    assert plain.returncode == off.returncode == 0
    assert "Game over" in plain.stdout and "Review" not in plain.stdout
    assert plain.stdout == off.stdout and plain.stderr == off.stderr == ""


def test_quitting_after_a_finished_hand_reviews_the_finished_hands(tmp_path, small_budget, terminal):
    typed = moves(until_hand=2)
    out = run(GAME, [*typed, "quit", "y", "q"], tmp_path)
    assert "Leaving the game." in out and "Review your mistakes" in out
    ((game, _kw, a),) = small_budget
    assert [h.hand for h in a.hands] == [1]  # the hand in play is left out
    assert "% accuracy" in out or "nothing to review" in out


def test_quitting_before_any_finished_hand_offers_nothing(tmp_path, small_budget, terminal):
    out = run(GAME, ["1", "quit"], tmp_path)
    assert "Leaving the game." in out and "Review" not in out and small_budget == []


@pytest.mark.slow
def test_no_mistakes_is_said_warmly_with_the_accuracy(tmp_path, small_budget, terminal, monkeypatch):
    real = analysis.analyze

    def clean(game, **kw):  # the same analysis with every mistake forgiven
        a = real(game, **kw)
        for s in a.summary["knew"]:
            s.marks.update(best=s.decisions, good=0, inaccuracy=0, mistake=0, blunder=0)
        a.summary["knew"] = [type(s)(s.seat, s.decisions, s.marks, 0.0, 100.0) for s in a.summary["knew"]]
        a.hands = [type(h)(h.hand, h.points, h.winner, (), ()) for h in a.hands]
        return a

    monkeypatch.setattr(analysis, "analyze", clean)
    typed = moves()
    out = run(GAME, [*typed, "y"], tmp_path)
    assert "not one inaccuracy in your" in out and "100% accuracy" in out
    assert "──" not in out.split("Review:")[-1]


@pytest.mark.slow
def test_a_real_terminal_is_asked_once(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    from test_play_terminal import spawn

    typed = moves()
    child = spawn(*GAME, "--record", str(tmp_path / "g.json"), review=True)
    for x in typed:
        child.expect(PROMPT)
        child.sendline(x)
    child.expect("Record saved")
    child.expect(r"Review your mistakes with the expert\? \[y/N\] ")
    child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "Review" not in (child.before or "")
