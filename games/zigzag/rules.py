"""ZIGZAG: pure team rules (see shared/rules/zigzag.md and the French rulebook).

Two or three teams of two partners, sitting opposite, exchange cards with a
face-up centre all at once, in arrival order, to build a ZIG (one common
feature) or a ZAG (two). A player never says what it holds: it signs to its
partner, and the partner announces the team's combination. The first team to
score `zig`, `zag`, `double_zig` and `zigzag` wins (`double_zag` fills any one
still missing).

Everything random (the shuffle of each manche, a reshuffle of the discard
pile) is decided in `decide`/`setup` and written into events, so `fold` only
moves cards. Cards are ints in the state (see `CARDS`); events and views carry
card dicts `{"id", "face", ...}` only where the recipient may see them.

Decisions where the rules page and the rulebook are silent, marked [D]:

- [D] Card ids: characters 0-63 (`16*landscape + 4*character + attitude`),
  jokers 64-67, STOPs 68-73 (two per feature: landscape 68-69, character
  70-71, attitude 72-73), Z cards 74-76. The deck of a match holds only the
  jokers its seat count and `beginner` call for.
- [D] Seats: 4 or 6 only; any other count is `RuleError("bad_option")`.
- [D] A hand holding a STOP or a Z card has no common feature (the rulebook
  wants 4 character cards; jokers fit anything, special cards fit nothing).
  The same holds in a counter's proof: a special card with any other card
  proves "no common feature".
- [D] The discard pile is face down: cards going there from hands (false
  announcement, confirmed counter), untaken starting cards and the reshuffled
  order are never shown; only its count is public. The centre is face up, and
  so are STOPs lying before players and a played Z.
- [D] A played Z and the STOPs it removes go to the discard pile. A Z may be
  played on yourself or your partner even when no STOP lies there (it is then
  simply spent). Two STOPs of the same feature may lie before one player.
- [D] STOP, Z and `pass` need the opening first (rules page); `signal`,
  `announce` and `counter` are allowed at any moment of a live manche, even
  before opening. Passing twice in a row is refused (`already_passed`).
- [D] A false announcement reveals nothing (the server checks it); its reason
  is public only when it follows from public facts (`already_scored`),
  otherwise it is just `wrong`. A confirmed counter reveals nothing either;
  a failed one shows its proof to everyone. STOPs stay where they lie when
  hands are replaced.
- [D] `fills` may only come with `double_zag` (otherwise `bad_action`); a
  `fills` naming a combination already scored makes the announcement false.
- [D] A reshuffle puts the shuffled discard pile *under* what is left of the
  draw pile (the same as drawing the last cards, then reshuffling).
- [D] A player's latest sign stays on its partner's screen for the rest of
  the manche; the view also tells, per seat, when its hand last changed
  (`changed_at`, on the manche's event clock) so a sign can be seen to be
  older than the hand it described. Signs are cleared at a new manche and
  when that player's hand is replaced.
- [D] A counter's proof is the first pair (in hand order) without common
  feature, else the first such triple. A joker never helps a proof. (With
  character cards a triple always suffices: the rules page's "whole hand"
  case never arises, checked exhaustively.)
- [D] A tour ends by passes only once every player has opened and passed;
  with the tour timer, the starting cards of players who did not open go
  face down to the discard pile, and their hands stay as they were.
- [D] Option `tour_seconds` ranges over 5-600.
- [D] Option `hand_hint` (issue 18; off by default): telling the class of
  one's own hand is the skill the game tests, so the view names it
  (`hand_class`) only with this beginner help on, else `hand_class` is None.
  Ranked play forces it off (`unranked_off`, read by the platform when a
  match is created). Bots class their own hands from their cards and STOPs.
- [D] The dealer (platform option) has no effect on play: every player acts
  at once; the server deals and starts each tour.
- [D] A timer arriving after the end of the match is refused like any action
  (`match_over`); a stale timer during play returns no events.
- [D] Failed counters are counted per team for the whole match (3 at most).
- [D] `double_zag` is a combination like the others, made once per match: a
  team's second `double_zag` is false (`already_scored`: the team's `bonus`
  is public), punished like every false announcement.

Secret signs (option `signals_seen` off) [D]. With the option off, opponents
and spectators must learn nothing when a sign is made, and a sign can be
hidden only inside something that happens anyway:

- Every stored event reaches every socket, at least as `{seq, t_ms}`, with
  consecutive seqs (PROTOCOL.md "Live play"), and the view's `clock` counts
  the events of the manche. A sign that is an event of its own is therefore
  seen as one: at its moment (a placeholder arrives, the clock ticks) and
  afterwards (every later seq, the `ack` of an opponent's own action, the
  replay's `next`, the seat's history given to bots). No redaction of such an
  event can be indistinguishable from no event, and not sending it would be
  a seq gap the protocol forbids.
- So with the option off a sign is never an event of its own: it rides on
  the signer's own move, `{"kind": "exchange", ..., "sign": "zig"}` (also
  `open`, `stop`, `z`, `pass`). The move's event carries
  `data.signal = {sign, partner, public}`; `redact` removes that key for
  everyone but the signer and its partner, which leaves the exact event the
  same move makes without a sign (same kind, seat, data and key order, same
  seq and `t_ms`), and the views of outsiders never read a hidden sign, so
  their `clock`, `changed_at` and every other field are untouched. The
  opponents' byte stream is the same whether or not a sign rode along; the
  partner sees it at once, in the event and in its view. A standalone
  `signal` is refused (`signs_ride`) at such a table: it is the one way a
  sign could be noticed. Once the match is over the log (perspective `all`)
  and every view show every sign.
- A sign riding on a move describes the hand after the move, so it is as new
  as that hand: a sign is stale only when `at < changed_at` of its signer
  (with standalone signs the two are never equal). With the option on a
  riding sign is allowed too; outsiders then get `signal: {partner, public}`
  (that a sign was made), as for a standalone `signalled` event.
- Old logs may hold `signalled` events with `public` false (before this
  rule): they still redact to nothing (a placeholder) and fold as before.

Fair races: a take from the centre (issue 16, PROTOCOL.md "Fair races") [D].
What is raced is one centre card: every `exchange`, `stop` and `z` names the
centre card it takes (`take`), and two players reaching for the same card are
judged by reaction time, not by who sits nearer the server.

- [D] `races` = exchange, stop, z. Each take is a claim in the race for its
  card: the race opens at the card's first claim (id `take:<manche>.<tour>.<n>`),
  its `opened_ms` is the moment the card came to the centre (the `at` of the
  `opened`/`exchanged` that put it there), every seat is eligible. Claims for
  different cards are different races and may be open at once.
- [D] A take that nobody could still beat when it arrives (nobody at the
  table is compensated: lag cap 0, bots, harnesses; or the claimer's judged
  time plus every other seat's compensation has already passed) is just the
  move, the one event it was before races (`exchanged`, `stopped`,
  `z_played`): no race in the log, nothing to judge. Every other take opens
  or joins a race: `race_claimed` (seat = claimer; `race`, `claim` = the
  engine's claim record with arrival, judged and reaction time and `take`
  (the card, face up anyway), `comp_ms`, `opened_ms`, and `move`: what the
  claim would give or play) at once; then `race_settled` (`race`, `ranking`,
  `winner`, `take`) followed by the winner's move exactly as it is made
  without races. (Emitting a race for every instant take would triple the
  events of the busiest game for nothing a replay could explain.)
- [D] A pending take looks like this: the card stays face up in the centre,
  marked contested (view `races`: card, claimants); the claimer's view has
  `claim` (its race and card), its hand is unchanged until settlement, and
  its other hand moves (exchange, STOP, Z, pass) are refused `claim_pending`
  (one claim at a time). Another player may still claim the same card (it
  joins the race) or take any other card.
- [D] Secrecy of a claim: that seat S reached for centre card C is public
  (a race panel shows it); the card it would give or play (`move`) is shown
  only to the claimer until the claim wins (a losing claim reveals nothing of
  its hand: a STOP or Z held stays secret). A sign riding on a take waits in
  the claim (`pending_signal`, shown to the signing team only; cut for
  everyone else so the bytes are those of an unsigned claim) and rides on the
  winner's move event; a losing claim's sign is never made.
- [D] Settlement: the fastest judged claim wins (`race_ranking`); the losers
  keep their cards, and their take is over as with `gone` today (a settled
  outcome in `race_settled`, not an error). A claim is never judged earlier
  than its card came to the centre. A claim arriving once the race is due
  (`race_settle_at` <= now) is `gone`: the window is closed. The timer
  `race:<id>` settles a race when its window closes (stale: no events;
  early, because a later claim moved the window: armed again); any action
  arriving after that moment settles it first (lazy).
- [D] An announcement, a counter and the tour timer settle every open race
  first, whatever its window: they are checked against (or discard) the hands
  and centre as the takes already made leave them. A pass ends the tour only
  when no take is being judged. A STOP claim counts the STOPs being laid by
  pending claims against the limit of two.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine import (
    Event,
    Option,
    RuleError,
    State,
    Timing,
    event,
    race_claim_record,
    race_open,
    race_ranking,
    race_settle_at,
    race_with_claim,
    resolve_options,
    timer_event,
)

# --- the deck: data in one place ---------------------------------------------

LANDSCAPES = ("pink", "blue", "green", "yellow")
CHARACTERS = ("water", "flame", "cloud", "tree")
ATTITUDES = ("cocktail", "running", "sunglasses", "suitcase")
FEATURES = ("landscape", "character", "attitude")
FEATURE_VALUES = (LANDSCAPES, CHARACTERS, ATTITUDES)

JOKER_IDS = (64, 65, 66, 67)
STOP_IDS = (68, 69, 70, 71, 72, 73)
Z_IDS = (74, 75, 76)
STOP_FEATURE = {68: 0, 69: 0, 70: 1, 71: 1, 72: 2, 73: 2}
"""Which feature (index into FEATURES) each STOP card forbids."""

JOKERS_BY_SEATS = {4: 2, 6: 3}
"""Jokers in the deck; the `beginner` option adds one."""

COMBOS = ("zig", "zag", "double_zig", "zigzag")
"""The four combinations a team must score, in the order `double_zag` fills them."""
ALL_COMBOS = (*COMBOS, "double_zag")
SIGNS = ("zig", "zag")
MAX_STOPS = 2
MAX_FAILED_COUNTERS = 3
HAND_SIZE = 4

CHAR, JOKER, STOP, ZCARD = 0, 1, 2, 3
KIND: dict[int, int] = {}
FEAT: dict[int, tuple[int, int, int]] = {}
CARDS: dict[int, dict[str, Any]] = {}
for _l in range(4):
    for _c in range(4):
        for _a in range(4):
            _id = 16 * _l + 4 * _c + _a
            KIND[_id] = CHAR
            FEAT[_id] = (_l, _c, _a)
            CARDS[_id] = {
                "id": _id,
                "face": "character",
                "landscape": LANDSCAPES[_l],
                "character": CHARACTERS[_c],
                "attitude": ATTITUDES[_a],
            }
for _id in JOKER_IDS:
    KIND[_id] = JOKER
    CARDS[_id] = {"id": _id, "face": "joker"}
for _id in STOP_IDS:
    KIND[_id] = STOP
    CARDS[_id] = {"id": _id, "face": "stop_" + FEATURES[STOP_FEATURE[_id]]}
for _id in Z_IDS:
    KIND[_id] = ZCARD
    CARDS[_id] = {"id": _id, "face": "z"}


def _hidden(n: int) -> list[dict[str, bool]]:
    """Placeholders for n face-down cards (no id: the secrecy checker's shape of a card)."""
    return [{"hidden": True} for _ in range(n)]


_STR = [str(s) for s in range(8)]


def card(cid: int) -> dict[str, Any]:
    """A fresh card dict for a message (fresh so no two messages share one)."""
    return CARDS[cid].copy()


def cards(ids: list[int]) -> list[dict[str, Any]]:
    return [CARDS[c].copy() for c in ids]


def deck_for(seats: int, beginner: bool) -> list[int]:
    """Every card of a match: 64 characters, the jokers, 6 STOPs and 3 Zs."""
    jokers = JOKERS_BY_SEATS[seats] + (1 if beginner else 0)
    return [*range(64), *JOKER_IDS[:jokers], *STOP_IDS, *Z_IDS]


# --- classification ------------------------------------------------------------


def forbidden_mask(stops: list[int]) -> int:
    """Bit f set when a STOP forbidding feature f lies before the player."""
    mask = 0
    for s in stops:
        mask |= 1 << STOP_FEATURE[s]
    return mask


def common_features(hand: list[int], mask: int) -> int:
    """How many features are common to the hand (jokers fit all, specials none)."""
    chars = []
    for c in hand:
        k = KIND[c]
        if k == CHAR:
            chars.append(FEAT[c])
        elif k != JOKER:
            return 0
    common = 0
    for f in range(3):
        if mask >> f & 1:
            continue
        if not chars:
            common += 1
            continue
        v = chars[0][f]
        for ch in chars:
            if ch[f] != v:
                break
        else:
            common += 1
    return common


def hand_class(hand: list[int], mask: int) -> str:
    """`none`, `zig` (exactly one common feature) or `zag` (two or more)."""
    key = (*hand, mask)
    cls = _CLASS_MEMO.get(key)
    if cls is None:
        n = common_features(hand, mask)
        cls = "none" if n == 0 else "zig" if n == 1 else "zag"
        if len(_CLASS_MEMO) > 200_000:
            _CLASS_MEMO.clear()
        _CLASS_MEMO[key] = cls
    return cls


_CLASS_MEMO: dict[tuple[int, ...], str] = {}
"""Pure memo: views ask for the class of the same hands again and again."""


_TEAM_COMBO = {
    ("zig", "none"): "zig",
    ("none", "zig"): "zig",
    ("zag", "none"): "zag",
    ("none", "zag"): "zag",
    ("zig", "zig"): "double_zig",
    ("zig", "zag"): "zigzag",
    ("zag", "zig"): "zigzag",
    ("zag", "zag"): "double_zag",
}


def team_combo(class_a: str, class_b: str) -> str | None:
    """The combination two partners' classes make, or None."""
    return _TEAM_COMBO.get((class_a, class_b))


def proof(hand: list[int], mask: int) -> list[int] | None:
    """The smallest set (2, 3, else the whole hand) with no common feature; None if none."""
    n = len(hand)
    for i in range(n):
        for j in range(i + 1, n):
            if common_features([hand[i], hand[j]], mask) == 0:
                return [hand[i], hand[j]]
    for i in range(n):
        for j in range(i + 1, n):
            for k in range(j + 1, n):
                if common_features([hand[i], hand[j], hand[k]], mask) == 0:
                    return [hand[i], hand[j], hand[k]]
    if common_features(hand, mask) == 0:
        return list(hand)
    return None


# --- seats and teams -------------------------------------------------------------


def partner_of(seat: int, seats: int) -> int:
    return (seat + seats // 2) % seats


def team_of(seat: int, seats: int) -> int:
    return seat % (seats // 2)


def team_seats(team: int, seats: int) -> list[int]:
    return [team, team + seats // 2]


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


class ZigzagRules:
    """The ZIGZAG rules object registered as `RULES`."""

    slug = "zigzag"
    races: frozenset[str] = frozenset(("exchange", "stop", "z"))  # a take from the centre (PROTOCOL "Fair races")
    unranked_off: frozenset[str] = frozenset(("hand_hint",))
    """Bool options the platform turns off in ranked play (games.services._match_options): beginner help."""
    name = "ZIGZAG"
    min_seats = 4
    max_seats = 6
    teams = True
    options: dict[str, Option] = {
        "tour_seconds": Option("int", 45, "Seconds before a tour ends when not everyone has passed", minimum=5, maximum=600),
        "beginner": Option("bool", False, "One extra joker in the deck"),
        "signals_seen": Option("bool", True, "Opponents see that a sign was made (not which)"),
        "hand_hint": Option(
            "bool", False, "Beginner help: your screen names the class of your own hand (ZIG, ZAG or none); never in ranked play"
        ),
        "dealer": Option("int", -1, "Dealer seat (-1: the last seat)", minimum=-1, maximum=5, internal=True),
    }

    def __init__(self) -> None:
        self._last_public: tuple[State, dict[str, Any]] | None = None

    # --- setup -------------------------------------------------------------------

    def setup(self, seats: int, options: dict[str, Any], rng: random.Random) -> list[Event]:
        """Validate seats and options, then deal the first manche and start its first tour."""
        if not _is_int(seats) or seats not in JOKERS_BY_SEATS:
            raise RuleError("bad_option", "ZIGZAG is played by 4 or 6 players (teams of two)")
        opts = resolve_options(self.options, options, seats)
        if opts["dealer"] >= seats:
            raise RuleError("bad_option", f"option dealer must be below {seats}")
        dealer = opts["dealer"] if opts["dealer"] >= 0 else seats - 1
        deck = deck_for(seats, opts["beginner"])
        return self._new_manche(seats, opts, dealer, deck, 1, 0, rng)

    def _new_manche(
        self,
        seats: int,
        opts: dict[str, Any],
        dealer: int,
        deck: list[int],
        manche: int,
        now_ms: int,
        rng: random.Random,
    ) -> list[Event]:
        """Shuffle everything, deal 4 each, start tour 1 with its timer."""
        order = list(deck)
        rng.shuffle(order)
        hands = [order[HAND_SIZE * s : HAND_SIZE * (s + 1)] for s in range(seats)]
        draw = order[HAND_SIZE * seats :]
        starting = draw[:seats]
        return [
            event(
                "dealt",
                None,
                manche=manche,
                seats=seats,
                options=opts,
                dealer=dealer,
                hands=[cards(h) for h in hands],
                draw=cards(draw),
            ),
            event("tour_started", None, manche=manche, tour=1, starting=cards(starting)),
            timer_event(_timer_id(manche, 1), now_ms + opts["tour_seconds"] * 1000),
        ]

    # --- decide ------------------------------------------------------------------

    def decide(
        self,
        state: State,
        seat: int | None,
        action: dict[str, Any],
        now_ms: int,
        rng: random.Random,
        *,
        timing: Timing | None = None,
    ) -> list[Event]:
        """Check one action against the table and return the facts it causes.

        Open races whose window has closed are settled first (lazily: the state
        is right even when their timer is late); an announcement, a counter and
        the tour timer settle every open race first (see "Fair races" above).
        """
        if not isinstance(state, dict):
            raise RuleError("bad_action", "no match")
        if state["finished"]:
            raise RuleError("match_over", "the match is over")
        if not isinstance(action, dict):
            raise RuleError("bad_action", "an action is an object")
        kind = action.get("kind")
        if not isinstance(kind, str):
            raise RuleError("bad_action", "an action needs a kind")
        if not _is_int(now_ms):
            now_ms = 0
        if kind == "timer":
            if seat is not None:
                raise RuleError("bad_action", "only the system fires timers")
            tid = action.get("id")
            if not isinstance(tid, str):
                raise RuleError("bad_action", "a timer needs a string id")
            if tid.startswith("race:"):
                return self._race_timer(state, tid, now_ms, rng)
            live = state["timer"] is not None and state["timer"]["id"] == tid
            pre, state = self._settle_races(state, now_ms, rng, every=live)
            return pre + self._timer(state, action, now_ms, rng)
        handler = _HANDLERS.get(kind)
        if handler is None:
            raise RuleError("unknown_action", f"unknown action {kind!r}")
        if seat is None:
            raise RuleError("bad_action", "the system only fires timers")
        if not _is_int(seat) or not 0 <= seat < state["seats"]:
            raise RuleError("bad_action", "no such seat")
        pre, state = self._settle_races(state, now_ms, rng, every=kind in ("announce", "counter"))
        if kind in self.races:
            return pre + handler(self, state, seat, action, now_ms, rng, timing)
        return pre + handler(self, state, seat, action, now_ms, rng)

    def _timer(self, state: State, action: dict[str, Any], now_ms: int, rng: random.Random) -> list[Event]:
        tid = action["id"]
        timer = state["timer"]
        if timer is None or timer["id"] != tid:
            return []
        return self._end_tour(state, now_ms, rng, "timer")

    # --- fair races: a take from the centre ------------------------------------------

    def _race_timer(self, state: State, tid: str, now_ms: int, rng: random.Random) -> list[Event]:
        """A race's window closed: settle it (and any other due race); stale → no events; early → armed again."""
        pre, state = self._settle_races(state, now_ms, rng, every=False)
        race = _race_by_id(state, tid[len("race:") :])
        if race is not None:  # a later claim moved its window (the claimants' round trips changed)
            return [*pre, timer_event(tid, race_settle_at(race))]
        return pre

    def _settle_races(self, state: State, now_ms: int, rng: random.Random, *, every: bool) -> tuple[list[Event], State]:
        """Settle the open races that are due at `now_ms` (all of them with `every`), earliest first.

        Returns the events and the state after them, so the action that follows
        is decided on the table as it really is.
        """
        out: list[Event] = []
        while True:
            races = state.get("races") or []
            due = [(race_settle_at(r), r["id"]) for r in races if every or race_settle_at(r) <= now_ms]
            if not due:
                return out, state
            race = _race_by_id(state, min(due)[1])
            assert race is not None
            for e in self._settle(state, race, now_ms):
                state = self.fold(state, e)
                out.append(e)

    def _settle(self, state: State, race: dict[str, Any], now_ms: int) -> list[Event]:
        """The fastest judged claim takes the card: `race_settled`, then its move as it would have been made at once."""
        ranking = race_ranking(race)
        winner = ranking[0]["seat"]
        move = race["moves"][str(winner)]
        sig = race["signs"].get(str(winner))
        settled = event("race_settled", None, race=race["id"], ranking=ranking, winner=winner, take=card(race["take"]))
        return [settled, self._move_event(state, winner, move, sig, now_ms)]

    def _move_event(self, state: State, seat: int, move: dict[str, Any], sig: dict[str, Any] | None, at: int) -> Event:
        kind, take = move["kind"], move["take"]
        if kind == "exchange":
            e = event("exchanged", seat, give=card(move["give"]), take=card(take), at=at)
        elif kind == "stop":
            e = event("stopped", seat, card=card(move["card"]), target=move["target"], take=card(take))
        else:
            target = move["target"]
            e = event("z_played", seat, card=card(move["card"]), target=target, removed=cards(state["stops"][target]), take=card(take))
        return _signed(e, sig)

    def _claim(
        self,
        state: State,
        seat: int,
        move: dict[str, Any],
        sig: dict[str, Any] | None,
        now_ms: int,
        rng: random.Random,
        timing: Timing | None,
    ) -> list[Event]:
        """A take from the centre is a race claim; the card goes to the fastest judged claim.

        A first claim nobody could still beat (nobody compensated, or every
        other seat's bound already passed) is simply the move. Otherwise the
        race waits: `race_claimed`, and a timer at `race_settle_at`; a claim
        joining an open race is `race_claimed` too, settled at once when no
        seat that has not claimed could still be judged faster.
        """
        seats = state["seats"]
        take = move["take"]
        race = next((r for r in state.get("races") or [] if r["take"] == take), None)
        opened_ms = race["opened_ms"] if race is not None else _centre_at(state)[state["centre"].index(take)]
        t = _judged(timing, now_ms, seats, opened_ms)
        if race is None:
            rid = f"take:{state['manche']}.{state['tour']}.{state.get('race_count', 0) + 1}"
            race = race_open(rid, opened_ms, range(seats))
            alone = race_with_claim(race, race_claim_record(race, seat, t), t.comp_ms)
            if race_settle_at(alone) <= now_ms:
                # nobody could still be judged faster: the take is the move alone, exactly as without races
                return [self._move_event(state, seat, move, sig, now_ms)]
        wire = {k: (card(v) if k in ("give", "card", "take") else v) for k, v in move.items()}
        data: dict[str, Any] = {
            "race": race["id"],
            "claim": race_claim_record(race, seat, t, take=card(take)),
            "comp_ms": list(t.comp_ms),
            "opened_ms": opened_ms,
            "move": wire,
        }
        if sig is not None:
            data["pending_signal"] = sig
        claimed = event("race_claimed", seat, **data)
        after = self.fold(state, claimed)
        race = _race_by_id(after, data["race"])
        assert race is not None
        settle_at = race_settle_at(race)
        if settle_at <= now_ms:
            return [claimed, *self._settle(after, race, now_ms)]
        return [claimed, timer_event(f"race:{race['id']}", settle_at)]

    def _no_claim(self, state: State, seat: int) -> None:
        if _claim_of(state, seat) is not None:
            raise RuleError("claim_pending", "your take from the centre is being judged: wait a moment")

    def _end_tour(self, state: State, now_ms: int, rng: random.Random, reason: str) -> list[Event]:
        """Centre and untaken starting cards to the discard; the next tour begins."""
        seats = state["seats"]
        unopened = [s for s in range(seats) if state["starting"][s] is not None]
        out = [
            event(
                "tour_ended",
                None,
                manche=state["manche"],
                tour=state["tour"],
                reason=reason,
                centre=cards(state["centre"]),
                unopened=unopened,
            )
        ]
        draw = state["draw"]
        discard = state["discard"] + state["centre"] + [state["starting"][s] for s in unopened]
        if len(draw) < seats:
            order = list(discard)
            rng.shuffle(order)
            out.append(event("reshuffled", None, order=order, count=len(order)))
            draw = draw + order
        tour = state["tour"] + 1
        out.append(event("tour_started", None, manche=state["manche"], tour=tour, starting=cards(draw[:seats])))
        out.append(timer_event(_timer_id(state["manche"], tour), now_ms + state["options"]["tour_seconds"] * 1000))
        return out

    # --- hand actions ----------------------------------------------------------------

    def _open(self, state: State, seat: int, action: dict[str, Any], now_ms: int, rng: random.Random) -> list[Event]:
        cid = _card_field(action, "card")
        sig = _riding_sign(state, seat, action)
        if state["starting"][seat] is None:
            raise RuleError("already_opened", "you opened this tour already")
        if cid not in state["hands"][seat]:
            raise RuleError("not_in_hand", "you do not hold that card")
        return [_signed(event("opened", seat, card=card(cid), took=card(state["starting"][seat]), at=now_ms), sig)]

    def _exchange(
        self, state: State, seat: int, action: dict[str, Any], now_ms: int, rng: random.Random, timing: Timing | None = None
    ) -> list[Event]:
        give = _card_field(action, "give")
        take = _card_field(action, "take")
        sig = _riding_sign(state, seat, action)
        self._after_open(state, seat)
        self._no_claim(state, seat)
        if give not in state["hands"][seat]:
            raise RuleError("not_in_hand", "you do not hold that card")
        if take not in state["centre"]:
            raise RuleError("gone", "that card is no longer in the centre")
        return self._claim(state, seat, {"kind": "exchange", "give": give, "take": take}, sig, now_ms, rng, timing)

    def _stop(
        self, state: State, seat: int, action: dict[str, Any], now_ms: int, rng: random.Random, timing: Timing | None = None
    ) -> list[Event]:
        cid = _card_field(action, "card")
        take = _card_field(action, "take")
        target = _seat_field(action, "target", state["seats"])
        sig = _riding_sign(state, seat, action)
        self._after_open(state, seat)
        self._no_claim(state, seat)
        if cid not in state["hands"][seat]:
            raise RuleError("not_in_hand", "you do not hold that card")
        if KIND[cid] != STOP:
            raise RuleError("not_a_stop", "that card is not a STOP")
        if team_of(target, state["seats"]) == team_of(seat, state["seats"]):
            raise RuleError("bad_target", "a STOP goes before an opponent")
        if len(state["stops"][target]) + _stops_claimed(state, target) >= MAX_STOPS:
            raise RuleError("stop_limit", "two STOPs lie (or are being laid) before that player already")
        if not state["centre"]:
            raise RuleError("empty_centre", "there is no centre card to take")
        if take not in state["centre"]:
            raise RuleError("gone", "that card is no longer in the centre")
        return self._claim(state, seat, {"kind": "stop", "card": cid, "target": target, "take": take}, sig, now_ms, rng, timing)

    def _z(
        self, state: State, seat: int, action: dict[str, Any], now_ms: int, rng: random.Random, timing: Timing | None = None
    ) -> list[Event]:
        cid = _card_field(action, "card")
        take = _card_field(action, "take")
        target = _seat_field(action, "target", state["seats"])
        sig = _riding_sign(state, seat, action)
        self._after_open(state, seat)
        self._no_claim(state, seat)
        if cid not in state["hands"][seat]:
            raise RuleError("not_in_hand", "you do not hold that card")
        if KIND[cid] != ZCARD:
            raise RuleError("not_a_z", "that card is not a Z")
        if team_of(target, state["seats"]) != team_of(seat, state["seats"]):
            raise RuleError("bad_target", "a Z frees yourself or your partner")
        if not state["centre"]:
            raise RuleError("empty_centre", "there is no centre card to take")
        if take not in state["centre"]:
            raise RuleError("gone", "that card is no longer in the centre")
        return self._claim(state, seat, {"kind": "z", "card": cid, "target": target, "take": take}, sig, now_ms, rng, timing)

    def _pass(self, state: State, seat: int, action: dict[str, Any], now_ms: int, rng: random.Random) -> list[Event]:
        sig = _riding_sign(state, seat, action)
        self._after_open(state, seat)
        self._no_claim(state, seat)
        if state["passed"][seat]:
            raise RuleError("already_passed", "you passed already")
        out = [_signed(event("passed", seat), sig)]
        # a seat whose take is being judged has not finished its tour, even if it passed before
        claimants = {c["seat"] for r in state.get("races") or [] for c in r["claims"]}
        if all((state["passed"][s] or s == seat) and s not in claimants for s in range(state["seats"])):
            out += self._end_tour(state, now_ms, rng, "passed")
        return out

    def _after_open(self, state: State, seat: int) -> None:
        if state["starting"][seat] is not None:
            raise RuleError("not_opened", "open first: discard a card and take your starting card")

    # --- talk: signs, announcements, counters ----------------------------------------

    def _signal(self, state: State, seat: int, action: dict[str, Any], now_ms: int, rng: random.Random) -> list[Event]:
        sign = action.get("sign")
        if not isinstance(sign, str) or sign not in SIGNS:
            raise RuleError("bad_action", "a sign is zig or zag")
        if not state["options"]["signals_seen"]:
            # a sign of its own would be an event every socket notices (see the module docstring)
            raise RuleError(
                "signs_ride", "signs are secret at this table: add `sign` to your next move (open, exchange, stop, z or pass)"
            )
        return [
            event(
                "signalled",
                seat,
                sign=sign,
                partner=partner_of(seat, state["seats"]),
                public=state["options"]["signals_seen"],
            )
        ]

    def _announce(self, state: State, seat: int, action: dict[str, Any], now_ms: int, rng: random.Random) -> list[Event]:
        combo = action.get("combo")
        if not isinstance(combo, str) or combo not in ALL_COMBOS:
            raise RuleError("bad_action", "announce one of " + ", ".join(ALL_COMBOS))
        _no_sign(action)
        fills = action.get("fills")
        if fills is not None and (combo != "double_zag" or not isinstance(fills, str) or fills not in COMBOS):
            raise RuleError("bad_action", "fills names one of the four combinations, with double_zag only")
        seats = state["seats"]
        team = team_of(seat, seats)
        a, b = team_seats(team, seats)
        scored = state["scored"][team]
        ca = hand_class(state["hands"][a], forbidden_mask(state["stops"][a]))
        cb = hand_class(state["hands"][b], forbidden_mask(state["stops"][b]))
        actual = team_combo(ca, cb)
        target = combo
        if combo == "double_zag":
            target = fills if fills is not None else next(c for c in COMBOS if c not in scored)
        reason = None
        if target in scored or (combo == "double_zag" and state["bonus"][team]):
            reason = "already_scored"  # a team makes its double_zag once, like every combination
        elif actual != combo:
            reason = "wrong"
        elif combo in ("zig", "zag") and (ca if seat == a else cb) != "none":
            reason = "wrong"  # the holder announced: its partner must do it
        data: dict[str, Any] = {"combo": combo, "team": team, "correct": reason is None}
        if fills is not None:
            data["fills"] = fills
        if reason is not None:
            data["reason"] = reason
            return [event("announced", seat, **data), *self._replace(state, team, "announce", rng)]
        data["scores"] = target
        data["hands"] = {str(a): cards(state["hands"][a]), str(b): cards(state["hands"][b])}
        out = [event("announced", seat, **data)]
        new_scored = [*scored, target]
        out.append(
            event(
                "manche_ended",
                None,
                manche=state["manche"],
                team=team,
                combo=target,
                bonus=combo == "double_zag",
                scored=new_scored,
            )
        )
        if all(c in new_scored for c in COMBOS):
            counts = [len(s) for s in state["scored"]]
            counts[team] = len(new_scored)
            out.append(self._finished(state, counts))
        else:
            deck = deck_for(seats, state["options"]["beginner"])
            out += self._new_manche(seats, state["options"], state["dealer"], deck, state["manche"] + 1, now_ms, rng)
        return out

    def _finished(self, state: State, counts: list[int]) -> Event:
        """The end: placements by combinations scored, and every card revealed."""
        outcome = _outcome(counts, state["seats"])
        return event(
            "finished",
            None,
            outcome=outcome,
            hands=[cards(h) for h in state["hands"]],
            draw=cards(state["draw"]),
            discard=cards(state["discard"]),
            starting=[None if c is None else card(c) for c in state["starting"]],
        )

    def _counter(self, state: State, seat: int, action: dict[str, Any], now_ms: int, rng: random.Random) -> list[Event]:
        seats = state["seats"]
        target = action.get("team")
        if not _is_int(target) or not 0 <= target < seats // 2:
            raise RuleError("bad_action", "counter a team by its number")
        _no_sign(action)
        own = team_of(seat, seats)
        if target == own:
            raise RuleError("bad_target", "you cannot counter your own team")
        if state["failed"][own] >= MAX_FAILED_COUNTERS:
            raise RuleError("no_counters", "your team has used its three failed counters")
        proofs: dict[str, list[dict[str, Any]]] = {}
        confirmed = False
        for s in team_seats(target, seats):
            p = proof(state["hands"][s], forbidden_mask(state["stops"][s]))
            if p is None:
                confirmed = True
                break
            proofs[str(s)] = cards(p)
        data: dict[str, Any] = {"team": target, "by": own, "confirmed": confirmed}
        if confirmed:
            return [event("countered", seat, **data), *self._replace(state, target, "counter", rng)]
        data["proof"] = proofs
        data["failed"] = state["failed"][own] + 1
        return [event("countered", seat, **data)]

    def _replace(self, state: State, team: int, reason: str, rng: random.Random) -> list[Event]:
        """Both partners discard their hands face down and draw 4 new cards each."""
        seats = state["seats"]
        a, b = team_seats(team, seats)
        out = []
        draw = state["draw"]
        need = 2 * HAND_SIZE
        if len(draw) < need:
            # never short of cards: at least 28 cards are in the draw and discard piles
            order = list(state["discard"])
            rng.shuffle(order)
            out.append(event("reshuffled", None, order=order, count=len(order)))
            draw = draw + order
        out.append(
            event(
                "hands_replaced",
                None,
                team=team,
                reason=reason,
                hands={str(a): cards(draw[:HAND_SIZE]), str(b): cards(draw[HAND_SIZE:need])},
            )
        )
        return out

    # --- fold ----------------------------------------------------------------------

    def fold(self, state: State, e: Event) -> State:
        """Apply one fact; copies only the parts it changes (the input is never mutated)."""
        kind = e["kind"]
        d = e["data"]
        if kind == "dealt":
            return _fold_dealt(state, d)
        s = dict(state)
        s["clock"] = state["clock"] + 1
        seat = e["seat"]
        f = _FOLDS.get(kind)
        if f is not None:
            f(s, seat, d)
            if kind in _SIGN_CARRIERS and "signal" in d:
                _f_signalled(s, seat, d["signal"])  # after the move: the sign describes the hand it left
        return s

    # --- view, redact, outcome -----------------------------------------------------

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """The whole table as `seat` may see it (None: a spectator)."""
        seats = state["seats"]
        if seat is not None and not (_is_int(seat) and 0 <= seat < seats):
            seat = None
        v = self._public(state)
        v["seat"] = seat
        signals: dict[str, dict[str, Any]] = {}
        v["signals"] = signals
        everything = state["finished"]
        seen = state["options"]["signals_seen"]
        if seat is None:
            partner = None
            v["team"] = v["partner"] = v["hand_class"] = v["claim"] = None
            v["hand"] = []
        else:
            partner = (seat + seats // 2) % seats
            v["team"] = seat % (seats // 2)
            v["partner"] = partner
            hand = state["hands"][seat]
            v["hand"] = [CARDS[c].copy() for c in hand]
            stops = state["stops"][seat]
            # the class of one's own hand is the skill the game tests: named only as beginner help
            hint = state["options"].get("hand_hint", False)
            v["hand_class"] = hand_class(hand, forbidden_mask(stops) if stops else 0) if hint else None
            mine = _claim_of(state, seat)
            v["claim"] = None if mine is None else {"race": mine["id"], "take": mine["take"]}
        for s, sig in enumerate(state["signals"]):
            if sig is None:
                continue
            if everything or s == seat or s == partner:
                signals[_STR[s]] = {"sign": sig["sign"], "at": sig["at"], "count": sig["count"]}
            elif seen:
                signals[_STR[s]] = {"at": sig["at"], "count": sig["count"]}
        return v

    def view_all(self, state: State) -> dict[str, Any]:
        """The replay's "everything" table: the spectator's view with every secret face up.

        Same shape as `view(state, None)` so the renderer draws it; added:
        `hands` (every seat's cards, as the finished view has them),
        `starting_cards` (each face-down starting card, None once taken),
        `hand_classes` (each seat's class with its STOPs applied) and
        `team_combos` (what each team would score if it announced now), and
        `signals` carries every sign's content. A viewer can then see who
        signed what, and whether an announcement or a counter was right,
        without the rules. Replays only: never sent live.
        """
        v = self.view(state, None)
        seats = state["seats"]
        masks = [forbidden_mask(st) for st in state["stops"]]
        classes = [hand_class(h, m) for h, m in zip(state["hands"], masks, strict=True)]
        v["hands"] = [cards(h) for h in state["hands"]]
        v["starting_cards"] = [None if c is None else card(c) for c in state["starting"]]
        v["hand_classes"] = classes
        v["team_combos"] = [team_combo(classes[a], classes[b]) for a, b in (team_seats(t, seats) for t in range(seats // 2))]
        v["signals"] = {
            _STR[s]: {"sign": sig["sign"], "at": sig["at"], "count": sig["count"]}
            for s, sig in enumerate(state["signals"])
            if sig is not None
        }
        return v

    def _public(self, state: State) -> dict[str, Any]:
        """What every seat sees alike; built once per state (views of one state share it).

        The platform asks for one view per seat of the same state after every
        commit, so the last state's public part is memoised by identity. States
        are never changed in place (fold copies), so identity is enough.
        """
        cached = self._last_public
        if cached is not None and cached[0] is state:
            return dict(cached[1])
        seats = state["seats"]
        over = state["finished"]
        half = seats // 2
        starting = state["starting"]
        pub: dict[str, Any] = {
            "seats": seats,
            "dealer": state["dealer"],
            "manche": state["manche"],
            "tour": state["tour"],
            "phase": "over" if over else "tour",
            "hand_counts": [len(h) for h in state["hands"]],
            "starting": [c is not None for c in starting],
            "centre": cards(state["centre"]),
            "opened": [s for s in range(seats) if starting[s] is None],
            "passed": [s for s in range(seats) if state["passed"][s]],
            "stops": {_STR[s]: cards(st) if st else [] for s, st in enumerate(state["stops"])},
            "teams": [
                {
                    "team": t,
                    "seats": [t, t + half],
                    "scored": list(state["scored"][t]),
                    "bonus": list(state["bonus"][t]),
                    "failed_counters": state["failed"][t],
                    "countered_at": state["countered_at"][t],
                }
                for t in range(half)
            ],
            "changed_at": list(state["changed_at"]),
            # takes being judged: the card stays in the centre, contested, until its race is settled
            "races": [
                {"id": r["id"], "take": r["take"], "claimants": [c["seat"] for c in r["claims"]], "opened_ms": r["opened_ms"]}
                for r in state.get("races") or []
            ],
            "clock": state["clock"],
            "tour_clock": state["tour_clock"],
            "draw_count": len(state["draw"]),
            "discard_count": len(state["discard"]),
            "tour_due_ms": None if state["timer"] is None else state["timer"]["due_ms"],
            "options": dict(state["options"]),
            "outcome": _copy_outcome(state["outcome"]),
            "finished": over,
        }
        if over:
            pub["hands"] = [cards(h) for h in state["hands"]]
        self._last_public = (state, pub)
        return dict(pub)

    def redact(self, e: Event, seat: int | None) -> Event | None:
        """The event as `seat` sees it, decided from the event alone."""
        kind = e["kind"]
        if kind in _SIGN_CARRIERS:
            e = _hide_signal(e, seat)
        d = e["data"]
        if kind == "dealt":
            nd = dict(d)
            nd["hands"] = [h if i == seat else _hidden(len(h)) for i, h in enumerate(d["hands"])]
            nd["draw"] = len(d["draw"])
            return _with(e, nd)
        if kind == "tour_started":
            nd = dict(d)
            nd["starting"] = _hidden(len(d["starting"]))
            return _with(e, nd)
        if kind == "opened":
            if e["seat"] == seat:
                return e
            nd = dict(d)
            nd["took"] = {"hidden": True}
            return _with(e, nd)
        if kind == "hands_replaced":
            nd = dict(d)
            nd["hands"] = {k: (h if k == str(seat) else _hidden(len(h))) for k, h in d["hands"].items()}
            return _with(e, nd)
        if kind == "reshuffled":
            return _with(e, {"count": d["count"]})
        if kind == "race_claimed":
            # public: who reached for which centre card, and when; what it would give only to the claimer,
            # a sign riding on it only to the signing team (and the move that wins carries it)
            sig = d.get("pending_signal")
            friend = sig is not None and seat is not None and seat in (e["seat"], sig["partner"])
            if seat == e["seat"] or ("move" not in d and (sig is None or friend)):
                return e
            return _with(e, {k: v for k, v in d.items() if k != "move" and (k != "pending_signal" or friend)})
        if kind == "signalled":
            if seat is not None and (seat == e["seat"] or seat == d["partner"]):
                return e
            if not d["public"]:
                return None
            return _with(e, {"partner": d["partner"], "public": True})
        return e

    def outcome(self, state: State) -> dict[str, Any] | None:
        return state["outcome"] if state is not None else None


# --- helpers -------------------------------------------------------------------------


def _copy_outcome(outcome: dict[str, Any] | None) -> dict[str, Any] | None:
    if outcome is None:
        return None
    return {"placements": [dict(p) for p in outcome["placements"]], "winners": list(outcome["winners"])}


def _timer_id(manche: int, tour: int) -> str:
    return f"tour:{manche}:{tour}"


def _with(e: Event, data: dict[str, Any]) -> Event:
    return {**e, "data": data}


def _race_by_id(state: State, rid: str) -> dict[str, Any] | None:
    return next((r for r in state.get("races") or [] if r["id"] == rid), None)


def _claim_of(state: State, seat: int) -> dict[str, Any] | None:
    """The open race `seat` has a claim in, or None (one claim at a time)."""
    for r in state.get("races") or []:
        if any(c["seat"] == seat for c in r["claims"]):
            return r
    return None


def _stops_claimed(state: State, target: int) -> int:
    """STOPs being laid before `target` by claims still judged."""
    return sum(
        1 for r in state.get("races") or [] for m in r["moves"].values() if m["kind"] == "stop" and m["target"] == target
    )


def _centre_at(state: State) -> list[int]:
    """When each centre card came there (match ms); 0 for states folded before races existed."""
    at = state.get("centre_at")
    return list(at) if at is not None and len(at) == len(state["centre"]) else [0] * len(state["centre"])


def _judged(timing: Timing | None, now_ms: int, seats: int, opened_ms: int) -> Timing:
    """The platform's timing, made safe: arrival is now, judged within [card on the table, arrival].

    Without a timing (harnesses, bots' models, old tests) the claim is judged
    on arrival and nobody is compensated. A claim is never judged earlier than
    the moment its card came to the centre [D].
    """
    if timing is None:
        return Timing(arrival_ms=now_ms, judged_ms=now_ms, comp_ms=(0,) * seats)
    comp = [c if _is_int(c) and c > 0 else 0 for c in list(timing.comp_ms)[:seats]]
    comp += [0] * (seats - len(comp))
    judged = timing.judged_ms if _is_int(timing.judged_ms) else now_ms
    judged = min(now_ms, max(judged, min(opened_ms, now_ms)))
    return Timing(arrival_ms=now_ms, judged_ms=judged, comp_ms=tuple(comp))


def _riding_sign(state: State, seat: int, action: dict[str, Any]) -> dict[str, Any] | None:
    """The sign a move carries (`action.sign`), as the event's `signal`; None without one."""
    sign = action.get("sign")
    if sign is None:
        return None
    if not isinstance(sign, str) or sign not in SIGNS:
        raise RuleError("bad_action", "a sign is zig or zag")
    return {"sign": sign, "partner": partner_of(seat, state["seats"]), "public": state["options"]["signals_seen"]}


def _signed(e: Event, sig: dict[str, Any] | None) -> Event:
    """The move's event with its riding sign, added last (so removing it restores the unsigned event)."""
    if sig is not None:
        e["data"]["signal"] = sig
    return e


def _no_sign(action: dict[str, Any]) -> None:
    if "sign" in action:
        raise RuleError("bad_action", "a sign rides on open, exchange, stop, z or pass")


def _hide_signal(e: Event, seat: int | None) -> Event:
    """A riding sign as `seat` sees it: whole for signer and partner; else removed, or only its fact when public."""
    d = e["data"]
    sig = d.get("signal")
    if sig is None or (seat is not None and (seat == e["seat"] or seat == sig["partner"])):
        return e
    nd = {k: v for k, v in d.items() if k != "signal"}
    if sig["public"]:
        nd["signal"] = {"partner": sig["partner"], "public": True}
    return _with(e, nd)


def _card_field(action: dict[str, Any], name: str) -> int:
    v = action.get(name)
    if not _is_int(v) or v not in KIND:
        raise RuleError("bad_action", f"{name} must be a card id")
    return v


def _seat_field(action: dict[str, Any], name: str, seats: int) -> int:
    v = action.get(name)
    if not _is_int(v) or not 0 <= v < seats:
        raise RuleError("bad_action", f"{name} must be a seat")
    return v


def _outcome(counts: list[int], seats: int) -> dict[str, Any]:
    """Teams placed by combinations scored; both partners share their team's place."""
    half = seats // 2
    placements = []
    for s in range(seats):
        t = s % half
        place = 1 + sum(1 for u in range(half) if counts[u] > counts[t])
        placements.append({"seat": s, "place": place, "score": counts[t]})
    best = max(counts)
    winners = [s for s in range(seats) if counts[s % half] == best]
    return {"placements": placements, "winners": winners}


def _fold_dealt(state: State, d: dict[str, Any]) -> State:
    seats = d["seats"]
    half = seats // 2
    s: dict[str, Any]
    if state is None:
        s = {
            "seats": seats,
            "options": dict(d["options"]),
            "dealer": d["dealer"],
            "scored": [[] for _ in range(half)],
            "bonus": [[] for _ in range(half)],
            "failed": [0] * half,
            "finished": False,
            "outcome": None,
            "race_count": 0,
        }
    else:
        s = dict(state)
    s["manche"] = d["manche"]
    s["tour"] = 0
    s["clock"] = 0
    s["tour_clock"] = 0
    s["hands"] = [[c["id"] for c in h] for h in d["hands"]]
    s["draw"] = [c["id"] for c in d["draw"]]
    s["discard"] = []
    s["centre"] = []
    s["centre_at"] = []
    s["races"] = []
    s["starting"] = [None] * seats
    s["passed"] = [False] * seats
    s["stops"] = [[] for _ in range(seats)]
    s["signals"] = [None] * seats
    s["changed_at"] = [0] * seats
    s["countered_at"] = [-1] * half
    s["timer"] = None
    return s


def _touch(s: dict[str, Any], *seats: int) -> None:
    ch = list(s["changed_at"])
    for x in seats:
        ch[x] = s["clock"]
    s["changed_at"] = ch


def _swap(hand: list[int], out: int, into: int) -> list[int]:
    h = list(hand)
    h[h.index(out)] = into
    return h


def _set(lst: list[Any], i: int, v: Any) -> list[Any]:
    n = list(lst)
    n[i] = v
    return n


def _f_tour_started(s: dict[str, Any], seat: Any, d: dict[str, Any]) -> None:
    n = len(d["starting"])
    s["tour"] = d["tour"]
    s["tour_clock"] = s["clock"]
    s["starting"] = [c["id"] for c in d["starting"]]
    s["draw"] = s["draw"][n:]
    s["passed"] = [False] * s["seats"]


def _f_timer(s: dict[str, Any], seat: Any, d: dict[str, Any]) -> None:
    if not str(d["id"]).startswith("race:"):  # a race's timer is not the tour's
        s["timer"] = {"id": d["id"], "due_ms": d["due_ms"]}


def _f_opened(s: dict[str, Any], seat: int, d: dict[str, Any]) -> None:
    cid = d["card"]["id"]
    s["hands"] = _set(s["hands"], seat, _swap(s["hands"][seat], cid, d["took"]["id"]))
    s["centre_at"] = [*_centre_at(s), d.get("at", 0)]
    s["centre"] = [*s["centre"], cid]
    s["starting"] = _set(s["starting"], seat, None)
    _touch(s, seat)


def _f_exchanged(s: dict[str, Any], seat: int, d: dict[str, Any]) -> None:
    give, take = d["give"]["id"], d["take"]["id"]
    s["hands"] = _set(s["hands"], seat, _swap(s["hands"][seat], give, take))
    s["centre_at"] = [d.get("at", 0) if c == take else a for c, a in zip(s["centre"], _centre_at(s), strict=True)]
    s["centre"] = [give if c == take else c for c in s["centre"]]
    if s["passed"][seat]:
        s["passed"] = _set(s["passed"], seat, False)
    _touch(s, seat)


def _f_stopped(s: dict[str, Any], seat: int, d: dict[str, Any]) -> None:
    cid, take, target = d["card"]["id"], d["take"]["id"], d["target"]
    s["hands"] = _set(s["hands"], seat, _swap(s["hands"][seat], cid, take))
    _centre_without(s, take)
    s["stops"] = _set(s["stops"], target, [*s["stops"][target], cid])
    if s["passed"][seat]:
        s["passed"] = _set(s["passed"], seat, False)
    _touch(s, seat, target)


def _f_z_played(s: dict[str, Any], seat: int, d: dict[str, Any]) -> None:
    cid, take, target = d["card"]["id"], d["take"]["id"], d["target"]
    s["hands"] = _set(s["hands"], seat, _swap(s["hands"][seat], cid, take))
    _centre_without(s, take)
    s["discard"] = [*s["discard"], cid, *s["stops"][target]]
    s["stops"] = _set(s["stops"], target, [])
    if s["passed"][seat]:
        s["passed"] = _set(s["passed"], seat, False)
    _touch(s, seat, target)


def _centre_without(s: dict[str, Any], take: int) -> None:
    s["centre_at"] = [a for c, a in zip(s["centre"], _centre_at(s), strict=True) if c != take]
    s["centre"] = [c for c in s["centre"] if c != take]


def _f_race_claimed(s: dict[str, Any], seat: int, d: dict[str, Any]) -> None:
    """A claim joins its race (opened by the first claim); the move and a riding sign wait in the race."""
    races = list(s.get("races") or [])
    i = next((k for k, r in enumerate(races) if r["id"] == d["race"]), None)
    if i is None:
        race = {**race_open(d["race"], d["opened_ms"], range(s["seats"])), "take": d["claim"]["take"]["id"], "moves": {}, "signs": {}}
        s["race_count"] = s.get("race_count", 0) + 1
        races.append(race)
        i = len(races) - 1
    race = race_with_claim(races[i], d["claim"], d["comp_ms"])
    move = {k: (v["id"] if isinstance(v, dict) else v) for k, v in d["move"].items()}
    race["moves"] = {**race["moves"], str(seat): move}
    if "pending_signal" in d:
        race["signs"] = {**race["signs"], str(seat): d["pending_signal"]}
    races[i] = race
    s["races"] = races


def _f_race_settled(s: dict[str, Any], seat: Any, d: dict[str, Any]) -> None:
    s["races"] = [r for r in s.get("races") or [] if r["id"] != d["race"]]


def _f_passed(s: dict[str, Any], seat: int, d: dict[str, Any]) -> None:
    s["passed"] = _set(s["passed"], seat, True)


def _f_signalled(s: dict[str, Any], seat: int, d: dict[str, Any]) -> None:
    old = s["signals"][seat]
    count = 1 if old is None else old["count"] + 1
    s["signals"] = _set(s["signals"], seat, {"sign": d["sign"], "at": s["clock"], "count": count})


def _f_countered(s: dict[str, Any], seat: int, d: dict[str, Any]) -> None:
    s["countered_at"] = _set(s["countered_at"], d["team"], s["clock"])
    if not d["confirmed"]:
        s["failed"] = _set(s["failed"], d["by"], d["failed"])


def _f_hands_replaced(s: dict[str, Any], seat: Any, d: dict[str, Any]) -> None:
    hands = list(s["hands"])
    discard = list(s["discard"])
    signals = list(s["signals"])
    taken = 0
    for k, h in d["hands"].items():
        x = int(k)
        discard += hands[x]
        hands[x] = [c["id"] for c in h]
        taken += len(h)
        signals[x] = None
    s["hands"] = hands
    s["discard"] = discard
    s["draw"] = s["draw"][taken:]
    s["signals"] = signals
    _touch(s, *(int(k) for k in d["hands"]))


def _f_reshuffled(s: dict[str, Any], seat: Any, d: dict[str, Any]) -> None:
    s["draw"] = s["draw"] + d["order"]
    s["discard"] = []


def _f_tour_ended(s: dict[str, Any], seat: Any, d: dict[str, Any]) -> None:
    s["discard"] = s["discard"] + s["centre"] + [c for c in s["starting"] if c is not None]
    s["centre"] = []
    s["centre_at"] = []
    s["races"] = []
    s["starting"] = [None] * s["seats"]
    s["passed"] = [False] * s["seats"]
    s["timer"] = None


def _f_manche_ended(s: dict[str, Any], seat: Any, d: dict[str, Any]) -> None:
    t = d["team"]
    s["scored"] = _set(s["scored"], t, list(d["scored"]))
    if d["bonus"]:
        s["bonus"] = _set(s["bonus"], t, [*s["bonus"][t], d["combo"]])
    s["timer"] = None


def _f_finished(s: dict[str, Any], seat: Any, d: dict[str, Any]) -> None:
    s["finished"] = True
    s["outcome"] = d["outcome"]
    s["timer"] = None


_FOLDS = {
    "tour_started": _f_tour_started,
    "timer": _f_timer,
    "opened": _f_opened,
    "exchanged": _f_exchanged,
    "stopped": _f_stopped,
    "z_played": _f_z_played,
    "passed": _f_passed,
    "race_claimed": _f_race_claimed,
    "race_settled": _f_race_settled,
    "signalled": _f_signalled,
    "countered": _f_countered,
    "hands_replaced": _f_hands_replaced,
    "reshuffled": _f_reshuffled,
    "tour_ended": _f_tour_ended,
    "manche_ended": _f_manche_ended,
    "finished": _f_finished,
}

_SIGN_CARRIERS = frozenset(("opened", "exchanged", "stopped", "z_played", "passed"))
"""Events of the moves a sign may ride on (see the module docstring, "Secret signs")."""

_HANDLERS = {
    "open": ZigzagRules._open,
    "exchange": ZigzagRules._exchange,
    "stop": ZigzagRules._stop,
    "z": ZigzagRules._z,
    "pass": ZigzagRules._pass,
    "signal": ZigzagRules._signal,
    "announce": ZigzagRules._announce,
    "counter": ZigzagRules._counter,
}

RULES = ZigzagRules()
