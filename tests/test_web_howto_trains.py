"""How to play for Mexican Train and Chicken Foot: each worked example checked again from the
layout it shows (the trains' markers, the double to cover, a double's three toes), not from
the engine's word.  Skipped until the engine has each game."""

from __future__ import annotations

import pytest

from bonepile.engine import variant
from bonepile.engine.variant import VARIANT_NAMES
from bonepile.web.words import howto


def _examples(game: str) -> dict[str, dict]:
    """The game's examples as its page shows them (found the same way before the site offers
    the game: the engine has it first)."""
    if game not in getattr(variant, "ENGINE_VARIANTS", VARIANT_NAMES):
        pytest.skip(f"the engine has no {game} yet")
    if game in howto.PAGES:
        return {ex["id"]: ex for ex in howto.examples(game)}
    return {ex["id"]: ex for ex in (howto._search(game, find) for find in howto.ALL_PAGES[game])}


def test_mexican_train_marker_and_double():
    ex = _examples("mexican-train")
    assert list(ex) == ["marker", "double"]
    marker = ex["marker"]
    board, v = marker["board"], marker["values"]
    assert board["kind"] == "trains"
    # the player's own train carries the marker; the tile they drew is in no train
    assert str(v["player"]) in board["open"]
    assert v["tile"] not in {p["tile"] for arm in board["arms"].values() for p in arm}
    double = ex["double"]
    board, v = double["board"], double["values"]
    a, b = map(int, v["tile"].split("-"))
    assert a == b == v["pips"] and double["last"] == v["tile"]
    # the double lies at the end of the pending train, open on its number
    pending = board["pending"]
    assert board["arms"][pending][-1]["tile"] == v["tile"] and board["ends"][pending] == a


def test_chicken_foot_three_toes_and_going_out():
    ex = _examples("chicken-foot")
    assert list(ex) == ["foot", "score"]
    foot = ex["foot"]
    board, v = foot["board"], foot["values"]
    assert board["kind"] == "foot"
    toes = [
        arm for arm, p in board["parents"].items() if p and board["arms"][p[0]][p[1]]["tile"] == v["tile"]
    ]
    assert len(toes) == 3
    a, b = map(int, v["tile"].split("-"))
    assert a == b == v["pips"]
    assert all(board["arms"][t][0]["inner"] == a for t in toes)
    assert foot["last"] in {board["arms"][t][0]["tile"] for t in toes}
    score = ex["score"]
    assert score["last"] == score["values"]["tile"]
    assert all(r["params"]["player"] != score["values"]["player"] for r in score["rows"])
