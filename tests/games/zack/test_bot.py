"""ZACK! bots: 200 matches of 3-6 bots end with a winner and no RuleError; the bot sees only public data."""

from __future__ import annotations

import random
import statistics
from typing import Any

import pytest

from games.engine import BotContext, fold_all
from games.zack.bot import BOT, MEDIAN_MS, read_table
from games.zack.rules import RULES
from tests.games.zack.scenario import Game
from tests.support.simulate import play_bots, redacted_history

LEVELS = ("easy", "normal", "hard")


def _levels(seats: int, seed: int) -> list[str]:
    return [LEVELS[(seed + i) % 3] for i in range(seats)]


def _options(seed: int) -> dict[str, Any]:
    opts: dict[str, Any] = {"stop_cards": seed % 2 == 0, "beginner_deck": seed % 7 == 0}
    if seed % 5 == 0:
        opts["beginners"] = [seed % 3]
    return opts


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_bot_matches_end_with_a_winner_and_no_rule_error(seats: int) -> None:
    for seed in range(50):
        report = play_bots(RULES, BOT, _levels(seats, seed), seed, options=_options(seed))
        assert report.rule_errors == 0, f"seed {seed}"
        assert report.outcome is not None, f"seed {seed} did not finish"
        assert len(report.outcome["winners"]) == 1
        kinds = {e["kind"] for e in report.log}
        assert "finished" in kinds


def test_bots_play_the_whole_game_challenges_included() -> None:
    kinds: dict[str, int] = {}
    for seed in range(40):
        report = play_bots(RULES, BOT, _levels(4, seed), seed, options={"stop_cards": True})
        for e in report.log:
            key = e["kind"]
            if key == "challenged":
                key += ":" + e["data"]["reason"]
            kinds[key] = kinds.get(key, 0) + 1
    assert kinds.get("challenged:slow", 0) > 0
    assert kinds.get("challenged:wrong_turn", 0) > 0
    assert kinds.get("chosen", 0) > 0 and kinds.get("colours_passed", 0) > 0
    assert kinds["thrown"] > 40 * 20


def test_levels_differ_in_reaction_time() -> None:
    def reactions(level: str) -> float:
        gaps = []
        for seed in range(15):
            report = play_bots(RULES, BOT, [level] * 4, seed)
            log = report.log
            for prev, e in zip(log, log[1:], strict=False):
                if e["kind"] == "thrown" and prev["kind"] == "thrown" and not e["data"]["out_of_turn"]:
                    gaps.append(e["t_ms"] - prev["t_ms"])
        return statistics.median(gaps)

    easy, normal, hard = reactions("easy"), reactions("normal"), reactions("hard")
    assert hard < normal < easy
    for level, median in (("easy", easy), ("normal", normal), ("hard", hard)):
        assert 0.75 * MEDIAN_MS[level] < median < 1.35 * MEDIAN_MS[level], (level, median)


def test_hard_bots_beat_easy_bots_more_often() -> None:
    wins = {"easy": 0, "hard": 0}
    for seed in range(30):
        levels = ["easy", "hard", "easy", "hard"] if seed % 2 else ["hard", "easy", "hard", "easy"]
        report = play_bots(RULES, BOT, levels, seed)
        wins[levels[report.outcome["winners"][0]]] += 1
    assert wins["hard"] > wins["easy"]


def _ctx(state: Any, log: list[dict], seat: int, level: str = "normal") -> BotContext:
    return BotContext(
        seat=seat, level=level, view=RULES.view(state, seat), history=redacted_history(RULES, log, seat), now_ms=log[-1]["t_ms"]
    )


def _midgame(seed: int) -> list[dict]:
    report = play_bots(RULES, BOT, ["normal"] * 4, seed)
    return report.log[: len(report.log) // 2]


def test_choice_does_not_depend_on_hidden_pile_order() -> None:
    for seed in range(10):
        log = _midgame(seed)
        state = fold_all(RULES, log)
        other = dict(state)
        other["piles"] = [list(reversed(p)) for p in state["piles"]]  # same counts, other hidden order
        assert RULES.view(other, 1) == RULES.view(state, 1)
        for seat in range(4):
            a = BOT.choose(_ctx(state, log, seat), random.Random(1))
            b = BOT.choose(
                BotContext(
                    seat=seat,
                    level="normal",
                    view=RULES.view(other, seat),
                    history=redacted_history(RULES, log, seat),
                    now_ms=log[-1]["t_ms"],
                ),
                random.Random(99),
            )
            assert a == b


def test_bot_works_out_the_turn_from_public_information_only() -> None:
    for seed in range(10):
        log = _midgame(seed)
        state = fold_all(RULES, log)
        if state["waiting_choice"] is not None:
            continue
        table = read_table(RULES.view(state, 0), redacted_history(RULES, log, 0))
        assert table.turn == state["turn"]


def test_bot_survives_a_spectator_like_or_truncated_history() -> None:
    for seed in range(10):
        log = _midgame(seed)
        state = fold_all(RULES, log)
        spectator = redacted_history(RULES, log, None)
        for history in (spectator, spectator[-3:], [], [{"seq": e["seq"], "t_ms": e["t_ms"]} for e in log]):
            ctx = BotContext(seat=2, level="hard", view=RULES.view(state, 2), history=history, now_ms=99)
            move = BOT.choose(ctx, random.Random(0))
            assert move is None or move.action["kind"] in ("throw", "challenge", "colour", "choose")


def test_bot_throws_its_colour_card_when_its_pile_is_empty_on_its_turn() -> None:
    g = Game([["blue"], ["red", "links"], ["links"] * 3, ["links"] * 3])
    g.throw(0, at=0)
    g.throw(1, at=500)  # red's turn, red's pile is empty
    log = [dict(e, seq=i + 1, t_ms=e["data"].get("at", 0)) for i, e in enumerate(g.log)]
    move = BOT.choose(_ctx(g.state, log, 0, "hard"), random.Random(0))
    assert move is not None and move.action == {"kind": "colour"} and move.at_ms > 500


def test_bot_chooses_its_own_colour_after_stop_choose() -> None:
    g = Game([["stop_choose", "links"], ["links"] * 2, ["links"] * 2], stop_cards=True)
    g.act(0, {"kind": "throw"}, at=100)
    log = [dict(e, seq=i + 1, t_ms=100 if i else 0) for i, e in enumerate(g.log)]
    move = BOT.choose(_ctx(g.state, log, 0, "hard"), random.Random(0))
    assert move is not None and move.action == {"kind": "choose", "colour": "red"}
    assert BOT.choose(_ctx(g.state, log, 1, "hard"), random.Random(0)) is None


def test_bot_challenges_a_noticed_out_of_turn_throw() -> None:
    noticed = 0
    for k in range(20):
        g = Game([["blue", *["links"] * 3], ["links"] * 4, ["green", *["links"] * 3], ["links"] * 4])
        g.throw(0, at=0)  # blue's turn
        g.throw(2, at=100 + k)  # yellow throws out of turn: green's turn now
        log = [dict(e, seq=i + 1 + k * 1000 if i else 1, t_ms=[0, 0, 100 + k][i]) for i, e in enumerate(g.log)]
        move = BOT.choose(_ctx(g.state, log, 1, "hard"), random.Random(0))
        if move is not None and move.action == {"kind": "challenge", "target": "yellow"}:
            noticed += 1
    assert noticed >= 12  # a hard bot notices 90 %


def test_bot_waits_out_a_beginners_grace_window() -> None:
    g = Game([["blue", "links"], ["links"] * 2, ["links"] * 2], beginners=[1], grace_ms=5000)
    g.throw(0, at=100)
    log = [dict(e, seq=i + 1, t_ms=100 if i else 0) for i, e in enumerate(g.log)]
    move = BOT.choose(_ctx(g.state, log, 2, "hard"), random.Random(0))
    assert move is not None and move.action["kind"] == "challenge" and move.at_ms >= 5100
