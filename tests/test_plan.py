"""An exam date and the plan: countdown, today's work sized to reach the target by the date."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from bot import replies
from bot.catalog import load_catalog
from bot.content import SECTIONS
from bot.conversation import ExamRemoved, ExamSet, ExamShown, Invalid, Place, handle, parse
from bot.errors import TutorError
from bot.plan import make_plan, needed, parse_exam_date
from bot.quiz import QuestionBank
from bot.readiness import Readiness, SectionReadiness, estimate
from bot.store import Answer, Store
from bot.tutor import Tutor
from tests.conftest import SHIPPED_ROOT

NOW = dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC)
TODAY = NOW.date()


def test_a_plan_thirty_days_out_lists_todays_work(tutor, now):
    """Exam in 30 days: the countdown, reviews due, and new questions in the weakest section."""
    place = Place("T1", "U1", "C1")
    asked = tutor.quiz(team="T1", user="U1", now=now - dt.timedelta(days=2))
    wrong = next(x for x in asked.question.letters if x != asked.question.answer)
    tutor.answer(
        post_id=asked.post.id, user="U1", choice=wrong, now=now - dt.timedelta(days=2), team="T1"
    )
    exam = (now + dt.timedelta(days=30)).date().isoformat()
    result = handle(tutor, parse(f"exam {exam}"), place, now)
    assert isinstance(result, ExamSet)
    plan = result.plan
    assert plan.days_left == 30 and plan.reviews_due == 1
    assert plan.new_today >= 1 and plan.focus
    assert sum(n for _, n in plan.focus) == plan.new_today
    assert plan.new_today == -(-plan.needed // 30)  # all that is needed, spread over the days
    assert plan.focus[0][0].section == plan.furthest[0].section
    text = "\n".join(replies.render(result))
    assert f"Exam on {exam}: 30 days to go." in text
    assert "Today: 1 review due, then" in text and f"in {plan.focus[0][0].section}" in text


def test_a_section_at_the_target_needs_nothing():
    """Plenty of recent right answers: the section needs no new questions."""
    answers = [Answer(f"q{i}", "3.2", i % 10 != 0, NOW) for i in range(60)]
    found = next(s for s in estimate(answers, QuestionBank(()), NOW).sections if s.section == "3.2")
    assert needed(found) == 0
    empty = next(s for s in estimate([], QuestionBank(()), NOW).sections if s.section == "3.2")
    assert needed(empty) > 10


def test_on_exam_day_nothing_new_is_suggested():
    """On the day itself the plan suggests no new questions."""
    plan = make_plan(estimate([], QuestionBank(()), NOW), exam=TODAY, today=TODAY, reviews_due=2)
    assert (plan.days_left, plan.new_today, plan.focus) == (0, 0, ())


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("2027-02-30", "2027-02-30 is not a real date. Write it as YYYY-MM-DD"),
        ("01/03/2027", "'01/03/2027' is not a date I can read. Write it as YYYY-MM-DD"),
        ("march 1 2027", "'march 1 2027' is not a date I can read"),
        ("2026-11-30", "2026-11-30 has already passed"),
        ("2031-01-01", "2031-01-01 is more than two years away"),
        ("2028-12-03", "2028-12-03 is more than two years away"),  # 733 days after 2026-12-01
        ("x" * 50, "'" + "x" * 40 + "' is not a date I can read"),  # quoted to 40 characters
    ],
)
def test_bad_exam_dates_get_a_clear_message(text, says):
    """Unreadable, impossible, past and far-off dates are refused with how to write one."""
    with pytest.raises(TutorError) as refused:
        parse_exam_date(text, TODAY)
    assert str(refused.value).startswith(says) and "\n" not in str(refused.value)


@pytest.mark.parametrize("text", ["2026-12-01", "2028-12-02"])
def test_an_exam_today_or_up_to_two_years_away_is_accepted(text):
    """Today (2026-12-01) is a valid exam date, and so is 2028-12-02, 732 days (2 × 366) away."""
    assert parse_exam_date(text, TODAY) == dt.date.fromisoformat(text)


def test_exam_commands_set_show_and_remove(tutor, now):
    """exam DATE saves it, exam shows the plan, exam off removes it; a bad date saves nothing."""
    place = Place("T1", "U1", "C1")
    assert handle(tutor, parse("exam"), place, now) == ExamShown(None)
    bad = handle(tutor, parse("exam 2027-13-01"), place, now)
    assert isinstance(bad, Invalid) and tutor.store.exam_date(team="T1", user="U1") is None
    assert isinstance(handle(tutor, parse("my exam is on 2027-03-01"), place, now), ExamSet)
    assert tutor.store.exam_date(team="T1", user="U1") == dt.date(2027, 3, 1)
    shown = handle(tutor, parse("exam"), place, now)
    assert isinstance(shown, ExamShown) and shown.plan and shown.plan.exam == dt.date(2027, 3, 1)
    assert handle(tutor, parse("exam off"), place, now) == ExamRemoved(True)
    assert handle(tutor, parse("exam off"), place, now) == ExamRemoved(False)
    assert tutor.store.exam_date(team="T1", user="U2") is None


def test_with_an_exam_date_new_questions_come_from_the_plans_first_section(tmp_path, now):
    """With the shipped bank (every section), each fresh quiz follows today's plan's first
    section, which moves as answers come in."""
    tutor = Tutor(load_catalog(SHIPPED_ROOT), Store(tmp_path / "t.db"), rng=random.Random(3))
    place = Place("T1", "U1", "C1")
    handle(tutor, parse("exam 2027-03-01"), place, now)
    for minute in range(5):
        at = now + dt.timedelta(minutes=minute)
        plan = handle(tutor, parse("exam"), place, at).plan
        put = tutor.quiz(team="T1", user="U1", now=at)
        assert not put.review and put.question.section == plan.focus[0][0].section
        wrong = next(x for x in put.question.letters if x != put.question.answer)
        tutor.answer(post_id=put.post.id, user="U1", choice=wrong, now=at, team="T1")


def readiness_of(*shown: tuple[str, float, float, float]) -> Readiness:
    """Sections given as (section, low, mean, evidence); every other section is at the target
    with firm evidence (mean 0.8, evidence 12: it needs nothing), its low 0.6."""
    given = {name: (low, mean, evidence) for name, low, mean, evidence in shown}
    sections = []
    for name, title in SECTIONS.items():
        low, mean, evidence = given.get(name, (0.6, 0.8, 12.0))
        sections.append(
            SectionReadiness(name, title, 1 / len(SECTIONS), 20, evidence, mean, low, 1.0)
        )
    return Readiness(tuple(sections), 0.7, 0.5, 0.9, 20 * len(SECTIONS))


def test_the_day_before_the_exam_all_that_is_needed_is_todays_work():
    """Exam tomorrow. 1.1 is at the target with 6 answers' worth of evidence (needs 10 − 6 = 4),
    2.1 at 0.9 with 9 (needs 1, though its low 0.7 is above the ready sections' 0.6). Today: 4 in
    1.1, then 1 in 2.1; sections needing nothing are never named."""
    readiness = readiness_of(("1.1", 0.1, 0.75, 6.0), ("2.1", 0.7, 0.9, 9.0))
    plan = make_plan(readiness, exam=TODAY + dt.timedelta(days=1), today=TODAY, reviews_due=0)
    assert [(s.section, n) for s, n in plan.focus] == [("1.1", 4), ("2.1", 1)]
    assert (plan.new_today, plan.needed) == (5, 5)


def test_todays_count_is_the_need_spread_over_the_days_left():
    """Needs of 4 (1.1), 1 (2.1) and 3 (3.1) make 8; over 3 days that is ceil(8 / 3) = 3 today,
    all in 1.1, the section furthest from ready."""
    readiness = readiness_of(
        ("1.1", 0.1, 0.75, 6.0), ("2.1", 0.2, 0.75, 9.0), ("3.1", 0.3, 0.75, 7.0)
    )
    plan = make_plan(readiness, exam=TODAY + dt.timedelta(days=3), today=TODAY, reviews_due=0)
    assert [(s.section, n) for s, n in plan.focus] == [("1.1", 3)]
    assert (plan.new_today, plan.needed) == (3, 8)


def test_today_names_at_most_three_sections_and_counts_what_they_take():
    """Exam tomorrow, four sections needing 5 each (evidence 5, at the target): today's work is
    5 in each of the three furthest from ready, 15 questions; the fourth waits."""
    readiness = readiness_of(
        *((s, 0.1 * n, 0.75, 5.0) for n, s in enumerate(("1.1", "2.1", "3.1", "4.1")))
    )
    plan = make_plan(readiness, exam=TODAY + dt.timedelta(days=1), today=TODAY, reviews_due=0)
    assert [(s.section, n) for s, n in plan.focus] == [("1.1", 5), ("2.1", 5), ("3.1", 5)]
    assert (plan.new_today, plan.needed) == (15, 20)
