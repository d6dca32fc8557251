"""HTTP mode under gunicorn stops gracefully too: work acked before SIGTERM/SIGINT is finished.

(Socket Mode's shutdown is in test_slack_socket_mode.py.) Every wait has a deadline; how long a
stop takes is measured in bench/socket_mode.py.
"""

from __future__ import annotations

import signal
import time

import pytest

from tests.conftest import write_content
from tests.slack_stub import SIGNING_SECRET, SlackRequests, mention_event, start


def wait(predicate, within: float = 20.0) -> bool:
    deadline = time.monotonic() + within
    while not predicate() and time.monotonic() < deadline:
        time.sleep(0.05)
    return bool(predicate())


@pytest.mark.parametrize("stop_signal", [signal.SIGTERM, signal.SIGINT])
def test_a_stop_signal_lets_the_reply_in_flight_finish_and_exits_0(tmp_path, stub, stop_signal):
    """A mention acked, its reply held at Slack, then the signal: the reply completes, exit 0."""
    server = start(tmp_path, stub.url, content=write_content(tmp_path / "content"), workers=1)
    try:
        slack = SlackRequests(server.url, SIGNING_SECRET)
        held = stub.hold("chat.postMessage")
        assert slack.post(slack.event(mention_event("no code training"))).status == 200
        assert wait(lambda: stub.called("chat.postMessage")), server.logged()

        server.process.send_signal(stop_signal)
        assert wait(lambda: server.health(timeout=1) is None)  # takes no new requests
        assert server.process.poll() is None  # still finishing the reply it acked
        held.set()

        assert server.process.wait(timeout=30) == 0, server.logged()
        log = server.logged()
        assert "Traceback" not in log and "not delivered" not in log, log
        assert "WORKER TIMEOUT" not in log and "SIGKILL" not in log, log  # the whole log if not
    finally:
        server.kill()
