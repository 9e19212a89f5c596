"""``bonepile replay FILE``: check a record move by move (RECORD.md's replay contract)."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from ..engine import RecordError
from ..engine import record as rec
from .common import fail


def replay(
    file: Annotated[str, typer.Argument(help="A game record (RECORD.md); - for standard input.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the replay summary as JSON.")] = False,
) -> None:
    """Check a record move by move and print the game (or its summary as JSON)."""
    try:
        if file == "-":
            game = rec.replay(rec.loads(sys.stdin.buffer.read()))
        else:
            game = rec.read(file)
    except RecordError as e:
        if as_json:
            typer.echo(json.dumps({"error": e.as_json()}))
            raise typer.Exit(2) from None
        fail(f"record error: {e}")
    if as_json:
        typer.echo(json.dumps(game.result()))
    else:
        typer.echo(rec.describe(game), nl=False)
