// The service worker of the installed app (served as /sw.js, scope "/"): it keeps the client's
// shell (the pages, scripts, styles, words and icons the server lists in SHELL) so that the
// lobby and How to play open at once, and offline. Pages and files: the network first, the
// kept copy when the server cannot be reached (and each page is told, to say so). Everything
// else (the API, the tables' sockets) goes to the server only: a game needs it.
// The server writes the two lines below (VERSION changes with any file of the shell).
const VERSION = "__VERSION__";
const SHELL = /** @type {string[]} */ (JSON.parse("__SHELL__"));
const CACHE = `bonepile-shell-${VERSION}`;

self.addEventListener("install", (/** @type {any} */ ev) => {
  ev.waitUntil(caches.open(CACHE).then((c) => c.addAll(SHELL)).then(() => /** @type {any} */ (self).skipWaiting()));
});

self.addEventListener("activate", (/** @type {any} */ ev) => {
  ev.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith("bonepile-shell-") && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => /** @type {any} */ (self).clients.claim()));
});

/** Tell the pages the server could not be reached (they show it). */
async function unreachable() {
  const all = await /** @type {any} */ (self).clients.matchAll({ includeUncontrolled: true });
  for (const c of all) c.postMessage({ type: "unreachable" });
}

/** The shell's copy of a request: a page by its path (a table's page is one page). @param {Request} req */
async function kept(req) {
  const url = new URL(req.url);
  let path = url.pathname;
  if (path.startsWith("/t/")) path = "/t/";
  else if (path.startsWith("/how-to-play/")) path = "/how-to-play";
  const cache = await caches.open(CACHE);
  return (await cache.match(path)) || (await cache.match(req, { ignoreSearch: true }));
}

self.addEventListener("fetch", (/** @type {any} */ ev) => {
  const req = /** @type {Request} */ (ev.request);
  const url = new URL(req.url);
  if (req.method !== "GET" || url.origin !== location.origin) return;
  const shell = req.mode === "navigate" || SHELL.includes(url.pathname)
    || url.pathname.startsWith("/static/") || url.pathname.startsWith("/i18n/");
  if (!shell) {
    // the API: the server's answer, or a refusal with a code the pages word ("unreachable")
    ev.respondWith(fetch(req).catch(async () => {
      await unreachable();
      return new Response(JSON.stringify({ detail: "the server cannot be reached", code: "unreachable" }),
        { status: 503, headers: { "Content-Type": "application/json" } });
    }));
    return;
  }
  ev.respondWith(fetch(req).then((res) => {
    if (res.ok && SHELL.includes(url.pathname)) {
      const copy = res.clone();
      caches.open(CACHE).then((c) => c.put(url.pathname, copy));
    }
    return res;
  }).catch(async () => {
    const got = await kept(req);
    await unreachable();
    return got || new Response("", { status: 503 });
  }));
});
