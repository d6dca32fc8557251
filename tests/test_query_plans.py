"""Query plans as tests: no board, stats or App Home read scans the whole of a table.

Each surface is read once on a workspace with a long history and ANALYZE statistics, the SQL it
runs is captured as executed (values bound), and `EXPLAIN QUERY PLAN` of each statement may not
SCAN `answers`, `posts` or a tally table: every read must be a SEARCH through an index bounded by
place, learner or time. (An index added later can flip a plan once statistics exist, which is
why the plans are checked on an ANALYZEd file and not on an empty one.)
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import pytest

from bot.catalog import Catalog
from bot.knowledge import KnowledgeBase
from bot.quiz import QuestionBank
from bot.standings import PERIODS, Standings
from bot.store import Store
from bot.tutor import Tutor
from tests import workspace
from tests.workspace import END, TEAM

TABLES = {"answers", "a", "posts", "p", "board_tallies", "channel_tallies", "learner_tallies"}
TABLES |= {"b", "m", "daily_members"}
CHANNEL = workspace.channel_id(1)  # on Berlin's clock
USER = workspace.learner_id(1)


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> Store:
    path = tmp_path_factory.mktemp("plans") / "tutor.db"
    return workspace.build(path, answers=60_000, learners=600, channels=24, days=120)


def reads() -> dict[str, Callable[[Store], object]]:
    """Every board, stats and App Home read, by name."""
    found: dict[str, Callable[[Store], object]] = {}
    for period in PERIODS:
        for place in (None, CHANNEL):
            name = f"board {period} {'channel' if place else 'workspace'}"
            found[name] = lambda s, p=period, c=place: Standings(s).board(
                team=TEAM, channel=c, period=p, now=END
            )
        found[f"teams {period}"] = lambda s, p=period: Standings(s).teams(
            team=TEAM, period=p, now=END
        )
    week_ago = END - dt.timedelta(days=7)
    found["recap top three"] = lambda s: Standings(s).board(
        team=TEAM, channel=CHANNEL, now=END, since=week_ago, until=END, limit=3
    )
    found["recap teams"] = lambda s: Standings(s).teams(
        team=TEAM, now=END, since=week_ago, until=END
    )
    found["stats"] = lambda s: tutor(s).stats(team=TEAM, user=USER, now=END)
    found["weak sections"] = lambda s: (
        s.weak_sections(team=TEAM),
        s.weak_sections(team=TEAM, channel=CHANNEL),
    )
    found["private quiz history"] = lambda s: (
        s.asked_question_ids(team=TEAM, user=USER),
        s.last_open_post(team=TEAM, user=USER),
    )
    return found


def tutor(store: Store) -> Tutor:
    return Tutor(Catalog(KnowledgeBase(()), QuestionBank(())), store)


def statements(store: Store, read: Callable[[Store], object]) -> list[str]:
    ran: list[str] = []
    store.db.conn.set_trace_callback(ran.append)
    try:
        read(store)
    finally:
        store.db.conn.set_trace_callback(None)
    return [sql for sql in ran if sql.lstrip().lower().startswith(("select", "with"))]


def scans(store: Store, sql: str) -> list[str]:
    plan = store.db.execute(f"explain query plan {sql}").fetchall()
    details = [row[-1] for row in plan]
    return [d for d in details if d.startswith("SCAN") and d.split()[1] in TABLES]


@pytest.mark.parametrize("name", list(reads()))
def test_no_read_scans_a_whole_table(store, name):
    """Each statement the read runs searches an index; none scans answers, posts or tallies."""
    ran = statements(store, reads()[name])
    assert ran, "the read ran no SQL: the capture is broken"
    for sql in ran:
        assert not scans(store, sql), (name, sql, scans(store, sql))
