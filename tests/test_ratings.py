"""The ratings of finished games (bonepile.arena.skill) equal OpenSkill's own computation."""

from __future__ import annotations

from openskill.models import PlackettLuce

from bonepile.arena.skill import (
    PROVISIONAL_GAMES,
    FinishedGame,
    Rating,
    initial,
    known_game,
    parse_game_key,
    rate_game,
)
from bonepile.engine import make_variant


def _openskill(teams: list[list[tuple[float, float]]], ranks: list[float]) -> list[list[tuple[float, float]]]:
    m = PlackettLuce()
    new = m.rate([[m.rating(mu=mu, sigma=s) for mu, s in team] for team in teams], ranks=ranks)
    return [[(r.mu, r.sigma) for r in team] for team in new]


def test_a_partnership_game_equals_openskill_and_partners_move_together():
    sides = [list(s) for s in make_variant("cinque", {"players": 4}).sides]
    assert sides == [[0, 2], [1, 3]]
    seats = ["profile:a", "profile:b", "profile:c", "bot:expert"]
    current = {
        "profile:a": Rating(27.0, 5.0, 3),
        "profile:c": Rating(22.0, 7.0, 12),
        "bot:expert": Rating(30.0, 2.0, 400),
    }
    g = FinishedGame("cinque", 4, seats, sides, totals=[100, 87], winner=0)
    new = rate_game(g, current)
    d = initial()
    want = _openskill([[(27.0, 5.0), (22.0, 7.0)], [(d.mu, d.sigma), (30.0, 2.0)]], [1.0, 2.0])
    assert (new["profile:a"].mu, new["profile:a"].sigma) == want[0][0]
    assert (new["profile:c"].mu, new["profile:c"].sigma) == want[0][1]
    assert (new["profile:b"].mu, new["profile:b"].sigma) == want[1][0]
    assert (new["bot:expert"].mu, new["bot:expert"].sigma) == want[1][1]
    # both winners went up, both losers went down
    assert new["profile:a"].mu > 27.0 and new["profile:c"].mu > 22.0
    assert new["profile:b"].mu < d.mu and new["bot:expert"].mu < 30.0
    assert [new[p].games for p in seats] == [4, 1, 13, 401]


def test_a_two_player_game():
    g = FinishedGame("block", 2, ["profile:x", "bot:casual"], [[0], [1]], totals=[12, 61], winner=1)
    new = rate_game(g, {})
    d = initial()
    want = _openskill([[(d.mu, d.sigma)], [(d.mu, d.sigma)]], [2.0, 1.0])
    assert (new["profile:x"].mu, new["profile:x"].sigma) == want[0][0]
    assert (new["bot:casual"].mu, new["bot:casual"].sigma) == want[1][0]
    assert new["profile:x"].mu < d.mu < new["bot:casual"].mu


def test_a_three_side_game_ranks_the_losers_by_their_totals():
    sides = [list(s) for s in make_variant("draw", {"players": 3}).sides]
    assert len(sides) == 3
    seats = ["profile:a", "profile:b", "bot:beginner"]
    g = FinishedGame("draw", 3, seats, sides, totals=[40, 101, 55], winner=1)
    new = rate_game(g, {"profile:a": Rating(20.0, 6.0, 0)})
    d = initial()
    want = _openskill([[(20.0, 6.0)], [(d.mu, d.sigma)], [(d.mu, d.sigma)]], [3.0, 1.0, 2.0])
    assert [(new[p].mu, new[p].sigma) for p in seats] == [w[0] for w in want]


def test_a_tie_at_the_target_shares_the_first_rank():
    g = FinishedGame("draw", 2, ["profile:a", "profile:b"], [[0], [1]], totals=[100, 100], winner=None)
    new = rate_game(g, {"profile:a": Rating(30.0, 4.0, 20), "profile:b": Rating(20.0, 4.0, 20)})
    want = _openskill([[(30.0, 4.0)], [(20.0, 4.0)]], [1.0, 1.0])
    assert (new["profile:a"].mu, new["profile:a"].sigma) == want[0][0]
    assert (new["profile:b"].mu, new["profile:b"].sigma) == want[1][0]
    assert new["profile:a"].mu < 30.0 < 20.0 + 10.1  # the stronger one loses points on a draw
    assert new["profile:b"].mu > 20.0


def test_a_bot_level_on_both_sides_keeps_its_rating_and_partners_of_one_level_move_once():
    seats = ["profile:a", "bot:expert", "bot:expert", "bot:casual"]  # expert is partner and opponent
    sides = [[0, 2], [1, 3]]
    start = Rating(31.0, 3.0, 50)
    new = rate_game(FinishedGame("draw", 4, seats, sides, [100, 20], 0), {"bot:expert": start})
    assert new["bot:expert"] == start
    d = initial()
    want = _openskill([[(d.mu, d.sigma), (31.0, 3.0)], [(31.0, 3.0), (d.mu, d.sigma)]], [1.0, 2.0])
    assert (new["profile:a"].mu, new["profile:a"].sigma) == want[0][0]
    # two casual bots as partners: one rating, moved as each seat moved
    seats = ["bot:casual", "profile:a", "bot:casual", "profile:b"]
    new = rate_game(FinishedGame("draw", 4, seats, sides, [10, 100], 1), {})
    want = _openskill([[(d.mu, d.sigma)] * 2, [(d.mu, d.sigma)] * 2], [2.0, 1.0])
    assert (new["bot:casual"].mu, new["bot:casual"].sigma, new["bot:casual"].games) == (*want[0][0], 1)


def test_provisional_until_enough_games_and_game_keys():
    assert Rating(25, 8, PROVISIONAL_GAMES - 1).provisional
    assert not Rating(25, 8, PROVISIONAL_GAMES).provisional
    assert Rating(25.0, 2.0).ordinal == 19.0
    assert parse_game_key("blind-hugie-4") == ("blind-hugie", 4)
    assert parse_game_key("draw") is None and parse_game_key("draw-x") is None
    assert parse_game_key("DROP TABLE-4") is None
    assert known_game("draw", 3) and not known_game("quinientos", 2) and not known_game("chess", 2)


def test_deal_adjusted_ratings_rank_the_sides_by_total_less_luck():
    from bonepile.arena.skill import adjusted_keys, rate_game_adjusted

    g = FinishedGame("block", 2, ["profile:a", "profile:b"], [[0], [1]], totals=[100, 70], winner=0)
    # a won by 30 but its tiles were worth 50 more than b's (the deal values analysis.luck
    # gives: each side's expected points less the other's): b made more of the deals
    assert adjusted_keys(g.totals, [50.0, -50.0]) == [75.0, 95.0]
    new = rate_game_adjusted(g, {}, [50.0, -50.0])
    d = initial()
    want = _openskill([[(d.mu, d.sigma)], [(d.mu, d.sigma)]], [2.0, 1.0])
    assert (new["profile:b"].mu, new["profile:b"].sigma) == want[1][0]
    assert new["profile:b"].mu > new["profile:a"].mu and new["profile:a"].games == 1
    # with no luck it ranks as the raw totals do: the same update as rate_game
    assert rate_game_adjusted(g, {}, [0.0, 0.0]) == rate_game(g, {})
    # three sides that each scored exactly what their tiles were expected to (30, 20 and 10:
    # values 30 - 15, 20 - 20 and 10 - 25) tie
    assert adjusted_keys([30, 20, 10], [15.0, 0.0, -15.0]) == [20.0, 20.0, 20.0]
    # a side that won by exactly what its tiles were worth ties
    tie = rate_game_adjusted(g, {}, [30.0, -30.0])
    assert tie["profile:a"].mu == tie["profile:b"].mu
    try:
        rate_game_adjusted(g, {}, [1.0])
    except ValueError as e:
        assert "luck has 1 sides but the game has 2" in str(e)
    else:
        raise AssertionError("a luck list of the wrong length was accepted")
