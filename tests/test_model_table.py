"""The table value's helpers against plain oracles."""

from __future__ import annotations

from typing import Any

import attrs
from hypothesis import given
from hypothesis import strategies as st

from mvdd.ddl.statement import parse_table
from mvdd.model.element import Column
from mvdd.model.table import Table, changed_window


class Element:
    """An element value: equal to another with the same text, identical only to itself."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Element) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)


def window_by_walking(before: tuple[object, ...], after: tuple[object, ...]) -> tuple[int, int]:
    """The oracle: walk from each end while the elements are the same objects."""
    shortest = min(len(before), len(after))
    p = 0
    while p < shortest and before[p] is after[p]:
        p += 1
    s = 0
    while p + s < shortest and before[-1 - s] is after[-1 - s]:
        s += 1
    return p, s


@st.composite
def edited(draw: st.DrawFn) -> tuple[tuple[Element, ...], tuple[Element, ...]]:
    """A tuple and the same tuple after edits: inserts, deletes, and replacements by an equal
    copy or by a new element (a step that rebuilt an element, or changed it)."""
    before = tuple(Element(str(i)) for i in range(draw(st.integers(0, 12))))
    after = list(before)
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(["insert", "delete", "copy", "new"]))
        if kind == "insert" or not after:
            after.insert(draw(st.integers(0, len(after))), Element("added"))
            continue
        at = draw(st.integers(0, len(after) - 1))
        if kind == "delete":
            del after[at]
        elif kind == "copy":
            after[at] = Element(after[at].text)
        else:
            after[at] = Element(after[at].text + "'")
    return before, tuple(after)


@given(edited())
def test_the_changed_window_is_the_walk_from_both_ends(
    pair: tuple[tuple[Element, ...], tuple[Element, ...]],
) -> None:
    before, after = pair
    assert changed_window(before, after) == window_by_walking(before, after)


def test_an_equal_element_rebuilt_is_inside_the_window() -> None:
    a, b, c = Element("a"), Element("b"), Element("c")
    assert changed_window((a, b, c), (a, Element("b"), c)) == (1, 1)
    assert changed_window((a, b, c), (a, b, c)) == (3, 0)
    assert changed_window((), (a,)) == (0, 0)


def test_a_table_remembers_the_window_it_was_made_with() -> None:
    # the oracle: the window walked from both ends, against the columns the table was made
    # from (remembered through with_changes and at_version) and against any other tuple
    table = parse_table("CREATE TABLE t (a INT, b INT, c INT, d INT)")
    table.column("a")  # the lookup index built: with_changes patches it, finding the window
    cols = table.columns
    changed = table.with_columns((cols[0], attrs.evolve(cols[1], comment="x"), *cols[2:]))
    numbered = changed.at_version(2)
    for made in (changed, numbered):
        assert made.column_window(cols) == window_by_walking(cols, made.columns) == (1, 2)
    other = (cols[0], cols[1], cols[3])  # another tuple: computed, not the remembered one
    assert numbered.column_window(other) == window_by_walking(other, numbered.columns) == (1, 1)
    assert numbered.column_window(tuple(cols)) == (1, 2)  # (the same tuple object)


def test_a_placed_column_carries_every_field_as_evolve_does() -> None:
    """Column.placed spells its fields out; a sentinel in each (the fields are read from the
    class, so a new one counts too) must come through."""
    values: dict[str, Any] = {a.name: object() for a in attrs.fields(Column)}
    col = Column(**values)
    ctype: Any = object()
    assert col.placed(7, ctype) == attrs.evolve(col, id=7, type=ctype)
    state: Any = object()
    assert col.placed(7, ctype, state) == attrs.evolve(col, id=7, type=ctype, state=state)


def test_a_remade_table_sets_every_field_as_evolve_does() -> None:
    """Table._made fills the slots itself; each field given (read from the class, so a new
    one counts too) and each kept must be what ``attrs.evolve`` gives, the lookup index unset."""
    table = parse_table("CREATE TABLE t (a INT PRIMARY KEY, b TEXT, CHECK (a > 0)) ENGINE=InnoDB")
    table.column("a")  # builds the index, which a remade table must not carry
    fields = [f.name for f in attrs.fields(Table) if f.init]
    for name in fields:
        value: Any = [] if name in ("columns", "indexes", "checks") else object()
        made, evolved = table._made(**{name: value}), attrs.evolve(table, **{name: value})
        assert [getattr(made, f) for f in fields] == [getattr(evolved, f) for f in fields], name
        assert type(made.columns) is tuple and made._lookup is None and made._window is None
