"""End to end: reports and ratings through a real `tutor serve` and signed requests.

A quiz's feedback carries "Report a problem"; its click opens the modal (views.open at the
stand-in); the signed view_submission is kept before the ack, thanks the reporter in the modal and
reaches the curators' channel. `tutor flags` shows it, and after three different people said the
answer key is wrong, `tutor daily` never posts that question again.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import urllib.parse
from pathlib import Path

import pytest

from tests.slack_stub import (
    BOT_TOKEN,
    CHANNEL,
    ROOT,
    SlackRequests,
    SlackStub,
    slack_env,
)

CURATORS = "C0CURATORS"
REPORTERS = ("U0REPORT01", "U0REPORT02", "U0REPORT03")


@pytest.fixture(scope="module")
def stub(module_stub):
    return module_stub


@pytest.fixture(scope="module")
def server_options():
    return {"env": {"TUTOR_CURATOR_CHANNEL": CURATORS}}


def tutor(server, stub, *args: str) -> subprocess.CompletedProcess:
    """The `tutor` command over the server's database and content, Slack at the stand-in."""
    env = slack_env(
        TUTOR_DB=str(server.db),
        TUTOR_CONTENT=str(Path(server.db).parent / "content"),
        SLACK_BOT_TOKEN=BOT_TOKEN,
        SLACK_API_URL=stub.url,
    )
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def report_button(slack: SlackRequests, stub: SlackStub, user: str) -> dict:
    """/tutor quiz, a click on the first choice, and the feedback's Report a problem button."""
    question = slack.post(slack.slash("quiz", user=user)).json()
    first = question["blocks"][-1]["elements"][0]
    slack.post(slack.action(first["action_id"], first["value"], user=user))
    (feedback,) = stub.wait_for("webhook/", 1)
    (button,) = [
        e
        for b in feedback.body["blocks"]
        if b["type"] == "actions"
        for e in b["elements"]
        if e["action_id"] == "report_open"
    ]
    return button


def test_three_reports_reach_tutor_flags_and_leave_the_daily_rotation(slack, stub, server):
    """Report a problem → modal → signed view_submission, three times: kept, thanked, posted to
    the curators, listed by `tutor flags`, and the question is never the daily choice again."""
    button = report_button(slack, stub, REPORTERS[0])
    item = button["value"].removeprefix("question:")
    thanks = []
    for n, user in enumerate(REPORTERS):
        stub.settle()
        stub.reset()
        opened = slack.post(slack.action("report_open", button["value"], user=user))
        assert opened.status == 200
        (call,) = stub.wait_for("views.open")
        view = call.body["view"]
        view = json.loads(view) if isinstance(view, str) else view
        assert call.body["trigger_id"] and view["private_metadata"] == button["value"]
        values = {
            "what": {"what": {"type": "radio_buttons", "selected_option": {"value": "wrong"}}},
            "comment": {
                "comment": {"type": "plain_text_input", "value": f"key is off <!here> {n}"}
            },
        }
        sent = slack.post(slack.view_submission(view, values, user=user))
        assert sent.status == 200
        answer = sent.json()
        assert answer["response_action"] == "update" and answer["view"]["type"] == "modal"
        thanks.append(json.dumps(answer["view"]))
        (posted,) = [c for c in stub.wait_for("chat.postMessage") if c.body["channel"] == CURATORS]
        assert f"question {item}" in posted.body["text"] and "<!here>" not in posted.text()
    assert all("Thanks!" in t for t in thanks)
    assert "out of the daily rotation" in thanks[2] and "out of the daily rotation" not in thanks[1]
    listed = tutor(server, stub, "flags")
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.startswith(f"question {item} ")
    assert "3 reports, out of the daily rotation" in listed.stdout and "key is off" in listed.stdout

    added = tutor(
        server,
        stub,
        "schedule",
        "add",
        "--channel",
        CHANNEL,
        "--at",
        "09:00",
        "--tz",
        "UTC",
        "--days",
        "daily",
    )
    assert added.returncode == 0, added.stderr
    for day in ("02", "03", "04", "05"):  # the mini bank has three questions: each would come up
        ran = tutor(server, stub, "daily", "--now", f"2026-12-{day}T09:00:00Z")
        assert ran.returncode == 0, ran.stdout + ran.stderr
    with sqlite3.connect(server.db) as conn:
        daily = [q for (q,) in conn.execute("select question_id from posts where kind = 'daily'")]
    assert len(daily) == 4 and item not in daily

    cleared = tutor(server, stub, "flags", "clear", item)
    assert cleared.returncode == 0 and "back in the daily rotation" in cleared.stdout


def test_a_thumbs_down_is_kept_and_thanked(slack, stub, server):
    """👎 under an answer: 200, a private thanks, and `tutor flags --json` counts it."""
    answer = slack.post(slack.slash("which service for no-code training", user="U0RATER001")).json()
    (rate,) = [
        e
        for b in answer["blocks"]
        if b.get("block_id") == "answer_feedback"
        for e in b["elements"]
        if e["action_id"] == "rate_down"
    ]
    assert slack.post(slack.action("rate_down", rate["value"], user="U0RATER001")).status == 200
    (thanked,) = stub.wait_for("webhook/", 1)
    assert thanked.body["text"].startswith("Thanks for the rating")
    rows = json.loads(tutor(server, stub, "flags", "--json").stdout)
    assert {"item": "automl", "down": 1} in [{"item": r["item"], "down": r["down"]} for r in rows]


@pytest.mark.parametrize(
    "broken",
    [{"view": None}, {"view": {"callback_id": "report_problem"}}, {"user": None}],
    ids=["no-view", "view-without-type", "no-user"],
)
def test_a_malformed_view_submission_is_refused(slack, stub, server, broken):
    """A signed view_submission the listeners cannot read: 400 with a reason, nothing kept."""
    before = server.rows("flags")
    body, kind = slack.view_submission({"type": "modal", "callback_id": "report_problem"}, {})
    payload = json.loads(urllib.parse.parse_qs(body)["payload"][0])
    payload.update(broken)
    sent = slack.post((urllib.parse.urlencode({"payload": json.dumps(payload)}), kind))
    assert sent.status == 400 and "view_submission" in sent.body
    assert server.rows("flags") == before and stub.settle() == []
