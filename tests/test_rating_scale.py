"""The rating people see (``arena.skill.shown``): 1500 at the start, about 29.5 points per
point of OpenSkill's mu (a 400-point gap means 10 to 1, as in chess), never negative, blind to
sigma; a win raises it and a loss lowers it, and the change shown is the difference of the two
numbers shown."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from bonepile.arena.skill import (
    PROVISIONAL_GAMES,
    SCALE,
    FinishedGame,
    Rating,
    initial,
    rate_game,
    shown,
    shown_change,
)


def test_the_scale_is_exact():
    assert SCALE == 400 / math.log(10) / (25 / 6 * math.sqrt(2))
    assert round(SCALE, 4) == 29.4809
    assert shown(initial()) == initial().shown == 1500
    assert [shown(Rating(mu, 8.3)) for mu in (25.0, 26.0, 24.0, 35.0, 15.0)] == [1500, 1529, 1471, 1795, 1205]
    assert shown(Rating(25.0 - 1500 / SCALE - 1, 1.0)) == 0  # never negative
    assert shown(Rating(-80.0, 1.0)) == 0
    assert initial().provisional and not Rating(25, 1, PROVISIONAL_GAMES).provisional
    assert Rating(25, 1, PROVISIONAL_GAMES - 1).provisional


@given(
    st.floats(-50, 100, allow_nan=False),
    st.floats(-50, 100, allow_nan=False),
    st.floats(0.1, 10),
    st.floats(0.1, 10),
)
def test_the_shown_number_grows_with_mu_alone(a, b, sa, sb):
    if a <= b:
        assert shown(Rating(a, sa)) <= shown(Rating(b, sb))
    assert shown(Rating(a, sa)) == shown(Rating(a, sb)) >= 0


@given(st.floats(10, 40), st.floats(10, 40), st.floats(1, 8.4), st.floats(1, 8.4), st.booleans())
def test_a_win_raises_the_shown_rating_and_a_loss_lowers_it(mu_a, mu_b, s_a, s_b, a_wins):
    before = {"profile:a": Rating(mu_a, s_a, 3), "profile:b": Rating(mu_b, s_b, 20)}
    game = FinishedGame(
        "block", 2, ["profile:a", "profile:b"], [[0], [1]], [10, 3] if a_wins else [3, 10], 0 if a_wins else 1
    )
    after = rate_game(game, before)
    ch_a = shown_change(before["profile:a"], after["profile:a"])
    ch_b = shown_change(before["profile:b"], after["profile:b"])
    assert (ch_a >= 0 >= ch_b) if a_wins else (ch_a <= 0 <= ch_b)
    assert ch_a == after["profile:a"].shown - before["profile:a"].shown
    assert after["profile:a"].games == 4
