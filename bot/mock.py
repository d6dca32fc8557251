"""Mock exams: N questions in the exam guide's proportions, answered with no feedback until the end.

The draw gives each exam section (the guide's numbered domains, weighted in `bot.content.DOMAINS`)
its share of N by largest remainders, so every section gets its quota rounded down or up: within
one question of its proportion. Questions the learner saw in the last 30 days are drawn last.

The optional time limit follows the real exam's pace. Google's certification page
(https://cloud.google.com/learn/certification/machine-learning-engineer) gives "Length: Two
hours" and "50-60 multiple choice and multiple select questions"; two minutes a question is the
pace of the longest form (120 minutes / 60), so a timed mock is never easier than the exam.

Answers go where every answer goes (posts of kind `mock`), so they feed a learner's history and
reviews; the tallies keep them off every board.
"""

from __future__ import annotations

import datetime as dt
import random
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from bot.content import DOMAINS
from bot.knowledge import Entry
from bot.quiz import Question, QuestionBank

EXAM_MINUTES, EXAM_QUESTIONS = 120, 60  # Google's page: two hours, 50-60 questions
PACE = dt.timedelta(minutes=EXAM_MINUTES) / EXAM_QUESTIONS  # two minutes a question
DEFAULT_SIZE, MIN_SIZE, MAX_SIZE = 20, 5, EXAM_QUESTIONS
FRESH = dt.timedelta(days=30)  # a question seen more recently is drawn only when the bank runs out


def domain_of(section: str) -> str:
    return section.split(".")[0]


def quotas(size: int, weights: Mapping[str, float], capacity: Mapping[str, int]) -> dict[str, int]:
    """`size` split by `weights` with largest remainders; a part with too few questions (its
    `capacity`) gives the rest to the others, split the same way."""
    counts = dict.fromkeys(weights, 0)
    left = size
    while left > 0:
        room = {k: capacity.get(k, 0) - counts[k] for k in weights}
        open_parts = [k for k in weights if room[k] > 0 and weights[k] > 0]
        if not open_parts:
            break
        total = sum(weights[k] for k in open_parts)
        ideal = {k: left * weights[k] / total for k in open_parts}
        share = {k: int(ideal[k]) for k in open_parts}
        by_remainder = sorted(open_parts, key=lambda k: (share[k] - ideal[k], k))
        for k in by_remainder[: left - sum(share.values())]:
            share[k] += 1
        given = {k: min(share[k], room[k]) for k in open_parts}
        counts.update({k: counts[k] + given[k] for k in open_parts})
        left -= sum(given.values())
    return counts


def draw(
    bank: QuestionBank,
    size: int,
    *,
    seen: Mapping[str, str],
    rng: random.Random,
) -> list[Question]:
    """`size` questions in the guide's proportions, those not in `seen` (id → when) first.

    Within a section, its subsections take turns; the order of the whole is shuffled.
    """
    by_domain: dict[str, list[Question]] = {}
    for question in bank.questions:
        by_domain.setdefault(domain_of(question.section), []).append(question)
    weights = {d: float(w) for d, (_, w) in DOMAINS.items()}
    weights.update({d: 1.0 for d in by_domain if d not in weights})  # content outside the guide
    capacity = {d: len(qs) for d, qs in by_domain.items()}
    drawn: list[Question] = []
    for domain, count in quotas(size, weights, capacity).items():
        drawn += _spread(by_domain.get(domain, []), count, seen, rng)
    rng.shuffle(drawn)
    return drawn


def _spread(
    questions: list[Question], count: int, seen: Mapping[str, str], rng: random.Random
) -> list[Question]:
    """`count` of one section's questions: unseen first (subsections in turn), then the least
    recently seen."""
    keyed = [(*_staleness(q, seen), rng.random(), q) for q in questions]
    queues: dict[str, list[Question]] = {}
    for *_, question in sorted(keyed, key=lambda k: k[:3]):
        queues.setdefault(question.section, []).append(question)
    taken: Counter[str] = Counter()
    picked: list[Question] = []
    while len(picked) < count:
        ready = [s for s, queue in queues.items() if queue]
        section = min(
            ready, key=lambda s: (*_staleness(queues[s][0], seen), taken[s], rng.random())
        )
        picked.append(queues[section].pop(0))
        taken[section] += 1
    return picked


def _staleness(question: Question, seen: Mapping[str, str]) -> tuple[bool, str]:
    """Sorts unseen questions first, then by when they were last seen."""
    return question.id in seen, seen.get(question.id, "")


# -- results ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MockShown:
    """A mock's question to answer next. `recorded`: the letter just taken for the one before
    (no verdict: feedback waits for the end)."""

    mock_id: int
    position: int  # 0-based
    size: int
    post_id: int
    question: Question
    time_left: dt.timedelta | None  # None: no time limit
    how: Literal["start", "resume", "next"]
    recorded: str = ""


@dataclass(frozen=True)
class SectionScore:
    domain: str
    correct: int
    total: int


@dataclass(frozen=True)
class Missed:
    """A question got wrong (or left unanswered when time ran out), and what to read next."""

    question: Question
    choice: str | None
    entries: tuple[Entry, ...]


@dataclass(frozen=True)
class MockDone:
    """A finished mock: the score, per exam section, time used, and every miss explained."""

    mock_id: int
    size: int
    correct: int
    sections: tuple[SectionScore, ...]
    used: dt.timedelta
    missed: tuple[Missed, ...]
    ran_out: bool = False  # the time limit ended it

    @property
    def share(self) -> float:
        return self.correct / self.size if self.size else 0.0


def time_left(deadline: str | None, now: dt.datetime) -> dt.timedelta | None:
    """Time left before a mock's deadline (a store stamp), never negative; None when untimed."""
    if deadline is None:
        return None
    return max(dt.datetime.fromisoformat(deadline) - now, dt.timedelta(0))


@dataclass(frozen=True)
class MockOffer:
    """`mock` while one is open: resume it or discard it."""

    mock_id: int
    answered: int
    size: int
    time_left: dt.timedelta | None


@dataclass(frozen=True)
class MockDiscarded:
    answered: int
    size: int


@dataclass(frozen=True)
class NoMock:
    """`mock resume` or `mock discard` with no mock open."""


MockRefusal = Literal["stale", "over", "invalid", "not_yours", "unknown", "too_few"]


@dataclass(frozen=True)
class MockRefused:
    """An answer or request that changes nothing, and why (a stale button, a bad letter …)."""

    reason: MockRefusal
    question: Question | None = None  # for `invalid`: its letters
    choice: str = ""
    size: int = 0  # for `too_few`: what the bank allows


MockResult = MockShown | MockDone | MockOffer | MockDiscarded | NoMock | MockRefused
MOCK_RESULTS = (MockShown, MockDone, MockOffer, MockDiscarded, NoMock, MockRefused)


def section_scores(graded: Iterable[tuple[Question, bool]]) -> tuple[SectionScore, ...]:
    """Right answers per exam section (domain), in the guide's order."""
    totals: Counter[str] = Counter()
    right: Counter[str] = Counter()
    for question, correct in graded:
        domain = domain_of(question.section)
        totals[domain] += 1
        right[domain] += int(correct)
    order = [d for d in DOMAINS if d in totals] + sorted(d for d in totals if d not in DOMAINS)
    return tuple(SectionScore(d, right[d], totals[d]) for d in order)
