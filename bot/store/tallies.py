"""Running totals kept beside the answers, so boards and stats cost the same at any history size.

Each answer adds one to a handful of counters, in the same transaction that inserts it:

- `board_tallies` (team, channel, bucket, user): one learner's answered and correct in a place
  (a channel, or `ALL` for the workspace) and a period bucket: `all`, or a calendar week or
  month on some zone's clock (`week:Europe/Berlin:2026-11-30`, `month:UTC:2026-12`). A channel
  keeps buckets on its schedule's clock and on UTC (the teams board's); the workspace on UTC.
- `channel_tallies` (team, bucket, channel): per channel and UTC bucket, answers and daily posts
  (the teams board), its members (learners who ever answered a daily question there, in the
  `all` row) and per-section results (`section:3.1`, for the weakest sections).
- `learner_tallies` (team, user, key): a learner's totals (`all`), answer days (`day:…`, the
  streak) and topics (`topic:…`).

A board is then one range read of at most one row per learner of the place. Boards over other
bounds (the Monday recap's last week) still read the answers, through an index on time.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Iterator
from functools import lru_cache
from zoneinfo import ZoneInfo

import sqlite_utils

ALL = "*"  # the whole workspace (as a channel) or every learner (as a user); never a Slack id
UTC = "UTC"


@lru_cache(maxsize=4096)
def period_buckets(zone: str, minute: str) -> tuple[str, str]:
    """The week and month buckets of a UTC minute (`2026-12-01T09:00`) on `zone`'s clock."""
    moment = dt.datetime.fromisoformat(minute).replace(tzinfo=dt.UTC)
    local = moment.astimezone(ZoneInfo(zone))
    monday = local.date() - dt.timedelta(days=local.weekday())
    return f"week:{zone}:{monday.isoformat()}", f"month:{zone}:{local.strftime('%Y-%m')}"


def bucket_of(period: str, zone: str, now: dt.datetime) -> str:
    """The bucket a board of `period` ("week", "month" or "all") reads at `now`."""
    if period == "all":
        return "all"
    week, month = period_buckets(zone, _minute(now.astimezone(dt.UTC).isoformat()))
    return week if period == "week" else month


def _minute(stamp: str) -> str:
    return stamp[:16]


def zone_name(tz: str | None) -> str:
    """A schedule's zone, or UTC for a channel without one."""
    return tz or UTC


_BOARD = """
    insert into board_tallies (team, channel, bucket, user, answered, correct)
    values (?, ?, ?, ?, ?, ?)
    on conflict do update set answered = answered + excluded.answered,
      correct = correct + excluded.correct
"""
_CHANNEL = """
    insert into channel_tallies (team, bucket, channel, answered, correct, daily_answered,
      daily_correct, members, posts)
    values (?, ?, ?, ?, ?, ?, ?, ?, ?)
    on conflict do update set answered = answered + excluded.answered,
      correct = correct + excluded.correct,
      daily_answered = daily_answered + excluded.daily_answered,
      daily_correct = daily_correct + excluded.daily_correct,
      members = members + excluded.members, posts = posts + excluded.posts
"""
_LEARNER = """
    insert into learner_tallies (team, user, key, answered, correct) values (?, ?, ?, ?, ?)
    on conflict do update set answered = answered + excluded.answered,
      correct = correct + excluded.correct
"""
_DAILY_MEMBER = """
    insert into daily_members (team, channel, user, first_at) values (?, ?, ?, ?)
    on conflict do update set first_at = min(first_at, excluded.first_at)
    where excluded.first_at < first_at
"""


def add_answer(
    db: sqlite_utils.Database,
    *,
    team: str,
    channel: str,
    user: str,
    daily: bool,
    correct: bool,
    section: str,
    topic: str,
    answered_at: str,
    zone: str,
    ranked: bool = True,
) -> None:
    """Count one answer everywhere it shows; call inside the transaction that inserts it.

    `ranked` False (a mock exam's answer): the learner's own totals only, on no board.
    """
    ok, minute = int(correct), _minute(answered_at)
    board, channels, learner = _answer_rows(team, channel, user, section, topic, minute, zone)
    if not ranked:
        board, channels = [], []
    db.conn.executemany(_BOARD, [(*key, 1, ok) for key in board])
    db.conn.executemany(_CHANNEL, [(*key, 1, ok, int(daily), ok * daily, 0, 0) for key in channels])
    db.conn.executemany(_LEARNER, [(*key, 1, ok) for key in learner])
    if daily and _new_member(db, team, channel, user, answered_at):
        db.conn.execute(_CHANNEL, [team, "all", channel, 0, 0, 0, 0, 1, 0])


def _new_member(db: sqlite_utils.Database, team: str, channel: str, user: str, at: str) -> bool:
    """Note a learner's daily answer in a channel; True for their first one there."""
    sql = "select 1 from daily_members where team = ? and channel = ? and user = ?"
    known = db.conn.execute(sql, [team, channel, user]).fetchone() is not None
    db.conn.execute(_DAILY_MEMBER, [team, channel, user, at])
    return not known


def _answer_rows(
    team: str,
    channel: str,
    user: str,
    section: str,
    topic: str,
    minute: str,
    zone: str,
) -> tuple[list[tuple], list[tuple], list[tuple]]:
    utc_week, utc_month = period_buckets(UTC, minute)
    local = period_buckets(zone, minute) if zone != UTC else ()
    board = [
        (team, place, bucket, user)
        for place in (channel, ALL)
        for bucket in ("all", utc_week, utc_month, *(local if place == channel else ()))
    ]
    channels = [(team, bucket, channel) for bucket in ("all", utc_week, utc_month)]
    channels += [(team, f"section:{section}", place) for place in (channel, ALL)]
    learner = [(team, user, key) for key in ("all", f"day:{minute[:10]}", f"topic:{topic}")]
    return board, channels, learner


def add_post(db: sqlite_utils.Database, *, team: str, channel: str, posted_at: str) -> None:
    """Count a daily question posted to a channel (the teams board's participation)."""
    week, month = period_buckets(UTC, _minute(posted_at))
    rows = [(team, bucket, channel, 0, 0, 0, 0, 0, 1) for bucket in ("all", week, month)]
    db.conn.executemany(_CHANNEL, rows)


def add_zone(db: sqlite_utils.Database, *, team: str, channel: str, zone: str) -> None:
    """Count a channel's answers in buckets on `zone`'s clock (its schedule moved there).

    Buckets kept from an earlier time on that clock are counted again: answers given while
    the channel was on another clock are in them now. Reads the channel's answers once,
    through the (team, channel, answered_at) index. UTC's buckets are always kept.
    """
    if zone == UTC:
        return
    for prefix in (f"week:{zone}:", f"month:{zone}:"):
        db.execute(
            "delete from board_tallies where team = ? and channel = ? and bucket >= ? "
            "and bucket < ?",
            [team, channel, prefix, prefix + "\uffff"],
        )
    sql = """
        select user, substr(answered_at, 1, 16), count(*), sum(correct) from answers
        where team = ? and channel = ? and post_id not in (select id from posts where kind = 'mock')
        group by 1, 2
    """
    counts: dict[tuple, list[int]] = defaultdict(lambda: [0, 0])
    for user, minute, answered, correct in db.execute(sql, [team, channel]):
        for bucket in period_buckets(zone, minute):
            total = counts[(team, channel, bucket, user)]
            total[0] += answered
            total[1] += correct
    db.conn.executemany(_BOARD, [(*key, a, c) for key, (a, c) in counts.items()])


def rebuild(db: sqlite_utils.Database) -> None:
    """Recount every tally from the answers and posts (a migration, and the benchmark's bulk load).

    Answers are read grouped by minute, so a large file is read once and counted in memory.
    """
    for table in ("board_tallies", "channel_tallies", "learner_tallies", "daily_members"):
        db.execute(f"delete from {table}")
    zones = {
        (team, channel): zone_name(tz)
        for team, channel, tz in db.execute("select team, channel, tz from schedules")
    }
    sums: dict[str, dict[tuple, list[int]]] = {
        "board": defaultdict(lambda: [0, 0]),
        "channel": defaultdict(lambda: [0, 0, 0, 0, 0, 0]),
        "learner": defaultdict(lambda: [0, 0]),
    }
    members: dict[tuple[str, str, str], str] = {}
    for row in _grouped_answers(db):
        team, channel, user, daily, mock, section, topic, minute, answered, correct, first = row
        zone = zones.get((team, channel), UTC)
        board, channels, learner = _answer_rows(team, channel, user, section, topic, minute, zone)
        if mock:
            board, channels = [], []
        for key in board:
            _add(sums["board"][key], answered, correct)
        for key in channels:
            _add(sums["channel"][key], answered, correct, answered * daily, correct * daily)
        for key in learner:
            _add(sums["learner"][key], answered, correct)
        if daily:
            key = (team, channel, user)
            members[key] = min(members.get(key, first), first)
    for team, channel, _ in members:
        sums["channel"][(team, "all", channel)][4] += 1
    sql = "select team, channel, posted_at from posts where kind = 'daily' and ts is not null"
    for team, channel, posted_at in db.execute(sql):
        week, month = period_buckets(UTC, _minute(posted_at))
        for bucket in ("all", week, month):
            sums["channel"][(team, bucket, channel)][5] += 1
    db.conn.executemany(_BOARD, _flat(sums["board"].items()))
    db.conn.executemany(_CHANNEL, _flat(sums["channel"].items()))
    db.conn.executemany(_LEARNER, _flat(sums["learner"].items()))
    db.conn.executemany(_DAILY_MEMBER, [(*key, at) for key, at in members.items()])


def _grouped_answers(db: sqlite_utils.Database) -> Iterable[tuple]:
    sql = """
        select a.team, a.channel, a.user, p.kind = 'daily', p.kind = 'mock',
          coalesce(a.section, ''), coalesce(a.topic, ''), substr(a.answered_at, 1, 16), count(*),
          sum(a.correct), min(a.answered_at)
        from answers a join posts p on p.id = a.post_id
        group by 1, 2, 3, 4, 5, 6, 7, 8
    """
    return db.execute(sql)


def _add(total: list[int], *values: int) -> None:
    for i, value in enumerate(values):
        total[i] += value


def _flat(items: Iterable[tuple[tuple, list[int]]]) -> Iterator[tuple]:
    for key, values in items:
        yield (*key, *values)
