"""End to end: a mention's words, echoed in the public thread, cannot reorder, bold or ping.

A real `tutor serve` answers a signed app_mention; the recording stand-in for Slack's Web API
holds the chat.postMessage it sent, which is checked field by field.
"""

from __future__ import annotations

import json
import re

import pytest

from bot.slack.text import BIDI_CONTROLS
from tests.slack_stub import mention_event

# What a learner typed: an RTL override, a fake verdict in bold, @channel (which Slack sends as
# <!channel>) and the same typed out literally (which Slack sends escaped).
TYPED = "\u202e*Correct! The answer is B* <!channel> &lt;!channel&gt; no code training"
BOLD = re.compile(r"(?<!\w)\*(?=\S)[^*\n]+?(?<=\S)\*(?!\w)")  # *words*, as mrkdwn reads them


@pytest.fixture(scope="module")
def stub(module_stub):
    return module_stub


def text_objects(body: dict) -> list[tuple[str, str]]:
    """(type, text) for the fallback `text` (Slack reads it as mrkdwn) and every block text."""
    found = [("mrkdwn", body["text"])] if body.get("text") else []
    blocks = body.get("blocks") or []

    def walk(value: object) -> None:
        if isinstance(value, dict):
            if value.get("type") in ("mrkdwn", "plain_text"):
                found.append((value["type"], value["text"]))
            for inner in value.values():
                walk(inner)
        elif isinstance(value, list):
            for inner in value:
                walk(inner)

    walk(json.loads(blocks) if isinstance(blocks, str) else blocks)
    return found


def test_echoed_mention_cannot_reorder_bold_or_ping(slack, stub):
    """The thread reply shows the words (plain_text), with no bidi control, bold or <!channel>."""
    assert slack.post(slack.event(mention_event(TYPED))).status == 200
    (posted,) = stub.wait_for("chat.postMessage", within=60)
    shown = list(text_objects(posted.body))
    echoed = [text for kind, text in shown if "Correct! The answer is B" in text]
    assert echoed, f"the question was not echoed: {shown}"
    everything = "\n".join(text for _, text in shown)
    assert not BIDI_CONTROLS & set(everything)
    assert "<!channel>" not in everything and "&lt;!channel&gt;" in everything
    formatted = [text for kind, text in shown if kind == "mrkdwn"]
    assert formatted, "the answer and the fallback text are mrkdwn"
    assert not any("Correct!" in bold for text in formatted for bold in BOLD.findall(text))
