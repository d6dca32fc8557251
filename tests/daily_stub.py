"""Test helpers for the daily quick-check: a content folder with three sections, a recording
Poster, and a tutor + Daily over a SQLite file in tmp_path."""

from __future__ import annotations

import datetime as dt
import random
import threading
from pathlib import Path

from bot.catalog import load_catalog
from bot.daily import Daily, Recap, Reveal
from bot.quiz import Question
from bot.schedule import make_schedule
from bot.store import Post, Store
from bot.tutor import Tutor
from tests.conftest import write_content

TEAM = "T0TUTOR01"


def _question(qid: str, section: str, answer: str = "B") -> str:
    return f"""\
  - id: {qid}
    section: "{section}"
    topic: Topic {section}
    difficulty: easy
    question: Which option is right for {qid}?
    choices:
      A: Option alpha
      B: Option bravo
      C: Option charlie
      D: Option delta
    answer: {answer}
    explanations:
      A: Alpha is wrong for {qid}.
      B: Bravo is right for {qid}.
      C: Charlie is wrong for {qid}.
      D: Delta is wrong for {qid}.
    entries: [automl]
    source: https://cloud.google.com/vertex-ai/docs/beginner/beginners-guide
"""


SECTIONS = {"3.1": ("q-a1", "q-a2"), "3.2": ("q-b1", "q-b2"), "3.3": ("q-c1", "q-c2")}
DAILY_QUIZ = "questions:\n" + "".join(
    _question(qid, section) for section, ids in SECTIONS.items() for qid in ids
)


def make_daily(tmp_path: Path, *, seed: int = 7) -> Daily:
    """A Daily over a three-section catalog and a fresh SQLite file in tmp_path."""
    root = tmp_path / "content"
    if not (root / "quizzes").exists():
        write_content(root, quiz=DAILY_QUIZ)
    tutor = Tutor(load_catalog(root), Store(tmp_path / "tutor.db"), rng=random.Random(seed))
    return Daily(tutor)


def berlin(daily: Daily, channel: str = "C123", **kwargs) -> None:
    """Schedule `channel` for 09:00 Europe/Berlin (weekdays unless `days` is given)."""
    schedule = make_schedule(team=TEAM, channel=channel, at="09:00", tz="Europe/Berlin", **kwargs)
    daily.set_schedule(schedule, by="U0ADMIN", now=utc(2026, 11, 1))


def utc(*parts: int) -> dt.datetime:
    return dt.datetime(*parts, tzinfo=dt.UTC)


class RecordingPoster:
    """A Poster that records what it was asked to do; `fail` makes the next posts raise.

    `crash_after` is raised once right after a post was taken, as when Slack accepted the message
    and the process died before it could store the ts.
    """

    def __init__(
        self, fail: Exception | None = None, *, crash_after: BaseException | None = None
    ) -> None:
        self.posted: list[tuple[Post, Question, Recap | None]] = []
        self.reveals: list[Reveal] = []
        self.fail, self.crash_after = fail, crash_after
        self._lock = threading.Lock()

    def post_question(self, post: Post, question: Question, recap: Recap | None) -> str:
        if self.fail is not None:
            raise self.fail
        with self._lock:
            self.posted.append((post, question, recap))
            ts = f"1764576000.{len(self.posted):06d}"
        crash, self.crash_after = self.crash_after, None
        if crash is not None:
            raise crash
        return ts

    def find_posted(self, post: Post) -> str | None:
        """Like Slack's history: the ts of a message already posted for this post id."""
        with self._lock:
            found = [n for n, (p, _, _) in enumerate(self.posted, 1) if p.id == post.id]
        return f"1764576000.{found[0]:06d}" if found else None

    def reveal(self, reveal: Reveal) -> None:
        if self.fail is not None:
            raise self.fail
        with self._lock:
            self.reveals.append(reveal)
