// Joining a table (a name and a free seat), and a table no longer played here: how it ended.
import { $, $field, el, clear, api, setToken, getName, setName, seatName, sideLabels, setAlert } from "/static/common.js";
import { drawBoard, lastPlayed } from "/static/render.js";
import { renderHands } from "/static/panels.js";
import { store, tableId, invite, alertBox } from "/static/table/state.js";
import { shortSides, setConn, gameLabel } from "/static/table/words.js";
import { renderBanner } from "/static/table/end.js";
import { renderLog } from "/static/table/log.js";
import { renderScorePad } from "/static/table/pad.js";
import { t } from "/static/i18n.js";
import { ensureProfile, profileHeaders } from "/static/profile.js";

/** @typedef {import("/static/messages.js").TableInfo} TableInfo */

/** @type {() => void} */
let joinedFn = () => {};

/** Watch the table: a socket with no seat token (the server sends what everybody sees). */
function watchTable() {
  store.setWatching();
  $("join").hidden = true;
  setAlert(alertBox, "");
  joinedFn();
}

export async function showJoin() {
  // the form is shown once the table's free seats are known (never an empty seat list)
  $("game").hidden = true;
  setConn("not_joined");
  $field("join-name").value = getName();
  /** @type {TableInfo} */
  let info;
  try { info = await api("GET", `/api/tables/${encodeURIComponent(tableId)}`); } catch (e) {
    setAlert(alertBox, t("join.cannot", { error: e.message }));
    $("join-form").hidden = true;
    $("join").hidden = false;
    return;
  }
  $("table-title").textContent = t("lobby.game_players", { game: gameLabel(info.variant), n: info.players });
  if (info.status === "over") {  // nothing to join: show how it ended
    $("join").hidden = true;
    setAlert(alertBox, "");
    showFinished();
    return;
  }
  if (info.status === "playing") {  // nothing to join (every seat is taken): watch it
    watchTable();
    return;
  }
  const free = (info.seats || []).filter((s) => s.kind === "human" && !s.claimed);
  const status = ["waiting", "playing", "over"].includes(info.status) ? t(`join.status.${info.status}`) : "";
  $("join-info").textContent = `${t("lobby.game_players", { game: gameLabel(info.variant), n: info.players })}, ${status}. ` +
    (free.length ? t("join.free", { n: free.length }) : t("join.full"));
  const sel = clear($("join-seat"));
  const nm = Array.from({ length: info.players }, (_, s) => seatName(info, s));
  for (const s of free) {
    const partner = (info.sides || []).find((side) => side.length > 1 && side.includes(s.seat))?.find((x) => x !== s.seat);
    sel.appendChild(el("option", { value: s.seat }, partner === undefined ? t("join.seat_n", { n: s.seat + 1 })
      : t("join.seat_partner", { n: s.seat + 1, name: nm[partner] })));
  }
  $("join-form").hidden = !free.length;
  $("join").hidden = false;
  if (!document.getElementById("watch-instead")) {
    $("join").appendChild(el("p", {}, el("button", { type: "button", id: "watch-instead", onclick: watchTable },
      t("spectate.watch_instead"))));
  }
}

/** The join form; `joined()` connects once the server gave a seat token.
 * @param {() => void} joined */
export function bindJoin(joined) {
  joinedFn = joined;
  $("join-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const name = $field("join-name").value.trim();
    if (!name) { setAlert(alertBox, t("lobby.need_name")); return; }
    setName(name);
    /** @type {{name: string, invite?: string, seat?: number}} */
    const body = { name };
    if (invite) body.invite = invite;  // a private table's secret, from its invite link
    if ($field("join-seat").value !== "") body.seat = Number($field("join-seat").value);
    try {
      await ensureProfile(name);  // the seat is tied to this browser's profile
      const res = await api("POST", `/api/tables/${encodeURIComponent(tableId)}/join`, body, profileHeaders());
      setToken(tableId, res.token);
      store.setSeat(res.token);
      setAlert(alertBox, "");
      $("join").hidden = true;
      joined();
    } catch (e) { setAlert(alertBox, t("join.failed", { error: e.message })); }
  });
}

/** A table that is no longer played here (finished): its final score, from storage. */
export async function showFinished() {
  /** @type {TableInfo} */
  let info;
  /** The table's replay's index: its hands, each with its result.
   * @type {{sides?: number[][], hands?: {hand: number, result?: import("/static/panels.js").PadLine}[]}} */
  let rep;
  /** The last hand's positions (asked for on their own: a replay sends one hand at a time).
   * @type {{view: import("/static/messages.js").View & {hands?: string[][]}}[]} */
  let lastFrames = [];
  try {
    info = await api("GET", `/api/tables/${encodeURIComponent(tableId)}`);
  } catch (e) { return; }
  // a replay the server will not send (its worker busy or away) still leaves the table's
  // result to show
  try { rep = await api("GET", `/api/tables/${encodeURIComponent(tableId)}/replay`); } catch (e) { rep = {}; }
  const shown = rep.hands?.length ?? 0;
  if (shown) {
    try {
      lastFrames = (await api("GET", `/api/tables/${encodeURIComponent(tableId)}/replay/${shown}`)).frames || [];
    } catch (e) { lastFrames = []; }
  }
  setAlert(alertBox, "");
  $("game").hidden = false;
  $("hand-card").hidden = info.status === "over";
  // no seat here, so no socket: the chat cannot be joined
  if (!store.ws) {
    $("chat-form").hidden = true;
    if (!$("chat").children.length) $("chat").appendChild(el("li", { class: "muted" }, t("chat.players_only")));
  }
  setConn(info.status === "over" ? "finished" : "not_here");
  const nm = Array.from({ length: info.players }, (_, s) => seatName(info, s));
  const sides = info.sides || rep.sides || nm.map((_, i) => [i]);
  const own = info.name && info.named !== false ? info.name : "";
  $("table-title").textContent = own ? `${gameLabel(info.variant)} · ${own}` : gameLabel(info.variant);
  /** @type {HTMLAnchorElement} */ ($("replay-link")).href = `/replay?table=${encodeURIComponent(tableId)}`;
  /** @type {HTMLAnchorElement} */ ($("record-link")).href = `/api/tables/${encodeURIComponent(tableId)}/record`;
  const labels = sideLabels(info, sides);
  if (info.status === "over") renderBanner(info, sides, nm, null);
  $("turn").textContent = info.status === "over"
    ? `${info.winner === null || info.winner === undefined ? t("end.game_over_plain") : t("end.game_over_won", { who: labels[info.winner] })} ${t("join.replay_it")}`
    : t("join.not_here", { status: ["waiting", "playing", "over"].includes(info.status) ? t(`join.status.${info.status}`) : info.status });
  const played = rep.hands || [];
  renderScorePad(played.flatMap((h) => (h.result ? [h.result] : [])), info, sides, nm, {});
  // the last hand as it ended: its layout, its moves and every hand
  const lastHand = played[played.length - 1];
  const fr = lastFrames[lastFrames.length - 1]?.view;
  drawBoard(/** @type {SVGSVGElement} */ (document.querySelector("svg#board")), fr?.layout || null, { last: lastPlayed(fr?.history), names: nm, emptyText: t("end.game_over") });
  if (fr) {
    renderLog(fr, nm);
    const hands = fr.hands || fr.revealed;
    if (hands) {
      $("revealed").hidden = false;
      $("rev-title").textContent = t("join.hand_ended", { hand: lastHand.hand });
      $("hand-summary").textContent = "";
      renderHands($("revealed-rows"), hands, nm, {});
    }
  }
}
