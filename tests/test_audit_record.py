"""Adversarial audit of RECORD.md: the record format and the `bonepile replay` contract.

Each test quotes the RECORD.md sentence it checks.  Tests named ``test_contract_*`` whose
failure message starts with "CONTRACT BUG" document a place where the implementation departs
from the letter of RECORD.md; the others pin down contract points not covered by
tests/test_errors.py and tests/test_cli.py (so that they stay fixed).
"""

from __future__ import annotations

import copy
import json
import re

import pytest

from bonepile.engine import record as rec
from bonepile.engine.errors import RecordError
from bonepile.engine.tiles import parse_tile
from support import EXAMPLES, SCENARIOS, cli, replay_doc
from test_errors import MOVES, block_doc

ALL = [f"{a}-{b}" for a in range(7) for b in range(a + 1)]


def norm(name: str) -> str:
    a, b = map(int, name.split("-"))
    return f"{max(a, b)}-{min(a, b)}"


def fill(rows, sizes, bone_first=()):
    """Complete each seat's row to its size with unused tiles; the rest is the boneyard
    (``bone_first`` at its front)."""
    used = {norm(t) for r in rows for t in r} | {norm(t) for t in bone_first}
    rest = [t for t in ALL if t not in used]
    out = []
    for r, n in zip(rows, sizes):
        r = list(r)
        while len(r) < n:
            r.append(rest.pop(0))
        out.append(r)
    return out, list(bone_first) + rest


def doc(variant, options, hands, **extra) -> dict:
    d = {"format": "bonepile-record/1", "variant": variant, "options": options, "hands": hands}
    d.update(extra)
    return d


def error_of(d) -> dict:
    out = replay_doc(d)
    assert "error" in out, f"expected a record error, got a valid replay: {out}"
    return out["error"]


def valid(d) -> dict:
    out = replay_doc(d)
    assert "error" not in out, f"unexpected record error: {out.get('error')}"
    return out


def run_text(text: str, *args):
    return cli("replay", "-", *args, input=text)


def assert_one_clean_line(r) -> str:
    """RECORD.md: exit status 2, nothing on standard output, one line on standard error."""
    crashed = r.returncode not in (0, 2) or "Traceback" in r.stderr or "\u256d" in r.stderr
    assert not crashed, (
        f"CONTRACT BUG: crashed instead of a record error (exit {r.returncode}): {r.stderr[-400:]!r}"
    )
    assert r.returncode == 2, (
        f"CONTRACT BUG: exit status {r.returncode}, RECORD.md says 2 ({r.stderr[-300:]!r})"
    )
    assert r.stdout == "", f"CONTRACT BUG: stdout must be empty on error, got {r.stdout!r}"
    lines = r.stderr.splitlines()
    assert len(lines) == 1, (
        "CONTRACT BUG: RECORD.md says the error is ONE line on standard error, "
        f"got {len(lines)} lines: {r.stderr!r}"
    )
    assert lines[0].startswith("record error: "), lines[0]
    return lines[0]


def json_error(r) -> dict:
    assert "Traceback" not in r.stderr, (
        f"CONTRACT BUG: --json crashed instead of printing the error object: {r.stderr[-400:]!r}"
    )
    assert r.returncode == 2, f"CONTRACT BUG: exit status {r.returncode}, RECORD.md says 2"
    out = json.loads(r.stdout)
    assert set(out) == {"error"}, out
    return out["error"]


# ============================================================================ CONTRACT BUGS
# "on standard error one line of the form record error: hand 2, move 14 ("5-3@U"): ..."


def test_contract_stderr_is_one_line_even_when_the_token_holds_a_newline(tmp_path):
    """RECORD.md (Replaying): on error, 'exit status 2, nothing on standard output, and on
    standard error one line'.  A token with a line break is malformed (hand 1, move 2), but the
    engine echoes it raw inside ("...") and the error spreads over two lines."""
    d = block_doc(["6-6", "6-4\n"])
    e = error_of(d)
    assert (e["hand"], e["move"], e["token"]) == (1, 2, "6-4\n")
    assert_one_clean_line(run_text(json.dumps(d)))


def test_contract_stderr_is_one_line_even_when_a_move_after_the_end_holds_a_newline():
    """Same sentence; a token after the hand ended is also echoed raw."""
    d = block_doc(MOVES + ["pass\nagain"])
    e = error_of(d)
    assert (e["hand"], e["move"]) == (1, 29)
    assert_one_clean_line(run_text(json.dumps(d)))


def test_contract_stderr_is_one_line_even_when_an_option_value_holds_a_newline():
    """RECORD.md: a bad option value is a document-level error printed as ONE stderr line.
    The engine quotes string option values raw ('not "a<newline>b"'): two lines."""
    d = block_doc(teams="a\nb")
    e = error_of(d)
    assert (e["hand"], e["move"], e["token"]) == (None, None, None)
    assert_one_clean_line(run_text(json.dumps(d)))


# "A record that is not JSON, lacks a required key, or holds a tile twice gets the same kind of
#  error with hand/move set to null where they don't apply."  Exit status 2, never a crash.


def test_contract_deeply_nested_json_is_a_record_error_not_a_crash():
    """Valid JSON nested 100 000 deep (not a record object): the engine's JSON reader raises
    RecursionError, which escapes as a traceback with exit status 1."""
    text = "[" * 100_000 + "]" * 100_000
    try:
        rec.loads(text)
    except RecordError as e:
        assert (e.hand, e.move) == (None, None)
    except RecursionError:
        pytest.fail("CONTRACT BUG: rec.loads raised RecursionError instead of RecordError")
    else:
        pytest.fail("a nested array is not a record object")
    assert_one_clean_line(run_text(text))
    err = json_error(run_text(text, "--json"))
    assert (err["hand"], err["move"], err["token"]) == (None, None, None)


def test_contract_huge_integer_is_a_record_error_not_a_crash():
    """A 5000-digit number as `format`: a document-level error ('wrong format').  Python refuses
    to convert it (int max str digits) and the ValueError escapes: traceback, exit status 1."""
    text = '{"format": ' + "1" * 5000 + ', "variant": "block", "hands": []}'
    assert_one_clean_line(run_text(text))
    err = json_error(run_text(text, "--json"))
    assert (err["hand"], err["move"]) == (None, None)


def test_contract_huge_integer_leader_is_a_hand_error_not_a_crash():
    """A wrong `leader` 'has that hand and move: null' (Edge cases, Error positions); a
    5000-digit leader crashes the reader instead."""
    d = block_doc()
    d["hands"][0]["leader"] = "@@LEADER@@"
    text = json.dumps(d).replace('"@@LEADER@@"', "9" * 5000)
    line = assert_one_clean_line(run_text(text))
    assert line.startswith("record error: hand 1: "), line
    err = json_error(run_text(text, "--json"))
    assert (err["hand"], err["move"], err["token"]) == (1, None, None)


def test_contract_nan_and_infinity_are_not_json():
    """NaN / Infinity are not JSON (RFC 8259); 'A record that is not JSON ... gets the same kind
    of error' with hand/move null.  The engine (Python's json module) accepts them, so a record
    that other tools cannot even parse replays as valid (here in an unknown key)."""
    text = json.dumps(block_doc())[:-1] + ', "comment": NaN, "other": Infinity}'
    r = run_text(text, "--json")
    assert r.returncode == 2, (
        "CONTRACT BUG: a document containing NaN/Infinity is not JSON but "
        f"replays with exit status {r.returncode}: {r.stdout[:120]!r}"
    )
    err = json_error(r)
    assert (err["hand"], err["move"]) == (None, None)


# ------------------------------------------------------------------------------ round trip


def test_roundtrip_record_keeps_start_bonus_rounds():
    """ROUND-TRIP BUG (engine extension, not in RECORD.md): `start.bonus_rounds` is read by
    replay but Game.record() drops it, so the written record scores differently.
    Quinientos, bonus_by_round_index false, record starting at hand 3 with no bonus paid yet:
    P3 goes out (team 1), base = team 0's pips 0+9 = 9, bonus 100 -> 109.  Written back
    without bonus_rounds the engine assumes two bonuses were paid (bonus 50 -> 59)."""
    d = block_doc()
    d["variant"] = "quinientos"
    d["options"] = {"bonus_by_round_index": False}
    d["start"] = {"hand": 3, "totals": [0, 0], "bonus_rounds": 0}
    d["hands"][0]["leader"] = 0
    first = valid(d)
    assert first["hands"][0]["points"] == [0, 109]
    again = replay_doc(rec.loads(rec.dumps(rec.replay(d).record())))
    assert again["hands"][0]["points"] == [0, 109], (
        f"ROUND-TRIP BUG: the written record scores {again['hands'][0]['points']} (start.bonus_rounds lost)"
    )


def _valid_records():
    out = []
    for p in sorted(list(SCENARIOS.glob("*.record.json")) + list(EXAMPLES.glob("*.record.json"))):
        d = json.loads(p.read_text())
        if "error" not in replay_doc(d):
            out.append(p)
    return out


VALID = _valid_records()


@pytest.mark.parametrize("path", VALID, ids=[p.name.split(".")[0] for p in VALID])
def test_roundtrip_every_valid_scenario_and_example(path):
    """Game.record() of a replayed record is a record that replays to the same result, and
    writing it again gives the same bytes."""
    g = rec.replay(json.loads(path.read_text()))
    text = rec.dumps(g.record())
    g2 = rec.replay(rec.loads(text))
    assert g2.result() == g.result()
    assert rec.dumps(g2.record()) == text
    assert all("leader" in h for h in rec.loads(text)["hands"])


# ============================================================================ output shape


def test_json_output_of_an_unfinished_record_exit_0_and_types(tmp_path):
    """'Exit status: 0 when the record is valid (finished or not)'; an unfinished hand has
    end "unfinished" and winner null; game winner null, finished false.  Types as in the
    example: ints, lists of ints, bool."""
    d = block_doc(MOVES[:5])
    for args in ((), ("--json",)):
        r = run_text(json.dumps(d), *args)
        assert r.returncode == 0 and r.stderr == "", r.stderr
    out = json.loads(run_text(json.dumps(d), "--json").stdout)
    assert {"variant", "sides", "hands", "totals", "winner", "finished"} <= set(out)
    h = out["hands"][0]
    assert (h["leader"], h["end"], h["winner"], h["points"], h["totals"]) == (
        0,
        "unfinished",
        None,
        [0, 0, 0, 0],
        [0, 0, 0, 0],
    )
    assert out["winner"] is None and out["finished"] is False
    assert type(h["leader"]) is int and all(type(x) is int for x in h["points"] + out["totals"])


def test_json_output_totals_start_from_start_totals_and_target_counts_them():
    """`start.totals` is 'each side's total before it'; hand totals are running totals.
    Block, target 100, P3 scores 11: start [1, 2, 3, 90] -> [1, 2, 3, 101], P3 wins."""
    d = block_doc()
    d["start"] = {"hand": 1, "totals": [1, 2, 3, 90]}
    out = valid(d)
    assert out["hands"][0]["points"] == [0, 0, 0, 11]
    assert out["hands"][0]["totals"] == [1, 2, 3, 101]
    assert out["totals"] == [1, 2, 3, 101]
    assert out["winner"] == 3 and out["finished"] is True


def test_empty_hands_list_replays_to_an_empty_unfinished_game():
    """RECORD.md is silent on `hands: []`; the engine accepts it (documented here)."""
    d = block_doc()
    d["hands"] = []
    d["start"] = {"hand": 4, "totals": [5, 6, 7, 8]}
    out = valid(d)
    assert (out["hands"], out["totals"], out["winner"], out["finished"]) == ([], [5, 6, 7, 8], None, False)


# ============================================================================ error output


def test_stderr_line_for_a_non_string_token_names_hand_move_and_token():
    """'naming the hand (1-based), the move (1-based) and the token where there is one'.  A
    non-string token (here 5) is shown as its JSON text; the JSON error's token is that text."""
    d = block_doc(["6-6", 5])
    line = assert_one_clean_line(run_text(json.dumps(d)))
    assert line == 'record error: hand 1, move 2 ("5"): a move token must be a string'
    err = json_error(run_text(json.dumps(d), "--json"))
    assert (err["hand"], err["move"], err["token"]) == (1, 2, "5")


def test_hand_level_error_from_a_missing_boneyard_has_move_null():
    """`boneyard` is optional (default empty); leaving it out of a hand that has one means the
    tiles are missing: a hand-level error (hand 1, move null)."""
    deal, bone = fill([["6-6"], []], [7, 7])
    h = {"deal": deal, "moves": ["6-6"]}
    e = error_of(doc("draw", {"players": 2}, [h]))
    assert (e["hand"], e["move"], e["token"]) == (1, None, None)
    assert "missing" in e["message"]
    h["boneyard"] = bone
    valid(doc("draw", {"players": 2}, [h]))


def test_error_positions_with_start_count_record_hands_for_hand_level_errors():
    """`hand` is the index in the record's `hands` list even with `start`: a tile twice in the
    second hand of a record starting at rule hand 5 is hand 2, move null."""
    d = block_doc()
    d["start"] = {"hand": 5, "totals": [0, 0, 0, 0]}
    d["hands"][0]["leader"] = 0
    bad = copy.deepcopy(d["hands"][0])
    bad["deal"][1][0] = "6-6"
    bad.pop("leader")
    d["hands"].append(bad)
    assert error_of(d) == {**error_of(d), "hand": 2, "move": None, "token": None}


# ============================================================================ leader


def test_leader_required_when_no_double_dealt_and_the_rules_draw_by_lot():
    """'Where the rules leave it to chance ... it is required' (Draw, 2 players, no double dealt,
    no_double_lead random); with heaviest_tile the rules decide (6-5 holder) and a wrong one is a
    hand error."""
    nod = [t for t in ALL if t[0] != t[2] and t != "6-5"]  # non-doubles but 6-5
    deal = [nod[:7], ["6-5"] + nod[7:13]]  # P1 holds the heaviest tile, 6-5
    bone = [t for t in ALL if t not in deal[0] + deal[1]]
    h = {"deal": deal, "boneyard": bone, "moves": []}
    e = error_of(doc("draw", {"players": 2}, [h]))
    assert (e["hand"], e["move"]) == (1, None) and "leader" in e["message"]
    assert valid(doc("draw", {"players": 2}, [{**h, "leader": 0}]))["hands"][0]["leader"] == 0
    heavy = {"players": 2, "no_double_lead": "heaviest_tile"}
    assert valid(doc("draw", heavy, [h]))["hands"][0]["leader"] == 1
    e = error_of(doc("draw", heavy, [{**h, "leader": 0}]))
    assert (e["hand"], e["move"]) == (1, None) and "leader" in e["message"]


def _passing_blocked_hand(leader):
    """P0 leads 3-5, P1 and P0 pass: a full cycle of passes, the hand is blocked (§4.3 c)."""
    deal, bone = fill([["3-5"], []], [7, 7])
    return {"deal": deal, "boneyard": bone, "leader": leader, "moves": ["3-5", "pass", "pass"]}


def test_leader_passing_rotate_may_be_omitted_later_and_must_agree():
    """Passing, lead_rule rotate: hand 1 by lot (required), hand 2 the next seat (rules decide:
    may be omitted, must agree).  With lead_rule random hand 2's leader is required."""
    h1 = _passing_blocked_hand(0)
    deal2, bone2 = fill([[], ["2-4"]], [7, 7])
    h2 = {"deal": deal2, "boneyard": bone2, "moves": ["2-4"]}
    out = valid(doc("passing", {"players": 2, "lead_rule": "rotate"}, [h1, h2]))
    assert out["hands"][0]["end"] == "blocked" and out["hands"][1]["leader"] == 1
    e = error_of(doc("passing", {"players": 2, "lead_rule": "rotate"}, [h1, {**h2, "leader": 0}]))
    assert (e["hand"], e["move"]) == (2, None) and "leader" in e["message"]
    e = error_of(doc("passing", {"players": 2}, [h1, h2]))
    assert (e["hand"], e["move"]) == (2, None) and "leader" in e["message"]
    h1_missing = {k: v for k, v in h1.items() if k != "leader"}
    e = error_of(doc("passing", {"players": 2, "lead_rule": "rotate"}, [h1_missing]))
    assert (e["hand"], e["move"]) == (1, None)


def test_leader_after_hand_1_required_only_when_it_depends_on_earlier_hands():
    """'When the record starts after hand 1 and the rules choose the leader from earlier hands,
    the first hand's leader is required.'  Block lead_rule winner: required; lead_rule
    double_six_always: the deal decides (6-6 holder), so it may be omitted."""
    start = {"hand": 3, "totals": [0, 0, 0, 0]}
    d = block_doc()
    d["start"] = start
    e = error_of(d)
    assert (e["hand"], e["move"]) == (1, None) and "leader" in e["message"]
    d["hands"][0]["leader"] = 0
    assert valid(d)["hands"][0]["leader"] == 0
    d = block_doc(lead_rule="double_six_always")
    d["start"] = start
    assert valid(d)["hands"][0]["leader"] == 0
    d["hands"][0]["leader"] = 1
    e = error_of(d)
    assert (e["hand"], e["move"]) == (1, None) and "leader" in e["message"]


def test_leader_blind_hugie_record_starting_at_hand_2_needs_the_leader():
    """Blind Hugie: later leaders rotate from the previous leader, unknown before the record."""
    deal, bone = fill([["3-5"], ["5-6"]], [7, 7])
    h = {"deal": deal, "boneyard": bone, "moves": ["3-5"]}
    d = doc("blind-hugie", {"players": 2}, [h], start={"hand": 2, "totals": [0, 0]})
    e = error_of(d)
    assert (e["hand"], e["move"]) == (1, None) and "leader" in e["message"]
    h["leader"] = 0
    assert valid(d)["hands"][0]["leader"] == 0


# ============================================================================ tokens


def test_first_tile_orientation_decides_which_arm_takes_later_tiles():
    """'The first tile of a layout is written as it is laid: its first number faces L'.
    Passing, P0 leads 3-5 (L3 R5): P1's 5-6 can go only on R, so no @E is needed; led as 5-3
    (L5 R3) the same token goes only on L."""
    deal, bone = fill([["3-5", "3-4"], ["5-6"]], [7, 7])
    g = rec.replay(
        doc(
            "passing",
            {"players": 2},
            [{"deal": deal, "boneyard": bone, "leader": 0, "moves": ["3-5", "5-6"]}],
        )
    )
    assert g.hand.ends() == {"L": 3, "R": 6}
    g = rec.replay(
        doc(
            "passing",
            {"players": 2},
            [{"deal": deal, "boneyard": bone, "leader": 0, "moves": ["5-3", "5-6"]}],
        )
    )
    assert g.hand.ends() == {"L": 6, "R": 3}


def test_arm_may_be_given_when_only_one_arm_fits_and_reversed_tile_names_are_the_same_tile():
    """'@E may be left out only when exactly one arm can take the tile' (giving it is fine);
    '5-3 names the same tile'."""
    moves = list(MOVES)
    moves[2] = "4-4@R"  # 4-4 fits only R (L6 R4)
    moves[3] = "2-6@L"  # 6-2 written the other way round
    out = valid(block_doc(moves))
    assert out["hands"][0]["points"] == [0, 0, 0, 11]
    moves[2] = "4-4@L"
    e = error_of(block_doc(moves))
    assert (e["hand"], e["move"], e["token"]) == (1, 3, "4-4@L")


@pytest.mark.parametrize(
    "variant,players,sizes", [("blind-hugie", 2, [7, 7]), ("billitonnen", 4, [7, 7, 7, 7])]
)
def test_arm_on_the_first_tile_is_an_error_in_blind_games(variant, players, sizes):
    """'@E on the first tile of a layout is an error (no arm exists yet)', blind ones included."""
    rows = [["3-5"]] + [[] for _ in range(players - 1)]
    deal, bone = fill(rows, sizes)
    d = doc(
        variant, {"players": players}, [{"deal": deal, "boneyard": bone, "leader": 0, "moves": ["3-5@L"]}]
    )
    assert error_of(d) == {**error_of(d), "hand": 1, "move": 1, "token": "3-5@L"}


# ============================================================================ options


@pytest.mark.parametrize(
    "variant,options",
    [
        ("cinque", {"hand_end_bonus": None}),
        ("cinque", {"hand_end_bonus": "allfives", "spinner_any_order": True, "target_rule": "immediate"}),
        ("quinientos", {"players": 4, "count_partner_pips": False, "first_lead": "any"}),
        ("block", {"players": 4, "teams": True, "blocked_formula": "once", "boneyard_reserve": 0}),
    ],
)
def test_option_values_json_literals_and_rules_strings_are_accepted(variant, options):
    d = block_doc()
    d["variant"], d["options"] = variant, options
    d["hands"][0]["moves"] = ["6-6"]
    assert valid(d)["hands"][0]["end"] == "unfinished"


@pytest.mark.parametrize(
    "variant,options",
    [
        ("block", {"teams": "True"}),  # Python spelling, not JSON true
        ("block", {"teams": "false"}),  # a string, not the JSON literal
        ("cinque", {"hand_end_bonus": "None"}),
        ("cinque", {"hand_end_bonus": "ALLFIVES"}),
        ("block", {"first_lead": "any"}),  # a Quinientos option, not a Block one
        ("quinientos", {"players": 3}),
        ("block", {"target": 100.0}),
    ],
)
def test_option_values_other_than_json_literals_and_listed_strings_are_document_errors(variant, options):
    d = block_doc()
    d["variant"], d["options"] = variant, options
    e = error_of(d)
    assert (e["hand"], e["move"], e["token"]) == (None, None, None)


def test_players_implied_by_the_deal_when_absent():
    """'players ... otherwise it is implied by the number of hands in deal'.  Block, 3 seats
    dealt, no `players` option: a 3-player game (sides [[0],[1],[2]])."""
    deal, bone = fill([["6-6"], [], []], [7, 7, 7])
    d = doc("block", {}, [{"deal": deal, "boneyard": bone, "moves": ["6-6"]}])
    out = valid(d)
    assert out["sides"] == [[0], [1], [2]]
    assert (
        "players" not in rec.replay(d).record()["options"]
        or rec.replay(d).record()["options"]["players"] == 3
    )


def test_contract_players_null_is_a_bad_option_value_not_the_default():
    """RECORD.md: 'Option values are JSON: true/false/null and the strings RULES.md §7.3 lists';
    a 'bad option value' is a document-level error (hand null, move null); `players` is a player
    count, and §7.3 lists no null for it.  The engine reads `players: null` as 'absent, use the
    default 4' (not even 'implied by the deal'): a 4-seat deal replays silently and a 3-seat
    deal gets a HAND-level error ('"deal" has 3 seats; this game has 4 players')."""
    deal, bone = fill([["6-6"], [], []], [7, 7, 7])
    e = error_of(doc("block", {"players": None}, [{"deal": deal, "boneyard": bone, "moves": ["6-6"]}]))
    assert (e["hand"], e["move"]) == (None, None), (
        f"CONTRACT BUG: players null gives a hand-level error {e}, not a bad-option-value document error"
    )
    d = block_doc()
    d["options"]["players"] = None
    assert "error" in replay_doc(d), "CONTRACT BUG: players null is accepted as the default count"


def test_unknown_keys_in_start_and_hands_are_ignored_and_null_optional_keys_mean_absent():
    d = block_doc()
    d["start"] = {"hand": 1, "totals": [0, 0, 0, 0], "note": "x"}
    d["hands"][0]["boneyard"] = None
    d["hands"][0]["leader"] = None
    d["hands"][0]["comment"] = {"anything": [1, 2]}
    d["extra"] = None
    assert valid(d)["totals"] == [0, 0, 0, 11]


# ============================================================================ random


@pytest.mark.parametrize(
    "variant,args,expect",
    [
        (
            "cinque",
            ["--option", "hand_end_bonus=null", "--option", "target_rule=immediate"],
            {"hand_end_bonus": None, "target_rule": "immediate"},
        ),
        (
            "block",
            ["--players", "2", "--option", "teams=false", "--option", "lead_rule=double_six_always"],
            {"players": 2, "teams": False, "lead_rule": "double_six_always"},
        ),
        (
            "quinientos",
            ["--option", "lead_rotation=winning_team_chooses"],
            {"lead_rotation": "winning_team_chooses"},
        ),
        (
            "passing",
            ["--players", "3", "--option", "lead_rule=random"],
            {"players": 3, "lead_rule": "random"},
        ),
    ],
)
def test_random_writes_options_as_given_and_a_leader_for_every_hand(tmp_path, variant, args, expect):
    out = tmp_path / "r.json"
    r = cli("random", variant, *args, "--seed", "5", "-o", str(out))
    assert r.returncode == 0, r.stderr
    d = rec.loads(out.read_bytes())
    for k, v in expect.items():
        assert k in d["options"] and d["options"][k] == v and type(d["options"][k]) is type(v), (
            f"option {k} written as {d['options'].get(k, '<absent>')!r}, given {v!r}"
        )
    assert all(type(h.get("leader")) is int for h in d["hands"]), "a hand without leader"
    rep = cli("replay", str(out), "--json")
    assert rep.returncode == 0, rep.stdout
    assert json.loads(rep.stdout) == rec.replay(d).result()
    assert json.loads(rep.stdout)["finished"] is True


def test_random_records_of_every_variant_keep_the_tile_set_per_hand(tmp_path):
    """'Every tile of the set appears exactly once across deal and boneyard of each hand'."""
    for variant in ("quinientos", "cinque", "draw", "block", "passing", "blind-hugie", "billitonnen"):
        r = cli("random", variant, "--seed", "2")
        assert r.returncode == 0, r.stderr
        for h in rec.loads(r.stdout)["hands"]:
            tiles = [parse_tile(t)[0] for row in h["deal"] for t in row] + [
                parse_tile(t)[0] for t in h.get("boneyard", [])
            ]
            assert sorted(tiles) == list(range(28)), variant


# ============================================================================ spinner arms, game end


def test_u_and_d_open_only_after_the_spinner_side_opposite_the_line_is_played():
    """'U and D exist only once a spinner is on the table ...' (RULES.md §2.3: a spinner played
    onto a line end has that line on one side; the opposite side must be played before U/D).
    Cinque from hand 2 (leader given): 5-6 (L5 R6), 5-5@L is the spinner, the line is its R arm.
    5-3@U: error; 5-3 goes only on the spinner's L (no @E needed); then 5-2 fits U and D:
    ambiguous without @E."""
    deal, bone = fill([["5-6"], ["5-5"], ["5-3"], ["5-2"]], [7] * 4)

    def d(moves):
        return doc(
            "cinque",
            {},
            [{"deal": deal, "boneyard": bone, "leader": 0, "moves": moves}],
            start={"hand": 2, "totals": [0, 0]},
        )

    e = error_of(d(["5-6", "5-5@L", "5-3@U"]))
    assert (e["hand"], e["move"], e["token"]) == (1, 3, "5-3@U") and "arm U does not exist yet" in e[
        "message"
    ]
    assert rec.replay(d(["5-6", "5-5@L", "5-3"])).hand.ends() == {"L": 3, "R": 6, "U": 5, "D": 5}
    e = error_of(d(["5-6", "5-5@L", "5-3", "5-2"]))
    assert (e["hand"], e["move"], e["token"]) == (1, 4, "5-2") and "ambiguous" in e["message"]
    assert rec.replay(d(["5-6", "5-5@L", "5-3", "5-2@D"])).hand.ends() == {"L": 3, "R": 6, "U": 5, "D": 2}


def test_cinque_immediate_no_hand_may_follow_the_cut_hand():
    """'A Cinque hand cut short by target_rule "immediate": ... No token or hand may follow.'"""
    d = json.loads((SCENARIOS / "c_immediate_target_cuts_hand.record.json").read_text())
    out = valid(d)
    assert (out["hands"][-1]["end"], out["hands"][-1]["winner"], out["winner"], out["finished"]) == (
        "unfinished",
        None,
        1,
        True,
    )
    d["hands"].append(copy.deepcopy(d["hands"][0]))
    e = error_of(d)
    assert (e["hand"], e["move"], e["token"]) == (3, None, None)
    line = assert_one_clean_line(run_text(json.dumps(d)))
    assert re.match(r"record error: hand 3: ", line), line
