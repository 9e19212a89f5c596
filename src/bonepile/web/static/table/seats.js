// The seats round the felt: you at the bottom (in the dock under the felt), the others where
// they sit: on your left, across the table and on your right, each with its tiles face down.
import { $, el, clear, seatOrder, seatPlaces } from "/static/common.js";
import { tileSVG, tileWords } from "/static/render.js";
import { store } from "/static/table/state.js";
import { botLabel } from "/static/table/words.js";
import { seatRating } from "/static/table/rating.js";
import { t } from "/static/i18n.js";

export { seatOrder, seatPlaces };

/** A seat's tiles: face down (with the face-up ones of a blind row in their places). */
/** @typedef {import("/static/messages.js").StateMessage} StateMessage */
/** @typedef {import("/static/messages.js").View} View */

/** @param {View} view @param {number} s */
function tileBacks(view, s) {
  const count = view?.tile_counts?.[s] || 0;
  const faceUp = new Map((view?.face_up?.[s] || []).map(([pos, t]) => [pos, t]));
  const total = Math.max(count, ...[...faceUp.keys()].map((p) => p + 1), 0);
  const box = el("div", { class: "backs", "aria-hidden": "true", "data-backs": s });
  for (let i = 0; i < total; i++) {
    const up = faceUp.get(i);
    if (up !== undefined) box.appendChild(tileSVG(up, { label: t("seat.face_up", { tile: tileWords(up) }) }));
    else box.appendChild(tileSVG(null, { back: true }));
  }
  return box;
}

const SHOW_MS = 1800;

/**
 * @typedef {object} Callout  words popping up at a seat for a while
 * @property {string} text
 * @property {number} born  when it was shown (ms)
 * @property {number} until  when it goes
 * @property {number} [draws]  tiles drawn in a row (a "Draws 3")
 * @property {boolean} [big]  the domino's call-out
 */
/** The hand whose moves were called out (undefined: none seen yet), and how many of them.
 * @type {number | null | undefined} */
let coKey;
let coLen = 0;
/** @type {Record<number, Callout>} */
let callouts = {};
/** @type {ReturnType<typeof setTimeout> | undefined} */
let coTimer;

/** Call-outs at the seats for the moves that are new since the last state: what a play
 * scored ("+15", the server's points), "Pass", "Draws 2", "Domino!" for going out.
 * @param {View | null} view */
function updateCallouts(view) {
  const hist = view?.history || [];
  const key = view?.hand_number ?? null;
  if (coKey !== key) {
    // a hand seen for the first time: only a new hand's own moves are called out
    coLen = coKey === undefined || coKey === null ? hist.length : 0;
    coKey = key;
  }
  const now = Date.now();
  const fresh = hist.slice(coLen || 0);
  for (const h of fresh) {
    const prev = callouts[h.seat];
    if (h.action === "play" && h.points) callouts[h.seat] = { text: `+${h.points}`, born: now, until: now + SHOW_MS };
    else if (h.action === "pass") callouts[h.seat] = { text: t("callout.pass"), born: now, until: now + SHOW_MS };
    else if (h.action === "draw") {
      const n = prev?.draws && prev.until > now ? prev.draws + 1 : 1;
      callouts[h.seat] = { text: n > 1 ? t("callout.draws_n", { n }) : t("callout.draws"), draws: n, born: now, until: now + SHOW_MS };
    }
  }
  const last = fresh[fresh.length - 1];
  if (last && view?.over && view.end === "domino" && last.action === "play") {
    callouts[last.seat] = { text: t("callout.domino"), born: now, until: now + SHOW_MS * 1.5, big: true };
  }
  coLen = hist.length;
  // one redraw when the last call-out is over (not one per move: a fast table makes many)
  if (fresh.length) { clearTimeout(coTimer); coTimer = setTimeout(store.redraw, SHOW_MS * 1.5 + 50); }
}

/** @param {number} s */
function callout(s) {
  const c = callouts?.[s];
  if (!c || c.until < Date.now()) return null;
  // drawn again on every state: the pop goes on from where it was, it does not start over
  return el("span", { class: `callout${c.big ? " big" : ""}`, "data-callout": s, "aria-hidden": "true",
    style: `animation-delay: -${Date.now() - (c.born || 0)}ms` }, c.text);
}

/** @param {StateMessage} st @param {number} s @param {string[]} nm @param {string} place */
function seatBox(st, s, nm, place) {
  const view = st.view;
  /** @type {Partial<import("/static/messages.js").SeatInfo>} */
  const info = st.table?.seats?.find((x) => x.seat === s) || {};
  const side = view?.sides?.findIndex((x) => x.includes(s));
  const mine = view?.sides?.find((x) => x.includes(st.you ?? -1));
  const badges = [];
  if (s === st.you) badges.push(el("span", { class: "badge" }, t("seat.you")));
  else if (mine && mine.length > 1 && mine.includes(s)) badges.push(el("span", { class: "badge partner" }, t("seat.partner")));
  // a bot named by the server is called a bot already ("casual bot 2"): the badge is for a named one
  if (info.kind === "bot" && info.named !== false) badges.push(el("span", { class: "badge bot", title: botLabel(info.level ?? null) }, t("seat.bot_badge")));
  if (info.kind === "human" && !info.claimed) badges.push(el("span", { class: "badge off" }, t("seat.free")));
  else if (info.kind === "human" && info.connected === false) badges.push(el("span", { class: "badge off" }, t("seat.offline")));
  if (info.bot_playing) badges.push(el("span", { class: "badge bot", "data-bot-playing": s }, t("seat.bot_playing")));
  const toMove = view && view.to_move === s && st.phase === "play";
  if (toMove) badges.push(el("span", { class: "badge turn" }, t("seat.to_play")));
  // the clock of the seat to move (yours is in the dock), kept going by timer.js
  const clock = toMove && s !== st.you && store.deadlineAt !== null
    ? el("span", { class: "seat-clock", "data-clock": s, "data-name": nm[s], role: "timer" }) : null;
  const count = view?.tile_counts?.[s];
  const cls = ["seat-box", `at-${place}`];
  if (toMove) cls.push("to-move");
  if (s === st.you) cls.push("you");
  const details = el("div", { class: "small" },
    count === undefined ? "" : t("seat.tiles", { n: count }),
    view && view.sides && view.sides.length < view.players ? ` · ${t("seat.team_small", { n: (side ?? -1) + 1 })}` : "",
    view && s === view.leader ? ` · ${t("seat.led")}` : "");
  const rating = info.kind === "human" ? seatRating(st, s) : null;
  const words = [nm[s], rating ? t("rating.label", { rating: rating.textContent }) : "", ...badges.map((b) => b.textContent),
    details.textContent.replaceAll(" · ", ", ")].filter(Boolean).join(", ");
  return el("div", { class: cls.join(" "), "data-seat": s, role: "group", "aria-label": words },
    el("div", { "aria-hidden": "true", class: "seat-head" }, el("span", { class: "name", title: nm[s] }, nm[s]), rating, ...badges),
    clock,
    el("div", { "aria-hidden": "true", class: "small details" }, ...details.childNodes),
    s === st.you || !view ? null : tileBacks(view, s), callout(s));
}

/** @param {StateMessage} st @param {string[]} nm */
export function renderSeats(st, nm) {
  updateCallouts(st.view);
  const box = clear($("seats"));
  const mine = clear($("my-seat"));
  const n = nm.length;
  const me = st.you ?? 0;  // a spectator sees the table from the first seat
  const order = seatOrder(me, n, st.table?.direction);
  const places = seatPlaces(order.length);
  const felt = /** @type {HTMLElement | null} */ (box.closest(".felt"));
  if (felt) felt.dataset.others = String(order.length);
  /** @type {Record<string, HTMLElement>} */
  const slots = { left: el("div", { class: "seat-slot slot-left" }), top: el("div", { class: "seat-slot slot-top" }),
                  right: el("div", { class: "seat-slot slot-right" }) };
  order.forEach((s, i) => slots[places[i]].appendChild(seatBox(st, s, nm, places[i])));
  for (const k of ["left", "top", "right"]) box.appendChild(slots[k]);
  mine.appendChild(seatBox(st, me, nm, "bottom"));
}
