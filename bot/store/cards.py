"""Each learner's FSRS card per question, their exam date, and the answers readiness reads.

A card is updated in the same transaction as the answer it follows from (`review`, called by
`Answers.record_answer`), whatever kind of post the answer was to; `rebuild` replays the whole
answer history into cards (migration m006). Cards are kept as the `fsrs` package's own JSON,
with `due` beside it so "what is due" is one indexed range read.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import sqlite_utils
from fsrs import Card

from bot import reviews
from bot.store.db import immediate, stamp

_UPSERT = """
    insert into cards (team, user, question_id, card, due, reviews, lapses)
    values (?, ?, ?, ?, ?, 1, ?)
    on conflict (team, user, question_id) do update set
      card = excluded.card, due = excluded.due, reviews = reviews + 1,
      lapses = lapses + excluded.lapses
"""


def review(
    db: sqlite_utils.Database,
    *,
    team: str,
    user: str,
    question_id: str,
    correct: bool,
    at: dt.datetime,
) -> Card:
    """One answer's review of the learner's card, written (call inside the answer's transaction)."""
    row = db.execute(
        "select card from cards where team = ? and user = ? and question_id = ?",
        [team, user, question_id],
    ).fetchone()
    before = Card.from_json(row[0]) if row else None
    card = reviews.review(before, correct, at, using=reviews.scheduler())
    values = [team, user, question_id, card.to_json(), stamp(card.due), int(not correct)]
    db.execute(_UPSERT, values)
    return card


def rebuild(db: sqlite_utils.Database) -> int:
    """Cards from every answer on file, replayed in time order; returns how many answers."""
    db.execute("delete from cards")
    sql = (
        "select team, user, question_id, correct, answered_at from answers order by answered_at, id"
    )
    using = reviews.scheduler()
    cards: dict[tuple[str, str, str], tuple[Card, int, int]] = {}
    count = 0
    for team, user, question_id, correct, at in db.execute(sql).fetchall():
        key = (team, user, question_id)
        card, times, lapses = cards.get(key, (None, 0, 0))
        moment = dt.datetime.fromisoformat(at)
        card = reviews.review(card, bool(correct), moment, using=using)
        cards[key] = (card, times + 1, lapses + (not correct))
        count += 1
    db.conn.executemany(
        "insert into cards (team, user, question_id, card, due, reviews, lapses) "
        "values (?, ?, ?, ?, ?, ?, ?)",
        [
            (*key, card.to_json(), stamp(card.due), times, lapses)
            for key, (card, times, lapses) in cards.items()
        ],
    )
    return count


@dataclass(frozen=True)
class Answer:
    """One answer a learner gave, as readiness reads it."""

    question_id: str
    section: str
    correct: bool
    at: dt.datetime


class Cards:
    """Cards, exam dates, uploaded charts, and a learner's answers (every kind of post)."""

    db: sqlite_utils.Database

    def card(self, *, team: str, user: str, question_id: str) -> Card | None:
        row = self.db.execute(
            "select card from cards where team = ? and user = ? and question_id = ?",
            [team, user, question_id],
        ).fetchone()
        return Card.from_json(row[0]) if row else None

    def due_questions(self, *, team: str, user: str, now: dt.datetime) -> list[str]:
        """Question ids whose card is due at `now`, most overdue first."""
        sql = """
            select question_id from cards where team = ? and user = ? and due <= ?
            order by due, question_id
        """
        return [r[0] for r in self.db.execute(sql, [team, user, stamp(now)]).fetchall()]

    def learner_answers(self, *, team: str, user: str) -> list[Answer]:
        """Every answer of one learner, oldest first, whatever the post's kind."""
        sql = """
            select question_id, section, correct, answered_at from answers
            where team = ? and user = ? order by answered_at, id
        """
        rows = self.db.execute(sql, [team, user]).fetchall()
        return [Answer(q, s or "", bool(c), dt.datetime.fromisoformat(at)) for q, s, c, at in rows]

    # -- the exam date --------------------------------------------------------------------

    def exam_date(self, *, team: str, user: str) -> dt.date | None:
        row = self.db.execute(
            "select exam_date from exam_dates where team = ? and user = ?", [team, user]
        ).fetchone()
        return dt.date.fromisoformat(row[0]) if row else None

    def set_exam_date(self, *, team: str, user: str, day: dt.date, now: dt.datetime) -> None:
        with immediate(self.db):
            self.db.execute(
                "insert into exam_dates (team, user, exam_date, set_at) values (?, ?, ?, ?) "
                "on conflict (team, user) do update set exam_date = excluded.exam_date, "
                "set_at = excluded.set_at",
                [team, user, day.isoformat(), stamp(now)],
            )

    def remove_exam_date(self, *, team: str, user: str) -> bool:
        """False when there was none."""
        with immediate(self.db):
            cursor = self.db.execute(
                "delete from exam_dates where team = ? and user = ?", [team, user]
            )
        return cursor.rowcount == 1

    # -- charts uploaded to Slack ---------------------------------------------------------

    def chart_file(self, *, team: str, user: str, name: str) -> tuple[str, str, str] | None:
        """(digest, file id, alt text) of the learner's last uploaded chart called `name`."""
        row = self.db.execute(
            "select digest, file_id, alt from chart_files where team = ? and user = ? and name = ?",
            [team, user, name],
        ).fetchone()
        return (row[0], row[1], row[2]) if row else None

    def keep_chart_file(
        self,
        *,
        team: str,
        user: str,
        name: str,
        digest: str,
        file_id: str,
        alt: str,
        now: dt.datetime,
    ) -> None:
        """Remember an uploaded chart, with the words that describe that very picture."""
        with immediate(self.db):
            self.db.execute(
                "insert into chart_files (team, user, name, digest, file_id, alt, uploaded_at) "
                "values (?, ?, ?, ?, ?, ?, ?) on conflict (team, user, name) do update set "
                "digest = excluded.digest, file_id = excluded.file_id, alt = excluded.alt, "
                "uploaded_at = excluded.uploaded_at",
                [team, user, name, digest, file_id, alt, stamp(now)],
            )
