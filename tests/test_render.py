"""Every result the conversation can return renders in both channels: as text and as Block Kit."""

from __future__ import annotations

import dataclasses
import typing

import pytest
from slack_sdk.models.blocks import Block

from bot import replies
from bot.conversation import (
    Answered,
    BoardShown,
    DailyShown,
    ExamRemoved,
    ExamSet,
    ExamShown,
    GapsShown,
    Goodbye,
    Grade,
    Hello,
    HelpShown,
    Invalid,
    MoreShown,
    NoDaily,
    NoOpenQuestion,
    NotHere,
    NothingToReport,
    Place,
    Practiced,
    Put,
    ReadyShown,
    ReportKept,
    Result,
    ScheduleRemoved,
    ScheduleSet,
    ScheduleShown,
    StatsShown,
    TeamsShown,
    VersionShown,
    handle,
    parse,
)
from bot.mock import MockDiscarded, MockDone, MockOffer, MockRefused, MockShown, NoMock
from bot.schedule import make_schedule
from bot.slack import blocks, handlers
from bot.store import LOCAL_TEAM

PASTED = (
    "A team with no ML experience must train an image classifier on labelled photos with as "
    "little code as possible. What should they use?\nA. AutoML\nB. A custom TensorFlow job"
    "\nC. <!channel> a Dataproc cluster\nD. Cloud Functions"
)


def samples(tutor, now) -> dict[type, list]:
    """At least one real instance of every result type, made by the core itself where it can."""
    here = Place("T1", "U1", "C1", False, lambda: True)
    local = Place(LOCAL_TEAM, "ana", "chat-daily", True, lambda: True)
    reporting = Place(LOCAL_TEAM, "ana", "chat-daily", True, recent=("question", "q-no-code"))
    reporting_entry = Place(LOCAL_TEAM, "ana", "chat-daily", True, recent=("entry", "automl"))

    def said(line: str, where: Place = here):
        return handle(tutor, parse(line), where, now)

    put = said("quiz")
    graded = said(put.asked.question.answer)
    more = said("more")
    schedule = make_schedule(team="T1", channel="C1", at="09:00", tz="Europe/Berlin")
    practiced = said(PASTED)
    unsure = dataclasses.replace(practiced.practice, pick=None)
    no_open = said("b")  # before the mock: a letter then answers the mock's question
    mock = said("mock 3 timed")
    offer = said("mock")
    taken = [said("a"), said("b"), said("c")]  # the three questions of the small bank
    said("mock 3")
    return {
        Answered: [said("which service for no-code training"), said("zzqx wibble")],
        Practiced: [practiced, Practiced(unsure, PASTED)],
        Put: [put],
        Grade: [graded, Grade(None)],
        NoOpenQuestion: [no_open],
        MoreShown: [more, MoreShown(None)],
        BoardShown: [said("leaderboard"), said("leaderboard everyone"), said("leaderboard all")],
        TeamsShown: [said("leaderboard teams")],
        StatsShown: [said("stats")],
        DailyShown: [said("daily", local)],
        NoDaily: [said("daily"), NoDaily(schedule)],
        ScheduleShown: [said("schedule"), ScheduleShown(schedule)],
        ScheduleSet: [ScheduleSet(schedule)],
        ScheduleRemoved: [ScheduleRemoved(True), ScheduleRemoved(False)],
        NotHere: [NotHere("not_admin"), NotHere("local_schedule")],
        Invalid: [Invalid("'25:00' is not a time of day; write it as HH:MM, e.g. 09:00")],
        GapsShown: [said("gaps"), GapsShown(())],
        ReadyShown: [said("ready"), said("am i ready for the exam")],
        ExamShown: [said("exam")],
        ExamSet: [said("exam 2027-03-01")],
        ExamRemoved: [said("exam off"), ExamRemoved(False)],
        VersionShown: [said("version")],
        HelpShown: [said("help"), HelpShown(local=True)],
        Goodbye: [said("quit")],
        MockShown: [mock, *taken[:2]],
        MockOffer: [offer],
        MockDone: [taken[2]],
        MockDiscarded: [said("mock discard")],
        NoMock: [said("mock resume")],
        MockRefused: [said("mock 99"), MockRefused("stale"), MockRefused("over")],
        Hello: [said("hi"), said("thx 🙏")],
        ReportKept: [
            handle(tutor, parse("report the key is wrong"), reporting, now),
            handle(tutor, parse("report renamed"), reporting_entry, now),
        ],
        NothingToReport: [said("report it is wrong"), said("report", reporting)],
    }


def test_every_result_type_has_samples(tutor, now):
    """A new result type without a sample here fails, so it cannot go unrendered."""
    made = samples(tutor, now)
    assert set(made) == set(typing.get_args(Result))
    for kind, found in made.items():
        assert all(isinstance(result, kind) for result in found), kind


def _all(tutor, now) -> list[Result]:
    return [result for found in samples(tutor, now).values() for result in found]


def test_every_result_renders_as_lines(tutor, now):
    """The terminal's rendering: non-empty lines of text for every result."""
    for result in _all(tutor, now):
        lines = replies.render(result)
        assert lines and all(isinstance(line, str) for line in lines), result
        assert any(line.strip() for line in lines), result


def test_every_result_renders_as_valid_block_kit(tutor, now):
    """Slack's rendering: a fallback text and blocks slack_sdk accepts, within Slack's limits."""
    for result in _all(tutor, now):
        message = handlers.render(result)
        assert message.text.strip(), result
        assert 0 < len(message.blocks) <= 50, result
        parsed = Block.parse_all(message.blocks)
        assert None not in parsed, result
        for block in parsed:
            block.to_dict()


@pytest.mark.parametrize("line", ["quiz", "which service for no-code training", "daily"])
def test_the_two_renderings_say_the_same_first_thing(tutor, now, line):
    """Slack's fallback text starts with what the terminal prints first."""
    where = Place(LOCAL_TEAM, "ana", "chat-daily", True, lambda: True)
    result = handle(tutor, parse(line), where, now)
    first = replies.render(result)[0]
    assert blocks.render(result).text.startswith(first.replace("&", "&amp;")[:40])
