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

# A negation or exclusion, then its clause: up to the next punctuation or clause word. "can't I
# just use X" and "why not X" propose X, and "not sure" hedges; none of them exclude X.
_NEGATED = re.compile(
    r"(?<!why )\b(?:not|never|without|won'?t|can'?t|cannot|don'?t|doesn'?t|isn'?t|aren'?t"
    r"|wouldn'?t|shouldn'?t|instead of|rather than|other than|except|avoid|avoiding)\b"
    r"(?! (?:i|we|you|sure|only|just)\b)"
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
