"""Processed Slack event ids, so a retried or doubled delivery is handled once."""

from __future__ import annotations

import datetime as dt

import sqlite_utils

from bot.store.db import stamp


class Events:
    """The event ids already handled, claimed by the database's primary key."""

    db: sqlite_utils.Database  # this thread's connection, from `Database`

    def first_delivery(self, event_id: str, now: dt.datetime) -> bool:
        """Claim an event id; False when it was processed before (a retry or a double)."""
        sql = "insert or ignore into events (event_id, seen_at) values (?, ?)"
        return self.db.execute(sql, [event_id, stamp(now)]).rowcount == 1

    def forget_events(self, before: dt.datetime) -> int:
        return self.db.execute("delete from events where seen_at < ?", [stamp(before)]).rowcount
