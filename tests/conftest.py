"""Shared fixtures: a small valid content folder, a fresh SQLite file, and a fixed moment."""

from __future__ import annotations

import datetime as dt
import random
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from slack_sdk import WebClient

from bot.catalog import Catalog, load_catalog
from bot.store import Store
from bot.tutor import Tutor
from tests.slack_stub import SIGNING_SECRET, Server, SlackRequests, SlackStub, start

MINI_KNOWLEDGE = """\
entries:
  - id: automl
    section: "3.2"
    topic: Training methods
    means: AutoML on Vertex AI
    requirements:
      - train a model without writing any code
      - no-code training for labelled images
      - nobody on the team can write ML code
      - quickest good model from a table with no ML expertise
      - minimal ML expertise and minimal effort
    aliases: [AutoML, Vertex AI AutoML]
    why: It trains and tunes a model from labelled data with no code.
    watch_out:
      - id: vertex-custom-training
        note: Custom training runs your own code; AutoML needs none.
    sources: [https://cloud.google.com/vertex-ai/docs/beginner/beginners-guide]
    checked: 2026-11-30
  - id: vertex-custom-training
    section: "3.2"
    topic: Training methods
    means: Vertex AI custom training
    requirements:
      - run my own TensorFlow or PyTorch training code
      - bring our own training script and container
      - full control over the training loop
      - flexible training with my own code
      - we wrote a custom model in PyTorch and need managed training
    aliases: [custom training, serverless training, CustomJob]
    why: It runs your own code on managed machines.
    watch_out:
      - id: automl
        note: AutoML writes no code for you to control.
    status: renamed
    status_note: Newer pages call it serverless training.
    sources: [https://cloud.google.com/vertex-ai/docs/training/overview]
    checked: 2026-11-30
  - id: oom-batch-size
    section: "3.2"
    topic: Troubleshooting
    means: Reduce the batch size
    requirements:
      - GPU out of memory during training
      - training crashes with OOM on the first step
      - ResourceExhaustedError when allocating a tensor
      - memory errors on the accelerator when the batch is big
      - model does not fit in GPU memory
    aliases: [OOM, out of memory]
    why: Activations grow with the batch, so a smaller batch fits in memory.
    watch_out: []
    sources: [https://www.tensorflow.org/guide/gpu]
    checked: 2026-11-30
"""

MINI_QUIZ = """\
questions:
  - id: q-no-code
    section: "3.2"
    topic: Training methods
    difficulty: easy
    question: A team with no ML coders needs an image classifier. What should they use?
    choices:
      A: Vertex AI custom training
      B: AutoML on Vertex AI
      C: Reduce the batch size
    answer: B
    explanations:
      A: Needs code the team cannot write.
      B: Trains from labelled data with no code.
      C: A fix for memory errors, not a way to train.
    entries: [automl, vertex-custom-training]
    source: https://cloud.google.com/vertex-ai/docs/beginner/beginners-guide
  - id: q-own-code
    section: "3.2"
    topic: Training methods
    difficulty: medium
    question: Researchers have a PyTorch script with a custom loss. Where should it run?
    choices:
      A: Vertex AI custom training
      B: AutoML on Vertex AI
      C: BigQuery ML
      D: Reduce the batch size
    answer: A
    explanations:
      A: Runs their own code on managed machines.
      B: AutoML cannot run their script.
      C: BigQuery ML trains with SQL, not their script.
      D: Not a place to run training.
    entries: [vertex-custom-training]
    source: https://cloud.google.com/vertex-ai/docs/training/overview
  - id: q-oom
    section: "3.2"
    topic: Troubleshooting
    difficulty: easy
    question: Training stops with GPU out-of-memory on step one. What first?
    choices:
      A: Raise the learning rate
      B: Add dropout
      C: Reduce the batch size
    answer: C
    explanations:
      A: Learning rate does not change memory use.
      B: Dropout fights overfitting, not memory errors.
      C: A smaller batch needs less accelerator memory.
    entries: [oom-batch-size]
    source: https://www.tensorflow.org/guide/gpu
"""


def write_content(root: Path, knowledge: str = MINI_KNOWLEDGE, quiz: str = MINI_QUIZ) -> Path:
    """Write a content folder (knowledge/ and quizzes/) under `root` and return `root`."""
    (root / "knowledge").mkdir(parents=True, exist_ok=True)
    (root / "quizzes").mkdir(parents=True, exist_ok=True)
    (root / "knowledge" / "mini.yaml").write_text(textwrap.dedent(knowledge), encoding="utf-8")
    (root / "quizzes" / "mini.yaml").write_text(textwrap.dedent(quiz), encoding="utf-8")
    return root


@pytest.fixture
def content_root(tmp_path: Path) -> Path:
    """A small, valid content folder in tmp_path."""
    return write_content(tmp_path / "content")


@pytest.fixture
def catalog(content_root: Path) -> Catalog:
    return load_catalog(content_root)


@pytest.fixture
def store(tmp_path: Path) -> Store:
    """A fresh SQLite file."""
    return Store(tmp_path / "tutor.db")


@pytest.fixture
def now() -> dt.datetime:
    """A fixed moment: Tuesday 1 December 2026, 08:00 UTC."""
    return dt.datetime(2026, 12, 1, 8, 0, tzinfo=dt.UTC)


@pytest.fixture
def tutor(catalog: Catalog, store: Store) -> Tutor:
    return Tutor(catalog, store, rng=random.Random(7))


SHIPPED_ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def stub():
    """A recording stand-in for Slack's Web API on a loopback port."""
    stub = SlackStub().start()
    yield stub
    stub.stop()


@pytest.fixture
def client(stub):
    """A real slack_sdk WebClient pointed at the stand-in."""
    return WebClient(token="xoxb-test", base_url=stub.url)


# One `tutor serve` per end-to-end module: a module asks for `server` and `slack`, names the
# module's stand-in `stub` (see `module_stub`), and overrides `server_options` when it needs
# more workers, settings or its own questions.


@pytest.fixture(scope="module")
def module_stub():
    """The recording stand-in for Slack's Web API that a module's `tutor serve` talks to."""
    stub = SlackStub().start()
    yield stub
    stub.stop()


@pytest.fixture(scope="module")
def server_options() -> dict:
    """How the module's `tutor serve` starts: `workers`, `env`, `quiz` (a question file's text)."""
    return {}


@pytest.fixture(scope="module")
def server(tmp_path_factory, module_stub, server_options) -> Iterator[Server]:
    """The module's `tutor serve`, up once every worker has checked its token."""
    options = {"workers": 1, **server_options}
    tmp = tmp_path_factory.mktemp("serve")
    quiz = options.pop("quiz", MINI_QUIZ)
    server = start(
        tmp,
        module_stub.url,
        content=write_content(tmp / "content", MINI_KNOWLEDGE, quiz),
        **options,
    )
    module_stub.wait_for("auth.test", options["workers"])
    yield server
    server.stop()


@pytest.fixture
def slack(server, module_stub) -> SlackRequests:
    """Signed requests to the module's server; the stand-in forgets earlier calls and scripts."""
    module_stub.settle()
    module_stub.reset()
    return SlackRequests(server.url, SIGNING_SECRET, response_url=module_stub.response_url)
