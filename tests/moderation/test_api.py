"""Reports, the moderators' queue and actions, and what each action does to the player."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import User
from moderation import selectors
from moderation.models import ModerationAction, Report
from moderation.signals import user_banned
from tests.games.factories import started_table, user
from tests.moderation.factories import client, staff

pytestmark = pytest.mark.django_db






def test_a_report_is_201_once_per_reporter_and_player_and_409_while_open() -> None:
    ada, bea = user("ada"), user("bea")
    _, match, _ = started_table(players=2)
    r = client(ada).post("/api/reports/", {"username": "bea", "reason": "cheating", "match": match.pk, "text": "too fast"}, format="json")
    assert r.status_code == 201, r.content
    body = r.json()
    assert (body["username"], body["reason"], body["match"], body["text"], body["status"]) == ("bea", "cheating", match.pk, "too fast", "open")
    again = client(ada).post("/api/reports/", {"username": "bea", "reason": "abuse"}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "report_open"
    assert client(user("cy")).post("/api/reports/", {"username": "bea", "reason": "other"}, format="json").status_code == 201
    assert Report.objects.filter(reported=bea).count() == 2
    # once a moderator has dealt with it, the same reporter may report again
    client(staff()).post("/api/moderation/actions/", {"username": "bea", "action": "clear"}, format="json")
    assert client(ada).post("/api/reports/", {"username": "bea", "reason": "abuse"}, format="json").status_code == 201


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"username": "bea", "reason": "rude"}, 400, None),
        ({"username": "nobody", "reason": "other"}, 404, "unknown_player"),
        ({"username": "ada", "reason": "other"}, 400, "bad_report"),
        ({"username": "bea", "reason": "other", "match": 999999}, 404, "unknown_match"),
        ({"reason": "other"}, 400, None),
    ],
)
def test_bad_reports_are_refused(body: dict[str, Any], status: int, code: str | None) -> None:
    ada = user("ada")
    user("bea")
    r = client(ada).post("/api/reports/", body, format="json")
    assert r.status_code == status, r.content
    if code:
        assert r.json()["code"] == code
    assert not Report.objects.exists()


def test_anonymous_reports_are_401() -> None:
    user("bea")
    assert client(None).post("/api/reports/", {"username": "bea", "reason": "other"}, format="json").status_code == 401


@pytest.mark.parametrize("path", ["/api/moderation/queue/", "/api/moderation/actions/"])
def test_the_desk_is_staff_only(path: str) -> None:
    user("bea")
    body = {"username": "bea", "action": "ban"}
    anon = client(None).post(path, body, format="json") if path.endswith("actions/") else client(None).get(path)
    other = client(user("ada")).post(path, body, format="json") if path.endswith("actions/") else client(user("ada2")).get(path)
    assert anon.status_code == 401 and other.status_code == 403
    assert not ModerationAction.objects.exists() and User.objects.get(username="bea").is_active


def test_the_queue_lists_reported_players_with_the_reports_as_evidence() -> None:
    ada, cy = user("ada"), user("cy")
    user("bea")
    client(ada).post("/api/reports/", {"username": "bea", "reason": "abuse", "text": "insults"}, format="json")
    client(cy).post("/api/reports/", {"username": "bea", "reason": "cheating"}, format="json")
    client(ada).post("/api/reports/", {"username": "cy", "reason": "other"}, format="json")
    queue = client(staff()).get("/api/moderation/queue/").json()
    assert [(e["username"], e["reports"], e["flagged"], e["reasons"]) for e in queue] == [("bea", 2, False, []), ("cy", 1, False, [])]
    assert [r["reason"] for r in queue[0]["evidence"]["reports"]] == ["abuse", "cheating"]
    assert queue[0]["evidence"]["reports"][0]["text"] == "insults"


def test_warn_is_kept_with_who_and_when_and_shown_to_the_player() -> None:
    mod, bea = staff(), user("bea")
    r = client(mod).post("/api/moderation/actions/", {"username": "bea", "action": "warn", "note": "be kind in chat"}, format="json")
    assert r.status_code == 201
    assert (r.json()["action"], r.json()["by"], r.json()["note"]) == ("warn", "mod", "be kind in chat")
    taken = ModerationAction.objects.get()
    assert taken.by == mod and taken.created_at is not None
    mine = client(bea).get("/api/me/moderation/").json()
    assert mine["muted"] is False and [(a["action"], a["note"]) for a in mine["actions"]] == [("warn", "be kind in chat")]
    assert "by" not in mine["actions"][0]  # the player sees what and when, not which moderator
    assert client(None).get("/api/me/moderation/").status_code == 401


def test_mute_until_clear() -> None:
    mod, bea = staff(), user("bea")
    client(mod).post("/api/moderation/actions/", {"username": "bea", "action": "mute"}, format="json")
    assert selectors.user_is_muted(bea.pk) and client(bea).get("/api/me/moderation/").json()["muted"] is True
    client(mod).post("/api/moderation/actions/", {"username": "bea", "action": "clear"}, format="json")
    assert not selectors.user_is_muted(bea.pk)
    assert [a["action"] for a in client(bea).get("/api/me/moderation/").json()["actions"]] == ["clear", "mute"]


def test_ban_deactivates_sends_the_signals_after_commit_and_clear_lifts_it(django_capture_on_commit_callbacks: Any) -> None:
    from accounts.signals import credentials_changed

    mod, bea = staff(), user("bea")
    seen: list[tuple[str, str]] = []

    def on_ban(sender: Any, user: User, **kwargs: Any) -> None:
        seen.append(("banned", user.username))

    def on_credentials(sender: Any, user: User, **kwargs: Any) -> None:
        seen.append(("credentials", user.username))

    user_banned.connect(on_ban)
    credentials_changed.connect(on_credentials)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            r = client(mod).post("/api/moderation/actions/", {"username": "bea", "action": "ban"}, format="json")
    finally:
        user_banned.disconnect(on_ban)
        credentials_changed.disconnect(on_credentials)
    assert r.status_code == 201
    assert ("banned", "bea") in seen and ("credentials", "bea") in seen
    bea.refresh_from_db()
    assert bea.is_active is False
    assert client(bea).get("/api/me/moderation/").status_code == 401  # the token of an inactive account works no more
    client(mod).post("/api/moderation/actions/", {"username": "bea", "action": "clear"}, format="json")
    bea.refresh_from_db()
    assert bea.is_active is True


@pytest.mark.parametrize("body", [{"username": "bea", "action": "smite"}, {"username": "nobody", "action": "warn"}, {"action": "warn"}])
def test_bad_actions_are_refused(body: dict[str, Any]) -> None:
    user("bea")
    r = client(staff()).post("/api/moderation/actions/", body, format="json")
    assert r.status_code in (400, 404)
    assert not ModerationAction.objects.exists()


def test_a_moderator_does_not_ban_themselves() -> None:
    mod = staff()
    assert client(mod).post("/api/moderation/actions/", {"username": "mod", "action": "ban"}, format="json").status_code == 400
    mod.refresh_from_db()
    assert mod.is_active
