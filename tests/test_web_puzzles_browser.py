"""The puzzles page as a person uses it, on a phone (Spanish) and a laptop (English) in one
walk: a line of two moves solved by tapping tiles (and an end where a tile fits two), the
rating going up; another puzzle answered wrongly, the better tile shown; the puzzle rating on
/me; no serious accessibility problem (axe, on the verdict of a wrong move).  Screenshots go to artifacts/."""

from __future__ import annotations

import json

import pytest

import bonepile.web.routes.puzzles as routes
from puzzles_web import build, sign_in
from test_web_axe import axe_problems
from test_web_browser import ARTIFACTS, browser  # noqa: F401  (the fixture sized uses)
from test_web_history_browser import words
from webutil import InProcess

pytest_plugins = ["pages"]  # the sized page fixture

TWO = build(2)
ONE = build(1, 1)


def web_token(p, k: int, token: str) -> str:
    """A step's token as the page's moves write it (a later tile with its end)."""
    view = p.steps[k].view
    return routes.move_token(view, routes.move_of(view, token))


def tap(page, token: str) -> None:
    """Tap the token's tile; where it fits two ends that play differently, tap the end."""
    tile = token.split("@")[0]
    page.click(f"#pz-hand button[data-tile='{tile}']")
    end = page.locator(f"#pz-actions button[data-move='{token}']")
    page.wait_for_function(
        "([t]) => document.querySelector('#pz-verdict:not([hidden])') || "
        "document.querySelector(`#pz-actions button[data-move='${t}']`)",
        arg=[token],
    )
    if end.count():
        end.click()


@pytest.mark.browser
def test_a_puzzle_solved_by_tapping_on_a_phone_and_one_missed_on_a_laptop(tmp_path, sized, monkeypatch):
    monkeypatch.setattr(routes, "_shipped", lambda: [TWO.puzzle, ONE.puzzle])
    monkeypatch.setattr(routes, "_daily", lambda day: TWO.puzzle)
    ARTIFACTS.mkdir(exist_ok=True)
    with InProcess(f"sqlite:///{tmp_path}/p.db", puzzle_processes=False, puzzle_mining=0) as srv:
        ana = srv.post("/api/profiles", {"name": "Ana"}).json()
        stored = json.dumps({"id": ana["id"], "key": ana["key"]})

        # ---- a phone, in Spanish: the line of two moves, solved
        page = sized("phone")
        sign_in(page, stored, "es")
        es = words("es")
        p = TWO.puzzle
        page.goto(f"{srv.http}/puzzles?id={p.id}")
        page.wait_for_selector("#pz-hand button.playable")
        assert page.locator("#pz-task").inner_text() == es["puzzles.task_step"].format(k=1, n=2)
        assert page.locator("#pz-history li").count() == len(p.steps[0].view.history)
        page.screenshot(path=str(ARTIFACTS / "puzzles_phone_start.png"))
        tap(page, web_token(p, 0, p.steps[0].solution))
        page.wait_for_selector("#pz-verdict[data-result='right']")
        assert page.locator("#pz-verdict h3").inner_text() == es["puzzles.right"]
        assert page.locator("#pz-task").inner_text() == es["puzzles.task_step"].format(k=2, n=2)
        # the replies joined the hand so far: the next position is drawn
        assert page.locator("#pz-history li").count() == len(p.steps[1].view.history)
        tap(page, web_token(p, 1, p.steps[1].solution))
        page.wait_for_selector("#pz-verdict[data-result='solved']")
        assert page.locator("#pz-verdict h3").inner_text() == es["puzzles.solved"]
        assert "1500 →" in page.locator("#pz-verdict .pz-change").inner_text()
        with srv.client() as c:
            now = c.get("/api/puzzles/me", headers={"Authorization": f"Bearer {ana['key']}"}).json()["rating"]
        shown = es["puzzles.rating_mine"].format(rating=now["rating"], n=1, solved=1)
        page.wait_for_function("([w]) => document.querySelector('#pz-rating').textContent === w", arg=[shown])
        assert f"1500 → {now['rating']}" in page.locator("#pz-verdict .pz-change").inner_text()
        page.screenshot(path=str(ARTIFACTS / "puzzles_phone_solved.png"))

        # ---- a laptop, in English: a wrong move, the better tile shown, then /me
        desk = sized("laptop")
        desk.context.add_init_script(
            f"localStorage.setItem('bonepile:profile', {json.dumps(stored)});"
            "localStorage.setItem('bonepile:lang', 'en');"
        )
        en = words("en")
        q = ONE.puzzle
        desk.goto(f"{srv.http}/puzzles?id={q.id}")
        desk.wait_for_selector("#pz-hand button.playable")
        tap(desk, ONE.wrong[0])
        desk.wait_for_selector("#pz-verdict[data-result='wrong']")
        better = web_token(q, 0, q.steps[0].solution)
        assert desk.locator("#pz-verdict [data-better]").get_attribute("data-better") == better
        assert desk.locator("#pz-hand button.better").get_attribute("data-tile") == better.split("@")[0]
        assert desk.locator("#pz-hand button.playable").count() == 0  # the attempt is over
        # the board shows the better move laid, marked as the last tile
        assert desk.locator(f"svg#board g.last[data-tile='{better.split('@')[0]}']").count() == 1
        desk.screenshot(path=str(ARTIFACTS / "puzzles_laptop_wrong.png"))
        problems = axe_problems(desk, "puzzles_laptop")
        desk.goto(f"{srv.http}/me")
        desk.wait_for_selector("#my-puzzle-rating[data-rating]")
        with srv.client() as c:
            mine = c.get("/api/puzzles/me", headers={"Authorization": f"Bearer {ana['key']}"}).json()[
                "rating"
            ]
        assert (mine["attempts"], mine["solved"]) == (2, 1)
        line = desk.locator("#my-puzzle-rating").inner_text()
        assert line == en["puzzles.me_line.other"].format(rating=mine["rating"], n=2, solved=1)
        desk.screenshot(path=str(ARTIFACTS / "puzzles_me.png"))
        assert problems == []
