"""Matching a learner's question to the entry that answers it.

The method, in order:
1. Normalise (`bot.textnorm`): Slack markup, emoji, case, light stemming, abbreviations, filler.
2. Correct typos word by word against the knowledge base's vocabulary; among equally close
   words the one the knowledge base uses most wins.
3. Score entries BM25-style (`bot.index`): a word weighs by its rarity across entries and by how
   central it is to the entry (the share of its phrasings using it; names count extra).
   Relevance is the share of the question's *known* information an entry explains, so words the
   knowledge base never uses do not dilute a right answer.
4. Re-rank a shortlist with rapidfuzz: the mean of an entry's best few phrasing similarities.
5. Confidence is a logistic function of a few features — relevance, the share of the question
   the knowledge base knows, the margin over the runner-up, the matched information, phrase
   similarity and how many ML or Google Cloud words the question spells out — so a threshold
   of 50 means "more likely right than not".
6. Traps: when the question names a service and one of that service's usual mix-ups serves the
   rest of the question better, answer the mix-up and report the named service. In a challenge
   ("should I X so Y", "will X fix Y") only the proposal X names the service, by an alias or by
   pointing at the top entry on its own; an alias in Y names the symptom or the goal.

Everything that can be tuned is a field of `Knobs`; the defaults are what `tutor eval` reports.
Confidence never reorders candidates: the ranking knobs are chosen by cross-validation over the
knowledge base's own phrasings (`tutor eval --tune`), the calibration is fitted afterwards
(`tutor eval --calibrate`), and neither step can undo the other.
"""

from __future__ import annotations

import dataclasses
import heapq
import math
import re
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz import fuzz, process

from bot.index import build_index
from bot.index_cache import cached_index
from bot.knowledge import Entry, KnowledgeBase
from bot.reading import (
    ASKING_WORDS,
    COMPARING_WORDS,
    EXAM_WORDS,
    asked_from,
    compared,
    negated_clauses,
)
from bot.scope import GOOGLE_WORDS, ML_WORDS, domain_words, other_area, other_platform
from bot.textnorm import (
    clean,
    english_words,
    is_english,
    pairs,
    raw_words,
    spelled_words,
    words,
)

# "should I use X", "do we need X", "will X fix", "is X the …": the question doubts the named
# service, which is how exam traps are worded; the need then decides, not the name. "Is X …"
# doubts X at the start of any sentence ("Our model is too big for one chip. Is data parallelism
# the way?"), not only the first.
_CHALLENGE = re.compile(
    r"\b(should (i|we)|do (i|we) (really )?(need|have to)|will .{0,40}\bfix"
    r"|(?:^|(?<=[.?!;] ))is |instead|^(?:(?:can|could) (?:i|we) )?(?:just )?use)\b"
)

# What a challenging question proposes: from "should I"/"will"/"do we need" to where the need
# starts ("just to", "so", "for", a comma). Words there name the means, whether or not they spell
# an alias ("split the layers across GPUs", "shrinking the batch").
_PROPOSAL = re.compile(
    r"\b(?:should (?:i|we)|do (?:i|we) (?:really )?(?:need|have) to|do (?:i|we) (?:really )?need"
    r"|will|would|is it worth)\b(?P<proposal>.+?)"
    r"(?=\b(?:to|so|fix|for|because|since|when|if|or|but|though|although|while)\b|[?;,.!]|$)"
)

_SENTENCE_END = re.compile(r"(?<=[.?!;])\s+|\s+(?:—|--)\s+")
# Cheap test for whether a question negates anything at all (most do not).
_NEGATOR = re.compile(
    r"\b(?:not|never|without|won|can|cannot|don|doesn|isn|aren|wouldn"
    r"|shouldn|instead|rather|other|except|avoid|avoiding)\b"
)

# A name: CamelCase ("LiteLLM", "DoFn") or a capitalised word ("Polysync"); a word that only
# starts a sentence is English, so `Matcher._unknown_name` passes it over.
_CAPITALISED = re.compile(r"\b([A-Z][a-z]+[A-Z0-9][A-Za-z0-9]*|[A-Z][a-z]{3,})\b")

# Domain words saturate: the feature is 1 - exp(-words / DOMAIN_SCALE).
DOMAIN_SCALE = 2.0

__all__ = ["Knobs", "Lookup", "Match", "Matcher", "clean", "words"]


@dataclass(frozen=True)
class Knobs:
    """Every tuning knob of the matcher, in one place.

    The knobs that order candidates (k1, name_field, pair_weight, phrase_weight, phrase_top and
    the trap knobs) are what `tutor eval --tune` finds on the knowledge base's own phrasings, not
    on any evaluation set; `calibration` is fitted on the dev set and every tuning half (never a
    test half), so it holds on questions written elsewhere. After a larger content change rerun
    both (`tutor eval --tune`, then `tutor eval --calibrate`). `threshold` is a choice:
    52 means the tutor answers when it is a little more likely right than not (with the scope
    feature, 52 answers more in-scope questions on the dev set and every tuning half and
    declines as many out-of-scope ones as 55 did).
    """

    threshold: int = 52  # confidence (0-100, probability-ish) below which the tutor abstains
    alternatives: int = 3  # "did you mean" suggestions offered at most
    related_min: int = 40  # beside a confident answer, show only alternatives at least this sure:
    # on the dev set and tuning halves, of 588 alternatives shown at 20-39% none was the right
    # answer where the answer was wrong (3 of 308 at 40-49%)
    suggest_min: int = 5  # "did you mean" offers only entries at least this sure
    typo_cutoff: float = 80.0  # rapidfuzz ratio a word needs to be corrected to a known word
    typo_min_length: int = 4  # shorter words are never "corrected"
    pair_typo: float = 85.0  # ratio an English word needs to become the partner of a known pair
    k1: float = 0.1  # BM25 saturation: how fast an entry's use of a word stops adding weight
    name_field: float = 0.05  # a word in the entry's name counts as this many phrasings' share
    pair_weight: float = 0.6  # a known word pair weighs this share of its own rarity
    unknown_weight: float = 0.5  # an unknown word weighs this share of the rarest word's rarity
    phrase_weight: float = 0.1  # share of the ranking score from fuzzy phrase similarity
    phrase_top: int = 8  # phrase similarity is the mean of this many best phrasings
    # candidates re-ranked with rapidfuzz: top-1 is the same at 3-6 on the dev set and every
    # tuning half, top-3 best at 3 (cross-validated top-1 is flat 4-12); phrases cost most
    rerank: int = 3
    max_postings: int = 1000  # words in more entries than this only score, never nominate
    trap_margin: float = 0.4  # how much better (share of the need) a mix-up must serve the need
    trap_margin_challenge: float = -0.1  # the same when the question challenges the name
    proposal_min: float = 0.5  # relevance a question's proposal needs to count as naming an entry
    trap_min_need: float = 0.25  # share of the need a mix-up partner must explain to be swapped in
    everyday_words: int = (
        2  # an answer sharing no more everyday words, and no domain word, is a guess
    )
    tie_margin: float = 0.05  # look-alikes this close at the top are told apart by their cues
    ask_weight: float = 1.3  # a question's last sentence weighs this much more than its scenario
    trap_alien: float = 0.2  # a challenged service serving less of the need is not the answer
    # a need that weighs less than this many times the rarest word ("serve our model": 0.7)
    # cannot overturn the service a question names, since nearly every serving entry serves
    # it; no swap on any evaluation set weighs this little
    trap_need_min: float = 1.0
    # a question whose names carry this share of its information is about what it names (see
    # `_only_a_name`); 0.7 to 0.9 change no answer on any evaluation set
    name_share: float = 0.8
    # ... and one that does no more than name one entry by an alias of its own ("what is
    # AutoML?", "should I use Cloud Run?") is answered at least this sure. The 10 questions of
    # that shape in all evaluation sets name their expected entry, yet the ranking alone
    # declined a fifth of the tutor's own aliases asked about plainly (2,338 of 11,016), since
    # a name such as "run" or "TPU" is spread over many entries; below 80, so never "sure"
    name_sure: int = 75
    close_gap: int = 10  # a runner-up this close behind the best answer ...
    close_cap: int = 79  # ... keeps its confidence at most this; so does a best answer that
    sure_lead: float = 0.1  # leads the ranking by less than this (see `_matches`)
    # Logistic calibration: bias, then weights of (relevance, known share, margin,
    # matched information, phrase similarity, ML or Cloud words); see `features`.
    calibration: tuple[float, ...] = (-10.15, 1.49, 3.68, 3.52, 4.83, 2.27, 1.5)


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
    outside: str | None = None  # another vendor's platform, or a non-ML area, it is about
    unknown: str | None = None  # a name in the question the knowledge base does not know

    @property
    def ranked(self) -> tuple[Match, ...]:
        """Every candidate offered, best first: the answer (if any), then the alternatives."""
        return ((self.best,) if self.best else ()) + self.alternatives

    @property
    def confidence(self) -> int:
        return self.ranked[0].confidence if self.ranked else 0


@dataclass(frozen=True)
class _Scored:
    """One candidate's evidence, before calibration."""

    index: int
    relevance: float  # share of the question's known information the entry explains (0-1)
    phrase: float  # mean similarity of its best phrasings (0-1)
    matched: float  # information explained, in idf units
    rank: float  # the ranking score


@dataclass(frozen=True)
class _Query:
    terms: dict[str, float]  # known term -> weight
    known: float  # total weight of known terms
    unknown: float  # total weight of unknown words
    text: str  # processed question, for rapidfuzz
    domain: int = 0  # distinct ML or Google Cloud words the question spells out
    about: int | None = None  # the one entry the question does no more than name (`_only_a_name`)


class Matcher:
    """Answers questions from a knowledge base; build it once, ask it many times."""

    def __init__(
        self, knowledge: KnowledgeBase, knobs: Knobs | None = None, *, cached: bool = False
    ) -> None:
        """`cached`: read the index from the cache folder when it was built before (the tutor)."""
        self.knobs = knobs or Knobs()
        build = cached_index if cached else build_index
        self._index = build(knowledge.entries, self.knobs.k1, self.knobs.name_field)
        english_words()  # load the dictionary now, not on the first learner's question
        self._correct = lru_cache(maxsize=65536)(self._correct_word)
        self._after: dict[str, list[str]] | None = None
        self._phrase = lru_cache(maxsize=4096)(self._phrase_of)
        self._tokens = lru_cache(maxsize=4096)(self._tokens_of)
        self._cue_terms = lru_cache(maxsize=4096)(self._cue_terms_of)
        self._asking = frozenset(words(ASKING_WORDS))

    def lookup(self, question: str) -> Lookup:
        query, ranked, named = self._decide(question)
        matches = self._matches(query, ranked)
        if named is not None and matches and matches[0].confidence < self.knobs.threshold:
            # the mix-up reading is not confident: answer the question as asked instead
            query, ranked, named = self._decide(question, traps=False)
            matches = self._matches(query, ranked)
        # the answer is the one entry the question does no more than name ("what is Cloud
        # SQL?"): it is about what the entry says of it, whatever its words or area
        by_name = bool(ranked) and ranked[0][0].index == query.about
        if ranked and not by_name and self._everyday(question, query, ranked[0][0].index):
            matches = _capped(matches, self.knobs.threshold - 1)
        unknown = self._unknown_name(question) if matches else None
        if unknown is not None:
            matches = _capped(matches, self.knobs.close_cap)
        entry = self._index.entries[named] if named is not None else None
        result = self._result(question, matches, entry, unknown)
        outside = None if by_name else self.outside(question)
        if outside is None:
            return result
        shown = [result.best, *result.alternatives] if result.best else list(result.alternatives)
        return Lookup(question, None, tuple(shown[: self.knobs.alternatives]), outside=outside)

    def _everyday(self, question: str, query: _Query, best: int) -> bool:
        """Whether an answer rests on a word or two that merely collide ("rent a shipping
        container", "phone battery"): no ML or Google Cloud word in the question, and at most
        `everyday_words` words shared with the entry, all plain English rather than a product or
        ML term. The tutor offers such a match as a guess, never as an answer."""
        if (ML_WORDS | GOOGLE_WORDS).intersection(raw_words(question[:2000])):
            return False
        called = self._index.named(query.text.split(), question)
        if called and " " in called[1]:  # a product named in everyday words: "reduction server"
            return False
        written = {stemmed: word for word, stemmed in spelled_words(question[:2000])}
        postings = self._index.postings
        shared = [t for t in query.terms if "_" not in t and best in postings[t]]
        shared = [t for t in shared if len(t) > 1]
        return len(shared) <= self.knobs.everyday_words and all(
            is_english(written.get(t, t)) for t in shared
        )

    def _unknown_name(self, question: str) -> str | None:
        """The first name in a question that the knowledge base does not know: a capitalised
        or CamelCase word ("in Polysync, which field …", "LiteLLM") that is neither English nor
        made of known words. The answer may still be right, but it cannot be sure: on the dev
        set and tuning halves, answers at 80% or more to such questions were right 4 times of 5,
        on the burned test halves 4 of 7 (the other answers at 80% or more: 99% and 97%)."""
        for name in _CAPITALISED.findall(question[:2000]):
            if not is_english(name.lower()) and not all(
                w in self._index.frequency for w in words(name)
            ):
                return name
        return None

    def _matches(self, query: _Query, ranked: list[tuple[_Scored, float]]) -> list[Match]:
        """Candidates with their confidence. A runner-up close behind the best one keeps the
        best one below `close_cap`: asked of matchers built without them (`tutor eval
        --crossval`'s folds), phrasings answered at 80% or more with a runner-up within 10 points
        were right 76% of the time (38 of 50) if it was any entry, 84% on the dev set and tuning
        halves if it was a known look-alike, against 99% for other answers at 80% or more.
        So does a lead of less than `sure_lead` in the ranking, however far behind the
        runner-up's confidence: held-out phrasings answered at 80% or more with such a lead were
        right 95% of the time (274 of 289), questions written elsewhere 82% (23 of 28)."""
        entries, knobs = self._index.entries, self.knobs
        found = [Match(entries[c.index], self._confidence(c, query, m)) for c, m in ranked]
        if found and ranked[0][0].index == query.about:
            found[0] = Match(found[0].entry, max(found[0].confidence, knobs.name_sure))
        close = len(found) > 1 and found[0].confidence - found[1].confidence < knobs.close_gap
        if found and (close or ranked[0][1] < knobs.sure_lead):
            found[0] = Match(found[0].entry, min(found[0].confidence, knobs.close_cap))
        return found

    def outside(self, text: str, beside: str = "") -> str | None:
        """What a text is about when that is outside the exam: another vendor's platform, a
        third-party ML tool, ML theory, or a non-ML Google Cloud area (None when it may be in
        scope). `beside`: text that comes with it, such as a practice question's choices
        (see `scope.other_platform`)."""
        return other_platform(text, beside) or other_area(text)

    def excluded(self, text: str) -> set[Entry]:
        """The entries a text's negated or excluded clauses name ("won't compile for TPU")."""
        _, found = self._excluding(clean(text).lower(), [])
        return {self._index.entries[i] for i in found}

    def names(self, text: str) -> list[tuple[Entry, float]]:
        """The entries a text names by an alias, each with the share of its words the alias
        spells ("TPUStrategy" is all alias; "add worker replicas to the custom job" is not)."""
        tokens = self.tokens(text)
        return [
            (self._index.entries[i], len(phrase.split()) / len(tokens))
            for i, phrase in self._index.all_named(tokens, text)
        ]

    def terms(self, text: str) -> dict[str, float]:
        """A text's known words and word pairs, each with its weight (rarity)."""
        return self._query(self.tokens(text)).terms

    def known_share(self, text: str) -> float:
        """How much of a text's information the knowledge base knows (0-1): "Cloud NAT on each
        VPC" is mostly a word no entry uses."""
        query = self._query(self.tokens(text))
        total = query.known + query.unknown
        return query.known / total if total else 0.0

    def explains(self, text: str, entry: Entry) -> float:
        """How much of a text's information (the rarity of its known words and word pairs) an
        entry's notes use. Not a share, unlike `relevance`: of two choices about embeddings, "a
        learned embedding layer mapping each ID to a dense vector" says more of the entry than
        "hashing into two buckets", though the entry explains nearly all of either."""
        return self._matched(self.terms(text), self._index.position[entry.id])

    def _matched(self, terms: dict[str, float], i: int) -> float:
        """The weight of the terms entry `i`'s notes use, in idf units."""
        return sum(w for t, w in terms.items() if i in self._index.postings[t])

    def relevance(self, parts: list[tuple[str, float]]) -> dict[Entry, float]:
        """Per entry, the share of a weighted text's known information it explains (0-1).

        `parts` are (text, weight) pairs: a practice question's final sentence can weigh more
        than its scenario. Entries that explain nothing are left out.
        """
        terms: dict[str, float] = {}
        for text, weight in parts:
            for term, idf in self.terms(text).items():
                terms[term] = terms.get(term, 0.0) + weight * idf
        known = sum(terms.values())
        if not known:
            return {}
        gathered = self._index.gather(terms, self.knobs.max_postings)
        entries = self._index.entries
        return {entries[i]: min(1.0, e / known) for i, e in gathered.items() if e > 0}

    def features(self, question: str) -> tuple[float, ...] | None:
        """The calibration features of the best candidate, None when nothing matches."""
        query, ranked, _ = self._decide(question)
        return self._features(*ranked[0], query) if ranked else None

    def tokens(self, question: str) -> list[str]:
        """The question's informative words after normalisation and typo correction (see
        `_tokens_of`); remembered, since one lookup reads its question and clauses again."""
        return list(self._tokens(question))

    def _tokens_of(self, question: str) -> tuple[str, ...]:
        """Only a word that is neither in the knowledge base nor an English word is a typo: an
        English word the knowledge base never uses ("recent", "triage") stays unknown instead of
        becoming a near-spelled known one ("decent", "trial"), unless it is the typo of a known
        pair ("reduction sever").
        """
        known = self._index.frequency
        tokens = []
        for written, stemmed in spelled_words(question[:2000]):
            if stemmed in known:
                tokens.append(stemmed)
                continue
            corrected = self._correct(stemmed)
            if is_english(written) and not _variants(stemmed, corrected):
                corrected = self._pair_typo(tokens[-1] if tokens else "", stemmed)
            tokens.append(corrected)
        return tuple(tokens)

    def _pair_typo(self, before: str, word: str) -> str:
        """An English word that is a typo only beside its neighbour: "reduction sever" is
        "reduction server" because the knowledge base knows that pair and not the other."""
        partners = self._pairs_after().get(before)
        if not partners or len(word) < self.knobs.typo_min_length:
            return word
        found = process.extractOne(
            word, partners, scorer=fuzz.ratio, processor=None, score_cutoff=self.knobs.pair_typo
        )
        return found[0] if found else word

    def _pairs_after(self) -> dict[str, list[str]]:
        """For each known word, the words that follow it in a known pair."""
        if self._after is None:
            after: dict[str, list[str]] = {}
            for term in self._index.idf:
                first, _, second = term.partition("_")
                if second:
                    after.setdefault(first, []).append(second)
            self._after = after
        return self._after

    # -- steps ---------------------------------------------------------------------------

    def _decide(
        self, question: str, *, traps: bool = True
    ) -> tuple[_Query, list[tuple[_Scored, float]], int | None]:
        """The query, candidates best first with their margins, and a named mix-up if any."""
        text = clean(question[:2000]).lower()
        tokens, excluded = self._excluding(text, self.tokens(question))
        query = self._query(tokens, self._asked(text))
        query = dataclasses.replace(query, domain=domain_words(question))
        scored = self._rank(query)
        if excluded and any(s.index not in excluded for s in scored):
            scored = [s for s in scored if s.index not in excluded]
        compared = self._compared(text, tokens, scored)
        if compared is not None:
            top = scored[0].index
            return query, _with_margins(compared, swapped=compared[0].index != top), None
        scored, swapped = self._tie_break(query, scored)
        names_only = self._only_a_name(text, tokens, scored)
        if names_only is not None:  # nothing but names: no need to weigh them against
            scored, about = names_only
            query = dataclasses.replace(query, about=about)
        trap = traps and names_only is None
        named, name = self._named(question, tokens, scored) if trap else (None, set())
        if named is not None:
            challenge = _CHALLENGE.search(text) is not None
            margin = self.knobs.trap_margin_challenge if challenge else self.knobs.trap_margin
            top = scored[0].index
            scored = self._answer_the_need(tokens, scored, named, name, margin, challenge)
            swapped = swapped or scored[0].index != top
            # "You mention X, but …" only when the question proposes X: it challenges X, or
            # asked about X and the need turned out to be another's
            if scored[0].index == named or not (challenge or scored[0].index != top):
                named = None
        return query, _with_margins(scored, swapped=swapped), named

    def _tie_break(self, query: _Query, scored: list[_Scored]) -> tuple[list[_Scored], bool]:
        """Look-alikes nearly tied at the top: the one whose watch-out cues the question uses
        (weighted by rarity) goes first."""
        if len(scored) < 2 or scored[0].rank - scored[1].rank > self.knobs.tie_margin:
            return scored, False
        first, second = scored[0].index, scored[1].index
        mine, theirs = self._cue_terms(first, second), self._cue_terms(second, first)
        if not mine and not theirs:
            return scored, False
        lead = sum(w for t, w in query.terms.items() if t in mine)
        behind = sum(w for t, w in query.terms.items() if t in theirs)
        if behind <= lead:
            return scored, False
        return [scored[1], scored[0], *scored[2:]], True

    def _cue_terms_of(self, a: int, b: int) -> frozenset[str]:
        """The words and word pairs of entry a's cues against entry b (its watch_out on b)."""
        other = self._index.entries[b].id
        cues = [c for w in self._index.entries[a].watch_out if w.id == other for c in w.cues]
        found: set[str] = set()
        for cue in cues:
            said = self.tokens(cue)
            found.update(said, pairs(said))
        return frozenset(found)

    def _only_a_name(
        self, text: str, tokens: list[str], scored: list[_Scored]
    ) -> tuple[list[_Scored], int | None] | None:
        """A question that is little more than an entry's name ("what does reduction server
        do?", "should we use TensorFlow Lite for our model?", "how do I set up Model Garden?") is
        about that entry, however often other entries mention the name: the names carry
        `name_share` of its information, not counting the words it asks with (ASKING_WORDS).
        So is one that only sets two names side by side ("Cloud Run vs GKE inference?", "what's
        the difference between RAG and supervised tuning?"): the better ranked of them first.

        Returns the candidates so ordered, and the entry the question does no more than name:
        one entry, by an alias no other entry has, with its other words, known or not, weighing
        at most 1 - `name_share` of it ("what is Cloud Run?", "should I use TPUs?"; not "fine-tune
        the carburettor", whose unknown words weigh): see `name_sure`. None when the question
        says more than names; only then is there a need to weigh a named service against (the
        trap rule)."""
        called = self._index.all_named(tokens, text)
        several = len({i for i, _ in called}) > 1
        if several and not COMPARING_WORDS.intersection(raw_words(text)):
            called = called[:1]  # the longest name; the others are context ("… in hp tuning")
        if not called:
            return None
        query = self._query(tokens)
        said = {w for _, name in called for w in name.split()} | self._asking
        rest = self._query([t for t in tokens if t not in said])
        share = 1 - self.knobs.name_share
        if rest.known > share * query.known:
            return None
        only = not several and called[0][1] not in self._index.shared_names
        about = called[0][0] if only and rest.known + rest.unknown <= share * query.known else None
        have = {s.index: s for s in scored}
        named = list(dict.fromkeys(i for i, _ in called))
        if any(i not in have for i in named):  # an entry the shortlist left out: score it
            gathered = self._index.gather(query.terms, self.knobs.max_postings)
            have |= {
                i: self._score(i, gathered[i], query, self._phrase(query.text, i))
                for i in named
                if i not in have and i in gathered
            }
        mine = [have[i] for i in named if i in have]
        mine.sort(key=lambda s: -s.rank)
        first = {s.index for s in mine}
        return [*mine, *(s for s in scored if s.index not in first)], about

    def _excluding(self, text: str, tokens: list[str]) -> tuple[list[str], set[int]]:
        """The entries a question's negated clauses name; their words stay in the question,
        since "won't compile for TPU" still says what the need is about.

        An entry the rest of the question names too is not excluded: "a managed TensorBoard,
        not a tensorboard process on my laptop" and "Matching Engine … without running our own
        vector DB" rule out a way of running the thing asked for, not the thing."""
        clauses = negated_clauses(text) if _NEGATOR.search(text) else []
        excluded = {i for c in clauses for i, _ in self._index.all_named(self.tokens(c), c)}
        if excluded:
            rest = text
            for clause in clauses:
                rest = rest.replace(clause, " ")
            excluded -= {i for i, _ in self._index.all_named(self.tokens(rest), rest)}
        return tokens, excluded

    def _compared(
        self, text: str, tokens: list[str], scored: list[_Scored]
    ) -> list[_Scored] | None:
        """In "X or Y for Z" between two named entries, the one that serves Z best first."""
        if not scored or not (sides := compared(text)):
            return None
        named: list[int] = []
        names: set[str] = set()
        for left, right in sides:
            before = self._index.all_named(self.tokens(left)[-2:], left)
            after = self._index.all_named(self.tokens(right)[:2], right)
            if before and after and before[0][0] != after[0][0]:
                named += [before[0][0], after[0][0]]
                names.update(before[0][1].split() + after[0][1].split())
        if len(named) < 2:
            return None
        # what the question rules out ("if we're not a TensorFlow shop") counts against a side
        ruled_out = {t for c in negated_clauses(text) for t in self.tokens(c)} - names
        need = self._query([t for t in tokens if t not in names and t not in ruled_out])
        if not need.terms:
            return None
        gather = self._index.gather
        evidence = gather(need.terms, self.knobs.max_postings)
        against = gather(self._query(list(ruled_out)).terms, self.knobs.max_postings)
        best = max(named, key=lambda i: evidence.get(i, 0.0) - against.get(i, 0.0))
        if evidence.get(best, 0.0) <= 0:
            return None
        mine = [s for s in scored if s.index == best]
        if not mine:
            return None
        return [mine[0], *(s for s in scored if s.index != best)]

    def _result(
        self, question: str, ranked: list[Match], named: Entry | None, unknown: str | None
    ) -> Lookup:
        knobs = self.knobs
        if ranked and ranked[0].confidence >= knobs.threshold:
            related = tuple(m for m in ranked[1:] if m.confidence >= knobs.related_min)
            return Lookup(question, ranked[0], related[: knobs.alternatives], named, None, unknown)
        suggested = [m for m in ranked if m.confidence >= knobs.suggest_min]
        return Lookup(question, None, tuple(suggested[: knobs.alternatives]), None)

    def _correct_word(self, word: str) -> str:
        """The closest known word; among equally close ones, the one entries use most."""
        index, knobs = self._index, self.knobs
        if word in index.frequency or len(word) < knobs.typo_min_length or word.isdigit():
            return word
        best: tuple[float, int, str] | None = None
        for length in range(len(word) - 2, len(word) + 3):
            for known, score, _ in process.extract(
                word,
                index.vocabulary_by_length.get(length, ()),
                scorer=fuzz.ratio,
                processor=None,
                score_cutoff=knobs.typo_cutoff,
                limit=3,
            ):
                candidate = (score, index.frequency[known], known)
                best = candidate if best is None or candidate > best else best
        return best[2] if best else word

    def _query(self, tokens: list[str], asked: frozenset[str] = frozenset()) -> _Query:
        """The weighted terms of a question; words of what it finally asks (`asked`) weigh
        `ask_weight` times more than the scenario before it."""
        index, knobs = self._index, self.knobs
        unknown_each = knobs.unknown_weight * index.max_idf
        terms: dict[str, float] = {}
        unknown = 0.0
        for token in dict.fromkeys(tokens):
            if token in index.idf:
                terms[token] = index.idf[token] * (knobs.ask_weight if token in asked else 1.0)
            else:
                unknown += unknown_each
        for pair in dict.fromkeys(pairs(tokens)):
            if pair in index.idf:
                terms[pair] = knobs.pair_weight * index.idf[pair]
        return _Query(terms, sum(terms.values()), unknown, " ".join(tokens))

    def _asked(self, text: str) -> frozenset[str]:
        """The words of what a question finally asks (its last sentence, or back to the one
        that names something when that is bare: `asked_from`), when a scenario comes before."""
        sentences = [s for s in _SENTENCE_END.split(text.strip()) if s.strip()]
        if len(sentences) < 2 or self.knobs.ask_weight == 1.0:
            return frozenset()
        start = asked_from(sentences, lambda part: len(self._query(self.tokens(part)).terms))
        if start <= 0:
            return frozenset()
        return frozenset(self.tokens(EXAM_WORDS.sub(" ", " ".join(sentences[start:]))))

    def _rank(self, query: _Query) -> list[_Scored]:
        if not query.terms:
            return []
        gathered = self._index.gather(query.terms, self.knobs.max_postings)
        shortlist = heapq.nlargest(self.knobs.rerank, gathered, key=gathered.__getitem__)
        phrase = self._phrases(shortlist, query.text)
        scored = [self._score(i, gathered[i], query, phrase[i]) for i in shortlist]
        scored.sort(key=lambda s: (-s.rank, self._index.entries[s.index].id))
        return scored

    def _score(self, i: int, evidence: float, query: _Query, phrase: float) -> _Scored:
        knobs = self.knobs
        relevance = min(1.0, evidence / query.known)
        matched = self._matched(query.terms, i)
        rank = (1 - knobs.phrase_weight) * relevance + knobs.phrase_weight * phrase
        return _Scored(i, relevance, phrase, matched, rank)

    def _phrases(self, shortlist: list[int], text: str) -> dict[int, float]:
        """Per entry, the mean rapidfuzz similarity of its `phrase_top` closest phrasings (0-1).

        Remembered per (text, entry): one question ranks the same entries again when its need
        or its plain reading is ranked, and token_set_ratio is most of a lookup's time.
        """
        return {i: self._phrase(text, i) for i in shortlist}

    def _phrase_of(self, text: str, i: int) -> float:
        found = process.extract(
            text,
            self._index.phrasings[i],
            scorer=fuzz.token_set_ratio,
            processor=None,
            score_cutoff=0,
            limit=self.knobs.phrase_top,
        )
        return sum(score for _, score, _ in found) / (100 * max(1, len(found)))

    def _confidence(self, candidate: _Scored, query: _Query, margin: float) -> int:
        features = self._features(candidate, margin, query)
        bias, *weights = self.knobs.calibration
        z = bias + sum(w * f for w, f in zip(weights, features, strict=True))
        return round(100 / (1 + math.exp(-max(-30.0, min(30.0, z)))))

    def _features(self, candidate: _Scored, margin: float, query: _Query) -> tuple[float, ...]:
        return (
            candidate.relevance,
            query.known / (query.known + query.unknown),
            margin,
            1 - math.exp(-candidate.matched / self._index.max_idf),
            candidate.phrase,
            1 - math.exp(-query.domain / DOMAIN_SCALE),
        )

    # -- traps ---------------------------------------------------------------------------

    def _mixed_up(self, a: int, b: int) -> bool:
        """Whether either entry lists the other as a usual mix-up."""
        entries = self._index.entries
        return entries[a] in self._partners(b) or entries[b] in self._partners(a)

    def _partners(self, i: int) -> set[Entry]:
        index = self._index
        return {index.entries[index.position[w.id]] for w in index.entries[i].watch_out}

    def _named_entry(self, tokens: list[str], written: str) -> tuple[int | None, set[str]]:
        """The entry whose alias the question spells out, and the alias's words (longest wins)."""
        found = self._index.named(tokens, written)
        return (found[0], set(found[1].split())) if found else (None, set())

    def _named(
        self, question: str, tokens: list[str], scored: list[_Scored]
    ) -> tuple[int | None, set[str]]:
        """The entry the question proposes as the means, and the words proposing it.

        In a challenge ("should I X so Y", "will X fix Y") only the proposal X can name the
        means: an alias in Y names the symptom or the goal. The proposal names the top entry by
        an alias or by pointing at it on its own; an alias of another entry is only reported.
        """
        if not scored:
            return None, set()
        found = _PROPOSAL.search(clean(question[:2000]).lower())
        if not found:
            return self._named_entry(tokens, question)
        proposal = self.tokens(found["proposal"])
        top = scored[0].index
        named, name = self._named_entry(proposal, found["proposal"])
        if named == top:
            return named, name
        query = self._query(proposal)
        evidence = self._index.gather(query.terms, self.knobs.max_postings)
        best = max(evidence, key=evidence.__getitem__, default=None)
        if best == top and evidence[top] >= self.knobs.proposal_min * query.known:
            return top, set(proposal)
        return named, name  # an alias beside the top entry: reported, never swapped

    def _answer_the_need(
        self,
        tokens: list[str],
        scored: list[_Scored],
        named: int,
        name: set[str],
        margin: float,
        challenge: bool,
    ) -> list[_Scored]:
        """Put first the entry that best serves the question minus the name, when it beats it.

        The other entry is the named one's usual mix-up; or, when the question challenges the
        name ("should we just run more trials so auditors can follow?"), any entry, provided the
        named one barely serves the need (`trap_alien`). A need that says little ("should we
        serve our model on Cloud Run?": `trap_need_min`) leaves the named one first.
        """
        index, knobs = self._index, self.knobs
        need = self._query([t for t in tokens if t not in name])
        if need.known < knobs.trap_need_min * index.max_idf or scored[0].index != named:
            return scored
        gathered = index.gather(need.terms, knobs.max_postings)
        ranked = [s for s in self._rank(need) if s.index != named]
        if not ranked:
            return scored
        best = ranked[0].index
        if not self._mixed_up(named, best):
            alien = gathered.get(named, 0.0) < knobs.trap_alien * need.known
            if not (challenge and alien):
                return scored
        own = gathered.get(named, 0.0) + margin * need.known
        serves = knobs.trap_min_need * need.known  # the other entry must itself answer the need
        if gathered.get(best, 0.0) <= max(own, serves):
            return scored
        mine = [s for s in scored if s.index == best]
        return [mine[0] if mine else ranked[0], *(s for s in scored if s.index != best)]


def _capped(matches: list[Match], cap: int) -> list[Match]:
    """The matches with no confidence above `cap`."""
    return [Match(m.entry, min(m.confidence, cap)) for m in matches]


def _with_margins(scored: list[_Scored], *, swapped: bool = False) -> list[tuple[_Scored, float]]:
    """Each candidate with its lead over the best other candidate (negative when behind).

    After a mix-up swap the first candidate was chosen for the need, so the others are behind
    it however well they match the words.
    """
    if len(scored) < 2:
        return [(s, s.rank) for s in scored]
    first, second = scored[0], scored[1]
    lead = [(first, abs(first.rank - second.rank))]
    if swapped:
        return lead + [(s, -abs(s.rank - first.rank)) for s in scored[1:]]
    return lead + [(s, s.rank - first.rank) for s in scored[1:]]


def _variants(word: str, other: str) -> bool:
    """Whether two words are forms of one word ("connect", "connector"): one begins the other."""
    return word.startswith(other) or other.startswith(word)
