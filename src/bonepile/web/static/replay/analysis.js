// The replay page's analysis: ask the server to analyse the game (a finished table's, or the
// record uploaded), show its progress, then mark each move (best, good, inaccuracy, mistake,
// blunder), draw the better move on a small board, show an evaluation graph and each
// player's accuracy; "with what you knew" by default, "with every hand shown" as a switch.
// Everything here is the server's: the marks, the numbers, the reasons (as codes, worded
// from the catalogue) and the layout after each better move; this page computes no rule.
import { $, $button, el, clear, api } from "/static/common.js";
import { drawBoard, svg } from "/static/render.js";
import { t } from "/static/i18n.js";

/** @type {Record<string, string>} */
export const MARK_SYMBOL = { best: "★", good: "✓", inaccuracy: "?!", mistake: "?", blunder: "??" };
const MARKS = ["best", "good", "inaccuracy", "mistake", "blunder"];

/**
 * What the replay page gives the analysis: moving to a move, the seats' and sides' names, the
 * replay's hands (their frames), a hand's number, drawing the page again.
 * @typedef {object} ReplayContext
 * @property {(hand: number, frame: number) => void} go
 * @property {() => string[]} names
 * @property {() => string[]} sides
 * @property {() => import("/static/messages.js").ReplayHand[]} hands
 * @property {(i: number) => number} handNumber
 * @property {() => void} rerender
 */
/** What may be analysed: a finished table's game, or a record's text. @typedef {{table?: string, record?: string}} Source */
/** One move's judgement (the server's marks and figures, "with what you knew" or "shown"). @typedef {any} Judged */
/** One decision of a hand as the server judged it. @typedef {any} Decision */

/**
 * The analysis shown: its source, the server's analysis (its shape is the server's analysis
 * module's; read as it comes), the way chosen ("knew" or "shown"), a request running.
 * @type {{source: Source | null, data: any, way: string, busy: boolean, ctx: ReplayContext | null}}
 */
const A = { source: null, data: null, way: "knew", busy: false, ctx: null };
/** The replay page's context (set once by setupAnalysis, before anything is drawn). */
const replay = () => /** @type {ReplayContext} */ (A.ctx);

/** The analysis's buttons and graph, working in the replay page `ctx`.
 * @param {ReplayContext} ctx */
export function setupAnalysis(ctx) {
  A.ctx = ctx;
  $("analyse").addEventListener("click", start);
  for (const b of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll("#way button"))) {
    b.addEventListener("click", () => { A.way = b.dataset.way ?? A.way; ctx.rerender(); });
  }
  $("graph").addEventListener("click", (ev) => pick(ev));
}

/** What the page may analyse: { table: id } or { record: text }; resets any analysis.
 * @param {Source | null} source */
export function analysisSource(source) {
  A.source = source;
  A.data = null;
  $("analysis").hidden = !source;
  $("analyse").hidden = false;
  $button("analyse").disabled = false;
  $("analysis-progress").hidden = true;
  $("analysis-done").hidden = true;
  $("analysis-status").textContent = "";
  delete document.body.dataset.analysed;
  if (source?.table) {  // a table analysed before (by anyone): shown at once, or its progress
    const asked = source;
    api("GET", `/api/tables/${encodeURIComponent(source.table)}/analysis`).then((r) => {
      if (A.source !== asked || A.data || A.busy) return;
      if (r.status === "done" && r.analysis) show(r.analysis);
      else start();
    }).catch(() => {});  // not analysed yet: the button offers it
  }
}

/** @param {any} analysis */
function show(analysis) {
  A.data = analysis;
  $("analyse").hidden = true;
  $("analysis-progress").hidden = true;
  $("analysis-status").textContent = "";
  $("analysis-done").hidden = false;
  document.body.dataset.analysed = "1";
  // open on a judged move: the first one of the game
  const first = points()[0];
  if (first) replay().go(first.i, first.frame);
  else replay().rerender();
}

/** @param {Source} source */
function paths(source) {
  if (source.table) {
    const p = `/api/tables/${encodeURIComponent(source.table)}/analysis`;
    return { start: () => api("POST", p), poll: () => api("GET", p) };
  }
  /** @type {string} */
  let job = "";
  return {
    start: async () => { const r = await api("POST", "/api/analysis", source.record); job = r.job; return r; },
    poll: () => api("GET", `/api/analysis/${encodeURIComponent(job)}`),
  };
}

async function start() {
  if (A.busy || !A.source) return;
  A.busy = true;
  const btn = $button("analyse");
  btn.disabled = true;
  const bar = /** @type {HTMLProgressElement} */ ($("analysis-progress"));
  const status = $("analysis-status");
  status.textContent = t("analysis.waiting");
  bar.hidden = false;
  bar.removeAttribute("value");
  const p = paths(A.source);
  try {
    let r = await p.start();
    let asked = false;
    while (r.status !== "done") {
      if (r.total) {
        bar.max = r.total;
        bar.value = r.done;
        status.textContent = t("analysis.progress", { done: r.done, total: r.total });
      }
      await new Promise((ok) => setTimeout(ok, 400));
      try {
        r = await p.poll();
      } catch (e) {  // the server forgot the job (it restarted): ask again, once
        if (e.status !== 404 || asked) throw e;
        asked = true;
        r = await p.start();
      }
    }
    if (!r.analysis) r = await p.poll();
    show(r.analysis);
  } catch (e) {
    status.textContent = t("analysis.cannot", { error: e.message });
    bar.hidden = true;
    btn.disabled = false;
  } finally {
    A.busy = false;
  }
}

/** @param {number} i */
function handOf(i) { return A.data?.hands?.find((/** @type {any} */ h) => h.hand === replay().handNumber(i)) || null; }

/** The judged decision made at frame `frame` of hand `i` (frame k shows move k played).
 * @param {number} i @param {number} frame @returns {Decision | null} */
export function decisionAt(i, frame) {
  const h = handOf(i);
  return h ? h.decisions.find((/** @type {Decision} */ d) => d.move === frame) || null : null;
}

/** The mark of a frame's move (the way chosen), or null.
 * @param {number} i @param {number} frame @returns {string | null} */
export function markAt(i, frame) {
  const d = decisionAt(i, frame);
  return d && d[A.way] ? d[A.way].mark : null;
}

/** A mark as a small symbol and its words, for a move in the list.
 * @param {string | null} mark */
export function markBadge(mark) {
  if (!mark) return null;
  return el("span", { class: `mark mark-${mark}` },
    el("span", { "aria-hidden": "true" }, MARK_SYMBOL[mark]),
    el("span", { class: "visually-hidden" }, ` ${t(`analysis.mark.${mark}`)}`));
}

/** A move of decision d in words, from what the server says the move did.
 * @param {Decision} d @param {string} tok */
export function moveWords(d, tok) {
  const w = d.words?.[tok] || {};
  if (w.action === "draw" || tok === "draw") return t("hint.move.draw");
  if (w.action === "pass" || tok === "pass") return t("hint.move.pass");
  const tile = w.tile || String(tok).split("@")[0];
  if (w.lead || !w.arm) return t("hint.move.lead", { tile });
  return t("hint.move.on", { tile, end: t(`hint.end.${w.arm}`) });
}

const pct = (/** @type {number} */ x) => Math.round(x * 100);
const num = (/** @type {number} */ x) => (Math.round(x * 10) / 10).toLocaleString();

/** @param {Judged} j */
function lossWords(j) {
  const unit = A.data.thresholds?.unit;
  return unit === "win" ? t("analysis.lost_chance", { pct: pct(j.loss) }) : t("analysis.lost_points", { n: num(j.loss) });
}

/** @param {string | undefined} kind */
function kindWords(kind) {
  if (A.way !== "shown") return "";
  if (kind === "bound") return ` ${t("analysis.kind.bound")}`;
  if (kind === "estimate") return ` ${t("analysis.kind.estimate")}`;
  return "";
}

/** The analysis's part of the page for the frame shown: the mark, the better move on its
 * own small board, the reason; the graph's current point; the accuracy table.
 * @param {number} i @param {number} frame */
export function renderAnalysis(i, frame) {
  if (!A.data) return;
  for (const b of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll("#way button"))) b.setAttribute("aria-pressed", String(b.dataset.way === A.way));
  $("way-note").textContent = A.way === "shown" ? t("analysis.way.shown_note") : t("analysis.way.knew_note");
  renderGraph(i, frame);
  renderAccuracy();
  renderTurning(i, frame);
  renderLuck(i);
  const box = $("verdict");
  const d = decisionAt(i, frame);
  const j = d && d[A.way];
  const ghost = /** @type {SVGSVGElement} */ (document.querySelector("svg#better-board"));
  const gwrap = $("better");
  if (!j) {
    box.className = "verdict";
    box.textContent = frame > 0 ? t("analysis.not_judged") : t("analysis.step_hint");
    gwrap.hidden = true;
    return;
  }
  const names = replay().names();
  box.className = `verdict verdict-${j.mark}`;
  clear(box);
  box.appendChild(el("strong", {}, el("span", { class: `mark mark-${j.mark}`, "aria-hidden": "true" }, MARK_SYMBOL[j.mark]),
    ` ${t(`analysis.mark.${j.mark}`)}`));
  const who = names[d.seat] ?? "?";
  const played = d.moves.find((/** @type {any} */ m) => m.move === d.played);
  const best = d.moves.find((/** @type {any} */ m) => m.move === j.best);
  const lines = [];
  if (j.best === d.played) {
    lines.push(t(j.mark === "best" ? "analysis.was_best" : "analysis.was_good", { name: who }) + kindWords(j.kind));
  } else {
    lines.push(t("analysis.better", { name: who, played: moveWords(d, d.played), best: moveWords(d, j.best) }) + kindWords(j.kind));
    lines.push(lossWords(j));
    const pw = played?.[A.way], bw = best?.[A.way];
    if (pw && bw && typeof pw.win === "number" && typeof bw.win === "number") {
      lines.push(t("analysis.win_chance", { played: pct(pw.win), best: pct(bw.win) }));
    }
    // with what you knew, the chance to win the game with this hand (part of what a move
    // costs where the game may end in it)
    if (A.way === "knew" && pw && bw && typeof pw.game === "number" && typeof bw.game === "number" && pw.game !== bw.game) {
      lines.push(t("analysis.game_chance", { played: pct(pw.game), best: pct(bw.game) }));
    }
    if (A.way === "knew" && (j.reasons || []).length) {
      lines.push(t("analysis.because", { why: j.reasons.map((/** @type {{code: string}} */ r) => t(`hint.${r.code}`, r)).join(t("hint.sep")) }));
    } else if (A.way === "shown" && pw && bw) {
      lines.push(t("analysis.shown_points", { best: signed(bw.points), played: signed(pw.points) }));
    }
  }
  for (const line of lines) box.appendChild(el("p", {}, line));
  const board = d.boards?.[A.way];
  gwrap.hidden = !board;
  if (board) {
    drawBoard(ghost, board.layout, { last: board.tile });
    if (board.tile) ghost.querySelector(`g[data-tile="${board.tile}"]`)?.classList.add("ghost");
    const words = t("analysis.better_board", { best: moveWords(d, j.best) });
    ghost.setAttribute("aria-label", words);
    $("better-title").textContent = words;
  }
}

/** @param {number} x */
function signed(x) {
  return `${x > 0 ? "+" : x < 0 ? "−" : ""}${num(Math.abs(x))}`;
}

/** Every judged decision of the game in order, with where it sits (hand index, frame). */
function points() {
  /** @type {{i: number, frame: number, y: number, mark: string, seat: number, d: Decision}[]} */
  const out = [];
  const sides = A.data.sides || [];
  (replay().hands()).forEach((h, i) => {
    const ha = handOf(i);
    if (!ha) return;
    for (const d of ha.decisions) {
      const j = d[A.way];
      if (!j) continue;
      const m = d.moves.find((/** @type {any} */ x) => x.move === d.played)?.[A.way];
      // the evaluation for the first side (two sides) of the move played; else what it lost
      let y = sides.length === 2 && m ? (d.side === 0 ? m.score : -m.score) : -j.loss;
      if (!Number.isFinite(y)) y = 0;
      out.push({ i, frame: d.move, y, mark: j.mark, seat: d.seat, d });
    }
  });
  return out;
}

/** The line styles of analysis.css (seat-line-0 ...), reused past that many seats. */
const LINE_STYLES = 5;
let GW = 300;
/** The graph's points as drawn (their x in the graph's units): a click picks the nearest. */
/** @type {{i: number, frame: number, x: number}[]} */
let graphPoints = [];

/** @param {number} hand @param {number} frame */
function renderGraph(hand, frame) {
  const g = $("graph");
  while (g.firstChild) g.removeChild(g.firstChild);
  const pts = points();
  GW = Math.max(120, Math.round(g.clientWidth || 300));  // drawn in pixels: dots stay round
  const GH = Math.max(60, Math.round(g.clientHeight || 110));
  g.setAttribute("viewBox", `0 0 ${GW} ${GH}`);
  if (!pts.length) return;
  const top = Math.max(1e-6, ...pts.map((p) => Math.abs(p.y)));
  const x = (/** @type {number} */ k) => (pts.length === 1 ? GW / 2 : 6 + (k * (GW - 12)) / (pts.length - 1));
  const y = (/** @type {number} */ v) => GH / 2 - (v / top) * (GH / 2 - 6);
  svg("rect", { x: 0, y: 0, width: GW, height: GH / 2, class: "graph-top" }, g);
  svg("rect", { x: 0, y: GH / 2, width: GW, height: GH / 2, class: "graph-bottom" }, g);
  svg("line", { x1: 0, x2: GW, y1: GH / 2, y2: GH / 2, class: "graph-axis" }, g);
  // where each hand starts
  pts.forEach((p, k) => { if (k && p.i !== pts[k - 1].i) svg("line", { x1: (x(k) + x(k - 1)) / 2, x2: (x(k) + x(k - 1)) / 2, y1: 0, y2: GH, class: "graph-hand" }, g); });
  const nm = replay().names();
  const twoSides = (A.data.sides || []).length === 2;
  // two sides: one line, who is ahead; more: one line per seat, what each of its moves lost
  const seats = twoSides ? [-1] : [...new Set(pts.map((p) => p.seat))].sort((a, b) => a - b);
  for (const s of seats) {
    const mine = pts.map((p, k) => ({ p, k })).filter(({ p }) => s < 0 || p.seat === s);
    svg("polyline", { points: mine.map(({ p, k }) => `${x(k).toFixed(1)},${y(p.y).toFixed(1)}`).join(" "),
      class: s < 0 ? "graph-line" : `graph-line seat-line-${s % LINE_STYLES}`, "data-seat-line": String(s) }, g);
  }
  const legend = clear($("graph-legend"));
  legend.hidden = twoSides;
  if (!twoSides) {
    for (const s of seats) {
      legend.appendChild(el("span", { class: "legend-item", "data-legend": String(s) },
        el("span", { class: `legend-swatch seat-line-${s % LINE_STYLES}`, "aria-hidden": "true" }), nm[s] ?? "?"));
    }
  }
  pts.forEach((p, k) => {
    const here = p.i === hand && p.frame === frame;
    if (p.mark !== "best" && p.mark !== "good" || here) {
      svg("circle", { cx: x(k).toFixed(1), cy: y(p.y).toFixed(1), r: here ? 6 : 4.5,
        class: `graph-dot mark-fill-${p.mark}${here ? " here" : ""}`, "data-at": `${p.i}:${p.frame}` }, g);
    }
  });
  graphPoints = pts.map((p, k) => ({ ...p, x: x(k) }));
  const sides = replay().sides();
  $("graph-note").textContent = twoSides
    ? t("analysis.graph_sides", { up: sides[0], down: sides[1] }) : t("analysis.graph_loss_seats");
  const marked = pts.filter((p) => MARKS.indexOf(p.mark) >= 2).length;
  g.setAttribute("aria-label", t("analysis.graph_label", { n: pts.length, marked, who: nm.join(", ") }));
}

/** @param {MouseEvent} ev */
function pick(ev) {
  const g = $("graph");
  if (!graphPoints.length) return;
  const box = g.getBoundingClientRect();
  const gx = ((ev.clientX - box.left) / box.width) * GW;
  let best = graphPoints[0];
  for (const p of graphPoints) if (Math.abs(p.x - gx) < Math.abs(best.x - gx)) best = p;
  replay().go(best.i, best.frame);
}

function renderAccuracy() {
  const box = clear($("accuracy"));
  const nm = replay().names();
  const rows = A.data.summary?.[A.way] || [];
  const table = el("table", { class: "list accuracy" },
    el("thead", {}, el("tr", {},
      el("th", { scope: "col" }, t("analysis.player")),
      el("th", { scope: "col" }, t("analysis.accuracy")),
      el("th", { scope: "col" }, t("analysis.marks")))));
  const body = el("tbody", {});
  for (const s of rows) {
    const counts = el("span", { class: "mark-counts" });
    for (const m of MARKS.slice(2)) {
      counts.appendChild(el("span", { class: "mark-count", title: t(`analysis.mark.${m}`) },
        el("span", { class: `mark mark-${m}`, "aria-hidden": "true" }, MARK_SYMBOL[m]),
        ` ${t(`analysis.count.${m}`, { n: s.marks?.[m] ?? 0 })}`));
    }
    body.appendChild(el("tr", { "data-seat": s.seat },
      el("th", { scope: "row" }, nm[s.seat] ?? "?"),
      el("td", { "data-accuracy": s.accuracy }, t("analysis.percent", { pct: Math.round(s.accuracy) })),
      el("td", {}, counts)));
  }
  table.appendChild(body);
  box.appendChild(table);
}

/** The hand's biggest turning points (with what the movers knew), each a button to go there.
 * @param {number} i @param {number} frame */
function renderTurning(i, frame) {
  const box = clear($("turning"));
  const tp = handOf(i)?.turning_points || [];
  box.hidden = !tp.length || A.way !== "knew";
  if (box.hidden) return;
  box.appendChild(el("span", {}, t("analysis.turning")));
  for (const n of tp) {
    const mark = markAt(i, n);
    box.appendChild(el("button", { type: "button", class: "turning-move", "aria-current": n === frame ? "step" : null,
      onclick: () => replay().go(i, n) }, t("analysis.turning_move", { n }), markBadge(mark)));
  }
}

/** The hand's luck and skill: per side, what its tiles were worth before anyone played (the
 * deal value) and what its decisions lost with what each player knew; the server's figures.
 * @param {number} i */
function renderLuck(i) {
  const box = clear($("hand-luck"));
  const lk = handOf(i)?.luck;
  box.hidden = !lk;
  if (!lk) return;
  const chance = A.data.thresholds?.unit === "win";
  const figure = (/** @type {number} */ x, /** @type {boolean} */ sign) => chance
    ? t("analysis.percent", { pct: `${sign && x > 0 ? "+" : ""}${Math.round(x * 100)}` })
    : sign ? signed(x) : num(x);
  const sides = replay().sides();
  const body = el("tbody", {});
  lk.deal_value.forEach((/** @type {number} */ v, /** @type {number} */ s) => {
    body.appendChild(el("tr", { "data-side": s },
      el("th", { scope: "row" }, sides[s] ?? "?"),
      el("td", { "data-deal-value": v }, figure(v, true)),
      el("td", { "data-lost": lk.lost?.[s] ?? "" }, lk.lost ? figure(lk.lost[s], false) : "—")));
  });
  box.appendChild(el("h3", {}, t("luck.hand_title")));
  box.appendChild(el("table", { class: "list luck" },
    el("thead", {}, el("tr", {},
      el("th", { scope: "col" }, t("analysis.player")),
      el("th", { scope: "col" }, t("luck.deal_value")),
      el("th", { scope: "col" }, t(chance ? "luck.chance_lost" : "luck.points_lost")))),
    body));
  box.appendChild(el("p", { class: "hint-text" }, t("luck.hand_note")));
}
