"""Public knowledge (engine/knowledge.py), checked against the hidden state.

Over every variant, player count and rule option, in random whole games, at every step:
* every void claimed for any seat is true: that seat holds no tile with that pip;
* the tiles fitting before each event, the count and the in-play points equal the hand's own;
* the knowledge read from any seat's View equals the one the hand's Observer keeps;
* the unseen tiles of a seat are exactly the tiles it cannot see.
"""

from __future__ import annotations

import random

import pytest

from bonepile.engine import Game, Hand, make_variant
from bonepile.engine.errors import OptionError
from bonepile.engine.knowledge import PublicKnowledge, history_moves, unseen_tiles
from bonepile.engine.tiles import BIT, DRAW, PASS, PIP_MASK, move, tile_index
from bonepile.engine.variant import DEFAULT_PLAYERS, OPTION_SPECS, PLAYER_COUNTS
from bonepile.engine.view import observer


def _cases() -> list[tuple[str, dict]]:
    out: list[tuple[str, dict]] = []
    for name, counts in PLAYER_COUNTS.items():
        if make_variant(name).layout == "trains":  # long hands: the fewest and the most players
            counts = (counts[0], counts[-1])
        for n in counts:
            out.append((name, {"players": n}))
        for opt, spec in OPTION_SPECS[name].items():
            if opt == "rounds":  # how many hands a game has: no rule of play
                continue
            values = spec.values if spec.values is not None else ((2,) if opt == "boneyard_reserve" else ())
            for value in values:
                if value == spec.default:
                    continue
                for n in counts:
                    o = {"players": n, opt: value}
                    if opt == "full_deal_starter":
                        o["deal"] = "full"
                    try:
                        make_variant(name, o)
                    except OptionError:
                        continue
                    out.append((name, o))
                    if n == DEFAULT_PLAYERS[name]:
                        break
    return out


CASES = _cases()
IDS = [f"{v}-{'-'.join(f'{k}={x}' for k, x in o.items())}" for v, o in CASES]


def _check_hand(h: Hand, seats_views: list) -> int:
    """Check the knowledge of hand ``h`` now; returns the number of voids claimed."""
    v = h.v
    k = observer(h).knowledge()
    claimed = 0
    # every void is true of the hidden state (blind games keep no voids)
    for s in range(v.players):
        held = h.rows[s] if h.rows is not None else [t for t in range(v.n_tiles) if h.masks[s] >> t & 1]
        for p in range(v.pips + 1):
            if k.voids[s] >> p & 1:
                claimed += 1
                assert not any(BIT[t] & PIP_MASK[p] for t in held), (s, p, held)
        assert not (k.void_tiles(s) & sum(BIT[t] for t in held))
    # the table's facts are the hand's own
    assert k.events == len(h.log)
    assert k.count == h.count()
    if v.in_play is not None or v.pass_bonus:
        assert k.side_points == list(h.inplay)
        assert sum(k.points) == sum(h.inplay)
    else:
        assert not any(k.points)
    assert k.open_tiles == (h.open_mask if h.placed else 0)
    # the knowledge read from each seat's view is the same
    for s, view in enumerate(seats_views):
        kv = PublicKnowledge.from_view(v, view)
        assert (kv.voids, kv.fit_before, kv.points, kv.count, kv.played, kv.played_by) == (
            k.voids,
            k.fit_before,
            k.points,
            k.count,
            k.played,
            k.played_by,
        )
        # unseen: everything but the own tiles, the table and what was shown
        unseen = unseen_tiles(view)
        own = sum(BIT[t] for t in view.hand)
        assert not unseen & (own | k.played)
        if h.rows is None:
            for o in range(v.players):
                if o != s:
                    hidden = h.masks[o] & ~sum(BIT[e.tile] for e in view.history if e.tile is not None)
                    assert hidden & ~unseen == 0
        assert unseen & ~v.all_tiles == 0
    return claimed


def _fit_before_replayed(h: Hand) -> list[int]:
    g = h.fresh()
    out = []
    for _s, m, _t in h.log:
        out.append(g.open_mask if g.placed else 0)
        g.apply(m)
    return out


@pytest.mark.parametrize("name,options", CASES, ids=IDS)
def test_public_knowledge_is_true_of_the_hidden_state(name, options):
    rng = random.Random(hash(str((name, sorted(options.items())))) & 0xFFFF)
    claimed = 0
    for seed in range(6):
        g = Game.new(name, options, seed=seed)
        hands = 0
        while not g.over and hands < 3:
            h = g.hand
            number = h.number
            while not h.over:
                claimed += _check_hand(h, [g.view(s) for s in range(g.variant.players)])
                ms = h.legal_moves()
                g.apply(ms[rng.randrange(len(ms))])
                if g.over or g.hand.number != number:
                    break
            claimed += _check_hand(h, [])
            assert observer(h).knowledge().fit_before == _fit_before_replayed(h)
            hands += 1
    if make_variant(name, options).turn == "must_play":
        assert claimed > 0


def test_3_3_a_run_of_draws_resets_voids_to_the_ends_of_that_run():
    """A seat that drew in an earlier run of draws may hold an earlier void pip: the voids
    are those of its last draw or pass since, not the union (the RL observation kept the
    union and claimed false voids)."""
    v = make_variant("draw", {"players": 2})
    k = PublicKnowledge(v)
    t = tile_index
    k.add(0, move(t(6, 6), 0))  # 6-6: ends 6, 6
    k.add(1, DRAW)  # seat 1 held no 6; the tile drawn may be one
    assert k.voids[1] == 0
    k.add(1, DRAW)  # the first tile drawn was no 6 either; the second may be
    assert k.voids[1] == 0
    k.add(1, move(t(6, 1), 0))  # it drew 6-1 and plays it: ends 1, 6; it holds no 6
    assert k.voids[1] == 1 << 6
    k.add(0, move(t(6, 3), 1))  # ends 1, 3
    k.add(1, DRAW)  # held no 1 or 3; the tiles drawn may be 6s
    assert k.voids[1] == 0
    k.add(1, PASS)  # the boneyard ran out: it holds no 1 or 3
    assert k.voids[1] == (1 << 1) | (1 << 3)
    six = make_variant("draw", {"players": 2}).all_tiles  # PIP_MASK spans the largest set
    assert k.fit_before[1] == PIP_MASK[6] & six and k.fit_before[5] == (PIP_MASK[1] | PIP_MASK[3]) & six


def test_2_3_points_and_count_of_each_play_in_cinque():
    g = Game.new("cinque", seed=4)
    rng = random.Random(4)
    h = g.hand
    while not h.over:
        ms = h.legal_moves()
        g.apply(ms[rng.randrange(len(ms))])
    k = observer(h).knowledge()
    replay = h.fresh()
    for (seat, m, _t), pts in zip(h.log, k.points):
        before = list(replay.inplay)
        replay.apply(m)
        side = g.variant.seat_sides[seat]
        assert pts == replay.inplay[side] - before[side]
        assert pts == 0 or pts % 5 == 0
    assert k.side_points == list(h.inplay)


def test_history_moves_round_trip():
    g = Game.new("block", seed=9)
    rng = random.Random(9)
    h = g.hand
    for _ in range(12):
        if h.over:
            break
        ms = h.legal_moves()
        g.apply(ms[rng.randrange(len(ms))])
    view = g.view(0)
    moves = [m for _s, m, _t in h.log]
    assert history_moves(view) == moves
