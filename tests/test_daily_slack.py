"""The daily quick-check's Slack side against the recording stand-in: posts, reveals, commands."""

from __future__ import annotations

import datetime as dt

import pytest
from apscheduler.schedulers.background import BackgroundScheduler
from slack_bolt import BoltRequest
from slack_sdk.models.blocks import Block

from bot import replies
from bot.config import Settings
from bot.slack import handlers
from bot.slack.app import create_app
from bot.slack.blocks import question_message
from bot.slack.handlers import Services, converse
from bot.slack.poster import DisplayNames, SlackPoster
from bot.slack.scheduler import sync_jobs
from tests.daily_stub import TEAM, berlin, make_daily, utc
from tests.slack_stub import SIGNING_SECRET, STUDENT, SlackRequests, sign

TUESDAY_9 = utc(2026, 12, 1, 8, 0)


class FakeUsers:
    """A WebClient stand-in for users.info only: names and admin flags."""

    def __init__(self, users: dict[str, dict]) -> None:
        self.users = users
        self.asked: list[str] = []

    def users_info(self, user: str) -> dict:
        self.asked.append(user)
        return {"ok": True, "user": self.users.get(user, {"name": user})}


def valid(blocks: list[dict]) -> None:
    parsed = Block.parse_all(blocks)
    assert None not in parsed
    for block in parsed:
        block.to_dict()


def test_daily_post_is_a_valid_message_with_buttons_and_no_answer(tmp_path, stub, client):
    """The post goes to C123 with text, valid blocks, one button per choice and no answer leak."""
    daily = make_daily(tmp_path)
    berlin(daily)
    report = daily.run_pass(SlackPoster(client), now=TUESDAY_9)
    (call,) = stub.called("chat.postMessage")
    assert call.body["channel"] == "C123" and call.body["text"]
    blocks = call.body["blocks"]
    valid(blocks)
    assert len(blocks) <= 50
    (actions,) = [b for b in blocks if b["type"] == "actions"]
    assert len(actions["elements"]) == 4
    assert "correct" not in call.text().lower()
    post = daily.tutor.store.post(report.outcomes[0].post_id)
    assert post.ts  # the ts Slack returned is kept for the reveal


@pytest.mark.parametrize("error", ["not_in_channel", "channel_not_found"])
def test_slack_saying_not_in_channel_leaves_the_day_unclaimed(tmp_path, stub, client, error):
    """not_in_channel / channel_not_found: the pass says so and claims nothing."""
    daily = make_daily(tmp_path)
    berlin(daily)
    stub.fail("chat.postMessage", error=error)
    report = daily.run_pass(SlackPoster(client), now=TUESDAY_9)
    assert [(o.status, o.detail) for o in report.outcomes] == [("not_in_channel", error)]
    assert "invite it" in "\n".join(replies.pass_lines(report))
    assert daily.store.db.execute("select count(*) from posts").fetchone()[0] == 0
    daily.run_pass(SlackPoster(client), now=utc(2026, 12, 1, 8, 1))
    assert len(stub.called("chat.postMessage")) == 2  # the refused one, then the real one


def test_reveal_updates_the_post_and_answers_in_its_thread(tmp_path, stub, client):
    """At close: chat.update removes the buttons, and a thread reply gives answer and figures."""
    daily = make_daily(tmp_path)
    berlin(daily, window_hours=4)
    report = daily.run_pass(SlackPoster(client), now=TUESDAY_9)
    post = daily.tutor.store.post(report.outcomes[0].post_id)
    for user, choice in (("U1", "B"), ("U2", "A"), ("U3", "B")):
        daily.tutor.answer(
            post_id=post.id,
            user=user,
            choice=choice,
            now=utc(2026, 12, 1, 9),
            team=post.team,
            channel=post.channel,
        )
    stub.reset()
    daily.run_pass(SlackPoster(client), now=utc(2026, 12, 1, 12, 0))
    (update,) = stub.called("chat.update")
    assert update.body["ts"] == post.ts
    assert not [b for b in update.body["blocks"] if b["type"] == "actions"]
    assert replies.DAILY_CLOSED.split(":")[0] in update.text()
    valid(update.body["blocks"])
    (thread,) = stub.called("chat.postMessage")
    assert thread.body["thread_ts"] == post.ts
    assert "3 people answered" in thread.body["text"]
    assert "a) 1 (33%)" in thread.body["text"] and "b) 2 (67%)" in thread.body["text"]


def services(daily, users: dict | None = None, admins=(), now=TUESDAY_9) -> Services:
    """What the Slack listeners share, over the stand-in for users.info."""
    return Services(daily.tutor, lambda: now, DisplayNames(FakeUsers(users or {})), admins)


def test_admin_can_schedule_and_others_are_refused(tmp_path):
    """TUTOR_ADMINS and workspace admins may schedule; anyone else gets a polite refusal."""
    daily = make_daily(tmp_path)
    shared = services(daily, {"UOWNER": {"is_owner": True}, "UJOE": {"name": "joe"}}, ("UADM",))
    where = {"team": TEAM, "channel": "C9"}
    said = converse("schedule 9:00 Europe/Berlin weekdays", shared, user="UJOE", **where)
    assert said.message.text == replies.NOT_ALLOWED and not said.shared
    assert daily.schedules() == []
    said = converse("schedule 9:00 Europe/Berlin weekdays", shared, user="UOWNER", **where)
    assert said.shared and daily.schedule(team=TEAM, channel="C9").at == "09:00"
    said = converse("schedule 9:00 Berlin", shared, user="UADM", **where)
    assert "time zone" in said.message.text and not said.shared
    said = converse("schedule", shared, user="UJOE", **where)
    assert "Europe/Berlin" in said.message.text
    said = converse("schedule off", shared, user="UADM", **where)
    assert said.shared and daily.schedules() == []


def test_channel_board_names_people_as_mentions_in_a_private_reply(tmp_path, client):
    """`/tutor leaderboard` in a channel: that channel's board, privately, with no users.info."""
    daily = make_daily(tmp_path)
    berlin(daily)
    report = daily.run_pass(SlackPoster(client), now=TUESDAY_9)
    post_id = report.outcomes[0].post_id
    daily.tutor.answer(
        post_id=post_id,
        user="U0ANA",
        choice="B",
        now=utc(2026, 12, 1, 9),
        team=TEAM,
        channel="C123",
    )
    shared = services(daily, {"U0ANA": {"profile": {"display_name": "Ana <3"}}})
    said = converse("leaderboard", shared, team=TEAM, channel="C123", user="U0ANA")
    text = str(said.message.blocks)
    assert "<@U0ANA>" in text and "streak 1" in text and not said.shared
    assert shared.names.client.asked == []  # no Web API call before the ack


def test_teams_leaderboard_links_channels_without_pinging(tmp_path, client):
    """`/tutor leaderboard teams` ranks channels; channel links notify nobody."""
    daily = make_daily(tmp_path)
    berlin(daily, "C123")
    berlin(daily, "C456")
    daily.run_pass(SlackPoster(client), now=TUESDAY_9)
    said = converse("leaderboard teams", services(daily), team=TEAM, channel="C1", user="U1")
    assert "<#C123>" in str(said.message.blocks) and "<#C456>" in str(said.message.blocks)
    assert "<@" not in str(said.message.blocks) and "<!" not in str(said.message.blocks)


def test_only_commands_that_ask_for_an_admin_wait_for_the_lazy_listener():
    """schedule changes and gaps go after the ack (users.info); everything else in the ack."""

    def lazy(text: str) -> bool:
        return handlers.needs_admin({"text": text, "channel_id": "C123"})

    assert lazy("schedule off") and lazy("schedule 09:00 UTC") and lazy("gaps")
    assert not lazy("schedule") and not lazy("leaderboard") and not lazy("leaderboard teams")
    assert not lazy("what is automl") and not lazy("quiz") and not lazy("schedule a job nightly")


def test_monday_recap_message_is_valid(tmp_path, client):
    """A recap adds names and team links above the question, within Block Kit's rules."""
    daily = make_daily(tmp_path)
    berlin(daily, recap=True)
    poster = SlackPoster(client, DisplayNames(FakeUsers({"U1": {"real_name": "Una"}})))
    first = daily.run_pass(poster, now=utc(2026, 12, 4, 8, 0)).outcomes[0]
    daily.tutor.answer(
        post_id=first.post_id,
        user="U1",
        choice="B",
        now=utc(2026, 12, 4, 9),
        team=TEAM,
        channel="C123",
    )
    monday = daily.run_pass(poster, now=utc(2026, 12, 7, 8, 0)).outcomes[0]
    post = daily.tutor.store.post(monday.post_id)
    question = daily.tutor.catalog.questions.get(post.question_id)
    recap = daily.recap(daily.schedule(team=TEAM, channel="C123"), post_date(post))
    message = question_message(post, question, recap, poster.names)
    valid(message.blocks)
    assert "Una" in str(message.blocks) and "<#C123>" in str(message.blocks)


def post_date(post) -> dt.date:
    return dt.date.fromisoformat(post.posted_at[:10])


def test_scheduler_jobs_follow_the_schedules_table(tmp_path, client):
    """sync_jobs makes one zoned cron job per schedule and drops jobs for removed ones."""
    daily = make_daily(tmp_path)
    berlin(daily, "C123")
    berlin(daily, "C456", days="daily")
    scheduler = BackgroundScheduler(timezone=dt.UTC)
    poster = SlackPoster(client)
    sync_jobs(scheduler, daily, poster, lambda: TUESDAY_9)
    jobs = {job.id: job.trigger for job in scheduler.get_jobs()}
    assert sorted(jobs) == [f"daily:{TEAM}:C123", f"daily:{TEAM}:C456"]
    trigger = jobs[f"daily:{TEAM}:C123"]
    assert str(trigger.timezone) == "Europe/Berlin"
    # the cron trigger, not our arithmetic, puts Tuesday 09:00 Berlin at 08:00 UTC
    assert trigger.get_next_fire_time(None, utc(2026, 12, 1, 0, 0)) == utc(2026, 12, 1, 8, 0)
    daily.remove_schedule(team=TEAM, channel="C456")
    sync_jobs(scheduler, daily, poster, lambda: TUESDAY_9)
    assert [job.id for job in scheduler.get_jobs()] == [f"daily:{TEAM}:C123"]


def test_slash_schedule_through_the_bolt_app(tmp_path, stub, client):
    """/tutor schedule from a TUTOR_ADMINS user: empty ack, then an in-channel confirmation."""
    daily = make_daily(tmp_path)
    settings = Settings(
        db_path=tmp_path / "tutor.db",
        content_root=tmp_path / "content",
        bot_token="xoxb-test",
        signing_secret=SIGNING_SECRET,
        api_url=stub.url,
        admins=(STUDENT,),
    )
    app = create_app(settings, daily.tutor, client, clock=lambda: TUESDAY_9)
    slack = SlackRequests("unused", SIGNING_SECRET, response_url=stub.response_url)
    body, content_type = slack.slash("schedule 09:00 Europe/Berlin mon,wed,fri", channel="C123")
    headers = {"content-type": [content_type]} | {
        k.lower(): [v] for k, v in sign(SIGNING_SECRET, body).items()
    }
    response = app.dispatch(BoltRequest(body=body, headers=headers))
    assert response.status == 200 and response.body == ""
    (confirmation,) = stub.wait_for("webhook/", 1)
    assert confirmation.body["response_type"] == "in_channel"
    assert "mon, wed, fri" in confirmation.body["text"]
    assert daily.schedule(team=TEAM, channel="C123").days == "mon,wed,fri"
