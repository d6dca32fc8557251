"""How a question is read before it is scored: what it excludes, and what it compares.

Words a question negates or excludes ("not", "without", "won't", "instead of", "rather than",
"other than") name what the learner does *not* want: an entry those words name counts against,
never for, the answer. Only entry names are turned around this way; a negated need ("no code",
"without labels") is still the need, and a bare "no" describes what the learner lacks ("no
gradient clipping"), which may well be the answer. "X or Y" between two named entries is a
comparison: the rest of the question decides between them, and neither is a trap the learner
fell into.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from bot.textnorm import stem

# A negation or exclusion, then its clause: up to the next punctuation or clause word. "can't I
# just use X" and "why not X" propose X, "not sure" hedges, and "not all", "not every", "not
# enough" count how much of X there is ("not all the replicas came up"); none of them exclude X.
_NEGATED = re.compile(
    r"(?<!why )\b(?:not|never|without|won'?t|can'?t|cannot|don'?t|doesn'?t|isn'?t|aren'?t"
    r"|wouldn'?t|shouldn'?t|instead of|rather than|other than|except|avoid|avoiding)\b"
    r"(?! (?:i|we|you|sure|only|just|all|every|enough|always|quite|fully)\b)"
    r"(?P<clause>[^,;:.?!()]{1,60}?)"
    r"(?=[,;:.?!()]|\b(?:but|so|and|because|since|while|though|what|which|how)\b|$)"
)
_NOT_COMPARING = frozenset({"no", "not", "neither", "nor", "without", "never"})
# "X or Y", "X vs. Y": up to four words each side of the joining word.
_COMPARE = re.compile(
    r"(?P<left>(?:[\w'/-]+ ){1,4})(?:or|vs\.?|versus) (?P<right>(?:[\w'/-]+ ?){1,4})"
)


# What something cannot do, said after it: "the TPU says the op is not supported".
_UNSUPPORTED = re.compile(
    r"(?P<clause>[^,;:.?!()—]{1,40}?)\s+"
    r"(?:is not|isn'?t|not|doesn'?t|does not|won'?t|can'?t|cannot)"
    r" (?:be )?(?:supported|support|compile|available|work)\b"
)


def negated_clauses(text: str) -> list[str]:
    """The clauses a question negates or excludes, in lower case."""
    text = text.lower()
    found = [m["clause"].strip() for m in _NEGATED.finditer(text)]
    found += [m["clause"].strip() for m in _UNSUPPORTED.finditer(text)]
    return [clause for clause in found if clause]


def compared(text: str) -> list[tuple[str, str]]:
    """The (left, right) sides of each "X or Y" / "X vs Y" in a question, in lower case.

    "no GPU or TPU kernels" lists what is missing; it compares nothing.
    """
    text = text.lower()
    if " or " not in text and " vs" not in text and " versus " not in text:
        return []  # most questions compare nothing; skip the pattern
    found = ((m["left"], m["right"]) for m in _COMPARE.finditer(text))
    return [(left, right) for left, right in found if not _NOT_COMPARING & set(left.split())]


# How every exam question asks, whatever it asks about: none of these words says what the need is.
EXAM_WORDS = re.compile(
    r"\b(?:most|best|appropriate|change|approach|option|solution|action|main|likely|first"
    r"|step|recommend(?:ed)?|should|could|would|do|use|what|which|how)\b",
    re.IGNORECASE,
)


# Words that set names side by side: "X vs Y", "X or Y", "the difference between X and Y".
COMPARING_WORDS = frozenset(
    {"difference", "differences", "differ", "differs", "between", "vs", "versus", "or"}
    | {"compare", "compared", "comparing", "comparison"}
)
# How a question asks about a thing it names, without saying anything about a need: "how do I
# set up X?", "X explained", "what does X mean?", "the difference between X and Y". Compared
# after stemming.
ASKING_WORDS = " ".join(
    [
        "set up setup configure configuring explain explained explanation overview intro",
        "introduction basics work works mean means",
        *sorted(COMPARING_WORDS),
    ]
)


def asked_from(sentences: list[str], known: Callable[[str], int], least: int = 1) -> int:
    """Where what a question asks starts: its last sentence, or, when that is bare ("What should
    you do?", "Which change is most appropriate?"), back to the sentence that names at least
    `least` words of its own (`known` counts a text's known words)."""
    start = len(sentences) - 1
    while start > 0 and known(EXAM_WORDS.sub(" ", " ".join(sentences[start:]))) < least:
        start -= 1
    return start


# Which way a piece of advice turns a knob: "add layers", "train longer", "a smaller batch",
# "less regularization". Words that stand for the same knob are read as one (stemmed forms).
KNOBS = {
    "capacity": {"capacity", "layer", "unit", "neuron", "parameter", "model", "complex"},
    "training": {"train", "epoch", "iteration", "step", "early"},
    "regularization": {"regularize", "regularization", "dropout", "l1", "l2", "decay", "penalty"},
    "learning rate": {"learning"},
    "batch": {"batch"},
    "data": {"data", "example"},
}
_KNOB_OF = {stem(word): knob for knob, said in KNOBS.items() for word in said}
_UP_BEFORE = {"add", "more", "increase", "raise", "extra", "grow", "expand", "boost"}
_DOWN_BEFORE = {"less", "fewer", "reduce", "decrease", "remove", "cut", "ease", "lower"}
_UP_NEAR = {"larger", "bigger", "longer", "higher", "greater", "deeper", "wider"}
_DOWN_NEAR = {"smaller", "shorter", "lower", "simpler", "shallower", "stop"}
_WAYS = {
    stem(word): (way, ahead)
    for words, way, ahead in (
        (_UP_NEAR, 1, False),
        (_DOWN_NEAR, -1, False),
        (_UP_BEFORE, 1, True),
        (_DOWN_BEFORE, -1, True),
    )
    for word in words
}
_AHEAD = 4  # a verb or quantifier turns the knobs named in the next four words
_AROUND = 2  # a comparative turns the knobs named two words either side of it
_CLAUSE = re.compile(r"[,;:.?!()]|\bor\b|\band\b")


def stance(text: str) -> frozenset[tuple[str, int]]:
    """(knob, +1 or -1) for each knob the text turns up or down, clause by clause."""
    found: set[tuple[str, int]] = set()
    for clause in _CLAUSE.split(text.lower()):
        said = [stem(w) for w in re.findall(r"[a-z0-9]+", clause)]
        for n, word in enumerate(said):
            if word not in _WAYS:
                continue
            way, ahead = _WAYS[word]
            if ahead:
                near = said[n + 1 : n + 1 + _AHEAD]
            else:
                near = said[max(0, n - _AROUND) : n] + said[n + 1 : n + 1 + _AROUND]
            found.update((_KNOB_OF[w], way) for w in near if w in _KNOB_OF)
    return frozenset(found)


_TRIED = re.compile(r"\b(?:already|even (?:with|at|after|when|though))\b")
_TRIED_NEAR = 4  # the knobs named this many words either side of "already" / "even with"


def tried(text: str) -> frozenset[str]:
    """The knobs a text says were turned already ("the learning rate is already tiny", "even
    with a batch of one"): turning them further is the advice that did not work."""
    found: set[str] = set()
    for clause in _CLAUSE.split(text.lower()):
        for mark in _TRIED.finditer(clause):
            before = re.findall(r"[a-z0-9]+", clause[: mark.start()])[-_TRIED_NEAR:]
            after = re.findall(r"[a-z0-9]+", clause[mark.end() :])[:_TRIED_NEAR]
            said = (stem(w) for w in before + after)
            found.update(_KNOB_OF[w] for w in said if w in _KNOB_OF)
    return frozenset(found)
