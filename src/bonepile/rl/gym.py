"""A single-agent Gymnasium environment: one seat is the agent, bonepile bots hold the others.

``BonepileEnv(variant, seat=0, opponents="random", **options)``; ``opponents`` is a bot level
of ``bonepile.bots.BOT_LEVELS`` ("random", "greedy", "expert" when present), a list of levels
(one per other seat, in seat order), or ``Bot`` instances; ``opponent_options`` is the bots'
``Budget`` as a dict (e.g. ``{"time": 0.05}`` for the expert).  Importing this module registers
``bonepile/Quinientos-v1``, ``bonepile/Cinque-v1``, ``bonepile/Draw-v1``, ``bonepile/Block-v1``,
``bonepile/Passing-v1``, ``bonepile/BlindHugie-v1`` and ``bonepile/Billitonnen-v1``, and the
same names in version 2 (``bonepile/Block-v2``...), where ``auto_forced`` is on by default::

    import gymnasium, bonepile.rl.gym
    env = gymnasium.make("bonepile/Block-v2", players=2, opponents="random")

Observations, masks and rewards are those of the PettingZoo environment (``obs.py``); the
reward of a step adds up what the agent's side scored (``reward="net"``: minus what the other
side scored) until its next decision.  ``auto_forced=True`` plays the agent's forced decisions
(one legal action: a forced draw, pass or play) for it, so every step is a real choice; then
``info["forced"]`` counts the moves played for it since its last step.  The mask is also in
``info["action_mask"]`` and ``action_masks()`` (sb3-contrib's MaskablePPO convention).  An illegal action ends the episode with reward
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
from ..engine.view import observer
from .actions import RL_VARIANTS
from .core import (
    EPISODES,
    RENDER_MODES,
    REWARDS,
    Match,
    check_choice,
    check_render_mode,
    forced,
    net,
    render_as,
    variant_from,
)
from .encoders import encoder

GYM_IDS = {
    "quinientos": "bonepile/Quinientos-v1",
    "cinque": "bonepile/Cinque-v1",
    "draw": "bonepile/Draw-v1",
    "block": "bonepile/Block-v1",
    "passing": "bonepile/Passing-v1",
    "blind-hugie": "bonepile/BlindHugie-v1",
    "billitonnen": "bonepile/Billitonnen-v1",
}
# the games added later (the larger sets, the train layout): ids from their names,
# ``all-fives`` -> ``bonepile/AllFives-v1``, ``mexican-train`` -> ``bonepile/MexicanTrain-v1``
for _name in RL_VARIANTS:
    if _name not in GYM_IDS:
        GYM_IDS[_name] = "bonepile/" + "".join(w.capitalize() for w in _name.split("-")) + "-v1"
#: version 2: ``auto_forced=True`` by default (version 1 keeps every forced move an agent step)
GYM_IDS_V2 = {name: gid[:-1] + "2" for name, gid in GYM_IDS.items()}


class BonepileEnv(gymnasium.Env):
    metadata = {"render_modes": list(RENDER_MODES)}

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
        auto_forced: bool = False,
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
        self.render_mode = check_render_mode(render_mode)
        if not isinstance(auto_forced, bool):
            raise OptionError(f"auto_forced must be True or False, not {auto_forced!r}")
        self.auto_forced = auto_forced
        self._forced_moves = 0
        self._mask: np.ndarray | None = None
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
        self.encoder = encoder(v)
        self.observation_space = spaces.Dict(
            {"observation": self.encoder.observation_box(), "action_mask": self.encoder.mask_box()}
        )
        self.action_space = spaces.Discrete(self.encoder.actions.n)
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
        self._mask = mask
        info: dict[str, Any] = {"action_mask": mask}
        if self.auto_forced:
            info["forced"] = self._forced_moves
        return {"observation": x, "action_mask": mask}, info

    def _run_bots(self) -> None:
        """Play until the agent has a decision (with ``auto_forced``: a real choice)."""
        m = self.match
        assert m is not None
        self._forced_moves = 0
        while not m.over:
            s = m.to_move
            assert s is not None
            if s != self.seat:
                m.apply_move(self.bots[s].choose(m.view(s)))
            elif self.auto_forced and forced(m.hand):
                m.apply_move(m.hand.legal_moves()[0])
                self._forced_moves += 1
            else:
                break

    def _score(self) -> float:
        scores = self.match.gains()  # type: ignore[union-attr]
        if self.reward_kind == "net":
            return net(scores, self._side)
        return float(scores[self._side])

    def action_masks(self) -> np.ndarray:
        """The legal actions of the agent's decision, as booleans (sb3-contrib's convention)."""
        if self._mask is None:
            raise RuntimeError("call reset() before action_masks()")
        return self._mask.astype(bool)

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
        if self.reward_kind != "win_loss":
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
        if self.match is None:
            return None
        return render_as(self.render_mode, self.match.render(self.seat))


def register_all() -> None:
    for version, ids in ((1, GYM_IDS), (2, GYM_IDS_V2)):
        for name, gid in ids.items():
            if gid not in gymnasium.registry:
                kwargs: dict[str, Any] = {"variant": name}
                if version == 2:
                    kwargs["auto_forced"] = True
                gymnasium.register(id=gid, entry_point="bonepile.rl.gym:BonepileEnv", kwargs=kwargs)


register_all()

__all__ = ["BonepileEnv", "GYM_IDS", "GYM_IDS_V2", "register_all"]
