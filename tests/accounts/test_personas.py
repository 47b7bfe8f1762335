"""Who is who: every bot seat is its own account, with its own persona name and rating."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from accounts.models import User, is_reserved_username
from accounts.services import bot_free_number, bot_user, user_register
from games.models import MatchPlayer
from games.services.tables import table_add_bot, table_create, table_start
from tests.games.factories import started_table, user

pytestmark = pytest.mark.django_db


def test_three_bots_at_one_table_are_three_accounts_with_three_names() -> None:
    table, match, _ = started_table(players=1, bots=3, game="tiny")
    bots = list(MatchPlayer.objects.filter(match=match, user__is_bot=True).select_related("user"))
    names = [b.user.username for b in bots]
    assert len({b.user_id for b in bots}) == 3, names
    assert len(set(names)) == 3 and all(n.endswith("-bot") for n in names), names
    assert sorted(b.user.bot_number for b in bots) == [0, 1, 2]


def test_a_bot_keeps_its_name_and_identity() -> None:
    first = bot_user(slug="tiny", level="hard", number=2)
    again = bot_user(slug="tiny", level="hard", number=2)
    assert first.pk == again.pk and first.username == again.username
    assert (first.bot_game, first.bot_level, first.bot_number, first.is_bot) == ("tiny", "hard", 2, True)


def test_the_next_table_reuses_the_same_bots() -> None:
    a, _, _ = started_table(players=1, bots=2, game="tiny")
    b, _, _ = started_table(players=1, bots=2, game="tiny")
    names = lambda t: sorted(t.seat_set.filter(user__is_bot=True).values_list("user__username", flat=True))  # noqa: E731
    assert names(a) == names(b)


def test_levels_count_apart_and_numbers_fill_the_lowest_gap() -> None:
    assert bot_free_number(slug="tiny", level="hard", seated=[("normal", 0), ("normal", 1)]) == 0
    assert bot_free_number(slug="tiny", level="normal", seated=[("normal", 0), ("normal", 2)]) == 1
    assert bot_free_number(slug="tiny", level="normal", seated=[]) == 0


def test_a_taken_persona_name_is_skipped() -> None:
    from accounts.services import bot_persona_candidates

    wanted = bot_persona_candidates(slug="tiny", level="easy", number=7)[0]
    squatter = User.objects.create_user(wanted, password="x")  # written past every check, as by hand
    bot = bot_user(slug="tiny", level="easy", number=7)
    assert bot.username != wanted and bot.username.endswith("-bot") and bot.pk != squatter.pk


@pytest.mark.parametrize("name", ["Ada-bot", "ada-BOT", "Zeno2-bot", "ｍｙ-bot"])
def test_persona_names_are_reserved_for_bots(name: str) -> None:
    assert is_reserved_username(name)
    with pytest.raises(Exception) as e:
        user_register(username=name, password="correct horse 42")
    assert "reserved" in str(e.value)


def test_ordinary_names_are_not_reserved() -> None:
    assert not is_reserved_username("robot") and not is_reserved_username("abbot") and not is_reserved_username("Ada")


def test_a_ranked_match_of_three_bots_rates_three_bots() -> None:
    """The rating writes one row per account: three bots are three rated players, not one rated against itself."""
    from django.utils import timezone

    from stats.models import Rating
    from stats.rating_services import match_rating_apply

    host = user("ann")
    table = table_create(host=host, game="tiny", seats=4, ranked=True)
    for _ in range(3):
        table_add_bot(table_id=table.pk, by=host)
    match = table_start(table_id=table.pk, by=host)
    match.status, match.ended_at = "finished", timezone.now()
    match.outcome = {"placements": [{"seat": s, "place": s + 1} for s in range(4)]}
    match.save()
    match_rating_apply(match_id=match.pk)
    rated = Rating.objects.filter(game="tiny")
    assert rated.count() == 4 and rated.filter(user__is_bot=True).count() == 3


def test_migration_names_bots_and_moves_people_out_of_the_persona_namespace() -> None:
    migration = importlib.import_module("accounts.migrations.0003_bot_personas")
    old = User.objects.create(username="bot-tiny-normal", is_bot=True, bot_game="tiny", bot_level="normal", bot_number=0)
    person = User.objects.create_user("Rosa-bot", password="x")
    migration.personas(apps, None)
    old.refresh_from_db()
    person.refresh_from_db()
    assert person.username == "player-Rosa-bot" and not person.is_bot
    assert old.username.endswith("-bot") and old.username != "bot-tiny-normal"
    assert User.objects.filter(username=old.username).count() == 1
