"""Charts: PNGs that say the same in words, uploaded once per change, shown as image blocks."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys

from slack_sdk.models.blocks import Block

from bot import charts
from bot.quiz import QuestionBank
from bot.readiness import estimate, weekly
from bot.slack import blocks
from bot.slack.charts import chart_blocks
from bot.slack.handlers import shows_charts
from bot.store import Answer
from tests.slack_stub import ROOT

NOW = dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC)
PNG = b"\x89PNG\r\n\x1a\n"


def history() -> list[Answer]:
    return [
        Answer(f"q{i}", "3.2" if i % 2 else "4.1", i % 3 != 0, NOW - dt.timedelta(days=i))
        for i in range(40)
    ]


def test_charts_are_pngs_and_their_alt_text_names_every_section():
    """Both charts draw as PNG; the readiness alt text gives each section's estimate."""
    readiness = estimate(history(), QuestionBank(()), NOW)
    weeks = weekly(history(), NOW)
    assert charts.draw_readiness(readiness).startswith(PNG)
    assert charts.draw_progress(weeks).startswith(PNG)
    alt = charts.readiness_alt(readiness)
    for s in readiness.sections:
        assert f"{s.section} {s.mean:.0%} ({s.low:.0%}–{s.high:.0%}" in alt
    assert "75% target" in alt and "not enough answers yet" in alt
    assert "answered" in charts.progress_alt(weeks)


def test_the_digest_changes_with_the_data_only():
    """The same data gives the same digest (no new upload); a new answer changes it."""
    bank = QuestionBank(())
    first = charts.readiness_chart(estimate(history(), bank, NOW))
    again = charts.readiness_chart(estimate(history(), bank, NOW))
    more = charts.readiness_chart(estimate([*history(), Answer("z", "3.3", True, NOW)], bank, NOW))
    assert first.digest == again.digest != more.digest


def test_image_block_references_the_file_and_is_valid_block_kit():
    """The image block names the uploaded file and carries the alt text, as slack_sdk accepts."""
    block = blocks.image("F0CHART0001", "Readiness by exam section", "Bar chart of …")
    assert block["slack_file"] == {"id": "F0CHART0001"}
    assert Block.parse(block).to_dict()["alt_text"] == "Bar chart of …"


def test_charts_upload_through_files_upload_v2_once_per_change(tutor, stub, client, now):
    """First stats: two uploads reach the stand-in and the blocks reference them; unchanged data
    reuses the files; after an answer, Home's refresh (fresh=False) still reuses them."""
    asked = tutor.quiz(team="T1", user="U1", now=now)
    tutor.answer(post_id=asked.post.id, user="U1", choice="A", now=now, team="T1")
    stats = tutor.stats(team="T1", user="U1", now=now)
    shown = chart_blocks(client, tutor.store, now, team="T1", user="U1", stats=stats)
    completed = stub.called("files.completeUploadExternal")
    assert len(stub.called("files.getUploadURLExternal")) == len(completed) == 2
    assert all(stub.uploads[b["slack_file"]["id"]].startswith(PNG) for b in shown)
    assert [b["type"] for b in shown] == ["image", "image"]
    assert shown[0]["alt_text"] == charts.readiness_alt(stats.readiness)
    again = chart_blocks(client, tutor.store, now, team="T1", user="U1", stats=stats)
    assert again == shown and len(stub.called("files.getUploadURLExternal")) == 2
    second = tutor.quiz(team="T1", user="U1", now=now)
    tutor.answer(post_id=second.post.id, user="U1", choice="B", now=now, team="T1")
    changed = tutor.stats(team="T1", user="U1", now=now)
    kept = chart_blocks(client, tutor.store, now, team="T1", user="U1", stats=changed, fresh=False)
    assert kept == shown and len(stub.called("files.getUploadURLExternal")) == 2  # its own words
    redrawn = chart_blocks(client, tutor.store, now, team="T1", user="U1", stats=changed)
    assert redrawn != shown and len(stub.called("files.getUploadURLExternal")) == 4


def test_a_failed_upload_leaves_the_words(tutor, stub, client, now):
    """Slack refusing the upload (a missing scope): no image, the alt text as a context block."""
    assert (
        chart_blocks(
            client,
            tutor.store,
            now,
            team="T1",
            user="U9",
            stats=tutor.stats(team="T1", user="U9", now=now),
        )
        == []
    )  # no answers yet: nothing to picture, nothing uploaded
    assert stub.called("files.getUploadURLExternal") == []
    asked = tutor.quiz(team="T1", user="U9", now=now)
    tutor.answer(post_id=asked.post.id, user="U9", choice="A", now=now, team="T1")
    stub.fail("files.getUploadURLExternal", error="missing_scope", times=2)
    stats = tutor.stats(team="T1", user="U9", now=now)
    shown = chart_blocks(client, tutor.store, now, team="T1", user="U9", stats=stats)
    assert [b["type"] for b in shown] == ["context", "context"]
    assert "Bar chart of readiness" in shown[0]["elements"][0]["text"]
    assert "answers per week" in shown[1]["elements"][0]["text"]
    assert tutor.store.chart_file(team="T1", user="U9", name="readiness") is None


def test_tutor_ask_does_not_import_matplotlib(tmp_path):
    """Startup stays light: answering a question never imports matplotlib."""
    code = (
        "import sys; from bot.cli import main; status = main(['ask', 'train without code']); "
        "print('matplotlib' in sys.modules, status)"
    )
    env = {**os.environ, "TUTOR_DB": str(tmp_path / "t.db")}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )
    assert done.stdout.strip().endswith("False 0"), done.stderr


def test_only_stats_and_ready_wait_for_charts():
    """/tutor stats and ready go after the ack (they upload); other lines stay in the ack."""
    assert [shows_charts({"text": t}) for t in ("stats", "ready", "am I ready for the exam?")] == [
        True,
        True,
        True,
    ]
    assert not any(
        shows_charts({"text": t}) for t in ("quiz", "exam 2027-03-01", "stats on model accuracy")
    )
