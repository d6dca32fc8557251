"""Slack handlers called directly: parse, ask the tutor, reply (Slack's side recorded)."""

from __future__ import annotations

import copy
import inspect
import json
import logging

import pytest
from slack_bolt import BoltContext, BoltRequest, BoltResponse, Say
from slack_sdk import WebClient
from slack_sdk.webhook import WebhookResponse

from bot import replies
from bot.slack import blocks, handlers
from bot.slack.handlers import Services
from bot.slack.middleware import guarded
from bot.slack.poster import DisplayNames
from tests.slack_stub import (
    CHANNEL,
    DM,
    STUDENT,
    TEAM,
    dm_event,
    home_event,
    mention_event,
)


class Recorder:
    """Stands in for bolt's ack/say/respond: records each call's keyword arguments."""

    def __init__(self) -> None:
        self.calls: list[dict] = []

    def __call__(self, text: str = "", **kwargs: object) -> WebhookResponse:
        self.calls.append({"text": text, **kwargs})
        return WebhookResponse(url="", status_code=200, body="ok", headers={})

    @property
    def last(self) -> dict:
        return self.calls[-1]


@pytest.fixture
def context():
    return BoltContext({"team_id": TEAM})


def clock_at(now):
    return lambda: now


@pytest.fixture
def services(tutor, now):
    """What the listeners share; users.info goes to a loopback port nobody listens on."""
    names = DisplayNames(WebClient(token="xoxb-test", base_url="http://127.0.0.1:9/"))
    return Services(tutor, clock_at(now), names)


def click(button, body, respond, client, context, services):
    """A button click as bolt runs it: the ack listener, then (after the ack) the lazy one."""
    ack = Recorder()
    handlers.answer_click(ack, button, body, context, services)
    assert len(ack.calls) == 1
    handlers.click_feedback(body, respond, client, context, services)


def slash(ack, context, services, text):
    command = {"text": text, "user_id": STUDENT, "channel_id": CHANNEL, "team_id": TEAM}
    handlers.slash_command(ack, command, context, services)
    return ack.last


def test_slash_question_answers_in_the_ack_body(context, services, tutor, now):
    """/tutor <question> acks once, privately, with the answer and a quiz button."""
    ack = Recorder()
    reply = slash(ack, context, services, "which service for no-code training")
    assert len(ack.calls) == 1 and reply["response_type"] == "ephemeral"
    assert reply["text"].startswith("AutoML on Vertex AI")
    assert any(b["type"] == "actions" for b in reply["blocks"])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("help", "I'm Study Tutor"),
        ("frobnicate", "I don't know that one."),
        ("ask", "I'm Study Tutor"),
        ("", "I'm Study Tutor"),
        ("stats", replies.NO_ANSWERS_YET),
        ("leaderboard week", replies.NO_ANSWERS_HERE),
        ("b", replies.NO_PENDING),
    ],
)
def test_slash_subcommands(context, services, text, expected):
    """Each /tutor subcommand gets its reply; empty and bare `ask` get help."""
    assert expected in slash(Recorder(), context, services, text)["text"]


def test_slash_ask_prefix_is_a_question(context, services, tutor, now):
    """/tutor ask <question> is the same as /tutor <question>."""
    assert slash(Recorder(), context, services, "ask which service for no-code training")[
        "text"
    ].startswith("AutoML")


def test_slash_quiz_then_click_records_one_answer(stub, client, context, services, tutor, now):
    """/tutor quiz gives buttons; the first click is recorded, a second gets "already answered"."""
    question_blocks = slash(Recorder(), context, services, "quiz")["blocks"]
    buttons = question_blocks[-1]["elements"]
    respond = Recorder()
    body = {"user": {"id": STUDENT}, "channel": {"id": CHANNEL}}
    for button in (buttons[0], buttons[1]):
        click(button, body, respond, client, context, services)
    post_id = int(buttons[0]["value"].split(":")[0])
    (home,) = stub.called("views.publish")  # only the recorded answer refreshes App Home
    assert home.body["user_id"] == STUDENT and "Answered 1" in json.dumps(home.body["view"])
    assert tutor.store.totals(team=TEAM, user=STUDENT)[0] == 1
    assert tutor.store.answer_of(post_id, STUDENT) == "A"
    first, second = respond.calls
    assert first["response_type"] == "ephemeral" and first["replace_original"] is True
    assert "answer_" not in json.dumps(first["blocks"])  # the answered question lost its buttons
    assert second["text"].startswith("You already answered this one (a)")
    assert len(second["blocks"]) == 1 and second["replace_original"] is False


def test_click_on_unknown_post_says_so(stub, client, context, services, tutor, now):
    """A click on a post the store does not know gets a polite "no longer available"."""
    respond = Recorder()
    body = {"user": {"id": STUDENT}}
    click({"value": "999:A"}, body, respond, client, context, services)
    assert respond.last["text"] == replies.UNKNOWN_POST
    assert stub.called("views.publish") == []


def test_home_refresh_failure_does_not_spoil_the_feedback(
    stub, client, context, services, tutor, now
):
    """If App Home cannot be published, the clicker still gets feedback and nothing is raised."""
    stub.fail("views.publish", error="not_enabled")
    asked = tutor.quiz(team=TEAM, user=STUDENT, now=now)
    respond = Recorder()
    button = {"value": f"{asked.post.id}:{asked.question.answer}"}
    click(button, {"user": {"id": STUDENT}}, respond, client, context, services)
    assert respond.last["text"].startswith("Correct!")
    assert len(stub.called("views.publish")) == 1


def test_show_entry_and_quiz_on_entry(context, services, tutor, now):
    """A did-you-mean click shows the entry; "quiz me on this" asks a question about it."""
    respond = Recorder()
    handlers.show_entry({"value": "oom-batch-size"}, respond, services)
    assert respond.last["text"].startswith("Reduce the batch size")
    body = {"user": {"id": STUDENT}, "channel": {"id": CHANNEL}}
    handlers.quiz_on_entry({"value": "oom-batch-size"}, body, context, respond, services)
    assert "GPU out-of-memory" in respond.last["text"]


def test_mention_answers_in_thread_and_quiz_privately(stub, client, context, services, tutor, now):
    """A mention is answered in its thread; a quiz asked by mention is ephemeral to the asker."""
    say = Recorder()
    event = mention_event("which service for no-code training", thread_ts="1773470000.000100")
    handlers.mention(event, say, client, context, services)
    assert say.last["thread_ts"] == "1773470000.000100" and "AutoML" in say.last["text"]
    handlers.mention(mention_event("quiz"), say, client, context, services)
    (posted,) = stub.called("chat.postEphemeral")
    assert posted.body["user"] == STUDENT and posted.body["thread_ts"] == "1773470001.000300"


def test_direct_message_and_its_filter(context, services, tutor, now):
    """DMs are answered in the DM; edits, deletes, joins and bot posts do not pass the filter."""
    say = Recorder()
    handlers.direct_message(dm_event("stats"), say, context, services)
    assert say.last["text"] == replies.NO_ANSWERS_YET
    assert handlers.is_direct_message(dm_event("hi"))
    for extra in ({"subtype": "message_changed"}, {"subtype": "channel_join"}, {"bot_id": "B1"}):
        assert not handlers.is_direct_message(dm_event("hi", **extra))
    assert not handlers.is_direct_message(
        {**dm_event("hi"), "channel_type": "channel", "channel": "C1"}
    )


def test_home_opened_publishes_stats_and_leaderboard(stub, client, context, services, tutor, now):
    """Opening Home publishes one home view for that user; the Messages tab does not match."""
    handlers.home_opened(home_event(), client, context, services)
    (call,) = stub.called("views.publish")
    assert call.body["user_id"] == STUDENT and call.body["view"]["type"] == "home"
    assert handlers.is_home_tab(home_event()) and not handlers.is_home_tab(home_event("messages"))


def test_error_in_a_slash_command_becomes_an_apology_in_the_ack(caplog):
    """A failing /tutor gets replies.SORRY as a 200 ack; the traceback goes to the log."""
    response = BoltResponse(status=500)
    error = ValueError("secret internals")
    with caplog.at_level(logging.ERROR):
        try:
            raise error
        except ValueError:
            returned = handlers.on_error(
                error, {"command": "/tutor"}, logging.getLogger("t"), None, None, response
            )
    assert returned is not None and returned.status == 200
    assert json.loads(returned.body)["text"] == replies.SORRY
    assert "secret internals" not in returned.body
    assert "Traceback" in caplog.text


def test_guarded_lazy_listener_sends_failures_to_on_error(caplog):
    """A lazy listener that raises: traceback logged, the person gets SORRY, no exception text."""

    def broken(event: dict) -> None:
        raise RuntimeError("database password is hunter2")

    run = guarded(broken)
    say = Recorder()
    with caplog.at_level(logging.ERROR):
        run(
            event={},
            body={"event": {"ts": "1.0"}},
            logger=logging.getLogger("t"),
            respond=None,
            say=say,
        )
    assert say.last == {"text": replies.SORRY, "thread_ts": "1.0"}
    assert "Traceback" in caplog.text and "hunter2" not in say.last["text"]


def test_guarded_keeps_the_names_bolt_injects():
    """bolt reads argument names from the signature: the wrapped names plus what on_error needs."""
    names = inspect.getfullargspec(guarded(handlers.mention)).args
    assert names[:5] == ["event", "say", "client", "context", "services"]
    assert {"body", "logger", "respond"} <= set(names)


def test_what_an_ack_hands_on_is_shared_with_the_lazy_listener_not_copied(
    context, services, tutor, now
):
    """bolt deep-copies the context (then the whole request) for a lazy listener: a grade
    handed on arrives as the same object, while bolt's own values are still copied."""
    asked = tutor.quiz(team=TEAM, user=STUDENT, now=now)
    graded = tutor.answer(post_id=asked.post.id, user=STUDENT, choice="A", now=now, team=TEAM)
    context["services"], context["response_url"] = services, "https://hooks.example/1"
    handlers.hand_on(context, "graded", graded)
    copied = BoltRequest(body={}, context=context, mode="socket_mode").to_copyable()
    copied = copy.deepcopy(copied)  # as bolt builds a lazy listener's request
    assert handlers.handed(copied.context, "graded") is graded
    assert copied.context["services"] is services
    assert copied.context is not context and handlers.handed(copied.context, "nothing") is None


def test_dm_reply_goes_to_the_dm(stub, client, context, services, tutor, now):
    """say() in a DM posts to the DM channel (through the stand-in)."""
    say = Say(client, channel=DM)
    handlers.direct_message(dm_event("help"), say, context, services)
    (call,) = stub.called("chat.postMessage")
    assert call.body["channel"] == DM
    assert len(call.body["blocks"][0]["text"]["text"]) <= blocks.SECTION_TEXT


def test_a_forged_click_gets_a_calm_line_and_records_nothing(
    stub, client, context, services, tutor, now
):
    """A button value naming another learner's post: no answer recorded, none shown, no Home."""
    asked = tutor.quiz(team=TEAM, user="U0SOMEONE1", now=now)
    respond = Recorder()
    button = {"value": f"{asked.post.id}:{asked.question.answer}"}
    click(button, {"user": {"id": STUDENT}}, respond, client, context, services)
    assert respond.last["text"] == replies.NOT_YOURS
    assert "Answer:" not in json.dumps(respond.last["blocks"])
    assert tutor.store.totals(team=TEAM, user=STUDENT) == (0, 0)
    assert stub.called("views.publish") == []
