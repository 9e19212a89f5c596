// The seats this browser muted at this table where the server does not keep the mute (one
// of the two seats has no profile): remembered across reloads, sent again on connecting.
import { tableId } from "/static/table/state.js";

const key = `bonepile:mutes:${tableId}`;

export function remembered() {
  try {
    const seats = JSON.parse(localStorage.getItem(key) || "[]");
    return Array.isArray(seats) ? seats.filter((s) => Number.isInteger(s)) : [];
  } catch { return []; }
}

/** @param {number[]} seats */
function keep(seats) {
  try {
    if (seats.length) localStorage.setItem(key, JSON.stringify(seats));
    else localStorage.removeItem(key);
  } catch { /* private mode: this page only */ }
}

/** @param {number} seat */
export function remember(seat) { keep([...new Set([...remembered(), seat])]); }
/** @param {number} seat */
export function forget(seat) { keep(remembered().filter((s) => s !== seat)); }
