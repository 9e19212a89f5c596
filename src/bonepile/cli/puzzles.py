"""``bonepile puzzles``: solve puzzles in the terminal; ``bonepile puzzles mine``: find them in
records.

A puzzle is drawn from the seat's ``View`` of its step alone (``cli/screen.py``, as ``bonepile
play`` draws), so nothing the seat could not see is shown before the puzzle is over.  A right
move shows the other seats' replies and the next step, or "Solved"; a wrong one says why and
which move was better.  The session keeps a puzzle rating (Glicko-2, from 1500) for this run.
"""

from __future__ import annotations

import datetime as _dt
import random
from typing import Annotated, Any

import typer

from ..bots.budget import Budget
from ..engine import BonepileError, View, make_variant
from ..engine.tiles import NAME
from ..engine.variant import ENGINE_VARIANTS
from ..puzzles import glicko2
from ..puzzles.judge import judge
from ..puzzles.mine import MINE_BUDGET, mine
from ..puzzles.model import THEME_WORDS, THEMES, Puzzle
from ..puzzles.moves import PuzzleError, choices
from ..puzzles.store import daily, load, read_file, write_file
from .common import fail
from .screen import hand_text, layout_lines, rows_text

app = typer.Typer(
    add_completion=False,
    help="Puzzles mined from played games: find the one move that is clearly best.",
)

HELP = """Commands:
  a move token    e.g. 6-4, 6-4@L, draw, pass; on trains 12-3@1 or 12-3@M,
                  on a chicken foot 9-4@G
  a number        the move of that number in the list of moves
  skip            leave this puzzle unsolved and go to the next
  help            this text
  quit            stop (Ctrl-D does the same)"""


class _Quit(Exception):
    pass


def _choices(puzzle: Puzzle, view: View) -> list[str]:
    return choices(make_variant(puzzle.variant, puzzle.options), view)


def _event_text(view: View, seat: int, e: Any) -> str:
    who = "you" if e.seat == seat else f"seat {e.seat}"
    if e.action == "play":
        assert e.tile is not None
        return f"{who} {NAME[e.tile]}" + (f"@{e.arm}" if e.arm else "")
    if e.action == "draw" and e.tile is not None:
        return f"{who} drew {NAME[e.tile]}"
    return f"{who} {'drew' if e.action == 'draw' else 'passed'}"


class Session:
    def __init__(self, puzzles: list[Puzzle], console: Any) -> None:
        self.puzzles = puzzles
        self.console = console
        self.rating = glicko2.Rating()
        self.solved = 0
        self.tried = 0

    def print(self, *args: Any, **kw: Any) -> None:
        self.console.print(*args, **kw)

    def ask(self, prompt: str) -> str:
        try:
            return str(self.console.input(prompt))
        except (EOFError, KeyboardInterrupt):
            raise _Quit from None

    def render(self, puzzle: Puzzle, step: int) -> None:
        view = puzzle.steps[step].view
        seat = puzzle.seat
        themes = ", ".join(THEME_WORDS.get(t, t) for t in puzzle.themes) or "no theme"
        self.print()
        self.print(
            f"[bold]Puzzle {puzzle.id}[/] · {puzzle.variant} · rated {puzzle.rating:.0f} · {themes}"
            + (f" · move {step + 1} of {len(puzzle.steps)}" if len(puzzle.steps) > 1 else "")
        )
        sides = [" & ".join("you" if s == seat else f"seat {s}" for s in side) for side in view.sides]
        if any(view.totals) or any(view.hand_points):
            self.print(
                "Scores: "
                + " · ".join(f"{sides[i]} {t + view.hand_points[i]}" for i, t in enumerate(view.totals))
            )
        if view.history:
            last = view.history[-8:]
            self.print("Last moves: " + ", ".join(_event_text(view, seat, e) for e in last))
        for line in layout_lines(view):
            self.print(line)
        others = [
            f"seat {s} {view.tile_counts[s]} tile" + ("" if view.tile_counts[s] == 1 else "s")
            for s in range(view.players)
            if s != seat
        ]
        bone = f" · boneyard {view.drawable} to draw" if view.boneyard_size else ""
        self.print("Others: " + ", ".join(others) + bone)
        if view.blind:
            for s in range(view.players):
                self.print(("Your row: " if s == seat else f"Seat {s} row: "), rows_text(view, s))
            if view.turned_up is not None:
                self.print(f"You turned up {NAME[view.turned_up]}")
            if view.peek is not None:
                self.print(f"You may peek: your next tile is {NAME[view.peek]}")
        else:
            self.print(hand_text(view))
        moves = _choices(puzzle, view)
        self.print("Moves: " + "  ".join(f"{i}) {tok}" for i, tok in enumerate(moves, 1)))

    def answer(self, puzzle: Puzzle, step: int) -> str | None:
        """The person's move (a token), or None to skip the puzzle."""
        view = puzzle.steps[step].view
        moves = _choices(puzzle, view)
        while True:
            text = self.ask("Your move> ").strip()
            low = text.lower()
            if low in ("quit", "exit", "q"):
                raise _Quit
            if low == "skip":
                return None
            if low in ("help", "?", ""):
                self.print(HELP)
                continue
            if low == "board":
                self.render(puzzle, step)
                continue
            if text.isdigit():
                k = int(text)
                if 1 <= k <= len(moves):
                    return moves[k - 1]
                self.print(f"No move {k}: choose 1 to {len(moves)}.")
                continue
            return text

    def play(self, puzzle: Puzzle) -> bool:
        """One puzzle, to the end of its line or the first wrong move: solved?"""
        step = 0
        while True:
            self.render(puzzle, step)
            while True:
                tok = self.answer(puzzle, step)
                if tok is None:
                    self.print(f"Skipped. The solution was {puzzle.steps[step].solution}.")
                    return False
                try:
                    verdict = judge(puzzle, step, tok)
                    break
                except PuzzleError as e:
                    self.print(f"{e}")
            if not verdict.correct:
                self.print(f"[bold red]Not the best.[/] {verdict.words}.")
                return False
            why = f" ({verdict.words})" if verdict.words else ""
            if verdict.done:
                self.print(f"[bold green]Solved![/] Right{why}.")
                return True
            self.print(f"[bold green]Right[/]{why}.")
            assert verdict.next_step is not None
            # the others' moves, as the seat saw them: the next step's own history
            seen = puzzle.steps[verdict.next_step].view
            then = seen.history[len(puzzle.steps[step].view.history) + 1 :]
            if then:
                self.print("Then: " + ", ".join(_event_text(seen, puzzle.seat, e) for e in then))
            step = verdict.next_step

    def run(self) -> None:
        try:
            for puzzle in self.puzzles:
                solved = self.play(puzzle)
                self.tried += 1
                self.solved += solved
                before = self.rating.r
                self.rating, _ = glicko2.update(self.rating, glicko2.Rating(puzzle.rating, 100.0), solved)
                self.print(
                    f"Your puzzle rating: {self.rating.r:.0f} ({self.rating.r - before:+.0f})"
                    f" · solved {self.solved} of {self.tried}"
                )
        except _Quit:
            self.print()
        self.print(f"Solved {self.solved} of {self.tried} puzzles · your puzzle rating {self.rating.r:.0f}.")


@app.callback(invoke_without_command=True)
def puzzles_cmd(
    ctx: typer.Context,
    variant: Annotated[
        str | None,
        typer.Option("--variant", help=f"Only puzzles of this game: {', '.join(ENGINE_VARIANTS)}."),
    ] = None,
    theme: Annotated[
        str | None, typer.Option("--theme", help=f"Only puzzles of this theme: {', '.join(THEMES)}.")
    ] = None,
    file: Annotated[
        str | None, typer.Option("--file", help="Solve the puzzles of this file (default: the shipped set).")
    ] = None,
    pid: Annotated[str | None, typer.Option("--id", help="Solve this puzzle.")] = None,
    today: Annotated[bool, typer.Option("--daily", help="Solve the puzzle of the day.")] = False,
    count: Annotated[int, typer.Option("--count", help="How many puzzles at most.")] = 10,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed of the puzzles' order (default: random).")
    ] = None,
) -> None:
    """Solve puzzles in the terminal (see `bonepile puzzles mine` to find new ones)."""
    if ctx.invoked_subcommand is not None:
        return
    from rich.console import Console

    if variant is not None and variant not in ENGINE_VARIANTS:
        fail(f"error: --variant must be one of {', '.join(ENGINE_VARIANTS)}, not {variant!r}")
    if theme is not None and theme not in THEMES:
        fail(f"error: --theme must be one of {', '.join(THEMES)}, not {theme!r}")
    if count < 1:
        fail(f"error: --count must be at least 1, not {count}")
    try:
        if today:
            chosen = [daily(_dt.date.today(), variant)]
        else:
            pool = read_file(file) if file else load(variant)
            pool = [
                p
                for p in pool
                if (variant is None or p.variant == variant) and (theme is None or theme in p.themes)
            ]
            if pid is not None:
                pool = [p for p in pool if p.id == pid]
                if not pool:
                    fail(f"error: no puzzle {pid!r}" + (f" in {file}" if file else " in the shipped set"))
            if not pool:
                fail("error: no puzzle of that game and theme")
            rng = random.Random(seed)
            if pid is None:
                rng.shuffle(pool)
            chosen = pool[:count]
    except PuzzleError as e:
        fail(f"error: {e}")
    console = Console(highlight=False)
    console.print(
        f"bonepile puzzles · {len(chosen)} puzzle{'s' if len(chosen) != 1 else ''} · type help for the commands"
    )
    Session(chosen, console).run()


@app.command("mine")
def mine_cmd(
    records: Annotated[list[str], typer.Argument(help="Game records (bonepile-record/1 files).")],
    out: Annotated[str, typer.Option("--out", "-o", help="Where to write the puzzles found.")],
    simulations: Annotated[
        int,
        typer.Option(
            "--simulations",
            help="Sampled deals the margin of a position is measured on (three times as many in Mexican Train and Chicken Foot).",
        ),
    ] = MINE_BUDGET.simulations or 40,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the sampled deals.")] = 0,
) -> None:
    """Find puzzles in played games and write them to a puzzle file."""
    if simulations < 2:
        fail(f"error: --simulations must be at least 2, not {simulations}")
    stats: dict[str, int] = {}
    found: dict[str, Puzzle] = {}
    try:
        for p in mine(records, budget=Budget(simulations=simulations), seed=seed, stats=stats):
            if p.id not in found:
                found[p.id] = p
                typer.echo(f"{p.id} {p.variant} {','.join(p.themes) or '-'} {p.rating:.0f} ({p.source})")
        write_file(out, found.values())
    except (BonepileError, PuzzleError) as e:
        fail(f"error: {e}")
    except OSError as e:
        fail(f"error: cannot write {out}: {e.strerror}")
    typer.echo(
        f"{len(found)} puzzles from {stats.get('positions', 0)} positions"
        f" ({stats.get('choices', 0)} with a choice) written to {out}"
    )
