"""The SQLite store: posted questions, answers, leaderboards, processed events and gaps.

One file, opened per thread (bolt runs listeners on a thread pool), in WAL mode so readers never
block the writer. Uniqueness lives in the schema: one answer per (post, user) is a unique index,
and a write either inserts or reports that the row was already there.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path

import sqlite_utils
from sqlite_utils import Migrations

migrations = Migrations("study-tutor")


@migrations()
def m001_posts_and_answers(db: sqlite_utils.Database) -> None:
    db["posts"].create(
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
    db["answers"].create(
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
    db["answers"].create_index(["post_id", "user"], unique=True)
    db["answers"].create_index(["team", "answered_at"])
    db["answers"].create_index(["team", "user"])


@migrations()
def m002_events_and_gaps(db: sqlite_utils.Database) -> None:
    db["events"].create({"event_id": str, "seen_at": str}, pk="event_id")
    db["gaps"].create(
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


def stamp(moment: dt.datetime) -> str:
    """A UTC timestamp that sorts as text; every time in the store has this form."""
    if moment.tzinfo is None:
        raise ValueError("times given to the store must be timezone-aware")
    return moment.astimezone(dt.UTC).isoformat(timespec="seconds")


@dataclass(frozen=True)
class Post:
    """A question put to someone: privately to one learner, or to a channel."""

    id: int
    team: str
    channel: str
    user: str
    question_id: str
    kind: str
    posted_at: str
    closes_at: str | None
    ts: str | None


@dataclass(frozen=True)
class Standing:
    """One row of a leaderboard."""

    rank: int
    user: str
    points: int
    answered: int
    correct: int

    @property
    def accuracy(self) -> float:
        return self.correct / self.answered if self.answered else 0.0


@dataclass(frozen=True)
class TopicScore:
    topic: str
    answered: int
    correct: int


class Store:
    """All reads and writes of the tutor's SQLite file."""

    def __init__(self, path: Path | str) -> None:
        self.path = str(path)
        self._local = threading.local()
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
            db = sqlite_utils.Database(conn, execute_plugins=False)
            self._local.db = db
        return db

    def close(self) -> None:
        db = getattr(self._local, "db", None)
        if db is not None:
            db.close()
            self._local.db = None

    # -- posts and answers ----------------------------------------------------------------

    def add_post(
        self,
        *,
        team: str,
        channel: str,
        user: str,
        question_id: str,
        section: str,
        topic: str,
        kind: str,
        now: dt.datetime,
        closes_at: dt.datetime | None = None,
    ) -> int:
        row = {
            "team": team,
            "channel": channel,
            "user": user,
            "question_id": question_id,
            "section": section,
            "topic": topic,
            "kind": kind,
            "posted_at": stamp(now),
            "closes_at": stamp(closes_at) if closes_at else None,
            "ts": None,
        }
        return int(self.db["posts"].insert(row).last_pk)

    def post(self, post_id: int) -> Post | None:
        rows = list(self.db["posts"].rows_where("id = ?", [post_id]))
        if not rows:
            return None
        row = rows[0]
        return Post(
            row["id"], row["team"], row["channel"], row["user"], row["question_id"],
            row["kind"], row["posted_at"], row["closes_at"], row["ts"],
        )  # fmt: skip

    def last_open_post(self, *, team: str, user: str, kind: str = "private") -> Post | None:
        """The learner's newest question of `kind` that they have not answered yet."""
        sql = """
            select id from posts
            where team = ? and user = ? and kind = ?
              and not exists (select 1 from answers a where a.post_id = posts.id and a.user = ?)
            order by id desc limit 1
        """
        row = self.db.execute(sql, [team, user, kind, user]).fetchone()
        return self.post(row[0]) if row else None

    def record_answer(
        self, post: Post, *, user: str, choice: str, correct: bool, section: str, topic: str,
        now: dt.datetime,
    ) -> bool:  # fmt: skip
        """Record a learner's answer; False when they had already answered this post."""
        sql = """
            insert or ignore into answers
              (post_id, team, channel, user, question_id, section, topic, choice, correct,
               answered_at)
            values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """
        values = [
            post.id, post.team, post.channel, user, post.question_id, section, topic, choice,
            int(correct), stamp(now),
        ]  # fmt: skip
        return self.db.execute(sql, values).rowcount == 1

    def answer_of(self, post_id: int, user: str) -> str | None:
        row = self.db.execute(
            "select choice from answers where post_id = ? and user = ?", [post_id, user]
        ).fetchone()
        return row[0] if row else None

    def asked_question_ids(
        self, *, team: str, channel: str | None = None, user: str | None = None
    ) -> list[str]:
        """Question ids already put to a channel or a learner, oldest first."""
        where, values = ["team = ?"], [team]
        if channel is not None:
            where.append("channel = ?")
            values.append(channel)
        if user is not None:
            where.append("user = ?")
            values.append(user)
        sql = f"select question_id from posts where {' and '.join(where)} order by id"
        return [row[0] for row in self.db.execute(sql, values).fetchall()]

    def attempts(
        self, *, team: str, user: str, kind: str = "private"
    ) -> list[tuple[str, bool, str]]:
        """(question id, correct, answered at) for one learner's answers to posts of `kind`."""
        sql = """
            select a.question_id, a.correct, a.answered_at from answers a
            join posts p on p.id = a.post_id
            where a.team = ? and a.user = ? and p.kind = ? order by a.answered_at
        """
        rows = self.db.execute(sql, [team, user, kind]).fetchall()
        return [(q, bool(c), at) for q, c, at in rows]

    # -- leaderboards and stats -----------------------------------------------------------

    def leaderboard(
        self, *, team: str, since: dt.datetime | None = None, channel: str | None = None,
        limit: int = 10,
    ) -> list[Standing]:  # fmt: skip
        """Learners ranked by points, then accuracy, then id (so ties are stable)."""
        where, values = ["team = ?"], [team]
        if since is not None:
            where.append("answered_at >= ?")
            values.append(stamp(since))
        if channel is not None:
            where.append("channel = ?")
            values.append(channel)
        sql = f"""
            select user, sum(correct) as points, count(*) as answered, sum(correct) as correct
            from answers where {" and ".join(where)}
            group by user
            order by points desc, 1.0 * sum(correct) / count(*) desc, user
            limit ?
        """
        rows = self.db.execute(sql, [*values, limit]).fetchall()
        return [Standing(i, u, p, a, c) for i, (u, p, a, c) in enumerate(rows, start=1)]

    def totals(self, *, team: str, user: str) -> tuple[int, int]:
        """(answered, correct) for one learner."""
        row = self.db.execute(
            "select count(*), coalesce(sum(correct), 0) from answers where team = ? and user = ?",
            [team, user],
        ).fetchone()
        return int(row[0]), int(row[1])

    def answer_days(self, *, team: str, user: str) -> list[str]:
        """The UTC dates on which a learner answered, newest first."""
        sql = """
            select distinct substr(answered_at, 1, 10) as day from answers
            where team = ? and user = ? order by day desc
        """
        return [row[0] for row in self.db.execute(sql, [team, user]).fetchall()]

    def topic_scores(self, *, team: str, user: str) -> list[TopicScore]:
        """Per-topic results for one learner, weakest first."""
        sql = """
            select topic, count(*), sum(correct) from answers
            where team = ? and user = ? group by topic
            order by 1.0 * sum(correct) / count(*), count(*) desc, topic
        """
        rows = self.db.execute(sql, [team, user]).fetchall()
        return [TopicScore(t, a, c) for t, a, c in rows]

    def weak_sections(self, *, team: str, channel: str | None = None) -> list[str]:
        """Sections ordered by the share answered wrong, worst first."""
        where, values = ["team = ?"], [team]
        if channel is not None:
            where.append("channel = ?")
            values.append(channel)
        sql = f"""
            select section from answers where {" and ".join(where)}
            group by section order by 1.0 * sum(correct) / count(*), section
        """
        return [row[0] for row in self.db.execute(sql, values).fetchall()]

    # -- events and gaps ------------------------------------------------------------------

    def first_delivery(self, event_id: str, now: dt.datetime) -> bool:
        """Claim an event id; False when it was processed before (a retry or a double)."""
        sql = "insert or ignore into events (event_id, seen_at) values (?, ?)"
        return self.db.execute(sql, [event_id, stamp(now)]).rowcount == 1

    def forget_events(self, before: dt.datetime) -> int:
        return self.db.execute("delete from events where seen_at < ?", [stamp(before)]).rowcount

    def record_gap(
        self, *, question: str, asker: str, best_guess: str, confidence: int, now: dt.datetime
    ) -> None:
        asker_hash = (
            hashlib.sha256(f"study-tutor:{asker}".encode()).hexdigest()[:16] if asker else ""
        )
        self.db["gaps"].insert(
            {
                "question": question[:500],
                "asked_at": stamp(now),
                "asker": asker_hash,
                "best_guess": best_guess,
                "confidence": confidence,
            }
        )

    def gaps(self, limit: int = 50) -> list[dict]:
        """Questions answered poorly or not at all, most often asked first."""
        sql = """
            select lower(trim(question)) as question, count(*) as times,
                   count(distinct asker) as askers, max(best_guess) as best_guess,
                   max(confidence) as confidence, max(asked_at) as last_asked
            from gaps group by lower(trim(question))
            order by times desc, last_asked desc limit ?
        """
        return [dict(row) for row in self.db.query(sql, [limit])]


@migrations()
def m003_daily_schedules_and_ledger(db: sqlite_utils.Database) -> None:
    """Per-channel schedules, and the ledger that makes a daily post happen once per local day.

    A daily post is claimed by inserting its posts row first (INSERT OR IGNORE against the unique
    index below); `ts` stays empty until Slack accepts the message, and the row is deleted again
    when posting fails. `revealed_at` is claimed the same way so a reveal happens once.
    """
    db["schedules"].create(
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
    db["posts"].add_column("local_date", str)
    db["posts"].add_column("revealed_at", str)
    db.execute(
        "create unique index idx_posts_daily_ledger on posts (team, channel, local_date) "
        "where kind = 'daily'"
    )
    db["posts"].create_index(["kind", "closes_at"])
