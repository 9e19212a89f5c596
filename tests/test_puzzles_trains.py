"""Puzzles of the train layouts (Mexican Train and Chicken Foot, RULES.md §15-16): mined from a
recorded game by the same tests as every other game (more margin deals, the same threshold),
the answer the exact solver agrees with in the game's real deal, the move written in the
engine's notation for trains and arms, a wrong answer judged wrong, nothing hidden in a puzzle
or in what the web server answers, and `bonepile puzzles` showing and taking a train puzzle."""

from __future__ import annotations

import json
import pathlib

import pytest

import bonepile.web.routes.puzzles as routes
from bonepile.analysis.exact import Solver
from bonepile.bots.budget import Budget
from bonepile.engine import make_variant
from bonepile.engine import record as rec
from bonepile.engine.notation import token
from bonepile.engine.tiles import NAME
from bonepile.engine.view import hand_view
from bonepile.puzzles import store
from bonepile.puzzles.judge import judge
from bonepile.puzzles.mine import MineConfig, margin_deals, mine
from bonepile.puzzles.model import Puzzle
from bonepile.puzzles.moves import PuzzleError, choices, move_of
from puzzles_web import puzzle_client
from support import cli, tiles_named, unseen_set
from webutil import bad_keys, hidden_from, tiles_in

FIXTURES = pathlib.Path(__file__).parent / "fixtures" / "puzzles"

#: per game: a recorded game's first hand, the position (1-based move of the hand) holding a
#: puzzle, its solution, and the least number of tiles down for a position to be looked at
#: (the last moves of the hand: a test mines in a second or two)
GAMES = {
    "mexican-train": (FIXTURES / "mexican-train-game.record.json", 78, "7-7", 50),
    "chicken-foot": (FIXTURES / "chicken-foot-game.record.json", 99, "0-0", 37),
}


def _mine(variant: str, stats: dict[str, int] | None = None) -> list[Puzzle]:
    path, _move, _sol, least = GAMES[variant]
    return list(
        mine([str(path)], budget=Budget(simulations=40), config=MineConfig(min_placed=least), stats=stats)
    )


@pytest.fixture(scope="module")
def mined() -> dict[str, list[Puzzle]]:
    return {name: _mine(name) for name in GAMES if GAMES[name][1] is not None}


def _position(variant: str, p: Puzzle, step: int = 0):
    """The hand, as it really was, at step ``step`` of puzzle ``p`` (from the record)."""
    path = GAMES[variant][0]
    game = rec.read(str(path))
    hand_no, move_no = (int(x) for x in p.source.split(" hand ")[1].split(" move "))
    src = game.hands[hand_no - 1]
    h = src.fresh()
    for _seat, m, _ in src.log[: move_no - 1 + step]:
        h.apply(m)
    return game, h


# ------------------------------------------------------------------ mining
def test_the_train_layouts_measure_the_margin_on_three_times_the_deals():
    assert margin_deals(make_variant("block", {"players": 4}), 40) == 40
    assert margin_deals(make_variant("cinque", {}), 40) == 40
    assert margin_deals(make_variant("mexican-train", {"players": 4}), 40) == 120
    assert margin_deals(make_variant("chicken-foot", {"players": 3}), 40) == 120


@pytest.mark.parametrize("variant", [n for n in GAMES if GAMES[n][1] is not None])
def test_mining_a_train_game_finds_its_known_puzzle_and_the_exact_solver_agrees(variant, mined):
    _path, move_no, solution, _least = GAMES[variant]
    found = mined[variant]
    p = next(q for q in found if q.source.endswith(f"hand 1 move {move_no}"))
    assert p.variant == variant and p.steps[0].solution == solution
    assert p.facts["lower"] > 5 and p.facts["agree"] >= 0.9 and p.facts["decisions"] >= 2
    assert any(x > 0 for x in p.facts["missed"].values())  # not obvious to every weaker bot
    game, h = _position(variant, p)
    view = p.steps[0].view
    # the step is the seat's censored view of the real position, and the solution's text is
    # the engine's own token of that move there (a train or an arm named where two take it)
    assert view == hand_view(h, p.seat, 1) and h.to_move == p.seat
    m = move_of(view, solution)
    assert h.check(m) == m and token(h, m) == solution
    # with every hand and the boneyard shown, the real deal's best move is the solution
    vals = Solver(game.variant).values(h)
    top = max(x.score for x in vals.values())
    assert vals[m].score == pytest.approx(top)
    others = [x for x in vals if h.mirror_key(x) != h.mirror_key(m)]
    assert others and all(vals[x].score < top for x in others)


def test_mining_a_train_game_again_finds_the_same_puzzles(mined):
    again = _mine("mexican-train")
    assert [q.to_dict() for q in again] == [q.to_dict() for q in mined["mexican-train"]]


@pytest.mark.parametrize("variant", [n for n in GAMES if GAMES[n][1] is not None])
def test_a_train_puzzle_is_judged_right_and_wrong(variant, mined):
    _path, move_no, solution, _least = GAMES[variant]
    p = next(q for q in mined[variant] if q.source.endswith(f"hand 1 move {move_no}"))
    view = p.steps[0].view
    v = make_variant(p.variant, p.options)
    right = judge(p, 0, solution)
    assert right.correct and right.done and right.better == ""
    # the same move written with its train or arm, in any case, is the same answer
    arm_token = next(t for t in (f"{solution}@{a}" for a in "12345678MABCDEFGHIJ") if _legal(view, t))
    assert judge(p, 0, arm_token).correct and judge(p, 0, arm_token.lower()).correct
    wrong_tokens = [t for t in choices(v, view) if move_of(view, t) != move_of(view, solution)]
    assert wrong_tokens
    for tok in wrong_tokens:
        w = judge(p, 0, tok)
        assert not w.correct and w.done and w.better == solution
        assert w.loss is not None and w.loss > 5 and w.words.startswith(f"{solution} was better")
    with pytest.raises(PuzzleError) as e:
        judge(p, 0, "12-12@M")
    assert e.value.code == "puzzle.not_legal"


def _legal(view, tok: str) -> bool:
    try:
        move_of(view, tok)
    except PuzzleError:
        return False
    return True


@pytest.mark.parametrize("variant", [n for n in GAMES if GAMES[n][1] is not None])
def test_a_mined_train_puzzle_names_no_tile_its_seat_could_not_see(variant, mined):
    for p in mined[variant]:
        v = make_variant(p.variant, p.options)
        text = json.dumps(p.to_dict())
        _game, h = _position(variant, p)
        hidden = {t for t in range(v.n_tiles) if NAME[t] in hidden_from(h, p.seat)}
        assert hidden  # the others hold tiles, the boneyard too
        assert not tiles_named(text, v.n_tiles) & hidden, (
            p.id,
            sorted(NAME[t] for t in tiles_named(text, v.n_tiles) & hidden),
        )
        # nor does any verdict, right or wrong
        for k, step in enumerate(p.steps):
            for tok in choices(v, step.view):
                verdict = judge(p, k, tok)
                told = p.steps[k + 1].view if verdict.correct and not verdict.done else step.view
                assert not tiles_named(json.dumps(verdict.to_dict()), v.n_tiles) & unseen_set(told)


# ------------------------------------------------------------------ the web server
@pytest.fixture
def train_client(tmp_path, monkeypatch, mined):
    offered = [q for name in mined for q in mined[name]]
    monkeypatch.setattr(routes, "_shipped", lambda: offered)
    monkeypatch.setattr(routes, "_daily", lambda day: offered[0])
    with puzzle_client(tmp_path) as c:
        yield c


@pytest.mark.parametrize("variant", [n for n in GAMES if GAMES[n][1] is not None])
def test_the_web_server_serves_a_train_puzzle_and_hides_what_it_must(variant, mined, train_client):
    c = train_client
    _path, move_no, solution, _least = GAMES[variant]
    p = next(q for q in mined[variant] if q.source.endswith(f"hand 1 move {move_no}"))
    _game, h = _position(variant, p)
    hidden = hidden_from(h, p.seat)
    got = c.get(f"/api/puzzles/{p.id}")
    body = got.json()
    assert got.status_code == 200 and bad_keys(body) == []
    assert body["game"]["variant"] == variant and body["game"]["label_key"] == f"variant.{variant}.name"
    assert body["view"]["layout"]["kind"] == ("trains" if variant == "mexican-train" else "foot")
    assert set(body["view"]["hand"]) == {NAME[t] for t in h.held(p.seat)}
    assert not tiles_in(body) & hidden, tiles_in(body) & hidden
    for word in ("solution", "alternatives", "values", "replies", "source", "facts"):
        assert f'"{word}"' not in got.text
    # the page's moves name their train or arm; the solution, written so, is right
    legal = [m["move"] for m in body["view"]["legal"] if m["kind"] == "play"]
    assert legal and all("@" in m for m in legal)
    sol = routes.move_token(p.steps[0].view, move_of(p.steps[0].view, solution))
    wrong = next(m for m in legal if m.split("@")[0] != solution.split("@")[0])
    w = c.post(f"/api/puzzles/{p.id}/moves", json={"step": 0, "move": wrong, "line": []}).json()
    assert (w["correct"], w["done"], w["better"]) == (False, True, sol)
    assert (
        w["board"]["tile"] == solution.split("@")[0]
        and w["board"]["layout"]["kind"] == body["view"]["layout"]["kind"]
    )
    r = c.post(f"/api/puzzles/{p.id}/moves", json={"step": 0, "move": sol, "line": []}).json()
    assert (r["correct"], r["done"]) == (True, len(p.steps) == 1)
    for answer in (w, r):
        assert bad_keys(answer) == [] and not tiles_in(answer) & hidden
    overview = c.get("/api/puzzles").json()
    assert variant in {g["variant"] for g in overview["games"]}
    nxt = c.get(f"/api/puzzles/next?game={variant}").json()
    assert nxt["game"]["variant"] == variant


# ------------------------------------------------------------------ the terminal
def test_solving_a_mexican_train_puzzle_in_the_terminal(tmp_path, mined):
    p = next(q for q in mined["mexican-train"] if q.source.endswith("hand 1 move 78"))
    path = tmp_path / "p.json"
    store.write_file(path, [p])
    r = cli("puzzles", "--file", str(path), "--variant", "mexican-train", input="help\n7-7\n")
    assert r.returncode == 0, r.stderr
    assert "12-3@1" in r.stdout  # the help names a train's token
    # the trains as the seat sees them, its own two tiles, the moves to choose from
    assert "Mexican train" in r.stdout and "your train" in r.stdout and "Hub: [12|12]" in r.stdout
    assert "Your hand: [ 7| 7]*[ 7| 2]*" in r.stdout
    assert "Moves: 1) 7-2  2) 7-7" in r.stdout
    assert "Solved!" in r.stdout and "Solved 1 of 1" in r.stdout
    r = cli("puzzles", "--file", str(path), input="1\n")
    assert "Not the best. 7-7 was better" in r.stdout and "Solved 0 of 1" in r.stdout


def test_the_mine_command_mines_a_train_game(tmp_path):
    # the whole hand, on few deals (the command's path, not the puzzles: those are above)
    doc = json.loads(GAMES["mexican-train"][0].read_text())
    h = doc["hands"][0]
    out = tmp_path / "found.json"
    r = cli("puzzles", "mine", str(GAMES["mexican-train"][0]), "--out", str(out), "--simulations", "4")
    assert r.returncode == 0, r.stderr
    got = store.read_file(out)
    assert all(q.variant == "mexican-train" for q in got)
    assert f"{len(got)} puzzles from {len(h['moves'])} positions" in r.stdout


def test_the_servers_miner_bounds_a_train_game_by_the_deals_it_takes(monkeypatch):
    import bonepile.puzzles.mine as pm
    import bonepile.web.jobs.puzzles as jobs

    seen: list[dict] = []
    monkeypatch.setattr(pm, "mine", lambda records, **kw: seen.append(records[0]) or [])
    monkeypatch.setattr(jobs, "MAX_MOVES", 300)
    doc = json.loads(GAMES["mexican-train"][0].read_text())
    hand = doc["hands"][0]  # 79 moves: 237 at three times the deals
    assert len(hand["moves"]) == 79
    jobs.mine_record({**doc, "hands": [hand, hand, hand]}, 48, 0)
    assert len(seen[-1]["hands"]) == 1  # a second hand would make 474
    # a line game's move counts once: 3 x 79 = 237 moves, all mined
    line = {**doc, "variant": "block", "options": {"players": 4}, "hands": [hand, hand, hand]}
    jobs.mine_record(line, 48, 0)
    assert len(seen[-1]["hands"]) == 3
    # a first hand over the bound: nothing is mined
    monkeypatch.setattr(jobs, "MAX_MOVES", 200)
    seen.clear()
    assert jobs.mine_record(doc, 48, 0) == [] and seen == []
