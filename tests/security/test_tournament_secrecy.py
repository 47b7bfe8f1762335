"""Duplicate tournaments, attacked: deal a live table's face-down cards from anything the platform shows.

Every table of one size in a duplicate round plays the same cards, dealt by
`random.Random(seed)` with the public rules code. The attacker harvests every
string the tournament API, pages, socket, tables, match API and replays show
(anonymous, as a player of the round, as the organiser), turns each into seed
candidates with the public derivations (old and new), and re-deals: no
candidate may reproduce a live table's hands. And once one table of a round
finishes, its replay must not show the cards its twin is still playing.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable, Iterator
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.management import CommandError, call_command
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import User
from accounts.services import token_for
from config.asgi import application
from games.kit.registry import get_rules
from games.models import Match, MatchEvent
from games.services.actions import action_submit
from tests.games.factories import started_table, user
from tests.tournaments.factories import organiser
from tournaments import services
from tournaments.models import Round, Tournament, TournamentTable, derived_seed

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.core]


@pytest.fixture(autouse=True)
def _deal_at_once(settings: Any) -> None:
    """These attacks need the tournament's tables dealt: the grace before the deal is tested on its own
    (tests/tournaments/test_seat_grace.py)."""
    settings.TOURNAMENT_SEAT_GRACE_SECONDS = 0


# --- the world: a duplicate swiss of humans only (nothing moves unless the test moves it) -----


def duplicate_tournament(players: int, *, rounds: int = 2) -> tuple[Tournament, list[User]]:
    org = organiser()
    t = services.tournament_create(
        organiser=org, name="Dup cup", game="tiny", format="swiss", table_size=3, rounds=rounds,
        options={"hand": 8}, duplicate=True, no_show_seconds=0,  # 8 cards a hand: no chance re-deal
    )
    people = [user(f"player{i}") for i in range(players)]
    for p in people:
        services.tournament_register(tournament_id=t.pk, user=p)
    services.tournament_start(tournament_id=t.pk, by=org)
    t.refresh_from_db()
    return t, people


def tables_of(t: Tournament, number: int) -> list[TournamentTable]:
    return list(TournamentTable.objects.filter(round__tournament=t, round__number=number).select_related("match").order_by("id"))


def play_out(match_id: int) -> None:
    """Its players play the first card of their hand until the match ends; the tournament records it."""
    while (m := Match.objects.get(pk=match_id)).status == Match.Status.LIVE:
        seat = m.state["turn"]
        action_submit(match_id=m.pk, seat=seat, action={"kind": "play", "card": m.state["hands"][seat][0]["id"]})
    services.tournament_table_finished(match_id=match_id)


def hands(match: Match) -> Any:
    return MatchEvent.objects.get(match=match, seq=1).data["hands"]


def redeal(seed: str, match: Match) -> Any:
    return get_rules(match.game).setup(match.seats, match.options, random.Random(seed))[0]["data"]["hands"]


def api(u: User | None) -> APIClient:
    c = APIClient()
    if u is not None:
        c.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user=u)}")
    return c


def page(u: User | None) -> Client:
    c = Client()
    if u is not None:
        c.force_login(u)
    return c


# --- the attacker -----------------------------------------------------------------------------


def strings_in(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from strings_in(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings_in(v)


def tokens_in(text: str) -> set[str]:
    return set(re.findall(r"[\w\-:]{4,}", text))


def harvest(t: Tournament, viewers: list[User | None]) -> tuple[str, set[str]]:
    """Everything public about the tournament and its tables, as raw text and as candidate strings."""
    blob: list[str] = []
    found: set[str] = set()

    def add_json(data: Any) -> None:
        blob.append(json.dumps(data))
        found.update(strings_in(data))

    def add_page(html: str) -> None:
        blob.append(html)
        found.update(tokens_in(html))

    matches = list(Match.objects.filter(table__tournament_table__round__tournament=t))
    for who in viewers:
        c, web = api(who), page(who)
        for path in (f"/api/tournaments/{t.pk}/", f"/api/tournaments/{t.pk}/standings/", "/api/tournaments/", "/api/matches/?status=live"):
            add_json(c.get(path).json())
        add_page(web.get(f"/tournaments/{t.pk}/").content.decode())
        add_page(web.get(f"/tournaments/{t.pk}/standings.csv").content.decode())
        for m in matches:
            add_json(c.get(f"/api/tables/{m.table_id}/").json())
            add_json(c.get(f"/api/matches/{m.pk}/").json())
            for path in ("timeline/", "state/", "export/", "timeline/?perspective=all", "state/?perspective=all"):
                r = c.get(f"/api/matches/{m.pk}/{path}")
                if r.status_code == 200:
                    add_json(r.json())
            add_page(web.get(f"/tables/{m.table_id}/").content.decode())
            add_page(web.get(f"/matches/{m.pk}/replay/").content.decode())
    return "\n".join(blob), found


def candidates(strings: Iterable[str], rounds: Iterable[int] = (1, 2, 3), sizes: Iterable[int] = (2, 3)) -> set[str]:
    """Seeds an attacker with the public code tries: each string, its prefixes, and every derivation."""
    bases: set[str] = set()
    for v in strings:
        for sep in ("-", ":"):
            parts = v.split(sep)
            bases.update(sep.join(parts[:i]) for i in range(1, len(parts) + 1))
    out = set(bases)
    for b in bases:
        round_seeds = {b}
        for n in rounds:
            round_seeds |= {f"{b}-r{n}", derived_seed(b, f"round-{n}")}
        for r in round_seeds:
            out.add(r)
            for size in sizes:
                out |= {f"{r}-{size}", derived_seed(r, f"table-{size}")}
    return out


def assert_no_live_deal_recoverable(t: Tournament, blob: str, found: set[str]) -> None:
    live = list(Match.objects.filter(table__tournament_table__round__tournament=t, status=Match.Status.LIVE))
    assert live, "the attack needs a live table"
    for m in live:
        assert redeal(m.seed, m) == hands(m), "the oracle must work: the real seed re-deals the real hands"
    secrets_ = {t.seed, *(m.seed for m in live)}
    secrets_ |= {r.seed for r in Round.objects.filter(tournament=t, status=Round.Status.RUNNING)}
    for s in secrets_:
        assert s not in blob, f"a secret seed is shown: {s}"
    deals = {m.pk: hands(m) for m in live}
    for seed in candidates(found):
        for m in live:
            assert redeal(seed, m) != deals[m.pk], f"{seed!r}, found in public, deals live match {m.pk}"


# --- the attacks ------------------------------------------------------------------------------


def test_a_live_duplicate_round_shows_nothing_that_deals_its_cards() -> None:
    t, people = duplicate_tournament(6)
    (a, b) = tables_of(t, 1)
    assert a.match.seed == b.match.seed  # twins: one deal
    player = a.seats.first().user
    blob, found = harvest(t, [None, player, t.organiser])
    assert_no_live_deal_recoverable(t, blob, found)
    # Both tables play: each one's public record is the other's future, so watchers get neither; players their own.
    for tt in (a, b):
        for path in (f"/api/matches/{tt.match_id}/timeline/", f"/api/matches/{tt.match_id}/state/"):
            for who in (None, t.organiser, b.seats.first().user if tt is a else player):
                r = api(who).get(path)
                assert r.status_code == 403 and r.json()["code"] == "deal_secret", (who, path, r.content[:300])
    assert api(player).get(f"/api/matches/{a.match_id}/timeline/?perspective=seat:{a.seats.first().seat}").status_code == 200
    assert api(player).get(f"/api/matches/{a.match_id}/timeline/?perspective=all").status_code == 403


def test_a_finished_twin_opens_no_view_of_the_deal_its_twin_still_plays() -> None:
    """403 `deal_secret` (not 404: the match exists and is listed; its cards are what is refused, until the round ends)."""
    t, people = duplicate_tournament(6)
    a, b = tables_of(t, 1)
    play_out(a.match_id)
    a.refresh_from_db()
    assert a.done and Match.objects.get(pk=a.match_id).status == Match.Status.FINISHED
    mine = a.seats.get(seat=0).user
    twin_player = b.seats.first().user
    m = a.match_id
    hidden = [
        f"/api/matches/{m}/export/",
        f"/api/matches/{m}/timeline/?perspective=all",
        f"/api/matches/{m}/state/?perspective=all",
        f"/api/matches/{m}/timeline/?perspective=seat:1",
        f"/api/matches/{m}/state/?perspective=seat:2",
        f"/api/matches/{m}/timeline/",  # spectator: the whole public record, i.e. the twin's hands as they are played
        f"/api/matches/{m}/state/",
    ]
    for who in (None, twin_player, user("stranger"), t.organiser, mine):
        for path in hidden:
            if who == mine and path.endswith(("/timeline/", "/state/")):
                continue  # its own players see what they saw
            r = api(who).get(path)
            assert r.status_code == 403 and r.json()["code"] == "deal_secret", (who, path, r.status_code, r.content[:300])
    # The live twin, now the only table of this deal, shows watchers its own public record as any live table.
    assert api(None).get(f"/api/matches/{b.match_id}/timeline/").status_code == 200
    r = page(twin_player).get(f"/matches/{m}/replay/")
    assert r.status_code == 403 and b"still playing the same cards" in r.content
    with pytest.raises(CommandError, match="still plays this deal"):
        call_command("export_match", m)
    # Its own players keep what they saw: spectator and their own seat.
    own = api(mine)
    assert own.get(f"/api/matches/{m}/timeline/?perspective=seat:0").status_code == 200
    assert own.get(f"/api/matches/{m}/timeline/").status_code == 200
    assert page(mine).get(f"/matches/{m}/replay/").status_code == 200
    blob, found = harvest(t, [None, twin_player])
    assert_no_live_deal_recoverable(t, blob, found)

    # The twin ends: the round is over, everything opens, and the round's seed lets anyone check the deal.
    play_out(b.match_id)
    for path in hidden:
        assert api(None).get(path).status_code == 200, path
    (round1, *_) = api(None).get(f"/api/tournaments/{t.pk}/").json()["rounds"]
    assert round1["status"] == "finished" and round1["seed"]
    a.match.refresh_from_db()
    assert redeal(derived_seed(round1["seed"], "table-3"), a.match) == hands(a.match)


def test_a_published_round_seed_deals_no_later_round() -> None:
    """The master seed is never shown, and round seeds are one-way from it: round 1's seed, public once
    round 1 is over, gives nothing about round 2 (with `<master>-r1` it gave every later round)."""
    t, people = duplicate_tournament(6)
    for tt in tables_of(t, 1):
        play_out(tt.match_id)
    services.tournament_next_round(tournament_id=t.pk)
    assert len(tables_of(t, 2)) == 2
    shown = api(None).get(f"/api/tournaments/{t.pk}/").json()["rounds"]
    assert shown[0]["seed"] and shown[1]["seed"] is None
    blob, found = harvest(t, [None, people[0], t.organiser])
    assert shown[0]["seed"] in found
    assert_no_live_deal_recoverable(t, blob, found)


def test_a_finished_smaller_table_gives_nothing_about_the_larger_ones_still_playing() -> None:
    """5 players: a table of 3 and one of 2, different deals. The 2's export is open once it ends (its
    deal is played nowhere else), and its seed must not lead to the 3's (with `<round>-2` it did)."""
    t, people = duplicate_tournament(5)
    big, small = sorted(tables_of(t, 1), key=lambda tt: -tt.match.seats)
    assert (big.match.seats, small.match.seats) == (3, 2)
    play_out(small.match_id)
    export = api(None).get(f"/api/matches/{small.match_id}/export/")
    assert export.status_code == 200 and export.json()["seed"]
    blob, found = harvest(t, [None, small.seats.first().user])
    assert_no_live_deal_recoverable(t, blob, found)


@pytest.mark.asyncio
async def test_the_tournament_socket_carries_nothing_that_deals_a_live_table() -> None:
    t, people = await database_sync_to_async(duplicate_tournament)(6)
    comm = WebsocketCommunicator(application, f"/ws/tournaments/{t.pk}/")
    assert (await comm.connect())[0]
    messages = [await comm.receive_json_from(timeout=5)]
    a, _b = await database_sync_to_async(tables_of)(t, 1)
    await database_sync_to_async(play_out)(a.match_id)  # a change: the whole tournament is sent again
    while True:
        msg = await comm.receive_json_from(timeout=5)
        messages.append(msg)
        if msg["type"] == "tournament" and any(x["status"] == "finished" for x in msg["tournament"]["rounds"][0]["tables"]):
            break
    await comm.disconnect()
    found = {s for msg in messages for s in strings_in(msg)}
    await database_sync_to_async(assert_no_live_deal_recoverable)(t, json.dumps(messages), found)


def test_a_live_ordinary_match_shows_its_seed_nowhere() -> None:
    table, match, humans = started_table(players=3, options={"hand": 8})
    blob: list[str] = []
    for who in (None, humans[0], user("outsider")):
        c, web = api(who), page(who)
        for path in (f"/api/tables/{table.pk}/", f"/api/matches/{match.pk}/", "/api/matches/", f"/api/matches/{match.pk}/timeline/",
                     f"/api/matches/{match.pk}/state/", f"/api/matches/{match.pk}/timeline/?perspective=seat:0",
                     f"/api/matches/{match.pk}/export/"):
            blob.append(c.get(path).content.decode())
        blob.append(web.get(f"/tables/{table.pk}/").content.decode())
        blob.append(web.get(f"/matches/{match.pk}/replay/").content.decode())
    text = "\n".join(blob)
    assert match.seed and match.seed not in text
    deal = hands(match)
    for seed in candidates(tokens_in(text), rounds=(), sizes=()):
        assert redeal(seed, match) != deal


def card_ids_in(value: Any) -> set[int]:
    """Every card a message shows face up (tiny's cards are `{id, face, value}`)."""
    if isinstance(value, dict):
        found = {value["id"]} if {"id", "face"} <= set(value) else set()
        return found.union(*(card_ids_in(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(card_ids_in(v) for v in value)) if value else set()
    return set()


async def watch(table_id: int, token: str | None = None) -> tuple[WebsocketCommunicator, list[dict[str, Any]]]:
    """A table socket's hello and its answer to `sync` from 0: everything it will tell about the match."""
    comm = WebsocketCommunicator(application, f"/ws/tables/{table_id}/" + (f"?token={token}" if token else ""))
    assert (await comm.connect())[0]
    got = [await comm.receive_json_from(timeout=5)]
    await comm.send_json_to({"type": "sync", "since": 0})
    while got[-1]["type"] != "events":
        got.append(await comm.receive_json_from(timeout=5))
    return comm, got


@pytest.mark.asyncio
async def test_watching_the_twin_tables_shows_no_card_a_live_table_hides() -> None:
    """A watcher of the finished table would see its end (ZACK! and tiny show every hand then) and every
    card played: the cards the twin's players still hold. So while a twin plays, a table shows watchers
    nothing; a table whose deal no other table plays any more shows its own public record as ever."""
    t, people = await database_sync_to_async(duplicate_tournament)(6)
    a, b = await database_sync_to_async(tables_of)(t, 1)
    for table_id in (a.table_id, b.table_id):  # both play: each is the other's future
        comm, got = await watch(table_id)
        assert got[0]["view"] is None and got[0]["deal_secret"] is True and got[-1]["events"] == []
        await comm.disconnect()
    await database_sync_to_async(play_out)(a.match_id)
    live = await database_sync_to_async(Match.objects.get)(pk=b.match_id)
    hidden = {c["id"] for hand in live.state["hands"] for c in hand}
    seen: set[int] = set()
    for table_id in (a.table_id, b.table_id):
        comm, got = await watch(table_id)
        seen |= card_ids_in(got)
        await comm.disconnect()
    assert not seen & hidden, f"a watcher sees cards the live twin's players hold: {sorted(seen & hidden)}"
    # The players are not watchers: each gets their own table as before.
    mine = await database_sync_to_async(lambda: a.seats.first().user)()
    comm, got = await watch(a.table_id, await database_sync_to_async(token_for)(user=mine))
    assert got[0]["view"]["finished"] and "deal_secret" not in got[0] and got[-1]["events"]
    await comm.disconnect()
    # The twin ends: the tables are open to watchers again.
    await database_sync_to_async(play_out)(b.match_id)
    comm, got = await watch(a.table_id)
    assert got[0]["view"]["revealed"] and "deal_secret" not in got[0] and got[-1]["events"]
    await comm.disconnect()
