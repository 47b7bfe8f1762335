"""ZACK! as pure rules: the server is "the box", and the box is always right.

Everything follows the digital rules page (shared/rules/zack.md beside the repository) and,
where that page is silent, the seed rulebook. Decisions taken here beyond the
rules page are marked [D] and listed in the players' help pages too:

- [D] Box order when a player takes the box: the box's bottom card goes under
  the pile first, so the box's top card ends up at the very bottom.
- [D] `nochmal` searching beneath itself skips `nochmal` cards, Stop cards and
  colour cards; `zurueck` looks for the nearest ZACK! card beneath it that is
  not a Stop card (colour cards are never ZACK! cards). This is the reading in
  which "only Stop cards beneath -> the thrower throws again" holds for both.
- [D] During a Stop pause only the player whose turn it is may throw (for
  `stop_swap`/`stop_lr` the thrower, for `stop_choose` the chosen player);
  that throw ends the pause. Everybody else's ZACK! cards and colour cards are
  returned, and so are challenges (the game stands still).
- [D] While a `stop_choose` waits for its choice, every throw, colour card
  and challenge is returned.
- [D] During the settling window (`settle_ms` after a challenge) every throw,
  colour card and challenge is returned, the restarting player's included.
- [D] A colour card that already lies in the box (thrown in error) cannot be
  thrown again until a challenge empties the box: RuleError `no_colour_card`.
  Colour cards belong to the colour, so after `stop_swap` the new holder of a
  colour whose card lies in the box is the one who lacks it.
- [D] Beginner protection refuses (RuleError `grace`) only a challenge whose
  sole ground would be "too slow"; a wrong-turn challenge is always allowed.
- [D] A challenge with both grounds reports `reason: wrong_turn`.
- [D] The `finished` event reveals every pile, the final box with its
  out-of-turn flags, and each seat's count of out-of-turn throws.
- [D] Placements: winner first, then fewest cards, equal counts sharing a
  place (competition ranking: 1, 2, 2, 4).
- [D race] Fair races (PROTOCOL "Fair races"): what is raced is a challenge
  against the throw of a slow player — the challenged player X's own card and
  the challenges against X, judged by judged time, not arrival. The platform
  times `throw`, `challenge` and `colour` (`races`); everything not described
  here is judged on arrival as before (the settling, pause and choice windows
  included).
- [D race a] A challenge against X (not returned by a window) opens the race
  for X's answer, open since the box last changed (`turn_since`): a
  `race_claimed` event. Until it is settled (`races.settle_at`: at once when
  nobody is compensated; else the `race:<id>` timer, or lazily the first
  action after that moment) X's own throw or colour card is a claim too, and
  so is every further challenge against X; a seat that claimed cannot claim
  again (RuleError `already_claimed`); everything else — other seats' throws
  and colour cards, challenges against other colours — is returned (`why:
  judging`): the box stands still while it judges, as in the settling window.
  Every challenge is judged this way, whatever its ground, so a pending
  challenge tells nobody whose turn it is. Settled (`race_settled`): if a
  challenge is first it is resolved on the box as it stood (X too slow if it
  was X's turn) and X's card and the other challenges are returned
  (`settling`); if X's card is first it lands, then the challenges are judged
  on the box with it, the earliest judged pursued (it usually fails: X was in
  time) and the rest returned by the settling window it opens.
- [D race b] The other way round: X's in-turn card that reaches the box first
  lands at once, and a challenge against X that arrives after it but is
  judged before it, while that card still lies on top and nothing else
  happened, wins as "too slow": X takes the whole box, its own card included —
  the same cards in the same order as the challenge first and X's card
  returned. Not after a Stop card (its effect already applied) nor after the
  winning colour card (the match is over). Beginner grace is judged on the
  challenge's judged time.

- [D floor] A human floor (PROTOCOL "Fair play"): a claim judged less than
  the table's `min_reaction_ms` after the box last changed (`turn_since`, the
  race's `opened_ms`) is an anticipation (`"anticipated": true` in its
  `race_claimed` claim). An anticipated challenge is a wrong challenge — the
  rulebook's penalty for a challenge without grounds: the challenger takes the
  box (`challenged` `result: fail`, `anticipated: true`), whatever the box
  shows, since nobody could yet have seen it. It ranks after every real claim
  and never wins: when a real challenge or X's own real card is judged first,
  the race goes as [D race a] says and the anticipation is pursued only as a
  challenge after X's card landed (then it fails); when only anticipations
  claimed, the race is settled at once without a winner (`race_settled`
  `winner: null`), the first anticipated challenge fails and X's anticipated
  card and the other challenges are returned. X's own card judged below the
  floor after the box changed is no answer in time either: it never beats a
  real challenge. [D race b] does not apply to an anticipated challenge (X
  was not too slow for a challenge nobody could have made yet): it is judged
  on the box as it is, so it fails. With `min_reaction_ms` 0 there is no floor.
- [D kit] The checks before every move are the shared kit's (engine.GameRules):
  the system submitting an action ZACK! does not know is `unknown_action`
  (was `bad_action`), and a malformed race `Timing` (not whole numbers, a
  negative compensation) is refused with `bad_action`.
- [D legal] `legal_actions` (in every seat's view as `legal`) lists what the
  view shows to be possible; it does not know the time, so a challenge that
  the box refuses with `grace` is listed (whether it would be refused tells
  whose turn it is), and a race whose timer is late still counts as pending.

- [D opens] The view names who throws onto an empty box (`opens`): the deal
  and every challenge announce it publicly; once a card lies in the box it is
  null again, and working out the turn is the game.

The rules page's own [D] decisions (the 72-card composition, the `nochmal`
cases, the settling window, beginner grace, the `choose` timer picking the
thrower's colour, the `stop_lr` thrower going on) are implemented as written.

Beyond the page's event list: `thrown` also carries `next` (hidden like
`out_of_turn`/`expected` until the end), `at`, `paused_until_ms`, and its
`arrival_ms`/`judged_ms` (dropped by redaction; a claim's are in `race_claimed`);
`challenged` may carry `before_throw` [D race b]; `returned` has `why: judging`;
`challenged` carries `at` and `settle_until_ms`; `colours_passed` carries
`before`. The view adds `settle_until_ms`, `choose_due_ms`, `winner`,
`out_of_turn` (per-seat counts, at the end only), the seat's `legal` actions
and per seat `colour_card_in_box`; after the end also each pile's cards and the box's flags.
State keeps piles as card ids (codes in `cards`), so copying it stays cheap.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine import TIMER, Action, Event, GameRules, Option, RuleError, State, Timing, Tx, event, is_int, timer_event
from games.kit import races
from games.kit.opening import deal_round, open_table, shuffled

COLOURS: tuple[str, ...] = ("red", "blue", "yellow", "green", "orange", "purple")

# The deck composition, the one place it is written down: (face, copies).
# Circles are per colour; Stop cards only with option `stop_cards`;
# `nochmal`/`zurueck` leave with option `beginner_deck`.
CIRCLES_PER_COLOUR = 6
ACTION_CARDS: tuple[tuple[str, int], ...] = (
    ("links", 6),
    ("rechts", 6),
    ("links2", 4),
    ("rechts2", 4),
    ("nochmal", 5),
    ("zurueck", 5),
)
STOP_CARDS: tuple[tuple[str, int], ...] = (("stop_choose", 2), ("stop_swap", 2), ("stop_lr", 2))
BEGINNER_REMOVED = frozenset({"nochmal", "zurueck"})
STOP_FACES = frozenset(face for face, _ in STOP_CARDS)
NOCHMAL_SKIPS = STOP_FACES | {"nochmal"}
LR_STEP = {"links": 1, "links2": 2, "rechts": -1, "rechts2": -2}
RACE_TIMER = "race:"  # prefix: the timer `race:<race id>` settles that race
GRACE = "a beginner may not be challenged as slow yet"


def full_deck() -> list[dict[str, Any]]:
    """All 72 cards with stable ids (id order = composition order)."""
    cards: list[dict[str, Any]] = []
    for colour in COLOURS:
        for _ in range(CIRCLES_PER_COLOUR):
            cards.append({"id": len(cards), "face": "circle", "colour": colour})
    for face, copies in (*ACTION_CARDS, *STOP_CARDS):
        for _ in range(copies):
            cards.append({"id": len(cards), "face": face})
    return cards


def deck_for(seats: int, options: dict[str, Any]) -> list[dict[str, Any]]:
    """The cards of one match: circles of absent colours and optional faces removed."""
    present = set(COLOURS[:seats])
    out = []
    for card in full_deck():
        face = card["face"]
        if face == "circle" and card["colour"] not in present:
            continue
        if face in STOP_FACES and not options["stop_cards"]:
            continue
        if face in BEGINNER_REMOVED and options["beginner_deck"]:
            continue
        out.append(card)
    return out


# --- reading the box (shared with the bot: it is public knowledge) ----------------


def card_effect(
    card: dict[str, Any], box: list[dict[str, Any]], i: int, t: int, n: int, colours: list[str], swapped: bool
) -> int:
    """Who throws after `card`, lying at position `i` of `box` (box[:i] beneath it), thrown by `t`.

    Stop cards are handled by `turn_after`; here only ordinary faces.
    """
    face = card["face"]
    if face == "circle":
        return colours.index(card["colour"])
    step = LR_STEP.get(face)
    if step is not None:
        return (t - step if swapped else t + step) % n
    if face == "zurueck":
        j = i - 1
        while j >= 0:
            below = box[j].get("card")
            if below is not None and below["face"] not in STOP_FACES:
                return box[j]["seat"]
            j -= 1
        return t
    # nochmal: repeat the nearest suitable card beneath, as if it lay here, thrown by t.
    j = i - 1
    while j >= 0:
        below = box[j].get("card")
        if below is not None and below["face"] not in NOCHMAL_SKIPS:
            return card_effect(below, box, i, t, n, colours, swapped)
        j -= 1
    return t


def turn_after(card: dict[str, Any], box: list[dict[str, Any]], t: int, n: int, colours: list[str], swapped: bool) -> int | None:
    """Whose turn it is once `card`, thrown by `t`, lands on `box` (None: a choice is awaited).

    `swapped` is the left/right exchange in force with `card` in the box.
    """
    face = card["face"]
    if face == "stop_choose":
        return None
    if face in STOP_FACES:
        return t
    return card_effect(card, box, len(box), t, n, colours, swapped)


# --- the rules ------------------------------------------------------------------


def card_code(card: dict[str, Any]) -> str:
    """A card's face in one string (a circle by its colour): cheap to keep and copy in state."""
    return card["colour"] if card["face"] == "circle" else card["face"]


def decode(cid: int, code: str) -> dict[str, Any]:
    """The message form of card `cid` from its code."""
    if code in COLOURS:
        return {"id": cid, "face": "circle", "colour": code}
    return {"id": cid, "face": code}


class ZackRules(GameRules):
    """The pure ZACK! rules object on the shared game kit (`engine.GameRules`).

    `decide` is the kit's: its checks, then `before_move` (the lazy race
    settlement), then the move table `moves` at the end of the class. `fold`
    is the kit's too, through `folds` (its `_fold_<kind>` functions).
    """

    slug = "zack"
    name = "ZACK!"
    min_seats = 3
    max_seats = 6
    teams = False
    races: frozenset[str] = frozenset({"throw", "challenge", "colour"})  # judged as races (PROTOCOL "Fair races") [D race]
    options: dict[str, Option] = {
        "stop_cards": Option("bool", False, "Play with the 6 Stop cards (advanced rules)."),
        "beginner_deck": Option("bool", False, "Remove the Nochmal and Zurück cards."),
        "show_turn": Option("bool", False, "Show whose turn it is (training)."),
        "protect_beginners": Option("bool", True, "Beginners cannot be challenged as too slow during grace_ms."),
        "beginners": Option("seats", [], "Seats protected as beginners (set by the platform).", internal=True),
        "grace_ms": Option("int", 2000, "Beginner protection window (ms).", minimum=0, maximum=30_000),
        "settle_ms": Option("int", 400, "Window after a challenge in which cards are returned (ms).", minimum=0, maximum=5_000),
        "stop_pause_ms": Option("int", 1500, "Pause after a Stop card (ms).", minimum=0, maximum=10_000),
        "choose_seconds": Option("int", 10, "Time to choose a colour after Farbe wählen (s).", minimum=1, maximum=120),
        "series": Option("bool", False, "Play a series: first to two wins, the dealer moving left."),
        "dealer": Option("int", -1, "Dealer seat (-1: the last seat).", minimum=-1, maximum=5, internal=True),
    }

    # --- setup ------------------------------------------------------------------

    def setup(self, seats: int, options: dict[str, Any], rng: random.Random) -> list[Event]:
        """Shuffle the match's deck and deal it one by one from the dealer's left."""
        o = open_table(self, seats, options)
        dealer, first = o.dealer, o.first
        opts = o.options_placed
        piles = deal_round(shuffled(deck_for(seats, opts), rng), seats, first)
        return [
            event(
                "dealt",
                None,
                seats=seats,
                options=opts,
                dealer=dealer,
                first=first,
                colours=list(COLOURS[:seats]),
                piles=piles,
            )
        ]

    # --- decide: what happens before every move ---------------------------------------

    def before_move(self, tx: Tx, seat: int | None, kind: str, now_ms: int, rng: random.Random) -> None:
        """Settle a race whose window has closed, lazily, so the state is right even when its timer is late.

        If the action itself is then refused, nothing is committed and the
        settlement waits for its timer or the next action.
        """
        race = tx.state["race"]
        if race is not None and races.settle_at(race) <= now_ms:
            self._settle_race(tx, now_ms)

    def _blocked(self, state: State, seat: int, now_ms: int, throw: bool) -> str | None:
        """Why an action by `seat` right now is returned instead of taking effect, if it is."""
        if state["waiting_choice"] is not None:
            return "waiting_choice"
        if now_ms < state["settle_until"]:
            return "settling"
        if now_ms < state["paused_until"] and (not throw or seat != state["turn"]):
            return "pause"
        return None

    @staticmethod
    def _claimed(race: dict[str, Any], seat: int) -> bool:
        return any(c["seat"] == seat for c in race["claims"])

    def _held_back(self, tx: Tx, seat: int, kind: str, now_ms: int, timing: Timing, returned: dict[str, Any]) -> bool:
        """Whether a throw or colour card does not land now: returned by a window, or raced [D race a].

        While a challenge is judged X's card is a claim in its race and anyone
        else's is returned (`judging`).
        """
        state = tx.state
        race = state["race"]
        if race is not None and seat == race["target"]:
            if self._claimed(race, seat):
                noun = "card" if kind == "throw" else "colour card"
                raise RuleError("already_claimed", f"your {noun} is already on its way: the challenge is being judged")
            self._claim(tx, seat, kind, seat, now_ms, timing)
            return True
        why = "judging" if race is not None else self._blocked(state, seat, now_ms, True)
        if why is not None:
            tx.emit(event("returned", seat, **returned, why=why))
        return why is not None

    # --- decide: the moves (the table `moves` is at the end of the class) -------------------

    def _throw(self, tx: Tx, seat: int, action: Action, now_ms: int, rng: random.Random, timing: Timing) -> None:
        state = tx.state
        pile = state["piles"][seat]
        if not pile:
            raise RuleError("no_cards", "your pile is empty")
        card = decode(pile[0], state["cards"][pile[0]])
        if not self._held_back(tx, seat, "throw", now_ms, timing, {"card": card}):
            self._land(tx, seat, now_ms, timing.arrival_ms, timing.judged_ms)

    def _colour(self, tx: Tx, seat: int, action: Action, now_ms: int, rng: random.Random, timing: Timing) -> None:
        state = tx.state
        colour = state["colours"][seat]
        if self._colour_card_in_box(state, seat):
            raise RuleError("no_colour_card", "your colour card lies in the box")
        if not self._held_back(tx, seat, "colour", now_ms, timing, {"colour_card": colour}):
            self._colour_lands(tx, seat, now_ms)

    def _challenge(self, tx: Tx, seat: int, action: Action, now_ms: int, rng: random.Random, timing: Timing) -> None:
        state = tx.state
        target = action.get("target")
        if not isinstance(target, str) or target not in COLOURS:
            raise RuleError("bad_action", "target must be a colour")
        colours = state["colours"]
        if target not in colours:
            raise RuleError("no_challenge_card", f"nobody plays {target}")
        if colours[seat] == target:
            raise RuleError("no_challenge_card", "you hold no challenge card of your own colour")
        x = colours.index(target)
        race = state["race"]
        if race is not None:
            if x != race["target"]:
                tx.emit(event("returned", seat, challenge=target, why="judging"))
                return
            # another challenge against X joins the race: the earliest judged is pursued
            if self._claimed(race, seat):
                raise RuleError("already_claimed", "your challenge is already being judged")
            if self._graced(state, x, state["turn_since"], timing.judged_ms):
                raise RuleError("grace", GRACE)
            self._claim(tx, seat, "challenge", x, now_ms, timing)
            return
        why = self._blocked(state, seat, now_ms, False)
        if why is not None:
            tx.emit(event("returned", seat, challenge=target, why=why))
            return
        lt = state["last_throw"]
        if (
            lt is not None
            and lt["seat"] == x
            and timing.judged_ms < lt["judged_ms"]
            and not self._grounds(state, x)[1]
            and not races.anticipated(timing.judged_ms - lt["since"], timing.min_reaction_ms)  # [D floor]
        ):
            # called slow before X's card, which reached the box first [D race b]
            if self._protected(state, x, lt["since"], timing.judged_ms):
                raise RuleError("grace", GRACE)
            self._before_throw(tx, seat, x, now_ms, timing)
            return
        if self._graced(state, x, state["turn_since"], timing.judged_ms):
            raise RuleError("grace", GRACE)
        self._claim(tx, seat, "challenge", x, now_ms, timing)  # X's own card may still be judged earlier [D race a]

    def _choose(self, tx: Tx, seat: int, action: Action, now_ms: int, rng: random.Random, timing: None) -> None:
        state = tx.state
        if state["waiting_choice"] != seat:
            raise RuleError("not_choosing", "you have no colour to choose")
        colour = action.get("colour")
        if not isinstance(colour, str) or colour not in state["colours"]:
            raise RuleError("bad_action", "colour must be a colour in play")
        tx.emit(self._chosen(state, seat, colour, False, now_ms))

    def _timer(self, tx: Tx, seat: None, action: Action, now_ms: int, rng: random.Random, timing: None) -> None:
        """The choose timer; a race timer has done its work in the lazy settlement (or is stale)."""
        state = tx.state
        if action["id"] != state["choose_timer"] or state["waiting_choice"] is None:
            return
        chooser = state["waiting_choice"]
        tx.emit(self._chosen(state, chooser, state["colours"][chooser], True, now_ms))

    # --- decide: the box's consequences -----------------------------------------------

    def _land(self, tx: Tx, seat: int, now_ms: int, arrival_ms: int, judged_ms: int) -> None:
        """The top card of `seat`'s pile lands on the box (now: when everyone sees it)."""
        state = tx.state
        pile = state["piles"][seat]
        card = decode(pile[0], state["cards"][pile[0]])
        n = state["seats"]
        face = card["face"]
        swapped = state["lr"] != (face == "stop_lr")
        nxt = turn_after(card, state["box"], seat, n, state["colours"], swapped)
        expected = state["turn"]
        paused = now_ms + state["options"]["stop_pause_ms"] if face in STOP_FACES else 0
        tx.emit(
            event(
                "thrown",
                seat,
                card=card,
                out_of_turn=expected != seat,
                expected=expected,
                next=nxt,
                at=now_ms,
                paused_until_ms=paused,
                arrival_ms=arrival_ms,
                judged_ms=judged_ms,
            )
        )
        if face == "stop_swap":
            old = state["colours"]
            tx.emit(event("colours_passed", seat, before=old, colours=[old[(s - 1) % n] for s in range(n)]))
        elif face == "stop_choose":
            tid = f"choose-{state['timer_seq'] + 1}"
            tx.emit(timer_event(tid, now_ms + state["options"]["choose_seconds"] * 1000))

    @staticmethod
    def _colour_card_in_box(state: State, seat: int) -> bool:
        colour = state["colours"][seat]
        return any(entry.get("colour_card") == colour for entry in state["box"])

    @staticmethod
    def _grounds(state: State, x: int) -> tuple[bool, bool]:
        """(too slow, wrong turn) for a challenge against seat `x` on the box as it is."""
        wrong = any(entry["seat"] == x and (entry.get("oot") or "colour_card" in entry) for entry in state["box"][-4:])
        return state["turn"] == x, wrong

    @staticmethod
    def _protected(state: State, x: int, since: int, judged_ms: int) -> bool:
        """A beginner inside the grace window of its turn cannot be called slow (judged time decides)."""
        opts = state["options"]
        return bool(opts["protect_beginners"] and x in opts["beginners"] and judged_ms < since + opts["grace_ms"])

    def _graced(self, state: State, x: int, since: int, judged_ms: int) -> bool:
        """A challenge whose sole ground would be "too slow", against a protected beginner in its grace window."""
        slow, wrong = self._grounds(state, x)
        return slow and not wrong and self._protected(state, x, since, judged_ms)

    def _resolve(
        self, tx: Tx, seat: int, x: int, now_ms: int, before_throw: bool = False, anticipated: bool = False
    ) -> None:
        """`seat`'s challenge against seat `x`, judged on the box as it is: one `challenged` fact.

        `anticipated`: judged below the table's human floor [D floor]: a wrong challenge whatever the box says.
        """
        state = tx.state
        slow, wrong = self._grounds(state, x)
        if before_throw:
            slow = True  # judged as it stood before X's card, X's turn
        success = (slow or wrong) and not anticipated
        taker, nxt = (x, seat) if success else (seat, x)
        data: dict[str, Any] = {
            "by": seat,
            "target_seat": x,
            "colour": state["colours"][x],
            "result": "success" if success else "fail",
            "reason": ("wrong_turn" if wrong else "slow") if success else "none",
            "taker": taker,
            "cards_taken": sum(1 for e in state["box"] if "card" in e),
            "next": nxt,
            "at": now_ms,
            "settle_until_ms": now_ms + state["options"]["settle_ms"],
        }
        if before_throw:
            data["before_throw"] = True
        if anticipated:
            data["anticipated"] = True
        tx.emit(event("challenged", seat, **data))

    def _race_claimed(self, race: dict[str, Any], seat: int, claim: dict[str, Any], timing: Timing, **extra: Any) -> Event:
        """The `race_claimed` fact: the claim plus what opens the race when it is the first."""
        return event(
            "race_claimed",
            seat,
            race=race["id"],
            claim=claim,
            comp_ms=list(timing.comp_ms),
            opened_ms=race["opened_ms"],
            eligible=list(race["eligible"]),
            target=race["target"],
            **extra,
        )

    @staticmethod
    def _new_race(state: State, since: int, x: int) -> dict[str, Any]:
        return {**races.open(f"turn:{state['race_n']}", since, list(range(state["seats"]))), "target": x}

    def _claim(self, tx: Tx, seat: int, what: str, x: int, now_ms: int, timing: Timing) -> None:
        """A claim in the race of a challenge against seat `x`; settled now if nobody can still be judged earlier."""
        state = tx.state
        race = state["race"] or self._new_race(state, state["turn_since"], x)
        tx.emit(self._race_claimed(race, seat, races.claim_record(race, seat, timing, action=what), timing))
        race = tx.state["race"]
        due = races.settle_at(race)
        if due <= now_ms:
            self._settle_race(tx, now_ms)
        elif due != tx.state["race_due"]:
            tx.emit(timer_event(f"{RACE_TIMER}{race['id']}", due))

    def _settle_race(self, tx: Tx, now_ms: int) -> None:
        """The fastest judged claim goes first: a challenge (judged on the box as it is) or X's own card [D race a]."""
        race = tx.state["race"]
        ranking = races.ranking(race)
        best = races.winner(race)
        x = race["target"]
        tx.emit(event("race_settled", None, race=race["id"], ranking=ranking, winner=None if best is None else best["seat"]))
        challenges = [c for c in ranking if c["action"] == "challenge"]
        own = [c for c in ranking if c["seat"] == x]
        if best is None:  # anticipations alone: the first challenge is a wrong one, the rest returned [D floor]
            if challenges:
                self._resolve(tx, challenges[0]["seat"], x, now_ms, anticipated=True)
            for c in [*own, *challenges[1:]]:
                self._return_claim(tx, c, x)
            return
        if best["action"] == "challenge":
            self._resolve(tx, best["seat"], x, now_ms)
            for c in [*own, *challenges[1:]]:  # X's card came too late: returned, as within the settling window
                self._return_claim(tx, c, x)
            return
        if best["action"] == "throw":
            self._land(tx, x, now_ms, best["arrival_ms"], best["judged_ms"])
        else:
            self._colour_lands(tx, x, now_ms)
            if tx.state["finished"]:
                return
        # the challenges came after X's card: judged on the box with it, the first one pursued, the rest returned
        for c in challenges:
            state = tx.state
            why = self._blocked(state, c["seat"], now_ms, False)
            if why is None and self._graced(state, x, state["turn_since"], c["judged_ms"]):
                why = "grace"
            if why is not None:
                self._return_claim(tx, c, x, why)
            else:
                self._resolve(tx, c["seat"], x, now_ms, anticipated=races.is_anticipation(c))

    def _return_claim(self, tx: Tx, claim: dict[str, Any], x: int, why: str = "settling") -> None:
        state = tx.state
        s = claim["seat"]
        if claim["action"] == "challenge":
            tx.emit(event("returned", s, challenge=state["colours"][x], why=why))
        elif claim["action"] == "throw" and state["piles"][s]:
            p = state["piles"][s][0]
            tx.emit(event("returned", s, card=decode(p, state["cards"][p]), why=why))
        elif claim["action"] == "colour":
            tx.emit(event("returned", s, colour_card=state["colours"][s], why=why))

    def _before_throw(self, tx: Tx, seat: int, x: int, now_ms: int, timing: Timing) -> None:
        """A challenge judged before X's in-turn card, which arrived first: X was too slow after all [D race b].

        X takes the whole box, its own card included: the same cards, in the
        same order, as a challenge first and X's card returned after it.
        """
        state = tx.state
        lt = state["last_throw"]
        race = self._new_race(state, lt["since"], x)
        earlier = {
            "seat": x,
            "arrival_ms": lt["arrival_ms"],
            "judged_ms": lt["judged_ms"],
            "reaction_ms": max(0, lt["judged_ms"] - lt["since"]),
            "action": "throw",
        }
        race = races.with_claim(race, earlier, timing.comp_ms)
        claim = races.claim_record(race, seat, timing, action="challenge")
        tx.emit(self._race_claimed(race, seat, claim, timing, earlier=[earlier]))
        ranking = races.ranking(tx.state["race"])
        tx.emit(event("race_settled", None, race=race["id"], ranking=ranking, winner=ranking[0]["seat"]))
        self._resolve(tx, seat, x, now_ms, before_throw=True)

    def _colour_lands(self, tx: Tx, seat: int, now_ms: int) -> None:
        state = tx.state
        win = not state["piles"][seat] and state["turn"] == seat
        tx.emit(event("colour_thrown", seat, colour=state["colours"][seat], win=win, at=now_ms))
        if win:
            tx.emit(self._finish(tx.state, seat))

    def _finish(self, state: State, winner: int) -> Event:
        counts = [len(p) for p in state["piles"]]
        placements = [{"seat": winner, "place": 1}]
        others = [s for s in range(state["seats"]) if s != winner]
        for s in others:
            better = sum(1 for o in others if counts[o] < counts[s])
            placements.append({"seat": s, "place": 2 + better})
        placements.sort(key=lambda p: (p["place"], p["seat"]))
        return event(
            "finished",
            None,
            outcome={"placements": placements, "winners": [winner]},
            winner=winner,
            piles=self._reveal(state),
            box=[dict(e, out_of_turn=bool(e.get("oot"))) for e in state["box"]],
            out_of_turn=state["oot_counts"],
        )

    @staticmethod
    def _reveal(state: State) -> list[list[dict[str, Any]]]:
        codes = state["cards"]
        return [[decode(c, codes[c]) for c in pile] for pile in state["piles"]]

    def _chosen(self, state: State, seat: int, colour: str, by_timer: bool, now_ms: int) -> Event:
        return event("chosen", seat, colour=colour, target_seat=state["colours"].index(colour), by_timer=by_timer, at=now_ms)

    # --- fold: one `_fold_<kind>` per event kind (the kit gathers them), copy only what changes

    def _fold_dealt(self, state: State, ev: Event) -> State:
        data = ev["data"]
        n = data["seats"]
        dealt = [c for pile in data["piles"] for c in pile]
        codes: list[str | None] = [None] * (1 + max((c["id"] for c in dealt), default=-1))
        for c in dealt:
            codes[c["id"]] = card_code(c)
        return {
            "seats": n,
            "options": data["options"],
            "dealer": data["dealer"],
            "colours": list(data["colours"]),
            "cards": codes,
            "piles": [[c["id"] for c in p] for p in data["piles"]],
            "box": [],
            "turn": data["first"],
            "turn_since": 0,
            "waiting_choice": None,
            "choose_timer": None,
            "choose_due": None,
            "timer_seq": 0,
            "paused_until": 0,
            "settle_until": 0,
            "lr": False,
            "oot_counts": [0] * n,
            "winner": None,
            "finished": False,
            "outcome": None,
            "race": None,  # the challenge being judged [D race]: races.open + claims + `target`
            "race_due": None,  # due time of its settlement timer
            "race_n": 0,  # races settled so far (race ids are turn:<n>)
            "last_throw": None,  # the in-turn card on top of the box, while nothing else happened [D race b]
        }

    @staticmethod
    def _box_moved(state: State) -> State:
        """A copy of `state` after something happened at the box: the top card's [D race b] window closes."""
        return {**state, "last_throw": None}

    def _fold_thrown(self, state: State, ev: Event) -> State:
        s = self._box_moved(state)
        seat = ev["seat"]
        data = ev["data"]
        card = data["card"]
        oot = data["out_of_turn"]
        if not oot and card["face"] not in STOP_FACES:
            s["last_throw"] = {
                "seat": seat,
                "since": s["turn_since"],  # the start of the turn this card answered
                "arrival_ms": data.get("arrival_ms", data["at"]),  # logs from before fair races: judged on arrival
                "judged_ms": data.get("judged_ms", data["at"]),
            }
        piles = list(s["piles"])
        piles[seat] = piles[seat][1:]
        s["piles"] = piles
        s["box"] = [*s["box"], {"card": card, "seat": seat, "oot": oot}]
        if oot:
            counts = list(s["oot_counts"])
            counts[seat] += 1
            s["oot_counts"] = counts
        if card["face"] == "stop_lr":
            s["lr"] = not s["lr"]
        s["turn"] = data["next"]
        s["turn_since"] = data["at"]
        s["paused_until"] = data["paused_until_ms"]
        if data["next"] is None:
            s["waiting_choice"] = seat
        return s

    def _fold_returned(self, state: State, ev: Event) -> State:
        card = ev["data"].get("card")
        if card is None:
            return dict(state)
        seat = ev["seat"]
        piles = list(state["piles"])
        piles[seat] = [*piles[seat][1:], card["id"]]
        return {**state, "piles": piles}

    def _fold_colours_passed(self, state: State, ev: Event) -> State:
        return {**self._box_moved(state), "colours": list(ev["data"]["colours"])}

    def _fold_race_claimed(self, state: State, ev: Event) -> State:
        data = ev["data"]
        race = state["race"]
        if race is None:
            race = {**races.open(data["race"], data["opened_ms"], data["eligible"]), "target": data["target"]}
            for c in data.get("earlier", ()):
                race = races.with_claim(race, c, data["comp_ms"])
        return {**state, "race": races.with_claim(race, data["claim"], data["comp_ms"])}

    def _fold_race_settled(self, state: State, ev: Event) -> State:
        return {**state, "race": None, "race_due": None, "race_n": state["race_n"] + 1}

    def _fold_timer(self, state: State, ev: Event) -> State:
        data = ev["data"]
        if data["id"].startswith(RACE_TIMER):
            return {**state, "race_due": data["due_ms"]}
        return {**state, "choose_timer": data["id"], "choose_due": data["due_ms"], "timer_seq": state["timer_seq"] + 1}

    def _fold_chosen(self, state: State, ev: Event) -> State:
        data = ev["data"]
        s = self._box_moved(state)
        s.update(waiting_choice=None, choose_timer=None, choose_due=None, turn=data["target_seat"], turn_since=data["at"])
        return s

    def _fold_challenged(self, state: State, ev: Event) -> State:
        data = ev["data"]
        s = self._box_moved(state)
        taker = data["taker"]
        piles = list(s["piles"])
        piles[taker] = piles[taker] + [e["card"]["id"] for e in s["box"] if "card" in e]
        s.update(
            piles=piles,
            box=[],
            lr=False,
            turn=data["next"],
            turn_since=data["at"],
            settle_until=data["settle_until_ms"],
            paused_until=0,
        )
        return s

    def _fold_colour_thrown(self, state: State, ev: Event) -> State:
        data = ev["data"]
        s = self._box_moved(state)
        if data["win"]:
            s["winner"] = ev["seat"]
        else:
            s["box"] = [*s["box"], {"colour_card": data["colour"], "seat": ev["seat"]}]
        return s

    def _fold_finished(self, state: State, ev: Event) -> State:
        return {**state, "finished": True, "outcome": ev["data"]["outcome"]}

    # --- what seats see ---------------------------------------------------------------

    def legal_actions(self, state: State, seat: int | None) -> list[Action]:
        """What `seat` may submit now, from what its view shows (pile counts, colour cards, the race, the choice).

        Listed: a throw while the pile has cards and a colour card while it is
        not in the box — in turn or not, inside a window or not (out-of-turn
        throws are punished mistakes; returned cards are moves too) — a
        challenge against every other colour, and a choice of every colour in
        play for the seat a `stop_choose` waits for. Not listed: what a race
        the seat already claimed in would refuse (`already_claimed`).
        [D legal] A challenge against a protected beginner is listed although
        the box refuses it (`grace`) when its only ground would be "too
        slow": whether it would tells whose turn it is and which cards were
        out of turn, which the seat does not see.
        [D legal] The list is of the state as it stands: a race whose timer is
        late is still pending here, and decide settles it before the action.
        """
        if state is None or state["finished"] or not is_int(seat) or not 0 <= seat < state["seats"]:
            return []
        race = state["race"]
        claimed = race is not None and self._claimed(race, seat)
        answered = claimed and seat == race["target"]  # X's own card or colour card is on its way
        colours = state["colours"]
        out: list[Action] = []
        if state["piles"][seat] and not answered:
            out.append({"kind": "throw"})
        if not answered and not self._colour_card_in_box(state, seat):
            out.append({"kind": "colour"})
        for s, colour in enumerate(colours):
            if s != seat and not (claimed and s == race["target"]):
                out.append({"kind": "challenge", "target": colour})
        if state["waiting_choice"] == seat:
            out.extend({"kind": "choose", "colour": colour} for colour in colours)
        return out

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """The public table (the same for every seat: nothing in ZACK! is private), plus the seat's `legal` actions."""
        colours = state["colours"]
        finished = state["finished"]
        in_box = {e["colour_card"] for e in state["box"] if "colour_card" in e}
        seats = []
        revealed = self._reveal(state) if finished else None
        for s in range(state["seats"]):
            row: dict[str, Any] = {
                "seat": s,
                "colour": colours[s],
                "pile": len(state["piles"][s]),
                "challenge_colours": [c for c in colours if c != colours[s]],
                "colour_card_in_box": colours[s] in in_box,
            }
            if revealed is not None:
                row["cards"] = revealed[s]
            seats.append(row)
        box = []
        for e in state["box"]:
            if "card" in e:
                item: dict[str, Any] = {"card": e["card"], "seat": e["seat"]}
                if finished:
                    item["out_of_turn"] = e["oot"]
            else:
                item = {"colour_card": e["colour_card"], "seat": e["seat"]}
            box.append(item)
        opts = state["options"]
        race = state["race"]
        return {
            "seats": seats,
            # a challenge being judged (public: who claimed what, and when it is settled) [D race]
            "race": None
            if race is None
            else {
                "id": race["id"],
                "target": race["target"],
                "opened_ms": race["opened_ms"],
                "claims": [{"seat": c["seat"], "action": c["action"], "reaction_ms": c["reaction_ms"]} for c in race["claims"]],
                "due_ms": state["race_due"],
            },
            "box": box,
            "lr_swapped": state["lr"],
            "paused_until_ms": state["paused_until"],
            "settle_until_ms": state["settle_until"],
            "waiting_choice": state["waiting_choice"],
            "choose_due_ms": state["choose_due"],
            "dealer": state["dealer"],
            "options": opts,
            "finished": finished,
            "winner": state["winner"],
            "outcome": state["outcome"],
            "turn": state["turn"] if (opts["show_turn"] or finished) else None,
            # [D opens] who throws onto the empty box: public (the deal or the challenge just said so), and what a
            # newcomer needs to know first; null once the box holds a card (then reading it is the game)
            "opens": state["turn"] if not state["box"] and not finished else None,
            "out_of_turn": state["oot_counts"] if finished else None,
            "legal": self.legal_actions(state, seat),
        }

    def view_all(self, state: State) -> dict[str, Any]:
        """The replay's "everything" table: the public view plus what the box keeps to itself.

        Same shape as `view(state, None)` so the renderer draws it, with the
        secrets filled in as the finished view shows them: each pile's cards
        (top first), every box card's out-of-turn flag, whose turn it is and
        the per-seat out-of-turn counts. Replays only: never sent live.
        """
        out = self.view(state, None)
        codes = state["cards"]
        out["seats"] = [dict(row, cards=[decode(c, codes[c]) for c in state["piles"][row["seat"]]]) for row in out["seats"]]
        out["box"] = [
            dict(item, out_of_turn=bool(entry.get("oot"))) if "card" in entry else item
            for item, entry in zip(out["box"], state["box"], strict=True)
        ]
        out["turn"] = state["turn"]
        out["out_of_turn"] = list(state["oot_counts"])
        return out

    def redact(self, ev: Event, seat: int | None) -> Event | None:
        """Pile order is nobody's; out-of-turn flags and the expected thrower stay secret till the end."""
        kind = ev["kind"]
        if kind == "dealt":
            data = dict(ev["data"])
            data["piles"] = [len(p) for p in data["piles"]]
            return {"kind": kind, "seat": ev["seat"], "data": data}
        if kind == "thrown":
            d = ev["data"]
            data = {"card": d["card"], "at": d["at"], "paused_until_ms": d["paused_until_ms"]}
            return {"kind": kind, "seat": ev["seat"], "data": data}
        return ev

    moves = {
        "throw": _throw,
        "challenge": _challenge,
        "colour": _colour,
        "choose": _choose,
        TIMER: _timer,
    }


RULES = ZackRules()
