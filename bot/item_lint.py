"""Item-quality lint: questions whose key can be found without knowing the material.

A test-wise learner picks the longest choice, or the one that repeats the question's words. In a
good bank those cues point at the key about as often as chance; these rules keep it so.

Bank-wide (checked once the bank has MIN_BANK questions; smaller samples are noise):
- the key is strictly the longest choice, strictly the shortest, or strictly the one sharing the
  most distinctive words with the question, in at most 35% of questions each (chance ~25%);
- the key's letter is spread evenly over the four-choice questions.

Per question:
- `long-correct`: the key is at most 1.5x the median length of the other choices;
- `all-none-above`: no "all/none of the above";
- `lone-echo`: no choice alone repeats three or more of the question's distinctive words;
- `thin-explanation`: every distractor is explained in at least five words;
- `unknown-name`: every product or API a choice names (a brand phrase such as "Vertex AI Foo",
  a dotted API such as tf.foo, a CamelCase class, a CONSTANT_NAME) is one the knowledge base
  mentions or `OTHER_NAMES` lists. Techniques named in plain words are left to review.

`quizzes/_lint.yaml` lists justified exceptions to per-question rules (question, rule, why); the
question loader skips files starting with `_`. Bank-wide rules take none: their caps leave room.
"""

from __future__ import annotations

import dataclasses
import re
import statistics
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.content import Fields, display_name, read_items, unknown_keys
from bot.errors import Problem
from bot.knowledge import KnowledgeBase
from bot.quiz import Question

MAX_CUE_SHARE = 0.35  # bank-wide cap for each cue (longest, shortest, most shared words)
MIN_BANK = 20  # fewer questions than this: bank-wide shares are neither checked nor printed
SPREAD_TOLERANCE = 0.25  # a letter may hold the key this much more or less than an even share
MAX_LENGTH_RATIO = 1.5  # key length / median length of the other choices
MIN_ECHO = 3  # distinctive question words one choice alone may not repeat
MIN_EXPLANATION_WORDS = 5
EXCEPTIONS_FILE = "_lint.yaml"

RULES = ("long-correct", "all-none-above", "lone-echo", "thin-explanation", "unknown-name")

# Real names that no knowledge entry mentions, each on the page cited beside it.
OTHER_NAMES = (
    "Cloud SQL",  # https://cloud.google.com/sql/docs
    "Cloud Logging",  # https://cloud.google.com/logging/docs
    "Cloud Scheduler",  # https://cloud.google.com/scheduler/docs
    "Compute Engine",  # https://cloud.google.com/compute/docs
    "Pub/Sub",  # https://cloud.google.com/pubsub/docs
    "Artifact Registry",  # https://cloud.google.com/artifact-registry/docs
    "Speech-to-Text",  # https://cloud.google.com/speech-to-text/docs
    "BigQuery ML",  # https://cloud.google.com/bigquery/docs/bqml-introduction
    "Vertex AI Model Registry",  # https://cloud.google.com/vertex-ai/docs/model-registry/introduction
    "SavedModel",  # https://www.tensorflow.org/guide/saved_model
    "AIP_MODEL_DIR",  # https://cloud.google.com/vertex-ai/docs/training/code-requirements
    "TerminateOnNaN",  # https://keras.io/api/callbacks/terminate_on_nan/
    # https://cloud.google.com/bigquery/docs/reference/standard-sql/bigqueryml-syntax-explain-predict
    "TOP_K_FEATURES",
    "Spark MLlib",  # https://spark.apache.org/docs/latest/ml-guide.html
    # https://www.tensorflow.org/api_docs/python/tf/distribute/experimental/CentralStorageStrategy
    "CentralStorageStrategy",
)

_BRANDS = (
    "Vertex AI",
    "Google Cloud",
    "Google",
    "Cloud",
    "BigQuery",
    "Compute Engine",
    "Gemini",
    "Dataflow",
    "Dataproc",
    "Datastream",
    "Kubeflow",
    "TensorFlow",
    "Keras",
    "AutoML",
)
_BRAND_NAME = re.compile(  # a brand, then capitalised words, short acronyms or versions
    r"\b(?:" + "|".join(re.escape(b) for b in _BRANDS) + r")"
    r"(?:[ -](?:[A-Z][a-z][\w/-]*|[A-Z][A-Z\d]{0,3}s?\b|v?\d\w*))*"
)
_CODE_NAME = re.compile(
    r"\b(?:tf|keras|ML|hvd|aiplatform)\.[A-Za-z_][\w.]*[A-Za-z_\d]"  # dotted APIs
    r"|\b[A-Z][a-z]+(?:[A-Z][a-z\d]+)+\b"  # CamelCase classes
    r"|\b[A-Z][A-Z\d]*(?:_[A-Z\d]+)+\b"  # SCREAMING_CASE constants
)
_FRAMEWORK_PREFIX = re.compile(r"^(?:TensorFlow|Keras|Google Cloud|Google) ")
_GENERIC_TAIL = re.compile(r" (?:VMs?|CSV|API|SDK|CLI|JSON|REST|GPUs?|CPUs?|nodes?)$")
_ABOVE = re.compile(r"\b(?:all|none|both|neither) of (?:the )?(?:above|these|them)\b", re.I)
_WORD = re.compile(r"[a-z0-9]+(?:[./_+-][a-z0-9]+)*")
_STOPWORD_TEXT = """
    a about above after again against all also an and any are as at be because been before being
    below between both but by can cannot could did do does doing done down during each either
    else even every few for from further had has have having he her here how if in into is it its
    itself just least less let like made make makes many may more most much must need needs new
    no nor not now of off on once one only or other our out over own per same she should since so
    some still such than that the their them then there these they this those through to too two
    under until up upon us very via was way we were what when where whether which while who whom
    why will with within without would yet you your
    best first fit fits next option approach choice team teams want wants use used using keep set
    needed google cloud vertex ai gcp model models training train trained job jobs run runs data
    code
"""  # English glue, exam boilerplate, and words nearly every question here uses
_STOPWORDS = frozenset(_STOPWORD_TEXT.split())


@dataclass(frozen=True)
class Excused:
    """A rule a question breaks on purpose, and why."""

    question: str
    rule: str
    why: str


@dataclass(frozen=True)
class Shares:
    """How often each cue points at the key, over the whole bank."""

    questions: int
    longest: float
    shortest: float
    overlap: float
    letters: dict[str, int]  # key letters of the four-choice questions


@dataclass(frozen=True)
class LintReport:
    """Findings to fix, the findings excused on purpose, and the bank-wide shares."""

    problems: tuple[Problem, ...]
    excused: tuple[Excused, ...]
    shares: Shares
    measured: bool  # whether the bank was large enough for its shares to be checked

    def summary(self) -> str:
        """The shares and exceptions, for the summary line of `tutor check`."""
        s = self.shares
        letters = ", ".join(f"{k} {v}" for k, v in s.letters.items())
        return (
            f"key longest in {s.longest:.0%}, shortest in {s.shortest:.0%}, shares most question "
            f"words in {s.overlap:.0%} (cap {MAX_CUE_SHARE:.0%}); keys {letters}; "
            f"{len(self.excused)} lint exception(s)"
        )


def words(text: str) -> set[str]:
    """The distinctive words of a text: lowercased, stopwords dropped, a plural 's' removed."""
    found = set()
    for word in _WORD.findall(text.lower()):
        if word in _STOPWORDS or len(word) < 2:
            continue
        if len(word) > 4 and word.endswith("ies"):
            word = word[:-3] + "y"
        elif len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
            word = word[:-1]
        found.add(word)
    return found


def _key_stands_out(question: Question, measure: Callable[[str], float]) -> bool:
    key = measure(question.choice_text(question.answer))
    return all(
        key > measure(text) for letter, text in question.choices if letter != question.answer
    )


def key_is_longest(question: Question) -> bool:
    """The key is strictly longer than every other choice (in characters)."""
    return _key_stands_out(question, len)


def key_is_shortest(question: Question) -> bool:
    """The key is strictly shorter than every other choice (in characters)."""
    return _key_stands_out(question, lambda text: -len(text))


def key_echoes_most(question: Question) -> bool:
    """The key shares strictly more distinctive words with the question than any other choice."""
    stem = words(question.question)
    return _key_stands_out(question, lambda text: len(words(text) & stem))


def lint_question(question: Question, known: Sequence[str]) -> list[tuple[str, str]]:
    """(rule, message) for every per-question rule the question breaks."""
    found: list[tuple[str, str]] = []
    key = question.choice_text(question.answer)
    others = [text for letter, text in question.choices if letter != question.answer]
    median = statistics.median(len(text) for text in others)
    if len(key) > MAX_LENGTH_RATIO * median:
        ratio = len(key) / median
        found.append(
            (
                "long-correct",
                f"the key ({question.answer}) is {ratio:.1f}x the median length of the other "
                f"choices (at most {MAX_LENGTH_RATIO}); trim it, or make the distractors "
                "as specific",
            )
        )
    for letter, text in question.choices:
        if above := _ABOVE.search(text):
            message = f"choice {letter} says '{above.group(0)}'; name a real alternative instead"
            found.append(("all-none-above", message))
    found += _echo_findings(question)
    for letter in question.letters:
        explanation = question.explanations.get(letter, "")
        if letter != question.answer and len(explanation.split()) < MIN_EXPLANATION_WORDS:
            found.append(
                (
                    "thin-explanation",
                    f"choice {letter} needs an explanation of at least {MIN_EXPLANATION_WORDS} "
                    "words saying why it is wrong here",
                )
            )
    found += _name_findings(question, known)
    return found


def _echo_findings(question: Question) -> list[tuple[str, str]]:
    stem = words(question.question)
    per_choice = {letter: words(text) for letter, text in question.choices}
    found = []
    for letter, own in per_choice.items():
        elsewhere = set().union(*(w for other, w in per_choice.items() if other != letter))
        echo = sorted((own & stem) - elsewhere)
        if len(echo) >= MIN_ECHO:
            found.append(
                (
                    "lone-echo",
                    f"choice {letter} alone repeats the question's words {', '.join(echo)}; reword "
                    "it, or let other choices use them too",
                )
            )
    return found


def names_in(text: str) -> list[str]:
    """Product and API names in a text: brand phrases, dotted APIs, classes and constants."""
    found = [m.group(0).strip(" -") for m in _BRAND_NAME.finditer(text)]
    found += [m.group(0) for m in _CODE_NAME.finditer(text)]
    return list(dict.fromkeys(found))


def known_names(knowledge: KnowledgeBase) -> tuple[str, ...]:
    """Every text that vouches for a name: OTHER_NAMES and each entry's means, aliases and notes."""
    texts = list(OTHER_NAMES)
    for entry in knowledge.entries:
        texts += [entry.means, entry.name, entry.why, *entry.aliases]
        texts += [w.note for w in entry.watch_out]
    return tuple(texts)


def is_known(name: str, known: Sequence[str]) -> bool:
    """Known as written, or once a framework prefix or a generic tail ('VM', 'API') is dropped."""
    bare = _FRAMEWORK_PREFIX.sub("", name)
    for candidate in dict.fromkeys((name, bare, _GENERIC_TAIL.sub("", bare))):
        pattern = re.compile(r"(?<![\w.])" + re.escape(candidate) + r"(?!\w)", re.I)
        if any(pattern.search(text) for text in known):
            return True
    return False


def _name_findings(question: Question, known: Sequence[str]) -> list[tuple[str, str]]:
    return [
        (
            "unknown-name",
            f"choice {letter} names '{name}', which no knowledge entry mentions; use the real "
            "product's exact name, or add it to the knowledge base",
        )
        for letter, text in question.choices
        for name in names_in(text)
        if not is_known(name, known)
    ]


def read_exceptions(folder: Path, problems: list[Problem]) -> list[tuple[Problem, Excused]]:
    """The exceptions in `folder/_lint.yaml`, each with where it is written (none if no file)."""
    path = folder / EXCEPTIONS_FILE
    if not path.exists():
        return []
    found = []
    for item in read_items(path, "exceptions", problems):
        fields = Fields(item, display_name(path), problems)
        fields.label = f"the exception for '{item.get('question')}'"
        for key in unknown_keys(item, {"question", "rule", "why"}):
            fields.problem(f"{fields.label}: unknown field '{key}' (typo?)")
        question, rule, why = fields.text("question"), fields.text("rule"), fields.text("why")
        if rule and rule not in RULES:
            fields.problem(f"rule '{rule}' is not one of {', '.join(RULES)}")
        found.append((Problem(fields.file, item.line, ""), Excused(question, rule, why)))
    return found


def measure(questions: Sequence[Question]) -> Shares:
    """How often each cue points at the key, and the spread of key letters."""
    total = len(questions) or 1
    four = Counter(q.answer for q in questions if len(q.choices) == 4)
    return Shares(
        questions=len(questions),
        longest=sum(map(key_is_longest, questions)) / total,
        shortest=sum(map(key_is_shortest, questions)) / total,
        overlap=sum(map(key_echoes_most, questions)) / total,
        letters={letter: four[letter] for letter in "ABCD"},
    )


def lint_bank(
    questions: Sequence[Question],
    knowledge: KnowledgeBase,
    exceptions: Iterable[tuple[Problem, Excused]] = (),
    *,
    folder: str = "quizzes",
    min_bank: int = MIN_BANK,
) -> LintReport:
    """Every rule over a loaded bank; `exceptions` excuse per-question findings."""
    excusing = {(e.question, e.rule): (where, e) for where, e in exceptions}
    known = known_names(knowledge)
    problems: list[Problem] = []
    used: set[tuple[str, str]] = set()
    for question in questions:
        for rule, message in lint_question(question, known):
            if (question.id, rule) in excusing:
                used.add((question.id, rule))
            else:
                text = f"'{question.id}' [{rule}]: {message}"
                problems.append(Problem(question.file, question.line, text))
    ids = {q.id for q in questions}
    for (qid, rule), (where, _) in excusing.items():
        if qid not in ids:
            problems.append(Problem(where.file, where.line, f"no question has the id '{qid}'"))
        elif (qid, rule) not in used and rule in RULES:
            stale = f"'{qid}' no longer breaks '{rule}'; remove this exception"
            problems.append(Problem(where.file, where.line, stale))
    shares = measure(questions)
    if len(questions) >= min_bank:
        problems += _bank_findings(shares, folder)
    excused = tuple(excusing[key][1] for key in sorted(used))
    return LintReport(tuple(problems), excused, shares, measured=len(questions) >= min_bank)


def lint_catalog(root: Path, questions: Sequence[Question], knowledge: KnowledgeBase) -> LintReport:
    """The lint as `tutor check` runs it: the bank under `root`, with its exceptions file."""
    folder = root / "quizzes"
    problems: list[Problem] = []
    exceptions = read_exceptions(folder, problems)
    report = lint_bank(questions, knowledge, exceptions, folder=display_name(folder))
    return dataclasses.replace(report, problems=tuple(problems) + report.problems)


def _bank_findings(shares: Shares, folder: str) -> list[Problem]:
    found = []
    for cue, label, share in (
        ("longest-share", "is strictly the longest choice", shares.longest),
        ("shortest-share", "is strictly the shortest choice", shares.shortest),
        ("overlap-share", "shares the most words with the question", shares.overlap),
    ):
        if share > MAX_CUE_SHARE:
            message = (
                f"[{cue}] the key {label} in {share:.0%} of questions (at most "
                f"{MAX_CUE_SHARE:.0%}; chance is about 25%); rewrite the questions where it does"
            )
            found.append(Problem(folder, 1, message))
    expected = sum(shares.letters.values()) / 4
    if any(abs(n - expected) > SPREAD_TOLERANCE * expected for n in shares.letters.values()):
        spread = ", ".join(f"{k} {n}" for k, n in shares.letters.items())
        message = (
            f"[letter-spread] keys of four-choice questions are uneven ({spread}); each letter "
            f"should hold {expected:.0f} ± {SPREAD_TOLERANCE:.0%}, so move some keys"
        )
        found.append(Problem(folder, 1, message))
    return found
