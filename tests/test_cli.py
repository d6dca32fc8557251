"""The `tutor` command: JSON contracts, exit codes, help for every command."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from bot.cli import build_parser
from tests.conftest import SHIPPED_ROOT


def tutor(*args: str, stdin: str = "", cwd=SHIPPED_ROOT, env=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
        check=False,
        env={**os.environ, **(env or {})},
    )


def test_ask_json_shape(tmp_path):
    """`tutor ask --json` prints one object with the documented keys."""
    result = tutor(
        "ask",
        "--json",
        "which service for no-code training",
        env={"TUTOR_DB": str(tmp_path / "t.db")},
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert set(data) >= {"question", "answer", "confidence", "alternatives"}
    assert set(data["answer"]) >= {"id", "means", "why", "topic", "watch_out"}
    assert data["answer"]["id"] == "automl"
    assert 0 <= data["confidence"] <= 100
    assert all(set(a) == {"id", "means", "confidence"} for a in data["alternatives"])


def test_ask_json_names_what_the_notes_do_not_know(tmp_path):
    """`unknown` is the name in the question the notes do not know, else null."""
    nan = "training loss turns NaN after a few steps, what should we change?"
    lines = f"in Polysync, {nan}\n{nan}\n"
    result = tutor("ask", "--json", stdin=lines, env={"TUTOR_DB": str(tmp_path / "t.db")})
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["unknown"] for r in rows] == ["Polysync", None]
    assert rows[0]["answer"]["id"] == rows[1]["answer"]["id"] == "nan-loss-learning-rate"
    assert rows[0]["confidence"] < 80 <= rows[1]["confidence"]


def test_ask_json_reads_stdin_one_question_per_line(tmp_path):
    """With --json and no question, each stdin line gets one JSON line back."""
    lines = "which service for no-code training\nhow do I potty train my puppy\n"
    result = tutor("ask", "--json", stdin=lines, env={"TUTOR_DB": str(tmp_path / "t.db")})
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["question"] for r in rows] == lines.splitlines()
    assert rows[0]["answer"]["id"] == "automl"
    assert rows[1]["answer"] is None


def test_ask_without_a_question_is_a_clear_error(tmp_path):
    """`tutor ask` alone says how to use it and exits 1."""
    result = tutor("ask", env={"TUTOR_DB": str(tmp_path / "t.db")})
    assert result.returncode == 1
    assert result.stderr.startswith("Error: give a question")
    assert "Traceback" not in result.stderr


def test_leaderboard_json_is_a_list(tmp_path):
    """An empty leaderboard is an empty JSON list."""
    result = tutor("leaderboard", "--json", env={"TUTOR_DB": str(tmp_path / "t.db")})
    assert result.returncode == 0
    assert json.loads(result.stdout) == []


def test_broken_content_stops_with_file_and_line(tmp_path):
    """Commands that need content refuse broken content with FILE:LINE, not a traceback."""
    (tmp_path / "knowledge").mkdir()
    (tmp_path / "quizzes").mkdir()
    (tmp_path / "knowledge" / "bad.yaml").write_text("entries: [\n", encoding="utf-8")
    result = tutor("ask", "anything", cwd=tmp_path, env={"TUTOR_CONTENT": str(tmp_path)})
    assert result.returncode == 1
    assert "knowledge/bad.yaml:" in result.stderr
    assert "Traceback" not in result.stderr


def subcommands() -> list[str]:
    parser = build_parser()
    action = next(a for a in parser._actions if a.dest == "command")
    return sorted(action.choices)


@pytest.mark.parametrize("name", subcommands())
def test_every_command_has_help(name):
    """Every subcommand documents itself in `tutor --help` and `tutor NAME --help`."""
    parser = build_parser()
    action = next(a for a in parser._actions if a.dest == "command")
    listed = {c.dest: c.help for c in action._choices_actions}
    assert listed.get(name), f"{name} has no help line"
    assert action.choices[name].format_help().startswith("usage: tutor " + name)


def test_readme_mentions_every_command():
    """The README documents each subcommand, so docs cannot drift from the CLI."""
    readme = (SHIPPED_ROOT / "README.md").read_text(encoding="utf-8")
    missing = [name for name in subcommands() if f"tutor {name}" not in readme]
    assert missing == []


def test_ask_with_a_pasted_exam_question_picks_a_choice(tmp_path):
    """`tutor ask` given a stem and its lettered choices answers like the chat does: one pick,
    then a line for each other choice."""
    pasted = (
        "Training on Vertex AI keeps failing with out-of-memory errors on the GPU."
        " What should you do first?\n"
        "A. Switch to TPUs\nB. Reduce the batch size\nC. Increase the learning rate\n"
        "D. Add more layers"
    )
    result = tutor("ask", pasted, env={"TUTOR_DB": str(tmp_path / "t.db")})
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith('I\'d pick B: "Reduce the batch size"')
    assert all(f"Not {x}:" in result.stdout for x in "ACD")
