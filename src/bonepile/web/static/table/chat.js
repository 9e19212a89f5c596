// Table chat: lines shown as text (never markup), each once, the last 50.
import { $ } from "/static/table/state.js";

const seen = new Set();

export function addChat(lines) {
  const box = $("chat");
  for (const line of lines) {
    const key = `${line.at}|${line.seat}|${line.text}`;
    if (seen.has(key)) continue; // the server resends recent lines after a reconnect
    seen.add(key);
    const li = document.createElement("li");
    const who = document.createElement("strong");
    who.textContent = line.name + ": ";  // text, never markup
    li.append(who, document.createTextNode(line.text));
    box.append(li);
  }
  while (box.children.length > 50) box.firstChild.remove();
  box.scrollTop = box.scrollHeight;
}

/** The chat form sends through `send` (the socket's). */
export function bindChat(send) {
  $("chat-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const input = $("chat-text");
    const text = input.value.trim();
    if (text && send({ type: "chat", text })) input.value = "";
  });
}
