"""`tutor eval`: per-set figures (top-1/top-3/declined, calibration error, confident-wrong)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.evaluation import Case, Outcome, Report, eval_files, read_cases, run_eval


def _outcome(expect, best, confidence, top=None) -> Outcome:
    first = top if top is not None else best
    return Outcome(Case("q", expect, "need"), best, (first,) if first else (), confidence, 1000)


def test_calibration_error_is_zero_when_confidence_matches_accuracy():
    """Ten answers at 70%, seven right: the band's accuracy equals its confidence."""
    report = Report("t", [_outcome("a", "a", 70)] * 7 + [_outcome("a", "b", 70)] * 3)
    assert report.calibration_error == pytest.approx(0.0)


def test_calibration_error_weighs_each_band_by_its_questions():
    """All wrong at 90% and all right at 30%: |0-0.9| and |1-0.3| averaged by size."""
    report = Report("t", [_outcome("a", "b", 90)] * 3 + [_outcome("a", None, 30, top="a")])
    assert report.calibration_error == pytest.approx((3 * 0.9 + 0.7) / 4)


def test_confident_wrong_counts_wrong_answers_at_80_or_more():
    """Wrong at 80 and at 95 count; wrong at 79, right at 99 and a declined question do not."""
    report = Report(
        "t",
        [
            _outcome("a", "b", 80),
            _outcome(None, "b", 95),
            _outcome("a", "b", 79),
            _outcome("a", "a", 99),
            _outcome("a", None, 90, top="b"),
        ],
    )
    assert report.confident_wrong == 2


def test_declined_is_the_share_of_in_scope_questions_not_answered():
    """Two of four in-scope questions declined; the out-of-scope one does not count."""
    outcomes = [_outcome("a", None, 10), _outcome("a", None, 10), _outcome("a", "a", 90)]
    report = Report("t", [*outcomes, _outcome("a", "a", 90), _outcome(None, None, 10)])
    assert report.declined == pytest.approx(0.5)


def test_practice_items_read_as_pasted_questions(tmp_path):
    """A practice item becomes its stem and one line per lettered choice, keyed by its answer."""
    path = tmp_path / "practice_tune.yaml"
    path.write_text(
        "- stem: Which fits?\n  choices: {a: AutoML, b: GKE}\n  answer: a\n  concept: automl\n",
        encoding="utf-8",
    )
    (case,) = read_cases([path])
    assert case.question == "Which fits?\nA. AutoML\nB. GKE"
    assert (case.expect, case.key, case.kind) == ("automl", "a", "practice")


def test_a_practice_item_without_its_answer_is_named(tmp_path):
    """A practice item whose answer is not one of its choices is reported with its number."""
    path = tmp_path / "practice_tune.yaml"
    path.write_text("- stem: Which?\n  choices: {a: x, b: y}\n  answer: e\n", encoding="utf-8")
    with pytest.raises(Exception, match="item 1 needs 'choices'"):
        read_cases([path])


def test_eval_reports_every_set_beside_the_baseline(catalog, tmp_path, capsys):
    """One row per set for the baseline and the tutor, practice sets on their own table, and
    misses never listed from a test half."""
    learner = tmp_path / "mine_test.yaml"
    learner.write_text(
        "- q: secret test question about no code training\n  expect: automl\n  kind: need\n"
        "- q: how do I bake bread\n  expect: null\n  kind: out_of_scope\n",
        encoding="utf-8",
    )
    practice = tmp_path / "practice_tune.yaml"
    practice.write_text(
        "- stem: Which service trains a model with no code at all?\n"
        "  choices: {a: AutoML, b: a Dataproc cluster}\n  answer: a\n",
        encoding="utf-8",
    )
    assert run_eval(catalog, [str(learner), str(practice)], show=5) == 0
    out = capsys.readouterr().out
    assert "mine_test" in out and "ECE" in out and "wrong>=80" in out
    assert out.count("baseline") >= 2 and out.count("tutor") >= 2
    assert "practice_tune" in out and "keyed" in out
    assert "secret test question" not in out


def test_a_bare_eval_leaves_the_test_halves_out(tmp_path):
    """Without --file, `tutor eval` reads every set but the test halves: a test half is
    measured only when someone names it, never as a side effect of tuning."""
    for name in ("learner_questions", "some_tune", "some_test", "holdout"):
        (tmp_path / f"{name}.yaml").write_text("[]\n", encoding="utf-8")
    assert [p.name for p in eval_files(None, tmp_path)] == [
        "holdout.yaml",
        "learner_questions.yaml",
        "some_tune.yaml",
    ]
    assert eval_files(["x/some_test.yaml"], tmp_path) == [Path("x/some_test.yaml")]
