"""The image and the installs: a health check, a pinned base, a dependency layer before the code,
one constraints file used by both the Dockerfile and `make`, and a lean build context."""

from __future__ import annotations

import re
import tomllib

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.conftest import SHIPPED_ROOT

DOCKERFILE = (SHIPPED_ROOT / "Dockerfile").read_text(encoding="utf-8")


def instructions() -> list[str]:
    """The Dockerfile's instructions, continuation lines joined."""
    joined = re.sub(r"\\\n\s*", " ", DOCKERFILE)
    return [line for line in joined.splitlines() if line and not line.startswith("#")]


def test_the_base_image_is_pinned_to_a_patch_release():
    """FROM names python 3.11.N with a distribution, not a moving tag."""
    (base,) = [line for line in instructions() if line.startswith("FROM ")]
    assert re.fullmatch(r"FROM python:3\.11\.\d+-slim-\w+(@sha256:[0-9a-f]{64})?", base)


def test_dependencies_are_installed_before_the_code_is_copied():
    """Editing bot/ reuses the dependency layer: constraints are used before bot/ is copied."""
    steps = instructions()
    deps = next(i for i, s in enumerate(steps) if "-c constraints.txt" in s)
    code = next(i for i, s in enumerate(steps) if s.startswith("COPY bot"))
    assert next(i for i, s in enumerate(steps) if "constraints.txt" in s and "COPY" in s) < deps
    assert deps < code and "--no-deps" in next(s for s in steps[code:] if "pip install" in s)


def test_there_is_a_health_check_on_healthz():
    """HEALTHCHECK asks /healthz (HTTP mode) and passes in Socket Mode, which has no port."""
    (check,) = [line for line in instructions() if line.startswith("HEALTHCHECK")]
    assert "/healthz" in check and "SLACK_APP_TOKEN" in check


def test_the_build_context_leaves_out_the_venv_and_databases():
    """.dockerignore keeps .venv, local databases and caches out of the image's context."""
    ignored = (SHIPPED_ROOT / ".dockerignore").read_text(encoding="utf-8").split()
    assert {".venv", "*.db", ".git", "**/__pycache__"} <= set(ignored)


def test_one_constraints_file_pins_every_dependency_for_make_and_the_image():
    """Every runtime and test dependency has an exact pin that satisfies pyproject's range."""
    project = tomllib.loads((SHIPPED_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    wanted = [Requirement(r) for r in project["project"]["dependencies"]]
    wanted += [Requirement(r) for r in project["project"]["optional-dependencies"]["test"]]
    pins = {}
    for line in (SHIPPED_ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            name, _, version = line.partition("==")
            pins[canonicalize_name(name)] = version
    for requirement in wanted:
        version = pins.get(canonicalize_name(requirement.name))
        assert version and requirement.specifier.contains(version), requirement
    makefile = (SHIPPED_ROOT / "Makefile").read_text(encoding="utf-8")
    assert "-c constraints.txt" in makefile and "-c constraints.txt" in DOCKERFILE
