"""Quick-check questions read from `quizzes/*.yaml`, and choosing which one to ask next."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from bot.content import (
    DOMAINS,
    Fields,
    clipped,
    display_name,
    duplicate_ids,
    read_items,
    unknown_keys,
    yaml_files,
)
from bot.errors import ContentError, Problem

LETTERS = ("A", "B", "C", "D", "E")
DIFFICULTIES = ("easy", "medium", "hard")
_KEYS = {
    "id",
    "section",
    "topic",
    "difficulty",
    "question",
    "choices",
    "answer",
    "explanations",
    "entries",
    "source",
}
# The most characters per field (per choice or explanation), so a question and its feedback fit
# Slack's blocks with nothing cut: see "Limits" in knowledge/README.md for how they add up.
LIMITS = {
    "id": 64,
    "topic": 60,
    "question": 1000,
    "choices": 300,
    "explanations": 600,
    "entries": 64,
    "source": 500,
}


@dataclass(frozen=True)
class Question:
    """A multiple-choice question with a reason for every choice."""

    id: str
    section: str
    topic: str
    difficulty: str
    question: str
    choices: tuple[tuple[str, str], ...]  # (letter, text) in order
    answer: str
    explanations: dict[str, str]
    entries: tuple[str, ...]
    source: str
    file: str = ""
    line: int = 0

    @property
    def letters(self) -> tuple[str, ...]:
        return tuple(letter for letter, _ in self.choices)

    def choice_text(self, letter: str) -> str:
        return dict(self.choices)[letter]


@dataclass(frozen=True)
class QuestionBank:
    """Every question, in file order, with lookups by id and by knowledge entry."""

    questions: tuple[Question, ...]

    _by_id: dict[str, Question] = field(init=False, repr=False, compare=False)
    _main: dict[str, list[Question]] = field(init=False, repr=False, compare=False)
    _rest: dict[str, list[Question]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {q.id: q for q in self.questions})
        main: dict[str, list[Question]] = {}
        rest: dict[str, list[Question]] = {}
        for q in self.questions:  # every answer asks whether its entry has questions
            for n, entry_id in enumerate(q.entries):
                (main if n == 0 else rest).setdefault(entry_id, []).append(q)
        object.__setattr__(self, "_main", main)
        object.__setattr__(self, "_rest", rest)

    def get(self, question_id: str) -> Question | None:
        return self._by_id.get(question_id)

    def about(self, entry_id: str) -> tuple[Question, ...]:
        """Questions that exercise an entry, those whose main entry it is first."""
        return tuple(self._main.get(entry_id, []) + self._rest.get(entry_id, []))

    def __len__(self) -> int:
        return len(self.questions)


def normalize_choice(text: str, letters: tuple[str, ...]) -> str | None:
    """'b', 'B', '2' or 'b)' → 'B' when it is one of `letters`; otherwise None."""
    cleaned = text.strip().rstrip(").:").upper()
    if cleaned.isdigit() and 1 <= int(cleaned) <= len(letters):
        return letters[int(cleaned) - 1]
    return cleaned if cleaned in letters else None


def choose_question(
    bank: QuestionBank,
    *,
    asked: Iterable[str] = (),
    weak_sections: Iterable[str] = (),
    only: Iterable[str] | None = None,
    sections: Iterable[str] = (),
    rng: random.Random,
) -> Question:
    """The next question: never one already asked until the pool is used up, then start over.

    Domains come in proportion to their weight on the exam (the one furthest below its share of
    what was asked goes first); within a domain the least-asked section goes first; among those,
    a weak one (listed first = weakest) wins. `only` narrows the pool to some questions (one
    entry's), `sections` to some exam sections (a team working through one chapter).
    """
    wanted = set(sections)
    pool = [
        q
        for q in bank.questions
        if (only is None or q.id in set(only)) and (not wanted or q.section in wanted)
    ] or list(bank.questions)
    asked_list = list(asked)
    fresh = [q for q in pool if q.id not in set(asked_list)] or pool
    earlier = [q for a in asked_list if (q := bank.get(a)) is not None]
    per_section = Counter(q.section for q in earlier)
    per_domain = Counter(_domain(q.section) for q in earlier)
    behind = min(per_domain[_domain(q.section)] / _weight(q.section) for q in fresh)
    fresh = [q for q in fresh if per_domain[_domain(q.section)] / _weight(q.section) == behind]
    weakness = {s: i for i, s in enumerate(weak_sections)}
    least = min(per_section[q.section] for q in fresh)
    candidates = [q for q in fresh if per_section[q.section] == least]
    if weakness:
        best = min(weakness.get(q.section, len(weakness)) for q in candidates)
        candidates = [q for q in candidates if weakness.get(q.section, len(weakness)) == best]
    return rng.choice(candidates)


def read_questions(
    folder: Path, entry_ids: set[str] | None = None
) -> tuple[QuestionBank, list[Problem]]:
    """Read and validate every quiz file; `entry_ids` lets links to knowledge be checked."""
    problems: list[Problem] = []
    files = yaml_files(folder)
    if not files:
        problems.append(Problem(str(folder), 1, "no quiz files (*.yaml) here; add at least one"))
    questions: list[Question] = []
    seen: dict[str, Problem] = {}
    for path in files:
        for item in read_items(path, "questions", problems):
            fields = Fields(item, display_name(path), problems, LIMITS)
            question = _question(fields, entry_ids)
            clash = duplicate_ids(
                seen, question.id, Problem(question.file, question.line, ""), "question"
            )
            if clash:
                problems.append(clash)
            elif question.id and question.choices and question.answer:
                questions.append(question)
    return QuestionBank(tuple(questions)), problems


def load_questions(folder: Path, entry_ids: set[str] | None = None) -> QuestionBank:
    """The question bank, or a ContentError naming every problem."""
    bank, problems = read_questions(folder, entry_ids)
    if problems:
        raise ContentError(problems)
    return bank


def _question(fields: Fields, entry_ids: set[str] | None) -> Question:
    for key in unknown_keys(fields.item, _KEYS):
        fields.problem(f"{fields.label}: unknown field '{key}' (typo?)")
    choices = _choices(fields)
    letters = tuple(letter for letter, _ in choices)
    answer = fields.text("answer")
    if answer and choices and answer not in letters:
        fields.problem(
            f"{fields.label}: answer '{answer}' is not one of the choices ({', '.join(letters)})"
        )
        answer = ""
    explanations = _explanations(fields, letters)
    entries = fields.texts("entries", minimum=1)
    if entry_ids is not None:
        for entry in entries:
            if entry not in entry_ids:
                fields.problem(f"{fields.label}: links unknown knowledge entry '{entry}'")
    return Question(
        id=fields.ident(),
        section=fields.section(),
        topic=fields.text("topic"),
        difficulty=fields.choice("difficulty", DIFFICULTIES, "medium"),
        question=fields.text("question"),
        choices=choices,
        answer=answer,
        explanations=explanations,
        entries=entries,
        source=(fields.urls("source") or ("",))[0],
        file=fields.file,
        line=fields.item.line,
    )


def _choices(fields: Fields) -> tuple[tuple[str, str], ...]:
    raw = fields.item.get("choices")
    if not isinstance(raw, dict):
        fields.problem(f"{fields.label}: 'choices' must be a mapping like A: ..., B: ..., C: ...")
        return ()
    letters = tuple(str(k) for k in raw)
    if not 3 <= len(letters) <= len(LETTERS) or letters != LETTERS[: len(letters)]:
        fields.problem(f"{fields.label}: choices must be 3 to 5, keyed A, B, C, D, E in order")
        return ()
    if any(not isinstance(v, str) or not v.strip() for v in raw.values()):
        fields.problem(f"{fields.label}: every choice needs text")
        return ()
    for letter, text in raw.items():
        fields.check_text("choices", text.strip(), f"choice {letter}")
    return tuple((str(k), v.strip()) for k, v in raw.items())


def _explanations(fields: Fields, letters: tuple[str, ...]) -> dict[str, str]:
    raw = fields.item.get("explanations")
    if not isinstance(raw, dict):
        fields.problem(f"{fields.label}: 'explanations' must map each choice letter to a reason")
        return {}
    missing = [letter for letter in letters if not str(raw.get(letter, "")).strip()]
    if missing:
        fields.problem(f"{fields.label}: explanations missing for {', '.join(missing)}")
    for letter, text in raw.items():
        if isinstance(text, str):
            fields.check_text(
                "explanations", text.strip(), f"the explanation for {clipped(str(letter))}"
            )
        elif text is not None:
            fields.problem(
                f"{fields.label}: the explanation for {clipped(str(letter))} must be text"
            )
    return {str(k): str(v).strip() for k, v in raw.items()}


def _domain(section: str) -> str:
    return section.split(".")[0]


def _weight(section: str) -> int:
    """A section's domain's share of the exam, in percent (1 for an unknown domain)."""
    return DOMAINS.get(_domain(section), ("", 1))[1]
