"""The public, seat-less view (engine/view.py ``PublicView``): what a spectator is shown.

Over every variant, player count and rule option, in random whole games, at every step:
* the public view names no tile of any hand or of the boneyard before the hand is over
  (in blind games: none but the tiles turned up for everybody to see);
* it equals what every seat's view says of the table (``public_of``), and what all the
  seats' views agree on field by field;
* once the hand is over, every hand is revealed, as it is to the seats.
"""

from __future__ import annotations

import random
from dataclasses import fields

import pytest

from bonepile.engine import Game, Hand, PublicView
from bonepile.engine.view import PUBLIC_FIELDS, Event, View, public_of, public_view
from test_knowledge import CASES, IDS


def tiles_of(pv: PublicView) -> set[int]:
    """Every tile a public view names."""
    lay = pv.layout
    out = {p.tile for arm in lay.arms.values() for p in arm}
    if lay.first is not None:
        out.add(lay.first)
    out |= {e.tile for e in pv.history if e.tile is not None}
    out |= {t for row in pv.face_up for _pos, t in row}
    if pv.turned_up is not None:
        out.add(pv.turned_up)
    for row in pv.revealed or ():
        out |= set(row)
    return out


def hidden_from_everybody(h: Hand, turned: set[int]) -> set[int]:
    """Tiles nobody at the table may see now: every hand and the boneyard (blind games: but
    the tiles turned up so far, which everybody saw)."""
    if h.over:
        return set()
    hidden = set(h.boneyard[h.bpos :])
    for s in range(h.n):
        hidden |= set(h.held(s))
    return hidden - turned - ({h.turned_up()} if h.rows is not None else set())


def agreed(views: list[View]) -> dict[str, object]:
    """The fields of PublicView on which every seat's view agrees; the history event by
    event (an event the seats disagree on keeps its seat and action, without a tile)."""
    out: dict[str, object] = {}
    for f in PUBLIC_FIELDS:
        values = [getattr(v, f) for v in views]
        if f == "history":
            hist = []
            for events in zip(*values):
                first = events[0]
                same = all(e == first for e in events)
                hist.append(first if same else Event(first.seat, first.action))
            out[f] = tuple(hist)
        elif all(x == values[0] for x in values):
            out[f] = values[0]
    return out


def test_the_public_view_has_no_seat_of_its_own():
    names = {f.name for f in fields(PublicView)}
    assert not names & {"seat", "hand", "legal", "peek"}
    assert names < {f.name for f in fields(View)}


@pytest.mark.parametrize("name,options", CASES, ids=IDS)
def test_the_public_view_holds_no_hidden_tile_and_is_what_every_seat_agrees_on(name, options):
    rng = random.Random(hash(str((name, sorted(options.items())))) & 0xFFFF)
    checked = 0
    for seed in range(4):
        g = Game.new(name, options, seed=seed)
        hands = 0
        while not g.over and hands < 3:
            h = g.hand
            number = h.number
            turned: set[int] = set()
            while True:
                pv = public_view(h)
                assert pv == g.public_view()
                views = [g.view(s) for s in range(g.variant.players)]
                bad = tiles_of(pv) & hidden_from_everybody(h, turned)
                assert not bad, (h.log, sorted(bad))
                for view in views:
                    assert public_of(view) == pv
                assert agreed(views) == {f: getattr(pv, f) for f in PUBLIC_FIELDS}
                checked += 1
                if h.over:
                    assert pv.revealed == tuple(tuple(h.held(s)) for s in range(h.n))
                    assert pv.revealed == views[0].revealed
                    break
                assert pv.revealed is None
                assert pv.tile_counts == tuple(len(h.held(s)) for s in range(h.n))
                if h.rows is not None:
                    turned.add(h.turned_up())  # type: ignore[arg-type]
                ms = h.legal_moves()
                g.apply(ms[rng.randrange(len(ms))])
                if g.over or g.hand.number != number:
                    pv = public_view(h)
                    assert pv.over and pv.revealed is not None
                    break
            hands += 1
    assert checked > 20


def test_a_draw_is_a_count_for_everybody_but_the_drawer():
    g = Game.new("draw", {"players": 2}, seed=3)
    rng = random.Random(3)
    while not any(e.action == "draw" for e in g.public_view().history):
        ms = g.legal_moves()
        g.apply(ms[rng.randrange(len(ms))])
    pv = g.public_view()
    e = next(e for e in pv.history if e.action == "draw")
    own = g.view(e.seat).history[pv.history.index(e)]
    assert e.tile is None and own.tile is not None and own.action == "draw"
