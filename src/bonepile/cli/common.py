"""What the commands share: the option declarations (variant, players, ``--option key=value``,
seed, bots), their parsing and checking, and the one way a command fails.

A command declares a shared parameter with one of these annotations, e.g.
``players: Players = None``; ``--seed`` and ``--bots`` say different things in different
commands, so they are built from their help text (``seed_option``, ``bots_option``).  This module
imports nothing from the other command modules."""

from __future__ import annotations

from typing import Annotated, Any, NoReturn

import typer

from ..engine import Variant, make_variant
from ..engine.errors import OptionError
from ..engine.variant import ENGINE_VARIANTS, parse_option_value

#: the variant, the first argument of random, play, arena, tournament, selfplay and train
#: (every game the engine plays: the train games too)
VariantName = Annotated[str, typer.Argument(help=f"One of: {', '.join(ENGINE_VARIANTS)}.")]
#: ``--players N`` (absent: the variant's default count)
Players = Annotated[int | None, typer.Option("--players", "-n", help="Number of players.")]
#: ``--option key=value``, repeatable (absent: None)
RuleOptions = Annotated[
    list[str] | None, typer.Option("--option", "-O", help="A rule option, key=value (repeatable).")
]
#: ``--workers N`` of the commands that play deal sets (absent: every core, or the Ray cluster's)
DealWorkers = Annotated[
    int | None,
    typer.Option(
        "--workers",
        "-w",
        help="Processes (default: all cores); with --ray, deal sets at once (default: the cluster's CPUs).",
    ),
]


def seed_option(text: str) -> Any:
    """The ``--seed`` option, saying what it seeds."""
    return typer.Option("--seed", help=text)


def bots_option(text: str) -> Any:
    """The ``--bots`` option (bot levels, comma-separated), saying how they are used."""
    return typer.Option("--bots", help=text)


#: options whose value may be left out, and the value they then take: ``--ray`` alone starts
#: a Ray instance on this machine, ``--ray ADDRESS`` joins the cluster at ADDRESS
OPTIONAL_VALUES = {"--ray": "local"}


def ray_option(what: str) -> Any:
    """The ``--ray [ADDRESS]`` option (its value filled in by ``fill_optional_values``)."""
    return typer.Option(
        "--ray",
        metavar="[ADDRESS]",
        help=f"{what} as Ray tasks: alone, on a Ray instance started here; with the address of "
        "a Ray cluster's head (host:port, or auto for the one this machine belongs to), on that "
        "cluster.  Needs the ray extra.",
    )


def fill_optional_values(args: list[str]) -> list[str]:
    """The command line with the value of an option of ``OPTIONAL_VALUES`` filled in where it
    is left out (the option is last, or followed by another option): typer's options either
    always or never take a value."""
    out: list[str] = []
    for i, arg in enumerate(args):
        out.append(arg)
        if arg == "--":
            return out + args[i + 1 :]
        if arg in OPTIONAL_VALUES and (i + 1 == len(args) or args[i + 1].startswith("-")):
            out.append(OPTIONAL_VALUES[arg])
    return out


def fail(message: str, code: int = 2) -> NoReturn:
    """Print one line on standard error and exit (status 2 by default)."""
    typer.echo(message.replace("\n", "\\n").replace("\r", "\\r"), err=True)  # one line
    raise typer.Exit(code)


def parse_options(pairs: list[str] | None, players: int | None) -> dict[str, Any]:
    """The rule options of ``--option key=value`` pairs and ``--players`` (OptionError if a
    pair is malformed; the variant checks names and values)."""
    options: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise OptionError(f"--option expects key=value, not {pair!r}")
        options[key.strip()] = parse_option_value(value)
    if players is not None:
        options["players"] = players
    return options


def game_options(
    variant: str, pairs: list[str] | None, players: int | None
) -> tuple[dict[str, Any], Variant]:
    """The options and the variant they make (OptionError names what is wrong)."""
    options = parse_options(pairs, players)
    return options, make_variant(variant, options)


def split_bots(text: str) -> list[str]:
    """The bot levels of a comma-separated ``--bots`` value, blanks dropped."""
    return [b.strip() for b in text.split(",") if b.strip()]
