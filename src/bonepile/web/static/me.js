// "Your games": this browser's profile's finished games, newest first, with the result, the
// final score and a link to each game's replay; a select keeps one game's tables only.
import { $, $field, el, clear, api, seatName, setAlert } from "/static/common.js";
import { ready, t, has, language } from "/static/i18n.js";
import { getProfile, profileHeaders } from "/static/profile.js";
import { ratingText } from "/static/rating.js";
import { ratingGraph } from "/static/ratinggraph.js";
import "/static/puzzles/me.js";  // the puzzle rating, in its own card
import { showLuck } from "/static/luck.js";

await ready;

const alertBox = $("alert");
/** @typedef {{seat: number, name: string, named: boolean, kind: string, level: string | null}} HistorySeat */
/**
 * @typedef {object} HistoryGame  one finished game of the profile's
 * @property {string} table
 * @property {string} variant
 * @property {number} players
 * @property {number} finished  when its last action was (seconds)
 * @property {number} side  the profile's side
 * @property {HistorySeat[]} partners
 * @property {HistorySeat[]} opponents
 * @property {number[]} totals
 * @property {string} result  "won", "lost", "tied"
 * @property {boolean} rated
 * @property {string} replay
 */
/** @typedef {Record<string, number | null> & {games: number, wins: number, win_rate: number | null}} HistoryStats */

const profile = getProfile();
/** @type {Record<string, string>} */
let labels = {};
/** Where the next page of games starts (null: no more). @type {number | null} */
let next = null;

const gameWords = (/** @type {HistoryGame} */ g) => t("lobby.game_players", { game: labels[g.variant] || t("common.dominoes"), n: g.players });
/** A seat's name; a bot the server named by its level is called by its level's words.
 * @param {HistorySeat} s @param {HistorySeat[]} seats */
function seatWords(s, seats) {
  const key = `bot.level.${s.level}`;
  if (s.kind === "bot" && s.named === false && has(key)) return t(key);
  return seatName({ seats }, s.seat);
}
const names = (/** @type {HistorySeat[]} */ seats) => seats.map((s) => seatWords(s, seats)).join(", ");

/** @param {number} seconds */
function when(seconds) {
  try {
    return new Date(seconds * 1000).toLocaleString(language(), { dateStyle: "medium", timeStyle: "short" });
  } catch { return new Date(seconds * 1000).toLocaleString(); }
}

/** @param {HistoryGame} g */
function score(g) {
  const mine = g.totals[g.side];
  const others = g.totals.filter((_, i) => i !== g.side);
  return t("history.score", { mine, others: others.join(" · ") });
}

/** @param {HistoryGame} g */
function row(g) {
  const who = [];
  if (g.partners.length) who.push(t("history.with", { names: names(g.partners) }));
  if (g.opponents.length) who.push(t("history.against", { names: names(g.opponents) }));
  return el("li", { "data-table": g.table },
    el("span", { class: "what" }, gameWords(g), " ",
      el("span", { class: "badge" }, t(g.rated ? "history.rated" : "history.casual"))),
    el("span", { class: `result ${g.result}` }, t(`history.${g.result}`)),
    el("span", { class: "who" }, who.join(" · ")),
    el("span", { class: "score" }, score(g)),
    el("span", { class: "when" }, when(g.finished)),
    el("a", { class: "replay", href: g.replay }, t("history.replay")));
}

// the figures the server counts, in this order; one it sends as null is not a thing of the
// games shown (a bonus only some games have, points per hand of several games) and is left out
const FIGURES = ["hands", "points_per_hand", "dominoes", "blocked_won", "capicus", "chuchazos"];
const numbers = new Intl.NumberFormat(language() === "es" ? "es-419" : language(), { maximumFractionDigits: 1 });

/** @param {HistoryStats} s */
function showStats(s) {
  $("stats").textContent = s.games
    ? t("history.stats", { n: s.games, wins: s.wins, rate: Math.round((s.win_rate ?? 0) * 100) })
    : "";
  const list = clear($("stat-list"));
  for (const k of FIGURES) {
    const figure = s[k];
    if (!s.games || figure === null || figure === undefined) continue;
    list.appendChild(el("div", { class: "stat", "data-stat": k },
      el("dt", {}, t(`history.stat.${k}`)), el("dd", {}, numbers.format(figure))));
  }
  list.hidden = !list.children.length;
}

async function load(more = false) {
  const game = $field("game-filter").value;
  const q = new URLSearchParams();
  if (game) q.set("game", game);
  if (more && next !== null) q.set("before", String(next));
  let got;
  try {
    got = await api("GET", `/api/profiles/${encodeURIComponent(profile?.id ?? "")}/games?${q}`, undefined, profileHeaders());
  } catch (e) {
    setAlert(alertBox, t("history.failed", { error: e.message }));
    return;
  }
  setAlert(alertBox, "");
  const list = more ? $("games") : clear($("games"));
  for (const g of /** @type {HistoryGame[]} */ (got.games)) list.appendChild(row(g));
  showStats(got.stats);
  showLuck(got);
  next = got.next_before;
  $("more").hidden = next === null;
  const empty = !list.children.length;
  $("empty").hidden = !empty;
  if (empty) $("empty").textContent = t(game ? "history.none_of_game" : "history.none");
}

/** Your rating per game, most played first, each with its graph over time. */
async function loadRatings() {
  const box = $("my-ratings");
  if (!profile) { clear(box).appendChild(el("p", { class: "muted" }, t("history.no_profile"))); return; }
  let got;
  try { got = await api("GET", `/api/profiles/${encodeURIComponent(profile.id)}/ratings`); } catch (e) {
    clear(box).appendChild(el("p", { class: "muted" }, e.status === 404 ? t("rating.me_none") : t("history.failed", { error: e.message })));
    return;
  }
  clear(box);
  if (!got.games.length) { box.appendChild(el("p", { class: "muted" }, t("rating.me_none"))); return; }
  for (const g of got.games) {
    const game = t("lobby.game_players", { game: labels[g.variant] || t("common.dominoes"), n: g.players });
    const now = ratingText(g);
    const label = t("rating.graph_label", { game, rating: now, n: g.games });
    box.appendChild(el("div", { class: "rating-series", "data-game": g.game },
      el("h3", {}, t("rating.series", { game, rating: now, n: g.games })),
      g.points.length ? ratingGraph(g.points, label) : null));
  }
}

async function start() {
  const sel = $field("game-filter");
  sel.appendChild(el("option", { value: "" }, t("history.all_games")));
  try {
    const c = await api("GET", "/api/variants");
    for (const v of c?.variants || []) {
      labels[v.name] = has(v.label_key) ? t(v.label_key) : v.label;
      sel.appendChild(el("option", { value: v.name }, labels[v.name]));
    }
  } catch { /* the list still shows, without the filter's choices */ }
  loadRatings();
  if (!profile) {
    sel.disabled = true;
    $("empty").hidden = false;
    $("empty").textContent = t("history.no_profile");
    return;
  }
  sel.addEventListener("change", () => load());
  $("more").addEventListener("click", () => load(true));
  await load();
}

await start();
document.body.dataset.ready = "1";
