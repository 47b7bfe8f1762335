"""PROTOCOL.md "Leaving a match": `POST /api/tables/<id>/resign/` and what a resignation does to the match."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from accounts.services import token_for
from games import errors
from games.kit.registry import get_rules
from games.kit.resignation import place_resigned
from games.models import Match, Seat, Table
from games.services.actions import action_submit
from games.services.tables import table_create, table_create_for, table_play_now, table_resign
from stats.models import RatingChange
from tests.conftest import run_jobs
from tests.games.factories import user

pytestmark = pytest.mark.django_db(transaction=True)


def client_of(person: object | None) -> APIClient:
    c = APIClient()
    if person is not None:
        c.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user=person)}")
    return c


def resign(person: object | None, table: Table) -> tuple[int, dict]:
    r = client_of(person).post(f"/api/tables/{table.pk}/resign/", format="json")
    return r.status_code, r.json()


def three_players(ranked: bool = False) -> tuple[Table, Match, list]:
    people = [user(n) for n in ("ada", "bea", "cy")]
    table = table_create_for(
        organiser=people[0], game="tiny", players=[(p, "") for p in people], options={"hand": 3, "turn_seconds": 1}, ranked=ranked,
    )
    return table, Match.objects.get(table=table), people


def test_the_resigner_is_placed_last_and_a_bot_plays_the_seat_on(clock) -> None:
    table, match, (ada, bea, cy) = three_players()
    code, body = resign(ada, table)  # seat 0 plays first: it would be the first out of cards, the winner
    assert code == 200, body
    assert body["id"] == table.pk and body["status"] == "playing"
    assert {p["username"]: p["zombie"] for p in body["players"]}["ada"] is True
    seat = Seat.objects.get(table=table, user=ada)
    assert seat.withdrawn and seat.zombie
    match.refresh_from_db()
    resigned = [e for e in match.events.values("kind", "seat", "data") if e["kind"] == "resigned"]
    assert resigned == [{"kind": "resigned", "seat": 0, "data": {}}]
    run_jobs(clock)  # the bot plays seat 0, the timers play the others' turns
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    places = {p["seat"]: p["place"] for p in match.outcome["placements"]}
    assert places[0] == 3 and max(places[1], places[2]) < 3
    assert 0 not in match.outcome["winners"]
    assert {"seat": 0, "code": "resigned"} in match.outcome["reasons"]
    assert dict(match.players.values_list("seat", "place"))[0] == 3


def test_a_resigner_acting_later_is_refused_and_cannot_resign_twice(clock) -> None:
    table, match, (ada, bea, cy) = three_players()
    assert resign(bea, table)[0] == 200
    code, body = resign(bea, table)
    assert code == 409 and body["code"] == "resigned"
    with pytest.raises(errors.PlatformError) as e:
        action_submit(match_id=match.pk, seat=1, action={"kind": "slap"}, action_id="late")
    assert e.value.code == "withdrawn"


def test_a_ranked_resignation_is_a_loss(clock) -> None:
    table, match, (ada, bea, cy) = three_players(ranked=True)
    assert resign(ada, table)[0] == 200
    run_jobs(clock)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    change = RatingChange.objects.get(match=match, user=ada)
    assert change.place == 3 and change.mu < change.mu_before
    seats = {s["username"]: s for s in client_of(None).get(f"/api/matches/{match.pk}/").json()["seats"]}
    assert seats["ada"]["rating"]["after"] < seats["ada"]["rating"]["before"]  # the results view's figures
    assert all(s["rating"] is not None for s in seats.values())


def test_refusals_change_nothing(clock) -> None:
    table, match, (ada, bea, cy) = three_players()
    stranger = user("stranger")
    code, body = resign(stranger, table)
    assert code == 403 and body["code"] == "not_seated"
    assert resign(None, table)[0] in (401, 403)
    assert not match.events.filter(kind="resigned").exists()
    assert not Seat.objects.filter(table=table, withdrawn=True).exists()
    run_jobs(clock)  # the match ends on its own
    code, body = resign(ada, table)
    assert code == 409 and body["code"] == "not_live"
    open_table = table_create(host=stranger, game="tiny", seats=2)
    code, body = resign(stranger, open_table)
    assert code == 409 and body["code"] == "not_live"
    assert client_of(ada).post("/api/tables/999999/resign/").status_code == 404


def test_the_replay_shows_the_resignation(clock) -> None:
    table, match, (ada, bea, cy) = three_players()
    resign(cy, table)
    live = client_of(ada).get(f"/api/matches/{match.pk}/timeline/?perspective=spectator").json()
    assert [(e["kind"], e["seat"]) for e in live["events"] if e.get("kind") == "resigned"] == [("resigned", 2)]
    run_jobs(clock)
    after = client_of(None).get(f"/api/matches/{match.pk}/timeline/?perspective=all").json()
    assert [e["seat"] for e in after["events"] if e.get("kind") == "resigned"] == [2]


def test_a_real_game_resigned_from_play_now_ends_with_the_player_last(clock) -> None:
    """ZACK! through the kit (games/engine.GameRules): the bots play the match out, the resigner placed last."""
    ann = user("ann")
    table = table_play_now(user=ann, game="zack")
    table_resign(table_id=table.pk, user=ann)
    run_jobs(clock)
    match = Match.objects.get(pk=table.current_match_id)
    assert match.status == Match.Status.FINISHED
    last = max(p["place"] for p in match.outcome["placements"])
    assert {p["seat"]: p["place"] for p in match.outcome["placements"]}[0] == last
    rules = get_rules("zack")
    assert rules.view(match.state, 0)["outcome"]["placements"] == match.outcome["placements"]


def test_placing_keeps_ties_orders_several_resigners_and_forfeits_a_team() -> None:
    outcome = {
        "placements": [{"seat": 0, "place": 1, "score": 9}, {"seat": 1, "place": 2, "score": 5}, {"seat": 2, "place": 2, "score": 5},
                       {"seat": 3, "place": 4, "score": 1}],
        "winners": [0],
    }
    once = place_resigned(outcome, [0], 4)
    assert [(p["seat"], p["place"], p["score"]) for p in once["placements"]] == [(1, 1, 5), (2, 1, 5), (3, 3, 1), (0, 4, 9)]
    assert once["winners"] == [1, 2] and once["reasons"] == [{"seat": 0, "code": "resigned"}]
    assert place_resigned(once, [0], 4) is once  # folding again changes nothing
    twice = place_resigned(outcome, [3, 1], 4)  # 3 left first: placed after 1
    assert [(p["seat"], p["place"]) for p in twice["placements"]] == [(0, 1), (2, 2), (1, 3), (3, 4)]
    teams = {"placements": [{"seat": s, "place": 1 if s % 2 == 0 else 2} for s in range(4)], "winners": [0, 2]}
    lost = place_resigned(teams, [2], 4, teams=True)  # seat 2's team (0 and 2) forfeits
    assert {p["seat"]: p["place"] for p in lost["placements"]} == {1: 1, 3: 1, 0: 2, 2: 2}
    assert lost["winners"] == [1, 3]


def test_a_zwicker_caller_placed_last_says_why() -> None:
    from games.zwicker.rules import compute_outcome

    assert compute_outcome([4, 4, 9], 0)["reasons"] == [{"seat": 0, "code": "caller_tied", "limit": 5}]
    assert compute_outcome([6, 9, 9], 0)["reasons"] == [{"seat": 0, "code": "caller_over_limit", "limit": 5}]
    assert compute_outcome([4, 2, 9], 0)["reasons"] == [{"seat": 0, "code": "caller_beaten", "limit": 5}]
    assert "reasons" not in compute_outcome([3, 4, 9], 0)  # the caller won: nothing to explain


@pytest.mark.parametrize("slug", ["zack", "zwicker", "zigzag", "smackit"])
def test_only_the_platform_resigns_a_seat_in_every_game(slug: str) -> None:
    """The kit's check (games/engine.py): a seat's own `resign` is refused; the system's is one public event."""
    import random

    from games.engine import RuleError, fold_all

    rules = get_rules(slug)
    seats = 4
    state = fold_all(rules, rules.setup(seats, {}, random.Random(1)))
    with pytest.raises(RuleError) as e:
        rules.decide(state, 0, {"kind": "resign", "seat": 1}, 10, random.Random(1))
    assert e.value.code == "bad_action"
    events = rules.decide(state, None, {"kind": "resign", "seat": 1}, 10, random.Random(1))
    assert events == [{"kind": "resigned", "seat": 1, "data": {}}]
    after = rules.fold(state, events[0])
    assert after["resigned"] == [1] and rules.redact(events[0], 2) == events[0]
    with pytest.raises(RuleError) as e:
        rules.decide(after, None, {"kind": "resign", "seat": 1}, 20, random.Random(1))
    assert e.value.code == "resigned"
    rules.view(after, 0)  # every game still draws the table
