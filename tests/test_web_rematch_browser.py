"""Rematch in the browser: two people in two browsers finish a short game (Block for two, to
1 point); one taps Play again, the other is asked on their table and accepts (a tap on a
phone, the keyboard on a laptop); both land in their own seats at the new table, with no
join form in between."""

from __future__ import annotations

import json

import pytest

from test_web_axe import axe_problems
from test_web_browser import (  # noqa: F401  (fixtures)
    ARTIFACTS,
    _get,
    _open_seat,
    _post,
    browser,
    server,
)

pytest_plugins = ["pages"]  # the sized page fixture


def _play_out(pages) -> None:
    """Both people play by clicking (a playable tile, its end, else Draw or Pass) and press
    Next hand, until both pages show the game over."""
    for _ in range(400):
        states = [p.evaluate("({...document.body.dataset})") for p in pages]
        if all(d.get("phase") == "over" for d in states):
            return
        acted = False
        for p, d in zip(pages, states):
            if d.get("phase") == "hand_over":
                nxt = p.locator("#next")
                if nxt.is_visible() and nxt.is_enabled():
                    nxt.click()
                    acted = True
            elif d.get("myTurn") == "1" and d.get("busy") != "1":
                acted = True
                seq = d["seq"]
                tiles = p.locator("#hand button.tile-btn.playable")
                if tiles.count():
                    tiles.first.click()
                    ends = p.locator("#ends button[data-end]")
                    if p.locator("#ends").is_visible() and ends.count():
                        ends.first.click()
                elif p.locator("#draw").is_visible():
                    p.click("#draw")
                elif p.locator("#pass").is_visible():
                    p.click("#pass")
                p.wait_for_function(f"document.body.dataset.seq !== {json.dumps(seq)}")
        if not acted:  # nothing to do on either page yet: a moment for the server
            pages[0].wait_for_timeout(50)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_play_again_asks_the_other_player_and_both_move_to_the_new_table(server, sized, size):  # noqa: F811
    made = _post(
        server,
        "/api/tables",
        {
            "variant": "block",
            "players": 2,
            "options": {"target": 1},
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "player": "Ana",
        },
    )
    tid = made["id"]
    bea = _post(server, f"/api/tables/{tid}/join", {"name": "Bea"})
    ana_page, bea_page = sized(size), sized(size)
    _open_seat(ana_page, server, made)
    _open_seat(bea_page, server, {"id": tid, "token": bea["token"]})
    _play_out([ana_page, bea_page])

    # Ana asks; Bea's table asks her, with the keyboard already on Accept
    ana_page.locator("#play-again").click()
    prompt = bea_page.locator(".rematch-ask[role=alertdialog]")
    prompt.wait_for()
    assert prompt.inner_text().startswith("Ana asks for a rematch.")
    assert "The same seats and rules, a new deal." in prompt.inner_text()
    bea_page.wait_for_function("document.activeElement && document.activeElement.id === 'rematch-accept'")
    ana_page.wait_for_selector("#rematch:has-text('Waiting for an answer from: Bea.')")
    assert ana_page.locator("#rematch-cancel").is_visible()
    box = prompt.bounding_box()
    w, h = bea_page.viewport_size["width"], bea_page.viewport_size["height"]
    assert box["x"] >= 0 and box["x"] + box["width"] <= w and box["y"] + box["height"] <= h, box
    for b in (bea_page.locator("#rematch-accept"), bea_page.locator("#rematch-decline")):
        bb = b.bounding_box()
        assert bb["height"] >= 44 and bb["width"] >= 44, bb
    assert bea_page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    ARTIFACTS.mkdir(exist_ok=True)
    ana_page.screenshot(path=str(ARTIFACTS / f"rematch_asking_{size}.png"))
    problems = axe_problems(bea_page, f"rematch_asked_{size}")
    assert not problems, "\n".join(problems)

    if size == "phone":
        bea_page.locator("#rematch-accept").tap()
    else:
        bea_page.keyboard.press("Enter")  # the focused Accept

    # both pages go to the new table, each in its own seat
    for p in (ana_page, bea_page):
        p.wait_for_url(lambda url: f"/t/{tid}" not in url and "/t/" in url)
        p.wait_for_selector("body[data-conn='1']")
    new = _get(server, f"/api/tables/{tid}")["rematch"]
    assert new and ana_page.url.endswith(f"/t/{new}") and bea_page.url.endswith(f"/t/{new}")
    info = _get(server, f"/api/tables/{new}")
    assert [(s["name"], s["kind"], s["connected"]) for s in info["seats"]] == [
        ("Ana", "human", True),
        ("Bea", "human", True),
    ]
    assert info["rematch_of"] == tid and info["options"]["target"] == 1
    for p, seat in ((ana_page, 0), (bea_page, 1)):
        p.wait_for_function("document.body.dataset.phase === 'play'")
        assert p.locator("#join").is_hidden()  # no join form: the seat came with the page
        # its own tiles, dealt afresh (drawn a moment after the phase: a loaded machine saw 0)
        p.wait_for_function("document.querySelectorAll('#hand button.tile-btn').length >= 7")
        assert p.locator("#hand button.tile-btn").count() == 7
        name = info["seats"][seat]["name"]
        assert name in p.locator(".dock-head").inner_text()
    ana_page.screenshot(path=str(ARTIFACTS / f"rematch_new_table_{size}.png"))
    # back at the finished table (the Back button), Bea stays there, with a link to her seat
    bea_page.go_back()
    go = bea_page.locator("#rematch-go")
    go.wait_for()
    assert go.get_attribute("href") == f"/t/{new}" and f"/t/{tid}" in bea_page.url
    bea_page.wait_for_timeout(500)
    assert f"/t/{tid}" in bea_page.url
    go.click()
    bea_page.wait_for_url(f"**/t/{new}")
    bea_page.wait_for_selector("body[data-conn='1']")
    bea_page.wait_for_function("document.querySelectorAll('#hand button.tile-btn').length >= 7")
    assert bea_page.locator("#hand button.tile-btn").count() == 7

    # a late comer on the finished table is shown the rematch to watch
    late = sized(size)
    late.goto(server + f"/t/{tid}?watch=1")
    link = late.locator("#rematch-watch")
    link.wait_for()
    assert link.get_attribute("href") == f"/t/{new}?watch=1"
    assert "A rematch of this game is being played." in late.locator("#banner").inner_text()
    late.screenshot(path=str(ARTIFACTS / f"rematch_watch_{size}.png"))


def test_a_declined_rematch_tells_the_asker_who_may_still_make_a_new_table(server, sized):  # noqa: F811
    made = _post(
        server,
        "/api/tables",
        {
            "variant": "block",
            "players": 2,
            "options": {"target": 1},
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "player": "Ana",
        },
    )
    tid = made["id"]
    bea = _post(server, f"/api/tables/{tid}/join", {"name": "Bea"})
    ana_page, bea_page = sized("phone"), sized("phone")
    _open_seat(ana_page, server, made)
    _open_seat(bea_page, server, {"id": tid, "token": bea["token"]})
    _play_out([ana_page, bea_page])
    ana_page.locator("#play-again").tap()
    bea_page.locator("#rematch-decline").tap()
    said = ana_page.locator("#rematch-said")
    said.wait_for()
    assert said.inner_text() == "Bea declined the rematch."
    assert bea_page.locator("#rematch-said").inner_text() == "You declined the rematch."
    assert _get(server, f"/api/tables/{tid}")["rematch"] is None
    ana_page.screenshot(path=str(ARTIFACTS / "rematch_declined_phone.png"))
    # the old way: a new table of the same game, its link in the chat for Bea
    ana_page.locator("#new-table").tap()
    ana_page.wait_for_url(lambda url: f"/t/{tid}" not in url)
    ana_page.wait_for_selector("body[data-conn='1']")
    new = ana_page.url.split("/t/")[1].split("?")[0]
    info = _get(server, f"/api/tables/{new}")
    assert info["status"] == "waiting" and info["rematch_of"] is None
    assert info["options"] == _get(server, f"/api/tables/{tid}")["options"]
    bea_page.locator("#side-toggle").tap()
    bea_page.wait_for_selector(f"#chat li:has-text('/t/{new}')")
