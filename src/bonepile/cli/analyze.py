"""``bonepile analyze RECORD``: every decision of a finished game judged with what the seat
knew and with every hand shown (``analysis``), in words or as JSON (docs/ANALYSIS.md)."""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any

import typer

from ..analysis.luck import DEFAULT_PLAYOUTS, PLAYOUTS_PER_SIMULATION
from ..bots.budget import EXPERT_TIME, Budget
from ..engine import RecordError
from ..engine import record as rec
from .common import fail, seed_option

_SIGN = {"best": "", "good": "", "inaccuracy": "?!", "mistake": "?", "blunder": "??"}


def analyze_cmd(
    file: Annotated[str, typer.Argument(help="A game record (RECORD.md); - for standard input.")],
    seat: Annotated[
        list[int] | None,
        typer.Option("--seat", help="Only this seat's decisions (repeatable; seats are 0 to players-1)."),
    ] = None,
    hand: Annotated[
        list[int] | None, typer.Option("--hand", help="Only this hand (repeatable; the first is 1).")
    ] = None,
    time: Annotated[
        float, typer.Option("--time", min=0.001, help="Seconds of the expert's thought per decision.")
    ] = EXPERT_TIME,
    simulations: Annotated[
        int | None,
        typer.Option(
            "--simulations",
            "-s",
            min=1,
            help="Deals the expert imagines per decision instead of --time (deterministic for a seed).",
        ),
    ] = None,
    nodes: Annotated[
        int | None,
        typer.Option(
            "--nodes",
            min=1,
            help="Positions searched per decision with every hand shown before its values are "
            "estimated instead (default 200,000; 50,000 with a spinner).",
        ),
    ] = None,
    playouts: Annotated[
        int | None,
        typer.Option(
            "--playouts",
            min=0,
            help=f"Playouts of each hand's deal for its value, the luck (default {DEFAULT_PLAYOUTS}, or "
            f"{PLAYOUTS_PER_SIMULATION} per simulation with --simulations; 0: no luck and skill figures).",
        ),
    ] = None,
    seed: Annotated[int, seed_option("Seed of the expert's search.")] = 0,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the analysis as JSON (docs/ANALYSIS.md).")
    ] = False,
) -> None:
    """Where each hand was won and lost: the best move at every decision, with what the
    player knew and with every hand shown, each move played marked."""
    from ..analysis import AnalysisError, analyze
    from ..analysis.report import to_json

    def error(e: Any, line: str) -> None:
        if as_json:
            typer.echo(json.dumps({"error": e}))
            raise typer.Exit(2)
        fail(line)

    try:
        game = rec.replay(rec.loads(sys.stdin.buffer.read())) if file == "-" else rec.read(file)
    except RecordError as e:
        error(e.as_json(), f"record error: {e}")
    try:
        a = analyze(
            game,
            seats=seat,
            hands=hand,
            budget=Budget(time=time, simulations=simulations, nodes=nodes),
            seed=seed,
            playouts=playouts,
            progress=None if as_json or not sys.stderr.isatty() else _bar(),
        )
    except AnalysisError as e:
        error({"hand": None, "move": None, "token": None, "message": str(e)}, f"error: {e}")
    if as_json:
        typer.echo(json.dumps(to_json(a)))
        return
    typer.echo(_text(to_json(a), game.names, penalties=game.variant.scoring == "penalty"), nl=False)


def _bar() -> Any:
    from rich.progress import Progress

    bar = Progress(transient=True, console=None)
    task: list[Any] = []

    def progress(done: int, total: int) -> None:
        if not task:
            bar.start()
            task.append(bar.add_task("analysing", total=total))
        bar.update(task[0], completed=done)
        if done >= total:
            bar.stop()

    return progress


def _points(x: float, unit: str) -> str:
    return f"{100 * x:.0f}% chance to win" if unit == "win" else f"{x:.1f} points"


def _signed(x: float, unit: str) -> str:
    return f"{100 * x:+.0f}% chance to win" if unit == "win" else f"{x:+.1f}"


def _luck_lines(lk: dict[str, Any], side_name: Any, unit: str) -> list[str]:
    """A hand's deal value per side and, where every seat was judged, its points lost."""
    sides = range(len(lk["deal_value"]))
    out = [
        "  deal value: " + ", ".join(f"{side_name(i)} {_signed(lk['deal_value'][i], unit)}" for i in sides)
    ]
    if lk["lost"] is not None:
        what = "chance lost" if unit == "win" else "points lost"
        out.append(
            f"  {what} by decisions: "
            + ", ".join(
                f"{side_name(i)} "
                + (f"{100 * lk['lost'][i]:.0f}%" if unit == "win" else f"{lk['lost'][i]:.1f}")
                for i in sides
            )
        )
    return out


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word[:-1]}ies" if word.endswith("y") else f"{n} {word}s"


def _text(j: dict[str, Any], names: list[str] | None, *, penalties: bool = False) -> str:
    """The analysis in words; ``penalties``: a hand's points are each seat's penalty (the
    train games: the lowest total wins), said so rather than signed as points won."""
    unit = j["thresholds"]["unit"]

    def seat_name(s: int) -> str:
        return f"{names[s]} (seat {s})" if names else f"seat {s}"

    def side_name(i: int) -> str:
        seats = j["sides"][i]
        if names:
            return " & ".join(names[s] for s in seats)
        return f"seat {seats[0]}" if len(seats) == 1 else "seats " + " & ".join(map(str, seats))

    th = j["thresholds"]
    lines = [
        f"{j['variant']}: each move marked by what it lost against the best one (an inaccuracy from "
        f"{_points(th['inaccuracy'], unit)}, a mistake from {_points(th['mistake'], unit)}, a blunder "
        f"from {_points(th['blunder'], unit)}).",
    ]
    for h in j["hands"]:
        if unit == "win":
            pts = "no winner" if h["winner"] is None else f"{seat_name(h['winner'])} won"
        elif penalties:
            pts = "penalty points: " + ", ".join(f"{side_name(i)} {p}" for i, p in enumerate(h["points"]))
        else:
            pts = ", ".join(f"{side_name(i)} {p:+d}" for i, p in enumerate(h["points"]))
        lines.append("")
        lines.append(f"Hand {h['hand']} ({pts})")
        if not h["decisions"]:
            lines.append("  no decision to judge: every move was the only one possible")
        for d in h["decisions"]:
            k, s = d["knew"], d["shown"]
            lines.append(
                f"  move {d['move']:>2}  {seat_name(d['seat'])} played {d['played']}: {k['mark']}{_SIGN[k['mark']]}"
            )
            if k["mark"] != "best":
                lines.append(f"      with what they knew: {k['reason']}")
            if s is not None and s["mark"] == "best" and k["mark"] != "best":
                lines.append("      with every hand shown: the best move")
            elif s is not None and s["mark"] != "best":
                lines.append(f"      with every hand shown, {s['mark']}: {s['reason']}")
        if "luck" in h:
            lines.extend(_luck_lines(h["luck"], side_name, unit))
        if h["turning_points"]:
            tp = h["turning_points"]
            lines.append(
                f"  turning point{'s' if len(tp) > 1 else ''}: move{'s' if len(tp) > 1 else ''} "
                + ", ".join(map(str, tp))
            )
    if j.get("luck"):
        lines.append("")
        lines.append("Luck and skill over the hands (luck: what the deals were worth; skill: the points the")
        lines.append(
            "others' decisions lost less your own; the result less both is the rest, chance in play):"
        )
        for t in j["luck"]:
            skill = "" if t["skill"] is None else f", skill {_signed(t['skill'], unit)}"
            lines.append(
                f"  {side_name(t['side'])}: result {_signed(t['result'], unit)}, luck {_signed(t['luck'], unit)}{skill}"
            )
    if not any(ss["decisions"] for ss in j["summary"].get("knew", j["summary"].get("shown", []))):
        return "\n".join(lines) + "\n"
    lines.append("")
    lines.append("Accuracy (the share of decisions marked best or good):")
    for way, title in (("knew", "with what they knew"), ("shown", "with every hand shown")):
        if way not in j["summary"]:
            continue
        lines.append(f"  {title}:")
        for ss in j["summary"][way]:
            if not ss["decisions"]:
                continue
            m = ss["marks"]
            lines.append(
                f"    {seat_name(ss['seat'])}: {ss['accuracy']:.0f}% of {_count(ss['decisions'], 'decision')}; "
                f"{_count(m['inaccuracy'], 'inaccuracy')}, {_count(m['mistake'], 'mistake')}, "
                f"{_count(m['blunder'], 'blunder')}; {_points(ss['average_loss'], unit)} lost per decision"
            )
    return "\n".join(lines) + "\n"
