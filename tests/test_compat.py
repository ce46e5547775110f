"""The compatibility rules (DESIGN §6) as a vector table: each row is a starting table, the
statements applied, and the violation kinds expected forward and backward (empty: compatible)."""

from __future__ import annotations

from typing import Any

import pytest

from mvdd import Catalog, DDLError, NoSuchVersionError, check, check_versions
from mvdd.compat import check_history, check_table_versions, compatible_since, widens
from mvdd.model import ColumnType

BASE = (
    "CREATE TABLE t (id INT NOT NULL PRIMARY KEY, i INT, u INT UNSIGNED, s SMALLINT, "
    "d DECIMAL(8,2), f FLOAT, v VARCHAR(10), vb VARBINARY(4), c CHAR(3), bn BINARY(2), "
    "tx TEXT, dt DATETIME(3), e ENUM('a','b'), st SET('x','y'), n INT NOT NULL DEFAULT 0, "
    "dflt INT DEFAULT 5, u8 VARCHAR(5) CHARACTER SET utf8mb3, nn INT NOT NULL, KEY ki (i), UNIQUE KEY uv (v), "
    "CONSTRAINT cn CHECK (n >= 0)) DEFAULT CHARSET=utf8mb4"
)
OTHER = "CREATE TABLE other (x INT)"

# (statements, forward kinds, backward kinds)
SINGLE = [
    # tables
    ("DROP TABLE t", ["drop_table"], ["drop_table"]),
    ("RENAME TABLE t TO t2", ["rename_table"], ["rename_table"]),
    ("TRUNCATE TABLE t", ["truncate"], []),
    ("ALTER TABLE t COMMENT = 'x', ENGINE = InnoDB", [], []),
    ("ALTER TABLE t DEFAULT CHARSET = latin1", [], []),
    ("ALTER TABLE other ADD y INT", [], []),  # changes on other tables
    # columns: add, drop, rename
    ("ALTER TABLE t ADD a INT", [], []),
    ("ALTER TABLE t ADD a INT NOT NULL DEFAULT 3", [], []),
    ("ALTER TABLE t ADD a INT AS (i + 1) VIRTUAL", [], []),
    ("ALTER TABLE t DROP COLUMN dflt", ["drop_column"], []),
    ("ALTER TABLE t DROP COLUMN s", ["drop_column"], []),  # nullable: I can fill it with NULL
    ("ALTER TABLE t DROP COLUMN nn", ["drop_column"], ["drop_column"]),  # NOT NULL, no default
    ("ALTER TABLE t RENAME COLUMN i TO i2", [], []),
    ("ALTER TABLE t CHANGE i i2 INT", [], []),
    # nullability
    ("ALTER TABLE t MODIFY n INT NULL DEFAULT 0", [], ["make_nullable"]),
    ("ALTER TABLE t MODIFY i INT NOT NULL DEFAULT 0", ["make_not_null", "default_change"], []),
    # defaults
    ("ALTER TABLE t ALTER dflt SET DEFAULT 6", ["default_change"], []),
    ("ALTER TABLE t ALTER dflt DROP DEFAULT", ["default_change"], []),
    ("ALTER TABLE t ALTER i SET DEFAULT 1", ["default_change"], []),
    ("ALTER TABLE t ALTER dflt SET DEFAULT 5", [], []),  # the same default: no change
    ("ALTER TABLE t MODIFY dflt INT DEFAULT 7", ["default_change"], []),
    # integers
    ("ALTER TABLE t MODIFY s INT", [], ["type_change"]),
    ("ALTER TABLE t MODIFY i BIGINT", [], ["type_change"]),
    ("ALTER TABLE t MODIFY u BIGINT", [], ["type_change"]),  # unsigned to a strictly wider signed
    ("ALTER TABLE t MODIFY u INT", ["type_change"], ["type_change"]),  # signedness change
    ("ALTER TABLE t MODIFY u BIGINT UNSIGNED", [], ["type_change"]),
    ("ALTER TABLE t MODIFY i SMALLINT", ["type_change"], []),  # narrowing
    ("ALTER TABLE t MODIFY i INT UNSIGNED", ["type_change"], ["type_change"]),
    ("ALTER TABLE t MODIFY i INT(3)", [], []),  # display width only
    # floating point and decimal
    ("ALTER TABLE t MODIFY f DOUBLE", [], ["type_change"]),
    ("ALTER TABLE t MODIFY f DECIMAL(10,2)", ["type_change"], ["type_change"]),
    ("ALTER TABLE t MODIFY d DECIMAL(10,2)", [], ["type_change"]),
    ("ALTER TABLE t MODIFY d DECIMAL(10,3)", ["type_change"], ["type_change"]),
    ("ALTER TABLE t MODIFY d DECIMAL(6,2)", ["type_change"], []),
    # strings
    ("ALTER TABLE t MODIFY v VARCHAR(20)", [], ["type_change"]),
    ("ALTER TABLE t MODIFY v VARCHAR(5)", ["type_change"], []),
    ("ALTER TABLE t MODIFY vb VARBINARY(16)", [], ["type_change"]),
    ("ALTER TABLE t MODIFY c CHAR(10)", [], ["type_change"]),
    ("ALTER TABLE t MODIFY bn BINARY(4)", ["type_change"], ["type_change"]),  # pads differently
    ("ALTER TABLE t MODIFY c TEXT", ["type_change"], ["type_change"]),
    ("ALTER TABLE t MODIFY tx MEDIUMTEXT", [], ["type_change"]),
    ("ALTER TABLE t MODIFY v VARCHAR(10) CHARACTER SET latin1", ["type_change"], ["type_change"]),
    ("ALTER TABLE t MODIFY u8 VARCHAR(5) CHARACTER SET utf8mb4", [], ["type_change"]),
    # temporal
    ("ALTER TABLE t MODIFY dt DATETIME(6)", [], ["type_change"]),
    ("ALTER TABLE t MODIFY dt DATETIME(0)", ["type_change"], []),
    ("ALTER TABLE t MODIFY dt TIMESTAMP(3) NULL", ["type_change"], ["type_change"]),
    # enum and set
    ("ALTER TABLE t MODIFY e ENUM('a','b','c')", [], ["type_change"]),
    ("ALTER TABLE t MODIFY e ENUM('c','a','b')", ["type_change"], ["type_change"]),
    ("ALTER TABLE t MODIFY st SET('x','y','z')", [], ["type_change"]),
    # indexes and checks
    ("ALTER TABLE t ADD INDEX kd (d)", [], []),
    ("ALTER TABLE t ADD UNIQUE KEY ud (d)", ["add_unique"], []),
    ("ALTER TABLE t DROP INDEX ki", [], []),
    ("ALTER TABLE t DROP INDEX uv", [], ["drop_unique"]),
    ("ALTER TABLE t RENAME INDEX ki TO ki2", [], []),
    ("ALTER TABLE t ADD CHECK (i > 0)", ["add_check"], []),
    ("ALTER TABLE t DROP CHECK cn", [], ["drop_check"]),
    ("ALTER TABLE t DROP CONSTRAINT cn", [], ["drop_check"]),
    ("ALTER TABLE t DROP CONSTRAINT uv", [], ["drop_unique"]),
    ("ALTER TABLE t ALTER CHECK cn NOT ENFORCED", [], ["drop_check"]),
    ("ALTER TABLE t CONVERT TO CHARACTER SET latin1", ["type_change"] * 6, ["type_change"] * 6),
]

# (statements, forward kinds, backward kinds): multi-step chains, judged step by step
CHAINS = [
    (["ALTER TABLE t ADD a INT", "ALTER TABLE t DROP a"], ["drop_column"], []),  # change and undo
    # a swap in one statement, judged by the columns' ids: i narrowed (as s), s widened (as i)
    (["ALTER TABLE t CHANGE i s SMALLINT, CHANGE s i INT"], ["type_change"], ["type_change"]),
    (
        ["ALTER TABLE t MODIFY i BIGINT", "ALTER TABLE t MODIFY i INT"],
        ["type_change"],
        ["type_change"],
    ),
    (
        ["ALTER TABLE t ALTER dflt SET DEFAULT 1", "ALTER TABLE t ALTER dflt SET DEFAULT 5"],
        ["default_change"] * 2,
        [],
    ),
    (["ALTER TABLE t MODIFY s INT", "ALTER TABLE t MODIFY s BIGINT"], [], ["type_change"] * 2),
    (
        [
            "ALTER TABLE t RENAME COLUMN i TO j",
            "ALTER TABLE t MODIFY j BIGINT",
            "ALTER TABLE t ADD k INT",
        ],
        [],
        ["type_change"],
    ),
    (
        ["ALTER TABLE t DROP COLUMN v, ADD COLUMN v VARCHAR(10)"],
        ["drop_column", "add_unique"],
        ["drop_unique"],
    ),  # a new column, which the unique key follows by its name (as on the server)
    (
        ["ALTER TABLE t ADD UNIQUE (d)", "ALTER TABLE t DROP INDEX d"],
        ["add_unique"],
        ["drop_unique"],
    ),
    (["RENAME TABLE t TO t2", "RENAME TABLE t2 TO t"], ["rename_table"] * 2, ["rename_table"] * 2),
    (["ALTER TABLE other DROP x, ADD y INT", "ALTER TABLE t ADD z INT"], [], []),
]


def kinds(report: object) -> list[str]:
    return [v.kind for v in report.violations]  # type: ignore[attr-defined]


@pytest.mark.parametrize("versions", [("1", 2), (1, 2.5), (True, 2), (None, 1), (1, "x")])
def test_versions_that_are_no_ints_are_refused_naming_the_table(versions: tuple[Any, Any]) -> None:
    """A version that is no int (a text, a float, a bool) is refused with the catalog's error
    for a version, naming the table (a text was a TypeError; True was version 1)."""
    cat = Catalog()
    cat.execute(BASE)
    cat.execute("ALTER TABLE t ADD z INT")
    with pytest.raises(NoSuchVersionError, match=r"a version is an int.*table `t`"):
        check_versions(cat, "t", *versions)


@pytest.mark.parametrize("sql,forward,backward", SINGLE, ids=[row[0][14:60] for row in SINGLE])
def test_single_steps(sql: str, forward: list[str], backward: list[str]) -> None:
    assert kinds(check(BASE, [sql])) == forward
    assert kinds(check(BASE, [sql], mode="backward")) == backward
    full = check(BASE, [sql], mode="full")
    assert sorted(kinds(full)) == sorted(forward + backward)
    assert full.compatible == (not forward and not backward)


@pytest.mark.parametrize(
    "stmts,forward,backward", CHAINS, ids=[" / ".join(c[0])[14:70] for c in CHAINS]
)
def test_chains(stmts: list[str], forward: list[str], backward: list[str]) -> None:
    assert kinds(check(BASE, stmts)) == forward
    assert kinds(check(BASE, stmts, mode="backward")) == backward


@pytest.mark.parametrize(
    "stmts,forward,backward", CHAINS, ids=[" / ".join(c[0])[14:70] for c in CHAINS]
)
def test_chains_on_catalog_versions(
    stmts: list[str], forward: list[str], backward: list[str]
) -> None:
    cat = Catalog()
    cat.execute(BASE)
    cat.execute(OTHER)
    for sql in stmts:
        cat.execute(sql)
    name = "t"
    report = check_versions(cat, name, 1, cat.version(name))
    assert kinds(report) == forward
    assert kinds(check_versions(cat, name, 1, cat.version(name), mode="backward")) == backward
    # judged once: asking again gives an equal report
    assert check_versions(cat, name, 1, cat.version(name)) == report


@pytest.mark.parametrize("sql,forward,backward", SINGLE, ids=[row[0][14:60] for row in SINGLE])
def test_single_steps_on_catalog_versions(
    sql: str, forward: list[str], backward: list[str]
) -> None:
    """A catalog's version of one step is judged against the version the catalog made, not
    the step applied again: the same verdicts as the statements' check."""
    cat = Catalog()
    cat.execute(BASE)
    cat.execute(OTHER)
    tid = cat.table_id("t")
    cat.execute(sql)
    head = cat.version_by_id(tid)
    assert kinds(check_table_versions(cat, tid, 1, head)) == forward
    assert kinds(check_table_versions(cat, tid, 1, head, mode="backward")) == backward


@pytest.mark.parametrize(
    "sql,sql_mode",
    [
        ("ALTER TABLE t ADD COLUMN x INT NOT NULL", None),
        ("ALTER TABLE t ADD COLUMN x INT NOT NULL, ADD COLUMN y INT NOT NULL", None),
        ("ALTER TABLE t ALTER COLUMN d SET DEFAULT '2020-02-31'", "ALLOW_INVALID_DATES"),
        (
            "ALTER TABLE t ALTER COLUMN d SET DEFAULT '2020-02-31', ADD COLUMN z INT",
            "ALLOW_INVALID_DATES",
        ),
    ],
)
def test_a_replicas_versions_are_judged_as_its_server_took_them(
    sql: str, sql_mode: str | None
) -> None:
    """A replica takes what its server ran (a NOT NULL column without a DEFAULT, a date its
    session allowed): the versions are judged under the server's rules and against what the
    catalog made, and a transaction bound before them learns its verdict; nothing raises after
    the version is committed."""
    cat = Catalog(replica=True, flavor="mariadb")
    cat.execute("CREATE TABLE t (id INT PRIMARY KEY, d DATE)")
    tx = cat.begin()
    tx.table("t")
    (change,) = cat.execute(sql, sql_mode=sql_mode)
    report = check_history(cat, "t")
    assert report.steps_checked == len(change.steps)
    assert (tx.state.value == "rollback_only") == (not report.compatible)


def test_reports_name_every_place() -> None:
    report = check(BASE, ["ALTER TABLE t DROP COLUMN dflt, MODIFY i SMALLINT"])
    assert not report.compatible and report.steps_checked == 2
    first, second = report.violations
    assert (first.kind, first.table, first.column, first.column_id) == (
        "drop_column",
        "t",
        "dflt",
        16,
    )
    assert first.step == "ALTER TABLE `t` DROP COLUMN `dflt`"
    assert second.column == "i" and second.column_id == 2 and "smallint" in second.message
    assert "drop_column" in str(report)


def test_invalid_ddl_raises_instead_of_a_verdict() -> None:
    with pytest.raises(DDLError) as info:
        check("CREATE TABLE t (a INT)", ["ALTER TABLE t ADD b INT NOT NULL"])
    assert info.value.statement == "ALTER TABLE t ADD b INT NOT NULL"
    with pytest.raises(DDLError):
        check("CREATE TABLE t (a INT)", ["ALTER TABLE t DROP COLUMN nope"])


def test_transitive_checks_over_a_history() -> None:
    cat = Catalog()
    cat.execute("CREATE TABLE t (a INT, b INT)")
    cat.execute("ALTER TABLE t ADD c INT")  # v2 compatible
    cat.execute("ALTER TABLE t DROP b")  # v3 not
    cat.execute("ALTER TABLE t MODIFY a BIGINT")  # v4 compatible
    cat.execute("ALTER TABLE t ADD d INT")  # v5 compatible
    assert [v.version for v in check_history(cat, "t").violations] == [3]
    assert compatible_since(cat, "t", 5) == 3
    assert compatible_since(cat, "t", 2) == 1
    assert compatible_since(cat, "t", 3) == 3


def test_widening_table() -> None:
    T = ColumnType.of
    assert widens(T("tinyint"), T("bigint")) and not widens(T("bigint"), T("tinyint"))
    assert widens(T("tinyint", unsigned=True), T("smallint"))
    assert not widens(T("int", unsigned=True), T("int"))
    assert widens(T("float"), T("double")) and not widens(T("double"), T("float"))
    assert widens(T("time", fsp=1), T("time", fsp=4))
    assert not widens(T("date"), T("datetime"))
    assert widens(T("bit", length=2), T("bit", length=9))


def test_a_statement_that_drops_what_it_adds_has_no_verdict() -> None:
    """The server's DROP names a column of the table before the statement, so ADD a, DROP a
    in one statement is not valid DDL (in two statements it is a change and its undo)."""
    with pytest.raises(DDLError, match="no such column") as err:
        check(BASE, ["ALTER TABLE t ADD a INT, DROP a"])
    assert err.value.column == "a" and err.value.statement == "ALTER TABLE t ADD a INT, DROP a"
