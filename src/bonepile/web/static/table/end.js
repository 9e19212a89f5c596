// The end of a hand (every hand shown, how it ended, who we wait for) and of the game (the
// banner), and the line that says whose turn it is.
import { $, $button, el, clear, api, setToken, getName, setAlert, sideLabels, endWords, winnerWords, scoreWords } from "/static/common.js";
import { tileWords } from "/static/render.js";
import { renderHands, renderScoreParts } from "/static/panels.js";
import { store, tableId, alertBox } from "/static/table/state.js";
import { names, people, shortSides } from "/static/table/words.js";
import { send } from "/static/table/socket.js";
import { rematchPart } from "/static/table/rematch.js";
import { bannerRating } from "/static/table/rating.js";
import { t } from "/static/i18n.js";

/** @typedef {import("/static/messages.js").StateMessage} StateMessage */
/** @typedef {import("/static/messages.js").View} View */
/** @typedef {import("/static/messages.js").TableInfo} TableInfo */
/** @typedef {import("/static/messages.js").RematchOffer} RematchOffer */

/** The game's result in words: who won and the final score.
 * @param {TableInfo | null | undefined} table @param {number[][]} sides @param {string[]} nm
 * @param {number | null | undefined} you */
export function overText(table, sides, nm, you) {
  const w = table?.winner;
  if (w === null || w === undefined) return t("end.game_over_plain");
  const labels = sideLabels(table, sides);
  const short = shortSides(sides, nm);
  const who = short[w] !== labels[w] ? `${short[w]} (${labels[w]})` : labels[w];
  const totals = table?.totals || [];
  const mine = sides?.[w]?.includes(you ?? -1);
  const text = totals.some((x) => x) ? t("end.game_over_score", { who, score: scoreWords(totals, w, short) })
    : t("end.game_over_won", { who });
  return `${text}${you === undefined || you === null ? "" : mine ? ` ${t("end.you_won")}` : ""}`;
}

/** A new table for the same game, rules, seats and clock, the old way (after a rematch was
 * declined or not answered): you take the first human seat; the link goes to the old
 * table's chat for the friends who played with you.
 * @param {TableInfo} table @param {number | null} you */
async function newTable(table, you) {
  const me = (table.seats || []).find((s) => s.seat === you);
  const { players, ...options } = table.options || {};
  /** @type {{kind: string, level?: string | null, name?: string}[]} */
  const seats = (table.seats || []).map((s) => (s.kind === "bot" ? { kind: "bot", level: s.level } : { kind: "human" }));
  const first = seats.findIndex((s) => s.kind === "human");
  if (first >= 0) seats[first].name = me?.name || getName() || t("lobby.seat.you");
  $button("new-table").disabled = true;
  try {
    const res = await api("POST", "/api/tables", { variant: table.variant, players: players ?? table.players,
      options, seats, name: table.name, player: me?.name || getName() || t("lobby.seat.you"), timer: table.timer || 0 });
    setToken(res.id, res.token);
    const url = `${location.origin}${res.invite || `/t/${encodeURIComponent(res.id)}`}`;
    if ((table.seats || []).filter((s) => s.kind === "human").length > 1) send({ type: "chat", text: t("end.again_chat", { url }) });
    location.href = url;
  } catch (e) {
    setAlert(alertBox, t("end.again_failed", { error: e.message }));
    $button("new-table").disabled = false;
  }
}

/** The game's end: its result, the rematch (asked for, to answer, being played) and links.
 * @param {TableInfo} table @param {number[][]} sides @param {string[]} nm @param {number | null} you
 * @param {RematchOffer | null} [offer] */
export function renderBanner(table, sides, nm, you, offer = null) {
  const box = clear($("banner"));
  box.hidden = false;
  box.appendChild(el("strong", { "data-banner": "over" }, overText(table, sides, nm, you)));
  const rating = store.state ? bannerRating(store.state) : null;
  if (rating) box.appendChild(rating);
  if (table?.status === "over" && !table.tournament) {
    const part = rematchPart(offer, table.rematch, you, () => newTable(table, you));
    if (part) box.appendChild(part);
  }
  box.appendChild(el("span", { class: "banner-links" },
    el("a", { href: `/replay?table=${encodeURIComponent(tableId)}`, id: "banner-replay" }, t("end.watch_replay")),
    table?.tournament  // a tournament's table: its next round is seated from the tournament's page
      ? el("a", { href: `/tournaments/${encodeURIComponent(table.tournament)}`, id: "banner-tournament" }, t("tourney.back"))
      : el("a", { href: "/" }, t("end.back_lobby"))));
}

/** @param {StateMessage} st @param {View | null} view @param {string[]} nm */
export function renderEnd(st, view, nm) {
  const box = $("revealed");
  const done = view && view.over && view.revealed;
  box.hidden = !done;
  $("hand-card").hidden = !!done && ["hand_over", "over", "leader"].includes(st.phase);
  if (st.phase === "over") renderBanner(st.table, view?.sides || st.table?.sides || [], nm, st.you, st.rematch);
  else $("banner").hidden = true;
  if (!done) return;
  const line = (st.pad || []).find((p) => p.hand === view.hand_number) || (st.pad || [])[st.pad.length - 1];
  const labels = sideLabels(st.table, view.sides);
  const short = shortSides(view.sides, people());  // you are "you"
  const named = (/** @type {number} */ i) => (view.sides[i]?.length > 1 ? `${short[i]} (${labels[i]})` : short[i]);
  let summary = endWords(view.end);
  if (line) {
    summary += `, ${winnerWords(line, short.map((x, i) => named(i)))}`;
    if (st.table?.scoring !== "hands") summary += `; ${t("end.points", { points: line.points.map((p, i) => `${short[i]} ${p}`).join(", ") })}`;
  }
  $("rev-title").textContent = st.phase === "over" ? t("end.game_over") : t("end.hand_over");
  $("hand-summary").textContent = t("end.summary", { hand: view.hand_number, text: summary });
  renderScoreParts($("score-parts"), line, st.table?.scoring === "hands");
  renderHands($("revealed-rows"), view.revealed || [], nm, { you: st.you });
  const ready = st.ready || [];
  const humans = (st.table?.seats || []).filter((s) => s.kind === "human" && !s.bot_playing).map((s) => s.seat);
  const waiting = humans.filter((s) => !ready.includes(s));
  const who = people();
  $("ready-line").textContent = st.phase === "hand_over"
    ? (waiting.length ? t("end.waiting_next", { names: waiting.map((s) => who[s]).join(", ") }) : t("end.dealing"))
    : "";
}

/** @param {StateMessage} st @param {View | null} view @param {string[]} nm */
export function renderTurn(st, view, nm) {
  let text = "";
  if (st.phase === "waiting") text = t("turn.waiting");
  else if (st.phase === "over") {
    text = overText(st.table, view?.sides || st.table?.sides || [], names(), st.you);
  } else if (st.phase === "hand_over") text = t("turn.hand_over");
  else if (st.phase === "leader") text = t("turn.leader");
  else if (view) {
    if (store.myTurn()) {
      text = store.busy ? t("turn.sent") : st.forced ? t("turn.forced") : t("turn.yours");
      if (store.selected) text += ` ${t("turn.choose_end", { tile: tileWords(store.selected) })}`;
    } else text = t("turn.other", { name: names()[view.to_move ?? -1] ?? "?" });
  }
  $("turn").textContent = text;
}
