// The seats round the felt: you at the bottom (in the dock under the felt), the others where
// they sit: on your left, across the table and on your right, each with its tiles face down.
import { el, clear } from "/static/common.js";
import { tileSVG, tileWords } from "/static/render.js";
import { $ } from "/static/table/state.js";
import { seatOrder, seatPlaces } from "/static/common.js";

export { seatOrder, seatPlaces };

/** A seat's tiles: face down (with the face-up ones of a blind row in their places). */
function tileBacks(view, s) {
  const count = view?.tile_counts?.[s] || 0;
  const faceUp = new Map((view?.face_up?.[s] || []).map(([pos, t]) => [pos, t]));
  const total = Math.max(count, ...[...faceUp.keys()].map((p) => p + 1), 0);
  const box = el("div", { class: "backs", "aria-hidden": "true", "data-backs": s });
  for (let i = 0; i < total; i++) {
    if (faceUp.has(i)) box.appendChild(tileSVG(faceUp.get(i), { label: `${tileWords(faceUp.get(i))}, face up` }));
    else box.appendChild(tileSVG(null, { back: true }));
  }
  return box;
}

function seatBox(st, s, nm, place) {
  const view = st.view;
  const info = st.table?.seats?.find((x) => x.seat === s) || {};
  const side = view?.sides?.findIndex((x) => x.includes(s));
  const mine = view?.sides?.find((x) => x.includes(st.you));
  const badges = [];
  if (s === st.you) badges.push(el("span", { class: "badge" }, "you"));
  else if (mine && mine.length > 1 && mine.includes(s)) badges.push(el("span", { class: "badge partner" }, "partner"));
  if (info.kind === "bot") badges.push(el("span", { class: "badge bot", title: info.level || "" }, "bot"));
  if (info.kind === "human" && !info.claimed) badges.push(el("span", { class: "badge off" }, "free seat"));
  else if (info.kind === "human" && info.connected === false) badges.push(el("span", { class: "badge off" }, "offline"));
  if (info.bot_playing) badges.push(el("span", { class: "badge bot", "data-bot-playing": s }, "bot playing"));
  const toMove = view && view.to_move === s && st.phase === "play";
  if (toMove) badges.push(el("span", { class: "badge turn" }, "to play"));
  const count = view?.tile_counts?.[s];
  const cls = ["seat-box", `at-${place}`];
  if (toMove) cls.push("to-move");
  if (s === st.you) cls.push("you");
  const details = el("div", { class: "small" },
    count === undefined ? "" : `${count} tile${count === 1 ? "" : "s"}`,
    view && view.sides && view.sides.length < view.players ? ` · team ${side + 1}` : "",
    view && s === view.leader ? " · led" : "");
  const words = [nm[s], ...badges.map((b) => b.textContent), details.textContent.replaceAll(" · ", ", ")]
    .filter(Boolean).join(", ");
  return el("div", { class: cls.join(" "), "data-seat": s, role: "group", "aria-label": words },
    el("div", { "aria-hidden": "true", class: "seat-head" }, el("span", { class: "name", title: nm[s] }, nm[s]), ...badges),
    el("div", { "aria-hidden": "true", class: "small details" }, ...details.childNodes),
    s === st.you || !view ? null : tileBacks(view, s));
}

export function renderSeats(st, nm) {
  const box = clear($("seats"));
  const mine = clear($("my-seat"));
  const n = nm.length;
  const order = seatOrder(st.you, n, st.table?.direction);
  const places = seatPlaces(order.length);
  const felt = box.closest(".felt");
  if (felt) felt.dataset.others = String(order.length);
  const slots = { left: el("div", { class: "seat-slot slot-left" }), top: el("div", { class: "seat-slot slot-top" }),
                  right: el("div", { class: "seat-slot slot-right" }) };
  order.forEach((s, i) => slots[places[i]].appendChild(seatBox(st, s, nm, places[i])));
  for (const k of ["left", "top", "right"]) box.appendChild(slots[k]);
  mine.appendChild(seatBox(st, st.you, nm, "bottom"));
}
