"""Is the target what the upstream says? The upstream tables are the oracle.

:func:`verify` reads every shard's rows upstream and the target's rows downstream and reports
every difference: a row of a shard missing downstream (by key), a column whose value differs
(each shard column compared with the target column its values land in: renames followed), rows
downstream that no shard has, and a target schema that is not the group's join. Rows of a
paused shard are not compared (they wait); the target may hold up to that many rows more.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Iterator, Sequence
from decimal import Decimal
from typing import Any

import attrs
import pymysql

from mvdd.binlog.source import source_address
from mvdd.ddl import parse_table
from mvdd.ddl.dml import select_all, show_create
from mvdd.model import Column, Table
from mvdd.model.names import fold_name
from mvdd.model.table import as_shown
from mvdd.replicate.merge import row_key
from mvdd.shard import ShardGroup
from mvdd.store.address import Address, parse_address


@attrs.frozen
class Verdict:
    """What :func:`verify` found: rows compared per shard, and every difference (empty: the
    target holds exactly the upstream rows and has the join's schema)."""

    rows: dict[str, int]
    target_rows: int
    differences: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.differences


def same(a: Any, b: Any) -> bool:
    """Whether two values the driver read are the same value (a DECIMAL read as Decimal and
    an INT, text and bytes of one string …)."""
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, Decimal) or isinstance(b, Decimal):
        try:
            return Decimal(a) == Decimal(b)
        except (TypeError, ArithmeticError):
            return False
    if isinstance(a, dt.datetime) and isinstance(b, dt.datetime):
        return a == b
    if isinstance(a, str | bytes) and isinstance(b, str | bytes):
        return (a.encode() if isinstance(a, str) else a) == (
            b.encode() if isinstance(b, str) else b
        )
    return bool(a == b)


@contextlib.contextmanager
def _connection(address: Address) -> Iterator[Any]:
    conn = pymysql.connect(**address.connect_options())
    try:
        yield conn
    finally:
        conn.close()


def _read(
    address: Address, table: str, columns: Sequence[Column] | None = None
) -> tuple[list[str], list[tuple[Any, ...]]]:
    """A table's rows: every column, or ``columns``, each read as its type stores it
    (:func:`mvdd.ddl.dml.read_node`)."""
    with _connection(address) as conn, conn.cursor() as cur:
        cur.execute(select_all(table, columns))
        return [d[0] for d in cur.description], list(cur.fetchall())


def target_schema(downstream: str, target: str) -> Table:
    with _connection(parse_address(downstream)) as conn, conn.cursor() as cur:
        cur.execute(show_create(target))
        text = cur.fetchone()[1]
    shown = text.decode("utf-8", "surrogateescape") if isinstance(text, bytes) else text
    return parse_table(shown, replica=True)  # (the server's own text: its rules built the table)


def verify(
    group: ShardGroup, sources: dict[str, str], downstream: str, target: str, *, limit: int = 20
) -> Verdict:
    """Compare the target with the upstream shards (see the module docstring); ``limit``
    differences are named at most."""
    found: list[str] = []
    live = target_schema(downstream, target)
    joined = as_shown(group.joined)  # (as the target's SHOW CREATE TABLE writes it)
    if not live.equivalent(joined):
        found.append(f"the target's schema is not the join: {live.differences(joined)}")
    key = row_key(group.joined) or ()
    names, rows = _read(parse_address(downstream), target)
    at = [names.index(k) for k in key]
    down = {tuple(row[i] for i in at): dict(zip(names, row, strict=True)) for row in rows}
    counts: dict[str, int] = {}
    compared = held = 0
    matched: set[tuple[Any, ...]] = set()
    for shard in sorted(group.shards):
        source = shard.partition("/")[0]
        schema = group.schema(shard)
        database, _, name = schema.name.partition(".")  # its name now
        upstream = source_address(sources[source]).with_database(database)
        up_names, up_rows = _read(upstream, name, schema.columns)
        if shard in group.paused:
            held += len(up_rows)
            continue
        where = {}
        for col in schema.columns:
            dest = group.destination(shard, col.id)
            if dest is not None and dest.generated is None:
                where[col.name] = dest.name
        back = {fold_name(d): u for u, d in where.items()}
        up_key = [back[fold_name(k)] for k in key]
        for row in up_rows:
            values = dict(zip(up_names, row, strict=True))
            k = tuple(values[u] for u in up_key)
            got = down.get(k)
            if got is None:
                found.append(f"{shard}: the row {k} is missing downstream")
                continue
            matched.add(k)
            for up, dn in where.items():
                if not same(values[up], got[dn]):
                    found.append(
                        f"{shard}: row {k}, `{up}` is {values[up]!r} upstream and `{dn}` "
                        f"{got[dn]!r} downstream"
                    )
        counts[shard] = len(up_rows)
        compared += len(up_rows)
    if not held:
        found.extend(f"the row {k} is downstream and on no shard" for k in down if k not in matched)
    elif not compared <= len(down) <= compared + held:
        found.append(
            f"the target holds {len(down)} rows; the shards {compared}"
            + (f" (and {held} of paused shards)" if held else "")
        )
    extra = len(found) - limit
    shown = found[:limit] + ([f"… and {extra} more"] if extra > 0 else [])
    return Verdict(counts, len(down), tuple(shown))


__all__ = ["Verdict", "same", "verify"]
