"""The ``bonepile`` command: one module per command, the shared options in ``common``.

Each command module imports only ``common`` (and the layers below the command line); this
module builds the typer app from them."""

from __future__ import annotations

import sys

import typer

from . import analyze, arena, hint, play, puzzles, random, replay, selfplay, serve, tournament, train, verify
from .common import fill_optional_values

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Domino games as people play them: play, replay and study them.",
)
app.command("replay")(replay.replay)
app.command("random")(random.random_cmd)
app.command("play")(play.play)
app.command("hint")(hint.hint_cmd)
app.command("analyze")(analyze.analyze_cmd)
app.command("arena")(arena.arena)
app.command("selfplay")(selfplay.selfplay)
app.command("serve")(serve.serve)
app.command("train")(train.train_cmd)
app.command("verify")(verify.verify_cmd)
app.add_typer(puzzles.app, name="puzzles")
app.command("tournament")(tournament.tournament)


def main() -> None:
    app(args=fill_optional_values(sys.argv[1:]))
