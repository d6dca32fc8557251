"""The tutor's use cases, over real content files and a real SQLite file."""

from __future__ import annotations

import datetime as dt

import pytest

from bot.standings import Standings, day_streak


def test_ask_answers_a_plain_question(tutor, now):
    """A straightforward phrasing finds its entry with confidence."""
    lookup = tutor.ask("which service for no-code training", now=now)
    assert lookup.best is not None
    assert lookup.best.entry.id == "automl"


def test_quiz_then_right_answer_scores_a_point(tutor, now):
    """Answering the asked question correctly shows on the leaderboard."""
    asked = tutor.quiz(team="T1", user="U1", now=now)
    graded = tutor.answer(
        post_id=asked.post.id, user="U1", choice=asked.question.answer, now=now, team="T1"
    )
    assert (graded.status, graded.correct) == ("recorded", True)
    board = Standings(tutor.store).board(team="T1", now=now)
    assert [(s.user, s.points) for s in board.standings] == [("U1", 1)]


def test_wrong_answer_points_at_what_to_read(tutor, now):
    """A wrong answer is recorded as wrong and names the entries to read next."""
    asked = tutor.quiz(team="T1", user="U1", now=now)
    wrong = next(x for x in asked.question.letters if x != asked.question.answer)
    graded = tutor.answer(
        post_id=asked.post.id, user="U1", choice=wrong.lower(), now=now, team="T1"
    )
    assert (graded.status, graded.correct, graded.choice) == ("recorded", False, wrong)
    assert [e.id for e in graded.entries] == list(asked.question.entries)


def test_only_the_first_answer_counts(tutor, now):
    """A second answer, even a right one, changes nothing and says so."""
    asked = tutor.quiz(team="T1", user="U1", now=now)
    wrong = next(x for x in asked.question.letters if x != asked.question.answer)
    tutor.answer(post_id=asked.post.id, user="U1", choice=wrong, now=now, team="T1")
    again = tutor.answer(
        post_id=asked.post.id, user="U1", choice=asked.question.answer, now=now, team="T1"
    )
    assert (again.status, again.choice, again.correct) == ("already", wrong, False)
    assert tutor.store.totals(team="T1", user="U1") == (1, 0)


def test_numbers_and_invalid_letters(tutor, now):
    """'1' means A; a letter outside the choices is invalid and records nothing."""
    asked = tutor.quiz(team="T1", user="U1", now=now)
    assert (
        tutor.answer(post_id=asked.post.id, user="U1", choice="z", now=now, team="T1").status
        == "invalid"
    )
    assert tutor.store.totals(team="T1", user="U1") == (0, 0)
    graded = tutor.answer(post_id=asked.post.id, user="U1", choice="1", now=now, team="T1")
    assert graded.choice == "A"


def daily_post(tutor, now) -> int:
    """A daily question posted in T1's channel C1, open for an hour."""
    question = tutor.catalog.questions.questions[0]
    return tutor.store.add_post(
        team="T1",
        channel="C1",
        user="",
        question_id=question.id,
        section=question.section,
        topic=question.topic,
        kind="daily",
        now=now,
        closes_at=now + dt.timedelta(hours=1),
    )


def test_closed_post_records_nothing(tutor, now):
    """After closes_at an answer is refused as closed."""
    post_id = daily_post(tutor, now)
    late = now + dt.timedelta(hours=2)
    assert (
        tutor.answer(
            post_id=post_id, user="U1", choice="A", now=late, team="T1", channel="C1"
        ).status
        == "closed"
    )
    assert tutor.store.totals(team="T1", user="U1") == (0, 0)


def test_unknown_post_is_none(tutor, now):
    """A click on a post that does not exist is reported as None, not an error."""
    assert tutor.answer(post_id=999, user="U1", choice="A", now=now, team="T1") is None


def test_quiz_does_not_repeat_until_the_pool_is_used(tutor, now):
    """Three questions in the bank: three quizzes ask three different ones."""
    ids = [tutor.quiz(team="T1", user="U1", now=now).question.id for _ in range(3)]
    assert sorted(ids) == sorted(q.id for q in tutor.catalog.questions.questions)


def test_quiz_me_on_an_entry(tutor, now):
    """Quizzing on an entry picks a question that exercises it."""
    asked = tutor.quiz(team="T1", user="U1", now=now, entry_id="oom-batch-size")
    assert "oom-batch-size" in asked.question.entries


def test_stats_show_weak_topics(tutor, now):
    """Stats count answers and list topics with mistakes."""
    for _ in range(2):
        asked = tutor.quiz(team="T1", user="U1", now=now)
        wrong = next(x for x in asked.question.letters if x != asked.question.answer)
        tutor.answer(post_id=asked.post.id, user="U1", choice=wrong, now=now, team="T1")
    stats = tutor.stats(team="T1", user="U1", now=now)
    assert (stats.answered, stats.correct, stats.streak) == (2, 0, 1)
    assert stats.weakest and stats.weakest[0].correct == 0


def test_day_streak_counts_back_from_today_or_yesterday():
    """A streak survives until the end of today; a gap breaks it."""
    today = dt.date(2026, 12, 3)
    assert day_streak(["2026-12-03", "2026-12-02", "2026-11-30"], today) == 2
    assert day_streak(["2026-12-02", "2026-12-01"], today) == 2
    assert day_streak(["2026-11-30"], today) == 0
    assert day_streak([], today) == 0


def test_a_missed_question_comes_back_the_next_day(tutor, now):
    """Spaced repetition: a wrong answer returns after a day, marked as a review."""
    asked = tutor.quiz(team="T1", user="U1", now=now)
    wrong = next(x for x in asked.question.letters if x != asked.question.answer)
    tutor.answer(post_id=asked.post.id, user="U1", choice=wrong, now=now, team="T1")
    same_day = tutor.quiz(team="T1", user="U1", now=now + dt.timedelta(hours=2))
    assert (same_day.review, same_day.question.id != asked.question.id) == (False, True)
    tutor.answer(
        post_id=same_day.post.id, user="U1", choice=same_day.question.answer, now=now, team="T1"
    )
    later = now + dt.timedelta(days=1, minutes=1)
    assert tutor.stats(team="T1", user="U1", now=later).reviews_due == 1
    next_day = tutor.quiz(team="T1", user="U1", now=later)
    assert (next_day.review, next_day.question.id) == (True, asked.question.id)


def test_another_learners_private_question_is_refused(tutor, now):
    """A click naming someone else's private post records nothing and reveals nothing."""
    asked = tutor.quiz(team="T1", user="U1", now=now)
    forged = tutor.answer(
        post_id=asked.post.id, user="U2", choice=asked.question.answer, now=now, team="T1"
    )
    assert (forged.status, forged.choice, forged.correct) == ("refused", "", False)
    assert tutor.store.totals(team="T1", user="U2") == (0, 0)
    assert tutor.store.answer_of(asked.post.id, "U2") is None


def test_a_question_from_another_workspace_is_refused(tutor, now):
    """The same learner id in another workspace cannot answer this workspace's post."""
    asked = tutor.quiz(team="T1", user="U1", now=now)
    forged = tutor.answer(
        post_id=asked.post.id, user="U1", choice=asked.question.answer, now=now, team="T2"
    )
    assert forged.status == "refused"
    assert tutor.store.answer_of(asked.post.id, "U1") is None


@pytest.mark.parametrize(
    ("team", "channel", "status"),
    [
        ("T1", "C1", "recorded"),
        ("T1", "C2", "refused"),
        ("T2", "C1", "refused"),
        ("T1", None, "refused"),
    ],
)
def test_a_daily_question_counts_only_in_its_channel_and_workspace(
    tutor, now, team, channel, status
):
    """A daily post is answered where it was posted; from anywhere else the click is refused."""
    post_id = daily_post(tutor, now)
    graded = tutor.answer(
        post_id=post_id, user="U1", choice="A", now=now, team=team, channel=channel
    )
    assert graded.status == status
    assert (tutor.store.answer_of(post_id, "U1") is not None) == (status == "recorded")


def test_every_grade_carries_its_question_and_the_answer_row_its_section(tutor, now):
    """Invalid, recorded and already-answered grades name the question; the row its section."""
    asked = tutor.quiz(team="T1", user="U1", now=now)
    where = {"post_id": asked.post.id, "user": "U1", "now": now, "team": "T1"}
    invalid = tutor.answer(choice="z", **where)
    recorded = tutor.answer(choice=asked.question.answer, **where)
    again = tutor.answer(choice="a", **where)
    assert {g.question.id for g in (invalid, recorded, again)} == {asked.question.id}
    row = tutor.store.db.execute("select section, topic from answers").fetchone()
    assert tuple(row) == (asked.question.section, asked.question.topic)
