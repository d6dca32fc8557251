"""Signed `/tutor <question>` to its response over loopback, beside bare bolt apps that only ack.

All servers run the same way (gunicorn, one gthread worker, via bot.slack.serve.Server) and are
measured in the same run, interleaved request by request, so machine noise hits them alike:

  tutor      `tutor serve` (HTTP mode) answering from the shipped content, in the ack body
  bare       a bolt app whose /tutor listener only calls ack(), process_before_response=True
  bare-default  the same with bolt's default process_before_response=False (polls every 10 ms)

With `--varied` each round asks the next dev-set question (tests/eval/learner_questions.yaml)
instead of the same one, so the matcher's cost is that of real, different questions.

With `--clicks` each round is a quiz click instead: a learner (one of CLICKERS in turn) gets a
private question with `/tutor quiz` (untimed), then the click on its first choice is timed to its
ack, which comes after the answer is committed; the bare apps ack the same click and do nothing.
Feedback and App Home follow the tutor's acks, as they do in use (to the recording stand-in);
the next server's click waits until they arrived, so none is timed during that work.

Run: `make bench` or `python -m bench.slack_roundtrip [--requests N] [--varied | --clicks]`.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.slack_stub import (
    ROOT,
    SIGNING_SECRET,
    SlackRequests,
    SlackStub,
    free_port,
    slack_env,
    start,
)

QUESTION = "which service for no-code training"
CLICKERS = 100  # learners taking turns in --clicks, so none runs out of fresh questions


def bare_app(port: int, api_url: str, process_before_response: bool) -> None:
    """Serve a bolt app that acks /tutor and does nothing else (the baseline)."""
    from slack_bolt import App
    from slack_bolt.adapter.wsgi import SlackRequestHandler
    from slack_sdk import WebClient

    from bot.slack.serve import Server

    app = App(
        client=WebClient(token="xoxb-bench", base_url=api_url),  # auth.test goes to the stand-in
        signing_secret=SIGNING_SECRET,
        process_before_response=process_before_response,
    )
    app.command("/tutor")(lambda ack: ack())
    app.action(re.compile(r"^answer_[a-e]$"))(lambda ack: ack())  # for --clicks
    options = {"bind": f"127.0.0.1:{port}", "worker_class": "gthread", "threads": 8, "workers": 1}
    Server(lambda: SlackRequestHandler(app), options).run()


def start_bare(api_url: str, process_before_response: bool) -> tuple[subprocess.Popen, str]:
    port = free_port()
    args = [sys.executable, "-m", "bench.slack_roundtrip", "--bare", str(port), "--api", api_url]
    if not process_before_response:
        args.append("--default-mode")
    process = subprocess.Popen(
        args, cwd=ROOT, env=slack_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 30
    url = f"http://127.0.0.1:{port}/slack/events"
    factory = SlackRequests(url, SIGNING_SECRET)
    while time.monotonic() < deadline:
        try:
            if factory.post(factory.slash("help")).status == 200:
                return process, url
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("the bare bolt app did not start")


def measure(
    urls: dict[str, str], requests: int, warmup: int = 30, questions: tuple[str, ...] = (QUESTION,)
) -> dict[str, list[float]]:
    """Milliseconds per signed /tutor request, per server; requests interleaved, every server
    asked the same question in a round."""
    factories = {name: SlackRequests(url, SIGNING_SECRET) for name, url in urls.items()}
    times: dict[str, list[float]] = {name: [] for name in urls}
    for i in range(warmup + requests):
        for name, factory in factories.items():
            # built and signed outside the timed part
            request = factory.slash(questions[i % len(questions)])
            started = time.perf_counter()
            sent = factory.post(request)
            elapsed = (time.perf_counter() - started) * 1000
            if sent.status != 200:
                raise RuntimeError(f"{name}: HTTP {sent.status} {sent.body[:200]}")
            if i >= warmup:
                times[name].append(elapsed)
    return times


def measure_clicks(
    urls: dict[str, str], requests: int, stub: SlackStub, warmup: int = 30
) -> dict[str, list[float]]:
    """Milliseconds per signed quiz click to its ack, per server, interleaved; every server gets
    the click on the question `/tutor quiz` just put to that learner on the tutor. The next
    server's click waits until the tutor's feedback and App Home for this one reached the
    stand-in, so that work (after the ack) is not timed as part of another server's ack."""
    factories = {
        name: SlackRequests(url, SIGNING_SECRET, stub.response_url) for name, url in urls.items()
    }
    times: dict[str, list[float]] = {name: [] for name in urls}
    for i in range(warmup + requests):
        user = f"U0BENCH{i % CLICKERS:03d}"
        quiz = factories["tutor"].post(factories["tutor"].slash("quiz", user=user))
        button = quiz.json()["blocks"][-1]["elements"][0]
        for name, factory in factories.items():
            request = factory.action(button["action_id"], button["value"], user=user)
            started = time.perf_counter()
            sent = factory.post(request)
            elapsed = (time.perf_counter() - started) * 1000
            if sent.status != 200:
                raise RuntimeError(f"{name}: HTTP {sent.status} {sent.body[:200]}")
            if i >= warmup:
                times[name].append(elapsed)
            if name == "tutor":
                for path in ("webhook/", "views.publish"):
                    if len(stub.wait_for(path, i + 1, within=30)) < i + 1:
                        raise RuntimeError(f"tutor: no {path} after click {i + 1}")
    return times


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def report(times: dict[str, list[float]]) -> list[str]:
    base = statistics.median(times["bare"])
    lines = [f"{'server':<14}{'p50 ms':>9}{'p90 ms':>9}{'p50 / bare':>12}"]
    for name, values in times.items():
        p50, p90 = percentile(values, 0.5), percentile(values, 0.9)
        lines.append(f"{name:<14}{p50:>9.2f}{p90:>9.2f}{p50 / base:>11.2f}x")
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.slack_roundtrip")
    parser.add_argument("--requests", type=int, default=300, help="timed requests per server")
    parser.add_argument("--bare", type=int, metavar="PORT", help=argparse.SUPPRESS)
    parser.add_argument("--api", default="", help=argparse.SUPPRESS)
    parser.add_argument("--default-mode", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--varied", action="store_true", help="ask the dev set's questions in turn")
    parser.add_argument("--clicks", action="store_true", help="time quiz clicks to their acks")
    args = parser.parse_args(argv if argv is not None else [])
    if args.bare:
        bare_app(args.bare, args.api, process_before_response=not args.default_mode)
        return
    stub = SlackStub().start()
    processes = []
    with tempfile.TemporaryDirectory() as tmp:
        try:
            tutor = start(Path(tmp), stub.url, workers=1)
            processes.append(tutor.process)
            bare, bare_url = start_bare(stub.url, process_before_response=True)
            default, default_url = start_bare(stub.url, process_before_response=False)
            processes += [bare, default]
            urls = {"tutor": tutor.url, "bare": bare_url, "bare-default": default_url}
            answer = SlackRequests(tutor.url, SIGNING_SECRET).post(
                SlackRequests(tutor.url, SIGNING_SECRET).slash(QUESTION)
            )
            print(f"/tutor {QUESTION} -> {answer.json()['text'].splitlines()[0]}")
            if args.clicks:
                print(f"quiz clicks by {CLICKERS} learners in turn")
                times = measure_clicks(urls, args.requests, stub)
            else:
                questions = _dev_questions() if args.varied else (QUESTION,)
                print(f"{len(questions)} different question(s)")
                times = measure(urls, args.requests, questions=questions)
            print("\n".join(report(times)))
        finally:
            for process in processes:
                process.terminate()
                process.wait(timeout=15)
            stub.stop()


def _dev_questions() -> tuple[str, ...]:
    from bot.evaluation import read_cases

    return tuple(c.question for c in read_cases([ROOT / "tests/eval/learner_questions.yaml"]))


if __name__ == "__main__":
    main(sys.argv[1:])
