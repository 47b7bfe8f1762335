"""`GET /api/me/export/`: every datum the platform keeps about an account, found, not listed.

The rows are found by walking every installed model for foreign keys to the user model, so a model an
app adds later (moderation's reports, say) is in the export the day it exists, with no change here and
no import of the apps above accounts. Three rules keep other people's secrets and the platform's out:

- Secrets are never exported: API tokens, the password hash (SKIPPED_MODELS, SKIPPED_FIELDS).
- A row that points at several users (a follow, a block, a challenge, a report) is exported for the
  user it was made *by*: its first user foreign key, by the convention every model here follows (the
  actor first: follower, blocker, challenger, reporter). A row where the account is only the object is
  left out unless its model and field are in ABOUT_ME (a challenge received is the account's business;
  who blocked or reported it is not).
- Other users appear by id only, as the row holds them.
"""

from __future__ import annotations

import datetime as dt
import decimal
import uuid
from typing import Any

from django.apps import apps
from django.conf import settings
from django.db import models
from django.utils import timezone

from accounts.models import User

FORMAT = "cardtables-account-export/1"
SKIPPED_MODELS = {"authtoken.token", "authtoken.tokenproxy", "admin.logentry"}
SKIPPED_FIELDS = {"password"}
# (model label, field): rows where the account is the object, exported all the same.
ABOUT_ME = {("people.challenge", "challenged")}
# The account's own row: what is shown, not the secrets.
ACCOUNT_FIELDS = (
    "id", "username", "email", "first_name", "last_name", "language", "sounds", "notifications", "email_verified",
    "date_joined", "last_login", "is_bot",
)


def _plain(value: Any) -> Any:
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, decimal.Decimal | uuid.UUID):
        return str(value)
    return value


def _user_fields(model: type[models.Model]) -> list[models.Field]:
    return [
        f for f in model._meta.concrete_fields
        if f.is_relation and f.related_model is not None and f.related_model._meta.label_lower == settings.AUTH_USER_MODEL.lower()
    ]


def records_about(user: User) -> dict[str, list[dict[str, Any]]]:
    """`{"app.model": [row, ...]}` of every kept row made by (or, per ABOUT_ME, about) the account."""
    out: dict[str, list[dict[str, Any]]] = {}
    for model in apps.get_models():
        label = model._meta.label_lower
        if label in SKIPPED_MODELS or model is User:
            continue
        fields = _user_fields(model)
        if not fields:
            continue
        mine = [fields[0], *(f for f in fields[1:] if (label, f.name) in ABOUT_ME)]
        columns = [f.attname for f in model._meta.concrete_fields if f.name not in SKIPPED_FIELDS]
        rows: list[dict[str, Any]] = []
        for field in mine:
            qs = model._default_manager.filter(**{field.attname: user.pk}).order_by("pk").values(*columns)
            rows += [{k: _plain(v) for k, v in row.items()} for row in qs]
        if rows:
            out[label] = rows
    return out


def account_export(*, user: User) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "exported_at": timezone.now().isoformat(),
        "account": {name: _plain(getattr(user, name)) for name in ACCOUNT_FIELDS},
        "records": records_about(user),
    }
