// The hint panel: the expert's view of each legal move, best first, led by words ("Best: 6-4 on
// the right end — keeps your 5s, blocks Ana"). The moves come ranked by the one figure the
// panel shows (the server says which: the points expected, or the chance to win the hand where
// a hand is only won or lost); that figure and the others are a tap away under each move, in
// the reader's number format. A tile whose ends are alike comes once. Tap a move to play it.
// Under the moves, one short line per seat (and the stock) where the tiles you cannot see
// probably are ("Ana probably holds 6-4 (72%), 5-1 (55%)"), when the server found any.
import { $, el, clear } from "/static/common.js";
import { t, language } from "/static/i18n.js";
import { store } from "/static/table/state.js";
import { names } from "/static/table/words.js";

/** @type {(move: string) => void} */
let play = () => {};
/** What clicking a hinted move does (set once by table.js: play it). */
/** @param {(move: string) => void} fn */
export function onHintPlay(fn) { play = fn; }

/** @type {"points" | "win"} the figure the moves are ranked by (the server's `figure`) */
let figure = "points";
/** @param {"points" | "win"} f */
export function setFigure(f) { figure = f; }

/** @typedef {import("/static/messages.js").HintMove} HintMove */
/** @typedef {import("/static/messages.js").HintBelief} HintBelief */

/** @type {HintBelief[]} where the unseen tiles likely are (the server's `beliefs`) */
let beliefs = [];
/** @param {HintBelief[]} b */
export function setBeliefs(b) { beliefs = b; }

/** Whether the reader taps (a touch screen) rather than clicks. */
export function touch() {
  return typeof matchMedia === "function" && matchMedia("(pointer: coarse)").matches;
}

/** @param {string} tok */
function moveWords(tok) {
  if (tok === "draw") return t("hint.move.draw");
  if (tok === "pass") return t("hint.move.pass");
  const [tile, arm] = String(tok).split("@");
  return arm ? t("hint.move.on", { tile, end: t(`hint.end.${arm}`) }) : t("hint.move.lead", { tile });
}

/** A signed number with one decimal in the reader's format ("+1.5", "−2,3").
 * @param {number} x */
export function signed(x) {
  const s = new Intl.NumberFormat(language(), { minimumFractionDigits: 1, maximumFractionDigits: 1 })
    .format(Math.abs(x));
  return `${x > 0.05 ? "+" : x < -0.05 ? "−" : ""}${s}`;
}

/** A chance as a whole percentage in the reader's format. @param {number} x */
const pct = (x) => new Intl.NumberFormat(language(), { maximumFractionDigits: 0 }).format(Math.round(x * 100));

/** The figure the moves are ranked by, in words. @param {HintMove} h */
function headline(h) {
  if (figure === "win" && typeof h.win === "number") return t("hint.win_hand", { pct: pct(h.win) });
  return t("hint.points", { points: signed(h.points) });
}

/** The other figures of one hinted move, in words. @param {HintMove} h */
function others(h) {
  const out = [];
  if (figure !== "win" && typeof h.win === "number") out.push(t("hint.win_hand", { pct: pct(h.win) }));
  if (figure === "win") out.push(t("hint.points", { points: signed(h.points) }));
  if (typeof h.game === "number") out.push(t("hint.win_game", { pct: pct(h.game) }));
  return out.join(t("hint.sep"));
}

/** Why, in words: one short phrase per reason the server gave. @param {HintMove} h */
function why(h) {
  const nm = names();
  return (h.reasons || [])
    .map((r) => t(`hint.${r.code}`, { ...r, player: typeof r.seat === "number" ? nm[r.seat] ?? "?" : "" }))
    .join(t("hint.sep"));
}

/** One line per holder with a likely tile: who, then its tiles with their chances. */
function likely() {
  const nm = names();
  const lines = beliefs
    .filter((b) => b.tiles && b.tiles.length)
    .map((b) => {
      const tiles = b.tiles.map((x) => t("hint.tile_chance", { tile: x.tile, pct: pct(x.p) })).join(t("hint.sep"));
      const line = b.seat === null || b.seat === undefined
        ? t("hint.stock_holds", { tiles })
        : t("hint.holds", { player: nm[b.seat] ?? "?", tiles });
      return el("li", { "data-belief-seat": b.seat === null || b.seat === undefined ? "stock" : String(b.seat) }, line);
    });
  return lines.length ? el("ul", { class: "hint-beliefs small", "aria-label": t("hint.unseen") }, ...lines) : "";
}

export function renderHints() {
  const box = $("hints");
  if (!store.hints) { box.hidden = true; return; }
  box.hidden = false;
  clear(box);
  if (store.hints === "asking") { box.appendChild(el("p", { class: "small" }, t("hint.thinking"))); return; }
  box.appendChild(el("p", { class: "small" }, t(touch() ? "hint.title_touch" : "hint.title")));
  const ol = el("ol", { class: "hint-list" });
  store.hints.forEach((h, i) => {
    const playable = store.legal().some((m) => m.move === h.move) && store.myTurn();
    const words = i === 0 ? t("hint.best", { move: moveWords(h.move) }) : moveWords(h.move);
    const name = playable
      ? el("button", { type: "button", class: "small", "data-hint-move": h.move, onclick: () => play(h.move) }, words)
      : el("span", {}, words);
    const reasons = why(h);
    const rest = others(h);
    const figures = el("details", { class: "hint-figures small" },
      el("summary", { "data-hint-figure": figure }, headline(h)),
      rest ? el("span", {}, rest) : "");
    ol.appendChild(el("li", {}, name, reasons ? el("span", { class: "hint-why" }, ` ${t("hint.dash")} ${reasons}`) : "", figures));
  });
  box.appendChild(ol);
  const where = likely();
  if (where) box.appendChild(where);
}
