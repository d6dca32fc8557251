"""The daily scheduler `tutor serve` runs: one cron job per schedule plus a minute's sweep."""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable

from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.triggers.interval import IntervalTrigger
from slack_sdk import WebClient

from bot import replies
from bot.daily import Daily, PassReport
from bot.schedule import CATCH_UP
from bot.slack.poster import SlackPoster

Clock = Callable[[], dt.datetime]
# Channels served at once in a pass. Each waits on Slack (about 50 ms a call), not the CPU, so
# 32 keep a 2-core host busy: 10,000 channels' reveals and posts take under two minutes at
# 50 ms a call (bench/scale.py). A channel gets at most two messages a pass (a reveal's reply,
# then its next question, in separate phases), within chat.postMessage's one a second per
# channel with short bursts allowed; a 429 waits out its Retry-After (slack_sdk's retry
# handler, bot.slack.client) and is tried again.
DAILY_WORKERS = 32
SWEEP_SECONDS = 60  # reveals of --window questions, catch-up after a restart, schedule changes
log = logging.getLogger("bot.slack.daily")


def run_pass(daily: Daily, poster: SlackPoster, clock: Clock, **where: str) -> PassReport:
    """One pass, DAILY_WORKERS channels at a time (slack_sdk waits out each 429's Retry-After)."""
    report = daily.run_pass(poster, now=clock(), workers=DAILY_WORKERS, **where)
    busy = report.outcomes or report.revealed or report.problems
    for line in replies.pass_lines(report):  # "Nothing due." every minute is for debugging
        log.log(logging.INFO if busy else logging.DEBUG, "daily: %s", line)
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
        sweep,
        IntervalTrigger(seconds=SWEEP_SECONDS),
        id="daily-sweep",
        coalesce=True,
        max_instances=1,
        next_run_time=clock(),
    )
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
            run_pass,
            trigger,
            args=(daily, poster, clock),
            kwargs={"team": schedule.team, "channel": schedule.channel},
            id=job_id,
            replace_existing=True,
            coalesce=True,
            misfire_grace_time=int(CATCH_UP.total_seconds()),
        )
