// A table: wires the modules of table/ together.  Everything drawn comes from the latest
// "state" message (your seat's view only): state.js holds it, socket.js receives it, the
// views draw it (board, hand, seats, controls, pad, log, end, hints, timer), actions.js
// turns clicks and keys into intents.  The page knows no rule and no game by name: the
// server says what each move scored, the count, the sides, the scoring and the direction.
import { $, $field, setAlert } from "/static/common.js";
import { store, tableId, invite, alertBox } from "/static/table/state.js";
import { names, gameLabel } from "/static/table/words.js";
import { connect, send } from "/static/table/socket.js";
import { bindChat, renderMutes, chatSeen } from "/static/table/chat.js";
import { bindActions, playMove, clickTile, dropTile, cancelChoice, chooseLeader } from "/static/table/actions.js";
import { showJoin, bindJoin } from "/static/table/join.js";
import { renderBoard, renderBoardInfo, endChoices } from "/static/table/board.js";
import { renderHand, onTileClick } from "/static/table/hand.js";
import { renderSeats } from "/static/table/seats.js";
import { renderControls } from "/static/table/controls.js";
import { renderScorePad } from "/static/table/pad.js";
import { renderLog } from "/static/table/log.js";
import { renderEnd, renderTurn } from "/static/table/end.js";
import { renderHints, onHintPlay } from "/static/table/hints.js";
import { tick } from "/static/table/timer.js";
import { renderWatching } from "/static/table/watch.js";
import { renderDeals } from "/static/table/deals.js";
import { ready, t } from "/static/i18n.js";
import { feel, mountFeel } from "/static/table/feel.js";

/** @typedef {import("/static/messages.js").StateMessage} StateMessage */
/** @typedef {import("/static/messages.js").TableInfo} TableInfo */

await ready;
mountFeel();

/** The page's element that a CSS selector picks, if any. */
const find = (/** @type {string} */ sel) => /** @type {HTMLElement | null} */ (document.querySelector(sel));

function render() {
  const st = store.state;
  if (!st) return;
  // keep the keyboard focus on the same tile or button across redraws
  const act = /** @type {HTMLElement | null} */ (document.activeElement);
  const keep = act && act !== document.body ? {
    tile: act.dataset?.tile, end: act.dataset?.end, arm: /** @type {HTMLElement | null} */ (act.closest?.(".end-choice"))?.dataset.arm,
    hint: act.dataset?.hintMove, id: act.id } : null;
  draw(st);
  feel(st);
  if (keep) {
    /** @type {HTMLElement | null} */
    let target = null;
    if (keep.tile) target = find(`#hand button[data-tile="${CSS.escape(keep.tile)}"], #flip button[data-tile="${CSS.escape(keep.tile)}"]`);
    else if (keep.end) target = find(`#ends button[data-end="${CSS.escape(keep.end)}"]`);
    else if (keep.arm) target = find(`#board .end-choice[data-arm="${CSS.escape(keep.arm)}"]`);
    else if (keep.hint) target = find(`#hints button[data-hint-move="${CSS.escape(keep.hint)}"]`);
    else if (keep.id) target = document.getElementById(keep.id);
    if (target && target.closest("[hidden]")) target = null;
    // the tile was played (or its end chosen): stay in the hand
    if (!target && (keep.tile || keep.end || keep.arm)) target = find("#hand-card:not([hidden]) #hand button.tile-btn");
    // the hand ended under the keyboard: go on to Next hand (or the leader choice)
    if (!target && (keep.tile || keep.end || keep.arm || keep.id === "draw" || keep.id === "pass")) {
      target = find("#next:not([hidden]):not(:disabled), #leader:not([hidden]) button");
    }
    if (target && target !== document.activeElement && !target.hidden) target.focus({ preventScroll: true });
  }
  if (store.focusHand && st.phase === "play") {
    const first = find("#hand-card:not([hidden]) #hand button.tile-btn");
    if (first) { store.setFocusHand(false); first.focus({ preventScroll: true }); }
  }
  // at game over the next thing to do is Play again (unless you are writing in the chat)
  if (st.phase === "over" && overFocused !== st.seq) {
    const again = find("#play-again");
    const now = /** @type {HTMLElement | null} */ (document.activeElement);
    if (again && !again.closest("[hidden]")) {
      overFocused = st.seq;
      if (!now || now === document.body || !now.closest("#side")) again.focus({ preventScroll: true });
    }
  }
}
/** The state whose game over put the focus on Play again (once per game over). */
let overFocused = -1;

/** @param {StateMessage} st @param {TableInfo} table */
function sidesFromPad(st, table) {
  const n = (st.pad?.[0]?.points || table.totals || []).length || table.players || 0;
  return Array.from({ length: n }, (_, i) => [i]);
}

/** @param {StateMessage} st */
function draw(st) {
  const table = st.table || {};
  const view = st.view;
  const you = st.you;
  const nm = names();
  const game = gameLabel(table.variant);
  // a table the server named after its game ("<game> table") is called by the game's name
  const own = table.name && table.named !== false ? table.name : "";
  const tname = own.split(table.variant).join(game);
  document.title = `bonepile: ${tname || game}`;
  $("table-title").textContent = !tname || tname.includes(game) ? tname || game : `${game} · ${tname}`;
  /** @type {HTMLAnchorElement} */ ($("record-link")).href = `/api/tables/${encodeURIComponent(tableId)}/record`;
  $("record-link").setAttribute("download", `bonepile-${tableId}.record.json`);
  /** @type {HTMLAnchorElement} */ ($("replay-link")).href = `/replay?table=${encodeURIComponent(tableId)}`;
  document.body.dataset.phase = st.phase;
  document.body.dataset.seq = String(st.seq);
  document.body.dataset.myTurn = store.myTurn() && !st.forced ? "1" : "0";
  document.body.dataset.busy = store.busy ? "1" : "0";

  renderWatching(st);
  renderDeals(table);
  renderSeats(st, nm);
  const choices = endChoices(view);
  renderBoard(st, view, nm, choices, playMove);
  renderHand(view, you);
  renderControls(st, view, nm, choices, { play: playMove, cancel: cancelChoice, leader: chooseLeader });
  renderTurn(st, view, nm);
  const sides = view?.sides || table.sides || sidesFromPad(st, table);
  renderScorePad(st.pad || [], { ...table, players: table.players || view?.players || 0 }, sides, nm,
    { inPlay: view && !view.over ? view.hand_points : null });
  renderBoardInfo(view, nm);
  renderLog(view, nm);
  renderEnd(st, view, nm);
  renderHints();
  renderMutes();
  tick();
  // waiting room
  $("waiting").hidden = st.phase !== "waiting";
  $field("invite").value = `${location.origin}/t/${tableId}${invite ? `?invite=${encodeURIComponent(invite)}` : ""}`;
}

store.onRedraw(render);
// the board and your tiles take the size of their boxes: draw again when the window changes
let sized = 0;
new ResizeObserver(() => { cancelAnimationFrame(sized); sized = requestAnimationFrame(() => store.redraw()); })
  .observe(/** @type {Element} */ (document.querySelector(".board-wrap")));
// on a narrow screen the score pad, the moves and the chat open over the table
$("side-toggle").addEventListener("click", () => {
  const open = document.body.classList.toggle("side-open");
  $("side-toggle").setAttribute("aria-expanded", open ? "true" : "false");
  if (open) chatSeen();
});
onTileClick(clickTile, dropTile);
onHintPlay(playMove);
bindChat(send);
bindActions();
bindJoin(connect);
setInterval(tick, 250);

if (!tableId) setAlert(alertBox, t("table.no_id"));
else if (store.token || store.watch) connect();  // your seat; or watching (?watch=1)
else showJoin();
