"""The "Your games" page as a person sees it, on a phone and a desktop: a game played to the
end with this browser's profile is listed with its result and score, the game filter keeps
one game's tables, and its replay link opens that game's replay."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

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
