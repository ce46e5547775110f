"""The shard group of a replicator, kept as a log, and the routing of shard rows into the target.

Shards are the upstream tables the pattern matches, named ``<source>/<database>.<table>`` when
they join; a shard keeps its name across renames (and across an online-schema-change tool's
cut-over: the catalog gives the table its new schema, the shard its identity). Tools' helper
tables (gh-ost ``_t_gho``/``_t_ghc``/``_t_del``, pt-osc ``_t_new``/``_t_old``) are never shards.

:class:`Merge` feeds the group every schema change of a shard as its source's catalog holds it
(column ids included, :meth:`~mvdd.shard.ShardGroup.follow`) and writes each change to the state
directory's group log (:class:`~mvdd.replicate.state.LogEntry`) before anything runs
downstream; on start the group is rebuilt by replaying that log against the catalogs.

:class:`Route` is how one shard's rows, decoded with one version of its table, land in the
joined table: each column by id to where the group put its values (:meth:`~mvdd.shard.
ShardGroup.destination`: renames followed, generated columns left to the server), the key of
the target in the shard's names.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import attrs

from mvdd.catalog import Catalog, Change
from mvdd.compat.rules import widens
from mvdd.ddl import osc
from mvdd.ddl import step as s
from mvdd.ddl.order import apply_statement
from mvdd.ddl.rules import Rules
from mvdd.ddl.setting import session_of
from mvdd.ddl.sqlmode import SqlMode
from mvdd.ddl.statement import parse_statements
from mvdd.ddl.versioning import as_current
from mvdd.errors import MvddError
from mvdd.model import Column, Table
from mvdd.model.encoding import KEPT_BYTE
from mvdd.model.kind import TypeKind
from mvdd.model.names import fold_name
from mvdd.model.row import COMPUTED, Unfit, added_value, upgrade_through
from mvdd.model.types import alike_members
from mvdd.replicate.apply import member_number, member_numbers
from mvdd.replicate.state import LogEntry, State
from mvdd.shard import Outcome, ShardGroup
from mvdd.shard.rename import takes

log = logging.getLogger("mvdd.replicate")


class ReplicationError(MvddError, RuntimeError):
    """The replication cannot go on: a shard without a key, a group the log cannot rebuild,
    a target that diverged. The message names source, shard and position."""


def shard_name(source: str, table: str) -> str:
    """``<source>/<database>.<table>``."""
    return f"{source}/{table}"


def is_helper(table: str) -> bool:
    """Whether ``database.table`` is an online-schema-change tool's helper table."""
    return osc.is_helper(table.rpartition(".")[2])


def row_key(table: Table) -> tuple[str, ...] | None:
    """The columns that identify a row: the primary key, else the first UNIQUE key whose
    columns are all NOT NULL (None: the table has neither; :attr:`Table.row_key_index`)."""
    index = table.row_key_index
    return None if index is None else table.index_column_names(index)


def _warn_rows(shard: str, steps: Sequence[s.Step], position: str) -> None:
    """Say that a shard's statement changed rows without row events (the partitions its
    TruncateTable steps name, a whole table's TRUNCATE aside), which the target does not
    follow."""
    for x in (x for x in steps if isinstance(x, s.TruncateTable) and not x.empties):
        log.warning(
            "%s: %s (%s) at %s changed rows without row events; the target keeps the rows it "
            "had from them%s",
            shard,
            x.how,
            ", ".join(x.partitions) or "the whole table",
            position,
            ", and the shard is read again for those it brought in" if x.brings else "",
        )


def _brings_rows(change: Change, kind: str) -> bool:
    """Whether a shard's change (a group log entry's ``kind``) brought it rows without row
    events: a table renamed into the group (``RENAME TABLE`` or ``ALTER TABLE … RENAME`` of a
    table outside it), or a partition exchanged, a tablespace imported, a table converted
    (:attr:`~mvdd.ddl.step.TruncateTable.brings`)."""
    return any(
        (isinstance(x, s.TruncateTable) and x.brings)
        or (kind == "add" and isinstance(x, s.RenameTable))
        for x in change.steps
    )


def is_data(statement: str) -> bool:
    """Whether a downstream statement is a data step (an UPDATE ending a rename), not DDL."""
    return statement.lstrip().upper().startswith("UPDATE")


def is_truncate(statement: str) -> bool:
    """Whether a downstream statement empties the target (a ``TRUNCATE TABLE``)."""
    if is_data(statement):
        return False
    return any(
        isinstance(x, s.TruncateTable) and x.empties
        for st in parse_statements(statement)
        for x in st.steps
    )


#: the rules of a downstream statement: the server's, outside strict mode
_DOWNSTREAM = Rules.SERVER.for_session(session_of(None, SqlMode.of(""), None))


def expected_tables(before: Table | None, statements: Sequence[str]) -> list[Table]:
    """The target's schema after each downstream statement (data statements change none), each
    read as the target runs it: outside strict mode (:func:`~mvdd.replicate.target.run_ddl`),
    where an ENUM's or a SET's members may be one, as a shard's session made them."""
    out: list[Table] = []
    table = before
    for text in statements:
        read = parse_statements(text, replica=True, sql_mode="") if not is_data(text) else ()
        for st in read:
            if len(st.steps) == 1 and isinstance(st.steps[0], s.CreateTable):
                table = st.steps[0].definition
            elif st.steps:
                assert table is not None
                table = apply_statement(table, st.steps, rules=_DOWNSTREAM)
        assert table is not None
        out.append(table)
    return out


@attrs.frozen
class Route:
    """How the rows of one shard at one version of its table go into the target."""

    shard: str
    version: int
    #: upstream name -> target name, for every column the target stores
    columns: dict[str, str]
    #: the target's key, as (target name, upstream name)
    key: tuple[tuple[str, str], ...]
    #: the target's ENUM columns without an empty member, where an empty value is the server's
    #: error value (an ENUM's index 0, which a session outside strict mode stores for a value
    #: no member is): strict mode refuses to write it (see mvdd.replicate.apply.Changes)
    empty: frozenset[str] = frozenset()
    #: upstream name -> the numbers of its members (:func:`~mvdd.replicate.apply.member_number`),
    #: for the ENUM and SET columns whose members a value's text does not tell apart (two
    #: that are one under its collation, a member of bytes its charset does not read): their
    #: values are written as numbers, the same in the shard's table and the target's, whose
    #: members the shard's begin (the join orders members by prefix)
    numbered: Mapping[str, Mapping[str, int]] = attrs.field(factory=dict)
    #: upstream name -> a second target column its values go to as well
    #: (:meth:`~mvdd.shard.group.ShardGroup.also`: the renamed column of a rename under way)
    also: Mapping[str, str] = attrs.field(factory=dict)

    def row(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """A row by target names (columns the target does not store left out), as the target
        is written."""
        cols = self.columns
        if self.numbered:
            numbered = self.numbered
            out = {
                cols[k]: member_number(v, numbered[k]) if k in numbered else v
                for k, v in values.items()
                if k in cols
            }
        else:
            out = {cols[k]: v for k, v in values.items() if k in cols}
        if self.also:
            out.update((down, out[cols[up]]) for up, down in self.also.items() if up in values)
        return out

    def key_of(self, values: Mapping[str, Any]) -> tuple[Any, ...]:
        """A row's key, as the target is written."""
        numbered = self.numbered
        return tuple(
            member_number(values[up], numbered[up]) if up in numbered else values[up]
            for _, up in self.key
        )

    def tuples(
        self, names: Sequence[str], rows: Sequence[Sequence[Any]]
    ) -> Sequence[Sequence[Any]]:
        """Rows that are tuples in the order of ``names`` (a copy's SELECT), as the target is
        written."""
        at = [(i, self.numbered[n]) for i, n in enumerate(names) if n in self.numbered]
        if not at:
            return rows
        out = []
        for row in rows:
            values = list(row)
            for i, numbers in at:
                values[i] = member_number(values[i], numbers)
            out.append(values)
        return out

    def positions(self, names: Sequence[str]) -> tuple[tuple[str, ...], tuple[int, ...]]:
        """For rows that are tuples in the order of ``names`` (a copy's SELECT): the target
        columns they fill, and where in each tuple each one's value is."""
        pairs = [(self.columns[n], i) for i, n in enumerate(names) if n in self.columns]
        pairs += [(self.also[n], i) for i, n in enumerate(names) if n in self.also]
        return tuple(c for c, _ in pairs), tuple(i for _, i in pairs)


@attrs.frozen
class Reading:
    """How a copy (or a read again) takes one shard's rows, at the group's version of it."""

    version: int
    table: Table
    route: Route
    #: the columns read (:func:`columns_of`), their names, and the shard's key
    read: list[Column]
    columns: list[str]
    key: list[str]


class Merge:
    """The group, its log, and the shards' routes (see the module docstring)."""

    def __init__(
        self,
        target: str,
        catalogs: Mapping[str, Catalog],
        state: State,
        *,
        renames: str = "merge",
    ) -> None:
        self.target = target
        self.catalogs = catalogs
        self.state = state
        self.renames = renames
        self.group: ShardGroup | None = None
        self.seq = -1
        #: (source, table id) -> shard, and back
        self.by_table: dict[tuple[str, int], str] = {}
        self.tables: dict[str, tuple[str, int]] = {}
        #: each shard's catalog version as the group has it
        self.versions: dict[str, int] = {}
        #: the (source, table id, version) changes the log holds: a DDL read again after a
        #: restart is not applied twice
        self.applied: set[tuple[str, int, int]] = set()
        #: the (source, table id, version) changes that brought a shard rows without row
        #: events (:meth:`arrived`)
        self.arrivals: set[tuple[str, int, int]] = set()
        self._routes: dict[tuple[str, int], Route] = {}

    # -- the log --------------------------------------------------------------------------------

    def table(self, source: str, table_id: int, version: int) -> Table:
        """A shard's table at a version, as the group joins it: its current rows' (a
        system-versioned shard's past versions are its own, :func:`~mvdd.ddl.versioning.
        as_current`)."""
        return as_current(self.catalogs[source].table_by_id(table_id, version=version))

    def change(self, source: str, table_id: int, version: int) -> Change:
        return self.catalogs[source].change_by_id(table_id, version)

    def rebuild(self, log: Sequence[LogEntry]) -> None:
        """The group as the log leaves it; ReplicationError if a change does not emit what
        the log says it did (the catalogs and the log disagree)."""
        for entry in log:
            outcome = self._replay(entry)
            self._applied(entry)
            if tuple(outcome.downstream) != entry.downstream:
                raise ReplicationError(
                    f"the state directory's group log does not replay (entry {entry.seq}, "
                    f"{entry.kind} {entry.shard or ''}): the catalogs changed under it"
                )
            self.seq = entry.seq

    def _replay(self, entry: LogEntry) -> Outcome:
        if entry.kind == "init":
            shards = {name: self.table(src, tid, v) for name, src, tid, v in entry.shards}
            self.group = ShardGroup(self.target, shards, renames=self.renames, dual_writes=True)
            for name, src, tid, _ in entry.shards:
                self._own(name, src, tid)
            return Outcome(downstream=[self.group.joined.to_sql()])
        group = self._group()
        assert entry.shard is not None
        if entry.kind == "remove":
            out = group.remove_shard(entry.shard)
            self._disown(entry.shard)
            return out
        assert entry.source is not None and entry.table_id is not None and entry.version
        table = self.table(entry.source, entry.table_id, entry.version)
        if entry.kind == "add":
            self._own(entry.shard, entry.source, entry.table_id)
            return group.add_shard(entry.shard, table)
        change = self.change(entry.source, entry.table_id, entry.version)
        return group.follow(entry.shard, table, steps=change.steps, statement=change.statement)

    def _group(self) -> ShardGroup:
        if self.group is None:
            raise ReplicationError("the shard group has no shards yet")
        return self.group

    def _own(self, shard: str, source: str, table_id: int) -> None:
        self.by_table[(source, table_id)] = shard
        self.tables[shard] = (source, table_id)

    def _disown(self, shard: str) -> None:
        key = self.tables.pop(shard, None)
        self.versions.pop(shard, None)
        if key is not None:
            self.by_table.pop(key, None)

    def _applied(self, entry: LogEntry) -> None:
        if entry.kind == "init":
            for name, src, tid, v in entry.shards:
                self.versions[name] = v
                self.applied.add((src, tid, v))
            return
        assert entry.source is not None and entry.table_id is not None
        assert entry.version is not None and entry.shard is not None
        key = (entry.source, entry.table_id, entry.version)
        self.applied.add(key)
        if entry.kind != "remove" and _brings_rows(self.change(*key), entry.kind):
            self.arrivals.add(key)
        if entry.kind != "remove":
            self.versions[entry.shard] = entry.version

    def _record(self, entry: LogEntry, before: Table | None) -> LogEntry:
        """Write a change to the log (before anything runs downstream)."""
        expected = expected_tables(before, entry.downstream)
        entry = attrs.evolve(entry, expected=tuple(t.to_sql() for t in expected))
        self.state.append(entry)
        self.seq = entry.seq
        self._applied(entry)
        self._routes.clear()
        return entry

    # -- changes ----------------------------------------------------------------------------------

    def init(self, shards: Mapping[str, tuple[str, int, int]]) -> LogEntry:
        """The group of the first run: shard -> (source, table id, version)."""
        tables = {name: self.table(*where) for name, where in shards.items()}
        self.group = ShardGroup(self.target, tables, renames=self.renames, dual_writes=True)
        for name, (src, tid, _) in shards.items():
            self._own(name, src, tid)
        entry = LogEntry(
            seq=0,
            kind="init",
            shard=None,
            source=None,
            table_id=None,
            version=None,
            position=None,
            statement=None,
            downstream=(self.group.joined.to_sql(),),
            expected=(),
            shards=tuple((n, src, t, v) for n, (src, t, v) in shards.items()),
        )
        return self._record(entry, None)

    def apply(
        self, source: str, table_id: int, version: int, position: str, matches: bool
    ) -> LogEntry | None:
        """A DDL of a table of ``source`` reached ``version``: the group's change, written to
        the log, or None when it does not concern the group. ``matches``: whether the table's
        name (after the statement) matches the pattern."""
        if (source, table_id, version) in self.applied:
            return None  # read again after a restart: the group has it
        group = self._group()
        change = self.change(source, table_id, version)
        shard = self.by_table.get((source, table_id))
        before = group.joined
        kind = None
        if shard is not None:
            if change.dropped or not matches or is_helper(change.table):
                if len(group.shards) == 1:
                    return None  # the last shard: the target stays as it is
                kind = "remove"
                outcome = group.remove_shard(shard)
                self._disown(shard)
            else:
                kind = "follow"
                table = self.table(source, table_id, version)
                outcome = group.follow(shard, table, steps=change.steps, statement=change.statement)
                changed = [x for x in change.steps if isinstance(x, s.TruncateTable)]
                if any(x.empties for x in changed) and not any(
                    is_truncate(d) for d in outcome.downstream
                ):
                    log.warning(
                        "%s emptied its table at %s; the target keeps the rows it had from it "
                        "(it merges %d shards and does not record which one a row came from)",
                        shard,
                        position,
                        len(group.shards),
                    )
                _warn_rows(shard, changed, position)
        elif self._joins(change, matches):
            shard = self._name(source, change, table_id)
            kind = "add"
            self._own(shard, source, table_id)
            outcome = group.add_shard(shard, self.table(source, table_id, version))
            # a table made of a partition (CONVERT PARTITION) comes with its rows
            _warn_rows(shard, change.steps, position)
        if kind is None or shard is None:
            return None
        entry = LogEntry(
            seq=self.seq + 1,
            kind=kind,
            shard=shard,
            source=source,
            table_id=table_id,
            version=version,
            position=position,
            statement=change.statement,
            downstream=tuple(outcome.downstream),
            expected=(),
            resumed=tuple(sorted(outcome.resumed)),
        )
        return self._record(entry, before)

    def arrived(self, source: str, table_id: int, version: int) -> str | None:
        """The shard to which this version of its table brought rows without row events (see
        :func:`_brings_rows`), or None (the group log's entries say, read again after a
        restart too)."""
        if (source, table_id, version) not in self.arrivals:
            return None
        return self.by_table.get((source, table_id))

    @staticmethod
    def _joins(change: Change, matches: bool) -> bool:
        return matches and not change.dropped and not is_helper(change.table)

    def joining(self, source: str, table_id: int, version: int, matches: bool) -> str | None:
        """The shard a DDL would make join the group (as :meth:`apply` decides), or None."""
        if (source, table_id, version) in self.applied or (source, table_id) in self.by_table:
            return None
        change = self.change(source, table_id, version)
        return self._name(source, change, table_id) if self._joins(change, matches) else None

    def _name(self, source: str, change: Change, table_id: int) -> str:
        """A joining table's shard name, :func:`shard_name`; where a shard of the group still
        bears it (renamed within the pattern: a shard keeps its name), that name and
        ``#<table id>``."""
        name = shard_name(source, change.table)
        held = self.tables.get(name)
        return name if held is None or held == (source, table_id) else f"{name}#{table_id}"

    # -- rows -------------------------------------------------------------------------------------

    def shard_of(self, source: str, table_id: int | None) -> str | None:
        return self.by_table.get((source, table_id)) if table_id is not None else None

    def paused(self, shard: str) -> bool:
        return shard in self._group().paused

    def reason(self, shard: str) -> str | None:
        """Why a shard is paused (None: it is not)."""
        group = self.group
        if group is None or shard not in group.shards or shard not in group.paused:
            return None
        return group.pause_reason(shard)

    def reading(self, shard: str) -> Reading:
        """How a copy takes ``shard``'s rows now (its table at the group's version of it)."""
        source, tid = self.tables[shard]
        version = self.versions[shard]
        table = self.table(source, tid, version)
        route = self.route(shard, version)
        read = columns_of(table, route)
        return Reading(version, table, route, read, names(read), list(row_key(table) or ()))

    def route(self, shard: str, version: int) -> Route:
        """How rows of ``shard`` decoded with catalog ``version`` of its table go to the
        target (cached until the group changes). ReplicationError if the shard lacks a column
        of the target's key."""
        found = self._routes.get((shard, version))
        if found is not None:
            return found
        group = self._group()
        source, tid = self.tables[shard]
        table = self.table(source, tid, version)
        columns: dict[str, str] = {}
        empty: set[str] = set()
        numbered: dict[str, dict[str, int]] = {}
        also: dict[str, str] = {}
        for col in table.columns:
            dest = group.destination(shard, col.id)
            if dest is not None and dest.generated is None:
                columns[col.name] = dest.name
                second = group.also(shard, col.id)
                if second is not None and second.generated is None:
                    also[col.name] = second.name
                for down in (dest, second) if second is not None else (dest,):
                    if down.type.kind is TypeKind.ENUM and "" not in down.type.members:
                        empty.add(down.name)
                if dest.type.kind is col.type.kind and not (
                    members_apart(table, col) and members_apart(group.joined, dest)
                ):
                    numbered[col.name] = member_numbers(*col.type.members, kind=col.type.kind.value)
        down_key = row_key(group.joined) or ()
        back = {fold_name(down): up for up, down in columns.items()}
        missing = [k for k in down_key if fold_name(k) not in back]
        if missing or not down_key:
            raise ReplicationError(
                f"the rows of this shard cannot be matched in `{self.target}`: "
                + (
                    f"it has no column for the key column(s) {missing}"
                    if down_key
                    else "the joined table has no PRIMARY KEY nor NOT NULL UNIQUE key"
                ),
                shard=shard,
            )
        route = Route(
            shard,
            version,
            columns,
            tuple((k, back[fold_name(k)]) for k in down_key),
            frozenset(empty),
            numbered,
            also,
        )
        self._routes[(shard, version)] = route
        return route

    def upgraded(
        self,
        shard: str,
        version: int,
        values: Mapping[str, Any] | None,
        unfit: Unfit | None = None,
    ) -> dict[str, Any] | None:
        """A held row (decoded with catalog ``version``) as a row of the shard's table now,
        as the server holds it: changed statement by statement (:func:`upgrade_through`),
        dropped columns gone, added ones at the default they were added with (values the
        server computes left to it). mvdd converts a value itself where its column's type
        widened (:func:`~mvdd.compat.rules.widens`: the value stays what it was); every other
        change of type the server made by rules of its own (a DOUBLE made a DATETIME, a text
        an INT, a value cut to fit), and the value is ``unfit``'s answer (without ``unfit``,
        mvdd's conversion, InvalidValueError where it has none)."""
        if values is None:
            return None
        source, tid = self.tables[shard]
        head = self.versions[shard]  # the group's, not the catalog's (its reader reads ahead)
        versions = [self.table(source, tid, v) for v in range(version, head + 1)]
        old, new = versions[0], versions[-1]
        by_id = {c.id: values[c.name] for c in old.columns if c.name in values}
        try:
            up = upgrade_through(by_id, versions, unfit=unfit, own=widens)
        except MvddError as err:
            raise err.locate(shard=shard) from None
        return {c.name: up[c.id] for c in new.columns if up[c.id] is not COMPUTED}


def rewritten(
    before: Table,
    after: Table,
    joined: tuple[Table, Table] | None = None,
    held: Callable[[str], bool] | None = None,
) -> list[str]:
    """The columns whose values a shard's statement (its table ``before`` and ``after`` it)
    changed in the rows the shard held, without a row event: a type that did not widen
    (:func:`~mvdd.compat.rules.widens`: the server converted each value by its own rules), NULL
    no longer allowed (a NULL became its type's zero value), a column added that the target
    had already with another default (its rows of the shard hold the value they were given
    when another shard added it; the shard's rows took this column's default) or that the
    shard held once, dropped since (``held(name)``: its rows hold whatever values it had), a
    generated column added, changed or renamed where the target's is a plain one (the server
    computed its values in every row). ``joined``: the target's table before and after the
    statement, where known (without it every added column counts): a column the target
    changed alike, from the same definition (the downstream statement converted the same
    values the same way), is left out.

    >>> from mvdd.ddl import parse_table
    >>> a = parse_table("CREATE TABLE t (id INT PRIMARY KEY, a INT, b VARCHAR(9))")
    >>> b = parse_table("CREATE TABLE t (id INT PRIMARY KEY, a BIGINT, b VARCHAR(4))")
    >>> rewritten(a, b)
    ['b']
    >>> rewritten(a, b, (a, b))
    []
    >>> c = parse_table("CREATE TABLE t (id INT PRIMARY KEY, a INT NOT NULL, b VARCHAR(9))")
    >>> rewritten(a, c, (a, a))
    ['a']
    >>> d = parse_table("CREATE TABLE t (id INT PRIMARY KEY, a INT, b VARCHAR(9), n INT)")
    >>> target = parse_table("CREATE TABLE t (id INT PRIMARY KEY, a INT, b TEXT, n INT)")
    >>> rewritten(a, d, (a, d)), rewritten(a, d, (target, target)), rewritten(a, d)
    ([], [], ['n'])
    >>> zero = parse_table("CREATE TABLE t (id INT PRIMARY KEY, n INT NOT NULL DEFAULT 0)")
    >>> rewritten(a, d, (zero, zero))
    ['n']
    >>> rewritten(a, d, (target, target), held=lambda name: name == "n")
    ['n']
    >>> g = parse_table("CREATE TABLE t (id INT PRIMARY KEY, a INT, b VARCHAR(9), g INT AS (id))")
    >>> plain = parse_table("CREATE TABLE t (id INT PRIMARY KEY, g INT)")
    >>> rewritten(a, g, (plain, plain)), rewritten(a, g, (g, g)), rewritten(g, g, (plain, plain))
    (['g'], [], [])
    >>> h = parse_table("CREATE TABLE t (id INT PRIMARY KEY, a INT, b VARCHAR(9), h INT AS (id))")
    >>> h.column("h").id == g.column("g").id  # (g renamed to h)
    True
    >>> rewritten(g, h, (parse_table("CREATE TABLE t (id INT PRIMARY KEY, h INT)"),) * 2)
    ['h']
    """
    was = {c.id: c for c in before.columns}
    out = []
    for col in after.columns:
        old = was.get(col.id)
        if col.generated is not None:
            # values the server computed for every row: they count where the target's column
            # is not computed alike (another shard's plain column); renamed, they land in
            # another column of the target
            same = (
                old is not None
                and old.generated == col.generated
                and takes(col, old)
                and fold_name(old.name) == fold_name(col.name)
            )
            down = joined[1].find_column(col.name) if joined is not None else None
            if not same and (joined is None or (down is not None and down.generated is None)):
                out.append(col.name)
            continue
        if old is None:
            target_had = joined[0].find_column(col.name) if joined is not None else None
            value = added_value(col)
            if joined is None or (
                target_had is not None
                and (
                    value is COMPUTED
                    or added_value(target_had) != value
                    or (held is not None and held(col.name))
                )
            ):
                out.append(col.name)
            continue
        if takes(col, old):
            continue
        if joined is not None and fold_name(old.name) == fold_name(col.name):
            # (a rename's downstream change is the merge's UPDATE, no ALTER: not alike)
            target_was = joined[0].find_column(old.name)
            target_is = joined[1].find_column(col.name)
            if (
                target_was is not None
                and target_is is not None
                and (target_was.type, target_was.nullable) == (old.type, old.nullable)
                and (target_is.type, target_is.nullable) == (col.type, col.nullable)
            ):
                continue
        out.append(col.name)
    return out


def members_apart(table: Table, column: Column) -> bool:
    """Whether a value's text tells each member of an ENUM or a SET column apart: none holds
    a byte its charset does not read (:data:`~mvdd.model.encoding.KEPT_BYTE`), no two are one
    under its collation (:func:`~mvdd.model.types.alike_members`)."""
    members = column.type.members
    if not members:
        return True
    return not any(map(KEPT_BYTE.search, members)) and not alike_members(
        members, table.column_collation(column)[1]
    )


def columns_of(table: Table, route: Route | None = None) -> list[Column]:
    """The columns a copy reads and writes: all but generated ones (the server computes them),
    save those ``route`` writes to a column of the target that is not generated (another
    shard's values are there: this shard's computed ones are copied as they are)."""
    written = route.columns if route is not None else {}
    return [c for c in table.columns if c.generated is None or c.name in written]


def names(items: Iterable[Column]) -> list[str]:
    return [c.name for c in items]


__all__ = [
    "Merge",
    "ReplicationError",
    "Route",
    "columns_of",
    "expected_tables",
    "is_data",
    "is_helper",
    "is_truncate",
    "members_apart",
    "names",
    "rewritten",
    "row_key",
    "shard_name",
]
