"""The shipped content keeps its conventions: guarded by tests, not by review."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from rapidfuzz import fuzz, utils

from bot.catalog import check_content, coverage_table
from bot.content import SECTIONS
from bot.knowledge import MIN_REQUIREMENTS
from tests.conftest import SHIPPED_ROOT

CATALOG, PROBLEMS = check_content(SHIPPED_ROOT)
ENTRIES = CATALOG.knowledge.entries
QUESTIONS = CATALOG.questions.questions
NEAR_DUPLICATE = 85  # rapidfuzz token_set_ratio at or above which two questions are one


def test_shipped_content_passes_check():
    """`tutor check` has nothing to say about the shipped files."""
    assert [str(p) for p in PROBLEMS] == []


def test_enough_content():
    """The chapter is covered: at least 45 entries and 80 questions."""
    assert len(ENTRIES) >= 45
    assert len(QUESTIONS) >= 80


@pytest.mark.parametrize("section", sorted(SECTIONS))
def test_every_section_has_entries_and_questions(section):
    """No exam section is left without something to read and something to answer."""
    assert any(e.section == section for e in ENTRIES)
    assert sum(q.section == section for q in QUESTIONS) >= 5


def test_every_entry_has_sources_phrasings_and_a_date():
    """Each entry cites vendor documentation and says how learners describe the need."""
    vendor = (
        "https://cloud.google.com/",
        "https://docs.cloud.google.com/",
        "https://www.tensorflow.org/",
        "https://keras.io/",
        "https://developers.google.com/",
        "https://ai.google.dev/",
    )
    for entry in ENTRIES:
        assert len(entry.requirements) >= MIN_REQUIREMENTS, entry.id
        assert any(s.startswith(vendor) for s in entry.sources), entry.id
        assert entry.checked, entry.id


def test_watch_outs_point_both_ways():
    """If A warns about B, B warns about A, so a learner meets the mix-up from either side."""
    links = {(e.id, w.id) for e in ENTRIES for w in e.watch_out}
    one_way = sorted(f"{a} -> {b}" for a, b in links if (b, a) not in links)
    assert one_way == []


def test_every_question_links_to_knowledge():
    """Each question names the entries it exercises, so a wrong answer can say what to read."""
    ids = {e.id for e in ENTRIES}
    for question in QUESTIONS:
        assert question.entries and set(question.entries) <= ids, question.id


def test_correct_answers_are_spread_over_positions():
    """No position holds the right answer much more often than chance would."""
    four_choice = [q for q in QUESTIONS if len(q.choices) == 4]
    counts = Counter(q.answer for q in four_choice)
    expected = len(four_choice) / 4
    assert all(abs(counts[letter] - expected) <= 0.25 * expected for letter in "ABCD"), counts


def test_no_near_duplicate_questions():
    """Two questions that say nearly the same thing are one question."""
    processed = [(q.id, utils.default_process(q.question)) for q in QUESTIONS]
    pairs = [
        (a, b, score)
        for (a, x), (b, y) in itertools.combinations(processed, 2)
        if (score := fuzz.token_set_ratio(x, y, processor=None, score_cutoff=NEAR_DUPLICATE))
    ]
    assert pairs == []


def test_chapter_quick_checks_are_in_the_bank():
    """The chapter's five quick-check questions are shipped."""
    ids = {q.id for q in QUESTIONS}
    assert {i for i in ids if i.startswith("q-chapter-")} == {
        "q-chapter-1-own-code",
        "q-chapter-2-search-hyperparameters",
        "q-chapter-3-adapt-foundation-model",
        "q-chapter-4-gpu-oom",
        "q-chapter-5-explain-decisions",
    }


def test_renamed_or_deprecated_entries_say_so():
    """An entry marked renamed or deprecated explains what changed."""
    for entry in ENTRIES:
        if entry.status != "current":
            assert len(entry.status_note) > 20, entry.id


def test_coverage_table_in_readme_matches_the_files():
    """knowledge/README.md carries the coverage table that the files produce today."""
    readme = (SHIPPED_ROOT / "knowledge" / "README.md").read_text(encoding="utf-8")
    assert coverage_table(CATALOG) in readme, (
        "run `tutor coverage` and paste it into knowledge/README.md"
    )
