"""Puzzles on the web (issue 30): a puzzle's first position, a move judged at each step (right:
the replies and the next position; right at the last step: solved; wrong: the better move),
the puzzle rating moved both ways and only by a profile's first attempt at a puzzle, the
errors with their codes, the choice of the next puzzle, the hidden check (nothing in an answer
the seat could not see then, no solution before the step is answered), and the server mining
its own finished games into new puzzles."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

import bonepile.web.jobs.puzzles as jobs
import bonepile.web.routes.puzzles as routes
from bonepile.engine.tiles import NAME
from bonepile.web.app import create_app
from bonepile.web.store import puzzles as store
from puzzles_web import build, puzzle_client
from webutil import bad_keys, hidden_from, tiles_in, wait_until

TWO = build(2)  # a line of two moves of one seat, with the others' replies between
ONE = build(1, 1)  # a puzzle of one move


@pytest.fixture
def offered(monkeypatch):
    """The server offers these two puzzles (instead of the shipped set); TWO is today's."""
    monkeypatch.setattr(routes, "_shipped", lambda: [TWO.puzzle, ONE.puzzle])
    monkeypatch.setattr(routes, "_daily", lambda day: TWO.puzzle)


@pytest.fixture
def client(tmp_path, offered):
    with puzzle_client(tmp_path) as c:
        yield c


def profile(c: TestClient, name: str = "Ana") -> dict[str, str]:
    key = c.post("/api/profiles", json={"name": name}).json()["key"]
    return {"Authorization": f"Bearer {key}"}


def move(c: TestClient, pid: str, step: int, mv: str, line: list[str], headers=None):
    return c.post(
        f"/api/puzzles/{pid}/moves", json={"step": step, "move": mv, "line": line}, headers=headers or {}
    )


def solutions(b) -> list[str]:
    return [s.solution for s in b.puzzle.steps]


# ---------------------------------------------------------------------------- the flow
def test_a_line_solved_step_by_step_raises_the_rating_once(client):
    me = profile(client)
    p = TWO.puzzle
    got = client.get(f"/api/puzzles/{p.id}", headers=me).json()
    assert (got["id"], got["steps"], got["step"], got["daily"], got["tried"]) == (p.id, 2, 0, True, False)
    held = {NAME[t] for t in TWO.positions[0].held(p.seat)}
    assert set(got["view"]["hand"]) == held and got["view"]["seat"] == p.seat
    assert got["game"]["label_key"] == "variant.block.name" and got["rating"] == 1500
    first, second = solutions(TWO)
    r = move(client, p.id, 0, first, [], me).json()
    assert (r["correct"], r["done"], r["better"], r["rating"], r["themes"]) == (True, False, None, None, None)
    # the replies are the next position's last events, and the next step's view is the truth's
    assert [e["seat"] for e in r["replies"]] == [(p.seat + i) % 4 for i in (1, 2, 3)]
    assert r["next"]["step"] == 1
    assert r["next"]["view"]["hand"] == routes.step_view_json(p, 1)["hand"]
    assert len(r["next"]["view"]["history"]) == len(got["view"]["history"]) + 4
    done = move(client, p.id, 1, second, [first], me).json()
    assert (done["correct"], done["done"], done["counted"]) == (True, True, True)
    assert done["rating"]["before"] == 1500 and done["rating"]["after"] > 1500
    assert done["rating"]["change"] == done["rating"]["after"] - 1500
    assert done["themes"] == [{"code": "block_next", "key": "puzzles.theme.block_next"}]
    mine = client.get("/api/puzzles/me", headers=me).json()["rating"]
    assert (mine["rating"], mine["attempts"], mine["solved"]) == (done["rating"]["after"], 1, 1)
    # solved again: no rating changes
    again = move(client, p.id, 1, second, [first], me).json()
    assert (again["correct"], again["counted"], again["rating"]) == (True, False, None)
    assert client.get("/api/puzzles/me", headers=me).json()["rating"] == mine
    assert client.get(f"/api/puzzles/{p.id}", headers=me).json()["tried"] is True


def test_a_wrong_move_says_the_better_one_and_lowers_the_rating_once(client):
    me = profile(client)
    p = ONE.puzzle
    r = move(client, p.id, 0, ONE.wrong[0], [], me).json()
    assert (r["correct"], r["done"], r["counted"]) == (False, True, True)
    # the better move, written as the page's moves are (a later tile with its end)
    assert r["better"] == routes.move_token(
        p.steps[0].view, routes.move_of(p.steps[0].view, p.steps[0].solution)
    )
    assert r["better"] in {m["move"] for m in routes.step_view_json(p, 0)["legal"]}
    # the board after the better move: its tile laid at its end, the rest as it was
    before = routes.step_view_json(p, 0)["layout"]
    tile, arm = r["better"].split("@")
    assert r["board"]["tile"] == tile
    assert r["board"]["layout"]["arms"][arm][:-1] == before["arms"].get(arm, [])
    assert r["board"]["layout"]["arms"][arm][-1]["tile"] == tile
    assert r["rating"]["after"] < 1500 and r["rating"]["change"] < 0
    assert all(isinstance(x, dict) and "code" in x for x in r["reasons"])
    # tried again and solved: right, but the first attempt was the one rated
    again = move(client, p.id, 0, p.steps[0].solution, [], me).json()
    assert (again["correct"], again["counted"], again["rating"]) == (True, False, None)
    mine = client.get("/api/puzzles/me", headers=me).json()["rating"]
    assert (mine["rating"], mine["attempts"], mine["solved"]) == (r["rating"]["after"], 1, 0)


def test_without_a_profile_nothing_is_rated(client):
    r = move(client, ONE.puzzle.id, 0, ONE.puzzle.steps[0].solution, []).json()
    assert (r["correct"], r["done"], r["counted"], r["rating"]) == (True, True, False, None)
    assert client.get("/api/puzzles").json()["rating"] is None
    assert client.get("/api/puzzles/me").status_code == 401


def test_the_puzzle_moves_too_and_the_store_counts_an_attempt_once(client):
    engine = client.app.state.server.store.engine
    first = store.rate_attempt(engine, "p1", ONE.puzzle.id, 1500.0, True)
    assert first is not None and first.after.r > 1500 > first.puzzle.r
    assert store.rate_attempt(engine, "p1", ONE.puzzle.id, 1500.0, False) is None
    failed = store.rate_attempt(engine, "p2", ONE.puzzle.id, 1500.0, False)
    assert failed is not None and failed.after.r < 1500
    # the puzzle was rated from where the first attempt left it, and now it is harder
    it = store.puzzle_ratings(engine)[ONE.puzzle.id]
    assert (it.attempts, it.solved) == (2, 1) and it.rating.r > first.puzzle.r
    assert store.attempted(engine, "p1") == {ONE.puzzle.id: True}


# ---------------------------------------------------------------------------- errors
def test_errors_are_answers_with_a_code(client):
    p = TWO.puzzle
    first = solutions(TWO)[0]
    cases = [
        (client.get("/api/puzzles/nope"), 404, "no_puzzle"),
        (client.get("/api/puzzles/" + "x" * 80), 404, "no_puzzle"),
        (move(client, "nope", 0, first, []), 404, "no_puzzle"),
        (move(client, p.id, 1, solutions(TWO)[1], []), 409, "puzzle_step"),  # step 0 not answered
        (move(client, p.id, 1, solutions(TWO)[1], [TWO.wrong[0]]), 409, "puzzle_step"),  # nor rightly
        (move(client, p.id, 2, first, [first, first]), 409, "puzzle_step"),  # no such step
        (move(client, p.id, 0, "6-6@L", []), 400, "puzzle_move"),  # not legal here
        (move(client, p.id, 0, "x" * 40, []), 400, "puzzle_move"),
        (client.post(f"/api/puzzles/{p.id}/moves", content=b"[1]"), 400, "bad_request"),
        (client.post(f"/api/puzzles/{p.id}/moves", content=b"{"), 400, "not_json"),
        (client.get("/api/puzzles/next?theme=nope"), 400, "bad_request"),
        (client.get("/api/puzzles/next?game=draw"), 404, "no_puzzles"),
        (client.get("/api/puzzles", headers={"Authorization": "Bearer wrong"}), 401, "profile_key"),
    ]
    for r, status, code in cases:
        assert (r.status_code, r.json()["code"]) == (status, code), r.text
        assert "Traceback" not in r.text


# ---------------------------------------------------------------------------- choosing
def test_next_offers_a_puzzle_not_tried_then_the_overview_counts(client):
    me = profile(client)
    o = client.get("/api/puzzles", headers=me).json()
    assert o["total"] == 2 and o["daily"] == TWO.puzzle.id and o["rating"] is None
    assert o["games"] == [{**routes.game_of(TWO.puzzle), "count": 2}]
    assert o["themes"] == [{"code": "block_next", "key": "puzzles.theme.block_next", "count": 2}]
    move(client, ONE.puzzle.id, 0, ONE.wrong[0], [], me)
    for _ in range(5):  # never the one tried while another is left
        assert (
            client.get("/api/puzzles/next?game=block&theme=block_next", headers=me).json()["id"]
            == TWO.puzzle.id
        )
    assert client.get("/api/puzzles/daily", headers=me).json()["id"] == TWO.puzzle.id
    # "after": not the puzzle just played, when there is another
    assert client.get(f"/api/puzzles/next?after={TWO.puzzle.id}").json()["id"] == ONE.puzzle.id


# ---------------------------------------------------------------------------- hidden information
def test_no_answer_names_a_tile_the_seat_could_not_see_nor_the_solution_early(client):
    me = profile(client)
    p = TWO.puzzle
    seat = p.seat
    first, second = solutions(TWO)
    got = client.get(f"/api/puzzles/{p.id}", headers=me)
    answers = [(got, 0), (client.get("/api/puzzles/next", headers=me), None)]
    wrong = move(client, p.id, 0, TWO.wrong[0], [], me)
    answers.append((wrong, 0))
    right = move(client, p.id, 0, first, [], me)
    answers.append((right, 1))  # it shows step 1's position
    answers.append((move(client, p.id, 1, TWO.wrong[1], [first], me), 1))
    answers.append((move(client, p.id, 1, second, [first], me), 1))
    for r, k in answers:
        body = r.json()
        assert r.status_code == 200 and bad_keys(body) == []
        if k is None:
            continue
        hidden = hidden_from(TWO.positions[k], seat)
        assert not tiles_in(body) & hidden, (k, tiles_in(body) & hidden)
    # before a step is answered nothing in the answer tells its solution
    text = got.text
    for word in ("solution", "alternatives", "values", "replies", "source", "facts"):
        assert f'"{word}"' not in text
    assert json.loads(text)["view"]["hand"]  # the seat's own tiles are there
    assert "next" not in wrong.json() or wrong.json()["next"] is None


# ---------------------------------------------------------------------------- mining
def test_the_server_mines_its_finished_games_into_puzzles(tmp_path, offered, monkeypatch):
    from test_web_history import make, play
    from webutil import InProcess

    mined: list[str] = []

    def fake_mine(record, simulations, seed):  # the miner's worker, without the search
        mined.append(record["variant"])
        return [ONE.puzzle.to_dict() | {"id": "mined00001"}]

    monkeypatch.setattr(jobs, "mine_record", fake_mine)
    with InProcess(
        f"sqlite:///{tmp_path}/m.db", grace=1000, hand_pause=0, puzzle_processes=False, puzzle_mining=0.05
    ) as s:
        ana = make(s, "Ana")
        tid = play(s, ana["key"])  # (a private table is never mined: the claim's test)
        engine = s.server.store.engine
        wait_until(lambda: store.mined(engine), 30, "a finished game mined")
        assert mined == ["block"]
        with engine.connect() as c:
            rows = c.execute(store.puzzle_mined_tables_t.select()).all()
        assert [(r.table_id, r.found) for r in rows] == [(tid, 1)]
        got = s.get("/api/puzzles/mined00001")
        assert got.status_code == 200 and got.json()["id"] == "mined00001"
        assert s.get("/api/puzzles").json()["total"] == 3


def test_with_no_puzzle_shipped_the_answers_say_so(tmp_path, monkeypatch):
    def none(day):
        raise routes.PuzzleError("puzzle.unknown", "no shipped puzzle")

    monkeypatch.setattr(routes, "_shipped", lambda: [])
    monkeypatch.setattr(routes, "_daily", none)
    app = create_app(f"sqlite:///{tmp_path}/db", bot_processes=False, puzzle_processes=False, puzzle_mining=0)
    with TestClient(app) as c:
        o = c.get("/api/puzzles").json()
        assert (o["total"], o["daily"], o["games"], o["themes"]) == (0, None, [], [])
        for path in ("/api/puzzles/daily", "/api/puzzles/next"):
            r = c.get(path)
            assert (r.status_code, r.json()["code"]) == (404, "no_puzzles")


def test_puzzles_another_worker_mined_are_offered_once_storage_is_read_again(client, monkeypatch):
    engine = client.app.state.server.store.engine
    assert client.get("/api/puzzles").json()["total"] == 2  # the book is read
    body = ONE.puzzle.to_dict() | {"id": "other00001"}
    assert store.add_mined(engine, "t1", [("other00001", "block", body)]) == 1
    assert store.add_mined(engine, "t1", [("other00001", "block", body)]) == 0  # mined once
    assert client.get("/api/puzzles/other00001").status_code == 404  # not read again yet
    monkeypatch.setattr(routes, "REREAD", 0.0)
    assert client.get("/api/puzzles/other00001").json()["id"] == "other00001"
    assert client.get("/api/puzzles").json()["total"] == 3


def test_a_finished_table_is_claimed_by_one_miner_and_given_back_if_its_worker_dies(client, monkeypatch):
    from bonepile.web.store.database import results_t

    engine = client.app.state.server.store.engine
    with engine.begin() as c:
        for i, private in enumerate((False, False, True)):
            c.execute(
                results_t.insert().values(
                    table_id=f"t{i}", variant="block", players=2, created=i, finished=i, sides="[[0],[1]]",
                    totals="[1,0]", winner=0, hands=1, rated=False, private=private,
                )
            )  # fmt: skip
    # the most recent first, each claimed once, never the private one
    assert [store.claim_table(engine) for _ in range(3)] == ["t1", "t0", None]
    store.release_table(engine, "t0")  # its worker died: mined again later
    assert store.claim_table(engine) == "t0"
    assert store.add_mined(engine, "t0", []) == 0
    store.release_table(engine, "t0")  # a mined table is not given back
    assert store.claim_table(engine) is None
    monkeypatch.setattr(store, "STALE", -1.0)  # t1's claim is left by a miner that stopped
    assert store.claim_table(engine) == "t1"
