"""Schedules: parsing what admins type, and when a channel's question is due (DST included)."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest

from bot.errors import TutorError
from bot.schedule import closes_at, due_today, make_schedule, normalize_days, parse_schedule
from tests.daily_stub import utc


def berlin(at: str = "09:00", days: str = "mon-fri", **kwargs):
    return make_schedule(team="T1", channel="C123", at=at, tz="Europe/Berlin", days=days, **kwargs)


@pytest.mark.parametrize(
    ("typed", "days"),
    [
        ("weekdays", "mon-fri"),
        ("daily", "*"),
        ("weekends", "sat,sun"),
        ("mon wed fri", "mon,wed,fri"),
        ("Mon,Wed,Fri", "mon,wed,fri"),
        ("mon-thu", "mon-thu"),
    ],
)
def test_days_are_normalized(typed, days):
    """Day words, ranges and lists become one cron day_of_week field."""
    assert normalize_days(typed) == days


def test_parse_full_command_text():
    """`9:00 Europe/Berlin daily recap 8h` sets time, zone, days, recap and window."""
    schedule = parse_schedule("9:00 Europe/Berlin daily recap 8h", team="T1", channel="C1")
    assert (schedule.at, schedule.tz, schedule.days) == ("09:00", "Europe/Berlin", "*")
    assert schedule.recap is True
    assert schedule.window_hours == 8


def test_days_default_to_weekdays():
    """Without days, a schedule runs on weekdays."""
    assert parse_schedule("09:00 UTC", team="T1", channel="C1").days == "mon-fri"


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("25:00 Europe/Berlin", "HH:MM"),
        ("09:00 Mars/Olympus", "IANA"),
        ("09:00 Europe/Berlin someday", "set of days"),
        ("09:00", "time zone"),
        ("09:00 UTC daily 0h", "1 to 168"),
    ],
)
def test_bad_schedules_say_how_to_fix_them(text, says):
    """Each wrong part gets a message naming it and the right form."""
    with pytest.raises(TutorError, match=says):
        parse_schedule(text, team="T1", channel="C1")


def test_due_after_the_local_time_on_the_local_date():
    """09:00 Berlin in winter is 08:00 UTC: due at 08:00Z, not at 07:59Z."""
    schedule = berlin()
    assert due_today(schedule, utc(2026, 12, 1, 7, 59)) is None
    due = due_today(schedule, utc(2026, 12, 1, 8, 0))
    assert due is not None
    assert due.local_date == dt.date(2026, 12, 1)
    assert due.fire_time == utc(2026, 12, 1, 8, 0)


def test_summer_time_moves_the_utc_hour():
    """In summer (CEST) the same 09:00 is 07:00 UTC."""
    due = due_today(berlin(), utc(2026, 7, 1, 7, 0))
    assert due is not None and due.fire_time == utc(2026, 7, 1, 7, 0)


def test_spring_forward_day_fires_at_the_new_offset():
    """On 29 March 2026 Berlin skips 02:00-03:00; 09:00 that day is 07:00 UTC."""
    schedule = berlin(days="*")
    assert due_today(schedule, utc(2026, 3, 29, 6, 59)) is None
    assert due_today(schedule, utc(2026, 3, 29, 7, 0)).fire_time == utc(2026, 3, 29, 7, 0)


def test_a_time_inside_the_spring_gap_still_fires_once_that_day():
    """02:30 does not exist on 29 March in Berlin; the question is still due that local day."""
    schedule = berlin(at="02:30", days="*")
    due = due_today(schedule, utc(2026, 3, 29, 2, 0))
    assert due is not None and due.local_date == dt.date(2026, 3, 29)


def test_fall_back_repeated_hour_gives_one_local_date():
    """02:30 happens twice on 25 October; both instants map to the same local date."""
    schedule = berlin(at="02:30", days="*")
    first = due_today(schedule, utc(2026, 10, 25, 0, 30))
    second = due_today(schedule, utc(2026, 10, 25, 1, 30))
    assert first.local_date == second.local_date == dt.date(2026, 10, 25)
    # the window closes at the next day's fire, not at the repeat an hour later
    assert closes_at(schedule, first.local_date, first.fire_time) == utc(2026, 10, 26, 1, 30)


def test_local_date_late_in_the_evening():
    """At 23:30 in New York (04:30Z the next day) the local date is still New York's."""
    schedule = make_schedule(team="T1", channel="C1", at="23:00", tz="America/New_York", days="*")
    due = due_today(schedule, utc(2027, 1, 21, 4, 30))
    assert due.local_date == dt.date(2027, 1, 20)
    assert due.fire_time == utc(2027, 1, 21, 4, 0)


def test_a_pass_catches_up_within_two_hours_then_skips_the_day():
    """After a restart a pass still posts up to two hours late, but not at an odd hour."""
    schedule = berlin()
    assert due_today(schedule, utc(2026, 12, 1, 10, 0)) is not None
    assert due_today(schedule, utc(2026, 12, 1, 10, 1)) is None


def test_without_a_catch_up_limit_the_whole_local_day_is_due():
    """The local chat's schedule (no limit) is due until local midnight."""
    schedule = dataclasses.replace(berlin(), catch_up=None)
    assert due_today(schedule, utc(2026, 12, 1, 22, 59)) is not None
    assert due_today(schedule, utc(2026, 12, 1, 23, 0)) is None  # midnight in Berlin


def test_new_york_summer_and_winter():
    """09:00 New York fires at 13:00Z in summer and 14:00Z in winter."""
    schedule = make_schedule(team="T1", channel="C1", at="09:00", tz="America/New_York", days="*")
    assert due_today(schedule, utc(2026, 7, 1, 13, 0)).fire_time == utc(2026, 7, 1, 13, 0)
    assert due_today(schedule, utc(2026, 12, 1, 13, 59)) is None
    assert due_today(schedule, utc(2026, 12, 1, 14, 0)).fire_time == utc(2026, 12, 1, 14, 0)


def test_weekdays_skip_the_weekend():
    """A weekdays schedule is not due on Saturday, and Friday's window runs to Monday."""
    schedule = berlin()
    assert due_today(schedule, utc(2026, 12, 5, 12, 0)) is None  # a Saturday
    friday = due_today(schedule, utc(2026, 12, 4, 8, 0))
    assert closes_at(schedule, friday.local_date, friday.fire_time) == utc(2026, 12, 7, 8, 0)


def test_window_hours_close_the_question_early():
    """With an 8-hour window the question closes 8 hours after it was posted."""
    schedule = berlin(window_hours=8)
    posted = utc(2026, 12, 1, 8, 5)
    assert closes_at(schedule, dt.date(2026, 12, 1), posted) == utc(2026, 12, 1, 16, 5)


@pytest.mark.parametrize(
    ("text", "sections"),
    [
        ("09:00 UTC weekdays", ()),
        ("09:00 UTC weekdays 3.1,3.2", ("3.1", "3.2")),
        ("09:00 UTC 3", ("3.1", "3.2", "3.3")),
        ("09:00 UTC daily 4 6.1 recap", ("4.1", "4.2", "6.1")),
    ],
)
def test_a_schedule_can_limit_its_questions_to_exam_sections(text, sections):
    """Section ids, or a domain number for all its sections, after the time and zone."""
    schedule = parse_schedule(text, team="T1", channel="C1")
    assert schedule.sections == sections
    assert schedule.days in ("mon-fri", "*")


@pytest.mark.parametrize("text", ["09:00 UTC 7.1", "09:00 UTC 3.9", "09:00 UTC 9"])
def test_an_unknown_section_says_which_are_known(text):
    """A section the exam does not have is refused with how to write one."""
    with pytest.raises(TutorError, match=r"is not an exam section; use section ids such as 3\.1"):
        parse_schedule(text, team="T1", channel="C1")
