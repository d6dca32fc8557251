"""The matcher's index read back from the cache folder is the index built afresh."""

from __future__ import annotations

from bot.catalog import load_catalog
from bot.index import build_index
from bot.index_cache import cached_index
from bot.matching import Matcher
from tests.conftest import write_content


def test_a_cached_index_equals_a_fresh_one_and_answers_alike(tmp_path, monkeypatch):
    """Built once, then read back: same fields, same lookups; one file kept."""
    monkeypatch.setenv("TUTOR_CACHE", str(tmp_path / "cache"))
    knowledge = load_catalog(write_content(tmp_path / "content")).knowledge
    fresh = build_index(knowledge.entries, 1.2, 0.5)
    first = cached_index(knowledge.entries, 1.2, 0.5)
    again = cached_index(knowledge.entries, 1.2, 0.5)
    assert again == fresh and first == fresh
    assert len(list((tmp_path / "cache").glob("index-*.marshal"))) == 1
    question = "which service for no-code training"
    assert Matcher(knowledge, cached=True).lookup(question) == Matcher(knowledge).lookup(question)


def test_other_knobs_or_a_broken_file_mean_a_fresh_build(tmp_path, monkeypatch):
    """A different knob is another file; a damaged file is rebuilt, not trusted."""
    monkeypatch.setenv("TUTOR_CACHE", str(tmp_path / "cache"))
    knowledge = load_catalog(write_content(tmp_path / "content")).knowledge
    cached_index(knowledge.entries, 1.2, 0.5)
    (path,) = (tmp_path / "cache").glob("index-*.marshal")
    path.write_bytes(b"not marshal")
    assert cached_index(knowledge.entries, 1.2, 0.5) == build_index(knowledge.entries, 1.2, 0.5)
    assert cached_index(knowledge.entries, 2.0, 0.5) == build_index(knowledge.entries, 2.0, 0.5)
