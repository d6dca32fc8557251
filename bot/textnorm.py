"""Text normalisation shared by the matcher and the command parser.

Slack's wire form becomes plain words: markup and emoji go, case and light inflection fold,
abbreviations learners type expand into the words entries are written with, and filler words
(greetings, chat, "which service should I use") drop out because they say nothing about the need.
"""

from __future__ import annotations

import contextlib
import html
import importlib.util
import os
import re
from functools import lru_cache
from itertools import pairwise
from pathlib import Path

# Words that carry no information about the need; compared after stemming.
FILLER = frozenset(
    """
    a an the and or but if of to in on at by for from with into onto about as is are was
    were be been being am do does did doing have has had having i me my we our us you your it its
    this that these those there here what which who whom whose when where why how can could should
    would will shall may might must need needs needed want wants wanted use using used best good
    better way ways option options service services tool tools product thing stuff something
    anything pls please plz thanks thank thx hi hey hello hiya yo team folks guys all some any
    so just really very also too then than get got go going make makes made let lets gcp google
    cloud tell know anyone recommend recommended suggest right correct pick choose choice should
    whats im ive doe ok okay lol lmao haha question quick help wondering morning everyone
    everybody somebody someone kinda sorta gonna wanna btw tbh imo idk yeah yep cool nice ttyl
    people ppl y yall q u ur r wat sooo soo asap actually literally usual usually
    """.split()  # noqa: SIM905 - a word list reads better as words than as 180 quoted strings
)

# Abbreviations and shorthand learners type, expanded into the words entries are written with.
ABBREVIATIONS = {
    "oom": "out memory",
    "ooms": "out memory",
    "lr": "learning rate",
    "hp": "hyperparameter",
    "hpo": "hyperparameter tuning",
    "hparam": "hyperparameter",
    "hparams": "hyperparameter",
    "hyperparam": "hyperparameter",
    "hyperparams": "hyperparameter",
    "ft": "fine tune",
    "finetune": "fine tune",
    "finetuning": "fine tune",
    "finetuned": "fine tune",
    "sft": "supervised fine tune",
    "k8s": "kubernetes",
    "gke": "kubernetes engine gke",
    "bq": "bigquery",
    "bqml": "bigquery ml",
    "gcs": "cloud storage gcs",
    "nocode": "no code",
    "xai": "explainable ai",
    "dl": "deep learning",
    "nn": "neural network",
    "nns": "neural network",
    "img": "image",
    "imgs": "image",
    "pic": "image",
    "pics": "image",
    "acc": "accuracy",
    "val": "validation",
    "tf2": "tensorflow",
    "tf": "tensorflow",
    "xgb": "xgboost",
    "llm": "large language model",
    "llms": "large language model",
    "w": "with",
    "db": "database",
    "dbs": "database",
}

# A word seen this often in pyspellchecker's English frequency list is a word, not a typo.
ENGLISH_MIN = 200

_SLACK_LINK = re.compile(r"<(?:https?|mailto):[^>|]*\|([^>]*)>")
_SLACK_CHANNEL = re.compile(r"<#[A-Z0-9]+\|([^>]*)>")
_SLACK_MARKUP = re.compile(r"<[^>]*>")
_EMOJI_CODE = re.compile(r":[a-z0-9_+\-']+:")
_NOT_WORD = re.compile(r"[^a-z0-9]+")


def clean(text: str) -> str:
    """Readable text from Slack's wire form: links keep their label, mentions and emoji go."""
    text = _SLACK_LINK.sub(r"\1", text)
    text = _SLACK_CHANNEL.sub(r"\1", text)
    text = _SLACK_MARKUP.sub(" ", text)
    text = html.unescape(text)
    return _EMOJI_CODE.sub(" ", text)


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A deliberately small stemmer: plural, -ing/-ed and silent-e forms fold onto one word.

    "tune", "tunes", "tuned" and "tuning" all become "tun"; only the two sides must agree.
    """
    word = _suffixless(word)
    if len(word) > 3 and word.endswith("e") and not word.endswith("ee"):
        return _undoubled(word[:-1])  # "quizzes" -> "quizze" -> "quizz" -> "quiz"
    return word


def _suffixless(word: str) -> str:
    if len(word) > 5 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 5 and word.endswith("ing"):
        return _undoubled(word[:-3])
    if len(word) > 4 and word.endswith("ed") and not word.endswith("eed"):
        return _undoubled(word[:-2])
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "is")):
        # "-us" words stay ("status", "corpus") except short acronym plurals ("gpus", "tpus")
        return word[:-1] if len(word) == 4 or not word.endswith("us") else word
    return word


def _undoubled(word: str) -> str:
    """Undo the consonant that -ing or -ed doubled: "runn" -> "run", "labell" -> "label"; but
    "install", "process" and "roll" are words as they are. Neither a word doubled nor undoubled
    ("preprocess"): a doubled s, f or z stays, others are undone ("debugg" -> "debug")."""
    if len(word) <= 3 or word[-1] != word[-2] or is_english(word):
        return word
    return word[:-1] if is_english(word[:-1]) or word[-1] not in "sfz" else word


def raw_words(text: str) -> list[str]:
    """Lowercased words of cleaned text, abbreviations expanded, nothing dropped or stemmed;
    "non-" joins the word it negates ("non-differentiable" is one word, not "differentiable")."""
    return list(_raw_words(text))


@lru_cache(maxsize=4096)
def _raw_words(text: str) -> tuple[str, ...]:
    """Remembered: one question is read several times (traps, scope, everyday words)."""
    expanded: list[str] = []
    negating = False
    for word in _NOT_WORD.split(clean(text).lower()):
        if negating and word:
            expanded.append("non" + word)
        elif word != "non":
            expanded.extend(ABBREVIATIONS.get(word, word).split())
        negating = word == "non" or (negating and not word)
    return tuple(w for w in expanded if w)


def words(text: str) -> list[str]:
    """Informative words of a text: cleaned, lowercased, expanded, stemmed, filler removed."""
    return [s for _, s in spelled_words(text)]


def spelled_words(text: str) -> list[tuple[str, str]]:
    """(word as written, its stem) for each informative word of a text."""
    found = ((w, stem(w)) for w in raw_words(text) if w not in FILLER)
    return [(w, s) for w, s in found if s not in FILLER]


@lru_cache(maxsize=1)
def english_words() -> frozenset[str]:
    """Words seen at least `ENGLISH_MIN` times in pyspellchecker's English frequency list.

    Reading pyspellchecker's list takes about 0.3 s, a third of a `tutor ask`; the words kept
    are saved once as plain text in the cache folder (named by the list's size and time, so a
    new pyspellchecker makes a new file) and read back in milliseconds. Without a writable
    cache folder the list is simply read each time.
    """
    cache = _english_cache()
    if cache is not None:
        with contextlib.suppress(OSError, UnicodeDecodeError):
            return frozenset(cache.read_text(encoding="utf-8").split("\n"))
    from spellchecker import SpellChecker

    counts = SpellChecker(language="en", distance=1).word_frequency.dictionary
    found = frozenset(w for w, n in counts.items() if n >= ENGLISH_MIN)
    if cache is not None:
        with contextlib.suppress(OSError):
            cache.parent.mkdir(parents=True, exist_ok=True)
            spare = cache.with_suffix(f".{os.getpid()}.tmp")
            spare.write_text("\n".join(sorted(found)), encoding="utf-8")
            os.replace(spare, cache)  # whole or not at all, for a process reading it now
    return found


def _english_cache() -> Path | None:
    """Where the kept words go, named by the list they come from; None if unknown."""
    spec = importlib.util.find_spec("spellchecker")  # finds the package without importing it
    folder = cache_folder()
    if spec is None or spec.origin is None or folder is None:
        return None
    source = Path(spec.origin).parent / "resources" / "en.json.gz"
    try:
        info = source.stat()
    except OSError:
        return None
    return folder / f"english-{ENGLISH_MIN}-{info.st_size}-{info.st_mtime_ns}.txt"


def cache_folder() -> Path | None:
    """Where what is slow to build and derived only from files is kept between runs.

    $TUTOR_CACHE, else study-tutor in $XDG_CACHE_HOME or ~/.cache; None without a home.
    """
    if os.environ.get("TUTOR_CACHE"):
        return Path(os.environ["TUTOR_CACHE"])
    folder = os.environ.get("XDG_CACHE_HOME")
    try:
        return (Path(folder) if folder else Path.home() / ".cache") / "study-tutor"
    except RuntimeError:  # no home folder to be found
        return None


def is_english(word: str) -> bool:
    """Whether a word is an English word rather than a typo or a product name."""
    return word in english_words()


def pairs(tokens: list[str]) -> list[str]:
    """Adjacent word pairs ("learning_rate"); a pair says more than its two words apart."""
    return [f"{a}_{b}" for a, b in pairwise(tokens)]
