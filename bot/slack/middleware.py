"""What runs around the handlers: services in context, one delivery per event, routing by the
words of a /tutor, lazy guards.

These are bolt `Middleware` objects, not functions: bolt calls a function middleware (or a
listener matcher) through its argument injection, which builds every argument a listener could
ask for (payload views, `say`, `respond` …) on each call; that cost about as much as bare bolt's
whole work for a request (bench/slack_roundtrip.py). An object's `process` gets the request.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from slack_bolt import BoltRequest, BoltResponse
from slack_bolt.middleware import Middleware

from bot.slack.handlers import Clock, Services, on_error
from bot.store import Store

Next = Callable[[], BoltResponse | None]


class Provide(Middleware):
    """A middleware putting `services` in context, where handlers ask for it by name."""

    def __init__(self, services: Services) -> None:
        self._services = services

    def process(self, *, req: BoltRequest, resp: BoltResponse, next: Next) -> BoltResponse | None:
        req.context["services"] = self._services
        return next()


class OncePerEvent(Middleware):
    """A middleware that answers a retried or doubly delivered event with 200 and nothing else.

    The claim is an insert the database keeps unique (`Store.first_delivery`), so it holds across
    threads, gunicorn workers and Socket Mode connections sharing the file.
    """

    def __init__(self, store: Store, clock: Clock) -> None:
        self._store, self._clock = store, clock

    def process(self, *, req: BoltRequest, resp: BoltResponse, next: Next) -> BoltResponse | None:
        event_id = req.body.get("event_id")
        if event_id and not self._store.first_delivery(event_id, self._clock()):
            return BoltResponse(status=200, body="")
        return next()


class Only(Middleware):
    """A listener middleware: the listener takes a /tutor only when `wanted(command)` is true.

    bolt tries the next listener when a listener's middleware does not call `next` and returns
    None (its documented way to filter); unlike a matcher, it is called without the injection.
    """

    def __init__(self, wanted: Callable[[dict], bool]) -> None:
        self._wanted = wanted

    def process(self, *, req: BoltRequest, resp: BoltResponse, next: Next) -> BoltResponse | None:
        return next() if self._wanted(req.body) else None  # a slash command's payload is its body


_ERROR_ARGS = ("body", "logger", "respond", "say")


def guarded(work: Callable[..., None]) -> Callable[..., None]:
    """`work` as a lazy listener whose failures reach `on_error` like everyone else's.

    bolt runs lazy listeners on a thread after the ack and, when one raises, logs a single line
    without the traceback and tells no one (slack_bolt/lazy_listener/internals.py). The wrapper
    asks bolt for `work`'s arguments plus what `on_error` needs (bolt injects by parameter name,
    read from the signature), calls `work`, and hands any exception to `on_error`.
    """
    names = inspect.getfullargspec(work).args
    wanted = [*names, *(n for n in _ERROR_ARGS if n not in names)]

    def run(**given: Any) -> None:
        try:
            work(**{name: given[name] for name in names})
        except Exception as error:
            on_error(error, *(given[n] for n in _ERROR_ARGS))

    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    signature = inspect.Signature([inspect.Parameter(n, kind) for n in wanted])
    vars(run)["__signature__"] = signature  # what inspect.signature (and so bolt) reads
    run.__name__ = run.__qualname__ = work.__name__
    run.__doc__ = work.__doc__
    return run
