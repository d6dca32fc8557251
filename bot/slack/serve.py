"""`tutor serve`: Socket Mode when SLACK_APP_TOKEN is set, otherwise HTTP under gunicorn.

Everything that can be wrong (settings, content, a token Slack rejects) is checked before
listening, so a bad start exits with one `Error: …` line instead of failing the first request
from Slack. Slack being unreachable is not such an error: the server starts, says so once in the
log and on /healthz, and keeps asking (`SlackLink`; in Socket Mode, `SocketMode.run`).

SIGTERM or SIGINT stops either mode gracefully within STOP_SECONDS: no new requests, the ones
in hand acked, the work after their acks finished, then exit 0.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import os
import re
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Executor
from http import HTTPStatus

from gunicorn.app.base import BaseApplication
from gunicorn.arbiter import Arbiter
from slack_bolt import App, BoltRequest, BoltResponse
from slack_bolt.adapter.wsgi.http_response import WsgiHttpResponse
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError, SlackClientError

from bot.catalog import Catalog, load_catalog
from bot.config import Settings
from bot.daily import Daily
from bot.errors import ConfigError
from bot.slack import gate
from bot.slack.app import create_app, utc_now
from bot.slack.client import web_client
from bot.slack.scheduler import start_scheduler
from bot.slack.socket_mode import SocketMode
from bot.store import DailyStore, Store
from bot.tutor import Tutor

EVENTS_PATH = "/slack/events"  # events, slash commands and interactivity all come here
HEALTH_PATH = "/healthz"

WsgiApp = Callable[[dict, Callable], Iterable[bytes]]
# Slack tokens, and `token` fields (bolt logs the body of a request whose signature fails).
_TOKENS = re.compile(r"xox[a-z]-[\w-]+|xapp-[\w-]+|(?<=token=)[^&\s]+|(?<=\"token\": \")[^\"]+")
log = logging.getLogger("bot.slack")
# auth.test errors that mean the token itself is wrong: retrying cannot help.
REJECTED = {"invalid_auth", "not_authed", "account_inactive", "token_revoked", "token_expired"}
RETRY_SECONDS = (1, 2, 5, 10, 30, 60)  # then every 60 s
# From a stop signal to exit: inside the 10 s that docker stop and systemd give before SIGKILL.
STOP_SECONDS = 8


class SlackLink:
    """Whether Slack's Web API has accepted the bot token: checked at start, then retried.

    `check` raises ConfigError when Slack rejects the token; it returns False (and says so once
    in the log) when Slack cannot be reached, so the server starts anyway and `keep_trying`
    asks again in the background until it can.
    """

    def __init__(self, client: WebClient, *, sleep: Callable[[float], None] = time.sleep) -> None:
        self.client, self._sleep = client, sleep
        self.reached = False
        self.last_problem = "not checked yet"
        self.team = ""  # the bot's workspace, once Slack has said (auth.test)

    def check(self) -> bool:
        try:
            answer = self.client.auth_test()
        except SlackApiError as error:
            code = str(error.response.get("error", "")) if error.response else ""
            if code in REJECTED:
                raise ConfigError(
                    f"Slack rejected SLACK_BOT_TOKEN ({code}); copy the Bot User OAuth Token "
                    "(xoxb-…) from Slack app settings → OAuth & Permissions"
                ) from None
            return self._unreachable(code or f"HTTP {error.response.status_code}")
        except (SlackClientError, OSError) as error:
            return self._unreachable(type(error).__name__)
        if not self.reached:
            log.info("Slack's Web API accepted the bot token")
        self.reached, self.last_problem = True, ""
        self.team = str(answer.get("team_id") or "")
        return True

    def _unreachable(self, why: str) -> bool:
        if self.reached or self.last_problem == "not checked yet":
            log.warning(
                "Slack's Web API at %s cannot be reached (%s); serving anyway, retrying",
                self.client.base_url,
                why,
            )
        self.reached, self.last_problem = False, why
        return False

    def keep_trying(self) -> None:
        """Ask again with growing pauses until Slack answers (runs on a daemon thread)."""

        def retry() -> None:
            attempt = 0
            while not self.reached:
                self._sleep(RETRY_SECONDS[min(attempt, len(RETRY_SECONDS) - 1)])
                attempt += 1
                try:
                    self.check()
                except ConfigError as error:
                    log.error("%s", error)
                    return

        if not self.reached:
            threading.Thread(target=retry, name="slack-link", daemon=True).start()

    def health(self) -> dict:
        slack = "reachable" if self.reached else f"unreachable ({self.last_problem}), retrying"
        return {"status": "ok", "slack": slack}


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
    logging.getLogger("apscheduler").setLevel(logging.WARNING)  # "Running job …" every minute
    link = SlackLink(web_client(settings, timeout=10))
    if link.check() and link.team:  # a rejected token stops us here
        adopted = DailyStore(Store(settings.db_path)).adopt_local_schedules(link.team)
        if adopted:
            log.info("%d schedule(s) added without a token now belong to %s", adopted, link.team)
    if settings.socket_mode:
        return serve_socket_mode(settings, catalog)
    port = port or settings.port
    check_port_free(port)
    log.info("Study Tutor: HTTP mode on port %d (%s, %s)", port, EVENTS_PATH, HEALTH_PATH)
    options = {
        "bind": f"0.0.0.0:{port}",
        "worker_class": "gthread",
        "threads": 8,
        "graceful_timeout": STOP_SECONDS,
        "errorlog": "-",
    }
    Server(lambda: http_app(settings, catalog), options).run()
    return 0


def check_port_free(port: int) -> None:
    """One clear line when the port is taken, instead of gunicorn's five retries."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gunicorn binds
        try:
            probe.bind(("0.0.0.0", port))
        except OSError:
            raise ConfigError(
                f"port {port} is already in use by another program; stop it, or give another "
                "port with --port or PORT"
            ) from None


def serve_socket_mode(settings: Settings, catalog: Catalog) -> int:
    """Keep a Socket Mode link until SIGTERM or SIGINT, then stop gracefully (module docstring).

    Raises ConfigError when Slack rejects the app token; Slack being away is retried.
    """
    tutor = Tutor(catalog, Store(settings.db_path))
    app = create_app(settings, tutor)
    scheduler = start_scheduler(Daily(tutor), app.client, utc_now)
    socket_mode = SocketMode(
        app, settings.app_token, WebClient(base_url=settings.api_url, timeout=5)
    )
    signals = on_stop_signals(socket_mode.stop)
    log.info("Study Tutor: Socket Mode")
    socket_mode.run()  # until a signal
    began = socket_mode.stopped_at or time.monotonic()
    deadline = began + STOP_SECONDS
    scheduler.shutdown(wait=False)
    in_hand, unacked = socket_mode.finish(deadline)
    finished = drain(app.listener_runner.listener_executor, deadline)
    log.info(
        "Stopped on %s in %.1f s: %d request(s) in hand %s; work after the acks %s; link closed",
        signals[0] if signals else "request",
        time.monotonic() - began,
        in_hand,
        f"({unacked} not acked: Slack sends them again)" if unacked else "acked",
        "finished" if finished else "cut short",
    )
    if unacked or not finished:  # a stuck call must not hold the exit past the deadline
        logging.shutdown()
        os._exit(0)
    return 0


def on_stop_signals(stop: Callable[[], None]) -> list[str]:
    """SIGTERM and SIGINT call `stop` instead of ending the process; the list gets their names.

    The handler takes no lock (it may interrupt code holding one): `stop` only sets a flag.
    """
    received: list[str] = []

    def handler(signum: int, frame: object) -> None:
        received.append(signal.Signals(signum).name)
        stop()

    for stop_signal in (signal.SIGTERM, signal.SIGINT):
        signal.signal(stop_signal, handler)
    return received


def drain(executor: Executor, deadline: float) -> bool:
    """Let work already given to `executor` finish, until `deadline`; True if it all did."""
    waiter = threading.Thread(target=executor.shutdown, kwargs={"wait": True}, daemon=True)
    waiter.start()
    waiter.join(max(0.0, deadline - time.monotonic()))
    return not waiter.is_alive()


def http_app(settings: Settings, catalog: Catalog) -> WsgiApp:
    """The WSGI app for one gunicorn worker: its own store connection and bolt app."""
    tutor = Tutor(catalog, Store(settings.db_path))
    app = create_app(settings, tutor, gated=True)
    link = SlackLink(app.client)
    try:
        link.check()
    except ConfigError as error:  # rejected since the master checked: say so, keep serving
        log.error("%s", error)
    link.keep_trying()
    # Every worker runs the daily scheduler, started after the fork (threads do not survive
    # one); the ledger keeps posts and reveals to one per channel and local date.
    start_scheduler(Daily(tutor), app.client, utc_now)
    return in_one_segment(guarded_wsgi(app, settings.signing_secret, link))


def guarded_wsgi(app: App, secret: str, link: SlackLink) -> WsgiApp:
    """/healthz, then the gate: only signed, well-formed requests reach bolt.

    The gate checks the signature and parses the body once; bolt gets the parsed body, as
    Socket Mode gives it (`mode="socket_mode"`: a body already parsed, no signature of its own to
    check), and an app built with `gated=True` has bolt's own signature check off. So each
    request is verified exactly once, here, before any middleware or listener sees it; nothing
    but `app.dispatch` below hands bolt a request.
    """

    def wsgi(environ: dict, start_response: Callable) -> Iterable[bytes]:
        path, method = environ.get("PATH_INFO"), environ.get("REQUEST_METHOD")
        if path == HEALTH_PATH and method == "GET":
            start_response("200 OK", [("Content-Type", "application/json")])
            return [json.dumps(link.health()).encode() + b"\n"]
        if path != EVENTS_PATH or method != "POST":
            return answer(BoltResponse(status=404, body="Not Found"), start_response)
        body = _read_body(environ)
        if body is None:
            return refuse(gate.Verdict(413, "body too large"), start_response)
        headers = {
            k[5:].lower().replace("_", "-"): v for k, v in environ.items() if k.startswith("HTTP_")
        }
        content_type = environ.get("CONTENT_TYPE")
        verdict = gate.check_signature(secret, headers, body)
        read = verdict or gate.read_body(body, content_type)
        if isinstance(read, gate.Verdict):
            return refuse(read, start_response)
        headers["content-type"] = content_type or ""
        request = BoltRequest(body=read, headers=headers, mode="socket_mode")
        return answer(app.dispatch(request), start_response)

    return wsgi


def answer(response: BoltResponse, start_response: Callable) -> Iterable[bytes]:
    """bolt's response as WSGI (bolt's own WSGI adapter's translation)."""
    wsgi = WsgiHttpResponse(response.status, response.headers, response.body)
    start_response(wsgi.status, wsgi.get_headers())
    return wsgi.get_body()


def in_one_segment(wsgi: WsgiApp) -> WsgiApp:
    """`wsgi`, each answer's headers and body leaving together in one TCP segment.

    gunicorn sends a response's headers and its body with a write each, so a /tutor answer
    crossed as two segments and woke its client twice (about 0.1 ms of a 2 ms round trip,
    bench/slack_roundtrip.py). TCP_CORK (Linux) holds what is written until the response is
    closed; where there is no TCP socket or no TCP_CORK, answers go out as before.
    """

    def corked(environ: dict, start_response: Callable) -> Iterable[bytes]:
        sock = environ.get("gunicorn.socket")
        if not isinstance(sock, socket.socket) or not _cork(sock, True):
            return wsgi(environ, start_response)
        try:
            return _Uncorks(wsgi(environ, start_response), sock)
        except BaseException:
            _cork(sock, False)
            raise

    return corked


class _Uncorks(list):
    """A response body that lets its socket's corked bytes go when the server closes it."""

    def __init__(self, body: Iterable[bytes], sock: socket.socket) -> None:
        super().__init__(body)
        self._sock = sock

    def close(self) -> None:  # WSGI: called once the server has written the body
        _cork(self._sock, False)


def _cork(sock: socket.socket, on: bool) -> bool:
    """Hold (or let go) what is written to `sock`; False when it is not a TCP socket that can."""
    cork = getattr(socket, "TCP_CORK", None)
    if cork is None:
        return False
    try:
        sock.setsockopt(socket.IPPROTO_TCP, cork, int(on))
    except OSError:  # a Unix socket (gunicorn --bind unix:…), or already closed
        return False
    return True


def refuse(verdict: gate.Verdict, start_response: Callable) -> Iterable[bytes]:
    """The gate's answer: its status, a one-line plain reason, one warning in the log."""
    log.warning("Refused a request: %s %s", verdict.status, verdict.reason)
    status = f"{verdict.status} {HTTPStatus(verdict.status).phrase}"
    start_response(status, [("Content-Type", "text/plain; charset=utf-8")])
    return [gate.plain(verdict)]


def _read_body(environ: dict) -> bytes | None:
    """The request body, or None when it is larger than the gate accepts."""
    try:
        length = int(environ.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    if length > gate.MAX_BODY:
        return None
    stream = environ.get("wsgi.input")
    return stream.read(length) if stream is not None and length > 0 else b""


def redact_tokens(record: logging.LogRecord) -> bool:
    """A logging filter: whatever is logged, tokens show as [redacted]."""
    message = record.getMessage()
    if _TOKENS.search(message):
        record.msg, record.args = _TOKENS.sub("[redacted]", message), None
    return True


class _Arbiter(Arbiter):
    """gunicorn's arbiter, except that SIGINT stops gracefully as SIGTERM does (gunicorn's own
    SIGINT is a quick stop: workers exit at once and a reply in flight is cut off at
    `graceful_timeout`). A second SIGINT during the stop is still a quick stop."""

    def handle_int(self) -> None:
        raise StopIteration


class Server(BaseApplication):
    """gunicorn, run from Python: `load` builds the WSGI app in each worker (after the fork)."""

    def run(self) -> None:
        try:
            _Arbiter(self).run()
        except RuntimeError as error:  # gunicorn's own way of saying it cannot start
            print(f"\nError: {error}\n", file=sys.stderr)
            sys.exit(1)

    def __init__(self, load: Callable[[], WsgiApp], options: dict) -> None:
        self._load, self._options = load, options
        super().__init__()

    def load_config(self) -> None:
        for key, value in self._options.items():
            self.cfg.set(key, value)

    def load(self) -> WsgiApp:
        return self._load()
