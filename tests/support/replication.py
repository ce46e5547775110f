"""Upstream and downstream servers for the replicator's tests, and the oracle: the upstream
tables themselves.

:func:`assert_replicated` reads every shard's rows upstream and the target's rows downstream
and checks that the target holds exactly the upstream rows (every row by key, every column the
shard writes there equal, the counts equal) and that its schema is the group's join.
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Iterator
from typing import Any

import attrs
import pymysql

from mvdd.replicate import Replicator
from mvdd.replicate.verify import Verdict, verify
from tests.support.mariadb import MariaDB, quote


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
    #: the sources' snapshot method (``?snapshot=``; None: the server's default)
    snapshot: str | None = None

    def url(self, name: str) -> str:
        url = self.servers.upstream(name).url()
        return url if self.snapshot is None else f"{url}&snapshot={self.snapshot}"

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


def texts(server: MariaDB, database: str, table: str, columns: str) -> list[tuple[Any, ...]]:
    """A table's rows as the server prints them (``CAST(… AS CHAR)`` of each of ``columns``,
    comma-separated), by id. The text is read as its bytes and decoded here, bytes UTF-8 does
    not read kept as surrogate escapes: a BLOB's cast to text is its bytes unchecked
    (``X'EDB48B'``, a surrogate's encoding), which the client's decoder would refuse."""
    casts = ", ".join(f"CAST(CAST({c} AS CHAR) AS BINARY)" for c in columns.split(", "))
    with contextlib.closing(server.connect(database)) as conn, conn.cursor() as cur:
        cur.execute(f"SELECT id, {casts} FROM {table} ORDER BY id")
        return [
            (ident, *(v if v is None else v.decode("utf-8", "surrogateescape") for v in values))
            for ident, *values in cur.fetchall()
        ]


def gtid_binlog_pos(s: Setup) -> dict[str, str]:
    """Each upstream server's ``@@gtid_binlog_pos``: the GTID position a replicator caught up
    with it has applied."""
    out = {}
    for name in ("up1", "up2"):
        with contextlib.closing(s.servers.upstream(name).connect()) as conn, conn.cursor() as cur:
            cur.execute("SELECT @@gtid_binlog_pos")
            out[name] = str(cur.fetchone()[0])
    return out


def applied(status: dict[str, Any]) -> dict[str, str]:
    """The GTID position applied of each source, as a status names it for each of its shards."""
    return {shard.split("/")[0]: v["gtid"] for shard, v in status["shards"].items()}


def verdict_of(s: Setup, r: Replicator) -> Verdict:
    """What :func:`mvdd.replicate.verify.verify` finds of the target against the upstream
    servers (itself tested on targets made wrong on purpose)."""
    return verify(r.group, {n: s.url(n) for n in ("up1", "up2")}, s.downstream_url(), s.target)


def assert_replicated(s: Setup, r: Replicator) -> dict[str, int]:
    """The target holds exactly the upstream rows and has the join's schema (:func:`verdict_of`);
    returns the row count of each shard."""
    found = verdict_of(s, r)
    assert found.ok, found.differences
    return found.rows
