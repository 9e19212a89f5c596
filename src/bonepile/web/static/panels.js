// Panels shared by the table and the replay page: the score pad and rows of tiles.
import { el, clear, endWords, winnerWords } from "/static/common.js";
import { tileSVG, tileWords } from "/static/render.js";
import { t, has } from "/static/i18n.js";

/** A hand's result as the pad reads it (a state's pad line, a replay's hand result).
 * @typedef {object} PadLine
 * @property {number} [hand]
 * @property {string} [end]
 * @property {number | null} [winner]
 * @property {number[]} [points]
 * @property {number[]} [totals]
 * @property {number[]} [pips]
 * @property {Record<string, unknown>} [breakdown]
 * @property {string[] | null} [sum]
 */
/**
 * @typedef {object} PadContext
 * @property {number} players
 * @property {string[]} seatNames  per seat
 * @property {string[]} sideLabels  per side
 * @property {string[]} [shortSides]  per side
 * @property {number[] | null} [totals]  per side
 * @property {number[] | null} [inPlay]  per side: the points of the hand in play
 * @property {boolean} [resultOnly]  hands are won, not scored
 * @property {number} [target]  the points that win the game
 */

/** A part of a hand's score in words ("pips left", "round bonus", "capicú"...).
 * @param {string} k */
function keyWords(k) { return has(`score.part.${k}`) ? t(`score.part.${k}`) : k.replaceAll("_", " "); }

/** One breakdown entry as text, arrays named per side or per seat. */
/** @param {string} key @param {unknown} value @param {PadContext} ctx */
function describe(key, value, ctx) {
  if (Array.isArray(value)) {
    let names = null;
    const short = ctx.shortSides || ctx.sideLabels;
    if (key === "pips" && value.length === ctx.players) names = ctx.seatNames;
    else if (value.length === short.length) names = short;
    else if (value.length === ctx.players) names = ctx.seatNames;
    if (names) return `${keyWords(key)}: ${value.map((v, i) => `${names[i]} ${fmt(v)}`).join(", ")}`;
    return `${keyWords(key)}: ${value.map(fmt).join(", ")}`;
  }
  if (value && typeof value === "object") {
    return `${keyWords(key)}: ${Object.entries(value).map(([k, v]) => `${keyWords(k)} ${fmt(v)}`).join(", ")}`;
  }
  return `${keyWords(key)} ${fmt(value)}`;
}

/** @param {unknown} v @returns {string} */
function fmt(v) {
  if (Array.isArray(v)) return v.map(fmt).join("/");
  if (v && typeof v === "object") return JSON.stringify(v);
  return String(v);
}

/** The breakdown of one hand as text: how its points came about. */
/** @param {PadLine} line @param {PadContext} ctx */
function breakdownText(line, ctx) {
  /** @type {Record<string, unknown>} */
  const bd = line.breakdown || {};
  const parts = [];
  const pips = bd.pips ?? line.pips;
  if (Array.isArray(pips)) parts.push(describe("pips", pips, ctx));
  // the parts the server says add up to the winner's points
  const sum = Array.isArray(line.sum) ? line.sum.filter((k) => k in bd) : [];
  if (sum.length && line.winner !== null && line.winner !== undefined) {
    const terms = sum.map((k) => `${keyWords(k)} ${fmt(bd[k])}`);
    parts.push(`${terms.join(" + ")} = ${line.points?.[line.winner ?? -1] ?? ""}`);
  }
  for (const [k, v] of Object.entries(bd)) {
    if (k === "pips" || sum.includes(k)) continue;
    parts.push(describe(k, v, ctx));
  }
  return parts.join("; ");
}

/**
 * The score pad: one line per finished hand (each side's points and running total), under it
 * how the hand ended and its breakdown, and the totals.
 * ctx: {players, seatNames: [per seat], sideLabels: [per side], shortSides?: [per side],
 *       totals?: [per side], inPlay?: [per side], resultOnly?: hands are won, not scored}
 * @param {HTMLElement} node @param {PadLine[]} pad @param {PadContext} ctx
 */
export function renderPad(node, pad, ctx) {
  clear(node);
  const sides = ctx.sideLabels;
  const short = ctx.shortSides || sides;
  const ncol = 1 + sides.length;
  const head = el("tr", {}, el("th", { scope: "col", title: t("pad.hand") }, "#"),
    ...sides.map((s, i) => el("th", { scope: "col", class: "num", "data-side": i, title: s },
      short[i] !== s ? [short[i], el("span", { class: "small muted hname" }, s)] : el("span", { class: "hname" }, s))));
  const body = el("tbody");
  for (const line of pad || []) {
    const winner = winnerWords(line, short);
    const cells = ctx.resultOnly
      ? sides.map((_, i) => el("td", { class: "num", "data-side": i },
          line.winner === i ? el("strong", {}, t("pad.won")) : el("span", { class: "muted" }, "–")))
      : (line.points || []).map((p, i) => el("td", { class: `num${line.winner === i ? " won" : ""}`, "data-side": i,
          title: t("pad.total_of", { n: line.totals?.[i] ?? 0 }) }, `+${p}`, el("br"),
          el("span", { class: "small muted" }, `= ${line.totals?.[i] ?? ""}`)));
    body.appendChild(el("tr", { class: "hand-line", "data-hand": line.hand },
      el("th", { scope: "row" }, String(line.hand)), ...cells));
    const text = breakdownText(line, ctx);
    body.appendChild(el("tr", { class: "detail" },
      el("td", { colspan: ncol }, el("span", { class: "end-words" }, `${endWords(line.end)}, ${winner}`),
        text ? ` · ${text}` : "")));
  }
  if (!ctx.resultOnly && ctx.inPlay && ctx.inPlay.some((x) => x)) {
    body.appendChild(el("tr", { class: "in-play", "data-hand": "current" },
      el("th", { scope: "row", title: t("pad.so_far") }, t("pad.now")),
      ...ctx.inPlay.map((p, i) => el("td", { class: "num", "data-side": i }, `+${p}`))));
  }
  let foot;
  if (ctx.resultOnly) {
    const wins = sides.map((_, i) => (pad || []).filter((l) => l.winner === i).length);
    foot = el("tfoot", {}, el("tr", {}, el("th", { scope: "row", title: t("pad.hands_won") }, t("pad.won_total")),
      ...wins.map((t, i) => el("td", { class: "num", "data-wins-side": i }, String(t)))));
  } else {
    const last = (pad || []).length ? pad[pad.length - 1].totals : null;
    const totals = ctx.totals || last || sides.map(() => 0);
    foot = el("tfoot", {}, el("tr", {}, el("th", { scope: "row" }, t("pad.total")),
      ...totals.map((t, i) => el("td", { class: "num", "data-total-side": i }, String(t)))));
  }
  node.appendChild(el("table", { class: `list${sides.length > 3 ? " many" : ""}`, "aria-label": t("pad.label") },
    el("thead", {}, head), body, foot));
  if (ctx.target) node.appendChild(el("p", { class: "small muted" }, t("pad.target", { n: ctx.target })));
  if (!(pad || []).length) node.appendChild(el("p", { class: "small muted" }, t("pad.empty")));
}

/**
 * How the winner's points of a hand add up, in large type: each part the server names in
 * `sum` ("pips scored 35 + round bonus 100 + capicú 100 = 235"); every part after the first is
 * a bonus on top, drawn as a badge, and a bonus that was not earned (0) is left out.
 * @param {HTMLElement} node @param {PadLine | null | undefined} line
 */
export function renderScoreParts(node, line, resultOnly = false) {
  clear(node);
  /** @type {Record<string, unknown>} */
  const bd = line?.breakdown || {};
  const sum = Array.isArray(line?.sum) ? line.sum.filter((k) => k in bd) : [];
  if (resultOnly || !line || !sum.length || line.winner === null || line.winner === undefined) return;
  const winner = line.winner;
  const up = (/** @type {string} */ w) => w.charAt(0).toUpperCase() + w.slice(1);
  sum.forEach((k, i) => {
    const v = bd[k];
    if (i > 0 && !v) return;
    if (node.childNodes.length) node.appendChild(el("span", { class: "op", "aria-hidden": "true" }, "+"));
    node.appendChild(i === 0
      ? el("span", { class: "part", "data-part": k }, `${up(keyWords(k))} `, el("b", {}, fmt(v)))
      : el("span", { class: "part bonus", "data-part": k }, `${t("score.bonus", { part: up(keyWords(k)) })} `, el("b", {}, `+${fmt(v)}`)));
  });
  node.appendChild(el("span", { class: "op", "aria-hidden": "true" }, "="));
  node.appendChild(el("span", { class: "total", "data-part": "total" }, t("score.points", { n: line.points?.[winner] ?? 0 })));
}

/** A row of face-up tiles (small, upright). */
/** @param {string[]} tiles */
export function tileRow(tiles, cls = "") {
  const row = el("span", { class: `tile-row ${cls}` });
  for (const t of tiles) row.appendChild(tileSVG(t, { label: tileWords(t) }));
  return row;
}

/** Every seat's tiles (revealed at hand end, or all hands in the replay).
 * @param {HTMLElement} node @param {string[][]} hands @param {string[]} seatNames
 * @param {{you?: number | null}} [opts] */
export function renderHands(node, hands, seatNames, opts = {}) {
  clear(node);
  hands.forEach((tiles, s) => {
    const pips = tiles.reduce((n, t) => n + t.split("-").map(Number).reduce((a, b) => a + b, 0), 0);
    node.appendChild(el("div", { class: "row-line", "data-seat": s },
      el("span", { class: "row-name" }, opts.you === s ? t("hands.you", { name: seatNames[s] }) : seatNames[s],
        el("span", { class: "small muted" }, ` · ${t("hands.tiles", { n: tiles.length })}, ${t("hands.pips", { n: pips })}`)),
      tiles.length ? tileRow(tiles) : el("span", { class: "small muted" }, `· ${t("hands.went_out")}`)));
  });
}
