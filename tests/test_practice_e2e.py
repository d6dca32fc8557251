"""End to end: a practice question pasted in /tutor, a DM and a mention of a real `tutor serve`.

Slack's Web API is the recording stand-in (SLACK_API_URL); replies are awaited by polling it
with a deadline, never by timing.
"""

from __future__ import annotations

import pytest

from tests.slack_stub import (
    CHANNEL,
    DM,
    dm_event,
    mention_event,
)

PASTED = (
    "Our analysts have labelled photos but nobody on the team writes code. What is the "
    "fastest way to train a model?\n"
    "A. AutoML on Vertex AI\n"
    "B. Vertex AI custom training with our own TensorFlow code\n"
    "C. Reduce the batch size &lt; 32 &amp; retry <!channel>"
)


@pytest.fixture(scope="module")
def stub(module_stub):
    return module_stub


def test_slash_practice_question_is_answered_in_the_ack(slack, stub):
    """/tutor with a pasted question and choices: the fitting choice, why, and the others."""
    sent = slack.post(slack.slash(PASTED))
    assert sent.status == 200
    text = sent.json()["text"]
    assert text.startswith('I\'d pick A: "AutoML on Vertex AI"')
    assert "Not B:" in text and "Not C:" in text
    assert "<!channel>" not in text  # Slack's markup in a choice never pings anyone
    assert "&lt; 32 &amp; retry" in text  # the choice is echoed escaped
    assert stub.settle() == []


def test_dm_practice_question_is_answered_in_the_dm(slack, stub):
    """A practice question pasted in a DM gets one reply there, with the pick."""
    assert slack.post(slack.event(dm_event(PASTED))).status == 200
    (posted,) = stub.wait_for("chat.postMessage")
    assert posted.body["channel"] == DM and posted.body["text"].startswith("I'd pick A")


def test_mention_practice_question_is_answered_in_its_thread(slack, stub):
    """A practice question after a mention gets the pick in the mention's thread."""
    assert slack.post(slack.event(mention_event(PASTED))).status == 200
    (posted,) = stub.wait_for("chat.postMessage")
    assert posted.body["channel"] == CHANNEL and posted.body["thread_ts"] == "1773470001.000300"
    assert posted.body["text"].startswith("I'd pick A")
    assert "<!channel>" not in str(posted.body)
