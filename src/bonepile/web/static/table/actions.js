// What you do at the table: play a tile (choosing its end when it fits two), draw, pass,
// ask for a hint, next hand, take your seat back, start now; and the keys for them.
import { $, $field, $button, api, setAlert } from "/static/common.js";
import { tileWords } from "/static/render.js";
import { store, tableId, alertBox } from "/static/table/state.js";
import { send } from "/static/table/socket.js";
import { t } from "/static/i18n.js";
import { renderHints } from "/static/table/hints.js";

/** @param {string} token */
export function playMove(token) {
  if (store.busy) return;
  if (send({ type: "move", move: token, id: store.nextMoveId() })) {
    store.moveSent();
    store.redraw();
  }
}

/** @param {string} name */
export function clickTile(name) {
  if (!store.myTurn()) { setAlert(alertBox, t("error.not_your_turn")); return; }
  const moves = store.legal().filter((m) => m.kind === "play" && m.tile === name);
  if (!moves.length) { setAlert(alertBox, t("hand.no_fit", { tile: tileWords(name) })); return; }
  setAlert(alertBox, "");
  // both ends alike (the server's `decision`): nothing to choose
  if (new Set(moves.map((m) => m.decision)).size === 1) { playMove(moves[0].move); return; }
  store.select(store.selected === name ? null : name);
  store.redraw();
  const first = /** @type {HTMLElement | null} */ (document.querySelector("#ends button"));
  if (first) first.focus();
  // the whole choice in sight (Cancel too), also where the dock scrolls (a phone on its side)
  $("ends").scrollIntoView({ block: "nearest" });
}

/** A tile dropped on the board at the end `arm` (an arm it fits).
 * @param {string} name @param {string | null} arm */
export function dropTile(name, arm) {
  if (!store.myTurn()) return;
  const m = store.legal().find((x) => x.kind === "play" && x.tile === name && x.arm === arm)
    || store.legal().find((x) => x.kind === "play" && x.tile === name);
  if (m) playMove(m.move);
}

export function cancelChoice() {
  store.select(null);
  store.redraw();
}

/** @param {string} kind */
function doKind(kind) {
  const m = store.legal().find((x) => x.kind === kind);
  if (m && store.myTurn()) playMove(m.move);
}

/** @param {number} seat */
export function chooseLeader(seat) { send({ type: "leader", seat }); }

function askHint() {
  if (!store.myTurn()) { setAlert(alertBox, t("error.hint_turn")); return; }
  if (send({ type: "hint" })) {
    store.askHint();
    renderHints();
  }
}

/** The buttons and keys of the page (once). */
export function bindActions() {
  $("draw").addEventListener("click", () => doKind("draw"));
  $("pass").addEventListener("click", () => doKind("pass"));
  $("hint").addEventListener("click", askHint);
  $("next").addEventListener("click", () => {
    if (send({ type: "next" })) {
      // a keyboard user lands on the new hand's tiles once it is dealt
      store.setFocusHand(document.activeElement === $("next"));
      $button("next").disabled = true;
    }
  });
  $("takeover").addEventListener("click", () => send({ type: "takeover" }));
  $("start").addEventListener("click", async () => {
    store.setFocusHand(true);  // once dealt, the keyboard is on your tiles
    try {
      await api("POST", `/api/tables/${encodeURIComponent(tableId)}/start`, { token: store.token });
      setAlert(alertBox, "");
    } catch (e) { setAlert(alertBox, t("common.start_failed", { error: e.message })); }
  });
  $("copy").addEventListener("click", async () => {
    const inp = $field("invite");
    try { await navigator.clipboard.writeText(inp.value); }
    catch { inp.select(); document.execCommand && document.execCommand("copy"); }
    $("copy").textContent = t("table.copied");
    setTimeout(() => { $("copy").textContent = t("table.copy"); }, 1500);
  });
  document.addEventListener("keydown", onKey);
}

/** @param {KeyboardEvent} ev */
function onKey(ev) {
  const t = /** @type {HTMLElement | null} */ (ev.target);
  if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const k = ev.key.toLowerCase();
  if (k === "d" && store.legal().some((m) => m.kind === "draw")) { ev.preventDefault(); doKind("draw"); }
  else if (k === "p" && store.legal().some((m) => m.kind === "pass")) { ev.preventDefault(); doKind("pass"); }
  else if (k === "h") { ev.preventDefault(); askHint(); }
  else if (k === "n" && !$("next").hidden && !$button("next").disabled) { ev.preventDefault(); $("next").click(); }
  else if (k === "escape" && store.selected) { ev.preventDefault(); cancelChoice(); }
}
