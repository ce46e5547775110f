"""The networked store: the catalog in a MySQL or MariaDB database, through PyMySQL, for
catalogs in several processes on several machines.

Address: ``mysql://user:password@host:port/database`` (also ``mariadb://``); a unix socket as
``mysql://user:password@localhost/database?unix_socket=/path/to/socket``. Options in the query
string: ``connect_timeout``, ``read_timeout``, ``write_timeout`` (seconds), ``prefix`` (of the
store's table names, default ``mvdd_``). The password is never printed: :attr:`description`
and every error name the user, host and database only.

How it keeps the promises of :mod:`mvdd.store.base`:

- Every statement is one InnoDB transaction. Each commit takes the next catalog-wide sequence
  number by updating one counter row (``UPDATE … SET v = v + 1``), which holds that row's lock
  until it commits: commits are serialised and a commit numbered n is visible before n + 1 is
  numbered, so a reader that sees ``last_seq = n`` in a consistent snapshot sees every commit up
  to n and nothing after it.
- Compare-and-set on each table's head version through the primary key on
  ``(table_id, version)``: a commit writes version n + 1 of a table it built on version n, so
  two writers can never both commit version n + 1; the loser's insert meets the winner's row and
  it gets ConcurrentChangeError (the catalog refreshes and retries it). Deadlocks and lock-wait
  timeouts are ConcurrentChangeError too (retryable).
- A lost connection (a server restart, a network cut) mid-statement raises StoreError; the server
  rolls the open transaction back, so no partial version is ever stored. The connection is
  re-opened on the next call. A connection lost while ``COMMIT`` was in flight leaves it unknown
  whether the statement landed; the catalog learns which on its next refresh.
- Leases, jobs, nodes and events are rows too; a fenced write checks its lease in the same
  transaction (the lease row is read with a shared lock, so a takeover waits for it).

The store's tables (created if missing; ``prefix`` before each name): ``meta``, ``tables``,
``versions``, ``elements``, ``leases``, ``jobs``, ``nodes``, ``events``, ``state``, with the
columns of the SQLite store (:mod:`mvdd.store.sqlite`); the statements are the SQL stores' shared
algorithm (:mod:`mvdd.store.sql`). A store of format 2 or older, upgraded, keeps its ``elements``
table's ``until`` and ``closed_seq`` columns and ``closed`` key (no longer written: the key
holds NULLs from then on); a DDL statement would end the server's open transaction, and the
upgrade is made of statements that each can run again.
"""

from __future__ import annotations

import contextlib
import re
import ssl
from collections.abc import Iterator
from typing import Any

import pymysql
from pymysql.constants import CLIENT, CR, ER

from mvdd.errors import ConcurrentChangeError, StoreError
from mvdd.store.address import parse_address as address_of
from mvdd.store.sql import TABLES, Cursor, Dialect, SQLStore

DIALECT = Dialect(
    param="%s",
    insert_ignore="INSERT IGNORE",
    lock_exclusive=" FOR UPDATE",
    lock_shared=" LOCK IN SHARE MODE",
    begin_write="START TRANSACTION",
    begin_read="START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY",
    end_read="COMMIT",
    meta_key="k",
    meta_value="v",
)

#: the store's own tables (fixed definitions; ``{p}`` is the table-name prefix). Names are
#: compared as bytes (``utf8mb4_bin``), as SQLite does; a stored generated column holds the name
#: of a live table only, so live names are unique while dropped ones may repeat.
SCHEMA = (
    "CREATE TABLE IF NOT EXISTS `{p}meta` (k VARCHAR(64) NOT NULL PRIMARY KEY, "
    "v BIGINT NOT NULL) ENGINE=InnoDB",
    "CREATE TABLE IF NOT EXISTS `{p}tables` (table_id BIGINT NOT NULL PRIMARY KEY, "
    "name VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL, "
    "version INT NOT NULL, dropped TINYINT NOT NULL, "
    "live_name VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin "
    "AS (IF(dropped = 0, name, NULL)) STORED, UNIQUE KEY live_name (live_name)) ENGINE=InnoDB",
    "CREATE TABLE IF NOT EXISTS `{p}versions` (table_id BIGINT NOT NULL, version INT NOT NULL, "
    "seq BIGINT NOT NULL, name VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL, "
    "statement LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL, "
    "steps LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL, "
    "position TEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL, at DOUBLE NOT NULL, "
    "dropped TINYINT NOT NULL, PRIMARY KEY (table_id, version), KEY seq (seq)) ENGINE=InnoDB",
    "CREATE TABLE IF NOT EXISTS `{p}elements` (table_id BIGINT NOT NULL, "
    "kind VARCHAR(16) NOT NULL, element_id BIGINT NOT NULL, since INT NOT NULL, "
    "prev BIGINT NULL, value LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL, "
    "opened_seq BIGINT NOT NULL, PRIMARY KEY (table_id, kind, element_id, since), "
    "KEY opened (opened_seq)) ENGINE=InnoDB",
    "CREATE TABLE IF NOT EXISTS `{p}leases` (name VARCHAR(191) CHARACTER SET utf8mb4 "
    "COLLATE utf8mb4_bin NOT NULL PRIMARY KEY, owner VARCHAR(255) CHARACTER SET utf8mb4 "
    "COLLATE utf8mb4_bin NOT NULL, epoch BIGINT NOT NULL, expires DOUBLE NOT NULL) ENGINE=InnoDB",
    "CREATE TABLE IF NOT EXISTS `{p}jobs` (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, "
    "kind VARCHAR(32) NOT NULL, table_name VARCHAR(255) CHARACTER SET utf8mb4 "
    "COLLATE utf8mb4_bin NOT NULL, `sql` LONGTEXT CHARACTER SET utf8mb4 NOT NULL, "
    "status VARCHAR(32) NOT NULL, queue VARCHAR(32) NOT NULL, "
    "payload LONGTEXT CHARACTER SET utf8mb4 NOT NULL, cancel TINYINT NOT NULL, "
    "submitted DOUBLE NOT NULL, updated DOUBLE NOT NULL, KEY queue (queue, id)) ENGINE=InnoDB",
    "CREATE TABLE IF NOT EXISTS `{p}nodes` (node_id VARCHAR(191) CHARACTER SET utf8mb4 "
    "COLLATE utf8mb4_bin NOT NULL PRIMARY KEY, version BIGINT NOT NULL, "
    "reported_at DOUBLE NOT NULL) ENGINE=InnoDB",
    "CREATE TABLE IF NOT EXISTS `{p}events` (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, "
    "job_id BIGINT NOT NULL, at DOUBLE NOT NULL, owner VARCHAR(255) CHARACTER SET utf8mb4 "
    "COLLATE utf8mb4_bin NOT NULL, epoch BIGINT NOT NULL, what VARCHAR(64) NOT NULL, "
    "detail LONGTEXT CHARACTER SET utf8mb4 NOT NULL, KEY job (job_id, id)) ENGINE=InnoDB",
    "CREATE TABLE IF NOT EXISTS `{p}state` (k VARCHAR(191) CHARACTER SET utf8mb4 "
    "COLLATE utf8mb4_bin NOT NULL PRIMARY KEY, "
    "v LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL) ENGINE=InnoDB",
)

#: error codes after which a new connection may succeed: the client's (CR_*: 2002 no socket,
#: 2003 refused, 2006 gone, 2013 lost in a query, 2055 lost at the handshake) and the
#: server's (1053 shutting down, 1152 and 1184 aborted, 1927 killed, 4031 closed for
#: inactivity)
LOST_CONNECTION = frozenset({2002, 2003, 2006, 2013, 2055, 1053, 1152, 1184, 1927, 4031})


def tls_failure(err: BaseException) -> bool:
    """Whether a driver error is TLS failing as the address's mode wants it (a certificate
    refused, a server without TLS where it is required, no protocol in common): a setting to
    change, never a server to wait for. A TLS stream cut short (the server went away in its
    middle) is a lost connection, not this."""
    if getattr(err, "args", None) and err.args[0] == CR.CR_SSL_CONNECTION_ERROR:
        return True
    cause = getattr(err, "original_exception", err)
    return isinstance(cause, ssl.SSLError) and not isinstance(cause, _CUT_SHORT)


#: TLS errors that are a connection ending, not TLS refused
_CUT_SHORT = (ssl.SSLEOFError, ssl.SSLZeroReturnError, ssl.SSLSyscallError)


def connection_lost(err: BaseException) -> bool:
    """Whether a driver error means the connection is gone and a new one may succeed: a code
    of :data:`LOST_CONNECTION`, PyMySQL's InterfaceError (a closed connection) or a socket
    error; never TLS refused as the address's mode wants it (:func:`tls_failure`), which the
    driver reports as a connection it could not make.

    >>> connection_lost(pymysql.err.OperationalError(2013, "Lost connection"))
    True
    >>> connection_lost(pymysql.err.OperationalError(1045, "Access denied"))
    False
    """
    if tls_failure(err):
        return False
    if isinstance(err, OSError | EOFError | pymysql.err.InterfaceError):
        return True
    return bool(err.args) and err.args[0] in LOST_CONNECTION


#: a login the server refuses (bad credentials, an account without access to the database, a
#: locked account): another try cannot succeed until someone changes the server or the address
REFUSED_LOGIN = frozenset(
    {
        ER.DBACCESS_DENIED_ERROR,
        ER.ACCESS_DENIED_ERROR,
        ER.BAD_DB_ERROR,
        ER.HOST_NOT_PRIVILEGED,
        1698,  # access denied without a password
        3118,  # MySQL: the account is locked
        4151,  # MariaDB: the account is locked
    }
)


def may_reconnect(err: BaseException) -> bool:
    """Whether a driver error at connect time is worth waiting out: a lost connection
    (:func:`connection_lost`), or any operational error but a refused login or refused TLS (a
    server starting, shutting down or out of connections answers one of those).

    >>> may_reconnect(pymysql.err.OperationalError(1040, "Too many connections"))
    True
    >>> may_reconnect(pymysql.err.OperationalError(1045, "Access denied"))
    False
    """
    if connection_lost(err):
        return True
    if tls_failure(err):
        return False
    return isinstance(err, pymysql.err.OperationalError) and not (
        err.args and err.args[0] in REFUSED_LOGIN
    )


#: errors that mean another transaction got in the way: retry
_RETRYABLE = {ER.LOCK_DEADLOCK, ER.LOCK_WAIT_TIMEOUT, ER.DUP_ENTRY}


def parse_address(address: str) -> tuple[dict[str, Any], str, str]:
    """(PyMySQL connect options, table prefix, a description without the password)."""
    parsed = address_of(address, database=True, options=("prefix",), error=StoreError)
    prefix = parsed.option("prefix", "mvdd_") or ""
    if not re.fullmatch(r"[A-Za-z0-9_]{0,32}", prefix):
        raise StoreError("prefix: up to 32 letters, digits or underscores")
    options = parsed.connect_options()
    options["client_flag"] = CLIENT.FOUND_ROWS
    return options, prefix, parsed.description


class MySQLStore(SQLStore):
    """A catalog store in one MySQL / MariaDB database (its tables created if missing).

    Args:
        address: ``mysql://user:password@host:port/database`` (see the module docstring).
        create: make the store's tables when the database has none (else StoreError, and
            nothing is made).
    """

    dialect = DIALECT

    def __init__(self, address: str, *, create: bool = True) -> None:
        self._options, prefix, self._description = parse_address(address)
        super().__init__(prefix)
        self._prefix = prefix
        self._conn: pymysql.connections.Connection | None = None
        with self._wrap("open"):
            self._ensure_schema(create)

    # -- connection ---------------------------------------------------------------------------

    def _connection(self) -> pymysql.connections.Connection:
        if self._conn is None:
            self._conn = pymysql.connect(**self._options)
            with self._conn.cursor() as cur:
                cur.execute("SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                cur.execute("SET SESSION innodb_lock_wait_timeout = 20")
        return self._conn

    def _drop_connection(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.close()

    @contextlib.contextmanager
    def _cursor(self) -> Iterator[Cursor]:
        with self._lock, self._connection().cursor() as cur:
            yield cur

    def _rowcount(self, cur: Cursor, result: Any) -> int:
        return int(result)

    @contextlib.contextmanager
    def _wrap(self, what: str) -> Iterator[None]:
        try:
            yield
        except pymysql.MySQLError as err:
            code = err.args[0] if err.args and isinstance(err.args[0], int) else None
            if code in _RETRYABLE:
                raise ConcurrentChangeError(
                    f"{what} conflicts with another writer's commit: {err.args[-1]}"
                ) from err
            lost = may_reconnect(err)
            if lost:
                self._drop_connection()  # re-opened on the next call
            raise StoreError(
                f"MySQL {what} failed on {self._description}: {err.args[-1] if err.args else err}"
                + (" (the connection is re-opened on the next call)" if lost else ""),
                cause=err,
            ) from None
        except (OSError, EOFError) as err:
            self._drop_connection()
            raise StoreError(
                f"MySQL {what} failed on {self._description}: {err} "
                "(the connection is re-opened on the next call)",
                cause=err,
            ) from None

    def _ensure_schema(self, create: bool) -> None:
        with self._cursor() as cur:
            meta = (self._prefix + "meta").replace("_", "\\_")  # (a LIKE pattern)
            if not create and not cur.execute("SHOW TABLES LIKE %s", [meta]):
                raise StoreError(f"there is no catalog at {self._description}")
            for statement in SCHEMA:
                cur.execute(statement.replace("{p}", self._prefix))
            self._init_meta(cur, self._description)

    def close(self) -> None:
        with self._lock:
            self._drop_connection()

    @property
    def description(self) -> str:
        return self._description


__all__ = [
    "LOST_CONNECTION",
    "SCHEMA",
    "TABLES",
    "MySQLStore",
    "connection_lost",
    "parse_address",
]
