"""The versioned catalog: table versions, element version ranges, history and positions."""

from mvdd.catalog.catalog import Catalog, check_position
from mvdd.catalog.history import Change, TableHistory
from mvdd.catalog.plan import adopt_ids

__all__ = ["Catalog", "Change", "TableHistory", "adopt_ids", "check_position"]
