"""`bonepile play` under a pseudo-terminal: a person types moves against random bots."""

from __future__ import annotations

import json
import os
import pathlib
import re
import signal
import sys

import pytest

from bonepile.cli.play import undo_person
from bonepile.engine import PASS, Game
from bonepile.engine import record as rec
from bonepile.engine.notation import normalize
from support import cli

pexpect = pytest.importorskip("pexpect")

SRC = str(pathlib.Path(__file__).resolve().parents[1] / "src")
PROMPT = "Your move> "
MOVES = re.compile(r"Moves: (.*)")


def spawn(*args: str, review: bool = False):
    """`bonepile play ARGS` in a pseudo-terminal (without the end-of-game review unless asked)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = SRC + os.pathsep + env.get("PYTHONPATH", "")
    env.update(TERM="xterm", NO_COLOR="1", COLUMNS="200")
    return pexpect.spawn(
        sys.executable,
        ["-m", "bonepile.cli", "play", *args, *(() if review else ("--no-review",))],
        env=env,
        encoding="utf-8",
        timeout=30,
        dimensions=(50, 200),
        # as from a person's terminal: Ctrl-C interrupts (a job started with & by a
        # non-interactive shell, as CI may be, passes SIGINT on ignored)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def moves_shown(text: str) -> list[str]:
    found = MOVES.findall(text)
    assert found, text
    return re.findall(r"\d+\) (\S+)", found[-1])


def play_to_the_end(child, *, first_commands=()) -> str:
    """Answer every prompt until the game ends; alternate typed tokens and list numbers."""
    pending = list(first_commands)
    turn = 0
    while True:
        i = child.expect([PROMPT, "Who leads", "Record saved", pexpect.EOF])
        if i == 0:
            if pending:
                child.sendline(pending.pop(0))
                continue
            moves = moves_shown(child.before)
            turn += 1
            child.sendline(moves[-1] if turn % 2 else "1")
        elif i == 1:
            child.sendline("partner" if turn % 2 else "me")
        else:
            break
    child.expect(pexpect.EOF)
    child.close()
    return child.before or ""


def test_a_whole_game_typed_with_bad_commands_and_undo(tmp_path):
    path = tmp_path / "game.record.json"
    child = spawn(
        "draw",
        "--players",
        "2",
        "--option",
        "target=30",
        "--bots",
        "random",
        "--seed",
        "4",
        "--record",
        str(path),
    )
    child.expect(PROMPT)
    first = moves_shown(child.before)
    # bad commands: a clear message and the prompt again
    child.sendline("nonsense")
    child.expect("Not a legal move")
    child.expect(PROMPT)
    child.sendline("99")
    child.expect("No move 99")
    child.expect(PROMPT)
    child.sendline("0-0@Q")
    child.expect("Not a legal move")
    child.expect(PROMPT)
    child.sendline("")
    child.expect("Type a move")
    child.expect(PROMPT)
    child.sendline("help")
    child.expect("Commands:")
    child.expect(PROMPT)
    child.sendline("undo")
    child.expect("Nothing to undo")
    child.expect(PROMPT)
    # a move, then undo: the same position comes back
    child.sendline("1")
    child.expect(PROMPT)
    child.sendline("undo")
    child.expect("Took back your last move")
    child.expect(PROMPT)
    assert moves_shown(child.before) == first
    child.sendline("board")
    child.expect("Table:")
    child.expect(PROMPT)
    child.sendline(first[0])  # a typed move token
    play_to_the_end(child)
    assert child.exitstatus == 0
    game = rec.read(str(path))
    assert game.over and max(game.totals) >= 30
    assert game.names[0] == "you"
    r = cli("replay", str(path), "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["finished"] is True


@pytest.mark.parametrize("how", ["eof", "interrupt", "quit"])
def test_leaving_mid_game_saves_a_record_that_replays(tmp_path, how):
    path = tmp_path / "left.record.json"
    child = spawn("cinque", "--bots", "random", "--seed", "9", "--record", str(path))
    child.expect(PROMPT)
    child.sendline("1")
    child.expect(PROMPT)
    if how == "eof":
        child.sendeof()
    elif how == "interrupt":
        child.sendintr()
    else:
        child.sendline("quit")
    child.expect("Record saved")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "Traceback" not in (child.before or "")
    game = rec.read(str(path))
    assert not game.over
    assert sum(len(h.log) for h in game.hands) >= 1


def test_quinientos_winning_side_chooses_the_leader(tmp_path):
    path = tmp_path / "q.record.json"
    child = spawn(
        "quinientos",
        "--option",
        "lead_rotation=winning_team_chooses",
        "--option",
        "target=150",
        "--bots",
        "random",
        "--seed",
        "2",
        "--seat",
        "1",
        "--record",
        str(path),
    )
    out = []
    asked = 0
    turn = 0
    while True:
        i = child.expect(
            [PROMPT, r"Who leads: me \(seat 1\) or partner \(Random bot 3, seat 3\)\? ", "Record saved"]
        )
        out.append(child.before)
        if i == 0:
            turn += 1
            child.sendline("1")
        elif i == 1:
            asked += 1
            if asked == 1:
                child.sendline("somebody")  # not an answer: asked again
                child.expect("Please answer me or partner")
                child.expect("Who leads")
            child.sendline("partner" if asked % 2 else "me")
        else:
            break
    child.expect(pexpect.EOF)
    child.close()
    game = rec.read(str(path))
    assert game.over
    doc = rec.loads(path.read_text())
    # after every hand the person's side (seats 1 and 3) won, the person's answer led
    for _prev, hand, res in zip(game.hands, doc["hands"][1:], game.result()["hands"]):
        if res["winner"] == 1:
            assert hand["leader"] in (1, 3)
    assert asked >= 1
    if asked:
        leaders = [h["leader"] for h, r in zip(doc["hands"][1:], game.result()["hands"]) if r["winner"] == 1]
        assert leaders[0] == 3  # the first answer was "partner"


def test_blind_game_shows_rows_and_plays_out(tmp_path):
    path = tmp_path / "b.record.json"
    child = spawn("blind-hugie", "--players", "2", "--bots", "random", "--seed", "1", "--record", str(path))
    child.expect("Your row: ")
    play_to_the_end(child)
    assert rec.read(str(path)).over


@pytest.mark.parametrize(
    "args, message",
    [
        (["draw", "--seat", "5"], "--seat must be 0 to 3"),
        (["draw", "--bots", "nope"], "unknown bot 'nope'"),
        (["draw", "--players", "2", "--bots", "random,random"], "--bots needs one level, or 1"),
        (["nope"], "unknown variant"),
        (["draw", "--option", "x=1"], "unknown option 'x'"),
    ],
)
def test_play_command_errors_are_one_line(args, message):
    r = cli("play", *args)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], r.stderr


def test_normalize_forgives_spelling():
    assert normalize("Draw") == "draw"
    assert normalize(" PASS ") == "pass"
    assert normalize("6-4 l") == "6-4@L"
    assert normalize("6-4@r") == "6-4@R"
    assert normalize("6 4") == "6-4"
    assert normalize("64") == "6-4"
    assert normalize("hello") == "hello"


def test_undo_takes_back_the_bots_moves_after_the_persons():
    game = Game.new("draw", {"players": 3}, seed=5)
    seat = game.to_move
    before = None
    while game.to_move == seat or before is None:
        if game.to_move == seat and len(game.legal_moves()) > 1:
            before = game.record()
            n_before = sum(len(h.log) for h in game.hands)
        game.apply(game.legal_moves()[0])
        if before is not None and game.to_move == seat:
            break
    back = undo_person(game, seat)
    assert back is not None
    assert sum(len(h.log) for h in back.hands) == n_before
    assert back.record() == before
    assert back.to_move == seat
    fresh = Game.new("draw", {"players": 3}, seed=5)
    assert undo_person(fresh, fresh.to_move) is None


# ------------------------------------------------------------------------------ the screen


def session(variant, options, seat=0, seed=3):
    import io

    from rich.console import Console

    from bonepile.cli.play import PlaySession
    from bonepile.engine import make_variant

    n = make_variant(variant, options).players
    levels = ["random"] * n
    levels[seat] = "you"
    console = Console(file=io.StringIO(), width=200, color_system=None)
    return PlaySession(variant, options, seat, levels, seed, "/dev/null", console)


def screen_text(s) -> str:
    return s.console.file.getvalue()


@pytest.mark.parametrize(
    "variant, options",
    [
        ("draw", {"players": 3}),
        ("cinque", {}),
        ("passing", {"players": 4}),
        ("blind-hugie", {"players": 2}),
        ("billitonnen", {"players": 4}),
        ("quinientos", {}),
        ("all-fives", {"players": 3}),
        ("muggins", {"players": 2}),
        ("fives-and-threes", {"players": 4, "teams": True}),
        ("dominican", {}),
        ("chicken-foot", {"players": 3, "rounds": 1}),
    ],
)
def test_the_screen_never_shows_hidden_tiles(variant, options):
    from bonepile.engine.tiles import HI, LO, NAME

    s = session(variant, options, seat=1)
    g = s.game
    rng = __import__("random").Random(0)
    checked = 0
    while not g.over and checked < 12:
        if not g.hands or g.hand.over:
            s.deal(g)
        s.announce()
        if g.to_move == s.seat:
            s.console.file.seek(0)
            s.console.file.truncate()
            s.render(g.view(s.seat))
            s.announce()
            text = screen_text(s)
            h = g.hand
            view = g.view(s.seat)
            hidden = set()
            for other in range(g.variant.players):
                if other != s.seat or h.rows is not None:  # blind: own rows are face down
                    hidden |= set(h.held(other))
            hidden -= {t for row in view.face_up for _, t in row}  # public: face up
            hidden.discard(view.turned_up)
            hidden |= set(h.boneyard[h.bpos :])
            for t in hidden:
                for shown in (NAME[t], f"{LO[t]}-{HI[t]}", f"[{HI[t]}|{LO[t]}]", f"[{LO[t]}|{HI[t]}]"):
                    assert shown not in text, (shown, text)
            checked += 1
        legal = g.legal_moves()
        g.apply(legal[rng.randrange(len(legal))])
    assert checked


def test_hint_shows_the_evaluation_or_says_why_not(monkeypatch):
    import bonepile.bots as bots
    from bonepile.bots import Evaluation

    s = session("draw", {"players": 2})
    s.deal(s.game)
    while s.game.to_move != 0:
        s.game.apply(s.game.legal_moves()[0])
    s.hint()  # the real expert
    out = screen_text(s)
    assert "The expert's view" in out
    assert any(tok.split("@")[0] in out for tok in s.game.legal_tokens())

    calls = []

    def fake_hint(game, *, seat=None, time=0.5, simulations=None, seed=0):
        calls.append(seat)
        return [
            ("6-4@L", Evaluation(1, 12.5, 0.75, "sheds weight")),
            ("pass", Evaluation(PASS, -3.0, None, "")),
        ]

    monkeypatch.setattr(bots, "hint", fake_hint, raising=False)
    s.hint()
    out = screen_text(s)
    assert calls == [0]
    assert "6-4@L" in out and "+12.5" in out and "75%" in out and "sheds weight" in out

    def broken(game, **kw):
        raise RuntimeError("no worlds")

    monkeypatch.setattr(bots, "hint", broken, raising=False)
    s.hint()
    assert "No hint available: no worlds" in screen_text(s)


def test_bots_are_named_as_people_read_them():
    """Not "casual1": a level's bot by its level, numbered only where two share it."""
    from bonepile.cli.play import bot_names

    assert bot_names(["you", "casual"], 0) == ["you", "Casual bot"]
    assert bot_names(["expert", "you", "casual", "expert"], 1) == [
        "Expert bot 1",
        "you",
        "Casual bot",
        "Expert bot 2",
    ]
    assert bot_names(["you", "mybots:Clever"], 0) == ["you", "Clever"]
    s = session("block", {"players": 2})
    assert not any(ch.isdigit() for ch in s.names[1])


def test_a_fives_and_threes_game_plays_out_in_the_terminal(tmp_path):
    # the first to 61 wins in the middle of a hand: the session ends there and saves the game
    path = tmp_path / "f.record.json"
    child = spawn(
        "fives-and-threes", "--players", "2", "--bots", "random", "--seed", "2", "--record", str(path)
    )
    play_to_the_end(child)
    game = rec.read(str(path))
    assert game.over and max(game.totals) >= 61
