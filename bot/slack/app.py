"""The bolt app: built by `create_app`, wired by `register`. No logic lives here.

`process_before_response=True`: bolt then returns each ack as soon as the ack function returns,
instead of polling for it every 10 ms (the default mode's cost, measured in bench/). Slash commands
are answered in the ack body; everything that calls Slack's Web API is a lazy listener, which on a
long-running server runs after the ack on a bounded pool (`bot.slack.followup`); App Home is
refreshed after answers by a debounced refresher of its own, so feedback never waits for it.
"""

from __future__ import annotations

import datetime as dt
import logging

from slack_bolt import App
from slack_bolt.logger.messages import warning_client_prioritized_and_token_skipped
from slack_sdk import WebClient

from bot.config import Settings
from bot.slack import handlers, mock_handlers
from bot.slack.blocks import (
    ANSWER,
    MORE,
    QUIZ_MORE,
    QUIZ_ON_ENTRY,
    RATE,
    REPORT,
    REPORT_VIEW,
    SHOW_ENTRY,
)
from bot.slack.client import web_client
from bot.slack.followup import BoundedExecutor, HomeRefresher
from bot.slack.handlers import Clock, Services
from bot.slack.middleware import OncePerEvent, Only, Provide, guarded
from bot.slack.mock_blocks import MOCK_ANSWER, MOCK_DISCARD, MOCK_RESUME
from bot.slack.poster import DisplayNames
from bot.tutor import Tutor

COMMAND = "/tutor"


def utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def create_app(
    settings: Settings,
    tutor: Tutor,
    client: WebClient | None = None,
    *,
    clock: Clock = utc_now,
    gated: bool = False,
) -> App:
    """The whole Slack app over one tutor.

    Building it calls no Web API: bolt asks auth.test for the bot's own ids on the first request
    that needs them, so a server whose Slack is unreachable at start still boots (`SlackLink`).
    `gated`: requests reach it only through `serve.guarded_wsgi`, whose gate has checked their
    signature already, so bolt does not check it again (nor does it in Socket Mode: no signature).
    """
    after_ack = BoundedExecutor()  # bounded threads and queue: bot.slack.followup
    quiet_token_notice()
    app = App(
        client=client or web_client(settings),
        signing_secret=settings.signing_secret,
        request_verification_enabled=not (settings.socket_mode or gated),
        token_verification_enabled=False,
        process_before_response=True,
        listener_executor=after_ack,
    )

    def refresh(web: WebClient, team: str, user: str) -> None:
        handlers.refresh_home(web, services, team=team, user=user)

    homes = HomeRefresher(refresh, busy=after_ack.busy)  # feedback goes first
    services = Services(
        tutor,
        clock,
        DisplayNames(app.client),
        settings.admins,
        homes=homes,
        curator_channel=settings.curator_channel,
    )
    register(app, services)
    tutor.matcher  # noqa: B018 - built now, not while the first /tutor question waits
    return app


class _TokenNotice(logging.Filter):
    """bolt reads SLACK_BOT_TOKEN itself and, since we hand it a client made from that same
    token, warns that the token is unused: true, harmless, and it looks like a misconfiguration."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.getMessage() != warning_client_prioritized_and_token_skipped()


def quiet_token_notice() -> None:
    bolt = logging.getLogger("slack_bolt.App")
    if not any(isinstance(f, _TokenNotice) for f in bolt.filters):
        bolt.addFilter(_TokenNotice())


def in_ack(command: dict) -> bool:
    """A /tutor answered in the ack body (`handlers.slash_command`): neither a mock's (nor a
    letter's), nor one that asks whether the person is an admin, nor one that uploads charts."""
    return not (
        mock_handlers.is_mock(command)
        or handlers.needs_admin(command)
        or handlers.shows_charts(command)
    )


def register(app: App, services: Services) -> None:
    """Every id the app answers to, mapped to its handler: the whole wiring."""
    app.use(Provide(services))
    app.use(OncePerEvent(services.tutor.store, services.clock))
    app.error(handlers.on_error)

    # bolt tries listeners in the order they are registered, each try costing about as much as
    # bare bolt's whole ack (it builds every argument a listener could ask for), so the two
    # most frequent requests come first: a /tutor question, then a quiz click.
    # Each /tutor goes to one of four listeners, by its words (`Only`; they exclude each other).
    # Answered in the ack unless it may ask users.info (is this person an admin?): then after
    # it, so other commands pay for no lazy listener. A mock (and a letter, which may answer
    # one) is decided in the ack; its DM message follows. Stats and ready upload charts: after.
    app.command(COMMAND, middleware=[Only(in_ack)])(handlers.slash_command)
    # A click is recorded in the ack itself (durable, then ack); feedback follows it.
    app.action(ANSWER)(ack=handlers.answer_click, lazy=[guarded(handlers.click_feedback)])
    app.command(COMMAND, middleware=[Only(mock_handlers.is_mock)])(
        ack=mock_handlers.mock_command, lazy=[guarded(mock_handlers.mock_to_dm)]
    )
    app.command(COMMAND, middleware=[Only(handlers.needs_admin)])(
        ack=handlers.ack_now, lazy=[guarded(handlers.slash_later)]
    )
    app.command(COMMAND, middleware=[Only(handlers.shows_charts)])(
        ack=handlers.ack_now, lazy=[guarded(handlers.slash_charted)]
    )

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

    app.action(SHOW_ENTRY)(ack=later, lazy=[guarded(handlers.show_entry)])
    app.action(MOCK_ANSWER)(
        ack=mock_handlers.mock_click, lazy=[guarded(mock_handlers.mock_click_after)]
    )
    for choice in (MOCK_RESUME, MOCK_DISCARD):
        app.action(choice)(
            ack=mock_handlers.mock_choice, lazy=[guarded(mock_handlers.mock_choice_after)]
        )
    app.action(QUIZ_ON_ENTRY)(ack=later, lazy=[guarded(handlers.quiz_on_entry)])
    app.action(QUIZ_MORE)(ack=later, lazy=[guarded(handlers.quiz_more)])
    app.action(MORE)(ack=later, lazy=[guarded(handlers.show_entry)])

    # Reports and ratings are kept before the ack too; the thanks and the curators' note follow.
    app.action(RATE)(ack=handlers.rate_click, lazy=[guarded(handlers.rate_thanks)])
    app.action(REPORT)(ack=later, lazy=[guarded(handlers.open_report)])
    app.view(REPORT_VIEW)(ack=handlers.report_submit, lazy=[guarded(handlers.tell_curators)])
