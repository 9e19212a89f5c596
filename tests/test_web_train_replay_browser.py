"""A whole Mexican Train game in the replay page: 13 rounds for 8 players (about 1,200
positions, ~7 MB of frames in one answer, over what the server sends) are served a hand at a
time, an index first and each hand's positions when the page shows that hand; the page walks
every hand to the game's last move on a phone held upright, then opens the last hand's end on
a laptop, and axe finds nothing.  Screenshots go to artifacts/replay-mexican-train-<size>.png."""

from __future__ import annotations

import time

import httpx
import pytest

from pages import SIZES
from test_web_axe import axe_problems
from test_web_browser import ARTIFACTS, _get, _post, browser, server  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser


def _whole_game(server: str) -> tuple[str, dict]:  # noqa: F811
    made = _post(
        server,
        "/api/tables",
        {"variant": "mexican-train", "players": 8, "seats": [{"kind": "bot", "level": "random"}] * 8},
    )
    end = time.monotonic() + 120
    while _get(server, f"/api/tables/{made['id']}")["status"] != "over":
        assert time.monotonic() < end, "the bots did not finish"
        time.sleep(0.3)
    index = httpx.get(server + f"/api/tables/{made['id']}/replay", timeout=60)
    assert index.status_code == 200, index.text
    return made["id"], index.json() | {"bytes": len(index.content)}


def test_a_whole_mexican_train_games_replay_is_served_a_hand_at_a_time_and_walks_to_its_end(server, browser):  # noqa: F811
    tid, index = _whole_game(server)
    hands = index["hands"]
    assert len(hands) == 13 and index["finished"] and index["winner"] is not None
    assert [h["result"]["hand"] for h in hands] == list(range(1, 14))
    assert all("frames" not in h for h in hands)
    assert index["bytes"] < 64 * 1024  # the index: deals and results only
    moves = sum(h["positions"] for h in hands)
    assert moves > 800  # the whole game would be megabytes in one answer
    # every hand's answer is that hand's positions, each well under the server's cap
    last = httpx.get(server + f"/api/tables/{tid}/replay/13", timeout=60)
    assert last.status_code == 200 and len(last.content) < 2 << 20
    assert len(last.json()["frames"]) == hands[-1]["positions"]
    gone = httpx.get(server + f"/api/tables/{tid}/replay/14", timeout=60)
    assert gone.status_code == 404 and gone.json()["code"] == "replay_no_hand"

    for size in ("phone", "laptop"):
        w, h = SIZES[size]
        ctx = browser.new_context(viewport={"width": w, "height": h}, has_touch=True, bypass_csp=True)
        pg = ctx.new_page()
        errors: list[str] = []
        pg.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        pg.set_default_timeout(20000)
        asked: list[str] = []
        pg.on(
            "request",
            lambda r, asked=asked: asked.append(r.url) if "/replay" in r.url and "/api/" in r.url else None,
        )
        pg.goto(server + f"/replay?table={tid}")
        pg.wait_for_selector("body[data-frame='0:0']")
        if size == "phone":  # every hand, its deal then its last move, with the keys
            for i in range(13):
                if i:
                    pg.keyboard.press("PageDown")
                    pg.wait_for_function(f"document.body.dataset.frame === '{i}:0'")
                pg.keyboard.press("End")
                pg.wait_for_function(f"document.body.dataset.frame === '{i}:{hands[i]['positions'] - 1}'")
        else:  # the last hand chosen in the list, then its end
            pg.select_option("#hand-select", "12")
            pg.wait_for_function("document.body.dataset.frame === '12:0'")
            pg.click("#last")
            pg.wait_for_function(f"document.body.dataset.frame === '12:{hands[12]['positions'] - 1}'")
        info = pg.text_content("#frame-info") or ""
        assert info.startswith(f"Hand 13, move {hands[12]['positions'] - 1} of {hands[12]['positions'] - 1}")
        assert "Game over" in info
        assert pg.locator("#next").is_disabled() and pg.locator("#last").is_disabled()
        # the last layout drawn as rows: the hub and a row per train, the Mexican train among them
        rows = pg.locator(".rows-board section.rows-arm")
        assert rows.count() == 9
        assert "Mexican train" in pg.locator(".rows-board .rows-name").all_inner_texts()
        pg.screenshot(path=str(ARTIFACTS / f"replay-mexican-train-{size}.png"))
        assert axe_problems(pg, f"replay-mexican-train-{size}") == []
        # the index once, then each hand once (the one shown first, the others in the background)
        end = time.monotonic() + 30
        while sum("/replay/" in u for u in asked) < 13 and time.monotonic() < end:
            pg.wait_for_timeout(100)
        pages = sorted(int(u.rsplit("/", 1)[-1]) for u in asked if "/replay/" in u)
        assert sum(u.endswith(f"/api/tables/{tid}/replay") for u in asked) == 1
        assert pages == list(range(1, 14)), pages
        ctx.close()
        assert errors == []
