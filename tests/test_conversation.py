"""The conversation core: what a line means, and what each command does, for every surface."""

from __future__ import annotations

import datetime as dt
from importlib import metadata

import pytest

from bot import replies
from bot.conversation import (
    HANDLERS,
    USAGE,
    Answered,
    BoardShown,
    Command,
    DailyShown,
    GapsShown,
    Goodbye,
    Grade,
    Hello,
    HelpShown,
    Invalid,
    NoDaily,
    NoOpenQuestion,
    NotHere,
    Place,
    Put,
    ScheduleRemoved,
    ScheduleSet,
    ScheduleShown,
    StatsShown,
    TeamsShown,
    Verb,
    VersionShown,
    handle,
    is_shared,
    parse,
)
from bot.daily import Daily
from bot.evaluation import read_cases
from bot.store import LOCAL_TEAM
from tests.conftest import SHIPPED_ROOT
from tests.daily_stub import RecordingPoster


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("quiz", Command(Verb.QUIZ)),
        ("  Quiz  ", Command(Verb.QUIZ)),
        ("quiz me", Command(Verb.QUIZ)),
        ("b", Command(Verb.ANSWER, "b")),
        ("B)", Command(Verb.ANSWER, "b")),
        ("(c)", Command(Verb.ANSWER, "c")),
        ("3", Command(Verb.ANSWER, "3")),
        ("leaderboard week", Command(Verb.LEADERBOARD, "week")),
        ("leaderboard WEEK", Command(Verb.LEADERBOARD, "week")),
        ("Leaderboard teams month", Command(Verb.LEADERBOARD, "teams month")),
        ("lb", Command(Verb.LEADERBOARD)),
        ("stats", Command(Verb.STATS)),
        ("me", Command(Verb.STATS)),
        ("help", Command(Verb.HELP)),
        ("?", Command(Verb.HELP)),
        ("", Command(Verb.HELP)),
        ("ask", Command(Verb.HELP)),
        (
            "ask which service for no-code training",
            Command(Verb.ASK, "which service for no-code training"),
        ),
        (
            "which service for no-code training?",
            Command(Verb.ASK, "which service for no-code training?"),
        ),
        ("<@U0TUTOR> quiz", Command(Verb.QUIZ)),
        ("quit", Command(Verb.QUIT)),
        ("bye!", Command(Verb.QUIT)),
        ("daily", Command(Verb.DAILY)),
        ("daily b", Command(Verb.DAILY, "b")),
        ("daily board", Command(Verb.DAILY, "board")),
        ("gaps", Command(Verb.GAPS)),
        ("version", Command(Verb.VERSION)),
        ("schedule", Command(Verb.SCHEDULE)),
        ("schedule off", Command(Verb.SCHEDULE, "off")),
        (
            "schedule 09:00 Europe/Berlin weekdays",
            Command(Verb.SCHEDULE, "09:00 Europe/Berlin weekdays"),
        ),
        ("ready", Command(Verb.READY)),
        ("Am I ready for the exam?", Command(Verb.READY)),
        ("exam", Command(Verb.EXAM)),
        ("exam 2027-03-01", Command(Verb.EXAM, "2027-03-01")),
        ("my exam is on 2027-03-01", Command(Verb.EXAM, "2027-03-01")),
        ("exam off", Command(Verb.EXAM, "off")),
        ("exam 01/03/2027", Command(Verb.EXAM, "01/03/2027")),
        ("exam March 1 2027", Command(Verb.EXAM, "march 1 2027")),
    ],
)
def test_a_command_is_the_command_word_in_its_shape(text, expected):
    """Each command line maps to the command a learner means, whatever its case."""
    assert parse(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "daily retraining pipeline for my model",
        "me and my team need to train without code",
        "quiz questions about TPUs",
        "leaderboard of the best GPU types",
        "stats on model accuracy in BigQuery",
        "schedule a training job every night",
        "help me choose between GPUs and TPUs",
        "gaps in my training data",
        "version control for ML models",
        "a GPU or a TPU for BERT?",
        "exit criteria for early stopping",
        "exam guide sections for serving",
        "ready-made models for vision",
    ],
)
def test_a_command_word_inside_a_question_leaves_it_a_question(text):
    """A question whose first word happens to be a command word is still a question."""
    assert parse(text) == Command(Verb.ASK, text)


def _eval_cases():
    """Every case of every evaluation set (read whole, never looked at one by one)."""
    paths = sorted((SHIPPED_ROOT / "tests" / "eval").glob("*.yaml"))
    return read_cases(paths)


def test_no_evaluation_question_parses_as_a_command():
    """Over every evaluation set: a question is never taken for a command; a pasted practice
    item (stem and lettered choices) is a practice question, and nothing else is. Small talk
    ("thanks!") may get its short reply, but only where the set expects no answer at all."""
    cases = _eval_cases()
    assert len(cases) > 500
    wrong = [
        c.question
        for c in cases
        if parse(c.question).verb is not (Verb.PRACTICE if c.key else Verb.ASK)
        and not (parse(c.question).verb is Verb.HELLO and c.expect is None)
    ]
    assert wrong == []


def test_a_practice_stem_without_its_choices_is_a_question():
    """A practice item's stem alone (no choices pasted) is answered as a question."""
    stems = [c.question.split("\n")[0] for c in _eval_cases() if c.key]
    assert stems
    assert [s for s in stems if parse(s).verb is not Verb.ASK] == []


def test_every_verb_has_a_handler_and_a_line_in_the_help():
    """Adding a verb without its handler or its help line fails here."""
    assert set(HANDLERS) == set(Verb)
    documented = " ".join(usage for usage, _ in USAGE)
    missing = [
        v
        for v in Verb
        if v not in (Verb.ANSWER, Verb.ASK, Verb.QUIT, Verb.HELLO) and v.value not in documented
    ]
    assert missing == []


# -- what each command does ----------------------------------------------------------------


def place(
    user: str = "U1", *, channel: str = "C1", private: bool = False, admin: bool = False
) -> Place:
    return Place("T1", user, channel, private, lambda: admin)


def test_a_question_is_answered_and_fit_to_share(tutor, now):
    """Free text gets an answer result that may be shown in a thread."""
    result = handle(tutor, parse("which service for no-code training"), place(), now)
    assert isinstance(result, Answered) and result.lookup.best.entry.id == "automl"
    assert is_shared(result) and result.quizzable


def test_quiz_then_a_letter_grades_the_open_question(tutor, now):
    """quiz puts a private question; a bare letter answers it."""
    put = handle(tutor, parse("quiz"), place(), now)
    assert isinstance(put, Put) and not is_shared(put)
    letter = put.asked.question.answer.lower()
    grade = handle(tutor, parse(letter), place(), now)
    assert isinstance(grade, Grade) and grade.graded.status == "recorded" and grade.graded.correct
    assert isinstance(handle(tutor, parse("a"), place(), now), NoOpenQuestion)


def test_leaderboard_in_a_channel_is_the_channels_board_and_in_a_dm_everyones(tutor, now):
    """Where you ask decides the scope: the channel, or (in a DM) the whole workspace."""
    put = handle(tutor, parse("quiz"), place(channel="C1"), now)
    handle(tutor, parse(put.asked.question.answer), place(channel="C1"), now)
    here = handle(tutor, parse("leaderboard"), place(channel="C1"), now)
    elsewhere = handle(tutor, parse("leaderboard"), place(channel="C2"), now)
    dm = handle(tutor, parse("leaderboard"), place(channel="D1", private=True), now)
    assert isinstance(here, BoardShown) and here.board.channel == "C1"
    assert [s.user for s in here.board.standings] == ["U1"]
    assert elsewhere.board.standings == []
    assert dm.board.channel is None and [s.user for s in dm.board.standings] == ["U1"]
    teams = handle(tutor, parse("leaderboard teams"), place(), now)
    assert isinstance(teams, TeamsShown) and teams.board.period == "week"


def test_stats_help_version_and_quit(tutor, now):
    """The simple commands return their own results."""
    assert isinstance(handle(tutor, parse("stats"), place(), now), StatsShown)
    assert handle(tutor, parse("help"), place(), now) == HelpShown(local=False)
    version = handle(tutor, parse("version"), place(), now)
    assert isinstance(version, VersionShown) and version.version == metadata.version("study-tutor")
    assert isinstance(handle(tutor, parse("bye"), place(), now), Goodbye)


def test_schedule_changes_need_an_admin_and_are_shared(tutor, now):
    """Anyone can see the schedule; only an admin sets or stops it, and everyone sees that."""
    assert handle(tutor, parse("schedule"), place(), now) == ScheduleShown(None)
    assert handle(tutor, parse("schedule 09:00 UTC"), place(), now) == NotHere("not_admin")
    done = handle(tutor, parse("schedule 09:00 Europe/Berlin weekdays"), place(admin=True), now)
    assert isinstance(done, ScheduleSet) and done.schedule.tz == "Europe/Berlin" and is_shared(done)
    wrong = handle(tutor, parse("schedule 25:00 UTC"), place(admin=True), now)
    assert isinstance(wrong, Invalid) and "HH:MM" in wrong.message
    stopped = handle(tutor, parse("schedule off"), place(admin=True), now)
    assert stopped == ScheduleRemoved(True) and is_shared(stopped)


def test_admin_is_asked_only_when_a_command_needs_it(tutor, now):
    """A question or a quiz never asks who is an admin (in Slack that is a users.info call)."""
    asked: list[str] = []

    def admin() -> bool:
        asked.append("yes")
        return False

    where = Place("T1", "U1", "C1", False, admin)
    for line in ("which service for no-code training", "quiz", "stats", "leaderboard", "help"):
        handle(tutor, parse(line), where, now)
    assert asked == []
    assert handle(tutor, parse("gaps"), where, now) == NotHere("not_admin") and asked == ["yes"]


def test_gaps_for_admins_and_the_local_chat(tutor, now):
    """The curator's list: admins in Slack, anyone at the terminal."""
    handle(tutor, parse("zzqx wibble frobnicate"), place(), now)
    shown = handle(tutor, parse("gaps"), place(admin=True), now)
    local = handle(tutor, parse("gaps"), Place(LOCAL_TEAM, "ana", "chat-daily", True), now)
    assert isinstance(shown, GapsShown) and shown.rows[0]["question"] == "zzqx wibble frobnicate"
    assert isinstance(local, GapsShown)


def test_daily_in_a_channel_without_a_schedule_says_so(tutor, now):
    """`daily` where nothing is scheduled explains how to start one."""
    assert handle(tutor, parse("daily"), place(), now) == NoDaily(None, local=False)


def test_daily_in_the_local_chat_is_posted_on_first_ask(tutor, now):
    """The terminal has no scheduler: `daily` posts today's local question and shows it."""
    where = Place(LOCAL_TEAM, "ana", "chat-daily", True, lambda: True)
    shown = handle(tutor, parse("daily"), where, now)
    assert isinstance(shown, DailyShown) and shown.mine is None and shown.total == 0
    graded = handle(tutor, parse(f"daily {shown.question.answer}"), where, now)
    assert isinstance(graded, Grade) and graded.graded.status == "recorded"
    schedule = handle(tutor, parse("schedule 09:00 UTC"), where, now)
    assert schedule == NotHere("local_schedule")


def test_schedule_in_a_new_channel_is_not_a_local_schedule(tutor, now):
    """Only the terminal refuses schedules as local; a Slack channel takes them."""
    assert isinstance(
        handle(tutor, parse("schedule 07:30 UTC daily"), place(admin=True), now), ScheduleSet
    )


def test_the_daily_board_is_the_channels_board(tutor, now):
    """`daily board` shows the same board as `leaderboard` in that channel."""
    a = handle(tutor, parse("daily board"), place(), now)
    b = handle(tutor, parse("leaderboard"), place(), now)
    assert a == b


def test_every_question_of_the_time_is_answered_at_its_own_time(tutor):
    """`now` is the only clock: the same line at another time gives that time's answer."""
    early = dt.datetime(2026, 12, 7, 0, 30, tzinfo=dt.UTC)  # a Monday: a new week
    put = handle(tutor, parse("quiz"), place(), early - dt.timedelta(hours=1))
    handle(tutor, parse(put.asked.question.answer), place(), early - dt.timedelta(hours=1))
    board = handle(tutor, parse("leaderboard"), place(), early)
    last_week = handle(tutor, parse("leaderboard all"), place(), early)
    assert board.board.standings == [] and len(last_week.board.standings) == 1


# -- what mutation testing found untested ------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("/quiz", Command(Verb.QUIZ)),
        ("Quiz?", Command(Verb.QUIZ)),
        (
            "schedule 9:00 Europe/Berlin weekdays",
            Command(Verb.SCHEDULE, "9:00 Europe/Berlin weekdays"),
        ),
        ("schedule  09:00   America/New_York", Command(Verb.SCHEDULE, "09:00 America/New_York")),
        ("daily leaderboard", Command(Verb.DAILY, "leaderboard")),
        ("leaderboard workspace", Command(Verb.LEADERBOARD, "workspace")),
    ],
)
def test_command_shapes_keep_what_matters(text, expected):
    """A leading slash and a trailing mark are dropped; a zone keeps its capitals."""
    assert parse(text) == expected


def test_a_question_is_recorded_for_curators_under_a_hashed_asker(tutor, now):
    """An unanswered question counts its asker (hashed) in `gaps`, so curators see how many."""
    for user in ("U1", "U2", "U1"):
        handle(tutor, parse("zzqx wibble frobnicate"), place(user), now)
    (row,) = handle(tutor, parse("gaps"), place(admin=True), now).rows
    assert (row["times"], row["askers"]) == (3, 2)


def test_an_unsure_answer_says_so(tutor, now):
    """No good match is marked unsure, so Slack offers "did you mean" buttons."""
    result = handle(tutor, parse("zzqx wibble"), place(), now)
    assert isinstance(result, Answered) and result.unsure


@pytest.mark.parametrize(("words", "period"), [("teams", "week"), ("teams month", "month")])
def test_the_teams_board_keeps_its_period(tutor, now, words, period):
    """`leaderboard teams month` is this month's teams board."""
    result = handle(tutor, parse(f"leaderboard {words}"), place(), now)
    assert isinstance(result, TeamsShown) and result.board.period == period


@pytest.mark.parametrize("word", ["everyone", "workspace"])
def test_everyone_and_workspace_mean_the_whole_workspace(tutor, now, word):
    """In a channel, `leaderboard everyone` is the workspace's board, not the channel's."""
    result = handle(tutor, parse(f"leaderboard {word}"), place(channel="C1"), now)
    assert result.board.channel is None


@pytest.mark.parametrize("word", ["off", "stop", "remove"])
def test_schedule_can_be_stopped_three_ways_and_shown_while_set(tutor, now, word):
    """After a schedule is set, `schedule` shows it; off, stop and remove each stop it."""
    handle(tutor, parse("schedule 09:00 Europe/Berlin weekdays"), place(admin=True), now)
    shown = handle(tutor, parse("schedule"), place(), now)
    assert isinstance(shown, ScheduleShown) and shown.schedule.tz == "Europe/Berlin"
    assert handle(tutor, parse(f"schedule {word}"), place(admin=True), now) == ScheduleRemoved(True)


def test_a_slack_channels_daily_question_is_seen_and_answered_with_a_letter(tutor, now):
    """In a scheduled channel: before the post `daily` says when; after, it shows the question,
    a bare letter answers it (newest open question), and it then shows the learner's answer."""
    handle(tutor, parse("schedule 09:00 UTC daily"), place(admin=True), now)
    early = handle(tutor, parse("daily"), place(), now)  # 08:00: not out yet
    assert isinstance(early, NoDaily) and early.schedule.at == "09:00"
    nine = now + dt.timedelta(hours=1, minutes=1)
    Daily(tutor).run_pass(RecordingPoster(), now=nine)
    shown = handle(tutor, parse("daily"), place(), nine)
    assert isinstance(shown, DailyShown) and shown.mine is None and shown.total == 0
    letter = shown.question.answer.lower()
    graded = handle(tutor, parse(letter), place(), nine)
    assert isinstance(graded, Grade) and graded.graded.status == "recorded"
    assert tutor.store.answer_of(shown.post.id, "U1") == shown.question.answer
    again = handle(tutor, parse("daily"), place(), nine)
    assert again.mine == shown.question.answer and again.total == 1
    assert isinstance(handle(tutor, parse(letter), place(), nine), NoOpenQuestion)


def test_daily_leaderboard_is_the_daily_board_and_the_chat_has_its_own_schedule(tutor, now):
    """`daily leaderboard` is `daily board`; in the chat `schedule` shows the chat's own."""
    assert handle(tutor, parse("daily leaderboard"), place(), now) == handle(
        tutor, parse("daily board"), place(), now
    )
    local = Place(LOCAL_TEAM, "ana", "chat-daily", True, lambda: True)
    shown = handle(tutor, parse("schedule"), local, now)
    assert isinstance(shown, ScheduleShown) and shown.schedule.team == LOCAL_TEAM


# -- small talk and answers in words ----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "letter"),
    [
        ("i think its d", "d"),
        ("I think it's D", "d"),
        ("answer b", "b"),
        ("option b", "b"),
        ("Option B.", "b"),
        ("my answer is c", "c"),
        ("the answer is a!", "a"),
        ("maybe b", "b"),
        ("going with 2", "2"),
        ("c)", "c"),
        ("(b)", "b"),
        ("B.", "b"),
        ("4", "4"),
        ("A. Vertex AI AutoML image classification", "a"),
        ("b) Set the parameter's scaleType to UNIT_LOG_SCALE", "b"),
    ],
)
def test_answers_in_words(text, letter):
    """The ways people answer a quiz in words are answers, with their letter."""
    assert parse(text) == Command(Verb.ANSWER, letter)


@pytest.mark.parametrize(
    "text",
    [
        "which option is best for streaming?",
        "answer the question about bigquery",
        "I think BigQuery ML is the answer",
        "option pricing models on vertex",
        "is a TPU faster?",
        "hi, how do I train without code?",
        "thanks to dropout my model generalises, is that right?",
        "what can you do with BigQuery ML",
        "a) what is automl?",
    ],
)
def test_questions_with_answer_or_greeting_words_stay_questions(text):
    """A question that merely contains "option", "answer", "hi" or "thanks" is a question."""
    assert parse(text) == Command(Verb.ASK, text)


@pytest.mark.parametrize(
    ("text", "thanks"),
    [
        ("hi", False),
        ("Hello there!", False),
        ("good morning 👋", False),
        ("what can you do?", False),
        ("thx 🙏", True),
        ("thanks a lot!", True),
        ("Thank you", True),
        ("ok 👍", True),
    ],
)
def test_greetings_and_thanks_get_a_short_pointer(tutor, now, text, thanks):
    """Greetings and thanks are answered briefly, pointing at what the tutor does."""
    result = handle(tutor, parse(text), Place("T1", "U1", "C1"), now)
    assert result == Hello(thanks=thanks)
    (said,) = replies.render(result)
    assert "quiz" in said and len(said) < 200
