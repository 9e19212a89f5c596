// How to play: the game picker (/how-to-play) and one page per game (/how-to-play/<game>).
// The words come from the catalogue (keys howto.<game>.*, paragraphs numbered .1, .2 ...);
// the worked examples (tables, tiles and their numbers) come from the server, which plays them
// with the engine: this page draws them and knows no rule.

import { api, clear, el } from "/static/common.js";
import { has, ready, t } from "/static/i18n.js";
import { drawBoard, tileSVG } from "/static/render.js";

/**
 * A worked example of a game's page, played by the server: its board, the ends a tile fits
 * (marks), the rows of tiles shown with it, the numbers its words take.
 * @typedef {{id: string, board: import("/static/messages.js").Layout, last?: string | null, marks?: string[],
 *   rows?: Row[], values?: Record<string, unknown>}} Example
 */
/** @typedef {{label: string, params?: Record<string, unknown>, won?: boolean, tiles: {tile: string | null, mark?: boolean}[]}} Row */

const root = /** @type {HTMLElement} */ (document.getElementById("howto"));
/** The parts of a game's page, each a heading and its numbered paragraphs. */
const PARTS = ["deal", "turn", "end", "score"];
/** The examples' boards, drawn again when the window changes. @type {{svg: SVGSVGElement, example: Example}[]} */
const boards = [];

/** @param {string} game @param {string} rest */
function key(game, rest) {
  return `howto.${game}.${rest}`;
}

/** The numbered paragraphs key.1, key.2 ... that the catalogue has. */
/** @param {string} base */
function paragraphs(base) {
  const out = [];
  for (let i = 1; has(`${base}.${i}`); i++) out.push(el("p", {}, t(`${base}.${i}`)));
  return out;
}

/** @param {string} game */
function playLink(game) {
  return el("a", { class: "button primary", href: `/?play=${encodeURIComponent(game)}` }, t("howto.play_now"));
}

/** @param {string} game */
function facts(game) {
  return el("dl", { class: "facts" },
    el("dt", {}, t("howto.fact.where")), el("dd", {}, t(key(game, "where"))),
    el("dt", {}, t("howto.fact.players")), el("dd", {}, t(key(game, "players"))),
    el("dt", {}, t("howto.fact.length")), el("dd", {}, t(key(game, "length"))));
}

// ------------------------------------------------------------------------------ the picker
/** @param {{games: {name: string}[]}} data */
function picker(data) {
  document.title = t("howto.title");
  const list = el("ul", { class: "games" });
  for (const g of data.games) {
    const name = t(key(g.name, "name"));
    list.appendChild(el("li", { class: "card game-card", "data-game": g.name },
      el("h2", {}, name),
      facts(g.name),
      el("p", { class: "special" }, t(key(g.name, "special"))),
      el("p", { class: "links" },
        el("a", { class: "button", href: `/how-to-play/${encodeURIComponent(g.name)}`,
                  "aria-label": t("howto.rules_of", { game: name }) }, t("howto.rules")),
        el("a", { class: "button primary", href: `/?play=${encodeURIComponent(g.name)}`,
                  "aria-label": t("howto.play_of", { game: name }) }, t("howto.play_now")))));
  }
  root.append(el("h1", { class: "page-title" }, t("howto.title")), el("p", { class: "lead" }, t("howto.intro")), list);
}

// ------------------------------------------------------------------------------ a game's page
/** @param {Row} row */
function tileRow(row) {
  const strip = el("div", { class: "strip" });
  for (const x of row.tiles) {
    const label = x.tile ? x.tile : t("howto.face_down");
    const s = tileSVG(x.tile || "0-0", { back: !x.tile, label, classes: x.mark ? ["last"] : [] });
    strip.appendChild(s);
  }
  const head = el("span", { class: "row-label" }, t(row.label, row.params || {}));
  if (row.won) head.appendChild(el("span", { class: "badge won" }, t("howto.row.wins")));
  return el("div", { class: "tile-row" + (row.won ? " won" : "") }, head, strip);
}

/** @param {{svg: SVGSVGElement, example: Example}} b */
function draw(b) {
  /** @type {Record<string, number>} */
  const ends = b.example.board.ends || {};
  const choices = (b.example.marks || []).map((arm) => ({ arm, move: "", label: t("howto.fits_here", { end: ends[arm] }) }));
  drawBoard(b.svg, b.example.board, { last: b.example.last, choices });
  // the marked ends only show where a tile fits: pictures, not buttons
  for (const m of b.svg.querySelectorAll(".end-choice")) {
    m.removeAttribute("tabindex");
    m.setAttribute("role", "img");
  }
}

/** @param {string} game @param {Example} ex @param {number} n */
function example(game, ex, n) {
  const base = key(game, `ex.${ex.id}`);
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", "board howto-board");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("howto.picture", { n }));
  const fig = el("figure", { class: "card example", "data-example": ex.id },
    el("h3", {}, t(`${base}.title`)),
    el("div", { class: "felt" }, svg),
    ...(ex.rows || []).map(tileRow),
    el("figcaption", {}, t(`${base}.text`, ex.values || {})));
  boards.push({ svg, example: ex });
  return fig;
}

/** @param {string} game @param {{examples?: Example[]}} data */
function page(game, data) {
  const name = t(key(game, "name"));
  document.title = t("howto.page_title", { game: name });
  root.appendChild(el("p", { class: "crumbs" }, el("a", { href: "/how-to-play" }, t("howto.all_games"))));
  root.appendChild(el("h1", { class: "page-title" }, name));
  root.appendChild(el("section", { class: "card about" },
    el("p", { class: "lead" }, t(key(game, "special"))),
    facts(game),
    ...paragraphs(key(game, "intro")),
    el("p", {}, playLink(game))));
  for (const part of PARTS) {
    root.appendChild(el("section", { class: "card part", "data-part": part },
      el("h2", {}, t(`howto.part.${part}`)), ...paragraphs(key(game, part))));
  }
  if (data.examples?.length) {
    root.appendChild(el("h2", { class: "examples-title" }, t("howto.examples")));
    const list = el("div", { class: "examples" });
    data.examples.forEach((ex, i) => list.appendChild(example(game, ex, i + 1)));
    root.appendChild(list);
  }
  root.appendChild(el("p", { class: "bottom-links" }, playLink(game), " ",
    el("a", { class: "button", href: "/how-to-play" }, t("howto.all_games"))));
  for (const b of boards) draw(b);
  let pending = 0;
  addEventListener("resize", () => {
    cancelAnimationFrame(pending);
    pending = requestAnimationFrame(() => boards.forEach(draw));
  });
}

function notFound() {
  document.title = t("howto.title");
  root.append(el("h1", { class: "page-title" }, t("howto.not_found")),
    el("p", {}, el("a", { href: "/how-to-play" }, t("howto.all_games"))));
}

async function init() {
  await ready;
  const parts = location.pathname.split("/").filter(Boolean);
  const game = parts.length > 1 ? decodeURIComponent(parts[1]) : null;
  clear(root);
  try {
    if (!game) picker(await api("GET", "/api/howto"));
    else page(game, await api("GET", `/api/howto/${encodeURIComponent(game)}`));
  } catch (e) {
    if (game) notFound();
    else root.appendChild(el("p", { class: "alert", role: "alert" }, t("howto.error")));
  }
  document.body.dataset.ready = "1";
}

init();
