"""What runs around the handlers: services in context, one delivery per event, lazy guards."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from slack_bolt import BoltContext, BoltResponse

from bot.slack.handlers import Clock, Services, on_error
from bot.store import Store

Next = Callable[[], BoltResponse]


def provide(services: Services) -> Callable[..., BoltResponse]:
    """A middleware putting `services` in context, where handlers ask for it by name."""

    def provide_services(context: BoltContext, next_: Next) -> BoltResponse:
        context["services"] = services
        return next_()

    return provide_services


def once_per_event(store: Store, clock: Clock) -> Callable[..., BoltResponse]:
    """A middleware that answers a retried or doubly delivered event with 200 and nothing else.

    The claim is an insert the database keeps unique (`Store.first_delivery`), so it holds across
    threads, gunicorn workers and Socket Mode connections sharing the file.
    """

    def dedupe_events(body: dict, next_: Next) -> BoltResponse:
        event_id = body.get("event_id")
        if event_id and not store.first_delivery(event_id, clock()):
            return BoltResponse(status=200, body="")
        return next_()

    return dedupe_events


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
