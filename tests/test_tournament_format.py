"""The tournament's format, pure: Swiss pairing, round robin, matchpoints, standings."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bonepile.arena import pairing
from bonepile.arena.matchpoints import Outcome, boards, outcomes_of_hand, score
from bonepile.arena.tournament import Entrant, Settings, check, field_size, fill, standings, tables


def perfect_without_rematch(people: list[int], met: dict[int, set[int]]) -> bool:
    """Brute force: can ``people`` be paired with no rematch?"""
    if not people:
        return True
    a, rest = people[0], people[1:]
    return any(
        b not in met.get(a, ()) and perfect_without_rematch([x for x in rest if x != b], met) for b in rest
    )


@st.composite
def histories(draw):
    n = draw(st.sampled_from([2, 4, 6, 8, 10]))
    pairs = list(itertools.combinations(range(n), 2))
    played = draw(st.lists(st.sampled_from(pairs), max_size=3 * n, unique=True))
    met: dict[int, set[int]] = {}
    for a, b in played:
        met.setdefault(a, set()).add(b)
        met.setdefault(b, set()).add(a)
    order = draw(st.permutations(list(range(n))))
    return order, met


@given(histories())
@settings(max_examples=150, deadline=None)
def test_swiss_seats_everyone_once_and_avoids_rematches_while_it_can(history):
    order, met = history
    tabs = pairing.swiss(order, met, 2)
    assert sorted(e for t in tabs for e in t) == sorted(order)
    assert all(len(t) == 2 for t in tabs)
    if perfect_without_rematch(list(order), met):
        assert pairing.rematches(tabs, met) == 0


def test_swiss_pairs_neighbours_in_the_standings_in_the_first_round():
    assert pairing.swiss([5, 3, 1, 0, 2, 4], {}, 2) == [(5, 3), (1, 0), (2, 4)]


def test_swiss_moves_down_to_avoid_a_rematch():
    # 0 and 1 have met: 0 meets 2, and 1 the next one free
    assert pairing.swiss([0, 1, 2, 3], {0: {1}, 1: {0}}, 2) == [(0, 2), (1, 3)]


def test_swiss_takes_the_fewest_rematches_when_none_can_be_avoided():
    met = pairing.met_from([(0, 1), (2, 3), (0, 2), (1, 3), (0, 3), (1, 2)])
    tabs = pairing.swiss([0, 1, 2, 3], met, 2)
    assert sorted(e for t in tabs for e in t) == [0, 1, 2, 3]


@given(st.integers(1, 5), st.integers(0, 3), st.randoms(use_true_random=False))
@settings(max_examples=60, deadline=None)
def test_swiss_larger_tables_seat_everyone_once(tables_n, rounds, rnd):
    n = 4 * tables_n
    played: list[tuple[int, ...]] = []
    for _ in range(rounds):
        order = list(range(n))
        rnd.shuffle(order)
        tabs = pairing.swiss(order, pairing.met_from(played), 4)
        assert sorted(e for t in tabs for e in t) == list(range(n))
        assert all(len(t) == 4 for t in tabs)
        played += tabs


def test_swiss_refuses_a_field_that_does_not_fill_the_tables():
    with pytest.raises(ValueError, match="5 entrants do not fill tables of 2"):
        pairing.swiss([0, 1, 2, 3, 4], {}, 2)


@pytest.mark.parametrize("n", [2, 4, 6, 8, 12])
def test_round_robin_everyone_meets_everyone_once(n):
    seen = []
    for r in range(n - 1):
        tabs = pairing.round_robin(n, r)
        assert sorted(e for t in tabs for e in t) == list(range(n))
        seen += [frozenset(t) for t in tabs]
    assert sorted(seen, key=sorted) == sorted(
        (frozenset(p) for p in itertools.combinations(range(n), 2)), key=sorted
    )


def test_round_robin_refuses_an_odd_field_and_a_round_too_many():
    with pytest.raises(ValueError, match="even number"):
        pairing.round_robin(5, 0)
    with pytest.raises(ValueError, match="no round 4"):
        pairing.round_robin(4, 3)


def outcomes_st(tables_n: int, sides: int):
    return st.lists(
        st.lists(st.integers(0, 40), min_size=sides, max_size=sides), min_size=tables_n, max_size=tables_n
    )


@given(st.integers(1, 6), st.integers(2, 4), st.data())
@settings(max_examples=100, deadline=None)
def test_matchpoints_hand_out_a_constant_per_board_and_differences_add_to_zero(tables_n, sides, data):
    points = data.draw(outcomes_st(tables_n, sides))
    outs = []
    for t, pts in enumerate(points):
        outs += outcomes_of_hand(0, t, 0, list(range(t * sides, (t + 1) * sides)), pts)
    mp = score(outs, "matchpoints")
    diff = score(outs, "difference")
    for key, group in boards(outs).items():
        idx = [i for i, o in enumerate(outs) if o.board == key]
        m = len(group)
        assert sum(mp[i] for i in idx) == m * (m - 1)
        assert abs(sum(diff[i] for i in idx)) < 1e-9
        for i in idx:  # 2 per result beaten, 1 per tie, counted directly
            r = outs[i].result
            others = [outs[j].result for j in idx if j != i]
            assert mp[i] == 2 * sum(x < r for x in others) + sum(x == r for x in others)


def test_matchpoints_compare_the_same_tiles_only():
    # two tables, two sides: side 0 at table 0 wins by 10, side 0 at table 1 by 20
    outs = outcomes_of_hand(0, 0, 0, [0, 1], [10, 0]) + outcomes_of_hand(0, 1, 0, [2, 3], [20, 0])
    assert score(outs) == [0.0, 2.0, 2.0, 0.0]  # 1 lost less than 3 did on the same tiles
    assert score(outs, "difference") == [-10.0, 10.0, 10.0, -10.0]


def test_a_table_cannot_score_a_board_twice():
    o = Outcome(0, 0, 0, 0, 0, 1, 0)
    with pytest.raises(ValueError, match="round 1, table 1, hand 1: side 1 twice"):
        score([o, Outcome(0, 0, 0, 0, 1, 2, 0)])


@given(st.integers(2, 12), st.integers(1, 3), st.integers(1, 3), st.randoms(use_true_random=False))
@settings(max_examples=60, deadline=None)
def test_standings_order_by_the_sum_then_the_stated_tie_breaks(n, rounds, hands, rnd):
    fmt = Settings("swiss", rounds, hands, 2)
    field = fill([Entrant(i, f"p{i}") for i in range(n)], fmt, lambda i: f"bot{i}")
    assert len(field) == field_size(n, fmt) and len(field) % 2 == 0
    played: list[tuple[int, ...]] = []
    outs: list[Outcome] = []
    for r in range(rounds):
        tabs = tables(fmt, field, played, outs)
        assert sorted(e for t in tabs for e in t) == list(range(len(field)))
        for t, seated in enumerate(tabs):
            for h in range(hands):
                outs += outcomes_of_hand(r, t, h, seated, [rnd.choice([0, 5, 10]), rnd.choice([0, 5])])
        played += tabs
    per = len(field) // 2
    seated = {(i // per, i % per): t for i, t in enumerate(played)}
    rows = standings(field, seated, outs)
    # recomputed here: the sum of the matchpoints of each entrant
    mp = score(outs)
    total = {e.number: 0.0 for e in field}
    diff = {e.number: 0 for e in field}
    for o, s in zip(outs, mp, strict=True):
        total[o.entrant] += s
        diff[o.entrant] += o.result
    people = [r for r in rows if r.rank is not None]
    assert [r.rank for r in people] == list(range(1, n + 1))
    assert all(r.rank is None for r in rows[n:]) and all(field[r.entrant].bot for r in rows[n:])
    for r in rows:
        assert r.score == total[r.entrant] and r.difference == diff[r.entrant]
    keys = [(-r.score, -r.difference, -r.head_to_head, -r.buchholz, r.entrant) for r in people]
    assert keys == sorted(keys)


def test_check_names_what_is_wrong():
    with pytest.raises(ValueError, match="round robin needs tables of two"):
        check(Settings("round-robin", 1, 1, 4), 8)
    with pytest.raises(ValueError, match="at most 3 rounds"):
        check(Settings("round-robin", 4, 1, 2), 4)
    with pytest.raises(ValueError, match="rounds must be at least 1"):
        check(Settings("swiss", 0, 1, 2), 4)
    with pytest.raises(ValueError, match="unknown format"):
        check(Settings("knockout", 1, 1, 2), 4)  # type: ignore[arg-type]


def test_a_round_robin_field_is_filled_to_an_even_number():
    fmt = Settings("round-robin", 3, 1, 2)
    field = fill([Entrant(i, str(i)) for i in range(3)], fmt, lambda i: "bot")
    assert [e.bot for e in field] == [False, False, False, True]
