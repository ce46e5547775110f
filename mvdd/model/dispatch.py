"""Generic functions for the statement path: :func:`by_class`, ``functools.singledispatch``
with each argument class's implementation remembered in one dictionary.

``singledispatch`` finds a call's implementation through three Python calls (its wrapper, its
``dispatch``, and the ``WeakKeyDictionary`` of its cache); a statement's reading, its ALTER's
actions and their application each make one. :func:`by_class` keeps ``singledispatch`` for
the registry and the resolution along the class's method resolution order, and looks an
argument's exact class up in a plain dictionary first: one Python call, the wrapper's own.

The dictionary is emptied at each registration. The classes dispatched on here (sqlglot's
nodes, mvdd's steps) are plain classes: a virtual subclass an ``abc`` registration made after
a first call would not be seen (``singledispatch`` itself would see it).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from functools import _SingleDispatchCallable

T = TypeVar("T")


def by_class(func: Callable[..., T]) -> _SingleDispatchCallable[T]:
    """``functools.singledispatch(func)``, whose calls find their implementation by the first
    argument's exact class in one dictionary lookup (see the module's docstring).

    >>> @by_class
    ... def size(x: object) -> str:
    ...     return "unknown"
    >>> @size.register
    ... def _(x: int) -> str:
    ...     return "a number"
    >>> size(1), size(True), size("a")
    ('a number', 'a number', 'unknown')
    >>> size.register(str, lambda x: "a text")  # doctest: +ELLIPSIS
    <function <lambda> at ...>
    >>> size("a"), size(True)
    ('a text', 'a number')
    """
    generic = functools.singledispatch(func)
    resolve = generic.dispatch
    found: dict[type, Callable[..., T]] = {}

    def call(arg: Any, /, *args: Any, **kwargs: Any) -> T:
        impl = found.get(arg.__class__)
        if impl is None:
            impl = found[arg.__class__] = resolve(arg.__class__)
        return impl(arg, *args, **kwargs)

    def register(cls: Any, method: Any = None) -> Any:
        found.clear()
        return generic.register(cls, method)

    def clear_cache() -> None:
        found.clear()
        generic._clear_cache()

    functools.update_wrapper(call, func)
    wrapper: Any = call
    wrapper.register = register
    wrapper.dispatch = resolve
    wrapper.registry = generic.registry
    wrapper._clear_cache = clear_cache
    return wrapper  # type: ignore[no-any-return]


__all__ = ["by_class"]
