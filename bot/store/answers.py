"""Posted questions and their answers: who was asked what, who answered how, and the boards.

A post is a question put to someone (privately to one learner, or to a channel); an answer is one
learner's choice on one post, kept once by the unique (post, user) index.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Literal

import sqlite_utils

from bot.store import cards, tallies
from bot.store.db import immediate, stamp

# A question put to one learner, to a channel, or to one learner inside a mock exam (on no board)
PostKind = Literal["private", "daily", "mock"]


@dataclass(frozen=True)
class Post:
    """A question put to someone: privately to one learner, or to a channel."""

    id: int
    team: str
    channel: str
    user: str
    question_id: str
    kind: PostKind
    posted_at: str
    closes_at: str | None
    ts: str | None

    def waits_for_reveal(self, now: dt.datetime) -> bool:
        """A daily question still open: its answer and other choices wait for the reveal."""
        return self.kind == "daily" and self.closes_at is not None and self.closes_at > stamp(now)


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


class Answers:
    """Posts, answers, leaderboards and per-learner stats."""

    db: sqlite_utils.Database  # this thread's connection, from `Database`

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
        kind: PostKind,
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
        sql = f"insert into posts ({', '.join(row)}) values ({', '.join('?' for _ in row)})"
        rowid = self.db.execute(sql, list(row.values())).lastrowid
        if rowid is None:  # SQLite always gives one for an insert; say so if it ever does not
            raise RuntimeError("SQLite returned no row id for a new post")
        return rowid

    def post(self, post_id: int) -> Post | None:
        """One post by id (a click's first read: one primary-key lookup)."""
        sql = """
            select id, team, channel, user, question_id, kind, posted_at, closes_at, ts
            from posts where id = ?
        """
        row = self.db.execute(sql, [post_id]).fetchone()
        return Post(*row) if row else None

    def last_open_post(self, *, team: str, user: str, kind: PostKind = "private") -> Post | None:
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
        self,
        post: Post,
        *,
        user: str,
        choice: str,
        correct: bool,
        section: str,
        topic: str,
        now: dt.datetime,
    ) -> bool:
        """Record a learner's answer, count it in the tallies and review the learner's card for
        the question (`bot.store.cards`, every kind of post), in one transaction.

        False when they had already answered this post (nothing is counted then). A mock exam's
        answers count in the learner's own totals only, never on a board.
        """
        sql = """
            insert or ignore into answers
              (post_id, team, channel, user, question_id, section, topic, choice, correct,
               answered_at)
            values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """
        values = [
            post.id,
            post.team,
            post.channel,
            user,
            post.question_id,
            section,
            topic,
            choice,
            int(correct),
            stamp(now),
        ]
        zone = self._zone(post.team, post.channel)
        with immediate(self.db):
            if self.db.execute(sql, values).rowcount != 1:
                return False
            tallies.add_answer(
                self.db,
                team=post.team,
                channel=post.channel,
                user=user,
                daily=post.kind == "daily",
                ranked=post.kind != "mock",
                correct=correct,
                section=section,
                topic=topic,
                answered_at=stamp(now),
                zone=zone,
            )
            cards.review(
                self.db,
                team=post.team,
                user=user,
                question_id=post.question_id,
                correct=correct,
                at=now,
            )
        return True

    def _zone(self, team: str, channel: str) -> str:
        """The clock a channel's board follows: its schedule's zone, else UTC."""
        sql = "select tz from schedules where team = ? and channel = ?"
        row = self.db.execute(sql, [team, channel]).fetchone()
        return tallies.zone_name(row[0] if row else None)

    def answer_of(self, post_id: int, user: str) -> str | None:
        row = self.db.execute(
            "select choice from answers where post_id = ? and user = ?", [post_id, user]
        ).fetchone()
        return row[0] if row else None

    def last_answer(self, *, team: str, user: str) -> tuple[Post, str] | None:
        """The learner's newest answer outside mock exams, and its post (`more` explains it)."""
        sql = """
            select a.post_id, a.choice from answers a join posts p on p.id = a.post_id
            where a.team = ? and a.user = ? and p.kind != 'mock'
            order by a.answered_at desc, a.id desc limit 1
        """
        row = self.db.execute(sql, [team, user]).fetchone()
        post = self.post(row[0]) if row else None
        return (post, row[1]) if post and row else None

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

    # -- leaderboards and stats -----------------------------------------------------------

    def totals(self, *, team: str, user: str) -> tuple[int, int]:
        """(answered, correct) for one learner."""
        row = self.db.execute(
            "select answered, correct from learner_tallies where team = ? and user = ? "
            "and key = 'all'",
            [team, user],
        ).fetchone()
        return (int(row[0]), int(row[1])) if row else (0, 0)

    def topic_scores(self, *, team: str, user: str) -> list[TopicScore]:
        """Per-topic results for one learner, weakest first."""
        sql = """
            select substr(key, 7), answered, correct from learner_tallies
            where team = ? and user = ? and key >= 'topic:' and key < 'topic;'
            order by 1.0 * correct / answered, answered desc, key
        """
        rows = self.db.execute(sql, [team, user]).fetchall()
        return [TopicScore(t, a, c) for t, a, c in rows]

    def weak_sections(self, *, team: str, channel: str | None = None) -> list[str]:
        """Sections ordered by the share answered wrong, worst first."""
        sql = """
            select substr(bucket, 9) from channel_tallies
            where team = ? and bucket >= 'section:' and bucket < 'section;' and channel = ?
            order by 1.0 * correct / answered, bucket
        """
        place = tallies.ALL if channel is None else channel
        return [row[0] for row in self.db.execute(sql, [team, place]).fetchall()]
