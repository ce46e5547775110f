"""What a shard's DDL passes through to the target unchanged, and what the target cannot hold.

Changes that accept and refuse the same DML are not joined but passed through: table options
(``COMMENT``, ``ENGINE`` …), column comments, ``MODIFY … FIRST | AFTER`` reorderings (the
target keeps the last shard's order; new columns come last), and ``ALTER INDEX … [IN]VISIBLE``
(MariaDB: ``[NOT] IGNORED``) on an index the target has, but for the target's primary key,
InnoDB's implicit one included, which cannot be invisible. A check ``NOT ENFORCED``
constrains nothing, and MariaDB has no way to say it: the target leaves it out.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from mvdd.ddl import step as s
from mvdd.join.encode import column_key
from mvdd.model import Column, Table, TableOptions
from mvdd.shard.plan import Action


def options_after(options: TableOptions, steps: Sequence[s.Step]) -> TableOptions:
    """The target's options after the steps' ``SetOptions``."""
    for step in steps:
        if isinstance(step, s.SetOptions):
            options = options.with_options(step.options)
    return options


def comments_after(steps: Sequence[s.Step]) -> dict[str, str | None]:
    """Column key -> the comment a ``MODIFY`` / ``CHANGE`` in the steps gives it."""
    return {
        column_key(step.definition.name): step.definition.comment
        for step in steps
        if isinstance(step, s.ModifyColumn)
    }


def placements(after: Table, steps: Sequence[s.Step]) -> list[tuple[s.ModifyColumn, s.Place]]:
    """The steps that place a column (``FIRST`` / ``AFTER``), with places in target names."""
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


def visibility(after: Table, steps: Sequence[s.Step]) -> dict[str, bool]:
    """Index name (the target's spelling) -> the visibility the steps' ``ALTER INDEX`` gives
    an index of the target's, where it changes."""
    changes = [step for step in steps if isinstance(step, s.SetIndexVisible)]
    if not changes:
        return {}
    out: dict[str, bool] = {}
    now: dict[str, bool] = {}
    key = after.row_key_index
    for step in changes:
        index = after.find_index(step.index)
        if index is not None and (step.visible or index is not key):
            out[index.name], now[index.name] = step.visible, index.visible
    return {name: v for name, v in out.items() if now[name] != v}


def actions(target: str, after: Table, steps: Sequence[s.Step]) -> list[Action]:
    """The idempotent parts of a shard's statement, for the target: table options, column
    placements and index visibility."""
    out: list[Action] = []
    options = [x for x in steps if isinstance(x, s.SetOptions)]
    if options:
        pairs = tuple(p for x in options for p in x.options)
        out.append(s.SetOptions(table=target, options=pairs))
    for step, place in placements(after, steps):
        col = after.column(step.definition.name)
        out.append(s.ModifyColumn(table=target, column=col.name, definition=col, place=place))
    for name, visible in visibility(after, steps).items():
        out.append(s.SetIndexVisible(table=target, index=name, visible=visible))
    return out


def ordered(after: Table, steps: Sequence[s.Step]) -> Table:
    """The target table with the steps' placements applied to its column order, and their
    index visibility."""
    seen = visibility(after, steps)
    if seen:
        after = after.with_changes(
            indexes=tuple(
                attrs.evolve(i, visible=seen[i.name]) if i.name in seen else i
                for i in after.indexes
            )
        )
    cols: list[Column] = list(after.columns)
    for step, place in placements(after, steps):
        col = after.column(step.definition.name)
        cols.remove(col)
        if place.first:
            cols.insert(0, col)
        else:
            anchor = next(i for i, c in enumerate(cols) if c.name == place.after)
            cols.insert(anchor + 1, col)
    return reordered(after, [c.id for c in cols])


def reordered(table: Table, order: Sequence[int]) -> Table:
    """``table`` with its columns in the order of these ids."""
    by_id = {c.id: c for c in table.columns}
    if [c.id for c in table.columns] == list(order) or set(order) != set(by_id):
        return table
    return attrs.evolve(table, columns=tuple(by_id[i] for i in order))


def target_form(table: Table) -> Table:
    """What MariaDB can hold of a joined table: NOT ENFORCED checks left out."""
    checks = tuple(c for c in table.checks if c.enforced)
    return table if len(checks) == len(table.checks) else attrs.evolve(table, checks=checks)


__all__ = [
    "actions",
    "comments_after",
    "options_after",
    "ordered",
    "placements",
    "reordered",
    "target_form",
    "visibility",
]
