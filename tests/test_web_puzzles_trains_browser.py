"""A Mexican Train puzzle on the puzzles page, as a person solves it: on a phone the trains are
the table's rows (your train, the Mexican train, the others' by who they are to you), the
right tile tapped, solved; on a laptop a tile that fits two trains, laid on the wrong one (the
better move worded on its train), then, tried again, laid on the right one by tapping the tile
and the train's "Play here" on the rows.
Screenshots go to artifacts/."""

from __future__ import annotations

import json

import pytest

import bonepile.web.routes.puzzles as routes
from bonepile.bots.budget import Budget
from bonepile.puzzles import store
from bonepile.puzzles.mine import MineConfig, mine
from bonepile.puzzles.moves import move_of
from puzzles_web import sign_in
from test_puzzles_trains import GAMES
from test_web_browser import ARTIFACTS, browser  # noqa: F401  (the fixture sized uses)
from test_web_history_browser import words
from webutil import InProcess

pytest_plugins = ["pages"]  # the sized page fixture


def _fixture_puzzle():
    path, move_no, _sol, least = GAMES["mexican-train"]
    found = mine([str(path)], budget=Budget(simulations=40), config=MineConfig(min_placed=least))
    return next(p for p in found if p.source.endswith(f"hand 1 move {move_no}"))


def _two_trains():
    """A shipped Mexican Train puzzle whose solution's tile fits two trains that play
    differently (the solver picks the train)."""
    for p in sorted(store.load("mexican-train"), key=lambda q: q.id):
        step = p.steps[0]
        view = step.view
        tile = step.solution.split("@")[0]
        if "@" in step.solution and len(p.steps) == 1:
            same = [m for m in view.legal if m < 2912 and m >> 5 == move_of(view, step.solution) >> 5]
            if len(same) > 1 and not step.alternatives:
                return p, tile
    return None, None


def web_token(p, k: int, token: str) -> str:
    view = p.steps[k].view
    return routes.move_token(view, routes.move_of(view, token))


@pytest.mark.browser
def test_a_train_puzzle_solved_by_tapping_on_a_phone_and_on_a_laptop(tmp_path, sized, monkeypatch):
    one = _fixture_puzzle()
    two, two_tile = _two_trains()
    offered = [one] + ([two] if two is not None else [])
    monkeypatch.setattr(routes, "_shipped", lambda: offered)
    monkeypatch.setattr(routes, "_daily", lambda day: one)
    ARTIFACTS.mkdir(exist_ok=True)
    en = words("en")
    with InProcess(f"sqlite:///{tmp_path}/p.db", puzzle_processes=False, puzzle_mining=0) as srv:
        ana = srv.post("/api/profiles", {"name": "Ana"}).json()
        stored = json.dumps({"id": ana["id"], "key": ana["key"]})

        # ---- a phone: the trains drawn as rows, the right tile tapped
        page = sized("phone")
        sign_in(page, stored, "en")
        page.goto(f"{srv.http}/puzzles?id={one.id}")
        page.wait_for_selector("#pz-hand button.playable")
        rows = page.locator(".rows-board[data-kind='trains']")
        assert rows.is_visible()
        view = one.steps[0].view
        # every train of the table is a row; the solver's own train is marked and named so
        assert page.locator(".rows-arm").count() == view.players + 1
        mine_row = page.locator(".rows-arm.mine")
        assert mine_row.count() == 1 and mine_row.get_attribute("data-arm") == str(one.seat + 1)
        assert en["trains.yours"] in mine_row.inner_text()
        assert page.locator(".rows-arm[data-arm='M']").count() == 1
        # the trains the solver may play on now are marked
        sol = web_token(one, 0, one.steps[0].solution)
        assert page.locator(f".rows-arm.playable[data-arm='{sol.split('@')[1]}']").count() == 1
        # the hand so far words a move on a train with whose train it is
        history = page.locator("#pz-history").inner_text()
        assert " on " in history and "train" in history
        page.screenshot(path=str(ARTIFACTS / "puzzles_trains_phone_start.png"))
        page.click(f"#pz-hand button[data-tile='{sol.split('@')[0]}']")
        page.wait_for_selector("#pz-verdict[data-result='solved']")
        assert page.locator("#pz-verdict h3").inner_text() == en["puzzles.solved"]
        assert "1500 →" in page.locator("#pz-verdict .pz-change").inner_text()
        page.screenshot(path=str(ARTIFACTS / "puzzles_trains_phone_solved.png"))

        # ---- a laptop: a wrong tile, the better move on its train; then a train chosen
        desk = sized("laptop")
        desk.context.add_init_script(
            f"localStorage.setItem('bonepile:profile', {json.dumps(stored)});"
            "localStorage.setItem('bonepile:lang', 'en');"
        )
        p = two if two is not None else one
        desk.goto(f"{srv.http}/puzzles?id={p.id}")
        desk.wait_for_selector("#pz-hand button.playable")
        better = web_token(p, 0, p.steps[0].solution)
        view = p.steps[0].view
        # another decision: another tile, or the same tile on a train that plays otherwise
        wrong = next(
            routes.move_token(view, m)
            for m in view.legal
            if m < 2912 and routes.move_token(view, m) != better
        )
        tap_on_rows(desk, wrong)
        desk.wait_for_selector("#pz-verdict[data-result='wrong']")
        assert desk.locator("#pz-verdict [data-better]").get_attribute("data-better") == better
        said = desk.locator("#pz-verdict [data-better]").inner_text()
        assert better.split("@")[0] in said and "train" in said, said
        assert desk.locator("#pz-hand button.better").get_attribute("data-tile") == better.split("@")[0]
        # the rows show the better move laid, marked as the last tile
        assert desk.locator(f".rows-tiles li.last[data-arm='{better.split('@')[1]}']").count() == 1
        desk.screenshot(path=str(ARTIFACTS / "puzzles_trains_laptop_wrong.png"))
        desk.click("#pz-retry")
        tap_on_rows(desk, better)
        desk.wait_for_selector("#pz-verdict[data-result='solved']")
        desk.screenshot(path=str(ARTIFACTS / "puzzles_trains_laptop_solved.png"))
        if two is not None:
            assert two_tile == better.split("@")[0]


def tap_on_rows(page, token: str) -> None:
    """Tap the token's tile; where it fits trains that play differently, tap "Play here" on
    the token's train (the row)."""
    tile, arm = token.split("@")
    page.click(f"#pz-hand button[data-tile='{tile}']")
    page.wait_for_function(
        "([a]) => document.querySelector('#pz-verdict:not([hidden])') || "
        "document.querySelector(`.rows-arm[data-arm='${a}'] button.rows-play`)",
        arg=[arm],
    )
    here = page.locator(f".rows-arm[data-arm='{arm}'] button.rows-play")
    if here.count():
        here.click()
