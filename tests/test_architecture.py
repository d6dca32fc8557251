"""Conventions that matter, guarded by tests: the core never imports Slack; nothing at import."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

BOT = Path(__file__).resolve().parent.parent / "bot"
SLACK_PACKAGES = ("slack_bolt", "slack_sdk")


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def core_modules() -> list[Path]:
    return [p for p in BOT.rglob("*.py") if "slack" not in p.relative_to(BOT).parts]


def test_core_never_imports_slack():
    """No module outside bot/slack imports slack_bolt or slack_sdk, even lazily."""
    offenders = {
        str(path.relative_to(BOT)): sorted(
            m for m in imported_modules(path) if m.startswith(SLACK_PACKAGES)
        )
        for path in core_modules()
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_importing_the_package_touches_nothing(tmp_path):
    """Importing every core module creates no database and reads no Slack settings."""
    names = [
        "bot." + ".".join(p.relative_to(BOT).with_suffix("").parts)
        for p in core_modules()
        if p.name != "__main__.py"
    ]
    code = f"import importlib; [importlib.import_module(n) for n in {names!r}]"
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(BOT.parent)},
    )
    assert result.returncode == 0, result.stderr
    assert list(tmp_path.iterdir()) == []
