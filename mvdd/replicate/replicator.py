"""The main job: shard tables on several upstream servers merged into one downstream table while
every shard changes its schema on its own (TiDB DM's optimistic shard merge), exactly once.

Per source a :class:`~mvdd.binlog.BinlogReader` (its catalog in the state directory) reads the
binlog, each in a thread of its own; one applier takes their transactions in the order each
source wrote them and:

* **rows**: turns each shard's rows into rows of the joined table (:class:`~mvdd.replicate.
  merge.Route`) and applies them by key, several upstream transactions per downstream
  transaction when far behind, always with the checkpoint rows of the sources they come from
  (``mvdd_checkpoint``, in the same transaction). Rows of a paused shard (a conflict, a rename
  waiting for the other shards) are held in the state directory and applied, upgraded to the
  shard's schema, when it resumes.
* **DDL**: gives the shard group the table's new schema; every change of the group is written
  to the state directory's log, with the downstream statements it emits, before any of them
  runs. A statement's progress is recorded after it runs; after a crash the target's
  ``SHOW CREATE TABLE`` tells whether the one in flight ran. Never twice, never skipped.
  A shard's DDL that changed the values its rows held where the target's column does not
  follow (:func:`~mvdd.replicate.merge.rewritten`) has the shard's rows read again from a
  snapshot, the binlog from the DDL on applied again in safe mode up to it
  (:meth:`Replicator._refresh`).
* **first run**: per source one consistent snapshot gives the schemas, the binlog position and
  the rows; the rows are copied in key order, each batch with its checkpoint. A copy killed
  half way resumes from a new snapshot after the last key copied, and the binlog from the first
  snapshot is applied in safe mode (idempotent) up to the second (TiDB DM's safe mode); if a
  followed table's schema changed in between, the copy starts over.

Lost connections (a server restarted, a network cut) are waited for and resumed: upstream from
the last transaction end handed out (a snapshot copying rows: from the last batch copied, as
after a kill), downstream by reading the checkpoint back (a commit whose answer was lost is
never applied twice); each waits up to ``retry`` seconds. Stopping (:meth:`Replicator.run`'s
``stop``, SIGTERM or Ctrl-C in the CLI) ends at a transaction boundary.
"""

from __future__ import annotations

import contextlib
import json
import logging
import queue
import re
import shutil
import threading
import time
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs
import pymysql

from mvdd.binlog import BinlogPosition, BinlogReader, BinlogTransaction, EventKind
from mvdd.binlog.source import Outage, Source, matches, parse_tables, source_address
from mvdd.catalog import Catalog
from mvdd.ddl import parse_table
from mvdd.ddl.dml import (
    average_row_length,
    boundary,
    count_rows,
    create_like,
    drop_table,
    key_extent,
    row_bytes,
    upsert_from,
)
from mvdd.errors import MvddError, SourceConfigError, SourceLost
from mvdd.model import Table
from mvdd.model.kind import Family, TypeKind
from mvdd.model.names import fold_name
from mvdd.model.position import gtid_after
from mvdd.model.table import as_shown
from mvdd.replicate import faults
from mvdd.replicate.apply import Changes, Templates, member_number, member_numbers
from mvdd.replicate.merge import (
    Merge,
    ReplicationError,
    Route,
    is_data,
    is_helper,
    is_truncate,
    members_apart,
    rewritten,
    row_key,
    shard_name,
)
from mvdd.replicate.state import HeldRow, LogEntry, State, decode_value, encode_value
from mvdd.replicate.target import Checkpoint, Op, Target, TargetLost
from mvdd.shard import ShardGroup
from mvdd.store.address import parse_address
from mvdd.store.mysql import connection_lost

log = logging.getLogger("mvdd.replicate")

_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$")


def _sequence(catalog: Catalog, ev: Any) -> bool:
    """Whether a DDL event's table is a MariaDB sequence (before its drop, for one that drops
    it): a table of one row, the upstream's generator of values, which no shard group takes
    (a table that becomes one, ``SEQUENCE=1``, leaves its group as a rename out would)."""
    for version in (ev.version, ev.version - 1):
        with contextlib.suppress(MvddError):
            return catalog.table_by_id(ev.table_id, version=version).options.sequence
    return False


#: a reader thread's last word
_DONE = object()
BULK = ("auto", "spark", "rows")
#: the rows a bulk copy measures to size a shard's partitions by bytes, in windows spread over
#: the shard's key (:meth:`Replicator._row_bytes`)
SAMPLED_ROWS = 1000
WINDOWS = 10
#: an integer key of at most this many values a row, between its least and its greatest, is
#: cut by equal widths (a width holds at most its values' rows); one of more, by its rows
DENSE = 2


@attrs.define
class _Source:
    """One upstream server as the applier sees it."""

    name: str
    url: str
    catalog: Catalog
    applied: BinlogPosition | None = None
    safe_until: BinlogPosition | None = None
    rows: dict[str, int] = attrs.field(factory=dict)
    #: shards a DDL changed during their bulk copy: copied again once following passed it
    recopy: list[str] = attrs.field(factory=list)
    #: shards whose own DDL changed the values they held (:func:`rewritten`): their rows are
    #: read again (:meth:`Replicator._refresh`)
    refresh: set[str] = attrs.field(factory=set)
    #: shards whose held rows were released, and the last transaction they came from: a
    #: transaction read again up to it (the checkpoint left behind the held rows by a kill,
    #: and the shard resumed by another source's DDL before this one read that far) was
    #: applied with them, and is not applied twice
    released: dict[str, BinlogPosition] = attrs.field(factory=dict)
    timestamp: float = 0.0
    idle: bool = False
    #: MariaDB's GTID position applied (:func:`~mvdd.model.position.gtid_after`; None: not
    #: known, a MySQL source)
    gtid: str | None = None

    def widen_safe(self, positions: Iterable[BinlogPosition]) -> None:
        """The safe window stretched to each of ``positions`` (where rows were read at it)."""
        for at in positions:
            if self.safe_until is None or self.safe_until < at:
                self.safe_until = at


@attrs.frozen
class _Reached:
    """Where a source stands once one of its transactions is applied: the transaction's end,
    the GTID position after it (None: not known) and its time (0: not known)."""

    commit: BinlogPosition
    gtid: str | None
    time: float = 0.0

    def enter(self, src: _Source) -> None:
        """``src`` as it stands once the transaction's downstream commit is done."""
        src.applied, src.gtid = self.commit, self.gtid
        src.timestamp = self.time or src.timestamp


def _cut_short(points: Mapping[str, Checkpoint], shards: Iterable[str]) -> list[BinlogPosition]:
    """The snapshots of the reads again of ``shards`` that a kill cut short: their rows so far
    are in the target as that snapshot saw them, so the binlog up to it is applied in safe
    mode, whether the read goes on or waits for the shard's next DDL (a read of another version
    starts over, at a snapshot of its own)."""
    out = []
    for shard in shards:
        point = points.get(f"refresh:{shard}")
        if point is not None and point.position and not point.data.get("done"):
            out.append(BinlogPosition.parse(point.position))
    return out


def _ddl_progress(target: Target, entry: LogEntry, done: int, *, final: bool = False) -> Op:
    """The checkpoint of a group log entry's downstream statements: ``done`` of them ran
    (``final``: and the entry's transaction, its held rows and its source's checkpoint, are
    in)."""
    data: dict[str, Any] = {"done": done, "final": True} if final else {"done": done}
    return target.checkpoint_op("ddl", Checkpoint(entry.position, entry.seq, data))


def _gtid_applied(before: str | None, txn: BinlogTransaction) -> str | None:
    """The GTID position once ``txn`` is applied after ``before`` (None: not known, stays so)."""
    return gtid_after(before, txn.gtid) if before is not None and txn.gtid else before


@attrs.define
class _Pending:
    """A downstream transaction being built from upstream transactions."""

    changes: Changes
    holds: list[HeldRow] = attrs.field(factory=list)
    lake: list[Any] = attrs.field(factory=list)
    #: source -> where its last transaction in the batch leaves it
    commits: dict[str, _Reached] = attrs.field(factory=dict)
    started: float = attrs.field(factory=time.monotonic)

    def __bool__(self) -> bool:
        return bool(self.changes) or bool(self.holds) or bool(self.commits)


def numbered_columns(table: Table, key: Sequence[str]) -> frozenset[str]:
    """The columns of ``key`` a range compares by their number: an ENUM's and a SET's, which
    the key's index orders by their number (an ENUM's members in their order, not the text's)
    and a comparison with a text compares as text."""
    return frozenset(k for k in key if table.column(k).type.family is Family.ENUM)


def member_texts(table: Table, key: Sequence[str]) -> dict[str, tuple[str, ...]]:
    """The ENUM columns of ``key`` a range may compare through their members' texts (each
    member's, in their order: :func:`~mvdd.ddl.dml.key_range`'s ``members``), which the
    servers read as ranges: those whose texts tell the members apart
    (:func:`~mvdd.replicate.merge.members_apart`), none of them the empty text of the error
    value. The others are compared by number, which the servers read by a scan."""
    out = {}
    for k in key:
        column = table.column(k)
        t = column.type
        if t.kind is TypeKind.ENUM and "" not in t.members and members_apart(table, column):
            out[k] = t.members
    return out


def key_numbers(table: Table, key: Sequence[str], values: Sequence[Any]) -> list[Any]:
    """A key's values as read (an ENUM's or a SET's as their text) with those of its ENUM and
    SET columns as their numbers (:func:`~mvdd.replicate.apply.member_number`; the error value
    and the empty set, 0), which compare in the key's order: where a copy resumes after them."""
    out = list(values)
    for i, k in enumerate(key):
        t = table.column(k).type
        if t.family is Family.ENUM:
            found = member_number(out[i], member_numbers(*t.members, kind=t.kind.value))
            out[i] = 0 if found == "" else found
    return out


def key_bounds(
    cur: Any,
    table: tuple[str, str],
    key: list[str],
    total: int,
    parts: int,
    numbered: Collection[str] = (),
    members: Mapping[str, Sequence[str]] = {},
) -> list[list[Any]]:
    """The keys cutting a table of ``total`` rows into ``parts`` partitions of as many rows in
    key order: the key of the row at each ``i * total // parts``. Each found from the one
    before it (:func:`~mvdd.ddl.dml.boundary`), so the server reads the table's rows once in
    all, where a bound read from the first row reads half the table on average. Fewer when
    rows were deleted since ``total`` was counted. ``numbered``: the key's ENUM and SET
    columns (:func:`numbered_columns`), whose values a bound holds as their numbers;
    ``members``: :func:`member_texts`."""
    out: list[list[Any]] = []
    after, at = None, 0
    for i in range(1, parts):
        offset = i * total // parts
        cur.execute(boundary(table, key, offset - at, after, numbered, members))
        row = cur.fetchone()
        if row is None:
            break
        after, at = list(row), offset
        out.append(after)
    return out


class Replicator:
    """Shards on upstream servers into one table of a downstream database, exactly once.

    Args:
        sources: upstream name -> ``mysql://user:password@host:port/`` (also ``mariadb://``,
            ``?unix_socket=PATH``; ``?snapshot=locked`` takes the first run's snapshot under
            a read lock, see :mod:`mvdd.binlog.source`). Every table matching ``tables`` on
            every source is a shard, named ``<source>/<database>.<table>`` (tools' helper
            tables never are).
        tables: fnmatch pattern(s) of ``database.table``.
        target: the merged table, created by the replicator in the downstream database (which
            must exist); a table of that name the state directory did not create is refused.
        downstream: ``mysql://…/database`` of the target (None: lake output only).
        state: the state directory (created if missing).
        server_id: the first replica id the readers register with (one per source, counting
            up); default: derived from each source and the state directory.
        renames: how the group follows column renames (:class:`~mvdd.shard.ShardGroup`).
        batch_rows, batch_seconds: a downstream transaction takes upstream transactions until
            it holds this many rows or is this old (or the sources are caught up).
        retry: seconds to wait for a lost server before giving up (None: for ever).

    Building a Replicator connects to nothing; it reads the state directory if there is one.

    >>> r = Replicator({"a": "mysql://repl@db1/", "b": "mysql://repl@db2/"},  # doctest: +SKIP
    ...                tables="shop.orders_*", target="orders",
    ...                downstream="mysql://app@dw/shop", state="state/")
    >>> r.run(until="end")  # doctest: +SKIP
    """

    def __init__(
        self,
        sources: dict[str, str],
        *,
        tables: str | list[str],
        target: str,
        downstream: str | None,
        state: str | Path,
        server_id: int | None = None,
        bulk: str = "auto",
        lake: str | Path | None = None,
        renames: str = "merge",
        batch_rows: int = 5000,
        batch_seconds: float = 0.2,
        retry: float | None = 300.0,
    ) -> None:
        if not sources:
            raise SourceConfigError("a replicator needs at least one source (NAME=URL)")
        for name in sources:
            if not isinstance(name, str) or not _NAME.match(name):
                raise SourceConfigError(
                    f"source name {name!r}: letters, digits, '_', '-' and '.' (up to 64)"
                )
        self.sources = dict(sources)
        self.patterns = parse_tables(tables)
        if not isinstance(target, str) or not _NAME.match(target) or "." in target:
            raise SourceConfigError(f"target table name {target!r}: letters, digits, '_', '-'")
        self.target_name = target
        if downstream is None and lake is None:
            raise SourceConfigError("a replicator needs a downstream database or a lake")
        self.downstream = downstream
        self.state_dir = Path(state)
        self.server_id = server_id
        if bulk not in BULK:
            raise SourceConfigError(f"bulk must be one of {BULK}, not {bulk!r}")
        self.bulk = bulk
        self.lake = Path(lake) if lake is not None else None
        if self.lake is not None:  # before anything is written there
            from mvdd.spark.lake import check_folder

            check_folder(self.lake)
        self.renames = renames
        self.batch_rows = batch_rows
        self.batch_seconds = batch_seconds
        self.retry = retry
        #: ``bulk="auto"`` copies with Spark from this many rows in all
        self.bulk_rows = 1_000_000
        #: the bulk copy's partitions and chunks (one Spark job each, its partitions a multiple
        #: of Spark's parallelism; a copy resumes by chunk), and Spark's memory: a partition
        #: holds at most ``partition_rows`` rows and about ``partition_bytes`` bytes as read
        #: (a row's bytes estimated by :meth:`_row_bytes`), so a chunk Spark holds for a lake
        #: and a target is bounded by ``chunk_partitions`` × ``partition_bytes``
        self.partition_rows = 100_000
        self.partition_bytes = 64 * 2**20
        self.chunk_partitions = 8
        self.spark_memory = "2g"
        self._spark_session: Any = None
        #: the lake is compacted every this many change batches (and by ``mvdd compact``)
        self.compact_every = 200
        self._lake: Any = None
        self._merge: Merge | None = None
        self._sources: dict[str, _Source] = {}
        #: the upstream servers, shared by every reader of this replicator
        self._servers: dict[str, Source] = {}
        for name, url in self.sources.items():
            try:
                self._servers[name] = Source(url)
            except MvddError as err:
                raise err.locate(source=name) from None
        self._stop = threading.Event()
        self._status: dict[str, Any] = {}
        #: called with the status about once a second while following (a live display)
        self.on_status: Callable[[dict[str, Any]], None] | None = None

    # -- public -----------------------------------------------------------------------------------

    @property
    def group(self) -> ShardGroup:
        """The shard group (as the state directory holds it, when the replicator has not run
        in this process yet)."""
        if self._merge is None or self._merge.group is None:
            state = State(self.state_dir)
            try:
                catalogs = self._catalogs(state)
                merge = Merge(self.target_name, catalogs, state, renames=self.renames)
                merge.rebuild(state.log())
            finally:
                state.close()
            if merge.group is None:
                raise ReplicationError("the replicator has not run yet: there is no group")
            return merge.group
        return self._merge.group

    def status(self) -> dict[str, Any]:
        """Per shard: the position applied, the shard's table version, whether it is paused
        (and why), the lag in seconds and the rows applied (see the API contract); and
        ``downstream``: the warnings its DDL gave (:meth:`State.downstream`)."""
        if self._status:
            return self._status
        state = State(self.state_dir)
        try:
            return state.report()
        finally:
            state.close()

    def run(
        self, *, until: str | None = "end", stop: threading.Event | None = None
    ) -> dict[str, Any]:
        """Replicate: the first run copies what is upstream, then every run follows the
        binlogs. ``until``: ``"end"`` (each source's binlog end as seen once the copy is done),
        None (for ever, until ``stop`` is set). Returns :meth:`status`.

        Raises an MvddError naming source, shard and position (SourceConfigError: a source
        that cannot be read; TargetError: a downstream that refuses; ReplicationError: the
        replication cannot go on)."""
        if until not in ("end", None):
            raise SourceConfigError(f"until is 'end' or None, not {until!r}")
        stop = stop or threading.Event()
        state = State(self.state_dir)
        try:
            self._check_meta(state)
            return self._run(state, until, stop)
        finally:
            state.close()
            if self._spark_session is not None:
                self._spark_session.stop()
                self._spark_session = None

    # -- starting ---------------------------------------------------------------------------------

    def _check_meta(self, state: State) -> None:
        meta = {"target": self.target_name, "tables": list(self.patterns)}
        kept = state.get("config")
        if kept is None:
            state.put("config", {**meta, "sources": sorted(self.sources), "renames": self.renames})
            return
        if kept.get("target") != meta["target"] or kept.get("tables") != meta["tables"]:
            raise SourceConfigError(
                f"the state directory {str(self.state_dir)!r} replicates {kept.get('tables')} "
                f"into `{kept.get('target')}`, not {meta['tables']} into `{meta['target']}`"
            )
        gone = set(kept.get("sources", ())) - set(self.sources)
        if gone:
            raise SourceConfigError(
                f"the state directory follows the sources {sorted(gone)} too: give them all"
            )

    def _catalogs(self, state: State) -> dict[str, Catalog]:
        return {
            name: Catalog.open(str(state.catalog_path(name)), replica=True) for name in self.sources
        }

    def _reader(
        self, name: str, catalog: Catalog, start: Any = None, gtid: str | None = None
    ) -> BinlogReader:
        index = sorted(self.sources).index(name)
        server_id = self.server_id + index if self.server_id is not None else None
        try:
            return BinlogReader(
                self._servers[name],
                tables=list(self.patterns),
                catalog=catalog,
                server_id=server_id,
                start=start,
                retry=self.retry,
                gtid=gtid,
            )
        except MvddError as err:
            raise err.locate(source=name) from None

    def _run(self, state: State, until: str | None, stop: threading.Event) -> dict[str, Any]:
        target: Any
        if self.downstream is None:
            from mvdd.replicate.lake import LakeTarget

            assert self.lake is not None
            target = LakeTarget(self.lake, self.target_name, self._spark)
        else:
            target = Target(self.downstream, self.target_name)
        self._stop = stop
        try:
            self._retrying(target.check)
            self._retrying(target.ensure_checkpoint_table)
            points = self._retrying(target.checkpoints)
            owner = points.get("state")
            if owner is not None and owner.data.get("id") != state.id:
                raise ReplicationError(
                    f"`{self.target_name}` in {target.description} belongs to another state "
                    f"directory than {str(self.state_dir)!r}"
                )
            outage = Outage("a server", self.retry)  # (a Spark job's may be downstream)
            while True:
                if not state.log():
                    # nothing was decided yet: whatever a killed first run left is redone
                    self._forget_catalogs(state)
                began = time.monotonic()
                try:
                    return self._replicate(state, target, until)
                except SourceLost as lost:
                    # a snapshot's rows cannot be read on another connection: start over from
                    # the checkpoints, as a process killed there would (the snapshot waits)
                    if self._stop.is_set():
                        raise
                    target.close()  # what the downstream had open is rolled back
                    if self.retry is not None and time.monotonic() - began > self.retry:
                        outage.over()  # it ran a while since the last loss: a new outage
                    outage.wait(lost)
        finally:
            target.close()

    def _replicate(self, state: State, target: Target, until: str | None) -> dict[str, Any]:
        catalogs = self._catalogs(state)
        try:
            merge = self._merge = Merge(self.target_name, catalogs, state, renames=self.renames)
            self._sources = {n: _Source(n, url, catalogs[n]) for n, url in self.sources.items()}
            entries = state.log()
            if not entries:
                if self._retrying(target.table_schema) is not None:
                    raise ReplicationError(
                        f"a table `{self.target_name}` exists in {target.description} and this "
                        "state directory did not create it: give another target or drop it"
                    )
                self._first_run(state, target, merge)
            else:
                merge.rebuild(entries)
                self._open_lake(merge)
                points = self._retrying(target.checkpoints)
                self._recover(state, target, merge, points)
                why = self._resume_copies(state, target, merge)
                if why is not None:
                    for cat in catalogs.values():
                        cat.close()
                    catalogs = {}
                    self._reset(state, target, why)
                    return self._replicate(state, target, until)
            points = self._retrying(target.checkpoints)
            self._open_lake(merge)
            for src in self._sources.values():
                point = points.get(f"source:{src.name}")
                if point is None or point.position is None:
                    if self._stop.is_set():
                        return self._publish(state, merge)
                    raise ReplicationError("the copy did not finish", source=src.name)
                src.applied = BinlogPosition.parse(point.position)
                src.gtid = (
                    point.data["gtid"]
                    if "gtid" in point.data
                    else self._servers[src.name].gtid_at(src.applied)  # (an older checkpoint)
                )
                safe = point.data.get("safe_until")
                src.safe_until = BinlogPosition.parse(safe) if safe else None
                src.rows = {k: int(v) for k, v in point.data.get("rows", {}).items()}
                src.recopy = list(point.data.get("recopy", []))
                src.refresh = set(point.data.get("refresh", []))
                src.widen_safe(_cut_short(points, src.refresh))
            self._refresh(target, merge)
            while any(src.recopy for src in self._sources.values()) and not self._stop.is_set():
                # follow to the end of the safe windows (past the DDL), then copy again (until
                # no copy meets a table changed under it again)
                self._follow(state, target, merge, "safe")
                if not self._stop.is_set():
                    self._recopy(state, target, merge)
            if not self._stop.is_set():
                self._follow(state, target, merge, until)
            return self._publish(state, merge)
        finally:
            for cat in catalogs.values():
                cat.close()

    def _open_lake(self, merge: Merge) -> None:
        """The lake output of this run (a run's merge is its own: a lake output of an earlier
        run of this replicator would label rows with that run's shard versions)."""
        if self.lake is None or merge.group is None:
            return
        if self._lake is not None and self._lake.merge is merge:
            return
        from mvdd.replicate.lake import LakeOutput

        key = row_key(merge.group.joined) or ()
        self._lake = LakeOutput(self.lake, merge, self.state_dir, self.target_name, key)

    def _compact_now(self, *, force: bool = False) -> None:
        """Compact the lake every :attr:`compact_every` batches (``force``: now)."""
        lake = self._lake
        if lake is None or (lake.batches < self.compact_every and not force):
            return
        from mvdd.spark.lake import compact

        assert lake.merge.group is not None
        compact(self._spark(), lake.folder, lake.merge.group)
        lake.batches = 0

    def _retrying(self, fn: Callable[[], Any]) -> Any:
        """``fn()``, waiting for a lost downstream to come back (then trying again), up to
        ``retry`` seconds; a stop ends the waiting at once."""
        outage = Outage("the downstream", self.retry, error=TargetLost, stop=self._stop.is_set)
        while True:
            try:
                return fn()
            except TargetLost as lost:
                outage.wait(lost)

    def _forget_catalogs(self, state: State) -> None:
        shutil.rmtree(state.folder / "catalogs", ignore_errors=True)
        (state.folder / "catalogs").mkdir(parents=True, exist_ok=True)

    def _reset(self, state: State, target: Target, why: str) -> None:
        """Forget everything of a copy that must start over (the target included)."""
        log.warning("%s: copying again", why)
        self._retrying(lambda: target.execute(drop_table(self.target_name)))
        self._commit(target, [target.forget_op()])
        if self.lake is not None:  # the lake starts over too
            for name in ("changes", "snapshots", "CURRENT"):
                path = self.lake / name
                shutil.rmtree(path, ignore_errors=True) if path.is_dir() else path.unlink(
                    missing_ok=True
                )
            self._lake = None
        state.reset()
        self._forget_catalogs(state)

    # -- the first run: snapshots, the group, the copy --------------------------------------------

    def _shards_of(self, name: str, catalog: Catalog) -> dict[str, tuple[str, int, int]]:
        out = {}
        for table in catalog.tables():
            if not matches(self.patterns, table) or is_helper(table):
                continue
            t = catalog.table(table)
            if t.options.sequence:
                continue  # (the upstream's generator of values, not rows of the target's)
            shard = shard_name(name, table)
            if row_key(t) is None:
                raise ReplicationError(
                    "the table has neither a PRIMARY KEY nor a NOT NULL UNIQUE key: its rows "
                    "could not be matched downstream",
                    source=name,
                    shard=shard,
                    table=table,
                )
            out[shard] = (name, t.id, t.version)
        return out

    def _first_run(self, state: State, target: Target, merge: Merge) -> None:
        with contextlib.ExitStack() as stack:
            snapshots = {}
            for name, src in self._sources.items():
                reader = stack.enter_context(self._reader(name, src.catalog))
                try:
                    snapshots[name] = stack.enter_context(reader.snapshot())
                except MvddError as err:
                    raise err.locate(source=name) from None
            shards: dict[str, tuple[str, int, int]] = {}
            for name, src in self._sources.items():
                shards.update(self._shards_of(name, src.catalog))
            if not shards:
                raise SourceConfigError(
                    f"the pattern {list(self.patterns)} matches no table on "
                    f"{', '.join(sorted(self._sources))}"
                )
            method = self._method(snapshots, merge, shards)
            state.put("copy", method)
            try:
                entry = merge.init(shards)
            except MvddError as err:
                raise ReplicationError(f"the shards' schemas have no join: {err}") from None
            self._run_entry(state, target, merge, entry, None)
            self._open_lake(merge)
            starts = {name: rows.position for name, rows in snapshots.items()}
            if method == "rows":
                for name, rows in snapshots.items():
                    assert rows.position is not None
                    self._copy(target, merge, name, rows, rows.position, None, {})
                return
        # the bulk copy reads outside the snapshots (they gave the schemas and the start)
        for name, start in starts.items():
            assert start is not None
            self._copy_bulk(target, merge, name, start, {})

    def _method(self, snapshots: dict[str, Any], merge: Merge, shards: dict[str, Any]) -> str:
        """How the first copy goes: ``bulk`` as asked; ``auto``: Spark above
        :attr:`bulk_rows` rows in all (and when Spark and the JDBC driver are here). Row by
        row where Spark's would be and a shard has an ENUM or a SET whose members a value's
        text does not tell apart (:func:`~mvdd.replicate.merge.members_apart`), which
        Spark's copy would write as their text."""
        method = self._asked_method(snapshots, shards)
        if method != "spark":
            return method
        for source, tid, version in shards.values():
            table = self._sources[source].catalog.table_by_id(tid, version=version)
            alike = [c.name for c in table.columns if not members_apart(table, c)]
            if alike:
                log.warning(
                    "copying row by row: the members of %s of %s are not told apart by their "
                    "text, which Spark's copy writes",
                    alike,
                    table.name,
                )
                return "rows"
        return method

    def _asked_method(self, snapshots: dict[str, Any], shards: dict[str, Any]) -> str:
        if self.bulk == "spark":
            self._jdbc_ready()  # an address Spark's driver cannot honour fails here, not mid-copy
        if self.bulk != "auto":
            return self.bulk
        total = 0
        for source, tid, version in shards.values():
            table = self._sources[source].catalog.table_by_id(tid, version=version)
            total += snapshots[source].count(tuple(table.name.split(".", 1)))  # type: ignore[arg-type]
        if total < self.bulk_rows:
            return "rows"
        try:
            self._jdbc_ready()
        except (ImportError, MvddError) as err:
            log.warning("copying %d rows without Spark: %s", total, err)
            return "rows"
        return "spark"

    def _jdbc_ready(self) -> None:
        """Spark's JDBC driver is here and takes every address it would connect to (their TLS
        settings: :mod:`mvdd.spark.jdbc`)."""
        from mvdd.spark.jdbc import driver_jars, jdbc_options

        driver_jars()
        for url in self.sources.values():
            jdbc_options(source_address(url))
        if self.downstream is not None:
            jdbc_options(parse_address(self.downstream))

    def _copy(
        self,
        target: Target,
        merge: Merge,
        source: str,
        rows: Any,
        start: BinlogPosition,
        safe_until: BinlogPosition | None,
        progress: dict[str, Checkpoint],
    ) -> None:
        """Copy every shard of ``source`` from a snapshot, in key order, a batch per downstream
        transaction with its checkpoint; then the source's checkpoint: following starts at
        ``start``, in safe mode up to ``safe_until``."""
        counts: dict[str, int] = {}
        for shard, (src, _) in sorted(merge.tables.items()):
            if src != source:
                continue
            point = progress.get(f"copy:{shard}")
            if point is not None and point.data.get("done"):
                counts[shard] = int(point.data.get("rows", 0))
                continue
            copied = self._stream(
                target, merge, shard, rows, mark=f"copy:{shard}", position=start, point=point
            )
            if copied is None:
                return
            done = Checkpoint(str(start), merge.seq, {"rows": copied, "done": True})
            self._commit(target, [target.checkpoint_op(f"copy:{shard}", done)])
            counts[shard] = copied
            log.info("copied %d rows of %s", copied, shard)
        src_state = self._sources[source]
        src_state.rows = dict(counts)
        src_state.safe_until = safe_until
        reached = _Reached(start, self._servers[source].gtid_at(start))
        if self._lake is not None:
            self._lake.append([], {source: start}, {source: reached.gtid})
        self._commit(target, [self._source_op(target, merge, source, reached)])
        src_state.gtid = reached.gtid

    # -- the bulk copy: Spark ------------------------------------------------------------------

    def _spark(self) -> Any:
        if self._spark_session is None:
            from mvdd.spark.runtime import shared_session

            found, made = shared_session("mvdd-replicate", memory=self.spark_memory)
            if made:
                found.sparkContext.setLogLevel("ERROR")
                self._spark_session = found
            return found
        return self._spark_session

    def _bounds(
        self,
        source: str,
        table: Table,
        columns: list[str],
        key: list[str],
        members: Mapping[str, Sequence[str]],
        parallel: int,
    ) -> tuple[list[list[Any]], int]:
        """Key bounds cutting a shard into partitions of at most :attr:`partition_rows` rows
        and about :attr:`partition_bytes` bytes (their number a multiple of Spark's
        ``parallel`` tasks, so no wave of a chunk runs a core short), and the shard's row
        count when they were taken. Equal widths of a single integer key whose values are
        dense (:data:`DENSE`: a partition then holds no more rows than its width, whatever
        the gaps), else the keys at every n-th row (:func:`key_bounds`: equal widths of a
        key of gaps, a sentinel row's far value, or values bunched at one end, would put most
        rows in a few partitions). ``columns``: the ones the copy reads, whose bytes a row's
        are; ``members``: :func:`member_texts`."""
        database, _, name = table.name.partition(".")
        at = (database, name)
        numbered = numbered_columns(table, key)
        with (
            contextlib.closing(
                pymysql.connect(
                    **source_address(self.sources[source]).connect_options(database=False)
                )
            ) as conn,
            conn.cursor() as cur,
        ):
            cur.execute(count_rows(at))
            total = int(cur.fetchone()[0])
            extent = None
            if len(key) == 1 and table.column(key[0]).type.family == "integer" and total:
                cur.execute(key_extent(at, key[0]))
                low, high = cur.fetchone()
                if low is None:
                    return [], total  # (emptied since the count)
                extent = (int(low), int(high))

            def partitions(rows: int, width: int = 1) -> int:
                """How many partitions ``rows`` rows of ``width`` bytes take (a multiple of
                ``parallel``)."""
                parts = max(
                    1, -(-rows // self.partition_rows), -(-rows * width // self.partition_bytes)
                )
                return 1 if parts == 1 else -(-parts // parallel) * parallel

            # the windows of the sample of a row's bytes start at a spread of keys (a shard of
            # more rows than the sample's): values spread between an integer key's least and
            # greatest, else the keys at every n-th row, found with the partitions' bounds by
            # rows (one read of the key for both, unless the bytes ask for more partitions)
            cut: list[list[Any]] = []
            starts: list[list[Any]] = []
            if extent is not None and total > SAMPLED_ROWS:
                low, high = extent
                starts = [[low + i * (high - low) // WINDOWS] for i in range(1, WINDOWS)]
            elif total > SAMPLED_ROWS:
                cut = key_bounds(
                    cur, at, key, total, max(partitions(total), WINDOWS), numbered, members
                )
                starts = cut[:: max(1, len(cut) // (WINDOWS - 1))]
            width = self._row_bytes(cur, at, columns, key, starts, members)
            parts = partitions(total, width)
            if parts == 1:
                return [], total
            if extent is not None:
                values = extent[1] - extent[0] + 1
                if values <= DENSE * total:
                    parts = partitions(values, width)
                    step = -(-values // parts)
                    edges = (extent[0] + i * step for i in range(1, parts))
                    return [[edge] for edge in edges if edge <= extent[1]], total
            if len(cut) != parts - 1:
                cut = key_bounds(cur, at, key, total, parts, numbered, members)
            return [[encode_value(v) for v in row] for row in cut], total

    @staticmethod
    def _row_bytes(
        cur: Any,
        table: tuple[str, str],
        columns: list[str],
        key: list[str],
        starts: list[Any],
        members: Mapping[str, Sequence[str]],
    ) -> int:
        """The bytes a row of ``table`` carries as read, by the largest of the estimates: the
        average of :data:`SAMPLED_ROWS` rows' values, which the server measures, in windows
        of as many rows at the table's first key and at each of ``starts`` (the widest
        window's: a partition of the table's widest rows still holds about the bytes asked),
        and the server's statistics of its average row length (over the whole table, but an
        estimate, stale right after a load, and blind to values InnoDB keeps off the row's
        page)."""
        rows = SAMPLED_ROWS // (len(starts) + 1)
        sampled = []
        for after in [None, *starts]:
            cur.execute(row_bytes(table, columns, rows, key, after, members))
            sampled.append(cur.fetchone()[0])
        cur.execute(average_row_length(table))
        found = cur.fetchone()
        stated = found[0] if found is not None else None
        return max(1, *(int(s or 0) for s in sampled), int(stated or 0))

    def _copy_bulk(
        self,
        target: Target,
        merge: Merge,
        source: str,
        start: BinlogPosition,
        progress: dict[str, Checkpoint],
        *,
        shards: list[str] | None = None,
    ) -> None:
        """Copy the shards of ``source`` with Spark, chunk by chunk (a chunk: a Spark read of
        :attr:`chunk_partitions` partitions, held for both writes where a lake is beside the
        target: :func:`~mvdd.spark.bulk.held`), each recorded once written; then the source's
        checkpoint: following starts at ``start`` and is in safe mode up to where the binlog
        ended after the copy. ``shards``: only these, every row upserted (a copy done again)."""

        counts = dict(self._sources[source].rows)
        wanted = sorted(s for s, (src, _) in merge.tables.items() if src == source)
        again = shards is not None
        deferred: list[str] = []  # shards whose table a DDL changed under their copy
        for shard in shards if shards is not None else wanted:
            try:
                point = progress.get(f"bulk:{shard}")
                copied = self._bulk_shard(shard, point, again, start, to=(target, merge))
            except Exception as err:
                moved = self._moved(merge, source, shard, err)
                if moved is None:
                    raise
                log.warning(
                    "%s: its table changed under its copy (%s): copied again once following "
                    "has passed the DDL",
                    shard,
                    moved,
                )
                done = Checkpoint(str(start), merge.seq, {"rows": 0, "done": True, "moved": True})
                self._commit(target, [target.checkpoint_op(f"bulk:{shard}", done)])
                deferred.append(shard)
                continue
            if copied is None:
                return
            counts[shard] = copied
        with self._reader(source, self._sources[source].catalog) as reader:
            end = reader.source.end()
            changed = self._changed(reader, merge, source, start, end) if shards is None else []
            log.info(
                "%s: binlog %s .. %s during the copy; DDL on %s",
                source,
                start,
                end,
                changed or "none",
            )
        src_state = self._sources[source]
        src_state.rows = counts
        src_state.safe_until = end if start < end else None
        src_state.recopy = sorted({*changed, *deferred})
        commit = start if shards is None else src_state.applied
        assert commit is not None
        gtid = self._servers[source].gtid_at(commit) if shards is None else src_state.gtid
        if self._lake is not None:
            self._lake.append([], {source: commit}, {source: gtid})
        self._commit(target, [self._source_op(target, merge, source, _Reached(commit, gtid))])
        src_state.gtid = gtid

    def _bulk_shard(
        self,
        shard: str,
        point: Checkpoint | None,
        again: bool,
        start: BinlogPosition,
        *,
        to: tuple[Target, Merge],
    ) -> int | None:
        """One shard's bulk copy (see :meth:`_copy_bulk`; ``point``: its checkpoint, ``to``:
        the target and the merge): the rows it had when its copy began, or None when the
        replicator was stopped mid-way."""
        from mvdd.spark import bulk

        target, merge = to
        source, _ = merge.tables[shard]
        spark = self._spark()
        upstream = source_address(self.sources[source])
        down = parse_address(self.downstream) if self.downstream is not None else None
        group = merge.group
        assert group is not None
        stage = f"mvdd_stage_{self.target_name}"

        def recorded(data: dict[str, Any]) -> Op:  # the copy's checkpoint
            return target.checkpoint_op(f"bulk:{shard}", Checkpoint(str(start), merge.seq, data))

        if point is not None and again and not point.data.get("recopy"):
            point = None  # the first copy's record: this copy starts from scratch
        if point is not None and point.data.get("done"):
            return int(point.data.get("rows", 0))
        how = merge.reading(shard)
        table, route, read, columns, key = how.table, how.route, how.read, how.columns, how.key
        members = member_texts(table, key)
        into, _ = route.positions(columns)
        # (a renamed column of a rename under way takes the shard's old name's values too)
        also = {second: route.columns[up] for up, second in route.also.items()}
        # (the shard's columns feeding the target's ENUMs without an empty member, whose
        # error value the target's strict sessions refuse; none for a lake alone)
        errors = (
            [c for c in columns if route.columns.get(c) in route.empty] if down is not None else []
        )
        database, _, name = table.name.partition(".")
        data = dict(point.data) if point is not None else {}
        if "bounds" not in data:
            parallel = spark.sparkContext.defaultParallelism
            bounds, total = self._bounds(source, table, columns, key, members, parallel)
            size = -(-self.chunk_partitions // parallel) * parallel
            data = {"bounds": bounds, "rows": total, "chunk": size, "chunks": 0}
            data["recopy"] = again
            self._commit(target, [recorded(data)])
        bounds = [[decode_value(v) for v in b] for b in data["bounds"]]
        predicates = bulk.ranges(key, bounds, read, members)
        size = int(data.get("chunk", self.chunk_partitions))  # as the copy began
        chunks = [predicates[i : i + size] for i in range(0, len(predicates), size)]
        # (the lake and the target both: each chunk read once and held for both writes)
        writes = (self._lake is not None) + (down is not None)
        for i in range(int(data["chunks"]), len(chunks)):
            if self._stop.is_set():
                return None
            with contextlib.ExitStack() as chunk:
                with _spark_jobs(shard):
                    frame = bulk.read(
                        spark,
                        upstream,
                        (database, name),
                        read,
                        chunks[i],
                        errors=errors,
                    )
                    frame = chunk.enter_context(bulk.held(frame, writes=writes))
                    if self._lake is not None:
                        self._lake.writer.append_frame(frame, shard, group.version(shard), table)
                    apart: list[Op] = []  # rows holding an ENUM's error value, upserted
                    if errors:
                        flagged, kept = bulk.enum_errors()
                        changes = Changes(Templates(self.target_name))
                        for found in bulk.joined_rows(
                            frame.filter(flagged), group, shard, group.version(shard), into, also
                        ).collect():
                            changes.insert(
                                dict(zip(into, found, strict=True)),
                                safe=True,
                                empty=route.empty,
                            )
                        apart = changes.ops()
                        frame = frame.filter(kept)
                    rows = bulk.joined_rows(frame, group, shard, group.version(shard), into, also)
                # a chunk a kill may have half written, or a copy done again: upserted
                upsert = again or data.get("started") == i
                data = {**data, "started": i}
                self._commit(target, [recorded(data)])
                done = {**data, "chunks": i + 1}
                mark = recorded(done)
                if down is None:  # the lake only: the frame is written there
                    self._commit(target, [mark])
                elif upsert:
                    self._retrying(lambda: target.execute(drop_table(stage)))
                    self._retrying(lambda: target.execute(create_like(stage, self.target_name)))
                    with _spark_jobs(shard):
                        bulk.write(rows, down, stage, session=target.variables)
                    faults.reach("after-chunk")
                    self._commit(
                        target,
                        [Op(upsert_from(self.target_name, stage, into), ((),)), *apart, mark],
                    )
                    self._retrying(lambda: target.execute(drop_table(stage)))
                else:
                    with _spark_jobs(shard):
                        bulk.write(rows, down, self.target_name, session=target.variables)
                    faults.reach("after-chunk")
                    self._commit(target, [*apart, mark])
            data = done
        copied = int(data.get("rows", 0))  # the shard's rows when its copy began
        self._commit(target, [recorded({"rows": copied, "done": True})])
        log.info("copied %d rows of %s with Spark", copied, shard)
        return copied

    def _moved(self, merge: Merge, source: str, shard: str, err: Exception) -> str | None:
        """Why a shard's bulk copy failed where a DDL since the snapshot dropped or renamed a
        column the copy reads, or its table (the copy reads the live table, outside the
        snapshot, with the snapshot's columns: a DDL that leaves them there is found by
        :meth:`_changed` after the copy); None for any other failure, which stands."""
        if isinstance(err, MvddError) or (
            isinstance(err, pymysql.MySQLError) and connection_lost(err)
        ):
            return None
        how = merge.reading(shard)
        database, _, name = how.table.name.partition(".")
        live = self._servers[source].column_names((database, name))
        if live is None:
            return "the table is gone"
        there = {fold_name(c) for c in live}
        gone = [c for c in how.columns if fold_name(c) not in there]
        return f"no column {', '.join(f'`{c}`' for c in gone)} any more" if gone else None

    def _changed(
        self,
        reader: BinlogReader,
        merge: Merge,
        source: str,
        start: BinlogPosition,
        end: BinlogPosition,
    ) -> list[str]:
        """The shards of ``source`` a DDL between two positions may have changed: their copy
        read rows of two schemas, and is done again once following has passed the DDL."""
        if not start < end:
            return []
        mentioned = reader.ddl_tables(start, end)
        return sorted(
            shard
            for shard, (src, tid) in merge.tables.items()
            if src == source and merge.table(src, tid, merge.versions[shard]).name in mentioned
        )

    def _recopy(self, state: State, target: Target, merge: Merge) -> None:
        """Copy again the shards a DDL changed during their bulk copy: following has passed the
        DDL (up to the end of the safe window); the copy upserts, and the window grows to the
        binlog's end after it."""
        points = self._retrying(target.checkpoints)
        for name, src in self._sources.items():
            # (a shard that left the group since is not copied)
            src.recopy = [shard for shard in src.recopy if shard in merge.tables]
            if not src.recopy:
                continue
            log.info("copying %s again: a DDL changed them during their copy", src.recopy)
            assert src.applied is not None
            self._copy_bulk(target, merge, name, src.applied, points, shards=list(src.recopy))

    def _resume_copies(self, state: State, target: Target, merge: Merge) -> str | None:
        """Finish the copies a kill interrupted (a text: why the copy must start over)."""
        points = self._retrying(target.checkpoints)
        for name, src in self._sources.items():
            if f"source:{name}" in points:
                continue
            first = src.catalog.store.get_state("binlog.bootstrap") or {}
            if not first.get("position"):
                return f"{name}: the copy was interrupted before its snapshot was kept"
            start = BinlogPosition.parse(first["position"])
            held = first.get("gtid")
            if held is not None and not self._servers[name].holds(start, held):
                return (
                    f"{name}: the server at its address is not the one its copy began on (its "
                    f"GTID position at {start} is not {held}: a failover)"
                )
            if state.get("copy") == "spark":
                self._copy_bulk(target, merge, name, start, points)
                continue
            with self._reader(name, src.catalog) as reader, reader.snapshot() as rows:
                assert rows.position is not None
                if start < rows.position and reader.ddl_between(start, rows.position):
                    return f"{name}: a followed table changed while the copy was interrupted"
                self._copy(target, merge, name, rows, start, rows.position, points)
        return None

    # -- DDL: one group log entry at a time -------------------------------------------------------

    def _run_entry(
        self,
        state: State,
        target: Target,
        merge: Merge,
        entry: LogEntry,
        close: tuple[str, _Reached] | None,
        *,
        done: int = 0,
        before: Any = None,
    ) -> None:
        """Run a log entry's downstream statements from ``done`` on, each recorded once it ran,
        then, in one transaction: the held rows of the shards it resumed, its completion, and
        (``close``: a source and where it stands) the source's checkpoint at the end of the
        DDL's transaction."""
        schemas = [merge_table(text) for text in entry.expected]
        for i in range(done, len(entry.downstream)):
            statement = entry.downstream[i]
            progress = _ddl_progress(target, entry, i + 1)
            if is_data(statement):  # a data step: it shares a transaction with its progress
                # (outside strict mode: a group without dual writes ends a rename's merge by
                # copying the old column's values into the new one's type, which the shards'
                # own renames converted; the replicator's writes both, and emits no copy)
                step = Op(statement.replace("%", "%%"), ((),), loose=True)
                self._commit(target, [step, progress])
                continue
            was = schemas[i - 1] if i > 0 else before
            self._execute(state, target, statement, was, schemas[i])
            self._commit(target, [progress])
        ops: list[Op] = []
        releases: dict[str, tuple[int, str]] = {}
        lake: list[Any] = []
        if self._lake is not None and any(is_truncate(d) for d in entry.downstream):
            lake.extend(self._lake.truncate(entry.shard))
        for shard in entry.resumed:
            ops.extend(self._release(state, target, merge, shard, releases, lake))
        if entry.kind == "remove" and entry.shard is not None:
            ops.extend(self._departed(state, merge, entry.shard, releases, lake))
        ops.append(_ddl_progress(target, entry, len(entry.downstream), final=True))
        if entry.kind == "init":
            ops.append(target.checkpoint_op("state", Checkpoint(data={"id": state.id})))
        for shard, (seq, through) in releases.items():
            ops.append(target.checkpoint_op(f"held:{shard}", Checkpoint(through, seq)))
        if close is not None:
            ops.append(self._source_op(target, merge, *close))
        if self._lake is not None:
            self._lake.append(
                lake,
                {close[0]: close[1].commit} if close is not None else {},
                {close[0]: close[1].gtid} if close is not None else {},
            )
        self._commit(target, ops)
        for shard, (seq, through) in releases.items():
            state.release(shard, seq)
            if shard in merge.tables:
                self._mark_released(merge, shard, through)
        if close is not None:
            close[1].enter(self._sources[close[0]])

    def _execute(
        self, state: State, target: Target, statement: str, before: Any, after: Any
    ) -> None:
        """Run one downstream DDL; after a lost connection, the target's schema tells whether
        it ran. Its warnings are logged and counted in the status (``downstream``)."""
        while True:
            try:
                warnings = target.execute(statement)
                faults.reach("after-ddl")
                if warnings:  # values no shard holds that did not fit, converted (run_ddl)
                    log.warning(
                        "the downstream gave %d warnings running %s: %s",
                        len(warnings),
                        statement[:200],
                        "; ".join(warnings[:3]) + (" …" if len(warnings) > 3 else ""),
                    )
                    state.warned(statement, warnings)
                return
            except TargetLost as err:
                log.warning("%s; waiting for it", err)
                live = self._retrying(target.table_schema)
                if _same(live, after) and not _same(live, before):
                    return  # it ran; the answer was lost

    def _release(
        self,
        state: State,
        target: Target,
        merge: Merge,
        shard: str,
        releases: dict[str, tuple[int, str]],
        lake: list[Any],
    ) -> list[Op]:
        """The held rows of a shard that resumed, upgraded to its schema now (and for the
        lake, as it has them). A row is applied in safe mode where the target may hold it
        already (as :meth:`_stage`): its shard is to be read again, or its transaction is in
        the source's safe window, or not after the snapshot the shard was last read again at
        (read while the reader was behind the pause: its rows are in the target)."""
        changes = Changes(Templates(self.target_name))
        route = merge.route(shard, merge.versions[shard])
        keys = [up for _, up in route.key]
        converted = _converted(state, target, merge, shard)
        src = self._sources[merge.tables[shard][0]]
        read = self._retrying(target.checkpoints).get(f"refresh:{shard}")
        covered = [p for p in (src.safe_until,) if p is not None]
        if read is not None and read.data.get("done") and read.position:
            covered.append(BinlogPosition.parse(read.position))

        def safe(txn: str) -> bool:
            at = BinlogPosition.parse(txn)
            return shard in src.refresh or any(not end < at for end in covered)

        def unfit(value: Any, types: tuple[Any, ...]) -> Any:
            return converted[types][json.dumps(encode_value(value))]

        last, through = 0, ""
        for held in state.held(shard):
            last, through = held.seq, held.txn
            row = merge.upgraded(shard, held.version, held.row, unfit)
            before = merge.upgraded(shard, held.version, held.before, unfit)
            self._change(changes, route, held.kind, row, before, safe=safe(held.txn))
            if self._lake is not None:
                lake.extend(self._lake.rows(shard, held.kind, row, before, keys))
        if last:
            releases[shard] = (last, through)
            log.info("released %d held rows of %s", changes.rows, shard)
        return changes.ops()

    def _departed(
        self,
        state: State,
        merge: Merge,
        shard: str,
        releases: dict[str, tuple[int, str]],
        lake: list[Any],
    ) -> list[Op]:
        """The held rows of a shard that left the group while paused (a DROP or a rename out
        of the pattern), forgotten with its entry: a row whose last change deleted it (or
        moved its key away) leaves the target too, by key; the others stay as the target had
        them before the pause (the shard's schema never joined again: their held values are
        not brought in, which a warning says). A row whose key columns the shard renamed is
        kept as well, as is every row where the target has no key to delete one by."""
        assert merge.group is not None
        key = row_key(merge.group.joined) or ()
        gone: dict[tuple[Any, ...], Mapping[str, Any]] = {}
        last, through, count = 0, "", 0
        for held in state.held(shard):
            last, through, count = held.seq, held.txn, count + 1
            row, before = held.row or {}, held.before or {}
            if not key or not all(k in row for k in key):
                continue  # (a target without a key, or key columns the shard renamed: kept)
            now = tuple(row[k] for k in key)
            if held.kind == EventKind.DELETE:
                gone[now] = row
                continue
            if held.kind == EventKind.UPDATE and all(k in before for k in key):
                was = tuple(before[k] for k in key)
                if was != now:
                    gone[was] = before
            gone.pop(now, None)
        if not last:
            return []
        releases[shard] = (last, through)
        changes = Changes(Templates(self.target_name))
        for values, deleted in gone.items():
            changes.delete(key, values, safe=True)
            if self._lake is not None:
                lake.extend(self._lake.rows(shard, EventKind.DELETE, deleted, None, key))
        log.warning(
            "%s left the group paused, with %d held row changes: the %d rows they delete leave "
            "the target; the others stay as the target had them",
            shard,
            count,
            len(gone),
        )
        return changes.ops()

    def _mark_released(self, merge: Merge, shard: str, through: str) -> None:
        """The shard's held rows, up to the transaction ``through``, are in the target: its
        source applies none of its rows up to there again (:attr:`_Source.released`)."""
        self._sources[merge.tables[shard][0]].released[shard] = BinlogPosition.parse(through)

    def _recover(
        self, state: State, target: Target, merge: Merge, points: dict[str, Checkpoint]
    ) -> None:
        """Finish the group log's entries a kill interrupted, and forget held rows the target
        already has. One upstream transaction may add several entries (a RENAME TABLE that
        swaps a shard's table for a tool's copy: one leaves, one joins) before the first of
        them runs: every entry after the last one the ``ddl`` checkpoint finished is run, the
        first from the statement the checkpoint (or the target's schema) says is next."""
        for shard in sorted({*merge.tables, *state.held_shards()}):  # (and those that left)
            point = points.get(f"held:{shard}")
            if point is not None and point.seq:
                state.release(shard, point.seq)
            if point is not None and point.position and shard in merge.tables:
                self._mark_released(merge, shard, point.position)
        entries = state.log()
        point = points.get("ddl")
        done = point.seq if point is not None else None
        if point is None or done is None:  # (none finished: only the newest can be under way)
            first = len(entries) - 1
        else:
            final = bool(point.data.get("final"))
            first = next(
                (i for i, e in enumerate(entries) if e.seq > done or (e.seq == done and not final)),
                len(entries),
            )
        for i in range(first, len(entries)):
            entry = entries[i]
            previous = next(
                (merge_table(e.expected[-1]) for e in reversed(entries[:i]) if e.expected), None
            )
            ran = 0
            if point is not None and done == entry.seq:
                ran = int(point.data.get("done", 0))
            if not target.has_table:
                ran = len(entry.downstream)  # nothing ran downstream: there is no downstream
            if i == first and ran < len(entry.downstream) and not is_data(entry.downstream[ran]):
                ran = self._ran(target, entry, ran, previous)
            log.info("finishing group log entry %d from statement %d", entry.seq, ran + 1)
            self._run_entry(state, target, merge, entry, None, done=ran, before=previous)

    def _ran(self, target: Target, entry: LogEntry, ran: int, previous: Any) -> int:
        """The statements of an interrupted entry that ran: ``ran`` as its checkpoint says, or
        one more where the target's schema is the next statement's result (a kill before its
        progress was recorded), recorded now, before the next statement runs (a kill after
        that one must find this one done)."""
        live = self._retrying(target.table_schema)
        after = merge_table(entry.expected[ran])
        before = previous if ran == 0 else merge_table(entry.expected[ran - 1])
        if _same(live, after) and not _same(live, before):
            self._commit(target, [_ddl_progress(target, entry, ran + 1)])
            return ran + 1
        if not _same(live, before):
            raise ReplicationError(
                f"`{self.target_name}` is neither as it was before the downstream statement "
                f"{entry.downstream[ran]!r} nor as after it: someone else changed the target",
                position=entry.position,
            )
        return ran

    # -- following --------------------------------------------------------------------------------

    def _follow(self, state: State, target: Target, merge: Merge, until: str | None) -> None:
        inbox: queue.Queue[tuple[str, Any]] = queue.Queue(maxsize=2000)
        halt = threading.Event()
        threads = []
        with contextlib.ExitStack() as stack:
            for name, src in self._sources.items():
                reader = stack.enter_context(
                    self._reader(name, src.catalog, start=src.applied, gtid=src.gtid)
                )
                self._placed(name, reader, src)
                end: BinlogPosition | None = None
                if until == "safe":  # up to the end of the safe window (None: nothing to do)
                    end = src.safe_until
                    if end is None:
                        continue
                elif until == "end":
                    try:
                        end = reader.source.end()
                    except MvddError as err:
                        raise err.locate(source=name) from None
                if end is not None and src.applied is not None and not src.applied < end:
                    src.idle = True
                    continue
                thread = threading.Thread(
                    target=_read,
                    args=(name, reader, end, inbox, halt),
                    name=f"mvdd-read-{name}",
                    daemon=True,
                )
                threads.append(thread)
                thread.start()
            try:
                self._apply_loop(state, target, merge, inbox, len(threads))
            finally:
                halt.set()
                for thread in threads:
                    thread.join(timeout=10)

    def _placed(self, name: str, reader: BinlogReader, src: _Source) -> None:
        """The reader placed where the server at the source's address holds the history applied
        (its GTID position: another server after a failover, whose positions are of the next
        era, see :mod:`mvdd.binlog.reader`). A safe window of an earlier era ends at this
        server's binlog end: where it holds the old window's end is not known, and a change
        applied in safe mode twice is applied once."""
        try:
            reader.check()
            era = reader.source.era
            if src.safe_until is not None and src.safe_until.era < era:
                src.safe_until = reader.source.end()
        except MvddError as err:
            raise err.locate(source=name) from None

    def _apply_loop(
        self,
        state: State,
        target: Target,
        merge: Merge,
        inbox: queue.Queue[tuple[str, Any]],
        live: int,
    ) -> None:
        templates = Templates(self.target_name)
        pending = _Pending(Changes(templates))
        published = 0.0
        while live and not self._stop.is_set():
            if time.monotonic() - published > 1.0:
                published = time.monotonic()
                self._publish(state, merge)
            try:
                name, item = inbox.get(timeout=0.05)
            except queue.Empty:
                if pending:
                    self._flush(state, target, merge, pending)
                    pending = _Pending(Changes(templates))
                for src in self._sources.values():
                    src.idle = True
                continue
            src = self._sources[name]
            if item is _DONE:
                live -= 1
                src.idle = True
                continue
            if isinstance(item, BaseException):
                if pending:
                    self._flush(state, target, merge, pending)
                if isinstance(item, MvddError):
                    raise item.locate(source=name, position=src.applied)
                raise item
            txn: BinlogTransaction = item
            src.idle = False
            if txn.is_ddl:
                if pending:
                    self._flush(state, target, merge, pending)
                    pending = _Pending(Changes(templates))
                self._ddl(state, target, merge, src, txn)
                continue
            try:
                self._stage(merge, src, txn, pending)
            except MvddError as err:
                raise err.locate(source=name, position=txn.commit) from None
            if (
                pending.changes.rows >= self.batch_rows
                or time.monotonic() - pending.started > self.batch_seconds
            ):
                self._flush(state, target, merge, pending)
                pending = _Pending(Changes(templates))
        if pending:
            self._flush(state, target, merge, pending)

    def _stage(self, merge: Merge, src: _Source, txn: BinlogTransaction, pending: _Pending) -> None:
        window = src.safe_until is not None and not src.safe_until < txn.commit
        for idx, ev in enumerate(txn.events):
            shard = merge.shard_of(src.name, ev.table_id)
            if shard is None:
                continue  # a matched table that is no shard (a tool's helper)
            through = src.released.get(shard)
            if through is not None:
                if not through < txn.commit:
                    continue  # read again: applied when the shard's held rows were released
                del src.released[shard]
            if merge.paused(shard):
                pending.holds.append(
                    HeldRow(
                        seq=0,
                        shard=shard,
                        source=src.name,
                        txn=str(txn.commit),
                        idx=idx,
                        kind=ev.kind.value,
                        table_id=ev.table_id or 0,
                        version=ev.version,
                        row=ev.row,
                        before=ev.before,
                    )
                )
                continue
            try:
                route = merge.route(shard, ev.version)
            except MvddError as err:
                raise err.locate(shard=shard) from None
            # (a shard whose rows are to be read again is in safe mode until they are: the
            # target may lack them, a table renamed into the group, or hold them as they were)
            safe = window or shard in src.refresh
            self._change(pending.changes, route, ev.kind.value, ev.row, ev.before, safe=safe)
            if self._lake is not None and self._lake.wants(src.name, txn.commit):
                keys = [up for _, up in route.key]
                pending.lake.extend(self._lake.rows(shard, ev.kind.value, ev.row, ev.before, keys))
            src.rows[shard] = src.rows.get(shard, 0) + 1
        before = pending.commits[src.name].gtid if src.name in pending.commits else src.gtid
        pending.commits[src.name] = _Reached(txn.commit, _gtid_applied(before, txn), txn.timestamp)

    def _change(
        self,
        changes: Changes,
        route: Route,
        kind: str,
        row: dict[str, Any] | None,
        before: dict[str, Any] | None,
        *,
        safe: bool,
    ) -> None:
        key = [down for down, _ in route.key]
        if kind == EventKind.INSERT:
            assert row is not None
            changes.insert(route.row(row), safe=safe, empty=route.empty)
        elif kind == EventKind.UPDATE:
            assert row is not None and before is not None
            changes.update(route.row(row), key, route.key_of(before), safe=safe, empty=route.empty)
        elif kind == EventKind.DELETE:
            assert row is not None
            changes.delete(key, route.key_of(row), safe=safe)

    def _source_op(self, target: Target, merge: Merge, source: str, reached: _Reached) -> Op:
        src = self._sources[source]
        commit = reached.commit
        safe = src.safe_until if src.safe_until is not None and commit < src.safe_until else None
        data = {
            "safe_until": str(safe) if safe else None,
            "rows": dict(src.rows),
            "recopy": list(src.recopy),
            "refresh": sorted(src.refresh),
            "gtid": reached.gtid,
        }
        return target.checkpoint_op(f"source:{source}", Checkpoint(str(commit), merge.seq, data))

    def _flush(self, state: State, target: Target, merge: Merge, pending: _Pending) -> None:
        state.hold(pending.holds)  # first: kept once however often the batch is tried
        if pending.holds:
            faults.reach("after-hold")
        ops = pending.changes.ops()
        for name, reached in pending.commits.items():
            ops.append(self._source_op(target, merge, name, reached))
        if self._lake is not None:  # the lake first: a kill after it repeats nothing there
            commits = pending.commits.items()
            self._lake.append(
                pending.lake, {n: r.commit for n, r in commits}, {n: r.gtid for n, r in commits}
            )
            self._compact_now()
        self._commit(target, ops)
        for name, reached in pending.commits.items():
            src = self._sources[name]
            reached.enter(src)
            if src.safe_until is not None and not reached.commit < src.safe_until:
                src.safe_until = None

    def _commit(self, target: Target, ops: list[Op]) -> None:
        """Commit one downstream transaction; after a lost connection, read the checkpoint
        rows it writes back: a commit whose answer was lost is not run again."""
        wrote = dict(op.checkpoint for op in ops if op.checkpoint is not None)
        while True:
            try:
                target.commit(ops)
                return
            except TargetLost as err:
                log.warning("%s; waiting for it", err)
                points = self._retrying(target.checkpoints)
                if wrote and all(points.get(name) == point for name, point in wrote.items()):
                    return  # it committed; the answer was lost

    def _ddl(
        self, state: State, target: Target, merge: Merge, src: _Source, txn: BinlogTransaction
    ) -> None:
        entries = []
        for ev in txn.events:
            if ev.kind != EventKind.DDL or ev.table_id is None:
                continue
            # (the table's name after the statement: the event of a rename out of the pattern
            # bears the old one)
            name = merge.change(src.name, ev.table_id, ev.version).table
            matched = matches(self.patterns, name) and not _sequence(src.catalog, ev)
            shard = merge.shard_of(src.name, ev.table_id)
            joined = merge.group.joined if merge.group is not None else None
            joining = merge.joining(src.name, ev.table_id, ev.version, matched)
            if joining is not None and merge.group and joining in merge.group.departed:
                # the name is the new table's from now on: the lake's batches of the table that
                # left under it are compacted first, while the group still knows that table
                self._compact_now(force=True)
            try:
                entry = merge.apply(
                    src.name,
                    ev.table_id,
                    ev.version,
                    str(txn.commit),
                    matched,
                )
            except MvddError as err:
                raise err.locate(
                    source=src.name, position=txn.commit, statement=ev.statement
                ) from None
            if shard is not None and shard in merge.tables:
                # (a DDL read again after a restart: the group has it, the target's table
                # before and after it is not known here)
                after = merge.group.joined if entry is not None and merge.group else None
                self._note_rewrites(src, merge, shard, ev.table_id, ev.version, joined, after)
            if entry is not None and joined is not None and merge.group is not None:
                self._note_computed(target, merge, src, joined, merge.group.joined)
            arrived = merge.arrived(src.name, ev.table_id, ev.version)
            if arrived is not None and arrived not in src.refresh:
                log.info("%s: rows came without row events; it is read again", arrived)
                src.refresh.add(arrived)
            if entry is not None:
                entries.append(entry)
                reason = merge.reason(entry.shard) if entry.shard else None
                if reason is not None:
                    log.warning("%s paused at %s: %s", entry.shard, txn.commit, reason)
        reached = _Reached(txn.commit, _gtid_applied(src.gtid, txn), txn.timestamp)
        for i, entry in enumerate(entries):
            close = (src.name, reached) if i == len(entries) - 1 else None
            self._run_entry(state, target, merge, entry, close)
        if not entries:
            self._commit(target, [self._source_op(target, merge, src.name, reached)])
            reached.enter(src)
        self._refresh(target, merge)

    def _note_rewrites(
        self,
        src: _Source,
        merge: Merge,
        shard: str,
        table_id: int,
        version: int,
        joined: Table | None,
        after: Table | None,
    ) -> None:
        """Mark a shard for :meth:`_refresh` when its DDL (to ``version``) changed the values
        its rows held (:func:`~mvdd.replicate.merge.rewritten`; ``joined`` and ``after``: the
        target's table before and after the DDL, where known). The mark is kept in the
        source's checkpoint, written with the DDL's position."""
        if version <= 1:
            return
        try:
            before = merge.table(src.name, table_id, version - 1)
            now = merge.table(src.name, table_id, version)
        except MvddError:
            return  # (the catalog's history of the table begins here, or it ends here)
        known = (joined, after) if joined is not None and after is not None else None

        def held(name: str) -> bool:
            """Whether an older version of the shard's table had a column ``name`` (its rows'
            values of it may be in the target still)."""
            for older in range(version - 2, 0, -1):
                try:
                    if merge.table(src.name, table_id, older).find_column(name) is not None:
                        return True
                except MvddError:
                    return False
            return False

        columns = rewritten(before, now, known, held)
        if columns:
            log.info(
                "%s: its DDL changed the values of %s in the rows it holds; they are read again",
                shard,
                columns,
            )
            src.refresh.add(shard)

    def _note_computed(
        self, target: Target, merge: Merge, src: _Source, before: Table, after: Table
    ) -> None:
        """Mark for :meth:`_refresh` the shards whose generated column feeds a plain column
        of the target that a DDL added, or made plain where the target computed it (one
        shard's generated column alone, which the target computes or leaves out, then another
        shard's plain one beside it): the target's values of their rows were its own or none,
        and must be their servers'. A mark of another source than the DDL's is recorded in
        that source's checkpoint at once (before the DDL runs: read again for nothing at
        worst, never forgotten)."""
        group = merge.group
        assert group is not None
        made = {
            c.id: group.computing(c.name)
            for c in after.columns
            if c.generated is None
            and ((was := before.find_column(c.name)) is None or was.generated is not None)
        }
        for down, shards in made.items():
            for shard in shards & merge.tables.keys():
                if not any(
                    (dest := group.destination(shard, col.id)) is not None and dest.id == down
                    for col in group.schema(shard).columns
                    if col.generated is not None
                ):
                    continue
                source, _ = merge.tables[shard]
                other = self._sources[source]
                if shard in other.refresh:
                    continue
                log.info("%s: its generated values now land in a plain column: read again", shard)
                other.refresh.add(shard)
                if other is not src and other.applied is not None:
                    reached = _Reached(other.applied, other.gtid)
                    self._commit(target, [self._source_op(target, merge, source, reached)])

    def _stream(
        self,
        target: Target,
        merge: Merge,
        shard: str,
        rows: Any,
        *,
        mark: str,
        position: BinlogPosition,
        point: Checkpoint | None,
        data: Mapping[str, Any] | None = None,
        refresh: bool = False,
        table: tuple[str, str] | None = None,
    ) -> int | None:
        """``shard``'s rows read in a snapshot at ``position`` (``rows``: its
        :class:`~mvdd.binlog.source.Rows`; ``table``: its table's name there, (database,
        table), where it is not the one of its group's version) into the target and the lake,
        in key order, each batch with its checkpoint ``mark`` (the last key, the rows so far,
        and ``data``); after the last key of ``point``, a checkpoint of an earlier read cut
        short, where it has one. ``refresh``: a shard read again (every row upserted, batches
        of :attr:`batch_rows`, not stopped mid-way; the kill point ``mid-refresh`` after
        each). The rows in all, or None when the replicator was stopped mid-way."""
        how = merge.reading(shard)
        into, at = how.route.positions(how.columns)
        after, copied = None, 0
        if point is not None and point.data.get("last") is not None:
            after = key_numbers(how.table, how.key, [decode_value(v) for v in point.data["last"]])
            copied = int(point.data.get("rows", 0))
        templates = Templates(self.target_name)
        database, _, name = how.table.name.partition(".")
        batch = {"batch": self.batch_rows} if refresh else {}
        try:
            for chunk in rows.rows(
                table or (database, name), how.read, how.key, after=after, **batch
            ):
                if not refresh and self._stop.is_set():
                    return None
                changes = Changes(templates)
                changes.insert_rows(
                    into, at, how.route.tuples(how.columns, chunk), how.route.empty, upsert=refresh
                )
                if self._lake is not None:
                    self._lake.append(self._lake.inserts(shard, how.columns, chunk), {})
                copied += len(chunk)
                last = dict(zip(how.columns, chunk[-1], strict=True))
                keys = [encode_value(last[k]) for k in how.key]
                progress = Checkpoint(
                    str(position), merge.seq, {**(data or {}), "last": keys, "rows": copied}
                )
                self._commit(target, [*changes.ops(), target.checkpoint_op(mark, progress)])
                if refresh:
                    faults.reach("mid-refresh")
        except MvddError as err:
            source, _ = merge.tables[shard]
            raise err.locate(source=source, shard=shard, position=position) from None
        return copied

    def _refresh(self, target: Target, merge: Merge) -> None:
        """Read again, in one snapshot each, the rows of every shard marked by
        :meth:`_note_rewrites` that is not paused (a paused one waits for its release): its
        statement changed values its rows held without a row event, and the target's rows
        of it do not follow where the target's column stays as another shard has it. The
        rows are upserted (the columns the shard writes); the binlog from the DDL on is
        applied again in safe mode up to the snapshot's position (:attr:`_Source.safe_until`),
        so a row the snapshot saw later than the binlog stands is brought to where the binlog
        stands once following passes the snapshot. A snapshot whose table is not the group's
        version of the shard (a later DDL is on its way) leaves the mark, for after that DDL.
        Where the target has no table (a lake only), the lake takes the rows."""
        for name, src in self._sources.items():
            for shard in sorted(src.refresh):
                if shard not in merge.tables:
                    src.refresh.discard(shard)  # it left the group
                elif not merge.paused(shard):
                    self._refresh_shard(target, merge, name, shard)

    def _refresh_shard(self, target: Target, merge: Merge, source: str, shard: str) -> None:
        src = self._sources[source]
        how = merge.reading(shard)
        table, version = how.table, how.version
        # the table's name as its reader last recorded it (the group's version may be older, a
        # rename since on its way), and the binlog from there to the snapshot without a
        # statement that gives the name to another table: else the snapshot's table of that
        # name is not the shard's (a new one of the same schema would pass for it)
        head = src.catalog.history_by_id(merge.tables[shard][1])[-1]
        if head.dropped:
            return  # (it leaves the group when its DROP comes)
        database, _, name = head.table.partition(".")
        only = (database, name)
        # a read of this mark that a kill cut short goes on after its last key (the rows
        # before it were read at an older snapshot: the safe window covers both)
        point = self._retrying(target.checkpoints).get(f"refresh:{shard}")
        of = {"version": version, "table": merge.tables[shard][1]}  # (a name may be reused)
        if point is None or any(point.data.get(k) != v for k, v in of.items()):
            point = None
        resumed = int(point.data.get("rows", 0)) if point is not None else 0
        with self._servers[source].snapshot_session((), table=only) as (snap, rows):
            held = {(db, t): text for db, t, text in snap.tables}.get(only)
            try:
                same = held is not None and _same(merge_table(held), table)
            except MvddError as err:  # (a text that hides an ENUM's members: see as_shown)
                log.warning(
                    "%s: not read again: its SHOW CREATE TABLE is not read (%s)", shard, err
                )
                return
            if not same:
                log.info("%s: read again after its next DDL (its table changed since)", shard)
                return
            assert snap.position is not None
            if head.position is not None and head.position < snap.position:
                with self._reader(source, src.catalog) as reader:
                    if reader.name_moved(head.table, head.position, snap.position):
                        log.info("%s: read again after its next DDL (its name moved since)", shard)
                        return
            copied = self._stream(
                target,
                merge,
                shard,
                rows,
                mark=f"refresh:{shard}",
                position=snap.position,
                point=point,
                data=of,
                refresh=True,
                table=only,
            )
            assert copied is not None
        src.refresh.discard(shard)
        src.widen_safe([snap.position])
        assert src.applied is not None
        done = Checkpoint(str(snap.position), merge.seq, {**of, "done": True})
        self._commit(
            target,
            [
                self._source_op(target, merge, source, _Reached(src.applied, src.gtid)),
                target.checkpoint_op(f"refresh:{shard}", done),
            ],
        )
        log.info(
            "%s: read %d rows again%s (safe mode up to %s)",
            shard,
            copied,
            f", {resumed} of them before a restart" if resumed else "",
            snap.position,
        )

    # -- status -----------------------------------------------------------------------------------

    def _publish(self, state: State, merge: Merge) -> dict[str, Any]:
        now = time.time()
        shards: dict[str, Any] = {}
        for shard, (source, _) in sorted(merge.tables.items()):
            src = self._sources[source]
            reason = merge.reason(shard)
            lag = 0.0 if src.idle else (max(0.0, now - src.timestamp) if src.timestamp else None)
            shards[shard] = {
                # (its table's name now: a shard keeps its name through a rename)
                "table": merge.group.schema(shard).name if merge.group is not None else None,
                "position": str(src.applied) if src.applied else None,
                "gtid": src.gtid,
                "version": merge.versions.get(shard),
                "paused": reason is not None,
                "reason": reason,
                "lag_s": lag,
                "rows": src.rows.get(shard, 0),
                "held": state.held_count(shard) if reason is not None else 0,
            }
        state.set_status(shards)
        self._status = {"shards": shards, "downstream": state.downstream()}
        if self.on_status is not None:
            self.on_status(self._status)
        return self._status


@contextlib.contextmanager
def _spark_jobs(shard: str) -> Iterator[None]:
    """Spark jobs of a shard's bulk copy. One that lost a JDBC connection (either server
    restarting, a network cut) cannot be resumed, only run again: it raises SourceLost, and the
    replicator starts over from its checkpoints, waiting for the server, as for a snapshot's
    rows; the copy then resumes with the chunk that was under way. One that a server refused
    (the login, TLS) raises SourceConfigError: waiting cannot cure it."""
    from mvdd.spark import bulk

    try:
        yield
    except Exception as err:
        if isinstance(err, MvddError):
            raise
        refused = bulk.refusal(err)
        if refused is not None:
            raise SourceConfigError(
                f"a Spark job of the bulk copy was refused a connection: {refused[:300]}",
                shard=shard,
            ) from None
        reason = bulk.connection_lost(err)
        if reason is None:
            raise
        raise SourceLost(
            f"a Spark job of the bulk copy lost a connection: {reason[:300]}", shard=shard
        ) from None


def _converted(
    state: State, target: Target, merge: Merge, shard: str
) -> dict[tuple[Any, ...], dict[str, Any]]:
    """The values of a shard's held rows that a later change of their column's type did not
    take (its statement ran outside strict mode, and the server changed them by rules of its
    own: :meth:`Merge.upgraded`'s ``unfit``), each as the downstream server converts it
    (:meth:`Target.converted`): by the column's types, then by the value's tagged JSON. A
    first pass over the held rows finds them; most releases find none and convert nothing."""
    wanted: dict[tuple[Any, ...], dict[str, Any]] = {}

    def note(value: Any, types: tuple[Any, ...]) -> None:
        wanted.setdefault(types, {})[json.dumps(encode_value(value))] = value

    for held in state.held(shard):
        merge.upgraded(shard, held.version, held.row, note)
        merge.upgraded(shard, held.version, held.before, note)
    return {
        types: dict(zip(values, target.converted(types, list(values.values())), strict=True))
        for types, values in wanted.items()
    }


def _same(live: Table | None, expected: Table | None) -> bool:
    """Whether the target's table, as its SHOW CREATE TABLE reads, is ``expected`` (which
    that text writes with a ``?`` for each character beyond the BMP of a member, a literal
    DEFAULT or a comment: :func:`~mvdd.model.table.as_shown`)."""
    if live is None or expected is None:
        return live is None and expected is None
    return live.equivalent(as_shown(expected), ignore_order=False)


def merge_table(text: str) -> Table:
    """A table text the merge state keeps (a joined table mvdd derived from its shards', which
    their servers' rules built)."""
    return parse_table(text, replica=True)


def _read(
    name: str,
    reader: BinlogReader,
    until: BinlogPosition | None,
    inbox: queue.Queue[tuple[str, Any]],
    halt: threading.Event,
) -> None:
    """A reader thread: the source's transactions into the applier's inbox (``until`` None:
    follow for ever), then ``_DONE``; an error is handed over, for the applier to raise."""

    def put(item: Any) -> bool:
        while not halt.is_set():
            try:
                inbox.put((name, item), timeout=0.2)
                return True
            except queue.Full:
                continue
        return False

    try:
        for txn in reader.transactions(until=until, stop=halt.is_set):
            if not put(txn):
                return
        put(_DONE)
    except BaseException as err:
        put(err)


__all__ = ["Replicator"]
