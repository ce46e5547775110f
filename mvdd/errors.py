"""The error families of mvdd.

Every error raised through the public API is an :class:`MvddError`. Families also inherit the
standard exception a caller would catch (``DDLError`` is a ``ValueError``, the lookup errors are
``LookupError``), and every error names the place it is about: the statement, the table, the
column (id and name), the step, the shard, and for parse errors the line and column.

>>> err = DDLError("column does not exist", table="t", column="x")
>>> str(err)
'column does not exist (table `t`, column `x`)'
>>> isinstance(err, ValueError)
True
"""

from __future__ import annotations

from typing import Any, ClassVar, Self

_PLACES = (
    "statement_index",
    "statement",
    "table",
    "column",
    "index",
    "step",
    "source",
    "shard",
    "position",
)


def _quote(name: object) -> str:
    return "`" + str(name).replace("`", "``") + "`"


def _shorten(text: str, limit: int = 120) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


class MvddError(Exception):
    """Root of every mvdd error.

    Args:
        message: what went wrong, in a sentence.
        statement: the SQL statement the error is about (shortened in the message).
        statement_index: the statement's 1-based index when several were given at once.
        table, column, index: the schema element (names; ``column`` may carry ``"#id name"``).
        step: the step (a :mod:`mvdd.ddl.step` value or its text) that could not apply.
        source: the upstream server (a replicator's source name).
        shard: the shard, for the shard coordinator.
        position: where in a replicated log the event is (a binlog position or any value).
    """

    retryable: ClassVar[bool] = False
    statement: str | None
    statement_index: int | None
    table: str | None
    column: str | None
    index: str | None
    step: str | None
    source: str | None
    shard: str | None
    position: Any

    def __init__(self, message: str, **place: Any) -> None:
        unknown = set(place) - set(_PLACES) - self._extra_places()
        if unknown:
            raise TypeError(f"unknown error fields: {sorted(unknown)}")
        super().__init__(message)
        self.message = message
        for key in _PLACES:
            setattr(self, key, place.get(key))
        for key in self._extra_places():
            setattr(self, key, place.get(key))

    @classmethod
    def _extra_places(cls) -> frozenset[str]:
        return frozenset()

    def locate(self, **place: Any) -> Self:
        """Fill in the places not yet known (an inner layer knows the column, an outer the
        statement); returns the error itself so ``raise err.locate(statement=sql)`` reads well."""
        for key, value in place.items():
            if value is not None and getattr(self, key, None) is None:
                setattr(self, key, value)
        return self

    def where(self) -> str:
        """The place as text: ``table `t`, column `x`, statement 2: `ALTER ...```."""
        parts = []
        if self.source is not None:
            parts.append(f"source {self.source}")
        if self.shard is not None:
            parts.append(f"shard {_quote(self.shard)}")
        if self.position is not None:
            parts.append(f"position {self.position}")
        if self.table is not None:
            parts.append(f"table {_quote(self.table)}")
        if self.column is not None:
            parts.append(
                f"column {self.column if str(self.column).startswith('#') else _quote(self.column)}"
            )
        if self.index is not None:
            parts.append(f"index {_quote(self.index)}")
        if self.step is not None:
            parts.append(f"step {self.step}")
        if self.statement is not None:
            label = (
                "statement" if self.statement_index is None else f"statement {self.statement_index}"
            )
            parts.append(f"{label}: {_shorten(self.statement)!r}")
        return ", ".join(parts)

    def __str__(self) -> str:
        where = self.where()
        return f"{self.message} ({where})" if where else self.message

    def __reduce__(self) -> tuple[Any, ...]:
        state = {key: getattr(self, key) for key in (*_PLACES, *self._extra_places())}
        return (_rebuild, (type(self), self.message, state))


def _rebuild(cls: type[MvddError], message: str, state: dict[str, Any]) -> MvddError:
    err = cls.__new__(cls)
    Exception.__init__(err, message)
    err.message = message
    for key, value in state.items():
        setattr(err, key, value)
    return err


class DDLError(MvddError, ValueError):
    """A DDL statement that is malformed, unsupported, or cannot apply to the schema."""


class DDLParseError(DDLError):
    """SQL text that does not parse; ``line`` and ``col`` are 1-based, ``snippet`` shows where."""

    line: int | None
    col: int | None
    snippet: str | None

    @classmethod
    def _extra_places(cls) -> frozenset[str]:
        return frozenset({"line", "col", "snippet"})

    def where(self) -> str:
        base = super().where()
        if self.line is None:
            return base
        at = f"line {self.line}, column {self.col}"
        if self.snippet:
            at += f", near {self.snippet!r}"
        return f"{at}, {base}" if base else at


class InvalidValueError(MvddError, ValueError):
    """A value a column of its type cannot store (out of range, too long, not a member ...)."""


class UnsupportedDDLError(DDLError):
    """A statement mvdd does not model (a GRANT, a trigger, a partition change ...).

    Replication workers may choose to skip these (``Catalog(on_unsupported="skip")``)."""


class CatalogError(MvddError):
    """A catalog operation that cannot be done."""


class NoSuchTableError(CatalogError, LookupError):
    """The table does not exist (at that version or position)."""


class NoSuchVersionError(CatalogError, LookupError):
    """The table has no such version (or no version before that position)."""


class NoSuchColumnError(CatalogError, LookupError):
    """The table has no such column."""


class PositionError(CatalogError, ValueError):
    """A position that is out of order or not comparable with the recorded ones."""


class JoinConflictError(MvddError):
    """Two schemas have no join: names the column or index and both sides.

    ``sides`` labels the two sides (tables, or shards for a shard group) and ``definitions``
    gives each side's definition of the element; ``shards`` lists the shards involved when a
    shard group refuses a DDL."""

    sides: tuple[str, ...] | None
    definitions: tuple[str, ...] | None
    shards: tuple[str, ...] | None

    @classmethod
    def _extra_places(cls) -> frozenset[str]:
        return frozenset({"sides", "definitions", "shards"})


class IncomparableError(MvddError):
    """Two schemas are not ordered by the DML they accept; ``sides`` and ``definitions`` as for
    :class:`JoinConflictError`."""

    sides: tuple[str, ...] | None
    definitions: tuple[str, ...] | None

    @classmethod
    def _extra_places(cls) -> frozenset[str]:
        return frozenset({"sides", "definitions"})


class IncompatibleChangeError(MvddError):
    """A change judged incompatible; ``report`` lists every violation."""

    report: Any

    @classmethod
    def _extra_places(cls) -> frozenset[str]:
        return frozenset({"report"})


class SchemaChangedError(MvddError):
    """A schema changed under a transaction in a way it cannot commit across (retryable)."""

    report: Any

    retryable = True

    @classmethod
    def _extra_places(cls) -> frozenset[str]:
        return frozenset({"report"})


class ConcurrentChangeError(CatalogError):
    """Another process committed to the same table first (retryable: call again)."""

    retryable = True


class FencedError(CatalogError):
    """A write under a lease its writer no longer holds (another owner took over): refused, so a
    former owner can never commit a step."""


class StaleSchemaError(CatalogError):
    """A node that missed its lease (did not reload the schema in time) must not serve."""


class DependencyError(MvddError, ImportError):
    """A dependency is installed in a form mvdd cannot work with (raised when mvdd is
    imported, naming the remedy)."""


class StoreError(MvddError):
    """The durable store failed; ``cause`` is the driver's error."""

    cause: BaseException | None

    @classmethod
    def _extra_places(cls) -> frozenset[str]:
        return frozenset({"cause"})


class SourceConfigError(MvddError):
    """An upstream server that cannot be read correctly (binary log off, not ROW format, not
    FULL row images, missing privileges, a purged start position, MySQL's compressed
    transactions, unknown events or compressed ones that cannot be restored …); ``problems``
    lists every problem found, each a sentence."""

    problems: list[str]

    @classmethod
    def _extra_places(cls) -> frozenset[str]:
        return frozenset({"problems"})

    def __init__(self, message: str, **place: Any) -> None:
        super().__init__(message, **place)
        if self.problems is None:
            self.problems = [message]


class SourceLost(SourceConfigError):
    """The connection to an upstream server went away in the middle of a read that cannot be
    resumed on another connection (a snapshot's rows; a Spark job of a bulk copy, whichever
    server's connection it lost): a restart or a network cut. Starting over from the last
    checkpoint cures it; a server that stays unreachable for a reader's ``retry`` seconds
    raises a plain :class:`SourceConfigError` instead."""

    retryable = True


class SchemaDriftError(MvddError):
    """A row event whose table map (column count, types, names when logged) disagrees with the
    table version the catalog holds at that position: no row of it is decoded. ``expected``
    and ``found`` describe the column at ``column_index`` (0-based) on each side."""

    column_index: int | None
    expected: str | None
    found: str | None

    @classmethod
    def _extra_places(cls) -> frozenset[str]:
        return frozenset({"column_index", "expected", "found"})

    def where(self) -> str:
        base = super().where()
        if self.column_index is None:
            return base
        at = f"column {self.column_index}: expected {self.expected}, found {self.found}"
        return f"{base}, {at}" if base else at


class SchemaUnknownError(CatalogError):
    """No schema is known for a table at a position where a row of it must be decoded (a
    table created before the binlog's start, or one of a database the reader does not follow
    whose schema the server's no longer tells: renamed in, copied by ``LIKE``)."""


__all__ = [
    "CatalogError",
    "ConcurrentChangeError",
    "DDLError",
    "DDLParseError",
    "FencedError",
    "IncomparableError",
    "IncompatibleChangeError",
    "InvalidValueError",
    "JoinConflictError",
    "MvddError",
    "NoSuchColumnError",
    "NoSuchTableError",
    "NoSuchVersionError",
    "PositionError",
    "SchemaChangedError",
    "SchemaDriftError",
    "SchemaUnknownError",
    "SourceConfigError",
    "SourceLost",
    "StaleSchemaError",
    "StoreError",
    "UnsupportedDDLError",
]
