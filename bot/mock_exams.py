"""The mock exam's use cases: start, resume, discard, answer, finish. `bot.mock` draws and scores.

Plain values in, result values out; `now` is always passed in, deadlines included. A question's
post is made when it is shown, and its answers close at the mock's deadline, so an answer after
the time limit is refused by the same check every answer passes (`Tutor.answer`).
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from bot.mock import (
    FRESH,
    MAX_SIZE,
    MIN_SIZE,
    PACE,
    Missed,
    MockDiscarded,
    MockDone,
    MockOffer,
    MockRefused,
    MockResult,
    MockShown,
    NoMock,
    draw,
    section_scores,
    time_left,
)
from bot.store import stamp
from bot.store.mocks import ItemRow, MockRow, MockStore
from bot.tutor import Tutor

How = Literal["start", "resume", "next"]


def size_range(bank_size: int) -> tuple[int, int]:
    """The sizes a mock may have with this bank: 5 to 60, fewer when the bank is smaller."""
    return min(MIN_SIZE, bank_size), min(MAX_SIZE, bank_size)


class MockExams:
    """Mock exams over one tutor's catalog and store."""

    def __init__(self, tutor: Tutor) -> None:
        self.tutor = tutor
        self.store = MockStore(tutor.store)

    def start(
        self, *, team: str, user: str, channel: str, size: int, timed: bool, now: dt.datetime
    ) -> MockResult:
        """A new mock, or the offer to resume or discard the one already open."""
        opened = self.store.open_mock(team=team, user=user)
        if opened is not None:
            return self._ran_out(opened, now) or self._offer(team, user, now)
        bank = self.tutor.catalog.questions
        low, high = size_range(len(bank))
        if not low <= size <= high:
            return MockRefused("too_few", size=high)
        seen = self.store.seen_since(team=team, user=user, since=now - FRESH)
        questions = draw(bank, size, seen=seen, rng=self.tutor.rng)
        deadline = now + PACE * size if timed else None
        ids = [q.id for q in questions]
        mock_id = self.store.start(
            team=team, user=user, channel=channel, question_ids=ids, now=now, deadline=deadline
        )
        mock = self.store.mock(mock_id) if mock_id is not None else None
        if mock is None:  # another request opened one in between: offer that one
            return self._offer(team, user, now)
        return self._next(mock, now, "start")

    def resume(self, *, team: str, user: str, now: dt.datetime) -> MockResult:
        mock = self.store.open_mock(team=team, user=user)
        if mock is None:
            return NoMock()
        return self._ran_out(mock, now) or self._next(mock, now, "resume")

    def discard(self, *, team: str, user: str, now: dt.datetime) -> MockResult:
        """Drop the open mock; answers already given stay in the learner's history."""
        mock = self.store.open_mock(team=team, user=user)
        if mock is None or not self.store.close(mock, "discarded", at=now):
            return NoMock()
        answered = sum(1 for item in self.store.items(mock) if item.choice is not None)
        return MockDiscarded(answered, mock.size)

    def current_post(self, *, team: str, user: str) -> int | None:
        """The post of the open mock's question waiting for an answer, if it was shown."""
        mock = self.store.open_mock(team=team, user=user)
        item = _current(self.store.items(mock)) if mock else None
        return item.post_id if item else None

    def answer(
        self,
        *,
        post_id: int,
        user: str,
        team: str,
        choice: str,
        now: dt.datetime,
        shown_in: str | None = None,
    ) -> MockResult:
        """Record an answer to a mock's question, then show the next one (or the result).

        `shown_in`: the message the click came from; a mock moved to a newer message refuses
        clicks on older ones. Only the question waiting for an answer can be answered.
        """
        post = self.tutor.store.post(post_id)
        mock = self.store.mock_of_post(post_id) if post and post.kind == "mock" else None
        if post is None or mock is None:
            return MockRefused("unknown")
        if post.team != team or post.user != user:
            return MockRefused("not_yours")
        if mock.status != "open":
            return MockRefused("over")
        current = _current(self.store.items(mock))
        moved = shown_in is not None and mock.message_ts not in (None, shown_in)
        if current is None or current.post_id != post_id or moved:
            return MockRefused("stale")
        graded = self.tutor.answer(post_id=post_id, user=user, choice=choice, now=now, team=team)
        if graded is None or graded.status in ("already", "refused"):
            return MockRefused("stale")
        if graded.status == "invalid":
            return MockRefused("invalid", graded.question, choice)
        if graded.status == "closed":
            return self._finish(mock, now, ran_out=True)
        return self._next(mock, now, "next", recorded=graded.choice)

    def shown_at(self, mock_id: int, *, channel: str, ts: str) -> None:
        """The message now showing the mock (Slack); older ones no longer take answers."""
        self.store.set_message(mock_id, channel=channel, ts=ts)

    # -- steps ----------------------------------------------------------------------------------

    def _next(self, mock: MockRow, now: dt.datetime, how: How, *, recorded: str = "") -> MockResult:
        items = self.store.items(mock)
        current = _current(items)
        if current is None:
            return self._finish(mock, now)
        question = self.tutor.catalog.questions.get(current.question_id)
        if question is None:  # removed from the content since the draw: it cannot count
            return self._finish(mock, now)
        post_id = self.store.show(
            mock, current.position, section=question.section, topic=question.topic, now=now
        )
        left = time_left(mock.deadline, now)
        return MockShown(
            mock.id, current.position, mock.size, post_id, question, left, how, recorded
        )

    def _offer(self, team: str, user: str, now: dt.datetime) -> MockOffer | NoMock:
        return self.tutor.open_mock(team=team, user=user, now=now) or NoMock()

    def _ran_out(self, mock: MockRow, now: dt.datetime) -> MockDone | None:
        if mock.deadline is None or stamp(now) < mock.deadline:
            return None
        return self._finish(mock, now, ran_out=True)

    def _finish(self, mock: MockRow, now: dt.datetime, *, ran_out: bool = False) -> MockDone:
        end = now
        if mock.deadline is not None:
            end = min(now, dt.datetime.fromisoformat(mock.deadline))
        self.store.close(mock, "finished", at=end)
        return self.report(self.store.mock(mock.id) or mock, ran_out=ran_out)

    def report(self, mock: MockRow, *, ran_out: bool = False) -> MockDone:
        """The result: score over every question drawn (unanswered ones count as missed)."""
        bank, knowledge = self.tutor.catalog.questions, self.tutor.catalog.knowledge
        graded, missed = [], []
        for item in self.store.items(mock):
            question = bank.get(item.question_id)
            if question is None:
                continue
            graded.append((question, bool(item.correct)))
            if not item.correct:
                entries = tuple(e for i in question.entries if (e := knowledge.get(i)))
                missed.append(Missed(question, item.choice, entries))
        started = dt.datetime.fromisoformat(mock.started_at)
        ended = dt.datetime.fromisoformat(mock.finished_at) if mock.finished_at else started
        correct = sum(1 for _, ok in graded if ok)
        return MockDone(
            mock.id,
            len(graded),
            correct,
            section_scores(graded),
            ended - started,
            tuple(missed),
            ran_out,
        )


def _current(items: list[ItemRow]) -> ItemRow | None:
    """The first question without an answer: the one the learner is on."""
    return next((item for item in items if item.choice is None), None)
