"""Upstream and downstream servers for the replicator's tests, and the oracle: the upstream
tables themselves.

:func:`assert_replicated` reads every shard's rows upstream and the target's rows downstream
and checks that the target holds exactly the upstream rows (every row by key, every column the
shard writes there equal, the counts equal) and that its schema is the group's join.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import uuid
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import attrs
import pymysql

from mvdd import parse_table
from mvdd.replicate import Replicator
from tests.support.mariadb import MariaDB, quote, show_create_table


@attrs.define
class Servers:
    """Two upstream servers (binary logs on) and a downstream one."""

    up1: MariaDB
    up2: MariaDB
    down: MariaDB

    def upstream(self, name: str) -> MariaDB:
        return {"up1": self.up1, "up2": self.up2}[name]


@attrs.define
class Setup:
    """One test's databases: ``db`` on each upstream server, ``dw`` downstream."""

    servers: Servers
    db: str
    dw: str
    state: str
    target: str = "orders"

    def url(self, name: str) -> str:
        return self.servers.upstream(name).url()

    def downstream_url(self) -> str:
        return self.servers.down.url(self.dw)

    def replicator(self, **options: Any) -> Replicator:
        return Replicator(
            {"up1": self.url("up1"), "up2": self.url("up2")},
            tables=f"{self.db}.orders_*",
            target=self.target,
            downstream=self.downstream_url(),
            state=self.state,
            **options,
        )

    def run(self, server: str, *statements: str) -> None:
        self.servers.upstream(server).execute(*statements, database=self.db)

    def cli_args(self) -> list[str]:
        return [
            "replicate",
            "--source",
            f"up1={self.url('up1')}",
            "--source",
            f"up2={self.url('up2')}",
            "--tables",
            f"{self.db}.orders_*",
            "--target",
            self.target,
            "--downstream",
            self.downstream_url(),
            "--state",
            self.state,
        ]


@contextlib.contextmanager
def setup(servers: Servers, tmp: Any) -> Iterator[Setup]:
    """Fresh databases of one name on both upstream servers and one downstream."""
    db = "shop_" + uuid.uuid4().hex[:8]
    dw = "dw_" + uuid.uuid4().hex[:8]
    for server in (servers.up1, servers.up2):
        server.execute(f"CREATE DATABASE {quote(db)}")
    servers.down.execute(f"CREATE DATABASE {quote(dw)}")
    try:
        yield Setup(servers, db, dw, str(tmp / "state"))
    finally:
        for server in (servers.up1, servers.up2):
            with contextlib.suppress(pymysql.MySQLError):
                server.execute(f"DROP DATABASE IF EXISTS {quote(db)}")
        with contextlib.suppress(pymysql.MySQLError):
            servers.down.execute(f"DROP DATABASE IF EXISTS {quote(dw)}")


def _rows(server: MariaDB, database: str, table: str) -> tuple[list[str], list[tuple[Any, ...]]]:
    with contextlib.closing(server.connect(database)) as conn, conn.cursor() as cur:
        cur.execute(f"SELECT * FROM {quote(table)}")
        names = [d[0] for d in cur.description]
        return names, list(cur.fetchall())


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, Decimal) or isinstance(b, Decimal):
        return a is not None and b is not None and Decimal(a) == Decimal(b)
    if isinstance(a, dt.datetime) and isinstance(b, dt.datetime):
        return a == b
    if isinstance(a, str | bytes) and isinstance(b, str | bytes):
        return (a.encode() if isinstance(a, str) else a) == (
            b.encode() if isinstance(b, str) else b
        )
    return bool(a == b)


def assert_replicated(s: Setup, r: Replicator) -> dict[str, int]:
    """The target holds exactly the upstream rows and has the join's schema; returns the row
    count of each shard."""
    group = r.group
    down = s.servers.down
    with contextlib.closing(down.connect(s.dw)) as conn:
        live = parse_table(show_create_table(conn, s.target))
    assert live.equivalent(group.joined), live.differences(group.joined)
    names, rows = _rows(down, s.dw, s.target)
    key = [c for c in group.joined.index_column_names(group.joined.primary_key)]  # type: ignore[arg-type]
    at = [names.index(k) for k in key]
    target = {tuple(row[i] for i in at): dict(zip(names, row, strict=True)) for row in rows}
    counts: dict[str, int] = {}
    seen = 0
    for shard in sorted(group.shards):
        if shard in group.paused:
            continue
        source, _, table = shard.partition("/")
        database, _, name = table.partition(".")
        schema = group.schema(shard)
        up_names, up_rows = _rows(s.servers.upstream(source), database, name)
        where = {}
        for col in schema.columns:
            dest = group.destination(shard, col.id)
            if dest is not None and dest.generated is None:
                where[col.name] = dest.name
        up_key = [next(u for u, d in where.items() if d.casefold() == k.casefold()) for k in key]
        for row in up_rows:
            values = dict(zip(up_names, row, strict=True))
            k = tuple(values[u] for u in up_key)
            assert k in target, f"{shard}: row {k} is not in the target"
            got = target[k]
            for up, dn in where.items():
                assert _same(values[up], got[dn]), (shard, k, up, values[up], dn, got[dn])
        counts[shard] = len(up_rows)
        seen += len(up_rows)
    paused_rows = 0
    for shard in group.paused:
        source, _, table = shard.partition("/")
        database, _, name = table.partition(".")
        paused_rows += len(_rows(s.servers.upstream(source), database, name)[1])
    if not group.paused:
        assert len(target) == seen, (len(target), seen)
    else:
        assert seen <= len(target) <= seen + paused_rows
    return counts
