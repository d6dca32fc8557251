"""What the tutor says about an answer: the mix-up the learner named comes first."""

from __future__ import annotations

import dataclasses

import pytest

from bot.knowledge import WatchOut
from bot.matching import Lookup, Match
from bot.replies import answer_lines


def _confusions(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("Don't confuse with")]


def test_the_named_mix_up_is_explained_first(catalog):
    """When the learner named a service, its note leads, ahead of the answer's other mix-ups."""
    kb = catalog.knowledge
    automl, custom, oom = (
        kb.get(i) for i in ("automl", "vertex-custom-training", "oom-batch-size")
    )
    answer = dataclasses.replace(
        automl,
        watch_out=(
            WatchOut(oom.id, "Unrelated note."),
            WatchOut(custom.id, "AutoML needs no code."),
        ),
    )
    lookup = Lookup("q", Match(answer, 80), (), named=custom)
    lines = answer_lines(lookup, kb.get)
    assert lines[0].startswith(f"You mention {custom.name}")
    assert _confusions(lines)[0] == f"Don't confuse with {custom.name}: AutoML needs no code."


def test_a_note_kept_on_the_named_side_is_used(catalog):
    """If only the named entry lists the pair, its note explains the mix-up."""
    kb = catalog.knowledge
    automl, custom = kb.get("automl"), kb.get("vertex-custom-training")
    answer = dataclasses.replace(automl, watch_out=())
    named = dataclasses.replace(custom, watch_out=(WatchOut(automl.id, "Custom code vs none."),))
    lines = answer_lines(Lookup("q", Match(answer, 80), (), named=named), kb.get)
    assert _confusions(lines) == [f"Don't confuse with {named.name}: Custom code vs none."]


def test_without_a_named_service_the_order_is_the_entrys(catalog):
    """A plain answer lists the entry's first two mix-ups in their written order."""
    kb = catalog.knowledge
    automl, custom, oom = (
        kb.get(i) for i in ("automl", "vertex-custom-training", "oom-batch-size")
    )
    answer = dataclasses.replace(
        automl, watch_out=(WatchOut(oom.id, "First."), WatchOut(custom.id, "Second."))
    )
    lines = answer_lines(Lookup("q", Match(answer, 80), ()), kb.get)
    assert [line.rsplit(": ", 1)[1] for line in _confusions(lines)] == ["First.", "Second."]


CUSTOM, OOM = "vertex-custom-training", "oom-batch-size"


@pytest.mark.parametrize(
    ("notes", "runner_ups", "named", "shown"),
    [
        # "skew vs drift?" answered with skew: drift, close behind, is explained first, then the
        # next runner-up, ahead of a mix-up written earlier
        (
            [("tabular-workflows", "Written first."), (OOM, "Second."), (CUSTOM, "Runner-up.")],
            [CUSTOM, OOM],
            None,
            ["Runner-up.", "Second."],
        ),
        # a named service's note first, then the mix-ups with runner-up answers, then the rest
        (
            [("tabular-workflows", "Written first."), (CUSTOM, "Named."), (OOM, "Runner-up.")],
            [OOM],
            CUSTOM,
            ["Named.", "Runner-up."],
        ),
    ],
)
def test_mix_ups_with_the_named_service_and_the_runner_ups_are_explained_first(
    catalog, notes, runner_ups, named, shown
):
    """The answer's mix-up notes: the named service's, then the runner-up answers', best first."""
    kb = catalog.knowledge
    answer = dataclasses.replace(kb.get("automl"), watch_out=tuple(WatchOut(*n) for n in notes))
    others = tuple(Match(kb.get(i), 60 - 10 * n) for n, i in enumerate(runner_ups))
    lookup = Lookup("q", Match(answer, 80), others, named=kb.get(named) if named else None)
    assert [line.rsplit(": ", 1)[1] for line in _confusions(answer_lines(lookup, kb.get))] == shown


def test_an_answer_says_where_it_sits_on_the_exam(catalog):
    """Every answer names its exam section and domain, so learners know what they studied."""
    lookup = Lookup("no code", Match(catalog.knowledge.get("automl"), 90), ())
    lines = answer_lines(lookup, catalog.knowledge.get)
    assert "Exam section 3.2: Training models (domain: Scaling prototypes into ML models)" in lines


def test_a_name_the_notes_do_not_know_is_owned_up_to(catalog):
    """An answer to a question naming something unknown says so after the answer's why, so
    the learner knows the answer covers only the rest of the question."""
    automl = catalog.knowledge.get("automl")
    lookup = Lookup("in Polysync, no code?", Match(automl, 79), (), unknown="Polysync")
    lines = answer_lines(lookup, catalog.knowledge.get)
    said = lines.index(automl.why) + 1
    assert lines[said] == "I don't know Polysync; this answers the rest of your question."
    plain = answer_lines(Lookup("no code?", Match(automl, 79), ()), catalog.knowledge.get)
    assert not any("I don't know" in line for line in plain)
