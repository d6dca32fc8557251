"""When a channel's daily question is due: a local time, an IANA zone and days of the week.

All calendar arithmetic is APScheduler's CronTrigger (time zones, daylight-saving gaps and
repeats); this module only asks it for fire times and turns them into local dates.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from bot.content import DOMAINS, SECTIONS
from bot.errors import TutorError

if TYPE_CHECKING:
    from apscheduler.triggers.cron import CronTrigger

DAY_WORDS = {"daily": "*", "everyday": "*", "weekdays": "mon-fri", "weekends": "sat,sun"}
_TIME = re.compile(r"^([01]?\d|2[0-3]):([0-5]\d)$")
_WINDOW = re.compile(r"^(\d{1,3})h$")
_SECTIONS = re.compile(r"^\d(\.\d)?(,\d(\.\d)?)*$")  # 3.1,3.2 or a whole domain: 3
_DAY_PART = re.compile(r"^(mon|tue|wed|thu|fri|sat|sun)(-(mon|tue|wed|thu|fri|sat|sun))?$")
EXAMPLE = "09:00 Europe/Berlin weekdays"
# How late a pass may still post a question (after a restart or a missed tick), like
# APScheduler's misfire_grace_time; later than that, the day is skipped rather than posted at
# an odd hour with a short window.
CATCH_UP = dt.timedelta(hours=2)


@dataclass(frozen=True)
class Schedule:
    """One channel's daily question: `at` local time in `tz` on `days` (a cron day_of_week)."""

    team: str
    channel: str
    at: str
    tz: str
    days: str = "mon-fri"
    window_hours: int | None = None
    recap: bool = False
    catch_up: dt.timedelta | None = CATCH_UP  # None: due all the rest of the local day
    sections: tuple[str, ...] = ()  # exam sections the questions come from; () for all

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.tz)

    def trigger(self) -> CronTrigger:
        from apscheduler.triggers.cron import CronTrigger  # 80 ms: only schedules need it

        hour, minute = self.at.split(":")
        return CronTrigger(
            hour=int(hour), minute=int(minute), day_of_week=self.days, timezone=self.zone
        )


@dataclass(frozen=True)
class Due:
    """A schedule whose question for `local_date` was due at `fire_time` (UTC)."""

    schedule: Schedule
    local_date: dt.date
    fire_time: dt.datetime


def due_today(schedule: Schedule, now: dt.datetime) -> Due | None:
    """Today's fire time in the schedule's zone, if it has come; today is the local date of `now`.

    A pass up to `catch_up` later still finds it due, so a restart or a missed tick catches up;
    the ledger keeps that to one post per local date.
    """
    zone = schedule.zone
    today = now.astimezone(zone).date()
    midnight = dt.datetime.combine(today, dt.time(0), tzinfo=zone)
    fire = schedule.trigger().get_next_fire_time(None, midnight)
    if fire is None or fire.astimezone(zone).date() != today or fire > now:
        return None
    if schedule.catch_up is not None and now - fire > schedule.catch_up:
        return None
    return Due(schedule, today, fire.astimezone(dt.UTC))


def next_fire_after(schedule: Schedule, local_date: dt.date) -> dt.datetime | None:
    """The first fire time on a later local date (a repeated hour at fall-back is skipped)."""
    zone = schedule.zone
    start = dt.datetime.combine(local_date + dt.timedelta(days=1), dt.time(0), tzinfo=zone)
    fire = schedule.trigger().get_next_fire_time(None, start)
    return fire.astimezone(dt.UTC) if fire else None


def closes_at(schedule: Schedule, local_date: dt.date, posted_at: dt.datetime) -> dt.datetime:
    """Open until the next scheduled post, or for `window_hours` when that is set."""
    if schedule.window_hours:
        return posted_at + dt.timedelta(hours=schedule.window_hours)
    following = next_fire_after(schedule, local_date)
    return following or posted_at + dt.timedelta(days=1)


def normalize_days(text: str) -> str:
    """'weekdays' → 'mon-fri'; 'mon wed fri' or 'Mon,Wed,Fri' → 'mon,wed,fri'; 'daily' → '*'."""
    words = text.lower().replace(",", " ").split()
    if len(words) == 1 and words[0] in DAY_WORDS:
        return DAY_WORDS[words[0]]
    found = [_day_part(word) for word in words]
    parts = [part for part in found if part is not None]
    if not parts or len(parts) != len(found):
        raise TutorError(
            f"'{text}' is not a set of days; use daily, weekdays, weekends, a range like mon-fri "
            "or a list like mon,wed,fri"
        )
    return ",".join(parts)


def parse_schedule(text: str, *, team: str, channel: str) -> Schedule:
    """`09:00 Europe/Berlin weekdays [recap] [8h] [3.1,3.2]` (days default to weekdays).

    Section ids (or a domain number: `3` is 3.1–3.3) limit the questions to those sections.
    """
    words = text.split()
    if len(words) < 2:
        raise TutorError(f"give a time and a time zone, e.g. `/tutor schedule {EXAMPLE}`")
    at, tz, rest = words[0], words[1], words[2:]
    recap = any(w.lower() == "recap" for w in rest)
    windows = [int(m.group(1)) for w in rest if (m := _WINDOW.match(w.lower()))]
    sections = ",".join(w for w in rest if _SECTIONS.match(w))
    days_words = [
        w
        for w in rest
        if w.lower() != "recap" and not _WINDOW.match(w.lower()) and not _SECTIONS.match(w)
    ]
    days = normalize_days(" ".join(days_words)) if days_words else "mon-fri"
    return make_schedule(
        team=team,
        channel=channel,
        at=at,
        tz=tz,
        days=days,
        window_hours=windows[0] if windows else None,
        recap=recap,
        sections=parse_sections(sections),
    )


def parse_sections(text: str) -> tuple[str, ...]:
    """'3.1,3.2' → ('3.1', '3.2'); a domain number stands for all its sections; '' for all."""
    found: list[str] = []
    for part in (p.strip() for p in text.replace(" ", ",").split(",")):
        if not part:
            continue
        if part in DOMAINS:
            found += [s for s in SECTIONS if s.split(".")[0] == part]
        elif part in SECTIONS:
            found.append(part)
        else:
            raise TutorError(
                f"'{part}' is not an exam section; use section ids such as 3.1,3.2 "
                f"or a domain number from 1 to {len(DOMAINS)}"
            )
    return tuple(dict.fromkeys(found))


def make_schedule(
    *,
    team: str,
    channel: str,
    at: str,
    tz: str,
    days: str = "mon-fri",
    window_hours: int | None = None,
    recap: bool = False,
    sections: tuple[str, ...] = (),
) -> Schedule:
    """A validated Schedule, or a TutorError saying which part is wrong and how to write it."""
    match = _TIME.match(at)
    if not match:
        raise TutorError(f"'{at}' is not a time of day; write it as HH:MM, e.g. 09:00")
    zone = canonical_zone(tz)
    if zone is None:
        raise TutorError(
            f"'{tz}' is not a time zone; use an IANA name such as Europe/Berlin or America/New_York"
        )
    tz = zone
    if window_hours is not None and not 1 <= window_hours <= 168:
        raise TutorError(f"the answer window must be 1 to 168 hours, got {window_hours}")
    schedule = Schedule(
        team,
        channel,
        f"{int(match.group(1)):02d}:{match.group(2)}",
        tz,
        normalize_days(days),
        window_hours,
        recap,
        sections=parse_sections(",".join(sections)),
    )
    schedule.trigger()  # the days were checked word by word; this is the final word
    return schedule


def canonical_zone(tz: str) -> str | None:
    """The IANA name as spelled in the zone database (`europe/berlin` → `Europe/Berlin`)."""
    try:
        ZoneInfo(tz)
        exact = tz in available_timezones() or tz == "UTC"
    except (ZoneInfoNotFoundError, ValueError):
        exact = False
    if exact:
        return tz
    return {zone.lower(): zone for zone in available_timezones()}.get(tz.strip().lower())


def _day_part(word: str) -> str | None:
    if word in ("*", "daily"):
        return "*"
    return word if _DAY_PART.match(word) else None
