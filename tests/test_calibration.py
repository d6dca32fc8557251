"""Calibration: the fitted confidence reads as a probability of being right."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

from bot.calibration import fit, practice_samples
from bot.evaluation import Case, read_cases
from bot.knowledge import load_knowledge
from bot.matching import Knobs, Matcher
from bot.practice import CALIBRATION, solve
from tests.conftest import SHIPPED_ROOT

# Two learner questions every calibration run can get right, in the eval file format.
TWO_NEEDS = (
    "- {q: 'train a model with no code', expect: automl, kind: paraphrase}\n"
    "- {q: 'gpu out of memory when training', expect: oom-batch-size, kind: paraphrase}\n"
)


def test_fit_learns_which_feature_predicts_rightness():
    """On data where only the first feature tells right from wrong, that weight dominates."""
    data = [((x / 10, 0.5), int(x >= 5)) for x in range(11)] * 5
    bias, relevant, noise = fit(data, steps=3000)
    assert relevant > 5 and abs(noise) < abs(relevant) / 5
    probability = 1 / (1 + math.exp(-(bias + relevant * 0.9 + noise * 0.5)))
    assert probability > 0.9


def _calibrate(cases: Path, content_root: Path, tmp_path: Path) -> subprocess.CompletedProcess:
    """`tutor eval --calibrate --file CASES`, run as a learner would run it."""
    return subprocess.run(
        [sys.executable, "-m", "bot", "eval", "--calibrate", "--file", str(cases)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "TUTOR_CONTENT": str(content_root), "TUTOR_DB": str(tmp_path / "t.db")},
    )


def test_tutor_eval_calibrate_prints_coefficients_and_bands(content_root, tmp_path):
    """`tutor eval --calibrate` refits on the given set and shows the share right per band."""
    cases = tmp_path / "cases.yaml"
    cases.write_text(
        TWO_NEEDS + "- {q: 'how do I potty train my puppy', expect: null, kind: out-of-scope}\n",
        encoding="utf-8",
    )
    result = _calibrate(cases, content_root, tmp_path)
    assert result.returncode == 0, result.stderr
    first, header, *bands = result.stdout.splitlines()
    assert first.startswith("calibration: (")
    assert len(first.split(",")) == len(Knobs().calibration)  # bias, then one per feature
    assert header.startswith("confidence band")
    assert sum(int(line.split()[1]) for line in bands) == 3


def test_practice_samples_label_whether_the_best_fitting_choice_is_keyed(content_root):
    """Practice confidence is fitted on (fit, lead) of each item's best-fitting choice, labelled
    1 when that choice is the keyed one."""
    matcher = Matcher(load_knowledge(Path(content_root) / "knowledge"))
    stem = (
        "A team with no ML experience wants an image classifier from labelled photos with as "
        "little code as possible. What should they use?\nA. Vertex AI AutoML\n"
        "B. A custom training job on a TPU Pod slice\nC. A Dataproc cluster\n"
    )
    right, wrong = Case(stem, "automl", "practice", "a"), Case(stem, "automl", "practice", "c")
    (features, keyed), (same, missed) = practice_samples(matcher, [right, wrong])
    assert (keyed, missed) == (1, 0) and features == same
    fit_of_best, lead = features
    assert 0 < fit_of_best <= 2 and 0 < lead <= 1


def test_a_practice_sample_is_labelled_by_the_pick_when_that_is_not_the_best_fitting_choice():
    """Of two close choices on one entry the tutor picks the one that says more of it (see
    `Practice.favourite`); the confidence shown is that pick's, so the label is too."""
    matcher = Matcher(load_knowledge(SHIPPED_ROOT / "knowledge"))
    stem = (
        "Your hyperparameter tuning job searches a learning rate between 0.00001 and 0.1. Good "
        "values may lie anywhere across those orders of magnitude. How should the parameter be "
        "defined?\nA. A DOUBLE parameter with UNIT_LINEAR_SCALE\n"
        "B. A DOUBLE parameter with UNIT_LOG_SCALE so each order of magnitude is sampled evenly\n"
        "C. A CATEGORICAL parameter with three values\n"
    )
    practice = solve(matcher, stem)
    assert practice is not None and practice.closest[0].letter == "A"
    assert practice.favourite.letter == "B"
    cases = [Case(stem, "search-space-design", "practice", key) for key in ("b", "a")]
    assert [keyed for _, keyed in practice_samples(matcher, cases)] == [1, 0]


def test_practice_samples_are_what_the_practice_confidence_is_computed_from(content_root):
    """Each sample's features are the best choice's fit and its lead over the runner-up as a
    share of that fit, the two inputs of CALIBRATION; text without choices adds no sample and
    does not end the list."""
    matcher = Matcher(load_knowledge(Path(content_root) / "knowledge"))
    stem = (
        "Nobody on the team can write ML code and they have labelled product photos. What "
        "should they use?\nA. Vertex AI custom training\nB. Vertex AI AutoML\n"
        "C. Reduce the batch size\n"
    )
    plain = Case("train a model with no code", "automl", "paraphrase")
    samples = practice_samples(matcher, [plain, Case(stem, "automl", "practice", "b")])
    assert len(samples) == 1
    (best_fit, lead), keyed = samples[0]
    practice = solve(matcher, stem)
    assert practice is not None
    fits = sorted((c.fit for c in practice.choices), reverse=True)
    assert keyed == 1 and best_fit == fits[0]
    assert fits[1] > 0 and lead == (fits[0] - fits[1]) / fits[0]  # a runner-up that fits a bit
    assert len(samples[0][0]) + 1 == len(CALIBRATION)  # bias, then one weight per feature


def test_tutor_eval_calibrate_prints_the_practice_calibration(content_root, tmp_path):
    """With practice items in the set, `tutor eval --calibrate` also prints the coefficients to
    paste into bot/practice.py CALIBRATION, fitted on those items alone; the questions' bands
    count only the questions."""
    cases = tmp_path / "cases.yaml"
    cases.write_text(
        TWO_NEEDS
        + "- stem: Nobody on the team writes ML code and the photos are labelled. What should they use?\n"
        "  choices: {a: Vertex AI AutoML, b: A custom training job in our own container}\n"
        "  answer: a\n"
        "- stem: The GPU runs out of memory on the first training step. What should you try first?\n"
        "  choices: {a: Vertex AI AutoML, b: Reduce the batch size, c: A custom training job}\n"
        "  answer: b\n"
        "- stem: We wrote our own PyTorch training loop and need it run on managed machines. What fits?\n"
        "  choices: {a: Reduce the batch size, b: Vertex AI AutoML, c: Vertex AI custom training}\n"
        "  answer: b\n",
        encoding="utf-8",
    )
    result = _calibrate(cases, content_root, tmp_path)
    assert result.returncode == 0, result.stderr
    first, header, *bands, last = result.stdout.splitlines()
    assert first.startswith("calibration: (") and header.startswith("confidence band")
    assert sum(int(line.split()[1]) for line in bands) == 2
    label = "practice calibration (bot/practice.py CALIBRATION): "
    assert last.startswith(label)
    matcher = Matcher(load_knowledge(Path(content_root) / "knowledge"))
    practice = [c for c in read_cases([cases]) if c.key is not None]
    assert len(practice) == 3
    assert last == label + str(fit(practice_samples(matcher, practice)))
    assert len(last.removeprefix(label).split(",")) == len(CALIBRATION)
