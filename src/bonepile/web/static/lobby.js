// The lobby: create a table (variant, players, options, seats, timer) and list the open ones.
import { el, clear, api, setToken, getToken, getName, setName, showValue, setAlert } from "/static/common.js";

const $ = (id) => document.getElementById(id);
const alertBox = $("alert");
let catalog = { variants: [], bot_levels: ["random", "greedy", "expert"] };

const SEAT_CHOICES = () => [
  ["you", "You"],
  ["human", "Friend (human)"],
  ...catalog.bot_levels.map((l) => [`bot:${l}`, `Bot: ${l}`]),
];

function variantByName(name) {
  return catalog.variants.find((v) => v.name === name);
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** The words the server gives for an option's value number i. */
function valueLabel(o, i) {
  return o.labels?.[i] ?? showValue(o.values[i]);
}

function defaultLabel(o) {
  const i = Array.isArray(o.values) ? o.values.findIndex((x) => same(x, o.default)) : -1;
  return i >= 0 ? valueLabel(o, i) : showValue(o.default);
}

/** The value chosen for option `name` in the form (its default when not shown). */
function chosen(v, name) {
  const o = (v.options || []).find((x) => x.name === name);
  const c = document.getElementById(`opt-${name}`);
  if (!o || !c) return o?.default;
  if (Array.isArray(o.values)) return o.values[Number(c.value)];
  return c.value.trim() === "" ? o.default : Number(c.value);
}

/** Who plays with whom for n players and the options chosen: the catalogue's last matching
 * entry (the server lists the sides per player count and the option values that change them). */
function sidesFor(v, n) {
  let sides = null;
  for (const p of v?.partnerships || []) {
    if (p.players === n && Object.entries(p.options || {}).every(([k, val]) => same(chosen(v, k), val))) sides = p.sides;
  }
  return sides || Array.from({ length: n }, (_, i) => [i]);
}

function seatNote(sides, n) {
  if (!sides.some((side) => side.length > 1)) return "Every player for themselves.";
  const opposite = sides.every((side) => side.length === 2 && Math.abs(side[0] - side[1]) * 2 === n);
  return `Partners${opposite ? " sit opposite" : ""}: ${sides.map((side) => `seats ${side.join(" and ")}`).join(" against ")}.`;
}

function buildVariantForm() {
  const v = variantByName($("variant").value);
  if (!v) return;
  const players = $("players");
  const keep = Number(players.value);
  clear(players);
  for (const n of v.players) players.appendChild(el("option", { value: n }, String(n)));
  players.value = String(v.players.includes(keep) ? keep : v.default_players ?? v.players[v.players.length - 1]);
  const box = clear($("options"));
  for (const o of v.options || []) {
    const id = `opt-${o.name}`;
    let control;
    if (Array.isArray(o.values)) {
      control = el("select", { id, "data-option": o.name });
      o.values.forEach((val, i) => {
        const opt = el("option", { value: String(i) },
          valueLabel(o, i) + (same(val, o.default) ? " (default)" : ""));
        if (same(val, o.default)) opt.selected = true;
        control.appendChild(opt);
      });
    } else {
      control = el("input", { id, type: "number", step: 1, "data-option": o.name,
                              value: o.default === null || o.default === undefined ? "" : o.default,
                              min: o.minimum ?? null });
    }
    box.appendChild(el("label", {}, o.label || o.name, control,
      el("span", { class: "hint-text" }, `default: ${defaultLabel(o)}`)));
  }
  $("options-box").hidden = !(v.options || []).length;
  buildSeats();
}

function buildSeats() {
  const n = Number($("players").value);
  const box = $("seats");
  const old = [...box.querySelectorAll("select")].map((s) => s.value);
  clear(box);
  for (let i = 0; i < n; i++) {
    const sel = el("select", { id: `seat-${i}`, "data-seat": i });
    for (const [val, text] of SEAT_CHOICES()) sel.appendChild(el("option", { value: val }, text));
    const def = i === 0 ? "you" : (catalog.bot_levels.includes("expert") ? "bot:expert" : `bot:${catalog.bot_levels[0]}`);
    sel.value = old[i] && [...sel.options].some((o) => o.value === old[i]) ? old[i] : def;
    box.appendChild(el("label", {}, `Seat ${i}`, sel));
  }
  // who plays with whom (the server says)
  $("seat-note").textContent = seatNote(sidesFor(variantByName($("variant").value), n), n);
}

function readOptions() {
  const v = variantByName($("variant").value);
  const out = {};
  for (const o of v.options || []) {
    const c = document.getElementById(`opt-${o.name}`);
    if (!c) continue;
    if (Array.isArray(o.values)) {
      const val = o.values[Number(c.value)];
      if (!same(val, o.default)) out[o.name] = val;
    } else {
      if (c.value.trim() === "") continue;
      const num = Number(c.value);
      if (!Number.isInteger(num)) throw new Error(`option ${o.name} must be a whole number`);
      if (num !== o.default) out[o.name] = num;
    }
  }
  return out;
}

function readSeats() {
  const sels = [...document.querySelectorAll("#seats select")];
  const seats = [];
  let you = -1, firstHuman = -1;
  sels.forEach((s, i) => {
    if (s.value === "you" || s.value === "human") {
      if (firstHuman < 0) firstHuman = i;
      if (s.value === "you") {
        if (you >= 0) throw new Error("choose \"You\" for one seat only");
        you = i;
      }
      seats.push({ kind: "human" });
    } else {
      seats.push({ kind: "bot", level: s.value.slice(4) });
    }
  });
  if (you < 0) throw new Error("choose \"You\" for one seat");
  if (you !== firstHuman) throw new Error("\"You\" must be the first human seat (the creator takes it)");
  seats[you].name = ($("name").value.trim() || "You").slice(0, 24);
  return seats;
}

async function create(ev) {
  ev.preventDefault();
  setAlert(alertBox, "");
  const name = $("name").value.trim();
  if (!name) { setAlert(alertBox, "Please enter your name."); $("name").focus(); return; }
  let body;
  try {
    body = {
      variant: $("variant").value,
      players: Number($("players").value),
      options: readOptions(),
      seats: readSeats(),
      name: `${name}'s table`.slice(0, 24),
      player: name,
      timer: Math.max(0, Number($("timer").value) || 0),
    };
  } catch (e) { setAlert(alertBox, e.message); return; }
  setName(name);
  $("create").disabled = true;
  try {
    const res = await api("POST", "/api/tables", body);
    setToken(res.id, res.token);
    location.href = res.invite || `/t/${encodeURIComponent(res.id)}`;
  } catch (e) {
    setAlert(alertBox, `Could not create the table: ${e.message}`);
  } finally {
    $("create").disabled = false;
  }
}

async function loadTables() {
  const box = $("tables");
  let data;
  try { data = await api("GET", "/api/tables"); } catch (e) {
    clear(box).appendChild(el("p", { class: "muted" }, `Could not load the tables: ${e.message}`));
    return;
  }
  const tables = data?.tables || [];
  clear(box);
  if (!tables.length) { box.appendChild(el("p", { class: "muted" }, "No open table yet: create one.")); return; }
  const tbody = el("tbody");
  for (const t of tables) {
    const mine = !!getToken(t.id);
    const free = (t.seats || []).filter((s) => s.kind === "human" && !s.claimed).length;
    const who = (t.seats || []).map((s) => s.name || (s.kind === "bot" ? `bot (${s.level})` : "free")).join(", ");
    const actions = el("td", {});
    actions.appendChild(el("a", { href: `/t/${encodeURIComponent(t.id)}` },
      mine ? "Open" : (free && t.status === "waiting" ? "Join" : "Open")));
    if (mine && t.status === "waiting") {
      actions.appendChild(document.createTextNode(" "));
      actions.appendChild(el("button", { type: "button", onclick: () => start(t.id) }, "Start now (bots fill empty seats)"));
    }
    tbody.appendChild(el("tr", { "data-table": t.id },
      el("td", {}, t.name || t.id),
      el("td", {}, `${t.variant} · ${t.players}p`),
      el("td", {}, t.status + (t.status === "waiting" ? ` (${free} free)` : "")),
      el("td", { class: "small" }, who),
      actions));
  }
  box.appendChild(el("table", { class: "list" },
    el("thead", {}, el("tr", {}, el("th", {}, "Table"), el("th", {}, "Game"), el("th", {}, "Status"),
                       el("th", {}, "Seats"), el("th", {}, ""))), tbody));
}

async function start(id) {
  setAlert(alertBox, "");
  try {
    await api("POST", `/api/tables/${encodeURIComponent(id)}/start`, { token: getToken(id) });
    location.href = `/t/${encodeURIComponent(id)}`;
  } catch (e) { setAlert(alertBox, `Could not start: ${e.message}`); }
}

async function init() {
  $("name").value = getName();
  try {
    catalog = await api("GET", "/api/variants");
  } catch (e) { setAlert(alertBox, `Could not load the games: ${e.message}`); return; }
  catalog.bot_levels = catalog.bot_levels?.length ? catalog.bot_levels : ["random", "greedy", "expert"];
  const vs = $("variant");
  for (const v of catalog.variants) vs.appendChild(el("option", { value: v.name }, v.label || v.name));
  vs.addEventListener("change", buildVariantForm);
  $("players").addEventListener("change", buildSeats);
  $("options").addEventListener("change", buildSeats);
  $("create-form").addEventListener("submit", create);
  $("refresh").addEventListener("click", loadTables);
  buildVariantForm();
  loadTables();
  setInterval(loadTables, 5000);
  document.body.dataset.ready = "1";
}

init();
