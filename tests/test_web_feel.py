"""The table's feel, played as a person in Chromium: tiles fly from the player to the board
and from the boneyard to the hand (and stay still under prefers-reduced-motion), tapping and
dragging still play with the flights on, the sounds start only after a gesture and the mute
is remembered, the zoom buttons, keys and a pinch change the board's scale and Fit shows it
all again.  Screenshots go to artifacts/ (look at them)."""

from __future__ import annotations

import json

import pytest

from test_web_browser import (  # noqa: F401  (fixtures)
    ARTIFACTS,
    _layouts,
    _open_seat,
    _post,
    browser,
    server,
    wait_turn_or_end,
)

#: every animation the page starts, logged: what it moves and its first keyframe
LOG_ANIMATIONS = """
window.__anims = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (frames, opts) {
  const d = this.dataset || {};
  window.__anims.push({ flying: d.flying || null, tile: d.tile || null, tag: this.tagName,
                        backs: this.parentElement?.dataset?.backs ?? null,
                        from: frames[0]?.transform || null });
  return animate.call(this, frames, opts);
};
"""

#: an AudioContext that makes no sound and counts what the page asks of it
FAKE_AUDIO = """
window.__audio = { made: 0, started: 0, resumed: 0 };
class FakeParam { setValueAtTime() {} exponentialRampToValueAtTime() {} linearRampToValueAtTime() {} set value(v) {} }
class FakeNode {
  constructor() { this.frequency = new FakeParam(); this.gain = new FakeParam(); this.Q = new FakeParam(); }
  connect(n) { return n; }
  start() { window.__audio.started += 1; }
  stop() {}
}
class FakeAudioContext {
  constructor() { window.__audio.made += 1; this.state = 'running'; this.currentTime = 0; this.sampleRate = 8000;
                  this.destination = new FakeNode(); }
  resume() { window.__audio.resumed += 1; return Promise.resolve(); }
  createOscillator() { return new FakeNode(); }
  createGain() { return new FakeNode(); }
  createBiquadFilter() { return new FakeNode(); }
  createBufferSource() { return new FakeNode(); }
  createBuffer(ch, n) { const d = new Float32Array(n); return { getChannelData: () => d }; }
}
window.AudioContext = FakeAudioContext;
window.webkitAudioContext = FakeAudioContext;
"""

SIZES = {"phone": (390, 844), "laptop": (1366, 768)}


@pytest.fixture
def table_page(browser):  # noqa: F811
    """A page factory: table_page("phone", reduced=False) -> a page (closed after the test)."""
    made = []

    def make(size: str = "phone", reduced: bool = False, scripts: tuple[str, ...] = (LOG_ANIMATIONS,)):
        w, h = SIZES[size]
        ctx = browser.new_context(
            viewport={"width": w, "height": h},
            has_touch=True,
            bypass_csp=True,
            reduced_motion="reduce" if reduced else "no-preference",
        )
        for s in scripts:
            ctx.add_init_script(s)
        pg = ctx.new_page()
        errors: list[str] = []
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.set_default_timeout(15000)
        made.append((ctx, errors))
        return pg

    yield make
    for ctx, errors in made:
        ctx.close()
        assert not errors, f"JavaScript errors on the page: {errors}"


def _table(server: str, variant: str = "block", players: int = 4, **extra) -> dict:  # noqa: F811
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * (players - 1)
    return _post(
        server,
        "/api/tables",
        {"variant": variant, "players": players, "seats": seats, "player": "Newbie", **extra},
    )


def _state(page) -> dict:
    return page.evaluate("async () => (await import('/static/table/state.js')).store.state")


def _tap_a_move(page, drag: bool = False) -> tuple[str, str | None]:
    """Tap (or drag) the first playable tile, else Draw, else Pass; wait for the answer."""
    seq = page.evaluate("document.body.dataset.seq")
    tiles = page.locator("#hand button.tile-btn.playable")
    did: tuple[str, str | None]
    if tiles.count():
        tile = tiles.first
        name = tile.get_attribute("data-tile")
        if drag:
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
            page.mouse.up()
        else:
            tile.tap()
            if page.locator("#ends:not([hidden]) button[data-end]").count():
                page.locator("#ends button[data-end]").first.tap()
        did = ("play", name)
    elif page.locator("#draw").is_visible():
        page.tap("#draw")
        did = ("draw", None)
    else:
        page.tap("#pass")
        did = ("pass", None)
    page.wait_for_function(f"document.body.dataset.seq !== {json.dumps(seq)}")
    return did


def _settled(page) -> None:
    """Wait until no tile is in the air."""
    page.wait_for_function("!document.getAnimations().some(a => a.playState === 'running')")
    page.wait_for_function("!document.querySelector('#board-sky .flying')")


@pytest.mark.parametrize("drag", [False, True], ids=["tap", "drag"])
def test_a_played_tile_flies_from_the_player_to_the_board(server, table_page, drag):  # noqa: F811
    """Your tile flies from your hand (or where you let it go), a bot's from its seat; it lands
    in its place, the tile in the board stays where it belongs, the sky empties."""
    page = table_page("phone")
    _open_seat(page, server, _table(server))
    mine = None
    for _ in range(12):
        assert wait_turn_or_end(page) == "play"
        page.evaluate("window.__anims = []")
        kind, name = _tap_a_move(page, drag=drag)
        if kind == "play":
            mine = name
            break
    assert mine, "no playable tile in twelve turns"
    page.wait_for_function(f"window.__anims.some(a => a.flying === {json.dumps(mine)})")
    flight = page.evaluate(f"window.__anims.find(a => a.flying === {json.dumps(mine)})")
    assert flight["from"].startswith("translate(") and flight["from"] != "translate(0px, 0px)"
    # the copy flies in the sky over the board; the board holds the tile in its place
    assert page.locator(f"#board g.tile[data-tile='{mine}']").count() == 1
    assert page.locator("#board-sky g.tile[data-tile]").count() == 0
    # the bots' tiles fly too, from their seats
    st = _state(page)
    others = [h["tile"] for h in st["view"]["history"] if h["action"] == "play" and h["seat"] != st["you"]]
    if wait_turn_or_end(page) == "play":
        st = _state(page)
        later = [h["tile"] for h in st["view"]["history"] if h["action"] == "play" and h["seat"] != st["you"]]
        new = [t for t in later if t not in others]
        flown = page.evaluate("window.__anims.map(a => a.flying).filter(Boolean)")
        assert set(new) <= set(flown)
    _settled(page)
    op = page.locator(f"#board g.tile[data-tile='{mine}']").evaluate("g => getComputedStyle(g).opacity")
    assert op == "1"
    # play on with the flights running: tapping or dragging still plays
    for _ in range(3):
        if wait_turn_or_end(page) != "play":
            break
        if drag:  # a person lets the tiles of the hand settle before picking one up
            _settled(page)
        kind, name = _tap_a_move(page, drag=drag)
        if kind == "play":
            page.wait_for_function(f"!document.querySelector('#hand button[data-tile=\"{name}\"]')")
            assert page.locator(f"#board g.tile[data-tile='{name}']").count() == 1


def test_drawn_tiles_come_from_the_boneyard(server, table_page):  # noqa: F811
    """In a two-player Draw game every draw brings a tile from the boneyard: into your hand
    (your button moves), or into a bot's row of tile backs."""
    page = table_page("laptop")
    _open_seat(page, server, _table(server, "draw", players=2))
    mine = bots = 0
    held: set[str] | None = None  # your hand after your last move
    for _ in range(80):
        phase = wait_turn_or_end(page)
        anims = page.evaluate("window.__anims")
        bots += sum(1 for a in anims if a["backs"] is not None)
        hand = set(_state(page)["view"]["hand"]) if phase == "play" else set()
        if held is not None and phase == "play" and hand - held:
            # drawn since (a draw with no choice is played by the table): each came flying
            came = {a["tile"] for a in anims if a["tag"] == "BUTTON" and "scale(0.6)" in (a["from"] or "")}
            assert hand - held <= came, (sorted(hand - held), sorted(came))
            mine += 1
        if mine and bots:
            break
        if phase == "hand_over":
            page.click("#next")
            page.wait_for_function("document.body.dataset.phase !== 'hand_over'")
            held = None
            continue
        if phase != "play":
            break
        page.evaluate("window.__anims = []")
        _tap_a_move(page)
        held = set(_state(page)["view"]["hand"])
    assert mine and bots, f"draws seen flying: {mine} of yours, {bots} of the bot's"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "feel_draw_laptop.png"))


def test_reduced_motion_moves_nothing(server, table_page):  # noqa: F811
    """prefers-reduced-motion: reduce -> not one animation, whatever is played or drawn."""
    page = table_page("phone", reduced=True)
    _open_seat(page, server, _table(server, "draw", players=2))
    played = 0
    for _ in range(10):
        if wait_turn_or_end(page) != "play":
            break
        assert page.evaluate("document.getAnimations().length") == 0
        kind, _name = _tap_a_move(page)
        played += kind == "play"
        assert page.evaluate("document.getAnimations().length") == 0
    assert page.evaluate("window.__anims") == []
    assert page.locator("#board-sky .flying").count() == 0
    assert page.locator("#board g.tile").count() >= 1


def test_the_mute_button_is_remembered(server, table_page):  # noqa: F811
    page = table_page("phone")
    _open_seat(page, server, _table(server))
    mute = page.locator("#mute")
    assert mute.get_attribute("aria-label") == "Mute sounds"
    assert mute.get_attribute("aria-pressed") == "false"
    box = mute.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44
    mute.tap()
    assert mute.get_attribute("aria-pressed") == "true"
    assert page.evaluate("localStorage.getItem('bonepile:muted')") == "1"
    page.reload()
    page.wait_for_selector("body[data-conn='1']")
    assert page.locator("#mute").get_attribute("aria-pressed") == "true"
    page.locator("#mute").focus()
    page.keyboard.press("Enter")  # a keyboard user turns it back on
    assert page.locator("#mute").get_attribute("aria-pressed") == "false"
    page.reload()
    page.wait_for_selector("body[data-conn='1']")
    assert page.locator("#mute").get_attribute("aria-pressed") == "false"


def test_sounds_only_after_a_gesture_and_never_when_muted(server, table_page):  # noqa: F811
    """A short clock plays for you while you do nothing: moves are made, the clock runs out,
    and not one sound (no AudioContext at all) before your first tap.  After it, moves and the
    clock's last seconds sound; muted, nothing does."""
    page = table_page("phone", scripts=(FAKE_AUDIO,))
    _open_seat(page, server, _table(server, timer=3))
    # nobody touched the page: the table plays on (the clock runs out for you) in silence
    page.wait_for_function("document.body.dataset.myTurn === '1'", timeout=30000)
    page.wait_for_function(
        "document.getElementById('alert').textContent.includes('time ran out')", timeout=30000
    )
    for _ in range(300):  # the others play on after the move made for you
        if len(_state(page)["view"]["history"]) >= 2:
            break
        page.wait_for_timeout(100)
    assert len(_state(page)["view"]["history"]) >= 2
    assert page.evaluate("window.__audio") == {"made": 0, "started": 0, "resumed": 0}
    # the first gesture: sounds from now on (a move of yours, the others', the clock's ticks)
    wait_turn_or_end(page)
    kind, _name = _tap_a_move(page)
    assert page.evaluate("window.__audio.made") == 1
    page.wait_for_function("window.__audio.started > 0")
    # muted: the next moves and the clock make no sound
    page.tap("#mute")
    page.wait_for_timeout(700)  # let the sounds already queued for the last moves go
    before = page.evaluate("window.__audio.started")
    page.wait_for_function(
        "document.body.dataset.myTurn === '1' || document.body.dataset.phase !== 'play'", timeout=30000
    )
    page.wait_for_timeout(3500)  # a whole clock: its last seconds would tick
    assert page.evaluate("window.__audio.started") == before
    # sound on again: the sample click of the button itself is heard
    page.tap("#mute")
    assert page.evaluate("window.__audio.started") > before


def _tile_width(page) -> float:
    return page.evaluate("""() => Math.max(...[...document.querySelectorAll('#board g.tile')]
        .map(g => g.getBoundingClientRect().width))""")


def _zoom(page) -> float:
    return float(page.locator("#board").get_attribute("data-zoom"))


def test_zoom_buttons_keys_and_pinch(server, table_page):  # noqa: F811
    page = table_page("phone")
    _open_seat(page, server, _table(server))
    for _ in range(12):  # a few tiles on the board
        if wait_turn_or_end(page) != "play" or page.locator("#board g.tile").count() >= 4:
            break
        _tap_a_move(page)
    _settled(page)
    for b in ("#zoom-in", "#zoom-out", "#zoom-fit"):
        box = page.locator(b).bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, b
        assert page.locator(b).get_attribute("aria-label")
    assert _zoom(page) == 1 and page.locator("#zoom-fit").get_attribute("aria-disabled") == "true"
    fit_w = _tile_width(page)
    fit_box = page.locator("#board").get_attribute("viewBox")
    page.tap("#zoom-in")
    assert _zoom(page) == 1.5
    assert _tile_width(page) == pytest.approx(1.5 * fit_w, rel=0.02)
    page.tap("#zoom-in")
    assert _zoom(page) == 2.25
    page.tap("#zoom-out")
    assert _zoom(page) == 1.5
    page.tap("#zoom-fit")
    assert _zoom(page) == 1 and page.locator("#board").get_attribute("viewBox") == fit_box
    assert _tile_width(page) == pytest.approx(fit_w, rel=0.01)
    # the keyboard: the buttons (Enter), the + - 0 keys, the arrows move about when zoomed
    page.locator("#zoom-in").focus()
    page.keyboard.press("Enter")
    assert _zoom(page) == 1.5
    page.keyboard.press("+")
    assert _zoom(page) == 2.25
    vb = page.locator("#board").get_attribute("viewBox")
    page.keyboard.press("ArrowLeft")
    moved = page.locator("#board").get_attribute("viewBox")
    assert moved != vb and float(moved.split()[0]) < float(vb.split()[0])
    page.keyboard.press("-")
    assert _zoom(page) == 1.5
    page.keyboard.press("0")
    assert _zoom(page) == 1 and page.locator("#board").get_attribute("viewBox") == fit_box
    # a pinch: two fingers apart on the board zoom in, the board's scale follows
    b = page.locator("#board").bounding_box()
    cx, cy = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
    cdp = page.context.new_cdp_session(page)

    def touch(kind: str, d: float) -> None:
        pts = [] if kind == "touchEnd" else [{"x": cx - d, "y": cy, "id": 1}, {"x": cx + d, "y": cy, "id": 2}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": pts})

    touch("touchStart", 30)
    for d in (40, 55, 70, 90):
        touch("touchMove", d)
    touch("touchEnd", 0)
    assert _zoom(page) == pytest.approx(3, rel=0.05)
    assert _tile_width(page) == pytest.approx(3 * fit_w, rel=0.06)
    # one finger drags the zoomed board about; a new state keeps the zoom
    vb = page.locator("#board").get_attribute("viewBox")
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": cx, "y": cy, "id": 3}]})
    for dx in (10, 30, 60):
        cdp.send(
            "Input.dispatchTouchEvent",
            {"type": "touchMove", "touchPoints": [{"x": cx + dx, "y": cy, "id": 3}]},
        )
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    assert float(page.locator("#board").get_attribute("viewBox").split()[0]) < float(vb.split()[0])
    page.evaluate("async () => (await import('/static/table/state.js')).store.redraw()")
    assert _zoom(page) == pytest.approx(3, rel=0.05)
    # (a tap at once after a drag is taken by Chromium's gesture detection: click instead)
    page.click("#zoom-fit")
    assert _zoom(page) == 1


def _show_layout(page, layout: dict) -> None:
    """Draw a layout of a real hand on this table (the table's own renderer and zoom)."""
    page.evaluate(
        """async (layout) => { const m = await import('/static/table/state.js');
        const st = m.store.state;
        m.store.setState({ ...st, view: { ...st.view, layout, legal: [] } }); m.store.redraw(); }""",
        layout,
    )


@pytest.mark.parametrize("kind", ["long line", "spinner"])
def test_a_long_line_and_four_arms_on_a_phone(server, table_page, kind):  # noqa: F811
    """The longest Block line and the busiest Cinque spinner of a few real hands, at 390x844:
    the whole board fits by default, zooming in makes its tiles readable and Fit brings it back."""
    cases = [c["layout"] for c in _layouts()]
    if kind == "spinner":
        pool = [c for c in cases if c["spinner_at"] and all(c["arms"].get(a) for a in "LRUD")]
    else:
        pool = [c for c in cases if not c["spinner_at"]]
    layout = max(pool, key=lambda c: sum(len(a) for a in c["arms"].values()))
    page = table_page("phone")
    _open_seat(page, server, _table(server, "cinque" if kind == "spinner" else "block"))
    # your turn: nothing moves until you play, so the layout shown stays on the board
    assert wait_turn_or_end(page) == "play"
    _show_layout(page, layout)
    n = 1 + sum(len(a) for a in layout["arms"].values())
    assert page.locator("#board g.tile").count() == n
    inside = page.evaluate("""() => { const b = document.getElementById('board').getBoundingClientRect();
        return [...document.querySelectorAll('#board g.tile')].every(g => { const r = g.getBoundingClientRect();
            return r.left >= b.left - 1 && r.right <= b.right + 1 && r.top >= b.top - 1 && r.bottom <= b.bottom + 1; }); }""")
    assert inside, "the board does not fit by default"
    unit = float(page.locator("#board").get_attribute("data-unit"))
    ARTIFACTS.mkdir(exist_ok=True)
    slug = kind.replace(" ", "_")
    page.screenshot(path=str(ARTIFACTS / f"feel_{slug}_fit_phone.png"))
    page.tap("#zoom-in")
    page.tap("#zoom-in")
    assert float(page.locator("#board").get_attribute("data-unit")) == pytest.approx(2.25 * unit, rel=0.02)
    assert 2.25 * unit >= 20  # a board tile at least 40 px long once zoomed
    page.screenshot(path=str(ARTIFACTS / f"feel_{slug}_zoomed_phone.png"))
    page.tap("#zoom-fit")
    assert float(page.locator("#board").get_attribute("data-unit")) == pytest.approx(unit, rel=0.01)


def test_play_goes_on_after_a_reconnect_and_a_reload(server, table_page):  # noqa: F811
    """The connection drops and comes back, the page is reloaded: the board is drawn as it
    is (a reload acts out nothing), and the next tile played flies as before."""
    page = table_page("phone")
    _open_seat(page, server, _table(server))
    for _ in range(8):
        assert wait_turn_or_end(page) == "play"
        if _tap_a_move(page)[0] == "play":
            break
    wait_turn_or_end(page)
    seq = page.evaluate("document.body.dataset.seq")
    page.evaluate("async () => (await import('/static/table/state.js')).store.ws.close()")
    page.wait_for_function("document.body.dataset.conn === '0'")
    page.wait_for_selector("body[data-conn='1']", timeout=20000)
    page.wait_for_function(
        f"document.body.dataset.seq !== {json.dumps(seq)} || document.body.dataset.myTurn === '1'"
    )
    page.reload()
    page.wait_for_selector("body[data-conn='1']")
    page.wait_for_function("document.body.dataset.seq !== undefined")
    assert page.evaluate("window.__anims.filter(a => a.flying)") == []
    st = _state(page)
    plays = sum(1 for h in st["view"]["history"] if h["action"] == "play")
    assert page.locator("#board g.tile").count() == plays
    for _ in range(8):
        if wait_turn_or_end(page) != "play":
            return
        kind, name = _tap_a_move(page)
        if kind == "play":
            page.wait_for_function(f"window.__anims.some(a => a.flying === {json.dumps(name)})")
            return
