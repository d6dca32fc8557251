"""Slack's Web API client, built one way for the app, the scheduler and the command line."""

from __future__ import annotations

from slack_sdk import WebClient
from slack_sdk.http_retry import ConnectionErrorRetryHandler, RateLimitErrorRetryHandler

from bot.config import Settings


def web_client(settings: Settings, *, timeout: int = 30) -> WebClient:
    """Slack's Web API at `settings.api_url`; 429s wait for Retry-After and try again."""
    return WebClient(
        token=settings.bot_token,
        base_url=settings.api_url,
        timeout=timeout,
        retry_handlers=[
            ConnectionErrorRetryHandler(),
            RateLimitErrorRetryHandler(max_retry_count=2),
        ],
    )
