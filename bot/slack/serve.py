"""`tutor serve`: Socket Mode when SLACK_APP_TOKEN is set, otherwise HTTP under gunicorn.

Everything that can be wrong (settings, content) is checked before listening, so a bad start
exits with `Error: …` instead of failing the first request from Slack.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
from collections.abc import Callable, Iterable

from gunicorn.app.base import BaseApplication
from slack_bolt.adapter.socket_mode import SocketModeHandler
from slack_bolt.adapter.wsgi import SlackRequestHandler
from slack_sdk import WebClient

from bot.catalog import Catalog, load_catalog
from bot.config import Settings
from bot.daily import Daily
from bot.scores import Store
from bot.slack.app import create_app, utc_now
from bot.slack.daily import start_scheduler
from bot.tutor import Tutor

EVENTS_PATH = "/slack/events"  # events, slash commands and interactivity all come here
HEALTH_PATH = "/healthz"

WsgiApp = Callable[[dict, Callable], Iterable[bytes]]
# Slack tokens, and `token` fields (bolt logs the body of a request whose signature fails).
_TOKENS = re.compile(r"xox[a-z]-[\w-]+|xapp-[\w-]+|(?<=token=)[^&\s]+|(?<=\"token\": \")[^\"]+")
log = logging.getLogger("bot.slack")


def serve(settings: Settings, port: int | None = None) -> int:
    """Run until stopped. Raises ConfigError or ContentError before listening."""
    settings.check_for_slack()
    catalog = load_catalog(settings.content_root)
    Store(settings.db_path).forget_events(
        utc_now() - dt.timedelta(days=1)
    )  # retries stop in minutes
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    for handler in logging.getLogger().handlers:
        handler.addFilter(redact_tokens)
    if settings.socket_mode:
        tutor = Tutor(catalog, Store(settings.db_path))
        app = create_app(settings, tutor)
        start_scheduler(Daily(tutor), app.client, utc_now)
        handler = SocketModeHandler(
            app, settings.app_token, web_client=WebClient(base_url=settings.api_url)
        )
        log.info("Study Tutor: Socket Mode")
        handler.start()
        return 0
    options = {
        "bind": f"0.0.0.0:{port or settings.port}",
        "worker_class": "gthread",
        "threads": 8,
        "graceful_timeout": 10,
        "errorlog": "-",
    }
    Server(lambda: http_app(settings, catalog), options).run()
    return 0


def http_app(settings: Settings, catalog: Catalog) -> WsgiApp:
    """The WSGI app for one gunicorn worker: its own store connection and bolt app."""
    tutor = Tutor(catalog, Store(settings.db_path))
    app = create_app(settings, tutor)
    bolt = SlackRequestHandler(app, path=EVENTS_PATH)
    # Every worker runs the daily scheduler, started after the fork (threads do not survive
    # one); the ledger keeps posts and reveals to one per channel and local date.
    start_scheduler(Daily(tutor), app.client, utc_now)

    def wsgi(environ: dict, start_response: Callable) -> Iterable[bytes]:
        if environ.get("PATH_INFO") == HEALTH_PATH and environ.get("REQUEST_METHOD") == "GET":
            start_response("200 OK", [("Content-Type", "text/plain")])
            return [b"ok\n"]
        return bolt(environ, start_response)

    return wsgi


def redact_tokens(record: logging.LogRecord) -> bool:
    """A logging filter: whatever is logged, tokens show as [redacted]."""
    message = record.getMessage()
    if _TOKENS.search(message):
        record.msg, record.args = _TOKENS.sub("[redacted]", message), None
    return True


class Server(BaseApplication):
    """gunicorn, run from Python: `load` builds the WSGI app in each worker (after the fork)."""

    def __init__(self, load: Callable[[], WsgiApp], options: dict) -> None:
        self._load, self._options = load, options
        super().__init__()

    def load_config(self) -> None:
        for key, value in self._options.items():
            self.cfg.set(key, value)

    def load(self) -> WsgiApp:
        return self._load()
