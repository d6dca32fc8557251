"""The daily quick-check: scheduled posts, answer windows, reveals and Monday's recap.

Boards and streaks are `bot.standings`'.

Pure use cases over the store. Talking to Slack (or to a terminal) goes through a `Poster`; time
is always the `now` argument. A pass posts at most one question per channel and local date, no
matter how many passes or processes run at once: the ledger row is claimed before posting.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Literal, Protocol, TypeVar

from bot.errors import NotInChannel, PostFailed
from bot.quiz import Question, choose_question
from bot.schedule import Due, Schedule, closes_at, due_today
from bot.standings import Standings, TeamStanding
from bot.store import LOCAL_TEAM, DailyStore, Post, Standing
from bot.tutor import Tutor

OutcomeStatus = Literal["posted", "adopted", "taken", "in_flight", "not_in_channel", "failed"]
T = TypeVar("T")
R = TypeVar("R")
LOCAL_CHANNEL = "chat-daily"  # the local chat's pseudo-channel: a new question each UTC day
LOCAL_SCHEDULE = Schedule(LOCAL_TEAM, LOCAL_CHANNEL, "00:00", "UTC", "*", catch_up=None)


@dataclass(frozen=True)
class Reveal:
    """A closed question's figures: how many chose each option, taken from the answers table."""

    post: Post
    question: Question
    counts: dict[str, int]  # every letter of the question, zero included

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def share(self, letter: str) -> float:
        return self.counts.get(letter, 0) / self.total if self.total else 0.0

    @property
    def popular_wrong(self) -> str | None:
        """The wrong option chosen most often (the first letter on a tie); None if nobody erred."""
        wrong = [x for x in self.question.letters if x != self.question.answer and self.counts[x]]
        return max(wrong, key=lambda x: self.counts[x]) if wrong else None


@dataclass(frozen=True)
class Recap:
    """Monday's look back: last week's top three in the channel and the team ranking."""

    top: tuple[Standing, ...]
    teams: tuple[TeamStanding, ...]


@dataclass(frozen=True)
class Outcome:
    """What a pass did for one due schedule."""

    channel: str
    local_date: dt.date
    status: OutcomeStatus
    post_id: int | None = None
    question_id: str = ""
    detail: str = ""


@dataclass(frozen=True)
class PassReport:
    outcomes: tuple[Outcome, ...] = ()
    revealed: tuple[Reveal, ...] = ()
    problems: tuple[str, ...] = field(default=())


class Poster(Protocol):
    """Where daily questions go: Slack in production, a list or a terminal in tests and chat."""

    def post_question(self, post: Post, question: Question, recap: Recap | None) -> str:
        """Post the question, marked with the post's id; return the message ts.

        Raise NotInChannel or PostFailed (`unsure=True` when Slack may have posted anyway).
        """
        ...

    def find_posted(self, post: Post) -> str | None:
        """The ts of a message already posted for `post` (by a run that died), or None."""
        ...

    def reveal(self, reveal: Reveal) -> None:
        """Reply in the post's thread with the answer and figures, and mark the post closed."""
        ...


class Daily:
    """The daily quick-check over one tutor (catalog, store, randomness)."""

    def __init__(self, tutor: Tutor, *, workers: int = 1) -> None:
        """`workers`: channels served at once in a pass (Slack calls wait on the network)."""
        self.tutor = tutor
        self.store = DailyStore(tutor.store)
        self.workers = workers

    # -- schedules ------------------------------------------------------------------------

    def set_schedule(self, schedule: Schedule, *, by: str, now: dt.datetime) -> Schedule:
        self.store.set_schedule(schedule, by=by, now=now)
        return schedule

    def schedule(self, *, team: str, channel: str) -> Schedule | None:
        return self.store.schedule(team=team, channel=channel)

    def remove_schedule(self, *, team: str, channel: str) -> bool:
        return self.store.remove_schedule(team=team, channel=channel)

    def schedules(self, *, team: str | None = None) -> list[Schedule]:
        return self.store.schedules(team=team)

    # -- a pass ---------------------------------------------------------------------------

    def run_pass(
        self,
        poster: Poster,
        *,
        now: dt.datetime,
        team: str | None = None,
        channel: str | None = None,
        workers: int | None = None,
    ) -> PassReport:
        """Reveal what has closed, post what is due, then reveal what those posts closed.

        Channels are served `workers` (default: the Daily's) at a time; their questions are
        still chosen one after another, in schedule order, so a seeded pass chooses the same
        whatever the workers. A channel whose question for the day is posted costs one read.
        """
        at_once = workers or self.workers
        revealed, problems = self.reveal_closed(
            poster, now=now, team=team, channel=channel, workers=at_once
        )
        work: list[tuple[Due, Question | None]] = []
        for schedule in self.store.schedules(team=team):
            if schedule.team == LOCAL_TEAM:  # added without a token: waits for `adopt`
                continue
            due = due_today(schedule, now) if channel in (None, schedule.channel) else None
            if due is not None:
                work.append((due, None if self._posted(due) else self._question_for(due)))
        outcomes = self._each(
            lambda job: self.post_due(poster, job[0], now=now, question=job[1]), work, at_once
        )
        more, more_problems = self.reveal_closed(
            poster, now=now, team=team, channel=channel, workers=at_once
        )
        return PassReport(tuple(outcomes), revealed + more, problems + more_problems)

    def _posted(self, due: Due) -> bool:
        team, channel = due.schedule.team, due.schedule.channel
        held = self.store.claim_of(team=team, channel=channel, local_date=due.local_date)
        return held is not None and held.ts is not None

    def _question_for(self, due: Due) -> Question:
        return self.next_question(team=due.schedule.team, channel=due.schedule.channel)

    def _each(self, work: Callable[[T], R], items: Sequence[T], workers: int) -> list[R]:
        """`work` on every item, `workers` at a time, results in the items' order.

        An exception from any item is raised here once every item has been tried.
        """
        if workers <= 1 or len(items) <= 1:
            return [work(item) for item in items]
        with ThreadPoolExecutor(min(workers, len(items)), "daily-pass") as pool:
            futures = [pool.submit(work, item) for item in items]
        return [future.result() for future in futures]

    def post_due(
        self, poster: Poster, due: Due, *, now: dt.datetime, question: Question | None = None
    ) -> Outcome:
        """Claim the channel's local date and post, exactly once whatever crashes in between.

        Slack has no idempotency key, so a claim left by a run that died is reconciled with
        Slack itself: the poster looks for a message marked with the post's id and adopts it
        instead of posting a second copy. A failed post gives the claim back only when Slack
        surely did not post; otherwise the claim is kept, to be reconciled by the next pass.
        """
        schedule = due.schedule
        team, channel, day = schedule.team, schedule.channel, due.local_date
        question = question or self.next_question(team=team, channel=channel)
        claim = self.store.claim(
            team=team,
            channel=channel,
            local_date=day,
            question_id=question.id,
            section=question.section,
            topic=question.topic,
            now=now,
            closes_at=closes_at(schedule, day, now),
        )
        if claim is None:
            held = self.store.claim_of(team=team, channel=channel, local_date=day)
            if held is not None and held.ts is None:
                return Outcome(channel, day, "in_flight", held.id, held.question_id, held.posted_at)
            return Outcome(channel, day, "taken", held.id if held else None)
        post = self.tutor.store.post(claim.post_id)
        assert post is not None  # claimed in this very statement's transaction
        # a stale claim taken over keeps the question it was claimed with
        question = self.tutor.catalog.questions.get(post.question_id) or question
        try:
            ts = poster.find_posted(post) if claim.stale else None
            status: OutcomeStatus = "adopted" if ts else "posted"
            if ts is None:
                if claim.stale:
                    self.store.reopen(post.id, closes_at=closes_at(schedule, day, now))
                    post = self.tutor.store.post(post.id) or post
                recap = self.recap(schedule, day) if schedule.recap else None
                ts = poster.post_question(post, question, recap)
        except NotInChannel as error:
            self.store.release(post.id)
            return Outcome(channel, day, "not_in_channel", None, question.id, str(error))
        except PostFailed as error:
            if error.unsure or claim.stale:
                self.store.expire(post.id, now=now)
            else:
                self.store.release(post.id)
            return Outcome(channel, day, "failed", None, question.id, str(error))
        except BaseException:
            self.store.expire(post.id, now=now)  # it may have reached Slack: look first next time
            raise
        self.store.mark_posted(post.id, ts=ts, now=now)
        self.store.close_earlier(team=team, channel=channel, local_date=day, now=now)
        return Outcome(channel, day, status, post.id, question.id)

    def next_question(self, *, team: str, channel: str) -> Question:
        """No repeats until the pool is used up; the exam's weights; the team's weakest first.

        A channel whose schedule names sections gets questions from those sections only. A
        question that several people reported as wrong is left out until a curator clears it.
        """
        schedule = self.store.schedule(team=team, channel=channel)
        bank = self.tutor.catalog.questions
        withdrawn = self.tutor.store.withdrawn_questions()
        return choose_question(
            bank,
            asked=self.store.daily_question_ids(team=team, channel=channel),
            weak_sections=self.tutor.store.weak_sections(team=team, channel=channel),
            only=[q.id for q in bank.questions if q.id not in withdrawn] if withdrawn else None,
            sections=schedule.sections if schedule else (),
            rng=self.tutor.rng,
        )

    def local_today(self, poster: Poster, *, now: dt.datetime) -> Post | None:
        """The local chat's question of the day (posting it on first ask), after any reveal."""
        self.reveal_closed(poster, now=now, team=LOCAL_TEAM, channel=LOCAL_CHANNEL)
        due = due_today(LOCAL_SCHEDULE, now)
        if due is None:
            return None
        self.post_due(poster, due, now=now)
        return self.store.post_for(
            team=LOCAL_TEAM, channel=LOCAL_CHANNEL, local_date=due.local_date
        )

    # -- reveals --------------------------------------------------------------------------

    def reveal_closed(
        self,
        poster: Poster,
        *,
        now: dt.datetime,
        team: str | None = None,
        channel: str | None = None,
        workers: int = 1,
    ) -> tuple[tuple[Reveal, ...], tuple[str, ...]]:
        """Reveal every closed, unrevealed post once; a failed reveal is retried next pass."""
        posts = self.store.to_reveal(now, team=team, channel=channel)
        results = self._each(lambda post: self._reveal_one(poster, post, now), posts, workers)
        done = tuple(r for r in results if isinstance(r, Reveal))
        return done, tuple(r for r in results if isinstance(r, str))

    def _reveal_one(self, poster: Poster, post: Post, now: dt.datetime) -> Reveal | str | None:
        """The reveal made, a problem to report, or None (revealed elsewhere, or no question)."""
        if not self.store.claim_reveal(post.id, now):
            return None
        reveal = self.reveal_of(post)
        if reveal is None:
            return None
        try:
            poster.reveal(reveal)
        except NotInChannel as error:  # keep the claim: retrying cannot help
            return f"{post.channel}: {error}"
        except PostFailed as error:
            self.store.release_reveal(post.id)
            return f"{post.channel}: {error}"
        except BaseException:
            self.store.release_reveal(post.id)
            raise
        return reveal

    def reveal_of(self, post: Post) -> Reveal | None:
        question = self.tutor.catalog.questions.get(post.question_id)
        if question is None:
            return None
        counts = self.store.choice_counts(post.id)
        return Reveal(post, question, {x: counts.get(x, 0) for x in question.letters})

    # -- Monday's recap ---------------------------------------------------------------------

    def recap(self, schedule: Schedule, local_date: dt.date) -> Recap | None:
        """On a Monday, last week's (Monday to Sunday, local) top three and team ranking."""
        if local_date.weekday() != 0:
            return None
        zone = schedule.zone
        until = dt.datetime.combine(local_date, dt.time(0), tzinfo=zone)
        since = dt.datetime.combine(local_date - dt.timedelta(days=7), dt.time(0), tzinfo=zone)
        standings = Standings(self.tutor.store)
        team, channel = schedule.team, schedule.channel
        top = standings.board(
            team=team, channel=channel, now=until, since=since, until=until, limit=3
        ).standings
        teams = standings.teams(team=team, now=until, since=since, until=until).teams
        return Recap(tuple(top), teams)
