// The replay viewer: the live table's renderer fed by the replay API.
// A position k means "after event k"; views come from /state/?at=k (the server
// folds from the nearest snapshot), events from /timeline/ for the perspective.
import { el } from "./api.js";

const C = window.REPLAY_CONFIG;
const T = C.i18n;
const lang = document.body.dataset.lang || "en";
const summary = JSON.parse(document.getElementById("match-data").textContent);
const players = summary.seats.map((s) => ({ seat: s.seat, username: s.username, bot: s.bot }));
const params = new URLSearchParams(location.search);
const mod = await import(C.rendererUrl);
const root = document.getElementById("game-root");
const slider = document.getElementById("slider");
const list = document.getElementById("event-list");
const playBtn = document.getElementById("btn-play");
const persp = document.getElementById("perspective");
const IMPORTANT = /challeng|smack|snap|announc|counter|called|zwicker|pile_won|colour_thrown|finished|stop|returned|wrong/;

let live = summary.status === "live";
let events = [];
let total = summary.event_count;
let position = 0;
let perspective = null;
let renderer = null;
let playing = false;
let timer = null;
const views = new Map();

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
  const wanted = params.get("perspective");
  persp.value = options.some(([v]) => v === wanted) ? wanted : options[0][0];
}

async function getJson(url) {
  const res = await fetch(url, { credentials: "same-origin" });
  if (!res.ok) throw new Error(`${res.status} ${url}`);
  return res.json();
}

async function loadTimeline(from = 0) {
  let next = from;
  while (next !== null) {
    const page = await getJson(`/api/matches/${C.matchId}/timeline/?perspective=${perspective}&from=${next}&limit=1000`);
    events.push(...page.events);
    next = page.next;
  }
  total = Math.max(total, events.length ? events[events.length - 1].seq : 0);
  slider.max = total;
  document.getElementById("total").textContent = total;
}

function describe(e) {
  if (!e.kind) return "…";
  if (typeof mod.describeEvent === "function") {
    try { return mod.describeEvent(e, lang, players); } catch (err) { /* fall back */ }
  }
  const who = e.seat === null || e.seat === undefined ? "" : `${players.find((p) => p.seat === e.seat)?.username || `#${e.seat}`}: `;
  return who + e.kind.replaceAll("_", " ");
}

function drawList() {
  list.replaceChildren(...events.map((e) => {
    const item = el("li", { "data-seq": e.seq, class: e.kind && IMPORTANT.test(e.kind) ? "important" : "" },
      el("span", { class: "t", text: `${(e.t_ms / 1000).toFixed(1)} s` }), " ", el("span", { text: describe(e) }));
    item.addEventListener("click", () => seek(e.seq));
    return item;
  }));
}

function makeRenderer() {
  if (renderer) renderer.destroy();
  root.replaceChildren();
  const seat = perspective.startsWith("seat:") ? parseInt(perspective.slice(5), 10) : null;
  renderer = mod.createRenderer(root, { seat, lang, send: null, players });
}

async function viewAt(k) {
  const key = `${perspective}@${k}`;
  if (!views.has(key)) {
    const data = await getJson(`/api/matches/${C.matchId}/state/?at=${k}&perspective=${perspective}`);
    views.set(key, data.view);
  }
  return views.get(key);
}

async function seek(k, stepped = false) {
  k = Math.max(1, Math.min(total, k));
  const view = await viewAt(k);
  const fresh = stepped ? events.filter((e) => e.seq === k && e.kind) : [];
  position = k;
  renderer.update(view, fresh);
  slider.value = k;
  document.getElementById("position").textContent = k;
  const ev = events[k - 1];
  document.getElementById("clock").textContent = `${((ev ? ev.t_ms : 0) / 1000).toFixed(1)} s`;
  list.querySelectorAll(".current").forEach((n) => n.classList.remove("current"));
  const item = list.querySelector(`[data-seq="${k}"]`);
  if (item) { item.classList.add("current"); item.scrollIntoView({ block: "nearest" }); }
}

function setPlaying(on) {
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
  timer = setTimeout(async () => { await seek(position + 1, true); tick(); }, wait);
}

function jumpImportant(dir) {
  const from = position;
  const candidates = events.filter((e) => e.kind && IMPORTANT.test(e.kind) && (dir > 0 ? e.seq > from : e.seq < from));
  if (!candidates.length) return;
  seek(dir > 0 ? candidates[0].seq : candidates[candidates.length - 1].seq, true);
}

async function switchPerspective() {
  perspective = persp.value;
  events = [];
  await loadTimeline();
  drawList();
  makeRenderer();
  await seek(position || total);
}

async function followLive() {
  if (!live) return;
  const last = events.length ? events[events.length - 1].seq : 0;
  try {
    const before = total;
    await loadTimeline(last);
    if (total !== before) {
      drawList();
      if (!playing && position === before) await seek(total, true);
    }
    const s = await getJson(`/api/matches/${C.matchId}/`);
    if (s.status !== "live") {
      live = false;
      document.getElementById("replay-status").textContent = s.status;
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
document.getElementById("btn-copy").addEventListener("click", async () => {
  const url = `${location.origin}${location.pathname}?at=${position}&perspective=${encodeURIComponent(perspective)}`;
  history.replaceState(null, "", url);
  try { await navigator.clipboard.writeText(url); } catch (e) { /* the address bar has it */ }
  document.getElementById("btn-copy").dataset.copied = url;
  document.getElementById("btn-copy").textContent = T.copied;
});

fillPerspectives();
perspective = persp.value;
await loadTimeline();
drawList();
makeRenderer();
const start = parseInt(params.get("at") || "", 10);
await seek(Number.isFinite(start) ? start : (live ? total : 1));
followLive();
window.replay = { get position() { return position; }, get perspective() { return perspective; }, seek };
