"""The `tutor` command's rough edges, smoothed: --version, input checks, who `stats` is about,
boards with a period they do not have, progress while tuning, help that says what it does."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from bot import crossval
from bot.cli import build_parser
from bot.conversation import Invalid, Place, handle, parse
from tests.conftest import SHIPPED_ROOT


def run(*args: str, tmp_path, **env: str) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("TUTOR_", "SLACK_"))}
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        capture_output=True,
        text=True,
        cwd=SHIPPED_ROOT,
        env={**base, "TUTOR_DB": str(tmp_path / "t.db"), **env},
        timeout=120,
        check=False,
    )


def test_version(tmp_path):
    """`tutor --version` prints the installed version and exits 0."""
    from importlib import metadata

    result = run("--version", tmp_path=tmp_path)
    assert (result.returncode, result.stdout) == (0, f"tutor {metadata.version('study-tutor')}\n")


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["gaps", "--limit", "0"], "'0' is not a whole number of at least 1"),
        (["leaderboard", "--limit", "-3"], "'-3' is not a whole number of at least 1"),
        (["flags", "--limit", "x"], "'x' is not a whole number of at least 1"),
        (["leaderboard", "--channel", "general"], "'general' is not a channel id"),
        (["schedule", "remove", "--channel", "#quiz"], "'#quiz' is not a channel id"),
    ],
)
def test_bad_numbers_and_channel_names_are_refused(tmp_path, args, said):
    """A limit below 1 or a channel name where an id belongs: a usage error naming it (exit 2)."""
    result = run(*args, tmp_path=tmp_path)
    assert result.returncode == 2 and said in result.stderr
    assert "Traceback" not in result.stderr


def test_stats_says_whose_they_are(tmp_path):
    """Without --user, `tutor stats` names the learner it chose and where; no chat wording."""
    result = run("stats", tmp_path=tmp_path, USER="ana")
    assert result.stdout.splitlines() == [
        "ana (no --user given: from $USER), in the local chat:",
        "  No answers yet: answer a question in tutor chat (quiz) or in Slack (/tutor quiz).",
    ]
    named = run("stats", "--user", "bo", "--team", "T0123", tmp_path=tmp_path)
    assert named.stdout.startswith("bo, in workspace T0123:")


@pytest.mark.parametrize("line", ["leaderboard yesterday", "lb last week", "leaderboard today"])
def test_a_board_with_a_period_it_does_not_have_says_which_it_has(tutor_core, now, line):
    """ "leaderboard yesterday" is not answered as a question about time travel."""
    result = handle(tutor_core, parse(line), Place("T1", "U1", "C1"), now)
    assert isinstance(result, Invalid) and "leaderboard week, month or all" in result.message


@pytest.fixture
def tutor_core(tutor):
    return tutor


def test_tuning_says_what_it_tries_as_it_goes(catalog):
    """`tutor eval --tune` reports the start and every setting it tries, not only improvements."""
    said: list[str] = []
    search = {"k1": (0.1, 0.3), "pair_weight": (0.3,)}
    crossval.tune(catalog.knowledge, search=search, rounds=1, k=2, progress=said.append)
    assert said[0].startswith("start: top-1 ") and "up to 3 settings" in said[0]
    assert len(said) >= 3 and all(line.startswith("round 1, ") for line in said[1:])


def test_eval_help_names_the_real_default():
    """`tutor eval --help` says what it measures by default: every set but the test halves."""
    (evaluate,) = [
        a for a in build_parser()._subparsers._group_actions[0].choices.items() if a[0] == "eval"
    ]
    said = " ".join(evaluate[1].format_help().split())
    assert "every set in tests/eval except the *_test.yaml halves" in said


def test_the_start_line_points_at_an_older_database_in_this_folder(tmp_path, monkeypatch):
    """A tutor.db left here by an older version is named, with how to keep using it."""
    from bot.cli import kept_in
    from bot.config import Settings

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # the paths are shown whole, not as ~/…
    settings = Settings.from_env({"XDG_DATA_HOME": str(tmp_path / "data")})
    assert kept_in(settings) == (
        f"Your answers are kept in {tmp_path / 'data' / 'study-tutor' / 'tutor.db'} "
        "(set TUTOR_DB to use another file)."
    )
    (tmp_path / "tutor.db").write_bytes(b"")
    assert kept_in(settings).endswith(
        "An older tutor.db is in this folder: TUTOR_DB=tutor.db uses it."
    )
    chosen = Settings.from_env({"TUTOR_DB": str(tmp_path / "mine.db")})
    assert kept_in(chosen) == f"Your answers are kept in {tmp_path / 'mine.db'} (TUTOR_DB)."
