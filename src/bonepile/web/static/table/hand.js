// Your tiles (buttons: the playable ones play), the tile turned up in blind games with the
// peek at your row's next tile when the server offers it, and the face-down rows.
import { $, el, clear } from "/static/common.js";
import { tileSVG, tileWords, endsOf } from "/static/render.js";
import { store } from "/static/table/state.js";
import { names } from "/static/table/words.js";
import { t } from "/static/i18n.js";

/** @type {(tile: string) => void} */
let clickTile = () => {};
/** @type {(tile: string, arm: string | null) => void} */
let dropTile = () => {};
/** @type {string | null} */
let dragging = null;  // the tiles of the hand while one of them is held (pressed or dragged)
let skipped = false;  // a redraw was held back meanwhile
/** What clicking a tile does, and dropping it on the board at an end (set once by table.js).
 * @param {(tile: string) => void} fn @param {((tile: string, arm: string | null) => void) | null} [drop] */
export function onTileClick(fn, drop = null) { clickTile = fn; if (drop) dropTile = drop; }

/** The end a tile dropped at (x, y) on the screen goes to: of the arms it fits, the nearest.
 * @param {(string | null)[]} arms @param {number} x @param {number} y */
function nearestArm(arms, x, y) {
  // trains and feet (rows.js): the row the tile is dropped on, if the tile fits it
  const row = document.elementsFromPoint(x, y).map((e) => e.closest(".rows-board [data-arm]")).find(Boolean);
  if (row instanceof HTMLElement && arms.includes(row.dataset.arm ?? null)) return row.dataset.arm ?? null;
  const board = /** @type {SVGSVGElement | null} */ (document.querySelector("svg#board"));
  const m = board?.getScreenCTM?.();
  const ends = board && endsOf(board);
  if (!m || !ends) return arms[0];
  const p = new DOMPoint(x, y).matrixTransform(m.inverse());
  let best = arms[0], dist = Infinity;
  for (const a of arms) {
    const e = a === null ? undefined : ends[a];
    const d = e ? (e.cx - p.x) ** 2 + (e.cy - p.y) ** 2 : Infinity;
    if (d < dist) { dist = d; best = a; }
  }
  return best;
}

/** Drag a playable tile onto the board: it goes to the end nearest where it is dropped.
 * @param {HTMLElement} b @param {string} name */
function draggable(b, name) {
  /** @type {{x: number, y: number} | null} */
  let start = null;
  /** @type {HTMLElement | null} */
  let ghost = null;
  const wrap = () => /** @type {HTMLElement} */ (document.querySelector(".board-wrap"));
  const over = (/** @type {PointerEvent} */ ev) => { const r = wrap().getBoundingClientRect();
    return ev.clientX >= r.left && ev.clientX <= r.right && ev.clientY >= r.top && ev.clientY <= r.bottom; };
  b.addEventListener("pointerdown", (ev) => {
    if (store.busy || !store.myTurn() || ev.button > 0) return;
    start = { x: ev.clientX, y: ev.clientY };
    dragging = (store.state?.view?.hand || []).join(" ");
    b.setPointerCapture?.(ev.pointerId);
  });
  b.addEventListener("pointermove", (ev) => {
    if (!start) return;
    if (!ghost && Math.hypot(ev.clientX - start.x, ev.clientY - start.y) > 10) {
      ghost = el("div", { class: "drag-ghost", "aria-hidden": "true" }, tileSVG(name));
      document.body.appendChild(ghost);
      b.classList.add("dragging");
    }
    if (ghost) {
      ghost.style.left = `${ev.clientX}px`;
      ghost.style.top = `${ev.clientY}px`;
      wrap().classList.toggle("drop-here", over(ev));
    }
  });
  const end = (/** @type {PointerEvent} */ ev, /** @type {boolean} */ cancel) => {
    if (!start) return;
    const dragged = !!ghost;
    start = null;
    dragging = null;
    if (skipped) { skipped = false; setTimeout(store.redraw, 0); }
    if (ghost) { ghost.remove(); ghost = null; b.classList.remove("dragging"); wrap().classList.remove("drop-here"); }
    if (!dragged) return;
    b.dataset.dragged = "1";  // the click that follows a drag is not a tap
    setTimeout(() => { delete b.dataset.dragged; }, 0);
    if (cancel || !over(ev)) return;
    const arms = store.legal().filter((m) => m.kind === "play" && m.tile === name).map((m) => m.arm);
    if (arms.length) dropTile(name, nearestArm(arms, ev.clientX, ev.clientY));
  };
  b.addEventListener("pointerup", (ev) => end(ev, false));
  b.addEventListener("pointercancel", (ev) => end(ev, true));
  b.addEventListener("lostpointercapture", (ev) => end(ev, true));
}

/** @param {string} name @param {boolean} playable */
function tileButton(name, playable, extra = "") {
  const label = `${tileWords(name)}${playable ? `, ${t("hand.playable")}` : ""}${extra}`;
  const b = el("button", { type: "button", class: `tile-btn${playable ? " playable" : ""}${store.selected === name ? " selected" : ""}`,
    "aria-label": label, "data-tile": name, "aria-disabled": playable && !store.busy ? "false" : "true",
    "aria-pressed": store.selected === name ? "true" : null });
  b.appendChild(tileSVG(name));
  b.addEventListener("click", () => { if (!store.busy && !b.dataset.dragged) clickTile(name); });
  if (playable) draggable(b, name);
  return b;
}

/** The width of one of your tiles (px): as big as the dock allows, never a tap target under
 * 44 px (a tile's button adds 8 px round it). */
/** @param {number} n */
function tileWidth(n) {
  const dock = $("hand-card");
  const w = (dock?.clientWidth || 360) - 24;
  const short = window.innerHeight < 520;
  const max = short ? 34 : 52;
  const fit = Math.floor(w / Math.max(n, 1)) - 12;
  return Math.max(36, Math.min(max, fit));
}

/** @param {import("/static/messages.js").View | null} view @param {number | null} you */
export function renderHand(view, you) {
  // a redraw in mid-drag (a call-out ending, the window turning) keeps the tile held
  if (dragging !== null && view && dragging === view.hand.join(" ")) { skipped = true; return; }
  const box = clear($("hand"));
  const flip = $("flip");
  clear(flip);
  flip.hidden = true;
  box.classList.toggle("blind", !!view?.blind);
  if (!view) return;
  if (you === null) {  // a spectator: no tiles of its own; the tile turned up is everybody's
    if (view.blind && view.turned_up) {
      flip.hidden = false;
      flip.appendChild(el("span", {}, t("spectate.turned_up", { name: names()[view.to_move ?? -1] ?? "" })));
      flip.appendChild(tileSVG(view.turned_up, { label: `${tileWords(view.turned_up)}, ${t("hand.turned_up_mark")}` }));
    }
    return;
  }
  box.style.setProperty("--tw", `${tileWidth(view.blind ? 1 : view.hand.length)}px`);
  const playable = new Set(store.myTurn() ? store.legal().filter((m) => m.kind === "play").map((m) => m.tile) : []);
  if (view.blind) {
    $("hand-title").textContent = t("hand.row_title");
    if (view.turned_up) {
      flip.hidden = false;
      const who = view.to_move === you ? t("hand.turned_up.you") : t("hand.turned_up", { name: names()[view.to_move ?? -1] ?? t("hand.player_to_move") });
      flip.appendChild(el("span", {}, who));
      if (view.to_move === you) flip.appendChild(tileButton(view.turned_up, playable.has(view.turned_up), `, ${t("hand.turned_up_mark")}`));
      else flip.appendChild(tileSVG(view.turned_up, { label: `${tileWords(view.turned_up)}, ${t("hand.turned_up_mark")}` }));
      if (view.peek && view.to_move === you) {
        // the server shows your row's next tile when the rules let you look at it first
        flip.appendChild(el("span", { class: "peek", "data-peek": view.peek },
          el("span", {}, t("hand.peek")),
          tileSVG(view.peek, { label: t("hand.peek_label", { tile: tileWords(view.peek) }) })));
      }
    }
    // your own row, face down (nobody may look, you neither), with its face-up tiles in place
    const count = view.tile_counts[you] || 0;
    const faceUp = new Map((view.face_up?.[you] || []).map(([pos, t]) => [pos, t]));
    const total = Math.max(count, ...[...faceUp.keys()].map((p) => p + 1), 0);
    const row = el("div", { class: "my-row", "data-row": you, role: "img",
      "aria-label": t("hand.row_label", { n: count }) });
    for (let i = 0; i < total; i++) {
      row.appendChild(faceUp.has(i) ? tileSVG(faceUp.get(i) ?? null) : tileSVG(null, { back: true }));
    }
    if (!view.hand.length) box.appendChild(row);
  } else {
    $("hand-title").textContent = t("hand.title");
  }
  for (const t of view.hand) box.appendChild(tileButton(t, playable.has(t)));
}
