// Smack It! live table renderer: draws the whole table from a `view`, shows events as transient feedback.
// Plain ES module on static/platform/kit.js (the renderer contract is documented there); untrusted text (usernames)
// is only ever set with textContent. Words: the djangojs catalogue, in the table below.

import { el, fill, kindIn, kindWords, legalOf, seatName, svg, watchingWords, WORDS } from "../../platform/kit.js";
import { registerFeedback } from "../../platform/feedback_hooks.js";

// The table's sounds and flashes for this game's events (static/platform/feedback_hooks.js).
registerFeedback("smackit", {
  sounds: { challenge_started: "challenge", challenge_restarted: "challenge", smacked: "smack", pile_won: "smack", flipped: "flip" },
  landed: "[data-testid=centre-top]",
  gains: (e) => (e.kind === "pile_won" ? e.seat : null),
});

const STRINGS = {
  ...WORDS,
  flip: gettext("Flip"),
  smack: gettext("Smack!"),
  flipKey: gettext("space"),
  smackKey: gettext("S or Enter"),
  yourTurn: gettext("Your turn: flip!"),
  turnOf: gettext("{name} flips"),
  smackPending: gettext("Smack it! Nobody flips until it is smacked"),
  raceJudging: gettext("Smack it! Judging who was fastest…"),
  centre: gettext("Centre pile"),
  empty: gettext("empty"),
  forfeits: gettext("Forfeits at the bottom"),
  removed: gettext("Out of play: {n}"),
  challenge: gettext("Challenge! round"),
  challengeBy: gettext("Challenge by {name}"),
  best: gettext("Best: {value} ({name})"),
  waiting: gettext("still to flip: {names}"),
  out: gettext("out"),
  outForGood: gettext("out for good"),
  smackWon: gettext("{name} won the smack in {ms} ms"),
  smackLate: gettext("{name} was {ms} ms too late (ignored)"),
  smackFalse: gettext("False smack by {name}!"),
  smackEarly: gettext("{name} smacked before the card lay there: late for the last one (ignored)"),
  smackEarlyFalse: gettext("False smack by {name}: before the Smack it! card lay there!"),
  forfeit: gettext("{name} forfeits a card to the bottom"),
  pileWon: (v) => ngettext("{name} takes the pile ({n} card)", "{name} takes the pile ({n} cards)", v.n),
  pileWonChallenge: (v) => ngettext("{name} wins the challenge with {value} ({n} card)", "{name} wins the challenge with {value} ({n} cards)", v.n),
  pileRemoved: (v) => ngettext("{name} is out: the pile ({n} card) leaves play", "{name} is out: the pile ({n} cards) leaves play", v.n),
  challengeStart: gettext("{name} flipped a Challenge!"),
  challengeRestart: gettext("{name} restarts the challenge!"),
  challengeEnd: gettext("No number in the challenge: the pile stays"),
  isOut: gettext("{name} is out of cards"),
  isOutForGood: gettext("{name} is out for good"),
  autoFlip: gettext("Auto flip in {s} s"),
  autoFlipped: gettext("The system flipped for {name}"),
  winner: gettext("Winner: {names}"),
  timeLimit: gettext("Time limit reached"),
  score: gettext("Cards"),
  smackIt: gettext("Smack it!"),
  challengeCard: gettext("Challenge!"),
  lastSmack: gettext("Last smack"),
  behind: gettext("+{ms} ms"),
  timeLeft: gettext("Match ends in {m}:{s}"),
  number: gettext("Number {n}"),
  toFlip: gettext("to flip"),
  next: gettext("next"),
  pileHolds: (v) => ngettext("{name}'s pile: {n} card, next {card}", "{name}'s pile: {n} cards, next {card}", v.n),
  evFlipped: gettext("{name} flipped {card}."),
  evTurn: gettext("{name} flips next."),
  evFlipTimer: gettext("Auto flip in {s} s if nobody flips."),
  evRaceTimer: gettext("The smack race is judged within {ms} ms."),
  evLimit: gettext("The match ends after {m} min at the latest."),
  evForfeit: gettext("{name} forfeits {card} to the bottom of the centre."),
};

// Okabe-Ito colours (colour-blind safe) plus a distinct symbol per seat.
const SEAT_COLOURS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00"];
const SEAT_SYMBOLS = ["●", "▲", "■", "◆", "★", "✚"];

function handIcon() {
  // a flat hand over a bull's-eye: the Smack it! card
  return svg("svg", { viewBox: "0 0 40 40", class: "smackit-icon", "aria-hidden": "true" },
    svg("circle", { cx: 20, cy: 20, r: 17, fill: "none", stroke: "currentColor", "stroke-width": 2 }),
    svg("circle", { cx: 20, cy: 20, r: 10, fill: "none", stroke: "currentColor", "stroke-width": 2 }),
    svg("circle", { cx: 20, cy: 20, r: 3, fill: "currentColor" }),
    svg("path", { d: "M13 30 L13 17 Q13 14 15 14 L15 22 L15 11 Q15 9 17 9 L17 21 L17 8 Q17 6 19.5 6 L19.5 21 L20 9 Q20 7 22 7 L22 22 L24 17 Q25.5 15 27 16.5 L24 27 Q22 31 18 31 Z",
      fill: "currentColor", opacity: 0.85 }));
}

function boltIcon() {
  return svg("svg", { viewBox: "0 0 40 40", class: "smackit-icon", "aria-hidden": "true" },
    svg("path", { d: "M23 3 L9 23 L18 23 L15 37 L31 15 L21 15 Z", fill: "currentColor" }));
}

function cardLabel(t, card) {
  if (!card) return "?";
  if (card.face === "number") return fill(t.number, { n: card.value });
  return card.face === "challenge" ? t.challengeCard : t.smackIt;
}

function countCards(t, n) {
  return fill(t.cards, { n });
}

// What one event means, in one sentence (shared by the live feedback and the replay's event list).
function sentence(t, e, name) {
  const d = e.data || {};
  switch (e.kind) {
    case "smacked":
      if (d.result === "win") return { text: fill(t.smackWon, { name: name(e.seat), ms: d.reaction_ms }), tone: "good" };
      if (d.result === "ignored" && d.early) return { text: fill(t.smackEarly, { name: name(e.seat) }), tone: "info" };
      if (d.result === "ignored") return { text: fill(t.smackLate, { name: name(e.seat), ms: d.behind_ms }), tone: "info" };
      if (d.early) return { text: fill(t.smackEarlyFalse, { name: name(e.seat) }), tone: "bad" };
      return { text: fill(t.smackFalse, { name: name(e.seat) }), tone: "bad" };
    case "forfeited":
      return { text: fill(t.forfeit, { name: name(e.seat) }), tone: "bad" };
    case "pile_won": {
      const n = (d.cards || []).length;
      if (d.removed) return { text: fill(t.pileRemoved, { name: name(e.seat), n }), tone: "info" };
      if (d.by === "challenge") {
        const values = (d.cards || []).filter((c) => c.face === "number").map((c) => c.value);
        return { text: fill(t.pileWonChallenge, { name: name(e.seat), n, value: values.length ? Math.max(...values) : "?" }), tone: "good" };
      }
      return { text: fill(t.pileWon, { name: name(e.seat), n }), tone: "good" };
    }
    case "challenge_started":
      return { text: fill(t.challengeStart, { name: name(d.by) }), tone: "info" };
    case "challenge_restarted":
      return { text: fill(t.challengeRestart, { name: name(d.by) }), tone: "info" };
    case "challenge_ended":
      return { text: t.challengeEnd, tone: "info" };
    case "out":
      return { text: fill(d.for_good ? t.isOutForGood : t.isOut, { name: name(e.seat) }), tone: "bad" };
    case "flipped":
      return d.auto ? { text: fill(t.autoFlipped, { name: name(e.seat) }), tone: "info" } : null;
    case "finished":
      return { text: d.reason === "time_limit" ? t.timeLimit : t.finished, tone: "info" };
    default:
      return null;
  }
}

// The replay's ★ stops: smacks, piles changing hands, challenges, forfeits, a player out.
export const isImportant = kindIn(["smacked", "pile_won", "challenge_started", "challenge_restarted", "challenge_ended", "forfeited", "out"]);

// The replay's sentence of an event: the live feedback's where there is one, more detail for flips and deals.
export function describeEvent(event, players) {
  const d = (event && event.data) || {};
  const name = (seat) => seatName(players, seat);
  const t = STRINGS;
  switch (event.kind) {
    case "dealt": {
      const sizes = Array.isArray(d.sizes) ? d.sizes : (d.piles || []).map((p) => (Array.isArray(p) ? p.length : 0));
      return fill(t.evDealt, { n: sizes.reduce((a, b) => a + b, 0), p: sizes.length || d.seats });
    }
    case "flipped": {
      const text = fill(t.evFlipped, { name: name(event.seat), card: cardLabel(t, d.card) });
      return d.auto ? `${fill(t.autoFlipped, { name: name(event.seat) })}: ${text}` : text;
    }
    case "forfeited":
      return fill(t.evForfeit, { name: name(event.seat), card: cardLabel(t, d.card) });
    case "turn":
      return fill(t.evTurn, { name: name(d.next) });
    case "timer":
      if (d.id === "limit") return fill(t.evLimit, { m: Math.round(Number(d.due_ms) / 60000) });
      if (String(d.id).startsWith("race:")) return fill(t.evRaceTimer, { ms: Math.max(0, Number(d.due_ms) - Number(event.t_ms || 0)) });
      return fill(t.evFlipTimer, { s: Math.round((Number(d.due_ms) - Number(event.t_ms || 0)) / 1000) });
    case "finished": {
      const winners = ((d.outcome && d.outcome.winners) || []).map(name).join(", ");
      const head = d.reason === "time_limit" ? `${t.finished} — ${t.timeLimit}` : t.finished;
      return winners ? `${head}. ${fill(t.winner, { names: winners })}.` : `${head}.`;
    }
    default: {
      const item = sentence(t, event, name);
      if (item) return `${item.text}.`.replace(/([.!])\.$/, "$1");
      return kindWords(event, name);
    }
  }
}

export function createRenderer(root, ctx) {
  const t = STRINGS;
  const api = { players: ctx.players || [], update, destroy };
  let view = null;
  let clockOffset = null; // Date.now() - match ms, estimated from event times
  let feedback = [];
  let flash = null;

  const frame = el("div", { class: "smackit", "data-testid": "smackit-table" });
  const statusLine = el("div", { class: "smackit-status", "data-testid": "status", role: "status", "aria-live": "polite" });
  const seatsRow = el("ol", { class: "smackit-seats", "data-testid": "seats" });
  const centreBox = el("section", { class: "smackit-centre", "data-testid": "centre" });
  const challengeBox = el("section", { class: "smackit-challenge", "data-testid": "challenge" });
  const controls = el("div", { class: "smackit-controls" });
  const feedbackBox = el("ul", { class: "smackit-feedback", "data-testid": "feedback", "aria-live": "polite" });
  const timerLine = el("div", { class: "smackit-timer", "data-testid": "timer" });
  const outcomeBox = el("section", { class: "smackit-outcome", "data-testid": "outcome" });

  let flipButton = null;
  let smackButton = null;
  if (ctx.send) {
    flipButton = el("button", { type: "button", class: "smackit-flip-button", "data-testid": "flip", onclick: doFlip },
      el("span", { text: t.flip }), el("small", { text: t.flipKey }));
    smackButton = el("button", { type: "button", class: "smackit-smack-button", "data-testid": "smack", onclick: doSmack },
      handIcon(), el("span", { text: t.smack }), el("small", { text: t.smackKey }));
    controls.append(flipButton, smackButton);
  } else {
    controls.append(el("p", { class: "smackit-muted", text: watchingWords(ctx) }));
  }
  frame.append(statusLine, seatsRow, el("div", { class: "smackit-board" }, centreBox, challengeBox), controls, timerLine, feedbackBox, outcomeBox);
  root.append(frame);

  function name(seat) {
    if (seat === null || seat === undefined) return "?";
    const p = (api.players || []).find((x) => x.seat === seat);
    const base = p ? p.username : fill(t.seat, { n: seat + 1 });
    return seat === ctx.seat && ctx.send ? `${base} (${t.you})` : base; // a seat's replay is someone else's, not "you"
  }

  function seatBadge(seat) {
    const badge = el("span", { class: "smackit-badge", style: `--seat:${SEAT_COLOURS[seat % 6]}`, "aria-hidden": "true", text: SEAT_SYMBOLS[seat % 6] });
    return el("span", { class: "smackit-who" }, badge, el("span", { text: name(seat) }));
  }

  function cardNode(card, size, testid) {
    const face = card ? card.face : "none";
    const node = el("div", { class: `smackit-card smackit-face-${face} smackit-${size}`, "data-testid": testid || null,
      "data-card-id": card ? card.id : null, "data-face": face });
    if (card) node.setAttribute("role", "img"); // a labelled picture: axe forbids aria-label on a bare div
    if (!card) {
      node.append(el("span", { class: "smackit-muted", text: t.empty }));
    } else if (face === "number") {
      node.setAttribute("aria-label", fill(t.number, { n: card.value }));
      node.append(el("span", { class: "smackit-corner", text: card.value }), el("span", { class: "smackit-value", text: card.value }));
    } else if (face === "challenge") {
      node.setAttribute("aria-label", t.challengeCard);
      node.append(boltIcon(), el("span", { class: "smackit-label", text: t.challengeCard }));
    } else {
      node.setAttribute("aria-label", t.smackIt);
      node.append(handIcon(), el("span", { class: "smackit-label", text: t.smackIt }));
    }
    return node;
  }

  // Play stops for the smack race: the server refuses a flip (smack_pending) while a Smack it! card lies on top.
  function smackPending() {
    return !!(view && !view.finished && view.centre.top && view.centre.top.face === "smack");
  }

  // A smack race is judged for up to the table's lag cap (players on slower lines may still be faster):
  // the card stays on top, contested; a hand already on it does not smack again (already_smacked).
  function racePending() {
    return !!(view && !view.finished && view.race);
  }

  // Enabled exactly when the view lists the action as legal (a false smack included: it is a move).
  function canFlip() {
    return legalOf(view, "flip");
  }

  function canSmack() {
    return legalOf(view, "smack");
  }

  function doFlip() {
    if (!ctx.send || !canFlip()) return;
    ctx.send({ kind: "flip" });
  }

  function doSmack() {
    if (!ctx.send || !canSmack()) return;
    ctx.send({ kind: "smack" });
    frame.classList.remove("smackit-pulse");
    void frame.offsetWidth; // restart the animation
    frame.classList.add("smackit-pulse");
  }

  function onKey(ev) {
    if (!ctx.send || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const target = ev.target;
    if (target && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))) return;
    if (ev.code === "Space" || ev.key === " ") {
      ev.preventDefault();
      if (!ev.repeat) doFlip();
    } else if (ev.key === "s" || ev.key === "S" || ev.key === "Enter") {
      if (ev.key === "Enter" && target && target.tagName === "BUTTON") return; // the button's own click
      ev.preventDefault();
      if (!ev.repeat) doSmack();
    }
  }
  document.addEventListener("keydown", onKey);

  function describe(e) {
    return sentence(t, e, name);
  }

  function update(newView, events) {
    view = newView;
    for (const e of events || []) {
      if (typeof e.t_ms === "number") clockOffset = Date.now() - e.t_ms;
      const item = e.kind ? describe(e) : null;
      if (item) feedback.unshift({ ...item, at: Date.now() });
      if (e.kind === "smacked" || e.kind === "pile_won" || e.kind === "forfeited") flash = { kind: e.kind, result: e.data && e.data.result, at: Date.now() };
    }
    feedback = feedback.slice(0, 6);
    draw();
  }

  function drawSeats() {
    seatsRow.replaceChildren();
    const outs = new Set(view.out || []);
    const gone = new Set(view.out_for_good || []);
    for (let s = 0; s < view.seats; s++) {
      const count = view.piles[s];
      const classes = ["smackit-seat"];
      if (view.turn === s) classes.push("smackit-turn");
      if (outs.has(s)) classes.push("smackit-out");
      if (s === ctx.seat) classes.push("smackit-me");
      const li = el("li", { class: classes.join(" "), "data-testid": `seat-${s}`, style: `--seat:${SEAT_COLOURS[s % 6]}` },
        seatBadge(s),
        el("span", { class: "smackit-pile", "data-testid": `pile-${s}`, "data-count": count }, el("span", { class: "smackit-back", "aria-hidden": "true" }),
          el("span", { text: countCards(t, count) })));
      // a replay's "everything" view: the card this pile flips next, and the special cards it holds
      if (view.pile_tops && view.pile_tops[s]) li.append(nextCard(s));
      if (gone.has(s)) li.append(el("span", { class: "smackit-tag smackit-tag-bad", text: t.outForGood }));
      else if (outs.has(s)) li.append(el("span", { class: "smackit-tag", text: t.out }));
      if (view.turn === s) li.append(el("span", { class: "smackit-tag smackit-tag-turn", "data-testid": "turn-marker", text: `▶ ${t.toFlip}` }));
      seatsRow.append(li);
    }
  }

  function nextCard(s) {
    const pile = (view.reveal && view.reveal.piles && view.reveal.piles[s]) || [];
    const top = view.pile_tops[s];
    const box = el("span", { class: "smackit-next", "data-testid": `next-${s}`,
      title: fill(t.pileHolds, { name: name(s), n: view.piles[s], card: cardLabel(t, top) }) },
    el("span", { class: "smackit-muted", text: `${t.next}:` }), cardNode(top, "mini"));
    const challenges = pile.filter((c) => c.face === "challenge").length;
    const smacks = pile.filter((c) => c.face === "smack").length;
    if (challenges) box.append(el("span", { class: "smackit-tag smackit-tag-challenge", title: t.challengeCard }, boltIcon(), el("span", { text: `×${challenges}` })));
    if (smacks) box.append(el("span", { class: "smackit-tag smackit-tag-smack", title: t.smackIt }, handIcon(), el("span", { text: `×${smacks}` })));
    return box;
  }

  function drawCentre() {
    const c = view.centre;
    centreBox.replaceChildren(el("h3", { text: t.centre }));
    const top = cardNode(c.top, "large", "centre-top");
    if (racePending()) top.classList.add("smackit-contested");
    if (flash && Date.now() - flash.at < 1500) top.classList.add(`smackit-flash-${flash.result || flash.kind}`);
    centreBox.append(el("div", { class: "smackit-topwrap" }, top, el("span", { class: "smackit-count", "data-testid": "centre-count", text: countCards(t, c.count) })));
    const recent = (c.recent || []).slice(0, -1);
    if (recent.length) {
      centreBox.append(el("div", { class: "smackit-recent" }, ...recent.map((card) => cardNode(card, "small", `centre-${card.id}`))));
    }
    if ((c.bottom_forfeits || []).length) {
      centreBox.append(el("div", { class: "smackit-forfeits", "data-testid": "forfeits" }, el("span", { class: "smackit-muted", text: t.forfeits }),
        ...c.bottom_forfeits.map((card) => cardNode(card, "small", `centre-${card.id}`))));
    }
    if (view.removed) centreBox.append(el("p", { class: "smackit-muted", "data-testid": "removed", text: fill(t.removed, { n: view.removed }) }));
    const ls = view.last_smack;
    if (ls) {
      const line = el("p", { class: "smackit-last", "data-testid": "last-smack" }, el("b", { text: `${t.lastSmack}: ` }),
        seatBadge(ls.seat), el("span", { text: ` ${ls.reaction_ms} ms` }));
      for (const b of ls.behind || []) line.append(el("span", { class: "smackit-behind" }, seatBadge(b.seat), el("span", { text: ` ${fill(t.behind, { ms: b.ms })}` })));
      centreBox.append(line);
    }
  }

  function drawChallenge() {
    const ch = view.challenge;
    challengeBox.replaceChildren();
    challengeBox.hidden = !ch.active;
    if (!ch.active) return;
    challengeBox.append(el("h3", {}, boltIcon(), el("span", { text: ` ${t.challenge}` })), el("p", { text: fill(t.challengeBy, { name: name(ch.by) }) }));
    const list = el("ol", { class: "smackit-flips" });
    for (const f of ch.flips) {
      const isBest = ch.best && ch.best.card.id === f.card.id;
      list.append(el("li", { class: isBest ? "smackit-best" : null }, seatBadge(f.seat), cardNode(f.card, "small", `challenge-${f.card.id}`)));
    }
    challengeBox.append(list);
    if (ch.best) challengeBox.append(el("p", { "data-testid": "challenge-best", text: fill(t.best, { value: ch.best.card.value, name: name(ch.best.seat) }) }));
    const done = new Set(ch.flipped_by);
    const waiting = ch.order.filter((s) => !done.has(s) && view.piles[s] > 0);
    if (waiting.length) challengeBox.append(el("p", { class: "smackit-muted", text: fill(t.waiting, { names: waiting.map(name).join(", ") }) }));
  }

  function drawStatus() {
    if (view.finished) statusLine.textContent = t.finished;
    else if (racePending()) statusLine.textContent = t.raceJudging;
    else if (smackPending()) statusLine.textContent = t.smackPending;
    else if (view.turn === ctx.seat && ctx.seat !== null) statusLine.textContent = t.yourTurn;
    else statusLine.textContent = fill(t.turnOf, { name: name(view.turn) });
    statusLine.classList.toggle("smackit-mine", canFlip());
    statusLine.classList.toggle("smackit-pending", smackPending());
    if (flipButton) flipButton.disabled = !canFlip();
    if (smackButton) smackButton.disabled = !canSmack();
  }

  function drawTimer() {
    if (!view || view.finished || clockOffset === null) { timerLine.textContent = ""; return; }
    const now = Date.now() - clockOffset;
    const parts = [];
    if (view.flip_due_ms !== null && view.flip_due_ms !== undefined && view.turn === ctx.seat) {
      const s = Math.max(0, Math.ceil((view.flip_due_ms - now) / 1000));
      if (s <= 5) parts.push(fill(t.autoFlip, { s }));
    }
    if (view.limit_due_ms) {
      const left = Math.max(0, Math.floor((view.limit_due_ms - now) / 1000));
      if (left <= 120) parts.push(fill(t.timeLeft, { m: Math.floor(left / 60), s: String(left % 60).padStart(2, "0") }));
    }
    timerLine.textContent = parts.join(" · ");
  }

  function drawFeedback() {
    feedbackBox.replaceChildren(...feedback.filter((f) => Date.now() - f.at < 8000)
      .map((f, i) => el("li", { class: `smackit-${f.tone}${i === 0 ? " smackit-newest" : ""}`, text: f.text })));
  }

  function drawOutcome() {
    outcomeBox.replaceChildren();
    outcomeBox.hidden = !view.finished || !view.outcome;
    if (!view.finished || !view.outcome) return;
    const o = view.outcome;
    outcomeBox.append(el("h3", { text: view.reason === "time_limit" ? `${t.finished} — ${t.timeLimit}` : t.finished }),
      el("p", { "data-testid": "winner", text: fill(t.winner, { names: o.winners.map(name).join(", ") }) }));
    const rows = [...o.placements].sort((a, b) => a.place - b.place || a.seat - b.seat);
    outcomeBox.append(el("table", { class: "smackit-results" },
      el("thead", {}, el("tr", {}, el("th", { text: t.place }), el("th", { text: t.player }), el("th", { text: t.score }))),
      el("tbody", {}, ...rows.map((p) => el("tr", { "data-testid": `place-${p.seat}` }, el("td", { text: p.place }), el("td", {}, seatBadge(p.seat)), el("td", { text: p.score ?? "" }))))));
  }

  function draw() {
    if (!view) return;
    drawStatus();
    drawSeats();
    drawCentre();
    drawChallenge();
    drawFeedback();
    drawTimer();
    drawOutcome();
  }

  const ticker = setInterval(() => { if (view) { drawTimer(); drawFeedback(); } }, 250);

  function destroy() {
    clearInterval(ticker);
    document.removeEventListener("keydown", onKey);
    root.replaceChildren();
  }

  return api;
}
