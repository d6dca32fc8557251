"""The daily quick-check's reads and writes: schedules, the posting ledger and reveals.

It shares the Store's per-thread connection and file. Every "only once" is a single statement
whose row count says who won: a claim is an INSERT OR IGNORE against the unique ledger index, a
reveal an UPDATE guarded by `revealed_at is null`.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.schedule import Schedule
from bot.store import tallies
from bot.store.answers import Post
from bot.store.db import immediate, stamp

LOCAL_TEAM = "local"  # the local chat's workspace (`tutor chat`); never a Slack team id

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


class DailyStore:
    """Schedules, the ledger and reveals in the tutor's SQLite file (boards: bot.standings)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @property
    def db(self):
        return self.store.db

    # -- schedules ------------------------------------------------------------------------

    def set_schedule(self, schedule: Schedule, *, by: str, now: dt.datetime) -> None:
        row = {
            "team": schedule.team,
            "channel": schedule.channel,
            "at": schedule.at,
            "tz": schedule.tz,
            "days": schedule.days,
            "window_hours": schedule.window_hours,
            "recap": int(schedule.recap),
            "sections": ",".join(schedule.sections),
            "created_by": by,
            "created_at": stamp(now),
        }
        with immediate(self.db):
            before = self.schedule(team=schedule.team, channel=schedule.channel)
            self.db.table("schedules").upsert(row, pk=("team", "channel"))
            if before is None or before.tz != schedule.tz:
                # boards on the schedule's clock need the channel's earlier answers on it too
                team, channel = schedule.team, schedule.channel
                tallies.add_zone(self.db, team=team, channel=channel, zone=schedule.tz)

    def schedule(self, *, team: str, channel: str) -> Schedule | None:
        sql = "select * from schedules where team = ? and channel = ?"
        cursor = self.db.execute(sql, [team, channel])
        row = cursor.fetchone()
        return (
            _schedule(dict(zip([c[0] for c in cursor.description], row, strict=True)))
            if row
            else None
        )

    def schedules(self, *, team: str | None = None) -> list[Schedule]:
        where, values = ("team = ?", [team]) if team is not None else (None, None)
        rows = self.db.table("schedules").rows_where(where, values, order_by="team, channel")
        return [_schedule(row) for row in rows]

    def remove_schedule(self, *, team: str, channel: str) -> bool:
        sql = "delete from schedules where team = ? and channel = ?"
        return self.db.execute(sql, [team, channel]).rowcount == 1

    def adopt_local_schedules(self, team: str) -> int:
        """Schedules added from a shell without a token move to the bot's workspace `team`.

        A channel that already has a schedule there keeps that one.
        """
        sql = "update or ignore schedules set team = ? where team = ? and channel glob '[CG]*'"
        return self.db.execute(sql, [team, LOCAL_TEAM]).rowcount

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
        self,
        *,
        team: str,
        channel: str,
        local_date: dt.date,
        question_id: str,
        section: str,
        topic: str,
        now: dt.datetime,
        closes_at: dt.datetime,
    ) -> Claim | None:
        """Claim the channel's post for a local date, or None while it is posted or in flight."""
        sql = """
            insert or ignore into posts (team, channel, user, question_id, section, topic, kind,
              posted_at, closes_at, ts, local_date)
            values (?, ?, '', ?, ?, ?, 'daily', ?, ?, null, ?)
        """
        values = [
            team,
            channel,
            question_id,
            section,
            topic,
            stamp(now),
            stamp(closes_at),
            local_date.isoformat(),
        ]
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
        self,
        team: str,
        channel: str,
        local_date: dt.date,
        now: dt.datetime,
        closes_at: dt.datetime,
    ) -> int | None:
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
        """Record the message; a daily question posted counts toward its channel's posts."""
        sql = """
            update posts set ts = ?, posted_at = ? where id = ? and ts is null
            returning team, channel, kind
        """
        with immediate(self.db):
            row = self.db.execute(sql, [ts, stamp(now), post_id]).fetchone()
            if row is None:  # already posted: keep its first message
                return
            team, channel, kind = row
            if kind == "daily":
                tallies.add_post(self.db, team=team, channel=channel, posted_at=stamp(now))

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


def _schedule(row: dict) -> Schedule:
    return Schedule(
        row["team"],
        row["channel"],
        row["at"],
        row["tz"],
        row["days"],
        row["window_hours"],
        bool(row["recap"]),
        sections=tuple(s for s in (row.get("sections") or "").split(",") if s),
    )
