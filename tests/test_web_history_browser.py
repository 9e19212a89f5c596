"""The "Your games" page as a person sees it, on a phone and a desktop: a game played to the
end with this browser's profile is listed with its result and score, the game filter keeps
one game's tables, and its replay link opens that game's replay."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from test_web_browser import browser  # noqa: F401  (the fixture sized uses)
from test_web_history import auth, make, play
from webutil import InProcess

STATIC = Path(__file__).resolve().parents[1] / "src" / "bonepile" / "web" / "static"
AXE = Path(__file__).parent / "fixtures" / "axe" / "axe.min.js"

BROWSER_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def words(lang: str) -> dict[str, str]:
    """The language's merged catalogue, as the server sends it."""
    out: dict[str, str] = {}
    for f in sorted((STATIC / "i18n" / lang).glob("*.json")):
        out.update(json.loads(f.read_text(encoding="utf-8")))
    return out


@pytest.mark.browser
@pytest.mark.parametrize(
    ("size", "lang"), [((390, 844), "es"), ((1366, 768), "en")], ids=["phone", "desktop"]
)
def test_your_games_lists_the_finished_game_and_opens_its_replay(tmp_path, size, lang):
    sync_api = pytest.importorskip("playwright.sync_api")
    if shutil.which("chromium") is None:
        pytest.skip("no chromium on PATH")
    with InProcess(f"sqlite:///{tmp_path}/b.db", grace=1000, hand_pause=0) as srv:
        ana = make(srv, "Ana")
        tid = play(srv, ana["key"], rated=True)  # before the browser's event loop runs
        info = srv.info(tid)
        with srv.client() as c:
            row = c.get(f"/api/profiles/{ana['id']}/games", headers=auth(ana["key"])).json()["games"][0]
        with sync_api.sync_playwright() as p:
            browse(p, srv, size, lang, tmp_path, ana, tid, info, row)


def browse(p, srv, size, lang, tmp_path, ana, tid, info, row) -> None:
    """As a person with the profile in this browser: the lobby's card, the list, the filter,
    the replay."""
    b = p.chromium.launch(executable_path=shutil.which("chromium"), args=BROWSER_ARGS)
    try:
        ctx = b.new_context(viewport={"width": size[0], "height": size[1]}, bypass_csp=True)
        stored = json.dumps({"id": ana["id"], "key": ana["key"]})
        ctx.add_init_script(
            f"localStorage.setItem('bonepile:profile', {json.dumps(stored)});"
            f"localStorage.setItem('bonepile:lang', {json.dumps(lang)});"
        )
        w = words(lang)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        # from the lobby's profile card
        page.goto(srv.http + "/")
        page.wait_for_selector("body[data-ready='1']")
        page.click("#profile-games")
        page.wait_for_url("**/me")
        page.wait_for_selector("body[data-ready='1']")
        item = page.locator(f"#games li[data-table='{tid}']")
        assert page.locator("#games li").count() == 1
        assert item.locator(".result").inner_text() == w[f"history.{row['result']}"]
        mine, theirs = info["totals"][0], info["totals"][1]
        score = w["history.score"].replace("{mine}", str(mine)).replace("{others}", str(theirs))
        assert item.locator(".score").inner_text() == score
        against = w["history.against"].replace("{names}", w["bot.level.casual"])
        assert item.locator(".who").inner_text() == against
        assert item.locator(".badge").inner_text() == w["history.rated"]
        wins = 1 if row["result"] == "won" else 0
        stats = w["history.stats.one"].replace("{n}", "1").replace("{wins}", str(wins))
        assert page.locator("#stats").inner_text() == stats.replace("{rate}", str(wins * 100))
        # the page fits the screen: nothing wider than the window; no serious accessibility fault
        assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
        page.add_script_tag(path=str(AXE))
        found = page.evaluate(
            "async () => (await axe.run(document, { resultTypes: ['violations'] })).violations"
            ".filter(v => v.impact === 'serious' || v.impact === 'critical').map(v => v.id + ': ' + v.help)"
        )
        assert found == [], found
        page.screenshot(path=str(tmp_path / f"me-{size[0]}.png"), full_page=True)
        # another game's filter: none of them; back to this game's
        page.select_option("#game-filter", "draw")
        page.wait_for_selector("#empty:not([hidden])")
        assert page.locator("#games li").count() == 0
        assert page.locator("#empty").inner_text() == w["history.none_of_game"]
        page.select_option("#game-filter", "block")
        page.wait_for_selector(f"#games li[data-table='{tid}']")
        # the replay link opens that game's replay
        item.locator("a.replay").click()
        page.wait_for_url(f"**/replay?table={tid}")
        page.wait_for_selector("#player:not([hidden])")
        assert page.locator("#hand-select option").count() == info["hands"]
        assert not errors, errors
    finally:
        b.close()


# ---------------------------------------------------------------------------- the figures
pytest_plugins = ["pages"]  # the sized page fixture (its browser: test_web_browser's)
SIZES = [("phone", "es"), ("laptop", "en")]


def figures(page) -> dict[str, tuple[str, str]]:
    """The figures the page shows: stat -> (its words, its number)."""
    out = {}
    for item in page.locator("#stat-list .stat").all():
        out[item.get_attribute("data-stat")] = (
            item.locator("dt").inner_text(),
            item.locator("dd").inner_text(),
        )
    return out


def with_profile(page, profile: dict, lang: str) -> None:
    stored = json.dumps({"id": profile["id"], "key": profile["key"]})
    page.add_init_script(
        f"localStorage.setItem('bonepile:profile', {json.dumps(stored)});"
        f"localStorage.setItem('bonepile:lang', {json.dumps(lang)});"
    )


@pytest.mark.parametrize(("size", "lang"), SIZES, ids=[s for s, _ in SIZES])
def test_the_figures_of_your_games_and_only_the_games_that_have_them(tmp_path, sized, size, lang):
    import random
    import time

    from bonepile.engine import Game, make_variant
    from test_web_results import capicu_then_blocked, chuchazo_by_seat_0, finish_randomly, stored_table

    with InProcess(f"sqlite:///{tmp_path}/f.db") as srv:
        ana = make(srv, "Ana")
        now = time.time()
        first = stored_table(
            srv, capicu_then_blocked(), "quinientos", [ana["id"], None, None, None], now - 20
        )
        # its analysis stored: Ana's side's luck and skill over 2 hands (web/store/luck.py)
        from bonepile.web.store.luck import store_figures

        side = {"hands": 2, "result": 10.0, "luck": 8.0, "skill": -6.0}
        analysis = {
            "luck": [{"side": 0, **side}, {"side": 1, **side, "luck": -8.0, "skill": 6.0, "result": -10.0}]
        }
        assert store_figures(srv.server.store.engine, first, analysis) == 1
        stored_table(srv, chuchazo_by_seat_0(), "quinientos", [None, None, ana["id"], None], now - 10)
        draw = Game(
            make_variant("draw", {"players": 2, "target": 1}), seed=5, auto_deal=False, snapshots=False
        )
        finish_randomly(draw, random.Random(1))
        stored_table(srv, draw, "draw", [None, ana["id"]], now - 30)
        with srv.client() as c:
            every = c.get(f"/api/profiles/{ana['id']}/games").json()["stats"]
            only_draw = c.get(f"/api/profiles/{ana['id']}/games?game=draw").json()["stats"]
        w = words(lang)
        page = sized(size)
        with_profile(page, ana, lang)
        page.goto(srv.http + "/me")
        page.wait_for_selector("body[data-ready='1']")
        page.wait_for_selector("#stat-list .stat")
        # every game: no points per hand (two games' points do not add up); the capicús and
        # chuchazos of the games that have them
        assert figures(page) == {
            "hands": (w["history.stat.hands"], str(every["hands"])),
            "dominoes": (w["history.stat.dominoes"], "1"),
            "blocked_won": (w["history.stat.blocked_won"], str(every["blocked_won"])),
            "capicus": (w["history.stat.capicus"], "1"),
            "chuchazos": (w["history.stat.chuchazos"], "0"),
            # luck and skill per hand: the analysed games' (one game's: their points add up)
            "luck": (w["luck.stat.luck"], "+4"),
            "skill": (w["luck.stat.skill"], "-3"),
        }
        luck = page.locator(f"#games li[data-table='{first}'] .luck")
        assert luck.inner_text() == w["luck.game"].replace("{luck}", "+4").replace("{skill}", "-3")
        assert page.locator("#games .luck").count() == 1  # the games not analysed: no figure
        assert page.locator("#stat-list").get_attribute("aria-label") == w["history.figures"]
        assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
        page.screenshot(path=str(tmp_path.parent / f"me-figures-{size}.png"), full_page=True)
        # one game: its points per hand, in the reader's numbers (161.67 shown as 161.7)
        page.select_option("#game-filter", "quinientos")
        page.wait_for_function("() => document.querySelectorAll('#games li').length === 2")
        page.wait_for_selector("#stat-list .stat[data-stat='points_per_hand']")
        got = figures(page)
        assert got["points_per_hand"] == (w["history.stat.points_per_hand"], "161.7")
        assert (got["hands"][1], got["dominoes"][1], got["blocked_won"][1]) == ("3", "1", "1")
        assert (got["capicus"][1], got["chuchazos"][1]) == ("1", "0")
        page.screenshot(path=str(tmp_path.parent / f"me-figures-quinientos-{size}.png"), full_page=True)
        # a game without capicús or chuchazos: not a word of them
        page.select_option("#game-filter", "draw")
        page.wait_for_function("() => !document.querySelector('#stat-list [data-stat=\"capicus\"]')")
        got = figures(page)
        assert set(got) == {"hands", "points_per_hand", "dominoes", "blocked_won"}  # (no luck: not analysed)
        assert got["hands"][1] == str(only_draw["hands"])
        # nothing on the page is English in Spanish
        if lang != "en":
            text = page.locator("main").inner_text()
            for k in ("history.stat.hands", "history.stat.dominoes", "history.stat.blocked_won"):
                assert words("en")[k] not in text


# ---------------------------------------------------------------------------- the lobby
@pytest.mark.parametrize(("size", "lang"), SIZES, ids=[s for s, _ in SIZES])
def test_the_lobby_shows_each_seated_players_rating(tmp_path, sized, size, lang):
    import time

    from sqlalchemy import insert

    from bonepile.arena.skill import PROVISIONAL_GAMES
    from bonepile.web.store.database import ratings_t

    with InProcess(f"sqlite:///{tmp_path}/l.db") as srv:
        ana, bea = make(srv, "Ana"), make(srv, "Bea")
        with srv.server.store.engine.begin() as c:
            for who, mu, sigma, games in ((ana, 31.25, 2.0, PROVISIONAL_GAMES + 5), (bea, 27.0, 6.5, 2)):
                c.execute(
                    insert(ratings_t).values(
                        participant=f"profile:{who['id']}", game="block-2", mu=mu, sigma=sigma, games=games,
                        name=who["name"], updated=time.time(),
                    )
                )  # fmt: skip
        tables = {}
        for who in (ana, bea):
            body = {"variant": "block", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}
            if who is ana:
                body["rated"] = True
            tables[who["name"]] = srv.post("/api/tables", body, headers=auth(who["key"])).json()["id"]
        w = words(lang)
        page = sized(size)
        page.add_init_script(f"localStorage.setItem('bonepile:lang', {json.dumps(lang)});")
        page.goto(srv.http + "/")
        page.wait_for_selector("body[data-ready='1']")
        page.wait_for_selector(f"tr[data-table='{tables['Ana']}']")
        # 1500 + 29.48 (mu - 25): 1684 for Ana; Bea's is provisional, marked "?"
        ana_words = w["lobbyratings.rating"].replace("{name}", "Ana").replace("{rating}", "1684")
        bea_words = w["lobbyratings.rating"].replace("{name}", "Bea").replace("{rating}", "1559?")
        free = w["lobby.free_seat"]
        assert page.locator(f"tr[data-table='{tables['Ana']}'] .who").inner_text() == f"{ana_words}, {free}"
        assert page.locator(f"tr[data-table='{tables['Bea']}'] .who").inner_text() == f"{bea_words}, {free}"
        assert page.locator("#ratings-note").inner_text() == w["lobbyratings.note"]
        assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
        page.locator(".open-tables").scroll_into_view_if_needed()
        page.screenshot(path=str(tmp_path.parent / f"lobby-ratings-{size}.png"), full_page=True)
