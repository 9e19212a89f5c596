// The table page's state: the latest "state" message from the server and what this page is
// doing with it (a tile waiting for its end, a move sent and not yet answered, hints).
import { getToken, seatName } from "/static/common.js";

export const $ = (id) => document.getElementById(id);
export const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
export const alertBox = $("alert");
/** A private table's invite secret, from its link (/t/<id>?invite=...): joining needs it. */
export const invite = new URLSearchParams(location.search).get("invite") || "";

export const S = {
  token: getToken(tableId),
  watch: new URLSearchParams(location.search).has("watch"),  // open to watch (no seat)
  ws: null,
  state: null,       // the latest state message
  selected: null,    // a tile waiting for the choice of its end
  busy: false,       // a move was sent and not yet answered
  moveId: 0,
  hints: null,
  hintSeq: -1,
  retry: 0,
  retryTimer: null,
  deadlineAt: null,
  closedForGood: false,
  focusHand: false,  // put the keyboard focus on the hand once the next hand is dealt
  logKey: null,      // the hand whose moves were last announced, and how many
  logLen: 0,
};

/** The catalogue's words for the games (fetched once): a table names its game in them. */
let labels = {};
let bots = {};
fetch("/api/variants").then((r) => r.json()).then((c) => {
  labels = Object.fromEntries((c.variants || []).map((v) => [v.name, v.label]));
  bots = Object.fromEntries((c.bot_levels || []).map((l, i) => [l, c.bot_labels?.[i] || "Bot"]));
  redraw();
}).catch(() => {});
export function gameLabel(name) { return labels[name] || "Dominoes"; }
/** A bot level in words ("Bot: casual"). */
export function botLabel(level) { return bots[level] || "Bot"; }

let redrawer = () => {};
/** The page's renderer (set once by table.js): redraw() draws the latest state again. */
export function onRedraw(fn) { redrawer = fn; }
export function redraw() { redrawer(); }

/** The connection line in the header ("connected", "connecting…", ...). */
export function setConn(text) {
  $("conn").textContent = text;
  document.body.dataset.conn = text === "connected" ? "1" : "0";
}

/** The legal moves of your seat in the latest state ([] when it is not your turn). */
export function legal() { return S.state?.view?.legal || []; }

export function myTurn() {
  const st = S.state;
  return !!st && st.phase === "play" && st.view && st.view.to_move === st.you && !st.view.over;
}

/** Every seat's display name. */
export function names() {
  const st = S.state;
  const n = st?.table?.players || st?.view?.players || 0;
  return Array.from({ length: n }, (_, s) => seatName(st.table, s));
}

/** Every seat as a sentence names it: "you" for your own seat, else the display name. */
export function people() {
  const nm = names();
  const you = S.state?.you;
  return nm.map((n, s) => (s === you ? "you" : n));
}

/** "you" at the start of a sentence (a name is written as its player wrote it). */
export const cap = (t) => (t === "you" ? "You" : t);

/** A verb for a person: "you play", "Ana plays". */
export const verb = (who, word) => (who === "you" ? word : word.endsWith("s") ? `${word}es` : `${word}s`);

/** A short name per side: the player's name, or "Team n" for a partnership. */
export function shortSides(sides, nm) {
  return sides.map((side, i) => (side.length > 1 ? `Team ${i + 1}` : nm[side[0]]));
}
