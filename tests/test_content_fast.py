"""libyaml reads content exactly as the pure-Python parser does: data, line numbers, problems."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot import content
from bot.errors import Problem

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = content.yaml_files(ROOT / "knowledge") + content.yaml_files(ROOT / "quizzes")


def shape(value: object) -> object:
    """Data with every Item's line and key lines spelled out, to compare two loads."""
    if isinstance(value, content.Item):
        keys = sorted((str(k), line) for k, line in value.key_lines.items())
        return ("item", value.line, keys, [(str(k), shape(v)) for k, v in value.items()])
    if isinstance(value, dict):
        return [(str(k), shape(v)) for k, v in value.items()]
    if isinstance(value, list):
        return [shape(v) for v in value]
    return (type(value).__name__, value)


def test_libyaml_is_used_when_present():
    """The wheel we install has libyaml, so the fast loader exists."""
    assert content._FastLineLoader is not None


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_shipped_files_load_identically(path):
    """Same data, same line for every item and key, same duplicates, with either parser."""
    text = path.read_text(encoding="utf-8")
    slow = content._load(content._LineLoader, text)
    fast = content._load(content._FastLineLoader, text)
    assert shape(fast[0]) == shape(slow[0]) and fast[1] == slow[1]
    tree = content._load_tree(text)
    assert shape(tree[0]) == shape(slow[0]) and tree[1] == slow[1]


REFUSED = {
    "anchor": "items:\n  - id: a\n    text: &x hi\n  - id: b\n    text: *x\n",
    "merge": "items:\n  - id: a\n    <<: {text: hi}\n",
    "deep": "items:\n  - " + "[" * 12 + "1" + "]" * 12 + "\n",
    "deeper than libyaml": "items:\n  - " + "[" * 1200 + "1" + "]" * 1200 + "\n",
    "many": "items:\n" + "".join(f"  - id: a{n}\n" for n in range(6000)),
    "duplicate": "items:\n  - id: a\n    id: b\n",
    "syntax": "items:\n  - id: a\n   bad: [\n",
    "control": "items:\n  - id: a\x07\n",
    "date": "items:\n  - id: a\n    checked: 2026-13-45\n",
}


@pytest.mark.parametrize("name", list(REFUSED))
def test_problems_are_the_same_with_either_parser(tmp_path, monkeypatch, name):
    """A refused or flawed file gets the same problems, at the same lines, either way."""
    path = tmp_path / f"{name}.yaml"
    path.write_text(REFUSED[name], encoding="utf-8")

    def problems() -> tuple[list[Problem], list]:
        found: list[Problem] = []
        return found, [shape(item) for item in content.read_items(path, "items", found)]

    fast = problems()
    monkeypatch.setattr(content, "_FastLineLoader", None)
    assert fast == problems()
