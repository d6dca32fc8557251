"""The evaluation set stays honest (valid ids, no copied phrasings, enough cases); no regressions."""

from __future__ import annotations

import pytest
from rapidfuzz import fuzz, process, utils

from bot.evaluation import measure, ours, read_cases
from bot.knowledge import load_knowledge
from bot.matching import Matcher
from tests.conftest import SHIPPED_ROOT

DEV = SHIPPED_ROOT / "tests" / "eval" / "learner_questions.yaml"
HOLDOUT = SHIPPED_ROOT / "tests" / "eval" / "holdout.yaml"
HOLDOUT2 = SHIPPED_ROOT / "tests" / "eval" / "holdout2.yaml"
HOLDOUT3 = SHIPPED_ROOT / "tests" / "eval" / "holdout3.yaml"
NEAR_COPY = 90  # rapidfuzz ratio on processed text at or above which a question copies a phrasing
# The targets are 92% top-1 and 90% abstention; the dev set gives 91.2% and 95.2% today
# (the held-out sets, never tuned on: 89.6% / 100% and 97.0% / 97.5%).
# These floors sit just under today's figures, so any regression fails the build.
FLOOR_TOP1 = 0.91
FLOOR_ABSTENTION = 0.94
KNOWLEDGE = load_knowledge(SHIPPED_ROOT / "knowledge")


def _files():
    return [p for p in (DEV, HOLDOUT, HOLDOUT2, HOLDOUT3) if p.exists()]


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.name)
def test_every_expected_id_exists(path):
    """Every `expect` in an evaluation file names an entry in the shipped knowledge."""
    unknown = {c.expect for c in read_cases([path]) if c.expect} - {e.id for e in KNOWLEDGE.entries}
    assert unknown == set()


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.name)
def test_no_question_copies_a_phrasing(path):
    """No evaluation question is a near-copy of a phrasing in knowledge/ (that would be a leak)."""
    phrasings = [
        (utils.default_process(p), e.id)
        for e in KNOWLEDGE.entries
        for p in (*e.requirements, e.means, *e.aliases)
    ]
    choices = [text for text, _ in phrasings]
    copies = []
    for case in read_cases([path]):
        found = process.extractOne(
            utils.default_process(case.question),
            choices,
            scorer=fuzz.ratio,
            processor=None,
            score_cutoff=NEAR_COPY,
        )
        if found:
            copies.append(f"{case.question!r} ~ {phrasings[found[2]][1]}: {found[0]!r}")
    assert copies == []


def test_dev_set_is_big_enough():
    """The dev set has at least 200 in-scope and 50 out-of-scope questions."""
    cases = read_cases([DEV])
    assert sum(c.expect is not None for c in cases) >= 200
    assert sum(c.expect is None for c in cases) >= 50


@pytest.fixture(scope="module")
def dev_report():
    return measure("study tutor", ours(Matcher(KNOWLEDGE)), read_cases([DEV]))


def test_dev_figures_do_not_regress(dev_report):
    """Top-1 and abstention on the dev set stay at least where the matcher is today."""
    assert dev_report.top1 >= FLOOR_TOP1
    assert dev_report.abstention >= FLOOR_ABSTENTION
