"""One parser for learner text, shared by the local chat, /tutor and DMs."""

from __future__ import annotations

import pytest

from bot.commands import Command, parse


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("quiz", Command("quiz")),
        ("  Quiz  ", Command("quiz")),
        ("b", Command("answer", "b")),
        ("B)", Command("answer", "B")),
        ("3", Command("answer", "3")),
        ("leaderboard week", Command("leaderboard", "week")),
        ("stats", Command("stats")),
        ("help", Command("help")),
        ("", Command("help")),
        ("ask", Command("help")),
        (
            "ask which service for no-code training",
            Command("ask", "which service for no-code training"),
        ),
        (
            "which service for no-code training?",
            Command("ask", "which service for no-code training?"),
        ),
        ("<@U0TUTOR> quiz", Command("quiz")),
        ("quit", Command("quit")),
        (
            "schedule 09:00 Europe/Berlin weekdays",
            Command("schedule", "09:00 Europe/Berlin weekdays"),
        ),
    ],
)
def test_parse(text, expected):
    """Each line maps to the command a learner means."""
    assert parse(text) == expected


def test_a_question_starting_with_a_letter_word_is_still_a_question():
    """'a GPU or a TPU for BERT?' starts with 'a' but is a question, not an answer."""
    assert parse("a GPU or a TPU for BERT?").verb == "ask"
