"""What issue 14 costs: FSRS cards on every answer, readiness in stats, and drawing charts.

Each figure beside a floor measured in the same run:

  card      per answer: Store.record_answer (tallies and the FSRS card, one transaction) beside
            the FSRS card update alone (`cards.review` on the same connection)
  stats     Tutor.stats (totals, streak, topics, reviews due, readiness, plan, weeks) for one
            learner with 200 and with 2,000 answers, beside the reads stats made before
            readiness (totals, streak, topics, reviews due) for the same learner
  charts    drawing the readiness and progress charts (PNG), the first time (matplotlib is
            imported then) and warm; floor: none (Slack sees them after the ack)

Run with `python -m bench` or `python -m bench.readiness`.
"""

from __future__ import annotations

import datetime as dt
import random
import statistics
import tempfile
import time
from functools import partial
from pathlib import Path

from bot import charts
from bot.catalog import load_catalog
from bot.standings import Standings
from bot.store import Store, cards
from bot.tutor import Tutor
from tests.slack_stub import ROOT

START = dt.datetime(2026, 6, 1, tzinfo=dt.UTC)


def learner(tutor: Tutor, user: str, answers: int) -> dt.datetime:
    """`answers` private quizzes answered by `user`, two hours apart; returns the moment after."""
    rng = random.Random(answers)
    for i in range(answers):
        now = START + dt.timedelta(hours=2 * i)
        asked = tutor.quiz(team="T", user=user, now=now)
        choice = rng.choice(asked.question.letters)
        tutor.answer(post_id=asked.post.id, user=user, choice=choice, now=now, team="T")
    return START + dt.timedelta(hours=2 * answers + 1)


def median_ms(work, runs: int = 9) -> float:
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        work()
        times.append(time.perf_counter() - began)
    return statistics.median(times) * 1000


def bench_card(tutor: Tutor) -> None:
    store, n = tutor.store, 400
    posts = [
        store.post(
            store.add_post(
                team="T",
                channel="C",
                user="B",
                question_id=f"q{i % 150}",
                section="3.2",
                topic="t",
                kind="private",
                now=START,
            )
        )
        for i in range(n)
    ]
    began = time.perf_counter()
    for i, post in enumerate(posts):
        assert post is not None
        at = START + dt.timedelta(hours=i)
        store.record_answer(
            post, user="B", choice="A", correct=i % 3 > 0, section="3.2", topic="t", now=at
        )
    whole = (time.perf_counter() - began) / n * 1e6
    began = time.perf_counter()
    for i in range(n):
        at = START + dt.timedelta(hours=n + i)
        cards.review(
            store.db, team="T", user="C", question_id=f"q{i % 150}", correct=i % 3 > 0, at=at
        )
    card = (time.perf_counter() - began) / n * 1e6
    print(
        f"  record_answer {whole:8.0f} us/answer; its FSRS card alone {card:6.0f} us "
        f"({card / whole:.0%} of it)"
    )


def reads_before(tutor: Tutor, user: str, now: dt.datetime) -> None:
    """What stats read before readiness: totals, streak, topics, reviews due."""
    tutor.store.totals(team="T", user=user)
    Standings(tutor.store).learner_streak(team="T", user=user, now=now)
    tutor.store.topic_scores(team="T", user=user)
    tutor.store.due_questions(team="T", user=user, now=now)


def bench_stats(tutor: Tutor) -> None:
    for count in (200, 2000):
        user = f"U{count}"
        now = learner(tutor, user, count)
        old = median_ms(partial(reads_before, tutor, user, now))
        new = median_ms(partial(tutor.stats, team="T", user=user, now=now))
        print(
            f"  stats, {count:>5} answers: {new:7.2f} ms beside {old:6.2f} ms before readiness "
            f"({new / old:5.1f}x)"
        )


def bench_charts(tutor: Tutor) -> None:
    now = START + dt.timedelta(hours=4001)
    stats = tutor.stats(team="T", user="U2000", now=now)
    assert stats.readiness is not None
    for label in ("first (imports matplotlib)", "warm"):
        began = time.perf_counter()
        charts.draw_readiness(stats.readiness)
        charts.draw_progress(stats.weeks)
        print(f"  both charts, {label}: {(time.perf_counter() - began) * 1000:6.0f} ms")


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        tutor = Tutor(load_catalog(ROOT), Store(Path(folder) / "bench.db"), rng=random.Random(1))
        print("card")
        bench_card(tutor)
        print("stats")
        bench_stats(tutor)
        print("charts")
        bench_charts(tutor)


if __name__ == "__main__":
    main()
