"""The Spark pipeline: rows written under any schema version, on any shard, into the newest or
the joined schema, with native column expressions only (no Python UDF, nothing collected to the
driver). The only package that imports PySpark.

* :mod:`mvdd.spark.types`: :func:`struct_type`, column types and values as Spark holds them;
* :mod:`mvdd.spark.pipeline`: :func:`upgrade`, :func:`merge_shards`, :func:`backfill_column`,
  :func:`index_entries`;
* :mod:`mvdd.spark.runtime`: local sessions;
* :mod:`mvdd.spark.jdbc`, :mod:`mvdd.spark.bulk`: MySQL / MariaDB over JDBC, the bulk copy;
* :mod:`mvdd.spark.lake`: the lake output, :func:`read_lake`, :func:`compact`.

The names load lazily (PEP 562): ``import mvdd.spark.report`` or ``mvdd.spark.workload``, which
are plain Python, does not start importing PySpark.
"""

from __future__ import annotations

import importlib
from typing import Any

#: public name -> the module that defines it
_EXPORTS = {
    **dict.fromkeys(
        (
            "spark_type",
            "staging_schema",
            "staging_type",
            "staging_value",
            "struct_type",
            "to_spark",
        ),
        "mvdd.spark.types",
    ),
    **dict.fromkeys(
        ("backfill_column", "col", "index_entries", "merge_shards", "project", "upgrade"),
        "mvdd.spark.pipeline",
    ),
    **dict.fromkeys(("has_python_udf", "session", "shared_session"), "mvdd.spark.runtime"),
    **dict.fromkeys(("compact", "read_lake"), "mvdd.spark.lake"),
}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'mvdd.spark' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


__all__ = sorted(_EXPORTS)
