// Small helpers shared by the pages.  Text from the server only ever goes into textContent
// or attribute values, never into markup.
import { t, has } from "/static/i18n.js";

/** The page's element with this id: one its page's markup has (an element a script may not
 * have made yet is looked up with document.getElementById, which may answer null). */
export const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** A form field by id: an input, a select or a text area (its value, whether it is checked). */
export const $field = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ (document.getElementById(id));
/** A button by id. */
export const $button = (/** @type {string} */ id) => /** @type {HTMLButtonElement} */ (document.getElementById(id));

/** A child of el(): a node, words, a number, or nothing (null, undefined, false are left out).
 * @typedef {Node | string | number | null | undefined | false} Child */

/** el("button", {class: "x", onclick: f}, "text", child, ...)
 * @param {string} tag @param {Record<string, any> | null} [attrs] @param {(Child | Child[])[]} children
 * @returns {HTMLElement} */
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") e.addEventListener(k.slice(2), v);
    else if (k === "class") e.className = v;
    else if (k === "dataset") Object.assign(e.dataset, v);
    else if (v === true) e.setAttribute(k, "");
    else e.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
  return e;
}

/** @template {Node} N @param {N} node @returns {N} */
export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

/** JSON request; throws Error(message from {"error"} or the status) on failure.
 * @param {string} method @param {string} path @param {unknown} [body]
 * @param {Record<string, string>} [headers] @returns {Promise<any>} */
export async function api(method, path, body, headers = {}) {
  /** @type {RequestInit & {headers: Record<string, string>}} */
  const init = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = typeof body === "string" ? body : JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    throw new Error(t("error.offline", { detail: (e instanceof Error && e.message) || String(e) }));
  }
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!res.ok) {
    let msg = data && (data.error ?? data.detail);
    if (msg && typeof msg !== "string") msg = JSON.stringify(msg);
    throw Object.assign(new Error(msg ? serverWords(msg, data.code, data.params) : `${res.status} ${res.statusText}`),
      { code: data?.code, status: res.status });
  }
  return data;
}

export const tokenKey = (/** @type {string} */ id) => `bonepile:token:${id}`;
/** @param {string} id */
export function getToken(id) {
  try { return localStorage.getItem(tokenKey(id)); } catch { return null; }
}
/** @param {string} id @param {string} token */
export function setToken(id, token) {
  try { localStorage.setItem(tokenKey(id), token); } catch { /* private mode: session only */ }
}
/** @param {string} id */
export function dropToken(id) {
  try { localStorage.removeItem(tokenKey(id)); } catch { /* ignore */ }
}

export function getName() {
  try { return localStorage.getItem("bonepile:name") || ""; } catch { return ""; }
}
/** @param {string} name */
export function setName(name) {
  try { localStorage.setItem("bonepile:name", name); } catch { /* ignore */ }
}

/** A refusal of the server in the reader's language: a refusal a player can meet has a code
 * (`error.<code>` in the catalogue, with its numbers); any other is shown as the server wrote it. */
/** @param {unknown} message @param {string} [code] @param {Record<string, unknown>} [params] */
export function serverWords(message, code, params) {
  if (code && has(`error.${code}`)) return t(`error.${code}`, params || {});
  return String(message ?? "");
}

/** A table's seats as the server describes them (a state's table, the lobby's, a replay's).
 * @typedef {{seats?: {seat: number, name?: string, named?: boolean, kind: string, level?: string | null}[]}} Seated */

/** The display name of a seat from table info.
 * @param {Seated | null | undefined} table @param {number} seat */
export function seatName(table, seat) {
  const s = table?.seats?.find((x) => x.seat === seat);
  if (!s) return t("seat.player", { n: seat + 1 });
  // a seat nobody named (the server calls it "Seat 2", "greedy bot 2") in the reader's words
  if (s.named === false) return s.kind === "bot" ? t("seat.server_bot", { level: s.level, n: seat + 1 }) : t("seat.player", { n: seat + 1 });
  if (s.name) return s.name;
  if (s.kind === "bot") return t("seat.bot", { n: seat + 1 });
  return t("seat.player", { n: seat + 1 });
}

/** A label per side: the names of its seats ("Ana & Carl"). */
/** @param {Seated | null | undefined} table @param {number[][] | null | undefined} sides */
export function sideLabels(table, sides) {
  return (sides || []).map((side) => side.map((s) => seatName(table, s)).join(" & "));
}

/** How a hand ended, in words ("domino", "blocked"...). */
/** @param {string | null | undefined} end */
export function endWords(end) {
  if (!end) return "";
  return has(`end.${end}`) ? t(`end.${end}`) : String(end).replaceAll("_", " ");
}

/** Who won a hand, in words that say what "won" means: after a domino the winner is the
 * side that went out (which need not be the side that scored more in the hand). */
/** @param {{winner?: number | null, end?: string | null} | null | undefined} line @param {string[]} short */
export function winnerWords(line, short) {
  const w = line?.winner;
  if (w === null || w === undefined) return t("result.no_winner");
  const who = short[w] ?? t("result.side", { n: w + 1 });
  // "you" takes its own form of the verb
  const you = who === t("seat.you") ? ".you" : "";
  return line?.end === "domino" ? t(`result.went_out${you}`, { who }) : t(`result.won_by${you}`, { who });
}

/** A final score, the winner's total first: "60 to 20". */
/** @param {number[]} totals @param {number} w @param {string[]} short */
export function scoreWords(totals, w, short) {
  const others = (totals || []).map((t, i) => [t, i]).filter(([, i]) => i !== w);
  const rest = others.map(([n, i]) => (others.length > 1 ? `${short[i]} ${n}` : String(n))).join(", ");
  return t("result.score", { first: totals[w], rest });
}

/** A value with no words from the server (a number). */
/** @param {unknown} v */
export function showValue(v) {
  if (v === null) return t("value.none");
  if (v === true) return t("value.yes");
  if (v === false) return t("value.no");
  return String(v).replaceAll("_", " ");
}

/** @param {Node} node @param {string | null | undefined} msg */
export function setAlert(node, msg) {
  node.textContent = msg || "";
}

/** The other seats from your left round to your right.  Seats are numbered in turn order;
 * the server says which way play goes: counterclockwise, the player after you sits on your
 * right (and the one before on your left); clockwise, the other way round. */
/** @param {number} you @param {number} n @param {string | null | undefined} direction */
export function seatOrder(you, n, direction) {
  const cw = direction === "clockwise";
  return Array.from({ length: n - 1 }, (_, i) => (cw ? (you + 1 + i) % n : (you + n - 1 - i) % n));
}

/** Where each of the other seats goes ("left", "top", "right"), in seatOrder's order. */
/** @param {number} others @returns {string[]} */
export function seatPlaces(others) {
  if (others <= 1) return Array(others).fill("top");
  if (others === 2) return ["left", "right"];
  return ["left", ...Array(others - 2).fill("top"), "right"];
}
