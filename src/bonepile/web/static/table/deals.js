// The table's sealed deals: the fingerprint of its secret number, shown from before the first
// hand, a few words on what it is, and once the game is over the way to verify the deals.
import { $, el } from "/static/common.js";
import { t } from "/static/i18n.js";
import { tableId } from "/static/table/state.js";

/** @param {import("/static/messages.js").TableInfo} table */
export function renderDeals(table) {
  const deals = table?.deals;
  let box = document.getElementById("sealed");
  if (!deals) { if (box) box.hidden = true; return; }
  if (!box) {
    box = el("details", { id: "sealed", class: "card sealed small" },
      el("summary", {}, el("span", { class: "code" }), " ", el("span", { class: "muted what" })),
      el("p", { class: "explain" }),
      el("a", { class: "verify", href: `/replay?table=${encodeURIComponent(tableId)}#deals`, hidden: true }));
    $("side").querySelector(".side-links")?.after(box);
  }
  box.hidden = false;
  /** @type {Element} */ (box.querySelector(".code")).textContent = t("deals.sealed", { code: deals.commitment.slice(0, 8) });
  /** @type {Element} */ (box.querySelector(".what")).textContent = t("deals.what");
  /** @type {Element} */ (box.querySelector(".explain")).textContent = t("deals.explain");
  box.title = deals.commitment;
  const link = /** @type {HTMLAnchorElement} */ (box.querySelector(".verify"));
  link.textContent = t("deals.verify");
  link.hidden = deals.seed === null;  // revealed once the game is over, never before
}
