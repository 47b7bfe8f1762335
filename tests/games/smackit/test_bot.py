"""Bot matches and the bot's information diet.

200 matches of 2-6 bots (mixed levels) must end with a winner and no
RuleError; the bot must decide from its own view and history only.
"""

from __future__ import annotations

import copy
import random
import statistics
from collections import defaultdict
from typing import Any

from games.engine import BotContext, BotMove, fold_all
from games.smackit.bot import BOT, LEVELS
from games.smackit.rules import DECK, RULES
from tests.support.simulate import play_bots, redacted_history

LEVEL_NAMES = list(LEVELS)


def test_two_hundred_bot_matches_end_with_a_winner() -> None:
    reaction: dict[str, list[int]] = defaultdict(list)
    for seed in range(200):
        seats = 2 + seed % 5
        rng = random.Random(seed)
        levels = [rng.choice(LEVEL_NAMES) for _ in range(seats)]
        report = play_bots(RULES, BOT, levels, seed)
        assert report.rule_errors == 0, (seed, levels)
        assert report.outcome is not None, (seed, levels, report.actions)
        assert report.outcome["winners"], seed
        assert len(report.outcome["placements"]) == seats
        for e in report.log:
            if e["kind"] == "smacked" and e["data"]["result"] == "win":
                reaction[levels[e["seat"]]].append(e["data"]["reaction_ms"])
    # hard bots are quick: their winning smacks are faster than easy bots' ones
    assert statistics.median(reaction["hard"]) < statistics.median(reaction["normal"]) < statistics.median(reaction["easy"])


def test_hard_bots_beat_easy_bots_and_easy_bots_false_smack() -> None:
    wins = {"hard": 0, "easy": 0}
    false_smacks = {"hard": 0, "easy": 0}
    for seed in range(30):
        levels = ["easy", "hard"] if seed % 2 else ["hard", "easy"]
        report = play_bots(RULES, BOT, levels, 500 + seed)
        for w in report.outcome["winners"]:
            wins[levels[w]] += 1
        for e in report.log:
            if e["kind"] == "smacked" and e["data"]["result"] == "false":
                false_smacks[levels[e["seat"]]] += 1
    assert wins["hard"] > wins["easy"]
    assert false_smacks["easy"] > 0 and false_smacks["hard"] == 0


def test_late_bot_smacks_are_ignored_and_show_how_far_behind() -> None:
    behind = []
    for seed in range(20):
        report = play_bots(RULES, BOT, ["normal", "normal", "normal", "normal"], 900 + seed)
        behind += [e["data"]["behind_ms"] for e in report.log if e["kind"] == "smacked" and e["data"]["result"] == "ignored"]
    assert behind and all(0 <= b <= 300 for b in behind)


def _scripted(piles: list[list[int]], script: list[tuple[int, str, int]]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Fold a hand-built deal and a script of (seat, kind, t_ms); return the stored log and the state."""
    deal = {
        "kind": "dealt",
        "seat": None,
        "data": {
            "seats": len(piles),
            "dealer": len(piles) - 1,
            "first": 0,
            "options": {
                "smack_grace_ms": 300,
                "auto_flip_seconds": 10,
                "max_minutes": 20,
                "shuffle_won": False,
                "dealer": len(piles) - 1,
            },
            "piles": [[dict(DECK[c]) for c in p] for p in piles],
        },
    }
    log = [dict(deal, seq=1, t_ms=0)]
    state = RULES.fold(None, deal)
    for seat, kind, t in script:
        for e in RULES.decide(state, seat, {"kind": kind}, t, random.Random(0)):
            state = RULES.fold(state, e)
            log.append(dict(e, seq=len(log) + 1, t_ms=t))
    return log, state


def _choose(log: list[dict[str, Any]], state: dict[str, Any], seat: int, level: str = "normal") -> BotMove | None:
    ctx = BotContext(
        seat=seat, level=level, view=RULES.view(state, seat), history=redacted_history(RULES, log, seat), now_ms=log[-1]["t_ms"]
    )
    return BOT.choose(ctx, random.Random(0))


def test_bot_smacks_a_smack_card_after_a_human_reaction() -> None:
    log, state = _scripted(
        [[0, 54, 1], [2, 3], [4, 5]], [(0, "flip", 100), (1, "flip", 900), (2, "flip", 1700), (0, "flip", 2500)]
    )
    assert state["turn"] == 1
    for level in LEVEL_NAMES:
        for seat in range(3):
            move = _choose(log, state, seat, level)
            assert move is not None and move.action == {"kind": "smack"}, (seat, level)
            assert 2500 + 160 <= move.at_ms <= 2500 + 2000
    # re-planning gives the same move: the reaction is drawn from the stimulus, not afresh
    assert _choose(log, state, 2) == _choose(log, state, 2)


def test_bot_flips_on_its_turn_after_a_delay_from_the_stimulus() -> None:
    log, state = _scripted([[0, 1], [2, 3], [4, 5]], [(0, "flip", 100)])
    move = _choose(log, state, 1, "hard")
    assert move is not None and move.action == {"kind": "flip"} and 100 + 250 <= move.at_ms <= 100 + 3000
    assert _choose(log, state, 2, "hard") is None  # nothing to do for the others
    # an unrelated later event (an ignored smack) does not postpone the flip
    log2 = [
        *log,
        {
            "kind": "smacked",
            "seat": 2,
            "data": {"result": "ignored", "at_ms": 300, "behind_ms": 5, "winner": 0},
            "seq": len(log) + 1,
            "t_ms": 300,
        },
    ]
    ctx = BotContext(seat=1, level="hard", view=RULES.view(state, 1), history=log2, now_ms=300)
    assert BOT.choose(ctx, random.Random(0)) == move


def test_out_bot_keeps_smacking_until_out_for_good() -> None:
    # seat 1 flips its last card and is out; a smack card then comes up
    log, state = _scripted(
        [[0, 54, 1], [2], [4, 5, 6]], [(0, "flip", 100), (1, "flip", 900), (2, "flip", 1700), (0, "flip", 2500)]
    )
    assert state["out_at"][1] is not None
    move = _choose(log, state, 1)
    assert move is not None and move.action == {"kind": "smack"}
    # the same after a false smack made it out for good: nothing more to do
    log, state = _scripted(
        [[0, 54, 1], [2], [4, 5, 6]],
        [(0, "flip", 100), (1, "flip", 900), (1, "smack", 1000), (2, "flip", 1700), (0, "flip", 2500)],
    )
    assert state["for_good"][1]
    assert _choose(log, state, 1) is None


def test_bot_choice_does_not_depend_on_hidden_pile_order() -> None:
    report = play_bots(RULES, BOT, ["normal"] * 4, 7)
    log = report.log[:40]
    state = fold_all(RULES, log)
    seat = state["turn"]
    other = copy.deepcopy(state)
    # shuffle every pile: the real hidden order differs, the view does not
    rng = random.Random(1)
    for pile in other["piles"]:
        rng.shuffle(pile)
    assert other != state
    for s in range(4):
        hist = redacted_history(RULES, log, s)
        a = BOT.choose(BotContext(seat=s, level="normal", view=RULES.view(state, s), history=hist, now_ms=1), random.Random(3))
        b = BOT.choose(BotContext(seat=s, level="normal", view=RULES.view(other, s), history=hist, now_ms=1), random.Random(4))
        assert a == b
    move = BOT.choose(
        BotContext(seat=seat, level="normal", view=RULES.view(state, seat), history=redacted_history(RULES, log, seat), now_ms=1),
        random.Random(0),
    )
    assert move is not None and move.action == {"kind": "flip"}


def test_bot_survives_spectator_like_history() -> None:
    report = play_bots(RULES, BOT, ["easy"] * 3, 11)
    log = report.log[:30]
    state = fold_all(RULES, log)
    bare = [{"seq": e["seq"], "t_ms": e["t_ms"]} for e in log]
    for level in LEVEL_NAMES:
        for s in range(3):
            BOT.choose(BotContext(seat=s, level=level, view=RULES.view(state, s), history=bare, now_ms=5), random.Random(0))
            BOT.choose(BotContext(seat=s, level=level, view=RULES.view(state, s), history=[], now_ms=5), random.Random(0))
    # an unknown level plays as normal
    BOT.choose(
        BotContext(seat=0, level="expert", view=RULES.view(state, 0), history=redacted_history(RULES, log, 0), now_ms=5),
        random.Random(0),
    )


def test_bot_never_flips_onto_a_pending_smack_card() -> None:
    # seat 1's smack card lies on top and seat 2 holds the turn: a flip would be smack_pending
    log, state = _scripted([[0, 1], [54, 3], [4, 5]], [(0, "flip", 100), (1, "flip", 900)])
    assert state["turn"] == 2
    for level in LEVEL_NAMES:
        move = _choose(log, state, 2, level)
        assert move is not None and move.action == {"kind": "smack"}, level


def test_bot_smacks_a_smack_card_flipped_as_the_last_card_of_a_round() -> None:
    # challenge by seat 0; seats 1 and 2 flip numbers, seat 0 closes the round with a smack card
    log, state = _scripted(
        [[50, 54, 0], [29, 2], [19, 3]], [(0, "flip", 100), (1, "flip", 900), (2, "flip", 1700), (0, "flip", 2500)]
    )
    assert state["challenge"] is not None and state["turn"] is None
    for level in LEVEL_NAMES:
        for seat in range(3):
            move = _choose(log, state, seat, level)
            assert move is not None and move.action == {"kind": "smack"}, (seat, level)
            assert 2500 + 160 <= move.at_ms <= 2500 + 2000
