"""A database file from before the store was split by domain upgrades in place, schema and rows.

tests/data/tutor-db-before-store-split.sql is `sqlite3.Connection.iterdump()` of a file made by
the code of that time (`bot.scores.Store` and `bot.daily_store.DailyStore`): one private post and
its answer, one event, one gap, one schedule and one posted daily question, all at
2026-12-01 09:00 UTC. It is a fixture of the old format: never regenerate it with newer code.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from pathlib import Path

import sqlite_utils

from bot.schedule import Schedule
from bot.standings import Standings
from bot.store import DailyStore, Store, migrations

BEFORE_SPLIT = Path(__file__).parent / "data" / "tutor-db-before-store-split.sql"
SHIPPED = ["m001_posts_and_answers", "m002_events_and_gaps", "m003_daily_schedules_and_ledger"]
NOW_ALL = [
    *SHIPPED,
    "m004_schedule_sections",
    "m005_tallies_and_covering_indexes",
    "m006_cards_and_exam_dates",
    "m007_mock_exams",
    "m008_flags",
]
THEN = dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC)


def file_from_dump(path: Path) -> Path:
    conn = sqlite3.connect(path)
    try:
        conn.executescript(BEFORE_SPLIT.read_text(encoding="utf-8"))
    finally:
        conn.close()
    return path


def schema(store: Store) -> list[tuple]:
    sql = "select type, name, tbl_name, sql from sqlite_master order by type, name"
    return store.db.execute(sql).fetchall()


def test_migrations_keep_their_names_and_order():
    """Migrations are forward-only: the shipped ones keep their names, in the order they ran."""
    everything = migrations.pending(sqlite_utils.Database(memory=True))
    assert [m.name for m in everything] == NOW_ALL


def test_an_old_file_upgrades_in_place(tmp_path):
    """A file from before the split gets only the newer migrations, its schedules kept."""
    store = Store(file_from_dump(tmp_path / "tutor.db"))
    assert migrations.pending(store.db) == []
    assert [m.name for m in migrations.applied(store.db)] == NOW_ALL
    (schedule,) = DailyStore(store).schedules()
    assert schedule.sections == ()  # an old schedule draws from every section


def test_an_old_files_rows_read_through_the_store(tmp_path):
    """Posts, answers, events, gaps, schedules and the daily ledger all read back as written."""
    store = Store(file_from_dump(tmp_path / "tutor.db"))
    private = store.post(1)
    assert private is not None
    assert (private.team, private.user, private.question_id, private.kind) == (
        "T1",
        "U1",
        "q-automl",
        "private",
    )
    assert store.answer_of(1, "U1") == "B"
    assert store.totals(team="T1", user="U1") == (1, 1)
    board = Standings(store).board(team="T1", period="all", now=dt.datetime.now(dt.UTC))
    assert [(s.user, s.points) for s in board.standings] == [("U1", 1)]
    assert store.first_delivery("Ev1", THEN) is False
    assert [(g["question"], g["times"]) for g in store.gaps()] == [("how do i shard a tpu pod?", 1)]
    daily = DailyStore(store)
    assert daily.schedule(team="T1", channel="C1") == Schedule(
        "T1", "C1", "09:00", "Europe/Berlin", "mon-fri", 8, True
    )
    posted = daily.post_for(team="T1", channel="C1", local_date=dt.date(2026, 12, 1))
    assert posted is not None
    assert (posted.id, posted.question_id, posted.ts) == (2, "q-oom", "1796115600.000100")
    assert [p.id for p in daily.to_reveal(THEN + dt.timedelta(hours=8))] == [2]


def test_an_old_file_takes_new_writes(tmp_path):
    """The upgraded file still enforces its rules: one answer per post, one daily post a day."""
    store = Store(file_from_dump(tmp_path / "tutor.db"))
    private = store.post(1)
    assert private is not None
    again = dict(section="3.2", topic="Training methods", now=THEN + dt.timedelta(hours=1))
    assert store.record_answer(private, user="U1", choice="A", correct=False, **again) is False
    claim = DailyStore(store).claim(
        team="T1",
        channel="C1",
        local_date=dt.date(2026, 12, 1),
        question_id="q-automl",
        section="3.2",
        topic="Training methods",
        now=THEN,
        closes_at=THEN + dt.timedelta(hours=8),
    )
    assert claim is None


def test_a_fresh_file_gets_the_same_schema_as_an_upgraded_one(tmp_path):
    """Tables, columns and indexes of a new file match those of a file upgraded in place."""
    upgraded = Store(file_from_dump(tmp_path / "old.db"))
    fresh = Store(tmp_path / "new.db")
    assert schema(fresh) == schema(upgraded)
    assert [m.name for m in migrations.applied(fresh.db)] == NOW_ALL
