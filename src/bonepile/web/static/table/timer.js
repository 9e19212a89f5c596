// The move timer: the server tells only the player to move how long is left.
import { S, $, myTurn } from "/static/table/state.js";
import { t as tr } from "/static/i18n.js";

/** Seconds left at which the clock turns red. */
export const LOW = 5;

export function tick() {
  const t = $("timer");
  if (S.deadlineAt === null || !S.state || S.state.phase !== "play") { t.textContent = ""; return; }
  const left = Math.max(0, Math.ceil((S.deadlineAt - Date.now()) / 1000));
  t.textContent = myTurn() ? tr("timer.left", { time: `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}` }) : "";
  // red only at the end: the last few seconds (never from the first second of a short clock)
  t.classList.toggle("low", myTurn() && left <= LOW);
}
