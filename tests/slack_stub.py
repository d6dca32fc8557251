"""Slack without Slack: a recording Web API stand-in, signed requests, a real `tutor serve`.

`SlackStub` listens on 127.0.0.1 (port 0), records every call (method, headers, parsed body) and
answers like Slack: `auth.test` with the bot's ids, `/webhook/…` for response_url posts, `{"ok":
true}` for the rest. It can be told to answer a method with a 429 (and Retry-After), an
`ok: false` error, or a 500, a given number of times. It also speaks just enough WebSocket for
Socket Mode: `apps.connections.open` hands out its own ws:// URL; every WebSocket the bot opens is
a `Link` that can be asked to refresh (Slack's `disconnect` message, then a close), or be dropped
as networks drop them: a TCP close with no close frame, a TCP reset, or a half-open link that
goes silent.

It also takes file uploads as `files_upload_v2` makes them (files.getUploadURLExternal, the
bytes POSTed to the URL it gave, files.completeUploadExternal) and keeps each file's bytes in
`uploads`; files.info gives a file's type once its bytes arrived.

`SlackRequests` builds slash commands (form-encoded), interactivity (`payload=` form), Events API
envelopes (JSON) and url_verification, and signs them with the v0 scheme.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import itertools
import json
import os
import queue
import select
import signal
import socket
import sqlite3
import struct
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

BOT_USER = "U0TUTORBOT"
BOT_ID = "B0TUTORBOT"
TEAM = "T0TUTOR01"
APP_ID = "A0TUTOR001"
STUDENT = "U0STUDENT1"
CHANNEL = "C0QUIZ0001"
DM = "D0STUDENT1"
WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


@dataclass
class Call:
    """One request the stand-in received."""

    path: str  # "chat.postMessage", "auth.test", "webhook/…"
    headers: dict[str, str]
    body: dict

    def text(self) -> str:
        """Every string in the body, as JSON, for checks that must look everywhere."""
        return json.dumps(self.body)


@dataclass
class _Script:
    status: int = 200
    error: str = ""
    retry_after: int | None = None
    times: int = 1


@dataclass
class Link:
    """One Socket Mode WebSocket the bot opened to the stand-in (times are time.monotonic())."""

    number: int
    opened: float
    outbox: queue.Queue = field(default_factory=queue.Queue)  # envelopes for this link only
    retiring: bool = False  # sent `disconnect`: takes no more envelopes from `stub.envelopes`
    drop: str = ""  # "close" (no close frame), "reset" (TCP RST) or "silence" (half-open)
    dropped: float | None = None  # when `drop` took effect
    closed: float | None = None
    close_code: int | None = None  # from the bot's close frame, if it sent one
    pings: int = 0


@dataclass(frozen=True)
class Ack:
    """A Socket Mode ack as received: which envelope, on which link, when."""

    envelope_id: str
    link: int
    at: float


@dataclass
class SlackStub:
    """A recording stand-in for https://slack.com/api/ (see the module docstring)."""

    calls: list[Call] = field(default_factory=list)
    scripts: dict[str, list[_Script]] = field(default_factory=dict)
    envelopes: queue.Queue = field(default_factory=queue.Queue)  # to push over Socket Mode
    acks: list[dict] = field(default_factory=list)  # Socket Mode acks received
    messages: list[dict] = field(default_factory=list)  # what chat.postMessage put in channels
    holds: dict[str, threading.Event] = field(default_factory=dict)
    links: list[Link] = field(default_factory=list)  # Socket Mode WebSockets, in opening order
    acked: list[Ack] = field(default_factory=list)  # the acks again, with link and time
    pushed: dict[str, float] = field(default_factory=dict)  # envelope_id -> when it was sent
    port: int = 0  # 0: any free port; a fixed one lets a test start Slack late
    uploads: dict[str, bytes] = field(default_factory=dict)  # file id -> bytes POSTed to upload/

    def start(self) -> SlackStub:
        stub = self

        class Handler(_Handler):
            owner = stub

        self._stopped = threading.Event()
        self._server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True).start()
        return self

    def stop(self) -> None:
        self._stopped.set()  # ends every Socket Mode link, silent ones included
        self._server.shutdown()
        self._server.server_close()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/"

    def response_url(self, name: str = "r1") -> str:
        return f"{self.url}webhook/{name}"

    # -- scripting and reading ----------------------------------------------------------------

    def fail(
        self,
        path: str,
        *,
        status: int = 200,
        error: str = "",
        retry_after: int | None = None,
        times: int = 1,
    ) -> None:
        """Answer the next `times` calls to `path` with a 429/500 or an `ok: false` error."""
        self.scripts.setdefault(path, []).append(_Script(status, error, retry_after, times))

    def hold(self, path: str) -> threading.Event:
        """Take calls to `path` as Slack would (recorded, messages kept) but keep the answer back
        until the returned event is set (or 60 s pass), as a slow or dying link would."""
        self.holds[path] = threading.Event()
        return self.holds[path]

    # -- Socket Mode ----------------------------------------------------------------------------

    def send(self, envelope: dict, link: Link | None = None) -> None:
        """Push an envelope: on `link`, or on whichever live link takes it first."""
        (self.envelopes if link is None else link.outbox).put(envelope)

    def wait_link(self, number: int, *, within: float = 30.0) -> Link | None:
        """The `number`th link the bot opened (1 is the first), once it is open; None at the
        deadline."""
        deadline = time.monotonic() + within
        while len(self.links) < number and time.monotonic() < deadline:
            time.sleep(0.01)
        return self.links[number - 1] if len(self.links) >= number else None

    def refresh(self, link: Link, *, close_after: float = 5.0) -> None:
        """What Slack does before rotating a connection: a `disconnect` message on `link`, no
        new envelopes on it, and a close frame `close_after` seconds later."""
        link.retiring = True
        link.outbox.put({"type": "disconnect", "reason": "refresh_requested"})
        timer = threading.Timer(close_after, lambda: setattr(link, "drop", link.drop or "goodbye"))
        timer.daemon = True
        timer.start()

    def cut(self, link: Link, how: str) -> None:
        """Drop `link` as a network would: "close" (TCP FIN, no close frame), "reset" (TCP RST),
        or "silence" (half-open: the socket stays open, nothing is read or answered)."""
        assert how in ("close", "reset", "silence"), how
        link.drop = how
        deadline = time.monotonic() + 5
        while link.dropped is None and time.monotonic() < deadline:
            time.sleep(0.005)

    def ack_delay(self, envelope_id: str) -> float | None:
        """Seconds from pushing an envelope to its first ack; None if it was not acked."""
        acks = [a.at for a in self.acked if a.envelope_id == envelope_id]
        sent = self.pushed.get(envelope_id)
        return min(acks) - sent if acks and sent is not None else None

    def reset(self) -> None:
        self.calls.clear()
        self.scripts.clear()
        self.acks.clear()
        self.acked.clear()
        self.pushed.clear()
        self.messages.clear()
        for event in self.holds.values():
            event.set()
        self.holds.clear()

    def history(self, channel: str, oldest: float = 0.0) -> list[dict]:
        """conversations.history as Slack answers it: newest first, metadata included."""
        found = [
            m
            for m in self.messages
            if m["channel"] == channel and "thread_ts" not in m and float(m["ts"]) >= oldest
        ]
        return sorted(found, key=lambda m: float(m["ts"]), reverse=True)

    def called(self, path: str | None = None) -> list[Call]:
        """Calls to `path` (a Web API method, or a prefix such as "webhook/"); all but auth.test."""
        return [
            c
            for c in list(self.calls)
            if (path is None and c.path != "auth.test")
            or (path is not None and c.path.startswith(path))
        ]

    def wait_for(self, path: str | None, count: int = 1, *, within: float = 30.0) -> list[Call]:
        """Poll until at least `count` calls to `path` arrived (or the deadline passed)."""
        deadline = time.monotonic() + within
        while len(self.called(path)) < count and time.monotonic() < deadline:
            time.sleep(0.02)
        return self.called(path)

    def settle(self, quiet: float = 0.3, *, within: float = 5.0) -> list[Call]:
        """Wait until no call came for `quiet` seconds; then every call (for "no more" checks)."""
        deadline, seen, last = time.monotonic() + within, -1, time.monotonic()
        while time.monotonic() < deadline:
            if len(self.calls) != seen:
                seen, last = len(self.calls), time.monotonic()
            elif time.monotonic() - last >= quiet:
                break
            time.sleep(0.02)
        return self.called()

    def _keep(self, path: str, body: dict, answer: dict) -> None:
        """Remember a posted message, as the channel would (for conversations.history)."""
        if path == "chat.postMessage" and answer.get("ok"):
            message = {
                "type": "message",
                "channel": body.get("channel"),
                "ts": answer["ts"],
                "text": body.get("text", ""),
                "bot_id": BOT_ID,
            }
            if isinstance(body.get("metadata"), dict):
                message["metadata"] = body["metadata"]
            if body.get("thread_ts"):
                message["thread_ts"] = body["thread_ts"]
            self.messages.append(message)

    def _answer(self, path: str, body: dict) -> tuple[int, dict, dict[str, str]]:
        for script in self.scripts.get(path, []):
            if script.times > 0:
                script.times -= 1
                headers = {"Retry-After": str(script.retry_after)} if script.retry_after else {}
                if script.status != 200:
                    error = "ratelimited" if script.status == 429 else "internal_error"
                    return script.status, {"ok": False, "error": error}, headers
                return 200, {"ok": False, "error": script.error}, headers
        if path == "conversations.history":
            found = self.history(body.get("channel", ""), float(body.get("oldest") or 0))
            return 200, {"ok": True, "messages": found, "has_more": False}, {}
        return 200, _canned(path, self, body), {}


def _canned(path: str, stub: SlackStub, body: dict) -> dict:
    if path == "auth.test":
        return {
            "ok": True,
            "user_id": BOT_USER,
            "bot_id": BOT_ID,
            "team_id": TEAM,
            "user": "tutor",
            "team": "Study",
        }
    if path == "apps.connections.open":
        return {"ok": True, "url": stub.url.replace("http://", "ws://") + "link/"}
    if path in ("chat.postMessage", "chat.postEphemeral"):
        to_user = str(body.get("channel", "")).startswith("U")  # a DM with the app, as Slack does
        channel = DM if to_user else CHANNEL
        return {"ok": True, "channel": channel, "ts": f"{next(_ts):.6f}", "message_ts": "1.0"}
    if path.startswith("files."):
        return _files(path, body, stub)
    return {"ok": True}


def _files(path: str, body: dict, stub: SlackStub) -> dict:
    """Slack's three-step upload (files_upload_v2) and files.info, as far as the bot uses them:
    an upload URL on the stand-in itself, the completed files, and a file's type once its bytes
    arrived."""
    if path == "files.getUploadURLExternal":
        file_id = f"F0CHART{next(_file_ids):04d}"
        return {"ok": True, "upload_url": f"{stub.url}upload/{file_id}", "file_id": file_id}
    if path == "files.completeUploadExternal":
        files = body.get("files", [])
        files = json.loads(files) if isinstance(files, str) else files
        done = [{"id": f["id"], "title": f.get("title"), "mimetype": ""} for f in files]
        if any(f["id"] not in stub.uploads for f in done):
            return {"ok": False, "error": "file_upload_not_found"}
        return {"ok": True, "files": done}
    if path == "files.info":
        data = stub.uploads.get(str(body.get("file", "")))
        if data is None:
            return {"ok": False, "error": "file_not_found"}
        kind = "image/png" if data.startswith(b"\x89PNG") else "application/octet-stream"
        return {"ok": True, "file": {"id": body["file"], "mimetype": kind, "size": len(data)}}
    return {"ok": True}


_ts = itertools.count(int(time.time()))  # distinct message ts values, like Slack's
_file_ids = itertools.count(1)


class _Handler(BaseHTTPRequestHandler):
    owner: SlackStub
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: object) -> None:  # quiet
        pass

    def do_GET(self) -> None:
        if self.path.startswith("/link"):
            _socket_mode(self, self.owner)
            return
        url = urllib.parse.urlparse(self.path)
        path = url.path.strip("/").removeprefix("api/")
        query = {k: v[0] for k, v in urllib.parse.parse_qs(url.query).items()}
        self.owner.calls.append(Call(path, dict(self.headers.items()), query))
        self._send(*self.owner._answer(path, query))

    def do_POST(self) -> None:
        data = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        path = urllib.parse.urlparse(self.path).path.strip("/")
        path = path.removeprefix("api/")
        if path.startswith("upload/"):  # a file's bytes (step 2 of files_upload_v2)
            self.owner.uploads[path.removeprefix("upload/")] = data
            self.owner.calls.append(Call(path, dict(self.headers.items()), {"bytes": len(data)}))
            self._send(200, None, {})
            return
        raw = data.decode()
        body = _parse(raw, self.headers.get("Content-Type", ""))
        self.owner.calls.append(Call(path, dict(self.headers.items()), body))
        if path.startswith("webhook/"):
            status, _, _ = self.owner._answer("webhook/", body)
            self._send(status, None, {})
            return
        status, answer, headers = self.owner._answer(path, body)
        self.owner._keep(path, body, answer)
        held = self.owner.holds.get(path)
        if held is not None:
            held.wait(60)
        self._send(status, answer, headers)

    def _send(self, status: int, body: dict | None, headers: dict[str, str]) -> None:
        data = b"ok" if body is None else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/plain" if body is None else "application/json")
        self.send_header("Content-Length", str(len(data)))
        for key, value in headers.items():
            self.send_header(key, value)
        self.end_headers()
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # the caller died
            self.wfile.write(data)


def _parse(raw: str, content_type: str) -> dict:
    if "json" in content_type or raw.startswith("{"):
        return json.loads(raw or "{}")
    return {k: v[0] for k, v in urllib.parse.parse_qs(raw).items()}


# -- Socket Mode: just enough WebSocket (RFC 6455) to push envelopes and read acks ------------


def _socket_mode(handler: _Handler, stub: SlackStub) -> None:
    accept = base64.b64encode(
        hashlib.sha1((handler.headers["Sec-WebSocket-Key"] + WS_GUID).encode()).digest()
    ).decode()
    handler.send_response(101)
    handler.send_header("Upgrade", "websocket")
    handler.send_header("Connection", "Upgrade")
    handler.send_header("Sec-WebSocket-Accept", accept)
    handler.end_headers()
    handler.wfile.flush()
    handler.close_connection = True
    conn: socket.socket = handler.connection
    link = Link(len(stub.links) + 1, time.monotonic())
    stub.links.append(link)
    try:
        _ws_send(conn, json.dumps({"type": "hello", "num_connections": len(stub.links)}))
        _serve_link(conn, link, stub)
    except OSError:  # the bot went away without a close frame
        pass
    finally:
        link.closed = link.closed or time.monotonic()


def _serve_link(conn: socket.socket, link: Link, stub: SlackStub) -> None:
    """Push envelopes, answer pings, record acks, until the link closes or is dropped."""
    while not stub._stopped.is_set():
        if link.drop == "silence":  # half-open: the bot's frames go nowhere, nothing comes back
            link.dropped = link.dropped or time.monotonic()
            time.sleep(0.05)
            continue
        if link.drop:
            with contextlib.suppress(queue.Empty):
                while True:  # what was already on its way still goes out, then the link dies
                    _push(conn, stub, link.outbox.get_nowait())
            _drop(conn, link)
            return
        for source in (link.outbox, None if link.retiring else stub.envelopes):
            with contextlib.suppress(queue.Empty):
                if source is not None:
                    _push(conn, stub, source.get_nowait())
        if not select.select([conn], [], [], 0.02)[0]:
            continue
        try:
            opcode, data = _ws_read(conn)
        except EOFError:
            return
        if opcode == 8:  # close: answer it, as the closing handshake asks
            link.close_code = struct.unpack("!H", data[:2])[0] if len(data) >= 2 else 1005
            with contextlib.suppress(OSError):
                _ws_send(conn, "", opcode=8, raw=data[:2])
            return
        if opcode == 9:  # ping
            link.pings += 1
            _ws_send(conn, "", opcode=10, raw=data)
        elif opcode == 1:
            ack = json.loads(data)
            stub.acks.append(ack)
            stub.acked.append(Ack(ack.get("envelope_id", ""), link.number, time.monotonic()))


def _push(conn: socket.socket, stub: SlackStub, envelope: dict) -> None:
    _ws_send(conn, json.dumps(envelope))
    if "envelope_id" in envelope:
        stub.pushed[envelope["envelope_id"]] = time.monotonic()


def _drop(conn: socket.socket, link: Link) -> None:
    link.dropped = link.closed = time.monotonic()
    if link.drop == "goodbye":  # Slack closing a refreshed link: a close frame, then the socket
        with contextlib.suppress(OSError, EOFError):
            _ws_send(conn, "", opcode=8, raw=struct.pack("!H", 1000))
            conn.settimeout(2)
            while _ws_read(conn)[0] != 8:
                pass
    elif link.drop == "reset":
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    else:
        with contextlib.suppress(OSError):
            conn.shutdown(socket.SHUT_RDWR)
    conn.close()


def _ws_send(conn: socket.socket, text: str, opcode: int = 1, raw: bytes | None = None) -> None:
    data = text.encode() if raw is None else raw
    head = bytes([0x80 | opcode])
    if len(data) < 126:
        head += bytes([len(data)])
    elif len(data) < 65536:
        head += bytes([126]) + struct.pack("!H", len(data))
    else:
        head += bytes([127]) + struct.pack("!Q", len(data))
    conn.sendall(head + data)


def _ws_read(conn: socket.socket) -> tuple[int, bytes]:
    first = _recv(conn, 2)
    opcode, length = first[0] & 0x0F, first[1] & 0x7F
    if length == 126:
        length = struct.unpack("!H", _recv(conn, 2))[0]
    elif length == 127:
        length = struct.unpack("!Q", _recv(conn, 8))[0]
    mask = _recv(conn, 4) if first[1] & 0x80 else b"\0\0\0\0"
    data = bytes(b ^ mask[i % 4] for i, b in enumerate(_recv(conn, length)))
    return opcode, data


def _recv(conn: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = conn.recv(size - len(data))
        if not chunk:
            raise EOFError("the client went away")
        data += chunk
    return data


# -- signed requests --------------------------------------------------------------------------


def sign(secret: str, body: str | bytes, timestamp: int | None = None) -> dict[str, str]:
    """Slack's v0 signature headers for `body`."""
    ts = str(int(time.time()) if timestamp is None else timestamp)
    data = body if isinstance(body, bytes) else body.encode()
    mac = hmac.new(secret.encode(), b"v0:" + ts.encode() + b":" + data, hashlib.sha256).hexdigest()
    return {"X-Slack-Request-Timestamp": ts, "X-Slack-Signature": f"v0={mac}"}


@dataclass(frozen=True)
class Sent:
    status: int
    headers: dict[str, str]
    body: str

    def json(self) -> dict:
        return json.loads(self.body)


_ids = itertools.count(1)


@dataclass
class SlackRequests:
    """Requests shaped exactly as Slack sends them, signed with `secret`, posted to `url`."""

    url: str
    secret: str
    response_url: Callable[[str], str] = lambda name: f"https://hooks.slack.com/commands/{name}"

    # -- bodies -------------------------------------------------------------------------------

    def slash(self, text: str, *, user: str = STUDENT, channel: str = CHANNEL) -> tuple[str, str]:
        fields = {
            "token": "legacy-verification-token",
            "team_id": TEAM,
            "team_domain": "study",
            "channel_id": channel,
            "channel_name": "quiz",
            "user_id": user,
            "user_name": "student",
            "command": "/tutor",
            "text": text,
            "api_app_id": APP_ID,
            "is_enterprise_install": "false",
            "response_url": self.response_url(f"cmd{next(_ids)}"),
            "trigger_id": f"{next(_ids)}.1.abc",
        }
        return urllib.parse.urlencode(fields), "application/x-www-form-urlencoded"

    def action(
        self,
        action_id: str,
        value: str,
        *,
        user: str = STUDENT,
        block_id: str = "b1",
        channel: str = CHANNEL,
        team: str = TEAM,
        message_ts: str = "1773470000.000100",
        ephemeral: bool = True,
    ) -> tuple[str, str]:
        """A button click; `ephemeral` False: on a message the app posted (it has a `message`)."""
        payload = {
            "type": "block_actions",
            "user": {"id": user, "username": "student", "name": "student", "team_id": team},
            "api_app_id": APP_ID,
            "token": "legacy-verification-token",
            "container": {
                "type": "message",
                "message_ts": message_ts,
                "channel_id": channel,
                "is_ephemeral": ephemeral,
            },
            "trigger_id": f"{next(_ids)}.1.abc",
            "team": {"id": team, "domain": "study"},
            "channel": {"id": channel, "name": "quiz"},
            "state": {"values": {}},
            "response_url": self.response_url(f"act{next(_ids)}"),
            "actions": [
                {
                    "action_id": action_id,
                    "block_id": block_id,
                    "value": value,
                    "type": "button",
                    "text": {"type": "plain_text", "text": "B"},
                    "action_ts": f"{time.time():.6f}",
                }
            ],
        }
        if not ephemeral:
            payload["message"] = {"type": "message", "ts": message_ts, "bot_id": BOT_ID}
        return urllib.parse.urlencode(
            {"payload": json.dumps(payload)}
        ), "application/x-www-form-urlencoded"

    def view_submission(
        self, view: dict, values: dict, *, user: str = STUDENT, team: str = TEAM
    ) -> tuple[str, str]:
        """A modal submitted: `view` as the bot opened it, `values` as the person left its inputs
        (`{block_id: {action_id: {...}}}`), with the fields Slack adds to the view."""
        sent_view = {
            **view,
            "id": f"V0{next(_ids):08d}",
            "team_id": team,
            "state": {"values": values},
            "hash": f"{next(_ids)}.abc",
            "previous_view_id": None,
            "root_view_id": f"V0{next(_ids):08d}",
            "app_id": APP_ID,
            "external_id": "",
            "app_installed_team_id": team,
            "bot_id": BOT_ID,
        }
        payload = {
            "type": "view_submission",
            "team": {"id": team, "domain": "study"},
            "user": {"id": user, "username": "student", "name": "student", "team_id": team},
            "api_app_id": APP_ID,
            "token": "legacy-verification-token",
            "trigger_id": f"{next(_ids)}.1.abc",
            "view": sent_view,
            "response_urls": [],
            "is_enterprise_install": False,
            "enterprise": None,
        }
        return urllib.parse.urlencode(
            {"payload": json.dumps(payload)}
        ), "application/x-www-form-urlencoded"

    def event(self, event: dict, *, event_id: str | None = None) -> tuple[str, str]:
        envelope = {
            "token": "legacy-verification-token",
            "team_id": TEAM,
            "api_app_id": APP_ID,
            "event": event,
            "type": "event_callback",
            "event_id": event_id or f"Ev{next(_ids):08d}",
            "event_time": int(time.time()),
            "authorizations": [
                {
                    "enterprise_id": None,
                    "team_id": TEAM,
                    "user_id": BOT_USER,
                    "is_bot": True,
                    "is_enterprise_install": False,
                }
            ],
            "is_ext_shared_channel": False,
            "event_context": "4-abc",
        }
        return json.dumps(envelope), "application/json"

    def url_verification(self, challenge: str) -> tuple[str, str]:
        body = {
            "token": "legacy-verification-token",
            "challenge": challenge,
            "type": "url_verification",
        }
        return json.dumps(body), "application/json"

    # -- sending ------------------------------------------------------------------------------

    def post(
        self,
        request: tuple[str | bytes, str],
        *,
        headers: dict[str, str] | None = None,
        timestamp: int | None = None,
        signed: bool = True,
    ) -> Sent:
        body, content_type = request
        sent = {
            "Content-Type": content_type,
            **(sign(self.secret, body, timestamp) if signed else {}),
        }
        sent.update(headers or {})
        data = body if isinstance(body, bytes) else body.encode()
        req = urllib.request.Request(self.url, data=data, headers=sent, method="POST")
        try:
            with urllib.request.urlopen(req, timeout=60) as response:
                return Sent(
                    response.status, dict(response.headers.items()), response.read().decode()
                )
        except urllib.error.HTTPError as error:
            return Sent(error.code, _lower(error.headers.items()), error.read().decode())


def mention_event(
    text: str, *, user: str = STUDENT, ts: str = "1773470001.000300", thread_ts: str | None = None
) -> dict:
    event = {
        "type": "app_mention",
        "user": user,
        "text": f"<@{BOT_USER}> {text}",
        "ts": ts,
        "channel": CHANNEL,
        "event_ts": ts,
    }
    if thread_ts:
        event["thread_ts"] = thread_ts
    return event


def dm_event(text: str, *, user: str = STUDENT, **extra: object) -> dict:
    ts = f"{time.time():.6f}"
    event = {
        "type": "message",
        "channel": DM,
        "channel_type": "im",
        "user": user,
        "text": text,
        "ts": ts,
        "event_ts": ts,
        "client_msg_id": f"m{next(_ids)}",
    }
    event.update(extra)
    return event


def home_event(tab: str = "home", *, user: str = STUDENT) -> dict:
    return {
        "type": "app_home_opened",
        "user": user,
        "channel": DM,
        "tab": tab,
        "event_ts": f"{time.time():.6f}",
    }


# -- a real `tutor serve` process: HTTP mode on a free loopback port -------------------------

ROOT = Path(__file__).resolve().parent.parent
BOT_TOKEN = "xoxb-e2e-0000-secret-bot-token"
SIGNING_SECRET = "e2e-signing-secret-not-for-logs"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def slack_env(**settings: str) -> dict[str, str]:
    """This process's environment without any SLACK_* or TUTOR_* leaking in, plus `settings`."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("SLACK_", "TUTOR_", "PORT", "WEB_CONCURRENCY"))
    }
    return {**env, **settings}


@dataclass
class Server:
    """A running `tutor serve`; its log is a file, its database a file."""

    process: subprocess.Popen
    port: int
    db: Path
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/slack/events"

    def logged(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")

    def rows(self, table: str) -> int:
        with sqlite3.connect(self.db) as conn:
            return conn.execute(f"select count(*) from {table}").fetchone()[0]

    def health(self, timeout: float = 5.0) -> dict | None:
        """GET /healthz as JSON; None while the server does not answer (yet)."""
        url = f"http://127.0.0.1:{self.port}/healthz"
        try:
            with urllib.request.urlopen(url, timeout=timeout) as response:
                return json.loads(response.read()) if response.status == 200 else None
        except (OSError, ValueError):  # refused, reset, timed out (TimeoutError is an OSError)
            return None

    def kill(self) -> None:
        """kill -9 of the whole server: gunicorn's master and every worker, no cleanup."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def start(
    tmp: Path,
    api_url: str | None,
    *,
    content: Path | None = None,
    workers: int = 2,
    within: float = 60,
    env: dict[str, str] | None = None,
) -> Server:
    """Start `tutor serve` and wait (polling /healthz, with a deadline) until it answers.

    Every wait is bounded by the deadline and nothing else: a slow machine only makes it wait
    longer. The server runs in its own process group, so `Server.kill` can take it all down.
    """
    port, db, log = free_port(), tmp / "tutor.db", tmp / "serve.log"
    if api_url is None:  # Slack unreachable: a loopback port nobody listens on
        api_url = f"http://127.0.0.1:{free_port()}/"
    settings = slack_env(
        SLACK_BOT_TOKEN=BOT_TOKEN,
        SLACK_SIGNING_SECRET=SIGNING_SECRET,
        SLACK_API_URL=api_url,
        TUTOR_DB=str(db),
        WEB_CONCURRENCY=str(workers),
        **({"TUTOR_CONTENT": str(content)} if content else {}),
        **(env or {}),
    )
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "bot", "serve", "--port", str(port)],
            cwd=ROOT,
            env=settings,
            stdout=out,
            stderr=out,
            start_new_session=True,
        )
    server = Server(process, port, db, log)
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"tutor serve exited with {process.returncode}:\n{server.logged()}")
        if server.health(timeout=max(0.1, min(5.0, deadline - time.monotonic()))) is not None:
            return server
        time.sleep(0.1)
    server.stop()
    raise RuntimeError(f"tutor serve did not answer /healthz in {within}s:\n{server.logged()}")


def start_socket_mode(tmp: Path, api_url: str, *, content: Path, app_token: str) -> Server:
    """Start `tutor serve` in Socket Mode (SLACK_APP_TOKEN set); it listens on no port.

    Returns at once: wait for `SlackStub.wait_link` (or the log) with a deadline.
    """
    log = tmp / "serve.log"
    env = slack_env(
        SLACK_BOT_TOKEN=BOT_TOKEN,
        SLACK_APP_TOKEN=app_token,
        SLACK_API_URL=api_url,
        TUTOR_DB=str(tmp / "tutor.db"),
        TUTOR_CONTENT=str(content),
    )
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "bot", "serve"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=out,
            start_new_session=True,
        )
    return Server(process, 0, tmp / "tutor.db", log)


def _lower(headers) -> dict[str, str]:
    return {key.lower(): value for key, value in headers}
