"""The local chat: the whole tutor in a terminal, over the real core and a SQLite file."""

from __future__ import annotations

import io
import os
import subprocess
import sys

from bot.chat import run_chat, wrap
from tests.conftest import SHIPPED_ROOT


def chat(tutor, now, lines: str) -> str:
    out = io.StringIO()
    run_chat(tutor, user="ana", clock=lambda: now, stdin=io.StringIO(lines), stdout=out)
    return out.getvalue()


def test_free_text_is_a_question(tutor, now):
    """A question gets the means, why and a source."""
    out = chat(tutor, now, "which service for no-code training\nquit\n")
    assert "AutoML on Vertex AI" in out
    assert "Source: https://cloud.google.com/" in out
    assert out.rstrip().endswith("Bye! Keep your streak going.")


def test_quiz_answer_and_leaderboard(tutor, now):
    """quiz, then a letter, then the leaderboard shows the point."""
    out = io.StringIO()
    stdin = io.StringIO("quiz\n")
    run_chat(tutor, user="ana", clock=lambda: now, stdin=stdin, stdout=out)
    pending = tutor.pending(team="local", user="ana")
    answer = pending.question.answer.lower()
    out = chat(tutor, now, f"{answer}\nleaderboard\nstats\n")
    assert "Correct!" in out
    assert "1. ana  1 pt  (1/1, 100%)" in out
    assert "Answered 1, correct 1 (100%)." in out


def test_answer_without_a_question_and_unknown_commands(tutor, now):
    """A letter with no open question, or gibberish, gets guidance, not an error."""
    out = chat(tutor, now, "b\n🙏🙏🙏\n" + "x" * 10_000 + "\n")
    assert "There is no open question" in out
    assert out.count("I don't know that one.") == 2


def test_question_about_another_cloud_says_what_the_tutor_covers(tutor, now):
    """An AWS question is declined by name, with the closest Google Cloud topics."""
    out = chat(tutor, now, "how do I run my own training script as a SageMaker job?\nquit\n")
    assert "That sounds like Amazon SageMaker, which is outside what I cover" in out
    assert "The closest Google Cloud topics:" in out
    assert "Vertex AI custom training" in out


def test_make_run_style_pipe_answers_with_automl(tmp_path):
    """`printf 'which service for no-code training\\nquit\\n' | tutor chat` answers AutoML."""
    env = {**os.environ, "TUTOR_DB": str(tmp_path / "chat.db")}
    env.pop("SLACK_BOT_TOKEN", None)
    result = subprocess.run(
        [sys.executable, "-m", "bot", "chat"],
        input="which service for no-code training\nquit\n",
        capture_output=True,
        text=True,
        cwd=SHIPPED_ROOT,
        env=env,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "AutoML" in result.stdout.splitlines()[1]
    assert (tmp_path / "chat.db").exists()


def test_long_lines_wrap_with_their_indent():
    """At a terminal, long reply lines fold at word boundaries under their own indent."""
    line = "   a) " + " ".join(["word"] * 30)
    folded = wrap(line, 40).splitlines()
    assert len(folded) > 1
    assert all(len(part) <= 40 for part in folded)
    assert all(part.startswith("      ") for part in folded[1:])
    assert " ".join(p.strip() for p in folded) == line.strip()


def test_answers_in_words_answer_the_open_quiz(tutor, now):
    """With a quiz open, "i think its b" answers it; "option b" after that says it counted once."""
    chat(tutor, now, "quiz\n")
    letter = tutor.pending(team="local", user="ana").question.answer.lower()
    out = chat(tutor, now, f"i think its {letter}\nwhich option is best for streaming?\n")
    assert out.count("Correct!") == 1 and "There is no open question" not in out


def test_the_default_database_is_in_the_data_folder_whatever_the_working_folder(tmp_path):
    """Without TUTOR_DB, two chats from two folders share one file under $XDG_DATA_HOME."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TUTOR_", "SLACK_"))}
    env["XDG_DATA_HOME"] = str(tmp_path / "data")
    for folder in ("one", "two"):
        (tmp_path / folder).mkdir()
        result = subprocess.run(
            [sys.executable, "-m", "bot", "chat", "--user", "ana"],
            input="quiz\na\n",
            capture_output=True,
            text=True,
            cwd=tmp_path / folder,
            env={**env, "PYTHONPATH": str(SHIPPED_ROOT)},
            timeout=120,
            check=False,
        )
        assert result.returncode == 0, result.stderr
        assert not (tmp_path / folder / "tutor.db").exists()
    stats = subprocess.run(
        [sys.executable, "-m", "bot", "stats", "--user", "ana"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(SHIPPED_ROOT)},
        timeout=120,
        check=False,
    )
    assert "  Answered 2," in stats.stdout, stats.stdout + stats.stderr
    assert (tmp_path / "data" / "study-tutor" / "tutor.db").is_file()


def test_piped_output_is_plain_text(tutor, now):
    """Piped, the chat never styles: no terminal escape codes in its output."""
    out = chat(tutor, now, "which service for no-code training\nquiz\na\nhelp\n")
    assert "AutoML on Vertex AI" in out and "\x1b" not in out


PASTED = (
    "A retail team has no ML engineers and wants to train an image classifier on labelled photos"
    " without writing any code. What should they use?\n"
    "A. Vertex AI custom training with their own TensorFlow code\n"
    "B. AutoML on Vertex AI\n"
    "C. Reduce the batch size and retry\n"
    "D. A bigger GPU for the training job\n"
)


def test_a_pasted_exam_question_is_answered_whole(tutor, now):
    """Pasted into the chat, a stem and its lettered choices arrive as one practice question:
    one pick, a line for each other choice, and no answer to the choices one by one."""
    out = chat(tutor, now, PASTED + "quit\n")
    assert out.count("I'd pick B") == 1
    assert all(f"Not {x}:" in out for x in "ACD")
    assert "I don't know" not in out


def test_a_short_line_is_never_joined_to_the_next(tutor, now):
    """A command (fewer words than a stem) stays alone even when a choice-like line follows it:
    `quiz` puts a question, and the choice's line typed back answers it with its letter."""
    out = chat(tutor, now, "quiz\nB. AutoML on Vertex AI\n")
    assert "Answer with a, b" in out and "I'd pick" not in out
    assert tutor.pending(team="local", user="ana") is None  # answered, with b
    found = tutor.store.last_answer(team="local", user="ana")
    assert found is not None and found[1].lower() == "b"
