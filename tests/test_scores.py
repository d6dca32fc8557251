"""The SQLite store: one answer per learner and post, stable leaderboards, durable schema."""

from __future__ import annotations

import datetime as dt
import sqlite3
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from bot.standings import Standings
from bot.store import Store, migrations


def add_post(store: Store, now: dt.datetime, **overrides) -> int:
    values = dict(
        team="T1",
        channel="C1",
        user="",
        question_id="q-oom",
        section="3.2",
        topic="Troubleshooting",
        kind="daily",
        now=now,
    )
    values.update(overrides)
    return store.add_post(**values)


def answer(store: Store, post_id: int, user: str, correct: bool, now: dt.datetime) -> bool:
    post = store.post(post_id)
    return store.record_answer(
        post,
        user=user,
        choice="C" if correct else "A",
        correct=correct,
        section="3.2",
        topic="Troubleshooting",
        now=now,
    )


def test_second_answer_to_the_same_post_is_refused(store, now):
    """The unique index keeps the first answer; the second reports it was not recorded."""
    post_id = add_post(store, now)
    assert answer(store, post_id, "U1", True, now) is True
    assert answer(store, post_id, "U1", False, now) is False
    assert store.answer_of(post_id, "U1") == "C"
    assert store.totals(team="T1", user="U1") == (1, 1)


def test_the_database_enforces_uniqueness_not_python(store, now):
    """A raw duplicate insert fails inside SQLite itself."""
    post_id = add_post(store, now)
    answer(store, post_id, "U1", True, now)
    conn = sqlite3.connect(store.path)
    try:
        conn.execute(
            "insert into answers (post_id, team, user, choice, correct, answered_at) "
            "values (?, 'T1', 'U1', 'B', 0, 'x')",
            [post_id],
        )
    except sqlite3.IntegrityError as error:
        assert "UNIQUE" in str(error)
    else:
        raise AssertionError("duplicate answer was accepted")
    finally:
        conn.close()


def test_leaderboard_ranks_by_points_then_accuracy_then_user(store, now):
    """Ties on points go to the more accurate learner, then alphabetically."""
    posts = [add_post(store, now) for _ in range(3)]
    for post_id, ok in zip(posts, [True, True, False], strict=True):
        answer(store, post_id, "Ubob", ok, now)
    for post_id, ok in zip(posts[:2], [True, True], strict=True):
        answer(store, post_id, "Uann", ok, now)
    answer(store, posts[0], "Uzed", True, now)
    answer(store, posts[0], "Ucat", True, now)
    board = Standings(store).board(team="T1", period="all", now=now).standings
    assert [(s.rank, s.user, s.points, s.answered) for s in board] == [
        (1, "Uann", 2, 2),
        (2, "Ubob", 2, 3),
        (3, "Ucat", 1, 1),
        (4, "Uzed", 1, 1),
    ]


def test_leaderboard_period_and_channel_filters(store, now):
    """Last week's answers drop out of this week's board; another channel's answers stay out."""
    old = now - dt.timedelta(days=10)
    answer(store, add_post(store, old), "U1", True, old)
    answer(store, add_post(store, now, channel="C2"), "U2", True, now)
    standings = Standings(store)

    def users(**where) -> list[str]:
        return [s.user for s in standings.board(team="T1", now=now, **where).standings]

    assert users(period="week") == ["U2"]
    assert users(period="all", channel="C1") == ["U1"]
    assert standings.board(team="T2", period="all", now=now).standings == []


def test_concurrent_answers_from_many_threads_are_all_kept(store, now):
    """50 learners answering one post at once give 50 rows, none lost."""
    post_id = add_post(store, now)
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(lambda i: answer(store, post_id, f"U{i}", True, now), range(50)))
    assert all(results)
    assert len(Standings(store).board(team="T1", now=now, limit=100).standings) == 50


def test_reopening_the_file_keeps_data_and_schema(tmp_path, now):
    """Migrations run once; a second Store on the same file sees the same rows."""
    first = Store(tmp_path / "t.db")
    answer(first, add_post(first, now), "U1", True, now)
    second = Store(tmp_path / "t.db")
    assert second.totals(team="T1", user="U1") == (1, 1)
    applied = second.db.execute("select count(*) from _sqlite_migrations").fetchone()[0]
    assert applied >= 2


def test_event_ids_are_claimed_once(store, now):
    """A retried delivery of the same event id is recognised."""
    assert store.first_delivery("Ev1", now) is True
    assert store.first_delivery("Ev1", now) is False
    assert store.forget_events(now + dt.timedelta(days=2)) == 1
    assert store.first_delivery("Ev1", now) is True


def test_times_must_carry_a_zone(store):
    """Naive datetimes are refused so no local time sneaks into the store."""
    try:
        add_post(store, dt.datetime(2026, 12, 1, 9, 0))
    except ValueError as error:
        assert "timezone-aware" in str(error)
    else:
        raise AssertionError("naive datetime accepted")


def test_two_processes_creating_one_new_file_both_succeed(tmp_path):
    """Migrations on a brand-new file are serialised: both openers end up with one schema."""
    path = tmp_path / "new.db"
    code = f"from bot.store import Store; Store({str(path)!r})"
    procs = [
        subprocess.Popen([sys.executable, "-c", code], stderr=subprocess.PIPE, text=True)
        for _ in range(4)
    ]
    errors = [p.communicate(timeout=60)[1] for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0, 0], errors
    applied = Store(path).db.execute("select count(*) from _sqlite_migrations").fetchone()[0]
    assert applied == len(migrations._migrations)
