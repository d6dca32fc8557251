"""Readiness per exam section: a weighted Beta posterior, honest about few answers."""

from __future__ import annotations

import datetime as dt

import pytest

from bot import replies
from bot.quiz import QuestionBank
from bot.readiness import TARGET, estimate, section_weights, weekly
from bot.store import Answer

NOW = dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC)
EMPTY = QuestionBank(())


def answers_in(section: str, count: int, *, right_every: int = 5, at: dt.datetime = NOW):
    """`count` answers to distinct questions of `section`, one in `right_every` wrong."""
    return [Answer(f"{section}-q{i}", section, i % right_every != 0, at) for i in range(count)]


def section(readiness, name):
    return next(s for s in readiness.sections if s.section == name)


@pytest.mark.parametrize(
    ("count", "level", "widest", "narrowest"),
    [(0, "wide", 1.0, 0.5), (5, "medium", 0.5, 0.2), (200, "narrow", 0.2, 0.0)],
)
def test_uncertainty_narrows_with_answers(count, level, widest, narrowest):
    """0, 5 and 200 answers in 3.3 give a wide, medium and narrow range."""
    found = section(estimate(answers_in("3.3", count), EMPTY, NOW), "3.3")
    assert found.level == level
    assert narrowest < found.high - found.low <= widest
    assert found.low <= found.mean <= found.high and found.answered == count


def test_few_answers_are_shown_as_not_enough_yet():
    """Two answers in 3.3 and none elsewhere: the text says so, naming the sections."""
    readiness = estimate(answers_in("3.3", 2), EMPTY, NOW)
    assert "3.3" in {s.section for s in readiness.too_few()}
    text = "\n".join(replies.readiness_lines(readiness))
    assert "not enough answers yet" in text.split("3.3", 1)[1].split("\n", 1)[0]


def test_more_right_answers_raise_the_estimate():
    """A section answered mostly right is estimated above one answered mostly wrong."""
    good = answers_in("4.1", 30, right_every=10)
    bad = [Answer(a.question_id, a.section, not a.correct, a.at) for a in good]
    assert section(estimate(good, EMPTY, NOW), "4.1").mean > 0.8
    assert section(estimate(bad, EMPTY, NOW), "4.1").mean < 0.2


def test_old_answers_count_less_than_recent_ones():
    """Thirty wrong answers a year ago weigh less than ten right answers this week."""
    old = [Answer(f"o{i}", "5.1", False, NOW - dt.timedelta(days=365)) for i in range(30)]
    new = [Answer(f"n{i}", "5.1", True, NOW - dt.timedelta(days=1)) for i in range(10)]
    assert section(estimate(old + new, EMPTY, NOW), "5.1").mean > 0.6


def test_repeats_and_difficulty_weigh_as_documented(catalog):
    """The same question answered right ten times is weaker evidence than ten new questions;
    a right answer to an easy question raises the estimate less than to a medium one."""
    repeated = [Answer("q-oom", "3.2", True, NOW) for _ in range(10)]
    distinct = [Answer(f"x{i}", "3.2", True, NOW) for i in range(10)]
    bank = catalog.questions
    assert (
        section(estimate(repeated, bank, NOW), "3.2").evidence
        < section(estimate(distinct, bank, NOW), "3.2").evidence
    )
    easy = [Answer("q-oom", "3.2", True, NOW), Answer("x", "3.2", False, NOW)]  # q-oom is easy
    medium = [Answer("q-own-code", "3.2", True, NOW), Answer("x", "3.2", False, NOW)]
    assert (
        section(estimate(easy, bank, NOW), "3.2").mean
        < section(estimate(medium, bank, NOW), "3.2").mean
    )


def test_overall_is_weighted_by_the_exam_guide_and_says_there_is_no_pass_mark():
    """Section weights add up to the whole exam; the overall line says Google has no pass mark."""
    weights = section_weights()
    assert abs(sum(weights.values()) - 1) < 1e-9
    assert weights["3.1"] == pytest.approx(0.21 / 3 / 1.01)  # the guide's shares add up to 101%
    readiness = estimate(answers_in("3.1", 40) + answers_in("6.2", 40), EMPTY, NOW)
    expected = sum(s.weight * s.mean for s in readiness.sections)
    assert readiness.mean == pytest.approx(expected)
    line = replies.overall_line(readiness)
    assert "publishes no pass mark" in line and f"{TARGET:.0%}" in line


def test_weekly_progress_counts_answers_per_week():
    """Answers fall into their Monday-to-Sunday week; empty weeks are kept."""
    history = [
        Answer("a", "3.2", True, NOW - dt.timedelta(days=15)),
        Answer("b", "3.2", False, NOW - dt.timedelta(days=14)),
        Answer("c", "3.2", True, NOW),
    ]
    weeks = weekly(history, NOW, weeks=3)
    assert [(w.start.isoformat(), w.answered, w.correct) for w in weeks] == [
        ("2026-11-16", 2, 1),
        ("2026-11-23", 0, 0),
        ("2026-11-30", 1, 1),
    ]
