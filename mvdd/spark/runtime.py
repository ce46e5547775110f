"""Local Spark sessions, and the check that a plan runs no Python per row.

A session carries MariaDB Connector/J when it is installed (:mod:`mvdd.spark.jdbc`), so the
bulk copy and the lake read and write MySQL / MariaDB through it.
"""

from __future__ import annotations

import contextlib
import os
import shlex
from pathlib import Path

from pyspark.sql import DataFrame, SparkSession

from mvdd.errors import MvddError
from mvdd.spark.jdbc import JdbcDriverMissing, driver_jars

# --- sessions -----------------------------------------------------------------------------------


#: Spark's logging in mvdd's sessions: errors only (``quiet=False`` keeps Spark's default)
LOG_CONFIG = Path(__file__).with_name("log4j2.properties")
#: the environment variable of more options for the JVM of each session mvdd starts, as a shell
#: would split them (the test suite's ``-XX:TieredStopAtLevel=1``: its jobs are many and short,
#: over little data, and the optimizing compiler's work never pays back there)
JAVA_OPTIONS = "MVDD_SPARK_JAVA_OPTIONS"


#: PySpark's setting of the call sites it captures for each column expression (see
#: :func:`session`)
DEBUGGING = "spark.python.sql.dataFrameDebugging.enabled"


#: the largest method whole-stage code generation may make before Spark runs the stage's
#: expressions without it (Spark's ``spark.sql.codegen.hugeMethodLimit``): 8,000 bytes of
#: bytecode, HotSpot's limit of a method it compiles at all, as Spark's documentation advises
#: on HotSpot. Past it the JVM interprets the stage's one method for every row: the rules of a
#: change of type (:mod:`mvdd.spark.conversion`) of the four columns of ``spark_bench``'s
#: ``conversions`` ran 7.1 s a million rows in one such method and 1.5 s split (2026-12-07)
HUGE_METHOD = 8000
#: Spark's name of that setting, and its default: the largest method Java allows
HUGE_METHOD_SETTING = "spark.sql.codegen.hugeMethodLimit"
_SPARK_HUGE_METHOD = "65535"


class SparkConfigError(MvddError, ValueError):
    """A setting of mvdd's Spark sessions that cannot be read."""


def java_options() -> list[str]:
    """The JVM options :data:`JAVA_OPTIONS` names (none when unset)."""
    text = os.environ.get(JAVA_OPTIONS, "")
    try:
        return shlex.split(text)
    except ValueError as err:
        raise SparkConfigError(
            f"{JAVA_OPTIONS}={text!r} cannot be split into options: {err}"
        ) from None


def session(
    app: str = "mvdd", *, master: str = "local[2]", memory: str = "1g", quiet: bool = True
) -> SparkSession:
    """A local Spark session with modest resources (2 cores, no UI, few shuffle partitions),
    with the JDBC driver when installed; ``quiet``: Spark logs errors only; the JVM options of
    :data:`JAVA_OPTIONS` besides (both for a new JVM only: the first session of a process
    decides). Whole-stage code generation stops short of methods the JVM would not compile
    (:data:`HUGE_METHOD`).

    PySpark's DataFrame debugging is off (:data:`DEBUGGING`): with it, every column
    expression built in Python first asks the JVM for the session, a setting and the class
    of the call site, and hands it a stack trace, five to six round trips where the
    expression itself takes one or two; mvdd builds a plan of hundreds of expressions for
    each bulk-copy chunk and each lake batch. An error in a plan then names the plan's
    expression, not the Python line that built it. (PySpark reads the setting once per
    process, from the session active at the first expression.)"""
    builder = SparkSession.builder
    with contextlib.suppress(JdbcDriverMissing):
        builder = builder.config("spark.jars", ",".join(driver_jars()))
    java = [f"-Dlog4j2.configurationFile={LOG_CONFIG.as_uri()}"] if quiet else []
    java += java_options()
    if java:
        builder = builder.config("spark.driver.extraJavaOptions", shlex.join(java))
    return (
        builder.appName(app)
        .master(master)
        .config("spark.driver.memory", memory)
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.sql.session.timeZone", "UTC")
        .config(DEBUGGING, "false")
        .config(HUGE_METHOD_SETTING, str(HUGE_METHOD))
        .getOrCreate()
    )


def hold_huge_methods(spark: SparkSession) -> None:
    """:data:`HUGE_METHOD` in ``spark`` where it holds Spark's default (a caller's session that
    never set it): the plans of mvdd's conversions, in the Spark pipeline and the lake, are
    among those whose one method passes HotSpot's limit, which the JVM then interprets for
    every row (``spark_bench``'s four conversions 3.3 times slower). A limit the caller set is
    left as it is. The setting changes how a plan is compiled, never what it gives."""
    if spark.conf.get(HUGE_METHOD_SETTING) == _SPARK_HUGE_METHOD:
        spark.conf.set(HUGE_METHOD_SETTING, str(HUGE_METHOD))


def shared_session(app: str, *, memory: str = "2g") -> tuple[SparkSession, bool]:
    """The active session if there is one (a caller's, or a test run's), else a new one; and
    whether it is new (its maker stops it)."""
    active = SparkSession.getActiveSession()
    if active is not None:
        return active, False
    return session(app, memory=memory), True


def has_python_udf(df: DataFrame) -> bool:
    """Whether the physical plan runs Python code per row (it never should here)."""
    plan = df._jdf.queryExecution().executedPlan().toString()
    return any(marker in plan for marker in ("PythonUDF", "BatchEvalPython", "ArrowEvalPython"))


__all__ = [
    "SparkConfigError",
    "has_python_udf",
    "hold_huge_methods",
    "java_options",
    "session",
    "shared_session",
]
