"""What mock exams cost, each figure beside a floor measured in the same run.

  recap     the Monday recap's board query (a channel's last week, read from the answers), which
            now leaves out mock answers, beside the same query without that filter (the floor)
  zone      a channel's buckets recounted on a new clock (`tallies.add_zone`), filtered, beside
            the unfiltered recount (the floor)
  click     one mock answer (record, then show the next question) beside one private quiz
            answer (`Tutor.answer`, the floor), in the same file

Run: `python -m bench.mock [--answers N]` (the workspace of bench/scale.py, default 300,000).
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bot.catalog import load_catalog
from bot.mock_exams import MockExams
from bot.store import stamp
from bot.tutor import Tutor
from tests import workspace

ROOT = Path(__file__).resolve().parent.parent
RECAP = """
    select a.user, sum(a.correct) as points, count(*), sum(a.correct)
    from answers a where a.team = ? and a.channel = ? and a.answered_at >= ?
      and a.answered_at < ? {mock}
    group by a.user order by points desc, 1.0 * sum(a.correct) / count(*) desc, a.user limit 3
"""
NO_MOCK = "and a.post_id not in (select id from posts where kind = 'mock')"  # as bot.standings
ZONE_UNFILTERED = """
    select user, substr(answered_at, 1, 16), count(*), sum(correct) from answers
    where team = ? and channel = ? group by 1, 2
"""
ZONE_FILTERED = """
    select user, substr(answered_at, 1, 16), count(*), sum(correct) from answers
    where team = ? and channel = ? and post_id not in (select id from posts where kind = 'mock')
    group by 1, 2
"""


def median_ms(work: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        work()
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.mock")
    parser.add_argument("--answers", type=int, default=300_000)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        store = workspace.build(
            Path(folder) / "big.db", answers=args.answers, learners=2000, channels=100
        )
        tutor = Tutor(load_catalog(ROOT), store, rng=random.Random(1))
        now, team = workspace.END, workspace.TEAM
        since, until = now - dt.timedelta(days=7), now
        rng = random.Random(2)

        def channel() -> str:
            return workspace.channel_id(rng.randrange(100))

        recap = [team, "", stamp(since), stamp(until)]

        def board(mock: str) -> Callable[[], object]:
            def read() -> object:
                recap[1] = channel()
                return store.db.execute(RECAP.format(mock=mock), recap).fetchall()

            return read

        rows = [
            (
                "recap board of a channel (ms)",
                median_ms(board(NO_MOCK), 300),
                median_ms(board(""), 300),
            ),
            (
                "a channel recounted on a new clock, its answers read (ms)",
                median_ms(
                    lambda: store.db.execute(ZONE_FILTERED, [team, channel()]).fetchall(), 50
                ),
                median_ms(
                    lambda: store.db.execute(ZONE_UNFILTERED, [team, channel()]).fetchall(), 50
                ),
            ),
            ("one mock click vs one quiz click (ms)", *clicks(tutor, now)),
        ]
    print(f"{'figure':<58} {'this':>8} {'floor':>8} {'ratio':>6}")
    for name, value, floor in rows:
        print(f"{name:<58} {value:8.3f} {floor:8.3f} {value / floor:6.2f}")


def clicks(tutor: Tutor, now: dt.datetime, learners: int = 200) -> tuple[float, float]:
    """Median per answer: each learner takes a mock of 20 and answers 20 private quizzes."""
    mocks, mock_times, quiz_times = MockExams(tutor), [], []
    for n in range(learners):
        user = f"UBENCH{n:05d}"
        shown = mocks.start(team="TB", user=user, channel="D1", size=20, timed=False, now=now)
        while hasattr(shown, "post_id"):
            began = time.perf_counter()
            shown = mocks.answer(post_id=shown.post_id, user=user, team="TB", choice="A", now=now)
            mock_times.append(time.perf_counter() - began)
        for _ in range(20):
            asked = tutor.quiz(team="TB", user=user, now=now)
            began = time.perf_counter()
            tutor.answer(post_id=asked.post.id, user=user, choice="A", now=now, team="TB")
            quiz_times.append(time.perf_counter() - began)
    return statistics.median(mock_times) * 1000, statistics.median(quiz_times) * 1000


if __name__ == "__main__":
    main()
