"""How much a search may think about one decision: the one ``Budget`` that travels from the
command line and the server to the search unchanged.

A budget is seconds (``time``: as many sampled deals as fit), or a fixed count of sampled
deals (``simulations``: the same choices for a seed on any machine, so tests and matches
meant to be repeated use it), and for the analysis's exact search a count of positions
(``nodes``).  A count, when given, wins over the time.  Each default is written here once.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

from ..engine import OptionError


@dataclass(frozen=True, slots=True)
class Budget:
    #: seconds per decision (ignored when ``simulations`` is given)
    time: float | None = None
    #: sampled deals per decision
    simulations: int | None = None
    #: positions the exact search visits per decision before it estimates
    nodes: int | None = None

    def __post_init__(self) -> None:
        """OptionError (a ValueError) naming the part that is out of range, as the command
        line's option of the same name."""
        t = self.time
        if t is not None and not (
            isinstance(t, (int, float)) and not isinstance(t, bool) and t > 0 and math.isfinite(t)
        ):
            raise OptionError(f"--time must be a positive number of seconds, not {t}")
        for name in ("simulations", "nodes"):
            n = getattr(self, name)
            if n is not None and not (type(n) is int and n >= 1):
                raise OptionError(f"--{name} must be at least 1, not {n}")

    def as_dict(self) -> dict[str, Any]:
        """The parts given, for records and reports (``{"time": 0.1}``)."""
        return {k: x for k, x in asdict(self).items() if x is not None}


#: the expert's seconds per move, in play and in the analysis of a decision
EXPERT_TIME = 0.1
#: the expert's seconds for a hint (a person waits for it and reads its reasons)
HINT_TIME = 0.5
EXPERT_BUDGET = Budget(time=EXPERT_TIME)
HINT_BUDGET = Budget(time=HINT_TIME)

__all__ = ["Budget", "EXPERT_BUDGET", "HINT_BUDGET", "EXPERT_TIME", "HINT_TIME"]
