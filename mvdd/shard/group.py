"""The optimistic shard coordinator (seed 000, DESIGN §8): N upstream tables, one downstream.

A :class:`ShardGroup` keeps every shard's *upstream* schema with its own version history (what the
shard's DDL stream says) and its *accepted* schema (the last one that joined; the same unless the
shard is paused). The joined schema is the join (:mod:`mvdd.join`) of the accepted schemas. On a
DDL from a shard the group applies it to the shard's upstream schema, recomputes the join and
returns the downstream DDL that moves the target table from the old join to the new one
(:mod:`mvdd.shard.plan`).

Costs. The group keeps, for every column, index and check name, which shards hold which
definition (distinct definitions are few), and how many shards have each column (*exists* on all,
*partial*, or *dropped* from all, seed 000). One DDL re-joins only the elements it touches: its
cost does not grow with the number of shards.

Choices where the seed leaves room:

* **Conflicts** pause only the shard whose DDL made the join impossible (``Outcome.conflict``
  says which element, which shards and why). Its upstream schema keeps following its DDL; its
  accepted schema stays in the join, so no column its rows need is dropped. After every change
  each paused shard whose upstream schema now joins is resumed (one by one, then all together —
  several shards making the same incompatible change resume when the last one makes it).
* **Renames** follow seed 000's procedure. The first shard renaming ``a`` to ``b`` (``a`` on
  every shard, ``b`` on none) renames the downstream column, gives it a default and adds ``a``
  back as a nullable column for the other shards' rows; when no shard has ``a`` any more the data
  is merged (``UPDATE t SET b = a WHERE a IS NOT NULL``) and ``a`` dropped; if instead every
  shard goes back to ``a``, the data is merged the same way and the column renamed back. Other
  renames of a column in the middle of one (seed 000's table of unsupported cases) are
  conflicts. A rename on a group of one shard is a plain rename.
* **Downstream names and looks**: a column keeps the spelling it has downstream; table options
  and column comments changed by a shard are passed through, as are ``MODIFY … FIRST/AFTER``
  reorderings; new columns are added at the end. ``TRUNCATE`` of a shard is not propagated (it
  would empty every shard's rows); ``DROP TABLE`` removes the shard; ``RENAME TABLE`` keeps the
  shard under its new table name.
* **Downstream constraints MariaDB cannot hold**: a check NOT ENFORCED is left out (it constrains
  nothing); an AUTO_INCREMENT column whose key is not in the join loses AUTO_INCREMENT downstream
  (row events carry its values).
* Narrowing downstream (NOT NULL once every shard has it, a default dropped once every shard has
  the column) fails on the server if rows already there break the narrower schema, as it would
  for the upstream DDL itself.

>>> g = ShardGroup("t", {"s1": "CREATE TABLE t1 (a INT)", "s2": "CREATE TABLE t2 (a INT)"})
>>> g.apply("s1", "ALTER TABLE t1 ADD COLUMN b INT NOT NULL").downstream
['ALTER TABLE `t` ADD COLUMN `b` INT NOT NULL DEFAULT 0']
>>> g.apply("s2", "ALTER TABLE t2 ADD COLUMN b INT NOT NULL").downstream
['ALTER TABLE `t` ALTER COLUMN `b` DROP DEFAULT']
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, cast

import attrs

from mvdd.catalog.catalog import adopt_ids
from mvdd.ddl import step as s
from mvdd.ddl.apply import apply_steps, validate_table
from mvdd.ddl.statement import Statement, parse_statements, parse_table
from mvdd.errors import (
    DDLError,
    JoinConflictError,
    MvddError,
    NoSuchTableError,
    NoSuchVersionError,
)
from mvdd.join.encode import (
    MISSING,
    column_charset,
    column_key,
    decode_check,
    decode_column,
    decode_index,
    encode_check,
    encode_column,
    encode_index,
    implicit_default,
    mark_implicit,
    needs_implicit,
)
from mvdd.join.merge import ElementConflict, expr_columns, index_reads, join_column, join_constraint
from mvdd.join.schema import conflict_error
from mvdd.model import NO_DEFAULT, Column, IndexKind, Table, TableOptions
from mvdd.shard.plan import Action, plan, render

KINDS = ("column", "index", "check")


@attrs.frozen
class Outcome:
    """What one change to a group means downstream.

    Attributes:
        downstream: the DDL to run on the target, in order, one statement per entry.
        conflict: set when the change could not be joined: its shard is paused.
        resumed: the paused shards this change let resume.
    """

    downstream: list[str] = attrs.field(factory=list)
    conflict: JoinConflictError | None = None
    resumed: frozenset[str] = frozenset()


@attrs.define(eq=False)
class _Encoded:
    """A shard's accepted schema as lattice values, by element key."""

    columns: dict[str, Any]
    indexes: dict[str, Any]
    checks: dict[str, Any]

    def of(self, kind: str) -> dict[str, Any]:
        return (
            self.columns if kind == "column" else self.indexes if kind == "index" else self.checks
        )


def _encode(table: Table) -> _Encoded:
    implicit = table._implicit_defaults
    return _Encoded(
        {
            column_key(c.name): encode_column(
                c, column_charset(table, c), column_key(c.name) in implicit
            )
            for c in table.columns
        },
        {column_key(i.name): encode_index(table, i) for i in table.indexes},
        {column_key(c.name): encode_check(c) for c in table.checks},
    )


@attrs.define(eq=False)
class _Shard:
    name: str
    versions: list[Table]
    statements: list[str | Table]  # a Table given instead of SQL is rendered when asked
    accepted: Table | None
    encoded: _Encoded | None
    paused: bool = False
    conflict: JoinConflictError | None = None

    @property
    def upstream(self) -> Table:
        return self.versions[-1]


class _Refused(Exception):
    def __init__(self, error: JoinConflictError) -> None:
        super().__init__(error.message)
        self.error = error


@attrs.define
class _Undo:
    """What a tentative move changed, to put back if it is refused."""

    holdings: list[tuple[str, str, Any, str, bool]] = attrs.field(factory=list)
    renames: dict[str, str] = attrs.field(factory=dict)
    count: int = 0


class ShardGroup:
    """Merge the tables of several shards into one downstream table, without a DDL barrier.

    Args:
        target: the downstream table's name.
        shards: shard name -> its ``CREATE TABLE`` statement (or a :class:`~mvdd.model.Table`).

    Raises:
        DDLError: a statement that is not one valid CREATE TABLE.
        JoinConflictError: the initial schemas have no join.
    """

    def __init__(self, target: str, shards: Mapping[str, str | Table]) -> None:
        if not isinstance(target, str) or not target:
            raise DDLError("a shard group needs a target table name")
        if not shards:
            raise DDLError("a shard group needs at least one shard")
        self.target = target
        self._shards: dict[str, _Shard] = {}
        self._count = 0
        self._holdings: dict[str, dict[str, dict[Any, set[str]]]] = {k: {} for k in KINDS}
        self._present: dict[str, int] = {}
        self._readers: dict[str, set[tuple[str, str]]] = {}
        self._renames: dict[str, str] = {}
        # where each shard column's values live downstream: (shard, column id) -> downstream
        # column id, and the downstream columns merged into others (a finished rename)
        self._lineage: dict[tuple[str, int], int] = {}
        self._merges: dict[int, int] = {}
        self._propagate = True
        self._held: list[str] = []
        tables = {name: _as_table(sql, shard=name).at_version(1) for name, sql in shards.items()}
        for name, table in tables.items():
            enc = _encode(table)
            self._shards[name] = _Shard(name, [table], [shards[name]], table, enc)
            self._count += 1
            for kind in KINDS:
                for key, value in enc.of(kind).items():
                    self._hold(kind, key, value, name)
        # the initial join, all at once: O(shards × elements)
        self._values: dict[str, dict[str, Any]] = {kind: {} for kind in KINDS}
        try:
            for kind in KINDS:
                for key in self._holdings[kind]:
                    value = self._join_key(kind, key, ())
                    if value is not None and value != MISSING:
                        self._values[kind][key] = value
            options = _agreed_options([t.options for t in tables.values()])
            self._joined = self._build({}, {}, options, order=None, moves=())
            self._check_valid(self._joined)
        except _Refused as err:
            raise err.error from None
        for name, table in tables.items():
            for c in table.columns:
                down = self._joined.find_column(c.name)
                if down is not None:
                    self._lineage[(name, c.id)] = down.id

    # -- public views ----------------------------------------------------------------------

    @property
    def joined(self) -> Table:
        """The current downstream schema (what the emitted DDL has made of the target)."""
        return self._joined

    @property
    def paused(self) -> frozenset[str]:
        """Shards whose last DDL could not be joined; their DML must wait."""
        return frozenset(n for n, sh in self._shards.items() if sh.paused)

    @property
    def shards(self) -> tuple[str, ...]:
        """The shards, in the order they joined the group."""
        return tuple(self._shards)

    def schema(self, shard: str, *, version: int | None = None) -> Table:
        """A shard's upstream schema (its latest, or ``version``; versions start at 1)."""
        sh = self._shard(shard)
        if version is None:
            return sh.upstream
        if not isinstance(version, int) or not 1 <= version <= len(sh.versions):
            raise NoSuchVersionError(
                f"shard has versions 1..{len(sh.versions)}, not {version!r}", shard=shard
            )
        return sh.versions[version - 1]

    def version(self, shard: str) -> int:
        """The number of a shard's newest upstream version."""
        return len(self._shard(shard).versions)

    def history(self, shard: str) -> list[tuple[int, str]]:
        """(version, statement) of each of a shard's upstream versions."""
        sh = self._shard(shard)
        return [
            (t.version, text if isinstance(text, str) else text.to_sql())
            for t, text in zip(sh.versions, sh.statements, strict=True)
        ]

    def accepted(self, shard: str) -> Table:
        """The shard's schema as used in the join (differs from :meth:`schema` while paused)."""
        sh = self._shard(shard)
        if sh.accepted is None:
            raise NoSuchVersionError("the shard has no schema in the join yet", shard=shard)
        return sh.accepted

    def conflict(self, shard: str) -> JoinConflictError | None:
        """Why a paused shard is paused (None if it is not)."""
        return self._shard(shard).conflict

    def destination(self, shard: str, column_id: int) -> Column | None:
        """The column of :attr:`joined` that holds the values a shard's column wrote
        downstream (following renames and the merge that ends one), or None when they are no
        longer there (the column was dropped downstream, or never reached it)."""
        self._shard(shard)
        down = self._lineage.get((shard, column_id))
        while down is not None and down in self._merges:
            down = self._merges[down]
        if down is None:
            return None
        return next((c for c in self._joined.columns if c.id == down), None)

    def column_state(self, name: str) -> str:
        """``exists`` (on every shard in the join), ``partial`` or ``dropped`` (seed 000)."""
        present = self._present.get(column_key(name), 0)
        return "dropped" if present == 0 else "exists" if present == self._count else "partial"

    # -- DDL ---------------------------------------------------------------------------------

    def apply(self, shard: str, sql: str) -> Outcome:
        """Apply one upstream DDL text (one or more statements) from ``shard``.

        Every statement is checked against the shard's schema before anything changes: bad SQL,
        an unknown column or a statement on another table raises and changes nothing.

        Raises:
            NoSuchTableError: an unknown shard, or a statement about another table.
            DDLError: the statement is malformed or impossible on the shard's schema.
            UnsupportedDDLError: a statement mvdd does not model (replication workers may skip it).
        """
        sh = self._shard(shard)
        statements = parse_statements(sql)
        planned = self._dry_run(sh, statements)
        outcome = Outcome()
        for statement, kind, table in planned:
            if kind == "drop":
                step_outcome = self.remove_shard(shard)
            elif kind == "noop":
                sh.versions.append(table.at_version(len(sh.versions) + 1))
                sh.statements.append(statement.text)
                step_outcome = Outcome()
            else:
                step_outcome = self._change(sh, table, statement.text, statement.steps)
            outcome = _merge(outcome, step_outcome)
            if kind == "drop":
                break
        return outcome

    def set_schema(self, shard: str, create_sql: str | Table) -> Outcome:
        """Force a shard's upstream schema (an operator's repair); column ids follow the names,
        so no rename is inferred."""
        sh = self._shard(shard)
        table = _as_table(create_sql, shard=shard)
        # ids by name from the schema in the join: the forced schema renames nothing
        base = sh.accepted if sh.accepted is not None else sh.upstream
        table = adopt_ids(attrs.evolve(table, name=sh.upstream.name), base)
        table = attrs.evolve(table, last_id=max(table.last_id, sh.upstream.last_id))
        text = create_sql if isinstance(create_sql, str) else table.to_sql()
        return self._change(sh, table, text, ())

    def add_shard(self, name: str, create_sql: str | Table) -> Outcome:
        """A table joins the group (a CREATE or a RENAME into it upstream)."""
        if not isinstance(name, str) or not name:
            raise DDLError("a shard needs a name")
        if name in self._shards:
            raise DDLError("the group already has this shard", shard=name)
        table = _as_table(create_sql, shard=name)
        sh = _Shard(name, [table], [create_sql], None, None, paused=True)
        self._shards[name] = sh
        return self._after(sh, [(sh, table)], (), initial=True)

    def remove_shard(self, name: str) -> Outcome:
        """A table leaves the group (a DROP or a RENAME out of it upstream)."""
        sh = self._shard(name)
        if len(self._shards) == 1:
            raise DDLError("a group keeps at least one shard", shard=name)
        moves = [(sh, None)] if sh.accepted is not None else []
        try:
            actions = self._move(moves, ()) if moves else []
        except _Refused as err:  # pragma: no cover - fewer shards never conflict (merge rules)
            raise err.error from None
        del self._shards[name]
        outcome = Outcome(downstream=self._emit(actions))
        return _merge(outcome, self._resume(skip=None))

    def disable_propagation(self) -> None:
        """Hold downstream DDL back (``Outcome.downstream`` stays empty) until enabled."""
        self._propagate = False

    def enable_propagation(self) -> list[str]:
        """Propagate again; returns the DDL held back meanwhile, in order."""
        self._propagate = True
        held, self._held = self._held, []
        return held

    # -- the machinery ----------------------------------------------------------------------

    def _shard(self, name: str) -> _Shard:
        sh = self._shards.get(name) if isinstance(name, str) else None
        if sh is None:
            raise NoSuchTableError("no such shard in the group", shard=str(name))
        return sh

    def _dry_run(
        self, sh: _Shard, statements: Sequence[Statement]
    ) -> list[tuple[Statement, str, Table]]:
        """Each statement's effect on the shard's upstream schema; raises before any change."""
        table = sh.upstream
        out: list[tuple[Statement, str, Table]] = []
        for st in statements:
            kind = "change"
            steps = list(st.steps)
            for step in steps:
                if step.table.casefold() != table.name.casefold():
                    raise NoSuchTableError(
                        f"the statement is about table `{step.table}`, not the shard's "
                        f"`{table.name}`",
                        table=step.table,
                        shard=sh.name,
                        statement=st.text,
                    )
            try:
                if any(isinstance(x, s.DropTable) for x in steps):
                    kind = "drop"
                elif any(isinstance(x, s.CreateTable | s.CreateTableLike) for x in steps):
                    if not all(getattr(x, "if_not_exists", False) for x in steps):
                        raise DDLError("the shard's table already exists")
                    kind = "noop"
                elif all(isinstance(x, s.TruncateTable) for x in steps):
                    kind = "noop"
                else:
                    renamed = [x for x in steps if isinstance(x, s.RenameTable)]
                    for r in renamed:
                        table = attrs.evolve(table, name=r.to)
                    others = [x for x in steps if not isinstance(x, s.RenameTable)]
                    if others:
                        table = apply_steps(table, others, fresh=True)
                        validate_table(table)
                    elif renamed:
                        kind = "noop"
            except MvddError as err:
                raise err.locate(shard=sh.name, statement=st.text) from None
            out.append((st, kind, table))
        return out

    def _change(self, sh: _Shard, table: Table, text: str, steps: Sequence[s.Step]) -> Outcome:
        table = table.at_version(len(sh.versions) + 1)
        sh.versions.append(table)
        sh.statements.append(text)
        return self._after(sh, [(sh, table)], steps)

    def _after(
        self,
        sh: _Shard,
        moves: list[tuple[_Shard, Table | None]],
        steps: Sequence[s.Step],
        *,
        initial: bool = False,
    ) -> Outcome:
        """Join a shard's new upstream schema if it is not paused, then resume who can."""
        conflict: JoinConflictError | None = None
        downstream: list[str] = []
        if not sh.paused or initial:
            try:
                actions = self._move(moves, steps)
                sh.paused, sh.conflict = False, None
                downstream = self._emit(actions)
            except _Refused as err:
                conflict = err.error
                sh.paused, sh.conflict = True, conflict
            resumed = self._resume(skip=sh.name if conflict else None)
            if sh.name in resumed.resumed:  # refused alone, joined together with the others
                conflict = None
                resumed = attrs.evolve(resumed, resumed=resumed.resumed - {sh.name})
        else:
            resumed = self._resume(skip=None)
            if sh.paused:
                conflict = sh.conflict
        return Outcome(
            downstream=downstream + resumed.downstream,
            conflict=conflict,
            resumed=resumed.resumed,
        )

    def _resume(self, *, skip: str | None) -> Outcome:
        """Resume every paused shard whose upstream schema now joins: one by one (but not
        ``skip``, whose change was just refused), then all the paused ones together (several
        shards making one incompatible change resume when the last one makes it); until
        nothing changes."""
        downstream: list[str] = []
        resumed: set[str] = set()
        while True:
            paused = [sh for sh in self._shards.values() if sh.paused]
            progress = False
            for sh in paused:
                if sh.name == skip:
                    continue
                try:
                    actions = self._move([(sh, sh.upstream)], ())
                except _Refused as err:
                    sh.conflict = err.error
                    continue
                sh.paused, sh.conflict = False, None
                resumed.add(sh.name)
                downstream += self._emit(actions)
                progress = True
            if not progress and len(paused) > 1:
                try:
                    actions = self._move([(sh, sh.upstream) for sh in paused], ())
                except _Refused:
                    pass
                else:
                    for sh in paused:
                        sh.paused, sh.conflict = False, None
                        resumed.add(sh.name)
                    downstream += self._emit(actions)
                    progress = True
            if not progress:
                return Outcome(downstream=downstream, resumed=frozenset(resumed))
            skip = None

    def _emit(self, actions: Sequence[Action]) -> list[str]:
        statements = render(actions)
        if self._propagate:
            return statements
        self._held.extend(statements)
        return []

    # -- holdings ---------------------------------------------------------------------------

    def _hold(self, kind: str, key: str, value: Any, shard: str) -> None:
        holders = self._holdings[kind].setdefault(key, {}).setdefault(value, set())
        holders.add(shard)
        if kind == "column":
            self._present[key] = self._present.get(key, 0) + 1
            if value[0] == 0:
                for col in expr_columns(value[1][2].expr):
                    self._readers.setdefault(col, set()).add(("column", key))
        else:
            reads = index_reads(value) if kind == "index" else expr_columns(value[0])
            for col in reads:
                self._readers.setdefault(col, set()).add((kind, key))

    def _release(self, kind: str, key: str, value: Any, shard: str) -> None:
        by_value = self._holdings[kind][key]
        holders = by_value[value]
        holders.discard(shard)
        if not holders:
            del by_value[value]
            if not by_value:
                del self._holdings[kind][key]
        if kind == "column":
            self._present[key] -= 1
            if not self._present[key]:
                del self._present[key]

    def _has(self, shard: Hashable, cols: frozenset[str]) -> bool:
        enc = self._shards[str(shard)].encoded
        return enc is not None and all(c in enc.columns for c in cols)

    def _complete(self, key: str) -> bool:
        return self._present.get(key, 0) == self._count

    # -- one move of the join ----------------------------------------------------------------

    def _move(
        self, moves: Sequence[tuple[_Shard, Table | None]], steps: Sequence[s.Step]
    ) -> list[Action]:
        """Replace shards' accepted schemas, re-join what that touches and plan the downstream
        DDL; raises _Refused (and changes nothing) if the result has no join."""
        undo = _Undo(renames=dict(self._renames), count=self._count)
        touched: dict[str, set[str]] = {k: set() for k in KINDS}
        starts: list[tuple[str, str]] = []
        reborn: set[str] = set()
        saved = [(sh, sh.accepted, sh.encoded) for sh, _ in moves]
        try:
            for sh, table in moves:
                self._move_one(sh, table, touched, starts, undo, reborn)
            if not self._count:  # no shard left in the join: the target keeps its schema
                return []
            finishes = self._finished_renames(touched)
            actions = self._rejoin(touched, starts, finishes, steps, moves, reborn)
        except _Refused:
            self._revert(undo, saved)
            raise
        return actions

    def _move_one(
        self,
        sh: _Shard,
        table: Table | None,
        touched: dict[str, set[str]],
        starts: list[tuple[str, str]],
        undo: _Undo,
        reborn: set[str],
    ) -> None:
        old, old_enc = sh.accepted, sh.encoded
        new_enc = _encode(table) if table is not None else None
        if old is not None and table is not None:
            self._check_renames(sh, old, table, starts)
            # a column this shard alone held, dropped and added anew (between two accepted
            # schemas of a paused shard): downstream too it is a new column, not a MODIFY
            renamed = {k for pair in starts for k in pair}
            for col in table.columns:
                key = column_key(col.name)
                prev = old.find_column(key)
                if (
                    prev is not None
                    and prev.id != col.id
                    and key not in renamed
                    and self._present.get(key, 0) == 1
                ):
                    reborn.add(key)
        if (old is None) != (table is None):
            self._count += 1 if old is None else -1
            for kind in KINDS:  # completeness of every column may change
                touched[kind].update(self._holdings[kind])
                touched[kind].update(self._values[kind])
        for kind in KINDS:
            before = old_enc.of(kind) if old_enc is not None else {}
            after = new_enc.of(kind) if new_enc is not None else {}
            for key in before.keys() | after.keys():
                a, b = before.get(key), after.get(key)
                if a == b:
                    continue
                touched[kind].add(key)
                if a is not None:
                    self._release(kind, key, a, sh.name)
                    undo.holdings.append((kind, key, a, sh.name, True))
                if b is not None:
                    self._hold(kind, key, b, sh.name)
                    undo.holdings.append((kind, key, b, sh.name, False))
        sh.accepted, sh.encoded = table, new_enc

    def _revert(
        self, undo: _Undo, saved: list[tuple[_Shard, Table | None, _Encoded | None]]
    ) -> None:
        for kind, key, value, shard, released in reversed(undo.holdings):
            if released:
                self._hold(kind, key, value, shard)
            else:
                self._release(kind, key, value, shard)
        self._renames = undo.renames
        self._count = undo.count
        for sh, table, enc in saved:
            sh.accepted, sh.encoded = table, enc

    # -- renames -------------------------------------------------------------------------------

    def _check_renames(
        self, sh: _Shard, old: Table, new: Table, starts: list[tuple[str, str]]
    ) -> None:
        by_id = {c.id: c for c in old.columns if c.generated is None}
        for col in new.columns:
            before = by_id.get(col.id)
            if before is None or col.generated is not None:
                continue
            o, n = column_key(before.name), column_key(col.name)
            if o == n:
                continue
            if self._renames.get(n) == o or self._renames.get(o) == n:
                continue  # following, or going back on, a rename under way
            busy = o in self._renames or n in self._renames or o in self._renames.values()
            busy = busy or n in self._renames.values()
            if not busy and self._present.get(o, 0) == self._count and not self._present.get(n):
                self._renames[n] = o
                starts.append((o, n))
                continue
            state = self.column_state(before.name)
            raise _Refused(
                JoinConflictError(
                    f"column `{before.name}` renamed to `{col.name}` cannot be followed: "
                    f"`{before.name}` is {state} and `{col.name}` is "
                    f"{self.column_state(col.name)} across the shards"
                    + (" (a rename of it is under way)" if busy else "")
                    + "; seed 000's rename procedure needs the old name on every shard and the "
                    "new name on none",
                    column=before.name,
                    shard=sh.name,
                    shards=(sh.name,),
                )
            )

    def _finished_renames(self, touched: dict[str, set[str]]) -> list[tuple[str, str, bool]]:
        """Renames under way that no shard needs any more: (old, new, back) where ``back``
        means every shard went back to the old name."""
        out = []
        for n, o in list(self._renames.items()):
            if not self._present.get(o):
                out.append((o, n, False))
            elif not self._present.get(n):
                out.append((o, n, True))
            elif not (self._complete(o) and self._complete(n)):
                continue
            # (both names on every shard: each shard renamed and then added the old name anew;
            # which values belong together cannot be told, so the rename ends without a merge)
            del self._renames[n]
            touched["column"].update((o, n))
        return out

    # -- the new downstream table ------------------------------------------------------------

    def _rejoin(
        self,
        touched: dict[str, set[str]],
        starts: list[tuple[str, str]],
        finishes: list[tuple[str, str, bool]],
        steps: Sequence[s.Step],
        moves: Sequence[tuple[_Shard, Table | None]],
        reborn: set[str],
    ) -> list[Action]:
        # columns whose completeness changed re-join the constraints that read them
        for key in list(touched["column"]):
            for kind, other in self._readers.get(key, ()):
                touched[kind].add(other)
        values = {kind: dict(self._values[kind]) for kind in KINDS}
        for kind in KINDS:
            for key in touched[kind]:
                value = self._join_key(kind, key, moves)
                if value is None or (kind == "column" and value == MISSING):
                    values[kind].pop(key, None)
                else:
                    values[kind][key] = value
        before = self._joined
        ids = {column_key(c.name): c.id for c in before.columns}
        copies: list[tuple[int, int]] = []
        last = before.last_id
        for o, n in starts:
            if o not in values["column"]:  # every shard renamed at once: a plain rename
                ids[n] = ids.pop(o)
                continue
            ids[n] = ids[o]
            last += 1
            ids[o] = last
        for key in reborn:
            if key in ids and key in values["column"]:
                last += 1
                ids[key] = last
        for o, n, back in finishes:
            if o not in ids or n not in ids:
                continue
            copies.append((ids[n], ids[o]))
            if back:
                ids[o] = ids.pop(n)
            else:
                del ids[o]
        options = self._options_after(before.options, steps)
        comments = self._comments_after(steps)
        saved_values = self._values
        self._values = values
        try:
            after = self._build(ids, comments, options, order=before, moves=moves, last_id=last)
            self._check_valid(after)
        except _Refused:
            self._values = saved_values
            raise
        actions, order = plan(before, after, copies=copies)
        after = _reordered(after, order)
        actions += self._passthrough(after, steps)
        self._joined = _reordered(after, [c.id for c in self._passthrough_order(after, steps)])
        for into, source in copies:
            self._merges[source] = into
        for sh, table in moves:
            for c in table.columns if table is not None else ():
                down = after.find_column(c.name)
                if down is not None:
                    self._lineage[(sh.name, c.id)] = down.id
        return actions

    def _join_key(self, kind: str, key: str, moves: Sequence[tuple[_Shard, Table | None]]) -> Any:
        holding = self._holdings[kind].get(key, {})
        try:
            if kind == "column":
                return join_column(holding, self._count, self._complete, self._has)
            return join_constraint(kind, holding, self._count, self._complete, self._has)
        except ElementConflict as err:
            raise _Refused(self._explain(kind, key, err, moves)) from None

    def _explain(
        self,
        kind: str,
        key: str,
        err: ElementConflict,
        moves: Sequence[tuple[_Shard, Table | None]],
    ) -> JoinConflictError:
        left, right = str(err.left), str(err.right)
        movers = {sh.name for sh, _ in moves}
        if left in movers and right not in movers:
            left, right = right, left
        pair = []
        for name in (left, right):
            table = self._shards[name].accepted
            assert table is not None
            pair.append((f"shard `{name}`", table))
        error = cast(JoinConflictError, conflict_error(kind, key, pair, err.err))
        holding = self._holdings[kind].get(key, {})
        involved = sorted({h for holders in holding.values() for h in holders})
        return JoinConflictError(
            error.message,
            column=error.column,
            index=error.index,
            shard=right,
            shards=tuple(involved),
            sides=error.sides,
            definitions=error.definitions,
        )

    def _build(
        self,
        ids: dict[str, int],
        comments: dict[str, str | None],
        options: TableOptions,
        *,
        order: Table | None,
        moves: Sequence[tuple[_Shard, Table | None]],
        last_id: int = 0,
    ) -> Table:
        """The downstream table of the current joined values, with the given column ids, in
        the previous order (new columns last); names and comments of kept elements stay."""
        next_id = max([last_id, *ids.values()])

        def fresh() -> int:
            nonlocal next_id
            next_id += 1
            return next_id

        sources = [t for _, t in moves if t is not None]
        prev_cols = {c.id: c for c in order.columns} if order is not None else {}
        columns: dict[str, Column] = {}
        for key, value in self._values["column"].items():
            cid = ids.get(key) or fresh()
            ids[key] = cid
            old = prev_cols.get(cid)
            if old is not None and column_key(old.name) == key:
                name, comment = old.name, old.comment
            else:
                src = self._source(sources, "column", key)
                name, comment = (src.name, src.comment) if src is not None else (key, None)
            comment = comments.get(key, comment)
            col = _decoded_column(value, cid, name, comment)
            if key in self._renames.values() and col.generated is None:
                col = attrs.evolve(col, nullable=True, default=None)  # the rename procedure
            columns[key] = col
        prev_indexes = {column_key(i.name): i for i in order.indexes} if order is not None else {}
        indexes = []
        for key, value in self._values["index"].items():
            like = prev_indexes.get(key) or self._source(sources, "index", key)
            idx = decode_index(
                value, id=0, name=like.name if like else key, column_ids=ids, like=like
            )
            same = prev_indexes.get(key)
            kept = same is not None and (same.kind, same.parts) == (idx.kind, idx.parts)
            indexes.append(attrs.evolve(idx, id=same.id if kept and same else fresh()))
        prev_checks = {column_key(c.name): c for c in order.checks} if order is not None else {}
        checks = []
        for key, value in self._values["check"].items():
            like_chk = prev_checks.get(key) or self._source(sources, "check", key)
            chk = decode_check(value, id=fresh(), name=like_chk.name if like_chk else key)
            if chk.enforced:  # MariaDB has no NOT ENFORCED: such a check constrains nothing
                checks.append(chk)
        keyed = {i.parts[0].column_id for i in indexes if i.kind not in _NOT_KEYS}
        for key, col in columns.items():
            if col.auto_increment and col.id not in keyed:
                columns[key] = self._without_counter(key, col)
        ranks = {c.id: i for i, c in enumerate(order.columns)} if order is not None else {}
        cols = sorted(columns.values(), key=lambda c: ranks.get(c.id, len(ranks) + c.id))
        table = Table(
            name=self.target,
            columns=tuple(cols),
            indexes=tuple(indexes),
            checks=tuple(checks),
            options=options,
            last_id=next_id,
        )
        implicit = frozenset(
            key
            for key, value in self._values["column"].items()
            if needs_implicit(value) and columns[key].default is not NO_DEFAULT
        )
        return mark_implicit(table, implicit)

    def _without_counter(self, key: str, col: Column) -> Column:
        """An AUTO_INCREMENT column whose key is not in the join: a plain column."""
        out = attrs.evolve(col, auto_increment=False)
        if not col.nullable and not self._complete(key):
            default = implicit_default(col.type)
            out = attrs.evolve(
                out,
                default=default if default is not None else None,
                nullable=default is None,
            )
        return out

    def _source(self, sources: Sequence[Table], kind: str, key: str) -> Any:
        """An element's definition in the moving shards' tables, else in any holder's."""
        find = {"column": Table.find_column, "index": Table.find_index, "check": Table.find_check}
        for table in sources:
            found = find[kind](table, key)
            if found is not None:
                return found
        for holders in self._holdings[kind].get(key, {}).values():
            for name in sorted(holders):
                accepted = self._shards[name].accepted
                found = find[kind](accepted, key) if accepted is not None else None
                if found is not None:
                    return found
        return None

    def _check_valid(self, table: Table) -> None:
        try:
            validate_table(table)
        except DDLError as err:
            raise _Refused(
                JoinConflictError(
                    f"the joined table cannot exist: {err.message}",
                    table=self.target,
                    column=err.column,
                    index=err.index,
                )
            ) from None

    # -- pass-through --------------------------------------------------------------------------

    def _options_after(self, options: TableOptions, steps: Sequence[s.Step]) -> TableOptions:

        for step in steps:
            if isinstance(step, s.SetOptions):
                options = options.with_options(step.options)
        return options

    def _comments_after(self, steps: Sequence[s.Step]) -> dict[str, str | None]:
        out: dict[str, str | None] = {}
        for step in steps:
            if isinstance(step, s.ModifyColumn):
                out[column_key(step.definition.name)] = step.definition.comment
        return out

    def _passthrough(self, after: Table, steps: Sequence[s.Step]) -> list[Action]:
        """Idempotent parts of the shard's statement, for the target: table options and
        column placements."""
        out: list[Action] = []
        options = [x for x in steps if isinstance(x, s.SetOptions)]
        if options:
            pairs = tuple(p for x in options for p in x.options)
            out.append(s.SetOptions(table=self.target, options=pairs))
        for step, place in self._placements(after, steps):
            col = after.column(step.definition.name)
            out.append(
                s.ModifyColumn(table=self.target, column=col.name, definition=col, place=place)
            )
        return out

    def _placements(
        self, after: Table, steps: Sequence[s.Step]
    ) -> list[tuple[s.ModifyColumn, s.Place]]:
        out = []
        for step in steps:
            if not isinstance(step, s.ModifyColumn) or step.place == s.LAST:
                continue
            if after.find_column(step.definition.name) is None:
                continue
            place = step.place
            if place.after is not None:
                anchor = after.find_column(place.after)
                if anchor is None:
                    continue
                place = s.Place(after=anchor.name)
            out.append((step, place))
        return out

    def _passthrough_order(self, after: Table, steps: Sequence[s.Step]) -> list[Column]:
        cols = list(after.columns)
        for step, place in self._placements(after, steps):
            col = after.column(step.definition.name)
            cols.remove(col)
            if place.first:
                cols.insert(0, col)
            else:
                anchor = next(i for i, c in enumerate(cols) if c.name == place.after)
                cols.insert(anchor + 1, col)
        return cols


_NOT_KEYS = (IndexKind.FULLTEXT, IndexKind.SPATIAL)


@functools.lru_cache(maxsize=1 << 14)
def _decoded_column(value: Any, cid: int, name: str, comment: str | None) -> Column:
    return decode_column(value, id=cid, name=name, comment=comment)


def _reordered(table: Table, order: Sequence[int]) -> Table:
    by_id = {c.id: c for c in table.columns}
    if [c.id for c in table.columns] == list(order) or set(order) != set(by_id):
        return table
    out = attrs.evolve(table, columns=tuple(by_id[i] for i in order))
    object.__setattr__(out, "_implicit_defaults", table._implicit_defaults)
    return out


def _merge(a: Outcome, b: Outcome) -> Outcome:
    return Outcome(
        downstream=a.downstream + b.downstream,
        conflict=b.conflict if b.conflict is not None else a.conflict,
        resumed=a.resumed | b.resumed,
    )


def _as_table(sql: str | Table, *, shard: str) -> Table:
    try:
        if isinstance(sql, Table):
            return sql
        if not isinstance(sql, str):
            raise DDLError(f"expected a CREATE TABLE statement, not {type(sql).__name__}")
        table = parse_table(sql)
        validate_table(table)
        return table
    except MvddError as err:
        raise err.locate(shard=shard) from None


def _agreed_options(options: Sequence[TableOptions]) -> TableOptions:
    first = options[0]
    changes: dict[str, Any] = {
        f.name: () if f.name == "extra" else None
        for f in attrs.fields(TableOptions)
        if any(getattr(o, f.name) != getattr(first, f.name) for o in options[1:])
    }
    changes["auto_increment"] = None
    return attrs.evolve(first, **changes)


__all__ = ["Outcome", "ShardGroup"]
