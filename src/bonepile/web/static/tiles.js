// One domino drawn in SVG: its pips (up to twelve), its face and back, a standalone tile
// (for hands and rows) and its name in words.  Everything is built with createElementNS and
// textContent: no markup strings, so nothing the server sends is ever parsed as HTML.
import { t as tr } from "/static/i18n.js";

export const SVG_NS = "http://www.w3.org/2000/svg";

/** A pip value in words ("blank", "one"...). */
const pipWords = (/** @type {number} */ n) => tr(`tile.pips.${n}`);

/** @param {string} tag @param {Record<string, unknown>} [attrs] @param {Element | null} [parent] */
export function svg(tag, attrs = {}, parent = null) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (parent) parent.appendChild(e);
  return e;
}

/** @param {string | null} name @returns {[number, number]} */
export function parseTile(name) {
  const [a, b] = String(name).split("-").map(Number);
  return [a, b];
}

/** "6-4" -> "six-four"; "5-5" -> "double five". */
/** @param {string | null} name */
export function tileWords(name) {
  const [a, b] = parseTile(name);
  if (a === b) return tr("tile.double", { a: pipWords(a) });
  return tr("tile.pair", { a: pipWords(a), b: pipWords(b) });
}

// Pip centres in a unit square (0..1) per value, x along the tile's length, y across it: so on
// a tile standing upright the six is two columns of three.  Up to 9 the pips sit on a 3 x 3
// grid (7 is the six and a centre, 8 the grid without its centre); 10 to 12 on three columns of
// four, as double-twelve sets draw them (10 = 4 + 2 + 4, 11 = 4 + 3 + 4, 12 = 4 + 4 + 4).
// Every pattern looks the same turned half a turn, as the pips of a real tile do.
const L = 0.25, M = 0.5, H = 0.75;
const X4 = [0.16, 0.387, 0.613, 0.84], X2 = [0.273, 0.727], Y3 = [0.22, 0.5, 0.78];
/** @param {number[]} xs @param {number} y */
const line = (xs, y) => xs.map((x) => [x, y]);
/** @type {number[][][]} */
const PIPS = [
  [],
  [[M, M]],
  [[L, L], [H, H]],
  [[L, L], [M, M], [H, H]],
  [[L, L], [H, L], [L, H], [H, H]],
  [[L, L], [H, L], [M, M], [L, H], [H, H]],
  [...line([L, M, H], L), ...line([L, M, H], H)],
  [...line([L, M, H], L), [M, M], ...line([L, M, H], H)],
  [...line([L, M, H], L), ...line([L, H], M), ...line([L, M, H], H)],
  [...line([L, M, H], L), ...line([L, M, H], M), ...line([L, M, H], H)],
  [...line(X4, Y3[0]), ...line(X2, Y3[1]), ...line(X4, Y3[2])],
  [...line(X4, Y3[0]), ...line([X2[0], M, X2[1]], Y3[1]), ...line(X4, Y3[2])],
  [...line(X4, Y3[0]), ...line(X4, Y3[1]), ...line(X4, Y3[2])],
];
/** The highest number of pips a half can show (a double-twelve set). */
export const MAX_PIPS = PIPS.length - 1;

/** Where the pips of a half showing `n` go (centres in a unit square, x along the tile) and
 * their radius in tile units (a half is 1 x 1): smaller pips for the crowded numbers.
 * @param {number} n @returns {{centres: number[][], radius: number}} */
export function pipLayout(n) {
  const centres = PIPS[n] || [];
  return { centres, radius: n >= 10 ? 0.068 : n >= 7 ? 0.076 : 0.085 };
}

/**
 * A tile as an SVG group centred on (cx, cy), in board units (a tile is 2 x 1).
 * angle 0: lengthwise along +x, pip `a` on the left half, `b` on the right; the group is
 * rotated by `angle` degrees about its centre.  opts.classes adds CSS classes.
 * @param {number} a @param {number} b @param {number} cx @param {number} cy @param {number} angle
 * @param {{classes?: string[]}} [opts]
 */
export function tileGroup(a, b, cx, cy, angle, opts = {}) {
  const g = svg("g", { transform: `translate(${r(cx)} ${r(cy)}) rotate(${angle})`,
                       class: ["tile", ...(opts.classes || [])].join(" ") });
  svg("rect", { x: -0.97, y: -0.47, width: 1.94, height: 0.94, rx: 0.12, class: "tile-face" }, g);
  svg("line", { x1: 0, y1: -0.36, x2: 0, y2: 0.36, class: "tile-bar" }, g);
  for (const [v, x0, side] of /** @type {[number, number, string][]} */ ([[a, -1, "a"], [b, 0, "b"]])) {
    // each half its own group, its number in data-pips; 7 and up in that number's colour
    const half = svg("g", { class: v > 6 ? `half pips-${v}` : "half", "data-half": side, "data-pips": v }, g);
    const { centres, radius } = pipLayout(v);
    for (const [px, py] of centres) {
      svg("circle", { cx: r(x0 + 0.04 + px * 0.92), cy: r(-0.5 + 0.04 + py * 0.92), r: radius,
                      class: "pip" }, half);
    }
  }
  return g;
}

/** The back of a tile (face down), same geometry as tileGroup.
 * @param {number} cx @param {number} cy @param {number} angle @param {{classes?: string[]}} [opts] */
export function tileBack(cx, cy, angle, opts = {}) {
  const g = svg("g", { transform: `translate(${r(cx)} ${r(cy)}) rotate(${angle})`,
                       class: ["tile", "tile-back", ...(opts.classes || [])].join(" ") });
  svg("rect", { x: -0.97, y: -0.47, width: 1.94, height: 0.94, rx: 0.12, class: "back-face" }, g);
  svg("line", { x1: 0, y1: -0.3, x2: 0, y2: 0.3, class: "back-bar" }, g);
  return g;
}

/** @param {number} x */
export function r(x) { return Math.round(x * 1000) / 1000; }

/** A standalone small SVG of one tile (for hands, rows, the flip).
 * @param {string | null} name
 * @param {{vertical?: boolean, label?: string | null, classes?: string[], back?: boolean}} [opts] */
export function tileSVG(name, { vertical = true, label = null, classes = [], back = false } = {}) {
  const s = svg("svg", vertical ? { viewBox: "-0.55 -1.05 1.1 2.1", class: "tile-svg v" }
                                : { viewBox: "-1.05 -0.55 2.1 1.1", class: "tile-svg h" });
  if (label) { s.setAttribute("role", "img"); s.setAttribute("aria-label", label); }
  else s.setAttribute("aria-hidden", "true");
  if (back) s.appendChild(tileBack(0, 0, vertical ? 90 : 0, { classes }));
  else {
    const [a, b] = parseTile(name);
    s.appendChild(tileGroup(a, b, 0, 0, vertical ? 90 : 0, { classes }));
  }
  return s;
}

