"""How ready a learner is for the exam, section by section, with honest uncertainty.

The model: for each exam section, a Beta posterior over the chance that the learner answers a
new question of that section correctly. Why Beta: each answer is a right/wrong trial, the Beta
is the conjugate prior of that, and its spread shrinks as answers accumulate, so "few answers"
shows as a wide range by itself rather than by a rule bolted on. Each answer counts with a
weight rather than as a whole trial:

- recency: weight halves every `HALF_LIFE_DAYS` (what you knew in spring says less about today);
- repeats: a second or later answer to the same question counts `REPEAT` (remembering one
  question is weaker evidence than answering a new one, and FSRS reviews repeat questions);
- difficulty: a right answer to a hard question is stronger evidence of skill than one to an
  easy question, and a wrong answer to an easy question stronger evidence against
  (`RIGHT_WEIGHT`, `WRONG_WEIGHT`).

The prior of every section is centred on the learner's own overall accuracy (Beta(1, 1) over
all their answers) with the strength of `PRIOR_STRENGTH` answers, so a section never tried
starts at the learner's general level, with a wide range. The range shown is the central
`RANGE` of the posterior by the normal approximation (mean ± z·sd, clipped to 0–1): the
standard library has no Beta quantile function, and at the widths where the approximation is
rough the message is "not enough answers yet" anyway.

The overall estimate weights sections by the exam guide: each domain's share (`DOMAINS`), split
equally among its sections (the guide gives no finer weights). Google publishes no pass mark for
this exam (results are pass/fail; neither the exam guide nor the certification page gives a
score), so the overall figure is a weighted estimate, set against our own `TARGET`, not a
prediction of passing.
"""

from __future__ import annotations

import datetime as dt
import math
import statistics
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from bot.content import DOMAINS, SECTIONS
from bot.quiz import QuestionBank
from bot.store import Answer

HALF_LIFE_DAYS = 30.0
REPEAT = 0.5
RIGHT_WEIGHT = {"easy": 0.7, "medium": 1.0, "hard": 1.3}
WRONG_WEIGHT = {"easy": 1.3, "medium": 1.0, "hard": 0.7}
PRIOR_STRENGTH = 2.0
RANGE = 0.8  # the central share of the posterior shown as the range
Z = statistics.NormalDist().inv_cdf(0.5 + RANGE / 2)
WIDE, NARROW = 0.25, 0.10  # half-widths: above WIDE "not enough answers yet"; up to NARROW firm
FEW = 3.0  # answers' worth of evidence below which a section has "not enough answers yet"
TARGET = 0.75  # our goal in every section (Google publishes no pass mark)
PASS_MARK: float | None = None  # Google's published pass mark: there is none
NO_PASS_MARK = (
    "Google publishes no pass mark for this exam (results are pass or fail), so this is the "
    "estimate weighted by the exam guide's domains"
)

Level = Literal["wide", "medium", "narrow"]


@dataclass(frozen=True)
class SectionReadiness:
    """One section's estimate: `mean` with its range (`low`, `high`)."""

    section: str
    title: str
    weight: float  # share of the exam
    answered: int  # answers given in the section
    evidence: float  # the answers' weights added up (recency and repeats)
    mean: float
    low: float
    high: float

    @property
    def level(self) -> Level:
        half = (self.high - self.low) / 2
        if half > WIDE or self.evidence < FEW:
            return "wide"
        return "medium" if half > NARROW else "narrow"

    @property
    def ready(self) -> bool:
        return self.level != "wide" and self.mean >= TARGET


@dataclass(frozen=True)
class Readiness:
    """Every section's estimate, in the guide's order, and the weighted overall one."""

    sections: tuple[SectionReadiness, ...]
    mean: float
    low: float
    high: float
    answered: int

    def furthest(self, count: int = 3) -> tuple[SectionReadiness, ...]:
        """The sections furthest from ready: lowest pessimistic estimate first, then weight."""
        behind = [s for s in self.sections if not s.ready]
        return tuple(sorted(behind, key=lambda s: (s.low, -s.weight, s.section))[:count])

    def too_few(self) -> tuple[SectionReadiness, ...]:
        return tuple(s for s in self.sections if s.level == "wide")


def section_weights() -> dict[str, float]:
    """Each section's share of the exam: its domain's share split equally among its sections,
    scaled so the shares add up to one (the guide's approximate percentages add up to 101)."""
    per_domain = Counter(s.split(".")[0] for s in SECTIONS)
    raw = {
        s: DOMAINS.get(s.split(".")[0], ("", 0))[1] / per_domain[s.split(".")[0]] for s in SECTIONS
    }
    total = sum(raw.values())
    return {s: share / total for s, share in raw.items()}


def estimate(answers: Iterable[Answer], bank: QuestionBank, now: dt.datetime) -> Readiness:
    """The learner's readiness from all their answers (any kind of post) at `now`."""
    answers = sorted(answers, key=lambda a: a.at)
    right = sum(a.correct for a in answers)
    overall = (1 + right) / (2 + len(answers))
    alpha = dict.fromkeys(SECTIONS, PRIOR_STRENGTH * overall)
    beta = dict.fromkeys(SECTIONS, PRIOR_STRENGTH * (1 - overall))
    evidence = dict.fromkeys(SECTIONS, 0.0)
    counts: Counter[str] = Counter()
    seen: Counter[str] = Counter()
    for a in answers:
        if a.section not in SECTIONS:
            continue
        seen[a.question_id] += 1
        counts[a.section] += 1
        w = _recency(a.at, now) * (REPEAT if seen[a.question_id] > 1 else 1.0)
        question = bank.get(a.question_id)
        difficulty = question.difficulty if question else "medium"
        evidence[a.section] += w
        if a.correct:
            alpha[a.section] += w * RIGHT_WEIGHT.get(difficulty, 1.0)
        else:
            beta[a.section] += w * WRONG_WEIGHT.get(difficulty, 1.0)
    weights = section_weights()
    sections = tuple(
        _section(s, weights[s], counts[s], evidence[s], alpha[s], beta[s]) for s in SECTIONS
    )
    mean = sum(s.weight * s.mean for s in sections)
    # The sections share their prior (the learner's overall level), so their errors move
    # together: adding the spreads (not their squares) keeps the overall range honest.
    sd = sum(s.weight * (s.high - s.low) / (2 * Z) for s in sections)
    return Readiness(sections, mean, *_range(mean, sd), len(answers))


def _section(
    section: str, weight: float, answered: int, evidence: float, a: float, b: float
) -> SectionReadiness:
    mean = a / (a + b)
    sd = math.sqrt(a * b / ((a + b) ** 2 * (a + b + 1)))
    low, high = _range(mean, sd)
    return SectionReadiness(section, SECTIONS[section], weight, answered, evidence, mean, low, high)


def _range(mean: float, sd: float) -> tuple[float, float]:
    return max(0.0, mean - Z * sd), min(1.0, mean + Z * sd)


def _recency(at: dt.datetime, now: dt.datetime) -> float:
    age = max(0.0, (now - at).total_seconds() / 86400)
    return 0.5 ** (age / HALF_LIFE_DAYS)


# -- progress over time ---------------------------------------------------------------------


@dataclass(frozen=True)
class Week:
    """One week's answers (weeks start Monday, UTC)."""

    start: dt.date
    answered: int
    correct: int

    @property
    def accuracy(self) -> float:
        return self.correct / self.answered if self.answered else 0.0


def weekly(answers: Iterable[Answer], now: dt.datetime, weeks: int = 8) -> tuple[Week, ...]:
    """The last `weeks` weeks up to `now`'s, oldest first, empty weeks included."""
    today = now.astimezone(dt.UTC).date()
    this_monday = today - dt.timedelta(days=today.weekday())
    starts = [this_monday - dt.timedelta(weeks=i) for i in range(weeks - 1, -1, -1)]
    answered: Counter[dt.date] = Counter()
    correct: Counter[dt.date] = Counter()
    cutoff = dt.datetime.combine(starts[0], dt.time(), dt.UTC)
    for a in answers:
        if a.at < cutoff:
            continue  # before the first week shown
        day = a.at.astimezone(dt.UTC).date()
        monday = day - dt.timedelta(days=day.weekday())
        answered[monday] += 1
        correct[monday] += a.correct
    return tuple(Week(s, answered[s], correct[s]) for s in starts)
