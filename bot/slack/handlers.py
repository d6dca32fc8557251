"""Slack listeners: plain functions that bolt calls with the arguments they name.

`tutor` and `clock` reach them through context (see `middleware.provide`). Each one reads the
payload, asks the tutor, and replies. Slash commands are answered in the ack body (quick, local
work); everything that calls Slack's Web API runs as a lazy listener, after the ack.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass

from slack_bolt import Ack, BoltContext, BoltResponse, Respond, Say
from slack_sdk import WebClient
from slack_sdk.errors import SlackClientError

from bot import replies
from bot.commands import parse
from bot.slack import blocks
from bot.slack.blocks import Message
from bot.tutor import PERIODS, Graded, Tutor

Clock = Callable[[], dt.datetime]
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Reply:
    """A message, and whether only the person who asked should see it."""

    message: Message
    private: bool = True


def converse(
    text: str, tutor: Tutor, *, team: str, user: str, channel: str, now: dt.datetime
) -> Reply:
    """One turn, from a line of learner text: the same commands in /tutor, mentions and DMs."""
    command = parse(text)
    where = {"team": team, "user": user}
    if command.verb == "ask":
        return Reply(answer(tutor, command.arg, user=user, now=now), private=False)
    if command.verb == "quiz":
        asked = tutor.quiz(**where, channel=channel, now=now)
        heading = replies.REVIEW if asked.review else ""
        return Reply(blocks.question(asked.post.id, asked.question, heading=heading))
    if command.verb == "answer":
        pending = tutor.pending(**where)
        graded = pending and tutor.answer(
            post_id=pending.post.id, user=user, choice=command.arg, now=now, team=team,
            channel=channel,
        )  # fmt: skip
        said = blocks.feedback(graded) if graded else blocks.lines([replies.NO_PENDING])
        return Reply(said)
    if command.verb == "leaderboard":
        period = command.arg.lower() if command.arg.lower() in PERIODS else "all"
        standings = tutor.leaderboard(team=team, period=period, now=now)
        return Reply(blocks.leaderboard(standings, period))
    if command.verb == "stats":
        return Reply(blocks.stats(tutor.stats(**where, now=now)))
    return Reply(blocks.help_text())


def answer(tutor: Tutor, question: str, *, user: str, now: dt.datetime) -> Message:
    lookup = tutor.ask(question, asker=user, now=now)
    best = lookup.best.entry.id if lookup.best else None
    return blocks.answer(
        lookup, tutor.entry, asked=question, unsure=tutor.unsure(lookup),
        quizzable=bool(best and tutor.catalog.questions.about(best)),
    )  # fmt: skip


# -- /tutor -----------------------------------------------------------------------------------


def slash_command(
    ack: Ack, command: dict, context: BoltContext, tutor: Tutor, clock: Clock
) -> None:
    """/tutor …: answered in the ack body, privately (legal for quick answers, and the fastest)."""
    reply = converse(
        command.get("text", ""), tutor, team=_team(context), user=command["user_id"],
        channel=command.get("channel_id", ""), now=clock(),
    )  # fmt: skip
    ack(**reply.message.as_kwargs(), response_type="ephemeral")


# -- events (lazy) ----------------------------------------------------------------------------


def mention(
    event: dict, say: Say, client: WebClient, context: BoltContext, tutor: Tutor, clock: Clock
) -> None:
    """@Study Tutor in a channel: answers in the thread; quiz, stats and the rest privately."""
    thread = event.get("thread_ts") or event["ts"]
    user, channel = event["user"], event["channel"]
    reply = converse(
        event.get("text", ""), tutor, team=_team(context), user=user, channel=channel, now=clock()
    )
    if reply.private:
        client.chat_postEphemeral(
            channel=channel, user=user, thread_ts=thread, **reply.message.as_kwargs()
        )
    else:
        say(**reply.message.as_kwargs(), thread_ts=thread)


def direct_message(event: dict, say: Say, context: BoltContext, tutor: Tutor, clock: Clock) -> None:
    """A DM to the bot: answered in the DM."""
    reply = converse(
        event.get("text", ""), tutor, team=_team(context), user=event["user"],
        channel=event["channel"], now=clock(),
    )  # fmt: skip
    say(**reply.message.as_kwargs())


def is_direct_message(event: dict) -> bool:
    """A person's new DM: not an edit, delete, join or bot post (ours are dropped by bolt)."""
    return (
        event.get("channel_type") == "im" and not event.get("subtype") and not event.get("bot_id")
    )


def home_opened(
    event: dict, client: WebClient, context: BoltContext, tutor: Tutor, clock: Clock
) -> None:
    """App Home: the learner's stats and the leaderboard, fresh each time the tab opens."""
    publish_home(client, tutor, team=_team(context), user=event["user"], now=clock())


def publish_home(
    client: WebClient, tutor: Tutor, *, team: str, user: str, now: dt.datetime
) -> None:
    view = blocks.home(
        tutor.stats(team=team, user=user, now=now), tutor.leaderboard(team=team, now=now)
    )
    client.views_publish(user_id=user, view=view)


def is_home_tab(event: dict) -> bool:
    return event.get("tab") == "home"


def ignore() -> None:
    """Events we receive but do not answer (edits, deletes, joins, the Messages tab): just 200."""


def ack_now(ack: Ack) -> None:
    ack()


# -- buttons (lazy) ---------------------------------------------------------------------------


def answer_click(
    ack: Ack, action: dict, body: dict, context: BoltContext, tutor: Tutor, clock: Clock
) -> None:
    """A quiz choice, graded and committed before the ack: acknowledged means saved.

    Only the Web API work (the feedback, App Home) waits for `click_feedback`, after the ack;
    the grade reaches it through context. The first click counts; a click on a question that is
    not the clicker's, or that was posted in another channel or workspace, records nothing.
    """
    value = blocks.read_answer_value(action.get("value", ""))
    graded = value and tutor.answer(
        post_id=value[0], user=body["user"]["id"], choice=value[1], now=clock(),
        team=_team(context), channel=_channel(body),
    )  # fmt: skip
    context["graded"] = graded or None
    ack()


def click_feedback(
    body: dict, respond: Respond, client: WebClient, context: BoltContext, tutor: Tutor,
    clock: Clock,
) -> None:  # fmt: skip
    """After the ack: tell the clicker, privately, why; a recorded answer refreshes App Home."""
    graded: Graded | None = context.get("graded")
    user = body["user"]["id"]
    said = blocks.feedback(graded) if graded else blocks.lines([replies.UNKNOWN_POST])
    sent = respond(**said.as_kwargs(), response_type="ephemeral", replace_original=False)
    if sent.status_code != 200:
        log.warning(
            "Feedback on an answer click (%s) was not delivered: response_url answered %s",
            (body.get("actions") or [{}])[0].get("value", ""), sent.status_code,
        )  # fmt: skip
    if graded and graded.status == "recorded":
        try:
            publish_home(client, tutor, team=_team(context), user=user, now=clock())
        except SlackClientError as failure:  # Home may be off or not opened yet: feedback matters
            log.warning("Could not refresh App Home (%s)", type(failure).__name__)


def show_entry(action: dict, respond: Respond, tutor: Tutor) -> None:
    """A "did you mean" pick: show that entry."""
    found = tutor.entry(action.get("value", ""))
    if found is None:
        said = blocks.lines([replies.DONT_KNOW])
    else:
        quizzable = bool(tutor.catalog.questions.about(found.id))
        said = blocks.entry(found, tutor.entry, quizzable=quizzable)
    respond(**said.as_kwargs(), response_type="ephemeral", replace_original=False)


def quiz_on_entry(
    action: dict, body: dict, context: BoltContext, respond: Respond, tutor: Tutor, clock: Clock
) -> None:
    """ "Quiz me on this": a private question about the entry just shown."""
    channel = (body.get("channel") or {}).get("id", "")
    asked = tutor.quiz(
        team=_team(context), user=body["user"]["id"], channel=channel, now=clock(),
        entry_id=action.get("value") or None,
    )  # fmt: skip
    said = blocks.question(asked.post.id, asked.question)
    respond(**said.as_kwargs(), response_type="ephemeral", replace_original=False)


# -- errors -----------------------------------------------------------------------------------


def on_error(
    error: Exception, body: dict, logger: logging.Logger, respond: Respond | None,
    say: Say | None, response: BoltResponse | None = None,
) -> BoltResponse | None:  # fmt: skip
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


def _team(context: BoltContext) -> str:
    return context.team_id or context.enterprise_id or ""


def _channel(body: dict) -> str:
    """The channel an interaction happened in (a DM's id too); empty when Slack sent none."""
    channel = (body.get("channel") or {}).get("id")
    return str(channel or (body.get("container") or {}).get("channel_id") or "")
