"""Bots get persona names (`Ada-bot`), and `-bot` names are reserved: people holding one move out."""

import hashlib
import unicodedata

from django.db import migrations

# Frozen here: a migration must not follow later changes of accounts.services.PERSONAS.
PERSONAS = (
    "Ada", "Bruno", "Clara", "Dario", "Elsa", "Felix", "Greta", "Hugo", "Ines", "Jonas", "Kira", "Leon",
    "Mila", "Nico", "Olga", "Paul", "Rosa", "Sami", "Tilda", "Udo", "Vera", "Willi", "Yara", "Zeno",
    "Alma", "Boris", "Cleo", "Emil", "Frida", "Ida", "Karl", "Lotte", "Milo", "Nora", "Otto", "Pia",
)


def _candidates(slug, level, number):
    start = int(hashlib.sha256(f"{slug}:{level}:{number}".encode()).hexdigest(), 16) % len(PERSONAS)
    order = PERSONAS[start:] + PERSONAS[:start]
    yield from (f"{n}-bot" for n in order)
    for k in range(2, 1000):
        yield from (f"{n}{k}-bot" for n in order)


def personas(apps, schema_editor):
    """People whose name ends in `-bot` keep their account under `player-<old name>` (as 0002 did for
    `bot-`); then every bot with an identity takes its persona name, in identity order."""
    User = apps.get_model("accounts", "User")
    people = User.objects.filter(is_bot=False).only("pk", "username").order_by("pk")
    for person in [p for p in people.iterator() if unicodedata.normalize("NFKC", p.username).casefold().endswith("-bot")]:
        base = f"player-{person.username}"[:140]
        name, n = base, 1
        while User.objects.filter(username__iexact=name).exists():
            n += 1
            name = f"{base}-{n}"
        person.username = name
        person.save(update_fields=["username"])
    taken = {u.casefold() for u in User.objects.values_list("username", flat=True)}
    for bot in User.objects.filter(is_bot=True).exclude(bot_game="").order_by("bot_game", "bot_level", "bot_number", "pk"):
        name = next(c for c in _candidates(bot.bot_game, bot.bot_level, bot.bot_number) if c.casefold() not in taken)
        taken.add(name.casefold())
        bot.username = name
        bot.save(update_fields=["username"])


class Migration(migrations.Migration):

    dependencies = [("accounts", "0002_bot_identity")]

    operations = [migrations.RunPython(personas, migrations.RunPython.noop)]
