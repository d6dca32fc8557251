"""Practice-question mode: a pasted exam-style question with lettered or numbered choices.

The stem says the need; the question at its end (what is asked) weighs more than the scenario
around it, whose service names are often incidental. Each choice is read as the entries it
stands for, and a choice fits as well as its best entry serves the stem's need. The tutor picks
the best-fitting choice when it leads clearly; otherwise it says it is not sure and names the two
closest, which is what a tutor would do with a question it cannot settle.
"""

from __future__ import annotations

import dataclasses
import math
import re
from dataclasses import dataclass
from functools import lru_cache

from bot.knowledge import Entry
from bot.matching import Matcher
from bot.reading import EXAM_WORDS, asked_from, negated_clauses, stance, tried
from bot.textnorm import clean, pairs, words

ASK_WEIGHT = 2.0  # the stem's last sentence (what is asked) weighs this much more than the rest
CLOSE = 0.7  # a choice stands for the entries its words point at this much of the most
ADVISORS = 3  # a choice is checked against the advice of this many entries serving the need
ADVICE = 1.0  # weight of stating that advice, beside standing for an entry that serves the need
STANCE = 1.0  # weight of turning the same knobs the same way as that advice (or the other way)
NAME_SHARE = 0.5  # a choice is an entry's name when one alias spells this share of its words
NAMED_MIN = 0.3  # a choice names an entry when the entry explains this share of its words
# A choice stands for an entry as much as the entry explains its known words, times the share
# of its words the notes know, to this power: "Cloud NAT on each VPC" is mostly a word no entry
# uses, so the entry that explains "VPC" barely stands for it.
KNOWN_POWER = 2
# The entry the tutor answers the stem with, asked as a plain question (where look-alike cues,
# negation and trap reading decide), serves the need at least this much of the best share.
ANSWER_LEAD = 1.1
MIN_FIT = 0.08  # the tutor picks only when the best-fitting choice serves this share of the need
# When the two best-fitting choices stand for the same entry and the first leads by less than
# this share of its fit, the pick is the choice of that entry that says the most of it: a short
# distractor made of the entry's own words ("hashing into two buckets", "default Google-managed
# encryption") stands for it as strongly as the key that states its advice, but says less.
SAME_ENTRY_LEAD = 0.5
# Confidence of a pick: a logistic function of (fit, lead over the runner-up as a share of the
# fit), bias first, fitted on the practice tuning halves (tests/eval/*practice_tune.yaml) by
# `tutor eval --calibrate`, so that a pick said to be 70% sure is keyed about 70% of the time.
CALIBRATION = (-1.05, 1.86, 6.25)
PICK_MIN = 55  # the tutor picks a choice when at least this sure, else names the two closest
# A pick whose runner-up fits within CLOSE_LEAD of its fit is shown no surer than the matcher's
# close calls (`Knobs.close_cap`, below 80): on the practice tuning halves, picks shown at 80% or
# more with such a lead were keyed 49 times of 54 (91%), against 238 of 238 with a wider lead.
CLOSE_LEAD = 0.5

# A choice on its own line: "A. …", "(b) …", "c) …", "1. …", "2) …".
_LINE_CHOICE = re.compile(r"^[ \t>*•-]*\(?([A-Ea-e]|[1-5])[).:]\s+(\S.*?)\s*$", re.MULTILINE)
# Choices run together on one line: "… A) x B) y C) z" (upper case letters or numbers, or
# lower case letters with a parenthesis, so that "a." in a sentence is never a choice).
_INLINE_CHOICE = re.compile(r"(?:^|(?<=\s))(?:\(?([A-E])[).]|\(?([a-e])\)|\(?([1-5])\))\s+")
_SENTENCE_END = re.compile(r"(?<=[.?!])\s+")


def is_choice_line(line: str) -> bool:
    """A line that is one lettered or numbered choice of a pasted question ("B. Reduce …")."""
    return _LINE_CHOICE.fullmatch(line.strip("\r\n")) is not None


@dataclass(frozen=True)
class Choice:
    """One choice, the entry it stands for (None if none) and how well it serves the need."""

    letter: str  # as a learner refers to it: "A", "B" … (numbers become letters)
    text: str
    entry: Entry | None
    fit: float
    strength: float = 0.0  # how much of the choice's wording that entry explains (0-1)
    says: float = 0.0  # how much of that entry the choice says (information, not a share)

    @property
    def named(self) -> Entry | None:
        """The entry, when the choice's words clearly point at it (else a weak association)."""
        return self.entry if self.strength >= NAMED_MIN else None


@dataclass(frozen=True)
class Practice:
    """The tutor's reading of a practice question: the pick (None when unsure) and why."""

    stem: str
    choices: tuple[Choice, ...]
    pick: Choice | None
    confidence: int
    need: Entry | None  # the entry that best serves the stem alone
    outside: str | None = None  # what the stem is about when that is outside the exam

    @property
    def closest(self) -> tuple[Choice, ...]:
        """The two best-fitting choices, best first (what an unsure answer offers)."""
        return tuple(sorted(self.choices, key=lambda c: -c.fit)[:2])

    @property
    def lead(self) -> float:
        """How far the best-fitting choice leads the runner-up, as a share of its own fit."""
        best, runner = self.closest
        return (best.fit - runner.fit) / best.fit if best.fit else 0.0

    @property
    def favourite(self) -> Choice:
        """The choice the tutor would pick: the best-fitting one, unless the runner-up stands
        for the same entry close behind (`SAME_ENTRY_LEAD`); then the choice of that entry that
        says the most of it."""
        best, runner = self.closest
        if best.entry is None or runner.entry != best.entry or self.lead >= SAME_ENTRY_LEAD:
            return best
        same = [c for c in self.choices if c.entry == best.entry]
        return max(same, key=lambda c: (c.says, c.fit))


def split_choices(text: str) -> tuple[str, list[tuple[str, str]]] | None:
    """(stem, [(letter, choice text)]) when the text is a stem followed by its choices."""
    text = clean(text).strip()
    found = _choices_on_lines(text) or _choices_inline(text)
    if found is None:
        return None
    stem, choices = found
    return (stem, choices) if len(stem.split()) >= 3 else None


def _choices_on_lines(text: str) -> tuple[str, list[tuple[str, str]]] | None:
    marks = list(_LINE_CHOICE.finditer(text))
    run = _in_order([(m.group(1), m.start(), m.end(), m.group(2)) for m in marks])
    if len(run) < 2:
        return None
    return text[: run[0][1]].strip(), [(_letter(k), body) for k, _, _, body in run]


def _choices_inline(text: str) -> tuple[str, list[tuple[str, str]]] | None:
    marks = [
        (next(g for g in m.groups() if g), m.start(), m.end(), "")
        for m in _INLINE_CHOICE.finditer(text)
    ]
    run = _in_order(marks)
    if len(run) < 3:
        return None
    ends = [start for _, start, _, _ in run[1:]] + [len(text)]
    choices = [
        (_letter(k), text[end:stop].strip()) for (k, _, end, _), stop in zip(run, ends, strict=True)
    ]
    return text[: run[0][1]].strip(), choices


def _in_order(marks: list[tuple[str, int, int, str]]) -> list[tuple[str, int, int, str]]:
    """The first run of markers that counts A, B, C … (or 1, 2, 3 …) from the start."""
    for first, mark in enumerate(marks):
        if _letter(mark[0]) != "A":
            continue
        run = [mark]
        for later in marks[first + 1 :]:
            if ord(_letter(later[0])) == ord(_letter(run[-1][0])) + 1:
                run.append(later)
        if len(run) >= 2:
            return run
    return []


def _letter(mark: str) -> str:
    return chr(ord("A") + int(mark) - 1) if mark.isdigit() else mark.upper()


def solve(matcher: Matcher, text: str) -> Practice | None:
    """The tutor's reading of a pasted practice question; None when the text has no choices."""
    found = split_choices(text)
    if found is None:
        return None
    stem, listed = found
    need = matcher.relevance(_stem_parts(matcher, stem))
    for entry in matcher.excluded(stem):  # "ops with no TPU support": not the TPU entry
        need.pop(entry, None)
    answer = matcher.lookup(stem).best
    if answer is not None and need:
        lead = ANSWER_LEAD * max(need.values())
        need[answer.entry] = max(need.get(answer.entry, 0.0), lead)
    # Choices that turn knobs ("train longer", "add dropout") are told apart by which way they
    # turn them, when at least two do; one knob-turning choice among services is not a contest.
    directional = sum(bool(stance(body)) for _, body in listed) >= 2
    done = tried(stem) if directional else frozenset()
    choices = tuple(
        _choice(matcher, letter, body, need, directional, done) for letter, body in listed
    )
    top_need = max(need, key=need.__getitem__, default=None)
    read = Practice(stem, choices, None, 0, top_need)
    best = read.closest[0]
    bias, w_fit, w_lead = CALIBRATION
    confidence = round(100 / (1 + math.exp(-(bias + w_fit * best.fit + w_lead * read.lead))))
    sure = best.fit >= MIN_FIT and confidence >= PICK_MIN
    if read.lead < CLOSE_LEAD:
        confidence = min(confidence, matcher.knobs.close_cap)
    # "Which AWS service …": no Google Cloud choice is the key; "We track runs in MLflow …"
    # with Google Cloud among the choices is a question of moving to Google Cloud
    outside = matcher.outside(stem, beside="\n".join(body for _, body in listed))
    if outside is not None:
        return dataclasses.replace(read, confidence=confidence, outside=outside)
    return dataclasses.replace(read, pick=read.favourite if sure else None, confidence=confidence)


def _stem_parts(matcher: Matcher, stem: str) -> list[tuple[str, float]]:
    """The scenario, then what is asked (see `asked_from`), without the words every exam
    question asks with."""
    sentences = [s for s in _SENTENCE_END.split(stem) if s.strip()]
    start = asked_from(sentences, lambda text: len(matcher.terms(text)))
    if start <= 0:
        return [(stem, 1.0)]
    asked = EXAM_WORDS.sub(" ", " ".join(sentences[start:]))
    return [(" ".join(sentences[:start]), 1.0), (asked, ASK_WEIGHT)]


def _choice(
    matcher: Matcher,
    letter: str,
    body: str,
    need: dict[Entry, float],
    directional: bool = False,
    done: frozenset[str] = frozenset(),
) -> Choice:
    """A choice stands for the entries its words point at nearly as much as at its closest one
    (of those, the one that serves the need), or for the one entry it is the name of; it fits by
    how well that entry serves the need, plus how much of it states the advice of an entry that
    serves the need best, plus (`directional`) whether it turns the knobs that advice turns the
    same way or the other way; a knob the stem says is `done` already counts against."""
    familiar = matcher.known_share(body) ** KNOWN_POWER
    said = {e: share * familiar for e, share in matcher.relevance([(body, 1.0)]).items()}
    if not said:
        return Choice(letter, body, None, 0.0)
    top = max(said.values())
    closest = [e for e in said if said[e] >= CLOSE * top]
    entry = max(closest, key=lambda e: (need.get(e, 0.0), said[e]))
    serving = sorted(need, key=lambda e: -need[e])[:ADVISORS]
    advisors = serving
    named = [e for e, share in matcher.names(body) if share >= NAME_SHARE]
    if len(named) == 1 and named[0] in said:
        # a choice that is an entry's name ("TPUStrategy") stands for that entry alone
        entry, advisors = named[0], [e for e in serving if e == named[0]]
    terms = matcher.terms(body)
    known = sum(terms.values()) or 1.0
    # the advice of one entry, the one it states best: look-alikes share words, and summing
    # over them would credit a choice once per look-alike that uses them
    advice = max(
        (need[e] * sum(w for t, w in terms.items() if t in _advice(e)) / known for e in advisors),
        default=0.0,
    )
    # A stem the notes know nothing of serves no entry: there is no advice to agree with.
    turns = stance(body) if directional and serving else frozenset()
    agreement = 0.0
    if turns:
        lead = serving[0]
        agreement = (
            need[lead]
            * sum(
                # a knob the stem says was turned already ("even with a batch of one") counts
                # against either way: further is what did not work, back is against the advice
                -1
                if knob in done
                else ((knob, way) in _turns(lead)) - ((knob, -way) in _turns(lead))
                for knob, way in turns
            )
            / len(turns)
        )
    fit = said[entry] * need.get(entry, 0.0) + ADVICE * advice + STANCE * agreement
    return Choice(letter, body, entry, fit, said[entry], matcher.explains(body, entry))


@lru_cache(maxsize=4096)
def _advice(entry: Entry) -> frozenset[str]:
    """The words and word pairs of what an entry recommends: its means, name and aliases, less
    what the means advises against ("… rather than accuracy or ROC AUC")."""
    found: set[str] = set()
    for text in (entry.means, entry.name, *entry.aliases):
        said = words(text)
        found.update(said, pairs(said))
    against = {w for clause in negated_clauses(entry.means) for w in words(clause)}
    return frozenset(found - against)


@lru_cache(maxsize=4096)
def _turns(entry: Entry) -> frozenset[tuple[str, int]]:
    """Which knobs an entry's advice turns, and which way ("train longer", "a smaller batch")."""
    return stance(entry.means)
