"""A ZACK! bot that plays like a person at the table: from the box alone.

It sees only its seat's view and redacted history (everything in ZACK! that
is visible is public). From the history since the box was last emptied it
replays the box card by card, as a player watching the table does, to know
whose turn it is and which of the top cards were thrown out of turn. Then:

- on its turn it throws (or, with an empty pile, throws its colour card) after
  a human reaction time drawn around the level's median;
- it challenges a player who is slow, waiting noticeably longer than its own
  reaction (and never a protected beginner inside the grace window);
- it challenges out-of-turn throws and colour-card errors it notices among the
  top four cards (noticing is a dice roll per card, better at higher levels);
- it sometimes misreads the box and believes the turn is someone else's;
- after its own `stop_choose` it chooses its own colour (throwing is how one
  empties a pile); an easy bot sometimes picks at random.

While a challenge is judged (fair races: up to the table's lag cap, while a
player on a slower line may still be judged earlier) the bot does only what
would race: the challenged player answers with its card, others may join the
challenge; nobody claims twice, and nobody throws a card that would only be
returned (`judging`). Bots have no round trip: they are judged on arrival.
Whatever it plans, it submits only what its view lists as `legal` (a throw
needs cards; a colour card already in the box cannot be thrown again).

Levels (`LEVELS`): a reaction is log-normal around the level's median and
never under its floor — hard 250 ms median (about a quick person's reaction
to a card they were waiting for) and never under 150 ms; normal and easy are
slower and more variable. Easy and normal bots make the mistakes people make,
as ordinary actions the rules punish: now and then a reaction comes late (a
glance away: the reaction times `LATE_FACTOR`), and now and then they throw
out of turn (they believe it is theirs when it is not), so the "not your turn"
challenge comes up at a table of bots too. Hard bots do neither.

Newcomers [decision, docs/decisions-first-hour.md]: a bot never calls a human
"too slow" before the human has had `HUMAN_WINDOW_MS` (a fair time to read the
box and throw) plus a newcomer margin of `NEWCOMER_MARGIN_MS` that shrinks
linearly to nothing over their first `NEWCOMER_MATCHES` finished ZACK!
matches (`BotContext.experience`, seat -> matches played, from stats; bot
seats are absent and get no margin). A human's first match gives them 5.5 s
on their turn. This is the bot's restraint only: the rules' own beginner
grace (`protect_beginners`) still applies to everyone, and a human who throws
out of turn can still be challenged for it.

Random choices are drawn from a generator seeded by the stimulus (seat, seq),
so re-planning after every event keeps the same reaction to the same stimulus
instead of re-rolling it: a bot is not starved, and not sped up, by others'
moves. Nothing else is random: replays and tests are deterministic.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from games.engine import BotContext, BotMove
from games.kit import reactions
from games.zack.rules import turn_after


@dataclass(frozen=True)
class Level:
    """Timing and mistake profile of one bot level."""

    median_ms: int  # median reaction (log-normal)
    sigma: float  # log-normal spread of one reaction
    floor_ms: int  # nobody reacts faster than this
    late: float  # chance that a reaction comes late (a glance away)
    out_of_turn: float  # chance, per box change not its turn, to throw believing it is
    misread: float  # chance to believe the turn is another opponent's
    notice: float  # chance to notice a wrong card among the top four


LEVELS: dict[str, Level] = {
    "easy": Level(650, 0.45, 260, 0.15, 0.06, 0.05, 0.45),
    "normal": Level(420, 0.38, 190, 0.07, 0.03, 0.02, 0.7),
    "hard": Level(250, 0.25, 150, 0.0, 0.0, 0.0, 0.9),
}
MEDIAN_MS = {name: level.median_ms for name, level in LEVELS.items()}
LATE_FACTOR = 2.5
CAP_SIGMAS = reactions.CAP_SIGMAS  # nobody dozes off for ever: a reaction is at most median * exp(3 sigma) (before lateness)
PATIENCE = {"easy": (1.5, 1200), "normal": (1.5, 1000), "hard": (1.5, 800)}  # reaction * a + b before "too slow"
HUMAN_WINDOW_MS = 1500  # a human's fair time to read the box and throw, before any bot calls them slow
NEWCOMER_MARGIN_MS = 4000  # added for a human who has never finished a ZACK! match...
NEWCOMER_MATCHES = 20  # ...shrinking linearly to nothing after this many


def _rng(seat: int, seq: int, salt: int) -> random.Random:
    return random.Random((seq * 64 + seat) * 16 + salt)


def reaction_ms(level: Level, r: random.Random) -> int:
    """One reaction: log-normal around the median, never under the floor, sometimes late (easy, normal)."""
    return reactions.reaction_ms(
        r, median_ms=level.median_ms, sigma=level.sigma, floor_ms=level.floor_ms, late=level.late, late_factor=LATE_FACTOR, cap_sigmas=CAP_SIGMAS
    )


def _reaction(level: str, seat: int, seq: int, salt: int) -> int:
    return reaction_ms(LEVELS.get(level, LEVELS["normal"]), _rng(seat, seq, salt))


def human_patience_ms(played: int) -> int:
    """How long a bot leaves a human on its turn before calling them too slow (see the module docstring)."""
    left = max(0, NEWCOMER_MATCHES - max(0, played))
    return HUMAN_WINDOW_MS + NEWCOMER_MARGIN_MS * left // NEWCOMER_MATCHES


class _Table:
    """What a watching player has worked out about the current box."""

    def __init__(self) -> None:
        self.turn: int | None = None
        self.turn_seq = 0
        self.turn_t = 0
        self.waiting: int | None = None
        self.errors: list[tuple[int, int, int]] = []  # (thrower, seq, t_ms) of wrong cards, box order
        self.box_size = 0
        self.entries: list[tuple[int, bool, int, int]] = []  # (thrower, error, seq, t_ms) per box entry


def read_table(view: dict[str, Any], history: list[dict[str, Any]]) -> _Table:
    """Replay the public events since the box was last emptied."""
    seats = view["seats"]
    n = len(seats)
    colours = [s["colour"] for s in seats]
    start = None
    for i in range(len(history) - 1, -1, -1):
        e = history[i]
        kind = e.get("kind")
        if kind == "colours_passed":
            before = e.get("data", {}).get("before")
            if isinstance(before, list) and len(before) == n:
                colours = list(before)
        elif kind in ("challenged", "dealt"):
            start = i
            break
    tab = _Table()
    if start is None:
        return _fallback(view, tab, n)
    head = history[start]
    data = head.get("data", {})
    tab.turn = data.get("next") if head["kind"] == "challenged" else data.get("first", (view["dealer"] + 1) % n)
    tab.turn_seq = head.get("seq", 0)
    tab.turn_t = head.get("t_ms", 0)
    box: list[dict[str, Any]] = []
    lr = False
    for e in history[start + 1 :]:
        kind = e.get("kind")
        if kind == "thrown":
            card = e["data"]["card"]
            t = e["seat"]
            face = card["face"]
            nxt = turn_after(card, box, t, n, colours, lr != (face == "stop_lr"))
            tab.entries.append((t, t != tab.turn, e["seq"], e["t_ms"]))
            box.append({"card": card, "seat": t})
            if face == "stop_lr":
                lr = not lr
            tab.turn, tab.turn_seq, tab.turn_t = nxt, e["seq"], e["t_ms"]
            tab.waiting = t if nxt is None else None
        elif kind == "colours_passed":
            colours = list(e["data"]["colours"])
        elif kind == "chosen":
            tab.turn, tab.turn_seq, tab.turn_t = e["data"]["target_seat"], e["seq"], e["t_ms"]
            tab.waiting = None
        elif kind == "colour_thrown" and not e["data"].get("win"):
            tab.entries.append((e["seat"], True, e["seq"], e["t_ms"]))
            box.append({"colour_card": e["data"]["colour"], "seat": e["seat"]})
    if len(box) != len(view["box"]):  # an incomplete history: trust the view's box only
        return _fallback(view, _Table(), n)
    return tab


def _fallback(view: dict[str, Any], tab: _Table, n: int) -> _Table:
    """Without a usable history: read the top card of the box, flags unknown."""
    box = view["box"]
    colours = [s["colour"] for s in view["seats"]]
    tab.waiting = view.get("waiting_choice")
    top = len(box) - 1
    while top >= 0 and "card" not in box[top]:
        top -= 1
    if top >= 0 and tab.waiting is None:
        card = box[top]["card"]
        if card["face"] != "stop_choose":
            tab.turn = turn_after(card, box[:top], box[top]["seat"], n, colours, bool(view.get("lr_swapped")))
    tab.entries = [(e["seat"], "colour_card" in e, 0, 0) for e in box]
    return tab


class ZackBot:
    """See the module docstring; levels "easy", "normal", "hard"."""

    def choose(self, ctx: BotContext, rng: random.Random) -> BotMove | None:
        view = ctx.view
        if view.get("finished"):
            return None
        me = ctx.seat
        level = ctx.level if ctx.level in LEVELS else "normal"
        prof = LEVELS[level]
        seats = view["seats"]
        n = len(seats)
        tab = read_table(view, ctx.history)
        if not tab.turn_seq and not tab.turn_t:
            tab.turn_t = ctx.now_ms
        waiting = view.get("waiting_choice")
        if waiting is not None:
            if waiting != me:
                return None  # the game stands still: everything would be returned
            r = _rng(me, tab.turn_seq, 7)
            colour = seats[me]["colour"]
            if level == "easy" and r.random() < 0.4:
                colour = r.choice(seats)["colour"]
            return BotMove(tab.turn_t + _reaction(level, me, tab.turn_seq, 2), {"kind": "choose", "colour": colour})
        settle = view.get("settle_until_ms") or 0
        pause = view.get("paused_until_ms") or 0
        believed = tab.turn
        r = _rng(me, tab.turn_seq, 1)
        if believed is not None and believed != me and seats[me]["pile"] > 0 and r.random() < prof.out_of_turn:
            believed = me  # too eager: it throws believing the turn is its own
        elif believed is not None and r.random() < prof.misread:
            believed = r.choice([s for s in range(n) if s != believed and s != me] or [believed])
        plans: list[BotMove] = []
        react = _reaction(level, me, tab.turn_seq, 3)
        jitter = 30 + int(r.random() * 120)
        # A card of ours that came back (pause, settling): look again before retrying.
        for e in reversed(ctx.history):
            if e.get("seq", 0) <= tab.turn_seq:
                break
            if e.get("kind") == "returned" and e.get("seat") == me:
                settle = max(settle, e["t_ms"] + react - jitter)
                break
        if believed == me:
            at = max(tab.turn_t + react, settle + jitter)
            plans.append(BotMove(at, {"kind": "throw" if seats[me]["pile"] > 0 else "colour"}))
        elif believed is not None:
            a, b = PATIENCE[level]
            at = max(tab.turn_t + int(react * a) + b, settle + jitter, pause + jitter)
            if believed in ctx.experience:  # a human: a fair chance first, more of one for a newcomer
                at = max(at, tab.turn_t + human_patience_ms(ctx.experience[believed]) + jitter)
            plans.append(self._challenge(view, believed, at, tab))
        for thrower, error, seq, t_ms in tab.entries[-4:]:
            if not error or thrower == me or not seq:
                continue
            if _rng(me, seq, 4).random() >= prof.notice:
                continue
            at = max(t_ms + int(_reaction(level, me, seq, 5) * 1.3), settle + jitter, pause + jitter)
            plans.append(self._challenge(view, thrower, at, tab))
        race = view.get("race")
        if race:
            plans = self._racing(view, race, me, plans)
        legal = view.get("legal") or []
        plans = [m for m in plans if m.action in legal]
        if not plans:
            return None
        return min(plans, key=lambda m: m.at_ms)

    @staticmethod
    def _racing(view: dict[str, Any], race: dict[str, Any], me: int, plans: list[BotMove]) -> list[BotMove]:
        """While a challenge is judged: only moves that join its race, and none from a seat that claimed."""
        if any(c.get("seat") == me for c in race.get("claims", ())):
            return []
        target = race.get("target")
        if me == target:
            return [m for m in plans if m.action["kind"] in ("throw", "colour")]
        colour = view["seats"][target]["colour"] if isinstance(target, int) and 0 <= target < len(view["seats"]) else None
        return [m for m in plans if m.action["kind"] == "challenge" and m.action.get("target") == colour]

    @staticmethod
    def _challenge(view: dict[str, Any], target: int, at: int, tab: _Table) -> BotMove:
        """A challenge, kept out of a protected beginner's grace window whatever its ground."""
        opts = view["options"]
        if opts.get("protect_beginners") and target in opts.get("beginners", ()):
            at = max(at, tab.turn_t + int(opts.get("grace_ms", 0)) + 100)
        return BotMove(at, {"kind": "challenge", "target": view["seats"][target]["colour"]})


BOT = ZackBot()
