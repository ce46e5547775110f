"""Model-based test of the catalog (hypothesis state machine).

Random DDL, valid and invalid, runs against catalogs in memory, on a SQLite file and (the
second test) in a database on the test MariaDB server, with a plain model (dicts and lists)
beside them that predicts which statements succeed, each table's columns, indexes and version.
After every step the model and the catalogs agree; every old version, re-read, is exactly as it
was first seen; at the end each durable store, reopened from scratch, holds the same history as
the memory catalog.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
import uuid
from pathlib import Path
from typing import ClassVar

import attrs
import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from mvdd import Catalog, MvddError, Table
from tests.conftest import examples
from tests.strategies import TYPES, names, quote
from tests.support.mariadb import MariaDB

#: types a key covers whole only as a UNIQUE key (MariaDB's long unique, kept as a hash; a
#: plain key takes a prefix of 3072 bytes, the whole key's limit; JSON is MariaDB's LONGTEXT)
_HASH_ONLY = ("TEXT", "BLOB", "JSON")


def _keyable(ctype: str, unique: bool) -> bool:
    return not _compressed(ctype) and (unique or not ctype.startswith(_HASH_ONLY))


def _compressed(ctype: str) -> bool:
    """A COMPRESSED column, which no key of MariaDB's covers (its error 4097)."""
    return " COMPRESSED" in ctype


def _key_takes(ctypes: list[str], unique: bool) -> bool:
    """Whether a key over columns of these types is taken: a plain key over a TEXT, BLOB or
    JSON column only alone (its prefix fills the key's limit: a second part is too long), and
    none over a COMPRESSED column."""
    if any(_compressed(t) for t in ctypes):
        return False
    return all(_keyable(t, unique) for t in ctypes) or (not unique and len(ctypes) == 1)


#: MariaDB's plugin types convert to and from the string types only (and not to each other)
_PLUGIN = {"UUID", "INET4", "INET6"}
_STRINGS = {"CHAR", "VARCHAR", "TEXT", "BLOB", "VARBINARY", "ENUM", "SET", "JSON"}


def _castable(old: str, new: str) -> bool:
    a, b = (t.split()[0].split("(")[0] for t in (old, new))
    return a == b or all(x not in _PLUGIN or y in _STRINGS for x, y in ((a, b), (b, a)))


@attrs.define
class MColumn:
    name: str
    ctype: str
    nullable: bool
    default_set: bool = False  # an ALTER ... SET DEFAULT changed it since its definition


@attrs.define
class MIndex:
    name: str
    unique: bool
    columns: list[str]  # (a UNIQUE key over TEXT or BLOB is kept as a hash: no prefix)


@attrs.define
class MTable:
    table_id: int
    columns: list[MColumn]
    indexes: list[MIndex] = attrs.field(factory=list)
    version: int = 1

    def col(self, name: str) -> MColumn | None:
        return next((c for c in self.columns if c.name.casefold() == name.casefold()), None)

    def idx(self, name: str) -> MIndex | None:
        return next((i for i in self.indexes if i.name.casefold() == name.casefold()), None)


TABLE_NAMES = st.sampled_from(["t", "u", "select", "a`b", "名前", "x y"])
column_types = st.sampled_from(TYPES)


class CatalogMachine(RuleBasedStateMachine):
    #: when set, a catalog in a fresh database on this server runs beside the others
    server: ClassVar[MariaDB | None] = None

    def __init__(self) -> None:
        super().__init__()
        self.dir = tempfile.mkdtemp(prefix="mvdd-machine-")
        self.addresses = [str(Path(self.dir) / "catalog.db")]
        self.database: str | None = None
        if self.server is not None:
            self.database = "m_" + uuid.uuid4().hex[:12]
            with contextlib.closing(self.server.connect()) as conn, conn.cursor() as cur:
                cur.execute(f"CREATE DATABASE `{self.database}`")
            self.addresses.append(
                f"mysql://root@localhost/{self.database}?unix_socket={self.server.socket}"
            )
        self.memory = Catalog()
        self.durable = [Catalog.open(a) for a in self.addresses]
        self.sqlite = self.durable[0]
        self.model: dict[str, MTable] = {}
        self.seen: dict[tuple[int, int], str] = {}  # (table id, version) -> rendered schema
        #: (table id, version) -> the value last rendered and found equal to the text: the
        #: same object read again cannot render otherwise (frozen values)
        self.rendered: dict[tuple[int, int], Table] = {}

    # -- running a statement on every catalog ------------------------------------------------------

    def run(self, sql: str, ok: bool) -> None:
        outcomes: list[MvddError | None] = []
        for cat in (self.memory, *self.durable):
            try:
                cat.execute(sql)
                outcomes.append(None)
            except MvddError as err:
                assert err.statement == sql, err
                outcomes.append(err)
        assert len({o is None for o in outcomes}) == 1, (sql, outcomes)
        assert (outcomes[0] is None) == ok, (
            f"{sql}: expected {'success' if ok else 'an error'}, got {outcomes[0]}"
        )

    def pick(self, data: st.DataObject) -> tuple[str, MTable]:
        name = data.draw(st.sampled_from(sorted(self.model)))
        return name, self.model[name]

    def coldef(self, data: st.DataObject, name: str, *, keyable: bool = False) -> MColumn:
        ctype, default = data.draw(
            st.sampled_from([t for t in TYPES if _keyable(t[0], False)] if keyable else TYPES)
        )
        nullable = data.draw(st.booleans())
        return MColumn(
            name, f"{ctype}{'' if nullable else ' NOT NULL DEFAULT ' + default}", nullable
        )

    # -- table rules -------------------------------------------------------------------------------

    @rule(data=st.data(), name=TABLE_NAMES, n=st.integers(1, 4))
    def create_table(self, data: st.DataObject, name: str, n: int) -> None:
        cols: list[MColumn] = []
        for _ in range(n):
            cname = data.draw(names)
            if all(c.name.casefold() != cname.casefold() for c in cols):
                cols.append(self.coldef(data, cname))
        body = ", ".join(f"{quote(c.name)} {c.ctype}" for c in cols)
        ok = name not in self.model
        self.run(f"CREATE TABLE {quote(name)} ({body})", ok)
        if ok:
            self.model[name] = MTable(self.memory.table(name).id, cols)

    @precondition(lambda self: self.model)
    @rule(data=st.data())
    def drop_table(self, data: st.DataObject) -> None:
        name, _ = self.pick(data)
        self.run(f"DROP TABLE {quote(name)}", True)
        del self.model[name]

    @precondition(lambda self: self.model)
    @rule(data=st.data(), to=TABLE_NAMES)
    def rename_table(self, data: st.DataObject, to: str) -> None:
        name, table = self.pick(data)
        ok = to not in self.model
        self.run(f"RENAME TABLE {quote(name)} TO {quote(to)}", ok)
        if ok:
            self.model[to] = self.model.pop(name)
            table.version += 1

    # -- column rules ------------------------------------------------------------------------------

    @precondition(lambda self: self.model)
    @rule(
        data=st.data(),
        cname=names,
        where=st.sampled_from(["end", "first", "after", "after-missing"]),
    )
    def add_column(self, data: st.DataObject, cname: str, where: str) -> None:
        name, table = self.pick(data)
        col = self.coldef(data, cname)
        place, ok, at = "", table.col(cname) is None, len(table.columns)
        if where == "first":
            place, at = " FIRST", 0
        elif where == "after":
            anchor = data.draw(st.sampled_from(table.columns))
            place, at = f" AFTER {quote(anchor.name)}", table.columns.index(anchor) + 1
        elif where == "after-missing":
            place, ok = " AFTER `no such column`", False
        self.run(f"ALTER TABLE {quote(name)} ADD COLUMN {quote(cname)} {col.ctype}{place}", ok)
        if ok:
            table.columns.insert(at, col)
            table.version += 1

    @precondition(lambda self: self.model)
    @rule(data=st.data(), missing=st.booleans())
    def drop_column(self, data: st.DataObject, missing: bool) -> None:
        name, table = self.pick(data)
        col = (
            MColumn("no such column", "", True)
            if missing
            else data.draw(st.sampled_from(table.columns))
        )
        in_unique = any(
            i.unique and len(i.columns) > 1 and col.name in i.columns for i in table.indexes
        )
        ok = not missing and len(table.columns) > 1 and not in_unique
        self.run(f"ALTER TABLE {quote(name)} DROP COLUMN {quote(col.name)}", ok)
        if ok:
            table.columns.remove(col)
            for idx in list(table.indexes):
                if col.name in idx.columns:
                    idx.columns.remove(col.name)
                    if not idx.columns:
                        table.indexes.remove(idx)
            table.version += 1

    @precondition(lambda self: self.model)
    @rule(data=st.data(), first=st.booleans())
    def modify_column(self, data: st.DataObject, first: bool) -> None:
        name, table = self.pick(data)
        col = data.draw(st.sampled_from(table.columns))
        new = self.coldef(data, col.name)
        # (a UNIQUE key over a column that becomes TEXT or BLOB becomes a hash of it)
        types = {c.name: new.ctype if c is col else c.ctype for c in table.columns}
        ok = _castable(col.ctype, new.ctype) and all(
            _key_takes([types[c] for c in i.columns], i.unique)
            for i in table.indexes
            if col.name in i.columns
        )
        place = " FIRST" if first else ""
        self.run(f"ALTER TABLE {quote(name)} MODIFY {quote(col.name)} {new.ctype}{place}", ok)
        if ok:
            at = table.columns.index(col)
            changed = new.ctype != col.ctype or col.default_set or (first and at != 0)
            table.columns[at] = new
            if first:
                table.columns.insert(0, table.columns.pop(at))
            # a statement that restates the same definition in place is no change
            table.version += 1 if changed else 0

    @precondition(lambda self: self.model)
    @rule(data=st.data(), to=names)
    def rename_column(self, data: st.DataObject, to: str) -> None:
        name, table = self.pick(data)
        col = data.draw(st.sampled_from(table.columns))
        clash = table.col(to)
        ok = clash is None or clash is col
        self.run(f"ALTER TABLE {quote(name)} RENAME COLUMN {quote(col.name)} TO {quote(to)}", ok)
        if ok and to != col.name:
            for idx in table.indexes:
                idx.columns = [to if c == col.name else c for c in idx.columns]
            col.name = to
            table.version += 1

    @precondition(lambda self: self.model)
    @rule(data=st.data(), null_default=st.booleans())
    def set_default(self, data: st.DataObject, null_default: bool) -> None:
        name, table = self.pick(data)
        col = data.draw(st.sampled_from(table.columns))
        default = "NULL" if null_default else next(d for t, d in TYPES if col.ctype.startswith(t))
        ok = not (null_default and not col.nullable)
        self.run(
            f"ALTER TABLE {quote(name)} ALTER COLUMN {quote(col.name)} SET DEFAULT {default}", ok
        )
        if ok:
            # the version moves only if the default changed: ask the memory catalog's history
            before, table.version = table.version, self.memory.version(name)
            col.default_set = col.default_set or table.version != before

    # -- index rules -------------------------------------------------------------------------------

    @precondition(lambda self: self.model)
    @rule(data=st.data(), unique=st.booleans(), named=st.booleans(), iname=names)
    def add_index(self, data: st.DataObject, unique: bool, named: bool, iname: str) -> None:
        name, table = self.pick(data)
        cols = data.draw(st.lists(st.sampled_from(table.columns), min_size=1, max_size=2))
        distinct = len({c.name for c in cols}) == len(cols)
        keyable = _key_takes([c.ctype for c in cols], unique)
        if named:
            final = iname
            ok = distinct and keyable and table.idx(iname) is None and iname.casefold() != "primary"
        else:
            final, n = cols[0].name, 2
            while table.idx(final) is not None or final.casefold() == "primary":
                final, n = f"{cols[0].name}_{n}", n + 1
            ok = distinct and keyable
        kind = "UNIQUE INDEX" if unique else "INDEX"
        label = f" {quote(iname)}" if named else ""
        parts = ", ".join(quote(c.name) for c in cols)
        self.run(f"ALTER TABLE {quote(name)} ADD {kind}{label} ({parts})", ok)
        if ok:
            table.indexes.append(MIndex(final, unique, [c.name for c in cols]))
            table.version += 1

    @precondition(lambda self: any(t.indexes for t in self.model.values()))
    @rule(data=st.data())
    def drop_index(self, data: st.DataObject) -> None:
        name = data.draw(st.sampled_from(sorted(n for n, t in self.model.items() if t.indexes)))
        table = self.model[name]
        idx = data.draw(st.sampled_from(table.indexes))
        self.run(f"ALTER TABLE {quote(name)} DROP INDEX {quote(idx.name)}", True)
        table.indexes.remove(idx)
        table.version += 1

    # -- bad input ---------------------------------------------------------------------------------

    @rule(
        data=st.data(),
        text=st.sampled_from(
            [
                "ALTER TABLE",
                "ALTER TABLE `nope` ADD x INT",
                "CREATE TABLE (",
                "DROP TABLE `nope`",
                "ALTER TABLE t ADD COLUMN x INT NOT NULL",
                "ALTER TABLE t DROP COLUMN `no such column`",
                "RENAME TABLE `nope` TO `nope2`",
                "ALTER TABLE t ADD INDEX (`no such column`)",
            ]
        ),
    )
    def bad_statement(self, data: st.DataObject, text: str) -> None:
        self.run(text, False)

    # -- what must always hold ---------------------------------------------------------------------

    @invariant()
    def agree(self) -> None:
        assert self.memory.tables() == sorted(self.model)
        for cat in self.durable:
            assert cat.tables() == sorted(self.model)
        for name, model in self.model.items():
            mem = self.memory.table(name)
            for cat in self.durable:
                assert cat.table(name) == mem
            assert mem.id == model.table_id and mem.version == model.version
            assert [c.name for c in mem.columns] == [c.name for c in model.columns]
            assert [c.nullable for c in mem.columns] == [c.nullable for c in model.columns]
            assert sorted(
                (i.name, i.kind.value == "UNIQUE", mem.index_column_names(i)) for i in mem.indexes
            ) == sorted((i.name, i.unique, tuple(i.columns)) for i in model.indexes)
            if (mem.id, mem.version) not in self.seen:
                self.seen[(mem.id, mem.version)] = mem.to_sql()

    @invariant()
    def old_versions_are_unchanged(self) -> None:
        by_id = {t.table_id: name for name, t in self.model.items()}
        for (table_id, version), text in list(self.seen.items())[-40:]:
            name = by_id.get(table_id)
            if name is not None:
                # the text written when the version was new (rendering is the dear part: the
                # durable catalogs' versions, objects of their own, are compared by value)
                mem = self.memory.table(name, version=version)
                if self.rendered.get((table_id, version)) is not mem:
                    assert mem.to_sql() == text
                    self.rendered[(table_id, version)] = mem
                for cat in self.durable:
                    assert cat.table(name, version=version) == mem

    def teardown(self) -> None:
        try:
            for address in self.addresses:
                with Catalog.open(address) as again:
                    assert again.tables() == self.memory.tables()
                    for name in again.tables():
                        assert [c.statement for c in again.history(name)] == [
                            c.statement for c in self.memory.history(name)
                        ]
                        for v in range(1, again.version(name) + 1):
                            assert again.table(name, version=v) == self.memory.table(
                                name, version=v
                            )
        finally:
            for cat in self.durable:
                cat.close()
            shutil.rmtree(self.dir, ignore_errors=True)
            if self.server is not None and self.database is not None:
                with contextlib.closing(self.server.connect()) as conn, conn.cursor() as cur:
                    cur.execute(f"DROP DATABASE IF EXISTS `{self.database}`")


TestCatalogMachine = pytest.mark.slow(CatalogMachine.TestCase)


class OnServer(CatalogMachine):
    pass


@pytest.mark.slow
@pytest.mark.mariadb
def test_catalog_machine_on_mariadb(mariadb: MariaDB) -> None:
    """The same machine with a catalog on the MySQL store beside memory and SQLite."""
    OnServer.server = mariadb
    try:
        run_state_machine_as_test(
            OnServer,
            settings=settings(max_examples=examples(40, 30), deadline=None),
        )
    finally:
        OnServer.server = None
