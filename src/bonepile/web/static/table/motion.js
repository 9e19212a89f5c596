// Tiles that move: a tile played flies from the player (your hand, or the seat of whoever
// played it) to its place on the board; a tile drawn comes from the boneyard to the hand (a
// bot's as a tile back).  Every flight is a Web Animations API animation started again on
// each redraw from where it was (the page draws its views anew on every state), so a redraw
// in mid-flight does not restart or break it.  prefers-reduced-motion: nothing moves.
import { SVG_NS } from "/static/render.js";

/** How long a flight lasts (ms). */
export const DURATION = 340;
const EASE = "cubic-bezier(.2, .75, .3, 1)";
const reduce = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
/** True when the person asked for no motion. */
export const still = () => !!reduce?.matches;

/** @typedef {{x: number, y: number}} Point */
/** @typedef {{kind: "board" | "row" | "hand" | "back", tile?: string, sel: string, from: Point, born: number}} Flight */

/** @type {Flight[]} */
let flights = [];
/** tile -> centre of its button on screen after the last redraw @type {Map<string | undefined, Point>} */
let handAt = new Map();
/** where the last dragged tile was let go: it flies from there @type {(Point & {at: number}) | null} */
let drop = null;

addEventListener("pointerup", (ev) => {
  if (document.querySelector(".drag-ghost")) drop = { x: ev.clientX, y: ev.clientY, at: Date.now() };
}, { capture: true });

const centre = (/** @type {DOMRect} */ r) => ({ x: r.left + r.width / 2, y: r.top + r.height / 2 });
const q = (/** @type {unknown} */ s) => CSS.escape(String(s));

/** @param {number} seat */
function seatPoint(seat) {
  const box = document.querySelector(`.seat-box[data-seat="${q(seat)}"]`);
  const backs = box?.querySelector("[data-backs]");
  const r = (backs && backs.getBoundingClientRect().width ? backs : box)?.getBoundingClientRect();
  return r && r.width ? centre(r) : null;
}

function boneyardPoint() {
  const info = document.querySelector('#board-info [data-info="boneyard"]');
  const r = (info || document.querySelector(".board-wrap"))?.getBoundingClientRect();
  return r && r.width ? centre(r) : null;
}

/**
 * New moves seen in the latest state (`fresh`, in order), and what the state before it showed
 * (`prev`: your hand and every seat's tile count): start their flights.  Call after the views
 * were drawn, once per state or redraw.
 * @param {import("/static/messages.js").StateMessage} st @param {import("/static/messages.js").MoveEvent[]} fresh
 * @param {{hand?: string[], counts?: number[]}} prev
 */
export function animate(st, fresh, prev) {
  const now = performance.now();
  if (still()) flights = [];
  else if (fresh.length) launch(st, fresh, prev, now);
  // where your tiles are now (the next move's flight starts there)
  handAt = new Map([.../** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("#hand button[data-tile], #flip button[data-tile]"))]
    .map((b) => [b.dataset.tile, centre(b.getBoundingClientRect())]));
  flights = flights.filter((f) => now - f.born < DURATION);
  fly(now);
}

/** @param {import("/static/messages.js").StateMessage} st @param {import("/static/messages.js").MoveEvent[]} fresh
 * @param {{hand?: string[], counts?: number[]}} prev @param {number} now */
function launch(st, fresh, prev, now) {
  const you = st.you;
  const view = st.view;
  for (const h of fresh) {
    if (h.action !== "play" || !h.tile) continue;
    let from = null;
    if (h.seat === you) {
      from = drop && Date.now() - drop.at < 4000 ? drop : handAt.get(h.tile);
      drop = null;
    }
    from = from || seatPoint(h.seat);
    // trains and chicken feet are rows of HTML (rows.js): the tile flies to its place in its row
    if (from && document.querySelector(".rows-board")) flights.push({ kind: "row", tile: h.tile, sel: `.rows-board .rows-tile[data-tile="${q(h.tile)}"]`, from, born: now });
    else if (from) flights.push({ kind: "board", tile: h.tile, sel: `#board g.tile[data-tile="${q(h.tile)}"]`, from, born: now });
  }
  if (!fresh.some((h) => h.action === "draw")) return;
  const yard = boneyardPoint();
  if (!yard) return;
  // your new tiles come from the boneyard
  const had = new Set(prev.hand || []);
  for (const tile of view?.hand || []) {
    if (!had.has(tile)) flights.push({ kind: "hand", tile, sel: `#hand button[data-tile="${q(tile)}"]`, from: yard, born: now });
  }
  // the others' new tiles too, face down
  (view?.tile_counts || []).forEach((n, s) => {
    const was = prev.counts?.[s];
    if (s === you || was === undefined || n <= was) return;
    for (let i = was + 1; i <= n; i++) {
      flights.push({ kind: "back", sel: `[data-backs="${q(s)}"] > :nth-child(${i})`, from: yard, born: now });
    }
  });
}

/** The layer over the board where tiles fly (outside #board: the board holds only laid tiles). */
/** @param {Element} board */
function layer(board) {
  let sky = /** @type {SVGSVGElement | null} */ (document.querySelector("#board-sky"));
  if (!sky) {
    sky = document.createElementNS(SVG_NS, "svg");
    sky.id = "board-sky";
    sky.setAttribute("aria-hidden", "true");
    sky.setAttribute("class", "board-sky");
    document.body.appendChild(sky);
  }
  while (sky.firstChild) sky.removeChild(sky.firstChild);
  const r = board.getBoundingClientRect();
  Object.assign(sky.style, { left: `${r.left}px`, top: `${r.top}px`, width: `${r.width}px`, height: `${r.height}px` });
  sky.setAttribute("viewBox", board.getAttribute("viewBox") || "0 0 1 1");
  sky.setAttribute("preserveAspectRatio", board.getAttribute("preserveAspectRatio") || "xMidYMid meet");
  return sky;
}

/** @param {number} now */
function fly(now) {
  const board = /** @type {SVGSVGElement | null} */ (document.querySelector("svg#board"));
  const live = flights.filter((f) => f.kind === "board");
  const sky = board && (live.length || document.getElementById("board-sky")) ? layer(board) : null;
  for (const f of flights) {
    const age = now - f.born;
    const target = document.querySelector(f.sel);
    if (!target) continue;
    if (f.kind === "board") { if (board) flyToBoard(f, /** @type {SVGGraphicsElement} */ (target), board, sky, age); }
    else flyOnScreen(f, target, age);
  }
}

/** @param {Element} elem @param {Keyframe[]} frames @param {number} age @param {KeyframeAnimationOptions} [opts] */
function start(elem, frames, age, opts = {}) {
  const a = elem.animate(frames, { duration: DURATION, easing: EASE, ...opts });
  a.currentTime = Math.min(age, DURATION);
  return a;
}

/** A laid tile: hidden in place while its copy flies over the board from where it was.
 * @param {Flight} f @param {SVGGraphicsElement} tile @param {SVGSVGElement} board @param {SVGSVGElement | null} sky
 * @param {number} age */
function flyToBoard(f, tile, board, sky, age) {
  const ctm = board.getScreenCTM?.();
  const m = tile.transform?.baseVal?.consolidate?.()?.matrix;
  if (!ctm || !m || !sky) return;
  const p = new DOMPoint(f.from.x, f.from.y).matrixTransform(ctm.inverse());
  const dx = p.x - m.e, dy = p.y - m.f;
  const copy = /** @type {Element} */ (tile.cloneNode(true));
  for (const a of ["role", "aria-label", "data-tile", "data-arm"]) copy.removeAttribute(a);
  copy.querySelector("title")?.remove();
  const wing = document.createElementNS(SVG_NS, "g");
  wing.setAttribute("class", "flying");
  wing.dataset.flying = f.tile ?? "";
  wing.style.transformOrigin = `${m.e}px ${m.f}px`;
  wing.appendChild(copy);
  sky.appendChild(wing);
  const a = start(wing, [
    { transform: `translate(${dx}px, ${dy}px) scale(1.35) rotate(-12deg)` },
    { transform: "translate(0px, 0px) scale(1) rotate(0deg)" },
  ], age, { fill: "both" });
  a.onfinish = () => wing.remove();
  start(tile, [{ opacity: 0 }, { opacity: 0, offset: 0.97 }, { opacity: 1 }], age);
}

/** A tile of a hand (an HTML element): from a point on the screen to its place.
 * @param {Flight} f @param {Element} elem @param {number} age */
function flyOnScreen(f, elem, age) {
  const p = centre(elem.getBoundingClientRect());
  const dx = f.from.x - p.x, dy = f.from.y - p.y;
  if (Math.hypot(dx, dy) < 1) return;
  start(elem, [{ transform: `translate(${dx}px, ${dy}px) scale(0.6)` }, { transform: "translate(0px, 0px) scale(1)" }], age);
}

/** Flights in the air (for the tests and for anyone waiting for the board to settle). */
export function inFlight() { return flights.filter((f) => performance.now() - f.born < DURATION).length; }
