"""Reading content YAML with line numbers, and the field checks knowledge and quizzes share.

Every mapping read from a content file remembers the line it starts on, so a problem can be
reported as `FILE:LINE: message` at the item that has it.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from pathlib import Path

import yaml

from bot.errors import Problem

SECTIONS = {
    "3.1": "Building models",
    "3.2": "Training models",
    "3.3": "Choosing hardware for training",
}
ID_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


class Item(dict):
    """A YAML mapping that knows the (1-based) line it starts on."""

    line: int = 1


class _LineLoader(yaml.SafeLoader):
    """SafeLoader whose mappings are `Item`s carrying their line."""


def _construct_item(loader: _LineLoader, node: yaml.MappingNode) -> Item:
    item = Item(loader.construct_mapping(node, deep=True))
    item.line = node.start_mark.line + 1
    return item


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_item)


def yaml_files(folder: Path) -> list[Path]:
    """The content files of a folder, in a stable order (files starting with `_` are skipped)."""
    return sorted(p for p in folder.glob("*.yaml") if not p.name.startswith("_"))


def read_items(path: Path, key: str, problems: list[Problem]) -> Iterator[Item]:
    """Yield the mappings listed under `key` in one file; record what stops us reading it."""
    name = display_name(path)
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=_LineLoader)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line = mark.line + 1 if mark else 1
        what = error.problem or "malformed YAML"
        problems.append(Problem(name, line, f"YAML syntax error: {what}; fix the syntax there"))
        return
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as error:
        problems.append(Problem(name, 1, f"cannot read this file ({type(error).__name__})"))
        return
    if not isinstance(data, dict) or not isinstance(data.get(key), list):
        problems.append(Problem(name, 1, f"expected a mapping with a list under '{key}:'"))
        return
    for position, item in enumerate(data[key], start=1):
        if not isinstance(item, Item):
            line = getattr(data, "line", 1)
            problems.append(Problem(name, line, f"item {position} under '{key}:' is not a mapping"))
            continue
        yield item


def display_name(path: Path) -> str:
    """A path as people want to read it: relative to the working folder when it can be."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


class Fields:
    """Typed reads of one item's fields; every problem is recorded against the item's line."""

    def __init__(self, item: Item, file: str, problems: list[Problem]) -> None:
        self.item, self.file, self.problems = item, file, problems
        self.label = f"'{item.get('id')}'" if isinstance(item.get("id"), str) else "this item"

    def problem(self, message: str) -> None:
        self.problems.append(Problem(self.file, self.item.line, message))

    def text(self, key: str, *, required: bool = True, default: str = "") -> str:
        value = self.item.get(key)
        if value is None or value == "":
            if required:
                self.problem(f"{self.label} is missing '{key}'; add it")
            return default
        if isinstance(value, int | float) and not isinstance(value, bool):
            return str(value)
        if not isinstance(value, str):
            self.problem(f"{self.label}: '{key}' must be text")
            return default
        return value.strip()

    def texts(self, key: str, *, minimum: int = 0) -> tuple[str, ...]:
        value = self.item.get(key, [])
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            self.problem(f"{self.label}: '{key}' must be a list of non-empty texts")
            return ()
        if len(value) < minimum:
            self.problem(f"{self.label} needs at least {minimum} '{key}', has {len(value)}")
        return tuple(v.strip() for v in value)

    def ident(self) -> str:
        value = self.text("id")
        if value and not ID_PATTERN.match(value):
            self.problem(f"id '{value}' must be lowercase letters, digits and dashes")
        return value

    def section(self) -> str:
        value = self.text("section")
        if value and value not in SECTIONS:
            known = ", ".join(SECTIONS)
            self.problem(f"{self.label}: section '{value}' is not one of {known}")
        return value

    def urls(self, key: str) -> tuple[str, ...]:
        found = self.texts(key, minimum=1)
        for url in found:
            if not url.startswith("https://"):
                self.problem(f"{self.label}: source '{url}' must be an https:// URL")
        return found

    def date(self, key: str) -> str:
        value = self.item.get(key)
        if isinstance(value, dt.date):
            return value.isoformat()
        try:
            return dt.date.fromisoformat(str(value)).isoformat()
        except ValueError:
            self.problem(f"{self.label}: '{key}' must be a date like 2026-11-30")
            return ""

    def choice(self, key: str, allowed: tuple[str, ...], default: str) -> str:
        value = self.text(key, required=False, default=default)
        if value not in allowed:
            self.problem(
                f"{self.label}: '{key}' is '{value}', expected one of {', '.join(allowed)}"
            )
        return value


def unknown_keys(item: Item, known: set[str]) -> list[str]:
    """Keys an item has that the format does not define (usually typos)."""
    return sorted(str(k) for k in item if k not in known)


def duplicate_ids(
    seen: dict[str, Problem], ident: str, where: Problem, kind: str
) -> Problem | None:
    """Record `ident` as seen; return a problem when it was seen before."""
    if ident in seen:
        first = seen[ident]
        return Problem(
            where.file,
            where.line,
            f"duplicate {kind} id '{ident}' (first at {first.file}:{first.line}); "
            "ids must be unique",
        )
    seen[ident] = where
    return None
