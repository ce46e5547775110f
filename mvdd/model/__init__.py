"""The schema model: frozen values for types, columns, indexes, checks and tables.

Knows nothing of SQL text; the :mod:`mvdd.ddl` layer parses and renders it.
"""

from mvdd.model.element import (
    DELETABLE,
    NO_DEFAULT,
    PRIMARY,
    READABLE,
    WRITABLE,
    Check,
    Column,
    Default,
    ElementKind,
    Expr,
    Generated,
    Index,
    IndexKind,
    IndexPart,
    State,
)
from mvdd.model.kind import Family, TypeKind
from mvdd.model.position import BinlogPosition
from mvdd.model.table import Table, TableOptions
from mvdd.model.types import ColumnType

__all__ = [
    "DELETABLE",
    "NO_DEFAULT",
    "PRIMARY",
    "READABLE",
    "WRITABLE",
    "BinlogPosition",
    "Check",
    "Column",
    "ColumnType",
    "Default",
    "ElementKind",
    "Expr",
    "Family",
    "Generated",
    "Index",
    "IndexKind",
    "IndexPart",
    "State",
    "Table",
    "TableOptions",
    "TypeKind",
]
