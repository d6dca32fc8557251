"""Mock exams in the store: the mock, the questions drawn for it, and where it is shown.

A mock's answers are ordinary answers to posts of kind `mock` (`Answers.record_answer`), made
one at a time as each question is shown; the tallies leave them off every board. At most one
mock per learner is open: the database refuses a second (a unique index over open mocks).
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from bot.store.db import immediate, stamp

if TYPE_CHECKING:
    from bot.store import Store

MockStatus = Literal["open", "finished", "discarded"]


@dataclass(frozen=True)
class MockRow:
    """One mock exam as stored; times are store stamps (UTC ISO text)."""

    id: int
    team: str
    user: str
    channel: str
    size: int
    started_at: str
    deadline: str | None
    finished_at: str | None
    status: MockStatus
    message_channel: str | None  # where Slack shows it (a DM), once posted
    message_ts: str | None


@dataclass(frozen=True)
class ItemRow:
    """A question of a mock, its post once shown, and the learner's answer once given."""

    position: int
    question_id: str
    post_id: int | None
    choice: str | None
    correct: bool | None


_MOCK = (
    "select id, team, user, channel, size, started_at, deadline, finished_at, status, "
    "message_channel, message_ts from mocks"
)


class MockStore:
    """Mock exams in the tutor's SQLite file, on the Store's per-thread connection."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @property
    def db(self):
        return self.store.db

    def start(
        self,
        *,
        team: str,
        user: str,
        channel: str,
        question_ids: Sequence[str],
        now: dt.datetime,
        deadline: dt.datetime | None,
    ) -> int | None:
        """A new open mock with its questions in order; None if the learner has one open."""
        sql = (
            "insert into mocks (team, user, channel, size, started_at, deadline, status) "
            "values (?, ?, ?, ?, ?, ?, 'open')"
        )
        when = stamp(deadline) if deadline else None
        values = [team, user, channel, len(question_ids), stamp(now), when]
        try:
            with immediate(self.db):
                mock_id = self.db.execute(sql, values).lastrowid
                self.db.conn.executemany(
                    "insert into mock_items (mock_id, position, question_id) values (?, ?, ?)",
                    [(mock_id, i, q) for i, q in enumerate(question_ids)],
                )
        except sqlite3.IntegrityError:  # the unique index over open mocks: one is open already
            return None
        return mock_id

    def mock(self, mock_id: int) -> MockRow | None:
        row = self.db.execute(f"{_MOCK} where id = ?", [mock_id]).fetchone()
        return MockRow(*row) if row else None

    def open_mock(self, *, team: str, user: str) -> MockRow | None:
        sql = f"{_MOCK} where team = ? and user = ? and status = 'open'"
        row = self.db.execute(sql, [team, user]).fetchone()
        return MockRow(*row) if row else None

    def mock_of_post(self, post_id: int) -> MockRow | None:
        row = self.db.execute(
            "select mock_id from mock_items where post_id = ?", [post_id]
        ).fetchone()
        return self.mock(row[0]) if row else None

    def items(self, mock: MockRow) -> list[ItemRow]:
        """The mock's questions in order, with the learner's answers so far."""
        sql = """
            select i.position, i.question_id, i.post_id, a.choice, a.correct
            from mock_items i left join answers a on a.post_id = i.post_id and a.user = ?
            where i.mock_id = ? order by i.position
        """
        rows = self.db.execute(sql, [mock.user, mock.id]).fetchall()
        return [
            ItemRow(p, q, post, choice, None if correct is None else bool(correct))
            for p, q, post, choice, correct in rows
        ]

    def show(
        self, mock: MockRow, position: int, *, section: str, topic: str, now: dt.datetime
    ) -> int:
        """The post of the mock's question at `position`, made on first showing (kind `mock`).

        Its answers close at the mock's deadline, if it has one.
        """
        sql = "select question_id, post_id from mock_items where mock_id = ? and position = ?"
        with immediate(self.db):
            question_id, post_id = self.db.execute(sql, [mock.id, position]).fetchone()
            if post_id is not None:
                return post_id
            closes = dt.datetime.fromisoformat(mock.deadline) if mock.deadline else None
            post_id = self.store.add_post(
                team=mock.team,
                channel=mock.channel,
                user=mock.user,
                question_id=question_id,
                section=section,
                topic=topic,
                kind="mock",
                now=now,
                closes_at=closes,
            )
            self.db.execute(
                "update mock_items set post_id = ? where mock_id = ? and position = ?",
                [post_id, mock.id, position],
            )
        return post_id

    def close(self, mock: MockRow, status: MockStatus, *, at: dt.datetime) -> bool:
        """Finish or discard an open mock; False if it was no longer open (someone else did)."""
        sql = "update mocks set status = ?, finished_at = ? where id = ? and status = 'open'"
        with immediate(self.db):
            return self.db.execute(sql, [status, stamp(at), mock.id]).rowcount == 1

    def set_message(self, mock_id: int, *, channel: str, ts: str) -> None:
        """Where the mock is shown now: its questions are answered on that message only."""
        sql = "update mocks set message_channel = ?, message_ts = ? where id = ?"
        with immediate(self.db):
            self.db.execute(sql, [channel, ts, mock_id])

    def seen_since(self, *, team: str, user: str, since: dt.datetime) -> dict[str, str]:
        """Question ids the learner was shown or answered since `since`, with when they last were.

        Private and mock questions count when shown; a channel's daily question when answered.
        """
        sql = """
            select question_id, max(at) from (
              select question_id, posted_at as at from posts
              where team = ? and user = ? and posted_at >= ?
              union all
              select question_id, answered_at as at from answers
              where team = ? and user = ? and answered_at >= ?
            ) group by question_id
        """
        since_at = stamp(since)
        rows = self.db.execute(sql, [team, user, since_at, team, user, since_at]).fetchall()
        return dict(rows)
