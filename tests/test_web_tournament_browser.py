"""The tournament page in a real browser: a person on a phone makes a tournament from the
form and waits on its page; another person joins; both tables' seats are played (by
``SeatClient``, with the seat tokens the pages were given); then the phone and a laptop each
show the live standings with their own line marked and their hands against the field."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest

from bonepile.web.client import SeatClient
from test_web_axe import axe_problems
from test_web_browser import ARTIFACTS, _get, browser  # noqa: F401  (fixtures)
from webutil import logged_server

pytest_plugins = ["pages"]  # the sized page fixture
pytestmark = pytest.mark.browser

APP = """
import sys, uvicorn
from bonepile.web.app import create_app
app = create_app(sys.argv[1], bot_delay=0, hand_pause=0, create_rate=100000, profile_rate=100000)
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
"""


def _post(base: str, path: str, body: dict, key: str | None = None) -> dict:
    headers = {"Content-Type": "application/json"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST", headers=headers)
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def test_make_join_and_follow_a_tournament_on_a_phone_and_a_laptop(tmp_path, sized):
    with logged_server(tmp_path, code=APP) as base:
        phone = sized("phone")
        phone.goto(base + "/tournaments")
        phone.wait_for_selector("body[data-ready='1']")
        assert phone.locator("#open").inner_text().strip() == "No tournament is open right now."
        assert axe_problems(phone, "tournaments-list") == []
        phone.evaluate("localStorage.setItem('bonepile:name', 'Ana')")  # the name the lobby keeps
        phone.fill("#t-name", "Friday club")
        phone.select_option("#t-game", "draw")
        phone.select_option("#t-players", "2")
        phone.fill("#t-rounds", "1")
        phone.fill("#t-hands", "1")
        phone.fill("#t-start", "2")
        phone.click("#t-create")
        phone.wait_for_url("**/tournaments/*")
        phone.wait_for_selector("#t-status:has-text('1 of 2 have joined')")
        assert phone.locator("#t-title").inner_text() == "Friday club"
        summary = phone.locator("#t-summary").inner_text()
        assert summary == "Draw · 2 players · Swiss · Matchpoints · 1 round · 1 hand per round"
        assert phone.locator("#join").is_hidden()  # the creator is in
        tid = phone.url.rsplit("/", 1)[1]
        # another person joins from a laptop, with the Join button
        laptop = sized("laptop")
        laptop.goto(base + f"/tournaments/{tid}")
        laptop.evaluate("localStorage.setItem('bonepile:name', 'Bo')")
        laptop.click("#join")
        phone.wait_for_selector("#play-link")  # the tournament starts: round 1 is open
        laptop.wait_for_selector("#play-link")
        # the round's tables share their deals: nothing of them is shown while it is played
        rounds = laptop.locator("#rounds")
        assert "shown once the whole round is over" in rounds.inner_text()
        assert rounds.locator("a").count() == 0
        ARTIFACTS.mkdir(exist_ok=True)
        phone.screenshot(path=str(ARTIFACTS / "tournament-phone-playing.png"), full_page=True)

        def seat(page) -> tuple[str, str]:
            href = page.get_attribute("#play-link", "href")
            table = href.rsplit("/", 1)[1]
            return table, page.evaluate(f"localStorage.getItem('bonepile:token:{table}')")

        (t1, k1), (t2, k2) = seat(phone), seat(laptop)
        assert t1 == t2 and k1 != k2

        async def play():
            await asyncio.gather(
                SeatClient(base.replace("http", "ws"), t1, k1, seed=1).play(timeout=60),
                SeatClient(base.replace("http", "ws"), t2, k2, seed=2).play(timeout=60),
            )

        with ThreadPoolExecutor(1) as pool:  # (Playwright's loop runs in this thread)
            pool.submit(asyncio.run, play()).result(90)
        for page in (phone, laptop):
            page.wait_for_selector("#t-status:has-text('The tournament is over.')")
            page.wait_for_selector("#standings-table tr.mine")
            assert page.locator("#standings-table tbody tr").count() == 2
            assert page.locator("#deals-table tbody tr").count() == 1
            assert page.locator("#play-link").count() == 0
            assert page.locator("#rounds a").count() == 1  # the round is over: its table is shown
        st = _get(base, f"/api/tournaments/{tid}")
        first = st["standings"][0]
        names = [e["name"] for e in st["entrants_list"]]
        assert names == ["Ana", "Bo"]
        rows = phone.locator("#standings-table tbody tr").all_inner_texts()
        assert rows[0].split("\t")[:2] == ["1", names[first["entrant"]]]
        # nothing spills sideways on the phone
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        phone.screenshot(path=str(ARTIFACTS / "tournament-phone.png"), full_page=True)
        laptop.screenshot(path=str(ARTIFACTS / "tournament-laptop.png"), full_page=True)
        assert axe_problems(laptop, "tournament") == []
        # the finished table leads back to the tournament (no "play again" there)
        phone.goto(base + f"/t/{t1}")
        phone.wait_for_selector("#banner-tournament")
        assert phone.locator("#banner").inner_text().count("Back to the tournament") == 1
        phone.screenshot(path=str(ARTIFACTS / "tournament-phone-table.png"), full_page=True)
        phone.click("#banner-tournament")
        phone.wait_for_url(f"**/tournaments/{tid}")
