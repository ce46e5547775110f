"""MySQL column types as Spark types, and values as Spark holds them.

:func:`struct_type` maps a table version to a Spark ``StructType``; staging schemas carry rows
written under several versions of a table (the union of the names ever used, a version column).
Values the server computes are NULL here; so are dates no Python date holds (the zero date …:
:data:`~mvdd.model.kind.CALENDAR`); TIME and YEAR are strings and shorts; DECIMAL wider than
Spark's 38 digits is a string.

>>> from mvdd import parse_table
>>> struct_type(parse_table("CREATE TABLE t (id BIGINT NOT NULL, name VARCHAR(20))")).simpleString()
'struct<id:bigint,name:string>'
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from pyspark.sql import Column as SparkColumn
from pyspark.sql import types as T

from mvdd.model import ColumnType, Expr, Table
from mvdd.model.coerce import python_date
from mvdd.model.kind import CALENDAR, Family, TypeKind

K = TypeKind

# --- types ------------------------------------------------------------------------------------

_INTEGERS: dict[tuple[TypeKind, bool], T.DataType] = {
    (K.TINYINT, False): T.ByteType(),
    (K.TINYINT, True): T.ShortType(),
    (K.SMALLINT, False): T.ShortType(),
    (K.SMALLINT, True): T.IntegerType(),
    (K.MEDIUMINT, False): T.IntegerType(),
    (K.MEDIUMINT, True): T.IntegerType(),
    (K.INT, False): T.IntegerType(),
    (K.INT, True): T.LongType(),
    (K.BIGINT, False): T.LongType(),
    (K.BIGINT, True): T.DecimalType(20, 0),
}

#: the Spark type of each family (integers and decimals are decided by their parameters)
FAMILY_TYPES: dict[Family, T.DataType] = {
    Family.FLOAT: T.DoubleType(),
    Family.BIT: T.LongType(),
    Family.CHAR: T.StringType(),
    Family.TEXT: T.StringType(),
    Family.ENUM: T.StringType(),
    Family.JSON: T.StringType(),
    Family.BINARY: T.BinaryType(),
    Family.BLOB: T.BinaryType(),
    Family.SPATIAL: T.BinaryType(),
    Family.PLUGIN: T.StringType(),  # the text the server prints (UUID, INET4, INET6)
}
TEMPORAL_TYPES: dict[TypeKind, T.DataType] = {
    K.DATE: T.DateType(),
    K.DATETIME: T.TimestampNTZType(),
    K.TIMESTAMP: T.TimestampNTZType(),
    K.TIME: T.StringType(),
    K.YEAR: T.ShortType(),
}


def spark_type(ctype: ColumnType) -> T.DataType:
    """The Spark type holding every value of a MySQL type."""
    fam = ctype.family
    if fam == Family.INTEGER:
        return _INTEGERS[(ctype.kind, ctype.unsigned)]
    if fam == Family.DECIMAL:
        assert ctype.precision is not None and ctype.scale is not None
        if ctype.precision > 38:
            return T.StringType()
        return T.DecimalType(ctype.precision, ctype.scale)
    if ctype.kind == K.FLOAT:
        return T.FloatType()
    if fam == Family.TEMPORAL:
        return TEMPORAL_TYPES[ctype.kind]
    if fam == Family.BIT and ctype.length == 64:
        return T.DecimalType(20, 0)  # (2 ** 64 - 1 is no long)
    return FAMILY_TYPES[fam]


def cast(value: SparkColumn, dtype: T.DataType, *, tried: bool = False) -> SparkColumn:
    """``value`` cast to ``dtype`` (``tried``: NULL where it does not cast, Spark's
    ``try_cast``), the type given by its SQL name: one call into the JVM, where a cast to a
    ``DataType`` asks the JVM for the session and has it parse the type's JSON besides (a bulk
    copy's chunk and a lake's batch each build a plan of hundreds of casts). Every type
    :func:`spark_type` gives is a simple one, which that name spells whole."""
    name = dtype.simpleString()
    return value.try_cast(name) if tried else value.cast(name)


def struct_type(table: Table) -> T.StructType:
    """A table version as a Spark schema: its public columns, in order."""
    return T.StructType(
        [T.StructField(c.name, spark_type(c.type), c.nullable) for c in table.public_columns]
    )


def to_spark(ctype: ColumnType, value: Any) -> Any:
    """A canonical mvdd value as the Python value Spark stores for it (None for what Spark
    cannot hold: a zero date, a value the server computes)."""
    if value is None or isinstance(value, Expr):
        return None
    fam = ctype.family
    if ctype.kind in CALENDAR:
        return python_date(ctype.kind, value)
    if fam == Family.DECIMAL:
        return Decimal(value) if not isinstance(spark_type(ctype), T.StringType) else str(value)
    if fam == Family.BIT:
        return Decimal(value) if isinstance(spark_type(ctype), T.DecimalType) else value
    if fam == Family.FLOAT:
        return float(value)
    if ctype.kind == K.YEAR:
        return int(value)
    return value


def staging_type(types: Iterable[ColumnType]) -> T.DataType:
    """One Spark type for a column name that held these types over a table's versions: the
    shared type, the widest integer, else a string (each version's value casts from it)."""
    seen = [spark_type(t) for t in types]
    if all(t == seen[0] for t in seen):
        return seen[0]
    integral = (T.ByteType, T.ShortType, T.IntegerType, T.LongType)
    if all(isinstance(t, integral) for t in seen):
        return T.LongType()
    return T.StringType()


def staging_schema(versions: Iterable[Table], *, version_col: str = "_version") -> T.StructType:
    """The schema of a DataFrame of rows written under ``versions``, as :func:`upgrade` reads
    it: the version column, then every column name ever used (absent ones null)."""
    by_name: dict[str, list[ColumnType]] = {}
    for table in versions:
        for c in table.public_columns:
            by_name.setdefault(c.name, []).append(c.type)
    fields = [T.StructField(version_col, T.IntegerType(), False)]
    fields += [T.StructField(n, staging_type(ts), True) for n, ts in by_name.items()]
    return T.StructType(fields)


def staging_value(field: T.DataType, ctype: ColumnType, value: Any) -> Any:
    """A canonical value as the staging column of type ``field`` holds it."""
    out = to_spark(ctype, value)
    if out is not None and isinstance(field, T.StringType) and not isinstance(out, str):
        return out.isoformat() if isinstance(out, dt.date) else str(out)
    return out


__all__ = [
    "FAMILY_TYPES",
    "TEMPORAL_TYPES",
    "spark_type",
    "staging_schema",
    "staging_type",
    "staging_value",
    "struct_type",
    "to_spark",
]
