"""The table value's helpers against plain oracles."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from mvdd.model.table import changed_window


class Element:
    """An element value: equal to another with the same text, identical only to itself."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Element) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)


def window_by_walking(before: tuple[Element, ...], after: tuple[Element, ...]) -> tuple[int, int]:
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
