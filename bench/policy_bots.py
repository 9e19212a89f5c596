"""Bots to compare the learned policy with the search on the same deals (``module:Class`` names
for ``bench/levels.py --pairs`` and the arena; run from ``bench/`` so the module is found):

* ``policy_bots:Policy`` — the policy network alone (``bots.policy.PolicyBot``);
* ``policy_bots:SearchN`` — the expert's search with N sampled worlds per decision and the
  game's preset (``Search8`` is the ``strong`` level before the policy);
* ``policy_bots:BlendN`` — the same search with the policy's estimate counted as N worlds
  (``ExpertConfig.policy``);
* ``policy_bots:TodayT`` / ``policy_bots:BlendT`` — the expert with a time budget of T ms
  per decision, the preset as it was before the policy (today's expert, the baseline kept
  runnable) and with the policy counted as 8 worlds.

    cd bench && PYTHONPATH=../src python levels.py --hands 200 --most 600 --variants block-teams,cinque \\
        --pairs policy_bots:Policy:casual,policy_bots:Blend8:casual
(``levels.py`` splits a pair at its last colon.)
"""

from __future__ import annotations

import os
import sys
from dataclasses import replace

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

from bonepile.bots import Budget, ExpertBot
from bonepile.bots.expert import preset
from bonepile.bots.policy import PolicyBot
from bonepile.engine import Variant


class Policy(PolicyBot):
    name = "policy"


def _search(sims: int, policy: float):
    class Search(ExpertBot):
        name = f"search{sims}" + (f"+policy{policy:g}" if policy else "")

        def __init__(
            self, variant: Variant, *, seed: int | None = None, budget: Budget | None = None
        ) -> None:
            super().__init__(
                variant,
                seed=seed,
                budget=Budget(simulations=sims),
                config=replace(preset(variant), policy=policy),
            )

    return Search


def _timed(ms: float, policy: float):
    class Timed(ExpertBot):
        name = f"expert{ms:g}ms" + (f"+policy{policy:g}" if policy else "")

        def __init__(
            self, variant: Variant, *, seed: int | None = None, budget: Budget | None = None
        ) -> None:
            super().__init__(
                variant,
                seed=seed,
                budget=Budget(time=ms / 1000.0),
                config=replace(preset(variant), policy=policy),
            )

    return Timed


Search8 = _search(8, 0.0)
Search16 = _search(16, 0.0)
Search24 = _search(24, 0.0)
Blend4 = _search(4, 4.0)
Blend6 = _search(6, 8.0)
Blend8 = _search(8, 8.0)
Blend8P16 = _search(8, 16.0)
Blend12 = _search(12, 8.0)
Blend16 = _search(16, 8.0)
Blend24 = _search(24, 8.0)
Search40 = _search(40, 0.0)
Blend40 = _search(40, 8.0)
Today100 = _timed(100, 0.0)
Today25 = _timed(25, 0.0)
Blend100 = _timed(100, 8.0)
Blend25 = _timed(25, 8.0)
