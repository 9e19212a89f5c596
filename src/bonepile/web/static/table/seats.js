// The seats round the felt: you at the bottom, the others across the top as they sit.
import { el, clear } from "/static/common.js";
import { $ } from "/static/table/state.js";

/** The other seats from left to right across the top.  Seats are numbered in turn order;
 * the server says which way play goes: counterclockwise, the player after you sits on your
 * right (and the one before on your left); clockwise, the other way round. */
export function seatOrder(you, n, direction) {
  const cw = direction === "clockwise";
  return Array.from({ length: n - 1 }, (_, i) => (cw ? (you + 1 + i) % n : (you + n - 1 - i) % n));
}

export function renderSeats(st, nm) {
  const box = clear($("seats"));
  const mine = clear($("my-seat"));
  const view = st.view;
  const n = nm.length;
  const order = [st.you, ...seatOrder(st.you, n, st.table?.direction)];
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
