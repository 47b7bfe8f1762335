// The replay viewer: the live table's renderer fed by the replay API.
// A position k means "after event k"; views come from /state/?at=k (the server
// folds from the nearest snapshot), events from /timeline/ for the perspective.
import { el, fill, seatName as seatNameOf } from "./kit.js";

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
// The game's renderer says what its events mean (describeEvent) and which ones the ★ buttons stop at
// (isImportant); this page knows only the platform's own kinds: the fair races (the same two events in every
// game), the end of a match, and an event the perspective hides. Every word comes from the djangojs catalogue.
const W = {
  hidden: gettext("Hidden event"),
  nobody: gettext("nobody"),
  and: gettext(" and "),
  finished: (v) => ngettext("Match over: {who} won.", "Match over: {who} won.", v.count),
  finishedNone: gettext("Match over."),
  timer: gettext("Timer: {s} s."),
  raceClaimed: gettext("{who} reacted in {reaction} ms."),
  raceSettled: gettext("{who} won the race ({ranking})."),
  raceAlone: gettext("{who} reacted in {reaction} ms (nobody else did)."),
  raceSettledNone: gettext("The race is over: nobody won."),
  raceEntry: gettext("{who} {reaction} ms"),
  resigned: gettext("{who} resigned: a bot plays the seat on, and the player is placed after everyone still in."),
};
const PLATFORM_IMPORTANT = new Set(["finished", "resigned"]);
// Bookkeeping the list leaves out (the position still counts them): a timer being set is not something that
// happened, and a race's claims are all in its result line.
const UNLISTED = new Set(["timer", "race_claimed"]);
// A race needs two claimants to be told as a race; one claim is a reaction like any other, and the game's own
// line already says it ("Mila-bot won the smack in 168 ms"): not listed twice.
const contested = (e) => e.kind === "race_settled" && Number.isInteger(e.data?.winner) && (e.data.ranking || []).length >= 2;
const listed = (e) => !UNLISTED.has(e.kind) && !(e.kind === "race_settled" && Number.isInteger(e.data?.winner) && !contested(e));

function isImportant(e) {
  if (!e.kind) return false;
  if (PLATFORM_IMPORTANT.has(e.kind) || contested(e)) return true;
  if (e.kind === "race_settled") return false;
  try { return typeof mod.isImportant === "function" && mod.isImportant(e) === true; } catch (err) { return false; }
}

const seatName = (seat) => seatNameOf(players, seat); // seats read from 1 (the protocol counts from 0)

function humanise(kind) {
  const words = kind.replaceAll("_", " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function names(seats) {
  return seats.length ? seats.map(seatName).join(W.and) : W.nobody;
}

// The platform's words for an event, whatever its game: races, the end, a timer, else the kind in words.
function describeGeneric(e) {
  if (!e.kind) return W.hidden;
  const d = e.data || {};
  const who = e.seat === null || e.seat === undefined ? "" : seatName(e.seat);
  if (e.kind === "finished") {
    const winners = d.outcome?.winners || (Number.isInteger(d.winner) ? [d.winner] : []);
    if (!winners.length) return W.finishedNone;
    return fill(W.finished, { count: winners.length, who: names(winners) });
  }
  if (e.kind === "race_claimed") {
    const c = d.claim || {};
    return fill(W.raceClaimed, { who, reaction: c.reaction_ms ?? "?" });
  }
  if (e.kind === "race_settled") {
    if (!Number.isInteger(d.winner)) return W.raceSettledNone;
    if (!contested(e)) return fill(W.raceAlone, { who: seatName(d.winner), reaction: (d.ranking || [])[0]?.reaction_ms ?? "?" });
    const ranking = (d.ranking || []).map((c) => fill(W.raceEntry, { who: seatName(c.seat), reaction: c.reaction_ms ?? "?" })).join(", ");
    return fill(W.raceSettled, { who: seatName(d.winner), ranking });
  }
  if (e.kind === "timer") return fill(W.timer, { s: Number.isFinite(d.due_ms - e.t_ms) ? Math.round((d.due_ms - e.t_ms) / 1000) : "?" });
  return who ? `${who}: ${humanise(e.kind).toLowerCase()}` : humanise(e.kind);
}

// The game's `finished` event carries the result its own rules reached; a resignation places the player who
// left after everyone still in (games/resignation.py, PROTOCOL "Leaving a match"), which only the match's
// outcome has. The end line tells that result: the event is read with the match's outcome in it.
function withMatchResult(e) {
  const real = summary.outcome;
  if (e.kind !== "finished" || !real || !(real.resigned || []).length) return e;
  return { ...e, data: { ...(e.data || {}), outcome: real, winner: undefined } };
}

function describe(e) {
  e = withMatchResult(e);
  if (e.kind === "race_claimed" || e.kind === "race_settled") return describeGeneric(e); // the platform's words for every game
  if (e.kind === "resigned") return fill(W.resigned, { who: seatName(e.seat) }); // the platform's too (games/kit/resignation.py)
  if (e.kind && typeof mod.describeEvent === "function") {
    try {
      const text = mod.describeEvent(e, players);
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
    if (!live || (C.me && s.username === C.me && !s.bot)) out.push([`seat:${s.seat}`, `${T.seat} ${s.seat + 1} — ${s.username}`]);
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
  // numbered by its position in the match (the counter's), not by its place in the list: bookkeeping is left out
  const item = el("li", { "data-seq": e.seq, value: e.seq, class: important ? "important" : null, "data-important": important ? "1" : null },
    el("span", { class: "t", text: clock(e.t_ms) }), " ",
    important ? el("span", { class: "mark", "aria-label": T.important, title: T.important, text: "★ " }) : null,
    el("span", { class: "what", text: describe(e) }));
  item.addEventListener("click", () => { setPlaying(false); seek(e.seq); });
  return item;
}

function drawList(added = null) {
  if (added) list.append(...added.filter(listed).map(listItem));
  else list.replaceChildren(...events.filter(listed).map(listItem));
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
  rememberPosition();
  return true;
}

// The address says where the viewer is (?at=k&perspective=p): a reload, the back button or a copied address
// comes back to this moment. replaceState, not pushState (the history is not a list of every step), and at most
// every 300 ms while playing (browsers refuse floods of history calls).
let remembered = 0;
let rememberTimer = null;
function rememberPosition() {
  const write = () => {
    rememberTimer = null;
    remembered = Date.now();
    const q = new URLSearchParams(location.search);
    q.set("at", position);
    q.set("perspective", perspective);
    history.replaceState(history.state, "", `${location.pathname}?${q}${location.hash}`);
  };
  if (rememberTimer) return;
  const wait = 300 - (Date.now() - remembered);
  if (wait <= 0) write();
  else rememberTimer = setTimeout(write, wait);
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
      summary.outcome = s.outcome;
      fillPerspectives();
      for (const e of events.filter((x) => x.kind === "finished")) { // the end line again, with the match's result
        const what = list.querySelector(`[data-seq="${e.seq}"] .what`);
        if (what) what.textContent = describe(e);
      }
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
// The keys work wherever the focus is after a click (a button, the list, the board), except where a key means
// something of its own: typing fields, a select's choices, and the slider (which moves itself and says so).
function ownKeys(target) {
  if (!(target instanceof Element)) return false;
  if (target.closest("textarea, select, [contenteditable='true'], [contenteditable='']")) return true;
  const input = target.closest("input");
  return !!input && !["button", "checkbox", "radio", "submit", "reset"].includes(input.type);
}
document.addEventListener("keydown", (ev) => {
  if (ownKeys(ev.target) || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (ev.key === " ") {
    if (ev.target instanceof Element && ev.target.closest("button, summary, a")) return; // the focused control's own click
    ev.preventDefault();
    setPlaying(!playing);
  } else if (ev.key === "ArrowRight") { ev.preventDefault(); setPlaying(false); seek(position + 1, true); }
  else if (ev.key === "ArrowLeft") { ev.preventDefault(); setPlaying(false); seek(position - 1); }
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
