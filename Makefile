# Two commands from a fresh clone: `make run` and `make test`. Python 3.11 is all you need.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test lint format bench eval check clean

$(BIN)/python:
	@command -v $(PYTHON) >/dev/null || { echo "Error: $(PYTHON) not found; install Python 3.11 or run make PYTHON=/path/to/python3.11"; exit 1; }
	@echo "Creating $(VENV) with $(PYTHON)..."
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Every dependency at the version in constraints.txt (the Docker image uses the same file).
$(VENV)/.installed: pyproject.toml constraints.txt | $(BIN)/python
	@echo "Installing Study Tutor and its dependencies into $(VENV) (once; about half a minute)..."
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[test]'
	@touch $@

# The Slack app when its tokens are set, otherwise the local chat.
run: $(VENV)/.installed
	@if [ -n "$$SLACK_BOT_TOKEN" ]; then exec $(BIN)/tutor serve; else exec $(BIN)/tutor chat; fi

test: $(VENV)/.installed
	$(BIN)/ruff check bot tests bench
	$(BIN)/ruff format --check bot tests bench
	$(BIN)/hadolint Dockerfile
	$(BIN)/mypy
	$(BIN)/tutor check
	$(BIN)/python -m pytest

lint: $(VENV)/.installed
	$(BIN)/ruff check bot tests bench
	$(BIN)/mypy

format: $(VENV)/.installed
	$(BIN)/ruff format bot tests bench
	$(BIN)/ruff check --fix bot tests bench

check: $(VENV)/.installed
	$(BIN)/tutor check

eval: $(VENV)/.installed
	$(BIN)/tutor eval

bench: $(VENV)/.installed
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache tutor.db tutor.db-wal tutor.db-shm
