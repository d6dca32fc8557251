"""Every surface shows the same numbers for the same board, period and streak.

One workspace, one scheduled channel, a few days of daily questions and a private quiz; then the
command line, `/tutor leaderboard`, `/tutor stats`, App Home and the local chat are read at the
same instant and must agree.
"""

from __future__ import annotations

import json
import re

import pytest

from bot.chat import respond
from bot.cli import main
from bot.slack.handlers import Services, converse, publish_home
from bot.slack.poster import DisplayNames
from tests.daily_stub import TEAM, RecordingPoster, berlin, make_daily, utc

NOW = utc(2026, 12, 4, 15, 0)  # Friday afternoon, after three days of daily questions
ROW = re.compile(r"(\d+)\. (?:<@)?(\w+)>?\s+(\d+) pt\s+\((\d+)/(\d+), \d+%(?:, streak (\d+))?\)")


@pytest.fixture
def world(tmp_path, monkeypatch):
    """Tuesday to Thursday's daily questions in C123; U1 answers all three, U2 one; U1 also
    takes a private quiz in C123 and U3 one in another channel."""
    daily = make_daily(tmp_path)
    berlin(daily, "C123", days="*")
    poster = RecordingPoster()
    tutor = daily.tutor
    for day in (1, 2, 3):
        daily.run_pass(poster, now=utc(2026, 12, day, 8))
        post, question, _ = poster.posted[-1]
        for user in ("U1", "U2") if day == 3 else ("U1",):
            tutor.answer(
                post_id=post.id,
                user=user,
                choice=question.answer,
                now=utc(2026, 12, day, 9),
                team=TEAM,
                channel="C123",
            )
    for user, channel in (("U1", "C123"), ("U3", "C999")):
        asked = tutor.quiz(team=TEAM, user=user, channel=channel, now=utc(2026, 12, 4, 10))
        wrong = next(x for x in asked.question.letters if x != asked.question.answer)
        tutor.answer(
            post_id=asked.post.id,
            user=user,
            choice=wrong,
            now=utc(2026, 12, 4, 10),
            team=TEAM,
            channel=channel,
        )
    monkeypatch.setenv("TUTOR_DB", str(tmp_path / "tutor.db"))
    monkeypatch.setenv("TUTOR_CONTENT", str(tmp_path / "content"))
    return daily


def cli(capsys, *args: str) -> str:
    assert main([*args, "--now", NOW.isoformat()]) == 0
    return capsys.readouterr().out


def rows(text: str) -> list[tuple]:
    """(rank, user, points, correct, answered, streak) from any rendering of a board."""
    return [
        (int(r), user, int(p), int(c), int(n), int(s or 0))
        for r, user, p, c, n, s in ROW.findall(text)
    ]


def slack(daily, stub_client=None) -> Services:
    return Services(daily.tutor, lambda: NOW, DisplayNames(stub_client))


@pytest.mark.parametrize(
    ("cli_args", "slack_line", "slack_channel"),
    [
        (("--channel", "C123", "--period", "week"), "leaderboard week", "C123"),
        (("--channel", "C123", "--period", "all"), "leaderboard all", "C123"),
        (("--team", TEAM, "--period", "week"), "leaderboard everyone", "C123"),
        (("--team", TEAM, "--period", "month"), "leaderboard month", "D0STUDENT1"),
    ],
)
def test_the_cli_and_slash_leaderboard_show_the_same_board(
    world, capsys, client, cli_args, slack_line, slack_channel
):
    """`tutor leaderboard` and `/tutor leaderboard` agree on rank, points, answers and streak."""
    from_cli = json.loads(cli(capsys, "leaderboard", *cli_args, "--json"))
    said = converse(
        slack_line,
        slack(world, client),
        team=TEAM,
        user="U1",
        channel=slack_channel,
        private=slack_channel.startswith("D"),
    )
    expected = [
        (r["rank"], r["user"], r["points"], r["correct"], r["answered"], r["streak"])
        for r in from_cli
    ]
    assert expected and rows(said.message.text) == expected
    assert rows(cli(capsys, "leaderboard", *cli_args)) == expected


def test_the_channel_board_counts_the_daily_streak(world, capsys):
    """On C123's board U1 has three daily questions in a row and U2 one; quizzes add answers."""
    board = json.loads(cli(capsys, "leaderboard", "--channel", "C123", "--period", "all", "--json"))
    assert [(r["user"], r["points"], r["answered"], r["streak"]) for r in board] == [
        ("U1", 3, 4, 3),
        ("U2", 1, 1, 1),
    ]


def test_stats_agree_on_the_cli_in_slack_and_on_app_home(world, capsys, stub, client):
    """`tutor stats`, `/tutor stats` and App Home show the same answered, correct and streak."""
    from_cli = cli(capsys, "stats", "--team", TEAM, "--user", "U1")
    said = converse("stats", slack(world, client), team=TEAM, user="U1", channel="C123")
    publish_home(client, slack(world, client), team=TEAM, user="U1")
    (home,) = stub.called("views.publish")
    shown = json.dumps(home.body["view"])
    numbers = re.compile(r"Answered (\d+), correct (\d+) \(\d+%\)\.\s+Streak: (\d+) day")
    expected = numbers.search(from_cli).groups()
    assert expected == ("4", "3", "4")  # four days in a row: Tue, Wed, Thu daily, Fri quiz
    assert numbers.search(said.message.text).groups() == expected
    assert numbers.search(shown.replace("\\n", "\n")).groups() == expected


def test_the_local_chat_and_the_cli_show_the_same_board(tmp_path, monkeypatch, capsys):
    """The chat's `leaderboard` is the CLI's local board."""
    daily = make_daily(tmp_path)
    monkeypatch.setenv("TUTOR_DB", str(tmp_path / "tutor.db"))
    monkeypatch.setenv("TUTOR_CONTENT", str(tmp_path / "content"))
    for user in ("ana", "bo"):
        assert respond(daily.tutor, "quiz", user=user, now=NOW)
        letter = "b" if user == "ana" else "a"  # every stub question's answer is B
        respond(daily.tutor, letter, user=user, now=NOW)
    in_chat = rows("\n".join(respond(daily.tutor, "leaderboard", user="ana", now=NOW)))
    from_cli = rows(cli(capsys, "leaderboard"))
    assert in_chat == from_cli == [(1, "ana", 1, 1, 1, 0), (2, "bo", 0, 0, 1, 0)]
