"""The door in front of bolt: a request is signed by Slack and well formed, or it goes no further.

bolt's own check raises (instead of answering 401) on a timestamp that is not a number or a
signature that is not ASCII, and then runs the error handler on the unverified body; it also
answers a signed body it cannot parse with a 500. Here every request is judged before bolt sees
it: 401 unless the signature headers have Slack's exact shape and match (slack_sdk's
`SignatureVerifier` does the HMAC), then 400 unless the body parses the way bolt parses it
(`slack_bolt.request.internals.parse_body`) into the shape our listeners read. The body parsed
here (`read_body`) is the one bolt gets: nothing parses or verifies a request twice.

Pure functions of the raw request: the WSGI wrapper in `serve.py` and the tests call them.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from slack_bolt.request.internals import parse_body
from slack_sdk.signature import Clock, SignatureVerifier

MAX_BODY = 1 << 20  # bytes; Slack's payloads are a few KB (a view with 100 blocks is ~50 KB)
MAX_DEPTH = 40  # nesting of JSON containers; Slack's deepest payloads nest about a dozen
_TIMESTAMP = re.compile(r"\A[0-9]{1,12}\Z")
_SIGNATURE = re.compile(r"\Av0=[0-9a-f]{64}\Z")


@dataclass(frozen=True)
class Verdict:
    """What to answer instead of passing the request on: a status and a short plain body."""

    status: int
    reason: str


UNSIGNED = Verdict(401, "invalid or missing Slack signature")


class _Clock(Clock):
    def __init__(self, now: Callable[[], float]) -> None:
        self._now = now

    def now(self) -> float:
        return self._now()


def check_signature(
    secret: str, headers: Mapping[str, str], body: bytes, *, now: Callable[[], float] = time.time
) -> Verdict | None:
    """None when Slack signed `body` within the last five minutes; else the 401 to answer.

    `headers` are lower-case names. Anything not in Slack's exact form is refused before the
    HMAC is computed, so no header value can make the check itself fail.
    """
    timestamp = headers.get("x-slack-request-timestamp", "")
    signature = headers.get("x-slack-signature", "")
    if not _TIMESTAMP.match(timestamp) or not _SIGNATURE.match(signature):
        return UNSIGNED
    verifier = SignatureVerifier(secret, clock=_Clock(now))
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        # slack_sdk decodes the body as UTF-8 before hashing it; Slack never sends anything
        # else, but a body that is not UTF-8 must still get its 401 (or, if it is signed, its
        # 400), so this one case hashes the raw bytes the same way (v0:timestamp:body).
        fresh = abs(now() - int(timestamp)) <= 60 * 5
        base = b"v0:" + timestamp.encode() + b":" + body
        mac = "v0=" + hmac.new(secret.encode(), base, hashlib.sha256).hexdigest()
        return None if fresh and hmac.compare_digest(mac, signature) else UNSIGNED
    return None if verifier.is_valid(body, timestamp, signature) else UNSIGNED


def read_body(body: bytes, content_type: str | None) -> dict | Verdict:
    """`body` parsed as bolt parses it, when our listeners can read it; else the 400 (or 413)."""
    if len(body) > MAX_BODY:
        return Verdict(413, f"body larger than {MAX_BODY} bytes")
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return Verdict(400, "body is not UTF-8")
    try:
        parsed = parse_body(text, content_type)
    except (ValueError, RecursionError):
        return Verdict(400, "body is not valid JSON or form data")
    problem = shape_problem(parsed)
    return Verdict(400, problem) if problem else parsed


def shape_problem(body: object) -> str | None:
    """What is wrong with a parsed Slack request body, or None if our listeners can read it."""
    if not isinstance(body, dict):
        return "body is not a JSON object"
    if _too_deep(body):
        return f"body nests deeper than {MAX_DEPTH} levels"
    kind = body.get("type")
    if "command" in body:  # a slash command (form fields)
        return _missing(body, ("command", "user_id", "team_id"))
    if kind == "url_verification":
        return _missing(body, ("challenge",))
    if kind == "event_callback":
        event = body.get("event")
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            return "event_callback without an event type"
        return None
    if kind == "block_actions":
        return _block_actions_problem(body)
    if kind in ("view_submission", "view_closed"):
        view = body.get("view")
        if not isinstance(view, dict) or not isinstance(view.get("type"), str):
            return f"{kind} without a view type"
        return _user_problem(body, kind)
    if kind is not None and not isinstance(kind, str):
        return "type is not a string"
    return None


def _block_actions_problem(body: dict) -> str | None:
    actions = body.get("actions")
    if not isinstance(actions, list) or not actions:
        return "block_actions without actions"
    for action in actions:
        if not isinstance(action, dict) or not isinstance(action.get("action_id"), str):
            return "block_actions with an action that has no action_id"
        if not isinstance(action.get("value", ""), str):
            return "block_actions with a value that is not a string"
    for key in ("channel", "container", "team"):
        if body.get(key) is not None and not isinstance(body[key], dict):
            return f"block_actions whose {key} is not an object"
    return _user_problem(body, "block_actions")


def _user_problem(body: dict, kind: str) -> str | None:
    user = body.get("user")
    if not isinstance(user, dict) or not isinstance(user.get("id"), str):
        return f"{kind} without a user id"
    return None


def _missing(body: dict, keys: tuple[str, ...]) -> str | None:
    absent = [k for k in keys if not isinstance(body.get(k), str) or not body[k]]
    return f"missing {', '.join(absent)}" if absent else None


def _too_deep(value: object) -> bool:
    """Whether containers nest deeper than MAX_DEPTH (iteratively: no recursion to exhaust)."""
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            return True
        children = (
            item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        )
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False


def plain(verdict: Verdict) -> bytes:
    """The short plain-text body sent with a refusal."""
    return f"{verdict.reason}\n".encode()
