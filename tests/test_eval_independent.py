"""The independent evaluation sets (learner questions and practice items) stay well formed.

They were written from public study material by someone who did not read the knowledge base,
so this test is the only place that compares them with the knowledge's phrasings.
"""

from __future__ import annotations

import re
import runpy
from pathlib import Path

import pytest
import yaml
from rapidfuzz import fuzz, process, utils

from bot.catalog import load_catalog

ROOT = Path(__file__).resolve().parents[1]
EVAL = ROOT / "tests" / "eval"

half_of = runpy.run_path(str(EVAL / "split_independent.py"))["half_of"]

LEARNER = {h: EVAL / f"independent_learner_{h}.yaml" for h in ("tune", "test")}
PRACTICE = {h: EVAL / f"practice_{h}.yaml" for h in ("tune", "test")}
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


LEARNER_ITEMS = _items(LEARNER)
PRACTICE_ITEMS = _items(PRACTICE)


def test_files_have_the_header():
    for files in (LEARNER, PRACTICE):
        for half, path in files.items():
            head = path.read_text(encoding="utf-8")[:3000]
            assert "evaluation helper session, 2026-12-01" in head
            assert f"the {half.upper()} half" in head
            assert "Do not tune on the test half; measure it sparingly" in head


def test_sizes():
    assert len(LEARNER_ITEMS) >= 80
    assert len(PRACTICE_ITEMS) >= 30


@pytest.mark.parametrize(
    "kind,items,key",
    [
        ("learner", LEARNER_ITEMS, "q"),
        ("practice", PRACTICE_ITEMS, "stem"),
    ],
)
def test_every_item_is_in_its_hash_half(kind, items, key):
    wrong = [item[key][:60] for half, item in items if half_of(item[key]) != half]
    assert wrong == []


@pytest.mark.parametrize(
    "kind,items,key",
    [
        ("learner", LEARNER_ITEMS, "q"),
        ("practice", PRACTICE_ITEMS, "stem"),
    ],
)
def test_no_duplicates(kind, items, key):
    texts = [utils.default_process(item[key]) for _, item in items]
    assert len(texts) == len(set(texts))


def test_learner_fields():
    for _, item in LEARNER_ITEMS:
        assert isinstance(item.get("q"), str) and item["q"].strip(), item
        assert "expect" in item, item
        assert item.get("kind") in KINDS, item
        assert isinstance(item.get("section"), str) and SECTION.match(item["section"]), item
        assert URL.match(item.get("source") or ""), item
        if item["kind"] == "out_of_scope":
            assert item["expect"] is None, item
        else:
            assert URL.match(item.get("key_source") or ""), item
        if item["kind"] == "uncovered":
            assert item["expect"] is None, item
        if item["expect"] is None:
            assert item["kind"] in {"uncovered", "out_of_scope"}, item


def test_practice_fields():
    for _, item in PRACTICE_ITEMS:
        assert isinstance(item.get("stem"), str) and item["stem"].strip(), item
        choices = item.get("choices")
        assert isinstance(choices, dict) and sorted(choices) == ["a", "b", "c", "d"], item
        assert all(isinstance(v, str) and v.strip() for v in choices.values()), item
        assert item.get("answer") in choices, item
        assert "concept" in item, item
        assert isinstance(item.get("section"), str) and SECTION.match(item["section"]), item
        assert URL.match(item.get("source") or ""), item
        assert URL.match(item.get("key_source") or ""), item


def test_labels_name_shipped_entries():
    labels = [i["expect"] for _, i in LEARNER_ITEMS] + [i["concept"] for _, i in PRACTICE_ITEMS]
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


def test_no_learner_question_copies_a_knowledge_phrasing():
    assert _near_copies([i["q"] for _, i in LEARNER_ITEMS]) == []


def test_no_stem_copies_a_knowledge_phrasing():
    assert _near_copies([i["stem"] for _, i in PRACTICE_ITEMS]) == []


# --- The fresh independent sets (a second writer, other material) ---------------------------

FRESH_LEARNER = {h: EVAL / f"fresh_learner_{h}.yaml" for h in ("tune", "test")}
FRESH_PRACTICE = {h: EVAL / f"fresh_practice_{h}.yaml" for h in ("tune", "test")}
FRESH_LEARNER_ITEMS = _items(FRESH_LEARNER)
FRESH_PRACTICE_ITEMS = _items(FRESH_PRACTICE)
FRESH_FILES = set(FRESH_LEARNER.values()) | set(FRESH_PRACTICE.values())


def _other_eval_texts() -> list[str]:
    """Every sentence-like string in the other evaluation files, lowercased.

    The fresh writer never read these files; this test is the only place that compares them.
    Any string leaf of four words or more counts (question, stem, choice), URLs excepted.
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
        if path in FRESH_FILES:
            continue
        walk(yaml.safe_load(path.read_text(encoding="utf-8")))
    return found


def test_fresh_files_have_the_header():
    for files in (FRESH_LEARNER, FRESH_PRACTICE):
        for half, path in files.items():
            head = path.read_text(encoding="utf-8")[:3000]
            assert "a second evaluation helper session, 2026-12-01" in head
            assert f"the {half.upper()} half" in head
            assert "Do not tune on the test half; measure it sparingly" in head


def test_fresh_sizes():
    assert len(FRESH_LEARNER_ITEMS) >= 200
    assert len(FRESH_PRACTICE_ITEMS) >= 80


@pytest.mark.parametrize(
    "kind,items,key",
    [
        ("fresh-learner", FRESH_LEARNER_ITEMS, "q"),
        ("fresh-practice", FRESH_PRACTICE_ITEMS, "stem"),
    ],
)
def test_every_fresh_item_is_in_its_hash_half(kind, items, key):
    wrong = [item[key][:60] for half, item in items if half_of(item[key]) != half]
    assert wrong == []


@pytest.mark.parametrize(
    "kind,items,key",
    [
        ("fresh-learner", FRESH_LEARNER_ITEMS, "q"),
        ("fresh-practice", FRESH_PRACTICE_ITEMS, "stem"),
    ],
)
def test_no_fresh_duplicates(kind, items, key):
    texts = [utils.default_process(item[key]) for _, item in items]
    assert len(texts) == len(set(texts))


def test_fresh_learner_fields():
    for _, item in FRESH_LEARNER_ITEMS:
        assert isinstance(item.get("q"), str) and item["q"].strip(), item
        assert "expect" in item, item
        assert item.get("kind") in KINDS, item
        assert URL.match(item.get("source") or ""), item
        if item["kind"] == "out_of_scope":
            assert item["expect"] is None, item
            assert item.get("section") is None, item
            assert "key_source" not in item, item
        else:
            assert isinstance(item.get("section"), str) and SECTION.match(item["section"]), item
            assert URL.match(item.get("key_source") or ""), item
        if item["kind"] == "uncovered":
            assert item["expect"] is None, item
        if item["expect"] is None:
            assert item["kind"] in {"uncovered", "out_of_scope"}, item


def test_fresh_practice_fields():
    for _, item in FRESH_PRACTICE_ITEMS:
        assert isinstance(item.get("stem"), str) and item["stem"].strip(), item
        choices = item.get("choices")
        assert isinstance(choices, dict) and sorted(choices) == ["a", "b", "c", "d"], item
        assert all(isinstance(v, str) and v.strip() for v in choices.values()), item
        assert item.get("answer") in choices, item
        assert "concept" in item, item
        assert isinstance(item.get("section"), str) and SECTION.match(item["section"]), item
        assert URL.match(item.get("source") or ""), item
        assert URL.match(item.get("key_source") or ""), item


def test_fresh_practice_keys_vary():
    answers = {item["answer"] for _, item in FRESH_PRACTICE_ITEMS}
    assert answers == {"a", "b", "c", "d"}


def test_fresh_labels_name_shipped_entries():
    labels = [i["expect"] for _, i in FRESH_LEARNER_ITEMS]
    labels += [i["concept"] for _, i in FRESH_PRACTICE_ITEMS]
    unknown = {x for x in labels if x is not None} - IDS
    assert unknown == set()


def test_no_fresh_question_copies_a_knowledge_phrasing():
    texts = [i["q"] for _, i in FRESH_LEARNER_ITEMS] + [i["stem"] for _, i in FRESH_PRACTICE_ITEMS]
    assert _near_copies(texts) == []


def test_no_fresh_question_copies_another_evaluation_file():
    others = _other_eval_texts()
    texts = [i["q"] for _, i in FRESH_LEARNER_ITEMS] + [i["stem"] for _, i in FRESH_PRACTICE_ITEMS]
    found = []
    for text in texts:
        best = process.extractOne(text.lower(), others, scorer=fuzz.ratio, score_cutoff=NEAR_COPY)
        if best is not None:
            found.append((text, int(best[1])))
    assert found == []
