"""The kinds of MySQL column type, their families, and the sizes the server gives them."""

from __future__ import annotations

from enum import StrEnum


class TypeKind(StrEnum):
    """Every MySQL column type, by its canonical name."""

    TINYINT = "TINYINT"
    SMALLINT = "SMALLINT"
    MEDIUMINT = "MEDIUMINT"
    INT = "INT"
    BIGINT = "BIGINT"
    DECIMAL = "DECIMAL"
    FLOAT = "FLOAT"
    DOUBLE = "DOUBLE"
    BIT = "BIT"
    CHAR = "CHAR"
    VARCHAR = "VARCHAR"
    BINARY = "BINARY"
    VARBINARY = "VARBINARY"
    TINYTEXT = "TINYTEXT"
    TEXT = "TEXT"
    MEDIUMTEXT = "MEDIUMTEXT"
    LONGTEXT = "LONGTEXT"
    TINYBLOB = "TINYBLOB"
    BLOB = "BLOB"
    MEDIUMBLOB = "MEDIUMBLOB"
    LONGBLOB = "LONGBLOB"
    ENUM = "ENUM"
    SET = "SET"
    DATE = "DATE"
    TIME = "TIME"
    DATETIME = "DATETIME"
    TIMESTAMP = "TIMESTAMP"
    YEAR = "YEAR"
    JSON = "JSON"
    GEOMETRY = "GEOMETRY"
    POINT = "POINT"
    LINESTRING = "LINESTRING"
    POLYGON = "POLYGON"
    MULTIPOINT = "MULTIPOINT"
    MULTILINESTRING = "MULTILINESTRING"
    MULTIPOLYGON = "MULTIPOLYGON"
    GEOMETRYCOLLECTION = "GEOMETRYCOLLECTION"
    UUID = "UUID"
    INET4 = "INET4"
    INET6 = "INET6"


class Family(StrEnum):
    """Groups of kinds that share parameters and rules."""

    INTEGER = "integer"
    DECIMAL = "decimal"
    FLOAT = "float"
    BIT = "bit"
    CHAR = "char"  # CHAR, VARCHAR
    BINARY = "binary"  # BINARY, VARBINARY
    TEXT = "text"
    BLOB = "blob"
    ENUM = "enum"  # ENUM, SET
    TEMPORAL = "temporal"
    JSON = "json"
    SPATIAL = "spatial"
    #: MariaDB's plugin types (UUID, INET4, INET6): fixed-size bytes, text to a client
    PLUGIN = "plugin"


K = TypeKind
FAMILY: dict[TypeKind, Family] = {
    **dict.fromkeys((K.TINYINT, K.SMALLINT, K.MEDIUMINT, K.INT, K.BIGINT), Family.INTEGER),
    K.DECIMAL: Family.DECIMAL,
    K.FLOAT: Family.FLOAT,
    K.DOUBLE: Family.FLOAT,
    K.BIT: Family.BIT,
    K.CHAR: Family.CHAR,
    K.VARCHAR: Family.CHAR,
    K.BINARY: Family.BINARY,
    K.VARBINARY: Family.BINARY,
    **dict.fromkeys((K.TINYTEXT, K.TEXT, K.MEDIUMTEXT, K.LONGTEXT), Family.TEXT),
    **dict.fromkeys((K.TINYBLOB, K.BLOB, K.MEDIUMBLOB, K.LONGBLOB), Family.BLOB),
    K.ENUM: Family.ENUM,
    K.SET: Family.ENUM,
    **dict.fromkeys((K.DATE, K.TIME, K.DATETIME, K.TIMESTAMP, K.YEAR), Family.TEMPORAL),
    K.JSON: Family.JSON,
    **dict.fromkeys(
        (
            K.GEOMETRY,
            K.POINT,
            K.LINESTRING,
            K.POLYGON,
            K.MULTIPOINT,
            K.MULTILINESTRING,
            K.MULTIPOLYGON,
            K.GEOMETRYCOLLECTION,
        ),
        Family.SPATIAL,
    ),
    **dict.fromkeys((K.UUID, K.INET4, K.INET6), Family.PLUGIN),
}
#: bytes a value of each plugin kind takes (in a row, in the binlog, as a binary string)
PLUGIN_BYTES: dict[TypeKind, int] = {K.UUID: 16, K.INET4: 4, K.INET6: 16}

#: storage bytes of each integer kind
INTEGER_BYTES: dict[TypeKind, int] = {
    K.TINYINT: 1,
    K.SMALLINT: 2,
    K.MEDIUMINT: 3,
    K.INT: 4,
    K.BIGINT: 8,
}
#: the (min, max) each integer kind stores, signed (False) and unsigned (True)
INTEGER_RANGES: dict[tuple[TypeKind, bool], tuple[int, int]] = {
    **{(k, False): (-(2 ** (8 * n - 1)), 2 ** (8 * n - 1) - 1) for k, n in INTEGER_BYTES.items()},
    **{(k, True): (0, 2 ** (8 * n) - 1) for k, n in INTEGER_BYTES.items()},
}
#: the large objects, stored off the row: a key takes a prefix of one, a UNIQUE key a hash (a
#: JSON column is MariaDB's LONGTEXT of utf8mb4_bin, keyed as one; MySQL keys none)
LOB_FAMILIES: frozenset[Family] = frozenset({Family.TEXT, Family.BLOB, Family.JSON})
#: the largest value in bytes of each TEXT/BLOB size, smallest first
LOB_BYTES: dict[TypeKind, int] = {
    K.TINYTEXT: 255,
    K.TEXT: 65535,
    K.MEDIUMTEXT: 16777215,
    K.LONGTEXT: 4294967295,
    K.TINYBLOB: 255,
    K.BLOB: 65535,
    K.MEDIUMBLOB: 16777215,
    K.LONGBLOB: 4294967295,
}
TEXT_SIZES = (K.TINYTEXT, K.TEXT, K.MEDIUMTEXT, K.LONGTEXT)
BLOB_SIZES = (K.TINYBLOB, K.BLOB, K.MEDIUMBLOB, K.LONGBLOB)
#: integer display width MySQL shows when none is given (signed, unsigned)
DEFAULT_INT_WIDTH: dict[TypeKind, tuple[int, int]] = {
    K.TINYINT: (4, 3),
    K.SMALLINT: (6, 5),
    K.MEDIUMINT: (9, 8),
    K.INT: (11, 10),
    K.BIGINT: (20, 20),
}

#: the server's limit on a row's stored bytes, not counting TEXT/BLOB contents
MAX_ROW_BYTES = 65535
#: the longest VARCHAR/VARBINARY, in bytes
MAX_VARCHAR_BYTES = 65532
CHARSET_FAMILIES = frozenset({Family.CHAR, Family.TEXT, Family.ENUM})
#: the binary string each character string is in the charset ``binary`` (as the servers make
#: a ``VARCHAR(10) CHARACTER SET binary`` a ``VARBINARY(10)``, a TEXT of a table of that
#: charset a BLOB): the same length, the same size
BINARY_TWIN: dict[TypeKind, TypeKind] = {
    K.CHAR: K.BINARY,
    K.VARCHAR: K.VARBINARY,
    **dict(zip(TEXT_SIZES, BLOB_SIZES, strict=True)),
}
#: the character string each binary string is the twin of (:data:`BINARY_TWIN`'s inverse: a
#: ``VARBINARY(3) COLLATE utf8mb4_bin`` is MariaDB's ``VARCHAR(3)`` of that collation)
CHARACTER_TWIN: dict[TypeKind, TypeKind] = {b: c for c, b in BINARY_TWIN.items()}
#: the types whose values a server may hold as no Python date holds them: the zero date, a zero
#: month or day, a day its month lacks (under a lenient sql_mode), the year 0
CALENDAR = frozenset({K.DATE, K.DATETIME, K.TIMESTAMP})


__all__ = [
    "BINARY_TWIN",
    "BLOB_SIZES",
    "CALENDAR",
    "CHARACTER_TWIN",
    "CHARSET_FAMILIES",
    "DEFAULT_INT_WIDTH",
    "FAMILY",
    "INTEGER_BYTES",
    "INTEGER_RANGES",
    "LOB_BYTES",
    "MAX_ROW_BYTES",
    "MAX_VARCHAR_BYTES",
    "PLUGIN_BYTES",
    "TEXT_SIZES",
    "Family",
    "TypeKind",
]
