"""Knowledge gaps: questions the tutor answered poorly or not at all, for content authors."""

from __future__ import annotations

import datetime as dt
import hashlib

import sqlite_utils

from bot.store.db import stamp


def person_hash(who: str) -> str:
    """Who asked or reported, kept only as a salted hash (empty for nobody)."""
    return hashlib.sha256(f"study-tutor:{who}".encode()).hexdigest()[:16] if who else ""


class Gaps:
    """Questions asked without a good answer; the asker is kept only as a salted hash."""

    db: sqlite_utils.Database  # this thread's connection, from `Database`

    def record_gap(
        self, *, question: str, asker: str, best_guess: str, confidence: int, now: dt.datetime
    ) -> None:
        asker_hash = person_hash(asker)
        self.db.table("gaps").insert(
            {
                "question": question[:500],
                "asked_at": stamp(now),
                "asker": asker_hash,
                "best_guess": best_guess,
                "confidence": confidence,
            }
        )

    def gaps(self, limit: int = 50) -> list[dict]:
        """Questions answered poorly or not at all, most often asked first."""
        sql = """
            select lower(trim(question)) as question, count(*) as times,
                   count(distinct asker) as askers, max(best_guess) as best_guess,
                   max(confidence) as confidence, max(asked_at) as last_asked
            from gaps group by lower(trim(question))
            order by times desc, last_asked desc limit ?
        """
        return [dict(row) for row in self.db.query(sql, [limit])]
