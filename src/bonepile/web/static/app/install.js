// The installable app, on every page: the service worker that keeps the client's shell (/sw.js),
// and a line at the top when the server cannot be reached (offline, or the server is down).
import { t, ready } from "/static/i18n.js";

/** Show (or hide) the line that says the server cannot be reached. @param {boolean} on */
async function unreachable(on) {
  await ready;
  let line = document.getElementById("offline");
  if (!line && on) {
    line = document.createElement("p");
    line.id = "offline";
    line.className = "offline";
    line.setAttribute("role", "status");
    document.body.prepend(line);
  }
  if (!line) return;
  line.textContent = t("app.offline");
  line.hidden = !on;
  document.body.dataset.offline = on ? "1" : "0";
}

if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => { /* no app: the pages still work */ });
  navigator.serviceWorker.addEventListener("message", (ev) => {
    if (ev.data?.type === "unreachable") unreachable(true);
  });
}
addEventListener("offline", () => unreachable(true));
addEventListener("online", () => unreachable(false));
if (!navigator.onLine) unreachable(true);
