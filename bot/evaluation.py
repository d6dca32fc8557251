"""`tutor eval`: answer quality on our evaluation set, beside a plain rapidfuzz baseline.

The baseline is what a first attempt looks like: rapidfuzz WRatio of the question against every
phrasing, the best phrasing's entry wins, and it abstains below `BASELINE_CUTOFF`. Both run in
the same process over the same questions, so the figures compare like with like.
"""

from __future__ import annotations

import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import yaml
from rapidfuzz import fuzz, process, utils

from bot.catalog import Catalog
from bot.errors import TutorError
from bot.matching import Matcher

BASELINE_CUTOFF = 80.0  # WRatio below which the baseline abstains
DEFAULT_FILES = ("tests/eval/learner_questions.yaml",)


@dataclass(frozen=True)
class Case:
    question: str
    expect: str | None
    kind: str


@dataclass(frozen=True)
class Outcome:
    case: Case
    best: str | None
    top3: tuple[str, ...]
    confidence: int
    nanoseconds: int

    @property
    def right(self) -> bool:
        return self.best == self.case.expect


@dataclass
class Report:
    """Accuracy and latency of one matcher over a set of cases."""

    name: str
    outcomes: list[Outcome] = field(default_factory=list)

    def _in_scope(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.case.expect is not None]

    @property
    def top1(self) -> float:
        cases = self._in_scope()
        return sum(o.right for o in cases) / len(cases) if cases else 0.0

    @property
    def top3(self) -> float:
        cases = self._in_scope()
        return sum(o.case.expect in o.top3 for o in cases) / len(cases) if cases else 0.0

    @property
    def abstention(self) -> float:
        cases = [o for o in self.outcomes if o.case.expect is None]
        return sum(o.best is None for o in cases) / len(cases) if cases else 0.0

    def by_kind(self) -> dict[str, float]:
        groups: dict[str, list[Outcome]] = defaultdict(list)
        for outcome in self.outcomes:
            groups[outcome.case.kind].append(outcome)
        return {k: sum(o.right for o in v) / len(v) for k, v in sorted(groups.items())}

    def latency_us(self) -> tuple[float, float, float]:
        """(mean, p50, p99) in microseconds."""
        times = sorted(o.nanoseconds / 1000 for o in self.outcomes)
        if not times:
            return 0.0, 0.0, 0.0
        p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
        return statistics.fmean(times), statistics.median(times), p99

    def misses(self) -> list[Outcome]:
        wrong = [o for o in self.outcomes if not o.right]
        return sorted(wrong, key=lambda o: -o.confidence)


def read_cases(paths: Iterable[Path]) -> list[Case]:
    cases = []
    for path in paths:
        try:
            items = yaml.safe_load(path.read_text(encoding="utf-8")) or []
        except (OSError, yaml.YAMLError) as error:
            problem = type(error).__name__
            raise TutorError(f"{path}: cannot read evaluation file ({problem})") from None
        for number, item in enumerate(items, start=1):
            if not isinstance(item, dict) or "q" not in item or "kind" not in item:
                raise TutorError(f"{path}: item {number} needs 'q', 'expect' and 'kind'")
            cases.append(Case(str(item["q"]), item.get("expect"), str(item["kind"])))
    return cases


Answerer = Callable[[str], tuple[str | None, tuple[str, ...], int]]


def measure(name: str, answer: Answerer, cases: list[Case]) -> Report:
    report = Report(name)
    for case in cases:
        start = time.perf_counter_ns()
        best, top3, confidence = answer(case.question)
        elapsed = time.perf_counter_ns() - start
        report.outcomes.append(Outcome(case, best, top3, confidence, elapsed))
    return report


def ours(matcher: Matcher) -> Answerer:
    def answer(question: str) -> tuple[str | None, tuple[str, ...], int]:
        lookup = matcher.lookup(question)
        best = lookup.best.entry.id if lookup.best else None
        return best, tuple(m.entry.id for m in lookup.ranked[:3]), lookup.confidence

    return answer


def baseline(catalog: Catalog) -> Answerer:
    choices, owners = [], []
    for entry in catalog.knowledge.entries:
        for phrasing in (*entry.requirements, entry.means, *entry.aliases):
            choices.append(utils.default_process(phrasing))
            owners.append(entry.id)

    def answer(question: str) -> tuple[str | None, tuple[str, ...], int]:
        found = process.extract(
            question,
            choices,
            scorer=fuzz.WRatio,
            processor=utils.default_process,
            score_cutoff=0,
            limit=30,
        )
        ranked = list(dict.fromkeys(owners[i] for _, _, i in found))
        score = found[0][1] if found else 0
        best = ranked[0] if ranked and score >= BASELINE_CUTOFF else None
        return best, tuple(ranked[:3]), round(score)

    return answer


def run_eval(catalog: Catalog, files: list[str] | None, *, show: int = 15) -> int:
    paths = [Path(f) for f in (files or DEFAULT_FILES)]
    cases = read_cases(paths)
    matcher = Matcher(catalog.knowledge)
    print_report(measure("baseline (WRatio)", baseline(catalog), cases))
    final = measure("study tutor", ours(matcher), cases)
    print_report(final)
    print(f"\nthreshold: {matcher.knobs.threshold} (baseline cutoff: {BASELINE_CUTOFF:.0f})")
    print(f"files: {', '.join(str(p) for p in paths)}; {len(cases)} questions")
    if show:
        print(f"\nworst misses (study tutor, {show} most confident):")
        for outcome in final.misses()[:show]:
            expect = outcome.case.expect or "(abstain)"
            print(f"  [{outcome.case.kind}] {outcome.case.question[:80]!r}")
            got = outcome.best or "(abstained)"
            print(f"      expected {expect}, got {got} at {outcome.confidence}")
    return 0


def print_report(report: Report) -> None:
    mean, p50, p99 = report.latency_us()
    print(f"\n{report.name}")
    print(f"  top-1 accuracy       {report.top1:6.1%}")
    print(f"  top-3 accuracy       {report.top3:6.1%}")
    print(f"  out-of-scope abstain {report.abstention:6.1%}")
    kinds = "  ".join(f"{k} {v:.0%}" for k, v in report.by_kind().items())
    print(f"  by kind              {kinds}")
    print(f"  latency (µs)         mean {mean:.0f}  p50 {p50:.0f}  p99 {p99:.0f}")
