"""The SQL text of model values, as a generic function the layer that speaks SQL implements.

The model knows nothing of SQL text (sqlglot lives in :mod:`mvdd.ddl`), yet a table renders as
``Table.to_sql()`` and a step prints as the statement it stands for. :func:`sql_text` is declared
here and implemented by :mod:`mvdd.ddl.render`, which registers one renderer per value class
(``functools.singledispatch``), as sqlglot's expressions defer ``sql()`` to a dialect's
generator: dependencies point down, and ``import mvdd`` loads the renderers.
"""

from __future__ import annotations

from functools import singledispatch
from typing import Any


@singledispatch
def sql_text(value: Any) -> str:
    """The MySQL text of a model value (a table's ``CREATE TABLE``, a step's statement)."""
    raise TypeError(
        f"no SQL rendering of {type(value).__name__} is registered (mvdd.ddl.render registers "
        "them, and importing mvdd imports it)"
    )


__all__ = ["sql_text"]
