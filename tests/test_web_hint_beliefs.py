"""Where the unseen tiles probably are, in the web hint (issue 25, item 4): the hint worker
answers, with the expert's opinion, per other seat (and the stock) its likeliest unseen
tiles, read from the hinted seat's view only: it never names a tile of that seat's hand or a
tile on the table, and two games with the same view but other hidden tiles get the same
answer, also after the real game's hidden tiles are poisoned."""

from __future__ import annotations

import random

import pytest

from bonepile.bots.beliefs import LIKELY, beliefs
from bonepile.bots.hint import likely_tiles
from bonepile.engine import make_variant
from bonepile.engine.knowledge import layout_tiles
from bonepile.engine.tiles import NAME, bits
from bonepile.web.jobs import searches as workers
from test_bots import _positions, _same_view_other_deal

CASES = [
    ("block", {"players": 4, "teams": True}),
    ("draw", {"players": 2}),
    ("draw", {"players": 3}),
    ("block", {"players": 3}),
]


def _hint_beliefs(name, opts, view):
    """What the hint worker answers about the unseen tiles (the moves at a tiny budget)."""
    _evals, likely = workers.search("hint", (name, opts), view, 5, 0.002)
    return likely


@pytest.mark.parametrize("name,opts", CASES, ids=lambda x: str(x))
def test_hint_beliefs_name_only_unseen_tiles_and_read_the_view_only(name, opts):
    v = make_variant(name, opts)
    rng = random.Random(4)
    said = compared = 0
    for game in _positions(name, opts, 40, 5):
        seat = game.to_move
        view = game.view(seat)
        likely = _hint_beliefs(name, opts, view)
        assert likely == likely_tiles(v, view)
        seen = {NAME[t] for t in view.hand} | {NAME[t] for t in bits(layout_tiles(view.layout))}
        b = beliefs(v, view)
        for entry in likely:
            holder = -1 if entry["seat"] is None else entry["seat"]
            assert holder != seat and holder in b.holders
            assert 1 <= len(entry["tiles"]) <= 3
            ps = [x["p"] for x in entry["tiles"]]
            assert ps == sorted(ps, reverse=True) and all(LIKELY <= p <= 1 for p in ps)
            for x in entry["tiles"]:
                assert x["tile"] not in seen, (x, view.hand)
                said += 1
        # the same view, other hidden tiles: the same answer, also with the real deal poisoned
        other = _same_view_other_deal(game, seat, rng)
        if other is None:
            continue
        view2 = other.view(seat)
        assert view2 == view
        hidden = game.hand
        for s in range(v.players):
            if s != seat:
                hidden.masks[s] = 0
        hidden.boneyard = tuple(reversed(hidden.boneyard))
        assert _hint_beliefs(name, opts, view2) == likely
        compared += 1
    assert said and compared


def test_a_blind_game_says_nothing_about_the_face_down_tiles():
    v = make_variant("blind-hugie", {})
    (game,) = _positions("blind-hugie", {}, 3, 1)
    assert likely_tiles(v, game.view(game.to_move)) == []
