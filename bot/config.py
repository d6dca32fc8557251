"""Settings, read once from the environment; every problem names the variable and the fix."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from bot.errors import ConfigError

SLACK_API_DEFAULT = "https://slack.com/api/"
CHANNEL_ID = re.compile(r"[CGD][A-Z0-9]+")  # what Slack calls a channel id


def default_content_root(cwd: Path | None = None) -> Path:
    """The folder holding `knowledge/` and `quizzes/`: the working folder, else the project's."""
    here = cwd or Path.cwd()
    if (here / "knowledge").is_dir():
        return here
    return Path(__file__).resolve().parent.parent


def default_db_path(env: Mapping[str, str]) -> Path:
    """Where the tutor keeps its SQLite file when TUTOR_DB is not set: the user's data folder
    ($XDG_DATA_HOME, else ~/.local/share), so history does not depend on the working folder."""
    data = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "study-tutor" / "tutor.db"


def content_problem(content: Path) -> str | None:
    """What is wrong with TUTOR_CONTENT, or None when it holds a knowledge/ folder."""
    if not content.exists():
        return f"TUTOR_CONTENT folder '{content}' does not exist"
    if not content.is_dir():
        return f"TUTOR_CONTENT '{content}' is a file, not a folder"
    if not (content / "knowledge").is_dir():
        return f"TUTOR_CONTENT folder '{content}' holds no knowledge/ folder"
    return None


@dataclass(frozen=True)
class Settings:
    """Everything the tutor reads from its environment."""

    db_path: Path
    content_root: Path
    bot_token: str = ""
    signing_secret: str = ""
    app_token: str = ""
    api_url: str = SLACK_API_DEFAULT
    port: int = 3000
    admins: tuple[str, ...] = ()
    curator_channel: str = ""  # where new reports are posted (a channel id), if anywhere
    db_is_default: bool = False  # TUTOR_DB not set: the data folder's file (made on first use)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        content = env.get("TUTOR_CONTENT")
        problem = content_problem(Path(content)) if content else None
        if problem:
            raise ConfigError(
                f"{problem}; point it at the folder that holds knowledge/ and quizzes/, or "
                "unset it to use the shipped content"
            )
        port = env.get("PORT", "3000")
        if not port.isdigit():
            raise ConfigError(f"PORT must be a port number, got '{port}'")
        api_url = env.get("SLACK_API_URL") or SLACK_API_DEFAULT
        curators = env.get("TUTOR_CURATOR_CHANNEL", "").strip()
        if curators and not CHANNEL_ID.fullmatch(curators):
            raise ConfigError(
                f"TUTOR_CURATOR_CHANNEL must be a channel id like C0123ABCD, got '{curators}'; "
                "find it at the bottom of the channel's details in Slack"
            )
        return cls(
            db_path=Path(env.get("TUTOR_DB") or default_db_path(env)),
            db_is_default=not env.get("TUTOR_DB"),
            content_root=Path(content) if content else default_content_root(),
            bot_token=env.get("SLACK_BOT_TOKEN", ""),
            signing_secret=env.get("SLACK_SIGNING_SECRET", ""),
            app_token=env.get("SLACK_APP_TOKEN", ""),
            api_url=api_url if api_url.endswith("/") else api_url + "/",
            port=int(port),
            curator_channel=curators,
            admins=tuple(a for a in env.get("TUTOR_ADMINS", "").replace(",", " ").split() if a),
        )

    @property
    def socket_mode(self) -> bool:
        return bool(self.app_token)

    def check_for_slack(self, env: Mapping[str, str] | None = None) -> None:
        """Fail before listening when Slack settings are missing or contradict each other."""
        env = os.environ if env is None else env
        where = "Slack app settings → OAuth & Permissions → Bot User OAuth Token"
        if not self.bot_token:
            raise ConfigError(
                f"SLACK_BOT_TOKEN is not set; copy it from {where} (starts with xoxb-)"
            )
        if not self.bot_token.startswith("xoxb-"):
            raise ConfigError(f"SLACK_BOT_TOKEN must be a bot token starting with xoxb- ({where})")
        if self.app_token and not self.app_token.startswith("xapp-"):
            raise ConfigError(
                "SLACK_APP_TOKEN must be an app-level token starting with xapp-; create one under "
                "Basic Information → App-Level Tokens with the connections:write scope"
            )
        if not self.app_token and not self.signing_secret:
            raise ConfigError(
                "SLACK_SIGNING_SECRET is not set; HTTP mode needs it (Basic Information → App "
                "Credentials → Signing Secret). Or set SLACK_APP_TOKEN to use Socket Mode."
            )
        if env.get("SLACK_CLIENT_ID") and env.get("SLACK_CLIENT_SECRET"):
            raise ConfigError(
                "SLACK_CLIENT_ID and SLACK_CLIENT_SECRET are set, which would switch Slack's "
                "library to multi-workspace OAuth and ignore SLACK_BOT_TOKEN; unset both"
            )
