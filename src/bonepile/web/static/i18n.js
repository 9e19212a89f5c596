// The interface's words in six languages.  Every word a person reads comes from the catalogue
// of the chosen language (served as one object by GET /i18n/<lang>.json, merged from the files
// under /static/i18n/<lang>/); the choice follows the browser's languages until the player picks
// one, which is remembered.
//
//   t("lobby.create")                       -> "Create table"
//   t("hand.draws", { n: 2 })               -> "Draws 2"   (plural forms: key.one / key.other)
//   <button data-i18n="lobby.create">       -> its text set by translatePage()
//   <input data-i18n-attr="placeholder:lobby.name_placeholder;aria-label:lobby.name">
export const LANGUAGES = {
  en: "English",
  es: "Español",
  it: "Italiano",
  da: "Dansk",
  nl: "Nederlands",
  id: "Bahasa Indonesia",
};
const KEY = "bonepile:lang";
/** @type {Record<string, unknown>} */
let strings = {};
let current = "en";
/** Keys asked for that the catalogue lacks (the browser tests read it: it must stay empty). */
export const missing = new Set();

/** @param {readonly string[] | null | undefined} prefs */
export function languageFromBrowser(prefs) {
  for (const tag of prefs || []) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (base === "in") return "id"; // the old code for Indonesian
    if (base in LANGUAGES) return base;
  }
  return "en";
}

export function chosenLanguage() {
  let saved = null;
  try { saved = localStorage.getItem(KEY); } catch { /* private mode */ }
  if (saved && saved in LANGUAGES) return saved;
  return languageFromBrowser(navigator.languages?.length ? navigator.languages : [navigator.language]);
}

export function language() {
  return current;
}

/** @param {string} lang */
export async function loadLanguage(lang) {
  const res = await fetch(`/i18n/${lang}.json`);
  if (!res.ok) throw new Error(`no words for language ${lang}`);
  strings = await res.json();
  current = lang;
  document.documentElement.lang = lang;
}

/** Remember the player's language and show the page in it. */
/** @param {string} lang */
export function setLanguage(lang) {
  try { localStorage.setItem(KEY, lang); } catch { /* private mode */ }
  location.reload();
}

/** @type {Record<string, Intl.PluralRules>} */
const plurals = {};
/** @param {string} key @param {number} n */
function pluralKey(key, n) {
  const rules = (plurals[current] ||= new Intl.PluralRules(current));
  const form = `${key}.${rules.select(n)}`;
  if (form in strings) return form;
  return `${key}.other` in strings ? `${key}.other` : key;
}

/** The words for key in the chosen language, {name} placeholders filled from params.
 * @param {string} key @param {Record<string, any>} [params] */
export function t(key, params = {}) {
  const k = typeof params.n === "number" && !(key in strings) ? pluralKey(key, params.n) : key;
  const s = strings[k];
  if (typeof s !== "string") {
    missing.add(key);
    return key;
  }
  return s.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/** True when the catalogue has words for key (for optional texts). */
/** @param {string} key */
export function has(key) {
  return typeof strings[key] === "string";
}

/** Fill every [data-i18n] element's text and every [data-i18n-attr] attribute under root. */
export function translatePage(root = document) {
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll("[data-i18n]"))) node.textContent = t(node.dataset.i18n || "");
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll("[data-i18n-attr]"))) {
    for (const pair of (node.dataset.i18nAttr || "").split(";")) {
      const [attr, key] = pair.split(":").map((x) => x.trim());
      if (attr && key) node.setAttribute(attr, t(key));
    }
  }
}

/** A <select> of the six languages, each named in itself; choosing one reloads the page. */
export function languageSwitch() {
  const sel = document.createElement("select");
  sel.setAttribute("aria-label", t("common.language"));
  sel.className = "language";
  for (const [code, name] of Object.entries(LANGUAGES)) {
    const o = document.createElement("option");
    o.value = code;
    o.textContent = name;
    o.lang = code;
    if (code === current) o.selected = true;
    sel.appendChild(o);
  }
  sel.addEventListener("change", () => setLanguage(sel.value));
  return sel;
}

/** Load the chosen language and translate the page; modules `await ready` before drawing. */
export const ready = (async () => {
  try {
    await loadLanguage(chosenLanguage());
  } catch {
    await loadLanguage("en");
  }
  translatePage();
  for (const slot of document.querySelectorAll("[data-language-switch]")) slot.replaceChildren(languageSwitch());
})();
