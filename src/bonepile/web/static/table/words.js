// The table's words that depend on the table: the games' and the bots' names from the
// catalogue, the seats' names, a sentence about a seat, and the connection line.
import { $, seatName } from "/static/common.js";
import { t, has, ready } from "/static/i18n.js";
import { store } from "/static/table/state.js";

/** The catalogue's words for the games (fetched once): a table names its game in them.
 * @type {Record<string, string>} */
let labels = {};
/** @type {Record<string, string>} */
let bots = {};
fetch("/api/variants").then((r) => r.json()).then(async (c) => {
  await ready;  // the words of the reader's language first
  /** @param {string | undefined} key @param {string} english */
  const words = (key, english) => (key && has(key) ? t(key) : english);
  labels = Object.fromEntries((c.variants || []).map((/** @type {any} */ v) => [v.name, words(v.label_key, v.label)]));
  bots = Object.fromEntries((c.bot_levels || []).map((/** @type {string} */ l, /** @type {number} */ i) => [l, words(c.bot_keys?.[i], c.bot_labels?.[i] || t("bot.any"))]));
  store.redraw();
}).catch(() => {});

/** A game's name in the reader's words. @param {string} name */
export function gameLabel(name) { return labels[name] || t("common.dominoes"); }
/** A bot level in words ("Bot: casual"). @param {string | null} level */
export function botLabel(level) { return (level && bots[level]) || t("bot.any"); }

/** The connection line in the header: a key of conn.* ("connected", "connecting"...), or
 * words to show as they are.
 * @param {string} key @param {Record<string, unknown>} [params] */
export function setConn(key, params = {}) {
  $("conn").textContent = has(`conn.${key}`) ? t(`conn.${key}`, params) : key;
  document.body.dataset.conn = key === "connected" ? "1" : "0";
}

/** Every seat's display name. @returns {string[]} */
export function names() {
  const st = store.state;
  const n = st?.table?.players || st?.view?.players || 0;
  return Array.from({ length: n }, (_, s) => seatName(st?.table, s));
}

/** Every seat as a sentence names it: "you" for your own seat, else the display name. */
export function people() {
  const nm = names();
  const you = store.state?.you;
  return nm.map((n, s) => (s === you ? t("seat.you") : n));
}

/** A sentence about seat s: the key's ".you" form for your own seat, else the key with
 * {name} (each language conjugates its own verb).
 * @param {number} s @param {string} key @param {Record<string, unknown>} [params] */
export function said(s, key, params = {}) {
  if (s === store.state?.you) return t(`${key}.you`, params);
  return t(key, { ...params, name: names()[s] ?? "?" });
}

/** A short name per side: the player's name, or "Team n" for a partnership.
 * @param {number[][]} sides @param {string[]} nm */
export function shortSides(sides, nm) {
  return sides.map((side, i) => (side.length > 1 ? t("seat.team", { n: i + 1 }) : nm[side[0]]));
}
