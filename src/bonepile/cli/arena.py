"""``bonepile arena``: bots against bots over duplicate deals (the command-line face of
``bonepile.arena``)."""

from __future__ import annotations

import os
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


def arena(
    variant: VariantName,
    bots: Annotated[
        str,
        bots_option(
            "Comma-separated bots: levels (beginner, casual, strong, expert), random, greedy, "
            "a plugin's name or module:Class, e.g. expert,casual."
        ),
    ],
    hands: Annotated[int, typer.Option("--hands", help="Play at least this many hands (whole deal sets).")],
    players: Players = None,
    option: RuleOptions = None,
    workers: DealWorkers = None,
    seed: Annotated[int, seed_option("Seed of every deal and every bot.")] = 0,
    out: Annotated[
        str | None, typer.Option("--out", "-o", help="Output folder (default arena-VARIANT-sSEED).")
    ] = None,
    sprt: Annotated[
        str | None, typer.Option("--sprt", help="elo0,elo1: stop early on an SPRT decision (two bots).")
    ] = None,
    time_budget: Annotated[
        float | None, typer.Option("--time", help="Seconds per decision for bots that take a time budget.")
    ] = None,
    simulations: Annotated[
        int | None,
        typer.Option(
            "--simulations", help="Simulations per decision (deterministic) for bots that take them."
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    ray: Annotated[str | None, ray_option("Play the deal sets")] = None,
) -> None:
    """Bots against bots on duplicate deals: win rates with 95% intervals, points, timings,
    ratings; writes results.json, every game's record and a plot.

    A game is played to the target from a game seed; each game seed is replayed once per
    seating, the bots rotated through the seats (sides in partnership games), with the same
    deal for every hand number.  Runs whole sets of seatings until at least HANDS hands, or
    until the SPRT on hand results (two bots) decides."""
    from ..arena import ArenaSpec, validate, write_outputs
    from ..arena.executors import make_executor
    from ..arena.stats import parse_sprt

    try:
        options = parse_options(option, players)
        levels = tuple(split_bots(bots))
        budget = (
            Budget(time=time_budget, simulations=simulations)
            if time_budget is not None or simulations is not None
            else None
        )
        bounds = None
        if sprt is not None:
            try:
                bounds = parse_sprt(sprt)
            except ValueError as e:
                fail(f"error: {e}")
        spec = ArenaSpec(variant, options, levels, hands, seed=seed, budget=budget, sprt=bounds)
        validate(spec)
    except BonepileError as e:
        fail(f"error: {e}")
    if workers is not None and workers < 1:
        fail(f"error: --workers must be at least 1, not {workers}")
    if ray is not None:
        from ..arena.ray_executor import import_ray

        try:
            import_ray()
        except BonepileError as e:
            fail(f"error: {e}")
    out_dir = out or f"arena-{variant}-s{seed}"
    try:
        os.makedirs(os.path.join(out_dir, "records"), exist_ok=True)
    except OSError as e:
        fail(f"error: cannot create {out_dir}: {e.strerror}")

    from rich.console import Console

    console = Console()
    if not console.is_terminal:  # a file or a pipe: no need to fit 80 columns
        console = Console(width=120)
    label = f"{variant} {' vs '.join(spec.labels)}"
    try:
        executor = make_executor(workers, ray)
    except BonepileError as e:  # Ray missing, or its cluster out of reach
        fail(f"error: {e}")
    nworkers = executor.workers
    try:
        run = _run(spec, executor, hands, label, console, quiet)
    except KeyboardInterrupt:
        console.print("Interrupted: nothing written.")
        raise typer.Exit(130) from None
    except BonepileError as e:  # a bot broke the rules or crashed (BotError)
        fail(f"error: {e}")
    res = write_outputs(run, out_dir, nworkers)
    console.print(results_table(res))
    t = res["totals"]
    console.print(
        f"{t['hands']} hands in {t['games']} games ({t['deal_sets']} deal sets x "
        f"{res['settings']['rotations']} seatings), {t['decisions']} decisions, "
        f"{t['elapsed_s']:.1f} s on {nworkers} worker(s){' (Ray)' if ray is not None else ''}"
    )
    if res["sprt"]:
        s = res["sprt"]
        console.print(
            f"SPRT [{s['elo0']:g}, {s['elo1']:g}] alpha=beta=0.05: LLR {s['llr']:.2f} "
            f"(bounds {s['lower']:.2f}, {s['upper']:.2f}) after {s['wins']}W "
            f"{s['draws']}D {s['losses']}L: {s['verdict']}"
        )
    console.print(
        f"Wrote {os.path.join(out_dir, 'results.json')}, {os.path.join(out_dir, 'records')}/ "
        f"and {os.path.join(out_dir, 'winrates.png')}"
    )


def _run(spec, executor, hands: int, label: str, console, quiet: bool):
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from ..arena import run_arena

    if quiet:
        run = run_arena(spec, executor=executor)
    else:
        with Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("hands"),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            console=console,
            transient=False,
        ) as bar:
            task = bar.add_task(label, total=hands)

            def progress(done: int, total: int) -> None:
                bar.update(task, completed=done)

            run = run_arena(spec, progress=progress, executor=executor)
            if run.stopped_by == "sprt":
                bar.update(
                    task, total=run.hands, completed=run.hands, description=f"{label} (stopped: SPRT decided)"
                )
            else:
                bar.update(task, completed=min(run.hands, hands))
    return run


def results_table(res: dict):
    from rich import box
    from rich.table import Table

    table = Table(
        title=f"{res['settings']['variant']} arena, seed {res['settings']['seed']}",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    for col in ("bot", "hands", "won [95% CI]", "pts/hand", "games", "ms mean/med/p95", "OpenSkill"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for label, b in res["bots"].items():
        lo, hi = b["hands_won_ci95"]
        r = b["rating"]
        table.add_row(
            label,
            f"{b['hands_won']}/{b['hands']}",
            f"{b['hands_won_rate']:.1%} [{lo * 100:.1f}, {hi * 100:.1f}]",
            f"{b['points_per_hand']:.2f}±{b['points_per_hand_pm95']:.2f}",
            f"{b['games_won']}/{b['games']}",
            f"{b['decision_ms_mean']:.2f}/{b['decision_ms_median']:.2f}/{b['decision_ms_p95']:.2f}",
            f"{r['mu']:.1f}±{r['sigma']:.1f}",
        )
    return table
