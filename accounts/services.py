"""Writes for accounts: registration, log-in, tokens, and the platform's bot accounts."""

from __future__ import annotations

import hashlib
import logging
import secrets

from axes.handlers.proxy import AxesProxyHandler
from django.contrib.auth import authenticate, password_validation, user_logged_in
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from rest_framework.authtoken.models import Token

from accounts.models import BOT_NAME_SUFFIX, DELETED_MESSAGE, RESERVED_MESSAGE, User, is_deleted_username, is_reserved_username
from accounts.tokens import token_expired
from live import bus

log = logging.getLogger(__name__)


class LoginThrottledError(Exception):
    """Too many failed log-ins for this account from this address; wait and try again."""


def user_register(*, username: str, password: str, email: str = "") -> User:
    """Create a player; raises ValidationError with field errors (taken or reserved name, weak password).

    The name is checked as it will be stored (Django's NFKC normalisation), so a look-alike spelling
    can neither take a name that is already someone's nor one of the bots' (`bot-...`).
    """
    errors: dict[str, list[str]] = {}
    username = User.normalize_username((username or "").strip())
    if not username:
        errors["username"] = ["This field is required."]
    elif len(username) > 150 or not all(c.isalnum() or c in "@.+-_" for c in username):
        errors["username"] = ["Use at most 150 letters, digits and @.+-_ only."]
    elif is_reserved_username(username):
        errors["username"] = [str(RESERVED_MESSAGE)]
    elif is_deleted_username(username):
        errors["username"] = [str(DELETED_MESSAGE)]
    elif User.objects.filter(username__iexact=username).exists():
        errors["username"] = ["A user with that username already exists."]
    try:
        password_validation.validate_password(password or "", User(username=username, email=email))
    except ValidationError as e:
        errors["password"] = list(e.messages)
    if errors:
        raise ValidationError(errors)
    with transaction.atomic():
        return User.objects.create_user(username=username, password=password, email=email or "")


def login_check(*, request: HttpRequest, username: str, password: str) -> User | None:
    """Authenticate one log-in attempt; None for wrong credentials.

    Raises LoginThrottledError while this account has failed too often *from this address*
    (django-axes, AXES_FAILURE_LIMIT failures, then AXES_COOLOFF_TIME), even for the right password,
    so guessing does not pay. Failures are counted per (account, address) pair, not per account:
    a per-account lock would let anyone lock a victim out from anywhere, and a victim attacked from
    many addresses still logs in from their own. Guessing under many names from one address is braked
    by the per-address rate the views apply (LOGIN_RATE, accounts.throttling) — a higher limit that
    blocks that address only. What is left, a botnet guessing one account from many addresses, meets
    the password validators; a per-account lock would hand the same botnet a lock-out of its victim.
    """
    credentials = {"username": username}
    if not AxesProxyHandler.is_allowed(request, credentials):
        raise LoginThrottledError("Too many failed log-ins. Try again in a few minutes.")
    return authenticate(request, username=username, password=password)  # a failure is counted by axes' signal handler


def token_login(*, request: HttpRequest, username: str, password: str) -> str | None:
    """`POST /api/auth/token/`: a current token for the right credentials of a person (never a bot).

    A log-in like the page's: `user_logged_in` records it (last_login) and clears the pair's failures.
    """
    user = login_check(request=request, username=username, password=password)
    if user is None or user.is_bot:
        return None
    user_logged_in.send(sender=type(user), request=request, user=user)
    return token_for(user=user)


def token_for(*, user: User) -> str:
    """The user's API token; a fresh one when there is none or it has expired."""
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()  # one issuer per user at a time
        token = Token.objects.filter(user=user).first()
        if token is not None and not token_expired(token):
            return token.key
        if token is not None:
            token.delete()
        return Token.objects.create(user=user).key


def token_revoke(*, user: User) -> None:
    """Log-out: the user's API token stops working at once (a new log-in issues a new one), and every open
    socket of the user closes, on every web process, after the commit (accounts/session_end.py)."""
    Token.objects.filter(user=user).delete()
    bus.sessions_end(user.pk)


# First names of the bots' personas: short (they fit a seat panel uncut), easy to tell apart when read
# fast, and the same in English, German and French.
PERSONAS = (
    "Ada", "Bruno", "Clara", "Dario", "Elsa", "Felix", "Greta", "Hugo", "Ines", "Jonas", "Kira", "Leon",
    "Mila", "Nico", "Olga", "Paul", "Rosa", "Sami", "Tilda", "Udo", "Vera", "Willi", "Yara", "Zeno",
    "Alma", "Boris", "Cleo", "Emil", "Frida", "Ida", "Karl", "Lotte", "Milo", "Nora", "Otto", "Pia",
)


def bot_persona_candidates(*, slug: str, level: str, number: int) -> list[str]:
    """The persona names a bot identity may take, best first: `<Name>-bot`, starting at a place in
    PERSONAS fixed by the identity (so a fresh installation names its bots alike), then with a digit
    once every name is taken. Ending in `-bot` they are in the reserved namespace (accounts.models)."""
    start = int(hashlib.sha256(f"{slug}:{level}:{number}".encode()).hexdigest(), 16) % len(PERSONAS)
    order = PERSONAS[start:] + PERSONAS[:start]
    names = [f"{n}{BOT_NAME_SUFFIX}" for n in order]
    for k in range(2, 100):
        names += [f"{n}{k}{BOT_NAME_SUFFIX}" for n in order]
    return names


def bot_user(*, slug: str, level: str, number: int = 0) -> User:
    """The bot account of one identity: game, level and `number` (0, 1, 2, ...: distinct bots of a
    level, so three `normal` bots at a table are three players with three names and three ratings).

    Found by its identity, never by name: a name is something a person could have taken, and whoever
    held it would be seated and rated as the bot. Created with `is_bot` only, under a persona name
    (`Ada-bot`; bot_persona_candidates) in the reserved namespace that sign-up refuses to people. The
    name is chosen once, when the account is made, and never changes: it is the bot's for good.
    """
    identity = {"is_bot": True, "bot_game": slug, "bot_level": level, "bot_number": number}
    user = User.objects.filter(**identity).first()
    if user is not None:
        return user
    candidates = bot_persona_candidates(slug=slug, level=level, number=number)
    taken = {n.casefold() for n in User.objects.filter(username__in=candidates[: len(PERSONAS) * 3]).values_list("username", flat=True)}
    free = [c for c in candidates if c.casefold() not in taken]
    # A name taken meanwhile (another process, or a person written into the database by hand) is
    # skipped: the bot is still the bot, only named apart.
    for candidate in [*free[:5], f"{free[0] if free else 'Bot'}.{secrets.token_hex(3)}"]:
        try:
            with transaction.atomic():
                user = User(username=candidate, **identity)
                user.set_unusable_password()
                user.save()
            return user
        except IntegrityError:
            found = User.objects.filter(**identity).first()
            if found is not None:  # made at the same moment by another process
                return found
            log.warning("bot name %s is taken: the bot gets another name", candidate)
    raise RuntimeError(f"could not create the bot account {slug}/{level}/{number}")


def bot_free_number(*, slug: str, level: str, seated: list[tuple[str, int]]) -> int:
    """The lowest bot number of this game and level not among `seated` ((level, number) pairs of the
    bots already at the table): every bot seat is its own account, never one account at three seats."""
    used = {n for lv, n in seated if lv == level}
    return next(n for n in range(len(used) + 1) if n not in used)
