"""Every board, period and streak, with one meaning each, read by every surface.

- **A board** ranks learners by points (one per correct answer), then accuracy, then id. Its scope
  is a channel (every answer given in that channel: its daily questions and the private quizzes
  asked there) or the whole workspace.
- **A period** is `week` (from Monday 00:00), `month` (from the 1st, 00:00) or `all`, counted
  on the clock of the board's place: a channel's schedule zone for a channel board (UTC for a
  channel without a schedule), UTC for the workspace and for the teams board.
- **A team's streak** (on a channel board) is the number of the channel's scheduled daily
  questions answered in a row, newest first; a day without a scheduled question is no gap, and
  today's question may still be answered.
- **A learner's streak** (stats, App Home) is the number of UTC days in a row with at least one
  answer, ending today or yesterday.
- **The teams board** ranks channels by accuracy × participation on their daily questions.

The chat, the command line, `/tutor`, DMs, mentions and App Home all read boards from here.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from bot.store import DailyStore, Post, Standing, Store, stamp, tallies

Period = Literal["week", "month", "all"]
PERIODS: tuple[Period, ...] = ("week", "month", "all")
DEFAULT_PERIOD: Period = "week"
STREAK_CHUNK = 16  # daily posts read at a time while streaks are still running


@dataclass(frozen=True)
class Ranked:
    """A learner's row on a board, with their streak of the channel's daily questions."""

    standing: Standing
    streak: int = 0


@dataclass(frozen=True)
class Board:
    """Learners ranked in one place over one period."""

    team: str
    channel: str | None  # None: the whole workspace
    period: Period
    rows: tuple[Ranked, ...]

    @property
    def standings(self) -> list[Standing]:
        return [r.standing for r in self.rows]


@dataclass(frozen=True)
class TeamStanding:
    """A channel's place among teams: points per member per question, so size alone can't win."""

    rank: int
    channel: str
    posts: int
    members: int
    answered: int
    correct: int

    @property
    def accuracy(self) -> float:
        return self.correct / self.answered if self.answered else 0.0

    @property
    def participation(self) -> float:
        """The share of (member, question) pairs that got an answer."""
        possible = self.members * self.posts
        return self.answered / possible if possible else 0.0

    @property
    def score(self) -> float:
        return self.accuracy * self.participation


@dataclass(frozen=True)
class TeamsBoard:
    team: str
    period: Period
    teams: tuple[TeamStanding, ...]


def period_start(period: str, now: dt.datetime, zone: dt.tzinfo) -> dt.datetime | None:
    """The start of this calendar week (Monday) or month in `zone`; None for all time."""
    local = now.astimezone(zone)
    if period == "week":
        day = local.date() - dt.timedelta(days=local.weekday())
    elif period == "month":
        day = local.date().replace(day=1)
    else:
        return None
    return dt.datetime.combine(day, dt.time(0), tzinfo=zone)


class Standings:
    """The board queries over the tutor's store: one family, one filter."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @property
    def db(self):
        return self.store.db

    def zone(self, *, team: str, channel: str | None) -> dt.tzinfo:
        """The clock a board's periods follow: the channel's schedule zone, else UTC."""
        if channel is None:
            return dt.UTC
        schedule = DailyStore(self.store).schedule(team=team, channel=channel)
        return schedule.zone if schedule else dt.UTC

    def board(
        self,
        *,
        team: str,
        channel: str | None = None,
        period: Period = DEFAULT_PERIOD,
        now: dt.datetime,
        limit: int = 10,
        until: dt.datetime | None = None,
        since: dt.datetime | None = None,
    ) -> Board:
        """A channel's board (with daily streaks) or the workspace's, for `period` at `now`.

        `since`/`until` override the period's bounds (the Monday recap reads last week).
        """
        zone = self.zone(team=team, channel=channel)
        if since is None and until is None:
            rows = self._tallied(team, channel, tallies.bucket_of(period, _name(zone), now), limit)
        else:
            start = since if since is not None else period_start(period, now, zone)
            rows = self._standings(
                team=team, channel=channel, since=start, until=until, limit=limit
            )
        if channel is None:
            return Board(team, None, period, tuple(Ranked(s) for s in rows))
        streaks = self._streaks(team, channel, [s.user for s in rows], now)
        ranked = tuple(Ranked(s, streaks[s.user]) for s in rows)
        return Board(team, channel, period, ranked)

    def teams(
        self,
        *,
        team: str,
        period: Period = DEFAULT_PERIOD,
        now: dt.datetime,
        since: dt.datetime | None = None,
        until: dt.datetime | None = None,
    ) -> TeamsBoard:
        """Channels ranked by accuracy × participation, then accuracy, then answers."""
        if since is None and until is None:
            rows = self._tallied_teams(team, tallies.bucket_of(period, tallies.UTC, now))
        else:
            start = since if since is not None else period_start(period, now, dt.UTC)
            rows = self._team_rows(team, start, until)
        return TeamsBoard(team, period, tuple(rank_teams(rows)))

    def learner_streak(self, *, team: str, user: str, now: dt.datetime) -> int:
        """UTC days in a row with an answer, ending today or yesterday."""
        sql = """
            select substr(key, 5) from learner_tallies
            where team = ? and user = ? and key >= 'day:' and key < 'day;' order by key desc
        """
        days = (row[0] for row in self.db.execute(sql, [team, user]))  # read until the gap
        return day_streak(days, now.astimezone(dt.UTC).date())

    def channel_streak(self, *, team: str, channel: str, user: str, now: dt.datetime) -> int:
        """The learner's run of the channel's daily questions answered."""
        return self._streaks(team, channel, [user], now)[user]

    def daily_posts(self, *, team: str, channel: str) -> list[Post]:
        """The channel's posted daily questions, newest first."""
        sql = """
            select id, team, channel, user, question_id, kind, posted_at, closes_at, ts
            from posts where kind = 'daily' and team = ? and channel = ?
              and ts is not null order by posted_at desc, id desc
        """
        return [Post(*row) for row in self.db.execute(sql, [team, channel]).fetchall()]

    # -- the tallies: one range read per board ------------------------------------------------

    def _tallied(self, team: str, channel: str | None, bucket: str, limit: int) -> list[Standing]:
        sql = """
            select user, correct, answered from board_tallies
            where team = ? and channel = ? and bucket = ?
            order by correct desc, 1.0 * correct / answered desc, user
            limit ?
        """
        place = tallies.ALL if channel is None else channel
        rows = self.db.execute(sql, [team, place, bucket, limit]).fetchall()
        return [Standing(i, u, c, n, c) for i, (u, c, n) in enumerate(rows, start=1)]

    def _tallied_teams(self, team: str, bucket: str) -> list[tuple[str, int, int, int, int]]:
        """Per channel with daily posts in the bucket: posts, members, daily answers, correct."""
        sql = """
            select b.channel, b.posts, coalesce(m.members, 0), b.daily_answered, b.daily_correct
            from channel_tallies b left join channel_tallies m
              on m.team = b.team and m.bucket = 'all' and m.channel = b.channel
            where b.team = ? and b.bucket = ? and b.posts > 0
        """
        return self.db.execute(sql, [team, bucket]).fetchall()

    # -- the answers themselves, for other bounds (the Monday recap's last week) ---------------

    @staticmethod
    def _filter(
        team: str,
        *,
        channel: str | None = None,
        since: dt.datetime | None = None,
        until: dt.datetime | None = None,
        daily_only: bool = False,
    ) -> tuple[str, list]:
        """Which answers a board counts: by workspace, channel, answer time, and post kind.

        A mock exam's answers are on no board.
        """
        where = ["a.team = ?", "a.post_id not in (select id from posts where kind = 'mock')"]
        values: list = [team]
        if channel is not None:
            where.append("a.channel = ?")
            values.append(channel)
        if since is not None:
            where.append("a.answered_at >= ?")
            values.append(stamp(since))
        if until is not None:
            where.append("a.answered_at < ?")
            values.append(stamp(until))
        if daily_only:
            where.append("p.kind = 'daily'")
        return " and ".join(where), values

    def _standings(
        self,
        *,
        team: str,
        channel: str | None,
        since: dt.datetime | None,
        until: dt.datetime | None,
        limit: int,
    ) -> list[Standing]:
        where, values = self._filter(team, channel=channel, since=since, until=until)
        sql = f"""
            select a.user, sum(a.correct) as points, count(*), sum(a.correct)
            from answers a where {where}
            group by a.user
            order by points desc, 1.0 * sum(a.correct) / count(*) desc, a.user
            limit ?
        """
        rows = self.db.execute(sql, [*values, limit]).fetchall()
        return [Standing(i, u, p, n, c) for i, (u, p, n, c) in enumerate(rows, start=1)]

    def _team_rows(
        self, team: str, since: dt.datetime | None, until: dt.datetime | None
    ) -> list[tuple[str, int, int, int, int]]:
        """Per channel: daily questions posted, members, answers and correct in the period.

        Members are everyone who ever answered a daily question there (up to `until`), so a
        member who stops answering lowers the team's participation; `daily_members` keeps when
        each first did.
        """
        where, values = self._filter(team, since=since, until=until, daily_only=True)
        ever, ever_values = "team = ?", [team]
        if until is not None:
            ever += " and first_at < ?"
            ever_values.append(stamp(until))
        posts_where, posts_values = ["kind = 'daily'", "ts is not null", "team = ?"], [team]
        if since is not None:
            posts_where.append("posted_at >= ?")
            posts_values.append(stamp(since))
        if until is not None:
            posts_where.append("posted_at < ?")
            posts_values.append(stamp(until))
        sql = f"""
            with posted as (
              select channel, count(*) as posts from posts
              where {" and ".join(posts_where)} group by channel
            ), answered as (
              select a.channel, count(*) as answered, coalesce(sum(a.correct), 0) as correct
              from answers a join posts p on p.id = a.post_id
              where {where} group by a.channel
            ), members as (
              select channel, count(*) as members from daily_members
              where {ever} group by channel
            )
            select posted.channel, posted.posts, coalesce(members.members, 0),
                   coalesce(answered.answered, 0), coalesce(answered.correct, 0)
            from posted
              left join members on members.channel = posted.channel
              left join answered on answered.channel = posted.channel
        """
        return self.db.execute(sql, [*posts_values, *values, *ever_values]).fetchall()

    def _streaks(self, team: str, channel: str, users: list[str], now: dt.datetime) -> dict:
        """Each user's `daily_streak`, reading answers only as far back as a streak still runs.

        Posts are read newest first, STREAK_CHUNK at a time, with the answers to them of the
        users whose streak has not ended yet; a board costs its streaks' length, not the
        channel's history.
        """
        posts = self.daily_posts(team=team, channel=channel)
        streaks = dict.fromkeys(users, 0)
        running = set(users)
        for start in range(0, len(posts), STREAK_CHUNK):
            if not running:
                break
            chunk = posts[start : start + STREAK_CHUNK]
            answered = self._answered(chunk, running)
            for index, post in enumerate(chunk, start=start):
                for user in sorted(running):
                    if (post.id, user) in answered:
                        streaks[user] += 1
                    elif not (index == 0 and _still_open(post, now)):
                        running.discard(user)
        return streaks

    def _answered(self, posts: list[Post], users: set[str]) -> set[tuple[int, str]]:
        ids, names = [p.id for p in posts], sorted(users)
        sql = f"""
            select post_id, user from answers
            where post_id in ({", ".join("?" for _ in ids)})
              and user in ({", ".join("?" for _ in names)})
        """
        return set(self.db.execute(sql, [*ids, *names]).fetchall())


def _name(zone: dt.tzinfo) -> str:
    """The IANA name of a schedule's zone (what the tallies are keyed by)."""
    return getattr(zone, "key", None) or tallies.UTC


def rank_teams(rows: list[tuple[str, int, int, int, int]]) -> list[TeamStanding]:
    unranked = [TeamStanding(0, *row) for row in rows]
    unranked.sort(key=lambda t: (-t.score, -t.accuracy, -t.answered, t.channel))
    return [
        TeamStanding(i, t.channel, t.posts, t.members, t.answered, t.correct)
        for i, t in enumerate(unranked, start=1)
    ]


def daily_streak(posts_newest_first: list[Post], answered: set[int], now: dt.datetime) -> int:
    """Consecutive scheduled questions answered, newest first; a still-open one may yet come.

    Unscheduled days have no post, so a weekend never breaks a weekdays streak.
    """
    count = 0
    for index, post in enumerate(posts_newest_first):
        if post.id in answered:
            count += 1
            continue
        if index == 0 and _still_open(post, now):
            continue
        break
    return count


def _still_open(post: Post, now: dt.datetime) -> bool:
    return post.closes_at is None or post.closes_at > stamp(now)


def day_streak(days_newest_first: Iterable[str], today: dt.date) -> int:
    """Consecutive days with an answer, ending today or yesterday (today may still come)."""
    streak, expected = 0, today
    for text in days_newest_first:
        day = dt.date.fromisoformat(text)
        if streak == 0 and day == today - dt.timedelta(days=1):
            expected = day
        if day != expected:
            break
        streak += 1
        expected = day - dt.timedelta(days=1)
    return streak
