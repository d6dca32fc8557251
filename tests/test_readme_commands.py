"""The README's shell commands, run verbatim in a temporary folder.

Every fenced `sh` block is run line by line with bash, from an empty folder, with the installed
`tutor` on PATH and a private home (so the default database is fresh), except blocks that need
what a test machine does not have: Slack (they set SLACK_ tokens), Docker, or the checkout's own
`make` targets (`make test` is this suite; CI runs it). Shell lines shown in `text` blocks with a
`$ ` prompt run too.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import SHIPPED_ROOT

README = (SHIPPED_ROOT / "README.md").read_text(encoding="utf-8")
_FENCE = re.compile(r"^( *)```(\w*)\n(.*?)^\1```", re.MULTILINE | re.DOTALL)
NEEDS_MORE = ("SLACK_", "docker ", "make ")


def commands() -> list[str]:
    """Each runnable command of the README, in order."""
    found: list[str] = []
    for _indent, kind, body in _FENCE.findall(README):
        lines = [line.strip() for line in body.splitlines()]
        if kind == "sh" and not any(need in body for need in NEEDS_MORE):
            found += [line for line in lines if line and not line.startswith("#")]
        elif kind == "text":
            found += [line[2:] for line in lines if line.startswith("$ ")]
    return found


def test_the_readme_has_commands_to_run():
    """The blocks this test runs exist: the newcomer's first commands and the piped chat."""
    found = commands()
    assert "tutor schedule add --channel C123 --at 09:00 --tz Europe/Berlin --days mon-fri" in found
    assert any(c.startswith("printf ") and c.endswith("| tutor chat --user ana") for c in found)
    assert len(found) >= 8


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """One empty folder and home for all the commands, so each sees what the ones before did."""
    return tmp_path_factory.mktemp("readme")


@pytest.mark.parametrize("command", commands())
def test_readme_command_runs_verbatim(folder, command):
    """The command exits 0 with output and no `Error:` from an empty folder, without Slack."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TUTOR_", "SLACK_"))}
    env.update(
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}",
        HOME=str(folder / "home"),
        XDG_DATA_HOME=str(folder / "data"),
    )
    result = subprocess.run(
        ["bash", "-c", f"set -eo pipefail\n{command}"],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() and "Error:" not in result.stdout + result.stderr
    assert not list(folder.glob("*.db"))  # the database is in the data folder, not here
