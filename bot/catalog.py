"""The shipped content as one unit: knowledge and questions, loaded and checked together."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from bot.content import DOMAINS, SECTIONS
from bot.errors import ContentError, FileProblem, Problem
from bot.knowledge import KnowledgeBase, read_knowledge
from bot.quiz import QuestionBank, read_questions


@dataclass(frozen=True)
class Catalog:
    """Everything the tutor teaches."""

    knowledge: KnowledgeBase
    questions: QuestionBank


def check_content(root: Path) -> tuple[Catalog, list[Problem]]:
    """Read `knowledge/` and `quizzes/` under `root`; every problem found, in file order.

    A file that cannot be read at all (a syntax error) is reported alone: the "unknown entry"
    problems it causes elsewhere go away with it.
    """
    knowledge, problems = read_knowledge(root / "knowledge")
    ids = {entry.id for entry in knowledge.entries}
    questions, quiz_problems = read_questions(root / "quizzes", ids)
    found = problems + quiz_problems
    unreadable: list[Problem] = [p for p in found if isinstance(p, FileProblem)]
    return Catalog(knowledge, questions), unreadable or found  # the follow-ons are noise


def load_catalog(root: Path) -> Catalog:
    """The content under `root`, or a ContentError naming every problem."""
    catalog, problems = check_content(root)
    if problems:
        raise ContentError(problems)
    return catalog


def coverage_table(catalog: Catalog) -> str:
    """Domain and section → entries and questions, as the Markdown table in knowledge/README.md.

    Each domain's row carries its weight on the exam, its sections' rows follow it.
    """
    lines = ["| section | title | exam weight | entries | questions |", "|---|---|---:|---:|---:|"]
    entries = Counter(e.section for e in catalog.knowledge.entries)
    questions = Counter(q.section for q in catalog.questions.questions)
    for domain, (name, weight) in DOMAINS.items():
        mine = [s for s in SECTIONS if s.split(".")[0] == domain]
        in_domain = sum(entries[s] for s in mine), sum(questions[s] for s in mine)
        lines.append(
            f"| **{domain}** | **{name}** | **~{weight}%** | **{in_domain[0]}** | "
            f"**{in_domain[1]}** |"
        )
        lines += [f"| {s} | {SECTIONS[s]} | | {entries[s]} | {questions[s]} |" for s in mine]
    total_q = len(catalog.questions)
    lines.append(f"| | **total** | | **{len(catalog.knowledge)}** | **{total_q}** |")
    return "\n".join(lines)
