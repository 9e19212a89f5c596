// A rating over time as an inline SVG line (no library, no network): one point after each
// rated game, the start (1500, or the rating before the first game shown) on the left. It
// scales to its box, so it reads at 390 px as on a desktop.
import { t } from "/static/i18n.js";
import { ratingText } from "/static/rating.js";

const NS = "http://www.w3.org/2000/svg";
const W = 320, H = 120, PAD_L = 40, PAD_R = 8, PAD_T = 10, PAD_B = 18;

/** @param {string} tag @param {Record<string, string | number>} attrs */
function svg(tag, attrs = {}) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/** @param {{rating: number, change: number, provisional: boolean}[]} points @param {string} label */
export function ratingGraph(points, label) {
  const ys = [points.length ? points[0].rating - points[0].change : 1500, ...points.map((p) => p.rating)];
  let lo = Math.min(...ys), hi = Math.max(...ys);
  if (hi - lo < 40) { const mid = (hi + lo) / 2; lo = mid - 20; hi = mid + 20; }
  const x = (/** @type {number} */ i) => PAD_L + (ys.length < 2 ? 0 : (i * (W - PAD_L - PAD_R)) / (ys.length - 1));
  const y = (/** @type {number} */ r) => PAD_T + ((hi - r) * (H - PAD_T - PAD_B)) / (hi - lo);
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "rating-graph", role: "img", "aria-label": label,
    preserveAspectRatio: "xMidYMid meet" });
  const title = svg("title");
  title.textContent = label;
  root.appendChild(title);
  for (const r of [hi, lo]) {
    root.appendChild(svg("line", { x1: PAD_L, x2: W - PAD_R, y1: y(r), y2: y(r), class: "grid" }));
    const text = svg("text", { x: PAD_L - 4, y: y(r) + 4, "text-anchor": "end", class: "axis" });
    text.textContent = ratingText({ rating: Math.round(r), provisional: false });
    root.appendChild(text);
  }
  const first = svg("text", { x: PAD_L, y: H - 4, class: "axis" });
  first.textContent = t("rating.graph_start");
  root.appendChild(first);
  const last = svg("text", { x: W - PAD_R, y: H - 4, "text-anchor": "end", class: "axis" });
  last.textContent = t("rating.graph_games", { n: points.length });
  root.appendChild(last);
  root.appendChild(svg("polyline", { points: ys.map((r, i) => `${x(i).toFixed(1)},${y(r).toFixed(1)}`).join(" "), class: "line" }));
  ys.forEach((r, i) => {
    if (i === 0 && points.length > 40) return;
    root.appendChild(svg("circle", { cx: x(i).toFixed(1), cy: y(r).toFixed(1), r: points.length > 40 ? 1.5 : 2.5,
      class: i && points[i - 1].provisional ? "dot provisional" : "dot" }));
  });
  return root;
}
