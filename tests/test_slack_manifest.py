"""manifest.yml creates the app the code expects: command, events, scopes, interactivity."""

from __future__ import annotations

from pathlib import Path

import yaml

from bot.slack.app import COMMAND

MANIFEST = yaml.safe_load((Path(__file__).resolve().parent.parent / "manifest.yml").read_text())


def test_manifest_subscribes_to_exactly_the_events_we_handle():
    """app_mention, message.im, app_home_opened; not message.channels (it would answer twice)."""
    events = set(MANIFEST["settings"]["event_subscriptions"]["bot_events"])
    assert events == {"app_mention", "message.im", "app_home_opened"}


def test_manifest_declares_the_command_scopes_and_socket_mode():
    """/tutor, the scopes those events and replies need, interactivity and Socket Mode on."""
    assert [c["command"] for c in MANIFEST["features"]["slash_commands"]] == [COMMAND]
    scopes = set(MANIFEST["oauth_config"]["scopes"]["bot"])
    assert {"app_mentions:read", "chat:write", "commands", "im:history"} <= scopes
    assert {"files:write", "files:read"} <= scopes  # charts: files_upload_v2, files.info
    assert MANIFEST["settings"]["interactivity"]["is_enabled"] is True
    assert MANIFEST["settings"]["socket_mode_enabled"] is True
    assert MANIFEST["features"]["app_home"]["home_tab_enabled"] is True
