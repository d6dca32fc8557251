"""Quiz feedback that compounds: short, with "More" for the rest, "Read next" buttons that open
the entry, choice text on the buttons, and an answered private question without buttons."""

from __future__ import annotations

import json

from slack_bolt import BoltContext
from slack_sdk import WebClient
from slack_sdk.models.blocks import Block
from slack_sdk.webhook import WebhookResponse

from bot import replies
from bot.chat import respond as chat
from bot.quiz import Question
from bot.slack import blocks, handlers
from bot.slack.handlers import Services
from bot.slack.poster import DisplayNames
from bot.tutor import Graded
from tests.slack_stub import CHANNEL, STUDENT, TEAM


class Recorder:
    def __init__(self) -> None:
        self.calls: list[dict] = []

    def __call__(self, text: str = "", **kwargs: object) -> WebhookResponse:
        self.calls.append({"text": text, **kwargs})
        return WebhookResponse(url="", status_code=200, body="ok", headers={})


def services_of(tutor, now) -> Services:
    """Listeners' shared services; users.info goes to a loopback port nobody listens on."""
    names = DisplayNames(WebClient(token="xoxb-test", base_url="http://127.0.0.1:9/"))
    return Services(tutor, lambda: now, names)


def valid(message: blocks.Message) -> list[dict]:
    parsed = Block.parse_all(message.blocks)
    assert None not in parsed
    return [block.to_dict() for block in parsed]


def buttons(message: blocks.Message) -> list[dict]:
    return [e for b in message.blocks if b["type"] == "actions" for e in b["elements"]]


def test_buttons_carry_the_choice_text_when_every_choice_fits(catalog):
    """q-no-code's choices fit 75 characters: "b) AutoML on Vertex AI"; values stay post:letter."""
    question = catalog.questions.get("q-no-code")
    shown = buttons(blocks.question(3, question))
    assert [b["text"]["text"] for b in shown] == [
        "a) Vertex AI custom training",
        "b) AutoML on Vertex AI",
        "c) Reduce the batch size",
    ]
    assert [b["value"] for b in shown] == ["3:A", "3:B", "3:C"]


def test_buttons_fall_back_to_letters_when_a_choice_is_too_long(catalog):
    """One choice over Slack's 75-character label: every button shows its letter only."""
    question = catalog.questions.get("q-no-code")
    long = Question(**{**vars(question), "choices": (*question.choices[:2], ("C", "x" * 80))})
    assert [b["text"]["text"] for b in buttons(blocks.question(3, long))] == ["A", "B", "C"]


def test_feedback_is_short_with_read_next_and_more_buttons(catalog, tutor):
    """Wrong: verdict, why the pick is wrong, why the answer is right; not the other choices nor
    the source. Buttons open the entries to read and ask for "More"."""
    question = catalog.questions.get("q-own-code")  # four choices
    entries = (tutor.entry("vertex-custom-training"),)
    message = blocks.feedback(Graded(question, "B", False, "recorded", entries), post_id=9)
    valid(message)
    text = json.dumps(message.blocks)
    assert "Not quite." in text and question.explanations["B"] in text
    assert question.explanations["A"] in text  # the answer, and why
    assert question.explanations["C"] not in text and question.explanations["D"] not in text
    assert "Source:" not in text
    read, more, report = buttons(message)
    assert (read["action_id"], read["value"]) == ("show_entry_0", "vertex-custom-training")
    assert read["text"]["text"] == "Read: Vertex AI custom training"
    assert (more["action_id"], more["value"]) == (blocks.QUIZ_MORE, "9")
    assert (report["action_id"], report["value"]) == (blocks.REPORT, "question:q-own-code")


def test_already_answered_is_one_short_line(catalog):
    """A second click says which answer counts, and nothing else."""
    question = catalog.questions.get("q-own-code")
    message = blocks.feedback(Graded(question, "C", False, "already"))
    assert message.text == "You already answered this one (c); the first answer counts."
    assert len(message.blocks) == 1 and not buttons(message)


def test_more_in_the_chat_gives_the_other_choices_and_the_source(tutor, now):
    """quiz, a letter, then `more`: the choices not yet explained and the source."""
    asked = chat(tutor, "quiz", user="ana", now=now)
    pending = tutor.pending(team="local", user="ana")
    question = pending.question
    wrong = next(x for x in question.letters if x != question.answer)
    said = chat(tutor, wrong.lower(), user="ana", now=now)
    assert said[0] == "Not quite." and said[-1] == replies.MORE_HINT and asked
    others = [x for x in question.letters if x not in (wrong, question.answer)]
    assert not any(question.explanations[x] in "\n".join(said) for x in others)
    more = chat(tutor, "more", user="ana", now=now)
    assert more[-1] == f"Source: {question.source}"
    assert [line[:3] for line in more[:-1]] == [f"{x.lower()}) " for x in others]


def test_more_before_any_answer_says_how_to_get_one(tutor, now):
    assert chat(tutor, "more", user="ana", now=now) == [replies.NOTHING_MORE]


def test_more_button_shows_the_rest_only_to_someone_who_answered(tutor, now):
    """A "More" click for a question the clicker has not answered reveals nothing."""
    services = services_of(tutor, now)
    context = BoltContext({"team_id": TEAM})
    asked = tutor.quiz(team=TEAM, user=STUDENT, now=now)
    said = Recorder()
    handlers.quiz_more(
        {"value": str(asked.post.id)}, {"user": {"id": STUDENT}}, context, said, services
    )
    assert said.calls[-1]["text"] == replies.NOTHING_MORE
    tutor.answer(
        post_id=asked.post.id, user=STUDENT, choice=asked.question.answer, now=now, team=TEAM
    )
    handlers.quiz_more(
        {"value": str(asked.post.id)}, {"user": {"id": "U0OTHER"}}, context, said, services
    )
    assert said.calls[-1]["text"] == replies.NOTHING_MORE
    handlers.quiz_more(
        {"value": str(asked.post.id)}, {"user": {"id": STUDENT}}, context, said, services
    )
    assert said.calls[-1]["text"].endswith(f"Source: {asked.question.source}")
    for forged in ("²", "-1", "9" * 30, ""):
        handlers.quiz_more({"value": forged}, {"user": {"id": STUDENT}}, context, said, services)
        assert said.calls[-1]["text"] == replies.NOTHING_MORE


def test_a_daily_click_leaves_the_channel_message_alone(tutor, now, stub, client):
    """The channel's question keeps its buttons for everyone: feedback comes apart from it."""
    services = services_of(tutor, now)
    context = BoltContext({"team_id": TEAM})
    post_id = tutor.store.add_post(
        team=TEAM,
        channel=CHANNEL,
        user="",
        question_id="q-oom",
        section="3.2",
        topic="Troubleshooting",
        kind="daily",
        now=now,
    )
    said, ack = Recorder(), Recorder()
    body = {"user": {"id": STUDENT}, "channel": {"id": CHANNEL}}
    handlers.answer_click(ack, {"value": f"{post_id}:C"}, body, context, services)
    handlers.click_feedback(body, said, client, context, services)
    assert said.calls[-1]["replace_original"] is False
    assert said.calls[-1]["text"].startswith("Correct!")
