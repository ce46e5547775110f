"""A state machine of random DDL and DML on three shards (two on one upstream server, one on the
other) and a fourth that comes and goes, followed by ``mvdd replicate``: columns added (first,
after another or last), dropped, renamed, moved, given a DEFAULT or none, and changed to any
type on any shard (one added and another dropped in one statement, renamed and changed in one,
two changed in one; a column added or dropped by an online schema change tool's ghost table
and cut-over), indexed and unindexed, generated columns added (and renamed) beside plain
ones, in a session outside strict mode (the server converts, cuts or zeroes the values a change
does not take), with rows written, updated (their keys too) and deleted between, some in
transactions over both shards of one server, and binary logs rotated; a fourth shard joins
(created empty, filled in its statement's transaction, ``LIKE`` another, or made aside with rows
and renamed into the pattern, from its database or one the patterns do not name), is renamed
within the pattern (a new table then takes its name), and leaves (dropped or renamed out, to
either database, its rows deleted first), again and again under one name; the
replicator runs at random moments, and is started again on its state (what a new process reads
back), or once in an example ``mvdd replicate`` runs in a process of its own killed at one of
its kill points (:mod:`mvdd.replicate.faults`).

The oracle is the upstream servers (:func:`tests.support.replication.assert_replicated`:
every row of every shard by key, every column the shard writes equal, the target's schema the
join), checked after every run that leaves no shard paused, and at the end of each example
once the shards are made to agree (each column they define apart dropped where it is), which
resumes a paused shard and releases its held rows.

Runs of this kind found: held rows forgotten when a second pause numbered them again; held
values converted in one step where the server went through every type between (or stopped for
good where mvdd had no conversion, or where strict mode refused an ENUM's error value); and
the values a shard's own DDL changed in its rows (a type cut, NOT NULL, an added column's
default) left as they were in the target; a NULL written while a rename was under way lost to
the merge that ended it; a renamed column changed over the rows of the shards not renamed yet
(it now joins their old column), and shards that renamed both names of a merge under way to a
third name left paused for good; a generated column's values left out of the target column
of its name once a rename gave it that name; a column a shard dropped and added again left
with its old values downstream; and a paused shard's rows, read again after a kill, applied a
second time where another server's DDL had resumed the shard first; rows read again, cut short
by a kill and put off by the shard's next DDL, met by their own INSERT; a statement that
changed nothing read again behind a later one; a group log that did not replay in a
process of another hash seed; a rename's new column dropped, with every shard's values,
where its renamer let it go for a generated column of its name; a shard renamed out of the
pattern followed under its new name (a new table of its name refused for good); a table
renamed into the pattern joined without its rows; and a paused shard's held rows kept after it
left (the rows they deleted left in the target, and released with the next table of its name
against that table's versions); a DROP read again after a kill behind a new table of its name, or a
CREATE behind the name's earlier table renamed away, refused as out of order; and a new table of the name a shard renamed within the pattern
bears refused as a shard the group had; the rows a rename brought in read from a new table
of the shard's first name and schema (empty); and a no-op read again after a kill behind the
drop of its name's earlier table refused as out of order. Each has a test of its own in ``test_replicate``,
``test_replicate_crash``, ``test_shard`` or ``test_shard_replay``.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pymysql
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    precondition,
    rule,
    run_state_machine_as_test,
)

from tests.conftest import examples
from tests.support.replication import Servers, Setup, assert_replicated, setup

pytestmark = pytest.mark.mariadb

#: the shards: name -> (upstream server, table); D comes and goes (:meth:`create_shard`), and
#: E is D renamed within the pattern (:meth:`rename_shard`)
SHARDS = {
    "A": ("up1", "orders_01"),
    "B": ("up2", "orders_02"),
    "C": ("up1", "orders_03"),
    "D": ("up2", "orders_04"),
    "E": ("up2", "orders_05"),
}
#: the shards there from the start, and for good
FIXED = ["A", "B", "C"]
LOOSE = "SET SESSION sql_mode = ''"


def _text(size: int) -> st.SearchStrategy[str]:
    return st.text(st.sampled_from("abé'"), max_size=size).map(
        lambda t: "'" + t.replace("'", "''") + "'"
    )


_NUMBER = st.integers(-300, 300).map(str)
_DECIMAL = st.decimals(-9999, 9999, places=2).map(str)
#: column definitions, each with a strategy of its values as SQL literals (values of other
#: types are what a column keeps after a change: the server converts them)
TYPES: dict[str, st.SearchStrategy[str]] = {
    "INT": _NUMBER,
    "BIGINT": _NUMBER,
    "SMALLINT NOT NULL DEFAULT 0": _NUMBER,
    "INT DEFAULT 4": _NUMBER,
    "INT NOT NULL": _NUMBER,
    "DECIMAL(6,2)": _DECIMAL,
    "DECIMAL(10,2)": _DECIMAL,
    "DOUBLE": _DECIMAL,
    "VARCHAR(4)": _text(4),
    "VARCHAR(20)": _text(8),
    "VARCHAR(20) NOT NULL DEFAULT ''": _text(8),
    "TEXT": _text(8),
    "DATE": st.dates().map(lambda d: f"'{d:%Y-%m-%d}'"),
    "DATETIME": st.datetimes().map(lambda d: f"'{d:%Y-%m-%d %H:%M:%S}'"),
    "ENUM('x','y')": st.sampled_from(["'x'", "'y'"]),
    "ENUM('x','y','z')": st.sampled_from(["'x'", "'y'", "'z'"]),
    "CHAR(3)": _text(3),
    "TINYINT UNSIGNED": _NUMBER,
    "MEDIUMINT DEFAULT 7": _NUMBER,
    "DECIMAL(4,1) UNSIGNED": _DECIMAL,
    "FLOAT": _DECIMAL,
    "VARCHAR(6) CHARACTER SET latin1": _text(6),
    "SET('p','q')": st.sampled_from(["'p'", "'q'", "'p,q'", "''"]),
    "TIME": st.sampled_from(["'10:00:00'", "'-01:30:00'", "'838:59:59'"]),
    "YEAR": st.sampled_from(["1999", "2155", "0", "70"]),
    "TIMESTAMP NULL": st.sampled_from(["'2020-01-01 00:00:00'", "'2038-01-19 03:14:07'", "NULL"]),
    "BIT(3)": st.sampled_from(["b'101'", "0", "7"]),
}
DEFINITIONS = st.sampled_from(sorted(TYPES))
#: generated columns (the server computes their values; a plain column of another shard's of
#: the same name makes the target's plain, where they are written)
GENERATED = st.builds(
    "INT AS (id % {}) {}".format, st.integers(2, 5), st.sampled_from(["VIRTUAL", "PERSISTENT"])
)
#: where ``mvdd replicate`` may be killed (:mod:`mvdd.replicate.faults`)
KILL_POINTS = ["after-ddl", "mid-commit", "after-hold", "after-commit", "mid-refresh"]
ROOT = Path(__file__).resolve().parent.parent
#: the server's refusal of a DEFAULT its column does not take
INVALID_DEFAULT = 1067


def generated(kind: str) -> bool:
    return " AS (" in kind


NAMES = ["a", "b", "c", "d"]


def live(rule: Callable[..., None]) -> Callable[..., None]:
    """A rule on a shard that does nothing where the shard is not there (D, before it is
    created or after it left)."""

    @functools.wraps(rule)
    def on(self: ReplicateMachine, shard: str, **kwargs: Any) -> None:
        if shard in self.columns:
            rule(self, shard=shard, **kwargs)

    return on


class ReplicateMachine(RuleBasedStateMachine):
    servers: Servers

    def __init__(self) -> None:
        super().__init__()
        self.stack = contextlib.ExitStack()
        tmp = self.stack.enter_context(tempfile.TemporaryDirectory())
        self.s: Setup = self.stack.enter_context(setup(self.servers, Path(tmp)))
        #: each shard's columns past its key: name -> definition
        self.columns = {shard: {"a": "INT"} for shard in FIXED}
        #: each shard's indexes: name -> its column (an index goes with its column)
        self.indexes: dict[str, dict[str, str]] = {shard: {} for shard in FIXED}
        self.numbers = itertools.count()
        self.next_id = {shard: 1 + 1_000_000 * i for i, shard in enumerate(SHARDS)}
        for shard in FIXED:
            server, table = SHARDS[shard]
            self.s.run(server, f"CREATE TABLE {table} (id BIGINT NOT NULL PRIMARY KEY, a INT)")
        #: a database on up2 the patterns do not name (tables renamed in from it and out to it)
        self.aside = f"{self.s.db}_aside"
        self.s.run("up2", f"CREATE DATABASE {self.aside}")
        self.stack.callback(self.s.run, "up2", f"DROP DATABASE IF EXISTS {self.aside}")
        self.replicator = self.s.replicator()
        self.replicator.run()
        self.kills = 0
        #: each shard's columns whose DEFAULT was set or dropped apart from their definition
        self.defaulted: dict[str, set[str]] = {shard: set() for shard in FIXED}

    def teardown(self) -> None:
        try:
            for shard in self.columns:  # the definitions' own DEFAULTs back
                table = SHARDS[shard][1]
                for n in sorted(self.defaulted[shard]):
                    self.sql(shard, f"ALTER TABLE {table} MODIFY {n} {self.columns[shard][n]}")
            # the shards made to agree: a column they define apart dropped where it is
            every = list(self.columns.values())
            for shard, mine in self.columns.items():
                server, table = SHARDS[shard]
                apart = [n for n in mine if any(c.get(n) != mine[n] for c in every)]
                if apart:
                    drops = ", ".join(f"DROP COLUMN {n}" for n in apart)
                    self.s.run(server, f"ALTER TABLE {table} {drops}")
            status = self.replicator.run()
            assert not any(v["paused"] for v in status["shards"].values()), status
            assert_replicated(self.s, self.replicator)
        finally:
            self.stack.close()

    def sql(self, shard: str, statement: str) -> None:
        self.s.run(SHARDS[shard][0], LOOSE, statement)

    def written(self, shard: str) -> list[str]:
        """The columns a shard's rows are written to (not the generated ones)."""
        return sorted(n for n, kind in self.columns[shard].items() if not generated(kind))

    # -- rows ---------------------------------------------------------------------------------

    @rule(shard=st.sampled_from(sorted(SHARDS)), data=st.data())
    @live
    def insert(self, shard: str, data: st.DataObject, table: str | None = None) -> None:
        names = self.written(shard)
        rows = []
        for _ in range(data.draw(st.integers(1, 3), label="rows")):
            drawn = [data.draw(TYPES[self.columns[shard][n]], label=n) for n in names]
            rows.append(f"({', '.join([str(self.next_id[shard]), *drawn])})")
            self.next_id[shard] += 1
        listed = ", ".join(["id", *names])
        into = table or SHARDS[shard][1]
        self.sql(shard, f"INSERT INTO {into} ({listed}) VALUES {', '.join(rows)}")

    @rule(shard=st.sampled_from(sorted(SHARDS)), data=st.data(), part=st.integers(0, 2))
    @live
    def update(self, shard: str, data: st.DataObject, part: int) -> None:
        if not self.written(shard):
            return
        name = data.draw(st.sampled_from(self.written(shard)), label="column")
        value = data.draw(TYPES[self.columns[shard][name]], label="value")
        self.sql(shard, f"UPDATE {SHARDS[shard][1]} SET {name} = {value} WHERE id % 3 = {part}")

    @rule(shard=st.sampled_from(sorted(SHARDS)), part=st.integers(0, 6))
    @live
    def delete(self, shard: str, part: int) -> None:
        self.sql(shard, f"DELETE FROM {SHARDS[shard][1]} WHERE id % 7 = {part}")

    @rule(shard=st.sampled_from(sorted(SHARDS)), part=st.integers(0, 4))
    @live
    def negate_keys(self, shard: str, part: int) -> None:
        """Rows' keys changed (negated: each shard's keys stay apart from the others')."""
        self.sql(shard, f"UPDATE {SHARDS[shard][1]} SET id = -id WHERE id % 5 = {part}")

    @rule(data=st.data(), part=st.integers(0, 2))
    def transaction(self, data: st.DataObject, part: int) -> None:
        """One transaction over both shards of ``up1``: a row into A, C's rows updated, A's
        deleted."""
        names = self.written("A")
        drawn = [data.draw(TYPES[self.columns["A"][n]], label=n) for n in names]
        listed = ", ".join(["id", *names])
        row = ", ".join([str(self.next_id["A"]), *drawn])
        self.next_id["A"] += 1
        statements = [f"INSERT INTO orders_01 ({listed}) VALUES ({row})"]
        if self.written("C"):
            name = data.draw(st.sampled_from(self.written("C")), label="column")
            value = data.draw(TYPES[self.columns["C"][name]], label="value")
            statements.append(f"UPDATE orders_03 SET {name} = {value} WHERE id % 3 = {part}")
        statements.append(f"DELETE FROM orders_01 WHERE id % 11 = {part}")
        self.s.run("up1", LOOSE, "BEGIN", *statements, "COMMIT")

    @rule(server=st.sampled_from(["up1", "up2"]))
    def rotate(self, server: str) -> None:
        """The server's binary log rotated (``FLUSH BINARY LOGS``)."""
        self.s.run(server, "FLUSH BINARY LOGS")

    # -- schema -------------------------------------------------------------------------------

    @rule(
        shard=st.sampled_from(sorted(SHARDS)),
        name=st.sampled_from(NAMES),
        kind=DEFINITIONS,
        data=st.data(),
    )
    @live
    def add_column(self, shard: str, name: str, kind: str, data: st.DataObject) -> None:
        """A column added last, first or after another."""
        if name in self.columns[shard]:
            return
        where = data.draw(self.places(shard, name), label="where")
        self.sql(shard, f"ALTER TABLE {SHARDS[shard][1]} ADD COLUMN {name} {kind} {where}")
        self.columns[shard][name] = kind

    def places(self, shard: str, name: str) -> st.SearchStrategy[str]:
        """Where a column may go: last, first, or after another of the shard's."""
        others = [n for n in ["id", *sorted(self.columns[shard])] if n != name]
        return st.sampled_from(["", "FIRST", *(f"AFTER {n}" for n in others)])

    @rule(shard=st.sampled_from(sorted(SHARDS)), data=st.data())
    @live
    def drop_column(self, shard: str, data: st.DataObject) -> None:
        if len(self.columns[shard]) < 2:
            return
        name = data.draw(st.sampled_from(sorted(self.columns[shard])), label="column")
        self.sql(shard, f"ALTER TABLE {SHARDS[shard][1]} DROP COLUMN {name}")
        del self.columns[shard][name]
        self._renamed(shard, name, None)

    @rule(
        shard=st.sampled_from(sorted(SHARDS)),
        data=st.data(),
        kind=DEFINITIONS,
        tool=st.sampled_from([("gho", "del"), ("new", "old")]),
    )
    @live
    def cut_over(self, shard: str, data: st.DataObject, kind: str, tool: tuple[str, str]) -> None:
        """An online schema change tool (gh-ost's ``_t_gho``/``_t_del``, pt-osc's
        ``_t_new``/``_t_old``) adds or drops a column: its ghost table made LIKE the shard,
        altered, filled from it, and swapped in by one RENAME TABLE, the old one dropped."""
        server, table = SHARDS[shard]
        ghost, old = (f"_{table}_{suffix}" for suffix in tool)
        free = [n for n in NAMES if n not in self.columns[shard]]
        drop = len(self.columns[shard]) > 1 and (not free or data.draw(st.booleans(), label="drop"))
        name = data.draw(st.sampled_from(sorted(self.columns[shard]) if drop else free))
        kept = ", ".join(["id", *(n for n in self.written(shard) if not (drop and n == name))])
        self.s.run(
            server,
            LOOSE,
            f"CREATE TABLE {ghost} LIKE {table}",
            f"ALTER TABLE {ghost} " + (f"DROP COLUMN {name}" if drop else f"ADD {name} {kind}"),
            f"INSERT INTO {ghost} ({kept}) SELECT {kept} FROM {table}",
            f"RENAME TABLE {table} TO {old}, {ghost} TO {table}",
            f"DROP TABLE {old}",
        )
        if drop:
            del self.columns[shard][name]
            self._renamed(shard, name, None)
        else:
            self.columns[shard][name] = kind

    @rule(shard=st.sampled_from(sorted(SHARDS)), data=st.data(), kind=DEFINITIONS)
    @live
    def modify_column(self, shard: str, data: st.DataObject, kind: str) -> None:
        if not self.written(shard):
            return
        name = data.draw(st.sampled_from(self.written(shard)), label="column")
        self.sql(shard, f"ALTER TABLE {SHARDS[shard][1]} MODIFY {name} {kind}")
        self.columns[shard][name] = kind
        self.defaulted[shard].discard(name)

    @rule(
        shard=st.sampled_from(sorted(SHARDS)),
        data=st.data(),
        name=st.sampled_from(NAMES),
        kind=st.one_of(st.none(), DEFINITIONS),
    )
    @live
    def rename_column(self, shard: str, data: st.DataObject, name: str, kind: str | None) -> None:
        """``RENAME COLUMN``, or ``CHANGE`` to a definition too."""
        if name in self.columns[shard]:
            return
        old = data.draw(st.sampled_from(sorted(self.columns[shard])), label="column")
        table = SHARDS[shard][1]
        if kind is None:
            self.sql(shard, f"ALTER TABLE {table} RENAME COLUMN {old} TO {name}")
            kind = self.columns[shard][old]
        elif generated(self.columns[shard][old]):
            return  # (MariaDB does not make a generated column a plain one)
        else:
            self.sql(shard, f"ALTER TABLE {table} CHANGE {old} {name} {kind}")
            self.defaulted[shard].discard(old)  # (the definition's own DEFAULT now)
        del self.columns[shard][old]
        self.columns[shard][name] = kind
        self._renamed(shard, old, name)

    @rule(
        shard=st.sampled_from(sorted(SHARDS)),
        data=st.data(),
        name=st.sampled_from(NAMES),
        kind=DEFINITIONS,
    )
    @live
    def add_and_drop(self, shard: str, data: st.DataObject, name: str, kind: str) -> None:
        """One column added and another dropped in one statement."""
        if name in self.columns[shard] or len(self.columns[shard]) < 2:
            return
        old = data.draw(st.sampled_from(sorted(self.columns[shard])), label="column")
        self.sql(
            shard,
            f"ALTER TABLE {SHARDS[shard][1]} ADD COLUMN {name} {kind}, DROP COLUMN {old}",
        )
        del self.columns[shard][old]
        self.columns[shard][name] = kind
        self._renamed(shard, old, None)

    @rule(shard=st.sampled_from(sorted(SHARDS)), name=st.sampled_from(NAMES), kind=GENERATED)
    @live
    def add_generated(self, shard: str, name: str, kind: str) -> None:
        if name in self.columns[shard]:
            return
        self.sql(shard, f"ALTER TABLE {SHARDS[shard][1]} ADD COLUMN {name} {kind}")
        self.columns[shard][name] = kind

    @rule(shard=st.sampled_from(sorted(SHARDS)), data=st.data())
    @live
    def add_index(self, shard: str, data: st.DataObject) -> None:
        """An index over one column (a TEXT one's over a prefix; the server makes one of an
        indexed column changed to TEXT a prefix too)."""
        name = data.draw(st.sampled_from(sorted(self.columns[shard])), label="column")
        if name in self.indexes[shard].values():
            return
        part = f"{name}(4)" if "TEXT" in self.columns[shard][name] else name
        index = f"ix_{next(self.numbers)}"
        self.sql(shard, f"ALTER TABLE {SHARDS[shard][1]} ADD INDEX {index} ({part})")
        self.indexes[shard][index] = name

    @rule(shard=st.sampled_from(sorted(SHARDS)), data=st.data())
    @live
    def modify_two(self, shard: str, data: st.DataObject) -> None:
        """Two columns changed in one statement."""
        names = self.written(shard)
        if len(names) < 2:
            return
        pair = data.draw(st.permutations(names), label="columns")[:2]
        kinds = [data.draw(DEFINITIONS, label=n) for n in pair]
        changes = ", ".join(f"MODIFY {n} {k}" for n, k in zip(pair, kinds, strict=True))
        self.sql(shard, f"ALTER TABLE {SHARDS[shard][1]} {changes}")
        for n, k in zip(pair, kinds, strict=True):
            self.columns[shard][n] = k
            self.defaulted[shard].discard(n)

    @rule(shard=st.sampled_from(sorted(SHARDS)), data=st.data())
    @live
    def move_column(self, shard: str, data: st.DataObject) -> None:
        """A column moved first or after another (its definition as it was)."""
        if not self.written(shard):
            return
        name = data.draw(st.sampled_from(self.written(shard)), label="column")
        where = data.draw(self.places(shard, name).filter(bool), label="where")
        kind = self.columns[shard][name]
        self.sql(shard, f"ALTER TABLE {SHARDS[shard][1]} MODIFY {name} {kind} {where}")
        self.defaulted[shard].discard(name)

    @rule(shard=st.sampled_from(sorted(SHARDS)), data=st.data(), drop=st.booleans())
    @live
    def alter_default(self, shard: str, data: st.DataObject, drop: bool) -> None:
        """``ALTER COLUMN … SET DEFAULT`` a value of its type, or ``DROP DEFAULT``."""
        names = [n for n in self.written(shard) if "TEXT" not in self.columns[shard][n]]
        if not names:
            return
        name = data.draw(st.sampled_from(names), label="column")
        change = "DROP DEFAULT"
        if not drop:
            change = f"SET DEFAULT {data.draw(TYPES[self.columns[shard][name]], label='value')}"
        try:
            self.sql(shard, f"ALTER TABLE {SHARDS[shard][1]} ALTER COLUMN {name} {change}")
        except pymysql.MySQLError as err:
            if err.args[0] != INVALID_DEFAULT:
                raise
            return  # (a value its column does not take as a DEFAULT: NULL of a NOT NULL one)
        self.defaulted[shard].add(name)

    @rule(shard=st.sampled_from(sorted(SHARDS)), data=st.data())
    @live
    def drop_index(self, shard: str, data: st.DataObject) -> None:
        if not self.indexes[shard]:
            return
        index = data.draw(st.sampled_from(sorted(self.indexes[shard])), label="index")
        self.sql(shard, f"ALTER TABLE {SHARDS[shard][1]} DROP INDEX {index}")
        del self.indexes[shard][index]

    def _renamed(self, shard: str, old: str, new: str | None) -> None:
        """A column renamed (``new``) or dropped (None): its indexes follow it, and where it
        had a DEFAULT of its own, its new name has it."""
        if old in self.defaulted[shard]:
            self.defaulted[shard].discard(old)
            if new is not None:
                self.defaulted[shard].add(new)
        for index, column in list(self.indexes[shard].items()):
            if column == old:
                if new is None:
                    del self.indexes[shard][index]
                else:
                    self.indexes[shard][index] = new

    # -- a shard that comes and goes -------------------------------------------------------------

    @precondition(lambda self: "D" not in self.columns)
    @rule(
        data=st.data(),
        how=st.sampled_from(["create", "with rows", "renamed in", "from aside", "like"]),
    )
    def create_shard(self, data: st.DataObject, how: str) -> None:
        """D (``orders_04`` on up2) joins: created as another shard's columns (one changed,
        one more, maybe), empty or filled in the statement's transaction, or made aside with
        rows and renamed into the pattern (from its database or one the patterns do not name,
        whose table the reader learns); or ``LIKE orders_02`` (its keys and DEFAULTs)."""
        if how == "like":
            self.s.run("up2", "CREATE TABLE orders_04 LIKE orders_02")
            self.columns["D"] = dict(self.columns["B"])
            self.indexes["D"] = dict(self.indexes["B"])
            self.defaulted["D"] = set(self.defaulted["B"])
            return
        columns = dict(self.columns[data.draw(st.sampled_from(FIXED), label="as")])
        plain = sorted(n for n, kind in columns.items() if not generated(kind))
        if data.draw(st.booleans(), label="changed") and plain:
            columns[data.draw(st.sampled_from(plain), label="column")] = data.draw(DEFINITIONS)
        free = [n for n in NAMES if n not in columns]
        if data.draw(st.booleans(), label="more") and free:
            columns[data.draw(st.sampled_from(free), label="name")] = data.draw(DEFINITIONS)
        made = {"renamed in": "_orders_04_new", "from aside": f"{self.aside}._orders_04_new"}
        table = made.get(how, "orders_04")
        definitions = [f"{n} {kind}" for n, kind in columns.items()]
        self.s.run(
            "up2",
            LOOSE,
            f"CREATE TABLE {table} (id BIGINT NOT NULL PRIMARY KEY, {', '.join(definitions)})",
        )
        self.columns["D"], self.indexes["D"], self.defaulted["D"] = columns, {}, set()
        if how != "create":
            self.insert(shard="D", data=data, table=table)
        if how in ("renamed in", "from aside"):
            self.s.run("up2", f"RENAME TABLE {table} TO orders_04")

    @rule(shard=st.sampled_from(["D", "E"]), to=st.sampled_from([None, "gone", "aside"]))
    @live
    def drop_shard(self, shard: str, to: str | None) -> None:
        """D or E leaves (dropped, or renamed out of the pattern, maybe to a database the
        patterns do not name), its rows deleted first: the target keeps a departed shard's
        rows (it does not record whose a row is)."""
        table = SHARDS[shard][1]
        gone = {"gone": "gone", "aside": f"{self.aside}.gone"}.get(to or "")
        leave = f"RENAME TABLE {table} TO {gone}" if gone else f"DROP TABLE {table}"
        self.s.run("up2", f"DELETE FROM {table}", leave, f"DROP TABLE IF EXISTS {gone or 'gone'}")
        del self.columns[shard], self.indexes[shard], self.defaulted[shard]

    @precondition(lambda self: "D" in self.columns and "E" not in self.columns)
    @rule()
    def rename_shard(self) -> None:
        """D renamed within the pattern (``orders_05``): the same shard, E here, its name
        free for a new D."""
        self.s.run("up2", "RENAME TABLE orders_04 TO orders_05")
        self.columns["E"] = self.columns.pop("D")
        self.indexes["E"] = self.indexes.pop("D")
        self.defaulted["E"] = self.defaulted.pop("D")
        self.next_id["E"] = self.next_id["D"]
        self.next_id["D"] += 100_000  # (the new D's keys apart from E's)

    # -- the replicator -------------------------------------------------------------------------

    @precondition(lambda self: self.kills < 1)  # (a process of its own: seconds each)
    @rule(point=st.sampled_from(KILL_POINTS), n=st.integers(1, 3))
    def kill(self, point: str, n: int) -> None:
        """``mvdd replicate`` in a process of its own, killed (SIGKILL) the ``n``-th time it
        reaches ``point``, if it does before it ends; then a replicator on its state."""
        self.kills += 1
        env = {k: v for k, v in os.environ.items() if not k.startswith("MVDD_KILL")}
        env["MVDD_KILL_AT"] = f"{point}:{n}"
        proc = subprocess.run(
            [sys.executable, "-m", "mvdd.cli", *self.s.cli_args(), "--until", "end", "--no-live"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert proc.returncode in (0, -signal.SIGKILL), (proc.stdout + proc.stderr)[-8000:]
        self.replicator = self.s.replicator()

    @rule()
    def restart(self) -> None:
        """A new replicator on the same state: what a process started again reads back."""
        self.replicator = self.s.replicator()

    @rule()
    def replicate(self) -> None:
        """A run to the binlogs' end; with no shard paused, the target holds the upstream."""
        status = self.replicator.run()
        if not any(v["paused"] for v in status["shards"].values()):
            assert_replicated(self.s, self.replicator)


@pytest.mark.slow
def test_the_replicator_against_the_upstream_under_random_ddl_and_dml(servers: Servers) -> None:
    ReplicateMachine.servers = servers
    run_state_machine_as_test(
        ReplicateMachine,
        settings=settings(
            max_examples=examples(8, 3),
            stateful_step_count=30,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow],
        ),
    )
