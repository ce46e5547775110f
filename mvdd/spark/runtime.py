"""Local Spark sessions, and the check that a plan runs no Python per row."""

from __future__ import annotations

from pyspark.sql import DataFrame, SparkSession

# --- sessions -----------------------------------------------------------------------------------


def session(app: str = "mvdd", *, master: str = "local[2]", memory: str = "1g") -> SparkSession:
    """A local Spark session with modest resources (2 cores, no UI, few shuffle partitions)."""
    return (
        SparkSession.builder.appName(app)
        .master(master)
        .config("spark.driver.memory", memory)
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.sql.session.timeZone", "UTC")
        .getOrCreate()
    )


def has_python_udf(df: DataFrame) -> bool:
    """Whether the physical plan runs Python code per row (it never should here)."""
    plan = df._jdf.queryExecution().executedPlan().toString()
    return any(marker in plan for marker in ("PythonUDF", "BatchEvalPython", "ArrowEvalPython"))


__all__ = ["has_python_udf", "session"]
