"""How a finished hand scores: winners, points per side and the breakdown (pips, round
bonus, capicú, chuchazo, in-play and end-of-hand points), read from the ``Variant``'s scoring
fields; and the formulas of the points scored during play (``in_play_points``,
``pass_round_points``), which the hand and the public knowledge both call."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple, Protocol

from .tiles import IS_DOUBLE, bits, mask_pips
from .variant import Variant
from .vocab import HandEnd, InPlay


class Scored(Protocol):
    """What scoring reads of a finished hand (``engine/hand.py``'s ``Hand``, which scores its
    hands with this module)."""

    @property
    def v(self) -> Variant: ...
    @property
    def masks(self) -> list[int]: ...  # tiles left per seat
    @property
    def log(self) -> list[tuple[int, int, int]]: ...  # (seat, move, tile drawn or turned up)
    @property
    def bonus(self) -> int: ...  # Quinientos: this round's bonus
    @property
    def capicu_ok(self) -> tuple[bool, int, int]: ...  # last tile fitted both ends; the ends
    @property
    def inplay(self) -> list[int]: ...  # points scored during play, per side
    @property
    def leader(self) -> int: ...  # the seat that led the hand


def in_play_points(kind: InPlay | None, count: int) -> int:
    """What the ends' ``count`` scores after a tile under in-play rule ``kind``: "fives"
    scores the count when it is a positive multiple of 5; "fives_and_threes" scores count/5
    when 5 divides it plus count/3 when 3 divides it (15 scores 3 + 5 = 8)."""
    if count <= 0 or kind is None:
        return 0
    if kind == "fives":
        return count if count % 5 == 0 else 0
    return (count // 5 if count % 5 == 0 else 0) + (count // 3 if count % 3 == 0 else 0)


def pass_round_points(v: Variant, passes: int) -> int:
    """The *pase redondo*: after ``passes`` passes in a row following a play, what the side
    of the player who made that play scores now (``Variant.pass_bonus`` once every other
    player has passed, else 0)."""
    return v.pass_bonus if v.pass_bonus and passes == v.players - 1 else 0


def gains(v: Variant, points: Sequence[int]) -> tuple[int, ...]:
    """What a hand's points are worth to each side, more being better: the points themselves,
    or their negation where they are penalties (``scoring="penalty"``: the lowest total wins)."""
    if v.scoring == "penalty":
        return tuple(-p for p in points)
    return tuple(points)


def round5(x: int) -> int:
    """Nearest multiple of 5 (remainder 1-2 down, 3-4 up)."""
    r = x % 5
    return x - r if r <= 2 else x + 5 - r


class HandResult(NamedTuple):
    """How a hand ended and what it scored."""

    end: HandEnd
    winner: int | None  # winning side (Billitonnen: seat), None for a tie / no winner
    points: tuple[int, ...]  # per side, everything included
    pips: tuple[int, ...]  # pips left per seat
    dominoer: int | None = None  # the seat that went out
    next_lead: int | None = None  # the seat that "won" (for later-lead rules)
    breakdown: dict[str, Any] = {}  # pips, bonuses, in-play points... (read only)


def _unique_min(values: Sequence[int]) -> int | None:
    low = min(values)
    idx = [i for i, x in enumerate(values) if x == low]
    return idx[0] if len(idx) == 1 else None


def _blocked_side(h: Scored, v: Variant, side_pips: list[int], pips: list[int]) -> int | None:
    """The winning side of a blocked partnership hand under ``v.blocked_rule``."""
    if v.blocked_rule == "blocker_vs_previous":
        blocker = h.log[-1][0]  # the hand blocks right after a play
        other = (blocker - 1) % v.players
        return v.side_of(other if pips[other] < pips[blocker] else blocker)
    winner = _unique_min(side_pips)
    if winner is None and v.blocked_rule == "lowest_side_leader_ties":
        winner = v.side_of(h.leader)
    return winner


def score_hand(h: Scored, end: HandEnd, dominoer: int | None) -> HandResult:
    v = h.v
    sides = v.sides
    pips = list(map(mask_pips, h.masks))
    side_pips = [pips[0] + pips[2], pips[1] + pips[3]] if v.teams else pips
    points = [0] * len(sides)
    winner: int | None = None
    next_lead: int | None = None
    bd: dict[str, Any] = {"pips": list(pips)}

    if v.scoring == "result_only":  # Billitonnen: a winner, no points
        if end == "domino":
            winner = dominoer
        elif v.blocked_winner == "lowest_pips":
            winner = _unique_min(pips)
        elif v.blocked_winner == "fewest_tiles":
            winner = _unique_min([len(bits(m)) for m in h.masks])
        next_lead = winner
    elif v.scoring == "quinientos":
        points = list(h.inplay)  # the pase redondo, where the rules score it
        if any(points):
            bd["in_play"] = list(points)
        if end == "domino":
            winner = v.side_of(dominoer)  # type: ignore[arg-type]
        elif end == "blocked":
            winner = _blocked_side(h, v, side_pips, pips)
        if winner is not None:
            loser = 1 - winner
            base = side_pips[loser] + (side_pips[winner] if v.count_partner_pips else 0)
            bonus = capicu = chuchazo = 0
            if end == "domino":
                bonus = h.bonus
                t = h.log[-1][2]
                fit_both, pl, pr = h.capicu_ok
                if IS_DOUBLE[t]:
                    if t == 0 and not (v.chuchazo_one_side_only and pl == 0 and pr == 0):
                        chuchazo = v.chuchazo
                elif fit_both and not (v.capicu_requires_distinct_ends and pl == pr):
                    capicu = v.capicu
            points[winner] += base + bonus + capicu + chuchazo
            bd.update(base=base, round_bonus=bonus, capicu=capicu, chuchazo=chuchazo)
    elif v.scoring == "opponents":  # Cuban: the winning side scores the other side's pips
        if end == "domino":
            winner = v.side_of(dominoer)  # type: ignore[arg-type]
        else:
            winner = _unique_min(side_pips)
        if winner is not None:
            base = side_pips[1 - winner] + (side_pips[winner] if v.count_partner_pips else 0)
            points[winner] = base
            bd["base"] = base
    elif v.scoring == "penalty":  # Mexican Train: each seat's pips left are its penalty
        # Chicken Foot: the double blank (tile 0) left in a hand counts ``double_blank`` (50,
        # RULES.md §16), not its 0 pips; the breakdown names it so the summary can say why
        extra = [v.double_blank if v.double_blank and m & 1 else 0 for m in h.masks]
        penalties = [p + x for p, x in zip(pips, extra)]
        points = penalties
        if any(extra):
            bd["double_blank"] = extra
        bd["penalties"] = list(penalties)
        winner = dominoer if end == "domino" else _unique_min(penalties)
    elif v.scoring == "none":  # Cinque: in-play points, optional end bonus
        points = list(h.inplay)
        bd["in_play"] = list(h.inplay)
        if end == "domino":
            winner = v.side_of(dominoer)  # type: ignore[arg-type]
        if v.end_bonus == "allfives" and end != "unfinished":
            bonus = 0
            if end == "blocked":
                winner = _unique_min(side_pips)
                if winner is not None:
                    bonus = round5(sum(side_pips) - side_pips[winner] * len(side_pips))
            elif winner is not None:
                bonus = round5(sum(side_pips) - side_pips[winner])
            if winner is not None:
                points[winner] += bonus
            bd["hand_end"] = bonus
        if v.domino_bonus and end == "domino":
            points[winner] += v.domino_bonus  # type: ignore[index]
            bd["go"] = v.domino_bonus
    else:  # "lowest"
        if v.teams and v.team_scoring == "side_value":
            values = [0 if dominoer in side else side_pips[i] for i, side in enumerate(sides)]
            winner = _unique_min(values)
            if winner is not None:
                points[winner] = values[1 - winner] - values[winner]
            bd["side_values"] = values
        elif v.teams:  # lowest_individual
            vals = list(pips)
            low = min(vals)
            low_sides = {v.side_of(s) for s in range(v.players) if vals[s] == low}
            if len(low_sides) == 1:
                winner = low_sides.pop()
                points[winner] = side_pips[1 - winner] - low
        else:
            if end == "domino" and v.domino_wins:
                winner = dominoer
            else:
                winner = _unique_min(pips)
            if winner is not None:
                own = pips[winner]
                others = [pips[s] for s in range(v.players) if s != winner]
                if v.formula == "each":
                    points[winner] = sum(o - own for o in others)
                else:
                    points[winner] = sum(others) - own
    if v.scoring != "result_only" and winner is not None:
        if dominoer is not None and v.side_of(dominoer) == winner:
            next_lead = dominoer
        elif v.teams:  # the winning side's member with fewer pips (lower seat on a tie)
            a, b = sides[winner]
            next_lead = b if pips[b] < pips[a] else a
        else:
            next_lead = winner
    return HandResult(end, winner, tuple(points), tuple(pips), dominoer, next_lead, bd)
