# Two commands on a fresh machine: `make play` and `make test`. Both set up .venv first:
# `make play` with only what playing needs (the project, Textual, Rich), `make test` (and
# `make setup`) with everything the tests need too (the extras in TEST_EXTRAS).
PY ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
TEST_EXTRAS := dev,plot,ray,web,rl,train,mcp,interop

.PHONY: setup play serve test test-core test-pure lint typecheck pytest bench bench-env bench-instructions bench-web bench-cluster rlcard-venv scenarios clean catalogs catalogs-check

setup: $(VENV)/.installed

$(BIN)/python:
	$(PY) -m venv $(VENV)

# setup.py and the C source too: `pip install -e` builds the native core (issue 16) with the
# machine's compiler, and must build it again when the source changes.
NATIVE_SOURCES := setup.py $(wildcard src/unotable/native/*.c src/unotable/native/*.h)

# What playing needs: the project and its dependencies, no extras.
$(VENV)/.play: pyproject.toml $(NATIVE_SOURCES) | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e .
	touch $@

# What the tests need besides.
$(VENV)/.installed: pyproject.toml $(NATIVE_SOURCES) | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[$(TEST_EXTRAS)]'
	touch $(VENV)/.play $(VENV)/.serve $@

play: $(VENV)/.play
	$(BIN)/uno play

# What hosting the web game needs: the project and its web extra (no PyTorch, Ray or test tools).
$(VENV)/.serve: pyproject.toml $(NATIVE_SOURCES) | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[web]'
	touch $@

# `make serve` hosts the web game for friends on the same network (it prints the addresses they
# open); `make serve SERVE_ARGS=` keeps it to this machine, SERVE_ARGS="--port 9000" etc.
SERVE_ARGS ?= --host 0.0.0.0
serve: $(VENV)/.serve
	$(BIN)/uno serve $(SERVE_ARGS)

test: setup lint typecheck pytest

lint: setup
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

typecheck: setup
	$(BIN)/mypy --strict

pytest: setup
	$(BIN)/pytest

# The rules core's tests alone (engine and its golden trace, rules, notation, scenarios, games,
# the out-of-turn race, the import layers): about 15 s. The property tests run with `make test`.
CORE_TESTS := engine golden rules notation scenarios match determinize race architecture
test-core: setup
	$(BIN)/pytest $(foreach t,$(CORE_TESTS),tests/test_$(t).py)

# The suite again in pure Python, the native core left unloaded (CI runs both): every test but
# those marked `surface` (a browser, a terminal screen, killed servers: tests/conftest.py), whose
# subject lies above the rules core and which `make test` runs; 5-6 of CI's 23-25 minutes.
test-pure: setup
	UNOTABLE_PURE=1 $(BIN)/pytest -m 'not slow and not surface'

scenarios: setup
	$(BIN)/uno scenario tests/scenarios/*.json tests/scenarios/upstream/*.json

# The message catalogues (issue 25, docs/i18n.md): extract the .pot and the browser's list from the
# Python sources and the page's JavaScript, merge it into each language's .po, compile the .mo
# files (committed: tests/test_i18n.py checks they are their .po compiled). Then translate what the
# .po files have left empty and run it again.
catalogs: setup
	$(BIN)/python -m unotable.i18n.catalogs all
	$(BIN)/python -m unotable.tui.guide

catalogs-check: setup
	$(BIN)/python -m unotable.i18n.catalogs check

# RLCard, for issue 6's comparison, gets a venv of its own (never .venv), installed here unless
# BENCH_ARGS has --quick or --no-rlcard. A failed install is not fatal: bench.py says so and
# prints its own figures, with nan ratios.
RLCARD_VENV := bench/.venv-rlcard

bench: setup
ifeq ($(filter --quick --no-rlcard,$(BENCH_ARGS)),)
	@$(MAKE) --no-print-directory rlcard-venv
endif
	$(BIN)/python bench/bench.py $(BENCH_ARGS)

# Env steps per second (observation and mask included): ours, single and vectorized, against
# RLCard's env in the same venv as `make bench`; last line env_ratio_vs_rlcard_2p=X ..._4p=Y
# (the vector env) and pettingzoo_ratio_vs_rlcard_2p=Z ..._4p=W (the PettingZoo env, issue 33).
bench-env: setup
ifeq ($(filter --quick --no-rlcard,$(BENCH_ENV_ARGS)),)
	@$(MAKE) --no-print-directory rlcard-venv
endif
	$(BIN)/python bench/bench_env.py $(BENCH_ENV_ARGS)

rlcard-venv:
	@if [ ! -f $(RLCARD_VENV)/.installed ]; then \
	  mkdir -p $(RLCARD_VENV); \
	  echo "installing rlcard==1.2.0 into $(RLCARD_VENV) (log: $(RLCARD_VENV)/install.log)"; \
	  if { $(PY) -m venv $(RLCARD_VENV) \
	       && $(RLCARD_VENV)/bin/python -m pip install --quiet rlcard==1.2.0; } \
	       > $(RLCARD_VENV)/install.log 2>&1; then \
	    touch $(RLCARD_VENV)/.installed; \
	  else \
	    echo "rlcard could not be installed (see $(RLCARD_VENV)/install.log); the bench goes on without it"; \
	  fi; \
	fi

# Instructions per hand (ours and RLCard's) counted by Valgrind: exact where timings drift.
# RLCard's side needs the venv that `make bench` makes.
bench-instructions: setup
	$(BIN)/python bench/instructions.py $(INSTRUCTIONS_ARGS)

# The web server under load: N person-paced rooms over WebSockets on loopback (N=200,500,1000),
# ours (one node, and two behind the documented nginx on PostgreSQL) and the previous release side
# by side; BENCH_WEB_ARGS=--quick, --storm, --no-baseline, --database URL, --nodes 1,2.
bench-web: setup
	$(BIN)/python bench/bench_web.py $(BENCH_WEB_ARGS)

# Several nodes on one PostgreSQL database (issue 24): BENCH_CLUSTER_ARGS=--quick for a short run;
# --database URL (or UNOTABLE_BENCH_POSTGRES) names a database it may empty.
bench-cluster: setup
	$(BIN)/python bench/bench_cluster.py $(BENCH_CLUSTER_ARGS)

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis
