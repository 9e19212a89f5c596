"""Levels people understand: Beginner, Casual, Strong and Expert, each built from the
researchers' bots (``random``, ``greedy``, ``expert``) with a fixed budget or noise.

Each level is measured clearly stronger than the one below on duplicate deals
(``bench/levels.py``; docs/BENCHMARKS.md, Levels):

* **beginner**: the greedy player's one-ply scores, but it picks among the moves at random
  with weights ``exp(score / BEGINNER_TEMPERATURE)``: it often misses the best move;
* **casual**: the greedy player (a decent club player who looks one move ahead);
* **strong**: the expert's search with a small fixed budget (``STRONG_SIMULATIONS`` sampled
  deals per decision, ``STRONG_SIMULATIONS_IN_PLAY`` where points are scored during play and
  each deal costs more, whatever budget the caller gives: quick and load-independent), in open
  games with the learned policy's estimate of each action counted as ``STRONG_POLICY`` more
  deals (``STRONG_POLICY_IN_PLAY`` where points are scored during play; ``ExpertConfig.policy``,
  ``bots/policy.py``);
* **expert**: the expert at the budget it is given (``budget.EXPERT_BUDGET`` by default).

Every level is built as ``(variant, *, seed=None, budget=None)``; only the expert reads the
budget (None: its default).
"""

from __future__ import annotations

from dataclasses import replace

from ..engine import Variant
from .base import Bot
from .budget import EXPERT_BUDGET, Budget
from .expert import ExpertBot, preset
from .greedy import GreedyBot
from .policy import shipped_model

#: the levels a person chooses from, weakest first
LEVELS: tuple[str, ...] = ("beginner", "casual", "strong", "expert")
#: the level offered by default: a fair game for a casual player
DEFAULT_LEVEL = "casual"
BEGINNER_TEMPERATURE = 16.0
STRONG_SIMULATIONS = 16
#: the strong level's deals where points are scored during play (Cinque: a deal weighed by the
#: plays seen and played out by a fives player costs about twice one of the others)
STRONG_SIMULATIONS_IN_PLAY = 8
#: the learned policy's estimate counts as this many of the strong level's deals (open games)
STRONG_POLICY = 8.0
#: ... and this many where points are scored during play (Cinque: +4.09 points per hand against
#: greedy over 1,003 hands, where 8 gave +2.85 on the same deals; +3.74 over 1,408 with a fresh
#: batch; docs/BENCHMARKS.md)
STRONG_POLICY_IN_PLAY = 16.0


def beginner(variant: Variant, *, seed: int | None = None, budget: Budget | None = None) -> Bot:
    return GreedyBot(variant, seed=seed, temperature=BEGINNER_TEMPERATURE)


def casual(variant: Variant, *, seed: int | None = None, budget: Budget | None = None) -> Bot:
    return GreedyBot(variant, seed=seed)


def strong(variant: Variant, *, seed: int | None = None, budget: Budget | None = None) -> Bot:
    config = preset(variant)
    in_play = variant.in_play is not None
    if not variant.blind and variant.pips == 6 and shipped_model() is not None:  # a double-six model
        config = replace(config, policy=STRONG_POLICY_IN_PLAY if in_play else STRONG_POLICY)
    sims = STRONG_SIMULATIONS_IN_PLAY if in_play else STRONG_SIMULATIONS
    return ExpertBot(variant, seed=seed, budget=Budget(simulations=sims), config=config)


def expert(variant: Variant, *, seed: int | None = None, budget: Budget | None = None) -> Bot:
    return ExpertBot(variant, seed=seed, budget=EXPERT_BUDGET if budget is None else budget)


FACTORIES = {"beginner": beginner, "casual": casual, "strong": strong, "expert": expert}

__all__ = [
    "LEVELS",
    "DEFAULT_LEVEL",
    "BEGINNER_TEMPERATURE",
    "STRONG_SIMULATIONS",
    "STRONG_SIMULATIONS_IN_PLAY",
    "STRONG_POLICY",
    "STRONG_POLICY_IN_PLAY",
    "FACTORIES",
]
