// Zooming into the board: the board fits its box by default; for a long line or four busy
// arms a person zooms in with the + and − buttons (or the + − 0 keys, the arrow keys to move
// about while zoomed), pinches and drags with two fingers or one on a touch screen, or holds
// Ctrl over the wheel.  "Fit" shows the whole board again, and so does every new hand.
import { el } from "/static/common.js";
import { t } from "/static/i18n.js";

const MAX = 4;
const STEP = 1.5;
/** The zoom factor, the view's centre off the fit's (units), the hand it is for.
 * @type {{k: number, x: number, y: number, hand: number | null}} */
const Z = { k: 1, x: 0, y: 0, hand: null };
/** @type {SVGSVGElement | null} */
let board = null;
/** @type {{out?: HTMLElement, fit?: HTMLElement, in?: HTMLElement}} */
let buttons = {};

const fitBox = () => (board?.dataset.fit || "").split(" ").map(Number);

/** Set the board's viewBox from the fitted one (drawBoard's) and the zoom. */
function show() {
  const [x, y, w, h] = fitBox();
  if (!board || !(w > 0 && h > 0)) return;
  Z.k = Math.min(MAX, Math.max(1, Z.k));
  if (Z.k === 1) { Z.x = 0; Z.y = 0; }
  // the view never leaves the board: its centre stays inside the fitted box
  const mx = (w / 2) * (1 - 1 / Z.k), my = (h / 2) * (1 - 1 / Z.k);
  Z.x = Math.max(-mx, Math.min(mx, Z.x));
  Z.y = Math.max(-my, Math.min(my, Z.y));
  const vw = w / Z.k, vh = h / Z.k;
  const cx = x + w / 2 + Z.x, cy = y + h / 2 + Z.y;
  const r = (/** @type {number} */ v) => Math.round(v * 1000) / 1000;
  board.setAttribute("viewBox", `${r(cx - vw / 2)} ${r(cy - vh / 2)} ${r(vw)} ${r(vh)}`);
  board.dataset.zoom = String(r(Z.k));
  const unit = Number(board.dataset.fitUnit || 0) * Z.k;
  board.dataset.unit = String(Math.round(unit * 10) / 10);
  board.closest(".board-wrap")?.classList.toggle("zoomed", Z.k > 1);
  buttons.out?.setAttribute("aria-disabled", Z.k <= 1 ? "true" : "false");
  buttons.fit?.setAttribute("aria-disabled", Z.k <= 1 ? "true" : "false");
  buttons.in?.setAttribute("aria-disabled", Z.k >= MAX ? "true" : "false");
}

/** After drawBoard: remember its fitted view and apply the zoom (a new hand shows it all).
 * @param {SVGSVGElement} svgBoard @param {number | null} hand */
export function applyZoom(svgBoard, hand) {
  board = svgBoard;
  board.dataset.fit = board.getAttribute("viewBox") || "";
  board.dataset.fitUnit = board.dataset.unit || "0";
  if (hand !== Z.hand) { Z.hand = hand; Z.k = 1; }
  show();
}

/** Zoom by `f` keeping the board point under the screen point (sx, sy) where it is.
 * @param {number} f @param {number} [sx] @param {number} [sy] */
function zoomBy(f, sx, sy) {
  if (!board) return;
  const before = toBoard(sx, sy);
  Z.k *= f;
  show();
  const after = toBoard(sx, sy);
  if (before && after) { Z.x += before.x - after.x; Z.y += before.y - after.y; show(); }
}

/** @param {number} [sx] @param {number} [sy] */
function toBoard(sx, sy) {
  const m = board?.getScreenCTM?.();
  if (!m || sx === undefined || sy === undefined) return null;
  return new DOMPoint(sx, sy).matrixTransform(m.inverse());
}

/** @param {number} dxPx @param {number} dyPx */
function panBy(dxPx, dyPx) {
  const m = board?.getScreenCTM?.();
  if (!m || !m.a) return;
  Z.x -= dxPx / m.a;
  Z.y -= dyPx / m.d;
  show();
}

const reset = () => { Z.k = 1; show(); };

/** Pinch with two fingers, drag with one (when zoomed in); a drag is not a tap on an end.
 * @param {HTMLElement} wrap */
function bindPointers(wrap) {
  /** @type {Map<number, {x: number, y: number}>} */
  const down = new Map();
  /** @type {{d: number, k: number} | null} */
  let pinch = null;
  /** @type {{x: number, y: number, on: boolean} | null} */
  let pan = null;
  let moved = false;
  wrap.addEventListener("pointerdown", (ev) => {
    moved = false;
    if (/** @type {Element} */ (ev.target).closest(".zoom")) return;
    down.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
    if (down.size === 2) {
      const [a, b] = [...down.values()];
      pinch = { d: Math.hypot(a.x - b.x, a.y - b.y) || 1, k: Z.k };
      pan = null;
    } else if (down.size === 1) pan = { x: ev.clientX, y: ev.clientY, on: false };
  });
  wrap.addEventListener("pointermove", (ev) => {
    const p = down.get(ev.pointerId);
    if (!p) return;
    p.x = ev.clientX; p.y = ev.clientY;
    if (pinch && down.size >= 2) {
      const [a, b] = [...down.values()];
      const d = Math.hypot(a.x - b.x, a.y - b.y) || 1;
      const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
      zoomBy((pinch.k * d / pinch.d) / Z.k, mid.x, mid.y);
      moved = true;
    } else if (pan && Z.k > 1) {
      if (!pan.on && Math.hypot(ev.clientX - pan.x, ev.clientY - pan.y) > 8) {
        pan.on = true;
        wrap.setPointerCapture?.(ev.pointerId);
      }
      if (pan.on) { panBy(ev.clientX - pan.x, ev.clientY - pan.y); pan.x = ev.clientX; pan.y = ev.clientY; moved = true; }
    }
  });
  const up = (/** @type {PointerEvent} */ ev) => {
    down.delete(ev.pointerId);
    if (down.size < 2) pinch = null;
    if (!down.size) pan = null;
  };
  for (const kind of /** @type {const} */ (["pointerup", "pointercancel", "lostpointercapture"])) wrap.addEventListener(kind, up);
  // the click after a pinch or a drag does not choose an end
  wrap.addEventListener("click", (ev) => { if (moved && !/** @type {Element} */ (ev.target).closest(".zoom")) { ev.stopPropagation(); ev.preventDefault(); moved = false; } }, true);
  wrap.addEventListener("wheel", (ev) => {
    if (!ev.ctrlKey) return;  // a trackpad's pinch, or Ctrl and the wheel
    ev.preventDefault();
    zoomBy(Math.exp(-ev.deltaY / 200), ev.clientX, ev.clientY);
  }, { passive: false });
}

/** Where the buttons and keys zoom: about the last tile played while it is in view (the
 * place of the action stays under the eye), else about the middle of the board. */
/** @returns {[number, number] | []} */
function anchor() {
  const r = board?.getBoundingClientRect();
  if (!board || !r) return [];
  const last = board.querySelector("g.tile.last")?.getBoundingClientRect();
  if (last && last.width) {
    const x = last.left + last.width / 2, y = last.top + last.height / 2;
    if (x >= r.left && x <= r.right && y >= r.top && y <= r.bottom) return [x, y];
  }
  return [r.left + r.width / 2, r.top + r.height / 2];
}

/** @param {KeyboardEvent} ev */
function onKey(ev) {
  const tgt = /** @type {HTMLElement | null} */ (ev.target);
  if (tgt && (tgt.tagName === "INPUT" || tgt.tagName === "SELECT" || tgt.tagName === "TEXTAREA")) return;
  if (ev.ctrlKey || ev.metaKey || ev.altKey || !board) return;
  const [cx, cy] = anchor();
  if (ev.key === "+" || ev.key === "=") { ev.preventDefault(); zoomBy(STEP, cx, cy); }
  else if (ev.key === "-" || ev.key === "_") { ev.preventDefault(); zoomBy(1 / STEP, cx, cy); }
  else if (ev.key === "0") { ev.preventDefault(); reset(); }
  else if (Z.k > 1 && ev.key.startsWith("Arrow") && tgt?.closest?.(".zoom, .board-wrap")) {
    const step = 40;
    /** @type {Record<string, number[]>} */
    const ways = { ArrowLeft: [step, 0], ArrowRight: [-step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
    const d = ways[ev.key];
    ev.preventDefault();
    panBy(d[0], d[1]);
  }
}

/** The zoom buttons under the board, the pointer gestures and the keys (once). */
/** @param {HTMLElement} wrap */
export function mountZoom(wrap) {
  /** @type {(id: string, text: string, key: string, shortcut: string, act: () => void) => HTMLElement} */
  const mk = (id, text, key, shortcut, act) => {
    const b = el("button", { type: "button", class: "icon-btn", id, "data-zoom": key,
      "aria-label": t(`feel.zoom_${key}`), title: `${t(`feel.zoom_${key}`)} (${shortcut})`,
      "aria-keyshortcuts": shortcut }, el("span", { "aria-hidden": "true" }, text));
    b.addEventListener("click", () => { if (b.getAttribute("aria-disabled") !== "true") act(); });
    return b;
  };
  const fit = mk("zoom-fit", "", "fit", "0", reset);
  buttons = {
    out: mk("zoom-out", "−", "out", "-", () => zoomBy(1 / STEP, ...anchor())),
    fit,
    in: mk("zoom-in", "+", "in", "+", () => zoomBy(STEP, ...anchor())),
  };
  /** @type {ChildNode} */ (fit.firstChild).replaceWith(fitIcon());
  // beside the board's line of facts, under the board: over its corner they hid tiles and
  // the end markers a player taps
  const group = el("div", { class: "zoom", role: "group", "aria-label": t("feel.zoom") },
    buttons.out, buttons.fit, buttons.in);
  const info = wrap.parentElement?.querySelector(".board-info");
  if (info) info.after(group);
  else wrap.appendChild(group);
  bindPointers(wrap);
  document.addEventListener("keydown", onKey);
  show();
}

/** Four corners pointing out: the whole board. */
function fitIcon() {
  const ns = "http://www.w3.org/2000/svg";
  const s = document.createElementNS(ns, "svg");
  s.setAttribute("viewBox", "0 0 24 24");
  s.setAttribute("aria-hidden", "true");
  s.setAttribute("class", "icon");
  const p = document.createElementNS(ns, "path");
  p.setAttribute("d", "M4 9V4h5M15 4h5v5M20 15v5h-5M9 20H4v-5");
  s.appendChild(p);
  return s;
}

/** The zoom now (1: the whole board fits). */
export const zoomLevel = () => Z.k;
