"""Sealed deals in the browser, on a phone in Spanish: a finished table shows its fingerprint
("Reparto sellado: 3f9a…") and the way to verify; the replay page's "Comprobar el reparto"
button has the server deal every hand again and works out the SHA-256 in the browser itself,
which catches a salt the server would vouch for but that does not match the fingerprint.
Screenshots go to artifacts/ (look at them)."""

from __future__ import annotations

import json
import threading

import pytest

from bonepile.engine.commit import commitment
from test_web_browser import ARTIFACTS, browser  # noqa: F401  (fixtures)
from test_web_deals import _game
from webutil import InProcess, run

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("deals-browser")
    with InProcess(f"sqlite:///{tmp}/db", grace=1000, hand_pause=0, rate=10000) as s:
        yield s


def _finished_table(srv) -> str:
    tid, tokens = srv.people_table("draw", 2, {"target": 30})
    done = threading.Thread(target=lambda: run(_game(srv, tid, tokens), timeout=120))
    done.start()  # the page's own event loop runs in this thread
    done.join(150)
    assert srv.server.tables[tid].game.over
    return tid


def test_a_phone_shows_the_fingerprint_and_verifies_the_deals(served, browser):  # noqa: F811
    tid = _finished_table(served)
    info = served.info(tid)["deals"]
    assert commitment(int(info["seed"]), info["salt"]) == info["commitment"]
    # no service worker: the test stands in for the server's answer below (page.route)
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, bypass_csp=True, service_workers="block"
    )
    ctx.add_init_script("localStorage.setItem('bonepile:lang', 'es')")
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.set_default_timeout(15000)
    try:
        _walk(served, pg, tid, info)
    finally:
        ctx.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def _walk(served, pg, tid: str, info: dict) -> None:
    # the table (watched): the fingerprint line in the side panel, the way to verify once over
    pg.goto(f"{served.http}/t/{tid}?watch=1")
    pg.wait_for_selector("#sealed summary .code", state="attached")
    pg.click("#side-toggle")  # on a phone the side panel opens over the table
    line = pg.inner_text("#sealed summary")
    assert line.startswith(f"Reparto sellado: {info['commitment'][:8]}…") and "(¿qué es esto?)" in line
    pg.click("#sealed summary")
    assert "número secreto" in pg.inner_text("#sealed .explain")
    assert pg.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    pg.screenshot(path=str(ARTIFACTS / "deals-table-phone.png"), full_page=False)
    # the replay page: the button, the browser's own SHA-256, the server's re-deal
    pg.click("#sealed a.verify")
    pg.wait_for_selector("#verify-deals:not([disabled])")
    assert pg.inner_text("#verify-deals") == "Comprobar el reparto"
    pg.click("#verify-deals")
    pg.wait_for_selector("#deals[data-verdict]")
    assert pg.get_attribute("#deals", "data-verdict") == "verified"
    assert info["commitment"] in pg.inner_text("#deals-result [data-kind='hash-ok']")
    assert pg.inner_text("#deals-status").startswith("Comprobado")
    assert pg.locator("#deals-result [data-kind='finding']").count() == 0
    assert pg.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    pg.locator("#deals").screenshot(path=str(ARTIFACTS / "deals-verified-phone.png"))

    # a server vouching for a salt that is not the one committed to: the browser's hash says no
    lie = dict(served.get(f"/api/tables/{tid}/verify").json(), salt="0" * 32)
    assert lie["status"] == "verified"

    def lying(route):
        route.fulfill(status=200, content_type="application/json", body=json.dumps(lie))

    pg.route("**/api/tables/*/verify", lying)
    pg.click("#verify-deals")
    pg.wait_for_function("document.getElementById('deals').dataset.verdict === 'mismatch'")
    bad = pg.inner_text("#deals-result [data-kind='hash-bad']")
    assert commitment(int(info["seed"]), "0" * 32) in bad and "NO es la huella" in bad
    pg.locator("#deals").screenshot(path=str(ARTIFACTS / "deals-mismatch-phone.png"))
