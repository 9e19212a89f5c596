// Layouts of many arms drawn as rows (Mexican Train's trains, Chicken Foot's arms and toes):
// the hub double on top, then one row per arm starting at the hub, labelled in words, its tiles
// from the hub outwards, wrapping inside the row when the row is full.  The rows are plain HTML
// next to the board's <svg> (which is hidden meanwhile), so the words keep a readable size on
// a phone and nothing can lie on anything else: the page's own flow places every tile.
// Everything is built with el()/textContent: nothing the server sends is parsed as HTML.
import { t } from "/static/i18n.js";
import { svg, tileSVG, tileWords } from "/static/tiles.js";

/** @typedef {import("/static/messages.js").Layout} Layout */
/** @typedef {{arm: string, move: string, label?: string}} EndChoice */
/**
 * @typedef {object} RowsOptions  what the page knows besides the layout
 * @property {string | null} [last]  the tile played last (marked)
 * @property {EndChoice[]} [choices]  where the selected tile may go (a button each)
 * @property {(move: string) => void} [onChoose]
 * @property {string[]} [names]  every seat's name as the page shows it
 * @property {number | null} [you]  the reader's seat (their own train is marked)
 * @property {string[]} [playable]  the arms the reader may play on now
 * @property {string} [emptyText]
 */

/** Whether a layout is drawn as rows (trains or a chicken foot) rather than as a line. */
export const isRows = (/** @type {Layout | null | undefined} */ layout) =>
  layout?.kind === "trains" || layout?.kind === "foot";

/** Hub arms of a chicken foot in the order they were opened. */
const HUB_ARMS = ["A", "B", "C", "D", "E", "F"];

/** Arm names in the order they were made: "A" < "Z" < "AA" (toes are named on from "G"). */
const byCreation = (/** @type {string} */ a, /** @type {string} */ b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);

/** The order of the trains seen from seat `you`: your own train, then the Mexican train (the
 * two you play on most, in sight at the top of a phone's rows), then the others round the
 * table from your left; without a seat (watching, a replay), the Mexican train then the seats
 * in order.
 * @param {Layout} layout @param {number | null | undefined} you */
function trainRank(layout, you) {
  const trains = [...Object.keys(layout.owners || {}), ...Object.keys(layout.arms || {})].filter((a) => a !== "M");
  const players = Math.max(1, ...trains.map(Number));
  const seated = you !== null && you !== undefined && you >= 0;
  return (/** @type {string} */ arm) => {
    if (arm === "M") return seated ? 1 : 0;
    const seat = layout.owners?.[arm] ?? Number(arm) - 1;
    if (!seated) return 1 + seat;
    return seat === you ? 0 : 1 + ((seat - you + players) % players);
  };
}

/** The arms of a rows layout, in the order they are drawn, each with its depth (a toe sits one
 * step in from the arm its double is on); trains as `trainRank` orders them for seat `you`.
 * @param {Layout} layout @param {number | null} [you] @returns {{arm: string, depth: number}[]} */
export function armOrder(layout, you = null) {
  const arms = Object.keys(layout.arms || {});
  if (layout.kind === "trains") {
    const all = new Set([...arms, ...Object.keys(layout.owners || {})]);
    const rank = trainRank(layout, you);
    return [...all].sort((a, b) => rank(a) - rank(b)).map((arm) => ({ arm, depth: 0 }));
  }
  const parents = layout.parents || {};
  /** @type {Record<string, string[]>} */
  const kids = {};
  for (const arm of arms.sort(byCreation)) {
    const p = parents[arm];
    if (p) (kids[p[0]] ||= []).push(arm);
  }
  /** @type {{arm: string, depth: number}[]} */
  const out = [];
  const seen = new Set();
  const visit = (/** @type {string} */ arm, /** @type {number} */ depth) => {
    if (seen.has(arm)) return;
    seen.add(arm);
    out.push({ arm, depth });
    // toes under the double they grow from, the toes of an inner double first
    const toes = (kids[arm] || []).slice().sort((a, b) => (parents[a]?.[1] ?? 0) - (parents[b]?.[1] ?? 0) || byCreation(a, b));
    for (const k of toes) visit(k, depth + 1);
  };
  for (const arm of HUB_ARMS) if (arm in (layout.arms || {})) visit(arm, 0);
  for (const arm of arms) visit(arm, 0);  // anything else, so no tile is ever left out
  return out;
}

/**
 * The words for an arm of a rows layout: "Ana's train", "your train", "the Mexican train",
 * "arm 3", "toe 2 on the double five".  Other arms (a line's L, R...) get `fallback`.
 * `inSentence`: the form a sentence uses ("You play 6-4 on your train"), not a row's title.
 * @param {Layout | null | undefined} layout @param {{names?: string[], you?: number | null}} [who]
 * @param {(arm: string) => string | undefined} [fallback] @param {boolean} [inSentence]
 * @returns {(arm: string) => string}
 */
export function armNamer(layout, who = {}, fallback = () => undefined, inSentence = false) {
  const k = (/** @type {string} */ key) => (inSentence ? `${key}.in` : key);
  return (arm) => {
    if (layout?.kind === "trains" && (arm === "M" || /^[1-9]$/.test(arm))) {
      if (arm === "M") return t(k("trains.mexican"));
      const owner = layout.owners?.[arm];
      const seat = owner === null || owner === undefined ? Number(arm) - 1 : owner;
      if (seat === who.you) return t(k("trains.yours"));
      const name = who.names?.[seat] || t("seat.player", { n: seat + 1 });
      return t(k("trains.of"), { name });
    }
    if (layout?.kind === "foot") {
      const i = HUB_ARMS.indexOf(arm);
      if (i >= 0 && arm in (layout.arms || {})) return t(k("foot.arm"), { n: i + 1 });
      const p = layout.parents?.[arm];
      const dbl = p ? layout.arms?.[p[0]]?.[p[1]]?.tile : null;
      if (p && dbl) {
        const sisters = Object.entries(layout.parents || {})
          .filter(([, q]) => q && q[0] === p[0] && q[1] === p[1]).map(([a]) => a).sort(byCreation);
        return t(k("foot.toe"), { n: sisters.indexOf(arm) + 1, tile: tileWords(dbl) });
      }
    }
    return fallback(arm) ?? arm;
  };
}

/** One screen-reader sentence for the whole layout (`name`: the arms as row titles, `inSentence`:
 * as a sentence names them).
 * @param {Layout} layout @param {(arm: string) => string} name @param {(arm: string) => string} [inSentence] */
export function describeRows(layout, name, inSentence = name) {
  const n = (layout.hub ? 1 : 0) + Object.values(layout.arms || {}).reduce((k, a) => k + a.length, 0);
  const parts = [t("rows.described", { n, hub: layout.hub ? tileWords(layout.hub) : t("rows.no_hub") })];
  const ends = Object.entries(layout.ends || {}).map(([a, p]) => t("rows.end", { arm: name(a), pips: p }));
  if (ends.length) parts.push(ends.join(", "));
  const open = layout.open || [];
  if (open.length) parts.push(t("trains.open_list", { arms: open.map(name).join(", ") }));
  if (layout.pending) parts.push(t("rows.pending_on", { arm: inSentence(layout.pending) }));
  return parts.join("; ");
}

/** The rows' box next to the board (made on first use).  @param {Element} board */
export function rowsOf(board) {
  const next = board.nextElementSibling;
  return next instanceof HTMLElement && next.classList.contains("rows-board") ? next : null;
}

/** @param {string} tag @param {Record<string, string>} [attrs] @param {(Node | string)[]} kids */
function h(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const k of kids) e.append(k);
  return e;
}

/** The marker of an open train: a small flag (its words for screen readers beside it). */
function markerIcon() {
  const s = svg("svg", { viewBox: "0 0 16 16", class: "rows-flag", "aria-hidden": "true", focusable: "false" });
  svg("path", { d: "M3 1.5v13", class: "rows-flag-pole" }, s);
  svg("path", { d: "M3.6 2h9.2l-2.4 3.2 2.4 3.2H3.6z", class: "rows-flag-cloth" }, s);
  return s;
}

/** The Mexican train's mark: a small engine (its words are beside it). */
function engineIcon() {
  const s = svg("svg", { viewBox: "0 0 20 16", class: "rows-engine", "aria-hidden": "true", focusable: "false" });
  svg("path", { d: "M2 4h7v7H2zM9 7h7v4H9zM11 3h3v4h-3zM1 11h18v1.5H1z", class: "rows-engine-body" }, s);
  svg("circle", { cx: 5, cy: 13.5, r: 1.8, class: "rows-engine-wheel" }, s);
  svg("circle", { cx: 14, cy: 13.5, r: 1.8, class: "rows-engine-wheel" }, s);
  return s;
}

/** A tile lying in its row: its inner half towards the hub (left), a double crosswise.
 * @param {string} tile @param {number} inner @param {number} outer @param {string[]} classes @param {string} label */
function rowTile(tile, inner, outer, classes, label) {
  const li = h("li", { class: ["rows-tile", ...classes].join(" "), "data-tile": tile });
  li.append(tileSVG(`${inner}-${outer}`, { vertical: inner === outer, label, classes }));
  return li;
}

/**
 * Draw a trains or chicken-foot layout as rows beside `board` (an <svg> that is emptied and
 * hidden meanwhile; drawing a line layout later shows it again).
 * @param {SVGSVGElement} board @param {Layout} layout @param {RowsOptions} opts
 */
export function drawRows(board, layout, opts = {}) {
  while (board.firstChild) board.removeChild(board.firstChild);
  board.dataset.rows = "1";
  let box = rowsOf(board);
  if (!box) {
    box = h("div", { class: "rows-board", role: "group", tabindex: "0" });
    board.after(box);
  }
  const kept = box.scrollTop;  // a redraw (every move) leaves the reader where they were
  box.replaceChildren();
  box.dataset.kind = String(layout.kind);
  const name = armNamer(layout, { names: opts.names, you: opts.you });
  box.setAttribute("aria-label", describeRows(layout, name, armNamer(layout, { names: opts.names, you: opts.you }, undefined, true)));
  const playable = new Set(opts.playable || []);
  const open = new Set(layout.open || []);
  /** @type {Record<string, EndChoice[]>} */
  const choices = {};
  for (const c of opts.choices || []) (choices[c.arm] ||= []).push(c);

  // the hub
  const hub = h("div", { class: "rows-hub" });
  if (layout.hub) {
    const words = t("rows.hub", { tile: tileWords(layout.hub) });
    hub.append(tileSVG(layout.hub, { vertical: false, label: words, classes: ["hub"] }),
      h("span", { class: "rows-hub-words" }, words));
  } else {
    hub.append(h("span", { class: "rows-hub-words" }, opts.emptyText || t("board.empty")));
  }
  box.append(hub);

  const list = h("div", { class: "rows-list" });
  box.append(list);
  // an arm and the toes under it stay together (one cell each when the rows stand in columns)
  let group = list;
  for (const { arm, depth } of armOrder(layout, opts.you)) {
    if (!depth) {
      group = h("div", { class: "rows-group" });
      list.append(group);
    }
    const tiles = layout.arms?.[arm] || [];
    const mine = layout.kind === "trains" && opts.you !== null && opts.you !== undefined &&
      (layout.owners?.[arm] ?? Number(arm) - 1) === opts.you && arm !== "M";
    const classes = ["rows-arm"];
    if (mine) classes.push("mine");
    if (playable.has(arm)) classes.push("playable");
    if (open.has(arm)) classes.push("open");
    if (layout.pending === arm) classes.push("pending");
    if (depth) classes.push("toe");
    const row = h("section", { class: classes.join(" "), "data-arm": arm, style: `--depth: ${depth}` });
    const title = name(arm);
    const head = h("div", { class: "rows-head" }, h("span", { class: "rows-name" }, title));
    if (arm === "M" && layout.kind === "trains") {  // everyone's train: an engine and its words
      row.classList.add("public");
      head.prepend(engineIcon());
      head.append(h("span", { class: "rows-public" }, t("trains.mexican_open")));
    } else if (open.has(arm)) {  // a marker on a train: a flag and "open" (the whole sentence for screen readers)
      const words = t("trains.open");
      const mark = h("span", { class: "rows-marker", title: words }, markerIcon(),
        h("span", { class: "rows-marker-word", "aria-hidden": "true" }, t("trains.open_word")),
        h("span", { class: "visually-hidden" }, words));
      head.append(mark);
    }
    if (layout.pending === arm) head.append(h("span", { class: "rows-chip rows-pending" }, t("rows.must_cover")));
    else if (playable.has(arm)) head.append(h("span", { class: "rows-chip rows-yours-now" }, t("rows.playable")));
    const end = layout.ends?.[arm];
    if (end !== undefined) head.append(h("span", { class: "rows-end" }, t("rows.ends_in", { pips: end })));
    row.append(head);
    row.setAttribute("aria-label", title);

    const line = h("ol", { class: "rows-tiles" });
    tiles.forEach((p, i) => {
      const cls = [];
      if (p.tile === opts.last) cls.push("last");
      const isPending = layout.pending === arm && i === tiles.length - 1;
      if (isPending) cls.push("pending");
      const words = [tileWords(p.tile), p.tile === opts.last ? t("board.last_played") : null,
        isPending ? t("rows.must_cover") : null].filter(Boolean).join(", ");
      const li = rowTile(p.tile, p.inner, p.outer, cls, words);
      li.dataset.arm = arm;
      line.append(li);
    });
    if (!tiles.length && !(choices[arm] || []).length) {
      line.append(h("li", { class: "rows-none" }, t("rows.no_tiles")));
    }
    for (const c of choices[arm] || []) {
      if (!opts.onChoose) {  // a picture (How to play): where the tile would fit, in words
        line.append(h("li", { class: "rows-slot rows-fits", "data-arm": arm }, c.label || t("rows.play_here")));
        continue;
      }
      // the words seen ("Play here") begin the button's name; the rest is for screen readers
      const b = h("button", { type: "button", class: "end-choice rows-play", "data-arm": arm }, t("rows.play_here"),
        h("span", { class: "visually-hidden" }, `: ${c.label || title}`));
      b.addEventListener("click", (ev) => { ev.preventDefault(); opts.onChoose && opts.onChoose(c.move); });
      line.append(h("li", { class: "rows-slot" }, b));
    }
    row.append(line);
    group.append(row);
  }
  box.scrollTop = kept;
  // a choice to make: its first button in sight (inside the rows, the page stays put), below
  // the hub that stays at the top
  bringIntoRows(box, box.querySelector(".rows-play"));
}

/** Scroll the rows (the page stays put) so that `target` is in sight below the hub that
 * stays at their top; nothing when it is already in sight or missing.
 * @param {Element} box the rows (rowsOf) @param {Element | null} target */
export function bringIntoRows(box, target) {
  if (!target) return;
  const r = target.getBoundingClientRect(), outer = box.getBoundingClientRect();
  const hub = box.querySelector(".rows-hub");
  const top = Math.max(outer.top, hub ? hub.getBoundingClientRect().bottom : outer.top);
  if (r.top < top || r.bottom > outer.bottom) box.scrollTop += r.top - top - 8;
}

/** Show the board's <svg> again (a line layout follows a rows one).  @param {SVGSVGElement} board */
export function dropRows(board) {
  if (board.dataset.rows) delete board.dataset.rows;
  rowsOf(board)?.remove();
}
