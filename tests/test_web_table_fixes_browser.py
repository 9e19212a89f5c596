"""The table defects of issue 26 (3-12), each in a real browser at the size it is about: no end
to choose when both ends are alike, hints led by words and ranked by the figure they show (in
the reader's decimals, "tap" on a touch screen), the unread chat marker, the board in phone
landscape, the seat names and the focus.  Screenshots go to artifacts/ (look at them)."""

from __future__ import annotations

import re

import pytest

from test_web_browser import (  # noqa: F401
    ARTIFACTS,
    _open_seat,
    _play_to_the_end,
    _post,
    browser,
    server,
    wait_turn_or_end,
)

pytest_plugins = ["pages"]  # the sized page fixture

STORE = "async () => (await import('/static/table/state.js')).store"


def _bot_table(page, base: str, variant: str = "block", players: int = 2, lang: str | None = None) -> None:
    page.goto(base + "/")
    if lang:
        page.evaluate(f"localStorage.setItem('bonepile:lang', '{lang}')")
        page.reload()
    page.wait_for_selector("body[data-ready='1']")
    page.fill("#name", "Ana")
    page.select_option("#variant", variant)
    page.select_option("#players", str(players))
    for i in range(1, players):
        page.select_option(f"#seat-{i}", "bot:casual")
    page.click("#create")
    page.wait_for_url("**/t/*")
    page.wait_for_selector("body[data-conn='1']")


def _our_turn(page) -> None:
    for _ in range(10):
        if wait_turn_or_end(page) == "play":
            return
        page.wait_for_timeout(300)
    raise AssertionError("no turn of ours")


def test_no_end_choice_when_both_ends_are_alike(server, sized):  # noqa: F811
    """A tile whose two moves the server marks as one decision is played at once; a tile
    with two real choices still asks which end."""
    page = sized("phone")
    _bot_table(page, server)
    _our_turn(page)
    picked = page.evaluate(
        """async () => {
        const { store } = await import('/static/table/state.js');
        const { clickTile } = await import('/static/table/actions.js');
        const st = structuredClone(store.state);
        const tile = st.view.hand[0];
        const legal = (decision) => [
          { move: tile + '@L', kind: 'play', tile, arm: 'L', decision: 0 },
          { move: tile + '@R', kind: 'play', tile, arm: 'R', decision }];
        st.view.legal = legal(1);  // two real ends: asked
        st.view.layout.first = st.view.layout.first || '0-0';
        store.setState(st);
        clickTile(tile);
        const asked = store.selected;
        store.select(null);
        st.view.legal = legal(0);  // ends alike: played at once
        store.setState(st);
        clickTile(tile);
        return { asked, tile, selected: store.selected, busy: store.busy };
    }"""
    )
    assert picked["asked"] == picked["tile"]
    assert picked["selected"] is None and picked["busy"] is True


def _hint(page) -> str:
    """Ask for a hint at our first turn with a choice (playing the first move until then)."""
    for _ in range(12):
        _our_turn(page)
        choices = page.evaluate(f"({STORE})().then(s => new Set(s.legal().map(m => m.decision)).size)")
        if choices > 1:
            page.click("#hint")
            page.wait_for_selector("#hints ol li", timeout=30000)
            return page.inner_text("#hints")
        seq = page.evaluate("document.body.dataset.seq")
        page.evaluate(
            f"""async () => {{ const s = await ({STORE})();
            const a = await import('/static/table/actions.js'); a.playMove(s.legal()[0].move); }}"""
        )
        page.wait_for_function(f"document.body.dataset.seq !== '{seq}'")
    raise AssertionError("no turn with a choice")


def test_hints_lead_with_words_ranked_by_the_figure_shown(server, sized):  # noqa: F811
    page = sized("phone")
    _bot_table(page, server, "draw", 4)
    text = _hint(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "hint_words_phone.png"))
    assert "tap a move" in text and "click" not in text
    first = page.locator("#hints li").first.inner_text()
    assert first.startswith("Best: ")
    figures = page.locator("#hints summary[data-hint-figure='points']").all_inner_texts()
    values = [
        float(re.match(r"([+−]?)([\d.]+)", f).group(2)) * (-1 if f.startswith("−") else 1) for f in figures
    ]
    assert values == sorted(values, reverse=True), figures
    # the other numbers are a tap away
    assert "chance to win the hand" not in page.inner_text("#hints")
    page.locator("#hints summary").first.tap()
    assert "chance to win the hand" in page.locator("#hints li").first.inner_text()
    moves = page.locator("#hints [data-hint-move]").evaluate_all("bs => bs.map(b => b.dataset.hintMove)")
    # each move once; a tile twice only at ends that play differently (ends alike: listed once,
    # tests/test_ends_alike.py and test_bots_hint.py check which)
    assert len(moves) == len(set(moves)), moves


@pytest.mark.parametrize("lang,word", [("da", "point"), ("id", "poin")])
def test_hint_decimals_are_the_readers(server, sized, lang, word):  # noqa: F811
    page = sized("laptop")
    _bot_table(page, server, "draw", 4, lang=lang)
    _hint(page)
    figures = page.locator("#hints summary").all_inner_texts()
    assert figures and all(word in f for f in figures)
    assert all(re.search(r"\d,\d", f) and not re.search(r"\d\.\d", f) for f in figures), figures


def _board_share(page) -> dict:
    return page.evaluate(
        """() => { const f = document.querySelector('.felt').getBoundingClientRect();
        const b = document.getElementById('board').getBoundingClientRect();
        return { w: b.width / f.width, h: b.height / f.height, felt: f.height / innerHeight,
                 unit: Number(document.getElementById('board').dataset.unit),
                 scroll: document.scrollingElement.scrollHeight <= innerHeight }; }"""
    )


def test_phone_landscape_keeps_the_board_with_hint_open_and_an_end_to_choose(server, sized):  # noqa: F811
    """844x390: with Hint open and while choosing an end, the board keeps at least half of the
    felt each way, the felt most of the screen's height, and its tiles stay readable."""
    page = sized("phone-landscape")
    _bot_table(page, server, "draw", 4)
    _hint(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "landscape_hint.png"))
    share = _board_share(page)
    assert share["w"] >= 0.5 and share["h"] >= 0.5 and share["felt"] >= 0.6, share
    assert share["unit"] >= 14 and share["scroll"], share
    _choose_between_two_ends(page)  # as a tap on a tile that fits two ends does
    page.screenshot(path=str(ARTIFACTS / "landscape_ends.png"))
    share = _board_share(page)
    assert share["w"] >= 0.5 and share["h"] >= 0.5 and share["felt"] >= 0.6, share
    for b in page.locator("#ends button").all():  # the end buttons on screen
        box = b.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 844 and box["y"] + box["height"] <= 390


def _choose_between_two_ends(page) -> None:
    """Our turn, a tile of ours shown as fitting two ends that are real choices."""
    page.evaluate(
        """async () => {
        const { store } = await import('/static/table/state.js');
        const { clickTile } = await import('/static/table/actions.js');
        const st = structuredClone(store.state);
        const tile = st.view.hand[0];
        st.view.legal = [{ move: tile + '@L', kind: 'play', tile, arm: 'L', decision: 0 },
                         { move: tile + '@R', kind: 'play', tile, arm: 'R', decision: 1 }];
        st.view.layout.first = st.view.layout.first || '0-0';
        st.view.layout.ends = { L: 3, R: 6 };
        store.setState(st);
        clickTile(tile);
    }"""
    )
    page.wait_for_selector("#ends:not([hidden]) button")


@pytest.mark.parametrize("size", ["phone", "small-phone"])
def test_the_end_buttons_and_cancel_fit_a_narrow_phone(server, sized, size):  # noqa: F811
    page = sized(size)
    _bot_table(page, server, "draw", 4)
    _our_turn(page)
    _choose_between_two_ends(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"ends_{size}.png"))
    dock = page.locator("#hand-card").bounding_box()
    boxes = [b.bounding_box() for b in page.locator("#ends button").all()]
    assert len(boxes) == 3  # left, right, Cancel
    # inside the dock with room to spare (its padding), each on one line
    assert all(b["x"] >= dock["x"] and b["x"] + b["width"] <= dock["x"] + dock["width"] - 4 for b in boxes), (
        boxes
    )
    lines = page.locator("#ends button").evaluate_all(
        """bs => bs.map(b => { const r = document.createRange(); r.selectNodeContents(b);
        return new Set([...r.getClientRects()].map(x => Math.round(x.top))).size; })"""
    )
    assert lines == [1, 1, 1], lines


def test_a_friends_chat_is_marked_while_score_and_chat_is_closed(server, sized):  # noqa: F811
    """On a phone the chat is behind "Score & chat": a line from a friend shows a number on
    it, gone once opened; your own lines never count."""
    made = _post(server, "/api/tables", {"variant": "block", "players": 2, "player": "Ana",
                                         "seats": [{"kind": "human"}, {"kind": "human"}]})  # fmt: skip
    tid = made["id"]
    joined = _post(server, f"/api/tables/{tid}/join", {"name": "Ben"})
    ana, ben = sized("phone"), sized("laptop")
    _open_seat(ana, server, made)
    _open_seat(ben, server, {"id": tid, "token": joined["token"]})
    assert ana.locator("#chat-unread").is_hidden()
    for text in ("hello Ana", "your turn!"):
        ben.fill("#chat-text", text)
        ben.press("#chat-text", "Enter")
    ana.wait_for_function("() => document.querySelector('#chat')?.textContent.includes('your turn!')")
    mark = ana.locator("#chat-unread")
    assert mark.is_visible() and mark.locator("[aria-hidden]").inner_text() == "2"
    assert mark.get_attribute("title") == "2 new messages"
    ARTIFACTS.mkdir(exist_ok=True)
    ana.screenshot(path=str(ARTIFACTS / "chat_unread_phone.png"))
    box, toggle = mark.bounding_box(), ana.locator("#side-toggle").bounding_box()
    assert box["x"] + box["width"] <= 390 and box["y"] >= 0  # on screen, at the button
    assert abs(box["x"] - (toggle["x"] + toggle["width"])) < 30
    ana.tap("#side-toggle")
    assert mark.is_hidden()
    # lines said while it is open are read; your own never count
    ben.fill("#chat-text", "seen?")
    ben.press("#chat-text", "Enter")
    ana.wait_for_function("() => document.querySelector('#chat')?.textContent.includes('seen?')")
    assert mark.is_hidden()
    # the laptop shows the chat beside the table: nothing to mark
    assert ben.locator("#chat-unread").is_hidden()


def test_watching_a_game_its_people_left_says_so(server, sized):  # noqa: F811
    made = _post(server, "/api/tables", {"variant": "block", "players": 2, "player": "Ana",
                                         "seats": [{"kind": "human"}, {"kind": "human"}]})  # fmt: skip
    tid = made["id"]
    joined = _post(server, f"/api/tables/{tid}/join", {"name": "Ben"})
    ana, ben, eve = sized("phone"), sized("phone"), sized("laptop")
    _open_seat(ana, server, made)
    _open_seat(ben, server, {"id": tid, "token": joined["token"]})
    eve.goto(server + f"/t/{tid}?watch=1")
    eve.wait_for_selector("body[data-watching='1']")
    assert eve.locator("#watch-left").count() == 0 or eve.locator("#watch-left").is_hidden()
    ana.context.close()
    ben.context.close()
    eve.wait_for_selector("#watch-left:not([hidden])")
    assert "Everyone at this table has left" in eve.inner_text("#watch-left")
    ARTIFACTS.mkdir(exist_ok=True)
    eve.screenshot(path=str(ARTIFACTS / "watch_left_laptop.png"))


def test_focus_goes_to_your_tiles_after_start_now_and_to_play_again_at_game_over(server, sized):  # noqa: F811
    page = sized("laptop")
    made = _post(server, "/api/tables", {"variant": "quinientos", "players": 4, "player": "Ana",
                                         "options": {"target": 1},
                                         "seats": [{"kind": "human"}, {"kind": "human"}]
                                         + [{"kind": "bot", "level": "random"}] * 2})  # fmt: skip
    _open_seat(page, server, made)
    page.wait_for_selector("#start:not([hidden])")
    page.focus("#start")
    page.keyboard.press("Enter")
    page.wait_for_function("document.body.dataset.phase !== 'waiting'")
    page.wait_for_function(
        "document.activeElement && document.activeElement.matches('#hand button.tile-btn')"
    )
    assert _play_to_the_end(page, hands=6) == "over"
    page.wait_for_function("document.activeElement && document.activeElement.id === 'play-again'")


def test_your_name_is_asked_once_with_a_default_in_your_language(server, sized):  # noqa: F811
    page = sized("laptop")
    page.goto(server + "/how-to-play")
    page.evaluate("localStorage.setItem('bonepile:lang', 'es')")
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    assert page.input_value("#name") == "Jugador"  # not "Player"
    assert page.evaluate("document.activeElement.id") == "name"
    assert page.locator("#name-ask").is_visible()
    page.fill("#name", "Lucía")
    page.locator("#name").dispatch_event("change")
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert page.input_value("#name") == "Lucía"
    assert page.locator("#name-ask").is_hidden() and page.evaluate("document.activeElement.id") != "name"
    if page.locator("#profile-name").is_visible():
        page.wait_for_function("!document.getElementById('profile-name').textContent.includes('Player')")


def test_the_games_line_follows_the_number_of_players(server, sized):  # noqa: F811
    """Block for 4 deals every tile (no drawing); for 2 the tiles left are a boneyard to draw
    from (RULES.md §3), and its line says so."""
    page = sized("phone")
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#variant", "block")
    page.select_option("#players", "4")
    assert "no drawing" in page.inner_text("#variant-help")
    page.select_option("#players", "2")
    line = page.inner_text("#variant-help")
    assert "no drawing" not in line and "draw from it" in line
    page.select_option("#variant", "draw")
    assert "draw from the boneyard" in page.inner_text("#variant-help")


OVERLAPS = """(sel) => {
    const names = [...document.querySelectorAll('.seat-box .name, .seat-box .details')].map(e => e.getBoundingClientRect());
    return [...document.querySelectorAll(sel)].map(e => { const r = e.getBoundingClientRect();
        return { inside: r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight,
                 covers: names.some(n => r.left < n.right && n.left < r.right && r.top < n.bottom && n.top < r.bottom) }; }); }"""


@pytest.mark.parametrize("size", ["small-phone", "phone-landscape"])
def test_call_outs_and_notes_stay_on_screen_off_the_seat_names(server, sized, size):  # noqa: F811
    page = sized(size)
    _bot_table(page, server, "draw", 4)
    seen = 0
    for _ in range(40):  # the bots' plays, draws and passes call out at their seats
        for c in page.evaluate(OVERLAPS, ".callout"):
            assert c["inside"] and not c["covers"], c
            seen += 1
        if seen >= 3:
            break
        if page.evaluate("document.body.dataset.myTurn") == "1":
            seq = page.evaluate("document.body.dataset.seq")
            page.evaluate(
                f"""async () => {{ const s = await ({STORE})();
                const a = await import('/static/table/actions.js'); a.playMove(s.legal()[0].move); }}"""
            )
            page.wait_for_function(f"document.body.dataset.seq !== '{seq}'")
        page.wait_for_timeout(150)
    assert seen, "no call-out met"
    page.evaluate(
        """async () => { const c = await import('/static/common.js');
        const box = document.getElementById('alert'); c.setAlert(box, 'Your time ran out: the table played a move for you.');
        box.classList.add('notice'); }"""
    )
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"note_{size}.png"))
    (note,) = page.evaluate(OVERLAPS, "#alert")
    assert note["inside"] and not note["covers"], note
