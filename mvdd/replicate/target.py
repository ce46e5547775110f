"""The downstream database: the merged table, and ``mvdd_checkpoint`` beside it.

Every change of rows commits in one transaction together with the checkpoint rows that say how
far each source is applied, so a crash leaves either both or neither (Flink CDC's
transactional sink, TiDB DM's downstream checkpoint). DDL cannot share a transaction (MySQL
commits it implicitly): the replicator records its intent in the state directory first and,
after a crash, decides from :meth:`Target.table` (``SHOW CREATE TABLE``) whether it ran.

``mvdd_checkpoint`` holds, per target table, named rows: ``state`` (the id of the state
directory that owns the target), ``source:<name>`` (the commit position applied, the group
log's sequence number then, rows applied per shard, the end of safe mode), ``copy:<shard>``
(how far the initial copy went), ``ddl`` (how many statements of the group log's newest entry
ran), ``held:<shard>`` (the held rows released).

Connections use ``CLIENT.FOUND_ROWS``, so an UPDATE that matches a row counts it even when it
changes nothing: a change that matches no row means the target is not what the upstream says,
and the replicator stops rather than lose it (outside safe mode).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import attrs
import pymysql
from pymysql.constants import CLIENT

from mvdd.binlog.source import server_flavor
from mvdd.ddl import parse_table
from mvdd.ddl.dml import drop_table, insert_template, select_all, show_create
from mvdd.ddl.render import render_conversion
from mvdd.ddl.statement import for_server, live_table
from mvdd.errors import MvddError, StoreError
from mvdd.model import Column, ColumnType, Table
from mvdd.replicate import faults
from mvdd.store.address import Address, parse_address
from mvdd.store.mysql import connection_lost

CHECKPOINT_TABLE = "mvdd_checkpoint"
#: the temporary table a session converts values in (:meth:`Target.converted`)
CONVERSION = "mvdd_conversion"
_CHECKPOINT_DDL = (
    f"CREATE TABLE {CHECKPOINT_TABLE} (target VARCHAR(64) NOT NULL, name VARCHAR(191) NOT NULL, "
    "position VARCHAR(255), seq BIGINT, data LONGTEXT, PRIMARY KEY (target, name)) "
    "DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"
)


#: the variables a downstream session sets (name -> value as SQL), by server flavour. MariaDB checks
#: CHECK constraints on every row a statement writes or copies, a copying ALTER and the group's
#: merge UPDATEs included. Every row the replicator writes passed its shard's checks upstream, but
#: rows kept from shards that left the group (or were truncated while others stayed) need not meet a
#: check the remaining shards added later: checked, they would stop the replicator at the next ADD
#: CONSTRAINT or copying ALTER. MySQL has no such switch: there such a statement fails, as narrowing
#: a type over rows that do not fit does.
SESSION: dict[str, dict[str, str]] = {
    "mariadb": {"check_constraint_checks": "OFF"},
    "mysql": {},
}


#: the ``sql_mode`` words a downstream session drops, and the ones it adds: the rows it writes
#: are rows an upstream server holds, whose dates its own mode let through (the zero date, a
#: zero month or day, a day its month lacks); the session's strictness otherwise stays
DATES_AS_UPSTREAM = (frozenset({"NO_ZERO_DATE", "NO_ZERO_IN_DATE"}), ("ALLOW_INVALID_DATES",))


def db_value(value: Any) -> Any:
    """A decoded value as PyMySQL writes it."""
    if isinstance(value, set | frozenset):
        return ",".join(sorted(value))
    if isinstance(value, dict | list):
        return json.dumps(value)
    return value


@attrs.frozen
class Session:
    """A downstream session as :func:`prepare_session` set it up: its server's ``flavor``
    (:func:`mvdd.binlog.source.server_flavor`) and the session variables it set, each value as
    SQL (``sql_mode`` a string literal), which every other session writing the same rows takes
    too (the Spark bulk copy's JDBC connections: :func:`mvdd.spark.jdbc.jdbc_options`)."""

    flavor: str
    variables: Mapping[str, str]


def prepare_session(conn: Any) -> Session:
    """Set up a downstream connection as :data:`SESSION` says for its server, and its
    ``sql_mode`` as :data:`DATES_AS_UPSTREAM` says."""
    with conn.cursor() as cur:
        cur.execute("SELECT VERSION()")
        flavor = server_flavor(str(cur.fetchone()[0]))
        for name, value in SESSION[flavor].items():
            cur.execute(f"SET SESSION {name} = {value}")
        cur.execute("SELECT @@SESSION.sql_mode")
        mode = [w for w in str(cur.fetchone()[0]).split(",") if w]
        dropped, added = DATES_AS_UPSTREAM
        wanted = ",".join(
            [w for w in mode if w not in dropped] + [w for w in added if w not in mode]
        )
        if wanted != ",".join(mode):
            cur.execute("SET SESSION sql_mode = %s", (wanted,))
    return Session(flavor, {**SESSION[flavor], "sql_mode": conn.escape(wanted)})


#: the ``sql_mode`` words a downstream DDL runs without (:func:`run_ddl`)
STRICT = frozenset({"STRICT_TRANS_TABLES", "STRICT_ALL_TABLES"})
#: the warning of a value cut to fit its column ("Data truncated"): an ENUM's error value's
CUT = 1265


def run_ddl(cur: Any, sql: str, flavor: str) -> tuple[str, ...]:
    """Run one downstream DDL (mvdd's text, rendered for the server's ``flavor``:
    :func:`mvdd.ddl.statement.for_server`) outside strict mode; the server's warnings.

    A shard group narrows the target (a type, NOT NULL) only when no shard in the join holds
    the wider definition any more, and a shard's own rows meet the narrower one: its upstream
    statement converted the same values and succeeded. The rows that may not fit are rows no
    shard holds under that column: values a shard dropped with its column, rows kept from a
    shard that left or was truncated while others stayed. Strict mode would stop the
    replicator on them for good; outside it the server converts them as it converts any value
    that does not fit (to the type's nearest value, an ENUM's empty member, a NOT NULL column's
    implicit default) and says so in a warning per row, which the caller reports. Rows the
    replicator writes stay under the session's strict mode: this mode lasts one statement.
    The statement's own definitions (a default that does not fit its type …) are mvdd's,
    validated before rendering, so what strict mode would refuse in them never gets here.
    """
    with outside_strict_mode(cur):
        cur.execute(for_server(sql, flavor))
        cur.execute("SHOW WARNINGS")
        return tuple(f"[{code}] {message}" for _, code, message in cur.fetchall())


@contextlib.contextmanager
def outside_strict_mode(cur: Any) -> Iterator[None]:
    """The session's ``sql_mode`` without its strict words (:data:`STRICT`) for what runs
    inside, then as it was."""
    cur.execute("SELECT @@SESSION.sql_mode")
    mode = str(cur.fetchone()[0])
    lenient = ",".join(word for word in mode.split(",") if word not in STRICT)
    if lenient != mode:
        cur.execute("SET SESSION sql_mode = %s", (lenient,))
    try:
        yield
    finally:
        if lenient != mode:
            cur.execute("SET SESSION sql_mode = %s", (mode,))


class TargetError(MvddError, RuntimeError):
    """The downstream refused a change, or is not what the upstream says."""


class TargetLost(StoreError):
    """The connection to the downstream is gone (a restart, a network cut): retry."""


@attrs.frozen
class Checkpoint:
    """One row of ``mvdd_checkpoint``."""

    position: str | None = None
    seq: int | None = None
    data: dict[str, Any] = attrs.field(factory=dict)


@attrs.frozen
class Op:
    """One statement of a downstream transaction: a template and its rows of parameters
    (several: ``executemany``), and how many rows it must touch (None: any number).
    ``checkpoint``: the checkpoint row it writes (name, value), by which a transaction whose
    commit answer was lost is known to have committed."""

    sql: str
    rows: tuple[tuple[Any, ...], ...]
    expect: int | None = None
    what: str = ""
    checkpoint: tuple[str, Checkpoint] | None = None
    #: the ENUM error values its one row writes (:mod:`mvdd.replicate.apply`): it runs outside
    #: strict mode and must give as many warnings, each of a value cut to fit (1265), no other
    lenient: int = 0
    #: it runs outside strict mode, the server converting what does not fit (a data step of
    #: the group's downstream DDL, as :func:`run_ddl` runs the DDL itself)
    loose: bool = False


class Target:
    """The downstream database the merged table lives in (``mysql://…/database``)."""

    #: there is a table to run DDL on and to read back (a lake-only target has none)
    has_table = True

    def __init__(self, url: str, table: str) -> None:
        self.address: Address = parse_address(url, error=TargetError)
        if not self.address.database:
            raise TargetError(f"the downstream address names no database: {url!r}")
        self.table = table
        self.database = self.address.database
        self._conn: Any = None
        self.flavor = "mysql"  # the server's, once connected
        #: the session variables set on its connection, once connected (:class:`Session`)
        self.variables: Mapping[str, str] = {}
        self._upsert = insert_template(
            CHECKPOINT_TABLE, ["target", "name", "position", "seq", "data"], upsert=True
        )

    @property
    def description(self) -> str:
        return self.address.description

    # -- connections ------------------------------------------------------------------------------

    def connect(self) -> Any:
        if self._conn is None:
            options = self.address.connect_options()
            options.update(autocommit=False, client_flag=CLIENT.FOUND_ROWS, charset="utf8mb4")
            try:
                self._conn = pymysql.connect(**options)
                session = prepare_session(self._conn)
                self.flavor, self.variables = session.flavor, session.variables
            except pymysql.MySQLError as err:
                raise self._error(err, "cannot connect") from None
            except OSError as err:
                raise TargetLost(
                    f"cannot connect to the downstream {self.description}: {err}"
                ) from None
        return self._conn

    def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.close()

    def _error(self, err: pymysql.MySQLError, what: str) -> MvddError:
        code = err.args[0] if err.args else None
        text = err.args[-1] if err.args else str(err)
        if connection_lost(err):
            self.close()
            return TargetLost(f"the downstream {self.description} is gone ({what}): {text}")
        return TargetError(f"the downstream {self.description} refused {what}: [{code}] {text}")

    @contextlib.contextmanager
    def cursor(self, what: str) -> Iterator[Any]:
        """A cursor whose driver errors (its statements', and a commit made inside the block)
        become TargetLost or TargetError; the transaction rolled back."""
        conn = self.connect()
        try:
            with conn.cursor() as cur:
                yield cur
        except pymysql.MySQLError as err:
            with contextlib.suppress(Exception):
                conn.rollback()
            raise self._error(err, what) from None

    # -- facts --------------------------------------------------------------------------------

    def check(self) -> None:
        """The downstream is reachable and its database exists (TargetError otherwise)."""
        with self.cursor("a first query") as cur:
            cur.execute("SELECT DATABASE()")
            if cur.fetchone()[0] is None:
                raise TargetError(f"the downstream database {self.database!r} does not exist")
            self.connect().commit()

    def table_schema(self) -> Table | None:
        """The target table as the server has it (None: there is none)."""
        with self.cursor("SHOW CREATE TABLE") as cur:
            cur.execute(
                "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = DATABASE() "
                "AND table_name = %s",
                (self.table,),
            )
            if not cur.fetchone()[0]:
                self.connect().commit()
                return None
            cur.execute(show_create(self.table))
            text = cur.fetchone()[1]
            self.connect().commit()
        return live_table(text)

    # -- the checkpoint table ---------------------------------------------------------------------

    def ensure_checkpoint_table(self) -> None:
        with self.cursor(f"creating {CHECKPOINT_TABLE}") as cur:
            cur.execute(
                "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = DATABASE() "
                "AND table_name = %s",
                (CHECKPOINT_TABLE,),
            )
            if not cur.fetchone()[0]:
                cur.execute(parse_table(_CHECKPOINT_DDL).to_sql())
            self.connect().commit()

    def checkpoints(self) -> dict[str, Checkpoint]:
        """This target's checkpoint rows, by name (none: a first run)."""
        with self.cursor(f"reading {CHECKPOINT_TABLE}") as cur:
            cur.execute(
                "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = DATABASE() "
                "AND table_name = %s",
                (CHECKPOINT_TABLE,),
            )
            if not cur.fetchone()[0]:
                self.connect().commit()
                return {}
            cur.execute(
                f"SELECT name, position, seq, data FROM {CHECKPOINT_TABLE} WHERE target = %s",
                (self.table,),
            )
            rows = cur.fetchall()
            self.connect().commit()
        return {
            str(name): Checkpoint(position, seq, json.loads(data) if data else {})
            for name, position, seq, data in rows
        }

    def checkpoint_op(self, name: str, point: Checkpoint) -> Op:
        # the data as it reads back (JSON), so a read-back compares equal
        point = attrs.evolve(point, data=json.loads(json.dumps(point.data)))
        return Op(
            self._upsert,
            ((self.table, name, point.position, point.seq, json.dumps(point.data)),),
            what=f"checkpoint {name}",
            checkpoint=(name, point),
        )

    def forget_op(self) -> Op:
        """Deleting every checkpoint row of this target (a copy started over)."""
        return Op(f"DELETE FROM {CHECKPOINT_TABLE} WHERE target = %s", ((self.table,),))

    # -- writing ----------------------------------------------------------------------------------

    def commit(self, ops: Sequence[Op]) -> None:
        """Run the statements in one transaction and commit it; TargetError (and nothing
        applied) when a statement fails or touches another number of rows than it must."""
        sent = 0
        with self.cursor("a change") as cur:
            for op in ops:
                faults.reach("mid-commit", rows=sent)
                if op.lenient:
                    touched = self._lenient(cur, op)
                elif op.loose:
                    with outside_strict_mode(cur):
                        touched = cur.executemany(op.sql, op.rows)
                elif len(op.rows) == 1:
                    touched = cur.execute(op.sql, op.rows[0])
                else:
                    touched = cur.executemany(op.sql, op.rows)
                sent += len(op.rows)
                if op.expect is not None and touched != op.expect:
                    self.connect().rollback()
                    raise TargetError(
                        f"{op.what or op.sql[:60]} touched {touched} rows of `{self.table}`, not "
                        f"{op.expect}: the target does not hold what the upstream says"
                    )
            faults.reach("mid-commit", rows=sent)
            self.connect().commit()
        faults.reach("after-commit")

    def _lenient(self, cur: Any, op: Op) -> int:
        """``op``'s one row written outside strict mode for that statement alone, as many
        warnings as it has ENUM error values, each a value cut to fit (1265), and no other:
        anything else the server changed is refused as strict mode refuses it, and the
        transaction rolled back."""
        (row,) = op.rows
        with outside_strict_mode(cur):
            touched = int(cur.execute(op.sql, row))
            cur.execute("SHOW WARNINGS")
            warned = [(code, message) for _, code, message in cur.fetchall()]
        if len(warned) != op.lenient or any(code != CUT for code, _ in warned):
            self.connect().rollback()
            said = "; ".join(f"[{code}] {message}" for code, message in warned)
            raise TargetError(
                f"the downstream {self.description} changed {op.what or op.sql[:60]} of "
                f"`{self.table}`, written outside strict mode for its {op.lenient} ENUM error "
                f"value(s): {said}"
            )
        return touched

    def converted(self, types: Sequence[ColumnType], values: Sequence[Any]) -> list[Any]:
        """``values`` (decoded values of a column of the first of ``types``) as the server
        converts them when ALTERs change the column to each of the others in turn, outside
        strict mode: through a temporary table of this session (:data:`CONVERSION`), which
        nothing else sees and which is dropped again. The values come back as a copy reads
        them (:func:`~mvdd.ddl.dml.read_node`), which the target is written with.

        What the replicator asks of a held row's value that its shard's later statements
        changed by a rule mvdd does not model (:meth:`mvdd.replicate.merge.Merge.upgraded`):
        the downstream server converts as the upstream one did where the two are one
        server's versions; a MySQL beside a MariaDB may convert a few values otherwise."""
        create, *changes = render_conversion(CONVERSION, types)
        drop = drop_table(CONVERSION, temporary=True)
        last = Column(id=2, name="v", type=types[-1])
        with self.cursor(f"converting {len(values)} value(s) to {types[-1]}") as cur:
            cur.execute(drop)
            cur.execute(create)
            # (outside strict mode too: a value of the first type as the upstream held it, an
            # ENUM's error value among them, which strict mode refuses to write)
            with outside_strict_mode(cur):
                cur.executemany(
                    insert_template(CONVERSION, ["n", "v"]),
                    [(n, db_value(v)) for n, v in enumerate(values)],
                )
                for change in changes:
                    cur.execute(change)
            cur.execute(select_all(CONVERSION, ["n", last]))
            found = dict(cur.fetchall())
            cur.execute(drop)
            self.connect().commit()
        return [found[n] for n in range(len(values))]

    def execute(self, sql: str) -> tuple[str, ...]:
        """One DDL on its own (it commits implicitly), outside strict mode
        (:func:`run_ddl`); the server's warnings."""
        with self.cursor(repr(sql[:80])) as cur:
            warnings = run_ddl(cur, sql, self.flavor)
            self.connect().commit()
        return warnings


__all__ = [
    "CHECKPOINT_TABLE",
    "CONVERSION",
    "SESSION",
    "STRICT",
    "Checkpoint",
    "Op",
    "Session",
    "Target",
    "TargetError",
    "TargetLost",
    "db_value",
    "prepare_session",
    "run_ddl",
]
