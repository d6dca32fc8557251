"""Slack's Socket Mode for the bolt app: one live WebSocket, kept up, over `websockets`.

Why not bolt's SocketModeHandler: its clients (built-in, websocket-client) share one design that
measured badly here (bench/socket_mode.py): on Slack's `disconnect` they close the old link
before reading the new one (acks 3 s late during a refresh), the built-in one spins a CPU on a
link that died without a close frame, and a failed `apps.connections.open` ends the process.

Here every link has its own reader thread, so a refresh opens the new link while the old one
still reads and acks what it received; websockets' keepalive pings notice a dead or half-open
link within `ping_interval + ping_timeout`; the loop in `run` keeps trying with growing pauses
while Slack cannot be reached; `stop` + `finish` let a signal end it without losing an ack.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from slack_bolt import App, BoltRequest
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError, SlackClientError
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
from websockets.sync.client import ClientConnection, connect

from bot.errors import ConfigError

log = logging.getLogger("bot.slack.socket_mode")
# apps.connections.open errors that mean the app token itself is wrong: retrying cannot help.
REJECTED = {
    "invalid_auth",
    "not_allowed_token_type",
    "not_authed",
    "account_inactive",
    "token_revoked",
    "token_expired",
}
BACKOFF = (1.0, 2.0, 4.0, 8.0)  # pauses between failed attempts, then 8 s: back within 10 s
RETIRE_AFTER = 10.0  # Slack closes a refreshed link itself within about 10 s; then we do
POLL = 0.2  # how often `run` looks at the stop flag (a signal handler may not take a lock)


class _ExpectedDrops(logging.Filter):
    """websockets logs a lost keepalive pong with a traceback; `_closed` says it in one line."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        return not (record.msg == "keepalive ping failed" and isinstance(error, ConnectionClosed))


_EXPECTED_DROPS = _ExpectedDrops()


class CannotConnect(Exception):
    """Slack could not be reached or said "not now"; `wait` overrides the backoff."""

    def __init__(self, why: str, wait: float | None = None) -> None:
        super().__init__(why)
        self.wait = wait


@dataclass(eq=False)
class Link:
    """One WebSocket to Slack, and the envelopes it brought that are not acked yet."""

    ws: ClientConnection
    opened: float
    in_hand: int = 0
    retiring: bool = False  # Slack sent `disconnect`: a new link takes over
    closed: bool = False


class SocketMode:
    """Keeps one live Socket Mode link for `app` until `stop`; see the module docstring."""

    def __init__(
        self,
        app: App,
        app_token: str,
        api: WebClient,
        *,
        ping_interval: float = 5.0,
        ping_timeout: float = 5.0,
        backoff: Sequence[float] = BACKOFF,
        workers: int = 10,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._app, self._token, self._api = app, app_token, api
        self._ping = (ping_interval, ping_timeout)
        self._backoff, self._clock = tuple(backoff), clock
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix="socket-mode")
        self._changed = threading.Condition()  # guards everything below
        self._links: list[Link] = []
        self._current: Link | None = None
        self._lost_at: float | None = None
        self._stopping = False
        self.stopped_at: float | None = None  # on `clock`, when `stop` was called
        self._wake = threading.Event()
        self._wire_log = logging.getLogger("bot.slack.socket_mode.websockets")
        self._wire_log.addFilter(_EXPECTED_DROPS)  # once: the same filter is not added twice

    # -- the supervisor ---------------------------------------------------------------------

    def run(self) -> None:
        """Connect, then keep a live link until `stop`. Raises ConfigError for a rejected token.

        Only a rejected app token ends this early; Slack being away is retried, one warning line
        per attempt.
        """
        attempt = 0
        while not self._stopping:
            self._wake.clear()
            if not self._needs_link():
                self._wake.wait(POLL)
                continue
            try:
                self._switch_to(self._open())
            except CannotConnect as problem:
                pause = problem.wait or self._backoff[min(attempt, len(self._backoff) - 1)]
                attempt += 1
                log.warning(
                    "Socket Mode: cannot connect to Slack (%s); trying again in %g s",
                    problem,
                    pause,
                )
                self._sleep(pause)
                continue
            attempt = 0

    def stop(self) -> None:
        """Take no new envelopes and let `run` return. Safe in a signal handler: no lock."""
        self.stopped_at = self._clock()
        self._stopping = True

    def finish(self, deadline: float) -> tuple[int, int]:
        """After `run` returned: ack what is in hand, then close every link with a close frame.

        Returns (envelopes that were in hand, those still unacked at `deadline`); Slack sends
        the unacked ones again.
        """
        with self._changed:
            in_hand = self._in_hand()
            self._changed.wait_for(
                lambda: self._in_hand() == 0, timeout=max(0.0, deadline - self._clock())
            )
            left = self._in_hand()
            links, self._links, self._current = list(self._links), [], None
        for link in links:
            link.ws.close()
        self._pool.shutdown(wait=False)
        return in_hand, left

    def _in_hand(self) -> int:
        return sum(link.in_hand for link in self._links)

    def _sleep(self, seconds: float) -> None:
        end = self._clock() + seconds
        while not self._stopping and self._clock() < end:
            self._wake.wait(min(POLL, max(0.0, end - self._clock())))

    def _needs_link(self) -> bool:
        with self._changed:
            return self._current is None or self._current.retiring

    def _open(self) -> Link:
        """apps.connections.open, then the WebSocket it names."""
        try:
            url = self._api.apps_connections_open(app_token=self._token)["url"]
        except SlackApiError as error:
            code = str(error.response.get("error", "")) if error.response else ""
            if code in REJECTED:
                raise ConfigError(
                    f"Slack rejected SLACK_APP_TOKEN ({code}); create an app-level token with "
                    "the connections:write scope under Basic Information → App-Level Tokens"
                ) from None
            status = error.response.status_code if error.response else 0
            retry_after = error.response.headers.get("Retry-After") if error.response else None
            wait = float(retry_after) if code == "ratelimited" and retry_after else None
            raise CannotConnect(
                f"apps.connections.open: {code or f'HTTP {status}'}", wait
            ) from None
        except (SlackClientError, OSError) as error:
            raise CannotConnect(f"apps.connections.open: {_reason(error)}") from None
        try:
            ws = connect(
                url,
                open_timeout=5,
                ping_interval=self._ping[0],
                ping_timeout=self._ping[1],
                close_timeout=1,
                max_size=None,  # Slack's envelopes are Slack's to size
                logger=self._wire_log,
            )
        except (OSError, InvalidHandshake, InvalidURI) as error:
            raise CannotConnect(f"WebSocket: {_reason(error)}") from None
        return Link(ws, self._clock())

    def _switch_to(self, link: Link) -> None:
        with self._changed:
            old, self._current = self._current, link
            self._links.append(link)
            lost_at, self._lost_at = self._lost_at, None
        threading.Thread(
            target=self._read, args=(link,), name="socket-mode-read", daemon=True
        ).start()
        if old is not None:  # a refresh: the old link keeps reading until Slack closes it
            log.info("Socket Mode: switched to a new link at Slack's request")
            timer = threading.Timer(RETIRE_AFTER, self._retire, args=(old,))
            timer.daemon = True
            timer.start()
        elif lost_at is not None:
            log.info("Socket Mode: the link to Slack is back (in %.1f s)", self._clock() - lost_at)
        else:
            log.info("Socket Mode: connected to Slack")

    def _retire(self, link: Link) -> None:
        with self._changed:
            if link not in self._links:
                return
        link.ws.close()

    # -- one link ---------------------------------------------------------------------------

    def _read(self, link: Link) -> None:
        """Read until the link closes: envelopes go to the pool, `disconnect` asks `run`."""
        try:
            while True:
                self._take(link, link.ws.recv())
        except ConnectionClosed as closed:
            self._closed(link, _why(closed))
        except Exception:  # a bug, not the network: say so, and let `run` open a new link
            log.exception("Socket Mode: reading a link failed")
            link.ws.close()
            self._closed(link, "read failed")

    def _take(self, link: Link, text: str | bytes) -> None:
        try:
            message = json.loads(text)
        except ValueError:
            log.warning("Socket Mode: ignored a message that is not JSON (%.60r)", text)
            return
        if message.get("type") == "disconnect":
            with self._changed:
                link.retiring = True
            self._wake.set()
            return
        if "envelope_id" not in message:
            return  # hello
        with self._changed:
            if self._stopping:  # not acked: Slack sends it again, to a live instance
                return
            link.in_hand += 1
        self._pool.submit(self._handle, link, message)

    def _handle(self, link: Link, envelope: dict) -> None:
        try:
            ack = self._dispatch(envelope)
            if ack is not None:
                self._ack(link, ack)
        except Exception:
            log.exception("Socket Mode: envelope %s failed", envelope.get("envelope_id"))
        finally:
            with self._changed:
                link.in_hand -= 1
                if link.closed and link.in_hand == 0 and link in self._links:
                    self._links.remove(link)
                self._changed.notify_all()

    def _dispatch(self, envelope: dict) -> dict | None:
        """Run the envelope through bolt; the ack to send, or None when bolt did not say 200."""
        headers: dict[str, str | Sequence[str]] = {}
        if envelope.get("retry_attempt") is not None:
            headers["x-slack-retry-num"] = str(envelope["retry_attempt"])
        if envelope.get("retry_reason") is not None:
            headers["x-slack-retry-reason"] = str(envelope["retry_reason"])
        request = BoltRequest(
            mode="socket_mode", body=envelope.get("payload") or {}, headers=headers or None
        )
        response = self._app.dispatch(request)
        if response.status != 200:
            log.info("Socket Mode: not acked (%s %s)", response.status, response.body)
            return None
        ack: dict = {"envelope_id": envelope["envelope_id"]}
        if response.body:
            content_type = (response.headers.get("content-type") or [""])[0]
            json_body = content_type.startswith("application/json")
            ack["payload"] = json.loads(response.body) if json_body else {"text": response.body}
        return ack

    def _ack(self, link: Link, ack: dict) -> None:
        """On the link the envelope came by; if that one closed meanwhile, on the current one."""
        text = json.dumps(ack)
        for candidate in (link, self._current):
            if candidate is None:
                continue
            try:
                candidate.ws.send(text)
                return
            except ConnectionClosed:
                continue
        log.warning(
            "Socket Mode: envelope %s could not be acked (the link closed); Slack sends it again",
            ack["envelope_id"],
        )

    def _closed(self, link: Link, why: str) -> None:
        with self._changed:
            link.closed = True
            was_current = link is self._current
            if was_current:
                self._current = None
            if link in self._links and link.in_hand == 0:
                self._links.remove(link)
            quiet = self._stopping or link.retiring or not was_current
            if not quiet:
                self._lost_at = self._clock()
            self._changed.notify_all()
        if not quiet:
            log.warning("Socket Mode: lost the link to Slack (%s); reconnecting", why)
        self._wake.set()


def _why(closed: ConnectionClosed) -> str:
    frame = closed.rcvd or closed.sent
    if frame is None:
        cause = closed.__cause__ or closed.__context__
        return _reason(cause) if cause else "closed with no close frame"
    return f"close code {frame.code}{f', {frame.reason}' if frame.reason else ''}"


def _reason(error: BaseException) -> str:
    """A short reason for a log line: the innermost OS error when there is one."""
    reason = getattr(error, "reason", None)  # URLError wraps the socket's error
    if isinstance(reason, BaseException):
        error = reason
    text = getattr(error, "strerror", None) or str(error)
    return f"{type(error).__name__}: {text}" if text else type(error).__name__
