"""ZIGZAG bot: a team member that plays from its own seat's view and history only.

What it does, in order of priority, each time it is asked (after every event):

1. announces when its partner's latest sign (still newer than the partner's
   last hand change) and its own hand make a combination the team still needs;
2. counters an opponent team whose sign it saw (option `signals_seen`) and
   that has not changed its hands since, when it judges it worth a counter;
3. signs its own ZIG or ZAG to its partner when it completes one: with
   `signals_seen` on as a sign of its own, with the option off on the move
   that completes it (an exchange, a STOP or a Z whose result it knows) or
   on its next pass (a secret sign rides on a move, see the rules module);
4. in the tour: opens (discarding its least useful card), plays STOPs against
   the leading opposing team and Z cards to free its team, exchanges towards
   the class its team needs (a ZIG, a ZAG, or nothing when the partner's sign
   already makes a needed single combination), and passes when content.

A team announces its Double ZAG once: after that it is no joker any more,
and a ZAG is worth building only for a ZAG or a ZIGZAG still missing.

Timing: every move is planned at `stimulus time + reaction delay`, the
stimulus being the event that made the move possible (the tour start, the
arrival of the wanted centre card, the partner's sign, the bot's own previous
move), so a bot is not starved by the other bots' moves although it is
re-planned after each of them. Delays are pseudo-random but fixed per
stimulus (hashed from seat and seq), so re-planning does not re-roll them.

Levels: `easy` is slow and plays for any common feature, counters rarely and
carelessly; `normal` plays for its team's needs; `hard` is quick, avoids
holding a combination its team cannot use (counter bait), and keeps its
failed counters for when they matter. Easy and normal bots now and then notice
their partner's sign late (20 % / 10 % of signs: the announcement waits
`LATE_FACTOR` times longer, so the other team may counter first); hard bots
never. Late, not missed: a sign missed for good would leave the team's
combination unannounced until something else changed.

Speed: the platform (and `play_bots`) asks every bot after every event, so
hand values and best exchanges are memoised in bounded module-level dicts
(pure functions of their keys), and the history is read by position through
the manche clock of the view instead of being scanned.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from games.engine import BotContext, BotMove
from games.zigzag.rules import (
    COMBOS,
    FEAT,
    FEATURES,
    JOKER,
    KIND,
    MAX_FAILED_COUNTERS,
    MAX_STOPS,
    STOP,
    ZCARD,
    hand_class,
    team_combo,
)

_PAIRS = ((0, 1), (0, 2), (1, 2))


@dataclass(frozen=True)
class Level:
    """Reaction delays (ms, low and high) and judgement of one bot level."""

    open: tuple[int, int]
    exchange: tuple[int, int]
    pass_: tuple[int, int]
    sign: tuple[int, int]
    announce: tuple[int, int]
    counter: tuple[int, int]
    counter_chance: float
    team_aware: bool  # weighs its team's needs and the partner's sign
    cautious: bool  # avoids useless combinations and spends counters wisely
    holder_wait: int  # extra delay before a holder opens, hoping its partner announces
    late: float = 0.0  # chance to notice a partner's sign late (a glance away): the announcement waits LATE_FACTOR times longer


LEVELS = {
    "easy": Level(
        open=(1500, 3000),
        exchange=(1400, 2600),
        pass_=(2200, 3800),
        sign=(1000, 2000),
        announce=(1300, 2400),
        counter=(6000, 11000),
        counter_chance=0.25,
        team_aware=False,
        cautious=False,
        holder_wait=1500,
        late=0.2,
    ),
    "normal": Level(
        open=(900, 1800),
        exchange=(800, 1500),
        pass_=(1400, 2400),
        sign=(600, 1200),
        announce=(700, 1400),
        counter=(5000, 9000),
        counter_chance=0.35,
        team_aware=True,
        cautious=False,
        holder_wait=2500,
        late=0.1,
    ),
    "hard": Level(
        open=(600, 1200),
        exchange=(450, 900),
        pass_=(900, 1600),
        sign=(350, 700),
        announce=(400, 900),
        counter=(4000, 8000),
        counter_chance=0.45,
        team_aware=True,
        cautious=True,
        holder_wait=3000,
    ),
}
LATE_FACTOR = 3
"""Counters wait several seconds: a sign its partner can use is announced
long before, so a counter hits a player holding its hand while its partner
still builds a double, which is what a counter is worth trying against."""


def _keys(mask: int) -> tuple[dict[int, tuple[int, ...]], dict[int, tuple[int, ...]]]:
    """Per character card: its allowed single-feature keys and feature-pair keys."""
    k1: dict[int, tuple[int, ...]] = {}
    k2: dict[int, tuple[int, ...]] = {}
    for cid, ft in FEAT.items():
        k1[cid] = tuple(4 * f + ft[f] for f in range(3) if not mask >> f & 1)
        k2[cid] = tuple(16 * i + 4 * ft[f] + ft[g] for i, (f, g) in enumerate(_PAIRS) if not (mask >> f & 1 or mask >> g & 1))
    return k1, k2


_KEYS = [_keys(m) for m in range(8)]
_CACHE: dict[tuple[Any, ...], Any] = {}
_RESTS: dict[tuple[int, tuple[int, ...]], Any] = {}
_PER_CARD: dict[tuple[Any, ...], Any] = {}
_EVALS: dict[tuple[Any, ...], Any] = {}
_VALUES: dict[tuple[Any, ...], float] = {}
_MISS = object()
_STR = [str(s) for s in range(8)]
_STOP_FEATURE = {f"stop_{name}": i for i, name in enumerate(FEATURES)}


class _Eval:
    """Scores hands for one seat: closeness to a ZIG (b1) and a ZAG (b2), and the class."""

    def __init__(self, mask: int, w1: float, w2: float, want_zig: bool, want_zag: bool, avoid: bool, want_none: bool) -> None:
        self.k1, self.k2 = _KEYS[mask]
        self.w1, self.w2 = w1, w2
        self.want = {"zig": want_zig, "zag": want_zag}
        # a complete class the team cannot use: bait for counters (cautious bots
        # avoid it), or in the way when the partner's sign alone makes a needed combo
        self.unwanted = 10.0 if want_none else 2.0 if avoid else 0.0
        self.mask = mask
        self.key = (mask, w1, w2, want_zig, want_zag, self.unwanted)

    def parts(self, hand: list[int]) -> tuple[dict[int, int], dict[int, int], int, int]:
        c1: dict[int, int] = {}
        c2: dict[int, int] = {}
        jokers = specials = 0
        for c in hand:
            if c < 64:
                for k in self.k1[c]:
                    c1[k] = c1.get(k, 0) + 1
                for k in self.k2[c]:
                    c2[k] = c2.get(k, 0) + 1
            elif KIND[c] == JOKER:
                jokers += 1
            else:
                specials += 1
        return c1, c2, jokers, specials

    def score(self, b1: int, b2: int, specials: int) -> float:
        cls = "none" if specials else "zag" if b2 == 4 else "zig" if b1 == 4 else "none"
        v = self.w1 * b1 + self.w2 * b2 - 3.0 * specials
        if cls != "none":
            if self.want[cls]:
                v += 8.0
            else:
                v -= self.unwanted
        return v

    def value(self, hand: list[int]) -> float:
        key = (self.key, *hand)
        val = _VALUES.get(key)
        if val is None:
            c1, c2, j, sp = self.parts(hand)
            val = self.score(max(c1.values(), default=0) + j, max(c2.values(), default=0) + j, sp)
            if len(_VALUES) > 100_000:
                _VALUES.clear()
            _VALUES[key] = val
        return val

    def best_exchange(self, hand: list[int], centre: list[int]) -> tuple[float, int, int] | None:
        """The (gain, give, take) that raises the value most, or None (memoised: bots re-plan often)."""
        key = (self.key, tuple(hand), tuple(centre))
        hit = _CACHE.get(key, _MISS)
        if hit is _MISS:
            if len(_CACHE) > 50_000:
                _CACHE.clear()
            hit = _CACHE[key] = self._best_exchange(hand, centre)
        return hit  # type: ignore[return-value]

    def rests(self, hand: list[int]) -> list[tuple[int, dict[int, int], dict[int, int], int, int, int, int]]:
        """Per card to give: the parts of the three cards kept (memoised per hand)."""
        key = (self.mask, tuple(hand))
        hit = _RESTS.get(key)
        if hit is None:
            if len(_RESTS) > 50_000:
                _RESTS.clear()
            hit = []
            for g in hand:
                c1, c2, j, sp = self.parts([x for x in hand if x != g])
                hit.append((g, c1, c2, j, sp, max(c1.values(), default=0), max(c2.values(), default=0)))
            _RESTS[key] = hit
        return hit

    def _best_exchange(self, hand: list[int], centre: list[int]) -> tuple[float, int, int] | None:
        best: tuple[float, int, int] | None = None
        hkey = (self.key, tuple(hand))
        base: float | None = None
        for t in centre:
            key = (hkey, t)
            hit = _PER_CARD.get(key, _MISS)
            if hit is _MISS:
                if len(_PER_CARD) > 100_000:
                    _PER_CARD.clear()
                if base is None:
                    base = self.value(hand)
                hit = _PER_CARD[key] = self._best_give(hand, t, base)
            if hit is not None and (best is None or hit[0] > best[0]):
                best = (hit[0], hit[1], t)
        return best

    def _best_give(self, hand: list[int], t: int, base: float) -> tuple[float, int] | None:
        """The best card to give for centre card `t`, with its gain over `base`, or None."""
        score = self.score
        best: tuple[float, int] | None = None
        k1t = self.k1[t] if t < 64 else ()
        k2t = self.k2[t] if t < 64 else ()
        for g, c1, c2, j, sp, b1r, b2r in self.rests(hand):
            if t < 64:
                b1 = b1r
                for k in k1t:
                    x = c1.get(k, 0) + 1
                    if x > b1:
                        b1 = x
                b2 = b2r
                for k in k2t:
                    x = c2.get(k, 0) + 1
                    if x > b2:
                        b2 = x
                v = score(b1 + j, b2 + j, sp)
            elif KIND[t] == JOKER:
                v = score(b1r + j + 1, b2r + j + 1, sp)
            else:
                v = score(b1r + j, b2r + j, sp + 1)
            gain = v - base
            if gain > 0.05 and (best is None or gain > best[0]):
                best = (gain, g)
        return best

    def worst(self, hand: list[int]) -> int:
        """The card whose loss leaves the best three."""
        best, best_v = hand[0], -1e9
        for g, _c1, _c2, j, sp, b1r, b2r in self.rests(hand):
            v = self.w1 * (b1r + j) + self.w2 * (b2r + j) - 3 * sp
            if v > best_v:
                best, best_v = g, v
        return best


def _jitter(seat: int, seq: int, salt: int) -> float:
    """A fixed pseudo-random number in [0, 1) per (seat, stimulus, purpose)."""
    x = (seat * 7919 + seq * 104729 + salt * 1299709 + 12345) & 0xFFFFFFFF
    x = (x * 2654435761) & 0xFFFFFFFF
    x ^= x >> 15
    x = (x * 2246822519) & 0xFFFFFFFF
    x ^= x >> 13
    return (x & 0xFFFFFF) / 0x1000000


def _delay(span: tuple[int, int], seat: int, seq: int, salt: int) -> int:
    lo, hi = span
    return lo + int((hi - lo) * _jitter(seat, seq, salt))


def announce_span(lv: Level, seat: int, seq: int) -> tuple[int, int]:
    """The delay range of an announcement on the stimulus `seq`: now and then a late one (easy, normal)."""
    if lv.late and _jitter(seat, seq, 11) < lv.late:
        return lv.announce[0] * LATE_FACTOR, lv.announce[1] * LATE_FACTOR
    return lv.announce


class _Memory:
    """Reads back the bot's history by the manche clock.

    The view's `clock` counts the events of the manche, and `tour_clock`,
    a sign's `at` and a seat's `changed_at` are clocks of events, so an event
    is found by its position from the end of the history (checked; searched
    for when the history does not line up).
    """

    def __init__(self, history: list[dict[str, Any]], clock: int, tour_clock: int) -> None:
        self.history = history
        self.clock = clock
        self.tour_clock = tour_clock
        self.tour = self.at(tour_clock) or (0, 0)

    def at(self, clock: int, kind: str | None = None, seat: int | None = None) -> tuple[int, int] | None:
        """(t_ms, seq) of the event that set the manche clock to `clock`."""
        back = self.clock - clock
        h = self.history
        if back < 0 or back >= len(h):
            return None
        e = h[-1 - back]
        if kind is not None and (e.get("kind") != kind or e.get("seat") != seat):
            for i in range(len(h) - 1, max(-1, len(h) - 400), -1):
                e = h[i]
                if e.get("kind") == "dealt":
                    return None
                if e.get("kind") == kind and e.get("seat") == seat:
                    return (e.get("t_ms", 0), e.get("seq", 0))
            return None
        return (e.get("t_ms", 0), e.get("seq", 0))

    def own(self, changed: int) -> tuple[int, int]:
        """My latest hand move this tour, else the tour start."""
        if changed > self.tour_clock:
            return self.at(changed) or self.tour
        return self.tour

    def arrival(self, cid: int) -> tuple[int, int]:
        """When card `cid` came to the centre this tour (its stimulus)."""
        h = self.history
        for i in range(len(h) - 1, max(-1, len(h) - 1 - (self.clock - self.tour_clock)), -1):
            e = h[i]
            kind = e.get("kind")
            if kind == "opened" or kind == "exchanged":
                put = e["data"]["card"] if kind == "opened" else e["data"]["give"]
                if put.get("id") == cid:
                    return (e.get("t_ms", 0), e.get("seq", 0))
        return self.tour


class ZigzagBot:
    """The ZIGZAG bot registered as `BOT` (pure; it sees only its context)."""

    def choose(self, ctx: BotContext, rng: random.Random) -> BotMove | None:
        """The planned move, if the rules list it for my seat now (`view["legal"]`); else nothing yet.

        The plan below ranks by its own heuristics; `legal` is the last word,
        so a bot never sends what the rules would refuse (a riding sign is
        listed with the move it rides on).
        """
        move = self._plan(ctx)
        if move is None or move.action not in ctx.view["legal"]:
            return None
        return move

    def _plan(self, ctx: BotContext) -> BotMove | None:
        v = ctx.view
        if v.get("finished") or v.get("seat") is None:
            return None
        if v.get("claim") is not None:
            return None  # my take is being judged (a race): nothing more until it is settled, then I plan again
        lv = LEVELS.get(ctx.level, LEVELS["normal"])
        seat: int = v["seat"]
        partner: int = v["partner"]
        team: int = v["team"]
        now = ctx.now_ms
        mem = _Memory(ctx.history, v["clock"], v["tour_clock"])
        teams = v["teams"]
        scored = teams[team]["scored"]
        # what an announcement could still score: the Double ZAG only until the team made it
        missing = [c for c in COMBOS if c not in scored]
        if missing and not teams[team]["bonus"]:
            missing.append("double_zag")
        changed = v["changed_at"]
        # the bot classes its own hand (the view names it only as beginner help, option hand_hint)
        hand = [c["id"] for c in v["hand"]]
        mask = 0
        for st in v["stops"].get(_STR[seat], ()):
            mask |= 1 << _STOP_FEATURE[st["face"]]
        mine = hand_class(hand, mask)
        # signs as new as the signer's hand: what they said is still true (a sign
        # riding on a move has the clock of the hand that move made)
        fresh: dict[int, dict[str, Any]] = {}
        for k, sig in v["signals"].items():
            s = int(k)
            if sig["at"] >= changed[s]:
                fresh[s] = sig
        psig = fresh.get(partner)
        partner_cls = psig.get("sign", "none") if psig is not None else "none"

        # 1. announce
        combo = team_combo(mine, partner_cls)
        if combo in missing and (combo not in ("zig", "zag") or mine == "none"):
            stimulus = max(
                (mem.at(psig["at"]) or (now, 0)) if psig is not None else (0, 0),
                mem.at(changed[seat]) or (0, 0),
            )
            action: dict[str, Any] = {"kind": "announce", "combo": combo}
            if combo == "double_zag" and lv.cautious:
                action["fills"] = _hardest(missing)
            return self._move(seat, now, stimulus, announce_span(lv, seat, stimulus[1]), 1, action)

        # 2. counter an opponent team that signed and kept its hands
        failed = teams[team]["failed_counters"]
        watched = fresh if lv.team_aware else {int(k): sig for k, sig in v["signals"].items()}
        if failed < MAX_FAILED_COUNTERS and watched:
            move = self._counter(lv, v, seat, partner, team, scored, failed, watched, mem, now)
            if move is not None:
                return move

        # 3. sign my own combination (a secret sign waits for a move to ride on)
        own = v["signals"].get(_STR[seat])
        if own is not None and own["at"] < changed[seat]:
            own = None
        sign = mine if mine != "none" and _useful(mine, missing) and (own is None or own.get("sign") != mine) else None
        secret = not v["options"]["signals_seen"]
        if sign is not None and not secret:
            return self._move(seat, now, mem.at(changed[seat]), lv.sign, 3, {"kind": "signal", "sign": sign})

        # 4. the tour
        ev = self._evaluator(lv, mask, partner_cls, missing)
        if v["starting"][seat]:
            span = lv.open
            if mine != "none" and _useful(mine, missing):
                span = (span[0] + lv.holder_wait, span[1] + lv.holder_wait)
            return self._move(seat, now, mem.tour, span, 4, {"kind": "open", "card": ev.worst(hand)})
        centre = [c["id"] for c in v["centre"]]
        if not centre:
            return self._pass(v, seat, now, mem.own(changed[seat]), lv, sign if secret else None)
        special = self._special(v, hand, centre, ev, team)
        if special is not None:
            if secret:
                _sign_result(special, seat, hand, mask, missing)
            return self._move(seat, now, mem.own(changed[seat]), lv.exchange, 5, special)
        best = ev.best_exchange(hand, centre)
        if best is not None:
            _, give, take = best
            stimulus = max(mem.own(changed[seat]), mem.arrival(take))
            action = {"kind": "exchange", "give": give, "take": take}
            if secret:
                _sign_result(action, seat, hand, mask, missing)
            return self._move(seat, now, stimulus, lv.exchange, 6, action)
        return self._pass(v, seat, now, mem.own(changed[seat]), lv, sign if secret else None)

    def _pass(
        self, v: dict[str, Any], seat: int, now: int, stamp: tuple[int, int], lv: Level, sign: str | None
    ) -> BotMove | None:
        """Pass (once); a secret sign of the hand I keep rides on it, at a sign's speed."""
        if seat in v["passed"]:
            return None
        if sign is not None:
            return self._move(seat, now, stamp, lv.sign, 3, {"kind": "pass", "sign": sign})
        return self._move(seat, now, stamp, lv.pass_, 8, {"kind": "pass"})

    @staticmethod
    def _move(
        seat: int, now: int, stamp: tuple[int, int] | None, span: tuple[int, int], salt: int, action: dict[str, Any]
    ) -> BotMove:
        """Plan `action` at stimulus time + this seat's fixed delay for that stimulus."""
        t, seq = stamp if stamp is not None else (now, 0)
        return BotMove(max(now, t + _delay(span, seat, seq, salt)), action)

    def _counter(
        self,
        lv: Level,
        v: dict[str, Any],
        seat: int,
        partner: int,
        team: int,
        scored: list[str],
        failed: int,
        watched: dict[int, dict[str, Any]],
        mem: _Memory,
        now: int,
    ) -> BotMove | None:
        """Counter a team whose sign stands (one watcher per team and sign), by judgement."""
        for t in v["teams"]:
            if t["team"] == team:
                continue
            if lv.cautious and failed >= 2 and len(t["scored"]) < 3:
                continue
            for s in t["seats"]:
                sig = watched.get(s)
                if sig is None or sig["at"] <= t["countered_at"]:
                    continue
                stamp = mem.at(sig["at"]) or (now, sig["at"])
                if lv.team_aware and (seat, partner)[stamp[1] % 2] != min(seat, partner):
                    continue  # partners do not both spend a counter on one sign
                lead = len(t["scored"]) - len(scored)
                chance = lv.counter_chance * (1.0 + 0.4 * lead) if lv.team_aware else lv.counter_chance
                if _jitter(seat, stamp[1], 7) < chance:
                    return self._move(seat, now, stamp, lv.counter, 2, {"kind": "counter", "team": t["team"]})
        return None

    def _evaluator(self, lv: Level, mask: int, partner_cls: str, missing: list[str]) -> _Eval:
        """Weights for what the team needs, given the partner's (fresh) sign (memoised)."""
        key = (lv.team_aware, lv.cautious, mask, partner_cls, tuple(missing))
        ev = _EVALS.get(key)
        if ev is None:
            ev = _EVALS[key] = self._make_evaluator(lv, mask, partner_cls, missing)
        return ev

    def _make_evaluator(self, lv: Level, mask: int, partner_cls: str, missing: list[str]) -> _Eval:
        if not lv.team_aware:
            return _Eval(mask, 1.0, 0.6, True, True, False, False)
        want = {}
        for cls in ("none", "zig", "zag"):
            want[cls] = team_combo(cls, partner_cls) in missing
        if partner_cls == "none":
            want["zig"] = _useful("zig", missing)
            want["zag"] = _useful("zag", missing)
        w1 = 1.0 if want["zig"] else 0.25
        w2 = 1.0 if want["zag"] and not want["zig"] else 0.6 if want["zag"] else 0.15
        return _Eval(mask, w1, w2, want["zig"], want["zag"], lv.cautious, want["none"])

    def _special(self, v: dict[str, Any], hand: list[int], centre: list[int], ev: _Eval, team: int) -> dict[str, Any] | None:
        """Play a STOP against the leading opponents or a Z to free my team; else None."""
        if not centre:
            return None
        for c in hand:
            kind = KIND[c]
            if kind not in (STOP, ZCARD):
                continue
            rest = [x for x in hand if x != c]
            take = max(centre, key=lambda t: (ev.value([*rest, t]), -t))
            if kind == STOP:
                target = _stop_target(v, team)
                if target is not None:
                    return {"kind": "stop", "card": c, "target": target, "take": take}
            else:
                mine_n = len(v["stops"].get(str(v["seat"]), []))
                partner_n = len(v["stops"].get(str(v["partner"]), []))
                if mine_n or partner_n:
                    target = v["seat"] if mine_n >= partner_n else v["partner"]
                    return {"kind": "z", "card": c, "target": target, "take": take}
        return None


def _useful(cls: str, missing: list[str]) -> bool:
    """Can a hand of this class help its team at all (`missing`: what an announcement could still score)?"""
    if cls == "zig":
        return any(c in missing for c in ("zig", "double_zig", "zigzag"))
    if cls == "zag":
        return any(c in missing for c in ("zag", "zigzag", "double_zag"))
    return False


def _sign_result(action: dict[str, Any], seat: int, hand: list[int], mask: int, missing: list[str]) -> None:
    """Let a secret sign ride on a move whose result I know: the class of the hand it leaves me.

    A move changes my hand, so a sign I made before is stale after it: a
    useful class is signed again with the move itself.
    """
    give = action.get("give", action.get("card"))
    after = [action["take"] if c == give else c for c in hand]
    if action["kind"] == "z" and action["target"] == seat:
        mask = 0  # the Z removes the STOPs before me
    cls = hand_class(after, mask)
    if cls != "none" and _useful(cls, missing):
        action["sign"] = cls


def _hardest(missing: list[str]) -> str:
    """The combination a double_zag should fill: the hardest one still missing."""
    for c in ("zigzag", "zag", "double_zig", "zig"):
        if c in missing:
            return c
    return missing[0]


def _stop_target(v: dict[str, Any], team: int) -> int | None:
    """An opponent of the leading opposing team, one that signed first."""
    best: tuple[Any, ...] | None = None
    target = None
    for t in v["teams"]:
        if t["team"] == team:
            continue
        for s in t["seats"]:
            if len(v["stops"].get(str(s), [])) >= MAX_STOPS:
                continue
            sig = v["signals"].get(str(s))
            signed = sig is not None and sig["at"] > v["changed_at"][s]
            key = (len(t["scored"]), signed, -s)
            if best is None or key > best:
                best, target = key, s
    return target


BOT = ZigzagBot()
