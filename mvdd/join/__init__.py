"""The schema lattice (seed 000): compare and join of types, columns, indexes and tables.

:mod:`mvdd.join.lattice` is a generic join-semilattice kernel that knows nothing of MySQL;
:mod:`mvdd.join.encode` maps schema elements into it, "more permissive" always "greater";
:mod:`mvdd.join.schema` compares and joins whole tables.
"""

from mvdd.join.schema import as_table, compare, join

__all__ = ["as_table", "compare", "join"]
