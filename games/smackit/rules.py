"""Smack It! — pure rules (see shared/rules/smackit.md).

This module is the whole game: no Django, no I/O, no clock, no global random.
Time enters only as `now_ms`; every random outcome (the deal, a shuffled won
pile) is written into events by `setup`/`decide`, so `fold` merely applies
facts and a stored log replays identically forever.

Cards are ids 0..56 (the deck is data in one place, `DECK`): ids 0..49 are the
numbers 1..50, 50..53 the four `challenge` cards, 54..56 the three `smack`
cards. Piles are lists of ids, top card first; the centre pile is a list of
ids, *bottom card first* (a flip appends, a forfeit goes in front).

Decisions beyond the rules page, marked [D] as on the rules page:

- [D1] Won piles go under the winner's pile face down: the centre pile is
  turned over as a block, so its bottom card (a forfeit, or the first card
  flipped) becomes the first of the won cards to come up again.
- [D2] A challenge round is contested by the players who hold cards when it
  starts (or restarts): clockwise from the player after the challenge's
  flipper, the flipper last. A participant who holds no card when his turn in
  the round comes is skipped. Numbers 1..50 are unique, so a round never ties
  (the rulebook's bull's-eye tie-break is not needed).
- [D3] A round in which no number was flipped (only smack cards nobody
  smacked, flipped over by the idle timer) ends without a winner: the cards
  stay in the centre and play goes on with the next player holding cards
  after the challenge's flipper.
- [D4] A smack won during a challenge round ends the round; the smacker
  flips next (the rulebook: the winner restarts play).
- [D5] Going out is settled when no challenge round is running: a player who
  empties his pile during a round (his last card flipped into the round, or
  forfeited) still plays for that round and is out at its end only if he did
  not win the pile. Players who go out at the same moment share their place.
- [D6] A player holding no cards who false-smacks is out for good at once
  (no card to forfeit); a pile won by a player who is out (by smack, or by a
  round he still took part in) is removed from play, and the player to his
  left who holds cards flips next.
- [D7] "The slowest takes back": a smack within `smack_grace_ms` after the
  winning smack is ignored (no penalty) — whatever is on top by then, unless
  that is a new smack card judged already lying there, which it then claims
  [D19]. The ignored smack carries
  `behind_ms` (how far behind the winner it came). The same holds for the
  winner's own double smack. `smack_grace_ms` 0 disables the window.
- [D8] A forfeited card goes face up to the bottom of the centre; when the
  centre is empty it is also the top card (a forfeited smack card may then be
  smacked, like any smack card lying on top).
- [D9] `auto_flip_seconds` 0 switches the idle-flip timer off; `max_minutes`
  0 switches the length limit off. The system flip is the idle player's own
  top card (`flipped` with `auto: true`).
- [D10] At the length limit: players holding cards are placed by cards held
  (more is better, equal counts share a place), above every player already
  out; out players keep their going-out order. If the last cards leave play
  so that nobody holds any, the players who went out last share first place.
- [D11] `score` in the outcome is the number of cards the seat holds at the
  end.
- [D12] After the end every action, timers included, is `match_over`.
- [D13] Secrecy: pile order is seen by nobody, owner included; `dealt` is
  redacted to pile sizes for every seat. Every card that lies face up in the
  centre is public, so `pile_won` lists the won cards (all seen on the
  table); with `shuffle_won` the new order under the pile is kept in the
  event's `order`, which redaction drops. Views never list cards under a
  pile. The `finished` event reveals every pile and the removed cards.
- [D14] Play stops for the smack race: while a smack card lies on top (flipped,
  or forfeited onto an empty centre [D8]) a `flip` is `smack_pending`, for the
  turn holder as for anyone when the turn is nobody's. Only the idle timer
  flips over it (the turn holder's own top card, `auto: true`), so a table of
  absent players never stalls; with `auto_flip_seconds` 0 only a smack goes on.
- [D15] A smack card flipped as the last card of a challenge round is raced
  for before the round is settled: the turn is nobody's (`next: null`) and
  the first smack wins the pile and ends the round [D4]. If nobody smacks,
  the idle timer settles the round as if the smack card were not there (the
  highest number wins, or [D3]).
- [D16] Fair races (PROTOCOL "Fair races"): `smack` is the race action
  (`races`). The race for a smack card lying on top opens with the first smack
  on it; it was open since the card was placed (`top_at`, the flip's or the
  forfeit's `now_ms`), so a claim's `reaction_ms` is its judged time minus
  that moment (never negative: a smack judged before it is no claim [D19]).
  Each claim is a `race_claimed` event (arrival and judged time); the race is settled when no seat that has not claimed could
  still be judged faster (`races.settle_at`), at once when nobody is
  compensated, else by the `race:<id>` timer or lazily by the first action
  arriving after that moment. The fastest judged claim wins the pile
  (`race_settled`, then `smacked` win, `pile_won`).
- [D17] The other claimants of a race are judged like late smacks [D7], by
  judged time: within `smack_grace_ms` behind the winner's judged time they
  are ignored (`behind_ms`), beyond it they are false smacks, in ranking order
  right after the pile is won. A smack after the settlement is a late smack
  judged the same way (a judged time before the winner's, possible only when
  the sender's round trip grew meanwhile, counts as 0 ms behind). False smacks
  while no race is open are immediate moves, as before.
- [D18] While a race is pending the smack card stays on top: a flip is still
  `smack_pending` [D14], the idle timer does nothing (the settlement hands the
  turn to the winner and re-arms it), and a second smack by a seat whose claim
  is pending is a RuleError `already_smacked` (its hand already lies on the
  card). The length limit settles a pending race at once, then ends the match.
- [D19] A smack is judged against the card that lay on top at its judged
  time. One judged before the smack card on top was placed (its arrival minus
  the sender's compensation earlier than the flip or forfeit that put it
  there) cannot be a reaction to it: the sender's screen could not yet show
  it. It was aimed at what lay there before, so it is a late smack [D7, D17]:
  ignored within `smack_grace_ms` behind the last win (a slow line's smack
  for the card just won), else false. Without this, a player far away whose
  smack for a card just won arrived after the winner's next flip turned up
  another smack card won that one with 0 ms, before anyone could see it
  (tests/integration/test_fair_races.py, 2 of 10 races in CI). No margin is
  given: an honest claim is judged before the card only when the round-trip
  estimate (a median of five, games/kit/latency.py) overshoots by more than a
  human reaction, 100 ms at the very least.
- [D20] A human floor (PROTOCOL "Fair play"): a smack on the smack card on
  top judged less than the table's `min_reaction_ms` after the card was
  placed cannot be a reaction to it (nobody could yet see it): it is an
  anticipation. It is still a claim in the race (`race_claimed` with
  `"anticipated": true`; the seat's hand lies on the card, so a second smack
  on that card is `already_smacked`, also once its race is settled: no retry
  until the floor has passed), and it is at once a false smack — the
  rulebook's penalty for a smack on nothing to smack: one card forfeited
  (`smacked` `result: false`, `anticipated: true`; no grace, since it came
  before the card rather than behind a winner). It ranks after every real
  claim and never wins; a race holding only anticipations is settled at once
  with `winner: null` and the smack card stays on top for the others. With
  `min_reaction_ms` 0 (unranked tables only) there is no floor.
- [D kit] The checks before every move are the shared kit's (engine.GameRules):
  a malformed race `Timing` (not whole numbers, a negative compensation) is
  refused with `bad_action`; the error codes are otherwise unchanged.
- [D legal] `legal_actions` (in every seat's view as `legal`) lists a smack for
  every seat not out for good and not already claiming in the pending race,
  and a flip for the turn holder unless a smack card lies on top. It is of the
  state as it stands: a race whose timer is late still counts as pending
  (decide settles it before the action).
"""

from __future__ import annotations

import random
from typing import Any

from games.engine import TIMER, Action, Event, GameRules, Option, RuleError, State, Timing, Tx, event, is_int, timer_event
from games.kit import races
from games.kit.memo import last_state
from games.kit.opening import deal_round, open_table, shuffled

NUMBERS = 50
CHALLENGES = 4
SMACKS = 3


def _build_deck() -> list[dict[str, Any]]:
    """The 57 cards, indexed by id: the composition lives here and only here."""
    deck: list[dict[str, Any]] = [{"id": i, "face": "number", "value": i + 1} for i in range(NUMBERS)]
    deck += [{"id": NUMBERS + i, "face": "challenge"} for i in range(CHALLENGES)]
    deck += [{"id": NUMBERS + CHALLENGES + i, "face": "smack"} for i in range(SMACKS)]
    return deck


DECK: list[dict[str, Any]] = _build_deck()

LIMIT_TIMER = "limit"
RACE_TIMER = "race:"  # prefix: the timer `race:<race id>` settles that race


def _smack_on_top(st: State) -> bool:
    """A smack card on top stops play until it is smacked or the idle timer flips [D14]."""
    centre = st["centre"]
    return bool(centre) and DECK[centre[-1]]["face"] == "smack"


def _round_waits(st: State) -> bool:
    """A complete round whose last card, a smack card, is still raced for [D15].

    A running round hands the turn on to its next flipper; the turn is nobody's
    only once every participant has flipped and the round is not settled yet.
    """
    return st["challenge"] is not None and st["turn"] is None and not st["finished"]


def _card(cid: int) -> dict[str, Any]:
    """A fresh card dict for a message (messages never share dicts with each other)."""
    return dict(DECK[cid])


def _turn_changed(tx: Tx) -> bool:
    """Whether this decision handed the turn on (an event carrying `next`): then the idle timer is re-armed."""
    return any("next" in e["data"] for e in tx.events)


class SmackItRules(GameRules):
    """The pure Smack It! rules object on the shared game kit (`engine.GameRules`).

    `decide` is the kit's: its checks, then `before_move` (the lazy race
    settlement), then the move table `moves` at the end of the class. `fold`
    is the kit's too, through `folds` (its `_fold_<kind>` functions).
    """

    slug = "smackit"
    races: frozenset[str] = frozenset({"smack"})  # action kinds judged as races (PROTOCOL "Fair races") [D16]
    name = "Smack It!"
    min_seats = 2
    max_seats = 6
    teams = False
    options: dict[str, Option] = {
        "smack_grace_ms": Option(
            "int", 300, "Smacks this many ms after the winning smack are ignored, not punished", minimum=0, maximum=2000
        ),
        "auto_flip_seconds": Option(
            "int", 10, "The system flips for a player idle this long (0 = never)", minimum=0, maximum=120
        ),
        "max_minutes": Option("int", 20, "Match length limit in minutes (0 = none)", minimum=0, maximum=240),
        "shuffle_won": Option("bool", False, "Shuffle a won pile before putting it under your own"),
        "dealer": Option("int", -1, "Dealer seat (-1 = the last seat)", minimum=-1, maximum=5, internal=True),
    }

    # ------------------------------------------------------------------ setup

    def setup(self, seats: int, options: dict[str, Any], rng: random.Random) -> list[Event]:
        """Shuffle and deal every card one by one, starting left of the dealer."""
        o = open_table(self, seats, options)
        dealer, first = o.dealer, o.first
        opts = o.options_placed
        dealt = deal_round(shuffled(range(len(DECK)), rng), seats, first)
        # each dealt card lands on top of the pile: the last one dealt is on top
        piles = [[dict(DECK[c]) for c in reversed(p)] for p in dealt]
        events = [event("dealt", None, seats=seats, dealer=dealer, first=first, options=opts, piles=piles)]
        if opts["max_minutes"] > 0:
            events.append(timer_event(LIMIT_TIMER, opts["max_minutes"] * 60_000))
        if opts["auto_flip_seconds"] > 0:
            events.append(timer_event("flip:0", opts["auto_flip_seconds"] * 1000))
        return events

    # ------------------------------------------------------------------- fold

    # One function per event kind, `_fold_<kind>` (the kit gathers them into `folds`): each copies only
    # what changes (no deepcopy: the fold is the hot path) and never mutates its input.

    def _fold_dealt(self, state: State, e: Event) -> State:
        d = e["data"]
        n = d["seats"]
        return {
            "seats": n,
            "options": dict(d["options"]),
            "dealer": d["dealer"],
            "piles": [[c["id"] for c in p] for p in d["piles"]],
            "centre": [],
            "forfeits": 0,
            "top_at": None,
            "under": None,  # the card the top card was flipped onto (None: an empty centre) [D19]
            "anticipated": None,  # [opened_ms, seats] that anticipated the smack card placed then [D20]
            "removed": [],
            "turn": d["first"],
            "challenge": None,
            "last_win": None,
            "out_at": [None] * n,
            "out_groups": 0,
            "for_good": [False] * n,
            "flip_timer": None,
            "flip_due": None,
            "limit_due": None,
            "timer_n": 0,
            "race": None,  # the open smack race [D16]: races.open + claims
            "race_due": None,  # due time of its settlement timer
            "race_n": 0,  # races settled so far (race ids are smack:<n>)
            "flips": 0,
            "rounds": 0,
            "finished": False,
            "outcome": None,
            "reason": None,
        }

    @staticmethod
    def _top_taken(state: State, e: Event) -> tuple[State, int, int]:
        """A copy of the state with the event seat's top card taken off its pile (a flip, a forfeit): (state, seat, card)."""
        st = dict(state)
        s = e["seat"]
        piles = list(st["piles"])
        piles[s] = piles[s][1:]
        st["piles"] = piles
        return st, s, e["data"]["card"]["id"]

    def _fold_flipped(self, state: State, e: Event) -> State:
        d = e["data"]
        st, s, cid = self._top_taken(state, e)
        st["under"] = st["centre"][-1] if st["centre"] else None
        st["centre"] = [*st["centre"], cid]
        st["top_at"] = d["at_ms"]
        st["turn"] = d["next"]
        st["flips"] = st["flips"] + 1
        ch = st["challenge"]
        if ch is not None:
            ch = dict(ch)
            ch["flips"] = [*ch["flips"], [s, cid]]
            card = DECK[cid]
            if card["face"] == "number" and (ch["best"] is None or card["value"] > DECK[ch["best"][1]]["value"]):
                ch["best"] = [s, cid]
            st["challenge"] = ch
        return st

    def _fold_timer(self, state: State, e: Event) -> State:
        d = e["data"]
        st = dict(state)
        tid = d["id"]
        if tid == LIMIT_TIMER:
            st["limit_due"] = d["due_ms"]
        elif tid.startswith(RACE_TIMER):
            st["race_due"] = d["due_ms"]
        else:
            st["flip_timer"] = tid
            st["flip_due"] = d["due_ms"]
            st["timer_n"] = st["timer_n"] + 1
        return st

    def _fold_race_claimed(self, state: State, e: Event) -> State:
        d = e["data"]
        st = dict(state)
        race = st.get("race")
        if race is None:
            race = races.open(d["race"], d["opened_ms"], d["eligible"])
        st["race"] = races.with_claim(race, d["claim"], d["comp_ms"])
        if races.is_anticipation(d["claim"]):  # [D20]: its hand stays on that card
            before = st.get("anticipated")
            seats = before[1] if before and before[0] == d["opened_ms"] else []
            st["anticipated"] = [d["opened_ms"], sorted({*seats, d["claim"]["seat"]})]
        return st

    def _fold_race_settled(self, state: State, e: Event) -> State:
        st = dict(state)
        st["race"] = None
        st["race_due"] = None
        st["race_n"] = st.get("race_n", 0) + 1
        return st

    def _fold_smacked(self, state: State, e: Event) -> State:
        d = e["data"]
        st = dict(state)
        result = d["result"]
        if result == "win":
            st["last_win"] = {
                "seat": e["seat"],
                "at_ms": d["at_ms"],
                "judged_ms": d.get("judged_ms", d["at_ms"]),  # logs from before fair races: judged on arrival
                "reaction_ms": d["reaction_ms"],
                "card": d["card"]["id"],
                "behind": [],
            }
        elif result == "ignored" and st["last_win"] is not None:
            lw = dict(st["last_win"])
            lw["behind"] = [*lw["behind"], [e["seat"], d["behind_ms"]]]
            st["last_win"] = lw
        return st

    def _fold_pile_won(self, state: State, e: Event) -> State:
        d = e["data"]
        st = dict(state)
        ids = d["order"] if "order" in d else [c["id"] for c in d["cards"]]
        if d["removed"]:
            st["removed"] = [*st["removed"], *ids]
        else:
            piles = list(st["piles"])
            piles[e["seat"]] = [*piles[e["seat"]], *ids]
            st["piles"] = piles
        st["centre"] = []
        st["forfeits"] = 0
        st["top_at"] = None
        st["under"] = None
        st["challenge"] = None
        st["turn"] = d["next"]
        return st

    def _fold_forfeited(self, state: State, e: Event) -> State:
        d = e["data"]
        st, _, cid = self._top_taken(state, e)
        if not st["centre"]:
            st["top_at"] = d["at_ms"]
            st["under"] = None
        st["centre"] = [cid, *st["centre"]]
        st["forfeits"] = st["forfeits"] + 1
        return st

    def _fold_out(self, state: State, e: Event) -> State:
        d = e["data"]
        st = dict(state)
        s = e["seat"]
        if st["out_at"][s] is None:
            out_at = list(st["out_at"])
            out_at[s] = d["group"]
            st["out_at"] = out_at
            st["out_groups"] = max(st["out_groups"], d["group"])
        if d["for_good"]:
            fg = list(st["for_good"])
            fg[s] = True
            st["for_good"] = fg
        return st

    def _fold_challenge_started(self, state: State, e: Event) -> State:
        d = e["data"]
        st = dict(state)
        st["challenge"] = {"by": d["by"], "order": list(d["order"]), "flips": [], "best": None}
        st["rounds"] = st["rounds"] + 1
        return st

    _fold_challenge_restarted = _fold_challenge_started

    def _fold_challenge_ended(self, state: State, e: Event) -> State:
        d = e["data"]
        st = dict(state)
        st["challenge"] = None
        st["turn"] = d["next"]
        return st

    def _fold_turn(self, state: State, e: Event) -> State:
        d = e["data"]
        st = dict(state)
        st["turn"] = d["next"]
        return st

    def _fold_finished(self, state: State, e: Event) -> State:
        d = e["data"]
        st = dict(state)
        st["finished"] = True
        st["outcome"] = d["outcome"]
        st["reason"] = d["reason"]
        st["turn"] = None
        st["flip_timer"] = None
        st["flip_due"] = None
        return st

    # ----------------------------------------------------------------- decide

    def before_move(self, tx: Tx, seat: int | None, kind: str, now_ms: int, rng: random.Random) -> None:
        """Settle a pending race whose window has closed [D16], lazily, so the state is right even when its timer is late.

        If the action itself is then refused, nothing is committed and the
        settlement waits for its timer or the next action.
        """
        race = tx.state["race"]
        if race is not None and races.settle_at(race) <= now_ms:
            self._settle_race(tx, now_ms, rng)

    def _flip(self, tx: Tx, seat: int, action: Action, now_ms: int, rng: random.Random, timing: Timing | None) -> None:
        """The turn holder's flip; refused while a smack card on top is raced for [D14]."""
        st = tx.state
        if _smack_on_top(st) and st["turn"] in (seat, None):
            raise RuleError("smack_pending", "a Smack it! card lies on top: smack it, nobody flips now")
        if st["turn"] != seat:
            raise RuleError("not_your_turn", "it is not your turn to flip")
        self._flip_card(tx, seat, now_ms, rng, auto=False)

    def _timer(self, tx: Tx, seat: int | None, action: Action, now_ms: int, rng: random.Random, timing: Timing | None) -> None:
        """The system's move: the length limit, an idle player's flip, a race's settlement (done by before_move)."""
        state = tx.state
        tid = action["id"]
        if tid == LIMIT_TIMER and state["limit_due"] is not None:
            if state.get("race") is not None:
                self._settle_race(tx, now_ms, rng)  # the limit closes the window [D18]
            if not tx.state["finished"]:
                self._finish(tx, "time_limit")
            return
        if state.get("race") is not None:
            return  # the race's own timer not yet due, or an idle timer while a race is judged [D18]
        if tid == state["flip_timer"] and state["turn"] is not None:
            self._flip_card(tx, state["turn"], now_ms, rng, auto=True)
        elif tid == state["flip_timer"] and _round_waits(state):
            self._resolve_round(tx, rng)  # nobody smacked the round's last card [D15]
            self._settle(tx, now_ms, rng)
        # anything else is stale (a settled race's timer included)

    def _flip_card(self, tx: Tx, s: int, now_ms: int, rng: random.Random, auto: bool) -> None:
        """`s` flips its top card (by hand or, `auto`, by the idle timer [D9]); a challenge starts or goes on."""
        state = tx.state
        piles = state["piles"]
        n = state["seats"]
        cid = piles[s][0]
        card = DECK[cid]

        def holds(x: int) -> bool:
            return len(piles[x]) > (1 if x == s else 0)

        ch = state["challenge"]
        if card["face"] == "challenge":
            order = [x for x in ((s + k) % n for k in range(1, n + 1)) if holds(x)]
            nxt = order[0] if order else None
            tx.emit(event("flipped", s, card=_card(cid), at_ms=now_ms, next=nxt, auto=auto))
            kind = "challenge_restarted" if ch is not None else "challenge_started"
            tx.emit(event(kind, s, by=s, order=order))
            if nxt is None:
                self._resolve_round(tx, rng)
        elif ch is not None:
            order = ch["order"]
            rest = order[order.index(s) + 1 :] if s in order else []
            nxt = next((x for x in rest if holds(x)), None)
            tx.emit(event("flipped", s, card=_card(cid), at_ms=now_ms, next=nxt, auto=auto))
            if nxt is None and card["face"] != "smack":
                self._resolve_round(tx, rng)  # a smack card is raced for first [D15]
        else:
            nxt = next(x for x in ((s + k) % n for k in range(1, n + 1)) if holds(x) or x == s)
            if not holds(nxt):
                nxt = None  # nobody holds cards any more: the settle below ends the match
            tx.emit(event("flipped", s, card=_card(cid), at_ms=now_ms, next=nxt, auto=auto))
        self._settle(tx, now_ms, rng)

    def _smack(self, tx: Tx, s: int, action: Action, now_ms: int, rng: random.Random, timing: Timing) -> None:
        """Anyone's smack: a claim in the race for a smack card on top [D16], else a late or false smack [D7]."""
        st = tx.state
        if st["for_good"][s]:
            raise RuleError("out_for_good", "you are out for good and can no longer smack")
        race = st.get("race")
        early = False
        if race is not None or _smack_on_top(st):
            if race is not None and any(c["seat"] == s for c in race["claims"]):
                raise RuleError("already_smacked", "your hand already lies on this card: the race is being judged")
            placed = race["opened_ms"] if race is not None else st["top_at"]
            ahead = st.get("anticipated")
            if ahead and ahead[0] == placed and s in ahead[1]:
                raise RuleError("already_smacked", "your hand came down on this card before anyone could see it")
            if placed is None or timing.judged_ms >= placed:
                self._claim(tx, s, now_ms, rng, timing)
                return
            early = True  # judged before this smack card lay there: aimed at what lay on top before it [D19]
        if not self._late_smack(tx, s, timing.arrival_ms, timing.judged_ms, now_ms, rng, early=early):
            self._settle(tx, now_ms, rng)

    def _claim(self, tx: Tx, s: int, now_ms: int, rng: random.Random, timing: Timing) -> None:
        """A smack on the smack card on top opens or joins its race; settled now if nobody can still beat it [D16]."""
        st = tx.state
        race = st.get("race")
        if race is None:
            opened = st["top_at"] if st["top_at"] is not None else now_ms
            eligible = [x for x in range(st["seats"]) if not st["for_good"][x]]
            race = races.open(f"smack:{st.get('race_n', 0)}", opened, eligible)
        claim = races.claim_record(race, s, timing)
        tx.emit(
            event(
                "race_claimed",
                s,
                race=race["id"],
                claim=claim,
                comp_ms=list(timing.comp_ms),
                opened_ms=race["opened_ms"],
                eligible=list(race["eligible"]),
            )
        )
        if races.is_anticipation(claim):
            # a hand on the card before a person could see it: a false smack at once [D20]
            self._late_smack(tx, s, timing.arrival_ms, timing.judged_ms, now_ms, rng, anticipated=True)
        race = tx.state["race"]
        due = races.settle_at(race)
        if due <= now_ms:
            self._settle_race(tx, now_ms, rng)
        elif due != tx.state.get("race_due"):
            tx.emit(timer_event(f"{RACE_TIMER}{race['id']}", due))

    def _settle_race(self, tx: Tx, now_ms: int, rng: random.Random) -> None:
        """The fastest judged claim wins the pile; the others are late smacks behind it [D16, D17]."""
        race = tx.state["race"]
        ranking = races.ranking(race)
        best = races.winner(race)
        if best is None:  # anticipations alone: nobody wins, the smack card stays on top [D20]
            tx.emit(event("race_settled", None, race=race["id"], ranking=ranking, winner=None))
            self._settle(tx, now_ms, rng)
            return
        w = best["seat"]
        tx.emit(event("race_settled", None, race=race["id"], ranking=ranking, winner=w))
        top = tx.state["centre"][-1]
        tx.emit(
            event(
                "smacked",
                w,
                result="win",
                card=_card(top),
                at_ms=best["arrival_ms"],
                judged_ms=best["judged_ms"],
                reaction_ms=best["reaction_ms"],
                race=race["id"],
            )
        )
        self._win_pile(tx, w, "smack", rng)
        for c in ranking[1:]:
            if not races.is_anticipation(c):  # an anticipation paid when it came [D20]
                self._late_smack(tx, c["seat"], c["arrival_ms"], c["judged_ms"], now_ms, rng)
        self._settle(tx, now_ms, rng)

    def _late_smack(
        self,
        tx: Tx,
        s: int,
        arrival_ms: int,
        judged_ms: int,
        now_ms: int,
        rng: random.Random,
        *,
        early: bool = False,
        anticipated: bool = False,
    ) -> bool:
        """A smack while no smack card lies on top: ignored within the grace behind the last win, else false [D7, D17].

        `early`: judged before the smack card on top was placed [D19], so it is
        judged against the card it was flipped onto (`under`), or an empty
        centre; its event says `early`. `anticipated`: a claim on the smack card
        on top judged below the table's human floor [D20]: false whatever the
        grace, its event says `anticipated`.
        True when it was ignored (nothing else changes, nothing to settle).
        """
        state = tx.state
        centre = state["centre"]
        top = state.get("under") if early else (centre[-1] if centre else None)  # .get: states folded before [D19]
        flag = {"early": True} if early else {"anticipated": True} if anticipated else {}
        lw = state["last_win"]
        grace = state["options"]["smack_grace_ms"]
        if not anticipated and lw is not None and grace > 0 and judged_ms - lw.get("judged_ms", lw["at_ms"]) <= grace:
            behind = max(0, judged_ms - lw.get("judged_ms", lw["at_ms"]))
            tx.emit(
                event("smacked", s, result="ignored", at_ms=arrival_ms, judged_ms=judged_ms, behind_ms=behind, winner=lw["seat"],
                      **flag)
            )
            return True  # nothing else changes
        tx.emit(
            event(
                "smacked",
                s,
                result="false",
                at_ms=arrival_ms,
                judged_ms=judged_ms,
                top=None if top is None else _card(top),
                **flag,
            )
        )
        if state["out_at"][s] is not None or not state["piles"][s]:
            group = state["out_groups"] + 1 if state["out_at"][s] is None else state["out_at"][s]
            tx.emit(event("out", s, for_good=True, group=group))
            return False
        tx.emit(event("forfeited", s, card=_card(state["piles"][s][0]), at_ms=now_ms))
        st = tx.state
        if not st["piles"][s] and st["turn"] == s:
            ch = st["challenge"]
            n = st["seats"]
            if ch is not None:
                order = ch["order"]
                rest = order[order.index(s) + 1 :] if s in order else []
                nxt = next((x for x in rest if st["piles"][x]), None)
                if nxt is None:
                    self._resolve_round(tx, rng)
                else:
                    tx.emit(event("turn", None, next=nxt))
            else:
                nxt = next((x for x in ((s + k) % n for k in range(1, n)) if st["piles"][x]), None)
                if nxt is not None:
                    tx.emit(event("turn", None, next=nxt))
        return False

    def _win_pile(self, tx: Tx, w: int, by: str, rng: random.Random) -> None:
        """The centre goes under `w`'s pile, or out of play when `w` is out [D6]."""
        st = tx.state
        n = st["seats"]
        removed = st["out_at"][w] is not None
        if removed:
            nxt = next((x for x in ((w + k) % n for k in range(1, n)) if st["piles"][x]), None)
        else:
            nxt = w
        cards = [_card(c) for c in st["centre"]]
        data: dict[str, Any] = {"cards": cards, "by": by, "removed": removed, "next": nxt}
        if st["options"]["shuffle_won"] and not removed:
            order = shuffled([c["id"] for c in cards], rng)
            data["order"] = order
            data["shuffled"] = True
        tx.emit({"kind": "pile_won", "seat": w, "data": data})

    def _resolve_round(self, tx: Tx, rng: random.Random) -> None:
        """The round is complete: the highest number takes the centre [D2, D3]."""
        ch = tx.state["challenge"]
        if ch["best"] is not None:
            self._win_pile(tx, ch["best"][0], "challenge", rng)
        else:
            st = tx.state
            n = st["seats"]
            by = ch["by"]
            nxt = next((x for x in ((by + k) % n for k in range(1, n + 1)) if st["piles"][x]), None)
            tx.emit(event("challenge_ended", None, by=by, next=nxt))

    def _settle(self, tx: Tx, now_ms: int, rng: random.Random) -> None:
        """Outs, the end, and a fresh idle timer whenever the turn was handed on.

        A race still pending when one player alone holds cards (a stale smack
        [D19] forfeited the last card of another) is settled first, as the
        length limit does [D18]: the log then says who won that card.
        """
        st = tx.state
        if st["challenge"] is None:
            n = st["seats"]
            empties = [x for x in range(n) if not st["piles"][x] and st["out_at"][x] is None]
            if empties:
                group = st["out_groups"] + 1
                for x in empties:
                    tx.emit(event("out", x, for_good=False, group=group))
                st = tx.state
            holders = sum(1 for x in range(n) if st["piles"][x])
            if holders <= 1:
                if st.get("race") is not None:
                    self._settle_race(tx, now_ms, rng)  # ends with this settle again, the race gone
                    return
                self._finish(tx, "last_player")
                return
        secs = st["options"]["auto_flip_seconds"]
        if _turn_changed(tx) and secs > 0 and (st["turn"] is not None or _round_waits(st)):
            # The idle timer before this one is dead from here on (`_timer` answers only `flip_timer`).
            tx.emit(timer_event(f"flip:{st['timer_n']}", now_ms + secs * 1000, replaces=st["flip_timer"]))

    def _finish(self, tx: Tx, reason: str) -> None:
        st = tx.state
        outcome = self._placements(st)
        reveal = [[_card(c) for c in p] for p in st["piles"]]
        tx.emit(
            event(
                "finished",
                None,
                reason=reason,
                outcome=outcome,
                piles=reveal,
                centre=[_card(c) for c in st["centre"]],
                removed=[_card(c) for c in st["removed"]],
            )
        )

    @staticmethod
    def _placements(st: State) -> dict[str, Any]:
        """Holders by cards held, then out players, the last out best [D10]."""
        n = st["seats"]
        keys: list[tuple[int, int]] = []
        for x in range(n):
            held = len(st["piles"][x])
            if st["out_at"][x] is None:
                keys.append((1, held))
            else:
                keys.append((0, st["out_at"][x]))
        placements = []
        for x in range(n):
            place = 1 + sum(1 for y in range(n) if keys[y] > keys[x])
            placements.append({"seat": x, "place": place, "score": len(st["piles"][x])})
        winners = [p["seat"] for p in placements if p["place"] == 1]
        return {"placements": placements, "winners": winners}

    # ---------------------------------------------------------- view, redact

    def legal_actions(self, state: State, seat: int | None) -> list[Action]:
        """What `seat` may submit now, from what every view shows (the turn, the top card, the race, who is out).

        A smack is listed for everyone not out for good — on a smack card it is
        a claim, on anything else a false smack the rules punish (or a late one
        they ignore) — except for a seat whose claim in the pending race is
        being judged, or who anticipated the smack card on top (`already_smacked`). A flip is listed for the turn holder
        unless a smack card lies on top (`smack_pending`) [D14].
        [D legal] The list is of the state as it stands: a race whose timer is
        late is still pending here, and decide settles it before the action.
        """
        if state is None or state["finished"] or not is_int(seat) or not 0 <= seat < state["seats"]:
            return []
        out: list[Action] = []
        if state["turn"] == seat and state["piles"][seat] and not _smack_on_top(state):
            out.append({"kind": "flip"})
        race = state["race"]
        ahead = state.get("anticipated")
        placed = race["opened_ms"] if race is not None else state["top_at"]
        anticipated = bool(ahead) and _smack_on_top(state) and ahead[0] == placed and seat in ahead[1]  # [D20]
        if not state["for_good"][seat] and not anticipated and not (race is not None and any(c["seat"] == seat for c in race["claims"])):
            out.append({"kind": "smack"})
        return out

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """Everything on the table is public; pile order is not on the table."""
        out = dict(self._public_view(state))
        out["you"] = seat
        out["legal"] = self.legal_actions(state, seat)
        return out

    @last_state
    def _public_view(self, st: State) -> dict[str, Any]:
        """What every seat sees alike; built once per state (views of one state share it: games/kit/memo.py)."""
        cards = DECK
        centre = st["centre"]
        k = st["forfeits"]
        ch = st["challenge"]
        n = st["seats"]
        challenge: dict[str, Any] = {"active": False, "by": None, "order": [], "flipped_by": [], "flips": [], "best": None}
        if ch is not None:
            best = ch["best"]
            challenge = {
                "active": True,
                "by": ch["by"],
                "order": list(ch["order"]),
                "flipped_by": [f[0] for f in ch["flips"]],
                "flips": [{"seat": f[0], "card": dict(cards[f[1]])} for f in ch["flips"]],
                "best": None if best is None else {"seat": best[0], "card": dict(cards[best[1]])},
            }
        lw = st["last_win"]
        race = st.get("race")
        view: dict[str, Any] = {
            "seats": n,
            "dealer": st["dealer"],
            "turn": st["turn"],
            "piles": [len(p) for p in st["piles"]],
            "centre": {
                "count": len(centre),
                "top": dict(cards[centre[-1]]) if centre else None,
                "top_at_ms": st["top_at"],
                "bottom_forfeits": [dict(cards[c]) for c in centre[:k]],
                "recent": [dict(cards[c]) for c in centre[max(k, len(centre) - 6) :]],
            },
            "challenge": challenge,
            "out": [x for x in sorted(range(n), key=lambda x: st["out_at"][x] or 0) if st["out_at"][x] is not None],
            "out_for_good": [x for x in range(n) if st["for_good"][x]],
            "removed": len(st["removed"]),
            "last_smack": None
            if lw is None
            else {
                "seat": lw["seat"],
                "at_ms": lw["at_ms"],
                "reaction_ms": lw["reaction_ms"],
                "behind": [{"seat": b[0], "ms": b[1]} for b in lw["behind"]],
            },
            # the smack card on top is still contested: claims so far, judged when `due_ms` has passed [D16]
            "race": None
            if race is None
            else {
                "id": race["id"],
                "opened_ms": race["opened_ms"],
                "claims": [{"seat": c["seat"], "reaction_ms": c["reaction_ms"]} for c in race["claims"]],
                "due_ms": st.get("race_due"),
            },
            "flip_due_ms": st["flip_due"] if st["turn"] is not None or _round_waits(st) else None,
            "limit_due_ms": st["limit_due"],
            "options": dict(st["options"]),
            "finished": st["finished"],
            "outcome": st["outcome"],
            "reason": st["reason"],
        }
        if st["finished"]:
            view["reveal"] = {
                "piles": [[dict(cards[c]) for c in p] for p in st["piles"]],
                "removed": [dict(cards[c]) for c in st["removed"]],
            }
        return view

    def view_all(self, state: State) -> dict[str, Any]:
        """The replay's "everything" table: the public view plus what lies face down.

        Same shape as `view(state, None)` so the renderer draws it; added:
        `pile_tops` (each seat's next card to flip, None for an empty pile)
        and `reveal` (every pile top card first, and the removed cards), as
        the finished view shows it. Replays only: never sent live.
        """
        out = self.view(state, None)
        piles = state["piles"]
        out["pile_tops"] = [dict(DECK[p[0]]) if p else None for p in piles]
        out["reveal"] = {
            "piles": [[dict(DECK[c]) for c in p] for p in piles],
            "removed": [dict(DECK[c]) for c in state["removed"]],
        }
        return out

    def redact(self, e: Event, seat: int | None) -> Event | None:
        """Only the deal order and a shuffled pile's order are secret [D13]."""
        kind = e.get("kind")
        if kind == "dealt":
            d = dict(e["data"])
            d["sizes"] = [len(p) for p in d.pop("piles", [])]
            return dict(e, data=d)
        if kind == "pile_won" and "order" in e["data"]:
            d = dict(e["data"])
            del d["order"]
            return dict(e, data=d)
        return dict(e)

    moves = {"flip": _flip, "smack": _smack, TIMER: _timer}


RULES = SmackItRules()
