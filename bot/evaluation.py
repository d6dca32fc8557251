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
from bot.practice import solve, split_choices

BASELINE_CUTOFF = 80.0  # WRatio below which the baseline abstains
CONFIDENT = 80  # an answer at this confidence or more that is wrong is a confident-wrong one
EVAL_FOLDER = Path("tests/eval")
# What the confidence is fitted on: the dev set and every tuning half (never a test half).
CALIBRATION_GLOBS = ("learner_questions.yaml", "*_tune.yaml")


@dataclass(frozen=True)
class Case:
    question: str
    expect: str | None
    kind: str
    key: str | None = None  # a practice item's keyed choice (its letter)


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

    @property
    def top_right(self) -> bool:
        """Whether the first candidate, answered or not, is the expected entry."""
        return self.case.expect is not None and self.top3[:1] == (self.case.expect,)


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

    @property
    def declined(self) -> float:
        """Share of in-scope questions the tutor declined to answer."""
        cases = self._in_scope()
        return sum(o.best is None for o in cases) / len(cases) if cases else 0.0

    @property
    def calibration_error(self) -> float:
        """Expected calibration error: |share right - mean confidence| over 10-point bands,
        weighted by questions; the first candidate counts whether answered or declined."""
        bands: dict[int, list[Outcome]] = defaultdict(list)
        for outcome in self.outcomes:
            bands[min(9, outcome.confidence // 10)].append(outcome)
        gap = sum(
            abs(sum(o.top_right for o in band) - sum(o.confidence / 100 for o in band))
            for band in bands.values()
        )
        return gap / len(self.outcomes) if self.outcomes else 0.0

    @property
    def confident_wrong(self) -> int:
        """Answers given at `CONFIDENT` or more that are wrong (or should have been declined)."""
        return sum(
            o.best is not None and not o.right and o.confidence >= CONFIDENT for o in self.outcomes
        )

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
            if isinstance(item, dict) and "stem" in item:
                cases.append(_practice_case(path, number, item))
                continue
            if not isinstance(item, dict) or "q" not in item or "kind" not in item:
                raise TutorError(f"{path}: item {number} needs 'q', 'expect' and 'kind'")
            cases.append(Case(str(item["q"]), item.get("expect"), str(item["kind"])))
    return cases


def _practice_case(path: Path, number: int, item: dict) -> Case:
    """An exam-style item as a learner pastes it: the stem, then one line per lettered choice."""
    choices = item.get("choices")
    answer = str(item.get("answer", "")).strip().lower()
    if not isinstance(choices, dict) or answer not in {str(k).lower() for k in choices}:
        raise TutorError(f"{path}: item {number} needs 'choices' (a: ..., b: ...) and an 'answer'")
    lines = [f"{str(k).upper()}. {v}" for k, v in choices.items()]
    text = "\n".join([str(item["stem"]), *lines])
    return Case(text, item.get("concept"), "practice", answer)


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


def eval_files(files: list[str] | None, folder: Path = EVAL_FOLDER) -> list[Path]:
    """The files asked for, else every set in tests/eval but the test halves: a test half is
    measured only when it is named, so that no one sees its figures while tuning."""
    if files:
        return [Path(f) for f in files]
    return [p for p in sorted(folder.glob("*.yaml")) if not _is_test(p)]


def run_eval(catalog: Catalog, files: list[str] | None, *, show: int = 15) -> int:
    """Every set on its own row, the plain baseline beside the tutor, measured in one run."""
    paths = eval_files(files)
    matcher = Matcher(catalog.knowledge)
    plain, tutor = baseline(catalog), ours(matcher)
    print(
        f"{'set':<28}{'n':>5}{'oos':>5}  {'':<9}{'top-1':>7}{'top-3':>7}{'declined':>9}"
        f"{'oos-dec':>8}{'ECE':>6}{f'wrong>={CONFIDENT}':>10}"
    )
    everything: list[Report] = []
    practice: list[tuple[str, list[Case]]] = []
    for path in paths:
        cases = read_cases([path])
        if cases and all(c.key for c in cases):
            practice.append((path.stem, cases))
            continue
        rows = [measure("baseline", plain, cases), measure("tutor", tutor, cases)]
        for n, report in enumerate(rows):
            print(_row(path.stem if n == 0 else "", cases, report))
        everything.append(rows[1])
    if practice:
        print_practice(matcher, practice)
    outcomes = [o for r in everything for o in r.outcomes]
    mean, p50, p99 = Report("all", outcomes).latency_us()
    print(
        f"\ntutor latency (µs) over {len(outcomes)} questions: mean {mean:.0f}  p50 {p50:.0f}"
        f"  p99 {p99:.0f}"
    )
    print(f"threshold: {matcher.knobs.threshold} (baseline cutoff: {BASELINE_CUTOFF:.0f})")
    if show:
        shown = [r for r, p in zip(everything, paths, strict=False) if not _is_test(p)]
        _print_misses([o for r in shown for o in r.misses()], show)
    return 0


def print_practice(matcher: Matcher, sets: list[tuple[str, list[Case]]]) -> None:
    """Practice-question mode on whole exam-style items: how often the keyed choice is picked."""
    print(
        f"\n{'practice set':<28}{'n':>5}  {'':<9}{'keyed':>7}{'unsure':>8}{'in 2':>7}"
        f"{f'wrong>={CONFIDENT}':>10}"
    )
    for name, cases in sets:
        for n, who in enumerate(("baseline", "tutor")):
            picked = [_baseline_pick(c) if n == 0 else _pick(matcher, c) for c in cases]
            hit = sum(p[0] == c.key for p, c in zip(picked, cases, strict=True))
            unsure = sum(p[0] is None for p in picked)
            near = sum(c.key in p[1] for p, c in zip(picked, cases, strict=True))
            wrong = sum(
                p[0] is not None and p[0] != c.key and p[2] >= CONFIDENT
                for p, c in zip(picked, cases, strict=True)
            )
            print(
                f"{name if n == 0 else '':<28}{len(cases) if n == 0 else '':>5}  {who:<9}"
                f"{hit / len(cases):7.1%}{unsure / len(cases):8.1%}{near / len(cases):7.1%}"
                f"{wrong:>10}"
            )


def _pick(matcher: Matcher, case: Case) -> tuple[str | None, tuple[str, ...], int]:
    """(picked letter or None, the two closest letters, confidence), letters in lower case."""
    found = solve(matcher, case.question)
    if found is None:
        return None, (), 0
    pick = found.pick.letter.lower() if found.pick else None
    return pick, tuple(c.letter.lower() for c in found.closest), found.confidence


def _baseline_pick(case: Case) -> tuple[str | None, tuple[str, ...], int]:
    """The plain baseline: the choice most like the stem (rapidfuzz WRatio)."""
    found = split_choices(case.question)
    if found is None:
        return None, (), 0
    stem, choices = found
    scored = sorted(
        ((fuzz.WRatio(stem, body, processor=utils.default_process), k) for k, body in choices),
        reverse=True,
    )
    return scored[0][1].lower(), tuple(k.lower() for _, k in scored[:2]), round(scored[0][0])


def _is_test(path: Path) -> bool:
    return path.stem.endswith("_test")


def _row(label: str, cases: list[Case], report: Report) -> str:
    scope = sum(c.expect is not None for c in cases)
    oos = len(cases) - scope
    dec = f"{report.abstention:7.1%}" if oos else f"{'-':>7}"
    wrong = f"{report.confident_wrong} ({report.confident_wrong / max(1, len(cases)):.1%})"
    return (
        f"{label:<28}{scope if label else '':>5}{oos if label else '':>5}  {report.name:<9}"
        f"{report.top1:7.1%}{report.top3:7.1%}{report.declined:9.1%} {dec}"
        f"{report.calibration_error:6.3f}{wrong:>12}"
    )


def _print_misses(misses: list[Outcome], show: int) -> None:
    print(f"\nworst misses (study tutor, {show} most confident; test halves never listed):")
    for outcome in sorted(misses, key=lambda o: -o.confidence)[:show]:
        expect = outcome.case.expect or "(abstain)"
        print(f"  [{outcome.case.kind}] {outcome.case.question[:80]!r}")
        got = outcome.best or "(abstained)"
        print(f"      expected {expect}, got {got} at {outcome.confidence}")


def print_report(report: Report) -> None:
    mean, p50, p99 = report.latency_us()
    print(f"\n{report.name}")
    print(f"  top-1 accuracy       {report.top1:6.1%}")
    print(f"  top-3 accuracy       {report.top3:6.1%}")
    print(f"  out-of-scope abstain {report.abstention:6.1%}")
    kinds = "  ".join(f"{k} {v:.0%}" for k, v in report.by_kind().items())
    print(f"  by kind              {kinds}")
    print(f"  latency (µs)         mean {mean:.0f}  p50 {p50:.0f}  p99 {p99:.0f}")
