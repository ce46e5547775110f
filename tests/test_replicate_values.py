"""Values of every family of column through ``mvdd replicate``, drawn at random: the rows the
copy takes and the rows the binlog brings reach the target as the upstream servers hold them.

The oracle is the upstream servers: :func:`mvdd.replicate.verify.verify` compares every row
of every shard with the target's (itself tested on targets made wrong on purpose), and each
column's text as the servers print it (``CAST(… AS CHAR)``) must be the same on both sides.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mvdd.replicate.lake import compact_lake
from mvdd.spark import read_lake
from tests.conftest import examples
from tests.support.replication import Servers, assert_replicated, setup, texts
from tests.test_binlog_values import ALIKE_TYPES, TYPES

pytestmark = pytest.mark.mariadb

#: what a session writes the rows under: the server fits what it must (a number out of range,
#: a character the charset lacks, a date no calendar has)
LOOSE = "SET SESSION sql_mode = ''"


#: the columns drawn: every family, and an ENUM's and a SET's members alike (which only a
#: session that is not strict creates)
_KINDS = TYPES | ALIKE_TYPES


def _drawn(data: st.DataObject, columns: list[str]) -> list[str]:
    return [data.draw(_KINDS[kind], label=kind) for kind in columns]


def _values(data: st.DataObject, columns: list[str]) -> str:
    return ", ".join(_drawn(data, columns))


#: the examples of each test: each runs the replicator twice on fresh databases
EXAMPLES = settings(
    max_examples=examples(6, 4),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
_COLUMNS = st.lists(st.sampled_from(sorted(_KINDS)), min_size=1, max_size=8)


@EXAMPLES
@given(columns=_COLUMNS, data=st.data())
def test_any_values_are_copied_and_followed_as_the_upstream_holds_them(
    servers: Servers, columns: list[str], data: st.DataObject
) -> None:
    """A shard on each upstream server with columns drawn at random; rows before the first run
    (copied row by row), then more rows and updates of the first ones (followed)."""
    _through(servers, columns, data)


@EXAMPLES
@given(columns=_COLUMNS, data=st.data())
def test_any_values_are_copied_by_spark_as_the_upstream_holds_them(
    servers: Servers, jdbc: list[str], spark: Any, columns: list[str], data: st.DataObject
) -> None:
    """The same, copied by Spark over JDBC (Connector/J reads some values as others: a TIME,
    a BIT, a zero date …), into the target and a lake, whose snapshot holds every row."""
    with tempfile.TemporaryDirectory() as lake:

        def compacted() -> None:
            compact_lake(spark, lake)
            held = sorted(row["id"] for row in read_lake(spark, lake).select("id").collect())
            assert held == [0, 1, 2, 1000, 1001, 1002]

        _through(servers, columns, data, compacted, bulk="spark", lake=lake)


def _through(
    servers: Servers,
    columns: list[str],
    data: st.DataObject,
    then: Callable[[], None] | None = None,
    **options: Any,
) -> None:
    """Rows of ``columns`` on a shard of each upstream server, two before the replicator's first
    run, one more and an update after it: the target holds them as the servers print them;
    ``then``: run before the databases and the state go."""
    names = [f"c{i}" for i in range(len(columns))]
    defs = ", ".join(f"{n} {k}" for n, k in zip(names, columns, strict=True))
    shards = {"up1": "orders_01", "up2": "orders_02"}
    with tempfile.TemporaryDirectory() as tmp, setup(servers, Path(tmp)) as s:
        for server, table in shards.items():
            s.run(server, LOOSE, f"CREATE TABLE {table} (id INT PRIMARY KEY, {defs})")
        start = {"up1": 0, "up2": 1000}
        for server, table in shards.items():
            s.run(
                server,
                LOOSE,
                *(
                    f"INSERT INTO {table} VALUES ({start[server] + i}, {_values(data, columns)})"
                    for i in range(2)
                ),
            )
        r = s.replicator(**options)
        r.run()
        for server, table in shards.items():
            changes = ", ".join(
                f"{n} = {v}" for n, v in zip(names, _drawn(data, columns), strict=True)
            )
            s.run(
                server,
                LOOSE,
                f"INSERT INTO {table} VALUES ({start[server] + 2}, {_values(data, columns)})",
                f"UPDATE {table} SET {changes} WHERE id = {start[server]}",
            )
        r.run()
        assert_replicated(s, r)
        listed = ", ".join(names)
        upstream = [
            row
            for server, table in shards.items()  # (up1's ids first)
            for row in texts(s.servers.upstream(server), s.db, table, listed)
        ]
        assert texts(s.servers.down, s.dw, "orders", listed) == upstream, columns
        if then is not None:
            then()
