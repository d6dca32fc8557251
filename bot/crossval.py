"""Cross-validation over the knowledge base's own phrasings, and knob tuning without eval sets.

Every entry's requirement phrasings are split into `k` folds by a hash of their text, so where
a writer puts a phrasing in the list cannot decide its fold. For each fold a matcher is built
without those phrasings and asked each of them: a phrasing that lands on another entry is one a
learner could also get wrong, and the share that land right measures how well the phrasings
generalise to wordings the knowledge base has not seen. No evaluation question is involved, so
the ranking knobs are chosen here (`tune`) and the evaluation sets stay a fair test.
"""

from __future__ import annotations

import dataclasses
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from bot.knowledge import KnowledgeBase
from bot.matching import Knobs, Matcher

# Values `tune` tries for each knob that orders candidates (not confidence): the ranking, and
# when a mix-up trap swaps the named service for its partner.
SEARCH: dict[str, tuple[float, ...]] = {
    "k1": (0.1, 0.15, 0.2, 0.3, 0.5),
    "name_field": (0.0, 0.05, 0.1, 0.2, 0.3),
    "pair_weight": (0.3, 0.45, 0.6, 0.8, 1.0),
    "phrase_weight": (0.0, 0.05, 0.1, 0.2, 0.3),
    "phrase_top": (1, 3, 5, 8),
    "trap_margin": (0.2, 0.4, 0.6, 1.0),
    "trap_margin_challenge": (-0.3, -0.1, 0.0, 0.1, 0.3),
    "trap_min_need": (0.1, 0.25, 0.4),
    "proposal_min": (0.3, 0.5, 0.7),
}


@dataclass(frozen=True)
class Miss:
    phrasing: str
    expected: str
    got: str
    confidence: int


@dataclass(frozen=True)
class CrossVal:
    questions: int
    top1: float
    top3: float
    misses: tuple[Miss, ...]  # most confident first


def folds(knowledge: KnowledgeBase, k: int) -> list[tuple[KnowledgeBase, list[tuple[str, str]]]]:
    """k (knowledge without one fold, the held-out (phrasing, entry id) pairs) pairs."""
    split = []
    for fold in range(k):
        entries, held = [], []
        for entry in knowledge.entries:
            kept = tuple(r for r in entry.requirements if _fold(r, k) != fold)
            held += [(r, entry.id) for r in entry.requirements if _fold(r, k) == fold]
            entries.append(dataclasses.replace(entry, requirements=kept))
        split.append((KnowledgeBase(tuple(entries)), held))
    return split


def crossval(knowledge: KnowledgeBase, knobs: Knobs | None = None, *, k: int = 5) -> CrossVal:
    """Top-1 and top-3 on held-out phrasings, whatever the confidence (ranking only)."""
    # threshold and related_min at 0: every candidate is offered, so top-3 sees the ranking
    knobs = dataclasses.replace(knobs or Knobs(), threshold=0, related_min=0)
    right = near = asked = 0
    misses = []
    for kept, held in folds(knowledge, k):
        matcher = Matcher(kept, knobs)
        for phrasing, expected in held:
            lookup = matcher.lookup(phrasing)
            ids = [m.entry.id for m in lookup.ranked]
            asked += 1
            right += ids[:1] == [expected]
            near += expected in ids[:3]
            if ids[:1] != [expected]:
                misses.append(Miss(phrasing, expected, ids[0] if ids else "", lookup.confidence))
    misses.sort(key=lambda m: -m.confidence)
    return CrossVal(asked, right / max(1, asked), near / max(1, asked), tuple(misses))


def tune(
    knowledge: KnowledgeBase,
    start: Knobs | None = None,
    *,
    search: dict[str, Sequence[float]] | None = None,
    rounds: int = 2,
    k: int = 5,
    min_gain: float = 0.002,
    progress: Callable[[str], None] = lambda _: None,
) -> tuple[Knobs, float]:
    """Coordinate search over the ranking knobs for the best cross-validated top-1.

    A change must gain more than `min_gain` (0.2%, three phrasings in 1,600) to be kept, so the
    search does not follow noise.
    """
    best = start or Knobs()
    best_score = crossval(knowledge, best, k=k).top1
    grid = search or SEARCH
    per_round = sum(len(values) for values in grid.values())
    progress(f"start: top-1 {best_score:.1%}; up to {rounds * per_round} settings to try")
    tried = 0
    for round_number in range(1, rounds + 1):
        improved = False
        for name, values in grid.items():
            for value in values:
                tried += 1
                if getattr(best, name) == value:
                    continue
                trial = dataclasses.replace(best, **cast(dict[str, Any], {name: value}))
                score = crossval(knowledge, trial, k=k).top1
                kept = score > best_score + min_gain
                if kept:
                    best, best_score, improved = trial, score, True
                progress(
                    f"round {round_number}, {tried}/{rounds * per_round}: {name}={value} "
                    f"top-1 {score:.1%}{' (kept)' if kept else ''}"
                )
        if not improved:
            break
    return best, best_score


def _fold(phrasing: str, k: int) -> int:
    """A phrasing's fold, from its text: stable across runs and edits, unrelated to its position."""
    return zlib.crc32(phrasing.encode("utf-8")) % k
