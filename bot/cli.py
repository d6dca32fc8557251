"""The `tutor` command: chat, ask, check, leaderboard, stats, gaps, eval, serve, daily, schedule.

A thin layer: parse arguments, call the core, print. Domain errors become `Error: …` and exit 1;
anything unexpected becomes a one-line apology (the traceback only with TUTOR_DEBUG=1).
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from importlib import metadata
from pathlib import Path

from bot import replies
from bot.catalog import check_content, coverage_table, load_catalog
from bot.config import CHANNEL_ID, Settings, default_db_path
from bot.conversation import Place, Verb, handle, parse
from bot.daily import LOCAL_CHANNEL
from bot.errors import TutorError
from bot.matching import Lookup
from bot.standings import DEFAULT_PERIOD, PERIODS, Standings
from bot.store import LOCAL_TEAM, DailyStore, Store
from bot.tutor import Tutor

Handler = Callable[[argparse.Namespace, Settings], int]


def now_utc() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def build_tutor(settings: Settings) -> Tutor:
    """The tutor over the checked content (kept between runs while unchanged) and the store."""
    from bot.catalog_cache import cached_catalog

    return Tutor(cached_catalog(settings.content_root), Store(settings.db_path))


def lookup_json(lookup: Lookup) -> dict:
    """The `tutor ask --json` shape, one object per question."""
    best = lookup.best
    answer = None
    if best is not None:
        entry = best.entry
        answer = {
            "id": entry.id,
            "means": entry.means,
            "why": entry.why,
            "topic": entry.topic,
            "section": entry.section,
            "watch_out": [{"id": w.id, "note": w.note} for w in entry.watch_out],
            "sources": list(entry.sources),
            "status": entry.status,
        }
    return {
        "question": lookup.question,
        "answer": answer,
        "confidence": lookup.confidence,
        "alternatives": [
            {"id": m.entry.id, "means": m.entry.means, "confidence": m.confidence}
            for m in lookup.alternatives
        ],
        "named": lookup.named.id if lookup.named else None,
        "unknown": lookup.unknown,
    }


# -- commands ---------------------------------------------------------------------------------


def cmd_ask(args: argparse.Namespace, settings: Settings) -> int:
    tutor = build_tutor(settings)
    if args.question:
        questions: Iterable[str] = [" ".join(args.question)]
    elif args.json:
        questions = (line.rstrip("\n") for line in sys.stdin)
    else:
        raise TutorError('give a question, e.g. tutor ask "which service for no-code training"')
    for question in questions:
        command = parse(question)
        if not args.json and command.verb is Verb.PRACTICE:  # a pasted exam question, whole
            place = Place(LOCAL_TEAM, "cli", LOCAL_CHANNEL, private=True)
            print("\n".join(replies.render(handle(tutor, command, place, now_utc()))))
            continue
        lookup = tutor.ask(question, asker="cli", now=now_utc())
        if args.json:
            print(json.dumps(lookup_json(lookup)), flush=True)
        else:
            print("\n".join(replies.answer_lines(lookup, tutor.entry)))
    return 0


def cmd_check(args: argparse.Namespace, settings: Settings) -> int:
    from bot.item_lint import lint_catalog

    catalog, problems = check_content(settings.content_root)
    lint = None
    if not problems:  # the item-quality lint needs the whole bank loaded
        questions = catalog.questions.questions
        lint = lint_catalog(settings.content_root, questions, catalog.knowledge)
        problems = list(lint.problems)
    for problem in problems:
        print(problem)
    if problems or lint is None:
        print(f"{len(problems)} problem(s) found.", file=sys.stderr)
        return 1
    sections = sorted({e.section for e in catalog.knowledge.entries})
    shares = f" Item lint: {lint.summary()}." if lint.measured else ""
    print(
        f"OK: {len(catalog.knowledge)} knowledge entries and {len(catalog.questions)} questions "
        f"in sections {', '.join(sections)}; no problems.{shares}"
    )
    return 0


def cmd_coverage(args: argparse.Namespace, settings: Settings) -> int:
    print(coverage_table(load_catalog(settings.content_root)))
    return 0


def cmd_leaderboard(args: argparse.Namespace, settings: Settings) -> int:
    tutor = build_tutor(settings)
    team = args.team or (channel_team(tutor.store, args.channel) if args.channel else LOCAL_TEAM)
    board = Standings(tutor.store).board(
        team=team,
        channel=args.channel,
        period=args.period,
        now=instant(args.now),
        limit=args.limit,
    )
    if args.json:
        rows = [
            {
                "rank": r.standing.rank,
                "user": r.standing.user,
                "points": r.standing.points,
                "answered": r.standing.answered,
                "correct": r.standing.correct,
                "accuracy": round(r.standing.accuracy, 4),
                "streak": r.streak,
            }
            for r in board.rows
        ]
        print(json.dumps(rows))
    else:
        print("\n".join(replies.board_lines(board)))
    return 0


def cmd_stats(args: argparse.Namespace, settings: Settings) -> int:
    stats = build_tutor(settings).stats(team=args.team, user=args.user, now=instant(args.now))
    where = "the local chat" if args.team == LOCAL_TEAM else f"workspace {args.team}"
    who = args.user if args.user_given else f"{args.user} (no --user given: {local_user_source()})"
    print(f"{who}, in {where}:")
    if not stats.answered:
        print("  No answers yet: answer a question in tutor chat (quiz) or in Slack (/tutor quiz).")
        return 0
    print("\n".join(f"  {line}" for line in replies.stats_lines(stats)))
    return 0


def local_user_source() -> str:
    return "from $USER" if os.environ.get("USER") else "the default name"


def positive(text: str) -> int:
    """An argparse type: a whole number of at least 1 (`--limit 0` would show nothing)."""
    try:
        number = int(text)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number of at least 1")
    return number


def channel_id(text: str) -> str:
    """An argparse type: a Slack channel id (C…, G… or D…), not a channel's name."""
    if not CHANNEL_ID.fullmatch(text):
        raise argparse.ArgumentTypeError(
            f"'{text}' is not a channel id; give the id (C0123ABCD), shown at the bottom of the "
            "channel's details in Slack"
        )
    return text


def cmd_gaps(args: argparse.Namespace, settings: Settings) -> int:
    rows = Store(settings.db_path).gaps(limit=args.limit)
    if args.json:
        print(json.dumps(rows))
        return 0
    print("\n".join(replies.gaps_lines(rows)))
    return 0


def cmd_flags(args: argparse.Namespace, settings: Settings) -> int:
    """Learners' reports and ratings, grouped by question or answer, newest first."""
    tutor = build_tutor(settings)
    items = tutor.store.flagged(limit=args.limit)
    if args.json:
        rows = [
            {
                "kind": i.kind,
                "item": i.item,
                "name": tutor.subject_name(i.kind, i.item),
                "withdrawn": i.withdrawn,
                "up": i.ups,
                "down": i.downs,
                "reports": [
                    {"id": f.id, "reason": f.reason, "comment": f.comment, "at": f.flagged_at}
                    for f in i.reports
                ],
            }
            for i in items
        ]
        print(json.dumps(rows))
        return 0

    def name_of(kind: str, item: str) -> str:
        return tutor.subject_name(kind, item) or "(no longer in the content)"

    print("\n".join(replies.flags_lines(items, name_of)))
    return 0


def cmd_flags_clear(args: argparse.Namespace, settings: Settings) -> int:
    """A curator dealt with an item: its open flags are cleared, a question rejoins the daily."""
    store = Store(settings.db_path)
    withdrawn = args.item in store.withdrawn_questions()
    cleared = store.clear_flags(args.item, now=now_utc())
    if not cleared:
        raise TutorError(f"'{args.item}' has no open flags; see them with tutor flags")
    back = "; it is back in the daily rotation" if withdrawn else ""
    print(f"Cleared {cleared} flag{'s' if cleared != 1 else ''} on {args.item}{back}.")
    return 0


def cmd_chat(args: argparse.Namespace, settings: Settings) -> int:
    from bot.chat import run_chat

    history = default_db_path(os.environ).parent / "chat_history"
    with contextlib.suppress(OSError):  # history is a comfort: without it the chat still works
        history.parent.mkdir(parents=True, exist_ok=True)
    tutor = build_tutor(settings)
    return run_chat(
        tutor, user=args.user, clock=now_utc, kept_in=kept_in(settings), history=history
    )


def kept_in(settings: Settings) -> str:
    """The chat's start line: where the learner's history is kept, and how to move it."""
    home, where = Path.home(), settings.db_path.absolute()
    if home != Path("/") and where.is_relative_to(home):
        where = Path("~") / where.relative_to(home)
    line = f"Your answers are kept in {where}"
    if not settings.db_is_default:
        return f"{line} (TUTOR_DB)."
    line += " (set TUTOR_DB to use another file)."
    if os.path.isfile("tutor.db"):
        line += " An older tutor.db is in this folder: TUTOR_DB=tutor.db uses it."
    return line


def make_data_folder(settings: Settings) -> None:
    """The default database's folder, made on first use (TUTOR_DB's folder must exist)."""
    try:
        settings.db_path.parent.mkdir(parents=True, exist_ok=True)
    except OSError:
        raise TutorError(
            f"cannot create {settings.db_path.parent} for the database; set TUTOR_DB to a file "
            "in a folder you can write"
        ) from None


def cmd_eval(args: argparse.Namespace, settings: Settings) -> int:
    from bot.evaluation import run_eval

    catalog = load_catalog(settings.content_root)
    if args.calibrate:
        from bot.calibration import report

        print(report(catalog, args.file))
        print(
            "To use them: paste the coefficients as `calibration` in Knobs (bot/matching.py), "
            "then run make eval.",
            file=sys.stderr,
        )
        return 0
    if args.crossval or args.tune:
        return _crossval(catalog.knowledge, tune=args.tune, show=args.worst)
    return run_eval(catalog, args.file, show=args.worst)


def _crossval(knowledge, *, tune: bool, show: int) -> int:
    from bot import crossval

    if tune:
        print("Tuning the ranking knobs by cross-validation (a few minutes; a line per try):")
        knobs, score = crossval.tune(
            knowledge, progress=lambda line: print(f"  {line}", flush=True)
        )
        chosen = ", ".join(f"{name}={getattr(knobs, name)}" for name in crossval.SEARCH)
        print(f"best cross-validated top-1 {score:.1%} with {chosen}")
        return 0
    result = crossval.crossval(knowledge)
    print(f"{result.questions} phrasings, each asked of a matcher built without it (5 folds)")
    print(f"  top-1 {result.top1:.1%}  top-3 {result.top3:.1%}")
    if show:
        print(f"\nphrasings that land elsewhere ({show} most confident):")
        for miss in result.misses[:show]:
            print(f"  {miss.expected}: {miss.phrasing[:80]!r}")
            print(f"      got {miss.got} at {miss.confidence}")
    return 0


def cmd_serve(args: argparse.Namespace, settings: Settings) -> int:
    from bot.slack.serve import serve

    return serve(settings, port=args.port)


# -- the daily quick-check --------------------------------------------------------------------


def channel_team(store: Store, channel: str) -> str:
    """The workspace a channel belongs to, from its schedule or posts (local chat if unknown)."""
    from bot.store import DailyStore

    return DailyStore(store).team_of_channel(channel) or LOCAL_TEAM


def instant(text: str | None) -> dt.datetime:
    """--now as an aware datetime; the real clock when not given."""
    if not text:
        return now_utc()
    try:
        moment = dt.datetime.fromisoformat(text)
    except ValueError:
        raise TutorError(
            f"--now '{text}' is not ISO 8601; write e.g. 2026-12-01T08:00:00Z"
        ) from None
    if moment.tzinfo is None:
        raise TutorError(f"--now '{text}' has no time zone; add Z or an offset like +01:00")
    return moment


def cmd_schedule_add(args: argparse.Namespace, settings: Settings) -> int:
    from bot.daily import Daily
    from bot.schedule import make_schedule, parse_sections

    check_channel(args.channel)
    daily = Daily(build_tutor(settings))
    team, whose = schedule_team(args, settings, daily.store.team_of_channel(args.channel))
    before = daily.schedule(team=team, channel=args.channel)
    schedule = make_schedule(
        team=team,
        channel=args.channel,
        at=args.at,
        tz=args.tz,
        days=args.days,
        window_hours=args.window,
        recap=args.recap,
        sections=parse_sections(args.sections),
    )
    daily.set_schedule(schedule, by="cli", now=now_utc())
    said = replies.schedule_set(schedule)
    if before is not None:
        said = f"{said} (This replaces {replies.schedule_text(before)}.)"
    print(f"{schedule.channel} ({schedule.team}): {said}")
    print(whose)
    return 0


def check_channel(channel: str) -> None:
    """A Slack channel id, not a name: `general` or `#general` would never be posted to."""
    if not CHANNEL_ID.fullmatch(channel):
        raise TutorError(
            f"--channel '{channel}' is not a channel id; give the id (C0123ABCD), shown at the "
            "bottom of the channel's details in Slack"
        )


def schedule_team(
    args: argparse.Namespace, settings: Settings, known: str | None
) -> tuple[str, str]:
    """The workspace a new schedule belongs to, and a line saying where that came from."""
    if args.team:
        return args.team, f"Workspace {args.team} (from --team)."
    if known and known != LOCAL_TEAM:
        return known, f"Workspace {known} (the channel's, from earlier posts or schedules)."
    if settings.bot_token:
        team = workspace_of(settings)
        return team, f"Workspace {team} (from SLACK_BOT_TOKEN)."
    return LOCAL_TEAM, (
        "No SLACK_BOT_TOKEN and no --team, so it is kept for the local workspace: tutor serve "
        "moves it to its own Slack workspace when it starts."
    )


def cmd_schedule_list(args: argparse.Namespace, settings: Settings) -> int:
    from bot.store import DailyStore

    schedules = DailyStore(Store(settings.db_path)).schedules(team=args.team)
    if args.json:
        keys = ("team", "channel", "at", "tz", "days", "window_hours", "recap", "sections")
        print(json.dumps([{k: getattr(s, k) for k in keys} for s in schedules]))
    elif not schedules:
        print("No schedules. Add one with: tutor schedule add --channel C123 --at 09:00 --tz UTC")
    for s in [] if args.json else schedules:
        print(f"{s.channel} ({s.team}): {replies.schedule_text(s)}")
    return 0


def cmd_schedule_remove(args: argparse.Namespace, settings: Settings) -> int:
    from bot.store import DailyStore

    store = DailyStore(Store(settings.db_path))
    team = args.team or store.team_of_channel(args.channel) or ""
    if not store.remove_schedule(team=team, channel=args.channel):
        raise TutorError(f"{args.channel} has no schedule; see them with tutor schedule list")
    print(f"{args.channel}: {replies.schedule_removed(True)}")
    return 0


def cmd_daily(args: argparse.Namespace, settings: Settings) -> int:
    """One pass: reveal what closed, post what is due at --now, then exit (cron can drive it)."""
    from bot.daily import Daily
    from bot.slack.client import web_client
    from bot.slack.poster import SlackPoster, require_bot_token
    from bot.slack.scheduler import DAILY_WORKERS

    require_bot_token(settings)
    daily = Daily(build_tutor(settings))
    adopt_local_schedules(daily.store, workspace_of(settings))
    report = daily.run_pass(
        SlackPoster(web_client(settings)),
        now=instant(args.now),
        team=args.team,
        channel=args.channel,
        workers=DAILY_WORKERS,
    )
    print("\n".join(replies.pass_lines(report)))
    fine = ("posted", "adopted", "taken", "in_flight")
    trouble = report.problems or any(o.status not in fine for o in report.outcomes)
    return 1 if trouble else 0


def adopt_local_schedules(store: DailyStore, team: str) -> None:
    """Schedules added without a token now belong to the token's workspace; say so once."""
    adopted = store.adopt_local_schedules(team)
    if adopted:
        print(f"{adopted} schedule(s) added without a token now belong to workspace {team}.")


def workspace_of(settings: Settings) -> str:
    from bot.slack.poster import workspace_id

    return workspace_id(settings)


def add_daily_commands(sub: argparse._SubParsersAction) -> None:
    """`tutor schedule add|list|remove` and `tutor daily`."""
    schedule = sub.add_parser("schedule", help="daily quick-check schedules per Slack channel")
    actions = schedule.add_subparsers(dest="action", metavar="ACTION", required=True)
    add = actions.add_parser("add", help="post a question to a channel at a local time")
    add.add_argument("--channel", required=True, help="Slack channel id, e.g. C123")
    add.add_argument("--at", required=True, help="local time, HH:MM (e.g. 09:00)")
    add.add_argument("--tz", required=True, help="IANA time zone, e.g. Europe/Berlin")
    add.add_argument("--days", default="mon-fri", help="mon-fri (default), daily, mon,wed,fri")
    add.add_argument(
        "--window", type=int, help="hours a question stays open (default: until the next)"
    )
    add.add_argument("--recap", action="store_true", help="Monday's post recaps last week")
    add.add_argument(
        "--sections", default="", help="only questions from these exam sections, e.g. 3.1,3.2 or 3"
    )
    add.add_argument("--team", help="Slack workspace id (default: looked up with auth.test)")
    add.set_defaults(handler=cmd_schedule_add)
    listing = actions.add_parser("list", help="show every schedule")
    listing.add_argument("--team", help="only this Slack workspace")
    listing.add_argument("--json", action="store_true", help="print a JSON list")
    listing.set_defaults(handler=cmd_schedule_list)
    remove = actions.add_parser("remove", help="stop a channel's daily question")
    remove.add_argument("--channel", required=True, type=channel_id, help="Slack channel id")
    remove.add_argument("--team", help="Slack workspace id (default: the schedule's)")
    remove.set_defaults(handler=cmd_schedule_remove)

    daily = sub.add_parser("daily", help="post every daily question due now, reveal closed ones")
    daily.add_argument("--now", help="the instant to run at, ISO 8601 (default: the clock)")
    daily.add_argument("--team", help="only this Slack workspace")
    daily.add_argument("--channel", type=channel_id, help="only this channel")
    daily.set_defaults(handler=cmd_daily)


# -- wiring ---------------------------------------------------------------------------------


def version_text() -> str:
    try:
        return metadata.version("study-tutor")
    except metadata.PackageNotFoundError:
        return "(not installed: run pip install -e .)"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tutor",
        description="Study Tutor for the Google Cloud Professional ML Engineer exam. "
        "With no command, starts the local chat.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {version_text()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    local_user = os.environ.get("USER") or "you"

    chat = sub.add_parser("chat", help="talk to the tutor in this terminal (the default)")
    chat.add_argument("--user", default=local_user, help="your name on the local leaderboard")
    chat.set_defaults(handler=cmd_chat)

    ask = sub.add_parser("ask", help="answer one question (or, with --json, one per stdin line)")
    ask.add_argument(
        "question", nargs="*", help="the question, e.g. which service for no-code training"
    )
    ask.add_argument("--json", action="store_true", help="print one JSON object per question")
    ask.set_defaults(handler=cmd_ask)

    check = sub.add_parser("check", help="validate every knowledge and quiz file")
    check.set_defaults(handler=cmd_check, uses_db=False)

    coverage = sub.add_parser("coverage", help="print entries and questions per exam section")
    coverage.set_defaults(handler=cmd_coverage, uses_db=False)

    board = sub.add_parser("leaderboard", help="show who is ahead")
    board.add_argument(
        "--period",
        choices=PERIODS,
        default=DEFAULT_PERIOD,
        help="week (from Monday 00:00) or month, in the channel's schedule zone (else UTC); or all",
    )
    board.add_argument(
        "--channel", type=channel_id, help="only answers given in this Slack channel (a team)"
    )
    board.add_argument(
        "--team", help="Slack workspace id (default: the channel's, else the local chat)"
    )
    board.add_argument("--limit", type=positive, default=10, help="how many rows")
    board.add_argument("--json", action="store_true", help="print a JSON list")
    board.add_argument("--now", help="the instant to read the board at, ISO 8601 (default: now)")
    board.set_defaults(handler=cmd_leaderboard)

    stats = sub.add_parser("stats", help="one learner's answered, accuracy, streak, weak topics")
    stats.add_argument("--user", help=f"the learner (default: {local_user}, as in tutor chat)")
    stats.add_argument(
        "--team", default=LOCAL_TEAM, help="Slack workspace id (default: local chat)"
    )
    stats.add_argument("--now", help="the instant to read them at, ISO 8601 (default: now)")
    stats.set_defaults(handler=cmd_stats, default_user=local_user)

    gaps = sub.add_parser(
        "gaps", help="questions the tutor could not answer well, most frequent first"
    )
    gaps.add_argument("--limit", type=positive, default=50, help="how many rows")
    gaps.add_argument("--json", action="store_true", help="print a JSON list")
    gaps.set_defaults(handler=cmd_gaps)

    flags = sub.add_parser(
        "flags", help="learners' reports on questions and answers, for curators; clear ID"
    )
    flags.add_argument("--limit", type=positive, help="how many items (default: all)")
    flags.add_argument("--json", action="store_true", help="print a JSON list")
    flags.set_defaults(handler=cmd_flags)
    flag_actions = flags.add_subparsers(dest="action", metavar="ACTION")
    clear = flag_actions.add_parser("clear", help="mark an item's flags as dealt with")
    clear.add_argument("item", metavar="ID", help="the question or entry id, e.g. q-no-code")
    clear.set_defaults(handler=cmd_flags_clear)

    evaluate = sub.add_parser("eval", help="measure answer quality on the evaluation set")
    evaluate.add_argument(
        "--file",
        action="append",
        help=(
            "evaluation YAML; repeat for more (default: every set in tests/eval except the "
            "*_test.yaml halves, which are measured only when named)"
        ),
    )
    evaluate.add_argument("--worst", type=int, default=15, help="how many misses to list (0: none)")
    evaluate.add_argument(
        "--calibrate",
        action="store_true",
        help="refit the confidence coefficients on the evaluation set and show the result",
    )
    evaluate.add_argument(
        "--crossval",
        action="store_true",
        help="ask each knowledge phrasing of a matcher built without it (no evaluation set)",
    )
    evaluate.add_argument(
        "--tune",
        action="store_true",
        help="search the ranking knobs for the best cross-validated top-1 (takes minutes)",
    )
    evaluate.set_defaults(handler=cmd_eval, uses_db=False)

    serve = sub.add_parser("serve", help="run the Slack app (Socket Mode or HTTP)")
    serve.add_argument("--port", type=int, default=None, help="HTTP port (default: $PORT or 3000)")
    serve.set_defaults(handler=cmd_serve)

    add_daily_commands(sub)

    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if not getattr(args, "handler", None):
        args = build_parser().parse_args(["chat", *(argv or [])])
    if getattr(args, "default_user", None) is not None:  # tutor stats: say whose when not given
        args.user_given = args.user is not None
        args.user = args.user or args.default_user
    try:
        settings = Settings.from_env()
        if settings.db_is_default and getattr(args, "uses_db", True):
            make_data_folder(settings)
        return args.handler(args, settings)
    except TutorError as error:
        print(f"Error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (`tutor eval | head`): nothing left to say
        sys.stderr.close()
        return 0
    except Exception:
        if os.environ.get("TUTOR_DEBUG"):
            raise
        print(
            "Error: something unexpected went wrong. Run again with TUTOR_DEBUG=1 to see details.",
            file=sys.stderr,
        )
        return 2
