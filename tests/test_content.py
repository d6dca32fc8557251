"""Content validation: every kind of bad input is named with FILE:LINE, never a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.catalog import check_content, load_catalog
from bot.errors import ContentError
from bot.knowledge import read_knowledge
from tests.conftest import MINI_KNOWLEDGE, MINI_QUIZ, write_content


def tutor_check(root: Path) -> subprocess.CompletedProcess:
    """`tutor check` on a content folder; the timeout only guards against a hang."""
    return subprocess.run(
        [sys.executable, "-m", "bot", "check"],
        cwd=root,
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "TUTOR_CONTENT": str(root)},
        timeout=120,
        check=False,
    )


def problems_for(root: Path) -> list[str]:
    """Problems as printed, with paths relative to the content folder."""
    return [str(p).replace(f"{root}/", "") for p in check_content(root)[1]]


def test_valid_content_loads(content_root):
    """The small valid fixture has no problems and loads every item."""
    catalog = load_catalog(content_root)
    assert len(catalog.knowledge) == 3
    assert len(catalog.questions) == 3
    assert problems_for(content_root) == []


BAD_CASES = [
    pytest.param(
        MINI_KNOWLEDGE.replace("    means: AutoML on Vertex AI\n", "    means: [unclosed\n"),
        MINI_QUIZ,
        "knowledge/mini.yaml:6: YAML syntax error",
        id="malformed-yaml",
    ),
    pytest.param(
        MINI_KNOWLEDGE.replace(
            "    why: It trains and tunes a model from labelled data with no code.\n", ""
        ),
        MINI_QUIZ,
        "knowledge/mini.yaml:2: 'automl' is missing 'why'",
        id="missing-field",
    ),
    pytest.param(
        MINI_KNOWLEDGE.replace("  - id: oom-batch-size", "  - id: automl"),
        MINI_QUIZ.replace("oom-batch-size", "automl"),
        "knowledge/mini.yaml:38: duplicate entry id 'automl' (first at knowledge/mini.yaml:2)",
        id="duplicate-id",
    ),
    pytest.param(
        MINI_KNOWLEDGE,
        MINI_QUIZ.replace("    answer: B\n", "    answer: EFS\n"),
        "quizzes/mini.yaml:2: 'q-no-code': answer 'EFS' is not one of the choices (A, B, C)",
        id="answer-not-a-choice",
    ),
    pytest.param(
        MINI_KNOWLEDGE.replace("      - id: automl\n", "      - id: auto-ml\n"),
        MINI_QUIZ,
        "knowledge/mini.yaml:19: 'vertex-custom-training': watch_out points at unknown entry 'auto-ml'",
        id="unknown-watch-out",
    ),
    pytest.param(
        MINI_KNOWLEDGE,
        MINI_QUIZ.replace("    entries: [oom-batch-size]\n", "    entries: [oom]\n"),
        "quizzes/mini.yaml:36: 'q-oom': links unknown knowledge entry 'oom'",
        id="unknown-question-link",
    ),
    pytest.param(
        MINI_KNOWLEDGE.replace("      - minimal ML expertise and minimal effort\n", ""),
        MINI_QUIZ,
        "knowledge/mini.yaml:2: 'automl' needs at least 5 'requirements', has 4",
        id="too-few-phrasings",
    ),
    pytest.param(
        MINI_KNOWLEDGE,
        MINI_QUIZ.replace("      C: A fix for memory errors, not a way to train.\n", ""),
        "quizzes/mini.yaml:2: 'q-no-code': explanations missing for C",
        id="missing-explanation",
    ),
    pytest.param(
        MINI_KNOWLEDGE.replace("    status: renamed\n", "    status: retired\n"),
        MINI_QUIZ,
        "knowledge/mini.yaml:19: 'vertex-custom-training': 'status' is 'retired'",
        id="unknown-status",
    ),
]


@pytest.mark.parametrize(("knowledge", "quiz", "expected"), BAD_CASES)
def test_bad_content_is_named_with_file_and_line(tmp_path, knowledge, quiz, expected):
    """Each bad input yields a FILE:LINE message that says what is wrong."""
    root = write_content(tmp_path, knowledge, quiz)
    found = problems_for(root)
    assert any(p.startswith(expected) for p in found), found


@pytest.mark.parametrize(("knowledge", "quiz", "expected"), BAD_CASES)
def test_tutor_check_fails_cleanly(tmp_path, knowledge, quiz, expected):
    """`tutor check` prints the problem, exits 1 and shows no traceback."""
    result = tutor_check(write_content(tmp_path, knowledge, quiz))
    assert result.returncode == 1
    assert expected in result.stdout
    assert "Traceback" not in result.stdout + result.stderr


def test_empty_knowledge_folder_is_a_problem(tmp_path):
    """No knowledge files at all is reported, not silently accepted."""
    root = write_content(tmp_path)
    (root / "knowledge" / "mini.yaml").unlink()
    result = tutor_check(root)
    assert result.returncode == 1
    assert "knowledge:1: no knowledge files" in result.stdout
    assert "Traceback" not in result.stderr


def test_load_catalog_raises_with_every_problem(tmp_path):
    """Loading collects all problems rather than stopping at the first."""
    quiz = MINI_QUIZ.replace("    answer: B\n", "    answer: Z\n").replace(
        "    answer: A\n", "    answer: Y\n"
    )
    with pytest.raises(ContentError) as raised:
        load_catalog(write_content(tmp_path, MINI_KNOWLEDGE, quiz))
    assert len(raised.value.problems) == 2


def test_check_summary_on_valid_content(content_root):
    """A clean check prints one summary line with the counts and exits 0."""
    result = tutor_check(content_root)
    assert result.returncode == 0, result.stdout
    assert result.stdout.strip().splitlines() == [
        "OK: 3 knowledge entries and 3 questions in sections 3.2; no problems."
    ]


@pytest.mark.parametrize(
    ("cues", "message"),
    [
        ("[custom ops, medium-sized]", None),
        ("custom ops", "'cues' must be a list of short phrases"),
        ("[ok, '']", "'cues' must be a list of short phrases"),
        (f"[{'x' * 41}]", "is over 40 characters"),
    ],
)
def test_watch_out_cues_are_short_phrases(tmp_path, cues, message):
    """A watch_out's optional cues load as a tuple; anything else is named with its file."""
    text = MINI_KNOWLEDGE.replace(
        "note: Custom training runs your own code; AutoML needs none.",
        f"note: Custom training runs your own code; AutoML needs none.\n        cues: {cues}",
    )
    assert text != MINI_KNOWLEDGE
    folder = write_content(tmp_path, knowledge=text) / "knowledge"
    knowledge, problems = read_knowledge(folder)
    if message is None:
        assert problems == []
        (watch,) = knowledge.get("automl").watch_out
        assert watch.cues == ("custom ops", "medium-sized")
    else:
        assert any(message in p.message for p in problems)
