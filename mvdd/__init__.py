"""mvdd: a multi-version data dictionary. Schema changes (DDL) that never block data changes.

The public API (see the project's API contract) is importable from here. Importing ``mvdd`` is
light: Spark and database drivers load only when used.
"""

from mvdd import online, txn  # noqa: F401 (txn: Catalog.begin runs its transactions)
from mvdd.catalog import Catalog, Change
from mvdd.compat import Report, Violation, check, check_versions
from mvdd.ddl import parse_statements, parse_table
from mvdd.errors import (
    CatalogError,
    ConcurrentChangeError,
    DDLError,
    DDLParseError,
    DependencyError,
    FencedError,
    IncomparableError,
    IncompatibleChangeError,
    InvalidValueError,
    JoinConflictError,
    MvddError,
    NoSuchColumnError,
    NoSuchTableError,
    NoSuchVersionError,
    PositionError,
    SchemaChangedError,
    SchemaDriftError,
    SchemaUnknownError,
    SourceConfigError,
    SourceLost,
    StaleSchemaError,
    StoreError,
    UnsupportedDDLError,
)
from mvdd.join import compare, join
from mvdd.model import (
    NO_DEFAULT,
    BinlogPosition,
    Check,
    Column,
    ColumnType,
    Expr,
    Generated,
    Index,
    IndexKind,
    IndexPart,
    State,
    Table,
    TableOptions,
    TypeKind,
)
from mvdd.shard import Outcome, ShardGroup

__version__ = "0.1.0"

__all__ = [
    "NO_DEFAULT",
    "BinlogPosition",
    "Catalog",
    "CatalogError",
    "Change",
    "Check",
    "Column",
    "ColumnType",
    "ConcurrentChangeError",
    "DDLError",
    "DDLParseError",
    "DependencyError",
    "Expr",
    "FencedError",
    "Generated",
    "IncomparableError",
    "IncompatibleChangeError",
    "Index",
    "IndexKind",
    "IndexPart",
    "InvalidValueError",
    "JoinConflictError",
    "MvddError",
    "NoSuchColumnError",
    "NoSuchTableError",
    "NoSuchVersionError",
    "Outcome",
    "PositionError",
    "Report",
    "SchemaChangedError",
    "SchemaDriftError",
    "SchemaUnknownError",
    "ShardGroup",
    "SourceConfigError",
    "SourceLost",
    "StaleSchemaError",
    "State",
    "StoreError",
    "Table",
    "TableOptions",
    "TypeKind",
    "UnsupportedDDLError",
    "Violation",
    "check",
    "check_versions",
    "compare",
    "join",
    "online",
    "parse_statements",
    "parse_table",
]
