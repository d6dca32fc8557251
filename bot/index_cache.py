"""The matcher's index, built once and reused while the knowledge and the code are unchanged.

Building the index normalises every phrasing (about 100 ms for the shipped knowledge, a sixth
of a `tutor ask`); reading it back takes a few milliseconds. The file is named by a hash of
everything the index depends on: each entry's id, names and phrasings in order, the two
knobs, and the source of the modules that build it (bot/index.py, bot/textnorm.py). It holds
only plain values (`marshal`, no code), and anything wrong with it means it is rebuilt. Only
the newest is kept. Only the tutor's own matcher uses it (`Matcher(cached=True)`); evaluation
and cross-validation build their many matchers fresh.
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import os
from pathlib import Path

from bot import index as index_module
from bot import textnorm
from bot.index import Index, build_index
from bot.knowledge import Entry

_FIELDS = (
    "position",
    "names",
    "name_phrases",
    "shared_names",
    "longest_name",
    "one_word",
    "phrasings",
    "postings",
    "idf",
    "frequency",
    "vocabulary_by_length",
    "max_idf",
)


def cached_index(entries: tuple[Entry, ...], k1: float, name_field: float) -> Index:
    """The index of `entries`, from the cache folder when an identical one was built before."""
    path = _path(entries, k1, name_field)
    if path is not None:
        with contextlib.suppress(OSError, ValueError, EOFError, TypeError):
            values = marshal.loads(path.read_bytes())
            return _index(entries, values)
    built = build_index(entries, k1, name_field)
    if path is not None:
        with contextlib.suppress(OSError, ValueError):
            path.parent.mkdir(parents=True, exist_ok=True)
            spare = path.with_suffix(f".{os.getpid()}.tmp")
            spare.write_bytes(marshal.dumps(_values(built)))
            os.replace(spare, path)  # whole or not at all, for a process reading it now
            for older in path.parent.glob("index-*.marshal"):  # one knowledge base is kept
                if older != path:
                    older.unlink(missing_ok=True)
    return built


def _values(index: Index) -> tuple:
    values = [getattr(index, name) for name in _FIELDS]
    values[_FIELDS.index("frequency")] = dict(index.frequency)
    return tuple(values)


def _index(entries: tuple[Entry, ...], values: tuple) -> Index:
    from collections import Counter

    if len(values) != len(_FIELDS):
        raise ValueError("an index file of another shape")
    fields = dict(zip(_FIELDS, values, strict=True))
    fields["frequency"] = Counter(fields["frequency"])
    return Index(entries, **fields)


def _path(entries: tuple[Entry, ...], k1: float, name_field: float) -> Path | None:
    folder = textnorm.cache_folder()
    if folder is None:
        return None
    digest = hashlib.sha256()
    for module in (index_module, textnorm):
        digest.update(Path(module.__file__ or "").read_bytes())
    digest.update(str(len(textnorm.english_words())).encode())  # stems consult the word list
    digest.update(repr((k1, name_field)).encode())
    for entry in entries:
        digest.update(repr((entry.id, entry.means, entry.aliases, entry.requirements)).encode())
    return folder / f"index-{digest.hexdigest()[:32]}.marshal"
