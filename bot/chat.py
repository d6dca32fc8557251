"""`tutor chat`: the whole tutor in a terminal, over the same core and a local SQLite file."""

from __future__ import annotations

import datetime as dt
import sys
from collections.abc import Callable
from typing import TextIO

from bot import replies
from bot.commands import parse
from bot.tutor import LOCAL_TEAM, Tutor


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

    def say(lines: list[str] | str) -> None:
        print("\n".join(lines) if isinstance(lines, list) else lines, file=stdout, flush=True)

    say(replies.WELCOME)
    while True:
        if interactive:
            print("> ", end="", file=stdout, flush=True)
        line = stdin.readline()
        if not line:
            return 0
        if not line.strip():
            continue
        reply = respond(tutor, line, user=user, now=clock())
        if reply is None:
            say("Bye! Keep your streak going.")
            return 0
        say(reply)


def respond(tutor: Tutor, line: str, *, user: str, now: dt.datetime) -> list[str] | None:
    """One turn of the chat; None means the learner is leaving."""
    command = parse(line)
    team = LOCAL_TEAM
    if command.verb == "quit":
        return None
    if command.verb == "ask":
        return replies.answer_lines(tutor.ask(command.arg, asker=user, now=now), tutor.entry)
    if command.verb == "quiz":
        asked = tutor.quiz(team=team, user=user, channel="chat", now=now)
        return [*replies.question_lines(asked.question), replies.choice_prompt(asked.question)]
    if command.verb == "answer":
        pending = tutor.pending(team=team, user=user)
        if pending is None:
            return [replies.NO_PENDING]
        graded = tutor.answer(post_id=pending.post.id, user=user, choice=command.arg, now=now)
        return replies.feedback_lines(graded) if graded else [replies.UNKNOWN_POST]
    if command.verb == "leaderboard":
        period = command.arg if command.arg in ("week", "month", "all") else "all"
        return replies.leaderboard_lines(
            tutor.leaderboard(team=team, period=period, now=now), period
        )
    if command.verb == "stats":
        return replies.stats_lines(tutor.stats(team=team, user=user, now=now))
    return [replies.HELP, replies.CHAT_EXTRA]
