"""PROTOCOL.md "People", the account's own calls: me, settings, password change and reset, export, deletion.

Mail goes through a real SMTP server (aiosmtpd, tests/support/smtp.py) via Django's SMTP backend and the
`accounts.send_mail` task, run from the test's queue."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import User
from accounts.self_service import link_uid
from accounts.services import token_for
from accounts.signals import credentials_changed
from games.models import ChatMessage, Match
from games.services.chat import chat_post
from moderation.models import Report
from people.models import Block, Follow
from tests.conftest import run_jobs
from tests.games.factories import started_table, user

pytestmark = pytest.mark.django_db(transaction=True)  # mail and signals leave after the commit, as in production

PASSWORD = "correct horse 42"
NEW_PASSWORD = "battery staple 99"


def api_as(who: User) -> APIClient:
    c = APIClient()
    c.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user=who)}")
    return c


def person(name: str, email: str = "") -> User:
    u = user(name)
    if email:
        u.email = email
        u.save(update_fields=["email"])
    return u


def reset_link(body: str) -> tuple[str, str]:
    found = re.search(r"/reset/([^/\s]+)/([^/\s]+)/", body)
    assert found, body
    return found.group(1), found.group(2)


# --- GET / PATCH /api/me/ ---------------------------------------------------------------------------


def test_me_answers_the_contract_fields_and_patch_changes_them() -> None:
    ana = person("ana", "ana@example.org")
    c = api_as(ana)
    me = c.get("/api/me/").json()
    assert {k: me[k] for k in ("id", "username", "email", "language")} == {
        "id": ana.pk,
        "username": "ana",
        "email": "ana@example.org",
        "language": "",
    }
    assert me["date_joined"].startswith(str(ana.date_joined.year))
    r = c.patch("/api/me/", {"language": "de", "sounds": False, "notifications": False}, format="json")
    assert (
        r.status_code == 200
        and r.json()["language"] == "de"
        and r.json()["sounds"] is False
        and r.json()["notifications"] is False
    )
    ana.refresh_from_db()
    assert (ana.language, ana.sounds, ana.notifications) == ("de", False, False)
    bad = c.patch("/api/me/", {"language": "xx"}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "bad_language"
    assert c.patch("/api/me/", {"email": "not an address"}, format="json").status_code == 400
    assert APIClient().get("/api/me/").status_code in (401, 403)
    assert APIClient().patch("/api/me/", {"language": "fr"}, format="json").status_code in (401, 403)


def test_a_new_address_is_unverified_until_its_mailed_link_is_opened(smtp_inbox: Any) -> None:
    ana = person("ana", "ana@example.org")
    ana.email_verified = True
    ana.save()
    r = api_as(ana).patch("/api/me/", {"email": "ana@new.example"}, format="json")
    assert r.json()["email"] == "ana@new.example" and r.json()["email_verified"] is False
    run_jobs()
    (mail,) = smtp_inbox.to("ana@new.example")
    uid, token = re.search(r"/verify-email/([^/\s]+)/([^/\s]+)/", mail.get_content()).groups()
    assert Client().get(f"/verify-email/{uid}/{token}/").status_code == 200  # a GET only shows the button
    ana.refresh_from_db()
    assert not ana.email_verified
    assert APIClient().post("/api/auth/email/verify/", {"uid": uid, "token": token}, format="json").status_code == 204
    ana.refresh_from_db()
    assert ana.email_verified
    assert APIClient().post("/api/auth/email/verify/", {"uid": uid, "token": token}, format="json").status_code == 400


def test_every_page_follows_the_accounts_language_and_the_switcher_saves_it() -> None:
    ana = person("ana")
    browser = Client()
    browser.force_login(ana)
    browser.cookies["django_language"] = "fr"
    assert 'lang="fr"' in browser.get("/").content.decode()
    ana.language = "de"
    ana.save()
    page = browser.get("/").content.decode()
    assert 'lang="de"' in page and "Einstellungen" in page  # the account's language beats the cookie
    browser.post("/i18n/setlang/", {"language": "fr", "next": "/"})
    ana.refresh_from_db()
    assert ana.language == "fr"
    assert 'lang="fr"' in browser.get("/settings/").content.decode()
    anonymous = Client()
    anonymous.post("/i18n/setlang/", {"language": "de", "next": "/"})
    assert 'lang="de"' in anonymous.get("/").content.decode()  # the switcher still works without an account


# --- POST /api/me/password/ -------------------------------------------------------------------------


def test_password_change_ends_every_other_session_and_token_and_answers_a_fresh_token(smtp_inbox: Any) -> None:
    ana = person("ana", "ana@example.org")
    old_token = token_for(user=ana)
    other_browser = Client()
    other_browser.force_login(ana)
    assert other_browser.get("/api/me/").status_code == 200
    told: list[int] = []

    def heard(sender: Any, user: User, **kw: Any) -> None:
        told.append(user.pk)

    credentials_changed.connect(heard)
    try:
        this_browser = Client()
        this_browser.force_login(ana)
        csrf = this_browser.get("/settings/").cookies  # the page sets the CSRF cookie
        assert csrf is not None
        wrong = APIClient()
        wrong.credentials(HTTP_AUTHORIZATION=f"Token {old_token}")
        r = wrong.post("/api/me/password/", {"old_password": "nope", "new_password": NEW_PASSWORD}, format="json")
        assert r.status_code == 400 and r.json()["code"] == "bad_old_password"
        weak = wrong.post("/api/me/password/", {"old_password": PASSWORD, "new_password": "123"}, format="json")
        assert weak.status_code == 400 and "new_password" in weak.json()
        r = wrong.post("/api/me/password/", {"old_password": PASSWORD, "new_password": NEW_PASSWORD}, format="json")
        assert r.status_code == 200
        fresh = r.json()["token"]
        assert fresh and fresh != old_token
    finally:
        credentials_changed.disconnect(heard)
    assert told == [ana.pk]  # sent once the change committed
    assert wrong.get("/api/me/").status_code == 401  # the old token ended
    assert other_browser.get("/api/me/").status_code in (401, 403)  # so did every session
    assert this_browser.get("/api/me/").status_code in (401, 403)
    c = APIClient()
    c.credentials(HTTP_AUTHORIZATION=f"Token {fresh}")
    assert c.get("/api/me/").json()["username"] == "ana"
    assert APIClient().post("/api/auth/token/", {"username": "ana", "password": NEW_PASSWORD}, format="json").status_code == 200
    run_jobs()
    (notice,) = smtp_inbox.to("ana@example.org")
    assert "password" in notice["Subject"].lower()


def test_password_change_page_keeps_its_own_session() -> None:
    ana = person("ana")
    browser = Client()
    browser.force_login(ana)
    r = browser.post("/settings/", {"action": "password", "old_password": PASSWORD, "new_password": NEW_PASSWORD})
    assert r.status_code == 302
    assert browser.get("/api/me/").status_code == 200
    ana.refresh_from_db()
    assert ana.check_password(NEW_PASSWORD)


# --- password reset ---------------------------------------------------------------------------------


def test_password_reset_mails_a_one_time_link_through_smtp(smtp_inbox: Any) -> None:
    ana = person("ana", "Ana@Example.org")
    token = token_for(user=ana)
    anon = APIClient()
    assert anon.post("/api/auth/password-reset/", {"email": "ana@example.org"}, format="json").status_code == 204
    assert anon.post("/api/auth/password-reset/", {"email": "nobody@example.org"}, format="json").status_code == 204
    assert smtp_inbox.messages == []  # nothing leaves before the task runs: the page never waits for the server
    assert run_jobs() == 1  # one mail: none for the unknown address
    (mail,) = smtp_inbox.messages
    assert smtp_inbox.envelopes[0][1] == ["Ana@Example.org"]
    assert mail["From"] and "noreply" in str(mail["From"])
    uid, link_token = reset_link(mail.get_content())
    weak = anon.post(
        "/api/auth/password-reset/confirm/", {"uid": uid, "token": link_token, "new_password": "1234"}, format="json"
    )
    assert weak.status_code == 400 and "new_password" in weak.json()
    wrong = anon.post(
        "/api/auth/password-reset/confirm/", {"uid": uid, "token": "x-" + link_token, "new_password": NEW_PASSWORD}, format="json"
    )
    assert wrong.status_code == 400 and wrong.json()["code"] == "bad_link"
    ok = anon.post(
        "/api/auth/password-reset/confirm/", {"uid": uid, "token": link_token, "new_password": NEW_PASSWORD}, format="json"
    )
    assert ok.status_code == 204
    used = anon.post(
        "/api/auth/password-reset/confirm/", {"uid": uid, "token": link_token, "new_password": "another one 77"}, format="json"
    )
    assert used.status_code == 400 and used.json()["code"] == "bad_link"
    ana.refresh_from_db()
    assert ana.check_password(NEW_PASSWORD)
    old = APIClient()
    old.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert old.get("/api/me/").status_code == 401  # a reset ends the tokens too


def test_a_reset_link_expires(settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    ana = person("ana", "ana@example.org")
    token = default_token_generator.make_token(ana)
    later = default_token_generator._now().timestamp() + settings.PASSWORD_RESET_TIMEOUT + 5
    import datetime as dt

    monkeypatch.setattr(type(default_token_generator), "_now", lambda self: dt.datetime.fromtimestamp(later))
    r = APIClient().post(
        "/api/auth/password-reset/confirm/", {"uid": link_uid(ana), "token": token, "new_password": NEW_PASSWORD}, format="json"
    )
    assert r.status_code == 400 and r.json()["code"] == "bad_link"


def test_reset_pages_ask_then_land_and_set_the_password(smtp_inbox: Any) -> None:
    person("ana", "ana@example.org")
    browser = Client()
    assert browser.get("/password-reset/").status_code == 200
    sent = browser.post("/password-reset/", {"email": "ana@example.org"})
    assert sent.status_code == 200 and 'data-testid="reset-sent"' in sent.content.decode()
    same = browser.post("/password-reset/", {"email": "nobody@example.org"})
    assert 'data-testid="reset-sent"' in same.content.decode()  # the same page either way
    run_jobs()
    uid, token = reset_link(smtp_inbox.messages[0].get_content())
    landing = browser.get(f"/reset/{uid}/{token}/")
    assert landing.status_code == 200 and 'name="new_password"' in landing.content.decode()
    done = browser.post(f"/reset/{uid}/{token}/", {"new_password": NEW_PASSWORD})
    assert done.status_code == 302 and done["Location"].endswith("/login/")
    again = browser.get(f"/reset/{uid}/{token}/")
    assert again.status_code == 400 and 'data-testid="reset-bad-link"' in again.content.decode()
    assert APIClient().post("/api/auth/token/", {"username": "ana", "password": NEW_PASSWORD}, format="json").status_code == 200


def test_the_reset_mail_speaks_the_accounts_language(smtp_inbox: Any) -> None:
    ana = person("ana", "ana@example.org")
    ana.language = "fr"
    ana.save()
    APIClient().post("/api/auth/password-reset/", {"email": "ana@example.org"}, format="json")
    run_jobs()
    (mail,) = smtp_inbox.messages
    assert "mot de passe" in mail["Subject"].lower()


# --- GET /api/me/export/ ----------------------------------------------------------------------------


def test_export_holds_everything_kept_about_the_account_and_no_secret(clock: Any) -> None:
    table, match, (ana, bob) = started_table(players=2)
    ana.email = "ana@example.org"
    ana.save()
    chat_post(table_id=table.pk, user=ana, text="good luck")
    Follow.objects.create(follower=ana, followee=bob)
    Block.objects.create(blocker=ana, blocked=bob)
    Block.objects.create(blocker=bob, blocked=ana)  # bob's choice: not ana's to read
    Report.objects.create(reporter=ana, reported=bob, reason="abuse", text="rude")
    Report.objects.create(reporter=bob, reported=ana, reason="cheating")  # nor is bob's report
    r = api_as(ana).get("/api/me/export/")
    assert r.status_code == 200 and "attachment" in r["Content-Disposition"]
    data = r.json()
    assert data["account"]["username"] == ana.username and data["account"]["email"] == "ana@example.org"
    records = data["records"]
    assert [row["text"] for row in records["games.chatmessage"]] == ["good luck"]
    assert [(row["match_id"], row["seat"]) for row in records["games.matchplayer"]] == [(match.pk, 0)]
    assert [row["followee_id"] for row in records["people.follow"]] == [bob.pk]
    assert [(row["blocker_id"], row["blocked_id"]) for row in records["people.block"]] == [(ana.pk, bob.pk)]
    assert [(row["reported_id"], row["text"]) for row in records["moderation.report"]] == [(bob.pk, "rude")]
    assert "authtoken.token" not in records
    text = r.content.decode()
    assert token_for(user=ana) not in text and ana.password not in text
    assert APIClient().get("/api/me/export/").status_code in (401, 403)
    bobs = api_as(bob).get("/api/me/export/").json()["records"]
    assert [row["text"] for row in bobs.get("games.chatmessage", [])] == []  # another user's export holds none of ana's


# --- DELETE /api/me/ --------------------------------------------------------------------------------


def test_deleting_the_account_keeps_its_finished_match_replayable_for_the_opponent(clock: Any) -> None:
    table, match, (ana, bob) = started_table(players=2)
    run_jobs(clock)  # the turn timers play the match to its end
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    chat_post(table_id=table.pk, user=ana, text="bye")
    Follow.objects.create(follower=bob, followee=ana)
    ana_client = api_as(ana)
    assert ana_client.delete("/api/me/", {"password": "wrong"}, format="json").status_code == 400
    assert ana_client.delete("/api/me/", {"password": PASSWORD}, format="json").status_code == 204
    ana.refresh_from_db()
    assert ana.username.startswith("deleted-") and not ana.is_active and not ana.has_usable_password() and ana.email == ""
    assert ana.deleted_at is not None
    assert ana_client.get("/api/me/").status_code == 401  # its token is gone
    assert not ChatMessage.objects.filter(user=ana).exists() and not Follow.objects.filter(followee=ana).exists()
    assert APIClient().post("/api/auth/token/", {"username": "p0-0", "password": PASSWORD}, format="json").status_code == 400
    # The opponent's replay: the match, its seats (the deleted one under its new name), the whole timeline.
    opponent = api_as(bob)
    detail = opponent.get(f"/api/matches/{match.pk}/").json()
    names = {s["seat"]: s["username"] for s in detail["seats"]}
    assert names == {0: ana.username, 1: bob.username}
    timeline = opponent.get(f"/api/matches/{match.pk}/timeline/?perspective=seat:1").json()
    assert len(timeline["events"]) == detail["event_count"] == match.seq
    state = opponent.get(f"/api/matches/{match.pk}/state/?at={match.seq}&perspective=all")
    assert state.status_code == 200 and state.json()["seq"] == match.seq
    assert (
        APIClient().post("/api/auth/register/", {"username": ana.username, "password": PASSWORD}, format="json").status_code
        == 400
    )


def test_the_settings_page_deletes_the_account_and_logs_out() -> None:
    ana = person("ana")
    browser = Client()
    browser.force_login(ana)
    wrong = browser.post("/settings/", {"action": "delete", "password": "nope"})
    assert wrong.status_code == 400
    r = browser.post("/settings/", {"action": "delete", "password": PASSWORD})
    assert r.status_code == 302
    assert browser.get("/api/me/").status_code in (401, 403)
    assert User.objects.get(pk=ana.pk).username.startswith("deleted-")


def test_names_of_deleted_accounts_are_reserved() -> None:
    r = APIClient().post("/api/auth/register/", {"username": "Deleted-abc", "password": PASSWORD}, format="json")
    assert r.status_code == 400 and "username" in r.json()


@pytest.mark.parametrize(("language", "word"), [("de", "gültiger Wahrheitswert"), ("fr", "booléen valide")])
def test_token_calls_answer_in_the_accounts_language_over_the_browsers(language: str, word: str) -> None:
    """A script or app calling with `Authorization: Token …` has no session: the account's language must still
    beat Accept-Language, as it does on the pages."""
    ana = person("ana")
    ana.language = language
    ana.save()
    c = api_as(ana)
    r = c.patch("/api/me/", {"sounds": "loud"}, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert r.status_code == 400
    assert r["Content-Language"] == language
    assert word in str(r.json()), r.json()
    plain = api_as(person("bea")).patch("/api/me/", {"sounds": "loud"}, format="json", HTTP_ACCEPT_LANGUAGE="fr")
    assert plain["Content-Language"] == "fr"  # no language on the account: the browser's still rules
