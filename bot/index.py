"""The matcher's inverted index: BM25-style term weights per entry, built once.

A term (a word or an adjacent word pair) weighs by its rarity across entries (idf) times how
central it is to the entry: the share of the entry's requirement phrasings that use it, plus
`name_field` when the entry's name or an alias uses it, saturated the BM25 way with `k1` so a
word repeated in every phrasing cannot outweigh two different words.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from dataclasses import dataclass

from bot.knowledge import Entry
from bot.textnorm import pairs, words


@dataclass
class Index:
    entries: tuple[Entry, ...]
    position: dict[str, int]  # entry id -> index
    names: list[set[str]]  # words naming each entry (means + aliases)
    name_phrases: dict[str, int]  # alias words -> the first entry with that alias
    shared_names: set[str]  # alias words that name more than one entry ("tensorboard")
    longest_name: int  # words in the longest alias
    # Each one-word name and the aliases (lowercased) it comes from: it names its entry only
    # where one of them is written, since stemming and dropped words make everyday words of
    # some ("bucketing" -> "bucket", "Cloud Run" -> "run")
    one_word: dict[str, tuple[str, ...]]
    phrasings: list[list[str]]  # processed phrasings per entry, for the fuzzy re-rank
    postings: dict[str, dict[int, float]]  # term -> {entry: centrality after saturation}
    idf: dict[str, float]
    frequency: Counter[str]  # how often each known word appears across all phrasings
    vocabulary_by_length: dict[int, list[str]]
    max_idf: float

    def gather(self, terms: dict[str, float], max_postings: int) -> dict[int, float]:
        """Evidence per entry: the sum of query weight times entry centrality over terms.

        Terms in more than `max_postings` entries add to entries already nominated by rarer
        terms but nominate none themselves, which keeps lookups fast on big knowledge bases.
        """
        gathered: dict[int, float] = defaultdict(float)
        common = []
        for term, weight in terms.items():
            posting = self.postings[term]
            if len(posting) > max_postings:
                common.append((term, weight))
                continue
            for i, centrality in posting.items():
                gathered[i] += weight * centrality
        for term, weight in common:
            posting = self.postings[term]
            if len(posting) < len(gathered):
                for i, centrality in posting.items():
                    if i in gathered:
                        gathered[i] += weight * centrality
            else:
                for i in gathered:
                    gathered[i] += weight * posting.get(i, 0.0)
        return gathered

    def named(self, tokens: list[str], written: str) -> tuple[int, str] | None:
        """The entry whose alias the tokens spell out, and the alias (longest alias wins).

        `written` is the text the tokens come from: a one-word name ("run" of "Cloud Run",
        "bucket" of "bucketing") names its entry only where its alias is written as such."""
        for size in range(min(self.longest_name, len(tokens)), 0, -1):
            for start in range(len(tokens) - size + 1):
                phrase = " ".join(tokens[start : start + size])
                if self._names(phrase, written):
                    return self.name_phrases[phrase], phrase
        return None

    def all_named(self, tokens: list[str], written: str) -> list[tuple[int, str]]:
        """Every entry an alias in the tokens names, longest aliases first, never overlapping."""
        found: list[tuple[int, str]] = []
        taken: set[int] = set()
        for size in range(min(self.longest_name, len(tokens)), 0, -1):
            for start in range(len(tokens) - size + 1):
                span = set(range(start, start + size))
                phrase = " ".join(tokens[start : start + size])
                if self._names(phrase, written) and not span & taken:
                    found.append((self.name_phrases[phrase], phrase))
                    taken |= span
        return found

    def _names(self, phrase: str, written: str) -> bool:
        if phrase not in self.name_phrases:
            return False
        aliases = self.one_word.get(phrase)
        return aliases is None or any(alias in written.lower() for alias in aliases)


def build_index(entries: tuple[Entry, ...], k1: float, name_field: float) -> Index:
    names: list[set[str]] = []
    name_phrases: dict[str, int] = {}
    phrasings: list[list[str]] = []
    postings: dict[str, dict[int, float]] = defaultdict(dict)
    frequency: Counter[str] = Counter()
    one_word: dict[str, list[str]] = defaultdict(list)
    owners: dict[str, set[int]] = defaultdict(set)
    for i, entry in enumerate(entries):
        label_words = [words(label) for label in (entry.means, *entry.aliases)]
        requirement_words = [words(r) for r in entry.requirements]
        names.append({w for ws in label_words for w in ws})
        for alias, said in zip(entry.aliases, label_words[1:], strict=True):
            name_phrases.setdefault(" ".join(said), i)
            owners[" ".join(said)].add(i)
            if len(said) == 1:
                one_word[said[0]].append(alias.lower())
        processed = [*requirement_words, *label_words]
        phrasings.append([" ".join(p) for p in processed if p])
        for p in processed:
            frequency.update(p)
        top = _saturate(1 + name_field, k1)
        for term, centrality in _centrality(requirement_words, label_words, name_field).items():
            postings[term][i] = _saturate(centrality, k1) / top
    count = max(1, len(entries))
    idf = {t: math.log(1 + (count - len(p) + 0.5) / (len(p) + 0.5)) for t, p in postings.items()}
    by_length: dict[int, list[str]] = defaultdict(list)
    for word in sorted(frequency):
        by_length[len(word)].append(word)
    longest = max((len(p.split()) for p in name_phrases if p), default=0)
    position = {e.id: i for i, e in enumerate(entries)}
    return Index(
        entries,
        position,
        names,
        name_phrases,
        {phrase for phrase, named in owners.items() if phrase and len(named) > 1},
        longest,
        {p: tuple(a) for p, a in one_word.items()},
        phrasings,
        dict(postings),
        idf,
        frequency,
        dict(by_length),
        max(idf.values(), default=1.0),
    )


def _saturate(centrality: float, k1: float) -> float:
    return centrality * (k1 + 1) / (centrality + k1)


def _centrality(
    requirements: list[list[str]], labels: list[list[str]], name_field: float
) -> dict[str, float]:
    """Share of requirement phrasings using each term, plus `name_field` if a name uses it."""
    shares: dict[str, float] = defaultdict(float)
    for phrasing in requirements:
        for term in {*phrasing, *pairs(phrasing)}:
            shares[term] += 1 / max(1, len(requirements))
    named = {t for label in labels for t in (*label, *pairs(label))}
    for term in named:
        shares[term] += name_field
    return shares
