"""Starting `tutor serve` when Slack is away or says no, and Web API failures after the ack.

A container that restarts in a loop helps nobody: with Slack unreachable the server starts,
answers /healthz (saying Slack is unreachable), logs one clear line and keeps trying. A token
Slack rejects is a setting to fix: one line naming the variable, exit 1.
"""

from __future__ import annotations

import subprocess
import sys
import time

from tests.conftest import write_content
from tests.slack_stub import (
    APP_ID,
    BOT_TOKEN,
    ROOT,
    SIGNING_SECRET,
    SlackRequests,
    free_port,
    slack_env,
    start,
)


def eventually(predicate, within: float = 60.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return predicate()


def test_serve_starts_and_answers_healthz_while_slack_is_unreachable(tmp_path):
    """No Slack at start: /healthz answers 200 saying so, one warning line, no traceback."""
    server = start(tmp_path, None, content=write_content(tmp_path / "content"), workers=1)
    try:
        health = server.health()
        assert health["status"] == "ok" and health["slack"].startswith("unreachable")
        log = server.logged()
        assert "cannot be reached" in log and "retrying" in log
        assert "Traceback" not in log and "Worker failed to boot" not in log
    finally:
        server.stop()


def test_serve_notices_when_slack_comes_back(tmp_path, stub):
    """Slack answering 500 at start, then fine: the health check turns to reachable by itself."""
    stub.fail("auth.test", status=500, times=2)  # the master's check and the worker's first
    server = start(tmp_path, stub.url, content=write_content(tmp_path / "content"), workers=1)
    try:
        assert server.health()["slack"].startswith("unreachable")
        assert eventually(lambda: (server.health() or {}).get("slack") == "reachable")
        assert "Traceback" not in server.logged()
    finally:
        server.stop()


def _serve(tmp_path, **settings: str) -> subprocess.CompletedProcess:
    env = slack_env(TUTOR_DB=str(tmp_path / "t.db"), **settings)
    return subprocess.run(
        [sys.executable, "-m", "bot", "serve", "--port", str(free_port())],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_a_rejected_bot_token_stops_serve_with_one_line(tmp_path, stub):
    """auth.test says invalid_auth: exit 1, one line naming SLACK_BOT_TOKEN, no traceback."""
    stub.fail("auth.test", error="invalid_auth", times=5)
    result = _serve(
        tmp_path,
        SLACK_BOT_TOKEN=BOT_TOKEN,
        SLACK_SIGNING_SECRET=SIGNING_SECRET,
        SLACK_API_URL=stub.url,
    )
    assert result.returncode == 1
    assert result.stderr.startswith("Error: Slack rejected SLACK_BOT_TOKEN (invalid_auth)")
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert BOT_TOKEN not in result.stderr + result.stdout


def test_a_rejected_app_token_names_slack_app_token(tmp_path, stub):
    """Socket Mode with an app token Slack rejects: exit 1 naming SLACK_APP_TOKEN."""
    stub.fail("apps.connections.open", error="invalid_auth", times=5)
    app_token = f"xapp-1-{APP_ID}-rejected"
    result = _serve(
        tmp_path,
        SLACK_BOT_TOKEN=BOT_TOKEN,
        SLACK_APP_TOKEN=app_token,
        SLACK_API_URL=stub.url,
        TUTOR_CONTENT=str(write_content(tmp_path / "content")),
    )
    assert result.returncode == 1
    assert "Error: Slack rejected SLACK_APP_TOKEN (invalid_auth)" in result.stderr
    assert "Traceback" not in result.stderr and app_token not in result.stderr + result.stdout


def test_a_failed_response_url_post_is_logged_with_its_click(tmp_path, stub):
    """Feedback that response_url refuses (500) is logged with the button it answered."""
    server = start(tmp_path, stub.url, content=write_content(tmp_path / "content"), workers=1)
    try:
        slack = SlackRequests(server.url, SIGNING_SECRET, response_url=stub.response_url)
        reply = slack.post(slack.slash("quiz")).json()
        value = reply["blocks"][-1]["elements"][0]["value"]
        stub.fail("webhook/", status=500)
        assert slack.post(slack.action("answer_a", value)).status == 200
        assert eventually(lambda: "was not delivered" in server.logged())
        line = next(x for x in server.logged().splitlines() if "was not delivered" in x)
        assert value in line and "500" in line
        assert server.rows("answers") == 1  # saved before the ack, whatever became of feedback
    finally:
        server.stop()
