// Your tiles (buttons: the playable ones play), the tile turned up in blind games with the
// peek at your row's next tile when the server offers it, and the face-down rows.
import { el, clear } from "/static/common.js";
import { tileSVG, tileWords } from "/static/render.js";
import { S, $, legal, myTurn, names } from "/static/table/state.js";

let clickTile = () => {};
/** What clicking a tile does (set once by table.js). */
export function onTileClick(fn) { clickTile = fn; }

function tileButton(name, playable, extra = "") {
  const label = `${tileWords(name)}${playable ? ", playable" : ""}${extra}`;
  const b = el("button", { type: "button", class: `tile-btn${playable ? " playable" : ""}${S.selected === name ? " selected" : ""}`,
    "aria-label": label, "data-tile": name, "aria-disabled": playable && !S.busy ? "false" : "true",
    "aria-pressed": S.selected === name ? "true" : null });
  b.appendChild(tileSVG(name));
  b.addEventListener("click", () => { if (!S.busy) clickTile(name); });
  return b;
}

/** The width of one of your tiles (px): as big as the dock allows, never a tap target under
 * 44 px (a tile's button adds 8 px round it). */
function tileWidth(n) {
  const dock = $("hand-card");
  const w = (dock?.clientWidth || 360) - 24;
  const short = window.innerHeight < 520;
  const max = short ? 34 : 52;
  const fit = Math.floor(w / Math.max(n, 1)) - 12;
  return Math.max(36, Math.min(max, fit));
}

export function renderHand(view, you) {
  const box = clear($("hand"));
  const flip = $("flip");
  clear(flip);
  flip.hidden = true;
  box.classList.toggle("blind", !!view?.blind);
  if (!view) return;
  box.style.setProperty("--tw", `${tileWidth(view.blind ? 1 : view.hand.length)}px`);
  const playable = new Set(myTurn() ? legal().filter((m) => m.kind === "play").map((m) => m.tile) : []);
  if (view.blind) {
    $("hand-title").textContent = "Your row";
    if (view.turned_up) {
      flip.hidden = false;
      const who = view.to_move === you ? "You turned up" : `${names()[view.to_move] ?? "The player to move"} turned up`;
      flip.appendChild(el("span", {}, who));
      if (view.to_move === you) flip.appendChild(tileButton(view.turned_up, playable.has(view.turned_up), ", turned up"));
      else flip.appendChild(tileSVG(view.turned_up, { label: `${tileWords(view.turned_up)}, turned up` }));
      if (view.peek && view.to_move === you) {
        // the server shows your row's next tile when the rules let you look at it first
        flip.appendChild(el("span", { class: "peek", "data-peek": view.peek },
          el("span", {}, "Your next tile (peek):"),
          tileSVG(view.peek, { label: `${tileWords(view.peek)}, your next tile (peek)` })));
      }
    }
    // your own row, face down (nobody may look, you neither), with its face-up tiles in place
    const count = view.tile_counts[you] || 0;
    const faceUp = new Map((view.face_up?.[you] || []).map(([pos, t]) => [pos, t]));
    const total = Math.max(count, ...[...faceUp.keys()].map((p) => p + 1), 0);
    const row = el("div", { class: "my-row", "data-row": you, role: "img",
      "aria-label": `your row: ${count} tile${count === 1 ? "" : "s"} face down` });
    for (let i = 0; i < total; i++) {
      row.appendChild(faceUp.has(i) ? tileSVG(faceUp.get(i)) : tileSVG(null, { back: true }));
    }
    if (!view.hand.length) box.appendChild(row);
  } else {
    $("hand-title").textContent = "Your tiles";
  }
  for (const t of view.hand) box.appendChild(tileButton(t, playable.has(t)));
}
