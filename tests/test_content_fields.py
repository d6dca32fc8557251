"""Field checks: well-formed sources, no self-warnings, text that fits Slack, no hidden controls."""

from __future__ import annotations

import re

import pytest

from bot import knowledge, quiz
from bot.content import MAX_TEXT, Fields, Item
from bot.errors import Problem
from tests.conftest import MINI_KNOWLEDGE, MINI_QUIZ, write_content
from tests.test_content import problems_for

SOURCE = "    sources: [https://cloud.google.com/vertex-ai/docs/beginner/beginners-guide]\n"
QUIZ_SOURCE = "    source: https://cloud.google.com/vertex-ai/docs/beginner/beginners-guide\n"
WHY = "    why: It trains and tunes a model from labelled data with no code.\n"
NOTE = "        note: Custom training runs your own code; AutoML needs none.\n"


def swap(text: str, old: str, new: str) -> str:
    """`text` with the first `old` replaced; fails loudly when the fixture changed."""
    assert old in text, old
    return text.replace(old, new, 1)


# -- sources --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("https:// not a url", "it contains spaces"),
        ("https://cloud.google.com/vertex ai/docs", "it contains spaces"),
        ("http://cloud.google.com/vertex-ai/docs", "it must start with https://"),
        ("cloud.google.com/vertex-ai/docs", "it must start with https://"),
        ("https://", "it has no host name like cloud.google.com"),
        ("https:///vertex-ai/docs", "it has no host name like cloud.google.com"),
        ("https://localhost/docs", "it has no host name like cloud.google.com"),
        ("https://cloud..google.com/docs", "it has no host name like cloud.google.com"),
        (
            "https://cloud.google.com@evil.example/docs",
            "it has a user name before '@', which hides the real host",
        ),
        ("https://cloud.google.com:port/docs", "it does not parse as a URL"),
        ("https://[::1/docs", "it does not parse as a URL"),
    ],
)
def test_malformed_source_is_named(tmp_path, url, why):
    """An entry's source must be a well-formed https URL with a real host."""
    root = write_content(tmp_path, swap(MINI_KNOWLEDGE, SOURCE, f'    sources: ["{url}"]\n'))
    expected = (
        f"knowledge/mini.yaml:2: 'automl': source '{url}' is not a well-formed https URL ({why})"
    )
    assert any(p.startswith(expected) for p in problems_for(root)), problems_for(root)


def test_malformed_question_source_is_named(tmp_path):
    """A question's source gets the same check."""
    root = write_content(
        tmp_path, quiz=swap(MINI_QUIZ, QUIZ_SOURCE, "    source: https:// not a url\n")
    )
    expected = "quizzes/mini.yaml:2: 'q-no-code': source 'https:// not a url' is not a well-formed https URL"
    assert any(p.startswith(expected) for p in problems_for(root))


@pytest.mark.parametrize(
    "url",
    [
        "https://cloud.google.com/vertex-ai/docs/training/overview",
        "https://cloud.google.com/vertex-ai/docs?hl=en#tpu",
        "https://www.tensorflow.org:443/guide/gpu",
        "https://keras.io",
    ],
)
def test_well_formed_source_passes(tmp_path, url):
    """Ordinary documentation addresses (query, fragment, port, no path) are accepted."""
    root = write_content(tmp_path, swap(MINI_KNOWLEDGE, SOURCE, f'    sources: ["{url}"]\n'))
    assert problems_for(root) == []


# -- watch-outs -----------------------------------------------------------------------------


def test_watch_out_at_its_own_entry_is_named_at_its_line(tmp_path):
    """A watch-out pointing at its own entry is reported at the watch-out."""
    own = (
        "      - id: automl\n        note: Custom training runs your own code; AutoML needs none.\n"
    )
    knowledge_text = swap(MINI_KNOWLEDGE, "      - id: vertex-custom-training\n" + NOTE, own)
    assert problems_for(write_content(tmp_path, knowledge_text)) == [
        "knowledge/mini.yaml:15: 'automl': watch_out points at its own entry; "
        "point it at the entry learners confuse this one with"
    ]


def test_watch_out_note_must_be_text(tmp_path):
    """A note that is a list is refused rather than shown as "['...']"."""
    knowledge_text = swap(MINI_KNOWLEDGE, NOTE, "        note: [a, b]\n")
    assert "knowledge/mini.yaml:2: 'automl': a watch_out's 'id' and 'note' must be text" in (
        problems_for(write_content(tmp_path, knowledge_text))
    )


def test_explanation_must_be_text(tmp_path):
    """An explanation that is a list is refused rather than shown as "['...']"."""
    quiz_text = swap(
        MINI_QUIZ, "      C: A fix for memory errors, not a way to train.\n", "      C: [a, b]\n"
    )
    assert "quizzes/mini.yaml:2: 'q-no-code': the explanation for C must be text" in (
        problems_for(write_content(tmp_path, quiz=quiz_text))
    )


# -- lengths --------------------------------------------------------------------------------


def words(length: int) -> str:
    return ("word " * length)[: length - 1] + "z"


def address(length: int) -> str:
    return "https://cloud.google.com/" + "a" * (length - 25)


def ident(length: int) -> str:
    return "a" * length


# (which file, the line to change, the new line with {v}, the kind of value, its limit)
LENGTHS = [
    (
        "knowledge",
        "    topic: Training methods\n",
        "    topic: {v}\n",
        words,
        knowledge.LIMITS["topic"],
    ),
    (
        "knowledge",
        "    means: AutoML on Vertex AI\n",
        "    means: {v}\n    name: AutoML\n",
        words,
        knowledge.LIMITS["means"],
    ),
    (
        "knowledge",
        "    means: AutoML on Vertex AI\n",
        "    means: AutoML on Vertex AI\n    name: {v}\n",
        words,
        knowledge.LIMITS["name"],
    ),
    ("knowledge", WHY, "    why: {v}\n", words, knowledge.LIMITS["why"]),
    (
        "knowledge",
        "    status_note: Newer pages call it serverless training.\n",
        "    status_note: {v}\n",
        words,
        knowledge.LIMITS["status_note"],
    ),
    (
        "knowledge",
        "      - train a model without writing any code\n",
        "      - {v}\n",
        words,
        knowledge.LIMITS["requirements"],
    ),
    (
        "knowledge",
        "    aliases: [AutoML, Vertex AI AutoML]\n",
        "    aliases: [AutoML, {v}]\n",
        words,
        knowledge.LIMITS["aliases"],
    ),
    ("knowledge", NOTE, "        note: {v}\n", words, knowledge.LIMITS["watch_out"]),
    ("knowledge", SOURCE, "    sources: [{v}]\n", address, knowledge.LIMITS["sources"]),
    ("knowledge", "  - id: oom-batch-size\n", "  - id: {v}\n", ident, knowledge.LIMITS["id"]),
    ("quiz", "  - id: q-no-code\n", "  - id: {v}\n", ident, quiz.LIMITS["id"]),
    ("quiz", "    topic: Training methods\n", "    topic: {v}\n", words, quiz.LIMITS["topic"]),
    (
        "quiz",
        "    question: A team with no ML coders needs an image classifier. What should they use?\n",
        "    question: {v}\n",
        words,
        quiz.LIMITS["question"],
    ),
    (
        "quiz",
        "      A: Vertex AI custom training\n",
        "      A: {v}\n",
        words,
        quiz.LIMITS["choices"],
    ),
    (
        "quiz",
        "      A: Needs code the team cannot write.\n",
        "      A: {v}\n",
        words,
        quiz.LIMITS["explanations"],
    ),
    (
        "quiz",
        "    entries: [oom-batch-size]\n",
        "    entries: [{v}]\n",
        ident,
        quiz.LIMITS["entries"],
    ),
    ("quiz", QUIZ_SOURCE, "    source: {v}\n", address, quiz.LIMITS["source"]),
]


def with_value(which: str, old: str, new: str, make, length: int) -> tuple[str, str]:
    value = make(length)
    if which == "knowledge":
        return swap(MINI_KNOWLEDGE, old, new.format(v=value)), MINI_QUIZ
    return MINI_KNOWLEDGE, swap(MINI_QUIZ, old, new.format(v=value))


def length_problems(tmp_path, which, old, new, make, length) -> list[str]:
    found = problems_for(write_content(tmp_path, *with_value(which, old, new, make, length)))
    return [p for p in found if "characters; keep it to" in p]


@pytest.mark.parametrize(("which", "old", "new", "make", "limit"), LENGTHS)
def test_text_over_its_limit_is_named(tmp_path, which, old, new, make, limit):
    """One character over a field's limit is a problem that names the length and the limit."""
    found = length_problems(tmp_path, which, old, new, make, limit + 1)
    assert len(found) == 1, found
    assert re.search(r"has \d+ characters; keep it to \d+$", found[0])


@pytest.mark.parametrize(("which", "old", "new", "make", "limit"), LENGTHS)
def test_text_at_its_limit_passes(tmp_path, which, old, new, make, limit):
    """A field exactly at its limit is fine."""
    assert length_problems(tmp_path, which, old, new, make, limit) == []


def test_question_limit_counts_the_whole_question(tmp_path):
    """The 5 MB question of the issue, shrunk to fit the file limit, is named at its item."""
    quiz_text = swap(
        MINI_QUIZ,
        "    question: Training stops",
        "    question: " + "x" * 400_000 + " Training stops",
    )
    length = len(" Training stops with GPU out-of-memory on step one. What first?") + 400_000
    found = problems_for(write_content(tmp_path, quiz=quiz_text))
    assert found == [
        f"quizzes/mini.yaml:36: 'q-oom': 'question' has {length} characters; keep it to 1000"
    ]


def test_length_counts_escaped_characters(tmp_path):
    """`&` counts 5 and `<` 4, as Slack receives them: 200 `&` fit a 1000-character why, 201 do not."""
    at_limit = swap(MINI_KNOWLEDGE, WHY, '    why: "' + "&" * 200 + '"\n')
    over = swap(MINI_KNOWLEDGE, WHY, '    why: "' + "&" * 199 + '<<"\n')
    assert problems_for(write_content(tmp_path / "at", at_limit)) == []
    assert problems_for(write_content(tmp_path / "over", over)) == [
        "knowledge/mini.yaml:2: 'automl': 'why' has 1003 characters (& counts 5, < and > 4); keep it to 1000"
    ]


def test_name_taken_from_means_must_fit_a_button(tmp_path):
    """Without `name`, the name taken from `means` is held to the name limit too."""
    limit = knowledge.MAX_NAME
    long = swap(
        MINI_KNOWLEDGE,
        "    means: AutoML on Vertex AI\n",
        f'    means: "{"n" * (limit + 1)} (AutoML): on Vertex"\n',
    )
    fits = swap(
        MINI_KNOWLEDGE,
        "    means: AutoML on Vertex AI\n",
        f'    means: "{"n" * limit} (AutoML): on Vertex"\n',
    )
    named = swap(
        long, "    topic: Training methods\n", "    topic: Training methods\n    name: AutoML\n"
    )
    assert problems_for(write_content(tmp_path / "long", long)) == [
        f"knowledge/mini.yaml:2: 'automl': the name taken from 'means' has {limit + 1} characters, "
        f"too long for a button; add a 'name' of at most {limit}"
    ]
    assert problems_for(write_content(tmp_path / "fits", fits)) == []
    assert problems_for(write_content(tmp_path / "named", named)) == []


def test_field_without_its_own_limit_gets_one_section():
    """A text read without a limit of its own (e.g. an item-lint exception) is held to MAX_TEXT."""
    problems: list[Problem] = []
    item = Item(why="w" * MAX_TEXT, rule="w" * (MAX_TEXT + 1))
    fields = Fields(item, "f.yaml", problems)
    fields.text("why")
    fields.text("rule")
    assert [p.message for p in problems] == [
        f"this item: 'rule' has {MAX_TEXT + 1} characters; keep it to {MAX_TEXT}"
    ]


# -- control characters written as escapes ----------------------------------------------------


@pytest.mark.parametrize(
    ("knowledge_text", "expected"),
    [
        pytest.param(
            swap(MINI_KNOWLEDGE, WHY, '    why: "It trains\\a a model."\n'),
            "knowledge/mini.yaml:2: 'automl': 'why' holds control character U+0007; remove it",
            id="bell-in-why",
        ),
        pytest.param(
            swap(
                MINI_KNOWLEDGE,
                "      - train a model without writing any code\n",
                '      - "train\\x1b[31m a model"\n',
            ),
            "knowledge/mini.yaml:2: 'automl': a text in 'requirements' holds control character U+001B; remove it",
            id="escape-in-a-requirement",
        ),
    ],
)
def test_control_character_written_as_an_escape_is_named(tmp_path, knowledge_text, expected):
    """A double-quoted `\\a` or `\\x1b` puts a control character in the text; it is refused."""
    assert expected in problems_for(write_content(tmp_path, knowledge_text))


def test_tabs_and_line_breaks_in_text_are_fine(tmp_path):
    """Tabs and line breaks inside a text are not control characters for this check."""
    knowledge_text = swap(MINI_KNOWLEDGE, WHY, '    why: "It trains\\tand tunes.\\nNo code."\n')
    assert problems_for(write_content(tmp_path, knowledge_text)) == []
