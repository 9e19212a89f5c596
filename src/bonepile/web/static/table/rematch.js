// Rematch: at game over "Play again" asks the other people at the table (the server says who
// is asked, who said yes, who left); an asked person answers Accept or Decline.  When
// everybody said yes the server sends each person their seat at the new table, and the page
// goes there with it.  A spectator (or a late comer) is shown the rematch to watch.
import { el, getToken, setToken } from "/static/common.js";
import { store, invite } from "/static/table/state.js";
import { names } from "/static/table/words.js";
import { send } from "/static/table/socket.js";
import { t } from "/static/i18n.js";

/** Your seat at this finished table's rematch (its "rematch" message), once it came.
 * @type {import("/static/messages.js").RematchSeat | null} */
let rematchSeat = null;
/** The seat whose rematch question this page put the keyboard on. @type {number | null} */
let rematchAsked = null;

/** The link to a table with this page's invite secret (a private table's rematch opens with
 * the same secret), watching or not. */
/** @typedef {import("/static/messages.js").RematchOffer} RematchOffer */

/** @param {string} id @param {boolean} watch */
function tableLink(id, watch) {
  const q = new URLSearchParams();
  if (invite) q.set("invite", invite);
  if (watch) q.set("watch", "1");
  const qs = q.toString();
  return `/t/${encodeURIComponent(id)}${qs ? `?${qs}` : ""}`;
}

/** Your seat at the rematch: keep its token as a joined seat's and go to the new table (once:
 * back at the finished table later, e.g. with the Back button, you stay and get a link). */
/** @param {import("/static/messages.js").RematchSeat} msg */
export function onRematchSeat(msg) {
  if (!msg.table || !msg.token) return;
  rematchSeat = msg;
  if (getToken(msg.table) === msg.token) { store.redraw(); return; }
  setToken(msg.table, msg.token);
  location.assign(tableLink(msg.table, false));
}

const answer = (/** @type {boolean} */ accept) => send({ type: "rematch", accept });
const list = (/** @type {number[]} */ seats) => seats.map((s) => names()[s] ?? "?").join(", ");

// the seconds left to answer, counted down on the page between states
/** @type {number | null} */
let until = null;
function secondsLeft() { return until === null ? 0 : Math.max(0, Math.round((until - Date.now()) / 1000)); }
setInterval(() => {
  for (const n of document.querySelectorAll("[data-rematch-left]")) n.textContent = t("rematch.left", { n: secondsLeft() });
}, 1000);

// (the banner is a live region: the countdown ticking in it is not read out every second)
function left() {
  return el("span", { class: "rematch-left", "data-rematch-left": "1", "aria-live": "off" }, t("rematch.left", { n: secondsLeft() }));
}

/** What the banner says about the rematch, and its buttons.  `offer` is the state's rematch
 * (null: nobody asked), `rematchId` the table's (its rematch being played), `you` your seat
 * (null: watching); `newTable` makes a new table the old way (a link in the chat).
 * @param {RematchOffer | null} offer @param {string | null | undefined} rematchId
 * @param {number | null | undefined} you @param {() => void} newTable */
export function rematchPart(offer, rematchId, you, newTable) {
  const seated = you !== null && you !== undefined;
  const box = el("div", { class: "rematch", id: "rematch" });
  until = offer?.status === "asking" && offer.deadline !== null ? Date.now() + offer.deadline * 1000 : null;
  if (rematchId) {
    const without = seated && offer?.away?.includes(you);
    const mine = seated && !without && (offer ? offer.accepted.includes(you) : rematchSeat?.table === rematchId);
    if (mine && rematchSeat?.table === rematchId) {  // your seat there: a link to it
      box.appendChild(el("p", {}, t("rematch.being_played")));
      box.appendChild(el("a", { href: tableLink(rematchId, false), id: "rematch-go", class: "button" }, t("rematch.go")));
    } else if (mine) box.appendChild(el("p", {}, t("rematch.starting")));
    else {
      box.appendChild(el("p", {}, without ? t("rematch.without_you") : t("rematch.being_played")));
      box.appendChild(el("a", { href: tableLink(rematchId, true), id: "rematch-watch", class: "button" }, t("rematch.watch")));
    }
    return box;
  }
  if (!seated) {  // a spectator sees the question, not its buttons
    if (offer?.status === "asking") box.appendChild(el("p", {}, t("rematch.asked_by", { name: names()[offer.by] ?? "?" })));
    return box.children.length ? box : null;
  }
  if (offer?.status === "asking") {
    if (offer.waiting.includes(you)) {
      const ask = el("div", { class: "rematch-ask", role: "alertdialog", "aria-labelledby": "rematch-q", "aria-describedby": "rematch-d" },
        el("p", { id: "rematch-q" }, el("strong", {}, t("rematch.asks", { name: names()[offer.by] ?? "?" }))),
        el("p", { id: "rematch-d" }, t("rematch.same_seats"), " ", left()),
        el("div", { class: "rematch-buttons" },
          el("button", { type: "button", class: "primary", id: "rematch-accept", onclick: () => answer(true) }, t("rematch.accept")),
          el("button", { type: "button", id: "rematch-decline", onclick: () => answer(false) }, t("rematch.decline"))));
      box.appendChild(ask);
      if (rematchAsked !== offer.by) {  // the question is new: the keyboard goes to it
        rematchAsked = offer.by;
        requestAnimationFrame(() => document.getElementById("rematch-accept")?.focus({ preventScroll: true }));
      }
    } else {
      const others = offer.waiting.filter((s) => s !== you);
      const key = offer.by === you ? "rematch.waiting_for" : "rematch.you_accepted";
      box.appendChild(el("p", {}, others.length ? t(key, { names: list(others) }) : t("rematch.starting"), " ", left()));
      if (offer.by === you) {
        box.appendChild(el("button", { type: "button", id: "rematch-cancel", onclick: () => answer(false) }, t("rematch.cancel")));
      }
    }
    if (offer.away.length) box.appendChild(el("p", { class: "muted" }, t("rematch.away", { names: list(offer.away) })));
    return box;
  }
  rematchAsked = null;
  if (offer?.status === "declined") {
    const self = offer.declined === offer.by ? "rematch.withdrawn" : "rematch.declined";
    box.appendChild(el("p", { id: "rematch-said" }, offer.declined === you ? t(`${self}.you`)
      : t(self, { name: names()[offer.declined ?? -1] ?? "?" })));
  } else if (offer?.status === "expired") {
    box.appendChild(el("p", { id: "rematch-said" }, t("rematch.expired", { names: list(offer.waiting) })));
  }
  const buttons = el("div", { class: "rematch-buttons" },
    el("button", { type: "button", class: "primary", id: "play-again", onclick: () => answer(true) }, t("end.play_again")));
  if (offer) buttons.appendChild(el("button", { type: "button", id: "new-table", onclick: newTable }, t("rematch.new_table")));
  box.appendChild(buttons);
  return box;
}
