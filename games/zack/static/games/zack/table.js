// ZACK! live table renderer: draws the whole table from a `view`; events only add transient feedback.
// Plain ES module on static/platform/kit.js (the renderer contract is documented there); untrusted text (usernames)
// is only ever set with textContent. Words: the djangojs catalogue, in the table below.
// The view never says whose turn it is (unless the table shows it): working that out from the box is the game.

import { el as kitEl, fill, kindIn, kindWords, legalOf, seatName, watchingWords, WORDS } from "../../platform/kit.js";
import { registerFeedback } from "../../platform/feedback_hooks.js";

// The table's sounds and flashes for this game's events (static/platform/feedback_hooks.js).
registerFeedback("zack", {
  sounds: { challenged: "challenge", thrown: "flip", colour_thrown: "flip" },
  landed: "[data-testid=fan] .zack-fan-item:last-child .zack-card",
  gains: (e) => (e.kind === "challenged" && e.data && e.data.taker !== undefined ? e.data.taker : null),
});

const STRINGS = {
  ...WORDS,
  throw: gettext("Throw"),
  throwKey: gettext("space"),
  challenge: gettext("Challenge"),
  challengeKeys: gettext("keys 1–{n}"),
  colourCard: gettext("Colour card"),
  colourKey: gettext("C"),
  choose: gettext("Choose who throws next"),
  chooseKeys: gettext("keys 1–{n}"),
  box: gettext("The box"),
  boxEmpty: gettext("The box is empty"),
  boxCount: (v) => ngettext("{n} card in the box", "{n} cards in the box", v.n),
  noCards: gettext("no cards — throw your colour card on your turn!"),
  turnHidden: gettext("Whose turn is it? Read the box!"),
  opensMe: gettext("You throw first!"),
  opensOther: gettext("{name} throws first"),
  promptOpensMe: gettext("The box is empty and you throw first: press Throw or the space bar."),
  promptOpensOther: gettext("Wait for {name} to throw first. Then read the top card of the box: it says who throws next."),
  promptRead: gettext("Read the top card of the box: it says who throws next. If that is you, throw!"),
  promptMyTurn: gettext("Your turn: press Throw or the space bar."),
  promptOther: gettext("{name} throws next. Too slow? Challenge them."),
  yourTurn: gettext("Your turn!"),
  turnOf: gettext("{name}'s turn"),
  waitingChoice: gettext("{name} chooses a colour…"),
  pause: gettext("Stop! Pause: {s} s"),
  settling: gettext("Cards are being returned…"),
  judging: gettext("Challenge! Judging who was first…"),
  choiceIn: gettext("choice in {s} s"),
  lrSwapped: gettext("Left = Right is in force: left and right are exchanged"),
  colourInBox: gettext("colour card in the box"),
  thrower: gettext("thrown by {name}"),
  chSuccessSlow: gettext("{by} challenged {target}: too slow — right! {taker} takes {cards}, {next} restarts."),
  chSuccessWrong: gettext("{by} challenged {target}: not their turn — right! {taker} takes {cards}, {next} restarts."),
  chFail: gettext("{by} challenged {target} — wrong! {taker} takes {cards}, {next} restarts."),
  retCard: gettext("{name}'s card came back ({why}) and goes under the pile."),
  retChallenge: gettext("{name}'s challenge came back ({why})."),
  retColour: gettext("{name}'s colour card came back ({why})."),
  why_settling: gettext("after a challenge"),
  why_pause: gettext("Stop pause"),
  why_waiting_choice: gettext("waiting for a choice"),
  why_judging: gettext("a challenge was being judged"),
  chosen: gettext("{name} chose {colour}: {target} throws next."),
  chosenTimer: gettext("Time is up: {name} throws next."),
  passed: gettext("Swap colours! Colour cards and challenge cards passed to the left."),
  stopCard: gettext("{name} threw a Stop card: {face}."),
  colourError: gettext("{name} threw the colour card — a mistake that may be challenged!"),
  won: gettext("{name} threw the colour card and wins!"),
  wonResigned: gettext("{name}'s seat threw the colour card: the match is over, and a player who resigned is placed last."),
  winner: gettext("Winner: {name}"),
  left: gettext("Cards left"),
  outOfTurn: gettext("Out of turn"),
  oot: gettext("out of turn"),
  turnTag: gettext("to throw"),
  evThrown: gettext("{name} threw {card}."),
  evThrownOot: gettext("{name} threw {card} — out of turn ({expected} was to throw)."),
  evCircle: gettext("a {colour} circle"),
  evTimer: gettext("{s} s to choose a colour."),
  evRaceTimer: gettext("The challenge is judged within {ms} ms."),
  evFinished: gettext("Match over: {name} wins."),
  held: gettext("your challenge cards"),
  heldOf: gettext("challenge cards"),
  pileTop: gettext("top"),
  allPiles: gettext("Pile (revealed)"),
  faces: {
    links: gettext("Left"),
    rechts: gettext("Right"),
    links2: gettext("2 Left"),
    rechts2: gettext("2 Right"),
    nochmal: gettext("Again"),
    zurueck: gettext("Back"),
    stop_choose: gettext("Choose colour"),
    stop_swap: gettext("Swap colours"),
    stop_lr: gettext("Left = Right"),
  },
  colours: {
    red: pgettext("ZACK! colour", "red"),
    blue: pgettext("ZACK! colour", "blue"),
    yellow: pgettext("ZACK! colour", "yellow"),
    green: pgettext("ZACK! colour", "green"),
    orange: pgettext("ZACK! colour", "orange"),
    purple: pgettext("ZACK! colour", "purple"),
  },
};

// Okabe-Ito hues (colour-blind safe), and every colour also has its own symbol.
const HUES = { red: "#D55E00", blue: "#0072B2", yellow: "#F0E442", green: "#009E73", orange: "#E69F00", purple: "#CC79A7" };
const SYMBOLS = { red: "●", blue: "■", yellow: "▲", green: "◆", orange: "★", purple: "✚" };
const ARROWS = { links: "⟵", rechts: "⟶", links2: "⟵⟵", rechts2: "⟶⟶", nochmal: "↻", zurueck: "↩" };
const STOP_SIGNS = { stop_choose: "S?", stop_swap: "S⇄", stop_lr: "S↔" };
const FADE_MS = 7000;

function cardCount(t, n) {
  return fill(t.cards, { n });
}

function cardLabel(t, card) {
  if (!card) return "?";
  if (card.face === "circle") return fill(t.evCircle, { colour: t.colours[card.colour] || card.colour });
  return t.faces[card.face] || card.face;
}

// An element whose click handler, after a mouse click, leaves no focus on the button: the space bar would press it
// again instead of throwing.
function el(tag, attrs, ...children) {
  const click = attrs && attrs.onclick;
  if (!click) return kitEl(tag, attrs, ...children);
  return kitEl(tag, { ...attrs, onclick: (ev) => {
    if (ev.detail > 0 && ev.currentTarget && ev.currentTarget.blur) ev.currentTarget.blur();
    click(ev);
  } }, ...children);
}

// The replay's ★ stops: challenges, colour cards, returned cards, colours passed on, a card thrown out of turn.
export const isImportant = kindIn(["challenged", "colour_thrown", "returned", "colours_passed"],
  (event) => event.kind === "thrown" && (event.data || {}).out_of_turn === true);

// One short sentence per event for the replay's event list (plain text: the caller sets it with textContent).
export function describeEvent(event, players) {
  const t = STRINGS;
  const d = (event && event.data) || {};
  const name = (seat) => seatName(players, seat);
  switch (event.kind) {
    case "dealt": {
      const piles = Array.isArray(d.piles) ? d.piles : [];
      const n = piles.reduce((sum, p) => sum + (Array.isArray(p) ? p.length : Number(p) || 0), 0);
      return fill(t.evDealt, { n, p: piles.length || d.seats || "?" });
    }
    case "thrown":
      if (d.out_of_turn === true) return fill(t.evThrownOot, { name: name(event.seat), card: cardLabel(t, d.card), expected: name(d.expected) });
      return fill(t.evThrown, { name: name(event.seat), card: cardLabel(t, d.card) });
    case "returned": {
      const values = { name: name(event.seat), why: t[`why_${d.why}`] || d.why };
      return fill(d.card ? t.retCard : d.challenge ? t.retChallenge : t.retColour, values);
    }
    case "colour_thrown":
      return fill(d.win ? t.won : t.colourError, { name: name(event.seat) });
    case "challenged": {
      const key = d.result === "success" ? (d.reason === "wrong_turn" ? "chSuccessWrong" : "chSuccessSlow") : "chFail";
      return fill(t[key], { by: name(d.by), target: name(d.target_seat), taker: name(d.taker), next: name(d.next), cards: cardCount(t, d.cards_taken) });
    }
    case "chosen":
      return d.by_timer ? fill(t.chosenTimer, { name: name(d.target_seat) })
        : fill(t.chosen, { name: name(event.seat), colour: t.colours[d.colour] || d.colour, target: name(d.target_seat) });
    case "colours_passed":
      return t.passed;
    case "timer":
      if (String(d.id).startsWith("race:")) return fill(t.evRaceTimer, { ms: Math.max(0, Number(d.due_ms) - Number(event.t_ms || 0)) });
      return fill(t.evTimer, { s: Math.round((Number(d.due_ms) - Number(event.t_ms || 0)) / 1000) });
    case "finished":
      return fill(t.evFinished, { name: name(d.winner !== undefined ? d.winner : (d.outcome && d.outcome.winners || [])[0]) });
    default:
      return kindWords(event, name);
  }
}

export function createRenderer(root, ctx) {
  const t = STRINGS;
  const api = { players: ctx.players || [], update, destroy };
  let view = null;
  let clockOffset = null; // Date.now() minus match ms, estimated from event times
  let feedback = []; // {text, kind, at}
  let banner = null; // {text, kind, until}
  let ticker = null;

  const frame = el("div", { class: "zack", "data-testid": "zack-table" });
  const statusLine = el("div", { class: "zack-status", "data-testid": "status", role: "status", "aria-live": "polite" });
  // what to do now, in words: who throws first onto an empty box, and to read the box once it holds a card
  const promptLine = el("p", { class: "zack-prompt", "data-testid": "prompt" });
  const ring = el("div", { class: "zack-ring", "data-testid": "ring" });
  const boxArea = el("section", { class: "zack-box", "data-testid": "box", "aria-label": t.box });
  const bannerBox = el("div", { class: "zack-banner", "data-testid": "banner", "aria-live": "assertive" });
  const controls = el("div", { class: "zack-controls", "data-testid": "controls" });
  const feedbackBox = el("ul", { class: "zack-feedback", "data-testid": "feedback", "aria-live": "polite" });
  const outcomeBox = el("section", { class: "zack-outcome", "data-testid": "outcome" });
  ring.append(boxArea);
  // the results sit under the status line: at the end they are what everybody looks for
  frame.append(statusLine, promptLine, bannerBox, outcomeBox, ring, controls, feedbackBox);
  root.append(frame);
  document.addEventListener("keydown", onKey);

  function nameOf(seat) {
    if (seat === null || seat === undefined) return "?";
    const p = (api.players || []).find((x) => x.seat === seat);
    const base = p ? p.username : fill(t.seat, { n: seat + 1 });
    return seat === ctx.seat && ctx.send ? `${base} (${t.you})` : base; // a seat's replay is someone else's, not "you"
  }

  function colourTag(colour, extraClass) {
    const tag = el("span", { class: `zack-swatch ${extraClass || ""}`, style: `--hue:${HUES[colour] || "#888"}`, title: t.colours[colour] || colour },
      el("span", { class: "zack-symbol", "aria-hidden": "true", text: SYMBOLS[colour] || "?" }));
    return tag;
  }

  function seatColour(seat) {
    const row = view && view.seats ? view.seats[seat] : null;
    return row ? row.colour : null;
  }

  function who(seat) {
    const colour = seatColour(seat);
    return colour ? `${SYMBOLS[colour] || ""} ${nameOf(seat)}` : nameOf(seat);
  }

  function cardNode(card, size) {
    const extra = size ? ` ${size}` : "";
    if (!card) return el("div", { class: `zack-card zack-back${extra}` });
    if (card.face === "circle") {
      return el("div", { class: `zack-card zack-circle${extra}`, "data-face": "circle", "data-colour": card.colour, title: t.colours[card.colour] || card.colour },
        el("span", { class: "zack-dot", style: `--hue:${HUES[card.colour] || "#888"}` },
          el("span", { class: "zack-symbol", "aria-hidden": "true", text: SYMBOLS[card.colour] || "" })),
        el("span", { class: "zack-face-label", text: t.colours[card.colour] || card.colour }));
    }
    const label = t.faces[card.face] || card.face;
    if (card.face.startsWith("stop_")) {
      return el("div", { class: `zack-card zack-stop${extra}`, "data-face": card.face, title: label },
        el("span", { class: "zack-octagon", text: "STOP" }), el("span", { class: "zack-face-label", text: label }));
    }
    return el("div", { class: `zack-card zack-action${extra}`, "data-face": card.face, title: label },
      el("span", { class: "zack-arrow", "aria-hidden": "true", text: ARROWS[card.face] || "?" }),
      el("span", { class: "zack-face-label", text: label }));
  }

  function colourCardNode(colour) {
    return el("div", { class: "zack-card zack-colourcard", "data-face": "colour_card", style: `--hue:${HUES[colour] || "#888"}`, title: t.colourCard },
      el("span", { class: "zack-symbol big", "aria-hidden": "true", text: SYMBOLS[colour] || "" }),
      el("span", { class: "zack-face-label", text: t.colourCard }));
  }

  // A pile's cards are known only after the end or in a replay's "everything" view: the top card and what the pile holds.
  function revealedPile(row) {
    const box = el("div", { class: "zack-revealed", "data-testid": `revealed-${row.seat}`, title: t.allPiles });
    const top = row.cards[0];
    box.append(el("span", { class: "zack-hint", text: `${t.pileTop}:` }), cardNode(top, "mini"));
    const counts = new Map();
    for (const c of row.cards) {
      const key = c.face === "circle" ? c.colour : c.face;
      counts.set(key, (counts.get(key) || 0) + 1);
    }
    const list = el("span", { class: "zack-counts" });
    const order = [...Object.keys(HUES), ...Object.keys(ARROWS), ...Object.keys(STOP_SIGNS)];
    const rank = (key) => (order.indexOf(key) + order.length + 1) % (order.length + 1);
    for (const [key, count] of [...counts].sort((a, b) => rank(a[0]) - rank(b[0]))) {
      const colour = Boolean(HUES[key]);
      const label = colour ? t.colours[key] : t.faces[key] || key;
      const sign = colour ? SYMBOLS[key] : STOP_SIGNS[key] || ARROWS[key] || "?";
      list.append(el("span", { class: `zack-count${key.startsWith("stop_") ? " stop" : ""}`, title: `${label}: ${count}`,
        style: `--hue:${colour ? HUES[key] : "#9aa0a6"}`, "data-key": key },
      el("span", { class: "zack-symbol", "aria-hidden": "true", text: sign }), el("span", { text: `${count}` })));
    }
    box.append(list);
    return box;
  }

  function matchNow() {
    return clockOffset === null ? null : Date.now() - clockOffset;
  }

  // --- drawing ------------------------------------------------------------------------------

  function drawSeats() {
    for (const old of ring.querySelectorAll(".zack-seat")) old.remove();
    const n = view.seats.length;
    const me = ctx.seat === null || ctx.seat === undefined ? 0 : ctx.seat;
    for (const row of view.seats) {
      const i = (row.seat - me + n) % n;
      // clockwise seating seen from above: my left neighbour (seat + 1) sits to my left on screen.
      const angle = Math.PI / 2 + (i * 2 * Math.PI) / n;
      const x = 50 + 42 * Math.cos(angle);
      const y = 50 + 40 * Math.sin(angle);
      const mine = row.seat === ctx.seat;
      const node = el("div", {
        class: `zack-seat${mine ? " mine" : ""}${view.finished && winnerSeat() === row.seat ? " winner" : ""}`,
        "data-testid": `seat-${row.seat}`, "data-colour": row.colour, style: `left:${x}%;top:${y}%;--hue:${HUES[row.colour] || "#888"}`,
      });
      node.append(el("div", { class: "zack-seat-head" }, colourTag(row.colour), el("span", { class: "zack-name", text: nameOf(row.seat) })));
      const pile = el("div", { class: "zack-pile", "data-testid": `pile-${row.seat}` });
      const depth = Math.min(5, Math.ceil(row.pile / 4));
      for (let k = 0; k < depth; k++) pile.append(el("span", { class: "zack-pile-card", style: `--k:${k}` }));
      pile.append(el("span", { class: "zack-pile-count", text: cardCount(t, row.pile) }));
      node.append(pile);
      if (Array.isArray(row.cards) && row.cards.length) node.append(revealedPile(row));
      const tags = el("div", { class: "zack-seat-tags" });
      if (row.seat === view.dealer) tags.append(el("span", { class: "zack-tag", text: t.dealer }));
      if (row.colour_card_in_box) tags.append(el("span", { class: "zack-tag warn", text: t.colourInBox }));
      if (view.turn === row.seat && !view.finished) tags.append(el("span", { class: "zack-tag turn", "data-testid": "turn-marker", text: `▶ ${t.turnTag}` }));
      node.append(tags);
      if (mine) {
        const heldWords = ctx.send ? t.held : t.heldOf;
        const held = el("div", { class: "zack-held", title: heldWords }, el("span", { class: "zack-held-label", text: heldWords }));
        for (const c of row.challenge_colours || []) held.append(colourTag(c, "small"));
        node.append(held);
      }
      ring.append(node);
    }
  }

  function drawBox() {
    boxArea.replaceChildren();
    const box = view.box || [];
    const head = el("div", { class: "zack-box-head" },
      el("span", { text: box.length ? fill(t.boxCount, { n: box.length }) : t.boxEmpty }));
    if (view.lr_swapped) head.append(el("span", { class: "zack-tag warn", "data-testid": "lr-swapped", text: `⇄ ${t.lrSwapped}` }));
    boxArea.append(head);
    const fan = el("ol", { class: "zack-fan", "data-testid": "fan" });
    const shown = box.slice(-9);
    shown.forEach((entry, k) => {
      const fromTop = shown.length - 1 - k; // 0 = top card
      const item = el("li", { class: `zack-fan-item${fromTop < 4 ? " readable" : " buried"}`, "data-testid": `box-${box.length - 1 - fromTop}`,
        style: `--hue:${HUES[seatColour(entry.seat)] || "#888"}` });
      item.append(entry.card ? cardNode(entry.card) : colourCardNode(entry.colour_card));
      const byline = el("span", { class: "zack-byline", title: fill(t.thrower, { name: nameOf(entry.seat) }) });
      const colour = seatColour(entry.seat);
      if (colour) byline.append(colourTag(colour, "tiny"));
      byline.append(el("span", { text: nameOf(entry.seat) }));
      item.append(byline);
      if (entry.out_of_turn) item.append(el("span", { class: "zack-tag warn", text: t.oot }));
      fan.append(item);
    });
    boxArea.append(fan);
  }

  function drawStatus() {
    const now = matchNow();
    let text;
    if (view.finished) text = fill(t.winner, { name: who(winnerSeat()) });
    else if (view.waiting_choice !== null && view.waiting_choice !== undefined) {
      text = fill(t.waitingChoice, { name: who(view.waiting_choice) });
      if (now !== null && view.choose_due_ms) text += ` — ${fill(t.choiceIn, { s: Math.max(0, Math.ceil((view.choose_due_ms - now) / 1000)) })}`;
    } else if (view.turn !== null && view.turn !== undefined) text = view.turn === ctx.seat ? t.yourTurn : fill(t.turnOf, { name: who(view.turn) });
    else if (Number.isInteger(view.opens)) text = view.opens === ctx.seat ? t.opensMe : fill(t.opensOther, { name: who(view.opens) });
    else text = ctx.send ? t.turnHidden : `${watchingWords(ctx, t.spectator)} — ${t.turnHidden}`;
    const extra = [];
    if (!view.finished && now !== null) {
      if (view.paused_until_ms && now < view.paused_until_ms) extra.push(fill(t.pause, { s: ((view.paused_until_ms - now) / 1000).toFixed(1) }));
      if (view.settle_until_ms && now < view.settle_until_ms) extra.push(t.settling);
    }
    // fair races: a challenge is judged for up to the table's lag cap; the box stands still meanwhile
    if (!view.finished && view.race) extra.push(t.judging);
    statusLine.textContent = [text, ...extra].join(" · ");
    statusLine.dataset.paused = extra.length ? "true" : "false";
  }

  function drawPrompt() {
    let text = "";
    const playing = ctx.send && ctx.seat !== null && ctx.seat !== undefined && !view.finished;
    if (playing && (view.waiting_choice === null || view.waiting_choice === undefined)) {
      const turn = Number.isInteger(view.turn) ? view.turn : null;
      if (Number.isInteger(view.opens)) text = view.opens === ctx.seat ? t.promptOpensMe : fill(t.promptOpensOther, { name: who(view.opens) });
      else if (turn !== null) text = turn === ctx.seat ? t.promptMyTurn : fill(t.promptOther, { name: who(turn) });
      else if ((view.box || []).length) text = t.promptRead;
    }
    promptLine.textContent = text;
    promptLine.hidden = !text;
  }

  function drawControls() {
    controls.replaceChildren();
    if (!ctx.send || view.finished || ctx.seat === null || ctx.seat === undefined) return;
    const mine = view.seats[ctx.seat];
    if (!mine) return;
    if (view.waiting_choice === ctx.seat) {
      const group = el("div", { class: "zack-choose", role: "group", "aria-label": t.choose }, el("span", { class: "zack-hint" }, t.choose, el("small", { class: "key-hint", text: ` (${fill(t.chooseKeys, { n: view.seats.length })})` })));
      view.seats.forEach((row, k) => {
        group.append(el("button", { type: "button", class: "zack-colour-button", "data-testid": `choose-${row.colour}`, style: `--hue:${HUES[row.colour]}`,
          disabled: !legalOf(view, "choose", { colour: row.colour }),
          onclick: () => ctx.send({ kind: "choose", colour: row.colour }) },
        el("span", { class: "zack-symbol", text: SYMBOLS[row.colour] }), el("span", { text: ` ${k + 1} · ${nameOf(row.seat)}` })));
      });
      controls.append(group);
      return;
    }
    // Enabled exactly when the view lists the action (a card out of turn and a false challenge included).
    const throwButton = el("button", { type: "button", class: "zack-throw", "data-testid": "throw", disabled: !legalOf(view, "throw"), onclick: doThrow },
      el("span", { text: t.throw }), el("small", { text: t.throwKey }));
    const colourButton = el("button", { type: "button", class: `zack-colour${mine.pile === 0 ? " urgent" : ""}`, "data-testid": "colour",
      disabled: !legalOf(view, "colour"), style: `--hue:${HUES[mine.colour]}`, onclick: doColour },
    el("span", { class: "zack-symbol", text: SYMBOLS[mine.colour] }), el("span", { text: ` ${t.colourCard}` }), el("small", { text: t.colourKey }));
    const challenges = el("div", { class: "zack-challenges", role: "group", "aria-label": t.challenge },
      el("span", { class: "zack-hint" }, t.challenge, el("small", { class: "key-hint", text: ` (${fill(t.challengeKeys, { n: view.seats.length - 1 })})` })));
    opponents().forEach((seat, k) => {
      const colour = view.seats[seat].colour;
      challenges.append(el("button", { type: "button", class: "zack-challenge", "data-testid": `challenge-${colour}`, style: `--hue:${HUES[colour]}`,
        title: `${t.challenge}: ${nameOf(seat)}`, disabled: !legalOf(view, "challenge", { target: colour }), onclick: () => doChallenge(colour) },
      el("span", { class: "zack-symbol", text: SYMBOLS[colour] }), el("span", { text: ` ${k + 1} · ${nameOf(seat)}` })));
    });
    controls.append(el("div", { class: "zack-main-buttons" }, throwButton, colourButton), challenges);
    if (mine.pile === 0) controls.append(el("p", { class: "zack-hint urgent", text: t.noCards }));
  }

  function drawFeedback() {
    const now = Date.now();
    feedback = feedback.filter((f) => now - f.at < FADE_MS);
    feedbackBox.replaceChildren(...feedback.slice(-6).reverse().map((f) => el("li", { class: `zack-fb ${f.kind}`, text: f.text })));
    if (banner && now < banner.until) {
      bannerBox.textContent = banner.text;
      bannerBox.dataset.kind = banner.kind;
      bannerBox.hidden = false;
    } else {
      bannerBox.textContent = "";
      bannerBox.hidden = true;
    }
  }

  function drawOutcome() {
    outcomeBox.replaceChildren();
    if (!view.finished || !view.outcome) return;
    const rows = (view.outcome.placements || []).map((p) => {
      const left = view.seats[p.seat] ? view.seats[p.seat].pile : "";
      const oot = view.out_of_turn ? view.out_of_turn[p.seat] : "";
      return el("tr", { "data-testid": `place-${p.seat}` }, el("td", { text: p.place }), el("td", { text: who(p.seat) }), el("td", { text: left }), el("td", { text: oot }));
    });
    outcomeBox.append(el("h3", { text: t.finished }),
      el("table", { class: "zack-results" },
        el("thead", {}, el("tr", {}, el("th", { text: t.place }), el("th", { text: t.player }), el("th", { text: t.left }), el("th", { text: t.outOfTurn }))),
        el("tbody", {}, ...rows)));
  }

  // The outcome's winner: the seat that emptied its pile, unless its player resigned (placed last: games/kit/resignation.py).
  function winnerSeat() {
    const w = view.outcome && view.outcome.winners;
    return w && w.length ? w[0] : view.winner;
  }

  function draw() {
    if (!view || !Array.isArray(view.seats)) return;
    frame.dataset.finished = view.finished ? "true" : "false";
    drawSeats();
    drawBox();
    drawStatus();
    drawPrompt();
    drawControls();
    drawFeedback();
    drawOutcome();
  }

  // --- events as transient feedback -----------------------------------------------------------

  function note(text, kind, big) {
    feedback.push({ text, kind, at: Date.now() });
    if (big) banner = { text, kind, until: Date.now() + 3000 };
  }

  function describe(e) {
    const d = e.data || {};
    switch (e.kind) {
      case "challenged": {
        const values = { by: who(d.by), target: who(d.target_seat), taker: who(d.taker), next: who(d.next), cards: cardCount(t, d.cards_taken) };
        const key = d.result === "success" ? (d.reason === "wrong_turn" ? "chSuccessWrong" : "chSuccessSlow") : "chFail";
        note(fill(t[key], values), d.result === "success" ? "good" : "bad", true);
        break;
      }
      case "returned": {
        const values = { name: who(e.seat), why: t[`why_${d.why}`] || d.why };
        note(fill(d.card ? t.retCard : d.challenge ? t.retChallenge : t.retColour, values), "info", false);
        break;
      }
      case "thrown":
        if (d.card && String(d.card.face).startsWith("stop_")) note(fill(t.stopCard, { name: who(e.seat), face: t.faces[d.card.face] }), "stop", true);
        break;
      case "chosen":
        note(d.by_timer ? fill(t.chosenTimer, { name: who(d.target_seat) })
          : fill(t.chosen, { name: who(e.seat), colour: t.colours[d.colour] || d.colour, target: who(d.target_seat) }), "stop", true);
        break;
      case "colours_passed":
        note(t.passed, "stop", true);
        break;
      case "colour_thrown":
        // A resigned player's seat, played on by a bot, may empty it first: the match ends, but that player is placed last.
        if (d.win && ((view && view.outcome && view.outcome.resigned) || []).includes(e.seat)) note(fill(t.wonResigned, { name: who(e.seat) }), "stop", true);
        else note(fill(d.win ? t.won : t.colourError, { name: who(e.seat) }), d.win ? "good" : "bad", true);
        break;
      default:
        break;
    }
  }

  // --- actions ----------------------------------------------------------------------------------

  function opponents() {
    if (!view || ctx.seat === null || ctx.seat === undefined) return [];
    const n = view.seats.length;
    const out = [];
    for (let k = 1; k < n; k++) out.push((ctx.seat + k) % n); // from my left, clockwise
    return out;
  }

  function canAct() {
    if (view && view.race && (view.race.claims || []).some((c) => c.seat === ctx.seat)) return false; // my claim is being judged
    return Boolean(ctx.send && view && !view.finished && ctx.seat !== null && ctx.seat !== undefined && view.seats[ctx.seat]);
  }

  function doThrow() {
    if (canAct() && legalOf(view, "throw")) ctx.send({ kind: "throw" });
  }

  function doColour() {
    if (canAct() && legalOf(view, "colour")) ctx.send({ kind: "colour" });
  }

  function doChallenge(colour) {
    if (canAct() && legalOf(view, "challenge", { target: colour })) ctx.send({ kind: "challenge", target: colour });
  }

  function onKey(ev) {
    const target = ev.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT" || target.isContentEditable)) return;
    // a button reached with the keyboard (Tab) is pressed by space/Enter as usual
    if (target && target.tagName === "BUTTON" && (ev.key === " " || ev.key === "Enter")) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey || !canAct()) return;
    if (ev.key === " " || ev.code === "Space") {
      ev.preventDefault();
      if (!ev.repeat) doThrow();
      return;
    }
    if (/^[1-6]$/.test(ev.key)) {
      const k = Number(ev.key) - 1;
      if (view.waiting_choice === ctx.seat) {
        const row = view.seats[k];
        if (row && legalOf(view, "choose", { colour: row.colour })) ctx.send({ kind: "choose", colour: row.colour });
      } else {
        const seat = opponents()[k];
        if (seat !== undefined) doChallenge(view.seats[seat].colour);
      }
      ev.preventDefault();
      return;
    }
    if (ev.key === "c" || ev.key === "C") {
      ev.preventDefault();
      doColour();
    }
  }

  function tick() {
    if (!view) return;
    drawStatus();
    drawFeedback();
  }

  function update(newView, events) {
    for (const e of events || []) {
      if (typeof e.t_ms === "number") clockOffset = Date.now() - e.t_ms;
    }
    view = newView;
    for (const e of events || []) if (e && e.kind) describe(e);
    draw();
    if (!ticker) ticker = setInterval(tick, 250);
  }

  function destroy() {
    document.removeEventListener("keydown", onKey);
    if (ticker) clearInterval(ticker);
    ticker = null;
    root.replaceChildren();
  }

  return api;
}
