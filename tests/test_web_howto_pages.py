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
    remembered switch), with one tab the pages are opened in one after another (a new tab for
    each page cost as much as the page): (tab, the JavaScript errors it raised)."""
    made: dict[tuple[str, str], tuple[object, object, list[str]]] = {}

    def get(lang: str, size: str):
        if (lang, size) not in made:
            w, h = SIZES[size]
            ctx = browser.new_context(
                viewport={"width": w, "height": h}, has_touch=size == "phone", bypass_csp=True
            )
            ctx.add_init_script(f"localStorage.setItem('bonepile:lang', '{lang}')")
            pg = ctx.new_page()
            errors: list[str] = []
            pg.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
            pg.set_default_timeout(15000)
            made[(lang, size)] = (ctx, pg, errors)
        return made[(lang, size)][1:]

    yield get
    for ctx, _pg, _errors in made.values():
        ctx.close()  # type: ignore[attr-defined]


def _open(contexts, server, lang: str, size: str, game: str):  # noqa: F811
    """The page of game (the picker for ""), loaded afresh in the tab of (lang, size); the
    errors are those of this page."""
    pg, errors = contexts(lang, size)
    errors.clear()
    pg.goto(f"{server}/how-to-play/{game}" if game else f"{server}/how-to-play")
    pg.wait_for_selector("body[data-ready='1']")
    return pg, errors


#: what the page shows, read in one call (one call per fact is slow): its language, the keys
#: without words, its text, whether it fits the window sideways; the index's game cards and
#: links; per example figure its caption, its rows of tiles (width, height, tiles) or its board
#: (width, height, tiles, unit) and the tiles of each strip; paragraphs per part
FACTS = """async () => {
    const n = (sel, root = document) => root.querySelectorAll(sel).length;
    const box = (e) => { const r = e.getBoundingClientRect(); return [r.width, r.height]; };
    const figures = [...document.querySelectorAll('figure.example')].map(fig => {
        const rows = fig.querySelector('.rows-board');
        const board = fig.querySelector('svg.howto-board');
        const caption = fig.querySelector('figcaption');
        return {
            caption: caption ? caption.innerText : '',
            rows: rows ? [...box(rows), n('svg.tile-svg', rows)] : null,
            board: board ? [...box(board), n('g.tile', board), board.getAttribute('data-unit')] : null,
            strips: [...fig.querySelectorAll('.tile-row')].map(s => n('svg.tile-svg', s)),
        };
    });
    const parts = {};
    for (const part of ['deal', 'turn', 'end', 'score']) parts[part] = n(`section[data-part='${part}'] p`);
    return { lang: document.documentElement.lang,
             missing: [...(await import('/static/i18n.js')).missing],
             words: document.body.innerText,
             fits: document.documentElement.scrollWidth <= innerWidth + 1,
             cards: n('li.game-card'), howto_links: n("li.game-card a[href^='/how-to-play/']"),
             play_links: n("li.game-card a[href^='/?play=']"), figures, parts };
}"""


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
        facts = pg.evaluate(FACTS)
        assert facts["lang"] == lang
        assert facts["missing"] == [], (lang, game)
        words = facts["words"]
        ident = (IT_IDENTIFIER if lang == "it" else IDENTIFIER).search(words)
        assert not ident, (lang, game, ident)
        assert "{" not in words and "}" not in words, (lang, game)  # every placeholder filled
        # nothing sticks out sideways
        assert facts["fits"], (lang, game, size)
        if not game:
            assert facts["cards"] == len(ENGINE_VARIANTS)
            assert facts["howto_links"] == len(ENGINE_VARIANTS)
            assert facts["play_links"] == len(ENGINE_VARIANTS)
        else:
            assert len(facts["figures"]) >= 1
            for i, fig in enumerate(facts["figures"]):
                assert fig["caption"].strip(), (lang, game, i)
                if fig["rows"] is not None:  # a train game's table is drawn as rows of tiles
                    w, h, tiles = fig["rows"]
                    assert w > 200 and h > 100, (lang, game, i)
                    assert tiles >= 1, (lang, game, i)  # the hub at least
                    continue
                assert fig["board"] is not None, (lang, game, i)
                w, h, tiles, unit = fig["board"]
                assert w > 200 and h > 150, (lang, game, i)
                assert tiles >= 1, (lang, game, i)
                # the tiles drawn are on the picture and big enough to read
                assert float(unit or 0) >= 9, (lang, game, i)
                assert all(n >= 1 for n in fig["strips"]), (lang, game, i)
            for part in ("deal", "turn", "end", "score"):
                assert facts["parts"][part] >= 1, (lang, game, part)
        if lang in ("en", "es") or (game in ("", "billitonnen") and size == "phone"):
            name = f"howto-{lang}-{game or 'index'}-{size}.png"
            pg.screenshot(path=str(ARTIFACTS / name), full_page=True)
        assert errors == [], errors


def test_play_now_opens_the_lobby_on_that_game(server, contexts):  # noqa: F811
    pg, errors = _open(contexts, server, "en", "phone", "passing")
    pg.locator("section.about a[href^='/?play=']").click()
    pg.wait_for_selector("body[data-ready='1']")
    assert pg.locator("#variant").input_value() == "passing"
    assert pg.evaluate("document.activeElement.id") == "play-now"
    assert errors == []


def test_an_unknown_game_says_so(server, contexts):  # noqa: F811
    pg, errors = _open(contexts, server, "it", "phone", "chess")
    assert pg.locator("h1.page-title").inner_text().strip() != ""
    assert pg.locator("a[href='/how-to-play']").count() >= 1
    assert _missing(pg) == []
    assert errors == []


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
