// On /me: the player's puzzle rating (one for every game), under their game ratings, with a
// link to the puzzles. Nothing shows without a profile.
import { el, api } from "/static/common.js";
import { ready, t } from "/static/i18n.js";
import { getProfile, profileHeaders } from "/static/profile.js";

await ready;

async function showPuzzleRating() {
  const after = document.getElementById("my-ratings")?.closest("section");
  if (!after || !getProfile()) return;
  const line = el("p", { id: "my-puzzle-rating", class: "pz-me" }, t("common.loading"));
  const card = el("section", { class: "card history-card", "aria-labelledby": "puzzle-rating-title" },
    el("h2", { id: "puzzle-rating-title" }, t("puzzles.me_title")), line,
    el("p", {}, el("a", { href: "/puzzles" }, t("puzzles.me_link"))));
  after.after(card);
  try {
    const got = await api("GET", "/api/puzzles/me", undefined, profileHeaders());
    const r = got.rating;
    line.textContent = r ? t("puzzles.me_line", { rating: r.rating, n: r.attempts, solved: r.solved }) : t("puzzles.me_none");
    if (r) line.dataset.rating = String(r.rating);
  } catch (e) { line.textContent = e.message; }
}

showPuzzleRating();  // the page goes on drawing meanwhile
