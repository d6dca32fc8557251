"""Practice-question mode: reading pasted exam-style questions and picking the choice that fits."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import pytest

from bot import practice, replies
from bot.conversation import Command, Place, Practiced, Verb, handle, parse
from bot.knowledge import load_knowledge
from bot.matching import Matcher
from bot.practice import (
    CALIBRATION,
    CLOSE_LEAD,
    MIN_FIT,
    NAMED_MIN,
    PICK_MIN,
    Choice,
    Practice,
    solve,
    split_choices,
)
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
# Skew and drift both watch live inputs; only skew compares them with the training table. The
# key leads the drift choice by a little more than half its fit.
SKEW_NOT_DRIFT = (
    "A deployed fraud model's live request features no longer match the training data "
    "distribution. The training table is still in BigQuery. Which monitoring should you enable?\n"
    "A. Training-serving skew detection\nB. Prediction drift detection\n"
    "C. Vertex Explainable AI\nD. Cloud Logging of requests"
)
REGIONS = (
    "Reviewers of an image model on Vertex AI want attributions that highlight whole regions of "
    "the picture. Which method?\nA. Sampled Shapley\nB. Integrated gradients\nC. XRAI\n"
    "D. Example-based explanations"
)
# Exactly two choices turn knobs, the other two are services: still a contest of direction.
TWO_KNOBS_OVERFIT = (
    "A deep network scores 99% on its training data but 70% on validation data. "
    "What should the team do first?\n"
    "A. Train the network for more epochs\n"
    "B. Use a smaller network and stop training early\n"
    "C. Export the model to TensorFlow Lite\n"
    "D. Log the runs to Vertex AI Experiments"
)
TWO_KNOBS_UNDERFIT = (
    "Both training and validation accuracy stay at 60% and stop improving. The model is a "
    "heavily regularized two-layer network. What should you do?\n"
    "A. Use less regularization and a bigger network\n"
    "B. Use more regularization and a smaller network\n"
    "C. Move the data to Cloud Storage\n"
    "D. Serve the model from a Vertex AI endpoint"
)
# The distractors turn the knobs the wrong way and share the right answer's words.
PEAKED = (
    "Validation accuracy peaks at epoch 4 and then falls while training accuracy keeps rising. "
    "What should you do?\n"
    "A. Train longer with a larger learning rate\n"
    "B. End training at the epoch where validation accuracy peaks\n"
    "C. Add more layers\n"
    "D. Use a bigger batch"
)
HIGH_VARIANCE = (
    "A model has high variance. Which change most likely helps?\n"
    "A. Add layers\nB. Remove layers\nC. Remove dropout\nD. Use Cloud Storage"
)
OVERFIT_LESS_REGULARIZATION = (
    "A network reaches 99% training accuracy but only 70% on validation data. What should you "
    "change?\nA. Use a smaller model\nB. Use less regularization\nC. Train longer\n"
    "D. Use Cloud Composer"
)
# Two choices turn the epochs knob, but the need is named outright by the callback.
CALLBACK = (
    "Training should end on its own once validation loss stops improving, keeping the best "
    "weights. What should you add?\n"
    "A. A Keras EarlyStopping callback with restore_best_weights\n"
    "B. Fewer epochs\nC. More epochs\nD. Cloud Composer"
)
# One knob-turning choice among the others is not read for its direction.
ONE_KNOB = (
    "You want Keras to end training automatically when validation loss has not improved for "
    "five epochs and keep the best weights. What should you use?\n"
    "A. The EarlyStopping callback with patience=5 and restore_best_weights=True\n"
    "B. Train for fewer epochs\n"
    "C. Vertex AI Feature Store\n"
    "D. Cloud Composer"
)
# Near the pick threshold: 60% sure of the right answer; 54% sure of a wrong one.
SLOW_SERVING = (
    "An image model served on a Vertex AI endpoint answers too slowly on CPU machines and the "
    "team wants lower latency and cost without retraining from scratch. What should you do?\n"
    "A. Quantize and prune the model for serving\n"
    "B. Train a bigger model with more layers\n"
    "C. Move the images to Cloud Storage\n"
    "D. Use BigQuery ML"
)
SKEW = (
    "Which approach reduces training-serving skew most directly?\n"
    "A. Use the same transformation code for training and serving, for example TensorFlow "
    "Transform\nB. Use a bigger model\nC. Train longer\nD. Use more GPUs"
)
# Not one word of this stem is in the notes, though two choices are.
MONA_LISA = (
    "Who painted the Mona Lisa?\nA. Leonardo da Vinci\nB. Pablo Picasso\n"
    "C. Reduce the batch size\nD. Train for more epochs"
)
# Nothing in the notes serves these.
PLANETS = "Which planet is closest to the sun?\nA. Mercury\nB. Venus\nC. Earth\nD. Mars"
BAKERY = (
    "A bakery wants its sourdough to rise more. What should the baker change first?\n"
    "A. Use more starter\nB. Bake at a higher temperature\nC. Add salt\nD. Use less flour"
)
# The usual advice was tried already: turning that knob further is the distractor.
NAN_TRIED = (
    "Loss becomes NaN during the first epoch. The learning rate is already very small, and one "
    "input column holds Inf values produced by taking the log of zero. What should you fix?\n"
    "A. Clean the input data of NaN and Inf values\nB. Lower the learning rate further\n"
    "C. Raise the learning rate\nD. Use Cloud Composer"
)
OOM_TRIED = (
    "A GPU training job still runs out of memory even with a batch of one example. What should "
    "you try next?\nA. Move to an accelerator with more memory per device\n"
    "B. Use a smaller batch\nC. Use a larger batch\nD. Use Cloud Composer"
)
# "Cloud NAT" is no entry's word: that choice must not stand for the private endpoint entry
# just because "network" is the one word of it the notes know.
PRIVATE = (
    "Batch jobs in two VPC networks must reach a Vertex AI online prediction endpoint over "
    "internal addresses only; no traffic may cross the public internet. What should the team "
    "configure?\nA. Cloud NAT in each network\nB. A Private Service Connect endpoint for the "
    "model\nC. A public endpoint with API keys\nD. Cloud CDN in front of the endpoint"
)
# Two choices stand for the same entry; the key says more of it than the distractor made of its
# own words does.
REVOKE = (
    "A bank must be able to revoke the keys that protect its Vertex AI training outputs and "
    "models at any time. What should it configure?\n"
    "A. Google-managed default encryption\n"
    "B. Customer-managed encryption keys (CMEK) held in Cloud KMS\n"
    "C. VPC Service Controls around the project\n"
    "D. IAM conditions on the bucket"
)
LOG_SCALE = (
    "Your hyperparameter tuning job searches a learning rate between 0.00001 and 0.1. Good "
    "values may lie anywhere across those orders of magnitude. How should the parameter be "
    "defined?\n"
    "A. A DOUBLE parameter with UNIT_LINEAR_SCALE\n"
    "B. A DOUBLE parameter with UNIT_LOG_SCALE so each order of magnitude is sampled evenly\n"
    "C. A CATEGORICAL parameter with three values\n"
    "D. An INTEGER parameter from 1 to 100000"
)
# The stem asked on its own is answered with the fairness entry; the notes' plain word shares
# alone leave the key below the least fit a pick needs.
FAIR = (
    "A credit model's feature attributions put heavy weight on the applicant's postal code. A "
    "manager says this shows the model is unfair. What is the best response?\n"
    "A. Retrain without the postal code right away\n"
    "B. Turn on feature drift monitoring for the endpoint\n"
    "C. Attributions say what drives predictions, not whether outcomes differ across groups; "
    "evaluate fairness metrics per group before concluding\n"
    "D. Raise the number of integral steps for the attributions"
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
        (NAN_TRIED, "A", None),
        (OOM_TRIED, "A", None),
        (REGIONS, "C", "xrai"),
        (TWO_KNOBS_OVERFIT, "B", None),
        (TWO_KNOBS_UNDERFIT, "A", None),
        (PEAKED, "B", None),
        (HIGH_VARIANCE, "B", None),
        (OVERFIT_LESS_REGULARIZATION, "A", None),
        (CALLBACK, "A", None),
        (ONE_KNOB, "A", None),
        (SLOW_SERVING, "A", None),
        (PRIVATE, "B", "private-service-connect-endpoint"),
    ],
)
def test_the_fitting_choice_is_picked(shipped, text, letter, entry):
    """The choice that serves the stem's need is picked, citing the entry it stands for."""
    practice = solve(shipped, text)
    assert practice is not None and practice.pick is not None
    assert practice.pick.letter == letter
    if entry:
        assert practice.pick.entry is not None and practice.pick.entry.id == entry


@pytest.mark.parametrize(("text", "tried"), [(NAN_TRIED, "B"), (OOM_TRIED, "B")])
def test_a_knob_the_stem_says_was_turned_already_counts_against_its_choice(
    shipped, monkeypatch, text, tried
):
    """ "The learning rate is already very small", "even with a batch of one": the choice that
    turns that knob further fits less than the key, not only loses the pick."""
    read = solve(shipped, text)
    assert read is not None and read.closest[0].letter == "A"
    fits = {c.letter: c.fit for c in read.choices}
    monkeypatch.setattr(practice, "tried", lambda stem: frozenset())  # as if nothing were tried
    blind = solve(shipped, text)
    assert blind is not None
    blind_fits = {c.letter: c.fit for c in blind.choices}
    assert blind_fits[tried] > fits[tried] and blind_fits[tried] > blind_fits["A"]


def test_a_choice_stands_for_an_entry_as_much_as_the_notes_know_its_words(shipped, monkeypatch):
    """A choice's strength is the share of its known words the entry explains, times the share
    of its words the notes know (to KNOWN_POWER): "Cloud NAT in each network" shares only
    "network" with the private endpoint entry, so it no longer ties with the choice that names
    that entry."""
    read = solve(shipped, PRIVATE)
    assert read is not None
    nat, named = read.choices[0], read.choices[1]
    assert nat.entry == named.entry and named.entry is not None
    assert nat.strength < NAMED_MIN <= named.strength
    monkeypatch.setattr(practice, "KNOWN_POWER", 0)  # as if every word were known
    blind = solve(shipped, PRIVATE)
    assert blind is not None
    assert blind.choices[0].strength > nat.strength
    assert blind.choices[1].strength == pytest.approx(named.strength)
    assert read.pick is not None and read.pick.letter == "B"
    assert blind.lead < 0.05 < read.lead  # blind, the two are nearly tied
    assert blind.confidence < read.confidence


@pytest.mark.parametrize(("text", "key", "distractor"), [(REVOKE, "B", "A"), (LOG_SCALE, "B", "A")])
def test_of_two_choices_on_one_entry_the_one_that_says_more_of_it_is_picked(
    shipped, monkeypatch, text, key, distractor
):
    """A short distractor made of an entry's own words fits as well as the key that states the
    entry's advice; when the two stand for the same entry and the first leads by less than
    SAME_ENTRY_LEAD, the one that says more of the entry is picked, and the reply says why the
    other is not."""
    read = solve(shipped, text)
    assert read is not None and read.pick is not None
    first, runner = read.closest
    assert first.letter == distractor and runner.letter == key  # the distractor fits best
    assert first.entry == runner.entry and runner.says > first.says
    assert read.pick.letter == key
    assert f"Not {distractor}:" in "\n".join(replies.practice_lines(read))
    assert "same topic" in next(
        line for line in replies.practice_lines(read) if line.startswith(f"Not {distractor}:")
    )
    monkeypatch.setattr(practice, "SAME_ENTRY_LEAD", read.lead)  # leads by as much: it stays
    kept = solve(shipped, text)
    assert kept is not None and kept.pick is not None and kept.pick.letter == distractor
    assert kept.confidence == read.confidence


def test_a_choice_says_of_an_entry_only_the_words_its_notes_use(shipped):
    """`Matcher.explains` adds up the information of the words an entry's notes use, not all
    the known words: the encryption choice says much of the CMEK entry, nothing of early
    stopping, and less of CMEK once words about something else are added to it."""
    entries = {e.id: e for e in load_knowledge(Path(SHIPPED_ROOT / "knowledge")).entries}
    choice = "Customer-managed encryption keys (CMEK) in Cloud KMS"
    says = shipped.explains(choice, entries["cmek-encryption"])
    assert says > 0 and shipped.explains(choice, entries["early-stopping"]) == 0
    padded = choice + " plus early stopping on validation loss"
    assert shipped.explains(padded, entries["cmek-encryption"]) == pytest.approx(says, rel=0.2)
    assert sum(shipped.terms(padded).values()) > 1.5 * says


def test_only_the_best_entrys_choices_compete_on_how_much_they_say():
    """The rule settles between choices standing for the best one's entry; a choice about
    another entry, or about no entry, never takes the pick by saying more."""
    one, other = load_knowledge(Path(SHIPPED_ROOT / "knowledge")).entries[:2]
    choices = (
        Choice("A", "short", one, 1.0, 0.9, says=5.0),
        Choice("B", "says more", one, 0.8, 0.9, says=10.0),
        Choice("C", "says most", other, 0.7, 0.9, says=50.0),
    )
    assert Practice("stem", choices, None, 0, one).favourite.letter == "B"
    unknown = tuple(dataclasses.replace(c, entry=None) for c in choices)
    assert Practice("stem", unknown, None, 0, None).favourite.letter == "A"


def test_the_entry_the_stem_asked_alone_is_answered_with_leads_the_need(shipped, monkeypatch):
    """The stem is read the way any question is (look-alike cues, negation, traps); the entry
    that answers it serves the need ANSWER_LEAD times the best share, so the choice standing for
    it fits enough to be picked."""
    stem = FAIR.split("\nA. ")[0]
    answer = shipped.lookup(stem).best
    assert answer is not None and answer.entry.id == "fairness-bias-evaluation"
    read = solve(shipped, FAIR)
    assert read is not None and read.need == answer.entry
    assert read.pick is not None and read.pick.letter == "C"
    assert read.pick.fit >= MIN_FIT
    monkeypatch.setattr(practice, "ANSWER_LEAD", 0.0)  # word shares alone
    plain = solve(shipped, FAIR)
    assert plain is not None and plain.pick is None
    assert plain.closest[0].letter == "C" and plain.closest[0].fit < MIN_FIT


def test_a_close_call_is_unsure_with_the_two_closest(shipped, monkeypatch):
    """Custom ops TPUs don't support: GPUs fit best, CPUs next, the negated TPU choice not at
    all. Below PICK_MIN sure, the tutor says it is not sure and names the two closest."""
    read = solve(shipped, CLOSE_CALL)
    assert read is not None and read.pick is not None and read.pick.letter == "B"
    assert [c.letter for c in read.closest] == ["B", "C"]
    monkeypatch.setattr(practice, "PICK_MIN", read.confidence + 1)
    unsure = solve(shipped, CLOSE_CALL)
    assert unsure is not None and unsure.pick is None
    lines = replies.practice_lines(unsure)
    assert lines[0] == "I'm not sure about this one. It's between B and C:"
    assert lines[1].startswith('  B. "GPUs such as A100"')


def test_each_other_choice_gets_one_line_on_why_it_is_not_the_one():
    """What a choice is for when the notes know it: the picked entry's topic, a usual mix-up
    told apart in the pick's own watch-out note, or another entry's need; and when they don't
    know it, that they give no reason to pick it."""
    entries = {e.id: e for e in load_knowledge(SHIPPED_ROOT / "knowledge").entries}
    automl, custom = entries["automl"], entries["vertex-custom-training"]
    unrelated = entries["check-numerics"]
    apart = next(w.note for w in automl.watch_out if w.id == custom.id)
    assert unrelated.id not in {w.id for w in automl.watch_out}
    assert automl.id not in {w.id for w in unrelated.watch_out}
    pick = practice.Choice("A", "Use AutoML", automl, 0.9, strength=1.0)
    same = practice.Choice("B", "Tune AutoML by hand", automl, 0.2, strength=1.0)
    other = practice.Choice("C", "Write a training script", custom, 0.1, strength=1.0)
    vague = practice.Choice("D", "Ask a colleague", custom, 0.05, strength=0.0)
    far = practice.Choice("E", "Find the op that makes NaN", unrelated, 0.05, strength=1.0)
    read = practice.Practice("stem", (pick, same, other, vague, far), pick, 90, automl)
    lines = [line for line in replies.practice_lines(read) if line.startswith("Not ")]
    assert lines == [
        f'Not B: "Tune AutoML by hand" - same topic ({automl.name}), but not what it advises here.',
        f'Not C: "Write a training script" - that is {custom.name}. {apart}',
        'Not D: "Ask a colleague" - my notes give no reason to pick it for this need.',
        f'Not E: "Find the op that makes NaN" - that is {unrelated.name}, which fits a different '
        "need.",
    ]


def test_the_other_side_of_a_mix_up_is_told_apart_in_its_own_note():
    """When only the choice's entry lists the pick as a usual mix-up, its note is the reason."""
    entries = {e.id: e for e in load_knowledge(SHIPPED_ROOT / "knowledge").entries}
    custom = entries["vertex-custom-training"]
    automl = entries["automl"]
    one_sided = dataclasses.replace(
        automl, watch_out=tuple(w for w in automl.watch_out if w.id != custom.id)
    )
    note = next(w.note for w in custom.watch_out if w.id == automl.id)
    pick = practice.Choice("A", "Use AutoML", one_sided, 0.9, strength=1.0)
    other = practice.Choice("B", "Write a training script", custom, 0.2, strength=1.0)
    read = practice.Practice("stem", (pick, other), pick, 90, one_sided)
    said = f'Not B: "Write a training script" - that is {custom.name}. {note}'
    assert said in replies.practice_lines(read)


def test_an_unsure_answer_says_what_tells_its_two_closest_apart():
    """Not sure between two usual mix-ups: the watch-out note that tells them apart comes
    before the advice to check the constraints; between two unrelated entries, only the advice."""
    entries = {e.id: e for e in load_knowledge(SHIPPED_ROOT / "knowledge").entries}
    automl, custom = entries["automl"], entries["vertex-custom-training"]
    apart = next(w.note for w in automl.watch_out if w.id == custom.id)
    first = practice.Choice("A", "Use AutoML", automl, 0.3, strength=1.0)
    second = practice.Choice("B", "Write a training script", custom, 0.28, strength=1.0)
    unsure = practice.Practice("stem", (first, second), None, 40, automl)
    lines = replies.practice_lines(unsure)
    assert lines[-2:] == [
        f"What tells them apart: {apart}",
        "Check which one meets every constraint in the question.",
    ]
    far = practice.Choice("B", "Find the op", entries["check-numerics"], 0.28, strength=1.0)
    plain = replies.practice_lines(practice.Practice("stem", (first, far), None, 40, automl))
    assert not any(line.startswith("What tells them apart") for line in plain)


@pytest.mark.parametrize("text", [NO_CODE, IMBALANCED, OVERFIT, SLOW_SERVING, SKEW, CLOSE_CALL])
def test_the_confidence_is_the_calibrated_chance_of_the_best_fitting_choice(shipped, text):
    """The confidence is the logistic function of CALIBRATION over the best choice's fit and its
    lead over the runner-up as a share of that fit, in whole percent, at most the matcher's
    close_cap when that lead is under CLOSE_LEAD; a pick shows it."""
    practice = solve(shipped, text)
    assert practice is not None
    best, runner = sorted((c.fit for c in practice.choices), reverse=True)[:2]
    lead = (best - runner) / best
    assert practice.lead == pytest.approx(lead)
    bias, w_fit, w_lead = CALIBRATION
    chance = round(100 / (1 + math.exp(-(bias + w_fit * best + w_lead * lead))))
    cap = shipped.knobs.close_cap
    assert practice.confidence == (min(chance, cap) if lead < CLOSE_LEAD else chance)
    assert 0 <= practice.confidence <= 100
    if practice.pick is not None:
        assert f"({practice.confidence}% sure)" in replies.practice_lines(practice)[0]


@pytest.mark.parametrize("text", [IMBALANCED, OVERFIT_LESS_REGULARIZATION, REGIONS])
def test_a_pick_with_a_close_runner_up_is_never_shown_as_sure(shipped, text, monkeypatch):
    """A runner-up within CLOSE_LEAD of the pick's fit keeps it at the matcher's close_cap at
    most, however well the pick fits: such picks were keyed 91% of the time, not the 98% or more
    a learner reads into "80% sure". With the rule off, the same pick is shown surer."""
    cap = shipped.knobs.close_cap
    capped = solve(shipped, text)
    assert capped is not None and capped.pick is not None
    assert capped.lead < CLOSE_LEAD and capped.confidence == cap < 80
    assert f"({cap}% sure)" in replies.practice_lines(capped)[0]
    monkeypatch.setattr(practice, "CLOSE_LEAD", capped.lead)
    free = solve(shipped, text)
    assert free is not None and free.pick == capped.pick and free.confidence > cap


@pytest.mark.parametrize(("text", "key"), [(OVERFIT, "C"), (SKEW_NOT_DRIFT, "A")])
def test_a_pick_that_leads_clearly_keeps_its_confidence(shipped, text, key):
    """At a lead of CLOSE_LEAD or more (half the pick's fit; the skew question leads by a little
    more than that) the calibrated confidence is shown as it is."""
    clear = solve(shipped, text)
    assert clear is not None and clear.pick is not None and clear.pick.letter == key
    assert clear.lead >= CLOSE_LEAD and clear.confidence > shipped.knobs.close_cap


def test_the_tutor_picks_only_when_at_least_pick_min_sure(shipped, monkeypatch):
    """The best-fitting choice is a pick at PICK_MIN% sure or more; a point less and the tutor
    says it is unsure and offers that choice among the two closest."""
    sure = solve(shipped, SLOW_SERVING)
    assert sure is not None and sure.pick is not None and sure.pick.letter == "A"
    assert sure.confidence >= PICK_MIN
    monkeypatch.setattr(practice, "PICK_MIN", sure.confidence)
    assert solve(shipped, SLOW_SERVING).pick == sure.pick
    monkeypatch.setattr(practice, "PICK_MIN", sure.confidence + 1)
    unsure = solve(shipped, SLOW_SERVING)
    assert unsure is not None and unsure.pick is None
    assert "A" in {c.letter for c in unsure.closest}
    assert replies.practice_lines(unsure)[0].startswith("I'm not sure")


@pytest.mark.parametrize("text", [PLANETS, BAKERY])
def test_a_question_the_notes_do_not_cover_gets_no_pick(shipped, text):
    """However far one choice leads, a choice that serves almost none of the need is no pick."""
    practice = solve(shipped, text)
    assert practice is not None and practice.pick is None
    assert practice.closest[0].fit < MIN_FIT
    assert replies.practice_lines(practice)[0].startswith("I'm not sure")


def test_a_stem_the_notes_know_nothing_of_is_answered_unsure(shipped):
    """A pasted question whose stem matches no entry, with choices that turn knobs, is read
    without error: nothing serves its need, so the tutor is unsure."""
    practice = solve(shipped, MONA_LISA)
    assert practice is not None and practice.pick is None and practice.need is None
    assert all(c.fit == 0 for c in practice.choices)
    assert replies.practice_lines(practice)[0].startswith("I'm not sure")


def test_the_conversation_answers_a_question_outside_the_notes(tutor, now):
    """In the chat, the same question gets a Practiced answer, not an error."""
    result = handle(tutor, parse(MONA_LISA), Place("T1", "U1", "C1"), now)
    assert isinstance(result, Practiced) and result.practice.pick is None


def test_when_no_choice_fits_at_all_nothing_leads(shipped):
    """With every fit at zero there is no lead, and the tutor is far from sure; each choice
    keeps its letter and text, so the reply can still name them."""
    practice = solve(shipped, PLANETS)
    assert practice is not None
    assert [(c.letter, c.text, c.entry) for c in practice.choices] == [
        ("A", "Mercury", None),
        ("B", "Venus", None),
        ("C", "Earth", None),
        ("D", "Mars", None),
    ]
    assert all(c.fit == 0 for c in practice.choices)
    assert practice.lead == 0
    assert practice.confidence < PICK_MIN / 2


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


def test_a_question_about_another_platform_is_outside_and_gets_no_pick(shipped):
    """A pasted AWS question is not answered with the Google Cloud choice among its options."""
    text = (
        "Which AWS service lets analysts train a model without writing code?\n"
        "A. SageMaker Canvas\nB. Vertex AI AutoML\nC. AWS Lambda\nD. Amazon EC2"
    )
    practice = solve(shipped, text)
    assert practice is not None and practice.pick is None and practice.outside == "AWS"
    (line,) = replies.practice_lines(practice)
    assert "AWS" in line and "outside what I cover" in line


def test_a_tool_question_with_google_cloud_among_its_choices_is_a_move_to_google_cloud(shipped):
    """A stem about a third-party tool is outside on its own, but with Google Cloud among the
    choices it asks what to move to: the tutor picks."""
    stem = (
        "Data scientists log every run to a self-hosted MLflow server and want to stop running "
        "it while still comparing parameters and metrics across runs. What should they do?"
    )
    choices = (
        "A. Write metrics to a CSV file in a bucket\nB. Use Vertex AI Experiments\n"
        "C. Add more disks to the MLflow server\nD. Email results to the team"
    )
    alone = solve(shipped, stem + "\nA. Keep the server\nB. Add disks\nC. Use a CSV\nD. Email")
    assert alone is not None and alone.outside == "MLflow" and alone.pick is None
    moving = solve(shipped, f"{stem}\n{choices}")
    assert moving is not None and moving.outside is None
    assert moving.pick is not None and moving.pick.letter == "B"
