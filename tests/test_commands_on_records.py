"""Every command on every record: ``replay`` (words and ``--json``), ``analyze --json`` and
``hint`` on the example records, on random games of every variant and a few option sets, and
on their mirror images (each hand's first tile laid the other way round, L and R swapped after
it: a record may lay the first tile either way, the engine lists one); the web server's replay
and analysis of every example record.  None may crash, and each answer is checked against
what is known of the game (the expected output, the record's tokens, the legal moves)."""

from __future__ import annotations

import json
import pathlib
import random
import time
from typing import Any

import pytest
import typer
from click.testing import CliRunner

from bonepile.cli import app
from bonepile.engine import make_variant
from bonepile.engine import record as rec
from bonepile.engine.hand import Hand
from bonepile.engine.knowledge import PublicKnowledge
from bonepile.engine.tiles import PASS, arm_of, tile_of
from support import EXAMPLES, subset_mismatch
from webutil import InProcess

EXAMPLE_RECORDS = sorted(EXAMPLES.glob("*.record.json"))
#: the analysis' budget: a deal imagined and a few hundred positions searched per decision
#: (the commands are checked here, not the expert)
BUDGET = ("--simulations", "1", "--nodes", "300")
HINT = ("--simulations", "1")
MARKS = {"best", "good", "inaccuracy", "mistake", "blunder"}

#: random games: (variant, players, rule options); short targets keep the games a few hands long
RANDOM_GAMES = [
    ("block", 2, {"target": 40}),
    ("block", 3, {"target": 40, "lead_rule": "rotate"}),
    ("block", 4, {"teams": True, "target": 40}),
    ("draw", 2, {"target": 40}),
    ("draw", 4, {"target": 40, "boneyard_reserve": 2, "no_double_lead": "redeal"}),
    ("passing", 2, {}),
    ("passing", 4, {"teams": True, "team_scoring": "lowest_individual"}),
    ("blind-hugie", 3, {"tiles_per_turn": "while_playable", "deal": "full", "full_deal_starter": True}),
    ("blind-hugie", 4, {"teams": True, "deal": "full"}),
    ("quinientos", 4, {"target": 100, "first_lead": "any"}),
    ("cinque", 4, {"target": 30, "spinner_any_order": True}),
    ("billitonnen", 3, {}),
    ("billitonnen", 5, {"blocked_winner": "fewest_tiles"}),
    ("mexican-train", 3, {"rounds": 2}),
    ("chicken-foot", 4, {"rounds": 2, "spokes": 4}),
]


#: the command line built once (typer builds it again at every call of its own runner)
COMMAND = typer.main.get_command(app)


def run(*args: str) -> Any:
    """The command in this process; a crash (any exception but a clean exit) fails the test."""
    r = CliRunner().invoke(COMMAND, list(args))
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        raise AssertionError(f"bonepile {' '.join(args)} crashed") from r.exception
    return r


def random_record(variant: str, players: int, options: dict[str, Any], seed: int) -> str:
    args = ["random", variant, "--players", str(players), "--seed", str(seed)]
    for k, v in options.items():
        args += ["--option", f"{k}={json.dumps(v)}"]
    r = run(*args)
    assert r.exit_code == 0, r.output
    return r.stdout


def mirror(doc: dict[str, Any]) -> dict[str, Any]:
    """The record with each hand's first tile laid the other way round (a tile of the deal's
    boneyard when it starts the layout) and the arms L and R swapped in the tokens after it:
    the same game seen in a mirror."""
    swap = {"L": "R", "R": "L"}
    out = json.loads(json.dumps(doc))
    for h, played in zip(out["hands"], rec.replay(doc).hands):
        moves = h["moves"]
        if played.fresh().placed:  # the boneyard's starter is the first tile
            k = -1
            h["boneyard"][0] = h["boneyard"][0][::-1]
        else:
            k = next(k for k, tok in enumerate(moves) if tok not in ("draw", "pass"))
            moves[k] = moves[k][::-1]
        h["moves"] = moves[: k + 1] + [
            t[:-1] + swap[t[-1]] if t[-2:] in ("@L", "@R") else t for t in moves[k + 1 :]
        ]
    return out


def records() -> list[tuple[str, str]]:
    """(name, record text) of every record the commands run on."""
    out = [(p.name[: -len(".record.json")], p.read_text()) for p in EXAMPLE_RECORDS]
    for n, (variant, players, options) in enumerate(RANDOM_GAMES):
        out.append((f"random-{variant}-{players}p-{n}", random_record(variant, players, options, 100 + n)))
    return out + [
        (f"{name}-mirrored", rec.dumps(mirror(json.loads(text))))
        for name, text in out
        if not name.startswith(
            ("mexican-train", "chicken-foot", "random-mexican-train", "random-chicken-foot")
        )
        # (trains and feet: no mirror image)
    ]


RECORDS = records()
IDS = [name for name, _ in RECORDS]


def written(tmp_path: pathlib.Path, text: str, name: str = "game.record.json") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def expected_for(name: str) -> dict[str, Any] | None:
    p = EXAMPLES / f"{name}.expected.json"
    return json.loads(p.read_text()) if p.exists() else None


def test_a_move_and_its_mirror_image_are_one_choice():
    """The engine's one notion (``Hand.mirror_key``, ``Hand.choices``): the first tile laid
    either way round is one choice, and so is a tile that fits L and R where the two ends are
    alike (the same number, both or neither a double); different tiles never are."""
    rng = random.Random(5)
    firsts = alike = unalike = 0
    for _ in range(200):
        h = Hand.deal(make_variant("block", {"players": 2}), rng)
        while not h.over:
            legal = h.legal_moves()
            plays = [m for m in legal if m < PASS]
            key = h.mirror_key
            if h.placed == 0:
                firsts += 1
                assert all(key(m + 1) == key(m) for m in plays)  # laid the other way round
            both = [m for m in plays if arm_of(m) == 0 and m + 1 in plays]  # fits L and R
            same = (h.pip[0], h.dbl[0]) == (h.pip[1], h.dbl[1])
            for m in both:
                assert (key(m) == key(m + 1)) == same
            alike += len(both) * same
            unalike += len(both) * (not same)
            assert len({key(m) for m in plays}) == len({tile_of(m) for m in plays}) + len(both) * (not same)
            assert h.choices() == [m for m in legal if not (arm_of(m) == 1 and m - 1 in both and same)]
            h.apply(rng.choice(legal))
    assert firsts == 200 and alike > 20 and unalike > 5


def test_every_example_record_is_checked():
    assert len(EXAMPLE_RECORDS) >= 7 and {n for n, _ in RECORDS} >= {p.name[:-12] for p in EXAMPLE_RECORDS}


@pytest.mark.parametrize("name,text", RECORDS, ids=IDS)
def test_replay(tmp_path, name, text):
    path = written(tmp_path, text)
    r = run("replay", path, "--json")
    assert r.exit_code == 0, r.output
    got = json.loads(r.stdout)
    assert {"variant", "sides", "hands", "totals", "winner", "finished"} <= set(got)
    game = rec.loads(text)
    assert got["finished"] and len(got["hands"]) == len(game["hands"])
    # the final score: the example's expected output, and a mirror image scores the same
    expected = expected_for(name.removesuffix("-mirrored"))
    if expected is not None:
        assert subset_mismatch(expected, got) is None, subset_mismatch(expected, got)
    if name.endswith("-mirrored"):
        original = dict(RECORDS)[name.removesuffix("-mirrored")]
        assert got == json.loads(run("replay", written(tmp_path, original, "o.json"), "--json").stdout)
    words = run("replay", path)
    assert words.exit_code == 0 and words.stderr == ""
    assert all(f"Hand {i}" in words.stdout for i in range(1, len(got["hands"]) + 1))


def check_analysis(
    tmp_path: pathlib.Path, text: str, hand: int | None = None, seat: int | None = None
) -> None:
    """``analyze --json`` of the record (of one hand, one seat when given) answers for every
    finished hand asked for, judging every move the seat made where different tiles (or a
    tile and a pass or a draw) were legal, by the record's own token, against the moves that
    were legal."""
    args = [] if hand is None else ["--hand", str(hand)]
    args += [] if seat is None else ["--seat", str(seat)]
    r = run("analyze", written(tmp_path, text), "--json", *BUDGET, *args)
    assert r.exit_code == 0, r.output
    a = json.loads(r.stdout)
    doc = rec.loads(text)
    game = rec.replay(doc)
    assert a["format"] == "bonepile-analysis-1" and a["variant"] == doc["variant"]
    assert a["sides"] == [list(s) for s in game.variant.sides]
    finished = [i for i, h in enumerate(game.hands, 1) if h.over]
    assert [h["hand"] for h in a["hands"]] == [i for i in finished if hand in (None, i)]
    seats = range(game.variant.players) if seat is None else [seat]
    assert {w: [s["seat"] for s in ss] for w, ss in a["summary"].items()} == {
        w: list(seats) for w in ("knew", "shown")
    }
    for h in a["hands"]:
        played = doc["hands"][h["hand"] - 1]["moves"]
        one = game.hands[h["hand"] - 1]
        assert h["points"] == list(one.result.points)
        pos, choice, some = one.fresh(), set(), set()
        for j, (s, m, _t) in enumerate(one.log, 1):
            legal = pos.legal_moves()
            if s in seats:
                some |= {j} if len(legal) > 1 else set()
                choice |= {j} if len({tile_of(x) if x < PASS else x for x in legal}) > 1 else set()
            pos.apply(m)
        assert choice <= {d["move"] for d in h["decisions"]} <= some
        for d in h["decisions"]:
            assert d["played"] == played[d["move"] - 1]  # the record's own token
            tokens = [m["move"] for m in d["moves"]]
            assert len(tokens) > 1 and len(set(tokens)) == len(tokens) and d["played"] in tokens
            for way in ("knew", "shown"):
                j = d[way]
                assert j["best"] in tokens and j["loss"] >= 0 and j["mark"] in MARKS
                assert (j["best"] == d["played"]) <= (j["mark"] == "best")


@pytest.mark.parametrize("name,text", RECORDS, ids=IDS)
def test_analyze_the_first_hand(tmp_path, name, text):
    """The first hand, of the seat that moved first (it lays the first tile, either way round)."""
    check_analysis(tmp_path, text, 1, rec.replay(rec.loads(text)).hands[0].log[0][0])


@pytest.mark.slow
@pytest.mark.parametrize("name,text", RECORDS, ids=IDS)
def test_analyze_every_hand(tmp_path, name, text):
    check_analysis(tmp_path, text)


def cut(doc: dict[str, Any], hand: int, moves: int | None) -> dict[str, Any]:
    """The record of the game stopped after ``moves`` moves of hand ``hand`` (0-based; None:
    all of them)."""
    out = json.loads(json.dumps(doc))
    out["hands"] = out["hands"][: hand + 1]
    out["hands"][hand]["moves"] = out["hands"][hand]["moves"][:moves]
    return out


@pytest.mark.parametrize("name,text", RECORDS, ids=IDS)
def test_hint(tmp_path, name, text):
    """At the start of the last hand, after its first move and in its middle."""
    doc = rec.loads(text)
    last = len(doc["hands"]) - 1
    n = len(doc["hands"][last]["moves"])
    for k in sorted({0, 1, n // 2}):
        stopped = rec.dumps(cut(doc, last, k))
        game = rec.replay(rec.loads(stopped))
        r = run("hint", written(tmp_path, stopped), "--json", *HINT)
        assert r.exit_code == 0, (k, r.output)
        got = json.loads(r.stdout)
        assert got["seat"] == game.to_move
        tokens = [x["token"] for x in got["actions"]]
        # one move per decision: a tile whose ends are alike is listed once, as its first move
        view = game.view(game.to_move)
        legal = list(view.legal)
        alike = PublicKnowledge.from_view(game.variant, view).decisions(legal)
        assert sorted(tokens) == sorted(game.token(legal[i]) for i in sorted(set(alike)))
    words = run("hint", written(tmp_path, stopped), *HINT)
    assert words.exit_code == 0 and all(t in words.stdout for t in tokens)
    # no one to move: the game is over, or the record stops before the next hand's deal
    between = rec.dumps(cut(doc, last - 1, None)) if last else None
    for record, why in [
        (text, "the game in this record is finished"),
        (between, "the record stops before a hand is dealt"),
    ]:
        if record is None:
            continue
        r = run("hint", written(tmp_path, record), *HINT)
        assert r.exit_code == 2 and r.stderr == f"error: {why}: no one is to move\n"
        r = run("hint", written(tmp_path, record), "--json", *HINT)
        assert r.exit_code == 2 and json.loads(r.stdout)["error"]["message"] == f"{why}: no one is to move"


def test_an_invalid_record_fails_in_one_line_the_same_way_for_every_command(tmp_path):
    doc = json.loads(EXAMPLE_RECORDS[0].read_text())
    doc["hands"][0]["moves"][3] = "9-9@L"
    path = written(tmp_path, json.dumps(doc))
    lines = {args: run(*args, path).stderr for args in [("replay",), ("analyze",), ("hint",)]}
    (line,) = set(lines.values())
    assert line.startswith("record error: hand 1, move 4") and line.count("\n") == 1
    as_json = [json.loads(run(cmd, path, "--json").stdout) for cmd in ("replay", "analyze", "hint")]
    assert as_json[0] == as_json[1] == as_json[2] and as_json[0]["error"]["token"] == "9-9@L"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("records") / "db.sqlite"
    analysis = {"analysis_simulations": 1, "analysis_nodes": 300, "analysis_processes": False}
    with InProcess(f"sqlite:///{db}", **analysis) as s:
        yield s


#: the example records (four of them lay a first tile the other way round from the engine's list)
EXAMPLES_ONLY = RECORDS[: len(EXAMPLE_RECORDS)]


@pytest.mark.parametrize("name,text", EXAMPLES_ONLY, ids=[n for n, _ in EXAMPLES_ONLY])
def test_web_replay(server, name, text):
    game = rec.replay(rec.loads(text))
    expected = expected_for(name.removesuffix("-mirrored"))
    with server.client() as c:
        r = c.post("/api/replay", content=text.encode())
        assert r.status_code == 200, r.text
        frames = r.json()
        hands = [
            c.post(f"/api/replay?hand={i + 1}", content=text.encode()).json() for i in range(len(game.hands))
        ]
    assert frames["totals"] == expected["totals"] and frames["winner"] == expected["winner"]
    assert [h["positions"] for h in frames["hands"]] == [len(h.log) + 1 for h in game.hands]
    assert [len(h["frames"]) for h in hands] == [len(h.log) + 1 for h in game.hands]
    assert [f["move"] for h in hands for f in h["frames"][1:]] == [
        m for h in rec.loads(text)["hands"] for m in h["moves"]
    ]


def check_web_analysis(server: InProcess, doc: dict[str, Any]) -> None:
    """The server's analysis of an uploaded record: every finished hand, every decision with
    the boards and words the page draws."""
    data = rec.dumps(doc).encode()
    with server.client() as c:
        r = c.post("/api/analysis", content=data)
        assert r.status_code in (200, 202), r.text
        job = r.json()["job"]
        deadline = time.monotonic() + 120
        while (body := c.get(f"/api/analysis/{job}").json())["status"] != "done":
            assert "error" not in body and time.monotonic() < deadline, body
            time.sleep(0.05)
    a = body["analysis"]
    assert a["format"] == "bonepile-analysis-1" and len(a["hands"]) == len(doc["hands"])
    for h in a["hands"]:
        for d in h["decisions"]:
            assert set(d["boards"]) == {"knew", "shown"} and d["played"] in d["words"]


@pytest.mark.parametrize("name,text", EXAMPLES_ONLY, ids=[n for n, _ in EXAMPLES_ONLY])
def test_web_analysis_of_the_first_hand(server, name, text):
    doc = rec.loads(text)
    doc["hands"] = doc["hands"][:1]
    check_web_analysis(server, doc)


@pytest.mark.slow
@pytest.mark.parametrize("name,text", EXAMPLES_ONLY, ids=[n for n, _ in EXAMPLES_ONLY])
def test_web_analysis_of_every_hand(server, name, text):
    check_web_analysis(server, rec.loads(text))
