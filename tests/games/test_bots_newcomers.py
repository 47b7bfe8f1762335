"""At a real table a new player is not called too slow by the bots before a fair chance (BotContext.experience)."""

from __future__ import annotations

from games.models import Match
from games.services.actions import bots_plan
from games.services.tables import table_add_bot, table_create, table_start
from games.zack.bot import HUMAN_WINDOW_MS, NEWCOMER_MARGIN_MS
from tests.games.factories import user
from tests.support.manual_queue import MANUAL


def test_bots_wait_a_newcomers_margin_before_calling_them_slow(db: None) -> None:
    host = user("newcomer")
    table = table_create(host=host, game="zack", seats=3, options={"protect_beginners": False})
    for _ in range(2):
        table_add_bot(table_id=table.pk, by=host, level="hard")
    match = table_start(table_id=table.pk, by=host)
    assert match.state["turn"] == 0  # the newcomer (seat 0) throws first
    MANUAL.clear()
    assert bots_plan(match_id=match.pk, seq=Match.objects.get(pk=match.pk).seq) == 2
    plans = [job for job in MANUAL.jobs if job.name == "games.bot_act"]
    challenges = [job for job in plans if job.args[3]["kind"] == "challenge"]
    assert challenges, "hard bots plan to call a slow opener"
    for job in challenges:
        assert job.due_s * 1000 >= HUMAN_WINDOW_MS + NEWCOMER_MARGIN_MS - 50  # match time starts at the start
