# mvdd: `make demo` runs the main job on embedded defaults; `make test` runs the whole suite.
# Both create .venv and install what they need on a fresh machine.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: demo test system-deps lint bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[spark,replicate]'
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
	touch $@ $(VENV)/.installed

# the main job on embedded defaults: private MariaDB servers (installed when missing), SQLite
# state, the bundled workload replicated and checked
demo: $(VENV)/.installed system-deps
	$(BIN)/mvdd demo

# MariaDB for the tests that execute emitted DDL on a real server: installed when missing and
# running as root (the tests start their own private mariadbd; nothing else is started here).
system-deps:
	@if command -v mariadbd >/dev/null 2>&1 || [ -x /usr/sbin/mariadbd ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "installing mariadb-server (Debian package)"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mariadb-server >/dev/null; \
	else \
		echo "mariadb-server is missing and cannot be installed here: MariaDB tests will skip (and fail under CI=true)"; \
	fi

test: $(VENV)/.installed-test system-deps lint
	$(BIN)/python -m pytest

lint: $(VENV)/.installed-test
	$(BIN)/ruff check mvdd tests benchmarks
	$(BIN)/ruff format --check mvdd tests benchmarks
	$(BIN)/mypy

bench: $(VENV)/.installed-test system-deps
	$(BIN)/python benchmarks/catalog_bench.py
	$(BIN)/python benchmarks/concurrency.py
	$(BIN)/python benchmarks/shard_bench.py
	$(BIN)/python benchmarks/online_bench.py
	$(BIN)/python benchmarks/spark_bench.py
	$(BIN)/python benchmarks/store_bench.py
	$(BIN)/python benchmarks/binlog_bench.py
	$(BIN)/python benchmarks/replicate_bench.py

clean:
	rm -rf $(VENV) demo-output replay-output tour-output benchmarks/results .pytest_cache .hypothesis
