"""Quick match and ratings in the browser, on a phone (390x844) and a laptop (1366x768): two
people ask for a quick game of Block for two from the lobby and land at the same table, each
seat showing its player's rating (1500?, provisional); then a rated game played to its end
shows your new rating with the change it made (+N or −N) in the game-over banner, the number
the server computed; /me draws that rating's graph.  Screenshots go to artifacts/ (look at
them)."""

from __future__ import annotations

import json
import threading

import httpx
import pytest

from test_web_browser import ARTIFACTS, browser  # noqa: F401  (fixtures)
from webutil import Driver, InProcess, run

pytestmark = pytest.mark.browser

pytest_plugins = ["pages"]  # the sized page fixture
SIZES = ("phone", "laptop")


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("quick")
    with InProcess(f"sqlite:///{tmp}/db", grace=1000, hand_pause=0) as s:
        yield s


def _ask(pg, base: str, name: str) -> None:
    pg.goto(base + "/")
    pg.wait_for_function("document.body.dataset.ready === '1'")
    pg.fill("#name", name)
    pg.select_option("#quick-game", "block")
    pg.select_option("#quick-players", "2")
    pg.select_option("#quick-wait", "never")
    pg.click("#quick-find")


@pytest.mark.parametrize("size", SIZES)
def test_quick_match_seats_two_people_and_the_banner_shows_the_rating_change(served, sized, size):
    ana, ben = sized(size), sized(size)
    _ask(ana, served.http, "Ana")
    ana.wait_for_selector("#quick-cancel:not([hidden])")
    assert "1500" in ana.inner_text("#quick-status")  # looking near your rating
    ana.screenshot(path=str(ARTIFACTS / f"quick-waiting-{size}.png"), full_page=True)
    _ask(ben, served.http, "Ben")
    for pg in (ana, ben):
        pg.wait_for_url("**/t/**")
    tid = ana.url.split("/t/", 1)[1].split("?")[0]
    assert ben.url.split("/t/", 1)[1].split("?")[0] == tid
    for pg in (ana, ben):
        pg.wait_for_function("document.querySelectorAll('.seat-rating').length === 2")
        assert pg.eval_on_selector_all(".seat-rating", "xs => xs.map(x => x.textContent)") == [
            "1500?",
            "1500?",
        ]
        assert pg.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    ana.screenshot(path=str(ARTIFACTS / f"quick-seated-{size}.png"), full_page=False)
    info = httpx.get(f"{served.http}/api/tables/{tid}").json()
    assert sorted(s["name"] for s in info["seats"]) == ["Ana", "Ben"] and info["rated"] is True

    # a rated game against a bot, played to its end from Ana's seat
    key = ana.evaluate("JSON.parse(localStorage.getItem('bonepile:profile')).key")
    made = httpx.post(
        f"{served.http}/api/tables",
        json={
            "variant": "block",
            "players": 2,
            "options": {"target": 1},
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "casual"}],
            "rated": True,
        },
        headers={"authorization": f"Bearer {key}"},
    ).json()
    ana.evaluate(f"localStorage.setItem('bonepile:token:{made['id']}', {json.dumps(made['token'])})")
    ana.goto(f"{served.http}/t/{made['id']}")
    ana.wait_for_selector(".seat-rating")
    d = Driver(served.ws, made["id"], {made["seat"]: made["token"]})

    async def play():
        try:
            await d.play_out(timeout=120)
        finally:
            await d.close()

    # the sync Playwright holds this thread's event loop: the driver plays in its own thread
    player = threading.Thread(target=lambda: run(play()))
    player.start()
    player.join(150)
    ana.wait_for_selector(".banner-rating[data-rating-change]:not([data-rating-change=''])", timeout=30000)
    mine = httpx.get(f"{served.http}/api/tables/{made['id']}/ratings").json()["seats"][made["seat"]]
    change = mine["change"]
    sign = "+" if change > 0 else "\u2212" if change < 0 else "\u00b1"
    assert ana.inner_text(".banner-rating") == f"Your rating: {mine['rating']}? ({sign}{abs(change)})"
    assert mine["rating"] == 1500 + change and change != 0
    ana.screenshot(path=str(ARTIFACTS / f"quick-over-{size}.png"), full_page=False)

    # /me: the rating now and its graph
    ana.goto(f"{served.http}/me")
    ana.wait_for_selector(".rating-series svg.rating-graph")
    assert ana.inner_text(".rating-series h3").startswith(f"Block, 2 players: {mine['rating']}?") or (
        f"{mine['rating']}?" in ana.inner_text(".rating-series h3")
    )
    assert ana.locator(".rating-graph circle").count() == 2  # the start and one game
    assert ana.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    ana.screenshot(path=str(ARTIFACTS / f"quick-me-{size}.png"), full_page=True)


def test_who_is_here_lets_one_invite_another_and_both_sit_down(served, sized):
    ann, ben = sized("phone"), sized("laptop")
    _ask(ben, served.http, "Ben")  # Ben looks for a game, people only: he is "here"
    ben.wait_for_selector("#quick-cancel:not([hidden])")
    ann.goto(served.http + "/")
    ann.wait_for_function("document.body.dataset.ready === '1'")
    ann.fill("#name", "Ann")
    ann.wait_for_selector("#online li[data-profile] [data-invite-to]")
    line = ann.locator("#online li[data-profile]").filter(has_text="Ben")
    assert "is looking for a game: Block, 2 players" in line.inner_text()
    ann.select_option("#quick-game", "draw")
    ann.select_option("#quick-players", "2")
    line.locator("[data-invite-to]").click()
    ann.wait_for_function("document.getElementById('quick-status').textContent.includes('Ben')")
    ben.wait_for_selector(".invite button", timeout=20000)  # his lobby's list shows the invitation
    assert "Ann invites you to a game: Draw, 2 players" in ben.inner_text(".invite")
    ben.screenshot(path=str(ARTIFACTS / "quick-invited-laptop.png"), full_page=False)
    ben.click(".invite button")
    for pg in (ann, ben):
        pg.wait_for_url("**/t/**")
    assert ann.url.split("/t/", 1)[1].split("?")[0] == ben.url.split("/t/", 1)[1].split("?")[0]
    info = httpx.get(f"{served.http}/api/tables/{ann.url.split('/t/', 1)[1].split('?')[0]}").json()
    assert info["variant"] == "draw" and sorted(s["name"] for s in info["seats"]) == ["Ann", "Ben"]
