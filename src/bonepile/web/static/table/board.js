// The layout on the felt (with the end markers when a tile fits two ends), its description
// for a screen reader, and the line under it: open ends, the count, the boneyard, the leader.
import { el, clear } from "/static/common.js";
import { drawBoard, lastPlayed, tileWords, ARM_WORDS } from "/static/render.js";
import { S, $, legal, myTurn, people, cap, verb } from "/static/table/state.js";
import { applyZoom } from "/static/table/zoom.js";

/** The ends the selected tile may go on: [{arm, move, label}]. */
export function endChoices(view) {
  const choices = [];
  if (S.selected && myTurn()) {
    for (const m of legal()) {
      if (m.kind === "play" && m.tile === S.selected && m.arm) {
        choices.push({ arm: m.arm, move: m.move,
          label: `play ${tileWords(m.tile)} on the ${ARM_WORDS[m.arm]} end (${view.layout.ends?.[m.arm]})` });
      }
    }
  }
  return choices;
}

export function renderBoard(st, view, nm, choices, onChoose) {
  const board = $("board");
  if (view) {
    drawBoard(board, view.layout, { last: lastPlayed(view.history), choices, onChoose,
      emptyText: st.phase === "play" ? `${cap(people()[view.to_move] ?? "")} ${verb(people()[view.to_move], "lead")}` : "" });
    board.setAttribute("aria-label", describeLayout(view));
  } else {
    drawBoard(board, null, { emptyText: st.phase === "waiting" ? "Waiting for players" : "" });
  }
  applyZoom(board, view?.hand_number ?? null);
}

function describeLayout(view) {
  const lay = view.layout;
  if (!lay || !lay.first) return "the layout: no tile played yet";
  const ends = Object.entries(lay.ends || {}).map(([a, p]) => `${ARM_WORDS[a]} end ${p}`).join(", ");
  const n = 1 + Object.values(lay.arms || {}).reduce((k, a) => k + a.length, 0);
  const last = lastPlayed(view.history);
  return `the layout: ${n} tiles, open ends ${ends}` + (last ? `; last played ${tileWords(last)}` : "") +
    (Array.isArray(lay.spinner_at) ? `; spinner double ${lay.spinner}` : "");
}

export function renderBoardInfo(view, nm) {
  const box = clear($("board-info"));
  if (!view) return;
  const lay = view.layout || {};
  const ends = Object.entries(lay.ends || {});
  if (lay.first && ends.length) {
    const dbl = new Set(lay.double_ends || []);
    const parts = ends.map(([a, p]) => `${a} ${p}${dbl.has(a) ? " (double)" : ""}`);
    let text = `Open ends: ${parts.join(", ")}`;
    // the count of the ends, where the game scores it (the server says, with its words)
    if (view.count) text += ` · count ${view.count.value}${view.count.note ? ` (${view.count.note})` : ""}`;
    box.appendChild(el("span", { "data-info": "ends" }, text));
  }
  if (view.boneyard_size || view.boneyard) {
    box.appendChild(el("span", { "data-info": "boneyard" },
      view.blind ? `Undealt: ${view.boneyard_size}` : `Boneyard: ${view.boneyard} to draw` +
        (view.boneyard_size > view.boneyard ? ` (${view.boneyard_size - view.boneyard} kept back)` : "")));
  }
  if (view.round_bonus) box.appendChild(el("span", {}, `Round bonus: ${view.round_bonus}`));
  const lead = view.leader;
  if (lead !== null && lead !== undefined) box.appendChild(el("span", {}, `Hand ${view.hand_number}, led by ${people()[lead]}`));
}
