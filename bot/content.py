"""Reading content YAML with line numbers, and the field checks knowledge and quizzes share.

Every mapping read from a content file remembers the line it starts on, so a problem can be
reported as `FILE:LINE: message` at the item that has it. Reading is strict and bounded: a file
is refused, with the line where it goes wrong, when it is too big, not UTF-8 text, nested too
deep, or uses anchors and aliases (which let a few lines expand into billions of values); a key
written twice is a problem rather than a silent overwrite.
"""

from __future__ import annotations

import datetime as dt
import errno
import re
import stat
import urllib.parse
from collections.abc import Hashable, Iterator, Mapping
from pathlib import Path

import yaml

from bot.errors import FileProblem, Problem

# The exam guide's sections (a domain's number, then the section's), as the guide of 1 June 2026
# lists them; titles in our own words.
SECTIONS = {
    "1.1": "Developing ML models with BigQuery ML or AutoML",
    "1.2": "Building AI solutions with Google Cloud AI APIs or foundation models",
    "2.1": "Exploring and preprocessing data for ML",
    "2.2": "Prototyping models in notebooks",
    "2.3": "Tracking and running ML experiments",
    "3.1": "Building models",
    "3.2": "Training models",
    "3.3": "Choosing hardware for training",
    "4.1": "Serving models",
    "4.2": "Scaling online model serving",
    "5.1": "Developing end-to-end ML pipelines",
    "5.2": "Automating model retraining",
    "6.1": "Identifying risks to AI solutions",
    "6.2": "Monitoring, testing and troubleshooting AI solutions",
}
# The exam's domains and their approximate share of the exam, in percent (the guide's "~").
DOMAINS = {
    "1": ("Architecting low-code AI solutions", 13),
    "2": ("Collaborating within and across teams to manage data and models", 16),
    "3": ("Scaling prototypes into ML models", 21),
    "4": ("Serving and scaling models", 20),
    "5": ("Automating and orchestrating ML pipelines", 18),
    "6": ("Monitoring AI solutions", 13),
}
ID_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
MAX_FILE_BYTES = 500_000  # nine times the largest shipped file (55 kB)
MAX_DEPTH = 10  # lists and mappings inside each other; the formats need 5
MAX_VALUES = 10_000  # texts, lists and mappings in one file; the largest shipped has 929
MAX_TEXT = 3000  # any text without its own limit: one Slack section block
_HOST = re.compile(r"^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # any but tab and newline


class Item(dict):
    """A YAML mapping that knows the (1-based) line it starts on, and the line of each key."""

    line: int = 1
    key_lines: dict[object, int]  # set by the loader


class _Refused(Exception):
    """A file that cannot be read safely, and the line where that shows."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line, self.message = line, message


class _Constructing:
    """Constructing whose mappings are `Item`s (see `_construct_item`); bad dates are named."""

    duplicates: list[tuple[int, str]]

    def construct_object(self, node: yaml.Node, deep: bool = False) -> object:
        """A value; one Python cannot build (a date like 2026-13-45) is named at its line."""
        try:
            return super().construct_object(node, deep=deep)  # type: ignore[misc]
        except (ValueError, OverflowError) as error:
            raise _Refused(
                node.start_mark.line + 1,
                f"'{clipped(str(node.value))}' is not a real date or number; "
                "fix it, or quote it to keep it as text",
            ) from error


class _Checked(_Constructing):
    """Composing that refuses aliases and deep nesting as it composes.

    The checks run on each node before it is composed, so nothing deeper than MAX_DEPTH is ever
    built (no recursion error) and an alias is never expanded. They need only the parser's
    events, so the same checks run over PyYAML's pure-Python parser and over libyaml's.
    """

    depth: int
    values: int

    def _start_checks(self) -> None:
        self.depth = self.values = 0
        self.duplicates = []

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        event = self.peek_event()  # type: ignore[attr-defined]
        line = event.start_mark.line + 1
        if event.anchor is not None:  # `&name` before a value, or an alias `*name`
            raise _Refused(line, "anchors and aliases are not allowed; write the text out")
        self.values += 1
        if self.values > MAX_VALUES:
            raise _Refused(
                line, f"more than {MAX_VALUES:,} values in one file; split it into several files"
            )
        if not isinstance(event, yaml.CollectionStartEvent):
            return super().compose_node(parent, index)  # type: ignore[misc]
        if self.depth == MAX_DEPTH:
            raise _Refused(
                line,
                f"lists and mappings nested more than {MAX_DEPTH} deep here; "
                "content needs at most 5 levels, so flatten it",
            )
        self.depth += 1
        try:
            return super().compose_node(parent, index)  # type: ignore[misc]
        finally:
            self.depth -= 1


class _LineLoader(_Checked, yaml.SafeLoader):
    """PyYAML's pure-Python parser: the reference, and the one whose error messages we show."""

    def __init__(self, text: str) -> None:
        yaml.SafeLoader.__init__(self, text)
        self._start_checks()


try:  # libyaml's parser, when PyYAML was built with it
    from yaml._yaml import CParser as _CParser
except ImportError:  # pragma: no cover - every wheel we install has it
    _CParser = None  # type: ignore[assignment,misc]
_FastLineLoader: type | None = None

if _CParser is not None:

    class _CLineLoader(
        _Checked,
        yaml.composer.Composer,
        _CParser,
        yaml.constructor.SafeConstructor,
        yaml.resolver.Resolver,
    ):
        """libyaml's parser under the same composer, checks and constructor: about ten times
        faster, with the same marks (so the same line numbers). Events come from C; composing
        stays in Python (`Composer` comes before `CParser`), so every check above still runs.
        """

        def __init__(self, text: str) -> None:
            _CParser.__init__(self, text)
            yaml.composer.Composer.__init__(self)
            yaml.constructor.SafeConstructor.__init__(self)
            yaml.resolver.Resolver.__init__(self)
            self._start_checks()

    class _CTreeLoader(
        _Constructing, _CParser, yaml.constructor.SafeConstructor, yaml.resolver.Resolver
    ):
        """libyaml composing too, for text that cannot hold an anchor or alias (no `&`, no
        `*`): the node tree is checked for depth and size (`_check_tree`) before anything is
        constructed. libyaml itself refuses nesting past 1,000 levels, so composing is bounded.
        """

        def __init__(self, text: str) -> None:
            _CParser.__init__(self, text)
            yaml.constructor.SafeConstructor.__init__(self)
            yaml.resolver.Resolver.__init__(self)
            self.duplicates = []

    _FastLineLoader = _CLineLoader


def _construct_item(loader: _LineLoader, node: yaml.MappingNode) -> Item:
    # (_CLineLoader's instances quack the same: same checks, same constructor)
    """The mapping as an `Item`; a key written twice keeps its first value and is recorded."""
    item = Item()
    item.line = node.start_mark.line + 1
    item.key_lines = first = dict[object, int]()
    for key_node, value_node in node.value:
        line = key_node.start_mark.line + 1
        if key_node.tag == "tag:yaml.org,2002:merge":
            raise _Refused(line, "merge keys (<<) are not allowed; write the fields out")
        key = loader.construct_object(key_node, deep=True)
        if not isinstance(key, Hashable):
            raise yaml.constructor.ConstructorError(
                None, None, "found unhashable key", key_node.start_mark
            )
        if key in first:
            shown = clipped(str(key))
            loader.duplicates.append(
                (line, f"duplicate key '{shown}' (first at line {first[key]}); keep one")
            )
            continue
        first[key] = line
        item[key] = loader.construct_object(value_node, deep=True)
    return item


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_item)
if _CParser is not None:
    for _loader in (_CLineLoader, _CTreeLoader):
        _loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_item)


def yaml_files(folder: Path) -> list[Path]:
    """The content files of a folder, in a stable order (files starting with `_` are skipped)."""
    return sorted(p for p in folder.glob("*.yaml") if not p.name.startswith("_"))


def read_items(path: Path, key: str, problems: list[Problem]) -> Iterator[Item]:
    """Yield the mappings listed under `key` in one file; record what stops us reading it."""
    name = display_name(path)
    try:
        data, duplicates = _parse(path)
    except _Refused as refused:
        problems.append(FileProblem(name, refused.line, refused.message))
        return
    problems.extend(Problem(name, line, message) for line, message in duplicates)
    if not isinstance(data, dict) or not isinstance(data.get(key), list):
        problems.append(Problem(name, 1, f"expected a mapping with a list under '{key}:'"))
        return
    for other in data:
        if other != key:
            line = getattr(data, "key_lines", {}).get(other, 1)
            message = f"unknown top-level key '{clipped(str(other))}'; a file holds '{key}:'"
            problems.append(Problem(name, line, message))
    for position, item in enumerate(data[key], start=1):
        if not isinstance(item, Item):
            line = getattr(data, "line", 1)
            problems.append(Problem(name, line, f"item {position} under '{key}:' is not a mapping"))
            continue
        yield item


def _parse(path: Path) -> tuple[object, list[tuple[int, str]]]:
    """A file's data and its duplicate keys as (line, message); `_Refused` if it cannot be."""
    text = _read_text(path)
    if _FastLineLoader is not None:
        try:
            if "&" in text or "*" in text:  # maybe an anchor or alias: checked while composing
                return _load(_FastLineLoader, text)
            return _load_tree(text)
        except (yaml.YAMLError, _Refused):
            pass  # the pure-Python parser says what is wrong, and where, in our words
    try:
        return _load(_LineLoader, text)
    except yaml.reader.ReaderError as error:
        line, column = _line_column(text, error.position)
        raise _Refused(
            line,
            f"control character U+{error.character:04X} at column {column}; delete it "
            "(tabs and line breaks are fine)",
        ) from error
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line = mark.line + 1 if mark else 1
        what = error.problem or "malformed YAML"
        raise _Refused(line, f"YAML syntax error: {what}; fix the syntax there") from error


def _load(loader_class: type, text: str) -> tuple[object, list[tuple[int, str]]]:
    loader = loader_class(text)
    try:
        return loader.get_single_data(), loader.duplicates
    finally:
        loader.dispose()


def _load_tree(text: str) -> tuple[object, list[tuple[int, str]]]:
    """Compose in C, check the tree, then construct (text without `&` or `*` only)."""
    loader = _CTreeLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None, []
        _check_tree(node)
        return loader.construct_document(node), loader.duplicates
    finally:
        loader.dispose()


def _check_tree(root: yaml.Node) -> None:
    """Refuse what `_Checked` refuses while composing: too many values, or nesting too deep.

    Nodes are visited in document order (as they are composed), so the first refusal is the
    same; its message is the pure-Python reader's, which the caller falls back to.
    """
    values, stack = 0, [(root, 0)]
    while stack:
        node, depth = stack.pop()
        values += 1
        if values > MAX_VALUES or (isinstance(node, yaml.CollectionNode) and depth == MAX_DEPTH):
            raise _Refused(node.start_mark.line + 1, "too many values, or nested too deep")
        if isinstance(node, yaml.SequenceNode):
            stack.extend((child, depth + 1) for child in reversed(node.value))
        elif isinstance(node, yaml.MappingNode):
            pairs = reversed(node.value)
            stack.extend((child, depth + 1) for pair in pairs for child in reversed(pair))


def _read_text(path: Path) -> str:
    """The file as text, read only if it is a regular file of at most MAX_FILE_BYTES."""
    try:
        info = path.stat()
        if stat.S_ISDIR(info.st_mode):
            raise _Refused(1, "this is a folder, not a file; rename it so it does not end in .yaml")
        if not stat.S_ISREG(info.st_mode):
            raise _Refused(1, "not a regular file (a pipe or device?); make it a plain text file")
        with path.open("rb") as file:
            data = file.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise _Refused(1, _unreadable(path, error)) from error
    if len(data) > MAX_FILE_BYTES:
        raise _Refused(
            1,
            f"file is larger than {MAX_FILE_BYTES:,} bytes; split it into several files",
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise _Refused(
            line, f"not UTF-8 text (byte 0x{data[error.start]:02x}); save the file as UTF-8"
        ) from error


def _unreadable(path: Path, error: OSError) -> str:
    """What stops the file being read, and how to fix it."""
    if error.errno == errno.ELOOP:
        return "cannot read: a symbolic link that loops back on itself; point it at a file"
    if error.errno == errno.ENOENT and path.is_symlink():
        return "cannot read: a symbolic link to a file that does not exist; fix or remove it"
    if isinstance(error, PermissionError):
        return "cannot read: permission denied; make the file readable (chmod a+r)"
    reason = error.strerror or type(error).__name__
    return f"cannot read: {reason}; check that it is a readable text file"


def _line_column(text: str, position: int) -> tuple[int, int]:
    """The 1-based line and column of a character index."""
    start = text.rfind("\n", 0, position) + 1
    return text.count("\n", 0, position) + 1, position - start + 1


def display_name(path: Path) -> str:
    """A path as people want to read it: relative to the working folder when it can be.

    Only the folder is resolved, so a symbolic link (even one that loops) is named as itself.
    """
    try:
        where = path.parent.resolve() / path.name
        return str(where.relative_to(Path.cwd().resolve()))
    except (OSError, RuntimeError, ValueError):
        return str(path)


def clipped(text: str, limit: int = 60) -> str:
    """A value short enough to quote in a message."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def sent_length(text: str) -> int:
    """Characters as Slack counts them: it receives `&` as `&amp;`, `<` and `>` as `&lt;` `&gt;`."""
    return len(text) + 4 * text.count("&") + 3 * (text.count("<") + text.count(">"))


def url_problem(url: str) -> str:
    """Why `url` is not a well-formed https address; "" when it is one."""
    if any(c.isspace() for c in url):
        return "it contains spaces"
    try:
        parts = urllib.parse.urlsplit(url)
        parts.port  # noqa: B018 - reading it checks the port is a number
    except ValueError:
        return "it does not parse as a URL"
    if parts.scheme != "https":
        return "it must start with https://"
    if "@" in parts.netloc:
        return "it has a user name before '@', which hides the real host"
    if not _HOST.match(parts.hostname or ""):
        return "it has no host name like cloud.google.com"
    return ""


class Fields:
    """Typed reads of one item's fields; every problem is recorded against the item's line.

    `limits` gives the most characters each field may have (each text, for a list); a text
    without a limit of its own gets MAX_TEXT.
    """

    def __init__(
        self,
        item: Item,
        file: str,
        problems: list[Problem],
        limits: Mapping[str, int] | None = None,
    ) -> None:
        self.item, self.file, self.problems = item, file, problems
        self.limits = limits or {}
        ident = item.get("id")
        self.label = f"'{clipped(ident)}'" if isinstance(ident, str) else "this item"

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
        self.check_text(key, value.strip())
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
        for text in value:
            self.check_text(key, text.strip(), f"a text in '{key}'")
        return tuple(v.strip() for v in value)

    def check_text(self, key: str, text: str, what: str = "") -> None:
        """Record a text that is too long for Slack, or holds a control character."""
        limit = self.limits.get(key, MAX_TEXT)
        length = sent_length(text)
        what = what or f"'{key}'"
        if length > limit:
            counted = " (& counts 5, < and > 4)" if length != len(text) else ""
            self.problem(
                f"{self.label}: {what} has {length} characters{counted}; keep it to {limit}"
            )
        control = _CONTROL.search(text)
        if control:
            code = ord(control.group())
            self.problem(f"{self.label}: {what} holds control character U+{code:04X}; remove it")

    def ident(self) -> str:
        value = self.text("id")
        if value and not ID_PATTERN.match(value):
            self.problem(f"id '{clipped(value)}' must be lowercase letters, digits and dashes")
        return value

    def section(self) -> str:
        value = self.text("section")
        if value and value not in SECTIONS:
            known = ", ".join(SECTIONS)
            self.problem(f"{self.label}: section '{clipped(value)}' is not one of {known}")
        return value

    def urls(self, key: str) -> tuple[str, ...]:
        found = self.texts(key, minimum=1)
        for url in found:
            why = url_problem(url)
            if why:
                self.problem(
                    f"{self.label}: source '{clipped(url, 100)}' is not a well-formed https URL "
                    f"({why}); write the page's full address, like https://cloud.google.com/…"
                )
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
                f"{self.label}: '{key}' is '{clipped(value)}', expected one of {', '.join(allowed)}"
            )
        return value


def unknown_keys(item: Item, known: set[str]) -> list[str]:
    """Keys an item has that the format does not define (usually typos)."""
    return sorted(clipped(str(k)) for k in item if k not in known)


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
