"""OpenSkill ratings of finished games: the arena's ratings of bots and the server's ratings of
players share the model and the way a game's sides are ranked.

Pure: no storage, no clock.  A rating is keyed by a *game key*, the variant and the player
count (``"draw-4"``): in dominoes the count changes the game (tiles per hand, partners or
none), so a rating at two players says little about four.  A *participant* is a profile
(``"profile:<id>"``) or a bot level (``"bot:<level>"``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from ..engine.variant import PLAYER_COUNTS

PROVISIONAL_GAMES = 10  # a rating is provisional until its participant has played this many rated games
START = 1500  # the shown rating of a participant who has played no rated game
GAME_KEY = re.compile(r"^([a-z][a-z-]{0,30})-(\d{1,2})$")
PARTICIPANT = re.compile(r"^(profile|bot):[A-Za-z0-9_.-]{1,64}$")


def model() -> PlackettLuce:
    """The model every rating uses (OpenSkill's Plackett-Luce with its defaults)."""
    return PlackettLuce()


def ranks(keys: Sequence[Any]) -> list[float]:
    """OpenSkill ranks (1 = best) from one sortable key per team, higher is better; equal
    keys share a rank (a tie)."""
    order = sorted(set(keys), reverse=True)
    return [float(order.index(k) + 1) for k in keys]


def side_key(side: int, winner: int | None, totals: Sequence[int]) -> tuple[int, int]:
    """How a side finished a game: (won it, its total).  With no winner (a tie at the
    target) the totals alone rank the sides, and equal totals tie."""
    return (1 if winner == side else 0, totals[side])


# ---------------------------------------------------------------------------- game keys
def game_key(variant: str, players: int) -> str:
    return f"{variant}-{players}"


def parse_game_key(text: str) -> tuple[str, int] | None:
    """``"draw-4"`` -> ("draw", 4); None when the text is not shaped like a game key (a
    well-shaped key may still name no game: see ``known_game``)."""
    m = GAME_KEY.match(text)
    return (m.group(1), int(m.group(2))) if m else None


def known_game(variant: str, players: int) -> bool:
    return players in PLAYER_COUNTS.get(variant, ())


def profile_participant(profile: str) -> str:
    return f"profile:{profile}"


def bot_participant(level: str) -> str:
    return f"bot:{level}"


# ---------------------------------------------------------------------------- ratings
@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    games: int = 0

    @property
    def shown(self) -> int:
        """The number people see (``shown``)."""
        return shown(self)

    @property
    def ordinal(self) -> float:
        """The conservative rating shown on leaderboards: mu - 3 sigma."""
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


def scale() -> float:
    """Shown points per OpenSkill point of ``mu``, chosen so that a gap between two shown
    ratings means about the odds it means in chess (Elo): 400 points for 10 to 1.  Two settled
    players (sigma near 0) differ in Plackett-Luce by ``exp(mu / c)`` with ``c = beta * sqrt(2)``,
    so the scale is ``400 / ln(10) / c`` (about 29.5 with OpenSkill's defaults)."""
    return 400 / math.log(10) / (model().beta * math.sqrt(2))


SCALE = scale()
MU0 = model().mu  # OpenSkill's starting mu (25): shown as START


def shown(r: Rating) -> int:
    """The rating people see, the one number every page, banner and leaderboard shows: START
    (1500) at the start, ``SCALE`` points per point of the estimate ``mu``, never negative.
    How sure the estimate is (sigma) is told by the provisional mark, not by the number, so a
    win always raises it and a loss lowers it."""
    return max(0, round(START + SCALE * (r.mu - MU0)))


def shown_change(before: Rating, after: Rating) -> int:
    """What a game did to the shown rating (+14, -9): the difference of the shown numbers, so
    that the change and the two numbers people read always agree."""
    return shown(after) - shown(before)


def initial() -> Rating:
    r = model().rating()
    return Rating(r.mu, r.sigma, 0)


@dataclass(frozen=True)
class FinishedGame:
    """What a rating needs of a finished game: who sat where, the sides (seats per side, as
    the variant pairs them), the final totals per side and the winning side (None: a tie)."""

    variant: str
    players: int
    seats: Sequence[str]  # the participant at each seat
    sides: Sequence[Sequence[int]]
    totals: Sequence[int]
    winner: int | None

    @property
    def key(self) -> str:
        return game_key(self.variant, self.players)


def rate_game(game: FinishedGame, current: Mapping[str, Rating]) -> dict[str, Rating]:
    """The new ratings of the game's participants (those missing from ``current`` start at
    OpenSkill's default).  Each side is a team of its seats' participants, ranked by
    ``side_key``; partners move with their side's result.

    A participant at several seats of one side (two bots of the same level as partners)
    moves once, as its seats do (they start equal, so they move equally).  A participant
    on two opposing sides (the same bot level as partner and opponent) learns nothing from
    playing itself: it keeps its rating and the game does not count for it."""
    order = ranks([side_key(i, game.winner, game.totals) for i in range(len(game.sides))])
    return _rate(game, current, order)


def adjusted_keys(totals: Sequence[float], luck: Sequence[float]) -> list[float]:
    """Each side's total less what its tiles were expected to score: what the side made of its
    tiles, higher is better.  ``luck`` is per side the deal values of its hands summed
    (``analysis.luck``): the side's expected points less the mean of the others', which sum to 0
    over the sides; with ``k`` sides a side's expected points are ``(k - 1) / k`` of its value
    plus a share common to every side (which changes no ranking).  So with two sides a side
    ranks above the other exactly when its net result beat its deal's value."""
    if len(luck) != len(totals):
        raise ValueError(f"luck has {len(luck)} sides but the game has {len(totals)}")
    share = (len(totals) - 1) / len(totals) if totals else 0.0
    return [round(t - lk * share, 6) for t, lk in zip(totals, luck)]


def rate_game_adjusted(
    game: FinishedGame, current: Mapping[str, Rating], luck: Sequence[float]
) -> dict[str, Rating]:
    """The deal-adjusted ratings: as ``rate_game``, but the sides are ranked by their total
    less their luck (``adjusted_keys``: per side, the sum over the game's hands of the deal's
    value, in points, net of the other sides) instead of by who won.  A side that lost with
    bad tiles, but by less than the tiles said, ranks above the side that won with them.
    For tournament tables (every table plays the same deals) and, as an option, rated tables."""
    keys = adjusted_keys(game.totals, luck)
    return _rate(game, current, ranks(keys))


def _rate(game: FinishedGame, current: Mapping[str, Rating], order: list[float]) -> dict[str, Rating]:
    m = model()
    start = {p: current.get(p) or initial() for p in game.seats}
    teams = [
        [m.rating(mu=start[game.seats[s]].mu, sigma=start[game.seats[s]].sigma) for s in sd]
        for sd in game.sides
    ]
    new = m.rate(teams, ranks=order)
    sides_of: dict[str, set[int]] = {}
    for i, sd in enumerate(game.sides):
        for s in sd:
            sides_of.setdefault(game.seats[s], set()).add(i)
    out: dict[str, Rating] = {}
    for i, sd in enumerate(game.sides):
        for j, s in enumerate(sd):
            p = game.seats[s]
            if p in out:
                continue
            if len(sides_of[p]) > 1:
                out[p] = start[p]
            else:
                r = new[i][j]
                out[p] = Rating(r.mu, r.sigma, start[p].games + 1)
    return out
