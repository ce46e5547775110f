"""The schema lattice: the vector table of compare/join cases (each row also checks the laws),
the generic kernel's laws, and the join laws on generated schemas."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import mvdd
from mvdd import DDLError, IncomparableError, JoinConflictError, MvddError, Table, parse_table
from mvdd.join import lattice as L

VECTORS = Path(__file__).parent / "fixtures" / "join_vectors.txt"


def read_vectors() -> list[Any]:
    rows = []
    for number, line in enumerate(VECTORS.read_text().splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        a, b, cmp, joined = (part.strip() for part in line.split("|"))
        rows.append(pytest.param(a, b, cmp, joined, id=f"line{number}"))
    return rows


def table(inside: str) -> Table:
    return parse_table(f"CREATE TABLE t ({inside})")


def compare_or_error(a: Table, b: Table) -> int | IncomparableError:
    try:
        return mvdd.compare(a, b)
    except IncomparableError as err:
        return err


def join_or_error(*tables: Table) -> Table | JoinConflictError:
    try:
        return mvdd.join(*tables)
    except JoinConflictError as err:
        return err


def names(err: MvddError, name: str) -> bool:
    return f"`{name}`" in str(err) or name in (err.column, err.index)


VECTOR_ROWS = read_vectors()


def test_there_are_enough_vectors() -> None:
    assert len(VECTOR_ROWS) >= 100


@pytest.mark.parametrize(("a", "b", "cmp", "joined"), VECTOR_ROWS)
def test_vector(a: str, b: str, cmp: str, joined: str) -> None:
    ta, tb = table(a), table(b)
    forward, backward = compare_or_error(ta, tb), compare_or_error(tb, ta)
    if cmp.startswith("~"):
        assert isinstance(forward, IncomparableError), forward
        assert names(forward, cmp[1:].strip()), str(forward)
        assert isinstance(backward, IncomparableError)
    else:
        assert forward == int(cmp)
        assert backward == -int(cmp)  # the law: compare flips sign when swapped
    j1, j2 = join_or_error(ta, tb), join_or_error(tb, ta)
    if joined.startswith("!"):
        assert isinstance(j1, JoinConflictError), j1
        assert isinstance(j2, JoinConflictError)
        assert names(j1, joined[1:].strip()), str(j1)
        assert j1.definitions is not None and len(j1.definitions) == 2  # both sides named
        return
    assert isinstance(j1, Table), j1
    assert isinstance(j2, Table), j2
    expected = table(joined)
    assert not j1.differences(expected), j1.differences(expected)
    assert j1.equivalent(j2)  # the law: join commutes
    for side in (ta, tb):  # the law: the join is >= both sides
        assert mvdd.compare(side, j1) <= 0
    if not isinstance(forward, IncomparableError):  # ordered: the join is the greater one
        assert j1.equivalent(tb if forward <= 0 else ta)
    # a join renders to SQL that reads back as the same schema
    assert parse_table(j1.to_sql()).equivalent(j1)


def test_errors_name_the_element_and_both_sides() -> None:
    with pytest.raises(JoinConflictError) as err:
        mvdd.join("CREATE TABLE p (a INT, b FLOAT)", "CREATE TABLE q (a INT, b DATE)")
    assert err.value.column == "b"
    assert err.value.sides == ("#1 `p`", "#2 `q`")
    assert err.value.definitions == ("`b` FLOAT", "`b` DATE")
    with pytest.raises(IncomparableError) as inc:
        mvdd.compare("CREATE TABLE p (a INT, b INT)", "CREATE TABLE q (a BIGINT)")
    assert "`b`" in str(inc.value) and "`a`" in str(inc.value)


def test_bad_input() -> None:
    with pytest.raises(DDLError):
        mvdd.join()
    with pytest.raises(DDLError):
        mvdd.join("CREATE TABLE t (a INT", "CREATE TABLE t (a INT)")
    with pytest.raises(DDLError):
        mvdd.compare("ALTER TABLE t ADD b INT", "CREATE TABLE t (a INT)")
    with pytest.raises(DDLError):
        mvdd.join(42)  # type: ignore[arg-type]


def test_checks_whose_names_fold_alike_are_two_checks() -> None:
    """MariaDB holds a check `İ` (two bytes) beside a check `i` (one), as it does the Kelvin
    sign's beside `k`: the join keeps them apart, each with its own expression, and a side that
    lacks one drops only that one."""
    both = parse_table(
        "CREATE TABLE t (a INT, CONSTRAINT `İ` CHECK (a > 0), CONSTRAINT i CHECK (a < 9), "
        "CONSTRAINT `\u212a` CHECK (a <> 5), CONSTRAINT k CHECK (a <> 6))",
        replica=True,
    )
    alone = [(c.name, c.expr.sql) for c in both.checks]
    assert [(c.name, c.expr.sql) for c in mvdd.join(both).checks] == alone
    assert [(c.name, c.expr.sql) for c in mvdd.join(both, both).checks] == alone
    fewer = parse_table("CREATE TABLE t (a INT, CONSTRAINT i CHECK (a < 9))")
    for pair in ((both, fewer), (fewer, both)):
        assert [(c.name, c.expr.sql) for c in mvdd.join(*pair).checks] == [("i", "`a` < 9")]


def test_n_ary_join_keeps_implicit_defaults_open() -> None:
    """``x INT NOT NULL ⊔ (missing) ⊔ x INT NULL`` does not depend on the order (DESIGN §7)."""
    a = "CREATE TABLE t (x INT NOT NULL, k INT)"
    missing = "CREATE TABLE t (k INT)"
    b = "CREATE TABLE t (x INT NULL, k INT)"
    results = [
        mvdd.join(mvdd.join(a, missing), b),
        mvdd.join(a, mvdd.join(missing, b)),
        mvdd.join(mvdd.join(a, b), missing),
        mvdd.join(a, missing, b),
    ]
    for r in results:
        assert r.column("x").nullable and r.column("x").default is None


def test_a_joined_table_too_large_is_a_conflict() -> None:
    a = (
        "CREATE TABLE t ("
        + ", ".join(
            f"c{i} VARCHAR(2000) CHARACTER SET latin1 COLLATE latin1_bin" for i in range(30)
        )
        + ")"
    )
    b = "CREATE TABLE t (c0 VARCHAR(1) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin)"
    with pytest.raises(JoinConflictError, match="row size"):
        mvdd.join(a, b)


# --- the generic kernel -------------------------------------------------------------------------

KERNEL: list[tuple[L.Lattice, st.SearchStrategy[Any]]] = [
    (L.Max(), st.integers(-3, 3)),
    (L.Bool(), st.booleans()),
    (L.Chain(["s", "m", "l"]), st.sampled_from(["s", "m", "l"])),
    (L.Flat(), st.sampled_from([L.BOTTOM, 1, 2])),
    (L.Flat(top=None), st.sampled_from([1, 2, None])),
    (L.Poset({"a": {"c"}, "b": {"c"}}), st.sampled_from([L.BOTTOM, "a", "b", "c", "d"])),
    (L.Prefix(), st.lists(st.sampled_from("xy"), max_size=3).map(tuple)),
    (L.Record(n=L.Max(), s=L.Chain([0, 1])), st.tuples(st.integers(0, 2), st.integers(0, 1))),
    (
        L.Sum(L.Flat(), L.Max(), link=0),
        st.one_of(
            st.tuples(st.just(0), st.sampled_from("gh")), st.tuples(st.just(1), st.integers(-1, 2))
        ),
    ),
    (
        L.Tagged({"n": L.Max(), "s": L.Flat()}),
        st.one_of(
            st.just(L.BOTTOM),
            st.tuples(st.just("n"), st.integers(0, 2)),
            st.tuples(st.just("s"), st.sampled_from("ab")),
        ),
    ),
    (L.Keyed(L.Max(), missing=0), st.dictionaries(st.sampled_from("pq"), st.integers(1, 3))),
    (
        L.Keyed(L.Flat(), top_missing=True),
        st.dictionaries(st.sampled_from("pq"), st.integers(0, 1)),
    ),
]


def attempt(fn: Any, *args: Any) -> Any:
    try:
        return fn(*args)
    except L.LatticeError as err:
        return type(err)


@pytest.mark.parametrize(("lattice", "values"), KERNEL, ids=lambda v: type(v).__name__)
def test_kernel_laws(lattice: L.Lattice, values: st.SearchStrategy[Any]) -> None:
    @given(values, values, values)
    def laws(a: Any, b: Any, c: Any) -> None:
        assert lattice.compare(a, a) == 0
        assert lattice.join(a, a) == a
        ab, ba = attempt(lattice.compare, a, b), attempt(lattice.compare, b, a)
        assert ab == (-ba if isinstance(ba, int) else ba)
        j = attempt(lattice.join, a, b)
        assert j == attempt(lattice.join, b, a)
        if j is not L.Conflict:
            assert lattice.compare(a, j) <= 0 and lattice.compare(b, j) <= 0
            if ab != L.Incomparable:  # an ordered pair joins to the greater
                assert j == (b if ab <= 0 else a)
            bc = attempt(lattice.join, b, c)
            left = attempt(lattice.join, j, c)
            right = attempt(lattice.join, a, bc) if bc is not L.Conflict else L.Conflict
            if L.Conflict not in (left, right):
                assert left == right
        everything = attempt(lattice.join_all, [a, b, c])
        for order in itertools.permutations([a, b, c]):
            assert attempt(lattice.join_all, list(order)) == everything

    laws()


def test_kernel_errors_carry_the_path() -> None:
    record = L.Record(x=L.Keyed(L.Flat()))
    with pytest.raises(L.Conflict) as err:
        record.join(({"k": 1},), ({"k": 2},))
    assert err.value.path == ("x", "k") and (err.value.left, err.value.right) == (1, 2)


# --- join laws on generated schemas -------------------------------------------------------------

COLUMN_VARIANTS = {
    "a": ["INT", "BIGINT", "INT NOT NULL", "BIGINT NOT NULL DEFAULT 3", "INT NOT NULL DEFAULT 3"],
    "b": [
        "VARCHAR(5) CHARACTER SET latin1 COLLATE latin1_bin",
        "VARCHAR(9) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin",
        "VARCHAR(7) CHARACTER SET utf8mb3 COLLATE utf8mb3_bin NOT NULL",
        "VARCHAR(5)",
    ],
    "c": [
        "ENUM('x','y')",
        "ENUM('x','y','z') NOT NULL",
        "ENUM('x','y') NOT NULL DEFAULT 'y'",
        "SET('x')",
    ],
    "d": [
        "TEXT CHARACTER SET latin1 COLLATE latin1_bin",
        "TINYTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL",
        "MEDIUMTEXT",
        "DATE",
    ],
    "g": ["INT AS (1) STORED", "INT AS (2) STORED", "INT", "INT NOT NULL"],
}
#: (definition, the columns it needs)
CONSTRAINTS = [
    ("KEY k1 (a)", {"a"}),
    ("KEY k1 (a, b)", {"a", "b"}),
    ("UNIQUE KEY k2 (c)", {"c"}),
    ("KEY k3 (b(3))", {"b"}),
    ("CONSTRAINT ch CHECK (a > 0)", {"a"}),
    ("CONSTRAINT ch CHECK (a > 0) NOT ENFORCED", {"a"}),
    ("CONSTRAINT ch CHECK (a < 9)", {"a"}),
]


@st.composite
def schemas(draw: st.DrawFn) -> Table:
    cols = {
        name: draw(st.sampled_from(variants))
        for name, variants in COLUMN_VARIANTS.items()
        if draw(st.booleans())
    } or {"a": "INT"}
    parts = [f"{n} {t}" for n, t in cols.items()]
    names: set[str] = set()
    for definition, needs in CONSTRAINTS:
        name = "ch" if "CHECK" in definition else definition.split("(")[0].split()[-1]
        if needs <= cols.keys() and name not in names and draw(st.booleans()):
            parts.append(definition)
            names.add(name)
    return parse_table(f"CREATE TABLE t ({', '.join(parts)})")


def same(x: Any, y: Any) -> bool:
    if isinstance(x, Table) and isinstance(y, Table):
        return mvdd.compare(x, y) == 0 and x.equivalent(y)
    return type(x) is type(y)


@given(schemas(), schemas())
def test_join_commutes(a: Table, b: Table) -> None:
    assert same(join_or_error(a, b), join_or_error(b, a))


@given(schemas())
def test_join_is_idempotent(a: Table) -> None:
    j = mvdd.join(a, a)
    assert same(j, a) or mvdd.compare(a, j) == 0


@given(schemas(), schemas(), schemas())
def test_join_is_associative(a: Table, b: Table, c: Table) -> None:
    whole = join_or_error(a, b, c)
    for x, y, z in itertools.permutations([a, b, c]):
        assert same(join_or_error(x, y, z), whole)  # the n-ary join ignores the order
        left, right = join_or_error(x, y), join_or_error(y, z)
        grouped = [
            join_or_error(left, z) if isinstance(left, Table) else left,
            join_or_error(x, right) if isinstance(right, Table) else right,
        ]
        for g in grouped:
            # a conflict is a property of a pair of tables: folding may drop a disputed index
            # before the pair meets, so only groupings that are both defined must agree
            if isinstance(g, Table) and isinstance(whole, Table):
                assert same(g, whole)
    if isinstance(whole, Table):
        for side in (a, b, c):
            assert mvdd.compare(side, whole) <= 0
