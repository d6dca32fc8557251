"""Slack listeners for mock exams (`/tutor mock`, answer clicks, Resume and Discard).

Every decision and write happens before the ack, as for quiz clicks; the Web API work follows
it (`bot.slack.mock_dm`: the mock lives in one DM message, updated per answer). A click on an
older message of the mock, or on a question already answered, changes nothing and says why.
"""

from __future__ import annotations

from slack_bolt import Ack, BoltContext, Respond
from slack_sdk import WebClient

from bot.conversation import Place, Verb, handle
from bot.mock import MockDone, MockRefused, MockResult, MockShown
from bot.mock_exams import MockExams
from bot.mock_replies import render_mock
from bot.slack.blocks import lines, read_answer_value
from bot.slack.handlers import Services, hand_on, handed, parsed, render
from bot.slack.mock_blocks import IN_DM, MOCK_DISCARD, shown
from bot.slack.mock_dm import deliver, goes_to_dm, post_result


def is_mock(command: dict) -> bool:
    """/tutor mock …, and letters (they may answer a mock's question): answered by this module."""
    return parsed(command.get("text", "")).verb in (Verb.MOCK, Verb.ANSWER)


def mock_command(ack: Ack, command: dict, context: BoltContext, services: Services) -> None:
    """/tutor mock …: decided and saved before the ack; the question reaches the DM after it."""
    channel = command.get("channel_id", "")
    user = command["user_id"]
    place = Place(_team(context), user, channel, channel.startswith("D"), services.is_admin(user))
    result = handle(services.tutor, parsed(command.get("text", "")), place, services.clock())
    hand_on(context, "mock", result)
    said = lines([IN_DM]) if goes_to_dm(result) else render(result)
    ack(**said.as_kwargs(), response_type="ephemeral")


def mock_to_dm(command: dict, client: WebClient, context: BoltContext, services: Services) -> None:
    """After the ack: a mock's question or result goes to the DM."""
    deliver(client, services.tutor, handed(context, "mock"), user=command["user_id"])


# -- buttons ------------------------------------------------------------------------------------


def mock_click(
    ack: Ack, action: dict, body: dict, context: BoltContext, services: Services
) -> None:
    """An answer to a mock's question, recorded before the ack (acknowledged means saved)."""
    value = read_answer_value(action.get("value", ""))
    container = body.get("container") or {}
    result: MockResult = MockRefused("unknown")
    if value:
        result = MockExams(services.tutor).answer(
            post_id=value[0],
            user=body["user"]["id"],
            team=_team(context),
            choice=value[1],
            now=services.clock(),
            shown_in=container.get("message_ts"),
        )
    hand_on(context, "mock", result)
    ack()


def mock_click_after(
    body: dict, client: WebClient, respond: Respond, context: BoltContext, services: Services
) -> None:
    """After the ack: the next question (or the result) replaces the message; a refusal is said
    privately and leaves the message as it was."""
    result = handed(context, "mock")
    container = body.get("container") or {}
    channel, ts = container.get("channel_id", ""), container.get("message_ts", "")
    if isinstance(result, MockShown):
        client.chat_update(channel=channel, ts=ts, **shown(result).as_kwargs())
    elif isinstance(result, MockDone):
        post_result(client, result, channel=channel, ts=ts)
    else:
        said = lines(render_mock(result or MockRefused("unknown")))
        respond(**said.as_kwargs(), response_type="ephemeral", replace_original=False)


def mock_choice(
    ack: Ack, action: dict, body: dict, context: BoltContext, services: Services
) -> None:
    """Resume or Discard on the offer: done before the ack."""
    mocks, user = MockExams(services.tutor), body["user"]["id"]
    choose = mocks.discard if action.get("action_id") == MOCK_DISCARD else mocks.resume
    hand_on(context, "mock", choose(team=_team(context), user=user, now=services.clock()))
    ack()


def mock_choice_after(
    body: dict, client: WebClient, respond: Respond, context: BoltContext, services: Services
) -> None:
    """The offer is replaced by what happened; a resumed mock goes on in the DM."""
    result = handed(context, "mock")
    if goes_to_dm(result):
        deliver(client, services.tutor, result, user=body["user"]["id"])
        said = lines([IN_DM])
    else:
        said = lines(render_mock(result or MockRefused("unknown")))
    respond(**said.as_kwargs(), response_type="ephemeral", replace_original=True)


def _team(context: BoltContext) -> str:
    return context.team_id or context.enterprise_id or ""
