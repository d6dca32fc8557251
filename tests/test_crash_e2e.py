"""Acknowledged means durable: `kill -9` of a real `tutor serve` in the middle of a burst of clicks.

Slack counts a click as delivered when it gets HTTP 200. Every click that got its 200 must be
in the database after the whole server (gunicorn's master and workers) is killed with SIGKILL,
and no learner may have two answers to one post. Clicks that got no 200 may or may not be there:
Slack would have shown that person an error.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.conftest import write_content
from tests.slack_stub import SIGNING_SECRET, TEAM, SlackRequests, start

CHANNEL = "C0BURST001"
CLICKS = 200
KILL_AFTER = 60  # acknowledged clicks before the kill, so the burst is surely mid-flight


def _daily_post(db) -> int:
    now = dt.datetime.now(dt.UTC)
    with sqlite3.connect(db) as conn:
        cursor = conn.execute(
            "insert into posts (team, channel, user, question_id, section, topic, kind, "
            "posted_at, closes_at, ts, local_date) values (?, ?, '', 'q-oom', '3.2', "
            "'Troubleshooting', 'daily', ?, ?, '1.0', ?)",
            [
                TEAM,
                CHANNEL,
                now.isoformat(timespec="seconds"),
                (now + dt.timedelta(hours=2)).isoformat(timespec="seconds"),
                str(now.date()),
            ],
        )
        return int(cursor.lastrowid)


@pytest.mark.parametrize("round_", range(2))
def test_kill_9_mid_burst_loses_no_acknowledged_click_and_doubles_none(tmp_path, stub, round_):
    """200 learners click one daily post; the server is killed -9 mid-burst; every 200 is kept."""
    server = start(tmp_path, stub.url, content=write_content(tmp_path / "content"), workers=2)
    try:
        post_id = _daily_post(server.db)
        slack = SlackRequests(server.url, SIGNING_SECRET, response_url=stub.response_url)
        users = [f"U0B{round_}{n:06d}" for n in range(CLICKS)]
        clicks = {
            u: slack.action(
                f"answer_{'abc'[n % 3]}", f"{post_id}:{'ABC'[n % 3]}", user=u, channel=CHANNEL
            )
            for n, u in enumerate(users)
        }
        acknowledged: list[str] = []
        enough = threading.Event()
        lock = threading.Lock()

        def click(user: str) -> None:
            try:
                sent = slack.post(clicks[user])
            except OSError:  # the server is gone: Slack would show this person an error
                return
            if sent.status == 200:
                with lock:
                    acknowledged.append(user)
                    if len(acknowledged) >= KILL_AFTER:
                        enough.set()

        with ThreadPoolExecutor(16) as pool:
            futures = [pool.submit(click, u) for u in users]
            assert enough.wait(120), "the burst never reached the kill point"
            server.kill()
            for future in futures:
                future.result()
    finally:
        server.kill()

    with sqlite3.connect(server.db) as conn:
        rows = conn.execute("select user from answers where post_id = ?", [post_id]).fetchall()
    stored = [user for (user,) in rows]
    assert len(stored) == len(set(stored)), "a learner was recorded twice"
    lost = set(acknowledged) - set(stored)
    assert lost == set(), f"{len(lost)} of {len(acknowledged)} acknowledged clicks were lost"
    assert len(acknowledged) < CLICKS, "the kill came after the burst: nothing was tested"
    print(f"kill -9 after {len(acknowledged)} acknowledged clicks: {len(stored)} stored, 0 lost")
