"""The few statements a replication target runs besides DDL, built as sqlglot trees and rendered
with every identifier quoted (any table or column name is safe):

- :func:`insert_rows`: one multi-row ``INSERT`` with the values as literals;
- :func:`checksum_query`: ``COUNT(*)`` and the sum of ``CRC32`` of each row's values as text
  joined by ``|`` (``CONCAT_WS`` skips NULLs), to compare a table with a copy computed elsewhere;
- :func:`show_create` and :func:`drop_table`;
- what a binlog reader asks its source: :func:`show_create_database`, :func:`lock_table` (a
  read of no rows that takes the table's metadata lock).

Table names may be ``database.table`` pairs: :func:`table_ref` takes the database apart.

>>> print(drop_table("t"))
DROP TABLE IF EXISTS `t`

>>> print(insert_rows("t`x", ["a", "b"], [(1, "it's"), (None, "b")]))
INSERT INTO `t``x` (`a`, `b`) VALUES (1, 'it''s'), (NULL, 'b')
>>> print(checksum_query("t", ["a", "b"]))
SELECT COUNT(*), COALESCE(SUM(CRC32(CONCAT_WS('|', `a`, `b`))), 0) FROM `t`
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from sqlglot import exp

from mvdd.ddl.render import _id, _table, literal_node, sql


def table_ref(table: str | tuple[str, str]) -> exp.Table:
    """A table reference: a name, or a (database, table) pair."""
    if isinstance(table, tuple):
        database, name = table
        return exp.Table(this=_id(name), db=_id(database))
    return _table(table)


def show_create_database(database: str) -> str:
    """``SHOW CREATE DATABASE database``.

    >>> print(show_create_database("sh`op"))
    SHOW CREATE DATABASE `sh``op`
    """
    return sql(exp.Show(this="CREATE DATABASE", target=_id(database)))


def lock_table(table: str | tuple[str, str]) -> str:
    """``SELECT 1 FROM table LIMIT 0``: reads nothing, but inside a transaction holds the
    table's metadata lock until the transaction ends (no DDL on it can commit meanwhile).

    >>> print(lock_table(("shop", "t")))
    SELECT 1 FROM `shop`.`t` LIMIT 0
    """
    return sql(exp.select(exp.Literal.number(1)).from_(table_ref(table)).limit(0))


def insert_rows(table: str, columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """``INSERT INTO table (columns) VALUES (…), (…)``; values are canonical Python values
    (int, Decimal, float, str, bytes, date/time, None)."""
    values = exp.Values(
        expressions=[exp.Tuple(expressions=[literal_node(v) for v in row]) for row in rows]
    )
    target = exp.Schema(this=_table(table), expressions=[_id(c) for c in columns])
    return sql(exp.Insert(this=target, expression=values))


def checksum_query(table: str, columns: Sequence[str]) -> str:
    """Row count and checksum of ``columns`` over the whole table."""
    text = exp.Anonymous(
        this="CONCAT_WS",
        expressions=[exp.Literal.string("|"), *(exp.Column(this=_id(c)) for c in columns)],
    )
    crc = exp.Anonymous(this="CRC32", expressions=[text])
    total = exp.Coalesce(this=exp.Sum(this=crc), expressions=[exp.Literal.number(0)])
    return sql(exp.select(exp.Count(this=exp.Star()), total).from_(_table(table)))


def show_create(table: str | tuple[str, str]) -> str:
    """``SHOW CREATE TABLE table`` (a name, or a (database, table) pair)."""
    return sql(exp.Show(this="CREATE TABLE", target=table_ref(table)))


def drop_table(table: str, *, if_exists: bool = True) -> str:
    """``DROP TABLE [IF EXISTS] table``."""
    return sql(exp.Drop(tables=[_table(table)], kind="TABLE", exists=if_exists))


__all__ = [
    "checksum_query",
    "drop_table",
    "insert_rows",
    "lock_table",
    "show_create",
    "show_create_database",
    "table_ref",
]
