"""Watching a game in the browser, as a stranger would: from the lobby's list of live games
("Watch"), on a phone (390x844) and a laptop (1366x768).  The spectator sees the game move
on (bots play), every hand as tile backs only, the number watching, a read-only chat; the
clock of the person to move shows at that person's seat, for the other players and the
spectators.  Screenshots go to artifacts/ (look at them)."""

from __future__ import annotations

import re
import time

import pytest

from test_web_browser import (  # noqa: F401  (fixtures)
    ARTIFACTS,
    ROOT,
    _get,
    _open_seat,
    _post,
    browser,
)
from webutil import logged_server

pytest_plugins = ["pages"]  # the sized page fixture


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """``bonepile serve`` whose bots take half a second a move: a game a person can follow."""
    args = ("--bot-delay", "0.5", "--create-rate", "100000")
    with logged_server(tmp_path_factory.mktemp("watch"), *args) as base:
        yield base


@pytest.fixture(scope="module")
def quick_server(tmp_path_factory):
    """``bonepile serve`` whose bots move at once: for tests that only need a finished table."""
    args = ("--bot-delay", "0", "--create-rate", "100000")
    with logged_server(tmp_path_factory.mktemp("quick"), *args) as base:
        yield base


def _faces_outside_the_board(page) -> int:
    """Tiles drawn face up anywhere but on the board (the seats, the dock, your hand)."""
    return page.evaluate("""() => [...document.querySelectorAll(
        '#seats g.tile:not(.tile-back), #my-seat g.tile:not(.tile-back), #hand g.tile, #hand button, #flip g.tile')]
        .filter(e => !e.closest('[hidden]')).length""")


#: in one go: does your seat's box in the dock hold its tiles' backs, clear of the "You are
#: watching" badge? (null while the dock shows no backs)
DOCK_HOLDS_BACKS = """() => {
  const r = (q) => document.querySelector(q)?.getBoundingClientRect();
  const box = r('#my-seat .seat-box'), backs = r('#my-seat .backs'), badge = r('#you-watch');
  if (!box || !backs || !badge || !backs.width || !badge.width) return null;
  return backs.right <= box.right + 1 && (badge.left >= box.right - 1 || badge.top >= box.bottom - 1);
}"""


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_a_stranger_watches_a_game_in_progress_from_the_lobby(server, sized, size):
    made = _post(server, "/api/tables", {"variant": "draw", "players": 4, "name": f"Watch me {size}",
                                         "seats": [{"kind": "bot", "level": "random"}] * 4})  # fmt: skip
    tid = made["id"]
    page = sized(size)
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    link = page.locator(f"a[data-watch='{tid}']")
    link.wait_for()
    assert link.inner_text() == "Watch"
    link.click()
    page.wait_for_url(f"**/t/{tid}?watch=1")
    page.wait_for_selector("body[data-conn='1'][data-watching='1']")
    page.wait_for_function("() => document.querySelector('#watching .long')?.textContent === '1 watching'")
    assert page.locator("#you-watch").inner_text() == "You are watching"
    seq = int(page.evaluate("document.body.dataset.seq"))
    checked_dock = False
    # the game moves on while we look, and no tile of any hand is ever face up
    for _ in range(6):
        page.wait_for_function(f"() => Number(document.body.dataset.seq) > {seq}", timeout=20000)
        seq = int(page.evaluate("document.body.dataset.seq"))
        if page.evaluate("document.body.dataset.phase") == "play":
            assert _faces_outside_the_board(page) == 0
            assert page.locator("#seats .backs svg, #my-seat .backs svg").count() > 0
            held = page.evaluate(DOCK_HOLDS_BACKS)
            if held is not None:
                assert held, "the dock's tile backs spill out of their seat's box over the badge"
                checked_dock = True
    assert page.locator("#board g.tile").count() > 0
    assert checked_dock, "the dock's seat box was never seen with its tiles' backs"
    # nothing to do but watch: no buttons of a player, a read-only chat
    for button in ("#draw", "#pass", "#hint", "#next", "#start", "#takeover"):
        assert not page.locator(button).is_visible(), button
    if size == "laptop":  # the side panel is open beside the table
        assert not page.locator("#chat-form").is_visible()
        assert "only the players can write here" in page.locator("#chat-note").inner_text()
    # a second stranger: both pages say two are watching
    other = sized(size)
    other.goto(server + f"/t/{tid}")  # the plain link: every seat is taken, so it watches
    other.wait_for_selector("body[data-conn='1'][data-watching='1']")
    page.wait_for_function("() => document.querySelector('#watching .long')?.textContent === '2 watching'")
    assert _faces_outside_the_board(other) == 0 or other.evaluate("document.body.dataset.phase") != "play"
    # the page fits the screen: nothing sideways
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    # the game's name stays readable beside the count (on a phone an eye and the number)
    assert page.locator("#table-title").bounding_box()["width"] >= 60
    assert page.locator("#watching .short").is_visible() == (size == "phone")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"spectate-{size}.png"))
    assert _get(server, f"/api/tables/{tid}")["watching"] == 2


def test_the_clock_of_the_person_to_move_shows_at_their_seat(server, sized, browser):  # noqa: F811
    """Two people and two bots, 10 s a move: while one person thinks, the other person and a
    spectator see that person's clock at their seat."""
    made = _post(server, "/api/tables", {"variant": "block", "players": 4, "timer": 10, "player": "Ana",
                 "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"},
                           {"kind": "bot", "level": "random"}]})  # fmt: skip
    tid = made["id"]
    joined = _post(server, f"/api/tables/{tid}/join", {"name": "Bea"})
    ana, bea = sized("laptop"), sized("laptop")
    _open_seat(ana, server, made)
    _open_seat(bea, server, {"id": tid, "token": joined["token"]})
    watcher = sized("phone")
    watcher.goto(server + f"/t/{tid}?watch=1")
    watcher.wait_for_selector("body[data-conn='1'][data-watching='1']")
    clock = re.compile(r"^\d:\d\d$")
    seen = {"ana": False, "watcher": False}
    end = time.monotonic() + 90
    while not all(seen.values()):
        assert time.monotonic() < end, seen
        st = _get(server, f"/api/tables/{tid}")
        assert st["status"] == "playing"
        # Bea's turn: Ana sees Bea's clock at Bea's seat (seat 1), the spectator too
        text = ana.evaluate("document.querySelector(\"[data-clock='1']\")?.textContent || ''")
        if clock.match(text):
            seen["ana"] = True
            ana.screenshot(path=str(ARTIFACTS / "spectate-clock-player.png"))
        for s in (0, 1):
            text = watcher.evaluate(f"document.querySelector(\"[data-clock='{s}']\")?.textContent || ''")
            if clock.match(text):
                seen["watcher"] = True
                watcher.screenshot(path=str(ARTIFACTS / "spectate-clock-watcher.png"))
        # a bot's turn shows no clock anywhere
        for pg in (ana, watcher):
            assert pg.evaluate("""() => { const tm = [...document.querySelectorAll('.seat-box.to-move')]
                .map(b => Number(b.dataset.seat));
                return tm.every(s => s < 2 || !document.querySelector(`[data-clock='${s}']`)); }""")
        time.sleep(0.25)


def test_a_finished_table_shows_a_stranger_the_result_and_the_replay(quick_server, sized):
    server = quick_server
    made = _post(server, "/api/tables", {"variant": "block", "players": 2, "options": {"target": 1},
                                         "seats": [{"kind": "bot", "level": "random"}] * 2})  # fmt: skip
    tid = made["id"]
    end = time.monotonic() + 60
    while _get(server, f"/api/tables/{tid}")["status"] != "over":
        assert time.monotonic() < end, "the bots did not finish"
        time.sleep(0.3)
    page = sized("phone")
    page.goto(server + f"/t/{tid}")
    banner = page.locator("[data-banner='over']")
    banner.wait_for()
    assert "won" in banner.inner_text()
    assert page.locator("#banner-replay").get_attribute("href") == f"/replay?table={tid}"
    assert not page.locator("#play-again").count()
    page.screenshot(path=str(ARTIFACTS / "spectate-finished.png"))


def test_a_stranger_may_watch_a_table_waiting_for_players(server, sized):
    made = _post(server, "/api/tables", {"variant": "draw", "players": 2, "player": "Ana",
                                         "seats": [{"kind": "human"}, {"kind": "human"}]})  # fmt: skip
    page = sized("phone")
    page.goto(server + f"/t/{made['id']}")
    page.locator("#join-form").wait_for()
    page.click("#watch-instead")
    page.wait_for_selector("body[data-conn='1'][data-watching='1'][data-phase='waiting']")
    assert not page.locator("#start").is_visible() and not page.locator("#join").is_visible()
    assert _get(server, f"/api/tables/{made['id']}")["watching"] == 1


def test_a_spectator_of_a_blind_game_sees_only_the_tiles_turned_up_for_everybody(server, sized):
    made = _post(server, "/api/tables", {"variant": "blind-hugie", "players": 3, "name": "Blind",
                                         "seats": [{"kind": "bot", "level": "random"}] * 3})  # fmt: skip
    tid = made["id"]
    page = sized("phone")
    page.goto(server + f"/t/{tid}?watch=1")
    page.wait_for_selector("body[data-conn='1'][data-watching='1']")
    for _ in range(5):
        seq = int(page.evaluate("document.body.dataset.seq"))
        page.wait_for_function(f"() => Number(document.body.dataset.seq) > {seq}", timeout=20000)
        if page.evaluate("document.body.dataset.phase") != "play":
            continue
        # face up outside the board: the tile turned up by the player to move, and the tiles
        # face up in the rows (the page draws them from the public view the server sent)
        faces = page.evaluate("""() => [...document.querySelectorAll(
            '#seats g.tile:not(.tile-back), #my-seat g.tile:not(.tile-back), #flip g.tile, #hand button')]
            .filter(e => !e.closest('[hidden]')).length""")
        face_up = page.evaluate(
            '() => document.querySelectorAll(\'#seats [aria-label$="face up"], #my-seat [aria-label$="face up"]\').length'
        )
        turned = page.locator("#flip:not([hidden]) svg").count()
        assert faces <= face_up + turned
    page.screenshot(path=str(ARTIFACTS / "spectate-blind-phone.png"))
