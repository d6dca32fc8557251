"""Block Kit for mock exams: the question being answered, the offer to resume, the result.

A mock lives in one message of the learner's DM with the app, updated in place at each answer
(chat.update has no use limit, unlike an ephemeral message's response_url: 5 uses in 30 min).
Answer buttons carry the post id and the chosen letter, never the correct one.
"""

from __future__ import annotations

import re

from bot import mock_replies
from bot.mock import MockDone, MockOffer, MockResult, MockShown
from bot.slack.blocks import BUTTON_TEXT, Message, answer_value, choice_labels, lines
from bot.slack.text import clip, escape

MOCK_ANSWER = re.compile(r"^mock_answer_[a-e]$")  # value "<post id>:<letter>"
MOCK_RESUME = "mock_resume"  # value: the mock's id
MOCK_DISCARD = "mock_discard"
MAX_BLOCKS = 45  # Slack allows 50 a message
MAX_TEXT = 10_000  # Slack refuses messages whose blocks hold much more than ~12k characters
IN_DM = "Your mock exam is in your DM with me (Apps → Study Tutor → Messages)."
MOVED = "This mock exam goes on in a newer message below."


def shown(result: MockShown) -> Message:
    """The question waiting for an answer, with a button per choice."""
    said = mock_replies.render_mock(result)
    question = result.question
    heading = [*mock_replies.mock_heading(result)]
    blocks = [_context(line) for line in heading]
    blocks.append(_section(f"*{escape(mock_replies.progress(result))}*"))
    blocks += lines(mock_replies.mock_question_lines(question)).blocks
    buttons = [
        _button(label, f"mock_answer_{x.lower()}", answer_value(result.post_id, x))
        for label, x in zip(choice_labels(question), question.letters, strict=True)
    ]
    blocks.append({"type": "actions", "block_id": f"mock_{result.post_id}", "elements": buttons})
    return Message(lines(said).text, blocks)


def offer(result: MockOffer) -> Message:
    """An open mock: resume it or drop it."""
    message = lines(mock_replies.offer_lines(result))
    buttons = [
        _button(mock_replies.RESUME, MOCK_RESUME, str(result.mock_id)),
        _button(mock_replies.DISCARD, MOCK_DISCARD, str(result.mock_id)),
    ]
    buttons[0]["style"] = "primary"
    actions = {"type": "actions", "block_id": "mock_offer", "elements": buttons}
    return Message(message.text, [*message.blocks, actions])


def result(done: MockDone) -> list[Message]:
    """The result, then each missed question with buttons to read next; as many messages as
    Slack's limits need (the first replaces the question, the rest go in its thread)."""
    summary = lines(mock_replies.result_summary(done), bold_first=True)
    messages: list[Message] = []
    blocks, size = list(summary.blocks), len(summary.text)
    for number, missed in enumerate(done.missed, start=1):
        said = lines(mock_replies.missed_lines(missed, number)).blocks
        reads = [
            _button(f"Read: {entry.name}", f"show_entry_{i}", entry.id)
            for i, entry in enumerate(missed.entries[:2])
        ]
        if reads:
            said.append({"type": "actions", "block_id": f"read_{number}", "elements": reads})
        more = sum(len(b.get("text", {}).get("text", "")) for b in said)
        if blocks and (len(blocks) + len(said) > MAX_BLOCKS or size + more > MAX_TEXT):
            messages.append(Message(summary.text, blocks))
            blocks, size = [], 0
        blocks += said
        size += more
    messages.append(Message(summary.text, blocks))
    return messages


def render_mock(result: MockResult) -> Message:
    """One message for a mock result (a long result's first part: `result` has them all).

    `bot.slack.blocks.render` renders mock results as their lines; the Slack handlers send
    them through here instead, for their buttons (this module builds on `blocks`).
    """
    match result:
        case MockShown():
            return shown(result)
        case MockDone():
            return _first(result)
        case MockOffer():
            return offer(result)
    return lines(mock_replies.render_mock(result))


def _first(done: MockDone) -> Message:
    return result(done)[0]


def _section(mrkdwn: str) -> dict:
    return {"type": "section", "text": {"type": "mrkdwn", "text": mrkdwn, "verbatim": True}}


def _context(line: str) -> dict:
    text = {"type": "mrkdwn", "text": escape(line), "verbatim": True}
    return {"type": "context", "elements": [text]}


def _button(label: str, action_id: str, value: str) -> dict:
    text = {"type": "plain_text", "text": clip(label, BUTTON_TEXT)}
    return {"type": "button", "text": text, "action_id": action_id, "value": value}
