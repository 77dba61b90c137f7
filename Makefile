# Two commands on a fresh machine: `make play` and `make test`. Both set up .venv first.
PY ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin

.PHONY: setup play test lint typecheck pytest bench scenarios clean

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

play: setup
	$(BIN)/uno play

test: setup lint typecheck pytest

lint: setup
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

typecheck: setup
	$(BIN)/mypy --strict

pytest: setup
	$(BIN)/pytest

scenarios: setup
	$(BIN)/uno scenario tests/scenarios/*.json tests/scenarios/upstream/*.json

bench: setup
	$(BIN)/python bench/bench.py $(BENCH_ARGS)

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis
