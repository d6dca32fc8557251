"""Boards, periods and streaks (bot.standings): points in the period, streaks, team rankings, recaps."""

from __future__ import annotations

import datetime as dt

from bot.daily import Daily
from bot.standings import Standings, period_start
from tests.daily_stub import TEAM, RecordingPoster, berlin, make_daily, utc


def run_days(daily: Daily, poster: RecordingPoster, days: list[int], month: int = 12) -> dict:
    """A pass at 09:00 Berlin on each day of December 2026; returns {day: post}."""
    posts = {}
    for day in days:
        before = len(poster.posted)
        daily.run_pass(poster, now=utc(2026, month, day, 8, 0))
        if len(poster.posted) > before:
            posts[day] = poster.posted[-1]
    return posts


def answer(daily: Daily, posted, user: str, *, right: bool = True, day: int = 1) -> None:
    post, question, _ = posted
    choice = question.answer if right else next(x for x in question.letters if x != question.answer)
    graded = daily.tutor.answer(
        post_id=post.id,
        user=user,
        choice=choice,
        now=post_time(post) + dt.timedelta(hours=1),
        team=post.team,
        channel=post.channel,
    )
    assert graded.status == "recorded"


def post_time(post) -> dt.datetime:
    return dt.datetime.fromisoformat(post.posted_at)


def test_a_weekend_does_not_break_a_weekdays_streak(tmp_path):
    """Answering Thu, Fri and Mon of a weekdays schedule is a streak of three."""
    daily = make_daily(tmp_path)
    berlin(daily)
    poster = RecordingPoster()
    posts = run_days(daily, poster, [3, 4, 5, 6, 7])  # Thu 3 .. Mon 7 December 2026
    assert sorted(posts) == [3, 4, 7]
    for day in (3, 4, 7):
        answer(daily, posts[day], "U1")
    now = utc(2026, 12, 7, 12, 0)
    assert (
        Standings(daily.tutor.store).channel_streak(team=TEAM, channel="C123", user="U1", now=now)
        == 3
    )


def test_a_missed_scheduled_question_breaks_the_streak(tmp_path):
    """Skipping Friday's question leaves only Monday in the streak."""
    daily = make_daily(tmp_path)
    berlin(daily)
    poster = RecordingPoster()
    posts = run_days(daily, poster, [3, 4, 7])
    answer(daily, posts[3], "U1")
    answer(daily, posts[7], "U1")
    assert (
        Standings(daily.tutor.store).channel_streak(
            team=TEAM, channel="C123", user="U1", now=utc(2026, 12, 7, 12)
        )
        == 1
    )


def test_todays_open_question_does_not_break_the_streak_yet(tmp_path):
    """Before answering today's still-open question, yesterday's streak stands."""
    daily = make_daily(tmp_path)
    berlin(daily)
    poster = RecordingPoster()
    posts = run_days(daily, poster, [1, 2])
    answer(daily, posts[1], "U1")
    assert (
        Standings(daily.tutor.store).channel_streak(
            team=TEAM, channel="C123", user="U1", now=utc(2026, 12, 2, 9)
        )
        == 1
    )
    assert (
        Standings(daily.tutor.store).channel_streak(
            team=TEAM, channel="C123", user="U1", now=utc(2026, 12, 3, 9)
        )
        == 0
    )


def test_team_board_ranks_by_points_and_counts_only_that_channel(tmp_path):
    """The C123 board has C123's answerers only, best first, with streaks."""
    daily = make_daily(tmp_path)
    berlin(daily, "C123")
    berlin(daily, "C456")
    poster = RecordingPoster()
    run_days(daily, poster, [1, 2])
    by_channel = {}
    for posted in poster.posted:
        by_channel.setdefault(posted[0].channel, []).append(posted)
    for posted in by_channel["C123"]:
        answer(daily, posted, "U1")
        answer(daily, posted, "U2", right=False)
    answer(daily, by_channel["C456"][0], "U9")
    board = (
        Standings(daily.tutor.store)
        .board(team=TEAM, channel="C123", period="all", now=utc(2026, 12, 2, 12))
        .rows
    )
    assert [(r.standing.user, r.standing.points, r.standing.answered) for r in board] == [
        ("U1", 2, 2),
        ("U2", 0, 2),
    ]
    assert [r.streak for r in board] == [2, 2]


def test_a_big_team_does_not_win_by_size_alone(tmp_path):
    """Three members who all answer right outrank twenty who answer half right."""
    daily = make_daily(tmp_path)
    berlin(daily, "CSMALL")
    berlin(daily, "CBIG")
    poster = RecordingPoster()
    run_days(daily, poster, [1, 2])
    for posted in poster.posted:
        channel = posted[0].channel
        users = [f"S{n}" for n in range(3)] if channel == "CSMALL" else [f"B{n}" for n in range(20)]
        for n, user in enumerate(users):
            answer(daily, posted, user, right=channel == "CSMALL" or n % 2 == 0)
    teams = (
        Standings(daily.tutor.store).teams(team=TEAM, period="all", now=utc(2026, 12, 2, 12)).teams
    )
    assert [t.channel for t in teams] == ["CSMALL", "CBIG"]
    assert teams[1].correct > teams[0].correct  # the big team has more points in total
    assert (teams[0].accuracy, teams[0].participation) == (1.0, 1.0)


def test_members_who_stop_answering_lower_participation(tmp_path):
    """A member who answered on Tuesday but not Wednesday halves their share of participation."""
    daily = make_daily(tmp_path)
    berlin(daily, "C123")
    poster = RecordingPoster()
    posts = run_days(daily, poster, [1, 2])
    answer(daily, posts[1], "U1")
    answer(daily, posts[1], "U2")
    answer(daily, posts[2], "U1")
    (team,) = (
        Standings(daily.tutor.store).teams(team=TEAM, period="all", now=utc(2026, 12, 2, 12)).teams
    )
    assert (team.members, team.posts, team.answered) == (2, 2, 3)
    assert team.participation == 0.75


def test_weekly_board_starts_on_monday_in_the_team_zone(tmp_path):
    """Last week's answers are not on this week's board, but are on the month's."""
    daily = make_daily(tmp_path)
    berlin(daily)
    poster = RecordingPoster()
    posts = run_days(daily, poster, [4, 7])  # Friday, then Monday
    answer(daily, posts[4], "U1")
    answer(daily, posts[7], "U2")
    now = utc(2026, 12, 7, 12)
    week = (
        Standings(daily.tutor.store).board(team=TEAM, channel="C123", period="week", now=now).rows
    )
    month = (
        Standings(daily.tutor.store).board(team=TEAM, channel="C123", period="month", now=now).rows
    )
    assert [r.standing.user for r in week] == ["U2"]
    assert sorted(r.standing.user for r in month) == ["U1", "U2"]
    assert period_start("week", now, dt.UTC) == utc(2026, 12, 7)


def test_monday_post_carries_last_weeks_recap_when_opted_in(tmp_path):
    """With recap on, Monday's post has last week's top three and the team ranking."""
    daily = make_daily(tmp_path)
    berlin(daily, recap=True)
    poster = RecordingPoster()
    posts = run_days(daily, poster, [1, 2, 3, 4])  # Tue..Fri
    for n, user in enumerate(["U1", "U2", "U3", "U4"]):
        for day in list(posts)[: 4 - n]:
            answer(daily, posts[day], user)
    monday = run_days(daily, poster, [7])[7]
    recap = monday[2]
    assert recap is not None
    assert [s.user for s in recap.top] == ["U1", "U2", "U3"]
    assert [t.channel for t in recap.teams] == ["C123"]
    assert all(recap is None for _, _, recap in poster.posted[:4])


def test_no_recap_without_opting_in(tmp_path):
    """Without recap, Monday's post is just the question."""
    daily = make_daily(tmp_path)
    berlin(daily)
    poster = RecordingPoster()
    assert run_days(daily, poster, [7])[7][2] is None


def test_workspace_board_spans_channels(tmp_path):
    """Everyone in the workspace is ranked across all scheduled channels."""
    daily = make_daily(tmp_path)
    berlin(daily, "C123")
    berlin(daily, "C456")
    poster = RecordingPoster()
    run_days(daily, poster, [1])
    for posted in poster.posted:
        answer(daily, posted, "U1")
    answer(daily, poster.posted[0], "U2")
    board = (
        Standings(daily.tutor.store)
        .board(team=TEAM, period="all", now=utc(2026, 12, 1, 12))
        .standings
    )
    assert [(s.user, s.points) for s in board] == [("U1", 2), ("U2", 1)]
