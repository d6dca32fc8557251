"""A workspace with a long history, bulk-loaded in the real schema (query plans, bench/scale.py).

Channels have schedules on a few clocks; each learner belongs to one channel, answers some of
its daily questions and takes private quizzes. Half the answers are daily, half private; every
answer has its post, as the store writes them. Tallies are then counted by the store's own
`tallies.rebuild` and the statistics by ANALYZE, as a long-running file would have them.
"""

from __future__ import annotations

import datetime as dt
import random
import sqlite3
from pathlib import Path

from bot.store import Store, tallies

TEAM = "T0000001"
ZONES = ("UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata")
SECTIONS = ("1.1", "1.2", "2.1", "2.2", "2.3", "3.1", "3.2", "3.3", "4.1", "4.2", "5.1", "5.2")
END = dt.datetime(2026, 11, 27, 12, 0, tzinfo=dt.UTC)  # a Friday: this week and month have history


def channel_id(n: int) -> str:
    return f"C{n:06d}"


def learner_id(n: int) -> str:
    return f"U{n:07d}"


def build(
    path: Path,
    *,
    answers: int,
    learners: int,
    channels: int,
    days: int = 200,
    seed: int = 1,
    team: str = TEAM,
) -> Store:
    """Write the workspace to `path` and return its store (migrations applied, ANALYZEd)."""
    store = Store(path)
    rng = random.Random(seed)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA synchronous=OFF")
    conn.execute("BEGIN")
    _schedules(conn, team, channels)
    daily_posts = _daily_posts(conn, team, channels, days)
    members = [[m for m in range(learners) if m % channels == c] for c in range(channels)]
    _daily_answers(conn, rng, team, daily_posts, members, answers // 2)
    _private_answers(conn, rng, team, (learners, channels, days), answers - answers // 2)
    conn.execute("COMMIT")
    conn.close()
    with store.db.conn:
        tallies.rebuild(store.db)
    store.db.execute("ANALYZE")
    store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the file alone holds it all (copies)
    return store


def _stamp(moment: dt.datetime) -> str:
    return moment.isoformat(timespec="seconds")


def _schedules(conn: sqlite3.Connection, team: str, channels: int) -> None:
    rows = [
        (team, channel_id(c), "09:00", ZONES[c % len(ZONES)], "*", None, 1, "", "bench", "x")
        for c in range(channels)
    ]
    conn.executemany(
        "insert into schedules (team, channel, at, tz, days, window_hours, recap, sections, "
        "created_by, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )


def _daily_posts(
    conn: sqlite3.Connection, team: str, channels: int, days: int
) -> list[list[tuple]]:
    """Per channel, its daily posts as (id, posted at), oldest first."""
    found: list[list[tuple]] = [[] for _ in range(channels)]
    sql = """
        insert into posts (team, channel, user, question_id, section, topic, kind, posted_at,
          closes_at, ts, local_date, revealed_at)
        values (?, ?, '', ?, ?, ?, 'daily', ?, ?, ?, ?, ?)
    """
    for day in range(days, 0, -1):
        posted = END - dt.timedelta(days=day)
        for c in range(channels):
            section = SECTIONS[(day + c) % len(SECTIONS)]
            values = [
                team,
                channel_id(c),
                f"q-{section}-{day % 40}",
                section,
                f"topic-{section}",
                _stamp(posted),
                _stamp(posted + dt.timedelta(days=1)),
                f"{day}.{c}",
                posted.date().isoformat(),
                _stamp(posted + dt.timedelta(days=1)),
            ]
            found[c].append((conn.execute(sql, values).lastrowid, posted, section))
    return found


def _daily_answers(
    conn: sqlite3.Connection,
    rng: random.Random,
    team: str,
    posts: list[list[tuple]],
    members: list[list[int]],
    count: int,
) -> None:
    pairs = [(c, p, m) for c in range(len(posts)) for p in range(len(posts[c])) for m in members[c]]
    chosen = rng.sample(pairs, min(count, len(pairs)))
    rows = []
    for c, p, m in chosen:
        post_id, posted, section = posts[c][p]
        at = posted + dt.timedelta(minutes=rng.randrange(1, 600))
        rows.append(_answer(rng, team, post_id, channel_id(c), learner_id(m), section, at))
    _insert_answers(conn, rows)


def _private_answers(
    conn: sqlite3.Connection,
    rng: random.Random,
    team: str,
    size: tuple[int, int, int],
    count: int,
) -> None:
    learners, channels, days = size
    sql = """
        insert into posts (team, channel, user, question_id, section, topic, kind, posted_at)
        values (?, ?, ?, ?, ?, ?, 'private', ?)
    """
    rows = []
    for _ in range(count):
        m = rng.randrange(learners)
        section = rng.choice(SECTIONS)
        at = END - dt.timedelta(minutes=rng.randrange(1, days * 24 * 60))
        channel = channel_id(m % channels)
        values = [team, channel, learner_id(m), f"q-{section}-1", section, f"topic-{section}"]
        post_id = conn.execute(sql, [*values, _stamp(at)]).lastrowid
        rows.append(_answer(rng, team, post_id, channel, learner_id(m), section, at))
    _insert_answers(conn, rows)


def _answer(
    rng: random.Random,
    team: str,
    post_id: int,
    channel: str,
    user: str,
    section: str,
    at: dt.datetime,
) -> tuple:
    correct = int(rng.random() < 0.6)
    question = f"q-{section}-1"
    topic = f"topic-{section}"
    return (post_id, team, channel, user, question, section, topic, "A", correct, _stamp(at))


def _insert_answers(conn: sqlite3.Connection, rows: list[tuple]) -> None:
    conn.executemany(
        "insert into answers (post_id, team, channel, user, question_id, section, topic, "
        "choice, correct, answered_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )
