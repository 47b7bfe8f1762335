// Zwicker live table renderer: draws the whole table from a `view`, and uses the
// redacted `events` only for transient feedback (a looked-at card shown for
// `peek_ms`, what just happened in words). No framework and no HTML parsing: every
// text goes through textContent because usernames are untrusted.
// The renderer contract (createRenderer, describeEvent, isImportant) is documented in static/platform/kit.js.
import { el, fill, kindIn, kindWords, legalOf, seatName, watchingWords } from "../../platform/kit.js";
import { registerFeedback } from "../../platform/feedback_hooks.js";

// The table's sounds and flashes for this game's events (static/platform/feedback_hooks.js).
registerFeedback("zwicker", {
  sounds: {
    snap_wrong: "challenge", snapped: "smack",
    drawn: "flip", discarded: "flip", took_discard: "flip", replaced: "flip", swapped: "flip",
  },
  landed: "[data-testid=drawn-card]",
  pile: (seat) => `[data-testid=seat-${seat}]`,
  gains: (e) => (e.kind === "swapped" || e.kind === "snapped" ? e.seat : null),
  // Why the results card places a caller last (rules.py `outcome` reasons).
  reasons: {
    caller_tied: gettext("{name} called Zwicker, but another player has as few points: a tie does not win, so the caller is placed last."),
    caller_over_limit: gettext("{name} called Zwicker with more than {limit} points, so the caller is placed last."),
    caller_beaten: gettext("{name} called Zwicker, but another player has fewer points, so the caller is placed last."),
  },
});

const SUIT_SYMBOL = { clubs: "♣", diamonds: "♦", hearts: "♥", spades: "♠" };
const RED = new Set(["diamonds", "hearts"]);

// Every word comes from the djangojs catalogue of the page's language (locale/<lang>/LC_MESSAGES/djangojs.po,
// served by JavaScriptCatalog and loaded by base.html before this module): one file per language for translators.
const STR = {
  you: gettext("you"),
  seat: gettext("Seat {0}"),
  draw: gettext("Draw"),
  drawPile: gettext("Draw pile"),
  discardPile: gettext("Discard pile"),
  take: gettext("Take discard"),
  replace: gettext("Replace"),
  discard: gettext("Discard"),
  use: gettext("Use power"),
  keep: gettext("Keep"),
  swapHint: gettext("Click one of your cards to swap it with the card you looked at, or keep."),
  zwicker: gettext("Zwicker!"),
  snap: gettext("Snap"),
  cancel: gettext("Cancel"),
  yourTurn: gettext("Your turn"),
  turnOf: gettext("{0}'s turn"),
  drawn: gettext("Your card"),
  finalRound: gettext("Final round — {0} called Zwicker"),
  turnsLeft: gettext("last turn to play"),
  done: gettext("done"),
  timer: gettext("{0} s left"),
  pickTake: gettext("Click the card of yours that the discard replaces."),
  pickReplace: gettext("Click the card of yours that the drawn card replaces."),
  pick_look_own: gettext("Click one of your cards to look at it."),
  pick_look_other: gettext("Click an opponent's card to look at it."),
  pick_blind_swap: gettext("Click one of your cards and one opponent's card to swap them unseen."),
  pick_king: gettext("Click an opponent's card to look at it (then swap or keep)."),
  snapHint: gettext("Select your cards that match the discard and press Snap (S)."),
  snapHintTouch: gettext("Select your cards that match the discard and tap Snap."),
  power_look_own: gettext("7/8: look at one of your cards"),
  power_look_other: gettext("9/10: look at an opponent's card"),
  power_blind_swap: gettext("J/Q: swap blindly"),
  power_king: gettext("Black King: look, then swap or keep"),
  ev_drawn: gettext("{0} drew a card."),
  ev_took: gettext("{0} took the {1} from the discard pile."),
  ev_replaced: gettext("{0} replaced a card; {1} goes up."),
  ev_discarded: gettext("{0} discarded the {1}."),
  ev_look_own: gettext("{0} looked at one of their own cards."),
  ev_look_other: gettext("{0} looked at a card of {1}."),
  ev_blind_swap: gettext("{0} swapped a card with {1}, unseen."),
  ev_king: gettext("{0} looked at a card of {1} with a black King."),
  ev_swapped: gettext("{0} swapped with {1}."),
  ev_kept: gettext("{0} kept their cards."),
  ev_snapped: gettext("{0} snapped {1}."),
  ev_wrong: gettext("Wrong snap by {0}: {1} — a penalty card."),
  ev_back: gettext("{0} was slower than {1}: {2} taken back."),
  ev_called: gettext("{0} called Zwicker! Everyone else plays once more."),
  ev_reshuffled: gettext("The discard pile was shuffled into a new draw pile."),
  ev_timeout: gettext("{0}'s time ran out."),
  ev_finished: gettext("The cards are revealed."),
  youSaw: gettext("You see: {0}"),
  scores: gettext("Scores"),
  place: gettext("Place"),
  player: gettext("Player"),
  total: gettext("Total"),
  cards: gettext("Cards"),
  caller: gettext("called"),
  winner: gettext("winner"),
  spectator: gettext("You are watching."),
  empty: gettext("empty slot"),
  faceDown: gettext("face-down card"),
  drawnBy: gettext("{0}'s card"),
  xray: gettext("Replay: every card face up — a dashed frame means face down at the table."),
  ev_dealt: gettext("Four cards dealt to each of {0} players; {1} opens the discard pile."),
  ev_peeked: gettext("{0} looked at their slot {1}."),
  ev_drawn_seen: gettext("{0} drew {1}."),
  ev_seen: gettext("Seen: {0}."),
  ev_turn: gettext("{0}'s turn."),
  ev_last_turn: gettext("{0}'s last turn."),
  ev_timer: gettext("Turn clock: {0} s."),
  ev_revealed: gettext("Cards revealed — totals: {0}."),
  ev_over: gettext("Match over: {0} wins."),
  ev_over_none: gettext("Match over."),
  ev_looks_ended: gettext("Looked-at cards are face down again."),
  judging: gettext("Snap by {0}: judging…"),
};

// The court cards' corner letters differ per language (German Bube/Dame, French Valet/Dame/Roi).
const RANK_LABEL = {
  J: pgettext("card rank letter: Jack", "J"),
  Q: pgettext("card rank letter: Queen", "Q"),
  K: pgettext("card rank letter: King", "K"),
  A: pgettext("card rank letter: Ace", "A"),
};

function isCard(c) {
  return c && typeof c === "object" && Number.isInteger(c.id) && typeof c.rank === "string";
}

// A word of the table below, its {0}, {1}… filled in.
function word(key, ...args) {
  return fill(STR[key] ?? key, args);
}

function cardLabel(c) {
  if (!isCard(c)) return "?";
  return `${RANK_LABEL[c.rank] || c.rank}${SUIT_SYMBOL[c.suit] || ""}`;
}

// The live feedback of the events said in one sentence about their seat.
const SAID = { called: "ev_called", reshuffled: "ev_reshuffled", turn_timeout: "ev_timeout", finished: "ev_finished" };

// The replay's ★ stops: snaps (right, wrong, taken back) and the Zwicker! call.
export const isImportant = kindIn(["snapped", "snap_wrong", "snap_taken_back", "called"]);

// One short sentence per event for the replay's event list (plain text: the caller sets it with textContent).
export function describeEvent(event, players) {
  const t = word;
  const d = (event && event.data) || {};
  const who = (seat) => seatName(players, seat);
  const name = who(event.seat);
  const cards = (list) => (list || []).map((c) => cardLabel(c)).join(" ");
  const seen = (c) => (isCard(c) ? ` ${t("ev_seen", cardLabel(c))}` : "");
  switch (event.kind) {
    case "dealt":
      return t("ev_dealt", (d.slots || []).length || d.seats || "?", cardLabel(d.discard));
    case "peeked":
      return t("ev_peeked", who(d.target), Number(d.slot) + 1) + seen(d.card);
    case "drawn":
      return isCard(d.card) ? t("ev_drawn_seen", name, cardLabel(d.card)) : t("ev_drawn", name);
    case "took_discard":
      return t("ev_took", name, cardLabel(d.card));
    case "replaced":
      return t("ev_replaced", name, cardLabel(d.old));
    case "discarded":
      return t("ev_discarded", name, cardLabel(d.card));
    case "used":
      if (d.power === "look_own") return t("ev_look_own", name) + seen(d.seen);
      if (d.power === "look_other") return t("ev_look_other", name, who(d.target)) + seen(d.seen);
      if (d.power === "blind_swap") return t("ev_blind_swap", name, who(d.target));
      return t("ev_king", name, who(d.target)) + seen(d.seen);
    case "swapped":
      return t("ev_swapped", name, who(d.target));
    case "kept":
      return t("ev_kept", name);
    case "snapped":
      return t("ev_snapped", name, cards(d.cards));
    case "snap_wrong":
      return t("ev_wrong", name, cards(d.cards));
    case "snap_taken_back":
      return t("ev_back", name, who(d.first), cards(d.cards));
    case "called":
      return t("ev_called", name);
    case "reshuffled":
      return t("ev_reshuffled");
    case "turn_timeout":
      return t("ev_timeout", name);
    case "turn":
      return t(d.final ? "ev_last_turn" : "ev_turn", name);
    case "timer":
      return t("ev_timer", Math.round((Number(d.due_ms) - Number(event.t_ms || 0)) / 1000));
    case "revealed":
      return t("ev_revealed", (d.totals || []).map((v, i) => `${who(i)} ${v}`).join(", "));
    case "finished": {
      const winners = ((d.outcome && d.outcome.winners) || []).map(who);
      return winners.length ? t("ev_over", winners.join(", ")) : t("ev_over_none");
    }
    case "looks_ended":
      return t("ev_looks_ended");
    default:
      return kindWords(event, who);
  }
}

export function createRenderer(root, ctx) {
  const me = Number.isInteger(ctx.seat) ? ctx.seat : null;
  const api = { update, destroy, players: ctx.players || [] };
  let view = null;
  let mode = null; // null | "take" | "replace" | "use" | "swap"
  let picks = []; // [{seat, slot}] chosen in the current mode
  const selected = new Set(); // own slots chosen for a snap
  const reveals = new Map(); // "seat-slot" -> {card, until}
  let messages = [];
  let offset = null; // Date.now() - match time, learned from event t_ms
  let revealTimer = null;
  let lookTimer = null;
  const lookShown = new Map(); // "seat-slot-card" -> when this page first showed that look (the flip plays once)
  const ticker = setInterval(tick, 250);

  root.classList.add("zw-root");
  const board = el("div", { class: "zw-board" });
  root.append(board);

  const t = word;

  function who(seat) {
    // Third person everywhere ("Anna (you) snapped …") keeps every language's grammar right.
    const p = (api.players || []).find((x) => x.seat === seat);
    const name = p ? p.username : t("seat", seat + 1);
    return seat === me && ctx.send ? `${name} (${t("you")})` : name; // a seat's replay is not "you"
  }

  function cardName(c) {
    return cardLabel(c);
  }

  function cardFace(c, extra) {
    const red = RED.has(c.suit);
    const label = RANK_LABEL[c.rank] || c.rank;
    return el("div", { class: `zw-card zw-face ${red ? "zw-red" : "zw-black"} ${extra || ""}`, role: "img", "data-rank": c.rank,
      "data-suit": c.suit, "aria-label": cardName(c) },
      el("span", { class: "zw-corner", text: `${label}${SUIT_SYMBOL[c.suit]}` }),
      el("span", { class: "zw-pip", text: SUIT_SYMBOL[c.suit] }),
      el("span", { class: "zw-corner zw-corner-b", text: `${label}${SUIT_SYMBOL[c.suit]}` }));
  }

  function cardBack(extra) {
    return el("div", { class: `zw-card zw-back ${extra || ""}`, role: "img", "aria-label": t("faceDown") });
  }

  // --- events: transient feedback only ---------------------------------------

  function reveal(seat, slot, card) {
    if (!isCard(card)) return;
    const ms = (view && view.options && view.options.peek_ms) || 5000;
    reveals.set(`${seat}-${slot}`, { card, from: Date.now(), until: Date.now() + ms });
    scheduleReveal();
  }

  function forget(seat, slot) {
    reveals.delete(`${seat}-${slot}`);
  }

  function scheduleReveal() {
    if (revealTimer) clearTimeout(revealTimer);
    let next = Infinity;
    for (const r of reveals.values()) next = Math.min(next, r.until);
    if (next < Infinity) revealTimer = setTimeout(() => { revealTimer = null; render(); }, Math.max(50, next - Date.now() + 20));
  }

  function say(text) {
    messages = [...messages, text].slice(-6);
  }

  function onEvent(e) {
    const d = e.data || {};
    const name = who(e.seat);
    switch (e.kind) {
      case "drawn":
        if (e.seat !== me) say(t("ev_drawn", name));
        break;
      case "took_discard":
        say(t("ev_took", name, cardName(d.card)));
        reveal(e.seat, d.slot, d.card); // it was face up: everybody saw it go there
        break;
      case "replaced":
        say(t("ev_replaced", name, cardName(d.old)));
        forget(e.seat, d.slot);
        if (isCard(d.card)) reveal(e.seat, d.slot, d.card);
        break;
      case "discarded":
        say(t("ev_discarded", name, cardName(d.card)));
        break;
      case "used":
        if (d.power === "look_own") say(t("ev_look_own", name));
        else if (d.power === "look_other") say(t("ev_look_other", name, who(d.target)));
        else if (d.power === "blind_swap") {
          say(t("ev_blind_swap", name, who(d.target)));
          forget(e.seat, d.slot);
          forget(d.target, d.target_slot);
        } else if (d.power === "king") say(t("ev_king", name, who(d.target)));
        if (isCard(d.seen)) say(t("youSaw", cardName(d.seen))); // the card itself is drawn from view.looks
        break;
      case "swapped":
        say(t("ev_swapped", name, who(d.target)));
        forget(e.seat, d.slot);
        forget(d.target, d.target_slot);
        break;
      case "kept":
        say(t("ev_kept", name));
        break;
      case "snapped":
        say(t("ev_snapped", name, (d.cards || []).map(cardName).join(" ")));
        (d.slots || []).forEach((s) => forget(e.seat, s));
        break;
      case "snap_wrong":
      case "snap_taken_back": { // the cards come back face up: everybody saw them
        const shown = (d.cards || []).map(cardName).join(" ");
        say(e.kind === "snap_wrong" ? t("ev_wrong", name, shown) : t("ev_back", name, who(d.first), shown));
        (d.slots || []).forEach((s, i) => reveal(e.seat, s, (d.cards || [])[i]));
        break;
      }
      case "called":
      case "reshuffled":
      case "turn_timeout":
      case "finished":
        say(t(SAID[e.kind], name));
        break;
      default:
        break;
    }
  }

  // --- actions ----------------------------------------------------------------

  function canAct() {
    return ctx.send && me !== null && view && !view.finished;
  }

  function myTurn() {
    return canAct() && view.turn === me;
  }

  function send(action) {
    if (!ctx.send || !legalOf(view, action.kind)) return; // a key for a move the rules do not offer now
    ctx.send(action);
    mode = null;
    picks = [];
    selected.clear();
    render();
  }

  function setMode(next) {
    mode = mode === next ? null : next;
    picks = [];
    render();
  }

  function clickSlot(seat, slot) {
    if (!canAct()) return;
    const own = seat === me;
    if (mode === "take" && own) return send({ kind: "take_discard", slot });
    if (mode === "replace" && own) return send({ kind: "replace", slot });
    if (mode === "swap" && own) return send({ kind: "swap", slot });
    if (mode === "use") {
      const power = view.drawn_power;
      if (power === "look_own" && own) return send({ kind: "use", slot });
      if (power === "look_other" && !own) return send({ kind: "use", target: seat, slot });
      if (power === "king" && !own) return send({ kind: "use", target: seat, target_slot: slot });
      if (power === "blind_swap") {
        picks = picks.filter((p) => (p.seat === me) !== own);
        picks.push({ seat, slot });
        const mine = picks.find((p) => p.seat === me);
        const theirs = picks.find((p) => p.seat !== me);
        if (mine && theirs) return send({ kind: "use", slot: mine.slot, target: theirs.seat, target_slot: theirs.slot });
        return render();
      }
      return;
    }
    if (own) {
      if (selected.has(slot)) selected.delete(slot);
      else selected.add(slot);
      render();
    }
  }

  function snap() {
    if (!canAct() || selected.size === 0) return;
    send({ kind: "snap", slots: [...selected].sort((a, b) => a - b) });
  }

  function onKey(ev) {
    const target = ev.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.isContentEditable)) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey || !canAct()) return;
    const key = ev.key.toLowerCase();
    const phase = view.phase;
    let handled = true;
    if (key === "s" || key === " ") snap();
    else if (key === "escape") { mode = null; picks = []; selected.clear(); render(); }
    else if (/^[1-9]$/.test(key)) clickSlot(me, Number(key) - 1);
    else if (myTurn() && phase === "turn" && key === "d") send({ kind: "draw" });
    else if (myTurn() && phase === "turn" && key === "t") setMode("take");
    else if (myTurn() && phase === "turn" && key === "z" && view.caller === null) send({ kind: "zwicker" });
    else if (myTurn() && phase === "drawn" && key === "r") setMode("replace");
    else if (myTurn() && phase === "drawn" && key === "x") send({ kind: "discard" });
    else if (myTurn() && phase === "drawn" && key === "u" && view.drawn_power) setMode("use");
    else if (myTurn() && phase === "king" && key === "k") send({ kind: "keep" });
    else handled = false;
    if (handled) ev.preventDefault();
  }
  document.addEventListener("keydown", onKey);

  // --- drawing -----------------------------------------------------------------

  function remainingMs() {
    if (!view || view.turn_due_ms === null || view.turn_due_ms === undefined || view.finished) return null;
    if (offset === null) offset = Date.now() - (view.turn_due_ms - view.options.turn_seconds * 1000);
    return Math.max(0, view.turn_due_ms - (Date.now() - offset));
  }

  function tick() {
    const box = board.querySelector("[data-testid='turn-timer']");
    if (!box) return;
    const left = remainingMs();
    if (left === null) return;
    const total = view.options.turn_seconds * 1000;
    box.querySelector(".zw-timer-text").textContent = t("timer", Math.ceil(left / 1000));
    box.querySelector(".zw-timer-bar").style.width = `${Math.round((100 * left) / total)}%`;
    box.classList.toggle("zw-urgent", left < 10000);
  }

  function slotNode(seat, info, revealed) {
    const testid = `slot-${seat}-${info.slot}`;
    const key = `${seat}-${info.slot}`;
    const classes = ["zw-slot"];
    if (seat === me && selected.has(info.slot)) classes.push("zw-selected");
    if (picks.some((p) => p.seat === seat && p.slot === info.slot)) classes.push("zw-picked");
    if (claimedSlot(seat, info.slot)) classes.push("zw-claimed"); // thrown in a snap race that is being judged
    if (view.king_look && view.king_look.target === seat && view.king_look.target_slot === info.slot) classes.push("zw-looked");
    let inner;
    if (!info.filled) {
      inner = el("div", { class: "zw-card zw-empty", role: "img", "aria-label": t("empty") });
    } else if (revealed && isCard(revealed[info.slot])) {
      inner = cardFace(revealed[info.slot]);
    } else if (isCard(info.card)) {
      inner = cardFace(info.card, "zw-xray"); // a replay's "everything" view: face down at the table
    } else if (view.king_look && view.king_look.target === seat && view.king_look.target_slot === info.slot) {
      inner = cardFace(view.king_look.card, "zw-peek");
    } else if (lookAt(seat, info.slot)) {
      const look = lookAt(seat, info.slot);
      const lk = `${key}-${look.card.id}`;
      if (!lookShown.has(lk)) lookShown.set(lk, Date.now());
      inner = cardFace(look.card, Date.now() - lookShown.get(lk) < 300 ? "zw-peek zw-flip" : "zw-peek");
    } else {
      const r = reveals.get(key);
      // the flip plays once, when the card turns up, not again at every redraw
      inner = r && r.until > Date.now() ? cardFace(r.card, Date.now() - r.from < 300 ? "zw-peek zw-flip" : "zw-peek") : cardBack();
    }
    const clickable = canAct() && info.filled;
    return el("button", { class: classes.join(" "), "data-testid": testid, type: "button", disabled: !clickable,
      "aria-pressed": seat === me ? String(selected.has(info.slot)) : null, title: `${info.slot + 1}`,
      onclick: () => clickSlot(seat, info.slot) }, inner, el("span", { class: "zw-slot-no", text: String(info.slot + 1) }));
  }

  function seatNode(info) {
    const seat = info.seat;
    const revealed = view.revealed ? view.revealed.slots[seat] : null;
    const classes = ["zw-seat"];
    if (seat === me) classes.push("zw-me");
    if (view.turn === seat && !view.finished) classes.push("zw-active");
    const head = el("div", { class: "zw-seat-head" },
      el("span", { class: "zw-name", text: who(seat) }),
      view.turn === seat && !view.finished ? el("span", { class: "zw-badge zw-turn-badge", text: "▶" }) : null,
      view.caller === seat ? el("span", { class: "zw-badge zw-caller-badge", text: `⚑ ${t("caller")}` }) : null,
      info.turns_left === 1 && !view.finished ? el("span", { class: "zw-badge", text: t("turnsLeft") }) : null,
      view.revealed ? el("span", { class: "zw-badge zw-total", text: `Σ ${view.revealed.totals[seat]}` })
        : Number.isInteger(info.total) ? el("span", { class: "zw-badge zw-total zw-xray-total", "data-testid": `total-${seat}`, text: `Σ ${info.total}` }) : null);
    const grid = el("div", { class: "zw-grid" }, ...info.slots.map((s) => slotNode(seat, s, revealed)));
    return el("section", { class: classes.join(" "), "data-testid": `seat-${seat}` }, head, grid);
  }

  function centreNode() {
    const top = view.discard_top;
    const drawPile = el("div", { class: "zw-pile", "data-testid": "draw-pile" },
      view.draw_count > 0 ? (isCard(view.draw_top) ? cardFace(view.draw_top, "zw-pile-card zw-xray") : cardBack("zw-pile-card"))
        : el("div", { class: "zw-card zw-empty" }),
      el("span", { class: "zw-count", text: `${t("drawPile")}: ${view.draw_count}` }));
    const discard = el("div", { class: "zw-pile", "data-testid": "discard" },
      isCard(top) ? cardFace(top, "zw-pile-card") : el("div", { class: "zw-card zw-empty" }),
      el("span", { class: "zw-count", text: `${t("discardPile")}: ${view.discard_count}` }));
    const parts = [drawPile, discard];
    if (isCard(view.drawn)) {
      parts.push(el("div", { class: "zw-pile zw-drawn", "data-testid": "drawn-card", "data-power": view.drawn_power || "" }, cardFace(view.drawn),
        el("span", { class: "zw-count", text: me === null ? t("drawnBy", who(view.turn)) : t("drawn") }),
        view.drawn_power ? el("span", { class: "zw-power", text: t(`power_${view.drawn_power}`) }) : null));
    }
    return el("div", { class: "zw-centre" }, ...parts);
  }

  function controlsNode() {
    if (!canAct()) return ctx.send ? null : el("p", { class: "zw-hint", text: watchingWords(ctx, t("spectator")) });
    const box = el("div", { class: "zw-controls" });
    // "Draw (D)": the key in a <small class="key-hint"> that touch screens hide (site.css)
    // Enabled exactly when the view lists an action of `kind` (a wrong snap included); `kind` null: not an action
    // (cancel).
    const btn = (testid, kind, label, onclick, extra) => {
      const [, text, key] = /^(.*?)( \([^)]*\))?$/.exec(label);
      return el("button", { type: "button", "data-testid": testid, class: `zw-btn ${extra || ""}`, disabled: kind !== null && !legalOf(view, kind), onclick },
        text, key ? el("small", { class: "key-hint", text: key }) : null);
    };
    if (myTurn()) {
      if (view.phase === "turn") {
        box.append(btn("draw", "draw", `${t("draw")} (D)`, () => send({ kind: "draw" })));
        box.append(btn("take-discard", "take_discard", `${t("take")} (T)`, () => setMode("take"), mode === "take" ? "zw-on" : ""));
        if (view.caller === null) box.append(btn("zwicker", "zwicker", `${t("zwicker")} (Z)`, () => send({ kind: "zwicker" }), "zw-call"));
      } else if (view.phase === "drawn") {
        box.append(btn("replace", "replace", `${t("replace")} (R)`, () => setMode("replace"), mode === "replace" ? "zw-on" : ""));
        box.append(btn("discard-drawn", "discard", `${t("discard")} (X)`, () => send({ kind: "discard" })));
        if (view.drawn_power) box.append(btn("use", "use", `${t("use")} (U)`, () => setMode("use"), mode === "use" ? "zw-on" : ""));
      } else if (view.phase === "king") {
        box.append(btn("keep", "keep", `${t("keep")} (K)`, () => send({ kind: "keep" })));
      }
    }
    box.append(btn("snap", "snap", `${t("snap")} (S)`, snap, selected.size ? "zw-snap zw-on" : "zw-snap"));
    if (mode || selected.size) box.append(btn("cancel", null, `${t("cancel")} (Esc)`, () => { mode = null; picks = []; selected.clear(); render(); }));
    let hint = document.documentElement.classList.contains("touch") ? t("snapHintTouch") : t("snapHint");
    if (mode === "take") hint = t("pickTake");
    else if (mode === "replace") hint = t("pickReplace");
    else if (mode === "use" && view.drawn_power) hint = t(`pick_${view.drawn_power}`);
    else if (mode === "swap") hint = t("swapHint");
    return el("div", {}, box, el("p", { class: "zw-hint", "data-testid": "hint", text: hint }));
  }

  function statusNode() {
    const parts = [];
    if (view.final_round && !view.finished) {
      parts.push(el("div", { class: "zw-final", "data-testid": "final-round", text: `⚑ ${t("finalRound", who(view.caller))}` }));
    }
    if (!ctx.send && isCard(view.draw_top) && !view.finished) parts.push(el("div", { class: "zw-xray-note", "data-testid": "xray-note", text: t("xray") }));
    if (!view.finished) {
      parts.push(el("div", { class: `zw-turn ${view.turn === me ? "zw-mine" : ""}`, "data-testid": "turn",
        text: view.turn === me ? t("yourTurn") : t("turnOf", who(view.turn)) }));
      parts.push(el("div", { class: "zw-timer", "data-testid": "turn-timer" },
        el("div", { class: "zw-timer-track" }, el("div", { class: "zw-timer-bar" })), el("span", { class: "zw-timer-text" })));
    }
    // the latest happening stays in sight at the top; the full log is below the table
    // while a snap race is judged, that line says so (the platform's race panel gives the times)
    const judging = view.race && (view.race.claims || []).length
      ? t("judging", view.race.claims.map((c) => who(c.seat)).join(", ")) : null;
    if (judging || messages.length) {
      parts.push(el("div", { class: "zw-last", "data-testid": "last-message", text: judging || messages[messages.length - 1] }));
    }
    return el("div", { class: "zw-status" }, ...parts);
  }

  function scoreNode() {
    if (!view.revealed || !view.outcome) return null;
    const winners = new Set(view.outcome.winners);
    const rows = [...view.outcome.placements].sort((a, b) => a.place - b.place || a.seat - b.seat).map((p) =>
      el("tr", { class: winners.has(p.seat) ? "zw-win" : "", "data-testid": `score-${p.seat}` },
        el("td", { text: `${p.place}${winners.has(p.seat) ? " ★" : ""}` }),
        el("td", { text: `${who(p.seat)}${p.seat === view.caller ? ` (⚑ ${t("caller")})` : ""}` }),
        el("td", { class: "zw-cards-cell", text: (view.revealed.slots[p.seat] || []).filter(isCard).map(cardName).join(" ") }),
        el("td", { class: "zw-num", text: String(view.revealed.totals[p.seat]) })));
    return el("section", { class: "zw-scores" },
      el("h3", { text: t("scores") }),
      el("table", { "data-testid": "score-table" },
        el("thead", {}, el("tr", {}, el("th", { text: t("place") }), el("th", { text: t("player") }),
          el("th", { text: t("cards") }), el("th", { text: t("total") }))),
        el("tbody", {}, ...rows)));
  }

  function render() {
    if (!view) return;
    if (mode === "swap" && view.phase !== "king") mode = null;
    if (mode && !myTurn()) { mode = null; picks = []; }
    if (myTurn() && view.phase === "king") mode = "swap";
    for (const slot of [...selected]) {
      const mine = view.seats[me];
      if (!mine || !mine.slots[slot] || !mine.slots[slot].filled) selected.delete(slot);
    }
    const others = view.seats.filter((s) => s.seat !== me);
    const mine = me !== null ? view.seats.find((s) => s.seat === me) : null;
    const log = el("ul", { class: "zw-log", "data-testid": "message-log", "aria-live": "polite" },
      ...messages.map((m) => el("li", { text: m })));
    // replaceChildren would print a null as the text "null": leave absent parts out
    // at the end the score table comes first: it is what everybody looks for
    board.replaceChildren(...[
      statusNode(),
      scoreNode(),
      el("div", { class: "zw-opponents" }, ...others.map(seatNode)),
      el("div", { class: "zw-middle" }, centreNode(), controlsNode()),
      mine ? seatNode(mine) : null,
      log,
    ].filter(Boolean));
    tick();
  }

  // The match clock: a `hello` gives it (`now_ms`), every event carries it (`t_ms`).
  function matchNow() {
    if (offset === null && view && Number.isFinite(view.turn_due_ms)) {
      offset = Date.now() - (view.turn_due_ms - view.options.turn_seconds * 1000);
    }
    if (offset === null) offset = Date.now(); // no clock yet: count from now
    return Date.now() - offset;
  }

  // A card this seat is looking at (opening peek or a power), from the view: whatever message brought it.
  function lookAt(seat, slot) {
    const now = matchNow();
    return (view.looks || []).find((l) => l.target === seat && l.slot === slot && isCard(l.card) && l.until_ms > now) || null;
  }

  function claimedSlot(seat, slot) {
    const race = view.race;
    return Boolean(race && (race.claims || []).some((c) => c.seat === seat && (c.slots || []).includes(slot)));
  }

  function scheduleLooks() {
    if (lookTimer) clearTimeout(lookTimer);
    lookTimer = null;
    const now = matchNow();
    const next = Math.min(...(view.looks || []).map((l) => l.until_ms).filter((u) => u > now));
    if (Number.isFinite(next)) lookTimer = setTimeout(() => { lookTimer = null; render(); }, next - now + 20);
  }

  function update(nextView, events, opts) {
    const evs = Array.isArray(events) ? events : [];
    if (opts && Number.isFinite(opts.now_ms)) offset = Date.now() - opts.now_ms;
    if (evs.length) {
      const latest = Math.max(...evs.map((e) => (Number.isFinite(e.t_ms) ? e.t_ms : 0)));
      offset = Date.now() - latest;
    }
    view = nextView;
    for (const e of evs) if (e && e.kind) onEvent(e);
    render();
    scheduleLooks();
  }

  function destroy() {
    document.removeEventListener("keydown", onKey);
    clearInterval(ticker);
    if (revealTimer) clearTimeout(revealTimer);
    if (lookTimer) clearTimeout(lookTimer);
    root.replaceChildren();
    root.classList.remove("zw-root");
  }

  return api;
}
