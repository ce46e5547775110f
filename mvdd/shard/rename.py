"""Column renames in a shard group: seed 000's procedure ("merge").

The first shard renaming ``a`` to ``b`` (``a`` on every shard, ``b`` on none) renames the
downstream column, gives it a default and adds ``a`` back as a nullable column for the other
shards' rows; when no shard has ``a`` any more the data is merged (``UPDATE t SET b = a WHERE
a IS NOT NULL``) and ``a`` dropped; if instead every shard goes back to ``a``, the data is merged
the same way and the column renamed back. Other renames of a column in the middle of one (seed
000's table of unsupported cases) are conflicts. A rename on a group of one shard is a plain
rename.

:class:`Renames` keeps the renames under way (new key -> old key); it is a plain value the group
copies before a tentative move and puts back if the move is refused.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from mvdd.errors import JoinConflictError
from mvdd.join.encode import ElementKind, column_key
from mvdd.model import Column, Table
from mvdd.shard.holdings import Holdings, Refused


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
        holdings: Holdings,
        starts: list[tuple[str, str]],
        state: Callable[[str], str],
    ) -> None:
        """Follow the renames in a shard's move from ``old`` to ``new`` (columns matched by id):
        a rename that starts is recorded in ``starts``; one that cannot be followed raises
        Refused."""
        by_id = {c.id: c for c in old.columns if c.generated is None}
        for col in new.columns:
            before = by_id.get(col.id)
            if before is None or col.generated is not None:
                continue
            o, n = column_key(before.name), column_key(col.name)
            if o == n:
                continue
            if self.under_way.get(n) == o or self.under_way.get(o) == n:
                continue  # following, or going back on, a rename under way
            busy = o in self.under_way or n in self.under_way
            busy = busy or o in self.under_way.values() or n in self.under_way.values()
            if (
                not busy
                and holdings.present.get(o, 0) == holdings.count
                and not (holdings.present.get(n))
            ):
                self.under_way[n] = o
                starts.append((o, n))
                continue
            raise Refused(
                JoinConflictError(
                    f"column `{before.name}` renamed to `{col.name}` cannot be followed: "
                    f"`{before.name}` is {state(before.name)} and `{col.name}` is "
                    f"{state(col.name)} across the shards"
                    + (" (a rename of it is under way)" if busy else "")
                    + "; seed 000's rename procedure needs the old name on every shard and the "
                    "new name on none",
                    column=before.name,
                    shard=shard,
                    shards=(shard,),
                )
            )

    def finished(
        self, holdings: Holdings, touched: dict[ElementKind, set[str]]
    ) -> list[tuple[str, str, bool]]:
        """Renames under way that no shard needs any more: (old, new, back), ``back`` when
        every shard went back to the old name; they end here."""
        out = []
        for n, o in list(self.under_way.items()):
            if not holdings.present.get(o):
                out.append((o, n, False))
            elif not holdings.present.get(n):
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
        for o, n in starts:
            if not joined(o):  # every shard renamed at once: a plain rename
                ids[n] = ids.pop(o)
                continue
            ids[n] = ids[o]
            last_id += 1
            ids[o] = last_id
        for o, n, back in finishes:
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


__all__ = ["Renames"]
