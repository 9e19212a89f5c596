// The buttons under your hand: draw, pass, hint, the end choice for a tile that fits two
// ends, next hand, the leader choice, take my seat back, start now.
import { $, $button, el, clear } from "/static/common.js";
import { tileWords, ARM_WORDS, armLetter } from "/static/render.js";
import { isRows } from "/static/rows.js";
import { armWords } from "/static/table/board.js";
import { tileRow } from "/static/panels.js";
import { store } from "/static/table/state.js";
import { people } from "/static/table/words.js";
import { t } from "/static/i18n.js";

/** @typedef {import("/static/messages.js").StateMessage} StateMessage */
/** @typedef {import("/static/messages.js").View} View */

/** handlers: {play(move), cancel(), leader(seat)}
 * @param {StateMessage} st @param {View | null} view @param {string[]} nm
 * @param {import("/static/render.js").EndChoice[]} choices
 * @param {{play: (move: string) => void, cancel: () => void, leader: (seat: number) => void}} handlers */
export function renderControls(st, view, nm, choices, handlers) {
  const turn = store.myTurn();
  const kinds = new Set(turn ? store.legal().map((m) => m.kind) : []);
  $("draw").hidden = !kinds.has("draw");
  $("pass").hidden = !kinds.has("pass");
  $button("draw").disabled = $button("pass").disabled = store.busy || !!st.forced;
  $("hint").hidden = !turn || !!st.forced;  // nothing to choose: nothing to hint
  // end choice
  const ends = clear($("ends"));
  if (choices.length || (store.selected && turn)) {
    ends.hidden = false;
    ends.appendChild(el("span", { class: "small" }, t("controls.play_on", { tile: tileWords(store.selected) })));
    const list = choices.length ? choices
      : store.legal().filter((m) => m.tile === store.selected).map((m) => ({ arm: m.arm, move: m.move, label: m.move }));
    for (const c of list) {
      const pip = c.arm ? view?.layout?.ends?.[c.arm] : undefined;
      ends.appendChild(el("button", { type: "button", class: "primary", "data-end": c.arm || c.move,
        "aria-label": c.label, onclick: () => handlers.play(c.move) },
        !c.arm ? c.move : isRows(view?.layout) ? `${armWords(view)(c.arm)}${pip !== undefined ? ` (${pip})` : ""}`
          : `${ARM_WORDS[c.arm]} (${armLetter(c.arm)}${pip !== undefined ? ` · ${pip}` : ""})`));
    }
    ends.appendChild(el("button", { type: "button", onclick: handlers.cancel }, t("controls.cancel")));
  } else ends.hidden = true;
  // next hand
  const next = $button("next");
  const ready = st.ready || [];
  next.hidden = st.phase !== "hand_over" || st.you === null;  // a spectator only watches
  next.disabled = ready.includes(st.you ?? -1);
  // leader choice
  const lead = clear($("leader"));
  lead.hidden = true;
  if (st.phase === "leader" && st.pending?.kind === "leader") {
    const side = view?.sides?.find((x) => x.includes(st.you ?? -1)) || [st.you];
    const mine = (st.pending.seats || []).some((s) => side.includes(s));
    lead.hidden = false;
    if (mine) {
      if (Array.isArray(st.pending.hand) && st.pending.hand.length) {
        lead.appendChild(el("span", { class: "small" }, t("controls.next_tiles")));
        lead.appendChild(tileRow(st.pending.hand));
      }
      lead.appendChild(el("span", { class: "small" }, t("controls.who_leads")));
      for (const s of st.pending.seats) {
        lead.appendChild(el("button", { type: "button", class: "primary", "data-leader": s,
          onclick: () => handlers.leader(s) }, s === st.you ? t("controls.i_lead") : t("controls.leads", { name: nm[s] })));
      }
    } else {
      lead.appendChild(el("span", { class: "small" },
        t("controls.waiting_lead", { names: st.pending.seats.map((s) => people()[s]).join(` ${t("common.or")} `) })));
    }
  }
  // take my seat back
  const me = st.table?.seats?.find((x) => x.seat === st.you);
  $("takeover").hidden = !(me && me.bot_playing);
  // start now
  $("start").hidden = st.phase !== "waiting" || st.you === null;
}
