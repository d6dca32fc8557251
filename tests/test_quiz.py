"""Choosing questions: no repeats and balanced sections (reviews: tests/test_reviews.py)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bot.quiz import (
    Question,
    QuestionBank,
    choose_question,
    normalize_choice,
)


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
