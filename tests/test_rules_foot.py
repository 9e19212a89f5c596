"""Chicken Foot (RULES.md §16): the foot layout against the independent generator of
``perft_oracle`` (every legal move of random games, perft counts), a scripted hand for each
rule (the centre's arms first, a double's three toes first, draw then pass, penalties with the
double blank at 50), records, views, voids and the limit of 32 arms."""

from __future__ import annotations

import json
import random

import pytest

import perft_oracle as oracle
from bonepile.engine import (
    DRAW,
    PASS,
    AmbiguousMoveError,
    Game,
    Hand,
    IllegalMoveError,
    make_variant,
    notation,
    perft,
)
from bonepile.engine import record as records
from bonepile.engine.foot import FOOT_NAMES, FootHand
from bonepile.engine.knowledge import PublicKnowledge, unseen_tiles
from bonepile.engine.tiles import HI, LO, NAME, PIP_MASK, arm_of, move, tile_index, tile_of
from bonepile.engine.trains import hub_of
from bonepile.engine.variant import OptionError
from bonepile.engine.viewcodec import view_from_dict, view_to_dict


def T(name: str) -> int:
    a, b = (int(x) for x in name.split("-"))
    return tile_index(a, b)


def as_oracle(h: Hand, m: int) -> tuple[str, ...]:
    if m >= PASS:
        return ("pass",) if m == PASS else ("draw",)
    t = tile_of(m)
    return ("play", oracle.name_of((HI[t], LO[t])), FOOT_NAMES[arm_of(m)])


def to_oracle(h: FootHand) -> oracle.FootState:
    return oracle.foot_start(
        h.spokes,
        HI[h.hub],
        [[(HI[t], LO[t]) for t in row] for row in h.deal_rows],
        [(HI[t], LO[t]) for t in h.boneyard],
        h.leader,
    )


@pytest.mark.parametrize("players,spokes", [(2, 6), (4, 4), (8, 6)])
def test_every_legal_move_agrees_with_the_independent_generator(players, spokes):
    v = make_variant("chicken-foot", {"players": players, "spokes": spokes})
    for seed in range(8):
        rng = random.Random(seed)
        h = Hand.deal(v, rng, number=1 + seed % 10)
        assert isinstance(h, FootHand) and h.hub == hub_of(v, 1 + seed % 10)
        s = to_oracle(h)
        while not h.over:
            assert {as_oracle(h, m) for m in h.legal_moves()} == set(oracle.foot_legal(s)), (seed, h.log[-3:])
            m = rng.choice(h.legal_moves())
            h.apply(m)
            s = oracle.foot_apply(s, as_oracle(h, m))
        assert s.done and oracle.foot_legal(s) == []


#: perft 1..4 of the first open position (a foot made, none short of toes, three plays or more)
#: of seeds 0-2, 3 players (seed 1 with four centre arms): regression figures
PERFT = {0: [13, 187, 1838, 16398], 1: [4, 29, 168, 585], 2: [10, 183, 2937, 24284]}


@pytest.mark.parametrize("seed", sorted(PERFT))
def test_perft_agrees_with_the_independent_generator(seed):
    v = make_variant("chicken-foot", {"players": 3, "spokes": 4 if seed == 1 else 6})
    h = Hand.deal(v, random.Random(seed))
    s = to_oracle(h)
    assert [perft(h, d) for d in (1, 2, 3)] == [oracle.foot_perft(s, d) for d in (1, 2, 3)]
    assert h.log == []  # perft leaves the hand as it was
    rng = random.Random(seed)
    while not h.over and (
        h.pending >= 0 or not h.parents() or len([m for m in h.legal_moves() if m < PASS]) < 3
    ):
        m = rng.choice(h.legal_moves())
        h.apply(m)
        s = oracle.foot_apply(s, as_oracle(h, m))
    counts = [perft(h, d) for d in (1, 2, 3, 4)]
    assert counts == [oracle.foot_perft(s, d) for d in (1, 2, 3, 4)] == PERFT[seed]


def test_push_pop_copy_and_undo_restore_the_hand():
    v = make_variant("chicken-foot", {"players": 3})
    for seed in range(20):
        rng = random.Random(seed)
        h = Hand.deal(v, rng, number=1 + seed % 10)
        while not h.over:
            before = (h.table_key(), h.masks[:], h.bpos, h.parents(), h.ends(), h.legal_moves())
            c = h.copy()
            m = rng.choice(h.legal_moves())
            h.push(m)
            assert h.pop() == m
            assert (h.table_key(), h.masks[:], h.bpos, h.parents(), h.ends(), h.legal_moves()) == before
            c.apply(m)
            h.apply(m)
            assert c.table_key() == h.table_key() and c.parents() == h.parents()
        k = h.table_key()
        last = h.log[-1][1]
        assert h.undo() == last
        h.apply(last)
        assert h.table_key() == k and h.over


def hand_of(rows, stock, leader=0, number=1, spokes=4):
    """A hand of Chicken Foot from named tiles (the centre is round ``number``'s double)."""
    v = make_variant("chicken-foot", {"players": len(rows), "spokes": spokes})
    return Hand(v, [[T(x) for x in r] for r in rows], [T(x) for x in stock], leader, number=number)


def play(h: Hand, *tokens: str) -> None:
    for tok in tokens:
        h.apply(h.check(notation.parse(h, tok)))


def where(h: Hand) -> list[tuple[str, str]]:
    return [(NAME[tile_of(m)], FOOT_NAMES[arm_of(m)]) for m in h.legal_moves() if m < PASS]


def test_the_centre_arms_then_a_foot_of_three_toes_before_anything_else():
    # centre 9-9 with four arms A-D, started in order; 1-1 on arm A makes toes G, H, I, which
    # take the next three plays; seat 0 draws 2-0 while a toe shows 1: it passes, and only
    # the 1 is a void (the 2 open on arm C was not open to it)
    h = hand_of([["9-1", "9-2", "1-1", "5-0"], ["9-3", "9-4", "1-7", "1-6", "1-5", "4-8", "8-8"]], ["2-0"])
    assert where(h) == [("9-1", "A"), ("9-2", "A")]
    play(h, "9-1")
    with pytest.raises(
        IllegalMoveError, match="centre double needs a tile on each of its 4 arms first: play on arm B"
    ):
        play(h, "9-3@C")
    play(h, "9-3", "9-2", "9-4")
    assert h.ends() == {"A": 1, "B": 3, "C": 2, "D": 4}
    play(h, "1-1")
    assert h.pending == 0 and h.ends() == {"B": 3, "C": 2, "D": 4, "G": 1, "H": 1, "I": 1}
    assert h.parents() == {"G": ("A", 1), "H": ("A", 1), "I": ("A", 1)}
    assert where(h) == [("5-1", "G"), ("6-1", "G"), ("7-1", "G")]  # toe G first, then H, then I
    with pytest.raises(
        IllegalMoveError, match="double at the end of arm A needs its three toes first: play on toe G"
    ):
        play(h, "8-4@D")
    with pytest.raises(IllegalMoveError, match="arm A ends in a double"):
        play(h, "1-7@A")
    play(h, "1-7")
    assert h.legal_moves() == [DRAW]
    play(h, "draw")
    assert h.legal_moves() == [PASS]
    play(h, "pass", "1-6")
    assert h.legal_moves() == [PASS]  # the stock is empty
    play(h, "pass", "1-5")
    assert h.pending == -1 and h.ends() == {"B": 3, "C": 2, "D": 4, "G": 7, "H": 6, "I": 5}
    know = PublicKnowledge(h.v, number=1, leader=0)
    for s, m, _t in h.log:
        know.add(s, m)
    assert know.voids[0] == 1 << 1
    play(h, "2-0", "8-4")
    with pytest.raises(AmbiguousMoveError):
        play(h, "5-0")  # arms C (0) and I (5)
    play(h, "5-0@I")
    assert h.over and h.end == "domino"
    assert h.result.points == (0, 16) and h.result.winner == 0


def test_six_arms_round_the_centre_by_default_and_a_blocked_hand_counts_the_double_blank_50():
    v = make_variant("chicken-foot")
    assert (v.players, v.pips, v.spokes, v.rounds, v.double_blank) == (4, 9, 6, 10, 50)
    dealt = Hand.deal(v, random.Random(0))
    assert v.hand_sizes == (7,) * 4 and len(dealt.boneyard) == 55 - 1 - 28  # the centre double is not dealt
    h = hand_of([["9-1", "0-0", "3-2"], ["9-5", "4-4"]], [], spokes=6)
    play(h, "9-1", "9-5")  # arm C is next and nobody holds a 9: blocked
    assert h.over and h.end == "blocked"
    assert h.result.points == (50 + 5, 8) and h.result.winner == 1


def test_the_game_runs_its_rounds_from_the_double_nine_down():
    g = Game.new("chicken-foot", {"players": 2, "rounds": 3}, seed=4)
    rng = random.Random(4)
    while not g.over:
        g.apply(rng.choice(g.legal_moves()))
    res = g.result()
    assert [HI[h.hub] for h in g.hands] == [9, 8, 7]
    assert len(res["hands"]) == 3 and res["totals"] == [
        sum(h["points"][s] for h in res["hands"]) for s in range(2)
    ]
    low = min(res["totals"])
    assert g.winner == (res["totals"].index(low) if res["totals"].count(low) == 1 else None)


def test_options_are_checked():
    with pytest.raises(OptionError, match="spokes"):
        make_variant("chicken-foot", {"spokes": 5})
    with pytest.raises(OptionError, match="rounds"):
        make_variant("chicken-foot", {"rounds": 11})
    with pytest.raises(OptionError, match="players"):
        make_variant("chicken-foot", {"players": 9})


@pytest.mark.parametrize("players", [2, 5, 8])
def test_records_replay_exactly_and_views_keep_what_a_seat_may_know(players):
    g = Game.new("chicken-foot", {"players": players, "rounds": 2}, seed=players)
    rng = random.Random(players)
    while not g.over:
        s = g.to_move
        v = g.view(s)
        assert view_from_dict(json.loads(json.dumps(view_to_dict(v)))) == v
        assert v.layout.kind == "foot" and v.layout.hub == g.hand.hub
        assert dict(v.layout.parents) == g.hand.parents()
        hidden = unseen_tiles(v)
        for seat in range(players):
            if seat != s:  # every tile another seat holds is unseen by this one
                assert g.hand.masks[seat] & ~hidden == 0
        k = PublicKnowledge.from_view(g.variant, v)
        for seat in range(players):  # every void is true of the hidden hands
            for p in range(10):
                if k.voids[seat] >> p & 1:
                    assert not g.hand.masks[seat] & PIP_MASK[p]
        g.apply(rng.choice(g.legal_moves()))
    text = records.dumps(g.record())
    again = records.replay(records.loads(text))
    assert records.dumps(again.record()) == text and again.result() == g.result()


def test_a_record_with_the_centre_double_dealt_or_a_toe_out_of_order_is_refused():
    g = Game.new("chicken-foot", {"players": 2, "rounds": 1}, seed=1)
    while g.legal_moves()[0] >= PASS:
        g.apply(g.legal_moves()[0])
    g.apply(g.legal_moves()[0])
    doc = g.record()
    hand = doc["hands"][0]
    hand["boneyard"] = hand["boneyard"][:-1] + ["9-9"]
    with pytest.raises(records.RecordError, match="9-9"):
        records.replay(doc)
    doc = g.record()
    doc["hands"][0]["moves"][-1] += "@C"
    with pytest.raises(records.RecordError, match="play on arm A"):
        records.replay(doc)


def test_a_foot_needs_room_for_three_more_arms():
    # the move code has 32 arms: with 30 made, a double may not start a ninth foot
    h = hand_of([["9-1", "9-2", "1-1", "1-3"], ["9-3", "9-4", "6-6"]], [], spokes=4)
    play(h, "9-1", "9-3", "9-2", "9-4")
    h.made = h.fill = 30  # (toes G.. AD made and closed)
    h._reopen()
    assert where(h) == [("3-1", "A"), ("3-1", "B")]  # 1-1 fits arm A's 1 but has no room
    with pytest.raises(IllegalMoveError, match="1-1 cannot start a foot"):
        h.check(move(T("1-1"), 0))
    h.made = h.fill = 29
    h._reopen()
    assert where(h) == [("1-1", "A"), ("3-1", "A"), ("3-1", "B")]


def test_a_view_names_its_toes_and_bad_parents_are_refused_by_name():
    g = Game.new("chicken-foot", {"players": 3, "rounds": 1}, seed=3)
    rng = random.Random(3)
    while not g.hand.parents() and not g.over:
        g.apply(rng.choice(g.legal_moves()))
    d = view_to_dict(g.view(0))
    assert d["layout"]["kind"] == "foot" and d["layout"]["parents"]
    toe = next(iter(d["layout"]["parents"]))
    d["layout"]["parents"][toe] = ["A"]
    with pytest.raises(ValueError, match=f"layout.parents.{toe} must be"):
        view_from_dict(d)
