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

export function renderHand(view, you) {
  const box = clear($("hand"));
  const flip = $("flip");
  clear(flip);
  flip.hidden = true;
  box.classList.toggle("blind", !!view?.blind);
  if (!view) return;
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
    if (!view.hand.length) box.appendChild(el("span", { class: "small muted" },
      `${view.tile_counts[you]} tile${view.tile_counts[you] === 1 ? "" : "s"} in your row (shown on the table above).`));
  } else {
    $("hand-title").textContent = "Your tiles";
  }
  for (const t of view.hand) box.appendChild(tileButton(t, playable.has(t)));
}

export function renderRows(view, nm, you) {
  const box = $("rows");
  const felt = box.closest(".felt");
  felt.classList.toggle("blind", !!view?.blind);
  // the rows sit in columns of at least 18rem (as the stylesheet's grid does)
  const cols = Math.max(1, Math.floor((felt.clientWidth - 20) / (18 * 16 + 16)));
  felt.style.setProperty("--rows", view?.blind ? Math.ceil(view.players / cols) : 0);
  if (!view || !view.blind) { box.hidden = true; return; }
  box.hidden = false;
  clear(box);
  for (let s = 0; s < view.players; s++) {
    const count = view.tile_counts[s] || 0;
    const faceUp = new Map((view.face_up?.[s] || []).map(([pos, t]) => [pos, t]));
    const line = el("div", { class: "row-line", "data-row": s },
      el("span", { class: "row-name" }, `${nm[s]}${s === you ? " (you)" : ""}`));
    const total = Math.max(count, ...[...faceUp.keys()].map((p) => p + 1), 0);
    for (let i = 0; i < total; i++) {
      if (faceUp.has(i)) line.appendChild(tileSVG(faceUp.get(i), { label: `${tileWords(faceUp.get(i))}, face up` }));
      else line.appendChild(tileSVG(null, { back: true, label: "face down" }));
    }
    box.appendChild(line);
  }
}
