"""The independent evaluation sets (learner questions and practice items) stay well formed.

They were written from public study material by someone who did not read the knowledge base,
so this test is the only place that compares them with the knowledge's phrasings.
"""

from __future__ import annotations

import re
import runpy
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import pytest
import yaml
from rapidfuzz import fuzz, process, utils

from bot.catalog import load_catalog

ROOT = Path(__file__).resolve().parents[1]
EVAL = ROOT / "tests" / "eval"

half_of = runpy.run_path(str(EVAL / "split_independent.py"))["half_of"]

KINDS = {
    "need",
    "symptom",
    "comparison",
    "casual",
    "trap",
    "scenario",
    "uncovered",
    "out_of_scope",
}
SECTION = re.compile(r"^[1-6]\.[1-3]$")
URL = re.compile(r"^https://[^\s/]+\.[^\s/]+(/\S*)?$")
NEAR_COPY = 90
CATALOG = load_catalog(ROOT)
IDS = {e.id for e in CATALOG.knowledge.entries}
PHRASINGS = [utils.default_process(r) for e in CATALOG.knowledge.entries for r in e.requirements]


def _load(path: Path) -> list[dict]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(data, list), path
    return data


def _items(files: dict[str, Path]):
    return [(h, item) for h, p in files.items() for item in _load(p)]


def _halves(name: str) -> dict[str, Path]:
    return {h: EVAL / f"{name}_{h}.yaml" for h in ("tune", "test")}


@dataclass
class Generation:
    """One writer's sets: files, who wrote them, least sizes and the writer's rules."""

    learner: dict[str, Path]
    practice: dict[str, Path]
    writer: str
    least_learner: int
    least_practice: int
    scopeless: bool  # out-of-scope lines carry no section (the later writers' rule)
    near_copy: bool  # its questions are checked against every other evaluation file's text
    date: str = "2026-12-01"  # the day the writer's header names

    @cached_property
    def learner_items(self) -> list[tuple[str, dict]]:
        return _items(self.learner)

    @cached_property
    def practice_items(self) -> list[tuple[str, dict]]:
        return _items(self.practice)

    @property
    def files(self) -> set[Path]:
        return set(self.learner.values()) | set(self.practice.values())


def _later(ordinal: str, date: str) -> Generation:
    """A later writer's sets: the same least sizes and rules as the third writer's."""
    return Generation(
        _halves(f"{ordinal}_learner"),
        _halves(f"{ordinal}_practice"),
        writer=f"{'an' if ordinal[0] in 'aeiou' else 'a'} {ordinal} evaluation helper",
        least_learner=180,
        least_practice=70,
        scopeless=True,
        near_copy=True,
        date=date,
    )


GENERATIONS = {
    "first": Generation(
        _halves("independent_learner"),
        _halves("practice"),
        writer="evaluation helper",
        least_learner=80,
        least_practice=30,
        scopeless=False,
        near_copy=False,
    ),
    # a second writer, other public material, after the first test halves had been measured
    # too often
    "fresh": Generation(
        _halves("fresh_learner"),
        _halves("fresh_practice"),
        writer="a second evaluation helper",
        least_learner=200,
        least_practice=80,
        scopeless=True,
        near_copy=True,
    ),
    # later writers, each from material none of the earlier writers used, after every earlier
    # test half had been measured: the third and fourth on one day, the fifth and sixth the next
    **{
        ordinal: _later(ordinal, date)
        for ordinal, date in (
            ("third", "2026-12-01"),
            ("fourth", "2026-12-01"),
            ("fifth", "2026-12-02"),
            ("sixth", "2026-12-02"),
            ("seventh", "2026-12-02"),
            ("eighth", "2026-12-02"),
            ("ninth", "2026-12-02"),
            ("tenth", "2026-12-02"),
            ("eleventh", "2026-12-02"),
            ("twelfth", "2026-12-02"),
        )
    },
}
EACH = pytest.mark.parametrize("generation", list(GENERATIONS))
EVERY_SET = pytest.mark.parametrize(
    ("generation", "kind", "key"),
    [
        pytest.param(name, kind, key, id=f"{name}-{kind}")
        for name in GENERATIONS
        for kind, key in (("learner", "q"), ("practice", "stem"))
    ],
)


def _set(generation: str, kind: str) -> list[tuple[str, dict]]:
    g = GENERATIONS[generation]
    return g.learner_items if kind == "learner" else g.practice_items


@EACH
def test_files_have_the_header(generation):
    g = GENERATIONS[generation]
    for files in (g.learner, g.practice):
        for half, path in files.items():
            head = path.read_text(encoding="utf-8")[:3000]
            assert f"{g.writer} session, {g.date}" in head
            assert f"the {half.upper()} half" in head
            assert "Do not tune on the test half; measure it sparingly" in head


@EACH
def test_sizes(generation):
    g = GENERATIONS[generation]
    assert len(g.learner_items) >= g.least_learner
    assert len(g.practice_items) >= g.least_practice


@EVERY_SET
def test_every_item_is_in_its_hash_half(generation, kind, key):
    items = _set(generation, kind)
    wrong = [item[key][:60] for half, item in items if half_of(item[key]) != half]
    assert wrong == []


@EVERY_SET
def test_no_duplicates(generation, kind, key):
    texts = [utils.default_process(item[key]) for _, item in _set(generation, kind)]
    assert len(texts) == len(set(texts))


@EACH
def test_learner_fields(generation):
    scopeless = GENERATIONS[generation].scopeless
    for _, item in GENERATIONS[generation].learner_items:
        assert isinstance(item.get("q"), str) and item["q"].strip(), item
        assert "expect" in item, item
        assert item.get("kind") in KINDS, item
        assert URL.match(item.get("source") or ""), item
        if item["kind"] == "out_of_scope":
            assert item["expect"] is None, item
        if item["kind"] == "out_of_scope" and scopeless:
            assert item.get("section") is None and "key_source" not in item, item
        else:
            assert isinstance(item.get("section"), str) and SECTION.match(item["section"]), item
        if item["kind"] != "out_of_scope":
            assert URL.match(item.get("key_source") or ""), item
        if item["kind"] == "uncovered":
            assert item["expect"] is None, item
        if item["expect"] is None:
            assert item["kind"] in {"uncovered", "out_of_scope"}, item


@EACH
def test_practice_fields(generation):
    for _, item in GENERATIONS[generation].practice_items:
        assert isinstance(item.get("stem"), str) and item["stem"].strip(), item
        choices = item.get("choices")
        assert isinstance(choices, dict) and sorted(choices) == ["a", "b", "c", "d"], item
        assert all(isinstance(v, str) and v.strip() for v in choices.values()), item
        assert item.get("answer") in choices, item
        assert "concept" in item, item
        assert isinstance(item.get("section"), str) and SECTION.match(item["section"]), item
        assert URL.match(item.get("source") or ""), item
        assert URL.match(item.get("key_source") or ""), item


@EACH
def test_practice_keys_vary(generation):
    answers = {item["answer"] for _, item in GENERATIONS[generation].practice_items}
    assert answers == {"a", "b", "c", "d"}


@EACH
def test_labels_name_shipped_entries(generation):
    g = GENERATIONS[generation]
    labels = [i["expect"] for _, i in g.learner_items] + [i["concept"] for _, i in g.practice_items]
    unknown = {x for x in labels if x is not None} - IDS
    assert unknown == set()


def _near_copies(texts: list[str]) -> list[tuple[str, int]]:
    found = []
    for text in texts:
        t = utils.default_process(text)
        best = max(max(fuzz.token_set_ratio(t, p), fuzz.ratio(t, p)) for p in PHRASINGS)
        if best >= NEAR_COPY:
            found.append((text, int(best)))
    return found


def _texts(generation: str) -> list[str]:
    g = GENERATIONS[generation]
    return [i["q"] for _, i in g.learner_items] + [i["stem"] for _, i in g.practice_items]


@EACH
def test_no_question_copies_a_knowledge_phrasing(generation):
    assert _near_copies(_texts(generation)) == []


def _other_eval_texts(own: set[Path]) -> list[str]:
    """Every sentence-like string in the evaluation files other than `own`, lowercased.

    The later writers never read these files; this test is the only place that
    compares them. Any string leaf of four words or more counts (question, stem, choice), URLs
    excepted.
    """
    found: list[str] = []

    def walk(node):
        if isinstance(node, dict):
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
        elif isinstance(node, str) and len(node.split()) >= 4 and "://" not in node:
            found.append(node.lower())

    for path in sorted(EVAL.glob("*.yaml")):
        if path in own:
            continue
        walk(yaml.safe_load(path.read_text(encoding="utf-8")))
    return found


@pytest.mark.parametrize("generation", [n for n, g in GENERATIONS.items() if g.near_copy])
def test_no_question_copies_another_evaluation_file(generation):
    """A later writer's question or stem is no near-copy of any other evaluation file's text."""
    others = _other_eval_texts(GENERATIONS[generation].files)
    found = []
    for text in _texts(generation):
        best = process.extractOne(text.lower(), others, scorer=fuzz.ratio, score_cutoff=NEAR_COPY)
        if best is not None:
            found.append((text, int(best[1])))
    assert found == []
