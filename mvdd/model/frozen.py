"""Frozen values made at the cost of a plain object: :func:`builder`, a constructor of a frozen,
slotted attrs class for the statement path.

A frozen attrs class refuses attribute stores (its ``__setattr__`` raises), so the ``__init__``
attrs writes for it sets each field through ``object.__setattr__``: a call through a method
wrapper, with its argument tuple, per field. That is about a thousand machine instructions a
field, where an interpreter's store into a slot takes a few dozen: a 13-field
:class:`~mvdd.model.Column` costs about 17k instructions to make, and an ``ALTER TABLE … ADD
COLUMN`` makes eight such values (its step, its column twice, its statement, its change …),
about a sixth of its work past the parse.

:func:`builder` writes, once per class, a function of the very signature of the class's
``__init__`` that makes an instance of a private subclass adding no slot and keeping
``object``'s ``__setattr__`` (so its stores are the interpreter's plain slot stores), then makes
it the class's own by assigning its ``__class__`` (which CPython allows between two classes of
one layout, and checks). The value is the class's in every way: of its type, equal and hashing
as the one ``__init__`` makes, frozen. Only a class whose ``__init__`` does nothing but store its
arguments and plain defaults has a builder (no converter, validator, factory, or pre/post-init
hook: :func:`builder` refuses the others), so the two make the same value; a test holds each
builder to its class's ``__init__``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import attrs

T = TypeVar("T")

#: the slot attrs adds for ``cache_hash=True`` (None until the first hash)
_CACHED_HASH = "_attrs_cached_hash"
_HOOKS = ("__attrs_pre_init__", "__attrs_post_init__")


def builder(cls: type[T]) -> Callable[..., T]:
    """A constructor of ``cls`` (a frozen, slotted attrs class) taking the arguments its
    ``__init__`` takes, that makes the same value at about a quarter of the cost (a
    :class:`~mvdd.model.Column`: 4k machine instructions where its ``__init__`` takes 17k).

    >>> @attrs.frozen
    ... class P:
    ...     x: int
    ...     y: int = 0
    >>> make = builder(P)
    >>> make(1), make(1, y=2) == P(1, 2), type(make(1)) is P
    (P(x=1, y=0), True, True)

    Raises:
        TypeError: ``cls`` is not a frozen slotted attrs class, or its ``__init__`` does more
            than store its arguments (a converter, a validator, a factory, a hook).
    """
    if not attrs.has(cls) or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__qualname__} is not a slotted attrs class")
    if cls.__setattr__ is object.__setattr__:
        raise TypeError(f"{cls.__qualname__} is not frozen: its own __init__ stores plainly")
    hooks = [hook for hook in _HOOKS if hasattr(cls, hook)]
    if hooks:
        raise TypeError(f"{cls.__qualname__} has {hooks[0]}")
    space: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    positional: list[str] = []
    keyword: list[str] = []
    stores: list[str] = []
    fields = attrs.fields(cls)
    for i, field in enumerate(fields):
        default = field.default
        if (
            field.converter is not None
            or field.validator is not None
            or isinstance(default, attrs.Factory)  # type: ignore[arg-type]
        ):
            raise TypeError(f"{cls.__qualname__}.{field.name} is more than a stored argument")
        space[f"_d{i}"] = default
        if not field.init:
            stores.append(f"    out.{field.name} = _d{i}")
            continue
        param = field.alias if default is attrs.NOTHING else f"{field.alias}=_d{i}"
        (keyword if field.kw_only else positional).append(param)
        stores.append(f"    out.{field.name} = {field.alias}")
    slots = {
        name
        for klass in cls.__mro__[:-1]
        for name in klass.__dict__.get("__slots__", ())
        if name != "__weakref__"
    }
    if slots - {field.name for field in fields} - {_CACHED_HASH}:
        raise TypeError(f"{cls.__qualname__} has slots beyond its fields")
    if _CACHED_HASH in slots:
        stores.append(f"    out.{_CACHED_HASH} = None")
    space["_draft"] = draft(cls)
    params = ", ".join(positional + (["*", *keyword] if keyword else []))
    lines = [f"def build({params}):", "    out = _new(_draft)", *stores]
    source = "\n".join([*lines, "    out.__class__ = _cls", "    return out"])
    exec(compile(source, f"<builder of {cls.__module__}.{cls.__qualname__}>", "exec"), space)
    build: Callable[..., T] = space["build"]
    build.__qualname__ = build.__name__ = f"build_{cls.__name__}"
    build.__doc__ = f"A {cls.__qualname__}, as its ``__init__`` makes it (:func:`builder`)."
    return build


def draft(cls: type[T]) -> type[T]:
    """The draft of a frozen slotted class: a subclass of its layout (adding no slot) whose
    attributes are stored plainly. A value made as an instance of it, its slots filled, becomes
    the class's own by ``out.__class__ = cls`` (CPython checks that the layouts agree); a maker
    that does this must fill every slot, as :func:`builder`'s do.

    >>> @attrs.frozen
    ... class P:
    ...     x: int
    >>> p = object.__new__(draft(P))
    >>> p.x = 1
    >>> p.__class__ = P
    >>> p, p == P(1)
    (P(x=1), True)
    """
    made = _DRAFTS.get(cls)
    if made is None:
        made = _DRAFTS[cls] = type(
            f"{cls.__name__}Draft",
            (cls,),
            {
                "__slots__": (),
                "__setattr__": object.__setattr__,  # (both, so the class stores as object does)
                "__delattr__": object.__delattr__,
                "__module__": cls.__module__,
            },
        )
    return made


_DRAFTS: dict[type, type] = {}

__all__ = ["builder", "draft"]
