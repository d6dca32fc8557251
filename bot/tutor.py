"""The tutor's use cases: ask, quiz, answer, stats. The conversation calls these.

Everything here takes plain values (who, where, when) and returns frozen dataclasses; nothing
prints, posts or reads the clock. `now` is always passed in.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from bot.catalog import Catalog
from bot.knowledge import Entry
from bot.matching import Knobs, Lookup, Matcher
from bot.mock import MockOffer, time_left
from bot.plan import Plan, make_plan
from bot.practice import Practice, solve
from bot.quiz import Question, choose_question, normalize_choice
from bot.readiness import Readiness, Week, estimate, weekly
from bot.standings import Standings
from bot.store import Post, Store, TopicScore, stamp
from bot.store.flags import FlagKind
from bot.store.mocks import MockStore


@dataclass(frozen=True)
class Asked:
    """A question put to a learner: the stored post and the question itself."""

    post: Post
    question: Question
    review: bool = False  # a question answered before, due again by its FSRS card


GradeStatus = Literal["recorded", "already", "closed", "invalid", "refused"]


@dataclass(frozen=True)
class Graded:
    """The outcome of a click or a typed answer."""

    question: Question
    choice: str  # the letter the learner chose (for `already`, the one recorded first)
    correct: bool
    status: GradeStatus  # refused: not this learner's to answer, or not from here
    entries: tuple[Entry, ...] = ()  # what to read next, when the answer was wrong
    daily: bool = False  # a team's daily question: the correct letter waits for the reveal


@dataclass(frozen=True)
class Stats:
    answered: int
    correct: int
    streak: int
    weakest: tuple[TopicScore, ...]
    reviews_due: int = 0  # questions due again by their FSRS cards
    readiness: Readiness | None = None  # per exam section (`bot.readiness`)
    plan: Plan | None = None  # countdown and today's work, when an exam date is set
    weeks: tuple[Week, ...] = ()  # answers and accuracy per week, oldest first
    mock: MockOffer | None = None  # the learner's mock exam in progress, while its time lasts

    @property
    def accuracy(self) -> float:
        return self.correct / self.answered if self.answered else 0.0


@dataclass(frozen=True)
class Reported:
    """A learner's report or rating, kept for the curators (`tutor flags`)."""

    kind: FlagKind  # question | entry (an answer)
    item: str
    name: str  # how people know it: the entry's name, the question's opening words
    reason: str  # wrong | outdated | unclear | other, or up | down for a rating
    comment: str = ""
    withdrawn: bool = False  # the question is now out of the daily rotation


class Tutor:
    """The whole tutor over one catalog and one store."""

    def __init__(
        self,
        catalog: Catalog,
        store: Store,
        *,
        knobs: Knobs | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.catalog = catalog
        self.store = store
        self.knobs = knobs
        self.rng = rng or random.Random()

    @cached_property
    def matcher(self) -> Matcher:
        """Built on the first question: commands that never ask (boards, stats) skip it."""
        return Matcher(self.catalog.knowledge, self.knobs, cached=True)

    # -- asking ---------------------------------------------------------------------------

    def ask(self, text: str, *, asker: str = "", now: dt.datetime) -> Lookup:
        """Answer a free-text question; weak answers are kept for curators (`tutor gaps`)."""
        lookup = self.matcher.lookup(text)
        if self.unsure(lookup):
            guess = lookup.ranked[0] if lookup.ranked else None
            if text.strip():
                self.store.record_gap(
                    question=text,
                    asker=asker,
                    best_guess=guess.entry.id if guess else "",
                    confidence=lookup.confidence,
                    now=now,
                )
        return lookup

    def practice(self, text: str) -> Practice | None:
        """Read a pasted exam-style question: which choice fits, or the two closest."""
        return solve(self.matcher, text)

    def unsure(self, lookup: Lookup) -> bool:
        """No answer, or one close to the threshold: worth offering "did you mean"."""
        return lookup.best is None or lookup.confidence < self.matcher.knobs.threshold + 10

    def entry(self, entry_id: str) -> Entry | None:
        return self.catalog.knowledge.get(entry_id)

    # -- quizzing -------------------------------------------------------------------------

    def quiz(
        self,
        *,
        team: str,
        user: str,
        channel: str = "",
        now: dt.datetime,
        entry_id: str | None = None,
    ) -> Asked:
        """The learner's next private question: one due for review, else a fresh one.

        Fresh questions lean toward weak sections; with an exam date they come from the section
        today's plan puts first (`bot.plan`); `entry_id` asks about one entry instead.
        """
        bank = self.catalog.questions
        due = [] if entry_id else self._reviews_due(team=team, user=user, now=now)
        only = [q.id for q in bank.about(entry_id)] if entry_id else None
        question = bank.get(due[0]) if due else None
        focus = () if question or entry_id else self._focus(team=team, user=user, now=now)
        question = question or choose_question(
            bank,
            asked=self.store.asked_question_ids(team=team, user=user),
            weak_sections=self.store.weak_sections(team=team),
            only=only,
            sections=focus,
            rng=self.rng,
        )
        post_id = self.store.add_post(
            team=team,
            channel=channel,
            user=user,
            question_id=question.id,
            section=question.section,
            topic=question.topic,
            kind="private",
            now=now,
        )
        post = self.store.post(post_id)
        if post is None:  # written just above on this thread's connection: cannot happen
            raise RuntimeError(f"post {post_id} vanished right after it was written")
        return Asked(post, question, review=bool(due))

    def _focus(self, *, team: str, user: str, now: dt.datetime) -> tuple[str, ...]:
        """The section today's plan gives new questions to first; none without an exam date."""
        if self.store.exam_date(team=team, user=user) is None:
            return ()
        answers = self.store.learner_answers(team=team, user=user)
        readiness = estimate(answers, self.catalog.questions, now)
        plan = self.plan(team=team, user=user, now=now, readiness=readiness, reviews_due=0)
        return (plan.focus[0][0].section,) if plan and plan.focus else ()

    def _reviews_due(self, *, team: str, user: str, now: dt.datetime) -> list[str]:
        """Questions whose FSRS card is due (`bot.reviews`), most overdue first."""
        due = self.store.due_questions(team=team, user=user, now=now)
        return [q for q in due if self.catalog.questions.get(q)]

    def pending(self, *, team: str, user: str) -> Asked | None:
        """The learner's open private question, if any (the local chat answers it with a letter)."""
        post = self.store.last_open_post(team=team, user=user)
        question = self.catalog.questions.get(post.question_id) if post else None
        return Asked(post, question) if post and question else None

    def answer(
        self,
        *,
        post_id: int,
        user: str,
        choice: str,
        now: dt.datetime,
        team: str,
        channel: str | None = None,
    ) -> Graded | None:
        """Grade and record an answer. The first answer counts; None for an unknown post.

        An answer counts only where its question was put: a private question by the learner it
        was asked of, a daily question in its own workspace and channel (`channel` is where the
        click or line came from). Anything else is `refused`, records nothing and reveals nothing.
        """
        post = self.store.post(post_id)
        question = self.catalog.questions.get(post.question_id) if post else None
        if post is None or question is None:
            return None
        if not belongs(post, team=team, user=user, channel=channel):
            return Graded(question, "", False, "refused")
        letter = normalize_choice(choice, question.letters)
        if letter is None:
            return Graded(question, choice, False, "invalid")
        if post.closes_at and stamp(now) >= post.closes_at:
            return Graded(question, letter, False, "closed")
        correct = letter == question.answer
        recorded = self.store.record_answer(
            post,
            user=user,
            choice=letter,
            correct=correct,
            section=question.section,
            topic=question.topic,
            now=now,
        )
        if not recorded:
            first = self.store.answer_of(post.id, user) or letter
            daily = post.kind == "daily"
            return Graded(question, first, first == question.answer, "already", daily=daily)
        to_read = () if correct else self._entries(question)
        return Graded(question, letter, correct, "recorded", to_read, daily=post.kind == "daily")

    def _entries(self, question: Question) -> tuple[Entry, ...]:
        found = (self.catalog.knowledge.get(e) for e in question.entries)
        return tuple(e for e in found if e is not None)

    # -- reports for the curators ---------------------------------------------------------

    def report(
        self,
        *,
        team: str,
        user: str,
        kind: FlagKind,
        item: str,
        reason: str,
        now: dt.datetime,
        comment: str = "",
    ) -> Reported | None:
        """Keep a report ("the answer key is wrong") or a rating (up/down); None: unknown item."""
        name = self.subject_name(kind, item)
        if name is None:
            return None
        self.store.add_flag(
            team=team, kind=kind, item=item, reason=reason, reporter=user, comment=comment, now=now
        )
        out = kind == "question" and item in self.store.withdrawn_questions()
        return Reported(kind, item, name, reason, comment.strip(), out)

    def subject_name(self, kind: str, item: str) -> str | None:
        """An entry's name or a question's opening words; None when there is no such item."""
        if kind == "entry":
            entry = self.catalog.knowledge.get(item)
            return entry.name if entry else None
        question = self.catalog.questions.get(item) if kind == "question" else None
        if question is None:
            return None
        words = question.question
        return words if len(words) <= 60 else words[:59].rsplit(" ", 1)[0] + "…"

    # -- progress -------------------------------------------------------------------------

    def stats(self, *, team: str, user: str, now: dt.datetime) -> Stats:
        """A learner's totals, streak of days (see `bot.standings`), weakest topics, reviews due."""
        answered, correct = self.store.totals(team=team, user=user)
        streak = Standings(self.store).learner_streak(team=team, user=user, now=now)
        weakest = [
            t for t in self.store.topic_scores(team=team, user=user) if t.correct < t.answered
        ]
        due = len(self._reviews_due(team=team, user=user, now=now))
        answers = self.store.learner_answers(team=team, user=user)
        readiness = estimate(answers, self.catalog.questions, now)
        plan = self.plan(team=team, user=user, now=now, readiness=readiness, reviews_due=due)
        weeks = weekly(answers, now)
        mock = self.open_mock(team=team, user=user, now=now)
        return Stats(
            answered, correct, streak, tuple(weakest[:3]), due, readiness, plan, weeks, mock
        )

    def open_mock(self, *, team: str, user: str, now: dt.datetime) -> MockOffer | None:
        """The learner's mock exam in progress, as an offer to resume it; None when there is
        none or its time is up (the next `mock` then finishes it and shows the result)."""
        mocks = MockStore(self.store)
        mock = mocks.open_mock(team=team, user=user)
        if mock is None:
            return None
        left = time_left(mock.deadline, now)
        if left is not None and not left:
            return None
        answered = sum(1 for item in mocks.items(mock) if item.choice is not None)
        return MockOffer(mock.id, answered, mock.size, left)

    def plan(
        self, *, team: str, user: str, now: dt.datetime, readiness: Readiness, reviews_due: int
    ) -> Plan | None:
        """Today's work toward the learner's exam date; None when they set none."""
        exam = self.store.exam_date(team=team, user=user)
        if exam is None:
            return None
        today = now.astimezone(dt.UTC).date()
        return make_plan(readiness, exam=exam, today=today, reviews_due=reviews_due)


def belongs(post: Post, *, team: str, user: str, channel: str | None) -> bool:
    """Whether `user`, in `team` and `channel`, may answer `post`."""
    if post.team != team:
        return False
    if post.kind == "daily":
        return channel == post.channel
    return post.user == user
