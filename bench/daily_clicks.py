"""Answers per second through the real click path: signed block_actions to a running `tutor serve`.

Setup: Slack's Web API is the recording stand-in (tests/slack_stub.py); one daily question is
posted to a channel with `tutor daily`; then CLICKS distinct users click it from CONNECTIONS
client threads. Two figures: acks per second (HTTP 200s, what Slack's 3-second limit cares about)
and answers per second (until every answer row is in SQLite, feedback sent, end to end). A
third row times Tutor.answer alone from threads, to show how much of that is the store.
Run with `python -m bench` or `python -m bench.daily_clicks`.
"""

from __future__ import annotations

import datetime as dt
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tests.conftest import write_content
from tests.daily_stub import DAILY_QUIZ, TEAM, berlin, make_daily, utc
from tests.slack_stub import (
    BOT_TOKEN,
    ROOT,
    SIGNING_SECRET,
    SlackRequests,
    SlackStub,
    slack_env,
    start,
)

CLICKS = 1000
CONNECTIONS = 32
WORKERS = int(os.environ.get("WEB_CONCURRENCY", "2"))


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        stub = SlackStub().start()
        try:
            acked, recorded = through_serve(tmp, stub)
        finally:
            stub.stop()
        store_only = through_store(tmp / "store")
    print(f"daily clicks: {CLICKS} users, {CONNECTIONS} connections, {WORKERS} gunicorn workers")
    print(f"  acks/s (HTTP 200)                  {acked:8.0f}")
    print(f"  answers/s recorded, end to end     {recorded:8.0f}")
    print(f"  answers/s through Tutor.answer     {store_only:8.0f}  (store only, 8 threads)")


def through_serve(tmp: Path, stub: SlackStub) -> tuple[float, float]:
    content = write_content(tmp / "content", quiz=DAILY_QUIZ)
    db = tmp / "tutor.db"
    env = slack_env(
        SLACK_BOT_TOKEN=BOT_TOKEN,
        SLACK_API_URL=stub.url,
        TUTOR_DB=str(db),
        TUTOR_CONTENT=str(content),
    )
    at = (dt.datetime.now(dt.UTC) - dt.timedelta(minutes=1)).strftime("%H:%M")
    for args in (
        ["schedule", "add", "--channel", "C123", "--at", at, "--tz", "UTC", "--days", "daily"],
        ["daily"],
    ):
        subprocess.run(
            [sys.executable, "-m", "bot", *args], cwd=ROOT, env=env, check=True, capture_output=True
        )
    post_id = _one(db, "select id from posts where kind = 'daily'")
    server = start(tmp, stub.url, content=content, workers=WORKERS)
    try:
        slack = SlackRequests(server.url, SIGNING_SECRET, response_url=stub.response_url)
        clicks = [
            slack.action(
                f"answer_{'abcd'[n % 4]}",
                f"{post_id}:{'ABCD'[n % 4]}",
                user=f"U{n:09d}",
                channel="C123",
            )
            for n in range(CLICKS)
        ]
        warm = slack.action("answer_a", f"{post_id}:A", user="UWARMUP", channel="C123")
        slack.post(warm)  # warm both paths
        begin = time.perf_counter()
        with ThreadPoolExecutor(CONNECTIONS) as pool:
            statuses = list(pool.map(lambda c: slack.post(c).status, clicks))
        acked = time.perf_counter() - begin
        while _one(db, "select count(*) from answers") < CLICKS + 1:
            time.sleep(0.005)  # a benchmark may poll; tests never do this
        recorded = time.perf_counter() - begin
    finally:
        server.stop()
    if statuses.count(200) != CLICKS:
        raise RuntimeError(f"only {statuses.count(200)} of {CLICKS} clicks got 200")
    return CLICKS / acked, CLICKS / recorded


def through_store(tmp: Path) -> float:
    tmp.mkdir()
    daily = make_daily(tmp, seed=random.randrange(1000))
    berlin(daily, days="*")

    class Poster:
        def post_question(self, post, question, recap) -> str:
            return "1.0"

        def find_posted(self, post) -> str | None:
            return None

        def reveal(self, reveal) -> None:
            pass

    post_id = daily.run_pass(Poster(), now=utc(2026, 12, 1, 8)).outcomes[0].post_id
    users = iter(range(CLICKS))
    lock = threading.Lock()

    def clicker() -> None:
        while True:
            with lock:
                n = next(users, None)
            if n is None:
                return
            daily.tutor.answer(
                post_id=post_id,
                user=f"U{n}",
                choice="B",
                now=utc(2026, 12, 1, 9),
                team=TEAM,
                channel="C123",
            )

    begin = time.perf_counter()
    threads = [threading.Thread(target=clicker) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return CLICKS / (time.perf_counter() - begin)


def _one(db: Path, sql: str) -> int:
    with sqlite3.connect(db) as conn:
        return conn.execute(sql).fetchone()[0]


if __name__ == "__main__":
    main()
