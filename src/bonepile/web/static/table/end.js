// The end of a hand (every hand shown, how it ended, who we wait for) and of the game (the
// banner), and the line that says whose turn it is.
import { el, clear, api, setToken, getName, setAlert, sideLabels, endWords, winnerWords, scoreWords } from "/static/common.js";
import { tileWords } from "/static/render.js";
import { renderHands, renderScoreParts } from "/static/panels.js";
import { S, $, tableId, alertBox, myTurn, names, people, cap, shortSides } from "/static/table/state.js";
import { send } from "/static/table/socket.js";

/** The game's result in words: who won and the final score. */
export function overText(table, sides, nm, you) {
  const w = table?.winner;
  if (w === null || w === undefined) return "Game over.";
  const labels = sideLabels(table, sides);
  const short = shortSides(sides, nm);
  const who = short[w] !== labels[w] ? `${short[w]} (${labels[w]})` : labels[w];
  const totals = table?.totals || [];
  const score = totals.some((t) => t) ? `, ${scoreWords(totals, w, short)}` : "";
  const mine = sides?.[w]?.includes(you);
  return `Game over: ${who} won${score}.${you === undefined || you === null ? "" : mine ? " You won!" : ""}`;
}

/** A new table for the same game, rules, seats and clock: you take the first human seat;
 * the link goes to the old table's chat for the friends who played with you. */
async function playAgain(table, you) {
  const me = (table.seats || []).find((s) => s.seat === you);
  const { players, ...options } = table.options || {};
  const seats = (table.seats || []).map((s) => (s.kind === "bot" ? { kind: "bot", level: s.level } : { kind: "human" }));
  const first = seats.findIndex((s) => s.kind === "human");
  if (first >= 0) seats[first].name = me?.name || getName() || "You";
  $("play-again").disabled = true;
  try {
    const res = await api("POST", "/api/tables", { variant: table.variant, players: players ?? table.players,
      options, seats, name: table.name, player: me?.name || getName() || "You", timer: table.timer || 0 });
    setToken(res.id, res.token);
    const url = `${location.origin}${res.invite || `/t/${encodeURIComponent(res.id)}`}`;
    if ((table.seats || []).filter((s) => s.kind === "human").length > 1) send({ type: "chat", text: `Play again: ${url}` });
    location.href = url;
  } catch (e) {
    setAlert(alertBox, `Could not start a new game: ${e.message}`);
    $("play-again").disabled = false;
  }
}

export function renderBanner(table, sides, nm, you) {
  const box = clear($("banner"));
  box.hidden = false;
  box.appendChild(el("strong", { "data-banner": "over" }, overText(table, sides, nm, you)));
  if (you !== null && you !== undefined && table?.status === "over") {
    box.appendChild(el("button", { type: "button", class: "primary", id: "play-again",
      onclick: () => playAgain(table, you) }, "Play again"));
  }
  box.appendChild(el("span", { class: "banner-links" },
    el("a", { href: `/replay?table=${encodeURIComponent(tableId)}`, id: "banner-replay" }, "Watch the replay"),
    el("a", { href: "/" }, "Back to the lobby")));
}

export function renderEnd(st, view, nm) {
  const box = $("revealed");
  const done = view && view.over && view.revealed;
  box.hidden = !done;
  $("hand-card").hidden = !!done && ["hand_over", "over", "leader"].includes(st.phase);
  if (st.phase === "over") renderBanner(st.table, view?.sides || st.table?.sides || [], nm, st.you);
  else $("banner").hidden = true;
  if (!done) return;
  const line = (st.pad || []).find((p) => p.hand === view.hand_number) || (st.pad || [])[st.pad.length - 1];
  const labels = sideLabels(st.table, view.sides);
  const short = shortSides(view.sides, people());  // you are "you"
  const named = (i) => (view.sides[i]?.length > 1 ? `${short[i]} (${labels[i]})` : short[i]);
  let summary = `Hand ${view.hand_number}: ${endWords(view.end)}`;
  if (line) {
    summary += `, ${winnerWords(line, short.map((x, i) => named(i)))}`;
    if (st.table?.scoring !== "hands") summary += `; points: ${line.points.map((p, i) => `${short[i]} ${p}`).join(", ")}`;
  }
  $("rev-title").textContent = st.phase === "over" ? "Game over" : "Hand over";
  $("hand-summary").textContent = summary + ".";
  renderScoreParts($("score-parts"), line, st.table?.scoring === "hands");
  renderHands($("revealed-rows"), view.revealed, nm, { you: st.you });
  const ready = st.ready || [];
  const humans = (st.table?.seats || []).filter((s) => s.kind === "human" && !s.bot_playing).map((s) => s.seat);
  const waiting = humans.filter((s) => !ready.includes(s));
  const who = people();
  $("ready-line").textContent = st.phase === "hand_over"
    ? (waiting.length ? `Waiting for ${waiting.map((s) => who[s]).join(", ")} to press Next hand.` : "Dealing…")
    : "";
}

export function renderTurn(st, view, nm) {
  let text = "";
  if (st.phase === "waiting") text = "Waiting for players to join.";
  else if (st.phase === "over") {
    text = overText(st.table, view?.sides || st.table?.sides || [], names(), st.you);
  } else if (st.phase === "hand_over") text = "Hand over.";
  else if (st.phase === "leader") text = "Choosing the next leader.";
  else if (view) {
    if (myTurn()) {
      text = S.busy ? "Sent…" : st.forced ? "Your turn: forced, the table plays it for you." : "Your turn.";
      if (S.selected) text += ` Choose the end for ${tileWords(S.selected)}.`;
    } else text = `${cap(people()[view.to_move] ?? "?")} to play.`;
  }
  $("turn").textContent = text;
}
