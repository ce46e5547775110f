"""The optimistic shard coordinator (seed 000, DESIGN §8): N upstream tables, one downstream.

A :class:`ShardGroup` keeps every shard's *upstream* schema with its own version history (what the
shard's DDL stream says) and its *accepted* schema (the last one that joined; the same unless the
shard is paused). The joined schema is the join (:mod:`mvdd.join`) of the accepted schemas. On a
DDL from a shard the group applies it to the shard's upstream schema, recomputes the join and
returns the downstream DDL that moves the target table from the old join to the new one
(:mod:`mvdd.shard.plan`).

The group calls the one join of :mod:`mvdd.join` element by element (:func:`~mvdd.join.merge.
join_column`, :func:`~mvdd.join.merge.join_constraint`) and builds the target with
:func:`mvdd.join.schema.build_table`; around it live the bookkeeping of who holds what
(:mod:`mvdd.shard.holdings`), the rename procedure (:mod:`mvdd.shard.rename`) and what passes
through unchanged (:mod:`mvdd.shard.passthrough`).

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
  shard goes back to ``a`` (or lets ``b`` go: a generated ``b`` is another column), the data is
  merged the same way and the column renamed back.
  Meanwhile the shards writing ``a`` write ``b`` too (:meth:`ShardGroup.also`), so ``b`` holds
  every row's value and a NULL written to ``a`` is not lost to the merge; ``b`` joins their
  ``a`` meanwhile, and a shard may not hold both names (:mod:`mvdd.shard.rename`). Other
  renames of a column in the middle of one (seed 000's table of unsupported cases) are
  conflicts. A rename on a group of one shard is a plain rename.
* **Downstream names and looks**: a column keeps the spelling it has downstream; table options
  and column comments changed by a shard are passed through, as are ``MODIFY … FIRST/AFTER``
  reorderings and ``ALTER INDEX … [IN]VISIBLE`` (not of the target's primary key); new columns
  are added at the end. ``DROP TABLE`` removes the shard; ``RENAME TABLE`` keeps the shard
  under its new table name. ``TRUNCATE`` of the group's only shard empties the target (rows
  kept from shards that left go too); of one shard among several it is not propagated (the
  target does not record which shard a row came from, and emptying it would drop the other
  shards' rows). For the same reason a shard that drops a column other shards keep leaves its
  rows' values in the target; should it add the column back, its rows read NULL (or the
  default) upstream and keep the old values downstream until next written. While no shard is
  in the join (the last ones left, the rest paused) the target stays as it is; the first
  shards to join again are joined with every element of the target, so what they lack goes.
* **Downstream constraints MariaDB cannot hold**: a check NOT ENFORCED is left out (it constrains
  nothing). An AUTO_INCREMENT column needs its key on every shard: until the last shard has it,
  the shard that added it is paused (a conflict), so the target never holds a counter without
  a key; the column and its key reach the target in one statement.
* Narrowing downstream (a type once no shard in the join holds the wider one, NOT NULL once
  every shard has it, a default dropped once every shard has the column) meets the rows of
  every shard in the join, as their own upstream DDL did. It may not meet values no shard holds
  any more: a column a shard dropped, rows kept from shards that left or were truncated. The
  replicator runs downstream DDL outside strict mode (:func:`mvdd.replicate.target.run_ddl`),
  so the server converts those values and warns, rather than stop for good. A CHECK reaches
  the target once every shard has it; for the same rows the replicator's downstream session on
  MariaDB does not check constraints (``check_constraint_checks=OFF``,
  :data:`mvdd.replicate.target.SESSION`): every row it writes passed its shard's checks.

>>> g = ShardGroup("t", {"s1": "CREATE TABLE t1 (a INT)", "s2": "CREATE TABLE t2 (a INT)"})
>>> g.apply("s1", "ALTER TABLE t1 ADD COLUMN b INT NOT NULL").downstream
['ALTER TABLE `t` ADD COLUMN `b` INT NOT NULL DEFAULT 0']
>>> g.apply("s2", "ALTER TABLE t2 ADD COLUMN b INT NOT NULL").downstream
['ALTER TABLE `t` ALTER COLUMN `b` DROP DEFAULT']
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Mapping, Sequence
from typing import Any, cast

import attrs

from mvdd.catalog.plan import adopt_ids
from mvdd.ddl import step as s
from mvdd.ddl.apply import validate_table, with_database_charset
from mvdd.ddl.order import apply_statement
from mvdd.ddl.rules import FLAVORS, Rules
from mvdd.ddl.statement import Statement, parse_statements, parse_table
from mvdd.errors import (
    DDLError,
    JoinConflictError,
    MvddError,
    NoSuchTableError,
    NoSuchVersionError,
)
from mvdd.join.encode import MISSING, column_key, encode_table
from mvdd.join.schema import FIND, Joined, build_table, common_options, conflict_error
from mvdd.model import Column, Table, TableOptions
from mvdd.model.element import ElementKind
from mvdd.model.names import fold_name
from mvdd.model.types import resolve_charset
from mvdd.shard import passthrough
from mvdd.shard.holdings import KINDS, ElementConflict, Holdings, Journal, Refused
from mvdd.shard.plan import Action, plan, render
from mvdd.shard.rename import Renames, Waiting, renames_of, takes

#: how a group follows column renames (see mvdd.shard.rename)
RENAMES = ("merge", "wait")


@attrs.frozen
class Outcome:
    """What one change to a group means downstream.

    Attributes:
        downstream: the DDL to run on the target, in order, one statement per entry.
        conflict: set when the change could not be joined: its shard is paused.
        resumed: the paused shards this change let resume.
        waiting: (old name, new name) when the change is a rename that waits for the other
            shards (its shard is paused meanwhile; no conflict).
    """

    downstream: list[str] = attrs.field(factory=list)
    conflict: JoinConflictError | None = None
    resumed: frozenset[str] = frozenset()
    waiting: tuple[str, str] | None = None


@attrs.frozen
class _Before:
    """The join before a move: columns held (how many shards), shards, the renames it
    completes."""

    present: dict[str, int]
    count: int
    complete: frozenset[tuple[str, str]]


@attrs.define(eq=False)
class _Shard:
    name: str
    versions: list[Table]
    statements: list[str | Table]  # a Table given instead of SQL is rendered when asked
    accepted: Table | None
    #: where it stands among the group's shards (the order they joined the group in)
    order: int = 0
    paused: bool = False
    conflict: JoinConflictError | None = None
    #: (old name, new name) of a rename it waits for the other shards to make
    waiting: tuple[str, str] | None = None

    def pause(self, why: Refused | Waiting) -> None:
        self.paused = True
        self.conflict = why.error if isinstance(why, Refused) else None
        self.waiting = (why.old, why.new) if isinstance(why, Waiting) else None

    @property
    def rename(self) -> tuple[str, str] | None:
        """(old key, new key) of the rename it waits for."""
        return (column_key(self.waiting[0]), column_key(self.waiting[1])) if self.waiting else None

    def resume(self) -> None:
        self.paused, self.conflict, self.waiting = False, None, None

    @property
    def upstream(self) -> Table:
        return self.versions[-1]


#: the order of the group's shards (a sort key)
_ORDER = operator.attrgetter("order")


class ShardGroup:
    """Merge the tables of several shards into one downstream table, without a DDL barrier.

    Args:
        target: the downstream table's name.
        shards: shard name -> its ``CREATE TABLE`` statement (or a :class:`~mvdd.model.Table`).
        charset, collation: the default of the shards' databases: a shard table that names no
            charset takes it (as the server gave it). Without it such a table's string
            columns join only with columns that name no charset either (the default could be
            any charset; assuming it fits another shard's is unsound).
        renames: how a column rename is followed (:mod:`mvdd.shard.rename`): ``"merge"``
            (seed 000's procedure; renames of key and partial columns wait all the same) or
            ``"wait"`` (every rename waits until every shard holding the column has made it).
        flavor: the shards' servers' (``"mariadb"`` or ``"mysql"``), when known: the DDL text
            :meth:`apply` and a ``CREATE TABLE`` given as text are read by that server's own
            ways too (:data:`mvdd.ddl.rules.MARIADB`: a column's own ``REFERENCES`` makes a
            key on MariaDB, a DEFAULT of ``PI()`` is its value). Without it, MySQL's.
        dual_writes: the consumer writes the shards' rows to both columns of a rename under
            way (:meth:`also`), so the renamed column holds every row's latest value, and the
            merge that ends the rename emits no ``UPDATE … SET new = old``: that statement
            puts a row's value from before its shard renamed over one the shard wrote to the
            new name since (seed 000's procedure loses that update). The replicator does.

    Raises:
        DDLError: a statement that is not one valid CREATE TABLE.
        JoinConflictError: the initial schemas have no join.
    """

    def __init__(
        self,
        target: str,
        shards: Mapping[str, str | Table],
        *,
        charset: str | None = None,
        collation: str | None = None,
        renames: str = "merge",
        flavor: str | None = None,
        dual_writes: bool = False,
    ) -> None:
        if renames not in RENAMES:
            raise DDLError(f"renames must be one of {RENAMES}, not {renames!r}")
        if flavor not in FLAVORS:
            raise DDLError(f"flavor must be one of {FLAVORS}, not {flavor!r}")
        self.renames = renames
        self.flavor = flavor
        self.dual_writes = dual_writes
        #: the rules the shards' own statements apply under (their servers ran them)
        self._rules = Rules.altered(replica=True, flavor=flavor)
        if not isinstance(target, str) or not target:
            raise DDLError("a shard group needs a target table name")
        if not shards:
            raise DDLError("a shard group needs at least one shard")
        self.target = target
        self.charset = resolve_charset(charset, collation)
        self._shards: dict[str, _Shard] = {}
        # the paused ones among them, kept as they pause and resume (a DDL's work then visits
        # the shards it concerns and those paused, not every shard: _resume, _waiting)
        self._paused: dict[str, _Shard] = {}
        self._orders = itertools.count()  # (each shard's order, as it joins)
        # shards that left: their history still upgrades the rows they wrote (a lake's)
        self._departed: dict[str, _Shard] = {}
        self._holdings = Holdings()
        self._renames = Renames()
        # where each shard column's values live downstream: (shard, column id) -> downstream
        # column id, and the downstream columns merged into others (a finished rename)
        self._lineage: dict[tuple[str, int], int] = {}
        self._merges: dict[int, int] = {}
        self._propagate = True
        self._held: list[str] = []
        tables = {name: self._table(sql, name).at_version(1) for name, sql in shards.items()}
        touched: dict[ElementKind, set[str]] = {k: set() for k in KINDS}
        for name, table in tables.items():
            self._shards[name] = _Shard(name, [table], [shards[name]], table, next(self._orders))
            self._holdings.move(name, encode_table(table), touched, Journal())
        # the initial join, all at once: O(shards × elements)
        self._values = Joined({}, {}, {})
        try:
            for kind in KINDS:
                for key in self._holdings.keys(kind):
                    value = self._join_key(kind, key, ())
                    if value is not None and value != MISSING:
                        self._values.of(kind)[key] = value
            # each shard counts its own AUTO_INCREMENT: no counter carries over to the target
            options = attrs.evolve(
                common_options([t.options for t in tables.values()]), auto_increment=None
            )
            self._joined = self._build({}, {}, options, previous=None, moves=())
            self._check_valid(self._joined)
        except Refused as err:
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
        """Shards whose DML must wait: their last DDL could not be joined (a conflict), or is a
        rename waiting for the other shards."""
        return frozenset(self._paused)

    @property
    def shards(self) -> tuple[str, ...]:
        """The shards, in the order they joined the group."""
        return tuple(self._shards)

    @property
    def departed(self) -> frozenset[str]:
        """Shards that left the group (and did not join again): :meth:`schema`,
        :meth:`version`, :meth:`history` and :meth:`destination` still answer for them, so
        rows they wrote before leaving can be upgraded to the joined schema."""
        return frozenset(self._departed)

    def schema(self, shard: str, *, version: int | None = None) -> Table:
        """A shard's upstream schema (its latest, or ``version``; versions start at 1)."""
        sh = self._known(shard)
        if version is None:
            return sh.upstream
        if not isinstance(version, int) or not 1 <= version <= len(sh.versions):
            raise NoSuchVersionError(
                f"shard has versions 1..{len(sh.versions)}, not {version!r}", shard=shard
            )
        return sh.versions[version - 1]

    def version(self, shard: str) -> int:
        """The number of a shard's newest upstream version."""
        return len(self._known(shard).versions)

    def history(self, shard: str) -> list[tuple[int, str]]:
        """(version, statement) of each of a shard's upstream versions."""
        sh = self._known(shard)
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
        """The conflict a paused shard is paused by (None if it is not)."""
        return self._shard(shard).conflict

    def waiting(self, shard: str) -> tuple[str, str] | None:
        """(old name, new name) of the rename a paused shard waits for the other shards to
        make (None if it does not wait)."""
        return self._shard(shard).waiting

    def pause_reason(self, shard: str) -> str | None:
        """Why a shard is paused, in words (None if it is not)."""
        sh = self._shard(shard)
        if not sh.paused:
            return None
        if sh.waiting is not None:
            old, new = sh.waiting
            others = sorted(
                name
                for name, h in self._shards.items()
                if name != shard and h.accepted is not None and h.accepted.find_column(old)
            )
            return f"rename `{old}` -> `{new}` waits for " + (
                ", ".join(f"`{o}`" for o in others) or "the other shards"
            )
        return str(sh.conflict) if sh.conflict is not None else "joining the group"

    def destination(self, shard: str, column_id: int) -> Column | None:
        """The column of :attr:`joined` that holds the values a shard's column wrote
        downstream (following renames and the merge that ends one), or None when they are no
        longer there (the column was dropped downstream, or never reached it). A generated
        column's values land in a plain column of :attr:`joined` (another shard's) only where
        its type takes them: the join counts a generated column as absent beside a plain one
        (:data:`~mvdd.join.encode.SLOT`), so the plain one's type may hold no value of it
        (a TIMESTAMP beside an INT's ``id % 3``); there its values stay the server's upstream
        and reach no column downstream (None)."""
        sh = self._known(shard)
        down = self._lineage.get((shard, column_id))
        while down is not None and down in self._merges:
            down = self._merges[down]
        if down is None:
            return None
        found = next((c for c in self._joined.columns if c.id == down), None)
        if found is not None and found.generated is None:
            mine = next((c for c in sh.upstream.columns if c.id == column_id), None)
            if mine is not None and mine.generated is not None and not takes(found, mine):
                return None
        return found

    def also(self, shard: str, column_id: int) -> Column | None:
        """The second column of :attr:`joined` a shard's column writes to, or None: while a
        rename of it is under way (seed 000's merge) and the shard still writes the old name,
        the renamed column, which holds the shard's rows from before the rename (its
        :meth:`destination` is the old name added back). Written to both, the renamed column
        holds every row's value as the shard has it, and the merge that ends the rename
        (``UPDATE t SET new = old WHERE old IS NOT NULL``) keeps a NULL written meanwhile.
        The renamed column joins the shard's column meanwhile
        (:meth:`~mvdd.shard.holdings.Holdings.join_renamed`), so it takes every value of it;
        should it not, None: the old name's column alone."""
        down = self.destination(shard, column_id)
        if down is None:
            return None
        old = column_key(down.name)
        new = next((n for n, o in self._renames.under_way.items() if o == old), None)
        renamed = self._joined.find_column(new) if new is not None else None
        mine = next((c for c in self.schema(shard).columns if c.id == column_id), None)
        if renamed is None or mine is None or not takes(renamed, mine):
            return None  # (a change of the renamed column since: the old one alone, as before)
        return renamed

    def computing(self, name: str) -> frozenset[str]:
        """The shards in the join whose column ``name`` is a generated one (their server
        computes its values), whatever the join made of it (the join counts a generated
        column as absent beside a plain one)."""
        holding = self._holdings.holders(ElementKind.COLUMN, column_key(name))
        return frozenset(s for value, shards in holding.items() if value[0] == 0 for s in shards)

    def merged_into(self, column_id: int) -> int:
        """The downstream column that holds the values downstream column ``column_id`` held:
        itself, or the one a finished rename merged it into (``UPDATE t SET new = old``)."""
        while column_id in self._merges:
            column_id = self._merges[column_id]
        return column_id

    def column_state(self, name: str) -> str:
        """``exists`` (on every shard in the join), ``partial`` or ``dropped`` (seed 000)."""
        present = self._holdings.present.get(column_key(name), 0)
        count = self._holdings.count
        return "dropped" if present == 0 else "exists" if present == count else "partial"

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
        # (the shard's server ran it)
        statements = parse_statements(sql, replica=True, flavor=self.flavor)
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
        table = self._table(create_sql, shard)
        # ids by name from the schema in the join: the forced schema renames nothing
        base = sh.accepted if sh.accepted is not None else sh.upstream
        table = adopt_ids(attrs.evolve(table, name=sh.upstream.name), base)
        table = attrs.evolve(table, last_id=max(table.last_id, sh.upstream.last_id))
        text = create_sql if isinstance(create_sql, str) else table.to_sql()
        return self._change(sh, table, text, ())

    def follow(
        self,
        shard: str,
        table: Table,
        *,
        steps: Sequence[s.Step] = (),
        statement: str | None = None,
    ) -> Outcome:
        """The shard's upstream schema moves to ``table`` as a schema history gives it (a
        binlog reader's catalog, whose column ids survive renames, as this group's tables were
        built from it): the statement is already applied, renames are told by id. ``steps``
        (the statement's) carry what passes through: options, comments, reorderings."""
        sh = self._shard(shard)
        if not isinstance(table, Table):
            raise DDLError("follow() takes the shard's new schema as a Table", shard=shard)
        try:
            validate_table(table, rules=Rules.SERVER)
        except MvddError as err:
            raise err.locate(shard=shard) from None
        text = statement if statement is not None else table.to_sql()
        return self._change(sh, table, text, tuple(steps))

    def add_shard(self, name: str, create_sql: str | Table) -> Outcome:
        """A table joins the group (a CREATE or a RENAME into it upstream)."""
        if not isinstance(name, str) or not name:
            raise DDLError("a shard needs a name")
        if name in self._shards:
            raise DDLError("the group already has this shard", shard=name)
        table = self._table(create_sql, name)
        sh = _Shard(name, [table], [create_sql], None, next(self._orders), paused=True)
        self._shards[name] = self._paused[name] = sh
        self._departed.pop(name, None)  # the name is the new table's now
        return self._after(sh, [(sh, table)], (), initial=True)

    def remove_shard(self, name: str) -> Outcome:
        """A table leaves the group (a DROP or a RENAME out of it upstream)."""
        sh = self._shard(name)
        if len(self._shards) == 1:
            raise DDLError("a group keeps at least one shard", shard=name)
        moves = [(sh, None)] if sh.accepted is not None else []
        try:
            actions = self._move(moves, ()) if moves else []
        except Refused as err:  # pragma: no cover - fewer shards never conflict (merge rules)
            raise err.error from None
        self._departed[name] = self._shards.pop(name)
        self._paused.pop(name, None)
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

    def _table(self, sql: str | Table, shard: str) -> Table:
        """A shard's table from its CREATE TABLE, in the shards' database default."""
        return with_database_charset(_as_table(sql, shard=shard, flavor=self.flavor), *self.charset)

    def _shard(self, name: str) -> _Shard:
        sh = self._shards.get(name) if isinstance(name, str) else None
        if sh is None:
            raise NoSuchTableError("no such shard in the group", shard=str(name))
        return sh

    def _known(self, name: str) -> _Shard:
        """A shard of the group, or one that left it."""
        if isinstance(name, str) and name in self._departed and name not in self._shards:
            return self._departed[name]
        return self._shard(name)

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
                if fold_name(step.table) != fold_name(table.name):
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
                else:
                    renamed = [x for x in steps if isinstance(x, s.RenameTable)]
                    for r in renamed:
                        table = attrs.evolve(table, name=r.to)
                    others = [x for x in steps if not isinstance(x, s.RenameTable)]
                    if others:
                        table = apply_statement(table, others, rules=self._rules)
                        validate_table(table, rules=self._rules)
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
        outcome = self._after(sh, [(sh, table)], steps)
        if any(isinstance(x, s.TruncateTable) and x.empties for x in steps):
            outcome = _merge(outcome, self._truncate(sh))
        return outcome

    def _truncate(self, sh: _Shard) -> Outcome:
        """A shard emptied its table: the target is emptied too when the shard is the group's
        only one, in the join (the target then mirrors that one table; rows kept from shards
        that left the group go too, as no table upstream holds them any more). Otherwise
        nothing is emitted: the target keeps no record of which shard a row came from, so the
        rows of one shard cannot be told from the others'."""
        if len(self._shards) != 1 or sh.paused or sh.accepted is None:
            return Outcome()
        return Outcome(downstream=self._emit([s.TruncateTable(table=self.target)]))

    def _after(
        self,
        sh: _Shard,
        moves: list[tuple[_Shard, Table | None]],
        steps: Sequence[s.Step],
        *,
        initial: bool = False,
    ) -> Outcome:
        """Join a shard's new upstream schema if it is not paused, then resume who can."""
        downstream: list[str] = []
        if not sh.paused or initial:
            try:
                actions = self._move(moves, steps)
                self._resume_shard(sh)
                downstream = self._emit(actions)
            except (Refused, Waiting) as why:
                self._pause_shard(sh, why)
            resumed = self._resume(skip=sh.name if sh.paused else None)
            # refused alone, joined together with the others: not news for this shard
            resumed = attrs.evolve(resumed, resumed=resumed.resumed - {sh.name})
        else:
            resumed = self._resume(skip=None)
        return Outcome(
            downstream=downstream + resumed.downstream,
            conflict=sh.conflict if sh.paused else None,
            resumed=resumed.resumed,
            waiting=sh.waiting if sh.paused else None,
        )

    def _resume(self, *, skip: str | None) -> Outcome:
        """Resume every paused shard whose upstream schema now joins: one by one (but not
        ``skip``, whose change was just refused), then together: the shards waiting on one
        rename (they resume when the last holder of the column makes it), then all the paused
        ones (several shards making one incompatible change resume when the last one makes
        it); until nothing changes."""
        downstream: list[str] = []
        resumed: set[str] = set()
        while True:
            paused = sorted(self._paused.values(), key=_ORDER)  # (in the group's order)
            progress = False
            for sh in paused:
                if sh.name == skip:
                    continue
                try:
                    actions = self._move([(sh, sh.upstream)], ())
                except (Refused, Waiting) as why:
                    self._pause_shard(sh, why)
                    continue
                self._resume_shard(sh)
                resumed.add(sh.name)
                downstream += self._emit(actions)
                progress = True
            if not progress:
                waits = {sh.rename for sh in paused if sh.rename is not None}
                groups = [[sh for sh in paused if sh.rename == r] for r in sorted(waits)]
                for group in [*groups, paused]:
                    if len(group) < 2:
                        continue
                    try:
                        actions = self._move([(sh, sh.upstream) for sh in group], ())
                    except (Refused, Waiting):
                        continue
                    for sh in group:
                        self._resume_shard(sh)
                        resumed.add(sh.name)
                    downstream += self._emit(actions)
                    progress = True
                    break
            if not progress:
                return Outcome(downstream=downstream, resumed=frozenset(resumed))
            skip = None

    def _pause_shard(self, sh: _Shard, why: Refused | Waiting) -> None:
        """Pause a shard, and count it among the group's paused ones."""
        sh.pause(why)
        self._paused[sh.name] = sh

    def _resume_shard(self, sh: _Shard) -> None:
        """Resume a shard (paused or not), and count it no more among the paused ones."""
        sh.resume()
        self._paused.pop(sh.name, None)

    def _emit(self, actions: Sequence[Action]) -> list[str]:
        statements = render(actions)
        if self._propagate:
            return statements
        self._held.extend(statements)
        return []

    def _check(self) -> None:
        """Assert the group's invariants (the state machines call it after every step)."""
        self._holdings._check()
        in_join = {n for n, sh in self._shards.items() if sh.accepted is not None}
        assert set(self._holdings.encoded) == in_join, (set(self._holdings.encoded), in_join)
        for name in in_join:
            accepted = self._shards[name].accepted
            assert accepted is not None
            assert self._holdings.encoded[name] == encode_table(accepted), name
        assert all(
            sh.paused == (sh.conflict is not None or sh.waiting is not None) or sh.accepted is None
            for sh in self._shards.values()
        )
        assert all(sh.conflict is None or sh.waiting is None for sh in self._shards.values())
        assert self._paused == {n: sh for n, sh in self._shards.items() if sh.paused}

    # -- one move of the join ----------------------------------------------------------------

    def _move(
        self, moves: Sequence[tuple[_Shard, Table | None]], steps: Sequence[s.Step]
    ) -> list[Action]:
        """Replace shards' accepted schemas, re-join what that touches and plan the downstream
        DDL; raises Refused (and changes nothing) if the result has no join."""
        journal = Journal()
        renames = self._renames.copy()
        touched: dict[ElementKind, set[str]] = {k: set() for k in KINDS}
        starts: list[tuple[str, str]] = []
        reborn: set[str] = set()
        saved = [(sh, sh.accepted) for sh, _ in moves]
        before = _Before(
            dict(self._holdings.present),
            self._holdings.count,
            self._complete(moves),
        )
        try:
            for sh, table in moves:
                self._move_one(sh, table, touched, starts, journal, reborn, before)
            if not self._holdings.count:  # no shard left in the join: the target stays
                return []
            if not before.count:
                # the first shards to join since none was: every element of the target is
                # joined again, not only those they hold (what they lack goes)
                for kind in KINDS:
                    touched[kind].update(self._values.of(kind))
            finishes = self._renames.finished(self._holdings, touched)
            for sh, table in moves:
                if table is not None:
                    self._renames.check_apart(sh.name, table)
            actions = self._rejoin(touched, starts, finishes, steps, moves, reborn)
        except (Refused, Waiting):
            self._holdings.undo(journal)
            self._renames = renames
            for sh, table in saved:
                sh.accepted = table
            raise
        return actions

    def _move_one(
        self,
        sh: _Shard,
        table: Table | None,
        touched: dict[ElementKind, set[str]],
        starts: list[tuple[str, str]],
        journal: Journal,
        reborn: set[str],
        before: _Before,
    ) -> None:
        old = sh.accepted
        if old is not None and table is not None:
            self._renames.check(
                sh.name,
                old,
                table,
                before.present,
                before.count,
                starts,
                self.column_state,
                wait=self.renames == "wait",
                complete=before.complete,
                waiting=self._waiting(skip=sh.name),
            )
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
                    and self._holdings.present.get(key, 0) == 1
                ):
                    reborn.add(key)
        new = encode_table(table) if table is not None else None
        self._holdings.move(sh.name, new, touched, journal)
        sh.accepted = table

    # -- the new downstream table ------------------------------------------------------------

    def _rejoin(
        self,
        touched: dict[ElementKind, set[str]],
        starts: list[tuple[str, str]],
        finishes: list[tuple[str, str, bool]],
        steps: Sequence[s.Step],
        moves: Sequence[tuple[_Shard, Table | None]],
        reborn: set[str],
    ) -> list[Action]:
        # a rename's new name joins its old name's holders too (Holdings.join_renamed)
        columns = touched[ElementKind.COLUMN]
        columns.update(n for n, o in self._renames.under_way.items() if o in columns)
        # columns whose completeness changed re-join the constraints that read them
        for key in list(columns):
            for kind, other in self._holdings.readers.get(key, ()):
                touched[kind].add(other)
        values = self._values.copy()
        for kind in KINDS:
            for key in self._in_order(kind, touched[kind]):
                value = self._join_key(kind, key, moves)
                if value is None or (kind == ElementKind.COLUMN and value == MISSING):
                    values.of(kind).pop(key, None)
                else:
                    values.of(kind)[key] = value
        found = self._holdings.counter_conflict(values)
        if found is not None:
            raise Refused(self._explain(ElementKind.COLUMN, found[0], found[1], moves))
        before = self._joined
        ids = {column_key(c.name): c.id for c in before.columns}
        last, copies = self._renames.ids(
            ids, before.last_id, starts, finishes, values.columns.__contains__
        )
        for key in self._in_order(ElementKind.COLUMN, reborn):
            if key in ids and key in values.columns:
                last += 1
                ids[key] = last
        options = passthrough.options_after(before.options, steps)
        comments = passthrough.comments_after(steps)
        saved_values = self._values
        self._values = values
        try:
            after = self._build(ids, comments, options, previous=before, moves=moves, last_id=last)
            self._check_valid(after)
        except Refused:
            self._values = saved_values
            raise
        # (written to both columns meanwhile, the renamed one holds every row's latest value)
        actions, order = plan(before, after, copies=() if self.dual_writes else copies)
        after = passthrough.reordered(after, order)
        actions += passthrough.actions(self.target, after, steps)
        self._joined = passthrough.ordered(after, steps)
        for into, source in copies:
            self._merges[source] = into
        for o, _ in starts:
            # a merge started: the old name is a new downstream column now, and the rows of
            # the shards that still write the old name land there until the merge ends
            down = after.find_column(o)
            if down is not None:
                for holders in self._holdings.holders(ElementKind.COLUMN, o).values():
                    for name in holders:
                        accepted = self._shards[name].accepted
                        col = accepted.find_column(o) if accepted is not None else None
                        if col is not None:
                            self._lineage[(name, col.id)] = down.id
        for sh, table in moves:
            for c in table.columns if table is not None else ():
                down = after.find_column(c.name)
                if down is not None:
                    self._lineage[(sh.name, c.id)] = down.id
        known = {c.id for c in before.columns}
        for down in after.columns:
            if down.id in known:
                continue
            # a new column downstream: a shard's generated column of its name, which the join
            # counted as absent (the shard did not move), lands there too, as it would had
            # that shard's ADD come second (destination() judges whether its values fit)
            for name in sorted(self.computing(down.name)):
                accepted = self._shards[name].accepted
                col = accepted.find_column(down.name) if accepted is not None else None
                if col is not None:
                    self._lineage[(name, col.id)] = down.id
        return actions

    def _in_order(self, kind: ElementKind, keys: set[str]) -> list[str]:
        """``keys`` in the order the join first saw them (a new element's first holder's
        schema order), those no shard holds last, by name: the downstream table's new
        elements come in the shards' order, and in the same order in every process (a set's
        is its strings' hashes', which each process seeds anew; the group log, replayed on
        start, must give the statements it recorded)."""
        if len(keys) < 2:
            return list(keys)
        held = self._holdings.keys(kind)
        return [k for k in held if k in keys] + sorted(keys.difference(held))

    def _complete(self, moves: Sequence[tuple[_Shard, Table | None]]) -> frozenset[tuple[str, str]]:
        """The renames this move completes: every shard holding the column makes it now."""
        movers: dict[tuple[str, str], set[str]] = {}
        for sh, table in moves:
            if sh.accepted is not None and table is not None:
                for pair in renames_of(sh.accepted, table):
                    movers.setdefault(pair, set()).add(sh.name)
        out = set()
        for (o, n), who in movers.items():
            holders = {
                h for hs in self._holdings.holders(ElementKind.COLUMN, o).values() for h in hs
            }
            if holders <= who:
                out.add((o, n))
        return frozenset(out)

    def _waiting(self, *, skip: str) -> dict[tuple[str, str], set[str]]:
        """The renames paused shards wait on (but ``skip``'s), and who waits."""
        out: dict[tuple[str, str], set[str]] = {}
        for sh in self._paused.values():  # (a shard waits for a rename only while paused)
            if sh.rename is not None and sh.name != skip:
                out.setdefault(sh.rename, set()).add(sh.name)
        return out

    def _join_key(
        self, kind: ElementKind, key: str, moves: Sequence[tuple[_Shard, Table | None]]
    ) -> Any:
        try:
            old = self._renames.under_way.get(key) if kind == ElementKind.COLUMN else None
            if old is not None:
                return self._holdings.join_renamed(key, old)
            return self._holdings.join(kind, key)
        except ElementConflict as err:
            raise Refused(self._explain(kind, key, err, moves)) from None

    def _explain(
        self,
        kind: ElementKind,
        key: str,
        err: ElementConflict,
        moves: Sequence[tuple[_Shard, Table | None]],
    ) -> JoinConflictError:
        left, right = str(err.left), str(err.right)
        movers = {sh.name for sh, _ in moves}
        if left in movers and right not in movers:
            left, right = right, left
        pair = []
        old = self._renames.under_way.get(key) if kind == ElementKind.COLUMN else None
        for name in (left, right):
            table = self._shards[name].accepted
            assert table is not None
            was = table.find_column(old) if old is not None and not table.find_column(key) else None
            if was is not None:  # a shard that still writes a renamed column's old name
                renamed = tuple(attrs.evolve(c, name=key) if c is was else c for c in table.columns)
                pair.append(
                    (f"shard `{name}` (as `{was.name}`)", attrs.evolve(table, columns=renamed))
                )
            else:
                pair.append((f"shard `{name}`", table))
        error = cast(JoinConflictError, conflict_error(kind, key, pair, err.err))
        involved = sorted({h for hs in self._holdings.holders(kind, key).values() for h in hs})
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
        previous: Table | None,
        moves: Sequence[tuple[_Shard, Table | None]],
        last_id: int = 0,
    ) -> Table:
        """The downstream table of the current joined values (the one join's table, then the
        rename procedure's and the target's forms)."""
        sources = [t for _, t in moves if t is not None]

        def spell(kind: ElementKind, key: str) -> Any:
            return self._source(sources, kind, key)

        table = build_table(
            self.target,
            self._values,
            spell=spell,
            options=options,
            column_ids=ids,
            previous=previous,
            comments=comments,
            last_id=last_id,
        )
        table = passthrough.target_form(table)
        columns = tuple(self._renames.downstream(column_key(c.name), c) for c in table.columns)
        return table if columns == table.columns else attrs.evolve(table, columns=columns)

    def _source(self, sources: Sequence[Table], kind: ElementKind, key: str) -> Any:
        """An element's definition in the moving shards' tables, else in any holder's."""
        find = FIND[kind]
        for table in sources:
            found = find(table, key)
            if found is not None:
                return found
        for holders in self._holdings.holders(kind, key).values():
            for name in sorted(holders):
                accepted = self._shards[name].accepted
                found = find(accepted, key) if accepted is not None else None
                if found is not None:
                    return found
        return None

    def _check_valid(self, table: Table) -> None:
        try:
            validate_table(table)
        except DDLError as err:
            raise Refused(
                JoinConflictError(
                    f"the joined table cannot exist: {err.message}",
                    table=self.target,
                    column=err.column,
                    index=err.index,
                )
            ) from None


def _merge(a: Outcome, b: Outcome) -> Outcome:
    return Outcome(
        downstream=a.downstream + b.downstream,
        conflict=b.conflict if b.conflict is not None else a.conflict,
        resumed=a.resumed | b.resumed,
        waiting=b.waiting if b.waiting is not None else a.waiting,
    )


def _as_table(sql: str | Table, *, shard: str, flavor: str | None) -> Table:
    try:
        if isinstance(sql, Table):
            return sql
        if not isinstance(sql, str):
            raise DDLError(f"expected a CREATE TABLE statement, not {type(sql).__name__}")
        # (the shard's own table, as its server took it)
        table = parse_table(sql, replica=True, flavor=flavor)
        validate_table(table, rules=Rules.SERVER)
        return table
    except MvddError as err:
        raise err.locate(shard=shard) from None


__all__ = ["Outcome", "ShardGroup"]
