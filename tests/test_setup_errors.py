"""Every TUTOR_DB and TUTOR_CONTENT mistake a newcomer can make is one `Error:` line naming the
problem and the fix (exit 1), never "something unexpected went wrong"; a YAML syntax error in
one content file is reported alone, without the problems that follow from it."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import SHIPPED_ROOT, write_content


def tutor(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        capture_output=True,
        text=True,
        cwd=SHIPPED_ROOT,
        env={"PATH": "/usr/bin:/bin", **env},
        timeout=120,
        check=False,
    )


def a_real_database(path: Path) -> Path:
    """A tutor database with some pages, to truncate."""
    result = tutor("chat", env={"TUTOR_DB": str(path)} | {"HOME": str(path.parent)})
    assert result.returncode == 0, result.stderr
    with sqlite3.connect(path) as conn:
        conn.execute("pragma wal_checkpoint(truncate)")
    return path


def setups(tmp: Path) -> dict[str, tuple[Path, str]]:
    """Each broken TUTOR_DB, and the words its message must contain."""
    (tmp / "folder").mkdir()
    (tmp / "a-file").write_text("not a folder\n")
    (tmp / "random.db").write_bytes(bytes(range(256)) * 64)
    (tmp / "notes.db").write_text("meeting notes, not a database\n" * 200)
    real = a_real_database(tmp / "real.db")
    truncated = tmp / "truncated.db"
    truncated.write_bytes(real.read_bytes()[: real.stat().st_size // 2])
    return {
        "directory": (tmp / "folder", "is a folder"),
        "missing-folder": (tmp / "nowhere" / "tutor.db", "folder"),
        "under-a-file": (tmp / "a-file" / "tutor.db", "is a file, not a folder"),
        "random-bytes": (tmp / "random.db", "not a Study Tutor database"),
        "text-file": (tmp / "notes.db", "not a Study Tutor database"),
        "truncated": (truncated, "damaged"),
    }


@pytest.mark.parametrize(
    "case",
    ["directory", "missing-folder", "under-a-file", "random-bytes", "text-file", "truncated"],
)
@pytest.mark.parametrize("command", [["stats"], ["chat"], ["gaps"]])
def test_a_broken_tutor_db_is_one_clear_line(tmp_path, case, command):
    """Each broken TUTOR_DB gets `Error: …` naming the file and the fix; nothing is changed."""
    path, words = setups(tmp_path)[case]
    before = path.read_bytes() if path.is_file() else None
    result = tutor(*command, env={"TUTOR_DB": str(path), "HOME": str(tmp_path)})
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1
    assert words in result.stderr and str(path) in result.stderr and "TUTOR_DB" in result.stderr
    assert "unexpected" not in result.stderr and "Traceback" not in result.stderr
    assert (path.read_bytes() if path.is_file() else None) == before


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda tmp: tmp / "nonexistent", "does not exist"),
        (
            lambda tmp: write_content(tmp / "c") / "knowledge" / "mini.yaml",
            "is a file, not a folder",
        ),
        (lambda tmp: (tmp / "empty").mkdir() or tmp / "empty", "holds no knowledge/ folder"),
    ],
    ids=["missing", "a-file", "no-knowledge"],
)
def test_a_wrong_tutor_content_is_one_clear_line(tmp_path, make, words):
    """TUTOR_CONTENT that does not exist, is a file, or holds no knowledge/: one line, exit 1."""
    content = make(tmp_path)
    result = tutor("check", env={"TUTOR_CONTENT": str(content)})
    assert result.returncode == 1
    assert result.stderr == (
        f"Error: TUTOR_CONTENT {'' if 'is a file' in words else 'folder '}'{content}' {words}; "
        "point it at the folder that holds knowledge/ and quizzes/, or unset it to use the "
        "shipped content\n"
    )


def test_a_yaml_syntax_error_is_reported_alone(tmp_path):
    """One unclosed quote in a shipped knowledge file: `tutor check` and `tutor ask` name only it."""
    content = tmp_path / "content"
    shutil.copytree(SHIPPED_ROOT / "knowledge", content / "knowledge")
    shutil.copytree(SHIPPED_ROOT / "quizzes", content / "quizzes")
    broken = sorted((content / "knowledge").glob("*.yaml"))[0]
    lines = broken.read_text(encoding="utf-8").split("\n")
    at = next(i for i, line in enumerate(lines) if line.strip().startswith("why:"))
    lines[at] = lines[at].replace("why:", 'why: "unclosed', 1)
    broken.write_text("\n".join(lines), encoding="utf-8")
    env = {"TUTOR_CONTENT": str(content), "TUTOR_DB": str(tmp_path / "t.db")}
    checked = tutor("check", env=env)
    assert checked.returncode == 1
    (problem,) = checked.stdout.splitlines()
    assert problem.startswith(f"{broken}:") and "YAML syntax error" in problem
    assert checked.stderr == "1 problem(s) found.\n"
    asked = tutor("ask", "which service for no-code training", env=env)
    assert asked.returncode == 1 and asked.stderr == f"Error: {problem}\n"
