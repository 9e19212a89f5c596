// The score pad of the table page (drawn by panels.js, shared with the replay page).
import { $, sideLabels } from "/static/common.js";
import { renderPad } from "/static/panels.js";
import { shortSides } from "/static/table/words.js";

/** Draw the pad: `lines` are its hand results; table info says the sides and the scoring.
 * @param {import("/static/panels.js").PadLine[]} lines
 * @param {{players: number, totals?: number[] | null, scoring?: string, seats?: import("/static/messages.js").SeatInfo[]}} table
 * @param {number[][]} sides @param {string[]} nm @param {{inPlay?: number[] | null}} [opts] */
export function renderScorePad(lines, table, sides, nm, { inPlay = null } = {}) {
  renderPad($("pad"), lines, {
    players: table.players, seatNames: nm,
    sideLabels: sideLabels(table, sides), shortSides: shortSides(sides, nm),
    totals: table.totals || null, inPlay,
    resultOnly: table.scoring === "hands",
  });
}
