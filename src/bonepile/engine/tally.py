"""What each seat did over a game, from its hands' results: the hands played, its side's
points, the hands it won by going out, the blocked hands its side won and the last-tile
bonuses it earned (capicú, chuchazo: only the games whose rules have them).

The facts a player's statistics are counted from (the web's history sums them over games);
every one is read from the engine's ``HandResult`` of each finished hand."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .variant import Variant

if TYPE_CHECKING:  # (a Game is only read here)
    from .game import Game

#: the bonuses for the last tile of a hand won by going out: the key in a hand result's
#: breakdown, and the ``Variant`` field that is 0 in a game without that bonus
LAST_TILE_BONUSES = ("capicu", "chuchazo")


def bonus_kinds(v: Variant) -> tuple[str, ...]:
    """The last-tile bonuses the game's rules have (e.g. Quinientos: capicú and chuchazo)."""
    return tuple(b for b in LAST_TILE_BONUSES if getattr(v, b, 0))


def scores_points(v: Variant) -> bool:
    """Hands score points (else a hand is only won or lost: Billitonnen)."""
    return v.scoring != "result_only"


def side_of(v: Variant, seat: int) -> int:
    return next(i for i, side in enumerate(v.sides) if seat in side)


@dataclass(frozen=True)
class SeatTally:
    seat: int
    side: int
    hands: int  # finished hands of the game
    points: int | None  # its side's points over those hands (None: hands score no points)
    dominoes: int  # hands it won by going out (its side won the hand it ended)
    blocked_won: int  # blocked hands its side won
    #: per bonus the game has (``bonus_kinds``): the hands it won with that last tile
    bonuses: Mapping[str, int] = field(default_factory=dict)


def seat_tallies(game: Game) -> list[SeatTally]:
    """Each seat's tally over the game's finished hands."""
    v = game.variant
    kinds = bonus_kinds(v)
    done = [h.result for h in game.hands if h.over and h.result is not None]
    out = []
    for seat in range(v.players):
        side = side_of(v, seat)
        won = [r for r in done if r.winner == side]
        mine = [r for r in won if r.end == "domino" and r.dominoer == seat]
        out.append(
            SeatTally(
                seat=seat,
                side=side,
                hands=len(done),
                points=sum(r.points[side] for r in done) if scores_points(v) else None,
                dominoes=len(mine),
                blocked_won=sum(1 for r in won if r.end == "blocked"),
                bonuses={b: sum(1 for r in mine if r.breakdown.get(b, 0) > 0) for b in kinds},
            )
        )
    return out


def side_outcomes(game: Game) -> list[str]:
    """How each side finished the game: "won", "lost" or "tie".  The winner won; with no
    winner (a tie at the target) the best total won, and sides sharing it tied."""
    n = len(game.variant.sides)
    if game.winner is not None:
        return ["won" if i == game.winner else "lost" for i in range(n)]
    best = max(game.totals)
    top = [i for i in range(n) if game.totals[i] == best]
    return ["lost" if i not in top else ("tie" if len(top) > 1 else "won") for i in range(n)]
