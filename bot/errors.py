"""Domain errors. Each message says what is wrong and how to fix it; adapters show it as is."""

from __future__ import annotations

from dataclasses import dataclass


class TutorError(Exception):
    """A problem a person can fix. `str(error)` is the whole message for them."""


class ConfigError(TutorError):
    """A setting is missing or contradicts another one."""


class StoreError(TutorError):
    """The SQLite file cannot be used: a folder, missing, unreadable, or not a database."""


@dataclass(frozen=True)
class Problem:
    """One problem in a content file, shown as `FILE:LINE: message`."""

    file: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"


class FileProblem(Problem):
    """A content file that could not be read at all (a YAML syntax error, not UTF-8 …).

    While one exists, problems that follow from it (entries it held now "unknown") are noise.
    """


class ContentError(TutorError):
    """Content files that do not validate. Carries every problem found, not just the first."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


class NotInChannel(TutorError):
    """The bot cannot post to a channel: it was never invited, or the channel is gone."""


class PostFailed(TutorError):
    """Slack refused or could not take a message; the caller may try again later.

    `unsure` when the call broke off (a timeout, a dropped connection, a 5xx): Slack may have
    posted the message anyway, so the caller must look before posting again.
    """

    def __init__(self, message: str, *, unsure: bool = False) -> None:
        super().__init__(message)
        self.unsure = unsure
