"""The replay API of PROTOCOL.md: perspectives and who may see them, live and after the end; bad input."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.services import bot_user
from games.engine import fold_all
from games.models import Match
from games.services.matches import match_abort
from replays import api, selectors
from tests.games.factories import user
from tests.replays.replay_support import client, plain, play_tiny_to_the_end, stored_log, tiny_match
from tests.support.tinygame import RULES

pytestmark = pytest.mark.django_db

ENDPOINTS = ("timeline", "state")


def status_of(c: Any, match: Match, endpoint: str, perspective: str) -> int:
    return c.get(f"/api/matches/{match.pk}/{endpoint}/?perspective={perspective}").status_code


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_live_match_perspectives(endpoint: str) -> None:
    match, (ann, bob) = tiny_match(players=2, bots=1)
    outsider = user("outsider")
    anonymous, as_ann, as_bob, as_outsider = client(), client(ann), client(bob), client(outsider)
    expected = {
        # (client, perspective): status — PROTOCOL.md: live, anyone spectator, a seated player its own seat only.
        (anonymous, "spectator"): 200,
        (anonymous, "seat:0"): 403,
        (anonymous, "seat:2"): 403,
        (anonymous, "all"): 403,
        (as_ann, "spectator"): 200,
        (as_ann, "seat:0"): 200,
        (as_ann, "seat:1"): 403,
        (as_ann, "seat:2"): 403,
        (as_ann, "all"): 403,
        (as_bob, "seat:1"): 200,
        (as_bob, "seat:0"): 403,
        (as_outsider, "seat:0"): 403,
        (as_outsider, "spectator"): 200,
    }
    got = {key: status_of(key[0], match, endpoint, key[1]) for key in expected}
    assert got == expected
    refused = anonymous.get(f"/api/matches/{match.pk}/{endpoint}/?perspective=all").json()
    assert refused["code"] == "forbidden_perspective" and "over" in refused["detail"]


@pytest.mark.parametrize("endpoint", ENDPOINTS)
@pytest.mark.parametrize("ending", ["finished", "aborted"])
def test_every_perspective_is_open_to_everyone_once_over(endpoint: str, ending: str) -> None:
    match, (ann, _) = tiny_match(players=2, bots=1)
    if ending == "finished":
        play_tiny_to_the_end(match)
    else:
        match_abort(match_id=match.pk, by=ann)
    match.refresh_from_db()
    assert match.status == ending
    for c in (client(), client(ann), client(user("late-visitor"))):
        for perspective in ("spectator", "all", "seat:0", "seat:1", "seat:2"):
            assert status_of(c, match, endpoint, perspective) == 200, (perspective, ending)


def test_live_seat_timeline_and_state_show_that_seat_only() -> None:
    match, (ann, _) = tiny_match(players=2, hand=4)
    log = stored_log(match)
    own = client(ann).get(f"/api/matches/{match.pk}/timeline/?perspective=seat:0").json()
    assert own["perspective"] == "seat:0" and own["match"] == match.pk and own["next"] is None
    hands = own["events"][0]["data"]["hands"]
    assert hands[0] == log[0]["data"]["hands"][0] and hands[1] == 4  # the other hand is a count
    spectator = client().get(f"/api/matches/{match.pk}/timeline/").json()
    assert spectator["perspective"] == "spectator" and spectator["events"][0]["data"]["hands"] == [4, 4]
    state = client(ann).get(f"/api/matches/{match.pk}/state/?perspective=seat:0").json()
    assert state == {"seq": match.seq, "view": RULES.view(match.state, 0)}
    assert "state" not in client().get(f"/api/matches/{match.pk}/state/").json()


def test_all_after_the_end_returns_the_raw_state_and_the_unredacted_log() -> None:
    match, _ = tiny_match(players=3, hand=2, finish=True)
    log = stored_log(match)
    for k in range(1, match.seq + 1):
        got = client().get(f"/api/matches/{match.pk}/state/?at={k}&perspective=all").json()
        folded = fold_all(RULES, plain(log[:k]))
        assert got["seq"] == k and got["state"] == folded and got["view"] == RULES.view_all(folded)
    timeline = client().get(f"/api/matches/{match.pk}/timeline/?perspective=all").json()
    assert timeline["events"] == log and timeline["next"] is None


def test_timeline_pages_with_next_cover_the_log_once() -> None:
    match, _ = tiny_match(players=2, hand=5, finish=True)
    log = stored_log(match)
    got, after, pages = [], 0, 0
    while after is not None and pages <= len(log):  # a `next` that never ends fails instead of looping
        page = client().get(f"/api/matches/{match.pk}/timeline/?perspective=all&from={after}&limit=3").json()
        assert len(page["events"]) <= 3
        got += page["events"]
        after, pages = page["next"], pages + 1
    assert got == log and pages == -(-len(log) // 3)
    tail = client().get(f"/api/matches/{match.pk}/timeline/?from={match.seq}").json()
    assert tail["events"] == [] and tail["next"] is None


def test_large_limit_is_capped_and_default_applies(monkeypatch: pytest.MonkeyPatch) -> None:
    match, _ = tiny_match(players=2, hand=4, finish=True)
    monkeypatch.setattr(selectors, "MAX_LIMIT", 3)
    capped = client().get(f"/api/matches/{match.pk}/timeline/?limit=1000000000").json()
    assert [e["seq"] for e in capped["events"]] == [1, 2, 3] and capped["next"] == 3
    monkeypatch.setattr(selectors, "MAX_LIMIT", 1000)
    monkeypatch.setattr(selectors, "DEFAULT_LIMIT", 2)
    default = client().get(f"/api/matches/{match.pk}/timeline/?from=1").json()
    assert [e["seq"] for e in default["events"]] == [2, 3] and default["next"] == 3


@pytest.mark.parametrize(
    ("endpoint", "query", "code", "says"),
    [
        ("timeline", "perspective=god", "bad_perspective", "perspective"),
        ("timeline", "perspective=seat:", "bad_perspective", "perspective"),
        ("timeline", "perspective=seat:x", "bad_perspective", "perspective"),
        ("timeline", "perspective=seat:-1", "bad_perspective", "perspective"),
        ("timeline", "perspective=seat:%D9%A3", "bad_perspective", "perspective"),  # an Arabic-Indic digit
        ("timeline", "perspective=seat:7", "bad_perspective", "0 to 1"),
        ("state", "perspective=seat:2", "bad_perspective", "0 to 1"),
        ("timeline", "from=-1", "bad_from", "from"),
        ("timeline", "from=x", "bad_from", "from"),
        ("timeline", "from=1.5", "bad_from", "from"),
        ("timeline", "from=+1", "bad_from", "from"),
        ("timeline", "from=99999999999999999999", "bad_from", "from"),
        ("timeline", "from=SEQ+1", "bad_from", "from"),
        ("timeline", "limit=0", "bad_limit", "limit"),
        ("timeline", "limit=-5", "bad_limit", "limit"),
        ("timeline", "limit=ten", "bad_limit", "limit"),
        ("state", "at=0", "bad_at", "at"),
        ("state", "at=SEQ+1", "bad_at", "at"),
        ("state", "at=last", "bad_at", "at"),
    ],
)
def test_bad_parameters_are_400_saying_which(endpoint: str, query: str, code: str, says: str) -> None:
    match, _ = tiny_match(players=2, finish=True)
    query = query.replace("SEQ+1", str(match.seq + 1))
    r = client().get(f"/api/matches/{match.pk}/{endpoint}/?{query}")
    assert r.status_code == 400
    assert r.json()["code"] == code and says in r.json()["detail"]


@pytest.mark.parametrize("path", ["", "timeline/", "state/", "export/", "state/?at=1", "timeline/?perspective=all"])
def test_unknown_match_is_404(path: str) -> None:
    r = client().get(f"/api/matches/987654/{path}")
    assert r.status_code == 404 and r.json()["detail"]


def test_summary_has_the_protocol_fields() -> None:
    match, (ann, bob) = tiny_match(players=2, bots=1, finish=True)
    s = client().get(f"/api/matches/{match.pk}/").json()
    assert {"id", "game", "table", "status", "seats", "options", "started_at", "ended_at", "outcome", "event_count"} <= set(s)
    assert s["id"] == match.pk and s["game"] == "tiny" and s["status"] == "finished" and s["event_count"] == match.seq
    assert [(p["seat"], p["username"], p["bot"]) for p in s["seats"]] == [(0, ann.username, False), (1, bob.username, False), (2, bot_user(slug="tiny", level="normal").username, True)]
    assert s["outcome"] == match.outcome and s["ended_at"] is not None


def test_export_only_once_over() -> None:
    match, _ = tiny_match(players=2)
    r = client().get(f"/api/matches/{match.pk}/export/")
    assert r.status_code == 409 and r.json()["code"] == "match_live"
    play_tiny_to_the_end(match)
    doc = client().get(f"/api/matches/{match.pk}/export/").json()
    assert doc["format"] == selectors.EXPORT_FORMAT and doc["game"] == "tiny" and doc["status"] == "finished"
    assert doc["events"] == stored_log(match) and doc["event_count"] == match.seq
    assert doc["outcome"] == Match.objects.get(pk=match.pk).outcome


# --- the match list ---------------------------------------------------------------------


@pytest.fixture
def several() -> dict[str, Any]:
    live, (ann, bob) = tiny_match(players=2)
    finished, (cid, _) = tiny_match(players=2, finish=True)
    aborted, (dan, _) = tiny_match(players=2)
    match_abort(match_id=aborted.pk, by=dan)
    return {"live": live, "finished": finished, "aborted": aborted, "ann": ann, "cid": cid}


def ids(response: Any) -> list[int]:
    return [m["id"] for m in response.json()["results"]]


def test_match_list_filters_and_paginates(several: dict[str, Any]) -> None:
    c = client()
    everything = c.get("/api/matches/").json()
    assert everything["count"] == 3
    assert [m["id"] for m in everything["results"]] == sorted((m.pk for m in (several["live"], several["finished"], several["aborted"])), reverse=True)
    for status in ("live", "finished", "aborted"):
        assert ids(c.get(f"/api/matches/?status={status}")) == [several[status].pk]
    assert ids(c.get(f"/api/matches/?player={several['ann'].username}")) == [several["live"].pk]
    assert ids(c.get(f"/api/matches/?player={several['cid'].username}&status=live")) == []
    assert ids(c.get("/api/matches/?game=tiny&status=finished")) == [several["finished"].pk]
    assert ids(c.get("/api/matches/?game=zack")) == []
    page = c.get("/api/matches/?limit=1&offset=1").json()
    assert page["count"] == 3 and len(page["results"]) == 1 and page["next"] and page["previous"]
    assert page["results"][0]["id"] == everything["results"][1]["id"]


def test_match_list_page_size_is_capped(several: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(api.MatchPagination, "max_limit", 2)
    assert len(client().get("/api/matches/?limit=100000").json()["results"]) == 2


@pytest.mark.parametrize(
    ("query", "code"),
    [("status=over", "bad_status"), ("game=chess", "bad_game"), ("limit=x", "bad_limit"), ("limit=0", "bad_limit"), ("offset=-1", "bad_offset")],
)
def test_match_list_bad_filters_are_400(query: str, code: str) -> None:
    r = client().get(f"/api/matches/?{query}")
    assert r.status_code == 400 and r.json()["code"] == code
