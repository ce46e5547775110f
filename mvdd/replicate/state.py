"""A replicator's state directory: what survives a restart beside the target's own checkpoint.

``DIR/catalogs/<source>.db``
    Each upstream server's schema history (a :class:`~mvdd.catalog.Catalog` on SQLite), kept by
    its binlog reader.
``DIR/replicate.db`` (SQLite, through sqlite-utils; WAL, one transaction per write)
    - ``meta``: the state's id (the target's ``mvdd_checkpoint`` names it: a target is never
      shared by two state directories), the target, the table pattern, the sources.
    - ``group_log``: every change of the shard group, in order (``init`` with every shard's
      first schema, then ``follow`` / ``add`` / ``remove``), each with the downstream
      statements it emitted and the target's schema expected after each of them. The group is
      rebuilt by replaying the log against the catalogs: a group is a pure function of it.
    - ``held``: the rows of paused shards, in order, keyed by (source, commit, index) so a
      transaction read twice (after a crash) is held once. Their numbers (``seq``) only ever
      grow, over every pause of every shard (the counter ``held_seq`` in ``meta``): the
      target's checkpoint names the last row of a shard it holds by that number, so a number
      given again after a release would make the next start forget a row the target lacks.
    - ``status``: what ``mvdd status`` shows (informational; the checkpoint is the truth).

The directory is the replicator's alone: it must be missing, empty, or hold only these (a
replicator forgets its catalogs when a copy starts over), else StoreError names what else it
holds and nothing is written there.

Nothing here is the checkpoint: the target database's ``mvdd_checkpoint`` is (written in the
same transaction as the rows it covers); this directory is read back against it on start.

Values of held rows are kept as tagged JSON: exactly the Python values a binlog reader decodes
(``Decimal``, ``bytes``, dates, times, sets, MySQL JSON documents).
"""

from __future__ import annotations

import base64
import datetime as dt
import json
import sqlite3
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any

import attrs
from sqlite_utils import Database

from mvdd.errors import StoreError
from mvdd.store.folder import foreign_entries, listed

#: what a state directory holds: its catalogs and its database, with the files SQLite keeps
#: beside it (a rollback journal too: the first open writes the new file's header with one
#: before it turns to WAL, and a process killed then leaves it for the next open to roll back)
ENTRIES = frozenset(
    {"catalogs", *(f"replicate.db{end}" for end in ("", "-wal", "-shm", "-journal"))}
)

#: the state's own tables: name -> (columns, primary key)
_TABLES: dict[str, tuple[dict[str, type], str | tuple[str, ...]]] = {
    "meta": ({"key": str, "value": str}, "key"),
    "group_log": (
        {
            "seq": int,
            "kind": str,
            "shard": str,
            "source": str,
            "table_id": int,
            "version": int,
            "position": str,
            "statement": str,
            "downstream": str,
            "expected": str,
            "resumed": str,
            "at": float,
        },
        "seq",
    ),
    "held": (
        {
            "seq": int,
            "shard": str,
            "source": str,
            "txn": str,
            "idx": int,
            "kind": str,
            "table_id": int,
            "version": int,
            "row": str,
            "before": str,
        },
        "seq",
    ),
    "status": ({"shard": str, "value": str}, "shard"),
}


@attrs.frozen
class LogEntry:
    """One change of the shard group (see the module docstring).

    ``kind``: ``init`` (``shards``: shard -> (source, table id, version)), ``follow`` (the
    shard's table moved to ``version``), ``add`` (a table joined), ``remove`` (it left).
    ``downstream``: the statements it emitted; ``expected``: the target's ``CREATE TABLE``
    after each of them (data statements leave it as it was).
    """

    seq: int
    kind: str
    shard: str | None
    source: str | None
    table_id: int | None
    version: int | None
    position: str | None
    statement: str | None
    downstream: tuple[str, ...]
    expected: tuple[str, ...]
    resumed: tuple[str, ...] = ()
    shards: tuple[tuple[str, str, int, int], ...] = ()  # init: (shard, source, table id, version)


@attrs.frozen
class HeldRow:
    """A row of a paused shard, as its binlog reader decoded it."""

    seq: int
    shard: str
    source: str
    txn: str
    idx: int
    kind: str
    table_id: int
    version: int
    row: dict[str, Any] | None
    before: dict[str, Any] | None


class State:
    """The state directory (created if missing)."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        try:
            foreign = foreign_entries(self.folder, ENTRIES)
            if foreign:
                raise StoreError(
                    f"{str(self.folder)!r} is not a replicator's state directory and holds other "
                    f"files ({listed(foreign)}): give a new or empty folder for the state"
                )
            (self.folder / "catalogs").mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(str(self.folder / "replicate.db"), isolation_level=None)
        except (OSError, sqlite3.Error) as err:
            raise StoreError(
                f"cannot open the state directory {str(self.folder)!r}: {err}"
            ) from None
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        self.db = Database(conn)
        for name, (columns, pk) in _TABLES.items():
            if not self.db[name].exists():
                self.db[name].create(columns, pk=pk)  # type: ignore[union-attr]
        if not self.db["held"].exists() or "held_key" not in {
            i.name
            for i in self.db["held"].indexes  # type: ignore[union-attr]
        }:
            self.db["held"].create_index(  # type: ignore[union-attr]
                ["source", "txn", "idx"], index_name="held_key", unique=True, if_not_exists=True
            )

    def close(self) -> None:
        self.db.conn.close()

    def catalog_path(self, source: str) -> Path:
        return self.folder / "catalogs" / f"{source}.db"

    # -- meta ---------------------------------------------------------------------------------

    def get(self, key: str) -> Any:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", [key]).fetchone()
        return json.loads(row[0]) if row is not None else None

    def put(self, key: str, value: Any) -> None:
        with self.db.conn:
            self.db.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                [key, json.dumps(value)],
            )

    @property
    def id(self) -> str:
        """The state's id (made on first use)."""
        found = self.get("id")
        if found is None:
            found = uuid.uuid4().hex
            self.put("id", found)
        return str(found)

    # -- the group's log ----------------------------------------------------------------------

    def log(self) -> list[LogEntry]:
        rows = self.db.execute(
            "SELECT seq, kind, shard, source, table_id, version, position, statement, "
            "downstream, expected, resumed FROM group_log ORDER BY seq"
        ).fetchall()
        out = []
        for r in rows:
            extra = json.loads(r[10] or "{}")
            out.append(
                LogEntry(
                    seq=r[0],
                    kind=r[1],
                    shard=r[2],
                    source=r[3],
                    table_id=r[4],
                    version=r[5],
                    position=r[6],
                    statement=r[7],
                    downstream=tuple(json.loads(r[8])),
                    expected=tuple(json.loads(r[9])),
                    resumed=tuple(extra.get("resumed", ())),
                    shards=tuple(tuple(x) for x in extra.get("shards", ())),  # type: ignore[misc]
                )
            )
        return out

    def append(self, entry: LogEntry) -> None:
        extra = {"resumed": list(entry.resumed), "shards": [list(x) for x in entry.shards]}
        with self.db.conn:
            self.db.execute(
                "INSERT INTO group_log (seq, kind, shard, source, table_id, version, position, "
                "statement, downstream, expected, resumed, at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, julianday('now'))",
                [
                    entry.seq,
                    entry.kind,
                    entry.shard,
                    entry.source,
                    entry.table_id,
                    entry.version,
                    entry.position,
                    entry.statement,
                    json.dumps(list(entry.downstream)),
                    json.dumps(list(entry.expected)),
                    json.dumps(extra),
                ],
            )

    def reset(self) -> None:
        """Forget the group and the held rows (a copy redone from scratch); the catalogs go
        too (their files are removed by the caller while no reader holds them)."""
        with self.db.conn:
            for table in ("group_log", "held", "status"):
                self.db.execute(f"DELETE FROM {table}")
            # (the held rows' counter stays: their numbers never repeat)
            self.db.execute("DELETE FROM meta WHERE key NOT IN ('id', 'held_seq')")

    # -- held rows ------------------------------------------------------------------------------

    def hold(self, rows: Sequence[HeldRow]) -> None:
        """Keep rows of paused shards, numbered after every row ever held; a row already kept
        (same source, transaction and index) is kept once."""
        if not rows:
            return
        with self.db.conn:
            last = self._held_seq()
            self._put_held_seq(last + len(rows))
            self.db.conn.executemany(
                "INSERT OR IGNORE INTO held (seq, shard, source, txn, idx, kind, table_id, "
                "version, row, before) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        last + i,
                        r.shard,
                        r.source,
                        r.txn,
                        r.idx,
                        r.kind,
                        r.table_id,
                        r.version,
                        encode_row(r.row),
                        encode_row(r.before),
                    )
                    for i, r in enumerate(rows, 1)
                ],
            )

    def _held_seq(self) -> int:
        """The number of the last row ever held (a state of an older mvdd kept no counter:
        its rows' greatest number)."""
        row = self.db.execute(
            "SELECT MAX(n) FROM (SELECT CAST(value AS INTEGER) AS n FROM meta "
            "WHERE key = 'held_seq' UNION ALL SELECT MAX(seq) FROM held)"
        ).fetchone()
        return int(row[0] or 0)

    def _put_held_seq(self, seq: int) -> None:
        self.db.execute(
            "INSERT INTO meta (key, value) VALUES ('held_seq', ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            [json.dumps(seq)],
        )

    def held(self, shard: str) -> Iterator[HeldRow]:
        """A shard's held rows, oldest first."""
        cursor = self.db.execute(
            "SELECT seq, shard, source, txn, idx, kind, table_id, version, row, before FROM held "
            "WHERE shard = ? ORDER BY seq",
            [shard],
        )
        for r in cursor:
            yield HeldRow(
                seq=r[0],
                shard=r[1],
                source=r[2],
                txn=r[3],
                idx=r[4],
                kind=r[5],
                table_id=r[6],
                version=r[7],
                row=decode_row(r[8]),
                before=decode_row(r[9]),
            )

    def held_shards(self) -> list[str]:
        """The shards that have held rows, by name."""
        cursor = self.db.execute("SELECT DISTINCT shard FROM held ORDER BY shard")
        return [r[0] for r in cursor]

    def held_count(self, shard: str) -> int:
        row = self.db.execute("SELECT COUNT(*) FROM held WHERE shard = ?", [shard]).fetchone()
        return int(row[0])

    def release(self, shard: str, through: int) -> None:
        """Forget a shard's held rows up to ``through`` (they are in the target now); a row
        held from now on is numbered after it."""
        with self.db.conn:
            self.db.execute("DELETE FROM held WHERE shard = ? AND seq <= ?", [shard, through])
            if self._held_seq() < through:
                self._put_held_seq(through)

    # -- status ---------------------------------------------------------------------------------

    def set_status(self, status: Mapping[str, Mapping[str, Any]]) -> None:
        with self.db.conn:
            self.db.conn.executemany(
                "INSERT INTO status (shard, value) VALUES (?, ?) "
                "ON CONFLICT (shard) DO UPDATE SET value = excluded.value",
                [(shard, json.dumps(value)) for shard, value in status.items()],
            )

    def status(self) -> dict[str, dict[str, Any]]:
        rows = self.db.execute("SELECT shard, value FROM status ORDER BY shard").fetchall()
        return {shard: json.loads(value) for shard, value in rows}

    def warned(self, statement: str, warnings: Sequence[str]) -> None:
        """Count the warnings a downstream DDL gave (values no shard holds any more that did
        not fit, converted by the server; see :func:`mvdd.replicate.target.run_ddl`), keeping
        the last statement that gave any and its first three."""
        kept = self.downstream()
        self.put(
            _DOWNSTREAM,
            {
                "ddl_warnings": kept["ddl_warnings"] + len(warnings),
                "warned_statements": kept["warned_statements"] + 1,
                "last_warning": {"statement": statement[:200], "warnings": list(warnings[:3])},
            },
        )

    def downstream(self) -> dict[str, Any]:
        """The downstream's part of a status: ``ddl_warnings`` (how many warnings its DDL gave
        in all), ``warned_statements`` (how many statements gave any) and ``last_warning`` (the
        last such statement and its first warnings, or None)."""
        kept = self.get(_DOWNSTREAM)
        return kept if kept is not None else dict(_NO_WARNINGS)

    def report(self) -> dict[str, Any]:
        """A replicator's status as it last wrote it: each shard's, and the downstream's."""
        return {"shards": self.status(), "downstream": self.downstream()}


#: the meta key of the downstream's DDL warnings (:meth:`State.warned`)
_DOWNSTREAM = "downstream"
_NO_WARNINGS: dict[str, Any] = {"ddl_warnings": 0, "warned_statements": 0, "last_warning": None}


# --- values ----------------------------------------------------------------------------------

_TAGS: dict[str, tuple[Any, Callable[[Any], Any], Callable[[Any], Any]]] = {
    "decimal": (Decimal, str, Decimal),
    "bytes": (bytes, lambda v: base64.b64encode(v).decode(), base64.b64decode),
    "datetime": (dt.datetime, dt.datetime.isoformat, dt.datetime.fromisoformat),
    "date": (dt.date, dt.date.isoformat, dt.date.fromisoformat),
    "time": (
        dt.timedelta,
        lambda v: [v.days, v.seconds, v.microseconds],
        lambda v: dt.timedelta(*v),
    ),
    "set": ((set, frozenset), sorted, set),
}


def encode_value(value: Any) -> Any:
    """A decoded value as JSON (tagged when JSON has no such type)."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    for tag, (kind, encode, _) in _TAGS.items():
        if isinstance(value, kind):  # datetime before date: the table's order
            return {"$": tag, "v": encode(value)}
    return {"$": "json", "v": value}  # MySQL JSON: the parsed document


def decode_value(value: Any) -> Any:
    if isinstance(value, dict) and "$" in value:
        tag = value["$"]
        if tag == "json":
            return value["v"]
        return _TAGS[tag][2](value["v"])
    return value


def encode_row(row: Mapping[str, Any] | None) -> str | None:
    if row is None:
        return None
    return json.dumps({k: encode_value(v) for k, v in row.items()})


def decode_row(text: str | None) -> dict[str, Any] | None:
    if text is None:
        return None
    return {k: decode_value(v) for k, v in json.loads(text).items()}


__all__ = ["HeldRow", "LogEntry", "State", "decode_row", "encode_row"]
