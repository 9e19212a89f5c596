// The move timer: the server tells every socket how long the person to move has left; your
// own clock is in the dock, the others' at the seat whose turn it is (seats.js).
import { $ } from "/static/common.js";
import { store } from "/static/table/state.js";
import { t as words } from "/static/i18n.js";

const clockText = (/** @type {number} */ left) => `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;

/** Seconds left at which the clock turns red. */
export const LOW = 5;

export function tick() {
  const t = $("timer");
  const clocks = /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-clock]"));
  if (store.deadlineAt === null || !store.state || store.state.phase !== "play") {
    t.textContent = "";
    for (const c of clocks) c.textContent = "";
    return;
  }
  const left = Math.max(0, Math.ceil((store.deadlineAt - Date.now()) / 1000));
  for (const c of clocks) {
    c.textContent = clockText(left);
    c.setAttribute("aria-label", words("spectate.clock_label", { name: c.dataset.name || "", time: clockText(left) }));
    c.classList.toggle("low", left <= LOW);
  }
  t.textContent = store.myTurn() ? words("timer.left", { time: clockText(left) }) : "";
  // red only at the end: the last few seconds (never from the first second of a short clock)
  t.classList.toggle("low", store.myTurn() && left <= LOW);
}
