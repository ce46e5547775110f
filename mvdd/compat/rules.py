"""The compatibility rules (DESIGN §6, seed 003), as tables.

``FORWARD[step class]`` and ``BACKWARD[step class]`` judge one step given the table before and
after it, returning findings (kind, column, message); an empty list is compatible. Type changes
are judged by :data:`WIDENING`, keyed by the family of both types.

Forward (I→C): a tuple written under I is valid under C, loses no information when upgraded, and
no reader under C can tell it was written under I. Backward (C→I): a tuple written under C is
readable under I.

=====================================================  =========  ==========
step                                                   forward    backward
=====================================================  =========  ==========
create table                                           yes        yes
drop table, rename table, truncate                     no         no / no / yes
add column (nullable, defaulted, generated, counter)   yes        yes
drop column                                            no         yes if I can fill it
rename column                                          yes        yes
make nullable / make NOT NULL                          yes / no   no / yes
set, change or drop a default (or ON UPDATE)           no         yes
widen a type (see below) / narrow it                   yes / no   no / yes
any other type change (signedness, kind, charset)      no         no
add index / add unique index or check                  yes / no   yes
drop index / drop unique index or check                yes        yes / no
table options (comment, engine, default charset)       yes        yes
=====================================================  =========  ==========

Widening: integers to a kind at least as wide with the same signedness, or unsigned to a
strictly wider signed kind; FLOAT to DOUBLE; DECIMAL precision up with the same scale; CHAR,
VARCHAR, VARBINARY and BIT lengths up; TEXT and BLOB sizes up; TIME, DATETIME and TIMESTAMP
precision up; ENUM and SET members appended at the end; utf8mb3 to utf8mb4 with the same
collation; MariaDB's COMPRESSED put on or taken off (how values are stored, not what they
are). A widening keeps every old value and its meaning, so no reader can tell.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from mvdd.ddl import step as s
from mvdd.model import NO_DEFAULT, Column, IndexKind, Table
from mvdd.model.kind import BLOB_SIZES, INTEGER_BYTES, TEXT_SIZES, Family, TypeKind
from mvdd.model.types import ColumnType


@attrs.frozen
class Finding:
    kind: str
    message: str
    column: Column | None = None


Rule = Callable[[Any, Table, "Table | None"], list[Finding]]


def _yes(step: Any, before: Table, after: Table | None) -> list[Finding]:
    return []


def _no(kind: str, message: str) -> Rule:
    def rule(step: Any, before: Table, after: Table | None) -> list[Finding]:
        return [Finding(kind, message)]

    return rule


# --- types ------------------------------------------------------------------------------------


def _charset_widens(old: ColumnType, new: ColumnType) -> bool:
    if (old.charset, old.collation) == (new.charset, new.collation):
        return True
    if old.charset == "utf8mb3" and new.charset == "utf8mb4" and old.collation and new.collation:
        return old.collation.removeprefix("utf8mb3") == new.collation.removeprefix("utf8mb4")
    return False


def _signed_fit(old: ColumnType, new: ColumnType, old_size: int, new_size: int) -> bool:
    if old.unsigned == new.unsigned:
        return new_size >= old_size
    return old.unsigned and not new.unsigned and new_size > old_size


def _widen_integer(old: ColumnType, new: ColumnType) -> bool:
    return old.zerofill == new.zerofill and _signed_fit(
        old, new, INTEGER_BYTES[old.kind], INTEGER_BYTES[new.kind]
    )


def _widen_decimal(old: ColumnType, new: ColumnType) -> bool:
    assert old.precision is not None and new.precision is not None
    # a signed DECIMAL(p,s) holds every unsigned DECIMAL(p,s) value: no wider precision needed
    return (
        old.scale == new.scale
        and old.zerofill == new.zerofill
        and new.precision >= old.precision
        and (old.unsigned or not new.unsigned)
    )


def _widen_float(old: ColumnType, new: ColumnType) -> bool:
    if old.precision is not None or new.precision is not None:
        return old == new
    sizes = {TypeKind.FLOAT: 4, TypeKind.DOUBLE: 8}
    return (
        old.zerofill == new.zerofill
        and sizes[new.kind] >= sizes[old.kind]
        and (old.unsigned or not new.unsigned)
    )


def _widen_length(old: ColumnType, new: ColumnType) -> bool:
    # BINARY(n) pads with zero bytes, so a longer BINARY changes every stored value
    if old.kind != new.kind or old.kind == TypeKind.BINARY:
        return False
    return (new.length or 0) >= (old.length or 0) and _charset_widens(old, new)


def _widen_lob(old: ColumnType, new: ColumnType) -> bool:
    sizes = TEXT_SIZES if old.family == Family.TEXT else BLOB_SIZES
    return sizes.index(new.kind) >= sizes.index(old.kind) and _charset_widens(old, new)


def _widen_temporal(old: ColumnType, new: ColumnType) -> bool:
    return old.kind == new.kind and (new.fsp or 0) >= (old.fsp or 0)


def _widen_enum(old: ColumnType, new: ColumnType) -> bool:
    return (
        old.kind == new.kind
        and new.members[: len(old.members)] == old.members
        and _charset_widens(old, new)
    )


#: (family of I's type, family of C's type) -> does C keep every value of I, with its meaning?
WIDENING: dict[tuple[Family, Family], Callable[[ColumnType, ColumnType], bool]] = {
    (Family.INTEGER, Family.INTEGER): _widen_integer,
    (Family.DECIMAL, Family.DECIMAL): _widen_decimal,
    (Family.FLOAT, Family.FLOAT): _widen_float,
    (Family.BIT, Family.BIT): _widen_length,
    (Family.CHAR, Family.CHAR): _widen_length,
    (Family.BINARY, Family.BINARY): _widen_length,
    (Family.TEXT, Family.TEXT): _widen_lob,
    (Family.BLOB, Family.BLOB): _widen_lob,
    (Family.TEMPORAL, Family.TEMPORAL): _widen_temporal,
    (Family.ENUM, Family.ENUM): _widen_enum,
    # (a JSON COMPRESSED or not: the same values)
    (Family.JSON, Family.JSON): lambda old, new: old.kind == new.kind,
}


def widens(old: ColumnType, new: ColumnType) -> bool:
    """Whether every value of ``old`` is a value of ``new`` with the same meaning.

    >>> widens(ColumnType.of("int"), ColumnType.of("bigint"))
    True
    >>> widens(ColumnType.of("int", unsigned=True), ColumnType.of("int"))
    False
    """
    if old == new:
        return True
    rule = WIDENING.get((old.family, new.family))
    return rule is not None and rule(old, new)


# --- column changes ------------------------------------------------------------------------------


def _default_of(col: Column) -> object:
    """The declared default, for comparing defaults: DEFAULT NULL counts as none (whether a
    column may hold NULL is the nullability rule's business, not the default's)."""
    if col.generated is not None or col.default is None:
        return NO_DEFAULT
    return col.default


def _modify_forward(old: Column, new: Column) -> list[Finding]:
    out = []
    if not widens(old.type, new.type):
        out.append(Finding("type_change", f"{old.type} to {new.type} is not a widening", new))
    if old.nullable and not new.nullable:
        out.append(Finding("make_not_null", "old rows may hold NULL", new))
    if _default_of(old) != _default_of(new):
        out.append(Finding("default_change", "readers would see a different default", new))
    if old.on_update != new.on_update:
        out.append(Finding("default_change", "the ON UPDATE value changes", new))
    if old.generated != new.generated:
        out.append(Finding("generated_change", "the generated value changes", new))
    if old.auto_increment != new.auto_increment:
        out.append(Finding("default_change", "AUTO_INCREMENT changes how values arrive", new))
    if new.check is not None and new.check != old.check:
        out.append(Finding("add_check", "old rows may violate the new column check", new))
    return out


def _modify_backward(old: Column, new: Column) -> list[Finding]:
    out = []
    if not widens(new.type, old.type):
        out.append(Finding("type_change", f"{new.type} values may not fit {old.type}", new))
    if not old.nullable and new.nullable:
        out.append(Finding("make_nullable", "new rows may hold NULL the old schema forbids", new))
    if old.generated != new.generated:
        out.append(Finding("generated_change", "the generated value changes", new))
    if old.check is not None and new.check != old.check:
        out.append(Finding("drop_check", "new rows may violate the old column check", new))
    return out


def _columns_of(step: s.ModifyColumn, before: Table, after: Table | None) -> tuple[Column, Column]:
    old = before.column(step.column)
    assert after is not None
    return old, after.column_by_id(old.id)


def _modify(judge: Callable[[Column, Column], list[Finding]]) -> Rule:
    def rule(step: Any, before: Table, after: Table | None) -> list[Finding]:
        return judge(*_columns_of(step, before, after))

    return rule


def _default_step(step: Any, before: Table, after: Table | None) -> list[Finding]:
    old = before.column(step.column)
    assert after is not None
    new = after.column_by_id(old.id)
    if _default_of(old) == _default_of(new):
        return []
    return [Finding("default_change", "readers would see a different default", new)]


def _drop_column_forward(step: Any, before: Table, after: Table | None) -> list[Finding]:
    col = before.find_column(step.column)
    if col is None:  # DROP COLUMN IF EXISTS of nothing
        return []
    return [Finding("drop_column", "rows written before lose this column's values", col)]


def _drop_column_backward(step: Any, before: Table, after: Table | None) -> list[Finding]:
    col = before.find_column(step.column)
    if col is None or col.has_default:
        return []
    return [
        Finding("drop_column", "new rows have no value for a NOT NULL column without default", col)
    ]


def _add_index_forward(step: Any, before: Table, after: Table | None) -> list[Finding]:
    if step.index.kind in (IndexKind.PRIMARY, IndexKind.UNIQUE):
        return [Finding("add_unique", "old rows may violate the new unique key")]
    return []


def _dropped_index(step: Any, before: Table) -> Any:
    name = getattr(step, "index", None) or getattr(step, "name", None)
    return before.find_index(name) if name else None


def _drop_index_backward(step: Any, before: Table, after: Table | None) -> list[Finding]:
    idx = _dropped_index(step, before)
    if idx is not None and idx.is_unique:
        return [Finding("drop_unique", "new rows may violate the unique key the old schema has")]
    return []


def _drop_constraint_backward(step: Any, before: Table, after: Table | None) -> list[Finding]:
    if before.find_check(step.name) is not None:
        return [Finding("drop_check", "new rows may violate the check the old schema has")]
    return _drop_index_backward(step, before, after)


def _alter_check_forward(step: Any, before: Table, after: Table | None) -> list[Finding]:
    chk = before.find_check(step.check)
    if step.enforced and chk is not None and not chk.enforced:
        return [Finding("add_check", "old rows were not held to this check")]
    return []


def _alter_check_backward(step: Any, before: Table, after: Table | None) -> list[Finding]:
    chk = before.find_check(step.check)
    if not step.enforced and chk is not None and chk.enforced:
        return [Finding("drop_check", "new rows are not held to a check the old schema has")]
    return []


def _convert(judge: Callable[[ColumnType, ColumnType], bool], kind: str) -> Rule:
    def rule(step: Any, before: Table, after: Table | None) -> list[Finding]:
        assert after is not None
        out = []
        for old in before.columns:
            new = after.column_by_id(old.id)
            if old.type.has_charset and not judge(old.type, new.type):
                out.append(Finding(kind, f"{old.type} becomes {new.type}", new))
        return out

    return rule


FORWARD: dict[type[s.Step], Rule] = {
    s.CreateTable: _yes,
    s.CreateTableLike: _yes,
    s.DropTable: _no("drop_table", "the table is gone"),
    s.RenameTable: _no("rename_table", "the table is not found under its old name"),
    s.TruncateTable: _no("truncate", "the rows written before are gone"),
    s.SetOptions: _yes,
    s.SetVersioning: _yes,
    s.SetSystemPeriod: _yes,
    s.ConvertCharset: _convert(lambda old, new: widens(old, new), "type_change"),
    s.AddColumn: _yes,
    s.DropColumn: _drop_column_forward,
    s.ModifyColumn: _modify(_modify_forward),
    s.RenameColumn: _yes,
    s.SetDefault: _default_step,
    s.DropDefault: _default_step,
    s.AddIndex: _add_index_forward,
    s.DropIndex: _yes,
    s.RenameIndex: _yes,
    s.SetIndexVisible: _yes,
    s.AddCheck: _no("add_check", "old rows may violate the new check"),
    s.DropCheck: _yes,
    s.DropConstraint: _yes,
    s.AlterCheck: _alter_check_forward,
}

BACKWARD: dict[type[s.Step], Rule] = {
    s.CreateTable: _yes,
    s.CreateTableLike: _yes,
    s.DropTable: _no("drop_table", "the table is gone"),
    s.RenameTable: _no("rename_table", "the table is not found under its old name"),
    s.TruncateTable: _yes,
    s.SetOptions: _yes,
    s.SetVersioning: _yes,
    s.SetSystemPeriod: _yes,
    s.ConvertCharset: _convert(lambda old, new: widens(new, old), "type_change"),
    s.AddColumn: _yes,
    s.DropColumn: _drop_column_backward,
    s.ModifyColumn: _modify(_modify_backward),
    s.RenameColumn: _yes,
    s.SetDefault: _yes,
    s.DropDefault: _yes,
    s.AddIndex: _yes,
    s.DropIndex: _drop_index_backward,
    s.RenameIndex: _yes,
    s.SetIndexVisible: _yes,
    s.AddCheck: _yes,
    s.DropCheck: _no("drop_check", "new rows may violate the check the old schema has"),
    s.DropConstraint: _drop_constraint_backward,
    s.AlterCheck: _alter_check_backward,
}
