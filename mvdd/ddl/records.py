"""A record's size as InnoDB bounds it, under mvdd's own rules: a table InnoDB holds must be
able to keep a whole row on half a 16 KiB page (``innodb_strict_mode``: the server's 1118,
``Row size too large (> 8126)``), whatever its row format leaves off the page.

Each stored column of the clustered index counts, as InnoDB estimates a record's largest size
(its ``rec_potentially_too_big``): a fixed-size value its size (a number, a date, a ``CHAR``
of a charset whose characters are all one width, a ``BINARY``, an ENUM or a SET, and under
``REDUNDANT`` every ``CHAR``); a variable one its most bytes and one or two bytes of length
(none under ``REDUNDANT``, which keeps two bytes of offset for every field instead). A value
InnoDB may move off the page (a TEXT, a BLOB, a JSON, a GEOMETRY, and any longer than 255
bytes) counts what stays on it: under ``COMPACT`` and ``REDUNDANT`` a 768-byte prefix and a
20-byte pointer, under ``DYNAMIC`` (the default) the pointer. (A table of many columns of 256
bytes or more meets the server's 65,535 bytes a row before InnoDB's limit: that one is the
SQL layer's, which :func:`mvdd.ddl.apply.validate_table` judges apart; both are the server's
1118.) The record's own header, its null flags and the
system columns (the transaction id, the roll pointer, and without a primary key the row id)
count too. ``COMPRESSED`` tables (their pages smaller) and other engines are not judged.
The server judges a table where it builds it: a CREATE TABLE (``… LIKE`` too) and an ALTER
that changes its row format or its engine. An ALTER that only adds columns, which InnoDB
makes at once (MariaDB's instant ADD COLUMN), is judged by the row of every column's default,
which InnoDB keeps (:func:`check_added_defaults`): a column added NULL counts nothing there, so
such an ADD may take a table past the limit, as on the server; one added NOT NULL its default's
bytes. Where a count is not certain (a default of a variable size) it is not judged, nor is
another ALTER InnoDB makes in place. A table taken past the limit so then meets the server's
1118 at most ALTERs that rebuild or change it, which mvdd does not judge.

``tests/test_mariadb_server.py`` holds it to the server in random tables of every row format.
"""

from __future__ import annotations

from mvdd.ddl.options import innodb_options
from mvdd.errors import DDLError
from mvdd.model import NO_DEFAULT, Column, Expr, IndexKind, Table
from mvdd.model.kind import Family, TypeKind
from mvdd.model.table import OFF_PAGE
from mvdd.model.types import max_bytes_per_char

#: the most bytes a record may take on a page of 16 KiB (half its free space), by whether its
#: row format is the compact family's
LIMITS = {True: 8126, False: 8123}
#: a bound no table can pass without being judged (:func:`check_record_size`): the rules ask
#: for the judgment only when the table's tally can reach it
GATE = 8123
#: what stays on the page of a value InnoDB moves off it, by row format (``DYNAMIC``: the
#: pointer; ``COMPACT``, ``REDUNDANT``: a 768-byte prefix and the pointer)
_LOCAL = {"DYNAMIC": 20, "COMPACT": 788, "REDUNDANT": 788}
#: the charsets whose characters all take as many bytes (a CHAR of them is fixed-size)
_ONE_WIDTH = frozenset({"ucs2", "utf32"})
#: the system columns' bytes: the transaction id and the roll pointer, and the row id
_SYSTEM, _ROW_ID = 13, 6


def check_record_size(table: Table) -> None:
    """DDLError when a row of ``table`` may not fit InnoDB's page (the server's 1118), where
    InnoDB holds it (named, or the server's default) in a row format of the compact family or
    ``REDUNDANT`` (``COMPRESSED``, and a ``KEY_BLOCK_SIZE``, are not judged)."""
    layout = _layout(table)
    if layout is None:
        return
    compact = layout != "REDUNDANT"
    stored = _stored(table)
    size = _header(table, stored, compact) + sum(_bytes(col, layout, compact) for col in stored)
    limit = LIMITS[compact]
    if size >= limit:
        raise DDLError(
            f"row size too large for InnoDB: at least {size} bytes of fewer than {limit} on a "
            f"page (ROW_FORMAT={layout}); change some columns to TEXT or BLOB (the server's 1118)"
        )


def check_added_defaults(table: Table, base: Table) -> None:
    """DDLError when an ALTER that only adds columns to ``base``, which InnoDB makes at once
    (its instant ADD COLUMN), leaves ``table`` a row of every column's default too large for
    its page: InnoDB keeps that row, and judges it there (the server's 1118), where a CREATE
    judges every column's largest value. A default NULL counts nothing (so a column added NULL
    may take a table past the limit, as on the server), a fixed-size column its size, default
    or not. Judged only where every count is certain: an InnoDB table of the compact family
    without a FULLTEXT key (whose hidden column makes InnoDB rebuild it), columns added plain
    (no AUTO_INCREMENT, no STORED generated column, no DEFAULT expression: InnoDB may rebuild
    for those), and no stored column of a variable size whose default is not NULL."""
    added = _added_only(table, base)
    if (
        not added
        or _layout(table) not in ("DYNAMIC", "COMPACT")
        or any(i.kind == IndexKind.FULLTEXT for i in table.indexes)
        or any(
            c.auto_increment or type(c.default) is Expr or (c.generated and c.generated.stored)
            for c in added
        )
    ):
        return
    stored = _stored(table)
    size = _header(table, stored, True)
    for col in stored:
        null = col.default is None or (col.nullable and col.default is NO_DEFAULT)
        held = 0 if null else _fixed(col, True)
        if held is None:
            return  # (a value of a variable size: not counted)
        size += held
    limit = LIMITS[True]
    if size >= limit:
        raise DDLError(
            f"row size too large for InnoDB: the row of the columns' defaults, which InnoDB "
            f"keeps for a column it adds at once, takes {size} bytes of fewer than {limit} on "
            "a page (the server's 1118)"
        )


def _layout(table: Table) -> str | None:
    """The row format InnoDB holds ``table`` in, where its record size is judged (None:
    another engine, a ``KEY_BLOCK_SIZE``, ``COMPRESSED``)."""
    found = innodb_options(table.options)
    if found is None or found.key_block_size:
        return None
    layout = found.row_format or "DYNAMIC"  # (ROW_FORMAT=DEFAULT is kept as none)
    return layout if layout in _LOCAL else None


def _stored(table: Table) -> list[Column]:
    """The columns a record of ``table`` stores (all but the VIRTUAL generated ones)."""
    return [c for c in table.columns if c.generated is None or c.generated.stored]


def _header(table: Table, stored: list[Column], compact: bool) -> int:
    """A record's bytes besides its columns' values: the system columns (the row id without a
    primary key), and the compact family's header and null flags, or REDUNDANT's header and
    field offsets."""
    keyed = table.row_key_index is not None
    size = _SYSTEM + (0 if keyed else _ROW_ID)
    if compact:
        return size + 5 + (sum(c.nullable for c in stored) + 7) // 8
    return size + 6 + 2 * (len(stored) + (2 if keyed else 3))


def _added_only(table: Table, base: Table) -> list[Column]:
    """The columns ``table`` adds to ``base`` when it changes nothing else (its other columns,
    keys, checks and options the very objects of ``base``), else none."""
    if (
        table.options is not base.options
        or len(table.columns) <= len(base.columns)
        or len(table.indexes) != len(base.indexes)
        or len(table.checks) != len(base.checks)
        or any(a is not b for a, b in zip(table.indexes, base.indexes, strict=True))
        or any(a is not b for a, b in zip(table.checks, base.checks, strict=True))
    ):
        return []
    held = set(map(id, base.columns))
    added = [c for c in table.columns if id(c) not in held]
    return added if len(added) == len(table.columns) - len(base.columns) else []


def _bytes(col: Column, layout: str, compact: bool) -> int:
    """What one stored column counts of a record."""
    t = col.type
    fixed = _fixed(col, compact)
    if fixed is not None:
        return fixed
    if t.family in OFF_PAGE:
        most = None  # (any length)
    elif t.family == Family.CHAR:
        most = (t.length or 0) * max_bytes_per_char(t.charset) + t.compressed
    else:  # (a VARBINARY)
        most = (t.length or 0) + t.compressed
    local = _LOCAL[layout]
    if most is None or (most > 255 and most > local and most > 40):
        most = local
    return most + (0 if not compact else 1 if most < 256 else 2)


def _fixed(col: Column, compact: bool) -> int | None:
    """The bytes of a fixed-size column (None: its size varies)."""
    t = col.type
    family = t.family
    if family in OFF_PAGE:
        return None
    if family == Family.CHAR:
        if t.kind != TypeKind.CHAR or t.compressed:
            return None
        width = max_bytes_per_char(t.charset)
        if compact and width > 1 and t.charset not in _ONE_WIDTH:
            return None
        return (t.length or 0) * width
    if family == Family.BINARY:
        return (t.length or 0) if t.kind == TypeKind.BINARY and not t.compressed else None
    return t.row_size


__all__ = ["GATE", "LIMITS", "check_added_defaults", "check_record_size"]
