"""Slack listeners: plain functions that bolt calls with the arguments they name.

They only translate: a payload becomes a command, a place and a time for the conversation core
(`bot.conversation`), and its result becomes Block Kit (`bot.slack.blocks.render`). Slash
commands are answered in the ack body (quick, local work); everything that calls Slack's Web API
runs as a lazy listener, after the ack. What they share reaches them as `services` (see
`middleware.provide`).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from slack_bolt import Ack, BoltContext, BoltResponse, Respond, Say
from slack_sdk import WebClient
from slack_sdk.errors import SlackClientError

from bot import replies
from bot.conversation import (
    Command,
    Place,
    ReadyShown,
    Result,
    StatsShown,
    Verb,
    handle,
    is_shared,
    parse,
)
from bot.mock import MOCK_RESULTS
from bot.slack import blocks, charts, mock_blocks, mock_dm
from bot.slack.blocks import Message
from bot.slack.followup import HomeRefresher
from bot.slack.poster import DisplayNames
from bot.slack.text import neutral
from bot.standings import Standings
from bot.tutor import Graded, Reported, Tutor

Clock = Callable[[], dt.datetime]
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Services:
    """What every listener shares: the tutor, the clock, display names and the admin list.

    bolt deep-copies a request's context for each lazy listener; one shared instance is what
    listeners need (the catalog is large and the store is per thread anyway), so copying it
    returns it.
    """

    tutor: Tutor
    clock: Clock
    names: DisplayNames
    admins: tuple[str, ...] = ()
    homes: HomeRefresher | None = None  # None: a click refreshes App Home itself (tests)
    curator_channel: str = ""  # TUTOR_CURATOR_CHANNEL: where new reports are posted

    def __deepcopy__(self, memo: dict) -> Services:
        return self

    def is_admin(self, user: str) -> Callable[[], bool]:
        """Asked only when a command needs it: TUTOR_ADMINS, else users.info."""
        return lambda: self.names.is_admin(user, self.admins)


@dataclass(frozen=True)
class Handed:
    """A value an ack listener hands on to its lazy listener in `context` (`hand_on`).

    bolt deep-copies a request's context for each lazy listener, twice, before the ack goes
    out; what is handed on is immutable (frozen results over the shared catalog), so the copies
    share it: copying a graded click's question and entries cost more than the rest of its ack.
    """

    value: Any

    def __deepcopy__(self, memo: dict) -> Handed:
        return self


def hand_on(context: BoltContext, name: str, value: object) -> None:
    context[name] = Handed(value)


def handed(context: BoltContext, name: str) -> Any:
    """What the ack listener handed on under `name` (`hand_on`), or None."""
    kept = context.get(name)
    return kept.value if isinstance(kept, Handed) else None


@dataclass(frozen=True)
class Reply:
    """A message, and whether it is fit for others to see (else only the person who asked)."""

    message: Message
    shared: bool = False
    result: Result | None = None


def render(result: Result) -> Message:
    """A result as Block Kit; a mock exam's with its own buttons (`bot.slack.mock_blocks`)."""
    if isinstance(result, MOCK_RESULTS):
        return mock_blocks.render_mock(result)
    return blocks.render(result)


def converse(
    text: str,
    services: Services,
    *,
    team: str,
    user: str,
    channel: str,
    private: bool = False,
    client: WebClient | None = None,
) -> Reply:
    """One turn from a line of text: the same core for /tutor, mentions and DMs.

    With a `client` (after the ack), `stats` and `ready` also show the learner's charts.
    """
    place = Place(team, user, channel, private, services.is_admin(user))
    now = services.clock()
    result = handle(services.tutor, parsed(text), place, now)
    message = render(result)
    if client is not None and isinstance(result, StatsShown | ReadyShown):
        pictures = charts.chart_blocks(
            client, services.tutor.store, now, team=team, user=user, stats=result.stats
        )
        message = blocks.with_pictures(message, pictures)
    return Reply(message, is_shared(result), result)


# -- /tutor -----------------------------------------------------------------------------------


def slash_command(ack: Ack, command: dict, context: BoltContext, services: Services) -> None:
    """/tutor …: answered in the ack body, privately (legal for quick answers, and the fastest)."""
    reply = _slash(command, context, services)
    ack(**reply.message.as_kwargs(), response_type="ephemeral")


def needs_admin(command: dict) -> bool:
    """For routing: a /tutor that asks users.info whether the person is an admin goes lazy."""
    return parsed(command.get("text", "")).needs_admin


@functools.lru_cache(maxsize=64)
def parsed(text: str) -> Command:
    """`parse`, remembered: routing a /tutor asks what its text means up to three times."""
    return parse(text)


def slash_later(command: dict, context: BoltContext, respond: Respond, services: Services) -> None:
    """/tutor schedule … and gaps, after the ack: the admin check may call users.info."""
    reply = _slash(command, context, services)
    kind = "in_channel" if reply.shared else "ephemeral"
    respond(**reply.message.as_kwargs(), response_type=kind)


def shows_charts(command: dict) -> bool:
    """For routing: /tutor stats and ready upload charts, so they are answered after the ack."""
    return parsed(command.get("text", "")).verb in (Verb.STATS, Verb.READY)


def slash_charted(
    command: dict, context: BoltContext, respond: Respond, client: WebClient, services: Services
) -> None:
    """/tutor stats and ready, after the ack: the words and the learner's charts."""
    reply = _slash(command, context, services, client)
    respond(**reply.message.as_kwargs(), response_type="ephemeral")


def _slash(
    command: dict, context: BoltContext, services: Services, client: WebClient | None = None
) -> Reply:
    channel = command.get("channel_id", "")
    return converse(
        command.get("text", ""),
        services,
        team=_team(context),
        user=command["user_id"],
        channel=channel,
        private=channel.startswith("D"),
        client=client,
    )


# -- events (lazy) ----------------------------------------------------------------------------


def mention(
    event: dict, say: Say, client: WebClient, context: BoltContext, services: Services
) -> None:
    """@Study Tutor in a channel: answers in the thread; quiz, stats and the rest privately."""
    thread = event.get("thread_ts") or event["ts"]
    user, channel = event["user"], event["channel"]
    reply = converse(
        event.get("text", ""),
        services,
        team=_team(context),
        user=user,
        channel=channel,
        client=client,
    )
    if mock_dm.goes_to_dm(reply.result):  # a mock exam goes on in the DM with the app
        mock_dm.deliver(client, services.tutor, reply.result, user=user)
        reply = Reply(blocks.lines([mock_blocks.IN_DM]))
    if reply.shared:
        say(**reply.message.as_kwargs(), thread_ts=thread)
    else:
        client.chat_postEphemeral(
            channel=channel, user=user, thread_ts=thread, **reply.message.as_kwargs()
        )


def direct_message(
    event: dict,
    say: Say,
    context: BoltContext,
    services: Services,
    client: WebClient | None = None,
) -> None:
    """A DM to the bot: answered in the DM (a mock's question as the mock's message)."""
    reply = converse(
        event.get("text", ""),
        services,
        team=_team(context),
        user=event["user"],
        channel=event["channel"],
        private=True,
        client=client,
    )
    if client is not None and mock_dm.goes_to_dm(reply.result):
        mock_dm.deliver(client, services.tutor, reply.result, user=event["user"])
        return
    say(**reply.message.as_kwargs())


def is_direct_message(event: dict) -> bool:
    """A person's new DM: not an edit, delete, join or bot post (ours are dropped by bolt)."""
    return (
        event.get("channel_type") == "im" and not event.get("subtype") and not event.get("bot_id")
    )


def home_opened(event: dict, client: WebClient, context: BoltContext, services: Services) -> None:
    """App Home: the learner's stats and the workspace's board, fresh each time the tab opens."""
    publish_home(client, services, team=_team(context), user=event["user"])


def publish_home(
    client: WebClient, services: Services, *, team: str, user: str, fresh: bool = True
) -> None:
    """The learner's stats, readiness, plan and charts, and the workspace's week.

    `fresh=False` (after an answer) reuses the charts last uploaded; opening the tab redraws
    those whose data changed.
    """
    now, tutor = services.clock(), services.tutor
    stats = tutor.stats(team=team, user=user, now=now)
    board = Standings(tutor.store).board(team=team, now=now)
    pictures = charts.chart_blocks(
        client, tutor.store, now, team=team, user=user, stats=stats, fresh=fresh
    )
    client.views_publish(user_id=user, view=blocks.home(stats, board, pictures))


def is_home_tab(event: dict) -> bool:
    return event.get("tab") == "home"


def ignore() -> None:
    """Events we receive but do not answer (edits, deletes, joins, the Messages tab): just 200."""


def ack_now(ack: Ack) -> None:
    ack()


# -- buttons ----------------------------------------------------------------------------------


def answer_click(
    ack: Ack, action: dict, body: dict, context: BoltContext, services: Services
) -> None:
    """A quiz choice, graded and committed before the ack: acknowledged means saved.

    Only the Web API work (the feedback, App Home) waits for `click_feedback`, after the ack;
    the grade reaches it through context. The first click counts; a click on a question that is
    not the clicker's, or that was posted in another channel or workspace, records nothing.
    """
    value = blocks.read_answer_value(action.get("value", ""))
    graded = value and services.tutor.answer(
        post_id=value[0],
        user=body["user"]["id"],
        choice=value[1],
        now=services.clock(),
        team=_team(context),
        channel=_channel(body),
    )
    hand_on(context, "graded", graded or None)
    hand_on(context, "post_id", value[0] if value else None)
    ack()


def click_feedback(
    body: dict, respond: Respond, client: WebClient, context: BoltContext, services: Services
) -> None:
    """After the ack: tell the clicker, privately, why; a recorded answer refreshes App Home.

    A private question's message is replaced by itself without buttons and the feedback (no
    second answer from it); a channel's question stays as it is and the feedback comes apart.
    """
    graded: Graded | None = handed(context, "graded")
    user = body["user"]["id"]
    post_id = handed(context, "post_id")
    post = services.tutor.store.post(post_id) if post_id is not None else None
    if graded is None:
        said, replace = blocks.lines([replies.UNKNOWN_POST]), False
    elif post and graded.status == "recorded" and post.kind == "private":
        said, replace = blocks.answered(post.id, graded), True
    else:
        said, replace = blocks.feedback(graded, post.id if post else None), False
    sent = respond(**said.as_kwargs(), response_type="ephemeral", replace_original=replace)
    if sent.status_code != 200:
        log.warning(
            "Feedback on an answer click (%s) was not delivered: response_url answered %s",
            (body.get("actions") or [{}])[0].get("value", ""),
            sent.status_code,
        )
    if graded and graded.status == "recorded":
        if services.homes is None:
            refresh_home(client, services, team=_team(context), user=user)
        else:  # debounced, on the refresher's own threads: feedback never waits for Home
            services.homes.request(client, team=_team(context), user=user)


def quiz_more(
    action: dict, body: dict, context: BoltContext, respond: Respond, services: Services
) -> None:
    """ "More": the other choices and the source, only to someone who answered that question."""
    value = action.get("value", "")
    number = value.isascii() and value.isdigit() and len(value) <= 18  # fits SQLite's INTEGER
    post = services.tutor.store.post(int(value)) if number else None
    user = body["user"]["id"]
    chosen = services.tutor.store.answer_of(post.id, user) if post else None
    question = services.tutor.catalog.questions.get(post.question_id) if post else None
    if post is None or post.team != _team(context) or chosen is None or question is None:
        said = blocks.lines([replies.NOTHING_MORE])
    elif post.waits_for_reveal(services.clock()):
        said = blocks.lines([replies.DAILY_WAITS])
    else:
        said = blocks.lines(replies.more_lines(question, chosen))
    respond(**said.as_kwargs(), response_type="ephemeral", replace_original=False)


def refresh_home(client: WebClient, services: Services, *, team: str, user: str) -> None:
    """Publish App Home after an answer; a failure is logged, never shown to the learner."""
    try:
        publish_home(client, services, team=team, user=user, fresh=False)
    except SlackClientError as failure:  # Home may be off or not opened yet: feedback matters
        log.warning("Could not refresh App Home (%s)", type(failure).__name__)


def show_entry(action: dict, respond: Respond, services: Services) -> None:
    """A "did you mean" pick: show that entry."""
    tutor = services.tutor
    found = tutor.entry(action.get("value", ""))
    if found is None:
        said = blocks.lines([replies.DONT_KNOW])
    else:
        quizzable = bool(tutor.catalog.questions.about(found.id))
        said = blocks.entry(found, tutor.entry, quizzable=quizzable)
    respond(**said.as_kwargs(), response_type="ephemeral", replace_original=False)


def quiz_on_entry(
    action: dict, body: dict, context: BoltContext, respond: Respond, services: Services
) -> None:
    """ "Quiz me on this": a private question about the entry just shown."""
    asked = services.tutor.quiz(
        team=_team(context),
        user=body["user"]["id"],
        channel=_channel(body),
        now=services.clock(),
        entry_id=action.get("value") or None,
    )
    said = blocks.question(asked.post.id, asked.question)
    respond(**said.as_kwargs(), response_type="ephemeral", replace_original=False)


# -- reports and ratings ------------------------------------------------------------------------


def rate_click(
    ack: Ack, action: dict, body: dict, context: BoltContext, services: Services
) -> None:
    """👍/👎 on an answer, kept before the ack; the thanks follows it (`rate_thanks`)."""
    reported = services.tutor.report(
        team=_team(context),
        user=body["user"]["id"],
        kind="entry",
        item=action.get("value", ""),
        reason="up" if action.get("action_id") == "rate_up" else "down",
        now=services.clock(),
    )
    hand_on(context, "reported", reported)
    ack()


def rate_thanks(respond: Respond, context: BoltContext) -> None:
    reported: Reported | None = handed(context, "reported")
    said = replies.thanks(reported) if reported else replies.UNKNOWN_SUBJECT
    respond(**blocks.lines([said]).as_kwargs(), response_type="ephemeral", replace_original=False)


def open_report(
    action: dict, body: dict, client: WebClient, respond: Respond, services: Services
) -> None:
    """The report modal, asking what is wrong (views.open needs the click's trigger)."""
    value = action.get("value", "")
    subject = blocks.read_subject(value)
    name = services.tutor.subject_name(*subject) if subject else None
    if name is None:
        said = blocks.lines([replies.UNKNOWN_SUBJECT])
        respond(**said.as_kwargs(), response_type="ephemeral", replace_original=False)
        return
    client.views_open(trigger_id=body["trigger_id"], view=blocks.report_modal(value, name))


def report_submit(
    ack: Ack, body: dict, view: dict, context: BoltContext, services: Services
) -> None:
    """The modal sent: the report is kept before the ack, which thanks the reporter in the modal."""
    subject = blocks.read_subject(view.get("private_metadata", ""))
    reason, comment = blocks.read_report(view)
    reported = subject and services.tutor.report(
        team=_team(context),
        user=body["user"]["id"],
        kind=subject[0],
        item=subject[1],
        reason=reason,
        comment=comment,
        now=services.clock(),
    )
    hand_on(context, "reported", reported or None)
    said = replies.thanks(reported) if reported else replies.UNKNOWN_SUBJECT
    ack(response_action="update", view=blocks.report_thanks(said))


def tell_curators(client: WebClient, context: BoltContext, services: Services) -> None:
    """After the ack: a new report goes to TUTOR_CURATOR_CHANNEL, when one is set."""
    reported: Reported | None = handed(context, "reported")
    if not (reported and services.curator_channel):
        return
    shown = dataclasses.replace(reported, comment=neutral(reported.comment))  # styles nothing
    said = blocks.lines(replies.curator_lines(shown))
    try:
        client.chat_postMessage(channel=services.curator_channel, **said.as_kwargs())
    except SlackClientError as failure:  # the report is kept; `tutor flags` still shows it
        log.warning(
            "Could not post a report to TUTOR_CURATOR_CHANNEL %s (%s); invite the bot there "
            "with /invite @Study Tutor",
            services.curator_channel,
            _slack_error(failure),
        )


# -- errors -----------------------------------------------------------------------------------


def on_error(
    error: Exception,
    body: dict,
    logger: logging.Logger,
    respond: Respond | None,
    say: Say | None,
    response: BoltResponse | None = None,
) -> BoltResponse | None:
    """The one error handler: the traceback to the log, a short apology to the person.

    A slash command is still waiting for its ack, so it gets the apology as the ack body (200);
    anything else gets it through response_url or in the conversation.
    """
    logger.error("A Slack listener failed", exc_info=error)
    if body.get("command") and response is not None:
        apology = json.dumps({"response_type": "ephemeral", "text": replies.SORRY})
        return BoltResponse(status=200, body=apology, headers={"content-type": "application/json"})
    event = body.get("event") or {}
    try:
        if respond is not None and body.get("response_url"):
            respond(text=replies.SORRY, response_type="ephemeral", replace_original=False)
        elif say is not None:
            say(text=replies.SORRY, thread_ts=event.get("thread_ts") or event.get("ts"))
    except (SlackClientError, OSError) as failure:
        logger.warning("Could not send the apology either (%s)", type(failure).__name__)
    return None


def _slack_error(failure: SlackClientError) -> str:
    """Slack's error code (`not_in_channel`), else the failure's kind; never a token."""
    response = getattr(failure, "response", None)
    code = response.get("error") if response is not None else None
    return str(code or type(failure).__name__)


def _team(context: BoltContext) -> str:
    return context.team_id or context.enterprise_id or ""


def _channel(body: dict) -> str:
    """The channel an interaction happened in (a DM's id too); empty when Slack sent none."""
    channel = (body.get("channel") or {}).get("id")
    return str(channel or (body.get("container") or {}).get("channel_id") or "")
