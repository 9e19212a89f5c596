"""The table as a person meets it, on a phone (390x844 upright, 844x390 on its side) and on
a laptop (1366x768): the lobby in plain words, a table that fits the screen with your tiles
in reach, the words at the table.  Screenshots go to artifacts/ (look at them)."""

from __future__ import annotations

import json
import re

import pytest

from bonepile.engine.variant import ENGINE_VARIANTS
from test_web_browser import (  # noqa: F401  (fixtures)
    ARTIFACTS,
    _get,
    _layouts,
    _open_seat,
    _post,
    browser,
    server,
    wait_turn_or_end,
)

pytest_plugins = ["pages"]  # the sized page fixture


#: what must never show on a page: identifiers, raw values, rule-book references
IDENTIFIER = re.compile(
    r"_|RULES\.md|§|\bdouble_six\b|\btrue\b|\bfalse\b|\bnull\b|blind-hugie|\bcinque\b|\bquinientos\b"
)


#: every game's name in the lobby, in English
GAME_NAMES = {
    "quinientos": "Quinientos",
    "cinque": "Domino del Cinque",
    "draw": "Draw",
    "block": "Block",
    "passing": "The Passing Game",
    "blind-hugie": "Blind Hugie",
    "billitonnen": "Billitonnen",
    "all-fives": "All Fives",
    "muggins": "Muggins",
    "fives-and-threes": "Fives and Threes",
    "cuban": "Cuban Dominoes",
    "dominican": "Dominican Dominoes",
    "mexican-train": "Mexican Train",
    "chicken-foot": "Chicken Foot",
}


def _page_words(page) -> str:
    """Every word a person can read on the page, the choices of every menu included."""
    return page.evaluate("""() => document.body.innerText + '\\n' +
        [...document.querySelectorAll('option')].map(o => o.textContent).join('\\n')""")


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_the_lobby_reads_in_plain_words(server, sized, size):  # noqa: F811
    page = sized(size)
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    cat = _get(server, "/api/variants")
    games = page.locator("#variant option").evaluate_all("os => os.map(o => o.textContent)")
    assert games == [GAME_NAMES[name] for name in ENGINE_VARIANTS]
    for v in cat["variants"]:
        page.select_option("#variant", v["name"])
        words = _page_words(page)
        assert not IDENTIFIER.search(words), (v["name"], IDENTIFIER.search(words).group(0))
        # the game's line, and a line for every option shown
        assert page.locator("#variant-help").inner_text() == v["description"] != ""
        for o in v["options"]:
            if o["values"] is not None and len(o["values"]) == 1:
                assert page.locator(f"#opt-{o['name']}").count() == 0  # nothing to choose
                continue
            label = page.locator(f"#opt-{o['name']}").locator("xpath=..")
            assert o["help"] and o["help"] in label.inner_text()
            if o["values"] is not None:  # the usual value said once, in the menu
                assert label.inner_text().count("(usual)") <= 1
                assert "default" not in label.inner_text()
        # every aria-describedby names something on the page
        missing = page.evaluate("""() => [...document.querySelectorAll('[aria-describedby]')]
            .flatMap(e => e.getAttribute('aria-describedby').split(' '))
            .filter(id => !document.getElementById(id))""")
        assert missing == []
        # the seats say where they are, never a number
        seats = page.locator("#seats").inner_text()
        assert "Seat" not in seats and not re.search(r"\d", seats)
        # no sideways scrolling, whatever the game
        assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
    ARTIFACTS.mkdir(exist_ok=True)
    page.select_option("#variant", "quinientos")
    page.screenshot(path=str(ARTIFACTS / f"lobby_{size}.png"), full_page=True)


def _fits_the_screen(page) -> dict:
    return page.evaluate("""() => {
        const se = document.scrollingElement;
        const tiles = [...document.querySelectorAll('#hand button.tile-btn')].map(b => b.getBoundingClientRect());
        const buttons = [...document.querySelectorAll('#hand button, #flip button, #actions button, #ends button')]
            .filter(b => b.offsetParent !== null).map(b => b.getBoundingClientRect());
        const board = document.getElementById('board').getBoundingClientRect();
        const inBoard = [...document.querySelectorAll('#board g.tile')].every(g => {
            const r = g.getBoundingClientRect();
            return r.left >= board.left - 1 && r.right <= board.right + 1 && r.top >= board.top - 1 && r.bottom <= board.bottom + 1; });
        return {
            scroll: se.scrollHeight <= innerHeight && se.scrollWidth <= innerWidth,
            tiles: tiles.length,
            inside: tiles.every(r => r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth),
            small: buttons.filter(r => r.width < 44 || r.height < 44).length,
            unit: Number(document.getElementById('board').dataset.unit),
            boardShare: (board.width * board.height) / (innerWidth * innerHeight),
            inBoard,
        }; }""")


@pytest.mark.parametrize("size", ["phone", "phone-landscape", "laptop", "small-phone"])
def test_play_as_a_person(server, sized, size):  # noqa: F811
    """Create a Block table in the lobby as a person would, tap tiles for a few turns: the
    page never scrolls, your tiles stay on screen as 44-px tap targets, the board fills its
    box with readable tiles, the others sit round the table with their tiles face down."""
    page = sized(size)
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.fill("#name", "Newbie")
    page.select_option("#variant", "block")
    page.select_option("#players", "4")
    for i in (1, 2, 3):
        page.select_option(f"#seat-{i}", "bot:beginner")
    page.tap("#create")
    page.wait_for_url("**/t/*")
    page.wait_for_selector("body[data-conn='1']")
    shot = False
    for turn in range(12):
        if wait_turn_or_end(page) != "play":
            break
        st = page.evaluate("async () => (await import('/static/table/state.js')).store.state")
        fit = _fits_the_screen(page)
        assert fit["scroll"], f"the page scrolls at {size}"
        assert fit["tiles"] == len(st["view"]["hand"]) and fit["inside"], "your tiles are off screen"
        assert fit["small"] == 0, "a tap target is under 44 px"
        assert fit["inBoard"], "a board tile is outside the board"
        words = page.evaluate("document.body.innerText")
        assert not IDENTIFIER.search(words), IDENTIFIER.search(words).group(0)
        assert "Newbie to play" not in words and "Waiting for Newbie" not in words
        assert fit["boardShare"] > {"phone": 0.3, "small-phone": 0.25}.get(size, 0.2)  # of the whole screen
        if st["view"]["layout"]["first"]:
            assert fit["unit"] >= 14, f"board tiles are {2 * fit['unit']} px long"
        # the others: where they sit (left, across, right) with their tiles face down
        slots = page.evaluate("""() => ['left', 'top', 'right'].map(k =>
            [...document.querySelectorAll('.slot-' + k + ' .seat-box')].map(e => Number(e.dataset.seat)))""")
        assert slots == [[3], [2], [1]]  # Block goes counterclockwise: the next player on your right
        for s in (1, 2, 3):
            backs = page.locator(f".seat-box[data-seat='{s}'] [data-backs] svg").count()
            assert backs == st["view"]["tile_counts"][s]
        if turn == 2 and not shot:
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"table_{size}.png"))
            shot = True
        seq = page.evaluate("document.body.dataset.seq")
        playable = page.locator("#hand button.tile-btn.playable")
        if playable.count():
            tile = playable.first.get_attribute("data-tile")
            playable.first.tap()
            if page.locator("#ends:not([hidden]) button[data-end]").count():
                page.locator("#ends button[data-end]").first.tap()
            page.wait_for_function(f"document.body.dataset.seq !== {json.dumps(seq)}")
            page.wait_for_function(f"!document.querySelector('#hand button[data-tile=\"{tile}\"]')")
            assert page.locator("#log li").filter(has_text=f"You play {tile}").count() == 1
        else:
            page.tap("#pass")
            page.wait_for_function(f"document.body.dataset.seq !== {json.dumps(seq)}")
    assert shot or page.evaluate("document.body.dataset.phase") != "play"
    # the score pad and the chat: beside the table on a laptop, behind a button on a phone
    if size == "laptop":
        assert page.locator("#pad").is_visible()
    else:
        assert not page.locator("#pad").is_visible()
        page.tap("#side-toggle")
        assert page.locator("#pad").is_visible()


def test_you_are_you_and_the_hand_end_says_so(server, sized):  # noqa: F811
    """Your own seat is "you" in every sentence: the moves, whose turn, who is awaited."""
    page = sized("phone")
    created = _post(
        server,
        "/api/tables",
        {
            "variant": "block",
            "players": 2,
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}],
            "player": "Newbie",
        },
    )
    _open_seat(page, server, created)
    for _ in range(60):
        phase = wait_turn_or_end(page)
        if phase != "play":
            break
        seq = page.evaluate("document.body.dataset.seq")
        t = page.locator("#hand button.tile-btn.playable")
        if t.count():
            t.first.click()
            if page.locator("#ends:not([hidden]) button[data-end]").count():
                page.locator("#ends button[data-end]").first.click()
        elif page.locator("#draw").is_visible():
            page.click("#draw")
        else:
            page.click("#pass")
        page.wait_for_function(f"document.body.dataset.seq !== {json.dumps(seq)}")
    log = page.locator("#log").inner_text()
    assert "Newbie" not in log and re.search(r"You (play|draw|pass)", log)
    if phase == "hand_over":
        assert page.locator("#ready-line").inner_text() == "Waiting for you to press Next hand."
        assert "Newbie" not in page.locator("#hand-summary").inner_text()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "hand_over_phone.png"))


def test_the_clock_and_a_timeout(server, sized):  # noqa: F811
    """A 7-second clock is not red at first, turns red in its last seconds; when it runs out
    a note says so over the table, and the table does not move down."""
    page = sized("phone")
    created = _post(
        server,
        "/api/tables",
        {
            "variant": "block",
            "players": 4,
            "timer": 12,  # room for a loaded machine before the last five seconds
            "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3,
            "player": "Newbie",
        },
    )
    _open_seat(page, server, created)
    assert wait_turn_or_end(page) == "play"
    felt = page.locator(".felt").bounding_box()
    assert page.locator("#timer").inner_text().startswith("Time left")
    assert "low" not in (page.locator("#timer").get_attribute("class") or "")
    page.wait_for_selector("#timer.low", timeout=15000)
    left = int(page.locator("#timer").inner_text().rsplit(":", 1)[1])
    assert left <= 5
    page.wait_for_function(
        "document.getElementById('alert').textContent.includes('time ran out')", timeout=15000
    )
    assert page.locator("#alert").evaluate("e => getComputedStyle(e).position") == "fixed"
    assert page.locator(".felt").bounding_box()["y"] == felt["y"]


def test_no_hint_on_a_forced_turn(server, sized):  # noqa: F811
    page = sized("laptop")
    created = _post(
        server,
        "/api/tables",
        {
            "variant": "block",
            "players": 4,
            "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3,
            "player": "Newbie",
        },
    )
    _open_seat(page, server, created)
    assert wait_turn_or_end(page) == "play"
    assert page.locator("#hint").is_visible()
    hidden = page.evaluate("""async () => { const m = await import('/static/table/state.js');
        m.store.setState({ ...m.store.state, forced: true }); m.store.redraw();
        return document.getElementById('hint').hidden; }""")
    assert hidden


def test_the_score_parts_are_large_and_name_the_bonuses(server, sized):  # noqa: F811
    """A hand won with a capicú: the sum of its parts in large type, the capicú (+100) and the
    round bonus as badges, a bonus not earned (chuchazo 0) left out."""
    page = sized("phone")
    page.goto(server + "/replay")
    page.wait_for_selector("body[data-ready='1']")
    line = {
        "hand": 1,
        "leader": 0,
        "end": "domino",
        "winner": 1,
        "points": [0, 235],
        "totals": [0, 235],
        "pips": [35, 0],
        "breakdown": {"base": 35, "round_bonus": 100, "capicu": 100, "chuchazo": 0},
        "sum": ["base", "round_bonus", "capicu", "chuchazo"],
    }
    parts = page.evaluate(
        """async (line) => { const P = await import('/static/panels.js');
        const box = document.createElement('div'); box.className = 'score-parts'; document.body.prepend(box);
        P.renderScoreParts(box, line);
        return [...box.querySelectorAll('[data-part]')].map(e => [e.dataset.part, e.textContent,
            e.classList.contains('bonus'), parseFloat(getComputedStyle(e).fontSize)]); }""",
        line,
    )
    assert [p[0] for p in parts] == ["base", "round_bonus", "capicu", "total"]
    assert parts[2][1] == "Capicú! +100" and parts[2][2]
    assert parts[1][2] and not parts[0][2]
    assert parts[3][1] == "235 points"
    assert all(p[3] >= 16 for p in parts)  # large, not small grey text


def test_the_lobby_remembers_your_last_game(server, sized):  # noqa: F811
    page = sized("laptop")
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.fill("#name", "Newbie")
    page.select_option("#variant", "passing")
    page.select_option("#players", "3")
    page.select_option("#opt-lead_rule", label="the next player in turn")
    page.select_option("#seat-1", "bot:expert")
    page.fill("#timer", "30")
    page.click("#create")
    page.wait_for_url("**/t/*")
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    assert page.input_value("#variant") == "passing"
    assert page.input_value("#players") == "3"
    assert page.locator("#opt-lead_rule option:checked").inner_text() == "the next player in turn"
    assert page.input_value("#seat-1") == "bot:expert"
    assert page.input_value("#timer") == "30"
    assert page.input_value("#name") == "Newbie"


def test_the_board_fits_any_box(server, sized):  # noqa: F811
    """The layouts of real hands fitted to a phone's box, a wide strip and a laptop's: no two
    tiles on each other, and the tiles bigger than with the fixed board of before."""
    cases = _layouts()
    page = sized("laptop")
    page.goto(server + "/replay")
    bad = page.evaluate(
        """async (cases) => {
        const R = await import('/static/render.js');
        const out = [];
        for (const [w, h] of [[370, 520], [760, 170], [990, 440]]) {
            for (const {layout} of cases) {
                const f = R.fitLayout(layout, [], w, h);
                if (R.overlaps(f.lay.tiles)) out.push(['overlap', w, h, layout]);
                // the board of before: never narrower than the fixed width of 25 units
                const b = R.computeLayout(layout).box;
                const vw = Math.max(b.x1, 12.5) + 0.6 - (Math.min(b.x0, -12.5) - 0.6);
                const vh = Math.max(b.y1, 2.5) + 0.6 - (Math.min(b.y0, -2.5) - 0.6);
                const fixed = Math.min(w / vw, h / vh);
                if (f.unit + 1e-6 < Math.min(fixed, 42)) out.push(['smaller', w, h, f.unit, fixed]);
            }
        }
        return out.slice(0, 5); }""",
        cases,
    )
    assert bad == []


def test_play_again_at_game_over(server, sized):  # noqa: F811
    """Billitonnen is one hand: at its end the banner offers Play again, which opens a new
    table of the same game with the same seats (you, and the bots at their levels)."""
    from test_web_browser import _play_to_the_end

    page = sized("phone")
    created = _post(
        server,
        "/api/tables",
        {
            "variant": "billitonnen",
            "players": 3,
            "options": {"blocked_winner": "fewest_tiles"},
            "seats": [
                {"kind": "human"},
                {"kind": "bot", "level": "random"},
                {"kind": "bot", "level": "greedy"},
            ],
            "player": "Newbie",
        },
    )
    _open_seat(page, server, created)
    assert _play_to_the_end(page) == "over"
    assert page.evaluate("document.scrollingElement.scrollHeight <= innerHeight")
    again = page.locator("#banner #play-again")
    again.wait_for(state="visible")  # (it comes with the table's status, a moment after the banner)
    # read in one go: the banner is drawn again with each state (the button may be replaced)
    box = page.wait_for_function(
        """() => { const r = document.querySelector('#banner #play-again')?.getBoundingClientRect();
                   return r && r.height ? { y: r.y, height: r.height } : null; }"""
    ).json_value()
    assert box["height"] >= 44 and box["y"] + box["height"] <= 844
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "game_over_phone.png"))
    again.tap()
    page.wait_for_function(f"!location.pathname.endsWith({json.dumps(created['id'])})")
    page.wait_for_selector("body[data-conn='1']")
    new_id = page.url.rstrip("/").split("/")[-1]
    old, new = _get(server, f"/api/tables/{created['id']}"), _get(server, f"/api/tables/{new_id}")
    assert new["variant"] == old["variant"] and new["players"] == old["players"]
    assert new["options"] == old["options"]
    assert [(s["kind"], s["level"]) for s in new["seats"]] == [(s["kind"], s["level"]) for s in old["seats"]]
    assert new["seats"][0]["name"] == "Newbie" and new["status"] in ("playing", "over")


def test_the_words_of_a_result(server, sized):  # noqa: F811
    """After a domino "won" means went out, whoever scored more in the hand (Cinque); a final
    score puts the winner's total first, on the table and in the replay alike."""
    page = sized("laptop")
    page.goto(server + "/replay")
    page.wait_for_selector("body[data-ready='1']")
    words = page.evaluate("""async () => { const C = await import('/static/common.js');
        return [C.winnerWords({winner: 1, end: 'domino'}, ['Team 1', 'Team 2']),
                C.winnerWords({winner: 0, end: 'blocked'}, ['Team 1', 'Team 2']),
                C.winnerWords({winner: null, end: 'blocked'}, ['Team 1', 'Team 2']),
                C.scoreWords([20, 60], 1, ['Team 1', 'Team 2'])]; }""")
    assert words == ["Team 2 went out", "won by Team 1", "no winner", "60 to 20"]


def test_call_outs_at_the_seats(server, sized):  # noqa: F811
    """A move that scores, a pass, a draw, a domino: called out at the seat that made it."""
    page = sized("laptop")
    created = _post(
        server,
        "/api/tables",
        {
            "variant": "cinque",
            "players": 4,
            "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3,
            "player": "Newbie",
        },
    )
    _open_seat(page, server, created)
    assert wait_turn_or_end(page) == "play"
    seen = page.evaluate("""async () => { const m = await import('/static/table/state.js');
        const st = m.store.state, v = st.view, other = (st.you + 1) % 4;
        const hist = [...v.history, { seat: other, action: 'play', tile: '5-0', arm: 'L', points: 15 }];
        m.store.setState({ ...st, seq: st.seq + 1000, view: { ...v, history: hist } }); m.store.redraw();
        const a = document.querySelector(`.seat-box[data-seat="${other}"] [data-callout]`)?.textContent;
        const hist2 = [...hist, { seat: other, action: 'pass', tile: null, arm: null, points: null }];
        m.store.setState({ ...m.store.state, view: { ...v, history: hist2 } }); m.store.redraw();
        const b = document.querySelector(`.seat-box[data-seat="${other}"] [data-callout]`)?.textContent;
        return [a, b]; }""")
    assert seen == ["+15", "Pass"]


def test_play_now_in_one_click(server, sized):  # noqa: F811
    """Play now: the game chosen, casual bots in the other seats, playing at once."""
    page = sized("phone")
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#variant", "cinque")
    page.tap("#play-now")
    page.wait_for_url("**/t/*")
    page.wait_for_selector("body[data-conn='1']")
    info = _get(server, f"/api/tables/{page.url.rstrip('/').split('/')[-1]}")
    assert info["variant"] == "cinque" and info["status"] in ("playing", "over")
    assert [s["kind"] for s in info["seats"]] == ["human", "bot", "bot", "bot"]
    assert {s["level"] for s in info["seats"][1:]} == {"casual"}  # the default level


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_drag_a_tile_to_the_board(server, sized, size):  # noqa: F811
    """A playable tile dragged onto the board is played (on the end nearest the drop)."""
    page = sized(size)
    created = _post(
        server,
        "/api/tables",
        {
            "variant": "block",
            "players": 4,
            "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3,
            "player": "Newbie",
        },
    )
    _open_seat(page, server, created)
    for _ in range(20):
        assert wait_turn_or_end(page) == "play"
        tile = page.locator("#hand button.tile-btn.playable").first
        if tile.count():
            break
        seq = page.evaluate("document.body.dataset.seq")
        page.click("#pass")
        page.wait_for_function(f"document.body.dataset.seq !== {json.dumps(seq)}")
    name = tile.get_attribute("data-tile")
    seq = page.evaluate("document.body.dataset.seq")
    # (a redraw, e.g. for the dock changing size at your turn, replaces the button: measure again)
    t = next(box for box in (tile.bounding_box() for _ in range(50)) if box)
    b = page.locator(".board-wrap").bounding_box()
    page.mouse.move(t["x"] + t["width"] / 2, t["y"] + t["height"] / 2)
    page.mouse.down()
    for i in range(1, 9):
        page.mouse.move(
            t["x"] + (b["x"] + b["width"] / 2 - t["x"]) * i / 8,
            t["y"] + (b["y"] + b["height"] / 2 - t["y"]) * i / 8,
        )
    assert page.locator(".drag-ghost").count() == 1
    assert page.locator(".board-wrap.drop-here").count() == 1
    page.mouse.up()
    page.wait_for_function(f"document.body.dataset.seq !== {json.dumps(seq)}")
    page.wait_for_function(f"!document.querySelector('#hand button[data-tile=\"{name}\"]')")
    assert page.locator(f"#board g.tile[data-tile='{name}']").count() == 1
    assert page.locator(".drag-ghost").count() == 0
