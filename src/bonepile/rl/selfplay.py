"""Self-play data for training: bots play as in the arena (the same deal sets, seeds and unit of
work, on a process pool or on Ray) and every game is written as a record; with observations,
every decision is also written as the RL environments see it (``shards`` describes the folder).

The observations come from the environments' own encoder (``obs.Encoder.observe`` on the
hand's ``Observer``: only what the deciding seat may know) and the rewards are the
PettingZoo environment's (``episode="game"``): a game of a self-play folder, replayed in that
environment from its game seed with the same actions, gives the same rows.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
from collections.abc import Callable
from typing import Any

from ..arena.executors import Executor, make_executor
from ..arena.report import record_name
from ..arena.runner import ArenaSpec, GameResult, ordered_results, play_deal_set, validate
from ..engine import Game, OptionError, Variant, make_variant
from ..engine.deals import derive

#: a shard is closed once it holds at least this many decisions (at a deal set's end)
SHARD_STEPS = 50_000


class Steps:
    """Watches one game (``runner.Watcher``): each decision's observation, mask, action and
    the rewards that followed it."""

    def __init__(self, variant: Variant) -> None:
        from .encoders import encoder

        self.encoder = encoder(variant)
        self.side = [variant.side_of(s) for s in range(variant.players)]
        self.win_loss = variant.scoring == "result_only"
        self.obs: list[Any] = []
        self.mask: list[Any] = []
        self.action: list[int] = []
        self.seat: list[int] = []
        self.reward: list[list[float]] = []
        self.done: list[bool] = []
        self.forced: list[bool] = []
        self.hand: list[int] = []
        self._before: list[int] = []

    def _reward(self, now: list[int]) -> None:
        """The last step's rewards, from the scores before it and ``now``."""
        if not self.win_loss:
            before = self._before
            self.reward[-1] = [float(now[side] - before[side]) for side in self.side]

    @staticmethod
    def _gains(game: Game) -> list[int]:
        """The scores as rewards (penalties negated: ``scoring.gains``), as the environments."""
        from ..engine.scoring import gains

        return list(gains(game.variant, game.scores()))

    def decide(self, game: Game, seat: int, action: int) -> None:
        from ..engine.view import observer
        from .core import forced

        now = self._gains(game)
        if self.reward:
            # again, now that the next hand (if the last one ended) is dealt: the environment
            # deals it within the step, so points a hand started with would count there
            self._reward(now)
        x, mask = self.encoder.observe(observer(game.hand), seat)
        self.obs.append(x)
        self.mask.append(mask)
        self.action.append(self.encoder.actions.of(action, seat))
        self.seat.append(seat)
        self.reward.append([0.0] * len(self.side))
        self.done.append(False)
        self.forced.append(forced(game.hand))
        self.hand.append(game.hand.number)
        self._before = now

    def applied(self, game: Game, seat: int) -> None:
        self._reward(self._gains(game))
        if game.over:
            self.done[-1] = True
            if self.win_loss:
                w = game.winner
                self.reward[-1] = [0.0 if w is None else 1.0 if w == side else -1.0 for side in self.side]

    def arrays(self) -> dict[str, Any]:
        import numpy as np

        n = len(self.side)
        return {
            "obs": np.stack(self.obs) if self.obs else np.zeros((0, self.encoder.size), np.float32),
            "mask": np.stack(self.mask) if self.mask else np.zeros((0, self.encoder.actions.n), np.int8),
            "action": np.asarray(self.action, np.int16),
            "seat": np.asarray(self.seat, np.int8),
            "reward": np.asarray(self.reward, np.float32).reshape(-1, n),
            "done": np.asarray(self.done, bool),
            "forced": np.asarray(self.forced, bool),
            "hand": np.asarray(self.hand, np.int16),
        }


def selfplay_deal_set(
    spec: ArenaSpec, obs: bool, deal_set: int
) -> tuple[list[GameResult], list[dict[str, Any]] | None]:
    """The unit of work of self-play: the arena's ``play_deal_set``, watched when observations
    are wanted (then also each game's arrays, in seating order)."""
    if not obs:
        return play_deal_set(spec, deal_set), None
    v = make_variant(spec.variant, spec.options)
    watchers: list[Steps] = []

    def watcher() -> Steps:
        watchers.append(Steps(v))
        return watchers[-1]

    games = play_deal_set(spec, deal_set, watch=watcher)
    return games, [w.arrays() for w in watchers]


def prepare(out_dir: str, force: bool) -> None:
    """Make ``out_dir`` ready: new or empty; with ``force`` an earlier run's manifest, records and
    shards are removed (nothing else).  OptionError when it cannot be used."""
    if os.path.exists(out_dir) and not os.path.isdir(out_dir):
        raise OptionError(f"--out {out_dir} is a file, not a folder")
    if os.path.isdir(out_dir) and os.listdir(out_dir):
        if not force:
            raise OptionError(f"--out {out_dir} is not empty (--force replaces an earlier run there)")
        for sub in ("records", "shards"):
            shutil.rmtree(os.path.join(out_dir, sub), ignore_errors=True)
        if os.path.exists(os.path.join(out_dir, "manifest.json")):
            os.remove(os.path.join(out_dir, "manifest.json"))
    try:
        os.makedirs(os.path.join(out_dir, "records"), exist_ok=True)
    except OSError as e:
        raise OptionError(f"cannot create {out_dir}: {e.strerror}") from None


class _ShardWriter:
    def __init__(self, folder: str, shard_steps: int) -> None:
        os.makedirs(os.path.join(folder, "shards"), exist_ok=True)
        self.folder = folder
        self.shard_steps = shard_steps
        self.parts: list[dict[str, Any]] = []
        self.steps = 0
        self.written: list[dict[str, Any]] = []

    def add(self, arrays: dict[str, Any], episode: dict[str, Any]) -> None:
        import numpy as np

        rows = len(arrays["action"])
        self.parts.append(
            {**arrays, "episode": np.full(rows, episode["ep_id"], np.int32), "_episode": episode}
        )
        self.steps += rows

    def end_of_deal_set(self) -> None:
        if self.steps >= self.shard_steps:
            self.flush()

    def flush(self) -> None:
        import numpy as np

        from .shards import EPISODE_ARRAYS, STEP_ARRAYS, save, shard_name

        if not self.parts:
            return
        out = {name: np.concatenate([p[name] for p in self.parts]) for name in STEP_ARRAYS}
        eps = [p["_episode"] for p in self.parts]
        types = {
            "ep_id": np.int32,
            "ep_deal_set": np.int32,
            "ep_rotation": np.int8,
            "ep_seed": np.int64,
            "ep_bots": np.int8,
            "ep_hands": np.int32,
            "ep_finished": bool,
        }
        for name in EPISODE_ARRAYS:
            out[name] = np.asarray([e[name] for e in eps], types[name])
        name = shard_name(len(self.written))
        save(os.path.join(self.folder, name), out)
        self.written.append({"file": name, "steps": self.steps, "episodes": len(eps)})
        self.parts = []
        self.steps = 0


def _hands(result: tuple[list[GameResult], Any]) -> int:
    return sum(len(g.hands) for g in result[0])


def run_selfplay(
    spec: ArenaSpec,
    out_dir: str,
    *,
    obs: bool = False,
    workers: int | None = None,
    ray: str | None = None,
    executor: Executor | None = None,
    progress: Callable[[int, int], None] | None = None,
    force: bool = False,
    shard_steps: int = SHARD_STEPS,
) -> dict[str, Any]:
    """Play whole deal sets until at least ``spec.hands`` hands and write them into
    ``out_dir`` (``shards`` describes the folder); returns the manifest.  Where the deal sets
    are played is as for ``arena.run_arena`` (``workers``, ``ray`` or ``executor``, closed at
    the end).  OptionError (BonepileError) on bad input, before anything is played."""
    from .shards import FORMAT, MANIFEST

    if spec.sprt is not None:
        raise OptionError("self-play has no SPRT")
    validate(spec)
    if workers is not None and workers < 1:
        raise OptionError(f"--workers must be at least 1, not {workers}")
    if type(shard_steps) is not int or shard_steps < 1:
        raise OptionError(f"--shard-steps must be at least 1, not {shard_steps}")
    v = make_variant(spec.variant, spec.options)
    prepare(out_dir, force)
    if executor is None:
        executor = make_executor(workers, ray)
    writer = _ShardWriter(out_dir, shard_steps) if obs else None
    records: list[str] = []
    hands = sets = decisions = 0
    work = functools.partial(selfplay_deal_set, spec, obs)
    results = ordered_results(executor, work, spec.hands, _hands, progress)
    try:
        for g, (games, steps) in results:
            sets += 1
            for i, game in enumerate(games):
                name = record_name(game.deal_set, game.rotation)
                with open(os.path.join(out_dir, "records", name), "w", encoding="utf-8") as f:
                    f.write(game.record)
                records.append(name)
                hands += len(game.hands)
                decisions += sum(len(ms) for ms in game.decision_ms)
                if writer is not None and steps is not None:
                    writer.add(
                        steps[i],
                        {
                            "ep_id": len(records) - 1,
                            "ep_deal_set": g,
                            "ep_rotation": game.rotation,
                            "ep_seed": derive(spec.seed, "game", g),
                            "ep_bots": list(game.seats),
                            "ep_hands": len(game.hands),
                            "ep_finished": game.finished,
                        },
                    )
            if writer is not None:
                writer.end_of_deal_set()
            if hands >= spec.hands:
                break
    finally:
        results.close()
    manifest: dict[str, Any] = {
        "format": FORMAT,
        "variant": spec.variant,
        "options": dict(spec.options),
        "players": v.players,
        "bots": list(spec.bots),
        "labels": list(spec.labels),
        "seed": spec.seed,
        "budget": spec.budget.as_dict() if spec.budget else {},
        "hands_asked": spec.hands,
        "deal_sets": sets,
        "games": len(records),
        "hands": hands,
        "decisions": decisions,
        "records": records,
        "obs": None,
    }
    if writer is not None:
        writer.flush()
        from .encoders import encoder

        enc = encoder(v)
        manifest["obs"] = {
            "encoder": f"{type(enc).__module__}.{type(enc).__name__}",
            "size": enc.size,
            "n_actions": enc.actions.n,
            "fields": {name: [enc.offsets[name], size] for name, size in enc.sizes.items()},
            "reward": "win_loss" if v.scoring == "result_only" else "points",
            "steps": sum(s["steps"] for s in writer.written),
            "shards": writer.written,
        }
    with open(os.path.join(out_dir, MANIFEST), "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    return manifest


__all__ = ["run_selfplay", "selfplay_deal_set", "Steps", "prepare", "SHARD_STEPS"]
