"""Fast at a million answers: every figure of issue 13, each beside a floor measured in this run.

The workspace: 5,000 learners in 200 channels with 1,000,000 answers over 200 days (half daily
questions, half private quizzes), bulk-loaded in the real schema by tests/workspace.py, its
tallies counted by the store's own `tallies.rebuild`, then ANALYZEd. Sections:

  reads     p50/p99 of every board, stats and the App Home read, beside a primary-key read of
            one answer (the floor); target: p99 <= 20 ms
  commits   answers/s through Store.record_answer (with tallies) beside a bare one-row commit
            in the same file (the floor), at synchronous=NORMAL (what the store uses) and FULL
  clicks    answers/s end to end through `tutor serve` (one worker; clicks until every
            feedback reached Slack's stand-in), empty file and 1M answers, Slack answering at
            once and after 100 ms; beside the ack rate of the same burst (the floor); the
            median of three bursts of 1,000 clicks each.
            Targets: 1M >= 90% of empty, and >= 90% of the acks
  daily     a pass for 1,000 and 10,000 channels whose every Slack call takes 50 ms (a poster
            that sleeps), post day and reveal-and-post day; floor: the calls at 50 ms on
            DAILY_WORKERS lanes. Target: 10,000 channels <= 2 minutes
  start     `tutor ask` and `tutor chat` (to its prompt and out) beside
            `python -c 'import slack_bolt'` (the floor); target: ask <= 2.5x
  memory    RSS of `tutor serve` (master and one worker) beside a bare bolt app served the
            same way (the floor); target <= 1.5x
  roundtrip `/tutor <question>` over varied questions beside the bare bolt app; target <= 2x

Run: `python -m bench.scale [--answers N] [--only reads,clicks,…]` (about 3 minutes at 1M).
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bot.catalog import Catalog, load_catalog
from bot.daily import Daily
from bot.knowledge import KnowledgeBase
from bot.quiz import QuestionBank
from bot.standings import PERIODS, Standings
from bot.store import Store
from bot.tutor import Tutor
from tests import workspace
from tests.slack_stub import (
    ROOT,
    SIGNING_SECRET,
    TEAM,
    SlackRequests,
    SlackStub,
    slack_env,
    start,
)

LEARNERS, CHANNELS = 5000, 200
BURSTS = 3  # click bursts per configuration; the median is reported
SECTIONS = ("reads", "commits", "clicks", "daily", "start", "memory", "roundtrip")
Row = tuple[str, float, str, float | None, str]  # figure, value, unit, floor, target


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.scale")
    parser.add_argument("--answers", type=int, default=1_000_000)
    parser.add_argument("--only", default=",".join(SECTIONS), help="sections, comma-separated")
    parser.add_argument(
        "--workspace", type=Path, help="keep the built workspace in this file and reuse it"
    )
    parser.add_argument("--stub", type=float, help=argparse.SUPPRESS)
    args = parser.parse_args(argv if argv is not None else [])
    if args.stub is not None:
        serve_stub(args.stub)
        return
    only = set(args.only.split(","))
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        big = args.workspace or tmp / "big.db"
        if only & {"reads", "commits", "clicks"} and not big.exists():
            began = time.perf_counter()
            workspace.build(
                big, answers=args.answers, learners=LEARNERS, channels=CHANNELS, team=TEAM
            )
            size = big.stat().st_size / 2**20
            print(
                f"workspace: {args.answers:,} answers, {LEARNERS:,} learners, {CHANNELS} "
                f"channels, {size:.0f} MiB, built in {time.perf_counter() - began:.0f} s"
            )
        rows: list[Row] = []
        for name in SECTIONS:
            if name in only:
                found = globals()[f"bench_{name}"](tmp, big)
                print_rows(found)
                rows += found
    print("\nall figures:")
    print_rows(rows)


def print_rows(rows: list[Row]) -> None:
    if not rows:
        return
    print(f"{'figure':<52}{'value':>12}  {'floor':>10}  {'ratio':>7}  target")
    for figure, value, unit, floor, target in rows:
        ratio = f"{value / floor:6.2f}x" if floor else ""
        floor_text = f"{floor:10.2f}" if floor is not None else ""
        print(f"{figure:<52}{value:>9.2f} {unit:<3}{floor_text:>11}  {ratio:>7}  {target}")


# -- reads ------------------------------------------------------------------------------------


def bench_reads(tmp: Path, big: Path, runs: int = 300) -> list[Row]:
    store = Store(big)
    standings = Standings(store)
    tutor = Tutor(Catalog(KnowledgeBase(()), QuestionBank(())), store)
    now = workspace.END
    rng = random.Random(5)
    channel = lambda: workspace.channel_id(rng.randrange(CHANNELS))  # noqa: E731
    learner = lambda: workspace.learner_id(rng.randrange(LEARNERS))  # noqa: E731
    top = store.db.execute("select max(id) from answers").fetchone()[0]
    reads: dict[str, Callable[[], object]] = {
        "floor: one answer by primary key": lambda: store.db.execute(
            "select * from answers where id = ?", [rng.randrange(1, top)]
        ).fetchone()
    }
    for period in PERIODS:
        reads[f"channel board, {period}"] = lambda p=period: standings.board(
            team=TEAM, channel=channel(), period=p, now=now
        )
        reads[f"workspace board, {period}"] = lambda p=period: standings.board(
            team=TEAM, period=p, now=now
        )
        reads[f"teams board, {period}"] = lambda p=period: standings.teams(
            team=TEAM, period=p, now=now
        )
    reads["stats"] = lambda: tutor.stats(team=TEAM, user=learner(), now=now)
    reads["App Home read (stats + workspace week)"] = lambda: (
        tutor.stats(team=TEAM, user=learner(), now=now),
        standings.board(team=TEAM, now=now),
    )
    reads["weakest sections of a channel (daily pass)"] = lambda: store.weak_sections(
        team=TEAM, channel=channel()
    )
    times = {name: timed(read, runs) for name, read in reads.items()}
    floor = times.pop("floor: one answer by primary key")
    floor50, floor99 = percentile(floor, 0.5), percentile(floor, 0.99)
    rows: list[Row] = []
    for name, values in times.items():
        p50, p99 = percentile(values, 0.5), percentile(values, 0.99)
        rows.append((f"{name} p50", p50, "ms", floor50, ""))
        rows.append((f"{name} p99", p99, "ms", floor99, "<= 20 ms"))
    return rows


def timed(read: Callable[[], object], runs: int) -> list[float]:
    for _ in range(5):
        read()
    found = []
    for _ in range(runs):
        began = time.perf_counter()
        read()
        found.append((time.perf_counter() - began) * 1000)
    return found


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


# -- commits ----------------------------------------------------------------------------------


def bench_commits(tmp: Path, big: Path, count: int = 3000) -> list[Row]:
    rows: list[Row] = []
    copy = tmp / "commits.db"
    shutil.copy(big, copy)
    store = Store(copy)
    posts = [
        r[0]
        for r in store.db.execute(
            "select id from posts where kind = 'daily' order by id desc limit 50"
        )
    ]
    for mode in ("NORMAL", "FULL"):
        store.db.execute(f"PRAGMA synchronous={mode}")
        store.db.execute("create table if not exists floor (id integer primary key, x text)")
        began = time.perf_counter()
        for n in range(count):
            store.db.execute("insert into floor (x) values (?)", [str(n)])
        floor = count / (time.perf_counter() - began)
        began = time.perf_counter()
        for n in range(count):
            post = store.post(posts[n % len(posts)])
            assert post is not None
            store.record_answer(
                post,
                user=f"UB{mode}{n:07d}",
                choice="A",
                correct=n % 2 == 0,
                section="3.1",
                topic="t",
                now=workspace.END,
            )
        rate = count / (time.perf_counter() - began)
        target = "store path near the floor" if mode == "NORMAL" else "(FULL, for comparison)"
        rows.append((f"answers/s recorded with tallies, {mode}", rate, "/s", floor, target))
    return rows


# -- clicks end to end ------------------------------------------------------------------------


def bench_clicks(tmp: Path, big: Path, clicks: int = 1000, connections: int = 16) -> list[Row]:
    rows: list[Row] = []
    content = ROOT  # the shipped content (knowledge/ and quizzes/ under the repository)
    results: dict[tuple[str, int], tuple[float, float]] = {}
    for latency in (0, 100):
        for name in ("empty", "1M"):
            folder = tmp / f"clicks-{name}-{latency}"
            folder.mkdir()
            if name == "1M":
                shutil.copy(big, folder / "tutor.db")
            results[(name, latency)] = clicks_through_serve(
                folder, content, latency / 1000, clicks, connections
            )
    for latency in (0, 100):
        acks_empty, done_empty = results[("empty", latency)]
        acks_big, done_big = results[("1M", latency)]
        rows.append(
            (
                f"Slack {latency} ms: answers/s e2e, empty file",
                done_empty,
                "/s",
                acks_empty,
                ">= 90% of acks",
            )
        )
        rows.append(
            (
                f"Slack {latency} ms: answers/s e2e, 1M answers",
                done_big,
                "/s",
                acks_big,
                ">= 90% of acks",
            )
        )
        rows.append(
            (
                f"Slack {latency} ms: 1M rate / empty rate",
                done_big / done_empty,
                "",
                None,
                ">= 0.90",
            )
        )
    return rows


def clicks_through_serve(
    folder: Path, content: Path, latency: float, clicks: int, connections: int
) -> tuple[float, float]:
    """(acks/s, answers/s until every feedback reached Slack) for one burst of clicks."""
    stub = OutOfProcessStub(latency)
    try:
        env = slack_env(
            SLACK_BOT_TOKEN="xoxb-bench",
            SLACK_API_URL=stub.url,
            TUTOR_DB=str(folder / "tutor.db"),
            TUTOR_CONTENT=str(content),
        )
        at = (dt.datetime.now(dt.UTC) - dt.timedelta(minutes=1)).strftime("%H:%M")
        for args in (
            [
                "schedule",
                "add",
                "--channel",
                "CBENCH1",
                "--at",
                at,
                "--tz",
                "UTC",
                "--days",
                "daily",
                "--team",
                TEAM,
            ],
            ["daily", "--channel", "CBENCH1"],
        ):
            subprocess.run(
                [sys.executable, "-m", "bot", *args],
                cwd=ROOT,
                env=env,
                check=True,
                capture_output=True,
            )
        with sqlite3.connect(folder / "tutor.db") as conn:
            post_id = conn.execute(
                "select id from posts where channel = 'CBENCH1' and kind = 'daily'"
            ).fetchone()[0]
        server = start(folder, stub.url, content=content, workers=1)
        try:  # the median of BURSTS bursts (by answers/s), each of new learners
            runs = [burst(server.url, stub, post_id, clicks, connections, n) for n in range(BURSTS)]
            return sorted(runs, key=lambda run: run[1])[len(runs) // 2]
        finally:
            server.stop()
    finally:
        stub.stop()


def burst(
    url: str, stub: OutOfProcessStub, post_id: int, clicks: int, connections: int, number: int
) -> tuple[float, float]:
    slack = SlackRequests(url, SIGNING_SECRET, response_url=stub.response_url)
    warm = slack.action("answer_a", f"{post_id}:A", user="UWARM", channel="CBENCH1")
    slack.post(warm)
    time.sleep(0.5 + 0.01)
    requests = [
        slack.action(
            f"answer_{'abcd'[n % 4]}",
            f"{post_id}:{'ABCD'[n % 4]}",
            user=f"UC{number}-{n:08d}",
            channel="CBENCH1",
        )
        for n in range(clicks)
    ]
    before = stub.feedback()
    began = time.perf_counter()
    with ThreadPoolExecutor(connections) as pool:
        statuses = list(pool.map(lambda r: slack.post(r).status, requests))
    acked = time.perf_counter() - began
    deadline = time.monotonic() + 600
    while stub.feedback() - before < clicks and time.monotonic() < deadline:
        time.sleep(0.005)  # a benchmark may poll; tests never do this
    done = time.perf_counter() - began
    if statuses.count(200) != clicks:
        raise RuntimeError(f"only {statuses.count(200)} of {clicks} clicks got 200")
    return clicks / acked, clicks / done


class OutOfProcessStub:
    """Slack's stand-in in a process of its own (so it shares no GIL with the clicking threads),
    answering every POST after `latency` seconds; GET /bench-feedback counts response_url
    posts (the feedback learners see)."""

    def __init__(self, latency: float) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bench.scale", "--stub", str(latency)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdout is not None
        self.url = self.process.stdout.readline().strip()

    def response_url(self, name: str) -> str:
        return f"{self.url}webhook/{name}"

    def feedback(self) -> int:
        with urllib.request.urlopen(f"{self.url}bench-feedback", timeout=10) as answer:
            return int(answer.read())

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=15)


def serve_stub(latency: float) -> None:
    """The --stub mode: run SlackStub with a latency; print its URL; serve until killed."""
    from tests import slack_stub

    stub = SlackStub()
    seen, lock = [0], threading.Lock()

    class Slow(slack_stub._Handler):
        owner = stub

        def do_POST(self) -> None:
            if latency:
                time.sleep(latency)
            slack_stub._Handler.do_POST(self)
            if self.path.startswith("/webhook/"):
                with lock:
                    seen[0] += 1
            stub.calls.clear()  # a long burst must not keep every call in memory

        def do_GET(self) -> None:
            if self.path.startswith("/bench-feedback"):
                data = str(seen[0]).encode()
                self.send_response(200)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                return
            slack_stub._Handler.do_GET(self)

    stub.start()
    stub._server.RequestHandlerClass = Slow
    print(stub.url, flush=True)
    threading.Event().wait()


# -- the daily pass ---------------------------------------------------------------------------


class SleepingPoster:
    """Every Slack call takes `call` seconds: a post is one call, a reveal two (reply, update)."""

    def __init__(self, call: float) -> None:
        self.call, self.calls = call, 0
        self.lock = threading.Lock()

    def _wait(self, calls: int) -> None:
        with self.lock:
            self.calls += calls
        time.sleep(self.call * calls)

    def post_question(self, post, question, recap) -> str:
        self._wait(1)
        return f"{time.time():.6f}"

    def find_posted(self, post) -> str | None:
        self._wait(1)
        return None

    def reveal(self, reveal) -> None:
        self._wait(2)


def bench_daily(tmp: Path, big: Path) -> list[Row]:
    from bot.slack.scheduler import DAILY_WORKERS

    rows: list[Row] = []
    catalog = load_catalog(ROOT)
    for channels in (1000, 10_000):
        store = Store(tmp / f"daily-{channels}.db")
        daily = Daily(Tutor(catalog, store, rng=random.Random(1)))
        rows_sql = [
            (TEAM, f"CD{n:06d}", "09:00", "UTC", "*", 2, 0, "", "bench", "x")
            for n in range(channels)
        ]
        store.db.conn.executemany(
            "insert into schedules (team, channel, at, tz, days, window_hours, recap, sections, "
            "created_by, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows_sql,
        )
        for label, now in (
            ("post day", dt.datetime(2026, 12, 1, 9, 1, tzinfo=dt.UTC)),
            ("reveal and post day", dt.datetime(2026, 12, 2, 9, 1, tzinfo=dt.UTC)),
        ):
            poster = SleepingPoster(0.05)
            began = time.perf_counter()
            report = daily.run_pass(poster, now=now, workers=DAILY_WORKERS)
            took = time.perf_counter() - began
            assert len(report.outcomes) == channels, report.outcomes[:3]
            floor = poster.calls * 0.05 / DAILY_WORKERS
            target = "<= 120 s" if channels == 10_000 else ""
            rows.append(
                (
                    f"daily pass, {channels:,} channels, {label} ({poster.calls:,} calls)",
                    took,
                    "s",
                    floor,
                    target,
                )
            )
    return rows


# -- start-up, memory, round trip -------------------------------------------------------------


def bench_start(tmp: Path, big: Path, runs: int = 7) -> list[Row]:
    env = slack_env(TUTOR_DB=str(tmp / "start.db"))
    python = sys.executable

    def whole(args: list[str], stdin: str = "") -> float:
        times = []
        for _ in range(runs):
            began = time.perf_counter()
            subprocess.run(
                args, cwd=ROOT, env=env, input=stdin, capture_output=True, text=True, check=True
            )
            times.append((time.perf_counter() - began) * 1000)
        return statistics.median(times)

    whole([python, "-m", "bot", "ask", "warm the cache"])
    floor = whole([python, "-c", "import slack_bolt"])
    ask = whole([python, "-m", "bot", "ask", "which service for no-code training"])
    chat = whole([python, "-m", "bot", "chat"], stdin="")
    board = whole([python, "-m", "bot", "leaderboard"])
    return [
        ("cold start: tutor ask", ask, "ms", floor, "<= 2.5x"),
        ("cold start: tutor chat (prompt, then EOF)", chat, "ms", floor, ""),
        ("cold start: tutor leaderboard", board, "ms", floor, ""),
    ]


def bench_memory(tmp: Path, big: Path) -> list[Row]:
    from bench.slack_roundtrip import start_bare

    stub = SlackStub().start()
    try:
        folder = tmp / "memory"
        folder.mkdir()
        server = start(folder, stub.url, workers=1)
        bare, _bare_url = start_bare(stub.url, process_before_response=True)
        try:
            question = SlackRequests(server.url, SIGNING_SECRET)
            question.post(question.slash("which service for no-code training"))
            time.sleep(1)
            ours, floor = tree_rss(server.process.pid), tree_rss(bare.pid)
        finally:
            server.stop()
            bare.terminate()
            bare.wait(timeout=15)
    finally:
        stub.stop()
    return [("RSS of tutor serve, one worker", ours, "MB", floor, "<= 1.5x")]


def tree_rss(pid: int) -> float:
    """Resident MB of a process and its children (gunicorn's master and workers)."""
    total = 0
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            status = (proc / "status").read_text()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        if int(proc.name) == pid or int(fields.get("PPid", "0").strip()) == pid:
            total += int(fields.get("VmRSS", "0 kB").split()[0])
    return total / 1024


def bench_roundtrip(tmp: Path, big: Path, requests: int = 300) -> list[Row]:
    from bench.slack_roundtrip import start_bare

    catalog = load_catalog(ROOT)
    questions = [p for e in catalog.knowledge.entries for p in e.requirements]
    random.Random(2).shuffle(questions)
    stub = SlackStub().start()
    try:
        folder = tmp / "roundtrip"
        folder.mkdir()
        server = start(folder, stub.url, workers=1)
        bare, bare_url = start_bare(stub.url, process_before_response=True)
        try:
            times = {"tutor": [], "bare": []}
            factories = {
                "tutor": SlackRequests(server.url, SIGNING_SECRET),
                "bare": SlackRequests(bare_url, SIGNING_SECRET),
            }
            for i in range(30 + requests):
                for name, factory in factories.items():
                    request = factory.slash(questions[i % len(questions)])
                    began = time.perf_counter()
                    if factory.post(request).status != 200:
                        raise RuntimeError(f"{name}: /tutor failed")
                    if i >= 30:
                        times[name].append((time.perf_counter() - began) * 1000)
        finally:
            server.stop()
            bare.terminate()
            bare.wait(timeout=15)
    finally:
        stub.stop()
    p50 = statistics.median(times["tutor"])
    return [
        (
            "/tutor <varied question> round trip p50",
            p50,
            "ms",
            statistics.median(times["bare"]),
            "<= 2x",
        )
    ]


if __name__ == "__main__":
    main(sys.argv[1:])
