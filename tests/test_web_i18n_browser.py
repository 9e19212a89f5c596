"""The interface in each of its six languages, in a real browser: the lobby, a table in play,
a table whose hand is over (one table, its hand played once over its socket, looked at in
every language) and the replay page show no missing key and no English words of the
catalogue; the browser's language is chosen by default and the player's choice is remembered;
the longer words of Spanish and Indonesian fit a phone and a laptop (screenshots go to
artifacts/: look at them)."""

from __future__ import annotations

import functools
import json
import re

import pytest
from websockets.sync.client import connect

from bonepile.web.words.i18n import LANGUAGES, catalogue
from test_web_browser import (  # noqa: F401  (fixtures)
    ARTIFACTS,
    _open_seat,
    _post,
    browser,
    wait_turn_or_end,
)
from webutil import logged_server

PLACEHOLDER = re.compile(r"\{\w+\}")
SIZES = {"phone": (390, 844), "laptop": (1366, 768)}


def _found(piece: str, text: str) -> bool:
    # (the substring test first: most pieces are not in the text at all, and it is far cheaper
    # than compiling a pattern for each)
    return piece in text and re.search(rf"(?<!\w){re.escape(piece)}(?!\w)", text) is not None


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


#: every word a person can read or hear: the page's text, menus, labels and titles
WORDS = """() => [document.body.innerText,
    ...[...document.querySelectorAll('option')].map(o => o.textContent),
    ...[...document.querySelectorAll('[aria-label]')].map(e => e.getAttribute('aria-label')),
    ...[...document.querySelectorAll('[placeholder]')].map(e => e.getAttribute('placeholder')),
    ...[...document.querySelectorAll('[title]')].map(e => e.getAttribute('title')),
    ...[...document.querySelectorAll('svg title, svg text')].map(e => e.textContent)].join('\\n')"""


def _words(page) -> str:
    """Every word a person can read or hear (``WORDS``)."""
    return page.evaluate(WORDS)


def _every_game_in_the_lobby(page) -> list[tuple[str, str, list[str], str]]:
    """Each game chosen in the lobby's form as a person would (the menu's value changed, its
    input and change events sent): (game, page language, keys without words, ``WORDS``), in
    one call to the page rather than a few per game."""
    return page.evaluate(
        "async () => { const words = ("
        + WORDS
        + """);
            const i18n = await import('/static/i18n.js');
            const menu = document.getElementById('variant');
            const out = [];
            for (const name of [...menu.options].map(o => o.value)) {
                menu.value = name;
                menu.dispatchEvent(new Event('input', { bubbles: true }));
                menu.dispatchEvent(new Event('change', { bubbles: true }));
                out.push([name, document.documentElement.lang, [...i18n.missing], words()]);
            }
            return out; }"""
    )


def _missing(page) -> list[str]:
    return page.evaluate("import('/static/i18n.js').then(m => [...m.missing])")


@functools.cache
def _any_english(lang: str) -> re.Pattern[str]:
    """One pattern that finds a piece of ``english_only(lang)`` wherever ``_found`` would (the
    pieces one by one are a thousand searches a page)."""
    pieces = sorted(english_only(lang), key=len, reverse=True) or ["(?!)"]
    return re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, pieces)) + r")(?!\w)")


def _leaks(lang: str, words: str) -> list[str]:
    """The pieces of English in a text of lang (none in English)."""
    if lang == "en" or not _any_english(lang).search(words):
        return []
    return sorted(p for p in english_only(lang) if _found(p, words))


def _check(page, lang: str, where: str) -> None:
    assert page.evaluate("document.documentElement.lang") == lang
    assert _missing(page) == [], f"{lang} {where}: keys without words"
    leaks = _leaks(lang, _words(page))
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


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """test_web_browser's server, but a finished hand stays on the table until its player
    moves on (the ``finished`` table is looked at in every language, for minutes)."""
    args = ("--bot-delay", "0", "--create-rate", "100000", "--hand-pause", "100000")
    with logged_server(tmp_path_factory.mktemp("serve"), *args) as base:
        yield base


def _table(server) -> dict:
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


def _play_first_hand(server: str, created: dict) -> None:
    """Play seat 0 of a table made by ``_table`` over its socket (the first legal move each
    turn) until the first hand is over: the pages of a finished hand, without playing it
    again in every language (test_web_browser plays hands by clicking)."""
    url = server.replace("http", "ws", 1) + f"/ws/tables/{created['id']}?token={created['token']}"
    with connect(url, max_size=1 << 22, open_timeout=30) as ws:
        acted = None
        for _ in range(2000):
            msg = json.loads(ws.recv(timeout=30))
            if msg["type"] != "state":
                assert msg["type"] != "error", msg
                continue
            view, phase = msg["view"], msg["phase"]
            if phase in ("hand_over", "over"):
                return
            if msg["seq"] == acted:
                continue
            if phase == "play" and view and view["to_move"] == 0 and not msg["forced"]:
                acted = msg["seq"]
                ws.send(json.dumps({"type": "move", "move": view["legal"][0]["move"], "id": msg["seq"]}))
            elif phase == "leader" and msg["pending"] and 0 in msg["pending"]["seats"]:
                acted = msg["seq"]
                ws.send(json.dumps({"type": "leader", "seat": msg["pending"]["seats"][0]}))
    raise AssertionError("the first hand did not end")


@pytest.fixture(scope="module")
def finished(server) -> dict:
    """A table of ``_table`` whose first hand is over, Ana still at it (seat 0's token)."""
    created = _table(server)
    _play_first_hand(server, created)
    return created


#: the languages whose words run longer than English: their pages are looked at on a laptop in
#: ``test_every_page_in_every_language`` and on a phone in ``test_long_words_fit``
LONG = ["es", "id", "it", "da", "nl"]


def _fit_on(page, lang: str, size: str, where: str, shot: str, full_page: bool = False) -> None:
    """The page fits the screen (``_fits``); a screenshot of it for the longer languages."""
    if lang in LONG:
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"i18n-{lang}-{shot}-{size}.png"), full_page=full_page)
    assert _fits(page) == [], f"{lang} {size}: {where}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_in_every_language(server, browser, finished, lang):  # noqa: F811
    """The lobby, a table played to the end of a hand and its replay, all in lang, and each of
    them fits a laptop's screen (the longer words too: the phone is ``test_long_words_fit``)."""
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
        page.select_option("#variant", "quinientos")  # the game with the most options
        _fit_on(page, lang, "laptop", "lobby", "lobby", full_page=True)
        # every game's rules in the lobby's form
        games = _every_game_in_the_lobby(page)
        assert len(games) > 1
        for name, shown_in, missing, words in games:
            assert shown_in == lang and missing == [], f"{lang} lobby ({name}): keys without words"
            assert _leaks(lang, words) == [], f"{lang} lobby ({name}): English on the page"
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
        _open_seat(page, server, _table(server))
        assert wait_turn_or_end(page) == "play"
        _check(page, lang, "table in play")
        _fit_on(page, lang, "laptop", "table", "table")
        _open_seat(page, server, finished)
        assert wait_turn_or_end(page) in ("hand_over", "over")
        _check(page, lang, "table at the end of a hand")
        _fit_on(page, lang, "laptop", "hand over", "hand-over")
        page.goto(server + f"/replay?table={finished['id']}")
        page.wait_for_selector("#frame-info:not(:empty)")
        _check(page, lang, "replay")
        _fit_on(page, lang, "laptop", "replay", "replay", full_page=True)
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


@pytest.mark.parametrize("lang", LONG)
def test_long_words_fit(server, browser, finished, lang):  # noqa: F811
    """Longer words than English (Spanish and Indonesian run longest): the lobby, a table and
    the replay fit a phone (a laptop: ``test_every_page_in_every_language``, on its way)."""
    size = "phone"
    ctx = _context(browser, lang, size, has_touch=True)
    try:
        page = ctx.new_page()
        page.set_default_timeout(30000)  # a loaded 2-core machine is slow
        page.goto(server + "/")
        page.wait_for_selector("body[data-ready='1']")
        page.select_option("#variant", "quinientos")
        _fit_on(page, lang, size, "lobby", "lobby", full_page=True)
        _open_seat(page, server, _table(server))
        assert wait_turn_or_end(page) == "play"
        _fit_on(page, lang, size, "table", "table")
        _open_seat(page, server, finished)
        assert wait_turn_or_end(page) in ("hand_over", "over")
        _fit_on(page, lang, size, "hand over", "hand-over")
        page.goto(server + f"/replay?table={finished['id']}")
        page.wait_for_selector("#frame-info:not(:empty)")
        _fit_on(page, lang, size, "replay", "replay", full_page=True)
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
