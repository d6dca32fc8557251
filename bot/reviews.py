"""Reviews scheduled by a memory model: one FSRS card per learner and question.

FSRS (the `fsrs` package, the reference implementation of the Free Spaced Repetition Scheduler)
models each card's memory with a stability and a difficulty and schedules the next review for
when the chance of recalling it drops to `RETENTION`. Every answer a learner gives (a private
quiz, a daily question, a mock exam) is one review of their card for that question: right is
`Rating.Good`, wrong is `Rating.Again`.

The settings differ from the package's defaults on purpose: no learning steps (a quiz question
comes back after days, not after 1 and 10 minutes as a flashcard would), and no fuzzing (a
learner's schedule follows from their answers alone, so it can be tested and replayed).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

from fsrs import Card, Rating, Scheduler

RETENTION = 0.9  # review when the predicted chance of recall falls to this


def scheduler() -> Scheduler:
    """The one scheduler every card is reviewed with (see the module docstring)."""
    return Scheduler(
        desired_retention=RETENTION,
        learning_steps=(),
        relearning_steps=(),
        enable_fuzzing=False,
    )


def rating(correct: bool) -> Rating:
    return Rating.Good if correct else Rating.Again


def new_card(at: dt.datetime) -> Card:
    """A card never reviewed (its id is fixed: cards are found by learner and question)."""
    return Card(card_id=1, due=_utc(at))


def review(card: Card | None, correct: bool, at: dt.datetime, *, using: Scheduler) -> Card:
    """The card after one answer at `at`; an answer older than the card's last review counts
    as given at that review (answers arrive in order in practice; a clock step back must not
    make a negative interval)."""
    at = _utc(at)
    card = card or new_card(at)
    if card.last_review is not None and at < card.last_review:
        at = card.last_review
    reviewed, _ = using.review_card(card, rating(correct), at)
    return reviewed


@dataclass(frozen=True)
class Attempt:
    """One answer a learner gave, as the scheduler needs it."""

    question_id: str
    correct: bool
    at: dt.datetime


def cards_from(history: Iterable[Attempt]) -> dict[str, Card]:
    """Each question's card after replaying the answers in time order."""
    using, cards = scheduler(), dict[str, Card]()
    for attempt in sorted(history, key=lambda a: a.at):
        cards[attempt.question_id] = review(
            cards.get(attempt.question_id), attempt.correct, attempt.at, using=using
        )
    return cards


def reviews_due(history: Iterable[Attempt], now: dt.datetime) -> list[str]:
    """Questions whose card is due at `now`, most overdue first."""
    due = [(card.due, q) for q, card in cards_from(history).items() if card.due <= _utc(now)]
    return [q for _, q in sorted(due)]


def _utc(moment: dt.datetime) -> dt.datetime:
    """fsrs wants times in UTC exactly (tzinfo == timezone.utc)."""
    if moment.tzinfo is None:
        raise ValueError("review times must be timezone-aware")
    return moment.astimezone(dt.UTC)
