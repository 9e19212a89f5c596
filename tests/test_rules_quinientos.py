"""RULES.md §1 (Quinientos): leads, forced passes, round scoring, bonuses, capicú, chuchazo, game end.

Every expected value below is worked out by hand from RULES.md §1.3/§1.4 and written in a comment.

Hand templates: a template is a list of move tokens and the tiles left over per *relative* seat
(relative seat r = the seat r places after the hand's leader). Move i (0-based) is made by relative
seat i % 4, so a template without passes lets every player play in turn; `deal_for` derives the
deal from the moves, which makes each template a complete, valid deal of all 28 tiles.
"""

from __future__ import annotations

import pytest

from bonepile import Game, make_variant
from bonepile.engine.errors import IllegalMoveError
from bonepile.engine.tiles import NAME
from support import (
    T,
    check_scenario,
    deal_for,
    record_doc,
    replay_err,
    replay_ok,
    scenario_files,
    template_hand,
)

hand = template_hand
result = replay_ok
error = replay_err


def record(hands, options=None, start=None):
    return record_doc("quinientos", hands, options, start)


def pips(names) -> int:
    return sum(sum(map(int, NAME[T(n)].split("-"))) for n in names)


def at_round(r):
    """`start` for a one-hand record of round r (leader then required, RECORD.md)."""
    return {"hand": r, "totals": [0, 0]}


# ----------------------------------------------------------------------------- templates
# Domino by the leader (relative seat 0) on move 25; opponents = relative seats 1 and 3,
# partner = relative seat 2. "ends" = the open ends just before the last tile.

# ends [1|5], last 5-1 (non-double holding both ends) -> capicú. Leftovers: opp 1-1 (2) + 3-3 (6) = 8; partner 2-2 (4).
Q_CAPICU = (
    [
        "6-6",
        "6-4@R",
        "4-4@R",
        "6-0@L",
        "5-4@R",
        "5-2@R",
        "0-0@L",
        "4-0@L",
        "3-2@R",
        "3-0@R",
        "2-0@R",
        "2-1@R",
        "4-2@L",
        "6-2@L",
        "4-1@R",
        "6-5@L",
        "5-5@L",
        "4-3@R",
        "5-3@L",
        "3-1@R",
        "1-0@R",
        "6-3@L",
        "5-0@R",
        "6-1@L",
        "5-1@R",
    ],
    [[], ["1-1"], ["2-2"], ["3-3"]],
)
# ends [6|1], last 6-5 fits only L -> no last-tile bonus. opp 4-4 (8) + 5-4 (9) = 17; partner 4-1 (5).
Q_PLAIN66 = (
    [
        "6-6",
        "6-1@L",
        "1-1@L",
        "3-1@L",
        "6-4@R",
        "5-3@L",
        "5-2@L",
        "2-2@L",
        "3-2@L",
        "3-0@L",
        "0-0@L",
        "4-0@R",
        "2-0@R",
        "2-1@R",
        "1-0@R",
        "6-0@L",
        "6-3@L",
        "3-3@L",
        "4-3@L",
        "4-2@L",
        "5-0@R",
        "6-2@L",
        "5-5@R",
        "5-1@R",
        "6-5@L",
    ],
    [[], ["4-4"], ["4-1"], ["5-4"]],
)
# ends [2|2], last 2-0 (non-double containing 2) -> capicú by default (Q-e). opp 4-4 (8) + 4-2 (6) = 14; partner 4-0 (4).
Q_CAPICU_SAME = (
    [
        "6-6",
        "6-1@R",
        "1-0@R",
        "6-3@L",
        "3-0@R",
        "4-3@L",
        "6-4@L",
        "3-1@R",
        "4-1@R",
        "5-4@R",
        "5-0@R",
        "6-2@L",
        "2-2@L",
        "0-0@R",
        "6-0@R",
        "2-1@L",
        "1-1@L",
        "5-1@L",
        "5-3@L",
        "3-3@L",
        "6-5@R",
        "3-2@L",
        "5-5@R",
        "5-2@R",
        "2-0@L",
    ],
    [[], ["4-4"], ["4-0"], ["4-2"]],
)
# ends [1|1], last 1-1 (a double, fits both) -> never capicú. opp 3-3 (6) + 2-2 (4) = 10; partner 5-5 (10).
Q_DOUBLE_LAST = (
    [
        "6-6",
        "6-3@R",
        "6-4@L",
        "4-4@L",
        "5-4@L",
        "5-0@L",
        "2-0@L",
        "3-1@R",
        "4-2@L",
        "6-1@R",
        "6-2@R",
        "4-3@L",
        "3-2@L",
        "5-2@R",
        "2-1@L",
        "1-0@L",
        "6-5@R",
        "3-0@L",
        "5-3@L",
        "6-0@R",
        "0-0@R",
        "4-0@R",
        "5-1@L",
        "4-1@R",
        "1-1@L",
    ],
    [[], ["3-3"], ["5-5"], ["2-2"]],
)
# ends [0|0], last 0-0 -> chuchazo by default, none with chuchazo_one_side_only. opp 4-4 (8) + 2-2 (4) = 12; partner 1-1 (2).
Q_CHUCH_BOTH = (
    [
        "6-6",
        "6-1@R",
        "6-3@L",
        "2-1@R",
        "6-2@R",
        "3-2@L",
        "5-2@L",
        "5-5@L",
        "6-4@R",
        "5-0@L",
        "4-2@R",
        "6-0@L",
        "2-0@R",
        "4-0@R",
        "4-1@R",
        "3-1@R",
        "6-5@L",
        "5-4@L",
        "4-3@L",
        "3-3@L",
        "3-0@L",
        "5-3@R",
        "5-1@R",
        "1-0@R",
        "0-0@L",
    ],
    [[], ["4-4"], ["1-1"], ["2-2"]],
)
# ends [0|4], last 0-0 (fits one side only) -> chuchazo under both options. opp 4-0 (4) + 4-4 (8) = 12; partner 5-5 (10).
Q_CHUCH_ONE = (
    [
        "6-6",
        "6-2@L",
        "2-2@L",
        "6-4@R",
        "4-2@R",
        "2-1@R",
        "5-2@L",
        "1-1@R",
        "6-5@L",
        "1-0@R",
        "2-0@R",
        "6-1@L",
        "3-1@L",
        "3-2@R",
        "6-3@L",
        "3-3@R",
        "6-0@L",
        "3-0@L",
        "5-3@L",
        "4-3@R",
        "4-1@R",
        "5-1@R",
        "5-4@R",
        "5-0@L",
        "0-0@L",
    ],
    [[], ["4-0"], ["5-5"], ["4-4"]],
)
# The leader (rel 0) must pass on move 5: ends [0|0] and it holds 5-1 3-2 2-1 6-3 6-4 4-2 (no 0).
# Relative seat 1 goes out on move 26 with 6-2 on [4|6] (fits only R, no bonus).
# Winners = rel 1 + rel 3; losers rel 0: 4-2 (6) + rel 2: 0-0 (0) = 6; winner's partner rel 3 keeps 2-2 (4).
Q_PASS = (
    [
        "6-6",
        "6-5@R",
        "5-0@R",
        "6-0@L",
        "pass",
        "4-0@L",
        "1-0@R",
        "1-1@R",
        "5-1@R",
        "5-3@R",
        "4-4@L",
        "4-3@L",
        "3-2@L",
        "5-2@L",
        "3-0@R",
        "2-0@R",
        "2-1@R",
        "5-5@L",
        "3-1@R",
        "3-3@R",
        "6-3@R",
        "6-1@R",
        "5-4@L",
        "4-1@R",
        "6-4@R",
        "6-2@R",
    ],
    [["4-2"], [], ["0-0"], ["2-2"]],
)
# Lead 5-3 (any tile, for rounds >= 2); ends [0|2], last 3-0 fits only L. opp 6-6 (12) + 3-2 (5) = 17; partner 2-2 (4).
Q_PLAIN53 = (
    [
        "5-3",
        "3-3@R",
        "5-4@L",
        "4-4@L",
        "6-3@R",
        "6-0@R",
        "4-3@L",
        "2-0@R",
        "6-2@R",
        "6-4@R",
        "4-1@R",
        "3-1@L",
        "2-1@L",
        "5-2@L",
        "5-1@L",
        "1-1@L",
        "1-0@R",
        "6-1@L",
        "6-5@L",
        "4-0@R",
        "5-5@L",
        "5-0@L",
        "0-0@L",
        "4-2@R",
        "3-0@L",
    ],
    [[], ["6-6"], ["2-2"], ["3-2"]],
)

# Blocked after 10 placements: every 6 is on the table and the line reads [6|...|6]; nobody can play.
# rel 0 plays 6-6 6-3 5-0, rel 1: 6-1 3-4 0-6, rel 2: 1-2 4-6, rel 3: 2-6 6-5. The other 18 tiles (90 pips)
# are left: 4 to rel 0, 4 to rel 1, 5 to rel 2, 5 to rel 3.
BLOCK_MOVES = ["6-6", "6-1@R", "1-2@R", "2-6@R", "6-3@L", "3-4@L", "4-6@L", "6-5@R", "5-0@R", "0-6@R"]
# leader's team 5 + 20 = 25, other team 25 + 40 = 65
Q_BLOCK_LEADER_WINS = (
    BLOCK_MOVES,
    [
        ["0-0", "1-0", "1-1", "2-0"],
        ["3-3", "4-1", "4-2", "4-4"],
        ["2-2", "3-0", "3-1", "3-2", "4-0"],
        ["5-1", "5-2", "5-3", "5-4", "5-5"],
    ],
)
# leader's team 25 + 40 = 65, other team 5 + 20 = 25
Q_BLOCK_OTHERS_WIN = (
    BLOCK_MOVES,
    [
        ["3-3", "4-1", "4-2", "4-4"],
        ["0-0", "1-0", "1-1", "2-0"],
        ["5-1", "5-2", "5-3", "5-4", "5-5"],
        ["2-2", "3-0", "3-1", "3-2", "4-0"],
    ],
)
# 13 + 32 = 45 against 17 + 28 = 45: a tie
Q_BLOCK_TIE = (
    BLOCK_MOVES,
    [
        ["0-0", "1-0", "1-1", "5-5"],
        ["2-2", "3-0", "3-1", "3-3"],
        ["5-4", "5-3", "4-4", "3-2", "2-0"],
        ["4-0", "4-1", "4-2", "5-1", "5-2"],
    ],
)


def pts(side, value):
    return [value, 0] if side == 0 else [0, value]


# ----------------------------------------------------------------------------- examples and scenarios


@pytest.mark.parametrize("path", scenario_files("q_"), ids=lambda p: p.name)
def test_q_scenario(path):
    check_scenario(path)


def test_q_scenarios_exist():
    assert len(scenario_files("q_")) >= 8


# ----------------------------------------------------------------------------- §1.3 Leader


@pytest.mark.parametrize("holder", [0, 1, 2, 3])
def test_q1_3_round1_holder_of_double_six_leads(holder):
    out = result(record([hand(Q_PLAIN66, holder, give_leader=False)]))
    h = out["hands"][0]
    assert h["leader"] == holder
    assert (h["end"], h["winner"], h["points"]) == ("domino", holder % 2, pts(holder % 2, 17 + 100))


def test_q1_3_round1_leader_other_than_double_six_holder_is_error():
    doc = record([hand(Q_PLAIN66, 2)])
    doc["hands"][0]["leader"] = 3  # 6-6 is with seat 2
    e = error(doc)
    assert (e["hand"], e["move"]) == (1, None)


def test_q1_3_round1_must_lead_double_six_by_default():
    # in Q_PLAIN66 the leader holds 6-6 and 6-4
    h = hand(Q_PLAIN66, 0, moves=["6-4"])
    assert "6-4" in h["deal"][0] and "6-6" in h["deal"][0]
    e = error(record([h]))
    assert (e["hand"], e["move"], e["token"]) == (1, 1, "6-4")


def test_q1_4_a_first_lead_any_lets_the_holder_lead_another_tile():
    h = hand(Q_PLAIN66, 0, give_leader=False, moves=["6-4"])
    out = result(record([h], {"first_lead": "any"}))
    assert out["hands"][0]["leader"] == 0
    assert out["hands"][0]["end"] == "unfinished"
    # but the holder still leads: another seat may not
    h2 = hand(Q_PLAIN66, 0, moves=["6-4"])
    h2["leader"] = 1
    e = error(record([h2], {"first_lead": "any"}))
    assert (e["hand"], e["move"]) == (1, None)


def test_q1_3_first_lead_any_holder_leads_nondouble_with_game_api():
    g = Game(make_variant("quinientos", {"first_lead": "any"}), auto_deal=False)
    g.next_hand(deal=[[T(x) for x in row] for row in deal_for(*Q_PLAIN66, 1)])
    assert g.hand.leader == 1 and g.to_move == 1
    # seat 1 holds 6-6 6-4 3-2 2-0 6-3 5-0 6-5; any of them may lead
    assert {NAME[T(x)] for x in g.legal_tokens()} == {"6-6", "6-4", "3-2", "2-0", "6-3", "5-0", "6-5"}
    g.play("4-6")
    assert g.hand.ends() == {"L": 4, "R": 6}


def test_q1_3_later_leads_rotate_regardless_of_winner():
    # Round 1: seat 3 holds 6-6 and wins (team B). Round 2: seat 0 leads (team A) and its team wins,
    # round 3: seat 1 (team B) leads, round 4: seat 2.
    hands = [
        hand(Q_PLAIN66, 3, give_leader=False),
        hand(Q_PLAIN53, 0, give_leader=False),
        hand(Q_PLAIN53, 1, give_leader=False),
        hand(Q_PLAIN53, 2, give_leader=False),
    ]
    out = result(record(hands))
    assert [h["leader"] for h in out["hands"]] == [3, 0, 1, 2]
    assert [h["winner"] for h in out["hands"]] == [1, 0, 1, 0]
    # 17 + 100, 17 + 75, 17 + 50, 17 + 25
    assert [h["points"] for h in out["hands"]] == [[0, 117], [92, 0], [0, 67], [42, 0]]
    assert out["totals"] == [134, 184] and out["winner"] is None and out["finished"] is False


def test_q1_3_later_leads_rotate_even_after_blocked_and_tied_rounds():
    hands = [hand(Q_BLOCK_TIE, 1, give_leader=False), hand(Q_PLAIN53, 2, give_leader=False)]
    out = result(record(hands))
    assert [h["leader"] for h in out["hands"]] == [1, 2]


def test_q1_3_wrong_leader_in_later_round_is_error():
    hands = [hand(Q_PLAIN66, 0, give_leader=False), hand(Q_PLAIN53, 0)]  # winner's seat 0 again: not +1
    e = error(record(hands))
    assert (e["hand"], e["move"]) == (2, None)


# ----------------------------------------------------------------------------- §1.4 Q-b winning_team_chooses

WTC = {"lead_rotation": "winning_team_chooses"}


@pytest.mark.parametrize("leader", [0, 2])
def test_q1_4_b_winning_team_chooses_any_member_to_lead(leader):
    # round 1 won by seat 0's team A (+117); round 2 led by the chosen partner, who wins 17 + 75
    hands = [hand(Q_PLAIN66, 0, give_leader=False), hand(Q_PLAIN53, leader)]
    out = result(record(hands, WTC))
    assert [h["leader"] for h in out["hands"]] == [0, leader]
    assert out["hands"][1]["points"] == [92, 0]
    assert out["totals"] == [209, 0]


def test_q1_4_b_winning_team_chooses_leader_is_required():
    hands = [hand(Q_PLAIN66, 0, give_leader=False), hand(Q_PLAIN53, 2, give_leader=False)]
    e = error(record(hands, WTC))
    assert (e["hand"], e["move"]) == (2, None)


@pytest.mark.parametrize("leader", [1, 3])
def test_q1_4_b_winning_team_chooses_leader_must_be_on_winning_team(leader):
    hands = [hand(Q_PLAIN66, 0, give_leader=False), hand(Q_PLAIN53, leader)]
    e = error(record(hands, WTC))
    assert (e["hand"], e["move"]) == (2, None)


def test_q1_4_b_winning_team_chooses_after_blocked_round_won_by_lower_team():
    # round 1 blocked, seat 0 leads and the other team (seats 1, 3) has the lower total -> it chooses
    hands = [hand(Q_BLOCK_OTHERS_WIN, 0, give_leader=False), hand(Q_PLAIN53, 3)]
    out = result(record(hands, WTC))
    assert out["hands"][0]["winner"] == 1
    assert out["hands"][1]["leader"] == 3
    bad = [hand(Q_BLOCK_OTHERS_WIN, 0, give_leader=False), hand(Q_PLAIN53, 2)]
    e = error(record(bad, WTC))
    assert (e["hand"], e["move"]) == (2, None)


def test_q1_4_b_winning_team_chooses_falls_back_to_rotation_after_tie():
    # round 1 led by seat 1 ends in a blocked tie -> round 2 is led by seat 2 (rotation), leader may be omitted
    hands = [hand(Q_BLOCK_TIE, 1, give_leader=False), hand(Q_PLAIN53, 2, give_leader=False)]
    out = result(record(hands, WTC))
    assert [h["leader"] for h in out["hands"]] == [1, 2]
    assert out["hands"][0]["winner"] is None
    # any other leader disagrees with the rotation
    for wrong in (0, 1, 3):
        hands = [hand(Q_BLOCK_TIE, 1, give_leader=False), hand(Q_PLAIN53, wrong)]
        e = error(record(hands, WTC))
        assert (e["hand"], e["move"]) == (2, None), f"leader {wrong} after a tie should be rejected"


# ----------------------------------------------------------------------------- §1.3 Turn: forced pass only


def test_q1_3_forced_pass_is_recorded_and_accepted():
    # Q_PASS: seat 0 (leader) must pass on move 5; seat 1 goes out on move 26.
    out = result(record([hand(Q_PASS, 0, give_leader=False)]))
    h = out["hands"][0]
    # losers seats 0 (4-2 = 6) and 2 (0-0 = 0) -> 6 + round-1 bonus 100; seat 3's 2-2 is not counted
    assert (h["end"], h["winner"], h["points"]) == ("domino", 1, [0, 106])


def test_q1_3_pass_with_a_playable_tile_is_error():
    mv = list(Q_PASS[0])
    mv[1] = "pass"  # seat 1 holds 6-5 and 6-3, both fit [6|6]
    e = error(record([hand(Q_PASS, 0, moves=mv)]))
    assert (e["hand"], e["move"], e["token"]) == (1, 2, "pass")


def test_q1_3_omitting_a_forced_pass_is_error():
    mv = [m for i, m in enumerate(Q_PASS[0]) if i != 4]  # drop the pass: seat 0 would have to play 4-0
    e = error(record([hand(Q_PASS, 0, moves=mv)]))
    assert (e["hand"], e["move"]) == (1, 5)


def test_q1_3_forced_pass_is_the_only_legal_move_and_no_draw():
    g = Game(make_variant("quinientos"), auto_deal=False)
    g.next_hand(deal=[[T(x) for x in row] for row in deal_for(*Q_PASS, 0)])
    for tok in Q_PASS[0][:4]:
        g.play(tok)
    assert g.to_move == 0 and g.hand.ends() == {"L": 0, "R": 0}
    assert g.legal_tokens() == ["pass"]
    with pytest.raises(IllegalMoveError):
        g.play("5-1")  # does not fit [0|0]
    with pytest.raises(ValueError):
        g.play("draw")  # no drawing in Quinientos
    g.play("pass")
    assert g.to_move == 1
    assert "pass" not in g.legal_tokens()  # seat 1 holds 4-0: no voluntary pass
    with pytest.raises(IllegalMoveError):
        g.play("pass")


# ----------------------------------------------------------------------------- §1.3 Round scoring


def test_q1_3_domino_scores_losing_teams_pips_only():
    # seat 2 leads and goes out in round 5 (no round bonus): losers 4-4 (8) + 5-4 (9) = 17; partner's 4-1 ignored
    out = result(record([hand(Q_PLAIN66, 2)], start=at_round(5)))
    h = out["hands"][0]
    assert (h["end"], h["winner"], h["points"], h["totals"]) == ("domino", 0, [17, 0], [17, 0])


def test_q1_4_c_count_partner_pips_adds_the_winners_partner():
    # 17 + partner's 4-1 (5) = 22
    out = result(record([hand(Q_PLAIN66, 2)], {"count_partner_pips": True}, start=at_round(5)))
    assert out["hands"][0]["points"] == [22, 0]


def test_q1_4_c_count_partner_pips_when_winner_is_not_the_leader():
    # Q_PASS: seat 1 goes out; losers 6 + 0, winner's partner (seat 3) 2-2 = 4 -> 10 (+100 round 1)
    out = result(record([hand(Q_PASS, 0)], {"count_partner_pips": True}))
    assert out["hands"][0]["points"] == [0, 110]
    out = result(record([hand(Q_PASS, 0)]))
    assert out["hands"][0]["points"] == [0, 106]


@pytest.mark.parametrize("leader", [0, 1])
def test_q1_3_blocked_lower_team_wins_and_scores_losers_pips_no_bonus(leader):
    # round 1, blocked: leader's team 25, other team 65 -> leader's team scores 65, no round bonus
    out = result(record([hand(Q_BLOCK_LEADER_WINS, leader, give_leader=False)]))
    h = out["hands"][0]
    assert h["leader"] == leader
    assert (h["end"], h["winner"], h["points"]) == ("blocked", leader % 2, pts(leader % 2, 65))


def test_q1_3_blocked_higher_team_loses():
    out = result(record([hand(Q_BLOCK_OTHERS_WIN, 0, give_leader=False)]))
    h = out["hands"][0]
    assert (h["end"], h["winner"], h["points"]) == ("blocked", 1, [0, 65])


def test_q1_3_blocked_tie_nobody_scores():
    out = result(record([hand(Q_BLOCK_TIE, 0, give_leader=False)]))
    h = out["hands"][0]
    assert (h["end"], h["winner"], h["points"], h["totals"]) == ("blocked", None, [0, 0], [0, 0])


def test_q1_3_block_is_detected_at_once_no_move_may_follow():
    mv = BLOCK_MOVES + ["pass"]
    e = error(record([hand(Q_BLOCK_TIE, 0, moves=mv)]))
    assert (e["hand"], e["move"]) == (1, 11)


# ----------------------------------------------------------------------------- §1.3 Round bonus


@pytest.mark.parametrize("rnd,bonus", [(1, 100), (2, 75), (3, 50), (4, 25), (5, 0), (6, 0), (9, 0)])
def test_q1_3_round_bonus_schedule(rnd, bonus):
    # Q_PLAIN66 led by seat 1 (who holds 6-6, so it is also a valid round 1): team B goes out, losers 17
    out = result(record([hand(Q_PLAIN66, 1)], start=at_round(rnd)))
    assert out["hands"][0]["points"] == [0, 17 + bonus]


def test_q1_4_d_bonus_forfeited_when_blocked_not_carried_over():
    # round 1 blocked (seat 0's team wins 65, no bonus); round 2 domino -> round-2 bonus 75 (not 100, nothing carried)
    hands = [
        hand(Q_BLOCK_LEADER_WINS, 0, give_leader=False),
        hand(Q_PLAIN53, 1, give_leader=False),
        hand(Q_PLAIN53, 2, give_leader=False),
    ]
    out = result(record(hands))
    assert [h["points"] for h in out["hands"]] == [[65, 0], [0, 92], [67, 0]]
    assert out["totals"] == [132, 92]


def test_q1_4_d_bonus_forfeited_when_tied():
    hands = [hand(Q_BLOCK_TIE, 0, give_leader=False), hand(Q_PLAIN53, 1, give_leader=False)]
    out = result(record(hands))
    assert [h["points"] for h in out["hands"]] == [[0, 0], [0, 17 + 75]]


def test_q1_4_d_bonus_by_round_index_false_advances_only_on_domino_rounds():
    # blocked, tie, then three dominoes: bonuses 100, 75, 50 for the 3rd, 4th and 5th rounds dealt
    hands = [
        hand(Q_BLOCK_LEADER_WINS, 0, give_leader=False),
        hand(Q_BLOCK_TIE, 1, give_leader=False),
        hand(Q_PLAIN53, 2, give_leader=False),
        hand(Q_PLAIN53, 3, give_leader=False),
        hand(Q_PLAIN53, 0, give_leader=False),
    ]
    out = result(record(hands, {"bonus_by_round_index": False}))
    assert [h["points"] for h in out["hands"]] == [[65, 0], [0, 0], [117, 0], [0, 92], [67, 0]]
    assert out["totals"] == [249, 92]
    # the same game by round index: rounds 3, 4, 5 -> 50, 25, 0
    out = result(record(hands))
    assert [h["points"] for h in out["hands"]] == [[65, 0], [0, 0], [67, 0], [0, 42], [17, 0]]


def test_q1_4_d_bonus_by_round_index_false_fifth_domino_has_no_bonus():
    # leaders 0, 1, 2 (blocked tie), 3, 0, 1
    hands = [
        hand(Q_PLAIN66, 0, give_leader=False),
        hand(Q_PLAIN53, 1, give_leader=False),
        hand(Q_BLOCK_TIE, 2, give_leader=False),
        hand(Q_PLAIN53, 3, give_leader=False),
        hand(Q_PLAIN53, 0, give_leader=False),
        hand(Q_PLAIN53, 1, give_leader=False),
    ]
    out = result(record(hands, {"bonus_by_round_index": False}))
    # domino rounds 1..5 get 100, 75, 50, 25, 0
    assert [h["points"] for h in out["hands"]] == [[117, 0], [0, 92], [0, 0], [0, 67], [42, 0], [0, 17]]


# ----------------------------------------------------------------------------- §1.3 Capicú and chuchazo


@pytest.mark.parametrize("distinct", [False, True])
def test_q1_3_capicu_last_tile_holds_both_distinct_ends(distinct):
    # ends [1|5], last 5-1: capicú under both settings of Q-e. Round 5: 8 + 100
    out = result(record([hand(Q_CAPICU, 0)], {"capicu_requires_distinct_ends": distinct}, start=at_round(5)))
    assert out["hands"][0]["points"] == [108, 0]


def test_q1_3_capicu_with_equal_ends_and_nondouble_by_default():
    # ends [2|2], last 2-0: capicú (literal seed). Round 5: 14 + 100
    out = result(record([hand(Q_CAPICU_SAME, 1)], start=at_round(5)))
    assert out["hands"][0]["points"] == [0, 114]


def test_q1_4_e_capicu_requires_distinct_ends_rejects_equal_ends():
    out = result(record([hand(Q_CAPICU_SAME, 1)], {"capicu_requires_distinct_ends": True}, start=at_round(5)))
    assert out["hands"][0]["points"] == [0, 14]


@pytest.mark.parametrize("distinct", [False, True])
def test_q1_3_capicu_never_with_a_double(distinct):
    # ends [1|1], last 1-1: no capicú. Round 5: 10
    out = result(
        record([hand(Q_DOUBLE_LAST, 2)], {"capicu_requires_distinct_ends": distinct}, start=at_round(5))
    )
    assert out["hands"][0]["points"] == [10, 0]


def test_q1_3_no_bonus_when_last_tile_fits_one_end():
    out = result(record([hand(Q_PLAIN66, 3)], start=at_round(5)))
    assert out["hands"][0]["points"] == [0, 17]


def test_q1_3_capicu_adds_to_round_bonus():
    # round 1: 8 + 100 (round) + 100 (capicú)
    out = result(record([hand(Q_CAPICU, 2, give_leader=False)]))
    assert out["hands"][0]["points"] == [208, 0]


def test_q1_3_chuchazo_double_blank_on_both_blank_ends_by_default():
    # ends [0|0], last 0-0: chuchazo (not capicú: a double). Round 5: 12 + 100
    out = result(record([hand(Q_CHUCH_BOTH, 0)], start=at_round(5)))
    assert out["hands"][0]["points"] == [112, 0]


def test_q1_4_f_chuchazo_one_side_only_no_bonus_with_both_ends_blank():
    out = result(record([hand(Q_CHUCH_BOTH, 0)], {"chuchazo_one_side_only": True}, start=at_round(5)))
    assert out["hands"][0]["points"] == [12, 0]


@pytest.mark.parametrize("one_side", [False, True])
def test_q1_3_chuchazo_double_blank_on_one_blank_end(one_side):
    # ends [0|4], last 0-0: chuchazo under both settings. Round 5: 12 + 100
    out = result(record([hand(Q_CHUCH_ONE, 3)], {"chuchazo_one_side_only": one_side}, start=at_round(5)))
    assert out["hands"][0]["points"] == [0, 112]


def test_q1_3_chuchazo_with_round_bonus_and_partner_pips():
    # round 2, count_partner_pips: 12 + partner's 5-5 (10) + 75 + 100
    out = result(record([hand(Q_CHUCH_ONE, 1)], {"count_partner_pips": True}, start=at_round(2)))
    assert out["hands"][0]["points"] == [0, 197]


# ----------------------------------------------------------------------------- §1.3 Game end, target


def test_q1_3_game_ends_when_a_team_reaches_exactly_the_target():
    # round 5, team A at 483 scores 17 -> 500: game over
    out = result(record([hand(Q_PLAIN53, 0)], start={"hand": 5, "totals": [483, 10]}))
    assert out["hands"][0]["totals"] == [500, 10]
    assert (out["totals"], out["winner"], out["finished"]) == ([500, 10], 0, True)


def test_q1_3_game_not_over_below_target():
    out = result(record([hand(Q_PLAIN53, 0)], start={"hand": 5, "totals": [482, 10]}))
    assert (out["totals"], out["winner"], out["finished"]) == ([499, 10], None, False)


def test_q1_3_game_won_by_team_b_over_target():
    out = result(record([hand(Q_PLAIN53, 3)], start={"hand": 7, "totals": [499, 490]}))
    assert (out["totals"], out["winner"], out["finished"]) == ([499, 507], 1, True)


def test_q1_4_target_option_and_no_hand_after_game_end():
    # target 200: round 1 capicú by seat 0's team: 8 + 100 + 100 = 208 -> won after one round
    doc = record([hand(Q_CAPICU, 0, give_leader=False)], {"target": 200})
    out = result(doc)
    assert (out["totals"], out["winner"], out["finished"]) == ([208, 0], 0, True)
    doc["hands"].append(hand(Q_PLAIN53, 1, give_leader=False))
    e = error(doc)
    assert (e["hand"], e["move"]) == (2, None)
    # the default target (500) does not end the game
    out = result(record([hand(Q_CAPICU, 0, give_leader=False)]))
    assert (out["winner"], out["finished"]) == (None, False)


def test_q1_3_blocked_round_can_end_the_game():
    out = result(record([hand(Q_BLOCK_OTHERS_WIN, 2)], start={"hand": 3, "totals": [100, 440]}))
    assert (out["totals"], out["winner"], out["finished"]) == ([100, 505], 1, True)
