"""Mock exams: the draw's proportions, no feedback until the end, time limits, resume and discard,
and answers that never reach a board. Time is the `now` argument throughout."""

from __future__ import annotations

import datetime as dt
import json
import random
from collections import Counter
from pathlib import Path

import pytest

from bot.catalog import Catalog, load_catalog
from bot.chat import respond
from bot.content import DOMAINS
from bot.conversation import Command, Place, Verb, handle, parse
from bot.mock import (
    FRESH,
    PACE,
    MockDiscarded,
    MockDone,
    MockOffer,
    MockRefused,
    MockShown,
    NoMock,
    SectionScore,
    domain_of,
    draw,
    quotas,
    section_scores,
)
from bot.mock_exams import MockExams
from bot.quiz import Question, QuestionBank
from bot.replies import render, stats_lines
from bot.schedule import Schedule
from bot.slack import blocks
from bot.standings import Standings
from bot.store import DailyStore, Store, tallies
from bot.tutor import Tutor

ROOT = Path(__file__).resolve().parent.parent
TEAM, USER, CHANNEL = "T1", "U1", "C1"
WEIGHTS = {d: float(w) for d, (_, w) in DOMAINS.items()}


@pytest.fixture(scope="module")
def shipped() -> Catalog:
    return load_catalog(ROOT)


@pytest.fixture
def exam(shipped: Catalog, tmp_path: Path) -> Tutor:
    """A tutor over the shipped questions (every exam section) and a fresh SQLite file."""
    return Tutor(shipped, Store(tmp_path / "tutor.db"), rng=random.Random(11))


def share(domain: str, size: int) -> float:
    return size * WEIGHTS[domain] / sum(WEIGHTS.values())


def take(tutor: Tutor, shown, letter_of, now: dt.datetime, user: str = USER):
    """Answer every question of a mock with `letter_of(question)`; every step's result."""
    steps = [shown]
    mocks = MockExams(tutor)
    while isinstance(shown, MockShown):
        shown = mocks.answer(
            post_id=shown.post_id, user=user, team=TEAM, choice=letter_of(shown.question), now=now
        )
        steps.append(shown)
    return steps


def start(tutor: Tutor, now: dt.datetime, size: int = 20, *, timed: bool = False, user=USER):
    return MockExams(tutor).start(
        team=TEAM, user=user, channel=CHANNEL, size=size, timed=timed, now=now
    )


# -- the draw -----------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [5, 13, 20, 37, 60])
def test_quotas_follow_the_weights_within_one_question(size):
    """Each section gets its share of N rounded down or up, and the parts add up to N."""
    counts = quotas(size, WEIGHTS, dict.fromkeys(WEIGHTS, 100))
    assert sum(counts.values()) == size
    for domain, count in counts.items():
        assert abs(count - share(domain, size)) < 1, (domain, count)


def test_quotas_give_a_short_sections_rest_to_the_others():
    """A section with too few questions gives what it cannot fill to the others, in proportion."""
    counts = quotas(20, WEIGHTS, {**dict.fromkeys(WEIGHTS, 100), "3": 1})
    assert counts["3"] == 1 and sum(counts.values()) == 20
    assert counts["4"] >= counts["1"] and counts["4"] > 4


@pytest.mark.parametrize(
    ("size", "expected"),
    [
        # 20 × (13, 16, 21, 20, 18, 13) / 101 = 2.574, 3.168, 4.158, 3.960, 3.564, 2.574: the
        # floors make 17; the three largest remainders (.960, .574, .574) beat 5's .564.
        (20, {"1": 3, "2": 3, "3": 4, "4": 4, "5": 3, "6": 3}),
        # 60 × … / 101 = 7.723, 9.505, 12.475, 11.881, 10.693, 7.723: floors 56, four more go to
        # 4 (.881), 1 and 6 (.723) and 5 (.693); 2 (.505) and 3 (.475) stay rounded down.
        (60, {"1": 8, "2": 9, "3": 12, "4": 12, "5": 11, "6": 8}),
    ],
)
def test_quotas_round_up_the_largest_remainders(size, expected):
    """Largest remainders: every part gets its share rounded down, and the questions left over
    go one each to the parts with the largest fractions."""
    assert quotas(size, WEIGHTS, dict.fromkeys(WEIGHTS, 100)) == expected


def test_a_short_section_leaves_its_last_question_to_the_largest_remainder():
    """Section 3 can give only 3 of its 4: the one left is split by the others' weights
    (13, 16, 20, 18, 13 of 80: 4 has the largest share, .25), so 4 gets it."""
    counts = quotas(20, WEIGHTS, {**dict.fromkeys(WEIGHTS, 100), "3": 3})
    assert counts == {"1": 3, "2": 3, "3": 3, "4": 5, "5": 3, "6": 3}


@pytest.mark.parametrize(
    ("weights", "capacity", "expected"),
    [
        ({"a": 1.0, "b": 1.0}, {"a": 10}, {"a": 10, "b": 0}),  # b has no questions at all
        ({"a": 1.0, "b": 1.0}, {"a": 2, "b": 3}, {"a": 2, "b": 3}),  # the bank runs out
        ({"a": 0.5, "b": 0.5}, {"a": 9, "b": 9}, {"a": 5, "b": 5}),  # weights at any scale
        ({"a": 1.0, "b": 0.0}, {"a": 2, "b": 9}, {"a": 2, "b": 0}),  # weight 0: never drawn
    ],
    ids=["no-questions", "bank-runs-out", "fractional-weights", "zero-weight"],
)
def test_quotas_never_exceed_what_each_part_has(weights, capacity, expected):
    """Ten questions asked: a part gets no more than its questions, the others take the rest;
    when all parts are used up the mock is smaller; a weight of 0 gets nothing."""
    assert quotas(10, weights, capacity) == expected


def question(qid: str, section: str) -> Question:
    return Question(
        qid, section, "t", "medium", "?", (("A", "a"), ("B", "b")), "A", {"A": "", "B": ""}, (), ""
    )


def test_a_bank_without_some_sections_still_gives_a_mock(catalog):
    """The small bank has questions in 3.2 only: a mock of 3 is those three."""
    drawn = draw(catalog.questions, 3, seen={}, rng=random.Random(1))
    assert sorted(q.id for q in drawn) == sorted(q.id for q in catalog.questions.questions)


@pytest.mark.parametrize("seed", range(6))
def test_subsections_take_turns_within_a_section(seed):
    """Section 3 with six unseen questions in each of 3.1, 3.2 and 3.3: a draw of nine takes three
    from each; with one question in 3.2 and 3.3 and ten in 3.1, a draw of three takes both."""
    even = QuestionBank(
        tuple(question(f"{s}-{i}", s) for s in ("3.1", "3.2", "3.3") for i in range(6))
    )
    drawn = draw(even, 9, seen={}, rng=random.Random(seed))
    assert Counter(q.section for q in drawn) == {"3.1": 3, "3.2": 3, "3.3": 3}
    lopsided = QuestionBank(
        (*(question(f"a{i}", "3.1") for i in range(10)), question("b", "3.2"), question("c", "3.3"))
    )
    assert {"b", "c"} <= {q.id for q in draw(lopsided, 3, seen={}, rng=random.Random(seed))}


def test_section_scores_are_per_exam_section_in_the_guides_order():
    """Right answers and totals per domain, domains in the guide's order whatever the order asked."""
    graded = [
        (question("x", "6.1"), False),
        (question("y", "3.2"), True),
        (question("z", "3.3"), False),
        (question("w", "6.2"), True),
        (question("v", "1.1"), True),
    ]
    assert section_scores(graded) == (
        SectionScore("1", 1, 1),
        SectionScore("3", 1, 2),
        SectionScore("6", 1, 2),
    )


def test_a_mock_of_20_follows_the_section_proportions(shipped):
    """The shipped bank allows it: 20 distinct questions, each section within one of its share."""
    for seed in range(5):
        drawn = draw(shipped.questions, 20, seen={}, rng=random.Random(seed))
        assert len({q.id for q in drawn}) == 20
        per = Counter(domain_of(q.section) for q in drawn)
        for domain in WEIGHTS:
            assert abs(per[domain] - share(domain, 20)) < 1, (seed, domain, per)


def test_questions_seen_in_the_last_30_days_are_left_out_when_the_bank_allows(shipped):
    """All but 3 of a section's questions seen: those 3 come first, then the least recent."""
    six = [q for q in shipped.questions.questions if domain_of(q.section) == "6"]
    seen = {q.id: f"2026-11-{10 + i:02d}T08:00:00+00:00" for i, q in enumerate(six[3:])}
    drawn = draw(shipped.questions, 60, seen=seen, rng=random.Random(3))
    mine = [q.id for q in drawn if domain_of(q.section) == "6"]
    assert set(q.id for q in six[:3]) <= set(mine)
    again = [q for q in mine if q in seen]
    assert sorted(seen[q] for q in again) == sorted(seen.values())[: len(again)]
    fresh = draw(shipped.questions, 20, seen=seen, rng=random.Random(3))
    assert not {q.id for q in fresh} & set(seen)


def test_the_store_remembers_what_was_seen_for_30_days(exam, now):
    """A private quiz and a mock's shown question count as seen; older ones do not."""
    old = exam.quiz(team=TEAM, user=USER, now=now - FRESH - dt.timedelta(days=1))
    recent = exam.quiz(team=TEAM, user=USER, now=now - dt.timedelta(days=2))
    seen = MockExams(exam).store.seen_since(team=TEAM, user=USER, since=now - FRESH)
    assert old.question.id != recent.question.id  # a new quiz avoids what was asked before
    assert recent.question.id in seen and old.question.id not in seen


# -- taking one --------------------------------------------------------------------------------


def test_a_mock_hides_feedback_until_the_end(exam, now):
    """Each answer is only recorded; the end shows score, sections, time and each miss explained."""
    first = start(exam, now)
    assert isinstance(first, MockShown) and first.position == 0 and first.size == 20
    picks: dict[str, str] = {}

    def pick(question):
        letter = question.answer if len(picks) % 2 == 0 else question.letters[0]
        picks[question.id] = letter
        return letter

    steps = take(exam, first, pick, now + dt.timedelta(minutes=25))
    *middle, done = steps
    assert all(isinstance(s, MockShown) for s in middle) and len(middle) == 20
    for step in middle[1:]:
        said = "\n".join(respond_lines(step))
        assert step.recorded and "Correct" not in said and "Not quite" not in said
        assert "Answer:" not in said and step.question.explanations["A"] not in said
    assert isinstance(done, MockDone)
    right = sum(
        1 for qid, letter in picks.items() if exam.catalog.questions.get(qid).answer == letter
    )
    assert done.correct == right and done.size == 20
    assert sum(s.total for s in done.sections) == 20
    assert sum(s.correct for s in done.sections) == right
    assert done.used == dt.timedelta(minutes=25)
    assert {m.question.id for m in done.missed} == {
        qid for qid, letter in picks.items() if exam.catalog.questions.get(qid).answer != letter
    }
    lines = respond_lines(done)
    assert lines[0].startswith(f"Mock exam finished: {right}/20")
    assert any(line.startswith("   Read next: ") for line in lines)


def respond_lines(result) -> list[str]:
    return render(result)


def test_mock_answers_reach_no_board_and_no_team(exam, now):
    """Boards (channel, workspace, every period, recap bounds) and teams are the same after."""
    daily = DailyStore(exam.store)
    daily.set_schedule(Schedule(TEAM, CHANNEL, "09:00", "UTC", "*"), by=USER, now=now)
    asked = exam.quiz(team=TEAM, user=USER, channel=CHANNEL, now=now)
    exam.answer(post_id=asked.post.id, user=USER, choice=asked.question.answer, now=now, team=TEAM)
    standings = Standings(exam.store)

    def boards():
        found = []
        for period in ("week", "month", "all"):
            for channel in (CHANNEL, None):
                found.append(standings.board(team=TEAM, channel=channel, period=period, now=now))
            found.append(standings.teams(team=TEAM, period=period, now=now))
        since = now - dt.timedelta(days=7)
        found.append(standings.board(team=TEAM, channel=CHANNEL, now=now, since=since))
        found.append(standings.board(team=TEAM, now=now, since=since))
        found.append(exam.store.weak_sections(team=TEAM))
        return found

    before = boards()
    take(exam, start(exam, now), lambda q: q.answer, now + dt.timedelta(minutes=1))
    assert boards() == before
    tallies.rebuild(exam.store.db)  # a recount from the answers agrees
    assert boards() == before
    zone = Schedule(TEAM, CHANNEL, "09:00", "Europe/Berlin", "*")
    daily.set_schedule(zone, by=USER, now=now)  # boards recounted on a new clock
    assert standings.board(team=TEAM, channel=CHANNEL, period="week", now=now) == before[0]


def test_mock_answers_are_ordinary_answers_of_the_learner(exam, now):
    """They are in the learner's history (what reviews and readiness read) and own totals."""
    done = take(exam, start(exam, now, 5), lambda q: q.answer, now)[-1]
    rows = exam.store.db.execute(
        "select a.question_id, a.correct from answers a join posts p on p.id = a.post_id "
        "where p.kind = 'mock' and a.user = ?",
        [USER],
    ).fetchall()
    assert len(rows) == 5 and all(correct for _, correct in rows)
    assert exam.store.totals(team=TEAM, user=USER) == (5, 5)
    assert isinstance(done, MockDone) and done.correct == 5


def test_a_time_limit_at_the_exams_pace_ends_the_mock(exam, now):
    """Two minutes a question; an answer after the deadline is not recorded and the mock ends."""
    first = start(exam, now, 5, timed=True)
    assert first.time_left == PACE * 5 == dt.timedelta(minutes=10)
    mocks = MockExams(exam)
    second = mocks.answer(
        post_id=first.post_id, user=USER, team=TEAM, choice="A", now=now + dt.timedelta(minutes=4)
    )
    assert isinstance(second, MockShown) and second.time_left == dt.timedelta(minutes=6)
    late = now + dt.timedelta(minutes=11)
    done = mocks.answer(post_id=second.post_id, user=USER, team=TEAM, choice="A", now=late)
    assert isinstance(done, MockDone) and done.ran_out
    assert done.used == dt.timedelta(minutes=10) and len(done.missed) >= 4
    assert exam.store.answer_of(second.post_id, USER) is None
    assert respond_lines(done)[0].startswith("Time's up!")


def test_an_open_mock_is_offered_again_and_resumed_where_it_was(exam, now):
    """`mock` again offers resume or discard; resume shows the question waiting; one open only."""
    first = start(exam, now, 5)
    second = MockExams(exam).answer(
        post_id=first.post_id, user=USER, team=TEAM, choice="A", now=now
    )
    offer = start(exam, now, 10)
    assert offer == MockOffer(first.mock_id, 1, 5, None)
    assert "mock resume" in " ".join(respond_lines(offer))
    resumed = MockExams(exam).resume(team=TEAM, user=USER, now=now)
    assert isinstance(resumed, MockShown) and resumed.how == "resume"
    assert (resumed.post_id, resumed.position) == (second.post_id, 1)
    opened = exam.store.db.execute("select count(*) from mocks where status = 'open'").fetchone()
    assert opened == (1,)


def test_stats_and_app_home_show_the_open_mock_until_it_ends(exam, now):
    """Stats (the command, and App Home) say a mock is waiting and how to go on; not once its
    time is up, nor after it is discarded."""
    first = start(exam, now, 5, timed=True)
    MockExams(exam).answer(post_id=first.post_id, user=USER, team=TEAM, choice="A", now=now)
    later = now + dt.timedelta(minutes=4)
    stats = exam.stats(team=TEAM, user=USER, now=later)
    assert stats.mock == MockOffer(first.mock_id, 1, 5, dt.timedelta(minutes=6))
    shown = "\n".join(stats_lines(stats))
    assert "mock exam in progress: 1 of 5 answered, 6 min left" in shown
    assert "mock resume" in shown
    home = json.dumps(blocks.home(stats, Standings(exam.store).board(team=TEAM, now=later)))
    assert "1 of 5 answered" in home
    assert exam.stats(team=TEAM, user="U2", now=later).mock is None  # someone else's
    assert exam.stats(team=TEAM, user=USER, now=now + dt.timedelta(minutes=10)).mock is None
    MockExams(exam).discard(team=TEAM, user=USER, now=later)
    assert exam.stats(team=TEAM, user=USER, now=later).mock is None


def test_a_mock_opened_before_any_answer_is_in_the_stats(exam, now):
    start(exam, now, 5)
    stats = exam.stats(team=TEAM, user=USER, now=now)
    assert stats.answered == 0
    assert "mock exam in progress: 0 of 5 answered" in " ".join(stats_lines(stats))


def test_discard_drops_the_mock_and_keeps_its_answers(exam, now):
    """Discarded: nothing left to resume, the answer given stays, a new mock can start."""
    first = start(exam, now, 5)
    MockExams(exam).answer(post_id=first.post_id, user=USER, team=TEAM, choice="A", now=now)
    assert MockExams(exam).discard(team=TEAM, user=USER, now=now) == MockDiscarded(1, 5)
    assert MockExams(exam).resume(team=TEAM, user=USER, now=now) == NoMock()
    assert MockExams(exam).discard(team=TEAM, user=USER, now=now) == NoMock()
    assert exam.store.answer_of(first.post_id, USER) == "A"
    gone = MockExams(exam).answer(post_id=first.post_id, user=USER, team=TEAM, choice="B", now=now)
    assert gone == MockRefused("over")
    assert isinstance(start(exam, now, 5), MockShown)


def test_stale_foreign_and_bad_answers_record_nothing(exam, now):
    """An answered question, an older message, someone else's mock, a letter not offered."""
    first = start(exam, now, 5)
    mocks = MockExams(exam)
    mocks.shown_at(first.mock_id, channel="D1", ts="100.1")
    foreign = mocks.answer(post_id=first.post_id, user="U2", team=TEAM, choice="A", now=now)
    assert foreign == MockRefused("not_yours")
    older = mocks.answer(
        post_id=first.post_id, user=USER, team=TEAM, choice="A", now=now, shown_in="99.9"
    )
    assert older == MockRefused("stale")
    bad = mocks.answer(post_id=first.post_id, user=USER, team=TEAM, choice="z", now=now)
    assert isinstance(bad, MockRefused) and bad.reason == "invalid"
    assert respond_lines(bad) == ["'z' is not one of the choices. Answer with a, b, c, d."]
    assert exam.store.answer_of(first.post_id, USER) is None
    mocks.answer(post_id=first.post_id, user=USER, team=TEAM, choice="A", now=now, shown_in="100.1")
    again = mocks.answer(post_id=first.post_id, user=USER, team=TEAM, choice="B", now=now)
    assert again == MockRefused("stale") and exam.store.answer_of(first.post_id, USER) == "A"


@pytest.mark.parametrize("size", [0, 4, 61, 1000])
def test_a_size_out_of_bounds_says_the_bounds(exam, now, size):
    """mock 0 / mock 1000: one line naming the allowed sizes; nothing is started."""
    refused = start(exam, now, size)
    assert refused == MockRefused("too_few", size=60)
    assert respond_lines(refused) == [
        "A mock exam has 5 to 60 questions (the real exam has 50-60). Try mock 20."
    ]
    assert exam.store.db.execute("select count(*) from mocks").fetchone() == (0,)


# -- the conversation -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "arg"),
    [
        ("mock", ""),
        ("mock exam", ""),
        ("Mock 10", "10"),
        ("mock 10 timed", "10 timed"),
        ("mock timed", "timed"),
        ("mock resume", "resume"),
        ("mock discard!", "discard"),
    ],
)
def test_mock_shapes(line, arg):
    """The mock command's shapes; its words elsewhere leave a line a question."""
    assert parse(line) == Command(Verb.MOCK, arg)


def test_mock_words_in_a_question_stay_a_question():
    assert parse("mock the prediction service in tests?").verb is Verb.ASK


def test_the_chat_takes_a_mock_by_letters_around_a_quiz(exam, now):
    """Letters answer the newest open question: the mock's, a quiz asked in between, the mock's."""
    said = respond(exam, "mock 5", user=USER, now=now)
    assert said[1] == "Question 1 of 5"
    assert respond(exam, "a", user=USER, now=now)[:2] == ["Recorded a.", "Question 2 of 5"]
    respond(exam, "quiz", user=USER, now=now)
    graded = respond(exam, "b", user=USER, now=now)
    assert graded[0] in ("Correct!", "Not quite.")
    assert respond(exam, "c", user=USER, now=now)[:2] == ["Recorded c.", "Question 3 of 5"]
    for _ in range(3):
        last = respond(exam, "d", user=USER, now=now)
    assert last[0].startswith("Mock exam finished: ")


def test_the_help_lists_mock(exam, now):
    """Every surface's help comes from USAGE, so mock is in all of them."""
    lines = respond_lines(handle(exam, parse("help"), Place(TEAM, USER, CHANNEL), now))
    assert any(line.strip().startswith("mock [N] [timed]") for line in lines)
