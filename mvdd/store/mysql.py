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
- Compare-and-set on each table's head version, and a primary key on ``(table_id, version)``:
  two writers can never both commit version n of one table; the loser gets
  ConcurrentChangeError (the catalog refreshes and retries it). Deadlocks and lock-wait timeouts
  are ConcurrentChangeError too (retryable).
- A lost connection (a server restart, a network cut) mid-statement raises StoreError; the server
  rolls the open transaction back, so no partial version is ever stored. The connection is
  re-opened on the next call. A connection lost while ``COMMIT`` was in flight leaves it unknown
  whether the statement landed; the catalog learns which on its next refresh.
- Leases, jobs, nodes and events are rows too; a fenced write checks its lease in the same
  transaction (the lease row is read with a shared lock, so a takeover waits for it).

The store's tables (created if missing; ``prefix`` before each name): ``meta``, ``tables``,
``versions``, ``elements``, ``leases``, ``jobs``, ``nodes``, ``events``, with the columns of
the SQLite store (:mod:`mvdd.store.sqlite`).
"""

from __future__ import annotations

import contextlib
import json
import re
import threading
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, unquote, urlparse

import pymysql
import pymysql.cursors
from pymysql.constants import CLIENT, ER

from mvdd.errors import ConcurrentChangeError, FencedError, StoreError
from mvdd.store import codec
from mvdd.store.base import (
    HISTORY,
    QUEUE,
    Changes,
    Commit,
    CommitResult,
    Event,
    Guard,
    JobRow,
    JobUpdate,
    Lease,
    NodeRow,
    Store,
)

SCHEMES = ("mysql", "mariadb")
OPTIONS = {"unix_socket", "connect_timeout", "read_timeout", "write_timeout", "prefix"}
#: :data:`mvdd.store.codec.JOB_COLUMNS`, ``sql`` quoted (a reserved word here)
JOB_COLUMNS = "id, kind, table_name, `sql`, status, queue, payload, cancel, submitted, updated"
TABLES = ("meta", "tables", "versions", "elements", "leases", "jobs", "nodes", "events")

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
    "until INT NULL, prev BIGINT NULL, "
    "value LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL, "
    "opened_seq BIGINT NOT NULL, closed_seq BIGINT NULL, "
    "PRIMARY KEY (table_id, kind, element_id, since), KEY opened (opened_seq), "
    "KEY closed (closed_seq)) ENGINE=InnoDB",
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
)

#: errors that mean another transaction got in the way: retry
_RETRYABLE = {ER.LOCK_DEADLOCK, ER.LOCK_WAIT_TIMEOUT, ER.DUP_ENTRY}
#: client-side codes of a lost or refused connection (CR_* in the C client)
_CONNECTION = {2002, 2003, 2006, 2013, 2055, 1927, ER.SERVER_SHUTDOWN, 1152, 1184}


def parse_address(address: str) -> tuple[dict[str, Any], str, str]:
    """(PyMySQL connect options, table prefix, a description without the password)."""
    url = urlparse(address)
    if url.scheme not in SCHEMES:
        raise StoreError(f"a MySQL address is mysql://… or mariadb://…, not {url.scheme}://")
    database = unquote(url.path.lstrip("/"))
    if not database or "/" in database:
        raise StoreError("a MySQL address names one database: mysql://user@host/database")
    query = {k: v[-1] for k, v in parse_qs(url.query).items()}
    unknown = set(query) - OPTIONS
    if unknown:
        raise StoreError(f"unknown options in the address: {sorted(unknown)}")
    prefix = query.get("prefix", "mvdd_")
    if not re.fullmatch(r"[A-Za-z0-9_]{0,32}", prefix):
        raise StoreError("prefix: up to 32 letters, digits or underscores")
    options: dict[str, Any] = {
        "user": unquote(url.username or "root"),
        "password": unquote(url.password or ""),
        "database": database,
        "charset": "utf8mb4",
        "autocommit": True,
        "client_flag": CLIENT.FOUND_ROWS,
    }
    try:
        for key in ("connect_timeout", "read_timeout", "write_timeout"):
            if key in query:
                options[key] = float(query[key])
        if "unix_socket" in query:
            options["unix_socket"] = query["unix_socket"]
            where = f"localhost (unix socket {query['unix_socket']})"
        else:
            options["host"] = url.hostname or "localhost"
            options["port"] = url.port or 3306
            where = f"{options['host']}:{options['port']}"
    except ValueError as err:
        raise StoreError(f"a malformed address: {err}") from None
    options.setdefault("connect_timeout", 10.0)
    description = f"{url.scheme}://{options['user']}@{where} database {database}"
    return options, prefix, description


class MySQLStore(Store):
    """A catalog store in one MySQL / MariaDB database (its tables created if missing).

    Args:
        address: ``mysql://user:password@host:port/database`` (see the module docstring).
    """

    def __init__(self, address: str) -> None:
        self._options, self._prefix, self._description = parse_address(address)
        self._lock = threading.RLock()
        self._conn: pymysql.connections.Connection | None = None
        self._t = {name: f"`{self._prefix}{name}`" for name in TABLES}
        with self._wrap("open"):
            self._ensure_schema()

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
    def _cursor(self) -> Iterator[Any]:
        with self._lock, self._connection().cursor() as cur:
            yield cur

    @contextlib.contextmanager
    def _transaction(self, *, read_only: bool = False) -> Iterator[Any]:
        with self._lock:
            conn = self._connection()
            with conn.cursor() as cur:
                cur.execute(
                    "START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY"
                    if read_only
                    else "START TRANSACTION"
                )
                try:
                    yield cur
                except BaseException:
                    with contextlib.suppress(Exception):
                        conn.rollback()
                    raise
                else:
                    cur.execute("COMMIT")

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
            lost = code in _CONNECTION or isinstance(
                err, pymysql.err.OperationalError | pymysql.err.InterfaceError
            )
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

    def _ensure_schema(self) -> None:
        with self._cursor() as cur:
            for statement in SCHEMA:
                cur.execute(statement.replace("{p}", self._prefix))
        meta = self._t["meta"]
        with self._cursor() as cur:
            # one statement, idempotent: processes opening a new store at once all succeed
            cur.execute(
                f"INSERT IGNORE INTO {meta} (k, v) VALUES ('format', %s), "
                "('next_table_id', 1), ('last_seq', 0)",
                (codec.FORMAT,),
            )
            cur.execute(f"SELECT v FROM {meta} WHERE k = 'format'")
            found = cur.fetchone()[0]
        if found != codec.FORMAT:
            raise StoreError(
                f"{self._description} holds store format {found!r}; this mvdd reads "
                f"format {codec.FORMAT}"
            )

    # -- reading ------------------------------------------------------------------------------

    def last_seq(self) -> int:
        with self._wrap("read"), self._cursor() as cur:
            cur.execute(f"SELECT v FROM {self._t['meta']} WHERE k = 'last_seq'")
            return int(cur.fetchone()[0])

    def changes(self, after_seq: int) -> Changes:
        t = self._t
        with self._wrap("read"), self._transaction(read_only=True) as cur:
            # one consistent snapshot, so the three queries see one state
            cur.execute(f"SELECT v FROM {t['meta']} WHERE k = 'last_seq'")
            last = int(cur.fetchone()[0])
            dict_cur = cur.connection.cursor(pymysql.cursors.DictCursor)
            dict_cur.execute(
                f"SELECT * FROM {t['versions']} WHERE seq > %s AND seq <= %s "
                "ORDER BY seq, table_id",
                (after_seq, last),
            )
            versions = tuple(codec.version_row(r) for r in dict_cur.fetchall())
            dict_cur.execute(
                f"SELECT * FROM {t['elements']} WHERE opened_seq > %s AND opened_seq <= %s",
                (after_seq, last),
            )
            opened = tuple(codec.element_row(r, last) for r in dict_cur.fetchall())
            cur.execute(
                f"SELECT table_id, kind, element_id, since, until FROM {t['elements']} "
                "WHERE closed_seq > %s AND closed_seq <= %s",
                (after_seq, last),
            )
            closed = tuple(((r[0], r[1], r[2], r[3]), r[4]) for r in cur.fetchall())
        return Changes(versions, opened, closed, last)

    # -- writing ------------------------------------------------------------------------------

    def commit(self, commit: Commit) -> CommitResult:
        t = self._t
        with self._wrap("commit"), self._transaction() as cur:
            if commit.guard is not None:
                self._check_guard(cur, commit.guard)
            ids: dict[int, int] = {}
            new_tables = sorted((tid for tid in commit.names if tid < 0), reverse=True)
            if new_tables:
                cur.execute(
                    f"UPDATE {t['meta']} SET v = v + %s WHERE k = 'next_table_id'",
                    (len(new_tables),),
                )
                cur.execute(f"SELECT v FROM {t['meta']} WHERE k = 'next_table_id'")
                first = int(cur.fetchone()[0]) - len(new_tables)
                ids = {tid: first + i for i, tid in enumerate(new_tables)}
            # the sequence counter's row lock serialises commits until this one ends
            cur.execute(f"UPDATE {t['meta']} SET v = v + 1 WHERE k = 'last_seq'")
            cur.execute(f"SELECT v FROM {t['meta']} WHERE k = 'last_seq'")
            seq = int(cur.fetchone()[0])

            def real(tid: int) -> int:
                return ids.get(tid, tid)

            heads = codec.commit_heads(commit, ids)
            renamed = []
            for tid, name in commit.names.items():
                if tid < 0:
                    continue
                # compare-and-set: the head must be the version this statement was built on
                changed = cur.execute(
                    f"UPDATE {t['tables']} SET version = %s "
                    "WHERE table_id = %s AND version = %s AND dropped = 0",
                    (heads[tid], tid, commit.expected[tid]),
                )
                if changed != 1:
                    raise ConcurrentChangeError(
                        f"table id {tid} is not at version {commit.expected[tid]} in the store: "
                        "another writer committed first"
                    )
                cur.execute(f"SELECT name FROM {t['tables']} WHERE table_id = %s", (tid,))
                if cur.fetchone()[0] != name:
                    renamed.append(tid)
            # name changes in two passes, so a swap inside one statement never collides midway
            for tid in renamed:
                cur.execute(f"UPDATE {t['tables']} SET dropped = 1 WHERE table_id = %s", (tid,))
            for tid in renamed:
                name = commit.names[tid]
                cur.execute(
                    f"UPDATE {t['tables']} SET name = %s, dropped = %s WHERE table_id = %s",
                    (name if name is not None else "", int(name is None), tid),
                )
            for tid in new_tables:
                cur.execute(
                    f"INSERT INTO {t['tables']} (table_id, name, version, dropped) "
                    "VALUES (%s, %s, %s, 0)",
                    (real(tid), commit.names[tid], heads[real(tid)]),
                )
            cur.executemany(
                f"INSERT INTO {t['versions']} (table_id, version, seq, name, statement, steps, "
                "position, at, dropped) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
                codec.version_params(commit, ids, seq),
            )
            for table_id, kind, element_id, since in commit.closed:
                changed = cur.execute(
                    f"UPDATE {t['elements']} SET until = %s, closed_seq = %s "
                    "WHERE table_id = %s AND kind = %s AND element_id = %s AND since = %s "
                    "AND until IS NULL",
                    (heads[real(table_id)], seq, real(table_id), kind, element_id, since),
                )
                if changed != 1:
                    raise ConcurrentChangeError(
                        f"element {kind} {element_id} of table id {table_id} was already closed"
                    )
            if commit.opened:
                cur.executemany(
                    f"INSERT INTO {t['elements']} (table_id, kind, element_id, since, until, "
                    "prev, value, opened_seq, closed_seq) "
                    "VALUES (%s, %s, %s, %s, NULL, %s, %s, %s, NULL)",
                    codec.element_params(commit, ids, seq),
                )
            if commit.job is not None and commit.guard is not None:
                self._apply_job(cur, commit.job, commit.guard)
        return CommitResult(seq, ids)

    # -- coordination -------------------------------------------------------------------------

    def _check_guard(self, cur: Any, guard: Guard) -> None:
        cur.execute(
            f"SELECT owner, epoch, expires FROM {self._t['leases']} WHERE name = %s "
            "LOCK IN SHARE MODE",
            (guard.lease,),
        )
        row = cur.fetchone()
        if row is None or (row[0], row[1]) != (guard.owner, guard.epoch) or row[2] <= guard.now:
            raise FencedError(
                f"lease {guard.lease!r} is no longer held by {guard.owner!r} at epoch "
                f"{guard.epoch}: the write is refused"
            )

    def acquire_lease(self, name: str, owner: str, duration: float, now: float) -> Lease | None:
        leases = self._t["leases"]
        with self._wrap("lease"):
            with self._cursor() as cur:  # the row exists before anyone locks it
                cur.execute(
                    f"INSERT IGNORE INTO {leases} (name, owner, epoch, expires) "
                    "VALUES (%s, '', 0, 0)",
                    (name,),
                )
            with self._transaction() as cur:
                cur.execute(
                    f"SELECT owner, epoch, expires FROM {leases} WHERE name = %s FOR UPDATE",
                    (name,),
                )
                held_by, epoch, expires = cur.fetchone()
                if held_by == owner and expires > now:
                    pass
                elif expires <= now:
                    epoch += 1
                else:
                    return None
                cur.execute(
                    f"UPDATE {leases} SET owner = %s, epoch = %s, expires = %s WHERE name = %s",
                    (owner, epoch, now + duration, name),
                )
                return Lease(name, owner, epoch, now + duration)

    def release_lease(self, name: str, owner: str, epoch: int) -> None:
        with self._wrap("lease"), self._cursor() as cur:
            cur.execute(
                f"UPDATE {self._t['leases']} SET expires = 0 "
                "WHERE name = %s AND owner = %s AND epoch = %s",
                (name, owner, epoch),
            )

    def read_lease(self, name: str) -> Lease | None:
        with self._wrap("read"), self._cursor() as cur:
            cur.execute(
                f"SELECT owner, epoch, expires FROM {self._t['leases']} WHERE name = %s", (name,)
            )
            row = cur.fetchone()
        if row is None or (row[1] == 0 and row[0] == ""):
            return None  # the placeholder row of a lease never taken
        return Lease(name, row[0], row[1], row[2])

    def _select_job(self, cur: Any, job_id: int) -> JobRow | None:
        cur.execute(f"SELECT {JOB_COLUMNS} FROM {self._t['jobs']} WHERE id = %s", (job_id,))
        row = cur.fetchone()
        return codec.job_row(row) if row is not None else None

    def add_job(
        self, kind: str, table: str, sql: str, payload: dict[str, Any], now: float
    ) -> JobRow:
        with self._wrap("job"), self._transaction() as cur:
            cur.execute(
                f"INSERT INTO {self._t['jobs']} (kind, table_name, `sql`, status, queue, payload, "
                "cancel, submitted, updated) VALUES (%s, %s, %s, 'queued', %s, %s, 0, %s, %s)",
                (kind, table, sql, QUEUE, json.dumps(payload), now, now),
            )
            job = self._select_job(cur, cur.lastrowid)
        assert job is not None
        return job

    def jobs(self, queue: str = QUEUE) -> list[JobRow]:
        with self._wrap("read"), self._cursor() as cur:
            cur.execute(
                f"SELECT {JOB_COLUMNS} FROM {self._t['jobs']} WHERE queue = %s ORDER BY id",
                (queue,),
            )
            rows = cur.fetchall()
        return [codec.job_row(r) for r in rows]

    def job(self, job_id: int) -> JobRow | None:
        with self._wrap("read"), self._cursor() as cur:
            return self._select_job(cur, job_id)

    def update_job(self, update: JobUpdate, guard: Guard) -> JobRow:
        with self._wrap("job"), self._transaction() as cur:
            self._check_guard(cur, guard)
            return self._apply_job(cur, update, guard)

    def _apply_job(self, cur: Any, update: JobUpdate, guard: Guard) -> JobRow:
        cur.execute(
            f"UPDATE {self._t['jobs']} SET status = %s, queue = %s, payload = %s, updated = %s "
            "WHERE id = %s",
            (update.status, update.queue, json.dumps(update.payload), guard.now, update.id),
        )
        job = self._select_job(cur, update.id)
        if job is None:
            raise StoreError(f"no job {update.id} in {self._description}")
        if update.event is not None:
            cur.execute(
                f"INSERT INTO {self._t['events']} (job_id, at, owner, epoch, what, detail) "
                "VALUES (%s, %s, %s, %s, %s, %s)",
                (update.id, guard.now, guard.owner, guard.epoch, *update.event),
            )
        return job

    def request_cancel(self, job_id: int, now: float) -> JobRow | None:
        jobs = self._t["jobs"]
        with self._wrap("job"), self._transaction() as cur:
            cur.execute(
                f"UPDATE {jobs} SET status = 'cancelled', queue = %s, cancel = 1, updated = %s "
                "WHERE id = %s AND status = 'queued'",
                (HISTORY, now, job_id),
            )
            cur.execute(
                f"UPDATE {jobs} SET cancel = 1, updated = %s WHERE id = %s AND queue = %s",
                (now, job_id, QUEUE),
            )
            return self._select_job(cur, job_id)

    def report_node(self, node_id: str, version: int, now: float) -> None:
        with self._wrap("node"), self._cursor() as cur:
            cur.execute(
                f"INSERT INTO {self._t['nodes']} (node_id, version, reported_at) "
                "VALUES (%s, %s, %s) ON DUPLICATE KEY UPDATE version = VALUES(version), "
                "reported_at = VALUES(reported_at)",
                (node_id, version, now),
            )

    def nodes(self) -> list[NodeRow]:
        with self._wrap("read"), self._cursor() as cur:
            cur.execute(
                f"SELECT node_id, version, reported_at FROM {self._t['nodes']} ORDER BY node_id"
            )
            rows = cur.fetchall()
        return [NodeRow(*r) for r in rows]

    def events(self, job_id: int | None = None) -> list[Event]:
        with self._wrap("read"), self._cursor() as cur:
            if job_id is None:
                cur.execute(
                    f"SELECT job_id, at, owner, epoch, what, detail FROM {self._t['events']} "
                    "ORDER BY id"
                )
            else:
                cur.execute(
                    f"SELECT job_id, at, owner, epoch, what, detail FROM {self._t['events']} "
                    "WHERE job_id = %s ORDER BY id",
                    (job_id,),
                )
            rows = cur.fetchall()
        return [Event(*r) for r in rows]

    def close(self) -> None:
        with self._lock:
            self._drop_connection()

    @property
    def description(self) -> str:
        return self._description


__all__ = ["SCHEMA", "MySQLStore", "parse_address"]
