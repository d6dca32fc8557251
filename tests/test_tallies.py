"""Running totals (bot.store.tallies): they always say what the answers say, however they came."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from bot.schedule import Schedule
from bot.standings import PERIODS, Standings, period_start
from bot.store import DailyStore, Store, tallies
from tests import workspace
from tests.workspace import END, TEAM

TABLES = ("board_tallies", "channel_tallies", "learner_tallies", "daily_members")


@pytest.fixture(scope="module")
def history(tmp_path_factory) -> Store:
    path = tmp_path_factory.mktemp("history") / "tutor.db"
    return workspace.build(path, answers=4000, learners=60, channels=6, days=70)


def counted(store: Store) -> dict[str, list[tuple]]:
    return {t: store.db.execute(f"select * from {t} order by 1, 2, 3").fetchall() for t in TABLES}


def by_answers(
    standings: Standings, channel: str | None, period: str, now: dt.datetime, limit: int = 10
):
    """The board as the answers themselves give it (the recap's path)."""
    zone = standings.zone(team=TEAM, channel=channel)
    since = period_start(period, now, zone)
    until = None
    if since is not None:  # the end of that week or month, for a board read in the past
        until = period_start(period, since + dt.timedelta(days=8 if period == "week" else 32), zone)
    return standings._standings(team=TEAM, channel=channel, since=since, until=until, limit=limit)


@pytest.mark.parametrize("period", PERIODS)
@pytest.mark.parametrize("channel", [None, workspace.channel_id(0), workspace.channel_id(1)])
def test_a_board_from_tallies_is_the_board_from_answers(history, channel, period):
    """Every place and period: the tallied board ranks exactly as counting the answers does."""
    standings = Standings(history)
    for now in (END, END - dt.timedelta(days=9), END - dt.timedelta(days=40)):
        board = standings.board(team=TEAM, channel=channel, period=period, now=now)
        if period == "all" and now != END:
            continue  # all time is all time
        assert board.standings == by_answers(standings, channel, period, now)


@pytest.mark.parametrize("period", PERIODS)
def test_the_teams_board_from_tallies_is_the_one_from_answers(history, period):
    """Posts, members, answers and the ranking agree with the query over answers and posts."""
    standings = Standings(history)
    tallied = standings.teams(team=TEAM, period=period, now=END).teams
    since = period_start(period, END, dt.UTC)
    later = END + dt.timedelta(days=1)  # an explicit bound: the answers' path, nothing cut off
    from_answers = standings.teams(team=TEAM, period=period, since=since, until=later, now=END)
    assert tallied == from_answers.teams


def test_stats_from_tallies_are_the_answers_counted(history):
    """Totals, topics and weak sections equal the answers grouped by hand."""
    user = workspace.learner_id(7)
    sql = "select count(*), sum(correct) from answers where team = ? and user = ?"
    assert history.totals(team=TEAM, user=user) == tuple(
        history.db.execute(sql, [TEAM, user]).fetchone()
    )
    sql = "select topic, count(*), sum(correct) from answers where team = ? and user = ? group by 1"
    expected = {t: (a, c) for t, a, c in history.db.execute(sql, [TEAM, user])}
    assert {
        t.topic: (t.answered, t.correct) for t in history.topic_scores(team=TEAM, user=user)
    } == expected
    sql = """select section from answers where team = ? group by section
             order by 1.0 * sum(correct) / count(*), section"""
    assert history.weak_sections(team=TEAM) == [r[0] for r in history.db.execute(sql, [TEAM])]


def test_answers_counted_one_by_one_equal_a_recount(tmp_path):
    """record_answer's increments and tallies.rebuild give identical tables."""
    store = workspace.build(tmp_path / "t.db", answers=0, learners=12, channels=3, days=5)
    rng = random.Random(3)
    posts = store.db.execute("select id from posts where kind = 'daily'").fetchall()
    for n in range(300):
        post = store.post(rng.choice(posts)[0])
        if rng.random() < 0.5:
            private = store.add_post(
                team=TEAM,
                channel=post.channel,
                user=f"U{n % 12}",
                question_id="q",
                section="3.1",
                topic="t",
                kind="private",
                now=END,
            )
            post = store.post(private)
        moment = END - dt.timedelta(minutes=rng.randrange(60 * 24 * 60))
        store.record_answer(
            post,
            user=f"U{n % 12}",
            choice="A",
            correct=rng.random() < 0.5,
            section=rng.choice(["1.1", "3.1"]),
            topic=rng.choice(["a", "b"]),
            now=moment,
        )
    one_by_one = counted(store)
    with store.db.conn:
        tallies.rebuild(store.db)
    assert counted(store) == one_by_one


def test_a_schedule_on_a_new_clock_brings_the_channels_history_along(history, tmp_path):
    """Moving a channel's schedule to another zone: its week board still counts every answer."""
    store = Store(history.path)
    channel = workspace.channel_id(0)  # on UTC
    standings = Standings(store)
    schedule = Schedule(TEAM, channel, "09:00", "Pacific/Auckland", "*")
    DailyStore(store).set_schedule(schedule, by="test", now=END)
    for period in ("week", "month"):
        board = standings.board(team=TEAM, channel=channel, period=period, now=END)
        assert board.standings == by_answers(standings, channel, period, END)
    DailyStore(store).set_schedule(Schedule(TEAM, channel, "09:00", "UTC", "*"), by="t", now=END)


def test_a_schedule_back_on_an_earlier_clock_counts_what_came_meanwhile(history):
    """Berlin, then Tokyo while answers come in, then Berlin again: Berlin's buckets are whole."""
    store = Store(history.path)
    channel = workspace.channel_id(1)  # on Berlin's clock
    daily = DailyStore(store)
    daily.set_schedule(Schedule(TEAM, channel, "09:00", "Asia/Tokyo", "*"), by="t", now=END)
    sql = "select id from posts where channel = ? and kind = 'daily' order by id desc"
    post = store.post(store.db.execute(sql, [channel]).fetchone()[0])
    store.record_answer(
        post, user="UNEWCOMER", choice="A", correct=True, section="3.1", topic="t", now=END
    )
    daily.set_schedule(Schedule(TEAM, channel, "09:00", "Europe/Berlin", "*"), by="t", now=END)
    standings = Standings(store)
    for period in ("week", "month"):
        board = standings.board(team=TEAM, channel=channel, period=period, now=END, limit=100)
        assert board.standings == by_answers(standings, channel, period, END, limit=100)
        assert "UNEWCOMER" in [s.user for s in board.standings]


def test_streaks_read_in_chunks_are_the_whole_history_walked(history):
    """A channel board's streaks equal daily_streak over every post and every answer."""
    from bot.standings import daily_streak

    standings = Standings(history)
    for n in range(3):
        channel = workspace.channel_id(n)
        posts = standings.daily_posts(team=TEAM, channel=channel)
        for now in (END, END - dt.timedelta(days=20)):
            board = standings.board(team=TEAM, channel=channel, period="all", now=now, limit=30)
            for row in board.rows:
                sql = "select post_id from answers where user = ? and channel = ?"
                answered = {r[0] for r in history.db.execute(sql, [row.standing.user, channel])}
                assert row.streak == daily_streak(posts, answered, now)
    assert any(row.streak for row in board.rows)
