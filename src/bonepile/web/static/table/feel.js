// The table's feel: after every redraw, the moves new since the last state move their tiles
// (motion.js) and make their sounds (sound.js); the clock ticks in its last seconds.  A state
// seen for the first time (the page opened, a reconnect that missed many moves, a new hand)
// is drawn as it is: nothing flies and nothing sounds for moves nobody saw being made.
import { store, tableId } from "/static/table/state.js";
import { animate } from "/static/table/motion.js";
import { sound, mountMute } from "/static/table/sound.js";
import { mountZoom } from "/static/table/zoom.js";
import { LOW } from "/static/table/timer.js";

/** @typedef {import("/static/messages.js").StateMessage} StateMessage */
/** @typedef {import("/static/messages.js").View} View */
/** @typedef {import("/static/messages.js").MoveEvent} MoveEvent */
/** What the last state showed: its hand, its moves, your tiles, every seat's count.
 * @typedef {{key: string | null, len: number, hand: string[], counts: number[], over: boolean}} Seen */

/** @type {Seen} */
let seen = { key: null, len: 0, hand: [], counts: [], over: false };

/** The moves of `view` not in the last state seen (none on a first sight or a catch-up).
 * @param {StateMessage & {view: View}} st */
function freshMoves(st) {
  const view = st.view;
  const key = `${tableId}|${view.hand_number}`;
  const hist = view.history || [];
  if (seen.key !== key || hist.length < seen.len) return { key, fresh: [], first: true };
  const fresh = hist.slice(seen.len);
  // a reconnect after a long break: the moves missed are in the log, not acted out
  const limit = 2 * Math.max(2, view.players || st.table?.players || 4);
  return { key, fresh: fresh.length > limit ? [] : fresh, first: false };
}

/** A bonus on top of the hand's points (the pad's parts after the first that are not 0).
 * @param {StateMessage} st @param {View} view */
function bonusIn(st, view) {
  const line = (st.pad || []).find((p) => p.hand === view.hand_number);
  const parts = line?.sum || [];
  return parts.slice(1).some((k) => Number(line?.breakdown?.[k]) > 0);
}

/** @param {StateMessage} st @param {View} view @param {MoveEvent[]} fresh @param {boolean} first */
function sounds(st, view, fresh, first) {
  // several moves in one state (a fast table): a few sounds one after the other
  fresh.slice(-4).forEach((h, i) => {
    const name = h.action === "play" ? "play" : h.action === "draw" ? "draw" : h.action === "pass" ? "pass" : null;
    if (name) setTimeout(() => sound(name), i * 130);
  });
  if (!first && view.over && !seen.over && view.end === "domino") {
    setTimeout(() => sound(bonusIn(st, view) ? "bonus" : "domino"), Math.min(fresh.length, 4) * 130 + 120);
  }
}

/** Call after the table's views were drawn from store.state.
 * @param {StateMessage | null} st */
export function feel(st) {
  const view = st?.view;
  if (!st || !view) { seen = { key: null, len: 0, hand: [], counts: [], over: false }; return; }
  const { key, fresh, first } = freshMoves(/** @type {StateMessage & {view: View}} */ (st));
  animate(st, fresh, seen);
  if (fresh.length || (!first && view.over !== seen.over)) sounds(st, view, fresh, first);
  seen = { key, len: (view.history || []).length, hand: [...(view.hand || [])],
           counts: [...(view.tile_counts || [])], over: !!view.over };
}

// the clock's last seconds: one tick a second, on your turn only
/** @type {number | null} */
let lastTick = null;
setInterval(() => {
  if (!store.myTurn() || store.deadlineAt === null || store.deadlineAt === undefined) { lastTick = null; return; }
  const left = Math.ceil((store.deadlineAt - Date.now()) / 1000);
  if (left > 0 && left <= LOW && left !== lastTick) { lastTick = left; sound("tick"); }
}, 200);

/** The mute button in the header and the zoom buttons under the board (once, words loaded). */
export function mountFeel() {
  const head = document.querySelector("header.top");
  if (head && !document.getElementById("mute")) mountMute(head, document.getElementById("side-toggle"));
  const wrap = /** @type {HTMLElement | null} */ (document.querySelector(".board-wrap"));
  if (wrap && !wrap.parentElement?.querySelector(".zoom")) mountZoom(wrap);
}
