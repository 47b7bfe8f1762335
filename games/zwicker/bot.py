"""Zwicker bot: plays from what its seat has seen, as a person remembers it.

It submits only what its view lists as `legal` (a plan the list lacks falls
back to the plainest listed turn move; a snap it cannot make is dropped).

The bot never reads the state. It rebuilds its memory by folding its own
redacted event stream (`ctx.history`): its peeks, its drawn cards, the cards
it looked at, every card turned face up, and how blind swaps moved cards
around. Its view gives only the table's shape (which slots are filled, whose
turn, the top discard, its own drawn card and King look).

Levels differ in three ways:

- memory: `easy` forgets a remembered card after a few turns, `normal` after
  many turns (other players' cards sooner than its own), `hard` never;
- speed: reaction times for turn moves and snaps (hard is quickest);
- judgement: the call threshold (easy calls on a hunch, hard only when it
  believes it is both at most 5 and below every opponent).

Randomness that must stay stable across re-plans (delays, which card is
forgotten) is derived from the seat and the seq of the stimulus event, so a
bot asked again after an unrelated event makes the same plan.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from games.engine import BotContext, BotMove, Event
from games.zwicker.rules import DECK_SIZE, POWER_OF, RANK_OF, VALUE_OF

DECK_POINTS = sum(VALUE_OF)


@dataclass(frozen=True)
class Level:
    """How one bot level plays."""

    own_memory: tuple[int, int] | None  # forget own cards after base + h % spread turns; None = never
    other_memory: tuple[int, int] | None
    think_ms: tuple[int, int]  # turn moves: min, max
    snap_ms: tuple[int, int]  # snap reaction: min, max
    call_at: float  # call when the estimate is at most this
    need_lowest: bool  # also require being below every opponent's estimate
    patience: int  # own turns after which it calls anyway, so a match always ends


LEVELS: dict[str, Level] = {
    "easy": Level((3, 4), (1, 3), (2000, 3500), (1600, 2600), 5.5, False, 14),
    "normal": Level((10, 10), (4, 6), (1300, 2300), (900, 1500), 5.0, False, 18),
    "hard": Level(None, None, (800, 1500), (450, 800), 5.0, True, 22),
}


@dataclass
class Memory:
    """What a seat remembers, rebuilt by folding its redacted history."""

    seat: int
    n: int = 0
    known: dict[tuple[int, int], tuple[int, int, int, int]] = field(default_factory=dict)
    # (seat, slot) -> (card id, turn learned, seq learned, t_ms learned)
    discard: list[int] = field(default_factory=list)
    turns: int = 0  # `turn` events seen
    my_turns: int = 0
    top_ms: int = 0  # when the current top discard appeared
    last_snap: tuple[int, int, int] | None = None  # (seat, top id, t_ms)
    stimulus: tuple[int, int] = (0, 0)  # (seq, t_ms) of the last event that asks this seat to move

    def learn(self, key: tuple[int, int], cid: int | None, e: Event) -> None:
        if cid is None:
            self.known.pop(key, None)
        else:
            self.known[key] = (cid, self.turns, e.get("seq", 0), e.get("t_ms", 0))

    def fold(self, e: Event) -> None:
        """One event of the seat's own stream (hidden events carry no kind)."""
        kind = e.get("kind")
        if kind is None:
            return
        d = e.get("data") or {}
        actor = e.get("seat")
        t = e.get("t_ms", 0)
        if kind == "dealt":
            self.n = d.get("seats", 0)
            self.discard = [c for c in [_cid(d.get("discard"))] if c is not None]
            self.top_ms = t
        elif kind == "peeked":
            self.learn((d["target"], d["slot"]), _cid(d.get("card")), e)
        elif kind == "drawn" and actor == self.seat:
            self.stimulus = (e.get("seq", 0), t)
        elif kind == "took_discard":
            if self.discard:
                self.discard.pop()
            self._to_discard(_cid(d.get("old")), t)
            self.learn((actor, d["slot"]), _cid(d.get("card")), e)
        elif kind == "replaced":
            self._to_discard(_cid(d.get("old")), t)
            self.learn((actor, d["slot"]), _cid(d.get("card")), e)
        elif kind == "discarded":
            self._to_discard(_cid(d.get("card")), t)
        elif kind == "used":
            self._to_discard(_cid(d.get("card")), t)
            power = d.get("power")
            if power == "blind_swap":
                self._swap((actor, d["slot"]), (d["target"], d["target_slot"]))
            else:
                seen = _cid(d.get("seen"))
                if seen is not None:
                    self.learn((d["target"], d["target_slot"]), seen, e)
            if power == "king" and actor == self.seat:
                self.stimulus = (e.get("seq", 0), t)
        elif kind == "swapped":
            self._swap((actor, d["slot"]), (d["target"], d["target_slot"]))
        elif kind == "snapped":
            for i, c in zip(d["slots"], d["cards"], strict=False):
                self.known.pop((actor, i), None)
                self._to_discard(_cid(c), t)
            if self.discard:
                self.last_snap = (actor, self.discard[-1], t)
        elif kind in ("snap_wrong", "snap_taken_back"):
            for i, c in zip(d["slots"], d["cards"], strict=False):
                self.learn((actor, i), _cid(c), e)
        elif kind == "reshuffled":
            self.discard = self.discard[-1:]
        elif kind == "turn":
            self.turns += 1
            if actor == self.seat:
                self.my_turns += 1
                self.stimulus = (e.get("seq", 0), t)

    def _to_discard(self, cid: int | None, t: int) -> None:
        if cid is not None:
            self.discard.append(cid)
            self.top_ms = t

    def _swap(self, a: tuple[int, int], b: tuple[int, int]) -> None:
        ka, kb = self.known.pop(a, None), self.known.pop(b, None)
        if ka is not None:
            self.known[b] = ka
        if kb is not None:
            self.known[a] = kb


def _cid(c: Any) -> int | None:
    """The id of a visible card, or None for a hidden placeholder or garbage."""
    if isinstance(c, dict):
        i = c.get("id")
        if isinstance(i, int) and not isinstance(i, bool) and 0 <= i < DECK_SIZE:
            return i
    return None


def _listed(action: dict[str, Any] | None, legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The planned turn move if the view lists it, else the plainest listed one.

    A plan can miss the list when an open snap race will empty the slot it
    names before the move lands (the view lists moves on the settled table).
    """
    if action is None or action in legal:
        return action
    for plain in ({"kind": "discard"}, {"kind": "keep"}, {"kind": "draw"}):
        if plain in legal:
            return plain
    return next((a for a in legal if a["kind"] != "snap"), None)


def _jitter(seq: int, seat: int, salt: int, lo: int, hi: int) -> int:
    """A stable pseudo-random delay in [lo, hi] for this stimulus."""
    h = (seq * 2654435761 + seat * 40503 + salt * 97) & 0xFFFFFFFF
    h ^= h >> 13
    h = (h * 0x5BD1E995) & 0xFFFFFFFF
    return lo + h % (hi - lo + 1)


@dataclass
class _Cached:
    history: list[Event]
    length: int
    last: Event | None
    memory: Memory


class ZwickerBot:
    """The `BOT` of Zwicker; `choose` is pure apart from a cache of its own folds."""

    def __init__(self) -> None:
        self._cache: dict[tuple[int, int], _Cached] = {}

    # --- memory -------------------------------------------------------------

    def memory(self, ctx: BotContext) -> Memory:
        """Fold the history; reuse the previous fold when the same list just grew."""
        history = ctx.history
        key = (id(history), ctx.seat)
        hit = self._cache.get(key)
        if (
            hit is not None
            and hit.history is history
            and len(history) >= hit.length
            and (hit.length == 0 or history[hit.length - 1] is hit.last)
        ):
            mem = hit.memory
            start = hit.length
        else:
            mem = Memory(seat=ctx.seat)
            start = 0
        for e in history[start:]:
            if isinstance(e, dict):
                try:
                    mem.fold(e)
                except (KeyError, TypeError, IndexError, ValueError):
                    pass  # an event it cannot read teaches it nothing
        if len(self._cache) > 256:
            self._cache.clear()
        self._cache[key] = _Cached(history, len(history), history[-1] if history else None, mem)
        return mem

    def recall(self, mem: Memory, level: Level, seat: int, slot: int) -> int | None:
        """The card this bot still remembers in that slot, or None."""
        item = mem.known.get((seat, slot))
        if item is None:
            return None
        limit = level.own_memory if seat == mem.seat else level.other_memory
        if limit is not None:
            cid, turn, seq, _ = item
            h = (seq * 31 + seat * 7 + slot) % limit[1]
            if mem.turns - turn > limit[0] + h:
                return None
        return item[0]

    # --- the move -----------------------------------------------------------

    def choose(self, ctx: BotContext, rng: random.Random) -> BotMove | None:
        view = ctx.view
        if not isinstance(view, dict) or view.get("finished") or view.get("phase") == "over":
            return None
        seat = ctx.seat
        if not isinstance(seat, int) or not 0 <= seat < len(view.get("seats") or []):
            return None
        level = LEVELS.get(ctx.level, LEVELS["normal"])
        mem = self.memory(ctx)
        board = _Board(self, mem, level, view, seat)
        legal = view.get("legal") or []
        snap = self._snap(board, view, mem, level, seat)
        moves = [m for m in (snap, self._turn(board, view, mem, level, seat, legal)) if m and m.action in legal]
        if not moves:
            return None
        return min(moves, key=lambda m: m.at_ms)

    def _snap(self, board: _Board, view: dict[str, Any], mem: Memory, level: Level, seat: int) -> BotMove | None:
        top = view.get("discard_top")
        top_id = _cid(top)
        if top_id is None:
            return None
        rank = RANK_OF[top_id]
        slots = [i for i, c in board.mine.items() if c is not None and RANK_OF[c] == rank]
        if not slots:
            return None
        race = view.get("race")
        if isinstance(race, dict) and any(c.get("seat") == seat for c in race.get("claims") or []):
            return None  # its claim is being judged: the race's settlement asks it again
        learned = max(mem.known[(seat, i)][3] for i in slots)
        seq = len(mem.discard) * 7 + top_id
        at = max(mem.top_ms, learned) + _jitter(seq, seat, 1, *level.snap_ms)
        window = int((view.get("options") or {}).get("snap_window_ms", 1000))
        last = mem.last_snap
        if last is not None and last[0] != seat and last[1] == top_id:
            at = max(at, last[2] + window + 150)  # let the pile settle: the slowest takes back
        return BotMove(at_ms=at, action={"kind": "snap", "slots": sorted(slots)})

    def _turn(
        self, board: _Board, view: dict[str, Any], mem: Memory, level: Level, seat: int, legal: list[dict[str, Any]]
    ) -> BotMove | None:
        if view.get("turn") != seat:
            return None
        phase = view.get("phase")
        seq, t = mem.stimulus
        at = t + _jitter(seq, seat, 2, *level.think_ms)
        action: dict[str, Any] | None = None
        if phase == "turn":
            action = self._start(board, view, mem, level)
        elif phase == "drawn":
            action = self._after_draw(board, view)
        elif phase == "king":
            action = self._king(board, view)
        action = _listed(action, legal)
        return None if action is None else BotMove(at_ms=at, action=action)

    def _start(self, board: _Board, view: dict[str, Any], mem: Memory, level: Level) -> dict[str, Any] | None:
        if view.get("caller") is None and self._should_call(board, mem, level):
            return {"kind": "zwicker"}
        top = _cid(view.get("discard_top"))
        if top is not None and board.mine:
            tv = VALUE_OF[top]
            slot, gain = board.best_slot_for(tv)
            if slot is not None and (gain >= 4 or (tv <= 2 and gain >= 2.5)):
                return {"kind": "take_discard", "slot": slot}
        if view.get("draw_count", 0) == 0 and view.get("discard_count", 0) <= 1:
            if board.mine:
                return {"kind": "take_discard", "slot": next(iter(board.mine))}
            return {"kind": "zwicker"} if view.get("caller") is None else None
        return {"kind": "draw"}

    def _should_call(self, board: _Board, mem: Memory, level: Level) -> bool:
        est = board.estimate(board.seat)
        if mem.my_turns > level.patience:
            return True
        if est > level.call_at:
            return False
        if level.need_lowest:
            others = [board.estimate(s) for s in range(board.n) if s != board.seat]
            return not others or est < min(others) or est <= 1
        return True

    def _after_draw(self, board: _Board, view: dict[str, Any]) -> dict[str, Any]:
        drawn = _cid(view.get("drawn"))
        if drawn is None:
            return {"kind": "discard"}
        dv = VALUE_OF[drawn]
        pairs = any(c is not None and RANK_OF[c] == RANK_OF[drawn] for c in board.mine.values())
        slot, gain = board.best_slot_for(dv)
        if slot is not None and not pairs and (gain >= 2 or (dv <= 1 and gain > 0)):
            return {"kind": "replace", "slot": slot}
        power = POWER_OF[drawn]
        use = board.power_move(power) if power else None
        return use or {"kind": "discard"}

    def _king(self, board: _Board, view: dict[str, Any]) -> dict[str, Any]:
        look = view.get("king_look") or {}
        seen = _cid(look.get("card"))
        target, tslot = look.get("target"), look.get("target_slot")
        try:
            still = view["seats"][target]["slots"][tslot]["filled"]
        except (KeyError, IndexError, TypeError):
            still = False
        if seen is None or not still:
            return {"kind": "keep"}
        slot, gain = board.best_slot_for(VALUE_OF[seen])
        if slot is not None and gain >= 2:
            return {"kind": "swap", "slot": slot}
        return {"kind": "keep"}


class _Board:
    """The table as this bot believes it to be: filled slots plus remembered cards."""

    def __init__(self, bot: ZwickerBot, mem: Memory, level: Level, view: dict[str, Any], seat: int) -> None:
        self.seat = seat
        self.n = len(view["seats"])
        self.grid: list[dict[int, int | None]] = []
        for s, info in enumerate(view["seats"]):
            row = {}
            for sl in info.get("slots", []):
                if sl.get("filled"):
                    i = sl["slot"]
                    row[i] = bot.recall(mem, level, s, i)
            self.grid.append(row)
        self.mine = self.grid[seat]
        accounted = list(mem.discard)
        accounted.extend(c for row in self.grid for c in row.values() if c is not None)
        drawn = _cid(view.get("drawn"))
        if drawn is not None:
            accounted.append(drawn)
        unseen = DECK_SIZE - len(accounted)
        self.avg = (DECK_POINTS - sum(VALUE_OF[c] for c in accounted)) / unseen if unseen > 0 else 6.3

    def estimate(self, seat: int) -> float:
        return sum(self.avg if c is None else VALUE_OF[c] for c in self.grid[seat].values())

    def best_slot_for(self, value: int) -> tuple[int | None, float]:
        """Which own slot to give up for a card worth `value`, and the expected gain."""
        best: tuple[int | None, float] = (None, float("-inf"))
        for i, c in self.mine.items():
            gain = (self.avg - 0.8 if c is None else VALUE_OF[c]) - value
            if gain > best[1]:
                best = (i, gain)
        return best

    def _opponent_slots(self) -> list[tuple[int, int, int | None]]:
        return [(s, i, c) for s in range(self.n) if s != self.seat for i, c in self.grid[s].items()]

    def power_move(self, power: str) -> dict[str, Any] | None:
        """A useful power, or None to just discard."""
        if power == "look_own":
            unknown = [i for i, c in self.mine.items() if c is None]
            return {"kind": "use", "slot": unknown[0]} if unknown else None
        others = self._opponent_slots()
        if not others:
            return None
        if power == "look_other":
            unknown = [(s, i) for s, i, c in others if c is None]
            if not unknown:
                return None
            s, i = unknown[0]
            return {"kind": "use", "target": s, "slot": i}
        worst, worst_v = None, -1.0
        for i, c in self.mine.items():
            v = self.avg - 0.8 if c is None else VALUE_OF[c]
            if v > worst_v:
                worst, worst_v = i, v
        if power == "blind_swap":
            if worst is None:
                return None
            s, i, c = min(others, key=lambda o: self.avg if o[2] is None else VALUE_OF[o[2]])
            theirs = self.avg if c is None else VALUE_OF[c]
            if worst_v - theirs >= 3:
                return {"kind": "use", "slot": worst, "target": s, "target_slot": i}
            return None
        if power == "king":
            if worst is None:
                return None
            low = [(s, i, c) for s, i, c in others if c is not None and VALUE_OF[c] <= worst_v - 2]
            pick = min(low, key=lambda o: VALUE_OF[o[2]] if o[2] is not None else 99) if low else None
            if pick is None:
                unknown = [(s, i, c) for s, i, c in others if c is None]
                pick = unknown[0] if unknown and worst_v >= 7 else None
            if pick is None:
                return None
            return {"kind": "use", "target": pick[0], "target_slot": pick[1]}
        return None


BOT = ZwickerBot()
