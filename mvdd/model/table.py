"""The table: an immutable value holding one version of one table's schema.

Changing a table yields a new value (``attrs.evolve``); a published version is never mutated.
Lookups by name are case-insensitive for columns and indexes, as in MySQL.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Iterable
from typing import Any, NamedTuple

import attrs

from mvdd.errors import DDLError, NoSuchColumnError, UnsupportedDDLError
from mvdd.model.element import (
    DELETABLE,
    NO_DEFAULT,
    READABLE,
    WRITABLE,
    Check,
    Column,
    Default,
    ElementKind,
    Expr,
    Index,
    IndexKind,
    State,
)
from mvdd.model.encoding import BEYOND_BMP, shown_text
from mvdd.model.frozen import draft
from mvdd.model.kind import LOB_FAMILIES, Family
from mvdd.model.names import check_key, check_word, fold_name, fold_names
from mvdd.model.text import sql_text
from mvdd.model.types import CHARSET_DEFAULT, charsetless, check_charset, resolve_charset

#: the row formats a server knows (ROW_FORMAT=…)
ROW_FORMATS = frozenset(
    {"DEFAULT", "DYNAMIC", "FIXED", "COMPRESSED", "REDUNDANT", "COMPACT", "PAGE"}
)


#: storage engines by any name the server takes for one, as it shows them: its own name in any
#: case, and the synonyms MariaDB keeps (HEAP, MERGE, INNOBASE, Maria). An engine not here keeps
#: the name it was given
ENGINE_NAMES = {
    **{
        name.upper(): name
        for name in (
            "InnoDB",
            "MyISAM",
            "Aria",
            "MEMORY",
            "MRG_MyISAM",
            "CSV",
            "ARCHIVE",
            "BLACKHOLE",
            "FEDERATED",
            "CONNECT",
            "SEQUENCE",
            "SPIDER",
            "ROCKSDB",
            "S3",
            "OQGRAPH",
            "Mroonga",
            "Columnstore",
        )
    },
    "HEAP": "MEMORY",
    "MERGE": "MRG_MyISAM",
    "INNOBASE": "InnoDB",
    "MARIA": "Aria",
}


#: the engine names a table of InnoDB has (None: the server's default engine, InnoDB)
INNODB: frozenset[str | None] = frozenset({None, "InnoDB"})


def canonical_engine(value: str | None) -> str | None:
    """The name the server shows for a storage engine named ``value``.

    >>> canonical_engine("heap"), canonical_engine("innodb"), canonical_engine("Mine")
    ('MEMORY', 'InnoDB', 'Mine')
    """
    return ENGINE_NAMES.get(value.upper(), value) if isinstance(value, str) else value


def _engine(_: Any, __: Any, value: str | None) -> None:
    check_word(value, "storage engine")


def _row_format(_: Any, __: Any, value: str | None) -> None:
    if value is not None and value not in ROW_FORMATS:
        raise DDLError(f"unknown ROW_FORMAT {value!r} (one of {sorted(ROW_FORMATS)})")


def _charset_pair(options: TableOptions, _: Any, __: Any) -> None:
    check_charset(options.charset, options.collation)


def _extra(_: Any, __: Any, value: tuple[tuple[str, str], ...]) -> None:
    for key, _v in value:
        check_word(key, "table option")


@attrs.frozen(kw_only=True)
class TableOptions:
    """Table options. ``charset``/``collation`` are the defaults for new string columns (None:
    the database's default, unknown to mvdd); ``extra`` keeps other options as (NAME, value).

    Every field that DDL carries unquoted is checked here, so a value built in code can never
    inject SQL: the engine and option names are words, the row format one the server knows,
    the charset and collation known and matching (DDLError otherwise). The engine is kept by
    the name the server shows (:func:`canonical_engine`: ``ENGINE=heap`` is ``MEMORY``)."""

    engine: str | None = attrs.field(default=None, converter=canonical_engine, validator=_engine)
    charset: str | None = attrs.field(default=None, validator=_charset_pair)
    collation: str | None = attrs.field(default=None, validator=_charset_pair)
    comment: str | None = None
    auto_increment: int | None = None
    row_format: str | None = attrs.field(default=None, validator=_row_format)
    extra: tuple[tuple[str, str], ...] = attrs.field(default=(), validator=_extra)
    #: MariaDB's ``WITH SYSTEM VERSIONING``: the server keeps each row's past versions, and
    #: every row (current or past) holds two hidden columns, ``row_start`` and ``row_end``
    #: (:data:`PERIOD_COLUMNS`), after the others
    versioned: bool = False

    @property
    def sequence(self) -> bool:
        """Whether the table is a MariaDB sequence (``SEQUENCE=1``: :mod:`mvdd.ddl.sequence`)."""
        return bool(self.extra) and (SEQUENCE_OPTION, "1") in self.extra

    def with_options(self, pairs: Iterable[tuple[str, Any]]) -> TableOptions:
        """These options after setting (NAME, value) pairs, as a statement's table options
        do. ``CHARSET`` and ``COLLATE`` resolve together: either alone sets both, as in MySQL.
        An option of the others (``extra``) set to None is gone (``SEQUENCE=0``).

        >>> TableOptions().with_options([("CHARSET", "latin1"), ("COMMENT", "c")]).collation
        'latin1_swedish_ci'
        """
        fields: dict[str, Any] = {}
        extra = dict(self.extra)
        given: dict[str, Any] = {}
        for key, value in pairs:
            if key in ("CHARSET", "COLLATE"):
                given[key] = value
            elif key in _OPTION_FIELDS:
                fields[_OPTION_FIELDS[key]] = value
            elif value is None:
                extra.pop(key, None)
            else:
                extra[key] = value
        if given:
            charset = given.get("CHARSET")
            if given.get("COLLATE") == CHARSET_DEFAULT:
                # (COLLATE DEFAULT: the default collation of the charset given, else the table's)
                del given["COLLATE"]
                charset = charset if charset is not None else self.charset
                if charset is None:
                    raise UnsupportedDDLError(
                        "COLLATE DEFAULT without a CHARACTER SET takes the default collation of "
                        "the table's charset, which is not known (a catalog given its "
                        "database's: Catalog(charset=…))"
                    )
            if charset is None and charsetless(given.get("COLLATE")):
                # (a collation named without its charset: the one of that name of the table's)
                charset = self.charset
                if charset is None:
                    raise UnsupportedDDLError(
                        f"COLLATE {given['COLLATE']} without a CHARACTER SET takes the table's "
                        "charset, which is not known (a catalog given its database's: "
                        "Catalog(charset=…))"
                    )
            fields["charset"], fields["collation"] = resolve_charset(charset, given.get("COLLATE"))
        if "auto_increment" in fields:
            fields["auto_increment"] = int(fields["auto_increment"])
        return attrs.evolve(self, extra=tuple(sorted(extra.items())), **fields)


#: the table option that makes a table a MariaDB sequence, as the server shows it
SEQUENCE_OPTION = "SEQUENCE"

#: the hidden columns of a system-versioned table (``WITH SYSTEM VERSIONING`` without columns
#: of its own for its period), after every other column of each row, as its server names them:
#: no statement may name a column so, nor a column be renamed so, in such a table
PERIOD_COLUMNS = ("row_start", "row_end")


def period_columns(table: Table) -> tuple[Column, Column] | None:
    """A system-versioned table's own ROW START and ROW END columns (its ``PERIOD FOR
    SYSTEM_TIME``), or None (none, or not both)."""
    if not table.options.versioned:
        return None
    found = {c.row_period: c for c in table.columns if c.row_period is not None}
    start, end = found.get("START"), found.get("END")
    return (start, end) if start is not None and end is not None else None


#: a versioned table's option
VERSIONING_OPTION = "SYSTEM VERSIONING"

#: table options kept in fields of their own (the rest stay in ``extra``)
_OPTION_FIELDS = {
    VERSIONING_OPTION: "versioned",
    "ENGINE": "engine",
    "COMMENT": "comment",
    "AUTO_INCREMENT": "auto_increment",
    "ROW_FORMAT": "row_format",
}


_new = object.__new__


def _tuple(value: Iterable[Any]) -> tuple[Any, ...]:
    return tuple(value)


class ColumnTally(NamedTuple):
    """Sums over a table's columns that statement-level rules read (row size, AUTO_INCREMENT,
    expressions to check). A table counts it on first use and keeps it with its lookup index;
    :meth:`Table.with_changes` patches it over the changed window: the cost follows the change,
    not the table's width."""

    #: bytes of the row image's fixed part (a virtual generated column takes none)
    row_bytes: int = 0
    nullable: int = 0
    generated: int = 0
    auto_increment: int = 0
    #: columns with a CHECK of their own
    checks: int = 0
    invisible: int = 0
    #: columns whose DEFAULT is an expression that may name a column (``DEFAULT (a + 1)``: its
    #: text quotes an identifier, which a ``CURRENT_TIMESTAMP`` does not)
    defaults: int = 0
    #: stored columns InnoDB may keep off its page whatever their length (a TEXT, a BLOB, a
    #: JSON, a GEOMETRY: :mod:`mvdd.ddl.records`)
    lobs: int = 0

    @property
    def expressions(self) -> int:
        """The columns holding an expression that may name other columns: generated ones,
        those with a CHECK of their own, those with a DEFAULT expression."""
        return self.generated + self.checks + self.defaults

    def plus(self, came: Iterable[Column], gone: Iterable[Column] = ()) -> ColumnTally:
        """This tally with the columns ``came`` added and those ``gone`` taken away, in one
        pass and one new tally (a statement that redefines a column does both)."""
        row_bytes, nullable, generated, auto, checks, invisible, defaults, lobs = self
        for sign, columns in ((1, came), (-1, gone)):
            for col in columns:
                gen = col.generated
                if gen is None or gen.stored:
                    ctype = col.type
                    row_bytes += sign * ctype.row_size
                    lobs += sign * (ctype.family in OFF_PAGE)
                nullable += sign * col.nullable
                generated += sign * (gen is not None)
                auto += sign * col.auto_increment
                checks += sign * (col.check is not None)
                invisible += sign * col.invisible
                defaults += sign * (type(col.default) is Expr and "`" in col.default.sql)
        # (the tuple made directly: a NamedTuple's own __new__ is a Python call)
        return _tuple_new(
            ColumnTally, (row_bytes, nullable, generated, auto, checks, invisible, defaults, lobs)
        )


#: the families InnoDB may keep off its page whatever their length (:attr:`ColumnTally.lobs`)
OFF_PAGE = LOB_FAMILIES | {Family.SPATIAL}


_tuple_new = tuple.__new__


def is_long_unique(index: Index) -> bool:
    """A MariaDB long unique key: a UNIQUE index kept as a hash of the values (``USING
    HASH``), which adds one hidden ``DB_ROW_HASH_n`` column at the end of the row image."""
    return index.kind == IndexKind.UNIQUE and (index.using or "").upper() == "HASH"


def changed_window(before: tuple[Any, ...], after: tuple[Any, ...]) -> tuple[int, int]:
    """(p, s): the lengths of the longest common prefix and suffix of two tuples of elements,
    element by element *identical* (not merely equal), with ``p + s <= min(len(before),
    len(after))``. What changed lies in ``before[p:len(before)-s]`` and
    ``after[p:len(after)-s]``. An element no step touched is the very object the version
    before held, so this is the window a change touched (an equal element a step rebuilt is
    inside it: every caller then compares it by value). Two scans of ``operator.is_not`` in C,
    each stopping at its first difference (one from the front, one from the back: about one
    pass in all, with no list built): no element's ``__eq__`` runs, and no Python step per
    element.

    >>> a, b, c, d, e = (object() for _ in range(5))
    >>> changed_window((a, b, c, d), (a, b, e, d)), changed_window((a, b), (a, b, c))
    ((2, 1), (2, 0))
    >>> changed_window((a, b), (c, a, b)), changed_window((a, b, c), (a, c))
    ((0, 2), (1, 1))
    """
    shortest = min(len(before), len(after))
    # the index of the first element that differs (the end of the shorter tuple: none does)
    prefix = next(
        itertools.compress(itertools.count(), map(operator.is_not, before, after)), shortest
    )
    if prefix == shortest:
        return prefix, 0
    tail = next(
        itertools.compress(
            itertools.count(), map(operator.is_not, reversed(before), reversed(after))
        ),
        shortest,
    )
    return prefix, min(tail, shortest - prefix)


_NAME = operator.attrgetter("name")
_ID = operator.attrgetter("id")


def position_by_name(elements: tuple[Any, ...], name: str) -> int | None:
    """Where the element named ``name`` (case-insensitive, as MySQL compares column and index
    names) stands in ``elements``; None when none is. The names are folded and searched in C.

    >>> from mvdd.model.types import ColumnType
    >>> cols = tuple(Column(id=i, name=n, type=ColumnType.of("int")) for i, n in enumerate("ab"))
    >>> position_by_name(cols, "B"), position_by_name(cols, "c")
    (1, None)
    """
    folded = list(fold_names(map(_NAME, elements)))
    try:
        return folded.index(fold_name(name))
    except ValueError:
        return None


#: where a table keeps each kind of element
_ELEMENTS = {
    ElementKind.COLUMN: "columns",
    ElementKind.INDEX: "indexes",
    ElementKind.CHECK: "checks",
}
Element = Column | Index | Check


@attrs.frozen(kw_only=True)
class Table:
    """One version of a table's schema.

    Attributes:
        name: the table's name.
        id: stable identity in a catalog (0 outside one); survives renames.
        version: 1 after CREATE, one more per DDL statement.
        columns: every column not ABSENT, in order, whatever its F1 state.
        indexes: every index not ABSENT.
        checks: table CHECK constraints.
        options: table options.
        last_id: highest element id ever used in this table; new elements take the next ones,
            so a dropped element's id is never reused.

    >>> from mvdd.model.types import ColumnType
    >>> t = Table(name="t", columns=[Column(id=1, name="a", type=ColumnType.of("int"))], last_id=1)
    >>> t.column("A").id
    1
    """

    name: str
    id: int = 0
    version: int = 1
    columns: tuple[Column, ...] = attrs.field(converter=_tuple)
    indexes: tuple[Index, ...] = attrs.field(default=(), converter=_tuple)
    checks: tuple[Check, ...] = attrs.field(default=(), converter=_tuple)
    options: TableOptions = TableOptions()
    last_id: int = 0
    _lookup: Any = attrs.field(default=None, init=False, eq=False, hash=False, repr=False)
    #: (the columns this table was made from, the window that changed): see :meth:`column_window`
    _window: Any = attrs.field(default=None, init=False, eq=False, hash=False, repr=False)

    def with_columns(
        self, columns: tuple[Column, ...], *, window: tuple[int, int] | None = None, **changes: Any
    ) -> Table:
        """This table with other columns (and other changes); see :meth:`with_changes`."""
        return self.with_changes(columns=columns, window=window, **changes)

    def with_changes(self, *, window: tuple[int, int] | None = None, **changes: Any) -> Table:
        """``attrs.evolve(self, **changes)`` that carries the lookup index over, when built:
        patched for the columns that changed (the window between their common prefix and
        suffix), the index and check maps rebuilt only when those changed. A statement then
        costs what it changed, not the table's width.

        ``window``: the (prefix, suffix) of the new columns that are the very objects of this
        table's, when the caller knows it (a step that put a column at a known place): it is
        taken rather than found again by a walk. Any window holding every changed place is
        right; a test holds each step's to the one :func:`changed_window` finds.
        """
        old = self._lookup
        made_window = lookup = None
        if "columns" in changes:
            before = self.columns
            after = changes["columns"] = tuple(changes["columns"])
            if window is not None or old is not None:
                p, s = changed_window(before, after) if window is None else window
                made_window = (before, p, s)
        if old is not None:
            names, ids, indexes, checks, tally = old
            if "columns" in changes and (p + s < len(before) or p + s < len(after)):
                # dict.copy clones a dict with holes (a dropped entry) whole; dict() re-inserts
                names, ids = names.copy(), ids.copy()
                gone, came = before[p : len(before) - s], after[p : len(after) - s]
                for col in gone:
                    names.pop(fold_name(col.name), None)
                    ids.pop(col.id, None)
                for col in came:
                    names[fold_name(col.name)] = col
                    ids[col.id] = col
                if tally is not None:
                    tally = tally.plus(came, gone)
            # (an index or check map is rebuilt only when an element changed: a step passes
            # the very elements on when it touched none of them)
            if "indexes" in changes:
                made = changes["indexes"] = tuple(changes["indexes"])
                if not _same(made, self.indexes):
                    indexes = dict(zip(fold_names(map(_NAME, made)), made, strict=True))
            if "checks" in changes:
                made = changes["checks"] = tuple(changes["checks"])
                if not _same(made, self.checks):
                    checks = _first_by_name(made)
            lookup = (names, ids, indexes, checks, tally)
        return self._made(lookup=lookup, window=made_window, **changes)

    def at_version(self, version: int) -> Table:
        """This schema numbered ``version`` (its lookup index is shared: same elements)."""
        return self._made(version=version, lookup=self._lookup, window=self._window)

    def column_window(self, base: tuple[Column, ...]) -> tuple[int, int]:
        """:func:`changed_window` of ``base`` and this table's columns: the one
        :meth:`with_changes` found when it made this table from ``base`` (the very tuple), so
        applying a statement, validating it and diffing its rows find it once."""
        window = self._window
        if window is not None and window[0] is base:
            return window[1], window[2]
        return changed_window(base, self.columns)

    @property
    def indexed(self) -> bool:
        """Whether this value's lookup index is built (see :meth:`forget_index`)."""
        return self._lookup is not None

    def forget_index(self) -> None:
        """Let this value's lookup index go (a cache, not part of the value: the next lookup
        builds it again, and answers as before). A catalog's history lets the index of each
        version older than the one before a table's head go this way, in place (a new value
        without it would cost a table's construction per statement): such versions are read
        rarely, and a kept index costs memory and, at every garbage collection that reaches
        it, a visit to each of its entries (two maps as wide as the table per version).

        >>> from mvdd.model.types import ColumnType
        >>> t = Table(name="t", columns=[Column(id=1, name="a", type=ColumnType.of("int"))])
        >>> t.column("a").id, t.indexed, t.forget_index(), t.indexed, t.column("A").id
        (1, True, None, False, 1)
        """
        object.__setattr__(self, "_lookup", None)

    def _made(
        self,
        *,
        name: str | None = None,
        id: int | None = None,
        version: int | None = None,
        columns: tuple[Column, ...] | None = None,
        indexes: tuple[Index, ...] | None = None,
        checks: tuple[Check, ...] | None = None,
        options: TableOptions | None = None,
        last_id: int | None = None,
        lookup: Any = None,
        window: Any = None,
    ) -> Table:
        """This table with the fields given changed, and the lookup index and window given
        (none by default): ``attrs.evolve`` without its walk over the fields, and the slots
        filled as a plain object's rather than through the frozen class's ``__init__`` (a table
        is made several times per statement: :func:`~mvdd.model.frozen.draft`; a test holds
        every field to what ``attrs.evolve`` gives)."""
        out: Any = _new(_DRAFT)
        out.name = self.name if name is None else name
        out.id = self.id if id is None else id
        out.version = self.version if version is None else version
        out.columns = self.columns if columns is None else tuple(columns)
        out.indexes = self.indexes if indexes is None else tuple(indexes)
        out.checks = self.checks if checks is None else tuple(checks)
        out.options = self.options if options is None else options
        out.last_id = self.last_id if last_id is None else last_id
        out._lookup = lookup
        out._window = window
        out.__class__ = Table
        return out

    # -- lookups (O(1) after the first, which builds the index in O(elements)) --------------------

    def _index(
        self,
    ) -> tuple[
        dict[str, Column],
        dict[int, Column],
        dict[str, Index],
        dict[str, Check],
        ColumnTally | None,
    ]:
        lookup = self._lookup
        if lookup is None:
            # map/zip keep the loops in C: wide tables get a new version per statement
            cols = self.columns
            lookup = (
                dict(zip(fold_names(map(_NAME, cols)), cols, strict=True)),
                dict(zip(map(_ID, cols), cols, strict=True)),
                dict(zip(fold_names(map(_NAME, self.indexes)), self.indexes, strict=True)),
                _first_by_name(self.checks),
                None,  # the column tally: counted when first asked for (column_tally)
            )
            object.__setattr__(self, "_lookup", lookup)
        return lookup

    def column_tally(self) -> ColumnTally:
        """The sums over this table's columns that statement-level rules read."""
        lookup = self._index()
        tally = lookup[4]
        if tally is None:
            tally = ColumnTally().plus(self.columns)
            object.__setattr__(self, "_lookup", (*lookup[:4], tally))
        return tally

    def find_column(self, name: str) -> Column | None:
        """The column named ``name`` (case-insensitive), or None."""
        return self._index()[0].get(fold_name(name))

    def column(self, name: str) -> Column:
        """The column named ``name`` (case-insensitive); raises NoSuchColumnError."""
        col = self.find_column(name)
        if col is None:
            raise NoSuchColumnError("no such column", table=self.name, column=name)
        return col

    def column_position(self, col: Column) -> int:
        """Where ``col`` (the very object this table holds, as its lookups return it) stands in
        :attr:`columns`: one pass by identity, no column's ``__eq__`` (a tuple's ``index``
        compares every column before it by value). A plain loop: it starts at once where a
        pass in C through ``operator.is_`` builds three iterators first, and is no slower
        per column (0.10 against 0.26 µs to the first column, 1.26 against 1.44 to the
        101st). NoSuchColumnError when it holds no such object.

        >>> from mvdd.model.types import ColumnType
        >>> int_ = ColumnType.of("int")
        >>> cols = [Column(id=i, name=n, type=int_) for i, n in enumerate("ab")]
        >>> t = Table(name="t", columns=cols)
        >>> z = Column(id=0, name="z", type=int_)
        >>> t.column_position(t.column("B")), t.replacing_column(t.column("a"), z).column_names
        (1, ('z', 'b'))
        """
        for at, held in enumerate(self.columns):
            if held is col:
                return at
        raise NoSuchColumnError("not a column of this table", table=self.name, column=col.name)

    def replacing_column(self, old: Column, new: Column) -> Table:
        """This table with its column ``old`` (the very object it holds) replaced by ``new`` in
        the same place."""
        cols = self.columns
        at = self.column_position(old)
        columns = cols[:at] + (new,) + cols[at + 1 :]  # noqa: RUF005 (unpacking copies twice)
        return self.with_columns(columns, window=(at, len(cols) - at - 1))

    def column_by_id(self, column_id: int) -> Column:
        """The column with this id; raises NoSuchColumnError."""
        col = self._index()[1].get(column_id)
        if col is None:
            raise NoSuchColumnError("no such column", table=self.name, column=f"#{column_id}")
        return col

    def find_index(self, name: str) -> Index | None:
        """The index named ``name`` (case-insensitive), or None."""
        return self._index()[2].get(fold_name(name))

    def find_check(self, name: str) -> Check | None:
        """The first check named ``name`` (case-insensitive), or None: the one a ``DROP`` of
        the name drops (see :meth:`check_named`)."""
        return self._index()[3].get(fold_name(name))

    def check_named(self, name: str) -> Check | None:
        """The check MariaDB holds to be named ``name``, or None: one whose name folds alike
        and is as long in UTF-8. The server compares two checks' names only when their lengths
        are equal, so it holds a check ``İ`` (two bytes) beside a check ``i`` (one), or the
        Kelvin sign's beside ``k``, where a ``DROP`` of either name finds the first
        (:meth:`find_check`); columns and keys have no such pairs."""
        first = self.find_check(name)
        if first is None or first.name == name:
            return first
        return self.check_by_key(check_key(name))

    def check_by_key(self, key: str) -> Check | None:
        """The check MariaDB knows by ``key`` (:func:`~mvdd.model.names.check_key`), or None."""
        return next((c for c in self.checks if check_key(c.name) == key), None)

    def elements(
        self, kind: ElementKind
    ) -> tuple[Column, ...] | tuple[Index, ...] | tuple[Check, ...]:
        """The table's columns, indexes or checks."""
        return getattr(self, _ELEMENTS[ElementKind(kind)])  # type: ignore[no-any-return]

    def find_element(self, kind: ElementKind, element_id: int) -> Column | Index | Check | None:
        """The column, index or check with this id, or None. O(elements)."""
        return next((e for e in self.elements(kind) if e.id == element_id), None)

    @property
    def column_names(self) -> tuple[str, ...]:
        return tuple(col.name for col in self.columns)

    @property
    def primary_key(self) -> Index | None:
        return next((i for i in self.indexes if i.kind == IndexKind.PRIMARY), None)

    @property
    def row_key_index(self) -> Index | None:
        """The index that identifies a row: the primary key, else InnoDB's implicit one, the
        first UNIQUE key over NOT NULL columns whole (no prefix); None: neither."""
        for index in self.indexes:
            if index.kind == IndexKind.PRIMARY:
                return index
        for index in self.indexes:
            if index.kind == IndexKind.UNIQUE and all(
                not p.length and not self.column_by_id(p.column_id).nullable for p in index.parts
            ):
                return index
        return None

    def index_column_names(self, index: Index) -> tuple[str, ...]:
        """The names, in this version, of the columns an index covers."""
        return tuple(self.column_by_id(part.column_id).name for part in index.parts)

    # -- F1 views -----------------------------------------------------------------------------

    def _columns_in(self, states: frozenset[State]) -> tuple[Column, ...]:
        return tuple(col for col in self.columns if col.state in states)

    def _indexes_in(self, states: frozenset[State]) -> tuple[Index, ...]:
        return tuple(idx for idx in self.indexes if idx.state in states)

    @property
    def public_columns(self) -> tuple[Column, ...]:
        """Columns DML may read and name."""
        return self._columns_in(READABLE)

    @property
    def writable_columns(self) -> tuple[Column, ...]:
        """Columns inserts and updates write (write-only, write-reorg, public)."""
        return self._columns_in(WRITABLE)

    @property
    def deletable_columns(self) -> tuple[Column, ...]:
        """Columns whose data deletes remove (every state but absent)."""
        return self._columns_in(DELETABLE)

    @property
    def public_indexes(self) -> tuple[Index, ...]:
        return self._indexes_in(READABLE)

    @property
    def writable_indexes(self) -> tuple[Index, ...]:
        return self._indexes_in(WRITABLE)

    @property
    def deletable_indexes(self) -> tuple[Index, ...]:
        return self._indexes_in(DELETABLE)

    # -- charsets -----------------------------------------------------------------------------

    def column_collation(self, column: Column) -> tuple[str | None, str | None]:
        """(charset, collation) a string column uses: its own, else the table's default
        (None when neither is known); (None, None) for non-string columns."""
        if not column.type.has_charset:
            return None, None
        if column.type.collation is not None:
            return column.type.charset, column.type.collation
        return self.options.charset, self.options.collation

    # -- rendering and comparison -------------------------------------------------------------

    def to_sql(self) -> str:
        """This table as one MySQL ``CREATE TABLE`` statement, every identifier quoted; a
        ``database.table`` name (a replica's catalog's, or a name given with its database) as
        the two names, `` `shop`.`orders` ``: the first dot separates the database, as the
        catalog reads a name (a table's own name never holds one without its database).

        ``parse_table(t.to_sql(), replica=True)`` is equivalent to ``t`` (and so is
        ``parse_table(t.to_sql())`` of a table that mvdd's own, stricter rules take).
        """
        return sql_text(self)  # rendered by the ddl layer (mvdd.model.text)

    def same_as_shown(self, other: Table) -> bool:
        """Equal, and each column of the same display width (:meth:`Column.same_as_shown`):
        a statement whose table is not the same as shown as the one before it changed it."""
        return self == other and all(map(Column.same_as_shown, self.columns, other.columns))

    def equivalent(self, other: Table, *, ignore_order: bool = True) -> bool:
        """Whether the two tables accept the same DML with the same effect.

        Compares columns (name, type with charset and collation, nullability, default,
        generated expression, ON UPDATE, AUTO_INCREMENT, column CHECK, invisibility, MariaDB's
        WITHOUT SYSTEM VERSIONING and AS ROW START / END), indexes (name, kind, column names,
        prefix lengths and directions in order), checks (name, expression, enforcement) and
        MariaDB's system versioning (which keeps each row's past versions). Ignores the
        table's name, ids, versions, comments, other options, integer display widths and, if
        ``ignore_order``, column order and the order of checks whose names fold
        alike (which one a DROP of the name finds). A nullable column without DEFAULT equals
        one with ``DEFAULT NULL``. A string column whose charset follows an unknown database
        default equals one that follows its own table's default.
        """
        return not self.differences(other, ignore_order=ignore_order)

    def differences(self, other: Table, *, ignore_order: bool = True) -> list[str]:
        """What :meth:`equivalent` finds different, one line per difference (empty: equivalent)."""
        out: list[str] = []
        mine = {fold_name(c.name): c for c in self.columns}
        theirs = {fold_name(c.name): c for c in other.columns}
        for key in sorted(mine.keys() | theirs.keys()):
            a, b = mine.get(key), theirs.get(key)
            if a is None or b is None:
                present = "left" if b is None else "right"
                out.append(f"column `{(a or b).name}` only on the {present}")  # type: ignore[union-attr]
                continue
            out.extend(f"column `{a.name}`: {d}" for d in _column_differences(self, a, other, b))
        if (
            not ignore_order
            and not out
            and [fold_name(n) for n in self.column_names]
            != [fold_name(n) for n in other.column_names]
        ):
            out.append(f"column order {list(self.column_names)} != {list(other.column_names)}")
        out.extend(_index_differences(self, other))
        out.extend(_check_differences(self, other))
        if self.options.versioned != other.options.versioned:
            out.append(
                f"system versioning {self.options.versioned!r} != {other.options.versioned!r}"
            )
        if not ignore_order and not out:
            mine_alike, theirs_alike = _alike_checks(self), _alike_checks(other)
            if mine_alike != theirs_alike:
                out.append(f"order of checks {mine_alike} != {theirs_alike}")
        return out


#: what :meth:`Table._made` fills (:func:`~mvdd.model.frozen.draft`)
_DRAFT = draft(Table)


def _same_charset(ta: Table, a: Column, tb: Table, b: Column) -> bool:
    ca, cb = ta.column_collation(a), tb.column_collation(b)
    if ca == cb:
        return True
    # an unknown default on one side matches a column that follows its own table's default
    if ca == (None, None):
        return cb == (tb.options.charset, tb.options.collation)
    if cb == (None, None):
        return ca == (ta.options.charset, ta.options.collation)
    return False


def _comparable_default(col: Column) -> Default:
    if col.generated is not None or col.auto_increment:
        return NO_DEFAULT
    return col.effective_default


def _column_differences(ta: Table, a: Column, tb: Table, b: Column) -> list[str]:
    out = []
    if a.name != b.name:
        out.append(f"name {a.name!r} != {b.name!r}")
    ya, yb = a.type.with_charset(None, None), b.type.with_charset(None, None)
    if ya != yb:
        out.append(f"type {ya} != {yb}")
    if not _same_charset(ta, a, tb, b):
        out.append(f"charset {ta.column_collation(a)} != {tb.column_collation(b)}")
    pairs = (
        ("nullable", a.nullable, b.nullable),
        ("default", _comparable_default(a), _comparable_default(b)),
        ("generated", a.generated, b.generated),
        ("on update", a.on_update, b.on_update),
        ("auto_increment", a.auto_increment, b.auto_increment),
        ("check", a.check, b.check),
        ("invisible", a.invisible, b.invisible),
        ("without system versioning", a.unversioned, b.unversioned),
        ("generated always as row", a.row_period, b.row_period),
    )
    for label, x, y in pairs:
        if x != y:
            out.append(f"{label} {x!r} != {y!r}")
    return out


def _same(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    """Whether two tuples hold the very same elements (identical, not merely equal)."""
    return len(a) == len(b) and all(map(operator.is_, a, b))


def _first_by_name(checks: tuple[Check, ...]) -> dict[str, Check]:
    """Checks by folded name, the first of a name where two fold alike (Table.check_named)."""
    return dict(zip(fold_names(map(_NAME, checks[::-1])), checks[::-1], strict=True))


def _index_signature(table: Table, index: Index) -> tuple[Any, ...]:
    parts = tuple(
        (fold_name(table.column_by_id(p.column_id).name), p.length, p.desc) for p in index.parts
    )
    return (index.kind, parts)


def _index_differences(a: Table, b: Table) -> list[str]:
    mine = {fold_name(i.name): i for i in a.indexes}
    theirs = {fold_name(i.name): i for i in b.indexes}
    out = []
    for key in sorted(mine.keys() | theirs.keys()):
        x, y = mine.get(key), theirs.get(key)
        if x is None or y is None:
            out.append(f"index `{(x or y).name}` only on the {'left' if y is None else 'right'}")  # type: ignore[union-attr]
        elif _index_signature(a, x) != _index_signature(b, y):
            out.append(f"index `{x.name}`: {_index_signature(a, x)} != {_index_signature(b, y)}")
    return out


def _alike_checks(table: Table) -> dict[str, list[str]]:
    """The checks whose names fold alike (``İ`` and ``i``), each by :func:`check_key`, in the
    table's order, by folded name: which of them a ``DROP CONSTRAINT`` of the name drops (the
    first)."""
    groups: dict[str, list[str]] = {}
    for chk in table.checks:
        groups.setdefault(fold_name(chk.name), []).append(check_key(chk.name))
    return {folded: names for folded, names in groups.items() if len(names) > 1}


def _check_differences(a: Table, b: Table) -> list[str]:
    mine = {check_key(c.name): c for c in a.checks}
    theirs = {check_key(c.name): c for c in b.checks}
    out = []
    for key in sorted(mine.keys() | theirs.keys()):
        x, y = mine.get(key), theirs.get(key)
        if x is None or y is None:
            out.append(f"check `{(x or y).name}` only on the {'left' if y is None else 'right'}")  # type: ignore[union-attr]
        elif (x.expr, x.enforced) != (y.expr, y.enforced):
            out.append(f"check `{x.name}`: {(x.expr, x.enforced)} != {(y.expr, y.enforced)}")
    return out


#: the families whose literal DEFAULT the server keeps as an expression (in the table's
#: charset, and written as kept by SHOW CREATE TABLE)
DEFAULT_AS_EXPRESSION = frozenset({Family.TEXT, Family.BLOB, Family.JSON})


def as_shown(table: Table) -> Table:
    """``table`` as its server's ``SHOW CREATE TABLE`` writes it: each character beyond the
    Basic Multilingual Plane (and each byte its charset does not read) of an ENUM or SET
    member (shown without the trailing spaces a conversion may leave it), a literal DEFAULT
    of a CHAR, VARCHAR,
    ENUM or SET, or a comment (of a column, a key, the table) a ``?``, as MariaDB writes them
    (its table keeps the characters; its expressions, generated, DEFAULT or CHECK, and a TEXT's
    DEFAULT, which it keeps as one, keep them in that text too); a sequence's without its
    default charset, which the server keeps but does not show. A table without such a
    character is itself.

    >>> from mvdd.model.types import ColumnType
    >>> t = Table(name="t", columns=[Column(id=1, name="a", type=ColumnType.of("int"),
    ...                                     comment="ok 😀")])
    >>> as_shown(t).columns[0].comment, as_shown(as_shown(t)) == as_shown(t)
    ('ok ?', True)
    """

    def column(col: Column) -> Column:
        t = col.type
        changes: dict[str, Any] = {}
        shown = tuple(shown_text(m).rstrip(" ") for m in t.members)
        if shown != t.members:
            changes["type"] = attrs.evolve(t, members=shown)
        if (
            isinstance(col.default, str)
            and t.family not in DEFAULT_AS_EXPRESSION
            and BEYOND_BMP.search(col.default)
        ):
            changes["default"] = shown_text(col.default)
        if col.comment is not None and BEYOND_BMP.search(col.comment):
            changes["comment"] = shown_text(col.comment)
        return attrs.evolve(col, **changes) if changes else col

    def index(idx: Index) -> Index:
        if idx.comment is None or not BEYOND_BMP.search(idx.comment):
            return idx
        return attrs.evolve(idx, comment=shown_text(idx.comment))

    options = table.options
    if options.comment is not None and BEYOND_BMP.search(options.comment):
        options = attrs.evolve(options, comment=shown_text(options.comment))
    if options.sequence and options.charset is not None:
        options = attrs.evolve(options, charset=None, collation=None)
    columns = tuple(map(column, table.columns))
    indexes = tuple(map(index, table.indexes))
    if (columns, indexes, options) == (table.columns, table.indexes, table.options):
        return table
    return table.with_changes(columns=columns, indexes=indexes, options=options)


__all__ = [
    "DEFAULT_AS_EXPRESSION",
    "INNODB",
    "PERIOD_COLUMNS",
    "VERSIONING_OPTION",
    "Table",
    "TableOptions",
    "as_shown",
]
