"""Item-quality lint: a bank's cues stay near chance, each question passes its rules or says why."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bot.errors import Problem
from bot.item_lint import Excused, LintReport, lint_bank, read_exceptions
from bot.knowledge import KnowledgeBase
from bot.quiz import Question
from tests.conftest import MINI_KNOWLEDGE, MINI_QUIZ, SHIPPED_ROOT, write_content

NO_KNOWLEDGE = KnowledgeBase(())
EXPLAINED = "This choice does not meet the need described here."


def question(
    qid: str = "q-test",
    *,
    stem: str = "Which approach fits this scenario?",
    choices: tuple[str, ...] = ("alpha bravo", "charlie delta", "echo foxtrot", "golf hotel"),
    answer: str = "A",
    explanations: dict[str, str] | None = None,
    line: int = 1,
) -> Question:
    letters = "ABCDE"[: len(choices)]
    return Question(
        id=qid,
        section="3.2",
        topic="Test",
        difficulty="easy",
        question=stem,
        choices=tuple(zip(letters, choices, strict=True)),
        answer=answer,
        explanations=explanations or dict.fromkeys(letters, EXPLAINED),
        entries=("automl",),
        source="https://cloud.google.com/vertex-ai/docs",
        file="quizzes/t.yaml",
        line=line,
    )


def filler(length: int) -> str:
    """Text of an exact length whose words appear in no question stem."""
    return ("zulu " * length)[:length].strip().ljust(length, "z")


def bank(
    longest: set[int] = frozenset(),
    shortest: set[int] = frozenset(),
    echoing: set[int] = frozenset(),
    size: int = 20,
    letters: str = "ABCD",
) -> list[Question]:
    """`size` questions keyed in turn on `letters`; the listed ones have the key longest, etc."""
    questions = []
    for i in range(size):
        answer = letters[i % len(letters)]
        key = filler(52 if i in longest else 36 if i in shortest else 42)
        if i in echoing:
            key = "kappa lambda " + key[13:]
        texts = [filler(40), filler(44), filler(48)]
        texts.insert("ABCD".index(answer), key)
        stem = "Kappa lambda scenario?" if i in echoing else "Which scenario?"
        questions.append(question(f"q-{i}", stem=stem, choices=tuple(texts), answer=answer))
    return questions


QUARTER = {0, 4, 8, 12, 16}
FORTY_PERCENT = {0, 2, 5, 7, 10, 13, 15, 18}


def rules(report: LintReport) -> list[str]:
    return [p.message.split("[")[1].split("]")[0] for p in report.problems]


def test_a_balanced_bank_passes():
    """Keys longest and shortest in a quarter of questions each, letters even: no findings."""
    report = lint_bank(bank(longest=QUARTER, shortest={1, 5, 9, 13, 17}), NO_KNOWLEDGE)
    assert report.problems == ()
    assert (report.shares.longest, report.shares.shortest) == (0.25, 0.25)


def test_a_bank_whose_key_is_often_longest_fails():
    """Key strictly longest in 40% of questions breaks the 35% cap."""
    report = lint_bank(bank(longest=FORTY_PERCENT), NO_KNOWLEDGE)
    assert rules(report) == ["longest-share"]
    assert "40%" in report.problems[0].message


def test_a_bank_whose_key_is_often_shortest_fails():
    """Overcorrecting, so that the key is usually the shortest choice, is a cue too."""
    report = lint_bank(bank(shortest=FORTY_PERCENT), NO_KNOWLEDGE)
    assert rules(report) == ["shortest-share"]


def test_a_bank_whose_key_echoes_the_question_most_fails():
    """The key sharing the most question words in 40% of questions breaks the cap."""
    report = lint_bank(bank(longest=QUARTER, echoing=FORTY_PERCENT), NO_KNOWLEDGE)
    assert rules(report) == ["overlap-share"]
    assert report.shares.overlap == 0.4


def test_keys_crowded_on_one_letter_fail_the_spread():
    """Twenty four-choice questions keyed A or B only are reported as an uneven spread."""
    report = lint_bank(bank(longest=QUARTER, letters="AB"), NO_KNOWLEDGE)
    assert rules(report) == ["letter-spread"]
    assert "A 10, B 10, C 0, D 0" in report.problems[0].message


def test_small_banks_are_not_measured():
    """Below MIN_BANK questions the shares are noise: no bank-wide finding, however skewed."""
    report = lint_bank(bank(longest=set(range(10)), size=10), NO_KNOWLEDGE)
    assert report.problems == ()
    assert not report.measured


CLICKS = "Clickstream events arrive through a queue and need windowed features."
RULE_CASES = [
    pytest.param(
        "long-correct",
        question(choices=(filler(32), filler(20), filler(20), filler(20))),  # 1.6x the median
        question(choices=(filler(28), filler(20), filler(20), filler(20))),  # 1.4x
        id="long-correct",
    ),
    pytest.param(
        "all-none-above",
        question(
            choices=("BigQuery ML", "AutoML on Vertex AI", "Add dropout", "None of the above")
        ),
        question(choices=("BigQuery ML", "AutoML on Vertex AI", "Add dropout", "Reduce the batch")),
        id="all-none-above",
    ),
    pytest.param(
        "lone-echo",
        question(
            stem=CLICKS,
            choices=(
                "Reduce the batch size",
                "Windowed clickstream features from events",
                "AutoML on Vertex AI",
                "Add dropout to the model",
            ),
        ),
        question(
            stem=CLICKS,
            choices=(
                "Reduce the batch size",
                "Windowed clickstream features",
                "Clickstream events in a table",
                "Windowed events",
            ),
        ),
        id="lone-echo",
    ),
    pytest.param(
        "thin-explanation",
        question(explanations={"A": "Right.", "B": EXPLAINED, "C": "Wrong.", "D": EXPLAINED}),
        question(explanations={"A": "Right.", "B": EXPLAINED, "C": EXPLAINED, "D": EXPLAINED}),
        id="thin-explanation",
    ),
    pytest.param(
        "unknown-name",
        question(
            choices=(
                "AutoML on Vertex AI",
                "Vertex AI Model Optimizer",
                "BigQuery ML",
                "Reduce the batch size",
            )
        ),
        question(
            choices=(
                "AutoML on Vertex AI",
                "Vertex AI custom training",
                "BigQuery ML",
                "Reduce the batch size",
            )
        ),
        id="unknown-name",
    ),
]


@pytest.mark.parametrize(("rule", "failing", "passing"), RULE_CASES)
def test_each_question_rule_fails_and_passes(catalog, rule, failing, passing):
    """Each per-question rule reports its failing case at FILE:LINE and is quiet on the fixed one."""
    report = lint_bank([failing], catalog.knowledge)
    assert rules(report) == [rule]
    assert str(report.problems[0]).startswith(f"quizzes/t.yaml:1: 'q-test' [{rule}]")
    assert lint_bank([passing], catalog.knowledge).problems == ()


def test_dotted_apis_and_constants_must_be_real(catalog):
    """A made-up tf.* API or constant is flagged like a made-up product; known ones pass."""
    made_up = question(
        choices=(
            "Reduce the batch size",
            "Call tf.keras.AutoFixer first",
            "Set FAST_MODE in the job",
            "Use AutoML on Vertex AI",
        )
    )
    known = question(
        choices=(
            "Reduce the batch size",
            "Catch the OOM error and retry",
            "Submit a CustomJob again",
            "Use AutoML on Vertex AI",
        )
    )
    assert rules(lint_bank([made_up], catalog.knowledge)) == ["unknown-name", "unknown-name"]
    assert lint_bank([known], catalog.knowledge).problems == ()


def excusing(qid: str, rule: str) -> tuple[Problem, Excused]:
    """An exception as read from line 7 of quizzes/_lint.yaml."""
    return Problem("quizzes/_lint.yaml", 7, ""), Excused(qid, rule, "the key must list three fixes")


def test_an_exception_is_honoured_and_counted():
    """An excused finding is not a problem; the report counts it and the summary says so."""
    long_key = question(choices=(filler(60), filler(20), filler(20), filler(20)))
    report = lint_bank([long_key], NO_KNOWLEDGE, [excusing("q-test", "long-correct")])
    assert report.problems == ()
    assert report.excused == (Excused("q-test", "long-correct", "the key must list three fixes"),)
    assert report.summary().endswith("1 lint exception(s)")


def test_stale_and_orphan_exceptions_are_problems():
    """An exception for a rule the question no longer breaks, or for no question, must go."""
    fine = question()
    report = lint_bank(
        [fine], NO_KNOWLEDGE, [excusing("q-test", "long-correct"), excusing("q-gone", "lone-echo")]
    )
    assert [p.message for p in report.problems] == [
        "'q-test' no longer breaks 'long-correct'; remove this exception",
        "no question has the id 'q-gone'",
    ]
    assert all(p.file == "quizzes/_lint.yaml" and p.line == 7 for p in report.problems)


def test_exceptions_file_is_read_with_lines_and_checked(tmp_path):
    """quizzes/_lint.yaml gives each exception its line; an unknown rule or a missing why is named."""
    (tmp_path / "_lint.yaml").write_text(
        textwrap.dedent("""\
            exceptions:
              - question: q-a
                rule: long-correct
                why: the three-part key lists one fix per run
              - question: q-b
                rule: too-long
              """),
        encoding="utf-8",
    )
    problems = []
    found = read_exceptions(tmp_path, problems)
    assert [(where.line, e.question, e.rule) for where, e in found] == [
        (2, "q-a", "long-correct"),
        (5, "q-b", "too-long"),
    ]
    messages = [p.message for p in problems]
    assert any("the exception for 'q-b' is missing 'why'" in m for m in messages)
    assert any("rule 'too-long' is not one of" in m for m in messages)


def tutor_check(root: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bot", "check"],
        cwd=root,
        capture_output=True,
        text=True,
        env={**os.environ, "TUTOR_CONTENT": str(root)},
        timeout=120,
        check=False,
    )


def test_tutor_check_passes_on_the_shipped_bank_and_prints_the_shares():
    """`tutor check` exits 0 on the shipped content and its summary line carries both shares."""
    result = tutor_check(SHIPPED_ROOT)
    assert result.returncode == 0, result.stdout
    summary = result.stdout.strip().splitlines()[-1]
    assert summary.startswith("OK: ")
    assert "key longest in " in summary and "shares most question words in " in summary
    assert "lint exception(s)" in summary


def test_tutor_check_fails_on_a_lint_error_until_it_is_excused(tmp_path):
    """A lint finding makes `tutor check` exit 1 with FILE:LINE; an exception with a reason clears it."""
    quiz = MINI_QUIZ.replace(
        "      C: Reduce the batch size\n    answer: B", "      C: None of the above\n    answer: B"
    )
    root = write_content(tmp_path, MINI_KNOWLEDGE, quiz)
    result = tutor_check(root)
    assert result.returncode == 1
    assert "quizzes/mini.yaml:2: 'q-no-code' [all-none-above]" in result.stdout
    (root / "quizzes" / "_lint.yaml").write_text(
        "exceptions:\n  - question: q-no-code\n    rule: all-none-above\n    why: a test of exceptions\n",
        encoding="utf-8",
    )
    assert tutor_check(root).returncode == 0
