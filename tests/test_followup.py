"""The work after an ack (bot.slack.followup): bounded, and App Home debounced per learner."""

from __future__ import annotations

import threading
import time

from bot.slack.followup import BoundedExecutor, HomeRefresher


def wait_until(check, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        time.sleep(0.005)


def test_a_full_queue_drops_work_instead_of_falling_behind():
    """Two threads, two queue slots: the fifth submission is dropped at once, the rest run."""
    release = threading.Event()
    ran: list[int] = []
    pool = BoundedExecutor(workers=2, queue=2)
    futures = [pool.submit(lambda n=n: (release.wait(60), ran.append(n))) for n in range(5)]
    assert futures[4].cancelled() and pool.dropped == 1
    release.set()
    pool.shutdown(wait=True)
    assert sorted(ran) == [0, 1, 2, 3]


def test_a_slot_frees_when_work_finishes():
    """After the queue drains, new work is taken again."""
    pool = BoundedExecutor(workers=1, queue=0)
    release = threading.Event()
    busy = pool.submit(release.wait, 60)
    assert pool.submit(lambda: 7).cancelled()  # the one slot is taken
    release.set()
    busy.result(timeout=60)
    deadline = time.monotonic() + 30
    later = pool.submit(lambda: 7)
    while later.cancelled() and time.monotonic() < deadline:  # the slot frees just after
        later = pool.submit(lambda: 7)
    assert later.result(timeout=60) == 7


def test_clicks_in_a_row_refresh_home_once():
    """Ten answers by one learner within the delay become one publish."""
    published: list[tuple[str, str]] = []
    homes = HomeRefresher(lambda client, team, user: published.append((team, user)), delay=0.2)
    for _ in range(10):
        assert homes.request(None, team="T1", user="U1")
    wait_until(lambda: published and homes.idle())
    time.sleep(0.3)
    assert published == [("T1", "U1")] and homes.coalesced == 9


def test_past_the_limit_a_refresh_is_skipped_not_queued():
    """With `limit` learners waiting, another learner's refresh is skipped (reported False)."""
    gate = threading.Event()
    homes = HomeRefresher(lambda c, t, u: gate.wait(60), delay=10, limit=2)
    assert homes.request(None, team="T1", user="U1")
    assert homes.request(None, team="T1", user="U2")
    assert not homes.request(None, team="T1", user="U3")
    assert homes.skipped == 1
    gate.set()


def test_a_failing_publish_does_not_stop_the_refresher():
    """One learner's failure is logged; the next learner's Home is still published."""
    published: list[str] = []

    def publish(client, team, user):
        if user == "U1":
            raise RuntimeError("boom")
        published.append(user)

    homes = HomeRefresher(publish, delay=0, workers=1)
    homes.request(None, team="T1", user="U1")
    homes.request(None, team="T1", user="U2")
    wait_until(lambda: published == ["U2"])


def test_a_refresh_gives_way_while_feedback_is_pending():
    """While the after-ack pool has work, a Home refresh waits; it runs once the pool is idle."""
    pool = BoundedExecutor(workers=1, queue=1)
    release = threading.Event()
    published: list[str] = []
    homes = HomeRefresher(lambda c, t, u: published.append(u), busy=pool.busy)
    feedback = pool.submit(release.wait, 60)
    homes.request(None, team="T1", user="U1")
    time.sleep(0.1)
    assert published == [] and pool.busy()
    release.set()
    feedback.result(timeout=60)
    wait_until(lambda: published == ["U1"])
