"""The daily quick-check end to end: `tutor schedule` and `tutor daily` as processes, and clicks
signed as Slack sends them to a running `tutor serve`, with Slack's Web API the recording stand-in.
"""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from tests.conftest import write_content
from tests.daily_stub import DAILY_QUIZ
from tests.slack_stub import (
    BOT_TOKEN,
    ROOT,
    SIGNING_SECRET,
    TEAM,
    SlackRequests,
    SlackStub,
    slack_env,
    start,
)


class Tutor:
    """`python -m bot …` over one database, content folder and stand-in."""

    def __init__(self, tmp: Path, api_url: str) -> None:
        self.db = tmp / "tutor.db"
        self.env = slack_env(
            SLACK_BOT_TOKEN=BOT_TOKEN,
            SLACK_API_URL=api_url,
            TUTOR_DB=str(self.db),
            TUTOR_CONTENT=str(write_content(tmp / "content", quiz=DAILY_QUIZ)),
        )

    def popen(self, *args: str) -> subprocess.Popen:
        return subprocess.Popen(
            [sys.executable, "-m", "bot", *args],
            cwd=ROOT,
            env=self.env,
            text=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )

    def __call__(self, *args: str) -> subprocess.CompletedProcess:
        process = self.popen(*args)
        out, err = process.communicate(timeout=120)
        return subprocess.CompletedProcess(args, process.returncode, out, err)

    def at_once(self, *args: str, times: int = 2) -> list[subprocess.CompletedProcess]:
        """Start `times` processes before waiting for any of them."""
        processes = [self.popen(*args) for _ in range(times)]
        done = []
        for process in processes:
            out, err = process.communicate(timeout=120)
            done.append(subprocess.CompletedProcess(args, process.returncode, out, err))
        return done

    def rows(self, sql: str, *values: object) -> list[tuple]:
        with sqlite3.connect(self.db) as conn:
            return conn.execute(sql, values).fetchall()


def posts_to(stub: SlackStub, channel: str) -> list:
    return [
        c
        for c in stub.called("chat.postMessage")
        if c.body["channel"] == channel and "thread_ts" not in c.body
    ]


def test_one_post_per_local_date_across_runs_and_processes(tmp_path, stub):
    """The issue's check: posted once at 09:00 Berlin, then nothing more, run again or twice."""
    tutor = Tutor(tmp_path, stub.url)
    added = tutor("schedule", "add", "--channel", "C123", "--at", "09:00", "--tz", "Europe/Berlin")
    assert added.returncode == 0, added.stderr
    listed = json.loads(tutor("schedule", "list", "--json").stdout)
    assert [(s["team"], s["channel"], s["days"]) for s in listed] == [(TEAM, "C123", "mon-fri")]

    first = tutor("daily", "--now", "2026-12-01T08:00:00Z")
    assert first.returncode == 0, first.stderr
    assert len(posts_to(stub, "C123")) == 1
    assert tutor("daily", "--now", "2026-12-01T08:00:00Z").returncode == 0
    assert all(r.returncode == 0 for r in tutor.at_once("daily", "--now", "2026-12-01T08:05:00Z"))
    assert len(posts_to(stub, "C123")) == 1
    assert tutor.rows("select local_date from posts where kind = 'daily'") == [("2026-12-01",)]

    both = tutor.at_once("daily", "--now", "2026-12-02T08:00:00Z")
    assert all(r.returncode == 0 for r in both), [r.stderr for r in both]
    assert len(posts_to(stub, "C123")) == 2  # Wednesday's, once
    assert len(stub.called("chat.update")) == 1  # Tuesday's closed and revealed, once
    reveals = [c for c in stub.called("chat.postMessage") if "thread_ts" in c.body]
    assert len(reveals) == 1


def test_kill_9_after_slack_took_the_post_leaves_exactly_one_post(tmp_path, stub):
    """`tutor daily` killed after Slack accepted its post: in flight, then adopted, then closed
    and revealed; one post for the date, never a second copy with live buttons."""
    tutor = Tutor(tmp_path, stub.url)
    tutor(
        "schedule",
        "add",
        "--channel",
        "C123",
        "--at",
        "09:00",
        "--tz",
        "Europe/Berlin",
        "--window",
        "4",
        "--team",
        TEAM,
    )
    answer = stub.hold("chat.postMessage")  # Slack takes the message; its answer never arrives
    process = tutor.popen("daily", "--now", "2026-12-01T08:00:00Z")
    assert stub.wait_for("chat.postMessage", within=60), "the post never reached the stand-in"
    process.kill()  # SIGKILL: no handler, no cleanup
    process.communicate(timeout=60)
    answer.set()
    (first,) = posts_to(stub, "C123")
    (message,) = stub.history("C123")
    assert message["metadata"]["event_payload"]["post_id"] > 0

    soon = tutor("daily", "--now", "2026-12-01T08:01:00Z")
    assert soon.returncode == 0 and "has not finished; nothing to do" in soon.stdout
    later = tutor("daily", "--now", "2026-12-01T08:16:00Z")
    assert later.returncode == 0 and "nothing posted again" in later.stdout, later.stdout
    assert stub.called("conversations.history") and posts_to(stub, "C123") == [first]
    assert tutor.rows("select ts from posts where kind = 'daily'") == [(message["ts"],)]

    closed = tutor("daily", "--now", "2026-12-01T12:30:00Z")
    assert closed.returncode == 0, closed.stdout + closed.stderr
    (update,) = stub.called("chat.update")
    assert update.body["ts"] == message["ts"]
    assert not [b for b in update.body["blocks"] if b["type"] == "actions"]  # buttons gone
    reveals = [c for c in stub.called("chat.postMessage") if "thread_ts" in c.body]
    assert [r.body["thread_ts"] for r in reveals] == [message["ts"]]
    assert posts_to(stub, "C123") == [first]


def test_daily_without_the_bot_in_the_channel_says_so(tmp_path, stub):
    """not_in_channel: exit 1, a line naming the channel and the fix, and no claim."""
    tutor = Tutor(tmp_path, stub.url)
    tutor("schedule", "add", "--channel", "C777", "--at", "09:00", "--tz", "UTC", "--team", TEAM)
    stub.fail("chat.postMessage", error="not_in_channel")
    result = tutor("daily", "--now", "2026-12-01T09:00:00Z")
    assert result.returncode == 1
    assert "C777: the bot is not in this channel" in result.stdout
    assert tutor.rows("select count(*) from posts") == [(0,)]


def test_schedule_commands_explain_mistakes(tmp_path, stub):
    """A bad zone is an `Error:` line with the fix; removing an unknown schedule says so."""
    tutor = Tutor(tmp_path, stub.url)
    bad = tutor("schedule", "add", "--channel", "C1", "--at", "09:00", "--tz", "Berlin")
    assert bad.returncode == 1 and "IANA" in bad.stderr and "Traceback" not in bad.stderr
    gone = tutor("schedule", "remove", "--channel", "C1")
    assert gone.returncode == 1 and "no schedule" in gone.stderr


@pytest.fixture
def served(tmp_path, stub):
    """A question posted to C123 just now (real clock), and `tutor serve` over the same file.

    The click path reads the real clock, so the schedule is set a minute ago, in a zone whose
    local time is far from midnight (UTC+12 before noon UTC, UTC-11 after), so the day never flips.
    """
    now = dt.datetime.now(dt.UTC)
    zone = ZoneInfo("Etc/GMT-12" if now.hour < 12 else "Etc/GMT+11")
    tutor = Tutor(tmp_path, stub.url)
    at = (now - dt.timedelta(minutes=1)).astimezone(zone).strftime("%H:%M")
    tutor("schedule", "add", "--channel", "C123", "--at", at, "--tz", zone.key, "--days", "daily")
    assert tutor("daily").returncode == 0
    (post_id,) = [r[0] for r in tutor.rows("select id from posts where kind = 'daily'")]
    server = start(tmp_path, stub.url, content=tmp_path / "content")
    slack = SlackRequests(server.url, SIGNING_SECRET, response_url=stub.response_url)
    yield tutor, server, slack, post_id
    server.stop()


def test_signed_click_to_tutor_serve_shows_on_the_leaderboard(served, stub):
    """A block_actions click on the daily post is recorded and appears in the JSON leaderboard."""
    tutor, _, slack, post_id = served
    sent = slack.post(slack.action("answer_b", f"{post_id}:B", user="U0CLICK001", channel="C123"))
    assert sent.status == 200
    (feedback,) = stub.wait_for("webhook/", 1)
    assert feedback.body["response_type"] == "ephemeral"
    board = json.loads(tutor("leaderboard", "--channel", "C123", "--json").stdout)
    assert [(r["user"], r["points"], r["answered"], r["correct"]) for r in board] == [
        ("U0CLICK001", 1, 1, 1)
    ]


def test_a_wrong_daily_click_learns_why_but_not_the_answer_before_the_reveal(served, stub):
    """One spoiler policy: a wrong click hears it is wrong and why, never the right letter, and
    gets a Report a problem button; the answer waits for the reveal."""
    _, _, slack, post_id = served
    sent = slack.post(slack.action("answer_c", f"{post_id}:C", user="U0WRONG002", channel="C123"))
    assert sent.status == 200
    (feedback,) = stub.wait_for("webhook/", 1)
    text = feedback.body["text"]
    assert text.startswith("Not quite.\nc) Option charlie: Charlie is wrong")
    assert "Bravo" not in feedback.text() and "Answer:" not in text and "b)" not in text
    assert "The answer and how the team answered come when it closes." in text
    assert "report_open" in feedback.text()


def test_hundred_concurrent_clicks_through_serve_give_hundred_answers(served, stub):
    """100 users click one post at once through the real click path: 100 rows, none doubled."""
    tutor, server, slack, post_id = served
    clicks = [
        slack.action(
            f"answer_{'abcd'[n % 4]}",
            f"{post_id}:{'ABCD'[n % 4]}",
            user=f"U0C{n:07d}",
            channel="C123",
        )
        for n in range(100)
    ]
    with ThreadPoolExecutor(32) as pool:
        statuses = list(pool.map(slack.post, clicks + clicks[:20]))  # 20 double clicks
    assert [s.status for s in statuses] == [200] * 120
    stub.wait_for("webhook/", 120, within=60)
    rows = tutor.rows("select choice, count(*) from answers where post_id = ? group by 1", post_id)
    assert dict(rows) == {"A": 25, "B": 25, "C": 25, "D": 25}
    assert server.process.poll() is None
