// Panels shared by the table and the replay page: the score pad and rows of tiles.
import { el, clear, endWords } from "/static/common.js";
import { tileSVG, tileWords } from "/static/render.js";

const KEY_WORDS = {
  pips: "pips left", in_play: "in play", base: "base", round_bonus: "round bonus",
  capicu: "capicú", chuchazo: "chuchazo", end_bonus: "end of hand", allfives: "all fives",
};

function keyWords(k) { return KEY_WORDS[k] || k.replaceAll("_", " "); }

/** One breakdown entry as text, arrays named per side or per seat. */
function describe(key, value, ctx) {
  if (Array.isArray(value)) {
    let names = null;
    if (key === "pips" && value.length === ctx.players) names = ctx.seatNames;
    else if (value.length === ctx.sideLabels.length) names = ctx.sideLabels;
    else if (value.length === ctx.players) names = ctx.seatNames;
    if (names) return `${keyWords(key)}: ${value.map((v, i) => `${names[i]} ${fmt(v)}`).join(", ")}`;
    return `${keyWords(key)}: ${value.map(fmt).join(", ")}`;
  }
  if (value && typeof value === "object") {
    return `${keyWords(key)}: ${Object.entries(value).map(([k, v]) => `${keyWords(k)} ${fmt(v)}`).join(", ")}`;
  }
  return `${keyWords(key)} ${fmt(value)}`;
}

function fmt(v) {
  if (Array.isArray(v)) return v.map(fmt).join("/");
  if (v && typeof v === "object") return JSON.stringify(v);
  return String(v);
}

/**
 * The score pad: one line per finished hand with its breakdown, and the totals.
 * ctx: {players, seatNames: [per seat], sideLabels: [per side], totals?: [per side]}
 */
export function renderPad(node, pad, ctx) {
  clear(node);
  const sides = ctx.sideLabels;
  const head = el("tr", {}, el("th", { scope: "col", title: "hand" }, "#"), el("th", { scope: "col" }, "End"),
    ...sides.map((s, i) => el("th", { scope: "col", class: "num", "data-side": i },
      ctx.shortSides && ctx.shortSides[i] !== s ? [ctx.shortSides[i], el("br"), el("span", { class: "small muted" }, s)] : s)));
  const body = el("tbody");
  for (const line of pad || []) {
    const short = ctx.shortSides || sides;
    const winner = line.winner === null || line.winner === undefined ? "no winner"
      : `won by ${short[line.winner] ?? `side ${line.winner}`}`;
    body.appendChild(el("tr", { class: "hand-line", "data-hand": line.hand },
      el("td", {}, String(line.hand)),
      el("td", { class: "small end-cell" }, `${endWords(line.end)}, ${winner}`),
      ...(line.points || []).map((p, i) => el("td", { class: "num", "data-side": i,
        title: `total ${line.totals?.[i]}` }, `+${p}`, el("br"),
        el("span", { class: "small muted" }, `= ${line.totals?.[i] ?? ""}`)))));
    const parts = [];
    const bd = line.breakdown || {};
    if (!("pips" in bd) && Array.isArray(line.pips)) parts.push(describe("pips", line.pips, ctx));
    for (const [k, v] of Object.entries(bd)) parts.push(describe(k, v, ctx));
    body.appendChild(el("tr", { class: "detail" },
      el("td", { colspan: 2 + sides.length }, parts.join("; ") || "no breakdown")));
  }
  if (ctx.inPlay && ctx.inPlay.some((x) => x)) {
    body.appendChild(el("tr", { class: "in-play", "data-hand": "current" },
      el("td", {}, "now"), el("td", { class: "small" }, "this hand so far"),
      ...ctx.inPlay.map((p, i) => el("td", { class: "num", "data-side": i }, `+${p}`))));
  }
  const last = (pad || []).length ? pad[pad.length - 1].totals : null;
  const totals = ctx.totals || last || sides.map(() => 0);
  const foot = el("tfoot", {}, el("tr", {}, el("td", { colspan: 2 }, "Total"),
    ...totals.map((t, i) => el("td", { class: "num", "data-total-side": i }, String(t)))));
  node.appendChild(el("table", { class: "list", "aria-label": "score pad" }, el("thead", {}, head), body, foot));
  if (ctx.target) node.appendChild(el("p", { class: "small muted" }, `Game to ${ctx.target}.`));
  if (!(pad || []).length) node.appendChild(el("p", { class: "small muted" }, "No hand finished yet."));
}

/** A row of face-up tiles (small, upright). */
export function tileRow(tiles, cls = "") {
  const row = el("span", { class: `tile-row ${cls}` });
  for (const t of tiles) row.appendChild(tileSVG(t, { label: tileWords(t) }));
  return row;
}

/** Every seat's tiles (revealed at hand end, or all hands in the replay). */
export function renderHands(node, hands, seatNames, opts = {}) {
  clear(node);
  hands.forEach((tiles, s) => {
    const pips = tiles.reduce((n, t) => n + t.split("-").map(Number).reduce((a, b) => a + b, 0), 0);
    node.appendChild(el("div", { class: "row-line", "data-seat": s },
      el("span", { class: "row-name" }, `${seatNames[s]}${opts.you === s ? " (you)" : ""}`,
        el("span", { class: "small muted" }, ` · ${tiles.length} tile${tiles.length === 1 ? "" : "s"}, ${pips} pips`)),
      tiles.length ? tileRow(tiles) : el("span", { class: "small muted" }, "no tiles")));
  });
}
