"""The web client in a real browser (Debian's chromium through Playwright) against a real
`bonepile serve`: create tables in the lobby, play by clicking tiles and pressing keys, and
check what the page shows against the server's own answers."""

from __future__ import annotations

import json
import re
import shutil
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "artifacts"

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright (python) is not installed")
if shutil.which("chromium") is None:
    pytest.skip(
        "no chromium on PATH (the browser tests use Debian's /usr/bin/chromium)", allow_module_level=True
    )

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _get(base: str, path: str) -> dict:
    with urllib.request.urlopen(base + path, timeout=10) as r:
        return json.loads(r.read())


@pytest.fixture(scope="module")
def server(web_server):
    """``bonepile serve`` for the modules that import this fixture: the one of the test
    process (conftest's ``web_server``)."""
    return web_server


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    # the harness evaluates strings in the page (wait_for_function): the CSP would refuse
    # them; test_the_client_runs_under_the_content_security_policy runs without the bypass
    ctx = browser.new_context(viewport={"width": 1280, "height": 860}, bypass_csp=True)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.set_default_timeout(15000)
    yield pg
    ctx.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def create_table(
    page, base: str, variant: str, bots: list[str], name: str = "Ana", options: dict[str, str] | None = None
) -> str:
    """Fill the lobby form (you in seat 0, bots elsewhere), create, return the table id.
    `options` maps an option to the words of the value to choose."""
    page.goto(base + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.fill("#name", name)
    page.select_option("#variant", variant)
    page.select_option("#players", str(len(bots) + 1))
    for key, label in (options or {}).items():
        page.select_option(f"#opt-{key}", label=label)
    for i, level in enumerate(bots, start=1):
        # the lobby offers the levels people choose from; the researchers' random and greedy
        # bots are closest to beginner and casual
        level = {"random": "beginner", "greedy": "casual"}.get(level, level)
        page.select_option(f"#seat-{i}", f"bot:{level}")
    page.click("#create")
    page.wait_for_url("**/t/*")
    table_id = page.url.rstrip("/").split("/")[-1]
    page.wait_for_selector("body[data-conn='1']")
    return table_id


def wait_turn_or_end(page) -> str:
    """Wait until it is our (unforced) turn or the hand is over; return the phase."""
    page.wait_for_function(
        """() => { const d = document.body.dataset;
                   return (d.myTurn === '1' && d.busy !== '1') ||
                          d.phase === 'hand_over' || d.phase === 'over' || d.phase === 'leader'; }""",
        timeout=20000,
    )
    return page.evaluate("document.body.dataset.phase")


def play_one_move_by_clicking(page, turn: int = 0) -> str:
    """Click a playable tile (choosing an end if asked) or Draw / Pass; return what was done.
    The end is chosen on the board's marker on odd turns, with the button row otherwise."""
    seq = page.evaluate("document.body.dataset.seq")
    tiles = page.locator("#hand button.tile-btn.playable, #flip button.tile-btn.playable")
    if tiles.count():
        tile = tiles.first.get_attribute("data-tile")
        tiles.first.click()
        ends = page.locator("#ends button[data-end]")
        if page.locator("#ends").is_visible() and ends.count():
            # one button and one marker on the board per end the tile fits, each naming its arm
            arms = sorted(ends.evaluate_all("bs => bs.map(b => b.dataset.end)"))
            markers = page.locator("#board .end-choice")
            assert sorted(markers.evaluate_all("gs => gs.map(g => g.dataset.arm)")) == arms
            assert len(arms) >= 2
            if turn % 2:
                markers.first.click()
            else:
                ends.first.click()
            did = f"{tile} (end chosen)"
        else:
            did = tile
    elif page.locator("#draw").is_visible():
        page.click("#draw")
        did = "draw"
    elif page.locator("#pass").is_visible():
        page.click("#pass")
        did = "pass"
    else:
        raise AssertionError("our turn, but no playable tile and no Draw or Pass button")
    page.wait_for_function(f"document.body.dataset.seq !== {json.dumps(seq)}")
    return did


def test_block_whole_hand_by_clicking(server, page):
    table_id = create_table(
        page, server, "block", ["random", "random", "random"], options={"teams": "two teams"}
    )
    played = []
    for _ in range(60):
        phase = wait_turn_or_end(page)
        if phase != "play":
            break
        played.append(play_one_move_by_clicking(page, len(played)))
    else:
        raise AssertionError(f"the hand did not end after {len(played)} of our moves")
    assert played, "we never played a move in the whole hand"
    assert page.evaluate("document.body.dataset.phase") in ("hand_over", "over")
    # the finished hand: every seat's tiles are shown, and one line on the score pad
    page.wait_for_selector("#revealed:not([hidden]) #revealed-rows .row-line")
    assert page.locator("#revealed-rows .row-line").count() == 4
    assert page.locator("#pad tr.hand-line[data-hand='1']").count() == 1
    info = _get(server, f"/api/tables/{table_id}")
    assert info["hands"] == 1
    shown = [
        int(page.locator(f"#pad [data-total-side='{i}']").inner_text()) for i in range(len(info["totals"]))
    ]
    assert shown == info["totals"]
    assert len(shown) == 2  # teams: one column per side
    # the hand line's points add up to the totals after one hand
    pts = [
        int(
            page.locator(f"#pad tr.hand-line[data-hand='1'] td[data-side='{i}']")
            .inner_text()
            .split()[0]
            .lstrip("+")
        )
        for i in range(2)
    ]
    assert pts == info["totals"]
    plays = page.locator("#log li").filter(has_text=re.compile(r" plays? ")).count()
    assert page.locator("#board g.tile").count() == plays
    if page.evaluate("document.body.dataset.phase") == "hand_over":
        page.click("#next")
        page.wait_for_function("document.body.dataset.phase !== 'hand_over'")
    # the finished hand in the replay page, reached from the table's link
    page.click("#replay-link")
    page.wait_for_selector("#player:not([hidden])")
    assert page.locator("#hand-select option").count() == 1
    assert page.locator("#board g.tile").count() == 0  # the deal: nothing played yet
    page.keyboard.press("End")
    assert page.locator("#board g.tile").count() == plays
    assert page.locator("#hands .row-line").count() == 4
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Home")
    assert page.locator("#board g.tile").count() == 0


def test_cinque_spinner_arms_screenshot(server, page):
    create_table(page, server, "cinque", ["random", "random", "random"])
    spinner_arm_tiles = "#board g.tile[data-arm='U'], #board g.tile[data-arm='D']"
    for _ in range(120):
        if page.locator("#board g.tile.spinner").count() and page.locator(spinner_arm_tiles).count():
            break
        phase = wait_turn_or_end(page)
        if phase == "hand_over":
            if page.locator(spinner_arm_tiles).count():
                break
            page.click("#next")
            page.wait_for_function("document.body.dataset.phase !== 'hand_over'")
        elif phase == "over":
            pytest.fail("the game ended without a tile on the spinner's up or down arm")
        else:
            if page.locator("#board g.tile.spinner").count() and page.locator(spinner_arm_tiles).count():
                break
            play_one_move_by_clicking(page, _)
    else:
        raise AssertionError("no spinner with tiles on its arms after 120 moves")
    board = page.locator("#board")
    assert board.locator("g.tile.spinner").count() == 1
    arms = sorted(
        board.locator("[data-spinner-arm]").evaluate_all(
            "els => els.map(e => e.getAttribute('data-spinner-arm'))"
        )
    )
    assert arms == ["D", "L", "R", "U"]
    assert page.locator(spinner_arm_tiles).count() >= 1
    # every tile of the layout is inside the board's visible box (the line turns, it does not overflow)
    inside = board.evaluate("""svg => { const vb = svg.viewBox.baseVal;
        return [...svg.querySelectorAll('g.tile')].every(g => { const b = g.getBBox();
            const m = g.getCTM(), sm = svg.getCTM().inverse(); const p = svg.createSVGPoint();
            p.x = 0; p.y = 0; const c = p.matrixTransform(sm.multiply(m));
            return c.x >= vb.x && c.x <= vb.x + vb.width && c.y >= vb.y && c.y <= vb.y + vb.height; }); }""")
    assert inside
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "cinque_table.png"), full_page=True)
    assert (ARTIFACTS / "cinque_table.png").stat().st_size > 10_000


def test_keyboard_play_and_names_are_text(server, page):
    name = "<b>x</b>"
    # four players: every tile is dealt, so no draw can change the hand behind our back
    create_table(page, server, "block", ["random", "random", "random"], name=name)
    # the name is shown literally, never parsed as markup
    me = page.locator("#my-seat .seat-box.you .name")
    assert me.inner_text() == name
    assert page.locator("#my-seat .seat-box.you .name b").count() == 0
    phase = wait_turn_or_end(page)
    assert phase == "play"
    # Tab to a playable tile and press Enter (then Enter again on the first end if asked)
    hand_before = page.locator("#hand button.tile-btn").count()
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement && document.activeElement.classList.contains('playable')"):
            break
    else:
        raise AssertionError("Tab never reached a playable tile")
    tile = page.evaluate("document.activeElement.dataset.tile")
    label = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert label.endswith(", playable")
    seq = page.evaluate("document.body.dataset.seq")
    page.keyboard.press("Enter")
    if page.locator("#ends:not([hidden]) button[data-end]").count():
        assert page.evaluate("document.activeElement.dataset.end") is not None
        page.keyboard.press("Enter")
    page.wait_for_function(f"document.body.dataset.seq !== {json.dumps(seq)}")
    page.wait_for_function(f"!document.querySelector('#hand button[data-tile=\"{tile}\"]')")
    assert page.locator("#hand button.tile-btn").count() == hand_before - 1
    assert page.locator("#log li").filter(has_text=f"You play {tile}").count() == 1  # you, not your name
    assert page.locator(f"#board g.tile[data-tile='{tile}']").count() == 1
    # the keyboard focus stays in the hand, and H asks the expert for a hint on our next turn
    assert page.evaluate("!!document.activeElement.closest('#hand')")
    if wait_turn_or_end(page) == "play":
        page.keyboard.press("h")
        page.wait_for_selector("#hints ol li", timeout=20000)
        legal_tiles = set(
            page.locator("#hand button.playable").evaluate_all("bs => bs.map(b => b.dataset.tile)")
        )
        moves = page.locator("#hints button[data-hint-move]").evaluate_all(
            "bs => bs.map(b => b.dataset.hintMove)"
        )
        assert moves and all(m.split("@")[0] in legal_tiles or m in ("pass", "draw") for m in moves)


def test_chat_lines_are_text(server, page):
    create_table(page, server, "block", ["random", "random", "random"], name="Ana")
    page.fill("#chat-text", "<img src=x onerror=alert(1)> well played")
    page.press("#chat-text", "Enter")
    line = page.locator("#chat li").first
    line.wait_for(timeout=10000)
    assert line.inner_text() == "Ana: <img src=x onerror=alert(1)> well played"
    assert page.locator("#chat img").count() == 0
    assert page.input_value("#chat-text") == ""


def test_replay_page_uploads_a_record(server, page):
    record = ROOT / "examples" / "cinque.record.json"
    expected = json.loads((ROOT / "examples" / "cinque.expected.json").read_text())
    moves = json.loads(record.read_text())["hands"][1]["moves"]
    page.goto(server + "/replay")
    page.wait_for_selector("body[data-ready='1']")
    page.set_input_files("#file", str(record))
    page.click("#load-form button[type=submit]")
    page.wait_for_selector("#player:not([hidden])")
    assert page.locator("#hand-select option").count() == len(expected["hands"])
    page.select_option("#hand-select", "1")
    page.wait_for_function("document.body.dataset.frame === '1:0'")  # a hand's positions come when shown
    page.click("#last")
    page.wait_for_function("!(document.body.dataset.frame || '1:0').endsWith(':0')")
    assert page.locator("#board g.tile").count() == sum(1 for m in moves if m not in ("pass", "draw"))
    assert page.locator("#board g.tile.spinner").count() == 1
    # at the last move of the last hand the pad shows every hand and the record's totals
    last = len(expected["hands"]) - 1
    page.select_option("#hand-select", str(last))
    page.wait_for_function(f"document.body.dataset.frame === '{last}:0'")
    page.keyboard.press("End")
    page.wait_for_function(
        f"(document.body.dataset.frame || '').startsWith('{last}:') && !document.body.dataset.frame.endsWith(':0')"
    )
    totals = [int(page.locator(f"#pad [data-total-side='{i}']").inner_text()) for i in range(2)]
    assert totals == expected["totals"]
    assert page.locator("#pad tr.hand-line").count() == len(expected["hands"])
    # a broken record is refused with the server's reason in the alert
    page.set_input_files(
        "#file",
        files=[
            {
                "name": "bad.json",
                "mimeType": "application/json",
                "buffer": b'{"format": "bonepile-record/1", "variant": "nope"}',
            }
        ],
    )
    page.click("#load-form button[type=submit]")
    alert = page.locator("#alert[role=alert]")
    page.wait_for_function("document.getElementById('alert').textContent.length > 0")
    assert "cannot be replayed" in alert.inner_text()


def test_invite_join_and_start_now(server, browser, page):
    # a Draw table for three: you, a friend (human) and a free seat that "Start now" gives a bot
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.fill("#name", "Ana")
    page.select_option("#variant", "draw")
    page.select_option("#players", "3")
    page.select_option("#seat-1", "human")
    page.select_option("#seat-2", "human")
    page.click("#create")
    page.wait_for_url("**/t/*")
    table_id = page.url.rstrip("/").split("/")[-1]
    page.wait_for_selector("body[data-phase='waiting']")
    invite = page.input_value("#invite")
    assert invite.endswith(f"/t/{table_id}")
    assert page.locator("#seats .badge.off").count() == 2  # two free seats
    # the friend opens the invite link in another browser: no token there, so a join form
    friend_ctx = browser.new_context(bypass_csp=True)
    try:
        friend = friend_ctx.new_page()
        friend.goto(invite)
        friend.wait_for_selector("#join:not([hidden])")
        assert friend.locator("#join-seat option").count() == 2
        friend.fill("#join-name", "Bo")
        friend.click("#join-form button[type=submit]")
        friend.wait_for_selector("body[data-conn='1']")
        assert friend.evaluate(f"localStorage.getItem('bonepile:token:{table_id}')")
        friend.wait_for_selector("#my-seat .seat-box.you .name")
        assert friend.locator("#my-seat .seat-box.you .name").inner_text() == "Bo"
        # Ana sees Bo arrive, then starts: the last free seat becomes a bot and play begins
        page.wait_for_function(
            "[...document.querySelectorAll('#seats .name')].some(e => e.textContent === 'Bo')"
        )
        page.click("#start")
        page.wait_for_function("document.body.dataset.phase !== 'waiting'")
        friend.wait_for_function("document.body.dataset.phase !== 'waiting'")
        info = _get(server, f"/api/tables/{table_id}")
        assert info["status"] in ("playing", "over")
        assert [s["kind"] for s in info["seats"]] == ["human", "human", "bot"]
        assert [s["name"] for s in info["seats"]][:2] == ["Ana", "Bo"]
        # each browser sees only its own tiles: Ana's hand and Bo's hand share no tile
        page.wait_for_selector("#hand button.tile-btn")
        friend.wait_for_selector("#hand button.tile-btn")
        mine = set(page.locator("#hand button.tile-btn").evaluate_all("bs => bs.map(b => b.dataset.tile)"))
        his = set(friend.locator("#hand button.tile-btn").evaluate_all("bs => bs.map(b => b.dataset.tile)"))
        assert mine and his and not (mine & his)
    finally:
        friend_ctx.close()


def _layouts() -> list[dict]:
    """Every position of a few random hands: the layout as the server sends it, and the
    engine's own Cinque count."""
    import random

    from bonepile.engine import Game
    from bonepile.web.protocol import layout_json

    out = []
    for name, opts in (("cinque", None), ("block", {"players": 2}), ("draw", {"players": 4})):
        for seed in range(8):
            g = Game.new(name, opts, seed=seed)
            g.auto_deal = False
            rng = random.Random(seed)
            for _ in range(3):  # later hands of Cinque lead any tile: off-centre spinners
                while not g.hand.over:
                    g.apply(rng.choice(g.legal_moves()))
                    out.append({"layout": layout_json(g.view(0))})
                if g.over:
                    break
                g.next_hand()
    return out


def test_layout_geometry(server, page):
    """The renderer's geometry on real layouts: every tile drawn once on its own arm, no two
    tiles overlap and a line without spinner stays within the board's width (it snakes)."""
    cases = _layouts()
    assert any(c["layout"]["spinner_at"] and c["layout"]["spinner_at"][0] != "C" for c in cases)
    page.goto(server + "/replay")
    problems = page.evaluate(
        """async (cases) => {
        const R = await import('/static/render.js');
        const bad = [];
        for (const {layout} of cases) {
            const L = R.computeLayout(layout);
            const want = new Map([[layout.first, null]]);
            for (const [arm, list] of Object.entries(layout.arms)) for (const p of list) want.set(p.tile, arm);
            if (L.tiles.length !== want.size) bad.push(['tiles', layout]);
            for (const t of L.tiles) if ((t.arm ?? null) !== want.get(t.tile)) bad.push(['arm', t.tile, layout]);
            const rect = (t) => { const v = Math.round(((t.angle % 180) + 180) % 180) === 90;
                                  return v ? [t.cx - .5, t.cy - 1, t.cx + .5, t.cy + 1] : [t.cx - 1, t.cy - .5, t.cx + 1, t.cy + .5]; };
            const rs = L.tiles.map(rect);
            for (let i = 0; i < rs.length; i++) for (let j = i + 1; j < rs.length; j++) {
                const a = rs[i], b = rs[j];
                if (Math.min(a[2], b[2]) - Math.max(a[0], b[0]) > 1e-6 && Math.min(a[3], b[3]) - Math.max(a[1], b[1]) > 1e-6)
                    bad.push(['overlap', L.tiles[i].tile, L.tiles[j].tile, layout]);
            }
            if (!layout.spinner_at && (L.box.x0 < -R.BOARD.halfW - 1e-6 || L.box.x1 > R.BOARD.halfW + 1e-6))
                bad.push(['width', L.box, layout]);
        }
        return bad.slice(0, 5);
    }""",
        cases,
    )
    assert problems == []


def _shown_name(seat: dict, index: int) -> str:
    """A seat's name as the English page shows it: its own, or the client's words for one
    the server gave (``named: false``): "Bot 3", "Seat 3", counted from 1."""
    if seat.get("named", True):
        return seat["name"]
    return f"{'Bot' if seat['kind'] == 'bot' else 'Seat'} {index + 1}"


def _post(base: str, path: str, body: dict) -> dict:
    req = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def _open_seat(page, base: str, created: dict) -> None:
    """Open a table created through the API in this browser, with its seat token."""
    page.goto(base + "/replay")
    page.evaluate(
        "([k, v]) => localStorage.setItem(k, v)", [f"bonepile:token:{created['id']}", created["token"]]
    )
    page.goto(base + f"/t/{created['id']}")
    page.wait_for_selector("body[data-conn='1']")


def _play_to_the_end(page, hands: int = 1) -> str:
    """Play (first playable tile, else draw or pass) until the game is over or `hands` hands
    have ended; return the phase."""
    done = 0
    for turn in range(200):
        phase = wait_turn_or_end(page)
        if phase == "over":
            return phase
        if phase == "hand_over":
            done += 1
            if done >= hands:
                return phase
            page.click("#next")
            page.wait_for_function("document.body.dataset.phase !== 'hand_over'")
        elif phase == "leader":
            page.locator("#leader button[data-leader]").first.click()
            page.wait_for_function("document.body.dataset.phase !== 'leader'")
        else:
            play_one_move_by_clicking(page, turn)
    raise AssertionError("the game did not end")


def _fits(page) -> list[str]:
    """What of the table does not fit the window: sideways overflow, overlapping boxes."""
    return page.evaluate("""() => {
        const bad = [];
        if (document.documentElement.scrollWidth > window.innerWidth) bad.push('page wider than the window');
        const r = (id) => document.getElementById(id).getBoundingClientRect();
        for (const id of ['pad', 'log', 'board']) {
            const e = document.getElementById(id);
            if (e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX === 'visible') bad.push(id + ' overflows');
        }
        const felt = document.querySelector('.felt').getBoundingClientRect();
        const aside = document.querySelector('aside').getBoundingClientRect();
        if (window.innerWidth > 1000 && felt.right > aside.left) bad.push('the board runs under the score pad');
        return bad; }""")


def test_quinientos_game_over_at_laptop_size(server, browser):
    """A one-hand Quinientos game (target 1) at 1366x768: while playing, your tiles are in
    the window; at the end a banner names the winning side with the score and links to the
    replay, and the pad's line sums the points (pips, round bonus, capicú, chuchazo)."""
    ctx = browser.new_context(viewport={"width": 1366, "height": 768}, bypass_csp=True)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(15000)
    try:
        created = _post(
            server,
            "/api/tables",
            {
                "variant": "quinientos",
                "players": 4,
                "options": {"target": 1},
                "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3,
                "player": "Ana",
            },
        )
        _open_seat(page, server, created)
        assert wait_turn_or_end(page) == "play"
        assert _fits(page) == []
        hand = page.locator("#hand").bounding_box()
        assert hand["y"] + hand["height"] <= 768, "your tiles are below the window"
        assert _play_to_the_end(page, hands=6) == "over"  # a tied blocked hand scores nothing
        info = _get(server, f"/api/tables/{created['id']}")
        names = [_shown_name(s, i) for i, s in enumerate(info["seats"])]
        side = info["sides"][info["winner"]]
        banner = page.locator("#banner:not([hidden])")
        text = banner.inner_text()
        assert f"Team {info['winner'] + 1} ({names[side[0]]} & {names[side[1]]}) won" in text
        assert f"{info['totals'][info['winner']]} to {info['totals'][1 - info['winner']]}" in text
        assert banner.locator("a#banner-replay").get_attribute("href") == f"/replay?table={created['id']}"
        assert banner.bounding_box()["y"] < 768
        # the hand's result is right under the board, the empty hand card is gone
        assert page.locator("#revealed").is_visible() and not page.locator("#hand-card").is_visible()
        detail = page.locator("#pad tr.detail").first.inner_text()
        pts = info["totals"][info["winner"]]
        if "pips scored" in detail:  # a won hand: its points as a sum
            assert "round bonus" in detail and "capicú" in detail and "chuchazo" in detail
            assert detail.rstrip().endswith(f"= {pts}")
        assert _fits(page) == []
    finally:
        ctx.close()
    assert not errors, errors


def test_billitonnen_pad_shows_winners_not_points(server, page):
    """Billitonnen has no points: the pad marks who won each hand and counts hands won."""
    created = _post(
        server,
        "/api/tables",
        {
            "variant": "billitonnen",
            "players": 5,
            "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 4,
            "player": "Ana",
        },
    )
    _open_seat(page, server, created)
    phase = _play_to_the_end(page)
    info = _get(server, f"/api/tables/{created['id']}")
    line = page.locator("#pad tr.hand-line[data-hand='1']")
    assert "+" not in line.inner_text()
    won = [int(page.locator(f"#pad [data-wins-side='{i}']").inner_text()) for i in range(5)]
    rep = _get(server, f"/api/tables/{created['id']}/replay")
    winner = rep["hands"][0]["result"]["winner"]
    assert won == [1 if i == winner else 0 for i in range(5)]
    if winner is not None:
        assert line.locator(f"td[data-side='{winner}']").inner_text() == "won"
    if phase == "over" and info["winner"] is not None:
        assert (
            page.locator("#banner")
            .inner_text()
            .startswith(f"Game over: {_shown_name(info['seats'][info['winner']], info['winner'])} won.")
        )
    assert _fits(page) == []


def test_replay_arrows_cross_hands(server, page):
    record = ROOT / "examples" / "cinque.record.json"
    page.goto(server + "/replay")
    page.wait_for_selector("body[data-ready='1']")
    page.set_input_files("#file", str(record))
    page.click("#load-form button[type=submit]")
    page.wait_for_selector("body[data-frame='0:0']")  # each hand's positions come when it is shown
    page.keyboard.press("End")
    assert page.evaluate("document.body.dataset.frame").startswith("0:")
    page.keyboard.press("ArrowRight")  # past the last move of hand 1: the deal of hand 2
    page.wait_for_selector("body[data-frame='1:0']")
    assert page.locator("#hand-select").input_value() == "1"
    page.keyboard.press("ArrowLeft")  # and back to the end of hand 1
    frame = page.evaluate("document.body.dataset.frame")
    assert frame.startswith("0:") and frame != "0:0"
    # Cinque moves that scored say so
    scored = page.locator("#moves li").filter(has_text="(scores ").count()
    assert scored >= 1


def test_keyboard_only_whole_hand_then_next(server, page):
    """A whole two-player Block hand with the keyboard alone (Tab, Enter, D, P); when it ends
    the focus is on Next hand, and Enter there lands on the new hand's tiles."""
    create_table(page, server, "block", ["random"])
    for _ in range(60):
        phase = wait_turn_or_end(page)
        if phase != "play":
            break
        seq = page.evaluate("document.body.dataset.seq")
        for _tab in range(40):
            if page.evaluate("document.activeElement.classList.contains('playable')"):
                break
            page.keyboard.press("Tab")
        else:
            page.keyboard.press("d" if page.locator("#draw").is_visible() else "p")
            page.wait_for_function(f"document.body.dataset.seq !== {json.dumps(seq)}")
            continue
        page.keyboard.press("Enter")
        if page.locator("#ends:not([hidden]) button[data-end]").count():
            page.keyboard.press("Enter")
        page.wait_for_function(f"document.body.dataset.seq !== {json.dumps(seq)}")
    else:
        raise AssertionError("the hand did not end")
    if phase == "over":
        return
    assert phase == "hand_over"
    page.wait_for_function("document.activeElement && document.activeElement.id === 'next'")
    page.keyboard.press("Enter")
    page.wait_for_function("document.body.dataset.phase === 'play'")
    page.wait_for_function("!!document.activeElement.closest('#hand')")


def test_the_lobby_reads_the_partnerships_from_the_catalogue(server, page):
    """Who plays with whom comes from the catalogue's sides (the lobby names no game)."""
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    note = page.locator("#seat-note")
    page.select_option("#variant", "draw")
    page.select_option("#players", "4")
    assert note.inner_text() == "Every player for themselves."
    page.select_option("#opt-teams", label="two teams")
    assert note.inner_text() == "Teams: You and your partner against Left and Right."
    page.select_option("#players", "3")
    assert note.inner_text() == "Every player for themselves."
    page.select_option("#variant", "cinque")
    assert note.inner_text() == "Teams: You and your partner against Left and Right."
    # the seats are named as you sit: your partner across, the others left and right
    seats = page.locator("#seats label").evaluate_all("ls => ls.map(l => l.firstChild.textContent.trim())")
    assert seats == ["Left", "Partner (across)", "Right"]
    # the options and their values are shown in the server's words
    labels = page.locator("#options label").evaluate_all("ls => ls.map(l => l.firstChild.textContent)")
    assert labels and all("_" not in x for x in labels)


def test_the_table_shows_the_servers_count_points_and_seating(server, page):
    """The count under the board and the points in the move list are the state's own; the
    seats sit in the direction of play the table info names."""
    create_table(page, server, "cinque", ["random", "random", "random"])
    seen_count = seen_points = False
    for turn in range(40):
        phase = wait_turn_or_end(page)
        st = page.evaluate("async () => (await import('/static/table/state.js')).store.state")
        view = st["view"]
        if view and view["layout"]["first"]:
            info = page.locator("#board-info [data-info=ends]").inner_text()
            c = view["count"]
            assert info.endswith(f"count {c['value']}" + (f" ({c['note']})" if c["note"] else ""))
            seen_count = True
        shown = page.locator("#log .pts").evaluate_all("els => els.map(e => Number(e.dataset.points))")
        assert shown == [e["points"] for e in view["history"] if e["points"]]
        seen_points = seen_points or bool(shown)
        top = page.locator("#seats .seat-box").evaluate_all("els => els.map(e => Number(e.dataset.seat))")
        assert st["table"]["direction"] == "clockwise" and top == [1, 2, 3]  # the next player on your left
        if phase != "play" or (seen_count and seen_points):
            break
        play_one_move_by_clicking(page, turn)
    assert seen_count


def test_seat_order_follows_the_direction_of_play(server, page):
    """Counterclockwise the player after you sits on your right, clockwise on your left."""
    page.goto(server + "/t/none")
    orders = page.evaluate("""async () => { const m = await import('/static/table/seats.js');
        return [m.seatOrder(0, 4, 'counterclockwise'), m.seatOrder(0, 4, 'clockwise'),
                m.seatOrder(2, 3, 'counterclockwise'), m.seatOrder(2, 3, 'clockwise')]; }""")
    assert orders == [[3, 2, 1], [1, 2, 3], [1, 0], [0, 1]]


def test_the_client_runs_under_the_content_security_policy(server, browser):
    """Without bypass_csp: the lobby, a table (with its socket) and the replay page work and
    the browser reports no violation of the server's Content-Security-Policy."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 860})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None)
    page.set_default_timeout(15000)
    try:
        create_table(page, server, "block", ["greedy"])  # the lobby, then the table's socket
        page.wait_for_selector("#hand button.tile-btn")
        page.goto(server + "/replay")
        page.wait_for_selector("#load-form")
    finally:
        ctx.close()
    assert not errors, f"errors under the CSP: {errors}"
