"""The schema versions an online change walks through (F1, seed 002; TiDB, seed 001).

Adding a column or an index walks it ABSENT → DELETE_ONLY → WRITE_ONLY → WRITE_REORG → PUBLIC;
dropping one walks PUBLIC → WRITE_ONLY → DELETE_ONLY → DELETE_REORG → ABSENT. Each state is one
catalog version, and two nodes may serve one element at the same time only in adjacent states
(:func:`may_coexist`), so the owner moves on only when every live node has the current version.

A change that adds nothing and drops nothing F1 tracks (a rename, a default, a comment, a wider
type) is one version. One statement may add several elements (``ADD COLUMN c INT, ADD INDEX
(c)``) or drop several; they move in lockstep. A statement that both adds and drops is
refused: submit one job per direction.

>>> from mvdd.ddl import parse_table
>>> t = parse_table("CREATE TABLE t (id INT PRIMARY KEY, a INT)")
>>> [v.find_index("ia").state.value for v in plan(t, "ALTER TABLE t ADD INDEX ia (a)")]
['delete_only', 'write_only', 'write_reorg', 'public']
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import Any, Final

import attrs

from mvdd.ddl import step as s
from mvdd.ddl.apply import apply_steps, check_ordered_by, validate_table
from mvdd.ddl.statement import parse_statements
from mvdd.errors import DDLError, MvddError, UnsupportedDDLError
from mvdd.model import ElementKind, State, Table

#: the states an added element walks through, ABSENT first
ADD: Final = (
    State.ABSENT,
    State.DELETE_ONLY,
    State.WRITE_ONLY,
    State.WRITE_REORG,
    State.PUBLIC,
)
#: the states a dropped element walks through, PUBLIC first
DROP: Final = (
    State.PUBLIC,
    State.WRITE_ONLY,
    State.DELETE_ONLY,
    State.DELETE_REORG,
    State.ABSENT,
)
SEQUENCES: Final = {"add": ADD, "drop": DROP}  # by Direction value (may_coexist takes text)

#: where a cancelled add goes back through the drop path, from each state it may be in
ROLLBACK: Final = {
    State.DELETE_ONLY: (State.ABSENT,),
    State.WRITE_ONLY: (State.DELETE_ONLY, State.DELETE_REORG, State.ABSENT),
    State.WRITE_REORG: (State.DELETE_ONLY, State.DELETE_REORG, State.ABSENT),
}


def may_coexist(a: State, b: State, *, change: str) -> bool:
    """Whether two nodes may serve states ``a`` and ``b`` of one element at once: equal or
    adjacent in the walk of ``change`` (``"add"`` or ``"drop"``).

    >>> may_coexist(State.ABSENT, State.DELETE_ONLY, change="add")
    True
    >>> may_coexist(State.DELETE_ONLY, State.ABSENT, change="drop")
    False
    """
    order = SEQUENCES.get(change)
    if order is None:
        raise DDLError(f"a change is 'add' or 'drop', not {change!r}")
    if a not in order or b not in order:
        return False
    return abs(order.index(a) - order.index(b)) <= 1


class Direction(StrEnum):
    """Which way an online change moves its elements: in (add), out (drop), or none (plain:
    a rename, a default, a wider type, one version)."""

    ADD = "add"
    DROP = "drop"
    PLAIN = "plain"


#: the states a change's elements take, one version each
STATES: dict[Direction, tuple[State, ...]] = {
    Direction.ADD: ADD[1:],
    Direction.DROP: DROP[1:],
    Direction.PLAIN: (State.PUBLIC,),
}

#: the online path's elements, by (kind, id)
Element = tuple[ElementKind, int]
_MOVING = (ElementKind.COLUMN, ElementKind.INDEX)


@attrs.frozen
class Change:
    """What one statement does to one table, for the online path: the direction, the elements
    it moves by (kind, id) in the table before (drop) or after (add), and its steps."""

    table: str
    direction: Direction
    steps: tuple[s.Step, ...]
    final: Table
    elements: tuple[Element, ...] = ()

    @property
    def states(self) -> tuple[State, ...]:
        """The states the elements take, one version each."""
        return STATES[self.direction]


_ADDS = (s.AddColumn, s.AddIndex)
_DROPS = (s.DropColumn, s.DropIndex)


def change_of(table: Table, sql: str) -> Change:
    """Read one statement on ``table`` for the online path.

    Raises DDLError (the statement is malformed or does not apply), UnsupportedDDLError (it is
    not one ALTER of this table, or it both adds and drops).
    """
    statements = parse_statements(sql)
    if len(statements) != 1:
        raise UnsupportedDDLError("an online change is one statement", statement=sql)
    steps = statements[0].steps
    if not steps or any(st.table != table.name for st in steps):
        raise UnsupportedDDLError(
            f"an online change alters table `{table.name}` only", table=table.name, statement=sql
        )
    if any(isinstance(st, s.TABLE_STEPS) for st in steps):
        raise UnsupportedDDLError(
            "CREATE, DROP and RENAME TABLE are not online changes", table=table.name
        )
    adds = any(isinstance(st, _ADDS) for st in steps)
    drops = any(isinstance(st, _DROPS) for st in steps)
    if adds and drops:
        raise UnsupportedDDLError(
            "an online change adds or drops, not both: submit one job for each",
            table=table.name,
            statement=sql,
        )
    try:
        for ordered in statements[0].ordered_by:
            check_ordered_by(ordered, table)
        final = apply_steps(table, steps)
        validate_table(final)
    except MvddError as err:
        raise err.locate(statement=sql) from None
    if adds:
        old = _ids(table)
        new = tuple(e for e in _elements(final) if e not in old)
        return Change(table.name, Direction.ADD, tuple(steps), final, new)
    if drops:
        kept = _ids(final)
        gone = tuple(e for e in _elements(table) if e not in kept)
        _no_narrowed_index(table, final)
        return Change(table.name, Direction.DROP, tuple(steps), final, gone)
    return Change(table.name, Direction.PLAIN, tuple(steps), final)


def _elements(table: Table) -> tuple[Element, ...]:
    return tuple((kind, e.id) for kind in _MOVING for e in table.elements(kind))


def _ids(table: Table) -> set[Element]:
    return set(_elements(table))


def _no_narrowed_index(before: Table, after: Table) -> None:
    for idx in after.indexes:
        old = before.find_index(idx.name)
        if old is not None and old.id == idx.id and old.parts != idx.parts:
            raise UnsupportedDDLError(
                f"an online DROP COLUMN cannot narrow the multi-column index `{idx.name}`: drop "
                "or redefine the index first",
                table=before.name,
                index=idx.name,
            )


def with_states(table: Table, elements: Iterable[tuple[str, int]], state: State) -> Table:
    """``table`` with the given elements in ``state`` (ABSENT removes them)."""
    wanted = {(ElementKind(kind), eid) for kind, eid in elements}

    def moved(kind: ElementKind) -> tuple[Any, ...]:
        items: tuple[Any, ...] = table.elements(kind)
        if state == State.ABSENT:
            return tuple(e for e in items if (kind, e.id) not in wanted)
        return tuple(attrs.evolve(e, state=state) if (kind, e.id) in wanted else e for e in items)

    return attrs.evolve(table, columns=moved(ElementKind.COLUMN), indexes=moved(ElementKind.INDEX))


def next_version(table: Table, change: Change, state: State) -> Table:
    """The version after ``table`` in which ``change``'s elements are in ``state``.

    An add's first state creates the elements (as the statement does, ids included); a drop's
    last state applies the statement (which also drops what goes with the elements)."""
    if change.direction == Direction.PLAIN:
        return apply_steps(table, change.steps)
    if change.direction == Direction.ADD and not any(
        table.find_element(kind, eid) is not None for kind, eid in change.elements
    ):
        table = apply_steps(table, change.steps)
    if change.direction == Direction.DROP and state == State.ABSENT and change.steps:
        return apply_steps(table, change.steps)
    return with_states(table, change.elements, state)


def plan(table: Table, sql: str) -> list[Table]:
    """The schema versions an online change walks through, the first intermediate state to the
    last, numbered after ``table``'s version (see the module docstring).

    Raises DDLError or UnsupportedDDLError as :func:`change_of`.
    """
    change = change_of(table, sql)
    out = []
    current = table
    for i, state in enumerate(change.states, start=1):
        current = next_version(current, change, state).at_version(table.version + i)
        out.append(current)
    return out


__all__ = [
    "ADD",
    "DROP",
    "ROLLBACK",
    "STATES",
    "Change",
    "Direction",
    "change_of",
    "may_coexist",
    "next_version",
    "plan",
    "with_states",
]
