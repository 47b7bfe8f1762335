"""Statistics from hand-built event logs whose answers are known (pure, no database)."""

from __future__ import annotations

from typing import Any

import pytest

from games.kit.registry import get_bot, get_rules
from stats.figures import (
    figures,
    first_player,
    hist_mean,
    hist_median,
    match_figures,
    tally_add_match,
    tally_add_seat,
    tally_empty,
)
from tests.support.simulate import play_bots


def log(*events: tuple[int, str, int | None, dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"seq": i + 1, "t_ms": t, "kind": k, "seat": s, "data": d} for i, (t, k, s, d) in enumerate(events)]


def outcome(places: list[int]) -> dict[str, Any]:
    return {"placements": [{"seat": s, "place": p} for s, p in enumerate(places)], "winners": [s for s, p in enumerate(places) if p == 1]}


def thrown(t: int, seat: int, expected: int, nxt: int | None) -> tuple[int, str, int, dict[str, Any]]:
    return (t, "thrown", seat, {"card": {"id": t, "face": "links"}, "out_of_turn": seat != expected, "expected": expected, "next": nxt, "at": t})


def challenged(t: int, by: int, target: int, result: str, reason: str, nxt: int) -> tuple[int, str, int, dict[str, Any]]:
    return (t, "challenged", by, {"by": by, "target_seat": target, "result": result, "reason": reason, "next": nxt, "at": t})


ZACK_LOG = log(
    (0, "dealt", None, {"first": 0, "dealer": 2}),
    thrown(800, 0, 0, 1),  # the first throw: its turn came from the deal, no reaction
    thrown(1400, 1, 1, 2),  # seat 1 reacts to seat 0's card: 600 ms
    thrown(1500, 0, 2, 1),  # out of turn
    challenged(2000, 1, 0, "success", "wrong_turn", 1),  # catches seat 0's card
    thrown(2900, 1, 1, 2),  # its turn came from the challenge: no reaction
    thrown(3900, 2, 2, 0),  # 1000 ms
    thrown(4100, 1, 0, 2),  # out of turn, never caught
    thrown(4400, 2, 2, 0),  # 300 ms
    challenged(6000, 2, 0, "success", "slow", 2),  # seat 0 too slow
    challenged(6500, 0, 1, "fail", "none", 1),  # seat 0 challenges seat 1 and fails
    (6600, "colour_thrown", 2, {"colour": "yellow", "win": False}),  # a colour card error
    thrown(7000, 1, 1, 1),  # a Stop card of its own sends seat 1 again...
    thrown(9000, 1, 1, 0),  # ...and that is no reaction either
    thrown(9100, 0, 2, 2),  # out of turn A
    thrown(9200, 2, 2, 0),  # (reaction to seat 0's card although it came out of turn: 100 ms)
    thrown(9300, 0, 1, 1),  # out of turn B
    thrown(9400, 1, 1, 2),  # seat 1 reacts: 100 ms
    thrown(9500, 2, 2, 0),  # 100 ms
    thrown(9600, 1, 0, 0),  # out of turn, pushes A out of the four topmost cards
    challenged(9700, 2, 0, "success", "wrong_turn", 2),  # top four: B (seat 0), seat 1, seat 2, seat 1 -> 1 caught
    (9800, "colour_thrown", 0, {"colour": "red", "win": True}),
    (9800, "finished", None, {}),
)


def test_zack_reactions_challenges_and_out_of_turn_throws() -> None:
    m = match_figures("zack", ZACK_LOG, 3, outcome([1, 2, 3]))
    s0, s1, s2 = m.per_seat
    assert s1.samples["reaction_ms"] == [600, 100]
    assert s2.samples["reaction_ms"] == [1000, 300, 100, 100]
    assert "reaction_ms" not in s0.samples
    assert s0.counts["out_of_turn_throws"] == 3 and s0.counts["out_of_turn_caught"] == 2
    assert s1.counts["out_of_turn_throws"] == 2 and "out_of_turn_caught" not in s1.counts
    assert s1.counts["challenges_won_wrong_turn"] == 1 and s2.counts["challenges_won_wrong_turn"] == 1
    assert s2.counts["challenges_won_slow"] == 1
    assert s0.counts["challenged_caught_slow"] == 1 and s0.counts["challenged_caught_wrong_turn"] == 2
    assert s0.counts["challenges_lost"] == 1 and s1.counts["challenged_survived"] == 1
    assert s2.counts["colour_errors"] == 1 and "colour_errors" not in s0.counts
    assert (m.events, m.duration_ms, [f.position for f in m.per_seat]) == (len(ZACK_LOG), 9800, [0, 1, 2])
    fig = figures(tally_add_seat(tally_empty(), m, s2), "zack")
    assert fig["reaction_median_ms"] == 200  # (100 + 300) / 2
    assert fig["challenges_won_slow"] == 1 and fig["won"] == 0 and fig["average_place"] == 3


ZWICKER_LOG = log(
    (0, "dealt", None, {"first": 1, "dealer": 0}),
    (100, "used", 1, {"power": "look_own"}),
    (200, "snapped", 2, {}),
    (300, "snap_wrong", 0, {}),
    (310, "snap_taken_back", 1, {}),
    (400, "used", 2, {"power": "king"}),
    (500, "snapped", 2, {}),
    (600, "called", 1, {}),
    (700, "used", 1, {"power": "blind_swap"}),
    (900, "revealed", None, {"totals": [12, 3, 20]}),
    (900, "finished", None, {}),
)


def test_zwicker_calls_snaps_powers_and_totals() -> None:
    m = match_figures("zwicker", ZWICKER_LOG, 3, {"placements": [{"seat": 1, "place": 1}, {"seat": 0, "place": 2}, {"seat": 2, "place": 3}], "winners": [1]})
    s0, s1, s2 = m.per_seat
    assert s1.counts == {"powers_used": 2, "powers_look_own": 1, "powers_blind_swap": 1, "snaps_taken_back": 1, "calls_won": 1}
    assert s2.counts == {"snaps_right": 2, "powers_used": 1, "powers_king": 1}
    assert s0.counts == {"snaps_wrong": 1}
    assert [f.samples["final_total"] for f in m.per_seat] == [[12], [3], [20]]
    assert [f.position for f in m.per_seat] == [2, 0, 1]
    lost = match_figures("zwicker", ZWICKER_LOG, 3, {"placements": [{"seat": 0, "place": 1}, {"seat": 2, "place": 2}, {"seat": 1, "place": 3}], "winners": [0]})
    assert lost.per_seat[1].counts["calls_lost"] == 1 and "calls_won" not in lost.per_seat[1].counts
    tally = tally_empty()
    for f in m.per_seat:
        tally_add_seat(tally, m, f)
    assert figures(tally, "zwicker")["average_final_total"] == pytest.approx(35 / 3)


SMACKIT_LOG = log(
    (0, "dealt", None, {"first": 0, "dealer": 2}),
    (1000, "smacked", 0, {"result": "win", "reaction_ms": 420}),
    (1080, "smacked", 1, {"result": "ignored", "behind_ms": 80, "winner": 0}),  # 420 + 80
    (1100, "smacked", 0, {"result": "ignored", "behind_ms": 100, "winner": 0}),  # its own double smack
    (1500, "smacked", 2, {"result": "false"}),
    (2000, "pile_won", 1, {"by": "challenge"}),
    (2500, "pile_won", 0, {"by": "smack"}),
    (3000, "smacked", 1, {"result": "win", "reaction_ms": 300}),
    (3200, "finished", None, {}),
)


def test_smackit_smacks_reactions_and_challenge_rounds() -> None:
    m = match_figures("smackit", SMACKIT_LOG, 3, outcome([1, 2, 3]))
    s0, s1, s2 = m.per_seat
    assert s0.counts == {"smacks_won": 1, "late_smacks": 1} and s0.samples["smack_reaction_ms"] == [420]
    assert s1.counts == {"late_smacks": 1, "challenge_rounds_won": 1, "smacks_won": 1}
    assert s1.samples["smack_reaction_ms"] == [500, 300]
    assert s2.counts == {"false_smacks": 1} and not s2.samples
    assert figures(tally_add_seat(tally_empty(), m, s1), "smackit")["smack_reaction_median_ms"] == 400


ZIGZAG_LOG = log(
    (0, "dealt", None, {"dealer": 1, "seats": 4}),
    (100, "signalled", 0, {"sign": "zig", "partner": 2}),
    (150, "signalled", 0, {"sign": "zag", "partner": 2}),
    (160, "signalled", 2, {"sign": "zig", "partner": 0}),
    (200, "announced", 1, {"combo": "zag", "team": 1, "correct": False}),
    (300, "countered", 3, {"team": 0, "by": 1, "confirmed": True}),
    (400, "countered", 2, {"team": 1, "by": 0, "confirmed": False, "failed": 1}),
    (500, "announced", 2, {"combo": "zig", "team": 0, "correct": True}),
    (500, "manche_ended", None, {"team": 0, "combo": "zig"}),
    (600, "dealt", None, {"dealer": 1, "seats": 4}),  # the next manche is dealt again
    (700, "announced", 3, {"combo": "zigzag", "team": 1, "correct": True}),
    (700, "manche_ended", None, {"team": 1, "combo": "zigzag"}),
    (800, "announced", 0, {"combo": "zag", "team": 0, "correct": True}),
    (800, "manche_ended", None, {"team": 0, "combo": "zag"}),
)


def test_zigzag_combinations_announcements_counters_and_signs() -> None:
    m = match_figures("zigzag", ZIGZAG_LOG, 4, outcome([1, 2, 1, 2]))
    s0, s1, s2, s3 = m.per_seat
    assert s0.counts == {"signs_sent": 2, "countered_against": 1, "combinations_scored": 2, "announcements_correct": 1}
    assert s2.counts == {"signs_sent": 1, "countered_against": 1, "counters_failed": 1, "announcements_correct": 1, "combinations_scored": 2}
    assert s1.counts == {"false_announcements": 1, "combinations_scored": 1}
    assert s3.counts == {"counters_confirmed": 1, "announcements_correct": 1, "combinations_scored": 1}
    assert [f.position for f in m.per_seat] == [2, 3, 0, 1]  # the first player sits left of dealer 1
    assert [f.won for f in m.per_seat] == [True, False, True, False]


def test_first_player_from_the_deal_or_the_dealer() -> None:
    assert first_player(log((0, "dealt", None, {"first": 2})), 4) == 2
    assert first_player(log((0, "dealt", None, {"dealer": 3})), 4) == 0
    assert first_player(log((0, "dealt", None, {"options": {"dealer": 1}})), 4) == 2
    assert first_player(log((0, "dealt", None, {})), 4, {"dealer": -1}) == 0


def test_medians_and_means_from_histograms() -> None:
    assert hist_median({}) is None and hist_mean({}) is None
    assert hist_median({"5": 1}) == 5
    assert hist_median({"1": 1, "9": 1, "3": 1}) == 3
    assert hist_median({"1": 2, "10": 2}) == 5.5
    assert hist_median({"7": 3, "100": 1}) == 7
    assert hist_median({"2": 1, "3": 0, "8": 1, "20": 1, "40": 1}) == 14
    assert hist_mean({"2": 1, "8": 3}) == 6.5


def test_tallies_add_general_figures_and_seat_positions() -> None:
    a = match_figures("zack", ZACK_LOG, 3, outcome([1, 2, 3]))
    b = match_figures("zack", log((0, "dealt", None, {"first": 1}), (4000, "finished", None, {})), 3, outcome([2, 1, 2]))
    player = tally_empty()
    tally_add_seat(player, a, a.per_seat[0])  # position 0, won
    tally_add_seat(player, b, b.per_seat[0])  # position 2, place 2
    fig = figures(player, "zack")
    assert (fig["played"], fig["won"], fig["win_rate"], fig["average_place"]) == (2, 1, 0.5, 1.5)
    assert fig["average_events"] == (len(ZACK_LOG) + 2) / 2 and fig["average_seconds"] == pytest.approx((9.8 + 4.0) / 2)
    assert [(p["position"], p["played"], p["won"]) for p in fig["positions"]] == [(1, 1, 1), (2, 0, 0), (3, 1, 0)]
    game = tally_add_match(tally_add_match(tally_empty(), a), b)
    gfig = figures(game, "zack")
    assert gfig["played"] == 2 and gfig["average_place"] == pytest.approx((1 + 2 + 3 + 2 + 1 + 2) / 6)
    assert [(p["position"], p["won"]) for p in gfig["positions"]] == [(1, 2), (2, 0), (3, 0)]
    assert gfig["out_of_turn_throws"] == 5 and gfig["reaction_median_ms"] == 200  # 100 100 100 | 300 600 1000


@pytest.mark.parametrize(("game", "levels"), [("zack", ["easy", "normal", "hard"]), ("zwicker", ["easy", "hard", "normal"]), ("smackit", ["hard", "easy", "normal"]), ("zigzag", ["hard", "easy", "normal", "easy"])])
def test_real_bot_logs_agree_with_their_events(game: str, levels: list[str]) -> None:
    report = play_bots(get_rules(game), get_bot(game), levels, seed=7)
    assert report.outcome is not None
    log_ = report.log
    m = match_figures(game, log_, len(levels), report.outcome)
    counts = [f.counts for f in m.per_seat]
    total = {k: sum(c.get(k, 0) for c in counts) for k in {k for c in counts for k in c}}
    kinds = [e["kind"] for e in log_]
    if game == "zack":
        assert total.get("out_of_turn_throws", 0) == sum(1 for e in log_ if e["kind"] == "thrown" and e["data"]["out_of_turn"])
        assert total.get("out_of_turn_caught", 0) <= total.get("out_of_turn_throws", 0)
        assert sum(len(f.samples.get("reaction_ms", [])) for f in m.per_seat) <= kinds.count("thrown")
    elif game == "zwicker":
        assert total.get("powers_used", 0) == kinds.count("used")
        assert sorted(f.samples["final_total"][0] for f in m.per_seat) == sorted(p["score"] for p in report.outcome["placements"])
    elif game == "smackit":
        assert total.get("smacks_won", 0) == sum(1 for e in log_ if e["kind"] == "smacked" and e["data"]["result"] == "win")
    else:
        assert total.get("combinations_scored", 0) == 2 * kinds.count("manche_ended")
        assert total.get("signs_sent", 0) == kinds.count("signalled")
    assert [f.won for f in m.per_seat] == [s in report.outcome["winners"] for s in range(len(levels))]
