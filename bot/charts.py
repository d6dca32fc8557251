"""Pictures of readiness and progress: PNG bytes from matplotlib, and the same in words.

matplotlib (the `charts` extra: `pip install 'study-tutor[charts]'`) is imported only when a
chart is drawn, with the Agg backend (no display), so commands that draw nothing never pay for
it. Every chart has an alt text that says what the picture shows, for screen readers and for
Slack's fallback; `digest` names a chart's data, so a chart already uploaded can be reused.
"""

from __future__ import annotations

import hashlib
import io
import json
from dataclasses import dataclass
from typing import Any

from bot.errors import TutorError
from bot.readiness import RANGE, TARGET, Readiness, Week

WIDTH, HEIGHT, DPI = 8.0, 4.8, 110  # about 880 x 530 px: readable at Slack's preview size
INSTALL = "Charts need matplotlib: pip install 'study-tutor[charts]'."


@dataclass(frozen=True)
class Chart:
    """A chart to show: its name, a title, the words for it, and a digest of what it draws."""

    name: str  # readiness | progress
    title: str
    alt: str
    digest: str


def readiness_chart(readiness: Readiness) -> Chart:
    data = [
        (s.section, round(s.mean, 3), round(s.low, 3), round(s.high, 3)) for s in readiness.sections
    ]
    return Chart("readiness", "Readiness by exam section", readiness_alt(readiness), _digest(data))


def progress_chart(weeks: tuple[Week, ...]) -> Chart:
    data = [(w.start.isoformat(), w.answered, w.correct) for w in weeks]
    return Chart("progress", "Progress by week", progress_alt(weeks), _digest(data))


def readiness_alt(readiness: Readiness) -> str:
    """The readiness chart in words: every section's estimate and range, and the target."""
    parts = [
        f"{s.section} {s.mean:.0%} ({s.low:.0%}–{s.high:.0%}"
        f"{', not enough answers yet' if s.level == 'wide' else ''})"
        for s in readiness.sections
    ]
    return (
        f"Bar chart of readiness by exam section with {RANGE:.0%} ranges and a {TARGET:.0%} "
        f"target line: {'; '.join(parts)}. Overall {readiness.mean:.0%}."
    )


def progress_alt(weeks: tuple[Week, ...]) -> str:
    parts = [
        f"week of {w.start:%d %b}: {w.answered} answered"
        + (f", {w.accuracy:.0%} right" if w.answered else "")
        for w in weeks
    ]
    return f"Chart of answers per week (bars) and accuracy (line): {'; '.join(parts)}."


def draw_readiness(readiness: Readiness) -> bytes:
    """Horizontal bars per section (named), error bars for the range, the target as a line."""
    sections = list(reversed(readiness.sections))
    labels = [f"{s.section} {_short(s.title)}" for s in sections]
    means = [s.mean * 100 for s in sections]
    errors = [
        [(s.mean - s.low) * 100 for s in sections],
        [(s.high - s.mean) * 100 for s in sections],
    ]
    colours = ["#b0b7c3" if s.level == "wide" else "#1a4d8f" for s in sections]
    fig = _figure(WIDTH, HEIGHT + 1.2)
    ax = fig.subplots()
    ax.barh(labels, means, xerr=errors, color=colours, capsize=3, ecolor="#333333")
    ax.axvline(TARGET * 100, color="#c0392b", linestyle="--", linewidth=1.5)
    ax.text(TARGET * 100 + 1, len(sections) - 0.4, f"target {TARGET:.0%}", color="#c0392b")
    ax.set_xlim(0, 100)
    ax.set_xlabel(f"Chance of answering a new question right (%), with {RANGE:.0%} range")
    ax.set_title(f"Readiness by exam section (overall {readiness.mean:.0%}; grey: too few answers)")
    ax.tick_params(axis="y", labelsize=9)
    fig.tight_layout()
    return _png(fig)


def draw_progress(weeks: tuple[Week, ...]) -> bytes:
    """Answers per week as bars, accuracy as a line on a second axis."""
    labels = [f"{w.start:%d %b}" for w in weeks]
    fig = _figure(WIDTH, HEIGHT)
    ax = fig.subplots()
    ax.bar(labels, [w.answered for w in weeks], color="#9fb8da", label="answers")
    ax.set_ylabel("Answers")
    ax.set_xlabel("Week starting (UTC)")
    right = ax.twinx()
    shown = [
        (label, w.accuracy * 100) for label, w in zip(labels, weeks, strict=True) if w.answered
    ]
    if shown:
        right.plot(*zip(*shown, strict=True), color="#1a4d8f", marker="o", label="accuracy")
    right.set_ylim(0, 100)
    right.set_ylabel("Accuracy (%)")
    ax.set_title("Progress by week: answers (bars) and accuracy (line)")
    fig.tight_layout()
    return _png(fig)


def draw(chart: Chart, readiness: Readiness, weeks: tuple[Week, ...]) -> bytes:
    return draw_readiness(readiness) if chart.name == "readiness" else draw_progress(weeks)


def _figure(width: float, height: float) -> Any:
    """A matplotlib Figure drawn by Agg, imported here so only drawing pays for it.

    A bare Figure (not pyplot) keeps no global state, so listeners on several threads can
    draw at once; matplotlib's guide for web servers does the same.
    """
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError as missing:
        raise TutorError(INSTALL) from missing
    figure = Figure(figsize=(width, height), dpi=DPI)
    FigureCanvasAgg(figure)  # draws with Agg (no display needed), whatever MPLBACKEND says
    return figure


def _png(fig: Any) -> bytes:  # a matplotlib Figure (matplotlib is optional, so not imported)
    out = io.BytesIO()
    fig.savefig(out, format="png", metadata={"Software": None})
    return out.getvalue()


def _short(title: str, width: int = 30) -> str:
    return title if len(title) <= width else title[: width - 1] + "…"


def _digest(data: object) -> str:
    return hashlib.sha256(json.dumps(data).encode()).hexdigest()[:16]
