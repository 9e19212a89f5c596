"""The ``bonepile`` command."""
from __future__ import annotations

import json
import random
import sys
from typing import List, Optional

import typer

from .engine import BonepileError, Game, OptionError, RecordError, make_variant
from .engine import record as rec
from .engine.variant import VARIANT_NAMES, parse_option_value

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Domino games as people play them: play, replay and study them.")


def fail(message: str, code: int = 2) -> None:
    typer.echo(message.replace("\n", "\\n").replace("\r", "\\r"), err=True)  # one line
    raise typer.Exit(code)


def parse_options(pairs: List[str], players: Optional[int]) -> dict:
    options: dict = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise OptionError(f"--option expects key=value, not {pair!r}")
        options[key.strip()] = parse_option_value(value)
    if players is not None:
        options["players"] = players
    return options


def random_game(variant: str, options: dict, seed: Optional[int]) -> Game:
    """A complete game with uniformly random legal actions."""
    game = Game.new(variant, options, seed=seed)
    rng = random.Random(None if seed is None else seed + 1)
    while not game.over:
        moves = game.legal_moves()
        game.apply(moves[rng.randrange(len(moves))])
    return game


@app.command()
def replay(
    file: str = typer.Argument(..., help="A game record (RECORD.md); - for standard input."),
    as_json: bool = typer.Option(False, "--json", help="Print the replay summary as JSON."),
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
            raise typer.Exit(2)
        fail(f"record error: {e}")
        return
    if as_json:
        typer.echo(json.dumps(game.result()))
    else:
        typer.echo(rec.describe(game), nl=False)


@app.command("random")
def random_cmd(
    variant: str = typer.Argument(..., help=f"One of: {', '.join(VARIANT_NAMES)}."),
    players: Optional[int] = typer.Option(None, "--players", "-n", help="Number of players."),
    option: List[str] = typer.Option([], "--option", "-O", help="A rule option, key=value (repeatable)."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Random seed (deals and moves)."),
    out: Optional[str] = typer.Option(None, "-o", "--out", help="Write the record here instead of stdout."),
) -> None:
    """Play a complete game with random legal moves and write its record."""
    try:
        options = parse_options(option, players)
        make_variant(variant, options)
        game = random_game(variant, options, seed)
    except BonepileError as e:
        fail(f"error: {e}")
        return
    text = rec.dumps(game.record())
    if out:
        try:
            with open(out, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            fail(f"error: cannot write {out}: {e.strerror}")
    else:
        typer.echo(text, nl=False)


from .cli_arena import arena  # noqa: E402
from .cli_hint import hint_cmd  # noqa: E402
from .cli_play import play  # noqa: E402
from .cli_serve import serve  # noqa: E402

app.command("play")(play)
app.command("hint")(hint_cmd)
app.command("arena")(arena)
app.command("serve")(serve)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
