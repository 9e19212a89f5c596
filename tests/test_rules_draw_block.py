"""RULES.md §3: Draw and Block dominoes (variants `draw` and `block`).

Headline cases are scenario records (tests/scenarios/d_*, b_*); the rest is built here.
Expected values are worked out by hand from RULES.md (the arithmetic is in the comments).
Random-play tests check rule invariants (legal moves, leaders, scores) against an oracle
written from §3.3 / §0.7, not against the engine's own numbers.
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


def doc(variant: str, options: dict, hands: list[dict], start: dict | None = None) -> dict:
    return record_doc(variant, hands, options, start)


def tiles_of(moves) -> set[int]:
    return {tile_of(m) for m in moves if m < PASS}


# ----------------------------------------------------------------------------- the hand-built deals
# Block 4p, blocked with ends [6|6] once every 6 is on the table (10 placements, no pass).
BLOCK_MOVES = ["6-6", "6-5@L", "5-4", "6-4@L", "6-3@L", "3-2", "6-2@L", "6-1@L", "1-0", "6-0@L"]
B1 = [
    ["6-6", "6-3", "1-0", "0-0", "1-1", "2-0", "2-1"],  # left: 0+2+2+3 = 7
    ["6-5", "3-2", "6-0", "2-2", "3-0", "3-1", "4-0"],  # left: 4+3+4+4 = 15
    ["5-4", "6-2", "3-3", "4-1", "4-2", "5-0", "5-1"],  # left: 6+5+6+5+6 = 28
    ["6-4", "6-1", "4-3", "4-4", "5-2", "5-3", "5-5"],
]  # left: 7+8+7+8+10 = 40
# Same play; sides tie: A = 7 + 38 = 45, B = 15 + 30 = 45.
B_TEAM_TIE = [
    ["6-6", "6-3", "1-0", "0-0", "1-1", "2-0", "2-1"],  # 7
    ["6-5", "3-2", "6-0", "2-2", "3-0", "3-1", "4-0"],  # 15
    ["5-4", "6-2", "3-3", "5-5", "4-2", "5-3", "4-4"],  # 6+10+6+8+8 = 38
    ["6-4", "6-1", "4-3", "4-1", "5-2", "5-0", "5-1"],
]  # 7+5+7+5+6 = 30
# A later-hand deal: 6-6 with seat 2, seat 0 without it.
H2 = [
    ["0-0", "1-0", "1-1", "2-0", "2-1", "2-2", "3-0"],
    ["3-1", "3-2", "3-3", "4-0", "4-1", "4-2", "4-3"],
    ["4-4", "5-0", "5-1", "5-2", "5-3", "5-4", "6-6"],
    ["5-5", "6-0", "6-1", "6-2", "6-3", "6-4", "6-5"],
]

# Draw 2p (d_01): seat 1 holds 6-6; seat 0 must draw 4-2 then 6-0 and play 6-0.
D1_S0 = ["0-0", "1-0", "1-1", "2-1", "2-2", "3-0", "5-2"]
D1_S1 = ["6-6", "6-5", "5-5", "5-4", "4-4", "4-3", "3-3"]
D1_BY = ["4-2", "6-0"] + rest(D1_S0, D1_S1, ["4-2", "6-0"])
D1_MOVES = [
    "6-6",
    "draw",
    "draw",
    "6-0@L",
    "6-5",
    "0-0",
    "5-5",
    "1-0",
    "5-4",
    "1-1",
    "4-4",
    "2-1",
    "4-3",
    "2-2",
    "3-3",
]

# Draw 2p with the 6s 6-1, 6-0 as the boneyard's last two (d_04).
R_S0 = ["6-5", "6-4", "3-2", "2-0", "2-1", "2-2", "3-0"]
R_S1 = ["6-6", "5-4", "6-3", "6-2", "0-0", "1-0", "1-1"]
R_BY = ["3-1", "3-3", "4-0", "4-1", "4-2", "4-3", "4-4", "5-0", "5-1", "5-2", "5-3", "5-5", "6-1", "6-0"]
R_MOVES = ["6-6", "6-5@L", "5-4", "6-4@L", "6-3@L", "3-2", "6-2@L"] + ["draw"] * 12

# Draw 4p (d_05): all 6s on the table, seat 2 draws the 8-tile boneyard out, blocked.
Q = [
    ["6-6", "6-3", "1-0", "0-0", "1-1"],  # left 2
    ["6-5", "3-2", "6-0", "2-0", "2-1"],  # left 5
    ["5-4", "6-2", "2-2", "3-0", "3-1"],  # left 11 + 57 drawn = 68
    ["6-4", "6-1", "3-3", "4-0", "4-1"],
]  # left 15
Q_BY = ["4-2", "4-3", "4-4", "5-0", "5-1", "5-2", "5-3", "5-5"]
Q_MOVES = BLOCK_MOVES + ["draw"] * 8


# ----------------------------------------------------------------------------- scenarios and examples
@pytest.mark.parametrize("path", scenario_files("d_") + scenario_files("b_"), ids=lambda p: p.name)
def test_s3_scenario_records(path):
    check_scenario(path)


@pytest.mark.parametrize("name", ["block", "draw-3p"])
def test_s3_example_replays_to_expected(name):
    expected = json.loads((EXAMPLES / f"{name}.expected.json").read_text())
    actual = replay_doc(json.loads((EXAMPLES / f"{name}.record.json").read_text()))
    bad = subset_mismatch(expected, actual)
    assert bad is None, f"examples/{name}: {bad}"


# ----------------------------------------------------------------------------- §3.3 common: scoring
def test_s3_3_blocked_each_vs_once_differ_with_4_players():
    # d_05: seat 0 lowest (2); others 5, 68, 15.
    each = replay_doc(doc("draw", {"players": 4}, [{"deal": Q, "boneyard": Q_BY, "moves": Q_MOVES}]))
    once = replay_doc(
        doc(
            "draw",
            {"players": 4, "blocked_formula": "once"},
            [{"deal": Q, "boneyard": Q_BY, "moves": Q_MOVES}],
        )
    )
    assert hands_of(each)[0]["points"] == [(5 - 2) + (68 - 2) + (15 - 2), 0, 0, 0] == [82, 0, 0, 0]
    assert hands_of(once)[0]["points"] == [(5 + 68 + 15) - 2, 0, 0, 0] == [86, 0, 0, 0]


def test_s3_3_blocked_formula_each_is_default_for_block():
    explicit = replay_doc(
        doc(
            "block",
            {"players": 4, "blocked_formula": "each"},
            [{"deal": B1, "boneyard": [], "moves": BLOCK_MOVES}],
        )
    )
    assert hands_of(explicit)[0]["points"] == [62, 0, 0, 0]  # (15-7)+(28-7)+(40-7)


def test_s3_3_blocked_2_players_each_equals_once():
    # d_04 with the formula switched: 2 players -> one opponent, same result (88 - 3).
    for formula in ("each", "once"):
        r = replay_doc(
            doc(
                "draw",
                {"players": 2, "boneyard_reserve": 2, "blocked_formula": formula},
                [{"deal": [R_S0, R_S1], "boneyard": R_BY, "moves": R_MOVES}],
            )
        )
        assert hands_of(r)[0]["points"] == [0, 85], formula


def test_s3_3_domino_scores_total_of_all_opponents_pips_3_players():
    # Seat 0 goes out along the R end; seats 1 and 2 play along the L end.
    s0 = ["6-6", "6-5", "5-5", "5-4", "4-4"]
    s1 = ["6-3", "1-0", "3-2", "3-1", "4-2"]  # 4-2 left: 6 pips
    s2 = ["3-0", "2-1", "3-3", "1-1", "5-3"]  # 5-3 left: 8 pips
    moves = [
        "6-6",  # s0 [6|6]
        "6-3@L",  # s1 [3|6]
        "3-0",  # s2 [0|6]
        "6-5",  # s0 [0|5]
        "1-0",  # s1 [1|5]
        "2-1",  # s2 [2|5]
        "5-5",  # s0 [2|5]
        "3-2",  # s1 [3|5]
        "3-3",  # s2 [3|5]
        "5-4",  # s0 [3|4]
        "3-1",  # s1 [1|4]
        "1-1",  # s2 [1|4]
        "4-4",
    ]  # s0 out
    for formula in ("each", "once"):
        r = replay_doc(
            doc(
                "draw",
                {"players": 3, "blocked_formula": formula},
                [{"deal": [s0, s1, s2], "boneyard": rest(s0, s1, s2), "moves": moves}],
            )
        )
        h = hands_of(r)[0]
        assert (h["leader"], h["end"], h["winner"], h["points"]) == (0, "domino", 0, [14, 0, 0]), formula


def test_s3_3_blocked_tie_for_lowest_nobody_scores_even_with_once():
    # b_03's first hand: seats 0 and 1 tie for lowest with 13 each.
    b03 = json.loads(scenario_files("b_03")[0].read_text())
    r = replay_doc(doc("block", {"players": 4, "blocked_formula": "once"}, [b03["hands"][0]]))
    h = hands_of(r)[0]
    assert (h["end"], h["winner"], h["points"]) == ("blocked", None, [0, 0, 0, 0])


# ----------------------------------------------------------------------------- partnerships (§0.7)
def test_s3_3_teams_draw_blocked_side_value():
    # d_05 as teams: A = {0,2} = 2 + 68 = 70, B = {1,3} = 5 + 15 = 20 -> B scores 70 - 20 = 50.
    r = replay_doc(
        doc("draw", {"players": 4, "teams": True}, [{"deal": Q, "boneyard": Q_BY, "moves": Q_MOVES}])
    )
    assert r["sides"] == [[0, 2], [1, 3]]
    h = hands_of(r)[0]
    assert (h["end"], h["winner"], h["points"]) == ("blocked", 1, [0, 50])


def test_s3_3_teams_equal_side_values_nobody_scores_then_double_six_leads():
    r = replay_doc(
        doc(
            "block",
            {"players": 4, "teams": True},
            [
                {"deal": B_TEAM_TIE, "boneyard": [], "moves": BLOCK_MOVES},
                {"deal": H2, "boneyard": [], "moves": ["6-6"]},
            ],
        )
    )
    h1, h2 = hands_of(r)
    assert (h1["end"], h1["winner"], h1["points"]) == ("blocked", None, [0, 0])
    assert h2["leader"] == 2  # holder of 6-6 after a tie
    # individually the same hand is won by seat 0: (15-7)+(38-7)+(30-7) = 62
    r = replay_doc(doc("block", {"players": 4}, [{"deal": B_TEAM_TIE, "boneyard": [], "moves": BLOCK_MOVES}]))
    assert hands_of(r)[0]["points"] == [62, 0, 0, 0]


def test_s3_3_teams_domino_side_of_dominoer_has_value_0():
    # Block 4p as teams, a later hand (start.hand 2, so the leader is given): seat 0 holds all
    # seven blanks and goes out; the partner's (seat 2's) pips do not count.
    deal = [
        ["0-0", "1-0", "2-0", "3-0", "4-0", "5-0", "6-0"],
        ["1-1", "2-1", "3-1", "4-1", "5-1", "6-1", "2-2"],
        ["3-2", "4-2", "5-2", "6-2", "3-3", "4-3", "5-3"],
        ["6-3", "4-4", "5-4", "6-4", "5-5", "6-5", "6-6"],
    ]
    moves = [
        "0-0",  # s0 [0|0]
        "pass",
        "pass",
        "pass",  # nobody else holds a blank
        "1-0@L",  # s0 [1|0]
        "1-1",  # s1 [1|0]
        "pass",
        "pass",  # s2, s3: no 1, no 0
        "2-0",  # s0 [1|2]
        "2-2",  # s1 [1|2]
        "3-2",  # s2 [1|3]
        "6-3",  # s3 [1|6]
        "6-0",  # s0 [1|0]
        "2-1",  # s1 [2|0]
        "4-2",  # s2 [4|0]
        "4-4",  # s3 [4|0]
        "3-0",  # s0 [4|3]
        "4-1",  # s1 [1|3]
        "4-3",  # s2 [1|4]
        "5-4",  # s3 [1|5]
        "5-0",  # s0 [1|0]
        "3-1",  # s1 [3|0]
        "5-3",  # s2 [5|0]
        "5-5",  # s3 [5|0]
        "4-0",
    ]  # s0 plays its last tile
    r = replay_doc(
        doc(
            "block",
            {"players": 4, "teams": True},
            [{"deal": deal, "boneyard": [], "leader": 0, "moves": moves}],
            start={"hand": 2, "totals": [0, 0]},
        )
    )
    h = hands_of(r)[0]
    # left: s1 5-1 6-1 = 13; s2 5-2 6-2 3-3 = 21 (ignored); s3 6-4 6-5 6-6 = 33.
    # side A (seat 0 went out) = 0, side B = 13 + 33 = 46 -> A scores 46 - 0.
    assert (h["leader"], h["end"], h["winner"], h["points"]) == (0, "domino", 0, [46, 0])


def test_s3_3_teams_with_other_than_4_players_is_an_option_error():
    for variant, n in (("draw", 2), ("draw", 3), ("block", 2)):
        with pytest.raises(ValueError):
            make_variant(variant, {"players": n, "teams": True})
        r = replay_doc(doc(variant, {"players": n, "teams": True}, []))
        assert err_at(r) == (None, None), (variant, n)
    assert make_variant("draw", {"players": 4, "teams": True}).sides == ((0, 2), (1, 3))


# ----------------------------------------------------------------------------- target and game end
def _b1(options=None, start=None, extra_hands=()):
    return doc(
        "block",
        {"players": 4, **(options or {})},
        [{"deal": B1, "boneyard": [], "moves": BLOCK_MOVES}, *extra_hands],
        start=start,
    )


def test_s3_3_target_100_not_reached_at_99():
    r = replay_doc(_b1(start={"hand": 1, "totals": [37, 0, 0, 0]}))
    assert (r["totals"], r["finished"], r["winner"]) == ([99, 0, 0, 0], False, None)


def test_s3_3_target_option():
    r = replay_doc(_b1({"target": 150}, start={"hand": 1, "totals": [38, 0, 0, 0]}))
    assert (r["totals"], r["finished"], r["winner"]) == ([100, 0, 0, 0], False, None)
    r = replay_doc(_b1({"target": 150}, start={"hand": 1, "totals": [88, 0, 0, 0]}))
    assert (r["totals"], r["finished"], r["winner"]) == ([150, 0, 0, 0], True, 0)


def test_s3_3_draw_target_100_reached_by_domino():
    d = doc(
        "draw",
        {"players": 2},
        [{"deal": [D1_S0, D1_S1], "boneyard": D1_BY, "moves": D1_MOVES}],
        start={"hand": 1, "totals": [0, 84]},
    )
    r = replay_doc(d)
    assert (r["totals"], r["finished"], r["winner"]) == ([0, 100], True, 1)
    d["start"]["totals"] = [99, 83]  # the other player's 99 does not count
    r = replay_doc(d)
    assert (r["totals"], r["finished"], r["winner"]) == ([99, 99], False, None)


def test_s3_3_hand_after_game_end_is_an_error():
    r = replay_doc(
        _b1(
            start={"hand": 1, "totals": [38, 0, 0, 0]},
            extra_hands=[{"deal": H2, "boneyard": [], "moves": []}],
        )
    )
    assert err_at(r) == (2, None)


# ----------------------------------------------------------------------------- draw: deal and first lead
@pytest.mark.parametrize("n,size,bone", [(2, 7, 14), (3, 5, 13), (4, 5, 8)])
def test_s3_3_draw_hand_sizes_and_boneyard(n, size, bone):
    for seed in range(4):
        g = Game.new("draw", {"players": n}, seed=seed)
        v = g.view(0)
        assert v.tile_counts == (size,) * n
        assert (v.boneyard_size, v.drawable) == (bone, bone)


def test_s3_3_draw_wrong_hand_size_in_record_is_an_error():
    deal = [ALL[0:7], ALL[7:14], ALL[14:21]]  # 3 players dealt 7 instead of 5
    r = replay_doc(doc("draw", {"players": 3}, [{"deal": deal, "boneyard": ALL[21:], "moves": []}]))
    assert err_at(r) == (1, None)


HD = [
    ["4-4", "6-5", "1-0", "2-0", "3-1"],  # a double, but not the highest dealt
    ["6-4", "5-3", "2-1", "3-0", "4-0"],  # no double
    ["5-5", "5-4", "6-3", "4-1", "5-0"],
]  # 5-5: highest dealt double (6-6 is in the boneyard)
HD_BY = rest(*HD)


def _game(variant, options, deal, boneyard, leader=None):
    g = Game(make_variant(variant, options), auto_deal=False)
    g.next_hand(
        deal=[[tile(t) for t in r] for r in deal], boneyard=[tile(t) for t in boneyard], leader=leader
    )
    return g


def test_s3_3_draw_first_hand_highest_double_holder_leads_that_double():
    g = _game("draw", {"players": 3}, HD, HD_BY)
    assert g.hand.leader == 2 and g.to_move == 2
    assert tiles_of(g.legal_moves()) == {tile("5-5")}
    with pytest.raises(ValueError):
        g.play("5-4")
    r = replay_doc(doc("draw", {"players": 3}, [{"deal": HD, "boneyard": HD_BY, "moves": ["5-5"]}]))
    assert hands_of(r)[0]["leader"] == 2
    r = replay_doc(doc("draw", {"players": 3}, [{"deal": HD, "boneyard": HD_BY, "moves": ["6-3"]}]))
    assert err_at(r) == (1, 1)
    r = replay_doc(doc("draw", {"players": 3}, [{"deal": HD, "boneyard": HD_BY, "leader": 0, "moves": []}]))
    assert err_at(r) == (1, None)


def test_s3_3_draw_lead_highest_double_false_holder_leads_any_tile():
    g = _game("draw", {"players": 3, "lead_highest_double": False}, HD, HD_BY)
    assert g.hand.leader == 2
    assert tiles_of(g.legal_moves()) == {tile(t) for t in HD[2]}
    r = replay_doc(
        doc(
            "draw",
            {"players": 3, "lead_highest_double": False},
            [{"deal": HD, "boneyard": HD_BY, "moves": ["3-6"]}],
        )
    )
    assert hands_of(r)[0]["leader"] == 2


# No double dealt (2p): the 7 doubles are all in the boneyard.  Heaviest tiles in hands:
# 5-4 (9, seat 0) and 6-3 (9, seat 1): equal totals, 6-3 has the higher end -> 6-3 is heaviest.
ND = [["5-4", "2-1", "3-1", "4-0", "1-0", "2-0", "3-0"], ["6-3", "6-2", "6-1", "6-0", "4-1", "4-2", "3-2"]]
ND_BY = rest(*ND)


def test_s3_3_draw_no_double_random_leader_required_and_leads_any_tile():
    r = replay_doc(doc("draw", {"players": 2}, [{"deal": ND, "boneyard": ND_BY, "moves": []}]))
    assert err_at(r) == (1, None)
    with pytest.raises(ValueError):
        _game("draw", {"players": 2}, ND, ND_BY)
    g = _game("draw", {"players": 2}, ND, ND_BY, leader=0)
    assert g.hand.leader == 0
    assert tiles_of(g.legal_moves()) == {tile(t) for t in ND[0]}
    r = replay_doc(
        doc("draw", {"players": 2}, [{"deal": ND, "boneyard": ND_BY, "leader": 0, "moves": ["2-1"]}])
    )
    assert hands_of(r)[0]["leader"] == 0


def test_s3_3_draw_no_double_heaviest_tile_holder_leads_it_tie_broken_by_higher_end():
    opts = {"players": 2, "no_double_lead": "heaviest_tile"}
    g = _game("draw", opts, ND, ND_BY)
    assert g.hand.leader == 1
    assert tiles_of(g.legal_moves()) == {tile("6-3")}
    r = replay_doc(doc("draw", opts, [{"deal": ND, "boneyard": ND_BY, "moves": ["3-6"]}]))
    assert hands_of(r)[0]["leader"] == 1
    assert err_at(replay_doc(doc("draw", opts, [{"deal": ND, "boneyard": ND_BY, "moves": ["6-2"]}]))) == (
        1,
        1,
    )
    assert err_at(
        replay_doc(doc("draw", opts, [{"deal": ND, "boneyard": ND_BY, "leader": 0, "moves": []}]))
    ) == (1, None)


def test_s3_3_draw_no_double_redeal_record_is_an_error():
    opts = {"players": 2, "no_double_lead": "redeal"}
    assert err_at(
        replay_doc(doc("draw", opts, [{"deal": ND, "boneyard": ND_BY, "leader": 0, "moves": []}]))
    ) == (1, None)
    with pytest.raises(ValueError):
        _game("draw", opts, ND, ND_BY)
    # a deal with a double is played normally under the same option
    assert _game("draw", {"players": 3, "no_double_lead": "redeal"}, HD, HD_BY).hand.leader == 2


# ----------------------------------------------------------------------------- draw: forced draws, pass
def test_s3_3_draw_forced_draws_one_at_a_time_then_drawn_tile_must_be_played():
    g = _game("draw", {"players": 2}, [D1_S0, D1_S1], D1_BY)
    g.play("6-6")
    assert g.to_move == 0 and g.legal_moves() == [DRAW]  # nothing fits [6|6]
    g.play("draw")  # 4-2: does not fit
    assert g.to_move == 0 and g.legal_moves() == [DRAW]
    g.play("draw")  # 6-0: fits -> must be played now
    assert g.to_move == 0
    assert tiles_of(g.legal_moves()) == {tile("6-0")} and DRAW not in g.legal_moves()
    assert PASS not in g.legal_moves()
    for bad in ("pass", "draw", "0-0"):
        with pytest.raises(ValueError):
            g.play(bad)
    g.play("6-0@R")
    assert g.hand.ends() == {"L": 6, "R": 0} and g.to_move == 1


# seat 1 also holds 6-1 and 6-0; the boneyard has no 6 at all: seat 0 draws all 14 and then passes.
E_S1 = ["6-6", "5-4", "6-3", "6-2", "6-1", "6-0", "1-0"]
E_BY = R_BY[:12] + ["0-0", "1-1"]


def test_s3_3_draw_empty_boneyard_then_pass_and_play_goes_on():
    moves = R_MOVES[:7] + ["draw"] * 14
    g = _game("draw", {"players": 2}, [R_S0, E_S1], E_BY)
    for m in moves:
        g.play(m)
    assert not g.hand.over and g.to_move == 0
    assert g.legal_moves() == [PASS]
    with pytest.raises(ValueError):
        g.play("draw")
    g.play("pass")
    assert g.to_move == 1
    g.play("6-1@L")
    assert g.hand.ends() == {"L": 1, "R": 6} and not g.hand.over
    r = replay_doc(
        doc("draw", {"players": 2}, [{"deal": [R_S0, E_S1], "boneyard": E_BY, "moves": moves + ["draw"]}])
    )
    assert err_at(r) == (1, 22)


def test_s3_3_draw_whole_boneyard_drawable_by_default():
    # d_04's deal without the reserve: after 12 draws the 13th tile (6-1) is drawn and played.
    r = replay_doc(
        doc(
            "draw",
            {"players": 2},
            [{"deal": [R_S0, R_S1], "boneyard": R_BY, "moves": R_MOVES + ["draw", "6-1@L"]}],
        )
    )
    h = hands_of(r)[0]
    assert (h["end"], h["winner"], h["points"]) == ("unfinished", None, [0, 0])


def test_s3_3_reserve2_blocked_hand_admits_no_further_token():
    opts = {"players": 2, "boneyard_reserve": 2}
    r = replay_doc(doc("draw", opts, [{"deal": [R_S0, R_S1], "boneyard": R_BY, "moves": R_MOVES + ["pass"]}]))
    assert err_at(r) == (1, 20)
    r = replay_doc(doc("draw", opts, [{"deal": [R_S0, R_S1], "boneyard": R_BY, "moves": R_MOVES[:-1]}]))
    assert hands_of(r)[0]["end"] == "unfinished"  # 3 left: one more draw possible


def test_s3_3_reserve2_pass_when_only_two_remain():
    s1 = ["6-6", "5-4", "6-3", "6-2", "6-0", "1-0", "1-1"]
    by = R_BY[:12] + ["6-1", "0-0"]
    g = _game("draw", {"players": 2, "boneyard_reserve": 2}, [R_S0, s1], by)
    for m in R_MOVES:
        g.play(m)
    assert not g.hand.over and g.to_move == 0
    assert g.view(0).drawable == 0 and g.view(0).boneyard_size == 2
    assert g.legal_moves() == [PASS]
    with pytest.raises(ValueError):
        g.play("draw")
    g.play("pass")
    g.play("6-0@L")  # seat 1 plays on
    assert g.hand.ends() == {"L": 0, "R": 6} and not g.hand.over
    assert PASS not in g.legal_moves()  # seat 0 holds 2-0, 3-0: must play


# ----------------------------------------------------------------------------- block specifics
def test_s3_3_block_4_players_7_each_no_boneyard():
    for seed in range(4):
        g = Game.new("block", {"players": 4}, seed=seed)
        v = g.view(0)
        assert v.tile_counts == (7, 7, 7, 7) and v.boneyard_size == 0
        six = next(s for s in range(4) if tile("6-6") in g.hand.held(s))
        assert g.hand.leader == six and tiles_of(g.legal_moves()) == {tile("6-6")}


def test_s3_3_block_2_players_7_each_and_14_stock():
    for seed in range(4):
        v = Game.new("block", {"players": 2}, seed=seed).view(0)
        assert v.tile_counts == (7, 7) and (v.boneyard_size, v.drawable) == (14, 14)


def test_s3_3_block_previous_winner_leads_any_tile():
    r = replay_doc(_b1(extra_hands=[{"deal": H2, "boneyard": [], "leader": 2, "moves": []}]))
    assert err_at(r) == (2, None)  # seat 0 won hand 1, not seat 2
    g = Game(make_variant("block", {"players": 4}), auto_deal=False)
    g.next_hand(deal=[[tile(t) for t in r] for r in B1], boneyard=[])
    for m in BLOCK_MOVES:
        g.play(m)
    assert g.hand.over and g.hand.result.winner == 0
    g.next_hand(deal=[[tile(t) for t in r] for r in H2], boneyard=[])
    assert g.hand.leader == 0 and tiles_of(g.legal_moves()) == {tile(t) for t in H2[0]}


def test_s3_3_block_after_tied_hand_6_6_holder_must_lead_6_6():
    b3 = json.loads(scenario_files("b_03")[0].read_text())
    for leader, moves, where in ((None, ["5-4"], (2, 1)), (0, [], (2, None))):
        d = json.loads(json.dumps(b3))
        d["hands"][1]["moves"] = moves
        if leader is not None:
            d["hands"][1]["leader"] = leader
        assert err_at(replay_doc(d)) == where


def test_s3_4_lead_rule_double_six_always_in_block():
    # After seat 0 wins hand 1, the 6-6 holder (seat 2) still leads hand 2.
    r = replay_doc(
        _b1({"lead_rule": "double_six_always"}, extra_hands=[{"deal": H2, "boneyard": [], "moves": ["6-6"]}])
    )
    assert [h["leader"] for h in hands_of(r)] == [0, 2]


def test_s3_4_lead_rule_winner_in_draw():
    # d_01: seat 1 (the leader) wins; with lead_rule "winner" seat 1 leads hand 2, with "rotate" seat 0.
    h2 = {"deal": [D1_S1, D1_S0], "boneyard": D1_BY, "moves": []}
    for rule, leader in (("winner", 1), ("rotate", 0)):
        d = doc(
            "draw",
            {"players": 2, "lead_rule": rule},
            [{"deal": [D1_S0, D1_S1], "boneyard": D1_BY, "moves": D1_MOVES}, h2],
        )
        assert hands_of(replay_doc(d))[1]["leader"] == leader, rule
        d["hands"][1]["leader"] = 1 - leader
        assert err_at(replay_doc(d)) == (2, None), rule


# ----------------------------------------------------------------------------- random play vs the rules
def _fits(h, seat):
    ends = h.ends()
    out = set()
    for t in h.held(seat):
        for arm, name in ((0, "L"), (1, "R")):
            if name in ends and ends[name] in (HI[t], LO[t]):
                out.add(move(t, arm))
    return out


def _drawable(h, reserve):
    drawn = sum(1 for _, m, _ in h.log if m == DRAW)
    return max(0, len(h.boneyard) - drawn - reserve)


def _pips(h, seat):
    return sum(HI[t] + LO[t] for t in h.held(seat))


def _expected_points(h, sides, teams, formula):
    n = len(sum(sides, ()))
    pips = [_pips(h, s) for s in range(n)]
    out = [0] * len(sides)
    if teams:
        out_seat = [s for s in range(n) if not h.held(s)]
        vals = [0 if any(s in side for s in out_seat) else sum(pips[s] for s in side) for side in sides]
        if vals[0] == vals[1]:
            return out, None
        w = 0 if vals[0] < vals[1] else 1
        out[w] = vals[1 - w] - vals[w]
        return out, w
    out_seat = [s for s in range(n) if not h.held(s)]
    if out_seat:  # domino: the player who went out wins (even if
        w = out_seat[0]  # another holds only 0-0: that is a Passing rule)
        low = 0
    else:
        low = min(pips)
        if pips.count(low) > 1:
            return out, None
        w = pips.index(low)
    others = [p for s, p in enumerate(pips) if s != w]
    out[w] = sum(p - low for p in others) if formula == "each" else sum(others) - low
    return out, w


CONFIGS = [
    ("draw", {"players": 2}),
    ("draw", {"players": 3}),
    ("draw", {"players": 4}),
    ("draw", {"players": 3, "boneyard_reserve": 2, "blocked_formula": "once"}),
    ("draw", {"players": 4, "teams": True}),
    ("draw", {"players": 2, "lead_rule": "winner"}),
    ("block", {"players": 4}),
    ("block", {"players": 4, "blocked_formula": "once"}),
    ("block", {"players": 4, "teams": True}),
    ("block", {"players": 2}),
    ("block", {"players": 4, "lead_rule": "double_six_always"}),
]


@pytest.mark.parametrize(
    "variant,opts",
    CONFIGS,
    ids=lambda x: x if isinstance(x, str) else "-".join(f"{k}={v}" for k, v in x.items()),
)
def test_s3_3_random_play_follows_the_rules(variant, opts):
    """Legal moves, leaders, hand ends and scores of random games, checked against §3.3."""
    n = opts["players"]
    teams = opts.get("teams", False)
    reserve = opts.get("boneyard_reserve", 0)
    formula = opts.get("blocked_formula", "each")
    has_stock = variant == "draw" or n == 2
    lead_rule = opts.get("lead_rule", "rotate" if variant == "draw" else "winner")
    for seed in range(8):
        g = Game.new(variant, opts, seed=seed)
        rng = random.Random(seed)
        while not g.over and len(g.hands) <= 4:
            h = g.hand
            seat = h.to_move
            if not h.log:  # start of a hand: the leader
                k = len(g.hands) - 1
                held = {s: set(h.held(s)) for s in range(n)}
                lead = tiles_of(g.legal_moves())
                doubles = [tile(f"{d}-{d}") for d in range(6, -1, -1)]
                dealt = [d for d in doubles if any(d in held[s] for s in range(n))]
                prev = g.hands[k - 1] if k else None
                if (
                    k == 0
                    or lead_rule == "double_six_always"
                    or (lead_rule == "winner" and prev.result.winner is None and variant == "block")
                ):
                    if lead_rule == "double_six_always" and k:
                        assert tile("6-6") in held[h.leader], "double_six_always: 6-6 holder leads"
                    elif dealt and (k == 0 or variant == "block"):
                        top = dealt[0]
                        assert top in held[h.leader], f"hand {k + 1}: holder of {NAME[top]} leads"
                        assert lead == {top}, f"hand {k + 1}: the leader must lead {NAME[top]}"
                elif lead_rule == "rotate":
                    assert h.leader == (prev.leader + 1) % n, "lead rotates to the next player"
                    assert lead == held[h.leader]
                elif lead_rule == "winner" and prev.result.winner is not None and not teams:
                    assert h.leader == prev.result.winner, "previous winner leads"
                    assert lead == held[h.leader]
            else:
                fits = _fits(h, seat)
                drawable = _drawable(h, reserve) if has_stock else 0
                expected = fits or ({DRAW} if drawable else {PASS})
                assert set(g.legal_moves()) == expected, (
                    f"seat {seat} holds {names(h.held(seat))}, ends {h.ends()}, drawable {drawable}"
                )
                assert any(_fits(h, s) for s in range(n)) or drawable, "hand should have ended blocked"
            m = rng.choice(g.legal_moves())
            g.apply(m)
            if m == DRAW and not h.over:
                assert h.to_move == seat, "a forced draw does not end the turn"
            if h.over:
                if h.end == "blocked":
                    assert not any(_fits(h, s) for s in range(n))
                    assert not has_stock or _drawable(h, reserve) == 0
                else:
                    assert h.end == "domino" and not h.held(h.log[-1][0])
                points, winner = _expected_points(h, g.sides, teams, formula)
                assert (list(h.result.points), h.result.winner) == (points, winner), (
                    f"{h.end}: pips {[_pips(h, s) for s in range(n)]}"
                )
