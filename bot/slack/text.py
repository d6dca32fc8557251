"""Slack's text rules: `&`, `<` and `>` are control characters in `text` and mrkdwn.

Everything the bot sends goes through `escape`, so no text (a learner's words echoed back, or
content) can become `<!channel>`, `<@U…>` or a disguised `<https://evil|https://bank>` link.
"""

from __future__ import annotations

import re

_USER_ID = re.compile(r"^[UW][A-Z0-9]{2,20}$")


def escape(text: str) -> str:
    """Text shown literally: `&` first, then `<` and `>` (only these three, as Slack asks)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def unescape(text: str) -> str:
    """Slack's wire form back to characters (inbound text arrives escaped)."""
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def mention(user: str) -> str:
    """`<@U…>` for a real user id, the escaped text otherwise (local or odd ids never inject)."""
    return f"<@{user}>" if _USER_ID.match(user) else escape(user)


def clip(text: str, limit: int) -> str:
    """At most `limit` characters, with an ellipsis when cut (button labels: 75)."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
