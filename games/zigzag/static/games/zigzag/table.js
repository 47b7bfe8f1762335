// ZIGZAG live table renderer: draws the whole table from a `view`; events only add transient feedback.
// Plain ES module on static/platform/kit.js (the renderer contract is documented there); untrusted text (usernames)
// is only ever set with textContent. Words: the djangojs catalogue, in the table below.
// Exchange: click a hand card, then a centre card. STOP / Z: click the card in your hand, then a player, then a centre card.

import { el, fill, kindIn, kindWords, legalOf, svg, WORDS } from "../../platform/kit.js";
import { registerFeedback } from "../../platform/feedback_hooks.js";

// The table's sounds and flashes for this game's events (static/platform/feedback_hooks.js).
registerFeedback("zigzag", {
  sounds: { countered: "challenge", exchanged: "flip", opened: "flip", stopped: "flip", z_played: "flip" },
  landed: "[data-testid=centre] .zigzag-card:last-child",
  pile: (seat) => `[data-testid=player-${seat}]`,
});

const STRINGS = {
  ...WORDS,
  manche: gettext("Deal {n}"),
  tour: gettext("round {n}"),
  timer: gettext("{s} left"),
  partner: gettext("partner"),
  team: gettext("Team {n}"),
  yourTeam: gettext("your team"),
  opened: gettext("opened"),
  notOpened: gettext("not opened"),
  passed: gettext("passed"),
  starting: gettext("starting card"),
  centre: gettext("Centre"),
  centreEmpty: gettext("The centre is empty"),
  yourHand: gettext("Your hand"),
  handOf: gettext("{name}'s hand"),
  handClass: {
    none: gettext("no combination"),
    zig: gettext("ZIG in hand"),
    zag: gettext("ZAG in hand"),
  },
  open: gettext("Open with this card"),
  openHint: gettext("Pick a card to discard, then open (key O)"),
  openHintTouch: gettext("Tap a card to discard, then tap Open"),
  pass: gettext("Pass"),
  signZig: gettext("Sign ZIG"),
  signZag: gettext("Sign ZAG"),
  announce: gettext("Announce"),
  counter: gettext("Counter team {n}"),
  fills: gettext("fills"),
  auto: gettext("first missing"),
  pickTarget: gettext("Now click a centre card to exchange it, or first a player to play your {card}"),
  pickTake: gettext("Now click a centre card to take"),
  pickCentre: gettext("Now click a centre card to exchange"),
  drawPile: gettext("Draw pile: {n}"),
  discardPile: gettext("Discard: {n}"),
  sheet: gettext("Score sheet"),
  failed: gettext("failed counters"),
  signed: gettext("made a sign"),
  signedTo: gettext("signs {sign}"),
  stale: gettext("(older than the hand)"),
  armed: gettext("Secret sign {sign}: it goes with your next exchange, STOP, Z or pass"),
  bonusUsed: gettext("Double ZAG already made"),
  scored: gettext("already scored: announcing it again is false"),
  judging: gettext("judging…"),
  claimed: gettext("claimed"),
  raceLost: gettext("{name} was quicker: {card} goes to them, you keep your cards."),
  raceTooSoon: gettext("Too soon: {card} stays in the centre, you keep your cards and may not take this card while it lies there."),
  combos: {
    zig: gettext("ZIG"),
    zag: gettext("ZAG"),
    double_zig: gettext("Double ZIG"),
    zigzag: gettext("ZIGZAG"),
    double_zag: gettext("Double ZAG"),
  },
  features: {
    landscape: gettext("landscape"),
    character: gettext("character"),
    attitude: gettext("attitude"),
  },
  values: {
    pink: gettext("pink"),
    blue: gettext("blue"),
    green: gettext("green"),
    yellow: gettext("yellow"),
    water: gettext("water"),
    flame: gettext("flame"),
    cloud: gettext("cloud"),
    tree: gettext("tree"),
    cocktail: gettext("cocktail"),
    running: gettext("running"),
    sunglasses: gettext("sunglasses"),
    suitcase: gettext("suitcase"),
  },
  joker: gettext("Joker"),
  stop: gettext("STOP"),
  z: gettext("Z"),
  back: gettext("face-down card"),
  evSign: gettext("{name} signs {sign} to you."),
  evSignSeen: gettext("{name} made a sign."),
  evAnnounceOk: gettext("{name} announces {combo}: correct! {team} scores {scores}."),
  evAnnounceBad: gettext("{name} announces {combo}: false — both hands are replaced."),
  evAnnounceScored: gettext("{name} announces {combo}: already scored — false, both hands are replaced."),
  evCounterOk: gettext("{name} counters {team}: confirmed — their hands are replaced."),
  evCounterBad: gettext("{name} counters {team}: failed! Proof shown ({n}/3 failed)."),
  evStop: gettext("{name} lays a STOP ({feature}) before {target}."),
  evZ: gettext("{name} plays a Z: the STOPs before {target} are gone."),
  evTourPassed: gettext("Everyone passed: the centre is discarded, a new round begins."),
  evTourTimer: gettext("Time is up: the centre is discarded, a new round begins."),
  evManche: gettext("New deal: the cards are dealt again."),
  evReshuffle: gettext("The discard pile is reshuffled into the draw pile."),
  evFinished: gettext("Match over — {team} wins!"),
  reveal: gettext("Shown cards"),
  proof: gettext("Proof of {name}"),
  handOf: gettext("Hand of {name}"),
  winner: gettext("Winners"),
  keys: gettext("Keys: 1–4 hand card, Q–Y centre card, O open, P pass, S/D sign, Esc cancel"),
  startShort: gettext("start"),
  notCounted: gettext("STOP: {list} not counted"),
  holds: gettext("holds {combo}"),
  holdsNone: gettext("holds nothing"),
  xray: gettext("Replay: every hand, starting card and sign is face up"),
  now: gettext("now"),
  ev: {
    dealt: gettext("Deal {m}: four cards are dealt to each player."),
    tourStarted: gettext("Round {t}: a face-down starting card lies before every player."),
    timer: gettext("The round ends after {s} s at the latest."),
    opened: gettext("{name} opens: discards {card} and takes {took}."),
    startingCard: gettext("the starting card"),
    exchanged: gettext("{name} gives {give} and takes {take} from the centre."),
    stopped: gettext("{name} lays a STOP ({feature}) before {target} and takes {take}."),
    z: gettext("{name} plays a Z for {target}: the STOPs there are removed; takes {take}."),
    passed: gettext("{name} passes."),
    signalled: gettext("{name} signs {sign} to {partner}."),
    signalledHidden: gettext("{name} makes a sign to {partner}."),
    announcedOk: gettext("{name} announces {combo}: correct, {team} scores {scores}."),
    announcedBad: gettext("{name} announces {combo}: false, {team} replaces both hands."),
    announcedScored: gettext("{name} announces {combo}: already scored, so false; {team} replaces both hands."),
    counterOk: gettext("{name} counters {team}: confirmed, their hands are replaced."),
    counterBad: gettext("{name} counters {team}: failed, the proof is shown ({n}/3 failed counters)."),
    handsReplaced: gettext("{team} discards both hands and draws four new cards each."),
    reshuffled: (v) => ngettext("The discard pile ({n} card) is shuffled into the draw pile.", "The discard pile ({n} cards) is shuffled into the draw pile.", v.n),
    tourEndedPassed: gettext("Round {t} ends: everyone passed, the centre is discarded."),
    tourEndedTimer: gettext("Round {t} ends: time is up, the centre is discarded."),
    mancheEnded: gettext("Deal {m} goes to {team}: {combo}."),
    mancheEndedBonus: gettext("Deal {m} goes to {team}: Double ZAG fills {combo}."),
    finished: gettext("Match over: {team} wins."),
    raceClaimed: gettext("{name} reaches for {card} ({ms} ms after it came)."),
    raceSettled: (v) => ngettext("{name} wins the race for {card} ({n} claim).", "{name} wins the race for {card} ({n} claims).", v.n),
    aCard: gettext("a card"),
  },
};

const COMBOS = ["zig", "zag", "double_zig", "zigzag"];
// The score sheet's short column heads on a phone: the card game's own notation, the same in every language.
const SHORT_COMBOS = { double_zig: "2×ZIG" };
const TEAM_SYMBOLS = ["●", "▲", "■"];
const CENTRE_KEYS = "qwerty";

// Simple 24×24 icons: [filled path, stroked path]
const ICONS = {
  water: ["M12 2C12 2 5 10 5 15a7 7 0 0 0 14 0C19 10 12 2 12 2z", ""],
  flame: ["M12 2c2 5 6 7 6 12a6 6 0 0 1-12 0c0-3 2-5 3-7 0 3 2 4 3 4 0-3-2-6 0-9z", ""],
  cloud: ["M7 18a4 4 0 0 1 0-8 5 5 0 0 1 9.5-1.5A4 4 0 0 1 18 18z", ""],
  tree: ["M12 2l7 12H5zM10.5 14h3v7h-3z", ""],
  cocktail: ["M4 4h16l-8 9zM11 13h2v6h3v2H8v-2h3z", ""],
  running: ["M14 3a2 2 0 1 1 0 .1z", "M13 7l-3 5 4 3-2 6M10 12l-4 1M14 15l4-1M13 7l4 3"],
  sunglasses: ["M3 9h7v3a3 3 0 0 1-7 0zM14 9h7v3a3 3 0 0 1-7 0z", "M10 10h4M2 9h20"],
  suitcase: ["M4 8h16v12H4z", "M9 8V5h6v3M4 13h16"],
  joker: ["M12 2l2.9 6.3 6.9.7-5.2 4.6 1.5 6.8L12 17l-6.1 3.4 1.5-6.8L2.2 9l6.9-.7z", ""],
};

function icon(name, label) {
  const [fill, stroke] = ICONS[name] || ["", ""];
  return svg("svg", { viewBox: "0 0 24 24", class: `zigzag-icon zigzag-icon-${name}`, role: "img", "aria-label": label },
    fill ? svg("path", { d: fill }) : null, stroke ? svg("path", { d: stroke, class: "zigzag-stroke" }) : null);
}

// Seat names: several bots of one level share an account name, so a repeated name gets its seat number (as in the seat list).
function seatNamer(players, S) {
  const list = players || [];
  return (seat) => {
    const p = list.find((x) => x.seat === seat);
    if (!p) return fill(S.seat, { n: seat }); // numbered from 0 like the platform's seat list
    return list.filter((x) => x.username === p.username).length > 1 ? `${p.username} #${seat}` : p.username;
  };
}

function cardText(S, card) {
  if (!card || card.hidden || card.id === undefined) return S.ev.aCard;
  if (card.face === "character") return `${S.values[card.landscape]} · ${S.values[card.character]} · ${S.values[card.attitude]}`;
  if (card.face === "joker") return S.joker;
  if (card.face === "z") return S.z;
  const feature = String(card.face).replace("stop_", "");
  return `${S.stop} (${S.features[feature] || feature})`;
}

// The replay's ★ stops: announcements, counters, STOPs and Zs, hands replaced, a hand's end.
export const isImportant = kindIn(["announced", "countered", "stopped", "z_played", "hands_replaced", "manche_ended"]);

// One short sentence per event for the replay's event list (plain text: the caller sets it with textContent).
export function describeEvent(event, players) {
  const S = STRINGS;
  const E = S.ev;
  const d = (event && event.data) || {};
  const name = seatNamer(players, S);
  const seats = Number(d.seats) || (players || []).length || 4;
  const who = (seat) => (Number.isInteger(seat) ? name(seat) : "?");
  const team = (t) => `${TEAM_SYMBOLS[t] || ""} ${fill(S.team, { n: t + 1 })} (${[t, t + seats / 2].map(who).join(" & ")})`;
  const combo = (c) => S.combos[c] || String(c || "");
  const nm = who(event.seat);
  const line = sentence();
  // A sign riding on a move (secret signs): the move's sentence, then the sign's, where the event carries it.
  const sig = d.signal;
  if (!sig || typeof sig !== "object") return line;
  return `${line} ${fill(sig.sign ? E.signalled : E.signalledHidden, { name: nm, sign: combo(sig.sign), partner: who(sig.partner) })}`;

  function sentence() {
    switch (event.kind) {
      case "dealt":
        return fill(E.dealt, { m: d.manche });
      case "tour_started":
        return fill(E.tourStarted, { t: d.tour });
      case "timer":
        return fill(E.timer, { s: Math.round((Number(d.due_ms) - Number(event.t_ms || 0)) / 1000) });
      case "opened":
        return fill(E.opened, { name: nm, card: cardText(S, d.card), took: d.took && !d.took.hidden ? cardText(S, d.took) : E.startingCard });
      case "exchanged":
        return fill(E.exchanged, { name: nm, give: cardText(S, d.give), take: cardText(S, d.take) });
      case "race_claimed": {
        const c = d.claim || {};
        return fill(E.raceClaimed, { name: nm, card: cardText(S, c.take), ms: Number(c.reaction_ms) || 0 });
      }
      case "race_settled": {
        const n = (d.ranking || []).length;
        return fill(typeof E.raceSettled === "function" ? E.raceSettled({ n }) : E.raceSettled, { name: who(d.winner), card: cardText(S, d.take), n });
      }
      case "stopped": {
        const feature = String((d.card && d.card.face) || "").replace("stop_", "");
        return fill(E.stopped, { name: nm, feature: S.features[feature] || feature, target: who(d.target), take: cardText(S, d.take) });
      }
      case "z_played":
        return fill(E.z, { name: nm, target: who(d.target), take: cardText(S, d.take) });
      case "passed":
        return fill(E.passed, { name: nm });
      case "signalled":
        return fill(d.sign ? E.signalled : E.signalledHidden, { name: nm, sign: combo(d.sign), partner: who(d.partner) });
      case "announced": {
        const key = d.correct ? "announcedOk" : d.reason === "already_scored" ? "announcedScored" : "announcedBad";
        const said = d.fills ? `${combo(d.combo)} (${S.fills} ${combo(d.fills)})` : combo(d.combo);
        return fill(E[key], { name: nm, combo: said, team: team(d.team), scores: combo(d.scores) });
      }
      case "countered":
        return fill(d.confirmed ? E.counterOk : E.counterBad, { name: nm, team: team(d.team), n: d.failed });
      case "hands_replaced":
        return fill(E.handsReplaced, { team: team(d.team) });
      case "reshuffled":
        return fill(E.reshuffled, { n: d.count });
      case "tour_ended":
        return fill(d.reason === "timer" ? E.tourEndedTimer : E.tourEndedPassed, { t: d.tour });
      case "manche_ended":
        return fill(d.bonus ? E.mancheEndedBonus : E.mancheEnded, { m: d.manche, team: team(d.team), combo: combo(d.combo) });
      case "finished": {
        const winners = (d.outcome && d.outcome.winners) || [];
        return winners.length ? fill(E.finished, { team: team(winners[0] % (seats / 2)) }) : S.finished;
      }
      default:
        return kindWords(event, who);
    }
  }
}

export function createRenderer(root, ctx) {
  const S = STRINGS;
  const fmt = fill;
  const api = { update, destroy, players: ctx.players || [] };
  let view = null;
  let selected = null; // hand card id
  let special = null; // {card, kind: "stop"|"z", target}
  let fills = "";
  let messages = []; // [{text, until}]
  let shown = null; // {title, groups: [{label, cards}], until}
  let offset = null; // Date.now() - match ms: from hello's now_ms, then from each event's t_ms
  let frozenAt = null; // replay: match ms of the latest event drawn
  // Secret signs (option signals_seen off): a sign cannot be sent on its own, it rides on my next move that
  // shows me the hand it describes (exchange, STOP, Z, pass; not the opening). `armed` is that sign, until my
  // own sign in the view changes to it (`armedFrom`: my sign as it stood when armed).
  let armed = null;
  let armedFrom = null;
  const interactive = typeof ctx.send === "function";

  root.textContent = "";
  root.classList.add("zigzag-root");
  const header = el("div", { class: "zigzag-header" });
  const others = el("div", { class: "zigzag-others", "data-testid": "others" });
  const middle = el("div", { class: "zigzag-middle" });
  const mine = el("div", { class: "zigzag-mine" });
  const controls = el("div", { class: "zigzag-controls" });
  const feedback = el("ul", { class: "zigzag-feedback", "data-testid": "feedback", "aria-live": "polite" });
  const reveal = el("div", { class: "zigzag-reveal", "data-testid": "reveal", role: "region", "aria-label": S.reveal });
  const sheet = el("div", { class: "zigzag-sheet", "data-testid": "score-sheet" });
  // The shown cards sit below the controls: a reveal must never push the hand away from under the mouse.
  root.append(header, others, middle, mine, controls, feedback, reveal, sheet);

  function name(seat) {
    const base = seatNamer(api.players, S)(seat);
    return view && seat === view.seat && ctx.send ? `${base} (${S.you})` : base; // a seat's replay is not "you"
  }
  function startingNode(s) {
    const card = view.starting_cards && view.starting_cards[s];
    const node = card ? cardNode(card) : el("div", { class: "zigzag-card zigzag-back", role: "img", "aria-label": S.starting });
    node.classList.add("zigzag-starting");
    node.setAttribute("title", S.starting);
    node.append(el("span", { class: "zigzag-start-tag", text: S.startShort }));
    return node;
  }
  function stopsRow(s) {
    const stops = view.stops[String(s)] || [];
    if (!stops.length) return null;
    const row = el("div", { class: "zigzag-stops", "data-testid": `stops-${s}` });
    for (const c of stops) row.append(cardNode(c));
    const features = [...new Set(stops.map((c) => String(c.face).replace("stop_", "")))].map((f) => S.features[f] || f);
    row.append(el("span", { class: "zigzag-forbidden", text: fmt(S.notCounted, { list: features.join(", ") }) }));
    return row;
  }
  function teamName(t) {
    return `${TEAM_SYMBOLS[t] || ""} ${fmt(S.team, { n: t + 1 })}`;
  }
  function act(action) {
    if (interactive) ctx.send(action);
  }
  function secretSigns() {
    return !!view && !!view.options && view.options.signals_seen === false;
  }
  function mySign() {
    return view && view.seat !== null ? view.signals[String(view.seat)] || null : null;
  }
  function sign(which) {
    if (!secretSigns()) {
      act({ kind: "signal", sign: which });
      return;
    }
    armed = armed === which ? null : which;
    armedFrom = JSON.stringify(mySign());
    render();
  }
  function move(action) {
    act(armed ? { ...action, sign: armed } : action);
  }
  function bonusUsed() {
    return !!view && view.team !== null && view.team !== undefined && view.teams[view.team].bonus.length > 0;
  }
  function say(text) {
    messages.push({ text, until: Date.now() + 10000 });
    messages = messages.slice(-6);
  }

  function cardNode(card, opts = {}) {
    // a card that is not a button is a labelled picture (an aria-label needs a role: axe aria-prohibited-attr)
    const attrs = { class: "zigzag-card", "data-testid": opts.testid || null, tabindex: opts.onclick ? 0 : null, role: opts.onclick ? "button" : "img" };
    if (!card || card.hidden || card.id === undefined) {
      const back = el("div", { ...attrs, class: "zigzag-card zigzag-back", title: S.back, "aria-label": S.back });
      return back;
    }
    let node;
    if (card.face === "character") {
      const label = `${S.values[card.landscape]} · ${S.values[card.character]} · ${S.values[card.attitude]}`;
      node = el("div", { ...attrs, class: `zigzag-card zigzag-char zigzag-land-${card.landscape}`, title: label, "aria-label": label });
      node.append(el("span", { class: "zigzag-land-name", text: S.values[card.landscape] }), " ");
      node.append(el("span", { class: "zigzag-char-icon" }, icon(card.character, S.values[card.character])), " ");
      node.append(el("span", { class: "zigzag-att-icon" }, icon(card.attitude, S.values[card.attitude])));
    } else if (card.face === "joker") {
      node = el("div", { ...attrs, class: "zigzag-card zigzag-joker", title: S.joker, "aria-label": S.joker });
      node.append(icon("joker", S.joker), el("span", { class: "zigzag-special-name", text: S.joker }));
    } else if (card.face === "z") {
      node = el("div", { ...attrs, class: "zigzag-card zigzag-z", title: S.z, "aria-label": S.z });
      node.append(el("span", { class: "zigzag-z-letter", text: "Z" }));
    } else {
      const feature = String(card.face).replace("stop_", "");
      const label = `${S.stop} · ${S.features[feature] || feature}`;
      node = el("div", { ...attrs, class: `zigzag-card zigzag-stop zigzag-stop-${feature}`, title: label, "aria-label": label });
      node.append(el("span", { class: "zigzag-stop-word", text: S.stop }), " ", el("span", { class: "zigzag-special-name", text: S.features[feature] || feature }));
    }
    // A card you can press is named by what it shows (its words and its pictures' names, in the order shown), so
    // a voice user says what they see (WCAG 2.5.3 label in name); only a picture keeps a label of its own.
    if (opts.onclick && node.textContent.trim()) node.removeAttribute("aria-label");
    if (opts.selected) node.classList.add("zigzag-selected");
    if (opts.onclick) {
      node.addEventListener("click", opts.onclick);
      node.addEventListener("keydown", (e) => {
        if (e.key === "Enter") opts.onclick();
      });
    }
    return node;
  }

  function myOpened() {
    return view && view.seat !== null && !view.starting[view.seat];
  }

  function clickHand(id) {
    if (!interactive || !view || view.finished) return;
    const card = view.hand.find((c) => c.id === id);
    if (!card) return;
    // A selected STOP or Z may still be exchanged like any card (click a centre card), or played: click a player first.
    const isSpecial = card.face === "stop_landscape" || card.face === "stop_character" || card.face === "stop_attitude" || card.face === "z";
    selected = selected === id ? null : id;
    special = selected !== null && isSpecial && myOpened() ? { card: id, kind: card.face === "z" ? "z" : "stop", target: null } : null;
    render();
  }
  function clickCentre(id) {
    if (!interactive || !view || view.finished || !myOpened()) return;
    if (special && special.target !== null) {
      move({ kind: special.kind, card: special.card, target: special.target, take: id });
      special = null;
      selected = null;
    } else if (selected !== null) {
      move({ kind: "exchange", give: selected, take: id });
      selected = null;
      special = null;
    }
    render();
  }
  function clickSeat(seat) {
    if (!special || !view) return;
    const mineTeam = view.team;
    const theirs = seat % (view.seats / 2);
    if ((special.kind === "stop" && theirs !== mineTeam) || (special.kind === "z" && theirs === mineTeam)) {
      special.target = seat;
      render();
    }
  }
  function openWith() {
    if (!interactive || !view || view.finished || myOpened() || view.seat === null) return;
    const card = selected !== null ? selected : null;
    if (card === null) return;
    act({ kind: "open", card });
    selected = null;
    render();
  }

  function seatPanel(s) {
    const v = view;
    const team = s % (v.seats / 2);
    const isPartner = s === v.partner;
    const targetable = special && ((special.kind === "stop" && team !== v.team) || (special.kind === "z" && team === v.team));
    const panel = el("div", {
      class: `zigzag-seat zigzag-team-${team}${isPartner ? " zigzag-partner" : ""}${targetable ? " zigzag-targetable" : ""}${special && special.target === s ? " zigzag-target" : ""}`,
      "data-testid": `player-${s}`,
      role: targetable ? "button" : null,
      tabindex: targetable ? 0 : null,
      onclick: targetable ? () => clickSeat(s) : null,
    });
    const title = el("div", { class: "zigzag-seat-title" });
    title.append(el("span", { class: "zigzag-team-mark", text: TEAM_SYMBOLS[team] || "", title: teamName(team) }), el("span", { class: "zigzag-name", text: name(s) }));
    if (isPartner) title.append(el("span", { class: "zigzag-badge", text: S.partner }));
    if (s === v.dealer) title.append(el("span", { class: "zigzag-badge zigzag-dealer", text: S.dealer }));
    if (v.hand_classes) title.append(el("span", { class: `zigzag-class zigzag-class-${v.hand_classes[s]}`, "data-testid": `class-${s}`, text: S.handClass[v.hand_classes[s]] || "" }));
    panel.append(title);
    const status = el("div", { class: "zigzag-status" });
    status.append(el("span", { class: "zigzag-badge", text: v.opened.includes(s) ? S.opened : S.notOpened }));
    if (v.passed.includes(s)) status.append(el("span", { class: "zigzag-badge zigzag-passed", text: S.passed }));
    const sig = v.signals[String(s)];
    if (sig) {
      const stale = sig.at < v.changed_at[s]; // equal: the sign rode on the move that made this hand
      const text = sig.sign ? fmt(S.signedTo, { sign: S.combos[sig.sign] }) : S.signed;
      status.append(el("span", {
        class: `zigzag-badge zigzag-sign${stale ? " zigzag-stale" : ""}`, "data-testid": `sign-${s}`, "data-sign": sig.sign || null, "data-stale": stale ? "1" : null,
        text: stale ? `${text} ${S.stale}` : text,
      }));
    }
    panel.append(status);
    const cards = el("div", { class: "zigzag-backs" });
    if (v.hands && v.hands[s]) for (const c of v.hands[s]) cards.append(cardNode(c));
    else for (let i = 0; i < v.hand_counts[s]; i++) cards.append(cardNode(null));
    if (v.starting[s]) cards.append(startingNode(s));
    panel.append(cards);
    const stops = stopsRow(s);
    if (stops) panel.append(stops);
    return panel;
  }

  function renderHeader() {
    header.textContent = "";
    const v = view;
    // Once over, the header says so: the deal and round it stopped at are no news (the results say who won).
    header.append(el("span", { class: "zigzag-title", "data-testid": "zigzag-title",
      text: v.finished ? S.finished : `${fmt(S.manche, { n: v.manche })} · ${fmt(S.tour, { n: v.tour })}` }));
    header.append(el("span", { class: "zigzag-timer", "data-testid": "tour-timer" }));
    header.append(el("span", { class: "zigzag-piles", text: `${fmt(S.drawPile, { n: v.draw_count })} · ${fmt(S.discardPile, { n: v.discard_count })}` }));
    if (v.seat === null && interactive === false && v.hands && !v.finished) header.append(el("span", { class: "zigzag-badge zigzag-xray", "data-testid": "xray-note", text: S.xray }));
    else if (v.seat === null) header.append(el("span", { class: "zigzag-badge", text: S.spectator }));
    tick();
  }

  function tick() {
    const node = header.querySelector(".zigzag-timer");
    if (!node || !view) return;
    // A replay (no socket) shows the time left at the event on screen, frozen; unknown after a jump.
    const now = interactive ? (offset === null ? null : Date.now() - offset) : frozenAt;
    if (view.finished || view.tour_due_ms === null || view.tour_due_ms === undefined || now === null) {
      node.textContent = "";
      return;
    }
    const left = Math.max(0, Math.ceil((view.tour_due_ms - now) / 1000));
    const clock = left >= 60 ? `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}` : `${left} s`;
    node.textContent = fmt(S.timer, { s: clock });
    node.classList.toggle("zigzag-hurry", left <= 10);
  }

  function renderOthers() {
    others.textContent = "";
    const v = view;
    const me = v.seat === null ? 0 : v.seat;
    const order = [];
    for (let i = v.seat === null ? 0 : 1; i < v.seats; i++) order.push((me + i) % v.seats);
    for (const s of order) others.append(seatPanel(s));
  }

  function renderMiddle() {
    middle.textContent = "";
    const v = view;
    middle.append(el("h3", { text: S.centre }));
    const row = el("div", { class: "zigzag-centre", "data-testid": "centre" });
    v.centre.forEach((c, i) => {
      const canTake = interactive && myOpened() && selected !== null;
      const node = cardNode(c, { testid: `centre-${c.id}`, onclick: canTake ? () => clickCentre(c.id) : null });
      if (interactive && v.seat !== null) node.append(el("kbd", { class: "zigzag-key", text: CENTRE_KEYS[i] || "" }));
      if (canTake) node.classList.add("zigzag-takeable");
      // a take being judged (fair races): the card stays here, contested, until its race is settled
      const race = (v.races || []).find((r) => r.take === c.id);
      if (race) {
        const mineToo = v.claim && v.claim.take === c.id;
        node.classList.add("zigzag-contested");
        node.dataset.contested = race.claimants.join(",");
        node.append(el("span", { class: "zigzag-contest-tag", "data-testid": `contested-${c.id}`, text: mineToo ? S.judging : S.claimed }));
      }
      row.append(node);
    });
    if (!v.centre.length) row.append(el("p", { class: "zigzag-empty", text: S.centreEmpty }));
    middle.append(row);
  }

  function renderMine() {
    mine.textContent = "";
    const v = view;
    if (v.seat === null) return;
    const title = el("h3", {});
    title.append(el("span", { class: "zigzag-team-mark", text: TEAM_SYMBOLS[v.team] || "" }), el("span", { text: ` ${ctx.send ? S.yourHand : fmt(S.handOf, { name: name(v.seat) })}` }));
    // the class of my own hand is the game's skill: named only with the beginner help (option hand_hint)
    if (v.hand_class && v.options && v.options.hand_hint) {
      title.append(el("span", { text: " — " }), el("span", { class: `zigzag-class zigzag-class-${v.hand_class}`, "data-testid": "hand-class", "data-class": v.hand_class, text: S.handClass[v.hand_class] || "" }));
    }
    mine.append(title);
    const row = el("div", { class: "zigzag-hand", "data-testid": "hand" });
    v.hand.forEach((c, i) => {
      const node = cardNode(c, { testid: `hand-${c.id}`, selected: selected === c.id, onclick: interactive ? () => clickHand(c.id) : null });
      if (interactive) node.append(el("kbd", { class: "zigzag-key", text: String(i + 1) }));
      row.append(node);
    });
    if (v.starting[v.seat]) {
      const start = startingNode(v.seat);
      start.dataset.testid = "my-starting";
      row.append(start);
    }
    mine.append(row);
    const stops = stopsRow(v.seat);
    if (stops) mine.append(stops);
    const status = el("div", { class: "zigzag-status" });
    if (v.passed.includes(v.seat)) status.append(el("span", { class: "zigzag-badge zigzag-passed", text: S.passed }));
    const sig = v.signals[String(v.seat)];
    if (sig && sig.sign) {
      const stale = sig.at < v.changed_at[v.seat];
      const text = fmt(S.signedTo, { sign: S.combos[sig.sign] });
      status.append(el("span", {
        class: `zigzag-badge zigzag-sign${stale ? " zigzag-stale" : ""}`, "data-testid": "my-sign", "data-sign": sig.sign, "data-stale": stale ? "1" : null,
        text: stale ? `${text} ${S.stale}` : text,
      }));
    }
    mine.append(status);
  }

  function renderControls() {
    controls.textContent = "";
    const v = view;
    if (!interactive || v.seat === null || v.finished) return;
    const hint = el("p", { class: "zigzag-hint", "data-testid": "hint" });
    if (!myOpened()) hint.textContent = document.documentElement.classList.contains("touch") ? S.openHintTouch : S.openHint;
    else if (special && special.target === null) {
      const card = v.hand.find((c) => c.id === special.card);
      hint.textContent = fmt(S.pickTarget, { card: card && card.face === "z" ? S.z : S.stop });
    } else if (special) hint.textContent = S.pickTake;
    else if (selected !== null) hint.textContent = S.pickCentre;
    controls.append(hint);
    if (armed) controls.append(el("p", { class: "zigzag-hint zigzag-armed-hint", "data-testid": "armed-sign", "data-sign": armed, text: fmt(S.armed, { sign: S.combos[armed] }) }));
    const row = el("div", { class: "zigzag-buttons" });
    // Enabled exactly when the view lists the action (a false announcement or counter included).
    if (!myOpened()) row.append(el("button", { "data-testid": "open", class: "zigzag-primary", text: S.open, disabled: selected === null || !legalOf(v, "open", { card: selected }), onclick: openWith }));
    else row.append(el("button", { "data-testid": "pass", class: "zigzag-primary", text: S.pass, disabled: !legalOf(v, "pass"), onclick: () => move({ kind: "pass" }) }));
    if (special && special.target === null) {
      for (let s = 0; s < v.seats; s++) {
        const mineTeam = s % (v.seats / 2) === v.team;
        if ((special.kind === "stop" && !mineTeam) || (special.kind === "z" && mineTeam)) {
          row.append(el("button", { "data-testid": `target-${s}`, class: "zigzag-target-btn", text: `→ ${name(s)}`, onclick: () => clickSeat(s) }));
        }
      }
    }
    if (selected !== null || special) row.append(el("button", { "data-testid": "cancel", text: S.cancel, onclick: () => { selected = null; special = null; render(); } }));
    for (const [which, text] of [["zig", S.signZig], ["zag", S.signZag]]) {
      row.append(el("button", {
        "data-testid": `sign-${which}`, class: `zigzag-signbtn${armed === which ? " zigzag-armed" : ""}`, text,
        "aria-pressed": secretSigns() ? String(armed === which) : null, onclick: () => sign(which),
        disabled: !secretSigns() && !legalOf(v, "signal", { sign: which }), // a secret sign rides on a move: it only arms
      }));
    }
    controls.append(row);
    const ann = el("div", { class: "zigzag-buttons zigzag-announce" });
    ann.append(el("span", { class: "zigzag-label", text: `${S.announce}:` }));
    const done = v.teams[v.team].scored;
    for (const c of [...COMBOS, "double_zag"]) {
      // a combination made once: announcing it again is false (a penalty), so its button is off, ticked as on the sheet
      const spent = c === "double_zag" ? bonusUsed() : done.includes(c);
      ann.append(el("button", {
        "data-testid": `announce-${c}`,
        class: spent ? "zigzag-scored" : null,
        text: spent ? `✓ ${S.combos[c]}` : S.combos[c],
        disabled: spent || !legalOf(v, "announce", { combo: c }), // spent: legal but a sure penalty, kept off
        title: spent ? (c === "double_zag" ? S.bonusUsed : S.scored) : null,
        onclick: () => act(c === "double_zag" && fills ? { kind: "announce", combo: c, fills } : { kind: "announce", combo: c }),
      }));
    }
    const select = el("select", { "data-testid": "fills", "aria-label": S.fills, disabled: bonusUsed() });
    select.append(el("option", { value: "", text: `${S.combos.double_zag} ${S.fills}: ${S.auto}` }));
    const scored = v.teams[v.team].scored;
    for (const c of COMBOS) if (!scored.includes(c)) select.append(el("option", { value: c, text: `${S.combos.double_zag} ${S.fills}: ${S.combos[c]}`, selected: fills === c }));
    select.value = scored.includes(fills) ? "" : fills;
    select.addEventListener("change", () => { fills = select.value; });
    ann.append(select);
    controls.append(ann);
    const ctr = el("div", { class: "zigzag-buttons zigzag-counters" });
    for (const t of v.teams) {
      if (t.team === v.team) continue;
      ctr.append(el("button", {
        "data-testid": `counter-${t.team}`,
        class: `zigzag-team-${t.team}`,
        text: `${TEAM_SYMBOLS[t.team] || ""} ${fmt(S.counter, { n: t.team + 1 })}`,
        disabled: !legalOf(v, "counter", { team: t.team }),
        onclick: () => act({ kind: "counter", team: t.team }),
      }));
    }
    controls.append(ctr);
    controls.append(el("p", { class: "zigzag-keys", text: S.keys }));
  }

  // A word and its short form for narrow screens (table.css shows one of the two): the short form is the
  // sheet's own notation, the same in every language ("2×ZIG", as the ticks already write "2×ZAG").
  function shortOnPhones(full, short) {
    if (!short || short === full) return [full];
    return [el("span", { class: "zigzag-full", text: full }), el("span", { class: "zigzag-short", text: short })];
  }

  function renderSheet() {
    sheet.textContent = "";
    const v = view;
    sheet.append(el("h3", { text: S.sheet }));
    const table = el("table", {});
    const head = el("tr", {}, el("th", { text: "" }));
    for (const c of COMBOS) head.append(el("th", {}, ...shortOnPhones(S.combos[c], SHORT_COMBOS[c])));
    head.append(el("th", { text: S.failed }));
    if (v.team_combos) head.append(el("th", { text: S.now }));
    if (v.outcome) head.append(el("th", { text: S.place }));
    table.append(head);
    for (const t of v.teams) {
      const tr = el("tr", { class: `zigzag-team-${t.team}${t.team === v.team ? " zigzag-mine-row" : ""}`, "data-testid": `sheet-team-${t.team}` });
      // each name kept on one line ("Nora-bot" is not split at its hyphen); the line breaks between them
      const who = t.seats.flatMap((s, i) => [i ? " & " : "", el("span", { class: "zigzag-name", text: name(s) })]);
      tr.append(el("th", {}, `${teamName(t.team)}: `, ...who));
      for (const c of COMBOS) {
        const done = t.scored.includes(c);
        const bonus = t.bonus.includes(c);
        tr.append(el("td", { "data-testid": `sheet-${t.team}-${c}`, class: done ? "zigzag-done" : "", text: done ? (bonus ? "✓ (2×ZAG)" : "✓") : "—" }));
      }
      tr.append(el("td", { "data-testid": `sheet-${t.team}-failed`, text: `${"✗".repeat(t.failed_counters)}${"○".repeat(Math.max(0, 3 - t.failed_counters))}` }));
      if (v.team_combos) {
        const held = v.team_combos[t.team];
        // "holds Double ZIG": the combination's name kept on one line ("Doppel-ZIG" is not split at its hyphen)
        const [before, after = ""] = S.holds.split("{combo}");
        const holds = held ? [before, el("span", { class: "zigzag-name", text: S.combos[held] }), after] : [S.holdsNone];
        tr.append(el("td", { "data-testid": `sheet-${t.team}-now` }, ...holds));
      }
      if (v.outcome) {
        const p = v.outcome.placements.find((x) => x.seat === t.seats[0]);
        tr.append(el("td", { text: p ? String(p.place) : "" }));
      }
      table.append(tr);
    }
    // On a phone the sheet keeps every word whole: what still does not fit scrolls inside this box, never the
    // page (a region of its own, reachable by keyboard, so its hidden part can be scrolled to).
    sheet.append(el("div", { class: "zigzag-sheet-scroll", role: "region", tabindex: "0", "aria-label": S.sheet }, table));
    if (v.finished) {
      const winners = (v.outcome && v.outcome.winners) || [];
      const text = winners.length ? fmt(S.evFinished, { team: teamName(winners[0] % (v.seats / 2)) }) : S.finished;
      sheet.append(el("p", { class: "zigzag-finished", "data-testid": "finished", text }));
    }
  }

  function renderReveal() {
    reveal.textContent = "";
    if (!shown || shown.until < Date.now()) return;
    reveal.append(el("h3", { text: shown.title }));
    for (const g of shown.groups) {
      const row = el("div", { class: "zigzag-reveal-row" }, el("span", { class: "zigzag-label", text: g.label }));
      for (const c of g.cards) row.append(cardNode(c));
      reveal.append(row);
    }
  }

  function renderFeedback() {
    feedback.textContent = "";
    const now = Date.now();
    messages = messages.filter((m) => m.until > now);
    for (const m of messages) feedback.append(el("li", { text: m.text }));
  }

  // Each part is rebuilt only when what it shows changed: the bots' moves elsewhere on the table must not
  // replace the card under a player's mouse between mousedown and mouseup (a lost click) or drop keyboard focus.
  const drawn = {};
  function changed(part, data) {
    const key = JSON.stringify(data);
    if (drawn[part] === key) return false;
    drawn[part] = key;
    return true;
  }

  function render() {
    if (!view) return;
    const v = view;
    if (selected !== null && !v.hand.some((c) => c.id === selected)) {
      selected = null;
      special = null;
    }
    const names = (api.players || []).map((p) => [p.seat, p.username]);
    const local = [selected, special, interactive, armed];
    const me = v.seat === null ? null : String(v.seat);
    if (changed("header", [v.manche, v.tour, v.draw_count, v.discard_count, v.seat, v.finished, !!v.hands])) renderHeader();
    else tick();
    if (changed("others", [v.hand_counts, v.starting, v.opened, v.passed, v.signals, v.changed_at, v.stops, v.hands, v.hand_classes, v.starting_cards, v.dealer, v.seat, special, names])) renderOthers();
    if (changed("middle", [v.centre, v.starting, v.seat, v.races, v.claim, local])) renderMiddle();
    if (changed("reveal", shown && shown.until >= Date.now() ? shown : null)) renderReveal();
    if (changed("mine", [v.hand, v.hand_class, v.options && v.options.hand_hint, v.seat, v.starting, v.starting_cards, me && v.stops[me], v.passed, me && v.signals[me], v.changed_at, local])) renderMine();
    if (changed("controls", [v.seat, v.finished, v.starting, v.passed, v.hand, v.teams, v.team, local, names])) renderControls();
    renderFeedback();
    if (changed("sheet", [v.teams, v.outcome, v.finished, v.team_combos, v.team, v.seat, names])) renderSheet();
  }

  function saySign(seat, sig) {
    if (view && seat !== view.seat) say(sig.sign ? fmt(S.evSign, { name: name(seat), sign: S.combos[sig.sign] }) : fmt(S.evSignSeen, { name: name(seat) }));
  }

  function describe(e) {
    const d = e.data || {};
    if (d.signal && typeof d.signal === "object") saySign(e.seat, d.signal); // a sign riding on a move
    switch (e.kind) {
      case "signalled":
        saySign(e.seat, d);
        break;
      case "race_settled": {
        const me = view ? view.seat : null;
        if (me !== null && d.winner !== me && (d.ranking || []).some((c) => c.seat === me)) {
          // winner null: every claim was an anticipation (rules [D floor]); the card stays, and it is barred to me
          const nobody = d.winner === null || d.winner === undefined;
          say(fmt(nobody ? S.raceTooSoon : S.raceLost, { name: nobody ? "" : name(d.winner), card: cardText(S, d.take) }));
        }
        break;
      }

      case "announced":
        if (d.correct) {
          const text = fmt(S.evAnnounceOk, { name: name(e.seat), combo: S.combos[d.combo], team: teamName(d.team), scores: S.combos[d.scores] });
          say(text);
          shown = { title: text, until: Date.now() + 20000, groups: Object.entries(d.hands || {}).map(([s, cards]) => ({ label: fmt(S.handOf, { name: name(Number(s)) }), cards })) };
        } else {
          say(fmt(d.reason === "already_scored" ? S.evAnnounceScored : S.evAnnounceBad, { name: name(e.seat), combo: S.combos[d.combo] }));
        }
        break;
      case "countered":
        if (d.confirmed) say(fmt(S.evCounterOk, { name: name(e.seat), team: teamName(d.team) }));
        else {
          const text = fmt(S.evCounterBad, { name: name(e.seat), team: teamName(d.team), n: d.failed });
          say(text);
          shown = { title: text, until: Date.now() + 20000, groups: Object.entries(d.proof || {}).map(([s, cards]) => ({ label: fmt(S.proof, { name: name(Number(s)) }), cards })) };
        }
        break;
      case "stopped":
        say(fmt(S.evStop, { name: name(e.seat), target: name(d.target), feature: S.features[String(d.card.face).replace("stop_", "")] || "" }));
        break;
      case "z_played":
        say(fmt(S.evZ, { name: name(e.seat), target: name(d.target) }));
        break;
      case "tour_ended":
        say(d.reason === "timer" ? S.evTourTimer : S.evTourPassed);
        break;
      case "dealt":
        if (d.manche > 1) say(S.evManche);
        break;
      case "reshuffled":
        say(S.evReshuffle);
        break;
      case "finished": {
        const w = (d.outcome && d.outcome.winners) || [];
        if (w.length && view) say(fmt(S.evFinished, { team: teamName(w[0] % (view.seats / 2)) }));
        break;
      }
      default:
        break;
    }
  }

  // meta: {now_ms} from the socket's hello (match time at connect) so the tour countdown runs before any event arrives.
  function update(v, events, meta) {
    view = v;
    if (armed) {
      const now = mySign();
      if ((now && now.sign === armed && JSON.stringify(now) !== armedFrom) || v.finished || v.seat === null) armed = null; // it rode
    }
    if (meta && typeof meta.now_ms === "number") offset = Date.now() - meta.now_ms;
    frozenAt = null;
    for (const e of events || []) {
      if (typeof e.t_ms === "number") {
        offset = Date.now() - e.t_ms;
        frozenAt = e.t_ms;
      }
      describe(e);
    }
    render();
  }

  function onKey(e) {
    const tag = (e.target && e.target.tagName) || "";
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || (e.target && e.target.isContentEditable)) return;
    if (!interactive || !view || view.seat === null || view.finished || e.ctrlKey || e.metaKey || e.altKey) return;
    const k = e.key.toLowerCase();
    if (k >= "1" && k <= "4") {
      const c = view.hand[Number(k) - 1];
      if (c) clickHand(c.id);
    } else if (k.length === 1 && CENTRE_KEYS.includes(k)) {
      const c = view.centre[CENTRE_KEYS.indexOf(k)];
      if (c) clickCentre(c.id);
    } else if (k === "o") openWith();
    else if (k === "p") {
      if (myOpened() && !view.passed.includes(view.seat)) move({ kind: "pass" });
    } else if (k === "s") sign("zig");
    else if (k === "d") sign("zag");
    else if (k === "escape") {
      selected = null;
      special = null;
      render();
    } else return;
    e.preventDefault();
  }

  document.addEventListener("keydown", onKey);
  const timer = setInterval(() => {
    tick();
    if (messages.length || shown) {
      renderFeedback();
      if (shown && shown.until < Date.now()) {
        shown = null;
        renderReveal();
      }
    }
  }, 250);

  function destroy() {
    document.removeEventListener("keydown", onKey);
    clearInterval(timer);
    root.textContent = "";
    root.classList.remove("zigzag-root");
  }

  return api;
}
