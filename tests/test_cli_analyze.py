"""``bonepile analyze RECORD``: the words, the JSON of docs/ANALYSIS.md, and bad input (one
line and exit status 2, or ``{"error": ...}`` with --json), as ``bonepile replay`` does."""

from __future__ import annotations

import json

import pytest

from bonepile.engine import record as rec
from support import cli
from test_analysis import played_game
from test_cli import assert_clean_error, one_json_object, write
from test_errors import MOVES, block_doc

FAST = ("--simulations", "3", "--nodes", "3000")


@pytest.fixture(scope="module")
def record_file(tmp_path_factory):
    g = played_game("block", {"teams": True}, 23)
    p = tmp_path_factory.mktemp("an") / "game.record.json"
    p.write_text(rec.dumps(g.record()))
    return str(p), g


def test_analyze_json_follows_the_schema(record_file):
    path, g = record_file
    r = cli("analyze", path, "--json", *FAST)
    assert r.returncode == 0, r.stderr
    j = one_json_object(r.stdout)
    assert j["format"] == "bonepile-analysis-1" and j["variant"] == "block"
    assert j["sides"] == [[0, 2], [1, 3]] and j["ways"] == ["knew", "shown"]
    assert j["thresholds"] == {"unit": "points", "inaccuracy": 2.0, "mistake": 5.0, "blunder": 10.0}
    (hand,) = j["hands"]
    h = g.hands[0]
    assert hand["points"] == list(h.result.points)
    moves = rec.loads(rec.dumps(g.record()))["hands"][0]["moves"]
    for d in hand["decisions"]:
        assert d["played"] == moves[d["move"] - 1]  # the record's token at that move
        assert d["seat"] == h.log[d["move"] - 1][0]
        tokens = [m["move"] for m in d["moves"]]
        assert d["knew"]["best"] in tokens and d["shown"]["best"] in tokens
        assert {"points", "win", "game", "score", "reasons"} <= set(d["moves"][0]["knew"])
        assert d["moves"][0]["shown"]["kind"] in ("exact", "estimate")
    # luck and skill (docs/ANALYSIS.md#luck-and-skill): per side, the deal's value (summing to
    # nothing), the hand's net result, the points lost by decisions, skill and the rest
    lk = hand["luck"]
    assert set(lk) == {"deal_value", "result", "lost", "skill", "noise"}
    assert abs(sum(lk["deal_value"])) < 0.01 and abs(sum(lk["skill"])) < 0.01
    p = h.result.points
    assert lk["result"] == [p[0] - p[1], p[1] - p[0]]
    for i in range(2):
        assert lk["result"][i] == pytest.approx(
            lk["deal_value"][i] + lk["skill"][i] + lk["noise"][i], abs=0.01
        )
        assert lk["skill"][i] == pytest.approx(lk["lost"][1 - i] - lk["lost"][i], abs=0.01)
    assert [t["luck"] for t in j["luck"]] == lk["deal_value"] and [t["hands"] for t in j["luck"]] == [1, 1]
    # the same record and seed: the same analysis
    assert cli("analyze", path, "--json", *FAST).stdout == r.stdout


def test_analyze_words_name_the_marks_and_the_accuracy(record_file):
    path, _g = record_file
    r = cli("analyze", path, "--seat", "1", *FAST)
    assert r.returncode == 0, r.stderr
    j = json.loads(cli("analyze", path, "--seat", "1", "--json", *FAST).stdout)
    out = r.stdout
    assert "Hand 1" in out and "Accuracy" in out
    for d in j["hands"][0]["decisions"]:
        assert d["seat"] == 1
        assert f"move {d['move']:>2}  seat 1 played {d['played']}: {d['knew']['mark']}" in out
    s = j["summary"]["knew"][0]
    assert f"seat 1: {s['accuracy']:.0f}% of {s['decisions']} decision" in out
    assert "seat 0" not in out
    # the deal's value of each side is printed; the points lost only when every seat was judged
    v = j["hands"][0]["luck"]["deal_value"]
    assert f"  deal value: seats 0 & 2 {v[0]:+.1f}, seats 1 & 3 {v[1]:+.1f}" in out
    assert j["hands"][0]["luck"]["lost"] is None and "points lost by decisions" not in out


def test_analyze_reads_standard_input(record_file):
    path, _g = record_file
    with open(path) as f:
        text = f.read()
    r = cli("analyze", "-", "--json", "--hand", "1", *FAST, input=text)
    assert r.returncode == 0 and one_json_object(r.stdout)["hands"][0]["hand"] == 1


@pytest.mark.parametrize(
    "args,words",
    [
        (("--seat", "4"), "there is no seat 4: seats are 0 to 3"),
        (("--hand", "2"), "there is no hand 2: the record has hand 1"),
        (("--hand", "0"), "there is no hand 0: the record has hand 1"),
    ],
)
def test_analyze_a_seat_or_hand_that_does_not_exist(record_file, args, words):
    path, _g = record_file
    line = assert_clean_error(cli("analyze", path, *args, *FAST))
    assert line == f"error: {words}"
    r = cli("analyze", path, *args, "--json", *FAST)
    assert r.returncode == 2 and r.stderr == ""
    assert one_json_object(r.stdout)["error"]["message"] == words


def test_analyze_an_unfinished_record(tmp_path):
    path = write(tmp_path, block_doc(MOVES[:5]))
    line = assert_clean_error(cli("analyze", path, *FAST))
    assert line == "error: hand 1 is unfinished: only finished hands can be analysed"
    r = cli("analyze", path, "--json", *FAST)
    assert r.returncode == 2
    assert one_json_object(r.stdout) == {
        "error": {
            "hand": None,
            "move": None,
            "token": None,
            "message": "hand 1 is unfinished: only finished hands can be analysed",
        }
    }


def test_analyze_a_malformed_record(tmp_path):
    bad = block_doc(MOVES[:3] + ["5-3@U"])
    path = write(tmp_path, bad)
    line = assert_clean_error(cli("analyze", path))
    assert line.startswith('record error: hand 1, move 4 ("5-3@U")')
    r = cli("analyze", path, "--json")
    assert r.returncode == 2
    err = one_json_object(r.stdout)["error"]
    assert (err["hand"], err["move"], err["token"]) == (1, 4, "5-3@U")
    assert_clean_error(cli("analyze", write(tmp_path, "{not json", "x.json")))
    assert_clean_error(cli("analyze", str(tmp_path / "missing.json")))
