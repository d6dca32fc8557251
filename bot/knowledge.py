"""The knowledge base: requirement → means entries read from `knowledge/*.yaml`."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from bot.content import (
    Fields,
    clipped,
    display_name,
    duplicate_ids,
    read_items,
    unknown_keys,
    yaml_files,
)
from bot.errors import ContentError, Problem

MIN_REQUIREMENTS = 5
MAX_NAME = 60  # a short name fits a Slack button (75) and one line of a list
MAX_CUE = 40  # a watch_out cue is a few words a question might use
# The most characters per field (per text, for lists), so every answer fits Slack's blocks with
# nothing cut: see "Limits" in knowledge/README.md for how the numbers add up.
LIMITS = {
    "id": 64,
    "topic": 60,
    "means": 300,
    "name": MAX_NAME,
    "requirements": 300,
    "aliases": 100,
    "why": 1000,
    "watch_out": 500,
    "status_note": 500,
    "sources": 500,
}
Status = Literal["current", "renamed", "deprecated"]
STATUSES: tuple[Status, ...] = ("current", "renamed", "deprecated")
_KEYS = {
    "id",
    "section",
    "topic",
    "means",
    "name",
    "requirements",
    "aliases",
    "why",
    "watch_out",
    "status",
    "status_note",
    "sources",
    "checked",
}


@dataclass(frozen=True)
class WatchOut:
    """A usual mix-up: the other entry, and what tells the two apart. `cues` are the words in a
    question that point to this entry rather than the other; the matcher uses them to tell the
    two apart when they are nearly tied."""

    id: str
    note: str
    cues: tuple[str, ...] = ()


@dataclass(frozen=True)
class Entry:
    """One requirement → means pair and everything a learner needs to trust it."""

    id: str
    section: str
    topic: str
    means: str
    requirements: tuple[str, ...]
    aliases: tuple[str, ...]
    why: str
    watch_out: tuple[WatchOut, ...]
    sources: tuple[str, ...]
    checked: str
    status: Status = "current"
    status_note: str = ""
    short: str = ""  # the optional `name` field
    file: str = ""
    line: int = 0

    @property
    def name(self) -> str:
        """A short name for lists and buttons: `name`, else the means up to ':' without '(…)'."""
        return self.short or name_from_means(self.means)


def name_from_means(means: str) -> str:
    """The means up to ':', without a trailing '(…)': the name of an entry without `name`."""
    head = means.split(":", 1)[0].strip()
    return re.sub(r"\s*\([^()]*\)$", "", head) or means


@dataclass(frozen=True)
class KnowledgeBase:
    """All entries, in file order, with a lookup by id."""

    entries: tuple[Entry, ...]

    _by_id: dict[str, Entry] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {e.id: e for e in self.entries})

    def get(self, entry_id: str) -> Entry | None:
        return self._by_id.get(entry_id)

    def __len__(self) -> int:
        return len(self.entries)


def read_knowledge(folder: Path) -> tuple[KnowledgeBase, list[Problem]]:
    """Read and validate every knowledge file; return what loaded and every problem found."""
    problems: list[Problem] = []
    files = yaml_files(folder)
    if not files:
        where = Path(folder)
        problems.append(
            Problem(str(where), 1, "no knowledge files (*.yaml) here; add at least one")
        )
    entries: list[Entry] = []
    seen: dict[str, Problem] = {}
    for path in files:
        for item in read_items(path, "entries", problems):
            fields = Fields(item, display_name(path), problems, LIMITS)
            entry = _entry(fields)
            clash = duplicate_ids(seen, entry.id, Problem(entry.file, entry.line, ""), "entry")
            if clash:
                problems.append(clash)
            elif entry.id:
                entries.append(entry)
    _check_watch_outs(entries, problems)
    return KnowledgeBase(tuple(entries)), problems


def load_knowledge(folder: Path) -> KnowledgeBase:
    """The knowledge base, or a ContentError naming every problem."""
    kb, problems = read_knowledge(folder)
    if problems:
        raise ContentError(problems)
    return kb


def _entry(fields: Fields) -> Entry:
    for key in unknown_keys(fields.item, _KEYS):
        fields.problem(f"{fields.label}: unknown field '{key}' (typo?)")
    chosen = fields.choice("status", STATUSES, "current")
    status: Status = next((s for s in STATUSES if s == chosen), "current")
    status_note = fields.text("status_note", required=status != "current")
    return Entry(
        id=fields.ident(),
        section=fields.section(),
        topic=fields.text("topic"),
        means=fields.text("means"),
        requirements=fields.texts("requirements", minimum=MIN_REQUIREMENTS),
        aliases=fields.texts("aliases"),
        why=fields.text("why"),
        watch_out=_watch_outs(fields),
        sources=fields.urls("sources"),
        checked=fields.date("checked"),
        status=status,
        status_note=status_note,
        short=_short_name(fields),
        file=fields.file,
        line=fields.item.line,
    )


def _short_name(fields: Fields) -> str:
    """The optional `name`; without one, the name taken from `means` must fit a button too."""
    name = fields.text("name", required=False)
    means = fields.item.get("means")
    if not name and isinstance(means, str):
        taken = name_from_means(means.strip())
        if len(taken) > MAX_NAME:
            fields.problem(
                f"{fields.label}: the name taken from 'means' has {len(taken)} characters, "
                f"too long for a button; add a 'name' of at most {MAX_NAME}"
            )
    return name


def _watch_outs(fields: Fields) -> tuple[WatchOut, ...]:
    raw = fields.item.get("watch_out", [])
    if not isinstance(raw, list):
        fields.problem(f"{fields.label}: 'watch_out' must be a list of {{id, note}}")
        return ()
    found = []
    for item in raw:
        if not isinstance(item, dict) or not item.get("id") or not item.get("note"):
            fields.problem(f"{fields.label}: each watch_out needs an 'id' and a 'note'")
            continue
        ident, note = item["id"], item["note"]
        if not isinstance(ident, str) or not isinstance(note, str):
            fields.problem(f"{fields.label}: a watch_out's 'id' and 'note' must be text")
            continue
        if ident == fields.item.get("id"):
            message = (
                f"{fields.label}: watch_out points at its own entry; "
                "point it at the entry learners confuse this one with"
            )
            fields.problems.append(Problem(fields.file, getattr(item, "line", 1), message))
            continue
        fields.check_text("watch_out", note.strip(), "a watch_out note")
        found.append(WatchOut(ident, note.strip(), _cues(fields, item)))
    return tuple(found)


def _cues(fields: Fields, item: dict) -> tuple[str, ...]:
    """A watch_out's optional `cues`: short phrases, a list of text."""
    raw = item.get("cues", [])
    line = getattr(item, "line", fields.item.line)
    if not isinstance(raw, list) or not all(isinstance(c, str) and c.strip() for c in raw):
        message = f"{fields.label}: a watch_out's 'cues' must be a list of short phrases"
        fields.problems.append(Problem(fields.file, line, message))
        return ()
    long = [c for c in raw if len(c.strip()) > MAX_CUE]
    if long:
        message = f"{fields.label}: cue '{clipped(long[0])}' is over {MAX_CUE} characters"
        fields.problems.append(Problem(fields.file, line, message + "; keep cues to a few words"))
        return ()
    return tuple(c.strip() for c in raw)


def _check_watch_outs(entries: list[Entry], problems: list[Problem]) -> None:
    known = {e.id for e in entries}
    for entry in entries:
        for watch in entry.watch_out:
            if watch.id not in known:
                problems.append(
                    Problem(
                        entry.file,
                        entry.line,
                        f"'{entry.id}': watch_out points at unknown entry '{clipped(watch.id)}'; "
                        "use an existing entry id",
                    )
                )
