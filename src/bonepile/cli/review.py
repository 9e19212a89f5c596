"""The review at the end of ``bonepile play``: the person's own inaccuracies, mistakes and
blunders, worst first, one at a time.

The game (its finished hands) is analysed for the person's seat only (``analysis.analyze``,
with a progress bar); each decision marked inaccuracy or worse *with what the person knew*
is shown as the terminal game showed that position (``PlaySession.render`` on the game
taken back to that moment), with the move played, the better move and why, the points lost
and what it was with every hand shown (the hand is over: every tile may be shown now).
"""

from __future__ import annotations

import copy
import sys
from typing import Any

from ..analysis.exact import BOUND, ESTIMATE
from ..bots.budget import EXPERT_TIME, Budget
from ..engine import Game
from ..engine.tiles import NAME

#: the analysis' budget per decision (the defaults of ``analyze``: a typical game of Draw or
#: Block is reviewed in 10 to 40 seconds on one core; tests make it smaller)
BUDGET = Budget(time=EXPERT_TIME)

#: worst first
ORDER = ("blunder", "mistake", "inaccuracy")
SIGN = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
PLURAL = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}


def stdin_is_terminal() -> bool:
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False


def count(n: int, mark: str) -> str:
    return f"{n} {mark if n == 1 else PLURAL[mark]}"


def finished_part(game: Game) -> Game | None:
    """``game`` with a hand still in play taken back to its deal (only finished hands can be
    reviewed); None if no hand is finished."""
    if not any(h.over for h in game.hands):
        return None
    if game.hands[-1].over or not game.hand.log:
        return game
    g = game.copy()
    while g.hand.log:
        g.undo()
    return g


def at_decision(game: Game, hand: int, move: int) -> Game:
    """A copy of ``game`` just before move ``move`` (1-based) of hand ``hand`` (1-based)."""
    g = game.copy()
    while not (len(g.hands) == hand and len(g.hand.log) == move - 1):
        g.undo()
    return g


def offer(session: Any, *, ask: bool) -> None:
    """At the end of the game: ask once (when ``ask``; only at a terminal) and review."""
    game = finished_part(session.game)
    if game is None:
        return
    if ask:
        if not stdin_is_terminal():
            return
        session.print()
        try:
            ans = session.ask("Review your mistakes with the expert? \\[y/N] ").strip().lower()
        except (EOFError, KeyboardInterrupt):
            session.print()
            return
        if ans not in ("y", "yes"):
            return
    try:
        review(session, game)
    except (EOFError, KeyboardInterrupt):
        session.print("\nReview stopped.")


def decisions(game: Game, seat: int) -> int:
    """How many decisions (moves with a choice, ``Hand.choices``) ``seat`` made in the
    finished hands."""
    n = 0
    for h in game.hands:
        if not h.over:
            continue
        pos = h.fresh()
        for s, m, _t in h.log:
            if s == seat and len(pos.choices()) > 1:
                n += 1
            pos.apply(m)
    return n


def analyse(session: Any, game: Game, total: int) -> Any:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn
    from rich.text import Text

    from ..analysis import analyze

    class Left(ProgressColumn):
        def render(self, task: Any) -> Text:
            left = task.time_remaining
            if left is None or task.completed < 2:
                return Text("")
            m, sec = divmod(int(left + 0.5), 60)
            return Text(f"about {m} min {sec:02d} s left" if m else f"about {sec} s left")

    bar = Progress(
        TextColumn("Looking at your decisions"),
        BarColumn(),
        MofNCompleteColumn(),
        Left(),
        console=session.console,
        transient=True,
    )
    task = bar.add_task("review", total=total)

    def progress(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)

    with bar:
        return analyze(
            game,
            seats=[session.seat],
            budget=BUDGET,
            seed=session.seed,
            ways=("knew", "shown"),
            progress=progress,
        )


def review(session: Any, game: Game) -> None:
    session.print()
    n = decisions(game, session.seat)
    if not n:
        session.print("Every move you made was forced: there was nothing to choose, nothing to review.")
        return
    session.print(
        f"The expert looks again at {'your one decision' if n == 1 else f'each of your {n} decisions'}"
        " (a second or two each; Ctrl-C stops)..."
    )
    a = analyse(session, game, n)
    summary = a.summary["knew"][0]
    th = a.thresholds
    session.print()
    choices = f"your {summary.decisions} decision" + ("" if summary.decisions == 1 else "s")
    bad = sorted(
        (d for h in a.hands for d in h.decisions if d.knew is not None and d.knew.mark in ORDER),
        key=lambda d: (ORDER.index(d.knew.mark), -d.knew.loss, d.hand, d.move),
    )
    if not bad:
        session.print(
            f"[bold]Review:[/] not one inaccuracy in {choices}: {summary.accuracy:.0f}% accuracy. "
            "Beautifully played!"
        )
        return
    marks = summary.marks
    session.print(
        f"[bold]Review:[/] {summary.accuracy:.0f}% accuracy ({choices}; best or good moves count as "
        f"accurate): {', '.join(count(marks[m], m) for m in ORDER)}."
    )
    session.print(
        f"Worst first (with what you knew, an inaccuracy loses at least {amount(th.inaccuracy, th.unit)}, "
        f"a mistake {amount(th.mistake, th.unit)}, a blunder {amount(th.blunder, th.unit)})."
    )
    for k, d in enumerate(bad, 1):
        show(session, game, d, k, len(bad), th.unit)
        if k == len(bad):
            session.print()
            session.print("That was the last one. Well done for looking!")
            return
        ans = session.ask("Enter for the next one, q to stop> ").strip().lower()
        if ans in ("q", "quit", "exit", "stop", "n", "no"):
            session.print("Review stopped.")
            return


def amount(x: float, unit: str) -> str:
    if unit == "win":
        return f"{100 * x:.0f} points of the chance to win the hand"
    return f"{x:.1f} point" + ("" if x == 1 else "s")


def show(session: Any, game: Game, d: Any, k: int, n: int, unit: str) -> None:
    g = at_decision(game, d.hand, d.move)
    screen = copy.copy(session)  # the game's own screen, showing the game at that moment
    screen.game = g
    view = g.view(session.seat)
    knew, shown = d.knew, d.shown
    session.print()
    session.print(
        f"[bold]── {k} of {n}: {knew.mark} {SIGN[knew.mark]} · hand {d.hand}, move {d.move}"
        f" · lost about {amount(knew.loss, unit)} ──[/]"
    )
    # what happened since the person's last turn (their own draws of this turn included)
    mine = [i for i, ev in enumerate(view.history) if ev.seat == session.seat and ev.action != "draw"]
    since = view.history[mine[-1] + 1 :] if mine else view.history
    if since:
        session.print("Just before:")
        for ev in since:
            session.print(screen.event_text(ev))
    screen.render(view)
    session.print()
    session.print(f"You played [bold]{d.played}[/]; better was [bold]{knew.best}[/].")
    session.print(f"Why, with what you knew: {knew.reason}.", markup=False)
    if shown is None:
        return
    h = g.hand
    session.print("With every hand shown:")
    for s in range(g.variant.players):
        if s != session.seat or view.blind:  # (a blind row is face down to its owner too)
            tiles = " ".join(NAME[t] for t in h.held(s)) or "-"
            ally = s != session.seat and g.variant.side_of(s) == g.variant.side_of(session.seat)
            partner = " (partner)" if ally else ""
            session.print(f"  {screen.seat_name(s):>10}: {tiles}{partner}")
    drawable = h.boneyard[h.bpos : max(h.bpos, h.draw_end)]
    unused = h.boneyard[max(h.bpos, h.draw_end) :]
    if drawable:
        session.print(f"  {'boneyard':>10}: " + " ".join(NAME[t] for t in drawable) + " (in drawing order)")
    if unused:
        session.print(f"  {'not drawn':>10}: " + " ".join(NAME[t] for t in unused) + " (out of play)")
    if shown.mark == "best":
        how = {
            BOUND: " (a careful estimate: it counts on the others to play their best against you)",
            ESTIMATE: " (an estimate)",
        }.get(shown.kind, "")
        session.print(f"  with the tiles where they really were, yours was the best move after all{how}.")
    else:
        session.print(f"  {shown.mark}: {shown.reason}.", markup=False)
