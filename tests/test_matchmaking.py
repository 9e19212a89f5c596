"""Quick match's pairing (``web/play/matchmaking.py``): exact cases, and properties over random
queues: every group is one game's and exactly its seats, nobody is seated twice, a group of
people fits every member's accepted gap, bots fill only for a ticket whose wait is over, and no
ticket whose bots are due is left waiting."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bonepile.web.play.matchmaking import BASE_GAP, MAX_GAP, WIDEN, Ticket, fits, pair

BLOCK2 = ("block", 2, "{}")
DRAW4 = ("draw", 4, "{}")


def tk(i, rating, joined=0.0, game=BLOCK2, bots_after=None, person=None):
    return Ticket(str(i), person or f"p{i}", game, rating, joined, bots_after)


def test_close_ratings_pair_at_once_and_far_ones_after_their_gap_widened():
    assert [[t.id for t in g.tickets] for g in pair([tk(1, 1500), tk(2, 1590)], now=0.0)] == [["1", "2"]]
    assert pair([tk(1, 1500), tk(2, 1700)], now=0.0) == []
    assert pair([tk(1, 1500), tk(2, 1700)], now=3.9) == []  # gap 197.5
    (g,) = pair([tk(1, 1500), tk(2, 1700)], now=4.0)  # gap 200
    assert [t.id for t in g.tickets] == ["1", "2"] and g.bots == 0 and g.seats == 2
    # the gap is each member's: a newcomer accepts less than an old ticket
    assert pair([tk(1, 1500, joined=0.0), tk(2, 1700, joined=9.0)], now=10.0) == []
    assert tk(1, 1500).gap(10_000) == MAX_GAP and tk(1, 1500).gap(0) == BASE_GAP
    assert tk(1, 1500).gap(2) == BASE_GAP + 2 * WIDEN


def test_the_oldest_is_served_first_with_the_nearest_rating():
    ts = [tk(1, 1500, joined=0.0), tk(2, 1560, joined=1.0), tk(3, 1510, joined=2.0), tk(4, 1555, joined=3.0)]
    groups = pair(ts, now=3.0)
    assert [[t.id for t in g.tickets] for g in groups] == [["1", "3"], ["2", "4"]]


def test_bots_fill_after_the_chosen_wait_and_never_before():
    ts = [tk(1, 1500, game=DRAW4, bots_after=5), tk(2, 1520, game=DRAW4), tk(3, 2400, game=DRAW4)]
    assert pair(ts, now=4.9) == []
    (g,) = pair(ts, now=5.0)
    assert [t.id for t in g.tickets] == ["1", "2"] and g.bots == 2 and g.seats == 4
    assert pair([tk(1, 1500, bots_after=None)], now=10_000) == []  # people only: waits
    (alone,) = pair([tk(1, 1500, bots_after=0)], now=0.0)
    assert alone.bots == 1


def test_one_person_never_gets_two_seats():
    ts = [tk(1, 1500, person="ann"), tk(2, 1500, person="ann")]
    assert pair(ts, now=100.0) == []
    ts = [tk(1, 1500, person="ann", bots_after=0), tk(2, 1500, person="ann", bots_after=0)]
    groups = pair(ts, now=100.0)
    assert all(len({t.person for t in g.tickets}) == len(g.tickets) for g in groups)


GAMES = [BLOCK2, DRAW4, ("draw", 3, "{}"), ("draw", 4, '{"target": 50}')]

tickets = st.lists(
    st.tuples(
        st.integers(0, 20),  # person
        st.sampled_from(GAMES),
        st.integers(800, 2600),  # rating
        st.floats(0, 60),  # joined
        st.one_of(st.none(), st.floats(0, 30)),  # bots_after
    ),
    max_size=40,
)


@settings(max_examples=300, deadline=None)
@given(tickets, st.floats(0, 90))
def test_pairing_properties(spec, now):
    ts = []
    seen_people: set[int] = set()
    for i, (person, game, rating, joined, bots_after) in enumerate(spec):
        if person in seen_people:  # the queue keeps one ticket per person
            continue
        seen_people.add(person)
        ts.append(Ticket(str(i), f"p{person}", game, rating, min(joined, now), bots_after))
    groups = pair(ts, now)
    placed = [t.id for g in groups for t in g.tickets]
    assert len(placed) == len(set(placed))  # no ticket in two groups
    for g in groups:
        game = g.tickets[0].game
        assert all(t.game == game for t in g.tickets)
        assert g.seats == game[1] and 1 <= len(g.tickets) <= game[1]
        assert len({t.person for t in g.tickets}) == len(g.tickets)
        assert fits(g.tickets, now)
        if g.bots:
            assert g.tickets[0].bots_due(now)
    left = [t for t in ts if t.id not in set(placed)]
    assert not any(t.bots_due(now) for t in left)  # nobody due for bots keeps waiting
    # no two waiting tickets of a two-player game could have sat together
    for game in GAMES:
        if game[1] != 2:
            continue
        rest = [t for t in left if t.game == game]
        assert not any(fits([a, b], now) for a in rest for b in rest if a.id < b.id)


def test_an_invitation_is_seated_only_with_the_person_it_names_who_names_it_back():
    ann = Ticket("1", "ann", BLOCK2, 1500, 0.0, None, with_="ben")
    ben = Ticket("2", "ben", BLOCK2, 2400, 1.0, None, with_="ann")  # far apart: invited all the same
    cat = tk(3, 1500, joined=0.5, bots_after=0)
    dan = Ticket("4", "dan", BLOCK2, 1500, 0.0, 0, with_="eve")  # eve has not answered
    groups = pair([ann, cat, dan], now=100.0)
    assert [[t.id for t in g.tickets] for g in groups] == [["3"]]  # cat alone with a bot: not ann, not dan
    groups = pair([ann, ben, cat, dan], now=100.0)
    assert sorted([t.id for t in g.tickets] for g in groups) == [["1", "2"], ["3"]]
    # a four-player game: the two of them and two bots at once
    a4 = Ticket("5", "ann", DRAW4, 1500, 0.0, None, with_="ben")
    b4 = Ticket("6", "ben", DRAW4, 1500, 0.0, None, with_="ann")
    (g,) = pair([a4, b4], now=0.0)
    assert g.bots == 2 and g.seats == 4
    # not the same game: no table
    assert pair([a4, Ticket("7", "ben", BLOCK2, 1500, 0.0, None, with_="ann")], now=0.0) == []


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 8), st.one_of(st.none(), st.integers(0, 8)), st.sampled_from(GAMES[:2])),
        max_size=20,
    )
)
def test_invitations_pair_only_mutually(spec):
    ts, people = [], set()
    for i, (person, mate, game) in enumerate(spec):
        if person in people:
            continue
        people.add(person)
        ts.append(
            Ticket(str(i), f"p{person}", game, 1500, 0.0, 0, with_=None if mate is None else f"p{mate}")
        )
    groups = pair(ts, now=50.0)
    placed = [t.id for g in groups for t in g.tickets]
    assert len(placed) == len(set(placed))
    for g in groups:
        named = [t for t in g.tickets if t.with_ is not None]
        if named:
            a, b = g.tickets
            assert len(g.tickets) == 2 and a.with_ == b.person and b.with_ == a.person and a.game == b.game
    by_id = {t.id: t for t in ts}
    for t in ts:  # every mutual pair of the same game was seated
        if t.with_ and t.id not in placed:
            assert not any(
                u.id != t.id and u.person == t.with_ and u.with_ == t.person and u.game == t.game
                for u in by_id.values()
            )
