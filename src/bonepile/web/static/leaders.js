// The leaderboards: pick a game and a player count, see the players with enough rated games
// best first (GET /api/ratings/<game>-<players>), and your own rating (this browser's profile)
// marked, provisional or not. The games and their names come from the server's catalogue.
import { $, $field, api, clear, el, setAlert, showValue } from "/static/common.js";
import { has, ready, t } from "/static/i18n.js";
import { getProfile } from "/static/profile.js";
import { ratingText } from "/static/rating.js";

await ready;

const alertBox = $("alert");
/** @typedef {import("/static/messages.js").VariantInfo} VariantInfo */
/** A leaderboard line: a participant ("profile:<id>" or "bot:<level>") and its rating.
 * @typedef {{participant: string, name?: string | null, rating: number, games: number, provisional: boolean}} Rated */
/** @typedef {{ratings: Rated[], provisional_games: number}} Board */

/** @type {{variants: VariantInfo[]}} */
let catalog = { variants: [] };
let shown = 0;  // the latest request's number: an older answer arriving late is dropped

const words = (/** @type {string} */ key, /** @type {string} */ english) => (key && has(key) ? t(key) : english);
const gameName = (/** @type {VariantInfo} */ v) => words(v.label_key, v.label || showValue(v.name));
// a rating as every page writes it (rating.js): a whole number, "?" while provisional
const points = (/** @type {number} */ r, provisional = false) => ratingText({ rating: r, provisional });

/** A participant's name: a profile's, or a bot's level in words. @param {Rated} e */
function who(e) {
  if (e.participant.startsWith("bot:")) {
    const level = e.participant.slice(4);
    return has(`bot.level.${level}`) ? t(`bot.level.${level}`) : t("bot.generic", { level: showValue(level) });
  }
  return e.name || t("leaders.unnamed");
}

/** @param {number} keep */
function fillPlayers(keep) {
  const v = catalog.variants.find((x) => x.name === $field("game").value);
  const sel = clear($field("players"));
  for (const n of v?.players || []) sel.appendChild(el("option", { value: String(n) }, String(n)));
  const want = (v?.players || []).includes(keep) ? keep : v?.default_players;
  if (want) sel.value = String(want);
}

/** @param {Board} board @param {string | null} mine */
function table(board, mine) {
  const body = el("tbody");
  board.ratings.forEach((e, i) => {
    const row = el("tr", e.participant === mine ? { class: "mine", "aria-current": "true" } : {},
      el("td", { class: "rank num" }, String(i + 1)),
      el("td", {}, who(e)),
      el("td", { class: "num" }, points(e.rating)),
      el("td", { class: "num" }, String(e.games)));
    body.appendChild(row);
  });
  return el("table", { class: "list", id: "ratings" },
    el("thead", {}, el("tr", {},
      el("th", { class: "num", scope: "col" }, t("leaders.col.rank")),
      el("th", { scope: "col" }, t("leaders.col.name")),
      el("th", { class: "num", scope: "col" }, t("leaders.col.rating")),
      el("th", { class: "num", scope: "col" }, t("leaders.col.games")))),
    body);
}

/** Your own line: your rating, marked provisional (with the games still to play) if so.
 * @param {Rated | null} mine @param {Board} board @param {number} min */
function yourLine(mine, board, min) {
  const box = $("you");
  box.hidden = !mine;
  if (!mine) return;
  if (!mine.provisional) {
    const place = board.ratings.findIndex((e) => e.participant === mine.participant);
    box.textContent = place >= 0
      ? t("leaders.you.ranked", { rating: points(mine.rating), rank: place + 1 })
      : t("leaders.you.rating", { rating: points(mine.rating) });
    return;
  }
  box.textContent = `${t("leaders.you.rating", { rating: points(mine.rating) })} ${t("leaders.you.provisional",
    { n: Math.max(1, min - mine.games) })}`;
}

async function show() {
  const mine = ++shown;
  document.body.dataset.ready = "0";  // "1" once this board is drawn
  setAlert(alertBox, "");
  const key = `${$field("game").value}-${$field("players").value}`;
  history.replaceState(null, "", `/leaderboard?game=${encodeURIComponent(key)}`);
  const me = getProfile();
  const id = me ? `profile:${me.id}` : null;
  /** @type {Board} */
  let board;
  /** @type {Rated | null} */
  let own = null;
  try {
    board = await api("GET", `/api/ratings/${encodeURIComponent(key)}`);
    if (id) {
      try { own = await api("GET", `/api/ratings/${encodeURIComponent(key)}/${encodeURIComponent(id)}`); } catch (e) {
        if (e.status !== 404) throw e;
      }
    }
  } catch (e) {
    if (mine !== shown) return;
    setAlert(alertBox, t("leaders.failed", { error: e.message }));
    document.body.dataset.ready = "1";
    return;
  }
  if (mine !== shown) return;
  const box = clear($("board"));
  box.appendChild(board.ratings.length ? table(board, id)
    : el("p", { class: "muted empty" }, t("leaders.empty")));
  yourLine(own, board, board.provisional_games);
  $("about").textContent = t("leaders.about", { n: board.provisional_games });
  document.body.dataset.ready = "1";
}

/** The game (key) the visitor plays most: their profile's most rated games, else the game
 * last chosen in the lobby, else "" (the first). */
async function playedMost() {
  const me = getProfile();
  if (me) {
    try {
      const h = await api("GET", `/api/profiles/${encodeURIComponent(me.id)}/ratings`);
      if (h.most_played) return h.most_played;
    } catch { /* no ratings yet */ }
  }
  try {
    const last = JSON.parse(localStorage.getItem("bonepile:lobby") || "null");
    if (last?.variant && last?.players) return `${last.variant}-${last.players}`;
  } catch { /* nothing remembered */ }
  return "";
}

async function init() {
  try { catalog = await api("GET", "/api/variants"); } catch (e) {
    setAlert(alertBox, t("leaders.failed", { error: e.message }));
    return;
  }
  const sel = $field("game");
  for (const v of catalog.variants) sel.appendChild(el("option", { value: v.name }, gameName(v)));
  const asked = new URLSearchParams(location.search).get("game") || await playedMost();
  const cut = asked.lastIndexOf("-");
  const name = cut > 0 ? asked.slice(0, cut) : "";
  if (catalog.variants.some((v) => v.name === name)) sel.value = name;
  fillPlayers(Number(asked.slice(cut + 1)));
  sel.addEventListener("change", () => { fillPlayers(Number($field("players").value)); show(); });
  $("players").addEventListener("change", show);
  await show();
}

init();
