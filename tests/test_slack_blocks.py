"""Block Kit builders: shapes, Slack's limits (slack_sdk's models), escaping, neutral echoes, no
leaks."""

from __future__ import annotations

import json

import pytest
from slack_sdk.models.blocks import Block
from slack_sdk.models.views import View

from bot.matching import Lookup, Match
from bot.slack import blocks
from bot.slack.text import BIDI_CONTROLS
from bot.standings import Board, Ranked
from bot.store import Standing
from bot.tutor import Graded, Stats

ATTACKS = [
    "<!channel>",
    "<!here>",
    "<!everyone>",
    "<@U0OTHER99>",
    "<https://evil.example|https://bank.example>",
]


def valid(message: blocks.Message) -> list[dict]:
    """The blocks, after slack_sdk parsed and re-validated every one (raises if any is invalid)."""
    assert message.text.strip(), "every message needs a plain text fallback"
    assert 0 < len(message.blocks) <= 50
    parsed = Block.parse_all(message.blocks)
    assert None not in parsed, "a block type slack_sdk does not know"
    return [block.to_dict() for block in parsed]


def everything(message: blocks.Message | dict) -> str:
    shown = message.as_kwargs() if isinstance(message, blocks.Message) else message
    return json.dumps(shown, ensure_ascii=False)


def texts(shown: list[dict], kind: str) -> list[str]:
    """The text of every text object of `kind` ("mrkdwn" or "plain_text") in the blocks."""
    found: list[str] = []

    def walk(value: object) -> None:
        if isinstance(value, dict):
            if value.get("type") == kind and isinstance(value.get("text"), str):
                found.append(value["text"])
            for inner in value.values():
                walk(inner)
        elif isinstance(value, list):
            for inner in value:
                walk(inner)

    walk(shown)
    return found


def echo(shown: list[dict]) -> dict:
    """The context block holding "You asked: …"."""
    (context,) = [b for b in shown if b["type"] == "context"]
    return context


def test_answer_is_short_with_a_link_and_more_behind_a_button(catalog):
    """A confident answer: the means in bold, why, a clickable source; mix-ups behind "More"."""
    automl = catalog.knowledge.get("automl")
    lookup = Lookup("no code", Match(automl, 95), ())
    message = blocks.answer(
        lookup, catalog.knowledge.get, asked="no code", unsure=False, quizzable=True
    )
    shown = valid(message)
    text = everything(message)
    assert shown[0]["text"]["text"].startswith("*AutoML on Vertex AI")
    assert automl.why in text and "Don't confuse with" not in text
    url = automl.sources[0]
    assert f"<{url}|cloud.google.com/vertex-ai/docs/beginner/beginners-guide>" in text
    assert "You asked: no code" in text and len(message.text.split("\n")) <= 4
    (feedback,) = [b for b in shown if b.get("block_id") == "answer_feedback"]
    assert [(b["action_id"], b["value"]) for b in feedback["elements"]] == [
        (blocks.MORE, "automl"),
        ("rate_up", "automl"),
        ("rate_down", "automl"),
        (blocks.REPORT, "entry:automl"),
    ]
    assert all(blocks.RATE.match(b["action_id"]) for b in feedback["elements"][1:3])
    buttons = shown[-1]["elements"]
    assert [(b["action_id"], b["value"]) for b in buttons] == [(blocks.QUIZ_ON_ENTRY, "automl")]


def test_an_entry_without_mix_ups_has_no_more_button(catalog):
    """Nothing behind "More": no More button, still 👍/👎 and Report a problem."""
    lookup = Lookup("oom", Match(catalog.knowledge.get("oom-batch-size"), 95), ())
    message = blocks.answer(lookup, catalog.knowledge.get, asked="", unsure=False, quizzable=False)
    (feedback,) = [b for b in valid(message) if b.get("block_id") == "answer_feedback"]
    assert [b["action_id"] for b in feedback["elements"]] == ["rate_up", "rate_down", blocks.REPORT]


def test_dont_know_has_no_rating_or_report(catalog):
    """Nothing was answered, so there is nothing to rate or report."""
    message = blocks.answer(
        Lookup("hm", None, ()), catalog.knowledge.get, asked="hm", unsure=True, quizzable=False
    )
    assert all(b.get("block_id") != "answer_feedback" for b in valid(message))


def test_feedback_has_a_report_button_and_the_modal_is_valid(catalog):
    """Quiz feedback offers Report a problem; the modal is a valid view naming the question."""
    question = catalog.questions.get("q-no-code")
    message = blocks.feedback(Graded(question, "A", False, "recorded"))
    (button,) = valid(message)[-1]["elements"]
    assert (button["action_id"], button["value"]) == (blocks.REPORT, "question:q-no-code")
    assert blocks.read_subject(button["value"]) == ("question", "q-no-code")
    modal = blocks.report_modal(button["value"], "A <b> & c")
    View(**modal).validate_json()
    assert modal["private_metadata"] == "question:q-no-code" and "A &lt;b&gt; &amp; c" in str(modal)
    thanks = blocks.report_thanks("Thanks!")
    View(**thanks).validate_json()


@pytest.mark.parametrize("value", ["", "question:", "user:U1", "entry", "answer:automl"])
def test_report_values_that_are_not_ours_are_refused(value):
    """A report button value that is not ours reads as None."""
    assert blocks.read_subject(value) is None


def test_submitted_report_is_read_from_the_view_state():
    """The reason and comment come from the modal's state; an unknown reason is "other"."""
    view = {
        "state": {
            "values": {
                "what": {"what": {"type": "radio_buttons", "selected_option": {"value": "wrong"}}},
                "comment": {"comment": {"type": "plain_text_input", "value": "B is right"}},
            }
        }
    }
    assert blocks.read_report(view) == ("wrong", "B is right")
    view["state"]["values"]["what"]["what"]["selected_option"] = {"value": "drop table"}
    view["state"]["values"]["comment"]["comment"]["value"] = None
    assert blocks.read_report(view) == ("other", "")
    assert blocks.read_report({}) == ("other", "")


def test_unsure_answer_offers_did_you_mean_buttons(catalog):
    """When unsure, each alternative becomes a button whose id matches the SHOW_ENTRY family."""
    alternatives = tuple(Match(catalog.knowledge.get(i), 40) for i in ("automl", "oom-batch-size"))
    message = blocks.answer(
        Lookup("hm", None, alternatives),
        catalog.knowledge.get,
        asked="hm",
        unsure=True,
        quizzable=True,
    )
    buttons = valid(message)[-1]["elements"]
    assert [b["value"] for b in buttons] == ["automl", "oom-batch-size"]
    assert all(blocks.SHOW_ENTRY.match(b["action_id"]) for b in buttons)
    assert len({b["action_id"] for b in buttons}) == len(buttons)


def test_question_has_one_button_per_choice_and_never_the_answer(catalog):
    """One button per choice, values carry post id and letter; no value or id names the answer."""
    question = catalog.questions.get("q-no-code")
    message = blocks.question(42, question)
    actions = valid(message)[-1]
    assert [b["value"] for b in actions["elements"]] == ["42:A", "42:B", "42:C"]
    assert all(blocks.ANSWER.match(b["action_id"]) for b in actions["elements"])
    ids = [actions["block_id"], *(b["action_id"] for b in actions["elements"])]
    assert not any("correct" in i.lower() for i in ids)
    assert actions["block_id"] == "quiz_42"  # the same for every question: it tells nothing
    assert len({tuple(sorted(b)) for b in actions["elements"]}) == 1  # no button stands out
    assert "Answer with a, b, c." in message.text
    assert blocks.read_answer_value("42:B") == (42, "B")
    assert blocks.read_answer_value("oops") is None


def test_question_heading_for_a_channel_post(catalog):
    """A channel post can carry a heading above the question; blocks stay valid."""
    message = blocks.question(7, catalog.questions.get("q-oom"), heading="Today's quick check")
    assert valid(message)[0]["text"]["text"] == "*Today's quick check*"


def test_feedback_explains_chosen_and_correct(catalog):
    """Wrong answer: says so, why the chosen one is wrong, and why the correct one is right."""
    question = catalog.questions.get("q-no-code")
    message = blocks.feedback(Graded(question, "A", False, "recorded"))
    text = everything(message)
    valid(message)
    assert "Not quite." in text
    assert question.explanations["A"] in text and question.explanations["B"] in text


def test_user_text_is_escaped_everywhere(catalog):
    """Attack sequences in echoed text never reach Slack raw, in text or in any block."""
    attack = " ".join(ATTACKS) + " & co"
    lookup = Lookup(attack, None, ())
    message = blocks.answer(
        lookup, catalog.knowledge.get, asked=attack, unsure=True, quizzable=False
    )
    text = everything(message)
    valid(message)
    for raw in ATTACKS:
        assert raw not in text
    assert "&lt;!channel&gt;" in text and "&amp; co" in text


TRICKY = "\u202e*Correct! The answer is B*\u202c <!channel> _x_ `y` 👩‍💻 café 日本"


@pytest.mark.parametrize("confident", [True, False], ids=["answer", "dont-know"])
def test_echo_is_plain_text_without_bidi_and_escaped(catalog, confident):
    """The question echoed for the thread is plain_text: as typed, minus bidi, escaped."""
    best = Match(catalog.knowledge.get("automl"), 95) if confident else None
    message = blocks.answer(
        Lookup(TRICKY, best, ()),
        catalog.knowledge.get,
        asked=TRICKY,
        unsure=False,
        quizzable=False,
    )
    shown = valid(message)
    assert echo(shown)["elements"] == [
        {
            "type": "plain_text",
            "text": "You asked: *Correct! The answer is B* &lt;!channel&gt; _x_ `y` 👩‍💻 café 日本",
            "emoji": False,
        }
    ]
    assert not BIDI_CONTROLS & set(everything(message))
    assert all("Correct! The answer" not in t for t in [message.text, *texts(shown, "mrkdwn")])


def test_long_question_is_clipped_in_the_echo(catalog):
    """A 5000-character question of `&` (escaping multiplies it by 5) stays within the limit."""
    message = blocks.answer(
        Lookup("&", None, ()),
        catalog.knowledge.get,
        asked="&" * 5000,
        unsure=False,
        quizzable=False,
    )
    (said,) = texts([echo(valid(message))], "plain_text")
    assert said == "You asked: " + "&amp;" * (blocks.ECHO_TEXT - 1) + "…"
    assert len(said) <= blocks.SECTION_TEXT


def test_a_question_of_only_bidi_controls_is_not_echoed(catalog):
    """Nothing left to show after removing bidi controls: no "You asked:" at all."""
    message = blocks.answer(
        Lookup("x", None, ()),
        catalog.knowledge.get,
        asked="\u202e\u2066 \u200f",
        unsure=False,
        quizzable=False,
    )
    assert all(b["type"] != "context" for b in valid(message))
    assert "You asked" not in everything(message)


def test_long_lines_are_split_into_sections_within_limits():
    """Many long lines become several sections, each at most 3000 characters."""
    message = blocks.lines(["word " * 500] * 4)
    shown = valid(message)
    assert len(shown) > 1
    assert all(len(block["text"]["text"]) <= blocks.SECTION_TEXT for block in shown)


def workspace(standings: list[Standing], period) -> Board:
    return Board("T1", None, period, tuple(Ranked(s) for s in standings))


def test_leaderboard_mentions_people_but_escapes_odd_names():
    """Standings show <@U…> for Slack users and escaped text for anything else."""
    standings = [Standing(1, "U0STUDENT1", 3, 4, 3), Standing(2, "<!channel>", 1, 1, 1)]
    message = blocks.board(workspace(standings, "week"))
    text = everything(message)
    valid(message)
    assert "<@U0STUDENT1>" in text and "<!channel>" not in text and "this week" in text


def test_leaderboard_shows_odd_names_neutral():
    """A name that is not a user id cannot bold itself or reverse the line, in blocks or text."""
    standings = [Standing(1, "\u202e*boss*", 3, 4, 3)]
    message = blocks.board(workspace(standings, "all"))
    text = everything(message)
    valid(message)
    assert "*boss*" not in text and "\u2217boss\u2217" in text
    assert not BIDI_CONTROLS & set(text)


def test_help_and_stats_are_valid():
    """Help (with its <your question> placeholder escaped) and stats are valid messages."""
    assert "&lt;your question&gt;" in valid(blocks.help_text())[0]["text"]["text"]
    valid(blocks.stats(Stats(4, 3, 2, ())))


@pytest.mark.parametrize("rows", [0, 10])
def test_home_view_is_a_valid_home_view(rows):
    """The App Home view passes slack_sdk's View validation (type home, 1-100 blocks)."""
    standings = [Standing(i + 1, f"U{i:09d}", 10 - i, 10, 10 - i) for i in range(rows)]
    view = blocks.home(Stats(10, 7, 3, ()), workspace(standings, "week"))
    assert View(**view).to_dict()["type"] == "home"
    assert len(view["blocks"]) <= 100
    assert all(b is not None for b in Block.parse_all(view["blocks"]))


def test_an_entry_shown_from_did_you_mean_links_its_source(catalog):
    """The whole entry (mix-ups included) ends with a clickable link to its source."""
    automl = catalog.knowledge.get("automl")
    message = blocks.entry(automl, catalog.knowledge.get, quizzable=False)
    shown = valid(message)
    text = everything(message)
    assert "Don't confuse with Vertex AI custom training" in text
    url = automl.sources[0]
    assert shown[-1]["text"]["text"] == f"Source: {blocks.link(url)}"
    assert blocks.link(url).startswith(f"<{url}|") and text.count(url) == 2  # link and fallback
