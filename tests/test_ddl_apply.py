"""apply(step, table): ids, rules and errors, on small tables."""

from __future__ import annotations

import pytest

from mvdd import (
    NO_DEFAULT,
    DDLError,
    DDLParseError,
    IndexKind,
    UnsupportedDDLError,
    parse_statements,
    parse_table,
)
from mvdd.ddl import Rules, apply, apply_steps, validate_table
from mvdd.ddl.render import render_steps
from mvdd.model import Table
from mvdd.model.table import changed_window


def alter(table: Table, sql: str) -> Table:
    (statement,) = parse_statements(sql)
    out = apply_steps(table, statement.steps)
    validate_table(out)
    return out


def applied(table: Table, sql: str) -> Table | None:
    """``table`` after every step of ``sql``, unvalidated; None when a step cannot apply."""
    try:
        return apply_steps(table, [x for st in parse_statements(sql) for x in st.steps])
    except DDLError:
        return None


BASE = parse_table(
    "CREATE TABLE t (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, a VARCHAR(10) DEFAULT 'x',"
    " b INT, KEY kab (a, b), CONSTRAINT cb CHECK (b > 0))"
)


def test_ids_are_stable_across_renames_and_type_changes() -> None:
    t = alter(
        BASE, "ALTER TABLE t CHANGE a a2 VARCHAR(20) NOT NULL DEFAULT '', RENAME COLUMN b TO b2"
    )
    assert t.column("a2").id == BASE.column("a").id
    assert t.column("b2").id == BASE.column("b").id
    # indexes follow by id, checks by rewritten name
    assert t.index_column_names(t.find_index("kab")) == ("a2", "b2")  # type: ignore[arg-type]
    assert t.find_check("cb").expr.sql == "`b2` > 0"  # type: ignore[union-attr]


def test_a_check_reading_only_the_dropped_column_goes_with_it() -> None:
    t = alter(BASE, "ALTER TABLE t DROP INDEX kab, DROP COLUMN b")
    assert t.find_check("cb") is None


def test_drop_and_re_add_gets_a_new_id() -> None:
    t = alter(BASE, "ALTER TABLE t DROP CONSTRAINT cb, DROP INDEX kab, DROP COLUMN b")
    t = alter(t, "ALTER TABLE t ADD COLUMN b INT")
    assert t.column("b").id != BASE.column("b").id
    assert t.column("b").id > BASE.last_id
    assert t.last_id == t.column("b").id


def test_apply_never_mutates_its_input() -> None:
    before = BASE.to_sql()
    alter(BASE, "ALTER TABLE t DROP COLUMN a, ADD c INT FIRST, ADD INDEX (c)")
    assert BASE.to_sql() == before


@pytest.mark.parametrize(
    "sql,where",
    [
        ("ALTER TABLE t ADD a INT", {"column": "a"}),
        ("ALTER TABLE t ADD A INT", {"column": "A"}),
        ("ALTER TABLE t DROP COLUMN nope", {"column": "nope"}),
        ("ALTER TABLE t MODIFY nope INT", {"column": "nope"}),
        ("ALTER TABLE t ADD c INT AFTER nope", {"column": "nope"}),
        ("ALTER TABLE t ADD INDEX kab (id)", {"index": "kab"}),
        ("ALTER TABLE t ADD INDEX (nope)", {"column": "nope"}),
        ("ALTER TABLE t ADD PRIMARY KEY (a)", {"index": "PRIMARY"}),
        ("ALTER TABLE t DROP INDEX nope", {"index": "nope"}),
        ("ALTER TABLE t ADD c INT NOT NULL", {"column": "c"}),
        ("ALTER TABLE t ADD c INT NOT NULL DEFAULT NULL", {"column": "c"}),
        ("ALTER TABLE t ADD c TINYINT DEFAULT 999", {"column": "c"}),
        # a check reading b and another column; one reading only b goes with it, as in MariaDB
        ("ALTER TABLE t ADD CONSTRAINT c2 CHECK (b > id), DROP COLUMN b", {"column": "b"}),
        ("ALTER TABLE t DROP COLUMN a", {"column": "a"}),  # in the two-column key? plain key: fine
        ("ALTER TABLE t MODIFY a INT AFTER a", {"column": "a"}),
        ("ALTER TABLE t ADD INDEX (a(20))", {"column": "a"}),
        ("ALTER TABLE t RENAME INDEX kab TO `PRIMARY`", {"index": "kab"}),
        ("ALTER TABLE t ADD x INT AUTO_INCREMENT UNIQUE", {"column": "x"}),
    ],
)
def test_impossible_steps_name_the_place(sql: str, where: dict[str, str]) -> None:
    if sql == "ALTER TABLE t DROP COLUMN a":
        # a plain key just loses the column: allowed
        assert alter(BASE, sql).index_column_names(alter(BASE, sql).find_index("kab")) == ("b",)  # type: ignore[arg-type]
        return
    with pytest.raises(DDLError) as info:
        alter(BASE, sql)
    err = info.value
    assert err.table == "t"
    for key, value in where.items():
        assert getattr(err, key) == value, (key, str(err))


def test_drop_column_of_a_multi_column_unique_key_is_refused() -> None:
    t = parse_table("CREATE TABLE t (a INT, b INT, c INT, UNIQUE KEY u (a, b))")
    with pytest.raises(DDLError, match="multi-column UNIQUE key `u`"):
        alter(t, "ALTER TABLE t DROP COLUMN a")


def test_dropping_every_column_of_an_index_drops_it() -> None:
    t = parse_table("CREATE TABLE t (a INT, b INT, KEY ka (a))")
    assert alter(t, "ALTER TABLE t DROP COLUMN a").indexes == ()


def test_unnamed_index_and_check_names() -> None:
    t = parse_table("CREATE TABLE t (a INT, b INT, KEY (a), CHECK (a > 0))")
    t = alter(
        t, "ALTER TABLE t ADD INDEX (a, b), ADD UNIQUE (a), ADD CHECK (b > 0), ADD CHECK (b < 9)"
    )
    assert [i.name for i in t.indexes] == ["a", "a_2", "a_3"]
    assert [c.name for c in t.checks] == ["CONSTRAINT_1", "CONSTRAINT_2", "CONSTRAINT_3"]
    t = alter(t, "ALTER TABLE t DROP CONSTRAINT CONSTRAINT_2, ADD CHECK (a <> 3)")
    assert [c.name for c in t.checks] == ["CONSTRAINT_1", "CONSTRAINT_3", "CONSTRAINT_2"]


def test_primary_key_makes_columns_not_null() -> None:
    t = parse_table("CREATE TABLE t (a INT DEFAULT NULL, b INT)")
    t = alter(t, "ALTER TABLE t ADD PRIMARY KEY (a)")
    assert t.column("a").nullable is False and t.column("a").default is NO_DEFAULT
    assert t.primary_key is not None and t.primary_key.kind == IndexKind.PRIMARY
    # a later MODIFY without NOT NULL keeps it NOT NULL, as MySQL does
    assert alter(t, "ALTER TABLE t MODIFY a BIGINT").column("a").nullable is False


def test_modify_resets_attributes_not_restated() -> None:
    t = parse_table("CREATE TABLE t (a INT NOT NULL DEFAULT 3 COMMENT 'c')")
    t = alter(t, "ALTER TABLE t MODIFY a BIGINT")
    col = t.column("a")
    assert (col.nullable, col.default, col.comment) == (True, NO_DEFAULT, None)


def test_new_string_columns_take_the_table_charset() -> None:
    t = parse_table("CREATE TABLE t (a INT) DEFAULT CHARSET=latin1")
    t = alter(t, "ALTER TABLE t ADD b VARCHAR(3), ADD c VARCHAR(3) COLLATE utf8mb4_bin")
    assert (t.column("b").charset, t.column("b").collation) == ("latin1", "latin1_swedish_ci")
    assert t.column("c").collation == "utf8mb4_bin"
    # changing the table default does not touch existing columns
    t = alter(t, "ALTER TABLE t DEFAULT CHARSET=utf8mb4")
    assert t.column("b").charset == "latin1"


def test_convert_to_charset_grows_text() -> None:
    t = parse_table("CREATE TABLE t (a TEXT, b VARCHAR(10), c INT) DEFAULT CHARSET=latin1")
    t = alter(t, "ALTER TABLE t CONVERT TO CHARACTER SET utf8mb4")
    assert str(t.column("a").type) == "mediumtext collate utf8mb4_general_ci"
    assert t.column("b").collation == "utf8mb4_general_ci"
    assert t.options.charset == "utf8mb4"


def test_row_size_limit() -> None:
    with pytest.raises(DDLError, match="row size too large"):
        parse_table("CREATE TABLE t (a VARCHAR(16000), b VARCHAR(16000))")
    parse_table("CREATE TABLE t (a VARCHAR(16383) NOT NULL)")
    with pytest.raises(DDLError, match="row size too large"):
        parse_table("CREATE TABLE t (a VARCHAR(65532) CHARACTER SET latin1 NOT NULL, b TINYINT)")


def test_fresh_tables_may_take_not_null_columns_without_default() -> None:
    t = Table(name="t", columns=())
    (st,) = parse_statements("ALTER TABLE t ADD a INT NOT NULL")[0].steps
    assert apply(st, t, rules=Rules.EMPTY).column("a").nullable is False
    with pytest.raises(DDLError):
        apply(st, parse_table("CREATE TABLE t (b INT)"))


# --- validation against a base version -----------------------------------------------------

_INDEXED = parse_table(
    "CREATE TABLE t (id INT NOT NULL AUTO_INCREMENT, v VARCHAR(40), w VARCHAR(40), tx TEXT, "
    "n INT, d DECIMAL(10,2), PRIMARY KEY (id), KEY iv (v(20)), KEY iw (w), KEY itx (tx(10)), "
    "KEY ivn (v(30), n), UNIQUE KEY idn (d, n))"
)
_ALTERS = [
    "ALTER TABLE t MODIFY v INT",
    "ALTER TABLE t MODIFY v VARCHAR(10)",
    "ALTER TABLE t MODIFY v VARCHAR(80)",
    "ALTER TABLE t MODIFY w TEXT",
    "ALTER TABLE t MODIFY w JSON",
    "ALTER TABLE t MODIFY tx VARCHAR(5)",
    "ALTER TABLE t MODIFY tx INT",
    "ALTER TABLE t MODIFY n BIGINT",
    "ALTER TABLE t MODIFY d JSON",
    "ALTER TABLE t MODIFY id VARCHAR(10)",
    "ALTER TABLE t MODIFY id INT NOT NULL",
    "ALTER TABLE t CHANGE v v2 TEXT",
    "ALTER TABLE t DROP COLUMN v",
    "ALTER TABLE t DROP COLUMN n",
    "ALTER TABLE t DROP INDEX iv",
    "ALTER TABLE t ADD INDEX ij (tx)",
    "ALTER TABLE t ADD INDEX ik (w(50))",
    "ALTER TABLE t ADD COLUMN j JSON, ADD INDEX ij (j)",
    "ALTER TABLE t ADD COLUMN z INT FIRST",
    "ALTER TABLE t MODIFY n INT FIRST",
]


@pytest.mark.parametrize("first", _ALTERS)
@pytest.mark.parametrize("second", _ALTERS[::3])
def test_validation_against_a_base_agrees_with_the_full_check(first: str, second: str) -> None:
    """Checking only what changed since a valid base version gives the verdict (and the
    message) of checking everything, for changes that break indexes in every way."""
    base = _INDEXED
    for sql in (first, second):
        new = applied(base, sql)
        if new is None:
            return
        verdicts: list[str | None] = []
        for against in (None, base):
            try:
                validate_table(new, base=against)
                verdicts.append(None)
            except DDLError as err:
                verdicts.append(str(err))
        assert verdicts[0] == verdicts[1], sql
        if verdicts[0] is not None:
            return
        base = new


_TALLIED = parse_table(
    "CREATE TABLE t (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, v VARCHAR(40), "
    "g INT AS (n + 1) VIRTUAL, s BIGINT AS (n * 2) STORED, c INT CHECK (c > 0), n INT NOT NULL "
    "DEFAULT 0)"
)
_TALLY_ALTERS = [
    "ALTER TABLE t ADD COLUMN w VARCHAR(100) FIRST",
    "ALTER TABLE t ADD COLUMN h INT AS (n + 1) VIRTUAL AFTER v",
    "ALTER TABLE t ADD COLUMN k INT CHECK (k < 9)",
    "ALTER TABLE t DROP COLUMN g",
    "ALTER TABLE t DROP COLUMN s",
    "ALTER TABLE t DROP COLUMN c",
    "ALTER TABLE t MODIFY v VARCHAR(400) NOT NULL DEFAULT ''",
    "ALTER TABLE t MODIFY n BIGINT AFTER id",
    "ALTER TABLE t MODIFY g INT AS (n + 2) STORED",
    "ALTER TABLE t CHANGE c c2 INT",
    "ALTER TABLE t ADD COLUMN a1 INT, DROP COLUMN v, MODIFY n TINYINT FIRST",
    "ALTER TABLE t ADD INDEX iv (v), ADD CONSTRAINT pos CHECK (n >= 0)",
    "ALTER TABLE t RENAME COLUMN v TO v2, ADD UNIQUE KEY un (n)",
]


@pytest.mark.parametrize("first", _TALLY_ALTERS)
@pytest.mark.parametrize("second", _TALLY_ALTERS[::2])
def test_the_lookup_patched_by_a_change_equals_a_fresh_one(first: str, second: str) -> None:
    """A table carries its lookup maps and column sums (row bytes, NULLs, generated,
    AUTO_INCREMENT and checked columns) from version to version over the window a statement
    changed; they equal those of the same elements looked up and counted afresh."""
    table = _TALLIED
    table.column_tally()  # the lookup index exists, so each change patches it
    for sql in (first, second):
        changed = applied(table, sql)
        if changed is None:
            return  # (the second change may not apply after the first)
        table = changed
        fresh = Table(
            name=table.name, columns=table.columns, indexes=table.indexes, checks=table.checks
        )
        assert table._lookup is not None, sql  # carried over, not rebuilt
        fresh.column_tally()  # counted afresh (a new table counts on first use)
        assert table._index() == fresh._index(), sql


_PLACED = parse_table("CREATE TABLE t (a INT, b INT, c INT DEFAULT 1, d INT, e INT)")
_PLACING_ALTERS = [
    "ALTER TABLE t ADD COLUMN z INT",
    "ALTER TABLE t ADD COLUMN z INT FIRST",
    "ALTER TABLE t ADD COLUMN z INT AFTER b",
    "ALTER TABLE t ADD COLUMN z INT AFTER e",
    "ALTER TABLE t DROP COLUMN a",
    "ALTER TABLE t DROP COLUMN c",
    "ALTER TABLE t DROP COLUMN e",
    "ALTER TABLE t MODIFY c BIGINT",
    "ALTER TABLE t MODIFY c BIGINT FIRST",
    "ALTER TABLE t MODIFY a BIGINT FIRST",
    "ALTER TABLE t MODIFY d BIGINT AFTER a",
    "ALTER TABLE t MODIFY b BIGINT AFTER e",
    "ALTER TABLE t MODIFY b BIGINT AFTER a",
    "ALTER TABLE t CHANGE e e2 BIGINT FIRST",
    "ALTER TABLE t ALTER c SET DEFAULT 7",
    "ALTER TABLE t ALTER c DROP DEFAULT",
    "ALTER TABLE t RENAME COLUMN d TO d2",
    "ALTER TABLE t ADD COLUMN z INT FIRST, DROP COLUMN e, MODIFY a INT AFTER c",
]


@pytest.mark.parametrize("sql", _PLACING_ALTERS)
def test_a_step_that_knows_where_it_changed_columns_gives_the_walked_window(sql: str) -> None:
    """A step that put a column at a known place hands that window to the table instead of a
    walk over the columns; it is the very window the walk finds (apply, validation and the
    element diff read it)."""
    table = _PLACED
    (statement,) = parse_statements(sql)
    for step in statement.steps:
        new = apply(step, table)
        assert new._window is not None and new._window[0] is table.columns, str(step)
        assert new._window[1:] == changed_window(table.columns, new.columns), str(step)
        table = new


def test_a_default_of_a_temporal_literal_alone_is_its_value() -> None:
    """``DATE '…'``, ``TIME '…'`` and ``TIMESTAMP '…'`` are constants: a DEFAULT of one alone
    is the value as the column's type holds it (tests/test_literals.py and
    tests/test_mariadb_server.py hold these to the server)."""
    table = parse_table(
        "CREATE TABLE t (a INT, d DATE DEFAULT DATE '2020-1-1', n INT DEFAULT (DATE'2020-01-01'), "
        "v VARCHAR(20) DEFAULT TIME '10:00', y YEAR DEFAULT TIMESTAMP '2021-01-01 10:00:00', "
        "x TEXT DEFAULT DATE '2020-01-01', e DATE DEFAULT (DATE '2020-1-1' + INTERVAL 1 DAY))"
    )
    defaults = {c.name: c.default for c in table.columns}
    assert defaults["d"] == "2020-01-01" and defaults["n"] == 20200101
    assert defaults["v"] == "10:00:00" and defaults["y"] == 2021
    assert str(defaults["x"]) == "DATE '2020-01-01'"  # (a TEXT column keeps the expression)
    assert str(defaults["e"]) == "DATE '2020-01-01' + INTERVAL 1 DAY"
    checked = parse_table("CREATE TABLE t (d DATE, CHECK (d > date '2020-1-1'))")
    assert str(checked.checks[0].expr) == "`d` > DATE '2020-01-01'"


def test_a_time_literal_in_a_date_column_is_the_day_it_runs_on() -> None:
    """The server takes the day the statement ran on, which no catalog knows: mvdd's rules
    refuse it, a replica keeps the expression."""
    sql = "CREATE TABLE t (a INT, d DATETIME DEFAULT TIME '10:00:00')"
    with pytest.raises(DDLError, match="takes the day the statement runs on"):
        parse_table(sql)
    kept = parse_table(sql, replica=True).column("d").default
    assert str(kept) == "TIME '10:00:00'"


@pytest.mark.parametrize(
    "sql,message",
    [
        ("CREATE TABLE t (d DATE DEFAULT DATE '2020-02-30')", "Incorrect DATE value"),
        ("CREATE TABLE t (d DATE DEFAULT DATE '2020-01-01 10:00:00')", "Incorrect DATE value"),
        ("CREATE TABLE t (d TIME DEFAULT TIME '2020-01-01 10:00')", "Incorrect TIME value"),
        ("CREATE TABLE t (d DATETIME DEFAULT TIMESTAMP '2020-01-01')", "Incorrect TIMESTAMP"),
        ("CREATE TABLE t (d DATETIME DEFAULT DATETIME '2020-01-01')", "is no literal"),
        ("CREATE TABLE t (d TIME DEFAULT TIME(3) '10:00')", "takes no precision"),
        ("CREATE TABLE t (d DATE DEFAULT DATE 20200101)", "is a quoted text"),
        ("CREATE TABLE t (d BIT(32) DEFAULT DATE '2020-01-01')", "does not fit in 32 bits"),
        ("CREATE TABLE t (d TINYINT DEFAULT DATE '2020-01-01')", "out of range"),
    ],
)
def test_a_temporal_literal_the_server_refuses(sql: str, message: str) -> None:
    """Refused as the server refuses it: a syntax error (DDLParseError) where its error is
    1064, a DDLError naming the statement where it is 1525 (a value it does not take)."""
    with pytest.raises(DDLError, match=message) as err:
        parse_table(sql)
    syntax = "no literal" in message or "precision" in message or "quoted" in message
    assert isinstance(err.value, DDLParseError) == syntax
    assert "`d`" in str(err.value) or "line 1" in str(err.value) or "statement" in str(err.value)


def test_the_binary_attribute_takes_the_tables_charset() -> None:
    """``VARCHAR(n) BINARY`` without a CHARACTER SET: the ``_bin`` collation of the charset
    the column takes from its table, resolved as the step applies (tests/test_mariadb_server.py
    holds it to the server); the step renders the attribute back; with the table's charset not
    known it is refused, naming why."""
    table = parse_table("CREATE TABLE t (a INT, b VARCHAR(5) BINARY) DEFAULT CHARSET=latin1")
    assert table.column("b").type.collation == "latin1_bin"
    (st,) = parse_statements("ALTER TABLE t ADD c TEXT BINARY FIRST, MODIFY b CHAR(2) BINARY")
    assert render_steps(st.steps) == [
        "ALTER TABLE `t` ADD COLUMN `c` TEXT BINARY FIRST, MODIFY COLUMN `b` CHAR(2) BINARY"
    ]
    assert [c.type.collation for c in apply_steps(table, st.steps).columns] == [
        "latin1_bin",
        None,
        "latin1_bin",
    ]
    with pytest.raises(UnsupportedDDLError, match="takes the table's charset, which is not"):
        parse_table("CREATE TABLE t (a INT, b VARCHAR(5) BINARY)")
    with pytest.raises(DDLError, match="conflicting declarations: BINARY and COLLATE"):
        parse_table("CREATE TABLE t (b VARCHAR(5) BINARY COLLATE latin1_general_ci)")
