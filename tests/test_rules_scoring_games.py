"""RULES.md §9-§12: All Fives, Muggins, Fives and Threes and Dominican pairs.

The golden scenarios replay the worked examples of the sources cited in RULES.md (Foster's
Hoyle for Muggins, the Teesdale league and qcsalon examples for Fives and Threes, the
spinner example of the All Fives pages) and work the end-of-hand and bonus rules out by hand
(the arithmetic is in the comments).  Hands built with ``Hand(...)`` hold only the tiles a
rule needs: scoring reads the tiles left, not how many were dealt.
"""

from __future__ import annotations

import random

import pytest

from bonepile import Game, make_variant
from bonepile.engine.errors import OptionError
from bonepile.engine.hand import Hand
from bonepile.engine.knowledge import PublicKnowledge
from bonepile.engine.scoring import in_play_points, round5
from bonepile.engine.tiles import ARM_MASK, DRAW, NAME, PASS, move
from bonepile.engine.variant import replace
from support import T, check_scenario, replay_ok, rest, scenario_files


def hand(name, options, deal, leader=0, totals=None, **components):
    v = replace(make_variant(name, options), **components)
    return Hand(v, [[T(x) for x in row] for row in deal], [], leader, totals=totals)


def play(h, *tokens):
    """Apply moves given as "tile" (the lead, laid as written), "tile@ARM" or "pass"."""
    arms = {"L": 0, "R": 1, "U": 2, "D": 3}
    for tok in tokens:
        if tok == "pass":
            m = PASS
        elif "@" in tok:
            name, arm = tok.split("@")
            m = move(T(name), arms[arm])
        else:
            a = int(tok.split("-")[0])
            m = move(T(tok), 0 if a == max(map(int, tok.split("-"))) else 1)
        assert m in h.legal_moves() or (h.placed == 0 and (m & ~ARM_MASK) in h.legal_moves()), (
            tok,
            h.legal_moves(),
        )
        h.apply(m)
    return h


# ---------------------------------------------------------------------- the formulas
@pytest.mark.parametrize(
    "count,points",
    # the league's and eightygames' tables: 3, 5 -> 1; 6 -> 2; 9 -> 3; 10 -> 2; 12 -> 4;
    # 15 -> 3 fives + 5 threes = 8; 18 -> 6; 20 -> 4; 30 -> 6 + 10 = 16; 4, 7 -> 0
    [
        (0, 0),
        (3, 1),
        (4, 0),
        (5, 1),
        (6, 2),
        (7, 0),
        (9, 3),
        (10, 2),
        (12, 4),
        (15, 8),
        (18, 6),
        (20, 4),
        (30, 16),
    ],
)
def test_s11_fives_and_threes_count_table(count, points):
    assert in_play_points("fives_and_threes", count) == points


@pytest.mark.parametrize("count,points", [(0, 0), (5, 5), (12, 0), (15, 15), (35, 35)])
def test_s9_fives_count_scores_multiples_of_five(count, points):
    assert in_play_points("fives", count) == points


@pytest.mark.parametrize("pips,scored", [(27, 25), (28, 30), (22, 20), (23, 25), (25, 25), (0, 0)])
def test_s9_hand_end_rounds_to_the_nearest_five(pips, scored):
    # Wikipedia/pagat: "the winner scores 25 for 27 pips ... and 30 for 28"
    assert round5(pips) == scored


# ---------------------------------------------------------------------- §9 All Fives
def test_s9_spinner_counts_both_halves_until_two_sides_are_played():
    # the Muggins/All Fives pages' example: 6-6 led counts 12 (no score); 6-3 against it
    # makes 6 + 6 + 3 = 15, scored 15
    h = hand("all-fives", {"players": 2}, [["6-6", "1-0"], ["6-3", "2-0"]])
    play(h, "6-6")
    assert (h.count(), h.inplay) == (12, [0, 0])
    play(h, "6-3@R")
    assert (h.count(), h.inplay) == (15, [0, 15])


@pytest.mark.parametrize("left,scored", [(["6-6", "6-5", "4-0"], 25), (["6-6", "6-5", "4-1"], 30)])
def test_s9_domino_scores_the_others_pips_rounded(left, scored):
    # P0 goes out with 1-0 (count 1: nothing in play); P1 keeps 27 or 28 pips
    h = play(hand("all-fives", {"players": 2}, [["1-0"], left]), "1-0")
    assert h.result.end == "domino"
    assert h.result.points == (scored, 0)
    assert h.result.breakdown["hand_end"] == scored


def test_s9_blocked_lowest_scores_the_differences_rounded():
    # 3 players: P0 leads 6-6 and nobody holds a 6: blocked.  Pips left: P0 1 (1-0),
    # P1 9 (5-4), P2 13 (4-4 + 3-2).  P0 is lowest and scores (9 - 1) + (13 - 1) = 20,
    # a multiple of 5; the count 12 scored nothing.
    h = play(hand("all-fives", {"players": 3}, [["6-6", "1-0"], ["5-4"], ["4-4", "3-2"]]), "6-6")
    assert h.result.end == "blocked"
    assert h.result.points == (20, 0, 0)


def test_s9_lead_by_lot_then_the_player_who_went_out_then_by_lot_after_a_block():
    g = Game.new("all-fives", seed=5)
    assert g.hand.must_lead == -1  # any tile leads
    while not g.over and len(g.hands) < 8:
        prev = g.hand
        while not prev.over:
            g.apply(random.Random(len(prev.log)).choice(g.legal_moves()))
        if g.over:
            break
        if prev.result.end == "domino":
            assert g.hand.leader == prev.result.dominoer


def test_s9_teams_need_four_players():
    with pytest.raises(OptionError, match="teams needs 4 players"):
        make_variant("all-fives", {"players": 3, "teams": True})
    v = make_variant("all-fives", {"teams": True})
    assert v.sides == ((0, 2), (1, 3)) and v.hand_sizes == (5, 5, 5, 5)


# ---------------------------------------------------------------------- §10 Muggins
FOSTER = (
    ["5-5", "0-0", "4-0", "2-1", "3-1", "3-2", "4-3"],
    ["5-0", "6-5", "1-1", "2-2", "6-1", "6-2", "6-3"],
)


def test_s10_foster_worked_example():
    # Foster's Hoyle: "If double five is the first set it counts 10. The 5-0 played to this
    # would count 10 for the second player ... Double blank played to this would count 10
    # more. If 5-6 is now played on one end, and 0-4 on the other, the count will be 10 again."
    boneyard = rest(*FOSTER)
    g = Game(make_variant("muggins", {"players": 2}), auto_deal=False)
    g.next_hand(deal=[[T(x) for x in r] for r in FOSTER], boneyard=[T(x) for x in boneyard])
    h = g.hand
    assert (h.leader, h.must_lead) == (0, T("5-5"))  # the highest double dealt leads
    trace = []
    for tok in ("5-5", "5-0@L", "0-0@L", "6-5@R", "4-0@L"):
        g.play(tok)
        trace.append((h.count(), list(h.inplay)))
    assert trace == [(10, [10, 0]), (10, [10, 10]), (10, [20, 10]), (6, [20, 10]), (10, [30, 10])]


def test_s10_last_two_tiles_are_never_drawn_and_no_spinner():
    v = make_variant("muggins", {"players": 2})
    assert (v.spinner, v.draw_reserve, v.hand_sizes, v.target) == (False, 2, (7, 7), 100)
    g = Game.new("muggins", {"players": 2}, seed=3)
    rng = random.Random(1)
    while not g.hand.over:
        g.apply(rng.choice(g.legal_moves()))
    assert g.hand.bpos <= len(g.hand.boneyard) - 2


def test_s10_highest_double_four_four_and_six_six_make_twenty():
    # Foster: "The highest possible score is 20 points, made with the 4-4 and 6-6, at
    # different ends" (a line: a double at each end counts both halves).  The lead 6-4
    # scored 10, 4-4 then made 6 + 8 = 14 (nothing), 6-6 makes 12 + 8 = 20.
    h = hand("muggins", {"players": 2}, [["6-4", "6-6", "1-0"], ["4-4", "2-0"]])
    play(h, "6-4", "4-4@R", "6-6@L")
    assert (h.count(), h.inplay) == (20, [30, 0])


# ---------------------------------------------------------------------- §11 Fives and Threes
def test_s11_worked_example_fives_threes_and_fifteen():
    # qcsalon: ends 3 and 1; 1-6 makes 3 + 6 = 9: 3 points; 4-3 then makes 4 + 6 = 10: 2
    # points.  Going on: 6-5 makes 4 + 5 = 9 (3); 5-5 at the end makes 4 + 10 = 14 (0);
    # 5-4 makes 5 + 10 = 15: 3 fives and 5 threes, 8 points.
    h = hand(
        "fives-and-threes",
        {"players": 2},
        [["3-1", "4-3", "5-5", "0-0"], ["6-1", "6-5", "5-4", "2-2"]],
    )
    got = []
    for tok in ("3-1", "6-1@R", "4-3@L", "6-5@R", "5-5@R", "5-4@L"):
        before = list(h.inplay)
        play(h, tok)
        got.append((h.count(), [a - b for a, b in zip(h.inplay, before)]))
    assert got == [(4, [0, 0]), (9, [0, 3]), (10, [2, 0]), (9, [0, 3]), (14, [0, 0]), (15, [0, 8])]
    assert h.inplay == [2, 14]


def test_s11_a_double_led_counts_its_pips_and_a_go_scores_one():
    # 3-3 led alone: both halves show once, 6: 2 points.  Then 3-0 against it: 0 + 6 = 6,
    # 2 points.  P0's last tile 2-0 makes 2 + 6 = 8 (nothing) and scores 1 for the go.
    h = hand("fives-and-threes", {"players": 2}, [["3-3", "2-0"], ["3-0", "6-6"]])
    play(h, "3-3")
    assert (h.count(), h.inplay) == (6, [2, 0])
    play(h, "3-0@R", "2-0@R")
    assert h.result.end == "domino"
    assert h.result.points == (2 + 1, 2)
    assert h.result.breakdown["go"] == 1


def test_s11_first_to_61_wins_at_once():
    # P0 stands at 60: the lead 5-0 scores 1 and the game is won there, the hand cut short
    g = Game(make_variant("fives-and-threes", {"players": 2}), start_totals=[60, 59], auto_deal=False)
    deal = [["5-0", "1-1", "2-2", "3-3", "4-4", "6-6", "6-5", "6-4", "6-3"]]
    deal.append(["5-5", "4-0", "3-0", "2-0", "1-0", "6-0", "6-1", "6-2", "5-4"])
    g.next_hand(deal=[[T(x) for x in r] for r in deal], boneyard=[T(x) for x in rest(*deal)], leader=0)
    g.play("5-0")
    assert g.over and g.winner == 0 and g.totals == [61, 59]
    assert g.hand.result.end == "unfinished"


def test_s11_league_deals_and_no_drawing():
    v = make_variant("fives-and-threes")
    assert (v.hand_sizes, v.stock) == ((6, 6, 6, 6), 0)
    v = make_variant("fives-and-threes", {"players": 2})
    assert (v.hand_sizes, v.stock) == ((9, 9), 0)
    with pytest.raises(OptionError, match="players must be one of 2, 4"):
        make_variant("fives-and-threes", {"players": 3})


# ---------------------------------------------------------------------- §12 Dominican
def test_s12_pase_redondo_capicua_and_every_pip_left():
    # P0 leads 6-6; P1, P2, P3 hold no 6 and pass: pase redondo, 25 to P0's pair, scored
    # as the third pass is made.  P0 goes out with 6-5, which fitted both ends [6|6]:
    # capicúa 25.  Pips left: P1 4, P2 5, P3 7: 16, all to P0's pair.  25 + 16 + 25 = 66.
    deal = [["6-6", "6-5"], ["1-0", "2-1"], ["3-2"], ["4-3"]]
    h = hand("dominican", {}, deal)
    play(h, "6-6", "pass", "pass")
    assert h.inplay == [0, 0]
    play(h, "pass")
    assert h.inplay == [25, 0]
    play(h, "6-5@R")
    assert h.result.points == (66, 0)
    assert h.result.breakdown["capicu"] == 25 and h.result.breakdown["base"] == 16
    # the public knowledge credits the 25 to P0's pair on the third pass
    k = PublicKnowledge(h.v)
    for seat, m, _t in h.log:
        k.add(seat, m)
    assert k.points == [0, 0, 0, 25, 0] and k.scorer == [-1, -1, -1, 0, -1]
    assert k.side_points == [25, 0]
    # purists' capicúa needs two different ends: no 25
    h = hand("dominican", {"capicu_requires_distinct_ends": True}, deal)
    play(h, "6-6", "pass", "pass", "pass", "6-5@R")
    assert h.result.points == (41, 0)


# P0 leads 6-6 and nobody holds a 6: a tranque.  Pips: P0 2, P1 5, P2 2, P3 1
TRANQUE = [["6-6", "1-1"], ["3-2"], ["2-0"], ["1-0"]]
# pair totals equal: P0 2 + P2 2 = 4, P1 3 + P3 1 = 4
TIED = [["6-6", "1-1"], ["3-0"], ["2-0"], ["1-0"]]


@pytest.mark.parametrize(
    "deal,rule,points",
    [
        (TRANQUE, "lowest_side", (10, 0)),  # pairs 4 against 6: P0's pair scores all 10
        (TRANQUE, "blocker_vs_previous", (0, 10)),  # P0 blocked; P3 before him holds 1 < 2
        (TIED, "lowest_side", (0, 0)),  # 4 = 4: nobody
        (TIED, "lowest_side_leader_ties", (8, 0)),  # the tie goes to the pair that led
        (TIED, "blocker_vs_previous", (0, 8)),  # P0 2 against P3 1
    ],
)
def test_s12_tranque_rules(deal, rule, points):
    assert make_variant("dominican").blocked_rule == "lowest_side"
    h = play(hand("dominican", {}, deal, blocked_rule=rule), "6-6")
    assert h.result.end == "blocked"
    assert h.result.points == points


@pytest.mark.parametrize(
    "deal,tranque,points",
    [
        (TRANQUE, "lowest_side", (10, 0)),
        (TRANQUE, "leader_ties", (10, 0)),  # no tie: as lowest_side
        (TRANQUE, "blocker", (0, 10)),
        (TIED, "lowest_side", (0, 0)),
        (TIED, "leader_ties", (8, 0)),
        (TIED, "blocker", (0, 8)),
    ],
)
def test_s12_the_tranque_option_decides_a_blocked_hand(deal, tranque, points):
    # the option a table or a command line sets, not the component: the same fixed deals
    h = play(hand("dominican", {"tranque": tranque}, deal), "6-6")
    assert h.result.end == "blocked" and h.result.points == points
    with pytest.raises(
        OptionError, match='option tranque must be one of "lowest_side", "leader_ties", "blocker"'
    ):
        make_variant("dominican", {"tranque": "lowest_side_leader_ties"})


@pytest.mark.parametrize(("players", "league", "pagat"), [(2, 9, 7), (4, 6, 5)])
def test_s11_the_deal_option_deals_the_league_or_pagats_hands(players, league, pagat):
    # the same seed: the league deals 9 / 6 each, pagat 7 / 5; the rest is out of play
    for deal, size in (("league", league), ("pagat", pagat)):
        g = Game.new("fives-and-threes", {"players": players, "deal": deal}, seed=5)
        assert [len(g.hand.held(s)) for s in range(players)] == [size] * players
        assert g.variant.stock == 0 and g.variant.draw_reserve == 28 - size * players
    assert make_variant("fives-and-threes").hand_sizes == (6,) * 4  # the league's by default
    with pytest.raises(OptionError, match='option deal must be one of "league", "pagat", not "7"'):
        make_variant("fives-and-threes", {"deal": "7"})


def test_s12_blocker_wins_a_tie_against_the_player_before():
    # P0 2 pips, P3 before him 2 pips: the blocker's pair wins all 2 + 5 + 4 + 2 = 13
    deal = [["6-6", "1-1"], ["3-2"], ["4-0"], ["2-0"]]
    h = play(hand("dominican", {}, deal, blocked_rule="blocker_vs_previous"), "6-6")
    assert h.result.winner == 0 and h.result.points == (13, 0)


def test_s12_first_hand_double_six_then_winner_leads_and_200_ends():
    g = Game.new("dominican", seed=11)
    assert g.hand.must_lead == T("6-6")
    assert g.variant.direction == "counterclockwise" and g.variant.target == 200
    rng = random.Random(2)
    while not g.over:
        prev = g.hand
        g.apply(rng.choice(g.legal_moves()))
        if prev.over and not g.over:
            assert g.hand.must_lead == -1
            if prev.result.winner is not None:
                assert g.hand.leader == prev.result.next_lead
    assert max(g.totals) >= 200 and g.totals[g.winner] == max(g.totals)


def test_s12_record_replays_the_pase_redondo():
    # a whole deal as a record: the replay reports the in-play 25 in the breakdown
    g = Game.new("dominican", seed=4)
    rng = random.Random(4)
    while not g.over:
        g.apply(rng.choice(g.legal_moves()))
    res = replay_ok(g.record())
    assert res == g.result()
    assert any(h["breakdown"].get("in_play") for h in res["hands"]) or all(not any(h.inplay) for h in g.hands)


# ---------------------------------------------------------------------- golden records
@pytest.mark.parametrize("path", scenario_files("w_"), ids=lambda p: p.name)
def test_w_scenario(path):
    """tests/scenarios/w_*: Foster's Muggins example, a Fives and Threes game won at 61 in the
    middle of a hand, Dominican hands with a pase redondo and with a capicúa, replayed from
    their records (expected: the points worked out in the tests above, the breakdowns)."""
    check_scenario(path)


def test_w_scenarios_exist():
    assert len(scenario_files("w_")) >= 4


def test_s9_after_a_blocked_hand_the_lead_is_by_lot_again():
    # pagat: "If the last hand was blocked, then the lead is again determined by lot" (not
    # the holder of the highest double, Cinque's first-hand rule)
    from bonepile.engine.leaders import rule_leader

    v = make_variant("all-fives")
    blocked = play(hand("all-fives", {}, [["6-6", "1-0"], ["5-4"], ["4-4"], ["3-2"]]), "6-6").result
    assert blocked.end == "blocked"
    masks = [1 << T("6-6"), 0, 0, 0]
    assert rule_leader(v, masks, blocked, 0)[2] == "chance"
    domino = play(hand("all-fives", {}, [["1-0"], ["5-4"], ["4-4"], ["3-2"]]), "1-0").result
    assert rule_leader(v, masks, domino, 0)[:2] == (0, -1)


def test_the_count_note_says_why_the_count_scores_under_each_rule():
    from bonepile.web.protocol import count_json

    # 5-4 led: 9 scores 3 in Fives and Threes (a multiple of three), nothing in All Fives;
    # 5-0 led: 5 scores in both (a multiple of five)
    for name, tile, value, note in [
        ("fives-and-threes", "5-4", 9, "count.multiple_of_three"),
        ("fives-and-threes", "5-0", 5, "count.multiple_of_five"),
        ("all-fives", "5-0", 5, "count.multiple_of_five"),
        ("all-fives", "5-4", 9, None),
    ]:
        h = play(hand(name, {"players": 2}, [[tile, "1-1"], ["2-2"]]), tile)
        c = count_json(h)
        assert c is not None and (c["value"], c["note_key"]) == (value, note)
    assert count_json(play(hand("dominican", {}, [["6-5", "1-1"], ["6-6"], ["2-2"], ["3-3"]]), "6-5")) is None


def test_bad_moves_and_options_are_refused_with_their_reason():
    from bonepile.engine.errors import IllegalMoveError

    g = Game.new("fives-and-threes", seed=1)
    g.apply(g.legal_moves()[0])
    with pytest.raises(IllegalMoveError, match="there is no drawing in fives-and-threes with 4 players"):
        g.play("draw")
    g = Game.new("dominican", seed=1)
    other = next(t for t in g.hand.held(g.to_move) if t != T("6-6"))
    with pytest.raises(IllegalMoveError, match="the first tile of this hand must be 6-6"):
        g.play(NAME[other])
    with pytest.raises(OptionError, match="unknown option 'pase' for dominican"):
        make_variant("dominican", {"pase": 1})
    with pytest.raises(
        OptionError, match='option tranque must be one of "lowest_side", "leader_ties", "blocker"'
    ):
        make_variant("dominican", {"tranque": "nope"})
    with pytest.raises(OptionError, match="option players must be one of 4 for dominican"):
        make_variant("dominican", {"players": 2})
    # Muggins with 2 players: the stock's last two tiles stay
    v = make_variant("muggins", {"players": 2})
    h = Hand(v, [[T("6-6"), T("6-1"), T("1-0")], [T("5-4")]], [T("3-3"), T("2-2")], 0)
    play(h, "6-6")
    assert h.legal_moves() == [PASS]
    with pytest.raises(IllegalMoveError, match="its last 2 tiles are never drawn"):
        h.check(DRAW)
