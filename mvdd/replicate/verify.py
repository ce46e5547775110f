"""Is the target what the upstream says? The upstream tables are the oracle.

:func:`verify` reads every shard's rows upstream and the target's rows downstream and reports
every difference: a row of a shard missing downstream (by key), a column whose value differs
(each shard column compared with the target column its values land in: renames followed), rows
downstream that no shard has, and a target schema that is not the group's join. Rows of a
paused shard are not compared (they wait); the target may hold up to that many rows more.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import math
from collections.abc import Iterable, Iterator, Sequence
from decimal import Decimal
from typing import Any

import attrs
import pymysql
import pymysql.cursors

from mvdd.binlog.source import source_address
from mvdd.ddl.dml import count_rows, select_run, show_create
from mvdd.ddl.statement import live_table
from mvdd.model import Column, Family, Table
from mvdd.model.names import fold_name
from mvdd.model.table import as_shown
from mvdd.replicate.merge import row_key
from mvdd.shard import ShardGroup
from mvdd.store.address import Address, parse_address


@attrs.frozen
class Verdict:
    """What :func:`verify` found: rows compared per shard, and every difference (empty: the
    target holds exactly the upstream rows and has the join's schema)."""

    rows: dict[str, int]
    target_rows: int
    differences: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.differences


def same(a: Any, b: Any) -> bool:
    """Whether two values the driver read are the same value (a DECIMAL read as Decimal and
    an INT, text and bytes of one string …)."""
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, Decimal) or isinstance(b, Decimal):
        try:
            return Decimal(a) == Decimal(b)
        except (TypeError, ArithmeticError):
            return False
    if isinstance(a, dt.datetime) and isinstance(b, dt.datetime):
        return a == b
    if isinstance(a, str | bytes) and isinstance(b, str | bytes):
        return (a.encode() if isinstance(a, str) else a) == (
            b.encode() if isinstance(b, str) else b
        )
    return bool(a == b)


@contextlib.contextmanager
def _connection(address: Address, *, stream: bool = False) -> Iterator[Any]:
    """A connection to ``address``; with ``stream``, its cursors hand rows over as the server
    sends them (PyMySQL's unbuffered cursor) rather than holding the whole result."""
    options = address.connect_options()
    if stream:
        options["cursorclass"] = pymysql.cursors.SSCursor
    conn = pymysql.connect(**options)
    try:
        yield conn
    finally:
        conn.close()


def target_schema(downstream: str, target: str) -> Table:
    with _connection(parse_address(downstream)) as conn, conn.cursor() as cur:
        cur.execute(show_create(target))
        text = cur.fetchone()[1]
    return live_table(text)


#: the families whose values the servers and Python order alike: when the key's first column
#: is of one of them on the target and on every shard, :func:`verify` reads the target in runs
#: of that column's order and each shard run by run (a run's rows in memory at a time)
_ORDERED = frozenset({Family.INTEGER, Family.DECIMAL})
#: the target rows a run holds at least (all of them with a key of another type)
RUN = 20_000


def _runs(rows: Iterable[tuple[Any, ...]], lead: int, size: float) -> Iterator[_Run]:
    """``rows`` (in the order of their column ``lead``) in runs of at least ``size`` rows, a
    run ending where its last lead value does; each with its bounds: from the run's first lead
    value (None: the first run, open below) to the next run's (None: the last, open above).
    An empty ``rows`` is one empty run open on both sides."""
    run: list[tuple[Any, ...]] = []
    low = None
    for row in rows:
        if len(run) >= size and row[lead] != run[-1][lead]:
            yield _Run(run, low, row[lead])
            run, low = [], row[lead]
        run.append(row)
    yield _Run(run, low, None)


def _streamed(cur: Any) -> Iterator[tuple[Any, ...]]:
    """The rows of an unbuffered cursor's result, a thousand fetched at a time."""
    while chunk := cur.fetchmany(1000):
        yield from chunk


@attrs.frozen
class _Run:
    rows: list[tuple[Any, ...]]
    low: Any
    high: Any


def _ranged(joined: Table, shards: Iterable[_Shard]) -> bool:
    """Whether the key's first column is of an :data:`_ORDERED` family on the target and on
    every shard it is read from. (The join holds a key only where every shard holds it, so
    the column leads an index of each shard: a run's rows are found through it.)"""
    key = row_key(joined)
    if not key:
        return False
    sides = [joined.column(key[0])]
    sides += [c for x in shards for c in x.columns if fold_name(c.name) == fold_name(x.key[0])]
    return all(c.type.family in _ORDERED for c in sides)


@attrs.frozen
class _Shard:
    """What :func:`verify` reads of a shard and how it compares a row: its source, its table
    (its name now), the columns read, the upstream names of the key's columns, and each
    compared column's upstream name with the target column its values land in."""

    name: str
    source: str
    table: tuple[str, str]
    columns: tuple[Column, ...]
    key: tuple[str, ...]
    where: tuple[tuple[str, str], ...]

    @classmethod
    def of(cls, group: ShardGroup, shard: str, key: Sequence[str]) -> _Shard:
        schema = group.schema(shard)
        database, _, name = schema.name.partition(".")
        where = {}
        for col in schema.columns:
            dest = group.destination(shard, col.id)
            if dest is not None and dest.generated is None:
                # (while a rename is under way, the renamed column holds every row's value)
                where[col.name] = (group.also(shard, col.id) or dest).name
        back = {fold_name(d): u for u, d in where.items()}
        return cls(
            shard,
            shard.partition("/")[0],
            (database, name),
            schema.columns,
            tuple(back[fold_name(k)] for k in key),
            tuple(where.items()),
        )

    def compare(
        self,
        names: Sequence[str],
        rows: Iterable[tuple[Any, ...]],
        down: dict[tuple[Any, ...], tuple[Any, ...]],
        down_names: Sequence[str],
        matched: set[tuple[Any, ...]],
        found: _Found,
    ) -> int:
        """Compare the shard's ``rows`` (their columns ``names``) with the target's rows
        ``down`` (by key; their columns ``down_names``), adding to ``found`` each difference
        and to ``matched`` each key found; how many rows were compared."""
        at = [names.index(u) for u in self.key]
        pairs = [(names.index(u), down_names.index(d), u, d) for u, d in self.where]
        read = 0
        for row in rows:
            read += 1
            k = tuple(row[i] for i in at)
            got = down.get(k)
            if got is None:
                found.add(f"{self.name}: the row {k} is missing downstream")
                continue
            matched.add(k)
            for i, j, up, dn in pairs:
                if not same(row[i], got[j]):
                    found.add(
                        f"{self.name}: row {k}, `{up}` is {row[i]!r} upstream and `{dn}` "
                        f"{got[j]!r} downstream"
                    )
        return read


class _Found:
    """The differences: the first ``limit`` named, the rest counted."""

    def __init__(self, limit: int) -> None:
        self.limit, self.named, self.more = limit, list[str](), 0

    def add(self, difference: str) -> None:
        if len(self.named) < self.limit:
            self.named.append(difference)
        else:
            self.more += 1

    def shown(self) -> tuple[str, ...]:
        return tuple(self.named) + ((f"… and {self.more} more",) if self.more else ())


def verify(
    group: ShardGroup,
    sources: dict[str, str],
    downstream: str,
    target: str,
    *,
    limit: int = 20,
    run: int = RUN,
) -> Verdict:
    """Compare the target with the upstream shards (see the module docstring); ``limit``
    differences are named at most, the rest counted.

    The target is read once, in runs of at least ``run`` rows in the order of its key's first
    column when that column is a number on every side (:data:`_ORDERED`; a run ends where a
    value of it does), and each shard's rows of a run's span are read beside it: the rows a run
    holds are all that is in memory at a time (the shards' rows are streamed past it). With a
    key of another type (whose order the servers' collations decide) the target is one run."""
    found = _Found(limit)
    live = target_schema(downstream, target)
    joined = as_shown(group.joined)  # (as the target's SHOW CREATE TABLE writes it)
    if not live.equivalent(joined):
        found.add(f"the target's schema is not the join: {live.differences(joined)}")
    key = row_key(group.joined) or ()
    shards = {shard: _Shard.of(group, shard, key) for shard in sorted(group.shards)}
    ranged = _ranged(group.joined, shards.values())
    counts = dict.fromkeys((s for s in shards if s not in group.paused), 0)
    held = total = 0
    with contextlib.ExitStack() as stack:
        upstream = {
            source: stack.enter_context(_connection(source_address(url), stream=True))
            for source, url in sources.items()
            if any(x.source == source for x in shards.values())
        }
        for shard in group.paused & shards.keys():
            with upstream[shards[shard].source].cursor() as cur:
                cur.execute(count_rows(shards[shard].table))
                held += cur.fetchone()[0]
        conn = stack.enter_context(_connection(parse_address(downstream), stream=True))
        cur = stack.enter_context(conn.cursor())
        lead = key[:1] if ranged else ()
        cur.execute(select_run(target, None, lead, None, None, ordered=ranged))
        names = [d[0] for d in cur.description]
        at = [names.index(k) for k in key]
        for part in _runs(_streamed(cur), at[0] if ranged else 0, run if ranged else math.inf):
            total += len(part.rows)
            down = {tuple(row[i] for i in at): row for row in part.rows}
            matched: set[tuple[Any, ...]] = set()
            for shard, counted in counts.items():
                x = shards[shard]
                bounds = (
                    None if part.low is None else [part.low],
                    None if part.high is None else [part.high],
                )
                with upstream[x.source].cursor() as up:
                    up.execute(select_run(x.table, x.columns, x.key[:1] if ranged else (), *bounds))
                    up_names = [d[0] for d in up.description]
                    read = x.compare(up_names, _streamed(up), down, names, matched, found)
                counts[shard] = counted + read
            if not held:
                for k in down:
                    if k not in matched:
                        found.add(f"the row {k} is downstream and on no shard")
    compared = sum(counts.values())
    if held and not compared <= total <= compared + held:
        found.add(
            f"the target holds {total} rows; the shards {compared} (and {held} of paused shards)"
        )
    return Verdict(counts, total, found.shown())


__all__ = ["Verdict", "same", "verify"]
