"""Reports and ratings: kept with hashed reporters, grouped for curators, and three people saying
"wrong answer key" take a question out of the daily rotation until a curator clears it."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys

import pytest

from bot import replies
from bot.chat import Session, respond
from bot.conversation import NothingToReport, Place, ReportKept, Verb, handle, parse, report_reason
from bot.store.db import stamp
from bot.store.flags import WITHDRAW_AFTER
from tests.conftest import SHIPPED_ROOT
from tests.daily_stub import make_daily


def test_a_report_is_kept_with_a_hashed_reporter(tutor, now):
    """The reporter's id never reaches the file; the comment and reason do."""
    kept = tutor.report(
        team="T1",
        user="U0SECRET01",
        kind="question",
        item="q-no-code",
        reason="unclear",
        comment=" which images? ",
        now=now,
    )
    assert kept is not None and kept.comment == "which images?" and not kept.withdrawn
    (row,) = tutor.store.db.query("select * from flags")
    assert "U0SECRET01" not in json.dumps(row) and len(row["reporter"]) == 16
    assert (row["kind"], row["item"], row["reason"]) == ("question", "q-no-code", "unclear")


def test_an_unknown_item_is_not_kept(tutor, now):
    """A stale button naming a question that no longer exists keeps nothing."""
    assert (
        tutor.report(team="T1", user="U1", kind="question", item="q-gone", reason="wrong", now=now)
        is None
    )
    assert tutor.store.flagged() == []


def test_flags_are_grouped_by_item_newest_first(tutor, now):
    """Items come newest first; each holds its reports (newest first) and its 👍/👎 counts."""
    later = now + dt.timedelta(hours=1)
    tutor.report(team="T", user="U1", kind="entry", item="automl", reason="up", now=now)
    tutor.report(team="T", user="U2", kind="entry", item="automl", reason="down", now=now)
    tutor.report(
        team="T",
        user="U3",
        kind="entry",
        item="automl",
        reason="outdated",
        comment="renamed",
        now=now,
    )
    tutor.report(
        team="T", user="U1", kind="question", item="q-oom", reason="wrong", comment="C?", now=later
    )
    first, second = tutor.store.flagged()
    assert (first.kind, first.item, second.item) == ("question", "q-oom", "automl")
    assert (second.ups, second.downs) == (1, 1)
    assert [(f.reason, f.comment) for f in second.reports] == [("outdated", "renamed")]
    lines = replies.flags_lines(tutor.store.flagged(), lambda kind, item: f"<{item}>")
    assert lines[0].startswith("question q-oom  <q-oom>  (1 report;")
    assert "  #4 wrong answer key: C?" in lines and any("👍 1 👎 1" in line for line in lines)


def test_a_curator_sees_who_doubts_the_key_and_when(tutor, now):
    """`wrong_by` counts different people saying "wrong answer key" (not other reasons or
    ratings); each report keeps its time; `limit` keeps only the newest items."""
    later = now + dt.timedelta(minutes=5)
    for user, reason in [("U1", "wrong"), ("U2", "wrong"), ("U3", "unclear"), ("U4", "up")]:
        tutor.report(team="T", user=user, kind="question", item="q-oom", reason=reason, now=now)
    tutor.report(team="T", user="U5", kind="entry", item="automl", reason="other", now=later)
    automl, oom = tutor.store.flagged()
    assert (oom.item, oom.wrong_by, oom.ups, oom.downs) == ("q-oom", 2, 1, 0)
    assert {f.flagged_at for f in oom.reports} == {stamp(now)} and len(oom.reports) == 3
    assert automl.newest == stamp(later) and automl.wrong_by == 0
    assert [i.item for i in tutor.store.flagged(limit=1)] == ["automl"]


def test_three_different_people_withdraw_a_question_until_cleared(tutor, now):
    """Two people (one twice) are not enough; a third withdraws it; clearing brings it back."""

    def wrong(user: str):
        return tutor.report(
            team="T", user=user, kind="question", item="q-no-code", reason="wrong", now=now
        )

    assert not wrong("U1").withdrawn and not wrong("U1").withdrawn and not wrong("U2").withdrawn
    tutor.report(team="T", user="U3", kind="question", item="q-no-code", reason="unclear", now=now)
    assert tutor.store.withdrawn_questions() == set()
    assert wrong("U3").withdrawn and WITHDRAW_AFTER == 3
    assert tutor.store.withdrawn_questions() == {"q-no-code"}
    assert tutor.store.clear_flags("q-no-code", now=now) == 5
    assert tutor.store.withdrawn_questions() == set() and tutor.store.flagged() == []


def test_a_withdrawn_question_is_never_the_daily_choice(tmp_path):
    """With one question withdrawn, many channels' next questions never pick it."""
    daily = make_daily(tmp_path)
    bank = daily.tutor.catalog.questions
    target = bank.questions[0].id
    for user in ("U1", "U2", "U3"):
        daily.tutor.store.add_flag(
            team="T",
            kind="question",
            item=target,
            reason="wrong",
            reporter=user,
            now=dt.datetime(2026, 12, 1, tzinfo=dt.UTC),
        )
    chosen = {daily.next_question(team="T", channel=f"C{i}").id for i in range(40)}
    assert target not in chosen and len(chosen) > 1


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("the answer should be b", "wrong"),
        ("Answer key is WRONG", "wrong"),
        ("this service was renamed last year", "outdated"),
        ("confusing wording", "unclear"),
        ("I love it", "other"),
    ],
)
def test_report_reason_from_words(text, reason):
    """A free-text report's reason comes from its words."""
    assert report_reason(text) == reason


@pytest.mark.parametrize(
    ("line", "arg"),
    [
        ("report the answer should be B", "the answer should be B"),
        ("Report: typo in c", "typo in c"),
        ("report", ""),
    ],
)
def test_report_shape(line, arg):
    """`report <text>` is a report, the words kept as written; "reporting tools" is a question."""
    assert (parse(line).verb, parse(line).arg) == (Verb.REPORT, arg)
    assert parse("reporting dashboards for model metrics").verb is Verb.ASK


def test_report_in_the_chat_after_a_quiz_and_after_an_answer(tutor, now):
    """The chat reports what it showed last: the question after quiz, the entry after an answer."""
    session = Session()
    assert respond(tutor, "report it is wrong", user="ana", now=now, session=session) == [
        replies.NOTHING_TO_REPORT
    ]
    respond(tutor, "quiz", user="ana", now=now, session=session)
    (said,) = respond(tutor, "report the answer should be A", user="ana", now=now, session=session)
    assert said.startswith("Thanks! Your report on ") and "(wrong answer key)" in said
    respond(tutor, "which service for no-code training", user="ana", now=now, session=session)
    assert respond(tutor, "report", user="ana", now=now, session=session) == [
        replies.SAY_WHAT_IS_WRONG
    ]
    respond(tutor, "report the page moved", user="ana", now=now, session=session)
    items = {(i.kind, i.item) for i in tutor.store.flagged()}
    assert ("entry", "automl") in items and len(items) == 2


def test_report_in_slack_text_points_at_the_button(tutor, now):
    """/tutor report … has no answer before it: the reply points at the Report a problem button."""
    place = Place("T1", "U1", "C1")
    result = handle(tutor, parse("report wrong key"), place, now)
    assert result == NothingToReport() and "Report a problem" in replies.render(result)[0]
    assert not isinstance(result, ReportKept)


def cli(*args: str, db) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        capture_output=True,
        text=True,
        cwd=SHIPPED_ROOT,
        timeout=120,
        check=False,
        env={"PATH": "/usr/bin:/bin", "TUTOR_DB": str(db)},
    )


def test_tutor_flags_and_clear(tmp_path, now):
    """`tutor flags` lists reports with their comments; `clear ID` empties it; a bad ID is an error."""
    from bot.store import Store

    db = tmp_path / "t.db"
    store = Store(db)
    for user in ("U1", "U2", "U3"):
        store.add_flag(
            team="T",
            kind="entry",
            item="automl",
            reason="wrong",
            reporter=user,
            comment=f"by {user[-1]}",
            now=now,
        )
    shown = cli("flags", db=db)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith("entry automl  AutoML on Vertex AI  (3 reports;")
    assert "by 3" in shown.stdout and "out of the daily rotation" not in shown.stdout
    rows = json.loads(cli("flags", "--json", db=db).stdout)
    assert [r["item"] for r in rows] == ["automl"] and len(rows[0]["reports"]) == 3
    cleared = cli("flags", "clear", "automl", db=db)
    assert (cleared.returncode, cleared.stdout.strip()) == (0, "Cleared 3 flags on automl.")
    assert cli("flags", db=db).stdout.strip() == replies.NO_FLAGS
    again = cli("flags", "clear", "automl", db=db)
    assert again.returncode == 1 and again.stderr.startswith("Error: 'automl' has no open flags")
