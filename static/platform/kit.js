// The front-end kit: the few helpers every page and every game's renderer shares. Plain ES module, no build step.
//
// DOM
//   el(tag, attrs, ...children)   an HTML element. attrs: `text` sets textContent (untrusted text such as user
//                                 names only ever goes in this way), `on<event>` a listener, `true` an empty
//                                 attribute, null/undefined/false nothing; children: nodes or strings (null,
//                                 undefined and false are skipped).
//   svg(tag, attrs, ...children)  the same in the SVG namespace (icons, charts).
//
// Words: every word comes from Django's JavaScript catalogue (/jsi18n/, loaded by base.html before any module:
// `gettext`, `ngettext`, `pgettext`, `interpolate` are globals). Write the English msgid in a literal
// gettext("…") / ngettext("…", "…", n) call — that is what `manage.py makemessages -d djangojs` extracts —
// usually in one table of a module's words, and fill the values in with:
//   fill(text, values)            "{name}", "{0}" and "%(name)s" replaced from `values` (an object or an array);
//                                 a missing value becomes "". `text` may be a function of `values`: a counted
//                                 entry of a table, `(v) => ngettext("{n} card", "{n} cards", v.n)`, so that
//                                 ngettext picks the plural form of the page's language.
//   fmt(text, values)             Django's interpolate(): "%s" from an array, "%(name)s" from an object.
//   WORDS                         the words every game's table says alike ("you", "Place", "{n} cards"…).
//
// The renderer contract: static/games/<slug>/table.js (in games/<slug>/static/) exports
//   createRenderer(root, ctx) -> { update(view, events, meta?), destroy() }
//       ctx: { seat (null = spectator), send (null when watching: a replay or a spectator), players, lang }.
//       `update` draws the whole table from the seat's view and shows the new events as feedback;
//       `destroy` removes listeners and timers. The live table and the replay page drive it alike.
//   describeEvent(event, players) -> string   one plain-text sentence for the replay's event list
//                                             ("" lets the page say something generic).
//   isImportant(event) -> bool                whether the replay's ★ buttons stop at this event
//                                             (`kindIn([...kinds], also?)` makes one).
// The pages know no game's event kinds: they ask the renderer.
//
// Legal actions: a seat's view lists `legal`, the exact actions it may submit now (every move, the mistakes the
// rules punish included; [] for spectators and finished matches). A control is enabled exactly when its action is
// listed: legalOf(view, kind, match).

// --- DOM ---------------------------------------------------------------------------------------------

function build(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "text") node.textContent = String(value);
    else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children) if (child !== null && child !== undefined && child !== false) node.append(child);
  return node;
}

export function el(tag, attrs = {}, ...children) {
  return build(document.createElement(tag), attrs, children);
}

export function svg(tag, attrs = {}, ...children) {
  return build(document.createElementNS("http://www.w3.org/2000/svg", tag), attrs, children);
}

// --- words -------------------------------------------------------------------------------------------

export function fill(text, values = {}) {
  const v = values || {};
  const s = typeof text === "function" ? text(v) : text;
  return String(s ?? "").replace(/\{(\w+)\}|%\((\w+)\)s/g, (_, a, b) => String(v[a ?? b] ?? ""));
}

export function fmt(text, values = {}) {
  return window.interpolate(text, values, true);
}

// The words every game's table says alike, for a renderer's own table to start from (`{ ...WORDS, … }`).
export const WORDS = {
  you: gettext("you"),
  seat: gettext("Seat {n}"),
  spectator: gettext("You are watching"),
  dealer: gettext("dealer"),
  cancel: gettext("Cancel"),
  finished: gettext("Match over"),
  place: gettext("Place"),
  player: gettext("Player"),
  cards: (v) => ngettext("{n} card", "{n} cards", v.n),
  evDealt: (v) => ngettext("{n} card dealt to {p} players.", "{n} cards dealt to {p} players.", v.n),
};

// Who sits at `seat`, by name: the players list of the table payload; "Seat 1" for a seat nobody holds.
export function seatName(players, seat) {
  if (!Number.isInteger(seat)) return "?";
  const p = (players || []).find((x) => x.seat === seat);
  return p ? p.username : fill(WORDS.seat, { n: seat + 1 });
}

// What a table without controls says about whose eyes it shows: "You are watching" (`fallback`, a spectator),
// or on a replay from a seat "Nora-bot's view (seat 2)" — that seat's player, never "you".
export function watchingWords(ctx, fallback = WORDS.spectator) {
  if (!ctx || ctx.send || !Number.isInteger(ctx.seat)) return fallback;
  return fill(gettext("{name}'s view (seat {n})"), { name: seatName(ctx.players, ctx.seat), n: ctx.seat + 1 });
}

// A renderer's isImportant: the kinds its replay stops at, or any event `also` picks.
export function kindIn(kinds, also = () => false) {
  const set = new Set(kinds);
  return (event) => !!event && (set.has(event.kind) || also(event) === true);
}

// A renderer's last word on an event kind it does not describe: "Anna: slapped wrong" (`name` names a seat).
export function kindWords(event, name) {
  const who = Number.isInteger(event.seat) ? `${name(event.seat)}: ` : "";
  return `${who}${String(event.kind || "").replaceAll("_", " ")}`;
}

// --- legal actions -----------------------------------------------------------------------------------

function matches(action, match) {
  return Object.entries(match || {}).every(([k, want]) => JSON.stringify(action[k]) === JSON.stringify(want));
}

// Whether the view lists an action of `kind` whose fields equal `match`'s: the one test of a control's enabling.
export function legalOf(view, kind, match = null) {
  return !!view && Array.isArray(view.legal) && view.legal.some((a) => a && a.kind === kind && matches(a, match));
}
