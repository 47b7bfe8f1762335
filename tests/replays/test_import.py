"""Export → import round trips (service and management commands), snapshots, and refused documents."""

from __future__ import annotations

import copy
import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from accounts.models import User
from accounts.services import bot_user
from games import errors
from games.engine import fold_all
from games.kit.registry import INSTALLED, get_bot, get_rules
from games.models import Match, MatchEvent, Snapshot
from games.services.actions import SNAPSHOT_EVERY
from replays import selectors
from replays.services import fold_with_snapshots, match_import, snapshots_on_match_finished, snapshots_write
from tests.replays.replay_support import plain, stored_log, tiny_match
from tests.support.simulate import play_bots
from tests.support.tinygame import RULES as TINY

pytestmark = pytest.mark.django_db


def without_ids(doc: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in doc.items() if k not in ("started_at", "ended_at")}


def bot_document(slug: str, seed: int = 1) -> dict[str, Any]:
    """A whole bot match of a real game, played by the pure rules, as an export document."""
    rules = get_rules(slug)
    seats = 4 if rules.teams else max(rules.min_seats, 3)
    levels = ["easy", "normal", "hard", "normal"][:seats]
    report = play_bots(rules, get_bot(slug), levels, seed)
    assert report.outcome is not None, f"{slug} bot match {seed} did not end"
    # This installation's bots by identity (two `normal` bots are two accounts: numbers 0 and 1).
    names = [bot_user(slug=slug, level=lv, number=levels[:s].count(lv)).username for s, lv in enumerate(levels)]
    players = [{"seat": s, "username": names[s], "bot": True, "level": lv} for s, lv in enumerate(levels)]
    return selectors.export_document(game=slug, options={}, seats=players, events=report.log, outcome=report.outcome)


def test_round_trip_recreates_the_match_under_new_ids() -> None:
    match, (ann, bob) = tiny_match(players=2, bots=1, hand=3, finish=True)
    document = selectors.export(match=match)
    copy_ = match_import(document=json.loads(json.dumps(document)))
    assert copy_.pk != match.pk and copy_.table_id is None
    assert selectors.export(match=copy_) == document  # same users (matched by name), log, outcome and times
    assert copy_.state == match.state and copy_.seq == match.seq and copy_.last_t_ms == match.last_t_ms
    assert [(p.seat, p.user_id, p.bot_level, p.place) for p in copy_.players.all()] == [
        (p.seat, p.user_id, p.bot_level, p.place) for p in match.players.all()
    ]


def test_import_into_another_installation_creates_the_players() -> None:
    match, (ann, bob) = tiny_match(players=2, bots=1, finish=True)
    document = selectors.export(match=match)
    Match.objects.all().delete()
    User.objects.filter(pk__in=[ann.pk, bob.pk]).delete()
    User.objects.filter(is_bot=True, bot_game="tiny").delete()
    imported = match_import(document=document)
    people = {p.seat: p.user for p in imported.players.all()}
    assert people[0].username == ann.username and not people[0].has_usable_password() and not people[0].is_bot
    bot_name = document["seats"][2]["username"]  # a fresh installation names the same bot identity alike
    assert people[2].username == bot_name and people[2].is_bot and imported.players.get(seat=2).bot_level == "normal"
    assert without_ids(selectors.export(match=imported)) == without_ids(document)


@pytest.mark.parametrize("slug", INSTALLED)
def test_bot_match_of_every_game_imports_folds_and_seeks(slug: str) -> None:
    document = bot_document(slug)
    match = match_import(document=document)
    assert match.status == "finished" and match.outcome == document["outcome"]
    assert without_ids(selectors.export(match=match)) == without_ids(document)
    snaps = list(Snapshot.objects.filter(match=match).order_by("seq").values_list("seq", flat=True))
    assert snaps == list(range(SNAPSHOT_EVERY, match.seq + 1, SNAPSHOT_EVERY))
    rules = get_rules(slug)
    log = plain(document["events"])
    rng = random.Random(slug)
    for k in sorted(rng.sample(range(1, match.seq + 1), min(8, match.seq))):
        assert selectors.state_at(match=match, at=k) == json.loads(json.dumps(fold_all(rules, log[:k])))


def test_import_keeps_ranked_only_when_asked() -> None:
    match, _ = tiny_match(players=2, finish=True)
    document = dict(selectors.export(match=match), ranked=True)
    assert match_import(document=document).ranked is False
    assert match_import(document=document, keep_ranked=True).ranked is True


def tampered(document: dict[str, Any], how: str) -> dict[str, Any]:
    doc = copy.deepcopy(document)
    if how == "outcome":
        doc["outcome"]["winners"] = [p for p in range(len(doc["seats"])) if p not in doc["outcome"]["winners"]]
    elif how == "truncated":
        doc["events"] = doc["events"][:-1]
    elif how == "gap":
        del doc["events"][1]
    elif how == "format":
        doc["format"] = "something-else/9"
    elif how == "game":
        doc["game"] = "chess"
    elif how == "live":
        doc["status"] = "live"
    elif how == "seats":
        doc["seats"] = doc["seats"][:1]
    elif how == "username":
        doc["seats"][0]["username"] = "no spaces allowed"
    elif how == "time":
        doc["events"][-1]["t_ms"] = -5
    elif how == "unfoldable":
        doc["events"][0]["data"] = {}
    elif how == "aborted":
        doc["status"] = "aborted"
    return doc


@pytest.mark.parametrize(
    ("how", "says"),
    [
        ("outcome", "does not reproduce the stored outcome"),
        ("truncated", "does not reproduce the stored outcome"),
        ("gap", "seq"),
        ("format", "format"),
        ("game", "unknown game"),
        ("live", "finished or aborted"),
        ("seats", "seats"),
        ("username", "username"),
        ("time", "t_ms"),
        ("unfoldable", "does not fold"),
        ("aborted", "aborted"),
    ],
)
def test_bad_documents_are_refused_and_nothing_is_written(how: str, says: str) -> None:
    match, _ = tiny_match(players=2, bots=1, finish=True)
    document = tampered(selectors.export(match=match), how)
    before = (Match.objects.count(), MatchEvent.objects.count(), User.objects.count())
    with pytest.raises(errors.PlatformError) as refused:
        match_import(document=document)
    assert refused.value.code == "import_refused" and says in refused.value.message
    assert (Match.objects.count(), MatchEvent.objects.count(), User.objects.count()) == before


def test_commands_export_and_import_through_a_file(tmp_path: Path) -> None:
    match, _ = tiny_match(players=3, hand=2, finish=True)
    path = tmp_path / "match.json"
    call_command("export_match", str(match.pk), "-o", str(path), stdout=io.StringIO())
    out = io.StringIO()
    call_command("import_match", str(path), stdout=out)
    new_id = int(out.getvalue().split()[2])
    assert new_id != match.pk and "finished" in out.getvalue()
    assert selectors.export(match=Match.objects.get(pk=new_id)) == json.loads(path.read_text())


@pytest.mark.parametrize("how", ["outcome", "truncated"])
def test_import_command_refuses_a_log_that_does_not_reproduce_its_outcome(tmp_path: Path, how: str) -> None:
    match, _ = tiny_match(players=2, finish=True)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(tampered(selectors.export(match=match), how)))
    count = Match.objects.count()
    with pytest.raises(CommandError, match="refused: folding the log does not reproduce the stored outcome"):
        call_command("import_match", str(path), stdout=io.StringIO())
    assert Match.objects.count() == count


def test_import_command_says_what_is_wrong_with_the_file(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="cannot read"):
        call_command("import_match", str(tmp_path / "missing.json"))
    (tmp_path / "x.json").write_text("{not json")
    with pytest.raises(CommandError, match="is not JSON"):
        call_command("import_match", str(tmp_path / "x.json"))
    match, _ = tiny_match(players=2)
    with pytest.raises(CommandError, match="live"):
        call_command("export_match", str(match.pk))


# --- snapshots ----------------------------------------------------------------------------


def long_bot_document(slug: str, events: int) -> dict[str, Any]:
    """The first seed's bot match with more than `events` events (rule changes move match lengths)."""
    for seed in range(50):
        document = bot_document(slug, seed=seed)
        if len(document["events"]) > events:
            return document
    raise AssertionError(f"no {slug} bot match of over {events} events in 50 seeds")


def test_snapshots_write_fills_in_missing_snapshots_once() -> None:
    match = match_import(document=long_bot_document("smackit", 3 * SNAPSHOT_EVERY))
    assert match.seq > 3 * SNAPSHOT_EVERY
    Snapshot.objects.filter(match=match).delete()
    expected = match.seq // SNAPSHOT_EVERY
    assert snapshots_write(match=match) == expected
    assert snapshots_write(match=match) == 0
    log = plain(stored_log(match))
    for snap in Snapshot.objects.filter(match=match):
        assert snap.state == json.loads(json.dumps(fold_all(get_rules("smackit"), log[: snap.seq])))
    Snapshot.objects.filter(match=match, seq=2 * SNAPSHOT_EVERY).delete()
    snapshots_on_match_finished(match.pk)  # the end-of-match listener puts back only what is missing
    assert Snapshot.objects.filter(match=match).count() == expected


def test_snapshots_write_counts_a_live_snapshot_as_covering_its_block() -> None:
    match = match_import(document=bot_document("smackit", seed=0))
    Snapshot.objects.filter(match=match).delete()
    Snapshot.objects.create(match=match, seq=SNAPSHOT_EVERY + 7, state=selectors.state_at(match=match, at=SNAPSHOT_EVERY + 7))
    assert snapshots_write(match=match) == match.seq // SNAPSHOT_EVERY - 1
    assert not Snapshot.objects.filter(match=match, seq=SNAPSHOT_EVERY).exists()


def test_fold_with_snapshots_copies_are_detached() -> None:
    match, _ = tiny_match(players=2, hand=6, finish=True)
    log = stored_log(match)
    state, snaps = fold_with_snapshots(TINY, log, every=2)
    assert [s for s, _ in snaps] == list(range(2, len(log) + 1, 2))
    for seq, snap in snaps:
        assert snap == json.loads(json.dumps(fold_all(TINY, plain(log[:seq]))))
    assert state == match.state


def test_import_command_reads_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    match, _ = tiny_match(players=2, finish=True)
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(selectors.export(match=match))))
    out = io.StringIO()
    call_command("import_match", "-", stdout=out)
    assert Match.objects.filter(pk=int(out.getvalue().split()[2])).exists()
