"""PettingZoo AEC environments for every bonepile variant.

``env(variant, **options)`` (wrapped, the usual entry point) and ``raw_env(variant, **options)``;
per-variant constructors ``ENVS["bonepile_block_v1"]`` and module-level ``block_v1`` etc.
Options of the variant (``players``, ``teams``, ``target``...) go to ``make_variant``; the
environment's own options are ``episode="hand"|"game"``, ``reward="points"|"net"|"win_loss"``,
``auto_forced`` and ``render_mode="ansi"|"human"``.  Version 2 (``bonepile_block_v2``,
``block_v2``...) is version 1 with ``auto_forced=True`` by default: a decision with one legal
action (a forced draw, pass or play) is played for the agent, so every agent step is a choice.

Agents are ``player_0 ... player_{n-1}`` (seat numbers).  Every agent has the action space
``Discrete(114)`` in the double-six line games (the game's action ids, ``actions.py``;
``Discrete(821)`` in Mexican Train, its trains relative to the acting seat) and the observation
space ``Dict(observation=Box(float32), action_mask=Box(int8, 114))``, built only from what the
agent's seat may know (the hand's ``Observer``, from which its ``View`` is built).  Rewards are the points scored by the agent's side (each step's increase); with
``reward="net"``, those minus the other side's (more sides: minus the mean of the others'),
zero-sum as OpenSpiel's returns; with ``reward="win_loss"`` an agent gets +1 / -1 / 0 at the episode's end for its side winning,
another side winning, or no winner.  Billitonnen scores no points: it always uses win/loss.

``env()`` wraps with PettingZoo's AssertOutOfBoundsWrapper and OrderEnforcingWrapper, as
subclasses that make the same checks with less indirection on every step.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from . import extra_missing

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv, ParallelEnv
    from pettingzoo.utils import wrappers
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel
    from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterable, AECOrderEnforcingIterator
except ModuleNotFoundError as e:
    raise extra_missing(__name__, "rl", e) from None

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

VERSIONS = (1, 2)


def env_name(variant: str, version: int = 1) -> str:
    """The versioned PettingZoo name of a variant: ``bonepile_blind_hugie_v1``."""
    return f"bonepile_{variant.replace('-', '_')}_v{version}"


class raw_env(AECEnv):
    """A bonepile variant as a PettingZoo AEC environment (see the module's docstring)."""

    metadata: dict[str, Any] = {
        "render_modes": list(RENDER_MODES),
        "name": "bonepile_v1",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        variant: str | Variant = "block",
        *,
        episode: str = "hand",
        reward: str = "points",
        render_mode: str | None = None,
        auto_forced: bool = False,
        **options: Any,
    ):
        super().__init__()
        v = self.variant = variant_from(variant, options)
        self.episode = check_choice("episode", episode, EPISODES)
        self.reward_kind = check_choice("reward", reward, REWARDS)
        if v.scoring == "result_only":
            self.reward_kind = "win_loss"
        self.render_mode = check_render_mode(render_mode)
        if not isinstance(auto_forced, bool):
            raise OptionError(f"auto_forced must be True or False, not {auto_forced!r}")
        self.auto_forced = auto_forced
        self.metadata = dict(self.metadata, name=env_name(v.name, 2 if auto_forced else 1))
        self.encoder = encoder(v)
        self.possible_agents = [f"player_{s}" for s in range(v.players)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        self._side = [v.side_of(s) for s in range(v.players)]
        obs_space = spaces.Dict(
            {"observation": self.encoder.observation_box(), "action_mask": self.encoder.mask_box()}
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.encoder.actions.n) for a in self.possible_agents}
        self._seeds = random.Random()
        self.match: Match | None = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """``options={"game_seed": S}`` (``episode="game"``): play the game of that seed, e.g.
        an arena or self-play game (``ep_seed`` of ``rl.shards``) to replay its actions."""
        if seed is not None:
            self._seeds = random.Random(seed)
        game_seed = (options or {}).get("game_seed")
        if game_seed is not None and self.episode != "game":
            raise ValueError('the game_seed option needs episode="game"')
        while True:
            if self.episode == "hand":  # deal with the environment's own generator
                self.match = Match(self.variant, self.episode, rng=self._seeds)
            else:
                seed_now = self._seeds.getrandbits(63) if game_seed is None else game_seed
                self.match = Match(self.variant, self.episode, int(seed_now))
            self._play_forced()
            # (rare: forced moves alone end the episode) deal again, unless a game was asked for
            if not self.match.over or game_seed is not None:
                break
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._scores = self.match.gains()
        self._zero_rewards = True  # self.rewards holds only zeros
        if self.match.over:  # only with game_seed: the whole game was forced
            self.terminations = {a: True for a in self.agents}
            self.agent_selection = self.possible_agents[0]
        else:
            self.agent_selection = self.possible_agents[self.match.to_move]  # type: ignore[index]

    def _play_forced(self) -> None:
        """With ``auto_forced``: play every decision that has one legal action."""
        m = self.match
        assert m is not None
        if self.auto_forced:
            while not m.over and forced(m.hand):
                m.apply_move(m.hand.legal_moves()[0])

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        # read from the hand's Observer, the censoring boundary the seat's View is built
        # from: equal to encoding match.view(seat) (tests/test_rl_obs.py), without building it
        x, mask = self.encoder.observe(
            observer(self.match.hand),  # type: ignore[union-attr]
            self._seat[agent],
        )
        return {"observation": x, "action_mask": mask}

    def last(self, observe: bool = True):
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        m = self.match
        assert m is not None
        try:
            m.apply(action)
        except IllegalMoveError as e:
            raise ValueError(f"illegal action {action} for {agent}: {e}") from None
        except TypeError:
            raise ValueError(f"action {action!r} for {agent} is not an action id") from None
        if self.auto_forced:
            self._play_forced()
        self._cumulative_rewards[agent] = 0.0
        side = self._side
        agents = self.possible_agents
        if self.reward_kind != "win_loss":
            new = m.gains()
            old = self._scores
            if new != old:
                self._scores = new
                if self.reward_kind == "net":
                    self.rewards = {a: net(new, side[s]) - net(old, side[s]) for s, a in enumerate(agents)}
                else:
                    self.rewards = {a: float(new[side[s]] - old[side[s]]) for s, a in enumerate(agents)}
                self._zero_rewards = False
            elif not self._zero_rewards:
                self.rewards = dict.fromkeys(agents, 0.0)
                self._zero_rewards = True
        elif not self._zero_rewards:
            self.rewards = dict.fromkeys(agents, 0.0)
            self._zero_rewards = True
        if m.over:  # (a property: read once)
            if self.reward_kind == "win_loss":
                self.rewards = {a: m.win_loss(side[s]) for s, a in enumerate(agents)}
                self._zero_rewards = False
            self.terminations = {a: True for a in self.agents}
            # every agent now steps None in turn; start with the one who acted
        else:
            self.agent_selection = agents[m.hand.to_move]
        if not self._zero_rewards:
            self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without render_mode; use render_mode='ansi'")
            return None
        return render_as(self.render_mode, "" if self.match is None else self.match.render())

    def close(self) -> None:
        pass


class _AssertOutOfBounds(wrappers.AssertOutOfBoundsWrapper):
    """PettingZoo's AssertOutOfBoundsWrapper; a plain int in range skips ``Discrete.contains``
    (the same test), anything else gets the standard check."""

    def step(self, action) -> None:
        if type(action) is int and 0 <= action < self.env.unwrapped.encoder.actions.n:
            self.env.step(action)
        else:
            super().step(action)


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's OrderEnforcingWrapper with the same checks; the attributes read on every
    step (``agents``, ``agent_selection``, ``last()``, the agent iterator...) go straight to
    the environment instead of through a chain of ``__getattr__``."""

    def __init__(self, env: AECEnv):
        super().__init__(env)
        self._raw = env.unwrapped
        # an int action in range goes straight to the environment when the only layer
        # between is the bounds check (which would pass it on unchanged)
        self._direct = type(env) is _AssertOutOfBounds and env.env is self._raw

    def _not_reset(self, name: str):
        raise AttributeError(f"{name} cannot be accessed before reset")

    @property
    def agents(self):
        return self._raw.agents if self._has_reset else self._not_reset("agents")

    @property
    def agent_selection(self):
        return self._raw.agent_selection if self._has_reset else self._not_reset("agent_selection")

    @property
    def rewards(self):
        return self._raw.rewards if self._has_reset else self._not_reset("rewards")

    @property
    def terminations(self):
        return self._raw.terminations if self._has_reset else self._not_reset("terminations")

    @property
    def truncations(self):
        return self._raw.truncations if self._has_reset else self._not_reset("truncations")

    @property
    def infos(self):
        return self._raw.infos if self._has_reset else self._not_reset("infos")

    def last(self, observe: bool = True):
        if not self._has_reset:
            self._not_reset("agent_selection")
        return self._raw.last(observe)

    def step(self, action) -> None:
        raw = self._raw
        if self._has_reset and raw.agents:
            self._has_updated = True
            if self._direct and type(action) is int and 0 <= action < raw.encoder.actions.n:
                raw.step(action)
            else:
                self.env.step(action)
        else:
            super().step(action)

    def agent_iter(self, max_iter: int = 2**63):
        if not self._has_reset:
            return super().agent_iter(max_iter)  # (logs the error)
        return _OrderIterable(self, max_iter)


class _OrderIterable(AECOrderEnforcingIterable):
    def __iter__(self):
        return _OrderIterator(self.env, self.max_iter)


class _OrderIterator(AECOrderEnforcingIterator):
    """The order-enforcing agent iterator, reading the environment directly."""

    def __next__(self):
        env = self.env
        raw = env._raw
        if not raw.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert env._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        env._has_updated = False
        return raw.agent_selection


def env(variant: str | Variant = "block", **kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's standard wrappers (bounds and call-order checks)."""
    e: AECEnv = raw_env(variant, **kwargs)
    e = _AssertOutOfBounds(e)
    e = _OrderEnforcing(e)
    return e


def parallel_env(variant: str | Variant = "block", **kwargs: Any) -> ParallelEnv:
    """The environment in PettingZoo's parallel form (PettingZoo's turn-based conversion of
    ``env``): every live agent gets its observation each step and sends an action; only the
    action of the agent to move is played (the others' masks are all 0 and their actions are
    ignored)."""
    return turn_based_aec_to_parallel(env(variant, **kwargs))


def _make_ctor(name: str, version: int = 1):
    defaults = {"auto_forced": True} if version == 2 else {}

    def ctor(**kwargs: Any) -> AECEnv:
        return env(name, **{**defaults, **kwargs})

    def raw(**kwargs: Any) -> raw_env:
        return raw_env(name, **{**defaults, **kwargs})

    ctor.__name__ = env_name(name, version)
    ctor.__doc__ = f"PettingZoo environment of {name} (options go to make_variant)."
    ctor.raw_env = raw  # type: ignore[attr-defined]
    return ctor


#: versioned name -> constructor, e.g. ENVS["bonepile_block_v2"](players=2)
ENVS = {env_name(n, ver): _make_ctor(n, ver) for ver in VERSIONS for n in RL_VARIANTS}
for _ver in VERSIONS:
    for _n in RL_VARIANTS:
        globals()[f"{_n.replace('-', '_')}_v{_ver}"] = ENVS[env_name(_n, _ver)]

__all__ = ["env", "raw_env", "parallel_env", "env_name", "ENVS"]
