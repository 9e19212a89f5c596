// Drawing the layout of a hand (shared by the table, the replay, the puzzles and How to play):
// a line or a spinner's four arms in SVG here, trains and chicken feet as rows (rows.js); the
// tiles themselves are drawn by tiles.js.  Everything is built with createElementNS and
// textContent: no markup strings, so nothing the server sends is ever parsed as HTML.
import { t as tr } from "/static/i18n.js";
import { svg, parseTile, tileWords, tileGroup, r } from "/static/tiles.js";
import { drawRows, dropRows, isRows } from "/static/rows.js";

// the tile primitives, where the pages have always found them
export { SVG_NS, svg, parseTile, tileWords, pipLayout, MAX_PIPS, tileGroup, tileBack, tileSVG } from "/static/tiles.js";

/** @typedef {import("/static/messages.js").Layout} Layout */
/** @typedef {import("/static/messages.js").MoveEvent} MoveEvent */
/** @typedef {{x0: number, y0: number, x1: number, y1: number}} Box */
/** @typedef {{cx: number, cy: number, angle: number}} End  where an arm's next tile goes */
/**
 * @typedef {object} Laid  a tile where the layout puts it (board units; a tile is 2 x 1)
 * @property {string} tile
 * @property {number} a  the pips on its first half
 * @property {number} b
 * @property {number} cx
 * @property {number} cy
 * @property {number} angle  degrees
 * @property {boolean} double
 * @property {string | null} arm
 * @property {boolean} [root]  the first tile laid (or the spinner)
 * @property {string} [dir]  the way its arm runs there (E, S, W, N)
 */
/** @typedef {{tiles: Laid[], ends: Record<string, End>, box?: Box}} LaidOut */
/** @typedef {{tile: string | null, a: number, b: number, arm?: string | null}} Placed */
/** @typedef {{arm: string, move: string, label?: string}} EndChoice */

// ------------------------------------------------------------------------------------------
// The layout: where every tile of view.layout goes.
// ------------------------------------------------------------------------------------------

/** @type {Record<string, [number, number]>} */
const DIRS = { E: [1, 0], W: [-1, 0], N: [0, -1], S: [0, 1] };
/** @type {Record<string, number>} */
const ANGLE = { E: 0, S: 90, W: 180, N: 270 };
/** An arm of the layout in words ("left", "right", "up", "down"). */
export const ARM_WORDS = new Proxy(/** @type {Record<string, string>} */ ({}), { get: (_, a) => (typeof a === "string" && ["L", "R", "U", "D"].includes(a) ? tr(`arm.${a}`) : undefined) });
/** An arm's one-letter mark on the board (L, R, U, D in English). */
export const armLetter = (/** @type {string} */ a) => (["L", "R", "U", "D"].includes(a) ? tr(`arm.letter.${a}`) : a);

/** Board half-sizes (units) at which a line turns. */
export const BOARD = { halfW: 12.5, halfH: 7, viewH: 2.5 };

/**
 * Lay out view.layout.  Returns {tiles: [{tile, a, b, cx, cy, angle, double}],
 * ends: {arm: {cx, cy, angle}} (where the next tile on that arm would go), box}.
 *
 * Without a spinner the line is rooted at the first tile and each side snakes: it runs to the
 * edge of the board, turns with one tile and comes back on a new row (R downwards, L upwards).
 * With a spinner the layout is rooted at the spinner and the four arms turn once each,
 * clockwise, like a pinwheel, so they never cross.
 * @param {Layout | null | undefined} layout @param {{halfW: number, halfH: number, viewH: number}} [dims]
 * @returns {LaidOut}
 */
export function computeLayout(layout, dims = BOARD) {
  /** @type {LaidOut} */
  const out = { tiles: [], ends: {} };
  if (!layout || !layout.first) return out;
  const arms = layout.arms || {};
  const armL = arms.L || [], armR = arms.R || [];
  const at = layout.spinner_at;
  const pin = Array.isArray(at);
  // each placed tile keeps the arm it belongs to, even when drawn on the other side of the spinner
  /** @typedef {{tile: string, inner: number, outer: number}} OnArm */
  /** @type {(list: OnArm[], arm: string) => Placed[]} */
  const seq = (list, arm) => list.map((p) => ({ tile: p.tile, a: p.inner, b: p.outer, arm }));
  /** @type {(list: OnArm[], arm: string) => Placed[]} */
  const flip = (list, arm) => list.map((p) => ({ tile: p.tile, a: p.outer, b: p.inner, arm }));
  const [f1, f2] = parseTile(layout.first);
  const fl = layout.first_left ?? f1;
  const fr = fl === f1 ? f2 : f1;
  const firstPlaced = { tile: layout.first, a: fl, b: fr }; // a faces L

  /** @type {Placed} */
  let root;
  /** @type {Placed[]} */
  let left, right;
  if (!pin || at[0] === "C") {
    root = firstPlaced;
    left = seq(armL, "L");
    right = seq(armR, "R");
  } else if (at[0] === "L") {
    const i = /** @type {number} */ (at[1]);
    root = seq([armL[i]], "L")[0];
    left = seq(armL.slice(i + 1), "L");
    // towards the right from the spinner: L[i-1] .. L[0] reversed, then the first tile, then R
    const back = flip(armL.slice(0, i).reverse(), "L");
    right = [...back, { tile: firstPlaced.tile, a: fl, b: fr, arm: null }, ...seq(armR, "R")];
  } else {
    const i = /** @type {number} */ (at?.[1]);
    root = seq([armR[i]], "R")[0];
    right = seq(armR.slice(i + 1), "R");
    const back = flip(armR.slice(0, i).reverse(), "R");
    left = [...back, { tile: firstPlaced.tile, a: fr, b: fl, arm: null }, ...seq(armL, "L")];
  }
  const rootDouble = root.a === root.b;
  // the root: a double stands across the line, any other tile lies along it (a on the left)
  out.tiles.push({ tile: /** @type {string} */ (root.tile), a: root.a, b: root.b, cx: 0, cy: 0, arm: root.arm ?? null,
                   angle: rootDouble ? 90 : 0, double: rootDouble, root: true });
  const hx = rootDouble ? 0.5 : 1, hy = rootDouble ? 1 : 0.5;
  const mode = pin ? "pinwheel" : "snake";
  walk(out, "L", left, [-hx, 0], "W", hy, mode, dims);
  walk(out, "R", right, [hx, 0], "E", hy, mode, dims);
  if (pin) {
    walk(out, "U", seq(arms.U || [], "U"), [0, -hy], "N", hx, mode, dims);
    walk(out, "D", seq(arms.D || [], "D"), [0, hy], "S", hx, mode, dims);
  }
  out.box = bbox(out.tiles);
  return out;
}

// The turns of each arm.  snake: after the edge, one tile outwards, then back the other way.
/** @type {Record<string, string>} */
const SNAKE_OUT = { L: "N", R: "S" };
/** @type {Record<string, string>} */
const PIN_TURN = { W: "N", E: "S", N: "E", S: "W" };
/** @type {Record<string, string>} */
const OPPOSITE = { E: "W", W: "E", N: "S", S: "N" };

/** @typedef {{halfW: number, halfH: number, viewH?: number}} Dims */
/** @typedef {{P: number[], d: string, hw: number, connector: boolean, turned: number, row: string}} Walker */

/** Lay the tiles of one arm from `start` going `dir`, turning where the board ends.
 * @param {LaidOut} out @param {string} arm @param {Placed[]} list @param {number[]} start
 * @param {string} dir @param {number} across @param {string} mode @param {Dims} dims */
function walk(out, arm, list, start, dir, across, mode, dims) {
  // the walker's state: head point, direction, half across-width of the last tile, whether in
  // the one-tile connector of a snake turn, whether a pinwheel arm has turned, the row's way
  /** @type {Walker} */
  let st = { P: [start[0], start[1]], d: dir, hw: across, connector: false, turned: 0, row: dir };
  /** @type {(s: Walker, nd: string) => void} */
  const move = (s, nd) => {
    s.P = [s.P[0] - DIRS[s.d][0] * 0.5 + DIRS[nd][0] * s.hw,
           s.P[1] - DIRS[s.d][1] * 0.5 + DIRS[nd][1] * s.hw];
    s.d = nd;
    s.hw = 0.5;
  };
  /** @type {(s: Walker, t: Placed) => Laid} */
  const step = (s, t) => {
    const dbl = t.a === t.b;
    let len = dbl ? 1 : 2;
    if (s.connector) {
      move(s, OPPOSITE[s.row]);  // leave the connector: back along a new row
      s.connector = false;
      s.row = s.d;
    } else if (needsTurn(s.P, s.d, len, mode, s.turned, arm, dims)) {
      move(s, mode === "snake" ? SNAKE_OUT[arm] : PIN_TURN[s.d]);
      if (mode === "snake") { s.connector = true; len = 2; } else s.turned += 1;
    }
    const cross = dbl && len === 1;
    const c = [s.P[0] + DIRS[s.d][0] * len / 2, s.P[1] + DIRS[s.d][1] * len / 2];
    const placed = { tile: /** @type {string} */ (t.tile), a: t.a, b: t.b, cx: c[0], cy: c[1],
                     angle: ANGLE[s.d] + (cross ? 90 : 0), double: dbl,
                     arm: t.arm === undefined ? arm : t.arm, dir: s.d };
    s.P = [s.P[0] + DIRS[s.d][0] * len, s.P[1] + DIRS[s.d][1] * len];
    s.hw = cross ? 1 : 0.5;
    return placed;
  };
  for (const t of list) out.tiles.push(step(st, t));
  // where a next (non-double) tile would go: the end marker
  const g = step({ ...st, P: [...st.P] }, { tile: null, a: 0, b: 1 });
  out.ends[arm] = { cx: g.cx, cy: g.cy, angle: g.angle };
}

/** @param {number[]} P @param {string} d @param {number} len @param {string} mode
 * @param {number} turned @param {string} arm @param {Dims} dims */
function needsTurn(P, d, len, mode, turned, arm, dims) {
  const { halfW, halfH } = dims;
  if (mode === "pinwheel") {
    // U and D turn once; L and R turn a second time, beyond the rows U and D turned into
    if (turned >= (arm === "L" || arm === "R" ? 2 : 1)) return false;
    if (turned === 1) {
      const lim = halfH + 2.5;
      return d === "N" ? P[1] - len < -lim : P[1] + len > lim;
    }
  }
  if (d === "E") return P[0] + len > halfW;
  if (d === "W") return P[0] - len < -halfW;
  if (mode === "snake") return false; // vertical legs of a snake are connectors
  if (d === "N") return P[1] - len < -halfH;
  return P[1] + len > halfH;
}

/** @param {Laid[]} tiles @returns {Box} */
function bbox(tiles) {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const t of tiles) {
    const vert = Math.round(((t.angle % 180) + 180) % 180) === 90;
    const hx = vert ? 0.5 : 1, hy = vert ? 1 : 0.5;
    x0 = Math.min(x0, t.cx - hx); x1 = Math.max(x1, t.cx + hx);
    y0 = Math.min(y0, t.cy - hy); y1 = Math.max(y1, t.cy + hy);
  }
  return { x0, y0, x1, y1 };
}

/** The last tile played in this hand (from view.history), or null. */
/** @param {MoveEvent[] | null | undefined} history */
export function lastPlayed(history) {
  const h = history || [];
  for (let i = h.length - 1; i >= 0; i--) {
    if (h[i].action === "play" && h[i].tile) return h[i].tile;
  }
  return null;
}

/** The box of a layout with the end markers of `choices`, in board units. */
/** @param {LaidOut} lay @param {EndChoice[]} choices @returns {Box} */
function boxWith(lay, choices) {
  let { x0, y0, x1, y1 } = lay.box || { x0: -1, y0: -0.5, x1: 1, y1: 0.5 };
  for (const c of choices) {
    const e = lay.ends[c.arm];
    if (e) { x0 = Math.min(x0, e.cx - 1.2); x1 = Math.max(x1, e.cx + 1.2);
             y0 = Math.min(y0, e.cy - 1.2); y1 = Math.max(y1, e.cy + 1.2); }
  }
  return { x0: x0 - 0.5, y0: y0 - 0.5, x1: x1 + 0.5, y1: y1 + 0.5 };
}

/** @param {Laid} t */
function rectOf(t) {
  const v = Math.round(((t.angle % 180) + 180) % 180) === 90;
  return v ? [t.cx - 0.5, t.cy - 1, t.cx + 0.5, t.cy + 1] : [t.cx - 1, t.cy - 0.5, t.cx + 1, t.cy + 0.5];
}

/** Whether two tiles of a layout lie on each other. */
/** @param {Laid[]} tiles */
export function overlaps(tiles) {
  const rs = tiles.map(rectOf);
  for (let i = 0; i < rs.length; i++) {
    for (let j = i + 1; j < rs.length; j++) {
      const a = rs[i], b = rs[j];
      if (Math.min(a[2], b[2]) - Math.max(a[0], b[0]) > 1e-6 && Math.min(a[3], b[3]) - Math.max(a[1], b[1]) > 1e-6) return true;
    }
  }
  return false;
}

/** The largest tiles that fit a box of w x h pixels: the line turns where this box's shape
 * wants it to (narrow and tall on a phone held upright, wide on a laptop).  Returns the
 * layout, its viewBox and the pixels per board unit (a tile is 2 x 1 units).
 * @param {Layout | null | undefined} layout @param {EndChoice[]} choices @param {number} w @param {number} h */
export function fitLayout(layout, choices, w, h, maxUnit = 42) {
  if (!w || !h) {  // not on screen: the default turning points
    const lay = computeLayout(layout);
    const b = boxWith(lay, choices);
    const x0 = Math.min(b.x0, -BOARD.halfW - 0.6), x1 = Math.max(b.x1, BOARD.halfW + 0.6);
    const y0 = Math.min(b.y0, -BOARD.viewH - 0.6), y1 = Math.max(b.y1, BOARD.viewH + 0.6);
    return { lay, unit: 0, viewBox: `${r(x0)} ${r(y0)} ${r(x1 - x0)} ${r(y1 - y0)}` };
  }
  /** @type {{lay: LaidOut, b: Box, unit: number} | null} */
  let best = null;
  const pin = Array.isArray(layout?.spinner_at);
  // widest first: at equal tile size the straighter line wins
  const widths = [18.5, 15.5, 12.5, 10.5, 8.5, 7.5, 6.5, 5.5, 4.5, 3.5, 2.5];
  const heights = pin ? [11, 9, 7.5, 6.5, 5.5, 4.5, 3.5, 2.5] : [BOARD.halfH];
  for (const halfW of widths) {
    for (const halfH of heights) {
      const lay = computeLayout(layout, { halfW, halfH, viewH: BOARD.viewH });
      if (overlaps(lay.tiles)) continue;  // a line that would run over another arm
      const b = boxWith(lay, choices);
      const unit = Math.min(w / (b.x1 - b.x0), h / (b.y1 - b.y0), maxUnit);
      // a bigger tile wins; at equal size, the straighter line (fewer turns)
      if (!best || unit > best.unit + 0.05) best = { lay, b, unit };
    }
  }
  if (!best) {
    const lay = computeLayout(layout);
    const b = boxWith(lay, choices);
    best = { lay, b, unit: Math.min(w / (b.x1 - b.x0), h / (b.y1 - b.y0), maxUnit) };
  }
  const { lay, b, unit } = best;
  const cx = (b.x0 + b.x1) / 2, cy = (b.y0 + b.y1) / 2;
  const vw = w / unit, vh = h / unit;
  return { lay, unit, viewBox: `${r(cx - vw / 2)} ${r(cy - vh / 2)} ${r(vw)} ${r(vh)}` };
}

/** @type {WeakMap<Element, Record<string, {cx: number, cy: number}>>} */
const boardEnds = new WeakMap();
/** Where each arm's next tile goes on a drawn board (board units; a dropped tile picks the nearest). */
export const endsOf = (/** @type {Element} */ board) => boardEnds.get(board);

/**
 * Draw view.layout into the <svg> `board` (cleared first).  opts.last: tile name to mark;
 * opts.choices: [{arm, move, label}] end markers to draw; opts.onChoose(move).
 * @param {SVGSVGElement} board @param {Layout | null | undefined} layout
 * Trains and chicken feet are drawn as rows instead (rows.js), which also read opts.names (the
 * seats' names), opts.you (the reader's seat) and opts.playable (the arms they may play on now).
 * @param {{last?: string | null, choices?: EndChoice[], onChoose?: (move: string) => void, emptyText?: string,
 *          names?: string[], you?: number | null, playable?: string[]}} [opts]
 */
export function drawBoard(board, layout, opts = {}) {
  if (layout && isRows(layout)) {
    drawRows(board, layout, opts);
    boardEnds.delete(board);
    return { tiles: [], ends: {} };
  }
  dropRows(board);
  while (board.firstChild) board.removeChild(board.firstChild);
  const fit = fitLayout(layout, opts.choices || [], board.clientWidth, board.clientHeight);
  const lay = fit.lay;
  board.setAttribute("viewBox", fit.viewBox);
  board.dataset.unit = String(Math.round(fit.unit * 10) / 10);
  board.setAttribute("preserveAspectRatio", "xMidYMid meet");
  if (!layout || !layout.first) {
    const t = svg("text", { x: 0, y: 0, class: "board-empty", "text-anchor": "middle" }, board);
    t.textContent = opts.emptyText || tr("board.empty");
  }
  const tilesLayer = svg("g", { class: "layer-tiles" }, board);
  for (const t of lay.tiles) {
    const classes = [];
    if (t.tile === opts.last) classes.push("last");
    if (t.root && Array.isArray(layout?.spinner_at)) classes.push("spinner");
    const g = tileGroup(t.a, t.b, t.cx, t.cy, t.angle, { classes });
    g.setAttribute("data-tile", t.tile);
    if (t.arm) g.setAttribute("data-arm", t.arm);
    const words = [tileWords(t.tile), t.arm ? tr("board.tile_arm", { arm: ARM_WORDS[t.arm] }) : null,
      classes.includes("spinner") ? tr("board.spinner") : null, t.tile === opts.last ? tr("board.last_played") : null]
      .filter(Boolean).join(", ");
    g.setAttribute("role", "img");
    g.setAttribute("aria-label", words);
    svg("title", {}, g).textContent = words;
    tilesLayer.appendChild(g);
  }
  if (Array.isArray(layout?.spinner_at)) {
    // the spinner's four arms, labelled where they start
    const arms = svg("g", { class: "spinner-arms", "aria-hidden": "true" }, board);
    const sp = /** @type {Laid} */ (lay.tiles.find((t) => t.root));
    for (const [arm, dx, dy] of /** @type {[string, number, number][]} */ ([["L", -1, 0], ["R", 1, 0], ["U", 0, -1], ["D", 0, 1]])) {
      const n = (layout.arms?.[arm] || []).length;
      const lbl = svg("text", { x: r(sp.cx + dx * 0.9 + (dy ? 0.75 : 0)),
                                y: r(sp.cy + dy * 1.25 + (dx ? -0.75 : 0) + 0.12),
                                class: "arm-label", "text-anchor": "middle",
                                "data-spinner-arm": arm }, arms);
      lbl.textContent = armLetter(arm);
      const t = svg("title", {}, lbl);
      t.textContent = tr("board.spinner_arm", { arm: ARM_WORDS[arm], n });
    }
  }
  /** @type {Record<string, number>} */
  const ends = layout?.ends || {};
  const marks = svg("g", { class: "layer-ends" }, board);
  for (const c of opts.choices || []) {
    const e = lay.ends[c.arm];
    if (!e) continue;
    const g = svg("g", { transform: `translate(${r(e.cx)} ${r(e.cy)})`, class: "end-choice",
                         tabindex: 0, role: "button", "data-arm": c.arm,
                         "aria-label": c.label || tr("board.play_on_end", { arm: ARM_WORDS[c.arm] }) }, marks);
    const vert = Math.round(((e.angle % 180) + 180) % 180) === 90;
    svg("rect", vert ? { x: -0.5, y: -1, width: 1, height: 2, rx: 0.15 }
                     : { x: -1, y: -0.5, width: 2, height: 1, rx: 0.15 }, g);
    // the marker's words beside the button, not in it: the button's name is its label
    const txt = svg("text", { x: r(e.cx), y: r(e.cy + 0.2), "text-anchor": "middle", class: "end-text",
                              "aria-hidden": "true" }, marks);
    txt.textContent = `${armLetter(c.arm)}${ends[c.arm] !== undefined ? " " + ends[c.arm] : ""}`;
    const act = (/** @type {Event} */ ev) => { ev.preventDefault(); opts.onChoose && opts.onChoose(c.move); };
    g.addEventListener("click", act);
    g.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") act(ev); });
  }
  boardEnds.set(board, lay.ends);
  return lay;
}
