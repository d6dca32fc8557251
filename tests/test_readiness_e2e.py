"""End to end: readiness, the exam countdown and charts through a real `tutor serve`.

Signed requests shaped as Slack's; Slack's Web API (uploads included) is the recording stand-in.
The server runs on the real clock, so the exam date is counted from today's UTC date.
"""

from __future__ import annotations

import datetime as dt
import json

import pytest

from tests.slack_stub import (
    DM,
    SlackStub,
    dm_event,
    home_event,
)

PNG = b"\x89PNG\r\n\x1a\n"
USER = "U0READY001"


@pytest.fixture(scope="module")
def stub(module_stub):
    return module_stub


def images(blocks: list[dict]) -> list[dict]:
    return [b for b in blocks if b.get("type") == "image"]


def uploaded_pngs(stub: SlackStub) -> set[str]:
    """Files whose upload went all three steps and whose bytes are a PNG."""
    done = set()
    for call in stub.called("files.completeUploadExternal"):
        for f in json.loads(call.body["files"]):
            if stub.uploads.get(f["id"], b"").startswith(PNG):
                done.add(f["id"])
    return done


def test_stats_shows_readiness_countdown_and_an_uploaded_chart(slack, stub, server):
    """exam DATE, a quiz answered by a click, then /tutor stats: the reply (after the ack) has
    readiness, the countdown, and image blocks naming files uploaded to the Web API."""
    exam = (dt.datetime.now(dt.UTC).date() + dt.timedelta(days=30)).isoformat()
    saved = slack.post(slack.slash(f"exam {exam}", user=USER)).json()
    assert f"Saved: your exam date is {exam}." in saved["text"] and "days to go" in saved["text"]
    question = slack.post(slack.slash("quiz", user=USER)).json()
    button = question["blocks"][-1]["elements"][0]
    slack.post(slack.action(button["action_id"], button["value"], user=USER))
    stub.wait_for("webhook/", 1)
    stub.settle()
    stub.reset()
    ack = slack.post(slack.slash("stats", user=USER))
    assert ack.status == 200
    (reply,) = stub.wait_for("webhook/", 1)
    body = reply.body
    assert body["response_type"] == "ephemeral"
    text = json.dumps(body["blocks"])
    assert "Answered 1" in body["text"] and "Readiness overall:" in body["text"]
    assert f"Exam on {exam}" in body["text"] and "Today:" in body["text"]
    shown = images(body["blocks"])
    assert len(shown) == 2 and "not enough answers yet" in shown[0]["alt_text"]
    assert {b["slack_file"]["id"] for b in shown} <= uploaded_pngs(stub)
    assert "Google publishes no pass mark" in text


def test_app_home_shows_readiness_countdown_and_a_chart(slack, stub):
    """Opening App Home publishes readiness, the countdown and an image of an uploaded chart."""
    slack.post(slack.event(home_event("home", user=USER)))
    (call,) = stub.wait_for("views.publish")
    view = call.body["view"]
    text = json.dumps(view["blocks"])
    assert "Readiness" in text and "days to go" in text and "Today:" in text
    shown = images(view["blocks"])
    assert shown and shown[0]["alt_text"].startswith("Bar chart of readiness")
    known = uploaded_pngs(stub) | set(server_files(stub))
    assert all(b["slack_file"]["id"] in known for b in shown)


def server_files(stub: SlackStub) -> list[str]:
    """Every file whose bytes reached the stand-in in this module (earlier tests included)."""
    return [f for f, data in stub.uploads.items() if data.startswith(PNG)]


def test_ready_in_a_dm_and_a_bad_exam_date(slack, stub):
    """`ready` in a DM answers with the per-section chart; a bad date gets one clear line."""
    slack.post(slack.event(dm_event("ready", user=USER)))
    (said,) = stub.wait_for("chat.postMessage", 1)
    assert said.body["channel"] == DM
    assert "Readiness by exam section" in said.body["text"]
    assert images(said.body["blocks"])
    bad = slack.post(slack.slash("exam 2027-02-30", user=USER)).json()
    assert (
        bad["text"]
        == "2027-02-30 is not a real date. Write it as YYYY-MM-DD, e.g. exam 2027-03-01."
    )
