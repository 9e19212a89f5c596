"""An expert built from options given as JSON on a bench script's command line: the fields of
``ExpertConfig`` over the game's preset (e.g. ``{"prior": 0.0}``), plus ``"algo": "ismcts"``
(with ``exploration`` and ``pool``) for the research search of ``ismcts.py``, and ``"time"``:
this bot's seconds per decision instead of the script's budget (strength per millisecond)."""

from __future__ import annotations

import os
import sys
from dataclasses import replace
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from ismcts import IsmctsBot

from bonepile.bots import Budget
from bonepile.bots.expert import ExpertBot, preset
from bonepile.engine import Variant


def research_expert(variant: Variant, seed: int | None, budget: Budget, options: dict[str, Any]) -> ExpertBot:
    opts = dict(options)
    if "time" in opts:
        budget = Budget(time=float(opts.pop("time")))
    algo = opts.pop("algo", "pimc")
    if "infer_kinds" in opts:
        opts["infer_kinds"] = tuple(opts["infer_kinds"])
    if algo == "ismcts":
        search = {k: opts.pop(k) for k in ("exploration", "pool") if k in opts}
        return IsmctsBot(variant, seed=seed, budget=budget, config=replace(preset(variant), **opts), **search)
    if algo != "pimc":
        raise SystemExit(f"unknown expert algorithm {algo!r} (pimc or ismcts)")
    return ExpertBot(variant, seed=seed, budget=budget, config=replace(preset(variant), **opts))
