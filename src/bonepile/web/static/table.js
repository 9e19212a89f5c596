// A table: the socket to the server, the layout, your hand, the actions and the score pad.
// Everything drawn comes from the latest "state" message (your seat's view only).
import { el, clear, api, getToken, setToken, dropToken, getName, setName, seatName, sideLabels,
         endWords, setAlert } from "/static/common.js";
import { drawBoard, lastPlayed, tileSVG, tileWords, fivesCount, movePoints, ARM_WORDS } from "/static/render.js";
import { renderPad, renderHands, tileRow } from "/static/panels.js";

const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const alertBox = $("alert");

const S = {
  token: getToken(tableId),
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
};

// ------------------------------------------------------------------ join
async function showJoin() {
  $("join").hidden = false;
  $("game").hidden = true;
  setConn("not joined");
  $("join-name").value = getName();
  let info;
  try { info = await api("GET", `/api/tables/${encodeURIComponent(tableId)}`); } catch (e) {
    setAlert(alertBox, `This table cannot be joined: ${e.message}`);
    $("join-form").hidden = true;
    return;
  }
  $("table-title").textContent = `${info.name || info.id} · ${info.variant}, ${info.players} players`;
  if (info.status === "over") {  // nothing to join: show how it ended
    $("join").hidden = true;
    setAlert(alertBox, "");
    showFinished();
    return;
  }
  const free = (info.seats || []).filter((s) => s.kind === "human" && !s.claimed);
  $("join-info").textContent = `${info.variant}, ${info.players} players, ${info.status}. ` +
    (free.length ? `${free.length} free seat${free.length === 1 ? "" : "s"}.` : "No free seat left.");
  const sel = clear($("join-seat"));
  for (const s of free) sel.appendChild(el("option", { value: s.seat }, `Seat ${s.seat}`));
  $("join-form").hidden = !free.length;
}

$("join-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const name = $("join-name").value.trim();
  if (!name) { setAlert(alertBox, "Please enter your name."); return; }
  setName(name);
  const body = { name };
  if ($("join-seat").value !== "") body.seat = Number($("join-seat").value);
  try {
    const res = await api("POST", `/api/tables/${encodeURIComponent(tableId)}/join`, body);
    setToken(tableId, res.token);
    S.token = res.token;
    setAlert(alertBox, "");
    $("join").hidden = true;
    connect();
  } catch (e) { setAlert(alertBox, `Could not join: ${e.message}`); }
});

/** A table that is no longer played here (finished): its final score, from storage. */
async function showFinished() {
  let info, rep;
  try {
    info = await api("GET", `/api/tables/${encodeURIComponent(tableId)}`);
    rep = await api("GET", `/api/tables/${encodeURIComponent(tableId)}/replay`);
  } catch (e) { return; }
  setAlert(alertBox, "");
  $("game").hidden = false;
  $("hand-card").hidden = info.status === "over";
  setConn(info.status === "over" ? "finished" : "not played here");
  const nm = Array.from({ length: info.players }, (_, s) => seatName(info, s));
  const sides = info.sides || rep.sides || nm.map((_, i) => [i]);
  $("table-title").textContent = `${info.name || info.id} · ${info.variant}, ${info.players} players · ${info.status}`;
  $("replay-link").href = `/replay?table=${encodeURIComponent(tableId)}`;
  $("record-link").href = `/api/tables/${encodeURIComponent(tableId)}/record`;
  const labels = sideLabels(info, sides);
  if (info.status === "over") renderBanner(info, sides, nm, null);
  $("turn").textContent = info.status === "over"
    ? `Game over${info.winner === null || info.winner === undefined ? "" : `: ${labels[info.winner]} won`}. Replay it from the link above.`
    : `This table is not being played on this server (${info.status}).`;
  renderPad($("pad"), (rep.hands || []).map((h) => h.result).filter(Boolean), {
    players: info.players, seatNames: nm, sideLabels: labels, shortSides: shortSides(sides, nm),
    totals: info.totals, resultOnly: info.variant === "billitonnen" });
  // the last hand as it ended: its layout, its moves and every hand
  const lastHand = (rep.hands || [])[rep.hands.length - 1];
  const fr = lastHand?.frames?.[lastHand.frames.length - 1]?.view;
  drawBoard($("board"), fr?.layout || null, { last: lastPlayed(fr?.history), emptyText: "Game over" });
  if (fr) {
    renderLog(fr, nm);
    const hands = fr.hands || fr.revealed;
    if (hands) {
      $("revealed").hidden = false;
      $("rev-title").textContent = `Hand ${lastHand.hand} as it ended`;
      $("hand-summary").textContent = "";
      renderHands($("revealed-rows"), hands, nm, {});
    }
  }
}

// ------------------------------------------------------------------ socket
function connect() {
  clearTimeout(S.retryTimer);
  S.retryTimer = null;
  $("game").hidden = false;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const url = `${proto}://${location.host}/ws/tables/${encodeURIComponent(tableId)}?token=${encodeURIComponent(S.token)}`;
  setConn("connecting…");
  let ws;
  try { ws = new WebSocket(url); } catch (e) { scheduleReconnect(); return; }
  S.ws = ws;
  ws.addEventListener("open", () => { S.retry = 0; setConn("connected"); });
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
      if (!alertBox.textContent) setAlert(alertBox, `The server closed the connection: ${ev.reason || `code ${ev.code}`}.`);
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
  if (!S.ws && S.token && !S.closedForGood && S.retryTimer !== null) {
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
  setConn(`connection lost, retrying in ${Math.round(delay / 100) / 10} s…`);
  S.retryTimer = setTimeout(connect, delay);
}

function setConn(text) {
  $("conn").textContent = text;
  document.body.dataset.conn = text === "connected" ? "1" : "0";
}

function send(obj) {
  setAlert(alertBox, "");
  if (!S.ws || S.ws.readyState !== WebSocket.OPEN) {
    setAlert(alertBox, "Not connected to the table; reconnecting…");
    return false;
  }
  S.ws.send(JSON.stringify(obj));
  return true;
}

setInterval(() => { if (S.ws && S.ws.readyState === WebSocket.OPEN) S.ws.send('{"type":"ping"}'); }, 25000);

function onMessage(msg) {
  if (msg.type === "state") {
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
    if (timedOut) setAlert(alertBox, "Your time ran out: the table played a move for you.");
    S.deadlineAt = msg.deadline === null || msg.deadline === undefined ? null
      : Date.now() + msg.deadline * 1000;
    render();
  } else if (msg.type === "error") {
    if (msg.id === undefined || msg.id === null || msg.id === S.moveId) S.busy = false;
    setAlert(alertBox, msg.message || "refused");
    render();
  } else if (msg.type === "chat") {
    addChat(msg.lines || []);
  } else if (msg.type === "hint") {
    S.hints = msg.moves || [];
    S.hintSeq = S.state?.seq;
    renderHints();
  }
}

// ------------------------------------------------------------------ chat
const seenChat = new Set();
function addChat(lines) {
  const box = $("chat");
  for (const line of lines) {
    const key = `${line.at}|${line.seat}|${line.text}`;
    if (seenChat.has(key)) continue; // the server resends recent lines after a reconnect
    seenChat.add(key);
    const li = document.createElement("li");
    const who = document.createElement("strong");
    who.textContent = line.name + ": ";  // text, never markup
    li.append(who, document.createTextNode(line.text));
    box.append(li);
  }
  while (box.children.length > 50) box.firstChild.remove();
  box.scrollTop = box.scrollHeight;
}
$("chat-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const input = $("chat-text");
  const text = input.value.trim();
  if (text && send({ type: "chat", text })) input.value = "";
});

// ------------------------------------------------------------------ actions
function playMove(token) {
  if (S.busy) return;
  S.moveId += 1;
  if (send({ type: "move", move: token, id: S.moveId })) {
    S.busy = true;
    S.selected = null;
    render();
  }
}

function legal() { return S.state?.view?.legal || []; }
function myTurn() {
  const st = S.state;
  return !!st && st.phase === "play" && st.view && st.view.to_move === st.you && !st.view.over;
}

function clickTile(name) {
  if (!myTurn()) { setAlert(alertBox, "It is not your turn."); return; }
  const moves = legal().filter((m) => m.kind === "play" && m.tile === name);
  if (!moves.length) { setAlert(alertBox, `${tileWords(name)} does not fit any open end.`); return; }
  setAlert(alertBox, "");
  if (moves.length === 1) { playMove(moves[0].move); return; }
  S.selected = S.selected === name ? null : name;
  render();
  const first = document.querySelector("#ends button");
  if (first) first.focus();
}

function doKind(kind) {
  const m = legal().find((x) => x.kind === kind);
  if (m && myTurn()) playMove(m.move);
}

$("draw").addEventListener("click", () => doKind("draw"));
$("pass").addEventListener("click", () => doKind("pass"));
$("hint").addEventListener("click", askHint);
$("next").addEventListener("click", () => {
  if (send({ type: "next" })) {
    // a keyboard user lands on the new hand's tiles once it is dealt
    S.focusHand = document.activeElement === $("next");
    $("next").disabled = true;
  }
});
$("takeover").addEventListener("click", () => send({ type: "takeover" }));
$("start").addEventListener("click", async () => {
  try {
    await api("POST", `/api/tables/${encodeURIComponent(tableId)}/start`, { token: S.token });
    setAlert(alertBox, "");
  } catch (e) { setAlert(alertBox, `Could not start: ${e.message}`); }
});
$("copy").addEventListener("click", async () => {
  const inp = $("invite");
  try { await navigator.clipboard.writeText(inp.value); }
  catch { inp.select(); document.execCommand && document.execCommand("copy"); }
  $("copy").textContent = "Copied";
  setTimeout(() => { $("copy").textContent = "Copy"; }, 1500);
});

function askHint() {
  if (!myTurn()) { setAlert(alertBox, "A hint is for your turn."); return; }
  if (send({ type: "hint" })) {
    S.hints = "asking";
    S.hintSeq = S.state?.seq;
    renderHints();
  }
}

document.addEventListener("keydown", (ev) => {
  const t = ev.target;
  if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const k = ev.key.toLowerCase();
  if (k === "d" && legal().some((m) => m.kind === "draw")) { ev.preventDefault(); doKind("draw"); }
  else if (k === "p" && legal().some((m) => m.kind === "pass")) { ev.preventDefault(); doKind("pass"); }
  else if (k === "h") { ev.preventDefault(); askHint(); }
  else if (k === "n" && !$("next").hidden && !$("next").disabled) { ev.preventDefault(); $("next").click(); }
  else if (k === "escape" && S.selected) { ev.preventDefault(); S.selected = null; render(); }
});

// ------------------------------------------------------------------ drawing
function names() {
  const st = S.state;
  const n = st?.table?.players || st?.view?.players || 0;
  return Array.from({ length: n }, (_, s) => seatName(st.table, s));
}

function render() {
  const st = S.state;
  if (!st) return;
  // keep the keyboard focus on the same tile or button across redraws
  const act = document.activeElement;
  const keep = act && act !== document.body ? {
    tile: act.dataset?.tile, end: act.dataset?.end, arm: act.closest?.(".end-choice")?.dataset.arm,
    hint: act.dataset?.hintMove, id: act.id } : null;
  draw(st);
  if (keep) {
    let target = null;
    if (keep.tile) target = document.querySelector(`#hand button[data-tile="${CSS.escape(keep.tile)}"], #flip button[data-tile="${CSS.escape(keep.tile)}"]`);
    else if (keep.end) target = document.querySelector(`#ends button[data-end="${CSS.escape(keep.end)}"]`);
    else if (keep.arm) target = document.querySelector(`#board .end-choice[data-arm="${CSS.escape(keep.arm)}"]`);
    else if (keep.hint) target = document.querySelector(`#hints button[data-hint-move="${CSS.escape(keep.hint)}"]`);
    else if (keep.id) target = document.getElementById(keep.id);
    if (target && target.closest("[hidden]")) target = null;
    // the tile was played (or its end chosen): stay in the hand
    if (!target && (keep.tile || keep.end || keep.arm)) target = document.querySelector("#hand-card:not([hidden]) #hand button.tile-btn");
    // the hand ended under the keyboard: go on to Next hand (or the leader choice)
    if (!target && (keep.tile || keep.end || keep.arm || keep.id === "draw" || keep.id === "pass")) {
      target = document.querySelector("#next:not([hidden]):not(:disabled), #leader:not([hidden]) button");
    }
    if (target && target !== document.activeElement && !target.hidden) target.focus({ preventScroll: true });
  }
  if (S.focusHand && st.phase === "play") {
    const first = document.querySelector("#hand-card:not([hidden]) #hand button.tile-btn");
    if (first) { S.focusHand = false; first.focus({ preventScroll: true }); }
  }
}

function draw(st) {
  const table = st.table || {};
  const view = st.view;
  const you = st.you;
  const nm = names();
  document.title = `bonepile: ${table.name || table.id || tableId}`;
  $("table-title").textContent = `${table.name || table.id || tableId} · ${table.variant}, ${table.players} players · ${table.status}`;
  $("record-link").href = `/api/tables/${encodeURIComponent(tableId)}/record`;
  $("record-link").setAttribute("download", `bonepile-${tableId}.record.json`);
  $("replay-link").href = `/replay?table=${encodeURIComponent(tableId)}`;
  document.body.dataset.phase = st.phase;
  document.body.dataset.seq = String(st.seq);
  document.body.dataset.myTurn = myTurn() && !st.forced ? "1" : "0";
  document.body.dataset.busy = S.busy ? "1" : "0";

  renderSeats(st, nm);

  // the board
  const choices = [];
  if (S.selected && myTurn()) {
    for (const m of legal()) {
      if (m.kind === "play" && m.tile === S.selected && m.arm) {
        choices.push({ arm: m.arm, move: m.move,
          label: `play ${tileWords(m.tile)} on the ${ARM_WORDS[m.arm]} end (${view.layout.ends?.[m.arm]})` });
      }
    }
  }
  const board = $("board");
  if (view) {
    drawBoard(board, view.layout, { last: lastPlayed(view.history), choices, onChoose: playMove,
      emptyText: st.phase === "play" ? `${nm[view.to_move] ?? ""} leads` : "" });
    board.setAttribute("aria-label", describeLayout(view));
  } else {
    drawBoard(board, null, { emptyText: st.phase === "waiting" ? "Waiting for players" : "" });
  }

  renderRows(view, nm, you);
  renderHand(view, you);
  renderActions(st, view, nm, choices);
  renderTurn(st, view, nm);
  renderPad($("pad"), st.pad || [], {
    players: table.players || view?.players, seatNames: nm,
    sideLabels: sideLabels(table, view?.sides || table.sides || sidesFromPad(st, table)),
    shortSides: shortSides(view?.sides || table.sides || sidesFromPad(st, table), nm),
    totals: table.totals || null,
    inPlay: view && !view.over ? view.hand_points : null,
    resultOnly: table.variant === "billitonnen",
  });
  renderBoardInfo(view, nm);
  renderLog(view, nm);
  renderEnd(st, view, nm);
  renderHints();
  tick();
  // waiting room
  $("waiting").hidden = st.phase !== "waiting";
  $("invite").value = `${location.origin}/t/${tableId}`;
}

function shortSides(sides, nm) {
  return sides.map((side, i) => (side.length > 1 ? `Team ${i + 1}` : nm[side[0]]));
}

function sidesFromPad(st, table) {
  const n = (st.pad?.[0]?.points || table.totals || []).length || table.players || 0;
  return Array.from({ length: n }, (_, i) => [i]);
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

function renderBoardInfo(view, nm) {
  const box = clear($("board-info"));
  if (!view) return;
  const lay = view.layout || {};
  const ends = Object.entries(lay.ends || {});
  if (lay.first && ends.length) {
    const dbl = new Set(lay.double_ends || []);
    const parts = ends.map(([a, p]) => `${a} ${p}${dbl.has(a) ? " (double)" : ""}`);
    let text = `Open ends: ${parts.join(", ")}`;
    if (view.variant === "cinque") {
      const count = fivesCount(lay);
      text += ` · count ${count}${count > 0 && count % 5 === 0 ? " (a multiple of five)" : ""}`;
    }
    box.appendChild(el("span", { "data-info": "ends" }, text));
  }
  if (view.boneyard_size || view.boneyard) {
    box.appendChild(el("span", { "data-info": "boneyard" },
      view.blind ? `Undealt: ${view.boneyard_size}` : `Boneyard: ${view.boneyard} to draw` +
        (view.boneyard_size > view.boneyard ? ` (${view.boneyard_size - view.boneyard} kept back)` : "")));
  }
  if (view.round_bonus) box.appendChild(el("span", {}, `Round bonus: ${view.round_bonus}`));
  const lead = view.leader;
  if (lead !== null && lead !== undefined) box.appendChild(el("span", {}, `Hand ${view.hand_number}, led by ${nm[lead]}`));
}

function renderSeats(st, nm) {
  // you at the bottom of the felt, the others across the top as they sit: play passes to the
  // right (counter-clockwise), so the player after you is on your right, the one before on your left
  const box = clear($("seats"));
  const mine = clear($("my-seat"));
  const view = st.view;
  const n = nm.length;
  const order = [st.you, ...Array.from({ length: n - 1 }, (_, i) => (st.you + n - 1 - i) % n)];
  for (const s of order) {
    const info = st.table?.seats?.find((x) => x.seat === s) || {};
    const side = view?.sides?.findIndex((x) => x.includes(s));
    const badges = [];
    if (s === st.you) badges.push(el("span", { class: "badge" }, "you"));
    if (info.kind === "bot") badges.push(el("span", { class: "badge bot" }, `bot ${info.level || ""}`.trim()));
    if (info.kind === "human" && !info.claimed) badges.push(el("span", { class: "badge off" }, "free seat"));
    else if (info.kind === "human" && info.connected === false) badges.push(el("span", { class: "badge off" }, "offline"));
    if (info.bot_playing) badges.push(el("span", { class: "badge bot", "data-bot-playing": s }, "bot playing"));
    if (view && view.to_move === s && st.phase === "play") badges.push(el("span", { class: "badge turn" }, "to play"));
    const count = view?.tile_counts?.[s];
    const cls = ["seat-box"];
    if (view && view.to_move === s && st.phase === "play") cls.push("to-move");
    if (s === st.you) cls.push("you");
    const details = el("div", { class: "small" },
      count === undefined ? "" : `${count} tile${count === 1 ? "" : "s"}`,
      view && view.sides && view.sides.length < view.players ? ` · team ${side + 1}` : "",
      view && s === view.leader ? " · led" : "");
    const words = [nm[s], ...badges.map((b) => b.textContent), details.textContent.replaceAll(" · ", ", ")]
      .filter(Boolean).join(", ");
    (s === st.you ? mine : box).appendChild(el("div", { class: cls.join(" "), "data-seat": s, role: "group",
      "aria-label": words },
      el("div", { "aria-hidden": "true" }, el("span", { class: "name" }, nm[s]), ...badges),
      el("div", { "aria-hidden": "true", class: "small" }, ...details.childNodes)));
  }
}

function renderRows(view, nm, you) {
  const box = $("rows");
  const felt = box.closest(".felt");
  felt.classList.toggle("blind", !!view?.blind);
  // the rows sit in columns of at least 18rem (as the stylesheet's grid does)
  const cols = Math.max(1, Math.floor((felt.clientWidth - 20) / (18 * 16 + 16)));
  felt.style.setProperty("--rows", view?.blind ? Math.ceil(view.players / cols) : 0);
  if (!view || !view.blind) { box.hidden = true; return; }
  box.hidden = false;
  clear(box);
  for (let s = 0; s < view.players; s++) {
    const count = view.tile_counts[s] || 0;
    const faceUp = new Map((view.face_up?.[s] || []).map(([pos, t]) => [pos, t]));
    const line = el("div", { class: "row-line", "data-row": s },
      el("span", { class: "row-name" }, `${nm[s]}${s === you ? " (you)" : ""}`));
    const total = Math.max(count, ...[...faceUp.keys()].map((p) => p + 1), 0);
    for (let i = 0; i < total; i++) {
      if (faceUp.has(i)) line.appendChild(tileSVG(faceUp.get(i), { label: `${tileWords(faceUp.get(i))}, face up` }));
      else line.appendChild(tileSVG(null, { back: true, label: "face down" }));
    }
    box.appendChild(line);
  }
}

function tileButton(name, playable, extra = "") {
  const label = `${tileWords(name)}${playable ? ", playable" : ""}${extra}`;
  const b = el("button", { type: "button", class: `tile-btn${playable ? " playable" : ""}${S.selected === name ? " selected" : ""}`,
    "aria-label": label, "data-tile": name, "aria-disabled": playable && !S.busy ? "false" : "true",
    "aria-pressed": S.selected === name ? "true" : null });
  b.appendChild(tileSVG(name));
  b.addEventListener("click", () => { if (!S.busy) clickTile(name); });
  return b;
}

function renderHand(view, you) {
  const box = clear($("hand"));
  const flip = $("flip");
  clear(flip);
  flip.hidden = true;
  box.classList.toggle("blind", !!view?.blind);
  if (!view) return;
  const playable = new Set(myTurn() ? legal().filter((m) => m.kind === "play").map((m) => m.tile) : []);
  if (view.blind) {
    $("hand-title").textContent = "Your row";
    if (view.turned_up) {
      flip.hidden = false;
      const who = view.to_move === you ? "You turned up" : `${names()[view.to_move] ?? "The player to move"} turned up`;
      flip.appendChild(el("span", {}, who));
      if (view.to_move === you) flip.appendChild(tileButton(view.turned_up, playable.has(view.turned_up), ", turned up"));
      else flip.appendChild(tileSVG(view.turned_up, { label: `${tileWords(view.turned_up)}, turned up` }));
      if (view.peek && view.to_move === you) {
        // Billitonnen: the tile fits both ends, so you may look at your row's next tile first
        flip.appendChild(el("span", { class: "peek", "data-peek": view.peek },
          el("span", {}, "Your next tile (peek):"),
          tileSVG(view.peek, { label: `${tileWords(view.peek)}, your next tile (peek)` })));
      }
    }
    if (!view.hand.length) box.appendChild(el("span", { class: "small muted" },
      `${view.tile_counts[you]} tile${view.tile_counts[you] === 1 ? "" : "s"} in your row (shown on the table above).`));
  } else {
    $("hand-title").textContent = "Your tiles";
  }
  for (const t of view.hand) box.appendChild(tileButton(t, playable.has(t)));
}

function renderActions(st, view, nm, choices) {
  const turn = myTurn();
  const kinds = new Set(turn ? legal().map((m) => m.kind) : []);
  $("draw").hidden = !kinds.has("draw");
  $("pass").hidden = !kinds.has("pass");
  $("draw").disabled = $("pass").disabled = S.busy || !!st.forced;
  $("hint").hidden = !turn;
  // end choice
  const ends = clear($("ends"));
  if (choices.length || (S.selected && turn)) {
    ends.hidden = false;
    ends.appendChild(el("span", { class: "small" }, `Play ${tileWords(S.selected)} on:`));
    const list = choices.length ? choices
      : legal().filter((m) => m.tile === S.selected).map((m) => ({ arm: m.arm, move: m.move, label: m.move }));
    for (const c of list) {
      const pip = view?.layout?.ends?.[c.arm];
      ends.appendChild(el("button", { type: "button", class: "primary", "data-end": c.arm || c.move,
        "aria-label": c.label, onclick: () => playMove(c.move) },
        c.arm ? `${ARM_WORDS[c.arm]} (${c.arm}${pip !== undefined ? ` · ${pip}` : ""})` : c.move));
    }
    ends.appendChild(el("button", { type: "button", onclick: () => { S.selected = null; render(); } }, "Cancel"));
  } else ends.hidden = true;
  // next hand
  const next = $("next");
  const ready = st.ready || [];
  next.hidden = st.phase !== "hand_over";
  next.disabled = ready.includes(st.you);
  // leader choice
  const lead = clear($("leader"));
  lead.hidden = true;
  if (st.phase === "leader" && st.pending?.kind === "leader") {
    const side = view?.sides?.find((x) => x.includes(st.you)) || [st.you];
    const mine = (st.pending.seats || []).some((s) => side.includes(s));
    lead.hidden = false;
    if (mine) {
      if (Array.isArray(st.pending.hand) && st.pending.hand.length) {
        lead.appendChild(el("span", { class: "small" }, "Your next tiles:"));
        lead.appendChild(tileRow(st.pending.hand));
      }
      lead.appendChild(el("span", { class: "small" }, "Your side won: who leads the next hand?"));
      for (const s of st.pending.seats) {
        lead.appendChild(el("button", { type: "button", class: "primary", "data-leader": s,
          onclick: () => send({ type: "leader", seat: s }) }, s === st.you ? "I lead" : `${nm[s]} leads`));
      }
    } else {
      lead.appendChild(el("span", { class: "small" },
        `Waiting for ${st.pending.seats.map((s) => nm[s]).join(" or ")} to choose who leads.`));
    }
  }
  // take my seat back
  const me = st.table?.seats?.find((x) => x.seat === st.you);
  $("takeover").hidden = !(me && me.bot_playing);
  // start now
  $("start").hidden = st.phase !== "waiting";
}

function renderTurn(st, view, nm) {
  let text = "";
  if (st.phase === "waiting") text = "Waiting for players to join.";
  else if (st.phase === "over") {
    text = overText(st.table, view?.sides || st.table?.sides || [], names(), st.you);
  } else if (st.phase === "hand_over") text = "Hand over.";
  else if (st.phase === "leader") text = "Choosing the next leader.";
  else if (view) {
    if (myTurn()) {
      text = S.busy ? "Sent…" : st.forced ? "Your turn: forced, the table plays it for you." : "Your turn.";
      if (S.selected) text += ` Choose the end for ${tileWords(S.selected)}.`;
    } else text = `${nm[view.to_move] ?? "?"} to play.`;
  }
  $("turn").textContent = text;
}

function renderLog(view, nm) {
  const box = clear($("log"));
  if (!view) return;
  const pts = view.variant === "cinque" ? movePoints(view.history, view.layout) : [];
  const lines = [];
  (view.history || []).forEach((h, i) => {
    let t;
    if (h.action === "play") t = `${nm[h.seat]} plays ${h.tile}${h.arm ? ` on ${ARM_WORDS[h.arm] || h.arm}` : ""}`;
    else if (h.action === "draw") t = `${nm[h.seat]} draws${h.tile ? ` ${h.tile}` : ""}`;
    else if (h.action === "pass") t = `${nm[h.seat]} passes${h.tile ? ` (turned up ${h.tile})` : ""}`;
    else t = `${nm[h.seat]} ${h.action}`;
    const li = el("li", {}, t, pts[i] ? el("span", { class: "pts", "data-points": pts[i] }, ` scores ${pts[i]}`) : null);
    lines.push(li.textContent);
    box.appendChild(li);
  });
  box.scrollTop = box.scrollHeight;
  // the list is redrawn on every state: a screen reader hears only the moves that are new
  const key = `${view.hand_number}`;
  if (S.logKey === key && lines.length > S.logLen) $("announce").textContent = lines.slice(S.logLen).join(". ");
  S.logKey = key;
  S.logLen = lines.length;
}

/** The game's result in words: who won and the final score. */
function overText(table, sides, nm, you) {
  const w = table?.winner;
  if (w === null || w === undefined) return "Game over.";
  const labels = sideLabels(table, sides);
  const short = shortSides(sides, nm);
  const who = short[w] !== labels[w] ? `${short[w]} (${labels[w]})` : labels[w];
  const totals = table?.totals || [];
  const others = totals.map((t, i) => [t, i]).filter(([, i]) => i !== w);
  const score = totals.some((t) => t)
    ? `, ${totals[w]} to ${others.map(([t, i]) => (others.length > 1 ? `${short[i]} ${t}` : String(t))).join(", ")}` : "";
  const mine = sides?.[w]?.includes(you);
  return `Game over: ${who} won${score}.${you === undefined || you === null ? "" : mine ? " You won!" : ""}`;
}

function renderBanner(table, sides, nm, you) {
  const box = clear($("banner"));
  box.hidden = false;
  box.appendChild(el("strong", { "data-banner": "over" }, overText(table, sides, nm, you)));
  box.appendChild(el("span", { class: "banner-links" },
    el("a", { href: `/replay?table=${encodeURIComponent(tableId)}`, id: "banner-replay" }, "Watch the replay"),
    el("a", { href: "/" }, "Back to the lobby")));
}

function renderEnd(st, view, nm) {
  const box = $("revealed");
  const done = view && view.over && view.revealed;
  box.hidden = !done;
  $("hand-card").hidden = (!!done && ["hand_over", "over", "leader"].includes(st.phase)) || st.phase === "waiting";
  if (st.phase === "over") renderBanner(st.table, view?.sides || st.table?.sides || [], nm, st.you);
  else $("banner").hidden = true;
  if (!done) return;
  const line = (st.pad || []).find((p) => p.hand === view.hand_number) || (st.pad || [])[st.pad.length - 1];
  const labels = sideLabels(st.table, view.sides);
  const short = shortSides(view.sides, nm);
  const named = (i) => (short[i] !== labels[i] ? `${short[i]} (${labels[i]})` : labels[i]);
  let summary = `Hand ${view.hand_number}: ${endWords(view.end)}`;
  if (line) {
    summary += line.winner === null || line.winner === undefined ? ", no winner" : `, won by ${named(line.winner)}`;
    if (view.variant !== "billitonnen") summary += `; points ${line.points.map((p, i) => `${short[i]} ${p}`).join(", ")}`;
  }
  $("rev-title").textContent = st.phase === "over" ? "Game over" : "Hand over";
  $("hand-summary").textContent = summary + ".";
  renderHands($("revealed-rows"), view.revealed, nm, { you: st.you });
  const ready = st.ready || [];
  const humans = (st.table?.seats || []).filter((s) => s.kind === "human" && !s.bot_playing).map((s) => s.seat);
  const waiting = humans.filter((s) => !ready.includes(s));
  $("ready-line").textContent = st.phase === "hand_over"
    ? (waiting.length ? `Waiting for ${waiting.map((s) => nm[s]).join(", ")} to press Next hand.` : "Dealing…")
    : "";
}

function moveWords(tok) {
  if (tok === "draw" || tok === "pass") return tok;
  const [tile, arm] = String(tok).split("@");
  return arm ? `${tile} on ${ARM_WORDS[arm] || arm}` : `lead ${tile}`;
}

function renderHints() {
  const box = $("hints");
  if (!S.hints) { box.hidden = true; return; }
  box.hidden = false;
  clear(box);
  if (S.hints === "asking") { box.appendChild(el("p", { class: "small" }, "The expert is thinking…")); return; }
  box.appendChild(el("p", { class: "small" }, "The expert's view, best first (click to play):"));
  const ol = el("ol");
  for (const h of S.hints) {
    const pts = typeof h.points === "number" ? `${h.points >= 0 ? "+" : ""}${h.points.toFixed(1)} pts` : "";
    const win = typeof h.win === "number" ? `, wins the hand ${Math.round(h.win * 100)}%` : "";
    const playable = legal().some((m) => m.move === h.move) && myTurn();
    ol.appendChild(el("li", {}, playable
      ? el("button", { type: "button", class: "small", "data-hint-move": h.move, onclick: () => playMove(h.move) }, moveWords(h.move))
      : el("span", {}, moveWords(h.move)), ` ${pts}${win}${h.reason ? ` — ${h.reason}` : ""}`));
  }
  box.appendChild(ol);
}

// timer
function tick() {
  const t = $("timer");
  if (S.deadlineAt === null || !S.state || S.state.phase !== "play") { t.textContent = ""; return; }
  const left = Math.max(0, Math.ceil((S.deadlineAt - Date.now()) / 1000));
  // the server tells only the player to move how long is left
  t.textContent = myTurn() ? `Time left: ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}` : "";
  t.classList.toggle("low", left <= 10);
}
setInterval(tick, 250);

// ------------------------------------------------------------------ start
if (!tableId) setAlert(alertBox, "No table id in the address.");
else if (S.token) connect();
else showJoin();
