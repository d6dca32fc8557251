"""The work after an ack, bounded: a pool for listeners and a debounced App Home refresher.

The answer is committed before the ack (handlers.answer_click); what follows only talks to
Slack. Two rules keep that work from falling behind a burst of clicks on a 2-core host:

- Listeners run on a `BoundedExecutor`: a fixed number of threads (Slack calls wait on the
  network, not the CPU) and a fixed queue. When the queue is full the work is dropped with a
  warning, not queued for minutes: Slack shows a click's own result anyway, and its retry of an
  event is answered "already".
- App Home is refreshed by a `HomeRefresher`, never by the click's own listener: a learner
  already waiting is not queued twice, so under load their clicks in a row become one publish
  (of the newest figures: the reads happen when the refresh runs); `delay` can hold each
  refresh back to merge more. Past `limit` waiting learners a refresh is skipped (their Home is
  rebuilt when they next open it). Feedback never waits behind a Home refresh: a refresh
  waits while feedback is pending (up to HOME_YIELD), and runs on the refresher's threads.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from typing import Any

log = logging.getLogger(__name__)

# Listeners after the ack mostly wait on Slack (one respond or chat call, 50-100 ms), so the
# threads are many more than the 2 cores: 64 of them allow 300 clicks/s at 200 ms a call.
WORKERS = 64
QUEUE = 1024  # listener runs waiting for a thread; past it, work is dropped (a few s of clicks)
HOME_DELAY = 0.0  # seconds a refresh is held back; waiting in the queue already merges clicks
HOME_LIMIT = 500  # learners whose Home may wait for a refresh at once; more are skipped
HOME_WORKERS = 2  # refreshes at a time: cheap reads, then one views.publish each
HOME_YIELD = 10.0  # seconds a refresh gives way to pending feedback, at most (a burst's length)


class BoundedExecutor(Executor):
    """A thread pool whose queue has a size; `submit` drops the work when it is full."""

    def __init__(self, workers: int = WORKERS, queue: int = QUEUE) -> None:
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="after-ack")
        self._slots = threading.BoundedSemaphore(workers + queue)
        self._lock = threading.Lock()
        self.pending = 0  # submitted and not finished
        self.dropped = 0

    def busy(self) -> bool:
        """Whether work (feedback, replies) is waiting or running: Home refreshes give way."""
        return self.pending > 0

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        if not self._slots.acquire(blocking=False):
            self.dropped += 1
            log.warning("Work after an ack dropped: the queue is full")
            future: Future = Future()
            future.cancel()
            return future
        with self._lock:
            self.pending += 1
        try:
            future = self._pool.submit(fn, *args, **kwargs)
        except BaseException:
            self._done()
            raise
        future.add_done_callback(lambda _: self._done())
        return future

    def _done(self) -> None:
        with self._lock:
            self.pending -= 1
        self._slots.release()

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._pool.shutdown(wait=wait, cancel_futures=cancel_futures)


Publish = Callable[[Any, str, str], None]  # (client, team, user): build and publish one Home


class HomeRefresher:
    """Refresh learners' App Home after their answers, debounced per learner and bounded."""

    def __init__(
        self,
        publish: Publish,
        *,
        delay: float = HOME_DELAY,
        limit: int = HOME_LIMIT,
        workers: int = HOME_WORKERS,
        busy: Callable[[], bool] = lambda: False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """`busy`: whether more urgent work is pending; a refresh then waits (up to HOME_YIELD)."""
        self._publish, self._delay, self._limit, self._clock = publish, delay, limit, clock
        self._busy = busy
        self._waiting: OrderedDict[tuple[str, str], tuple[Any, float]] = OrderedDict()
        self._ready = threading.Condition()
        self._workers = workers
        self._started = False
        self.published = self.coalesced = self.skipped = 0

    def request(self, client: Any, *, team: str, user: str) -> bool:
        """Ask for a refresh; False when it is skipped because too many are waiting."""
        with self._ready:
            key = (team, user)
            if key in self._waiting:
                self.coalesced += 1
                return True
            if len(self._waiting) >= self._limit:
                self.skipped += 1
                return False
            self._waiting[key] = (client, self._clock() + self._delay)
            self._start()
            self._ready.notify()
            return True

    def _start(self) -> None:
        if not self._started:
            self._started = True
            for n in range(self._workers):
                threading.Thread(target=self._run, name=f"home-{n}", daemon=True).start()

    def _run(self) -> None:
        while True:
            with self._ready:
                while not self._waiting:
                    self._ready.wait()
                (team, user), (client, due) = next(iter(self._waiting.items()))
                wait = due - self._clock()
                if wait > 0:  # the oldest request is the first due (one delay for all)
                    self._ready.wait(wait)
                    continue
                del self._waiting[(team, user)]
            self._give_way()
            self._refresh(client, team, user)

    def _give_way(self) -> None:
        """Wait while feedback is pending (feedback first), but no longer than HOME_YIELD."""
        until = self._clock() + HOME_YIELD
        while self._busy() and self._clock() < until:
            time.sleep(0.01)

    def _refresh(self, client: Any, team: str, user: str) -> None:
        try:
            self._publish(client, team, user)
            self.published += 1
        except Exception:  # a thread of its own: log it, keep refreshing the others
            log.exception("Could not refresh App Home")

    def idle(self) -> bool:
        """Nothing waiting (a test's and the benchmark's check)."""
        with self._ready:
            return not self._waiting
