"""Bad input gets a clear error at the position RECORD.md fixes (hand / move / token).

The error scenarios are ``tests/scenarios/e_*.record.json`` with ``{"error": {...}}`` in the
matching ``.expected.json`` (hand, move and token exactly; the message is checked here for the
words that make it clear).  Most of them are mutations of one hand-checked Block game
(4 players, P0 holds 6-6 and leads; P3 goes out on move 28 and scores 2 + 9 = 11):

    P0: 6-6 6-5 5-5 4-3 2-1 1-0 0-0      P2: 6-3 5-3 4-4 4-1 2-2 6-0 3-0
    P1: 6-4 5-4 3-3 2-0 1-1 5-0 3-1      P3: 6-2 5-2 4-2 6-1 5-1 4-0 3-2
    moves: 6-6 6-4@R 4-4 6-2 4-3 3-3 5-3 5-1 1-0 5-0 2-2 4-2 5-5 5-4@L pass 5-2@R 6-5 2-0 3-0
           3-2 2-1 3-1 6-0 4-0 pass pass 4-1 6-1
"""

from __future__ import annotations

import copy
import json

import pytest

from bonepile import (
    AmbiguousMoveError,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    OptionError,
    RecordError,
    load_record,
    make_variant,
    replay,
)
from bonepile.engine import record as rec
from bonepile.engine.tiles import move
from support import SCENARIOS, check_scenario, replay_doc, scenario_files, tile

# ------------------------------------------------------------------------------ the base game

DEAL = [
    ["6-6", "6-5", "5-5", "4-3", "2-1", "1-0", "0-0"],
    ["6-4", "5-4", "3-3", "2-0", "1-1", "5-0", "3-1"],
    ["6-3", "5-3", "4-4", "4-1", "2-2", "6-0", "3-0"],
    ["6-2", "5-2", "4-2", "6-1", "5-1", "4-0", "3-2"],
]
MOVES = [
    "6-6",
    "6-4@R",
    "4-4",
    "6-2",
    "4-3",
    "3-3",
    "5-3",
    "5-1",
    "1-0",
    "5-0",
    "2-2",
    "4-2",
    "5-5",
    "5-4@L",
    "pass",
    "5-2@R",
    "6-5",
    "2-0",
    "3-0",
    "3-2",
    "2-1",
    "3-1",
    "6-0",
    "4-0",
    "pass",
    "pass",
    "4-1",
    "6-1",
]


def block_doc(moves=MOVES, **options) -> dict:
    return {
        "format": "bonepile-record/1",
        "variant": "block",
        "options": {"players": 4, **options},
        "hands": [{"deal": copy.deepcopy(DEAL), "boneyard": [], "moves": list(moves)}],
    }


def block_game(**options) -> Game:
    g = Game(make_variant("block", {"players": 4, **options}), auto_deal=False)
    g.next_hand(deal=[[tile(t) for t in row] for row in DEAL], boneyard=[])
    return g


def test_base_game_is_valid_and_scores_as_computed_by_hand():
    out = replay_doc(block_doc())
    h = out["hands"][0]
    assert {k: h[k] for k in ("leader", "end", "winner", "points", "totals")} == {
        "leader": 0,
        "end": "domino",
        "winner": 3,
        "points": [0, 0, 0, 11],
        "totals": [0, 0, 0, 11],
    }
    assert out["finished"] is False and out["winner"] is None


# ------------------------------------------------------------------------------ scenario files

#: words each scenario's message must contain (what makes the error clear)
MESSAGES = {
    "doc_not_an_object": ["object"],
    "doc_missing_format": ["format"],
    "doc_wrong_format": ["format", "bonepile-record/1"],
    "doc_missing_variant": ["variant"],
    "doc_unknown_variant": ["variant", "dominos"],
    "doc_unknown_option": ["option", "spinner"],
    "doc_bad_option_target_string": ["target"],
    "doc_bad_option_teams_string": ["teams"],
    "doc_players_out_of_range": ["players", "5"],
    "doc_teams_with_3_players": ["teams"],
    "doc_missing_hands": ["hands"],
    "hand_missing_deal": ["deal"],
    "hand_missing_moves": ["moves"],
    "hand2_missing_moves": ["moves"],
    "tile_twice_in_deal": ["6-6"],
    "tile_twice_in_one_seat": ["6-6"],
    "tile_twice_deal_and_boneyard": ["5-1", "boneyard"],
    "tile_missing": ["missing", "3-2"],
    "tile_malformed": ["5-7"],
    "wrong_hand_sizes": ["seat 0", "8", "7"],
    "deal_wrong_number_of_seats": ["3", "4"],
    "leader_wrong": ["leader"],
    "leader_missing_required": ["leader", "required"],
    "start_later_hand_leader_required": ["leader", "required"],
    "move_does_not_fit": ["5-3", "fit"],
    "move_tile_not_held": ["4-2", "hold"],
    "move_pass_while_able_to_play": ["pass"],
    "move_pass_while_able_to_draw": ["pass", "draw"],
    "move_draw_in_block_game": ["draw"],
    "move_draw_while_able_to_play": ["draw"],
    "move_first_tile_not_double_six": ["6-6"],
    "token_malformed_6_7": ["token"],
    "token_malformed_66": ["token"],
    "token_malformed_arm_x": ["token"],
    "token_malformed_Pass": ["token"],
    "token_malformed_space": ["token"],
    "token_malformed_empty": ["token"],
    "token_not_a_string": ["string"],
    "token_ambiguous": ["ambiguous"],
    "token_arm_on_first_tile": ["first"],
    "token_arm_u_in_line_game": ["arm U does not exist yet"],
    "token_arm_u_before_spinner_sides_played": ["arm U does not exist yet"],
    "hand2_arm_u_in_line_game": ["arm U does not exist yet"],
    "token_after_hand_ended": ["over"],
    "hand_after_game_ended": ["over"],
    "hand_after_unfinished_hand": ["unfinished"],
    "blind_token_not_the_turned_up_tile": ["6-6"],
    "blind_pass_when_turned_up_tile_fits": ["6-4"],
}

E_FILES = scenario_files("e_")


def _name(path) -> str:
    return path.name[len("e_") : -len(".record.json")]


def test_every_error_scenario_has_message_words():
    names = {_name(p) for p in E_FILES}
    assert names, f"no e_* scenarios in {SCENARIOS}"
    assert names == set(MESSAGES), (
        f"scenarios without message words: {names - set(MESSAGES)}; "
        f"words without scenario: {set(MESSAGES) - names}"
    )


@pytest.mark.parametrize("path", E_FILES, ids=[_name(p) for p in E_FILES])
def test_record_error_scenario(path):
    check_scenario(path)  # hand, move and token exactly as in .expected.json
    out = replay_doc(json.loads(path.read_text()))
    msg = out["error"]["message"]
    assert isinstance(msg, str) and msg.strip() and "\n" not in msg, f"unclear message {msg!r}"
    for word in MESSAGES.get(_name(path), []):
        assert word.lower() in msg.lower(), f"{path.name}: message {msg!r} lacks {word!r}"
    assert set(out["error"]) >= {"hand", "move", "token", "message"}


# ------------------------------------------------------------------------------ RecordError (Python)


def test_record_error_is_a_value_error_naming_hand_move_token_and_message():
    doc = block_doc(MOVES)
    doc["hands"].append({"deal": copy.deepcopy(DEAL), "boneyard": [], "moves": ["6-2", "6-4@U"]})
    with pytest.raises(RecordError) as info:
        replay(doc)
    e = info.value
    assert isinstance(e, ValueError)
    assert (e.hand, e.move, e.token) == (2, 2, "6-4@U")
    assert "arm U does not exist yet" in e.message
    assert str(e).startswith('hand 2, move 2 ("6-4@U"): arm U does not exist yet')
    assert e.as_json() == {"hand": 2, "move": 2, "token": "6-4@U", "message": e.message}


def test_record_error_document_level_has_null_hand_and_move():
    doc = block_doc()
    doc["variant"] = "dominos"
    with pytest.raises(RecordError) as info:
        replay(doc)
    e = info.value
    assert (e.hand, e.move, e.token) == (None, None, None)
    assert "dominos" in e.message
    assert e.as_json() == {"hand": None, "move": None, "token": None, "message": e.message}


@pytest.mark.parametrize(
    "text", ["", "{not json", '{"format": "bonepile-record/1",}', "nan nan", b"\xff\xfe{}"]
)
def test_record_text_that_is_not_json_is_a_document_error(text):
    with pytest.raises(RecordError) as info:
        load_record(text)
    e = info.value
    assert (e.hand, e.move, e.token) == (None, None, None)
    assert "json" in e.message.lower()


@pytest.mark.parametrize("text", ["[1, 2]", '"bonepile"', "42", "null"])
def test_record_text_that_is_not_an_object_is_a_document_error(text):
    with pytest.raises(RecordError) as info:
        load_record(text)
    assert (info.value.hand, info.value.move) == (None, None)
    assert "object" in info.value.message


def test_hand_missing_moves_names_the_hand_with_move_null():
    doc = block_doc()
    del doc["hands"][0]["moves"]
    with pytest.raises(RecordError) as info:
        replay(doc)
    assert (info.value.hand, info.value.move, info.value.token) == (1, None, None)


def test_error_positions_count_record_hands_not_rule_hand_numbers_with_start():
    """RECORD.md: `hand` is the index in the record's `hands` list, even when `start` says the
    record begins with the rules' hand 3."""
    doc = block_doc(["6-6", "pass"])
    doc["variant"] = "quinientos"
    del doc["options"]
    doc["start"] = {"hand": 3, "totals": [120, 45]}
    doc["hands"][0]["leader"] = 0
    assert replay_doc(doc)["error"] == {
        "hand": 1,
        "move": 2,
        "token": "pass",
        "message": replay_doc(doc)["error"]["message"],
    }


def test_first_error_wins_and_later_problems_are_not_reported():
    doc = block_doc(["6-6", "6-4", "5-3", "66"])
    err = replay_doc(doc)["error"]
    assert (err["hand"], err["move"], err["token"]) == (1, 2, "6-4")


# ------------------------------------------------------------------------------ Game.play


def state(g: Game) -> tuple:
    h = g.hand
    return (
        tuple(h.log),
        tuple(h.masks),
        h.to_move,
        h.ends(),
        tuple(g.legal_moves()),
        repr(g.result()),
        h.over,
        tuple(g.totals),
    )


@pytest.mark.parametrize(
    "before,token,error,words",
    [
        ([], "6-5", IllegalMoveError, ["6-6"]),  # must lead 6-6
        ([], "6-6@L", InvalidMoveError, ["first"]),  # @E on the first tile
        ([], "pass", IllegalMoveError, ["pass"]),  # the leader must lay a tile
        (["6-6"], "6-4", AmbiguousMoveError, ["ambiguous"]),  # fits L and R of [6|6]
        (["6-6"], "6-4@U", IllegalMoveError, ["arm U does not exist yet"]),
        (["6-6"], "6-4@D", IllegalMoveError, ["arm D does not exist yet"]),
        (["6-6"], "6-5@L", IllegalMoveError, ["6-5", "hold"]),  # P1 does not hold 6-5
        (["6-6"], "pass", IllegalMoveError, ["pass"]),  # P1 holds 6-4
        (["6-6"], "draw", IllegalMoveError, ["draw"]),  # no boneyard in 4-player block
        (["6-6"], "6-7", InvalidMoveError, []),
        (["6-6"], "66", InvalidMoveError, []),
        (["6-6"], "6-6@X", InvalidMoveError, []),
        (["6-6"], "Pass", InvalidMoveError, []),
        (["6-6"], "DRAW", InvalidMoveError, []),
        (["6-6"], " 6-4@R", InvalidMoveError, []),
        (["6-6", "6-4@R"], "5-3", IllegalMoveError, ["5-3"]),  # fits neither 6 nor 4
        (["6-6", "6-4@R"], "4-4@L", IllegalMoveError, ["4-4"]),  # 4-4 does not fit L (6)
    ],
)
def test_game_play_rejects_bad_moves_and_leaves_the_state_unchanged(before, token, error, words):
    g = block_game()
    for t in before:
        g.play(t)
    s = state(g)
    with pytest.raises(error) as info:
        g.play(token)
    assert isinstance(info.value, ValueError)
    for w in words:
        assert w.lower() in str(info.value).lower(), f"{str(info.value)!r} lacks {w!r}"
    assert state(g) == s, f"rejected {token!r} changed the game state"
    # and the game goes on normally
    nxt = MOVES[len(before)]
    g.play(nxt)
    assert g.hand.log[-1][0] == len(before) % 4


def test_game_play_ambiguous_error_is_an_illegal_move_error_and_a_value_error():
    assert issubclass(AmbiguousMoveError, ValueError)
    assert issubclass(IllegalMoveError, ValueError)
    assert issubclass(InvalidMoveError, ValueError)
    assert issubclass(RecordError, ValueError)
    assert issubclass(OptionError, ValueError)


def test_game_play_after_the_hand_and_game_ended():
    g = block_game(target=1)
    for t in MOVES:
        g.play(t)
    assert g.over and g.winner == 3 and g.totals == [0, 0, 0, 11]
    s = state(g)
    for token in ("pass", "6-6", "draw"):
        with pytest.raises(IllegalMoveError):
            g.play(token)
    with pytest.raises(ValueError):
        g.next_hand(deal=[[tile(t) for t in row] for row in DEAL], boneyard=[])
    assert state(g) == s and len(g.hands) == 1


def test_game_play_accepts_the_valid_moves_after_rejections():
    g = block_game()
    for t in MOVES:
        for bad in ("Pass", "6-7"):
            with pytest.raises(InvalidMoveError):
                g.play(bad)
        g.play(t)
    assert g.hand.over and g.hand.end == "domino" and g.hand.result.points == (0, 0, 0, 11)


def test_game_apply_rejects_an_illegal_move_int_and_leaves_the_state_unchanged():
    g = block_game()
    s = state(g)
    with pytest.raises(IllegalMoveError):
        g.apply(move(tile("6-5"), 0))
    assert state(g) == s


# ------------------------------------------------------------------------------ make_variant


@pytest.mark.parametrize(
    "variant,options,words",
    [
        ("dominos", {}, ["dominos"]),
        ("Block", {}, ["Block"]),
        ("block", {"spinner": True}, ["spinner"]),
        ("block", {"target": "x"}, ["target"]),
        ("block", {"target": 0}, ["target"]),
        ("block", {"target": True}, ["target"]),
        ("block", {"teams": "yes"}, ["teams"]),
        ("block", {"teams": 1}, ["teams"]),
        ("block", {"players": 5}, ["players"]),
        ("block", {"players": 1}, ["players"]),
        ("block", {"players": "4"}, ["players"]),
        ("draw", {"players": 3, "teams": True}, ["teams"]),
        ("draw", {"lead_rule": "random"}, ["lead_rule"]),
        ("draw", {"boneyard_reserve": -1}, ["boneyard_reserve"]),
        ("quinientos", {"players": 2}, ["players"]),
        ("quinientos", {"first_lead": "double-six"}, ["first_lead"]),
        ("quinientos", {"teams": True}, ["teams"]),  # not a Quinientos option (always partnerships)
        ("cinque", {"hand_end_bonus": "allfive"}, ["hand_end_bonus"]),
        ("cinque", {"target_rule": "seed"}, ["target_rule"]),
        ("passing", {"players": 5}, ["players"]),
        ("passing", {"team_scoring": "sides"}, ["team_scoring"]),
        ("blind-hugie", {"players": 3, "teams": True}, ["teams"]),
        ("blind-hugie", {"deal": "half"}, ["deal"]),
        ("billitonnen", {"players": 2}, ["players"]),
        ("billitonnen", {"blocked_winner": "highest"}, ["blocked_winner"]),
        ("billitonnen", {"target": 100}, ["target"]),
    ],
)
def test_make_variant_raises_option_error(variant, options, words):
    with pytest.raises(OptionError) as info:
        make_variant(variant, options)
    for w in words:
        assert w in str(info.value), f"{str(info.value)!r} lacks {w!r}"
    with pytest.raises(OptionError):
        Game.new(variant, options, seed=1)


def test_record_with_bad_option_is_a_document_error_naming_the_option():
    doc = block_doc(target=-5)
    err = replay_doc(doc)["error"]
    assert (err["hand"], err["move"]) == (None, None) and "target" in err["message"]


def test_unknown_keys_elsewhere_in_the_document_are_ignored():
    """RECORD.md: unknown keys outside `options` are ignored."""
    doc = block_doc()
    doc["comment"] = "hello"
    doc["hands"][0]["note"] = "fine"
    out = replay_doc(doc)
    assert "error" not in out and out["totals"] == [0, 0, 0, 11]


def test_dumps_of_an_error_record_round_trip_keeps_the_same_error():
    doc = block_doc(["6-6", "6-4@U"])
    text = json.dumps(doc)
    with pytest.raises(RecordError) as info:
        rec.replay(rec.loads(text))
    assert (info.value.hand, info.value.move, info.value.token) == (1, 2, "6-4@U")
