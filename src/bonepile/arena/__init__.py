"""The arena: bots against bots over duplicate deals, with intervals, ratings and an SPRT.

``run_arena(ArenaSpec(...), workers=...)`` plays; ``report.write_outputs`` writes results.json,
every game's record and a plot.  The counting of games, deal sets and hands is described in
``runner``.  This package has no command-line code: ``bonepile arena`` lives in ``cli/arena.py``.
"""

from ..engine.deals import derive
from .report import bot_stats, ratings, results, write_outputs
from .runner import ArenaRun, ArenaSpec, GameResult, lineup, play_deal_set, play_game, run_arena, validate
from .stats import mean_ci, parse_sprt, percentile, sprt, sprt_llr, sprt_sequence, wilson

__all__ = [
    "ArenaSpec",
    "ArenaRun",
    "GameResult",
    "run_arena",
    "play_game",
    "play_deal_set",
    "lineup",
    "validate",
    "derive",
    "bot_stats",
    "ratings",
    "results",
    "write_outputs",
    "wilson",
    "mean_ci",
    "percentile",
    "sprt",
    "sprt_llr",
    "sprt_sequence",
    "parse_sprt",
]
