// The table's socket: connecting with the seat token, reconnecting with backoff, sending
// intents, and taking in the server's messages (state, error, chat, hint).
import { $, setAlert, dropToken, serverWords } from "/static/common.js";
import { t } from "/static/i18n.js";
import { S, tableId, invite, alertBox, myTurn, redraw, setConn } from "/static/table/state.js";
import { onChat } from "/static/table/chat.js";
import { remembered } from "/static/table/mutes.js";
import { renderHints } from "/static/table/hints.js";
import { showJoin, showFinished } from "/static/table/join.js";
import { onRematchSeat } from "/static/table/rematch.js";

export function connect() {
  clearTimeout(S.retryTimer);
  S.retryTimer = null;
  $("game").hidden = false;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  // with no seat token the socket watches: the server sends what everybody may see
  // (a private table is watched only with the secret of its invite link)
  const query = S.token ? `?token=${encodeURIComponent(S.token)}` : invite ? `?invite=${encodeURIComponent(invite)}` : "";
  const url = `${proto}://${location.host}/ws/tables/${encodeURIComponent(tableId)}${query}`;
  setConn("connecting");
  let ws;
  try { ws = new WebSocket(url); } catch (e) { scheduleReconnect(); return; }
  S.ws = ws;
  ws.addEventListener("open", () => {
    S.retry = 0;
    setConn("connected");
    // the mutes the server does not keep (a seat without a profile), as this browser remembers them
    if (S.token) for (const seat of remembered()) ws.send(JSON.stringify({ type: "mute", seat }));
  });
  ws.addEventListener("message", (ev) => {
    let msg;
    try { msg = JSON.parse(ev.data); } catch { return; }
    onMessage(msg);
  });
  ws.addEventListener("close", (ev) => {
    if (S.ws !== ws) return;
    S.ws = null;
    S.busy = false;
    if (ev.code >= 4000 && ev.code < 5000) {
      // the server refused the seat token or the table: retrying will not help
      S.closedForGood = true;
      setConn("disconnected");
      if (!alertBox.textContent) setAlert(alertBox, t("conn.closed", { reason: ev.reason ? serverWords(ev.reason) : t("conn.code", { code: ev.code }) }));
      if (ev.code === 4401 || ev.code === 4403) {
        dropToken(tableId);
        S.token = null;
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
  if (!S.ws && (S.token || S.watch) && !S.closedForGood && S.retryTimer !== null) {
    clearTimeout(S.retryTimer);
    S.retryTimer = null;
    connect();
  }
}
window.addEventListener("online", reconnectSoon);
document.addEventListener("visibilitychange", () => { if (!document.hidden) reconnectSoon(); });

function scheduleReconnect() {
  const delay = Math.min(10000, 500 * 2 ** S.retry);
  S.retry += 1;
  setConn("lost", { s: Math.round(delay / 100) / 10 });
  S.retryTimer = setTimeout(connect, delay);
}

/** Send an intent; false (and a note) when the socket is not open. */
export function send(obj) {
  setAlert(alertBox, "");
  if (!S.ws || S.ws.readyState !== WebSocket.OPEN) {
    setAlert(alertBox, t("conn.not_connected"));
    return false;
  }
  S.ws.send(JSON.stringify(obj));
  return true;
}

setInterval(() => { if (S.ws && S.ws.readyState === WebSocket.OPEN) S.ws.send('{"type":"ping"}'); }, 25000);

function onState(msg) {
  const prev = S.state;
  const prevSeq = prev?.seq;
  // our clock ran out (we sent nothing): the server played for us; say so
  const timedOut = myTurn() && !S.busy && S.deadlineAt !== null && S.deadlineAt - Date.now() < 1500 &&
    msg.view && prev.view && msg.view.hand_number === prev.view.hand_number &&
    msg.view.history?.[prev.view.history.length]?.seat === msg.you;
  S.state = msg;
  // a sent move is answered by the state that acknowledges it (or by any change of position)
  if (S.busy && (msg.seq !== prevSeq || msg.ack === S.moveId)) S.busy = false;
  if (msg.seq !== prevSeq) { S.selected = null; }
  if (S.hints && S.hintSeq !== msg.seq) S.hints = null;
  if (msg.ack !== null && msg.ack !== undefined) setAlert(alertBox, "");
  if (timedOut) notice(t("timer.timed_out"));
  S.deadlineAt = msg.deadline === null || msg.deadline === undefined ? null
    : Date.now() + msg.deadline * 1000;
  redraw();
}

/** A note that floats over the table for a few seconds (it pushes nothing down). */
function notice(text) {
  setAlert(alertBox, text);
  alertBox.classList.add("notice");
  clearTimeout(S.noticeTimer);
  S.noticeTimer = setTimeout(() => {
    if (alertBox.textContent === text) setAlert(alertBox, "");
    alertBox.classList.remove("notice");
  }, 6000);
}

function onError(msg) {
  alertBox.classList.remove("notice");
  if (msg.id === undefined || msg.id === null || msg.id === S.moveId) S.busy = false;
  setAlert(alertBox, msg.message ? serverWords(msg.message, msg.code, msg.params) : t("error.refused"));
  redraw();
}

function onHint(msg) {
  S.hints = msg.moves || [];
  S.hintSeq = S.state?.seq;
  renderHints();
}

// one function per server message type
const ON = { state: onState, error: onError, chat: onChat, hint: onHint, rematch: onRematchSeat };

function onMessage(msg) {
  const f = ON[msg.type];
  if (f) f(msg);
}
