"""The daily quick-check in `tutor chat`: today's question, answering it, the board moving."""

from __future__ import annotations

from bot.chat import respond
from tests.daily_stub import make_daily, utc

MORNING = utc(2026, 12, 1, 9, 0)


def test_daily_shows_the_same_question_all_day(tmp_path):
    """`daily` posts the local question of the day once and shows it again later that day."""
    tutor = make_daily(tmp_path).tutor
    first = respond(tutor, "daily", user="ana", now=MORNING)
    again = respond(tutor, "daily", user="bo", now=utc(2026, 12, 1, 18, 0))
    assert first[0] == "Daily quick-check"
    assert first[1] == again[1]
    assert first[-1].startswith("Answer with")


def test_a_letter_answers_the_daily_question_and_the_board_moves(tmp_path):
    """After `daily`, `b` answers it; the local team board and leaderboard show the point."""
    tutor = make_daily(tmp_path).tutor
    respond(tutor, "daily", user="ana", now=MORNING)
    verdict = respond(tutor, "b", user="ana", now=MORNING)
    assert verdict[0] == "Correct!"  # every stub question's answer is B
    board = respond(tutor, "daily board", user="ana", now=MORNING)
    assert board[1].split() == ["1.", "ana", "1", "pt", "(1/1,", "100%,", "streak", "1)"]
    status = respond(tutor, "daily", user="ana", now=MORNING)
    assert status[-1].startswith("You answered b")


def test_next_day_reveals_yesterday_with_figures(tmp_path):
    """The next day's `daily` first reveals yesterday's question with who chose what."""
    tutor = make_daily(tmp_path).tutor
    respond(tutor, "daily", user="ana", now=MORNING)
    respond(tutor, "daily a", user="ana", now=MORNING)
    respond(tutor, "daily b", user="bo", now=MORNING)
    shown = respond(tutor, "daily", user="ana", now=utc(2026, 12, 2, 9, 0))
    text = "\n".join(shown)
    assert text.startswith("Yesterday: ")
    assert "2 people answered: a) 1 (50%), b) 1 (50%), c) 0 (0%), d) 0 (0%)." in text
    assert "The most chosen wrong answer was a)" in text
    assert "Daily quick-check" in text


def test_a_private_quiz_taken_later_gets_the_letter(tmp_path):
    """A letter goes to the newest open question: a quiz asked after `daily` gets it."""
    tutor = make_daily(tmp_path).tutor
    respond(tutor, "daily", user="ana", now=MORNING)
    respond(tutor, "quiz", user="ana", now=MORNING)
    respond(tutor, "b", user="ana", now=MORNING)
    kinds = tutor.store.db.execute(
        "select p.kind from answers a join posts p on p.id = a.post_id"
    ).fetchall()
    assert kinds == [("private",)]


def test_the_chat_keeps_the_same_spoiler_policy_as_slack(tmp_path):
    """A wrong daily answer: why it is wrong at once; the answer only with tomorrow's reveal.
    The words say so before answering, after, and when asked again."""
    tutor = make_daily(tmp_path).tutor
    shown = respond(tutor, "daily", user="ana", now=MORNING)
    assert "the answer and the team's figures come when it closes" in shown[-2]
    said = respond(tutor, "option c", user="ana", now=MORNING)
    assert said[0] == "Not quite." and said[1].startswith("c) Option charlie: Charlie is wrong")
    text = "\n".join(said)
    assert "Bravo" not in text and "Answer:" not in text and "come when it closes" in said[-1]
    again = respond(tutor, "daily", user="ana", now=MORNING)
    assert again[-1] == "You answered c. The answer and how the team answered come when it closes."
    assert respond(tutor, "quiz", user="bo", now=MORNING)
    wrong = respond(tutor, "a", user="bo", now=MORNING)
    assert any(line.startswith("Answer: b)") for line in wrong)  # a private quiz tells at once
