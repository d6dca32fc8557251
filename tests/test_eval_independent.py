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
# The fresh sets: a second writer, other public material, after the first test halves had been
# measured too often.
FRESH_LEARNER = {h: EVAL / f"fresh_learner_{h}.yaml" for h in ("tune", "test")}
FRESH_PRACTICE = {h: EVAL / f"fresh_practice_{h}.yaml" for h in ("tune", "test")}
FRESH_LEARNER_ITEMS = _items(FRESH_LEARNER)
FRESH_PRACTICE_ITEMS = _items(FRESH_PRACTICE)
# The third sets: a third writer, material neither earlier writer used, after the test halves of
# both earlier sets had been measured.
THIRD_LEARNER = {h: EVAL / f"third_learner_{h}.yaml" for h in ("tune", "test")}
THIRD_PRACTICE = {h: EVAL / f"third_practice_{h}.yaml" for h in ("tune", "test")}
THIRD_LEARNER_ITEMS = _items(THIRD_LEARNER)
THIRD_PRACTICE_ITEMS = _items(THIRD_PRACTICE)
# The fourth sets: a fourth writer, material none of the earlier writers used, after the test
# halves of all three earlier sets had been measured.
FOURTH_LEARNER = {h: EVAL / f"fourth_learner_{h}.yaml" for h in ("tune", "test")}
FOURTH_PRACTICE = {h: EVAL / f"fourth_practice_{h}.yaml" for h in ("tune", "test")}
FOURTH_LEARNER_ITEMS = _items(FOURTH_LEARNER)
FOURTH_PRACTICE_ITEMS = _items(FOURTH_PRACTICE)

# Per writer: learner files and items, practice files and items, who wrote them, least sizes,
# whether out-of-scope lines carry no section (the second writer's rule), and whether its
# questions are checked for near-copies of every other evaluation file.
GENERATIONS = {
    "first": (
        LEARNER,
        LEARNER_ITEMS,
        PRACTICE,
        PRACTICE_ITEMS,
        "evaluation helper",
        80,
        30,
        False,
        False,
    ),
    "fresh": (
        FRESH_LEARNER,
        FRESH_LEARNER_ITEMS,
        FRESH_PRACTICE,
        FRESH_PRACTICE_ITEMS,
        "a second evaluation helper",
        200,
        80,
        True,
        True,
    ),
    "third": (
        THIRD_LEARNER,
        THIRD_LEARNER_ITEMS,
        THIRD_PRACTICE,
        THIRD_PRACTICE_ITEMS,
        "a third evaluation helper",
        180,
        70,
        True,
        True,
    ),
    "fourth": (
        FOURTH_LEARNER,
        FOURTH_LEARNER_ITEMS,
        FOURTH_PRACTICE,
        FOURTH_PRACTICE_ITEMS,
        "a fourth evaluation helper",
        180,
        70,
        True,
        True,
    ),
}
EACH = pytest.mark.parametrize("generation", list(GENERATIONS))
EVERY_SET = pytest.mark.parametrize(
    ("items", "key"),
    [
        pytest.param(LEARNER_ITEMS, "q", id="learner"),
        pytest.param(PRACTICE_ITEMS, "stem", id="practice"),
        pytest.param(FRESH_LEARNER_ITEMS, "q", id="fresh-learner"),
        pytest.param(FRESH_PRACTICE_ITEMS, "stem", id="fresh-practice"),
        pytest.param(THIRD_LEARNER_ITEMS, "q", id="third-learner"),
        pytest.param(THIRD_PRACTICE_ITEMS, "stem", id="third-practice"),
        pytest.param(FOURTH_LEARNER_ITEMS, "q", id="fourth-learner"),
        pytest.param(FOURTH_PRACTICE_ITEMS, "stem", id="fourth-practice"),
    ],
)


@EACH
def test_files_have_the_header(generation):
    learner, _, practice, _, writer, *_ = GENERATIONS[generation]
    for files in (learner, practice):
        for half, path in files.items():
            head = path.read_text(encoding="utf-8")[:3000]
            assert f"{writer} session, 2026-12-01" in head
            assert f"the {half.upper()} half" in head
            assert "Do not tune on the test half; measure it sparingly" in head


@EACH
def test_sizes(generation):
    _, learner, _, practice, _, least_learner, least_practice, *_ = GENERATIONS[generation]
    assert len(learner) >= least_learner
    assert len(practice) >= least_practice


@EVERY_SET
def test_every_item_is_in_its_hash_half(items, key):
    wrong = [item[key][:60] for half, item in items if half_of(item[key]) != half]
    assert wrong == []


@EVERY_SET
def test_no_duplicates(items, key):
    texts = [utils.default_process(item[key]) for _, item in items]
    assert len(texts) == len(set(texts))


@EACH
def test_learner_fields(generation):
    scopeless = GENERATIONS[generation][7]
    for _, item in GENERATIONS[generation][1]:
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
    for _, item in GENERATIONS[generation][3]:
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
    answers = {item["answer"] for _, item in GENERATIONS[generation][3]}
    assert answers == {"a", "b", "c", "d"}


@EACH
def test_labels_name_shipped_entries(generation):
    _, learner, _, practice, *_ = GENERATIONS[generation]
    labels = [i["expect"] for _, i in learner] + [i["concept"] for _, i in practice]
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
    _, learner, _, practice, *_ = GENERATIONS[generation]
    return [i["q"] for _, i in learner] + [i["stem"] for _, i in practice]


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


@pytest.mark.parametrize("generation", [g for g, spec in GENERATIONS.items() if spec[8]])
def test_no_question_copies_another_evaluation_file(generation):
    """A later writer's question or stem is no near-copy of any other evaluation file's text."""
    learner, _, practice, *_ = GENERATIONS[generation]
    others = _other_eval_texts(set(learner.values()) | set(practice.values()))
    found = []
    for text in _texts(generation):
        best = process.extractOne(text.lower(), others, scorer=fuzz.ratio, score_cutoff=NEAR_COPY)
        if best is not None:
            found.append((text, int(best[1])))
    assert found == []
