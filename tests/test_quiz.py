"""Choosing questions: no repeats, balanced sections, and spaced repetition of missed ones."""

from __future__ import annotations

import datetime as dt
import random
from collections import Counter

import pytest

from bot.quiz import (
    REVIEW_DAYS,
    Attempt,
    Question,
    QuestionBank,
    choose_question,
    normalize_choice,
    reviews_due,
)

DAY = dt.timedelta(days=1)
START = dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC)


def test_only_missed_questions_come_back():
    """A question answered right the first time is never scheduled for review."""
    history = [Attempt("q1", True, START), Attempt("q2", False, START)]
    assert reviews_due(history, START + 30 * DAY) == ["q2"]


@pytest.mark.parametrize(("right_since", "days"), list(enumerate(REVIEW_DAYS)))
def test_each_right_answer_pushes_the_next_review_further(right_since, days):
    """After a miss and n right answers, the question returns REVIEW_DAYS[n] days later."""
    history = [Attempt("q", False, START)]
    history += [Attempt("q", True, START + (i + 1) * DAY) for i in range(right_since)]
    last = history[-1].at
    assert reviews_due(history, last + days * DAY - dt.timedelta(minutes=1)) == []
    assert reviews_due(history, last + days * DAY) == ["q"]


def test_learned_after_the_last_box():
    """Right answers through every box retire the question."""
    history = [Attempt("q", False, START)]
    history += [Attempt("q", True, START + i * 30 * DAY) for i in range(1, len(REVIEW_DAYS) + 1)]
    assert reviews_due(history, START + 1000 * DAY) == []


def test_most_overdue_first():
    """Several due reviews come back oldest first."""
    history = [Attempt("late", False, START + 2 * DAY), Attempt("early", False, START)]
    assert reviews_due(history, START + 10 * DAY) == ["early", "late"]


def test_choose_question_skips_asked_ones_while_fresh_remain(catalog):
    """Asked questions are not picked again until every question has been asked."""
    bank = catalog.questions
    for seed in range(20):
        picked = choose_question(bank, asked=["q-no-code", "q-oom"], rng=random.Random(seed))
        assert picked.id == "q-own-code"
    everything = [q.id for q in bank.questions]
    assert choose_question(bank, asked=everything, rng=random.Random(1)).id in everything


@pytest.mark.parametrize(
    ("text", "letter"), [("b", "B"), ("B)", "B"), ("2", "B"), ("e", None), ("9", None)]
)
def test_normalize_choice(text, letter):
    """Letters and numbers map onto the question's choices; others are None."""
    assert normalize_choice(text, ("A", "B", "C", "D")) == letter


def _bank(sections: dict[str, int]) -> QuestionBank:
    """`count` stand-in questions per section."""
    made = [
        Question(f"q-{s}-{n}", s, "t", "easy", "?", (("A", "a"), ("B", "b")), "A", {}, (), "")
        for s, count in sections.items()
        for n in range(count)
    ]
    return QuestionBank(tuple(made))


def test_questions_come_in_proportion_to_the_exams_weights():
    """Over many picks each domain's share follows its weight in the exam guide."""
    bank = _bank({"3.1": 40, "4.1": 40, "6.1": 40})  # weights 21, 20, 13
    asked: list[str] = []
    for _ in range(54):
        asked.append(choose_question(bank, asked=asked, rng=random.Random(1)).id)
    per_domain = Counter(a.split("-")[1][0] for a in asked)
    assert per_domain == {"3": 21, "4": 20, "6": 13}


def test_a_section_filter_keeps_to_those_sections():
    """A channel working through one chapter only gets that chapter's questions."""
    bank = _bank({"3.1": 3, "3.2": 3, "4.1": 3})
    asked: list[str] = []
    for _ in range(6):
        asked.append(choose_question(bank, asked=asked, sections=("3.2",), rng=random.Random(2)).id)
    assert {a.split("-")[1] for a in asked} == {"3.2"}
