// The replay page: load a record (a file, or ?table=<id>), step through every hand's moves.
import { el, clear, api, endWords, setAlert } from "/static/common.js";
import { drawBoard, lastPlayed, tileWords, ARM_WORDS } from "/static/render.js";
import { renderPad, renderHands } from "/static/panels.js";

const $ = (id) => document.getElementById(id);
const alertBox = $("alert");
const R = { data: null, hand: 0, frame: 0 };

function seatNames() {
  const d = R.data;
  return Array.from({ length: d.players }, (_, s) => (d.names && d.names[s]) || `Seat ${s}`);
}
function sideLabelsOf() {
  const nm = seatNames();
  return (R.data.sides || []).map((side) => side.map((s) => nm[s]).join(" & "));
}

function load(data) {
  if (!data || !Array.isArray(data.hands)) throw new Error("the server sent no hands");
  R.data = data;
  R.hand = 0;
  R.frame = 0;
  $("player").hidden = false;
  const sel = clear($("hand-select"));
  data.hands.forEach((h, i) => sel.appendChild(el("option", { value: i }, `Hand ${h.hand ?? i + 1}`)));
  $("replay-title").textContent = `${data.variant}, ${data.players} players · ${seatNames().join(", ")}`;
  if (!data.hands.length) setAlert(alertBox, "This record has no finished hand yet.");
  render();
}

function frames() { return R.data?.hands?.[R.hand]?.frames || []; }

function go(hand, frame) {
  if (!R.data || !R.data.hands.length) return;
  R.hand = Math.max(0, Math.min(R.data.hands.length - 1, hand));
  const n = frames().length;
  R.frame = Math.max(0, Math.min(n - 1, frame));
  render();
}

function render() {
  const d = R.data;
  if (!d || !d.hands.length) return;
  const h = d.hands[R.hand];
  const fr = h.frames[R.frame];
  const nm = seatNames();
  $("hand-select").value = String(R.hand);
  const view = fr?.view || {};
  const b = $("board");
  drawBoard(b, view.layout, { last: lastPlayed(view.history), emptyText: `${nm[h.leader] ?? ""} leads` });
  let info = `Hand ${h.hand ?? R.hand + 1}, move ${R.frame} of ${h.frames.length - 1}`;
  if (fr && fr.move !== null && fr.move !== undefined) info += `: ${nm[fr.seat] ?? "?"} ${describeMove(fr.move)}`;
  else info += ": the deal";
  if (R.frame === h.frames.length - 1 && h.result) {
    info += ` · hand over (${endWords(h.result.end)})`;
  }
  $("frame-info").textContent = info;
  b.setAttribute("aria-label", info);
  const hands = view.hands || view.revealed || h.deal || [];
  renderHands($("hands"), hands, nm, {});
  const results = d.hands.slice(0, R.hand + (R.frame === h.frames.length - 1 ? 1 : 0))
    .map((x) => x.result).filter(Boolean);
  renderPad($("pad"), results, { players: d.players, seatNames: nm, sideLabels: sideLabelsOf(),
    shortSides: (d.sides || []).map((side, i) => (side.length > 1 ? `Team ${i + 1}` : nm[side[0]])),
    resultOnly: d.variant === "billitonnen" });
  const moves = clear($("moves"));
  h.frames.forEach((f, i) => {
    if (i === 0) return;
    const li = el("li", {}, el("button", { type: "button", class: "small",
      "aria-current": i === R.frame ? "step" : null, style: i === R.frame ? "font-weight:700" : null,
      onclick: () => go(R.hand, i) }, `${nm[f.seat] ?? "?"} ${describeMove(f.move)}`));
    moves.appendChild(li);
  });
  $("first").disabled = $("prev").disabled = R.frame === 0;
  $("next").disabled = $("last").disabled = R.frame >= h.frames.length - 1;
  document.body.dataset.frame = `${R.hand}:${R.frame}`;
}

function describeMove(tok) {
  if (tok === "pass") return "passes";
  if (tok === "draw") return "draws";
  if (typeof tok !== "string") return String(tok);
  const [tile, arm] = tok.split("@");
  return `plays ${tile}${arm ? ` on ${ARM_WORDS[arm] || arm}` : ""}`;
}

$("first").addEventListener("click", () => go(R.hand, 0));
$("prev").addEventListener("click", () => go(R.hand, R.frame - 1));
$("next").addEventListener("click", () => go(R.hand, R.frame + 1));
$("last").addEventListener("click", () => go(R.hand, frames().length - 1));
$("hand-select").addEventListener("change", (ev) => go(Number(ev.target.value), 0));
document.addEventListener("keydown", (ev) => {
  if (!R.data) return;
  const t = ev.target;
  if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
  const map = { ArrowRight: () => go(R.hand, R.frame + 1), ArrowLeft: () => go(R.hand, R.frame - 1),
    Home: () => go(R.hand, 0), End: () => go(R.hand, frames().length - 1),
    PageDown: () => go(R.hand + 1, 0), PageUp: () => go(R.hand - 1, 0) };
  if (map[ev.key]) { ev.preventDefault(); map[ev.key](); }
});

$("load-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  setAlert(alertBox, "");
  const f = $("file").files[0];
  if (!f) { setAlert(alertBox, "Choose a record file first."); return; }
  try {
    const text = await f.text();
    load(await api("POST", "/api/replay", text));
  } catch (e) { setAlert(alertBox, `This record cannot be replayed: ${e.message}`); }
});

const params = new URLSearchParams(location.search);
if (params.get("table")) {
  const id = params.get("table");
  api("GET", `/api/tables/${encodeURIComponent(id)}/replay`).then(load)
    .catch((e) => setAlert(alertBox, `Cannot load the table's replay: ${e.message}`));
}
document.body.dataset.ready = "1";
