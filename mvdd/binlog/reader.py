"""A MySQL / MariaDB binlog read with the schema valid at every event's position.

:class:`BinlogReader` follows one upstream server through ``mysql-replication`` (the protocol
and the decoding of values) and keeps that server's schema history in a
:class:`~mvdd.catalog.Catalog`, tables named ``database.table``. Every DDL of a table in the
databases the patterns name is executed into the catalog at its position; every row event of a
matched table is checked against, and decoded with, the version the catalog holds at the
event's position (the boundary rule: a DDL at ``q`` governs events after ``q``), never with the
server's current schema.

Transactions
    Events come out one transaction at a time, once its end (XID, ``COMMIT``, or the DDL
    itself) has been read, so every event knows ``ev.commit``: where its transaction ends, the
    only places a reader resumes from. A dropped connection (a server restart, a network cut)
    is reconnected from the last transaction end handed out, never from the middle of one and
    never from the original start; the reader waits for the server up to ``retry`` seconds
    (``None``: for ever; the questions it asks the server besides the stream, the snapshot
    included, wait as long), then raises :class:`~mvdd.errors.SourceConfigError`. An XA
    transaction's rows, logged when it is prepared, come out at its ``XA COMMIT``, as that
    statement's transaction, and never after an ``XA ROLLBACK`` (:mod:`mvdd.binlog.xa`).

Failover
    A position is a place in one server's binlog. From MariaDB the reader knows the GTID
    position each transaction end holds (:attr:`BinlogReader.gtid`), and each time it starts
    or reconnects it asks the server whether its history holds that GTID position at the
    place it resumes from. A server that does not (a replica promoted to primary at the same
    address, or a source pointed at it; a server restored from a backup): reading goes on
    where that server's binlog reaches the GTID position, its positions of the next era
    (:class:`~mvdd.model.position.BinlogPosition`), so that the catalog's versions keep their
    order; a server whose binlog never reaches it (it lacks transactions already read, or
    holds others in their place) is a SourceConfigError. ``start`` with ``gtid`` gives that
    GTID position; the reader's own :meth:`~BinlogReader.checkpoint` keeps it beside the
    position. From MySQL (or a ``start`` without its GTID position) the position is taken as
    it is.
    A MariaDB system-versioned table's events are the changes to its current rows, as a query
    reads them (:func:`_row_changes`): the past versions the server keeps, which it logs as
    rows beside them, and the hidden ``row_start`` / ``row_end`` of every row, are left out
    (a table's own period columns are its columns). A change to one versioned by transaction
    ids, which MariaDB logs as its statement, stops the reader: its rows are not in the binlog.

Starting
    ``start=None`` continues after the reader's last :meth:`~BinlogReader.checkpoint` kept in
    the catalog's store, else after the newest position the catalog holds. An empty catalog
    is *bootstrapped* at the first :meth:`~BinlogReader.check` or
    :meth:`~BinlogReader.events`: every table of the followed databases (not only the matched
    ones, so that a table renamed into the pattern or a tool's ghost table is known) and each
    database's default charset are taken from one consistent snapshot
    (:meth:`mvdd.binlog.source.Source.snapshot`) and recorded as version 1 at the snapshot's
    binlog position, where reading starts. A bootstrap killed half way is finished from the
    same snapshot (it is kept in the store until every table is recorded).
    ``start="beginning"`` reads CREATE TABLEs from the oldest binlog the server has: a table
    created before it has no schema, and its first row raises
    :class:`~mvdd.errors.SchemaUnknownError`. Its databases' default charsets are the server's
    current ones unless the binlog creates or alters them. A catalog without a default charset
    of its own takes the server's (``character_set_server``), which a database created without
    one has. A table of a database the patterns do not name, which a statement on a followed
    table needs (renamed in, a LIKE's source, a partition's exchange partner), is learned from
    the server: its schema there when it can stand for the one it had, else its history in the
    server's binlogs (:meth:`BinlogReader._learn`).

DDL policy
    A statement on a matched table that mvdd cannot parse or does not model follows the
    catalog's ``on_unsupported`` (``"raise"``: SchemaUnknownError-free stop naming statement and
    position; ``"skip"``: logged and skipped); on other tables such statements are ignored.
    When what ``"skip"`` skips is the CREATE of a followed table (one with an application-time
    period, in the binlog or at bootstrap), that table is
    *untracked*: its rows
    are skipped too, with one warning per table and reader, instead of raising
    SchemaUnknownError, and so are the statements on it (an ALTER, a DROP; a rename untracks
    the new name). The untracked names are kept in the catalog's store (a restart skips
    them as well); a name the catalog later has a schema for is read again.
    Statement-format row changes (``binlog_format`` switched per session) on a matched table
    always stop the reader: their rows are not in the binlog.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import logging
import threading
import zlib
from collections.abc import Callable, Generator, Iterable, Iterator
from enum import StrEnum
from typing import Any

import attrs
import pymysql
from pymysqlreplication import BinLogStreamReader
from pymysqlreplication import event as le
from pymysqlreplication import row_event as lr
from pymysqlreplication.exceptions import StatusVariableMismatch

from mvdd.binlog import library
from mvdd.binlog.decode import Plan, check_table_map
from mvdd.binlog.source import (
    Outage,
    Rows,
    Snapshot,
    Source,
    database_patterns,
    matches,
    parse_tables,
)
from mvdd.binlog.xa import Xid, find_prepared, format_xid, lost_prepare, prepared_xid, xa_statement
from mvdd.catalog import Catalog, Change
from mvdd.ddl import step as s
from mvdd.ddl.name import split_name
from mvdd.ddl.render import render_table
from mvdd.ddl.sqlmode import SqlMode
from mvdd.ddl.statement import (
    SHOWN,
    Statement,
    idempotent_drop,
    iter_statements,
    named_create,
    not_a_table,
    replaced_drop,
    statement_words,
)
from mvdd.errors import (
    DDLError,
    DDLParseError,
    MvddError,
    NoSuchTableError,
    NoSuchVersionError,
    SchemaDriftError,
    SchemaUnknownError,
    SourceConfigError,
    UnsupportedDDLError,
)
from mvdd.model import BinlogPosition, Table
from mvdd.model.names import fold_name
from mvdd.model.position import gtid_after, gtid_state
from mvdd.store.mysql import connection_lost, may_reconnect

log = logging.getLogger("mvdd.binlog")


def _plain_connect(**settings: Any) -> Any:
    """A connection of the library's, as PyMySQL now spells its settings."""
    if "db" in settings:  # (the library's spelling, deprecated by PyMySQL)
        settings["database"] = settings.pop("db")
    return pymysql.connect(**settings)


#: store state keys
CHECKPOINT = "binlog.checkpoint"
#: the MariaDB GTID position at the reader's checkpoint ({"position": …, "gtid": …})
CHECKPOINT_GTID = "binlog.checkpoint_gtid"
BOOTSTRAP = "binlog.bootstrap"
UNTRACKED = "binlog.untracked"  # followed tables whose CREATE was skipped -> where
#: statements that move a transaction, not a schema
_CONTROL = {"BEGIN": "begin", "COMMIT": "commit", "ROLLBACK": "commit", "XA": "xa"}
_SAVEPOINTS = ("SAVEPOINT", "ROLLBACK TO", "RELEASE SAVEPOINT")
_ROW_STATEMENTS = frozenset({"INSERT", "UPDATE", "DELETE", "REPLACE", "LOAD"})
#: MariaDB GTID event flag: the event group has no terminating COMMIT (a DDL)
_FL_STANDALONE = 0x01
#: how many snapshots a bootstrap takes before it gives up on a source whose DDL never rests
_SNAPSHOT_TRIES = 5


class EventKind(StrEnum):
    DDL = "ddl"
    INSERT = "insert"
    UPDATE = "update"
    DELETE = "delete"


@attrs.frozen(slots=True)
class Event:
    """One change of one table, as the binlog carries it and the catalog decodes it.

    Attributes:
        kind: ``"ddl"``, ``"insert"``, ``"update"`` or ``"delete"``.
        table: ``database.table`` (a rename: the name after it; a table renamed out of the
            followed tables: its old name).
        position: where the event ends in the binlog.
        version: the table version that decoded the row (ddl: the version it created).
        row: insert / delete: the row; update: the after image; ddl: None.
        before: update: the before image; otherwise None.
        statement: ddl: the statement's text; otherwise None.
        commit: where the event's transaction ends: a safe resume point once every event of
            the transaction is handled.
        table_id: the catalog's id of the table (stable across renames; ddl: of the table
            the statement changed).
        gtid: the MariaDB GTID of the event's transaction, ``domain-server-sequence`` as the
            server's ``@@last_gtid`` gives it; None from a MySQL source, and for the rows of a
            ``CREATE … SELECT`` read by a reader that resumed after its table's event (the
            GTID came before it).
    """

    kind: EventKind
    table: str
    position: BinlogPosition
    version: int
    row: dict[str, Any] | None
    before: dict[str, Any] | None
    statement: str | None
    commit: BinlogPosition
    table_id: int | None = None
    gtid: str | None = None


@attrs.frozen
class BinlogTransaction:
    """One upstream transaction as :meth:`BinlogReader.transactions` hands it out: the events
    of the followed tables (none when it touched no followed table: its end still counts as
    progress), where it ends, and when the server wrote that end (its clock, seconds since the
    epoch; 0 when the binlog does not say)."""

    events: tuple[Event, ...]
    commit: BinlogPosition
    timestamp: float = 0.0
    #: the MariaDB GTID of the transaction (:attr:`Event.gtid`)
    gtid: str | None = None

    @property
    def is_ddl(self) -> bool:
        return any(e.kind == EventKind.DDL for e in self.events)


_Group = BinlogTransaction


class _Lost(Exception):
    """The stream's connection is gone (reconnect from the last boundary)."""


#: a system-versioned table's row change, by (its kind, whether its before image is a past row,
#: whether its after image is; None: the kind has no such image): the change it makes to the
#: table's current rows, or None (a past row's own)
_CURRENT: dict[tuple[EventKind, bool | None, bool | None], EventKind | None] = {
    (EventKind.INSERT, None, False): EventKind.INSERT,
    (EventKind.INSERT, None, True): None,  # an UPDATE's old version kept
    (EventKind.UPDATE, False, False): EventKind.UPDATE,
    (EventKind.UPDATE, False, True): EventKind.DELETE,  # the row ended: a DELETE's
    (EventKind.UPDATE, True, False): EventKind.INSERT,  # a past row made current again
    (EventKind.UPDATE, True, True): None,
    (EventKind.DELETE, False, None): EventKind.DELETE,
    (EventKind.DELETE, True, None): None,  # DELETE HISTORY
}
#: a row change as the reader hands it out: (kind, the row before, the row)
_RowChange = tuple[EventKind, dict[str, Any] | None, dict[str, Any]]


def _row_changes(plan: Plan, kind: EventKind, rows: Any) -> Iterator[_RowChange]:
    """The changes a row event's rows (the library's) make, decoded with ``plan``; a
    system-versioned table's as the changes to its current rows (:data:`_CURRENT`): the past
    rows the server writes beside them (an UPDATE's old version, a DELETE's row ended, DELETE
    HISTORY's past rows gone) are not the table's rows as a query reads them."""
    convert = plan.row
    if plan.period_end is None:
        for r in rows:
            if kind == EventKind.UPDATE:
                before = convert(r["before_values"], r["before_none_sources"])
                yield kind, before, convert(r["after_values"], r["after_none_sources"])
            else:
                yield kind, None, convert(r["values"], r["none_sources"])
        return
    past = plan.past
    key: tuple[EventKind, bool | None, bool | None]
    for r in rows:
        if kind == EventKind.UPDATE:
            key = (kind, past(r["before_values"]), past(r["after_values"]))
            images = [
                (r["before_values"], r["before_none_sources"]),
                (r["after_values"], r["after_none_sources"]),
            ]
        else:
            one = past(r["values"])
            key = (kind, None, one) if kind == EventKind.INSERT else (kind, one, None)
            images = [(r["values"], r["none_sources"])]
        change = _CURRENT[key]
        if change == EventKind.UPDATE:
            yield change, convert(*images[0]), convert(*images[1])
        elif change is not None:  # the row that comes (the last image) or goes (the first)
            yield change, None, convert(*images[-1 if change == EventKind.INSERT else 0])


#: the events an XA search reads (:func:`mvdd.binlog.xa.find_prepared`)
_SCANNED = (le.RotateEvent, le.GtidEvent, le.MariadbGtidEvent, le.QueryEvent, le.XAPrepareEvent)
#: the library's row event classes -> the kind of change
_ROW_KINDS = {
    lr.WriteRowsEvent: EventKind.INSERT,
    lr.UpdateRowsEvent: EventKind.UPDATE,
    lr.DeleteRowsEvent: EventKind.DELETE,
}


def _position(value: BinlogPosition | str) -> BinlogPosition:
    return BinlogPosition.parse(value) if isinstance(value, str) else value


class BinlogReader:
    """Reads one upstream server's binlog, every row decoded with the schema at its position.

    Args:
        url: the server, ``mysql://user:password@host:port/`` (also ``mariadb://`` and
            ``?unix_socket=PATH``), or a :class:`~mvdd.binlog.source.Source` (several readers
            of one server share what it learnt of it).
        tables: fnmatch patterns of ``database.table`` (``"shop.orders_*"``); rows of other
            tables are skipped.
        catalog: this server's schema history (default: in memory). The reader follows the
            DDL of every table in the databases the patterns name, names tables
            ``database.table``, and sets the catalog to follow the server's own rules
            (``replica``). Its ``on_unsupported`` applies to their DDL.
        server_id: the replica id the reader registers with (default: one derived from the
            server, the patterns and the catalog, the same on every run).
        start: None, ``"beginning"``, or a position (see the module docstring).
        gtid: MariaDB's GTID position at ``start`` (as :attr:`gtid` gave it there): a server
            at the address that does not hold it at ``start`` is read from where its binlog
            reaches it (see the module docstring).
        retry: seconds to wait for a server that cannot be reached before giving up (None:
            for ever; 0: at once).
        heartbeat: seconds between the server's heartbeats while following (``until=None``).

    >>> reader = BinlogReader("mysql://repl:pw@db:3306/", tables="shop.orders_*")  # doctest: +SKIP
    >>> for ev in reader.events():  # doctest: +SKIP
    ...     print(ev.kind, ev.table, ev.version, ev.row)
    """

    def __init__(
        self,
        url: str | Source,
        *,
        tables: str | list[str],
        catalog: Catalog | None = None,
        server_id: int | None = None,
        start: BinlogPosition | str | None = None,
        retry: float | None = 30.0,
        heartbeat: float = 1.0,
        gtid: str | None = None,
    ) -> None:
        library.extend()
        self.source = url if isinstance(url, Source) else Source(url)
        self.source.retry = retry
        self.patterns = parse_tables(tables)
        self.catalog = catalog if catalog is not None else Catalog()
        if self.catalog.database is not None:
            raise SourceConfigError(
                "a binlog reader's catalog names tables database.table: give a catalog built "
                "without database="
            )
        self.catalog.replica = True
        if start is not None and start != "beginning":
            start = _position(start)
        self._start_arg = start
        gtid_state(gtid)  # (a PositionError for what is no GTID position)
        self._start_gtid = gtid
        #: MariaDB's GTID position after the last transaction handed out (None: not known),
        #: and that transaction's end
        self._state: str | None = None
        self._state_at: BinlogPosition | None = None
        self.server_id = server_id if server_id is not None else self._default_server_id()
        if not 0 < self.server_id < 2**32:
            raise SourceConfigError(f"server_id must be in 1 .. 2**32 - 1, not {self.server_id}")
        self.heartbeat = heartbeat
        self._databases = database_patterns(self.patterns)
        self._resume: BinlogPosition | None = None
        self._plans: dict[str, tuple[Plan, Any, int]] = {}
        self._maps: dict[int, Plan | None] = {}
        self._gtid: str | None = None  # the MariaDB GTID of the transaction being read
        self._untracked: dict[str, str] | None = None  # UNTRACKED, read when first needed
        self._warned: set[str] = set()
        self._stream: BinLogStreamReader | None = None
        self._stream_connected = False
        #: the rows of XA transactions prepared and not yet committed or rolled back, by id
        self._prepared: dict[Xid, list[tuple[Any, ...]]] = {}
        #: where the schemas that decode rows are taken (None: at each row's own position)
        self._decode_at: BinlogPosition | None = None
        #: the server's binlog position at its last heartbeat (while following)
        self.source_position: BinlogPosition | None = None
        self._closed = False

    @property
    def retry(self) -> float | None:
        """Seconds a lost server is waited for before giving up (None: for ever); the
        source's questions wait as long as the stream."""
        return self.source.retry

    @retry.setter
    def retry(self, seconds: float | None) -> None:
        self.source.retry = seconds

    def _default_server_id(self) -> int:
        key = "|".join(
            (self.source.description, *sorted(self.patterns), self.catalog.store.description)
        )
        return 2**31 + zlib.crc32(key.encode()) % (2**31 - 1)

    # -- public ---------------------------------------------------------------------------------

    def check(self) -> None:
        """Check the server (raises SourceConfigError listing every problem), and bootstrap an
        empty catalog."""
        self._prepare()

    def table(self, name: str, *, position: Any = None) -> Table:
        """A table (``database.table``) as the catalog holds it, now or at a position."""
        if isinstance(position, str):
            position = BinlogPosition.parse(position)
        return self.catalog.table(name, position=position)

    def checkpoint(self, position: BinlogPosition | str) -> None:
        """Record that everything up to this commit position is handled; ``start=None``
        resumes after it (with MariaDB's GTID position there, when it is the end of the last
        transaction handed out: the place the reader resumes from is found on another server
        by it, see the module docstring)."""
        at = _position(position)
        if self._state is not None and at == self._state_at:
            self.catalog.store.set_state(
                CHECKPOINT_GTID, {"position": str(at), "gtid": self._state}
            )
        self.catalog.store.set_state(CHECKPOINT, str(at))

    @property
    def gtid(self) -> str | None:
        """MariaDB's GTID position after the last transaction handed out (at the start before
        the first; None from MySQL, or before reading began): the one at :attr:`position` once
        the consumer is done with that transaction."""
        return self._state

    @property
    def position(self) -> BinlogPosition | None:
        """The last transaction end handed out (where a reconnect resumes)."""
        return self._resume

    def close(self) -> None:
        self._closed = True
        self._close_stream()

    def __enter__(self) -> BinlogReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<BinlogReader {self.source.description} tables={list(self.patterns)}>"

    # -- starting -------------------------------------------------------------------------------

    def _prepare(self) -> BinlogPosition:
        """The position reading starts at (bootstrapping an empty catalog first)."""
        if self._resume is not None:
            return self._resume
        if self.catalog.default_charset is None:
            # a database created without a charset takes the server's
            self.catalog.default_charset = self.source.server_charset()
        self.catalog.flavor = self.source.flavor  # (its own ways: mvdd.ddl.rules.MARIADB)
        self.catalog.lower_names = self.source.lower_names
        start = self._start_arg
        gtid = self._start_gtid
        if start is None:
            kept = self.catalog.store.get_state(CHECKPOINT)
            bootstrap = self.catalog.store.get_state(BOOTSTRAP)
            if kept is not None:
                start = BinlogPosition.parse(kept)
                held = self.catalog.store.get_state(CHECKPOINT_GTID) or {}
                gtid = held.get("gtid") if held.get("position") == kept else None
            elif bootstrap is not None and not bootstrap.get("done"):
                start = self._finish_bootstrap(bootstrap)
                gtid = bootstrap.get("gtid")
            elif self.catalog.tables() or self.catalog.databases():
                start = self._newest_position()
        if start == "beginning":
            self.source.check()
            start = self.source.oldest()
            self._record_current_databases(start)
        elif start is None:
            self.source.check()
            start = self._bootstrap()
            gtid = (self.catalog.store.get_state(BOOTSTRAP) or {}).get("gtid")  # (read there)
        else:
            assert isinstance(start, BinlogPosition)
            start = self.source.resume_point(start, gtid)
            self.source.check(start)
        self._state = gtid if gtid is not None else self.source.gtid_at(start)
        self._state_at = self._resume = start
        return start

    def _newest_position(self) -> BinlogPosition:
        try:
            newest = self.catalog.last_position()
        except MvddError:
            newest = None
        if not isinstance(newest, BinlogPosition):
            raise SourceConfigError(
                "the catalog holds tables but no binlog position: give start= a position"
            )
        return newest

    @contextlib.contextmanager
    def snapshot(self) -> Iterator[Rows]:
        """One consistent snapshot of the server, held open while the block runs: its rows
        (:class:`~mvdd.binlog.source.Rows`) are those at :attr:`Rows.position`. An empty
        catalog is bootstrapped from it (as :meth:`check` would), and reading starts there;
        a catalog that holds schemas already is left as it is (the caller compares)."""
        self.source.check()
        if self.catalog.default_charset is None:
            self.catalog.default_charset = self.source.server_charset()
        for _ in range(_SNAPSHOT_TRIES):
            with self.source.snapshot_session(self.patterns) as (snap, rows):
                if snap.until is not None and self._ddl_between(snap.position, snap.until):
                    log.info("snapshot: DDL between %s and %s, again", snap.position, snap.until)
                    continue
                empty = not (self.catalog.tables() or self.catalog.databases())
                if empty and self._start_arg is None:
                    self._resume = self._record_bootstrap(snap)
                rows.position = snap.position
                yield rows
                return
        raise SourceConfigError(
            f"{self.source.description}: DDL kept landing while the schemas were read "
            f"({_SNAPSHOT_TRIES} snapshots); try again when the source is quieter"
        )

    def ddl_between(self, start: BinlogPosition, end: BinlogPosition) -> bool:
        """Whether the binlog between two positions holds a statement on a followed database."""
        return self._ddl_between(start, end)

    def _bootstrap(self) -> BinlogPosition:
        for _ in range(_SNAPSHOT_TRIES):
            snap = self.source.snapshot(self.patterns)
            if snap.until is None or not self._ddl_between(snap.position, snap.until):
                break
            log.info("bootstrap: DDL between %s and %s, snapshot again", snap.position, snap.until)
        else:
            raise SourceConfigError(
                f"{self.source.description}: DDL kept landing while the schemas were read "
                f"({_SNAPSHOT_TRIES} snapshots); try again when the source is quieter"
            )
        return self._record_bootstrap(snap)

    def _record_bootstrap(self, snap: Snapshot) -> BinlogPosition:
        record = {
            "position": str(snap.position),
            # (MariaDB's GTID position there: the place in the history, which tells whether a
            # server at the address later is the one the snapshot was of)
            "gtid": self.source.gtid_at(snap.position),
            "databases": [list(d) for d in snap.databases],
            "tables": [list(t) for t in snap.tables],
            "done": False,
        }
        # the snapshot is kept first, so a bootstrap killed half way finishes from it
        self.catalog.store.set_state(BOOTSTRAP, record)
        log.info("bootstrap: %d tables at %s", len(snap.tables), snap.position)
        return self._finish_bootstrap(record)

    def _finish_bootstrap(self, record: dict[str, Any]) -> BinlogPosition:
        position = BinlogPosition.parse(record["position"])
        for database, text in record["databases"]:
            self.catalog.execute(text, position=position, database=database)
        followed: list[str] = []
        for database, table, text in record["tables"]:
            # every table of a followed database is read (one may be renamed in later); one
            # the patterns do not match may be of a kind mvdd does not model
            name = f"{database}.{table}"
            try:  # (the server's own text: SHOWN)
                self.catalog.execute(text, position=position, database=database, sql_mode=SHOWN)
            except MvddError as err:
                if matches(self.patterns, name):
                    raise err.locate(position=position) from None
                log.warning("bootstrap: ignored the unmatched table %s: %s", name, err)
                continue
            if matches(self.patterns, name):
                followed.append(name)
        known = set(self.catalog.tables())
        for name in followed:
            if name not in known:
                self._untrack(name, position)  # on_unsupported="skip" skipped its CREATE
            elif hidden := _may_hide(self.catalog.table(name)):
                log.warning(
                    "bootstrap: %s: a ? among the members of %s may stand for a character "
                    "beyond the BMP or a byte the column's charset does not read, which SHOW "
                    "CREATE TABLE writes as ?; a server that logs "
                    "binlog_row_metadata=FULL tells (its rows are refused then), one that does "
                    "not leaves it unknown",
                    name,
                    ", ".join(hidden),
                )
        self.catalog.store.set_state(BOOTSTRAP, {**record, "done": True})
        self.catalog.store.set_state(CHECKPOINT, str(position))
        return position

    def _record_current_databases(self, position: BinlogPosition) -> None:
        """Reading from the beginning: each followed database's default charset as the server
        has it now, for databases the binlog will not create (recorded before ``position``)."""
        for name in self.source.databases(self.patterns):
            if name not in self.catalog.databases():
                self.catalog.execute(self.source.database_ddl(name), database=name)

    def _ddl_between(self, start: BinlogPosition, end: BinlogPosition) -> bool:
        """Whether the binlog between two positions holds a statement on a followed database."""
        return any(self._followed_statement(ev) for ev in self._statements(start, end))

    def ddl_tables(self, start: BinlogPosition, end: BinlogPosition) -> set[str]:
        """The ``database.table`` names the statements between two positions mention (a
        superset of the tables they change; control statements and row changes left out)."""
        out: set[str] = set()
        for ev in self._statements(start, end):
            out |= self._mentions(ev)
        return out

    def name_moved(self, name: str, start: BinlogPosition, end: BinlogPosition) -> bool:
        """Whether a statement between two positions may have given the table name ``name``
        (``database.table``) to another table than the one that bore it at ``start``: one that
        renames a table from or to it, drops it or makes a table of it (``IF NOT EXISTS``
        aside, which makes none where it is taken), as the catalog reads it; one that names it
        and does not read counts."""
        for ev in self._statements(start, end):
            if name not in self._mentions(ev):
                continue
            schema = _schema(ev)
            try:
                statements = self._read_statements(ev.query, schema, ev, self._session(ev))
            except DDLError:
                return True
            if any(_moves(step, name) for st in statements for step in st.steps):
                return True
        return False

    def _mentions(self, ev: Any) -> set[str]:
        """The ``database.table`` names a query event's statement mentions (none for control
        statements and row changes; folded where the server folds names)."""
        verb, names = statement_words(ev.query, _sql_mode(ev))
        if verb in _CONTROL or verb in _ROW_STATEMENTS:
            return set()
        schema = _schema(ev)
        out = {f"{schema}.{name}" for name in names}
        if schema is None:
            out.update(names)
        out.update(f"{db}.{table}" for db, table in itertools.pairwise(names))
        return {fold_name(n) for n in out} if self.catalog.lower_names else out

    def _statements(self, start: BinlogPosition, end: BinlogPosition) -> Iterator[Any]:
        """The query events between two positions (read on a stream of their own, under a side
        id: the reader's may be open, as when a statement's table is learned)."""
        if not start < end:
            return
        with _side_id(self.server_id) as side:
            yield from self._side_statements(start, end, side)

    def _side_statements(
        self, start: BinlogPosition, end: BinlogPosition, side: int
    ) -> Iterator[Any]:
        stream = self._binlog_stream(
            start,
            server_id=side,
            blocking=False,
            events=library.ALL_EVENTS,
            connect=_plain_connect,
            filter_non_implemented_events=False,
        )
        file = start.file
        try:
            while True:
                ev = stream.fetchone()
                if ev is None:
                    return
                if isinstance(ev, le.RotateEvent):
                    file = ev.next_binlog
                    continue
                pos = BinlogPosition(file, ev.packet.log_pos, start.era)
                if ev.packet.log_pos and end < pos:
                    return
                if isinstance(ev, le.QueryEvent):
                    yield ev  # (one that ends at ``end`` is in the range)
                if ev.packet.log_pos and not pos < end:
                    return
        finally:
            stream.close()

    def _followed_statement(self, ev: Any) -> bool:
        verb, names = statement_words(ev.query, _sql_mode(ev))
        if verb in _CONTROL:
            return False
        schema = _schema(ev)
        if self.catalog.lower_names:
            schema = fold_name(schema) if schema is not None else None
            names = tuple(map(fold_name, names))
        return bool(schema and self._follows_database(schema)) or any(
            self._follows_database(n) for n in names
        )

    def _follows_database(self, name: str | None) -> bool:
        return name is not None and any(_fnmatch(name, p) for p in self._databases)

    # -- reading --------------------------------------------------------------------------------

    def events(self, *, until: BinlogPosition | str | None = "end") -> Generator[Event, None, None]:
        """The events of matched tables, one transaction after another.

        ``until``: ``"end"`` stops once caught up with the server; None follows for ever; a
        position stops at the first transaction end at or after it."""
        for txn in self.transactions(until=until):
            yield from txn.events

    def transactions(
        self,
        *,
        until: BinlogPosition | str | None = "end",
        stop: Callable[[], bool] | None = None,
    ) -> Iterator[BinlogTransaction]:
        """The upstream transactions one at a time, each once its end has been read (also
        those that touched no followed table: their end is progress too).

        ``until`` as :meth:`events`; ``stop``: asked between transactions and at every
        heartbeat while following: True ends the stream at the last transaction handed out."""
        if self._closed:
            raise SourceConfigError("the reader is closed")
        start = self._prepare()
        end = None if until in (None, "end") else _position(until)  # type: ignore[arg-type]
        blocking = until is None
        resume = start
        outage = Outage(self.source.description, self.retry)
        halt = stop or (lambda: False)
        while True:
            try:
                for group in self._groups(resume, blocking, end, halt):
                    outage.over()
                    if group.gtid and self._state is not None:
                        self._state = gtid_after(self._state, group.gtid)
                    self._state_at = group.commit
                    yield group
                    resume = self._resume = group.commit
                    if (end is not None and not resume < end) or halt():
                        return
                return
            except _Lost as lost:
                self._close_stream()
                outage.wait(lost, position=resume)  # then reconnect from the last boundary
                # (where the server back at the address holds that boundary: another one may)
                resume = self._resume = self.source.resume_point(resume, self._state)

    def _connect(self, **settings: Any) -> Any:
        """The library's connection factory: a second stream connection means the library is
        reconnecting by itself, from the middle of a transaction; mvdd reconnects instead."""
        if "cursorclass" not in settings:  # the stream connection (not the library's control one)
            if self._stream_connected:
                raise _Lost("the server closed the replication stream")
            self._stream_connected = True
        try:
            return _plain_connect(**settings)
        except pymysql.MySQLError as err:
            if may_reconnect(err):
                raise _Lost(f"cannot connect: {_message(err)}") from None
            raise  # a refused login is not waited out (the stream's fetch names it)

    def _open_stream(
        self, start: BinlogPosition, *, blocking: bool, server_id: int | None = None
    ) -> BinLogStreamReader:
        self._stream_connected = False
        return self._binlog_stream(
            start,
            server_id=self.server_id if server_id is None else server_id,
            blocking=blocking,
            events=library.ALL_EVENTS,
            connect=self._connect,
            filter_non_implemented_events=False,
            slave_heartbeat=self.heartbeat if blocking else None,
        )

    def _binlog_stream(
        self,
        start: BinlogPosition,
        *,
        server_id: int,
        blocking: bool,
        events: Iterable[type],
        connect: Callable[..., Any],
        **options: Any,
    ) -> BinLogStreamReader:
        """A stream of the server's binlog from ``start``, registered as replica ``server_id``,
        of ``events``' classes, its connections made by ``connect``."""
        settings = self.source.connect_options()
        settings.pop("autocommit", None)
        return BinLogStreamReader(
            connection_settings=settings,
            server_id=server_id,
            resume_stream=True,
            blocking=blocking,
            log_file=start.file,
            log_pos=start.offset,
            only_events=list(events),
            pymysql_wrapper=connect,
            enable_logging=False,
            **options,
        )

    def _close_stream(self) -> None:
        stream, self._stream = self._stream, None
        if stream is not None:
            with contextlib.suppress(Exception):
                stream.close()
        self._stream_connected = False

    def _fetch(self, stream: BinLogStreamReader, at: BinlogPosition) -> Any:
        try:
            return stream.fetchone()
        except _Lost:
            raise
        except pymysql.MySQLError as err:
            if connection_lost(err):
                raise _Lost(_message(err)) from None
            raise SourceConfigError(
                f"{self.source.description} refused the binlog at {at}: {_message(err)}",
                position=at,
            ) from None
        except StatusVariableMismatch:
            raise SourceConfigError(
                f"an event after {at} has a status variable mysql-replication cannot read",
                position=at,
            ) from None
        except library.CompressedEventError as err:
            raise SourceConfigError(
                f"a compressed event after {at} cannot be read: {err}; it is never skipped",
                position=at,
            ) from None
        except (OSError, EOFError) as err:
            raise _Lost(str(err) or type(err).__name__) from None

    def _groups(
        self,
        start: BinlogPosition,
        blocking: bool,
        end: BinlogPosition | None,
        halt: Callable[[], bool],
        *,
        server_id: int | None = None,
    ) -> Generator[_Group, None, None]:
        self._close_stream()
        self._maps = {}
        self._plans = {}
        self._gtid = None
        stream = self._stream = self._open_stream(start, blocking=blocking, server_id=server_id)
        file = start.file
        pending: list[tuple[Any, ...]] | None = None
        at = start
        try:
            while True:
                ev = self._fetch(stream, at)
                if ev is None:
                    return
                if isinstance(ev, le.RotateEvent):
                    file = ev.next_binlog
                    continue
                if isinstance(ev, le.HeartbeatLogEvent):
                    self.source_position = BinlogPosition(ev.ident, ev.packet.log_pos, start.era)
                    if halt():
                        return
                    continue
                if ev.packet.log_pos:
                    at = BinlogPosition(file, ev.packet.log_pos, start.era)
                handler = _HANDLERS.get(type(ev))
                if handler is None:
                    if isinstance(ev, le.NotImplementedEvent):
                        self._unknown(ev, at)
                    continue
                result = handler(self, ev, at, pending)
                if isinstance(result, _Group):
                    pending = None
                    yield result
                else:
                    pending = result
        finally:
            self._close_stream()

    # -- event handlers (a table, _HANDLERS, dispatches by the library's event class) -------------

    def _on_gtid(self, ev: Any, at: BinlogPosition, pending: Any) -> Any:
        # MariaDB starts a transaction with its GTID event (no BEGIN query); a DDL is standalone
        self._gtid = ev.gtid
        return None if ev.flags & _FL_STANDALONE else []

    def _on_table_map(self, ev: Any, at: BinlogPosition, pending: Any) -> Any:
        name = f"{ev.schema}.{ev.table}"
        if not matches(self.patterns, name):
            self._maps[ev.table_id] = None
            return pending
        try:
            plan = self._plan(name, at)
        except SchemaUnknownError:
            if name not in self._untracked_names():
                raise
            if name not in self._warned:
                self._warned.add(name)
                log.warning(
                    "rows of %s are skipped (first at %s): its CREATE was skipped as unsupported "
                    "at %s",
                    name,
                    at,
                    self._untracked_names()[name],
                )
            self._maps[ev.table_id] = None
            return pending
        meta = ev.optional_metadata
        columns = ev.columns
        check_table_map(
            columns,
            plan.expected,
            names=meta.column_name_list or None,
            unsigned=meta.unsigned_column_list or None,
            charsets=_charsets(ev) if meta.charset_collation_list else None,
            flavor=self.source.flavor,
            table=name,
            position=at,
            version=plan.version,
            enums=meta.set_enum_str_value_list or None,
            sets=meta.set_str_value_list or None,
        )
        plan.install(columns)
        self._maps[ev.table_id] = plan
        return pending

    def _on_rows(self, ev: Any, at: BinlogPosition, pending: Any) -> Any:
        if ev.table_id not in self._maps:
            raise SourceConfigError(f"a row event at {at} has no table map before it", position=at)
        plan = self._maps[ev.table_id]
        if plan is None:
            return pending
        if pending is None:
            pending = []  # a transaction without BEGIN (MySQL with GTIDs off and autocommit)
        kind = _ROW_KINDS[type(ev)]
        try:
            rows = ev.rows
        except UnicodeDecodeError as err:
            raise SchemaDriftError(
                f"a text value does not decode with the charset of version {plan.version}: {err}",
                table=plan.table,
                position=at,
            ) from None
        try:
            for change, before, row in _row_changes(plan, kind, rows):
                pending.append((change, plan.table, at, plan.version, row, before, plan.table_id))
        except ValueError as err:  # (a compressed value no server writes, its text undecodable …)
            raise SchemaDriftError(
                f"a value does not decode with version {plan.version}: {err}",
                table=plan.table,
                position=at,
            ) from None
        return pending

    def _on_xid(self, ev: Any, at: BinlogPosition, pending: Any) -> Any:
        return self._commit(pending, at, ev.timestamp)

    def _commit(self, pending: Any, at: BinlogPosition, timestamp: float = 0.0) -> _Group:
        return self._ended(
            tuple(
                Event(kind, table, pos, version, row, before, None, at, tid, self._gtid)
                for kind, table, pos, version, row, before, tid in pending or ()
            ),
            at,
            timestamp,
        )

    def _ended(self, events: tuple[Event, ...], at: BinlogPosition, timestamp: float) -> _Group:
        """The transaction that ends at ``at``, with its GTID."""
        return _Group(events, at, float(timestamp or 0.0), self._gtid)

    def _on_query(self, ev: Any, at: BinlogPosition, pending: Any) -> Any:
        text = ev.query
        verb, names = statement_words(text, _sql_mode(ev))
        if self.catalog.lower_names:  # (the server's names: any case is the lower one)
            names = tuple(map(fold_name, names))
        control = _CONTROL.get(verb)
        upper = " ".join(text.upper().split())
        if control == "begin":
            return []
        if control == "commit" and not upper.startswith(_SAVEPOINTS):
            return self._commit(pending, at, ev.timestamp)
        if upper.startswith(_SAVEPOINTS):
            return pending
        if control == "xa":
            return self._on_xa(text, at, ev, pending)
        schema = _schema(ev)
        if schema is not None and self.catalog.lower_names:
            schema = fold_name(schema)
        if verb in _ROW_STATEMENTS:
            if self._mentions_matched(schema, names):
                raise SourceConfigError(
                    f"a statement-format row change on a followed table at {at} (the session "
                    "set binlog_format to STATEMENT or MIXED, or the table is MariaDB's "
                    "system-versioned by transaction ids, whose changes it logs as statements): "
                    "its rows are not in the binlog",
                    statement=text,
                    position=at,
                )
            return pending
        beside = not_a_table(text, _sql_mode(ev))
        if beside is not None:
            # a view, a trigger, a routine, a user …: no rows, no table's schema
            log.debug("passed over a statement on a %s at %s", beside.lower(), at)
            return self._ended((), at, ev.timestamp) if pending is None else pending
        flags3 = getattr(ev, "mvdd_flags3", 0)
        if flags3 & (library.FL_START_ALTER | library.FL_ROLLBACK_ALTER):
            # a two-phase ALTER: only its COMMIT ALTER changes the schema
            return self._ended((), at, ev.timestamp) if pending is None else pending
        failed = getattr(ev, "error_code", 0)
        if failed:
            # logged with the error it failed on, once it had changed something: of DDL, a
            # CREATE OR REPLACE TABLE that had dropped the table it replaces
            dropped = replaced_drop(text, _sql_mode(ev), self.catalog.flavor)
            if dropped is None:
                why = UnsupportedDDLError(
                    f"the server logged this statement as failed (error {failed}) after it "
                    "changed something: mvdd does not know what it changed"
                )
                self._unreadable(text, verb, schema, names, at, why)
                return self._ended((), at, ev.timestamp) if pending is None else pending
            text = dropped
        elif verb == "DROP":
            text = idempotent_drop(text, _sql_mode(ev), self.catalog.flavor) or text
        events = self._ddl(text, verb, schema, names, at, ev)
        if pending is not None and (pending or not events):
            # a statement inside a transaction after its rows changes nothing a row reader
            # needs (a temporary table's), and ends nothing
            return pending
        # a DDL; or one at the start of a transaction, a CREATE … SELECT with the rows its
        # query gave after it: its table is a transaction of its own, ending where the
        # statement does (a reader resumes there, before the rows), the rows another
        return self._ended(events, at, ev.timestamp)

    # -- XA transactions (mvdd.binlog.xa) -------------------------------------------------------

    def _on_xa(self, text: str, at: BinlogPosition, ev: Any, pending: Any) -> Any:
        """An XA statement: START and END go on with the group that holds the rows; COMMIT
        hands the prepared group's rows out as its own transaction; ROLLBACK drops them."""
        action, xid = xa_statement(text)
        if action not in ("COMMIT", "ROLLBACK") or xid is None:
            return [] if pending is None else pending
        held = self._prepared.pop(xid, None)
        if action == "ROLLBACK":
            return self._ended((), at, ev.timestamp)
        if held is None:  # (prepared before this reader started: read it again)
            held = self._recover_prepared(xid, at)
        return self._commit(held, at, ev.timestamp)

    def _on_xa_prepare(self, ev: Any, at: BinlogPosition, pending: Any) -> Any:
        if ev.one_phase:  # (MySQL's XA COMMIT … ONE PHASE: the group commits here)
            return self._commit(pending, at, ev.timestamp)
        self._prepared[prepared_xid(ev)] = list(pending or ())
        return self._ended((), at, ev.timestamp)

    def _recover_prepared(self, xid: Xid, at: BinlogPosition) -> list[tuple[Any, ...]]:
        """The rows of the group that prepared ``xid``, found in the server's binlog before
        ``at`` and decoded again (on streams of their own, under side ids: :func:`_side_id`)."""
        start = find_prepared(xid, at, self.source.files(), self._scan_events)
        if start is None:
            raise lost_prepare(xid, at)
        log.info("reading the XA PREPARE of %s again at %s", format_xid(xid), start)
        saved = (self._stream, self._stream_connected, self._maps, self._plans, self._gtid)
        self._stream, self._maps, self._plans = None, {}, {}
        # its rows decode with the schemas at the commit: no DDL on a table it holds can commit
        # while it is prepared (its metadata locks stay), and a reader bootstrapped in between
        # knows no earlier version
        self._decode_at = at
        with _side_id(self.server_id) as side:
            groups = self._groups(start, False, None, lambda: False, server_id=side)
            try:
                next(groups, None)  # (the group that starts there ends at its XA_prepare event)
            finally:
                groups.close()
                self._decode_at = None
                self._stream, self._stream_connected, self._maps, self._plans, self._gtid = saved
        held = self._prepared.pop(xid, None)
        if held is None:
            raise lost_prepare(xid, at)
        return held

    def _scan_events(self, file: str) -> Iterator[Any]:
        """The events an XA search reads, from the start of a binlog file on."""
        with _side_id(self.server_id) as side:
            yield from self._side_events(file, side)

    def _side_events(self, file: str, side: int) -> Iterator[Any]:
        start = BinlogPosition(file, 4, self.source.era)
        stream = self._binlog_stream(
            start, server_id=side, blocking=False, events=_SCANNED, connect=_plain_connect
        )
        try:
            while True:
                ev = self._fetch(stream, start)
                if ev is None:
                    return
                yield ev
        finally:
            with contextlib.suppress(Exception):
                stream.close()

    def _time_zone(self, ev: Any) -> str | None:
        """The time zone a query event's session read its TIMESTAMP literals in, when the
        binlog logs one (a statement that used it): an offset or a zone's name, the server's
        own zone for ``SYSTEM`` (:meth:`~mvdd.binlog.source.Source.system_zone`)."""
        raw = getattr(ev, "time_zone", None)
        if not raw:
            return None
        name = raw.decode("ascii", "replace") if isinstance(raw, bytes) else str(raw)
        return self.source.system_zone() if name.upper() == "SYSTEM" else name

    def _unknown(self, ev: Any, at: BinlogPosition) -> None:
        code = ev.event_type
        if code in library.HARMLESS_UNKNOWN or ev.packet.flags & library.LOG_EVENT_IGNORABLE_F:
            return
        what = library.REFUSED_UNKNOWN.get(code, f"type {code}")
        raise SourceConfigError(
            f"a binlog event mvdd cannot decode after {at}: {what}; it is never skipped",
            position=at,
        )

    def _refuse(self, ev: Any, at: BinlogPosition, pending: Any) -> Any:
        what = {
            lr.PartialUpdateRowsEvent: "a partial JSON update (binlog_row_value_options)",
            le.BeginLoadQueryEvent: "a statement-format LOAD DATA",
            le.ExecuteLoadQueryEvent: "a statement-format LOAD DATA",
        }[type(ev)]
        raise SourceConfigError(f"{what} at {at}: its rows cannot be read", position=at)

    def _skip(self, ev: Any, at: BinlogPosition, pending: Any) -> Any:
        return pending

    # -- schemas ----------------------------------------------------------------------------------

    def _plan(self, name: str, at: BinlogPosition) -> Plan:
        """The decoding plan of the version of ``name`` valid at ``at`` (kept until the
        catalog changes or the stream passes the next version's position)."""
        cached = self._plans.get(name)
        # the hot path: one dict lookup and two comparisons (a stream's positions only grow,
        # and the cache is emptied whenever the stream restarts or the catalog changes)
        if cached is not None and cached[2] == self.catalog.seq:
            until = cached[1]
            if until is None or not until < at:
                return cached[0]
        seq = self.catalog.seq
        if self._decode_at is not None:
            at = self._decode_at
        try:
            table = self.catalog.table(name, position=at)
        except (NoSuchTableError, NoSuchVersionError):
            raise SchemaUnknownError(
                "no schema of this table is known at this position (it was created before "
                "the binlog the reader started from): its rows cannot be decoded",
                table=name,
                position=at,
            ) from None
        plan = Plan.of(name, table, self.source.flavor)
        self._plans[name] = (plan, self._valid_until(table), seq)
        return plan

    def _valid_until(self, table: Table) -> Any:
        """The position of the version after ``table`` (None: it is the newest)."""
        for change in self.catalog.history_by_id(table.id):
            if change.version == table.version + 1:
                return change.position
        return None

    def _mentions_matched(self, schema: str | None, names: tuple[str, ...]) -> bool:
        tables = {p.partition(".")[2] for p in self.patterns}
        return any(_fnmatch(n, t) for n in names for t in tables) and (
            self._follows_database(schema) or any(self._follows_database(n) for n in names)
        )

    def _session(self, ev: Any) -> dict[str, Any]:
        """What a query event's session decides of its statement, as
        :meth:`~mvdd.catalog.Catalog.execute` takes it: the charset its client wrote it in, when
        not UTF-8 (:mod:`mvdd.binlog.library`), its sql_mode's bits
        (:class:`~mvdd.ddl.sqlmode.SqlMode`), its time zone where it read a TIMESTAMP's literal
        in it (:mod:`mvdd.model.zone`), its ``explicit_defaults_for_timestamp``, its
        ``collation_server``, its ``character_set_connection`` (a string literal's)."""
        return {
            "charset": ev.mvdd_charset,
            "sql_mode": _sql_mode(ev),
            "time_zone": self._time_zone(ev),
            "explicit_defaults_for_timestamp": _explicit_timestamps(ev, self.source.flavor),
            "server_collation": library.server_collation(
                getattr(ev, "collation_server", None), self.source.flavor
            ),
            "connection_charset": library.client_charset(getattr(ev, "collation_connection", None)),
        }

    def _ddl(
        self,
        text: str,
        verb: str,
        schema: str | None,
        names: tuple[str, ...],
        at: BinlogPosition,
        ev: Any,
    ) -> tuple[Event, ...]:
        """Execute a statement of the followed databases (the query event ``ev``'s) into the
        catalog at ``at``, as its session wrote it (:meth:`_session`); the events of the
        matched tables it changed. A statement in a charset mvdd does not read (bytes that are
        no text of it, or no codec for it: :mod:`mvdd.binlog.library`) is unreadable."""
        session = self._session(ev)
        try:
            statements = self._read_statements(text, schema, ev, session)
        except DDLError as err:
            return self._unreadable(text, verb, schema, names, at, err)
        touched: list[str] = []
        for st in statements:
            touched.extend(st.tables)
            if st.database is not None:
                touched.append(f"{st.database.database or schema}.")
        known = set(self.catalog.tables())
        if not any(self._follows(t, known, at) for t in touched):
            return ()
        try:
            changes = self._execute(text, schema, session, statements, at, ev)
        except MvddError as err:
            matched = [t for t in touched if matches(self.patterns, t)]
            moved = self._untracked_moves(statements)
            if matched and self._only_untracked(matched, moved, err):
                # a table whose CREATE was skipped: its statements are skipped too, and a name
                # it is renamed to is untracked with it
                log.warning("skipped a statement of an untracked table at %s: %s", at, err)
                for name in moved:
                    self._untrack(name, at)
                return ()
            if matched:
                raise err.locate(position=at) from None
            log.warning("ignored a statement of an unmatched table at %s: %s", at, err)
            return ()
        if not changes:
            # read again after a restart: the catalog has it already; its events are the same
            texts = {st.text for st in statements}
            changes = [c for c in self.catalog.changes_at(at) if c.statement in texts]
        self._plans.clear()
        return tuple(self._ddl_events(changes, text, at))

    def _read_statements(
        self, text: str, schema: str | None, ev: Any, session: dict[str, Any]
    ) -> list[Statement]:
        """A query event's statements as the catalog will read them, its tables named (DDLError
        where mvdd does not read them)."""
        if ev.mvdd_unreadable is not None:
            raise DDLParseError(
                f"the statement's client wrote it in {ev.mvdd_unreadable}, which mvdd does "
                "not read it in (its text as UTF-8 is not the statement the server ran)"
            )
        return list(
            iter_statements(
                text,
                default=schema,
                charsets=self.catalog.database_default,
                replica=True,
                flavor=self.catalog.flavor,
                charset=session["charset"],
                sql_mode=session["sql_mode"],
                lower_names=self.catalog.lower_names,
                explicit_defaults_for_timestamp=session["explicit_defaults_for_timestamp"],
                connection_charset=session["connection_charset"],
            )
        )

    def _execute(
        self,
        text: str,
        schema: str | None,
        session: dict[str, Any],
        statements: list[Statement],
        at: BinlogPosition,
        ev: Any,
    ) -> list[Change]:
        """The statement executed into the catalog at ``at``, each table of an unfollowed
        database it needs and the catalog does not hold learned first (:meth:`_learn`)."""
        learned: set[str] = set()
        while True:
            try:
                return self.catalog.execute(text, position=at, database=schema, **session)
            except NoSuchTableError as err:
                name = err.table
                if name is None or name in learned or not self._learn(name, statements, at, ev):
                    raise
                learned.add(name)

    def _learn(self, name: str, statements: list[Statement], at: BinlogPosition, ev: Any) -> bool:
        """Learn the schema of ``name``, a table of a database the patterns do not name (whose
        statements the reader passes over), which the statement at ``at`` on a followed table
        needs: renamed into a followed database (``RENAME TABLE``, ``ALTER TABLE … RENAME``),
        the source of a ``CREATE TABLE … LIKE``, a partition's exchange partner. It is recorded
        at the start of the statement's event (its last version before ``at``), as

        - the server's schema now of the table under the name the statement leaves it (taken
          in a snapshot of it alone), where the statement changes no more than its name and
          rows and the binlog from ``at`` to the snapshot holds no statement that names it (a
          superset of those that change it: :meth:`ddl_tables`; :meth:`_server_schema`);
        - else as the server's binlogs tell its history: its database's statements read from
          the oldest binlog up to ``at`` (:meth:`_read_history`).

        False for a table of a followed database (whose schema the catalog must already hold);
        SchemaUnknownError where neither tells it."""
        database, table = split_name(name)
        if database is None or self._follows_database(database):
            return False
        text, why = self._server_schema(name, statements, at)
        mode: SqlMode | None = SHOWN  # (the server's own text)
        if text is None:
            found, lost = self._read_history(name, at)
            if found is None:
                raise SchemaUnknownError(
                    "a table of a database the patterns do not name, which a statement on a "
                    "followed table needs, is not known at this position: the server's schema "
                    f"now cannot stand for it ({why}) and its binlogs do not tell its history "
                    f"({lost}); name its database in a pattern from the start to have its "
                    "history read",
                    table=name,
                    position=at,
                )
            text, mode, why = render_table(found, name=table), None, "its history in the binlogs"
        before = BinlogPosition(at.file, at.offset - ev.packet.event_size, at.era)
        self.catalog.execute(text, position=before, database=database, sql_mode=mode)
        log.info("learned %s at %s from %s", name, before, why)
        return True

    def _server_schema(
        self, name: str, statements: list[Statement], at: BinlogPosition
    ) -> tuple[str | None, str]:
        """``name``'s CREATE TABLE as the server holds it now, when that is its schema at
        ``at`` (:meth:`_learn`), and where it was taken; else (None, why not)."""
        now = name  # (its name after the statement)
        for st in statements:
            for step in st.steps:
                if step.table != now:
                    continue
                if isinstance(step, s.RenameTable):
                    now = step.to
                elif not isinstance(step, s.TruncateTable):
                    return None, "the statement changes its schema too"
        database, table = split_name(name)
        held = split_name(now)
        snap = self.source.snapshot(self.patterns, table=(held[0] or database or "", held[1]))
        if not snap.tables:
            return None, f"the server holds no table {now} now"
        until = snap.until or snap.position
        if self.ddl_tables(at, until) & {name, now}:
            return None, f"a statement between {at} and the server's {until} names {now}"
        ((_, _, create),) = snap.tables
        return named_create(create, table), f"the server's schema of {now} at {until}"

    def _read_history(self, name: str, at: BinlogPosition) -> tuple[Table | None, str]:
        """``name``'s schema just before ``at`` as the server's binlogs tell it: the statements
        of its database from the oldest binlog the server has up to ``at``, read by a reader
        of that table alone into a catalog of its own (on a stream of its own, under a side id:
        :func:`_side_id`; statements mvdd does not model skipped); (None, why) where they do
        not hold its CREATE (made before the oldest binlog, or its rows met first). The server
        refusing or losing the stream raises (SourceConfigError: it may be read another time)."""
        source = self.source
        oldest = source.oldest()
        log.info("reading %s's history in the binlog from %s to %s", name, oldest, at)
        with _side_id(self.server_id) as side:
            scratch = BinlogReader(
                source,
                tables=glob.escape(name),
                catalog=Catalog(on_unsupported="skip"),
                server_id=side,
                start="beginning",
                retry=source.retry,
            )
            try:
                for _ in scratch.transactions(until=at):
                    pass
                return scratch.catalog.table(name, position=at), ""
            except (SchemaUnknownError, NoSuchTableError, NoSuchVersionError) as err:
                return None, f"from {oldest}: {err}"
            finally:
                scratch.close()

    def _untracked_moves(self, statements: list[Statement]) -> list[str]:
        """The names the statements rename untracked tables to."""
        untracked = self._untracked_names()
        return [
            step.to
            for st in statements
            for step in st.steps
            if isinstance(step, s.RenameTable) and step.table in untracked
        ]

    def _only_untracked(self, matched: list[str], moved: list[str], err: MvddError) -> bool:
        """Whether a statement refused for naming no known table (or a kind mvdd does not
        model) names, of the matched tables, only ones whose CREATE was skipped and the names
        it renames them to."""
        untracked = self._untracked_names()
        return isinstance(err, NoSuchTableError | UnsupportedDDLError) and all(
            t in untracked or t in moved for t in matched
        )

    def _follows(self, table: str, known: set[str], at: BinlogPosition) -> bool:
        """Whether a statement at ``at`` that names ``table`` (``database.`` for a database's
        own statement) is read into the catalog: one of a followed database, or of a table the
        catalog holds elsewhere (renamed out of a followed database, or learned:
        :meth:`_learn`) and held there before ``at``, so that the catalog keeps such a table as
        the server has it (a statement read again from before it was held, a restart's, is of
        a past the catalog does not keep); a database's statement where the catalog holds
        tables of it (its ``DROP DATABASE`` drops them)."""
        database, name = split_name(table)
        if self._follows_database(database):
            return True
        if table in known:
            try:
                self.catalog.table(table, position=at)
            except (NoSuchTableError, NoSuchVersionError):
                return False
            return True
        return not name and any(split_name(k)[0] == database for k in known)

    def _ddl_events(self, changes: list[Change], text: str, at: BinlogPosition) -> Iterator[Event]:
        for change in changes:
            name = change.table
            if not matches(self.patterns, name):
                renamed = [
                    st.table
                    for st in change.steps
                    if isinstance(st, s.RenameTable) and st.to == name
                ]
                if not (renamed and matches(self.patterns, renamed[0])):
                    continue
                name = renamed[0]  # renamed out of the pattern: its last event, old name
            yield Event(
                EventKind.DDL,
                name,
                at,
                change.version,
                None,
                None,
                text,
                at,
                change.table_id,
                gtid=self._gtid,
            )

    def _unreadable(
        self,
        text: str,
        verb: str,
        schema: str | None,
        names: tuple[str, ...],
        at: BinlogPosition,
        err: MvddError,
    ) -> tuple[Event, ...]:
        if not self._mentions_matched(schema, names):
            return ()
        if self.catalog.on_unsupported == "skip":
            log.warning("skipped a statement on a followed table at %s: %s", at, err)
            created = err.table if verb == "CREATE" else None
            if isinstance(err, UnsupportedDDLError) and created and matches(self.patterns, created):
                self._untrack(created, at)
            return ()
        raise err.locate(statement=text, position=at)

    def _untracked_names(self) -> dict[str, str]:
        if self._untracked is None:
            self._untracked = dict(self.catalog.store.get_state(UNTRACKED) or {})
        return self._untracked

    def _untrack(self, name: str, at: BinlogPosition) -> None:
        """Remember that ``name``'s CREATE was skipped: its rows are skipped too (kept in the
        store before the reader moves past ``at``, so a restart knows it)."""
        untracked = self._untracked_names()
        if name not in untracked:
            untracked[name] = str(at)
            self.catalog.store.set_state(UNTRACKED, untracked)


#: the replica ids this process's side streams hold now (a server refuses a stream registered
#: under an id another holds, or drops that one), and how many follow a reader's own id
_SIDE_HELD: set[int] = set()
_SIDE_LOCK = threading.Lock()
_SIDE_IDS = 8
_side_turn = itertools.count()


@contextlib.contextmanager
def _side_id(base: int) -> Iterator[int]:
    """A replica id for a stream beside a reader's own (``base``): one of the
    :data:`_SIDE_IDS` after it (before it at the top of the range), none another stream of
    this process holds, taken in turn (a server may keep a closed stream's registration a
    moment); SourceConfigError when all are held."""
    with _SIDE_LOCK:
        turn = next(_side_turn)
        for k in range(_SIDE_IDS):
            step = 1 + (turn + k) % _SIDE_IDS
            side = base + step if base + _SIDE_IDS < 2**32 else base - step
            if side not in _SIDE_HELD:
                _SIDE_HELD.add(side)
                break
        else:
            raise SourceConfigError(
                f"the {_SIDE_IDS} side streams of replica {base} are all open (server_id + 1 "
                f"… + {_SIDE_IDS})"
            )
    try:
        yield side
    finally:
        with _SIDE_LOCK:
            _SIDE_HELD.discard(side)


def _moves(step: s.Step, name: str) -> bool:
    """Whether a step takes the table name ``name`` from a table or gives it to one."""
    if isinstance(step, s.RenameTable):
        return name in (step.table, step.to)
    if isinstance(step, s.CreateTable | s.CreateTableLike):
        return step.table == name and not step.if_not_exists
    return isinstance(step, s.DropTable) and step.table == name


#: the library's event classes -> what the reader does with them
_HANDLERS: dict[type, Any] = {
    le.QueryEvent: BinlogReader._on_query,
    le.XidEvent: BinlogReader._on_xid,
    le.MariadbGtidEvent: BinlogReader._on_gtid,
    lr.TableMapEvent: BinlogReader._on_table_map,
    lr.WriteRowsEvent: BinlogReader._on_rows,
    lr.UpdateRowsEvent: BinlogReader._on_rows,
    lr.DeleteRowsEvent: BinlogReader._on_rows,
    le.XAPrepareEvent: BinlogReader._on_xa_prepare,
    lr.PartialUpdateRowsEvent: BinlogReader._refuse,
    le.BeginLoadQueryEvent: BinlogReader._refuse,
    le.ExecuteLoadQueryEvent: BinlogReader._refuse,
    **dict.fromkeys(
        (
            le.FormatDescriptionEvent,
            le.StopEvent,
            le.GtidEvent,
            le.PreviousGtidsEvent,
            le.MariadbGtidListEvent,
            le.MariadbBinLogCheckPointEvent,
            le.MariadbAnnotateRowsEvent,
            le.MariadbStartEncryptionEvent,
            le.RowsQueryLogEvent,
            le.IntvarEvent,
            le.RandEvent,
            le.UserVarEvent,
        ),
        BinlogReader._skip,
    ),
}


def _fnmatch(name: str, pattern: str) -> bool:
    import fnmatch

    return fnmatch.fnmatchcase(name, pattern)


def _schema(ev: Any) -> str | None:
    raw = ev.schema
    text = raw.decode("utf-8", "surrogateescape") if isinstance(raw, bytes) else str(raw or "")
    return text or None


#: MariaDB's bit of a query event's flags2 for the session's explicit_defaults_for_timestamp
OPTION_EXPLICIT_DEF_TIMESTAMP = 1 << 24


def _may_hide(table: Table) -> list[str]:
    """The ENUM and SET columns of a table read from SHOW CREATE TABLE whose ``?`` members
    may be characters beyond the BMP (their charset holds some) or bytes their charset does
    not read (which a member keeps: :func:`~mvdd.model.encoding.kept_text`), which that text
    writes as ``?``."""
    return [f"`{col.name}`" for col in table.columns if any("?" in m for m in col.type.members)]


def _explicit_timestamps(ev: Any, flavor: str) -> bool:
    """A query event's session's ``explicit_defaults_for_timestamp``: MariaDB logs it as a bit
    of the event's flags2; MySQL 8 as a status variable of its own (an event without either
    is read as the default of both servers' current releases, on)."""
    if flavor == "mariadb" and getattr(ev, "flags2", None) is not None:
        return bool(ev.flags2 & OPTION_EXPLICIT_DEF_TIMESTAMP)
    logged = getattr(ev, "explicit_defaults_ts", None)
    return True if logged is None else bool(logged)


def _sql_mode(ev: Any) -> int | None:
    """A query event's session sql_mode, its bits as logged (None: none logged)."""
    return getattr(ev, "sql_mode", None)


def _charsets(ev: Any) -> list[int | None]:
    """The collation id of each column the table map gives one for (None for the others)."""
    ids = iter(ev.optional_metadata.charset_collation_list or ())
    dbms = ev.dbms or "mysql"
    return [
        next(ids, None) if lr.TableMapEvent._is_character_column(c.type, dbms=dbms) else None
        for c in ev.columns
    ]


def _message(err: BaseException) -> str:
    return str(err.args[-1]) if err.args else str(err)


__all__ = ["BinlogReader", "BinlogTransaction", "Event", "EventKind", "Snapshot"]
