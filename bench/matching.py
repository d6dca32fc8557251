"""Latency of `Matcher.lookup` on the evaluation questions, beside the plain WRatio baseline.

Two knowledge bases: the shipped one, and 10,000 synthetic entries made by recombining the
shipped phrasings' words (each synthetic entry borrows most words from one real entry and the
rest from the whole vocabulary, by frequency), so postings lists have realistic lengths.
Run with `python -m bench` or `python -m bench.matching`.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from bot.catalog import Catalog
from bot.evaluation import baseline, read_cases
from bot.knowledge import KnowledgeBase, load_knowledge
from bot.matching import Matcher

SYNTHETIC_ENTRIES = 10_000
BASELINE_SAMPLE = 25  # the baseline takes ~0.5 s a question at 10k entries; time a sample
SEED = 7


def main() -> None:
    knowledge = load_knowledge(Path("knowledge"))
    questions = [c.question for c in read_cases([Path("tests/eval/learner_questions.yaml")])]
    big = synthetic(knowledge, SYNTHETIC_ENTRIES, random.Random(SEED))
    print("matching latency per question (ms): median  p90  p99")
    for label, kb in (("shipped", knowledge), (f"{len(big)} synthetic", big)):
        ours = timings(Matcher(kb).lookup, questions)
        sample = questions if len(kb) < 1000 else questions[:BASELINE_SAMPLE]
        plain = timings(_baseline(kb), sample)
        print(f"  {label:>16}  study tutor  {row(ours)}")
        print(f"  {label:>16}  WRatio       {row(plain)}  ({len(sample)} questions)")
        ratio = statistics.median(plain) / statistics.median(ours)
        print(f"  {label:>16}  median ratio baseline / study tutor: {ratio:.1f}x")


def timings(answer: Callable[[str], object], questions: list[str]) -> list[float]:
    """Milliseconds per question, after one warm-up pass over a few questions."""
    for question in questions[:5]:
        answer(question)
    found = []
    for question in questions:
        start = time.perf_counter_ns()
        answer(question)
        found.append((time.perf_counter_ns() - start) / 1e6)
    return found


def synthetic(knowledge: KnowledgeBase, count: int, rng: random.Random) -> KnowledgeBase:
    """`count` plausible entries built from the shipped entries' words."""
    texts = [[t.split() for t in (*e.requirements, *e.aliases)] for e in knowledge.entries]
    vocabulary = [w for phrasings in texts for p in phrasings for w in p]
    template = knowledge.entries[0]
    entries = []
    for n in range(count):
        base = rng.randrange(len(texts))
        local = [w for p in texts[base] for w in p]

        def phrase(size: int, local: list[str] = local) -> str:
            pick = (rng.choice(local if rng.random() < 0.6 else vocabulary) for _ in range(size))
            return " ".join(pick)

        entries.append(
            replace(
                template,
                id=f"synthetic-{n}",
                means=phrase(6),
                requirements=tuple(phrase(rng.randint(6, 14)) for _ in range(6)),
                aliases=tuple(phrase(rng.randint(1, 3)) for _ in range(3)),
                watch_out=(),
            )
        )
    return KnowledgeBase(tuple(entries))


def _baseline(kb: KnowledgeBase) -> Callable[[str], object]:
    return baseline(Catalog(kb, None))  # type: ignore[arg-type]


def row(times: list[float]) -> str:
    """Median, p90 and p99 of timings in milliseconds, as one aligned row."""
    ordered = sorted(times)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    p99 = ordered[int(0.99 * (len(ordered) - 1))]
    return f"{statistics.median(ordered):7.3f} {p90:7.3f} {p99:7.3f}"


if __name__ == "__main__":
    main()
