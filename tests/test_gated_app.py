"""The app behind the gate, in process: each request verified and parsed once, then routed.

`tutor serve` hands bolt only what `serve.guarded_wsgi` let through, so bolt's own signature
check is off there (`create_app(gated=True)`); these tests call that WSGI app as gunicorn does,
with requests signed (or not) as Slack signs them. The end-to-end tests (test_gate_e2e.py) do
the same over HTTP.
"""

from __future__ import annotations

import io
import json
import socket

import pytest
from slack_bolt import BoltRequest

from bot import replies
from bot.config import Settings
from bot.slack import mock_blocks, serve
from bot.slack.app import create_app
from tests.slack_stub import SIGNING_SECRET, STUDENT, SlackRequests, sign


@pytest.fixture
def settings(tmp_path, stub):
    return Settings(
        db_path=tmp_path / "tutor.db",
        content_root=tmp_path / "content",
        bot_token="xoxb-test",
        signing_secret=SIGNING_SECRET,
        api_url=stub.url,
        admins=(STUDENT,),
    )


@pytest.fixture
def wsgi(settings, tutor, client, now):
    app = create_app(settings, tutor, client, clock=lambda: now, gated=True)
    return serve.guarded_wsgi(app, SIGNING_SECRET, serve.SlackLink(client))


@pytest.fixture
def slack(stub) -> SlackRequests:
    return SlackRequests("unused", SIGNING_SECRET, response_url=stub.response_url)


def environ_for(body: str, content_type: str, headers: dict[str, str], method: str) -> dict:
    """A request as gunicorn hands it to the WSGI app."""
    data = body.encode()
    return {
        "REQUEST_METHOD": method,
        "PATH_INFO": serve.EVENTS_PATH,
        "QUERY_STRING": "",
        "CONTENT_TYPE": content_type,
        "CONTENT_LENGTH": str(len(data)),
        "wsgi.input": io.BytesIO(data),
        **{"HTTP_" + k.upper().replace("-", "_"): v for k, v in headers.items()},
    }


def call(wsgi, body: str, content_type: str, headers: dict[str, str], *, method: str = "POST"):
    """One request as gunicorn passes it: status, headers and body of the answer."""
    started: list = []
    environ = environ_for(body, content_type, headers, method)
    answer = b"".join(wsgi(environ, lambda status, sent: started.append((status, dict(sent)))))
    ((status, sent),) = started
    return int(status.split()[0]), sent, answer.decode()


def signed(wsgi, request: tuple[str, str]):
    body, content_type = request
    return call(wsgi, body, content_type, sign(SIGNING_SECRET, body))


def test_a_signed_question_is_answered_in_the_ack(wsgi, slack, stub):
    """/tutor <question> through the gate: 200, the answer privately in the body, no Web API."""
    status, headers, body = signed(wsgi, slack.slash("which service for no-code training"))
    assert status == 200 and headers["content-type"].startswith("application/json")
    answer = json.loads(body)
    assert answer["response_type"] == "ephemeral" and answer["text"].startswith("AutoML")
    assert stub.settle() == []


@pytest.mark.parametrize("forged", ["wrong-secret", "stale", "unsigned"])
def test_an_unsigned_question_never_reaches_bolt(wsgi, slack, stub, tutor, forged):
    """Behind the gate bolt checks no signature: the gate's 401 comes first, and no listener
    runs (a question it cannot answer would be kept as a gap)."""
    body, content_type = slack.slash("zzkq wvvx qqqp")
    headers = {
        "wrong-secret": sign("not-the-secret", body),
        "stale": sign(SIGNING_SECRET, body, timestamp=1_000_000_000),
        "unsigned": {},
    }[forged]
    status, sent, answer = call(wsgi, body, content_type, headers)
    assert (status, answer) == (401, "invalid or missing Slack signature\n")
    assert sent["Content-Type"].startswith("text/plain")
    assert tutor.store.gaps() == [] and stub.settle() == []
    assert signed(wsgi, (body, content_type))[0] == 200  # the same body, signed: answered
    assert len(tutor.store.gaps()) == 1


def test_a_signed_body_bolt_cannot_read_gets_400(wsgi, stub):
    """Malformed but signed: 400 with the gate's reason; no listener, no Web API call."""
    status, _, answer = call(wsgi, "[1, 2]", "application/json", sign(SIGNING_SECRET, "[1, 2]"))
    assert (status, answer) == (400, "body is not a JSON object\n")
    assert stub.settle() == []


def test_other_paths_and_methods_get_404(wsgi):
    """Only POST /slack/events reaches bolt."""
    status, _, answer = call(wsgi, "", "", {}, method="GET")
    assert (status, answer) == (404, "Not Found")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("which service for no-code training", "AutoML"),  # a question: answered in the ack
        ("help", "I'm Study Tutor"),
        ("mock 50", "a mock exam has 3 to 3 questions"),  # the mock's listener
        ("b", replies.NO_PENDING),  # a letter goes to the mock's listener too (it may answer one)
    ],
)
def test_each_tutor_is_answered_by_one_listener_in_the_ack(wsgi, slack, text, expected):
    """Commands answered in the ack, by whichever listener their words go to, get their reply."""
    status, _, body = signed(wsgi, slack.slash(text))
    assert status == 200
    assert expected.lower() in json.loads(body)["text"].lower()


def test_a_mock_is_decided_in_the_ack_and_goes_on_in_the_dm(wsgi, slack, stub):
    """/tutor mock 3: the ack says where the mock is; its first question follows in the DM."""
    status, _, body = signed(wsgi, slack.slash("mock 3"))
    assert status == 200 and json.loads(body)["text"] == mock_blocks.IN_DM
    (posted,) = stub.wait_for("chat.postMessage", 1)
    assert "Question 1 of 3" in json.dumps(posted.body)


def test_an_admin_command_is_acked_empty_and_answered_after(wsgi, slack, stub):
    """/tutor schedule …: an empty ack, then the confirmation through response_url."""
    status, _, body = signed(wsgi, slack.slash("schedule 09:00 Europe/Berlin mon", channel="C123"))
    assert (status, body) == (200, "")
    (confirmation,) = stub.wait_for("webhook/", 1)
    assert confirmation.body["response_type"] == "in_channel"


def test_without_the_gate_bolt_checks_signatures_itself(settings, tutor, client, slack):
    """An app not built for the gate keeps bolt's own check: unsigned requests get 401."""
    app = create_app(settings, tutor, client)
    body, content_type = slack.slash("which service for no-code training")
    response = app.dispatch(BoltRequest(body=body, headers={"content-type": [content_type]}))
    assert response.status == 401
    assert tutor.store.gaps() == []


def test_an_answer_leaves_in_one_tcp_segment(wsgi, slack):
    """What gunicorn writes of an answer (headers, then body) is held until it closes the
    response, so both leave together; then the socket is as it was."""
    cork = (socket.IPPROTO_TCP, socket.TCP_CORK)
    with socket.create_server(("127.0.0.1", 0)) as server:
        client = socket.create_connection(server.getsockname(), timeout=30)
        conn, _ = server.accept()
        with client, conn:
            body, content_type = slack.slash("help")
            environ = environ_for(body, content_type, sign(SIGNING_SECRET, body), "POST")
            environ["gunicorn.socket"] = conn
            answer = serve.in_one_segment(wsgi)(environ, lambda status, headers: None)
            assert conn.getsockopt(*cork) == 1
            conn.sendall(b"".join(answer))  # as gunicorn writes the body
            answer.close()  # as gunicorn closes it
            assert conn.getsockopt(*cork) == 0
            assert b"Study Tutor" in client.recv(65536)


def test_without_a_tcp_socket_answers_go_out_as_before(wsgi, slack):
    """No socket in the environ (another server, a test): the same answer, nothing held."""
    body, content_type = slack.slash("help")
    environ = environ_for(body, content_type, sign(SIGNING_SECRET, body), "POST")
    answer = serve.in_one_segment(wsgi)(environ, lambda status, headers: None)
    assert "Study Tutor" in json.loads(b"".join(answer))["text"]
