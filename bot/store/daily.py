"""The daily quick-check's reads and writes: schedules, the posting ledger, reveals, standings.

It shares the Store's per-thread connection and file. Every "only once" is a single statement
whose row count says who won: a claim is an INSERT OR IGNORE against the unique ledger index, a
reveal an UPDATE guarded by `revealed_at is null`.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.schedule import Schedule
from bot.store.answers import Post, Standing
from bot.store.db import stamp

if TYPE_CHECKING:
    from bot.store import Store

LEASE = dt.timedelta(minutes=15)  # a claim not posted by then is taken to be from a dead process


@dataclass(frozen=True)
class Claim:
    """The right to post a channel's question for a local date.

    `stale`: taken over from a run that claimed it and never recorded a message (it died, or
    its call to Slack broke off), so Slack may already hold that run's message.
    """

    post_id: int
    stale: bool = False


@dataclass(frozen=True)
class TeamRow:
    """A channel's daily results over a period (before ranking)."""

    channel: str
    posts: int
    members: int
    answered: int
    correct: int


class DailyStore:
    """Schedules, the ledger and daily standings in the tutor's SQLite file."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @property
    def db(self):
        return self.store.db

    # -- schedules ------------------------------------------------------------------------

    def set_schedule(self, schedule: Schedule, *, by: str, now: dt.datetime) -> None:
        row = {
            "team": schedule.team, "channel": schedule.channel, "at": schedule.at,
            "tz": schedule.tz, "days": schedule.days, "window_hours": schedule.window_hours,
            "recap": int(schedule.recap), "created_by": by, "created_at": stamp(now),
        }  # fmt: skip
        with self.db.atomic():
            self.db["schedules"].upsert(row, pk=("team", "channel"))

    def schedule(self, *, team: str, channel: str) -> Schedule | None:
        found = [s for s in self.schedules(team=team) if s.channel == channel]
        return found[0] if found else None

    def schedules(self, *, team: str | None = None) -> list[Schedule]:
        where, values = ("team = ?", [team]) if team is not None else (None, None)
        rows = self.db["schedules"].rows_where(where, values, order_by="team, channel")
        return [_schedule(row) for row in rows]

    def remove_schedule(self, *, team: str, channel: str) -> bool:
        sql = "delete from schedules where team = ? and channel = ?"
        return self.db.execute(sql, [team, channel]).rowcount == 1

    def team_of_channel(self, channel: str) -> str | None:
        """The workspace a channel's schedule (or, failing that, its newest post) belongs to."""
        for sql in (
            "select team from schedules where channel = ? limit 1",
            "select team from posts where channel = ? order by id desc limit 1",
        ):
            row = self.db.execute(sql, [channel]).fetchone()
            if row:
                return row[0]
        return None

    # -- the ledger -----------------------------------------------------------------------

    def claim(
        self, *, team: str, channel: str, local_date: dt.date, question_id: str, section: str,
        topic: str, now: dt.datetime, closes_at: dt.datetime,
    ) -> Claim | None:  # fmt: skip
        """Claim the channel's post for a local date, or None while it is posted or in flight."""
        sql = """
            insert or ignore into posts (team, channel, user, question_id, section, topic, kind,
              posted_at, closes_at, ts, local_date)
            values (?, ?, '', ?, ?, ?, 'daily', ?, ?, null, ?)
        """
        values = [
            team, channel, question_id, section, topic, stamp(now), stamp(closes_at),
            local_date.isoformat(),
        ]  # fmt: skip
        cursor = self.db.execute(sql, values)
        if cursor.rowcount == 1:
            return Claim(int(cursor.lastrowid))
        stale = self._take_stale_claim(team, channel, local_date, now, closes_at)
        return Claim(stale, stale=True) if stale is not None else None

    def claim_of(self, *, team: str, channel: str, local_date: dt.date) -> Post | None:
        """The ledger row for a channel and local date, posted or not."""
        sql = """
            select id from posts where kind = 'daily' and team = ? and channel = ?
              and local_date = ?
        """
        row = self.db.execute(sql, [team, channel, local_date.isoformat()]).fetchone()
        return self.store.post(row[0]) if row else None

    def _take_stale_claim(
        self, team: str, channel: str, local_date: dt.date, now: dt.datetime,
        closes_at: dt.datetime,
    ) -> int | None:  # fmt: skip
        # closes_at stays: a message found in the channel says the time it was claimed with
        sql = """
            update posts set posted_at = ?
            where kind = 'daily' and team = ? and channel = ? and local_date = ?
              and ts is null and posted_at < ?
            returning id
        """
        values = [stamp(now), team, channel, local_date.isoformat(), stamp(now - LEASE)]
        row = self.db.execute(sql, values).fetchone()
        return int(row[0]) if row else None

    def release(self, post_id: int) -> None:
        """Give a claim back after Slack surely did not post, so the next pass tries again."""
        self.db.execute("delete from posts where id = ? and ts is null", [post_id])

    def reopen(self, post_id: int, *, closes_at: dt.datetime) -> None:
        """A taken-over claim that is posted afresh closes by the new post's window."""
        self.db.execute("update posts set closes_at = ? where id = ?", [stamp(closes_at), post_id])

    def expire(self, post_id: int, *, now: dt.datetime) -> None:
        """Keep a claim whose post may have reached Slack, with its lease run out: the next pass
        takes it over and looks in the channel before posting again."""
        sql = "update posts set posted_at = ? where id = ? and ts is null"
        self.db.execute(sql, [stamp(now - LEASE - dt.timedelta(seconds=1)), post_id])

    def mark_posted(self, post_id: int, *, ts: str, now: dt.datetime) -> None:
        sql = "update posts set ts = ?, posted_at = ? where id = ?"
        self.db.execute(sql, [ts, stamp(now), post_id])

    def close_earlier(
        self, *, team: str, channel: str, local_date: dt.date, now: dt.datetime
    ) -> None:
        """A new post closes any earlier day's question in the channel that is still open."""
        sql = """
            update posts set closes_at = ?
            where kind = 'daily' and team = ? and channel = ? and local_date < ?
              and ts is not null and revealed_at is null and (closes_at is null or closes_at > ?)
        """
        self.db.execute(sql, [stamp(now), team, channel, local_date.isoformat(), stamp(now)])

    def daily_posts(self, *, team: str, channel: str) -> list[Post]:
        """The channel's posted daily questions, newest first."""
        sql = """
            select id from posts where kind = 'daily' and team = ? and channel = ?
              and ts is not null order by posted_at desc, id desc
        """
        ids = [row[0] for row in self.db.execute(sql, [team, channel]).fetchall()]
        return [p for p in map(self.store.post, ids) if p is not None]

    def daily_question_ids(self, *, team: str, channel: str) -> list[str]:
        sql = "select question_id from posts where kind = 'daily' and team = ? and channel = ?"
        return [row[0] for row in self.db.execute(sql, [team, channel]).fetchall()]

    # -- reveals --------------------------------------------------------------------------

    def to_reveal(
        self, now: dt.datetime, *, team: str | None = None, channel: str | None = None
    ) -> list[Post]:
        """Posted daily questions whose window has closed and that nobody has revealed yet.

        Without a team, every workspace's but the local chat's (the terminal reveals those).
        """
        # Imported here, not at the top: bot.tutor imports the store.
        from bot.tutor import LOCAL_TEAM

        where = ["kind = 'daily'", "ts is not null", "revealed_at is null", "closes_at <= ?"]
        values = [stamp(now)]
        where.append("team = ?" if team is not None else "team != ?")
        values.append(team if team is not None else LOCAL_TEAM)
        if channel is not None:
            where.append("channel = ?")
            values.append(channel)
        sql = f"select id from posts where {' and '.join(where)} order by closes_at, id"
        ids = [row[0] for row in self.db.execute(sql, values).fetchall()]
        return [p for p in map(self.store.post, ids) if p is not None]

    def post_for(self, *, team: str, channel: str, local_date: dt.date) -> Post | None:
        """The channel's posted daily question for a local date."""
        sql = """
            select id from posts where kind = 'daily' and team = ? and channel = ?
              and local_date = ? and ts is not null
        """
        row = self.db.execute(sql, [team, channel, local_date.isoformat()]).fetchone()
        return self.store.post(row[0]) if row else None

    def claim_reveal(self, post_id: int, now: dt.datetime) -> bool:
        sql = "update posts set revealed_at = ? where id = ? and revealed_at is null"
        return self.db.execute(sql, [stamp(now), post_id]).rowcount == 1

    def release_reveal(self, post_id: int) -> None:
        self.db.execute("update posts set revealed_at = null where id = ?", [post_id])

    def choice_counts(self, post_id: int) -> dict[str, int]:
        sql = "select choice, count(*) from answers where post_id = ? group by choice"
        return {c: int(n) for c, n in self.db.execute(sql, [post_id]).fetchall()}

    # -- standings ------------------------------------------------------------------------

    def standings(
        self, *, team: str, channel: str | None = None, since: dt.datetime | None = None,
        until: dt.datetime | None = None, limit: int = 10,
    ) -> list[Standing]:  # fmt: skip
        """Learners ranked by points on daily questions, then accuracy, then id."""
        where, values = self._daily_filter(team, channel, since, until)
        sql = f"""
            select a.user, sum(a.correct), count(*), sum(a.correct)
            from answers a join posts p on p.id = a.post_id
            where {where}
            group by a.user
            order by 2 desc, 1.0 * sum(a.correct) / count(*) desc, a.user
            limit ?
        """
        rows = self.db.execute(sql, [*values, limit]).fetchall()
        return [Standing(i, u, p, n, c) for i, (u, p, n, c) in enumerate(rows, start=1)]

    def team_rows(
        self, *, team: str, since: dt.datetime | None = None, until: dt.datetime | None = None
    ) -> list[TeamRow]:
        """Per channel: questions posted, members, answers and correct answers in the period.

        Members are everyone who ever answered a daily question there (up to `until`), so a
        member who stops answering lowers the team's participation.
        """
        where, values = self._daily_filter(team, None, since, until)
        before, before_values = self._daily_filter(team, None, None, until)
        sql = f"""
            with period as (
              select p.channel, count(distinct p.id) as posts, count(a.id) as answered,
                     coalesce(sum(a.correct), 0) as correct
              from posts p left join answers a on a.post_id = p.id
              where {where} group by p.channel
            ), members as (
              select p.channel, count(distinct a.user) as members
              from answers a join posts p on p.id = a.post_id
              where {before} group by p.channel
            )
            select period.channel, posts, coalesce(members.members, 0), answered, correct
            from period left join members on members.channel = period.channel
        """
        rows = self.db.execute(sql, [*values, *before_values]).fetchall()
        return [TeamRow(*row) for row in rows]

    def answered_posts(self, *, team: str, channel: str, users: list[str]) -> dict[str, set[int]]:
        """For each user, the ids of the channel's daily posts they answered."""
        found: dict[str, set[int]] = {user: set() for user in users}
        if not users:
            return found
        marks = ", ".join("?" for _ in users)
        sql = f"""
            select a.user, a.post_id from answers a join posts p on p.id = a.post_id
            where p.kind = 'daily' and p.team = ? and p.channel = ? and a.user in ({marks})
        """
        for user, post_id in self.db.execute(sql, [team, channel, *users]).fetchall():
            found[user].add(post_id)
        return found

    @staticmethod
    def _daily_filter(
        team: str, channel: str | None, since: dt.datetime | None, until: dt.datetime | None
    ) -> tuple[str, list]:
        where, values = ["p.kind = 'daily'", "p.ts is not null", "p.team = ?"], [team]
        if channel is not None:
            where.append("p.channel = ?")
            values.append(channel)
        if since is not None:
            where.append("p.posted_at >= ?")
            values.append(stamp(since))
        if until is not None:
            where.append("p.posted_at < ?")
            values.append(stamp(until))
        return " and ".join(where), values


def _schedule(row: dict) -> Schedule:
    return Schedule(
        row["team"],
        row["channel"],
        row["at"],
        row["tz"],
        row["days"],
        row["window_hours"],
        bool(row["recap"]),
    )
