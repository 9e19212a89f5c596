"""``bonepile tournament``: a tournament's format played by bots, so a club can try a format
before running it with people (the command-line face of ``arena/tournament_play.py``)."""

from __future__ import annotations

import dataclasses
import json
import os
from typing import Annotated

import typer

from ..bots.budget import Budget
from ..engine import BonepileError
from ..engine.errors import OptionError
from .common import (
    Players,
    RuleOptions,
    VariantName,
    bots_option,
    fail,
    parse_options,
    seed_option,
    split_bots,
)


def expand_bots(text: str) -> tuple[str, ...]:
    """The entrants' levels: ``expert,strong,casual`` or with counts, ``expert*2,casual*6``."""
    out: list[str] = []
    for item in split_bots(text):
        name, star, count = item.partition("*")
        if star:
            if not count.strip().isdigit() or int(count) < 1:
                raise OptionError(f"--bots: {item!r} needs a count of at least 1 after *, e.g. casual*4")
            out += [name.strip()] * int(count)
        else:
            out.append(name)
    return tuple(out)


def tournament(
    variant: VariantName,
    bots: Annotated[
        str,
        bots_option(
            "The entrants, one bot level each (a pair of that level in partnership games): "
            "e.g. expert,strong,casual,beginner, or with counts, expert*2,casual*6."
        ),
    ],
    format: Annotated[str, typer.Option("--format", help="swiss or round-robin.")] = "swiss",
    rounds: Annotated[
        int | None,
        typer.Option("--rounds", help="Number of rounds (default: 3 Swiss rounds, or a whole round robin)."),
    ] = None,
    hands: Annotated[
        int, typer.Option("--hands", help="Hands per round (the same deals at every table).")
    ] = 2,
    pairs: Annotated[
        bool, typer.Option("--pairs", help="Partnership play: each entrant is a pair (option teams=true).")
    ] = False,
    scoring: Annotated[
        str,
        typer.Option(
            "--scoring", help="matchpoints (2 per result beaten on the same tiles, 1 per tie) or difference."
        ),
    ] = "matchpoints",
    players: Players = None,
    option: RuleOptions = None,
    seed: Annotated[int, seed_option("Seed of every round's deals and every bot.")] = 0,
    simulations: Annotated[
        int | None, typer.Option("--simulations", help="Simulations per decision for bots that take them.")
    ] = None,
    out: Annotated[
        str | None, typer.Option("--out", "-o", help="Write standings.json and every table's record here.")
    ] = None,
) -> None:
    """A tournament of bots on duplicate deals: every table of a round plays the same deals,
    each result is compared with the results on the same tiles at the other tables, and the
    standings (score, then points difference, head-to-head, Buchholz) are printed."""
    from ..arena.tournament_play import TournamentSpec, results, run_tournament, validate, whole_round_robin

    try:
        options = parse_options(option, players)
        if pairs:
            options["teams"] = True
        spec = TournamentSpec(
            variant,
            options,
            expand_bots(bots),
            format=format,  # type: ignore[arg-type]  # checked by validate
            rounds=rounds if rounds is not None else 3,
            hands=hands,
            seed=seed,
            scoring=scoring,  # type: ignore[arg-type]
            budget=Budget(simulations=simulations) if simulations is not None else None,
        )
        if rounds is None and format == "round-robin":
            spec = dataclasses.replace(spec, rounds=max(1, whole_round_robin(spec)))
        v, _settings = validate(spec)
        if pairs and not v.teams:
            fail(f"error: --pairs: {variant} is not played in partnerships")
    except BonepileError as e:
        fail(f"error: {e}")
    if out is not None:
        try:
            os.makedirs(out, exist_ok=True)
        except OSError as e:
            fail(f"error: cannot create {out}: {e.strerror}")

    from rich.console import Console

    console = Console()
    if not console.is_terminal:
        console = Console(width=120)
    try:
        run = run_tournament(spec)
    except KeyboardInterrupt:
        console.print("Interrupted: nothing written.")
        raise typer.Exit(130) from None
    except BonepileError as e:
        fail(f"error: {e}")
    res = results(run)
    console.print(standings_table(res))
    console.print(
        f"{len(run.tables)} tables over {spec.rounds} rounds, {spec.hands} hand(s) per round; "
        "ties broken by points difference, then head-to-head, then Buchholz; bots that fill the field are not ranked."
    )
    if out is not None:
        for t in run.tables:
            with open(os.path.join(out, f"r{t.round + 1}-t{t.table + 1}.txt"), "w", encoding="utf-8") as f:
                f.write(t.record)
        with open(os.path.join(out, "standings.json"), "w", encoding="utf-8") as f:
            json.dump(res, f, indent=1)
        console.print(f"Wrote {os.path.join(out, 'standings.json')} and {len(run.tables)} records")


def standings_table(res: dict):
    from rich import box
    from rich.table import Table

    s = res["settings"]
    table = Table(
        title=f"{s['variant']} {s['format']} tournament, seed {s['seed']}",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    for col in ("rank", "entrant", s["scoring"], "difference", "head-to-head", "Buchholz", "deals"):
        table.add_column(col, justify="left" if col == "entrant" else "right")
    for r in res["standings"]:
        table.add_row(
            "bot" if r["rank"] is None else str(r["rank"]),
            r["name"],
            f"{r['score']:g}",
            f"{r['difference']:+d}",
            f"{r['head_to_head']:+d}",
            f"{r['buchholz']:g}",
            str(r["deals"]),
        )
    return table
