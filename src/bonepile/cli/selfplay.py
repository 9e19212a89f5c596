"""``bonepile selfplay``: bots against bots written as training data (the command-line face of
``bonepile.rl.selfplay``)."""

from __future__ import annotations

import os
import time
from typing import Annotated

import typer

from ..bots.budget import Budget
from ..engine import BonepileError
from .common import (
    DealWorkers,
    Players,
    RuleOptions,
    VariantName,
    bots_option,
    fail,
    parse_options,
    ray_option,
    seed_option,
    split_bots,
)


def selfplay(
    variant: VariantName,
    bots: Annotated[
        str,
        bots_option(
            "Comma-separated bots, rotated through the seats as in the arena: levels (beginner, "
            "casual, strong, expert), random, greedy, a plugin's name or module:Class."
        ),
    ],
    hands: Annotated[int, typer.Option("--hands", help="Play at least this many hands (whole deal sets).")],
    out: Annotated[str, typer.Option("--out", "-o", help="Output folder (new or empty).")],
    obs: Annotated[
        bool,
        typer.Option(
            "--obs", help="Also write every decision's observation, action mask, action and rewards."
        ),
    ] = False,
    players: Players = None,
    option: RuleOptions = None,
    seed: Annotated[int, seed_option("Seed of every deal and every bot.")] = 0,
    workers: DealWorkers = None,
    ray: Annotated[str | None, ray_option("Play the deal sets")] = None,
    time_budget: Annotated[
        float | None, typer.Option("--time", help="Seconds per decision for bots that take a time budget.")
    ] = None,
    simulations: Annotated[
        int | None,
        typer.Option(
            "--simulations", help="Simulations per decision (deterministic) for bots that take them."
        ),
    ] = None,
    shard_steps: Annotated[
        int, typer.Option("--shard-steps", help="Decisions per shard file (at least; whole deal sets).")
    ] = 50_000,
    force: Annotated[
        bool, typer.Option("--force", help="Replace an earlier run's manifest, records and shards in --out.")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Bots against bots, written for training: a game record per game (bonepile replay reads
    them) and, with --obs, every decision as the RL environments see it, in numpy shards, with
    a manifest (bonepile.rl.shards.load reads them back).  The same seed gives the same files."""
    from ..arena import ArenaSpec, validate
    from ..arena.executors import make_executor
    from ..rl.selfplay import prepare, run_selfplay

    try:
        options = parse_options(option, players)
        budget = (
            Budget(time=time_budget, simulations=simulations)
            if time_budget is not None or simulations is not None
            else None
        )
        spec = ArenaSpec(variant, options, tuple(split_bots(bots)), hands, seed=seed, budget=budget)
        validate(spec)
    except BonepileError as e:
        fail(f"error: {e}")
    if workers is not None and workers < 1:
        fail(f"error: --workers must be at least 1, not {workers}")
    if shard_steps < 1:
        fail(f"error: --shard-steps must be at least 1, not {shard_steps}")
    if obs:
        try:
            import numpy  # noqa: F401
        except ImportError:
            fail("error: --obs needs numpy: pip install 'bonepile[rl]'")
    if ray is not None:
        from ..arena.ray_executor import import_ray

        try:
            import_ray()
        except BonepileError as e:
            fail(f"error: {e}")
    try:
        prepare(out, force)  # before Ray starts: a bad --out costs nothing
        executor = make_executor(workers, ray)
    except BonepileError as e:
        fail(f"error: {e}")

    from rich.console import Console

    console = Console()
    start = time.perf_counter()
    try:
        if quiet:
            manifest = run_selfplay(
                spec, out, obs=obs, executor=executor, force=True, shard_steps=shard_steps
            )
        else:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            with Progress(
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("hands"),
                TimeElapsedColumn(),
                console=console,
            ) as bar:
                task = bar.add_task(f"{variant} self-play", total=hands)

                def progress(done: int, total: int) -> None:
                    bar.update(task, completed=done)

                manifest = run_selfplay(
                    spec,
                    out,
                    obs=obs,
                    executor=executor,
                    progress=progress,
                    force=True,
                    shard_steps=shard_steps,
                )
    except KeyboardInterrupt:
        console.print(f"Interrupted: {out} is incomplete.")
        raise typer.Exit(130) from None
    except BonepileError as e:  # a bot broke the rules or crashed, a Ray worker lost for good
        fail(f"error: {e}")
    elapsed = time.perf_counter() - start
    where = f"{executor.workers} worker(s){' (Ray)' if ray is not None else ''}"
    console.print(
        f"{manifest['hands']} hands in {manifest['games']} games, {manifest['decisions']} decisions, "
        f"{elapsed:.1f} s on {where}"
    )
    wrote = f"{os.path.join(out, 'manifest.json')} and {manifest['games']} records"
    if manifest["obs"]:
        wrote += f" and {len(manifest['obs']['shards'])} shard(s) of {manifest['obs']['steps']} steps"
    console.print(f"Wrote {wrote}")
