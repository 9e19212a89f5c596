// Watching a table (a socket with no seat): how many are watching, and what a spectator's
// page leaves out (your tiles, the buttons, writing in the chat: the table talk is the
// players'; a spectator reads it).
import { $, el } from "/static/common.js";
import { t } from "/static/i18n.js";
import { store } from "/static/table/state.js";

const NS = "http://www.w3.org/2000/svg";
/** An eye (drawn, not an emoji: the same on every phone). */
function eye() {
  const s = document.createElementNS(NS, "svg");
  s.setAttribute("viewBox", "0 0 24 24");
  s.setAttribute("class", "icon");
  for (const [tag, attrs] of /** @type {[string, Record<string, string>][]} */ ([["path", { d: "M2 12s3.6-6.5 10-6.5S22 12 22 12s-3.6 6.5-10 6.5S2 12 2 12z" }], ["circle", { cx: "12", cy: "12", r: "3" }]])) {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    s.appendChild(e);
  }
  return s;
}

/** True when this page watches the table (the server gave it no seat). */
export function watching() {
  return store.state ? store.state.you === null : !!store.watch && !store.token;
}

/** @param {import("/static/messages.js").StateMessage} st */
export function renderWatching(st) {
  const n = st.table?.watching || 0;
  let count = document.getElementById("watching");
  if (!count) {
    // the words, and for a narrow header an eye and the number (the words stay for readers)
    count = el("span", { id: "watching", class: "status watching", "data-watching": "" },
      el("span", { class: "short", "aria-hidden": "true" }, eye(), el("span", { class: "n" })),
      el("span", { class: "long" }));
    $("conn").after(count);
  }
  /** @type {Element} */ (count.querySelector(".long")).textContent = n ? t("spectate.watching", { n }) : "";
  /** @type {Element} */ (count.querySelector(".short .n")).textContent = String(n);
  count.title = n ? t("spectate.watching", { n }) : "";
  count.dataset.watching = String(n);
  count.hidden = !n;
  const spectator = st.you === null;
  document.body.dataset.watching = spectator ? "1" : "0";
  let badge = document.getElementById("you-watch");
  if (spectator && !badge) {
    badge = el("span", { id: "you-watch", class: "badge watch" }, t("spectate.you_watch"));
    $("turn").before(badge);  // in the dock, where a player's own turn is told
  }
  if (badge) badge.hidden = !spectator;
  // a game its people all left waits for them: say so, rather than show a table that never moves
  const people = (st.table?.seats || []).filter((s) => s.kind === "human");
  const left = spectator && st.table?.status === "playing" && people.length > 0 && people.every((s) => !s.connected);
  let gone = document.getElementById("watch-left");
  if (left && !gone) {
    gone = el("p", { id: "watch-left", class: "notice-line", role: "status" }, t("spectate.left"));
    $("hand-card").prepend(gone);
  }
  if (gone) gone.hidden = !left;
  // the chat is read-only for a spectator
  $("chat-form").hidden = spectator;
  let note = document.getElementById("chat-note");
  if (spectator && !note) {
    note = el("p", { id: "chat-note", class: "small muted" }, t("spectate.chat_read_only"));
    $("chat-form").after(note);
  }
  if (note) note.hidden = !spectator;
  const keys = /** @type {HTMLElement | null} */ (document.querySelector("#hand-card .keys"));
  if (keys) keys.hidden = spectator;
  if (spectator) $("hand-title").textContent = t("spectate.dock_title");
}
