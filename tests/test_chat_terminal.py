"""`tutor chat` at a real terminal (a pseudo-terminal from the stdlib `pty` module): a readable
help, line editing and history, arrow keys that are never questions, a clean Ctrl-D, styling.

Every read waits for an expected piece of output with a deadline, never for a fixed time.
"""

from __future__ import annotations

import contextlib
import os
import pty
import select
import sqlite3
import sys
import time
from pathlib import Path

from bot.conversation import USAGE
from tests.conftest import SHIPPED_ROOT

DEADLINE = 60.0  # seconds for any one expected output; a busy machine only waits longer
UP = b"\x1b[A"


class Terminal:
    """`python -m bot chat` on a pseudo-terminal 80 columns wide."""

    def __init__(self, tmp: Path) -> None:
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(tmp / "home"),
            "XDG_DATA_HOME": str(tmp / "data"),
            "TUTOR_DB": str(tmp / "tutor.db"),
            "TERM": "xterm",
            "COLUMNS": "80",
            "LINES": "40",
        }
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: the chat, with the pty as its terminal
            os.chdir(SHIPPED_ROOT)
            os.execve(sys.executable, [sys.executable, "-m", "bot", "chat", "--user", "ana"], env)
        self.out = b""

    def expect(self, marker: bytes) -> bytes:
        """Everything up to and including `marker`, which must come within the deadline."""
        deadline = time.monotonic() + DEADLINE
        while marker not in self.out:
            left = deadline - time.monotonic()
            assert left > 0, f"no {marker!r} within {DEADLINE} s; got {self.out[-400:]!r}"
            ready, _, _ = select.select([self.fd], [], [], min(left, 1.0))
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:  # the child closed the terminal
                    chunk = b""
                assert chunk or marker in self.out, f"chat ended before {marker!r}: {self.out!r}"
                self.out += chunk
        head, _, self.out = self.out.partition(marker)
        return head + marker

    def send(self, keys: bytes) -> None:
        os.write(self.fd, keys)

    def exit_status(self) -> int:
        deadline = time.monotonic() + DEADLINE
        while time.monotonic() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                os.close(self.fd)
                return os.waitstatus_to_exitcode(status)
            self.drain()
        raise AssertionError("the chat did not exit within the deadline")

    def drain(self) -> None:
        ready, _, _ = select.select([self.fd], [], [], 0.2)
        if ready:
            with contextlib.suppress(OSError):
                self.out += os.read(self.fd, 65536)


def plain(raw: bytes) -> str:
    """The terminal's bytes as text, without styling codes or carriage returns."""
    text = raw.decode("utf-8", errors="replace").replace("\r", "")
    for code in ("\x1b[1m", "\x1b[2m", "\x1b[0m"):
        text = text.replace(code, "")
    return text


def test_help_is_readable_at_a_terminal(tmp_path):
    """Each command on its own line; a wrapped description continues under its own column."""
    chat = Terminal(tmp_path)
    welcome = plain(chat.expect(b"> "))
    assert "Your answers are kept in" in welcome and str(tmp_path / "tutor.db") in welcome
    chat.send(b"help\n")
    shown = plain(chat.expect(b"leave the chat")).split("\n")
    starts = [line.split("  ")[1] if line.startswith("  ") else "" for line in shown]
    assert all(usage in starts for usage, _ in USAGE)
    column = shown[[s == "quiz" for s in starts].index(True)].index("a quick-check")
    continued = [line for line in shown if line.startswith(" " * 4) and line.strip()]
    assert continued and all(len(line) - len(line.lstrip()) == column for line in continued)
    assert all(len(line) <= 80 for line in shown)
    chat.expect(b"> ")  # readline has the terminal again: Ctrl-D is read as its end-of-file
    chat.send(b"\x04")
    assert chat.exit_status() == 0


def test_arrow_keys_recall_history_and_are_never_questions(tmp_path):
    """Up-arrow recalls the last line (also in the next chat); no escape sequence is a question."""
    chat = Terminal(tmp_path)
    chat.expect(b"> ")
    chat.send(b"which service for no-code training\n")
    first = chat.expect(b"> ")
    assert b"\x1b[1mAutoML on Vertex AI" in first  # the answer's name in bold at a terminal
    chat.send(UP + b"\n")
    assert b"AutoML on Vertex AI" in chat.expect(b"> ")
    chat.send(b"\x04")
    assert chat.exit_status() == 0

    again = Terminal(tmp_path)  # history is kept between chats
    again.expect(b"> ")
    again.send(UP + b"\n")
    assert b"AutoML on Vertex AI" in again.expect(b"> ")
    again.send(b"\x1b[B\x1b[C\n")  # down and right with nothing to recall: an empty line
    again.send(b"quit\n")
    assert "Bye!" in plain(again.expect(b"streak going."))
    assert again.exit_status() == 0
    with sqlite3.connect(tmp_path / "tutor.db") as conn:
        asked = [q for (q,) in conn.execute("select question from gaps")]
    assert not [q for q in asked if "\x1b" in q or "[a" in q or "[b" in q]


def test_ctrl_d_leaves_cleanly_on_its_own_line(tmp_path):
    """Ctrl-D at the prompt: the goodbye starts on a fresh line and the chat exits 0."""
    chat = Terminal(tmp_path)
    chat.expect(b"> ")
    chat.send(b"\x04")
    tail = plain(chat.expect(b"streak going."))
    assert tail.startswith("\nBye!") and not tail.startswith("Bye")
    assert chat.exit_status() == 0
