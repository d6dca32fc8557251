"""Practice-question mode: reading pasted exam-style questions and picking the choice that fits."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot import replies
from bot.conversation import Command, Place, Practiced, Verb, handle, parse
from bot.knowledge import load_knowledge
from bot.matching import Matcher
from bot.practice import solve, split_choices
from tests.conftest import SHIPPED_ROOT

# Written for these tests from the exam guide's topics, not taken from any evaluation set.
NO_CODE = (
    "A retail team with no ML experience wants an image classifier trained on 5,000 labelled "
    "product photos, writing as little code as possible. What should they use?\n"
    "A. Vertex AI AutoML image classification\n"
    "B. A custom training job in a custom container\n"
    "C. A Dataproc cluster running Spark MLlib\n"
    "D. A TPU pod slice"
)
IMBALANCED = (
    "A fraud classifier is trained on heavily imbalanced data: 0.5% of transactions are fraud. "
    "Which metric should the team use to compare models?\n1) Accuracy\n2) Area under the precision-recall curve\n"
    "3) Mean absolute error\n4) BLEU"
)
INLINE = (
    "Validation loss starts rising after epoch 5 while training loss keeps falling. You want "
    "training to stop at the best epoch automatically. What should you do? "
    "a) Add an EarlyStopping callback that monitors validation loss b) Increase the learning "
    "rate c) Train for more epochs d) Remove the validation set"
)
# Which way each choice turns a knob decides these: the distractors are the opposite advice.
OVERFIT = (
    "Training accuracy reaches 99% while validation accuracy stays at 72%, and no more data "
    "can be labelled. What should the team change first?\n"
    "A. Make the network deeper by adding more layers\n"
    "B. Train for more epochs\n"
    "C. Add dropout and L2 weight decay, or use a smaller model\n"
    "D. Turn off the validation split"
)
UNDERFIT = (
    "A model's training and validation losses are both high, almost equal, and flat after a few "
    "epochs. Which change is most likely to help?\n"
    "A. Stop training earlier\n"
    "B. Increase the dropout rate\n"
    "C. Give the model more capacity, for example more layers or units\n"
    "D. Raise the L2 regularization strength"
)
# Bare names as choices: each stands for the entry it names, not for a look-alike it mentions.
NAMES_ONLY = (
    "A Keras job moves from a GPU VM to a Cloud TPU VM. Which tf.distribute strategy wraps "
    "the model?\nA. MirroredStrategy\nB. MultiWorkerMirroredStrategy\nC. TPUStrategy\n"
    "D. CentralStorageStrategy"
)
REGIONS = (
    "Reviewers of an image model on Vertex AI want attributions that highlight whole regions of "
    "the picture. Which method?\nA. Sampled Shapley\nB. Integrated gradients\nC. XRAI\n"
    "D. Example-based explanations"
)
CLOSE_CALL = (
    "Your training loop relies on custom PyTorch operations that are not supported on TPUs. "
    "The model is large. Which hardware should the training job use? (A) TPU v5e "
    "(B) GPUs such as A100 (C) CPUs only (D) Edge TPU"
)


@pytest.fixture(scope="module")
def shipped() -> Matcher:
    """A matcher over the shipped knowledge base."""
    return Matcher(load_knowledge(Path(SHIPPED_ROOT / "knowledge")))


@pytest.mark.parametrize(
    ("text", "letters"),
    [
        (NO_CODE, ["A", "B", "C", "D"]),
        (IMBALANCED, ["A", "B", "C", "D"]),
        (INLINE, ["A", "B", "C", "D"]),
        (CLOSE_CALL, ["A", "B", "C", "D"]),
        ("Which is cheaper for a quick test?\nA. Spot VMs\nB. On-demand VMs", ["A", "B"]),
    ],
)
def test_choices_are_found_on_lines_and_inline(text, letters):
    """Lettered, numbered, parenthesised and run-together choices are all read, stem first."""
    found = split_choices(text)
    assert found is not None
    stem, choices = found
    assert [letter for letter, _ in choices] == letters
    assert stem.endswith("?") and all(body for _, body in choices)


@pytest.mark.parametrize(
    "text",
    [
        "which service for no-code training?",
        "is a. the same as b.? what about plan B",
        "should I use plan A) or plan B) for serving",
        "A. AutoML\nB. custom training",  # choices without a question
        "b",
    ],
)
def test_ordinary_questions_have_no_choices(text):
    """A question, a stray letter or choices with no stem is not a practice question."""
    assert split_choices(text) is None


@pytest.mark.parametrize(
    ("text", "letter", "entry"),
    [
        (NO_CODE, "A", "automl"),
        (IMBALANCED, "B", "pr-auc-vs-roc-auc"),
        (INLINE, "A", None),
        (OVERFIT, "C", None),
        (UNDERFIT, "C", None),
        (NAMES_ONLY, "C", "tpu-strategy"),
        (REGIONS, "C", "xrai"),
    ],
)
def test_the_fitting_choice_is_picked(shipped, text, letter, entry):
    """The choice that serves the stem's need is picked, citing the entry it stands for."""
    practice = solve(shipped, text)
    assert practice is not None and practice.pick is not None
    assert practice.pick.letter == letter
    if entry:
        assert practice.pick.entry is not None and practice.pick.entry.id == entry


def test_a_close_call_is_unsure_with_the_two_closest(shipped):
    """When two choices fit almost equally the tutor says so and names both; the negated TPU
    choice is not one of them."""
    practice = solve(shipped, CLOSE_CALL)
    assert practice is not None and practice.pick is None
    assert {c.letter for c in practice.closest} == {"B", "C"}
    assert replies.practice_lines(practice)[0].startswith("I'm not sure")


def test_the_answer_reads_like_a_tutor(shipped):
    """The pick and why, a line for each other choice, the exam section and a source."""
    practice = solve(shipped, NO_CODE)
    assert practice is not None
    lines = replies.practice_lines(practice)
    assert lines[0].startswith("I'd pick A:")
    assert lines[1].startswith("Why: ")
    assert [line[:5] for line in lines if line.startswith("Not ")] == ["Not B", "Not C", "Not D"]
    assert any(line.startswith("Source: https://") for line in lines)


@pytest.mark.parametrize(
    "text",
    [NO_CODE, f"ask {NO_CODE}", f"<@U0TUTOR> {NO_CODE}", " ".join(NO_CODE.split())],
)
def test_a_pasted_question_is_a_practice_command(text):
    """Pasted in the chat, after "ask", in a mention or with its lines run together."""
    command = parse(text)
    assert command.verb is Verb.PRACTICE
    assert command.arg.startswith("A retail team")


def test_the_conversation_answers_a_practice_question(tutor, now):
    """handle() returns a Practiced result that is fit to show in public."""
    place = Place("T1", "U1", "C1")
    result = handle(tutor, parse(NO_CODE), place, now)
    assert isinstance(result, Practiced) and result.shared
    assert len(result.practice.choices) == 4


def test_text_that_stops_being_a_practice_question_is_asked(tutor, now):
    """A practice command whose text has no choices is answered as a plain question."""
    result = handle(tutor, Command(Verb.PRACTICE, "no-code training"), Place("T1", "U1", "C1"), now)
    assert not isinstance(result, Practiced)
