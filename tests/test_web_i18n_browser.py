"""The interface in each of its six languages, in a real browser: the lobby, a table in play
(to the end of a hand) and the replay page show no missing key and no English words of the
catalogue; the browser's language is chosen by default and the player's choice is remembered;
the longer words of Spanish and Indonesian fit a phone and a laptop (screenshots go to
artifacts/: look at them)."""

from __future__ import annotations

import functools
import re

import pytest

from bonepile.web.words.i18n import LANGUAGES, catalogue
from test_web_browser import (  # noqa: F401  (fixtures)
    ARTIFACTS,
    _open_seat,
    _play_to_the_end,
    _post,
    browser,
    server,
    wait_turn_or_end,
)

PLACEHOLDER = re.compile(r"\{\w+\}")
SIZES = {"phone": (390, 844), "laptop": (1366, 768)}


def _found(piece: str, text: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(piece)}(?!\w)", text) is not None


@functools.cache
def english_only(lang: str) -> frozenset[str]:
    """Pieces of English text (between placeholders, five letters or more) that no text of
    lang contains: any of them on a page in lang is an English fallback."""
    en, other = catalogue("en"), catalogue(lang)
    theirs = "\n".join(other.values())
    out = set()
    for key, text in en.items():
        if other.get(key) == text:
            continue
        for piece in PLACEHOLDER.split(text):
            piece = piece.strip(" .,:;()!?·—-«»▶◀→")
            if len(piece) >= 5 and not _found(piece, theirs):
                out.add(piece)
    return frozenset(out)


def _context(browser, lang: str | None, size: str = "laptop", **kw):  # noqa: F811
    w, h = SIZES[size]
    ctx = browser.new_context(viewport={"width": w, "height": h}, bypass_csp=True, **kw)
    if lang:
        ctx.add_init_script(f"try {{ localStorage.setItem('bonepile:lang', '{lang}'); }} catch (e) {{}}")
    return ctx


def _words(page) -> str:
    """Every word a person can read or hear: the page's text, menus, labels and titles."""
    return page.evaluate("""() => [document.body.innerText,
        ...[...document.querySelectorAll('option')].map(o => o.textContent),
        ...[...document.querySelectorAll('[aria-label]')].map(e => e.getAttribute('aria-label')),
        ...[...document.querySelectorAll('[placeholder]')].map(e => e.getAttribute('placeholder')),
        ...[...document.querySelectorAll('[title]')].map(e => e.getAttribute('title')),
        ...[...document.querySelectorAll('svg title, svg text')].map(e => e.textContent)].join('\\n')""")


def _missing(page) -> list[str]:
    return page.evaluate("import('/static/i18n.js').then(m => [...m.missing])")


def _check(page, lang: str, where: str) -> None:
    assert page.evaluate("document.documentElement.lang") == lang
    assert _missing(page) == [], f"{lang} {where}: keys without words"
    words = _words(page)
    leaks = sorted(p for p in english_only(lang) if _found(p, words)) if lang != "en" else []
    assert leaks == [], f"{lang} {where}: English on the page"


def _fits(page) -> list[str]:
    """What overflows: the page sideways, or a button's or heading's text past its box."""
    return page.evaluate("""() => {
        const bad = [];
        if (document.documentElement.scrollWidth > innerWidth + 1) bad.push('page ' + document.documentElement.scrollWidth);
        for (const e of document.querySelectorAll('button, h1, h2, legend, label, th, .badge, .seat-box .name, nav a')) {
            if (!e.offsetParent) continue;
            if (e.scrollWidth > e.clientWidth + 2 && getComputedStyle(e).overflowX !== 'hidden')
                bad.push((e.id || e.tagName) + ': ' + e.textContent.trim().slice(0, 40));
        }
        return bad; }""")


def _table(server) -> dict:  # noqa: F811
    return _post(
        server,
        "/api/tables",
        {
            "variant": "cinque",
            "players": 4,
            "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3,
            "player": "Ana",
        },
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_in_every_language(server, browser, lang):  # noqa: F811
    """The lobby, a table played to the end of a hand and its replay, all in lang."""
    ctx = _context(browser, lang)
    errors: list[str] = []
    try:
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.set_default_timeout(30000)  # a loaded 2-core machine is slow
        page.goto(server + "/")
        page.wait_for_selector("body[data-ready='1']")
        page.wait_for_selector("#tables table, #tables p:not([data-i18n])")
        _check(page, lang, "lobby")
        # every game's rules in the lobby's form
        for name in page.locator("#variant option").evaluate_all("os => os.map(o => o.value)"):
            page.select_option("#variant", name)
            _check(page, lang, f"lobby ({name})")
        # a stranger's way in: a table with a free seat
        waiting = _post(
            server,
            "/api/tables",
            {
                "variant": "draw",
                "players": 2,
                "seats": [{"kind": "human"}, {"kind": "human"}],
                "player": "Bo",
            },
        )
        page.goto(server + f"/t/{waiting['id']}")
        page.wait_for_selector("#join-info:not(:empty)")
        _check(page, lang, "join form")
        # a spectator's table: bots playing
        bots = _post(
            server,
            "/api/tables",
            {"variant": "quinientos", "players": 4, "seats": [{"kind": "bot", "level": "random"}] * 4},
        )
        page.goto(server + f"/t/{bots['id']}?watch=1")
        page.wait_for_selector("body[data-conn='1']")
        page.wait_for_function("document.body.dataset.phase && document.body.dataset.phase !== 'waiting'")
        _check(page, lang, "watching a table")
        created = _table(server)
        _open_seat(page, server, created)
        assert wait_turn_or_end(page) == "play"
        _check(page, lang, "table in play")
        assert _play_to_the_end(page, hands=1) in ("hand_over", "over")
        _check(page, lang, "table at the end of a hand")
        page.goto(server + f"/replay?table={created['id']}")
        page.wait_for_selector("#frame-info:not(:empty)")
        _check(page, lang, "replay")
        page.click("#last")
        _check(page, lang, "replay, the hand's last move")
    finally:
        ctx.close()
    assert errors == []


def test_the_browsers_language_is_chosen(server, browser):  # noqa: F811
    for locale, lang in [
        ("es-PR", "es"),
        ("id-ID", "id"),
        ("nl-BE", "nl"),
        ("da", "da"),
        ("it-IT", "it"),
        ("fr-FR", "en"),
    ]:
        ctx = _context(browser, None, locale=locale)
        try:
            page = ctx.new_page()
            page.goto(server + "/")
            page.wait_for_selector("body[data-ready='1']")
            assert page.evaluate("document.documentElement.lang") == lang, locale
            assert page.locator("#new-title").inner_text() == catalogue(lang)["lobby.new_table"]
        finally:
            ctx.close()


def test_the_switch_is_remembered(server, browser):  # noqa: F811
    ctx = _context(browser, None, locale="en-US")
    try:
        page = ctx.new_page()
        page.goto(server + "/")
        page.wait_for_selector("body[data-ready='1']")
        assert page.locator("#create").inner_text() == "Create table"
        switch = page.locator("[data-language-switch] select")
        assert switch.evaluate("s => [...s.options].map(o => o.textContent)") == [
            "English",
            "Español",
            "Italiano",
            "Dansk",
            "Nederlands",
            "Bahasa Indonesia",
        ]
        with page.expect_navigation():
            switch.select_option("id")
        page.wait_for_selector("body[data-ready='1']")
        assert page.locator("#create").inner_text() == catalogue("id")["lobby.create"]
        page.reload()
        page.wait_for_selector("body[data-ready='1']")
        assert page.evaluate("document.documentElement.lang") == "id"
        page.goto(server + "/replay")
        page.wait_for_selector("body[data-ready='1']")
        assert page.locator("#load-title").inner_text() == catalogue("id")["replay.load"]
        assert page.locator("[data-language-switch] select").input_value() == "id"
    finally:
        ctx.close()


@pytest.mark.parametrize("lang", ["es", "id", "it", "da", "nl"])
@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_long_words_fit(server, browser, lang, size):  # noqa: F811
    """Longer words than English (Spanish and Indonesian run longest): the lobby, a table and
    the replay fit the screen."""
    ctx = _context(browser, lang, size, has_touch=size == "phone")
    try:
        page = ctx.new_page()
        page.set_default_timeout(30000)  # a loaded 2-core machine is slow
        page.goto(server + "/")
        page.wait_for_selector("body[data-ready='1']")
        page.select_option("#variant", "quinientos")
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"i18n-{lang}-lobby-{size}.png"), full_page=True)
        assert _fits(page) == [], "lobby"
        created = _table(server)
        _open_seat(page, server, created)
        assert wait_turn_or_end(page) == "play"
        page.screenshot(path=str(ARTIFACTS / f"i18n-{lang}-table-{size}.png"))
        assert _fits(page) == [], "table"
        _play_to_the_end(page, hands=1)
        page.screenshot(path=str(ARTIFACTS / f"i18n-{lang}-hand-over-{size}.png"))
        assert _fits(page) == [], "hand over"
        page.goto(server + f"/replay?table={created['id']}")
        page.wait_for_selector("#frame-info:not(:empty)")
        page.screenshot(path=str(ARTIFACTS / f"i18n-{lang}-replay-{size}.png"), full_page=True)
        assert _fits(page) == [], "replay"
    finally:
        ctx.close()


@pytest.mark.parametrize("lang", ["es", "id"])
def test_the_servers_refusals_in_the_readers_language(server, browser, lang):  # noqa: F811
    """A refusal the server sends with its code (a full table, a seat token it does not know, a
    move out of turn) reaches the player in their language; one with no code, or a code the
    client has no words for, stays as written."""
    full = _post(
        server,
        "/api/tables",
        {
            "variant": "draw",
            "players": 2,
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}],
            "player": "Bo",
        },
    )
    cat = catalogue(lang)
    ctx = _context(browser, lang)
    try:
        page = ctx.new_page()
        page.goto(server + "/")
        page.wait_for_selector("body[data-ready='1']")
        said = page.evaluate(
            """async (id) => { const C = await import('/static/common.js');
                const out = [];
                for (const [path, body] of [[`/api/tables/${id}/join`, { name: 'Ana' }],
                                            [`/api/tables/${id}/start`, { token: 'nope' }],
                                            ['/api/tables/nosuch/join', { name: 'Ana' }]]) {
                  try { await C.api('POST', path, body); out.push(null); } catch (e) { out.push(e.message); }
                }
                out.push(C.serverWords('it is not your turn (seat 2 is to move)', 'not_your_turn'));
                out.push(C.serverWords("illegal move '6-6@L': it does not fit", 'illegal_move'));
                out.push(C.serverWords('a chat message is at most 200 characters', 'chat_long', { max: 200 }));
                out.push(C.serverWords('something new the client has no words for', 'no_such_code'));
                out.push(C.serverWords('it is not your turn (seat 2 is to move)'));  // no code: as written
                return out; }""",
            full["id"],
        )
        assert said == [
            cat["error.table_full"],
            cat["error.token"],
            cat["error.no_table"],
            cat["error.not_your_turn"],
            cat["error.illegal_move"],
            cat["error.chat_long"],
            "something new the client has no words for",
            "it is not your turn (seat 2 is to move)",
        ]
    finally:
        ctx.close()


@pytest.mark.parametrize("lang", ["es", "nl"])
def test_the_open_tables_name_seats_in_the_readers_words(server, browser, lang):  # noqa: F811
    """The lobby's list of open tables calls a free seat and a bot the server named ("Seat 1",
    "random bot 1") in the reader's words, not the server's English."""
    made = _post(
        server,
        "/api/tables",
        {
            "variant": "draw",
            "players": 3,
            "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}],
            "player": "Bo",
        },
    )
    cat = catalogue(lang)
    ctx = _context(browser, lang)
    try:
        page = ctx.new_page()
        page.goto(server + "/")
        row = page.locator("#tables tr", has=page.locator(f"a[href*='{made['id']}']"))
        row.wait_for()
        text = row.inner_text()
        assert "Bo" in text and cat["lobby.free_seat"] in text
        assert "Seat 1" not in text and "random bot" not in text, text
        assert cat["seat.server_bot"].replace("{n}", "3") in text, text  # the third seat, counted from 1
    finally:
        ctx.close()
