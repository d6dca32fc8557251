"""Slack's text rules: escaping, mentions, clipping, and neutral text that cannot style or reorder."""

from __future__ import annotations

import pytest

from bot.slack.text import BIDI_CONTROLS, clip, escape, mention, neutral, unescape, without_bidi

MARKERS = "*_~`\uff0a\uff3f\uff40"  # what mrkdwn reads as styling, fullwidth forms included
SHY = "\u00ad"  # soft hyphen: invisible, but a `>` after it no longer starts a quote

ORDINARY = [
    "Which service for no-code training?",
    "Café, naïve, Ærø, São Paulo, Straße",
    "e\u0301 and n\u0303 (combining accents)",
    "👩‍💻 👨‍👩‍👧‍👦 👍🏽 🏳️‍🌈 1️⃣ 🇩🇪",
    "日本語の質問: バッチサイズは？ 中文 한국어",
    "עברית ועוד",
    "العربية",
    "a & b <c> d",  # left for `escape`: neutral text is characters, not Slack's wire form
    "a > b, 3 > 2",
    "john_doe, snake_case_name, a*b*c, x~y, 日本_語",  # between letters a marker styles nothing
]


def test_escape_replaces_the_three_control_characters_ampersand_first():
    """& < > become entities, & first so nothing is escaped twice; nothing else changes."""
    assert escape("a & b <!here> > 'c'") == "a &amp; b &lt;!here&gt; &gt; 'c'"
    assert unescape(escape("<@U1> & &lt;")) == "<@U1> & &lt;"


@pytest.mark.parametrize(
    ("user", "shown"),
    [
        ("U0STUDENT1", "<@U0STUDENT1>"),
        ("W0ENTERPR1", "<@W0ENTERPR1>"),
        ("<!channel>", "&lt;!channel&gt;"),
        ("*boss*", "\u2217boss\u2217"),
        ("\u202eevil", "evil"),
    ],
)
def test_mention_only_for_real_user_ids(user, shown):
    """Slack user ids become mentions; anything else is shown escaped and neutral, never markup."""
    assert mention(user) == shown


@pytest.mark.parametrize("control", sorted(BIDI_CONTROLS), ids=lambda c: f"U+{ord(c):04X}")
def test_every_bidi_control_is_removed(control):
    """Each embedding, override, isolate and mark is dropped, from plain and from neutral text."""
    said = f"{control}*Correct! The answer is B*{control} ok"
    assert control not in without_bidi(said) and control not in neutral(said)
    assert without_bidi(said) == "*Correct! The answer is B* ok"


def test_the_bidi_set_is_the_one_asked_for():
    """U+202A-U+202E, U+2066-U+2069, LRM, RLM and ALM: twelve controls, nothing else."""
    wanted = {*map(chr, range(0x202A, 0x202F)), *map(chr, range(0x2066, 0x206A))}
    assert wanted | {"\u200e", "\u200f", "\u061c"} == BIDI_CONTROLS


@pytest.mark.parametrize(
    ("said", "shown"),
    [
        ("*Correct! The answer is B*", "\u2217Correct! The answer is B\u2217"),
        ("_italic_", "\u02cditalic\u02cd"),
        ("~struck~", "\u223cstruck\u223c"),
        ("`code`", "\u02cbcode\u02cb"),
        ("```block```", "\u02cb\u02cb\u02cbblock\u02cb\u02cb\u02cb"),
        ("_john_doe_", "\u02cdjohn_doe\u02cd"),
        ("a *b* c", "a \u2217b\u2217 c"),
        ("(*b*)", "(\u2217b\u2217)"),
        ("a\u200b*b*\u200bc", "a\u200b\u2217b\u2217\u200bc"),  # a ZWSP is an edge in Slack
        ("**", "\u2217\u2217"),
        ("\uff0afullwidth\uff0a", "\ufe61fullwidth\ufe61"),
        ("\uff3fx\uff3f \uff40y\uff40", "\u2e0fx\u2e0f \u02cby\u02cb"),
        ("> quoted", SHY + "> quoted"),
        ("  > indented", "  " + SHY + "> indented"),
        ("\uff1e fullwidth quote", SHY + "\uff1e fullwidth quote"),
        ("first\n> second\n>> third", f"first\n{SHY}> second\n{SHY}>> third"),
        ("3 > 2", "3 > 2"),
        ("\u202e*B*\u202c is right", "\u2217B\u2217 is right"),
        ("\u2067\u200fname\u2069", "name"),
    ],
)
def test_neutral_text_cannot_style_quote_or_reorder(said, shown):
    """Markers become look-alikes, a leading quote gets a soft hyphen, bidi controls go."""
    assert neutral(said) == shown


@pytest.mark.parametrize("said", ORDINARY)
def test_ordinary_text_is_kept_exactly(said):
    """Accents, ZWJ emoji, flags, CJK, right-to-left scripts, john_doe: all kept unchanged."""
    assert neutral(said) == said and without_bidi(said) == said


@pytest.mark.parametrize("said", ["*a* _b_ ~c~ `d`", "\u202e>x", "<!channel> *x*"])
def test_escaped_neutral_text_has_no_marker_bidi_control_or_raw_bracket(said):
    """What goes into mrkdwn, escape(neutral(…)), has no marker, no bidi control and no `<`."""
    shown = escape(neutral(said))
    assert not set(shown) & (set(MARKERS) | BIDI_CONTROLS | {"<", ">"})


@pytest.mark.parametrize(
    ("text", "limit", "kept"),
    [
        ("x" * 100, 75, "x" * 74),
        ("ab 👩‍💻 cd", 6, "ab"),  # never half a ZWJ sequence
        ("ab👨‍👩‍👧‍👦cd", 8, "ab"),
        ("ab👍🏽cd", 4, "ab"),  # nor an emoji without its skin tone
        ("ab🇩🇪🇫🇷cd", 6, "ab🇩🇪"),  # nor half a flag
        ("ab🇩🇪🇫🇷cd", 5, "ab🇩🇪"),
        ("cafe\u0301s", 5, "caf"),  # nor a letter without its accent
        ("ab1\ufe0f\u20e3cd", 5, "ab"),  # nor a keycap
        ("a &amp; b", 5, "a"),  # nor an entity
        ("a &lt;b&gt;", 9, "a &lt;b"),
        ("日本語の質問です", 5, "日本語の"),
    ],
)
def test_clip_keeps_within_the_limit_and_whole_characters(text, limit, kept):
    """Clipped text fits the limit, shows it was cut, and never splits a character or entity."""
    clipped = clip(text, limit)
    assert clipped == kept + "…" and len(clipped) <= limit


def test_clip_leaves_short_text_alone():
    """Text within the limit is returned as is."""
    assert clip("short", 75) == "short" and clip("x" * 75, 75) == "x" * 75
