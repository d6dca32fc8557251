"""`tutor chat`: the whole tutor in a terminal, over the same core and a local SQLite file."""

from __future__ import annotations

import datetime as dt
import shutil
import sys
import textwrap
from collections.abc import Callable
from typing import TextIO

from bot import replies
from bot.commands import parse
from bot.daily import LOCAL_CHANNEL, Daily, Recap, Reveal
from bot.quiz import Question
from bot.store import Post, stamp
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

    width = shutil.get_terminal_size().columns if interactive else 0

    def say(lines: list[str] | str) -> None:
        shown = [lines] if isinstance(lines, str) else lines
        if width:  # at a terminal, wrap long lines at word boundaries, keeping their indent
            shown = [wrap(line, width) for line in shown]
        print("\n".join(shown), file=stdout, flush=True)

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


def wrap(line: str, width: int) -> str:
    """One line folded to `width`, continuation lines indented like the line itself."""
    indent = " " * (len(line) - len(line.lstrip()) + 3)
    return textwrap.fill(line, width=width, subsequent_indent=indent) if line else line


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
        heading = [replies.REVIEW] if asked.review else []
        return [
            *heading,
            *replies.question_lines(asked.question),
            replies.choice_prompt(asked.question),
        ]
    if command.verb == "daily":
        return daily_turn(tutor, command.arg, user=user, now=now)
    if command.verb == "answer":
        pending = tutor.pending(team=team, user=user)
        today = open_daily(tutor, user=user, now=now)
        if today is not None and (pending is None or today.id > pending.post.id):
            return daily_turn(tutor, command.arg, user=user, now=now)
        if pending is None:
            return [replies.NO_PENDING]
        graded = tutor.answer(
            post_id=pending.post.id, user=user, choice=command.arg, now=now, team=team
        )
        return replies.feedback_lines(graded) if graded else [replies.UNKNOWN_POST]
    if command.verb == "leaderboard":
        period = command.arg if command.arg in ("week", "month", "all") else "all"
        return replies.leaderboard_lines(
            tutor.leaderboard(team=team, period=period, now=now), period
        )
    if command.verb == "stats":
        return replies.stats_lines(tutor.stats(team=team, user=user, now=now))
    return [replies.HELP, replies.CHAT_EXTRA]


# -- the daily quick-check, in a local pseudo-channel ----------------------------------------


class ChatPoster:
    """A Poster for the terminal: what would go to a Slack channel becomes lines to print."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def post_question(self, post: Post, question: Question, recap: Recap | None) -> str:
        self.lines += replies.daily_lines(question, post.closes_at)
        return f"chat-{post.id}"

    def find_posted(self, post: Post) -> str | None:
        return None  # lines printed by a run that died are gone with it

    def reveal(self, reveal: Reveal) -> None:
        first = replies.question_lines(reveal.question)[0]
        self.lines += [f"Yesterday: {first}", *replies.reveal_lines(reveal)]


def daily_turn(tutor: Tutor, arg: str, *, user: str, now: dt.datetime) -> list[str]:
    """`daily`: today's question (and yesterday's reveal); `daily b`: answer it; `daily board`."""
    daily, poster = Daily(tutor), ChatPoster()
    if arg.strip().lower() in ("board", "leaderboard"):
        rows = daily.team_board(team=LOCAL_TEAM, channel=LOCAL_CHANNEL, period="week", now=now)
        return replies.team_board_lines(rows, "week", str)
    post = daily.local_today(poster, now=now)
    question = tutor.catalog.questions.get(post.question_id) if post else None
    if post is None or question is None:
        return poster.lines or [replies.UNKNOWN_POST]
    if not arg.strip():
        shown = poster.lines or replies.daily_lines(question, post.closes_at)
        mine = tutor.store.answer_of(post.id, user)
        if mine:
            return [*shown, replies.daily_answered(mine, daily.reveal_of(post).total)]
        return [*shown, replies.choice_prompt(question)]
    graded = tutor.answer(
        post_id=post.id, user=user, choice=arg, now=now, team=LOCAL_TEAM, channel=LOCAL_CHANNEL
    )
    return [*poster.lines, *replies.feedback_lines(graded)] if graded else [replies.UNKNOWN_POST]


def open_daily(tutor: Tutor, *, user: str, now: dt.datetime):
    """Today's local daily post if it is open and this learner has not answered it."""
    post = Daily(tutor).store.post_for(
        team=LOCAL_TEAM, channel=LOCAL_CHANNEL, local_date=now.astimezone(dt.UTC).date()
    )
    if post is None or (post.closes_at and stamp(now) >= post.closes_at):
        return None
    return None if tutor.store.answer_of(post.id, user) else post
