"""The games of the bigger sets at the table, on a phone held upright (390x844), as a person
meets them: a Cuban table (double nine) created in the lobby, a tile tapped and played; a
hand of a double-twelve game drawn with every pip.  Each tile in your hand shows as many pips
on each half as its name says (counted in the page), the page fits the screen and your tiles
stay 44-px tap targets.  Screenshots: artifacts/table-cuban-phone.png,
artifacts/table-double-twelve-phone.png (look at them)."""

from __future__ import annotations

import json

import pytest

from bonepile.engine.variant import OPTION_SPECS, VARIANT_NAMES
from test_web_browser import ARTIFACTS, browser, server, wait_turn_or_end  # noqa: F401  (fixtures)
from test_web_table_phone import IDENTIFIER, _fits_the_screen

pytest_plugins = ["pages"]  # the sized page fixture
pytestmark = pytest.mark.browser

#: per tile of your hand: its name and the pips counted on each of its halves
HAND_PIPS = """() => [...document.querySelectorAll('#hand button.tile-btn')].map(b => ({
  tile: b.dataset.tile,
  halves: ['a', 'b'].map(h => b.querySelectorAll(`g.half[data-half='${h}'] circle.pip`).length),
}))"""


def _sit_down(page, server: str, game: str, options: dict[str, str] | None = None) -> None:  # noqa: F811
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.fill("#name", "Newbie")
    page.select_option("#variant", game)
    page.select_option("#players", "4")
    for key, label in (options or {}).items():
        page.select_option(f"#opt-{key}", label=label)
    for i in (1, 2, 3):
        page.select_option(f"#seat-{i}", "bot:beginner")
    page.tap("#create")
    page.wait_for_url("**/t/*")
    page.wait_for_selector("body[data-conn='1']")


def _hand_is_drawn_right(page, top: int) -> list[str]:
    hand = page.evaluate(HAND_PIPS)
    assert hand
    for t in hand:
        a, b = map(int, t["tile"].split("-"))
        assert t["halves"] == [a, b], t
        assert max(a, b) <= top
    return [t["tile"] for t in hand]


def test_a_cuban_table_and_a_double_twelve_hand_on_a_phone(server, sized):  # noqa: F811
    if "cuban" not in VARIANT_NAMES:
        pytest.skip("the engine has no Cuban game yet")
    page = sized("phone")
    _sit_down(page, server, "cuban")
    played = None
    for _ in range(10):
        if wait_turn_or_end(page) != "play":
            break
        tiles = _hand_is_drawn_right(page, 9)
        fit = _fits_the_screen(page)
        assert fit["scroll"] and fit["inside"] and fit["small"] == 0 and fit["inBoard"], fit
        assert fit["tiles"] == len(tiles)
        words = page.evaluate("document.body.innerText")
        assert not IDENTIFIER.search(words), IDENTIFIER.search(words).group(0)
        seq = page.evaluate("document.body.dataset.seq")
        playable = page.locator("#hand button.tile-btn.playable")
        if not playable.count():
            page.tap("#pass")
            page.wait_for_function(f"document.body.dataset.seq !== {json.dumps(seq)}")
            continue
        played = playable.first.get_attribute("data-tile")
        playable.first.tap()
        if page.locator("#ends:not([hidden]) button[data-end]").count():
            page.locator("#ends button[data-end]").first.tap()
        page.wait_for_function(f"!document.querySelector('#hand button[data-tile=\"{played}\"]')")
        # the tile lies on the table, drawn with its pips
        laid = page.locator(f"#board g.tile[data-tile='{played}']")
        assert laid.count() == 1
        a, b = map(int, played.split("-"))
        assert sorted(
            laid.locator("g.half").evaluate_all("gs => gs.map(g => g.querySelectorAll('circle').length)")
        ) == sorted([a, b])
        break
    assert played is not None, "no tile of yours was played"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "table-cuban-phone.png"))

    # a double-twelve hand, where a game offers the set
    games = [g for g in ("draw", "block") if "set" in OPTION_SPECS.get(g, {})]
    if not games:
        return
    page = sized("phone")
    _sit_down(page, server, games[0], {"set": "double twelve (91 tiles)"})
    # the whole hand is drawn (the store may hold the deal a moment before the hand shows it)
    # (the same tiles in the store and on the buttons, twice in a row: a state message may
    # replace the hand between two reads)
    drawn = (
        "import('/static/table/state.js').then(m => { const h = m.store.state?.view?.hand || [];"
        " const b = [...document.querySelectorAll('#hand button.tile-btn')].map(x => x.dataset.tile);"
        " return h.length > 0 && [...h].sort().join() === b.sort().join() ? h.join() : ''; })"
    )
    last = ""
    for _ in range(150):
        now = page.evaluate(drawn)
        if now and now == last:
            break
        last = now
        page.wait_for_timeout(100)
    tiles = _hand_is_drawn_right(page, 12)
    for _ in range(30):  # a tile dealt in flight is drawn small for a moment: the laid-out page
        fit = _fits_the_screen(page)
        if fit["scroll"] and fit["inside"] and fit["small"] == 0:
            break
        page.wait_for_timeout(100)
    assert fit["scroll"] and fit["inside"] and fit["small"] == 0, fit
    page.screenshot(path=str(ARTIFACTS / "table-double-twelve-phone.png"))
    # the buttons are the store's hand, read in one go (a forced draw may be played for the
    # seat while the page is measured, and the hand grows)
    hand, shown = page.evaluate(
        "async () => [(await import('/static/table/state.js')).store.state.view.hand,"
        " [...document.querySelectorAll('#hand button.tile-btn')].map(b => b.dataset.tile)]"
    )
    assert tiles and sorted(hand) == sorted(shown)
