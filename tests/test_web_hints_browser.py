"""The hint panel in a real browser (issue 11): a person asks for a hint and reads words —
the move, the points expected, the chance to win the hand, why — never a code; in Spanish
too."""

from __future__ import annotations

import re

from bonepile.bots.reasons import CODES
from test_web_browser import ARTIFACTS, browser, create_table, page, server, wait_turn_or_end  # noqa: F401

CODE_WORDS = re.compile(r"\b(" + "|".join(CODES) + r")\b|hint\.")


def _hint_text(page) -> str:  # noqa: F811
    for _ in range(6):
        if wait_turn_or_end(page) == "play":
            page.click("#hint")
            page.wait_for_selector("#hints ol li", timeout=30000)
            for _ in range(3):  # the other figures are a click away (a new state may close them)
                page.click("#hints summary")
                if page.locator("#hints details[open]").count():
                    break
                page.wait_for_timeout(300)
            # the words of the panel, those of a folded figure too (a new state may fold it again)
            return page.inner_text("#hints") + "\n" + (page.locator("#hints").text_content() or "")
        page.wait_for_timeout(500)
    raise AssertionError("no turn of ours to ask a hint on")


def test_the_hint_panel_shows_words_not_codes(server, page):  # noqa: F811
    create_table(page, server, "block", ["casual", "casual", "casual"])
    text = _hint_text(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#hints").screenshot(path=str(ARTIFACTS / "hint_panel.png"))
    assert "points expected" in text and "Best: " in text
    if page.locator("#hints ol li").count() > 1:  # an only move is not searched: no chance given
        assert "chance to win the hand" in text
    assert not CODE_WORDS.search(text), text
    assert page.locator("#hints button[data-hint-move]").count() >= 1
    missing = page.evaluate("import('/static/i18n.js').then(m => [...m.missing])")
    assert [k for k in missing if k.startswith("hint.")] == []


def test_the_hint_panel_speaks_spanish(server, page):  # noqa: F811
    page.goto(server + "/")
    page.evaluate("localStorage.setItem('bonepile:lang', 'es')")
    create_table(page, server, "block", ["casual", "casual", "casual"])
    text = _hint_text(page)
    assert "puntos esperados" in text and "Mejor: " in text
    if page.locator("#hints ol li").count() > 1:  # an only move is not searched: no chance given
        assert "probabilidad de ganar la mano" in text
    assert not CODE_WORDS.search(text), text


def test_the_lobby_offers_the_levels_casual_first_and_a_bot_partner(server, page):  # noqa: F811
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#variant", "quinientos")  # a partnership game: seat 2 is the partner
    for i in (1, 2, 3):
        assert page.input_value(f"#seat-{i}") == "bot:casual"
        values = page.locator(f"#seat-{i} option").evaluate_all("os => os.map(o => o.value)")
        assert [v for v in values if v.startswith("bot:")] == [
            "bot:beginner",
            "bot:casual",
            "bot:strong",
            "bot:expert",
        ]
