"""Fitting the matcher's confidence so that it reads as a probability of being right.

`Knobs.calibration` holds the coefficients of a logistic function over a handful of features
(`Matcher.features`). `fit` finds them by plain gradient descent on labelled questions — label 1
when the best candidate is the expected entry, 0 when it is wrong or the question is out of
scope — with a little L2 shrinkage so five weights cannot memorise a few hundred questions.
`buckets` shows the result: within each confidence band, how often the answer was right.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from pathlib import Path

from bot.catalog import Catalog
from bot.evaluation import CALIBRATION_GLOBS, EVAL_FOLDER, Case, read_cases
from bot.matching import Knobs, Matcher
from bot.practice import solve


def samples(matcher: Matcher, cases: Sequence[Case]) -> list[tuple[tuple[float, ...], int]]:
    """(features, right) for each case that has any candidate at all."""
    found = []
    for case in cases:
        features = matcher.features(case.question)
        if features is None:
            continue
        lookup = matcher.lookup(case.question)
        best = lookup.ranked[0].entry.id if lookup.ranked else None
        found.append((features, int(case.expect is not None and best == case.expect)))
    return found


def fit(
    data: Sequence[tuple[tuple[float, ...], int]],
    *,
    steps: int = 4000,
    rate: float = 0.5,
    shrink: float = 0.001,
) -> tuple[float, ...]:
    """Logistic-regression coefficients (bias first), rounded to two decimals."""
    width = len(data[0][0]) + 1
    coef = [0.0] * width
    for _ in range(steps):
        grad = [0.0] * width
        for features, label in data:
            x = (1.0, *features)
            error = _sigmoid(sum(c * v for c, v in zip(coef, x, strict=True))) - label
            for k in range(width):
                grad[k] += error * x[k] / len(data)
        coef = [
            c - rate * (g + shrink * c * (k > 0))
            for k, (c, g) in enumerate(zip(coef, grad, strict=True))
        ]
    return tuple(round(c, 2) for c in coef)


def buckets(
    matcher: Matcher, cases: Sequence[Case], width: int = 10
) -> list[tuple[int, int, float]]:
    """(band start, questions, share right) per confidence band of `width` points."""
    bands: dict[int, list[int]] = {}
    for case in cases:
        lookup = matcher.lookup(case.question)
        ranked = lookup.ranked
        right = bool(ranked) and case.expect is not None and ranked[0].entry.id == case.expect
        bands.setdefault(lookup.confidence // width * width, []).append(int(right))
    return [(b, len(v), sum(v) / len(v)) for b, v in sorted(bands.items())]


def _calibration_files() -> list[Path]:
    """The dev set and every tuning half; test halves are never fitted on."""
    return sorted({p for glob in CALIBRATION_GLOBS for p in EVAL_FOLDER.glob(glob)})


def _sigmoid(z: float) -> float:
    return 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))


def report(catalog: Catalog, files: list[str] | None) -> str:
    """Refitted coefficients to paste into `Knobs.calibration`, and how they calibrate."""
    paths = [Path(f) for f in files] if files else _calibration_files()
    cases = [c for c in read_cases(paths) if c.key is None]  # practice items have their own
    coef = fit(samples(Matcher(catalog.knowledge), cases))
    refitted = Matcher(catalog.knowledge, dataclasses.replace(Knobs(), calibration=coef))
    lines = [f"calibration: {coef}", "confidence band   questions   share right"]
    lines += [
        f"  {band:>3}-{band + 19:<3}        {n:>5}       {share:6.1%}"
        for band, n, share in buckets(refitted, cases, 20)
    ]
    practice = [c for c in read_cases(paths) if c.key is not None]
    if practice:
        found = practice_samples(Matcher(catalog.knowledge), practice)
        lines.append(f"practice calibration (bot/practice.py CALIBRATION): {fit(found)}")
    return "\n".join(lines)


def practice_samples(
    matcher: Matcher, cases: Sequence[Case]
) -> list[tuple[tuple[float, ...], int]]:
    """((fit, lead) of the best-fitting choice, whether the choice the tutor would pick is
    keyed) for each pasted practice question: the confidence shown is that pick's."""
    found: list[tuple[tuple[float, ...], int]] = []
    for case in cases:
        practice = solve(matcher, case.question)
        if practice is None:
            continue
        best = practice.closest[0]
        keyed = practice.favourite.letter.lower() == case.key
        found.append(((best.fit, practice.lead), int(keyed)))
    return found
