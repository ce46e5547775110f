"""The replicator's lake output (``--lake DIR``, :mod:`mvdd.spark.lake`): which changes go in,
where the lake stands, and compaction.

The lake holds every change as the shard wrote it (its table version, the operation; an update
that moves a row's key is the old key's delete and the new row), in batches written before the
downstream transaction that covers the same changes commits. A batch carries the positions it
reaches; after a restart the changes up to those positions are read again for the downstream
only (the lake skips them), and a change the lake holds twice (a copy's batch written again)
holds the same row (the latest change per key wins).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from mvdd.binlog import BinlogPosition, EventKind
from mvdd.catalog import Catalog
from mvdd.replicate.merge import Merge, ReplicationError
from mvdd.replicate.state import State
from mvdd.replicate.target import Checkpoint, Op
from mvdd.shard import ShardGroup
from mvdd.spark.lake import TRUNCATE, LakeRow, LakeWriter, lake_converted


class LakeOutput:
    """The lake of one replicator."""

    def __init__(
        self, folder: Path, merge: Merge, state: Path, target: str, key: Sequence[str]
    ) -> None:
        self.merge = merge
        self.writer = LakeWriter(folder, target=target, key=key, state=state)
        self.folder = folder
        self.positions = {n: BinlogPosition.parse(p) for n, p in self.writer.positions().items()}
        #: MariaDB's GTID position at each source's position, where known
        self.gtids = self.writer.gtids()
        self.batches = 0

    def wants(self, source: str, commit: BinlogPosition) -> bool:
        """Whether a transaction is not in the lake yet."""
        held = self.positions.get(source)
        return held is None or held < commit

    def rows(
        self,
        shard: str,
        kind: str,
        row: Mapping[str, Any] | None,
        before: Mapping[str, Any] | None,
        key: Sequence[str],
    ) -> list[LakeRow]:
        """One change of a shard (values by its current schema's names) for the lake."""
        group = self.merge.group
        assert group is not None
        version = group.version(shard)
        if kind == EventKind.DELETE:
            assert row is not None
            return [LakeRow(shard, version, "delete", row)]
        assert row is not None
        out = []
        moved = before is not None and any(before.get(k) != row.get(k) for k in key)
        if kind == EventKind.UPDATE and moved:
            assert before is not None
            out.append(LakeRow(shard, version, "delete", before))
        out.append(LakeRow(shard, version, "insert" if kind == EventKind.INSERT else "update", row))
        return out

    def truncate(self, shard: str) -> list[LakeRow]:
        """The shard emptied its table, and the target with it (the group's only shard): the
        lake keeps nothing from before this change (see :func:`mvdd.spark.lake.compact`)."""
        group = self.merge.group
        assert group is not None
        return [LakeRow(shard, group.version(shard), TRUNCATE, {})]

    def inserts(
        self, shard: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]
    ) -> list[LakeRow]:
        """A copy's rows (tuples in the order of ``columns``) for the lake."""
        group = self.merge.group
        assert group is not None
        version = group.version(shard)
        return [LakeRow(shard, version, "insert", dict(zip(columns, r, strict=True))) for r in rows]

    def append(
        self,
        rows: Sequence[LakeRow],
        commits: Mapping[str, BinlogPosition],
        gtids: Mapping[str, str | None] | None = None,
    ) -> None:
        """One batch: ``rows``, reaching ``commits`` (with MariaDB's GTID position at each, where
        ``gtids`` gives it: a source's place in its history, which a failover's server is
        found at, see :mod:`mvdd.binlog.reader`)."""
        wanted = {n: c for n, c in commits.items() if self.wants(n, c)}
        if not rows and not wanted:
            return
        positions = {
            **{n: str(p) for n, p in self.positions.items()},
            **{n: str(c) for n, c in wanted.items()},
        }
        held = {n: g for n, g in self.gtids.items() if n not in wanted}
        held.update({n: g for n, g in (gtids or {}).items() if n in wanted and g is not None})
        group = self.merge.group
        assert group is not None
        self.writer.append(
            rows,
            positions,
            lambda shard, version: group.schema(shard, version=version),
            gtids=held,
        )
        self.positions.update(wanted)
        self.gtids = held
        self.batches += 1


def load_group(state_dir: str | Path, target: str) -> tuple[ShardGroup, list[Catalog], State]:
    """A replicator's shard group as its state directory holds it (with the catalogs and the
    state it was read from, for the caller to close)."""
    state = State(state_dir)
    config = state.get("config") or {}
    catalogs = {
        name: Catalog.open(str(state.catalog_path(name)), replica=True)
        for name in config.get("sources", [])
    }
    merge = Merge(target, catalogs, state, renames=config.get("renames", "merge"))
    merge.rebuild(state.log())
    if merge.group is None:
        raise ReplicationError(f"the state directory {str(state_dir)!r} has no shard group yet")
    return merge.group, list(catalogs.values()), state


def lake_meta(folder: str | Path) -> dict[str, Any]:
    """The lake's ``lake.json`` (its target, key and state directory); LakeError when the
    folder is not a lake. Read before anything starts (``mvdd compact`` starts Spark after)."""
    import json

    from mvdd.spark.lake import LakeError

    meta_path = Path(folder) / "lake.json"
    if not meta_path.exists():
        raise LakeError(f"{str(folder)!r} is not a lake (no lake.json)")
    return dict(json.loads(meta_path.read_text()))


def compact_lake(spark: Any, folder: str | Path) -> dict[str, Any]:
    """``mvdd compact --lake DIR``: the next snapshot, with the group of the lake's replicator."""
    from mvdd.spark.lake import compact

    meta = lake_meta(folder)
    opened: list[Any] = []

    def group() -> ShardGroup:  # read under the compaction lock: the batches' group
        found, catalogs, state = load_group(meta["state"], meta["target"])
        opened.extend([*catalogs, state])
        return found

    try:
        return compact(spark, folder, group)
    finally:
        for resource in opened:
            resource.close()


class LakeTarget:
    """The target of a lake-only replication (no downstream server): the checkpoint rows are
    kept in the lake (``DIR/checkpoint.json``, replaced atomically after the batch they
    cover), statements for a downstream table are not run, and a source's position is the
    newest of the checkpoint's and of the lake's newest batch (the batch holds it)."""

    has_table = False

    def __init__(self, folder: Path, table: str, spark: Callable[[], Any]) -> None:
        self.folder = folder
        self.table = table
        #: the replicator's Spark session (made when first asked)
        self.spark = spark
        self.path = folder / "checkpoint.json"
        folder.mkdir(parents=True, exist_ok=True)

    @property
    def description(self) -> str:
        return f"the lake {str(self.folder)!r}"

    def check(self) -> None:
        pass

    def ensure_checkpoint_table(self) -> None:
        pass

    def close(self) -> None:
        pass

    def table_schema(self) -> None:
        return None

    def execute(self, sql: str) -> tuple[str, ...]:
        return ()  # no downstream table: its DDL has nowhere to run

    def converted(self, types: Sequence[Any], values: Sequence[Any]) -> list[Any]:
        """(:meth:`mvdd.replicate.target.Target.converted`, where a server converts: a lake
        has none, and the lake's own conversions, which follow the server's rules, convert
        the values in a Spark job: :func:`~mvdd.spark.lake.lake_converted`.)"""
        return lake_converted(self.spark(), types, values)

    def _kept(self) -> dict[str, Any]:
        import json

        return json.loads(self.path.read_text()) if self.path.exists() else {}

    def checkpoints(self) -> dict[str, Checkpoint]:
        from mvdd.spark.lake import LakeWriter

        out = {
            name: Checkpoint(v.get("position"), v.get("seq"), v.get("data", {}))
            for name, v in self._kept().items()
        }
        if (self.folder / "lake.json").exists():
            import json

            meta = json.loads((self.folder / "lake.json").read_text())
            writer = LakeWriter(
                self.folder, target=meta["target"], key=meta["key"], state=meta["state"]
            )
            gtids = writer.gtids()
            for source, position in writer.positions().items():
                name = f"source:{source}"
                have = out.get(name)
                if (
                    have is None
                    or have.position is None
                    or BinlogPosition.parse(have.position) < BinlogPosition.parse(position)
                ):
                    data = dict(have.data) if have is not None else {}
                    data.pop("gtid", None)  # (the older position's: read again at this one)
                    if gtids.get(source) is not None:
                        data["gtid"] = gtids[source]
                    out[name] = Checkpoint(position, have.seq if have else None, data)
        return out

    def checkpoint_op(self, name: str, point: Checkpoint) -> Op:
        import json

        point = attrs.evolve(point, data=json.loads(json.dumps(point.data)))
        return Op("", (), checkpoint=(name, point))

    def forget_op(self) -> Op:
        return Op("", (), what="forget")

    def commit(self, ops: Sequence[Op]) -> None:
        import json
        import os
        import uuid

        kept = {} if any(op.what == "forget" for op in ops) else self._kept()
        for op in ops:
            if op.checkpoint is not None:
                name, point = op.checkpoint
                kept[name] = {"position": point.position, "seq": point.seq, "data": point.data}
        tmp = self.path.with_name(f".{self.path.name}.{uuid.uuid4().hex}")
        tmp.write_text(json.dumps(kept))
        os.replace(tmp, self.path)


__all__ = ["LakeOutput", "LakeTarget", "compact_lake", "lake_meta", "load_group"]
