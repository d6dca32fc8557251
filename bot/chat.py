"""`tutor chat`: the whole tutor in a terminal, over the same core and a local SQLite file."""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import re
import select
import shutil
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from bot import replies
from bot.conversation import Goodbye, Place, Subject, handle, parse, subject_of
from bot.daily import LOCAL_CHANNEL
from bot.practice import is_choice_line
from bot.store import LOCAL_TEAM
from bot.tutor import Tutor


def run_chat(
    tutor: Tutor,
    *,
    user: str,
    clock: Callable[[], dt.datetime],
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    kept_in: str = "",
    history: Path | None = None,
) -> int:
    """Read lines until `quit` or end of input; answer each one. Returns the exit status.

    At a terminal: line editing and history (readline, kept in `history`), long lines wrapped,
    answers' names in bold and their secondary lines dim, and `kept_in` (where the answers are
    kept) under the welcome. Piped, every line is plain text.
    """
    stdin, stdout = stdin or sys.stdin, stdout or sys.stdout
    interactive = stdin.isatty()
    terminal = interactive and stdin is sys.stdin and stdout is sys.stdout
    width = shutil.get_terminal_size().columns if interactive else 0
    styled = interactive and stdout.isatty() and _colour_allowed()

    def say(lines: list[str] | str) -> None:
        shown = [lines] if isinstance(lines, str) else lines
        if width:  # at a terminal, wrap long lines at word boundaries, keeping their indent
            shown = [wrap(line, width) for line in shown]
        if styled:
            shown = style(shown)
        print("\n".join(shown), file=stdout, flush=True)

    say([replies.WELCOME, kept_in] if interactive and kept_in else replies.WELCOME)
    read = _readline_reader(history) if terminal else _plain_reader(stdin, stdout, interactive)
    # Piped, the next line is always there to look at; at a terminal only if it was pasted.
    read = _Pasted(read, ready=(lambda: _waiting(stdin)) if interactive else (lambda: True))
    session = Session()
    while True:
        try:
            line = read()
        except KeyboardInterrupt:  # Ctrl-C at the prompt: leave on a line of its own
            print(file=stdout, flush=True)
            return 130
        if line is None:
            if interactive:  # Ctrl-D: the goodbye starts on a fresh line, not after "> "
                print(file=stdout)
                say(replies.GOODBYE)
            return 0
        line = without_escapes(line)
        if not line.strip():
            continue
        reply = respond(tutor, line, user=user, now=clock(), session=session)
        if reply is None:
            say(replies.GOODBYE)
            return 0
        say(reply)


# Terminal escape sequences (arrow keys without readline: `^[[A`) and other control characters.
_ESCAPES = re.compile(r"\x1b(?:\[[0-9;?]*[ -/]*[@-~]|O.|.)?|[\x00-\x08\x0b-\x1f\x7f]")


def without_escapes(line: str) -> str:
    """A typed line without terminal escape sequences: an arrow key is never a question."""
    return _ESCAPES.sub("", line)


def _plain_reader(stdin: TextIO, stdout: TextIO, interactive: bool) -> Callable[[], str | None]:
    def read() -> str | None:
        if interactive:
            print("> ", end="", file=stdout, flush=True)
        return stdin.readline() or None

    return read


STEM_WORDS = 5  # a line this long (or longer) may be the stem of a pasted exam question


class _Pasted:
    """Lines as a learner sends them: the choice lines of a pasted exam-style question ("A. …",
    "B) …") join the stem above them, so the question reaches the tutor whole, as it does in
    Slack. Only lines already waiting are looked at; a short line (a command, a letter) stays
    alone, and a line that is not a choice is kept for the next read."""

    def __init__(self, read: Callable[[], str | None], ready: Callable[[], bool]) -> None:
        self._read, self._ready = read, ready
        self._kept: list[str | None] = []

    def __call__(self) -> str | None:
        line = self._kept.pop() if self._kept else self._read()
        if line is None or len(line.split()) < STEM_WORDS:
            return line
        while self._ready():
            following = self._read()
            if following is None or not is_choice_line(following):
                self._kept.append(following)
                break
            line = f"{line.rstrip()}\n{following.rstrip()}"
        return line


def _waiting(stdin: TextIO) -> bool:
    """Input already typed or pasted at the terminal, not yet read."""
    try:
        return bool(select.select([stdin], [], [], 0)[0])
    except (OSError, ValueError):  # no file descriptor behind it: nothing to look at
        return False


def _readline_reader(history: Path | None) -> Callable[[], str | None]:
    """input() with readline's editing, and history kept between chats (when it can be)."""
    import readline  # at a terminal only: importing it is what gives input() editing

    if history is not None:
        with contextlib.suppress(OSError):
            readline.read_history_file(history)
    readline.set_history_length(1000)

    def read() -> str | None:
        try:
            line = input("> ")
        except EOFError:
            return None
        if history is not None and line.strip():
            with contextlib.suppress(OSError):
                readline.write_history_file(history)
        return line

    return read


def _colour_allowed() -> bool:
    """https://no-color.org and dumb terminals get plain text."""
    return not os.environ.get("NO_COLOR") and os.environ.get("TERM", "") != "dumb"


BOLD, DIM, RESET = "\x1b[1m", "\x1b[2m", "\x1b[0m"
_SECONDARY = (
    "Don't confuse with",
    "Exam section",
    "Source:",
    "Related:",
    "Read next:",
    "   ",  # the other choices' explanations, indented
    "Boards count",
    "Your answers are kept",
)
_HEADLINES = re.compile(r".*\(\d+% sure\)$|Correct!$|Not quite\.$|\[\d+\.\d+ .*", re.DOTALL)


def style(lines: list[str]) -> list[str]:
    """Bold for what a reply is about (the answer's name, the verdict, the question), dim for
    what is secondary (mix-ups, sections, sources); at a terminal only."""
    shown = []
    for line in lines:
        if _HEADLINES.match(line):  # a wrapped line is styled whole
            shown.append(f"{BOLD}{line}{RESET}")
        elif line.startswith(_SECONDARY):
            shown.append(f"{DIM}{line}{RESET}")
        else:
            shown.append(line)
    return shown


def wrap(line: str, width: int) -> str:
    """One line folded to `width`; continuation lines indented like the line itself or, for a
    two-column line (the help), under its second column."""
    column = _SECOND_COLUMN.match(line)
    if column and len(column.group(1)) < width // 2:
        indent = " " * len(column.group(1))
    else:
        indent = " " * (len(line) - len(line.lstrip()) + 3)
    if not line:
        return line
    # Paths and links stay whole: no breaks at hyphens or inside a word.
    return textwrap.fill(
        line,
        width=width,
        subsequent_indent=indent,
        break_on_hyphens=False,
        break_long_words=False,
    )


_SECOND_COLUMN = re.compile(r"(\s+\S.*?\s{2,})\S")


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
