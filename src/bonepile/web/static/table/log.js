// The moves of the hand, each play with what it scored (the server says), and the new ones
// read out to a screen reader.
import { $, el, clear } from "/static/common.js";
import { ARM_WORDS } from "/static/render.js";
import { isRows } from "/static/rows.js";
import { armWords } from "/static/table/board.js";
import { store } from "/static/table/state.js";
import { said } from "/static/table/words.js";
import { t } from "/static/i18n.js";

// the hand whose moves were last announced, and how many
/** @type {string | null} */
let logKey = null;
let logLen = 0;

/** @param {{hand_number: number, history?: import("/static/messages.js").MoveEvent[], layout?: import("/static/messages.js").Layout} | null} view
 * @param {string[]} nm */
export function renderLog(view, nm) {
  const box = clear($("log"));
  if (!view) return;
  const lines = [];
  const lay = view.layout;
  for (const h of view.history || []) {
    // a seat's own line ("You play 6-4", "Ana plays 6-4"): the server's names where it has them
    const line = (/** @type {string} */ key, /** @type {Record<string, unknown>} */ params = {}) => (nm[h.seat] === undefined || h.seat === store.state?.you ? said(h.seat, key, params)
      : t(key, { ...params, name: nm[h.seat] }));
    let text;
    if (h.action === "play") text = !h.arm ? line("log.play", { tile: h.tile })
      : isRows(lay) ? line("rows.log.play_on", { tile: h.tile, arm: armWords(view, true)(h.arm) })
      : line("log.play_on", { tile: h.tile, arm: ARM_WORDS[h.arm] || h.arm });
    else if (h.action === "draw") text = h.tile ? line("log.draw_tile", { tile: h.tile }) : line("log.draw");
    else if (h.action === "pass") text = h.tile ? line("log.pass_turned", { tile: h.tile }) : line("log.pass");
    else text = `${nm[h.seat] ?? "?"} ${h.action}`;
    const li = el("li", {}, text, h.points ? el("span", { class: "pts", "data-points": h.points }, ` ${t("log.scores", { n: h.points })}`) : null);
    lines.push(li.textContent);
    box.appendChild(li);
  }
  box.scrollTop = box.scrollHeight;
  // the list is redrawn on every state: a screen reader hears only the moves that are new
  const key = `${view.hand_number}`;
  if (logKey === key && lines.length > logLen) $("announce").textContent = lines.slice(logLen).join(". ");
  logKey = key;
  logLen = lines.length;
}
