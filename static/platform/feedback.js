// Table feedback for speed games: synthesized sounds (no files to download), a mute switch and an optional
// "your turn" notification remembered per browser, the tab title when the tab is hidden, short animations for
// a card landing and a pile changing hands, and the phone layout's folding seats panel.
// table.js fires `cardtable:update` after the renderer drew a view; this module only listens and decorates,
// so a failure here never stops play (every handler is guarded).
import { el, fmt } from "./kit.js";
import { feedbackHooks } from "./feedback_hooks.js";

const _ = window.gettext || ((s) => s);
const ngettext = window.ngettext || ((one, many, n) => (n === 1 ? one : many));

const SOUND_KEY = "cardtables.sound";
const NOTIFY_KEY = "cardtables.notify";
const store = {
  get(key) { try { return window.localStorage.getItem(key); } catch (e) { return null; } },
  set(key, value) { try { window.localStorage.setItem(key, value); } catch (e) { /* private mode: not remembered */ } },
};

// ---- sounds -------------------------------------------------------------------------------------------
// Which event kinds make which sound is each game's (feedback_hooks.js); one sound per update (the most
// important), so a burst stays readable.
const PRIORITY = ["end", "challenge", "smack", "turn", "flip"];

let audio = null;
function ctx() {
  if (!audio) {
    const Ctor = window.AudioContext || window.webkitAudioContext;
    if (!Ctor) return null;
    audio = new Ctor();
  }
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

function soundOn() { return store.get(SOUND_KEY) !== "off"; }

function tone(ac, { freq, to, start = 0, dur = 0.12, type = "sine", gain = 0.18 }) {
  const t0 = ac.currentTime + start;
  const osc = ac.createOscillator();
  const amp = ac.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, t0);
  if (to) osc.frequency.exponentialRampToValueAtTime(to, t0 + dur);
  amp.gain.setValueAtTime(0.0001, t0);
  amp.gain.exponentialRampToValueAtTime(gain, t0 + 0.008);
  amp.gain.exponentialRampToValueAtTime(0.0001, t0 + dur);
  osc.connect(amp).connect(ac.destination);
  osc.start(t0);
  osc.stop(t0 + dur + 0.02);
}

function noise(ac, { start = 0, dur = 0.08, gain = 0.25, freq = 2500, q = 0.8 }) {
  const t0 = ac.currentTime + start;
  const frames = Math.max(1, Math.floor(ac.sampleRate * dur));
  const buffer = ac.createBuffer(1, frames, ac.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / frames) ** 2;
  const src = ac.createBufferSource();
  src.buffer = buffer;
  const filter = ac.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = freq;
  filter.Q.value = q;
  const amp = ac.createGain();
  amp.gain.value = gain;
  src.connect(filter).connect(amp).connect(ac.destination);
  src.start(t0);
}

const SOUNDS = {
  flip: (ac) => noise(ac, { dur: 0.06, freq: 3200, gain: 0.35 }), // a card snapping down
  smack: (ac) => { noise(ac, { dur: 0.14, freq: 900, q: 0.6, gain: 0.6 }); tone(ac, { freq: 150, to: 60, dur: 0.16, type: "triangle", gain: 0.35 }); },
  challenge: (ac) => { tone(ac, { freq: 660, dur: 0.1, type: "square", gain: 0.08 }); tone(ac, { freq: 440, start: 0.11, dur: 0.16, type: "square", gain: 0.08 }); },
  turn: (ac) => { tone(ac, { freq: 523, dur: 0.12 }); tone(ac, { freq: 784, start: 0.1, dur: 0.2 }); },
  end: (ac) => [523, 659, 784, 1047].forEach((f, k) => tone(ac, { freq: f, start: k * 0.11, dur: 0.22, type: "triangle", gain: 0.16 })),
};

export function play(name) {
  if (!soundOn() || !SOUNDS[name]) return false;
  const ac = ctx();
  if (!ac || ac.state !== "running") return false; // browsers allow audio only after the player touched the page
  try { SOUNDS[name](ac); } catch (e) { return false; }
  return true;
}

// ---- whose turn ---------------------------------------------------------------------------------------
// Only what the view or the events already say (a game may show the turn only with an option).
function turnIsMine(events, view, seat) {
  if (seat === null || seat === undefined) return false;
  for (const e of events) {
    if (e.kind !== "turn") continue;
    const next = e.data && e.data.next !== undefined ? e.data.next : e.seat;
    if (next === seat) return true;
  }
  return false;
}

function viewTurnMine(view, seat) {
  return !!view && seat !== null && seat !== undefined && !view.finished && view.turn === seat;
}

// ---- animations -----------------------------------------------------------------------------------------
function flash(root, selector, cls) {
  if (!root || !selector) return;
  const node = root.querySelector(selector);
  if (!node) return;
  node.classList.remove(cls);
  void node.offsetWidth; // restart the animation on an element the renderer kept
  node.classList.add(cls);
  setTimeout(() => node.classList.remove(cls), 700);
}

function animate(hooks, root, events) {
  let landed = false;
  for (const e of events) {
    if (hooks.sounds[e.kind] === "flip") landed = true;
    const seat = hooks.gains(e);
    if (seat !== null && seat !== undefined) flash(root, hooks.pile(seat), "fx-gain");
  }
  if (landed) flash(root, hooks.landed, "fx-land");
}

// ---- tab title and notification --------------------------------------------------------------------
const baseTitle = document.title;
let waiting = false; // my turn came while the tab was hidden

function markTurn() {
  if (!document.hidden) return;
  waiting = true;
  document.title = `● ${_("Your turn!")} — ${baseTitle}`;
  if (store.get(NOTIFY_KEY) === "on" && "Notification" in window && Notification.permission === "granted") {
    try {
      const n = new Notification(_("Your turn!"), { body: baseTitle, tag: "cardtables-turn", renotify: true });
      n.onclick = () => { window.focus(); n.close(); };
    } catch (e) { /* some phones only notify from a service worker: the title says it */ }
  }
}

document.addEventListener("visibilitychange", () => {
  if (!document.hidden && waiting) { waiting = false; document.title = baseTitle; }
});

// ---- switches ---------------------------------------------------------------------------------------------
function setupSwitches() {
  const sound = document.getElementById("sound-toggle");
  if (sound) {
    const show = () => {
      const on = soundOn();
      sound.setAttribute("aria-pressed", on ? "true" : "false");
      sound.title = on ? _("Sound is on: press to mute") : _("Sound is off: press to turn it on");
    };
    sound.hidden = false;
    show();
    sound.addEventListener("click", () => {
      store.set(SOUND_KEY, soundOn() ? "off" : "on");
      show();
      if (soundOn()) play("turn");
    });
  }
  if ("Notification" in window && sound) {
    const bell = el("button", { type: "button", class: "notify-toggle", "data-testid": "notify-toggle", text: _("Notify me"),
      title: _("Notify me when it is my turn and this tab is hidden") });
    const show = () => bell.setAttribute("aria-pressed", store.get(NOTIFY_KEY) === "on" && Notification.permission === "granted" ? "true" : "false");
    show();
    bell.addEventListener("click", async () => {
      if (store.get(NOTIFY_KEY) === "on" && Notification.permission === "granted") {
        store.set(NOTIFY_KEY, "off");
      } else {
        const answer = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
        store.set(NOTIFY_KEY, answer === "granted" ? "on" : "off");
      }
      show();
    });
    sound.after(" ", bell);
  }
  // the first touch or key unlocks audio (browsers refuse sound before a gesture)
  const unlock = () => { if (soundOn()) ctx(); };
  window.addEventListener("pointerdown", unlock, { once: true, capture: true });
  window.addEventListener("keydown", unlock, { once: true, capture: true });
}

// ---- the folding seats panel (phones) ------------------------------------------------------------------
// Wide screens always show it; on a phone it stays open while the table waits for players (seats, bots, Start)
// and folds away when play starts, the player's own choice wins in between.
function setupPanel() {
  const panel = document.getElementById("seats-panel");
  const status = document.getElementById("table-status");
  if (!panel || !status) return;
  const narrow = window.matchMedia("(max-width: 800px)");
  const T = (window.TABLE_CONFIG && window.TABLE_CONFIG.i18n) || {};
  let last = null;
  const apply = () => {
    const text = status.textContent.trim();
    if (!narrow.matches) { panel.open = true; last = text; return; }
    if (text === last) return;
    last = text;
    panel.open = !(text === T.playing || text === "playing");
  };
  new MutationObserver(apply).observe(status, { childList: true, characterData: true, subtree: true });
  narrow.addEventListener("change", apply);
  apply();

  // unread chat while folded: counted on the summary
  const log = document.getElementById("chat-log");
  const summary = panel.querySelector("summary");
  if (!log || !summary) return;
  const badge = el("span", { class: "tag unread", "data-testid": "chat-unread", hidden: true });
  summary.append(badge);
  let unread = 0;
  new MutationObserver((records) => {
    if (panel.open) return;
    unread += records.reduce((n, r) => n + r.addedNodes.length, 0);
    badge.textContent = fmt(ngettext("%s new message", "%s new messages", unread), [unread]);
    badge.hidden = unread === 0;
  }).observe(log, { childList: true });
  panel.addEventListener("toggle", () => { if (panel.open) { unread = 0; badge.hidden = true; } });
}

// ---- wiring ----------------------------------------------------------------------------------------------
let wasMine = false;
window.addEventListener("cardtable:update", (ev) => {
  try {
    const { view, events, seat, game, root } = ev.detail;
    const hooks = feedbackHooks(game);
    const mineNow = viewTurnMine(view, seat);
    const turnCame = turnIsMine(events, view, seat) || (mineNow && !wasMine);
    wasMine = mineNow;
    if (!events.length && !turnCame) return;
    const wanted = new Set(events.map((e) => hooks.sounds[e.kind]).filter(Boolean));
    if (turnCame) wanted.add("turn");
    const name = PRIORITY.find((p) => wanted.has(p));
    if (name) play(name);
    if (turnCame) markTurn();
    animate(hooks, root, events);
    window.cardTableFeedback.last = name || null;
  } catch (e) {
    console.error(e);
  }
});

// ---- touch screens -----------------------------------------------------------------------------------------
// Key hints ("space", "keys 1–3") are hidden and a "tap" hint shown where there is no keyboard to press:
// a coarse pointer, or the first touch (emulators and some tablets report a fine pointer).
function setupTouch() {
  const html = document.documentElement;
  const coarse = window.matchMedia("(pointer: coarse)");
  const apply = () => { if (coarse.matches) html.classList.add("touch"); };
  apply();
  coarse.addEventListener("change", apply);
  window.addEventListener("touchstart", () => html.classList.add("touch"), { passive: true, capture: true });
}

window.cardTableFeedback = { play, last: null, soundOn };
setupTouch();
setupSwitches();
setupPanel();
