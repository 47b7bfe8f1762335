"""A person tries to become a house bot by taking its name.

Bots were looked up by the name `bot-<game>-<level>`: whoever registered it first was the account
the platform seated and rated as that bot. Now bots are found by identity (is_bot + game, level,
number), and people cannot take a name of the `bot-` namespace by any door.
"""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.core.cache import cache
from rest_framework.test import APIClient

from accounts.models import User
from accounts.services import bot_user
from games.models import Seat
from games.services.tables import table_add_bot, table_create
from tests.games.factories import user
from tests.tournaments.factories import organiser
from tournaments import services as tournament_services

pytestmark = [pytest.mark.django_db, pytest.mark.core]

PASSWORD = "correct horse 42"


@pytest.fixture(autouse=True)
def _fresh() -> None:
    cache.clear()


@pytest.mark.parametrize("name", ["bot-tiny-normal", "BOT-zack-hard", "Bot-anything", "ｂｏｔ-tiny-normal"])
def test_sign_up_refuses_the_bots_namespace_on_the_api_and_the_page(name: str, client) -> None:
    r = APIClient().post("/api/auth/register/", {"username": name, "password": PASSWORD}, format="json")
    assert r.status_code == 400 and "reserved" in r.json()["username"][0]
    page = client.post("/signup/", {"username": name, "password": PASSWORD})
    assert page.status_code == 200 and b"reserved" in page.content
    assert not User.objects.filter(is_bot=False).exists()


def test_the_admin_refuses_a_person_named_like_a_bot(client) -> None:
    admin = User.objects.create_superuser("root", password=PASSWORD)
    client.force_login(admin)
    r = client.post("/admin/accounts/user/add/", {"username": "bot-tiny-easy", "password1": PASSWORD, "password2": PASSWORD, "usable_password": "true"})
    assert r.status_code == 200 and "reserved" in r.content.decode()
    assert not User.objects.filter(username__iexact="bot-tiny-easy").exists()


def test_a_person_holding_a_bot_name_is_never_seated_as_that_bot() -> None:
    # As an old database may hold it (or a row written by hand): a person under the bot's name.
    impostor = User.objects.create_user("bot-tiny-normal", password=PASSWORD)
    host = user("host")
    table = table_create(host=host, game="tiny", seats=2)
    table_add_bot(table_id=table.pk, by=host, level="normal")
    seated = Seat.objects.get(table=table, seat=1).user
    assert seated != impostor and seated.is_bot and (seated.bot_game, seated.bot_level, seated.bot_number) == ("tiny", "normal", 0)
    assert bot_user(slug="tiny", level="normal") == seated  # one bot per identity, found again


def test_tournament_bots_are_found_by_identity_too() -> None:
    impostor = User.objects.create_user("bot-tiny-normal-1", password=PASSWORD)
    org = organiser()
    t = tournament_services.tournament_create(organiser=org, name="cup", game="tiny", format="swiss", table_size=3, options={"hand": 2})
    entries = tournament_services.tournament_add_bots(tournament_id=t.pk, by=org, level="normal", count=2)
    bots = [e.user for e in entries]
    assert impostor not in bots and all(b.is_bot for b in bots) and [b.bot_number for b in bots] == [1, 2]
    more = tournament_services.tournament_add_bots(tournament_id=t.pk, by=org, level="normal", count=1)
    assert more[0].user.bot_number == 3  # numbers already entered are skipped by identity, not by name


def test_the_migration_moves_people_out_of_the_namespace_and_names_the_bots() -> None:
    migration = importlib.import_module("accounts.migrations.0002_bot_identity")
    person = User.objects.create_user("bot-zack-normal", password=PASSWORD)
    shouty = User.objects.create_user("Bot-Zwicker-easy", password=PASSWORD)
    User.objects.create_user("player-bot-zwicker-easy", password=PASSWORD)  # the first free name is taken
    house = User.objects.create(username="bot-zack-hard", is_bot=True, bot_level="hard")
    entrant = User.objects.create(username="bot-zack-easy-4", is_bot=True, bot_level="easy")
    migration.bots_by_identity(apps, None)
    person.refresh_from_db()
    shouty.refresh_from_db()
    house.refresh_from_db()
    entrant.refresh_from_db()
    assert person.username == "player-bot-zack-normal" and person.check_password(PASSWORD) and not person.is_bot
    assert shouty.username == "player-Bot-Zwicker-easy-2"
    assert (house.bot_game, house.bot_level, house.bot_number) == ("zack", "hard", 0)
    assert (entrant.bot_game, entrant.bot_level, entrant.bot_number) == ("zack", "easy", 4)
    assert bot_user(slug="zack", level="hard") == house


def test_an_imported_match_cannot_create_a_person_under_a_bot_name() -> None:
    from games import errors
    from replays import selectors
    from replays.services import match_import
    from tests.replays.replay_support import tiny_match

    match, _ = tiny_match(players=2, finish=True)
    document = selectors.export(match=match)
    document["seats"][1]["username"] = "bot-tiny-hard"
    with pytest.raises(errors.PlatformError, match="reserved"):
        match_import(document=document)
    assert not User.objects.filter(username="bot-tiny-hard").exists()
