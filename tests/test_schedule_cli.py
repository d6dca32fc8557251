"""`tutor schedule add` as the README writes it: without a token it is kept for the local
workspace (and says so), a token's workspace adopts it, and mistakes are one clear line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import write_content
from tests.slack_stub import BOT_TOKEN, ROOT, TEAM, slack_env

README_ADD = [
    "schedule",
    "add",
    "--channel",
    "C123",
    "--at",
    "09:00",
    "--tz",
    "Europe/Berlin",
    "--days",
    "mon-fri",
]


def run(tmp: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    settings = slack_env(
        TUTOR_DB=str(tmp / "tutor.db"), TUTOR_CONTENT=str(write_content(tmp / "content")), **env
    )
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=ROOT,
        env=settings,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_readme_schedule_add_works_without_a_token_and_a_token_adopts_it(tmp_path, stub):
    """No token: kept for the local workspace, saying so; `tutor daily` with a token adopts it."""
    added = run(tmp_path, *README_ADD)
    assert added.returncode == 0, added.stderr
    assert added.stdout.startswith("C123 (local): Scheduled here: a question at 09:00")
    assert "No SLACK_BOT_TOKEN and no --team" in added.stdout
    listed = run(tmp_path, "schedule", "list")
    assert listed.returncode == 0 and "C123 (local)" in listed.stdout
    token = {"SLACK_BOT_TOKEN": BOT_TOKEN, "SLACK_API_URL": stub.url}
    ran = run(tmp_path, "daily", "--now", "2026-12-01T08:00:00Z", **token)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert f"1 schedule(s) added without a token now belong to workspace {TEAM}." in ran.stdout
    assert "C123: posted" in ran.stdout
    assert f"C123 ({TEAM})" in run(tmp_path, "schedule", "list").stdout


def test_with_a_token_the_workspace_comes_from_it(tmp_path, stub):
    """With SLACK_BOT_TOKEN set, the workspace is the token's, and the output says so."""
    added = run(tmp_path, *README_ADD, SLACK_BOT_TOKEN=BOT_TOKEN, SLACK_API_URL=stub.url)
    assert added.returncode == 0, added.stderr
    assert added.stdout.startswith(f"C123 ({TEAM}): ")
    assert f"Workspace {TEAM} (from SLACK_BOT_TOKEN)." in added.stdout


def test_re_adding_says_what_it_replaces_and_zones_ignore_case(tmp_path):
    """A second add says which schedule it replaces; `europe/berlin` is stored as Europe/Berlin."""
    run(tmp_path, *README_ADD)
    again = run(
        tmp_path, "schedule", "add", "--channel", "C123", "--at", "10:30", "--tz", "europe/berlin"
    )
    assert again.returncode == 0, again.stderr
    assert "10:30 Europe/Berlin" in again.stdout
    assert "(This replaces a question at 09:00 Europe/Berlin on weekdays" in again.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--channel", "general"], "Error: --channel 'general' is not a channel id"),
        (["--channel", "#C123"], "Error: --channel '#C123' is not a channel id"),
        (["--tz", "Mars/Olympus"], "Error: 'Mars/Olympus' is not a time zone"),
        (["--at", "9am"], "Error: '9am' is not a time of day"),
    ],
)
def test_bad_schedule_input_is_one_clear_line(tmp_path, args, message):
    """A channel name instead of an id, an unknown zone or time: one `Error:` line, exit 1."""
    base = {"--channel": "C123", "--at": "09:00", "--tz": "UTC"}
    base.update(dict(zip(args[::2], args[1::2], strict=True)))
    result = run(tmp_path, "schedule", "add", *[x for pair in base.items() for x in pair])
    assert result.returncode == 1 and result.stderr.startswith(message)
    assert result.stderr.count("\n") == 1 and result.stdout == ""
