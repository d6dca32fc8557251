"""The daily quick-check core: posting once per local date, reveals, choosing, answer windows."""

from __future__ import annotations

import threading
from collections import Counter

import pytest

from bot.daily import Daily
from bot.errors import NotInChannel, PostFailed
from bot.schedule import make_schedule
from tests.daily_stub import TEAM, RecordingPoster, berlin, make_daily, utc

TUESDAY_9 = utc(2026, 12, 1, 8, 0)  # 09:00 in Berlin


def ledger_rows(daily: Daily) -> list[tuple]:
    sql = "select channel, local_date, ts is not null from posts where kind = 'daily'"
    return daily.store.db.execute(sql).fetchall()


def test_a_due_schedule_posts_one_question(tmp_path):
    """At 09:00 Berlin one question goes to C123 and the ledger holds one posted row."""
    daily = make_daily(tmp_path)
    berlin(daily)
    poster = RecordingPoster()
    report = daily.run_pass(poster, now=TUESDAY_9)
    assert [o.status for o in report.outcomes] == ["posted"]
    assert len(poster.posted) == 1
    assert ledger_rows(daily) == [("C123", "2026-12-01", 1)]


def test_nothing_is_posted_before_the_time(tmp_path):
    """A pass at 08:59 Berlin posts nothing and claims nothing."""
    daily = make_daily(tmp_path)
    berlin(daily)
    poster = RecordingPoster()
    daily.run_pass(poster, now=utc(2026, 12, 1, 7, 59))
    assert poster.posted == [] and ledger_rows(daily) == []


def test_a_second_pass_the_same_day_posts_nothing(tmp_path):
    """Later passes on the same local date (even a fresh Daily, as after a restart) post nothing."""
    berlin(make_daily(tmp_path))
    first, second = RecordingPoster(), RecordingPoster()
    make_daily(tmp_path).run_pass(first, now=TUESDAY_9)
    report = make_daily(tmp_path).run_pass(second, now=utc(2026, 12, 1, 9, 30))
    assert len(first.posted) == 1 and second.posted == []
    assert [o.status for o in report.outcomes] == ["taken"]


def test_concurrent_passes_post_exactly_once(tmp_path):
    """Eight threads running a pass at the same instant post one question between them."""
    berlin(make_daily(tmp_path))
    poster = RecordingPoster()
    start = threading.Barrier(8)

    def one_pass() -> None:
        daily = make_daily(tmp_path)
        start.wait()
        daily.run_pass(poster, now=TUESDAY_9)

    threads = [threading.Thread(target=one_pass) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(poster.posted) == 1
    assert len(ledger_rows(make_daily(tmp_path))) == 1


def test_a_failed_post_releases_the_claim(tmp_path):
    """When Slack fails, the day is not claimed and the next pass posts."""
    daily = make_daily(tmp_path)
    berlin(daily)
    report = daily.run_pass(RecordingPoster(fail=PostFailed("ratelimited")), now=TUESDAY_9)
    assert [o.status for o in report.outcomes] == ["failed"]
    assert ledger_rows(daily) == []
    poster = RecordingPoster()
    daily.run_pass(poster, now=utc(2026, 12, 1, 8, 1))
    assert len(poster.posted) == 1


def test_not_in_channel_is_reported_and_not_claimed(tmp_path):
    """A channel the bot is not in is named in the report and left unclaimed."""
    daily = make_daily(tmp_path)
    berlin(daily)
    report = daily.run_pass(RecordingPoster(fail=NotInChannel("not_in_channel")), now=TUESDAY_9)
    assert [(o.channel, o.status) for o in report.outcomes] == [("C123", "not_in_channel")]
    assert ledger_rows(daily) == []


def test_a_crash_inside_the_poster_keeps_the_claim_for_the_next_pass_to_check(tmp_path):
    """An unexpected error keeps the claim with its lease run out: the next pass looks first."""
    daily = make_daily(tmp_path)
    berlin(daily)
    with pytest.raises(RuntimeError):
        daily.run_pass(RecordingPoster(fail=RuntimeError("boom")), now=TUESDAY_9)
    assert ledger_rows(daily) == [("C123", "2026-12-01", 0)]
    poster = RecordingPoster()
    report = daily.run_pass(poster, now=utc(2026, 12, 1, 8, 1))
    assert [o.status for o in report.outcomes] == ["posted"] and len(poster.posted) == 1


def test_a_post_slack_took_before_the_process_died_is_adopted_not_posted_again(tmp_path):
    """As after kill -9 between Slack's ok and the ledger: in flight, then adopted, once."""
    daily = make_daily(tmp_path)
    berlin(daily, window_hours=4)
    claim = claim_tuesday(daily, closes_at=utc(2026, 12, 1, 12))
    slack = RecordingPoster()  # stands for the channel: it remembers what was posted
    post = daily.tutor.store.post(claim.post_id)
    slack.post_question(post, daily.tutor.catalog.questions.get(post.question_id), None)
    soon = daily.run_pass(slack, now=utc(2026, 12, 1, 8, 1)).outcomes
    assert [(o.status, o.detail) for o in soon] == [("in_flight", "2026-12-01T08:00:00+00:00")]
    later = daily.run_pass(slack, now=utc(2026, 12, 1, 8, 16)).outcomes
    assert [(o.status, o.post_id) for o in later] == [("adopted", claim.post_id)]
    assert daily.tutor.store.post(claim.post_id).ts == "1764576000.000001"
    daily.run_pass(slack, now=utc(2026, 12, 1, 12, 0))
    assert [r.post.ts for r in slack.reveals] == ["1764576000.000001"]  # closed and revealed
    assert len(slack.posted) == 1


def test_a_crash_after_slack_took_the_post_is_adopted_by_the_next_pass(tmp_path):
    """An exception after Slack's ok (inside the process): the next pass adopts, no second post."""
    daily = make_daily(tmp_path)
    berlin(daily)
    slack = RecordingPoster(crash_after=KeyboardInterrupt())
    with pytest.raises(KeyboardInterrupt):
        daily.run_pass(slack, now=TUESDAY_9)
    again = daily.run_pass(slack, now=utc(2026, 12, 1, 8, 1)).outcomes
    assert [o.status for o in again] == ["adopted"] and len(slack.posted) == 1


def test_a_post_that_broke_off_is_looked_for_before_posting_again(tmp_path):
    """A timeout after Slack took the message: the claim stays, the next pass adopts it."""
    daily = make_daily(tmp_path)
    berlin(daily)
    slack = RecordingPoster(crash_after=PostFailed("ReadTimeout", unsure=True))
    first = daily.run_pass(slack, now=TUESDAY_9).outcomes
    assert [o.status for o in first] == ["failed"]
    second = daily.run_pass(slack, now=utc(2026, 12, 1, 8, 1)).outcomes
    assert [o.status for o in second] == ["adopted"] and len(slack.posted) == 1


def claim_tuesday(daily, *, closes_at):
    """C123's claim for Tuesday, as a run that then died would have left it (no message ts)."""
    question = daily.next_question(team=TEAM, channel="C123")
    return daily.store.claim(
        team=TEAM,
        channel="C123",
        local_date=TUESDAY_9.date(),
        question_id=question.id,
        section=question.section,
        topic=question.topic,
        now=TUESDAY_9,
        closes_at=closes_at,
    )


def test_a_stale_claim_is_taken_over_after_the_lease(tmp_path):
    """A claim left by a process that died before posting is retried after 15 minutes."""
    daily = make_daily(tmp_path)
    berlin(daily)
    claimed = claim_tuesday(daily, closes_at=utc(2026, 12, 2))
    assert claimed is not None
    soon, later = RecordingPoster(), RecordingPoster()
    daily.run_pass(soon, now=utc(2026, 12, 1, 8, 10))
    daily.run_pass(later, now=utc(2026, 12, 1, 8, 16))
    assert soon.posted == []
    assert [p.id for p, _, _ in later.posted] == [claimed.post_id] and claimed.stale is False


def test_each_channel_gets_its_own_post(tmp_path):
    """Two scheduled channels each get one question."""
    daily = make_daily(tmp_path)
    berlin(daily, "C123")
    berlin(daily, "C456")
    poster = RecordingPoster()
    daily.run_pass(poster, now=TUESDAY_9)
    assert sorted(p.channel for p, _, _ in poster.posted) == ["C123", "C456"]


def test_no_repeats_until_the_pool_is_used_up_and_sections_balance(tmp_path):
    """Six weekdays of posts use all six questions, two per section."""
    daily = make_daily(tmp_path)
    berlin(daily, days="*")
    poster = RecordingPoster()
    for day in range(1, 7):
        daily.run_pass(poster, now=utc(2026, 12, day, 8, 0))
    ids = [q.id for _, q, _ in poster.posted]
    assert len(ids) == len(set(ids)) == 6
    assert Counter(q.section for _, q, _ in poster.posted) == {"3.1": 2, "3.2": 2, "3.3": 2}


def test_the_team_weakest_section_comes_first(tmp_path):
    """After a round where 3.3 was answered wrong, the next round starts with 3.3."""
    daily = make_daily(tmp_path)
    berlin(daily, days="*")
    poster = RecordingPoster()
    for day in range(1, 4):
        daily.run_pass(poster, now=utc(2026, 12, day, 8, 0))
        post, question, _ = poster.posted[-1]
        choice = "A" if question.section == "3.3" else "B"
        daily.tutor.answer(
            post_id=post.id,
            user="U1",
            choice=choice,
            now=utc(2026, 12, day, 9),
            team=TEAM,
            channel=post.channel,
        )
    assert sorted(q.section for _, q, _ in poster.posted) == ["3.1", "3.2", "3.3"]
    daily.run_pass(poster, now=utc(2026, 12, 4, 8, 0))
    assert poster.posted[-1][1].section == "3.3"


def test_the_question_closes_at_the_next_post_and_late_clicks_record_nothing(tmp_path):
    """Tuesday's question closes at Wednesday 09:00 Berlin; a click after that is 'closed'."""
    daily = make_daily(tmp_path)
    berlin(daily)
    poster = RecordingPoster()
    daily.run_pass(poster, now=TUESDAY_9)
    post = poster.posted[0][0]
    assert post.closes_at == "2026-12-02T08:00:00+00:00"
    late = daily.tutor.answer(
        post_id=post.id,
        user="U1",
        choice="B",
        now=utc(2026, 12, 2, 8, 0),
        team=TEAM,
        channel=post.channel,
    )
    assert late.status == "closed"
    assert daily.store.choice_counts(post.id) == {}


def test_reveal_happens_once_when_the_window_closes_with_matching_figures(tmp_path):
    """Wednesday's pass reveals Tuesday's post once, with counts equal to the answers table."""
    daily = make_daily(tmp_path)
    berlin(daily)
    poster = RecordingPoster()
    daily.run_pass(poster, now=TUESDAY_9)
    post, question = poster.posted[0][:2]
    choices = {"U1": "B", "U2": "B", "U3": "A", "U4": "C", "U5": "A", "U6": "B"}
    for user, choice in choices.items():
        daily.tutor.answer(
            post_id=post.id,
            user=user,
            choice=choice,
            now=utc(2026, 12, 1, 10),
            team=TEAM,
            channel=post.channel,
        )
    assert daily.run_pass(poster, now=utc(2026, 12, 1, 23)).revealed == ()
    daily.run_pass(poster, now=utc(2026, 12, 2, 8, 0))
    daily.run_pass(poster, now=utc(2026, 12, 2, 9, 0))
    assert len(poster.reveals) == 1
    reveal = poster.reveals[0]
    stored = dict(
        daily.store.db.execute(
            "select choice, count(*) from answers where post_id = ? group by choice", [post.id]
        ).fetchall()
    )
    assert reveal.counts == {"A": stored["A"], "B": stored["B"], "C": stored["C"], "D": 0}
    assert reveal.total == 6
    assert reveal.popular_wrong == "A"
    assert round(reveal.share("B"), 2) == 0.5
    assert question.answer == "B"


def test_a_failed_reveal_is_retried(tmp_path):
    """If the reveal cannot be posted, the next pass reveals it."""
    daily = make_daily(tmp_path)
    berlin(daily, window_hours=2)
    poster = RecordingPoster()
    daily.run_pass(poster, now=TUESDAY_9)
    broken = RecordingPoster(fail=PostFailed("timeout"))
    report = daily.run_pass(broken, now=utc(2026, 12, 1, 10, 0))
    assert report.problems and broken.reveals == []
    daily.run_pass(poster, now=utc(2026, 12, 1, 10, 1))
    assert len(poster.reveals) == 1


def test_hundred_threads_answering_one_post_record_hundred_answers(tmp_path):
    """100 users answering one daily post at once through Tutor.answer: 100 rows, none doubled."""
    daily = make_daily(tmp_path)
    berlin(daily)
    poster = RecordingPoster()
    daily.run_pass(poster, now=TUESDAY_9)
    post_id = poster.posted[0][0].id
    start = threading.Barrier(100)
    statuses: list[str] = []

    def click(n: int) -> None:
        start.wait()
        graded = daily.tutor.answer(
            post_id=post_id,
            user=f"U{n:03d}",
            choice="ABCD"[n % 4],
            now=utc(2026, 12, 1, 9),
            team=TEAM,
            channel="C123",
        )
        statuses.append(graded.status)
        daily.tutor.answer(
            post_id=post_id,
            user=f"U{n:03d}",
            choice="A",
            now=utc(2026, 12, 1, 9),
            team=TEAM,
            channel="C123",
        )

    threads = [threading.Thread(target=click, args=(n,)) for n in range(100)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses == ["recorded"] * 100
    assert daily.store.choice_counts(post_id) == {"A": 25, "B": 25, "C": 25, "D": 25}


def test_only_daily_questions_of_this_channel_count_as_asked(tmp_path):
    """A post in C456 does not use up C123's pool."""
    daily = make_daily(tmp_path)
    berlin(daily, "C456")
    poster = RecordingPoster()
    daily.run_pass(poster, now=TUESDAY_9)
    assert daily.store.daily_question_ids(team=TEAM, channel="C123") == []
    assert len(daily.store.daily_question_ids(team=TEAM, channel="C456")) == 1


def test_the_repeated_hour_at_fall_back_posts_once(tmp_path):
    """02:30 Berlin happens twice on 25 October 2026; passes at both instants post once."""
    daily = make_daily(tmp_path)
    daily.set_schedule(
        make_schedule(team=TEAM, channel="C123", at="02:30", tz="Europe/Berlin", days="*"),
        by="U0ADMIN",
        now=utc(2026, 10, 1),
    )
    poster = RecordingPoster()
    for moment in (utc(2026, 10, 25, 0, 30), utc(2026, 10, 25, 1, 30)):
        daily.run_pass(poster, now=moment)
    assert len(poster.posted) == 1
    assert ledger_rows(daily) == [("C123", "2026-10-25", 1)]


def test_a_stale_claim_posted_afresh_closes_by_its_own_window(tmp_path):
    """Nothing of a dead run's claim reached Slack: the new post's window starts when it posts."""
    daily = make_daily(tmp_path)
    berlin(daily, window_hours=4)
    claim_tuesday(daily, closes_at=utc(2026, 12, 1, 12))
    poster = RecordingPoster()
    report = daily.run_pass(poster, now=utc(2026, 12, 1, 8, 20))
    assert [(o.channel, o.status) for o in report.outcomes] == [("C123", "posted")]
    (posted, _, _) = poster.posted[0]
    assert posted.closes_at == "2026-12-01T12:20:00+00:00"  # what the message says
    assert daily.tutor.store.post(posted.id).closes_at == posted.closes_at


def test_a_rerun_names_the_channel_whose_post_is_in_flight(tmp_path):
    """The in-flight outcome says which channel and date, and which post holds them."""
    daily = make_daily(tmp_path)
    berlin(daily)
    claim = claim_tuesday(daily, closes_at=utc(2026, 12, 2))
    (outcome,) = daily.run_pass(RecordingPoster(), now=utc(2026, 12, 1, 8, 5)).outcomes
    assert (outcome.channel, outcome.local_date, outcome.status, outcome.post_id) == (
        "C123",
        TUESDAY_9.date(),
        "in_flight",
        claim.post_id,
    )


def test_a_channel_limited_to_a_section_only_gets_that_sections_questions(tmp_path):
    """`/tutor schedule 09:00 Europe/Berlin daily 3.2` posts only 3.2 questions, every day."""
    daily = make_daily(tmp_path)
    berlin(daily, days="*", sections=("3.2",))
    poster = RecordingPoster()
    for day in range(1, 6):
        daily.run_pass(poster, now=utc(2026, 12, day, 8, 0))
    assert len(poster.posted) == 5
    assert {q.section for _, q, _ in poster.posted} == {"3.2"}
