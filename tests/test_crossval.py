"""Cross-validation over the knowledge's own phrasings, and knob tuning that needs no eval set."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys

from bot.crossval import crossval, folds, tune
from bot.knowledge import KnowledgeBase
from bot.matching import Knobs


def test_every_phrasing_is_held_out_exactly_once(catalog):
    """Each fold hides its phrasings from the knowledge it is asked of; together they cover all."""
    knowledge = catalog.knowledge
    held_all = []
    for kept, held in folds(knowledge, 5):
        kept_phrasings = {r for e in kept.entries for r in e.requirements}
        assert not kept_phrasings & {phrasing for phrasing, _ in held}
        held_all += held
    every = [(r, e.id) for e in knowledge.entries for r in e.requirements]
    assert sorted(held_all) == sorted(every)


def test_a_phrasings_fold_follows_its_text_not_its_position(catalog):
    """Reordering phrasings moves none between folds, so writers cannot place them to score."""
    knowledge = catalog.knowledge
    reordered = KnowledgeBase(
        tuple(dataclasses.replace(e, requirements=e.requirements[::-1]) for e in knowledge.entries)
    )
    held = [sorted(h) for _, h in folds(knowledge, 5)]
    assert [sorted(h) for _, h in folds(reordered, 5)] == held


def test_crossval_counts_every_phrasing_and_lists_the_ones_that_land_elsewhere(catalog):
    """A phrasing worded like another entry's phrasings is reported as a miss with both ids."""
    entries = list(catalog.knowledge.entries)
    automl = entries[0]
    confusing = "run my own PyTorch training code and container with full control"
    entries[0] = dataclasses.replace(automl, requirements=(*automl.requirements, confusing))
    result = crossval(KnowledgeBase(tuple(entries)))
    assert result.questions == sum(len(e.requirements) for e in entries)
    assert 0 < result.top1 < 1 and result.top1 <= result.top3
    assert [(m.expected, m.got) for m in result.misses if m.phrasing == confusing] == [
        ("automl", "vertex-custom-training")
    ]


def test_tune_never_does_worse_than_where_it_started(catalog):
    """The search keeps the start unless a tried value scores better, and tries only listed values."""
    start = dataclasses.replace(Knobs(), k1=2.0, phrase_top=1)
    search = {"k1": (0.1, 0.5), "phrase_top": (3,)}
    knobs, score = tune(catalog.knowledge, start, search=search, rounds=1)
    assert score >= crossval(catalog.knowledge, start).top1
    assert score == crossval(catalog.knowledge, knobs).top1
    assert knobs.k1 in (2.0, 0.1, 0.5) and knobs.phrase_top in (1, 3)


def test_tutor_eval_crossval_prints_the_figures(content_root, tmp_path):
    """`tutor eval --crossval` reports top-1 and top-3 over the phrasings, no eval file needed."""
    result = subprocess.run(
        [sys.executable, "-m", "bot", "eval", "--crossval"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "TUTOR_CONTENT": str(content_root), "TUTOR_DB": str(tmp_path / "t.db")},
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("15 phrasings, each asked of a matcher built without it")
    assert lines[1].strip().startswith("top-1 ") and "top-3 " in lines[1]
