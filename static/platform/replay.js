// The replay viewer: the live table's renderer fed by the replay API.
// A position k means "after event k"; views come from /state/?at=k (the server
// folds from the nearest snapshot), events from /timeline/ for the perspective.
import { el } from "./api.js";

const C = window.REPLAY_CONFIG;
const T = C.i18n;
const lang = (document.body.dataset.lang || "en").slice(0, 2);
const summary = JSON.parse(document.getElementById("match-data").textContent);
const players = summary.seats.map((s) => ({ seat: s.seat, username: s.username, bot: s.bot }));
const params = new URLSearchParams(location.search);
const mod = await import(C.rendererUrl);
const root = document.getElementById("game-root");
const slider = document.getElementById("slider");
const list = document.getElementById("event-list");
const playBtn = document.getElementById("btn-play");
const persp = document.getElementById("perspective");
const copyBtn = document.getElementById("btn-copy");

// --- words for events ------------------------------------------------------------
// The game's renderer may export describeEvent(event, lang, players); these words
// are the fallback: every kind the installed games log, in English, German and
// French, and any other kind humanised ("slapped_wrong" → "slapped wrong").
const WORDS = {
  en: {
    hidden: "Hidden event", seat: "Seat {n}", nobody: "nobody", and: " and ",
    finished: "Match over: {who} won.", finishedMany: "Match over: {who} won.", finishedNone: "Match over.", timer: "Timer: {s} s.",
    right: "right", wrong: "wrong", first: "first", late: "too late", correct: "correct", falseClaim: "false",
    confirmed: "confirmed", failed: "failed",
    kinds: {
      dealt: "Cards dealt.", turn: "{who}'s turn.", reshuffled: "Pile reshuffled.", revealed: "All cards revealed.",
      thrown: "{who} threw a card.", thrownOot: "{who} threw a card out of turn.", challenged: "{who} challenged",
      colour_thrown: "{who} threw the colour card.", colours_passed: "Colour cards passed on.",
      returned: "{who}'s card was returned.", chosen: "{who} chose.",
      peeked: "{who} looked at a card.", drawn: "{who} drew a card.", used: "{who} used a power.",
      replaced: "{who} replaced a card.", snapped: "{who} snapped.", snap_wrong: "{who} snapped wrongly.",
      snap_taken_back: "{who}'s snap was taken back.", swapped: "{who} swapped cards.", took_discard: "{who} took the discard.",
      discarded: "{who} discarded a card.", called: "{who} called Zwicker!", kept: "{who} kept the cards.",
      turn_timeout: "{who}'s time ran out.",
      tour_started: "A new round begins.", tour_ended: "The round ends.", opened: "{who} opened.",
      stopped: "{who} played a STOP.", z_played: "{who} played a Z.", passed: "{who} passed.", signalled: "{who} made a sign.",
      exchanged: "{who} exchanged a card.", announced: "{who} announced", countered: "{who} countered",
      manche_ended: "The hand is over.", hands_replaced: "Hands replaced.",
      flipped: "{who} flipped a card.", smacked: "{who} smacked", pile_won: "{who} won the pile.",
      challenge_started: "{who} started a challenge.", challenge_restarted: "{who} restarted the challenge.",
      challenge_ended: "The challenge is over.", forfeited: "{who} forfeited a card.", out: "{who} is out of cards.",
    },
  },
  de: {
    hidden: "Verdecktes Ereignis", seat: "Platz {n}", nobody: "niemand", and: " und ",
    finished: "Partie vorbei: {who} gewinnt.", finishedMany: "Partie vorbei: {who} gewinnen.", finishedNone: "Partie vorbei.", timer: "Timer: {s} s.",
    right: "richtig", wrong: "falsch", first: "am schnellsten", late: "zu spät", correct: "richtig", falseClaim: "falsch",
    confirmed: "bestätigt", failed: "gescheitert",
    kinds: {
      dealt: "Karten ausgeteilt.", turn: "{who} ist dran.", reshuffled: "Stapel neu gemischt.", revealed: "Alle Karten aufgedeckt.",
      thrown: "{who} wirft eine Karte.", thrownOot: "{who} wirft eine Karte, ohne dran zu sein.", challenged: "{who} klagt an",
      colour_thrown: "{who} wirft die Farbkarte.", colours_passed: "Farbkarten weitergegeben.",
      returned: "{who} bekommt die Karte zurück.", chosen: "{who} hat gewählt.",
      peeked: "{who} schaut eine Karte an.", drawn: "{who} zieht eine Karte.", used: "{who} nutzt eine Fähigkeit.",
      replaced: "{who} tauscht eine Karte aus.", snapped: "{who} zwickt.", snap_wrong: "{who} zwickt falsch.",
      snap_taken_back: "{who} nimmt den Zwick zurück.", swapped: "{who} vertauscht Karten.", took_discard: "{who} nimmt die Ablage.",
      discarded: "{who} legt eine Karte ab.", called: "{who} ruft Zwicker!", kept: "{who} behält die Karten.",
      turn_timeout: "Die Zeit von {who} ist abgelaufen.",
      tour_started: "Eine neue Runde beginnt.", tour_ended: "Die Runde ist zu Ende.", opened: "{who} eröffnet.",
      stopped: "{who} spielt ein STOP.", z_played: "{who} spielt ein Z.", passed: "{who} passt.", signalled: "{who} gibt ein Zeichen.",
      exchanged: "{who} tauscht eine Karte.", announced: "{who} sagt an", countered: "{who} widerspricht",
      manche_ended: "Die Manche ist zu Ende.", hands_replaced: "Handkarten ersetzt.",
      flipped: "{who} deckt eine Karte auf.", smacked: "{who} haut drauf", pile_won: "{who} gewinnt den Stapel.",
      challenge_started: "{who} beginnt eine Herausforderung.", challenge_restarted: "{who} beginnt die Herausforderung neu.",
      challenge_ended: "Die Herausforderung ist vorbei.", forfeited: "{who} gibt eine Karte ab.", out: "{who} hat keine Karten mehr.",
    },
  },
  fr: {
    hidden: "Événement caché", seat: "Place {n}", nobody: "personne", and: " et ",
    finished: "Partie terminée : {who} gagne.", finishedMany: "Partie terminée : {who} gagnent.", finishedNone: "Partie terminée.", timer: "Minuteur : {s} s.",
    right: "à raison", wrong: "à tort", first: "en premier", late: "trop tard", correct: "exact", falseClaim: "faux",
    confirmed: "confirmé", failed: "échoué",
    kinds: {
      dealt: "Cartes distribuées.", turn: "Au tour de {who}.", reshuffled: "Pioche remélangée.", revealed: "Toutes les cartes sont révélées.",
      thrown: "{who} lance une carte.", thrownOot: "{who} lance une carte hors de son tour.", challenged: "{who} accuse",
      colour_thrown: "{who} lance sa carte couleur.", colours_passed: "Cartes couleur passées.",
      returned: "La carte de {who} lui est rendue.", chosen: "{who} a choisi.",
      peeked: "{who} regarde une carte.", drawn: "{who} pioche une carte.", used: "{who} utilise un pouvoir.",
      replaced: "{who} remplace une carte.", snapped: "{who} zwicke.", snap_wrong: "{who} zwicke à tort.",
      snap_taken_back: "Le zwick de {who} est repris.", swapped: "{who} échange des cartes.", took_discard: "{who} prend la défausse.",
      discarded: "{who} défausse une carte.", called: "{who} annonce Zwicker !", kept: "{who} garde les cartes.",
      turn_timeout: "Le temps de {who} est écoulé.",
      tour_started: "Un nouveau tour commence.", tour_ended: "Le tour est terminé.", opened: "{who} ouvre.",
      stopped: "{who} joue un STOP.", z_played: "{who} joue un Z.", passed: "{who} passe.", signalled: "{who} fait un signe.",
      exchanged: "{who} échange une carte.", announced: "{who} annonce", countered: "{who} conteste",
      manche_ended: "La manche est terminée.", hands_replaced: "Mains remplacées.",
      flipped: "{who} retourne une carte.", smacked: "{who} tape", pile_won: "{who} gagne la pile.",
      challenge_started: "{who} lance un défi.", challenge_restarted: "{who} relance le défi.",
      challenge_ended: "Le défi est terminé.", forfeited: "{who} cède une carte.", out: "{who} n'a plus de cartes.",
    },
  },
};
const W = WORDS[lang] || WORDS.en;
// Kinds worth jumping to: challenges, smacks, snaps, announcements and what follows them.
const IMPORTANT_KINDS = new Set([
  "challenged", "colour_thrown", "returned", "colours_passed", "snapped", "snap_wrong", "snap_taken_back", "called",
  "smacked", "pile_won", "challenge_started", "challenge_restarted", "forfeited", "out", "announced", "countered",
  "stopped", "z_played", "hands_replaced", "manche_ended", "finished",
]);
const IMPORTANT_WORDS = /challeng|smack|snap|announc|counter|call|finish|wrong/;

function isImportant(e) {
  if (!e.kind) return false;
  if (e.kind === "thrown") return e.data?.out_of_turn === true;
  return IMPORTANT_KINDS.has(e.kind) || IMPORTANT_WORDS.test(e.kind);
}

function fill(text, values) {
  return text.replace(/\{(\w+)\}/g, (_, k) => (values[k] ?? ""));
}

function seatName(seat) {
  const p = players.find((x) => x.seat === seat);
  return p ? p.username : fill(W.seat, { n: seat });
}

function humanise(kind) {
  const words = kind.replaceAll("_", " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function names(seats) {
  return seats.length ? seats.map(seatName).join(W.and) : W.nobody;
}

// Words for one event, in the page's language, whatever its game.
function describeGeneric(e) {
  if (!e.kind) return W.hidden;
  const d = e.data || {};
  const who = e.seat === null || e.seat === undefined ? "" : seatName(e.seat);
  if (e.kind === "finished") {
    const winners = d.outcome?.winners || (Number.isInteger(d.winner) ? [d.winner] : []);
    if (!winners.length) return W.finishedNone;
    return fill(winners.length > 1 ? W.finishedMany : W.finished, { who: names(winners) });
  }
  if (e.kind === "timer") return fill(W.timer, { s: Number.isFinite(d.due_ms - e.t_ms) ? Math.round((d.due_ms - e.t_ms) / 1000) : "?" });
  if (e.kind === "thrown" && d.out_of_turn === true) return fill(W.kinds.thrownOot, { who });
  const phrase = W.kinds[e.kind];
  if (!phrase) return who ? `${who}: ${humanise(e.kind).toLowerCase()}` : humanise(e.kind);
  let text = fill(phrase, { who });
  // Phrases without a full stop take the verdict the event carries.
  if (!/[.!]$/.test(text)) {
    let verdict = "";
    if (e.kind === "challenged") {
      verdict = d.result === "success" ? W.right : d.result ? W.wrong : "";
      if (Number.isInteger(d.target_seat)) text += ` ${seatName(d.target_seat)}`;
    } else if (e.kind === "smacked") verdict = d.result === "win" ? W.first : d.result === "false" ? W.wrong : d.result ? W.late : "";
    else if (e.kind === "announced") verdict = d.correct === true ? W.correct : d.correct === false ? W.falseClaim : "";
    else if (e.kind === "countered") verdict = d.confirmed === true ? W.confirmed : d.confirmed === false ? W.failed : "";
    text += verdict ? ` — ${verdict}.` : ".";
  }
  return text;
}

function describe(e) {
  if (e.kind && typeof mod.describeEvent === "function") {
    try {
      const text = mod.describeEvent(e, lang, players);
      if (text) return text;
    } catch (err) { /* the generic words below */ }
  }
  return describeGeneric(e);
}

function clock(ms) {
  const s = Math.max(0, ms || 0) / 1000;
  const m = Math.floor(s / 60);
  return `${m}:${(s - m * 60).toFixed(1).padStart(4, "0")}`;
}

// --- the player --------------------------------------------------------------------

let live = summary.status === "live";
let events = [];
let total = summary.event_count;
let position = 0;
let perspective = null;
let renderer = null;
let playing = false;
let timer = null;
let seekToken = 0;
const views = new Map(); // `${perspective}@${k}` → Promise of the view; bounded, oldest dropped first
const VIEW_CACHE = 300;

function allowedPerspectives() {
  const out = [];
  if (!live) out.push(["all", T.all]);
  out.push(["spectator", T.spectator]);
  for (const s of summary.seats) {
    if (!live || (C.me && s.username === C.me && !s.bot)) out.push([`seat:${s.seat}`, `${T.seat} ${s.seat} — ${s.username}`]);
  }
  return out;
}

function fillPerspectives() {
  const options = allowedPerspectives();
  persp.replaceChildren(...options.map(([v, label]) => el("option", { value: v, text: label })));
  const wanted = perspective || params.get("perspective");
  persp.value = options.some(([v]) => v === wanted) ? wanted : options[0][0];
}

async function getJson(url) {
  const res = await fetch(url, { credentials: "same-origin" });
  if (!res.ok) throw new Error(`${res.status} ${url}`);
  return res.json();
}

async function loadTimeline(from = 0) {
  let next = from;
  const got = [];
  while (next !== null) {
    const page = await getJson(`/api/matches/${C.matchId}/timeline/?perspective=${encodeURIComponent(perspective)}&from=${next}&limit=1000`);
    got.push(...page.events);
    next = page.next;
  }
  events.push(...got);
  total = Math.max(total, events.length ? events[events.length - 1].seq : 0);
  slider.max = total;
  document.getElementById("total").textContent = total;
  return got;
}

function listItem(e) {
  const important = isImportant(e);
  const item = el("li", { "data-seq": e.seq, class: important ? "important" : null, "data-important": important ? "1" : null },
    el("span", { class: "t", text: clock(e.t_ms) }), " ",
    important ? el("span", { class: "mark", "aria-label": T.important, title: T.important, text: "★ " }) : null,
    el("span", { class: "what", text: describe(e) }));
  item.addEventListener("click", () => { setPlaying(false); seek(e.seq); });
  return item;
}

function drawList(added = null) {
  if (added) list.append(...added.map(listItem));
  else list.replaceChildren(...events.map(listItem));
}

function makeRenderer() {
  if (renderer) renderer.destroy();
  root.replaceChildren();
  const seat = perspective.startsWith("seat:") ? parseInt(perspective.slice(5), 10) : null;
  renderer = mod.createRenderer(root, { seat, lang, send: null, players });
}

function viewAt(k) {
  const key = `${perspective}@${k}`;
  if (!views.has(key)) {
    const p = getJson(`/api/matches/${C.matchId}/state/?at=${k}&perspective=${encodeURIComponent(perspective)}`).then((data) => data.view);
    p.catch(() => views.delete(key));
    views.set(key, p);
    while (views.size > VIEW_CACHE) views.delete(views.keys().next().value);
  }
  return views.get(key);
}

async function seek(k, stepped = false) {
  k = Math.max(1, Math.min(total, k));
  const token = ++seekToken;
  const view = await viewAt(k);
  if (token !== seekToken) return false; // a later seek won: draw only the latest position
  const fresh = stepped ? events.filter((e) => e.seq === k && e.kind) : [];
  position = k;
  renderer.update(view, fresh);
  slider.value = k;
  document.getElementById("position").textContent = k;
  const ev = events[k - 1];
  document.getElementById("clock").textContent = clock(ev ? ev.t_ms : 0);
  list.querySelectorAll(".current").forEach((n) => n.classList.remove("current"));
  const item = list.querySelector(`[data-seq="${k}"]`);
  if (item) {
    item.classList.add("current");
    // Scroll the list only, never the page: the board must stay where the viewer put it.
    const r = item.getBoundingClientRect();
    const c = list.getBoundingClientRect();
    if (r.top < c.top || r.bottom > c.bottom) list.scrollTop += r.top - c.top - c.height / 2;
  }
  if (position < total) viewAt(position + 1); // fetch ahead while this one is on screen
  return true;
}

function setPlaying(on) {
  if (!on && playing) seekToken++; // a step of the playback still in flight is dropped: pause means here
  playing = on;
  playBtn.textContent = on ? T.pause : T.play;
  playBtn.dataset.state = on ? "playing" : "paused";
  clearTimeout(timer);
  if (on) tick();
}

function tick() {
  if (!playing) return;
  if (position >= total) { if (!live) setPlaying(false); else timer = setTimeout(tick, 500); return; }
  const now = events[position - 1]?.t_ms || 0;
  const next = events[position]?.t_ms ?? now;
  const speed = parseFloat(document.getElementById("speed").value);
  const wait = Math.min(4000, Math.max(0, next - now)) / speed;
  timer = setTimeout(async () => {
    if (!playing) return;
    await seek(position + 1, true);
    tick();
  }, wait);
}

function jumpImportant(dir) {
  const candidates = events.filter((e) => isImportant(e) && (dir > 0 ? e.seq > position : e.seq < position));
  if (!candidates.length) return;
  seek(dir > 0 ? candidates[0].seq : candidates[candidates.length - 1].seq, true);
}

async function switchPerspective() {
  const wasPlaying = playing;
  setPlaying(false);
  perspective = persp.value;
  events = [];
  await loadTimeline();
  drawList();
  makeRenderer();
  await seek(position || total);
  if (wasPlaying) setPlaying(true);
}

async function followLive() {
  if (!live) return;
  try {
    const before = total;
    const last = events.length ? events[events.length - 1].seq : 0;
    const added = await loadTimeline(last);
    if (added.length) {
      drawList(added);
      if (!playing && position === before) await seek(total, true);
    }
    const s = await getJson(`/api/matches/${C.matchId}/`);
    if (s.status !== "live") {
      live = false;
      document.getElementById("replay-status").textContent = T[s.status] || s.status;
      summary.status = s.status;
      fillPerspectives();
    }
  } catch (e) { console.error(e); }
  if (live) setTimeout(followLive, 1000);
}

playBtn.addEventListener("click", () => setPlaying(!playing));
document.getElementById("btn-step").addEventListener("click", () => { setPlaying(false); seek(position + 1, true); });
document.getElementById("btn-step-back").addEventListener("click", () => { setPlaying(false); seek(position - 1); });
document.getElementById("btn-next-important").addEventListener("click", () => { setPlaying(false); jumpImportant(1); });
document.getElementById("btn-prev-important").addEventListener("click", () => { setPlaying(false); jumpImportant(-1); });
slider.addEventListener("input", () => { setPlaying(false); seek(parseInt(slider.value, 10)); });
persp.addEventListener("change", switchPerspective);
document.addEventListener("keydown", (ev) => {
  if (ev.target.closest("input, select, textarea, button") || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (ev.key === " ") { ev.preventDefault(); setPlaying(!playing); }
  else if (ev.key === "ArrowRight") { setPlaying(false); seek(position + 1, true); }
  else if (ev.key === "ArrowLeft") { setPlaying(false); seek(position - 1); }
});
copyBtn.addEventListener("click", async () => {
  const url = `${location.origin}${location.pathname}?at=${position}&perspective=${encodeURIComponent(perspective)}`;
  history.replaceState(null, "", url);
  try { await navigator.clipboard.writeText(url); } catch (e) { /* the address bar has it */ }
  copyBtn.dataset.copied = url;
  copyBtn.textContent = T.copied;
  setTimeout(() => { copyBtn.textContent = T.copy; }, 2000);
});

fillPerspectives();
perspective = persp.value;
await loadTimeline();
drawList();
makeRenderer();
const start = parseInt(params.get("at") || "", 10);
await seek(Number.isFinite(start) ? start : (live ? total : 1));
document.getElementById("replay-root").dataset.ready = "1";
followLive();
window.replay = {
  get position() { return position; },
  get perspective() { return perspective; },
  get playing() { return playing; },
  seek,
  describe,
  describeGeneric,
};
