"""RULES.md §2 (Domino del Cinque): leaders, the spinner, the count after each placement,
hand results, the overtaking clause and the options of §2.4.

Expected values are worked out by hand from RULES.md §2.3/§2.4 (the arithmetic is in the comments).
Turn order is P0 -> P1 -> P2 -> P3; team A = side 0 = seats {0, 2}, team B = side 1 = seats {1, 3}.

Hand templates: move i (0-based) is made by relative seat i % 4 (relative seat r = leader + r);
`deal_for` builds the deal from the moves plus the leftovers of each relative seat. For hands that stop
early, `deal_fill` gives each mover its tiles and deals the rest of the set in order.
"""

from __future__ import annotations

import pytest

from bonepile import Game, make_variant
from bonepile.engine.errors import AmbiguousMoveError, IllegalMoveError
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
    return record_doc("cinque", hands, options, start)


def deal_fill(moves, leader):
    """Movers get the tiles they play; the other tiles are dealt in set order (6-6 last)."""
    deal = [[] for _ in range(4)]
    seat = leader
    for m in moves:
        if m != "pass":
            deal[seat].append(NAME[T(m)])
        seat = (seat + 1) % 4
    used = {T(x) for row in deal for x in row}
    free = [t for t in range(28) if t not in used]
    for row in deal:
        while len(row) < 7:
            row.append(NAME[free.pop(0)])
    return deal


def after_domino(totals=(0, 0)):
    """`start` of a record whose first hand follows a domino hand (hand 2; leader then required)."""
    return {"hand": 2, "totals": list(totals)}


def game_at(moves, leader, *, first_hand=True, options=None):
    """A game whose current hand has the deal_fill deal. Hand 1 (6-6 holder leads) or, with
    first_hand=False, a hand 2 led by `leader`, who must not hold 6-6 (so the previous hand was a domino)."""
    deal = deal_fill(moves, leader)
    if first_hand:
        g = Game(make_variant("cinque", options or {}), auto_deal=False)
        g.next_hand(deal=[[T(x) for x in row] for row in deal])
    else:
        assert "6-6" not in deal[leader]
        g = Game(make_variant("cinque", options or {}), start_hand=2, auto_deal=False)
        g.next_hand(deal=[[T(x) for x in row] for row in deal], leader=leader)
    assert g.hand.leader == leader
    return g


def trace(g, moves):
    """Play the moves; after each placement, (count, per-side points scored in this hand)."""
    out = []
    for m in moves:
        g.play(m)
        out.append((g.hand.count(), list(g.hand.inplay)))
    assert not g.hand.over, "the hand should still be running"
    return out


# ----------------------------------------------------------------------------- templates

# Hand 1 style (6-6 led by the leader, rel 0, who goes out on move 25). Verified count by count:
# 12, 17, 14, 4, 5*, 4, 2, 5*, 4, 9, 10*, 8, 12, 13, 16, 17, 20*, 24, 17, 22, 24, 23, 25*, 19, 19
# (* scores): rel 0: 5 (m5) + 20 (m17); rel 2: 10 (m11) + 25 (m23); rel 3: 5 (m8).
# Leader's team 60, other team 5. Left: rel 1 3-3 (6), rel 2 4-2 (6), rel 3 4-0 (4).
C_D66 = (
    [
        "6-6",
        "6-5@L",
        "5-2@L",
        "6-2@R",
        "6-1@U",
        "1-0@U",
        "2-0@R",
        "3-0@U",
        "2-1@L",
        "5-0@R",
        "1-1@L",
        "5-3@R",
        "6-4@D",
        "4-3@U",
        "5-1@L",
        "5-4@U",
        "6-3@R",
        "4-4@D",
        "4-1@D",
        "5-5@U",
        "3-1@D",
        "3-2@D",
        "2-2@D",
        "6-0@R",
        "0-0@R",
    ],
    [[], ["3-3"], ["4-2"], ["4-0"]],
)
# Lead 5-0 (a later hand), first double 1-1 played on the right end (the line becomes the L arm).
# Counts: 5*, 6, 7, 11, 15*, 13, 10*, 9, 5*, 8, 6, 7, 10*, 15*, 16, 22, 24, 27, 15*, 14, 14, 16, 18, 16, 12
# rel 0: 5 + 15 + 5 + 10 = 35, rel 2: 10 + 15 = 25 -> leader's team 60; rel 1: 15 (m14).
# Left: rel 1 4-4 (8), rel 2 0-0 (0), rel 3 5-5 (10).
C_LINE50 = (
    [
        "5-0",
        "1-0@R",
        "1-1@R",
        "6-1@R",
        "4-1@U",
        "5-3@L",
        "6-3@R",
        "3-2@R",
        "4-0@U",
        "3-0@U",
        "3-1@U",
        "2-1@U",
        "5-2@U",
        "5-1@D",
        "6-5@U",
        "6-6@U",
        "2-2@R",
        "3-3@L",
        "6-0@U",
        "5-4@D",
        "4-2@R",
        "6-4@R",
        "2-0@U",
        "4-3@L",
        "6-2@R",
    ],
    [[], ["4-4"], ["0-0"], ["5-5"]],
)
# 6-6 lead; the leader goes out but its team scores less: leader's team 5 (m3) + 20 (m23) = 25,
# other team 15 (m14) + 25 (m20) = 40. Left: rel 1 3-3 (6), rel 2 4-4 (8), rel 3 2-2 (4).
C_LOSER_OUT = (
    [
        "6-6",
        "6-4@R",
        "6-1@L",
        "1-1@L",
        "5-4@R",
        "6-5@U",
        "6-0@D",
        "2-0@D",
        "6-2@D",
        "5-3@R",
        "1-0@L",
        "3-0@R",
        "0-0@R",
        "4-0@R",
        "4-1@R",
        "5-5@U",
        "5-0@L",
        "5-2@L",
        "5-1@R",
        "4-2@L",
        "4-3@L",
        "3-2@L",
        "6-3@D",
        "2-1@L",
        "3-1@D",
    ],
    [[], ["3-3"], ["4-4"], ["2-2"]],
)
# Three more 6-6 hands gone out by the leader, for the rounding of hand_end_bonus="allfives":
# opponents keep 6-5 + 3-3 = 17 (-> 15), 4-2 + 6-4 = 16 (-> 15), 5-1 + 4-4 = 14 (-> 15).
C_OPP17 = (
    [
        "6-6",
        "6-2@L",
        "2-1@L",
        "1-1@L",
        "6-3@R",
        "6-4@U",
        "3-1@L",
        "4-3@U",
        "6-0@D",
        "2-0@D",
        "5-3@L",
        "3-2@U",
        "2-2@U",
        "5-0@L",
        "4-2@U",
        "4-0@U",
        "0-0@U",
        "1-0@L",
        "5-1@L",
        "3-0@R",
        "5-5@L",
        "5-4@L",
        "5-2@D",
        "4-4@L",
        "4-1@L",
    ],
    [[], ["6-5"], ["6-1"], ["3-3"]],
)
C_OPP16 = (
    [
        "6-6",
        "6-0@L",
        "3-0@L",
        "3-1@L",
        "6-3@R",
        "3-3@R",
        "6-1@U",
        "6-2@D",
        "2-0@D",
        "1-0@D",
        "4-1@D",
        "3-2@R",
        "2-2@R",
        "1-1@U",
        "5-1@U",
        "4-4@D",
        "4-3@D",
        "2-1@R",
        "5-4@U",
        "4-0@U",
        "5-3@D",
        "0-0@U",
        "6-5@D",
        "5-0@U",
        "5-5@U",
    ],
    [[], ["4-2"], ["5-2"], ["6-4"]],
)
C_OPP14 = (
    [
        "6-6",
        "6-2@R",
        "6-1@L",
        "6-5@U",
        "5-2@U",
        "3-2@U",
        "3-3@U",
        "3-1@L",
        "6-3@U",
        "2-2@R",
        "4-2@R",
        "4-0@R",
        "6-0@U",
        "2-0@R",
        "6-4@D",
        "4-3@D",
        "3-0@D",
        "5-3@L",
        "2-1@R",
        "5-0@D",
        "1-0@R",
        "0-0@U",
        "5-5@L",
        "5-4@D",
        "4-1@D",
    ],
    [[], ["5-1"], ["1-1"], ["4-4"]],
)

# Blocked after 10 placements: 6-6; L: 6-1 1-2 2-6; R: 6-3 3-4 4-6; U: 6-5 5-0 0-6. All sixes are out and
# every open end (L, R, U and the empty D side) shows 6. Counts: 12, 13, 4, 5* (rel 3), 6, 10* (rel 1), 12,
# 17, 12, 18 -> the leader's team 0, the other team 15. The other 18 tiles (90 pips) stay in hand:
# 4 with rel 0, 4 with rel 1, 5 with rel 2, 5 with rel 3.
BLOCK_MOVES = ["6-6", "6-1@L", "6-3@R", "1-2@L", "3-4@R", "2-6@L", "4-6@R", "6-5@U", "5-0@U", "0-6@U"]
C_BLOCK_TIE = (
    BLOCK_MOVES,
    [
        ["0-0", "1-0", "1-1", "5-5"],
        ["2-2", "3-0", "3-1", "3-3"],  # 13 | 17
        ["5-4", "5-3", "4-4", "3-2", "2-0"],
        ["4-0", "4-1", "4-2", "5-1", "5-2"],
    ],
)  # 32 | 28: 45-45
C_BLOCK_DIFF2 = (
    BLOCK_MOVES,
    [
        ["0-0", "1-0", "1-1", "5-5"],
        ["2-2", "3-0", "3-1", "3-3"],  # 13 | 17
        ["5-4", "5-3", "4-4", "4-0", "2-0"],
        ["3-2", "4-1", "4-2", "5-1", "5-2"],
    ],
)  # 31 | 29: 44-46
C_BLOCK_DIFF4 = (
    BLOCK_MOVES,
    [
        ["0-0", "1-0", "1-1", "5-5"],
        ["2-2", "3-0", "3-1", "4-4"],  # 13 | 19
        ["5-4", "5-3", "3-3", "3-2", "2-0"],
        ["4-0", "4-1", "4-2", "5-1", "5-2"],
    ],
)  # 30 | 28: 43-47
C_BLOCK_OTHERS_8 = (
    BLOCK_MOVES,
    [
        ["2-2", "1-0", "1-1", "5-5"],
        ["0-0", "3-0", "3-1", "3-3"],  # 17 | 13
        ["5-4", "5-3", "4-4", "3-2", "2-0"],
        ["4-0", "4-1", "4-2", "5-1", "5-2"],
    ],
)  # 32 | 28: 49-41
C_BLOCK_40 = (
    BLOCK_MOVES,
    [
        ["0-0", "1-0", "1-1", "2-0"],
        ["3-3", "4-1", "4-2", "4-4"],  # 5 | 25
        ["2-2", "3-0", "3-1", "3-2", "4-0"],
        ["5-1", "5-2", "5-3", "5-4", "5-5"],
    ],
)  # 20 | 40: 25-65


def pts(side, mine, other):
    return [mine, other] if side == 0 else [other, mine]


# ----------------------------------------------------------------------------- examples and scenarios


@pytest.mark.parametrize("path", scenario_files("c_"), ids=lambda p: p.name)
def test_c_scenario(path):
    check_scenario(path)


def test_c_scenarios_exist():
    assert len(scenario_files("c_")) >= 8


# ----------------------------------------------------------------------------- §2.3 Leader of a hand


@pytest.mark.parametrize("holder", [0, 1, 2, 3])
def test_c2_3_hand1_double_six_holder_leads_double_six(holder):
    out = result(record([hand(C_D66, holder, give_leader=False)]))
    h = out["hands"][0]
    assert (h["leader"], h["end"], h["winner"]) == (holder, "domino", holder % 2)
    assert h["points"] == pts(holder % 2, 60, 5)


def test_c2_3_hand1_other_lead_tile_is_error():
    h = hand(C_D66, 0, moves=["6-4"])  # the holder holds 6-4 too
    assert "6-4" in h["deal"][0]
    e = error(record([h]))
    assert (e["hand"], e["move"], e["token"]) == (1, 1, "6-4")


def test_c2_3_hand1_leader_other_than_holder_is_error():
    h = hand(C_D66, 0)
    h["leader"] = 1
    e = error(record([h]))
    assert (e["hand"], e["move"]) == (1, None)


def test_c2_3_after_domino_the_player_who_went_out_leads_any_tile():
    # hand 1: seat 3 holds 6-6 and goes out; hand 2: seat 3 leads 5-0 (6-6 is with seat 2 now)
    hands = [hand(C_D66, 3, give_leader=False), hand(C_LINE50, 3, give_leader=False)]
    assert "6-6" in hands[1]["deal"][2]
    out = result(record(hands))
    assert [h["leader"] for h in out["hands"]] == [3, 3]
    # hand 1: team B 60 / A 5; hand 2 (leader 3 = B): B 60, A 15
    assert [h["points"] for h in out["hands"]] == [[5, 60], [15, 60]]
    assert out["totals"] == [20, 120] and out["winner"] == 1 and out["finished"] is True


def test_c2_3_after_domino_another_leader_is_error():
    hands = [hand(C_D66, 3, give_leader=False), hand(C_LINE50, 2)]
    e = error(record(hands))
    assert (e["hand"], e["move"]) == (2, None)


def test_c2_3_after_blocked_hand_double_six_holder_leads_double_six():
    # hand 1 blocked (seat 0 led; the last tile was placed by seat 1); hand 2: seat 2 holds 6-6 and leads
    hands = [hand(C_BLOCK_TIE, 0, give_leader=False), hand(C_D66, 2, give_leader=False)]
    out = result(record(hands))
    assert [h["leader"] for h in out["hands"]] == [0, 2]
    assert [h["end"] for h in out["hands"]] == ["blocked", "domino"]
    assert [h["points"] for h in out["hands"]] == [[0, 15], [60, 5]]


def test_c2_3_after_blocked_hand_other_lead_tile_or_leader_is_error():
    bad_tile = [hand(C_BLOCK_TIE, 0, give_leader=False), hand(C_D66, 2, moves=["6-4"])]
    assert "6-4" in bad_tile[1]["deal"][2]
    e = error(record(bad_tile))
    assert (e["hand"], e["move"], e["token"]) == (2, 1, "6-4")
    bad_leader = [hand(C_BLOCK_TIE, 0, give_leader=False), hand(C_D66, 2)]
    bad_leader[1]["leader"] = 1  # the blocker, not the 6-6 holder
    e = error(record(bad_leader))
    assert (e["hand"], e["move"]) == (2, None)


# ----------------------------------------------------------------------------- §2.3 Spinner and count


def test_c2_3_count_without_spinner_sums_line_ends():
    # hand 2 led by seat 0 with 4-1: [4|1] 5*, [4|0] 4, [3|0] 3, [3|2] 5*, [6|2] 8, [6|4] 10*
    mv = ["4-1", "1-0@R", "4-3@L", "0-2@R", "3-6@L", "2-4@R"]
    g = game_at(mv, 0, first_hand=False)
    assert trace(g, mv) == [(5, [5, 0]), (4, [5, 0]), (3, [5, 0]), (5, [5, 5]), (8, [5, 5]), (10, [5, 15])]
    assert g.hand.ends() == {"L": 6, "R": 4}


def test_c2_3_led_spinner_counts_twice_until_both_sides_played_then_arms():
    # 6-6 12 | 6-3@L 3+12=15* | 6-2@R 3+2=5* | 6-5@U 3+2+5=10* | 6-0@D 10* | 3-3@L 6+2+5+0=13 |
    # 2-2@R 6+4+5+0=15* | 5-1@U 6+4+1=11 | 0-4@D 6+4+1+4=15*
    mv = ["6-6", "6-3@L", "6-2@R", "6-5@U", "6-0@D", "3-3@L", "2-2@R", "5-1@U", "0-4@D"]
    g = game_at(mv, 0)
    assert trace(g, mv) == [
        (12, [0, 0]),
        (15, [0, 15]),
        (5, [5, 15]),
        (10, [5, 25]),
        (10, [15, 25]),
        (13, [15, 25]),
        (15, [30, 25]),
        (11, [30, 25]),
        (15, [45, 25]),
    ]
    assert g.scores() == [45, 25]


def test_c2_3_up_and_down_do_not_exist_before_left_and_right():
    g = game_at(["6-6", "6-5@L", "6-4@R"], 0)
    g.play("6-6")
    g.play("6-5@L")
    with pytest.raises(IllegalMoveError, match="arm U does not exist yet"):
        g.play("6-4@U")
    with pytest.raises(IllegalMoveError, match="arm D does not exist yet"):
        g.play("6-4@D")
    assert {t for t in g.legal_tokens() if "@" in t and t[-1] in "UD"} == set()
    g.play("6-4")  # only R can take it: no @ needed
    assert g.hand.ends()["R"] == 4
    assert g.hand.count() == 9


def test_c2_3_up_before_left_and_right_is_a_record_error():
    mv = ["6-6", "6-5@L", "6-4@U"]
    doc = record([{"deal": deal_fill(mv, 0), "boneyard": [], "moves": mv}])
    e = error(doc)
    assert (e["hand"], e["move"], e["token"]) == (1, 3, "6-4@U")
    assert "arm U does not exist yet" in e["message"]


def test_c2_3_spinner_played_on_right_end_old_line_is_left_arm():
    # hand 2, seat 0 leads 5-0: [5|0] 5* | 0-0@R: spinner 0, L arm ends 5, R side free: 5+2*0=5* |
    # 0-3 must go R: 5+3=8 | 0-2@U 5+3+2=10* | 0-6@D 5+3+2+6=16 | 5-5@L 10+3+2+6=21 | 6-5@D 10+3+2+5=20*
    mv = ["5-0", "0-0@R", "0-3@R", "0-2@U", "0-6@D", "5-5@L", "6-5@D"]
    g = game_at(mv, 0, first_hand=False)
    assert trace(g, mv) == [
        (5, [5, 0]),
        (5, [5, 5]),
        (8, [5, 5]),
        (10, [5, 15]),
        (16, [5, 15]),
        (21, [5, 15]),
        (20, [25, 15]),
    ]


def test_c2_3_spinner_on_line_end_next_tile_goes_on_the_opposite_side():
    g = game_at(["5-0", "0-0@R", "0-3@R"], 0, first_hand=False)
    g.play("5-0")
    g.play("0-0@R")
    assert g.hand.count() == 5
    with pytest.raises(IllegalMoveError, match="arm U does not exist yet"):
        g.play("0-3@U")
    with pytest.raises(IllegalMoveError):
        g.play("0-3@L")  # L is the old line, open end 5
    g.play("0-3")  # only R fits
    assert g.hand.ends() == {"L": 5, "R": 3, "U": 0, "D": 0}
    assert g.hand.count() == 8


def test_c2_3_spinner_played_on_left_end_old_line_is_right_arm():
    # [5|0] 5* | 5-5@L: R arm ends 0, L side free: 0+2*5=10* | 5-3@L 3+0=3 | 5-2@U 3+0+2=5* |
    # 0-0@R (ordinary double, counts 2*0) 5* | 0-4@R 3+4+2=9 | 5-6@D 3+4+2+6=15*
    mv = ["5-0", "5-5@L", "5-3@L", "5-2@U", "0-0@R", "0-4@R", "5-6@D"]
    g = game_at(mv, 0, first_hand=False)
    assert trace(g, mv) == [
        (5, [5, 0]),
        (10, [5, 10]),
        (3, [5, 10]),
        (5, [5, 15]),
        (5, [10, 15]),
        (9, [10, 15]),
        (15, [25, 15]),
    ]


def test_c2_3_later_doubles_are_not_spinners():
    # after the 6-6 spinner, 3-3 at the end of L is ordinary: only its outer side is open
    mv = ["6-6", "6-3@L", "6-2@R", "3-3@L"]
    g = game_at(mv, 0)
    trace(g, mv)
    assert g.hand.ends() == {"L": 3, "R": 2, "U": 6, "D": 6}


def test_c2_3_count_of_35_is_scored_no_cap():
    # hand 2, seat 1 leads 2-2 (spinner): 4 | 2-6@L 6+4=10* | 2-5@R 11 | 6-6@L 12+5=17 | 5-5@R 22 |
    # 2-4@U 26 | 4-4@U 12+10+8=30* | 2-0@D 30* | 0-5@D 12+10+8+5=35*
    mv = ["2-2", "2-6@L", "2-5@R", "6-6@L", "5-5@R", "2-4@U", "4-4@U", "2-0@D", "0-5@D"]
    g = game_at(mv, 1, first_hand=False)
    assert trace(g, mv) == [
        (4, [0, 0]),
        (10, [10, 0]),
        (11, [10, 0]),
        (17, [10, 0]),
        (22, [10, 0]),
        (26, [10, 0]),
        (30, [10, 30]),
        (30, [40, 30]),
        (35, [40, 65]),
    ]


def test_c2_4_a_spinner_any_order_opens_up_and_down_at_once():
    # 6-6 12 | 6-4@U 4+12=16 (one side) | 6-1@D 4+1=5* (two sides: spinner no longer counts) |
    # 6-5@L 4+1+5=10* | 6-0@R 4+1+5+0=10*
    mv = ["6-6", "6-4@U", "6-1@D", "6-5@L", "6-0@R"]
    g = game_at(mv, 0, options={"spinner_any_order": True})
    assert trace(g, mv) == [(12, [0, 0]), (16, [0, 0]), (5, [5, 0]), (10, [5, 10]), (10, [15, 10])]


def test_c2_4_a_spinner_any_order_spinner_on_line_end():
    # [5|0] 5* | 0-0@R: L arm occupied, one side -> 5+0=5* | 0-3@U: two sides -> 5+3=8
    mv = ["5-0", "0-0@R", "0-3@U"]
    g = game_at(mv, 0, first_hand=False, options={"spinner_any_order": True})
    assert trace(g, mv) == [(5, [5, 0]), (5, [5, 5]), (8, [5, 5])]


def test_c2_4_a_default_order_rejects_up_first():
    g = game_at(["6-6", "6-4@U"], 0)
    g.play("6-6")
    with pytest.raises(IllegalMoveError, match="arm U does not exist yet"):
        g.play("6-4@U")


# ----------------------------------------------------------------------------- RECORD.md ambiguity


def test_c2_3_tile_fitting_two_arms_needs_an_arm_even_if_scores_alike():
    # on the lone 6-6 spinner 6-5 fits L and R; both give 5+12=17
    g = game_at(["6-6", "6-5@L"], 0)
    g.play("6-6")
    with pytest.raises(AmbiguousMoveError):
        g.play("6-5")
    mv = ["6-6", "6-5"]
    e = error(record([{"deal": deal_fill(["6-6", "6-5@L"], 0), "boneyard": [], "moves": mv}]))
    assert (e["hand"], e["move"], e["token"]) == (1, 2, "6-5")


def test_c2_3_tile_fitting_up_and_down_needs_an_arm():
    # after 6-3@L 6-2@R, 6-5 fits U and D (both 3+2+5=10)
    mv = ["6-6", "6-3@L", "6-2@R", "6-5@U"]
    g = game_at(mv, 0)
    for m in mv[:3]:
        g.play(m)
    with pytest.raises(AmbiguousMoveError):
        g.play("6-5")
    g.play("6-5@D")
    assert g.hand.count() == 10


# ----------------------------------------------------------------------------- §2.3 hand end, RECORD.md winner


def test_c2_3_domino_winner_is_team_that_went_out_even_with_fewer_points():
    # seat 1 goes out; its team scored 25 in play, the other 40; no end-of-hand points
    out = result(record([hand(C_LOSER_OUT, 1, give_leader=False)]))
    h = out["hands"][0]
    assert (h["end"], h["winner"], h["points"]) == ("domino", 1, [40, 25])


def test_c2_3_blocked_hand_has_no_winner_and_no_end_points():
    # only the in-play 15 of the team of seats 1 and 3, however the pips are split
    for tpl in (C_BLOCK_TIE, C_BLOCK_40, C_BLOCK_OTHERS_8):
        out = result(record([hand(tpl, 0, give_leader=False)]))
        h = out["hands"][0]
        assert (h["end"], h["winner"], h["points"]) == ("blocked", None, [0, 15])


def test_c2_3_no_move_after_block():
    e = error(record([hand(C_BLOCK_TIE, 0, moves=BLOCK_MOVES + ["pass"])]))
    assert (e["hand"], e["move"]) == (1, 11)


def test_c2_3_pass_with_a_playable_tile_is_error():
    mv = ["6-6", "pass"]  # seat 1 holds 6-5
    e = error(record([{"deal": deal_for(C_D66[0], C_D66[1], 0), "boneyard": [], "moves": mv}]))
    assert (e["hand"], e["move"], e["token"]) == (1, 2, "pass")


# ----------------------------------------------------------------------------- §2.3 game end (overtaking)


def test_c2_3_finish_hand_game_continues_after_100_and_higher_total_wins():
    # start [90, 50]; hand led by seat 1 (C_LINE50): A reaches 105 on move 14, B ends 50+60=110
    out = result(record([hand(C_LINE50, 1)], start=after_domino([90, 50])))
    h = out["hands"][0]
    assert (h["end"], h["winner"], h["points"], h["totals"]) == ("domino", 1, [15, 60], [105, 110])
    assert (out["winner"], out["finished"]) == (1, True)


def test_c2_3_finish_hand_equal_totals_first_to_100_wins():
    # start [95, 50]: A 110 on move 14; B reaches 100 only on move 19 (110). Equal -> A
    out = result(record([hand(C_LINE50, 1)], start=after_domino([95, 50])))
    assert out["totals"] == [110, 110]
    assert (out["winner"], out["finished"]) == (0, True)


def test_c2_3_game_not_over_below_target():
    out = result(record([hand(C_LINE50, 1)], start=after_domino([80, 39])))
    assert out["totals"] == [95, 99]
    assert (out["winner"], out["finished"]) == (None, False)


def test_c2_3_no_hand_after_game_end():
    hands = [hand(C_LINE50, 1), hand(C_LINE50, 1)]
    e = error(record(hands, start=after_domino([90, 50])))
    assert (e["hand"], e["move"]) == (2, None)


def test_c2_4_j_target_option():
    # target 50: the hand ends 15 / 60 -> team B wins
    out = result(record([hand(C_LINE50, 1)], {"target": 50}, start=after_domino()))
    assert (out["totals"], out["winner"], out["finished"]) == ([15, 60], 1, True)
    out = result(record([hand(C_LINE50, 1)], {"target": 61}, start=after_domino()))
    assert (out["winner"], out["finished"]) == (None, False)


IMM = {"target_rule": "immediate"}


def test_c2_4_e_immediate_cuts_the_hand_when_target_reached():
    # start [90, 50]: A reaches 105 on move 14 -> the hand stops there. B had 5+15+10+5+10 = 45
    doc = record([hand(C_LINE50, 1, moves=C_LINE50[0][:14])], IMM, start=after_domino([90, 50]))
    out = result(doc)
    h = out["hands"][0]
    assert (h["end"], h["winner"], h["points"], h["totals"]) == ("unfinished", None, [15, 45], [105, 95])
    assert (out["totals"], out["winner"], out["finished"]) == ([105, 95], 0, True)


def test_c2_4_e_immediate_no_token_after_target():
    doc = record([hand(C_LINE50, 1)], IMM, start=after_domino([90, 50]))
    e = error(doc)
    assert (e["hand"], e["move"]) == (1, 15)


def test_c2_4_e_immediate_no_hand_after_target():
    doc = record(
        [hand(C_LINE50, 1, moves=C_LINE50[0][:14]), hand(C_LINE50, 0)], IMM, start=after_domino([90, 50])
    )
    e = error(doc)
    assert (e["hand"], e["move"]) == (2, None)


def test_c2_4_e_immediate_game_api_stops():
    g = Game(make_variant("cinque", IMM), start_hand=2, start_totals=[90, 50], auto_deal=False)
    g.next_hand(deal=[[T(x) for x in row] for row in deal_for(*C_LINE50, 1)], leader=1)
    for m in C_LINE50[0][:14]:
        g.play(m)
    assert g.over and g.winner == 0 and g.hand.end == "unfinished"
    assert g.totals == [105, 95]
    assert g.legal_moves() == []
    with pytest.raises(IllegalMoveError):
        g.play(C_LINE50[0][14])


def test_c2_4_e_immediate_not_triggered_below_target():
    out = result(record([hand(C_LINE50, 1)], IMM, start=after_domino([80, 39])))
    assert out["hands"][0]["end"] == "domino"
    assert (out["totals"], out["winner"], out["finished"]) == ([95, 99], None, False)


# ----------------------------------------------------------------------------- §2.4 C-d hand_end_bonus

AF = {"hand_end_bonus": "allfives"}


@pytest.mark.parametrize(
    "tpl,opp,bonus",
    [
        (C_D66, 10, 10),  # 3-3 + 4-0
        (C_OPP16, 16, 15),  # remainder 1: down
        (C_OPP17, 17, 15),  # remainder 2: down
        (C_LINE50, 18, 20),  # remainder 3: up (4-4 + 5-5)
        (C_OPP14, 14, 15),  # remainder 4: up
    ],
)
def test_c2_4_d_allfives_domino_scores_opponents_pips_rounded(tpl, opp, bonus):
    leader = 1
    start = None if tpl[0][0] == "6-6" else after_domino()
    plain = result(record([hand(tpl, leader, give_leader=start is not None)], start=start))["hands"][0]
    af = result(record([hand(tpl, leader, give_leader=start is not None)], AF, start=start))["hands"][0]
    assert af["winner"] == 1 and af["end"] == "domino"
    assert af["points"] == [plain["points"][0], plain["points"][1] + bonus], (
        f"opponents hold {opp} pips: the team that went out should gain {bonus}"
    )


def test_c2_4_d_allfives_domino_example():
    # seat 1 went out with C_LOSER_OUT: in play A 40 / B 25; opponents keep 3-3 + 2-2 = 10 -> B +10
    out = result(record([hand(C_LOSER_OUT, 1, give_leader=False)], AF))
    assert out["hands"][0]["points"] == [40, 35]


@pytest.mark.parametrize(
    "tpl,points",
    [
        (C_BLOCK_TIE, [0, 15]),  # 45 - 45: nobody
        (C_BLOCK_DIFF2, [0, 15]),  # A 44 < B 46: difference 2 rounds down to 0
        (C_BLOCK_DIFF4, [5, 15]),  # A 43 < B 47: 4 -> 5
        (C_BLOCK_OTHERS_8, [0, 25]),  # B 41 < A 49: 8 -> 10
        (C_BLOCK_40, [40, 15]),  # A 25 < B 65: 40
    ],
)
def test_c2_4_d_allfives_blocked_lower_team_scores_rounded_difference(tpl, points):
    out = result(record([hand(tpl, 0, give_leader=False)], AF))
    h = out["hands"][0]
    assert (h["end"], h["points"]) == ("blocked", points)


def test_c2_4_d_default_has_no_end_of_hand_points():
    out = result(record([hand(C_BLOCK_40, 0, give_leader=False)]))
    assert out["hands"][0]["points"] == [0, 15]
    out = result(record([hand(C_LOSER_OUT, 1, give_leader=False)]))
    assert out["hands"][0]["points"] == [40, 25]
