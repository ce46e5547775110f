# mvdd: `make demo` runs the main job on embedded defaults; `make test` runs the whole suite.
# Both create .venv and install what they need on a fresh machine.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
# the linters' rules and format (mypy types: `make lint`, and beside the warm-up in `make test`)
RUFF   = $(BIN)/ruff check mvdd tests benchmarks && $(BIN)/ruff format --check mvdd tests benchmarks

.PHONY: demo test deep system-deps lint bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# mvdd's own modules compiled to bytecode at install, as pip compiles the packages it installs:
# where PYTHONDONTWRITEBYTECODE is set (as on the machines this suite runs on) no import ever
# writes them, and every process (the tests start hundreds: mvdd replicate, the crash children)
# would compile mvdd from source again, 0.5 s of each start on two cores. A source edited later
# is newer than its bytecode, which Python then passes over
COMPILE = $(BIN)/python -m compileall -q mvdd >/dev/null

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[spark,replicate]'
	$(COMPILE)
	touch $@

# the test extras, and the wheels of sqlglot's compiled build (sqlglotc) and of the sqlglot it
# pins, the newest pair within the sqlglot range pyproject.toml asks for: a test installs them
# side by side and mvdd must refuse the compiled build at import, naming the remedy. The pair
# need not be the installed sqlglot's version: sqlglotc is released after sqlglot, sometimes days
# after
SQLGLOTC = $$($(BIN)/python -c "import tomllib; deps = tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']; print(next(d for d in deps if d.startswith('sqlglot')).replace('sqlglot', 'sqlglotc', 1))")

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
	$(COMPILE)
	$(BIN)/python -m pip download --quiet --disable-pip-version-check --dest $(VENV)/wheels \
		"$(SQLGLOTC)"
	touch $@ $(VENV)/.installed

# the main job on embedded defaults: private MariaDB servers (installed when missing), SQLite
# state, the bundled workload replicated and checked
demo: $(VENV)/.installed system-deps
	$(BIN)/mvdd demo

# MariaDB (the tests start private servers of it; the demo too), MariaDB Connector/J with
# JNA (Spark's JDBC reads and writes, unix sockets included) and openssl (the TLS tests make
# their certificates with it): installed when missing and running as root; nothing is
# started here.
system-deps:
	@missing=""; \
	{ command -v mariadbd >/dev/null 2>&1 || [ -x /usr/sbin/mariadbd ]; } || missing="$$missing mariadb-server"; \
	[ -f /usr/share/java/mariadb-java-client.jar ] || missing="$$missing libmariadb-java"; \
	[ -f /usr/share/java/jna.jar ] || missing="$$missing libjna-java"; \
	command -v openssl >/dev/null 2>&1 || missing="$$missing openssl"; \
	if [ -z "$$missing" ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "installing$$missing (Debian packages)"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	else \
		echo "missing and not installable here:$$missing: those tests skip (and fail under CI=true)"; \
	fi

# six workers (pytest-xdist) on two cores: the server-bound tests spend much of their time
# waiting on a server or a child process, which more workers than cores fill. Under CI=true
# (the `ci` hypothesis profile) on 2026-12-03, one run after the other: 580 s on four workers
# with one Spark worker (its tests the run's critical path), 553 s on four with two, 448 s on six
# with two and the slow tests first, 450 s on eight, 527 s on eight with three Spark workers
# (each first Spark test slowed by the start of so many processes at once; 438 s on four with
# one Spark worker earlier that day, the machine then faster). The Spark tests go to two
# workers, a Spark session each (tests/conftest.py); each worker starts the private MariaDB
# servers its tests need
TEST_WORKERS ?= 6

# ruff first (a second), then mypy (25 s of one core on a fresh clone) beside pytest writing the
# test modules' assertion-rewritten bytecode, which pytest writes only where bytecode may be
# written (PYTHONDONTWRITEBYTECODE is set on the machines this suite runs on) and every worker
# reads: each worker's collection 8.7 s → 4.6 s, six workers at once on two cores (the
# warm-up's own failures are the suite's to report)
test: $(VENV)/.installed-test system-deps
	$(RUFF)
	@$(BIN)/mypy & typing=$$!; \
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest --collect-only -q >/dev/null 2>&1; \
	wait $$typing
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadgroup

# the property and state-machine tests at ten times CI's examples (the `deep` hypothesis
# profile), outside `make test`, for a nightly schedule: about 17 minutes of tests on 2 cores
# when last run by hand (2026-11-27; the server shard machine, 250 runs of 25 steps, took
# 102 s of it). A failure prints the blob that replays it, and HYPOTHESIS_SEED=n makes a run
# repeatable. A test may take longer than the suite's 600 s bound on a slower machine, and a
# timeout firing mid-statement leaves hypothesis a flaky failure to report, so the bound here is
# DEEP_TIMEOUT seconds per test
DEEP_TIMEOUT ?= 7200
deep: $(VENV)/.installed-test system-deps
	HYPOTHESIS_PROFILE=deep $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadgroup \
		--timeout=$(DEEP_TIMEOUT) \
		$(if $(HYPOTHESIS_SEED),--hypothesis-seed=$(HYPOTHESIS_SEED)) \
		$$(grep -l '^from hypothesis' tests/test_*.py)

lint: $(VENV)/.installed-test
	$(RUFF)
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
	$(BIN)/python benchmarks/spark_bulk_bench.py
	$(BIN)/python benchmarks/ranges_bench.py
	$(BIN)/python benchmarks/script_bench.py
	@if command -v valgrind >/dev/null 2>&1 && command -v cc >/dev/null 2>&1; then \
		$(BIN)/python benchmarks/instructions.py; \
	else echo "instructions.py not run: it needs valgrind and a C compiler"; fi

clean:
	rm -rf $(VENV) demo-output replay-output tour-output benchmarks/results .pytest_cache .hypothesis
	find mvdd -name __pycache__ -prune -exec rm -rf {} +
