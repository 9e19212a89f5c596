"""Tiles of every set, drawn by the browser client (``static/render.js``): every tile from 0-0
to 12-12, upright as in a hand and lying as on the table, on a phone held upright (390x844)
and on a laptop.  Each half shows as many pips as its number (counted in the page), inside its
half, none touching another, big enough to see on a phone; 7 to 12 each in a colour of their
own.  The pure part (``pipLayout``: a number -> the pips' centres) is checked for every number:
the pips fit, keep apart, and look the same turned half a turn, as a real tile's do.
Screenshots go to artifacts/tiles-<size>.png (look at them)."""

from __future__ import annotations

import pytest

from pages import SIZES
from test_web_browser import ARTIFACTS, browser, server  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser

#: every tile of a double-twelve set, the highest number first ("12-10")
TILES = [f"{a}-{b}" for a in range(13) for b in range(a + 1)]

#: draws the sheet of tiles and reads back, per tile, each half's number of pips and the
#: pips' boxes in CSS pixels (relative to the half's box)
SHEET = """async (tiles) => {
  const R = await import('/static/render.js');
  const sheet = document.createElement('div');
  sheet.id = 'sheet';
  sheet.style.cssText = 'display:flex;flex-wrap:wrap;gap:6px;padding:8px;background:#1f5f3a';
  document.body.replaceChildren(sheet);
  for (const name of tiles) {
    for (const vertical of [true, false]) {
      const s = R.tileSVG(name, { vertical, label: name });
      s.dataset.name = name;
      sheet.appendChild(s);
    }
  }
  const out = [];
  for (const s of sheet.querySelectorAll('svg.tile-svg')) {
    const halves = [];
    for (const side of ['a', 'b']) {
      const g = s.querySelector(`g.half[data-half='${side}']`);
      const pips = [...g.querySelectorAll('circle.pip')].map((c) => {
        const b = c.getBoundingClientRect();
        return [b.x, b.y, b.width, b.height];
      });
      const fill = pips.length ? getComputedStyle(g.querySelector('circle.pip')).fill : null;
      halves.push({ n: pips.length, pips, fill });
    }
    const box = s.querySelector('.tile-face').getBoundingClientRect();
    out.push({ name: s.dataset.name, vertical: s.classList.contains('v'), halves,
               face: [box.x, box.y, box.width, box.height], label: s.getAttribute('aria-label') });
  }
  return out;
}"""

#: the pure layout, checked for every number in the page
LAYOUTS = """async () => {
  const R = await import('/static/render.js');
  const out = [];
  for (let n = 0; n <= R.MAX_PIPS; n++) out.push({ n, ...R.pipLayout(n) });
  return out;
}"""


def test_pip_layouts_fit_keep_apart_and_turn_half_a_turn(server, browser):  # noqa: F811
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True)
    pg = ctx.new_page()
    pg.goto(server + "/how-to-play")
    pg.wait_for_selector("body[data-ready='1']")
    layouts = pg.evaluate(LAYOUTS)
    ctx.close()
    assert [x["n"] for x in layouts] == list(range(13))
    for lay in layouts:
        n, centres, radius = lay["n"], lay["centres"], lay["radius"]
        assert len(centres) == n
        # the pips lie inside the half with room to spare, and apart from each other
        # (a half's square of 1 x 1 tile units is drawn at 0.92 of its size)
        scale = 0.92
        for x, y in centres:
            assert radius / scale < x < 1 - radius / scale and radius / scale < y < 1 - radius / scale
        for i in range(n):
            for j in range(i + 1, n):
                (x1, y1), (x2, y2) = centres[i], centres[j]
                gap = ((x1 - x2) ** 2 + (y1 - y2) ** 2) ** 0.5 * scale - 2 * radius
                assert gap > 0.04, (n, centres[i], centres[j])
        # half a turn leaves the pattern as it was
        turned = sorted((round(1 - x, 3), round(1 - y, 3)) for x, y in centres)
        assert turned == sorted((round(x, 3), round(y, 3)) for x, y in centres), n
    # no two numbers share a pattern
    assert len({tuple(map(tuple, x["centres"])) for x in layouts}) == 13


def test_every_tile_to_double_twelve_at_phone_and_laptop_size(server, browser):  # noqa: F811
    for size in ("phone", "laptop"):
        w, h = SIZES[size]
        ctx = browser.new_context(viewport={"width": w, "height": h}, bypass_csp=True)
        pg = ctx.new_page()
        errors: list[str] = []
        pg.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        pg.goto(server + "/how-to-play")
        pg.wait_for_selector("body[data-ready='1']")
        drawn = pg.evaluate(SHEET, TILES)
        pg.screenshot(path=str(ARTIFACTS / f"tiles-{size}.png"), full_page=True)
        ctx.close()
        assert errors == []
        assert [d["name"] for d in drawn] == [t for t in TILES for _ in range(2)]
        fills: dict[int, set[str]] = {}
        for d in drawn:
            a, b = map(int, d["name"].split("-"))
            assert [half["n"] for half in d["halves"]] == [a, b], d["name"]
            fx, fy, fw, fh = d["face"]
            long, short = (fh, fw) if d["vertical"] else (fw, fh)
            assert long > 1.9 * short  # a tile is twice as long as it is wide
            for k, half in enumerate(d["halves"]):
                if half["n"]:
                    fills.setdefault(half["n"], set()).add(half["fill"])
                for x, y, pw, ph in half["pips"]:
                    # every pip is on its own half of the face, and big enough to see
                    assert pw >= 4 and abs(pw - ph) < 0.5, (size, d["name"], pw)
                    cx, cy = x + pw / 2, y + ph / 2
                    along = (cy - fy) / fh if d["vertical"] else (cx - fx) / fw
                    assert (k == 0 and along < 0.5) or (k == 1 and along > 0.5), (d["name"], k, along)
                    assert fx < cx < fx + fw and fy < cy < fy + fh
                for i, p in enumerate(half["pips"]):
                    for q in half["pips"][i + 1 :]:
                        dist = ((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2) ** 0.5
                        assert dist > p[2], (size, d["name"])  # apart by more than a pip
        # each number shows one colour; 7 to 12 each their own, unlike 1 to 6's black
        assert all(len(f) == 1 for f in fills.values())
        colours = [next(iter(fills[n])) for n in range(1, 13)]
        assert len(set(colours[:6])) == 1 and len(set(colours[6:])) == 6
        assert colours[0] not in colours[6:]
