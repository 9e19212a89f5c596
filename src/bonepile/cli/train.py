"""``bonepile train``: train an agent for one seat against bots, then measure it (the
command-line face of ``bonepile.rl.train``; needs the ``train`` extra, PyTorch)."""

from __future__ import annotations

import os
from typing import Annotated

import typer

from ..engine import BonepileError
from .common import Players, RuleOptions, VariantName, fail, game_options, seed_option


def train_cmd(
    variant: VariantName,
    steps: Annotated[
        int, typer.Option("--steps", help="Agent decisions to train for (forced moves not counted).")
    ],
    minutes: Annotated[
        float | None,
        typer.Option("--minutes", help="Stop training after this many minutes even if --steps are not done."),
    ] = None,
    players: Players = None,
    option: RuleOptions = None,
    seed: Annotated[int, seed_option("Seed of the network, the deals and the opponents.")] = 0,
    out: Annotated[
        str | None,
        typer.Option(
            "--out", "-o", help="Folder to write the policy (policy.pt) and the run (train.json) to."
        ),
    ] = None,
    opponents: Annotated[
        str, typer.Option("--opponents", help="The bot level the agent trains against (random, greedy...).")
    ] = "greedy",
    evaluate_deals: Annotated[
        int,
        typer.Option(
            "--eval",
            help="Deals to measure the agent on afterwards against greedy and random, each deal once "
            "per seat (0: no measure).",
        ),
    ] = 500,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress lines.")] = False,
) -> None:
    """Train a small PPO agent (action masks, net rewards, forced moves played for it) for one
    seat against bots, then report its share of hands won against greedy and random with 95%
    intervals.  Needs the train extra: pip install 'bonepile[train]'."""
    try:
        from ..rl import train as rl_train
    except ModuleNotFoundError as e:
        fail(
            f"error: bonepile train needs the train extra ({e.name} is not installed): pip install 'bonepile[train]'"
        )
    try:
        options, v = game_options(variant, option, players)
        if steps < 1:
            raise BonepileError(f"--steps must be at least 1, not {steps}")
        if evaluate_deals < 0:
            raise BonepileError(f"--eval must be 0 or more, not {evaluate_deals}")
        if out is not None and os.path.exists(out) and not os.path.isdir(out):
            raise BonepileError(f"--out {out} is a file, not a folder")
        cfg = rl_train.TrainConfig(
            variant=v.name,
            players=v.players,
            steps=steps,
            seed=seed,
            minutes=minutes,
            opponents=opponents,
            options={k: val for k, val in options.items() if k != "players"},
        )
        agent, meta = rl_train.train(cfg, log=(lambda _line: None) if quiet else typer.echo)
    except (BonepileError, ValueError) as e:
        fail(f"error: {e}")
    typer.echo(
        f"trained {meta['steps']:,} decisions ({meta['hands']:,} hands) in {meta['cpu_seconds']:,.0f} CPU seconds"
    )
    results = []
    if evaluate_deals:
        for level in ("greedy", "random"):
            ev = rl_train.evaluate(agent, agent.variant, level, evaluate_deals, seed=seed + 1_000_003)
            results.append({"opponent": level, "hands": ev.hands, "won": ev.won, "skipped": ev.skipped})
            typer.echo(ev.line())
    meta["evaluation"] = results
    if out is not None:
        path = agent.save(out, meta)
        typer.echo(f"wrote {path}")
