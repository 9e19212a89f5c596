"""Mexican Train (RULES.md §15): the train layout against the independent generator of
``perft_oracle`` (every legal move of random games, perft counts), a scripted hand for each
rule (double to cover, markers, blocked hand, penalties), records, views and voids."""

from __future__ import annotations

import random

import pytest

import perft_oracle as oracle
from bonepile.engine import (
    DRAW,
    NAME,
    PASS,
    AmbiguousMoveError,
    Game,
    Hand,
    IllegalMoveError,
    make_variant,
    perft,
)
from bonepile.engine import record as records
from bonepile.engine.knowledge import PublicKnowledge
from bonepile.engine.tiles import HI, LO, PIP_MASK, TRAIN_NAMES, arm_of, tile_index, tile_of
from bonepile.engine.trains import TrainHand, hub_of
from bonepile.engine.viewcodec import view_from_dict, view_to_dict


def T(name: str) -> int:
    a, b = (int(x) for x in name.split("-"))
    return tile_index(a, b)


def oracle_moves(h: Hand) -> set[tuple[str, ...]]:
    out = set()
    for m in h.legal_moves():
        if m == PASS:
            out.add(("pass",))
        elif m == DRAW:
            out.add(("draw",))
        else:
            t = tile_of(m)
            out.add(("play", oracle.name_of((HI[t], LO[t])), TRAIN_NAMES[arm_of(m)]))
    return out


def to_oracle(h: TrainHand) -> oracle.TrainState:
    return oracle.train_start(
        h.v.players,
        HI[h.hub],
        [[(HI[t], LO[t]) for t in row] for row in h.deal_rows],
        [(HI[t], LO[t]) for t in h.boneyard],
        h.leader,
    )


@pytest.mark.parametrize("players", [2, 4, 8])
def test_every_legal_move_agrees_with_the_independent_generator(players):
    v = make_variant("mexican-train", {"players": players, "rounds": 2})
    for seed in range(6):
        rng = random.Random(seed)
        h = Hand.deal(v, rng, number=1 + seed % 13)
        assert isinstance(h, TrainHand) and h.hub == hub_of(v, 1 + seed % 13)
        s = to_oracle(h)
        while not h.over:
            assert oracle_moves(h) == set(oracle.train_legal(s)), (seed, h.log[-3:])
            m = rng.choice(h.legal_moves())
            (om,) = oracle_moves_of(h, m)
            h.apply(m)
            s = oracle.train_apply(s, om)
        assert s.done and oracle.train_legal(s) == []


def oracle_moves_of(h: Hand, m: int) -> list[tuple[str, ...]]:
    if m >= PASS:
        return [("pass",) if m == PASS else ("draw",)]
    t = tile_of(m)
    return [("play", oracle.name_of((HI[t], LO[t])), TRAIN_NAMES[arm_of(m)])]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_perft_agrees_with_the_independent_generator(seed):
    v = make_variant("mexican-train", {"players": 3})
    h = Hand.deal(v, random.Random(seed))
    s = to_oracle(h)
    for depth in (1, 2, 3, 4):
        assert perft(h, depth) == oracle.train_perft(s, depth)
    assert h.log == []  # perft leaves the hand as it was


def hand_of(rows, stock, leader=0, players=2, number=1):
    """A hand of Mexican Train from named tiles (the hub is round ``number``'s double)."""
    v = make_variant("mexican-train", {"players": players})
    return Hand(v, [[T(x) for x in r] for r in rows], [T(x) for x in stock], leader, number=number)


def play(h: Hand, *tokens: str) -> None:
    from bonepile.engine import notation

    for tok in tokens:
        h.apply(h.check(notation.parse(h, tok)))


def test_a_double_must_be_covered_by_its_player_first_then_by_the_next():
    # hub 12-12; seat 0 lays 3-3 on its train: it plays again, and only on the 3-3; it holds
    # no 3 and draws 9-9, no 3 either: it passes, its train gets a marker, and seat 1 must
    # cover the 3-3 although 8-7 fits its own train
    h = hand_of([["12-3", "3-3", "5-4", "6-6"], ["12-8", "3-1", "8-7", "1-1"]], ["9-9", "2-0"])
    play(h, "12-3@1", "12-8@2", "3-3")
    assert h.to_move == 0 and h.pending == 0
    assert h.legal_moves() == [DRAW]
    play(h, "draw")
    assert h.legal_moves() == [PASS]
    with pytest.raises(IllegalMoveError, match="already drawn"):
        h.check(DRAW)
    play(h, "pass")
    assert h.marks == 0b01 and h.to_move == 1
    assert [(NAME[tile_of(m)], TRAIN_NAMES[arm_of(m)]) for m in h.legal_moves()] == [("3-1", "1")]
    with pytest.raises(IllegalMoveError, match="double on train 1 must be covered first"):
        play(h, "8-7@2")
    play(h, "3-1")
    assert h.pending == -1 and h.to_move == 0 and h.ends() == {"1": 1, "2": 8, "M": 12}


def test_a_marker_opens_a_train_and_its_owner_lifts_it():
    # seat 1 cannot play and the stock is empty: it passes and marks train "2"; seat 0 may
    # then play on train 2, and seat 1's own play there lifts the marker
    h = hand_of([["12-4", "12-7", "7-2", "0-0"], ["4-4", "7-9", "1-0"]], [])
    play(h, "12-4@1")  # seat 0 on its own train (12-4 fits 1 and M)
    assert h.legal_moves() == [PASS]  # seat 1: 4-4 fits only train 1, which is not open to it
    with pytest.raises(IllegalMoveError, match="another player's and has no marker"):
        play(h, "4-4@1")
    play(h, "pass")
    assert h.marks == 0b10
    with pytest.raises(AmbiguousMoveError):
        play(h, "12-7")  # trains 2 (marked) and M both take it
    play(h, "12-7@2")  # seat 0 on seat 1's marked train
    assert h.marks == 0b10 and h.to_move == 1
    play(h, "7-9")  # on its own train: the marker is lifted
    assert h.marks == 0
    assert h.over and h.end == "blocked"  # no 4 open to seat 1, nothing for seat 0: blocked


def test_a_blocked_hand_scores_every_seats_pips_as_penalties():
    h = hand_of([["12-4", "6-5"], ["3-2", "1-0"]], [])
    with pytest.raises(AmbiguousMoveError):
        play(h, "12-4")  # fits trains 1 and M: the token must name one
    play(h, "12-4@M")
    assert h.over and h.end == "blocked"  # nobody holds a 4 or a 12, and nothing to draw
    assert h.result.points == (11, 6) and h.result.winner == 1


def test_going_out_ends_the_hand_and_the_game_totals_the_rounds():
    v = make_variant("mexican-train", {"players": 2, "rounds": 2})
    g = Game(v, seed=4)
    rng = random.Random(4)
    while not g.over:
        g.apply(rng.choice(g.legal_moves()))
    res = g.result()
    assert len(res["hands"]) == 2 and res["totals"] == [
        sum(h["points"][s] for h in res["hands"]) for s in range(2)
    ]
    low = min(res["totals"])
    assert g.winner == (res["totals"].index(low) if res["totals"].count(low) == 1 else None)
    assert [HI[h.hub] for h in g.hands] == [12, 11]


@pytest.mark.parametrize("players", [2, 5, 8])
def test_records_replay_exactly_and_views_keep_what_a_seat_may_know(players):
    g = Game.new("mexican-train", {"players": players, "rounds": 2}, seed=players)
    rng = random.Random(players)
    while not g.over:
        s = g.to_move
        v = g.view(s)
        assert view_from_dict(view_to_dict(v)) == v
        assert v.layout.kind == "trains" and v.layout.hub == g.hand.hub
        assert set(v.layout.owners) == {*TRAIN_NAMES[:players], "M"}
        k = PublicKnowledge.from_view(g.variant, v)
        for seat in range(players):  # every void is true of the hidden hands
            for p in range(13):
                if k.voids[seat] >> p & 1:
                    assert not g.hand.masks[seat] & PIP_MASK[p]
        g.apply(rng.choice(g.legal_moves()))
    text = records.dumps(g.record())
    again = records.replay(records.loads(text))
    assert records.dumps(again.record()) == text and again.result() == g.result()


def test_a_record_with_the_hub_dealt_is_refused():
    g = Game.new("mexican-train", {"players": 2, "rounds": 1}, seed=1)
    doc = g.record()
    hand = doc["hands"][0]
    hand["boneyard"] = hand["boneyard"][:-1] + ["12-12"]
    with pytest.raises(records.RecordError, match="12-12"):
        records.replay(doc)


def test_penalties_count_against_their_side_in_every_bot_and_analysis_figure():
    # a blocked hand: seat 1 keeps 6 pips, seat 0 keeps 11; fewer pips is the better result
    from bonepile.analysis.luck import hand_result
    from bonepile.analysis.marks import thresholds
    from bonepile.bots.expert import ExpertBot
    from bonepile.engine.scoring import gains

    h = hand_of([["12-4", "6-5"], ["3-2", "1-0"]], [])
    play(h, "12-4@M")
    assert gains(h.v, h.result.points) == (-11, -6)
    assert hand_result(h.v, h) == (-5.0, 5.0)
    net, won, _game = ExpertBot(h.v).outcome(h, h.result, 1, 1)
    assert net == 5.0 and won
    assert thresholds(h.v).unit == "points"


def test_s15_undo_in_the_last_round_leaves_the_game_unfinished():
    """Undo recomputes the game from its hands: a finished round before the last one does not
    end the game (the round counted is the hand's own number, not how many hands there are)."""
    g = Game.new("mexican-train", {"players": 2, "rounds": 2}, seed=0)
    rng = random.Random(0)
    while len(g.hands) < 2:
        legal = g.legal_moves()
        g.apply(legal[rng.randrange(len(legal))])
    m = g.legal_moves()[0]
    g.apply(m)
    assert g.undo() == m
    assert not g.over and g.winner is None and g.legal_moves()
