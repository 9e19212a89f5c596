"""Trains (Mexican Train) and chicken feet drawn by the browser client (``static/rows.js``) at
the table, on a phone held upright (390x844) and on a laptop: the hub, one row per arm in
words (the owner's name, "Your train", "Mexican train", "Arm 2", "Toe 1 on the double
five"), the open trains' markers, the double that must be covered, your own train and the
trains you may play on marked, a button per train for a tile that fits several; no tile or
label lies on another, no row runs out of the board sideways, and axe finds nothing.

The layouts are the fixtures in ``fixtures/layouts/rows.json`` (the shape the server sends
for the two games), put into a running table's state in the page and drawn by the table's
own renderer; once the engine has the games, a person taps a few moves of each at both sizes
and bots play a whole game whose last layout is drawn when the table is opened.  Screenshots go
to artifacts/table-<game>-<size>.png (look at them)."""

from __future__ import annotations

import json
import pathlib
import re
import time

import pytest

from bonepile.engine import variant
from bonepile.engine.variant import VARIANT_NAMES
from pages import SIZES
from test_web_axe import axe_problems
from test_web_browser import (  # noqa: F401  (fixtures)
    ARTIFACTS,
    _get,
    _open_seat,
    _post,
    browser,
    create_table,
    server,
    wait_turn_or_end,
)

pytestmark = pytest.mark.browser

FIXTURES = json.loads((pathlib.Path(__file__).parent / "fixtures" / "layouts" / "rows.json").read_text())

#: the table's state given a fixture's layout; the first tile of the hand made to fit two
#: arms of it (a person then picks the arm by its name)
INJECT = """async ([layout, arms]) => {
  const { store } = await import('/static/table/state.js');
  const view = store.state.view;
  view.layout = layout;
  store.select(null);
  const tile = view.hand[0];
  view.legal = arms.map((arm) => ({ move: `${tile}@${arm}`, kind: 'play', tile, arm, decision: arm }));
  store.redraw();
  return tile;
}"""

#: every box a person sees on the rows board: tiles, row titles, chips, markers, buttons
BOXES = """() => {
  const box = document.querySelector('.rows-board');
  const outer = box.getBoundingClientRect();
  // the hub stays at the top while the rows scroll under it: what lies under it is hidden, not overlapping
  const hubBottom = box.scrollTop > 0 ? box.querySelector('.rows-hub').getBoundingClientRect().bottom : -Infinity;
  const pick = (sel) => [...box.querySelectorAll(sel)].filter((e) => e.closest('.rows-hub') ||
      e.getBoundingClientRect().top >= hubBottom - 0.5).map((e) => {
    const r = e.getBoundingClientRect();
    return { sel, text: e.textContent.trim(), arm: e.closest('[data-arm]')?.dataset.arm ?? null,
             x0: r.left, y0: r.top, x1: r.right, y1: r.bottom };
  });
  return { outer: { x0: outer.left, x1: outer.right, y0: outer.top, y1: outer.bottom, width: box.clientWidth,
                    scrollW: box.scrollWidth },
           items: [...pick('.rows-tile svg'), ...pick('.rows-hub svg'), ...pick('.rows-name'), ...pick('.rows-chip'),
                   ...pick('.rows-end'), ...pick('.rows-marker'), ...pick('.rows-play'), ...pick('.rows-hub-words')],
           rows: [...box.querySelectorAll('section.rows-arm')].map((s) => ({ arm: s.dataset.arm,
             name: s.querySelector('.rows-name').textContent, cls: s.className,
             tiles: s.querySelectorAll('.rows-tile').length,
             marker: s.querySelector('.rows-marker .visually-hidden')?.textContent ?? null })),
           label: box.getAttribute('aria-label'),
           svgShown: getComputedStyle(document.querySelector('svg#board')).display !== 'none' };
}"""


#: scroll the rows by 40 pixels from the top, redraw the table: where are they now
SCROLLED = """async () => {
  const { store } = await import('/static/table/state.js');
  const box = document.querySelector('.rows-board');
  box.scrollTop = 40;
  const before = box.scrollTop;
  store.redraw();
  return [before, document.querySelector('.rows-board').scrollTop];
}"""


#: the order and depth of the rows of a chicken foot whose toe G grew a foot of its own (K, L,
#: M on the double at G's second tile), and the words for those toes
NESTED = """async () => {
  const R = await import('/static/rows.js');
  const P = (t, i, o) => ({ tile: t, inner: i, outer: o });
  const lay = { kind: 'foot', hub: '9-9', ends: {}, open: [], pending: null, owners: {},
    arms: { A: [P('9-5', 9, 5), P('5-5', 5, 5)], B: [P('9-4', 9, 4)], C: [], D: [], E: [], F: [],
            G: [P('5-3', 5, 3), P('3-3', 3, 3)], H: [P('5-2', 5, 2)], I: [P('5-1', 5, 1)],
            K: [P('3-0', 3, 0)], L: [P('3-2', 3, 2)], M: [P('3-1', 3, 1)] },
    parents: { G: ['A', 1], H: ['A', 1], I: ['A', 1], K: ['G', 1], L: ['G', 1], M: ['G', 1] } };
  const name = R.armNamer(lay, {});
  return R.armOrder(lay).map(({ arm, depth }) => [arm, depth, name(arm)]);
}"""


#: the table as eight players see it (seven others round the felt): how tall the board is
#: against the felt, and every seat's box
EIGHT = """async () => {
  const { store } = await import('/static/table/state.js');
  const st = store.state, v = st.view;
  st.table.players = 8; v.players = 8;
  for (let s = 4; s < 8; s++) st.table.seats.push({ ...st.table.seats[1], seat: s, name: 'Bot ' + (s + 1) });
  v.tile_counts = [7, 9, 10, 8, 11, 6, 10, 9];
  v.sides = [[0], [1], [2], [3], [4], [5], [6], [7]];
  v.totals = v.hand_points = [0, 0, 0, 0, 0, 0, 0, 0];
  store.redraw();
  const r = (e) => { const b = e.getBoundingClientRect(); return { x0: b.left, y0: b.top, x1: b.right, y1: b.bottom }; };
  return { board: r(document.querySelector('.board-wrap')), felt: r(document.querySelector('.felt')),
           seats: [...document.querySelectorAll('.felt .seat-box')].map((e) => ({ sel: 'seat', arm: null,
             text: e.querySelector('.name').textContent, ...r(e) })) };
}"""


def _overlaps(items: list[dict]) -> list[tuple[str, str]]:
    bad = []
    for i, a in enumerate(items):
        for b in items[i + 1 :]:
            if (
                min(a["x1"], b["x1"]) - max(a["x0"], b["x0"]) > 0.5
                and min(a["y1"], b["y1"]) - max(a["y0"], b["y0"]) > 0.5
            ):
                bad.append((f"{a['sel']} {a['arm']} {a['text']}", f"{b['sel']} {b['arm']} {b['text']}"))
    return bad


#: names the client must never show for an arm: its identifier instead of words
IDENT = re.compile(r"^(?:[A-Z]|\d)$|\btrains?\.|\bfoot\.|\brows\.")

CASES = [
    # fixture, arms the first tile of the hand fits, the rows' names in order (seat 0 is you)
    (
        "mexican-train-4",
        ["2", "M"],
        ["Your train", "Mexican train", "Bot 2's train", "Bot 3's train", "Bot 4's train"],
    ),
    (
        "mexican-train-8",
        ["1", "8", "M"],
        ["Your train", "Mexican train", "Bot 2's train", "Bot 3's train", "Bot 4's train"]
        + [f"Player {n}'s train" for n in range(5, 9)],
    ),
    ("chicken-foot", ["B", "G"], None),
]


def _check(got: dict, layout: dict, arms: list[str], names: list[str] | None) -> None:
    assert not got["svgShown"]
    # every arm has its row, in words, with every one of its tiles
    rows = got["rows"]
    assert {r["arm"] for r in rows} == set(layout["arms"]) | set(layout.get("owners", {}))
    for r in rows:
        assert r["tiles"] == len(layout["arms"].get(r["arm"], [])), r
        assert not IDENT.search(r["name"]), r["name"]
    if names:
        assert [r["name"] for r in rows] == names
    # markers on the open trains only, in words; the pending double and the playable arms marked
    for r in rows:
        open_ = r["arm"] in layout["open"] and r["arm"] != "M"
        assert (r["marker"] == "open: anyone may play here") == open_, r
        assert ("pending" in r["cls"].split()) == (r["arm"] == layout["pending"])
        assert ("playable" in r["cls"].split()) == (r["arm"] in arms)
    if layout["kind"] == "trains":
        assert [r["arm"] for r in rows if "mine" in r["cls"].split()] == ["1"]
    # one button per arm the tile fits
    buttons = [i for i in got["items"] if i["sel"] == ".rows-play"]
    assert sorted(b["arm"] for b in buttons) == sorted(arms)
    # the first of them in sight, inside the rows' box (it scrolled there by itself)
    first = min(buttons, key=lambda b: b["y0"])
    assert got["outer"]["y0"] - 0.5 <= first["y0"] and first["y1"] <= got["outer"]["y1"] + 0.5, first
    # nothing on anything else, nothing wider than the board
    assert _overlaps(got["items"]) == []
    assert got["outer"]["scrollW"] <= got["outer"]["width"] + 1
    for i in got["items"]:
        assert i["x0"] >= got["outer"]["x0"] - 0.5 and i["x1"] <= got["outer"]["x1"] + 0.5, i
    assert "tiles" in got["label"] and not IDENT.search(got["label"])


def test_rows_at_the_table_on_a_phone_and_a_laptop(server, browser):  # noqa: F811
    nested_checked = False
    for size in ("phone", "laptop"):
        w, h = SIZES[size]
        ctx = browser.new_context(viewport={"width": w, "height": h}, has_touch=True, bypass_csp=True)
        pg = ctx.new_page()
        errors: list[str] = []
        pg.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        pg.set_default_timeout(15000)
        create_table(pg, server, "block", ["casual", "casual", "casual"])
        assert wait_turn_or_end(pg) == "play"
        if not nested_checked:  # the pure part, once: a toe's own foot sits under that toe
            assert pg.evaluate(NESTED) == [
                ["A", 0, "Arm 1"],
                ["G", 1, "Toe 1 on the double five"],
                ["K", 2, "Toe 1 on the double three"],
                ["L", 2, "Toe 2 on the double three"],
                ["M", 2, "Toe 3 on the double three"],
                ["H", 1, "Toe 2 on the double five"],
                ["I", 1, "Toe 3 on the double five"],
                ["B", 0, "Arm 2"],
                ["C", 0, "Arm 3"],
                ["D", 0, "Arm 4"],
                ["E", 0, "Arm 5"],
                ["F", 0, "Arm 6"],
            ]
            nested_checked = True
        for game, arms, names in CASES:
            layout = FIXTURES[game]
            tile = pg.evaluate(INJECT, [layout, arms])
            pg.locator(f"#hand button.tile-btn[data-tile='{tile}']").first.click()
            pg.wait_for_selector(".rows-board .rows-play")
            got = pg.evaluate(BOXES)
            pg.screenshot(path=str(ARTIFACTS / f"table-{game}-{size}.png"))
            _check(got, layout, arms, names)
            # the choice under the hand names the trains too
            assert sorted(pg.locator("#ends button[data-end]").all_inner_texts()) == sorted(
                next(r["name"] for r in got["rows"] if r["arm"] == a) + f" ({layout['ends'][a]})"
                for a in arms
            )
            assert axe_problems(pg, f"table-{game}-{size}") == []
        if size == "phone":
            # eight players: the seven others fit in a strip over the board, which keeps most of the felt
            eight = pg.evaluate(EIGHT)
            pg.screenshot(path=str(ARTIFACTS / f"table-eight-players-{size}.png"))
            assert len(eight["seats"]) == 7 and _overlaps(eight["seats"]) == []
            assert all(s["y1"] <= eight["board"]["y0"] + 0.5 for s in eight["seats"])
            felt, board = eight["felt"], eight["board"]
            assert board["y1"] - board["y0"] >= 0.6 * (felt["y1"] - felt["y0"])
        # a redraw (a move somewhere) leaves the rows scrolled where the reader left them
        pg.evaluate(INJECT, [FIXTURES["mexican-train-8"], []])
        kept = pg.evaluate(SCROLLED)
        assert kept[0] > 0 and kept[0] == kept[1]
        ctx.close()
        assert errors == []


#: the engine's two games drawn as rows (the engine has them before the lobby offers them)
GAMES = [
    g for g in ("mexican-train", "chicken-foot") if g in getattr(variant, "ENGINE_VARIANTS", VARIANT_NAMES)
]


#: at our turn, a train or arm we may play on is in sight in the rows (below the hub that
#: stays at their top): on a phone the rows scroll, and ours may be below the others
PLAYABLE_IN_SIGHT = """() => {
  const box = document.querySelector('.rows-board'), hub = box.querySelector('.rows-hub');
  const outer = box.getBoundingClientRect(), top = Math.max(outer.top, hub.getBoundingClientRect().bottom);
  return [...box.querySelectorAll('.rows-arm.playable')].some((a) => {
    const r = a.getBoundingClientRect();
    return r.top < outer.bottom - 4 && r.bottom > top + 4;
  });
}"""


def _tap_a_move(pg, turn: int) -> None:
    """Tap a playable tile (and, when it fits several arms, a Play here on the board on odd
    turns, the button under the hand otherwise), else Draw or Pass; wait for the answer."""
    seq = pg.evaluate("document.body.dataset.seq")
    tiles = pg.locator("#hand button.tile-btn.playable")
    if tiles.count():
        tiles.first.click()
        if pg.locator("#ends").is_visible() and pg.locator("#ends button[data-end]").count():
            names = pg.locator("#ends button[data-end]").all_inner_texts()
            assert all(not IDENT.search(n.split(" (")[0]) for n in names), names
            if turn % 2:
                pg.locator(".rows-board .rows-play").first.click()
            else:
                pg.locator("#ends button[data-end]").first.click()
    elif pg.locator("#draw").is_visible():
        pg.click("#draw")
    elif pg.locator("#pass").is_visible():
        pg.click("#pass")
    else:
        raise AssertionError("our turn, but nothing to tap")
    pg.wait_for_function(f"document.body.dataset.seq !== {json.dumps(seq)}")


def _rows_read_well(got: dict) -> None:
    assert not got["svgShown"]
    assert _overlaps(got["items"]) == []
    assert got["outer"]["scrollW"] <= got["outer"]["width"] + 1
    for r in got["rows"]:
        assert not IDENT.search(r["name"]), r["name"]


@pytest.mark.parametrize("game", GAMES)  # a test each (no game in the engine yet: skipped)
def test_the_games_played_by_tapping_and_by_bots_to_the_end(server, browser, game):  # noqa: F811
    # bots play a whole game; its last layout is drawn when the table is opened
    # two rounds: a whole Mexican Train game's replay outgrows what the server sends
    options = {"rounds": 2} if game == "mexican-train" else {}
    made = _post(
        server,
        "/api/tables",
        {
            "variant": game,
            "players": 4,
            "options": options,
            "seats": [{"kind": "bot", "level": "random"}] * 4,
        },
    )
    for size in ("phone", "laptop"):
        w, h = SIZES[size]
        # no motion: a tile just played flies over the rows for a moment (the boxes are read still)
        ctx = browser.new_context(
            viewport={"width": w, "height": h}, has_touch=True, bypass_csp=True, reduced_motion="reduce"
        )
        pg = ctx.new_page()
        errors: list[str] = []
        pg.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        pg.set_default_timeout(20000)
        mine = _post(server, "/api/tables", {"variant": game, "players": 4, "player": "Ana",
                                             "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "casual"}] * 3})  # fmt: skip
        _open_seat(pg, server, mine)
        for turn in range(6):
            if wait_turn_or_end(pg) != "play":
                break
            pg.wait_for_selector(".rows-board")
            _rows_read_well(pg.evaluate(BOXES))
            assert (
                pg.wait_for_function(PLAYABLE_IN_SIGHT) if pg.locator(".rows-arm.playable").count() else True
            )
            _tap_a_move(pg, turn)
        pg.screenshot(path=str(ARTIFACTS / f"table-{game}-played-{size}.png"))
        assert axe_problems(pg, f"table-{game}-played-{size}") == []
        ctx.close()
        assert errors == []
    end = time.monotonic() + 120
    while _get(server, f"/api/tables/{made['id']}")["status"] != "over":
        assert time.monotonic() < end, "the bots did not finish"
        time.sleep(0.1)
    ctx = browser.new_context(  # (no service worker: the page's own requests are routed below)
        viewport={"width": 390, "height": 844}, has_touch=True, bypass_csp=True, service_workers="block"
    )
    pg = ctx.new_page()
    pg.goto(server + f"/t/{made['id']}")
    pg.wait_for_selector(".rows-board .rows-tile")
    _rows_read_well(pg.evaluate(BOXES))
    pg.screenshot(path=str(ARTIFACTS / f"table-{game}-over-phone.png"))
    # a replay the server refuses (a whole long game is too big to send): the result still shows
    pg.route("**/replay", lambda route: route.fulfill(status=413, body='{"error": "too big"}'))
    pg.goto(server + f"/t/{made['id']}")
    pg.wait_for_selector("body[data-conn='0']")
    pg.wait_for_function("() => document.querySelector('#turn').textContent.includes('Game over')")
    ctx.close()
