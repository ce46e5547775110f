"""Online-schema-change tools' helper tables (gh-ost, pt-online-schema-change).

Both tools copy a table ``t`` into a helper, alter the helper, and swap the two with one
``RENAME TABLE``. The tracked schema of ``t`` must follow that cut-over: these rules name the
helpers so the catalog can recognise them.

=========  =============  =========================
tool       copy (ghost)   old table after cut-over
=========  =============  =========================
gh-ost     ``_t_gho``     ``_t_del``
pt-osc     ``_t_new``     ``_t_old`` (also ``__t_new``/``__t_old``)
=========  =============  =========================

>>> ghost_base("_orders_gho"), ghost_base("__orders_new"), ghost_base("orders")
('orders', 'orders', None)
>>> is_cutover_pair("orders", "_orders_del", "_orders_gho")
True
"""

from __future__ import annotations

import re

_GHOST = re.compile(r"^_{1,2}(?P<base>.+)_(?P<tag>gho|new)$", re.DOTALL)
_OLD = re.compile(r"^_{1,2}(?P<base>.+)_(?P<tag>del|old)$", re.DOTALL)
#: gh-ost's changelog table
_CHANGELOG = re.compile(r"^_(?P<base>.+)_ghc$", re.DOTALL)
_PAIRS = {"gho": "del", "new": "old"}


def ghost_base(name: str) -> str | None:
    """The table a ghost (copy) table is named after, or None if the name is no ghost's."""
    m = _GHOST.match(name)
    return m["base"] if m else None


def is_helper(name: str) -> bool:
    """Whether a table is a tool's helper: a ghost, an old table after a cut-over, or gh-ost's
    changelog. Helpers are never a replication's shards.

    >>> is_helper("_orders_ghc"), is_helper("_orders_del"), is_helper("orders_del")
    (True, True, False)
    """
    return any(p.match(name) for p in (_GHOST, _OLD, _CHANGELOG))


def is_cutover_pair(table: str, old_name: str, ghost: str) -> bool:
    """Whether ``RENAME TABLE table TO old_name, ghost TO table`` is a tool's cut-over."""
    g, o = _GHOST.match(ghost), _OLD.match(old_name)
    return bool(
        g and o and g["base"] == table and o["base"] == table and _PAIRS[g["tag"]] == o["tag"]
    )
