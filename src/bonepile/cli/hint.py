"""``bonepile hint RECORD``: the expert's view of every legal action at a record's end, in
English words (the reasons of ``bots.reasons``)."""

from __future__ import annotations

import json
from typing import Annotated, Any, NoReturn

import typer

from ..bots.budget import HINT_BUDGET, Budget
from ..engine import BonepileError, RecordError
from ..engine import record as rec
from .common import fail, seed_option


def hint_cmd(
    file: Annotated[str, typer.Argument(help="A game record (RECORD.md); its last position is studied.")],
    seat: Annotated[
        int | None, typer.Option("--seat", help="The seat to advise (default: the seat to move).")
    ] = None,
    simulations: Annotated[
        int | None,
        typer.Option(
            "--simulations",
            "-s",
            min=1,
            help="How many deals the expert imagines per move (deterministic); "
            f"default: {HINT_BUDGET.time} s of thought.",
        ),
    ] = None,
    seed: Annotated[int, seed_option("Seed of the search.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the evaluations as JSON.")] = False,
) -> None:
    """The expert's evaluation of every legal action at the record's current position, best first."""
    from ..bots import hint
    from ..bots.beliefs import english
    from ..bots.hint import tile_beliefs

    def error(message: str, record: dict[str, Any] | None = None) -> NoReturn:
        """One line on standard error, or with --json ``{"error": ...}`` as replay prints it."""
        if as_json:
            where = {"hand": None, "move": None, "token": None, "message": message.partition(": ")[2]}
            typer.echo(json.dumps({"error": record or where}))
            raise typer.Exit(2)
        fail(message)

    try:
        game = rec.read(file)
    except RecordError as e:
        error(f"record error: {e}", e.as_json())
    if game.to_move is None:
        if game.over:
            error("error: the game in this record is finished: no one is to move")
        error("error: the record stops before a hand is dealt: no one is to move")
    if seat is not None and not 0 <= seat < game.variant.players:
        error(f"error: no seat {seat} in a {game.variant.players}-player game")
    if seat is not None and seat != game.to_move:
        error(f"error: seat {seat} is not to move (seat {game.to_move} is)")
    try:
        budget = HINT_BUDGET if simulations is None else Budget(simulations=simulations)
        rows = hint(game, seat=seat, budget=budget, seed=seed)
        believed = tile_beliefs(game, seat)
    except (BonepileError, ValueError) as e:
        error(f"error: {e}")
    to_move = game.to_move
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "seat": to_move,
                    "actions": [
                        {
                            "token": tok,
                            "value": ev.value,
                            "win": ev.win,
                            "game": ev.game,
                            "reasons": list(ev.reasons),
                            "reason": ev.reason,
                        }
                        for tok, ev in rows
                    ],
                    "beliefs": believed.as_json(game.variant),
                }
            )
        )
        return
    typer.echo(f"seat {to_move} to move; the expert's view, best first:")
    width = max(len(tok) for tok, _ in rows)
    for tok, ev in rows:
        figures = [f"{ev.value:+.1f} points expected"]
        if ev.win is not None:
            figures.append(f"{100 * ev.win:.0f}% chance to win the hand")
        if ev.game is not None:
            figures.append(f"{100 * ev.game:.0f}% chance to win the game with this hand")
        typer.echo(f"  {tok:<{width}}  {'; '.join(figures)}")
        if ev.reason:
            typer.echo(f"  {'':<{width}}  {ev.reason}")
    if not game.view(to_move if seat is None else seat).blind:
        lines = english(game.variant, believed) or [
            "No one is likelier than not to hold any tile you cannot see."
        ]
        typer.echo("Where the tiles you cannot see probably are:")
        for line in lines:
            typer.echo(f"  {line}")
