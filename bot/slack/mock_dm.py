"""Where a mock exam is shown in Slack: one message in the learner's DM with the app.

Its question is updated in place after each click (chat.update), so twenty clicks need no
response_url (an ephemeral message's allows 5 uses in 30 minutes). A question shown again in a
new message (resumed, or asked for from elsewhere) makes that message the mock's: the one it was
on before loses its buttons, and clicks on it are refused.
"""

from __future__ import annotations

from slack_sdk import WebClient

from bot.mock import MockDone, MockShown
from bot.mock_exams import MockExams
from bot.slack.blocks import lines
from bot.slack.mock_blocks import MOVED, result, shown
from bot.tutor import Tutor


def goes_to_dm(found: object) -> bool:
    """A mock's question or result is shown in the DM with the app, wherever it was asked for."""
    return isinstance(found, MockShown | MockDone)


def deliver(client: WebClient, tutor: Tutor, found: object, *, user: str) -> None:
    """Post a mock's question (or its result) to `user`'s DM with the app."""
    if isinstance(found, MockDone):
        post_result(client, found, channel=user)
    if not isinstance(found, MockShown):
        return
    mocks = MockExams(tutor)
    before = mocks.store.mock(found.mock_id)
    sent = client.chat_postMessage(channel=user, **shown(found).as_kwargs())
    mocks.shown_at(found.mock_id, channel=sent["channel"], ts=sent["ts"])
    if before and before.message_channel and before.message_ts:
        old = lines([MOVED]).as_kwargs()
        client.chat_update(channel=before.message_channel, ts=before.message_ts, **old)


def post_result(client: WebClient, done: MockDone, *, channel: str, ts: str = "") -> None:
    """The result in place of the question (or as a new message); a long one goes on in its
    thread."""
    first, *rest = result(done)
    if ts:
        client.chat_update(channel=channel, ts=ts, **first.as_kwargs())
    else:
        sent = client.chat_postMessage(channel=channel, **first.as_kwargs())
        channel, ts = sent["channel"], sent["ts"]
    for part in rest:
        client.chat_postMessage(channel=channel, thread_ts=ts, **part.as_kwargs())
