"""A shard group wired to a real MariaDB: every upstream DDL runs on the shard's own table, every
downstream DDL the group emits runs on the target table, and after each step the target must be
the group's joined schema and accept a row from every unpaused shard. The target is written
through a connection of its own, set up as the replicator sets up its downstream session
(:func:`mvdd.replicate.target.prepare_session`), and its DDL runs as the replicator runs it
(:func:`mvdd.replicate.target.run_ddl`), data statements under the session's strict mode."""

from __future__ import annotations

import datetime as dt
import itertools
import struct
import weakref
from decimal import Decimal
from typing import Any

import pymysql

from mvdd import parse_table
from mvdd.model import Column, Table
from mvdd.model.kind import PLUGIN_BYTES, Family, TypeKind
from mvdd.replicate.merge import is_data
from mvdd.replicate.target import prepare_session, run_ddl
from mvdd.shard import Outcome, ShardGroup
from tests.support.mariadb import quote, show_create_table, sibling, visibility


def sample(col: Column, n: int) -> Any:
    """A value column ``col`` holds, different for each ``n`` where the type allows."""
    t = col.type
    fam = t.family
    if fam == Family.INTEGER:
        return n % (t.integer_range()[1] + 1)
    if fam == Family.DECIMAL:
        return str(Decimal(n % 10))
    if fam == Family.FLOAT:
        return float(n % 100)
    if fam == Family.BIT:
        return (n % 2).to_bytes(1, "big")
    if fam in (Family.CHAR, Family.TEXT):
        limit = t.max_length() or 8
        return f"v{n}"[-limit:]
    if fam in (Family.BINARY, Family.BLOB):
        return bytes([n % 256])
    if t.kind == TypeKind.ENUM:
        return t.members[n % len(t.members)]
    if t.kind == TypeKind.SET:
        return t.members[n % len(t.members)]
    if t.kind == TypeKind.DATE:
        return dt.date(2020, 1, 1) + dt.timedelta(days=n % 300)
    if t.kind in (TypeKind.DATETIME, TypeKind.TIMESTAMP):
        return dt.datetime(2020, 1, 1) + dt.timedelta(seconds=n)
    if t.kind == TypeKind.TIME:
        return f"01:02:{n % 60:02d}"
    if t.kind == TypeKind.YEAR:
        return 2000 + n % 100
    if fam == Family.JSON:
        return f'{{"n": {n}}}'
    if fam == Family.PLUGIN:  # n in the last bytes of the value
        return t.coerce((n % 2**32).to_bytes(PLUGIN_BYTES[t.kind], "big"))
    if t.kind in (TypeKind.POINT, TypeKind.GEOMETRY):  # the point (n, 0): SRID 0, then its WKB
        return struct.pack("<IBIdd", 0, 1, 1, float(n), 0.0)
    raise AssertionError(f"no sample for {t}")


class Rig:
    """Upstream shard tables and the downstream target in one database."""

    def __init__(
        self, conn: pymysql.connections.Connection, shards: dict[str, str], target: str = "t"
    ):
        self.conn = conn
        self.target = target
        self.down = sibling(conn)
        self.flavor = prepare_session(self.down).flavor
        self._closed = weakref.finalize(self, self.down.close)
        self.counter = itertools.count(1)
        self.warnings: list[str] = []  # what the downstream DDL warned of
        self.tables: dict[str, str] = {}  # shard -> its table name upstream
        for shard, create in shards.items():
            self.run(create)
            self.tables[shard] = parse_table(create).name
        with conn.cursor() as cur:  # the group knows the database's default, as a worker does
            cur.execute("SELECT @@character_set_database, @@collation_database")
            charset, collation = cur.fetchone()
        self.group = ShardGroup(target, shards, charset=charset, collation=collation)
        self.log: list[str] = []
        self.downstream([self.group.joined.to_sql()])

    def close(self) -> None:
        """Close the downstream connection now (a state machine's run makes a rig an example:
        left to the collector, their connections reached the server's limit in a long run)."""
        self._closed()

    def run(self, sql: str, *, conn: pymysql.connections.Connection | None = None) -> None:
        with (conn or self.conn).cursor() as cur:
            cur.execute(sql)

    def ddl(self, shard: str, sql: str, *, upstream: bool = True) -> Outcome:
        """Run ``sql`` on the shard's table, feed it to the group, run what it emits downstream
        and verify."""
        if upstream:
            self.run(sql)
            self.log.append(f"-- upstream {shard}: {sql}")
        out = self.group.apply(shard, sql)
        self.downstream(out.downstream)
        return out

    def downstream(self, statements: list[str]) -> None:
        for statement in statements:
            self.log.append(statement)
            try:
                if is_data(statement):
                    self.run(statement, conn=self.down)
                else:
                    with self.down.cursor() as cur:
                        self.warnings.extend(run_ddl(cur, statement, self.flavor))
            except pymysql.MySQLError as err:
                raise AssertionError(f"downstream DDL failed: {err}; log: {self.log}") from err
        self.verify()

    def live(self, table: str) -> Table:
        return parse_table(show_create_table(self.conn, table), replica=True)  # as it stands

    def verify(self) -> None:
        g = self.group
        target = self.live(self.target)
        diff = target.differences(g.joined, ignore_order=False)
        assert not diff, (diff, self.log)
        assert visibility(target) == visibility(g.joined), self.log
        for shard in self.tables:
            if shard not in g.shards:
                continue
            upstream = self.live(g.schema(shard).name)
            assert not upstream.differences(g.schema(shard)), (
                shard,
                upstream.differences(g.schema(shard)),
            )
            assert visibility(upstream) == visibility(g.schema(shard)), shard
        for shard in g.shards:
            if shard not in g.paused:
                self.insert(shard)

    def insert(self, shard: str) -> None:
        """A row valid on the shard's table goes in there and, the same, downstream."""
        schema = self.group.schema(shard)
        cols = [c for c in schema.columns if c.generated is None and not c.auto_increment]
        n = next(self.counter)
        values = [sample(c, n) for c in cols]
        names = ", ".join(quote(c.name) for c in cols)
        marks = ", ".join(["%s"] * len(cols))
        for table, conn in ((schema.name, self.conn), (self.target, self.down)):
            with conn.cursor() as cur:
                cur.execute(f"INSERT INTO {quote(table)} ({names}) VALUES ({marks})", values)

    def rows(self, columns: list[str]) -> list[tuple[Any, ...]]:
        with self.down.cursor() as cur:
            cur.execute(
                f"SELECT {', '.join(quote(c) for c in columns)} FROM {quote(self.target)} "
                f"ORDER BY {', '.join(quote(c) for c in columns)}"
            )
            return list(cur.fetchall())
