// Luck and skill on "Your games" (/me): per game, and over the games of the filter, what the
// profile's tiles were worth (luck) and the points the others' decisions lost less its own
// (skill), in points per hand, as the server stored them when each game's analysis was made.
// The figures are the server's; this module only words them.
import { $, el } from "/static/common.js";
import { t, language } from "/static/i18n.js";

/** @typedef {{hands: number, luck: number, skill: number | null}} LuckSkill */

const numbers = new Intl.NumberFormat(language() === "es" ? "es-419" : language(), { maximumFractionDigits: 1, signDisplay: "exceptZero" });
const fmt = (/** @type {number} */ x) => numbers.format(x);

/** One game's figures, as words. @param {LuckSkill} f */
function gameWords(f) {
  return f.skill === null ? t("luck.game_luck", { luck: fmt(f.luck) }) : t("luck.game", { luck: fmt(f.luck), skill: fmt(f.skill) });
}

/** Add the figures to the games just listed and to the stats of a page of /me's answer.
 * @param {{games: {table: string, luck?: LuckSkill | null}[], stats: {luck?: LuckSkill | null}}} got */
export function showLuck(got) {
  for (const g of got.games) {
    if (!g.luck) continue;
    const li = document.querySelector(`li[data-table="${CSS.escape(g.table)}"]`);
    li?.querySelector(".luck")?.remove();
    li?.insertBefore(el("span", { class: "luck", "data-luck": g.luck.luck, "data-skill": g.luck.skill ?? "" }, gameWords(g.luck)), li.querySelector(".replay"));
  }
  const list = $("stat-list");
  for (const k of ["luck", "skill"]) list.querySelector(`[data-stat="${k}"]`)?.remove();
  const f = got.stats.luck;
  if (!f) return;
  list.appendChild(el("div", { class: "stat", "data-stat": "luck", title: t("luck.about") },
    el("dt", {}, t("luck.stat.luck")), el("dd", {}, fmt(f.luck))));
  if (f.skill !== null) {
    list.appendChild(el("div", { class: "stat", "data-stat": "skill", title: t("luck.about") },
      el("dt", {}, t("luck.stat.skill")), el("dd", {}, fmt(f.skill))));
  }
  list.hidden = false;
}
