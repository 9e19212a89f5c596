"""The `bonepile` command: `replay FILE [--json]` (RECORD.md contract) and `random`."""

from __future__ import annotations

import json
import pathlib
import re
import sys

import pytest

from bonepile.engine import record as rec
from support import SCENARIOS, cli, cli_process
from test_errors import DEAL, MOVES, block_doc

# Ends after each move of the base Block game of test_errors.py, worked out by hand.
ENDS = [
    "L6 R6",
    "L6 R4",
    "L6 R4",
    "L2 R4",
    "L2 R3",
    "L2 R3",
    "L2 R5",
    "L2 R1",
    "L2 R0",
    "L2 R5",
    "L2 R5",
    "L4 R5",
    "L4 R5",
    "L5 R5",
    "L5 R5",
    "L5 R2",
    "L6 R2",
    "L6 R0",
    "L6 R3",
    "L6 R2",
    "L6 R1",
    "L6 R3",
    "L0 R3",
    "L4 R3",
    "L4 R3",
    "L4 R3",
    "L1 R3",
    "L6 R3",
]


def write(tmp_path, doc, name="game.record.json") -> str:
    p = tmp_path / name
    p.write_text(doc if isinstance(doc, str) else json.dumps(doc, indent=2))
    return str(p)


def one_json_object(stdout: str):
    """stdout holds exactly one JSON object (and nothing else but whitespace)."""
    obj, end = json.JSONDecoder().raw_decode(stdout.strip())
    assert end == len(stdout.strip()), f"more than one JSON value on stdout: {stdout!r}"
    assert isinstance(obj, dict)
    return obj


def assert_clean_error(r, *, stdout_empty=True):
    assert r.returncode == 2, f"exit status {r.returncode}, expected 2 (stderr {r.stderr!r})"
    assert "Traceback" not in r.stderr and "Traceback" not in r.stdout, r.stderr
    if stdout_empty:
        assert r.stdout == "", f"stdout should be empty on error, got {r.stdout!r}"
    lines = r.stderr.splitlines()
    assert len(lines) == 1, f"expected exactly one line on stderr, got {lines!r}"
    return lines[0]


# ------------------------------------------------------------------------------ replay --json


def test_replay_json_prints_one_object_of_the_contract_shape(tmp_path):
    r = cli("replay", write(tmp_path, block_doc()), "--json")
    assert r.returncode == 0, r.stderr
    out = one_json_object(r.stdout)
    assert out["variant"] == "block"
    assert out["sides"] == [[0], [1], [2], [3]]
    assert len(out["hands"]) == 1
    h = out["hands"][0]
    assert (h["leader"], h["end"], h["winner"], h["points"], h["totals"]) == (
        0,
        "domino",
        3,
        [0, 0, 0, 11],
        [0, 0, 0, 11],
    )
    assert out["totals"] == [0, 0, 0, 11]
    assert out["winner"] is None and out["finished"] is False


def test_replay_json_finished_game_and_team_sides(tmp_path):
    doc = block_doc(target=10)
    r = cli("replay", write(tmp_path, doc), "--json")
    assert r.returncode == 0, r.stderr
    out = one_json_object(r.stdout)
    assert out["winner"] == 3 and out["finished"] is True
    # the same deal as Quinientos (partnerships {0,2} v {1,3}), unfinished after two moves
    q = block_doc(["6-6", "6-4@R"])
    q["variant"] = "quinientos"
    del q["options"]
    out = one_json_object(cli("replay", write(tmp_path, q, "q.json"), "--json").stdout)
    assert out["sides"] == [[0, 2], [1, 3]]
    assert out["hands"][0]["end"] == "unfinished" and out["hands"][0]["winner"] is None
    assert out["hands"][0]["points"] == [0, 0] and out["totals"] == [0, 0]
    assert out["finished"] is False and out["winner"] is None


def test_replay_reads_standard_input_with_dash():
    r = cli("replay", "-", "--json", input=json.dumps(block_doc()))
    assert r.returncode == 0, r.stderr
    assert one_json_object(r.stdout)["totals"] == [0, 0, 0, 11]


# ------------------------------------------------------------------------------ replay errors

BAD_MOVE_HAND_2 = "e_hand2_arm_u_in_line_game.record.json"


def test_replay_bad_record_exit_2_one_line_on_stderr_nothing_on_stdout():
    r = cli("replay", str(SCENARIOS / BAD_MOVE_HAND_2))
    line = assert_clean_error(r)
    assert re.fullmatch(r'record error: hand 2, move 2 \("6-4@U"\): arm U does not exist yet.*', line), line


def test_replay_bad_record_with_json_prints_the_error_object_on_stdout():
    r = cli("replay", str(SCENARIOS / BAD_MOVE_HAND_2), "--json")
    assert r.returncode == 2
    assert "Traceback" not in r.stderr
    out = one_json_object(r.stdout)
    assert set(out) == {"error"}
    err = out["error"]
    assert (err["hand"], err["move"], err["token"]) == (2, 2, "6-4@U")
    assert err["message"].startswith("arm U does not exist yet")


@pytest.mark.parametrize(
    "name,hand,move,token,pattern",
    [
        ("e_token_ambiguous", 1, 2, "6-4", r'record error: hand 1, move 2 \("6-4"\): .*ambiguous.*'),
        ("e_move_pass_while_able_to_play", 1, 2, "pass", r'record error: hand 1, move 2 \("pass"\): .+'),
        ("e_token_malformed_Pass", 1, 2, "Pass", r'record error: hand 1, move 2 \("Pass"\): .+'),
        ("e_token_after_hand_ended", 1, 29, "pass", r'record error: hand 1, move 29 \("pass"\): .+'),
        ("e_tile_twice_in_deal", 1, None, None, r"record error: hand 1: .*6-6.*"),
        ("e_hand_after_game_ended", 2, None, None, r"record error: hand 2: .+"),
        ("e_doc_wrong_format", None, None, None, r"record error: .*format.*"),
        ("e_doc_unknown_option", None, None, None, r"record error: .*spinner.*"),
        ("e_doc_bad_option_teams_string", None, None, None, r"record error: .*teams.*"),
    ],
)
def test_replay_errors_text_and_json(name, hand, move, token, pattern):
    path = str(SCENARIOS / f"{name}.record.json")
    line = assert_clean_error(cli("replay", path))
    assert re.fullmatch(pattern, line), line
    if hand is None:
        assert not re.match(r"record error: hand \d", line), f"document error names a hand: {line}"
    r = cli("replay", path, "--json")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    err = one_json_object(r.stdout)["error"]
    assert (err["hand"], err["move"], err["token"]) == (hand, move, token)
    assert err["message"] and err["message"] in line


@pytest.mark.parametrize("text", ["{not json", "", "[1, 2, 3]"])
def test_replay_not_json_or_not_an_object_is_a_document_error(tmp_path, text):
    path = write(tmp_path, text)
    line = assert_clean_error(cli("replay", path))
    assert line.startswith("record error: ") and not re.match(r"record error: hand \d", line)
    r = cli("replay", path, "--json")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    err = one_json_object(r.stdout)["error"]
    assert (err["hand"], err["move"], err["token"]) == (None, None, None)


def test_replay_missing_file_is_a_clean_error(tmp_path):
    missing = str(tmp_path / "no-such-game.record.json")
    line = assert_clean_error(cli("replay", missing))
    assert "no-such-game.record.json" in line
    r = cli("replay", missing, "--json")
    assert r.returncode == 2 and "Traceback" not in r.stderr + r.stdout
    if r.stdout.strip():
        err = one_json_object(r.stdout)["error"]
        assert (err["hand"], err["move"]) == (None, None)


def test_replay_directory_is_a_clean_error(tmp_path):
    assert_clean_error(cli("replay", str(tmp_path)))


# ------------------------------------------------------------------------------ replay for people


def test_replay_text_shows_deal_moves_with_ends_and_scores(tmp_path):
    r = cli("replay", write(tmp_path, block_doc()))
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""
    lines = r.stdout.splitlines()
    text = r.stdout
    # the deal: each seat's tiles in record order
    for seat, row in enumerate(DEAL):
        assert any(re.search(rf"\bP{seat}\b.*{' '.join(row)}", ln) for ln in lines), (
            f"deal of P{seat} not shown: {row}"
        )
    assert re.search(r"Hand 1\b.*\bP0\b.*lead", text), "leader of hand 1 not shown"
    # every move, numbered, with its seat, token and the ends after it
    for i, (tok, ends) in enumerate(zip(MOVES, ENDS), 1):
        seat = (i - 1) % 4  # every token, pass included, is the next seat's turn
        found = [ln for ln in lines if re.match(rf"\s*{i}\.\s", ln)]
        assert len(found) == 1, f"move {i} not shown exactly once"
        ln = found[0]
        what = "pass" if tok == "pass" else re.escape(tok)
        assert re.search(rf"\bP{seat}\b.*{what}.*\b{ends}\s*$", ln), f"move {i}: {ln!r} (want {tok}, {ends})"
    # the scores
    assert any("P3" in ln and "11" in ln and "points" in ln for ln in lines), "hand points not shown"
    assert any("totals" in ln and "P3 11" in ln for ln in lines), "totals not shown"
    assert re.search(r"P3.*(goes out|domino)", text)


def test_replay_text_uses_player_names(tmp_path):
    doc = block_doc()
    doc["players"] = ["Ana", "Ben", "Cruz", "Dee"]
    r = cli("replay", write(tmp_path, doc))
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert any(re.match(r"\s*2\.\s.*\bBen\b.*6-4@R.*L6 R4\s*$", ln) for ln in lines)
    assert any("Dee" in ln and "11" in ln and "points" in ln for ln in lines)


# ------------------------------------------------------------------------------ random


@pytest.mark.parametrize(
    "variant,args",
    [
        ("block", ["--players", "3", "--option", "target=50"]),
        ("quinientos", ["--option", "first_lead=any", "--option", "target=200"]),
        ("cinque", ["--option", "hand_end_bonus=allfives"]),
        ("passing", ["--players", "4", "--option", "teams=true"]),
        ("blind-hugie", ["--players", "3", "--option", "deal=full", "--option", "full_deal_starter=true"]),
        ("billitonnen", ["--players", "5"]),
        ("draw", ["--players", "2", "--option", "boneyard_reserve=2"]),
        ("fives-and-threes", ["--players", "2", "--option", "deal=pagat"]),
        ("dominican", ["--option", "tranque=leader_ties"]),
    ],
)
def test_random_writes_a_record_that_replays_and_is_identical_for_the_same_seed(tmp_path, variant, args):
    f1, f2 = tmp_path / "a.json", tmp_path / "b.json"
    r1 = cli("random", variant, *args, "--seed", "11", "-o", str(f1))
    r2 = cli("random", variant, *args, "--seed", "11", "-o", str(f2))
    assert r1.returncode == 0 and r2.returncode == 0, r1.stderr + r2.stderr
    assert "Traceback" not in r1.stderr
    t1 = f1.read_bytes()
    assert t1 == f2.read_bytes(), "same seed, different records"
    doc = rec.loads(t1)
    assert doc["format"] == "bonepile-record/1" and doc["variant"] == variant
    for i in range(0, len(args), 2):
        if args[i] == "--players":
            assert doc["options"].get("players", int(args[i + 1])) == int(args[i + 1])
            assert all(len(h["deal"]) == int(args[i + 1]) for h in doc["hands"])
        else:
            key, value = args[i + 1].split("=")
            assert key in doc["options"], f"option {key} not written to the record"
    game = rec.replay(doc)
    assert game.over, "random writes a complete game"
    assert rec.dumps(game.record()).encode() == t1, "random's record text is not the stable dumps text"


def test_random_record_replays_through_the_cli_and_stdout_equals_file(tmp_path):
    out = tmp_path / "r.json"
    r = cli("random", "block", "--players", "4", "--seed", "3", "-o", str(out))
    assert r.returncode == 0 and r.stdout == "", r.stderr
    s = cli("random", "block", "--players", "4", "--seed", "3")
    assert s.returncode == 0 and s.stdout == out.read_text()
    rep = cli("replay", str(out), "--json")
    assert rep.returncode == 0, rep.stdout + rep.stderr
    res = one_json_object(rep.stdout)
    assert res["variant"] == "block" and res["finished"] is True
    assert res["winner"] is not None and max(res["totals"]) >= 100
    other = cli("random", "block", "--players", "4", "--seed", "4")
    assert other.stdout != s.stdout, "different seeds gave the same game"


@pytest.mark.parametrize(
    "args,words",
    [
        (["random", "dominos"], ["dominos"]),
        (["random", "block", "--option", "spinner=true"], ["spinner"]),
        (["random", "block", "--option", "target=x"], ["target"]),
        (["random", "block", "--option", "teams=yes"], ["teams"]),
        (["random", "block", "--players", "9"], ["players"]),
        (["random", "quinientos", "--players", "2"], ["players"]),
        (["random", "draw", "--players", "3", "--option", "teams=true"], ["teams"]),
        (["random", "billitonnen", "--option", "blocked_winner=highest"], ["blocked_winner"]),
        (["random", "dominican", "--option", "tranque=pairs"], ["tranque", "leader_ties", "pairs"]),
        (["random", "fives-and-threes", "--option", "deal=7"], ["deal", "league", "pagat"]),
        (["random", "block", "--option", "target"], ["target"]),
    ],
)
def test_random_bad_variant_option_or_value_is_one_clean_line(tmp_path, args, words):
    out = tmp_path / "never.json"
    r = cli(*args, "--seed", "1", "-o", str(out))
    line = assert_clean_error(r)
    for w in words:
        assert w in line, f"{line!r} lacks {w!r}"
    assert not out.exists(), "a record was written despite the error"


def test_random_unwritable_output_is_a_clean_error(tmp_path):
    line = assert_clean_error(cli("random", "block", "--seed", "1", "-o", str(tmp_path / "no" / "x.json")))
    assert "x.json" in line


def test_random_non_integer_players_exits_2_without_traceback():
    r = cli("random", "block", "--players", "x")
    assert r.returncode == 2 and r.stdout == ""
    assert "Traceback" not in r.stderr and "players" in r.stderr


# ------------------------------------------------------------------------------ as a process
# The tests above run the command in this process; these start it as a user does.

CONSOLE_SCRIPT = pathlib.Path(sys.executable).with_name("bonepile")


@pytest.mark.parametrize(
    "command",
    [
        pytest.param([sys.executable, "-m", "bonepile"], id="python -m bonepile"),
        pytest.param(
            [str(CONSOLE_SCRIPT)],
            id="console script",
            marks=pytest.mark.skipif(
                not CONSOLE_SCRIPT.exists(), reason="bonepile is not installed in this venv"
            ),
        ),
    ],
)
def test_the_command_as_its_own_process_replays_and_fails_cleanly(tmp_path, command):
    r = cli_process(command, "replay", write(tmp_path, block_doc()), "--json")
    assert r.returncode == 0, r.stderr
    assert one_json_object(r.stdout) == one_json_object(
        cli("replay", write(tmp_path, block_doc()), "--json").stdout
    )
    line = assert_clean_error(cli_process(command, "replay", str(tmp_path / "missing.json")))
    assert "missing.json" in line
