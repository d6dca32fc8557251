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


def test_answer_shows_means_why_watch_out_source_and_quiz_button(catalog):
    """A confident answer: the means in bold, why, the watch-out, the source, "quiz me on this"."""
    automl = catalog.knowledge.get("automl")
    lookup = Lookup("no code", Match(automl, 95), ())
    message = blocks.answer(
        lookup, catalog.knowledge.get, asked="no code", unsure=False, quizzable=True
    )
    shown = valid(message)
    text = everything(message)
    assert shown[0]["text"]["text"].startswith("*AutoML on Vertex AI")
    assert automl.why in text and "Don't confuse with Vertex AI custom training" in text
    assert automl.sources[0] in text and "You asked: no code" in text
    buttons = shown[-1]["elements"]
    assert [(b["action_id"], b["value"]) for b in buttons] == [(blocks.QUIZ_ON_ENTRY, "automl")]


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
