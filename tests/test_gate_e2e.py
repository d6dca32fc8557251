"""Nothing forged, end to end: unsigned, malformed and forged requests to a real `tutor serve`.

Each request is shaped as an attacker (or a broken proxy) would send it to /slack/events. The
promise: an unsigned request gets 401 and a malformed signed one 400, before any listener,
middleware or error handler sees the body, so Slack's Web API (the recording stand-in, which
also answers response_url posts) is never called; a forged click is refused calmly and records
nothing.
"""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
import time
import urllib.parse

import pytest

from bot import replies
from tests.slack_stub import (
    CHANNEL,
    SIGNING_SECRET,
    STUDENT,
    TEAM,
    SlackRequests,
    SlackStub,
    mention_event,
    sign,
)

OTHER_USER = "U0OTHER001"
DAILY_CHANNEL = "C0DAILY001"


@pytest.fixture(scope="module")
def stub(module_stub):
    return module_stub


def answers(server, post_id: int) -> list[tuple[str, str]]:
    with sqlite3.connect(server.db) as conn:
        sql = "select user, choice from answers where post_id = ?"
        return conn.execute(sql, [post_id]).fetchall()


def daily_post(server, *, channel: str = DAILY_CHANNEL, open_for: float = 3600) -> int:
    """A daily question posted in `channel` (written as the daily pass writes it)."""
    now = dt.datetime.now(dt.UTC)
    closes = now + dt.timedelta(seconds=open_for)
    with sqlite3.connect(server.db) as conn:
        cursor = conn.execute(
            "insert into posts (team, channel, user, question_id, section, topic, kind, "
            "posted_at, closes_at, ts, local_date) values (?, ?, '', 'q-oom', '3.2', "
            "'Troubleshooting', 'daily', ?, ?, '1.0', ?)",
            [
                TEAM,
                channel,
                now.isoformat(timespec="seconds"),
                closes.isoformat(timespec="seconds"),
                f"{now.date()}-{time.monotonic_ns()}",
            ],
        )
        return int(cursor.lastrowid)


# -- unsigned: 401 before anything reads the body ---------------------------------------------


def _bodies(slack: SlackRequests) -> dict[str, tuple[str, str]]:
    """Requests that would make the bot call Slack if their body were ever acted on."""
    return {
        "slash": slack.slash("quiz"),
        "mention": slack.event(mention_event("quiz")),
        "click": slack.action("answer_a", "1:A"),
    }


def _bad_signatures(body: str) -> dict[str, dict[str, str]]:
    good = sign(SIGNING_SECRET, body)
    stale = sign(SIGNING_SECRET, body, int(time.time()) - 600)
    forged = sign("not-the-secret", body)
    return {
        "none": {},
        "timestamp-abc": {**good, "X-Slack-Request-Timestamp": "abc"},
        "timestamp-empty": {**good, "X-Slack-Request-Timestamp": ""},
        "timestamp-negative": {**good, "X-Slack-Request-Timestamp": "-1"},
        "signature-non-ascii": {**good, "X-Slack-Signature": "v0=é" + "a" * 63},
        "signature-empty": {**good, "X-Slack-Signature": ""},
        "signature-v1": {**good, "X-Slack-Signature": "v1" + good["X-Slack-Signature"][2:]},
        "signature-uppercase": {**good, "X-Slack-Signature": good["X-Slack-Signature"].upper()},
        "wrong-secret": forged,
        "ten-minutes-old": stale,
        "no-signature": {"X-Slack-Request-Timestamp": good["X-Slack-Request-Timestamp"]},
    }


UNSIGNED_CASES = [
    (kind, name) for kind in ("slash", "mention", "click") for name in _bad_signatures("x")
]


@pytest.mark.parametrize(("kind", "name"), UNSIGNED_CASES)
def test_unsigned_requests_get_401_and_make_no_call(slack, stub, server, kind, name):
    """Missing, malformed or wrong signature headers: 401, and Slack is never called."""
    body, content_type = _bodies(slack)[kind]
    headers = _bad_signatures(body)[name]
    header_bytes = {k: v.encode("utf-8").decode("latin-1") for k, v in headers.items()}
    before = len(server.logged())
    sent = slack.post((body, content_type), headers=header_bytes, signed=False)
    assert sent.status == 401
    assert stub.settle() == []
    assert "Traceback" not in server.logged()[before:]


# -- signed but malformed: 400 with a short plain reason ---------------------------------------


def _form(payload: object) -> tuple[str, str]:
    text = payload if isinstance(payload, str) else json.dumps(payload)
    return urllib.parse.urlencode({"payload": text}), "application/x-www-form-urlencoded"


def _click_payload(**changes: object) -> dict:
    body, _ = SlackRequests("", "").action("answer_a", "1:A")
    payload = json.loads(urllib.parse.parse_qs(body)["payload"][0])
    payload.update(changes)
    return payload


MALFORMED = {
    "broken-json": ('{"type": ', "application/json"),
    "json-array": ("[1, 2]", "application/json"),
    "json-string": ('"hello"', "application/json"),
    "payload-not-json": _form("{not json"),
    "payload-a-list": _form([1, 2]),
    "not-utf8": (
        b"payload=%7B%22type%22%3A%20%22\xff\xfe%22%7D",
        "application/x-www-form-urlencoded",
    ),
    "nested-5000": ("[" * 5000 + "]" * 5000, "application/json"),
    "nested-5000-in-object": ('{"a": ' + "[" * 5000 + "]" * 5000 + "}", "application/json"),
    "actions-empty": _form(_click_payload(actions=[])),
    "actions-not-a-list": _form(_click_payload(actions={"action_id": "answer_a"})),
    "action-without-id": _form(_click_payload(actions=[{"value": "1:A"}])),
    "click-without-user": _form(_click_payload(user=None)),
    "view-without-type": _form({"type": "view_submission", "user": {"id": STUDENT}, "view": {}}),
    "event-without-event": ('{"type": "event_callback", "team_id": "T1"}', "application/json"),
    "slash-without-command-user": (
        "command=%2Ftutor&text=quiz&team_id=T1",
        "application/x-www-form-urlencoded",
    ),
}


@pytest.mark.parametrize("name", list(MALFORMED))
def test_signed_malformed_bodies_get_400_and_one_warning(slack, stub, server, name):
    """A signed body bolt cannot read: 400 with a one-line plain reason; no call, no traceback."""
    before = len(server.logged())
    sent = slack.post(MALFORMED[name])
    assert sent.status == 400, sent.body
    assert sent.headers["content-type"].startswith("text/plain")
    assert sent.body.count("\n") == 1 and len(sent.body) < 100 and "<" not in sent.body
    assert stub.settle() == []
    logged = server.logged()[before:]
    assert "Traceback" not in logged and logged.count("WARNING") == 1, logged


# -- forged clicks: refused calmly, nothing recorded -------------------------------------------


def _quiz_post(slack: SlackRequests, user: str) -> tuple[int, str]:
    """`/tutor quiz` as `user`: the post id and a choice letter from its buttons."""
    reply = slack.post(slack.slash("quiz", user=user)).json()
    button = reply["blocks"][-1]["elements"][0]
    post, _, letter = button["value"].partition(":")
    return int(post), letter


def _feedback(stub: SlackStub) -> str:
    (said,) = stub.wait_for("webhook/")
    return said.body["text"]


def test_a_click_on_another_learners_private_question_is_refused(slack, stub, server):
    """User B sends a button value naming A's private post: calm line, nothing recorded."""
    post_id, letter = _quiz_post(slack, OTHER_USER)
    sent = slack.post(slack.action(f"answer_{letter.lower()}", f"{post_id}:{letter}"))
    assert sent.status == 200
    assert _feedback(stub) == replies.NOT_YOURS
    assert answers(server, post_id) == []


def test_a_click_on_a_daily_post_from_another_channel_is_refused(slack, stub, server):
    """A daily post's button value clicked in another channel records nothing."""
    post_id = daily_post(server)
    slack.post(slack.action("answer_c", f"{post_id}:C", channel=CHANNEL))
    assert _feedback(stub) == replies.NOT_YOURS
    assert answers(server, post_id) == []


def test_a_click_on_a_daily_post_from_another_workspace_is_refused(slack, stub, server):
    """The same channel id in another workspace is not the same channel."""
    post_id = daily_post(server)
    slack.post(slack.action("answer_c", f"{post_id}:C", channel=DAILY_CHANNEL, team="T0OTHER99"))
    assert _feedback(stub) == replies.NOT_YOURS
    assert answers(server, post_id) == []


@pytest.mark.parametrize("value", ["{post}:E", "{post}:", "²:A", "99999999999999999999999:A", "x"])
def test_a_click_with_a_choice_or_post_that_does_not_exist_records_nothing(
    slack, stub, server, value
):
    """A letter the question lacks, or a post id that is no id: a calm line, nothing recorded."""
    post_id = daily_post(server)
    sent = slack.post(slack.action("answer_e", value.format(post=post_id), channel=DAILY_CHANNEL))
    assert sent.status == 200
    said = _feedback(stub)
    assert said in (replies.UNKNOWN_POST,) or said.startswith("'E' is not one of the choices")
    assert answers(server, post_id) == []


def test_a_click_after_the_window_closed_records_nothing(slack, stub, server):
    """A daily question whose window has closed: the click is refused as closed."""
    post_id = daily_post(server, open_for=-60)
    slack.post(slack.action("answer_c", f"{post_id}:C", channel=DAILY_CHANNEL))
    assert _feedback(stub).startswith("This question is closed")
    assert answers(server, post_id) == []


def test_the_rightful_click_still_counts(slack, stub, server):
    """The same daily post clicked in its own channel and workspace is recorded."""
    post_id = daily_post(server)
    slack.post(slack.action("answer_c", f"{post_id}:C", channel=DAILY_CHANNEL))
    assert _feedback(stub).startswith("Correct!")
    assert answers(server, post_id) == [(STUDENT, "C")]
