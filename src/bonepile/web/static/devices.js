// The devices that play as your profile (the lobby's profile card): when each got its key,
// "remove" for another one (a lost phone), "sign out" for this one (a shared computer), with
// a warning when it is the last one: without a device nobody can use the profile again.
import { $, el, setAlert } from "/static/common.js";
import { t, language } from "/static/i18n.js";
import { devices, forgetDevice } from "/static/profile.js";

/** @typedef {{id: string, created: number, this: boolean, removable: boolean}} Device */

/** @param {number} seconds */
function since(seconds) {
  try {
    return new Date(seconds * 1000).toLocaleDateString(language(), { dateStyle: "medium" });
  } catch { return new Date(seconds * 1000).toLocaleDateString(); }
}

/** Fill the list (in ``box``) from the server; ``name`` is the profile's.
 * @param {HTMLElement} box @param {string} name @param {HTMLElement} alertBox */
export async function showDevices(box, name, alertBox) {
  let got;
  try { got = await devices(); } catch (e) { setAlert(alertBox, t("profiles.failed", { error: e.message })); return; }
  /** @type {Device[]} */
  const list = got.devices || [];
  const ul = el("ul", { class: "devices" });
  for (const d of list) {
    const words = t(d.this ? "profiles.device_this" : "profiles.device_other", { date: since(d.created) });
    const li = el("li", {}, el("span", {}, words));
    if (d.this) {
      li.appendChild(el("button", { type: "button", id: "sign-out", onclick: () => askSignOut(li, d, list.length, name, alertBox) }, t("profiles.sign_out")));
    } else if (d.removable) {
      li.appendChild(el("button", { type: "button", class: "device-remove", "aria-label": t("profiles.device_remove_label", { what: words }),
        onclick: async () => {
          try { await forgetDevice(d.id, false); } catch (e) { setAlert(alertBox, t("profiles.failed", { error: e.message })); return; }
          await showDevices(box, name, alertBox);
          $("devices-note").textContent = t("profiles.device_removed");
        } }, t("profiles.device_remove")));
    }
    ul.appendChild(li);
  }
  box.replaceChildren(ul, el("p", { id: "devices-rule", class: "small" }, t("profiles.devices_rule")),
    el("p", { id: "devices-note", class: "small", "aria-live": "polite" }));
}

/** Signing this device out asks first, in the page (no pop-up), with what it means.
 * @param {HTMLElement} li @param {Device} device @param {number} count @param {string} name
 * @param {HTMLElement} alertBox */
function askSignOut(li, device, count, name, alertBox) {
  if (document.getElementById("sign-out-ask")) { $("sign-out-yes").focus(); return; }
  const ask = el("div", { id: "sign-out-ask", class: "confirm", role: "group", "aria-labelledby": "sign-out-words" },
    el("p", { id: "sign-out-words" }, t(count > 1 ? "profiles.sign_out_confirm" : "profiles.sign_out_last", { name })),
    el("button", { type: "button", id: "sign-out-yes", class: count > 1 ? "primary" : "danger", onclick: async () => {
      try { await forgetDevice(device.id, true); } catch (e) { setAlert(alertBox, t("profiles.failed", { error: e.message })); return; }
      const card = $("profile");
      card.replaceChildren(el("h2", {}, t("profiles.title")), el("p", { role: "status" }, t("profiles.signed_out", { name })),
        el("p", {}, el("a", { href: "/" }, t("profiles.start_again"))));
    } }, t("profiles.sign_out_yes")),
    el("button", { type: "button", onclick: () => { ask.remove(); $("sign-out").focus(); } }, t("profiles.cancel")));
  li.after(ask);
  $("sign-out-yes").focus();
}
