"""Zwicker bots: whole matches end scored and clean; a bot knows only what its seat saw."""

from __future__ import annotations

import copy
import random
from typing import Any

from games.engine import BotContext, event, fold_all, timer_event
from games.zwicker.bot import BOT, LEVELS, ZwickerBot
from games.zwicker.rules import RULES
from tests.games.zwicker.harness import level_tournament
from tests.games.zwicker.zwicker_helpers import act, c, cid, dealt
from tests.support.simulate import play_bots, redacted_history

LEVEL_CYCLE = ("easy", "normal", "hard")


def test_two_hundred_bot_matches_end_scored_without_rule_errors() -> None:
    lengths = []
    for m in range(200):
        seats = 2 + m % 5
        levels = [LEVEL_CYCLE[(m + s) % 3] for s in range(seats)]
        report = play_bots(RULES, BOT, levels, seed=m)
        assert report.rule_errors == 0, (m, levels)
        assert report.outcome is not None, (m, levels)
        assert report.outcome["winners"]
        assert sorted(p["seat"] for p in report.outcome["placements"]) == list(range(seats))
        assert all(isinstance(p["score"], int) for p in report.outcome["placements"])
        lengths.append(report.actions)
        revealed = [e for e in report.log if e["kind"] == "revealed"]
        assert len(revealed) == 1
    assert max(lengths) < 2000


def test_a_bot_submits_only_what_its_view_lists() -> None:
    class Checked(ZwickerBot):
        moves = 0

        def choose(self, ctx: BotContext, rng: random.Random) -> Any:
            move = super().choose(ctx, rng)
            if move is not None:
                assert move.action in ctx.view["legal"], (move.action, ctx.view["legal"])
                Checked.moves += 1
            return move

    for m in range(12):
        seats = 2 + m % 5
        report = play_bots(RULES, Checked(), [LEVEL_CYCLE[(m + s) % 3] for s in range(seats)], seed=900 + m)
        assert report.outcome is not None
    assert Checked.moves > 100


def test_levels_differ_hard_beats_easy() -> None:
    figures = level_tournament(90, seats=3, seed=4)
    assert figures["rule_errors"] == 0 and figures["unfinished"] == 0
    assert figures["win_rate"]["hard"] > figures["win_rate"]["easy"]
    assert figures["mean_place"]["hard"] < figures["mean_place"]["easy"]
    assert LEVELS["easy"].own_memory is not None and LEVELS["hard"].own_memory is None
    assert LEVELS["hard"].snap_ms[1] < LEVELS["normal"].snap_ms[0] <= LEVELS["easy"].snap_ms[0]


def _log(grids: list[list[str]], discard: str, draw: list[str] | None = None) -> list[dict[str, Any]]:
    d = dealt(grids, discard, draw)
    events = [d]
    for s, row in enumerate(grids):
        for i in (2, 3):
            events.append(event("peeked", s, target=s, slot=i, card=c(row[i])))
    events += [event("turn", 0, no=1, final=False), timer_event("turn-1", 60_000)]
    return [dict(e, seq=i + 1, t_ms=0) for i, e in enumerate(events)]


def _ctx(log: list[dict[str, Any]], seat: int, level: str = "hard", spectator_history: bool = False) -> BotContext:
    state = fold_all(RULES, log)
    history = redacted_history(RULES, log, None if spectator_history else seat)
    return BotContext(seat=seat, level=level, view=RULES.view(state, seat), history=history, now_ms=log[-1]["t_ms"])


def _extend(log: list[dict[str, Any]], seat: int | None, action: dict[str, Any], now: int) -> list[dict[str, Any]]:
    state = fold_all(RULES, log)
    _, events = act(state, seat, action, now)
    return log + [dict(e, seq=len(log) + i + 1, t_ms=now) for i, e in enumerate(events)]


def test_bot_snaps_a_card_it_peeked_and_not_one_it_never_saw() -> None:
    # seat 1 peeked its 4 (slot 2); its 4 in slot 0 was never seen
    log = _log([["Jc", "9s", "Ah", "3d"], ["4c", "6c", "4h", "Kd"]], discard="5d", draw=["4s"])
    log = _extend(log, 0, {"kind": "draw"}, 1000)
    log = _extend(log, 0, {"kind": "discard"}, 2000)  # the 4 of spades on top
    move = ZwickerBot().choose(_ctx(log, 1), random.Random(0))
    assert move is not None and move.action == {"kind": "snap", "slots": [2]}
    assert 2000 + 450 <= move.at_ms <= 2000 + 800  # hard reaction, from the stimulus


def test_bot_waits_for_the_snap_window_of_another_player() -> None:
    log = _log([["Jc", "9s", "4h", "3d"], ["4c", "6c", "4d", "Kd"]], discard="4s")
    log = _extend(log, 0, {"kind": "snap", "slots": [2]}, 700)
    move = ZwickerBot().choose(_ctx(log, 1), random.Random(0))
    assert move is not None and move.action["kind"] == "snap" and move.at_ms >= 700 + 1000


def test_easy_bot_forgets_after_some_turns_hard_does_not() -> None:
    fillers = ["2c", "2h", "2s", "3c", "3h", "3s", "6d", "6h", "6s", "7c"]
    log = _log([["Jc", "9s", "Ah", "3d"], ["4c", "6c", "5h", "Kd"]], discard="2d", draw=[*fillers, "5c"])
    for _ in range(len(fillers) + 1):  # eleven turns of drawing and discarding; the last puts the 5 up
        state = fold_all(RULES, log)
        now = log[-1]["t_ms"] + 3000
        log = _extend(log, state["turn"], {"kind": "draw"}, now)
        log = _extend(log, state["turn"], {"kind": "discard"}, now + 1000)
    assert fold_all(RULES, log)["discard"][-1] == cid("5c")
    bot = ZwickerBot()
    hard = bot.choose(_ctx(log, 1, "hard"), random.Random(0))
    assert hard is not None and hard.action == {"kind": "snap", "slots": [2]}  # peeked at the start
    easy = bot.choose(_ctx(log, 1, "easy"), random.Random(0))
    assert easy is not None and easy.action["kind"] != "snap"
    early = _log([["Jc", "9s", "Ah", "3d"], ["4c", "6c", "5h", "Kd"]], discard="2d", draw=["5c"])
    early = _extend(early, 0, {"kind": "draw"}, 1000)
    early = _extend(early, 0, {"kind": "discard"}, 2000)
    fresh = bot.choose(_ctx(early, 1, "easy"), random.Random(0))
    assert fresh is not None and fresh.action == {"kind": "snap", "slots": [2]}  # not yet forgotten


def test_bot_on_a_spectator_history_does_not_crash_or_cheat() -> None:
    log = _log([["Jc", "9s", "Ah", "3d"], ["4c", "6c", "4h", "Kd"]], discard="4d")
    move = ZwickerBot().choose(_ctx(log, 1, spectator_history=True), random.Random(0))
    assert move is None  # it saw nothing, so it snaps nothing and it is not its turn
    junk = _ctx(log, 0)
    junk.history = [*junk.history, {"seq": 99, "t_ms": 5}, {"kind": "snapped", "seat": 1, "data": {}}, "x"]  # type: ignore[list-item]
    assert ZwickerBot().choose(junk, random.Random(0)) is not None


def test_choice_ignores_hidden_information() -> None:
    """Two deals that differ only in cards seat 0 never saw give the same move."""
    a = _log([["Jc", "9s", "Ah", "3d"], ["4c", "6c", "4h", "Kd"]], discard="7d", draw=["8s"])
    b = _log([["Qc", "Ks", "Ah", "3d"], ["2c", "Kc", "5h", "3h"]], discard="7d", draw=["8s"])
    moves = []
    for log in (a, b):
        log = _extend(log, 0, {"kind": "draw"}, 1500)
        ctx = _ctx(log, 0)
        assert ctx.view == _ctx(log, 0).view
        moves.append(BOT.choose(ctx, random.Random(3)))
    assert moves[0] == moves[1] and moves[0] is not None
    assert _ctx(a, 0).history == _ctx(b, 0).history


def test_bot_acts_on_its_turn_after_a_human_delay() -> None:
    log = _log([["Jc", "9s", "Ah", "3d"], ["4c", "6c", "4h", "Kd"]], discard="7d")
    for level in ("easy", "normal", "hard"):
        move = ZwickerBot().choose(_ctx(log, 0, level), random.Random(0))
        lo, hi = LEVELS[level].think_ms
        assert move is not None and lo <= move.at_ms <= hi
    assert ZwickerBot().choose(_ctx(log, 1), random.Random(0)) is None


def test_bot_uses_a_king_snaps_and_swaps_a_low_card_in() -> None:
    log = _log([["Jc", "9s", "Qh", "Kc"], ["4c", "6c", "Ad", "Kd"]], discard="7d", draw=["Ks"])
    log = _extend(log, 0, {"kind": "draw"}, 1000)
    bot = ZwickerBot()
    move = bot.choose(_ctx(log, 0), random.Random(0))
    assert move is not None and move.action == {"kind": "use", "target": 1, "target_slot": 0}
    log = _extend(log, 0, move.action, move.at_ms)
    move = bot.choose(_ctx(log, 0), random.Random(0))
    assert move is not None and move.action == {"kind": "snap", "slots": [3]}  # its Kc onto the Ks
    log = _extend(log, 0, move.action, move.at_ms)
    move = bot.choose(_ctx(log, 0), random.Random(0))
    assert move is not None and move.action == {"kind": "swap", "slot": 2}  # the 4 it saw for its Queen
    log = _extend(log, 0, move.action, move.at_ms)
    assert fold_all(RULES, log)["slots"][0][2] == cid("4c")


def test_bot_calls_when_it_knows_it_is_low() -> None:
    log = _log([["Ac", "Ad", "Kh", "2c"], ["Jc", "9c", "Qh", "Kc"]], discard="7d")
    # seat 0 knows slots 2 and 3 (Kh, 2c); it looks at 0 and 1 with two sevens
    state = fold_all(RULES, log)
    assert state["turn"] == 0
    known = copy.deepcopy(log)
    known.append(
        {"kind": "peeked", "seat": 0, "data": {"target": 0, "slot": 0, "card": c("Ac")}, "seq": len(known) + 1, "t_ms": 0}
    )
    known.append(
        {"kind": "peeked", "seat": 0, "data": {"target": 0, "slot": 1, "card": c("Ad")}, "seq": len(known) + 1, "t_ms": 0}
    )
    move = ZwickerBot().choose(_ctx(known, 0, "normal"), random.Random(0))
    assert move is not None and move.action == {"kind": "zwicker"}
    move = ZwickerBot().choose(_ctx(log, 0, "normal"), random.Random(0))
    assert move is not None and move.action != {"kind": "zwicker"}
