"""Zwicker: the pure rules (see shared/rules/zwicker.md).

Memory is the game: every player keeps four face-down cards in a 2x2 grid,
looks at some of them now and then, and tries to end with the lowest total.
The server is the table, so secrecy lives here: a card is shown in an event
or a view only to the seats the rules page allows (`redact`, `view`).

State is plain JSON data. Internally both piles keep their top card *last*
(cheap pops); events list piles top card first, as the contract asks.

Decisions beyond the rules page, marked [D] (the rules page's own [D]s are
implemented as written: near row = slots 2 and 3, no turn actions out of
turn, same rank for snaps, the slowest takes back, King swap optional):

- [D] `take_discard` and `replace` need a filled slot: a card is always
  exchanged for a card, so the grid only grows by penalty cards and the
  discard pile is never empty.
- [D] Only snaps whose cards all match are taken back inside the
  simultaneous-snap window; a snap with a non-matching card is a wrong snap
  (penalty) whatever its timing. A player's own second snap is never taken
  back.
- [D] When neither the draw pile nor a reshuffle can give a card (every card
  is in the grids), a wrong snap costs no penalty card, `draw` is refused
  (`empty_pile`) and a timed-out turn simply passes.
- [D] Only one Zwicker call per match; `zwicker` after a call is refused
  (`already_called`).
- [D] A King's pending swap uses the turn timer: the turn runs out as
  `keep`. The King swap needs the looked-at card still in its slot (it may
  have been snapped away meanwhile); otherwise only `keep` is possible.
- [D] Shared places use standard ranking (two players tied for first are
  both 1st, the next is 3rd). A losing caller is placed last (place = number
  of seats), alone.
- [D] The view's `phase` is the step of the current turn ("turn", "drawn",
  "king") or "over"; the final round is flagged by `final_round` and
  `caller` rather than a separate phase, so the step stays visible in it.
  Between the events of one action (a replay seeking to such a seq) the
  phase may read "done": the turn is over and the next `turn` event follows.
  The state says "over" as `finished` (true from the `revealed` event on),
  the one word every game's state uses; `phase` keeps only the turn's step.
- [D] A timer action after the end is refused like every action
  (`match_over`); before the end, a stale timer id changes nothing.

The game kit: `GameRules` makes the checks every action needs,
with the error codes all four games share. Changed by it:

- [D] An action without a seat that is not a timer is `bad_action` (was
  `not_seated`); a `now_ms` that is not a whole number is `bad_action` (was
  read as 0); a snap's malformed `Timing` (e.g. `comp_ms` of the wrong
  length) is `bad_action` (was replaced by one that compensates nobody).
- [D] `legal_actions` (in every seat's view as `legal`): the seat's turn
  moves when it is on turn, and its snaps at any moment unless its own claim
  is being judged. A snap is listed once per set of one to three filled
  slots, ascending: the order of the named slots only chooses which card
  lies on top, and a rank has four cards, one of them the top discard, so a
  snap of four or more cards can never match (it is still accepted, and
  punished, as a wrong snap; it is just not offered). Turn moves that move
  cards are listed on the table as the open race's settlement will leave
  it (that settlement is public: the claims are in every view), so a slot a
  landing snap will empty is not offered.

Fair races (PROTOCOL "Fair races"): `snap` is a race action.

- [D] A snap whose cards all match is a *claim* on the top discard: it
  opens the race for that card (or joins the open one) with a
  `race_claimed` event; its cards stay in their slots until the race is
  settled. Every seat is eligible (which seats hold a matching card is
  secret, so the window never closes early because nobody else could snap).
  Settlement (`race_settled`, then the claims' own `snapped` /
  `snap_taken_back` events) goes through the claims in judged order with
  the rules of a snap landing: the first lands, a later claim of another
  seat judged less than `snap_window_ms` after the last landed snap on the
  same top is taken back, one judged later lands on top of it. The
  race's `winner` is the seat whose snap landed first.
- [D] "The slowest takes back" is judged on judged time: a matching snap
  arriving after a settlement, judged less than `snap_window_ms` after the
  snap that landed, is taken back at once (also when it was judged earlier
  than that snap but arrived too late to be part of its race: the cap).
- [D] While its claim is being judged a seat may not snap again
  (`snap_pending`); a wrong snap is never a claim and is punished at once.
- [D] Play does not stop for a snap race: a turn action that moves cards
  (take_discard, replace, discard, use, swap, keep) or a turn timer that
  arrives while a race is still open settles it first with the claims so
  far, so the move happens after the snaps it follows. `draw` and
  `zwicker` leave the race open. An action arriving once the race's
  settle time has passed settles it first (lazily), so the state is right
  even if the race timer is late.
- [D] The reaction time of a claim is counted from the moment its top
  discard appeared (`at` of the event that put it there).
- [D floor] A human floor (PROTOCOL "Fair play"): a matching snap judged
  less than the table's `min_reaction_ms` after its top discard appeared is
  an anticipation (`"anticipated": true` in its `race_claimed` claim): it
  could not be a reaction to that card, so it is a wrong snap — the
  rulebook's penalty: its cards are shown and go back to their slots and
  the player takes a penalty card (`snap_wrong` with `anticipated: true`, at
  once). It stays in the race (no second snap by that seat until it is
  settled, `snap_pending`), ranks after every real claim and never lands; a
  race of anticipations alone is settled at once with `winner: null`.
  With `min_reaction_ms` 0 there is no floor.

Looks: every card a seat looks at (the opening peek at slots 2
and 3, a 7/8/9/10 power, a black King) is in that seat's own view as
`looks: [{target, slot, card, until_ms}]` until `peek_ms` has passed, so a
page shows it for the full time whatever message brings it (a `hello`
after Start, a rematch, a reconnect). A `look-<until>` timer ends it
(`looks_ended`); a look also ends as soon as its card leaves that slot.
Only the looker's own view carries its looks.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from games.engine import TIMER, Action, Event, GameRules, Option, RuleError, Timing, Tx, event, is_int, timer_event
from games.kit import races
from games.kit.opening import deal_hands, open_table, shuffled

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("clubs", "diamonds", "hearts", "spades")
BLACK_SUITS = frozenset({"clubs", "spades"})
DECK_SIZE = 52

RANK_OF: tuple[str, ...] = tuple(RANKS[i % 13] for i in range(DECK_SIZE))
SUIT_OF: tuple[str, ...] = tuple(SUITS[i // 13] for i in range(DECK_SIZE))


def _value(rank: str, suit: str) -> int:
    """Points of one card: A 1, 2-10 face, J/Q 10, black K 15, red K 0."""
    if rank == "A":
        return 1
    if rank in ("J", "Q"):
        return 10
    if rank == "K":
        return 15 if suit in BLACK_SUITS else 0
    return int(rank)


VALUE_OF: tuple[int, ...] = tuple(_value(RANK_OF[i], SUIT_OF[i]) for i in range(DECK_SIZE))


def _power(rank: str, suit: str) -> str | None:
    """The power of a card drawn from the pile, or None."""
    if rank in ("7", "8"):
        return "look_own"
    if rank in ("9", "10"):
        return "look_other"
    if rank in ("J", "Q"):
        return "blind_swap"
    if rank == "K" and suit in BLACK_SUITS:
        return "king"
    return None


POWER_OF: tuple[str | None, ...] = tuple(_power(RANK_OF[i], SUIT_OF[i]) for i in range(DECK_SIZE))
HIDDEN: dict[str, bool] = {"hidden": True}
CALL_LIMIT = 5  # the caller must hold at most this many points to win
MAX_MATCH = 3  # a rank has four cards and one is the top discard: no snap of more cards can match
# turn actions that move cards: arriving while a snap race is open, they settle it first
SETTLES_RACE = frozenset({"take_discard", "replace", "discard", "use", "swap", "keep"})
# events after which a look may point at a slot whose card has gone
MOVES_CARDS = frozenset({"took_discard", "replaced", "used", "swapped", "snapped"})


def card(cid: int) -> dict[str, Any]:
    """A card as messages carry it; a fresh dict so nobody can alter a shared one."""
    return {"id": cid, "rank": RANK_OF[cid], "suit": SUIT_OF[cid]}


def total(row: list[int | None]) -> int:
    """Points of one grid (empty slots count nothing)."""
    return sum(VALUE_OF[c] for c in row if c is not None)


def compute_outcome(totals: list[int], caller: int | None) -> dict[str, Any]:
    """Placements by the winner rules of the rules page.

    The caller wins alone with at most 5 points and strictly the lowest
    total; otherwise it is placed last and the others are ranked by total.
    A caller placed last gets a reason (`reasons: [{seat, code, limit?}]`) so the
    results can say why: `caller_over_limit` (more than 5 points), `caller_tied`
    (another player has as few), `caller_beaten` (another has fewer).
    """
    n = len(totals)
    others = [s for s in range(n) if s != caller]
    caller_wins = caller is not None and totals[caller] <= CALL_LIMIT and all(totals[caller] < totals[s] for s in others)
    placements: list[dict[str, Any]] = []
    start = 1
    if caller is not None and caller_wins:
        placements.append({"seat": caller, "place": 1, "score": totals[caller]})
        start = 2
    ranked = sorted(others, key=lambda s: (totals[s], s))
    for i, s in enumerate(ranked):
        if i and totals[s] == totals[ranked[i - 1]]:
            place = placements[-1]["place"]
        else:
            place = start + i
        placements.append({"seat": s, "place": place, "score": totals[s]})
    if caller is not None and not caller_wins:
        placements.append({"seat": caller, "place": n, "score": totals[caller]})
    winners = sorted(p["seat"] for p in placements if p["place"] == 1)
    placements.sort(key=lambda p: (p["place"], p["seat"]))
    outcome: dict[str, Any] = {"placements": placements, "winners": winners}
    if caller is not None and not caller_wins:
        outcome["reasons"] = [{"seat": caller, "code": _caller_lost_why(totals, caller, others), "limit": CALL_LIMIT}]
    return outcome


def _caller_lost_why(totals: list[int], caller: int, others: list[int]) -> str:
    """Why a caller is placed last: too many points, or someone as low (a tie loses), or lower."""
    if totals[caller] > CALL_LIMIT:
        return "caller_over_limit"
    if others and min(totals[s] for s in others) == totals[caller]:
        return "caller_tied"
    return "caller_beaten"


def _bad(message: str) -> RuleError:
    return RuleError("bad_action", message)


def _my_turn(state: dict[str, Any], seat: int, phase: str) -> None:
    if seat != state["turn"]:
        raise RuleError("not_your_turn", "it is not your turn")
    if state["phase"] != phase:
        raise RuleError("wrong_phase", f"this needs the {phase!r} step of the turn, not {state['phase']!r}")


def _slot(action: Action, key: str, row: list[int | None]) -> int:
    value = action.get(key)
    if not is_int(value) or not 0 <= value < len(row):
        raise _bad(f"{key} must be a slot number of that grid")
    if row[value] is None:
        raise RuleError("empty_slot", f"slot {value} is empty")
    return value


def _target(state: dict[str, Any], seat: int, action: Action) -> int:
    value = action.get("target")
    if not is_int(value) or not 0 <= value < state["seats"] or value == seat:
        raise _bad("target must be an opponent's seat")
    return value


def _filled(row: list[int | None]) -> list[int]:
    return [i for i, c in enumerate(row) if c is not None]


def _snaps(slots: list[int]) -> list[Action]:
    """The listed snaps of these slots: each set of one to MAX_MATCH slots once, ascending (see the [D] on legal snaps)."""
    return [{"kind": "snap", "slots": list(combo)} for k in range(1, min(len(slots), MAX_MATCH) + 1) for combo in combinations(slots, k)]


def _set_slot(state: dict[str, Any], s: dict[str, Any], seat: int, slot: int, cid: int | None) -> None:
    slots = list(state["slots"])
    row = list(slots[seat])
    row[slot] = cid
    slots[seat] = row
    s["slots"] = slots


def _swap_cards(state: dict[str, Any], s: dict[str, Any], seat: int, slot: int, target: int, tslot: int) -> None:
    slots = list(state["slots"])
    mine, theirs = list(slots[seat]), list(slots[target])
    mine[slot], theirs[tslot] = theirs[tslot], mine[slot]
    slots[seat], slots[target] = mine, theirs
    s["slots"] = slots


def _add_look(state: dict[str, Any], s: dict[str, Any], seat: int, target: int, slot: int, cid: int, until: Any) -> None:
    if not is_int(until):
        return  # a log from before looks were state: nothing to show
    looks = [list(row) for row in state["looks"]]
    looks[seat] = [lk for lk in looks[seat] if (lk["target"], lk["slot"]) != (target, slot)]
    looks[seat].append({"target": target, "slot": slot, "card": cid, "until_ms": until})
    s["looks"] = looks


def _looks_in_place(state: dict[str, Any]) -> dict[str, Any]:
    """A look ends once its card has left the slot: the page must not show it where another card lies."""
    slots = state["slots"]

    def there(look: dict[str, Any]) -> bool:
        row = slots[look["target"]]
        return look["slot"] < len(row) and row[look["slot"]] == look["card"]

    looks = [[look for look in row if there(look)] for row in state["looks"]]
    if looks == state["looks"]:
        return state
    return {**state, "looks": looks}


def _turn_done(state: dict[str, Any], s: dict[str, Any], discard: list[int], at: Any) -> None:
    """A turn action left `discard` as the pile (a new card face up on top): nothing is held and the turn is done."""
    s["discard"] = discard
    s["drawn"] = None
    s["phase"] = "done"
    s["top_ms"] = state["top_ms"] if at is None else at


class ZwickerRules(GameRules):
    """The Zwicker rules object registered as `RULES`."""

    slug = "zwicker"
    races: frozenset[str] = frozenset({"snap"})  # action kinds judged as races (PROTOCOL "Fair races")
    name = "Zwicker"
    min_seats = 2
    max_seats = 6
    teams = False
    options: dict[str, Option] = {
        "turn_seconds": Option("int", 60, "Seconds a turn may last before the table plays it", minimum=5, maximum=600),
        "snap_window_ms": Option(
            "int", 1000, "Snaps this close after another player's snap are taken back", minimum=0, maximum=5000
        ),
        "peek_ms": Option("int", 5000, "How long a looked-at card stays on screen (ms)", minimum=500, maximum=30000),
        "dealer": Option("int", -1, "Dealer seat (-1 = last seat); set by the platform", minimum=-1, maximum=5, internal=True),
    }

    # --- setup ---------------------------------------------------------------

    def setup(self, seats: int, options: dict[str, Any], rng: random.Random) -> list[Event]:
        """Shuffle, deal four cards each, turn up a discard, peek at the near row."""
        o = open_table(self, seats, options)
        opts, dealer, first = o.options, o.dealer, o.first
        slots, rest = deal_hands(shuffled(range(DECK_SIZE), rng), seats, 4)
        events = [
            event(
                "dealt",
                None,
                seats=seats,
                dealer=dealer,
                first=first,
                options=opts,
                slots=[[card(c) for c in row] for row in slots],
                discard=card(rest[0]),
                draw=[card(c) for c in rest[1:]],
            )
        ]
        peek_ms = opts["peek_ms"]
        for s in range(seats):
            for i in (2, 3):
                events.append(event("peeked", s, target=s, slot=i, card=card(slots[s][i]), until_ms=peek_ms))
        events.append(timer_event(f"look-{peek_ms}", peek_ms))
        events.append(event("turn", first, no=1, final=False))
        events.append(timer_event("turn-1", opts["turn_seconds"] * 1000))
        return events

    # --- decide: the race, the turn's end, the pile --------------------------

    def before_move(self, tx: Tx, seat: int | None, kind: str, now_ms: int, rng: random.Random) -> None:
        """Settle an open snap race whose time has come, or at once before a move that moves cards."""
        race = tx.state["race"]
        if race is not None and (kind in SETTLES_RACE or now_ms >= races.settle_at(race)):
            tx.extend(self._settle(tx.state))

    def _settle(self, state: dict[str, Any]) -> list[Event]:
        """The open race's result: every claim in judged order lands or is taken back, as snaps always did."""
        race = state["race"]
        ranking = races.ranking(race)
        window = state["options"]["snap_window_ms"]
        last = state["last_snap"]
        top = state["discard"][-1]
        results: list[Event] = []
        winner = None
        for claim in ranking:
            if races.is_anticipation(claim):
                continue  # punished as a wrong snap when it came [D floor]; never lands
            seat, slots, judged = claim["seat"], list(claim["slots"]), claim["judged_ms"]
            row = state["slots"][seat]
            cards = [card(row[i]) for i in slots]
            if last is not None and last["seat"] != seat and last["top"] == top and judged - last["at"] < window:
                results.append(event("snap_taken_back", seat, slots=slots, cards=cards, first=last["seat"], judged_ms=judged))
                continue
            results.append(event("snapped", seat, slots=slots, cards=cards, at=judged))
            top = row[slots[-1]]
            last = {"seat": seat, "top": top, "at": judged}
            if winner is None:
                winner = seat
        return [event("race_settled", None, race=race["id"], ranking=ranking, winner=winner), *results]

    def _settled(self, state: dict[str, Any]) -> dict[str, Any]:
        """The state once the open race (if any) is settled with the claims so far: what a card-moving move meets."""
        if state["race"] is None:
            return state
        for e in self._settle(state):
            state = self.fold(state, e)
        return state

    def _end_turn(self, tx: Tx, now: int) -> None:
        """Pass the turn on, or reveal when the last player of the final round is done."""
        state = tx.state
        caller = state["caller"]
        nxt = (state["turn"] + 1) % state["seats"]
        if caller is not None and nxt == caller:
            tx.extend(self._reveal(state))
            return
        no = state["turn_no"] + 1
        tx.emit(event("turn", nxt, no=no, final=caller is not None))
        tx.emit(timer_event(f"turn-{no}", now + state["options"]["turn_seconds"] * 1000))

    def _reveal(self, state: dict[str, Any]) -> list[Event]:
        totals = [total(row) for row in state["slots"]]
        outcome = compute_outcome(totals, state["caller"])
        return [
            event(
                "revealed",
                None,
                slots=[[None if c is None else card(c) for c in row] for row in state["slots"]],
                totals=totals,
                caller=state["caller"],
            ),
            event("finished", None, outcome=outcome),
        ]

    def _pile_card(self, tx: Tx, rng: random.Random) -> int | None:
        """Top of the draw pile, reshuffling the discard pile into it first when empty."""
        state = tx.state
        if state["draw"]:
            return state["draw"][-1]
        discard = state["discard"]
        if len(discard) <= 1:
            return None
        order = shuffled(discard[:-1], rng)
        tx.emit(event("reshuffled", None, draw=[card(c) for c in order]))
        return order[0]

    # --- moves: the turn -----------------------------------------------------

    def _take_discard(self, tx: Tx, seat: int, action: Action, now: int, rng: random.Random, timing: Timing | None) -> None:
        state = tx.state
        _my_turn(state, seat, "turn")
        row = state["slots"][seat]
        slot = _slot(action, "slot", row)
        tx.emit(event("took_discard", seat, slot=slot, card=card(state["discard"][-1]), old=card(row[slot]), at=now))
        self._end_turn(tx, now)

    def _draw(self, tx: Tx, seat: int, action: Action, now: int, rng: random.Random, timing: Timing | None) -> None:
        _my_turn(tx.state, seat, "turn")
        top = self._pile_card(tx, rng)
        if top is None:
            raise RuleError("empty_pile", "no card is left to draw")
        tx.emit(event("drawn", seat, card=card(top)))

    def _replace(self, tx: Tx, seat: int, action: Action, now: int, rng: random.Random, timing: Timing | None) -> None:
        state = tx.state
        _my_turn(state, seat, "drawn")
        row = state["slots"][seat]
        slot = _slot(action, "slot", row)
        tx.emit(event("replaced", seat, slot=slot, card=card(state["drawn"]), old=card(row[slot]), at=now))
        self._end_turn(tx, now)

    def _discard(self, tx: Tx, seat: int, action: Action, now: int, rng: random.Random, timing: Timing | None) -> None:
        _my_turn(tx.state, seat, "drawn")
        tx.emit(event("discarded", seat, card=card(tx.state["drawn"]), at=now))
        self._end_turn(tx, now)

    def _use(self, tx: Tx, seat: int, action: Action, now: int, rng: random.Random, timing: Timing | None) -> None:
        state = tx.state
        _my_turn(state, seat, "drawn")
        drawn = state["drawn"]
        power = POWER_OF[drawn]
        if power is None:
            raise RuleError("no_power", f"a {RANK_OF[drawn]} of {SUIT_OF[drawn]} has no power")
        slots = state["slots"]
        if power == "blind_swap":
            slot = _slot(action, "slot", slots[seat])
            target = _target(state, seat, action)
            tslot = _slot(action, "target_slot", slots[target])
            tx.emit(event("used", seat, power=power, card=card(drawn), slot=slot, target=target, target_slot=tslot, at=now))
            self._end_turn(tx, now)
            return
        if power == "look_own":
            target, tslot = seat, _slot(action, "slot", slots[seat])
        else:  # look_other names its card `slot`; the King, which may swap it later, `target_slot`
            target = _target(state, seat, action)
            tslot = _slot(action, "slot" if power == "look_other" else "target_slot", slots[target])
        until = now + state["options"]["peek_ms"]
        seen = card(slots[target][tslot])
        tx.emit(
            event("used", seat, power=power, card=card(drawn), slot=None, target=target, target_slot=tslot, seen=seen, at=now, until_ms=until)
        )
        tx.emit(timer_event(f"look-{until}", until))
        if power != "king":  # the King's turn goes on: swap or keep
            self._end_turn(tx, now)

    def _swap(self, tx: Tx, seat: int, action: Action, now: int, rng: random.Random, timing: Timing | None) -> None:
        state = tx.state
        _my_turn(state, seat, "king")
        slot = _slot(action, "slot", state["slots"][seat])
        king = state["king"]
        target, tslot = king["target"], king["target_slot"]
        if state["slots"][target][tslot] != king["card"]:
            raise RuleError("empty_slot", "the card you looked at is no longer there")
        tx.emit(event("swapped", seat, slot=slot, target=target, target_slot=tslot))
        self._end_turn(tx, now)

    def _keep(self, tx: Tx, seat: int, action: Action, now: int, rng: random.Random, timing: Timing | None) -> None:
        _my_turn(tx.state, seat, "king")
        tx.emit(event("kept", seat))
        self._end_turn(tx, now)

    def _zwicker(self, tx: Tx, seat: int, action: Action, now: int, rng: random.Random, timing: Timing | None) -> None:
        _my_turn(tx.state, seat, "turn")
        if tx.state["caller"] is not None:
            raise RuleError("already_called", "Zwicker has already been called")
        tx.emit(event("called", seat))
        self._end_turn(tx, now)

    # --- moves: snaps, at any moment -----------------------------------------

    def _snap(self, tx: Tx, seat: int, action: Action, now: int, rng: random.Random, timing: Timing | None) -> None:
        """`timing` is the platform's judgement of the snap (checked by the base; judged on arrival without one)."""
        assert timing is not None  # snap is in `races`
        state = tx.state
        names = action.get("slots")
        row = state["slots"][seat]
        if not isinstance(names, list) or not names or len(names) > len(row):
            raise _bad("slots must be a non-empty list of your slot numbers")
        seen: set[int] = set()
        for i in names:
            if not is_int(i) or not 0 <= i < len(row) or i in seen:
                raise _bad("slots must be distinct slot numbers of your grid")
            seen.add(i)
        for i in names:
            if row[i] is None:
                raise RuleError("empty_slot", f"slot {i} is empty")
        race = state["race"]
        if race is not None and any(c["seat"] == seat for c in race["claims"]):
            raise RuleError("snap_pending", "your snap is still being judged")
        top = state["discard"][-1]
        rank = RANK_OF[top]
        cards = [card(row[i]) for i in names]
        slots = list(names)
        if all(RANK_OF[row[i]] == rank for i in names):
            last = state["last_snap"]
            if (
                race is None
                and last is not None
                and last["seat"] != seat
                and last["top"] == top
                and timing.judged_ms - last["at"] < state["options"]["snap_window_ms"]
            ):
                tx.emit(event("snap_taken_back", seat, slots=slots, cards=cards, first=last["seat"], judged_ms=timing.judged_ms))
                return
            self._claim(tx, seat, slots, now, timing, rng)
            return
        penalty = self._pile_card(tx, rng)
        pen = None if penalty is None else {"slot": len(row), "card": card(penalty)}
        tx.emit(event("snap_wrong", seat, slots=slots, cards=cards, top=card(top), penalty=pen))

    def _claim(self, tx: Tx, seat: int, slots: list[int], now: int, timing: Timing, rng: random.Random) -> None:
        """A matching snap claims the top discard: settle at once when nobody could still be faster, else a timer."""
        state = tx.state
        race = state["race"]
        if race is None:
            race = races.open(f"snap:{state['race_no'] + 1}", state["top_ms"], range(state["seats"]))
        record = races.claim_record(race, seat, timing, slots=slots)
        after = tx.emit(
            event("race_claimed", seat, race=race["id"], claim=record, comp_ms=list(timing.comp_ms), opened_ms=race["opened_ms"])
        )
        if races.is_anticipation(record):  # a snap before anyone could see the card: a wrong snap [D floor]
            row = after["slots"][seat]
            penalty = self._pile_card(tx, rng)
            pen = None if penalty is None else {"slot": len(row), "card": card(penalty)}
            top = after["discard"][-1]
            cards = [card(row[i]) for i in slots]
            after = tx.emit(event("snap_wrong", seat, slots=slots, cards=cards, top=card(top), penalty=pen, anticipated=True))
        settle_at = races.settle_at(after["race"])
        if settle_at <= now:
            tx.extend(self._settle(after))
        else:
            tx.emit(timer_event(f"race:{race['id']}:{len(after['race']['claims'])}", settle_at))

    # --- moves: the system ---------------------------------------------------

    def _timer(self, tx: Tx, seat: int | None, action: Action, now: int, rng: random.Random, timing: Timing | None) -> None:
        timer_id = action["id"]
        if timer_id.startswith("look-"):
            self._looks_over(tx, timer_id, now)
            return
        state = tx.state
        if timer_id.startswith("race:"):
            race = state["race"]
            if race is not None:  # early (a clock a little ahead): ask again for the settle time
                tx.emit(timer_event(f"race:{race['id']}:{len(race['claims'])}:{now}", races.settle_at(race)))
            return  # else settled already (lazily, or by a turn action)
        timer = state["timer"]
        if timer is None or timer["id"] != timer_id:
            return
        if state["race"] is not None:  # the table plays the turn: it moves cards, so the race settles first
            tx.extend(self._settle(state))
            state = tx.state
        seat = state["turn"]
        phase = state["phase"]
        tx.emit(event("turn_timeout", seat, phase=phase))
        if phase == "turn":
            top = self._pile_card(tx, rng)
            if top is not None:
                tx.emit(event("drawn", seat, card=card(top)))
                tx.emit(event("discarded", seat, card=card(top), at=now))
        elif phase == "drawn":
            tx.emit(event("discarded", seat, card=card(state["drawn"]), at=now))
        elif phase == "king":
            tx.emit(event("kept", seat))
        self._end_turn(tx, now)

    def _looks_over(self, tx: Tx, timer_id: str, now: int) -> None:
        """End every look whose time is up (the id names its due time: a timer a little early still ends it)."""
        try:
            cutoff = max(now, int(timer_id[5:]))
        except ValueError:
            return
        if any(look["until_ms"] <= cutoff for row in tx.state["looks"] for look in row):
            tx.emit(event("looks_ended", None, until_ms=cutoff))

    # --- fold ----------------------------------------------------------------

    def fold(self, state: dict[str, Any] | None, e: Event) -> dict[str, Any]:
        """The `folds` table, then one cross-cutting step: looks end when their card moves."""
        s = super().fold(state, e)
        if e["kind"] in MOVES_CARDS and any(s["looks"]):
            s = _looks_in_place(s)
        return s

    def _fold_dealt(self, state: Any, e: Event) -> dict[str, Any]:
        d = e["data"]
        n = d["seats"]
        return {
            "seats": n,
            "options": dict(d["options"]),
            "dealer": d["dealer"],
            "first": d["first"],
            "slots": [[c["id"] for c in row] for row in d["slots"]],
            "draw": [c["id"] for c in reversed(d["draw"])],
            "discard": [d["discard"]["id"]],
            "turn": d["first"],
            "turn_no": 0,
            "phase": "turn",  # the step of the turn: turn, drawn, king (or done between two events)
            "drawn": None,
            "king": None,
            "caller": None,
            "turns_left": None,
            "timer": None,
            "last_snap": None,
            "revealed": None,
            "finished": False,  # from the reveal on: no action any more
            "outcome": None,
            "top_ms": 0,  # when the top discard appeared: a snap race's reactions count from it
            "race": None,  # the open snap race (races.open), claims in arrival order
            "race_no": 0,
            "looks": [[] for _ in range(n)],  # per seat: the cards it is looking at now
        }

    def _fold_peeked(self, state: dict[str, Any], e: Event) -> dict[str, Any]:
        d = e["data"]
        s = dict(state)
        _add_look(state, s, e["seat"], d["target"], d["slot"], d["card"]["id"], d.get("until_ms"))
        return s

    def _fold_looks_ended(self, state: dict[str, Any], e: Event) -> dict[str, Any]:
        cutoff = e["data"]["until_ms"]
        s = dict(state)
        s["looks"] = [[lk for lk in row if lk["until_ms"] > cutoff] for row in state["looks"]]
        return s

    def _fold_race_claimed(self, state: dict[str, Any], e: Event) -> dict[str, Any]:
        d = e["data"]
        s = dict(state)
        race = state["race"]
        if race is None:
            race = races.open(d["race"], d["opened_ms"], range(state["seats"]))
            s["race_no"] = state["race_no"] + 1
        s["race"] = races.with_claim(race, d["claim"], d["comp_ms"])
        return s

    def _fold_race_settled(self, state: dict[str, Any], e: Event) -> dict[str, Any]:
        return {**state, "race": None}

    def _fold_snap_taken_back(self, state: dict[str, Any], e: Event) -> dict[str, Any]:
        """A fact for the log and the table, not for the state (so is a turn's timeout)."""
        return state

    _fold_turn_timeout = _fold_snap_taken_back

    def _fold_drawn(self, state: dict[str, Any], e: Event) -> dict[str, Any]:
        return {**state, "draw": state["draw"][:-1], "drawn": e["data"]["card"]["id"], "phase": "drawn"}

    def _fold_took_discard(self, state: dict[str, Any], e: Event) -> dict[str, Any]:
        d = e["data"]
        s = dict(state)
        _set_slot(state, s, e["seat"], d["slot"], d["card"]["id"])
        _turn_done(state, s, [*state["discard"][:-1], d["old"]["id"]], d.get("at"))
        return s

    def _fold_replaced(self, state: dict[str, Any], e: Event) -> dict[str, Any]:
        d = e["data"]
        s = dict(state)
        _set_slot(state, s, e["seat"], d["slot"], d["card"]["id"])
        _turn_done(state, s, [*state["discard"], d["old"]["id"]], d.get("at"))
        return s

    def _fold_discarded(self, state: dict[str, Any], e: Event) -> dict[str, Any]:
        s = dict(state)
        _turn_done(state, s, [*state["discard"], e["data"]["card"]["id"]], e["data"].get("at"))
        return s

    def _fold_used(self, state: dict[str, Any], e: Event) -> dict[str, Any]:
        d = e["data"]
        s = dict(state)
        _turn_done(state, s, [*state["discard"], d["card"]["id"]], d.get("at"))
        power = d["power"]
        if "seen" in d:
            _add_look(state, s, e["seat"], d["target"], d["target_slot"], d["seen"]["id"], d.get("until_ms"))
        if power == "blind_swap":
            _swap_cards(state, s, e["seat"], d["slot"], d["target"], d["target_slot"])
        elif power == "king":
            s["phase"] = "king"
            s["king"] = {"target": d["target"], "target_slot": d["target_slot"], "card": d["seen"]["id"]}
        return s

    def _fold_swapped(self, state: dict[str, Any], e: Event) -> dict[str, Any]:
        d = e["data"]
        s = dict(state)
        _swap_cards(state, s, e["seat"], d["slot"], d["target"], d["target_slot"])
        s["king"] = None
        s["phase"] = "done"
        return s

    def _fold_kept(self, state: dict[str, Any], e: Event) -> dict[str, Any]:
        return {**state, "king": None, "phase": "done"}

    def _fold_snapped(self, state: dict[str, Any], e: Event) -> dict[str, Any]:
        d = e["data"]
        seat = e["seat"]
        s = dict(state)
        slots = list(state["slots"])
        row = list(slots[seat])
        discard = list(state["discard"])
        for i in d["slots"]:
            discard.append(row[i])
            row[i] = None
        slots[seat] = row
        s["slots"] = slots
        s["discard"] = discard
        s["last_snap"] = {"seat": seat, "top": discard[-1], "at": d["at"]}
        s["top_ms"] = d["at"]
        return s

    def _fold_snap_wrong(self, state: dict[str, Any], e: Event) -> dict[str, Any]:
        pen = e["data"]["penalty"]
        if pen is None:
            return state
        s = dict(state)
        s["draw"] = state["draw"][:-1]
        slots = list(state["slots"])
        slots[e["seat"]] = [*slots[e["seat"]], pen["card"]["id"]]
        s["slots"] = slots
        return s

    def _fold_called(self, state: dict[str, Any], e: Event) -> dict[str, Any]:
        left = [0 if i == e["seat"] else 1 for i in range(state["seats"])]
        return {**state, "caller": e["seat"], "turns_left": left, "phase": "done"}

    def _fold_reshuffled(self, state: dict[str, Any], e: Event) -> dict[str, Any]:
        return {**state, "draw": [c["id"] for c in reversed(e["data"]["draw"])], "discard": state["discard"][-1:]}

    def _fold_turn(self, state: dict[str, Any], e: Event) -> dict[str, Any]:
        s = dict(state)
        if state["turns_left"] is not None and state["turn_no"] > 0:
            left = list(state["turns_left"])
            left[state["turn"]] = 0
            s["turns_left"] = left
        s["turn"] = e["seat"]
        s["turn_no"] = e["data"]["no"]
        s["phase"] = "turn"
        s["drawn"] = None
        s["king"] = None
        s["timer"] = None
        return s

    def _fold_timer(self, state: dict[str, Any], e: Event) -> dict[str, Any]:
        if e["data"]["id"].startswith(("race:", "look-")):
            return state  # the race and the looks keep their own times; `timer` is the turn's
        return {**state, "timer": {"id": e["data"]["id"], "due": e["data"]["due_ms"]}}

    def _fold_revealed(self, state: dict[str, Any], e: Event) -> dict[str, Any]:
        d = e["data"]
        s = dict(state)
        s["finished"] = True
        s["timer"] = None
        s["king"] = None
        if state["turns_left"] is not None:
            s["turns_left"] = [0] * state["seats"]
        s["revealed"] = {"slots": d["slots"], "totals": d["totals"]}
        return s

    def _fold_finished(self, state: dict[str, Any], e: Event) -> dict[str, Any]:
        return {**state, "outcome": e["data"]["outcome"]}

    # --- legal actions -------------------------------------------------------

    def legal_actions(self, state: dict[str, Any] | None, seat: int | None) -> list[Action]:
        """The seat's turn actions (if on turn) and its snaps; see the [D] lines on legal actions.

        Everything here is on the seat's view: the grids' filled slots, the
        phase, the caller, the pile counts, its own drawn card and King look,
        and the open race's claims (public), which decide which slots a
        settlement empties before a card-moving move.
        """
        if state is None or state["finished"] or not is_int(seat) or not 0 <= seat < state["seats"]:
            return []
        legal = self._turn_actions(state, seat) if seat == state["turn"] else []
        race = state["race"]
        if race is None or all(c["seat"] != seat for c in race["claims"]):
            legal.extend(_snaps(_filled(state["slots"][seat])))
        return legal

    def _turn_actions(self, state: dict[str, Any], seat: int) -> list[Action]:
        phase = state["phase"]
        settled = self._settled(state)  # card-moving moves settle the open race first
        slots = settled["slots"]
        mine = _filled(slots[seat])
        if phase == "turn":
            out: list[Action] = []
            if state["draw"] or len(state["discard"]) > 1:
                out.append({"kind": "draw"})
            if state["caller"] is None:
                out.append({"kind": "zwicker"})
            out.extend({"kind": "take_discard", "slot": i} for i in mine)
            return out
        if phase == "drawn":
            out = [{"kind": "discard"}, *({"kind": "replace", "slot": i} for i in mine)]
            power = POWER_OF[state["drawn"]]
            others = [(t, j) for t in range(state["seats"]) if t != seat for j in _filled(slots[t])]
            if power == "look_own":
                out.extend({"kind": "use", "slot": i} for i in mine)
            elif power == "look_other":
                out.extend({"kind": "use", "target": t, "slot": j} for t, j in others)
            elif power == "blind_swap":
                out.extend({"kind": "use", "slot": i, "target": t, "target_slot": j} for i in mine for t, j in others)
            elif power == "king":
                out.extend({"kind": "use", "target": t, "target_slot": j} for t, j in others)
            return out
        if phase == "king":
            king = state["king"]
            out = [{"kind": "keep"}]
            if slots[king["target"]][king["target_slot"]] == king["card"]:
                out.extend({"kind": "swap", "slot": i} for i in mine)
            return out
        return []

    # --- view, redact, outcome -----------------------------------------------

    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        """The table as `seat` sees it now: never a remembered card, only what is face up or in hand."""
        n = state["seats"]
        me = seat if is_int(seat) and 0 <= seat < n else None
        left = state["turns_left"]
        seats = []
        for s, row in enumerate(state["slots"]):
            seats.append(
                {
                    "seat": s,
                    "slots": [{"slot": i, "filled": c is not None} for i, c in enumerate(row)],
                    "count": sum(c is not None for c in row),
                    "turns_left": None if left is None else left[s],
                }
            )
        mine = me is not None and me == state["turn"]
        drawn = card(state["drawn"]) if mine and state["drawn"] is not None else None
        king = state["king"]
        king_look = None
        if mine and king is not None:
            king_look = {"target": king["target"], "target_slot": king["target_slot"], "card": card(king["card"])}
        timer = state["timer"]
        looks = []
        if me is not None:
            for lk in state["looks"][me]:
                looks.append({"target": lk["target"], "slot": lk["slot"], "card": card(lk["card"]), "until_ms": lk["until_ms"]})
        race = state["race"]
        return {
            "seat": me,
            "seat_count": n,
            "dealer": state["dealer"],
            "turn": state["turn"],
            "turn_no": state["turn_no"],
            "phase": "over" if state["finished"] else state["phase"],
            "final_round": state["caller"] is not None,
            "caller": state["caller"],
            "discard_top": card(state["discard"][-1]) if state["discard"] else None,
            "discard_count": len(state["discard"]),
            "draw_count": len(state["draw"]),
            "seats": seats,
            "drawn": drawn,
            "drawn_power": POWER_OF[state["drawn"]] if drawn is not None else None,
            "king_look": king_look,
            "turn_due_ms": None if timer is None else timer["due"],
            "options": dict(state["options"]),
            "revealed": state["revealed"],
            "outcome": state["outcome"],
            "finished": state["outcome"] is not None,
            "looks": looks,
            "race": None
            if race is None
            else {"id": race["id"], "opened_ms": race["opened_ms"], "claims": [dict(c) for c in race["claims"]]},
            "legal": self.legal_actions(state, me),
        }

    def view_all(self, state: dict[str, Any]) -> dict[str, Any]:
        """The replay's "everything" table: the spectator's view with every face-down card turned up.

        Same shape as `view(state, None)` so the renderer draws it; added:
        each filled slot's `card` and each seat's running `total`, the drawn
        card and King look as the player on turn sees them, and `draw_top`
        (the card the next draw would give). Replays only: never sent live.
        """
        out = self.view(state, None)
        seats = []
        for row, cards in zip(out["seats"], state["slots"], strict=True):
            slots = [dict(info, card=card(c)) if c is not None else info for info, c in zip(row["slots"], cards, strict=True)]
            seats.append(dict(row, slots=slots, total=total(cards)))
        out["seats"] = seats
        if state["drawn"] is not None:
            out["drawn"] = card(state["drawn"])
            out["drawn_power"] = POWER_OF[state["drawn"]]
        king = state["king"]
        if king is not None:
            out["king_look"] = {"target": king["target"], "target_slot": king["target_slot"], "card": card(king["card"])}
        out["draw_top"] = card(state["draw"][-1]) if state["draw"] else None
        return out

    def redact(self, e: Event, seat: int | None) -> Event | None:
        """The event as `seat` sees it; decided from the event alone (no state)."""
        kind = e["kind"]
        d = e["data"]
        own = seat is not None and seat == e["seat"]
        if kind == "dealt":
            data = {k: v for k, v in d.items() if k not in ("slots", "draw")}
            data["slots"] = [[dict(HIDDEN) for _ in row] for row in d["slots"]]
            data["draw_count"] = len(d["draw"])
            return {**e, "data": data}
        if kind in ("peeked", "drawn", "replaced", "used"):
            if own or "card" not in d and "seen" not in d:
                return e
            data = dict(d)
            if kind == "used":
                if "seen" in data:
                    data["seen"] = dict(HIDDEN)
            else:
                data["card"] = dict(HIDDEN)
            return {**e, "data": data}
        if kind == "snap_wrong":
            pen = d["penalty"]
            if pen is None:
                return e
            return {**e, "data": {**d, "penalty": {"slot": pen["slot"], "card": dict(HIDDEN)}}}
        if kind == "reshuffled":
            return {**e, "data": {"draw_count": len(d["draw"])}}
        return e

    moves = {
        "take_discard": _take_discard,
        "draw": _draw,
        "replace": _replace,
        "discard": _discard,
        "use": _use,
        "swap": _swap,
        "keep": _keep,
        "zwicker": _zwicker,
        "snap": _snap,
        TIMER: _timer,
    }


RULES = ZwickerRules()
