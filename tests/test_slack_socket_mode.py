"""Socket Mode: `tutor serve` with SLACK_APP_TOKEN connects to the stand-in and answers over it."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.parse

from tests.conftest import write_content
from tests.slack_stub import (
    BOT_TOKEN,
    CHANNEL,
    ROOT,
    SlackRequests,
    mention_event,
    slack_env,
)

APP_TOKEN = "xapp-1-A0TUTOR001-socket-secret"


def wait(predicate, within: float = 20.0) -> bool:
    deadline = time.monotonic() + within
    while not predicate() and time.monotonic() < deadline:
        time.sleep(0.05)
    return predicate()


def test_socket_mode_connects_and_answers(tmp_path, stub):
    """With SLACK_APP_TOKEN: apps.connections.open, then envelopes acked and answered."""
    env = slack_env(
        SLACK_BOT_TOKEN=BOT_TOKEN,
        SLACK_APP_TOKEN=APP_TOKEN,
        SLACK_API_URL=stub.url,
        TUTOR_DB=str(tmp_path / "tutor.db"),
        TUTOR_CONTENT=str(write_content(tmp_path / "content")),
    )
    log = tmp_path / "serve.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "bot", "serve"], cwd=ROOT, env=env, stdout=out, stderr=out
        )
    try:
        assert wait(lambda: stub.called("apps.connections.open")), log.read_text()
        (opened,) = stub.called("apps.connections.open")[:1]
        assert opened.headers["Authorization"] == f"Bearer {APP_TOKEN}"

        factory = SlackRequests("", "unused")
        command = dict(
            urllib.parse.parse_qsl(factory.slash("which service for no-code training")[0])
        )
        stub.envelopes.put(
            {
                "envelope_id": "env-1",
                "type": "slash_commands",
                "accepts_response_payload": True,
                "payload": command,
            }
        )
        event = json.loads(factory.event(mention_event("no code training"))[0])
        stub.envelopes.put(
            {
                "envelope_id": "env-2",
                "type": "events_api",
                "accepts_response_payload": False,
                "payload": event,
            }
        )

        assert wait(lambda: {a.get("envelope_id") for a in stub.acks} >= {"env-1", "env-2"}), (
            log.read_text()
        )
        (slash_ack,) = [a for a in stub.acks if a["envelope_id"] == "env-1"]
        assert slash_ack["payload"]["text"].startswith("AutoML")
        (posted,) = stub.wait_for("chat.postMessage", within=10)
        assert posted.body["channel"] == CHANNEL and posted.body["text"].startswith("AutoML")
        assert APP_TOKEN not in log.read_text() and BOT_TOKEN not in log.read_text()
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
