"""An automated accessibility check: axe-core (vendored in tests/fixtures/axe/, from the npm
registry; nothing is downloaded when the tests run) injected by Playwright into the lobby, a
table in play (phone and laptop sizes, the end choice open), the end of a hand, the replay
page and How to play when the server has it: no serious or critical violation."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from test_web_browser import (  # noqa: F401  (fixtures)
    ARTIFACTS,
    _open_seat,
    _play_to_the_end,
    _post,
    browser,
    server,
    wait_turn_or_end,
)

AXE = Path(__file__).parent / "fixtures" / "axe" / "axe.min.js"
pytest_plugins = ["pages"]  # the sized page fixture


def axe_problems(page, name: str) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now, one line each."""
    if not page.evaluate("!!window.axe"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate("""async () => {
        const res = await axe.run(document, { resultTypes: ['violations'] });
        return res.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
            .map(v => ({ id: v.id, impact: v.impact, help: v.help,
                         nodes: v.nodes.slice(0, 4).map(n => n.target.join(' ') + ': ' + n.failureSummary) })); }""")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"axe_{name}.png"))
    return [f"{v['id']} ({v['impact']}): {v['help']} -- {json.dumps(v['nodes'])}" for v in found]


def test_axe_is_vendored_with_its_licence():
    import hashlib
    import re

    head = AXE.read_text()[:200]
    version = re.match(r"/\*! axe v(\d+\.\d+\.\d+)", head)
    assert version, "not axe-core"
    lic = (AXE.parent / "LICENSE").read_text()
    assert "Mozilla Public License" in lic and "2.0" in lic
    note = (AXE.parent / "README.md").read_text()
    assert f"**{version.group(1)}**" in note  # the version noted is the version vendored
    assert hashlib.sha256(AXE.read_bytes()).hexdigest() in note


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_the_lobby(server, sized, size):  # noqa: F811
    page = sized(size)
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    problems = axe_problems(page, f"lobby_{size}")
    assert not problems, "\n".join(problems)


def _table(server: str, variant: str, players: int) -> dict:  # noqa: F811
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * (players - 1)
    return _post(
        server, "/api/tables", {"variant": variant, "players": players, "seats": seats, "player": "Newbie"}
    )


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_a_table_in_play(server, sized, size):  # noqa: F811
    """Cinque (a spinner, four arms, teams): checked on your turn, with a tile that fits two
    ends chosen when there is one, the score pad and chat open on a phone."""
    page = sized(size)
    _open_seat(page, server, _table(server, "cinque", 4))
    checked = []
    for _ in range(30):
        if wait_turn_or_end(page) != "play":
            break
        if not checked:
            checked += axe_problems(page, f"table_{size}")
        # a tile that fits two ends: the choice on the board and in the dock
        two = page.evaluate("""async () => { const m = await import('/static/table/state.js');
            const legal = m.store.state.view.legal || [];
            const n = {}; for (const x of legal) if (x.kind === 'play') (n[x.tile] ||= new Set()).add(x.decision);
            return Object.keys(n).find(t => n[t].size > 1) || null; }""")  # two ends that differ
        if two:
            page.locator(f"#hand button[data-tile='{two}']").tap()
            page.wait_for_selector("#board .end-choice")
            checked += axe_problems(page, f"table_choice_{size}")
            break
        seq = page.evaluate("document.body.dataset.seq")
        tiles = page.locator("#hand button.tile-btn.playable")
        if tiles.count():
            tiles.first.tap()
        elif page.locator("#draw").is_visible():
            page.tap("#draw")
        else:
            page.tap("#pass")
        page.wait_for_function(f"document.body.dataset.seq !== {json.dumps(seq)}")
    if size == "phone":
        page.tap("#side-toggle")
        checked += axe_problems(page, f"table_side_{size}")
    assert not checked, "\n".join(checked)


def test_the_end_of_a_hand_and_the_replay(server, sized):  # noqa: F811
    page = sized("laptop")
    created = _table(server, "block", 2)
    _open_seat(page, server, created)
    assert _play_to_the_end(page) in ("hand_over", "over")
    page.wait_for_selector("#revealed:not([hidden])")
    problems = axe_problems(page, "hand_over")
    page.goto(server + f"/replay?table={created['id']}")
    page.wait_for_selector("#player:not([hidden])")
    page.keyboard.press("End")
    problems += axe_problems(page, "replay")
    assert not problems, "\n".join(problems)


def _has_page(server: str, path: str) -> bool:  # noqa: F811
    try:
        with urllib.request.urlopen(server + path, timeout=10) as r:
            return r.status == 200
    except urllib.error.URLError:
        return False


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_how_to_play(server, sized, size):  # noqa: F811
    if not _has_page(server, "/how-to-play"):
        pytest.skip("no How to play page on this server yet")
    page = sized(size)
    page.goto(server + "/how-to-play")
    # the page sets data-ready once its cards or its examples are drawn (networkidle would
    # wait half a second of silence on every page)
    page.wait_for_selector("body[data-ready='1']")
    problems = axe_problems(page, f"how_to_play_{size}")
    for link in page.locator("main a[href^='/how-to-play/']").evaluate_all(
        "as => as.map(a => a.getAttribute('href'))"
    )[:7]:
        page.goto(server + link)
        page.wait_for_selector("body[data-ready='1']")
        problems += axe_problems(page, "how_to_play_" + link.rstrip("/").rsplit("/", 1)[-1] + f"_{size}")
    assert not problems, "\n".join(problems)
