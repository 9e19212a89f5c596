"""RULES.md §4: The Passing Game (variant `passing`).

Headline cases are scenario records (tests/scenarios/p_*); the rest is built here.  Expected
values are worked out by hand from RULES.md §4.3/§4.4 and §0.7 (the arithmetic is in the comments).
"""

from __future__ import annotations

import json
import random

import pytest

from bonepile import Game, make_variant
from bonepile.engine import DRAW, PASS
from bonepile.engine.tiles import NAME, move, tile_of
from support import (
    ALL_NAMES,
    EXAMPLES,
    check_scenario,
    err_at,
    hands_of,
    names,
    record_doc,
    replay_doc,
    rest,
    scenario_files,
    subset_mismatch,
    tile,
)

ALL = ALL_NAMES
HI = {t: max(map(int, NAME[t].split("-"))) for t in range(28)}
LO = {t: min(map(int, NAME[t].split("-"))) for t in range(28)}


def doc(options: dict, hands: list[dict], start: dict | None = None) -> dict:
    return record_doc("passing", hands, options, start)


def tiles_of(moves) -> set[int]:
    return {tile_of(m) for m in moves if m < PASS}


def game(options, deal, boneyard, leader):
    g = Game(make_variant("passing", options), auto_deal=False)
    g.next_hand(
        deal=[[tile(t) for t in r] for r in deal], boneyard=[tile(t) for t in boneyard], leader=leader
    )
    return g


# ----------------------------------------------------------------------------- the hand-built deals
# p_01 (2p): seat 1 leads and goes out along R; seat 0 passes, draws 3-1, plays 6-0.
P1_S1 = ["6-6", "6-5", "5-5", "5-4", "4-4", "4-3", "3-3"]
P1_S0 = ["6-0", "0-0", "1-0", "2-1", "1-1", "2-0", "2-2"]
P1_BY = ["3-1"] + rest(P1_S0, P1_S1, ["3-1"])
P1_DEAL = [P1_S0, P1_S1]
P1_MOVES = ["6-6", "pass", "6-5@R", "draw", "5-5", "6-0", "5-4", "pass", "4-4", "pass", "4-3", "pass", "3-3"]

# p_03 (3p): seat 0 leads 6-6, then three passes.  Left: s0 55, s1 15, s2 51.
P3 = [
    ["6-6", "6-5", "6-4", "6-3", "6-2", "6-1", "5-5"],
    ["0-0", "1-0", "1-1", "2-0", "2-1", "3-0", "2-2"],
    ["3-3", "4-2", "4-3", "4-4", "5-2", "5-3", "5-4"],
]
P3_BY = ["3-1", "4-0", "4-1", "5-0", "3-2", "6-0", "5-1"]

# p_05 / p_06 (4p): every 6 reaches the table, two draws leave the 2 reserved tiles: blocked.
# Left: s0 24, s1 4, s2 10, s3 34.
P5 = [
    ["6-6", "6-3", "3-1", "4-0", "3-3", "4-1"],
    ["6-5", "3-2", "6-1", "0-0", "1-1", "2-0"],
    ["5-4", "6-2", "1-0", "2-1", "3-0", "2-2"],
    ["6-4", "6-0", "4-2", "4-3", "4-4", "5-1"],
]
P5_BY = ["5-2", "5-0", "5-3", "5-5"]
P5_MOVES = ["6-6", "6-5@L", "5-4", "6-4@L", "6-3@L", "3-2", "6-2@L", "draw", "draw", "6-1@L", "1-0", "6-0@L"]


def p3_doc(options=None, moves=("6-6", "pass", "pass", "pass"), start=None, more=()):
    return doc(
        {"players": 3, **(options or {})},
        [{"deal": P3, "boneyard": P3_BY, "leader": 0, "moves": list(moves)}, *more],
        start=start,
    )


def p5_doc(options=None, moves=P5_MOVES, start=None):
    return doc(
        {"players": 4, **(options or {})},
        [{"deal": P5, "boneyard": P5_BY, "leader": 0, "moves": list(moves)}],
        start=start,
    )


# ----------------------------------------------------------------------------- scenarios and example
@pytest.mark.parametrize("path", scenario_files("p_"), ids=lambda p: p.name)
def test_s4_scenario_records(path):
    check_scenario(path)


def test_s4_example_passing_4p_teams_replays_to_expected():
    expected = json.loads((EXAMPLES / "passing-4p-teams.expected.json").read_text())
    actual = replay_doc(json.loads((EXAMPLES / "passing-4p-teams.record.json").read_text()))
    bad = subset_mismatch(expected, actual)
    assert bad is None, f"examples/passing-4p-teams: {bad}"


# ----------------------------------------------------------------------------- deal
@pytest.mark.parametrize("n,size,bone", [(2, 7, 14), (3, 7, 7), (4, 6, 4)])
def test_s4_3_hand_sizes_and_boneyard_with_two_never_drawn(n, size, bone):
    for seed in range(4):
        v = Game.new("passing", {"players": n}, seed=seed).view(0)
        assert v.tile_counts == (size,) * n
        assert (v.boneyard_size, v.drawable) == (bone, bone - 2)


def test_s4_3_wrong_hand_size_in_record_is_an_error():
    deal = [ALL[0:7], ALL[7:14], ALL[14:21], ALL[21:28]]  # 4 players dealt 7 instead of 6
    assert err_at(
        replay_doc(doc({"players": 4}, [{"deal": deal, "boneyard": [], "leader": 0, "moves": []}]))
    ) == (1, None)


# ----------------------------------------------------------------------------- leader
def test_s4_3_leader_is_random_and_required_in_a_record():
    d = p3_doc()
    del d["hands"][0]["leader"]
    assert err_at(replay_doc(d)) == (1, None)
    with pytest.raises(ValueError):
        game({"players": 3}, P3, P3_BY, None)
    for leader in range(3):  # any seat may be drawn to lead
        g = game({"players": 3}, P3, P3_BY, leader)
        assert g.hand.leader == leader and g.to_move == leader


def test_s4_3_leader_must_lead_a_tile_any_tile():
    g = game({"players": 3}, P3, P3_BY, 1)
    assert set(g.legal_moves()) == {move(tile(t), 0) for t in P3[1]}  # no pass, no draw
    assert tiles_of(g.legal_moves()) == {tile(t) for t in P3[1]}
    for bad in ("pass", "draw"):
        with pytest.raises(ValueError):
            g.play(bad)
        assert err_at(replay_doc(p3_doc(moves=[bad]))) == (1, 1)
    g.play("0-1")
    assert g.hand.ends() == {"L": 0, "R": 1}


def test_s4_4_later_hands_leader_random_required_again():
    # p_03 ends after 4 moves; the second hand needs its own leader by default.
    more = [{"deal": P3, "boneyard": P3_BY, "moves": []}]
    assert err_at(replay_doc(p3_doc(more=more))) == (2, None)
    more[0]["leader"] = 2
    assert [h["leader"] for h in hands_of(replay_doc(p3_doc(more=more)))] == [0, 2]


def test_s4_4_lead_rule_rotate_next_player_leads_later_hands():
    more = [{"deal": P3, "boneyard": P3_BY, "moves": ["2-1"]}]  # seat 1 leads any tile
    r = replay_doc(p3_doc({"lead_rule": "rotate"}, more=more))
    assert [h["leader"] for h in hands_of(r)] == [0, 1]
    more[0]["leader"] = 2
    assert err_at(replay_doc(p3_doc({"lead_rule": "rotate"}, more=more))) == (2, None)
    d = p3_doc({"lead_rule": "rotate"})
    del d["hands"][0]["leader"]  # hand 1 is still drawn at random
    assert err_at(replay_doc(d)) == (1, None)


# ----------------------------------------------------------------------------- the turn: play, draw, pass
def test_s4_3_pass_allowed_while_holding_a_playable_tile():
    g = game({"players": 2}, P1_DEAL, P1_BY, 1)
    g.play("6-6")
    assert move(tile("6-0"), 0) in g.legal_moves() or move(tile("6-0"), 1) in g.legal_moves()
    assert PASS in g.legal_moves() and DRAW in g.legal_moves()
    g.play("pass")
    assert g.to_move == 1


def test_s4_3_draw_allowed_while_holding_a_playable_tile_and_ends_the_turn():
    g = game({"players": 2}, P1_DEAL, P1_BY, 1)
    for m in ["6-6", "pass", "6-5@R"]:
        g.play(m)
    assert g.to_move == 0 and g.view(0).drawable == 12
    g.play("draw")  # seat 0 holds 6-0, which fits
    assert g.to_move == 1, "draw_ends_turn: the turn passes after a draw"
    assert tile("3-1") in g.hand.held(0) and g.view(0).drawable == 11


def test_s4_3_last_two_tiles_never_drawn_2_players():
    # Seat 0 draws 12 times (seat 1 passes in between); the 13th draw would take a reserved tile.
    moves = ["6-6"] + ["draw", "pass"] * 12
    r = replay_doc(doc({"players": 2}, [{"deal": P1_DEAL, "boneyard": P1_BY, "leader": 1, "moves": moves}]))
    assert hands_of(r)[0]["end"] == "unfinished"
    r = replay_doc(
        doc({"players": 2}, [{"deal": P1_DEAL, "boneyard": P1_BY, "leader": 1, "moves": moves + ["draw"]}])
    )
    assert err_at(r) == (1, 26)
    g = game({"players": 2}, P1_DEAL, P1_BY, 1)
    for m in moves:
        g.play(m)
    assert g.view(0).drawable == 0 and g.view(0).boneyard_size == 2
    assert DRAW not in g.legal_moves() and PASS in g.legal_moves()


def test_s4_3_last_two_tiles_never_drawn_3_players():
    # 7 in the boneyard, 5 drawable: s1, s2, s0, s1, s2 draw; then s0 may not.
    moves = ["6-6", "draw", "draw", "draw", "draw", "draw"]
    assert hands_of(replay_doc(p3_doc(moves=moves)))[0]["end"] == "unfinished"
    assert err_at(replay_doc(p3_doc(moves=moves + ["draw"]))) == (1, 7)


def test_s4_4_draw_ends_turn_false_draw_then_play_or_pass_but_not_draw_again():
    opts = {"players": 2, "draw_ends_turn": False}
    g = game(opts, P1_DEAL, P1_BY, 1)
    for m in ["6-6", "pass", "6-5@R"]:
        g.play(m)
    g.play("draw")  # seat 0 draws 3-1
    assert g.to_move == 0, "with draw_ends_turn=False the drawer may go on"
    legal = g.legal_moves()
    assert DRAW not in legal and PASS in legal
    assert tiles_of(legal) == {tile("6-0")}  # [6|5]: only 6-0 fits
    with pytest.raises(ValueError):
        g.play("draw")
    h = g.copy()
    h.play("pass")
    assert h.to_move == 1
    g.play("6-0")
    assert g.to_move == 1 and g.hand.ends() == {"L": 0, "R": 5}
    # draw, then play in the same turn: seat 0 draws 3-1, plays 6-0@R; seat 1 plays on
    r = replay_doc(
        doc(
            opts,
            [{"deal": P1_DEAL, "boneyard": P1_BY, "leader": 1, "moves": ["6-6", "draw", "6-0@R", "6-5@L"]}],
        )
    )
    assert hands_of(r)[0]["end"] == "unfinished"
    r = replay_doc(
        doc(opts, [{"deal": P1_DEAL, "boneyard": P1_BY, "leader": 1, "moves": ["6-6", "draw", "draw"]}])
    )
    assert err_at(r) == (1, 3)


def test_s4_4_draw_ends_turn_true_draw_then_play_is_an_error():
    r = replay_doc(
        doc(
            {"players": 2},
            [{"deal": P1_DEAL, "boneyard": P1_BY, "leader": 1, "moves": ["6-6", "draw", "6-0@R"]}],
        )
    )
    assert err_at(r) == (1, 3)  # it is seat 1's turn: seat 1 lacks 6-0


def test_s4_4_draw_ends_turn_false_drawn_tile_played_at_once():
    # Seat 1 leads 3-3; seat 0 (no 3 in hand) draws 3-1 and plays that very tile.
    opts = {"players": 2, "draw_ends_turn": False}
    r = replay_doc(
        doc(opts, [{"deal": P1_DEAL, "boneyard": P1_BY, "leader": 1, "moves": ["3-3", "draw", "3-1@L"]}])
    )
    h = hands_of(r)[0]
    assert h["end"] == "unfinished"
    g = game(opts, P1_DEAL, P1_BY, 1)
    for m in ["3-3", "draw", "3-1@L"]:
        g.play(m)
    assert g.to_move == 1 and g.hand.ends() == {"L": 1, "R": 3}


# ----------------------------------------------------------------------------- end of hand
def test_s4_3_full_pass_cycle_false_does_not_end_the_hand():
    r = replay_doc(p3_doc({"end_on_full_pass_cycle": False}, moves=["6-6"] + ["pass"] * 6))
    h = hands_of(r)[0]
    assert (h["end"], h["winner"], h["points"]) == ("unfinished", None, [0, 0, 0])
    g = game({"players": 3, "end_on_full_pass_cycle": False}, P3, P3_BY, 0)
    for m in ["6-6", "pass", "pass", "pass"]:
        g.play(m)
    assert not g.hand.over and g.to_move == 1


def test_s4_3_pass_cycle_needs_n_consecutive_passes_a_draw_restarts_it():
    # s1 pass, s2 draw (3-1), s0 pass, s1 pass: only 2 in a row -> goes on; s2 pass: 3 -> ends.
    moves = ["6-6", "pass", "draw", "pass", "pass"]
    assert hands_of(replay_doc(p3_doc(moves=moves)))[0]["end"] == "unfinished"
    h = hands_of(replay_doc(p3_doc(moves=moves + ["pass"])))[0]
    # s0 55, s1 15, s2 51 + 4 (3-1) = 55 -> s1 scores (55 + 55) - 15 = 95
    assert (h["end"], h["winner"], h["points"]) == ("blocked", 1, [0, 95, 0])
    assert err_at(replay_doc(p3_doc(moves=moves + ["pass", "pass"]))) == (1, 7)


def test_s4_3_full_pass_cycle_2_players():
    # p_01's deal: seat 1 leads 6-6, seat 0 passes, seat 1 passes -> blocked.
    # Left: seat 0: 6+0+1+3+2+2+4 = 18; seat 1: 11+10+9+8+7+6 = 51 -> seat 0 scores 51 - 18 = 33.
    r = replay_doc(
        doc(
            {"players": 2},
            [{"deal": P1_DEAL, "boneyard": P1_BY, "leader": 1, "moves": ["6-6", "pass", "pass"]}],
        )
    )
    h = hands_of(r)[0]
    assert (h["end"], h["winner"], h["points"]) == ("blocked", 0, [33, 0])


def test_s4_3_blocked_when_boneyard_down_to_two_and_nobody_can_play():
    assert hands_of(replay_doc(p5_doc(moves=P5_MOVES[:-1])))[0]["end"] == "unfinished"
    assert err_at(replay_doc(p5_doc(moves=P5_MOVES + ["pass"]))) == (1, 13)
    g = game({"players": 4}, P5, P5_BY, 0)
    for m in P5_MOVES:
        g.play(m)
    assert g.hand.over and g.hand.end == "blocked" and g.view(0).boneyard_size == 2


def test_s4_4_not_blocked_while_more_than_two_tiles_remain():
    # The same 10 placements without the two draws: ends [6|6], nobody holds a 6, but 4 tiles
    # remain (2 drawable), so the hand goes on (P-e).
    moves = ["6-6", "6-5@L", "5-4", "6-4@L", "6-3@L", "3-2", "6-2@L", "6-1@L", "1-0", "6-0@L"]
    deal = [
        ["6-6", "6-3", "1-0", "3-1", "4-0", "3-3"],
        ["6-5", "3-2", "6-0", "4-1", "0-0", "1-1"],
        ["5-4", "6-2", "2-0", "2-1", "3-0", "2-2"],
        ["6-4", "6-1", "4-2", "4-3", "4-4", "5-1"],
    ]
    # turn order: s0 6-6, s1 6-5, s2 5-4, s3 6-4, s0 6-3, s1 3-2, s2 6-2, s3 6-1, s0 1-0, s1 6-0
    r = replay_doc(doc({"players": 4}, [{"deal": deal, "boneyard": P5_BY, "leader": 0, "moves": moves}]))
    assert hands_of(r)[0]["end"] == "unfinished"
    r = replay_doc(
        doc(
            {"players": 4},
            [{"deal": deal, "boneyard": P5_BY, "leader": 0, "moves": moves + ["draw", "draw"]}],
        )
    )
    # s2 draws 5-2, s3 draws 5-0: 2 left, nobody holds a 6 -> blocked.
    # left: s0 3-1 4-0 3-3 = 14; s1 4-1 0-0 1-1 = 7; s2 2-0 2-1 3-0 2-2 5-2 = 19; s3 4-2 4-3 4-4 5-1 5-0 = 32
    # s1 scores (14 + 19 + 32) - 7 = 58
    h = hands_of(r)[0]
    assert (h["end"], h["winner"], h["points"]) == ("blocked", 1, [0, 58, 0, 0])


# ----------------------------------------------------------------------------- scoring
# 3p, blocked by a pass cycle, seats 1 and 2 tie for lowest (28 each).
TIE3 = [
    ["6-6", "6-5", "6-4", "6-3", "6-2", "5-5", "4-4"],
    ["0-0", "1-0", "2-1", "3-1", "4-2", "5-3", "6-0"],  # 0+1+3+4+6+8+6 = 28
    ["1-1", "2-0", "3-0", "4-0", "3-2", "5-1", "3-3"],
]  # 2+2+3+4+5+6+6 = 28


def test_s4_3_tie_for_lowest_nobody_scores():
    r = replay_doc(
        doc(
            {"players": 3},
            [{"deal": TIE3, "boneyard": rest(*TIE3), "leader": 0, "moves": ["6-6", "pass", "pass", "pass"]}],
        )
    )
    h = hands_of(r)[0]
    assert (h["end"], h["winner"], h["points"]) == ("blocked", None, [0, 0, 0])


def test_s4_3_unique_lowest_scores_others_minus_own():
    h = hands_of(replay_doc(p3_doc()))[0]
    assert h["points"] == [0, (55 + 51) - 15, 0]
    h = hands_of(replay_doc(p5_doc()))[0]
    assert h["points"] == [0, (24 + 10 + 34) - 4, 0, 0]


def test_s4_3_teams_side_value_blocked():
    # A = {0,2} = 24 + 10 = 34, B = {1,3} = 4 + 34 = 38 -> A scores 38 - 34 = 4
    r = replay_doc(p5_doc({"teams": True, "team_scoring": "side_value"}))
    assert r["sides"] == [[0, 2], [1, 3]]
    h = hands_of(r)[0]
    assert (h["winner"], h["points"]) == (0, [4, 0])


def test_s4_4_team_scoring_lowest_individual():
    # seat 1 is individually lowest (4): team B scores (24 + 10) - 4 = 30, seat 3's 34 ignored
    h = hands_of(replay_doc(p5_doc({"teams": True, "team_scoring": "lowest_individual"})))[0]
    assert (h["end"], h["winner"], h["points"]) == ("blocked", 1, [0, 30])


def test_s4_3_teams_side_value_domino_side_of_dominoer_is_0():
    # 4p teams: seat 0 goes out; its side's value is 0 whatever its partner holds.
    deal = [
        ["6-6", "6-5", "5-5", "5-4", "4-4", "4-3"],
        ["0-0", "1-0", "1-1", "2-0", "2-1", "2-2"],  # 0+1+2+2+3+4 = 12
        ["6-4", "6-3", "6-2", "6-1", "6-0", "5-3"],  # 10+9+8+7+6+8 = 48 (partner)
        ["3-0", "3-1", "3-2", "4-0", "4-1", "4-2"],
    ]  # 3+4+5+4+5+6 = 27
    moves = [
        "6-6",
        "pass",
        "pass",
        "pass",  # s2 passes although it holds sixes
        "6-5@R",
        "pass",
        "pass",
        "pass",
        "5-5",
        "pass",
        "pass",
        "pass",
        "5-4",
        "pass",
        "pass",
        "pass",
        "4-4",
        "pass",
        "pass",
        "pass",
        "4-3",
    ]
    # the passes: after each play 3 passes, then seat 0 plays -> never 4 in a row.
    # [6|6] 6-5@R [6|5] 5-5 [6|5] 5-4 [6|4] 4-4 [6|4] 4-3 -> seat 0 is out.
    # (seat 3 holds 4-x tiles and may pass at [6|4]: passing is always allowed.)
    r = replay_doc(
        doc(
            {"players": 4, "teams": True},
            [{"deal": deal, "boneyard": rest(*deal), "leader": 0, "moves": moves}],
        )
    )
    h = hands_of(r)[0]
    # A = 0 (seat 0 went out), B = 12 + 27 = 39 -> A scores 39
    assert (h["end"], h["winner"], h["points"]) == ("domino", 0, [39, 0])
    # individually: seat 0 scores 12 + 48 + 27 = 87
    r = replay_doc(
        doc({"players": 4}, [{"deal": deal, "boneyard": rest(*deal), "leader": 0, "moves": moves}])
    )
    assert hands_of(r)[0]["points"] == [87, 0, 0, 0]


def test_s4_3_teams_need_4_players():
    for n in (2, 3):
        with pytest.raises(ValueError):
            make_variant("passing", {"players": n, "teams": True})
        assert err_at(replay_doc(doc({"players": n, "teams": True}, []))) == (None, None)


# ----------------------------------------------------------------------------- targets
def _finished(d):
    r = replay_doc(d)
    assert "error" not in r, r
    return r["totals"], r["finished"], r["winner"]


def test_s4_4_target_seed_2_players_101():
    base = {"deal": P1_DEAL, "boneyard": P1_BY, "leader": 1, "moves": P1_MOVES}  # seat 1 +16
    for rule in ("seed", "pagat"):
        assert _finished(
            doc({"players": 2, "target_rule": rule}, [base], {"hand": 1, "totals": [0, 84]})
        ) == ([0, 100], False, None), rule
        assert _finished(
            doc({"players": 2, "target_rule": rule}, [base], {"hand": 1, "totals": [0, 85]})
        ) == ([0, 101], True, 1), rule


def test_s4_4_target_3_players_seed_101_pagat_61():
    # p_03: seat 1 scores 91
    assert _finished(p3_doc()) == ([0, 91, 0], False, None)
    assert _finished(p3_doc(start={"hand": 1, "totals": [0, 9, 0]})) == ([0, 100, 0], False, None)
    assert _finished(p3_doc(start={"hand": 1, "totals": [0, 10, 0]})) == ([0, 101, 0], True, 1)
    assert _finished(p3_doc({"target_rule": "pagat"})) == ([0, 91, 0], True, 1)


def test_s4_4_target_4_players_individual_61_both_rules():
    for rule in ("seed", "pagat"):
        assert _finished(p5_doc({"target_rule": rule})) == ([0, 64, 0, 0], True, 1), rule


def test_s4_4_target_4_player_teams_seed_61_pagat_101():
    # p_06: team A scores 4
    teams = {"teams": True}
    assert _finished(p5_doc(teams, start={"hand": 1, "totals": [56, 0]})) == ([60, 0], False, None)
    assert _finished(p5_doc(teams, start={"hand": 1, "totals": [57, 0]})) == ([61, 0], True, 0)
    pagat = {"teams": True, "target_rule": "pagat"}
    assert _finished(p5_doc(pagat, start={"hand": 1, "totals": [57, 0]})) == ([61, 0], False, None)
    assert _finished(p5_doc(pagat, start={"hand": 1, "totals": [96, 0]})) == ([100, 0], False, None)
    assert _finished(p5_doc(pagat, start={"hand": 1, "totals": [97, 0]})) == ([101, 0], True, 0)


def test_s4_3_no_hand_after_the_game_is_won():
    more = [{"deal": P5, "boneyard": P5_BY, "leader": 0, "moves": []}]
    d = p5_doc()
    d["hands"] += more
    assert err_at(replay_doc(d)) == (2, None)


# ----------------------------------------------------------------------------- random play vs the rules
def _fits(h, seat):
    ends = h.ends()
    out = set()
    for t in h.held(seat):
        for arm, name in ((0, "L"), (1, "R")):
            if name in ends and ends[name] in (HI[t], LO[t]):
                out.add(move(t, arm))
    return out


def _drawable(h):
    drawn = sum(1 for _, m, _ in h.log if m == DRAW)
    return max(0, len(h.boneyard) - drawn - 2)


def _pips(h, seat):
    return sum(HI[t] + LO[t] for t in h.held(seat))


def _expected(h, n, teams, team_scoring):
    """(points per side, winning side) by §4.3 / §0.7 / P-g, or None where RULES.md is silent."""
    pips = [_pips(h, s) for s in range(n)]
    if not teams:
        low = min(pips)
        out = [0] * n
        if pips.count(low) > 1:
            return out, None
        w = pips.index(low)
        out[w] = sum(pips) - low - low
        return out, w
    sides = ((0, 2), (1, 3))
    out = [0, 0]
    if team_scoring == "side_value":
        vals = [0 if any(not h.held(s) for s in side) else pips[side[0]] + pips[side[1]] for side in sides]
        if vals[0] == vals[1]:
            return out, None
        w = 0 if vals[0] < vals[1] else 1
        out[w] = vals[1 - w] - vals[w]
        return out, w
    low = min(pips)
    if pips.count(low) > 1:
        return None  # tie for lowest individual: unspecified
    seat = pips.index(low)
    w = seat % 2
    out[w] = sum(pips[s] for s in sides[1 - w]) - low
    return out, w


CONFIGS = [
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 4, "teams": True},
    {"players": 4, "teams": True, "team_scoring": "lowest_individual"},
    {"players": 3, "draw_ends_turn": False, "lead_rule": "rotate"},
    {"players": 2, "end_on_full_pass_cycle": False, "target_rule": "pagat"},
    {"players": 3, "target_rule": "pagat"},
    {"players": 4, "teams": True, "target_rule": "pagat"},
]


@pytest.mark.parametrize("opts", CONFIGS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_s4_3_random_play_follows_the_rules(opts):
    """Legal moves, hand ends, scores, leaders and game end of random games, checked against §4.3."""
    n = opts["players"]
    teams = opts.get("teams", False)
    team_scoring = opts.get("team_scoring", "side_value")
    ends_turn = opts.get("draw_ends_turn", True)
    cycle = opts.get("end_on_full_pass_cycle", True)
    rotate = opts.get("lead_rule", "random") == "rotate"
    if opts.get("target_rule", "seed") == "seed":
        target = 101 if n in (2, 3) else 61
    else:
        target = 101 if n == 2 or teams else 61
    for seed in range(10):
        g = Game.new("passing", opts, seed=seed)
        rng = random.Random(seed)
        steps = 0
        while not g.over and len(g.hands) <= 6 and steps < 3000:
            steps += 1
            h = g.hand
            seat = h.to_move
            legal = g.legal_moves()
            if not h.log:
                assert set(legal) == {move(t, 0) for t in h.held(seat)}, (
                    "the leader must lead a tile, any tile"
                )
                k = len(g.hands) - 1
                if rotate and k:
                    assert h.leader == (g.hands[k - 1].leader + 1) % n, "lead_rule rotate"
            else:
                drew = h.log[-1][0] == seat and h.log[-1][1] == DRAW
                expected = _fits(h, seat) | {PASS}
                if _drawable(h) and not drew:
                    expected.add(DRAW)
                assert set(legal) == expected, (
                    f"seat {seat} holds {names(h.held(seat))}, ends {h.ends()}, drawable {_drawable(h)}"
                )
                assert _drawable(h) or any(_fits(h, s) for s in range(n)), "should have ended blocked"
            plays = [m for m in legal if m < PASS]
            m = rng.choice(plays) if plays and rng.random() < 0.6 else rng.choice(legal)
            g.apply(m)
            if m == DRAW and not h.over:
                assert h.to_move == (seat if not ends_turn else (seat + 1) % n)
            if h.over:
                tail = [mv for _, mv, _ in h.log[-n:]]
                if h.end == "blocked":
                    stuck = not _drawable(h) and not any(_fits(h, s) for s in range(n))
                    cycled = cycle and len(tail) == n and all(mv == PASS for mv in tail)
                    assert stuck or cycled, "blocked without a block or a full pass cycle"
                else:
                    assert h.end == "domino" and not h.held(h.log[-1][0])
                exp = _expected(h, n, teams, team_scoring)
                if exp is not None:
                    assert (list(h.result.points), h.result.winner) == exp, (
                        f"{h.end}: pips {[_pips(h, s) for s in range(n)]}"
                    )
                assert g.over == any(t >= target for t in g.totals), f"target {target}, totals {g.totals}"
            elif cycle and len(h.log) > n:
                tail = [mv for _, mv, _ in h.log[-n:]]
                assert not all(mv == PASS for mv in tail), "a full cycle of passes should end the hand"
