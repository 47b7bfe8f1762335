// The results of a finished match, drawn at the top of the table page for every game: who placed where (with
// their scores), why a rule or a resignation placed someone, the player's rating change when the match was ranked,
// and the ways on (a rematch or the tournament, the replay, the lobby). The games' own end screens stay below;
// this card is what a player sees first, on a phone as on a desktop. Words: the djangojs catalogue; a reason only
// one game gives is worded by that game (its `reasons` hook, feedback_hooks.js).
import { api } from "./api.js";
import { feedbackHooks } from "./feedback_hooks.js";
import { el, fill } from "./kit.js";

const W = {
  title: gettext("Match over"),
  won: gettext("You won!"),
  placed: gettext("You placed {place} of {n}"),
  resignedYou: gettext("You resigned: a bot played your seat to the end."),
  place: gettext("Place"),
  player: gettext("Player"),
  score: gettext("Score"),
  you: gettext("you"),
  reasons: {
    resigned: gettext("{name} resigned and is placed after every player still in."),
  },
  rating: gettext("Your rating: {before} → {after} ({delta})"),
  ratingPending: gettext("Your rating is being updated…"),
  rematch: gettext("Play again"),
  replay: gettext("Watch replay"),
  lobby: gettext("Back to the lobby"),
  tournament: gettext("Back to the tournament"),
};

// `box`: the page's results section; `ctx`: { me, tournamentUrl, onRematch }.
export function createResults(box, ctx) {
  let shownFor = null;
  let ratingTries = 0;

  function hide() {
    box.hidden = true;
    box.replaceChildren();
    shownFor = null;
  }

  function nameOf(players, seat) {
    const p = players.find((x) => x.seat === seat);
    return p ? p.username : `#${seat + 1}`;
  }

  async function rating(matchId, mySeat, line) {
    // Rated after the match ends (a task): ask a few times, then leave the line as it is.
    for (ratingTries = 0; ratingTries < 8 && shownFor === matchId; ratingTries++) {
      try {
        const m = await api("GET", `/api/matches/${matchId}/`);
        const row = m.seats.find((s) => s.seat === mySeat);
        if (row && row.rating) {
          const d = row.rating.after - row.rating.before;
          line.textContent = fill(W.rating, { before: row.rating.before, after: row.rating.after, delta: d > 0 ? `+${d}` : `${d}` });
          return;
        }
      } catch (e) { /* try again */ }
      await new Promise((r) => setTimeout(r, 1500));
    }
  }

  // Draw the results of `matchId` once its view carries an outcome; `fresh` (it just ended here) brings them on screen.
  function show({ matchId, outcome, table, seat, fresh }) {
    if (!outcome || !outcome.placements) { hide(); return; }
    if (shownFor === matchId) return;
    shownFor = matchId;
    const players = table.players;
    const placements = [...outcome.placements].sort((a, b) => a.place - b.place || a.seat - b.seat);
    const mine = seat === null || seat === undefined ? null : placements.find((p) => p.seat === seat);
    const headline = !mine ? W.title : mine.place === 1 ? W.won : fill(W.placed, { place: mine.place, n: placements.length });
    const rows = placements.map((p) => el("tr", { "data-testid": `result-seat-${p.seat}`, class: p.seat === seat ? "mine" : null },
      el("td", { class: p.place === 1 ? "result-place first" : "result-place", text: String(p.place) }),
      el("th", { scope: "row", text: nameOf(players, p.seat) + (p.seat === seat ? ` (${W.you})` : "") }),
      el("td", { text: p.score === undefined || p.score === null ? "–" : String(p.score) })));
    const hasScore = placements.some((p) => p.score !== undefined && p.score !== null);
    const table_ = el("table", { class: "results-table", "data-testid": "results-table" },
      el("thead", {}, el("tr", {}, el("th", { scope: "col", text: W.place }), el("th", { scope: "col", text: W.player }),
        hasScore ? el("th", { scope: "col", text: W.score }) : null)),
      el("tbody", {}, ...rows.map((r) => { if (!hasScore) r.lastChild.remove(); return r; })));
    const gameReasons = feedbackHooks(table.game).reasons;
    const reasons = (outcome.reasons || []).map((r) => {
      const text = W.reasons[r.code] || gameReasons[r.code];
      return text ? el("li", { "data-testid": `result-reason-${r.code}`, text: fill(text, { name: nameOf(players, r.seat), limit: r.limit }) }) : null;
    }).filter(Boolean);
    const me = players.find((p) => p.seat === seat);
    const actions = el("p", { class: "results-actions" });
    if (ctx.tournamentUrl) {
      actions.append(el("a", { href: ctx.tournamentUrl, class: "button-link", "data-testid": "back-to-tournament", text: W.tournament }));
    } else if (me) {
      actions.append(el("button", { type: "button", "data-testid": "rematch", text: W.rematch, onclick: ctx.onRematch }));
    }
    actions.append(el("a", { href: `/matches/${matchId}/replay/`, class: "button-link secondary", "data-testid": "replay-link", text: W.replay }),
      el("a", { href: "/", class: "button-link secondary", "data-testid": "back-to-lobby", text: W.lobby }));
    const ratingLine = table.ranked && mine ? el("p", { class: "results-rating", "data-testid": "results-rating", text: W.ratingPending }) : null;
    box.replaceChildren(...[
      el("h2", { id: "results-heading", "data-testid": "results-headline", text: headline }),
      me && me.left ? el("p", { text: W.resignedYou }) : null,
      table_,
      reasons.length ? el("ul", { class: "results-reasons", "data-testid": "results-reasons" }, ...reasons) : null,
      ratingLine,
      actions,
    ].filter(Boolean));
    box.hidden = false;
    if (ratingLine) rating(matchId, seat, ratingLine);
    if (fresh) window.scrollTo({ top: 0 });
  }

  return { show, hide };
}
