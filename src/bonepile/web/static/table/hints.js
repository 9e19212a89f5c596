// The hint panel: the expert's view of each legal move, best first; click one to play it.
import { el, clear } from "/static/common.js";
import { ARM_WORDS } from "/static/render.js";
import { S, $, legal, myTurn } from "/static/table/state.js";

let play = () => {};
/** What clicking a hinted move does (set once by table.js: play it). */
export function onHintPlay(fn) { play = fn; }

function moveWords(tok) {
  if (tok === "draw" || tok === "pass") return tok;
  const [tile, arm] = String(tok).split("@");
  return arm ? `${tile} on ${ARM_WORDS[arm] || arm}` : `lead ${tile}`;
}

export function renderHints() {
  const box = $("hints");
  if (!S.hints) { box.hidden = true; return; }
  box.hidden = false;
  clear(box);
  if (S.hints === "asking") { box.appendChild(el("p", { class: "small" }, "The expert is thinking…")); return; }
  box.appendChild(el("p", { class: "small" }, "The expert's view, best first (click to play):"));
  const ol = el("ol");
  for (const h of S.hints) {
    const pts = typeof h.points === "number" ? `${h.points >= 0 ? "+" : ""}${h.points.toFixed(1)} pts` : "";
    const win = typeof h.win === "number" ? `, wins the hand ${Math.round(h.win * 100)}%` : "";
    const playable = legal().some((m) => m.move === h.move) && myTurn();
    ol.appendChild(el("li", {}, playable
      ? el("button", { type: "button", class: "small", "data-hint-move": h.move, onclick: () => play(h.move) }, moveWords(h.move))
      : el("span", {}, moveWords(h.move)), ` ${pts}${win}${h.reason ? ` — ${h.reason}` : ""}`));
  }
  box.appendChild(ol);
}
