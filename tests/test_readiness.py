"""Readiness per exam section: a weighted Beta posterior, honest about few answers."""

from __future__ import annotations

import datetime as dt
import time

import pytest

from bot import replies
from bot.quiz import Question, QuestionBank
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


# -- the model's numbers, worked by hand from the module docstring ------------------------------

Z80 = 1.2815515655446004  # the standard normal's 90th percentile: the central 80% is mean ± Z80·sd


def question(qid: str, difficulty: str) -> Question:
    return Question(
        qid, "3.2", "t", difficulty, "?", (("A", "a"), ("B", "b")), "A", {"A": "", "B": ""}, (), ""
    )


def test_a_sections_estimate_is_its_beta_posterior_over_the_learners_own_prior():
    """Three right and one wrong in 3.3 today: the prior is Beta(1, 1) over all answers, 4/6 = 2/3,
    with the strength of two answers, Beta(4/3, 2/3). 3.3 becomes Beta(13/3, 5/3): mean 13/18, sd
    sqrt(a·b / ((a+b)²(a+b+1))) = 0.1693, range 0.5053 to 0.9392. A section never tried stays at
    the prior, mean 2/3 and sd 0.2722, its range 0.3179 to 1.0155 clipped to 1."""
    history = [Answer(f"q{i}", "3.3", i != 0, NOW) for i in range(4)]
    readiness = estimate(history, EMPTY, NOW)
    tried, untried = section(readiness, "3.3"), section(readiness, "1.1")
    assert (tried.mean, tried.low, tried.high) == pytest.approx(
        (13 / 18, 0.50527, 0.93918), abs=1e-5
    )
    assert (untried.mean, untried.low, untried.high) == pytest.approx(
        (2 / 3, 0.31787, 1.0), abs=1e-5
    )
    assert (tried.answered, untried.answered, untried.evidence) == (4, 0, 0.0)


def test_evidence_halves_every_30_days_and_a_repeat_counts_half():
    """Answers today, 30 and 60 days ago count 1, 1/2 and 1/4; answering a question again counts
    1/2 each time (today: 1/2 and 1/2). A clock a little ahead (an answer a minute in the future)
    counts as today. Every answer, in any section, is in the total answered."""
    history = [
        Answer("q1", "3.3", True, NOW),
        Answer("q2", "3.3", True, NOW - dt.timedelta(days=30)),
        Answer("q3", "3.3", False, NOW - dt.timedelta(days=60)),
        Answer("q1", "3.3", True, NOW),
        Answer("q1", "3.3", False, NOW),
        Answer("q4", "3.3", True, NOW + dt.timedelta(minutes=1)),
    ]
    readiness = estimate(history, EMPTY, NOW)
    found = section(readiness, "3.3")
    assert found.evidence == pytest.approx(1 + 1 / 2 + 1 / 4 + 1 / 2 + 1 / 2 + 1, rel=1e-9)
    assert (found.answered, readiness.answered) == (6, 6)


def test_answers_in_a_section_no_longer_in_the_guide_are_skipped_and_the_rest_still_count():
    """An old answer filed under a section the guide no longer has ("9.9") adds to no section
    and stops nothing: the later answers in 3.3 still count (two answers' worth of evidence)."""
    history = [
        Answer("gone", "9.9", True, NOW - dt.timedelta(days=400)),
        Answer("q1", "3.3", True, NOW),
        Answer("q2", "3.3", True, NOW),
    ]
    readiness = estimate(history, EMPTY, NOW)
    assert section(readiness, "3.3").evidence == pytest.approx(2.0)
    assert sum(s.answered for s in readiness.sections) == 2 and readiness.answered == 3


@pytest.mark.parametrize(
    ("difficulty", "correct", "mean"),
    [
        # one answer: the prior is Beta(2/3, 4/3) after a wrong one, Beta(4/3, 2/3) after a right one
        ("easy", False, (2 / 3) / (2 / 3 + 4 / 3 + 1.3)),  # an easy miss counts 1.3 against
        ("hard", False, (2 / 3) / (2 / 3 + 4 / 3 + 0.7)),  # a hard miss counts 0.7 against
        ("medium", False, (2 / 3) / (2 / 3 + 4 / 3 + 1.0)),
        ("easy", True, (4 / 3 + 0.7) / (4 / 3 + 0.7 + 2 / 3)),  # an easy hit counts 0.7 for
        ("hard", True, (4 / 3 + 1.3) / (4 / 3 + 1.3 + 2 / 3)),  # a hard hit counts 1.3 for
    ],
)
def test_difficulty_weighs_right_and_wrong_answers_as_documented(difficulty, correct, mean):
    """Right to a hard question is strong evidence for, wrong to an easy one strong evidence
    against (weights 1.3); the reverse cases are weak (0.7); medium counts 1."""
    bank = QuestionBank((question("q", difficulty),))
    found = section(estimate([Answer("q", "3.2", correct, NOW)], bank, NOW), "3.2")
    assert found.mean == pytest.approx(mean, rel=1e-9)


def test_with_no_answers_every_section_and_the_whole_is_beta_1_1():
    """No answers: each section is Beta(1, 1) (mean 1/2, sd sqrt(1/12)); the overall spread is the
    weighted sum of the sections' spreads, here sqrt(1/12) too: 0.1300 to 0.8700."""
    readiness = estimate([], EMPTY, NOW)
    low, high = 0.5 - Z80 * (1 / 12) ** 0.5, 0.5 + Z80 * (1 / 12) ** 0.5
    assert (readiness.mean, readiness.low, readiness.high) == pytest.approx((0.5, low, high))
    assert (round(low, 4), round(high, 4)) == (0.13, 0.87) and readiness.answered == 0


def test_the_overall_range_adds_the_sections_spreads():
    """Only 3.3 answered (three right, one wrong, as above: sd 0.1693); every other section keeps
    the prior Beta(4/3, 2/3) (sd 0.2722, range clipped at 1 to 0.3179-1, i.e. a spread of
    0.6821 / (2·Z80) = 0.2661). 3.3 weighs 0.21/3/1.01, so the overall sd is
    0.0693·0.1693 + 0.9307·0.2661 = 0.2594 around mean 0.0693·13/18 + 0.9307·2/3 = 0.6705:
    0.3381 to 1.0030, clipped at 1."""
    history = [Answer(f"q{i}", "3.3", i != 0, NOW) for i in range(4)]
    readiness = estimate(history, EMPTY, NOW)
    w = 0.21 / 3 / 1.01
    sd = w * 0.16929 + (1 - w) * (1 - 0.31787) / (2 * Z80)
    mean = w * 13 / 18 + (1 - w) * 2 / 3
    assert readiness.mean == pytest.approx(mean, abs=1e-5)
    assert (readiness.low, readiness.high) == pytest.approx((mean - Z80 * sd, 1.0), abs=1e-4)
    assert round(readiness.low, 4) == 0.3381


def test_the_furthest_from_ready_are_three_lowest_then_heaviest():
    """With nothing answered every section has the same range, so the heaviest go first: 4.1 and
    4.2 (20% of the exam each split in two), then 5.1 (18% split in two); three of them."""
    readiness = estimate([], EMPTY, NOW)
    assert [s.section for s in readiness.furthest()] == ["4.1", "4.2", "5.1"]


def test_weekly_shows_eight_weeks_from_the_first_mondays_midnight():
    """By default eight weeks, the oldest starting Monday 2026-10-12 00:00 UTC: an answer at that
    very moment counts, one a second earlier does not (and does not stop the count)."""
    first = dt.datetime(2026, 10, 12, tzinfo=dt.UTC)
    history = [
        Answer("old", "3.2", True, first - dt.timedelta(seconds=1)),
        Answer("a", "3.2", True, first),
        Answer("b", "3.2", False, NOW),
    ]
    weeks = weekly(history, NOW)
    assert len(weeks) == 8 and weeks[0].start == first.date()
    assert [(w.answered, w.correct) for w in weeks] == [(1, 1)] + [(0, 0)] * 6 + [(1, 0)]


@pytest.fixture
def server_in_tokyo(monkeypatch):
    """The machine's own clock is set to UTC+9 (a server not set to UTC)."""
    monkeypatch.setenv("TZ", "JST-9")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_weeks_are_utc_weeks_whatever_the_servers_time_zone(server_in_tokyo):
    """Sunday 2026-11-29 20:00 UTC is already Monday in Tokyo; the week is still the one starting
    Monday 2026-11-23, both for `now` and for an answer given then."""
    sunday_night = dt.datetime(2026, 11, 29, 20, 0, tzinfo=dt.UTC)
    weeks = weekly([Answer("a", "3.2", True, sunday_night)], sunday_night, weeks=2)
    assert [(w.start.isoformat(), w.answered) for w in weeks] == [
        ("2026-11-16", 0),
        ("2026-11-23", 1),
    ]
