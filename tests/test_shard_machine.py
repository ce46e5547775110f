"""A hypothesis state machine drives a shard group with random DDL on random shards (joinable or
not, renames, constraints, generated columns, operator controls) and checks after every step:

* the downstream DDL emitted so far, applied to the first downstream table, gives ``g.joined``
  (column order included);
* with no rename under way, ``g.joined`` is the join of the shards' accepted schemas;
* every unpaused shard's accepted schema is its upstream one, and a paused shard's upstream
  schema does not join the others';
* a refused statement changes nothing;
* whatever happened, forcing every shard to one schema resumes them all (no state the group
  cannot recover from).
"""

from __future__ import annotations

import copy
from typing import Any

import hypothesis.strategies as st
import pymysql
import pytest
from hypothesis import event, settings
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

import mvdd
from mvdd import MvddError, Table, parse_statements
from mvdd.ddl import Rules, apply_steps, validate_table
from mvdd.shard import Outcome, ShardGroup
from mvdd.store.mysql import connection_lost
from tests.conftest import examples
from tests.support.mariadb import quote, visibility
from tests.support.shards import Rig

BASE = "CREATE TABLE {t} (id INT NOT NULL, a INT, b VARCHAR(8), PRIMARY KEY (id))"
NAMES = ["a", "b", "c", "d", "A"]
TYPES = [
    "INT",
    "BIGINT",
    "INT NOT NULL",
    "INT NOT NULL DEFAULT 3",
    "INT DEFAULT 4",
    "VARCHAR(8)",
    "VARCHAR(20) NOT NULL",
    "TEXT",
    "DATE",
    "ENUM('x','y')",
    "ENUM('x','y','z') NOT NULL",
    "INT AS (id + 1) STORED",
    "INT AS (id + 2) STORED",
    "INT AS (id + 1) VIRTUAL",
    "BIGINT AS (id + 1) VIRTUAL",
    "UUID",
    "POINT",
    "INET6 NOT NULL",
]


def replay(table: Table, statements: list[str]) -> Table:
    """The downstream table after running ``statements`` (data statements change no schema)."""
    for text in statements:
        if text.startswith("UPDATE"):
            continue
        for statement in parse_statements(text):
            table = apply_steps(table, statement.steps, rules=Rules.SERVER)
            validate_table(table)
    return table


class ShardMachine(RuleBasedStateMachine):
    @initialize(renames=st.sampled_from(["merge", "wait"]))
    def start(self, renames: str) -> None:
        self.group = ShardGroup(
            "t", {f"s{i}": BASE.format(t=f"tbl{i}") for i in (1, 2, 3)}, renames=renames
        )
        self.down = self.group.joined
        self.held = False
        self.next_shard = 4

    # -- helpers ------------------------------------------------------------------------------

    def shard(self, data: st.DataObject) -> str:
        return data.draw(st.sampled_from(sorted(self.group.shards)))

    def columns(self, shard: str) -> list[str]:
        return [c.name for c in self.group.schema(shard).columns if c.name != "id"]

    def run(self, shard: str, sql: str) -> Outcome | None:
        """Apply an upstream statement; its outcome (None: refused)."""
        g = self.group
        before = (g.joined, {s: g.schema(s) for s in g.shards}, g.paused)
        try:
            out = g.apply(shard, sql)
        except MvddError:
            assert (g.joined, {s: g.schema(s) for s in g.shards}, g.paused) == before
            event("refused")
            return None
        event(
            "conflict"
            if out.conflict
            else "waiting"
            if out.waiting
            else "resumed"
            if out.resumed
            else "joined"
        )
        self.down = replay(self.down, out.downstream)
        if out.conflict is not None:
            assert shard in g.paused or shard not in g.shards
            assert out.conflict.message
        return out

    # -- rules --------------------------------------------------------------------------------

    @rule(data=st.data())
    def add_column(self, data: st.DataObject) -> None:
        s = self.shard(data)
        name = data.draw(st.sampled_from(NAMES))
        ctype = data.draw(st.sampled_from(TYPES))
        self.run(s, f"ALTER TABLE {quote(self.group.schema(s).name)} ADD COLUMN {name} {ctype}")

    @rule(data=st.data())
    def drop_column(self, data: st.DataObject) -> None:
        s = self.shard(data)
        cols = self.columns(s)
        if cols:
            name = data.draw(st.sampled_from(cols))
            self.run(s, f"ALTER TABLE {quote(self.group.schema(s).name)} DROP COLUMN {quote(name)}")

    @rule(data=st.data())
    def modify_column(self, data: st.DataObject) -> None:
        s = self.shard(data)
        cols = self.columns(s)
        if cols:
            name = data.draw(st.sampled_from(cols))
            ctype = data.draw(st.sampled_from(TYPES))
            table = quote(self.group.schema(s).name)
            self.run(s, f"ALTER TABLE {table} MODIFY COLUMN {quote(name)} {ctype}")

    @rule(data=st.data())
    def rename_column(self, data: st.DataObject) -> None:
        s = self.shard(data)
        cols = self.columns(s)
        if cols:
            old = data.draw(st.sampled_from(cols))
            new = data.draw(st.sampled_from(NAMES))
            table = quote(self.group.schema(s).name)
            self.run(s, f"ALTER TABLE {table} RENAME COLUMN {quote(old)} TO {quote(new)}")

    @rule(data=st.data())
    def index(self, data: st.DataObject) -> None:
        s = self.shard(data)
        cols = [
            c
            for c in self.group.schema(s).columns
            if c.type.family in ("integer", "char", "plugin")
        ]
        table = quote(self.group.schema(s).name)
        if len(cols) > 0 and data.draw(st.booleans()):
            col = quote(data.draw(st.sampled_from(cols)).name)
            kind = data.draw(st.sampled_from(["INDEX", "UNIQUE INDEX"]))
            parts = data.draw(st.sampled_from([col, f"{col}, id"]))
            self.run(s, f"ALTER TABLE {table} ADD {kind} ix ({parts})")
        else:
            self.run(s, f"ALTER TABLE {table} DROP INDEX ix")

    @rule(data=st.data())
    def index_visibility(self, data: st.DataObject) -> None:
        s = self.shard(data)
        word = data.draw(st.sampled_from(["IGNORED", "NOT IGNORED"]))  # MariaDB's, as upstream
        self.run(s, f"ALTER TABLE {quote(self.group.schema(s).name)} ALTER INDEX ix {word}")

    @rule(data=st.data())
    def check(self, data: st.DataObject) -> None:
        s = self.shard(data)
        table = quote(self.group.schema(s).name)
        # `İ` and `i` fold alike, but MariaDB holds both (their UTF-8 lengths differ), and a
        # DROP of either name drops the first of them
        name = quote(data.draw(st.sampled_from(["ck", "İ", "i"])))
        if data.draw(st.booleans()):
            bound = data.draw(st.integers(0, 1))
            names = [quote(c.name) for c in self.group.schema(s).columns if c.name != "id"]
            over = data.draw(st.sampled_from(["", *names]))  # a column the check also names
            expr = f"{over} IS NOT NULL OR id > {bound}" if over else f"id > {bound}"
            self.run(s, f"ALTER TABLE {table} ADD CONSTRAINT {name} CHECK ({expr})")
        else:
            self.run(s, f"ALTER TABLE {table} DROP CONSTRAINT {name}")

    @rule(data=st.data())
    def default(self, data: st.DataObject) -> None:
        s = self.shard(data)
        cols = [c.name for c in self.group.schema(s).columns if c.type.family == "integer"]
        if cols:
            name = quote(data.draw(st.sampled_from(cols)))
            value = data.draw(st.sampled_from(["SET DEFAULT 3", "SET DEFAULT 4", "DROP DEFAULT"]))
            self.run(
                s, f"ALTER TABLE {quote(self.group.schema(s).name)} ALTER COLUMN {name} {value}"
            )

    @rule(data=st.data())
    def options(self, data: st.DataObject) -> None:
        s = self.shard(data)
        word = data.draw(st.sampled_from(["x", "y"]))
        self.run(s, f"ALTER TABLE {quote(self.group.schema(s).name)} COMMENT '{word}'")

    @rule(data=st.data())
    def set_schema(self, data: st.DataObject) -> None:
        s, other = self.shard(data), self.shard(data)
        out = self.group.set_schema(s, self.group.schema(other).to_sql())
        self.down = replay(self.down, out.downstream)

    @precondition(lambda self: len(self.group.shards) < 5)
    @rule(data=st.data())
    def add_shard(self, data: st.DataObject) -> None:
        other = self.shard(data)
        name = f"s{self.next_shard}"
        self.next_shard += 1
        create = (
            self.group.schema(other)
            .to_sql()
            .replace(quote(self.group.schema(other).name), quote(f"tbl_{name}"), 1)
        )
        out = self.group.add_shard(name, create)
        self.down = replay(self.down, out.downstream)

    @rule(data=st.data())
    def truncate(self, data: st.DataObject) -> None:
        """A TRUNCATE reaches the target exactly when the shard is the group's only one and in
        the join (and propagation is on); it never changes a schema."""
        s = self.shard(data)
        g = self.group
        alone = len(g.shards) == 1 and s not in g.paused
        joined, schema = g.joined, g.schema(s)
        out = self.run(s, f"TRUNCATE TABLE {quote(schema.name)}")
        assert out is not None  # nothing refuses a TRUNCATE
        emptied = "TRUNCATE TABLE `t`" in out.downstream
        assert emptied == (alone and not self.held), (out, alone, self.held)
        g = self.group
        assert g.joined.equivalent(joined) and g.schema(s).equivalent(schema)
        event("truncate propagated" if emptied else "truncate kept")

    @precondition(lambda self: len(self.group.shards) > 1)
    @rule(data=st.data())
    def remove_shard(self, data: st.DataObject) -> None:
        out = self.group.remove_shard(self.shard(data))
        self.down = replay(self.down, out.downstream)

    @rule()
    def toggle_propagation(self) -> None:
        if self.held:
            self.down = replay(self.down, self.group.enable_propagation())
        else:
            self.group.disable_propagation()
        self.held = not self.held

    # -- invariants ---------------------------------------------------------------------------

    @invariant()
    def bookkeeping_holds(self) -> None:
        """The group's holdings are exactly those of its shards' schemas (sortedcontainers'
        habit: every structure checks its own invariants)."""
        self.group._check()

    @invariant()
    def downstream_follows(self) -> None:
        if not self.held:
            diff = self.down.differences(self.group.joined, ignore_order=False)
            assert not diff, diff
            assert visibility(self.down) == visibility(self.group.joined)

    @invariant()
    def joined_is_the_join(self) -> None:
        g = self.group
        accepted = [g.accepted(s) for s in g.shards if s not in g.paused or _has(g, s)]
        if g._renames.under_way:
            return
        lattice = mvdd.join(*accepted)
        checks = [c for c in lattice.checks if c.enforced]
        expected = Table(**{**_fields(lattice), "checks": tuple(checks)})
        diff = folded(g.joined).differences(folded(expected))
        assert not diff, diff

    @invariant()
    def paused_means_waiting(self) -> None:
        g = self.group
        for s in g.shards:
            if s not in g.paused:
                assert g.accepted(s).equivalent(g.schema(s))
            else:  # a conflict, or a rename that waits for the other shards: never both
                assert (g.conflict(s) is None) != (g.waiting(s) is None)
                assert g.pause_reason(s)

    def teardown(self) -> None:
        if not hasattr(self, "group"):
            return
        g = self.group
        if self.held:
            self.down = replay(self.down, g.enable_propagation())
        target = g.schema(sorted(g.shards)[0])
        for s in sorted(g.shards):
            self.down = replay(self.down, g.set_schema(s, target).downstream)
        assert not g.paused, {s: str(g.conflict(s)) for s in g.paused}
        assert folded(g.joined).equivalent(folded(target)), g.joined.differences(target)
        assert not self.down.differences(g.joined, ignore_order=False)


def folded(table: Table) -> Table:
    """The table with its column names case-folded (MySQL compares them so; the group keeps
    the spelling a column has downstream)."""
    import attrs

    return attrs.evolve(
        table, columns=tuple(attrs.evolve(c, name=c.name.casefold()) for c in table.columns)
    )


def _has(g: ShardGroup, shard: str) -> bool:
    try:
        g.accepted(shard)
    except MvddError:
        return False
    return True


def _fields(table: Table) -> dict[str, Any]:
    return {
        "name": table.name,
        "columns": table.columns,
        "indexes": table.indexes,
        "checks": table.checks,
        "options": table.options,
        "last_id": table.last_id,
    }


ShardMachine.TestCase.settings = settings(stateful_step_count=30)
TestShardMachine = pytest.mark.slow(ShardMachine.TestCase)


@pytest.mark.parametrize(
    "reader",
    [
        "ADD CONSTRAINT ck CHECK (`a` IS NOT NULL OR id > 0)",
        "ADD COLUMN g INT AS (LENGTH(`a`)) VIRTUAL",
    ],
)
def test_a_reader_of_a_name_that_moves_to_another_column_goes_first(reader: str) -> None:
    """A check or a generated column the target holds alike at both ends, whose names read
    another column at the end (a finished rename drops ``a`` and renames ``c`` to it), goes
    first and comes again: the server refuses to drop a column they read. (A deep run of the
    machine found it; the target is replayed as the machine replays it.)"""
    g = ShardGroup("t", {f"s{i}": BASE.format(t=f"tbl{i}") for i in (1, 2, 3)}, renames="merge")
    down = replay(g.joined, g.apply("s2", "ALTER TABLE tbl2 RENAME COLUMN a TO c").downstream)
    down = replay(down, g.remove_shard("s1").downstream)
    for sql in ("RENAME COLUMN b TO a", reader):
        down = replay(down, g.apply("s2", f"ALTER TABLE tbl2 {sql}").downstream)
    create = g.schema("s2").to_sql().replace("`tbl2`", "`tbl_s4`", 1)
    down = replay(down, g.add_shard("s4", create).downstream)
    down = replay(down, g.apply("s2", "ALTER TABLE tbl2 RENAME COLUMN c TO b").downstream)
    target = g.schema("s2")
    for s in sorted(g.shards):
        down = replay(down, g.set_schema(s, target).downstream)
    assert not g.paused
    assert not down.differences(g.joined, ignore_order=False)


# --- the same on a real server ----------------------------------------------------------------


class ServerShardMachine(ShardMachine):
    """Upstream DDL runs on each shard's own MariaDB table first (a statement the server refuses,
    for the rows it holds, is not fed to the group); the emitted DDL runs on the target; after
    every step the target is ``g.joined`` and takes a row from every unpaused shard."""

    conn: Any = None
    server: Any = None  # the sandbox, for its error log

    @initialize(renames=st.sampled_from(["merge", "wait"]))
    def start(self, renames: str) -> None:
        super().start(renames)
        with self.conn.cursor() as cur:
            cur.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE()"
            )
            for (name,) in cur.fetchall():
                cur.execute(f"DROP TABLE {quote(name)}")
        shards = {s: self.group.schema(s).to_sql() for s in self.group.shards}
        self.rig = Rig(self.conn, shards)
        self.rig.group = self.group

    def run(self, shard: str, sql: str) -> Outcome | None:
        trial = copy.deepcopy(self.group)
        try:
            out = trial.apply(shard, sql)
        except MvddError:
            event("refused")
            return None
        try:
            self.rig.run(sql)
        except pymysql.MySQLError as err:
            gone(err, sql, self.server)
            event("refused by the server")
            return None
        self.rig.log.append(f"-- upstream {shard}: {sql}")
        self.group = self.rig.group = trial
        self.rig.downstream(out.downstream)
        self.down = replay(self.down, out.downstream)
        return out

    def set_schema(self, data: st.DataObject) -> None:  # type: ignore[override]
        pass  # the server's tables cannot be forced

    def add_shard(self, data: st.DataObject) -> None:  # type: ignore[override]
        pass

    def remove_shard(self, data: st.DataObject) -> None:  # type: ignore[override]
        pass

    def toggle_propagation(self) -> None:  # type: ignore[override]
        pass

    def teardown(self) -> None:
        rig = getattr(self, "rig", None)
        if rig is not None:
            rig.close()


def gone(err: pymysql.MySQLError, sql: str, server: Any) -> None:
    """A lost connection is no verdict on the statement: fail, with the server's log."""
    if connection_lost(err):
        raise AssertionError(
            f"the server went away at {sql!r}: {err}\n{server.error_log()[-4000:]}"
        )


@pytest.mark.mariadb
@pytest.mark.slow
def test_random_ddl_on_mariadb(mdb: Any, mariadb: Any) -> None:
    ServerShardMachine.conn, ServerShardMachine.server = mdb, mariadb
    run_state_machine_as_test(
        ServerShardMachine, settings=settings(max_examples=examples(25, 8), stateful_step_count=25)
    )
