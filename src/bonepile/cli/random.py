"""``bonepile random VARIANT``: a complete game of random legal moves, written as its record."""

from __future__ import annotations

import random
from typing import Annotated

import typer

from ..engine import BonepileError, Game
from ..engine import record as rec
from ..engine.commit import Seal, seeded_salt
from .common import Players, RuleOptions, VariantName, fail, game_options, seed_option


def random_game(variant: str, options: dict, seed: int | None) -> Game:
    """A complete game with uniformly random legal actions."""
    game = Game.new(variant, options, seed=seed)
    # the record is revealed at once; with --seed it comes out the same on every run
    game.seal = Seal.make(game.seed, None if seed is None else seeded_salt(seed))
    rng = random.Random(None if seed is None else seed + 1)
    while not game.over:
        moves = game.legal_moves()
        game.apply(moves[rng.randrange(len(moves))])
    return game


def random_cmd(
    variant: VariantName,
    players: Players = None,
    option: RuleOptions = None,
    seed: Annotated[int | None, seed_option("Random seed (deals and moves).")] = None,
    out: Annotated[
        str | None, typer.Option("-o", "--out", help="Write the record here instead of stdout.")
    ] = None,
) -> None:
    """Play a complete game with random legal moves and write its record."""
    try:
        options, _ = game_options(variant, option, players)
        game = random_game(variant, options, seed)
    except BonepileError as e:
        fail(f"error: {e}")
    text = rec.dumps(game.record())
    if out:
        try:
            with open(out, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            fail(f"error: cannot write {out}: {e.strerror}")
    else:
        typer.echo(text, nl=False)
