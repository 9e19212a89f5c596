"""The hint says where the tiles you cannot see probably are (issue 25, item 4), on a phone:
under the expert's moves, one short line per seat, named as the table names it, with the
chances in the reader's number format; in Spanish too."""

from __future__ import annotations

import re

import pytest

from test_web_browser import ARTIFACTS, _open_seat, _post, browser, server, wait_turn_or_end  # noqa: F401

pytest_plugins = ["pages"]  # the sized page fixture

LINE = {
    "en": re.compile(
        r"^(\S.* probably holds|Probably in the boneyard:) \d-\d \(\d{2,3}%\)(, \d-\d \(\d{2,3}%\))*$"
    ),
    "es": re.compile(
        r"^(\S.* probablemente tiene|Probablemente en el pozo:) \d-\d \(\d{2,3}%\)(, \d-\d \(\d{2,3}%\))*$"
    ),
}


def _until_a_belief_line(page, turns: int = 7) -> list[str]:
    """Ask for a hint at each of our turns, playing its best move, until it says where some
    unseen tile probably is: that hint's lines."""
    for _ in range(turns):
        if wait_turn_or_end(page) != "play":
            break
        page.click("#hint")
        page.wait_for_selector("#hints ol li", timeout=30000)
        lines = page.locator("#hints ul.hint-beliefs li").all_inner_texts()
        if lines:
            return lines
        page.locator("#hints button[data-hint-move]").first.click()
        page.wait_for_function("document.body.dataset.myTurn !== '1' || document.body.dataset.busy !== '1'")
        page.wait_for_timeout(300)
    raise AssertionError("no hint said where an unseen tile probably is")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_hint_says_where_unseen_tiles_probably_are_on_a_phone(server, sized, lang):  # noqa: F811
    page = sized("phone")
    page.goto(server + "/")
    page.evaluate(f"localStorage.setItem('bonepile:lang', '{lang}')")
    created = _post(
        server,
        "/api/tables",
        {
            "variant": "block",
            "players": 4,
            "options": {"teams": True},
            "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "casual"}] * 3,
            "player": "Ana",
        },
    )
    _open_seat(page, server, created)
    lines = _until_a_belief_line(page)
    names = page.evaluate("import('/static/table/words.js').then(m => m.names())")
    for line in lines:
        assert LINE[lang].match(line), line
        assert "Ana" not in line  # never about your own tiles
        assert line.startswith(("Probably", "Probablemente")) or any(line.startswith(n) for n in names[1:]), (
            line
        )
    # the panel stays a panel: the lines fit its width, and the moves come first
    box = page.locator("#hints").bounding_box()
    assert box["width"] <= 390
    first_move = page.locator("#hints ol li").first.bounding_box()
    first_line = page.locator("#hints ul.hint-beliefs li").first.bounding_box()
    assert first_line["y"] > first_move["y"]
    for li in page.locator("#hints ul.hint-beliefs li").all():
        b = li.bounding_box()
        assert b["x"] >= box["x"] - 1 and b["x"] + b["width"] <= box["x"] + box["width"] + 1
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#hints ul.hint-beliefs").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"hint_beliefs_phone_{lang}.png"))
    missing = page.evaluate("import('/static/i18n.js').then(m => [...m.missing])")
    assert [k for k in missing if k.startswith("hint.")] == []
