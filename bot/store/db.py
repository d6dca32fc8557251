"""Opening the tutor's SQLite file, and its schema: every migration, in the order it shipped.

One file, opened per thread (bolt runs listeners on a thread pool), in WAL mode so readers never
block the writer. Uniqueness lives in the schema: one answer per (post, user) is a unique index,
and a write either inserts or reports that the row was already there.

Migrations are forward-only and keep their names: a file is upgraded in place by applying the
ones its `_sqlite_migrations` table does not list yet.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import sqlite_utils
from sqlite_utils import Migrations

from bot.errors import StoreError

migrations = Migrations("study-tutor")

# In WAL mode, NORMAL syncs the log at each checkpoint, not at each commit. A committed answer
# survives the process dying at any point (kill -9, a crash): the commit is in the WAL file, in
# the operating system's cache, and the next opener replays it. What NORMAL gives up is power
# loss or an OS crash: the last commits before it (those since the last sync, at most a
# checkpoint's worth, usually well under a second) can be rolled back, never half-written, and
# the file stays consistent. For a study bot that trade is right: commits no longer wait for the
# disk (bench/scale.py measures both), and a learner who lost a click to a power cut clicks again.
SYNCHRONOUS = "NORMAL"


@migrations()
def m001_posts_and_answers(db: sqlite_utils.Database) -> None:
    db.table("posts").create(
        {
            "id": int,
            "team": str,
            "channel": str,
            "user": str,  # the asker, for a private question; empty for a channel post
            "question_id": str,
            "section": str,
            "topic": str,
            "kind": str,  # private | daily
            "posted_at": str,
            "closes_at": str,
            "ts": str,
        },
        pk="id",
        not_null={"team", "question_id", "kind", "posted_at"},
    )
    db.table("answers").create(
        {
            "id": int,
            "post_id": int,
            "team": str,
            "channel": str,
            "user": str,
            "question_id": str,
            "section": str,
            "topic": str,
            "choice": str,
            "correct": int,
            "answered_at": str,
        },
        pk="id",
        foreign_keys=[("post_id", "posts", "id")],
        not_null={"post_id", "team", "user", "choice", "correct", "answered_at"},
    )
    db.table("answers").create_index(["post_id", "user"], unique=True)
    db.table("answers").create_index(["team", "answered_at"])
    db.table("answers").create_index(["team", "user"])


@migrations()
def m002_events_and_gaps(db: sqlite_utils.Database) -> None:
    db.table("events").create({"event_id": str, "seen_at": str}, pk="event_id")
    db.table("gaps").create(
        {
            "id": int,
            "question": str,
            "asked_at": str,
            "asker": str,  # a salted hash, never the Slack user id
            "best_guess": str,
            "confidence": int,
        },
        pk="id",
    )


@migrations()
def m003_daily_schedules_and_ledger(db: sqlite_utils.Database) -> None:
    """Per-channel schedules, and the ledger that makes a daily post happen once per local day.

    A daily post is claimed by inserting its posts row first (INSERT OR IGNORE against the unique
    index below); `ts` stays empty until Slack accepts the message, and the row is deleted again
    when posting fails. `revealed_at` is claimed the same way so a reveal happens once.
    """
    db.table("schedules").create(
        {
            "team": str,
            "channel": str,
            "at": str,  # HH:MM, local time in `tz`
            "tz": str,  # an IANA zone, e.g. Europe/Berlin
            "days": str,  # a cron day_of_week field: mon-fri, *, mon,wed,fri
            "window_hours": int,  # None: open until the next scheduled post
            "recap": int,  # 1: Monday's post adds last week's top three and the team ranking
            "created_by": str,
            "created_at": str,
        },
        pk=("team", "channel"),
        not_null={"team", "channel", "at", "tz", "days", "recap", "created_at"},
    )
    db.table("posts").add_column("local_date", str)
    db.table("posts").add_column("revealed_at", str)
    db.execute(
        "create unique index idx_posts_daily_ledger on posts (team, channel, local_date) "
        "where kind = 'daily'"
    )
    db.table("posts").create_index(["kind", "closes_at"])


@migrations()
def m004_schedule_sections(db: sqlite_utils.Database) -> None:
    """A channel can limit its daily questions to some exam sections ('' for all of them)."""
    db.table("schedules").add_column("sections", str, not_null_default="")


@migrations()
def m005_tallies_and_covering_indexes(db: sqlite_utils.Database) -> None:
    """Running totals for boards and stats (`bot.store.tallies`), counted from what is there.

    Indexes for what still reads answers or posts by place and time: a channel's answers (its
    zone's buckets, the recap), a learner's answers (reviews due) and posts (open questions),
    and daily posts by workspace.
    """
    from bot.store import tallies  # the counting lives there; this only makes the tables

    db.execute(
        "create table board_tallies (team text not null, channel text not null, "
        "bucket text not null, user text not null, answered integer not null default 0, "
        "correct integer not null default 0, primary key (team, channel, bucket, user)) "
        "without rowid"
    )
    db.execute(
        "create table channel_tallies (team text not null, bucket text not null, "
        "channel text not null, answered integer not null default 0, "
        "correct integer not null default 0, daily_answered integer not null default 0, "
        "daily_correct integer not null default 0, members integer not null default 0, "
        "posts integer not null default 0, primary key (team, bucket, channel)) without rowid"
    )
    db.execute(
        "create table learner_tallies (team text not null, user text not null, "
        "key text not null, answered integer not null default 0, "
        "correct integer not null default 0, primary key (team, user, key)) without rowid"
    )
    db.execute(
        "create table daily_members (team text not null, channel text not null, "
        "user text not null, first_at text not null, primary key (team, channel, user)) "
        "without rowid"
    )
    db.execute("drop index if exists idx_answers_team_user")
    db.execute(
        "create index idx_answers_team_user_time on answers "
        "(team, user, answered_at, post_id, question_id, correct)"
    )
    db.execute(
        "create index idx_answers_team_channel_time on answers "
        "(team, channel, answered_at, user, correct, post_id)"
    )
    db.execute("create index idx_posts_team_user_kind on posts (team, user, kind)")
    db.execute("create index idx_posts_team_kind_posted on posts (team, kind, posted_at)")
    tallies.rebuild(db)


@migrations()
def m006_cards_and_exam_dates(db: sqlite_utils.Database) -> None:
    """Each learner's FSRS card per question (`bot.store.cards`), replayed from every answer on
    file; each learner's exam date (one per learner and workspace); and the Slack file of each
    learner's last uploaded chart, with a digest of its data, so an unchanged chart is reused."""
    from bot.store import cards  # the replay lives there; this only makes the tables

    db.execute(
        "create table cards (team text not null, user text not null, "
        "question_id text not null, card text not null, due text not null, "
        "reviews integer not null default 0, lapses integer not null default 0, "
        "primary key (team, user, question_id)) without rowid"
    )
    db.execute("create index idx_cards_due on cards (team, user, due)")
    db.execute(
        "create table exam_dates (team text not null, user text not null, "
        "exam_date text not null, set_at text not null, primary key (team, user)) without rowid"
    )
    db.execute(
        "create table chart_files (team text not null, user text not null, name text not null, "
        "digest text not null, file_id text not null, alt text not null, "
        "uploaded_at text not null, "
        "primary key (team, user, name)) without rowid"
    )
    cards.rebuild(db)


@migrations()
def m007_mock_exams(db: sqlite_utils.Database) -> None:
    """Mock exams (`bot.store.mocks`): one row per mock, one per question drawn for it.

    A learner has at most one open mock: a unique index over the open ones. An item's post is
    made when its question is shown (kind `mock`), so answers go where every answer goes.
    """
    db.execute(
        "create table mocks (id integer primary key, team text not null, user text not null, "
        "channel text not null, size integer not null, started_at text not null, "
        "deadline text, finished_at text, status text not null, message_channel text, "
        "message_ts text)"
    )
    db.execute("create unique index idx_mocks_open on mocks (team, user) where status = 'open'")
    db.execute(
        "create table mock_items (mock_id integer not null references mocks(id), "
        "position integer not null, question_id text not null, "
        "post_id integer unique references posts(id), primary key (mock_id, position))"
    )


@migrations()
def m008_flags(db: sqlite_utils.Database) -> None:
    """Learners' reports on content and their 👍/👎 on answers (`bot.store.flags`).

    `kind` is what was flagged: a quiz `question` or a knowledge `entry` (an answer); `reason`
    is wrong | outdated | unclear | other for a report, up | down for a rating. The reporter is
    a salted hash, as for gaps. `cleared_at` is set when a curator has dealt with it.
    """
    db.execute(
        "create table flags (id integer primary key, team text not null, kind text not null, "
        "item text not null, reason text not null, comment text not null default '', "
        "reporter text not null, flagged_at text not null, cleared_at text)"
    )
    db.execute("create index idx_flags_item on flags (kind, item, cleared_at)")


_ELSEWHERE = "or set TUTOR_DB to another file"


def path_problem(path: Path) -> str | None:
    """What stops `path` from being the tutor's SQLite file before SQLite is asked, or None."""
    folder, this = path.parent, f"the database {path}"
    if path.is_dir():
        return f"{this} is a folder; set TUTOR_DB to a file in it, e.g. {path / 'tutor.db'}"
    if not folder.exists():
        return f"{this}: its folder does not exist; create it (mkdir -p {folder}) {_ELSEWHERE}"
    if not folder.is_dir():
        return f"{this}: {folder} is a file, not a folder; set TUTOR_DB to another path"
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        return f"{this} cannot be read and written by this user; fix that {_ELSEWHERE}"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"{this}: its folder is not writable by this user; fix that {_ELSEWHERE}"
    return None


def file_problem(path: Path, error: sqlite3.DatabaseError) -> str:
    """SQLite refused the file: say what it is in words a person can act on."""
    said = str(error).lower()
    if "not a database" in said:
        return (
            f"{path} is not a Study Tutor database (not an SQLite file); move it away, {_ELSEWHERE}"
        )
    if "malformed" in said or "corrupt" in said:
        return (
            f"the database {path} is damaged (truncated or corrupt); restore it from a backup, or "
            f"move it away to start afresh, {_ELSEWHERE}"
        )
    if "readonly" in said or "unable to open" in said or "locked" in said:
        return f"the database {path} cannot be opened for writing; check the file {_ELSEWHERE}"
    return f"the database {path} cannot be opened as an SQLite database; move it away, {_ELSEWHERE}"


@contextlib.contextmanager
def immediate(db: sqlite_utils.Database) -> Iterator[None]:
    """A write transaction that takes the write lock at once (waiting up to the busy timeout).

    sqlite-utils' atomic() begins a deferred transaction, which in WAL mode can fail without
    waiting when another writer commits between its first read and its first write.
    """
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def stamp(moment: dt.datetime) -> str:
    """A UTC timestamp that sorts as text; every time in the store has this form."""
    if moment.tzinfo is None:
        raise ValueError("times given to the store must be timezone-aware")
    return moment.astimezone(dt.UTC).isoformat(timespec="seconds")


class Database:
    """The file and this thread's connection to it; opening it applies pending migrations."""

    def __init__(self, path: Path | str) -> None:
        self.path = str(path)
        self._local = threading.local()
        problem = path_problem(Path(path))
        if problem:
            raise StoreError(problem)
        try:
            self._open()
        except sqlite3.DatabaseError as error:
            self.close()
            raise StoreError(file_problem(Path(path), error)) from None

    def _open(self) -> None:
        db = self.db
        # WAL is a property of the file, set by any opener. Switching fails at once (not after the
        # busy timeout) while another process holds a lock; the file stays correct either way,
        # and the next open sets it.
        with contextlib.suppress(sqlite3.OperationalError):
            db.execute("PRAGMA journal_mode=WAL")
        # Two processes may open a new file at once: take the write lock first, so one applies
        # the migrations and the other waits, then finds nothing pending. (sqlite-utils'
        # atomic() begins a deferred transaction, which cannot wait for that lock.)
        db.execute("BEGIN IMMEDIATE")
        try:
            migrations.apply(db)
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    @property
    def db(self) -> sqlite_utils.Database:
        """This thread's connection (sqlite3 connections must stay on their thread)."""
        db = getattr(self._local, "db", None)
        if db is None:
            conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            conn.execute("PRAGMA busy_timeout=30000")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute(f"PRAGMA synchronous={SYNCHRONOUS}")
            db = sqlite_utils.Database(conn, execute_plugins=False)
            self._local.db = db
        return db

    def close(self) -> None:
        db = getattr(self._local, "db", None)
        if db is not None:
            db.close()
            self._local.db = None
