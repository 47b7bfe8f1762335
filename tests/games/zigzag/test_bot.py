"""ZIGZAG bots: whole matches, team play, levels, and secrecy of what they use."""

from __future__ import annotations

import random
import statistics
from typing import Any

import pytest

from games.engine import BotContext, BotMove, Event, fold_all
from games.zigzag.bot import BOT, LEVELS
from games.zigzag.rules import ATTITUDES, RULES, partner_of, team_of
from stats.figures import match_figures
from tests.games.zigzag.zigzag_helpers import (
    NONE_A,
    NONE_B,
    NONE_C,
    NONE_D,
    NONE_E,
    NONE_F,
    STOP_L,
    ZAG_PINK_WATER,
    ZIG_PINK,
    ch,
    deal_events,
    own_class,
)
from tests.support.simulate import play_bots, redacted_history

MATCHES = {4: 110, 6: 90}


def _levels(seats: int, seed: int) -> list[str]:
    return [("easy", "normal", "hard")[(seed + i) % 3] for i in range(seats)]


@pytest.mark.parametrize("seats", (4, 6))
def test_bot_matches_end_with_a_winning_team_and_no_rule_error(seats: int) -> None:
    manches = []
    for seed in range(MATCHES[seats]):
        report = play_bots(RULES, BOT, _levels(seats, seed), seed)
        assert report.rule_errors == 0, seed
        outcome = report.outcome
        assert outcome is not None, f"match {seed} did not end"
        winners = outcome["winners"]
        assert len(winners) == 2 and winners[1] == partner_of(winners[0], seats)
        places = {p["seat"]: p["place"] for p in outcome["placements"]}
        assert all(places[s] == 1 for s in winners)
        assert all(places[s] == places[partner_of(s, seats)] for s in range(seats))
        kinds = [e["kind"] for e in report.log]
        assert "passed" in kinds and "signalled" in kinds and "announced" in kinds
        manches.append(kinds.count("manche_ended"))
    assert statistics.median(manches) >= 4


def _ctx(log: list[Event], seat: int, level: str = "normal", now: int | None = None) -> BotContext:
    state = fold_all(RULES, log)
    history = redacted_history(RULES, log, seat)
    return BotContext(
        seat=seat, level=level, view=RULES.view(state, seat), history=history, now_ms=now if now is not None else log[-1]["t_ms"]
    )


def _log(events: list[Event], t_ms: int = 0, log: list[Event] | None = None) -> list[Event]:
    log = list(log or [])
    for e in events:
        log.append(dict(e, seq=len(log) + 1, t_ms=t_ms))
    return log


def _play(log: list[Event], seat: int, action: dict[str, Any], t_ms: int) -> list[Event]:
    state = fold_all(RULES, log)
    return _log(RULES.decide(state, seat, action, t_ms, random.Random(0)), t_ms, log)


def test_bot_opens_a_fresh_tour_after_a_reaction_delay_by_level() -> None:
    log = _log(deal_events([NONE_A, NONE_B, NONE_C, NONE_D]))
    delays = {}
    for level in LEVELS:
        moves = [BOT.choose(_ctx(log, s, level), random.Random(0)) for s in range(4)]
        assert all(m is not None and m.action["kind"] == "open" for m in moves)
        delays[level] = statistics.mean(m.at_ms for m in moves if m is not None)
    assert delays["hard"] < delays["normal"] < delays["easy"]


def test_bot_is_not_starved_by_other_moves() -> None:
    """The opening is planned from the tour start, not from the latest event."""
    log = _log(deal_events([NONE_A, NONE_B, NONE_C, NONE_D]))
    first = BOT.choose(_ctx(log, 3), random.Random(0))
    assert first is not None
    for t, seat in ((300, 0), (500, 1), (700, 2)):
        log = _play(log, seat, {"kind": "open", "card": fold_all(RULES, log)["hands"][seat][0]}, t)
    again = BOT.choose(_ctx(log, 3, now=700), random.Random(0))
    assert again is not None and again.at_ms == first.at_ms and again.action == first.action


def test_bot_signs_its_zig_and_its_partner_announces_it() -> None:
    log = _log(deal_events([ZIG_PINK, NONE_B, NONE_C, NONE_D]))
    move = BOT.choose(_ctx(log, 0), random.Random(0))
    assert move is not None and move.action == {"kind": "signal", "sign": "zig"}
    log = _play(log, 0, move.action, move.at_ms)
    answer = BOT.choose(_ctx(log, 2), random.Random(0))
    assert answer is not None and answer.action == {"kind": "announce", "combo": "zig"}
    assert answer.at_ms > move.at_ms
    log = _play(log, 2, answer.action, answer.at_ms)
    assert fold_all(RULES, log)["scored"][0] == ["zig"]


def test_bot_ignores_a_sign_older_than_its_partners_hand() -> None:
    log = _log(deal_events([ZIG_PINK, NONE_B, NONE_C, NONE_D]))
    log = _play(log, 0, {"kind": "signal", "sign": "zig"}, 100)
    log = _play(log, 0, {"kind": "open", "card": ZIG_PINK[0]}, 200)
    move = BOT.choose(_ctx(log, 2), random.Random(0))
    assert move is None or move.action["kind"] != "announce"


def _scored_log(hands: list[list[int]], team: int, combos: list[str], bonus: tuple[str, ...] = ()) -> list[Event]:
    """A log whose first manche scored `combos` for `team` (those in `bonus` by a Double ZAG), then deals `hands`."""
    pre = RULES.setup(len(hands), {}, random.Random(0))[:1]
    for i, combo in enumerate(combos):
        pre.append(
            {
                "kind": "manche_ended",
                "seat": None,
                "data": {"manche": 1, "team": team, "combo": combo, "bonus": combo in bonus, "scored": combos[: i + 1]},
            }
        )
    return _log([*pre, *deal_events(hands, manche=2)])


def test_bot_does_not_announce_a_combination_already_scored() -> None:
    log = _scored_log([ZIG_PINK, NONE_B, NONE_C, NONE_D], 0, ["zig"])
    log = _play(log, 0, {"kind": "signal", "sign": "zig"}, 100)
    for level in LEVELS:
        move = BOT.choose(_ctx(log, 2, level), random.Random(0))
        assert move is None or move.action["kind"] != "announce"
    # while zag is still needed, a zag sign is announced
    log = _scored_log([NONE_A, NONE_B, NONE_C, NONE_D], 0, ["zig"])
    log = _play(log, 0, {"kind": "signal", "sign": "zag"}, 100)
    move = BOT.choose(_ctx(log, 2), random.Random(0))
    assert move is not None and move.action == {"kind": "announce", "combo": "zag"}


def test_bot_counters_a_standing_opponent_sign_only_when_it_saw_one() -> None:
    countered = 0
    for shift in range(12):
        log = _log(deal_events([ZIG_PINK, NONE_B, NONE_C, NONE_D]))
        for i in range(shift):
            log = _play(log, 1, {"kind": "signal", "sign": "zag"}, 10 + i)
        log = _play(log, 0, {"kind": "signal", "sign": "zig"}, 100)
        for seat in (1, 3):
            move = BOT.choose(_ctx(log, seat, "hard"), random.Random(0))
            if move is not None and move.action["kind"] == "counter":
                assert move.action == {"kind": "counter", "team": 0}
                assert move.at_ms >= 100 + LEVELS["hard"].counter[0]
                countered += 1
    assert countered > 0
    # without signals_seen the opponents know nothing, and never counter: the sign rides on a pass
    log = _log(deal_events([ZIG_PINK, NONE_B, NONE_C, NONE_D], options={"signals_seen": False}))
    for s in range(4):
        log = _play(log, s, {"kind": "open", "card": fold_all(RULES, log)["hands"][s][0]}, 50 + s)
    log = _play(log, 0, {"kind": "pass", "sign": "zig"}, 100)
    assert fold_all(RULES, log)["signals"][0]["sign"] == "zig"
    for seat in (1, 3):
        for level in LEVELS:
            move = BOT.choose(_ctx(log, seat, level), random.Random(0))
            assert move is None or move.action["kind"] != "counter"


def test_bot_plays_its_stop_against_the_leading_team() -> None:
    hands = [[NONE_A[0], STOP_L, *NONE_A[2:]], NONE_B, NONE_C, NONE_D, NONE_E, NONE_F]
    log = _scored_log(hands, 2, ["zig"])  # team 2 (seats 2 and 5) leads
    for s in range(6):
        log = _play(log, s, {"kind": "open", "card": fold_all(RULES, log)["hands"][s][0]}, 100 + s)
    for level in LEVELS:
        move = BOT.choose(_ctx(log, 0, level), random.Random(0))
        assert move is not None and move.action["kind"] == "stop"
        assert move.action["card"] == STOP_L and team_of(move.action["target"], 6) == 2


def test_bot_holding_its_combination_re_signs_passes_then_waits() -> None:
    log = _log(deal_events([ZIG_PINK, NONE_B, NONE_C, NONE_D]))
    log = _play(log, 0, {"kind": "signal", "sign": "zig"}, 10)
    for s in range(4):
        log = _play(log, s, {"kind": "open", "card": fold_all(RULES, log)["hands"][s][0]}, 100 + s)
    assert own_class(fold_all(RULES, log), 0) == "zig"  # it drew another pink card
    move = BOT.choose(_ctx(log, 0), random.Random(0))
    assert move is not None and move.action == {"kind": "signal", "sign": "zig"}  # its hand changed since
    log = _play(log, 0, move.action, move.at_ms)
    move = BOT.choose(_ctx(log, 0), random.Random(0))
    assert move is not None and move.action == {"kind": "pass"}
    log = _play(log, 0, move.action, move.at_ms)
    assert BOT.choose(_ctx(log, 0), random.Random(0)) is None


def test_bot_uses_only_its_view_and_history() -> None:
    """Two tables that differ only in what seat 1 cannot see give the same choices."""
    hands_a = [ZIG_PINK, NONE_B, NONE_C, NONE_D]
    hands_b = [NONE_E, NONE_B, NONE_F, NONE_D]  # other hands for seats 0 and 2, other starting cards
    start = [NONE_A[0], NONE_A[1], NONE_A[2], NONE_A[3]]
    start_b = [NONE_C[0], NONE_C[1], NONE_C[2], NONE_C[3]]
    log_a = _log(deal_events(hands_a, starting=start))
    log_b = _log(deal_events(hands_b, starting=[start_b[0], start[1], start_b[2], start_b[3]]))
    ctx_a, ctx_b = _ctx(log_a, 1), _ctx(log_b, 1)
    assert ctx_a.view == ctx_b.view and ctx_a.history == ctx_b.history
    assert fold_all(RULES, log_a) != fold_all(RULES, log_b)
    for level in LEVELS:
        ma = BOT.choose(BotContext(1, level, ctx_a.view, ctx_a.history, 0), random.Random(1))
        mb = BOT.choose(BotContext(1, level, ctx_b.view, ctx_b.history, 0), random.Random(2))
        assert ma == mb


def test_bot_survives_spectator_like_and_empty_histories() -> None:
    report = play_bots(RULES, BOT, ["normal"] * 4, 3, max_actions=150)
    log = report.log
    state = fold_all(RULES, log)
    spectator_history = redacted_history(RULES, log, None)
    bare = [{"seq": e["seq"], "t_ms": e["t_ms"]} for e in log]
    for seat in range(4):
        view = RULES.view(state, seat)
        for history in (spectator_history, bare, []):
            move = BOT.choose(BotContext(seat, "hard", view, history, log[-1]["t_ms"]), random.Random(0))
            assert move is None or isinstance(move, BotMove)
    assert BOT.choose(BotContext(0, "normal", RULES.view(state, None), spectator_history, 0), random.Random(0)) is None


def test_tours_end_by_passes_in_bot_play() -> None:
    report = play_bots(RULES, BOT, ["hard"] * 4, 8)
    reasons = [e["data"]["reason"] for e in report.log if e["kind"] == "tour_ended"]
    assert reasons.count("passed") > reasons.count("timer")


SECRET = {"signals_seen": False}


def test_bot_at_a_secret_table_signs_on_its_move_and_its_partner_announces_it() -> None:
    """With `signals_seen` off a sign rides on a move (rules module, "Secret signs"): the bot's pass carries it."""
    log = _log(deal_events([ZIG_PINK, NONE_B, NONE_C, NONE_D], options=SECRET))
    move = BOT.choose(_ctx(log, 0), random.Random(0))
    assert move is not None and move.action["kind"] == "open" and "sign" not in move.action  # blind: no sign
    for s in range(4):
        log = _play(log, s, {"kind": "open", "card": fold_all(RULES, log)["hands"][s][0]}, 100 + s)
    assert own_class(fold_all(RULES, log), 0) == "zig"
    move = BOT.choose(_ctx(log, 0), random.Random(0))
    assert move is not None and move.action == {"kind": "pass", "sign": "zig"}
    assert move.at_ms <= 103 + LEVELS["normal"].sign[1]  # a sign's speed, not a pass's
    log = _play(log, 0, move.action, move.at_ms)
    answer = BOT.choose(_ctx(log, 2), random.Random(0))
    assert answer is not None and answer.action == {"kind": "announce", "combo": "zig"}
    log = _play(log, 2, answer.action, answer.at_ms)
    assert fold_all(RULES, log)["scored"][0] == ["zig"]


def test_bot_at_a_secret_table_signs_the_class_its_exchange_makes() -> None:
    pink = ch("pink", "tree", "suitcase")
    hand = [ch("pink", "water", "cocktail"), ch("pink", "flame", "running"), ch("pink", "cloud", "sunglasses"), NONE_A[0]]
    hands = [hand, [*NONE_B[:3], pink], NONE_C, NONE_D]
    log = _log(deal_events(hands, starting=[NONE_A[1], NONE_A[2], NONE_A[3], NONE_E[0]], options=SECRET))
    for s in range(4):
        log = _play(log, s, {"kind": "open", "card": fold_all(RULES, log)["hands"][s][-1]}, 100 + s)
    assert pink in fold_all(RULES, log)["centre"]
    move = BOT.choose(_ctx(log, 0), random.Random(0))
    assert move is not None and move.action["kind"] == "exchange" and move.action["take"] == pink
    assert move.action["sign"] == "zig"  # the hand the exchange leaves it: four pink cards
    log = _play(log, 0, move.action, move.at_ms)
    assert RULES.view(fold_all(RULES, log), 2)["signals"]["0"]["sign"] == "zig"


def test_bot_does_not_announce_a_second_double_zag() -> None:
    """A team's Double ZAG counts once: with it made, two ZAGs score nothing."""
    zag_b = [ch("green", "cloud", a) for a in ATTITUDES]
    log = _scored_log([ZAG_PINK_WATER, NONE_B, zag_b, NONE_D], 0, ["zig"])
    log = _play(log, 0, {"kind": "signal", "sign": "zag"}, 100)
    move = BOT.choose(_ctx(log, 2, "hard"), random.Random(0))
    assert move is not None and move.action == {"kind": "announce", "combo": "double_zag", "fills": "zigzag"}
    log = _scored_log([ZAG_PINK_WATER, NONE_B, zag_b, NONE_D], 0, ["zig", "zag"], bonus=("zag",))
    assert fold_all(RULES, log)["bonus"][0] == ["zag"]
    log = _play(log, 0, {"kind": "signal", "sign": "zag"}, 100)
    for level in LEVELS:
        move = BOT.choose(_ctx(log, 2, level), random.Random(0))
        assert move is None or move.action.get("combo") != "double_zag", level


@pytest.mark.parametrize("seats", (4, 6))
def test_bot_matches_at_secret_tables_end_with_signs_riding_on_moves(seats: int) -> None:
    riding = 0
    for seed in range(8 if seats == 4 else 5):
        report = play_bots(RULES, BOT, _levels(seats, seed), 700 + seed, options=SECRET)
        assert report.rule_errors == 0, seed
        assert report.outcome is not None, f"match {seed} did not end"
        kinds = [e["kind"] for e in report.log]
        assert "signalled" not in kinds  # never a sign of its own: every one rode on a move
        signs = sum(1 for e in report.log if "signal" in e["data"])
        riding += signs
        figures = match_figures("zigzag", report.log, seats, report.outcome)
        assert sum(f.counts.get("signs_sent", 0) for f in figures.per_seat) == signs  # the statistics count them too
        for t, bonus in enumerate(fold_all(RULES, report.log)["bonus"]):
            assert len(bonus) <= 1, (seed, t)
    assert riding > 0
