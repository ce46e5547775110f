"""Column renames in a shard group: seed 000's procedure ("merge") and TiDB DM's coordination
("wait").

**merge** (seed 000): the first shard renaming ``a`` to ``b`` (``a`` on every shard, ``b`` on
none) renames the downstream column, gives it a default and adds ``a`` back as a nullable column
for the other shards' rows; when no shard has ``a`` any more the data is merged (``UPDATE t SET
b = a WHERE a IS NOT NULL``) and ``a`` dropped; if instead every shard goes back to ``a`` (or
lets ``b`` go: a generated ``b`` is another column, which holds none of the renamed values),
the data is merged the same way and the column renamed back.

**wait** (TiDB DM): a shard renaming ``a`` to ``b`` waits, paused (its rows wait with it), until
every shard holding ``a`` has made the same rename; then one downstream ``RENAME COLUMN``, and
they all go on. Two different renames of one column are a conflict naming both.

The merge procedure would drop a key while the rename is under way (the key's column is
renamed on some shards only: a rebuild, and rows without a key meanwhile), and cannot follow a
column that is partial (some shards already renamed or dropped it): renames of key columns
(PRIMARY KEY or UNIQUE) and of partial columns always wait. A column the shards define
differently (an INT on one, a BIGINT on another) merges as any other: ``b`` joins their
definitions as ``a`` does.

While a merge is under way the shards that still write ``a`` write their rows' values to both
columns (:meth:`~mvdd.shard.group.ShardGroup.also`): ``b`` then holds every row's latest
value, and a group whose consumer does so (``dual_writes``) ends the merge without the
``UPDATE``, which would keep ``b``'s older value where a NULL was written to ``a``
(``WHERE a IS NOT NULL``), and put a row's ``a`` from before its shard renamed over the ``b``
it wrote since. So ``b``
joins the renamed shards' ``b`` and the others' ``a``
(:meth:`~mvdd.shard.holdings.Holdings.join_renamed`): a renamed shard that narrows ``b`` (as
it renames it, ``CHANGE a b TINYINT`` of an INT, or after) leaves it as wide as the others'
``a``, a shard that widens ``a`` widens ``b`` too, and a change with no join pauses its shard
as any conflict does. A shard may not hold both names while the merge is under way (a renamed
shard adding ``a`` anew, or another adding ``b``): the merge could not tell the two columns'
values apart, so it waits, paused, until the rename ends (:meth:`Renames.check_apart`).
``ShardGroup(renames=…)`` picks the procedure for the others ("merge" by default, as seed 000).
Other renames of a column in the middle of a merge (seed 000's table of unsupported cases), or
to a name another shard holds, are conflicts, but one: where every shard renames the merge's
two names to one third name (each paused by the conflict until the last one has), they resume
together, the merge ends as it would and its new name is renamed to the third
(:meth:`Renames._collapses`). A rename on a group of one shard is a plain rename.

:class:`Renames` keeps the merges under way (new key -> old key); it is a plain value the group
copies before a tentative move and puts back if the move is refused.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import attrs

from mvdd.compat.rules import widens
from mvdd.errors import JoinConflictError
from mvdd.join.encode import column_key
from mvdd.model import Column, IndexKind, Table
from mvdd.model.element import ElementKind
from mvdd.shard.holdings import Holdings, Refused


class Waiting(Exception):
    """A shard's rename waits for the other shards holding the column (nothing of the move
    is kept: the shard is paused until they have all made it)."""

    def __init__(self, shard: str, old: str, new: str) -> None:
        super().__init__(shard, old, new)
        self.shard, self.old, self.new = shard, old, new

    def __str__(self) -> str:
        return f"`{self.old}` -> `{self.new}` on `{self.shard}` waits for the other shards"


def renames_of(old: Table, new: Table) -> list[tuple[str, str]]:
    """The column renames from one schema of a shard to the next: (old key, new key), columns
    matched by id (generated columns are recomputed, never renamed)."""
    by_id = {c.id: c.name for c in old.columns if c.generated is None}
    return [
        (column_key(by_id[c.id]), column_key(c.name))
        for c in new.columns
        if c.id in by_id and c.generated is None and column_key(by_id[c.id]) != column_key(c.name)
    ]


def takes(column: Column, other: Column) -> bool:
    """Whether ``column`` holds every value of ``other`` as it is: its type widens ``other``'s
    (:func:`~mvdd.compat.rules.widens`), and it takes a NULL where ``other`` does."""
    return widens(other.type, column.type) and (column.nullable or not other.nullable)


@attrs.define
class Renames:
    """The renames under way, new key -> old key."""

    under_way: dict[str, str] = attrs.field(factory=dict)

    def copy(self) -> Renames:
        return Renames(dict(self.under_way))

    def is_target(self, key: str) -> bool:
        """Whether the column is the new name of a rename under way (downstream it is
        nullable, without default, until every shard has renamed)."""
        return key in self.under_way.values() or key in self.under_way

    def check(
        self,
        shard: str,
        old: Table,
        new: Table,
        present: Mapping[str, int],
        count: int,
        starts: list[tuple[str, str]],
        state: Callable[[str], str],
        *,
        wait: bool,
        complete: frozenset[tuple[str, str]],
        waiting: dict[tuple[str, str], set[str]],
    ) -> None:
        """Follow the renames in a shard's move from ``old`` to ``new`` (columns matched by id):
        a rename that starts (a merge, or a wait that every holder of the column has now
        made: ``complete``) is recorded in ``starts``; one that must wait raises
        :class:`Waiting`; one that cannot be followed raises Refused.

        ``present``, ``count``: how many shards in the join hold each column, and how many
        shards there are, before the move.
        ``wait``: every rename waits (``renames="wait"``). ``waiting``: the renames other
        shards are waiting on, and who waits."""
        by_id = {c.id: c for c in old.columns if c.generated is None}
        keyed = {
            column_key(name)
            for idx in old.indexes
            if idx.kind in (IndexKind.PRIMARY, IndexKind.UNIQUE)
            for name in old.index_column_names(idx)
        }
        for col in new.columns:
            before = by_id.get(col.id)
            if before is None or col.generated is not None:
                continue
            o, n = column_key(before.name), column_key(col.name)
            if o == n:
                continue
            if self.under_way.get(n) == o or self.under_way.get(o) == n:
                continue  # following, or going back on, a merge under way
            busy = o in self.under_way or n in self.under_way
            busy = busy or o in self.under_way.values() or n in self.under_way.values()
            if busy and self._collapses(o, n, present, complete):
                if o in self.under_way and (o, n) not in starts:
                    starts.append((o, n))  # (its old name's rows merged into it as it ends)
                continue
            rival = next(
                ((other, who) for (was, other), who in waiting.items() if was == o and other != n),
                None,
            )
            if rival is not None:
                raise Refused(
                    JoinConflictError(
                        f"column `{before.name}` is renamed to `{rival[0]}` on "
                        f"{', '.join(f'`{w}`' for w in sorted(rival[1]))} and to `{col.name}` "
                        f"on `{shard}`: one column cannot take two names",
                        column=before.name,
                        shard=shard,
                        shards=tuple(sorted({*rival[1], shard})),
                    )
                )
            taken = bool(present.get(n))
            partial = present.get(o, 0) != count
            if not busy and not taken and (wait or partial or o in keyed):
                if (o, n) in complete:
                    if (o, n) not in starts:  # every holder renames now: a plain rename
                        starts.append((o, n))
                    continue
                raise Waiting(shard, before.name, col.name)
            if not busy and not taken and not partial:
                self.under_way[n] = o
                starts.append((o, n))
                continue
            raise Refused(
                JoinConflictError(
                    f"column `{before.name}` renamed to `{col.name}` cannot be followed: "
                    f"`{before.name}` is {state(before.name)} and `{col.name}` is "
                    f"{state(col.name)} across the shards"
                    + (" (a rename of it is under way)" if busy else "")
                    + "; a rename needs the new name free on every shard",
                    column=before.name,
                    shard=shard,
                    shards=(shard,),
                )
            )

    def _collapses(
        self,
        o: str,
        n: str,
        present: Mapping[str, int],
        complete: frozenset[tuple[str, str]],
    ) -> bool:
        """Whether renaming ``o`` to ``n`` ends a merge under way that ``o`` is a name of:
        every shard holding its old name and every one holding its new name renames it to
        ``n``, a name no shard holds, in this one move (shards paused on the merge, resumed
        together). The merge then ends as it would (its old name's values merged into its new
        name, the old one dropped), and its new name is renamed to ``n``."""
        if present.get(n) or (o, n) not in complete:
            return False
        partner = self.under_way.get(o)  # ``o`` the merge's new name: its old one
        if partner is None:  # ``o`` the merge's old name: its new one
            partner = next((new for new, old in self.under_way.items() if old == o), None)
        return partner is not None and (partner, n) in complete

    def check_apart(self, shard: str, table: Table) -> None:
        """Raise Refused if a shard would hold both names of a rename under way (a renamed
        shard adding the old name anew, or a shard not renamed yet adding the new one): the
        merge that ends the rename (``UPDATE t SET new = old``) could not tell its two
        columns' values apart, and its old column's would be written to the new one
        (:meth:`~mvdd.shard.group.ShardGroup.also`). It waits, paused, until the rename
        ends."""
        for n, o in self.under_way.items():
            new, old = table.find_column(n), table.find_column(o)
            if new is not None and old is not None:
                raise Refused(
                    JoinConflictError(
                        f"`{shard}` would hold both `{old.name}` and `{new.name}` while "
                        f"`{old.name}` is being renamed to `{new.name}` across the shards: the "
                        f"merge that ends the rename could not tell their values apart; it "
                        f"waits until every shard has renamed `{old.name}`",
                        column=old.name,
                        shard=shard,
                        shards=(shard,),
                    )
                )

    def finished(
        self, holdings: Holdings, touched: dict[ElementKind, set[str]]
    ) -> list[tuple[str, str, bool]]:
        """Renames under way that no shard needs any more: (old, new, back), ``back`` when
        every shard went back to the old name, or let the renamed column go (a generated
        column of the new name is another column: its shard holds none of the renamed
        values); they end here."""
        out = []
        for n, o in list(self.under_way.items()):
            if not holdings.present.get(o):
                out.append((o, n, False))
            elif not holdings.plain(n):
                out.append((o, n, True))
            elif not (holdings.complete(o) and holdings.complete(n)):
                continue
            # (both names on every shard: each shard renamed and then added the old name anew;
            # which values belong together cannot be told, so the rename ends without a merge)
            del self.under_way[n]
            touched[ElementKind.COLUMN].update((o, n))
        return out

    def ids(
        self,
        ids: dict[str, int],
        last_id: int,
        starts: list[tuple[str, str]],
        finishes: list[tuple[str, str, bool]],
        joined: Callable[[str], bool],
    ) -> tuple[int, list[tuple[int, int]]]:
        """The downstream column ids after renames start and end: a starting rename gives the
        old id to the new name and a fresh id to the old name (added back); an ending one
        merges the data (``copies``: (into, source) ids) and keeps one of the two. Returns the
        last id used and the copies."""
        copies: list[tuple[int, int]] = []
        plain: dict[str, str] = {}
        for o, n in starts:
            if not joined(o):  # every shard renamed at once: a plain rename
                ids[n] = ids.pop(o)
                plain[o] = n
                continue
            ids[n] = ids[o]
            last_id += 1
            ids[o] = last_id
        for o, n, back in finishes:
            n = plain.get(n, n)  # (a merge's new name renamed as it ends: _collapses)
            if o not in ids or n not in ids:
                continue
            copies.append((ids[n], ids[o]))
            if back:
                ids[o] = ids.pop(n)
            else:
                del ids[o]
        return last_id, copies

    def downstream(self, key: str, col: Column) -> Column:
        """A column's downstream form while a rename of it is under way: the old name keeps
        the other shards' rows, so it is nullable with no default."""
        if key in self.under_way.values() and col.generated is None:
            return attrs.evolve(col, nullable=True, default=None, implicit_default=False)
        return col


__all__ = ["Renames", "Waiting", "renames_of", "takes"]
