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
from dataclasses import dataclass
from typing import Literal

from bot.store import Post, Standing, Store, stamp

Period = Literal["week", "month", "all"]
PERIODS: tuple[Period, ...] = ("week", "month", "all")
DEFAULT_PERIOD: Period = "week"


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
        from bot.store import DailyStore  # the schedules live with the daily ledger

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
        start = (
            since
            if since is not None
            else period_start(period, now, self.zone(team=team, channel=channel))
        )
        rows = self._standings(team=team, channel=channel, since=start, until=until, limit=limit)
        if channel is None:
            return Board(team, None, period, tuple(Ranked(s) for s in rows))
        posts = self.daily_posts(team=team, channel=channel)
        answered = self._answered_posts(team=team, channel=channel, users=[s.user for s in rows])
        ranked = tuple(Ranked(s, daily_streak(posts, answered[s.user], now)) for s in rows)
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
        start = since if since is not None else period_start(period, now, dt.UTC)
        return TeamsBoard(team, period, tuple(rank_teams(self._team_rows(team, start, until))))

    def learner_streak(self, *, team: str, user: str, now: dt.datetime) -> int:
        """UTC days in a row with an answer, ending today or yesterday."""
        sql = """
            select distinct substr(answered_at, 1, 10) as day from answers
            where team = ? and user = ? order by day desc
        """
        days = [row[0] for row in self.db.execute(sql, [team, user]).fetchall()]
        return day_streak(days, now.astimezone(dt.UTC).date())

    def channel_streak(self, *, team: str, channel: str, user: str, now: dt.datetime) -> int:
        """The learner's run of the channel's daily questions answered."""
        posts = self.daily_posts(team=team, channel=channel)
        answered = self._answered_posts(team=team, channel=channel, users=[user])
        return daily_streak(posts, answered[user], now)

    def daily_posts(self, *, team: str, channel: str) -> list[Post]:
        """The channel's posted daily questions, newest first."""
        sql = """
            select id from posts where kind = 'daily' and team = ? and channel = ?
              and ts is not null order by posted_at desc, id desc
        """
        ids = [row[0] for row in self.db.execute(sql, [team, channel]).fetchall()]
        return [p for p in map(self.store.post, ids) if p is not None]

    # -- the one query family -----------------------------------------------------------------

    @staticmethod
    def _filter(
        team: str,
        *,
        channel: str | None = None,
        since: dt.datetime | None = None,
        until: dt.datetime | None = None,
        daily_only: bool = False,
    ) -> tuple[str, list]:
        """Which answers a board counts: by workspace, channel, answer time, and post kind."""
        where, values = ["a.team = ?"], [team]
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
        member who stops answering lowers the team's participation.
        """
        where, values = self._filter(team, since=since, until=until, daily_only=True)
        ever, ever_values = self._filter(team, until=until, daily_only=True)
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
              select a.channel, count(distinct a.user) as members
              from answers a join posts p on p.id = a.post_id
              where {ever} group by a.channel
            )
            select posted.channel, posted.posts, coalesce(members.members, 0),
                   coalesce(answered.answered, 0), coalesce(answered.correct, 0)
            from posted
              left join members on members.channel = posted.channel
              left join answered on answered.channel = posted.channel
        """
        return self.db.execute(sql, [*posts_values, *values, *ever_values]).fetchall()

    def _answered_posts(self, *, team: str, channel: str, users: list[str]) -> dict[str, set[int]]:
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
        still_open = post.closes_at is None or post.closes_at > stamp(now)
        if index == 0 and still_open:
            continue
        break
    return count


def day_streak(days_newest_first: list[str], today: dt.date) -> int:
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
