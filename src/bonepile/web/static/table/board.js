// The layout on the felt (with the end markers when a tile fits two ends), its description
// for a screen reader, and the line under it: open ends, the count, the boneyard, the leader.
import { $, el, clear } from "/static/common.js";
import { drawBoard, lastPlayed, tileWords, ARM_WORDS, armLetter } from "/static/render.js";
import { armNamer, bringIntoRows, describeRows, isRows, rowsOf } from "/static/rows.js";
import { store } from "/static/table/state.js";
import { names, people, said } from "/static/table/words.js";
import { t, has } from "/static/i18n.js";
import { applyZoom } from "/static/table/zoom.js";

/** @typedef {import("/static/messages.js").StateMessage} StateMessage */
/** @typedef {import("/static/messages.js").View} View */
/** @typedef {import("/static/render.js").EndChoice} EndChoice */

/** The ends the selected tile may go on: [{arm, move, label}].
 * @param {View | null} view @returns {EndChoice[]} */
export function endChoices(view) {
  /** @type {EndChoice[]} */
  const choices = [];
  if (store.selected && store.myTurn()) {
    for (const m of store.legal()) {
      if (view && m.kind === "play" && m.tile === store.selected && m.arm) {
        choices.push({ arm: m.arm, move: m.move,
          label: isRows(view.layout) ? t("rows.play_tile_on", { tile: tileWords(m.tile), arm: armWords(view, true)(m.arm), pips: view.layout.ends?.[m.arm] ?? "" })
            : t("board.play_tile_on", { tile: tileWords(m.tile), arm: ARM_WORDS[m.arm], pips: view.layout.ends?.[m.arm] ?? "" }) });
      }
    }
  }
  return choices;
}

/** An arm of the view's layout in words, as this table names its seats ("Ana's train",
 * "your train", "left"); `inSentence`: as a sentence names it.
 * @param {{layout?: import("/static/messages.js").Layout} | null | undefined} view @param {boolean} [inSentence] */
export function armWords(view, inSentence = false) {
  return armNamer(view?.layout, { names: names(), you: store.state?.you ?? null }, (a) => ARM_WORDS[a], inSentence);
}

/** The arms the reader may play on now (their trains marked on the table).  @param {View | null} view */
function playableArms(view) {
  if (!view || !store.myTurn()) return [];
  return [...new Set(store.legal().filter((m) => m.kind === "play" && m.arm).map((m) => /** @type {string} */ (m.arm)))];
}

/** the turn (hand, moves so far) whose playable rows were last brought into sight */
let shownTurn = "";

/** @param {StateMessage} st @param {View | null} view @param {string[]} nm @param {EndChoice[]} choices
 * @param {(move: string) => void} onChoose */
export function renderBoard(st, view, nm, choices, onChoose) {
  const board = /** @type {SVGSVGElement} */ (document.querySelector("svg#board"));
  if (view) {
    drawBoard(board, view.layout, { last: lastPlayed(view.history), choices, onChoose,
      names: nm, you: st.you ?? null, playable: playableArms(view),
      emptyText: st.phase === "play" && view.to_move !== null && view.to_move !== undefined ? said(view.to_move, "board.leads") : "" });
    board.setAttribute("aria-label", describeLayout(view));
    if (isRows(view.layout)) {
      const box = rowsOf(board);
      box?.setAttribute("aria-label", describeRows(view.layout, armWords(view), armWords(view, true)));
      // once a turn: the first train or arm the reader may play on in sight (on a phone the
      // rows scroll, and it may be below the others); a choice of rows is rows.js's own
      const turn = store.myTurn() ? `${view.hand_number}:${view.history.length}` : "";
      if (box && turn && turn !== shownTurn && !box.querySelector(".rows-play")) {
        bringIntoRows(box, box.querySelector(".rows-arm.playable"));
      }
      shownTurn = turn;
    }
  } else {
    drawBoard(board, null, { emptyText: st.phase === "waiting" ? t("table.waiting_title") : "" });
  }
  applyZoom(board, view?.hand_number ?? null);
}

/** @param {View} view */
function describeLayout(view) {
  const lay = view.layout;
  if (!lay || !lay.first) return t("board.described_empty");
  const ends = Object.entries(lay.ends || {}).map(([a, p]) => t("board.end_pips", { arm: ARM_WORDS[a], pips: p })).join(", ");
  const n = 1 + Object.values(lay.arms || {}).reduce((k, a) => k + a.length, 0);
  const last = lastPlayed(view.history);
  return t("board.described", { n, ends }) + (last ? `; ${t("board.described_last", { tile: tileWords(last) })}` : "") +
    (Array.isArray(lay.spinner_at) ? `; ${t("board.described_spinner", { tile: tileWords(`${lay.spinner}-${lay.spinner}`) })}` : "");
}

/** @param {View | null} view @param {string[]} nm */
export function renderBoardInfo(view, nm) {
  const box = clear($("board-info"));
  if (!view) return;
  const lay = view.layout || {};
  const ends = Object.entries(lay.ends || {});
  if (lay.first && ends.length && !isRows(lay)) {  // trains and feet show each end on its row
    const dbl = new Set(lay.double_ends || []);
    const parts = ends.map(([a, p]) => `${armLetter(a)} ${p}${dbl.has(a) ? ` ${t("board.double_mark")}` : ""}`);
    let text = t("board.open_ends", { ends: parts.join(", ") });
    // the count of the ends, where the game scores it (the server says, with its words)
    if (view.count) {
      const note = view.count.note_key && has(view.count.note_key) ? t(view.count.note_key) : view.count.note;
      text += ` · ${note ? t("board.count_note", { n: view.count.value, note }) : t("board.count", { n: view.count.value })}`;
    }
    box.appendChild(el("span", { "data-info": "ends" }, text));
  }
  if (view.boneyard_size || view.boneyard) {
    box.appendChild(el("span", { "data-info": "boneyard" },
      view.blind ? t("board.undealt", { n: view.boneyard_size }) : t("board.boneyard", { n: view.boneyard }) +
        (view.boneyard_size > view.boneyard ? ` ${t("board.kept_back", { n: view.boneyard_size - view.boneyard })}` : "")));
  }
  if (view.round_bonus) box.appendChild(el("span", {}, t("board.round_bonus", { n: view.round_bonus })));
  const lead = view.leader;
  if (lead !== null && lead !== undefined) box.appendChild(el("span", {}, lead === store.state?.you ? t("board.hand_led.you", { hand: view.hand_number })
    : t("board.hand_led", { hand: view.hand_number, name: people()[lead] })));
}
