"""One parser for a line of learner text, shared by Slack DMs, `/tutor` and the local chat."""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.matching import clean

VERBS = {
    "ask": "ask",
    "quiz": "quiz",
    "leaderboard": "leaderboard",
    "leaders": "leaderboard",
    "lb": "leaderboard",
    "stats": "stats",
    "me": "stats",
    "help": "help",
    "?": "help",
    "quit": "quit",
    "exit": "quit",
    "bye": "quit",
    "gaps": "gaps",
    "schedule": "schedule",
    "daily": "daily",
}
_ANSWER = re.compile(r"^\(?([a-eA-E]|[1-5])[).:]?$")


@dataclass(frozen=True)
class Command:
    """What the learner wants (`verb`) and the rest of their text (`arg`)."""

    verb: str  # ask | quiz | answer | leaderboard | stats | help | quit | gaps | schedule | daily
    arg: str = ""


def parse(text: str) -> Command:
    """'quiz' → quiz; 'b' → answer b; 'leaderboard week' → leaderboard; anything else → ask.

    Mentions of the bot and leading punctuation are ignored, so `<@U0BOT> quiz` is a quiz.
    """
    line = clean(text).strip()
    if not line:
        return Command("help")
    if _ANSWER.match(line):
        return Command("answer", _ANSWER.match(line).group(1))  # type: ignore[union-attr]
    head, _, rest = line.partition(" ")
    verb = VERBS.get(head.lower().lstrip("/").rstrip("!.?:"))
    if verb is None:
        return Command("ask", line)
    if verb == "ask" and not rest.strip():
        return Command("help")
    return Command(verb, rest.strip())
