"""Block Kit from the tutor's values: pure functions, next to the action ids their buttons use.

Every builder returns a `Message` (blocks plus the plain `text` Slack shows in notifications and
to screen readers). The words come from `bot.replies`; everything shown is escaped here, and mrkdwn
holding text we did not write is `verbatim`, so Slack never turns it into links or mentions. The
learner's own words, echoed where others see them, go in a `plain_text` object without bidi
controls: they cannot ping, style or reorder anything (see `bot.slack.text`).

Quiz buttons carry the post id and the chosen letter, never the correct one: anyone can read
button values with the browser's developer tools, so grading happens on the server.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from bot import replies
from bot.conversation import (
    Answered,
    BoardShown,
    DailyShown,
    Grade,
    HelpShown,
    Put,
    ReadyShown,
    Result,
    StatsShown,
    TeamsShown,
)
from bot.daily import Recap
from bot.knowledge import Entry
from bot.matching import Lookup
from bot.quiz import Question
from bot.slack.text import clip, escape, mention, without_bidi
from bot.standings import Board, TeamsBoard
from bot.store import Post
from bot.store.flags import COMMENT_LIMIT, FlagKind
from bot.tutor import Graded, Stats

# Action ids. A family of buttons shares one regex, so one listener serves them all.
ANSWER = re.compile(r"^answer_[a-e]$")  # one button per choice; value "<post id>:<letter>"
SHOW_ENTRY = re.compile(r"^show_entry_\d+$")  # "did you mean" buttons; value = entry id
QUIZ_ON_ENTRY = "quiz_on_entry"  # "quiz me on this"; value = entry id
QUIZ_MORE = "quiz_more"  # the rest of an answered question's feedback; value = post id
MORE = "answer_more"  # the whole entry (its mix-ups to watch); value = entry id
RATE = re.compile(r"^rate_(up|down)$")  # 👍/👎 on an answer; value = entry id
REPORT = "report_open"  # opens the report modal; value = "question:<id>" or "entry:<id>"
REPORT_VIEW = "report_problem"  # the modal's callback id; private_metadata = the same value
REPORT_WHAT = "what"  # the modal's block and action id for the reason
REPORT_COMMENT = "comment"  # ... and for the comment

SECTION_TEXT = 3000  # Slack's limit for a section's text
BUTTON_TEXT = 75  # Slack's limit for a button label
FALLBACK_TEXT = 3000  # the plain `text` we send; Slack allows far more, people read far less
IMAGE_ALT = 2000  # Slack's limit for an image's alt text
ECHO_TEXT = 300  # how much of a question "You asked: …" repeats; escaped, it stays under 3000

KbGet = Callable[[str], Entry | None]


@dataclass(frozen=True)
class Message:
    """What one Slack message needs: a plain-text fallback and the blocks."""

    text: str
    blocks: list[dict]

    def as_kwargs(self) -> dict:
        return {"text": self.text, "blocks": self.blocks}


# -- the tutor's messages ---------------------------------------------------------------------


def answer(lookup: Lookup, kb_get: KbGet, *, asked: str, unsure: bool, quizzable: bool) -> Message:
    """An answer (or "I don't know"), the question echoed, and the buttons that follow from it.

    A confident answer is short: the means, why and a link to the source; the mix-ups to watch
    wait behind "More", beside 👍/👎 and "Report a problem".
    """
    best = lookup.best
    if best is None:
        lines = replies.answer_lines(lookup, kb_get)
        blocks = _sections(lines, bold_first=False)
    else:
        lines = replies.answer_summary(lookup)
        blocks = _sections(lines, bold_first=True)
        if best.entry.sources:
            url = best.entry.sources[0]
            lines.append(f"Source: {url}")
            blocks.append(_section(f"Source: {link(url)}"))
    shown = without_bidi(asked).strip()
    if shown:
        blocks.append(_echo(shown))
    if best is not None:
        blocks.append(_answer_feedback(best.entry))
    buttons = []
    if lookup.best is not None and quizzable:
        buttons.append(_button(replies.QUIZ_ME, QUIZ_ON_ENTRY, lookup.best.entry.id))
    if unsure:
        buttons += [
            _button(match.entry.name, f"show_entry_{i}", match.entry.id)
            for i, match in enumerate(lookup.alternatives)
        ]
    if buttons:
        blocks.append({"type": "actions", "block_id": "answer_actions", "elements": buttons})
    return Message(_fallback(lines), blocks)


def _answer_feedback(shown: Entry) -> dict:
    """More, 👍, 👎 and Report a problem under an answer."""
    more = [_button(replies.MORE, MORE, shown.id)] if shown.watch_out else []
    elements = [
        *more,
        _button(replies.HELPED, "rate_up", shown.id),
        _button(replies.DID_NOT_HELP, "rate_down", shown.id),
        _button(replies.REPORT_PROBLEM, REPORT, subject_value("entry", shown.id)),
    ]
    return {"type": "actions", "block_id": "answer_feedback", "elements": elements}


def link(url: str) -> str:
    """A clickable link labelled with the address without its scheme, or only its host when
    that is long (escaped, as Slack asks)."""
    label = url.split("://", 1)[-1].removeprefix("www.")
    label = label if len(label) <= 70 else label.split("/", 1)[0]
    return f"<{escape(url)}|{escape(label)}>"


def entry(found: Entry, kb_get: KbGet, *, quizzable: bool) -> Message:
    """One entry, shown because the learner picked it from "did you mean"."""
    lines = replies.entry_lines(found, kb_get)
    source = f"Source: {found.sources[0]}" if found.sources else None
    blocks = _sections([line for line in lines if line != source], bold_first=True)
    if source:  # a link Slack can open, whatever `verbatim` says
        blocks.append(_section(f"Source: {link(found.sources[0])}"))
    if quizzable:
        button = _button(replies.QUIZ_ME, QUIZ_ON_ENTRY, found.id)
        blocks.append({"type": "actions", "block_id": "entry_actions", "elements": [button]})
    return Message(_fallback(lines), blocks)


def question(post_id: int, asked: Question, *, heading: str = "") -> Message:
    """A quiz question with one button per choice; for a private question or a channel post.

    `heading` (e.g. "Today's quick check") goes above the question when given.
    """
    first, *choices = replies.question_lines(asked)
    prompt = replies.choice_prompt(asked)
    blocks = [_section(f"*{escape(heading)}*")] if heading else []
    blocks += [_section(escape(first)), _section(escape("\n".join(choices)))]
    buttons = [
        _button(label, f"answer_{letter.lower()}", answer_value(post_id, letter))
        for label, letter in zip(choice_labels(asked), asked.letters, strict=True)
    ]
    blocks.append({"type": "actions", "block_id": f"quiz_{post_id}", "elements": buttons})
    lines = [heading, first, *choices, prompt] if heading else [first, *choices, prompt]
    return Message(_fallback(lines), blocks)


def choice_labels(asked: Question) -> list[str]:
    """Each button's label: "b) the choice" when every choice fits a button, else the letters."""
    labels = [f"{x.lower()}) {text}" for x, text in asked.choices]
    return labels if all(len(label) <= BUTTON_TEXT for label in labels) else list(asked.letters)


def feedback(graded: Graded, post_id: int | None = None) -> Message:
    """Short: right or wrong, why, the picked wrong choice in one line; buttons to read next, for
    "More" (the other choices and the source), which needs the post (`post_id`), and to report a
    problem with the question."""
    said = replies.feedback_lines(graded, hint=post_id is None and graded.status == "recorded")
    message = lines(said, bold_first=True)
    if graded.status != "recorded":
        return message
    spoils = graded.daily and not graded.correct  # the answer waits for the team's reveal
    buttons = [
        _button(f"Read: {entry.name}", f"show_entry_{i}", entry.id)
        for i, entry in enumerate(() if spoils else graded.entries[:2])
    ]
    if post_id is not None and not spoils:
        buttons.append(_button(replies.MORE, QUIZ_MORE, str(post_id)))
    report = subject_value("question", graded.question.id)
    buttons.append(_button(replies.REPORT_PROBLEM, REPORT, report))
    actions = {"type": "actions", "block_id": "feedback_actions", "elements": buttons}
    return Message(message.text, [*message.blocks, actions])


def answered(post_id: int, graded: Graded) -> Message:
    """A private question once answered: without its buttons, the feedback below it."""
    asked = question(post_id, graded.question)
    kept = [b for b in asked.blocks if b.get("type") != "actions"]
    said = feedback(graded, post_id)
    return Message(said.text, [*kept, {"type": "divider"}, *said.blocks])


# -- reports: the modal and its values ----------------------------------------------------------


def subject_value(kind: str, item: str) -> str:
    return f"{kind}:{item}"


def read_subject(value: str) -> tuple[FlagKind, str] | None:
    """("question" | "entry", id) from a report button's value; None when it is not one of ours."""
    kind, _, item = value.partition(":")
    if kind == "question" and item:
        return ("question", item)
    if kind == "entry" and item:
        return ("entry", item)
    return None


def report_modal(value: str, name: str) -> dict:
    """The "Report a problem" modal: what is wrong (a choice) and a comment."""
    options = [
        {"text": {"type": "plain_text", "text": text}, "value": reason}
        for reason, text in replies.REASON_NAMES.items()
    ]
    what = {
        "type": "radio_buttons",
        "action_id": REPORT_WHAT,
        "options": options,
        "initial_option": options[0],
    }
    comment = {
        "type": "plain_text_input",
        "action_id": REPORT_COMMENT,
        "multiline": True,
        "max_length": COMMENT_LIMIT,
    }
    return {
        "type": "modal",
        "callback_id": REPORT_VIEW,
        "private_metadata": value,
        "title": {"type": "plain_text", "text": replies.REPORT_TITLE},
        "submit": {"type": "plain_text", "text": replies.REPORT_SEND},
        "close": {"type": "plain_text", "text": "Cancel"},
        "blocks": [
            {"type": "context", "elements": [_plain(clip(escape(name), SECTION_TEXT))]},
            {
                "type": "input",
                "block_id": REPORT_WHAT,
                "label": _plain(replies.REPORT_WHAT),
                "element": what,
            },
            {
                "type": "input",
                "block_id": REPORT_COMMENT,
                "optional": True,
                "label": _plain(replies.REPORT_COMMENT),
                "element": comment,
            },
        ],
    }


def read_report(view: dict) -> tuple[str, str]:
    """(reason, comment) from a submitted report modal; an unknown reason counts as "other"."""
    values = (view.get("state") or {}).get("values") or {}
    chosen = ((values.get(REPORT_WHAT) or {}).get(REPORT_WHAT) or {}).get("selected_option")
    reason = (chosen or {}).get("value")
    comment = ((values.get(REPORT_COMMENT) or {}).get(REPORT_COMMENT) or {}).get("value")
    known = reason if reason in replies.REASON_NAMES else "other"
    return known, comment if isinstance(comment, str) else ""


def report_thanks(said: str) -> dict:
    """The modal after a report: it thanks the reporter, then closes."""
    return {
        "type": "modal",
        "callback_id": f"{REPORT_VIEW}_done",
        "title": {"type": "plain_text", "text": replies.REPORT_TITLE},
        "close": {"type": "plain_text", "text": "Close"},
        "blocks": [{"type": "section", "text": _plain(clip(escape(said), SECTION_TEXT))}],
    }


def _plain(text: str) -> dict:
    return {"type": "plain_text", "text": text, "emoji": True}


def board(shown: Board) -> Message:
    """A board with people as mentions: for private places (ephemeral, Home, DM) only."""
    tags = {s.user: _tag(s.rank) for s in shown.standings}
    said = replies.board_lines(shown, lambda user: tags.get(user, user))
    text = escape("\n".join(said))
    for user, tag in tags.items():
        text = text.replace(tag, mention(user))
    return Message(clip(text, FALLBACK_TEXT), _chunks(text.split("\n")))


def teams(shown: TeamsBoard) -> Message:
    """Channels ranked, as channel links (a link pings no one)."""
    said = replies.teams_lines(list(shown.teams), shown.period, channel_ref)
    return lines_message(said, [t.channel for t in shown.teams])


def stats(numbers: Stats) -> Message:
    return lines(replies.stats_lines(numbers))


def help_text(*, local: bool = False) -> Message:
    """The help, in a code block so its columns line up."""
    text = escape("\n".join(replies.help_lines(local=local)))
    return Message(text, [_section(f"```{text}```")])


def lines(said: Iterable[str], *, bold_first: bool = False) -> Message:
    """Any other reply: the lines, escaped, in as many sections as the limit needs."""
    said = list(said)
    return Message(_fallback(said), _sections(said, bold_first=bold_first))


def home(numbers: Stats, shown: Board, pictures: Iterable[dict] = ()) -> dict:
    """The App Home view: the learner's progress, readiness and plan, charts, and the board."""
    blocks = [
        {"type": "header", "text": {"type": "plain_text", "text": replies.HOME_TITLE}},
        _section(f"*{escape(replies.YOUR_STATS)}*"),
        *stats(numbers).blocks,
        *pictures,
        {"type": "divider"},
        *board(shown).blocks,
    ]
    return {"type": "home", "blocks": blocks}


def ready(numbers: Stats) -> Message:
    """Readiness as a monospaced text chart (its columns line up), then the plan and progress."""
    chart = replies.readiness_lines(numbers.readiness) if numbers.readiness else []
    rest = [*replies.plan_lines(numbers.plan), *replies.weekly_lines(numbers.weeks)]
    text = escape("\n".join(chart))
    shown = [_section(f"```{clip(text, SECTION_TEXT - 6)}```")] if chart else []
    return Message(_fallback([*chart, *rest]), [*shown, *_sections(rest, bold_first=False)])


def image(file_id: str, title: str, alt: str) -> dict:
    """An uploaded chart; the alt text says in words what it shows."""
    return {
        "type": "image",
        "slack_file": {"id": file_id},
        "alt_text": clip(alt, IMAGE_ALT),
        "title": {"type": "plain_text", "text": clip(title, 2000)},
    }


def chart_words(alt: str) -> dict:
    """Where a chart could not be uploaded: what it would show, in words."""
    return _context(escape(clip(alt, SECTION_TEXT)))


def with_pictures(message: Message, pictures: list[dict]) -> Message:
    return Message(message.text, [*message.blocks, *pictures][:50])


def render(result: Result) -> Message:
    """A conversation result as a Slack message; results without a layout of their own are
    their lines (`bot.replies.render`), escaped."""
    match result:
        case Answered(lookup=lookup, knowledge=knowledge):
            return answer(
                lookup,
                knowledge.get,
                asked=result.asked,
                unsure=result.unsure,
                quizzable=result.quizzable,
            )
        case Put(asked=asked):
            heading = replies.REVIEW if asked.review else ""
            return question(asked.post.id, asked.question, heading=heading)
        case Grade(graded=graded, revealed=()) if graded is not None:
            return feedback(graded)
        case BoardShown(board=shown):
            return board(shown)
        case TeamsShown(board=shown):
            return teams(shown)
        case StatsShown(stats=numbers):
            return stats(numbers)
        case ReadyShown(stats=numbers):
            return ready(numbers)
        case DailyShown(post=post, question=asked, mine=mine, total=total):
            message = question(post.id, asked, heading=replies.DAILY_HEADING)
            status = replies.daily_answered(mine, total) if mine else replies.choice_prompt(asked)
            return Message(message.text, [*message.blocks, _context(escape(status))])
        case HelpShown(local=local):
            return help_text(local=local)
    return lines(replies.render(result))


# -- button values ----------------------------------------------------------------------------


def answer_value(post_id: int, letter: str) -> str:
    return f"{post_id}:{letter}"


def read_answer_value(value: str) -> tuple[int, str] | None:
    """(post id, letter) from an answer button's value; None when it is not one of ours."""
    post, _, letter = value.partition(":")
    digits = post.isascii() and post.isdigit() and len(post) <= 18  # fits SQLite's INTEGER
    return (int(post), letter) if digits and letter else None


# -- building blocks --------------------------------------------------------------------------


def _section(mrkdwn: str) -> dict:
    text = {"type": "mrkdwn", "text": clip(mrkdwn, SECTION_TEXT), "verbatim": True}
    return {"type": "section", "text": text}


def _echo(asked: str) -> dict:
    """The question as typed, for everyone in the thread: `plain_text` shows `*` and `_` as
    themselves, escaping keeps `<!channel>` inert, and a long question is clipped.
    """
    said = escape(replies.you_asked(clip(asked, ECHO_TEXT)))
    text = {"type": "plain_text", "text": clip(said, SECTION_TEXT), "emoji": False}
    return {"type": "context", "elements": [text]}


def _button(label: str, action_id: str, value: str) -> dict:
    text = {"type": "plain_text", "text": clip(label, BUTTON_TEXT)}
    return {"type": "button", "text": text, "action_id": action_id, "value": value}


def _sections(said: list[str], *, bold_first: bool) -> list[dict]:
    shown = [escape(line) for line in said]
    if bold_first and shown:
        shown[0] = f"*{shown[0]}*"
    return _chunks(shown)


def _chunks(shown: list[str]) -> list[dict]:
    """Escaped lines packed into sections of at most SECTION_TEXT characters each."""
    sections: list[str] = []
    for line in shown:
        if sections and len(sections[-1]) + 1 + len(line) <= SECTION_TEXT:
            sections[-1] += "\n" + line
        else:
            sections.append(line)
    return [_section(text) for text in sections if text.strip()]


def _fallback(said: list[str]) -> str:
    return clip(escape("\n".join(said)), FALLBACK_TEXT)


def _tag(rank: int) -> str:
    return f"\x00{rank}\x00"


# -- channel posts: the daily question, its closing, channel links ----------------------------


def channel_ref(channel: str) -> str:
    """A placeholder for a channel link, swapped for `<#C…>` after escaping (pings no one)."""
    return f"\x00{channel}\x00"


def _with_channel_links(text: str, channels: Iterable[str]) -> str:
    for channel in channels:
        text = text.replace(channel_ref(channel), f"<#{channel}>")
    return text


def lines_message(said: list[str], channels: Iterable[str] = ()) -> Message:
    """Escaped lines; channel placeholders become channel links, fallback text gets #ids."""
    channels = list(channels)
    message = lines(said)
    text = message.text
    for channel in channels:
        text = text.replace(channel_ref(channel), f"#{channel}")
    shown = [
        {**b, "text": {**b["text"], "text": _with_channel_links(b["text"]["text"], channels)}}
        for b in message.blocks
    ]
    return Message(text, shown)


def question_message(
    post: Post, asked: Question, recap: Recap | None, names: Callable[[str], str]
) -> Message:
    """The daily post: optional recap, the question with its buttons, and when it closes."""
    message = question(post.id, asked, heading=replies.DAILY_HEADING)
    extra: list[dict] = []
    if post.closes_at:
        unix = int(dt.datetime.fromisoformat(post.closes_at).timestamp())
        fallback = replies.readable_time(post.closes_at)
        when = f"<!date^{unix}^{{date_short_pretty}} at {{time}}|{fallback}>"
        extra.append(_context(replies.open_until(when)))
    if recap is None:
        return Message(message.text, message.blocks + extra)
    said = replies.recap_lines(recap, names, channel_ref)
    before = lines_message(said, [t.channel for t in recap.teams])
    return Message(message.text, [*before.blocks, {"type": "divider"}, *message.blocks, *extra])


def closed_message(post: Post, asked: Question) -> Message:
    """The daily post without its buttons, marked closed."""
    message = question(post.id, asked, heading=replies.DAILY_HEADING)
    kept = [b for b in message.blocks if b.get("type") != "actions"]
    return Message(message.text, [*kept, _context(escape(replies.DAILY_CLOSED))])


def _context(mrkdwn: str) -> dict:
    return {"type": "context", "elements": [{"type": "mrkdwn", "text": mrkdwn}]}
