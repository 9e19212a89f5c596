"""Small statistics for the arena: intervals, percentiles and the SPRT.

Pure Python; no dependencies.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054  # the two-sided 95% normal quantile


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion (95% by default).  (0, 1) with no trials."""
    if trials <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must be within 0..{trials}, not {successes}")
    p = successes / trials
    z2 = z * z
    denom = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_ci(values: Sequence[float], z: float = Z95) -> tuple[float, float]:
    """The mean and the half-width of its normal 95% interval (sample standard deviation)."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0)
    mean = sum(values) / n
    if n == 1:
        return (mean, 0.0)
    var = sum((x - mean) ** 2 for x in values) / (n - 1)
    return (mean, z * math.sqrt(var / n))


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100) with linear interpolation between order statistics."""
    if not values:
        return 0.0
    xs = sorted(values)
    pos = (len(xs) - 1) * q / 100.0
    lo = math.floor(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


# ---------------------------------------------------------------------------------------------
# SPRT
# ---------------------------------------------------------------------------------------------


def elo_to_score(elo: float) -> float:
    """The expected score of a player ``elo`` points stronger (logistic Elo curve)."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def sprt_bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """Wald's stopping bounds on the log-likelihood ratio: (accept H0 below, accept H1 above)."""
    return (math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha))


@dataclass(frozen=True)
class SprtState:
    wins: int
    draws: int
    losses: int
    llr: float
    lower: float
    upper: float
    decision: str | None  # "H1" (elo >= elo1), "H0" (elo <= elo0) or None (keep going)

    def as_json(self) -> dict:
        return {
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "llr": round(self.llr, 4),
            "lower": round(self.lower, 4),
            "upper": round(self.upper, 4),
            "decision": self.decision,
        }


def sprt_llr(wins: int, draws: int, losses: int, elo0: float, elo1: float) -> float:
    """Log-likelihood ratio of H1 (Elo difference elo1) against H0 (elo0) for a sequence of
    results scored 1 / ½ / 0 (a trinomial), with the generalized SPRT's normal approximation:
    the mean score x̄ of N results has variance σ²/N, so
    ``LLR = N (s1 - s0) (2 x̄ - s0 - s1) / (2 σ²)`` with s = the expected score of each Elo.
    The variance uses half a pseudo-result of each kind so that it is never zero."""
    n = wins + draws + losses
    if n == 0:
        return 0.0
    s0, s1 = elo_to_score(elo0), elo_to_score(elo1)
    mean = (wins + 0.5 * draws) / n
    w, d, l = wins + 0.5, draws + 0.5, losses + 0.5
    m = w + d + l
    reg_mean = (w + 0.5 * d) / m
    var = (w + 0.25 * d) / m - reg_mean**2
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)


def sprt(
    wins: int, draws: int, losses: int, elo0: float, elo1: float, alpha: float = 0.05, beta: float = 0.05
) -> SprtState:
    """The SPRT's state after these results: a decision once the LLR leaves (lower, upper)."""
    lower, upper = sprt_bounds(alpha, beta)
    llr = sprt_llr(wins, draws, losses, elo0, elo1)
    decision = "H1" if llr >= upper else "H0" if llr <= lower else None
    return SprtState(wins, draws, losses, llr, lower, upper, decision)


def sprt_sequence(
    scores: Iterable[float], elo0: float, elo1: float, alpha: float = 0.05, beta: float = 0.05
) -> tuple[SprtState, int]:
    """Run the SPRT over results (1, 0.5 or 0) one at a time; stop at the first decision.
    Returns the final state and how many results it used."""
    w = d = l = n = 0
    state = sprt(0, 0, 0, elo0, elo1, alpha, beta)
    for x in scores:
        n += 1
        if x >= 1:
            w += 1
        elif x <= 0:
            l += 1
        else:
            d += 1
        state = sprt(w, d, l, elo0, elo1, alpha, beta)
        if state.decision:
            break
    return state, n


def parse_sprt(text: str) -> tuple[float, float]:
    """``"elo0,elo1"`` -> (elo0, elo1) with elo0 < elo1; ValueError with the reason."""
    parts = text.split(",")
    if len(parts) != 2:
        raise ValueError(f"--sprt expects elo0,elo1 (two numbers), not {text!r}")
    try:
        e0, e1 = float(parts[0]), float(parts[1])
    except ValueError:
        raise ValueError(f"--sprt expects elo0,elo1 (two numbers), not {text!r}") from None
    if not (math.isfinite(e0) and math.isfinite(e1)) or e0 >= e1:
        raise ValueError(f"--sprt needs elo0 < elo1, not {text!r}")
    return e0, e1
