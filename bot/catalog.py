"""The shipped content as one unit: knowledge and questions, loaded and checked together."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bot.content import SECTIONS
from bot.errors import ContentError, Problem
from bot.knowledge import KnowledgeBase, read_knowledge
from bot.quiz import QuestionBank, read_questions


@dataclass(frozen=True)
class Catalog:
    """Everything the tutor teaches."""

    knowledge: KnowledgeBase
    questions: QuestionBank


def check_content(root: Path) -> tuple[Catalog, list[Problem]]:
    """Read `knowledge/` and `quizzes/` under `root`; every problem found, in file order."""
    knowledge, problems = read_knowledge(root / "knowledge")
    ids = {entry.id for entry in knowledge.entries}
    questions, quiz_problems = read_questions(root / "quizzes", ids)
    return Catalog(knowledge, questions), problems + quiz_problems


def load_catalog(root: Path) -> Catalog:
    """The content under `root`, or a ContentError naming every problem."""
    catalog, problems = check_content(root)
    if problems:
        raise ContentError(problems)
    return catalog


def coverage_table(catalog: Catalog) -> str:
    """Section → entries and questions, as the Markdown table in knowledge/README.md."""
    lines = ["| section | title | entries | questions |", "|---|---|---:|---:|"]
    for section, title in SECTIONS.items():
        entries = sum(e.section == section for e in catalog.knowledge.entries)
        questions = sum(q.section == section for q in catalog.questions.questions)
        lines.append(f"| {section} | {title} | {entries} | {questions} |")
    total_q = len(catalog.questions)
    lines.append(f"| | **total** | **{len(catalog.knowledge)}** | **{total_q}** |")
    return "\n".join(lines)
