"""The tutor's SQLite store, by domain.

`db` opens the file and holds every migration; `answers`, `events`, `gaps` and `flags` each add
their reads and writes to `Store`; `daily` is the daily quick-check's ledger and schedules, on
the same connection. Boards are read by `bot.standings`.
"""

from __future__ import annotations

from bot.store import tallies
from bot.store.answers import Answers, Post, Standing, TopicScore
from bot.store.cards import Answer, Cards
from bot.store.daily import LEASE, LOCAL_TEAM, Claim, DailyStore
from bot.store.db import Database, migrations, stamp
from bot.store.events import Events
from bot.store.flags import FlaggedItem, Flags
from bot.store.gaps import Gaps


class Store(Answers, Cards, Events, Gaps, Flags, Database):
    """All reads and writes of the tutor's SQLite file.

    The daily quick-check's (schedules, ledger, reveals) are DailyStore's.
    """


__all__ = [
    "LEASE",
    "LOCAL_TEAM",
    "Answer",
    "Claim",
    "DailyStore",
    "FlaggedItem",
    "Post",
    "Standing",
    "Store",
    "TopicScore",
    "migrations",
    "stamp",
    "tallies",
]
