// The table page's state: the latest "state" message from the server and what this page is
// doing with it (a tile waiting for its end, a move sent and not yet answered, hints).
import { $, getToken, seatName } from "/static/common.js";
import { t, has, ready } from "/static/i18n.js";

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
  rematchAsked: null,  // the seat whose rematch question this page put the keyboard on
  rematchSeat: null,   // your seat at this finished table's rematch (a "rematch" message)
};

/** The catalogue's words for the games (fetched once): a table names its game in them. */
let labels = {};
let bots = {};
fetch("/api/variants").then((r) => r.json()).then(async (c) => {
  await ready;  // the words of the reader's language first
  const words = (key, english) => (key && has(key) ? t(key) : english);
  labels = Object.fromEntries((c.variants || []).map((v) => [v.name, words(v.label_key, v.label)]));
  bots = Object.fromEntries((c.bot_levels || []).map((l, i) => [l, words(c.bot_keys?.[i], c.bot_labels?.[i] || t("bot.any"))]));
  redraw();
}).catch(() => {});
export function gameLabel(name) { return labels[name] || t("common.dominoes"); }
/** A bot level in words ("Bot: casual"). */
export function botLabel(level) { return bots[level] || t("bot.any"); }

let redrawer = () => {};
/** The page's renderer (set once by table.js): redraw() draws the latest state again. */
export function onRedraw(fn) { redrawer = fn; }
export function redraw() { redrawer(); }

/** The connection line in the header: a key of conn.* ("connected", "connecting"...), or
 * words to show as they are. */
export function setConn(key, params = {}) {
  $("conn").textContent = has(`conn.${key}`) ? t(`conn.${key}`, params) : key;
  document.body.dataset.conn = key === "connected" ? "1" : "0";
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
  return nm.map((n, s) => (s === you ? t("seat.you") : n));
}

/** "you" at the start of a sentence (a name is written as its player wrote it). */
export const cap = (w) => (w === t("seat.you") ? t("seat.you_cap") : w);

/** A verb for a person: "you play", "Ana plays" (English only: the pages say `said`). */
export const verb = (who, word) => (who === "you" ? word : word.endsWith("s") ? `${word}es` : `${word}s`);

/** A sentence about seat s: the key's ".you" form for your own seat, else the key with
 * {name} (each language conjugates its own verb). */
export function said(s, key, params = {}) {
  if (s === S.state?.you) return t(`${key}.you`, params);
  return t(key, { ...params, name: names()[s] ?? "?" });
}

/** A short name per side: the player's name, or "Team n" for a partnership. */
export function shortSides(sides, nm) {
  return sides.map((side, i) => (side.length > 1 ? t("seat.team", { n: i + 1 }) : nm[side[0]]));
}
