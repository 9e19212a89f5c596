// The lobby: create a table (game, players, rules, seats, timer) and list the open ones.
// Every word about a game comes from the server's catalogue; the lobby remembers your last
// choices in this browser.
import { $, $field, $button, el, clear, api, seatName, setToken, getToken, getName, setName, showValue, setAlert, seatOrder, seatPlaces } from "/static/common.js";
import { ready, t, has, language } from "/static/i18n.js";
import { ensureProfile, getProfile, profileHeaders, linkCode, claimCode } from "/static/profile.js";
import { showDevices } from "/static/devices.js";
import { initQuickMatch, loadOnline, ratedChoice, rememberRated } from "/static/quickmatch.js";
import { ratingText } from "/static/rating.js";

await ready;

/** @typedef {import("/static/messages.js").VariantInfo} VariantInfo */
/** @typedef {import("/static/messages.js").OptionInfo} OptionInfo */
/** @typedef {import("/static/messages.js").TableInfo & {ratings?: ({rating: number, provisional: boolean} | null)[]}} ListedTable */
/** What the form sends to make a table (and remembers for the next visit).
 * @typedef {{variant: string, players: number, options: Record<string, unknown>, timer: number,
 *   seats: {kind: string, name?: string, level?: string}[], name: string, player: string,
 *   private?: boolean, rated?: boolean}} TableChoice */

const alertBox = $("alert");
/** @type {import("/static/messages.js").Catalogue} */
let catalog = { variants: [], bot_levels: ["random", "greedy", "expert"] };

/** The catalogue's words for key in the reader's language, else the server's English.
 * @param {string | null | undefined} key @param {string} english */
const words = (key, english) => (key && has(key) ? t(key) : english);

const SEAT_CHOICES = () => [
  ["human", t("lobby.seat.friend")],
  ...catalog.bot_levels.map((l, i) => [`bot:${l}`, botWords(l) || t("bot.generic", { level: showValue(l) })]),
];

const MEMORY = "bonepile:lobby";
function remembered() {
  try { return JSON.parse(localStorage.getItem(MEMORY) || "null") || {}; } catch { return {}; }
}
/** The choice for each seat after yours, in seat order (the form shows them as you sit). */
function seatChoices() {
  /** @type {string[]} */
  const out = [];
  for (const sel of /** @type {NodeListOf<HTMLSelectElement>} */ (document.querySelectorAll("#seats select"))) out[Number(sel.dataset.seat) - 1] = sel.value;
  return out;
}

/** @param {TableChoice} body */
function remember(body) {
  const seats = seatChoices();
  try {
    localStorage.setItem(MEMORY, JSON.stringify({ variant: body.variant, players: body.players,
      options: body.options, seats, timer: body.timer }));
  } catch { /* private mode */ }
}

/** @param {string | null | undefined} name */
function variantByName(name) {
  return catalog.variants.find((v) => v.name === name);
}

const same = (/** @type {unknown} */ a, /** @type {unknown} */ b) => JSON.stringify(a) === JSON.stringify(b);

/** The words the server gives for an option's value number i.
 * @param {OptionInfo} o @param {number} i */
function valueLabel(o, i) {
  return words(o.value_keys?.[i], o.labels?.[i] ?? showValue(o.values?.[i]));
}

/** The value chosen for option `name` in the form (its default when not shown).
 * @param {VariantInfo} v @param {string} name */
function chosen(v, name) {
  const o = (v.options || []).find((x) => x.name === name);
  const c = /** @type {HTMLInputElement | null} */ (document.getElementById(`opt-${name}`));
  if (!o || !c) return o?.default;
  if (Array.isArray(o.values)) return o.values[Number(c.value)];
  return c.value.trim() === "" ? o.default : Number(c.value);
}

/** Who plays with whom for n players and the options chosen: the catalogue's last matching
 * entry (the server lists the sides per player count and the option values that change them).
 * @param {VariantInfo | undefined} v @param {number} n @returns {number[][]} */
function sidesFor(v, n) {
  /** @type {number[][] | null} */
  let sides = null;
  for (const p of v?.partnerships || []) {
    if (p.players === n && Object.entries(p.options || {}).every(([k, val]) => v && same(chosen(v, k), val))) sides = p.sides;
  }
  return sides || Array.from({ length: n }, (_, i) => [i]);
}

/** Each seat's name as seen from seat 0 (yours): "You", "Left", "Across", "Right"... and
 * "Partner" for a seat on your side.
 * @param {VariantInfo | undefined} v @param {number} n @param {number[][]} sides */
function seatLabels(v, n, sides) {
  const order = seatOrder(0, n, v?.direction);
  const places = seatPlaces(order.length);
  const tops = places.filter((p) => p === "top").length;
  const out = [t("lobby.seat.you")];
  let top = 0;
  order.forEach((s, i) => {
    let where = t(`lobby.seat.${places[i]}`);
    if (places[i] === "top" && tops > 1) where = t(top++ === 0 ? "lobby.seat.top_left" : "lobby.seat.top_right");
    const partner = sides.some((side) => side.length > 1 && side.includes(0) && side.includes(s));
    out[s] = partner ? t("lobby.seat.partner", { where: where.toLowerCase() }) : where;
  });
  return out;
}

/** @param {number[][]} sides @param {string[]} labels @param {number[]} order */
function seatNote(sides, labels, order) {
  if (!sides.some((side) => side.length > 1)) return t("lobby.note.alone");
  const at = (/** @type {number} */ s) => (s === 0 ? -1 : order.indexOf(s));
  const mine = sides.find((side) => side.includes(0)) || [0];
  const named = (/** @type {number[]} */ side) => [...side].sort((a, b) => at(a) - at(b))
    .map((s) => (s === 0 ? t("lobby.note.you") : mine.includes(s) ? t("lobby.note.partner") : labels[s]))
    .join(` ${t("lobby.note.and")} `);
  const text = sides.map(named).join(` ${t("lobby.note.against")} `);
  return t("lobby.note.teams", { text: `${text[0].toUpperCase()}${text.slice(1)}` });
}

/** The game's line for the number of players chosen (2-player Block draws from a stock). */
function describeGame() {
  const v = variantByName($field("variant").value);
  if (!v) return;
  const key = v.description_keys?.[$field("players").value] || v.description_key;
  $("variant-help").textContent = words(key, v.description || "");
}

function buildVariantForm() {
  const v = variantByName($field("variant").value);
  if (!v) return;
  const players = $field("players");
  const keep = Number(players.value);
  clear(players);
  for (const n of v.players) players.appendChild(el("option", { value: n }, String(n)));
  players.value = String(v.players.includes(keep) ? keep : v.default_players ?? v.players[v.players.length - 1]);
  describeGame();
  const box = clear($("options"));
  const shown = (v.options || []).filter((o) => !Array.isArray(o.values) || o.values.length > 1);
  for (const o of shown) {
    const id = `opt-${o.name}`;
    /** @type {HTMLElement} */
    let control;
    if (Array.isArray(o.values)) {
      const select = el("select", { id, "data-option": o.name });
      control = select;
      o.values.forEach((val, i) => {
        const opt = el("option", { value: String(i) },
          same(val, o.default) ? t("lobby.usual", { value: valueLabel(o, i) }) : valueLabel(o, i));
        if (same(val, o.default)) /** @type {HTMLOptionElement} */ (opt).selected = true;
        select.appendChild(opt);
      });
    } else {
      control = el("input", { id, type: "number", step: 1, "data-option": o.name,
                              value: o.default === null || o.default === undefined ? "" : o.default,
                              min: o.minimum ?? null });
    }
    const help = `help-${o.name}`;
    control.setAttribute("aria-describedby", help);
    box.appendChild(el("label", {}, words(o.label_key, o.label || showValue(o.name)), control,
      el("span", { class: "hint-text", id: help }, words(o.help_key, o.help || ""))));
  }
  $("options-box").hidden = !shown.length;
  buildSeats();
}

function buildSeats() {
  const n = Number($field("players").value);
  const v = variantByName($field("variant").value);
  const box = $("seats");
  const old = seatChoices();
  const sides = sidesFor(v, n);
  const labels = seatLabels(v, n, sides);
  clear(box);
  box.appendChild(el("div", { class: "seat-you", "data-seat": 0 }, el("span", { class: "small" }, labels[0]),
    el("strong", {}, ($field("name").value.trim() || t("seat.you")))));
  // from your left round to your right, as you will sit at the table
  for (const i of seatOrder(0, n, v?.direction)) {
    const sel = /** @type {HTMLSelectElement} */ (el("select", { id: `seat-${i}`, "data-seat": i }));
    for (const [val, text] of SEAT_CHOICES()) sel.appendChild(el("option", { value: val }, text));
    const def = `bot:${catalog.default_bot_level || catalog.bot_levels[0]}`;
    const want = pendingSeats?.[i - 1] ?? old[i - 1];
    sel.value = want && [...sel.options].some((o) => o.value === want) ? want : def;
    box.appendChild(el("label", {}, labels[i], sel));
  }
  pendingSeats = null;
  // who plays with whom (the server says)
  $("seat-note").textContent = seatNote(sides, labels, seatOrder(0, n, v?.direction));
}

function readOptions() {
  const v = variantByName($field("variant").value);
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const o of v?.options || []) {
    const c = /** @type {HTMLInputElement | null} */ (document.getElementById(`opt-${o.name}`));
    if (!c) continue;
    if (Array.isArray(o.values)) {
      const val = o.values[Number(c.value)];
      if (!same(val, o.default)) out[o.name] = val;
    } else {
      if (c.value.trim() === "") continue;
      const num = Number(c.value);
      if (!Number.isInteger(num)) throw new Error(t("lobby.whole_number", { option: words(o.label_key, o.label || showValue(o.name)) }));
      if (num !== o.default) out[o.name] = num;
    }
  }
  return out;
}

function readSeats() {
  /** @type {{kind: string, name?: string, level?: string}[]} */
  const seats = [{ kind: "human", name: ($field("name").value.trim() || t("lobby.seat.you")).slice(0, 24) }];
  for (const choice of seatChoices()) {
    seats.push(choice === "human" ? { kind: "human" } : { kind: "bot", level: choice.slice(4) });
  }
  return seats;
}

/** One click: this game with the rules chosen, casual bots in every other seat.
 * @param {Event} ev */
function playNow(ev) {
  if (!$field("name").value.trim()) $field("name").value = getName() || t("lobby.player");
  const casual = `bot:${catalog.default_bot_level || catalog.bot_levels[0]}`;
  for (const sel of /** @type {NodeListOf<HTMLSelectElement>} */ (document.querySelectorAll("#seats select"))) sel.value = casual;
  create(ev);
}

/** @param {Event} ev */
async function create(ev) {
  ev.preventDefault();
  setAlert(alertBox, "");
  const name = $field("name").value.trim();
  if (!name) { setAlert(alertBox, t("lobby.need_name")); $("name").focus(); return; }
  /** @type {TableChoice} */
  let body;
  try {
    body = {
      variant: $field("variant").value,
      players: Number($field("players").value),
      options: readOptions(),
      seats: readSeats(),
      name: t("lobby.table_of", { name }).slice(0, 24),
      player: name,
      timer: Math.max(0, Number($field("timer").value) || 0),
      ...($field("private").checked ? { private: true } : {}),
      // a table of people is rated by default; with bots only when asked
      ...($field("rated").checked && (readSeats().some((x, i) => i > 0 && x.kind === "human") || $field("rated-bots").checked)
        ? { rated: true, ...($field("rated-bots").checked ? { rated_bots: true } : {}) } : {}),
    };
  } catch (e) { setAlert(alertBox, e.message); return; }
  setName(name);
  remember(body);
  $button("create").disabled = true;
  try {
    await ensureProfile(name);  // the creator's seat is tied to this browser's profile
    const res = await api("POST", "/api/tables", body, profileHeaders());
    setToken(res.id, res.token);
    location.href = res.invite || `/t/${encodeURIComponent(res.id)}`;
  } catch (e) {
    setAlert(alertBox, t("lobby.create_failed", { error: e.message }));
  } finally {
    $button("create").disabled = false;
  }
}

async function loadTables() {
  const box = $("tables");
  let data;
  try { data = await api("GET", "/api/tables"); } catch (e) {
    clear(box).appendChild(el("p", { class: "muted" }, t("lobby.tables_failed", { error: e.message })));
    return;
  }
  /** @type {ListedTable[]} */
  const tables = data?.tables || [];
  clear(box);
  if (!tables.length) { box.appendChild(el("p", { class: "muted" }, t("lobby.no_tables"))); return; }
  const tbody = el("tbody");
  let rated = false;
  for (const tb of tables) {
    const mine = !!getToken(tb.id);
    // a free seat kept for a profile is free only to that profile (its name is shown)
    const me = getProfile()?.id;
    const open = (/** @type {import("/static/messages.js").SeatInfo} */ s) => s.kind === "human" && !s.claimed && (!s.profile || s.profile === me);
    const free = (tb.seats || []).filter(open).length;
    const who = (tb.seats || []).map((s) => withRating(tb, s, open(s) ? t("lobby.free_seat")
      : s.name ? seatName(tb, s.seat) : s.kind === "bot" ? botWords(s.level) || t("bot.any") : t("lobby.free_seat"))).join(", ");
    if (tb.ratings?.some((r) => r)) rated = true;
    const game = gameWords(variantByName(tb.variant));
    const status = tb.status === "waiting" ? t("lobby.status.waiting", { n: free })
      : tb.status === "playing" ? t("lobby.status.playing") : t("lobby.status.over");
    const actions = el("td", {});
    // a game in progress that is not yours: watch it (nobody can join it any more)
    const watch = !mine && tb.status === "playing";
    actions.appendChild(el("a", { href: `/t/${encodeURIComponent(tb.id)}${watch ? "?watch=1" : ""}`,
      "data-watch": watch ? tb.id : null },
      watch ? t("spectate.watch") : mine ? t("lobby.open") : (free && tb.status === "waiting" ? t("lobby.join") : t("lobby.open"))));
    if (mine && tb.status === "waiting") {
      actions.appendChild(document.createTextNode(" "));
      actions.appendChild(el("button", { type: "button", onclick: () => start(tb.id) }, t("common.start_now")));
    }
    tbody.appendChild(el("tr", { "data-table": tb.id },
      el("td", {}, tableName(tb, game), el("span", { class: "small muted who" }, who)),
      el("td", {}, t("lobby.game_players", { game, n: tb.players })),
      el("td", {}, status, tb.watching ? el("span", { class: "small muted who" }, t("spectate.watching", { n: tb.watching })) : null),
      actions));
  }
  box.appendChild(el("table", { class: "list" },
    el("thead", {}, el("tr", {}, el("th", {}, t("lobby.col.table")), el("th", {}, t("lobby.col.game")),
                       el("th", {}, t("lobby.col.status")), el("th", {}, el("span", { class: "visually-hidden" }, t("lobby.open"))))), tbody));
  if (rated) box.appendChild(el("p", { class: "small muted", id: "ratings-note" }, t("lobbyratings.note")));
}

/** A seated player's name with their rating at this table's game (the server sends it).
 * @param {ListedTable} tb @param {{seat: number}} s @param {string} name */
function withRating(tb, s, name) {
  const r = tb.ratings?.[s.seat];
  if (!r) return name;
  return t("lobbyratings.rating", { name, rating: ratingText(r) });
}

/** A table's name, with its game in words where the server named it after the game.
 * @param {ListedTable} t @param {string} game */
function tableName(t, game) {
  if (!t.name || t.named === false) return game;  // the server's own name for it
  return t.name.split(t.variant).join(game);
}

/** A bot level in words ("Bot: casual"); "" for a level the catalogue has no words for.
 * @param {string | null} level */
function botWords(level) {
  const i = catalog.bot_levels.indexOf(level ?? "");
  return words(catalog.bot_keys?.[i], catalog.bot_labels?.[i] || "");
}

/** A game's name in the reader's language. @param {VariantInfo | undefined} v */
function gameWords(v) {
  return v ? words(v.label_key, v.label || t("common.dominoes")) : t("common.dominoes");
}

/** @param {string} id */
async function start(id) {
  setAlert(alertBox, "");
  try {
    await api("POST", `/api/tables/${encodeURIComponent(id)}/start`, { token: getToken(id) });
    location.href = `/t/${encodeURIComponent(id)}`;
  } catch (e) { setAlert(alertBox, t("common.start_failed", { error: e.message })); }
}

/** The seats remembered from the last visit, for the next seat form. @type {string[] | null} */
let pendingSeats = null;

/** The last game, player count, rules, seats and timer chosen in this browser. */
function restore() {
  const m = remembered();
  const v = variantByName(m.variant);
  if (v) $field("variant").value = v.name;
  buildVariantForm();
  if (!v) return;
  if (v.players.includes(m.players)) { $field("players").value = String(m.players); }
  for (const o of v.options || []) {
    const c = /** @type {HTMLInputElement | null} */ (document.getElementById(`opt-${o.name}`));
    if (!c || !m.options || !(o.name in m.options)) continue;
    if (Array.isArray(o.values)) {
      const i = o.values.findIndex((x) => same(x, m.options[o.name]));
      if (i >= 0) c.value = String(i);
    } else c.value = String(m.options[o.name]);
  }
  if (Number.isFinite(m.timer)) $field("timer").value = String(m.timer);
  pendingSeats = Array.isArray(m.seats) ? m.seats : null;
  buildSeats();
}

/** Your name is asked once, on your first visit: the field comes first, holding a name in your
 * language that typing replaces; whatever it holds is remembered from then on. */
function askNameOnce() {
  const field = $field("name");
  field.addEventListener("change", () => { if (field.value.trim()) setName(field.value.trim()); });
  if (getName()) return;
  field.value = t("lobby.player");
  setName(field.value);
  $("name-ask").hidden = false;
  field.focus({ preventScroll: true });
  field.select();
}

/** The profile card: this browser's profile name, "Use on another device" (a one-use code)
 * and a field for a code from another device; hidden when the server has no profiles. */
async function initProfile() {
  const me = await ensureProfile(getName(), t("lobby.player"));
  if (!me) return;
  const box = $("profile");
  box.hidden = false;
  const who = $("profile-name");
  who.textContent = t("profiles.playing_as", { name: me.name });
  $("profile-link").addEventListener("click", async () => {
    try {
      const got = await linkCode();
      $("profile-code").textContent = t("profiles.code_shown", { code: got.code, minutes: Math.round(got.expires_in / 60) });
    } catch (e) { setAlert(alertBox, t("profiles.failed", { error: e.message })); }
  });
  $("profile-devices").addEventListener("toggle", () => {
    if (/** @type {HTMLDetailsElement} */ ($("profile-devices")).open) showDevices($("devices-list"), me.name, alertBox);
  });
  $("claim-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      const got = await claimCode($field("claim-code").value);
      setName(got.name);  // this device now plays under the profile's name
      $field("name").value = got.name;
      who.textContent = t("profiles.playing_as", { name: got.name });
      $("profile-code").textContent = t("profiles.claimed", { name: got.name });
      $field("claim-code").value = "";
    } catch (e) { setAlert(alertBox, t("profiles.failed", { error: e.message })); }
  });
}

async function init() {
  $field("name").value = getName();
  askNameOnce();
  try {
    catalog = await api("GET", "/api/variants");
  } catch (e) { setAlert(alertBox, t("lobby.games_failed", { error: e.message })); return; }
  catalog.bot_levels = catalog.bot_levels?.length ? catalog.bot_levels : ["random", "greedy", "expert"];
  const vs = $("variant");
  for (const v of catalog.variants) vs.appendChild(el("option", { value: v.name }, gameWords(v)));
  vs.addEventListener("change", buildVariantForm);
  $("name").addEventListener("input", buildSeats);
  $("players").addEventListener("change", buildSeats);
  $("players").addEventListener("change", describeGame);
  $("options").addEventListener("change", buildSeats);
  $("create-form").addEventListener("submit", create);
  $("play-now").addEventListener("click", playNow);
  $("refresh").addEventListener("click", loadTables);
  restore();
  const wanted = variantByName(new URLSearchParams(location.search).get("play")); // a How to play page's "Play now"
  if (wanted) { $field("variant").value = wanted.name; buildVariantForm(); $("play-now").focus(); }
  $field("rated").checked = ratedChoice();
  try { $field("rated-bots").checked = localStorage.getItem("bonepile:rated-bots") === "1"; } catch { /* private mode */ }
  $("rated").addEventListener("change", () => rememberRated($field("rated").checked));
  $("rated-bots").addEventListener("change", () => {
    try { localStorage.setItem("bonepile:rated-bots", $field("rated-bots").checked ? "1" : "0"); } catch { /* private mode */ }
  });
  initQuickMatch(catalog, gameWords, botWords, alertBox);
  const lists = () => { loadTables(); loadOnline(variantByName); };
  lists();
  setInterval(lists, 5000);
  await initProfile();
  document.body.dataset.ready = "1";
}

init();
