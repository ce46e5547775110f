"""A small generic join-semilattice kernel. It knows nothing of MySQL.

A :class:`Lattice` orders values and joins them: ``compare(a, b)`` is -1, 0 or 1 (raising
:class:`Incomparable`), ``join(a, b)`` is their least upper bound (raising :class:`Conflict`), and
``join_all(values)`` joins any number at once. Errors carry the *path* to where the trouble is
(record field names, map keys) and the two values found there, so a caller can name the place.

The building blocks (after TiDB's ``util/schemacmp``, with errors that name the place):

======================  ===================================================================
``Flat(top=...)``       distinct values are incomparable (join: conflict); :data:`BOTTOM`
                        is below every value, an optional ``top`` above every value
``Max(key)``            a total order; join is the maximum (``Bool`` is False < True)
``Chain(values)``       a total order given by a list, smallest first
``Poset(greater)``      a finite partial order given by each value's greater values
``Prefix()``            sequences ordered by prefix (appending members is widening)
``Record(**fields)``    tuples, field by field
``Keyed(value, ...)``   maps; a key missing on one side stands for a given value
``Sum(lower, upper)``   two layers: every lower value sits below a given upper value
``Tagged(tags)``        a disjoint union of lattices, one per tag
``Checked(l, check)``   ``l`` whose joins must also pass ``check`` (else a conflict)
======================  ===================================================================

Values are plain hashable Python data (tuples, not dicts, inside records), so encodings can be
counted in a :class:`collections.Counter`.

>>> point = Record(x=Max(), y=Max())
>>> point.join((1, 5), (3, 2))
(3, 5)
>>> point.compare((1, 5), (3, 2))
Traceback (most recent call last):
...
mvdd.join.lattice.Incomparable: y is greater on the left, x on the right (at ())
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Any


class LatticeError(Exception):
    """Trouble at ``path`` between ``left`` and ``right`` (the values there)."""

    def __init__(
        self, message: str, path: tuple[Any, ...] = (), left: Any = None, right: Any = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.left = left
        self.right = right

    def at(self, key: Any) -> LatticeError:
        """The same error, one level further out (``key`` is prepended to the path)."""
        self.path = (key, *self.path)
        return self

    def __str__(self) -> str:
        return f"{self.message} (at {self.path})"


class Conflict(LatticeError):
    """Two values have no upper bound."""


class Incomparable(LatticeError):
    """Two values are not ordered."""


class _Sentinel:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name

    def __reduce__(self) -> str:
        return self.name


#: the least element of the lattices that have one (a value absent on one side)
BOTTOM: Any = _Sentinel("BOTTOM")


class Lattice:
    """A join-semilattice. Subclasses implement ``compare`` and ``join``; ``join_all`` folds
    ``join`` unless a subclass knows better (see :class:`Sum` and :class:`Keyed`)."""

    def compare(self, a: Any, b: Any) -> int:
        raise NotImplementedError

    def join(self, a: Any, b: Any) -> Any:
        raise NotImplementedError

    def join_all(self, values: Sequence[Any]) -> Any:
        """The join of one or more values: O(len(values)) joins."""
        out = values[0]
        for v in values[1:]:
            out = self.join(out, v)
        return out

    def leq(self, a: Any, b: Any) -> bool:
        """Whether ``a <= b`` (False when they are unordered)."""
        try:
            return self.compare(a, b) <= 0
        except Incomparable:
            return False


class Flat(Lattice):
    """Equal or incomparable; :data:`BOTTOM` is below every value and ``top`` (when given) above
    every value. Two different values join to a conflict, not to ``top``: ``top`` is a value the
    caller chose (such as "no constraint"), not a way out of disagreement.

    >>> Flat().join(BOTTOM, "a"), Flat().compare("a", "a"), Flat(top=None).join("a", None)
    ('a', 0, None)
    """

    _NO_TOP: Any = _Sentinel("NO_TOP")

    def __init__(self, *, top: Any = _NO_TOP) -> None:
        self.top = top

    def compare(self, a: Any, b: Any) -> int:
        if a == b:
            return 0
        if a is BOTTOM or (b is self.top and self.top is not self._NO_TOP):
            return -1
        if b is BOTTOM or (a is self.top and self.top is not self._NO_TOP):
            return 1
        raise Incomparable("different values", (), a, b)

    def join(self, a: Any, b: Any) -> Any:
        if a is BOTTOM or a == b:
            return b
        if b is BOTTOM:
            return a
        if self.top is not self._NO_TOP and (a is self.top or b is self.top):
            return self.top
        raise Conflict("different values", (), a, b)

    def join_all(self, values: Sequence[Any]) -> Any:
        """Two different values (neither bottom nor top) conflict whatever else joins in, so
        the outcome does not depend on the order."""
        has_top = self.top is not self._NO_TOP
        seen: list[Any] = []
        for v in values:
            if v is BOTTOM or (has_top and v is self.top) or v in seen:
                continue
            seen.append(v)
            if len(seen) > 1:
                raise Conflict("different values", (), seen[0], v)
        if has_top and any(v is self.top for v in values):
            return self.top
        return seen[0] if seen else BOTTOM


class Max(Lattice):
    """A total order (Python's ``<`` on the values, or on ``key(value)``); join is the maximum.

    >>> Max().join(3, 7), Max().compare(3, 7)
    (7, -1)
    """

    def __init__(self, key: Callable[[Any], Any] | None = None) -> None:
        self.key = key

    def compare(self, a: Any, b: Any) -> int:
        if self.key is not None:
            a, b = self.key(a), self.key(b)
        return (a > b) - (a < b)

    def join(self, a: Any, b: Any) -> Any:
        return a if self.compare(a, b) >= 0 else b


def Bool() -> Max:
    """False < True."""
    return Max()


class Chain(Max):
    """A total order given by a list, smallest first.

    >>> Chain(["tiny", "small", "big"]).join("small", "tiny")
    'small'
    """

    def __init__(self, values: Sequence[Hashable]) -> None:
        self.rank = {v: i for i, v in enumerate(values)}
        super().__init__(self.rank.__getitem__)


class Poset(Lattice):
    """A finite partial order, given by the values strictly greater than each value (values not
    mentioned are ordered only with themselves); :data:`BOTTOM` is below every value. The join
    of two values is their least common upper bound; none (or no single least one) is a
    conflict.

    >>> p = Poset({"latin1": {"utf8mb4"}, "utf8mb3": {"utf8mb4"}})
    >>> p.join("latin1", "utf8mb3"), p.compare("utf8mb4", "latin1")
    ('utf8mb4', 1)
    """

    def __init__(self, greater: Mapping[Hashable, Iterable[Hashable]]) -> None:
        self.greater = {k: frozenset(v) for k, v in greater.items()}

    def _up(self, v: Any) -> frozenset[Any]:
        return self.greater.get(v, frozenset()) | {v}

    def compare(self, a: Any, b: Any) -> int:
        if a == b:
            return 0
        if a is BOTTOM or b is BOTTOM:
            return -1 if a is BOTTOM else 1
        if b in self._up(a):
            return -1
        if a in self._up(b):
            return 1
        raise Incomparable("unordered values", (), a, b)

    def join(self, a: Any, b: Any) -> Any:
        if a == b or b is BOTTOM:
            return a
        if a is BOTTOM:
            return b
        common = self._up(a) & self._up(b)
        least = [c for c in common if common <= self._up(c)]
        if len(least) != 1:
            raise Conflict("no least common upper bound", (), a, b)
        return least[0]


class Prefix(Lattice):
    """Tuples ordered by prefix, ``(a, b) < (a, b, c)``; the join of two is the longer when one
    is a prefix of the other.

    >>> Prefix().join(("a",), ("a", "b"))
    ('a', 'b')
    """

    def compare(self, a: Any, b: Any) -> int:
        if a == b:
            return 0
        if len(a) < len(b) and tuple(b[: len(a)]) == tuple(a):
            return -1
        if len(b) < len(a) and tuple(a[: len(b)]) == tuple(b):
            return 1
        raise Incomparable("neither is a prefix of the other", (), a, b)

    def join(self, a: Any, b: Any) -> Any:
        try:
            return b if self.compare(a, b) < 0 else a
        except Incomparable as err:
            raise Conflict(err.message, (), a, b) from None


class Record(Lattice):
    """Tuples of named fields, each with its own lattice, ordered and joined field by field;
    errors name the field.

    >>> Record(n=Max(), s=Flat()).join((1, "x"), (2, "x"))
    (2, 'x')
    """

    def __init__(self, **fields: Lattice) -> None:
        self.names = tuple(fields)
        self.lattices = tuple(fields.values())

    def compare(self, a: Sequence[Any], b: Sequence[Any]) -> int:
        if a == b:
            return 0
        lower: str | None = None
        greater: str | None = None
        for name, lattice, x, y in zip(self.names, self.lattices, a, b, strict=True):
            try:
                c = lattice.compare(x, y)
            except Incomparable as err:
                raise err.at(name) from None
            if c < 0 and lower is None:
                lower = name
            elif c > 0 and greater is None:
                greater = name
            if lower is not None and greater is not None:
                raise Incomparable(
                    f"{greater} is greater on the left, {lower} on the right", (), a, b
                )
        return -1 if lower is not None else 1 if greater is not None else 0

    def join(self, a: Sequence[Any], b: Sequence[Any]) -> tuple[Any, ...]:
        if a == b:
            return tuple(a)
        out = []
        for name, lattice, x, y in zip(self.names, self.lattices, a, b, strict=True):
            try:
                out.append(lattice.join(x, y))
            except Conflict as err:
                raise err.at(name) from None
        return tuple(out)

    def join_all(self, values: Sequence[Any]) -> tuple[Any, ...]:
        if len(values) == 1:
            return tuple(values[0])
        out = []
        for i, (name, lattice) in enumerate(zip(self.names, self.lattices, strict=True)):
            try:
                out.append(lattice.join_all([v[i] for v in values]))
            except Conflict as err:
                raise err.at(name) from None
        return tuple(out)

    def field(self, value: Sequence[Any], name: str) -> Any:
        """The value of one field."""
        return value[self.names.index(name)]


class Keyed(Lattice):
    """Maps whose keys may be missing on one side, where a missing key stands for the value
    ``missing``; keys whose joined value is ``missing`` are left out of the result.

    With ``top_missing`` a missing key is above every value ("fewer is more permissive"). The
    n-ary :meth:`join_all` then first joins the values that are present, so two different
    present values conflict even when a third map lacks the key: the outcome does not depend on
    the order of the maps.

    >>> fewer_is_more = Keyed(Flat(), top_missing=True)
    >>> fewer_is_more.join({"k1": 1, "k2": 2}, {"k1": 1})
    {'k1': 1}
    """

    def __init__(self, value: Lattice, missing: Any = BOTTOM, *, top_missing: bool = False) -> None:
        self.value = value
        self.missing = missing
        self.top_missing = top_missing

    def compare(self, a: Mapping[Any, Any], b: Mapping[Any, Any]) -> int:
        lower: Any = None
        greater: Any = None
        found_lower = found_greater = False
        for key in sorted(a.keys() | b.keys(), key=repr):
            c = self.compare_key(a, b, key)
            if c < 0 and not found_lower:
                lower, found_lower = key, True
            elif c > 0 and not found_greater:
                greater, found_greater = key, True
            if found_lower and found_greater:
                raise Incomparable(
                    f"{greater!r} is greater on the left, {lower!r} on the right",
                    (),
                    a.get(greater, self.missing),
                    b.get(lower, self.missing),
                )
        return -1 if found_lower else 1 if found_greater else 0

    def compare_key(self, a: Mapping[Any, Any], b: Mapping[Any, Any], key: Any) -> int:
        """The order of two maps at one key."""
        miss = self.missing
        x, y = a.get(key, miss), b.get(key, miss)
        if self.top_missing and (x is miss or y is miss):
            return 0 if x is y else (1 if x is miss else -1)
        try:
            return self.value.compare(x, y)
        except Incomparable as err:
            raise err.at(key) from None

    def join(self, a: Mapping[Any, Any], b: Mapping[Any, Any]) -> dict[Any, Any]:
        return self.join_all([a, b])

    def join_all(self, values: Sequence[Mapping[Any, Any]]) -> dict[Any, Any]:
        keys: dict[Any, None] = {}
        for m in values:
            keys.update(dict.fromkeys(m))
        out = {}
        for key in keys:
            joined = self.join_key([m.get(key, self.missing) for m in values], key)
            if joined is not self.missing and joined != self.missing:
                out[key] = joined
        return out

    def join_key(self, values: Sequence[Any], key: Any = None) -> Any:
        """The join at one key of the values the maps hold there (``missing`` where absent)."""
        miss = self.missing
        present = [v for v in values if v is not miss and v != miss]
        if not present:
            return miss
        try:
            joined = self.value.join_all(present)
        except Conflict as err:
            raise err.at(key) from None
        if len(present) < len(values):
            joined = miss if self.top_missing else self.value.join(joined, miss)
        return joined


class Sum(Lattice):
    """Two layers: values ``(0, x)`` of ``lower`` and ``(1, y)`` of ``upper``, where every
    lower value sits just below the upper value ``link``: ``(0, x) <= (1, y)`` exactly when
    ``link <= y``, and ``(0, x) ⊔ (1, y) = (1, link ⊔ y)``. :meth:`join_all` joins each layer
    first, so a conflict between two lower values does not depend on the order.

    >>> s = Sum(Flat(), Max(), link=0)
    >>> s.join((0, "g"), (1, 5)), s.join((0, "g"), (1, -1)), s.compare((0, "g"), (1, 5))
    ((1, 5), (1, 0), -1)
    """

    def __init__(self, lower: Lattice, upper: Lattice, *, link: Any) -> None:
        self.lower = lower
        self.upper = upper
        self.link = link

    def compare(self, a: tuple[int, Any], b: tuple[int, Any]) -> int:
        (la, x), (lb, y) = a, b
        if la == lb:
            return (self.lower if la == 0 else self.upper).compare(x, y)
        if la == 0:
            if self.upper.leq(self.link, y):
                return -1
            raise Incomparable("the lower value is not below this upper value", (), a, b)
        if self.upper.leq(self.link, x):
            return 1
        raise Incomparable("the lower value is not below this upper value", (), a, b)

    def join(self, a: tuple[int, Any], b: tuple[int, Any]) -> tuple[int, Any]:
        return self.join_all([a, b])

    def join_all(self, values: Sequence[tuple[int, Any]]) -> tuple[int, Any]:
        lows = [x for layer, x in values if layer == 0]
        highs = [y for layer, y in values if layer == 1]
        low = self.lower.join_all(lows) if lows else None
        if not highs:
            return (0, low)
        high = self.upper.join_all(highs)
        if lows:
            high = self.upper.join(self.link, high)
        return (1, high)


class Tagged(Lattice):
    """A disjoint union: values ``(tag, x)`` where ``x`` belongs to the lattice of ``tag``;
    different tags are unordered (a conflict when joined). :data:`BOTTOM` is below every value.

    >>> t = Tagged({"n": Max(), "s": Flat()})
    >>> t.join(("n", 1), ("n", 4)), t.join(BOTTOM, ("s", "x"))
    (('n', 4), ('s', 'x'))
    """

    def __init__(self, tags: Mapping[Any, Lattice]) -> None:
        self.tags = dict(tags)

    def compare(self, a: Any, b: Any) -> int:
        if a is BOTTOM or b is BOTTOM:
            return 0 if a is b else (-1 if a is BOTTOM else 1)
        if a[0] != b[0]:
            raise Incomparable("kinds that do not widen into each other", (), a, b)
        return self.tags[a[0]].compare(a[1], b[1])

    def join(self, a: Any, b: Any) -> Any:
        return self.join_all([a, b])

    def join_all(self, values: Sequence[Any]) -> Any:
        present = [v for v in values if v is not BOTTOM]
        if not present:
            return BOTTOM
        tag = present[0][0]
        for v in present[1:]:
            if v[0] != tag:
                raise Conflict("kinds that do not widen into each other", (), present[0], v)
        if len(present) == 1:
            return present[0]
        return (tag, self.tags[tag].join_all([v[1] for v in present]))


class Checked(Lattice):
    """``inner`` whose joins must also pass ``check(value)``, which returns None or the reason
    the joined value cannot exist (a conflict). The reasons must only grow along the order, so
    a failing join stays failing when more values join in.

    >>> short = Checked(Max(), lambda v: "too long" if v > 10 else None)
    >>> short.join(3, 11)
    Traceback (most recent call last):
    ...
    mvdd.join.lattice.Conflict: too long (at ())
    """

    def __init__(self, inner: Lattice, check: Callable[[Any], str | None]) -> None:
        self.inner = inner
        self.check = check

    def compare(self, a: Any, b: Any) -> int:
        return self.inner.compare(a, b)

    def join(self, a: Any, b: Any) -> Any:
        return self._checked(self.inner.join(a, b), a, b)

    def join_all(self, values: Sequence[Any]) -> Any:
        return self._checked(self.inner.join_all(values), values[0], values[-1])

    def _checked(self, value: Any, a: Any, b: Any) -> Any:
        why = self.check(value)
        if why is not None:
            raise Conflict(why, (), a, b)
        return value


__all__ = [
    "BOTTOM",
    "Bool",
    "Chain",
    "Checked",
    "Conflict",
    "Flat",
    "Incomparable",
    "Keyed",
    "Lattice",
    "LatticeError",
    "Max",
    "Poset",
    "Prefix",
    "Record",
    "Sum",
    "Tagged",
]
