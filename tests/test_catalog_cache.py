"""The checked content read back from the cache is the content loaded afresh."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.catalog import load_catalog
from bot.catalog_cache import cached_catalog
from bot.errors import ContentError
from tests.conftest import write_content

ROOT = Path(__file__).resolve().parent.parent


def test_the_shipped_content_reads_back_identically(tmp_path, monkeypatch):
    """Every entry and question, every field, file and line, equal after the round trip."""
    monkeypatch.setenv("TUTOR_CACHE", str(tmp_path))
    fresh = load_catalog(ROOT)
    assert cached_catalog(ROOT) == fresh  # built and kept
    assert cached_catalog(ROOT) == fresh  # read back
    assert len(list(tmp_path.glob("catalog-*.marshal"))) == 1


def test_an_edited_file_is_read_and_checked_again(tmp_path, monkeypatch):
    """After a content file changes, its problems are found: nothing stale is served."""
    monkeypatch.setenv("TUTOR_CACHE", str(tmp_path / "cache"))
    root = write_content(tmp_path / "content")
    cached_catalog(root)
    (quiz,) = (root / "quizzes").glob("*.yaml")
    quiz.write_text(quiz.read_text(encoding="utf-8") + "  - id: broken\n", encoding="utf-8")
    with pytest.raises(ContentError):
        cached_catalog(root)
