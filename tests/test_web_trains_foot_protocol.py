"""A chicken foot's moves as the server sends them: every legal move of every position of
random Chicken Foot hands is named by its arm or toe ("3-3@G"), read back by the engine as
the same move, and its arm is one of the layout's (a toe of a double just laid included)."""

from __future__ import annotations

import random

from bonepile.engine import Game, notation
from bonepile.engine.view import hand_view
from bonepile.web.protocol import view_json


def test_every_chicken_foot_move_is_named_by_its_arm_and_read_back_as_itself():
    toes = 0
    for seed in range(3):
        g = Game.new("chicken-foot", {"players": 4}, seed=seed)
        rng = random.Random(seed)
        h = g.hand
        while not h.over:
            view = view_json(hand_view(h, h.to_move))
            legal = h.legal_moves()
            assert len(view["legal"]) == len(legal)
            for m, sent in zip(legal, view["legal"]):
                assert notation.parse(h, sent["move"]) == m, sent
                if sent["kind"] == "play" and sent["arm"] is not None:
                    assert sent["move"] == f"{sent['tile']}@{sent['arm']}"
                    assert sent["arm"] in view["layout"]["ends"], (sent, view["layout"]["ends"])
                    toes += len(sent["arm"]) == 1 and sent["arm"] >= "G"
            h.apply(legal[rng.randrange(len(legal))])
    assert toes > 0  # the hands reached toes, not only the centre's arms
