"""mvdd.model.frozen: a builder makes the value its class's ``__init__`` makes (the oracle),
takes the same arguments, and refuses a class whose ``__init__`` does more than store them."""

from __future__ import annotations

import inspect
import pickle
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mvdd.catalog import history
from mvdd.ddl import parse, statement
from mvdd.model import Column, ColumnType, Table
from mvdd.model.element import build_column
from mvdd.model.frozen import builder, draft

#: every builder mvdd makes, with the class it builds
BUILDERS: list[tuple[Any, type]] = [
    (build_column, Column),
    (history._change, history.Change),
    (history._meta, history.TableMeta),
    (statement._statement, statement.Statement),
    (parse._add_column, parse.s.AddColumn),
    (parse._modify_column, parse.s.ModifyColumn),
    (parse._drop_column, parse.s.DropColumn),
]


@pytest.mark.parametrize(("build", "cls"), BUILDERS, ids=[c.__name__ for _, c in BUILDERS])
def test_a_builder_takes_what_its_class_takes(build: Any, cls: type) -> None:
    """The same parameters, of the same kinds, with the very same defaults."""

    def shape(function: Any) -> list[tuple[str, Any, Any]]:
        params = inspect.signature(function).parameters.values()
        return [(p.name, p.kind, p.default) for p in params]

    assert shape(build) == shape(cls)


@pytest.mark.parametrize(("build", "cls"), BUILDERS, ids=[c.__name__ for _, c in BUILDERS])
@given(data=st.data())
def test_a_built_value_is_the_one_its_class_makes(build: Any, cls: type, data: Any) -> None:
    """Each argument given or left to its default (any value: nothing is converted or
    checked), the built value is of the class, equal, hashing alike, frozen, and pickles."""
    given_args: dict[str, Any] = {}
    for field in attrs.fields(cls):
        if not field.init:
            continue
        required = field.default is attrs.NOTHING
        if required or data.draw(st.booleans(), label=f"give {field.name}"):
            given_args[field.alias] = data.draw(
                st.one_of(st.integers(), st.text(max_size=3), st.none(), st.tuples(st.integers())),
                label=field.name,
            )
    made: Any = build(**given_args)
    oracle: Any = cls(**given_args)
    name = attrs.fields(cls)[0].name
    assert attrs.evolve(made, **{name: 2}) == attrs.evolve(oracle, **{name: 2})
    assert type(made) is cls
    assert made == oracle and repr(made) == repr(oracle)
    assert hash(made) == hash(oracle)
    assert pickle.loads(pickle.dumps(made)) == oracle
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        setattr(made, name, 1)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        delattr(made, name)


def test_a_builder_takes_positional_arguments_where_its_class_does() -> None:
    st_ = statement._statement(1, "DROP TABLE t", ())
    assert st_ == statement.Statement(1, "DROP TABLE t", ())
    with pytest.raises(TypeError):
        build_column(0, "a", ColumnType.of("int"))  # (Column's fields are keyword-only)


def test_a_draft_becomes_its_class_only_when_every_slot_is_filled_by_the_maker() -> None:
    table = Table(name="t", columns=[Column(id=1, name="a", type=ColumnType.of("int"))])
    remade = table._made(name="u")
    assert type(remade) is Table and remade.name == "u" and remade.columns is table.columns
    assert draft(Table) is draft(Table)  # one draft per class
    assert issubclass(draft(Table), Table) and draft(Table).__dict__["__slots__"] == ()


@attrs.frozen
class _Converted:
    x: int = attrs.field(converter=int)


@attrs.frozen
class _Validated:
    x: int = attrs.field(validator=attrs.validators.instance_of(int))


@attrs.frozen
class _Factory:
    x: list[int] = attrs.field(factory=list)


@attrs.frozen
class _Hooked:
    x: int

    def __attrs_post_init__(self) -> None:
        pass


@attrs.define
class _Mutable:
    x: int


@attrs.frozen(slots=False)
class _Dicted:
    x: int


class _Plain:
    x: int


@pytest.mark.parametrize(
    "cls", [_Converted, _Validated, _Factory, _Hooked, _Mutable, _Dicted, _Plain]
)
def test_a_class_whose_init_does_more_than_store_has_no_builder(cls: type) -> None:
    with pytest.raises(TypeError, match=cls.__qualname__):
        builder(cls)
