"""The versioned catalog: table versions, element version ranges, history and positions."""

from mvdd.catalog.catalog import Catalog, adopt_ids, check_position
from mvdd.catalog.history import Change, TableHistory

__all__ = ["Catalog", "Change", "TableHistory", "adopt_ids", "check_position"]
