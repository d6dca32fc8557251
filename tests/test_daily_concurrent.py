"""A daily pass over many channels at once: the same questions and ledger as one at a time."""

from __future__ import annotations

import threading
import time

from bot.daily import Daily
from tests.daily_stub import RecordingPoster, berlin, make_daily, utc

CHANNELS = [f"C{n:04d}" for n in range(40)]
TUESDAY_9 = utc(2026, 12, 1, 8, 0)


def scheduled(tmp_path, workers: int) -> Daily:
    daily = make_daily(tmp_path, seed=11)
    daily.workers = workers  # the Daily's default; a pass may also say `workers=`
    for channel in CHANNELS:
        berlin(daily, channel, days="*", window_hours=2)
    return daily


class SlowPoster(RecordingPoster):
    """Each Slack call takes a while; counts how many were in flight at once."""

    def __init__(self) -> None:
        super().__init__()
        self.now = self.most = 0
        self.guard = threading.Lock()

    def post_question(self, post, question, recap) -> str:
        with self.guard:
            self.now += 1
            self.most = max(self.most, self.now)
        time.sleep(0.02)
        with self.guard:
            self.now -= 1
        return super().post_question(post, question, recap)


def test_concurrent_pass_chooses_what_a_serial_pass_chooses(tmp_path):
    """With a seeded tutor, eight workers post each channel the question one worker would."""
    serial, concurrent = RecordingPoster(), SlowPoster()
    scheduled(tmp_path / "one", 1).run_pass(serial, now=TUESDAY_9)
    report = scheduled(tmp_path / "eight", 8).run_pass(concurrent, now=TUESDAY_9)
    chosen = {p.channel: q.id for p, q, _ in serial.posted}
    assert {p.channel: q.id for p, q, _ in concurrent.posted} == chosen
    assert [o.channel for o in report.outcomes] == CHANNELS  # in schedule order
    assert 1 < concurrent.most <= 8


def test_concurrent_passes_still_post_each_channel_once(tmp_path):
    """Two concurrent passes racing over the same channels: one post per channel, one reveal."""
    first = scheduled(tmp_path, 8)
    second = make_daily(tmp_path, seed=11)
    second.workers = 8
    poster = SlowPoster()
    threads = [
        threading.Thread(target=d.run_pass, args=(poster,), kwargs={"now": TUESDAY_9})
        for d in (first, second)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(p.channel for p, _, _ in poster.posted) == CHANNELS
    first.run_pass(poster, now=utc(2026, 12, 1, 11, 0))  # the windows have closed
    second.run_pass(poster, now=utc(2026, 12, 1, 11, 1))
    assert sorted(r.post.channel for r in poster.reveals) == CHANNELS
