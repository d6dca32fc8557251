"""The gate in front of bolt, as pure functions: what is signed, and what is well formed."""

from __future__ import annotations

import json
import urllib.parse

import pytest

from bot.slack import gate
from tests.slack_stub import sign

SECRET = "gate-test-secret"
NOW = 1_796_112_000.0  # 2026-12-01 08:00 UTC


def headers_for(body: bytes | str, timestamp: int = int(NOW)) -> dict[str, str]:
    return {k.lower(): v for k, v in sign(SECRET, body, timestamp).items()}


def check(headers: dict[str, str], body: bytes) -> gate.Verdict | None:
    return gate.check_signature(SECRET, headers, body, now=lambda: NOW)


def refusal(body: bytes, content_type: str | None) -> gate.Verdict | None:
    """The gate's 400 (or 413) for `body`, or None when our listeners can read it."""
    read = gate.read_body(body, content_type)
    return read if isinstance(read, gate.Verdict) else None


def test_a_body_slack_signed_just_now_passes():
    """The v0 HMAC of `v0:timestamp:body` with the signing secret, five minutes fresh."""
    body = b"command=%2Ftutor&text=quiz"
    assert check(headers_for(body), body) is None
    assert check(headers_for(body, int(NOW) - 299), body) is None


@pytest.mark.parametrize(
    ("change", "value"),
    [
        ("x-slack-request-timestamp", "abc"),
        ("x-slack-request-timestamp", ""),
        ("x-slack-request-timestamp", " 1796112000"),
        ("x-slack-request-timestamp", "1796112000.5"),
        ("x-slack-request-timestamp", "-1"),
        ("x-slack-request-timestamp", "١٧٩٦١١٢٠٠٠"),  # digits, but not ASCII ones
        ("x-slack-signature", "v0=é" + "a" * 63),
        ("x-slack-signature", ""),
        ("x-slack-signature", "v0=" + "A" * 64),
        ("x-slack-signature", "v0=" + "a" * 63),
        ("x-slack-signature", "v1=" + "a" * 64),
    ],
)
def test_malformed_signature_headers_are_refused_without_raising(change, value):
    """Headers not in Slack's exact form are a 401, never an exception."""
    body = b"command=%2Ftutor&text=quiz"
    headers = {**headers_for(body), change: value}
    assert check(headers, body) == gate.UNSIGNED


@pytest.mark.parametrize("missing", ["x-slack-request-timestamp", "x-slack-signature"])
def test_a_missing_signature_header_is_refused(missing):
    """Either header absent: 401."""
    body = b"{}"
    headers = {k: v for k, v in headers_for(body).items() if k != missing}
    assert check(headers, body) == gate.UNSIGNED


def test_a_wrong_secret_an_old_timestamp_or_a_changed_body_are_refused():
    """The signature must match this body, this secret and a timestamp within five minutes."""
    body = b'{"type": "event_callback"}'
    assert check(headers_for(body, int(NOW) - 301), body) == gate.UNSIGNED
    assert check(headers_for(body, int(NOW) + 301), body) == gate.UNSIGNED
    assert check(headers_for(body), body + b" ") == gate.UNSIGNED
    other = {k.lower(): v for k, v in sign("another-secret", body, int(NOW)).items()}
    assert check(other, body) == gate.UNSIGNED


def test_a_body_that_is_not_utf8_is_judged_by_its_signature():
    """Raw bytes that are not UTF-8: signed ones pass the signature check (and fail the body
    check with 400), unsigned ones get 401 — no exception either way."""
    body = b"payload=\xff\xfe"
    assert check(headers_for(body), body) is None
    assert check(headers_for(body, int(NOW) - 300), body) is None  # five minutes: still fresh
    assert check(headers_for(body, int(NOW) - 301), body) == gate.UNSIGNED
    assert check(headers_for(b"something else"), body) == gate.UNSIGNED
    assert refusal(body, "application/x-www-form-urlencoded") == gate.Verdict(
        400, "body is not UTF-8"
    )


def _form(payload: object) -> bytes:
    return urllib.parse.urlencode({"payload": json.dumps(payload)}).encode()


CLICK = {
    "type": "block_actions",
    "user": {"id": "U1"},
    "team": {"id": "T1"},
    "channel": {"id": "C1"},
    "actions": [{"action_id": "answer_a", "value": "1:A"}],
}


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        (b"command=%2Ftutor&text=quiz&user_id=U1&team_id=T1", "application/x-www-form-urlencoded"),
        (_form(CLICK), "application/x-www-form-urlencoded"),
        (b'{"type": "url_verification", "challenge": "abc"}', "application/json"),
        (b'{"type": "event_callback", "event": {"type": "app_mention"}}', "application/json"),
        (json.dumps({"a": [[[[{"b": 1}]]]]}).encode(), "application/json"),
        (b"", None),
        (
            _form({"type": "view_submission", "user": {"id": "U1"}, "view": {"type": "modal"}}),
            "application/x-www-form-urlencoded",
        ),
        (
            _form({"type": "view_closed", "user": {"id": "U1"}, "view": {"type": "home"}}),
            "application/x-www-form-urlencoded",
        ),
        (b"x" * gate.MAX_BODY, None),
    ],
)
def test_well_formed_bodies_pass(body, content_type):
    """What Slack sends passes the body check."""
    assert refusal(body, content_type) is None


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (b'{"type": ', "body is not valid JSON or form data"),
        (b"[1]", "body is not a JSON object"),
        (b"payload=%5B1%5D", "body is not a JSON object"),
        (b"payload=%7Bnope", "body is not valid JSON or form data"),
        (b"[" * 5000 + b"]" * 5000, "body is not valid JSON or form data"),
        (b'{"a": ' + b"[" * 41 + b"]" * 41 + b"}", "body nests deeper than 40 levels"),
        (_form({**CLICK, "actions": []}), "block_actions without actions"),
        (
            _form({**CLICK, "actions": [{"value": "1:A"}]}),
            "block_actions with an action that has no action_id",
        ),
        (
            _form({**CLICK, "actions": [{"action_id": "a", "value": 1}]}),
            "block_actions with a value that is not a string",
        ),
        (_form({**CLICK, "channel": "C1"}), "block_actions whose channel is not an object"),
        (_form({**CLICK, "container": []}), "block_actions whose container is not an object"),
        (_form({**CLICK, "team": "T1"}), "block_actions whose team is not an object"),
        (
            _form({"type": "view_closed", "user": {"id": "U1"}, "view": []}),
            "view_closed without a view type",
        ),
        (
            _form({"type": "view_submission", "view": {"type": "modal"}}),
            "view_submission without a user id",
        ),
        (_form({**CLICK, "user": {"name": "x"}}), "block_actions without a user id"),
        (
            _form({"type": "view_submission", "user": {"id": "U1"}, "view": {}}),
            "view_submission without a view type",
        ),
        (b'{"type": "event_callback", "event": []}', "event_callback without an event type"),
        (b'{"type": "url_verification"}', "missing challenge"),
        (b'{"type": 5}', "type is not a string"),
        (b"command=%2Ftutor&text=quiz", "missing user_id, team_id"),
        (b"x" * (gate.MAX_BODY + 1), f"body larger than {gate.MAX_BODY} bytes"),
    ],
)
def test_malformed_bodies_get_a_named_reason(body, reason):
    """Each malformed body gets 400 (413 when too large) and a reason a person can read."""
    json_like = body[:1] in (b"[", b"{")
    verdict = refusal(body, "application/json" if json_like else None)
    assert verdict is not None and verdict.reason == reason
    assert verdict.status == (413 if len(body) > gate.MAX_BODY else 400)


def test_nesting_at_the_limit_is_accepted():
    """Exactly MAX_DEPTH levels is fine; one more is not."""
    depth = gate.MAX_DEPTH
    ok = b"[" * depth + b"]" * depth
    assert refusal(ok, "application/json") == gate.Verdict(400, "body is not a JSON object")
    assert gate.shape_problem({"a": json.loads(b"[" * (depth - 1) + b"]" * (depth - 1))}) is None
    deep = {"a": json.loads(b"[" * depth + b"]" * depth)}
    assert gate.shape_problem(deep) == f"body nests deeper than {depth} levels"


def test_the_refusal_body_is_one_plain_line():
    """What the client reads: the reason and a newline."""
    assert gate.plain(gate.Verdict(400, "missing user_id")) == b"missing user_id\n"
