"""Shared test setup: hypothesis profiles, the private MariaDB server, catalogs on each store."""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, settings

from mvdd import Catalog
from tests.support.mariadb import MariaDB, MariaDBUnavailable, scratch

CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
#: the JVM of each Spark session the tests start, theirs and their child processes' (mvdd
#: replicate, mvdd compact), compiles with C1 alone (mvdd.spark.runtime.JAVA_OPTIONS): their
#: jobs are many, short and over little data, where C2's compiles cost more processor time than
#: they save, and the suite is bound by its processor time (measured 2026-12-01 on 2 cores, the
#: whole suite under CI=true, -n 3: 855 against 980 s of processor time, 455 against 521 s)
os.environ.setdefault("MVDD_SPARK_JAVA_OPTIONS", "-XX:TieredStopAtLevel=1")

settings.register_profile(
    "dev", max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "ci",
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
#: no shrinking: every distinct failure at once, quickly (HYPOTHESIS_PROFILE=debug)
settings.register_profile(
    "debug",
    parent=settings.get_profile("dev"),
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    max_examples=60,
)
#: the long runs outside ``make test`` (``make deep``): ten times CI's examples, every failure
#: printed with the blob that replays it
settings.register_profile("deep", parent=settings.get_profile("ci"), max_examples=1500)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci" if CI else "dev")
settings.load_profile(PROFILE)


def examples(ci: int, dev: int | None = None) -> int:
    """The example count of a test that sets its own (a server-bound one, where examples
    cost round trips): ``ci`` under CI, ``dev`` (default ``ci``) locally, and ten times ``ci``
    under the ``deep`` profile."""
    if PROFILE == "deep":
        return 10 * ci
    return ci if CI or dev is None else dev


#: the Spark tests' modules that run on a second worker with a Spark session of its own: on
#: one worker the Spark tests were the run's critical path (420–560 s under CI) where the other
#: workers were done well before. The halves are about even in time (measured 2026-12-07,
#: CI=true, -n 6: the bulk copy's 290 s and the conversions' 170 here; the lake's 170, the
#: CLI's 95, the pipeline's 50, the values' 30, replay's 25 and TLS's 15 there, each other
#: worker 395–405 s). A second session costs a JVM's start (some 15 s of processor time) and a
#: gigabyte
SECOND_SPARK_WORKER = frozenset({"test_replicate_bulk", "test_spark_conversions"})


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under pytest-xdist (``make test``: ``-n 6 --dist loadgroup``) the Spark tests go to two
    workers (:data:`SECOND_SPARK_WORKER`), so the run has two Spark sessions; the other tests
    spread over the workers."""
    for item in items:
        if item.get_closest_marker("spark") is not None or "spark" in getattr(
            item, "fixturenames", ()
        ):
            second = item.path.stem in SECOND_SPARK_WORKER
            item.add_marker(pytest.mark.xdist_group("spark-2" if second else "spark"))
    # the long tests first (the state machines, the crash loops: a minute each under CI), so
    # that none starts near the end of a run and draws it out on one worker; xdist hands out
    # the Spark groups, its largest units, before any of them
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def missing(component: str, why: str) -> None:
    """Skip locally, fail under CI: CI must run every test."""
    message = f"{component} is not available: {why}"
    if CI:
        pytest.fail(message + " (CI=true: every component must be present)", pytrace=False)
    pytest.skip(message)


@contextlib.contextmanager
def private_server(**options: Any) -> Iterator[MariaDB]:
    """A private server of a test's own (for tests that restart or reconfigure it)."""
    yield from _server(**options)


def _server(**options: Any) -> Iterator[MariaDB]:
    server = MariaDB(**options)
    try:
        server.start()
    except MariaDBUnavailable as err:
        server.stop()
        missing("MariaDB", str(err))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def mariadb() -> Iterator[MariaDB]:
    """The private server (no binary log)."""
    yield from _server()


@pytest.fixture(scope="session")
def binlog_server() -> Iterator[MariaDB]:
    """A private server logging binlogs (ROW, FULL row images, MariaDB's default
    ``binlog_row_metadata`` NO_LOG)."""
    yield from _server(binlog=True, server_id=11)


@pytest.fixture(scope="session")
def binlog_server_full() -> Iterator[MariaDB]:
    """A private server logging binlogs with ``binlog_row_metadata=FULL`` (names, signedness,
    charsets and members in every table map)."""
    yield from _server(binlog=True, server_id=12, options={"binlog-row-metadata": "FULL"})


@pytest.fixture(scope="session")
def servers(binlog_server: MariaDB) -> Iterator[Any]:
    """Two upstream servers with binary logs (the binlog tests' one, and one more) and a
    downstream one (itself logging: a downstream may be a replication source too)."""
    from tests.support.replication import Servers

    for second in _server(binlog=True, server_id=21):
        for down in _server(binlog=True, server_id=31):
            yield Servers(binlog_server, second, down)


@pytest.fixture
def mdb(mariadb: MariaDB) -> Iterator:
    """A connection to a fresh, empty database on the private server."""
    with scratch(mariadb) as conn:
        yield conn


@pytest.fixture(params=["memory", "sqlite"])
def catalog(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Catalog]:
    """A fresh catalog on each store."""
    cat = Catalog() if request.param == "memory" else Catalog.open(str(tmp_path / "catalog.db"))
    with cat:
        yield cat


@pytest.fixture(scope="session")
def jdbc() -> list[str]:
    """MariaDB Connector/J (and JNA) for Spark's JDBC: the bulk copy and the lake's tests."""
    try:
        from mvdd.spark.jdbc import JdbcDriverMissing, driver_jars
    except ImportError as err:
        missing("Spark", f"pyspark is not installed ({err})")
    try:
        return driver_jars()
    except JdbcDriverMissing as err:
        missing("MariaDB Connector/J", str(err))
        raise


@pytest.fixture(scope="session")
def spark() -> Iterator[Any]:
    """One local Spark session for the whole run (local[2], modest memory)."""
    try:
        from mvdd.spark import session
    except ImportError as err:
        missing("Spark", f"pyspark is not installed ({err}); `make test` installs it")
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        missing("Spark", "no Java runtime (Java 17) on this machine")
    spark = session("mvdd-tests")
    spark.sparkContext.setLogLevel("ERROR")
    try:
        yield spark
    finally:
        spark.stop()
