"""What the server tells the client instead of the client working it out: the points each
move scored and the count of the ends (both the engine's), the kind of scoring, the sides,
the direction of play and the words of the catalogue."""

from __future__ import annotations

import random

import pytest

from bonepile.engine import Game
from bonepile.engine.variant import ENGINE_VARIANTS, OPTION_SPECS
from bonepile.web.jobs.replays import frames
from bonepile.web.protocol import count_json, move_points, view_json
from bonepile.web.words.catalog import catalogue


def _hands(name: str, options: dict, seeds: range):
    """(game, hand) after each move of a few random hands."""
    for seed in seeds:
        g = Game.new(name, options, seed=seed)
        g.auto_deal = False
        rng = random.Random(seed)
        for _ in range(3):
            scored = []
            while not g.hand.over:
                before = sum(g.hand.inplay)
                m = rng.choice(g.legal_moves())
                g.apply(m)
                scored.append(sum(g.hand.inplay) - before)
                yield g, scored
            if g.over:
                break
            g.next_hand()


def test_each_moves_points_are_the_engines_in_play_points():
    seen = 0
    for g, scored in _hands("cinque", {}, range(6)):
        v = view_json(g.view(0), points=move_points(g.hand), count=count_json(g.hand))
        want = [x if e["action"] == "play" else None for x, e in zip(scored, v["history"])]
        assert [e["points"] for e in v["history"]] == want
        seen += sum(1 for x in want if x)
    assert seen > 10


@pytest.mark.parametrize("opts", [{}, {"spinner_any_order": True}])
def test_the_count_is_the_engines(opts):
    for g, _ in _hands("cinque", opts, range(4)):
        c = count_json(g.hand)
        assert c is not None and c["value"] == g.hand.count()
        assert (c["note"] is not None) == (c["value"] > 0 and c["value"] % 5 == 0)


def test_no_count_where_the_game_scores_none():
    for g, _scored in _hands("block", {"players": 2}, range(2)):
        assert count_json(g.hand) is None
        assert all(p in (0, None) for p in move_points(g.hand))


def test_replay_frames_carry_the_points_and_the_count():
    g = Game.new("cinque", {"target": 60}, seed=3)
    rng = random.Random(3)
    while not g.over:
        g.apply(rng.choice(g.legal_moves()))
    rep = frames(g, finished_only=False)
    assert rep["scoring"] == "points"
    for hand in rep["hands"]:
        last = hand["frames"][-1]["view"]
        assert len(last["history"]) == len(hand["frames"]) - 1
        assert all("points" in e for e in last["history"])
        assert last["count"] is not None
    scored = [e["points"] for h in rep["hands"] for e in h["frames"][-1]["view"]["history"] if e["points"]]
    assert scored and all(p % 5 == 0 for p in scored)


def test_the_catalogue_says_sides_scoring_direction_and_words():
    cat = {v["name"]: v for v in catalogue()["variants"]}
    assert set(cat) == set(ENGINE_VARIANTS)
    assert cat["billitonnen"]["scoring"] == "hands" and cat["block"]["scoring"] == "points"
    assert {v["direction"] for v in cat.values()} == {"clockwise", "counterclockwise"}
    four = [p for p in cat["cinque"]["partnerships"] if p["players"] == 4]
    assert four == [{"players": 4, "options": {}, "sides": [[0, 2], [1, 3]]}]
    draw4 = [p for p in cat["draw"]["partnerships"] if p["players"] == 4]
    assert {"players": 4, "options": {"teams": True}, "sides": [[0, 2], [1, 3]]} in draw4
    assert {"players": 4, "options": {}, "sides": [[0], [1], [2], [3]]} in draw4
    for name, v in cat.items():
        assert [o["name"] for o in v["options"]] == list(OPTION_SPECS[name])
        for o in v["options"]:
            assert o["label"] and "_" not in o["label"]
            if o["values"] is not None:
                assert len(o["labels"]) == len(o["values"])
                assert all(isinstance(x, str) and "_" not in x for x in o["labels"])
