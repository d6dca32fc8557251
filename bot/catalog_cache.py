"""The checked content, kept between runs while the files and the code that reads them agree.

Reading and checking knowledge/ and quizzes/ is most of a `tutor ask` (about 150 ms of YAML
and field checks); a content that loaded without a problem is kept as plain values
(`marshal`, no code) in the cache folder, under a hash of every content file's name and bytes,
the working folder (entries name their file relative to it) and the source of the modules that
read and check them. Any change to any of those is another hash, so a file being edited is
always read and checked afresh; only the newest content is kept.
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import os
from dataclasses import astuple, fields
from pathlib import Path

from bot import catalog, content, knowledge, quiz
from bot.catalog import Catalog, load_catalog
from bot.knowledge import Entry, KnowledgeBase, WatchOut
from bot.quiz import Question, QuestionBank
from bot.textnorm import cache_folder


def cached_catalog(root: Path) -> Catalog:
    """`load_catalog(root)`, read back from the cache when nothing it depends on changed."""
    try:
        path = _path(root)
    except OSError:  # a content file cannot be read: load_catalog says which, and how to fix it
        path = None
    if path is not None:
        with contextlib.suppress(OSError, ValueError, EOFError, TypeError):
            return _catalog(marshal.loads(path.read_bytes()))
    loaded = load_catalog(root)  # a ContentError is raised here, and nothing is kept
    if path is not None:
        with contextlib.suppress(OSError, ValueError):
            path.parent.mkdir(parents=True, exist_ok=True)
            spare = path.with_suffix(f".{os.getpid()}.tmp")
            spare.write_bytes(marshal.dumps(_values(loaded)))
            os.replace(spare, path)
            for older in path.parent.glob("catalog-*.marshal"):
                if older != path:
                    older.unlink(missing_ok=True)
    return loaded


def _values(loaded: Catalog) -> tuple:
    entries = tuple(astuple(e) for e in loaded.knowledge.entries)  # WatchOuts become tuples
    return entries, tuple(astuple(q) for q in loaded.questions.questions)


def _catalog(values: tuple) -> Catalog:
    entries, questions = values
    return Catalog(
        KnowledgeBase(tuple(_entry(e) for e in entries)),
        QuestionBank(tuple(Question(*q) for q in questions)),
    )


_WATCH_OUT = [f.name for f in fields(Entry)].index("watch_out")


def _entry(values: tuple) -> Entry:
    found = list(values)
    found[_WATCH_OUT] = tuple(WatchOut(*w) for w in found[_WATCH_OUT])
    return Entry(*found)


def _path(root: Path) -> Path | None:
    folder = cache_folder()
    if folder is None:
        return None
    digest = hashlib.sha256(str(Path.cwd()).encode())
    for module in (catalog, content, knowledge, quiz):
        digest.update(Path(module.__file__ or "").read_bytes())
    for sub in ("knowledge", "quizzes"):
        for file in content.yaml_files(root / sub):
            digest.update(f"\0{file}\0".encode())
            digest.update(file.read_bytes())
    return folder / f"catalog-{digest.hexdigest()[:32]}.marshal"
