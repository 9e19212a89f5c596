// "Verify the deals" on a finished table's replay: the server deals every hand again from the
// revealed secret number (GET /api/tables/<id>/verify, the check `bonepile verify` makes), and
// this browser works out the SHA-256 of the number and salt itself (SubtleCrypto), so that the
// match with the fingerprint published before the first hand does not rest on the server's word.
import { $, $button, el, clear, api } from "/static/common.js";
import { t } from "/static/i18n.js";

/** @typedef {import("/static/messages.js").DealsCheck} DealsCheck */
/** @typedef {import("/static/messages.js").DealFinding} DealFinding */

/** The lowercase hex SHA-256 of a text, or null where the browser offers no SubtleCrypto
 * (a page not served over https or from this computer).
 * @param {string} text @returns {Promise<string | null>} */
export async function sha256hex(text) {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return null;
  const digest = await subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The bytes the fingerprint is the SHA-256 of (RECORD.md, "Extensions").
 * @param {string} seed @param {string} salt */
export const sealedText = (seed, salt) => `bonepile-deals/sha256-v1:${seed}:${salt}`;

/** @param {DealFinding} f @param {string[]} names */
function findingWords(f, names) {
  const recorded = f.recorded ?? t("deals.no_tile");
  const dealt = f.dealt ?? t("deals.no_tile");
  const hand = f.number;
  if (f.seat === null) return t("deals.finding_boneyard", { hand, place: f.position ?? 0, recorded, dealt });
  const seat = names[f.seat] ?? t("seat.player", { n: f.seat + 1 });
  if (f.position !== null) return t("deals.finding_place", { hand, seat, place: f.position, recorded, dealt });
  return t("deals.finding_seat", { hand, seat, recorded, dealt });
}

/** Offer the check for the table ``id``; ``names`` gives the seats' names.
 * @param {string} id @param {() => string[]} names */
export function setupDeals(id, names) {
  const box = $("deals");
  box.hidden = false;
  const button = $button("verify-deals");
  const status = $("deals-status");
  const out = $("deals-result");
  button.addEventListener("click", async () => {
    button.disabled = true;
    status.textContent = t("deals.checking");
    clear(out);
    $("deals-yourself").hidden = true;
    /** @param {string} text @param {string} [kind] */
    const say = (text, kind) => out.appendChild(el("li", { "data-kind": kind || null }, text));
    try {
      /** @type {DealsCheck} */
      const check = await api("GET", `/api/tables/${encodeURIComponent(id)}/verify`);
      status.textContent = "";
      if (check.status === "none") { say(t("deals.none")); return; }
      if (check.status === "sealed" || check.seed === null || check.salt === null) { say(t("deals.not_yet")); return; }
      const mine = await sha256hex(sealedText(check.seed, check.salt));
      const hashOk = mine === null ? check.commitment_ok === true : mine === check.commitment;
      if (mine === null) say(t("deals.hash_unavailable"));
      else if (hashOk) say(t("deals.hash_ok", { code: mine }), "hash-ok");
      else say(t("deals.hash_bad", { code: mine, expected: check.commitment ?? "" }), "hash-bad");
      if (check.commitment_ok === false && mine !== null && hashOk) say(t("deals.server_hash_bad"));
      say(t("deals.hands_ok", { ok: check.hands_ok, n: check.hands }), check.hands_ok === check.hands ? "hands-ok" : "hands-bad");
      const nm = names();
      for (const f of check.findings) say(findingWords(f, nm), "finding");
      const ok = hashOk && check.status === "verified";
      status.textContent = ok ? t("deals.verified") : t("deals.not_verified");
      box.dataset.verdict = ok ? "verified" : "mismatch";
      const yourself = $("deals-yourself");
      yourself.textContent = t("deals.yourself", { seed: check.seed, salt: check.salt });
      yourself.hidden = false;
    } catch (e) {
      status.textContent = e instanceof Error ? e.message : String(e);
    } finally {
      button.disabled = false;
    }
  });
  if (location.hash === "#deals") box.scrollIntoView();
}
