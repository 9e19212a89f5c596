// The puzzles page: a position from the solver's seat drawn by the table's own renderer, with
// the hand so far; tap a tile (and an end if it fits two) and the server judges the move. A
// right move brings the others' replies and the next position, the last one "Solved"; a wrong
// one says why and shows the better move. The server sends every word's key (games, themes);
// this page knows no game and never holds a later position or a solution before it is answered.
import { $, $button, el, clear, api, setAlert, getName } from "/static/common.js";
import { ready, t, has } from "/static/i18n.js";
import { profileHeaders, getProfile, ensureProfile } from "/static/profile.js";
import { drawBoard, lastPlayed, tileSVG, tileWords } from "/static/render.js";
import { armNamer, bringIntoRows, isRows, rowsOf } from "/static/rows.js";

await ready;

/** @typedef {import("/static/messages.js").View} View */
/** @typedef {import("/static/messages.js").LegalMove} LegalMove */
/** @typedef {{seat: number, role: string, n: number}} SeatRole */
/** @typedef {{variant: string, players: number, label_key: string, label: string, count?: number}} Game */
/** @typedef {{code: string, key: string, count?: number}} Theme */
/**
 * @typedef {object} Puzzle  a puzzle as the server sends it: its first position, no solution
 * @property {string} id
 * @property {Game} game
 * @property {number} rating
 * @property {number} steps
 * @property {View} view
 * @property {SeatRole[]} seats
 * @property {boolean} daily
 * @property {boolean | null} tried
 */
/**
 * @typedef {object} Verdict  the server's judgement of one move
 * @property {number} step
 * @property {string} move
 * @property {boolean} correct
 * @property {boolean} done
 * @property {string | null} better
 * @property {{code: string, seat?: number, [k: string]: any}[]} reasons
 * @property {import("/static/messages.js").MoveEvent[]} replies  the others' moves after yours
 * @property {{step: number, view: View} | null} next
 * @property {{before: number, after: number, change: number} | null} rating
 * @property {boolean} counted
 * @property {Theme[] | null} themes
 * @property {{layout: import("/static/messages.js").Layout, tile: string} | null} [board]  once over: the layout after the better (or last) move
 */

const alertBox = $("alert");
const board = /** @type {SVGSVGElement} */ (/** @type {unknown} */ ($("board")));
const S = {
  /** @type {Puzzle | null} */ puzzle: null,
  /** @type {View | null} */ view: null,
  step: 0,
  /** @type {string[]} */ line: [],  // the moves that answered the steps before this one
  /** @type {string | null} */ selected: null,
  busy: false,
  over: false,  // the attempt ended: a wrong move, or solved
  /** @type {string | null} */ better: null,
  /** @type {string | null} */ wrong: null,
  /** @type {{layout: import("/static/messages.js").Layout, tile: string} | null} */ after: null,  // the board once over
  shown: "",  // the position whose rows were last brought into view (puzzle, step, over)
};

const words = (/** @type {string} */ key, /** @type {string} */ fallback) => (key && has(key) ? t(key) : fallback);
const gameWords = (/** @type {Game} */ g) => t("puzzles.game_players", { game: words(g.label_key, g.label), n: g.players });

/** A seat's name to the solver: you, your partner, or an opponent by its number. @param {number} seat */
function who(seat) {
  const s = S.puzzle?.seats.find((x) => x.seat === seat);
  if (!s || s.role === "you") return t("puzzles.seat.you");
  if (s.role === "partner") return t("puzzles.seat.partner");
  const others = S.puzzle?.seats.filter((x) => x.role === "opponent").length || 1;
  return others > 1 ? t("puzzles.seat.opponent_n", { n: s.n }) : t("puzzles.seat.opponent");
}

/** Every seat's name as this page says it (you, your partner, opponent 1...), by seat. */
function seatNames() {
  const n = S.view?.players ?? 0;
  return Array.from({ length: n }, (_, seat) => who(seat));
}

/** An arm of a trains or chicken-foot layout in words, as a sentence says it ("your train",
 * "Opponent 1's train", "arm 3"), read by the table's own namer (rows.js).
 * @param {string} arm */
function rowArm(arm) {
  return armNamer(S.view?.layout, { names: seatNames(), you: S.view?.seat ?? null }, undefined, true)(arm);
}

/** A move token in words ("6-4@R", "6-4" to lead, "12-3@M" on a train, "pass", "draw").
 * @param {string} tok */
function moveWords(tok) {
  if (tok === "pass") return t("hint.move.pass");
  if (tok === "draw") return t("hint.move.draw");
  const [tile, arm] = tok.split("@");
  if (arm && isRows(S.view?.layout)) return t("puzzles.move_on", { tile, arm: rowArm(arm) });
  return arm ? t("hint.move.on", { tile, end: t(`hint.end.${arm}`) }) : t("hint.move.lead", { tile });
}

/** Why, in words: one phrase per reason. @param {Verdict["reasons"]} reasons */
function why(reasons) {
  return reasons.filter((r) => has(`hint.${r.code}`))
    .map((r) => t(`hint.${r.code}`, { ...r, player: typeof r.seat === "number" ? who(r.seat) : "" }))
    .join(t("hint.sep"));
}

async function overview() {
  const o = await api("GET", "/api/puzzles", undefined, profileHeaders());
  const game = /** @type {HTMLSelectElement} */ ($("pz-game"));
  const theme = /** @type {HTMLSelectElement} */ ($("pz-theme"));
  game.replaceChildren(el("option", { value: "" }, t("puzzles.any_game")),
    ...o.games.map((/** @type {Game} */ g) => el("option", { value: g.variant }, words(g.label_key, g.label))));
  theme.replaceChildren(el("option", { value: "" }, t("puzzles.any_theme")),
    ...o.themes.map((/** @type {Theme} */ x) => el("option", { value: x.code }, words(x.key, x.code))));
  showRating(o.rating);
}

/** @param {{rating: number, attempts: number, solved: number} | null} r */
function showRating(r) {
  const box = $("pz-rating");
  if (!getProfile()) box.textContent = t("puzzles.rating_none_profile");
  else box.textContent = r ? t("puzzles.rating_mine", { rating: r.rating, n: r.attempts, solved: r.solved }) : t("puzzles.rating_none");
}

/** Load a puzzle (its first position) from `path`. @param {string} path */
async function load(path) {
  setAlert(alertBox, "");
  try {
    const p = /** @type {Puzzle} */ (await api("GET", path, undefined, profileHeaders()));
    Object.assign(S, { puzzle: p, view: p.view, step: 0, line: [], selected: null, over: false, better: null, wrong: null, after: null });
    history.replaceState(null, "", `/puzzles?id=${encodeURIComponent(p.id)}`);
    $("pz-board-area").hidden = false;
    const v = $("pz-verdict");
    v.hidden = true;
    clear(v);
    render();
  } catch (e) { setAlert(alertBox, e.message); }
}

function render() {
  const p = S.puzzle, view = S.view;
  if (!p || !view) return;
  $("pz-task").textContent = S.over ? t(S.better && S.after ? "puzzles.over_better" : "puzzles.over") : p.steps > 1
    ? t("puzzles.task_step", { k: S.step + 1, n: p.steps }) : t("puzzles.task");
  $("pz-seats").textContent = [gameWords(p.game), t("puzzles.rated", { rating: p.rating }),
    p.daily ? t("puzzles.daily_mark") : ""].filter(Boolean).join(" · ");
  // the others' tiles left, in the order they play after you
  const me = view.seat ?? 0;
  const counts = view.tile_counts.map((_, i) => (me + 1 + i) % view.players).filter((seat) => seat !== me)
    .map((seat) => t("puzzles.tiles_left", { who: who(seat), n: view.tile_counts[seat] }));
  if (view.boneyard_size) counts.push(t("board.boneyard", { n: view.boneyard_size }));
  if (view.count) counts.push(t("board.count", { n: view.count.value }));
  $("pz-info").textContent = counts.join(" · ");
  $("pz-tried").hidden = !(p.tried && !S.over);  // a puzzle tried before is not rated again
  const rows = isRows(view.layout);  // trains or a chicken foot: the table's rows (rows.js)
  const choices = S.selected && !S.over ? view.legal.filter((m) => m.kind === "play" && m.tile === S.selected && m.arm)
    .map((m) => ({ arm: /** @type {string} */ (m.arm), move: m.move, label: rows
      ? t("rows.play_tile_on", { tile: tileWords(m.tile || ""), arm: rowArm(/** @type {string} */ (m.arm)), pips: view.layout.ends?.[m.arm ?? ""] ?? "" })
      : t("board.play_on_end", { arm: t(`arm.${m.arm}`) }) })) : [];
  const after = S.over ? S.after : null;  // once over: the better move (or the last one) laid
  // the arms the solver may play on now (the rows mark them), none once the attempt is over
  const playable = S.over ? [] : [...new Set(view.legal.filter((m) => m.kind === "play" && m.arm).map((m) => /** @type {string} */ (m.arm)))];
  drawBoard(board, after ? after.layout : view.layout, { last: after ? after.tile : lastPlayed(view.history), choices,
    onChoose: submit, emptyText: t("puzzles.you_lead"), names: seatNames(), you: view.seat ?? null, playable });
  const key = `${p.id}:${S.step}:${S.over}`;
  if (rows && key !== S.shown) showInRows();
  S.shown = key;
  renderHand(view);
  renderHistory(view);
}

/** Trains or a chicken foot (rows that scroll): bring into the rows' view what the solver
 * needs once per position, the first train or arm it may play on, and once the attempt is
 * over the tile laid last (the better move); a tile's choice of rows is rows.js's own. */
function showInRows() {
  const box = rowsOf(board);
  if (!box || box.querySelector(".rows-play")) return;
  bringIntoRows(box, box.querySelector(S.over ? ".rows-tiles li.last" : ".rows-arm.playable"));
}

/** @param {View} view */
function renderHand(view) {
  const box = clear($("pz-hand"));
  const plays = S.over ? [] : view.legal.filter((m) => m.kind === "play");
  // a blind game: the tile you turned up is the one to play (your row stays face down)
  const blind = !!view.blind;
  if (blind && view.turned_up) box.appendChild(el("span", { class: "small" }, t("hand.turned_up.you")));
  for (const name of blind ? (view.turned_up ? [view.turned_up] : []) : view.hand) {
    const playable = plays.some((m) => m.tile === name);
    const better = S.better && S.better.split("@")[0] === name;
    const wrong = !better && S.wrong && S.wrong.split("@")[0] === name;
    const b = el("button", { type: "button", "data-tile": name,
      class: `tile-btn${playable ? " playable" : ""}${S.selected === name ? " selected" : ""}${better ? " better" : ""}${wrong ? " wrong" : ""}`,
      "aria-label": `${tileWords(name)}${playable ? `, ${t("hand.playable")}` : ""}${better ? `, ${t("puzzles.better_mark")}` : ""}`,
      "aria-disabled": playable && !S.busy ? "false" : "true", "aria-pressed": S.selected === name ? "true" : null });
    b.appendChild(tileSVG(name));
    b.addEventListener("click", () => tap(name));
    box.appendChild(b);
  }
  if (blind && view.peek) {  // the rules let you look at your row's next tile first
    box.appendChild(el("span", { class: "small" }, t("hand.peek")));
    box.appendChild(tileSVG(view.peek, { label: t("hand.peek_label", { tile: tileWords(view.peek) }) }));
  }
  const acts = clear($("pz-actions"));
  if (!S.over) {
    for (const m of view.legal.filter((x) => x.kind !== "play")) {
      acts.appendChild(el("button", { type: "button", "data-move": m.move, onclick: () => submit(m.move) }, moveWords(m.move)));
    }
    if (S.selected) {
      for (const m of view.legal.filter((x) => x.kind === "play" && x.tile === S.selected && x.arm)) {
        acts.appendChild(el("button", { type: "button", class: "primary", "data-move": m.move, onclick: () => submit(m.move) },
          moveWords(m.move)));
      }
    }
  }
}

/** An event of the history as a token: a tile with its end ("a-b@R"), the first tile alone.
 * @param {import("/static/messages.js").MoveEvent} e */
function eventToken(e) {
  if (e.action !== "play") return e.action;
  return e.arm ? `${e.tile}@${e.arm}` : String(e.tile);
}

/** @param {View} view */
function renderHistory(view) {
  const box = clear($("pz-history"));
  if (!view.history.length) box.appendChild(el("li", { class: "muted" }, t("puzzles.history_empty")));
  for (const e of view.history) {
    const words = { who: who(e.seat), move: moveWords(eventToken(e)), points: e.points ?? 0 };
    box.appendChild(el("li", { class: e.seat === view.seat ? "you" : "" }, t(e.points ? "puzzles.event_points" : "puzzles.event", words)));
  }
}

/** A tile tapped: played at once where all its moves are one decision, else its ends offered.
 * @param {string} name */
function tap(name) {
  const view = S.view;
  if (!view || S.busy || S.over) return;
  const moves = view.legal.filter((m) => m.kind === "play" && m.tile === name);
  if (!moves.length) return;
  if (new Set(moves.map((m) => m.decision)).size === 1) { S.selected = null; submit(moves[0].move); return; }
  S.selected = S.selected === name ? null : name;
  render();
}

/** Send the move for this step and show the verdict. @param {string} move */
async function submit(move) {
  const p = S.puzzle;
  if (!p || S.busy || S.over) return;
  S.busy = true;
  S.selected = null;
  setAlert(alertBox, "");
  try {
    const v = /** @type {Verdict} */ (await api("POST", `/api/puzzles/${encodeURIComponent(p.id)}/moves`,
      { step: S.step, move, line: S.line }, profileHeaders()));
    showVerdict(v);
    $("pz-verdict").scrollIntoView?.({ block: "nearest" });  // on a phone it is under your tiles
  } catch (e) { setAlert(alertBox, e.message); }
  finally { S.busy = false; render(); }
}

/** @param {Verdict} v */
function showVerdict(v) {
  const box = clear($("pz-verdict"));
  box.hidden = false;
  box.className = `card pz-verdict ${v.correct ? "right" : "wrong"}`;
  box.dataset.result = v.correct ? (v.done ? "solved" : "right") : "wrong";
  if (v.correct && v.next) {
    S.line.push(v.move);
    S.step = v.next.step;
    S.view = v.next.view;
    box.appendChild(el("h3", {}, t("puzzles.right")));
    if (v.replies.length) {
      box.appendChild(el("p", {}, t("puzzles.replies", { moves: v.replies.map((e) => t("puzzles.event", { who: who(e.seat), move: moveWords(eventToken(e)) })).join(t("hint.sep")) })));
    }
    box.appendChild(el("p", {}, t("puzzles.go_on")));
    return;
  }
  S.over = true;
  S.after = v.board || null;
  if (v.correct) {
    box.appendChild(el("h3", {}, t("puzzles.solved")));
  } else {
    S.better = v.better;
    S.wrong = v.move;
    box.appendChild(el("h3", {}, t("puzzles.wrong")));
    if (v.better) box.appendChild(el("p", { "data-better": v.better }, t("puzzles.better", { move: moveWords(v.better) })));
  }
  const reasons = why(v.reasons || []);
  if (reasons) box.appendChild(el("p", {}, t("puzzles.why", { reasons })));
  if (v.themes && v.themes.length) {
    box.appendChild(el("p", { class: "small" }, t("puzzles.themes", { themes: v.themes.map((x) => words(x.key, x.code)).join(t("hint.sep")) })));
  }
  if (v.rating) {
    const sign = v.rating.change > 0 ? "+" : v.rating.change < 0 ? "−" : "±";
    box.appendChild(el("p", { class: "pz-change" }, t("puzzles.change", { before: v.rating.before, after: v.rating.after,
      change: `${sign}${Math.abs(v.rating.change)}` })));
    overview().catch(() => {});  // the rating shown above, and the counts
  } else if (getProfile()) {
    box.appendChild(el("p", { class: "small muted" }, t("puzzles.not_counted")));
  }
  const row = el("div", { class: "actions" });
  if (!v.correct) row.appendChild(el("button", { type: "button", id: "pz-retry", onclick: retry }, t("puzzles.retry")));
  row.appendChild(el("button", { type: "button", class: "primary", onclick: nextPuzzle }, t("puzzles.next")));
  box.appendChild(row);
}

/** Try the same step again (a retry changes no rating). */
function retry() {
  Object.assign(S, { over: false, better: null, wrong: null, selected: null, after: null });
  $("pz-verdict").hidden = true;
  render();
}

function nextPuzzle() {
  const q = new URLSearchParams();
  const game = /** @type {HTMLSelectElement} */ ($("pz-game")).value;
  const theme = /** @type {HTMLSelectElement} */ ($("pz-theme")).value;
  if (game) q.set("game", game);
  if (theme) q.set("theme", theme);
  if (S.puzzle) q.set("after", S.puzzle.id);
  load(`/api/puzzles/next?${q}`);
}

$button("pz-next").addEventListener("click", nextPuzzle);
$button("pz-daily").addEventListener("click", () => load("/api/puzzles/daily"));
let resized = 0;
window.addEventListener("resize", () => { clearTimeout(resized); resized = window.setTimeout(render, 120); });

await ensureProfile(getName(), t("lobby.player"));  // as the lobby does: your puzzles are rated
try { await overview(); } catch (e) { setAlert(alertBox, e.message); }
const asked = new URLSearchParams(location.search).get("id");
await load(asked ? `/api/puzzles/${encodeURIComponent(asked)}` : "/api/puzzles/next");
document.body.dataset.ready = "1";
