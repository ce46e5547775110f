"""A state machine of random DDL and DML on a real MariaDB, read back through the binlog reader.

A plain model (dicts of columns and rows) runs beside the server; every rule that changes the
server adds the events the reader must decode to a queue, and the ``read`` rule (also run at the end of
every example) checks that the reader hands out exactly those events (kind, table, version, row and before image), in order.
Renames, drops, widenings and transactions across tables move the schema under the rows, so a
row decoded with any but the version at its position fails the comparison.
"""

from __future__ import annotations

import datetime as dt
import os
from collections import deque
from decimal import Decimal
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, precondition, rule

from mvdd.binlog import BinlogReader
from tests.conftest import examples
from tests.support.mariadb import MariaDB, quote

pytestmark = pytest.mark.mariadb

#: column types with values that round-trip exactly: SQL type -> a strategy of values
TYPES: dict[str, st.SearchStrategy[Any]] = {
    "INT": st.integers(-(2**31), 2**31 - 1),
    "BIGINT UNSIGNED": st.integers(0, 2**64 - 1),
    "VARCHAR(20)": st.text(
        st.characters(codec="utf-8", exclude_categories=["Cs", "Cc"]), max_size=20
    ).map(lambda s: s.rstrip(" ")),
    "VARCHAR(10) CHARACTER SET latin1": st.text(st.sampled_from("abcxyz éüß€ÆØ"), max_size=10).map(
        lambda s: s.rstrip(" ")
    ),
    "DECIMAL(8,2)": st.decimals(min_value=-999999, max_value=999999, places=2).map(
        lambda d: d.quantize(Decimal("0.01"))
    ),
    "DATETIME(6)": st.datetimes(dt.datetime(1000, 1, 1), dt.datetime(9999, 12, 31)),
    "ENUM('a','b','c')": st.sampled_from(["a", "b", "c"]),
    "SET('x','y','z')": st.sets(st.sampled_from(["x", "y", "z"])),
    "VARBINARY(8)": st.binary(max_size=8),
}
#: widenings that keep every value: type -> wider type
WIDER = {"INT": "BIGINT", "VARCHAR(20)": "VARCHAR(40)", "DECIMAL(8,2)": "DECIMAL(12,2)"}
#: after a widening, values of the wider type come from the narrower one's strategy
VALUES = {**{w: TYPES[n] for n, w in WIDER.items()}, **TYPES}
NAMES = st.sampled_from(["a", "b", "c", "d", "e", "note", "größe", "k`q", "select"])


def literal(value: Any) -> Any:
    """A value as a PyMySQL parameter."""
    if isinstance(value, set):
        return ",".join(sorted(value))
    return value


@attrs.define
class MTable:
    columns: list[tuple[str, str]]  # (name, SQL type); the first is `id INT`
    rows: dict[int, dict[str, Any]] = attrs.Factory(dict)
    version: int = 1
    next_id: int = 1


class BinlogMachine(RuleBasedStateMachine):
    server: MariaDB

    def __init__(self) -> None:
        super().__init__()
        self.db = "bm_" + os.urandom(5).hex()
        self.server.execute(f"CREATE DATABASE {quote(self.db)}")
        self.conn = self.server.connect(self.db)
        self.reader = BinlogReader(self.server.url(), tables=f"{self.db}.*")
        self.reader.check()
        self.start = self.reader.position
        self.history: list[tuple[Any, ...]] = []
        self.tables: dict[str, MTable] = {}
        self.expected: deque[tuple[Any, ...]] = deque()
        self.counter = 0

    def teardown(self) -> None:
        try:
            self.read()  # whatever the last steps wrote
            # read it all again with the catalog now ahead of the stream: every row must be
            # decoded with the version at its position, not the newest one
            again = BinlogReader(
                self.server.url(),
                tables=f"{self.db}.*",
                catalog=self.reader.catalog,
                start=self.start,
            )
            assert [
                (str(e.kind), e.table, e.version, e.row, e.before) for e in again.events()
            ] == self.history
        finally:
            self._drop()

    def _drop(self) -> None:
        self.conn.close()
        self.server.execute(f"DROP DATABASE IF EXISTS {quote(self.db)}")
        self.reader.close()

    def run(self, sql: str, params: Any = None) -> None:
        with self.conn.cursor() as cur:
            cur.execute(sql, params)

    def name(self, table: str) -> str:
        return f"{self.db}.{table}"

    def ddl(self, table: str, sql: str) -> None:
        self.run(sql)
        t = self.tables[table]
        self.expected.append(("ddl", self.name(table), t.version, None, None))

    # -- schema -----------------------------------------------------------------------------------

    @precondition(lambda self: len(self.tables) < 3)
    @rule(types=st.lists(st.sampled_from(sorted(TYPES)), min_size=1, max_size=3))
    def create_table(self, types: list[str]) -> None:
        self.counter += 1
        table = f"t{self.counter}"
        columns = [("id", "INT")] + [(f"c{i}", t) for i, t in enumerate(types)]
        body = ", ".join(f"{quote(n)} {t}" for n, t in columns[1:])
        self.tables[table] = MTable(columns)
        self.ddl(table, f"CREATE TABLE {quote(table)} (id INT PRIMARY KEY, {body})")

    def pick(self, data: st.DataObject) -> tuple[str, MTable]:
        table = data.draw(st.sampled_from(sorted(self.tables)))
        return table, self.tables[table]

    @precondition(lambda self: self.tables)
    @rule(
        data=st.data(),
        name=NAMES,
        ctype=st.sampled_from(sorted(TYPES)),
        where=st.sampled_from(["last", "first", "after"]),
    )
    def add_column(self, data: st.DataObject, name: str, ctype: str, where: str) -> None:
        table, t = self.pick(data)
        if any(n.casefold() == name.casefold() for n, _ in t.columns):
            return
        place, at = "", len(t.columns)
        if where == "first":
            place, at = " FIRST", 0
        elif where == "after":
            after = data.draw(st.sampled_from([n for n, _ in t.columns]))
            place, at = f" AFTER {quote(after)}", [n for n, _ in t.columns].index(after) + 1
        t.version += 1
        self.ddl(table, f"ALTER TABLE {quote(table)} ADD COLUMN {quote(name)} {ctype}{place}")
        t.columns.insert(at, (name, ctype))
        for row in t.rows.values():
            row[name] = None

    @precondition(lambda self: any(len(t.columns) > 1 for t in self.tables.values()))
    @rule(data=st.data())
    def drop_column(self, data: st.DataObject) -> None:
        table = data.draw(
            st.sampled_from(sorted(n for n, t in self.tables.items() if len(t.columns) > 1))
        )
        t = self.tables[table]
        name, ctype = data.draw(st.sampled_from([c for c in t.columns if c[0] != "id"]))
        t.version += 1
        self.ddl(table, f"ALTER TABLE {quote(table)} DROP COLUMN {quote(name)}")
        t.columns.remove((name, ctype))
        for row in t.rows.values():
            del row[name]

    @precondition(lambda self: any(len(t.columns) > 1 for t in self.tables.values()))
    @rule(data=st.data(), to=NAMES)
    def rename_column(self, data: st.DataObject, to: str) -> None:
        table = data.draw(
            st.sampled_from(sorted(n for n, t in self.tables.items() if len(t.columns) > 1))
        )
        t = self.tables[table]
        name, ctype = data.draw(st.sampled_from([c for c in t.columns if c[0] != "id"]))
        if any(n.casefold() == to.casefold() for n, _ in t.columns):
            return
        t.version += 1
        self.ddl(table, f"ALTER TABLE {quote(table)} RENAME COLUMN {quote(name)} TO {quote(to)}")
        t.columns[t.columns.index((name, ctype))] = (to, ctype)
        for row in t.rows.values():
            row[to] = row.pop(name)

    @precondition(
        lambda self: any(
            c[1] in WIDER for t in self.tables.values() for c in t.columns if c[0] != "id"
        )
    )
    @rule(data=st.data())
    def widen_column(self, data: st.DataObject) -> None:
        table = data.draw(
            st.sampled_from(
                sorted(
                    n
                    for n, t in self.tables.items()
                    if any(c[1] in WIDER and c[0] != "id" for c in t.columns)
                )
            )
        )
        t = self.tables[table]
        name, ctype = data.draw(
            st.sampled_from([c for c in t.columns if c[1] in WIDER and c[0] != "id"])
        )
        t.version += 1
        self.ddl(table, f"ALTER TABLE {quote(table)} MODIFY {quote(name)} {WIDER[ctype]}")
        t.columns[t.columns.index((name, ctype))] = (name, WIDER[ctype])

    @precondition(lambda self: self.tables)
    @rule(data=st.data())
    def rename_table(self, data: st.DataObject) -> None:
        table, t = self.pick(data)
        self.counter += 1
        new = f"t{self.counter}"
        self.tables[new] = self.tables.pop(table)
        t.version += 1
        self.ddl(new, f"RENAME TABLE {quote(table)} TO {quote(new)}")

    @precondition(lambda self: self.tables)
    @rule(data=st.data())
    def drop_table(self, data: st.DataObject) -> None:
        table, t = self.pick(data)
        t.version += 1
        self.ddl(table, f"DROP TABLE {quote(table)}")
        del self.tables[table]

    # -- rows -------------------------------------------------------------------------------------

    def draw_row(self, data: st.DataObject, t: MTable) -> dict[str, Any]:
        row: dict[str, Any] = {"id": t.next_id}
        t.next_id += 1
        for name, ctype in t.columns:
            if name != "id":
                row[name] = data.draw(st.none() | VALUES[ctype])
        return row

    def insert(self, table: str, row: dict[str, Any]) -> None:
        names = ", ".join(quote(n) for n in row)
        marks = ", ".join(["%s"] * len(row))
        self.run(
            f"INSERT INTO {quote(table)} ({names}) VALUES ({marks})",
            [literal(v) for v in row.values()],
        )
        t = self.tables[table]
        t.rows[row["id"]] = row
        self.expected.append(("insert", self.name(table), t.version, dict(row), None))

    @precondition(lambda self: self.tables)
    @rule(data=st.data())
    def insert_row(self, data: st.DataObject) -> None:
        table, t = self.pick(data)
        self.insert(table, self.draw_row(data, t))

    @precondition(lambda self: any(t.rows for t in self.tables.values()))
    @rule(data=st.data())
    def update_row(self, data: st.DataObject) -> None:
        table = data.draw(st.sampled_from(sorted(n for n, t in self.tables.items() if t.rows)))
        t = self.tables[table]
        key = data.draw(st.sampled_from(sorted(t.rows)))
        before = dict(t.rows[key])
        after = {**self.draw_row(data, t), "id": key}
        t.next_id -= 1
        changed = [n for n in after if n != "id"]
        if not changed:
            return
        sets = ", ".join(f"{quote(n)} = %s" for n in changed)
        self.run(
            f"UPDATE {quote(table)} SET {sets} WHERE id = %s",
            [literal(after[n]) for n in changed] + [key],
        )
        t.rows[key] = after
        if after != before:  # the server logs no event for a row it did not change
            self.expected.append(("update", self.name(table), t.version, dict(after), before))

    @precondition(lambda self: any(t.rows for t in self.tables.values()))
    @rule(data=st.data())
    def delete_row(self, data: st.DataObject) -> None:
        table = data.draw(st.sampled_from(sorted(n for n, t in self.tables.items() if t.rows)))
        t = self.tables[table]
        key = data.draw(st.sampled_from(sorted(t.rows)))
        self.run(f"DELETE FROM {quote(table)} WHERE id = %s", [key])
        self.expected.append(("delete", self.name(table), t.version, t.rows.pop(key), None))

    @precondition(lambda self: len(self.tables) >= 2)
    @rule(data=st.data())
    def transaction_across_tables(self, data: st.DataObject) -> None:
        names = sorted(self.tables)
        self.run("BEGIN")
        for table in data.draw(st.lists(st.sampled_from(names), min_size=2, max_size=4)):
            self.insert(table, self.draw_row(data, self.tables[table]))
        self.run("COMMIT")

    # -- reading ----------------------------------------------------------------------------------

    @rule()
    def read(self) -> None:
        """The reader decodes what the model expects (also at the end of every run)."""
        got = [(str(e.kind), e.table, e.version, e.row, e.before) for e in self.reader.events()]
        want = list(self.expected)
        self.expected.clear()
        self.history.extend(want)
        for i, (g, w) in enumerate(zip(got, want, strict=False)):
            assert g == w, f"event {i}: decoded {g}, expected {w}"
        assert len(got) == len(want), (got[len(want) :], want[len(got) :])


@pytest.fixture
def machine(binlog_server: MariaDB) -> type[BinlogMachine]:
    BinlogMachine.server = binlog_server
    return BinlogMachine


@pytest.mark.slow
def test_binlog_reader_against_a_model_on_mariadb(machine: type[BinlogMachine]) -> None:
    run = machine.TestCase
    run.settings = settings(
        max_examples=examples(20, 8),
        stateful_step_count=25,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    run().runTest()
