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
- [D] Option `hand_hint` (off by default): telling the class of
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

Fair races: a take from the centre (PROTOCOL.md "Fair races") [D].
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
- [D] Settlement: the fastest judged claim wins (`races.ranking`); the losers
  keep their cards, and their take is over as with `gone` today (a settled
  outcome in `race_settled`, not an error). A claim is never judged earlier
  than its card came to the centre. A claim arriving once the race is due
  (`races.settle_at` <= now) is `gone`: the window is closed. The timer
  `race:<id>` settles a race when its window closes (stale: no events;
  early, because a later claim moved the window: armed again); any action
  arriving after that moment settles it first (lazy).
- [D floor] A human floor (PROTOCOL "Fair play"): a take judged less than
  the table's `min_reaction_ms` after its card came to the centre is an
  anticipation (`"anticipated": true` in its `race_claimed` claim; such a
  take is always a race in the log, never the bare move). The rulebook has
  no penalty for a grab nobody could make — a player simply does not get a
  card he reached for too soon — so an anticipated take is refused: it ranks
  after every real claim and never gets the card; its claimer keeps his cards
  as any losing claimant does, and cannot reach for that card again while it
  lies in the centre (RuleError `anticipated`; otherwise a retry would be free). A race of anticipations alone is settled
  at once with `winner: null`; the card stays in the centre. With
  `min_reaction_ms` 0 there is no floor.
- [D] An announcement, a counter and the tour timer settle every open race
  first, whatever its window: they are checked against (or discard) the hands
  and centre as the takes already made leave them. A pass ends the tour only
  when no take is being judged. A STOP claim counts the STOPs being laid by
  pending claims against the limit of two.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine import TIMER, Action, Event, GameRules, Option, RuleError, State, Timing, Tx, event, is_int, timer_event
from games.kit import races
from games.kit.memo import last_state
from games.kit.opening import deal_hands, open_table, shuffled

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


class ZigzagRules(GameRules):
    """The ZIGZAG rules object registered as `RULES`.

    Read it like every game's rules (games/engine.py `GameRules`): `setup`;
    the moves (one function per action kind, emitting into a `Tx`); the folds
    (one `_fold_<kind>` per event kind, gathered into `folds` by the kit); what
    a seat may see (`view`, `redact`, `legal_actions`); and at the end the
    table `moves`.
    """

    slug = "zigzag"
    name = "ZIGZAG"
    min_seats = 4
    max_seats = 6
    teams = True
    races: frozenset[str] = frozenset(("exchange", "stop", "z"))  # a take from the centre (PROTOCOL "Fair races")
    unranked_off: frozenset[str] = frozenset(("hand_hint",))
    """Bool options the platform turns off in ranked play (games.services.matches._match_options): beginner help."""
    options: dict[str, Option] = {
        "tour_seconds": Option("int", 45, "Seconds before a tour ends when not everyone has passed", minimum=5, maximum=600),
        "beginner": Option("bool", False, "One extra joker in the deck"),
        "signals_seen": Option("bool", True, "Opponents see that a sign was made (not which)"),
        "hand_hint": Option(
            "bool", False, "Beginner help: your screen names the class of your own hand (ZIG, ZAG or none); never in ranked play"
        ),
        "dealer": Option("int", -1, "Dealer seat (-1: the last seat)", minimum=-1, maximum=5, internal=True),
    }

    # --- setup -------------------------------------------------------------------

    def setup(self, seats: int, options: dict[str, Any], rng: random.Random) -> list[Event]:
        """Validate seats and options, then deal the first manche and start its first tour."""
        o = open_table(self, seats, options, seat_counts=JOKERS_BY_SEATS)
        opts, dealer = o.options, o.dealer
        deck = deck_for(seats, opts["beginner"])
        return _new_manche(seats, opts, dealer, deck, 1, 0, rng)

    # --- before every move: settle the races that are due ----------------------------

    def before_move(self, tx: Tx, seat: int | None, kind: str, now_ms: int, rng: random.Random) -> None:
        """Settle the open races whose window closed (lazily: right even when their timer is late).

        An announcement and a counter settle every open race first (they are
        checked against the hands as the takes already made leave them); a
        timer settles in its move, since which races it settles depends on
        which timer it is.
        """
        if kind != TIMER:
            _settle_races(tx, now_ms, every=kind in ("announce", "counter"))

    # --- moves: one function per action kind (the `moves` table below) ----------------

    def _timer(self, tx: Tx, seat: None, action: Action, now_ms: int, rng: random.Random, timing: None) -> None:
        """A race's window closed, or a tour's time is up (which settles every open race first); stale: nothing."""
        tid = action["id"]
        if tid.startswith("race:"):
            _settle_races(tx, now_ms, every=False)
            race = _race_by_id(tx.state, tid[len("race:") :])
            if race is not None:  # a later claim moved its window (the claimants' round trips changed)
                tx.emit(timer_event(tid, races.settle_at(race)))
            return
        timer = tx.state["timer"]
        live = timer is not None and timer["id"] == tid
        _settle_races(tx, now_ms, every=live)
        if live:
            _end_tour(tx, now_ms, rng, "timer")

    def _open(self, tx: Tx, seat: int, action: Action, now_ms: int, rng: random.Random, timing: None) -> None:
        state = tx.state
        cid = _card_field(action, "card")
        sig = _riding_sign(state, seat, action)
        if state["starting"][seat] is None:
            raise RuleError("already_opened", "you opened this tour already")
        if cid not in state["hands"][seat]:
            raise RuleError("not_in_hand", "you do not hold that card")
        tx.emit(_signed(event("opened", seat, card=card(cid), took=card(state["starting"][seat]), at=now_ms), sig))

    def _exchange(self, tx: Tx, seat: int, action: Action, now_ms: int, rng: random.Random, timing: Timing) -> None:
        state = tx.state
        give = _card_field(action, "give")
        take = _card_field(action, "take")
        sig = _riding_sign(state, seat, action)
        _hand_move_allowed(state, seat)
        if give not in state["hands"][seat]:
            raise RuleError("not_in_hand", "you do not hold that card")
        _take_allowed(state, take, special=False)
        _claim(tx, seat, {"kind": "exchange", "give": give, "take": take}, sig, now_ms, timing)

    def _stop(self, tx: Tx, seat: int, action: Action, now_ms: int, rng: random.Random, timing: Timing) -> None:
        state = tx.state
        cid, take, target, sig = _special_fields(state, seat, action, STOP, "not_a_stop", "that card is not a STOP")
        if team_of(target, state["seats"]) == team_of(seat, state["seats"]):
            raise RuleError("bad_target", "a STOP goes before an opponent")
        if len(state["stops"][target]) + _stops_claimed(state, target) >= MAX_STOPS:
            raise RuleError("stop_limit", "two STOPs lie (or are being laid) before that player already")
        _take_allowed(state, take, special=True)
        _claim(tx, seat, {"kind": "stop", "card": cid, "target": target, "take": take}, sig, now_ms, timing)

    def _z(self, tx: Tx, seat: int, action: Action, now_ms: int, rng: random.Random, timing: Timing) -> None:
        state = tx.state
        cid, take, target, sig = _special_fields(state, seat, action, ZCARD, "not_a_z", "that card is not a Z")
        if team_of(target, state["seats"]) != team_of(seat, state["seats"]):
            raise RuleError("bad_target", "a Z frees yourself or your partner")
        _take_allowed(state, take, special=True)
        _claim(tx, seat, {"kind": "z", "card": cid, "target": target, "take": take}, sig, now_ms, timing)

    def _pass(self, tx: Tx, seat: int, action: Action, now_ms: int, rng: random.Random, timing: None) -> None:
        state = tx.state
        sig = _riding_sign(state, seat, action)
        _hand_move_allowed(state, seat)
        if state["passed"][seat]:
            raise RuleError("already_passed", "you passed already")
        tx.emit(_signed(event("passed", seat), sig))
        # a seat whose take is being judged has not finished its tour, even if it passed before
        state = tx.state
        claimants = {c["seat"] for r in state["races"] for c in r["claims"]}
        if all(state["passed"][s] and s not in claimants for s in range(state["seats"])):
            _end_tour(tx, now_ms, rng, "passed")

    def _signal(self, tx: Tx, seat: int, action: Action, now_ms: int, rng: random.Random, timing: None) -> None:
        state = tx.state
        sign = action.get("sign")
        if not isinstance(sign, str) or sign not in SIGNS:
            raise RuleError("bad_action", "a sign is zig or zag")
        seen = state["options"]["signals_seen"]
        if not seen:
            # a sign of its own would be an event every socket notices (see the module docstring)
            raise RuleError(
                "signs_ride", "signs are secret at this table: add `sign` to your next move (open, exchange, stop, z or pass)"
            )
        tx.emit(event("signalled", seat, sign=sign, partner=partner_of(seat, state["seats"]), public=seen))

    def _announce(self, tx: Tx, seat: int, action: Action, now_ms: int, rng: random.Random, timing: None) -> None:
        state = tx.state
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
        target = combo
        if combo == "double_zag":
            target = fills if fills is not None else next(c for c in COMBOS if c not in scored)
        reason = None
        if target in scored or (combo == "double_zag" and state["bonus"][team]):
            reason = "already_scored"  # a team makes its double_zag once, like every combination
        elif team_combo(ca, cb) != combo:
            reason = "wrong"
        elif combo in ("zig", "zag") and (ca if seat == a else cb) != "none":
            reason = "wrong"  # the holder announced: its partner must do it
        data: dict[str, Any] = {"combo": combo, "team": team, "correct": reason is None}
        if fills is not None:
            data["fills"] = fills
        if reason is not None:
            data["reason"] = reason
            tx.emit(event("announced", seat, **data))
            _replace(tx, team, "announce", rng)
            return
        data["scores"] = target
        data["hands"] = {str(a): cards(state["hands"][a]), str(b): cards(state["hands"][b])}
        tx.emit(event("announced", seat, **data))
        new_scored = [*scored, target]
        bonus = combo == "double_zag"
        tx.emit(event("manche_ended", None, manche=state["manche"], team=team, combo=target, bonus=bonus, scored=new_scored))
        if all(c in new_scored for c in COMBOS):
            tx.emit(_finished(tx.state))
        else:
            deck = deck_for(seats, state["options"]["beginner"])
            tx.extend(_new_manche(seats, state["options"], state["dealer"], deck, state["manche"] + 1, now_ms, rng))

    def _counter(self, tx: Tx, seat: int, action: Action, now_ms: int, rng: random.Random, timing: None) -> None:
        state = tx.state
        seats = state["seats"]
        target = action.get("team")
        if not is_int(target) or not 0 <= target < seats // 2:
            raise RuleError("bad_action", "counter a team by its number")
        _no_sign(action)
        own = team_of(seat, seats)
        if target == own:
            raise RuleError("bad_target", "you cannot counter your own team")
        if state["failed"][own] >= MAX_FAILED_COUNTERS:
            raise RuleError("no_counters", "your team has used its three failed counters")
        proofs: dict[str, list[dict[str, Any]]] = {}
        for s in team_seats(target, seats):
            p = proof(state["hands"][s], forbidden_mask(state["stops"][s]))
            if p is None:
                tx.emit(event("countered", seat, team=target, by=own, confirmed=True))
                _replace(tx, target, "counter", rng)
                return
            proofs[_STR[s]] = cards(p)
        tx.emit(event("countered", seat, team=target, by=own, confirmed=False, proof=proofs, failed=state["failed"][own] + 1))

    # --- folds: one `_fold_<kind>` per event kind (the kit gathers them into `folds`) ------
    # Each returns a new state and never changes its input: a shallow copy, the
    # manche clock one tick on (every event but `dealt` is one tick), and new
    # lists for what changes. It is the hot path: no deepcopy.

    def _fold_dealt(self, state: State, e: Event) -> State:
        d = e["data"]
        seats = d["seats"]
        half = seats // 2
        if state is None:
            s: dict[str, Any] = {
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

    def _fold_tour_started(self, state: State, e: Event) -> State:
        s, d = _tick(state), e["data"]
        n = len(d["starting"])
        s["tour"] = d["tour"]
        s["tour_clock"] = s["clock"]
        s["starting"] = [c["id"] for c in d["starting"]]
        s["draw"] = s["draw"][n:]
        s["passed"] = [False] * s["seats"]
        return s

    def _fold_timer(self, state: State, e: Event) -> State:
        s, d = _tick(state), e["data"]
        if not str(d["id"]).startswith("race:"):  # a race's timer is not the tour's
            s["timer"] = {"id": d["id"], "due_ms": d["due_ms"]}
        return s

    def _fold_opened(self, state: State, e: Event) -> State:
        s, seat, d = _tick(state), e["seat"], e["data"]
        cid = d["card"]["id"]
        s["hands"] = _set(s["hands"], seat, _swap(s["hands"][seat], cid, d["took"]["id"]))
        s["centre_at"] = [*_centre_at(s), d.get("at", 0)]
        s["centre"] = [*s["centre"], cid]
        s["starting"] = _set(s["starting"], seat, None)
        _touch(s, seat)
        return _sign_rode(s, seat, d)

    def _fold_exchanged(self, state: State, e: Event) -> State:
        s, seat, d = _tick(state), e["seat"], e["data"]
        give, take = d["give"]["id"], d["take"]["id"]
        s["hands"] = _set(s["hands"], seat, _swap(s["hands"][seat], give, take))
        s["centre_at"] = [d.get("at", 0) if c == take else a for c, a in zip(s["centre"], _centre_at(s), strict=True)]
        s["centre"] = [give if c == take else c for c in s["centre"]]
        _unpass(s, seat)
        _touch(s, seat)
        return _sign_rode(s, seat, d)

    def _fold_stopped(self, state: State, e: Event) -> State:
        s, seat, d = _tick(state), e["seat"], e["data"]
        cid, target = d["card"]["id"], d["target"]
        _special_played(s, seat, cid, d["take"]["id"])
        s["stops"] = _set(s["stops"], target, [*s["stops"][target], cid])
        _touch(s, seat, target)
        return _sign_rode(s, seat, d)

    def _fold_z_played(self, state: State, e: Event) -> State:
        s, seat, d = _tick(state), e["seat"], e["data"]
        cid, target = d["card"]["id"], d["target"]
        _special_played(s, seat, cid, d["take"]["id"])
        s["discard"] = [*s["discard"], cid, *s["stops"][target]]
        s["stops"] = _set(s["stops"], target, [])
        _touch(s, seat, target)
        return _sign_rode(s, seat, d)

    def _fold_passed(self, state: State, e: Event) -> State:
        s, seat = _tick(state), e["seat"]
        s["passed"] = _set(s["passed"], seat, True)
        return _sign_rode(s, seat, e["data"])

    def _fold_race_claimed(self, state: State, e: Event) -> State:
        """A claim joins its race (opened by the first claim); the move and a riding sign wait in the race."""
        s, seat, d = _tick(state), e["seat"], e["data"]
        open_races = list(s.get("races") or [])
        i = next((k for k, r in enumerate(open_races) if r["id"] == d["race"]), None)
        if i is None:
            race = {
                **races.open(d["race"], d["opened_ms"], range(s["seats"])),
                "take": d["claim"]["take"]["id"],
                "moves": {},
                "signs": {},
            }
            s["race_count"] = s.get("race_count", 0) + 1
            open_races.append(race)
            i = len(open_races) - 1
        race = races.with_claim(open_races[i], d["claim"], d["comp_ms"])
        move = {k: (v["id"] if isinstance(v, dict) else v) for k, v in d["move"].items()}
        race["moves"] = {**race["moves"], str(seat): move}
        if "pending_signal" in d:
            race["signs"] = {**race["signs"], str(seat): d["pending_signal"]}
        open_races[i] = race
        s["races"] = open_races
        if races.is_anticipation(d["claim"]):  # [D floor]: that seat does not reach for that card again
            key = f"{race['take']}@{race['opened_ms']}"
            ahead = {k: v for k, v in (s.get("anticipated") or {}).items() if int(k.split("@")[0]) in s["centre"]}
            ahead[key] = sorted({*ahead.get(key, []), seat})
            s["anticipated"] = ahead
        return s

    def _fold_race_settled(self, state: State, e: Event) -> State:
        s = _tick(state)
        s["races"] = [r for r in s.get("races") or [] if r["id"] != e["data"]["race"]]
        return s

    def _fold_signalled(self, state: State, e: Event) -> State:
        return _with_sign(_tick(state), e["seat"], e["data"]["sign"])

    def _fold_announced(self, state: State, e: Event) -> State:
        return _tick(state)  # the facts follow as their own events (hands_replaced, manche_ended)

    def _fold_countered(self, state: State, e: Event) -> State:
        s, d = _tick(state), e["data"]
        s["countered_at"] = _set(s["countered_at"], d["team"], s["clock"])
        if not d["confirmed"]:
            s["failed"] = _set(s["failed"], d["by"], d["failed"])
        return s

    def _fold_hands_replaced(self, state: State, e: Event) -> State:
        s, d = _tick(state), e["data"]
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
        return s

    def _fold_reshuffled(self, state: State, e: Event) -> State:
        s = _tick(state)
        s["draw"] = s["draw"] + e["data"]["order"]
        s["discard"] = []
        return s

    def _fold_tour_ended(self, state: State, e: Event) -> State:
        s = _tick(state)
        s["discard"] = s["discard"] + s["centre"] + [c for c in s["starting"] if c is not None]
        s["centre"] = []
        s["centre_at"] = []
        s["races"] = []
        s["starting"] = [None] * s["seats"]
        s["passed"] = [False] * s["seats"]
        s["timer"] = None
        return s

    def _fold_manche_ended(self, state: State, e: Event) -> State:
        s, d = _tick(state), e["data"]
        t = d["team"]
        s["scored"] = _set(s["scored"], t, list(d["scored"]))
        if d["bonus"]:
            s["bonus"] = _set(s["bonus"], t, [*s["bonus"][t], d["combo"]])
        s["timer"] = None
        return s

    def _fold_finished(self, state: State, e: Event) -> State:
        s = _tick(state)
        s["finished"] = True
        s["outcome"] = e["data"]["outcome"]
        s["timer"] = None
        return s

    # --- what a seat may see -------------------------------------------------------

    def legal_actions(self, state: State, seat: int | None) -> list[Action]:
        """Every action `seat` could submit now, from what its view shows (see GameRules.legal_actions).

        Listed: open (before opening), exchange/STOP/Z with every centre card
        and pass (after opening, while no take of mine is judged), each also
        with a riding sign; a standalone sign (option `signals_seen` on);
        every announcement (a false one is a punished mistake: there are 9,
        the Double ZAG with and without `fills`); a counter of every other
        team while the team has counters left. Not listed: a take of a centre
        card this seat already anticipated (RuleError `anticipated`, [D floor]).

        [D legal] Mistakes are moves, as in every game here (GameRules.legal_actions):
        what the rules punish (a false announcement or counter) is listed, what
        they refuse is not. A take the floor will judge an anticipation is
        listed: whether it is one depends on when it arrives, not on the
        table the seat sees, and the same take a moment later is a real claim;
        once judged one, that card is refused to its seat, so it leaves the list.

        [D] What a seat cannot see is not read: a STOP before a player is
        listed while fewer than two STOPs *lie* there, although another
        seat's claim still judged may be laying one (which claim plays a STOP
        is secret until it wins; decide then refuses `stop_limit`), and a
        contested centre card is listed like any other (a claim for it joins
        its race; one arriving after the race is due is `gone`).
        Memoised on exactly those inputs: views ask for it after every event.
        """
        if state is None or state["finished"] or not (is_int(seat) and 0 <= seat < state["seats"]):
            return []
        seats = state["seats"]
        team = seat % (seats // 2)
        # where the seat is in its tour: to open, free to move, or waiting for its take to be judged
        phase = _TO_OPEN if state["starting"][seat] is not None else _WAITING if _claim_of(state, seat) else _MOVING
        moving = phase == _MOVING
        key = (
            seat,
            seats,
            state["options"]["signals_seen"],
            state["failed"][team] < MAX_FAILED_COUNTERS,
            phase,
            state["passed"][seat],
            tuple(state["hands"][seat]),
            tuple(state["centre"]) if moving else (),
            tuple(len(st) < MAX_STOPS for st in state["stops"]) if moving else (),
            _anticipated_by(state, seat) if moving else frozenset(),
        )
        legal = _LEGAL_MEMO.get(key)
        if legal is None:
            if len(_LEGAL_MEMO) > 50_000:
                _LEGAL_MEMO.clear()
            legal = _LEGAL_MEMO[key] = _legal(state, seat, team, phase)
        return list(legal)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """The whole table as `seat` may see it (None: a spectator), with what it may do (`legal`)."""
        seats = state["seats"]
        if seat is not None and not (is_int(seat) and 0 <= seat < seats):
            seat = None
        v = dict(self._public(state))
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
        v["legal"] = self.legal_actions(state, seat)
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

    @last_state
    def _public(self, state: State) -> dict[str, Any]:
        """What every seat sees alike; built once per state (views of one state share it: games/kit/memo.py)."""
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
        return pub

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

    # --- the tables (games/engine.py GameRules) ---------------------------------------

    moves = {
        "open": _open,
        "exchange": _exchange,
        "stop": _stop,
        "z": _z,
        "pass": _pass,
        "signal": _signal,
        "announce": _announce,
        "counter": _counter,
        TIMER: _timer,
    }


# --- moves' helpers: deals, tours, races, hands ---------------------------------------------


def _new_manche(
    seats: int, opts: dict[str, Any], dealer: int, deck: list[int], manche: int, now_ms: int, rng: random.Random
) -> list[Event]:
    """Shuffle everything, deal 4 each, start tour 1 with its timer."""
    hands, draw = deal_hands(shuffled(deck, rng), seats, HAND_SIZE)
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
        event("tour_started", None, manche=manche, tour=1, starting=cards(draw[:seats])),
        timer_event(_timer_id(manche, 1), now_ms + opts["tour_seconds"] * 1000),
    ]


def _end_tour(tx: Tx, now_ms: int, rng: random.Random, reason: str) -> None:
    """Centre and untaken starting cards to the discard (reshuffled under the draw when short); the next tour begins."""
    state = tx.state
    seats = state["seats"]
    unopened = [s for s in range(seats) if state["starting"][s] is not None]
    ended = event(
        "tour_ended",
        None,
        manche=state["manche"],
        tour=state["tour"],
        reason=reason,
        centre=cards(state["centre"]),
        unopened=unopened,
    )
    state = tx.emit(ended)
    if len(state["draw"]) < seats:
        order = shuffled(state["discard"], rng)
        state = tx.emit(event("reshuffled", None, order=order, count=len(order)))
    tour = state["tour"] + 1
    tx.emit(event("tour_started", None, manche=state["manche"], tour=tour, starting=cards(state["draw"][:seats])))
    tx.emit(timer_event(_timer_id(state["manche"], tour), now_ms + state["options"]["tour_seconds"] * 1000))


def _replace(tx: Tx, team: int, reason: str, rng: random.Random) -> None:
    """Both partners discard their hands face down and draw 4 new cards each."""
    state = tx.state
    a, b = team_seats(team, state["seats"])
    need = 2 * HAND_SIZE
    if len(state["draw"]) < need:
        # never short of cards: at least 28 cards are in the draw and discard piles
        order = shuffled(state["discard"], rng)
        state = tx.emit(event("reshuffled", None, order=order, count=len(order)))
    draw = state["draw"]
    hands = {str(a): cards(draw[:HAND_SIZE]), str(b): cards(draw[HAND_SIZE:need])}
    tx.emit(event("hands_replaced", None, team=team, reason=reason, hands=hands))


def _finished(state: State) -> Event:
    """The end (the winning `manche_ended` folded): placements by combinations scored, every card revealed."""
    return event(
        "finished",
        None,
        outcome=_outcome([len(s) for s in state["scored"]], state["seats"]),
        hands=[cards(h) for h in state["hands"]],
        draw=cards(state["draw"]),
        discard=cards(state["discard"]),
        starting=[None if c is None else card(c) for c in state["starting"]],
    )


def _hand_move_allowed(state: State, seat: int) -> None:
    """Exchange, STOP, Z and pass: after opening, and not while my take from the centre is judged."""
    if state["starting"][seat] is not None:
        raise RuleError("not_opened", "open first: discard a card and take your starting card")
    if _claim_of(state, seat) is not None:
        raise RuleError("claim_pending", "your take from the centre is being judged: wait a moment")


def _special_fields(
    state: State, seat: int, action: Action, kind: int, code: str, message: str
) -> tuple[int, int, int, dict[str, Any] | None]:
    """A STOP's or Z's card, take, target and riding sign, checked up to the card being of that kind."""
    cid = _card_field(action, "card")
    take = _card_field(action, "take")
    target = _seat_field(action, "target", state["seats"])
    sig = _riding_sign(state, seat, action)
    _hand_move_allowed(state, seat)
    if cid not in state["hands"][seat]:
        raise RuleError("not_in_hand", "you do not hold that card")
    if KIND[cid] != kind:
        raise RuleError(code, message)
    return cid, take, target, sig


def _take_allowed(state: State, take: int, *, special: bool) -> None:
    """The card taken must still lie in the centre (a STOP or Z also needs a centre at all)."""
    if special and not state["centre"]:
        raise RuleError("empty_centre", "there is no centre card to take")
    if take not in state["centre"]:
        raise RuleError("gone", "that card is no longer in the centre")


def _settle_races(tx: Tx, now_ms: int, *, every: bool) -> None:
    """Settle the open races that are due at `now_ms` (all of them with `every`), earliest first.

    Each settlement is folded into `tx` at once, so the action that follows
    is decided on the table as it really is.
    """
    while True:
        due = [(races.settle_at(r), r["id"]) for r in tx.state["races"] if every or races.settle_at(r) <= now_ms]
        if not due:
            return
        race = _race_by_id(tx.state, min(due)[1])
        assert race is not None
        _settle(tx, race, now_ms)


def _settle(tx: Tx, race: dict[str, Any], now_ms: int) -> None:
    """The fastest judged claim takes the card: `race_settled`, then its move as it would have been made at once."""
    ranking = races.ranking(race)
    best = races.winner(race)
    if best is None:  # anticipations alone: nobody takes the card, it stays in the centre [D floor]
        tx.emit(event("race_settled", None, race=race["id"], ranking=ranking, winner=None, take=card(race["take"])))
        return
    winner = best["seat"]
    tx.emit(event("race_settled", None, race=race["id"], ranking=ranking, winner=winner, take=card(race["take"])))
    tx.emit(_move_event(tx.state, winner, race["moves"][str(winner)], race["signs"].get(str(winner)), now_ms))


def _move_event(state: State, seat: int, move: dict[str, Any], sig: dict[str, Any] | None, at: int) -> Event:
    """The event of a take from the centre, as it is made without a race."""
    kind, take = move["kind"], move["take"]
    if kind == "exchange":
        e = event("exchanged", seat, give=card(move["give"]), take=card(take), at=at)
    elif kind == "stop":
        e = event("stopped", seat, card=card(move["card"]), target=move["target"], take=card(take))
    else:
        target = move["target"]
        e = event(
            "z_played", seat, card=card(move["card"]), target=target, removed=cards(state["stops"][target]), take=card(take)
        )
    return _signed(e, sig)


def _claim(tx: Tx, seat: int, move: dict[str, Any], sig: dict[str, Any] | None, now_ms: int, timing: Timing) -> None:
    """A take from the centre is a race claim; the card goes to the fastest judged claim.

    A first claim nobody could still beat (nobody compensated, or every
    other seat's bound already passed) is simply the move. Otherwise the
    race waits: `race_claimed`, and a timer at `races.settle_at`; a claim
    joining an open race is `race_claimed` too, settled at once when no
    seat that has not claimed could still be judged faster.
    """
    state = tx.state
    take = move["take"]
    race = next((r for r in state["races"] if r["take"] == take), None)
    opened_ms = race["opened_ms"] if race is not None else _centre_at(state)[state["centre"].index(take)]
    t = _judged(timing, now_ms, opened_ms)
    if seat in (state.get("anticipated") or {}).get(f"{take}@{opened_ms}", ()):
        raise RuleError("anticipated", "you reached for this card before anyone could see it: it is not yours to take")
    if race is None:
        rid = f"take:{state['manche']}.{state['tour']}.{state.get('race_count', 0) + 1}"
        race = races.open(rid, opened_ms, range(state["seats"]))
        first = races.claim_record(race, seat, t)
        alone = races.with_claim(race, first, t.comp_ms)
        if races.settle_at(alone) <= now_ms and not races.is_anticipation(first):
            # nobody could still be judged faster: the take is the move alone, exactly as without races
            tx.emit(_move_event(state, seat, move, sig, now_ms))
            return
    wire = {k: (card(v) if k in ("give", "card", "take") else v) for k, v in move.items()}
    data: dict[str, Any] = {
        "race": race["id"],
        "claim": races.claim_record(race, seat, t, take=card(take)),
        "comp_ms": list(t.comp_ms),
        "opened_ms": opened_ms,
        "move": wire,
    }
    if sig is not None:
        data["pending_signal"] = sig
    after = tx.emit(event("race_claimed", seat, **data))
    race = _race_by_id(after, data["race"])
    assert race is not None
    settle_at = races.settle_at(race)
    if settle_at <= now_ms:
        _settle(tx, race, now_ms)
    else:
        tx.emit(timer_event(f"race:{race['id']}", settle_at))


def _judged(timing: Timing, now_ms: int, opened_ms: int) -> Timing:
    """The claim's timing as judged: arrival is now, never judged earlier than its card came to the centre [D]."""
    judged = min(now_ms, max(timing.judged_ms, min(opened_ms, now_ms)))
    return Timing(arrival_ms=now_ms, judged_ms=judged, comp_ms=timing.comp_ms, min_reaction_ms=timing.min_reaction_ms)


# --- legal actions ---------------------------------------------------------------------------

_TO_OPEN, _MOVING, _WAITING = 0, 1, 2
_ANNOUNCEMENTS: tuple[Action, ...] = (
    *({"kind": "announce", "combo": c} for c in ALL_COMBOS),
    *({"kind": "announce", "combo": "double_zag", "fills": c} for c in COMBOS),
)
_LEGAL_MEMO: dict[tuple[Any, ...], list[Action]] = {}
"""Pure memo of `legal_actions` by every input it reads (bounded, cleared when full)."""


def _legal(state: State, seat: int, team: int, phase: int) -> list[Action]:
    """The list `legal_actions` memoises (see there)."""
    seats = state["seats"]
    hand = state["hands"][seat]
    moves: list[Action] = []
    if phase == _TO_OPEN:
        moves = [{"kind": "open", "card": c} for c in hand]
    elif phase == _MOVING:
        barred = _anticipated_by(state, seat)
        centre = [c for c in state["centre"] if c not in barred]
        moves = [{"kind": "exchange", "give": g, "take": t} for g in hand for t in centre]
        for c in hand:
            if KIND[c] == STOP:
                targets = [s for s in range(seats) if s % (seats // 2) != team and len(state["stops"][s]) < MAX_STOPS]
            elif KIND[c] == ZCARD:
                targets = team_seats(team, seats)
            else:
                continue
            kind = "stop" if KIND[c] == STOP else "z"
            moves += [{"kind": kind, "card": c, "target": s, "take": t} for s in targets for t in centre]
        if not state["passed"][seat]:
            moves.append({"kind": "pass"})
    out = [*moves, *({**m, "sign": sign} for sign in SIGNS for m in moves)]
    if state["options"]["signals_seen"]:
        out += [{"kind": "signal", "sign": sign} for sign in SIGNS]
    out += [dict(a) for a in _ANNOUNCEMENTS]
    if state["failed"][team] < MAX_FAILED_COUNTERS:
        out += [{"kind": "counter", "team": t} for t in range(seats // 2) if t != team]
    return out


# --- folds' helpers ---------------------------------------------------------------------------


def _tick(state: State) -> dict[str, Any]:
    """The shallow copy every fold but `dealt` starts from: one event later on the manche clock."""
    s = dict(state)
    s["clock"] = state["clock"] + 1
    return s


def _sign_rode(s: dict[str, Any], seat: int, d: dict[str, Any]) -> dict[str, Any]:
    """A sign riding on a move, folded after the move: it describes the hand the move left."""
    sig = d.get("signal")
    return s if sig is None else _with_sign(s, seat, sig["sign"])


def _with_sign(s: dict[str, Any], seat: int, sign: str) -> dict[str, Any]:
    old = s["signals"][seat]
    count = 1 if old is None else old["count"] + 1
    s["signals"] = _set(s["signals"], seat, {"sign": sign, "at": s["clock"], "count": count})
    return s


def _special_played(s: dict[str, Any], seat: int, cid: int, take: int) -> None:
    """A STOP or Z leaves the hand for the centre card taken; the centre is one card shorter."""
    s["hands"] = _set(s["hands"], seat, _swap(s["hands"][seat], cid, take))
    s["centre_at"] = [a for c, a in zip(s["centre"], _centre_at(s), strict=True) if c != take]
    s["centre"] = [c for c in s["centre"] if c != take]
    _unpass(s, seat)


def _unpass(s: dict[str, Any], seat: int) -> None:
    """A hand move cancels my pass."""
    if s["passed"][seat]:
        s["passed"] = _set(s["passed"], seat, False)


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


# --- small helpers ----------------------------------------------------------------------------


def _copy_outcome(outcome: dict[str, Any] | None) -> dict[str, Any] | None:
    if outcome is None:
        return None
    # every key (a resignation's `reasons` and `resigned` too), each list copied
    return {
        **outcome,
        "placements": [dict(p) for p in outcome["placements"]],
        "winners": list(outcome["winners"]),
        **{k: [dict(r) if isinstance(r, dict) else r for r in outcome[k]] for k in ("reasons", "resigned") if k in outcome},
    }


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
    return sum(1 for r in state.get("races") or [] for m in r["moves"].values() if m["kind"] == "stop" and m["target"] == target)


def _anticipated_by(state: State, seat: int) -> frozenset[int]:
    """The centre cards `seat` may not reach for again: it anticipated them since they came there ([D floor]).

    Keyed as `_claim` checks it: the card and the moment it came to the centre (its open race's, if any)."""
    anticipated = state.get("anticipated") or {}
    if not anticipated:
        return frozenset()
    opened = {r["take"]: r["opened_ms"] for r in state.get("races") or []}
    return frozenset(
        c
        for c, at in zip(state["centre"], _centre_at(state), strict=True)
        if seat in anticipated.get(f"{c}@{opened.get(c, at)}", ())
    )


def _centre_at(state: State) -> list[int]:
    """When each centre card came there (match ms); 0 for states folded before races existed."""
    at = state.get("centre_at")
    return list(at) if at is not None and len(at) == len(state["centre"]) else [0] * len(state["centre"])


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


_SIGN_CARRIERS = frozenset(("opened", "exchanged", "stopped", "z_played", "passed"))
"""Events of the moves a sign may ride on (see the module docstring, "Secret signs")."""


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
    if not is_int(v) or v not in KIND:
        raise RuleError("bad_action", f"{name} must be a card id")
    return v


def _seat_field(action: dict[str, Any], name: str, seats: int) -> int:
    v = action.get(name)
    if not is_int(v) or not 0 <= v < seats:
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


RULES = ZigzagRules()
