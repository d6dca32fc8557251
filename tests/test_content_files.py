"""Reading content files is strict and bounded: every refusal is FILE:LINE, never a traceback."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml

from bot.catalog import check_content
from bot.content import MAX_DEPTH, MAX_FILE_BYTES, MAX_VALUES
from tests.conftest import MINI_KNOWLEDGE, MINI_QUIZ, write_content
from tests.test_content import problems_for, tutor_check

ALIASES = "    aliases: [AutoML, Vertex AI AutoML]\n"  # line 12 of MINI_KNOWLEDGE
WHY = "    why: It trains and tunes a model from labelled data with no code.\n"  # line 13
ANCHORED = "\n".join(
    ['l0: &l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    + [f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 9)}]" for i in range(1, 9)]
)
BOMB = MINI_KNOWLEDGE.replace("entries:\n", ANCHORED + "\nentries:\n").replace(
    "    checked: 2026-11-30\n", "    checked: *l8\n", 1
)  # a billion "lol"s under `checked:` if it were ever expanded
DEEP = MINI_KNOWLEDGE.replace(ALIASES, "    aliases: " + "[" * 20_000 + "]" * 20_000 + "\n")


def knowledge_problems(tmp_path: Path, knowledge: str) -> list[str]:
    """The problems in knowledge/ (a file that cannot be read also breaks the quiz's links)."""
    found = problems_for(write_content(tmp_path, knowledge, MINI_QUIZ))
    return [p for p in found if p.startswith("knowledge/")]


def nested(levels: int) -> str:
    """MINI_KNOWLEDGE with `levels` lists inside its first aliases list (itself 4 deep)."""
    return MINI_KNOWLEDGE.replace(
        ALIASES, "    aliases: " + "[" * (levels + 1) + "]" * (levels + 1) + "\n"
    )


# -- duplicate keys ----------------------------------------------------------------------------


DUPLICATES = [
    pytest.param(
        MINI_KNOWLEDGE,
        MINI_QUIZ.replace("    answer: B\n", "    answer: B\n    answer: C\n"),
        "quizzes/mini.yaml:12: duplicate key 'answer' (first at line 11); keep one",
        id="in-an-item",
    ),
    pytest.param(
        MINI_KNOWLEDGE,
        MINI_QUIZ.replace(
            "      B: AutoML on Vertex AI\n",
            "      B: AutoML on Vertex AI\n      B: BigQuery ML\n",
            1,
        ),
        "quizzes/mini.yaml:10: duplicate key 'B' (first at line 9); keep one",
        id="in-choices",
    ),
    pytest.param(
        MINI_KNOWLEDGE.replace(
            "        note: Custom training runs your own code; AutoML needs none.\n",
            "        note: Custom training runs your own code; AutoML needs none.\n        note: again\n",
        ),
        MINI_QUIZ,
        "knowledge/mini.yaml:17: duplicate key 'note' (first at line 16); keep one",
        id="in-a-watch-out",
    ),
    pytest.param(
        MINI_KNOWLEDGE,
        MINI_QUIZ + "questions:\n  - id: q-extra\n",
        f"quizzes/mini.yaml:{MINI_QUIZ.count(chr(10)) + 1}: duplicate key 'questions' (first at line 1); keep one",
        id="top-level",
    ),
]


@pytest.mark.parametrize(("knowledge", "quiz", "expected"), DUPLICATES)
def test_duplicate_keys_name_both_lines(tmp_path, knowledge, quiz, expected):
    """A key written twice is a problem at the second, naming the first."""
    assert expected in problems_for(write_content(tmp_path, knowledge, quiz))


def test_duplicate_key_keeps_the_first_value(tmp_path):
    """The second `questions:` list does not silently replace the first."""
    root = write_content(tmp_path, MINI_KNOWLEDGE, MINI_QUIZ + "questions: []\n")
    catalog, _ = check_content(root)
    assert len(catalog.questions) == 3


def test_unknown_top_level_key_is_named_at_its_line(tmp_path):
    """A second top-level key (a typo, or a list meant for `entries:`) is not ignored."""
    knowledge = MINI_KNOWLEDGE + "entires: []\n"
    line = MINI_KNOWLEDGE.count("\n") + 1
    expected = (
        f"knowledge/mini.yaml:{line}: unknown top-level key 'entires'; a file holds 'entries:'"
    )
    assert expected in knowledge_problems(tmp_path, knowledge)


# -- anchors, aliases, depth, size ----------------------------------------------------------------

REFUSED = "anchors and aliases are not allowed; write the text out"


@pytest.mark.parametrize(
    ("knowledge", "line"),
    [
        pytest.param(MINI_KNOWLEDGE.replace(WHY, "    why: &why It trains.\n"), 13, id="anchor"),
        pytest.param(MINI_KNOWLEDGE.replace(WHY, "    why: *why\n"), 13, id="alias"),
        pytest.param(
            MINI_KNOWLEDGE.replace(
                "\n  - id: vertex-custom-training\n",
                "\n  - &second\n    id: vertex-custom-training\n",
            ),
            19,
            id="anchor-on-an-item",
        ),
        pytest.param(BOMB, 1, id="billion-laughs"),
    ],
)
def test_anchors_and_aliases_are_refused(tmp_path, knowledge, line):
    """`&name` and `*name` are refused where they first appear, before anything is expanded."""
    found = knowledge_problems(tmp_path, knowledge)
    assert [p for p in found if p.startswith("knowledge/")] == [
        f"knowledge/mini.yaml:{line}: {REFUSED}"
    ]


def test_merge_keys_are_refused(tmp_path):
    """`<<:` (YAML's merge key) would copy fields silently; it is refused at its line."""
    knowledge = MINI_KNOWLEDGE.replace(WHY, WHY + "    <<: {topic: Other}\n")
    assert "knowledge/mini.yaml:14: merge keys (<<) are not allowed; write the fields out" in (
        knowledge_problems(tmp_path, knowledge)
    )


@pytest.mark.parametrize(
    ("knowledge", "line"),
    [
        pytest.param(DEEP, 12, id="flow-lists-20000-deep"),
        pytest.param(
            MINI_KNOWLEDGE.replace(ALIASES, "    aliases:\n      " + "- " * 20_000 + "x\n"),
            13,
            id="block-lists-20000-deep",
        ),
        pytest.param(
            MINI_KNOWLEDGE.replace(
                ALIASES, "    aliases: " + "{a: " * 20_000 + "x" + "}" * 20_000 + "\n"
            ),
            12,
            id="mappings-20000-deep",
        ),
    ],
)
def test_deep_nesting_is_refused_where_it_gets_too_deep(tmp_path, knowledge, line):
    """Nesting past MAX_DEPTH is named at its line, with no recursion error."""
    expected = (
        f"knowledge/mini.yaml:{line}: lists and mappings nested more than {MAX_DEPTH} deep here"
    )
    assert any(p.startswith(expected) for p in knowledge_problems(tmp_path, knowledge))


def test_nesting_up_to_the_limit_is_read(tmp_path):
    """Exactly MAX_DEPTH levels read (and fail only as content); one more is refused."""
    at_limit = knowledge_problems(tmp_path / "at", nested(MAX_DEPTH - 4))
    over = knowledge_problems(tmp_path / "over", nested(MAX_DEPTH - 3))
    assert not any("nested more than" in p for p in at_limit)
    assert any("'aliases' must be a list of non-empty texts" in p for p in at_limit)
    assert any(p.startswith("knowledge/mini.yaml:12: lists and mappings nested") for p in over)


def test_too_many_values_are_refused(tmp_path):
    """A file of more than MAX_VALUES texts, lists and mappings is refused before it is built."""
    knowledge = MINI_KNOWLEDGE.replace(ALIASES, "    aliases:\n" + "      - a\n" * MAX_VALUES)
    found = knowledge_problems(tmp_path, knowledge)
    message = f"more than {MAX_VALUES:,} values in one file; split it into several files"
    lines = [int(p.split(":")[1]) for p in found if p.endswith(message)]
    assert len(lines) == 1 and 13 < lines[0] <= 13 + MAX_VALUES, found


def test_values_up_to_the_limit_are_read(tmp_path):
    """A file of exactly MAX_VALUES values is read; one more is refused."""
    empty = MINI_KNOWLEDGE.replace(ALIASES, "    aliases: []\n")
    base = sum(isinstance(e, yaml.NodeEvent) for e in yaml.parse(empty))
    at_limit = empty.replace(
        "    aliases: []\n", "    aliases:\n" + "      - a\n" * (MAX_VALUES - base)
    )
    over = at_limit.replace("    aliases:\n", "    aliases:\n      - a\n")
    assert not any("values in one file" in p for p in knowledge_problems(tmp_path / "at", at_limit))
    assert any("values in one file" in p for p in knowledge_problems(tmp_path / "over", over))


def test_file_over_the_size_limit_is_refused(tmp_path):
    """A 5 MB question text makes the file too big; it is refused at line 1 without parsing."""
    quiz = MINI_QUIZ.replace(
        "    question: Training stops", "    question: " + "x" * 5_000_000 + " Training stops"
    )
    found = problems_for(write_content(tmp_path, MINI_KNOWLEDGE, quiz))
    assert found == [
        f"quizzes/mini.yaml:1: file is larger than {MAX_FILE_BYTES:,} bytes; split it into several files"
    ]


def test_file_at_the_size_limit_is_read(tmp_path):
    """A valid file of exactly MAX_FILE_BYTES bytes loads."""
    padding = MAX_FILE_BYTES - len(MINI_KNOWLEDGE.encode()) - 1
    root = write_content(tmp_path, "#" + "x" * (padding - 1) + "\n" + MINI_KNOWLEDGE, MINI_QUIZ)
    assert (root / "knowledge" / "mini.yaml").stat().st_size == MAX_FILE_BYTES
    assert problems_for(root) == []


# -- files that cannot be read ------------------------------------------------------------------


def test_symlink_loop_is_named(tmp_path):
    """A `*.yaml` link that points at itself is named, with how to fix it."""
    root = write_content(tmp_path)
    (root / "knowledge" / "loop.yaml").symlink_to("loop.yaml")
    assert problems_for(root) == [
        "knowledge/loop.yaml:1: cannot read: a symbolic link that loops back on itself; point it at a file"
    ]


def test_dangling_symlink_is_named(tmp_path):
    """A link to a file that is gone says so."""
    root = write_content(tmp_path)
    (root / "knowledge" / "gone.yaml").symlink_to("missing.yaml")
    assert problems_for(root) == [
        "knowledge/gone.yaml:1: cannot read: a symbolic link to a file that does not exist; fix or remove it"
    ]


def test_folder_named_yaml_is_named(tmp_path):
    """A folder called `x.yaml` is not taken for a file."""
    root = write_content(tmp_path)
    (root / "quizzes" / "x.yaml").mkdir()
    assert problems_for(root) == [
        "quizzes/x.yaml:1: this is a folder, not a file; rename it so it does not end in .yaml"
    ]


def test_unreadable_file_says_permission_denied(tmp_path, monkeypatch):
    """A file we may not read is named with how to fix it (simulated: tests may run as root)."""
    root = write_content(tmp_path)
    real_open = Path.open

    def refuse(self: Path, *args, **kwargs):
        if self.name == "mini.yaml" and self.parent.name == "knowledge":
            raise PermissionError(13, "Permission denied", str(self))
        return real_open(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", refuse)
    found = problems_for(root)
    assert (
        found[0]
        == "knowledge/mini.yaml:1: cannot read: permission denied; make the file readable (chmod a+r)"
    )


def test_device_named_yaml_is_not_read(tmp_path):
    """A link to a device (here /dev/null) is refused as not a regular file."""
    root = write_content(tmp_path)
    (root / "knowledge" / "null.yaml").symlink_to("/dev/null")
    assert problems_for(root) == [
        "knowledge/null.yaml:1: not a regular file (a pipe or device?); make it a plain text file"
    ]


def test_linked_file_is_named_by_its_link(tmp_path, monkeypatch):
    """A problem in a file reached through a link names the link, where the writer looks."""
    root = write_content(tmp_path / "content")
    (tmp_path / "elsewhere.yaml").write_text("entries: []\nextra: 1\n", encoding="utf-8")
    (root / "knowledge" / "linked.yaml").symlink_to(tmp_path / "elsewhere.yaml")
    monkeypatch.chdir(tmp_path)
    assert [str(p) for p in check_content(Path("content"))[1]] == [
        "content/knowledge/linked.yaml:2: unknown top-level key 'extra'; a file holds 'entries:'"
    ]


def test_pipe_named_yaml_does_not_hang_check(tmp_path):
    """A named pipe called `x.yaml` is refused without being opened (opening one would block)."""
    root = write_content(tmp_path)
    os.mkfifo(root / "knowledge" / "pipe.yaml")
    result = tutor_check(root)
    assert result.returncode == 1
    assert "knowledge/pipe.yaml:1: not a regular file" in result.stdout


def test_non_utf8_is_named_at_its_line(tmp_path):
    """A byte that is not UTF-8 is named at its line, with the fix."""
    root = write_content(tmp_path)
    path = root / "knowledge" / "mini.yaml"
    path.write_bytes(MINI_KNOWLEDGE.replace(WHY, "    why: caf\xe9\n").encode("latin-1"))
    assert problems_for(root)[:1] == [
        "knowledge/mini.yaml:13: not UTF-8 text (byte 0xe9); save the file as UTF-8"
    ]


def test_control_character_is_named_at_its_real_line(tmp_path):
    """A control character is reported at its own line and column, not line 1."""
    knowledge = MINI_KNOWLEDGE.replace(WHY, "    why: It trains\x07 a model.\n")
    assert knowledge_problems(tmp_path, knowledge) == [
        "knowledge/mini.yaml:13: control character U+0007 at column 19; delete it (tabs and line breaks are fine)"
    ]


def test_impossible_date_is_named_at_its_line(tmp_path):
    """`checked: 2026-13-45` looks like a date to YAML but is none; named, not a traceback."""
    knowledge = MINI_KNOWLEDGE.replace("    checked: 2026-11-30\n", "    checked: 2026-13-45\n", 1)
    assert knowledge_problems(tmp_path, knowledge) == [
        "knowledge/mini.yaml:18: '2026-13-45' is not a real date or number; fix it, or quote it to keep it as text"
    ]


# -- the real command --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("knowledge", "expected"),
    [
        pytest.param(BOMB, f"knowledge/mini.yaml:1: {REFUSED}", id="billion-laughs"),
        pytest.param(DEEP, "knowledge/mini.yaml:12: lists and mappings nested", id="20000-deep"),
    ],
)
def test_tutor_check_refuses_attacks_with_file_and_line(tmp_path, knowledge, expected):
    """`tutor check` on an alias bomb or deep nesting exits 1 with FILE:LINE, no traceback."""
    result = tutor_check(write_content(tmp_path, knowledge, MINI_QUIZ))
    assert result.returncode == 1
    assert expected in result.stdout
    assert "Traceback" not in result.stdout + result.stderr
    assert "unexpected" not in result.stdout + result.stderr
