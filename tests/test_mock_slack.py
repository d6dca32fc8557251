"""Mock exams in Slack, handlers called directly: Block Kit within Slack's limits, the DM as the
mock's place whether it was asked for by DM or mention, and one message per mock."""

from __future__ import annotations

import datetime as dt
import json
import random
from pathlib import Path

import pytest
from slack_bolt import BoltContext, Say
from slack_sdk import WebClient
from slack_sdk.models.blocks import Block

from bot.catalog import load_catalog
from bot.mock import Missed, MockDone, MockShown, section_scores
from bot.mock_exams import MockExams
from bot.mock_replies import STALE, render_mock
from bot.slack import handlers, mock_blocks
from bot.slack.handlers import Services
from bot.slack.poster import DisplayNames
from bot.store import Store
from bot.tutor import Tutor
from tests.slack_stub import DM, STUDENT, TEAM, dm_event, mention_event

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def shipped():
    return load_catalog(ROOT)


@pytest.fixture
def exam(shipped, tmp_path) -> Tutor:
    return Tutor(shipped, Store(tmp_path / "tutor.db"), rng=random.Random(5))


@pytest.fixture
def services(exam, now) -> Services:
    names = DisplayNames(WebClient(token="xoxb-test", base_url="http://127.0.0.1:9/"))
    return Services(exam, lambda: now, names)


def valid(message) -> None:
    parsed = Block.parse_all(message.blocks)
    assert None not in parsed and 0 < len(parsed) <= 50
    for block in parsed:
        block.to_dict()
    assert message.text.strip()


def test_a_result_with_20_long_misses_fits_slacks_limits(shipped):
    """Every miss of a 60-question mock of the longest questions: messages within 50 blocks and
    well under Slack's ~12k characters each, every miss in one of them."""
    longest = sorted(shipped.questions.questions, key=lambda q: -len(q.question))[:60]
    missed = tuple(Missed(q, "B" if q.answer == "A" else "A", ()) for q in longest)
    scores = section_scores((q, False) for q in longest)
    done = MockDone(1, 60, 0, scores, dt.timedelta(hours=1), missed)
    messages = mock_blocks.result(done)
    assert len(messages) > 1
    for message in messages:
        valid(message)
        assert sum(len(json.dumps(b)) for b in message.blocks) < 13_000
    shown = " ".join(json.dumps(m.blocks) for m in messages)
    assert all(f"{i}. [" in shown for i in range(1, 61))


def test_a_question_shows_its_choices_on_buttons_that_never_name_the_key(exam, now):
    """One button per choice (post id and letter), the same shape for each; no verdict shown."""
    first = MockExams(exam).start(team=TEAM, user=STUDENT, channel=DM, size=5, timed=True, now=now)
    assert isinstance(first, MockShown)
    message = mock_blocks.shown(first)
    valid(message)
    elements = [e for b in message.blocks if b["type"] == "actions" for e in b["elements"]]
    letters = first.question.letters
    assert [e["value"] for e in elements] == [f"{first.post_id}:{x}" for x in letters]
    assert [e["action_id"] for e in elements] == [f"mock_answer_{x.lower()}" for x in letters]
    assert len({tuple(sorted(e)) for e in elements}) == 1  # no button stands out
    assert "Question 1 of 5 · 10 min left" in json.dumps(message.blocks, ensure_ascii=False)


def test_mock_in_a_dm_is_the_mocks_message_and_moves_with_it(stub, client, services, exam):
    """`mock 5` typed in the DM posts the question as the mock's message; a letter typed there
    posts the next one as a new message and the old one loses its buttons; a click on the old
    one is refused and records nothing."""
    context = BoltContext({"team_id": TEAM})
    say = Say(client, channel=DM)
    handlers.direct_message(dm_event("mock 5"), say, context, services, client)
    (first,) = stub.called("chat.postMessage")
    assert first.body["channel"] == STUDENT and "mock_answer_a" in json.dumps(first.body["blocks"])
    first_ts = stub.messages[-1]["ts"]
    handlers.direct_message(dm_event("a"), say, context, services, client)
    posts = stub.called("chat.postMessage")
    assert len(posts) == 2 and posts[-1].body["text"].startswith("Recorded a.")
    (moved,) = stub.called("chat.update")
    assert moved.body["ts"] == first_ts and "mock_answer" not in json.dumps(moved.body["blocks"])
    mock = MockExams(exam).store.open_mock(team=TEAM, user=STUDENT)
    assert mock is not None and mock.message_ts == stub.messages[-1]["ts"]
    value = next(
        e["value"]
        for b in posts[-1].body["blocks"]
        if b["type"] == "actions"
        for e in b["elements"]
    )
    refused = MockExams(exam).answer(
        post_id=int(value.split(":")[0]),
        user=STUDENT,
        team=TEAM,
        choice="A",
        now=services.clock(),
        shown_in=first_ts,
    )
    assert mock_blocks_lines(refused) == [STALE]


def test_mock_by_mention_goes_to_the_dm(stub, client, services):
    """@Study Tutor mock 5 in a channel: the question goes to the DM, the channel gets a pointer
    only the asker sees."""
    context = BoltContext({"team_id": TEAM})
    say = Say(client, channel="C0QUIZ0001")
    handlers.mention(mention_event("mock 5"), say, client, context, services)
    (posted,) = stub.called("chat.postMessage")
    assert posted.body["channel"] == STUDENT and "Question 1 of 5" in posted.body["text"]
    (pointer,) = stub.called("chat.postEphemeral")
    assert pointer.body["text"] == mock_blocks.IN_DM


def mock_blocks_lines(result) -> list[str]:
    return render_mock(result)
