"""`tutor chat`: the whole tutor in a terminal, over the same core and a local SQLite file."""

from __future__ import annotations

import datetime as dt
import shutil
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

from bot import replies
from bot.conversation import Goodbye, Place, Subject, handle, parse, subject_of
from bot.daily import LOCAL_CHANNEL
from bot.store import LOCAL_TEAM
from bot.tutor import Tutor


def run_chat(
    tutor: Tutor,
    *,
    user: str,
    clock: Callable[[], dt.datetime],
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    """Read lines until `quit` or end of input; answer each one. Returns the exit status."""
    stdin, stdout = stdin or sys.stdin, stdout or sys.stdout
    interactive = stdin.isatty()

    width = shutil.get_terminal_size().columns if interactive else 0

    def say(lines: list[str] | str) -> None:
        shown = [lines] if isinstance(lines, str) else lines
        if width:  # at a terminal, wrap long lines at word boundaries, keeping their indent
            shown = [wrap(line, width) for line in shown]
        print("\n".join(shown), file=stdout, flush=True)

    say(replies.WELCOME)
    session = Session()
    while True:
        if interactive:
            print("> ", end="", file=stdout, flush=True)
        line = stdin.readline()
        if not line:
            return 0
        if not line.strip():
            continue
        reply = respond(tutor, line, user=user, now=clock(), session=session)
        if reply is None:
            say(replies.GOODBYE)
            return 0
        say(reply)


def wrap(line: str, width: int) -> str:
    """One line folded to `width`, continuation lines indented like the line itself."""
    indent = " " * (len(line) - len(line.lstrip()) + 3)
    return textwrap.fill(line, width=width, subsequent_indent=indent) if line else line


@dataclass
class Session:
    """What the chat remembers between lines: the answer or question shown last (for report)."""

    recent: Subject | None = None


def respond(
    tutor: Tutor, line: str, *, user: str, now: dt.datetime, session: Session | None = None
) -> list[str] | None:
    """One turn of the chat, decided by the conversation core; None means the learner is leaving."""
    session = session or Session()
    place = Place(
        LOCAL_TEAM, user, LOCAL_CHANNEL, private=True, is_admin=lambda: True, recent=session.recent
    )
    result = handle(tutor, parse(line), place, now)
    session.recent = subject_of(result) or session.recent
    return None if isinstance(result, Goodbye) else replies.render(result)
