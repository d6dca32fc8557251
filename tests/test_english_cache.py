"""The spell-checker's English words are read once, then from a plain-text cache file."""

from __future__ import annotations

from bot import textnorm


def test_the_cached_words_are_the_spell_checkers(tmp_path, monkeypatch):
    """The first read writes the cache; the next reads it back, the same words."""
    monkeypatch.setenv("TUTOR_CACHE", str(tmp_path))
    textnorm.english_words.cache_clear()
    try:
        first = textnorm.english_words()
        (cached,) = tmp_path.glob("english-*.txt")
        textnorm.english_words.cache_clear()
        assert textnorm.english_words() == first and "training" in first
        assert cached.read_text(encoding="utf-8").split("\n") == sorted(first)
    finally:
        textnorm.english_words.cache_clear()


def test_an_unwritable_cache_still_gives_the_words(tmp_path, monkeypatch):
    """A cache folder that cannot be made (a file is in the way) only costs the slow read."""
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    monkeypatch.setenv("TUTOR_CACHE", str(blocker / "cache"))
    textnorm.english_words.cache_clear()
    try:
        assert "training" in textnorm.english_words()
    finally:
        textnorm.english_words.cache_clear()
