"""Read views and transactions over the catalog (seeds 003, 004), and the MySQL-style
metadata-lock baseline."""

from mvdd.txn.mdl import MetadataLocks
from mvdd.txn.transaction import Binding, Isolation, Transaction, TxState

__all__ = ["Binding", "Isolation", "MetadataLocks", "Transaction", "TxState"]
