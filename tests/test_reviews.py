"""Reviews by FSRS: a learner's cards follow the `fsrs` package's own scheduling."""

from __future__ import annotations

import datetime as dt
import sqlite3
import time

import pytest
from fsrs import Card, Rating, Scheduler

from bot.reviews import Attempt, cards_from, review, reviews_due, scheduler
from bot.store import Store, migrations

DAY = dt.timedelta(days=1)
START = dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC)


def fsrs_says(answers: list[tuple[bool, dt.datetime]]) -> dict:
    """The card the package itself gives for these reviews, with our settings spelled out."""
    scheduler = Scheduler(
        desired_retention=0.9, learning_steps=(), relearning_steps=(), enable_fuzzing=False
    )
    card = Card(card_id=1, due=answers[0][1])
    for correct, at in answers:
        card, _ = scheduler.review_card(card, Rating.Good if correct else Rating.Again, at)
    return card.to_dict()


def answer(tutor, *, user: str, right: bool, at: dt.datetime, question: str | None = None):
    """Put a private question (optionally a given one) and answer it right or wrong at `at`."""
    asked = tutor.quiz(team="T1", user=user, now=at)
    if question is not None:
        post_id = tutor.store.add_post(
            team="T1",
            channel="",
            user=user,
            question_id=question,
            section="3.2",
            topic="t",
            kind="private",
            now=at,
        )
        asked_question = tutor.catalog.questions.get(question)
    else:
        post_id, asked_question = asked.post.id, asked.question
    letter = (
        asked_question.answer
        if right
        else next(x for x in asked_question.letters if x != asked_question.answer)
    )
    graded = tutor.answer(post_id=post_id, user=user, choice=letter, now=at, team="T1")
    assert graded is not None and graded.status == "recorded"
    return asked_question.id


def test_cards_after_a_sequence_of_answers_match_fsrs(tutor):
    """Wrong, right, right, wrong, right on one question, days apart: the stored card is the
    card fsrs computes for the same reviews at the same times."""
    days = [0, 1, 3, 10, 11]
    marks = [False, True, True, False, True]
    given = []
    for day, right in zip(days, marks, strict=True):
        at = START + day * DAY + dt.timedelta(minutes=7 * day)
        answer(tutor, user="U1", right=right, at=at, question="q-oom")
        given.append((right, at))
    stored = tutor.store.card(team="T1", user="U1", question_id="q-oom")
    assert stored is not None and stored.to_dict() == fsrs_says(given)
    row = tutor.store.db.execute(
        "select reviews, lapses, due from cards where user = 'U1' and question_id = 'q-oom'"
    ).fetchone()
    assert row == (5, 2, fsrs_says(given)["due"])


def test_every_kind_of_post_reviews_the_card(tutor, store):
    """An answer to a daily post (not only a private quiz) updates the learner's card."""
    post_id = store.add_post(
        team="T1",
        channel="C1",
        user="",
        question_id="q-no-code",
        section="3.2",
        topic="t",
        kind="daily",
        now=START,
    )
    tutor.answer(post_id=post_id, user="U1", choice="A", now=START, team="T1", channel="C1")
    card = store.card(team="T1", user="U1", question_id="q-no-code")
    assert card is not None and card.to_dict() == fsrs_says([(False, START)])


def test_a_second_answer_to_the_same_post_changes_no_card(tutor, store):
    """Only the first answer counts, for the card as for the score."""
    asked = tutor.quiz(team="T1", user="U1", now=START)
    wrong = next(x for x in asked.question.letters if x != asked.question.answer)
    tutor.answer(post_id=asked.post.id, user="U1", choice=wrong, now=START, team="T1")
    before = store.card(team="T1", user="U1", question_id=asked.question.id)
    again = tutor.answer(
        post_id=asked.post.id, user="U1", choice=asked.question.answer, now=START + DAY, team="T1"
    )
    assert again is not None and again.status == "already"
    assert store.card(team="T1", user="U1", question_id=asked.question.id) == before


def test_due_cards_come_back_in_the_next_quiz_most_overdue_first(tutor):
    """A missed question is due a day later (before one answered right), and the quiz puts it."""
    missed = answer(tutor, user="U1", right=False, at=START, question="q-oom")
    answer(tutor, user="U1", right=True, at=START, question="q-no-code")
    assert (
        tutor.stats(team="T1", user="U1", now=START + DAY - dt.timedelta(minutes=1)).reviews_due
        == 0
    )
    assert tutor.store.due_questions(team="T1", user="U1", now=START + 3 * DAY) == [
        "q-oom",
        "q-no-code",
    ]
    put = tutor.quiz(team="T1", user="U1", now=START + DAY)
    assert (put.review, put.question.id) == (True, missed)


def test_reviews_due_from_a_history_matches_the_stored_cards(tutor):
    """The pure replay (`reviews_due`) and the store's cards agree on what is due."""
    history = []
    for day, (question, right) in enumerate(
        [("q-oom", False), ("q-no-code", True), ("q-own-code", False), ("q-oom", True)]
    ):
        at = START + day * DAY
        answer(tutor, user="U2", right=right, at=at, question=question)
        history.append(Attempt(question, right, at))
    for later in (4, 6, 9, 30):
        now = START + later * DAY
        assert reviews_due(history, now) == tutor.store.due_questions(team="T1", user="U2", now=now)


def test_the_migration_replays_answer_history_into_cards(tmp_path, tutor):
    """A file whose answers predate cards gets each learner's cards from its history."""
    for day, (question, right) in enumerate(
        [("q-oom", False), ("q-oom", True), ("q-no-code", True)]
    ):
        answer(tutor, user="U3", right=right, at=START + day * DAY, question=question)
    expected = {
        q: tutor.store.card(team="T1", user="U3", question_id=q).to_dict()
        for q in ("q-oom", "q-no-code")
    }
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as old:
        tutor.store.db.conn.backup(old)
        old.execute("drop table cards")
        old.execute("drop table exam_dates")
        old.execute("drop table chart_files")
        old.execute("delete from _sqlite_migrations where name = 'm006_cards_and_exam_dates'")
    upgraded = Store(path)
    assert migrations.pending(upgraded.db) == []
    replayed = {q: upgraded.card(team="T1", user="U3", question_id=q).to_dict() for q in expected}
    assert replayed == expected


def test_replaying_a_history_gives_each_question_the_card_fsrs_gives_its_own_answers():
    """Twelve questions answered right on days 0, 4, 14 and 40 (long intervals, where fuzzing
    would move the due date), and one answered right, right, wrong, right (a lapse, which with no
    relearning steps comes back after a day, not ten minutes), given in any order: each card is
    the one fsrs computes from that question's answers alone, with our settings."""
    steady = {
        f"q{i}": [(True, START + d * DAY + i * dt.timedelta(hours=1)) for d in (0, 4, 14, 40)]
        for i in range(12)
    }
    lapse = [
        (True, START),
        (True, START + 5 * DAY),
        (False, START + 20 * DAY),
        (True, START + 21 * DAY),
    ]
    answers = {**steady, "lapsed": lapse}
    history = [Attempt(q, right, at) for q, given in answers.items() for right, at in given]
    cards = cards_from(reversed(history))
    assert {q: card.to_dict() for q, card in cards.items()} == {
        q: fsrs_says(given) for q, given in answers.items()
    }


def test_a_missed_question_is_due_a_day_later_not_minutes_later():
    """Right on day 0, wrong on day 5: an hour after the miss it is not due; on day 6 it is."""
    history = [Attempt("q", True, START), Attempt("q", False, START + 5 * DAY)]
    assert reviews_due(history, START + 5 * DAY + dt.timedelta(hours=1)) == []
    assert reviews_due(history, START + 6 * DAY) == ["q"]


def test_an_answer_older_than_the_cards_last_review_counts_as_given_at_that_review():
    """A clock stepping back: right at noon, then wrong stamped an hour earlier, gives the card
    fsrs computes for both answers at noon."""
    noon = START + dt.timedelta(hours=3)
    using = scheduler()
    card = review(None, True, noon, using=using)
    card = review(card, False, noon - dt.timedelta(hours=1), using=using)
    assert card.to_dict() == fsrs_says([(True, noon), (False, noon)])


def test_review_times_must_carry_a_time_zone():
    """A naive time is a programming error, refused with a message saying so."""
    with pytest.raises(ValueError, match=r"^review times must be timezone-aware$"):
        cards_from([Attempt("q", True, dt.datetime(2026, 12, 1, 9, 0))])


@pytest.fixture
def server_in_tokyo(monkeypatch):
    """The machine's own clock is set to UTC+9 (a server not set to UTC)."""
    monkeypatch.setenv("TZ", "JST-9")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_cards_are_kept_in_utc_whatever_the_servers_time_zone(server_in_tokyo):
    """Answers stamped in UTC and in UTC+2 replay on a server in Tokyo to the card fsrs gives
    for the same moments in UTC."""
    plus_two = dt.timezone(dt.timedelta(hours=2))
    history = [
        Attempt("q", True, START),
        Attempt("q", True, (START + 3 * DAY).astimezone(plus_two)),
    ]
    card = cards_from(history)["q"]
    assert card.to_dict() == fsrs_says([(True, START), (True, START + 3 * DAY)])
