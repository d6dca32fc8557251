"""Calibration: the fitted confidence reads as a probability of being right."""

from __future__ import annotations

import math
import os
import subprocess
import sys

from bot.calibration import fit
from bot.matching import Knobs


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
