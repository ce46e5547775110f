"""The upstream server a binlog reader follows: its address, what it is, whether it can be read
correctly, and a consistent snapshot of its schemas.

:meth:`Source.problems` lists every reason the server's binlog cannot be decoded correctly
(binary log off, not ROW format, not FULL row images, MySQL's compressed transactions, missing
privileges, a start position no longer on the server, a snapshot method the server does not offer);
:meth:`Source.snapshot` takes the schemas of a set of databases and the binlog position they
hold at, in one consistent state, by one of two methods:

- consistent (MariaDB's default): ``START TRANSACTION WITH CONSISTENT SNAPSHOT`` gives the
  position (``binlog_snapshot_file`` / ``binlog_snapshot_position``) without locking anything;
  each table is then read once inside the transaction, which holds its metadata lock, so no DDL
  on it can commit until the snapshot ends. A DDL that committed between the snapshot's start
  and those locks would be in ``SHOW CREATE TABLE`` but after the position: the caller checks
  the binlog between the two positions (:attr:`Snapshot.until`) and takes the snapshot again if
  it finds one.
- locked (MySQL's only way, MySQL has no snapshot position of its own; on MariaDB by the
  address's ``snapshot=locked``): ``FLUSH TABLES WITH READ LOCK`` for the moment it takes to
  start the snapshot transaction, read the position and read each table (taking its metadata
  lock, as above), as ``mysqldump --single-transaction --master-data`` does. Nothing commits
  meanwhile, so the position is exact for every engine; MariaDB's consistent snapshot is exact
  for transactional engines only (a MyISAM table's rows need the lock). The lock needs the
  RELOAD privilege and waits at most :attr:`Source.lock_wait` seconds.

The address chooses the method (``mysql://…/?snapshot=consistent|locked``); without it the
server's kind does (:data:`DEFAULT_SNAPSHOT`).

A server that cannot be reached (a restart, a network cut, one not up yet) is waited for:
every question and the snapshot itself are asked again on a new connection until it answers,
up to :attr:`Source.retry` seconds (:class:`Outage`, each try logged as a warning), then a
SourceConfigError says it is unreachable (``retry=0``: at once). A refused login is never
waited for. The rows of a snapshot cannot be read on another connection: losing it raises
:class:`~mvdd.errors.SourceLost`, and the caller starts over from its last checkpoint.
"""

from __future__ import annotations

import contextlib
import fnmatch
import logging
import re
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

import attrs
import pymysql

from mvdd.ddl.dml import (
    count_rows,
    defaults_query,
    key_params,
    lock_table,
    select_template,
    show_create,
    show_create_database,
)
from mvdd.ddl.statement import with_kept_defaults
from mvdd.errors import DDLError, MvddError, SourceConfigError, SourceLost
from mvdd.model import BinlogPosition, Column
from mvdd.model.position import gtid_state
from mvdd.model.zone import session_zone
from mvdd.store.address import Address, parse_address
from mvdd.store.mysql import connection_lost

log = logging.getLogger("mvdd.binlog")
T = TypeVar("T")

#: databases a pattern never means, whatever it says
SYSTEM_DATABASES = frozenset({"mysql", "information_schema", "performance_schema", "sys"})

#: server settings a correct read needs: variable -> (accepted values, why)
REQUIRED_SETTINGS: dict[str, tuple[frozenset[str], str]] = {
    "log_bin": (frozenset({"ON", "1"}), "the binary log is off (start the server with --log-bin)"),
    "binlog_format": (
        frozenset({"ROW"}),
        "binlog_format is {value}: only ROW events carry the rows (set binlog_format=ROW)",
    ),
    "binlog_row_image": (
        frozenset({"FULL"}),
        "binlog_row_image is {value}: MINIMAL, NOBLOB and FULL_NODUP leave columns out of the "
        "row images (set binlog_row_image=FULL)",
    ),
}
#: server settings that must be off: variable -> why
FORBIDDEN_SETTINGS: dict[str, str] = {
    "binlog_transaction_compression": (
        "binlog_transaction_compression is ON: mysql-replication cannot decode MySQL's "
        "compressed transaction payloads (set binlog_transaction_compression=OFF)"
    ),
    "binlog_row_value_options": (
        "binlog_row_value_options is {value}: partial JSON updates leave values out of the "
        "row images (set binlog_row_value_options='')"
    ),
}
#: the privileges a reader needs, and which one ALL PRIVILEGES stands for
PRIVILEGES = ("REPLICATION SLAVE", "SELECT")

#: how long the locked snapshot waits for its read lock (a long statement holding a table
#: makes it wait, and every write waits behind it: better to fail and say so)
LOCK_WAIT_SECONDS = 10
#: what to do when the read lock is refused, by the server's error code
_LOCK_HINTS = {
    1227: "the user needs the RELOAD privilege (on MariaDB, snapshot=consistent needs none)",
    1205: "a statement held a table for longer than the wait (Source.lock_wait); try again "
    "when the server is quieter",
}

#: how a snapshot is taken when the address does not say (``?snapshot=…``), by server kind
DEFAULT_SNAPSHOT = {"mariadb": "consistent", "mysql": "locked"}
#: the methods each server kind offers
SNAPSHOT_METHODS = {"mariadb": ("consistent", "locked"), "mysql": ("locked",)}
#: the query options a source's address may carry besides the connection's
SOURCE_OPTIONS = ("snapshot",)

#: the statement that tells where a server's binlog ends: (kind, from version, statement),
#: the newest first within a kind. MySQL 8.4 dropped ``SHOW MASTER STATUS`` (8.2 named its
#: successor); MariaDB keeps it beside ``SHOW BINLOG STATUS`` (10.5.2).
POSITION_STATEMENTS: tuple[tuple[str, tuple[int, ...], str], ...] = (
    ("mysql", (8, 2), "SHOW BINARY LOG STATUS"),
    ("mysql", (0,), "SHOW MASTER STATUS"),
    ("mariadb", (10, 5, 2), "SHOW BINLOG STATUS"),
    ("mariadb", (0,), "SHOW MASTER STATUS"),
)


def server_version(text: str) -> tuple[int, ...]:
    """The release numbers of ``SELECT VERSION()`` (MariaDB's old ``5.5.5-`` prefix skipped).

    >>> server_version("10.11.6-MariaDB-0+deb12u1-log"), server_version("8.4.3")
    ((10, 11, 6), (8, 4, 3))
    """
    if text.startswith("5.5.5-"):
        text = text[len("5.5.5-") :]
    found = re.match(r"\d+(?:\.\d+)*", text)
    return tuple(int(n) for n in found.group().split(".")) if found else (0,)


def server_flavor(text: str) -> str:
    """``"mariadb"`` or ``"mysql"``, from ``SELECT VERSION()``.

    >>> server_flavor("10.11.6-MariaDB-0+deb12u1-log"), server_flavor("8.4.3")
    ('mariadb', 'mysql')
    """
    return "mariadb" if "mariadb" in text.lower() else "mysql"


def position_statement(flavor: str, version: tuple[int, ...]) -> str:
    """The statement that reads the binlog's end on this server.

    >>> position_statement("mysql", (8, 4, 3)), position_statement("mysql", (8, 0, 36))
    ('SHOW BINARY LOG STATUS', 'SHOW MASTER STATUS')
    """
    return next(
        sql for kind, since, sql in POSITION_STATEMENTS if kind == flavor and version >= since
    )


def source_address(url: str) -> Address:
    """A source server's address (``database`` optional, ``snapshot`` one of the methods)."""
    address = parse_address(url, database=None, options=SOURCE_OPTIONS, error=SourceConfigError)
    method, known = address.option("snapshot"), sorted(set().union(*SNAPSHOT_METHODS.values()))
    if method is not None and method not in known:
        raise SourceConfigError(f"{address.description}: snapshot={method!r} is not one of {known}")
    return address


def parse_tables(tables: str | Sequence[str]) -> tuple[str, ...]:
    """The ``database.table`` fnmatch patterns a reader follows; SourceConfigError if one is
    not such a pattern."""
    patterns = (tables,) if isinstance(tables, str) else tuple(tables)
    if not patterns:
        raise SourceConfigError("no table pattern given (e.g. tables='shop.orders_*')")
    for p in patterns:
        if not isinstance(p, str) or p.count(".") < 1 or p.startswith(".") or p.endswith("."):
            raise SourceConfigError(
                f"table pattern {p!r} is not 'database.table' (fnmatch patterns, e.g. "
                "'shop.orders_*')"
            )
    return patterns


def matches(patterns: Sequence[str], name: str) -> bool:
    """Whether ``database.table`` matches one of the patterns (case-sensitive, as table names
    are on Linux servers)."""
    return any(fnmatch.fnmatchcase(name, p) for p in patterns)


def database_patterns(patterns: Sequence[str]) -> tuple[str, ...]:
    """The database parts of the patterns (fnmatch patterns too)."""
    return tuple(p.partition(".")[0] for p in patterns)


@attrs.define
class Outage:
    """How long a server has been lost, across the tries to reach it again: :meth:`wait`
    sleeps before the next try (longer as the outage lasts, at most 2 s) and raises ``error``
    once it has lasted ``retry`` seconds (None: never); :meth:`over` ends it (the server
    answered). The one waiting rule for every server mvdd reaches: an upstream's binlog stream
    and questions, and the replicator's downstream.

    >>> outage = Outage("the downstream", retry=0.0, error=MvddError)
    >>> outage.wait(OSError("gone"))  # the first try of an outage waits (0.1 s)
    >>> outage.wait(OSError("gone"))
    Traceback (most recent call last):
    ...
    mvdd.errors.MvddError: the downstream is unreachable for 0 s: gone
    """

    what: str
    retry: float | None
    #: raised once the outage has lasted ``retry`` seconds
    error: type[MvddError] = SourceConfigError
    #: asked before each wait: True ends the waiting at once, raising the lost error itself
    stop: Callable[[], bool] | None = None
    since: float | None = None

    def wait(self, lost: BaseException, **place: Any) -> None:
        now = time.monotonic()
        if self.since is None:
            self.since = now
        if self.stop is not None and self.stop():
            raise lost
        if self.retry is not None and now - self.since > self.retry:
            raise self.error(
                f"{self.what} is unreachable for {self.retry:g} s: {lost}", **place
            ) from None
        log.warning("%s: %s; trying again", self.what, lost)
        time.sleep(min(2.0, 0.1 + (now - self.since) / 4))

    def over(self) -> None:
        self.since = None


@attrs.frozen
class Snapshot:
    """Schemas taken in one consistent state: ``position`` is where the binlog stood;
    ``until`` the binlog position once every table was locked (MariaDB), to be checked for DDL
    in between; ``databases`` each followed database's ``SHOW CREATE DATABASE``; ``tables``
    each table's ``SHOW CREATE TABLE`` by ``database.table``."""

    position: BinlogPosition
    until: BinlogPosition | None
    databases: tuple[tuple[str, str], ...]
    tables: tuple[tuple[str, str, str], ...]  # (database, table, CREATE TABLE)


class Source:
    """An upstream server, reached through its address (``mysql://user:password@host:port/``,
    also ``mariadb://`` and ``?unix_socket=PATH``). Nothing connects until a method needs to."""

    def __init__(self, url: str, *, retry: float | None = 30.0) -> None:
        self.address: Address = source_address(url)
        self._flavor: str | None = None
        self._version: tuple[int, ...] = (0,)
        self._system_zone: str | None = None
        self._lower_names = False
        #: seconds the locked snapshot waits for its read lock before it fails
        self.lock_wait = LOCK_WAIT_SECONDS
        #: seconds a lost server is waited for before a question gives up (None: for ever)
        self.retry = retry
        #: the era of this server's positions (:class:`~mvdd.model.position.BinlogPosition`):
        #: the positions it gives are of it; a reader sets it once it knows where this server's
        #: history stands against the positions it resumes from (:meth:`resume_point`)
        self.era = 0

    @property
    def description(self) -> str:
        return self.address.description

    # -- connections ----------------------------------------------------------------------------

    def connect_options(self) -> dict[str, Any]:
        return self.address.connect_options(database=False)

    def _connect(self) -> Any:
        """A new connection; SourceLost if the server cannot be reached now, SourceConfigError
        naming the server if it refuses the login (never the password)."""
        try:
            return pymysql.connect(**self.connect_options())
        except (pymysql.MySQLError, OSError) as err:
            kind = SourceLost if connection_lost(err) else SourceConfigError
            raise kind(f"cannot connect to {self.description}: {_message(err)}") from None

    def _open(self, first: Callable[[Any], T]) -> tuple[Any, T]:
        """A new connection, left open, and what ``first(cursor)`` read on it; a server lost
        on the way is waited for (:attr:`retry`) and ``first`` asked again from the start."""
        outage = Outage(self.description, self.retry)
        while True:
            try:
                conn = self._connect()
                try:
                    with conn.cursor() as cur:
                        return conn, first(cur)
                except BaseException as err:
                    _close(conn)
                    if isinstance(err, pymysql.MySQLError) and connection_lost(err):
                        raise SourceLost(f"{self.description} went away: {_message(err)}") from None
                    raise
            except SourceLost as lost:
                outage.wait(lost)

    def _ask(self, question: Callable[[Any], T]) -> T:
        """``question(cursor)`` on a connection of its own (see :meth:`_open`)."""
        conn, answer = self._open(question)
        _close(conn)
        return answer

    def _identify(self, cur: Any) -> None:
        if self._flavor is None:
            cur.execute("SELECT VERSION()")
            (version,) = cur.fetchone()
            self._version = server_version(str(version))
            self._flavor = server_flavor(str(version))
            cur.execute("SELECT @@lower_case_table_names")
            (lower,) = cur.fetchone()
            self._lower_names = int(lower) != 0

    @property
    def flavor(self) -> str:
        """``"mariadb"`` or ``"mysql"``."""
        if self._flavor is None:
            self._ask(self._identify)
        assert self._flavor is not None
        return self._flavor

    @property
    def lower_names(self) -> bool:
        """Whether the server keeps its table and database names in lower case and compares
        them so (``lower_case_table_names`` 1, or 2, where it compares them so)."""
        if self._flavor is None:
            self._ask(self._identify)
        return self._lower_names

    # -- facts ----------------------------------------------------------------------------------

    def binlogs(self, cur: Any) -> list[tuple[str, int]]:
        """(file, size) of every binlog file the server still has, oldest first."""
        cur.execute("SHOW BINARY LOGS")
        return [(str(r[0]), int(r[1])) for r in cur.fetchall()]

    def files(self) -> list[str]:
        """The binlog files the server still has, oldest first."""
        return [name for name, _ in self._ask(self.binlogs)]

    def end(self) -> BinlogPosition:
        """Where the server's binlog ends now."""
        return self._ask(self._end)

    def _end(self, cur: Any) -> BinlogPosition:
        self._identify(cur)
        assert self._flavor is not None
        cur.execute(position_statement(self._flavor, self._version))
        row = cur.fetchone()
        if row is None:
            raise SourceConfigError(f"{self.description}: the binary log is off")
        return BinlogPosition(str(row[0]), int(row[1]), self.era)

    def gtid_at(self, position: BinlogPosition) -> str | None:
        """MariaDB's GTID position at ``position`` (``BINLOG_GTID_POS``: each replication
        domain's last GTID before it, :func:`~mvdd.model.position.gtid_after`'s form; ``''``
        before the first): None from MySQL, where the server no longer has the file, or for a
        position of another era (another server's place)."""
        if position.era != self.era:
            return None
        return self._ask(lambda cur: self._gtid_at(cur, position))

    def _gtid_at(self, cur: Any, position: BinlogPosition) -> str | None:
        self._identify(cur)
        if self._flavor != "mariadb":
            return None
        cur.execute("SELECT BINLOG_GTID_POS(%s, %s)", (position.file, position.offset))
        (found,) = cur.fetchone()
        return None if found is None else _text(found)

    def holds(self, position: BinlogPosition, gtid: str) -> bool:
        """Whether this server holds MariaDB's GTID position ``gtid`` at ``position`` (a place
        in the history it was read at; False for a position of another era)."""
        return _same_history(self.gtid_at(position), gtid)

    def resume_point(self, start: BinlogPosition, gtid: str | None) -> BinlogPosition:
        """Where reading goes on on this server after ``start``, a position that MariaDB's GTID
        position ``gtid`` held at (in the server's history, where the reader left it), and
        this server's :attr:`era` set to its positions'.

        The server holds ``start``'s place in that history (its GTID position there is
        ``gtid``): ``start`` itself, of its era. It does not (another server at the address: a
        replica promoted by a failover, a server restored from a backup, or its binlog reset):
        the place in this server's binlog where its GTID position reaches ``gtid``, of the
        next era; SourceConfigError if its binlog has no such place (it lacks transactions
        the reader has read, or has others in their stead). Without ``gtid``, or from MySQL,
        ``start`` is taken as it is."""
        if gtid is None:
            self.era = start.era
            return start

        def ask(cur: Any) -> BinlogPosition:
            self._identify(cur)
            if self._flavor != "mariadb":
                self.era = start.era
                return start
            here = self._gtid_at(cur, start)
            if _same_history(here, gtid):
                self.era = start.era
                return start
            found = self._reaching(cur, gtid_state(gtid))
            if isinstance(found, str):  # ("purged")
                raise SourceConfigError(
                    f"{self.description} no longer has the binlog of the GTID position "
                    f"{gtid!r} (where the reader left it, at {start}): its oldest binlog starts "
                    "past it, the binlog it needs was purged",
                    position=start,
                )
            if found is None:
                raise SourceConfigError(
                    f"{self.description} is not the server the reader left at {start} (its "
                    f"GTID position there is {here!r}, not {gtid!r}), and its binlog never "
                    f"reaches the GTID position {gtid!r}: it lacks transactions read from the "
                    "server before it, or holds others in their place",
                    position=start,
                )
            self.era = start.era + 1
            log.warning(
                "%s holds the history the reader left at %s (GTID position %s) at %s: "
                "reading goes on there (positions of era %d)",
                self.description,
                start,
                gtid,
                found,
                self.era,
            )
            return BinlogPosition(found[0], found[1], self.era)

        return self._ask(ask)

    def _reaching(self, cur: Any, wanted: dict[int, str]) -> tuple[str, int] | str | None:
        """The first place in the server's binlog where each replication domain of ``wanted``
        has its GTID there last (the start of the next transaction's GTID event, or a file's
        end): the newest file that starts before it (its Gtid_list event), read event by event
        (``SHOW BINLOG EVENTS``, a page at a time). None: no such place; ``"purged"``: every
        binlog file the server has starts past it. (No GTID at all: the start of the history,
        the oldest file if nothing came before it.)"""
        files = self.binlogs(cur)
        for i, (name, size) in enumerate(reversed(files)):
            cur.execute("SHOW BINLOG EVENTS IN %s LIMIT 3", (name,))
            head = [r for r in cur.fetchall() if str(r[2]) == "Gtid_list"]
            state = gtid_state(str(head[0][5]).strip("[]")) if head else {}
            if not wanted:
                if i < len(files) - 1:
                    continue
                return (name, 4) if not state else "purged"
            if any(_sequence(state.get(d)) > _sequence(g) for d, g in wanted.items()):
                continue  # (this file starts past it: an older one may hold it)
            offset = 4
            while True:
                cur.execute(
                    "SHOW BINLOG EVENTS IN %s FROM %s LIMIT %s", (name, offset, _EVENTS_PAGE)
                )
                rows = cur.fetchall()
                for row in rows:
                    if str(row[2]) != "Gtid":
                        continue
                    if all(state.get(d) == g for d, g in wanted.items()):
                        return name, int(row[1])
                    m = _GTID_EVENT.search(str(row[5]))
                    if m is not None:
                        domain = int(m.group(1).split("-", 1)[0])
                        state[domain] = m.group(1)
                if len(rows) < _EVENTS_PAGE:
                    break
                offset = int(rows[-1][4])  # (the last one's end: the next one's start)
            if all(state.get(d) == g for d, g in wanted.items()):
                return name, size
            return None  # (the newest file that starts before it does not reach it)
        return "purged" if files else None

    def server_charset(self) -> tuple[str, str]:
        """The server's default charset and collation (what a database created without one
        takes)."""

        def ask(cur: Any) -> tuple[str, str]:
            cur.execute("SELECT @@global.character_set_server, @@global.collation_server")
            charset, collation = cur.fetchone()
            return str(charset), str(collation)

        return self._ask(ask)

    def system_zone(self) -> str:
        """The server's system time zone (what a session's ``SYSTEM`` zone is): its name when
        Python's zone database knows it (``UTC``, ``Europe/Berlin``), else the offset it has
        now (``CST`` is ``+08:00`` on one machine, ``-06:00`` on another), which does not
        follow a clock change: a warning says so. Asked once per source."""
        if self._system_zone is None:

            def ask(cur: Any) -> tuple[str, str]:
                cur.execute(
                    "SELECT @@system_time_zone, "
                    "TIMEDIFF(CONVERT_TZ(UTC_TIMESTAMP(), '+00:00', 'SYSTEM'), UTC_TIMESTAMP())"
                )
                name, offset = cur.fetchone()
                return str(name), str(offset)

            name, offset = self._ask(ask)
            try:
                session_zone(name)
                self._system_zone = name
            except DDLError:
                hours, minutes = offset.lstrip("-").split(":")[:2]
                sign = "-" if offset.startswith("-") else "+"
                self._system_zone = f"{sign}{int(hours):02d}:{minutes}"
                log.warning(
                    "%s: the system time zone %r is no zone name Python knows; its TIMESTAMP "
                    "literals are read at its offset now, %s, whatever the date",
                    self.description,
                    name,
                    self._system_zone,
                )
        return self._system_zone

    def oldest(self) -> BinlogPosition:
        """The start of the oldest binlog file the server has."""
        files = self._ask(self.binlogs)
        if not files:
            raise SourceConfigError(f"{self.description}: the server has no binlog files")
        return BinlogPosition(files[0][0], 4, self.era)

    def databases(self, patterns: Sequence[str]) -> list[str]:
        """The server's databases the patterns' database parts name (system ones excepted)."""

        def ask(cur: Any) -> list[str]:
            cur.execute("SHOW DATABASES")
            return [str(r[0]) for r in cur.fetchall()]

        names = self._ask(ask)
        dbs = database_patterns(patterns)
        return sorted(
            n
            for n in names
            if n not in SYSTEM_DATABASES and any(fnmatch.fnmatchcase(n, p) for p in dbs)
        )

    def database_ddl(self, database: str) -> str:
        """``SHOW CREATE DATABASE`` (the server's own text)."""

        def ask(cur: Any) -> str:
            cur.execute(show_create_database(database))
            return str(cur.fetchone()[1])

        return self._ask(ask)

    def column_names(self, table: tuple[str, str]) -> list[str] | None:
        """The names of a table's columns as the server has them now, in their order; None
        when the table does not exist."""

        def ask(cur: Any) -> list[str] | None:
            cur.execute(
                "SELECT column_name FROM information_schema.columns WHERE table_schema = %s "
                "AND table_name = %s ORDER BY ordinal_position",
                table,
            )
            found = [str(r[0]) for r in cur.fetchall()]
            return found or None  # (a table has a column at least)

        return self._ask(ask)

    # -- pre-checks -----------------------------------------------------------------------------

    def problems(self, start: BinlogPosition | None = None) -> list[str]:
        """Every reason this server's binlog cannot be read correctly (empty: none)."""
        return self._ask(lambda cur: self._problems(cur, start))

    def _problems(self, cur: Any, start: BinlogPosition | None) -> list[str]:
        out: list[str] = []
        self._identify(cur)
        names = (*REQUIRED_SETTINGS, *FORBIDDEN_SETTINGS)
        cur.execute(
            "SHOW GLOBAL VARIABLES WHERE Variable_name IN (" + ", ".join(["%s"] * len(names)) + ")",
            names,
        )
        values = {str(k).lower(): str(v) for k, v in cur.fetchall()}
        for name, (accepted, why) in REQUIRED_SETTINGS.items():
            value = values.get(name)
            if value is None or value.upper() not in accepted:
                out.append(why.format(value=value))
        for name, why in FORBIDDEN_SETTINGS.items():
            value = values.get(name)
            if value is not None and value.upper() not in ("OFF", "0", ""):
                out.append(why.format(value=value))
        out.extend(self._privilege_problems(cur))
        method = self._method_problem()
        if method is not None:
            out.append(method)
        if start is not None and not out:
            out.extend(self._start_problems(cur, start))
        return out

    def _privilege_problems(self, cur: Any) -> list[str]:
        cur.execute("SHOW GRANTS")
        grants = " ".join(str(r[0]).upper() for r in cur.fetchall())
        if "ALL PRIVILEGES ON *.*" in grants:
            return []
        missing = [p for p in PRIVILEGES if p not in grants]
        if "SELECT" in missing and "SELECT ON" in grants:
            missing.remove("SELECT")  # granted on some databases: the snapshot says if enough
        need_client = not any(
            p in grants for p in ("REPLICATION CLIENT", "BINLOG MONITOR", "SUPER")
        )
        out = [f"the user lacks the {p} privilege" for p in missing]
        if need_client:
            out.append(
                "the user lacks the REPLICATION CLIENT (MariaDB: BINLOG MONITOR) privilege to "
                "read the binlog position"
            )
        return out

    def _start_problems(self, cur: Any, start: BinlogPosition) -> list[str]:
        files = dict(self.binlogs(cur))
        if start.file not in files:
            have = ", ".join(list(files)[:1] + (["…", list(files)[-1]] if len(files) > 1 else []))
            return [
                f"the start position {start} is no longer on the server (it has {have}): "
                "the binlog it needs was purged"
            ]
        if start.offset > files[start.file]:
            return [f"the start position {start} is past the end of {start.file}"]
        return []

    def check(self, start: BinlogPosition | None = None) -> None:
        """SourceConfigError listing every problem :meth:`problems` finds."""
        found = self.problems(start)
        if found:
            raise SourceConfigError(
                f"{self.description} cannot be read correctly: " + "; ".join(found),
                problems=found,
            )

    # -- the snapshot -----------------------------------------------------------------------------

    def snapshot(
        self, patterns: Sequence[str], *, table: tuple[str, str] | None = None
    ) -> Snapshot:
        """The schemas of every table in the databases the patterns name (``table``: of that
        one table alone), and the binlog position they hold at (see the module docstring)."""
        with self.snapshot_session(patterns, table=table) as (snap, _):
            return snap

    @contextlib.contextmanager
    def snapshot_session(
        self, patterns: Sequence[str], *, table: tuple[str, str] | None = None
    ) -> Iterator[tuple[Snapshot, Rows]]:
        """:meth:`snapshot`, with its transaction held open while the block runs: rows read
        through the :class:`Rows` it gives are the rows at the snapshot's position. Each table
        is read once inside the transaction, whose metadata lock it then holds: no DDL on it
        commits until the block ends (with the locked method too, where the read lock is let
        go once the snapshot transaction has started). ``table`` ((database, table), the
        patterns then left aside): that one table's schema alone, and its lock alone held (a
        shard read again); the snapshot's tables are empty when it does not exist."""

        def take(cur: Any) -> Snapshot:
            self._identify(cur)
            method = {"consistent": self._consistent, "locked": self._locked}
            return method[self.snapshot_method](cur, patterns, table)

        conn, snap = self._open(take)
        try:
            yield snap, Rows(conn, self.description)
        finally:
            with contextlib.suppress(Exception), conn.cursor() as cur:
                cur.execute("COMMIT")
            _close(conn)

    @property
    def snapshot_method(self) -> str:
        """How a snapshot is taken here: the address's ``snapshot`` option, else
        :data:`DEFAULT_SNAPSHOT` for the server's kind; SourceConfigError if the server does
        not offer the method asked for."""
        problem = self._method_problem()
        if problem:
            raise SourceConfigError(f"{self.description}: {problem}")
        return self.address.option("snapshot") or DEFAULT_SNAPSHOT[self.flavor]

    def _method_problem(self) -> str | None:
        method, offered = self.address.option("snapshot"), SNAPSHOT_METHODS[self.flavor]
        if method is None or method in offered:
            return None
        return f"a {self.flavor} server offers no {method} snapshot (snapshot={'|'.join(offered)})"

    def _consistent(
        self, cur: Any, patterns: Sequence[str], table: tuple[str, str] | None
    ) -> Snapshot:
        cur.execute("START TRANSACTION WITH CONSISTENT SNAPSHOT")
        cur.execute("SHOW STATUS LIKE 'binlog_snapshot_%'")
        status = {str(k).lower(): str(v) for k, v in cur.fetchall()}
        position = BinlogPosition(
            status["binlog_snapshot_file"], int(status["binlog_snapshot_position"]), self.era
        )
        databases, tables = self._schemas(cur, patterns, table)
        return Snapshot(position, self._end(cur), databases, tables)

    def _locked(self, cur: Any, patterns: Sequence[str], table: tuple[str, str] | None) -> Snapshot:
        cur.execute("SET SESSION lock_wait_timeout = %s", (int(self.lock_wait),))
        try:
            cur.execute("FLUSH TABLES WITH READ LOCK")
        except pymysql.MySQLError as err:
            if connection_lost(err):
                raise
            hint = _LOCK_HINTS.get(_code(err))
            raise SourceConfigError(
                f"{self.description}: cannot take the snapshot's read lock (FLUSH TABLES WITH "
                f"READ LOCK): {_message(err)}" + (f"; {hint}" if hint else "")
            ) from None
        try:
            cur.execute("START TRANSACTION WITH CONSISTENT SNAPSHOT")
            position = self._end(cur)
            databases, tables = self._schemas(cur, patterns, table)
        finally:
            cur.execute("UNLOCK TABLES")
        return Snapshot(position, None, databases, tables)

    def _schemas(
        self, cur: Any, patterns: Sequence[str], only: tuple[str, str] | None = None
    ) -> tuple[Any, Any]:
        cur.execute("SHOW DATABASES")
        dbs = database_patterns(patterns)
        names = sorted(
            str(r[0])
            for r in cur.fetchall()
            if str(r[0]) not in SYSTEM_DATABASES
            and (
                str(r[0]) == only[0]
                if only is not None
                else any(fnmatch.fnmatchcase(str(r[0]), p) for p in dbs)
            )
        )
        databases = []
        tables = []
        for db in names:
            cur.execute(show_create_database(db))
            databases.append((db, str(cur.fetchone()[1])))
            # MariaDB's sequences (tables of one row, whose rows the binlog carries) and
            # system-versioned tables too: the reader follows them
            cur.execute(
                "SELECT table_name, table_type FROM information_schema.tables "
                "WHERE table_schema = %s AND table_type IN %s"
                + (" AND table_name = %s" if only is not None else "")
                + " ORDER BY table_name",
                (db, tuple(_TABLE_TYPES), *(only[1:] if only is not None else ())),
            )
            for table, kind in cur.fetchall():
                # held until the snapshot ends: no DDL on it can commit meanwhile
                cur.execute(lock_table((db, str(table))))
                cur.execute(show_create((db, str(table)), _TABLE_TYPES[str(kind)]))
                text = _text(cur.fetchone()[1])
                tables.append((db, str(table), _exact_defaults(cur, (db, str(table)), text)))
        return tuple(databases), tuple(tables)


def _exact_defaults(cur: Any, table: tuple[str, str], text: str) -> str:
    """A table's SHOW CREATE TABLE ``text`` with each string DEFAULT the table keeps: that
    text writes a character beyond the BMP of a DEFAULT as ``?`` (``DEFAULT 'a😀'`` shows
    ``'a?'``), ``DEFAULT(column)`` reads it as kept (:func:`~mvdd.ddl.statement.
    with_kept_defaults`). An ENUM's or a SET's stays (its members, which that text writes the
    same way, are not known: the reader refuses its rows when the binlog tells them)."""

    def kept(columns: list[str]) -> list[str | None]:
        cur.execute(defaults_query(table, columns))
        return [bytes.fromhex(v).decode("utf-8") if v is not None else None for v in cur.fetchone()]

    return with_kept_defaults(text, kept)


#: the kinds of table a snapshot reads (information_schema's table_type) -> what SHOW CREATE
#: asks for (a sequence's SHOW CREATE TABLE shows it as the table mvdd tracks, SEQUENCE=1 and
#: its table options; SHOW CREATE SEQUENCE would leave out its comment)
_TABLE_TYPES = {"BASE TABLE": "TABLE", "SYSTEM VERSIONED": "TABLE", "SEQUENCE": "TABLE"}


class Rows:
    """Rows read inside a snapshot's transaction (see :meth:`Source.snapshot_session`)."""

    def __init__(self, conn: Any, where: str) -> None:
        self._conn = conn
        self._where = where
        #: the binlog position the rows hold at
        self.position: BinlogPosition | None = None

    def rows(
        self,
        table: tuple[str, str],
        columns: Sequence[str | Column],
        key: Sequence[str],
        *,
        after: Sequence[Any] | None = None,
        batch: int = 5000,
    ) -> Iterator[list[tuple[Any, ...]]]:
        """A table's rows in key order (after ``after`` when given), ``batch`` at a time,
        streamed from the server (the whole table is never in memory); a column given as a
        Column is read as its type stores it (:func:`mvdd.ddl.dml.read_node`)."""
        sql = select_template(table, columns, key, after=after is not None)
        cur = self._conn.cursor(pymysql.cursors.SSCursor)
        try:
            cur.execute(sql, key_params(after) if after is not None else None)
            while True:
                chunk = cur.fetchmany(batch)
                if not chunk:
                    return
                yield list(chunk)
        except pymysql.MySQLError as err:
            if connection_lost(err):
                _abandon(cur)
            raise self._error(err, f"reading `{table[0]}`.`{table[1]}`") from None
        finally:
            cur.close()

    def count(self, table: tuple[str, str]) -> int:
        """How many rows the table holds in the snapshot."""
        try:
            with self._conn.cursor() as cur:
                cur.execute(count_rows(table))
                return int(cur.fetchone()[0])
        except pymysql.MySQLError as err:
            raise self._error(err, f"counting `{table[0]}`.`{table[1]}`") from None

    def _error(self, err: pymysql.MySQLError, what: str) -> SourceConfigError:
        if connection_lost(err):
            return SourceLost(f"{self._where} went away {what}: {_message(err)}")
        return SourceConfigError(f"{self._where} refused {what}: {_message(err)}")


def _abandon(cur: Any) -> None:
    """Forget a streaming cursor whose connection died. Closing it, or collecting its result,
    would read the rest of the result from the closed socket, and PyMySQL raises
    AttributeError there (hiding the real error, or printed as an ignored exception)."""
    result = getattr(cur, "_result", None)
    if result is not None:
        result.unbuffered_active = False
    cur.connection = None


def _close(conn: Any) -> None:
    with contextlib.suppress(Exception):
        conn.close()


#: the events :meth:`Source._reaching` reads at a time
_EVENTS_PAGE = 10_000
#: a GTID event's text in ``SHOW BINLOG EVENTS`` (``BEGIN GTID 0-1-5 cid=9``, ``GTID 0-1-6``)
_GTID_EVENT = re.compile(r"GTID (\d+-\d+-\d+)")


def _same_history(here: str | None, gtid: str) -> bool:
    """Whether a server's GTID position at a place (``BINLOG_GTID_POS``; None: it has no such
    place) is ``gtid``."""
    return here is not None and gtid_state(here) == gtid_state(gtid)


def _sequence(gtid: str | None) -> int:
    """A GTID's sequence number (0: none)."""
    return int(gtid.rsplit("-", 1)[1]) if gtid else 0


def _text(value: Any) -> str:
    return value.decode("utf-8", "surrogateescape") if isinstance(value, bytes) else str(value)


def _message(err: BaseException) -> str:
    return str(err.args[-1]) if err.args else str(err)


def _code(err: BaseException) -> int:
    return err.args[0] if err.args and isinstance(err.args[0], int) else 0


__all__ = [
    "DEFAULT_SNAPSHOT",
    "POSITION_STATEMENTS",
    "SNAPSHOT_METHODS",
    "SYSTEM_DATABASES",
    "Outage",
    "Rows",
    "Snapshot",
    "Source",
    "database_patterns",
    "matches",
    "parse_tables",
    "position_statement",
    "server_version",
    "source_address",
]
