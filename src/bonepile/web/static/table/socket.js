// The table's socket: connecting with the seat token, reconnecting with backoff, sending
// intents, and taking in the server's messages (state, error, chat, hint).
import { $, setAlert, dropToken, serverWords } from "/static/common.js";
import { t } from "/static/i18n.js";
import { store, tableId, invite, alertBox } from "/static/table/state.js";
import { setConn } from "/static/table/words.js";
import { onChat } from "/static/table/chat.js";
import { remembered } from "/static/table/mutes.js";
import { renderHints, setBeliefs, setFigure } from "/static/table/hints.js";
import { showJoin, showFinished } from "/static/table/join.js";
import { onRematchSeat } from "/static/table/rematch.js";

/** @typedef {import("/static/messages.js").StateMessage} StateMessage */
/** @typedef {import("/static/messages.js").ErrorMessage} ErrorMessage */
/** @typedef {import("/static/messages.js").HintMessage} HintMessage */

// the reconnection: attempts since the last open socket, the timer of the next one, and
// whether the server closed the socket for good (a refused seat or table)
let retry = 0;
/** @type {ReturnType<typeof setTimeout> | null} */
let retryTimer = null;
let closedForGood = false;
/** @type {ReturnType<typeof setTimeout> | undefined} */
let noticeTimer;

export function connect() {
  if (retryTimer !== null) clearTimeout(retryTimer);
  retryTimer = null;
  $("game").hidden = false;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  // with no seat token the socket watches: the server sends what everybody may see
  // (a private table is watched only with the secret of its invite link)
  const query = store.token ? `?token=${encodeURIComponent(store.token)}` : invite ? `?invite=${encodeURIComponent(invite)}` : "";
  const url = `${proto}://${location.host}/ws/tables/${encodeURIComponent(tableId)}${query}`;
  setConn("connecting");
  let ws;
  try { ws = new WebSocket(url); } catch (e) { scheduleReconnect(); return; }
  store.setSocket(ws);
  ws.addEventListener("open", () => {
    retry = 0;
    setConn("connected");
    // the mutes the server does not keep (a seat without a profile), as this browser remembers them
    if (store.token) for (const seat of remembered()) ws.send(JSON.stringify({ type: "mute", seat }));
  });
  ws.addEventListener("message", (ev) => {
    let msg;
    try { msg = JSON.parse(ev.data); } catch { return; }
    onMessage(msg);
  });
  ws.addEventListener("close", (ev) => {
    if (store.ws !== ws) return;
    store.setSocket(null);
    if (ev.code >= 4000 && ev.code < 5000) {
      // the server refused the seat token or the table: retrying will not help
      closedForGood = true;
      setConn("disconnected");
      if (!alertBox.textContent) setAlert(alertBox, t("conn.closed", { reason: ev.reason ? serverWords(ev.reason) : t("conn.code", { code: ev.code }) }));
      if (ev.code === 4401 || ev.code === 4403) {
        dropToken(tableId);
        store.setSeat(null);
        showJoin();
      } else if (ev.code === 4404) {
        showFinished();
      }
      return;
    }
    scheduleReconnect();
  });
}

// back online, or back to the tab: reconnect now rather than at the end of the backoff
function reconnectSoon() {
  if (!store.ws && (store.token || store.watch) && !closedForGood && retryTimer !== null) {
    clearTimeout(retryTimer);
    retryTimer = null;
    connect();
  }
}
window.addEventListener("online", reconnectSoon);
document.addEventListener("visibilitychange", () => { if (!document.hidden) reconnectSoon(); });

function scheduleReconnect() {
  const delay = Math.min(10000, 500 * 2 ** retry);
  retry += 1;
  setConn("lost", { s: Math.round(delay / 100) / 10 });
  retryTimer = setTimeout(connect, delay);
}

/** Send an intent; false (and a note) when the socket is not open. */
/** @param {object} obj */
export function send(obj) {
  setAlert(alertBox, "");
  if (!store.ws || store.ws.readyState !== WebSocket.OPEN) {
    setAlert(alertBox, t("conn.not_connected"));
    return false;
  }
  store.ws.send(JSON.stringify(obj));
  return true;
}

setInterval(() => { if (store.ws && store.ws.readyState === WebSocket.OPEN) store.ws.send('{"type":"ping"}'); }, 25000);

/** @param {StateMessage} msg */
function onState(msg) {
  const prev = store.state;
  // our clock ran out (we sent nothing): the server played for us; say so
  const timedOut = store.myTurn() && !store.busy && store.deadlineAt !== null && store.deadlineAt - Date.now() < 1500 &&
    msg.view && prev?.view && msg.view.hand_number === prev.view.hand_number &&
    msg.view.history?.[prev.view.history.length]?.seat === msg.you;
  // a sent move is answered by the state that acknowledges it (or by any change of position)
  store.setState(msg);
  if (msg.ack !== null && msg.ack !== undefined) setAlert(alertBox, "");
  if (timedOut) notice(t("timer.timed_out"));
  store.redraw();
}

/** A note that floats over the table for a few seconds (it pushes nothing down). */
/** @param {string} text */
function notice(text) {
  setAlert(alertBox, text);
  alertBox.classList.add("notice");
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => {
    if (alertBox.textContent === text) setAlert(alertBox, "");
    alertBox.classList.remove("notice");
  }, 6000);
}

/** @param {ErrorMessage} msg */
function onError(msg) {
  alertBox.classList.remove("notice");
  store.refused(msg.id);
  setAlert(alertBox, msg.message ? serverWords(msg.message, msg.code, msg.params) : t("error.refused"));
  store.redraw();
}

/** @param {HintMessage} msg */
function onHint(msg) {
  setFigure(msg.figure === "win" ? "win" : "points");
  setBeliefs(Array.isArray(msg.beliefs) ? msg.beliefs : []);
  store.setHints(msg.moves || []);
  renderHints();
}

// one function per server message type
/** @type {Record<string, (msg: any) => void>} */
const ON = { state: onState, error: onError, chat: onChat, hint: onHint, rematch: onRematchSeat };

/** @param {{type: string}} msg */
function onMessage(msg) {
  const f = ON[msg.type];
  if (f) f(msg);
}
