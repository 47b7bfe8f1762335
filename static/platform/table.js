// The live table page: seats and host controls, chat, and the socket that feeds the game renderer.
// The socket keeps `lastSeq`; a gap in seqs asks the server to `sync`; a lost socket reconnects and syncs.
import { api, wsUrl } from "./api.js";
import { el, fill } from "./kit.js";
import { createRacePanel } from "./races.js";
import { reportButton } from "./report.js";
import { createResults } from "./results.js";

const C = window.TABLE_CONFIG;
const T = C.i18n;
const lang = document.body.dataset.lang || "en";
let table = JSON.parse(document.getElementById("table-data").textContent);
let seat = null;
let lastSeq = 0;
let matchId = null;
let renderer = null;
let rendererSeat = undefined;
let rendererMatch = undefined; // a renderer draws one match: a rematch gets a fresh one (no old log lines or peeks)
let socket = null;
let retry = 0;
let counter = 0;
const root = document.getElementById("game-root");
const errorBox = document.getElementById("table-error");
let createRenderer = null;

async function loadRenderer() {
  if (!createRenderer) createRenderer = (await import(C.rendererUrl)).createRenderer;
}

function showError(text) {
  errorBox.textContent = text || "";
  if (text) setTimeout(() => { if (errorBox.textContent === text) errorBox.textContent = ""; }, 4000);
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function act(action) {
  counter += 1;
  send({ type: "act", id: `${Date.now().toString(36)}-${counter}`, action });
}

function drawSeats() {
  document.getElementById("table-status").textContent = T[table.status] || table.status;
  const list = document.getElementById("seat-list");
  list.replaceChildren();
  const isHost = C.me && table.host === C.me;
  const mine = table.players.find((p) => p.username === C.me && !p.bot);
  for (let s = 0; s < table.seats; s++) {
    const p = table.players.find((x) => x.seat === s);
    const item = el("li", { "data-testid": `seat-${s}` });
    if (p) {
      item.append(el("span", { class: "who", text: p.username }));
      if (p.bot) item.append(" ", el("span", { class: "tag", text: `${T.bot} · ${T[p.level] || p.level}` }));
      if (p.username === table.host) item.append(" ", el("span", { class: "tag", text: T.host }));
      if (p.username === C.me && !p.bot) item.append(" ", el("span", { class: "tag you", text: T.you }));
      if (C.me && !p.bot && p.username !== C.me) item.append(" ", reportButton(p.username, table.match));
      if (p.left) item.append(" ", el("span", { class: "tag left", "data-testid": `left-${s}`, text: T.left }));
      else if (p.zombie) item.append(" ", el("span", { class: "tag warn", "data-testid": `zombie-${s}`, text: T.zombie }));
      if (!p.bot && p.rtt_ms !== null && p.rtt_ms !== undefined) {
        // The round trip the server measured: what a race of this player is compensated by (up to the table's cap).
        item.append(" ", el("span", { class: "tag ping", "data-testid": `ping-${s}`,
          title: window.gettext("Round trip to the server, measured by the server"),
          text: fill(window.gettext("ping %(ms)s ms"), { ms: p.rtt_ms }) }));
      }
    } else {
      item.append(el("span", { class: "empty", text: T.empty }));
      if (table.status === "open" && C.me && !mine) {
        item.append(" ", el("button", { "data-testid": `join-${s}`, text: T.join, onclick: () => call("join/", { seat: s }) }));
      }
      if (table.status === "open" && isHost) {
        const level = el("select", { "data-testid": `bot-level-${s}`, "aria-label": T.level },
          ...["easy", "normal", "hard"].map((l) => el("option", { value: l, text: T[l], selected: l === "normal" })));
        item.append(" ", level, el("button", { "data-testid": `add-bot-${s}`, text: T.addBot,
          onclick: () => call("bots/", { seat: s, level: level.value }) }));
      }
    }
    list.append(item);
  }
  const series = document.getElementById("series");
  if (series) {
    series.replaceChildren();
    if (table.series) {
      const names = Object.fromEntries(table.players.map((p) => [String(p.seat), p.username]));
      const parts = Object.entries(table.series.wins).map(([s, n]) => `${names[s] || s}: ${n}`);
      series.append(el("b", { text: `${T.series} ` }), parts.join(" · ") || "—");
      if (table.series.winner !== null) series.append(" — ", el("b", { "data-testid": "series-winner", text: `${T.seriesWinner}: ${names[String(table.series.winner)] || table.series.winner}` }));
    }
  }
  const host = document.getElementById("host-controls");
  host.replaceChildren();
  if (isHost && table.status === "open") {
    host.append(el("button", { "data-testid": "start", text: T.start, disabled: table.players.length < table.seats,
      onclick: () => call("start/") }));
  }
  const player = document.getElementById("player-controls");
  player.replaceChildren();
  if (mine && table.status === "open") player.append(el("button", { "data-testid": "leave", text: T.leave, onclick: () => call("leave/") }));
  // A live match can be left for good (PROTOCOL.md "Leaving a match"), after a confirmation; the ways on
  // once it is over (rematch or tournament, replay, lobby) are in the results card (results.js).
  if (mine && !mine.left && table.status === "playing") player.append(resignControl());
  if (table.status === "finished" && !results.shown()) drawFinishedLinks(player);
}

// Whether the resign confirmation is open: the controls are redrawn on every table message (a round trip
// moving, a seat changing), and the question must survive that.
let resignAsking = false;

function resignControl() {
  const wrap = el("span", { class: "resign" });
  if (!resignAsking) {
    wrap.append(el("button", { type: "button", class: "secondary", "data-testid": "resign", text: T.resign, onclick: () => {
      resignAsking = true;
      drawSeats();
      document.querySelector("[data-testid=resign-yes]")?.focus();
    } }));
    return wrap;
  }
  wrap.append(el("span", { class: "resign-confirm", role: "group", "aria-label": T.resign, "data-testid": "resign-confirm" },
    el("span", { text: T.resignAsk }),
    el("button", { type: "button", "data-testid": "resign-yes", text: T.resignYes, onclick: () => { resignAsking = false; call("resign/"); } }),
    el("button", { type: "button", class: "secondary", "data-testid": "resign-no", text: T.resignNo, onclick: () => {
      resignAsking = false;
      drawSeats();
      document.querySelector("[data-testid=resign]")?.focus();
    } })));
  return wrap;
}

// Before the results card is drawn (a finished table whose view has not come yet): the ways on, as before.
function drawFinishedLinks(player) {
  if (C.tournamentUrl) {
    player.append(el("a", { href: C.tournamentUrl, class: "button-link", "data-testid": "back-to-tournament", text: T.backToTournament }));
  } else if (table.players.find((p) => p.username === C.me && !p.bot)) {
    player.append(el("button", { "data-testid": "rematch", text: T.rematch, onclick: () => call("rematch/") }));
  }
  if (table.match) player.append(" ", el("a", { href: `/matches/${table.match}/replay/`, "data-testid": "replay-link", text: T.replay }));
}

const resultsBox = document.getElementById("results");
const resultsView = createResults(resultsBox, { me: C.me, tournamentUrl: C.tournamentUrl, onRematch: () => call("rematch/") });
let resultsMatch = null;
const results = {
  shown: () => !resultsBox.hidden,
  // The view of the match on screen: its outcome, once there is one, is drawn at the top (fresh: it just ended here).
  update(view, fresh) {
    const outcome = view && view.finished !== false ? view.outcome : null;
    if (!outcome) {
      if (resultsMatch !== matchId) resultsView.hide();
      return;
    }
    resultsMatch = matchId;
    resultsView.show({ matchId, outcome, table, seat, fresh });
    drawSeats();
  },
};

async function call(path, body) {
  try {
    table = await api("POST", `/api/tables/${C.tableId}/${path}`, body || {});
    drawSeats();
    if (path === "leave/" && table.status === "closed") location.href = "/";
  } catch (e) {
    showError(e.message);
  }
}

async function ensureRenderer() {
  await loadRenderer();
  if (renderer && rendererSeat === seat && rendererMatch === matchId) return;
  if (renderer) renderer.destroy();
  root.replaceChildren();
  rendererSeat = seat;
  rendererMatch = matchId;
  renderer = createRenderer(root, { seat, lang, send: seat === null ? null : act, players: table.players });
}

// After the renderer drew: sounds, tab title and animations (feedback.js) listen, nothing here depends on them.
function tableEvent(view, events) {
  window.dispatchEvent(new CustomEvent("cardtable:update", { detail: { view, events, seat, game: C.game, root } }));
}

const racePanel = createRacePanel(root);
let raceMatch = null;

async function onMessage(msg) {
  switch (msg.type) {
    case "hello":
      if (msg.match !== raceMatch) { racePanel.reset(); raceMatch = msg.match || null; }
      table = msg.table;
      seat = msg.seat;
      lastSeq = msg.seq;
      matchId = msg.match || null;
      drawSeats();
      if (msg.view) {
        await ensureRenderer();
        renderer.update(msg.view, [], { now_ms: msg.now_ms }); // match time at connect, for countdowns
        tableEvent(msg.view, []);
        results.update(msg.view, false);
      }
      break;
    case "events": {
      if (msg.events.length && msg.events[0].seq !== lastSeq + 1) {
        send({ type: "sync", since: lastSeq });
        return;
      }
      lastSeq = msg.seq;
      racePanel.update(msg.events, table.players, seat);
      await ensureRenderer();
      if (msg.view) {
        renderer.update(msg.view, msg.events.filter((e) => e.kind));
        tableEvent(msg.view, msg.events.filter((e) => e.kind));
        results.update(msg.view, true);
      }
      break;
    }
    case "table":
      table = msg.table;
      drawSeats();
      if (renderer) renderer.players = table.players;
      break;
    case "ack":
      break;
    case "error":
      showError(msg.message);
      break;
    case "chat": {
      const log = document.getElementById("chat-log");
      log.append(el("li", {}, el("b", { text: msg.message.user }), ": ", el("span", { text: msg.message.text }),
        C.me && msg.message.user !== C.me ? reportButton(msg.message.user, table.match) : null));
      log.scrollTop = log.scrollHeight;
      break;
    }
    default:
      break;
  }
}

function connect() {
  const status = document.getElementById("conn-status");
  socket = new WebSocket(wsUrl(`/ws/tables/${C.tableId}/`));
  let queue = Promise.resolve();
  socket.onopen = () => { retry = 0; status.textContent = T.connected; status.dataset.state = "open"; };
  socket.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    // The server times its pings to judge races fairly: answer at once, not behind the drawing queue.
    if (msg.type === "ping" && Number.isInteger(msg.n)) { send({ type: "pong", n: msg.n }); return; }
    queue = queue.then(() => onMessage(msg)).catch((e) => console.error(e));
  };
  socket.onclose = () => {
    status.textContent = T.reconnecting;
    status.dataset.state = "closed";
    retry = Math.min(retry + 1, 6);
    setTimeout(connect, 300 * 2 ** retry);
  };
}

const chatForm = document.getElementById("chat-form");
if (chatForm) {
  chatForm.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const input = document.getElementById("chat-input");
    if (input.value.trim()) send({ type: "chat", text: input.value });
    input.value = "";
  });
}
drawSeats();
connect();
window.cardTable = { act, get lastSeq() { return lastSeq; }, get seat() { return seat; }, get matchId() { return matchId; } };
