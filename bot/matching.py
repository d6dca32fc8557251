"""Matching a learner's question to the entry that answers it.

The method, in order:
1. Normalise: Slack markup, emoji, punctuation, case, light stemming, and filler words go.
2. Correct typos word by word against the knowledge base's own vocabulary (rapidfuzz ratio).
3. Expand a few abbreviations learners use (`oom`, `lr`, `hp`, …) into the words entries use.
4. Score each entry by how much of the question's *information* it explains: words and word
   pairs weigh by their rarity across entries (a word in one entry says more than "training"),
   and words the knowledge base never uses count against every entry, which is how everyday
   questions ("how do I train my puppy") end up below the threshold.
5. Re-rank the best candidates with rapidfuzz over each entry's phrasings, and combine.
6. If the question names a service whose usual mix-up fits the need better, answer the need.

Everything that can be tuned is a field of `Knobs`; the defaults are what `tutor eval` reports.
"""

from __future__ import annotations

import html
import math
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import pairwise

from rapidfuzz import fuzz, process, utils

from bot.knowledge import Entry, KnowledgeBase


@dataclass(frozen=True)
class Knobs:
    """Every tuning knob of the matcher, in one place."""

    threshold: int = 50  # confidence (0-100) below which the tutor says it does not know
    alternatives: int = 3  # "did you mean" suggestions offered at most
    typo_cutoff: float = 82.0  # rapidfuzz ratio a word needs to be corrected to a known word
    typo_min_length: int = 4  # shorter words are never "corrected"
    word_weight: float = 0.65  # share of the confidence from information coverage
    phrase_weight: float = 0.35  # share from fuzzy similarity to the entry's best phrasing
    unknown_word_weight: float = 0.6  # an unknown word weighs this much of the rarest known word
    name_bonus: float = 0.25  # coverage credit for words that name the entry (means, aliases)
    pair_weight: float = 0.8  # word pairs weigh this much of the sum of their parts' rarity
    rerank: int = 12  # candidates re-ranked with rapidfuzz
    max_postings: int = 2000  # words in more entries than this only score, never nominate


@dataclass(frozen=True)
class Match:
    """An entry and how sure we are it answers the question (0-100)."""

    entry: Entry
    confidence: int


@dataclass(frozen=True)
class Lookup:
    """The outcome of a question: the best entry (or None), alternatives, and a named mix-up."""

    question: str
    best: Match | None
    alternatives: tuple[Match, ...]
    named: Entry | None = None  # the service the question named, when the need points elsewhere

    @property
    def confidence(self) -> int:
        if self.best:
            return self.best.confidence
        return self.alternatives[0].confidence if self.alternatives else 0


# Words that carry no information about the need; removed after stemming.
FILLER = frozenset(
    """
    a an the and or but if of to in on at by for from with without into onto about as is are was
    were be been being am do does did doing have has had having i me my we our us you your it its
    this that these those there here what which who whom whose when where why how can could should
    would will shall may might must need needs needed want wants wanted use using used best good
    better way ways option options service services tool tools product thing stuff something
    anything pls please plz thanks thank thx hi hey hello yo team folks guys all some any one
    so just really very also too then than get got go going make makes made let lets gcp google
    cloud tell know anyone recommend recommended suggest right correct pick choose choice should
    whats im ive doe ok okay lol haha question quick help wondering
    """.split()  # noqa: SIM905 - a word list reads better as words than as 150 quoted strings
)

# Abbreviations learners type, expanded into the words entries are written with.
ABBREVIATIONS = {
    "oom": "out memory",
    "ooms": "out memory",
    "lr": "learning rate",
    "hp": "hyperparameter",
    "hparam": "hyperparameter",
    "hparams": "hyperparameter",
    "hyperparam": "hyperparameter",
    "hyperparams": "hyperparameter",
    "ft": "fine tune",
    "finetune": "fine tune",
    "finetuning": "fine tune",
    "sft": "supervised fine tune",
    "k8s": "kubernetes",
    "gke": "kubernetes engine gke",
    "bq": "bigquery",
    "bqml": "bigquery ml",
    "gcs": "cloud storage gcs",
    "nocode": "no code",
    "ml": "ml",
    "xai": "explainable ai",
    "dl": "deep learning",
    "nn": "neural network",
    "nns": "neural network",
}

_SLACK_LINK = re.compile(r"<(?:https?|mailto):[^>|]*\|([^>]*)>")
_SLACK_MARKUP = re.compile(r"<[^>]*>")
_EMOJI_CODE = re.compile(r":[a-z0-9_+\-']+:")
_NOT_WORD = re.compile(r"[^a-z0-9]+")


def clean(text: str) -> str:
    """Readable text from Slack's wire form: links keep their label, mentions and emoji go."""
    text = _SLACK_LINK.sub(r"\1", text)
    text = re.sub(r"<#[A-Z0-9]+\|([^>]*)>", r"\1", text)
    text = _SLACK_MARKUP.sub(" ", text)
    text = html.unescape(text)
    return _EMOJI_CODE.sub(" ", text)


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A deliberately small stemmer: plural and -ing/-ed forms fold onto one word."""
    if len(word) > 5 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 5 and word.endswith("ing"):
        word = word[:-3]
        return word[:-1] if len(word) > 3 and word[-1] == word[-2] else word
    if len(word) > 4 and word.endswith("ed") and not word.endswith("eed"):
        word = word[:-2]
        return word[:-1] if len(word) > 3 and word[-1] == word[-2] else word
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def words(text: str) -> list[str]:
    """Informative words of a text: cleaned, lowercased, expanded, stemmed, filler removed."""
    raw = _NOT_WORD.split(clean(text).lower())
    expanded: list[str] = []
    for word in raw:
        expanded.extend(ABBREVIATIONS.get(word, word).split())
    return [w for w in (stem(x) for x in expanded if x) if w not in FILLER]


def pairs(tokens: list[str]) -> list[str]:
    return [f"{a}_{b}" for a, b in pairwise(tokens)]


@dataclass
class _Index:
    entries: tuple[Entry, ...]
    names: list[set[str]]  # words naming each entry (means + aliases)
    name_phrases: list[tuple[tuple[str, ...], int]]  # (alias words, entry index), longest first
    phrasings: list[list[str]]  # processed phrasings per entry, for the fuzzy re-rank
    postings: dict[str, list[int]] = field(default_factory=dict)
    idf: dict[str, float] = field(default_factory=dict)
    vocabulary_by_length: dict[int, list[str]] = field(default_factory=dict)
    known_words: set[str] = field(default_factory=set)


class Matcher:
    """Answers questions from a knowledge base; build it once, ask it many times."""

    def __init__(self, knowledge: KnowledgeBase, knobs: Knobs | None = None) -> None:
        self.knobs = knobs or Knobs()
        self._index = _build(knowledge.entries)
        self._correct = lru_cache(maxsize=65536)(self._correct_word)

    def lookup(self, question: str) -> Lookup:
        tokens = self._tokens(question)
        ranked = self._rank(tokens, question)
        named = self._named_entry(tokens)
        if named is not None and ranked and ranked[0].entry is named:
            need = self._rank(self._without_name(tokens, named), question)
            partners = {w.id for w in named.watch_out}
            if need and need[0].entry.id in partners and need[0].confidence >= self.knobs.threshold:
                return self._result(question, need, named)
        return self._result(question, ranked, None)

    # -- steps ---------------------------------------------------------------------------

    def _result(self, question: str, ranked: list[Match], named: Entry | None) -> Lookup:
        knobs = self.knobs
        if ranked and ranked[0].confidence >= knobs.threshold:
            return Lookup(question, ranked[0], tuple(ranked[1 : 1 + knobs.alternatives]), named)
        return Lookup(question, None, tuple(ranked[: knobs.alternatives]), None)

    def _tokens(self, question: str) -> list[str]:
        return [self._correct(w) for w in words(question[:2000])]

    def _correct_word(self, word: str) -> str:
        index, knobs = self._index, self.knobs
        if word in index.known_words or len(word) < knobs.typo_min_length or word.isdigit():
            return word
        best: tuple[str, float] | None = None
        for length in range(len(word) - 2, len(word) + 3):
            found = process.extractOne(
                word,
                index.vocabulary_by_length.get(length, ()),
                scorer=fuzz.ratio,
                processor=None,
                score_cutoff=knobs.typo_cutoff,
            )
            if found and (best is None or found[1] > best[1]):
                best = (found[0], found[1])
        return best[0] if best else word

    def _rank(self, tokens: list[str], question: str) -> list[Match]:
        index, knobs = self._index, self.knobs
        features = list(dict.fromkeys(tokens + pairs(tokens)))
        if not features:
            return []
        rarest = max(index.idf.values(), default=1.0)
        weights = {
            f: index.idf.get(f, rarest * knobs.unknown_word_weight * (f.count("_") + 1))
            for f in features
        }
        for f in features:
            if "_" in f and f in index.idf:
                weights[f] = knobs.pair_weight * sum(weights.get(p, rarest) for p in f.split("_"))
        total = sum(weights.values())
        gathered: dict[int, float] = defaultdict(float)
        common = []
        for f in features:
            posting = index.postings.get(f)
            if posting is None:
                continue
            if len(posting) > knobs.max_postings:
                common.append(f)
                continue
            for i in posting:
                gathered[i] += weights[f]
        shortlist = sorted(gathered, key=gathered.__getitem__, reverse=True)[: knobs.rerank * 3]
        scored = []
        query_text = " ".join(tokens)
        for i in shortlist:
            covered = gathered[i] + sum(weights[f] for f in common if i in set(index.postings[f]))
            named = sum(weights[t] for t in set(tokens) & index.names[i])
            coverage = min(1.0, (covered + knobs.name_bonus * named) / total)
            scored.append((coverage, i))
        scored.sort(reverse=True)
        matches = []
        for coverage, i in scored[: knobs.rerank]:
            found = process.extractOne(
                query_text,
                index.phrasings[i],
                scorer=fuzz.token_sort_ratio,
                processor=None,
                score_cutoff=0,
            )
            phrase = found[1] / 100 if found else 0.0
            confidence = 100 * (knobs.word_weight * coverage + knobs.phrase_weight * phrase)
            matches.append(Match(index.entries[i], round(confidence)))
        matches.sort(key=lambda m: (-m.confidence, m.entry.id))
        return matches

    def _named_entry(self, tokens: list[str]) -> Entry | None:
        """The entry whose name or alias the question spells out, if any (longest name wins)."""
        joined = f" {' '.join(tokens)} "
        for phrase, i in self._index.name_phrases:
            if f" {' '.join(phrase)} " in joined:
                return self._index.entries[i]
        return None

    def _without_name(self, tokens: list[str], entry: Entry) -> list[str]:
        names = self._index.names[self._index.entries.index(entry)]
        return [t for t in tokens if t not in names]


def _build(entries: tuple[Entry, ...]) -> _Index:
    names: list[set[str]] = []
    name_phrases: list[tuple[tuple[str, ...], int]] = []
    phrasings: list[list[str]] = []
    postings: dict[str, list[int]] = defaultdict(list)
    for i, entry in enumerate(entries):
        labels = [entry.means, *entry.aliases]
        label_words = [words(label) for label in labels]
        names.append({w for ws in label_words for w in ws})
        name_phrases.extend((tuple(ws), i) for ws in label_words if ws)
        texts = [*entry.requirements, *labels]
        processed = [words(t) for t in texts]
        phrasings.append([" ".join(p) for p in processed if p])
        features = {f for p in processed for f in (*p, *pairs(p))}
        for f in features:
            postings[f].append(i)
    count = max(1, len(entries))
    idf = {f: math.log(1 + count / len(ids)) for f, ids in postings.items()}
    known = {f for f in postings if "_" not in f}
    by_length: dict[int, list[str]] = defaultdict(list)
    for word in sorted(known):
        by_length[len(word)].append(word)
    name_phrases.sort(key=lambda item: -len(item[0]))
    return _Index(
        entries, names, name_phrases, phrasings, dict(postings), idf, dict(by_length), known
    )


def preprocess(text: str) -> str:
    """rapidfuzz's default processor; the baseline matcher in `tutor eval` uses it."""
    return utils.default_process(text)


def baseline_rank(entries: Iterable[Entry]) -> list[tuple[str, str]]:
    """(phrasing, entry id) pairs for the plain WRatio baseline."""
    return [(p, e.id) for e in entries for p in (*e.requirements, e.means, *e.aliases)]
