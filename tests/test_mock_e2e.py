"""End to end: `/tutor mock 5` taken to the end by button clicks, through a real `tutor serve`.

Signed requests shaped as Slack's; Slack's Web API is the recording stand-in. The mock lives in
the DM with the app (chat.postMessage to the user), one message updated per click (chat.update).
Waits poll the stand-in with a deadline, never a sleep.
"""

from __future__ import annotations

import json
import sqlite3

import pytest

from bot import mock_replies
from bot.slack.mock_blocks import IN_DM
from tests.slack_stub import (
    DM,
    STUDENT,
)

SECTIONS = ("1.1", "2.1", "3.2", "4.1", "5.1", "6.1")


@pytest.fixture(scope="module")
def stub(module_stub):
    return module_stub


@pytest.fixture(scope="module")
def server_options():
    return {"workers": 2, "quiz": quiz()}


def quiz(sections=SECTIONS) -> str:
    """One question per exam section; question i's answer is B, its text names i."""
    items = []
    for i, section in enumerate(sections):
        items.append(
            f"""\
  - id: q-mock-{i}
    section: "{section}"
    topic: Training methods
    difficulty: easy
    question: Mock question number {i}. Which choice is the answer?
    choices:
      A: Wrong choice {i}
      B: Right choice {i}
      C: Another wrong choice {i}
    answer: B
    explanations:
      A: Not this one, {i}.
      B: This one, {i}.
      C: Not this either, {i}.
    entries: [automl]
    source: https://cloud.google.com/vertex-ai/docs/beginner/beginners-guide
"""
        )
    return "questions:\n" + "".join(items)


def buttons(blocks: list[dict]) -> list[dict]:
    return [e for b in blocks if b["type"] == "actions" for e in b["elements"]]


def boards(server) -> dict:
    with sqlite3.connect(server.db) as conn:
        return {
            t: conn.execute(f"select * from {t} order by 1, 2, 3, 4").fetchall()
            for t in ("board_tallies", "channel_tallies")
        }


def test_slash_mock_5_is_taken_to_the_end_by_clicks(slack, stub, server):
    """/tutor mock 5: questions in the DM, each click updates the message, no feedback until the
    result; a stale click is refused; boards, teams and their replies are the same after."""
    quizzed = slack.post(slack.slash("quiz", user="U0OTHER001")).json()
    choice = buttons(quizzed["blocks"])[0]
    slack.post(slack.action(choice["action_id"], choice["value"], user="U0OTHER001"))
    stub.wait_for("webhook/", 1)
    before, board_before = boards(server), slack.post(slack.slash("leaderboard everyone")).json()

    sent = slack.post(slack.slash("mock 5"))
    assert sent.status == 200 and sent.json()["text"] == IN_DM
    (posted,) = stub.wait_for("chat.postMessage", 1)
    assert posted.body["channel"] == STUDENT  # the DM with the app
    ts = next(m["ts"] for m in stub.messages if m["channel"] == STUDENT)
    message, picks, stale = posted.body, [], None
    for step in range(5):
        text = json.dumps(message["blocks"])
        assert f"Question {step + 1} of 5" in text and "Correct" not in text
        assert "Not quite" not in text and "This one" not in text  # no explanation shown
        choices = buttons(message["blocks"])
        assert [c["action_id"] for c in choices] == [
            "mock_answer_a",
            "mock_answer_b",
            "mock_answer_c",
        ]
        number = text.split("Mock question number ")[1][0]
        letter = "b" if step % 2 == 0 else "a"  # right, wrong, right, wrong, right
        picks.append((number, letter))
        value = next(c["value"] for c in choices if c["action_id"] == f"mock_answer_{letter}")
        stale = stale or value
        click = slack.action(
            f"mock_answer_{letter}", value, channel=DM, message_ts=ts, ephemeral=False
        )
        assert slack.post(click).status == 200
        updates = stub.wait_for("chat.update", step + 1)
        assert len(updates) == step + 1 and updates[-1].body["ts"] == ts
        message = updates[-1].body

    assert message["text"].startswith("Mock exam finished: 3/5 (60%).")
    text = json.dumps(message["blocks"])
    assert "Time used:" in text and "By exam section:" in text
    for number, letter in picks:
        if letter == "a":
            assert f"Mock question number {number}" in text and f"Not this one, {number}" in text
    reads = [b for b in buttons(message["blocks"]) if b["action_id"].startswith("show_entry_")]
    assert reads and all(b["value"] == "automl" for b in reads)

    again = slack.action("mock_answer_b", stale, channel=DM, message_ts=ts, ephemeral=False)
    hooks = len(stub.called("webhook/"))
    assert slack.post(again).status == 200
    refused = stub.wait_for("webhook/", hooks + 1)[-1]
    assert refused.body["text"] == mock_replies.OVER
    assert len(stub.called("chat.update")) == 5

    assert boards(server) == before
    assert slack.post(slack.slash("leaderboard everyone")).json() == board_before
    with sqlite3.connect(server.db) as conn:
        rows = conn.execute(
            "select count(*), sum(a.correct) from answers a join posts p on p.id = a.post_id "
            "where p.kind = 'mock' and a.user = ?",
            [STUDENT],
        ).fetchone()
    assert rows == (5, 3)


def test_mock_again_offers_resume_and_discard_buttons(slack, stub, server):
    """An open mock: /tutor mock offers Resume and Discard; Resume moves it to a new DM message,
    the old one loses its buttons and its clicks are refused; Discard ends it."""
    user = "U0RESUMER1"
    slack.post(slack.slash("mock 5", user=user))
    (first,) = stub.wait_for("chat.postMessage", 1)
    first_ts = next(m["ts"] for m in stub.messages if m["channel"] == user)
    offer = slack.post(slack.slash("mock", user=user)).json()
    assert "in progress: 0 of 5 answered" in offer["text"]
    resume, discard = buttons(offer["blocks"])
    assert (resume["action_id"], discard["action_id"]) == ("mock_resume", "mock_discard")

    slack.post(slack.action("mock_resume", resume["value"], user=user))
    posts = stub.wait_for("chat.postMessage", 2)
    assert posts[-1].body["channel"] == user and "Resuming" in posts[-1].body["text"]
    (moved,) = stub.wait_for("chat.update", 1)
    assert moved.body["ts"] == first_ts and not buttons(moved.body["blocks"])
    old = buttons(first.body["blocks"])[0]
    slack.post(
        slack.action(
            old["action_id"],
            old["value"],
            user=user,
            channel=DM,
            message_ts=first_ts,
            ephemeral=False,
        )
    )
    replies_seen = stub.wait_for("webhook/", 2)
    assert any(r.body["text"] == mock_replies.STALE for r in replies_seen)
    assert len(stub.called("chat.update")) == 1
    with sqlite3.connect(server.db) as conn:
        assert conn.execute("select count(*) from answers where user = ?", [user]).fetchone() == (
            0,
        )

    offer = slack.post(slack.slash("mock 5", user=user)).json()
    discard = buttons(offer["blocks"])[1]
    slack.post(slack.action("mock_discard", discard["value"], user=user))
    said = stub.wait_for("webhook/", 3)
    assert said[-1].body["text"].startswith("Discarded your mock exam (0 of 5 answered).")
    assert said[-1].body["replace_original"] is True
    assert slack.post(slack.slash("mock resume", user=user)).json()["text"] == mock_replies.NO_MOCK
