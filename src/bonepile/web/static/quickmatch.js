// The lobby's quick match and "who is here". Quick match: pick a game and a player count, how
// long you will wait for people before bots fill the table (or people only) and the bots'
// level; the server seats you with people of about your rating (POST /api/match, then the
// ticket is polled until it names your table). Who is here: the people at this server's tables
// or in its queue, and what they play (GET /api/online); invite one of them to the game chosen
// in the card (a ticket naming them), or accept someone's invitation.
import { $, $field, $button, el, clear, api, setToken, getName, setAlert } from "/static/common.js";
import { t } from "/static/i18n.js";
import { ensureProfile, getProfile, profileHeaders } from "/static/profile.js";
import { ratingText } from "/static/rating.js";

/** @typedef {import("/static/messages.js").VariantInfo} VariantInfo */
/** @typedef {{ticket: string, status: string, waited: number, rating: number, gap: number, queued: number,
 *   bots_after: number | null, table: string | null, seat: number | null, token: string | null}} MatchState */
/** @typedef {{profile: string, name: string, game: string, variant: string, players: number,
 *   doing: string, table: string | null}} OnlinePerson */
/** @typedef {{profile: string, name: string, game: string, variant: string, players: number,
 *   options: Record<string, unknown>}} Invitation */

const MEMORY = "bonepile:quick";
export const RATED = "bonepile:rated";  // the "rated game" choice, remembered (on by default)
const WAITS = [15, 30, 60, 120];

/** @type {{variants: VariantInfo[], bot_levels: string[]}} */
let cat = { variants: [], bot_levels: [] };
/** @type {(v: VariantInfo | undefined) => string} */
let gameName = () => "";
/** @type {(level: string | null) => string} */
let levelName = () => "";
/** @type {HTMLElement} */
let alertBox;
let ticket = "";
let inviting = "";  // the name of the person this ticket invites ("" for anyone)
/** @type {number | undefined} */
let timer;

function remembered() {
  try { return JSON.parse(localStorage.getItem(MEMORY) || "null") || {}; } catch { return {}; }
}

/** The rated choice of this browser (on unless it was turned off). */
export function ratedChoice() {
  try { return localStorage.getItem(RATED) !== "0"; } catch { return true; }
}
/** @param {boolean} on */
export function rememberRated(on) {
  try { localStorage.setItem(RATED, on ? "1" : "0"); } catch { /* private mode */ }
}

function fillPlayers() {
  const v = cat.variants.find((x) => x.name === $field("quick-game").value);
  const sel = clear($field("quick-players"));
  for (const n of v?.players || []) sel.appendChild(el("option", { value: String(n) }, String(n)));
  const want = remembered().players;
  sel.value = String((v?.players || []).includes(want) ? want : v?.default_players ?? v?.players?.[0]);
}

/** @param {string} text @param {boolean} [looking] */
function status(text, looking = false) {
  $("quick-status").textContent = text;
  $button("quick-find").hidden = looking;
  $button("quick-cancel").hidden = !looking;
  for (const id of ["quick-game", "quick-players", "quick-wait", "quick-level"]) $field(id).disabled = looking;
}

/** @param {MatchState} m */
function waitingWords(m) {
  if (inviting) return t("match.inviting", { name: inviting, s: Math.round(m.waited) });
  const game = gameName(cat.variants.find((v) => v.name === $field("quick-game").value));
  return t("match.waiting", { game, n: Number($field("quick-players").value), rating: ratingText({ rating: m.rating, provisional: false }),
    s: Math.round(m.waited) });
}

async function poll() {
  if (!ticket) return;
  /** @type {MatchState} */
  let m;
  try { m = await api("GET", `/api/match/${encodeURIComponent(ticket)}`); } catch (e) {
    ticket = "";
    status("");
    setAlert(alertBox, t("match.failed", { error: e.message }));
    return;
  }
  if (m.status === "seated" && m.table && m.token) {
    ticket = "";
    setToken(m.table, m.token);
    status(t("match.seated"), true);
    location.href = `/t/${encodeURIComponent(m.table)}`;
    return;
  }
  status(waitingWords(m), true);
  timer = window.setTimeout(poll, 1000);
}

/** Ask for a game: the card's choice, or an invitation (to a person, or accepting theirs).
 * @param {{invite: string, name: string, variant?: string, players?: number, options?: Record<string, unknown>}} [who] */
async function find(who) {
  setAlert(alertBox, "");
  if (ticket) await cancel();
  const wait = $field("quick-wait").value;
  if (who?.variant) {
    $field("quick-game").value = who.variant;
    fillPlayers();
    $field("quick-players").value = String(who.players);
  }
  /** @type {Record<string, unknown>} */
  const body = { variant: $field("quick-game").value, players: Number($field("quick-players").value),
    bots_after: wait === "never" ? null : Number(wait), level: $field("quick-level").value, rated: ratedChoice() };
  if (who) { body.invite = who.invite; if (who.options) body.options = who.options; }
  inviting = who?.name || "";
  if (!who) try { localStorage.setItem(MEMORY, JSON.stringify({ variant: body.variant, players: body.players, wait, level: body.level })); } catch { /* private mode */ }
  $button("quick-find").disabled = true;
  try {
    const me = await ensureProfile(($field("name").value || "").trim() || getName(), t("lobby.player"));
    if (!me) throw new Error(t("match.no_profile"));
    /** @type {MatchState} */
    const m = await api("POST", "/api/match", body, profileHeaders());
    ticket = m.ticket;
    status(waitingWords(m), true);
    $button("quick-cancel").focus();
    timer = window.setTimeout(poll, 500);
  } catch (e) {
    setAlert(alertBox, t("match.failed", { error: e.message }));
  } finally { $button("quick-find").disabled = false; }
}

async function cancel() {
  window.clearTimeout(timer);
  const was = ticket;
  ticket = "";
  status(t("match.stopped"));
  $button("quick-find").focus();
  if (was) { try { await api("DELETE", `/api/match/${encodeURIComponent(was)}`); } catch { /* it times out */ } }
}

/** Build the quick-match card from the catalogue.
 * @param {{variants: VariantInfo[], bot_levels: string[], default_bot_level?: string}} catalog
 * @param {(v: VariantInfo | undefined) => string} names @param {(level: string | null) => string} levels
 * @param {HTMLElement} alerts */
export function initQuickMatch(catalog, names, levels, alerts) {
  cat = catalog; gameName = names; levelName = levels; alertBox = alerts;
  const m = remembered();
  const game = $field("quick-game");
  for (const v of cat.variants) game.appendChild(el("option", { value: v.name }, gameName(v)));
  if (cat.variants.map((v) => v.name).includes(m.variant)) game.value = m.variant;
  fillPlayers();
  game.addEventListener("change", fillPlayers);
  const wait = $field("quick-wait");
  for (const s of WAITS) wait.appendChild(el("option", { value: String(s) }, t("match.wait_s", { s })));
  wait.appendChild(el("option", { value: "never" }, t("match.wait_never")));
  wait.value = m.wait && [...WAITS.map(String), "never"].includes(m.wait) ? m.wait : "30";
  const level = $field("quick-level");
  for (const l of cat.bot_levels) level.appendChild(el("option", { value: l }, levelName(l) || l));
  level.value = cat.bot_levels.includes(m.level) ? m.level : (catalog.default_bot_level || cat.bot_levels[0]);
  $("quick-find").addEventListener("click", () => find());
  $("quick-cancel").addEventListener("click", cancel);
}

/** The people here and what they play (you left out), with a link to watch or join.
 * @param {(variant: string) => VariantInfo | undefined} variant */
export async function loadOnline(variant) {
  const box = $("online");
  /** @type {{people: OnlinePerson[], count: number, invites?: Invitation[]}} */
  let data;
  try { data = await api("GET", "/api/online", undefined, profileHeaders()); } catch { return; }
  const mine = getProfile()?.id;
  const people = data.people.filter((p) => p.profile !== mine);
  clear(box);
  for (const inv of data.invites || []) {
    const game = t("lobby.game_players", { game: gameName(variant(inv.variant)), n: inv.players });
    box.appendChild(el("p", { class: "invite", "data-invite": inv.profile }, t("online.invited", { name: inv.name, game }), " ",
      el("button", { type: "button", class: "primary", onclick: () => find({ invite: inv.profile, name: inv.name,
        variant: inv.variant, players: inv.players, options: inv.options }) }, t("online.accept"))));
  }
  if (!people.length) { box.appendChild(el("p", { class: "muted" }, t("online.nobody"))); return; }
  const list = el("ul", { class: "online-list" });
  for (const p of people.slice(0, 30)) {
    const game = t("lobby.game_players", { game: gameName(variant(p.variant)), n: p.players });
    const link = p.table && p.doing !== "queued"
      ? el("a", { href: `/t/${encodeURIComponent(p.table)}${p.doing === "playing" ? "?watch=1" : ""}` },
        t(p.doing === "playing" ? "spectate.watch" : "lobby.join"))
      : null;
    const ask = mine ? el("button", { type: "button", class: "link-button", "data-invite-to": p.profile,
      title: t("online.invite_help"), onclick: () => find({ invite: p.profile, name: p.name }) }, t("online.invite")) : null;
    list.appendChild(el("li", { "data-profile": p.profile }, el("strong", {}, p.name), " ",
      el("span", {}, t(`online.${p.doing}`, { game })), link ? " " : "", link, ask ? " " : "", ask));
  }
  box.appendChild(list);
  const cut = data.count - data.people.length + Math.max(0, people.length - 30);  // not listed
  if (cut > 0) box.appendChild(el("p", { class: "small muted" }, t("online.more", { n: cut })));
}
