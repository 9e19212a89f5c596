// The ratings at a table: each seated person's rating at the table's game, shown at the seat,
// and at the game's end the change the game made (+14 / −9) in the banner. Read from
// GET /api/tables/<id>/ratings: once when the table is drawn, again when someone sits down,
// and at the end until the server has rated the game.
import { el, api } from "/static/common.js";
import { t } from "/static/i18n.js";
import { ratingBadge, ratingText, changeText } from "/static/rating.js";
import { store, tableId } from "/static/table/state.js";

/** @typedef {{rating: number, games: number, provisional: boolean, change: number | null}} SeatRating */
/** @typedef {{table: string, game: string, rated: boolean, done: boolean, seats: (SeatRating | null)[]}} TableRatings */

/** @type {TableRatings | null} */
let known = null;
let asked = "";  // what the last request was for: the seats' people and the phase
let tries = 0;
let busy = false;

/** Ask again when what we know is stale: the seats changed, or the game ended and its
 * rating is not in yet (a few tries, a second apart).
 * @param {import("/static/messages.js").StateMessage} st */
function refresh(st) {
  const over = st.phase === "over";
  const key = `${(st.table?.seats || []).map((s) => s.profile || "").join(",")}|${over}`;
  const waitingForRating = over && st.table?.rated && known && !known.done && tries < 10;
  if (busy || (key === asked && !waitingForRating)) return;
  if (key !== asked) tries = 0;
  asked = key;
  busy = true;
  if (waitingForRating) tries += 1;
  const delay = waitingForRating ? 1000 : 0;
  setTimeout(async () => {
    try {
      known = await api("GET", `/api/tables/${encodeURIComponent(tableId)}/ratings`);
      store.redraw();
    } catch { /* no ratings shown: the table plays on */ } finally { busy = false; }
  }, delay);
}

/** The rating to show at seat s (null: none), asking the server when stale.
 * @param {import("/static/messages.js").StateMessage} st @param {number} s */
export function seatRating(st, s) {
  refresh(st);
  const r = known?.seats?.[s];
  return r ? ratingBadge(r, "rating seat-rating") : null;
}

/** The banner's line at the game's end: your rating and what this game did to it.
 * @param {import("/static/messages.js").StateMessage} st */
export function bannerRating(st) {
  refresh(st);
  const you = st.you;
  const r = you === null || you === undefined ? null : known?.seats?.[you];
  if (!r || !known) return null;
  if (known.rated && !known.done) return el("span", { class: "banner-rating", "data-rating-change": "" }, t("rating.updating"));
  const text = r.change === null ? t("rating.yours", { rating: ratingText(r) })
    : t("rating.yours_change", { rating: ratingText(r), change: changeText(r.change) });
  const cls = r.change === null ? "" : r.change > 0 ? " up" : r.change < 0 ? " down" : "";
  return el("span", { class: `banner-rating${cls}`, "data-rating-change": r.change === null ? "" : String(r.change) }, text);
}
