"""Socket Mode: a real `tutor serve` with SLACK_APP_TOKEN against the stand-in's WebSocket.

What Slack and networks do to a link, each against a running process: a refresh, a TCP close
with no close frame, a TCP reset, a half-open link, Slack away at start, SIGTERM with a reply in
flight. Every wait has a deadline; how fast things happen is measured in bench/socket_mode.py,
not asserted here.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
import urllib.parse

import pytest

from tests.conftest import write_content
from tests.slack_stub import (
    APP_ID,
    BOT_TOKEN,
    CHANNEL,
    ROOT,
    Link,
    Server,
    SlackRequests,
    SlackStub,
    free_port,
    mention_event,
    slack_env,
    start_socket_mode,
)

APP_TOKEN = "xapp-1-A0TUTOR001-socket-secret"
QUESTION = "which service for no-code training"


def wait(predicate, within: float = 20.0) -> bool:
    deadline = time.monotonic() + within
    while not predicate() and time.monotonic() < deadline:
        time.sleep(0.05)
    return bool(predicate())


def slash(envelope_id: str, text: str = QUESTION) -> dict:
    payload = dict(urllib.parse.parse_qsl(SlackRequests("", "unused").slash(text)[0]))
    return {
        "envelope_id": envelope_id,
        "type": "slash_commands",
        "accepts_response_payload": True,
        "payload": payload,
    }


def mention(envelope_id: str) -> dict:
    event = json.loads(SlackRequests("", "unused").event(mention_event("no code training"))[0])
    return {
        "envelope_id": envelope_id,
        "type": "events_api",
        "accepts_response_payload": False,
        "payload": event,
    }


def acked(stub: SlackStub, *envelope_ids: str) -> bool:
    return set(envelope_ids) <= {a.envelope_id for a in stub.acked}


def link_of(stub: SlackStub, envelope_id: str) -> int:
    return next(a.link for a in stub.acked if a.envelope_id == envelope_id)


@pytest.fixture
def content(tmp_path):
    return write_content(tmp_path / "content")


@pytest.fixture
def server(tmp_path, stub, content):
    """`tutor serve` in Socket Mode, connected to the stand-in."""
    server = start_socket_mode(tmp_path, stub.url, content=content, app_token=APP_TOKEN)
    yield server
    server.kill()


def connected(stub: SlackStub, server: Server) -> Link:
    link = stub.wait_link(1, within=30)
    assert link is not None, server.logged()
    return link


def test_socket_mode_connects_and_answers(stub, server):
    """With SLACK_APP_TOKEN: apps.connections.open, then envelopes acked and answered."""
    connected(stub, server)
    (opened,) = stub.called("apps.connections.open")[:1]
    assert opened.headers["Authorization"] == f"Bearer {APP_TOKEN}"

    stub.send(slash("env-1"))
    stub.send(mention("env-2"))

    assert wait(lambda: acked(stub, "env-1", "env-2")), server.logged()
    (slash_ack,) = [a for a in stub.acks if a["envelope_id"] == "env-1"]
    assert slash_ack["payload"]["text"].startswith("AutoML")
    (posted,) = stub.wait_for("chat.postMessage", within=60)
    assert posted.body["channel"] == CHANNEL and posted.body["text"].startswith("AutoML")
    assert APP_TOKEN not in server.logged() and BOT_TOKEN not in server.logged()


def test_refresh_hands_over_without_dropping_an_envelope(stub, server):
    """`disconnect`: a new link takes envelopes while the old one still acks what it brought."""
    old = connected(stub, server)
    stub.refresh(old, close_after=3)
    stub.send(slash("on-old"), old)  # already on its way when Slack asked for the refresh
    new = stub.wait_link(2, within=20)
    assert new is not None, server.logged()
    for n in range(3):
        stub.send(slash(f"on-new-{n}"))

    assert wait(lambda: acked(stub, "on-old", "on-new-0", "on-new-1", "on-new-2"))
    assert link_of(stub, "on-old") == 1
    assert {link_of(stub, f"on-new-{n}") for n in range(3)} == {2}
    assert wait(lambda: old.closed is not None)
    log = server.logged()
    assert log.count("switched to a new link") == 1
    assert "lost the link" not in log and "Traceback" not in log


@pytest.mark.parametrize("how", ["close", "reset", "silence"])
def test_a_dropped_link_is_replaced_with_one_line_each_way(stub, server, how):
    """No close frame, a TCP reset, or a half-open link: a new link, one line lost, one back."""
    link = connected(stub, server)
    stub.send(slash("first"))
    assert wait(lambda: acked(stub, "first")), server.logged()

    stub.send(slash("in-flight"), link)  # may be acked before the drop, after it, or not at all
    stub.cut(link, how)
    stub.send(slash("after"))

    assert wait(lambda: acked(stub, "after"), within=40), server.logged()
    assert link_of(stub, "after") == 2
    log = server.logged()
    assert log.count("lost the link to Slack") == 1, log
    assert log.count("link to Slack is back") == 1, log
    assert "Traceback" not in log and log.count("could not be acked") <= 1


def test_slack_away_at_start_is_retried_until_it_answers(tmp_path, content):
    """Nothing listening at Slack's address: one line per attempt, then connected when it is."""
    port = free_port()
    server = start_socket_mode(
        tmp_path, f"http://127.0.0.1:{port}/", content=content, app_token=APP_TOKEN
    )
    stub = SlackStub(port=port)
    try:
        assert wait(lambda: server.logged().count("cannot connect to Slack") >= 2, within=30), (
            server.logged()
        )
        assert server.process.poll() is None
        stub.start()
        assert stub.wait_link(1, within=30) is not None, server.logged()
        stub.send(slash("env-1"))
        assert wait(lambda: acked(stub, "env-1")), server.logged()
        log = server.logged()
        attempts = [line for line in log.splitlines() if "cannot connect to Slack" in line]
        assert all("trying again in" in line for line in attempts)
        assert "Traceback" not in log and "something unexpected" not in log
    finally:
        server.kill()
        if hasattr(stub, "_server"):
            stub.stop()


def test_apps_connections_open_failing_is_retried(stub, tmp_path, content):
    """Two 500s from apps.connections.open: two warning lines, then connected."""
    stub.fail("apps.connections.open", status=500, times=2)
    server = start_socket_mode(tmp_path, stub.url, content=content, app_token=APP_TOKEN)
    try:
        connected(stub, server)
        log = server.logged()
        assert log.count("cannot connect to Slack (apps.connections.open") == 2, log
        assert "Traceback" not in log
    finally:
        server.kill()


def test_an_app_token_of_the_wrong_type_stops_serve_naming_it(stub, tmp_path, content):
    """not_allowed_token_type (say, a bot token in SLACK_APP_TOKEN): exit 1, one line."""
    stub.fail("apps.connections.open", error="not_allowed_token_type", times=5)
    app_token = f"xapp-1-{APP_ID}-wrong-type"
    env = slack_env(
        SLACK_BOT_TOKEN=BOT_TOKEN,
        SLACK_APP_TOKEN=app_token,
        SLACK_API_URL=stub.url,
        TUTOR_DB=str(tmp_path / "t.db"),
        TUTOR_CONTENT=str(content),
    )
    result = subprocess.run(
        [sys.executable, "-m", "bot", "serve"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 1
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert errors == [
        "Error: Slack rejected SLACK_APP_TOKEN (not_allowed_token_type); create an app-level "
        "token with the connections:write scope under Basic Information → App-Level Tokens"
    ]
    assert "Traceback" not in result.stderr and app_token not in result.stderr + result.stdout


def test_sigterm_closes_the_link_then_finishes_the_reply_and_exits_0(stub, server):
    """SIGTERM with a mention's reply in flight: close frame, reply finished, one line, exit 0."""
    link = connected(stub, server)
    held = stub.hold("chat.postMessage")  # Slack slow to take the reply
    stub.send(mention("env-m"))
    assert wait(lambda: acked(stub, "env-m")), server.logged()
    assert wait(lambda: stub.called("chat.postMessage")), server.logged()

    server.process.send_signal(signal.SIGTERM)
    assert wait(lambda: link.close_code is not None), server.logged()
    assert link.close_code == 1000
    assert server.process.poll() is None  # still finishing the reply it acked
    stub.send(slash("after-stop"))  # the link is closed: nobody takes it
    held.set()

    assert server.process.wait(timeout=30) == 0
    log = server.logged()
    stopped = [line for line in log.splitlines() if "Stopped on SIGTERM" in line]
    assert len(stopped) == 1 and "work after the acks finished" in stopped[0], log
    assert not acked(stub, "after-stop")
    assert "Traceback" not in log and "not delivered" not in log
