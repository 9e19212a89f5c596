// The hint panel: the expert's view of each legal move, best first, in plain words: the move,
// the points it is expected to bring, the chance to win the hand (and the game, when it can
// end now), and why (facts of the position sent as codes, put into words here); click a move
// to play it.
import { $, el, clear } from "/static/common.js";
import { t } from "/static/i18n.js";
import { store } from "/static/table/state.js";

/** @type {(move: string) => void} */
let play = () => {};
/** What clicking a hinted move does (set once by table.js: play it). */
/** @param {(move: string) => void} fn */
export function onHintPlay(fn) { play = fn; }

/** @typedef {import("/static/messages.js").HintMove} HintMove */

/** @param {string} tok */
function moveWords(tok) {
  if (tok === "draw") return t("hint.move.draw");
  if (tok === "pass") return t("hint.move.pass");
  const [tile, arm] = String(tok).split("@");
  return arm ? t("hint.move.on", { tile, end: t(`hint.end.${arm}`) }) : t("hint.move.lead", { tile });
}

/** @param {number} x */
function signed(x) {
  return `${x > 0 ? "+" : x < 0 ? "−" : ""}${Math.abs(x).toFixed(1)}`;
}

const pct = (/** @type {number} */ x) => Math.round(x * 100);

/** The figures of one hinted move, in words. @param {HintMove} h */
function figures(h) {
  const out = [];
  if (typeof h.points === "number") out.push(t("hint.points", { points: signed(h.points) }));
  if (typeof h.win === "number") out.push(t("hint.win_hand", { pct: pct(h.win) }));
  if (typeof h.game === "number") out.push(t("hint.win_game", { pct: pct(h.game) }));
  return out.join(t("hint.sep"));
}

/** Why, in words: one phrase per reason the server gave. @param {HintMove} h */
function why(h) {
  return (h.reasons || []).map((r) => t(`hint.${r.code}`, r)).join(t("hint.sep"));
}

export function renderHints() {
  const box = $("hints");
  if (!store.hints) { box.hidden = true; return; }
  box.hidden = false;
  clear(box);
  if (store.hints === "asking") { box.appendChild(el("p", { class: "small" }, t("hint.thinking"))); return; }
  box.appendChild(el("p", { class: "small" }, t("hint.title")));
  const ol = el("ol", { class: "hint-list" });
  for (const h of store.hints) {
    const playable = store.legal().some((m) => m.move === h.move) && store.myTurn();
    const name = playable
      ? el("button", { type: "button", class: "small", "data-hint-move": h.move, onclick: () => play(h.move) }, moveWords(h.move))
      : el("span", {}, moveWords(h.move));
    const reasons = why(h);
    ol.appendChild(el("li", {}, name, ` ${figures(h)}`,
      reasons ? el("div", { class: "small hint-why" }, reasons) : ""));
  }
  box.appendChild(ol);
}
