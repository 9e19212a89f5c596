"""The leaderboards in the browser, on a phone (390x844) and a laptop (1366x768): pick a game
and a player count, see its players best first (a bot by its level's words, a renamed
profile by its new name), your own row marked and your provisional rating told; a board
without players says so.  And the lobby's "Rated game" box makes a rated table.
Screenshots go to artifacts/ (look at them)."""

from __future__ import annotations

import json
import urllib.request

import pytest

from bonepile.web.words.i18n import LANGUAGES
from test_web_axe import axe_problems
from test_web_browser import ARTIFACTS, browser  # noqa: F401  (fixtures)
from test_web_i18n_browser import _check, _fits
from test_web_leaders import seed
from webutil import InProcess

pytest_plugins = ["pages"]  # the sized page fixture
SIZES = ("phone", "laptop")


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("leaders")
    with InProcess(f"sqlite:///{tmp}/db", grace=1000) as s:
        store = s.server.store
        for pid, name in [("aa", "Ana"), ("bb", "Bruno"), ("cc", "Chen"), ("dd", "Dee")]:
            store.create_profile(pid, name, f"hash-{pid}")
        seed(
            s,
            "block-2",
            [
                ("profile:bb", 31.0, 1.5, 25, "Bruno"),  # 1677
                ("bot:expert", 29.0, 1.2, 60, None),  # 1618
                ("profile:aa", 27.0, 2.0, 14, "Ana"),  # 1559
                ("profile:cc", 30.0, 3.0, 4, "Chen"),  # provisional: not listed
            ],
        )
        seed(s, "draw-2", [("profile:cc", 26.0, 5.0, 3, "Chen")])  # only a provisional one: 1529
        # Dee plays Draw for three most (and Block for two a little)
        seed(s, "draw-3", [("profile:dd", 25.0, 5.0, 6, "Dee")])
        seed(s, "block-2", [("profile:dd", 25.0, 6.0, 2, "Dee")])
        store.rename_profile("bb", "Bruna")
        yield s


def _bot_words(pg) -> str:
    return pg.evaluate("import('/static/i18n.js').then(m => m.t('bot.level.expert'))")


def _rows(pg) -> list[list[str]]:
    return pg.eval_on_selector_all(
        "#ratings tbody tr", "rs => rs.map(r => [...r.cells].map(c => c.textContent.trim()))"
    )


def _pick(pg, game: str, players: str) -> None:
    pg.select_option("#game", game)
    pg.select_option("#players", players)
    pg.wait_for_function("document.body.dataset.ready === '1'")


@pytest.mark.parametrize("size", SIZES)
def test_a_board_shows_its_players_best_first_and_marks_yours(served, sized, size):
    pg = sized(size, profile="aa")
    pg.goto(served.http + "/leaderboard")
    pg.wait_for_function("document.body.dataset.ready === '1'")
    _pick(pg, "block", "2")
    assert _rows(pg) == [
        ["1", "Bruna", "1677", "25"],
        ["2", "Bot: expert", "1618", "60"],
        ["3", "Ana", "1559", "14"],
    ]
    assert pg.eval_on_selector_all(
        "#ratings tr.mine td:nth-child(2)", "cs => cs.map(c => c.textContent)"
    ) == ["Ana"]
    assert pg.inner_text("#you") == "Your rating: 1559, number 3 on this board."
    assert "?game=block-2" in pg.url
    assert pg.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    pg.screenshot(path=str(ARTIFACTS / f"leaders-{size}.png"), full_page=True)


@pytest.mark.parametrize("size", SIZES)
def test_an_empty_board_says_so_and_a_provisional_rating_is_marked(served, sized, size):
    pg = sized(size, profile="cc")
    pg.goto(served.http + "/leaderboard?game=draw-2")
    pg.wait_for_function("document.body.dataset.ready === '1'")
    assert pg.input_value("#game") == "draw" and pg.input_value("#players") == "2"
    assert pg.locator("#ratings").count() == 0
    assert "No one is on this board yet" in pg.inner_text("#board")
    assert pg.inner_text("#you") == (
        "Your rating: 1529. Provisional: play 7 more rated games to appear on the board."
    )
    pg.screenshot(path=str(ARTIFACTS / f"leaders-empty-{size}.png"), full_page=True)
    # the words follow the reader's language
    pg.evaluate("localStorage.setItem('bonepile:lang', 'es')")
    pg.reload()
    pg.wait_for_function("document.body.dataset.ready === '1'")
    assert "Todavía no hay nadie" in pg.inner_text("#board")
    assert pg.inner_text("#you").startswith("Tu puntuación: 1529. Provisional: juega 7 partidas")


def _info(base: str, tid: str) -> dict:
    with urllib.request.urlopen(f"{base}/api/tables/{tid}", timeout=10) as r:
        return json.loads(r.read())


@pytest.mark.parametrize("size", SIZES)
def test_the_board_opens_on_the_game_you_play_most(served, sized, size):
    pg = sized(size, profile="dd")
    pg.goto(served.http + "/leaderboard")
    pg.wait_for_function("document.body.dataset.ready === '1'")
    assert (pg.input_value("#game"), pg.input_value("#players")) == ("draw", "3")
    assert "?game=draw-3" in pg.url
    # without ratings: the game last chosen in the lobby
    other = sized(size)
    other.add_init_script(
        "localStorage.setItem('bonepile:lobby', JSON.stringify({variant: 'passing', players: 3}))"
    )
    other.goto(served.http + "/leaderboard")
    other.wait_for_function("document.body.dataset.ready === '1'")
    assert (other.input_value("#game"), other.input_value("#players")) == ("passing", "3")


def _made(pg, served) -> dict:
    pg.click("#create")
    pg.wait_for_url("**/t/**")
    return _info(served.http, pg.url.split("/t/", 1)[1].split("?")[0].split("#")[0])


def _lobby(pg, served) -> None:
    pg.goto(served.http + "/")
    pg.wait_for_function("document.body.dataset.ready === '1'")
    pg.fill("#name", "Dana")


@pytest.mark.parametrize("size", SIZES)
def test_the_lobby_rates_games_between_people_by_default_and_remembers_the_choice(served, sized, size):
    pg = sized(size)
    _lobby(pg, served)
    assert "leaderboards" in pg.inner_text("#rated-help")
    assert pg.is_checked("#rated") and not pg.is_checked("#rated-bots")  # on by default
    pg.select_option("#seat-1", "human")  # a friend's seat: a table of people
    pg.screenshot(path=str(ARTIFACTS / f"leaders-lobby-{size}.png"), full_page=True)
    assert _made(pg, served)["rated"] is True
    # bots in every other seat: casual unless asked
    _lobby(pg, served)
    pg.select_option("#seat-1", "bot:expert")
    assert _made(pg, served)["rated"] is False
    _lobby(pg, served)
    pg.check("#rated-bots")
    assert _made(pg, served)["rated"] is True
    # turned off, and remembered at the next visit
    _lobby(pg, served)
    assert pg.is_checked("#rated-bots")
    pg.uncheck("#rated")
    pg.uncheck("#rated-bots")
    pg.select_option("#seat-1", "human")
    assert _made(pg, served)["rated"] is False
    _lobby(pg, served)
    assert not pg.is_checked("#rated")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_page_in_every_language_fits_a_phone(served, sized, lang):
    pg = sized("phone", profile="aa")
    pg.add_init_script(f"localStorage.setItem('bonepile:lang', {json.dumps(lang)})")
    pg.goto(served.http + "/leaderboard?game=block-2")
    pg.wait_for_function("document.body.dataset.ready === '1'")
    rows = _rows(pg)
    assert [r[1] for r in rows] == ["Bruna", _bot_words(pg), "Ana"]
    assert rows[2][2] == "1559"  # a whole number, no grouping, in every language
    _check(pg, lang, "leaderboard")
    assert _fits(pg) == [], lang
    pg.screenshot(path=str(ARTIFACTS / f"leaders-{lang}-phone.png"), full_page=True)
    if lang == "en":
        assert axe_problems(pg, "leaderboard") == []


def test_the_page_runs_under_the_content_security_policy(served, browser):  # noqa: F811
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        pg = ctx.new_page()
        errors: list[str] = []
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        pg.goto(served.http + "/leaderboard?game=block-2")
        pg.locator("#ratings tbody tr").nth(2).wait_for()
        assert pg.locator("#ratings tbody tr").count() == 3
        assert errors == []
    finally:
        ctx.close()
