"""Learners' reports on content ("this is wrong") and their 👍/👎 on answers, for curators.

A report names what is wrong with a quiz question or an answer (a knowledge entry); a rating
says whether an answer helped. Reporters are kept only as salted hashes, as for gaps. A question
reported as having a wrong answer key by `WITHDRAW_AFTER` different people leaves the daily
rotation until a curator clears its flags.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Literal

import sqlite_utils

from bot.store.db import stamp
from bot.store.gaps import person_hash

FlagKind = Literal["question", "entry"]
REASONS = ("wrong", "outdated", "unclear", "other")  # what a report can say
RATINGS = ("up", "down")  # did this answer help?
WITHDRAW_AFTER = 3  # different people saying "wrong answer key" take a question out of the daily
COMMENT_LIMIT = 1000


@dataclass(frozen=True)
class Flag:
    id: int
    reason: str
    comment: str
    flagged_at: str


@dataclass(frozen=True)
class FlaggedItem:
    """One question or entry with its open reports (newest first) and ratings."""

    kind: FlagKind
    item: str
    reports: tuple[Flag, ...]
    ups: int
    downs: int
    wrong_by: int  # different people who said the answer key is wrong
    newest: str

    @property
    def withdrawn(self) -> bool:
        return self.kind == "question" and self.wrong_by >= WITHDRAW_AFTER


class Flags:
    """Reports and ratings; `cleared_at` marks what a curator has dealt with."""

    db: sqlite_utils.Database  # this thread's connection, from `Database`

    def add_flag(
        self,
        *,
        team: str,
        kind: FlagKind,
        item: str,
        reason: str,
        reporter: str,
        now: dt.datetime,
        comment: str = "",
    ) -> int:
        """Keep one report or rating; returns its id. `reason` is one of REASONS or RATINGS."""
        if reason not in REASONS + RATINGS:
            raise ValueError(f"unknown flag reason {reason!r}")
        row = {
            "team": team,
            "kind": kind,
            "item": item,
            "reason": reason,
            "comment": comment.strip()[:COMMENT_LIMIT],
            "reporter": person_hash(reporter),
            "flagged_at": stamp(now),
        }
        sql = (
            "insert into flags (team, kind, item, reason, comment, reporter, flagged_at) "
            "values (:team, :kind, :item, :reason, :comment, :reporter, :flagged_at)"
        )
        return self.db.execute(sql, row).lastrowid or 0

    def flagged(self, *, limit: int | None = None) -> list[FlaggedItem]:
        """Every item with open flags, the most recently flagged first."""
        sql = (
            "select id, kind, item, reason, comment, reporter, flagged_at from flags "
            "where cleared_at is null order by flagged_at desc, id desc"
        )
        grouped: dict[tuple[str, str], list[dict]] = {}
        for row in self.db.query(sql):
            grouped.setdefault((row["kind"], row["item"]), []).append(row)
        items = [_item(kind, item, rows) for (kind, item), rows in grouped.items()]
        return items[:limit] if limit is not None else items

    def withdrawn_questions(self) -> set[str]:
        """Questions out of the daily rotation: enough different people said the key is wrong."""
        sql = (
            "select item from flags where kind = 'question' and reason = 'wrong' "
            "and cleared_at is null group by item having count(distinct reporter) >= ?"
        )
        return {row["item"] for row in self.db.query(sql, [WITHDRAW_AFTER])}

    def clear_flags(self, item: str, *, now: dt.datetime) -> int:
        """A curator dealt with an item: its open flags are cleared (kept, not deleted)."""
        sql = "update flags set cleared_at = ? where item = ? and cleared_at is null"
        return self.db.execute(sql, [stamp(now), item]).rowcount


def _item(kind: str, item: str, rows: list[dict]) -> FlaggedItem:
    reports = tuple(
        Flag(r["id"], r["reason"], r["comment"], r["flagged_at"])
        for r in rows
        if r["reason"] in REASONS
    )
    wrong = {r["reporter"] for r in rows if r["reason"] == "wrong"}
    return FlaggedItem(
        kind="question" if kind == "question" else "entry",
        item=item,
        reports=reports,
        ups=sum(r["reason"] == "up" for r in rows),
        downs=sum(r["reason"] == "down" for r in rows),
        wrong_by=len(wrong),
        newest=rows[0]["flagged_at"],
    )
