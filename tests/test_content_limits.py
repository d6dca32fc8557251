"""Content at every length limit still fits Slack's Block Kit whole, and the limits are documented."""

from __future__ import annotations

import re

import yaml
from slack_sdk.models.blocks import Block

from bot import knowledge, quiz
from bot.catalog import load_catalog
from bot.content import MAX_DEPTH, MAX_FILE_BYTES, MAX_VALUES, sent_length
from bot.matching import Lookup, Match
from bot.slack import blocks
from bot.tutor import Graded
from tests.conftest import SHIPPED_ROOT

SECTION_TEXT = 3000  # Slack: a section's text
MESSAGE_TEXT = 12_000  # Slack refuses a message whose blocks hold much more (msg_blocks_too_long)
PATTERN = "R&D <on> TPUs "  # escaping makes `&`, `<` and `>` longer on the way to Slack


def text(length: int) -> str:
    """A text exactly `length` characters long as Slack counts them, with `&`, `<` and `>`."""
    out = "z"
    while True:
        char = PATTERN[len(out) % len(PATTERN)]
        if sent_length(out + char + "z") > length:
            break
        out += char
    while sent_length(out) < length:
        out += "z"
    return out


def url(length: int) -> str:
    base = "https://cloud.google.com/"
    return base + "a" * (length - len(base))


def entry(ident: str, others: list[str]) -> dict:
    limit = knowledge.LIMITS
    return {
        "id": ident,
        "section": "3.2",
        "topic": text(limit["topic"]),
        "means": text(limit["means"]),
        "name": text(limit["name"]),
        "requirements": [f"{ident} {i} " + text(limit["requirements"] - 20) for i in range(5)],
        "aliases": [text(limit["aliases"])],
        "why": text(limit["why"]),
        "watch_out": [{"id": other, "note": text(limit["watch_out"])} for other in others],
        "status": "deprecated",
        "status_note": text(limit["status_note"]),
        "sources": [url(limit["sources"])],
        "checked": "2026-11-30",
    }


def question(ident: str, entries: list[str]) -> dict:
    limit = quiz.LIMITS
    letters = "ABCDE"
    return {
        "id": ident,
        "section": "3.2",
        "topic": text(limit["topic"]),
        "difficulty": "hard",
        "question": text(limit["question"]),
        "choices": {x: f"{x} " + text(limit["choices"] - 2) for x in letters},
        "answer": "A",
        "explanations": {x: text(limit["explanations"]) for x in letters},
        "entries": entries,
        "source": url(limit["source"]),
    }


def longest_content(tmp_path):
    """A catalog whose every text is at its limit: six entries that warn about each other."""
    ids = [f"entry-{i}" for i in range(6)]
    entries = [entry(i, [o for o in ids if o != i][:3]) for i in ids]
    questions = [question("q-longest", ids[:2])]
    for folder, key, items in (
        ("knowledge", "entries", entries),
        ("quizzes", "questions", questions),
    ):
        (tmp_path / folder).mkdir()
        dumped = yaml.safe_dump({key: items}, width=10**6, allow_unicode=True, sort_keys=False)
        (tmp_path / folder / "longest.yaml").write_text(dumped, encoding="utf-8")
    return load_catalog(tmp_path)


def fits(message: blocks.Message) -> None:
    """slack_sdk accepts every block, no text was clipped, and the whole stays under the cap."""
    assert 0 < len(message.blocks) <= 50
    parsed = Block.parse_all(message.blocks)
    assert None not in parsed
    shown = [block.to_dict() for block in parsed]
    assert "…" not in str(shown), "a text was clipped to fit"
    sections = [b["text"]["text"] for b in shown if b["type"] == "section"]
    assert all(len(s) <= SECTION_TEXT for s in sections)
    assert sum(len(s) for s in sections) <= MESSAGE_TEXT


def test_the_longest_answer_fits_slack_whole(tmp_path):
    """An answer with every field at its limit, a named mix-up and alternatives is not cut."""
    catalog = longest_content(tmp_path)
    kb = catalog.knowledge
    main, *others = kb.entries
    lookup = Lookup("q", Match(main, 99), tuple(Match(e, 50) for e in others[:3]), named=others[4])
    fits(blocks.answer(lookup, kb.get, asked="q", unsure=True, quizzable=True))
    fits(blocks.entry(main, kb.get, quizzable=True))


def test_the_longest_question_and_feedback_fit_slack_whole(tmp_path):
    """A five-choice question at every limit, and the feedback on a wrong answer, are not cut."""
    catalog = longest_content(tmp_path)
    asked = catalog.questions.questions[0]
    fits(blocks.question(1, asked, heading="Daily quick-check"))
    read_next = catalog.knowledge.entries[:2]
    fits(blocks.feedback(Graded(asked, "B", False, "recorded", read_next)))


def limits_section() -> str:
    readme = (SHIPPED_ROOT / "knowledge" / "README.md").read_text(encoding="utf-8")
    found = re.search(r"^## Limits\n(.*?)(?=^## |\Z)", readme, flags=re.M | re.S)
    assert found, "knowledge/README.md has no '## Limits' section"
    return found.group(1)


def test_readme_names_every_limit():
    """Each field's limit and each file limit appears in knowledge/README.md under "Limits"."""
    rows = limits_section().splitlines()
    for field, limit in {**knowledge.LIMITS, **quiz.LIMITS}.items():
        assert any(f"`{field}`" in r and f"| {limit:,} |" in r for r in rows), field
    for limit in (MAX_FILE_BYTES, MAX_VALUES, MAX_DEPTH):
        assert f"{limit:,}" in limits_section()
