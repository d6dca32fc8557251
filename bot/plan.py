"""An exam date, and the work that gets every section to the target by then.

Sizing (a heuristic, stated so it can be argued with): a section needs `FIRM` answers' worth of
evidence before its estimate means much, plus `GAIN` more answers for every whole 1.0 it is
below `TARGET` (4 answers per 10 points: practice with feedback and "read next"). What all
sections need, spread evenly over the days left, is today's budget of new questions, given to
the sections furthest from ready first; today names at most `FOCUS` sections, so when the exam
is close today's count is what those sections take (the rest come on later days). Reviews due
(FSRS) come before new questions.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from dataclasses import dataclass

from bot.errors import TutorError
from bot.readiness import TARGET, Readiness, SectionReadiness

FIRM = 10.0  # answers' worth of evidence a section needs
GAIN = 40  # more answers per 1.0 (100 points) below the target
FOCUS = 3  # sections named in today's work, at most
HORIZON_DAYS = 2 * 366  # an exam date further away than this is a typo
OFF_WORDS = ("off", "remove", "clear", "none", "cancel", "delete")
_ISO = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})")
EXAMPLE = "exam 2027-03-01"


@dataclass(frozen=True)
class Plan:
    """Countdown and today's work for a learner with an exam date."""

    exam: dt.date
    today: dt.date
    reviews_due: int
    new_today: int  # new questions suggested today
    focus: tuple[tuple[SectionReadiness, int], ...]  # where today's new questions go
    needed: int  # new questions all sections still need, in total
    furthest: tuple[SectionReadiness, ...]

    @property
    def days_left(self) -> int:
        return (self.exam - self.today).days


def needed(section: SectionReadiness) -> int:
    """New answers this section still needs to reach the target with a firm estimate."""
    evidence = max(0.0, FIRM - section.evidence)
    below = max(0.0, TARGET - section.mean)
    return math.ceil(evidence + GAIN * below - 1e-9)


def make_plan(readiness: Readiness, *, exam: dt.date, today: dt.date, reviews_due: int) -> Plan:
    """Today's work: reviews due, then new questions in the sections furthest from ready."""
    order = sorted(readiness.sections, key=lambda s: (s.low, -s.weight, s.section))
    needs = [(s, needed(s)) for s in order if needed(s) > 0]
    total = sum(n for _, n in needs)
    days = (exam - today).days
    per_day = math.ceil(total / days) if days > 0 and total else 0
    focus: list[tuple[SectionReadiness, int]] = []
    left = per_day
    for section, need in needs:
        if left <= 0 or len(focus) == FOCUS:
            break
        take = min(need, left)
        focus.append((section, take))
        left -= take
    new_today = per_day - left if per_day else 0
    return Plan(exam, today, reviews_due, new_today, tuple(focus), total, readiness.furthest())


def parse_exam_date(text: str, today: dt.date) -> dt.date:
    """'2027-03-01' → that date; anything else, a past date or one years away: a TutorError
    whose message says how to write it."""
    found = _ISO.fullmatch(text.strip())
    if found is None:
        raise TutorError(
            f"'{text.strip()[:40]}' is not a date I can read. Write it as YYYY-MM-DD, e.g. "
            f"{EXAMPLE} (or exam off to remove it)."
        )
    try:
        day = dt.date(*(int(part) for part in found.groups()))
    except ValueError:
        raise TutorError(
            f"{text.strip()} is not a real date. Write it as YYYY-MM-DD, e.g. {EXAMPLE}."
        ) from None
    if day < today:
        raise TutorError(
            f"{day.isoformat()} has already passed. Give the date of your exam, e.g. {EXAMPLE}."
        )
    if (day - today).days > HORIZON_DAYS:
        raise TutorError(
            f"{day.isoformat()} is more than two years away; check the year, e.g. {EXAMPLE}."
        )
    return day
