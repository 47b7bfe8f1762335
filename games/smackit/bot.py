"""Smack It! bot: flips on its turn, smacks Smack it! cards like a person would.

The bot sees only its seat's view and its redacted history. It is asked again
after every committed event and its earlier plan is thrown away, so every
delay is anchored on the *stimulus* event (the flip that showed the card, the
event that gave it the turn) and drawn from a random generator seeded by that
stimulus: re-planning reproduces the same reaction instead of redrawing it
(redrawing would make a bot as fast as the minimum of many draws).

Levels: a smack reaction is log-normal around the level's median, never under
its floor: hard 250 ms (never under 150 ms, never late, never missed: a real
opponent, tuned to a quick person's reaction to a card they watch for),
normal 400 ms and easy 560 ms, more variable; and easy and normal make
people's mistakes with the smack card: now and then a reaction comes late (a
glance away, `LATE_FACTOR` times longer: usually a lost race) and now and then
one is missed altogether (the bot does not smack that card). Flip delay about
1000 / 700 / 480 ms. `easy` bots misread cards: they smack a
challenge card now and then, and rarely a number (false smacks, punished as
the rules say); `normal` bots seldom do; `hard` bots never. A bot whose smack
was already on its way (planned within `COMMIT_MS` after the winning smack)
still lands it, as a hand in motion does: the rules ignore it within
`smack_grace_ms`, and the table can show by how many ms it lost. Bots that
are out keep smacking (harassing) until they are out for good.

Play stops for the smack race: while a Smack it! card lies on top the rules
refuse a flip (`smack_pending`), so a bot holding the turn plans no flip then,
only its smack — also for a Smack it! card that closes a challenge round,
which lies on top until it is smacked (the turn is nobody's meanwhile).

The bot submits only what its view lists as `legal` (a flip only when the
rules list one, a smack only while it may smack); within that, its timing and
misreadings choose.

Fair races: a bot's smack on a Smack it! card is a claim (`race_claimed`)
that may be judged for up to `lag_cap_ms` while players on slower lines may
still be faster; its hand is down meanwhile, so it does not smack that card
again (the rules would refuse it, `already_smacked`). Bots have no round
trip: their claims are judged on arrival.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from games.engine import BotContext, BotMove, Event
from games.kit import reactions


@dataclass(frozen=True)
class Level:
    """Timing and error profile of one bot level."""

    smack_ms: float  # median reaction to a Smack it! card
    flip_ms: float  # median delay before flipping on one's turn
    spread: float  # sigma of the log-normal spread
    misread_challenge: float  # chance to smack a challenge card
    misread_number: float  # chance to smack a number card
    floor_ms: int = 150  # no smack comes sooner after its card
    late: float = 0.0  # chance that a smack reaction comes late (a glance away)
    miss: float = 0.0  # chance that a Smack it! card is not smacked at all


LEVELS: dict[str, Level] = {
    "easy": Level(560, 1000, 0.38, 0.25, 0.02, floor_ms=220, late=0.15, miss=0.06),
    "normal": Level(400, 700, 0.3, 0.05, 0.003, floor_ms=180, late=0.08, miss=0.02),
    "hard": Level(250, 480, 0.2, 0.0, 0.0, floor_ms=150),
}
LATE_FACTOR = 2.2
CAP_SIGMAS = reactions.CAP_SIGMAS  # the slowest ordinary reaction: median * exp(3 sigma), before lateness

MIN_REACTION_MS = 150  # nobody smacks sooner (every level's floor is at least this)
MIN_FLIP_MS = 250
AFTER_WIN_MS = 300  # gathering the won cards before flipping again
COMMIT_MS = 150  # a smack planned this soon after the winning one is already in motion

_TURN_KINDS = frozenset(("flipped", "pile_won", "challenge_ended", "turn", "dealt"))
_PLACE_KINDS = frozenset(("flipped", "forfeited"))
_SMACK_KINDS = frozenset(("smacked", "race_claimed"))


def _draw(seat: int, e: dict[str, Any], salt: int) -> random.Random:
    """A generator fixed by the stimulus, so a re-plan draws the same numbers."""
    seed = (seat + 1) * 1_000_003 + int(e.get("seq", 0)) * 7919 + int(e.get("t_ms", 0)) * 31 + salt
    return random.Random(seed)


def _lognormal(r: random.Random, median: float, sigma: float, floor: int) -> int:
    """A flip's delay or a misread smack's: log-normal, uncapped, never late."""
    return reactions.reaction_ms(r, median_ms=median, sigma=sigma, floor_ms=floor, cap_sigmas=None)


def smack_reaction(level: Level, r: random.Random) -> int | None:
    """One reaction to a Smack it! card (ms after it showed), or None when the bot misses it altogether."""
    if reactions.missed(r, level.miss):
        return None
    return reactions.reaction_ms(
        r,
        median_ms=level.smack_ms,
        sigma=level.spread,
        floor_ms=max(level.floor_ms, MIN_REACTION_MS),
        late=level.late,
        late_factor=LATE_FACTOR,
        cap_sigmas=CAP_SIGMAS,
    )


def reaction_bounds(level: Level) -> tuple[int, int]:
    """The fastest and the slowest smack reaction of a level (ms): what tests and tables may rely on."""
    slowest = reactions.slowest_ms(median_ms=level.smack_ms, sigma=level.spread, late=level.late, late_factor=LATE_FACTOR, cap_sigmas=CAP_SIGMAS)
    return max(level.floor_ms, MIN_REACTION_MS), slowest


class SmackItBot:
    """`BOT`: pure, deterministic given the view and the history."""

    def choose(self, ctx: BotContext, rng: random.Random) -> BotMove | None:
        view = ctx.view
        if not isinstance(view, dict):
            return None
        legal = view.get("legal") or []
        can_smack, can_flip = {"kind": "smack"} in legal, {"kind": "flip"} in legal
        if not can_smack and not can_flip:
            return None  # finished, out for good, or a claim being judged with no turn to flip
        me = ctx.seat
        level = LEVELS.get(ctx.level, LEVELS["normal"])
        hist = ctx.history
        grace = int(view.get("options", {}).get("smack_grace_ms", 0))
        moves: list[BotMove] = []
        top = view["centre"]["top"]
        if top is not None and can_smack:
            i = self._placed(hist, top["id"])
            if i is not None and not self._smacked_since(hist, i, me):
                stim = hist[i]
                if top["face"] == "smack":
                    r = smack_reaction(level, _draw(me, stim, 1))
                    if r is not None:
                        moves.append(BotMove(stim["t_ms"] + r, {"kind": "smack"}))
                else:
                    chance = level.misread_challenge if top["face"] == "challenge" else level.misread_number
                    d = _draw(me, stim, 2)
                    if chance and d.random() < chance:
                        r = _lognormal(d, level.smack_ms * 1.1, level.spread, MIN_REACTION_MS)
                        moves.append(BotMove(stim["t_ms"] + r, {"kind": "smack"}))
        late = self._late_smack(hist, me, level, min(COMMIT_MS, grace)) if can_smack else None
        if late is not None:
            moves.append(late)
        if can_flip:
            i = self._last(hist, _TURN_KINDS)
            if i is not None:
                stim = hist[i]
                delay = _lognormal(_draw(me, stim, 3), level.flip_ms, level.spread, MIN_FLIP_MS)
                if stim.get("kind") == "pile_won":
                    delay += AFTER_WIN_MS
                moves.append(BotMove(stim["t_ms"] + delay, {"kind": "flip"}))
        if not moves:
            return None
        return min(moves, key=lambda m: m.at_ms)

    @staticmethod
    def _last(hist: list[Event], kinds: frozenset[str]) -> int | None:
        for i in range(len(hist) - 1, -1, -1):
            if hist[i].get("kind") in kinds:
                return i
        return None

    @staticmethod
    def _placed(hist: list[Event], card_id: int) -> int | None:
        """Index of the event that put `card_id` where it lies (flip or forfeit)."""
        for i in range(len(hist) - 1, -1, -1):
            e = hist[i]
            kind = e.get("kind")
            if kind in _PLACE_KINDS and e["data"]["card"]["id"] == card_id:
                return i
            if kind == "pile_won":
                return None
        return None

    @staticmethod
    def _smacked_since(hist: list[Event], i: int, me: int) -> bool:
        """Whether this bot's hand already went down since event `i` (a claim being judged counts)."""
        for e in hist[i + 1 :]:
            if e.get("kind") in _SMACK_KINDS and e.get("seat") == me:
                return True
        return False

    def _late_smack(self, hist: list[Event], me: int, level: Level, window: int) -> BotMove | None:
        """A smack already in motion when someone else won: it still lands (and is ignored)."""
        if window <= 0:
            return None
        # the winning smack must be among the last few events (pile_won, outs, timer...)
        for j in range(len(hist) - 1, max(-1, len(hist) - 10), -1):
            e = hist[j]
            if e.get("kind") == "smacked" and e["data"].get("result") == "win":
                break
        else:
            return None
        if e.get("seat") == me:
            return None
        i = self._placed(hist[:j], e["data"]["card"]["id"])
        if i is None or self._smacked_since(hist, i, me):
            return None
        stim = hist[i]
        r = smack_reaction(level, _draw(me, stim, 1))
        if r is None:
            return None
        at = stim["t_ms"] + r
        won_at = e["data"].get("judged_ms", e["data"]["at_ms"])  # late is judged behind the winner's judged time
        if won_at < at <= won_at + window:
            return BotMove(at, {"kind": "smack"})
        return None


BOT = SmackItBot()
