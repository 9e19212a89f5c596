"""What is played inside one world where every hand is known (the search's sampled worlds,
and the analysis's real deal): the playout policies of every seat, the exact α-β endgame of
two sides (``alphabeta``), whether a hand's points end the game, what a seat could score at
once with a tile (``reply_points``), and which actions lead to mirror images of the same
table."""

from __future__ import annotations

import random

from ..engine import Variant
from ..engine.hand import Hand, HandResult
from ..engine.scoring import gains
from ..engine.tiles import BIT, DRAW, PASS, bits, mask_pips, move, tile_of
from .alphabeta import WEIGHT, alphabeta


def policy_move(h: Hand, ms: list[int], rng: random.Random, eps: float) -> int:
    """Rollout policy: mostly the heaviest tile (doubles count a bit more), sometimes any
    legal action; draws/passes only when the rules allow nothing better."""
    if rng.random() < eps:
        return ms[int(rng.random() * len(ms))]
    best = -1
    bm = ms[0]
    for m in ms:
        if m < PASS:
            w = WEIGHT[tile_of(m)]
            if w > best:
                best, bm = w, m
    if best < 0:  # no tile to play: in voluntary games prefer drawing while possible
        return DRAW if DRAW in ms else ms[0]
    return bm


def voluntary_move(h: Hand, ms: list[int], rng: random.Random, eps: float) -> int:
    """Rollout policy where a seat may pass or draw at will (the Passing Game): close the
    hand with the last pass of a full cycle when the mover's side holds the fewest pips (in
    this world), never pass into the cycle's end otherwise; else the heaviest tile, or draw."""
    if rng.random() < eps:
        return ms[int(rng.random() * len(ms))]
    if PASS in ms and h.passes == h.n - 1 and h.v.pass_cycle_ends_hand:
        side_of = h._side
        totals = [0] * (max(side_of) + 1)
        for s, x in enumerate(h.masks):
            totals[side_of[s]] += mask_pips(x)
        side = side_of[h.to_move]
        mine = totals[side]
        if all(mine < t for i, t in enumerate(totals) if i != side):
            return PASS
    return policy_move(h, ms, rng, 0.0)


def reply_points(h: Hand, t: int) -> int:
    """The most points the side of the seat to move in h scores at once by playing tile t
    (held or not) on any end it fits: 0 where points are not scored during play."""
    if not h.inplay:
        return 0
    s = h.to_move
    side = h._side[s]
    saved = h.masks[s]
    h.masks[s] = saved | BIT[t]
    base = h.inplay[side]
    best = 0
    for a in h.fits(t):
        h.push(move(t, a))
        g = h.inplay[side] - base
        h.pop()
        if g > best:
            best = g
    h.masks[s] = saved
    return best


def fives_guard_move(h: Hand, ms: list[int], rng: random.Random, eps: float) -> int:
    """Rollout policy of a good fives player (Cinque): the points a move scores now, less
    the most the next seat (an opponent) can score at once in reply from the tiles it holds
    in this world (``reply_points``); ties to the heaviest tile."""
    if rng.random() < eps:
        return ms[int(rng.random() * len(ms))]
    sides = h._side
    side = sides[h.to_move]
    inplay = h.inplay
    base = inplay[side]
    best = -1e9
    bm = ms[0]
    for m in ms:
        if m >= PASS:
            continue
        h.push(m)
        gain = h.inplay[side] - base
        threat = 0
        if not h.over and sides[h.to_move] != side:
            for r in bits(h.masks[h.to_move]):
                g = reply_points(h, r)
                if g > threat:
                    threat = g
        h.pop()
        w = (gain - threat) * 10 + WEIGHT[tile_of(m)]
        if w > best:
            best, bm = w, m
    return bm


def same_tables(world: Hand, legal: list[int]) -> list[int]:
    """Per action, the index of the first action that is the same decision up to a mirror
    image (``Hand.mirror_key``).  Mirror images have the same value, so they are searched once
    (the noise of separate searches would otherwise rank one above the other)."""
    first: dict[tuple[int, ...], int] = {}
    return [first.setdefault(world.mirror_key(m), i) for i, m in enumerate(legal)]


def game_outcome(v: Variant, h: Hand, pts: tuple[int, ...], my_side: int) -> int:
    """+1 if my side wins the game with this hand's points, -1 if another side does, else 0
    (the game goes on, or ends without a winner).  The rule is the game's (``Game``): the
    highest total at or over the target wins; equal totals go to the side that reached the
    target first in the hand."""
    target = v.target
    assert target is not None
    totals = [a + b for a, b in zip(h.totals, pts)]
    best = max(totals)
    if best < target:
        return 0
    top = [i for i, t in enumerate(totals) if t == best]
    winner = top[0] if len(top) == 1 else h.first_to_target if h.first_to_target in top else None
    if winner is None:
        return 0
    return 1 if winner == my_side else -1


def tiles_left(h: Hand) -> int:
    return h.in_hands.bit_count()


def end_value(
    h: Hand, v: Variant, my_side: int, win_weight: float, game_weight: float = 0.0
) -> tuple[float, float, bool, int]:
    """The finished hand h of two sides seen from my side: (net points + win_weight x hand
    won + game_weight x game result, net points, hand won, game result)."""
    res: HandResult = h.result  # type: ignore[assignment]
    p = gains(v, res.points)
    net = p[my_side] - p[1 - my_side]
    won = net > 0 if v.in_play is not None else res.winner == my_side
    game = game_outcome(v, h, p, my_side) if game_weight else 0
    return net + (win_weight if won else 0.0) + game_weight * game, net, won, game


#: positions a playout's exact endgame may search (``solve``); past them it raises
#: ``OutOfNodes`` and the playout goes on with its policy. Line and spinner endgames of at most
#: eight tiles took at most 1,830 positions in 30 expert games of nine games; Mexican Train
#: 1,898; a Chicken Foot endgame (a tile fits several arms of the same number) 437,705, and
#: one took 2.4 million (57 s of CPU for one world of one decision).
ENDGAME_NODES = 20_000


def solve(
    h: Hand,
    v: Variant,
    my_side: int,
    win_weight: float,
    game_weight: float = 0.0,
    nodes: int | None = ENDGAME_NODES,
) -> tuple[float, bool, int]:
    """Exact α-β on a two-sided world (the hand is played out with full knowledge): my side
    maximizes net points + win_weight x hand win + game_weight x game result (+1 won, -1
    lost), the other side minimizes it.  Points scored during play (Cinque) are in the
    hand's points.  Raises ``OutOfNodes`` past ``nodes`` positions (``h`` left as it was)."""
    (_score, net, won, game), _nodes = alphabeta(
        h,
        v.seat_sides,
        my_side,
        lambda end: end_value(end, v, my_side, win_weight, game_weight),
        nodes=nodes,
    )
    return net, won, game


__all__ = [
    "ENDGAME_NODES",
    "WEIGHT",
    "policy_move",
    "voluntary_move",
    "fives_guard_move",
    "reply_points",
    "same_tables",
    "game_outcome",
    "tiles_left",
    "solve",
    "end_value",
]
