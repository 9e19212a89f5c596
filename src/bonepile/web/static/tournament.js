// Tournaments: the list of open ones and the form to make one (/tournaments), and one
// tournament (/tournaments/<id>): join it, your table in play, the rounds with their tables
// (Watch), the standings and, per deal, your result against everyone who held the same
// tiles. Polled every few seconds. The server sends every word key (the game's name too).
import { $, $button, $field, api, clear, el, getName, setAlert, setToken } from "/static/common.js";
import { has, ready, t } from "/static/i18n.js";
import { ensureProfile, getProfile, profileHeaders } from "/static/profile.js";

await ready;

const alertBox = $("alert");
const POLL_MS = 2000;
const parts = location.pathname.split("/").filter(Boolean);
const id = parts[1] || null;
const invite = new URLSearchParams(location.search).get("invite");

/** A number as people read it: whole, or with one decimal. @param {number} x */
const num = (x) => (Number.isInteger(x) ? String(x) : x.toFixed(1));
/** @param {number} x */
const signed = (x) => (x > 0 ? `+${num(x)}` : num(x));
/** @param {string} key @param {Record<string, unknown>} [p] */
const words = (key, p = {}) => (has(key) ? t(key, p) : key);

/** The summary line of a tournament. @param {any} s */
function summary(s) {
  return [
    words(s.game),
    t("tourney.players_n", { n: s.players }),
    words(`tourney.format.${s.format}`),
    words(`tourney.scoring.${s.scoring}`),
    t("tourney.rounds_n", { n: s.rounds }),
    t("tourney.hands_n", { n: s.hands }),
    s.pairs ? t("tourney.in_pairs") : "",
  ].filter(Boolean).join(" · ");
}

/** @param {any} s */
function statusWords(s) {
  if (s.status === "waiting" && s.start_at) {
    const at = new Date(s.start_at * 1000).toLocaleString(document.documentElement.lang || undefined,
      { dateStyle: "medium", timeStyle: "short" });
    return `${t("tourney.waiting", { n: s.entrants, want: s.start_when })} ${t("tourney.starts_at", { at })}`;
  }
  if (s.status === "waiting") return t("tourney.waiting", { n: s.entrants, want: s.start_when });
  if (s.status === "over") return t("tourney.over");
  return t("tourney.round_of", { n: s.round, of: s.rounds });
}

// ------------------------------------------------------------------ the list
async function showList() {
  $("list-view").hidden = false;
  try {
    const catalog = await api("GET", "/api/variants");
    const game = $field("t-game");
    for (const v of catalog.variants) game.appendChild(el("option", { value: v.name }, words(v.label_key)));
    const fill = () => {
      const v = catalog.variants.find((/** @type {any} */ x) => x.name === game.value);
      const sel = clear($field("t-players"));
      for (const n of v?.players || []) sel.appendChild(el("option", { value: String(n) }, String(n)));
      if (v?.default_players) sel.value = String(v.default_players);
    };
    game.addEventListener("change", fill);
    fill();
  } catch (e) { setAlert(alertBox, String(/** @type {Error} */ (e).message)); }
  $("new").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    setAlert(alertBox, "");
    $button("t-create").disabled = true;
    try {
      await ensureProfile(getName(), t("tourney.player"));
      const body = {
        name: $field("t-name").value,
        variant: $field("t-game").value,
        players: Number($field("t-players").value),
        format: $field("t-format").value,
        scoring: $field("t-scoring").value,
        rounds: Number($field("t-rounds").value),
        hands: Number($field("t-hands").value),
        start_when: Number($field("t-start").value),
        start_at: $field("t-at").value ? new Date($field("t-at").value).getTime() / 1000 : null,
        pairs: $field("t-pairs").checked,
        private: $field("t-private").checked,
      };
      const made = await api("POST", "/api/tournaments", body, profileHeaders());
      location.href = made.link;
    } catch (e) {
      setAlert(alertBox, String(/** @type {Error} */ (e).message));
      $button("t-create").disabled = false;
    }
  });
  const draw = async () => {
    try {
      const got = await api("GET", "/api/tournaments");
      const box = clear($("open"));
      if (!got.tournaments.length) box.appendChild(el("p", { class: "muted" }, t("tourney.none")));
      const list = el("ul", { class: "tables" });
      for (const s of got.tournaments) {
        list.appendChild(el("li", {}, el("a", { href: `/tournaments/${s.id}` }, s.name), " ",
          el("span", { class: "small muted" }, `${summary(s)} · ${statusWords(s)}`)));
      }
      box.appendChild(list);
    } catch (e) { setAlert(alertBox, String(/** @type {Error} */ (e).message)); }
    document.body.dataset.ready = "1";
  };
  await draw();
  setInterval(draw, POLL_MS * 3);
}

// ------------------------------------------------------------------ one tournament
/** @type {any} */
let last = null;

/** An entrant's name (a pair: both names), a bot marked. @param {number} n */
function who(n) {
  const e = last.entrants_list[n];
  if (!e) return "?";
  const name = e.partner ? `${e.name} & ${e.partner}` : e.name;
  return e.bot ? t("tourney.bot_entrant", { name }) : name;
}

/** @param {any} s */
function standingsTable(s) {
  const body = el("tbody");
  for (const r of s.standings) {
    const mine = r.entrant === s.entrant;
    body.appendChild(el("tr", mine ? { class: "mine", "aria-current": "true" } : {},
      el("td", { class: "num" }, r.rank === null ? "–" : String(r.rank)),
      el("td", {}, who(r.entrant)),
      el("td", { class: "num" }, num(r.score)),
      el("td", { class: "num" }, signed(r.difference)),
      el("td", { class: "num wide" }, num(r.buchholz)),
      el("td", { class: "num wide" }, String(r.deals))));
  }
  return el("table", { class: "list", id: "standings-table" },
    el("thead", {}, el("tr", {},
      el("th", { class: "num", scope: "col" }, t("tourney.col.rank")),
      el("th", { scope: "col" }, t("tourney.col.name")),
      el("th", { class: "num", scope: "col" }, words(`tourney.scoring.${s.scoring}`)),
      el("th", { class: "num", scope: "col" }, t("tourney.col.difference")),
      el("th", { class: "num wide", scope: "col" }, t("tourney.col.buchholz")),
      el("th", { class: "num wide", scope: "col" }, t("tourney.col.deals")))),
    body);
}

/** @param {any} s */
function roundsList(s) {
  const box = el("div");
  for (const r of [...s.rounds_played].reverse()) {
    box.appendChild(el("h3", {}, t("tourney.round_n", { n: r.round })));
    box.appendChild(el("p", { class: "hint-text" }, t("tourney.commitment", { hash: r.commitment.slice(0, 16) })));
    // every table of a round holds the same deals: none is shown until the whole round is over
    const live = r.tables.some((/** @type {any} */ y) => !y.over);
    if (live) box.appendChild(el("p", { class: "hint-text" }, t("tourney.round_hidden")));
    const list = el("ul", { class: "tables" });
    for (const x of r.tables) {
      const names = x.entrants.map(who).join(" – ");
      const away = x.away.length ? ` · ${t("tourney.away", { n: x.away.length })}` : "";
      list.appendChild(el("li", {}, `${t("tourney.table_n", { n: x.number })}: ${names} `,
        el("span", { class: "small muted" }, (x.over ? t("tourney.table_over") : t("tourney.table_playing")) + away), " ",
        live ? "" : el("a", { href: `/t/${x.table}` }, t("tourney.see"))));
    }
    box.appendChild(list);
  }
  return box;
}

/** Your deals: your result, the field's on the same tiles, and what you gained. @param {any} s */
function dealsTable(s) {
  const body = el("tbody");
  for (const d of s.deals) {
    const mine = d.results.find((/** @type {any} */ x) => x.entrant === s.entrant);
    if (!mine) continue;
    const others = d.results.filter((/** @type {any} */ x) => x !== mine).map((/** @type {any} */ x) => signed(x.result));
    const top = 2 * (d.results.length - 1);
    const half = s.scoring === "matchpoints" ? top / 2 : 0;
    body.appendChild(el("tr", {},
      el("td", {}, t("tourney.deal_n", { round: d.round, hand: d.hand })),
      el("td", { class: "num" }, signed(mine.result)),
      el("td", {}, others.join(", ") || "–"),
      el("td", { class: `num ${mine.score > half ? "gain" : mine.score < half ? "loss" : ""}` },
        s.scoring === "matchpoints" ? t("tourney.of_top", { n: num(mine.score), top }) : signed(mine.score))));
  }
  if (!body.childNodes.length) return el("p", { class: "muted" }, t("tourney.no_deals"));
  return el("table", { class: "list", id: "deals-table" },
    el("thead", {}, el("tr", {},
      el("th", { scope: "col" }, t("tourney.col.deal")),
      el("th", { class: "num", scope: "col" }, t("tourney.col.yours")),
      el("th", { scope: "col" }, t("tourney.col.field")),
      el("th", { class: "num", scope: "col" }, words(`tourney.scoring.${s.scoring}`)))),
    body);
}

async function refresh() {
  try {
    const s = await api("GET", `/api/tournaments/${encodeURIComponent(/** @type {string} */ (id))}`, undefined, profileHeaders());
    last = s;
    $("t-title").textContent = s.name;
    $("t-summary").textContent = summary(s);
    $("t-status").textContent = statusWords(s);
    $("join").hidden = !(s.status === "waiting" && s.entrant === null);
    const you = $("you");
    you.hidden = !s.you;
    clear(you);
    if (s.you) {
      setToken(s.you.table, s.you.token);
      you.append(t("tourney.your_table"), " ", el("a", { href: `/t/${s.you.table}`, id: "play-link" }, t("tourney.play")));
    }
    clear($("standings")).appendChild(s.standings.some((/** @type {any} */ r) => r.deals) ? standingsTable(s)
      : el("p", { class: "muted" }, t("tourney.no_standings")));
    clear($("rounds")).appendChild(roundsList(s));
    clear($("deals")).appendChild(dealsTable(s));
    document.body.dataset.ready = "1";
  } catch (e) {
    setAlert(alertBox, String(/** @type {Error} */ (e).message));
    document.body.dataset.ready = "1";
  }
}

async function showOne() {
  $("one-view").hidden = false;
  $("join").addEventListener("click", async () => {
    setAlert(alertBox, "");
    try {
      if (!getProfile()) await ensureProfile(getName(), t("tourney.player"));
      await api("POST", `/api/tournaments/${encodeURIComponent(/** @type {string} */ (id))}/join`,
        invite ? { invite } : {}, profileHeaders());
    } catch (e) { setAlert(alertBox, String(/** @type {Error} */ (e).message)); }
    await refresh();
  });
  await refresh();
  setInterval(refresh, POLL_MS);
}

if (id) showOne(); else showList();
