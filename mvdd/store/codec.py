"""JSON text for the values a store keeps: elements (columns, indexes, checks), table metadata,
steps and positions. Built on cattrs; steps are a tagged union keyed by class name.

The encoding is versioned by :data:`FORMAT` (stored by each durable store), and every value
round-trips exactly: ``decode(encode(v)) == v``.

>>> from mvdd.model import Column, ColumnType
>>> col = Column(id=3, name="a", type=ColumnType.of("int"), default=5)
>>> decode_element("column", encode_element("column", col)) == col
True
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from decimal import Decimal
from typing import Any, NamedTuple

import attrs
import cattrs
import orjson
from cattrs.fns import identity
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override
from cattrs.strategies import configure_tagged_union, include_subclasses

from mvdd.ddl import step as s
from mvdd.errors import StoreError
from mvdd.model import (
    NO_DEFAULT,
    BinlogPosition,
    Check,
    Column,
    ColumnType,
    Default,
    Expr,
    Index,
    Table,
    TableOptions,
)
from mvdd.model.element import HexText
from mvdd.store.base import Commit, ElementRow, JobRow, VersionRow

#: the store format this mvdd writes. 2 (2026-11-26): the compare-and-set is the version
#: rows' key, and ``tables.version`` is the version a table took its name at, no longer its head
#: (a writer of format 1 would find every head moved and refuse to commit). 3 (2026-11-27):
#: element rows are only ever inserted: a row ends where the next row of its element begins,
#: and an element that ends without a successor (dropped, or its table dropped) gets an end
#: row (:data:`GONE`); ``until`` and ``closed_seq`` are no longer written (a writer of format 2
#: would leave its dropped elements live for a reader of format 3).
FORMAT = 3
#: older formats this mvdd reads, and moves to :data:`FORMAT` when it opens the store (so that
#: a process of an older mvdd refuses the store with a clear error, rather than meet a
#: compare-and-set or rows it no longer understands): the value is the format they move from
#: with the statements that move them (see :meth:`mvdd.store.sql.SQLStore._init_meta`)
UPGRADES = frozenset({1, 2})
#: the ``value`` of an end row: the element has no definition from that row's version on
GONE = ""

Position = int | tuple[int | str, ...] | BinlogPosition


@attrs.frozen
class TableMeta:
    """A table's own attributes at one version (its elements are stored separately)."""

    name: str
    options: TableOptions
    last_id: int


def _no_boolean(value: Any) -> Any:
    raise TypeError("booleans are not column values")


#: a default's class -> its stored form (a subclass takes its nearest registered class's:
#: :func:`_enc_default`); the inverse of :data:`_DEFAULT_DECODERS`
_DEFAULT_ENCODERS: dict[type, Callable[[Any], Any]] = {
    type(NO_DEFAULT): lambda v: {"t": "none"},
    type(None): lambda v: {"t": "null"},
    Expr: lambda v: {"t": "expr", "v": v.sql},
    bool: _no_boolean,
    int: lambda v: {"t": "int", "v": v},
    float: lambda v: {"t": "float", "v": repr(v)},
    Decimal: lambda v: {"t": "dec", "v": str(v)},
    HexText: lambda v: {"t": "hex", "v": v.hex()},
    bytes: lambda v: {"t": "bytes", "v": v.hex()},
    str: lambda v: {"t": "str", "v": v},
}


def _enc_default(value: Any) -> Any:
    for klass in type(value).__mro__:  # (its own class first)
        encode = _DEFAULT_ENCODERS.get(klass)
        if encode is not None:
            return encode(value)
    raise TypeError(f"cannot store a default of type {type(value).__name__}")


_DEFAULT_DECODERS: dict[str, Any] = {
    "none": lambda v: NO_DEFAULT,
    "null": lambda v: None,
    "expr": Expr,
    "int": int,
    "float": float,
    "dec": Decimal,
    "bytes": bytes.fromhex,
    "hex": lambda v: HexText(bytes.fromhex(v)),
    "str": str,
}


def _dec_default(data: Any, _: Any = None) -> Default:
    return _DEFAULT_DECODERS[data["t"]](data.get("v"))


#: the optional types whose values JSON holds as they are
_PLAIN_OPTIONALS = frozenset({str | None, int | None, bool | None})


def _build_converter() -> cattrs.Converter:
    c = cattrs.Converter()
    c.register_unstructure_hook_func(lambda t: t == Default, _enc_default)
    c.register_structure_hook_func(lambda t: t == Default, _dec_default)
    c.register_unstructure_hook(Decimal, str)
    c.register_structure_hook(Decimal, lambda v, _: Decimal(v))
    # an optional plain value (a comment, a length) is itself: no call for it in a value's dict
    c.register_unstructure_hook_func(lambda t: t in _PLAIN_OPTIONALS, identity)
    # the table's lookup cache is not data
    omit = override(omit=True)
    # (MariaDB's system versioning, written only where a table or column has it: other rows
    # as before)
    c.register_unstructure_hook(
        Column,
        make_dict_unstructure_fn(
            Column,
            c,
            unversioned=override(omit_if_default=True),
            row_period=override(omit_if_default=True),
        ),
    )
    c.register_unstructure_hook(
        TableOptions,
        make_dict_unstructure_fn(TableOptions, c, versioned=override(omit_if_default=True)),
    )
    c.register_unstructure_hook(Table, make_dict_unstructure_fn(Table, c, _lookup=omit))
    c.register_structure_hook(Table, make_dict_structure_fn(Table, c, _lookup=omit))
    # (a type's family and row size are its own, computed when it is made)
    # (COMPRESSED, MariaDB's, written only where a type has it: other types' rows as before)
    type_dict = make_dict_unstructure_fn(
        ColumnType, c, family=omit, row_size=omit, compressed=override(omit_if_default=True)
    )
    # a type's dict made once for all its columns: types repeat (interned values), and the
    # dicts are only ever read, by _dumps; the width is in the key, outside a type's equality
    kept = functools.lru_cache(maxsize=1024)(lambda t, _width: type_dict(t))
    c.register_unstructure_hook(ColumnType, lambda t: kept(t, t.width))
    plain_type = make_dict_structure_fn(ColumnType, c, family=omit, row_size=omit)
    c.register_structure_hook(ColumnType, lambda data, _: plain_type(data, ColumnType).interned())
    include_subclasses(s.Step, c, union_strategy=configure_tagged_union)
    return c


@functools.cache
def _converter() -> cattrs.Converter:
    """The converter of stored values, built on first use (its hooks for every step class take
    60–80 ms to make, which a process that never reads or writes a stored row does not spend).
    Private to this module: the dicts it makes share each column type's one dict (read only by
    :func:`_dumps`), which a caller changing a dict it was given would change for every later
    row; the module's functions hand out only text and new values."""
    return _build_converter()


_ELEMENT_TYPES: dict[str, type] = {
    "column": Column,
    "index": Index,
    "check": Check,
    "table": TableMeta,
}


def _dumps(data: Any) -> str:
    """Compact JSON, non-ASCII text as itself, a map's keys in its order (a value's fields in
    their class's order: the same text for equal values; sorting them cost a third of the
    writing). orjson writes it: several times faster than :mod:`json`, on the commit path, and
    the same text for everything stored here (no float is: a float default is stored as its
    ``repr``). What orjson refuses (an integer beyond 64 bits, a lone surrogate: a byte an
    ENUM's member keeps, :func:`~mvdd.model.encoding.kept_text`) :mod:`json` writes (a text
    holding a lone surrogate with each character past ASCII escaped: a store's text is UTF-8,
    which has none). Reading stays with :mod:`json`, which reads every integer exactly (orjson reads
    one beyond 64 bits as a float). Rows written with their keys sorted (before 2026-12-02)
    read the same."""
    try:
        return orjson.dumps(data).decode()
    except TypeError:  # (orjson.JSONEncodeError is a TypeError)
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    try:
        text.encode()
    except UnicodeEncodeError:
        return json.dumps(data, separators=(",", ":"))
    return text


def encode_text(text: str) -> str:
    r"""A statement's text as a store keeps it: itself, or where it holds a lone surrogate (a
    byte that is no UTF-8, kept as Python's ``surrogateescape`` reads it: a server's SHOW
    CREATE TABLE of an ENUM member of such bytes), which a store's UTF-8 text cannot hold, the
    JSON string of it, its surrogates escaped. No statement begins with a double quote (a
    string is no statement), so :func:`decode_text` tells the two apart, and every text stored
    before reads as it was.

    >>> encode_text("ALTER TABLE t ADD b INT")
    'ALTER TABLE t ADD b INT'
    >>> print(encode_text("ALTER TABLE t COMMENT '\udcff'"))
    "ALTER TABLE t COMMENT '\udcff'"
    >>> decode_text(encode_text("ENUM('\udcff')")) == "ENUM('\udcff')"
    True
    """
    if text.isascii():
        return text
    try:
        text.encode()
    except UnicodeEncodeError:
        return json.dumps(text)
    return text


def decode_text(stored: str) -> str:
    """A statement's text as :func:`encode_text` stored it."""
    return json.loads(stored) if stored.startswith('"') else stored


def encode_element(kind: str, value: Any) -> str:
    return _dumps(_converter().unstructure(value, _ELEMENT_TYPES[kind]))


def decode_element(kind: str, text: str) -> Any:
    try:
        return _converter().structure(json.loads(text), _ELEMENT_TYPES[kind])
    except Exception as err:  # a damaged store must surface as a StoreError, not a KeyError
        raise StoreError(f"cannot decode a stored {kind}: {err}", cause=err) from err


def encode_steps(steps: tuple[s.Step, ...]) -> str:
    unstructure = _converter().unstructure
    return _dumps([unstructure(st, s.Step) for st in steps])


def decode_steps(text: str) -> tuple[s.Step, ...]:
    try:
        structure = _converter().structure
        return tuple(structure(item, s.Step) for item in json.loads(text))
    except Exception as err:
        raise StoreError(f"cannot decode stored steps: {err}", cause=err) from err


def encode_position(position: Position | None) -> str | None:
    if position is None:
        return None
    if isinstance(position, BinlogPosition):
        held = {"file": position.file, "offset": position.offset}
        if position.era:  # (a later era's; a position of the first is written as ever)
            held["era"] = position.era
        return _dumps(held)
    return _dumps(position)


def decode_position(text: str | None) -> Position | None:
    if text is None:
        return None
    value = json.loads(text)
    if isinstance(value, dict):
        return BinlogPosition(value["file"], value["offset"], value.get("era", 0))
    return tuple(value) if isinstance(value, list) else value


# --- stored rows -> the store interface's rows (shared by the SQL stores) ---------------------


def version_row(r: Mapping[str, Any]) -> VersionRow:
    """A ``versions`` row (by column name) as a VersionRow."""
    return VersionRow(
        table_id=r["table_id"],
        version=r["version"],
        name=r["name"],
        statement=decode_text(r["statement"]),
        steps=decode_steps(r["steps"]),
        position=decode_position(r["position"]),
        at=r["at"],
        dropped=bool(r["dropped"]),
        seq=r["seq"],
    )


def element_changes(
    rows: Iterable[Sequence[Any]],
) -> tuple[tuple[ElementRow, ...], tuple[tuple[tuple[int, str, int, int], int], ...]]:
    """The element rows some commits opened, and the rows they ended, from the ``elements``
    rows those commits wrote: ``(table_id, kind, element_id, since, prev, value, before)``, in
    key order (table, kind, element, since), where ``before`` is the ``since`` of the live row
    of that element just before this one when that row is not among ``rows`` (else None).

    A row ends where the next row of its element begins (a new definition, or an end row,
    :data:`GONE`); an opened row whose successor is among ``rows`` comes back ended there, as a
    reader that saw every one of those commits holds it. Each ended row comes back as its key
    with the version it ends at.

    >>> from mvdd.model import Column, ColumnType
    >>> a = encode_element("column", Column(id=3, name="a", type=ColumnType.of("int")))
    >>> b = encode_element("column", Column(id=5, name="b", type=ColumnType.of("int")))
    >>> opened, ended = element_changes([
    ...     (1, "column", 3, 2, 0, a, None),  # opened at version 2
    ...     (1, "column", 3, 4, 0, GONE, None),  # dropped at 4
    ...     (1, "column", 5, 4, 0, b, 1),  # redefined at 4: the row from version 1 ends
    ... ])
    >>> [(r.element_id, r.since, r.until) for r in opened]
    [(3, 2, 4), (5, 4, None)]
    >>> ended
    (((1, 'column', 3, 2), 4), ((1, 'column', 5, 1), 4))
    """
    opened: list[ElementRow] = []
    ended: list[tuple[tuple[int, str, int, int], int]] = []
    slot: tuple[int, str, int] | None = None
    live: int | None = None  # the index in ``opened`` of the slot's row still live, if any
    for table_id, kind, element_id, since, prev, value, before in rows:
        if (table_id, kind, element_id) == slot:
            before = None
            if live is not None:
                ended_row = opened[live]
                opened[live] = ended_row.ending(since)
                before = ended_row.since
        slot = (table_id, kind, element_id)
        if before is not None:
            ended.append(((table_id, kind, element_id, before), since))
        live = None
        if value != GONE:
            live = len(opened)
            opened.append(
                ElementRow(
                    table_id, kind, element_id, since, None, decode_element(kind, value), prev
                )
            )
    return tuple(opened), tuple(ended)


def job_row(row: Sequence[Any]) -> JobRow:
    """A ``jobs`` row, its columns in :data:`mvdd.store.sql.JOB_COLUMNS` order, as a JobRow."""
    return JobRow(
        id=row[0],
        kind=row[1],
        table=row[2],
        sql=decode_text(row[3]),
        status=row[4],
        queue=row[5],
        payload=json.loads(row[6]),
        cancel=bool(row[7]),
        submitted=row[8],
        updated=row[9],
    )


# --- a commit's rows -> statement parameters (shared by the SQL stores) -----------------------


class CommitText(NamedTuple):
    """A commit's JSON, encoded before its transaction begins (the write lock is then held
    for the statements alone): each version row's steps and position, each opened element
    row's value, in the commit's order."""

    steps: tuple[str, ...]
    positions: tuple[str | None, ...]
    values: tuple[str, ...]

    @classmethod
    def of(cls, commit: Commit) -> CommitText:
        return cls(
            tuple(encode_steps(v.steps) for v in commit.versions),
            tuple(encode_position(v.position) for v in commit.versions),  # type: ignore[arg-type]
            tuple(encode_element(e.kind, e.value) for e in commit.opened),
        )


def version_params(
    commit: Commit, text: CommitText, ids: Mapping[int, int], seq: int
) -> list[tuple[Any, ...]]:
    """The ``versions`` rows of a commit, in the column order (table_id, version, seq, name,
    statement, steps, position, at, dropped)."""
    return [
        (
            ids.get(v.table_id, v.table_id),
            v.version,
            seq,
            v.name,
            encode_text(v.statement),
            steps,
            position,
            v.at,
            int(v.dropped),
        )
        for v, steps, position in zip(commit.versions, text.steps, text.positions, strict=True)
    ]


def element_params(
    commit: Commit, text: CommitText, ids: Mapping[int, int], seq: int
) -> list[tuple[Any, ...]]:
    """The new ``elements`` rows of a commit, in the column order (table_id, kind, element_id,
    since, prev, value, opened_seq): each opened row, then an end row (:data:`GONE`, no
    ``prev``) for each element the commit ends without a new definition."""
    rows: list[tuple[Any, ...]] = [
        (ids.get(e.table_id, e.table_id), e.kind, e.element_id, e.since, e.prev, value, seq)
        for e, value in zip(commit.opened, text.values, strict=True)
    ]
    if commit.closed:
        # (a row's first three fields are its element: table, kind, id)
        redefined = {e[:3] for e in commit.opened}
        ended = [key for key in commit.closed if key[:3] not in redefined]
        if ended:
            versions = {v.table_id: v.version for v in commit.versions}
            rows += [
                (ids.get(table_id, table_id), kind, element_id, versions[table_id], None, GONE, seq)
                for table_id, kind, element_id, _ in ended
            ]
    return rows
