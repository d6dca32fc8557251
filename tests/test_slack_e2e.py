"""End to end: a real `tutor serve` (HTTP mode, gunicorn) and signed requests shaped as Slack's.

Slack's Web API is the recording stand-in (SLACK_API_URL); response_url values point at it too.
Async effects are awaited by polling the stand-in with a deadline, never by timing.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from bot import replies
from tests.slack_stub import (
    BOT_ID,
    BOT_TOKEN,
    BOT_USER,
    CHANNEL,
    DM,
    ROOT,
    SIGNING_SECRET,
    STUDENT,
    SlackRequests,
    SlackStub,
    dm_event,
    free_port,
    home_event,
    mention_event,
    sign,
    slack_env,
    start,
)

ATTACKS = ["<!channel>", "<!here>", "<@U0OTHER99>", "<https://evil.example"]


@pytest.fixture(scope="module")
def stub(module_stub):
    return module_stub


@pytest.fixture(scope="module")
def server_options():
    return {"workers": 2}


def everything(stub: SlackStub) -> str:
    return " ".join(call.text() for call in stub.called())


# -- Slack's handshake and signatures ---------------------------------------------------------


def test_health_check(server):
    """GET /healthz answers 200 without a signature (for load balancers)."""
    import urllib.request

    with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/healthz") as response:
        assert response.status == 200


def test_url_verification(slack):
    """A signed url_verification gets the challenge back as JSON."""
    sent = slack.post(
        slack.url_verification("3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P")
    )
    assert sent.status == 200 and sent.headers["content-type"].startswith("application/json")
    assert sent.json() == {"challenge": "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P"}


def test_signing_helper_matches_slacks_known_answer():
    """The test signer reproduces the vector from Slack's "Verifying requests" page."""
    body = (
        "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V"
        "&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text="
        "&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN"
        "&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c"
    )
    signature = sign("8f742231b10e8888abcd99yyyzzz85a5", body, 1531420618)["X-Slack-Signature"]
    assert signature == "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503"


@pytest.mark.parametrize(
    "forge",
    [
        {"headers": {"X-Slack-Signature": "v0=" + "0" * 64}},
        {"age": 310},
        {"age": -310},
        {"signed": False},
    ],
    ids=["bad-signature", "stale", "future", "unsigned"],
)
def test_bad_or_stale_signatures_are_rejected_and_change_nothing(slack, stub, server, forge):
    """Forged, stale or missing signatures get 401; nothing is written and nothing is posted."""
    before = {t: server.rows(t) for t in ("posts", "answers", "events", "gaps")}
    if "age" in forge:  # computed now: a timestamp fixed at collection time would drift
        forge = {"timestamp": int(time.time()) - forge["age"]}
    for request in (
        slack.slash("quiz"),
        slack.event(mention_event("quiz")),
        slack.slash("no code?"),
    ):
        assert slack.post(request, **forge).status == 401
    assert {t: server.rows(t) for t in before} == before
    assert stub.settle() == []


def test_signature_four_minutes_old_is_still_accepted(slack):
    """Inside Slack's five-minute window a correctly signed request is served."""
    assert slack.post(slack.slash("help"), timestamp=int(time.time()) - 240).status == 200


# -- /tutor -----------------------------------------------------------------------------------


def test_slash_question_is_answered_in_the_ack(slack, stub):
    """/tutor which service for no-code training → AutoML, privately, in the 200 body."""
    sent = slack.post(slack.slash("which service for no-code training"))
    assert sent.status == 200
    reply = sent.json()
    assert reply["response_type"] == "ephemeral" and reply["text"].startswith("AutoML on Vertex AI")
    assert stub.settle() == []  # answered in the ack: no Web API call needed


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", "I'm Study Tutor"),
        ("help", "I'm Study Tutor"),
        ("exam", "No exam date set"),
        ("leaderboard month", ""),
    ],
)
def test_slash_subcommands_over_http(slack, text, expected):
    """Empty, help, exam and leaderboard commands each get a non-empty private reply."""
    sent = slack.post(slack.slash(text, user="U0SUBCMD01"))
    assert sent.status == 200 and sent.json()["text"] and expected in sent.json()["text"]


def test_quiz_click_records_exactly_one_answer_however_many_clicks(slack, stub, server):
    """/tutor quiz, then the same user clicks 8 times (some at once): one answer row, 8 replies."""
    user = "U0CLICKER1"
    question = slack.post(slack.slash("quiz", user=user)).json()
    buttons = question["blocks"][-1]["elements"]
    assert all("correct" not in json.dumps(b).lower() for b in buttons)
    before = server.rows("answers")
    clicks = [slack.action(b["action_id"], b["value"], user=user) for b in (buttons * 3)[:8]]
    slack.post(clicks[0])
    with ThreadPoolExecutor(4) as pool:
        statuses = [sent.status for sent in pool.map(slack.post, clicks[1:])]
    assert statuses == [200] * 7
    replies_seen = stub.wait_for("webhook/", 8)
    assert server.rows("answers") == before + 1
    verdicts = [call.body["text"].split("\n")[0] for call in replies_seen]
    assert sum("already answered" in v for v in verdicts) == 7
    first = [v for v in verdicts if "already answered" not in v]
    assert first and first[0] in ("Correct!", "Not quite.")
    assert all(c.body["response_type"] == "ephemeral" for c in replies_seen)
    recorded = [c for c in replies_seen if "already answered" not in c.body["text"]]
    assert [c.body["replace_original"] for c in recorded] == [True]  # the question, answered
    assert "answer_" not in json.dumps(recorded[0].body["blocks"])  # has no buttons left
    assert all(c.body["replace_original"] is False for c in replies_seen if c not in recorded)
    assert stub.wait_for("views.publish")  # the recorded answer refreshes Home, then all is quiet


def test_wrong_click_explains_both_choices(slack, stub):
    """Feedback on a wrong choice says why it is wrong and why the correct one is right."""
    user = "U0WRONG001"
    question = slack.post(slack.slash("quiz", user=user)).json()
    texts = [b["value"] for b in question["blocks"][-1]["elements"]]
    slack.post(slack.action("answer_a", texts[0], user=user))
    (reply,) = stub.wait_for("webhook/", 1)
    lines = reply.body["text"].split("\n")
    assert lines[0] in ("Correct!", "Not quite.")
    assert lines[0] == "Correct!" or any(line.startswith("Answer: ") for line in lines)
    assert stub.wait_for("views.publish")  # the recorded answer refreshes Home, then all is quiet


def test_did_you_mean_and_quiz_me_buttons(slack, stub):
    """A "did you mean" click shows the entry; "quiz me on this" sends a question with buttons."""
    slack.post(slack.action("show_entry_0", "oom-batch-size"))
    slack.post(slack.action("quiz_on_entry", "automl"))
    calls = stub.wait_for("webhook/", 2)
    texts = sorted(call.body["text"] for call in calls)
    assert any(t.startswith("Reduce the batch size") for t in texts)
    assert any("Answer with" in t for t in texts)


# -- events -----------------------------------------------------------------------------------


def test_mention_is_answered_in_its_thread(slack, stub):
    """An app_mention gets 200 with an empty body, then one reply in the mention's thread."""
    sent = slack.post(slack.event(mention_event("which service for no-code training")))
    assert sent.status == 200 and sent.body == ""
    (posted,) = stub.wait_for("chat.postMessage")
    assert posted.body["channel"] == CHANNEL and posted.body["thread_ts"] == "1773470001.000300"
    assert posted.body["text"].startswith("AutoML")
    assert len([c for c in stub.settle(quiet=0.3) if c.path == "chat.postMessage"]) == 1


def test_retried_and_doubled_events_get_one_reply(slack, stub):
    """The same event_id delivered 6 times (retries, some concurrent) gets exactly one reply."""
    request = slack.event(mention_event("no code training"), event_id="Ev0RETRY0001")
    retry = {"X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "http_timeout"}
    with ThreadPoolExecutor(6) as pool:
        sent = list(pool.map(lambda i: slack.post(request, headers=retry if i else {}), range(6)))
    assert [s.status for s in sent] == [200] * 6
    stub.wait_for("chat.postMessage")
    assert len([c for c in stub.settle(quiet=0.5) if c.path == "chat.postMessage"]) == 1


def test_direct_message_is_answered_in_the_dm(slack, stub):
    """A DM gets one reply in the DM."""
    assert slack.post(slack.event(dm_event("help"))).status == 200
    (posted,) = stub.wait_for("chat.postMessage")
    assert posted.body["channel"] == DM and "I'm Study Tutor" in posted.body["text"]


@pytest.mark.parametrize(
    "extra",
    [
        {"subtype": "message_changed"},
        {"subtype": "message_deleted"},
        {"subtype": "channel_join"},
        {"subtype": "bot_message", "bot_id": "B0OTHERBOT"},
        {"user": BOT_USER, "bot_id": BOT_ID},
        {"bot_id": "B0OTHERBOT"},
    ],
    ids=["edit", "delete", "join", "bot-message", "our-own", "other-bot"],
)
def test_ignored_messages_get_200_and_no_reply(slack, stub, extra):
    """Edits, deletes, joins, bot posts and our own messages: 200 (never 404) and silence."""
    assert slack.post(slack.event(dm_event("help", **extra))).status == 200
    assert stub.settle() == []


def test_echoed_text_cannot_ping_or_disguise_links(slack, stub):
    """A mention full of attacks gets a reply; no outgoing byte carries them raw, only escaped."""
    text = (
        "<!channel> <!here> <@U0OTHER99> <https://evil.example|https://bank.example> "
        "&lt;!here&gt; no code"
    )
    slack.post(slack.event(mention_event(text)))
    stub.wait_for("chat.postMessage")
    sent = everything(stub)
    assert sent
    for raw in ATTACKS:
        assert raw not in sent
    assert "&lt;!here&gt;" in sent


def test_app_home_publishes_only_for_the_home_tab(slack, stub):
    """app_home_opened with tab=home publishes one home view; tab=messages publishes nothing."""
    slack.post(slack.event(home_event("messages")))
    slack.post(slack.event(home_event("home")))
    (call,) = stub.wait_for("views.publish")
    assert call.body["user_id"] == STUDENT and call.body["view"]["type"] == "home"
    assert len(call.body["view"]["blocks"]) <= 100
    assert len([c for c in stub.settle() if c.path == "views.publish"]) == 1


# -- resilience -------------------------------------------------------------------------------


def test_rate_limited_post_is_retried_after_retry_after(slack, stub):
    """A 429 with Retry-After: 1 on chat.postMessage: the reply is retried once and delivered."""
    stub.fail("chat.postMessage", status=429, retry_after=1)
    assert slack.post(slack.event(mention_event("no code training"))).status == 200
    attempts = stub.wait_for("chat.postMessage", 2, within=60)
    assert len(attempts) == 2 and attempts[0].text() == attempts[1].text()


@pytest.mark.parametrize("failure", [{"error": "not_in_channel"}, {"status": 500}])
def test_failed_web_api_call_is_logged_and_the_bot_keeps_serving(slack, stub, server, failure):
    """chat.postMessage failing (ok:false or 500) is logged; the next event is still answered."""
    stub.fail("chat.postMessage", times=2, **failure)  # the reply and the apology both fail
    assert slack.post(slack.event(mention_event("no code training"))).status == 200
    stub.wait_for("chat.postMessage", 2)
    stub.settle()
    stub.reset()
    assert slack.post(slack.event(dm_event("help"))).status == 200
    assert stub.wait_for("chat.postMessage")
    assert "A Slack listener failed" in server.logged()


def test_a_signed_command_without_user_id_is_refused_as_malformed(slack, stub, server):
    """A signed /tutor with no user_id: 400 and a short plain reason, no listener, no traceback."""
    body, kind = slack.slash("quiz")
    broken = "&".join(p for p in body.split("&") if not p.startswith("user_id="))
    before = len(server.logged())
    sent = slack.post((broken, kind))
    assert (sent.status, sent.body) == (400, "missing user_id\n")
    logged = server.logged()[before:]
    assert stub.settle() == [] and "Traceback" not in logged
    assert logged.count("\n") == 1 and "missing user_id" in logged


def test_unexpected_error_in_an_event_apologises_in_the_thread(slack, stub):
    """A mention the handler cannot read (no user) gets a short apology in its thread."""
    event = mention_event("quiz")
    del event["user"]
    assert slack.post(slack.event(event)).status == 200
    (posted,) = stub.wait_for("chat.postMessage")
    assert posted.body["text"] == replies.SORRY and posted.body["thread_ts"] == event["ts"]


def test_no_tokens_in_the_log(server, slack):
    """The server's log never shows the bot token, the signing secret or a verification token."""
    slack.post(slack.slash("help"))
    slack.post(slack.slash("help"), signed=False)
    log = server.logged()
    assert log and BOT_TOKEN not in log and SIGNING_SECRET not in log
    assert "legacy-verification-token" not in log  # bolt logs bodies of unsigned requests


# -- starting up ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("settings", "named"),
    [
        ({"SLACK_BOT_TOKEN": BOT_TOKEN}, "SLACK_SIGNING_SECRET"),
        ({"SLACK_SIGNING_SECRET": "s"}, "SLACK_BOT_TOKEN"),
        ({"SLACK_BOT_TOKEN": BOT_TOKEN, "SLACK_APP_TOKEN": "xoxb-wrong"}, "SLACK_APP_TOKEN"),
        (
            {
                "SLACK_BOT_TOKEN": BOT_TOKEN,
                "SLACK_SIGNING_SECRET": "s",
                "SLACK_CLIENT_ID": "1",
                "SLACK_CLIENT_SECRET": "2",
            },
            "SLACK_CLIENT_ID",
        ),
    ],
    ids=["no-secret", "no-token", "bad-app-token", "oauth-leak"],
)
def test_bad_settings_stop_serve_before_it_listens(tmp_path, settings, named):
    """Missing or contradictory settings: exit 1 naming the variable; the port was never bound."""
    port = free_port()
    env = slack_env(
        TUTOR_DB=str(tmp_path / "t.db"), SLACK_API_URL="http://127.0.0.1:9/", **settings
    )
    result = subprocess.run(
        [sys.executable, "-m", "bot", "serve", "--port", str(port)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 1 and named in result.stderr
    assert BOT_TOKEN not in result.stderr + result.stdout
    assert list(tmp_path.iterdir()) == []  # not even the database was created


def test_shipped_content_answers_no_code_training_with_automl(tmp_path, stub):
    """Against the shipped knowledge/: /tutor which service for no-code training → AutoML."""
    server = start(tmp_path, stub.url, workers=1)
    try:
        slack = SlackRequests(server.url, SIGNING_SECRET, response_url=stub.response_url)
        sent = slack.post(slack.slash("which service for no-code training"))
        assert sent.status == 200 and "AutoML" in sent.json()["text"].split("\n")[0]
    finally:
        server.stop()
