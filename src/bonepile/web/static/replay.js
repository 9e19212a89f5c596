// The replay page: load a record (a file, or ?table=<id>), step through every hand's moves.
import { $, $field, $button, el, clear, api, endWords, setAlert, winnerWords, scoreWords } from "/static/common.js";
import { drawBoard, lastPlayed, ARM_WORDS } from "/static/render.js";
import { armNamer, isRows } from "/static/rows.js";
import { renderPad, renderHands } from "/static/panels.js";
import { ready, t, has } from "/static/i18n.js";
import { setupAnalysis, analysisSource, renderAnalysis, markAt, markBadge } from "/static/replay/analysis.js";
import { setupDeals } from "/static/replay/deals.js";

await ready;

/** @typedef {import("/static/messages.js").Replay} Replay */
/** @typedef {import("/static/messages.js").ReplayHand} ReplayHand */
/** @typedef {import("/static/messages.js").MoveEvent} MoveEvent */

/** The games' names in words, from the server's catalogue. @type {Record<string, string>} */
let gameLabels = {};
/** The replay the title names. @type {Replay | null} */
let titled = null;
function setTitle() {
  if (titled) {
    $("replay-title").textContent = `${t("lobby.game_players", { game: gameLabels[titled.variant] || t("common.dominoes"), n: titled.players })} · ${seatNames().join(", ")}`;
  }
}
api("GET", "/api/variants").then((c) => {
  gameLabels = Object.fromEntries((c?.variants || []).map((/** @type {import("/static/messages.js").VariantInfo} */ v) => [v.name, has(v.label_key) ? t(v.label_key) : v.label]));
  setTitle();
}).catch(() => {});

const alertBox = $("alert");
/** @typedef {NonNullable<ReplayHand["frames"]>} Frames */
/** The replay shown (its index: each hand's deal, result and number of positions), the hand
 * and the move (frame) on the board, where its hands' positions come from (a table's id, or
 * the record's text sent again), and each hand's positions once asked for (a hand at a time:
 * a long game's positions would be too much to send at once).
 * @type {{data: Replay | null, hand: number, frame: number, source: {table?: string, record?: string},
 *   pages: Map<number, Promise<Frames>>, loaded: Map<number, Frames>}} */
const R = { data: null, hand: 0, frame: 0, source: {}, pages: new Map(), loaded: new Map() };

/** The positions of hand `i` (0-based), asked for once; the next hand's asked for once it is in.
 * @param {number} i @returns {Promise<Frames>} */
function page(i) {
  let p = R.pages.get(i);
  if (!p) {
    const src = R.source;
    p = (src.table !== undefined
      ? api("GET", `/api/tables/${encodeURIComponent(src.table)}/replay/${i + 1}`)
      : api("POST", `/api/replay?hand=${i + 1}`, src.record ?? ""))
      .then((/** @type {ReplayHand} */ h) => {
        if (R.source !== src) return [];
        const frs = h.frames || [];
        R.loaded.set(i, frs);
        return frs;
      });
    p.catch(() => R.pages.delete(i));  // asked again next time
    R.pages.set(i, p);
  }
  return p;
}

function seatNames() {
  const d = R.data;
  return Array.from({ length: d?.players ?? 0 }, (_, s) => {
    const name = d?.names && d.names[s];
    // a bot the server named by its level ("greedy bot 2") is called a bot in the reader's words
    const bot = /^(\w+) bot (\d+)$/.exec(name || "");
    if (bot && has(`bot.level.${bot[1]}`) && Number(bot[2]) === s) return t("seat.server_bot", { level: bot[1], n: s + 1 });
    return name || t("seat.player", { n: s + 1 });
  });
}
function sideLabelsOf() {
  const nm = seatNames();
  return (R.data?.sides || []).map((side) => side.map((s) => nm[s]).join(" & "));
}

/** @param {Replay} data @param {{table?: string, record?: string}} source where its hands come from */
function load(data, source) {
  if (!data || !Array.isArray(data.hands)) throw new Error(t("replay.no_hands_sent"));
  R.data = data;
  R.source = source;
  R.pages = new Map();
  R.loaded = new Map();
  R.hand = 0;
  R.frame = 0;
  $("player").hidden = false;
  const sel = clear($("hand-select"));
  data.hands.forEach((h, i) => sel.appendChild(el("option", { value: i }, t("replay.hand_n", { hand: h.hand ?? i + 1 }))));
  titled = data;
  setTitle();
  if (!data.hands.length) setAlert(alertBox, t("replay.no_hand"));
  render();
  fetchAll(data);
}

/** Every hand's positions asked for in the background, one after another (the hand shown is
 * asked for first, when it is shown), so that stepping through the game soon waits for nothing.
 * @param {Replay} data */
async function fetchAll(data) {
  for (let i = 0; i < data.hands.length && R.data === data; i++) {
    try { await page(i); } catch (e) { return; }  // the server refuses: the hand shown says why
  }
}

/** How many positions hand `i` has (from the index, before its positions are in). @param {number} i */
function positions(i) { return R.data?.hands?.[i]?.positions ?? R.loaded.get(i)?.length ?? 1; }

/** One step forwards or back; past a hand's last move to the next hand's deal, and back.
 * @param {number} delta */
function step(delta) {
  if (!R.data || !R.data.hands.length) return;
  const n = positions(R.hand);
  if (delta > 0 && R.frame >= n - 1 && R.hand < R.data.hands.length - 1) go(R.hand + 1, 0);
  else if (delta < 0 && R.frame <= 0 && R.hand > 0) go(R.hand - 1, positions(R.hand - 1) - 1);
  else go(R.hand, R.frame + delta);
}

/** @param {number} hand @param {number} frame */
function go(hand, frame) {
  if (!R.data || !R.data.hands.length) return;
  R.hand = Math.max(0, Math.min(R.data.hands.length - 1, hand));
  const n = positions(R.hand);
  R.frame = Math.max(0, Math.min(n - 1, frame));
  render();
}

/** The shown hand's positions are not in yet: say so, ask for them, draw them when they come. */
function loading() {
  const data = R.data;
  const i = R.hand;
  $("frame-info").textContent = t("replay.loading_hand");
  delete document.body.dataset.frame;
  for (const id of ["first", "prev", "next", "last"]) $button(id).disabled = true;
  page(i).then(() => {
    if (R.data === data && R.hand === i) render();
  }).catch((e) => {
    if (R.data === data && R.hand === i) {
      setAlert(alertBox, t("replay.cannot", { error: e.message }));
      $button("prev").disabled = i === 0;
      $button("next").disabled = i >= (data?.hands.length ?? 0) - 1;
    }
  });
}

function render() {
  const d = R.data;
  if (!d || !d.hands.length) return;
  const h = d.hands[R.hand];
  $field("hand-select").value = String(R.hand);
  const frs = R.loaded.get(R.hand);
  if (!frs) { loading(); return; }
  const fr = frs[R.frame];
  const nm = seatNames();
  /** @type {Partial<Frames[number]["view"]>} */
  const view = fr?.view || {};
  const b = /** @type {SVGSVGElement} */ (document.querySelector("svg#board"));
  drawBoard(b, view.layout, { last: lastPlayed(view.history), names: nm, emptyText: t("replay.leads", { name: nm[h.leader] ?? "" }) });
  let info = t("replay.frame", { hand: h.hand ?? R.hand + 1, move: R.frame, moves: frs.length - 1 });
  if (fr && fr.move !== null && fr.move !== undefined) info += `: ${describeFrame(frs, R.frame, nm[fr.seat ?? -1] ?? "?", nm)}`;
  else info += `: ${t("replay.the_deal")}`;
  const lastFrame = R.frame === frs.length - 1;
  if (lastFrame && h.result) {
    info += ` · ${t("replay.hand_over", { how: `${endWords(h.result.end)}, ${winnerWords(h.result, shortSides())}` })}`;
  }
  if (lastFrame && R.hand === d.hands.length - 1 && d.winner !== null && d.winner !== undefined) {
    const totals = d.totals || [];
    const who = shortSides()[d.winner];
    info += ` · ${totals.some((x) => x) ? t("replay.game_over_score", { who, score: scoreWords(totals, d.winner, shortSides()) })
      : t("replay.game_over", { who })}`;
  }
  $("frame-info").textContent = info;
  b.setAttribute("aria-label", info);
  const hands = view.hands || view.revealed || h.deal || [];
  renderHands($("hands"), hands, nm, {});
  const results = d.hands.slice(0, R.hand + (lastFrame ? 1 : 0))
    .flatMap((x) => (x.result ? [x.result] : []));
  renderPad($("pad"), results, { players: d.players, seatNames: nm, sideLabels: sideLabelsOf(),
    shortSides: shortSides(),
    resultOnly: d.scoring === "hands" });
  const moves = clear($("moves"));
  frs.forEach((f, i) => {
    if (i === 0) return;
    const mark = markAt(R.hand, i);
    const li = el("li", { "data-mark": mark }, el("button", { type: "button", class: "small",
      "aria-current": i === R.frame ? "step" : null, style: i === R.frame ? "font-weight:700" : null,
      onclick: () => go(R.hand, i) }, describeFrame(frs, i, nm[f.seat ?? -1] ?? "?", nm), markBadge(mark)));
    moves.appendChild(li);
  });
  const cur = /** @type {HTMLElement | null} */ (moves.querySelector("[aria-current=step]"));
  if (cur) {  // keep the current move in sight inside the list (not by scrolling the page)
    const top = cur.offsetTop - moves.offsetTop;
    if (top < moves.scrollTop || top > moves.scrollTop + moves.clientHeight - cur.offsetHeight) {
      moves.scrollTop = Math.max(0, top - moves.clientHeight / 2);
    }
  }
  const lastHand = R.hand >= d.hands.length - 1;
  $button("first").disabled = R.frame === 0;
  $button("prev").disabled = R.frame === 0 && R.hand === 0;
  $button("last").disabled = lastFrame;
  $button("next").disabled = lastFrame && lastHand;
  /** @type {Element} */ ($("next").querySelector("[data-i18n]")).textContent = lastFrame && !lastHand ? t("replay.next_hand") : t("replay.next");
  renderAnalysis(R.hand, R.frame);
  document.body.dataset.frame = `${R.hand}:${R.frame}`;
}

function shortSides() {
  const nm = seatNames();
  return (R.data?.sides || []).map((side, i) => (side.length > 1 ? t("seat.team", { n: i + 1 }) : nm[side[0]]));
}

/** A frame's move in words, who made it first, with its end from the frame's history and
 * what it scored (the server says; the hand's end bonus is on the score pad, not in a move).
 * @param {Frames} frs @param {number} i @param {string} name
 * @param {string[]} nm every seat's name (a train is named after its owner) */
function describeFrame(frs, i, name, nm) {
  const f = frs[i];
  const hist = f.view?.history || [];
  const last = hist[hist.length - 1];
  const lay = f.view?.layout;
  let text = describeMove(f.move, name, last, armNamer(lay, { names: nm }, (a) => ARM_WORDS[a], true), isRows(lay));
  if (last && last.action === "pass" && last.tile) text += ` ${t("move.turned_up", { tile: last.tile })}`;
  if (last && last.action === "play" && (last.points ?? 0) > 0) text += ` ${t("move.scores_paren", { n: last.points })}`;
  return text;
}

/** @param {string | null} tok @param {string} name @param {MoveEvent | undefined} last
 * @param {(arm: string) => string} armName @param {boolean} rows a trains or chicken-foot layout */
function describeMove(tok, name, last, armName, rows) {
  if (tok === "pass") return t("move.passes", { name });
  if (tok === "draw") return last && last.action === "draw" && last.tile ? t("move.draws_tile", { name, tile: last.tile }) : t("move.draws", { name });
  if (typeof tok !== "string") return `${name} ${tok}`;
  const [tile, at] = tok.split("@");
  const arm = at || (last && last.action === "play" ? last.arm : null);
  if (arm && rows) return t("rows.move.plays_on", { name, tile, arm: armName(arm) });
  return arm ? t("move.plays_on", { name, tile, arm: ARM_WORDS[arm] || arm }) : t("move.plays", { name, tile });
}

setupAnalysis({ go, names: seatNames, sides: () => shortSides(), hands: () => R.data?.hands || [], handNumber: (/** @type {number} */ i) => i + 1, rerender: render });
$("first").addEventListener("click", () => go(R.hand, 0));
$("prev").addEventListener("click", () => step(-1));
$("next").addEventListener("click", () => step(1));
$("last").addEventListener("click", () => go(R.hand, positions(R.hand) - 1));
$("hand-select").addEventListener("change", (ev) => go(Number($field("hand-select").value), 0));
document.addEventListener("keydown", (ev) => {
  if (!R.data) return;
  const t = /** @type {HTMLElement | null} */ (ev.target);
  if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
  /** @type {Record<string, () => void>} */
  const map = { ArrowRight: () => step(1), ArrowLeft: () => step(-1),
    Home: () => go(R.hand, 0), End: () => go(R.hand, positions(R.hand) - 1),
    PageDown: () => go(R.hand + 1, 0), PageUp: () => go(R.hand - 1, 0) };
  if (map[ev.key]) { ev.preventDefault(); map[ev.key](); }
});

$("load-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  setAlert(alertBox, "");
  const f = $field("file").files?.[0];
  if (!f) { setAlert(alertBox, t("replay.choose_file")); return; }
  try {
    const text = await f.text();
    const data = await api("POST", "/api/replay", text);
    analysisSource({ record: text });
    load(data, { record: text });
  } catch (e) { setAlert(alertBox, t("replay.cannot", { error: e.message })); }
});

const params = new URLSearchParams(location.search);
const tableParam = params.get("table");
if (tableParam) {
  const id = tableParam;
  $("load").hidden = true;  // a table's own game: the file form is one click away (the header's link)
  api("GET", `/api/tables/${encodeURIComponent(id)}/replay`)
    .then((data) => { analysisSource(data.finished ? { table: id } : null); load(data, { table: id }); setupDeals(id, seatNames); })
    .catch((e) => setAlert(alertBox, t("replay.cannot_table", { error: e.message })));
}
document.body.dataset.ready = "1";
