"""`tutor serve` logs what matters: a start line for its mode, what the daily pass did; not the
scheduler's chatter every minute, nor bolt's notice about a token it was handed twice."""

from __future__ import annotations

import datetime as dt
import logging
import socket
import subprocess
import sys
from zoneinfo import ZoneInfo

from bot.slack.poster import SlackPoster
from bot.slack.scheduler import run_pass
from tests.conftest import write_content
from tests.daily_stub import make_daily
from tests.slack_stub import BOT_TOKEN, ROOT, SIGNING_SECRET, TEAM, slack_env, start


def test_the_log_has_a_start_line_and_the_post_but_no_chatter(tmp_path, stub):
    """A due schedule is posted by the first sweep; the log says HTTP mode and the post, and
    nothing about running jobs, an unused token or "Nothing due"."""
    content = write_content(tmp_path / "content")
    now = dt.datetime.now(dt.UTC)
    zone = ZoneInfo("Etc/GMT-12" if now.hour < 12 else "Etc/GMT+11")  # far from midnight
    at = (now - dt.timedelta(minutes=1)).astimezone(zone).strftime("%H:%M")
    env = slack_env(TUTOR_DB=str(tmp_path / "tutor.db"), TUTOR_CONTENT=str(content))
    schedule = ["--channel", "C0QUIET01", "--at", at, "--tz", zone.key, "--days", "daily"]
    added = subprocess.run(
        [sys.executable, "-m", "bot", "schedule", "add", *schedule, "--team", TEAM],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert added.returncode == 0, added.stderr
    server = start(tmp_path, stub.url, content=content, workers=1)
    try:
        posted = stub.wait_for("chat.postMessage")
        assert posted[0].body["channel"] == "C0QUIET01"
        stub.settle()
    finally:
        server.stop()
    log = server.logged()
    assert f"Study Tutor: HTTP mode on port {server.port}" in log
    assert "daily: C0QUIET01: posted" in log
    for chatter in ("Running job", "executed successfully", "As you gave", "Nothing due"):
        assert chatter not in log
    assert BOT_TOKEN not in log and SIGNING_SECRET not in log


def test_an_idle_pass_logs_only_at_debug(tmp_path, caplog, client):
    """A pass with nothing to do says "Nothing due." at debug level, not at info."""
    daily = make_daily(tmp_path)
    now = dt.datetime(2026, 12, 1, 8, 0, tzinfo=dt.UTC)
    with caplog.at_level(logging.DEBUG, logger="bot.slack.daily"):
        run_pass(daily, SlackPoster(client), lambda: now)
    said = [(r.levelno, r.getMessage()) for r in caplog.records if r.name == "bot.slack.daily"]
    assert said == [(logging.DEBUG, "daily: Nothing due.")]


def test_a_port_in_use_is_one_line_not_five_retries(tmp_path):
    """Another program on the port: exit 1 with one `Error:` line naming it, at once."""
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = slack_env(
            SLACK_BOT_TOKEN=BOT_TOKEN,
            SLACK_SIGNING_SECRET=SIGNING_SECRET,
            SLACK_API_URL="http://127.0.0.1:9/",
            TUTOR_DB=str(tmp_path / "t.db"),
        )
        result = subprocess.run(
            [sys.executable, "-m", "bot", "serve", "--port", str(port)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    assert result.returncode == 1
    assert f"Error: port {port} is already in use by another program" in result.stderr
    assert "Retrying" not in result.stderr + result.stdout
