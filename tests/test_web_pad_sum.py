"""The score pad shows a hand's points as a sum of its parts ("pips scored 30 + round bonus
100 + capicú 100 = 230") only where those parts add up to the winner's points: in every game,
over random hands (a Dominican hand with a pase redondo scored during play shows its parts
one by one instead of a wrong sum)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bonepile.engine.variant import VARIANT_NAMES
from bonepile.web.protocol import hand_result_json
from support import random_hand


def _line(points, breakdown, winner=0):
    res = SimpleNamespace(end="domino", winner=winner, points=points, pips=[0, 0], breakdown=breakdown)
    return hand_result_json(1, 0, res, list(points))


def test_a_sum_only_where_it_adds_up():
    bd = {"base": 30, "round_bonus": 100, "capicu": 100, "chuchazo": 0}
    assert _line([230, 0], bd)["sum"] == ["base", "round_bonus", "capicu", "chuchazo"]
    # 25 more came from a pase redondo during play: the parts alone do not make 255
    assert _line([255, 0], {**bd, "in_play": [25, 0]})["sum"] is None
    assert _line([0, 0], bd, winner=None)["sum"] is None


@pytest.mark.parametrize("game", VARIANT_NAMES)
def test_every_game_shows_true_sums(game):
    for seed in range(40):
        res = random_hand(game, seed).result
        line = hand_result_json(1, 0, res, list(res.points))
        if line["sum"]:
            assert sum(res.breakdown[k] for k in line["sum"]) == res.points[res.winner], (game, seed)
