"""The custom user, present from the first migration so it can grow later."""

from __future__ import annotations

import unicodedata

from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

# Names the platform's own bot accounts use (`bot-<game>-<level>`, tournament bots `bot-<game>-<level>-<n>`).
# Nobody else may take one: a person holding such a name would be shown, seated and rated as that bot.
BOT_NAME_PREFIX = "bot-"
# A bot's persona name (`Ada-bot`, `Bruno-bot`, ...): what people read at the table. Reserved too, so a
# person called `Ada-bot` can never be taken for (or challenged as) the bot.
BOT_NAME_SUFFIX = "-bot"


def is_reserved_username(name: str) -> bool:
    """True for a name in the bots' namespace, compared as Django stores names (NFKC) and without case,
    so neither `Bot-zack-easy` nor a full-width `ｂｏｔ-zack-easy` (stored as `bot-zack-easy`) gets through,
    and neither does a persona name (`Ada-bot`, `ADA-BOT`)."""
    folded = unicodedata.normalize("NFKC", name or "").casefold()
    return folded.startswith(BOT_NAME_PREFIX) or folded.endswith(BOT_NAME_SUFFIX)


RESERVED_MESSAGE = _("Names starting with “bot-” or ending in “-bot” are reserved for the platform's bots.")

# A deleted account keeps its row under `deleted-<random>` (accounts.services.account_delete): the seats of
# its finished matches read as a deleted player. Nobody may take such a name and pass for one.
DELETED_NAME_PREFIX = "deleted-"
DELETED_MESSAGE = _("Names starting with “deleted-” mark deleted accounts.")


def is_deleted_username(name: str) -> bool:
    return unicodedata.normalize("NFKC", name or "").casefold().startswith(DELETED_NAME_PREFIX)


LANGUAGE_CHOICES = (("en", "English"), ("de", "Deutsch"), ("fr", "Français"))


class User(AbstractUser):
    """A player. Bots are users too (`is_bot`), so seats, ratings and history treat them alike.

    A bot is found by its identity (`bot_game`, `bot_level`, `bot_number`), never by its name: the
    name is for people to read. `bot_number` is 0 for the platform's bot of a game and level, and
    1, 2, ... for the distinct bots a tournament enters.
    """

    is_bot = models.BooleanField(default=False)
    bot_level = models.CharField(max_length=10, blank=True, default="")
    bot_game = models.CharField(max_length=40, blank=True, default="")
    bot_number = models.PositiveIntegerField(default=0)
    # The account's language (`en`, `de`, `fr`; empty: the browser's), followed by every page and mail once
    # logged in (accounts.middleware.UserLanguageMiddleware, accounts.mail).
    language = models.CharField(max_length=5, blank=True, default="")
    sounds = models.BooleanField(default=True)  # the table pages' sounds
    notifications = models.BooleanField(default=True)  # a mail when someone challenges the player
    email_verified = models.BooleanField(default=False)  # set by the link of a verification mail
    deleted_at = models.DateTimeField(null=True, blank=True)  # set once, when the account is erased

    class Meta(AbstractUser.Meta):
        constraints = [
            models.UniqueConstraint(
                fields=["bot_game", "bot_level", "bot_number"],
                condition=Q(is_bot=True) & ~Q(bot_game=""),
                name="one_bot_per_identity",
            ),
        ]

    def __str__(self) -> str:
        return self.username

    def clean(self) -> None:
        """Model forms (the admin's too) refuse a person's name in the bots' namespace."""
        super().clean()
        if not self.is_bot and is_reserved_username(self.username):
            raise ValidationError({"username": RESERVED_MESSAGE})
        if self.deleted_at is None and is_deleted_username(self.username):
            raise ValidationError({"username": DELETED_MESSAGE})
