"""The bolt app: built by `create_app`, wired by `register`. No logic lives here.

`process_before_response=True`: bolt then returns each ack as soon as the ack function returns,
instead of polling for it every 10 ms (the default mode's cost, measured in bench/). Slash commands
are answered in the ack body; everything that calls Slack's Web API is a lazy listener, which on a
long-running server runs on bolt's thread pool after the ack.
"""

from __future__ import annotations

import datetime as dt

from slack_bolt import App
from slack_sdk import WebClient
from slack_sdk.http_retry import ConnectionErrorRetryHandler, RateLimitErrorRetryHandler

from bot.config import Settings
from bot.slack import daily as daily_slack
from bot.slack import handlers
from bot.slack.blocks import ANSWER, QUIZ_ON_ENTRY, SHOW_ENTRY
from bot.slack.handlers import Clock
from bot.slack.middleware import guarded, once_per_event, provide
from bot.tutor import Tutor

COMMAND = "/tutor"


def utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def web_client(settings: Settings, *, timeout: int = 30) -> WebClient:
    """Slack's Web API at `settings.api_url`; 429s wait for Retry-After and try again."""
    return WebClient(
        token=settings.bot_token,
        base_url=settings.api_url,
        timeout=timeout,
        retry_handlers=[
            ConnectionErrorRetryHandler(),
            RateLimitErrorRetryHandler(max_retry_count=2),
        ],
    )


def create_app(
    settings: Settings, tutor: Tutor, client: WebClient | None = None, *, clock: Clock = utc_now
) -> App:
    """The whole Slack app over one tutor.

    Building it calls no Web API: bolt asks auth.test for the bot's own ids on the first request
    that needs them, so a server whose Slack is unreachable at start still boots (`SlackLink`).
    """
    app = App(
        client=client or web_client(settings),
        signing_secret=settings.signing_secret,
        request_verification_enabled=not settings.socket_mode,
        token_verification_enabled=False,
        process_before_response=True,
    )
    register(app, tutor, clock)
    app.use(daily_slack.provide_daily(tutor, app.client, settings.admins))
    return app


def register(app: App, tutor: Tutor, clock: Clock = utc_now) -> None:
    """Every id the app answers to, mapped to its handler."""
    app.use(provide(tutor, clock))
    app.use(once_per_event(tutor.store, clock))
    app.error(handlers.on_error)

    # Daily commands call users.info, so they are answered after the ack; a matcher routes them,
    # so other commands pay for no lazy listener (bolt deep-copies the request for each one).
    app.command(COMMAND, matchers=[daily_slack.wants_daily])(
        ack=handlers.ack_now, lazy=[guarded(daily_slack.slash_command)]
    )
    app.command(COMMAND)(handlers.slash_command)

    later = handlers.ack_now
    app.event("app_mention")(ack=later, lazy=[guarded(handlers.mention)])
    app.event("message", matchers=[handlers.is_direct_message])(
        ack=later, lazy=[guarded(handlers.direct_message)]
    )
    app.event("message")(handlers.ignore)  # edits, deletes, joins, bots: 200, no reply
    app.event("app_home_opened", matchers=[handlers.is_home_tab])(
        ack=later, lazy=[guarded(handlers.home_opened)]
    )
    app.event("app_home_opened")(handlers.ignore)  # the Messages tab

    # A click is recorded in the ack itself (durable, then ack); feedback follows it.
    app.action(ANSWER)(ack=handlers.answer_click, lazy=[guarded(handlers.click_feedback)])
    app.action(SHOW_ENTRY)(ack=later, lazy=[guarded(handlers.show_entry)])
    app.action(QUIZ_ON_ENTRY)(ack=later, lazy=[guarded(handlers.quiz_on_entry)])
