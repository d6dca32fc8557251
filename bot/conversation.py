"""The conversation: what a line means, and what the tutor does about it.

This is the one place commands are decided. A line is a command only when it is the command word
alone, or with arguments in that command's shape (`leaderboard week`, `schedule 09:00 UTC`,
`daily b`); anything else is a question. `handle` takes the command, who asks, where and when,
and returns a result value; the chat, `/tutor`, DMs and mentions only render it
(`bot.replies.render` as text, `bot.slack.blocks.render` as Block Kit).

Adding a command: a `Verb`, its shape in `SHAPES`, its line in `USAGE`, a handler in `HANDLERS`
returning a result (a new result class if none fits), and its rendering in `bot.replies`.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from importlib import metadata

from bot.daily import LOCAL_CHANNEL, LOCAL_SCHEDULE, Daily, Recap, Reveal
from bot.errors import TutorError
from bot.knowledge import KnowledgeBase
from bot.matching import Lookup, clean
from bot.mock import DEFAULT_SIZE, MockResult
from bot.mock_exams import MockExams
from bot.plan import OFF_WORDS, Plan, parse_exam_date
from bot.practice import Practice, split_choices
from bot.quiz import Question
from bot.schedule import Schedule, parse_schedule
from bot.standings import PERIODS, Board, Period, Standings, TeamsBoard
from bot.store import LOCAL_TEAM, Post, stamp
from bot.store.flags import FlagKind
from bot.tutor import Asked, Graded, Reported, Stats, Tutor


class Verb(StrEnum):
    ASK = "ask"
    PRACTICE = "practice"
    QUIZ = "quiz"
    ANSWER = "answer"
    LEADERBOARD = "leaderboard"
    STATS = "stats"
    DAILY = "daily"
    SCHEDULE = "schedule"
    GAPS = "gaps"
    READY = "ready"
    EXAM = "exam"
    MOCK = "mock"
    MORE = "more"
    REPORT = "report"
    VERSION = "version"
    HELP = "help"
    HELLO = "hello"  # greetings, thanks and "what can you do?": a short reply with a pointer
    QUIT = "quit"


@dataclass(frozen=True)
class Command:
    """What the learner wants (`verb`) and the rest of their text (`arg`)."""

    verb: Verb
    arg: str = ""

    @property
    def needs_admin(self) -> bool:
        """Answering asks whether the person is an admin (in Slack that is a users.info call)."""
        return (self.verb is Verb.SCHEDULE and bool(self.arg)) or self.verb is Verb.GAPS


_LETTER = r"[a-e1-5]"
_COPIED_CHOICE = re.compile(r"\(?([a-e])[).] \S.*")
# How people answer in words: "answer b", "option b", "i think its d", "my answer is c".
_ANSWER_WORDS = (
    r"(?:(?:i think|i guess|i'd say|i'll go with|i go with|going with|i pick|i choose|"
    r"maybe|probably|my answer is|my answer|the answer is|answer is|answer|option|choice|pick)"
    r"(?: (?:it's|its|it is|is))? )?"
)
# "leaderboard yesterday": a board with a period it does not have, answered with the ones it has
# (a longer line, or one going on with "of", "for" …, stays a question).
_NOT_A_PERIOD = r"(?: (?!(?:of|for|in|on|about|with|and|vs)\b)[a-z]+){1,2}"
_THANKS = r"(?:thanks|thank you|thank u|thx|ty|cheers|great|cool|nice|perfect|ok|okay)"
_SYMBOLS = {"So", "Sk", "Mn", "Cf"}  # emoji, their modifiers and joiners
_SMALL_TALK = (
    r"(?:hi|hello|hey|hiya|howdy|yo|good (?:morning|afternoon|evening)|morning)(?: there| tutor)?"
    rf"|({_THANKS}(?: (?:a lot|so much|very much|again|tutor))?)"
    r"|what can you do|what do you do|what are you|who are you|how does this work"
    r"|how do i use this|what is this"
)
_PERIOD_OR_SCOPE = r"(?:week|month|all|teams|everyone|workspace)"
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*"
_EXAM_ARG = rf"{'|'.join(OFF_WORDS)}|\d\S*(?: {_MONTH}(?: \d{{4}})?)?|{_MONTH} \d\S*(?: \d{{4}})?"
# Each command's whole-line shape, tried in order on the line in lower case without a trailing
# `!`, `.` or `?`. Group 1, when there is one, is the argument.
SHAPES: tuple[tuple[Verb, re.Pattern[str]], ...] = tuple(
    (verb, re.compile(pattern))
    for verb, pattern in (
        (Verb.ANSWER, rf"{_ANSWER_WORDS}\(?({_LETTER})[).:]?(?: please)?"),
        (Verb.QUIZ, r"quiz(?: me)?"),
        (
            Verb.LEADERBOARD,
            rf"(?:leaderboard|leaders|lb)((?: {_PERIOD_OR_SCOPE})*|{_NOT_A_PERIOD})",
        ),
        (Verb.STATS, r"(?:stats|me|my stats)"),
        (Verb.DAILY, rf"daily(?: (board|leaderboard|{_LETTER}))?"),
        (Verb.SCHEDULE, r"schedule(?: (off|stop|remove|\d{1,2}:\d{2}(?: \S+)+))?"),
        (Verb.GAPS, r"gaps"),
        (Verb.READY, r"(?:ready|readiness|am i ready(?: for (?:the|my) exam)?)"),
        (Verb.EXAM, rf"(?:my )?exam(?: date)?(?: (?:is )?(?:on )?({_EXAM_ARG}))?"),
        (Verb.MORE, r"(?:more|tell me more)"),
        (Verb.MOCK, r"mock(?: exam)?((?: (?:\d{1,4}|timed|resume|continue|discard|stop))*)"),
        (Verb.REPORT, r"report(?::?\s+(.+))?"),
        (Verb.VERSION, r"version"),
        (Verb.HELP, r"(?:help|commands|\?)"),
        (Verb.QUIT, r"(?:quit|exit|bye)"),
        (Verb.HELLO, _SMALL_TALK),
    )
)
_ASK = re.compile(r"ask\s+(.+)", re.DOTALL)

# The help: every command, in the order people need them (rendered by `bot.replies`).
USAGE: tuple[tuple[str, str], ...] = (
    ("<your question>", 'which service or technique fits a need, e.g. "no-code training?"'),
    ("<practice question + A-D choices>", "paste an exam-style question: which choice fits, why"),
    ("quiz", "a quick-check question; answer it with a, b, c, d (or 1-4)"),
    ("more", "the rest of the feedback on your last answer: other choices, source"),
    ("mock [N] [timed]", "a mock exam of N questions (20), scored at the end; resume, discard"),
    ("leaderboard [week|month|all]", "this channel's board (in a DM, everyone's); week first"),
    ("leaderboard teams", "channels ranked by accuracy × participation"),
    ("leaderboard everyone", "everyone in the workspace"),
    ("stats", "your answers, accuracy, days in a row and weakest topics"),
    ("daily [a-d|board]", "today's team question here: see it, answer it, its board"),
    ("schedule [off]", "this channel's daily question; admins: schedule 09:00 UTC weekdays"),
    ("ready", "how ready you are for the exam, section by section"),
    ("exam [YYYY-MM-DD|off]", "your exam date: a countdown and each day's suggested work"),
    ("gaps", "questions I could not answer well (admins)"),
    ("report <what is wrong>", "tell the curators the last answer or question is wrong or unclear"),
    ("version", "which Study Tutor this is"),
    ("help", "this list"),
)


def parse(text: str) -> Command:
    """'quiz' → quiz; 'b' → answer b; 'leaderboard week' → leaderboard; anything else → ask.

    Mentions of the bot are ignored, so `<@U0BOT> quiz` is a quiz; a command word inside a
    longer question ("daily retraining pipeline for my model") leaves it a question.
    """
    line = " ".join(clean(text).split())
    if not line:
        return Command(Verb.HELP)
    shape = line.lower().lstrip("/")
    shape = shape if shape == "?" else shape.rstrip("!.?")
    if len(shape) <= 40:  # "thx 🙏", "ok 👍": emoji and symbols around short words do not count
        bare = "".join(" " if unicodedata.category(c) in _SYMBOLS else c for c in shape)
        shape = " ".join(bare.split()).rstrip("!.?") or shape
    for verb, pattern in SHAPES:
        found = pattern.fullmatch(shape)
        if found:
            arg = (found.group(1) or "").strip() if pattern.groups else ""
            if verb is Verb.SCHEDULE and arg and arg[0].isdigit():
                arg = line.split(" ", 1)[1]  # keep the zone's capitals: Europe/Berlin
            if verb is Verb.REPORT and arg:
                arg = line.split(" ", 1)[1]  # the reporter's words as written
            return Command(verb, arg)
    copied = _COPIED_CHOICE.fullmatch(line.lower())
    if copied and not line.endswith("?"):
        # a choice's whole line typed back ("B) Set scaleType to UNIT_LOG_SCALE") answers with
        # its letter; a question that starts with a letter ("a) what is automl?") stays one
        return Command(Verb.ANSWER, copied.group(1))
    pasted = _practice_text(text)
    if pasted:
        return Command(Verb.PRACTICE, pasted)
    asked = _ASK.fullmatch(line)
    if asked:
        return Command(Verb.ASK, asked.group(1).strip())
    if shape == "ask":
        return Command(Verb.HELP)
    return Command(Verb.ASK, line)


def _practice_text(text: str) -> str:
    """A pasted exam-style question (a stem, then lettered or numbered choices), its lines kept
    and a leading mention or "ask" dropped; "" for anything else."""
    if not _CHOICE_MARK.search(text):
        return ""  # no "A." / "(b)" / "3)" anywhere: not worth reading closely
    kept = re.sub(r"^\s*(?:ask\b\s*)?", "", clean(text).strip(), flags=re.IGNORECASE)
    return kept if split_choices(kept) else ""


_CHOICE_MARK = re.compile(r"(?:^|\s)\(?(?:[A-Ea-e]|[1-5])[).:]\s")


# -- where and who ------------------------------------------------------------------------

Subject = tuple[FlagKind, str]  # ("question", question id) or ("entry", entry id)


@dataclass(frozen=True)
class Place:
    """Who is asking, and where.

    `private`: a DM or the terminal, where a board means the whole workspace's. `is_admin` is
    asked only by commands that need it (`Command.needs_admin`).
    """

    team: str
    user: str
    channel: str
    private: bool = False
    is_admin: Callable[[], bool] = field(default=lambda: False, compare=False)
    recent: Subject | None = None  # what the learner saw last (the chat keeps it), for `report`

    @property
    def local(self) -> bool:
        return self.team == LOCAL_TEAM


# -- results ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Answered:
    """An answer to a question (or "I don't know" with alternatives). Fit to show in public."""

    lookup: Lookup
    asked: str
    unsure: bool
    quizzable: bool
    knowledge: KnowledgeBase
    shared: bool = True


@dataclass(frozen=True)
class Practiced:
    """A pasted practice question read like a tutor would: the choice that fits, or the two
    closest when unsure, each choice with the entry it stands for. Fit to show in public."""

    practice: Practice
    asked: str
    shared: bool = True


@dataclass(frozen=True)
class Put:
    """A question put to the learner privately."""

    asked: Asked


@dataclass(frozen=True)
class Grade:
    """The outcome of an answer; `graded` is None when the post no longer exists."""

    graded: Graded | None
    revealed: tuple[Reveal, ...] = ()


@dataclass(frozen=True)
class MoreShown:
    """The rest of the feedback on the learner's last answer; `question` None: none yet."""

    question: Question | None
    chosen: str = ""
    waits: bool = False  # a daily question still open: the rest comes with its reveal


@dataclass(frozen=True)
class NoOpenQuestion:
    """A letter, but no question waiting for it."""


@dataclass(frozen=True)
class BoardShown:
    board: Board


@dataclass(frozen=True)
class TeamsShown:
    board: TeamsBoard


@dataclass(frozen=True)
class StatsShown:
    stats: Stats


@dataclass(frozen=True)
class DailyShown:
    """Today's daily question here, and what the learner did with it."""

    post: Post
    question: Question
    mine: str | None  # the learner's answer, if any
    total: int  # how many answered so far
    revealed: tuple[Reveal, ...] = ()  # yesterday's, revealed on the way (the local chat)


@dataclass(frozen=True)
class NoDaily:
    """No daily question is open here today; `schedule` says when there will be one."""

    schedule: Schedule | None
    local: bool = False


@dataclass(frozen=True)
class ScheduleShown:
    schedule: Schedule | None


@dataclass(frozen=True)
class ScheduleSet:
    schedule: Schedule
    shared: bool = True


@dataclass(frozen=True)
class ScheduleRemoved:
    removed: bool

    @property
    def shared(self) -> bool:
        return self.removed


@dataclass(frozen=True)
class NotHere:
    """The command does not apply here; `reason` names why."""

    reason: str  # not_admin | local_schedule


@dataclass(frozen=True)
class Invalid:
    """The command's arguments are wrong; `message` says how to write them."""

    message: str


@dataclass(frozen=True)
class GapsShown:
    rows: tuple[dict, ...]


@dataclass(frozen=True)
class ReadyShown:
    """The learner's readiness per section, their plan and weekly progress (in `stats`)."""

    stats: Stats


@dataclass(frozen=True)
class ExamSet:
    plan: Plan


@dataclass(frozen=True)
class ExamShown:
    plan: Plan | None  # None: no exam date set


@dataclass(frozen=True)
class ExamRemoved:
    removed: bool


@dataclass(frozen=True)
class ReportKept:
    """A report on the last answer or question, kept for the curators."""

    reported: Reported


@dataclass(frozen=True)
class NothingToReport:
    """`report` with no answer or question shown before it (or no words saying what is wrong)."""

    said_nothing: bool = False


@dataclass(frozen=True)
class VersionShown:
    version: str | None  # None: run from a checkout that was never installed


@dataclass(frozen=True)
class HelpShown:
    local: bool = False


@dataclass(frozen=True)
class Hello:
    """A greeting, thanks, or "what can you do?": a short reply pointing at what the tutor does."""

    thanks: bool = False


@dataclass(frozen=True)
class Goodbye:
    """The learner is leaving (the chat ends)."""


Result = (
    Answered
    | Practiced
    | Put
    | Grade
    | NoOpenQuestion
    | MoreShown
    | BoardShown
    | TeamsShown
    | StatsShown
    | DailyShown
    | NoDaily
    | ScheduleShown
    | ScheduleSet
    | ScheduleRemoved
    | NotHere
    | Invalid
    | GapsShown
    | ReadyShown
    | ExamSet
    | ExamShown
    | ExamRemoved
    | ReportKept
    | NothingToReport
    | VersionShown
    | HelpShown
    | Hello
    | Goodbye
    | MockResult
)


def is_shared(result: Result) -> bool:
    """Whether a result is fit to show where others see it (else: only to the asker)."""
    return bool(getattr(result, "shared", False))


# -- deciding -----------------------------------------------------------------------------


def handle(tutor: Tutor, command: Command, place: Place, now: dt.datetime) -> Result:
    """What the tutor does about `command`, asked in `place` at `now`."""
    return HANDLERS[command.verb](tutor, command.arg, place, now)


def _ask(tutor: Tutor, arg: str, place: Place, now: dt.datetime) -> Result:
    lookup = tutor.ask(arg, asker=place.user, now=now)
    best = lookup.best.entry.id if lookup.best else None
    quizzable = bool(best and tutor.catalog.questions.about(best))
    return Answered(lookup, arg, tutor.unsure(lookup), quizzable, tutor.catalog.knowledge)


def _practice(tutor: Tutor, arg: str, place: Place, now: dt.datetime) -> Result:
    practice = tutor.practice(arg)
    if practice is None:  # not a practice question after all: answer it as a question
        return _ask(tutor, " ".join(arg.split()), place, now)
    return Practiced(practice, arg)


def _quiz(tutor: Tutor, arg: str, place: Place, now: dt.datetime) -> Result:
    return Put(tutor.quiz(team=place.team, user=place.user, channel=place.channel, now=now))


def _answer(tutor: Tutor, arg: str, place: Place, now: dt.datetime) -> Result:
    """A bare letter answers the learner's newest open question: a private one or today's."""
    pending = tutor.pending(team=place.team, user=place.user)
    today, revealed = _daily_today(tutor, place, now, post=False)
    open_daily = (
        today
        if today is not None
        and not (today.closes_at and today.closes_at <= stamp(now))
        and tutor.store.answer_of(today.id, place.user) is None
        else None
    )
    mock = MockExams(tutor).current_post(team=place.team, user=place.user)
    newest = max(open_daily.id if open_daily else 0, pending.post.id if pending else 0)
    if mock is not None and mock > newest:
        return MockExams(tutor).answer(
            post_id=mock, user=place.user, team=place.team, choice=arg, now=now
        )
    if open_daily is not None and (pending is None or open_daily.id > pending.post.id):
        return _grade(tutor, open_daily.id, arg, place, now, revealed)
    if pending is None:
        return NoOpenQuestion()
    return _grade(tutor, pending.post.id, arg, place, now)


def _grade(
    tutor: Tutor,
    post_id: int,
    choice: str,
    place: Place,
    now: dt.datetime,
    revealed: tuple[Reveal, ...] = (),
) -> Grade:
    graded = tutor.answer(
        post_id=post_id,
        user=place.user,
        choice=choice,
        now=now,
        team=place.team,
        channel=_daily_channel(place),
    )
    return Grade(graded, revealed)


def _more(tutor: Tutor, arg: str, place: Place, now: dt.datetime) -> Result:
    last = tutor.store.last_answer(team=place.team, user=place.user)
    question = tutor.catalog.questions.get(last[0].question_id) if last else None
    if not last or not question:
        return MoreShown(None)
    post, chosen = last
    return MoreShown(question, chosen, waits=post.waits_for_reveal(now))


_SCOPES = ("teams", "everyone", "workspace")


def _leaderboard(tutor: Tutor, arg: str, place: Place, now: dt.datetime) -> Result:
    words = arg.lower().split()
    unknown = [w for w in words if w not in PERIODS and w not in _SCOPES]
    if unknown:
        return Invalid(
            f"'{' '.join(unknown)}' is not a board I keep; try leaderboard week, month or all "
            "(or teams, everyone)."
        )
    period: Period = next((w for w in PERIODS if w in words), "week")
    standings = Standings(tutor.store)
    if "teams" in words:
        return TeamsShown(standings.teams(team=place.team, period=period, now=now))
    everyone = "everyone" in words or "workspace" in words or place.private
    channel = None if everyone else place.channel
    return BoardShown(standings.board(team=place.team, channel=channel, period=period, now=now))


def _stats(tutor: Tutor, arg: str, place: Place, now: dt.datetime) -> Result:
    return StatsShown(tutor.stats(team=place.team, user=place.user, now=now))


def _daily(tutor: Tutor, arg: str, place: Place, now: dt.datetime) -> Result:
    if arg in ("board", "leaderboard"):
        channel = _daily_channel(place)
        standings = Standings(tutor.store)
        return BoardShown(standings.board(team=place.team, channel=channel, now=now))
    post, revealed = _daily_today(tutor, place, now)
    question = tutor.catalog.questions.get(post.question_id) if post else None
    if post is None or question is None:
        schedule = Daily(tutor).schedule(team=place.team, channel=place.channel)
        return NoDaily(schedule, local=place.local)
    if arg:
        return _grade(tutor, post.id, arg, place, now, revealed)
    mine = tutor.store.answer_of(post.id, place.user)
    total = sum(Daily(tutor).store.choice_counts(post.id).values())
    return DailyShown(post, question, mine, total, revealed)


def _schedule(tutor: Tutor, arg: str, place: Place, now: dt.datetime) -> Result:
    daily = Daily(tutor)
    if not arg and place.local:
        return ScheduleShown(LOCAL_SCHEDULE)  # the terminal's own: a new question each UTC day
    if not arg:
        return ScheduleShown(daily.schedule(team=place.team, channel=place.channel))
    if place.local:
        return NotHere("local_schedule")
    if not place.is_admin():
        return NotHere("not_admin")
    if arg.lower() in ("off", "stop", "remove"):
        return ScheduleRemoved(daily.remove_schedule(team=place.team, channel=place.channel))
    try:
        schedule = parse_schedule(arg, team=place.team, channel=place.channel)
    except TutorError as error:
        return Invalid(str(error))
    return ScheduleSet(daily.set_schedule(schedule, by=place.user, now=now))


def _gaps(tutor: Tutor, arg: str, place: Place, now: dt.datetime) -> Result:
    if not (place.local or place.is_admin()):
        return NotHere("not_admin")
    return GapsShown(tuple(tutor.store.gaps(limit=10)))


def _ready(tutor: Tutor, arg: str, place: Place, now: dt.datetime) -> Result:
    return ReadyShown(tutor.stats(team=place.team, user=place.user, now=now))


def _exam(tutor: Tutor, arg: str, place: Place, now: dt.datetime) -> Result:
    """`exam` shows the plan; `exam 2027-03-01` sets the date; `exam off` removes it."""
    team, user = place.team, place.user
    if arg in OFF_WORDS:
        return ExamRemoved(tutor.store.remove_exam_date(team=team, user=user))
    if arg:
        try:
            day = parse_exam_date(arg, now.astimezone(dt.UTC).date())
        except TutorError as error:
            return Invalid(str(error))
        tutor.store.set_exam_date(team=team, user=user, day=day, now=now)
    plan = tutor.stats(team=team, user=user, now=now).plan
    if arg and plan is not None:
        return ExamSet(plan)
    return ExamShown(plan)


_REASON_WORDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("wrong", re.compile(r"\b(wrong|incorrect|answer key|should be|not right|mistake)\b")),
    ("outdated", re.compile(r"\b(outdated|out of date|deprecated|renamed|no longer|old)\b")),
    ("unclear", re.compile(r"\b(unclear|confusing|ambiguous|typo|hard to read)\b")),
)


def report_reason(text: str) -> str:
    """What a free-text report is about, from its words: wrong | outdated | unclear | other."""
    low = text.lower()
    return next((reason for reason, words in _REASON_WORDS if words.search(low)), "other")


def _report(tutor: Tutor, arg: str, place: Place, now: dt.datetime) -> Result:
    if place.recent is None or not arg:
        return NothingToReport(said_nothing=place.recent is not None)
    kind, item = place.recent
    reported = tutor.report(
        team=place.team,
        user=place.user,
        kind=kind,
        item=item,
        reason=report_reason(arg),
        comment=arg,
        now=now,
    )
    return ReportKept(reported) if reported else NothingToReport()


def subject_of(result: Result) -> Subject | None:
    """What a result showed that a learner may report next: an answer's entry, a question."""
    match result:
        case Answered(lookup=lookup) if lookup.best is not None:
            return ("entry", lookup.best.entry.id)
        case Put(asked=asked):
            return ("question", asked.question.id)
        case Grade(graded=graded) if graded is not None:
            return ("question", graded.question.id)
        case DailyShown(question=question):
            return ("question", question.id)
    return None


def _version(tutor: Tutor, arg: str, place: Place, now: dt.datetime) -> Result:
    try:
        return VersionShown(metadata.version("study-tutor"))
    except metadata.PackageNotFoundError:
        return VersionShown(None)


def _mock(tutor: Tutor, arg: str, place: Place, now: dt.datetime) -> Result:
    """`mock [N] [timed]` starts one (or offers the open one); `mock resume`, `mock discard`."""
    words = arg.split()
    mocks = MockExams(tutor)
    if "resume" in words or "continue" in words:
        return mocks.resume(team=place.team, user=place.user, now=now)
    if "discard" in words or "stop" in words:
        return mocks.discard(team=place.team, user=place.user, now=now)
    size = next((int(w) for w in words if w.isdigit()), DEFAULT_SIZE)
    timed = "timed" in words
    return mocks.start(
        team=place.team, user=place.user, channel=place.channel, size=size, timed=timed, now=now
    )


def _help(tutor: Tutor, arg: str, place: Place, now: dt.datetime) -> Result:
    return HelpShown(local=place.local)


def _hello(tutor: Tutor, arg: str, place: Place, now: dt.datetime) -> Result:
    return Hello(thanks=bool(arg))


def _quit(tutor: Tutor, arg: str, place: Place, now: dt.datetime) -> Result:
    return Goodbye()


HANDLERS: dict[Verb, Callable[[Tutor, str, Place, dt.datetime], Result]] = {
    Verb.ASK: _ask,
    Verb.PRACTICE: _practice,
    Verb.QUIZ: _quiz,
    Verb.ANSWER: _answer,
    Verb.LEADERBOARD: _leaderboard,
    Verb.STATS: _stats,
    Verb.DAILY: _daily,
    Verb.SCHEDULE: _schedule,
    Verb.GAPS: _gaps,
    Verb.READY: _ready,
    Verb.EXAM: _exam,
    Verb.MOCK: _mock,
    Verb.MORE: _more,
    Verb.REPORT: _report,
    Verb.VERSION: _version,
    Verb.HELP: _help,
    Verb.HELLO: _hello,
    Verb.QUIT: _quit,
}


# -- the daily question of a place --------------------------------------------------------


def _daily_channel(place: Place) -> str:
    """The local chat keeps its daily question in a pseudo-channel of its own."""
    return LOCAL_CHANNEL if place.local else place.channel


class _Revealed:
    """A Poster for the local chat's daily question: it keeps what happened, it prints nothing."""

    def __init__(self) -> None:
        self.reveals: list[Reveal] = []

    def post_question(self, post: Post, question: Question, recap: Recap | None) -> str:
        return f"chat-{post.id}"

    def find_posted(self, post: Post) -> str | None:
        return None  # nothing of a run that died survives in a terminal

    def reveal(self, reveal: Reveal) -> None:
        self.reveals.append(reveal)


def _daily_today(
    tutor: Tutor, place: Place, now: dt.datetime, *, post: bool = True
) -> tuple[Post | None, tuple[Reveal, ...]]:
    """Today's daily post here, and the reveals made on the way.

    The local chat has no scheduler: asking for its question (`post`) posts it on first ask.
    """
    daily = Daily(tutor)
    if place.local and post:
        poster = _Revealed()
        return daily.local_today(poster, now=now), tuple(poster.reveals)
    schedule = (
        LOCAL_SCHEDULE if place.local else daily.schedule(team=place.team, channel=place.channel)
    )
    if schedule is None:
        return None, ()
    day = now.astimezone(schedule.zone).date()
    channel = _daily_channel(place)
    return daily.store.post_for(team=place.team, channel=channel, local_date=day), ()
