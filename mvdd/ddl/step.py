"""Steps: the simple changes every DDL statement is split into (seed 003).

``ALTER TABLE t DROP COLUMN a, ADD COLUMN b INT`` is two steps, "drop a" then "add b". A step is
a frozen value that names its table and the elements it touches *by name*, as the statement
did; :func:`mvdd.ddl.apply.apply` resolves the names against a table version (assigning ids to
new elements) and returns the next version. Steps carry no sqlglot objects, so they can be stored,
compared and sent between processes.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import TypeAlias

import attrs

from mvdd.model import Column, Default, Expr, IndexKind, Table
from mvdd.model.text import sql_text


@attrs.frozen
class Place:
    """Where a column goes: ``FIRST``, ``AFTER name``, or (neither) where it is / at the end."""

    first: bool = False
    after: str | None = None


LAST = Place()
FIRST = Place(first=True)


@attrs.frozen
class PartSpec:
    """An index key part by column name."""

    column: str
    length: int | None = None
    desc: bool = False


def _tuple_of_parts(parts: Iterable[PartSpec]) -> tuple[PartSpec, ...]:
    return tuple(parts)


def _tuple_of_names(names: Iterable[str]) -> tuple[str, ...]:
    return tuple(names)


def _tuple_of_options(options: Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    return tuple(options)


@attrs.frozen(kw_only=True)
class IndexSpec:
    """An index as a statement states it: by column names; ``name`` None lets MySQL name it."""

    name: str | None = None
    kind: IndexKind = IndexKind.INDEX
    parts: tuple[PartSpec, ...] = attrs.field(converter=_tuple_of_parts)
    comment: str | None = None
    using: str | None = None
    visible: bool = True


@attrs.frozen(kw_only=True)
class Step:
    """Base of every step: the table it applies to."""

    table: str

    def __str__(self) -> str:
        return sql_text(self)  # the statement it stands for (mvdd.ddl.render)


# --- database statements -------------------------------------------------------------------------


class DatabaseAction(StrEnum):
    CREATE = "create"
    ALTER = "alter"
    DROP = "drop"


@attrs.frozen(kw_only=True)
class DatabaseChange:
    """``CREATE`` / ``ALTER`` / ``DROP DATABASE`` (or ``SCHEMA``): not a step of a table, but what
    a catalog must know of a database, its default charset and collation (a table created in it
    without its own takes them). ``database`` None: the statement's default database (``ALTER
    DATABASE`` without a name)."""

    action: DatabaseAction
    database: str | None
    charset: str | None = None
    collation: str | None = None
    if_exists: bool = False  # IF EXISTS (drop) / IF NOT EXISTS (create)
    replace: bool = False  # CREATE OR REPLACE


@attrs.frozen(kw_only=True)
class IfTableExists:
    """``ALTER TABLE IF EXISTS t``: not a step but a condition on the statement's steps for
    ``table`` (they apply only if it exists)."""

    table: str


@attrs.frozen(kw_only=True)
class DefinedAnew:
    """``ALTER TABLE t FORCE`` or ``OPTIMIZE TABLE t``: not a step (the schema stays) but a
    condition on the statement: the server defines ``table`` anew, reading its keys back
    (:func:`mvdd.ddl.apply.redefined_keys`); ``recreating``: the engines that do so (an
    OPTIMIZE: InnoDB's recreate, where MyISAM and Aria optimize in place; None: any, FORCE)."""

    table: str
    recreating: frozenset[str | None] | None = None


@attrs.frozen
class UseDatabase:
    """``USE database``: not a step, but the default database of the statements after it in
    the same text (a script's, as the session's USE makes it)."""

    database: str


@attrs.frozen(kw_only=True)
class OrderedBy:
    """``ALTER TABLE t … ORDER BY a, b``: not a step (it sorts the rows once and changes no
    schema) but a condition on the statement: each column is one of ``table``'s as the
    statement found it (the server resolves the names before the statement's changes)."""

    table: str
    columns: tuple[str, ...]


@attrs.frozen(kw_only=True)
class SequenceNamed:
    """MariaDB's ``ALTER SEQUENCE s``: not a step (a sequence's values are its row's, data the
    statement writes, :mod:`mvdd.ddl.sequence`) but a condition on the statement: ``table`` is
    a sequence."""

    table: str


@attrs.frozen(kw_only=True)
class VersioningMarked:
    """A column an ``ALTER TABLE`` defines ``WITH`` or ``WITHOUT SYSTEM VERSIONING``, or its
    ``PARTITION BY SYSTEM_TIME``: not a step but a condition on the statement: ``table`` is
    system-versioned before it (an ``ADD SYSTEM VERSIONING`` beside does not do), else the
    server's error 4124."""

    table: str


# --- table steps ---------------------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class CreateTable(Step):
    """``CREATE TABLE``. ``refused``: a ``CREATE TABLE IF NOT EXISTS`` whose definition the
    server would refuse (why, with where), kept for when the table is not there: the server
    reads no definition of a table that exists (it notes the table and goes on), so the
    statement passes over an existing table and fails only where it would make one (its
    ``definition`` then has no columns; ``refused_at``: the error's places, as (field, name)
    pairs)."""

    definition: Table
    if_not_exists: bool = False
    refused: str | None = None
    refused_at: tuple[tuple[str, str], ...] = ()


@attrs.frozen(kw_only=True)
class CreateTableLike(Step):
    source: str
    if_not_exists: bool = False


@attrs.frozen(kw_only=True)
class DropTable(Step):
    """``DROP TABLE``; ``sequence``: MariaDB's ``DROP SEQUENCE``, which drops only a sequence
    (``IF EXISTS`` passes over a table that is not one)."""

    if_exists: bool = False
    sequence: bool = False


@attrs.frozen(kw_only=True)
class RenameTable(Step):
    to: str


#: the kinds of :class:`TruncateTable` that bring rows into their table
_BRINGING = frozenset(
    {"EXCHANGE PARTITION", "IMPORT PARTITION", "IMPORT TABLESPACE", "CONVERT TABLE"}
)


@attrs.frozen(kw_only=True)
class TruncateTable(Step):
    """Rows of the table changed without a row event in the binlog: ``TRUNCATE TABLE`` (every
    row gone: :attr:`empties`), or a partitioned table's ``how``: ``DROP`` / ``TRUNCATE`` /
    ``DISCARD PARTITION`` (the rows of ``partitions`` gone), ``EXCHANGE PARTITION`` (a
    partition's rows swapped with another table's: both tables' rows change), ``IMPORT
    PARTITION`` (rows loaded from a tablespace's file), or MariaDB's ``CONVERT PARTITION`` (a
    partition's rows gone into a new table, whose own step says so too) and ``CONVERT TABLE``
    (a table's rows made a new partition, the table dropped); or InnoDB's ``DISCARD
    TABLESPACE`` / ``IMPORT TABLESPACE`` of a whole table (its rows gone with its data file,
    or loaded from one). The schema stays; the table gets a version all the same, so that
    whoever follows the rows learns of it."""

    partitions: tuple[str, ...] = attrs.field(default=(), converter=_tuple_of_names)
    how: str = "TRUNCATE TABLE"
    #: EXCHANGE PARTITION's or CONVERT's (partitioned table, partition, other table), on both
    #: tables' steps
    exchange: tuple[str, ...] = attrs.field(default=(), converter=_tuple_of_names)
    #: CONVERT TABLE's definition of the partition it makes, as written (``PARTITION p VALUES
    #: LESS THAN (20)``)
    partition: str = ""

    @property
    def empties(self) -> bool:
        """Whether every row of the table is gone (and no other came)."""
        return self.how == "TRUNCATE TABLE"

    @property
    def brings(self) -> bool:
        """Whether rows came into the table (another's by an exchange, a file's by an
        import, a converted table's; the table a ``CONVERT PARTITION`` makes): the other kinds
        only take rows away."""
        return self.how in _BRINGING or (self.how == "CONVERT PARTITION" and not self.partitions)


@attrs.frozen(kw_only=True)
class SetOptions(Step):
    """Table options, as (NAME, value) pairs: ``COMMENT``, ``ENGINE``, ``CHARSET``, ``COLLATE``,
    ``AUTO_INCREMENT``, ``ROW_FORMAT`` and others kept as written."""

    options: tuple[tuple[str, str], ...] = attrs.field(converter=_tuple_of_options)


@attrs.frozen(kw_only=True)
class SetVersioning(Step):
    """MariaDB's ``ALTER TABLE … ADD SYSTEM VERSIONING`` (``versioned``; also ``ALTER TABLE …
    WITH SYSTEM VERSIONING``) or ``DROP SYSTEM VERSIONING``: the table keeps its rows' past
    versions from now on, or its past versions are gone (:attr:`TableOptions.versioned`)."""

    versioned: bool


@attrs.frozen(kw_only=True)
class SetSystemPeriod(Step):
    """MariaDB's ``ALTER TABLE … ADD PERIOD FOR SYSTEM_TIME (start, end)`` (``columns``: the
    two, ROW START and ROW END columns the statement adds, beside its ADD SYSTEM VERSIONING) or
    ``DROP PERIOD FOR SYSTEM_TIME`` (no columns; the statement drops the two, and the table
    stays versioned by hidden columns)."""

    columns: tuple[str, ...] = attrs.field(default=(), converter=_tuple_of_names)


@attrs.frozen(kw_only=True)
class ConvertCharset(Step):
    """``CONVERT TO CHARACTER SET``: the table default and every string column change."""

    charset: str
    collation: str | None = None


# --- column steps --------------------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class AddColumn(Step):
    """``ADD COLUMN``. ``bin_collation``: the column takes the ``_bin`` collation of its
    table's charset (the BINARY attribute without a CHARACTER SET, resolved as it applies);
    ``text_chars``: the M of a ``TEXT(M)`` without a CHARACTER SET, whose TEXT kind is the
    one holding M characters of its table's charset (the column's type holds them in four
    bytes each until then); ``auto_timestamp``: a TIMESTAMP whose DEFAULT and ON UPDATE are
    CURRENT_TIMESTAMP when it is its table's first TIMESTAMP column once the statement is
    done (a session without ``explicit_defaults_for_timestamp``); ``members_written``: the
    places of the column's ENUM or SET members written as a hex or bit literal, which hold
    their bytes' latin1 text until its table's charset reads them (the column names none);
    ``table_collation``: a collation the column names without its charset and without a
    CHARACTER SET (``COLLATE uca1400_ai_ci``), the one of that name of its table's charset.
    """

    column: Column
    place: Place = LAST
    if_not_exists: bool = False
    bin_collation: bool = False
    text_chars: int | None = None
    auto_timestamp: bool = False
    members_written: tuple[int, ...] = ()
    table_collation: str | None = None


@attrs.frozen(kw_only=True)
class DropColumn(Step):
    """``DROP COLUMN``. ``name_taken``: another clause of the statement gives the name to a
    column (one it adds or renames), so the generated columns, the columns' own checks and
    the DEFAULT expressions naming it read that one, as on the server, and are not the dropped
    column's users (a table's check naming it still is). ``renamed_to``: a ``CHANGE`` from the
    dropped column's name defines a column the statement adds under this name, and those
    expressions read it instead (the server renames them by the first clause that changes
    from the name)."""

    column: str
    if_exists: bool = False
    name_taken: bool = False
    renamed_to: str | None = None


@attrs.frozen(kw_only=True)
class ModifyColumn(Step):
    """``MODIFY`` (``definition.name`` equals ``column``) or ``CHANGE`` (it differs): the whole
    new definition, which keeps the column's id."""

    column: str
    definition: Column
    place: Place = LAST  # LAST here means "where it is"
    if_exists: bool = False
    bin_collation: bool = False  # (as AddColumn's)
    text_chars: int | None = None  # (as AddColumn's)
    auto_timestamp: bool = False  # (as AddColumn's)
    members_written: tuple[int, ...] = ()  # (as AddColumn's)
    table_collation: str | None = None  # (as AddColumn's)

    @property
    def is_rename(self) -> bool:
        return self.definition.name != self.column


@attrs.frozen(kw_only=True)
class RenameColumn(Step):
    """``RENAME COLUMN [IF EXISTS] column TO to``."""

    column: str
    to: str
    if_exists: bool = False


@attrs.frozen(kw_only=True)
class SetDefault(Step):
    """``ALTER [COLUMN] [IF EXISTS] column SET DEFAULT …``."""

    column: str
    default: Default
    if_exists: bool = False


@attrs.frozen(kw_only=True)
class DropDefault(Step):
    """``ALTER [COLUMN] [IF EXISTS] column DROP DEFAULT``."""

    column: str
    if_exists: bool = False


# --- index and constraint steps -----------------------------------------------------------------


@attrs.frozen(kw_only=True)
class AddIndex(Step):
    """An index added; ``foreign_key``: the key the server makes for a ``FOREIGN KEY`` (mvdd
    keeps no foreign key, but a replica keeps this key, :data:`mvdd.ddl.rules.STRICTER`),
    made only when no key of the table serves the foreign key (see
    :func:`mvdd.ddl.apply._with_key_for`); ``constraint``: the name the
    statement gives a primary key (``PRIMARY KEY name (…)``, else ``CONSTRAINT name PRIMARY
    KEY``), which is named ``PRIMARY`` all the same, but which a later ``ADD PRIMARY KEY IF NOT
    EXISTS`` of that name in the statement meets (:mod:`mvdd.ddl.order`)."""

    index: IndexSpec
    if_not_exists: bool = False
    foreign_key: bool = False
    constraint: str | None = None


@attrs.frozen(kw_only=True)
class DropIndex(Step):
    """Drops an index by name; the primary key is ``PRIMARY``."""

    index: str
    if_exists: bool = False


@attrs.frozen(kw_only=True)
class RenameIndex(Step):
    """``RENAME {INDEX | KEY} [IF EXISTS] index TO to``."""

    index: str
    to: str
    if_exists: bool = False


@attrs.frozen(kw_only=True)
class SetIndexVisible(Step):
    index: str
    visible: bool
    if_exists: bool = False  # MariaDB's ALTER INDEX IF EXISTS


@attrs.frozen(kw_only=True)
class AddCheck(Step):
    name: str | None
    expr: Expr
    enforced: bool = True
    if_not_exists: bool = False  # MariaDB's ADD CONSTRAINT IF NOT EXISTS name CHECK (…)


@attrs.frozen(kw_only=True)
class DropCheck(Step):
    check: str
    if_exists: bool = False


@attrs.frozen(kw_only=True)
class DropConstraint(Step):
    """``DROP CONSTRAINT name``: a check or a unique index of that name."""

    name: str
    if_exists: bool = False


@attrs.frozen(kw_only=True)
class AlterCheck(Step):
    check: str
    enforced: bool


AnyStep: TypeAlias = (
    CreateTable
    | CreateTableLike
    | DropTable
    | RenameTable
    | TruncateTable
    | SetOptions
    | ConvertCharset
    | AddColumn
    | DropColumn
    | ModifyColumn
    | RenameColumn
    | SetDefault
    | DropDefault
    | AddIndex
    | DropIndex
    | RenameIndex
    | SetIndexVisible
    | AddCheck
    | DropCheck
    | DropConstraint
    | AlterCheck
)

#: steps that act on a whole table rather than on elements of it
TABLE_STEPS = (CreateTable, CreateTableLike, DropTable, RenameTable)

STEP_TYPES: tuple[type[Step], ...] = (
    CreateTable,
    CreateTableLike,
    DropTable,
    RenameTable,
    TruncateTable,
    SetOptions,
    ConvertCharset,
    AddColumn,
    DropColumn,
    ModifyColumn,
    RenameColumn,
    SetDefault,
    DropDefault,
    AddIndex,
    DropIndex,
    RenameIndex,
    SetIndexVisible,
    AddCheck,
    DropCheck,
    DropConstraint,
    AlterCheck,
)
