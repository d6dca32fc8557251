"""The matcher: normalisation, typos, abbreviations, traps, abstention, and the chapter's needs."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from bot import replies
from bot.knowledge import KnowledgeBase, load_knowledge
from bot.matching import Knobs, Lookup, Matcher, clean, words
from tests.conftest import SHIPPED_ROOT


@pytest.fixture
def matcher(catalog) -> Matcher:
    """A matcher over the three-entry knowledge base of conftest."""
    return Matcher(catalog.knowledge)


@pytest.fixture(scope="module")
def shipped() -> Matcher:
    """A matcher over the shipped knowledge base."""
    return Matcher(load_knowledge(Path(SHIPPED_ROOT / "knowledge")))


def _answer(matcher: Matcher, question: str) -> str | None:
    lookup = matcher.lookup(question)
    return lookup.best.entry.id if lookup.best else None


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("<@U0TUTOR> what about *AutoML*?", "  what about *AutoML*?"),
        ("see <https://cloud.google.com|the docs>", "see the docs"),
        ("in <#C0123|ml-study> today", "in ml-study today"),
        ("batch &lt; 32 &amp; OOM", "batch < 32 & OOM"),
        ("stuck :thinking_face: again", "stuck   again"),
    ],
)
def test_clean_removes_slack_markup(raw, expected):
    """Mentions, links, channel refs, HTML entities and emoji codes become plain text."""
    assert clean(raw) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Training <@U0TUTOR> :tada: models 🚀!", ["train", "model"]),
        ("GPUs running OOM", ["gpu", "run", "out", "memory"]),
        ("hi team, thanks!", []),
        ("tune tuned tuning tunes, code coding", ["tun", "tun", "tun", "tun", "cod", "cod"]),
        ("non-differentiable models", ["nondifferentiabl", "model"]),
        ("a non ML team", ["nonml"]),
        # -ing and -ed undo a doubled consonant only where they doubled it
        ("preprocess preprocessing preprocesses", ["preprocess"] * 3),
        ("install installing installed, stopped stopping", ["install"] * 3 + ["stop"] * 2),
        ("labelled labelling label, rolling rolled roll", ["label"] * 3 + ["roll"] * 3),
        ("debugging debugged debug", ["debug"] * 3),  # not in the word list, still undone
        ("quizzing quizzes quiz, processes", ["quiz"] * 3 + ["process"]),
    ],
)
def test_words_are_informative_stems(text, expected):
    """words() stems, expands abbreviations and drops filler and emoji; "non-" stays with the
    word it negates, so "non-differentiable" never reads as "differentiable"."""
    assert words(text) == expected


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("trian a modle without writting any code", "automl"),
        ("run my own pytorch trainng script", "vertex-custom-training"),
        ("gpu out of memroy during trainig", "oom-batch-size"),
    ],
)
def test_typos_are_tolerated(matcher, question, expected):
    """Misspelt words are corrected against the knowledge base's vocabulary."""
    assert _answer(matcher, question) == expected


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("OOM on my gpu", "oom-batch-size"),
        ("gpu ooms at step one", "oom-batch-size"),
    ],
)
def test_abbreviations_are_expanded(matcher, question, expected):
    """Shorthand such as `oom` reaches the entry written with the full words."""
    assert _answer(matcher, question) == expected


@pytest.mark.parametrize(
    "question", ["train " * 2000, "🚀🔥😅" * 50, "", "   ", ":tada: :tada:", "<@U0TUTOR>"]
)
def test_degenerate_questions_give_no_answer(matcher, question):
    """Huge, pure-emoji or empty questions return a Lookup with no answer instead of raising."""
    lookup = matcher.lookup(question)
    assert lookup.best is None


def test_trap_answers_the_need_and_names_the_service(matcher):
    """A question doubting a named service for a need its mix-up serves gets the mix-up."""
    lookup = matcher.lookup("should we use custom training even though nobody can write code?")
    assert lookup.best is not None
    assert lookup.best.entry.id == "automl"
    assert lookup.named is not None and lookup.named.id == "vertex-custom-training"


def test_trap_named_by_what_the_question_proposes(matcher):
    """A proposal that spells no alias still names the service it describes ("own training loop")."""
    lookup = matcher.lookup(
        "should we write our own training loop though nobody on the team can code?"
    )
    assert lookup.best is not None and lookup.best.entry.id == "automl"
    assert lookup.named is not None and lookup.named.id == "vertex-custom-training"
    assert all(m.confidence <= lookup.best.confidence for m in lookup.alternatives)
    assert lookup.ranked == (lookup.best, *lookup.alternatives)


def test_symptom_after_the_proposal_is_not_a_named_service(matcher):
    """In "will X fix Y" the alias in Y is the problem, so Y's entry answers and nothing is named."""
    lookup = matcher.lookup("will writing our own training code fix the out of memory error?")
    assert lookup.best is not None and lookup.best.entry.id == "oom-batch-size"
    assert lookup.named is None


def test_another_vendors_platform_is_out_of_scope(matcher):
    """A question about another cloud's ML platform gets no answer, only the closest topics."""
    lookup = matcher.lookup("how do I run my own PyTorch training script as a SageMaker job?")
    assert lookup.best is None
    assert lookup.outside == "Amazon SageMaker"
    assert [m.entry.id for m in lookup.alternatives][:1] == ["vertex-custom-training"]


def test_moving_from_another_cloud_to_google_is_in_scope(matcher):
    """Naming Google Cloud beside the other vendor keeps the question in scope."""
    lookup = matcher.lookup(
        "moving from SageMaker to Vertex AI: where do we run our own training code?"
    )
    assert lookup.best is not None and lookup.best.entry.id == "vertex-custom-training"
    assert lookup.outside is None


def test_did_you_mean_leaves_out_entries_it_is_almost_sure_are_wrong(catalog, matcher):
    """Suggestions under `suggest_min` would be noise ("potty training" -> custom training)."""
    question = "how do I potty train my puppy?"
    unfiltered = Matcher(catalog.knowledge, Knobs(suggest_min=0)).lookup(question)
    assert unfiltered.best is None and unfiltered.alternatives
    lookup = matcher.lookup(question)
    assert lookup.best is None
    kept = [m for m in unfiltered.alternatives if m.confidence >= matcher.knobs.suggest_min]
    assert lookup.alternatives == tuple(kept) == lookup.ranked


@pytest.mark.parametrize(
    ("written", "read_as"),
    [
        ("bacth", ["batch"]),  # a typo becomes the known word
        ("customized", ["custom"]),  # another form of a known word joins it
        ("match", ["match"]),  # an English word stays itself, however close to "batch"
        ("brain surgery", ["brain", "surgery"]),  # not "train surgery"
    ],
)
def test_only_misspellings_are_corrected(matcher, written, read_as):
    """Typo correction leaves real English words alone unless they are forms of a known word."""
    assert matcher.tokens(written) == read_as


def test_plain_question_names_nothing(matcher):
    """When the named service is the answer, `named` stays empty."""
    lookup = matcher.lookup("how do I run my own training code with custom training?")
    assert lookup.best is not None and lookup.best.entry.id == "vertex-custom-training"
    assert lookup.named is None


def test_empty_knowledge_base_answers_nothing():
    """A matcher over no entries abstains rather than failing."""
    assert Matcher(KnowledgeBase(())).lookup("train a model").best is None


def test_threshold_is_a_knob(catalog):
    """A threshold above 100 makes every lookup abstain but keep its alternatives."""
    lookup = Matcher(catalog.knowledge, Knobs(threshold=101)).lookup("gpu out of memory")
    assert lookup.best is None
    assert lookup.alternatives and lookup.alternatives[0].entry.id == "oom-batch-size"


@pytest.mark.parametrize(
    "question",
    [
        "good morning team ☀️",
        "thanks!",
        "how do I potty train my puppy?",
        "who's up for lunch at 12:30?",
        "which GPU should I buy for gaming at 1440p?",
        "how do I convert a PDF to Word for free?",
    ],
)
def test_everyday_questions_abstain(shipped, question):
    """Chit-chat and everyday questions get no answer from the shipped knowledge."""
    assert shipped.lookup(question).best is None


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        (
            "Researchers wrote a PyTorch model with a custom loss and want Google to run their "
            "training code on managed machines. What should they use?",
            {"vertex-custom-training"},
        ),
        (
            "How can we automatically search for good learning rate and batch size values "
            "for our training code on Vertex AI?",
            {"hyperparameter-tuning"},
        ),
        (
            "We want to adapt a foundation model to our task but only have a few hundred "
            "labelled examples. What should we do?",
            {"supervised-fine-tuning", "peft-lora"},
        ),
        (
            "Training fails with a GPU out-of-memory error on the first step. What should "
            "we change first?",
            {"oom-batch-size"},
        ),
        (
            "Regulators require us to explain each loan decision the model makes. What "
            "approach fits?",
            {"interpretable-models", "explainable-ai"},
        ),
    ],
)
def test_chapter_quick_checks(shipped, question, expected):
    """The chapter's five quick-check needs reach the right means in the shipped knowledge."""
    assert _answer(shipped, question) in expected


@pytest.mark.parametrize(
    "question",
    [
        "which service for no-code training",
        "which service for no-code training?",
        "Which service for no-code training?",
        "what's the no-code option for training a model?",
    ],
)
def test_the_readme_question_is_answered_with_automl_however_it_is_punctuated(shipped, question):
    """The question the README opens with is the product's core pair (no code -> AutoML); a
    forecasting phrasing that said "which no-code option trains" once took it with a "?"."""
    assert _answer(shipped, question) == "automl"


@pytest.mark.parametrize(
    ("question", "area"),
    [
        ("firewall rule so ssh only works from the office", "Google Cloud networking"),
        ("raise max connections on our cloud sql instance", "Google Cloud databases"),
        # "network" alone is not "neural network"
        (
            "cloud sql proxy over a private ip times out, what is wrong in our network?",
            "Google Cloud databases",
        ),
        ("why is our billing higher this month", "Google Cloud billing"),
    ],
)
def test_a_google_cloud_area_outside_the_exam_is_declined_by_name(shipped, question, area):
    """A non-ML Google Cloud question with no ML word gets no answer, and says what it is about."""
    lookup = shipped.lookup(question)
    assert lookup.best is None and lookup.outside == area


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("export our cloud sql tables so we can train a model on them", None),
        # the ML word in another form: "recommendations", not "recommendation"
        (
            "ratings table in bigquery, we want recommendations for each user without leaving sql",
            "bqml-matrix-factorization",
        ),
    ],
)
def test_an_ml_word_keeps_a_question_in_scope_even_beside_an_area_word(shipped, question, expected):
    """'Export Cloud SQL data to train a model' is about training, so it is answered."""
    lookup = shipped.lookup(question)
    assert lookup.outside is None and lookup.best is not None
    assert expected in (None, lookup.best.entry.id)


@pytest.mark.parametrize(
    ("question", "about"),
    [
        ("prove that the softmax gradient is bounded", "ML theory beyond the exam"),
        ("give me a proof of convergence for SGD with momentum", "ML theory beyond the exam"),
        ("who invented backpropagation and when", "ML theory beyond the exam"),
        ("give me a short History of neural networks", "ML theory beyond the exam"),
        ("how much is the exam fee and can I retake it", "exam logistics"),
        ("snowflake cortex for our forecasting model", "Snowflake"),
        ("can OVHcloud AI Deploy scale an app down to zero GPUs when idle?", "OVHcloud"),
        ("fine-tune a model through the openai api with our support tickets", "OpenAI"),
        # third-party ML tools, asked about in the words of an entry
        ("in an axolotl config, is micro_batch_size per GPU?", "Axolotl"),
        ("mlflow autolog: how do I log the trained model as an artifact?", "MLflow"),
        ("our Colossal AI run needs a lower learning rate with 16 GPUs?", "Colossal-AI"),
        ("resume a training job from its last checkpoint on huawei cloud", "Huawei Cloud"),
        ("baseten training job: pick up again from the newest checkpoint?", "Baseten"),
        (
            "a prefect flow retries each failed training task three times; how to add a delay?",
            "Prefect",
        ),
        ("feast materialize keeps timing out for our online feature store", "Feast"),
        (
            "hugging face inference endpoints: how fast does a replica scale up under load?",
            "Hugging Face's inference hosting",
        ),
        (
            "mmdetection config: where do I lower the batch size when the GPU runs out of memory?",
            "OpenMMLab",
        ),
    ],
)
def test_theory_logistics_and_other_vendors_are_declined_by_name(shipped, question, about):
    """ML proofs and history, exam logistics, other vendors and third-party ML tools are outside
    what the tutor covers, however many ML words the question shares with an entry."""
    lookup = shipped.lookup(question)
    assert lookup.best is None and lookup.outside == about


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        (
            "we're building a proof of concept for image classification on Vertex AI: "
            "AutoML or custom training?",
            "automl",
        ),
        (
            "strong attribution on zip code for our loan model: does that prove the model is "
            "unfair?",
            "fairness-bias-evaluation",
        ),
    ],
)
def test_a_proof_of_concept_or_of_evidence_is_not_theory(shipped, question, expected):
    """Only proving something ("prove that …", "a proof of convergence") is ML theory; a proof
    of concept is a project, and "does that prove …" asks what evidence shows: the question is
    not declined as theory, and its entry comes first (answered or offered)."""
    lookup = shipped.lookup(question)
    assert lookup.outside is None
    assert lookup.ranked and lookup.ranked[0].entry.id == expected


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        (
            "is there a managed equivalent of mlflow for comparing training runs?",
            "vertex-experiments",
        ),
        ("optuna or vizier to search our learning rate and batch size?", "hyperparameter-tuning"),
        (
            "bentoml or cloud run to serve a model that scales to zero when idle?",
            "cloud-run-serving",
        ),
        (
            "we track runs in mlflow today; how do we compare them in vertex ai?",
            "vertex-experiments",
        ),
        (
            "weaviate on one VM is too small now; managed vector search with low latency?",
            "vector-search",
        ),
        ("serve a Hugging Face inference container on GKE with GPUs", "gke-model-serving"),
    ],
)
def test_a_tool_beside_google_cloud_or_its_counterpart_stays_in_scope(shipped, question, expected):
    """Naming a Google Cloud product, or asking for Google Cloud's counterpart of a third-party
    tool, keeps the question in scope: that is a question the tutor can answer."""
    lookup = shipped.lookup(question)
    assert lookup.outside is None
    assert lookup.best is not None and lookup.best.entry.id == expected


def test_confidence_counts_the_ml_and_google_cloud_words_a_question_spells(shipped):
    """The scope feature is 0 for a line in plain words and grows with each ML or Cloud word."""
    plain = shipped.features("where can I rent a shipping container for the weekend")
    some = shipped.features("which container should I rent to train the model")
    more = shipped.features(
        "which container should I rent to train the pytorch model on vertex gpus"
    )
    assert plain is not None and some is not None and more is not None
    assert len(plain) == len(Knobs().calibration) - 1
    assert plain[-1] == 0.0 < some[-1] < more[-1] < 1.0


def test_a_differentiable_model_is_not_read_as_a_non_differentiable_one(shipped):
    """Sampled Shapley is for non-differentiable models; a question about a differentiable
    network is about integrated gradients."""
    question = "Our DNN on tabular data is differentiable: which attribution method suits it?"
    assert _answer(shipped, question) == "integrated-gradients"


@pytest.mark.parametrize(
    ("question", "look_alike"),
    [
        # two entries that name each other as mix-ups
        ("which vertex feature shows how much each input contributed to one prediction?", True),
        # a runner-up that is no known mix-up: close behind is as much a doubt
        ("which accelerator do people usually pick for pytorch deep learning on vertex?", False),
    ],
)
def test_a_runner_up_close_behind_keeps_the_answer_below_80(question, look_alike):
    """The answer stands, but the tutor does not claim 80% or more when the runner-up is
    closer than `close_gap` (held-out phrasings answered that sure with a runner-up within 10
    points were right about three times in four); exactly `close_gap` behind is not close."""
    knowledge = load_knowledge(SHIPPED_ROOT / "knowledge")
    knobs = replace(Knobs(), sure_lead=0.0)  # the ranking-lead rule has its own test
    uncapped = Matcher(knowledge, replace(knobs, close_cap=100)).lookup(question)
    assert uncapped.best is not None and uncapped.best.confidence >= 80
    runner = uncapped.alternatives[0]
    assert any(w.id == runner.entry.id for w in uncapped.best.entry.watch_out) == look_alike
    gap = uncapped.best.confidence - runner.confidence
    close = Matcher(knowledge, replace(knobs, close_gap=gap + 1)).lookup(question)
    at_gap = Matcher(knowledge, replace(knobs, close_gap=gap)).lookup(question)
    assert close.best is not None and at_gap.best is not None
    assert close.best.entry == uncapped.best.entry
    assert at_gap.best.confidence == uncapped.best.confidence >= 80 > close.best.confidence


def test_a_small_ranking_lead_keeps_the_answer_below_80():
    """However far behind the runner-up's confidence, a best candidate that leads the ranking
    by less than `sure_lead` is not claimed at 80% or more: held-out phrasings answered that
    sure with such a lead were right 95% of the time, and independent questions 82%, against
    99% and 97% with a larger lead. A lead of exactly `sure_lead` is not small."""
    question = "search hyperparameters for our xgboost model on vertex"
    knowledge = load_knowledge(SHIPPED_ROOT / "knowledge")
    features = Matcher(knowledge).features(question)
    assert features is not None
    lead = features[2]  # the calibration features: relevance, known share, lead, ...
    assert lead < Knobs().sure_lead, "pick a question the shipped content ranks this close"
    at_lead = Matcher(knowledge, replace(Knobs(), sure_lead=lead)).lookup(question)
    above = Matcher(knowledge, replace(Knobs(), sure_lead=lead + 1e-9)).lookup(question)
    assert at_lead.best is not None and above.best is not None
    assert above.best.entry == at_lead.best.entry
    assert at_lead.best.confidence >= 80 > above.best.confidence
    assert above.best.confidence == Knobs().close_cap


NAN = "training loss turns NaN after a few steps, what should we change?"


@pytest.mark.parametrize(
    ("question", "name"),
    [
        (
            "in Polysync, training loss turns NaN after a few steps, what should we change?",
            "Polysync",
        ),
        ("Polysync: training loss turns NaN after a few steps, what should we change?", "Polysync"),
        (
            "training loss turns NaN after a few steps with LiteFlowz, what should we change?",
            "LiteFlowz",
        ),
    ],
)
def test_a_name_the_notes_do_not_know_keeps_the_answer_below_80(shipped, question, name):
    """A capitalised or CamelCase name that is neither English nor known words: the answer
    stands, but not at 80% or more, since the question may be about that unknown thing."""
    plain = shipped.lookup(NAN)
    named = shipped.lookup(question)
    assert plain.best is not None and plain.best.confidence >= 80
    assert named.best is not None and named.best.entry == plain.best.entry
    assert named.best.confidence == Knobs().close_cap < 80
    assert all(m.confidence <= Knobs().close_cap for m in named.ranked)
    assert named.unknown == name
    assert plain.unknown is None


@pytest.mark.parametrize(
    "question",
    [
        "Training loss turns NaN after a few steps, what should we change?",  # English
        "Honestly, training loss turns NaN after a few steps, what should we change?",
        "training loss turns NaN after a few steps on TensorFlow, what should we change?",
        "training loss turns NaN after a few steps on polysync, what should we change?",
    ],
)
def test_english_known_and_lower_case_words_are_not_unknown_names(shipped, question):
    """A capital that starts a sentence, a known product and a word written in lower case (a
    typo as often as a name) leave the confidence as it is."""
    lookup = shipped.lookup(question)
    assert lookup.best is not None and lookup.best.confidence >= 80
    assert lookup.unknown is None


def test_a_clear_ranking_lead_keeps_the_answer_at_80_or_more(shipped):
    """A lead only a little above `sure_lead` is a clear one: the answer keeps its confidence."""
    question = "my model aces the training data and flops on validation, what now?"
    features = shipped.features(question)
    assert features is not None
    assert Knobs().sure_lead <= features[2] < 2 * Knobs().sure_lead
    lookup = shipped.lookup(question)
    assert lookup.best is not None and lookup.best.entry.id == "overfitting-regularization"
    assert lookup.best.confidence >= 80


def test_related_entries_beside_an_answer_are_at_least_40_sure(shipped):
    """A question about copying a bucket has no business showing the Translation API (matched
    by "machine", 22%) as related; at 40% and more an alternative is worth a look."""
    question = "do I have to copy the whole bucket onto the training machine first?"
    knowledge = load_knowledge(SHIPPED_ROOT / "knowledge")
    everything = Matcher(knowledge, replace(Knobs(), related_min=0)).lookup(question)
    shown = shipped.lookup(question)
    assert shown.best is not None and shown.best == everything.best
    assert all(m.confidence >= 40 for m in shown.alternatives)
    assert [m for m in everything.alternatives if m.confidence >= 40] == list(shown.alternatives)
    assert any(m.confidence < 40 for m in everything.alternatives)


def test_the_examples_the_tutor_suggests_are_answered():
    """The "Try naming the need, e.g. …" hint suggests questions the tutor itself answers."""
    hint = replies.dont_know_lines(Lookup("?", None, ()))[0]
    examples = re.findall(r'"([^"]+)"', hint)
    assert examples
    shipped = Matcher(load_knowledge(SHIPPED_ROOT / "knowledge"))
    assert all(shipped.lookup(example).best is not None for example in examples), examples
