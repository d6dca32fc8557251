"""Questions the tutor cannot answer well are kept for curators, most frequent first."""

from __future__ import annotations

import datetime as dt
import hashlib

from bot.store import Store


def test_low_confidence_question_is_recorded(tutor, now):
    """Tutor.ask stores a question it cannot answer, with the asker hashed."""
    tutor.ask("how do I potty train my puppy?", asker="U123", now=now)
    gaps = tutor.store.gaps()
    assert [g["question"] for g in gaps] == ["how do i potty train my puppy?"]
    assert gaps[0]["askers"] == 1
    stored = [row["asker"] for row in tutor.store.db["gaps"].rows]
    assert stored and "U123" not in stored[0]
    assert stored[0] == hashlib.sha256(b"study-tutor:U123").hexdigest()[:16]


def test_confident_answer_is_not_a_gap(tutor, now):
    """A question answered with confidence leaves no gap behind."""
    lookup = tutor.ask("GPU out of memory during training", asker="U1", now=now)
    assert lookup.best is not None and lookup.best.entry.id == "oom-batch-size"
    assert tutor.store.gaps() == []


def test_gaps_most_frequent_first(tutor, now):
    """Store.gaps() groups the same question and lists the most asked first."""
    for minute, (question, asker) in enumerate(
        [
            ("where is the wifi password?", "U1"),
            ("Can someone review my PR?", "U1"),
            ("can someone review my PR? ", "U2"),
            ("can someone review my pr?", "U3"),
        ]
    ):
        tutor.ask(question, asker=asker, now=now + dt.timedelta(minutes=minute))
    gaps = tutor.store.gaps()
    assert [(g["question"], g["times"], g["askers"]) for g in gaps] == [
        ("can someone review my pr?", 3, 3),
        ("where is the wifi password?", 1, 1),
    ]


def test_empty_text_is_not_recorded(tutor, now):
    """Blank text is not a question worth curating."""
    tutor.ask("   ", asker="U1", now=now)
    assert tutor.store.gaps() == []


def test_gaps_survive_reopening_the_file(tmp_path, tutor, now):
    """Gaps are written to the SQLite file, not kept in memory."""
    tutor.ask("who won the football match last night?", asker="U9", now=now)
    reopened = Store(tutor.store.path)
    assert [g["question"] for g in reopened.gaps()] == ["who won the football match last night?"]
