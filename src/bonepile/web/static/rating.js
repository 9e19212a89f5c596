// Ratings as people read them, on every page: the number the server sends (1500 at the start,
// never negative) written as the reader's language writes whole numbers, with "?" while it is
// provisional, and a game's change as "+14" or "−9". The server derives every number
// (arena/skill.py, shown); nothing here computes a rating.
import { el } from "/static/common.js";
import { language, t } from "/static/i18n.js";

/** @typedef {{rating: number, provisional: boolean, games?: number, change?: number | null}} ShownRating */

const whole = new Intl.NumberFormat(language() === "es" ? "es-419" : language(), { maximumFractionDigits: 0, useGrouping: false });

/** "1523" or "1523?" (provisional). @param {ShownRating} r */
export function ratingText(r) {
  return `${whole.format(r.rating)}${r.provisional ? "?" : ""}`;
}

/** "+14", "−9" (a true minus sign), "±0". @param {number} n */
export function changeText(n) {
  if (n > 0) return `+${whole.format(n)}`;
  if (n < 0) return `\u2212${whole.format(-n)}`;
  return "\u00b10";
}

/** A rating as a small element: the number, "?" explained in its title when provisional.
 * @param {ShownRating} r @param {string} [cls] */
export function ratingBadge(r, cls = "rating") {
  return el("span", { class: r.provisional ? `${cls} provisional` : cls, "data-rating": String(r.rating),
    title: r.provisional ? t("rating.provisional_help") : t("rating.label", { rating: ratingText(r) }) },
  ratingText(r));
}
