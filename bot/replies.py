"""The bot's voice: every sentence it says, as plain text.

The terminal prints these; Slack uses them as the `text` fallback and inside Block Kit (the Slack
layer escapes them). Nothing here knows about Slack or the terminal.
"""

from __future__ import annotations

from bot.knowledge import Entry
from bot.matching import Lookup
from bot.quiz import Question
from bot.scores import Standing
from bot.tutor import Graded, Stats

HELP = """I'm Study Tutor, for the Google Cloud Professional ML Engineer exam
(Domain 3: scaling prototypes into ML models).
  <your question>        which service or technique fits a need, e.g. "no-code training?"
  quiz                   a quick-check question; answer with a, b, c, d (or 1-4)
  leaderboard [week|month|all]   who is ahead
  stats                  your answered, accuracy, streak and weakest topics
  help                   this list"""

CHAT_EXTRA = "  quit                   leave the chat"
WELCOME = "Study Tutor. Ask me which Google Cloud service fits a need, or type quiz. (help, quit)"
DONT_KNOW = "I don't know that one."
NO_ANSWERS_YET = "No answers yet. Type quiz to get the first question."
NO_PENDING = "There is no open question. Type quiz to get one."
UNKNOWN_POST = "That question is no longer available. Ask for a new one with quiz."
SORRY = "Sorry, something went wrong on my side. Please try again in a moment."


def status_line(entry: Entry) -> str:
    if entry.status == "current":
        return ""
    return f"Note ({entry.status}): {entry.status_note}"


def answer_lines(lookup: Lookup, kb_get) -> list[str]:
    """An answer for a person: the means, why, the mix-up to watch, the source; or did-you-mean."""
    if lookup.best is None:
        return dont_know_lines(lookup)
    entry = lookup.best.entry
    lines = []
    if lookup.named is not None:
        named = lookup.named.means
        lines.append(f"You mention {named}, but for this need the usual answer is {entry.means}.")
    lines.append(f"{entry.means}  ({lookup.best.confidence}% sure)")
    lines.append(entry.why)
    note = status_line(entry)
    if note:
        lines.append(note)
    for watch in entry.watch_out[:2]:
        other = kb_get(watch.id)
        name = other.means if other else watch.id
        lines.append(f"Don't confuse with {name}: {watch.note}")
    if entry.sources:
        lines.append(f"Source: {entry.sources[0]}")
    if lookup.alternatives:
        others = ", ".join(m.entry.means for m in lookup.alternatives)
        lines.append(f"Related: {others}")
    return lines


def dont_know_lines(lookup: Lookup) -> list[str]:
    if not lookup.alternatives:
        return [DONT_KNOW + ' Try naming the need, e.g. "train without code" or "NaN loss".']
    lines = [DONT_KNOW + " Did you mean:"]
    lines += [f"  - {m.entry.means}" for m in lookup.alternatives]
    return lines


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
    return "Correct!" if graded.correct else "Not quite."


def feedback_lines(graded: Graded) -> list[str]:
    """Why the chosen answer is right or wrong, and why the correct one is right."""
    question = graded.question
    lines = [verdict(graded)]
    if graded.status == "invalid":
        return lines
    chosen, right = graded.choice, question.answer
    if chosen in question.letters:
        lines.append(f"{chosen.lower()}) {_explained(question, chosen)}")
    if chosen != right:
        lines.append(f"Answer: {right.lower()}) {_explained(question, right)}")
    others = [x for x in question.letters if x not in (chosen, right)]
    lines += [f"   {x.lower()}) {question.explanations.get(x, '')}" for x in others]
    if graded.entries:
        lines.append("Read next: " + ", ".join(e.means for e in graded.entries[:2]))
    lines.append(f"Source: {question.source}")
    return lines


def leaderboard_lines(standings: list[Standing], period: str) -> list[str]:
    if not standings:
        return [NO_ANSWERS_YET]
    title = {"week": "this week", "month": "this month"}.get(period, "all time")
    lines = [f"Leaderboard, {title}:"]
    lines += [
        f"{s.rank:>3}. {s.user}  {s.points} pt  ({s.correct}/{s.answered}, {s.accuracy:.0%})"
        for s in standings
    ]
    return lines


def stats_lines(stats: Stats) -> list[str]:
    if not stats.answered:
        return [NO_ANSWERS_YET]
    lines = [
        f"Answered {stats.answered}, correct {stats.correct} ({stats.accuracy:.0%}).",
        f"Streak: {stats.streak} day{'s' if stats.streak != 1 else ''}.",
    ]
    if stats.weakest:
        weak = ", ".join(f"{t.topic} ({t.correct}/{t.answered})" for t in stats.weakest)
        lines.append(f"Weakest topics: {weak}.")
    return lines


def _explained(question: Question, letter: str) -> str:
    return f"{question.choice_text(letter)}: {question.explanations.get(letter, '')}"
