"""Slack's text rules: `&`, `<` and `>` are control characters in `text` and mrkdwn.

Everything the bot sends goes through `escape`, so no text (a learner's words echoed back, or
content) can become `<!channel>`, `<@U…>` or a disguised `<https://evil|https://bank>` link.

Escaping is not enough for text a person wrote that others will see (an echoed question, a
display name on a board): bidi controls could reorder the line around it, and mrkdwn has no
escape for `*bold*`, `_italic_`, `~strike~`, `` `code` `` or a leading `>` quote. `without_bidi`
is for `plain_text` objects, which format nothing; `neutral` is for mrkdwn and the `text`
fallback. Both return characters, not Slack's wire form: `escape` still comes last.
"""

from __future__ import annotations

import re
import unicodedata

_USER_ID = re.compile(r"^[UW][A-Z0-9]{2,20}$")

# Embeddings and overrides (U+202A-U+202E), isolates (U+2066-U+2069), and the marks LRM, RLM
# and ALM. Removing them leaves right-to-left scripts intact: their direction is in the letters.
BIDI_CONTROLS = frozenset(
    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
)
_NO_BIDI = str.maketrans(dict.fromkeys(BIDI_CONTROLS))

# mrkdwn markers, and the fullwidth forms Slack also reads, swapped for look-alikes that Slack
# does not read (the same choice as jsx-slack's <Escape>): the word stays readable, never styled.
# A marker between two letters or digits (john_doe, a*b) cannot open or close a style in Slack,
# so it is kept as typed; one next to anything else (a space, the edge, a ZWSP) is swapped.
_LOOK_ALIKE = {
    "*": "\u2217",  # ∗ asterisk operator
    "\uff0a": "\ufe61",  # ＊ → ﹡ small asterisk
    "_": "\u02cd",  # ˍ modifier letter low macron
    "\uff3f": "\u2e0f",  # ＿ → ⸏ paragraphos
    "~": "\u223c",  # ∼ tilde operator
    "`": "\u02cb",  # ˋ modifier letter grave accent
    "\uff40": "\u02cb",  # ｀ → ˋ
}
_MARKER = re.compile(r"(?<![^\W_])[*_~`\uff0a\uff3f\uff40]|[*_~`\uff0a\uff3f\uff40](?![^\W_])")
# A `>` (or `＞`) first on a line starts a quote; an invisible soft hyphen before it does not.
_QUOTE = re.compile(r"^([ \t]*)(?=[>\uff1e])", re.MULTILINE)
_SOFT_HYPHEN = "\u00ad"

_ZWJ = "\u200d"
_ENTITIES = ("&amp;", "&lt;", "&gt;")


def escape(text: str) -> str:
    """Text shown literally: `&` first, then `<` and `>` (only these three, as Slack asks)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def unescape(text: str) -> str:
    """Slack's wire form back to characters (inbound text arrives escaped)."""
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def without_bidi(text: str) -> str:
    """Someone's text that cannot reorder the line it is shown in (for `plain_text` objects)."""
    return text.translate(_NO_BIDI)


def neutral(text: str) -> str:
    """Someone's text (a display name, words echoed) that mrkdwn shows as written: it cannot
    style, quote or reorder. Look-alikes replace markers that could style; escape as usual.
    """
    plain = _MARKER.sub(lambda m: _LOOK_ALIKE[m.group()], without_bidi(text))
    return _QUOTE.sub(r"\1" + _SOFT_HYPHEN, plain)


def mention(user: str) -> str:
    """`<@U…>` for a real user id, the escaped text otherwise (local or odd ids never inject)."""
    return f"<@{user}>" if _USER_ID.match(user) else escape(neutral(user))


def clip(text: str, limit: int) -> str:
    """At most `limit` characters, with an ellipsis when cut (button labels: 75).

    The cut never splits what a reader sees as one character (é as e + accent, 👩‍💻, 🇩🇪) or
    an entity such as `&amp;`, so clipped text stays well formed.
    """
    if len(text) <= limit:
        return text
    cut = _before_entity(text, _grapheme_start(text, limit - 1))
    return text[:cut].rstrip() + "…"


def _grapheme_start(text: str, i: int) -> int:
    """`i`, moved back while text[i] continues the character before it."""
    while 0 < i < len(text) and _continues(text, i):
        i -= 1
    return i


def _continues(text: str, i: int) -> bool:
    char, before = text[i], text[i - 1]
    if _ZWJ in (char, before) or unicodedata.category(char) in ("Mn", "Me", "Mc"):
        return True  # joined emoji; accents, variation selectors, keycaps
    if "\U0001f3fb" <= char <= "\U0001f3ff" or "\U000e0020" <= char <= "\U000e007f":
        return True  # skin tones; the tags of subdivision flags
    if _regional(char):  # flags are pairs of regional indicators: an odd run before is a half
        run = 0
        while i - run - 1 >= 0 and _regional(text[i - run - 1]):
            run += 1
        return run % 2 == 1
    return False


def _regional(char: str) -> bool:
    return "\U0001f1e6" <= char <= "\U0001f1ff"


def _before_entity(text: str, i: int) -> int:
    """`i`, or the start of the `&amp;`, `&lt;` or `&gt;` it would cut through."""
    start = text.rfind("&", max(0, i - 4), i)
    if start != -1 and any(text.startswith(e, start) and start + len(e) > i for e in _ENTITIES):
        return start
    return i
