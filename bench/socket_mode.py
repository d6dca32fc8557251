"""Socket Mode under what Slack and networks do: refresh, dropped links, Slack away, SIGTERM.

Every subject is a real server process connected to the stand-in in tests/slack_stub.py, with
the tutor's own bolt app; scenarios run interleaved subject by subject, so machine noise hits
them alike:

  tutor        `tutor serve` from this working tree (bot/slack/socket_mode.py)
  before       `tutor serve` from a git worktree of --before REF (e.g. the commit before it)
  builtin      the tutor app under bolt's SocketModeHandler as `tutor serve` ran it (defaults)
  builtin-2s   the same with ping_interval=2 (the setting that shortens its stale-link check)
  wsclient     bolt's websocket-client adapter (if `websocket-client` is installed)

Scenarios and what is measured (all times from the event, in seconds):

  refresh    `disconnect` (refresh_requested), one envelope on the old link, then ten more
             0.1 s apart: the slowest ack, and how many took over 1 s / 3 s (or never came)
  close      the link's TCP closed with no close frame   } an envelope pushed at the drop:
  reset      the link's TCP reset                         } when it is acked (answering again);
  silence    the link goes half-open (nothing comes back) } CPU share (of one core) until then,
                                                            or 5 s if longer; log lines; tracebacks
  away       Slack's port closed at start, opened 4 s later: exit code, or when it connected
  sigterm    SIGTERM while a mention's reply is in flight: exit code, time to exit, reply sent,
             close frame sent

Run: `python -m bench.socket_mode [--rounds N] [--before REF] [--subjects a,b] [--scenarios x,y]`.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tests.conftest import write_content
from tests.slack_stub import (
    BOT_TOKEN,
    ROOT,
    Link,
    SlackRequests,
    SlackStub,
    free_port,
    mention_event,
    slack_env,
)

APP_TOKEN = "xapp-1-A0TUTOR001-bench"
SCENARIOS = ("refresh", "close", "reset", "silence", "away", "sigterm")
CUT_WAIT = 70.0  # the longest a subject may take to answer again before it counts as "never"
CPU_WINDOW = 5.0  # CPU share is taken over at least this long after a drop (ticks are 10 ms)
TICK = os.sysconf("SC_CLK_TCK")


# -- subjects: how to start each server ------------------------------------------------------


def stock_server(adapter: str) -> None:
    """Serve the tutor's app under one of bolt's own Socket Mode handlers (a bench subject)."""
    import logging

    from slack_sdk import WebClient

    from bot.catalog import load_catalog
    from bot.config import Settings
    from bot.slack.app import create_app
    from bot.store import Store
    from bot.tutor import Tutor

    logging.basicConfig(level=logging.INFO)
    settings = Settings.from_env()
    app = create_app(settings, Tutor(load_catalog(settings.content_root), Store(settings.db_path)))
    api = WebClient(base_url=settings.api_url)
    if adapter == "wsclient":
        from slack_bolt.adapter.socket_mode.websocket_client import SocketModeHandler as WsClient

        WsClient(app, settings.app_token, web_client=api).start()
    else:
        from slack_bolt.adapter.socket_mode import SocketModeHandler

        ping = 2 if adapter == "builtin-2s" else 10
        SocketModeHandler(app, settings.app_token, web_client=api, ping_interval=ping).start()


def command(subject: str, before: Path | None) -> tuple[list[str], Path]:
    if subject == "tutor":
        return [sys.executable, "-m", "bot", "serve"], ROOT
    if subject == "before":
        assert before is not None, "--before REF is needed for the 'before' subject"
        return [sys.executable, "-m", "bot", "serve"], before
    return [sys.executable, "-m", "bench.socket_mode", "--stock", subject], ROOT


@dataclass
class Running:
    process: subprocess.Popen
    log: Path

    def cpu(self) -> float:
        """CPU seconds (user + system) the process has used so far."""
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / TICK
        return 0.0

    def logged(self) -> str:
        return self.log.read_text(errors="replace")

    def stop(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()


def launch(subject: str, before: Path | None, api_url: str, tmp: Path) -> Running:
    args, cwd = command(subject, before)
    log = tmp / f"{subject}.log"
    env = slack_env(
        SLACK_BOT_TOKEN=BOT_TOKEN,
        SLACK_APP_TOKEN=APP_TOKEN,
        SLACK_API_URL=api_url,
        TUTOR_DB=str(tmp / f"{subject}.db"),
        TUTOR_CONTENT=str(write_content(tmp / "content")),
        PYTHONPATH=str(cwd),
    )
    with log.open("w") as out:
        process = subprocess.Popen(
            args, cwd=cwd, env=env, stdout=out, stderr=out, start_new_session=True
        )
    return Running(process, log)


# -- envelopes -------------------------------------------------------------------------------

_factory = SlackRequests("", "unused")
_count = iter(range(1, 10**9))


def slash_envelope() -> dict:
    payload = dict(urllib.parse.parse_qsl(_factory.slash("which service for no-code training")[0]))
    return {
        "envelope_id": f"env-{next(_count)}",
        "type": "slash_commands",
        "accepts_response_payload": True,
        "payload": payload,
    }


def mention_envelope() -> dict:
    return {
        "envelope_id": f"env-{next(_count)}",
        "type": "events_api",
        "accepts_response_payload": False,
        "payload": json.loads(_factory.event(mention_event("no code training"))[0]),
    }


def until(predicate: Callable[[], object], within: float) -> bool:
    deadline = time.monotonic() + within
    while not predicate() and time.monotonic() < deadline:
        time.sleep(0.01)
    return bool(predicate())


def acked_at(stub: SlackStub, envelope_id: str) -> float | None:
    """When the first ack of `envelope_id` arrived (time.monotonic()), or None."""
    return min((a.at for a in stub.acked if a.envelope_id == envelope_id), default=None)


def connected(stub: SlackStub, server: Running) -> Link:
    link = stub.wait_link(1, within=30)
    assert link is not None, server.logged()
    warm = slash_envelope()
    stub.send(warm)
    assert until(lambda: stub.ack_delay(warm["envelope_id"]) is not None, 30), server.logged()
    return link


# -- scenarios: each returns its figures -----------------------------------------------------


def refresh(stub: SlackStub, server: Running) -> dict:
    old = connected(stub, server)
    stub.refresh(old, close_after=5)
    envelopes = [slash_envelope()]
    stub.send(envelopes[0], old)
    for _ in range(10):
        time.sleep(0.1)
        envelopes.append(slash_envelope())
        stub.send(envelopes[-1])
    ids = [e["envelope_id"] for e in envelopes]
    until(lambda: all(stub.ack_delay(i) is not None for i in ids), 10)
    delays = [stub.ack_delay(i) for i in ids]
    acked = [d for d in delays if d is not None]
    return {
        "slowest ack": max(acked) if len(acked) == len(ids) else None,
        "acks > 1 s": sum(d is None or d > 1 for d in delays),
        "acks > 3 s or none": sum(d is None or d > 3 for d in delays),
    }


def cut(how: str) -> Callable[[SlackStub, Running], dict]:
    def scenario(stub: SlackStub, server: Running) -> dict:
        link = connected(stub, server)
        before_log = server.logged()
        probe = slash_envelope()
        cpu, began = server.cpu(), time.monotonic()
        stub.cut(link, how)
        stub.send(probe)  # waits in the queue until a live link takes it
        until(lambda: acked_at(stub, probe["envelope_id"]), CUT_WAIT)
        time.sleep(max(0.0, began + CPU_WINDOW - time.monotonic()))
        took, at = time.monotonic() - began, acked_at(stub, probe["envelope_id"])
        log = server.logged()
        return {
            "answering again": None if at is None else at - began,
            "CPU share": (server.cpu() - cpu) / took,
            "lines logged": log.count("\n") - before_log.count("\n"),
            "tracebacks": log.count("Traceback") - before_log.count("Traceback"),
        }

    return scenario


def run_scenario(name: str, subject: str, before: Path | None, tmp: Path) -> dict:
    if name == "away":
        return away(subject, before, tmp)
    stub = SlackStub().start()
    server = launch(subject, before, stub.url, tmp)
    try:
        if name == "sigterm":
            return sigterm(stub, server)
        return {"refresh": refresh, **{h: cut(h) for h in ("close", "reset", "silence")}}[name](
            stub, server
        )
    finally:
        server.stop()
        stub.stop()


def away(subject: str, before: Path | None, tmp: Path) -> dict:
    port = free_port()
    server = launch(subject, before, f"http://127.0.0.1:{port}/", tmp)
    stub = SlackStub(port=port)
    try:
        time.sleep(4)
        if server.process.poll() is not None:
            return {"exit code": server.process.returncode, "connected after": None}
        stub.start()
        began = time.monotonic()
        link = stub.wait_link(1, within=60)
        return {"exit code": None, "connected after": link.opened - began if link else None}
    finally:
        server.stop()
        with contextlib.suppress(AttributeError):
            stub.stop()


def sigterm(stub: SlackStub, server: Running) -> dict:
    link = connected(stub, server)
    held = stub.hold("chat.postMessage")
    mention = mention_envelope()
    stub.send(mention)
    until(lambda: stub.ack_delay(mention["envelope_id"]) is not None, 10)
    until(lambda: stub.called("chat.postMessage"), 10)  # the reply is on its way, held
    began = time.monotonic()
    server.process.send_signal(signal.SIGTERM)
    threading.Timer(1.0, held.set).start()
    try:
        code = server.process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        code = None
    return {
        "exit code": code,
        "exited after": time.monotonic() - began if code is not None else None,
        "close frame": link.close_code,
        "reply sent": held.is_set() and bool(stub.called("chat.postMessage")),
    }


# -- the report ------------------------------------------------------------------------------


def summary(values: list) -> str:
    numbers = [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
    if len(numbers) == len(values) and numbers and any(isinstance(v, float) for v in numbers):
        middle = statistics.median(numbers)
        return f"{middle:.2f} (min {min(numbers):.2f}, max {max(numbers):.2f})"
    return ", ".join("never" if v is None else str(v) for v in values)


def worktree(ref: str, into: Path) -> Path:
    path = into / "before"
    subprocess.run(
        ["git", "worktree", "add", "--detach", str(path), ref],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    return path


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--before", metavar="REF", help="also run `tutor serve` from this commit")
    parser.add_argument("--subjects", default="tutor,builtin")
    parser.add_argument("--scenarios", default=",".join(SCENARIOS))
    parser.add_argument("--stock", help=argparse.SUPPRESS)  # internal: serve a stock subject
    args = parser.parse_args(argv)
    if args.stock:
        stock_server(args.stock)
        return
    subjects = args.subjects.split(",") + (["before"] if args.before else [])
    with tempfile.TemporaryDirectory() as tmp:
        before = worktree(args.before, Path(tmp)) if args.before else None
        try:
            for scenario in args.scenarios.split(","):
                results: dict[str, list[dict]] = {s: [] for s in subjects}
                for _ in range(args.rounds):
                    for subject in subjects:
                        work = Path(tempfile.mkdtemp(dir=tmp))
                        results[subject].append(run_scenario(scenario, subject, before, work))
                print(f"-- {scenario}", flush=True)
                for subject, rounds in results.items():
                    figures = {k: summary([r[k] for r in rounds]) for k in rounds[0]}
                    line = "; ".join(f"{k}: {v}" for k, v in figures.items())
                    print(f"   {subject:11} {line}", flush=True)
        finally:
            if before is not None:
                subprocess.run(["git", "worktree", "remove", "--force", str(before)], cwd=ROOT)


if __name__ == "__main__":
    main()
