"""Split the independent evaluation sets into a TUNE half and a TEST half, by hash, reproducibly.

An item's half depends on its own text only: sha256 of the UTF-8 bytes of `q` (learner set) or
`stem` (practice set); the first byte of the digest even -> TUNE, odd -> TEST. Re-running the
script never moves an item that was already split, and new items join the half their hash picks.

    python tests/eval/split_independent.py                       # re-split what is in the files
    python tests/eval/split_independent.py --learner NEW.yaml    # add learner items, then split
    python tests/eval/split_independent.py --practice NEW.yaml   # add practice items, then split
    python tests/eval/split_independent.py --fifth-learner NEW.yaml    # add to a later writer's set

Each later writer in LATER (fresh, third, ... twelfth) has a --WRITER-learner and a
--WRITER-practice option (`--help` lists them).

An item in an added file whose text is already in a half replaces that item's other fields
(a corrected source or key); it stays in its half.

Stdlib and PyYAML only.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent

LEARNER_FIELDS = ("q", "expect", "kind", "section", "source", "key_source")
PRACTICE_FIELDS = ("stem", "choices", "answer", "concept", "section", "source", "key_source")

_COMMON = """\
# Written by an evaluation helper session, 2026-12-01, from PUBLIC PMLE study material that other
# people wrote: Google's exam guide and Google Cloud documentation examples, the Google ML Crash
# Course, and people's public study notes, blog posts and study repositories (each item's
# `source` is the page it came from). No exam-dump collections (ExamTopics, "actual exam
# questions", braindumps, paid question banks) were used. Every item is paraphrased in the
# writer's own words, and every key was checked against Google's own documentation
# (`key_source`, omitted for out-of-scope lines).
# Independence rules followed: the writer did not read knowledge/*.yaml, quizzes/*.yaml,
# tests/eval/*.yaml phrasings, and did not run the bot or any matcher; labels were chosen from
# the entry index (id | section | topic | name) only. `expect: null` with kind `uncovered` is an
# in-scope gap; with kind `out_of_scope` a near-domain line the bot should decline.
# Split rule: sha256 of the UTF-8 text of `{field}`; first byte of the digest even -> TUNE half,
# odd -> TEST half. Re-split with tests/eval/split_independent.py (never by hand).
# This file is the {half} half.{warning}
"""
_WARN = "\n# Do not tune on the test half; measure it sparingly."

# The fresh sets were written later, by another writer, from other material; only the first
# lines of their header differ from _COMMON.
_FRESH_COMMON = """\
# Written by a second evaluation helper session, 2026-12-01, as a FRESH independent set (the
# earlier set's test half had been measured too often). Material: PUBLIC PMLE study material that
# other people wrote, mostly pages the earlier set did not use: Google's sample questions, exam
# guide and Google Cloud / TensorFlow documentation examples and "when to use" sections, the
# Google ML Crash Course and glossary, and people's public study notes, blog posts and study
# repositories (each item's `source` is the page it came from). No exam-dump collections
# (ExamTopics, "actual exam questions", braindumps, paid question banks) were used. Every item is
# paraphrased in the writer's own words, and every key was checked against Google's own
# documentation (`key_source`, omitted for out-of-scope lines).
# Independence rules followed: the writer did not read knowledge/*.yaml, quizzes/*.yaml,
# tests/eval/*.yaml phrasings, and did not run the bot or any matcher; labels were chosen from
# the entry index (id | section | topic | name) only. `expect: null` with kind `uncovered` is an
# in-scope gap; with kind `out_of_scope` a near-domain line the bot should decline.
# Split rule: sha256 of the UTF-8 text of `{field}`; first byte of the digest even -> TUNE half,
# odd -> TEST half. Re-split with tests/eval/split_independent.py (never by hand).
# This file is the {half} half.{warning}
"""

# The third sets were written later still, by a third writer, from material neither earlier
# writer used; only the first lines of their header differ from _COMMON.
_THIRD_COMMON = """\
# Written by a third evaluation helper session, 2026-12-01, as a THIRD independent set (the test
# halves of the first and fresh sets had both been measured); a fourth helper session added items
# the same day from blogs, course notes and docs (no issue threads), and two reviewers who did not
# run the bot checked every key. Material: PUBLIC material other
# people wrote that neither earlier writer used: real learners' and developers' questions and
# symptoms in public GitHub issue threads and Q&A pages (Vertex AI, BigQuery ML, TPUs, TensorFlow
# training problems), Google Cloud / TensorFlow documentation pages not used before ("when to
# use", "best practices", "troubleshooting" sections), and people's public blog posts and notes
# (each item's `source` is the page it came from). No exam-dump collections (ExamTopics, "actual
# exam questions", braindumps, paid question banks) were used. Every item is paraphrased in the
# writer's own words, and every key was checked against Google's own documentation
# (`key_source`, omitted for out-of-scope lines).
# Independence rules followed: the writer did not read knowledge/*.yaml, quizzes/*.yaml,
# tests/eval/*.yaml phrasings, and did not run the bot or any matcher; labels were chosen from
# the entry index (id | section | topic | name) only. `expect: null` with kind `uncovered` is an
# in-scope gap; with kind `out_of_scope` a near-domain line the bot should decline.
# Split rule: sha256 of the UTF-8 text of `{field}`; first byte of the digest even -> TUNE half,
# odd -> TEST half. Re-split with tests/eval/split_independent.py (never by hand).
# This file is the {half} half.{warning}
"""

# The fourth sets were written later again, by a fourth writer, from material none of the earlier
# writers used; only the first lines of their header differ from _COMMON.
_FOURTH_COMMON = """\
# Written by a fourth evaluation helper session, 2026-12-01, as a FOURTH independent set (the test
# halves of the first, fresh and third sets had all been measured). Material: PUBLIC material
# other people wrote that the earlier writers did not use (at most 10% of items from pages they
# used): real developers' questions and symptoms on Q&A pages and in public GitHub issue threads
# (at most 40% of items), Google Cloud / TensorFlow documentation pages ("when to use", "best
# practices", "troubleshooting" sections), Google Cloud blog posts, Google's ML guides, and
# people's public study notes and blogs (each item's `source` is the page it came from).
# No exam-dump collections (ExamTopics, "actual exam questions", braindumps, paid question banks)
# were used. Every item is paraphrased in the writer's own words, and every key was checked
# against Google's own documentation (`key_source`, omitted for out-of-scope lines).
# Independence rules followed: the writer did not read knowledge/*.yaml, quizzes/*.yaml,
# tests/eval/*.yaml phrasings, and did not run the bot or any matcher; labels were chosen from
# the entry index (id | section | topic | name) only. `expect: null` with kind `uncovered` is an
# in-scope gap; with kind `out_of_scope` a near-domain line the bot should decline.
# Split rule: sha256 of the UTF-8 text of `{field}`; first byte of the digest even -> TUNE half,
# odd -> TEST half. Re-split with tests/eval/split_independent.py (never by hand).
# This file is the {half} half.{warning}
"""

# The fifth sets were written the next day, by a fifth writer, from material none of the earlier
# writers used; only the first lines of their header differ from _COMMON.
_FIFTH_COMMON = """\
# Written by a fifth evaluation helper session, 2026-12-02, as a FIFTH independent set (the test
# halves of the first, fresh, third and fourth sets had all been measured). Material: PUBLIC
# material other people wrote that the earlier writers did not use (at most 10% of items from
# pages they used): real developers' and learners' questions and symptoms on Q&A pages and in
# public GitHub issue threads (at most 30% of items), Google Cloud / TensorFlow documentation
# pages ("when to use", "choose", "best practices", "troubleshooting" sections), Google Cloud
# blog posts, Google's ML guides, and people's public study notes and blogs (each item's `source`
# is the page it came from); at most 4 items from any one page.
# No exam-dump collections (ExamTopics, "actual exam questions", braindumps, paid question banks)
# were used. Every item is paraphrased in the writer's own words, and every key was checked
# against Google's own documentation (`key_source`, omitted for out-of-scope lines).
# Independence rules followed: the writer did not read knowledge/*.yaml, quizzes/*.yaml,
# tests/eval/*.yaml phrasings, and did not run the bot or any matcher; labels were chosen from
# the entry index (id | section | topic | name) only. `expect: null` with kind `uncovered` is an
# in-scope gap; with kind `out_of_scope` a line the bot should decline (near-domain ML tooling
# that is not Google Cloud, general cloud ops, everyday lines).
# Split rule: sha256 of the UTF-8 text of `{field}`; first byte of the digest even -> TUNE half,
# odd -> TEST half. Re-split with tests/eval/split_independent.py (never by hand).
# This file is the {half} half.{warning}
"""

# The sixth sets were written the same day as the fifth, by a sixth writer, from material none of
# the earlier writers used; only the first lines of their header differ from _COMMON.
_SIXTH_COMMON = """\
# Written by a sixth evaluation helper session, 2026-12-02, as a SIXTH independent set (the test
# halves of the first, fresh, third, fourth and fifth sets had all been measured). Material:
# PUBLIC material other people wrote that the earlier writers did not use (at most 10% of items
# from pages they used): real developers' and learners' questions and symptoms on Q&A pages and
# in public GitHub issue threads (at most 30% of items), Google Cloud / TensorFlow documentation
# pages ("when to use", "choose", "best practices", "troubleshooting" sections), Google Cloud
# blog posts, Google's ML guides, and people's public study notes and blogs (each item's `source`
# is the page it came from); at most 4 items from any one page.
# No exam-dump collections (ExamTopics, "actual exam questions", braindumps, paid question banks)
# were used. Every item is paraphrased in the writer's own words, and every key was checked
# against Google's own documentation (`key_source`, omitted for out-of-scope lines).
# Independence rules followed: the writer did not read knowledge/*.yaml, quizzes/*.yaml,
# tests/eval/*.yaml phrasings, and did not run the bot or any matcher; labels were chosen from
# the entry index (id | section | topic | name) only. `expect: null` with kind `uncovered` is an
# in-scope gap; with kind `out_of_scope` a line the bot should decline (near-domain ML tooling
# that is not Google Cloud, general cloud ops, everyday lines).
# Split rule: sha256 of the UTF-8 text of `{field}`; first byte of the digest even -> TUNE half,
# odd -> TEST half. Re-split with tests/eval/split_independent.py (never by hand).
# This file is the {half} half.{warning}
"""

# The seventh sets were written the same day as the sixth, by a seventh writer, from material none
# of the earlier writers used; only the first lines of their header differ from _COMMON.
_SEVENTH_COMMON = """\
# Written by a seventh evaluation helper session, 2026-12-02, as a SEVENTH independent set (the
# test halves of the first, fresh, third, fourth and fifth sets had all been measured; the sixth's
# was about to be). Material: PUBLIC material other people wrote that the earlier writers did not
# use (at most 10% of items from pages they used): Google Cloud / TensorFlow documentation pages
# ("when to use", "choose", "best practices", "troubleshooting" sections), Google's ML guides,
# real developers' and learners' questions and symptoms on Q&A pages and in public GitHub issue
# threads (at most 25% of items), and people's public study notes and blogs (each item's `source`
# is the page it came from); at most 4 items from any one page.
# No exam-dump collections (ExamTopics, "actual exam questions", braindumps, paid question banks)
# were used. Every item is paraphrased in the writer's own words, and every key was checked
# against Google's own documentation (`key_source`, omitted for out-of-scope lines).
# Independence rules followed: the writer did not read knowledge/*.yaml, quizzes/*.yaml,
# tests/eval/*.yaml phrasings, and did not run the bot or any matcher; labels were chosen from
# the entry index (id | section | topic | name) only. `expect: null` with kind `uncovered` is an
# in-scope gap; with kind `out_of_scope` a line the bot should decline (near-domain ML tooling
# that is not Google Cloud, general cloud ops, everyday lines).
# Split rule: sha256 of the UTF-8 text of `{field}`; first byte of the digest even -> TUNE half,
# odd -> TEST half. Re-split with tests/eval/split_independent.py (never by hand).
# This file is the {half} half.{warning}
"""

# The eighth sets were written the same day as the seventh, by an eighth writer, from material none
# of the earlier writers used; only the first lines of their header differ from _COMMON.
_EIGHTH_COMMON = """\
# Written by an eighth evaluation helper session, 2026-12-02, as an EIGHTH independent set (the
# test halves of the first to sixth sets had all been measured; the seventh's was about to be).
# Material: PUBLIC material other people wrote that the earlier writers did not use (at most 10%
# of items from pages they used): Google Cloud / TensorFlow documentation pages ("when to use",
# "choose", "best practices", "troubleshooting" sections), Google's ML guides, real developers'
# and learners' questions and symptoms on Q&A pages and in public GitHub issue threads (at most
# 25% of items), and people's public study notes and blogs (each item's `source` is the page it
# came from); at most 4 items from any one page.
# No exam-dump collections (ExamTopics, "actual exam questions", braindumps, paid question banks)
# were used. Every item is paraphrased in the writer's own words, and every key was checked
# against Google's own documentation (`key_source`, omitted for out-of-scope lines).
# Independence rules followed: the writer did not read knowledge/*.yaml, quizzes/*.yaml,
# tests/eval/*.yaml phrasings, and did not run the bot or any matcher; labels were chosen from
# the entry index (id | section | topic | name) only. `expect: null` with kind `uncovered` is an
# in-scope gap; with kind `out_of_scope` a line the bot should decline (near-domain ML tooling
# that is not Google Cloud, general cloud ops, everyday lines).
# Split rule: sha256 of the UTF-8 text of `{field}`; first byte of the digest even -> TUNE half,
# odd -> TEST half. Re-split with tests/eval/split_independent.py (never by hand).
# This file is the {half} half.{warning}
"""

# The ninth sets were written the same day as the eighth, by a ninth writer, from material none of
# the earlier writers used; only the first lines of their header differ from _COMMON.
_NINTH_COMMON = """\
# Written by a ninth evaluation helper session, 2026-12-02, as a NINTH independent set (the test
# halves of the first to seventh sets had all been measured; the eighth's was about to be).
# Material: PUBLIC material other people wrote that the earlier writers did not use (at most 10%
# of items from pages they used): Google Cloud / TensorFlow documentation pages ("when to use",
# "choose", "best practices", "troubleshooting" sections), Google's ML guides (Crash Course,
# testing and debugging), Google Cloud architecture pages, real developers' and learners'
# questions and symptoms on Q&A pages and in public GitHub issue threads (at most 25% of items),
# and people's public study notes and blogs (each item's `source` is the page it came from); at
# most 4 items from any one page.
# No exam-dump collections (ExamTopics, "actual exam questions", braindumps, paid question banks)
# were used. Every item is paraphrased in the writer's own words, and every key was checked
# against Google's own documentation (`key_source`, omitted for out-of-scope lines).
# Independence rules followed: the writer did not read knowledge/*.yaml, quizzes/*.yaml,
# tests/eval/*.yaml phrasings, and did not run the bot or any matcher; labels were chosen from
# the entry index (id | section | topic | name) only. `expect: null` with kind `uncovered` is an
# in-scope gap; with kind `out_of_scope` a line the bot should decline (near-domain ML tooling
# that is not Google Cloud, general cloud ops, everyday lines).
# Split rule: sha256 of the UTF-8 text of `{field}`; first byte of the digest even -> TUNE half,
# odd -> TEST half. Re-split with tests/eval/split_independent.py (never by hand).
# This file is the {half} half.{warning}
"""

# The tenth sets were written the same day as the ninth, by a tenth writer, from material none of
# the earlier writers used; only the first lines of their header differ from _COMMON.
_TENTH_COMMON = """\
# Written by a tenth evaluation helper session, 2026-12-02, as a TENTH independent set (the test
# halves of the first to eighth sets had all been measured; the ninth's was about to be).
# Material: PUBLIC material other people wrote that the earlier writers did not use (at most 10%
# of items from pages they used): Google Cloud / TensorFlow documentation pages ("when to use",
# "choose", "best practices", "troubleshooting" sections), Google's ML guides, Google Cloud blog
# posts, real developers' and learners' questions and symptoms on Q&A pages and in public GitHub
# issue threads (at most 25% of items), and people's public study notes and blogs (each item's
# `source` is the page it came from); at most 4 items from any one page.
# No exam-dump collections (ExamTopics, "actual exam questions", braindumps, paid question banks)
# were used. Every item is paraphrased in the writer's own words, and every key was checked
# against Google's own documentation (`key_source`, omitted for out-of-scope lines).
# Independence rules followed: the writer did not read knowledge/*.yaml, quizzes/*.yaml,
# tests/eval/*.yaml phrasings, and did not run the bot or any matcher; labels were chosen from
# the entry index (id | section | topic | name) only. `expect: null` with kind `uncovered` is an
# in-scope gap; with kind `out_of_scope` a line the bot should decline (near-domain ML tooling
# that is not Google Cloud, general cloud ops, everyday lines).
# Split rule: sha256 of the UTF-8 text of `{field}`; first byte of the digest even -> TUNE half,
# odd -> TEST half. Re-split with tests/eval/split_independent.py (never by hand).
# This file is the {half} half.{warning}
"""

# The eleventh sets were written the next session, by an eleventh writer, from material the earlier
# writers mostly did not use, and each key was then checked by two key reviewers against Google's
# docs; only the first lines of their header differ from _COMMON.
_ELEVENTH_COMMON = """\
# Written by an eleventh evaluation helper session, 2026-12-02, as an ELEVENTH independent set (the
# test halves of the first to ninth sets had all been measured; the tenth's had not). Material:
# PUBLIC material other people wrote, mostly pages the earlier writers did not use (at most 10% of
# items from pages they used): Google Cloud / TensorFlow documentation pages, Google's ML guides,
# Google Cloud blog posts, real developers' questions and symptoms in public GitHub issue threads
# and Q&A pages (at most 25% of items), and people's public study notes and blogs (each item's
# `source` is the page it came from); at most 4 items from any one page. Every key was then
# checked against Google's docs by a separate key reviewer, who fixed or deleted what did not hold.
# No exam-dump collections (ExamTopics, "actual exam questions", braindumps, paid question banks)
# were used. Every item is paraphrased in the writer's own words (`key_source`, omitted for
# out-of-scope lines, is the Google page that confirms the key).
# Independence rules followed: the writer did not read knowledge/*.yaml, quizzes/*.yaml,
# tests/eval/*.yaml phrasings, and did not run the bot or any matcher; labels were chosen from
# the entry index (id | section | topic | name) only. `expect: null` with kind `uncovered` is an
# in-scope gap; with kind `out_of_scope` a line the bot should decline (near-domain ML tooling
# that is not Google Cloud, general cloud ops, everyday lines).
# Split rule: sha256 of the UTF-8 text of `{field}`; first byte of the digest even -> TUNE half,
# odd -> TEST half. Re-split with tests/eval/split_independent.py (never by hand).
# This file is the {half} half.{warning}
"""

# The twelfth sets were written the session after, by a twelfth writer asked to write the way
# learners and exam items do (half the learner questions name no Google product); each key was
# then checked by two key reviewers against Google's docs.
_TWELFTH_COMMON = """\
# Written by a twelfth evaluation helper session, 2026-12-02, as a TWELFTH independent set (the
# test halves of the first to eleventh sets had all been measured). Material: PUBLIC material
# other people wrote, mostly pages the earlier writers did not use (at most 10% of items from
# pages they used): people's public study notes, blog posts and Q&A pages and real developers'
# symptoms in public GitHub and GitLab issue threads (about two thirds of the in-scope items),
# and Google Cloud / TensorFlow documentation and Google's ML guides (each item's `source` is the
# page it came from; some items are only inspired by their page); at most 4 items from any one
# page. Every key was then checked against Google's docs by a separate key reviewer, who fixed or
# deleted what did not hold. No exam-dump collections (ExamTopics, "actual exam questions",
# braindumps, paid question banks) were used. Every item is paraphrased in the writer's own words
# (`key_source`, omitted for out-of-scope lines, is the Google page that confirms the key).
# Independence rules followed: the writer did not read knowledge/*.yaml, quizzes/*.yaml,
# tests/eval/*.yaml phrasings, and did not run the bot or any matcher; labels were chosen from
# the entry index (id | section | topic | name) only. `expect: null` with kind `uncovered` is an
# in-scope gap; with kind `out_of_scope` a line the bot should decline (near-domain ML tooling
# that is not Google Cloud, general cloud ops, everyday lines).
# Split rule: sha256 of the UTF-8 text of `{field}`; first byte of the digest even -> TUNE half,
# odd -> TEST half. Re-split with tests/eval/split_independent.py (never by hand).
# This file is the {half} half.{warning}
"""

# The later writers' sets, each with its own header; the first writer's sets use _COMMON.
LATER = {
    "fresh": _FRESH_COMMON,
    "third": _THIRD_COMMON,
    "fourth": _FOURTH_COMMON,
    "fifth": _FIFTH_COMMON,
    "sixth": _SIXTH_COMMON,
    "seventh": _SEVENTH_COMMON,
    "eighth": _EIGHTH_COMMON,
    "ninth": _NINTH_COMMON,
    "tenth": _TENTH_COMMON,
    "eleventh": _ELEVENTH_COMMON,
    "twelfth": _TWELFTH_COMMON,
}
SETS = {
    "learner": ("q", LEARNER_FIELDS, "independent_learner"),
    "practice": ("stem", PRACTICE_FIELDS, "practice"),
    **{
        f"{writer}-{kind}": (key, fields, f"{writer}_{kind}")
        for writer in LATER
        for kind, key, fields in (
            ("learner", "q", LEARNER_FIELDS),
            ("practice", "stem", PRACTICE_FIELDS),
        )
    },
}
HEADERS = {
    f"{writer}-{kind}": header
    for writer, header in LATER.items()
    for kind in ("learner", "practice")
}


def half_of(text: str) -> str:
    """'tune' when the first byte of sha256(text) is even, else 'test'."""
    return "tune" if hashlib.sha256(text.encode("utf-8")).digest()[0] % 2 == 0 else "test"


def _read(path: Path) -> list[dict]:
    if not path.exists():
        return []
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or []
    if not isinstance(data, list):
        raise SystemExit(f"{path}: expected a YAML list")
    return data


def _ordered(item: dict, fields: tuple[str, ...]) -> dict:
    out = {k: item[k] for k in fields if k in item}
    out.update({k: v for k, v in item.items() if k not in out})
    if "section" in out and out["section"] is not None:
        out["section"] = str(out["section"])
    return out


def _dump(items: list[dict], key: str, half: str, common: str = _COMMON) -> str:
    header = common.format(
        field=key,
        half="TUNE" if half == "tune" else "TEST",
        warning=_WARN,
    )
    body = yaml.safe_dump(items, sort_keys=False, allow_unicode=True, width=100)
    return header + "\n" + body


def split(kind: str, extra: list[Path], root: Path = HERE) -> tuple[int, int]:
    key, fields, stem = SETS[kind]
    paths = {h: root / f"{stem}_{h}.yaml" for h in ("tune", "test")}
    seen: dict[str, dict] = {}
    for path in [paths["tune"], paths["test"], *extra]:
        for item in _read(path):
            text = item.get(key)
            if not isinstance(text, str) or not text.strip():
                raise SystemExit(f"{path}: an item without a `{key}`: {item!r}")
            # A later copy of the same text (from an added file) updates the item's other fields;
            # its half cannot change, because the half depends on the text alone.
            seen[text] = _ordered(item, fields)
    halves: dict[str, list[dict]] = {"tune": [], "test": []}
    for text, item in seen.items():
        halves[half_of(text)].append(item)
    for h, items in halves.items():
        paths[h].write_text(_dump(items, key, h, HEADERS.get(kind, _COMMON)), encoding="utf-8")
    return len(halves["tune"]), len(halves["test"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for kind in SETS:  # --learner, --practice, --fresh-learner, ... one per set
        parser.add_argument(f"--{kind}", type=Path, action="append", default=[])
    args = parser.parse_args(argv)
    for kind in SETS:
        tune, test = split(kind, getattr(args, kind.replace("-", "_")))
        print(f"{kind}: {tune} tune, {test} test")
    return 0


if __name__ == "__main__":
    sys.exit(main())
