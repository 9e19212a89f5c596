"""OpenSkill ratings of an arena run, per game and per hand."""

from __future__ import annotations

import pytest

from bonepile.arena import ArenaSpec, ratings, run_arena


def test_ratings_per_hand_rank_the_bot_that_wins_more_hands_higher():
    spec = ArenaSpec("block", {"players": 4}, ("casual", "beginner", "random"), 150, seed=2)
    run = run_arena(spec, workers=1)
    wins = dict.fromkeys(spec.labels, 0)
    for g in run.games:
        for winner, _pts, _end in g.hands:
            if winner is not None:  # individual block: side = seat
                wins[spec.labels[g.seats[winner]]] += 1
    per_hand = ratings(run, per="hand")
    per_game = ratings(run)
    best = max(wins, key=wins.__getitem__)
    worst = min(wins, key=wins.__getitem__)
    assert per_hand[best]["mu"] > per_hand[worst]["mu"]
    # a hand is a result as a game is: many more of them, so a narrower rating
    assert all(per_hand[x]["sigma"] < per_game[x]["sigma"] for x in spec.labels)
    with pytest.raises(ValueError, match="per game or per hand"):
        ratings(run, per="deal")
