"""ZACK! bots make people's mistakes by level, react within human bounds, and give newcomers a fair chance."""

from __future__ import annotations

import random
import statistics

import pytest

from games.engine import BotContext
from games.zack.bot import BOT, HUMAN_WINDOW_MS, LEVELS, NEWCOMER_MARGIN_MS, NEWCOMER_MATCHES, human_patience_ms, reaction_ms
from games.zack.rules import RULES
from tests.support.simulate import play_bots

DECISIONS = 3000


def _first_decision(level: str, seq: int, experience: dict[int, int] | None = None) -> tuple[int, object]:
    """A fresh deal (seq varies the stimulus): what seat 1 does while seat 0 is to throw first, and when."""
    events = RULES.setup(4, {"protect_beginners": False}, random.Random(seq))
    state = RULES.fold(None, events[0])
    history = [{**RULES.redact(events[0], 1), "seq": seq, "t_ms": 0}]
    ctx = BotContext(seat=1, level=level, view=RULES.view(state, 1), history=history, now_ms=0, experience=experience or {})
    move = BOT.choose(ctx, random.Random(seq))
    assert move is not None
    return move.at_ms, move.action


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_out_of_turn_throws_come_at_the_level_rate(level: str) -> None:
    throws = sum(1 for seq in range(1, DECISIONS + 1) if _first_decision(level, seq)[1] == {"kind": "throw"})
    rate = throws / DECISIONS
    expected = LEVELS[level].out_of_turn
    if expected == 0:
        assert throws == 0, "a hard bot never throws out of turn"
    else:
        assert 0.6 * expected < rate < 1.5 * expected, (level, rate)


def test_reactions_are_log_normal_within_bounds() -> None:
    for name, level in LEVELS.items():
        rng = random.Random(5)
        draws = [reaction_ms(level, rng) for _ in range(20_000)]
        assert min(draws) >= level.floor_ms
        assert 0.85 * level.median_ms < statistics.median(draws) < 1.25 * level.median_ms, name
    hard = LEVELS["hard"]
    assert hard.median_ms == 250 and hard.floor_ms == 150 and hard.late == 0
    # slower and more variable below hard
    assert LEVELS["easy"].median_ms > LEVELS["normal"].median_ms > hard.median_ms
    assert LEVELS["easy"].sigma > LEVELS["normal"].sigma > hard.sigma


def test_easy_bots_react_late_now_and_then_hard_bots_never() -> None:
    def late_share(name: str) -> float:
        level = LEVELS[name]
        rng = random.Random(9)
        limit = level.median_ms * 2.2  # beyond this a reaction without lateness is rare (> 1.7 sigma even for easy)
        return sum(reaction_ms(level, rng) > limit for _ in range(10_000)) / 10_000

    assert late_share("easy") > late_share("normal") > late_share("hard")
    assert late_share("hard") < 0.002


def test_a_bot_gives_a_new_human_a_fair_chance_before_calling_them_slow() -> None:
    for seq in range(1, 400):
        at, action = _first_decision("hard", seq, experience={0: 0})
        if action.get("kind") == "challenge" and action["target"] == "red":
            assert at >= HUMAN_WINDOW_MS + NEWCOMER_MARGIN_MS
    # against a bot seat (no experience entry) the same hard bot calls far sooner
    bot_calls = [at for seq in range(1, 200) for at, action in [_first_decision("hard", seq)] if action.get("kind") == "challenge"]
    assert bot_calls and max(bot_calls) < HUMAN_WINDOW_MS + NEWCOMER_MARGIN_MS


def test_the_newcomer_margin_shrinks_with_matches_played() -> None:
    assert human_patience_ms(0) == HUMAN_WINDOW_MS + NEWCOMER_MARGIN_MS
    assert human_patience_ms(NEWCOMER_MATCHES // 2) == HUMAN_WINDOW_MS + NEWCOMER_MARGIN_MS // 2
    assert human_patience_ms(NEWCOMER_MATCHES) == HUMAN_WINDOW_MS == human_patience_ms(500)


def test_bot_tables_see_the_not_your_turn_challenge_and_hard_bots_throw_in_turn() -> None:
    wrong_turn = oot_by_level = 0
    hard_oot = 0
    for seed in range(12):
        levels = ["easy", "normal", "hard", "hard"]
        report = play_bots(RULES, BOT, levels, seed)
        for e in report.log:
            if e["kind"] == "challenged" and e["data"]["reason"] == "wrong_turn":
                wrong_turn += 1
            if e["kind"] == "thrown" and e["data"]["out_of_turn"]:
                if levels[e["seat"]] == "hard":
                    hard_oot += 1
                else:
                    oot_by_level += 1
    assert oot_by_level > 0 and wrong_turn > 0
    assert hard_oot <= oot_by_level // 4, "hard bots throw out of turn only by racing a returned card, seldom"
