"""The daily question in Slack: SlackPoster (chat.postMessage, chat.update, the history look-up
after a crash) and DisplayNames (users.info, cached).

The core decides what is due and what to say; this module only talks to Slack. Boards in
channels show display names, never `<@U…>`, so nobody is pinged.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from typing import Any

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError, SlackClientError

from bot import replies
from bot.config import Settings
from bot.daily import Recap, Reveal
from bot.errors import ConfigError, NotInChannel, PostFailed
from bot.quiz import Question
from bot.slack import blocks
from bot.slack.client import web_client
from bot.slack.text import neutral
from bot.store import Post

GONE = {"not_in_channel", "channel_not_found", "is_archived", "missing_scope"}
MARK = "study_tutor_daily"  # the metadata event_type on every daily post: how a rerun finds it
HISTORY_LOOKBACK = dt.timedelta(days=2)  # a local date's post is at most a day and a half old
HISTORY_PAGES = 5  # of 200 messages: a channel busier than that in two days is read no further


class DisplayNames:
    """User id → display name through users.info, asked once per user per process."""

    def __init__(self, client: WebClient) -> None:
        self.client = client
        self._seen: dict[str, dict] = {}

    def __deepcopy__(self, memo: dict) -> DisplayNames:
        return self  # shared: bolt deep-copies context for lazy listeners

    def user(self, user: str) -> dict:
        if user not in self._seen:
            try:
                self._seen[user] = self.client.users_info(user=user).get("user") or {}
            except SlackClientError:
                return {}
        return self._seen[user]

    def __call__(self, user: str) -> str:
        found = self.user(user)
        profile = found.get("profile") or {}
        return neutral(
            profile.get("display_name") or found.get("real_name") or found.get("name") or user
        )

    def is_admin(self, user: str, admins: Iterable[str] = ()) -> bool:
        """In TUTOR_ADMINS, or a workspace admin or owner according to users.info."""
        if user in set(admins):
            return True
        found = self.user(user)
        return bool(found.get("is_admin") or found.get("is_owner"))


class SlackPoster:
    """Posts daily questions and reveals with chat.postMessage and chat.update."""

    def __init__(self, client: WebClient, names: DisplayNames | None = None) -> None:
        self.client = client
        self.names = names or DisplayNames(client)

    def post_question(self, post: Post, question: Question, recap: Recap | None) -> str:
        """Post with metadata naming the post id, so a rerun after a crash can find it."""
        message = blocks.question_message(post, question, recap, self.names)
        response = self._call(
            self.client.chat_postMessage,
            channel=post.channel,
            metadata=mark(post),
            **message.as_kwargs(),
        )
        return str(response["ts"])

    def find_posted(self, post: Post) -> str | None:
        """Look in the channel's recent history for the message marked with this post's id.

        Needs channels:history (groups:history for private channels). Missing it is a
        failure, not a "not found": posting again could leave two live copies.
        """
        oldest = dt.datetime.fromisoformat(post.posted_at) - HISTORY_LOOKBACK

        def scan() -> str | None:
            pages = self.client.conversations_history(
                channel=post.channel,
                limit=200,
                oldest=f"{oldest.timestamp():.6f}",
                include_all_metadata=True,
            )
            for page, response in enumerate(pages):  # follows next_cursor
                for message in response.get("messages") or []:
                    if is_marked(message, post):
                        return str(message["ts"])
                if page + 1 >= HISTORY_PAGES:
                    break
            return None

        return self._call(scan, history=True)

    def reveal(self, reveal: Reveal) -> None:
        """Close the post first (safe to repeat), then answer in its thread."""
        post = reveal.post
        closed = blocks.closed_message(post, reveal.question)
        self._call(self.client.chat_update, channel=post.channel, ts=post.ts, **closed.as_kwargs())
        said = blocks.lines(replies.reveal_lines(reveal), bold_first=True)
        self._call(
            self.client.chat_postMessage,
            channel=post.channel,
            thread_ts=post.ts,
            **said.as_kwargs(),
        )

    @staticmethod
    def _call(method: Callable, *, history: bool = False, **kwargs: object) -> Any:
        try:
            return method(**kwargs)
        except SlackApiError as error:
            code = str(error.response.get("error", "")) if error.response else ""
            if history and code == "missing_scope":
                raise PostFailed(
                    "missing_scope: add channels:history and groups:history to the app (see "
                    "manifest.yml) so a rerun can check for a post made before a crash"
                ) from error
            if code in GONE:
                raise NotInChannel(code) from error
            status = error.response.status_code if error.response else 0
            raise PostFailed(code or f"HTTP {status}", unsure=status >= 500) from error
        except (SlackClientError, OSError) as error:  # broke off: Slack may have taken it
            raise PostFailed(type(error).__name__, unsure=True) from error


def mark(post: Post) -> dict:
    """Message metadata naming the daily post (Slack keeps it with the message)."""
    return {"event_type": MARK, "event_payload": {"post_id": post.id, "team": post.team}}


def is_marked(message: dict, post: Post) -> bool:
    metadata = message.get("metadata") or {}
    payload = metadata.get("event_payload") or {}
    return (
        metadata.get("event_type") == MARK
        and payload.get("post_id") == post.id
        and payload.get("team") == post.team
    )


# -- the command line -------------------------------------------------------------------------


def require_bot_token(settings: Settings) -> None:
    if not settings.bot_token.startswith("xoxb-"):
        raise ConfigError(
            "SLACK_BOT_TOKEN is not set to a bot token (xoxb-…); tutor daily posts with it. Copy "
            "it from Slack app settings → OAuth & Permissions → Bot User OAuth Token"
        )


def workspace_id(settings: Settings) -> str:
    """The bot's workspace id (auth.test), for schedules added from the command line."""
    if not settings.bot_token:
        raise ConfigError("give --team T… (the Slack workspace id), or set SLACK_BOT_TOKEN")
    try:
        return str(web_client(settings).auth_test()["team_id"])
    except (SlackClientError, OSError, KeyError) as error:
        raise ConfigError(
            f"could not ask Slack for the workspace id ({type(error).__name__}); give --team T…"
        ) from None
