// Table chat: lines shown as text (never markup), each once, the last 50; muting another
// person's chat (the server stops sending you their lines and says how many you miss).
import { $, $field, el } from "/static/common.js";
import { t } from "/static/i18n.js";
import { store } from "/static/table/state.js";
import { names } from "/static/table/words.js";
import { remember, forget } from "/static/table/mutes.js";

/** @typedef {import("/static/messages.js").ChatMessage} ChatMessage */
/** @typedef {import("/static/messages.js").ChatLine} ChatLine */

const seen = new Set();
/** @type {number[]} */
let muted = [];  // the seats you muted, as the server last said
let hidden = 0;  // the table's recent lines you are not shown

let unread = 0;  // lines of others that came while the chat was out of sight

/** Whether the chat can be seen now (beside the table, or opened over it on a phone). */
function chatInSight() {
  const side = document.getElementById("side");
  return !!side && getComputedStyle(side).display !== "none" && side.getClientRects().length > 0;
}

/** The marker beside "Score & chat": how many lines came while it was closed. */
function renderUnread() {
  const mark = document.getElementById("chat-unread");
  if (!mark) return;
  mark.hidden = unread === 0;
  mark.replaceChildren();
  if (unread) {  // the number on the button, the words for a screen reader and a pointer
    mark.append(el("span", { "aria-hidden": "true" }, String(unread)),
      el("span", { class: "visually-hidden" }, t("chat.unread", { n: unread })));
    mark.title = t("chat.unread", { n: unread });
  }
}

/** The chat came into sight (opened): nothing is unread. */
export function chatSeen() {
  unread = 0;
  renderUnread();
}

/** @param {ChatLine[]} lines @param {boolean} [fresh] lines said now (not the chat's past) */
export function addChat(lines, fresh = false) {
  const box = $("chat");
  for (const line of lines) {
    const key = `${line.at}|${line.seat}|${line.text}`;
    if (seen.has(key)) continue; // the server resends recent lines after a reconnect
    seen.add(key);
    if (fresh && line.seat !== store.state?.you && !chatInSight()) unread += 1;
    const li = document.createElement("li");
    const who = document.createElement("strong");
    who.textContent = line.name + ": ";  // text, never markup
    li.append(who, document.createTextNode(line.text));
    box.append(li);
  }
  while (box.children.length > 50) box.children[0].remove();
  box.scrollTop = box.scrollHeight;
  renderUnread();
}

/** A chat message of the server: new lines, or ("full") the whole chat as you see it.
 * @param {ChatMessage} msg */
export function onChat(msg) {
  if (msg.full) {
    $("chat").replaceChildren();
    seen.clear();
  }
  addChat(msg.lines || [], !msg.full);
  if (Array.isArray(msg.muted)) muted = msg.muted;
  if (typeof msg.hidden === "number") hidden = msg.hidden;
  renderMutes();
}

/** @type {(intent: object) => boolean} */
let sender = () => false;

/** The chat form sends through `send` (the socket's).
 * @param {(intent: object) => boolean} send */
export function bindChat(send) {
  sender = send;
  $("chat-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const input = $field("chat-text");
    const text = input.value.trim();
    if (text && send({ type: "chat", text })) input.value = "";
  });
}

/** The other people at the table (not bots, not empty seats), each with a button that
 * mutes or unmutes their chat for you; and how many lines you are not shown. */
export function renderMutes() {
  const st = store.state;
  const form = $("chat-form");
  let note = document.getElementById("chat-hidden");
  if (!note) {
    note = el("p", { id: "chat-hidden", class: "small muted chat-hidden", "aria-live": "polite" });
    $("chat").after(note);
  }
  note.textContent = hidden ? t("moderation.hidden", { n: hidden }) : "";
  note.hidden = !hidden;
  let box = document.getElementById("chat-people");
  if (!box) {
    box = el("div", { id: "chat-people", class: "row chat-people", role: "group", "aria-label": t("moderation.group") });
    form.after(box);
  }
  const you = st?.you;
  const seats = you === null || you === undefined ? [] : (st?.table?.seats || [])
    .filter((s) => s.seat !== you && s.kind === "human" && s.claimed);
  const nm = names();
  const want = new Set(seats.map((s) => String(s.seat)));
  for (const b of /** @type {HTMLElement[]} */ ([...box.children])) if (!want.has(b.dataset.seat ?? "")) b.remove();
  for (const s of seats) {
    let b = /** @type {HTMLElement | null} */ (box.querySelector(`button[data-seat="${s.seat}"]`));
    if (!b) {
      b = el("button", { type: "button", id: `chat-mute-${s.seat}`, class: "chat-mute", dataset: { seat: String(s.seat) } });
      b.addEventListener("click", () => toggle(s.seat));
      box.append(b);
    }
    const on = muted.includes(s.seat);
    const name = nm[s.seat] ?? "?";
    b.setAttribute("aria-pressed", on ? "true" : "false");
    b.textContent = t(on ? "moderation.unmute" : "moderation.mute", { name });
    b.title = on ? t("moderation.muted_label", { name }) : "";
  }
  box.hidden = !seats.length;
}

/** @param {number} seat */
function toggle(seat) {
  const st = store.state;
  const on = !muted.includes(seat);
  if (!sender({ type: on ? "mute" : "unmute", seat })) return;
  // the server keeps a mute between two profiles; any other this browser sends again
  const profiles = st?.table?.seats || [];
  const both = profiles[st?.you ?? -1]?.profile && profiles[seat]?.profile;
  if (on && !both) remember(seat);
  else forget(seat);
}
