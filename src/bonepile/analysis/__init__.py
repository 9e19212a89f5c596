"""Post-game analysis (``analyze``): what the best move was, with what each seat knew and with
every hand shown.  Layer: uses the engine and the bots; read by the interfaces."""

from .analyze import AnalysisError, Decision, GameAnalysis, HandAnalysis, analyze
from .marks import MARKS, Thresholds, thresholds

__all__ = [
    "MARKS",
    "AnalysisError",
    "Decision",
    "GameAnalysis",
    "HandAnalysis",
    "Thresholds",
    "analyze",
    "thresholds",
]
