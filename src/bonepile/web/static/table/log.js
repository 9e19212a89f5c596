// The moves of the hand, each play with what it scored (the server says), and the new ones
// read out to a screen reader.
import { el, clear } from "/static/common.js";
import { ARM_WORDS } from "/static/render.js";
import { S, $, people, cap, verb } from "/static/table/state.js";

export function renderLog(view, nm) {
  const box = clear($("log"));
  if (!view) return;
  const lines = [];
  const who = people();
  for (const h of view.history || []) {
    const w = who[h.seat] ?? nm[h.seat];
    const said = (word) => `${cap(w)} ${verb(w, word)}`;
    let t;
    if (h.action === "play") t = `${said("play")} ${h.tile}${h.arm ? ` on ${ARM_WORDS[h.arm] || h.arm}` : ""}`;
    else if (h.action === "draw") t = `${said("draw")}${h.tile ? ` ${h.tile}` : ""}`;
    else if (h.action === "pass") t = `${said("pass")}${h.tile ? ` (turned up ${h.tile})` : ""}`;
    else t = `${cap(w)} ${h.action}`;
    const li = el("li", {}, t, h.points ? el("span", { class: "pts", "data-points": h.points }, ` scores ${h.points}`) : null);
    lines.push(li.textContent);
    box.appendChild(li);
  }
  box.scrollTop = box.scrollHeight;
  // the list is redrawn on every state: a screen reader hears only the moves that are new
  const key = `${view.hand_number}`;
  if (S.logKey === key && lines.length > S.logLen) $("announce").textContent = lines.slice(S.logLen).join(". ");
  S.logKey = key;
  S.logLen = lines.length;
}
