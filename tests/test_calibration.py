"""Calibration: the fitted confidence reads as a probability of being right."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

from bot.calibration import fit, practice_samples
from bot.evaluation import Case
from bot.knowledge import load_knowledge
from bot.matching import Knobs, Matcher


def test_fit_learns_which_feature_predicts_rightness():
    """On data where only the first feature tells right from wrong, that weight dominates."""
    data = [((x / 10, 0.5), int(x >= 5)) for x in range(11)] * 5
    bias, relevant, noise = fit(data, steps=3000)
    assert relevant > 5 and abs(noise) < abs(relevant) / 5
    probability = 1 / (1 + math.exp(-(bias + relevant * 0.9 + noise * 0.5)))
    assert probability > 0.9


def test_tutor_eval_calibrate_prints_coefficients_and_bands(content_root, tmp_path):
    """`tutor eval --calibrate` refits on the given set and shows the share right per band."""
    cases = tmp_path / "cases.yaml"
    cases.write_text(
        "- {q: 'train a model with no code', expect: automl, kind: paraphrase}\n"
        "- {q: 'gpu out of memory when training', expect: oom-batch-size, kind: paraphrase}\n"
        "- {q: 'how do I potty train my puppy', expect: null, kind: out-of-scope}\n",
        encoding="utf-8",
    )
    result = subprocess.run(
        [sys.executable, "-m", "bot", "eval", "--calibrate", "--file", str(cases)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "TUTOR_CONTENT": str(content_root), "TUTOR_DB": str(tmp_path / "t.db")},
    )
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
