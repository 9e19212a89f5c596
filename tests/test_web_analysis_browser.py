"""Post-game analysis on the replay page in a real browser, as a person uses it on a phone
(390x844) and a laptop (1366x768): tap Analyse, see the progress and then the marks, step to
a mistake with the keys, see the better move drawn as a ghost tile with its reason in words,
switch to "with every hand shown", tap the graph; the page passes the axe check."""

from __future__ import annotations

import json
import time
import urllib.request

import pytest

from test_web_axe import axe_problems
from test_web_browser import ARTIFACTS, ROOT, _get, browser  # noqa: F401  (fixtures)
from webutil import logged_server

pytest_plugins = ["pages"]  # the sized page fixture

#: the server's analysis budget: small, the tests check the page, not the expert
APP = """
import sys, uvicorn
from bonepile.web.app import create_app
app = create_app(sys.argv[1], bot_delay=0, hand_pause=0, create_rate=100000,
                 analysis_simulations=6, analysis_nodes=3000)
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with logged_server(tmp_path_factory.mktemp("serve-analysis"), code=APP) as base:
        yield base


def _request(base: str, method: str, path: str, body: dict | None = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(
        base + path, data=data, method=method, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def _finished_table(base: str) -> str:
    """A finished game of two random bots (a few hands of the block game)."""
    made = _request(
        base,
        "POST",
        "/api/tables",
        {
            "variant": "block",
            "players": 2,
            "options": {"target": 20},
            "seats": [{"kind": "bot", "level": "random"}] * 2,
        },
    )
    deadline = time.monotonic() + 60
    while _get(base, f"/api/tables/{made['id']}")["status"] != "over":
        assert time.monotonic() < deadline
        time.sleep(0.1)
    return made["id"]


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_analyse_a_finished_game_on_the_replay_page(server, sized, size):
    tid = _finished_table(server)
    page = sized(size)
    page.goto(server + f"/replay?table={tid}")
    page.wait_for_selector("#player:not([hidden])")
    assert page.locator("#analysis").is_visible()
    # the progress bar shows while the server works (watched from before the tap)
    page.evaluate("""() => { window.sawProgress = false;
        new MutationObserver(() => { if (!document.getElementById('analysis-progress').hidden) window.sawProgress = true; })
          .observe(document.getElementById('analysis-progress'), { attributes: true }); }""")
    page.locator("#analyse").tap()
    page.wait_for_selector("body[data-analysed='1']", timeout=120_000)
    assert page.evaluate("window.sawProgress")
    assert page.locator("#analyse").is_hidden()
    analysis = _get(server, f"/api/tables/{tid}/analysis")["analysis"]
    # the move list marks each judged move with a symbol and its words
    assert page.locator("ol.moves .mark").count() == len(analysis["hands"][0]["decisions"])
    # the worst move of the game with what its player knew, reached with the keys alone
    worst = max(
        (
            (h["hand"], d)
            for h in analysis["hands"]
            for d in h["decisions"]
            if d["knew"]["best"] != d["played"]
        ),
        key=lambda x: x[1]["knew"]["loss"],
    )
    hand, d = worst
    page.locator("#first").focus()
    for _ in range(hand - 1):
        page.keyboard.press("PageDown")
    page.keyboard.press("Home")
    for _ in range(d["move"]):
        page.keyboard.press("ArrowRight")
    assert page.evaluate("document.body.dataset.frame") == f"{hand - 1}:{d['move']}"
    verdict = page.locator("#verdict")
    mark = d["knew"]["mark"]
    assert f"verdict-{mark}" in (verdict.get_attribute("class") or "")
    text = verdict.inner_text()
    words = {"good": "Good move", "inaccuracy": "Inaccuracy", "mistake": "Mistake", "blunder": "Blunder"}
    assert words[mark] in text and "was better" in text
    assert "@" not in text  # moves in words, not in notation
    if d["knew"]["reasons"]:
        assert "Why it is better" in text
    board = d["boards"]["knew"]
    assert page.locator("#better").is_visible()
    if board["tile"]:
        ghost = page.locator("#better-board g.tile.ghost")
        assert ghost.count() == 1 and ghost.get_attribute("data-tile") == board["tile"]
    # the hand's luck and skill: per side, its deal value and what its decisions lost
    lk = next(h for h in analysis["hands"] if h["hand"] == hand)["luck"]
    rows = page.locator("#hand-luck tbody tr")
    got = [rows.nth(i).locator("td").first.get_attribute("data-deal-value") for i in range(rows.count())]
    assert [float(x) for x in got] == lk["deal_value"] and lk["lost"] is not None
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"analysis_{size}.png"), full_page=True)
    problems = axe_problems(page, f"analysis_{size}")
    # nothing wider than the window
    assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth + 1")
    # the switch: with every hand shown
    shown = page.locator("#way button[data-way=shown]")
    shown.focus()
    page.keyboard.press("Enter")
    assert shown.get_attribute("aria-pressed") == "true"
    assert "face up" in page.locator("#way-note").inner_text()
    assert page.evaluate("document.body.dataset.frame") == f"{hand - 1}:{d['move']}"
    j = d["shown"]
    assert f"verdict-{j['mark']}" in (page.locator("#verdict").get_attribute("class") or "")
    page.locator("#way button[data-way=knew]").tap()
    # tapping the graph's dot of a marked move goes to that move
    dot = page.locator("#graph circle.graph-dot:not(.here)").first
    at = dot.get_attribute("data-at")
    dot.tap() if size == "phone" else dot.click()
    assert page.evaluate("document.body.dataset.frame") == at
    # the hand's turning points, each a button to its move
    page.keyboard.press("Home")
    tp = next(
        h
        for h in analysis["hands"]
        if h["hand"] == int(page.evaluate("document.body.dataset.frame").split(":")[0]) + 1
    )["turning_points"]
    if tp:
        page.locator("#turning button").last.click()
        assert page.evaluate("document.body.dataset.frame").endswith(f":{tp[-1]}")
    missing = page.evaluate("import('/static/i18n.js').then(m => [...m.missing])")
    assert missing == []
    page.screenshot(path=str(ARTIFACTS / f"analysis_{size}_graph.png"), full_page=False)
    # the game's analysis is stored: the next visit shows it at once, with no button to tap
    page.goto(server + f"/replay?table={tid}")
    page.wait_for_selector("body[data-analysed='1']")
    assert page.locator("#analyse").is_hidden() and page.locator("ol.moves .mark").count() > 0
    assert not problems, "\n".join(problems)


def test_analyse_an_uploaded_record(server, sized, tmp_path):
    tid = _finished_table(server)
    with urllib.request.urlopen(server + f"/api/tables/{tid}/record", timeout=10) as r:
        path = tmp_path / "game.record.json"
        path.write_bytes(r.read())
    page = sized("phone")
    page.goto(server + "/replay")
    page.wait_for_selector("body[data-ready='1']")
    assert page.locator("#analysis").is_hidden()  # nothing to analyse yet
    page.set_input_files("#file", str(path))
    page.locator("#load-form button[type=submit]").tap()
    page.wait_for_selector("#player:not([hidden])")
    page.locator("#analyse").tap()
    page.wait_for_selector("body[data-analysed='1']", timeout=120_000)
    assert page.locator("ol.moves .mark").count() > 0
    assert page.locator("#accuracy tbody tr").count() == 2
    assert "%" in page.locator("#accuracy [data-accuracy]").first.inner_text()
    page.keyboard.press("End")
    assert page.locator("#verdict").inner_text().strip()


def test_a_table_in_play_offers_no_analysis(server, sized):
    made = _request(
        server,
        "POST",
        "/api/tables",
        {"variant": "block", "players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}]},
    )
    page = sized("laptop")
    page.goto(server + f"/replay?table={made['id']}")
    page.wait_for_selector("#player:not([hidden])")
    assert page.locator("#analysis").is_hidden()


def test_a_three_player_game_has_a_line_per_seat_with_a_legend(server, sized):
    """Issue 26: with more than two sides, one line per seat told apart in a legend, words
    without jargon, and the page opens on a judged move."""
    made = _request(
        server,
        "POST",
        "/api/tables",
        {
            "variant": "block",
            "players": 3,
            "options": {"target": 10},
            "seats": [{"kind": "bot", "level": "random"}] * 3,
        },
    )
    deadline = time.monotonic() + 60
    while _get(server, f"/api/tables/{made['id']}")["status"] != "over":
        assert time.monotonic() < deadline
        time.sleep(0.1)
    page = sized("phone")
    page.goto(server + f"/replay?table={made['id']}")
    page.wait_for_selector("#player:not([hidden])")
    page.locator("#analyse").tap()
    page.wait_for_selector("body[data-analysed='1']", timeout=120_000)
    # attached, not "visible": a seat that lost nothing is a flat line, a box of no height
    page.wait_for_selector("#graph polyline", state="attached")
    lines = page.locator("#graph polyline").evaluate_all("ls => ls.map(l => l.dataset.seatLine)")
    assert sorted(lines) == ["0", "1", "2"]
    legend = page.locator("#graph-legend [data-legend]").all_inner_texts()
    assert len(legend) == 3 and all(legend)
    assert "Each line is a player" in page.inner_text("#graph-note")
    verdict = page.locator("#verdict").inner_text()
    assert verdict.strip() and "Step through" not in verdict and "not judged" not in verdict
    assert "if the others all play against you" not in page.inner_text("body")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "analysis_three_players_phone.png"), full_page=True)
