// A profile without a password: its id and secret key live in this browser
// (localStorage "bonepile:profile"); the key goes with table requests so the seat is tied to
// the profile. Made on the first visit; moved to another device with a one-use code.
import { api } from "/static/common.js";

const KEY = "bonepile:profile";

export function getProfile() {
  try {
    const p = JSON.parse(localStorage.getItem(KEY) || "null");
    return p && typeof p.id === "string" && typeof p.key === "string" ? p : null;
  } catch { return null; }
}

/** This browser's profile: its id, and its key (sent as a bearer token; never shown).
 * @typedef {{id: string, key: string}} Profile */
/** A profile as the server names it. @typedef {{id: string, name: string}} ProfileInfo */

/** @param {Profile} p */
function keep(p) {
  try { localStorage.setItem(KEY, JSON.stringify({ id: p.id, key: p.key })); } catch { /* private mode */ }
}

function forget() {
  try { localStorage.removeItem(KEY); } catch { /* private mode */ }
}

/** The header that acts as this browser's profile (none without one).
 * @returns {Record<string, string>} */
export function profileHeaders() {
  const p = getProfile();
  return p ? { Authorization: `Bearer ${p.key}` } : {};
}

/** This browser's profile ({id, name}), made now if it has none or the server does not know
 * its key, and named ``name`` (the name the person plays under) when one is given (a new one
 * without it is named ``fallback``); null when the server has profiles turned off or cannot
 * be reached.
 * @param {string} name @returns {Promise<ProfileInfo | null>} */
export async function ensureProfile(name, fallback = "") {
  if (getProfile()) {
    let me;
    try { me = await api("GET", "/api/profiles/me", undefined, profileHeaders()); } catch (e) {
      if (e.status !== 401) return null;
      forget();  // a key this server does not know (its storage was reset): a new profile
    }
    if (me && name && me.name !== name) {
      try { me = await api("PATCH", "/api/profiles/me", { name }, profileHeaders()); } catch { /* keep the old name */ }
    }
    if (me) return me;
  }
  try {
    const made = await api("POST", "/api/profiles", name || fallback ? { name: name || fallback } : {});
    keep(made);
    return { id: made.id, name: made.name };
  } catch (e) {
    // a remembered name the server refuses for a profile: one with the server's default name
    return (name || fallback) && e.status === 400 ? ensureProfile("") : null;
  }
}

/** A code that moves this profile to another device: {code, expires_in}. */
export function linkCode() {
  return api("POST", "/api/profiles/me/link", undefined, profileHeaders());
}

/** Use a code from another device: this browser then plays as that profile ({id, name}).
 * @param {string} code */
export async function claimCode(code) {
  const got = await api("POST", "/api/profiles/claim", { code });
  keep(got);
  return { id: got.id, name: got.name };
}

/** The devices playing as this profile: {devices: [{id, created, this}]}. */
export function devices() {
  return api("GET", "/api/profiles/me/devices", undefined, profileHeaders());
}

/** Sign device ``id`` out of this profile (this browser's own: it forgets the profile and the
 * name it played under).
 * @param {string} id @param {boolean} own */
export async function forgetDevice(id, own) {
  const left = await api("DELETE", `/api/profiles/me/devices/${encodeURIComponent(id)}`, undefined, profileHeaders());
  if (own) {
    forget();
    try { localStorage.removeItem("bonepile:name"); } catch { /* private mode */ }
  }
  return left;
}
