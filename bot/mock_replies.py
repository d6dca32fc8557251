"""The mock exam's words, as plain text (the terminal, and Slack's text and blocks)."""

from __future__ import annotations

import datetime as dt

from bot.content import DOMAINS
from bot.mock import (
    EXAM_MINUTES,
    EXAM_QUESTIONS,
    MIN_SIZE,
    PACE,
    Missed,
    MockDiscarded,
    MockDone,
    MockOffer,
    MockRefused,
    MockResult,
    MockShown,
    NoMock,
)
from bot.quiz import Question

OFF_BOARDS = "No feedback until the end, and your results stay off the leaderboards."
NO_MOCK = "No mock exam in progress. Type mock to start one (mock 20 timed keeps the exam's pace)."
STALE = "That question was already answered: the mock has moved on. Type mock resume to see it."
OVER = "That mock exam is over. Type mock to start a new one."
NOT_YOURS = "That mock exam is someone else's, so nothing was recorded. Start yours with mock."
UNKNOWN = "That question is no longer available. Type mock resume to see where you are."
RESUME, DISCARD = "Resume", "Discard"


def duration(span: dt.timedelta) -> str:
    """'1 h 5 min', '23 min 10 s', '40 s'."""
    seconds = max(int(span.total_seconds()), 0)
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{hours} h {minutes} min"
    if minutes:
        return f"{minutes} min {seconds} s" if seconds else f"{minutes} min"
    return f"{seconds} s"


def mock_heading(shown: MockShown) -> list[str]:
    """What comes before the question: how the mock works, or that the last answer was taken."""
    if shown.how == "start":
        lines = [f"Mock exam: {shown.size} questions in the exam guide's proportions. {OFF_BOARDS}"]
        if shown.time_left is not None:
            lines.append(
                f"Time limit: {duration(shown.time_left)}, the real exam's pace "
                f"({EXAM_MINUTES} min for up to {EXAM_QUESTIONS} questions, "
                f"{duration(PACE)} each)."
            )
        return lines
    if shown.how == "resume":
        return ["Resuming your mock exam."]
    return [f"Recorded {shown.recorded.lower()}."] if shown.recorded else []


def progress(shown: MockShown) -> str:
    left = f" · {duration(shown.time_left)} left" if shown.time_left is not None else ""
    return f"Question {shown.position + 1} of {shown.size}{left}"


def mock_question_lines(question: Question) -> list[str]:
    """The question without its section and topic: on the exam nothing says where it is from."""
    return [question.question, *(f"  {x.lower()}) {text}" for x, text in question.choices)]


def prompt(question: Question) -> str:
    return f"Answer with {', '.join(x.lower() for x in question.letters)}."


def result_summary(done: MockDone) -> list[str]:
    """The score, per exam section, and the time used."""
    how = "Time's up! Your mock exam ended" if done.ran_out else "Mock exam finished"
    lines = [
        f"{how}: {done.correct}/{done.size} ({done.share:.0%}).",
        f"Time used: {duration(done.used)}.",
        "By exam section:",
    ]
    for score in done.sections:
        name = DOMAINS.get(score.domain, (f"Domain {score.domain}", 0))[0]
        share = score.correct / score.total if score.total else 0.0
        lines.append(f"  {score.domain}. {name}: {score.correct}/{score.total} ({share:.0%})")
    if not done.missed:
        lines.append("No misses. Try mock 20 timed next, at the exam's pace.")
    return lines


def missed_lines(missed: Missed, number: int) -> list[str]:
    """One missed question: what was chosen, the answer and why, and what to read next."""
    question, choice = missed.question, missed.choice
    right = question.answer
    lines = [f"{number}. [{question.section}] {question.question}"]
    if choice and choice in question.letters:
        lines.append(
            f"   You chose {choice.lower()}) {question.choice_text(choice)}: "
            f"{question.explanations.get(choice, '')}"
        )
    else:
        lines.append("   Not answered.")
    lines.append(
        f"   Answer: {right.lower()}) {question.choice_text(right)}: "
        f"{question.explanations.get(right, '')}"
    )
    if missed.entries:
        lines.append("   Read next: " + "; ".join(e.name for e in missed.entries[:2]))
    return lines


def result_lines(done: MockDone) -> list[str]:
    lines = result_summary(done)
    if done.missed:
        lines.append(f"Missed ({len(done.missed)}):")
        for number, missed in enumerate(done.missed, start=1):
            lines += missed_lines(missed, number)
    return lines


def offer_lines(offer: MockOffer) -> list[str]:
    left = f", {duration(offer.time_left)} left" if offer.time_left is not None else ""
    return [
        f"You have a mock exam in progress: {offer.answered} of {offer.size} answered{left}.",
        "Type mock resume to go on, or mock discard to drop it.",
    ]


def refused_line(refused: MockRefused) -> str:
    if refused.reason == "invalid" and refused.question is not None:
        return f"'{refused.choice}' is not one of the choices. {prompt(refused.question)}"
    if refused.reason == "too_few":
        low = min(MIN_SIZE, refused.size)
        return (
            f"A mock exam has {low} to {refused.size} questions (the real exam has 50-60). "
            f"Try mock {min(20, refused.size)}."
        )
    return {"stale": STALE, "over": OVER, "not_yours": NOT_YOURS}.get(refused.reason, UNKNOWN)


def render_mock(result: MockResult) -> list[str]:
    """A mock exam's result as the bot's lines."""
    match result:
        case MockShown(question=question):
            heading = [*mock_heading(result), progress(result)]
            return [*heading, *mock_question_lines(question), prompt(question)]
        case MockDone():
            return result_lines(result)
        case MockOffer():
            return offer_lines(result)
        case MockDiscarded(answered=answered, size=size):
            return [
                f"Discarded your mock exam ({answered} of {size} answered). The answers you "
                "gave stay in your history, off the leaderboards."
            ]
        case NoMock():
            return [NO_MOCK]
        case MockRefused():
            return [refused_line(result)]
    raise TypeError(f"no rendering for {type(result).__name__}")
