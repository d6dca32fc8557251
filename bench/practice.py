"""Latency of practice-question mode (`practice.solve`) on pasted exam-style items, beside the
plain baseline that picks the choice most like the stem (rapidfuzz WRatio), in one process.

The items are the practice tuning halves (tests/eval/*practice_tune.yaml), as a learner pastes
them: the stem, then one line per lettered choice. Run with `python -m bench.practice`.
"""

from __future__ import annotations

import statistics
from pathlib import Path

from bench.matching import row, timings
from bot.evaluation import Case, _baseline_pick, read_cases
from bot.knowledge import load_knowledge
from bot.matching import Matcher
from bot.practice import solve


def main() -> None:
    matcher = Matcher(load_knowledge(Path("knowledge")))
    cases = read_cases(sorted(Path("tests/eval").glob("*practice_tune.yaml")))
    texts = [c.question for c in cases]
    ours = timings(lambda text: solve(matcher, text), texts)
    plain = timings(lambda text: _baseline_pick(Case(text, None, "practice")), texts)
    print(f"practice-question latency per item (ms), {len(texts)} items: median  p90  p99")
    print(f"  study tutor  {row(ours)}")
    print(f"  WRatio       {row(plain)}")
    ratio = statistics.median(ours) / statistics.median(plain)
    print(f"  median ratio study tutor / WRatio: {ratio:.1f}x")


if __name__ == "__main__":
    main()
