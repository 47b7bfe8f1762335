// ZIGZAG live table renderer: draws the whole table from a `view`; events only add transient feedback.
// Plain ES module, no build step. Untrusted text (usernames) is only ever set with textContent.
// Exchange: click a hand card, then a centre card. STOP / Z: click the card in your hand, then a player, then a centre card.

const STRINGS = {
  en: {
    manche: "Manche {n}", tour: "tour {n}", timer: "{s} s left", you: "you", seat: "Seat {n}", partner: "partner",
    spectator: "You are watching", team: "Team {n}", yourTeam: "your team", opened: "opened", notOpened: "not opened",
    passed: "passed", starting: "starting card", centre: "Centre", centreEmpty: "The centre is empty",
    yourHand: "Your hand", handClass: { none: "no combination", zig: "ZIG in hand", zag: "ZAG in hand" },
    open: "Open with this card", openHint: "Pick a card to discard, then open (key O)", pass: "Pass", signZig: "Sign ZIG",
    signZag: "Sign ZAG", announce: "Announce", counter: "Counter team {n}", fills: "fills", auto: "first missing",
    cancel: "Cancel", pickTarget: "Now click a player for your {card}", pickTake: "Now click a centre card to take",
    pickCentre: "Now click a centre card to exchange", drawPile: "Draw pile: {n}", discardPile: "Discard: {n}",
    sheet: "Score sheet", failed: "failed counters", signed: "made a sign", signedTo: "signs {sign}", stale: "(older than the hand)",
    combos: { zig: "ZIG", zag: "ZAG", double_zig: "Double ZIG", zigzag: "ZIGZAG", double_zag: "Double ZAG" },
    features: { landscape: "landscape", character: "character", attitude: "attitude" },
    values: {
      pink: "pink", blue: "blue", green: "green", yellow: "yellow", water: "water", flame: "flame", cloud: "cloud", tree: "tree",
      cocktail: "cocktail", running: "running", sunglasses: "sunglasses", suitcase: "suitcase",
    },
    joker: "Joker", stop: "STOP", z: "Z", back: "face-down card",
    evSign: "{name} signs {sign} to you.", evSignSeen: "{name} made a sign.",
    evAnnounceOk: "{name} announces {combo}: correct! {team} scores {scores}.", evAnnounceBad: "{name} announces {combo}: false — both hands are replaced.",
    evAnnounceScored: "{name} announces {combo}: already scored — false, both hands are replaced.",
    evCounterOk: "{name} counters {team}: confirmed — their hands are replaced.", evCounterBad: "{name} counters {team}: failed! Proof shown ({n}/3 failed).",
    evStop: "{name} lays a STOP ({feature}) before {target}.", evZ: "{name} plays a Z: the STOPs before {target} are gone.",
    evTourPassed: "Everyone passed: the centre is discarded, a new tour begins.", evTourTimer: "Time is up: the centre is discarded, a new tour begins.",
    evManche: "New manche: the cards are dealt again.", evReshuffle: "The discard pile is reshuffled into the draw pile.",
    evFinished: "Match over — {team} wins!", reveal: "Shown cards", proof: "Proof of {name}", handOf: "Hand of {name}",
    winner: "Winners", place: "Place", finished: "Match over", keys: "Keys: 1–4 hand card, Q–Y centre card, O open, P pass, S/D sign, Esc cancel",
  },
  de: {
    manche: "Runde {n}", tour: "Durchgang {n}", timer: "noch {s} s", you: "du", seat: "Platz {n}", partner: "Partner",
    spectator: "Du schaust zu", team: "Team {n}", yourTeam: "dein Team", opened: "eröffnet", notOpened: "nicht eröffnet",
    passed: "passt", starting: "Startkarte", centre: "Mitte", centreEmpty: "Die Mitte ist leer",
    yourHand: "Deine Hand", handClass: { none: "keine Kombination", zig: "ZIG auf der Hand", zag: "ZAG auf der Hand" },
    open: "Mit dieser Karte eröffnen", openHint: "Wähle eine Karte zum Abwerfen, dann eröffnen (Taste O)", pass: "Passen",
    signZig: "ZIG zeigen", signZag: "ZAG zeigen", announce: "Ansagen", counter: "Konter gegen Team {n}", fills: "ersetzt",
    auto: "erste fehlende", cancel: "Abbrechen", pickTarget: "Klicke jetzt einen Spieler für deine {card} an",
    pickTake: "Klicke jetzt eine Karte der Mitte zum Nehmen an", pickCentre: "Klicke jetzt eine Karte der Mitte zum Tauschen an",
    drawPile: "Nachziehstapel: {n}", discardPile: "Ablage: {n}", sheet: "Wertungsblatt", failed: "gescheiterte Konter",
    signed: "hat ein Zeichen gegeben", signedTo: "zeigt {sign}", stale: "(älter als die Hand)",
    combos: { zig: "ZIG", zag: "ZAG", double_zig: "Doppel-ZIG", zigzag: "ZIGZAG", double_zag: "Doppel-ZAG" },
    features: { landscape: "Landschaft", character: "Figur", attitude: "Haltung" },
    values: {
      pink: "rosa", blue: "blau", green: "grün", yellow: "gelb", water: "Wasser", flame: "Flamme", cloud: "Wolke", tree: "Baum",
      cocktail: "Cocktail", running: "rennt", sunglasses: "Sonnenbrille", suitcase: "Koffer",
    },
    joker: "Joker", stop: "STOP", z: "Z", back: "verdeckte Karte",
    evSign: "{name} zeigt dir {sign}.", evSignSeen: "{name} hat ein Zeichen gegeben.",
    evAnnounceOk: "{name} sagt {combo} an: richtig! {team} punktet {scores}.", evAnnounceBad: "{name} sagt {combo} an: falsch — beide Hände werden ersetzt.",
    evAnnounceScored: "{name} sagt {combo} an: schon gewertet — falsch, beide Hände werden ersetzt.",
    evCounterOk: "{name} kontert {team}: bestätigt — ihre Hände werden ersetzt.", evCounterBad: "{name} kontert {team}: gescheitert! Beweis gezeigt ({n}/3 gescheitert).",
    evStop: "{name} legt ein STOP ({feature}) vor {target}.", evZ: "{name} spielt ein Z: die STOPs vor {target} sind weg.",
    evTourPassed: "Alle passen: die Mitte wird abgelegt, ein neuer Durchgang beginnt.", evTourTimer: "Zeit um: die Mitte wird abgelegt, ein neuer Durchgang beginnt.",
    evManche: "Neue Runde: die Karten werden neu verteilt.", evReshuffle: "Die Ablage wird gemischt und wird Nachziehstapel.",
    evFinished: "Partie beendet — {team} gewinnt!", reveal: "Gezeigte Karten", proof: "Beweis von {name}", handOf: "Hand von {name}",
    winner: "Sieger", place: "Platz", finished: "Partie beendet", keys: "Tasten: 1–4 Handkarte, Q–Y Karte der Mitte, O eröffnen, P passen, S/D Zeichen, Esc abbrechen",
  },
  fr: {
    manche: "Manche {n}", tour: "tour {n}", timer: "encore {s} s", you: "toi", seat: "Place {n}", partner: "partenaire",
    spectator: "Tu regardes", team: "Équipe {n}", yourTeam: "ton équipe", opened: "a ouvert", notOpened: "n'a pas ouvert",
    passed: "passe", starting: "carte de démarrage", centre: "Centre", centreEmpty: "Le centre est vide",
    yourHand: "Ta main", handClass: { none: "aucune combinaison", zig: "ZIG en main", zag: "ZAG en main" },
    open: "Ouvrir avec cette carte", openHint: "Choisis une carte à défausser, puis ouvre (touche O)", pass: "Passer",
    signZig: "Signe ZIG", signZag: "Signe ZAG", announce: "Annoncer", counter: "Contrer l'équipe {n}", fills: "remplace",
    auto: "la première manquante", cancel: "Annuler", pickTarget: "Clique maintenant un joueur pour ta carte {card}",
    pickTake: "Clique maintenant une carte du centre à prendre", pickCentre: "Clique maintenant une carte du centre à échanger",
    drawPile: "Pioche : {n}", discardPile: "Défausse : {n}", sheet: "Feuille de marque", failed: "contres ratés",
    signed: "a fait un signe", signedTo: "signe {sign}", stale: "(plus ancien que la main)",
    combos: { zig: "ZIG", zag: "ZAG", double_zig: "Double ZIG", zigzag: "ZIGZAG", double_zag: "Double ZAG" },
    features: { landscape: "paysage", character: "personnage", attitude: "attitude" },
    values: {
      pink: "rose", blue: "bleu", green: "vert", yellow: "jaune", water: "eau", flame: "flamme", cloud: "nuage", tree: "arbre",
      cocktail: "cocktail", running: "court", sunglasses: "lunettes de soleil", suitcase: "valise",
    },
    joker: "Joker", stop: "STOP", z: "Z", back: "carte face cachée",
    evSign: "{name} te signe {sign}.", evSignSeen: "{name} a fait un signe.",
    evAnnounceOk: "{name} annonce {combo} : correct ! {team} marque {scores}.", evAnnounceBad: "{name} annonce {combo} : fausse annonce — les deux mains sont remplacées.",
    evAnnounceScored: "{name} annonce {combo} : déjà faite — fausse annonce, les deux mains sont remplacées.",
    evCounterOk: "{name} contre {team} : confirmé — leurs mains sont remplacées.", evCounterBad: "{name} contre {team} : raté ! Preuve montrée ({n}/3 ratés).",
    evStop: "{name} pose un STOP ({feature}) devant {target}.", evZ: "{name} joue un Z : les STOP devant {target} sont retirés.",
    evTourPassed: "Tout le monde passe : le centre est défaussé, un nouveau tour commence.", evTourTimer: "Temps écoulé : le centre est défaussé, un nouveau tour commence.",
    evManche: "Nouvelle manche : les cartes sont redistribuées.", evReshuffle: "La défausse est remélangée pour refaire la pioche.",
    evFinished: "Partie terminée — {team} gagne !", reveal: "Cartes montrées", proof: "Preuve de {name}", handOf: "Main de {name}",
    winner: "Vainqueurs", place: "Place", finished: "Partie terminée", keys: "Touches : 1–4 carte en main, Q–Y carte du centre, O ouvrir, P passer, S/D signe, Échap annuler",
  },
};

const COMBOS = ["zig", "zag", "double_zig", "zigzag"];
const TEAM_SYMBOLS = ["●", "▲", "■"];
const CENTRE_KEYS = "qwerty";
const SVG_NS = "http://www.w3.org/2000/svg";

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
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", `zigzag-icon zigzag-icon-${name}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  const [fill, stroke] = ICONS[name] || ["", ""];
  if (fill) {
    const p = document.createElementNS(SVG_NS, "path");
    p.setAttribute("d", fill);
    svg.append(p);
  }
  if (stroke) {
    const p = document.createElementNS(SVG_NS, "path");
    p.setAttribute("d", stroke);
    p.setAttribute("class", "zigzag-stroke");
    svg.append(p);
  }
  return svg;
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "text") node.textContent = v;
    else if (k === "class") node.className = v;
    else if (k === "onclick") node.addEventListener("click", v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) if (c) node.append(c);
  return node;
}

export function createRenderer(root, ctx) {
  const S = STRINGS[ctx.lang] || STRINGS.en;
  const fmt = (s, args = {}) => String(s).replace(/\{(\w+)\}/g, (_, k) => (k in args ? String(args[k]) : ""));
  const api = { update, destroy, players: ctx.players || [] };
  let view = null;
  let selected = null; // hand card id
  let special = null; // {card, kind: "stop"|"z", target}
  let fills = "";
  let messages = []; // [{text, until}]
  let shown = null; // {title, groups: [{label, cards}], until}
  let offset = null; // Date.now() - match ms, from the latest event
  const interactive = typeof ctx.send === "function";

  root.textContent = "";
  root.classList.add("zigzag-root");
  const header = el("div", { class: "zigzag-header" });
  const others = el("div", { class: "zigzag-others", "data-testid": "others" });
  const middle = el("div", { class: "zigzag-middle" });
  const mine = el("div", { class: "zigzag-mine" });
  const controls = el("div", { class: "zigzag-controls" });
  const feedback = el("ul", { class: "zigzag-feedback", "data-testid": "feedback", "aria-live": "polite" });
  const reveal = el("div", { class: "zigzag-reveal", "data-testid": "reveal" });
  const sheet = el("div", { class: "zigzag-sheet", "data-testid": "score-sheet" });
  root.append(header, others, middle, reveal, mine, controls, feedback, sheet);

  function name(seat) {
    const p = (api.players || []).find((x) => x.seat === seat);
    const base = p ? p.username : fmt(S.seat, { n: seat + 1 });
    return view && seat === view.seat ? `${base} (${S.you})` : base;
  }
  function teamName(t) {
    return `${TEAM_SYMBOLS[t] || ""} ${fmt(S.team, { n: t + 1 })}`;
  }
  function act(action) {
    if (interactive) ctx.send(action);
  }
  function say(text) {
    messages.push({ text, until: Date.now() + 8000 });
    messages = messages.slice(-6);
  }

  function cardNode(card, opts = {}) {
    const attrs = { class: "zigzag-card", "data-testid": opts.testid || null, tabindex: opts.onclick ? 0 : null, role: opts.onclick ? "button" : null };
    if (!card || card.hidden || card.id === undefined) {
      const back = el("div", { ...attrs, class: "zigzag-card zigzag-back", title: S.back, "aria-label": S.back });
      return back;
    }
    let node;
    if (card.face === "character") {
      const label = `${S.values[card.landscape]} · ${S.values[card.character]} · ${S.values[card.attitude]}`;
      node = el("div", { ...attrs, class: `zigzag-card zigzag-char zigzag-land-${card.landscape}`, title: label, "aria-label": label });
      node.append(el("span", { class: "zigzag-land-name", text: S.values[card.landscape] }));
      node.append(el("span", { class: "zigzag-char-icon" }, icon(card.character, S.values[card.character])));
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
      node.append(el("span", { class: "zigzag-stop-word", text: S.stop }), el("span", { class: "zigzag-special-name", text: S.features[feature] || feature }));
    }
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
    if (myOpened() && (card.face === "stop_landscape" || card.face === "stop_character" || card.face === "stop_attitude" || card.face === "z")) {
      if (selected === id && special) {
        special = null;
        selected = null;
      } else {
        selected = id;
        special = { card: id, kind: card.face === "z" ? "z" : "stop", target: null };
      }
    } else {
      special = null;
      selected = selected === id ? null : id;
    }
    render();
  }
  function clickCentre(id) {
    if (!interactive || !view || view.finished || !myOpened()) return;
    if (special && special.target !== null) {
      act({ kind: special.kind, card: special.card, target: special.target, take: id });
      special = null;
      selected = null;
    } else if (selected !== null && !special) {
      act({ kind: "exchange", give: selected, take: id });
      selected = null;
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
      "data-testid": `seat-${s}`,
      role: targetable ? "button" : null,
      tabindex: targetable ? 0 : null,
      onclick: targetable ? () => clickSeat(s) : null,
    });
    const title = el("div", { class: "zigzag-seat-title" });
    title.append(el("span", { class: "zigzag-team-mark", text: TEAM_SYMBOLS[team] || "", title: teamName(team) }), el("span", { class: "zigzag-name", text: name(s) }));
    if (isPartner) title.append(el("span", { class: "zigzag-badge", text: S.partner }));
    if (s === v.dealer) title.append(el("span", { class: "zigzag-badge zigzag-dealer", text: "D" }));
    panel.append(title);
    const status = el("div", { class: "zigzag-status" });
    status.append(el("span", { class: "zigzag-badge", text: v.opened.includes(s) ? S.opened : S.notOpened }));
    if (v.passed.includes(s)) status.append(el("span", { class: "zigzag-badge zigzag-passed", text: S.passed }));
    const sig = v.signals[String(s)];
    if (sig) {
      const stale = sig.at <= v.changed_at[s];
      const text = sig.sign ? fmt(S.signedTo, { sign: S.combos[sig.sign] }) : S.signed;
      status.append(el("span", { class: `zigzag-badge zigzag-sign${stale ? " zigzag-stale" : ""}`, "data-testid": `sign-${s}`, text: stale ? `${text} ${S.stale}` : text }));
    }
    panel.append(status);
    const cards = el("div", { class: "zigzag-backs" });
    if (v.hands && v.hands[s]) for (const c of v.hands[s]) cards.append(cardNode(c));
    else for (let i = 0; i < v.hand_counts[s]; i++) cards.append(cardNode(null));
    if (v.starting[s]) cards.append(el("div", { class: "zigzag-card zigzag-back zigzag-starting", title: S.starting, "aria-label": S.starting }));
    panel.append(cards);
    const stops = v.stops[String(s)] || [];
    if (stops.length) {
      const row = el("div", { class: "zigzag-stops", "data-testid": `stops-${s}` });
      for (const c of stops) row.append(cardNode(c));
      panel.append(row);
    }
    return panel;
  }

  function renderHeader() {
    header.textContent = "";
    const v = view;
    header.append(el("span", { class: "zigzag-title", text: `${fmt(S.manche, { n: v.manche })} · ${fmt(S.tour, { n: v.tour })}` }));
    header.append(el("span", { class: "zigzag-timer", "data-testid": "tour-timer" }));
    header.append(el("span", { class: "zigzag-piles", text: `${fmt(S.drawPile, { n: v.draw_count })} · ${fmt(S.discardPile, { n: v.discard_count })}` }));
    if (v.seat === null) header.append(el("span", { class: "zigzag-badge", text: S.spectator }));
    tick();
  }

  function tick() {
    const node = header.querySelector(".zigzag-timer");
    if (!node || !view) return;
    if (view.finished || view.tour_due_ms === null || offset === null) {
      node.textContent = "";
      return;
    }
    const left = Math.max(0, Math.ceil((view.tour_due_ms - (Date.now() - offset)) / 1000));
    node.textContent = fmt(S.timer, { s: left });
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
      const canTake = interactive && myOpened() && ((selected !== null && !special) || (special && special.target !== null));
      const node = cardNode(c, { testid: `centre-${c.id}`, onclick: canTake ? () => clickCentre(c.id) : null });
      node.append(el("kbd", { class: "zigzag-key", text: CENTRE_KEYS[i] || "" }));
      if (canTake) node.classList.add("zigzag-takeable");
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
    title.append(el("span", { class: "zigzag-team-mark", text: TEAM_SYMBOLS[v.team] || "" }), el("span", { text: ` ${S.yourHand} — ` }));
    title.append(el("span", { class: `zigzag-class zigzag-class-${v.hand_class}`, "data-testid": "hand-class", text: S.handClass[v.hand_class] || "" }));
    mine.append(title);
    const row = el("div", { class: "zigzag-hand", "data-testid": "hand" });
    v.hand.forEach((c, i) => {
      const node = cardNode(c, { testid: `hand-${c.id}`, selected: selected === c.id, onclick: interactive ? () => clickHand(c.id) : null });
      node.append(el("kbd", { class: "zigzag-key", text: String(i + 1) }));
      row.append(node);
    });
    if (v.starting[v.seat]) row.append(el("div", { class: "zigzag-card zigzag-back zigzag-starting", title: S.starting, "aria-label": S.starting, "data-testid": "my-starting" }));
    mine.append(row);
    const stops = v.stops[String(v.seat)] || [];
    if (stops.length) {
      const srow = el("div", { class: "zigzag-stops", "data-testid": `stops-${v.seat}` });
      for (const c of stops) srow.append(cardNode(c));
      mine.append(srow);
    }
    const status = el("div", { class: "zigzag-status" });
    if (v.passed.includes(v.seat)) status.append(el("span", { class: "zigzag-badge zigzag-passed", text: S.passed }));
    const sig = v.signals[String(v.seat)];
    if (sig && sig.sign) status.append(el("span", { class: "zigzag-badge zigzag-sign", text: fmt(S.signedTo, { sign: S.combos[sig.sign] }) }));
    mine.append(status);
  }

  function renderControls() {
    controls.textContent = "";
    const v = view;
    if (!interactive || v.seat === null || v.finished) return;
    const hint = el("p", { class: "zigzag-hint", "data-testid": "hint" });
    if (!myOpened()) hint.textContent = S.openHint;
    else if (special && special.target === null) {
      const card = v.hand.find((c) => c.id === special.card);
      hint.textContent = fmt(S.pickTarget, { card: card && card.face === "z" ? S.z : S.stop });
    } else if (special) hint.textContent = S.pickTake;
    else if (selected !== null) hint.textContent = S.pickCentre;
    controls.append(hint);
    const row = el("div", { class: "zigzag-buttons" });
    if (!myOpened()) row.append(el("button", { "data-testid": "open", text: S.open, disabled: selected === null, onclick: openWith }));
    else row.append(el("button", { "data-testid": "pass", text: S.pass, disabled: v.passed.includes(v.seat), onclick: () => act({ kind: "pass" }) }));
    if (special && special.target === null) {
      for (let s = 0; s < v.seats; s++) {
        const mineTeam = s % (v.seats / 2) === v.team;
        if ((special.kind === "stop" && !mineTeam) || (special.kind === "z" && mineTeam)) {
          row.append(el("button", { "data-testid": `target-${s}`, class: "zigzag-target-btn", text: `→ ${name(s)}`, onclick: () => clickSeat(s) }));
        }
      }
    }
    if (selected !== null || special) row.append(el("button", { "data-testid": "cancel", text: S.cancel, onclick: () => { selected = null; special = null; render(); } }));
    row.append(el("button", { "data-testid": "sign-zig", class: "zigzag-signbtn", text: S.signZig, onclick: () => act({ kind: "signal", sign: "zig" }) }));
    row.append(el("button", { "data-testid": "sign-zag", class: "zigzag-signbtn", text: S.signZag, onclick: () => act({ kind: "signal", sign: "zag" }) }));
    controls.append(row);
    const ann = el("div", { class: "zigzag-buttons zigzag-announce" });
    ann.append(el("span", { class: "zigzag-label", text: `${S.announce}:` }));
    for (const c of [...COMBOS, "double_zag"]) {
      ann.append(el("button", {
        "data-testid": `announce-${c}`,
        text: S.combos[c],
        onclick: () => act(c === "double_zag" && fills ? { kind: "announce", combo: c, fills } : { kind: "announce", combo: c }),
      }));
    }
    const select = el("select", { "data-testid": "fills", "aria-label": S.fills });
    select.append(el("option", { value: "", text: `${S.combos.double_zag} ${S.fills}: ${S.auto}` }));
    const scored = v.teams[v.team].scored;
    for (const c of COMBOS) if (!scored.includes(c)) select.append(el("option", { value: c, text: `${S.combos.double_zag} ${S.fills}: ${S.combos[c]}`, selected: fills === c }));
    select.value = scored.includes(fills) ? "" : fills;
    select.addEventListener("change", () => { fills = select.value; });
    ann.append(select);
    controls.append(ann);
    const ctr = el("div", { class: "zigzag-buttons zigzag-counters" });
    const used = v.teams[v.team].failed_counters;
    for (const t of v.teams) {
      if (t.team === v.team) continue;
      ctr.append(el("button", {
        "data-testid": `counter-${t.team}`,
        class: `zigzag-team-${t.team}`,
        text: `${TEAM_SYMBOLS[t.team] || ""} ${fmt(S.counter, { n: t.team + 1 })}`,
        disabled: used >= 3,
        onclick: () => act({ kind: "counter", team: t.team }),
      }));
    }
    controls.append(ctr);
    controls.append(el("p", { class: "zigzag-keys", text: S.keys }));
  }

  function renderSheet() {
    sheet.textContent = "";
    const v = view;
    sheet.append(el("h3", { text: S.sheet }));
    const table = el("table", {});
    const head = el("tr", {}, el("th", { text: "" }));
    for (const c of COMBOS) head.append(el("th", { text: S.combos[c] }));
    head.append(el("th", { text: S.failed }));
    if (v.outcome) head.append(el("th", { text: S.place }));
    table.append(head);
    for (const t of v.teams) {
      const tr = el("tr", { class: `zigzag-team-${t.team}${t.team === v.team ? " zigzag-mine-row" : ""}`, "data-testid": `sheet-team-${t.team}` });
      const who = t.seats.map((s) => name(s)).join(" & ");
      tr.append(el("th", { text: `${teamName(t.team)}: ${who}` }));
      for (const c of COMBOS) {
        const done = t.scored.includes(c);
        const bonus = t.bonus.includes(c);
        tr.append(el("td", { "data-testid": `sheet-${t.team}-${c}`, class: done ? "zigzag-done" : "", text: done ? (bonus ? "✓ (2×ZAG)" : "✓") : "—" }));
      }
      tr.append(el("td", { "data-testid": `sheet-${t.team}-failed`, text: `${"✗".repeat(t.failed_counters)}${"○".repeat(Math.max(0, 3 - t.failed_counters))}` }));
      if (v.outcome) {
        const p = v.outcome.placements.find((x) => x.seat === t.seats[0]);
        tr.append(el("td", { text: p ? String(p.place) : "" }));
      }
      table.append(tr);
    }
    sheet.append(table);
    if (v.finished) sheet.append(el("p", { class: "zigzag-finished", "data-testid": "finished", text: S.finished }));
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

  function render() {
    if (!view) return;
    if (selected !== null && !view.hand.some((c) => c.id === selected)) {
      selected = null;
      special = null;
    }
    renderHeader();
    renderOthers();
    renderMiddle();
    renderReveal();
    renderMine();
    renderControls();
    renderFeedback();
    renderSheet();
  }

  function describe(e) {
    const d = e.data || {};
    switch (e.kind) {
      case "signalled":
        if (view && e.seat !== view.seat) say(d.sign ? fmt(S.evSign, { name: name(e.seat), sign: S.combos[d.sign] }) : fmt(S.evSignSeen, { name: name(e.seat) }));
        break;
      case "announced":
        if (d.correct) {
          say(fmt(S.evAnnounceOk, { name: name(e.seat), combo: S.combos[d.combo], team: teamName(d.team), scores: S.combos[d.scores] }));
          shown = { title: S.reveal, until: Date.now() + 8000, groups: Object.entries(d.hands || {}).map(([s, cards]) => ({ label: fmt(S.handOf, { name: name(Number(s)) }), cards })) };
        } else {
          say(fmt(d.reason === "already_scored" ? S.evAnnounceScored : S.evAnnounceBad, { name: name(e.seat), combo: S.combos[d.combo] }));
        }
        break;
      case "countered":
        if (d.confirmed) say(fmt(S.evCounterOk, { name: name(e.seat), team: teamName(d.team) }));
        else {
          say(fmt(S.evCounterBad, { name: name(e.seat), team: teamName(d.team), n: d.failed }));
          shown = { title: S.reveal, until: Date.now() + 8000, groups: Object.entries(d.proof || {}).map(([s, cards]) => ({ label: fmt(S.proof, { name: name(Number(s)) }), cards })) };
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

  function update(v, events) {
    view = v;
    for (const e of events || []) {
      if (typeof e.t_ms === "number") offset = Date.now() - e.t_ms;
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
      if (myOpened() && !view.passed.includes(view.seat)) act({ kind: "pass" });
    } else if (k === "s") act({ kind: "signal", sign: "zig" });
    else if (k === "d") act({ kind: "signal", sign: "zag" });
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
