"""The tutor's SQLite store, by domain.

`db` opens the file and holds every migration; `answers`, `events` and `gaps` each add their
reads and writes to `Store`; `daily` is the daily quick-check's ledger, schedules and standings,
on the same connection.
"""

from __future__ import annotations

from bot.store.answers import Answers, Post, Standing, TopicScore
from bot.store.daily import LEASE, Claim, DailyStore, TeamRow
from bot.store.db import Database, migrations, stamp
from bot.store.events import Events
from bot.store.gaps import Gaps


class Store(Answers, Events, Gaps, Database):
    """All reads and writes of the tutor's SQLite file.

    The daily quick-check's (schedules, ledger, reveals, standings) are DailyStore's.
    """


__all__ = [
    "LEASE",
    "Claim",
    "DailyStore",
    "Post",
    "Standing",
    "Store",
    "TeamRow",
    "TopicScore",
    "migrations",
    "stamp",
]
