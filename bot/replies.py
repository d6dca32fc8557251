"""The bot's voice: every sentence it says, as plain text.

The terminal prints these; Slack uses them as the `text` fallback and inside Block Kit (the Slack
layer escapes them). Nothing here knows about Slack or the terminal.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.content import DOMAINS, SECTIONS
from bot.conversation import (
    USAGE,
    Answered,
    BoardShown,
    DailyShown,
    ExamRemoved,
    ExamSet,
    ExamShown,
    GapsShown,
    Goodbye,
    Grade,
    Hello,
    HelpShown,
    Invalid,
    MoreShown,
    NoDaily,
    NoOpenQuestion,
    NotHere,
    NothingToReport,
    Practiced,
    Put,
    ReadyShown,
    ReportKept,
    Result,
    ScheduleRemoved,
    ScheduleSet,
    ScheduleShown,
    StatsShown,
    TeamsShown,
    VersionShown,
)
from bot.daily import PassReport, Recap, Reveal
from bot.knowledge import Entry, WatchOut
from bot.matching import Lookup, Match
from bot.mock import MockDiscarded, MockDone, MockOffer, MockRefused, MockShown, NoMock
from bot.mock_replies import offer_lines, render_mock
from bot.plan import Plan
from bot.practice import Choice, Practice
from bot.quiz import Question
from bot.readiness import NO_PASS_MARK, RANGE, TARGET, Readiness, SectionReadiness, Week
from bot.schedule import Schedule
from bot.standings import Board, Ranked, TeamStanding
from bot.store import LOCAL_TEAM, Standing
from bot.store.flags import FlaggedItem
from bot.tutor import Graded, Reported, Stats

WELCOME = "Study Tutor. Ask me which Google Cloud service fits a need, or type quiz. (help, quit)"
DONT_KNOW = "I don't know that one."
NO_ANSWERS_YET = "No answers yet. Type quiz to get the first question."
NO_PENDING = "There is no open question. Type quiz to get one."
UNKNOWN_POST = "That question is no longer available. Ask for a new one with quiz."
NOT_YOURS = (
    "That question was put to someone else or in another channel, so this answer was not "
    "recorded. Ask for your own with quiz."
)
SORRY = "Sorry, something went wrong on my side. Please try again in a moment."


def status_line(entry: Entry) -> str:
    if entry.status == "current":
        return ""
    return f"Note ({entry.status}): {entry.status_note}"


def answer_lines(lookup: Lookup, kb_get) -> list[str]:
    """An answer for a person: the summary, then the mix-ups to watch, the source and related
    entries; or did-you-mean."""
    summary = answer_summary(lookup)
    if lookup.best is None:
        return summary
    entry = lookup.best.entry
    lines = summary[:-1]  # the exam section goes after the mix-ups
    nearby = [m.entry.id for m in lookup.alternatives]
    for watch in _watch_outs(entry, lookup.named, nearby)[:2]:
        other = kb_get(watch.id)
        name = other.name if other else watch.id
        lines.append(f"Don't confuse with {name}: {watch.note}")
    lines.append(summary[-1])
    if entry.sources:
        lines.append(f"Source: {entry.sources[0]}")
    if lookup.alternatives:
        others = "; ".join(m.entry.name for m in lookup.alternatives)
        lines.append(f"Related: {others}")
    return lines


def answer_summary(lookup: Lookup) -> list[str]:
    """The short answer for Slack: the means, why, any status note and the exam section.

    The mix-ups to watch and related entries wait behind "More" (`entry_lines`); the source is
    added by the renderer (a link in Slack).
    """
    if lookup.best is None:
        return dont_know_lines(lookup)
    entry = lookup.best.entry
    lines = []
    if lookup.named is not None:
        named = lookup.named.name
        lines.append(f"You mention {named}, but for this need the usual answer is {entry.name}.")
    lines += [f"{entry.means}  ({lookup.best.confidence}% sure)", entry.why]
    if lookup.unknown is not None:
        lines.append(f"I don't know {lookup.unknown}; this answers the rest of your question.")
    note = status_line(entry)
    return [*lines, *([note] if note else []), exam_section(entry.section)]


def exam_section(section: str) -> str:
    """Where a topic sits on the exam: its section and its domain."""
    domain = DOMAINS.get(section.split(".")[0])
    title = SECTIONS.get(section, "")
    where = f" (domain: {domain[0]})" if domain else ""
    return f"Exam section {section}: {title}{where}"


def _watch_outs(entry: Entry, named: Entry | None, nearby: list[str]) -> list[WatchOut]:
    """The answer's mix-ups: the one the learner named first (from either side of the pair),
    then those with the runner-up answers (`nearby`, best first: "skew vs drift?" answered with
    skew explains drift next), then the rest in their written order."""
    rank = {entry_id: n for n, entry_id in enumerate(nearby)}
    ordered = sorted(entry.watch_out, key=lambda w: rank.get(w.id, len(rank)))
    if named is None:
        return ordered
    mine = [w for w in ordered if w.id == named.id]
    theirs = [WatchOut(named.id, w.note) for w in named.watch_out if w.id == entry.id]
    rest = [w for w in ordered if w.id != named.id]
    return (mine or theirs)[:1] + rest


def dont_know_lines(lookup: Lookup) -> list[str]:
    if lookup.outside is not None:
        lines = [
            f"That sounds like {lookup.outside}, which is outside what I cover: the Google "
            "Cloud Professional ML Engineer exam."
        ]
        if lookup.alternatives:
            lines.append("The closest Google Cloud topics:")
            lines += [f"  - {m.entry.name}" for m in lookup.alternatives]
        return lines
    if not lookup.alternatives:
        return [DONT_KNOW + ' Try naming the need, e.g. "train without code" or "NaN loss".']
    lines = [DONT_KNOW + " Did you mean:"]
    lines += [f"  - {m.entry.name}" for m in lookup.alternatives]
    return lines


PRACTICE_CHOICE = 90  # characters of a choice quoted back


def practice_lines(practice: Practice) -> list[str]:
    """A pasted practice question answered like a tutor: the choice that fits and why (citing
    the entry), one line for each other choice; or "not sure" with the two closest."""
    if practice.outside is not None:
        return [
            f"That sounds like {practice.outside}, which is outside what I cover: the Google "
            "Cloud Professional ML Engineer exam, so I won't pick a choice."
        ]
    if practice.pick is None:
        return _practice_unsure(practice)
    pick, entry = practice.pick, practice.pick.entry
    lines = [f"I'd pick {pick.letter}: {_quoted(pick.text)}  ({practice.confidence}% sure)"]
    if entry is not None:
        lines.append(f"Why: {entry.means}.")
        lines.append(entry.why)
    for choice in practice.choices:
        if choice is not pick:
            lines.append(f"Not {choice.letter}: {_why_not(choice, entry)}")
    if entry is not None:
        lines.append(exam_section(entry.section))
        if entry.sources:
            lines.append(f"Source: {entry.sources[0]}")
    return lines


def _practice_unsure(practice: Practice) -> list[str]:
    first, second = practice.closest
    lines = [f"I'm not sure about this one. It's between {first.letter} and {second.letter}:"]
    for choice in (first, second):
        about = f" ({choice.named.means})" if choice.named else ""
        lines.append(f"  {choice.letter}. {_quoted(choice.text)}{about}")
    apart = _told_apart(first.named, second.named) if first.named and second.named else None
    if apart is not None:
        lines.append(f"What tells them apart: {apart}")
    lines.append("Check which one meets every constraint in the question.")
    return lines


def _why_not(choice: Choice, picked: Entry | None) -> str:
    """One line on why a choice is not the one: what it is for instead, in the words of the
    watch-out note that tells it from the pick when the two are a usual mix-up."""
    said = _quoted(choice.text)
    if choice.named is None:
        return f"{said} - my notes give no reason to pick it for this need."
    if picked is not None and choice.named.id == picked.id:
        return f"{said} - same topic ({picked.name}), but not what it advises here."
    apart = _told_apart(picked, choice.named) if picked is not None else None
    if apart is not None:
        return f"{said} - that is {choice.named.name}. {apart}"
    return f"{said} - that is {choice.named.name}, which fits a different need."


def _told_apart(first: Entry, second: Entry) -> str | None:
    """The watch-out note that tells two entries apart: the first's on the second, else the
    second's on the first; None when neither lists the other as a usual mix-up."""
    for one, other in ((first, second), (second, first)):
        for watch in one.watch_out:
            if watch.id == other.id:
                return watch.note
    return None


def _quoted(text: str) -> str:
    short = text if len(text) <= PRACTICE_CHOICE else text[: PRACTICE_CHOICE - 1].rstrip() + "…"
    return f'"{short}"'


REVIEW = "Review: you answered this one before and are due to see it again. Let's see if it stuck."


def question_lines(question: Question) -> list[str]:
    lines = [f"[{question.section} {question.topic}] {question.question}"]
    lines += [f"  {letter.lower()}) {text}" for letter, text in question.choices]
    return lines


def choice_prompt(question: Question) -> str:
    letters = ", ".join(letter.lower() for letter in question.letters)
    return f"Answer with {letters}."


def verdict(graded: Graded) -> str:
    if graded.status == "already":
        return f"You already answered this one ({graded.choice.lower()}); the first answer counts."
    if graded.status == "closed":
        return "This question is closed; answers are no longer recorded."
    if graded.status == "invalid":
        return f"'{graded.choice}' is not one of the choices. {choice_prompt(graded.question)}"
    if graded.status == "refused":
        return NOT_YOURS
    return "Correct!" if graded.correct else "Not quite."


MORE = "More"
MORE_HINT = "Type more for the other choices and the source."
NOTHING_MORE = "Nothing to say more about yet: answer a question first (type quiz)."


def feedback_lines(graded: Graded, *, hint: bool = False) -> list[str]:
    """Short: the verdict, why the chosen answer is right or wrong, and why the correct one is
    right, and what to read next. The other choices and the source are `more_lines`; `hint`
    says how to ask for them (in Slack a button does)."""
    question = graded.question
    lines = [verdict(graded)]
    if graded.status in ("invalid", "refused", "already"):
        return lines
    if graded.daily and not graded.correct and graded.status in ("recorded", "already"):
        return [*lines, *_daily_wait(graded)]
    chosen, right = graded.choice, question.answer
    if chosen in question.letters:
        lines.append(f"{chosen.lower()}) {_explained(question, chosen)}")
    if chosen != right:
        lines.append(f"Answer: {right.lower()}) {_explained(question, right)}")
    if graded.entries:
        lines.append("Read next: " + "; ".join(e.name for e in graded.entries[:2]))
    if hint:
        lines.append(MORE_HINT)
    return lines


def more_lines(question: Question, chosen: str) -> list[str]:
    """The rest of an answered question's feedback: the other choices, then the source."""
    others = [x for x in question.letters if x not in (chosen, question.answer)]
    lines = [f"{x.lower()}) {_explained(question, x)}" for x in others]
    return [*lines, f"Source: {question.source}"]


# One spoiler policy for the daily question, everywhere: whoever answers learns at once whether
# they were right and why their choice is right or wrong; the correct letter, the other choices
# and the team's figures wait for the reveal when it closes, so nobody spoils it for the team.
DAILY_WAITS = "The answer and how the team answered come when it closes."


def _daily_wait(graded: Graded) -> list[str]:
    chosen = graded.choice
    said = [f"{chosen.lower()}) {_explained(graded.question, chosen)}"]
    return [*said, DAILY_WAITS]


def leaderboard_lines(
    standings: list[Standing],
    period: str,
    name_of: Callable[[str], str] = str,
    *,
    title: str = "Leaderboard",
    empty: str = NO_ANSWERS_YET,
) -> list[str]:
    if not standings:
        return [empty]
    when = _PERIOD_TITLES.get(period, "all time")
    lines = [f"{title}, {when}:"]
    lines += [
        f"{s.rank:>3}. {name_of(s.user)}  {s.points} pt  "
        f"({s.correct}/{s.answered}, {s.accuracy:.0%})"
        for s in standings
    ]
    return lines


def stats_lines(stats: Stats) -> list[str]:
    mock = offer_lines(stats.mock) if stats.mock else []
    if not stats.answered:
        return [NO_ANSWERS_YET, *mock, *(plan_lines(stats.plan) if stats.plan else [])]
    lines = [
        f"Answered {stats.answered}, correct {stats.correct} ({stats.accuracy:.0%}).",
        f"Streak: {stats.streak} day{'s' if stats.streak != 1 else ''}.",
    ]
    if stats.weakest:
        weak = ", ".join(f"{t.topic} ({t.correct}/{t.answered})" for t in stats.weakest)
        lines.append(f"Weakest topics: {weak}.")
    if stats.reviews_due:
        lines.append(f"Reviews due: {stats.reviews_due}. Type quiz to take them first.")
    return lines + mock + readiness_summary(stats)


def _explained(question: Question, letter: str) -> str:
    return f"{question.choice_text(letter)}: {question.explanations.get(letter, '')}"


# -- words for buttons and headings (Slack uses them; the terminal does not need them) ---------

QUIZ_ME = "Quiz me on this"
MORE = "More: mix-ups to watch"
DID_YOU_MEAN = "Did you mean:"
HOME_TITLE = "Study Tutor"
YOUR_STATS = "Your progress"


def you_asked(question: str) -> str:
    return f"You asked: {question}"


def entry_lines(entry: Entry, kb_get) -> list[str]:
    """An entry shown on request (a "did you mean" click): like an answer, without a confidence."""
    lines = answer_lines(Lookup(entry.means, Match(entry, 100), ()), kb_get)
    return [entry.means, *lines[1:]]


# -- the daily quick-check ------------------------------------------------------------------

DAILY_CLOSED = "Closed: answers are no longer recorded. The answer is in the thread."
NO_ANSWERS_HERE = "No answers in this channel yet in this period. Type quiz to get a question."
NO_TEAMS = "No team has had a daily question in this period yet."
_DAY_NAMES = {"*": "every day", "mon-fri": "weekdays", "sat,sun": "weekends"}
_PERIOD_TITLES = {"week": "this week", "month": "this month", "all": "all time"}
Names = Callable[[str], str]  # a user or channel id → how to show it


def days_text(days: str) -> str:
    return _DAY_NAMES.get(days, days.replace(",", ", "))


def schedule_text(schedule: Schedule) -> str:
    window = (
        f"open for {schedule.window_hours} h"
        if schedule.window_hours
        else "open until the next one"
    )
    recap = "; Monday's post recaps last week" if schedule.recap else ""
    where = f", from sections {', '.join(schedule.sections)}" if schedule.sections else ""
    return (
        f"a question at {schedule.at} {schedule.tz} on {days_text(schedule.days)}, {window}"
        f"{where}{recap}"
    )


def schedule_set(schedule: Schedule) -> str:
    return f"Scheduled here: {schedule_text(schedule)}."


def schedule_shown(schedule: Schedule | None) -> str:
    if schedule is None:
        return (
            "No daily question is scheduled here. An admin can start one with "
            "/tutor schedule 09:00 Europe/Berlin weekdays (or daily, or mon,wed,fri)."
        )
    return f"Daily quick-check here: {schedule_text(schedule)}. Stop it with /tutor schedule off."


def schedule_removed(removed: bool) -> str:
    if removed:
        return "Stopped: no more daily questions in this channel. Scores are kept."
    return "There was no daily schedule in this channel, so nothing changed."


DAILY_HEADING = "Daily quick-check"


def readable_time(stamp: str) -> str:
    """A store timestamp as people read it: '2026-12-01 08:00:00 UTC'."""
    return stamp.replace("T", " ").replace("+00:00", " UTC")


def open_until(when: str) -> str:
    return (
        f"Open until {when}. Answer privately: you learn at once whether you were right; "
        "the answer and the team's figures come when it closes."
    )


def daily_lines(question: Question, closes_at: str | None) -> list[str]:
    """The daily post as plain text (the Slack message's `text` and the local chat)."""
    lines = [DAILY_HEADING, *question_lines(question)]
    if closes_at:
        lines.append(open_until(readable_time(closes_at)))
    return lines


def reveal_lines(reveal: Reveal) -> list[str]:
    """The answer, why, why the popular wrong choice is wrong, and who chose what."""
    question = reveal.question
    right = question.answer
    lines = [f"Answer: {right.lower()}) {_explained(question, right)}"]
    wrong = reveal.popular_wrong
    if wrong:
        lines.append(
            f"The most chosen wrong answer was {wrong.lower()}) {_explained(question, wrong)}"
        )
    if not reveal.total:
        lines.append("Nobody answered this one.")
        return lines
    people = "person" if reveal.total == 1 else "people"
    shares = ", ".join(
        f"{x.lower()}) {reveal.counts[x]} ({reveal.share(x):.0%})" for x in question.letters
    )
    lines.append(f"{reveal.total} {people} answered: {shares}.")
    lines.append(f"Source: {question.source}")
    return lines


def team_board_lines(rows: list[Ranked], period: str, name_of: Names) -> list[str]:
    """Learners in one channel (a team), with their streaks of the channel's daily questions."""
    if not rows:
        return [NO_ANSWERS_HERE]
    lines = [f"Team leaderboard, {_PERIOD_TITLES.get(period, period)}:"]
    for row in rows:
        s = row.standing
        fire = f", streak {row.streak}" if row.streak else ""
        lines.append(
            f"{s.rank:>3}. {name_of(s.user)}  {s.points} pt  "
            f"({s.correct}/{s.answered}, {s.accuracy:.0%}{fire})"
        )
    return lines


def teams_lines(teams: list[TeamStanding], period: str, channel_name: Names) -> list[str]:
    """Teams ranked by accuracy × participation, so a big team does not win by size alone."""
    if not teams:
        return [NO_TEAMS]
    lines = [f"Teams, {_PERIOD_TITLES.get(period, period)} (accuracy × participation):"]
    lines += [
        f"{t.rank:>3}. {channel_name(t.channel)}  {t.score:.0%}  (accuracy {t.accuracy:.0%}, "
        f"participation {t.participation:.0%}, {t.members} member{'s' if t.members != 1 else ''})"
        for t in teams
    ]
    return lines


def recap_lines(recap: Recap, name_of: Names, channel_name: Names) -> list[str]:
    """Monday's look back at last week."""
    lines = ["Last week:"]
    if recap.top:
        lines += [f"  {s.rank}. {name_of(s.user)}  {s.points} pt" for s in recap.top]
    else:
        lines.append("  nobody answered here last week.")
    if recap.teams:
        lines.append("Teams:")
        lines += [f"  {t.rank}. {channel_name(t.channel)}  {t.score:.0%}" for t in recap.teams[:5]]
    return lines


def pass_lines(report: PassReport) -> list[str]:
    """What `tutor daily` did, one line per channel."""
    lines = []
    for reveal in report.revealed:
        lines.append(
            f"{reveal.post.channel}: revealed post {reveal.post.id} ({reveal.total} answered)"
        )
    for o in report.outcomes:
        if o.status == "posted":
            lines.append(
                f"{o.channel}: posted {o.question_id} for {o.local_date} (post {o.post_id})"
            )
        elif o.status == "adopted":
            lines.append(
                f"{o.channel}: found the post for {o.local_date} that an earlier run made before "
                f"it stopped, and kept it (post {o.post_id}); nothing posted again"
            )
        elif o.status == "taken":
            lines.append(f"{o.channel}: already posted for {o.local_date}; nothing to do")
        elif o.status == "in_flight":
            lines.append(
                f"{o.channel}: another run claimed the post for {o.local_date} at "
                f"{readable_time(o.detail)} and has not finished; nothing to do. If that run "
                "died, a pass after its 15-minute lease checks the channel and posts at most once."
            )
        elif o.status == "not_in_channel":
            lines.append(
                f"{o.channel}: the bot is not in this channel ({o.detail}); invite it with "
                f"/invite @Study Tutor. Nothing claimed; the next pass tries again."
            )
        else:
            lines.append(f"{o.channel}: posting failed ({o.detail}); the next pass tries again")
    lines += [f"problem: {p}" for p in report.problems]
    return lines or ["Nothing due."]


def daily_answered(choice: str, total: int) -> str:
    others = total - 1
    crowd = f" with {others} other{'s' if others != 1 else ''}" if others else ""
    return f"You answered {choice.lower()}{crowd}. {DAILY_WAITS}"


# -- rendering a conversation result ---------------------------------------------------------

GOODBYE = "Bye! Keep your streak going."
HELLO = (
    "Hi! I'm Study Tutor, for the Google Cloud ML Engineer exam. Ask me which service fits a "
    'need (e.g. "no-code training?"), type quiz for a question, or help for everything I do.'
)
YOU_ARE_WELCOME = "You're welcome! Ask another question, or type quiz to test yourself."
NOT_ALLOWED = (
    "Sorry, only workspace admins and owners (or people listed in TUTOR_ADMINS) can do that. "
    "Ask one of them."
)
LOCAL_SCHEDULE = (
    "Schedules are for Slack channels. From a shell: tutor schedule add --channel C123 "
    "--at 09:00 --tz Europe/Berlin (the workspace comes from SLACK_BOT_TOKEN)."
)
NO_GAPS = "No gaps recorded: every question so far was answered with confidence."


def help_lines(*, local: bool = False) -> list[str]:
    """The help, from the conversation's own list of commands."""
    width = max(len(usage) for usage, _ in USAGE) + 2
    lines = [
        "I'm Study Tutor, for the Google Cloud Professional ML Engineer exam (all six domains).",
    ]
    lines += [f"  {usage:<{width}}{what}" for usage, what in USAGE]
    if local:
        lines.append(f"  {'quit':<{width}}leave the chat")
    lines.append("Boards count weeks from Monday 00:00 in the channel's schedule zone (else UTC).")
    return lines


def render(result: Result, name_of: Names = str, channel_name: Names = str) -> list[str]:
    """A conversation result as the bot's lines (the terminal, and Slack's `text`)."""
    match result:
        case Answered(lookup=lookup, knowledge=knowledge):
            return answer_lines(lookup, knowledge.get)
        case Practiced(practice=practice):
            return practice_lines(practice)
        case Put(asked=asked):
            heading = [REVIEW] if asked.review else []
            return [*heading, *question_lines(asked.question), choice_prompt(asked.question)]
        case Grade(graded=graded, revealed=revealed):
            said = feedback_lines(graded, hint=True) if graded else [UNKNOWN_POST]
            return [*revealed_lines(revealed), *said]
        case NoOpenQuestion():
            return [NO_PENDING]
        case BoardShown(board=board):
            return board_lines(board, name_of)
        case TeamsShown(board=teams):
            return teams_lines(list(teams.teams), teams.period, channel_name)
        case StatsShown(stats=stats):
            return stats_lines(stats)
        case DailyShown(post=post, question=question, mine=mine, total=total, revealed=revealed):
            status = daily_answered(mine, total) if mine else choice_prompt(question)
            return [*revealed_lines(revealed), *daily_lines(question, post.closes_at), status]
        case NoDaily(schedule=schedule):
            if schedule is None:
                return [schedule_shown(None)]
            return [f"Today's question is not out yet: {schedule_text(schedule)}."]
        case ScheduleShown(schedule=schedule) if schedule and schedule.team == LOCAL_TEAM:
            return [f"Here in the chat: {schedule_text(schedule)}. Type daily to see it."]
        case ScheduleShown(schedule=schedule):
            return [schedule_shown(schedule)]
        case ScheduleSet(schedule=schedule):
            return [schedule_set(schedule)]
        case ScheduleRemoved(removed=removed):
            return [schedule_removed(removed)]
        case NotHere(reason=reason):
            return [LOCAL_SCHEDULE if reason == "local_schedule" else NOT_ALLOWED]
        case Invalid(message=message):
            return [message]
        case GapsShown(rows=rows):
            return gaps_lines(rows)
        case ReadyShown(stats=stats):
            return [
                *(readiness_lines(stats.readiness) if stats.readiness else []),
                *plan_lines(stats.plan),
                *weekly_lines(stats.weeks),
            ]
        case ExamSet(plan=plan):
            return exam_set_lines(plan)
        case ExamShown(plan=plan):
            return plan_lines(plan)
        case ExamRemoved(removed=removed):
            return [exam_removed(removed)]
        case ReportKept(reported=reported):
            return [thanks(reported)]
        case NothingToReport(said_nothing=said_nothing):
            return [SAY_WHAT_IS_WRONG if said_nothing else NOTHING_TO_REPORT]
        case VersionShown(version=version):
            return [f"Study Tutor {version or 'unknown (not installed: run pip install -e .)'}"]
        case HelpShown(local=local):
            return help_lines(local=local)
        case Hello(thanks=said_thanks):
            return [YOU_ARE_WELCOME if said_thanks else HELLO]
        case Goodbye():
            return [GOODBYE]
        case MoreShown(question=question, chosen=chosen):
            if question is None:
                return [NOTHING_MORE]
            return [DAILY_WAITS] if result.waits else more_lines(question, chosen)
        case MockShown() | MockDone() | MockOffer() | MockDiscarded() | NoMock() | MockRefused():
            return render_mock(result)
    raise TypeError(f"no rendering for {type(result).__name__}")  # a new result needs one


def board_lines(board: Board, name_of: Names = str) -> list[str]:
    """A channel's board (with daily streaks) or the workspace's."""
    if board.channel is None:
        return leaderboard_lines(board.standings, board.period, name_of, title="Everyone")
    return team_board_lines(list(board.rows), board.period, name_of)


def revealed_lines(revealed: tuple[Reveal, ...]) -> list[str]:
    """Yesterday's local question, revealed on the way to today's."""
    lines: list[str] = []
    for reveal in revealed:
        first = question_lines(reveal.question)[0]
        lines += [f"Yesterday: {first}", *reveal_lines(reveal)]
    return lines


def gaps_lines(rows: tuple[dict, ...] | list[dict]) -> list[str]:
    if not rows:
        return [NO_GAPS]
    return [
        f"{row['times']:>4}x  {row['question']}  (best guess: {row['best_guess'] or '-'}, "
        f"{row['confidence']}%)"
        for row in rows
    ]


# -- readiness, the exam date and the plan ----------------------------------------------------

BAR = 12  # characters in a text bar at 100%
NO_EXAM = "No exam date set. Tell me with exam 2027-03-01 and I'll size each day's work."


def _pct(x: float) -> str:
    return f"{x:.0%}"


def _span(s: SectionReadiness | Readiness) -> str:
    return f"{_pct(s.mean)} ({_pct(s.low)}–{_pct(s.high)})"


def text_bar(share: float, width: int = BAR) -> str:
    """A bar of `width` cells, filled to `share` (the terminal's chart)."""
    filled = round(max(0.0, min(1.0, share)) * width)
    return "█" * filled + "·" * (width - filled)


def overall_line(readiness: Readiness, label: str = "Overall") -> str:
    return (
        f"{label}: {_span(readiness)}. {NO_PASS_MARK}; our target is {_pct(TARGET)} in every "
        "section."
    )


def too_few_line(readiness: Readiness) -> str:
    few = readiness.too_few()
    if not few:
        return ""
    if len(few) == len(readiness.sections):
        return "Not enough answers yet in any section: the ranges are wide until you answer more."
    names = ", ".join(s.section for s in few)
    return f"Not enough answers yet in {names}: those ranges stay wide until you answer more."


def readiness_lines(readiness: Readiness) -> list[str]:
    """Every section as a text bar with its estimate and range, then the weighted overall."""
    lines = [
        f"Readiness by exam section: your chance on a new question ({RANGE:.0%} range), "
        f"| marks the {_pct(TARGET)} target."
    ]
    for s in readiness.sections:
        bar = text_bar(s.mean)
        mark = round(TARGET * BAR)
        bar = bar[:mark] + "|" + bar[mark:]
        title = s.title if len(s.title) <= 28 else s.title[:27] + "…"
        note = "  not enough answers yet" if s.level == "wide" else ""
        lines.append(f"  {s.section} {title:<28} {bar} {_span(s)}, {s.answered} answered{note}")
    lines.append(overall_line(readiness))
    return lines


def weekly_lines(weeks: tuple[Week, ...]) -> list[str]:
    """Answers and accuracy per week as a compact text chart."""
    if not any(w.answered for w in weeks):
        return []
    most = max(w.answered for w in weeks)
    lines = ["Progress by week (answers, accuracy):"]
    for w in weeks:
        bar = text_bar(w.answered / most, 10) if most else ""
        accuracy = _pct(w.accuracy) if w.answered else "-"
        lines.append(f"  {w.start.isoformat()}  {bar} {w.answered:>3}  {accuracy:>4}")
    return lines


def countdown(plan: Plan) -> str:
    days = plan.days_left
    when = plan.exam.isoformat()
    if days < 0:
        return f"Your exam date {when} has passed. Set a new one with exam YYYY-MM-DD, or exam off."
    if days == 0:
        return f"Your exam is today ({when}). Good luck! Reviews only today: rest your head."
    return f"Exam on {when}: {days} day{'s' if days != 1 else ''} to go."


def plan_lines(plan: Plan | None) -> list[str]:
    """The countdown, today's work and the sections furthest from ready."""
    if plan is None:
        return [NO_EXAM]
    lines = [countdown(plan)]
    if plan.days_left <= 0:
        return lines
    work = []
    if plan.reviews_due:
        work.append(f"{plan.reviews_due} review{'s' if plan.reviews_due != 1 else ''} due")
    if plan.new_today:
        where = ", ".join(f"{n} in {s.section} {s.title}" for s, n in plan.focus)
        work.append(f"{plan.new_today} new question{'s' if plan.new_today != 1 else ''} ({where})")
    if work:
        lines.append("Today: " + ", then ".join(work) + ". Type quiz to start.")
    else:
        lines.append("Today: nothing due; every section is at the target. Keep it warm with quiz.")
    if plan.furthest:
        far = ", ".join(f"{s.section} ({_pct(s.mean)})" for s in plan.furthest)
        lines.append(f"Furthest from ready: {far}.")
    return lines


def readiness_summary(stats: Stats) -> list[str]:
    """For `stats` and App Home: the overall estimate, thin sections, the exam plan."""
    if stats.readiness is None:
        return []
    lines = [overall_line(stats.readiness, "Readiness overall")]
    few = too_few_line(stats.readiness)
    if few:
        lines.append(few)
    return lines + plan_lines(stats.plan)


def exam_set_lines(plan: Plan) -> list[str]:
    return [f"Saved: your exam date is {plan.exam.isoformat()}.", *plan_lines(plan)]


def exam_removed(removed: bool) -> str:
    if removed:
        return "Removed your exam date. Set one again any time with exam YYYY-MM-DD."
    return "You had no exam date set, so nothing changed."


# -- reports and ratings, for the curators ----------------------------------------------------

REASON_NAMES = {
    "wrong": "wrong answer key",
    "outdated": "outdated",
    "unclear": "unclear",
    "other": "something else",
}
REPORT_PROBLEM = "Report a problem"
HELPED = "👍 Helped"
DID_NOT_HELP = "👎 Didn't help"
REPORT_TITLE = "Report a problem"
REPORT_WHAT = "What is wrong?"
REPORT_COMMENT = "Tell the curators more (optional)"
REPORT_SEND = "Send"
NOTHING_TO_REPORT = (
    "There is nothing to report yet: report works right after an answer or a question "
    "(in Slack, use the Report a problem button under it)."
)
UNKNOWN_SUBJECT = "That question or answer is no longer in the tutor; there is nothing to report."
SAY_WHAT_IS_WRONG = "Say what is wrong after report, e.g. report the answer should be b."
NO_FLAGS = "No open flags: nobody has reported a problem with a question or an answer."


def thanks(reported: Reported) -> str:
    """The reporter's thanks: what was kept and what happens next."""
    if reported.reason in ("up", "down"):
        return "Thanks for the rating: it helps the curators see which answers work."
    what = REASON_NAMES.get(reported.reason, reported.reason)
    out = " It is out of the daily rotation until a curator checks it."
    out = out if reported.withdrawn else ""
    return f"Thanks! Your report on “{reported.name}” ({what}) is with the curators.{out}"


def curator_lines(reported: Reported) -> list[str]:
    """The note posted to the curators' channel (TUTOR_CURATOR_CHANNEL) for a new report."""
    what = REASON_NAMES.get(reported.reason, reported.reason)
    lines = [f"New report on {reported.kind} {reported.item} ({reported.name}): {what}."]
    if reported.comment:
        lines.append(f"Comment: {reported.comment}")
    if reported.withdrawn:
        lines.append(
            f"It is out of the daily rotation; clear it with tutor flags clear {reported.item}"
        )
    return lines


def flags_lines(items: list[FlaggedItem], name_of: Callable[[str, str], str]) -> list[str]:
    """`tutor flags`: each flagged item, newest first, its reports with their comments."""
    if not items:
        return [NO_FLAGS]
    lines: list[str] = []
    for item in items:
        counts = [f"{len(item.reports)} report{'s' if len(item.reports) != 1 else ''}"]
        if item.ups or item.downs:
            counts.append(f"👍 {item.ups} 👎 {item.downs}")
        out = ", out of the daily rotation" if item.withdrawn else ""
        lines.append(
            f"{item.kind} {item.item}  {name_of(item.kind, item.item)}  "
            f"({', '.join(counts)}{out}; last {readable_time(item.newest)})"
        )
        for flag in item.reports:
            said = f": {flag.comment}" if flag.comment else ""
            lines.append(f"  #{flag.id} {REASON_NAMES.get(flag.reason, flag.reason)}{said}")
    lines.append("Clear an item once dealt with: tutor flags clear ID")
    return lines
