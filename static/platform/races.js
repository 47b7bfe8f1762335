// The platform's race panel (PROTOCOL.md "Fair races"), the same for every game: drawn from the uniform
// events `race_claimed` (a claim reached the server: "judging…") and `race_settled` (the winner and each
// claimant's judged reaction time). The server judges; this only tells the players what it decided.
import { el, fill, seatName } from "./kit.js";

const _ = (s) => window.gettext(s);

// A panel above the game: `update(events, players, mySeat)` after every events message, `reset()` for a new match.
export function createRacePanel(anchor) {
  const box = el("div", { class: "race-panel", id: "race-panel", "data-testid": "race-panel", role: "status", "aria-live": "polite", hidden: true });
  anchor.before(box);
  let claims = {}; // race id -> claims so far (for "judging…" while the window is open)

  function judging(raceId, players, mySeat) {
    const mine = claims[raceId].some((c) => c.seat === mySeat);
    const names = claims[raceId].map((c) => seatName(players, c.seat));
    const text = mine ? _("Your claim is in: judging…") : fill(_("%(names)s claimed: judging…"), { names: names.join(", ") });
    box.replaceChildren(el("span", { class: "race-judging", "data-testid": "race-judging", text }));
    box.dataset.state = "judging";
    box.hidden = false;
  }

  function settled(data, players, mySeat) {
    const winner = data.winner;
    const nobody = winner === null || winner === undefined;
    const ranking = data.ranking || [];
    // A race needs two claimants: a lone claim is the game's own news (the card it won), not a race to announce.
    // A race nobody won is always told, even of one claim: every claim came before the card could be seen
    // (the table's human floor, PROTOCOL "Fair play"), and without a word the player would not know why.
    if (!nobody && ranking.length < 2) {
      delete claims[data.race];
      box.replaceChildren();
      box.hidden = true;
      delete box.dataset.state;
      return;
    }
    const head = nobody
      ? el("b", { "data-testid": "race-nobody", text: _("Nobody won the race") })
      : el("b", { "data-testid": "race-winner", text: winner === mySeat ? _("You won the race") : fill(_("%(name)s won the race"), { name: seatName(players, winner) }) });
    const why = !nobody ? [] : [" · ", el("span", {
      class: "race-why", "data-testid": "race-why",
      text: ranking.some((c) => c.seat === mySeat)
        ? _("You reacted too soon: nobody could have seen the card yet.")
        : _("Every reaction came too soon: nobody could have seen the card yet."),
    })];
    const list = el("ol", { class: "race-ranking", "data-testid": "race-ranking" });
    for (const c of ranking) {
      list.append(el("li", { "data-seat": c.seat },
        el("span", { class: "who", text: seatName(players, c.seat) }), " ",
        el("span", { class: "reaction", "data-testid": `race-reaction-${c.seat}`, text: fill(_("%(ms)s ms"), { ms: c.reaction_ms }) })));
    }
    box.replaceChildren(head, ...why, " · ", el("span", { class: "race-note", text: _("reaction times:") }), " ", list);
    box.dataset.state = "settled";
    box.hidden = false;
    delete claims[data.race];
  }

  return {
    update(events, players, mySeat) {
      for (const e of events) {
        if (e.kind === "race_claimed" && e.data) {
          (claims[e.data.race] ||= []).push({ seat: e.seat, ...(e.data.claim || {}) });
          judging(e.data.race, players, mySeat);
        } else if (e.kind === "race_settled" && e.data) {
          settled(e.data, players, mySeat);
        }
      }
    },
    reset() {
      claims = {};
      box.replaceChildren();
      box.hidden = true;
      delete box.dataset.state;
    },
  };
}
