"""The learner's charts in Slack: drawn, uploaded with `files_upload_v2`, shown as image blocks.

A chart is uploaded privately (no channel: only the bot shares it, by referencing it in an
image block) and remembered with a digest of its data (`chart_files`), so an unchanged chart is
not drawn or uploaded again. Slack finishes processing an upload after the call returns, and a
block naming a file still being processed is refused, so `_wait_ready` asks files.info (with a
deadline) until the file has its type. Any failure (no matplotlib, a missing scope, Slack
down) costs the picture only: it is logged, and the words (the alt text) still go out.
"""

from __future__ import annotations

import datetime as dt
import logging
import time

from slack_sdk import WebClient
from slack_sdk.errors import SlackClientError

from bot import charts
from bot.errors import TutorError
from bot.readiness import Readiness, Week
from bot.slack import blocks
from bot.store import Store
from bot.tutor import Stats

READY_WITHIN = 5.0  # seconds to wait for Slack to finish processing an upload
POLL = 0.25
log = logging.getLogger(__name__)


def chart_blocks(
    client: WebClient,
    store: Store,
    now: dt.datetime,
    *,
    team: str,
    user: str,
    stats: Stats,
    fresh: bool = True,
) -> list[dict]:
    """Image blocks for the learner's readiness and progress charts.

    `fresh=False` (App Home refreshed after each answer) reuses the last upload whatever its
    data, so answering does not upload a chart each time; opening Home or asking draws anew.
    """
    if stats.readiness is None or not stats.readiness.answered:
        return []  # nothing to picture yet: the words say "no answers yet"
    wanted = [charts.readiness_chart(stats.readiness)]
    if any(w.answered for w in stats.weeks):
        wanted.append(charts.progress_chart(stats.weeks))
    shown = []
    for chart in wanted:
        found = _file_for(
            client,
            store,
            now,
            team=team,
            user=user,
            chart=chart,
            readiness=stats.readiness,
            weeks=stats.weeks,
            fresh=fresh,
        )
        if found:
            shown.append(blocks.image(found[0], chart.title, found[1]))
        else:
            shown.append(blocks.chart_words(chart.alt))
    return shown


def _file_for(
    client: WebClient,
    store: Store,
    now: dt.datetime,
    *,
    team: str,
    user: str,
    chart: charts.Chart,
    readiness: Readiness,
    weeks: tuple[Week, ...],
    fresh: bool,
) -> tuple[str, str] | None:
    """(file id, the alt text of that picture): the kept upload, or a new one."""
    kept = store.chart_file(team=team, user=user, name=chart.name)
    if kept and (kept[0] == chart.digest or not fresh):
        return kept[1], kept[2]
    try:
        png = charts.draw(chart, readiness, weeks)
        sent = client.files_upload_v2(
            content=png,
            filename=f"{chart.name}.png",
            title=chart.title,
            alt_txt=chart.alt[:1000],
        )
        file_id = str(sent["file"]["id"])
        _wait_ready(client, file_id)
    except (TutorError, SlackClientError, KeyError) as failure:
        log.warning("Could not show the %s chart (%s)", chart.name, type(failure).__name__)
        return None
    store.keep_chart_file(
        team=team,
        user=user,
        name=chart.name,
        digest=chart.digest,
        file_id=file_id,
        alt=chart.alt,
        now=now,
    )
    return file_id, chart.alt


def _wait_ready(client: WebClient, file_id: str) -> None:
    """Until Slack has processed the upload (files.info gives its mimetype), or the deadline."""
    deadline = time.monotonic() + READY_WITHIN
    while time.monotonic() < deadline:
        info = client.files_info(file=file_id)
        if (info.get("file") or {}).get("mimetype"):
            return
        time.sleep(POLL)
