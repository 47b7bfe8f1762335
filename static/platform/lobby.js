// The lobby: a create form built from each game's option schema, and tables that update live.
import { api, wsUrl } from "./api.js";
import { el, fill } from "./kit.js";
import { placeOptions, readOptions } from "./options.js";

const T = window.I18N;
const games = JSON.parse(document.getElementById("games-data").textContent);
const bySlug = Object.fromEntries(games.map((g) => [g.slug, g]));
const tables = new Map();
for (const t of JSON.parse(document.getElementById("tables-data").textContent)) tables.set(t.id, t);
for (const t of JSON.parse(document.getElementById("playing-data").textContent)) tables.set(t.id, t);

function buildOptions() {
  const slug = document.getElementById("create-game").value;
  const game = bySlug[slug];
  placeOptions(document.getElementById("create-options"), document.getElementById("create-advanced-game"), game.options);
  const seats = document.getElementById("create-seats");
  seats.min = game.min_seats;
  seats.max = game.max_seats;
  if (+seats.value < game.min_seats || +seats.value > game.max_seats) seats.value = game.min_seats <= 4 && 4 <= game.max_seats ? 4 : game.min_seats;
}

function renderTables() {
  const open = document.querySelector("#open-tables tbody");
  const playing = document.querySelector("#playing-tables tbody");
  // The lists can be gone while the socket lives (a script replaced the page's content, as the renderer
  // tests do on the lobby page): a late table message then has nothing to draw, not an error.
  if (!open || !playing) return;
  open.replaceChildren();
  playing.replaceChildren();
  const sorted = [...tables.values()].sort((a, b) => b.id - a.id);
  for (const t of sorted) {
    // A bot's persona name already says it (`Ada-bot`); older names get the tag.
    const names = t.players.map((p) => p.username + (p.bot && !p.username.endsWith("-bot") ? ` (${T.bot})` : "")).join(", ");
    const link = el("a", { href: `/tables/${t.id}/`, "data-testid": `open-table-${t.id}`, text: t.status === "open" ? T.open : T.watch });
    if (t.status === "open") {
      open.append(el("tr", { "data-table": t.id }, el("td", { class: "key", text: `#${t.id}` }), el("td", { class: "key", text: bySlug[t.game]?.name || t.game }),
        el("td", { "data-label": T.host, text: t.host }), el("td", { class: "wide", text: `${t.players.length}/${t.seats} ${names}` }), el("td", {}, link)));
    } else if (t.status === "playing") {
      playing.append(el("tr", {}, el("td", { class: "key", text: `#${t.id}` }), el("td", { class: "key", text: bySlug[t.game]?.name || t.game }),
        el("td", { text: names }), el("td", {}, link)));
    }
  }
}

function connect() {
  const ws = new WebSocket(wsUrl("/ws/lobby/"));
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "table") tables.set(msg.table.id, msg.table);
    if (msg.type === "removed") tables.delete(msg.table_id);
    // the matchmaking queue seated this player at a new ranked table (PROTOCOL.md "Matchmaking"): go there
    if (msg.type === "matched" && Number.isInteger(msg.table)) { location.assign(`/tables/${msg.table}/`); return; }
    renderTables();
  };
  ws.onclose = () => setTimeout(connect, 2000);
}

const form = document.getElementById("create-form");
if (form) {
  document.getElementById("create-game").addEventListener("change", buildOptions);
  buildOptions();
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const err = document.getElementById("create-error");
    err.textContent = "";
    try {
      const table = await api("POST", "/api/tables/", {
        game: document.getElementById("create-game").value,
        seats: parseInt(document.getElementById("create-seats").value, 10),
        ranked: document.getElementById("create-ranked").checked,
        zombie_seconds: parseInt(document.getElementById("create-zombie-seconds").value, 10),
        lag_cap_ms: parseInt(document.getElementById("create-lag-cap-ms").value, 10),
        options: readOptions(bySlug[document.getElementById("create-game").value].options),
      });
      location.href = `/tables/${table.id}/`;
    } catch (e) {
      err.textContent = e.message;
    }
  });
}
// "Play now against bots": one click to a started table (POST /api/tables/play-now/, an extension).
for (const button of document.querySelectorAll("[data-play-now]")) {
  button.addEventListener("click", async () => {
    const err = document.getElementById("play-now-error");
    err.textContent = "";
    button.disabled = true;
    try {
      const table = await api("POST", "/api/tables/play-now/", { game: button.dataset.playNow });
      location.href = `/tables/${table.id}/`;
    } catch (e) {
      err.textContent = e.message;
      button.disabled = false;
    }
  });
}
// Ranked quick play: the matchmaking queue (PROTOCOL.md "Matchmaking"); the lobby socket's `matched` opens the table.
const queueSeats = JSON.parse(document.getElementById("queue-seats")?.textContent || "{}");
const waitBox = document.getElementById("queue-wait");
let waitTimer = null;

function showWaiting(entry) {
  clearInterval(waitTimer);
  if (!waitBox) return;
  if (!entry) { waitBox.hidden = true; waitBox.replaceChildren(); return; }
  const since = Date.parse(entry.since) || Date.now();
  const line = el("span", { "data-testid": "queue-status" });
  const tick = () => {
    const s = Math.max(0, Math.round((Date.now() - since) / 1000));
    line.textContent = fill(T.waiting, { game: bySlug[entry.game]?.name || entry.game, seats: entry.seats,
      time: `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}` });
  };
  tick();
  waitTimer = setInterval(tick, 1000);
  waitBox.replaceChildren(line, el("button", { type: "button", "data-testid": "queue-cancel", text: T.cancel, onclick: async () => {
    try { await api("DELETE", "/api/queue/"); } catch (e) { if (e.status !== 404) { document.getElementById("play-now-error").textContent = e.message; return; } }
    showWaiting(null);
  } }));
  waitBox.hidden = false;
}

// After a click: the waiting line sits below the game cards, so it is brought into view with its button focused.
function showWaitingHere(entry) {
  showWaiting(entry);
  if (!entry || !waitBox) return;
  waitBox.scrollIntoView({ block: "nearest" });
  waitBox.querySelector("button")?.focus({ preventScroll: true });
}

for (const button of document.querySelectorAll("[data-queue]")) {
  button.addEventListener("click", async () => {
    const err = document.getElementById("play-now-error");
    err.textContent = "";
    const game = button.dataset.queue;
    try {
      showWaitingHere(await api("POST", "/api/queue/", { game, seats: queueSeats[game] || bySlug[game].min_seats }));
    } catch (e) {
      err.textContent = e.message;
    }
  });
}
if (T.authenticated && waitBox) {
  api("GET", "/api/queue/").then(showWaiting, () => showWaiting(null));
}
renderTables();
connect();
