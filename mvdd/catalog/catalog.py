"""The versioned catalog: every table's schema at every version (seed 004).

``cat.execute(sql)`` parses statements into steps, applies each statement to the current
schema (pure functions of the ddl layer), and commits the result as one atomic store commit: each
table the statement touched gains exactly one version (a no-op statement adds none). Element
definitions are stored once with version ranges; any version is rebuilt from them and cached.

Readers never lock: the published state (names -> table ids, and each table's append-only
history) is swapped in by assignment; writers serialise among themselves on a lock, and across
processes through the store's compare-and-set.

Positions
---------
A statement may carry an external position (binlog file and offset, GTID sequence, commit
timestamp): ints, or tuples compared element-wise. Within a table positions must increase.
**Boundary rule**: a DDL recorded at position ``q`` governs events at positions strictly after
``q``; ``cat.table(name, position=p)`` is the newest version whose position is strictly before
``p``. A version recorded without a position takes the position of the version before it (one
that precedes every recorded position counts as "since the beginning").

Re-executing a statement at a position already recorded for its table, with the same text, is a
no-op (a replication worker replaying its binlog after a restart), as is one with no version at
its position that changes nothing in the tables as they stood there (a no-op adds no version);
any other statement at or before a table's newest position raises
:class:`~mvdd.errors.PositionError`.

Online schema change tools
--------------------------
A ``RENAME TABLE t TO _t_del, _t_gho TO t`` (gh-ost; ``_t_old``/``_t_new`` for pt-osc) is
recognised as a cut-over: ``t`` keeps its id and gains one version with the ghost's schema and,
as its steps, the steps the ghost went through; the ghost's id takes the old schema under the
old-table name. A helper created by ``CREATE TABLE`` (not ``LIKE``) adopts ``t``'s element ids by
name, so ids stay stable across the swap.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from functools import singledispatch
from typing import Any, NoReturn, Protocol, Self

import attrs

from mvdd.catalog.history import Change, TableHistory, diff_rows
from mvdd.catalog.plan import Planned, plan_statement
from mvdd.ddl import step as s
from mvdd.ddl.apply import validate_table
from mvdd.ddl.name import Context, split_name
from mvdd.ddl.rules import FLAVORS, PLAIN, Rules, Session
from mvdd.ddl.sequence import check_calls
from mvdd.ddl.sqlmode import SqlMode
from mvdd.ddl.statement import (
    Statement,
    iter_statements,
    statement_context,
)
from mvdd.ddl.step import DatabaseAction
from mvdd.errors import (
    CatalogError,
    ConcurrentChangeError,
    DDLError,
    MvddError,
    NoSuchTableError,
    NoSuchVersionError,
    PositionError,
)
from mvdd.model import BinlogPosition, Table
from mvdd.model.types import CHARSET_DEFAULT, resolve_charset
from mvdd.model.zone import session_zone
from mvdd.store.base import (
    Changes,
    Commit,
    ElementRow,
    Guard,
    JobUpdate,
    Store,
    VersionRow,
    made,
)
from mvdd.store.codec import decode_position, encode_position
from mvdd.store.memory import MemoryStore

log = logging.getLogger("mvdd.catalog")

#: how often ``execute`` rebuilds a statement on fresh state after another process won a race
RETRIES = 5
#: the store state key of the databases' default charsets
_DATABASES = "catalog.databases"
UNSUPPORTED = ("raise", "skip")


class DDLGate(Protocol):
    """Something every statement passes through (a metadata-lock baseline, a test probe)."""

    def ddl(self, tables: tuple[str, ...]) -> AbstractContextManager[None]: ...


@attrs.frozen
class _State:
    """A published catalog state: live names, and every table id's history."""

    names: dict[str, int]
    histories: dict[int, TableHistory]
    ever: dict[str, tuple[int, ...]]  # every table id that ever had a name


@singledispatch
def begin_transaction(catalog: Any, *, isolation: str) -> Any:
    """A transaction on ``catalog``: declared here, implemented by the layer above that runs
    transactions (:mod:`mvdd.txn` registers it for :class:`Catalog`; importing mvdd imports it),
    so the catalog does not depend on that layer."""
    raise CatalogError(f"no transactions are registered for {type(catalog).__name__}")


def check_position(position: Any) -> Any:
    """``position`` if it is a valid position: an int, a non-empty tuple of ints and strings, or
    a :class:`~mvdd.model.BinlogPosition`."""
    if position is None or (isinstance(position, int) and not isinstance(position, bool)):
        return position
    if isinstance(position, BinlogPosition):
        return position
    if (
        isinstance(position, tuple)
        and position
        and all(isinstance(p, int | str) and not isinstance(p, bool) for p in position)
    ):
        return position
    raise PositionError(
        f"a position is an int, a tuple of ints and strings or a BinlogPosition, not {position!r}"
    )


class Catalog:
    """A versioned catalog of table schemas.

    Args:
        store: where versions live (default: in memory).
        on_unsupported: ``"raise"`` (default) or ``"skip"``: what to do with statements mvdd does
            not model (``GRANT``, views, DML ...). Replication workers skip; a skipped statement
            is logged on the ``mvdd.catalog`` logger (at INFO; at WARNING one that may run DDL
            the catalog does not see, ``CALL``, ``EXECUTE``, ``BEGIN NOT ATOMIC``, and a ``SET``
            that leaves the statements after it in the session before it) and adds no version.
        database: the one database whose tables this catalog tracks, named without qualifier;
            statements naming tables of another database are unsupported. When None, a
            qualified name is kept as ``database.table``, and :meth:`execute`'s ``database``
            qualifies unqualified ones (a catalog of a whole server, as a binlog reader keeps).
        replica: the catalog follows a server that already ran every statement (a replication
            worker reading a binlog): the server's own rules apply, not mvdd's stricter ones
            (:data:`mvdd.ddl.rules.STRICTER`: adding a NOT NULL column without a default to a
            table that may hold rows, a ``DATETIME(3) DEFAULT CURRENT_TIMESTAMP``, a JSON
            column's DEFAULT that is not JSON … are taken as the server took them).
        flavor: a replica's server, ``"mariadb"`` or ``"mysql"``, when known (a binlog reader
            sets it): where the two take a statement alike but do different things, the
            server's way is followed (:data:`mvdd.ddl.rules.MARIADB`); unknown, MySQL's.
        charset, collation: the default charset and collation of databases the catalog has no
            ``CREATE`` / ``ALTER DATABASE`` of (the server's default); a table created without
            its own takes its database's. Neither given and no record: the table's charset
            stays open (it follows an unknown database default).

    >>> cat = Catalog()
    >>> [c.version for c in cat.execute("CREATE TABLE t (a INT); ALTER TABLE t ADD b INT")]
    [1, 2]
    >>> cat.table("t").column_names, cat.table("t", version=1).column_names
    (('a', 'b'), ('a',))
    """

    def __init__(
        self,
        store: Store | None = None,
        *,
        on_unsupported: str = "raise",
        database: str | None = None,
        replica: bool = False,
        flavor: str | None = None,
        charset: str | None = None,
        collation: str | None = None,
    ) -> None:
        if on_unsupported not in UNSUPPORTED:
            raise CatalogError(
                f"on_unsupported must be one of {UNSUPPORTED}, not {on_unsupported!r}"
            )
        if flavor not in FLAVORS:
            raise CatalogError(f"flavor must be one of {FLAVORS}, not {flavor!r}")
        try:
            resolved = resolve_charset(charset, collation)
        except DDLError as err:
            raise CatalogError(err.message) from None
        self.default_charset: tuple[str, str] | None = (
            (resolved[0], resolved[1])
            if resolved[0] is not None and resolved[1] is not None
            else None
        )
        self._store = store if store is not None else MemoryStore()
        self.on_unsupported = on_unsupported
        self.database = database
        self.replica = replica
        self.flavor = flavor
        #: the server keeps table and database names in lower case (its
        #: ``lower_case_table_names``; a binlog reader sets it): a statement's names are
        #: folded to it, as the server folds them
        self.lower_names = False
        self._write_lock = threading.RLock()
        self._listeners: list[Callable[[list[Change]], None]] = []
        self._gate: DDLGate | None = None
        #: the arguments of the last text's statement context, and the context
        self._context: tuple[tuple[Any, ...], Context] | None = None
        self._state = _State({}, {}, {})
        # name -> the head Table of each live table whose head is built: the latest read is
        # one dict lookup. Written under the writer lock only (see table()).
        self._heads: dict[str, Table] = {}
        self._seq = 0
        self._closed = False
        #: compatibility verdicts judged on this catalog's versions (mvdd.compat)
        self.verdicts: dict[Any, Any] = {}
        #: the live transactions of this catalog, kept by the txn layer that runs them
        self.sessions: Any = None
        self.refresh()

    @classmethod
    def open(cls, target: str, **options: Any) -> Catalog:
        """A catalog on a durable store: a SQLite file path (created if missing), or a MySQL /
        MariaDB database, ``mysql://user:password@host:port/database`` (also ``mariadb://``
        and ``…?unix_socket=/path``; see :mod:`mvdd.store.mysql`).

        Store options go to the store (``synchronous``, ``timeout``: SQLite; ``create``: both),
        the rest to the catalog. ``create=False`` opens an existing catalog only (StoreError
        for a missing file or database, nothing made), as a reader wants. Either way a SQLite
        database holding tables of something else is refused and left untouched.
        """
        store_keys = {"synchronous", "timeout", "create"}
        store_options = {k: v for k, v in options.items() if k in store_keys}
        catalog_options = {k: v for k, v in options.items() if k not in store_keys}
        if not isinstance(target, str):
            target = str(target)
        if "://" in target:
            scheme = target.split("://")[0]
            if scheme not in ("mysql", "mariadb"):
                raise CatalogError(f"unsupported catalog address {scheme!r}://")
            create = store_options.pop("create", True)
            if store_options:
                raise CatalogError(f"{sorted(store_options)}: options of the SQLite store")
            try:
                from mvdd.store.mysql import MySQLStore
            except ImportError as err:  # pragma: no cover - the mysql extra
                raise CatalogError(
                    f"a {scheme}:// catalog needs PyMySQL: pip install 'mvdd[mysql]' ({err})"
                ) from None
            return cls(MySQLStore(target, create=create), **catalog_options)
        from mvdd.store.sqlite import SQLiteStore

        return cls(SQLiteStore(target, **store_options), **catalog_options)

    @property
    def store(self) -> Store:
        return self._store

    @property
    def seq(self) -> int:
        """The catalog-wide schema version: the store's sequence number of the newest commit
        this catalog has taken in (see :meth:`refresh`)."""
        return self._seq

    def close(self) -> None:
        """Close the store. The catalog cannot be used afterwards."""
        if not self._closed:
            self._closed = True
            self._store.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<Catalog {self._store.description} tables={len(self._state.names)}>"

    # -- transactions and observers --------------------------------------------------------------

    def begin(self, *, isolation: str = "repeatable_read") -> Any:
        """Start a transaction whose data-dictionary read view binds each table's version at
        its first access (see :mod:`mvdd.txn`). Picks up other processes' versions first,
        without waiting for a statement this catalog is running (see :meth:`refresh`)."""
        self.refresh(wait=False)
        return begin_transaction(self, isolation=isolation)

    def add_listener(self, listener: Callable[[list[Change]], None]) -> None:
        """Call ``listener(changes)`` after every batch of versions this catalog learns of
        (its own commits and those a refresh picks up), under the writer lock. The versions
        are committed and published by then: a listener that raises is logged (logger
        ``mvdd.catalog``, with its traceback), the others are still called, and the statement
        or the refresh does not fail for it."""
        self._listeners.append(listener)

    def remove_listener(self, listener: Callable[[list[Change]], None]) -> None:
        self._listeners.remove(listener)

    def set_gate(self, gate: DDLGate | None) -> None:
        """Route every statement through ``gate.ddl(table_names)`` (a context manager), for
        metadata-lock baselines. None removes it."""
        self._gate = gate

    def _notify(self, changes: list[Change]) -> None:
        for listener in list(self._listeners):
            try:
                listener(changes)
            except Exception:
                log.exception(
                    "a listener of versions %s failed (the versions are committed)",
                    ", ".join(f"{c.table} {c.version}" for c in changes),
                )

    # -- reading ------------------------------------------------------------------------------

    def _history(self, name: str) -> TableHistory:
        state = self._state
        tid = state.names.get(name)
        if tid is None:
            raise NoSuchTableError("no such table", table=name)
        return state.histories[tid]

    def table_by_id(self, table_id: int, *, version: int | None = None) -> Table:
        """A table's schema by its stable id, now or at a version (dropped tables included,
        at the versions before their drop)."""
        history = self._state.histories.get(table_id)
        if history is None:
            raise NoSuchTableError(f"no table with id {table_id}")
        return history.table_at(history.head if version is None else version)

    def history_by_id(self, table_id: int) -> list[Change]:
        """Every version of the table with this id (a dropped table's too)."""
        history = self._state.histories.get(table_id)
        if history is None:
            raise NoSuchTableError(f"no table with id {table_id}")
        return history.changes()

    def change_by_id(self, table_id: int, version: int) -> Change:
        """One version's change record, by the table's stable id."""
        history = self._state.histories.get(table_id)
        if history is None:
            raise NoSuchTableError(f"no table with id {table_id}")
        return history.change(version)

    def version_by_id(self, table_id: int) -> int:
        """The newest version of the table with this id (its drop, if it was dropped)."""
        history = self._state.histories.get(table_id)
        if history is None:
            raise NoSuchTableError(f"no table with id {table_id}")
        return history.head

    def table_id(self, name: str) -> int:
        """The id of the table now named ``name``."""
        return self._history(name).table_id

    def tables(self) -> list[str]:
        """Names of the tables that exist now, sorted."""
        return sorted(self._state.names)

    def version(self, name: str) -> int:
        """The current version of a table (1 after CREATE)."""
        return self._history(name).head

    def history(self, name: str) -> list[Change]:
        """Every version of the table now named ``name``, oldest first."""
        return self._history(name).changes()

    def table(self, name: str, *, version: int | None = None, position: Any = None) -> Table:
        """A table's schema: now, at a version, or as of a position (see the module docstring).

        Raises NoSuchTableError, NoSuchVersionError.
        """
        if version is None and position is None:
            head = self._heads.get(name)  # the hot path: one dict lookup
            if head is not None:
                return head
        if version is not None and position is not None:
            raise CatalogError("give a version or a position, not both", table=name)
        if position is not None:
            return self._table_at_position(name, check_position(position))
        history = self._history(name)
        if version is None:
            return self._head_of(name, history)
        if isinstance(version, bool) or not isinstance(version, int):
            raise NoSuchVersionError(f"a version is an int, not {version!r}", table=name)
        return history.table_at(version)

    def _head_of(self, name: str, history: TableHistory) -> Table:
        """The head table, built; remembered for the hot path when no writer is busy (and the
        name still means this head: a writer may have published a newer one meanwhile)."""
        head = history.head
        table = history.table_at(head)
        if self._write_lock.acquire(blocking=False):
            try:
                if self._state.names.get(name) == history.table_id and history.head == head:
                    self._heads[name] = table
            finally:
                self._write_lock.release()
        return table

    def _table_at_position(self, name: str, position: Any) -> Table:
        found = self._bearer_at(name, position)
        if found is None:
            raise NoSuchVersionError(f"no version before position {position!r}", table=name)
        return found[0].table_at(found[1])

    def _bearer_at(self, name: str, position: Any) -> tuple[TableHistory, int] | None:
        """The table that bore ``name`` at ``position`` and its version there (None: none
        did)."""
        state = self._state
        best: tuple[Any, TableHistory, int] | None = None
        for tid in state.ever.get(name, ()):
            history = state.histories[tid]
            try:
                version = history.version_before(position)
            except TypeError:
                raise PositionError(
                    f"position {position!r} does not compare with the recorded ones", table=name
                ) from None
            if version < 1:
                continue
            row = history.row(version)
            if row.name != name or row.dropped:
                continue
            at = row.position if row.position is not None else history.head_position
            if best is None or (at is not None and best[0] is not None and at > best[0]):
                best = (at, history, version)
        return None if best is None else best[1:]

    def changes_at(self, position: Any) -> list[Change]:
        """The versions recorded at exactly this position (a statement a log replays finds
        its own effect here), ordered as they were committed. O(tables)."""
        position = check_position(position)
        out: list[Change] = []
        for history in self._state.histories.values():
            try:
                versions = history.versions_at(position)
            except TypeError:
                continue
            out.extend(history.change(v) for v in versions)
        return sorted(out, key=lambda c: (c.seq, c.table_id))

    def last_position(self) -> Any:
        """The newest position any version (of any table, dropped ones included) or database
        record holds; None when none holds one. O(tables)."""
        found = [h.head_position for h in self._state.histories.values()]
        found += [
            decode_position(r["position"])
            for r in self._database_records().values()
            if r.get("position")
        ]
        found = [p for p in found if p is not None]
        try:
            return max(found) if found else None
        except TypeError:
            raise PositionError("the catalog holds positions of different kinds") from None

    def storage(self, name: str) -> int:
        """How many element rows the table's history holds (grows with changes, not with
        changes × columns)."""
        return self._history(name).storage()

    # -- picking up other writers ----------------------------------------------------------------

    def refresh(self, *, wait: bool = True) -> None:
        """Pick up versions other processes committed (one small query when there are none).

        ``wait=False`` (what :meth:`begin` and a transaction's commit do): when another thread
        of this catalog holds the writer lock, do not wait for it: the caller reads the state
        published so far and is ordered before the versions not yet published (that thread
        publishes the versions it commits, and takes in the others' versions it finds; the
        transactions those versions break are told when they land, and the next refresh picks
        up the rest). DML never waits for DDL.
        """
        self._check_open()
        if self._store.last_seq() == self._seq:
            return  # nothing new: readers never take the writer lock for this
        if not self._write_lock.acquire(blocking=wait):
            return
        try:
            if self._store.last_seq() == self._seq:
                return
            changes = self._store.changes(self._seq)
            self._integrate(changes)
            if self._listeners and changes.versions:
                histories = self._state.histories
                self._notify([histories[v.table_id].change(v.version) for v in changes.versions])
        finally:
            self._write_lock.release()

    def _integrate(self, changes: Changes, local: dict[int, Table] | None = None) -> None:
        state = self._state
        histories = state.histories
        names, ever = state.names, state.ever
        copied = False
        left: list[str] = []  # names a table left (renamed from, dropped)
        opened: dict[tuple[int, int], list[ElementRow]] = {}
        for rec in changes.opened:
            opened.setdefault((rec.table_id, rec.since), []).append(rec)
        closed: dict[tuple[int, int], list[tuple[str, int, int]]] = {}
        for key, until in changes.closed:
            closed.setdefault((key[0], until), []).append(key[1:])
        for row in changes.versions:
            history = histories.get(row.table_id)
            if history is None:
                history = histories[row.table_id] = TableHistory(row.table_id)
            previous = history.name if history.head else None
            history.append(
                row,
                opened.get((row.table_id, row.version), ()),
                closed.get((row.table_id, row.version), ()),
                local.get(row.table_id) if local and not row.dropped else None,
            )
            if row.dropped or previous != row.name:
                if not copied:  # published maps are never changed in place: readers hold them
                    names, ever, copied = dict(names), dict(ever), True
                if previous is not None:
                    left.append(previous)
                    if names.get(previous) == row.table_id:
                        del names[previous]
                if not row.dropped:
                    names[row.name] = row.table_id
                    if row.table_id not in ever.get(row.name, ()):
                        ever[row.name] = (*ever.get(row.name, ()), row.table_id)
        self._state = _State(names, histories, ever) if copied else state
        self._seq = changes.last_seq
        heads = self._heads
        for name in left:  # forget the heads of names that no longer mean their table
            head = heads.get(name)
            if head is not None and names.get(name) != head.id:
                del heads[name]
        for tid in {row.table_id for row in changes.versions}:
            history = histories[tid]
            if history.dropped:
                continue
            name, table = history.name, history.head_table
            if table is not None:
                heads[name] = table
            elif name in heads and heads[name].id == tid:
                del heads[name]  # an older head; the next read builds the new one

    # -- writing ------------------------------------------------------------------------------

    def execute(
        self,
        sql: str | bytes,
        *,
        position: Any = None,
        database: str | None = None,
        charset: str | None = None,
        sql_mode: SqlMode | str | int | None = None,
        time_zone: str | None = None,
        explicit_defaults_for_timestamp: bool = True,
        server_collation: str | None = None,
        connection_charset: str | None = None,
    ) -> list[Change]:
        """Run one or more DDL statements; returns one Change per table version added.

        Statements run in turn and each is atomic: on any error this raises an MvddError
        subclass naming the statement and place, the statements before it stay committed, and
        the catalog is exactly as before the failing one. (The text is tokenized whole first, so
        an unterminated string or comment anywhere commits nothing.) A text is read as the
        server and the ``mariadb`` client read a script: a stored program's body is one
        statement with its semicolons, and a ``DELIMITER`` command sets what ends the statements
        after it (:func:`mvdd.ddl.statement.client_delimited`).

        ``database``: the default database of the statements (as ``USE database`` sets it): an
        unqualified table name is ``database.table``; a qualified one resolves as written. A
        catalog tracking one database (``Catalog(database=…)``) takes only that one. A ``USE``
        statement in the text makes its database the default of the statements after it (a
        dump of several databases switches so), the catalog's tracked database or another. A
        ``SET`` of a session variable in the text (``sql_mode``, ``time_zone``,
        ``explicit_defaults_for_timestamp``, ``collation_server`` …, saved in user variables
        and put back, as dumps do) makes the session of the statements after it, as on the
        server; the arguments below are the session's at the text's start
        (:mod:`mvdd.ddl.setting`).

        ``CREATE`` / ``ALTER`` / ``DROP DATABASE`` add no table version: they record the
        database's default charset and collation (which tables created there without their own
        take); a dropped database's tables are dropped with it. A ``CREATE DATABASE IF NOT
        EXISTS`` of a database known to exist (recorded, tracked, or holding tables) records
        nothing; a collation named without its charset (``COLLATE uca1400_ai_ci``) takes the
        database's charset (ALTER) or the server's (CREATE: ``server_collation``'s, else the
        catalog's ``charset``).

        ``sql`` may be a script's bytes, as its client sends them (a file, a dump): each
        statement is read from its bytes in the client charset of its moment, ``charset`` at
        the start and then as a ``SET NAMES`` or ``character_set_client`` in it says (one of
        the charsets that split a text alike, ASCII's bytes their own:
        :data:`~mvdd.model.encoding.ASCII_BASED`; a dump made with
        ``--default-character-set=latin1`` writes its rows in latin1 and its tables in
        utf8mb4). A byte its charset does not read is a DDLParseError in a statement that may
        be DDL, and passed over in any other (rows, which the catalog does not read).

        ``charset``: the charset the statements were written in, when their client's was not
        UTF-8 (a binlog's statement from a ``latin1`` or ``gbk`` session, read in that charset):
        a string literal under a charset introducer is its bytes in that charset, as the server
        took them (``_latin1'é'`` is 'é' from a ``latin1`` client, 'Ã©' from a UTF-8 one), and
        so is a plain string literal in a binary column's DEFAULT. The text itself is text: its
        names, comments and other literals are read as written, but that a ``utf8mb3`` client's
        character beyond the BMP is a ``?`` for each of its bytes, as the server reads it.

        ``sql_mode``: the session's sql_mode the statements were written under, as
        ``@@sql_mode`` spells it or as a binlog logs it (its bits, read as the catalog's
        flavor's): ``"…"`` is a name under ANSI_QUOTES, a backslash itself under
        NO_BACKSLASH_ESCAPES, ``||`` a concatenation under PIPES_AS_CONCAT, ``REAL`` a FLOAT
        under REAL_AS_FLOAT, NOT as tight as ``!`` under HIGH_NOT_PRECEDENCE, ``''`` where a
        value stands NULL under EMPTY_STRING_IS_NULL; a statement under a mode mvdd does not
        model (MariaDB's ORACLE, MAXDB) is an UnsupportedDDLError; a
        mode without STRICT_TRANS_TABLES or STRICT_ALL_TABLES makes a VARCHAR or VARBINARY too
        long the TEXT or BLOB holding it, as the server does (:mod:`mvdd.ddl.sqlmode`). None:
        the default mode's grammar, strict.

        ``time_zone``: the session's ``time_zone`` the statements were written in, an offset
        (``+08:00``) or a zone's name (``Europe/Berlin``): a TIMESTAMP's literal DEFAULT is
        read in it and kept as UTC text, as every session mvdd opens reads it
        (:mod:`mvdd.model.zone`). None: UTC.

        ``explicit_defaults_for_timestamp``: the session's. False (MySQL 5.7's default, and
        MariaDB's before 10.10): a TIMESTAMP a statement defines is NOT NULL unless it says
        NULL, its DEFAULT without one the zero timestamp, and the table's first TIMESTAMP
        column, defined so with no ON UPDATE, CURRENT_TIMESTAMP's for both, as the server
        makes them.

        ``server_collation``: the session's ``collation_server`` (a binlog logs it beside each
        statement): what a ``CREATE DATABASE`` that names no charset takes, as on the server.
        None: the catalog's :attr:`default_charset` stands for it.

        ``connection_charset``: the session's ``character_set_connection``, where it is not
        its client's ``charset`` (a binlog logs both): a string literal is text of it, as the
        server converts the client's, so a binary column's string DEFAULT is its bytes in it,
        a ``CAST(… AS CHAR)`` takes it, and a character it lacks is a ``?`` (in a DEFAULT, an
        ENUM member, an expression; not in a comment). None: the client's.
        """
        self._check_open()
        if position is not None:
            position = check_position(position)
        if database is not None and self.database is not None and database != self.database:
            raise CatalogError(f"this catalog tracks database {self.database!r}, not {database!r}")
        default = database if self.database is None else None
        zone = session_zone(time_zone) if time_zone is not None else None
        mode = SqlMode.of(sql_mode, self.flavor) if sql_mode is not None else None
        reading = (
            self.database,
            default,
            self.replica,
            self.flavor,
            charset,
            mode,
            zone,
            self.lower_names,
            explicit_defaults_for_timestamp,
            connection_charset,
        )
        held = self._context  # the statement context of the last text, if read the same way
        if held is None or held[0] != reading:
            context = statement_context(
                database=self.database,
                default=default,
                charsets=self.database_default,
                replica=self.replica,
                flavor=self.flavor,
                charset=charset,
                sql_mode=mode,
                time_zone=zone,
                lower_names=self.lower_names,
                explicit_defaults_for_timestamp=explicit_defaults_for_timestamp,
                connection_charset=connection_charset,
            )
            held = self._context = (reading, context)
        session = held[1].session  # (the steps' session: its zone, sql_mode and charset)
        statements = iter_statements(
            sql,
            skip_unsupported=self.on_unsupported == "skip",
            flavor=self.flavor,
            charset=charset,
            sql_mode=mode,
            server_collation=server_collation,
            context=held[1],
        )
        out: list[Change] = []
        for st in statements:
            if st.skipped is not None:
                level = logging.WARNING if st.hazard else logging.INFO
                log.log(level, "skipped statement %d (%s): %.80s", st.index, st.skipped, st.text)
                continue
            if st.use is not None:  # (USE: the default database of the statements after it)
                default = st.use
                continue
            now, collation = session, server_collation
            if st.settings is not None:  # (a SET before it, or its own SET STATEMENT)
                now, collation = st.settings.session, st.settings.collation_server
            gate = self._gate
            if gate is None:
                out.extend(self._execute_locked(st, position, default, now, collation))
                continue
            # a gate (metadata locks) is waited for before the writer lock, never while holding it
            with gate.ddl(st.tables):
                out.extend(self._execute_locked(st, position, default, now, collation))
        return out

    def _execute_locked(
        self,
        st: Statement,
        position: Any,
        default: str | None,
        session: Session = PLAIN,
        server_collation: str | None = None,
    ) -> list[Change]:
        with self._write_lock:
            if st.database is not None:
                return self._execute_database(st, position, default, server_collation)
            return self._execute_with_retry(st, position, session)

    # -- databases ------------------------------------------------------------------------------

    def database_default(self, name: str | None) -> tuple[str, str] | None:
        """The default (charset, collation) of a database: its recorded ``CREATE`` / ``ALTER
        DATABASE``, else the catalog's ``charset``/``collation``; None when neither is known."""
        record = self._database_records().get(name) if name is not None else None
        if record is not None and record.get("charset") is not None:
            return record["charset"], record["collation"]
        return self.default_charset

    def databases(self) -> list[str]:
        """The databases the catalog has a ``CREATE`` / ``ALTER DATABASE`` of, sorted."""
        return sorted(self._database_records())

    def _database_records(self) -> dict[str, Any]:
        return dict(self._store.get_state(_DATABASES) or {})

    def _execute_database(
        self,
        st: Statement,
        position: Any,
        default: str | None,
        server_collation: str | None = None,
    ) -> list[Change]:
        change = st.database
        assert change is not None
        name = change.database or default or self.database
        try:
            if name is None:
                raise CatalogError("ALTER DATABASE names no database and there is no default")
            records = self._database_records()
            record = records.get(name)
            if position is not None and record is not None and record.get("position"):
                try:
                    if not decode_position(record["position"]) < position:
                        return []  # already recorded: a replay after a restart
                except TypeError:
                    raise PositionError(
                        f"position {position!r} does not compare with the recorded ones"
                    ) from None
            if (
                change.action == DatabaseAction.CREATE
                and change.if_exists
                and not change.replace
                and self._database_exists(name, record)
            ):
                return []  # CREATE DATABASE IF NOT EXISTS of one there is: nothing changes
            out: list[Change] = []
            if change.action == DatabaseAction.DROP or change.replace:
                out = self._drop_database_tables(st, name, position)
            if change.action == DatabaseAction.DROP:
                records.pop(name, None)
            else:
                charset, collation = change.charset, change.collation
                # (COLLATE DEFAULT: the default collation of the charset it meets)
                named = None if collation == CHARSET_DEFAULT else collation
                if charset == CHARSET_DEFAULT:
                    # CHARACTER SET DEFAULT: the server's charset, in that charset's default
                    # collation (not the server's) unless the statement names one
                    server = (
                        resolve_charset(None, server_collation)
                        if server_collation
                        else self.default_charset
                    )
                    if server is None:
                        raise DDLError(
                            "CHARACTER SET DEFAULT names the server's default charset, which "
                            "is not known (execute(server_collation=…), or Catalog(charset=…))"
                        )
                    charset, collation = resolve_charset(server[0], named)
                elif charset is None and collation is not None:
                    # a collation named without its charset (``uca1400_ai_ci``): the one of that
                    # name of the database's charset (ALTER), or of the server's (CREATE)
                    base = (
                        self.database_default(name)
                        if change.action == DatabaseAction.ALTER
                        else resolve_charset(None, server_collation)
                        if server_collation
                        else self.default_charset
                    )
                    if base is None:
                        raise DDLError(
                            f"COLLATE {collation} names no charset: it takes the server's "
                            "default charset, which is not known (execute(server_collation=…), "
                            "or Catalog(charset=…))"
                        )
                    charset, collation = resolve_charset(base[0], named)
                elif change.action == DatabaseAction.ALTER and charset is None and record:
                    charset, collation = record.get("charset"), record.get("collation")
                elif (
                    change.action == DatabaseAction.CREATE and charset is None and server_collation
                ):
                    # the session's server default, as the server takes it
                    charset, collation = resolve_charset(None, server_collation)
                records[name] = {
                    "charset": charset,
                    "collation": collation,
                    "position": encode_position(position),
                }
            self._store.set_state(_DATABASES, records)
            return out
        except MvddError as err:
            raise err.locate(statement=st.text, statement_index=st.index) from None

    def _database_exists(self, name: str, record: dict[str, Any] | None) -> bool:
        """Whether database ``name`` is known to exist: recorded, tracked, or holding tables."""
        if record is not None or name == self.database:
            return True
        return self.database is None and any(split_name(t)[0] == name for t in self.tables())

    def _drop_database_tables(self, st: Statement, name: str, position: Any) -> list[Change]:
        if self.database is not None:
            doomed = self.tables() if name == self.database else []
        else:
            doomed = [t for t in self.tables() if split_name(t)[0] == name]
        if not doomed:
            return []
        drops = tuple(s.DropTable(table=t, if_exists=True) for t in doomed)
        return self._execute_with_retry(Statement(st.index, st.text, drops), position)

    def _execute_with_retry(
        self, st: Statement, position: Any, session: Session = PLAIN
    ) -> list[Change]:
        """The statement planned and committed on the state this catalog holds, and again on
        a fresh one when the store says another writer moved first. A durable store is not
        asked before the first try (one round trip fewer per statement): the commit's
        compare-and-set on every table it touches, and the store's unique live names, refuse a
        plan built on a stale state, and a statement refused on the state held (no such table,
        a duplicate column …) is tried again on a fresh state when the store has newer
        versions, so a stale state never decides an outcome."""
        for attempt in range(RETRIES):
            if attempt:
                self.refresh()
            try:
                return self._execute_one(st, position, session)
            except ConcurrentChangeError as err:
                if attempt == RETRIES - 1:
                    raise err.locate(statement=st.text, statement_index=st.index) from None
                time.sleep(0.001 * 2**attempt)
            except MvddError:
                if attempt or self._store.last_seq() == self._seq:
                    raise  # refused on the newest state
        raise AssertionError("unreachable")

    def _execute_one(self, st: Statement, position: Any, session: Session = PLAIN) -> list[Change]:
        try:
            rules = Rules.altered(replica=self.replica, flavor=self.flavor)
            rules = rules.for_session(session)
            if position is not None and self._is_replay(st, position, rules):
                return []
            planned = self._plan(st, rules)
            for p in planned:
                if p.new is not None:
                    validate_table(p.new, base=p.old, rules=rules)
            if rules.strict:  # (a replica's server resolved its sequences)
                for p in planned:
                    if p.new is not None:
                        check_calls(p.new, p.steps, self._now, self._holds)
        except MvddError as err:
            raise err.locate(statement=st.text, statement_index=st.index) from None
        planned = [p for p in planned if _changes(p)]
        if not planned:
            return []
        return self._commit(st, planned, position)

    def _now(self, name: str) -> Table | None:
        """The table a name the catalog holds names now (None: none); a catalog of one
        database keeps its names without it."""
        try:
            return self.table(split_name(name)[1] if self.database is not None else name)
        except NoSuchTableError:
            return None

    def _holds(self, name: str) -> bool:
        """Whether a table of this name would be the catalog's (not of another database)."""
        database = split_name(name)[0]
        return self.database is None or database in (None, self.database)

    def commit_table(
        self,
        name: str,
        table: Table | None,
        *,
        statement: str,
        steps: tuple[s.Step, ...] = (),
        guard: Guard | None = None,
        job: JobUpdate | None = None,
    ) -> Change:
        """Commit ``table`` as the next version of table ``name`` (None drops it), as the online
        schema change does for each element state: the caller computed the schema. With a
        ``guard`` the version lands only under that lease, and ``job`` lands in the same
        transaction.

        Raises:
            NoSuchTableError: no table ``name``.
            DDLError: the table is not valid.
            FencedError: the guard's lease was lost.
            ConcurrentChangeError: another writer committed to the table first.
        """
        self._check_open()
        with self._write_lock:
            self.refresh()
            history = self._history(name)
            old = history.table_at(history.head)
            new = None
            if table is not None:
                new = attrs.evolve(table, name=table.name, id=history.table_id)
                validate_table(new, base=old)
            st = Statement(1, statement, steps)
            planned = [Planned(history.table_id, old, new, list(steps))]
            (change,) = self._commit(st, planned, None, guard=guard, job=job)
            return change

    def _is_replay(self, st: Statement, position: Any, rules: Rules) -> bool:
        """Whether the statement was already applied at this position: a version of its text
        recorded there, or none where it changes nothing in the tables as they stood there (a
        no-op adds no version: ``ALTER TABLE t ENGINE=InnoDB``, a column moved where it is).
        A table that did not bear one of its names at the position (made later, or named
        otherwise there) is the statement's only where no other table did, one whose history
        ends before the position included (the statement is new to it). Raises
        PositionError when it is out of order."""
        state = self._state
        seen = False
        later: tuple[str, Any] | None = None  # a table not of the name there, and its head
        for name in st.tables:
            for tid in state.ever.get(name, ()):
                history = state.histories[tid]
                head = history.head_position
                if head is None:
                    continue
                try:
                    behind = not head < position
                except TypeError:
                    raise PositionError(
                        f"position {position!r} does not compare with {head!r}", table=name
                    ) from None
                if not behind:
                    continue
                if any(history.row(v).statement == st.text for v in history.versions_at(position)):
                    seen = True
                    continue
                before = history.version_before(position)
                if before < 1 or history.row(before).name != name:
                    later = later or (name, head)
                    continue
                if self._no_op_at(st, position, rules):
                    seen = True
                    continue
                _out_of_order(position, name, head)
        # (where a table bore one of its names there and was not behind, it is new to that one)
        if (
            later is not None
            and not seen
            and not any(self._bearer_at(n, position) for n in st.tables)
        ):
            _out_of_order(position, *later)
        return seen

    # -- planning (mvdd.catalog.plan, a pure function of the published state) ---------------------

    def _plan(self, st: Statement, rules: Rules, position: Any = None) -> list[Planned]:
        """The statement planned on the tables as they are (``position``: as they stood
        there, each its newest version strictly before it)."""
        state = self._state

        def head(tid: int) -> Table:
            history = state.histories[tid]
            version = history.head if position is None else history.version_before(position)
            if version < 1:
                raise NoSuchTableError("no such table at this position", table=history.name)
            return history.table_at(version)

        def later_steps(tid: int) -> list[s.Step]:
            return [x for change in state.histories[tid].changes()[1:] for x in change.steps]

        names = state.names
        if position is not None:  # (the tables the statement's names named there)
            bearers = ((n, self._bearer_at(n, position)) for n in st.tables)
            names = {n: found[0].table_id for n, found in bearers if found is not None}
        return plan_statement(st, names, head, later_steps, rules=rules)

    def _no_op_at(self, st: Statement, position: Any, rules: Rules) -> bool:
        """Whether the statement plans, on the tables as they stood at ``position``, to change
        none of them (False where it cannot be planned there)."""
        try:
            return not any(_changes(p) for p in self._plan(st, rules, position))
        except MvddError:
            return False

    # -- committing ---------------------------------------------------------------------------

    def _commit(
        self,
        st: Statement,
        planned: list[Planned],
        position: Any,
        *,
        guard: Guard | None = None,
        job: JobUpdate | None = None,
    ) -> list[Change]:
        state = self._state
        now = time.time()
        versions: list[VersionRow] = []
        opened: list[ElementRow] = []
        closed: list[tuple[int, str, int, int]] = []
        expected: dict[int, int] = {}
        names: dict[int, str | None] = {}
        renamed: set[int] = set()
        local: dict[int, Table] = {}
        for p in planned:
            history = state.histories.get(p.tid)
            version = history.head + 1 if history is not None else 1
            if history is not None:
                expected[p.tid] = history.head
            dropped = p.new is None
            name = p.old.name if p.new is None else p.new.name  # type: ignore[union-attr]
            # (table_id, version, name, statement, steps, position, at, dropped, seq)
            versions.append(
                made(
                    VersionRow,
                    (p.tid, version, name, st.text, tuple(p.steps), position, now, dropped, 0),
                )
            )
            names[p.tid] = None if dropped else name
            if p.old is not None and (dropped or name != p.old.name):
                renamed.add(p.tid)
            new_table = p.new
            if new_table is p.old and new_table is not None:
                new_table = new_table.at_version(version)  # (the head itself: TRUNCATE)
            elif new_table is not None and new_table.version != version:
                # a table the plan made is this statement's alone until the commit publishes
                # it: numbered in place, not copied (a table's construction per statement)
                object.__setattr__(new_table, "version", version)
            to_open, to_close = diff_rows(
                history.live_rows() if history is not None else {}, p.old, new_table
            )
            if to_close:
                closed += [(p.tid, rec.kind, rec.element_id, rec.since) for rec in to_close]
            opened += [
                made(ElementRow, (p.tid, kind, eid, version, None, value, prev))
                for kind, eid, value, prev in to_open
            ]
            if new_table is not None:
                local[p.tid] = new_table
        result = self._store.commit(
            made(
                Commit,
                (
                    tuple(versions),
                    tuple(opened),
                    tuple(closed),
                    expected,
                    names,
                    guard,
                    job,
                    frozenset(renamed),
                ),
            )
        )
        ids = result.ids
        local_path = result.seq == self._seq + 1
        if local_path:
            if ids:
                local = {
                    ids.get(t, t): table if t > 0 else attrs.evolve(table, id=ids[t])
                    for t, table in local.items()
                }
            self._integrate(result.rows, local)
        else:
            self.refresh()
        out = [Change.of(v) for v in result.rows.versions]  # (the rows as committed)
        if local_path and self._listeners:  # (a refresh notified its own batch)
            self._notify(out)
        return out

    def _check_open(self) -> None:
        if self._closed:
            raise CatalogError("the catalog is closed")

    def __iter__(self) -> Iterator[str]:
        return iter(self.tables())


def _out_of_order(position: Any, name: str, head: Any) -> NoReturn:
    raise PositionError(
        f"position {position!r} is not after this table's newest position {head!r}", table=name
    )


def _changes(p: Planned) -> bool:
    """Whether a table's plan changes it (a table equal to the one before it may still differ
    as shown: a display width)."""
    if p.truncated:
        return True
    if p.new is None or p.old is None:
        return p.new is not p.old
    return not p.new.same_as_shown(p.old)
