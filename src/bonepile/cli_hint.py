"""``bonepile hint RECORD``: the expert's evaluation of every legal action at a record's end."""
from __future__ import annotations

import json

import typer

from .engine import BonepileError
from .engine import record as rec


def hint_cmd(
    file: str = typer.Argument(..., help="A game record (RECORD.md); its last position is studied."),
    seat: int | None = typer.Option(None, "--seat", help="The seat to advise (default: the seat to move)."),
    simulations: int | None = typer.Option(None, "--simulations", "-s", min=1,
                                              help="Sampled deals per action (deterministic); default: 0.5 s of search."),
    seed: int = typer.Option(0, "--seed", help="Seed of the search."),
    as_json: bool = typer.Option(False, "--json", help="Print the evaluations as JSON."),
) -> None:
    """The expert's evaluation of every legal action at the record's current position, best first."""
    from .bots import hint
    from .cli import fail

    try:
        game = rec.read(file)
    except BonepileError as e:
        fail(f"record error: {e}")
        return
    if game.to_move is None:
        fail("error: the game in this record is finished: no one is to move")
        return
    if seat is not None and not 0 <= seat < game.variant.players:
        fail(f"error: no seat {seat} in a {game.variant.players}-player game")
        return
    if seat is not None and seat != game.to_move:
        fail(f"error: seat {seat} is not to move (seat {game.to_move} is)")
        return
    try:
        rows = hint(game, seat=seat, simulations=simulations, seed=seed)
    except (BonepileError, ValueError) as e:
        fail(f"error: {e}")
        return
    to_move = game.to_move
    if as_json:
        typer.echo(json.dumps({
            "seat": to_move,
            "actions": [{"token": tok, "value": ev.value, "win": ev.win, "reason": ev.reason}
                        for tok, ev in rows]}))
        return
    typer.echo(f"seat {to_move} to move; the expert's evaluation, best first:")
    width = max(len(tok) for tok, _ in rows)
    for tok, ev in rows:
        win = "  -  " if ev.win is None else f"{100 * ev.win:4.0f}%"
        typer.echo(f"  {tok:<{width}}  {ev.value:+7.1f} pts  win {win}  {ev.reason}")
