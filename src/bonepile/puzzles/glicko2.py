"""Glicko-2 ratings of puzzles and of the people (or bots) solving them, written from Mark
Glickman's description of the system ("Example of the Glicko-2 system", steps 1 to 8).

A rating is ``r`` on the Glicko scale (1500 at the start), its deviation ``rd`` (350: nothing
known yet) and its volatility ``vol``.  An attempt at a puzzle is a game between the solver
and the puzzle: solved is a win for the solver and a loss for the puzzle.  As lichess does,
both sides are updated after every attempt, each from the other's rating before it
(``update``), as a rating period of one game.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["SCALE", "TAU", "Rating", "rate", "update", "expected"]

#: the factor between the Glicko scale and Glicko-2's
SCALE = 173.7178
#: the system constant: how much the volatility may change (the paper's example uses 0.5)
TAU = 0.5
#: the iteration's stop for the new volatility
EPSILON = 1e-6
#: the least deviation kept (a rating is never taken as certain)
MIN_RD = 30.0
#: the largest deviation (what a new rating has)
MAX_RD = 350.0


@dataclass(frozen=True, slots=True)
class Rating:
    r: float = 1500.0
    rd: float = 350.0
    vol: float = 0.06


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected(a: Rating, b: Rating) -> float:
    """The chance that ``a`` beats ``b`` (solves it, for a player and a puzzle)."""
    return _e((a.r - 1500.0) / SCALE, (b.r - 1500.0) / SCALE, b.rd / SCALE)


def rate(player: Rating, games: list[tuple[Rating, float]], *, tau: float = TAU) -> Rating:
    """``player``'s rating after one rating period of ``games``: (opponent, score 1, 0.5 or
    0) each.  Without games only the deviation grows (step 6 of the paper)."""
    mu = (player.r - 1500.0) / SCALE
    phi = player.rd / SCALE
    sigma = player.vol
    if not games:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return Rating(player.r, min(MAX_RD, phi_star * SCALE), sigma)
    # step 3: the estimated variance v; step 4: the estimated improvement delta
    inv_v = 0.0
    total = 0.0
    for opp, score in games:
        mu_j = (opp.r - 1500.0) / SCALE
        phi_j = opp.rd / SCALE
        g = _g(phi_j)
        e = _e(mu, mu_j, phi_j)
        inv_v += g * g * e * (1.0 - e)
        total += g * (score - e)
    v = 1.0 / inv_v
    delta = v * total
    # step 5: the new volatility (the Illinois algorithm of the paper)
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        num = ex * (delta * delta - phi * phi - v - ex)
        den = 2.0 * (phi * phi + v + ex) ** 2
        return num / den - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    new_sigma = math.exp(big_a / 2.0)
    # steps 6 to 8: the new deviation and rating, back on the Glicko scale
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * total
    return Rating(SCALE * new_mu + 1500.0, SCALE * new_phi, new_sigma)


def _clamped(r: Rating) -> Rating:
    return Rating(r.r, min(MAX_RD, max(MIN_RD, r.rd)), r.vol)


def update(player: Rating, puzzle: Rating, solved: bool) -> tuple[Rating, Rating]:
    """Both sides after one attempt: (the player's new rating, the puzzle's), each computed
    from the other's rating before the attempt; deviations kept between 30 and 350."""
    score = 1.0 if solved else 0.0
    new_player = rate(player, [(puzzle, score)])
    new_puzzle = rate(puzzle, [(player, 1.0 - score)])
    return _clamped(new_player), _clamped(new_puzzle)
