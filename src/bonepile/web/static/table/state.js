// The table page's state, owned here: the latest "state" message of the server and what this
// page is doing with it (a tile waiting for its end, a move sent and not yet answered, hints,
// the clock).  Every module reads it through `store`; only the store's named methods change it
// (its fields are getters: `npx tsc -p .` refuses an assignment to one).
import { $, getToken } from "/static/common.js";

/** @typedef {import("/static/messages.js").StateMessage} StateMessage */
/** @typedef {import("/static/messages.js").LegalMove} LegalMove */
/** @typedef {import("/static/messages.js").HintMove} HintMove */

/**
 * @typedef {object} TableState
 * @property {string | null} token  your seat's token (null: no seat, e.g. watching)
 * @property {boolean} watch  the page watches the table (opened with ?watch, or chose to)
 * @property {WebSocket | null} ws  the socket, while one is open or opening
 * @property {StateMessage | null} state  the latest state message
 * @property {string | null} selected  a tile waiting for the choice of its end
 * @property {boolean} busy  a move was sent and not yet answered
 * @property {number} moveId  the id of the last move sent
 * @property {HintMove[] | "asking" | null} hints  the hint asked for at state hintSeq
 * @property {number} hintSeq
 * @property {number | null} deadlineAt  when the clock of the person to move runs out (ms)
 * @property {boolean} focusHand  put the keyboard on the hand once the next hand is dealt
 */

/** The table this page shows (/t/<id>), and a private table's invite secret from its link
 * (/t/<id>?invite=...): joining and watching need it. */
export const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
export const invite = new URLSearchParams(location.search).get("invite") || "";
/** The page's line for notes and refusals. */
export const alertBox = $("alert");

/** @type {TableState} */
const S = {
  token: getToken(tableId),
  watch: new URLSearchParams(location.search).has("watch"),
  ws: null,
  state: null,
  selected: null,
  busy: false,
  moveId: 0,
  hints: null,
  hintSeq: -1,
  deadlineAt: null,
  focusHand: false,
};

let redrawer = () => {};

export const store = Object.freeze({
  get token() { return S.token; },
  get watch() { return S.watch; },
  get ws() { return S.ws; },
  get state() { return S.state; },
  get selected() { return S.selected; },
  get busy() { return S.busy; },
  get moveId() { return S.moveId; },
  get hints() { return S.hints; },
  get hintSeq() { return S.hintSeq; },
  get deadlineAt() { return S.deadlineAt; },
  get focusHand() { return S.focusHand; },

  /** The legal moves of your seat in the latest state ([] when it is not your turn).
   * @returns {LegalMove[]} */
  legal() { return S.state?.view?.legal || []; },

  /** Your turn to play (a seat, a hand in play, your move). */
  myTurn() {
    const st = S.state;
    return !!st && st.phase === "play" && !!st.view && st.view.to_move === st.you && !st.view.over;
  },

  /** A new state from the server: it answers a move sent (or moved on), ends a tile's choice
   * and an old hint, and sets the clock.
   * @param {StateMessage} msg */
  setState(msg) {
    const prevSeq = S.state?.seq;
    S.state = msg;
    if (S.busy && (msg.seq !== prevSeq || msg.ack === S.moveId)) S.busy = false;
    if (msg.seq !== prevSeq) S.selected = null;
    if (S.hints && S.hintSeq !== msg.seq) S.hints = null;
    S.deadlineAt = msg.deadline === null || msg.deadline === undefined ? null : Date.now() + msg.deadline * 1000;
  },

  /** A seat's token (from joining), or null when the server refused it.
   * @param {string | null} token */
  setSeat(token) { S.token = token; },
  /** Watch the table (no seat). */
  setWatching() { S.watch = true; },

  /** The socket just opened (or null once closed; a move in flight is then lost).
   * @param {WebSocket | null} ws */
  setSocket(ws) {
    S.ws = ws;
    if (!ws) S.busy = false;
  },

  /** Choose a tile whose end is to be chosen next (null: no tile).
   * @param {string | null} tile */
  select(tile) { S.selected = tile; },

  /** The id for the next move sent. */
  nextMoveId() { S.moveId += 1; return S.moveId; },
  /** A move was sent: wait for its answer. */
  moveSent() { S.busy = true; S.selected = null; },
  /** The server refused an intent (`id`: which one; none: the page's last move).
   * @param {number | string | null | undefined} id */
  refused(id) { if (id === undefined || id === null || id === S.moveId) S.busy = false; },

  /** A hint was asked for at the latest state. */
  askHint() { S.hints = "asking"; S.hintSeq = S.state?.seq ?? -1; },
  /** The hint's moves arrived (for the latest state).
   * @param {HintMove[]} moves */
  setHints(moves) { S.hints = moves; S.hintSeq = S.state?.seq ?? -1; },

  /** Put the keyboard on the hand once the next hand is dealt (or not).
   * @param {boolean} on */
  setFocusHand(on) { S.focusHand = on; },

  /** The page's renderer (set once by table.js): redraw() draws the latest state again.
   * @param {() => void} fn */
  onRedraw(fn) { redrawer = fn; },
  redraw() { redrawer(); },
});
