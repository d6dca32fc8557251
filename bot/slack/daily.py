"""The daily quick-check in Slack: the Poster over WebClient, `/tutor schedule`, team boards,
admin checks and the scheduler that `tutor serve` runs.

The core decides what is due and what to say; this module only talks to Slack. Leaderboards in
channels show display names (users.info, cached), never `<@U…>`, so nobody is pinged.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable, Iterable
from typing import Any

from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.triggers.interval import IntervalTrigger
from slack_bolt import BoltContext, BoltResponse, Respond
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError, SlackClientError

from bot import replies
from bot.commands import parse
from bot.config import Settings
from bot.daily import PERIODS, Daily, PassReport, Recap, Reveal
from bot.errors import ConfigError, NotInChannel, PostFailed, TutorError
from bot.quiz import Question
from bot.schedule import CATCH_UP, parse_schedule
from bot.slack import blocks
from bot.slack.blocks import Message
from bot.slack.text import escape, neutral
from bot.store import Post
from bot.tutor import Tutor

Clock = Callable[[], dt.datetime]
HEADING = replies.DAILY_HEADING
GONE = {"not_in_channel", "channel_not_found", "is_archived", "missing_scope"}
SWEEP_SECONDS = 60  # reveals of --window questions, catch-up after a restart, schedule changes
MARK = "study_tutor_daily"  # the metadata event_type on every daily post: how a rerun finds it
HISTORY_LOOKBACK = dt.timedelta(days=2)  # a local date's post is at most a day and a half old
HISTORY_PAGES = 5  # of 200 messages: a channel busier than that in two days is read no further
log = logging.getLogger("bot.slack.daily")


# -- names ------------------------------------------------------------------------------------


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
    message = blocks.lines(said)
    text = message.text
    for channel in channels:
        text = text.replace(channel_ref(channel), f"#{channel}")
    shown = [
        {**b, "text": {**b["text"], "text": _with_channel_links(b["text"]["text"], channels)}}
        for b in message.blocks
    ]
    return Message(text, shown)


# -- the poster -------------------------------------------------------------------------------


class SlackPoster:
    """Posts daily questions and reveals with chat.postMessage and chat.update."""

    def __init__(self, client: WebClient, names: DisplayNames | None = None) -> None:
        self.client = client
        self.names = names or DisplayNames(client)

    def post_question(self, post: Post, question: Question, recap: Recap | None) -> str:
        """Post with metadata naming the post id, so a rerun after a crash can find it."""
        message = question_message(post, question, recap, self.names)
        response = self._call(
            self.client.chat_postMessage, channel=post.channel, metadata=mark(post),
            **message.as_kwargs(),
        )  # fmt: skip
        return str(response["ts"])

    def find_posted(self, post: Post) -> str | None:
        """Look in the channel's recent history for the message marked with this post's id.

        Needs channels:history (groups:history for private channels). Missing it is a
        failure, not a "not found": posting again could leave two live copies.
        """
        oldest = dt.datetime.fromisoformat(post.posted_at) - HISTORY_LOOKBACK

        def scan() -> str | None:
            pages = self.client.conversations_history(
                channel=post.channel, limit=200, oldest=f"{oldest.timestamp():.6f}",
                include_all_metadata=True,
            )  # fmt: skip
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
        closed = closed_message(post, reveal.question)
        self._call(self.client.chat_update, channel=post.channel, ts=post.ts, **closed.as_kwargs())
        said = blocks.lines(replies.reveal_lines(reveal), bold_first=True)
        self._call(
            self.client.chat_postMessage, channel=post.channel, thread_ts=post.ts,
            **said.as_kwargs(),
        )  # fmt: skip

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


def question_message(
    post: Post, question: Question, recap: Recap | None, names: Callable[[str], str]
) -> Message:
    """The daily post: optional recap, the question with its buttons, and when it closes."""
    message = blocks.question(post.id, question, heading=HEADING)
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


def closed_message(post: Post, question: Question) -> Message:
    """The daily post without its buttons, marked closed."""
    message = blocks.question(post.id, question, heading=HEADING)
    kept = [b for b in message.blocks if b.get("type") != "actions"]
    return Message(message.text, [*kept, _context(escape(replies.DAILY_CLOSED))])


def _context(mrkdwn: str) -> dict:
    return {"type": "context", "elements": [{"type": "mrkdwn", "text": mrkdwn}]}


# -- /tutor schedule and /tutor leaderboard ---------------------------------------------------


def is_daily_command(text: str, *, team: str, channel: str, daily: Daily) -> bool:
    """`schedule …`, `leaderboard teams|everyone`, or `leaderboard` in a scheduled channel."""
    command = parse(text)
    if command.verb == "schedule":
        return True
    if command.verb != "leaderboard":
        return False
    scope = command.arg.lower().split()[:1]
    if scope and scope[0] in ("teams", "everyone", "workspace"):
        return True
    return daily.schedule(team=team, channel=channel) is not None


def daily_reply(
    text: str, daily: Daily, names: DisplayNames, *, team: str, channel: str, user: str,
    admins: Iterable[str], now: dt.datetime,
) -> tuple[Message, bool]:  # fmt: skip
    """The reply to a daily command, and whether the whole channel should see it."""
    command = parse(text)
    if command.verb == "schedule":
        return schedule_reply(command.arg, daily, names, team, channel, user, admins, now)
    words = command.arg.lower().split()
    period = next((w for w in words if w in PERIODS), "week")
    if "teams" in words:
        teams = daily.teams_board(team=team, period=period, now=now)
        said = replies.teams_lines(teams, period, channel_ref)
        return lines_message(said, [t.channel for t in teams]), False
    if "everyone" in words or "workspace" in words:
        board = daily.workspace_board(team=team, period=period, now=now)
        return blocks.lines(replies.workspace_board_lines(board, period, names)), False
    rows = daily.team_board(team=team, channel=channel, period=period, now=now)
    return blocks.lines(replies.team_board_lines(rows, period, names)), False


def schedule_reply(
    arg: str, daily: Daily, names: DisplayNames, team: str, channel: str, user: str,
    admins: Iterable[str], now: dt.datetime,
) -> tuple[Message, bool]:  # fmt: skip
    if not arg.strip():
        return blocks.lines(
            [replies.schedule_shown(daily.schedule(team=team, channel=channel))]
        ), False
    if not names.is_admin(user, admins):
        return blocks.lines([replies.NOT_ADMIN]), False
    if arg.strip().lower() in ("off", "stop", "remove"):
        removed = daily.remove_schedule(team=team, channel=channel)
        return blocks.lines([replies.schedule_removed(removed)]), removed
    try:
        schedule = parse_schedule(arg, team=team, channel=channel)
    except TutorError as error:
        return blocks.lines([str(error)]), False
    daily.set_schedule(schedule, by=user, now=now)
    return blocks.lines([replies.schedule_set(schedule)]), True


def provide_daily(tutor: Tutor, client: WebClient, admins: Iterable[str]) -> Callable:
    """A middleware putting `daily`, `names` and `daily_admins` in context for the handlers."""
    daily, names, admin_ids = Daily(tutor), DisplayNames(client), tuple(admins)

    def provide(context: BoltContext, next_: Callable[[], BoltResponse]) -> BoltResponse:
        context["daily"], context["names"], context["daily_admins"] = daily, names, admin_ids
        return next_()

    return provide


def wants_daily(command: dict, context: BoltContext) -> bool:
    """For the /tutor ack: leave this command to `slash_command` below (it calls Slack)."""
    daily = context.get("daily")
    team = context.team_id or context.enterprise_id or ""
    return daily is not None and is_daily_command(
        command.get("text", ""), team=team, channel=command.get("channel_id", ""), daily=daily
    )


def slash_command(
    command: dict, context: BoltContext, respond: Respond, daily: Daily, names: DisplayNames,
    daily_admins: tuple[str, ...], clock: Clock,
) -> None:  # fmt: skip
    """The lazy half of /tutor for daily commands: admin checks and names need users.info."""
    if not wants_daily(command, context):
        return
    message, public = daily_reply(
        command.get("text", ""), daily, names, team=context.team_id or "",
        channel=command.get("channel_id", ""), user=command["user_id"], admins=daily_admins,
        now=clock(),
    )  # fmt: skip
    respond(**message.as_kwargs(), response_type="in_channel" if public else "ephemeral")


# -- the scheduler ----------------------------------------------------------------------------


def run_pass(daily: Daily, poster: SlackPoster, clock: Clock, **where: str) -> PassReport:
    report = daily.run_pass(poster, now=clock(), **where)
    for line in replies.pass_lines(report):
        log.info("daily: %s", line)
    return report


def start_scheduler(daily: Daily, client: WebClient, clock: Clock) -> BackgroundScheduler:
    """One cron job per schedule (APScheduler does the zones and DST) plus a minute's sweep.

    Every job runs an idempotent pass, so a job firing twice, two servers, or a cron-driven
    `tutor daily` beside this scheduler still post once per channel and local date.
    """
    scheduler = BackgroundScheduler(timezone=dt.UTC)
    poster = SlackPoster(client)

    def sweep() -> None:
        sync_jobs(scheduler, daily, poster, clock)
        run_pass(daily, poster, clock)

    scheduler.add_job(
        sweep, IntervalTrigger(seconds=SWEEP_SECONDS), id="daily-sweep", coalesce=True,
        max_instances=1, next_run_time=clock(),
    )  # fmt: skip
    scheduler.start()
    return scheduler


def sync_jobs(
    scheduler: BackgroundScheduler, daily: Daily, poster: SlackPoster, clock: Clock
) -> None:
    """Make the cron jobs match the schedules table (it changes from Slack and the CLI)."""
    wanted = {f"daily:{s.team}:{s.channel}": s for s in daily.schedules()}
    for job in scheduler.get_jobs():
        if job.id.startswith("daily:") and job.id not in wanted:
            job.remove()
    for job_id, schedule in wanted.items():
        trigger = schedule.trigger()
        existing = scheduler.get_job(job_id)
        if existing is not None and repr(existing.trigger) == repr(trigger):
            continue
        scheduler.add_job(
            run_pass, trigger, args=(daily, poster, clock),
            kwargs={"team": schedule.team, "channel": schedule.channel}, id=job_id,
            replace_existing=True, coalesce=True,
            misfire_grace_time=int(CATCH_UP.total_seconds()),
        )  # fmt: skip


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
    from bot.slack.app import web_client

    try:
        return str(web_client(settings).auth_test()["team_id"])
    except (SlackClientError, OSError, KeyError) as error:
        raise ConfigError(
            f"could not ask Slack for the workspace id ({type(error).__name__}); give --team T…"
        ) from None
