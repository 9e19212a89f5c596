"""A single-agent Gymnasium environment: one seat is the agent, bonepile bots hold the others.

``BonepileEnv(variant, seat=0, opponents="random", **options)``; ``opponents`` is a bot level
of ``bonepile.bots.BOT_LEVELS`` ("random", "greedy", "expert" when present), a list of levels
(one per other seat, in seat order), or ``Bot`` instances; ``opponent_options`` is the bots'
``Budget`` as a dict (e.g. ``{"time": 0.05}`` for the expert).  Importing this module registers
``bonepile/Quinientos-v1``, ``bonepile/Cinque-v1``, ``bonepile/Draw-v1``, ``bonepile/Block-v1``,
``bonepile/Passing-v1``, ``bonepile/BlindHugie-v1`` and ``bonepile/Billitonnen-v1``::

    import gymnasium, bonepile.rl.gym
    env = gymnasium.make("bonepile/Block-v1", players=2, opponents="random")

Observations, masks and rewards are those of the PettingZoo environment (``obs.py``); the
reward of a step adds up what the agent's side scored until its next decision.  The mask is
also in ``info["action_mask"]``.  An illegal action ends the episode with reward
``illegal_reward`` (default -1) and ``info["illegal_action"] = True``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from . import extra_missing

try:
    import gymnasium
    from gymnasium import spaces
except ModuleNotFoundError as e:
    raise extra_missing(__name__, "rl", e) from None

from ..bots import Bot, Budget, make_bot
from ..engine import IllegalMoveError, OptionError, Variant
from ..engine.tiles import N_ACTIONS
from ..engine.view import observer
from .core import EPISODES, REWARDS, Match, check_choice, variant_from
from .obs import Encoder

GYM_IDS = {
    "quinientos": "bonepile/Quinientos-v1",
    "cinque": "bonepile/Cinque-v1",
    "draw": "bonepile/Draw-v1",
    "block": "bonepile/Block-v1",
    "passing": "bonepile/Passing-v1",
    "blind-hugie": "bonepile/BlindHugie-v1",
    "billitonnen": "bonepile/Billitonnen-v1",
}


class BonepileEnv(gymnasium.Env):
    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        variant: str | Variant = "block",
        *,
        seat: int = 0,
        opponents: str | Sequence[str | Bot] = "random",
        opponent_options: dict[str, Any] | None = None,
        episode: str = "hand",
        reward: str = "points",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        **options: Any,
    ):
        v = self.variant = variant_from(variant, options)
        if not (type(seat) is int and 0 <= seat < v.players):
            raise OptionError(f"seat must be 0..{v.players - 1}, not {seat!r}")
        self.seat = seat
        self.episode = check_choice("episode", episode, EPISODES)
        self.reward_kind = (
            "win_loss" if v.scoring == "result_only" else check_choice("reward", reward, REWARDS)
        )
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError("render_mode must be 'ansi' or None")
        self.render_mode = render_mode
        self.illegal_reward = float(illegal_reward)
        others = [s for s in range(v.players) if s != seat]
        if isinstance(opponents, (str, Bot)):
            opponents = [opponents] * len(others)
        opponents = list(opponents)
        if len(opponents) != len(others):
            raise OptionError(f"opponents: give one level or {len(others)} (one per other seat)")
        self._opponent_spec = dict(zip(others, opponents))
        self._opponent_budget = Budget(**opponent_options) if opponent_options else None
        for spec in opponents:  # fail early on an unknown level
            if not isinstance(spec, Bot):
                make_bot(spec, v, seed=0, budget=self._opponent_budget)
        self.encoder = Encoder(v)
        self.observation_space = spaces.Dict(
            {"observation": self.encoder.observation_box(), "action_mask": Encoder.mask_box()}
        )
        self.action_space = spaces.Discrete(N_ACTIONS)
        self._side = v.side_of(seat)
        self.match: Match | None = None
        self.bots: dict[int, Bot] = {}

    # ------------------------------------------------------------------ helpers
    def _obs(self) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        # read from the hand's Observer, the censoring boundary the seat's View is built
        # from: equal to encoding match.view(seat) (tests/test_rl_obs.py)
        x, mask = self.encoder.observe(
            observer(self.match.hand),  # type: ignore[union-attr]
            self.seat,
        )
        return {"observation": x, "action_mask": mask}, {"action_mask": mask}

    def _run_bots(self) -> None:
        m = self.match
        assert m is not None
        while not m.over and m.to_move != self.seat:
            s = m.to_move
            assert s is not None
            m.apply(self.bots[s].choose(m.view(s)))

    def _score(self) -> int:
        return self.match.scores()[self._side]  # type: ignore[union-attr]

    # ------------------------------------------------------------------ API
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        rng = self.np_random
        while True:
            seeds = rng.integers(2**63 - 1, size=1 + len(self._opponent_spec)).tolist()
            self.match = Match(self.variant, self.episode, seeds[0])
            self.bots = {}
            for (s, spec), bot_seed in zip(self._opponent_spec.items(), seeds[1:]):
                self.bots[s] = (
                    spec
                    if isinstance(spec, Bot)
                    else make_bot(spec, self.variant, seed=bot_seed, budget=self._opponent_budget)
                )
            self._run_bots()
            # (rare: blind games the bots finish before the agent's first turn) deal again
            if not self.match.over:
                break
        self._last = self._score()
        return self._obs()

    def step(self, action):
        m = self.match
        if m is None:
            raise RuntimeError("call reset() before step()")
        if m.over:
            raise RuntimeError("the episode is over; call reset()")
        try:
            m.apply(int(action))
        except IllegalMoveError:
            obs, info = self._obs()
            info["illegal_action"] = True
            self.match = None
            return obs, self.illegal_reward, True, False, info
        self._run_bots()
        reward = 0.0
        if self.reward_kind == "points":
            now = self._score()
            reward = float(now - self._last)
            self._last = now
        terminated = m.over
        if terminated and self.reward_kind == "win_loss":
            reward = m.win_loss(self._side)
        obs, info = self._obs()
        if terminated:
            info["winner"] = m.winner
            info["scores"] = m.scores()
        return obs, reward, terminated, False, info

    def render(self):
        if self.render_mode != "ansi" or self.match is None:
            return None
        return self.match.render(self.seat)


def register_all() -> None:
    for name, gid in GYM_IDS.items():
        if gid not in gymnasium.registry:
            gymnasium.register(id=gid, entry_point="bonepile.rl.gym:BonepileEnv", kwargs={"variant": name})


register_all()

__all__ = ["BonepileEnv", "GYM_IDS", "register_all"]
