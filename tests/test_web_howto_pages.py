"""How to play in the browser: the game picker and each game's page, in all six languages, on
a phone held upright (390x844) and on a laptop (1366x768): no missing word, no identifier,
every example's picture drawn, nothing wider than the screen.  Screenshots go to artifacts/
(look at them)."""

from __future__ import annotations

import re

import pytest

from bonepile.engine.variant import ENGINE_VARIANTS
from bonepile.web.words.i18n import LANGUAGES
from pages import SIZES
from test_web_browser import ARTIFACTS, browser, server  # noqa: F401  (fixtures)
from test_web_table_phone import IDENTIFIER

PAGES = ["", *ENGINE_VARIANTS]
#: "cinque" is the Italian word for five: on an Italian page it is a word, not an identifier
IT_IDENTIFIER = re.compile(IDENTIFIER.pattern.replace(r"|\bcinque\b", ""))
assert IT_IDENTIFIER.pattern != IDENTIFIER.pattern


@pytest.fixture(scope="module")
def contexts(browser):  # noqa: F811
    """One browser context per (language, size), the language chosen as a person would (the
    remembered switch)."""
    made: dict[tuple[str, str], object] = {}

    def get(lang: str, size: str):
        if (lang, size) not in made:
            w, h = SIZES[size]
            ctx = browser.new_context(
                viewport={"width": w, "height": h}, has_touch=size == "phone", bypass_csp=True
            )
            ctx.add_init_script(f"localStorage.setItem('bonepile:lang', '{lang}')")
            made[(lang, size)] = ctx
        return made[(lang, size)]

    yield get
    for ctx in made.values():
        ctx.close()  # type: ignore[attr-defined]


def _open(contexts, server, lang: str, size: str, game: str):  # noqa: F811
    pg = contexts(lang, size).new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.set_default_timeout(15000)
    pg.goto(f"{server}/how-to-play/{game}" if game else f"{server}/how-to-play")
    pg.wait_for_selector("body[data-ready='1']")
    return pg, errors


def _missing(pg) -> list[str]:
    return pg.evaluate("async () => [...(await import('/static/i18n.js')).missing]")


@pytest.mark.parametrize("size", ["phone", "laptop"])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_in_every_language(server, contexts, lang, size):  # noqa: F811
    # every page in every language on a phone; on a laptop (wider, so less at risk) each game's
    # page in every other language, alternating, to keep the suite's time as games are added
    k = LANGUAGES.index(lang)
    games = [g for i, g in enumerate(PAGES) if size == "phone" or not g or (i + k) % 2 == 0]
    for game in games:
        pg, errors = _open(contexts, server, lang, size, game)
        try:
            assert pg.evaluate("document.documentElement.lang") == lang
            assert _missing(pg) == [], (lang, game)
            words = pg.evaluate("document.body.innerText")
            ident = (IT_IDENTIFIER if lang == "it" else IDENTIFIER).search(words)
            assert not ident, (lang, game, ident)
            assert "{" not in words and "}" not in words, (lang, game)  # every placeholder filled
            # nothing sticks out sideways
            assert pg.evaluate("document.documentElement.scrollWidth <= innerWidth + 1"), (lang, game, size)
            if not game:
                cards = pg.locator("li.game-card")
                assert cards.count() == len(ENGINE_VARIANTS)
                assert pg.locator("li.game-card a[href^='/how-to-play/']").count() == len(ENGINE_VARIANTS)
                assert pg.locator("li.game-card a[href^='/?play=']").count() == len(ENGINE_VARIANTS)
            else:
                figures = pg.locator("figure.example")
                assert figures.count() >= 1
                for i in range(figures.count()):
                    fig = figures.nth(i)
                    rows = fig.locator(".rows-board")
                    if rows.count():  # a train game's table is drawn as rows of tiles
                        box = rows.first.bounding_box()
                        assert box and box["width"] > 200 and box["height"] > 100, (lang, game, i)
                        assert rows.first.locator("svg.tile-svg").count() >= 1, (
                            lang,
                            game,
                            i,
                        )  # the hub at least
                        assert fig.locator("figcaption").inner_text().strip()
                        continue
                    board = fig.locator("svg.howto-board")
                    box = board.bounding_box()
                    assert box and box["width"] > 200 and box["height"] > 150
                    assert board.locator("g.tile").count() >= 1, (lang, game, i)
                    # the tiles drawn are on the picture and big enough to read
                    assert float(board.get_attribute("data-unit") or 0) >= 9, (lang, game, i)
                    for strip in fig.locator(".tile-row").all():
                        assert strip.locator("svg.tile-svg").count() >= 1
                    assert fig.locator("figcaption").inner_text().strip()
                for part in ("deal", "turn", "end", "score"):
                    assert pg.locator(f"section[data-part='{part}'] p").count() >= 1, (lang, game, part)
            if lang in ("en", "es") or (game in ("", "billitonnen") and size == "phone"):
                name = f"howto-{lang}-{game or 'index'}-{size}.png"
                pg.screenshot(path=str(ARTIFACTS / name), full_page=True)
            assert errors == [], errors
        finally:
            pg.close()


def test_play_now_opens_the_lobby_on_that_game(server, contexts):  # noqa: F811
    pg, errors = _open(contexts, server, "en", "phone", "passing")
    pg.locator("section.about a[href^='/?play=']").click()
    pg.wait_for_selector("body[data-ready='1']")
    assert pg.locator("#variant").input_value() == "passing"
    assert pg.evaluate("document.activeElement.id") == "play-now"
    assert errors == []
    pg.close()


def test_an_unknown_game_says_so(server, contexts):  # noqa: F811
    pg, errors = _open(contexts, server, "it", "phone", "chess")
    assert pg.locator("h1.page-title").inner_text().strip() != ""
    assert pg.locator("a[href='/how-to-play']").count() >= 1
    assert _missing(pg) == []
    assert errors == []
    pg.close()


def test_the_pages_run_under_the_content_security_policy(server, browser):  # noqa: F811
    ctx = browser.new_context(viewport={"width": 390, "height": 844})  # no CSP bypass
    pg = ctx.new_page()
    refused: list[str] = []
    pg.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    pg.on("pageerror", lambda e: refused.append(str(e)))
    for path in ("/how-to-play", "/how-to-play/cinque"):
        pg.goto(server + path)
        pg.wait_for_selector("body[data-ready='1']")
    assert pg.locator("figure.example svg.howto-board g.tile").count() > 5
    assert refused == []
    ctx.close()
