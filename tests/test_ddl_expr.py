"""Expression normalisation: vectors, laws (idempotent, parenthesis-blind), and on a real server
that the normal form means the same as the original."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pymysql
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mvdd.ddl.expr import normalize_sql, referenced_columns, rename_column
from mvdd.errors import DDLError
from mvdd.model.element import Expr
from tests.conftest import examples
from tests.strategies import expressions
from tests.support.mariadb import scratch

NORMAL = [
    ("(a + b) * c", "(`a` + `b`) * `c`"),
    ("a + (b * c)", "`a` + `b` * `c`"),
    ("a - (b - c)", "`a` - (`b` - `c`)"),
    ("((a > 0) AND (b > 0))", "`a` > 0 AND `b` > 0"),
    ("a AND (b AND c)", "`a` <> 0 AND `b` <> 0 AND `c` <> 0"),
    # a bare column under AND / OR is its truth, as the server writes it back
    ("a AND b > 0", "`a` <> 0 AND `b` > 0"),
    ("(a + 1) OR b", "`a` + 1 OR `b` <> 0"),
    ("NOT a = b", "`a` <> `b`"),
    ("a != b", "`a` <> `b`"),
    ("NOT (a < b OR b IS NULL)", "`a` >= `b` AND NOT `b` IS NULL"),
    ("NOT NOT a = 1", "`a` = 1"),
    ("NOT a", "`a` = 0"),
    ("!(a = 1)", "`a` <> 1"),
    ("a IS NOT NULL", "NOT `a` IS NULL"),
    # the comparisons are one left-associative level, as in MySQL's grammar
    ("a = 0 < a", "`a` = 0 < `a`"),
    ("(a = 0) < a", "`a` = 0 < `a`"),
    ("a = (0 < a)", "`a` = (0 < `a`)"),
    ("a = b IS NULL", "`a` = `b` IS NULL"),
    ("a = (b IS NULL)", "`a` = (`b` IS NULL)"),
    ("NOT a = b < c", "`a` = `b` >= `c`"),
    ("a NOT BETWEEN 1 AND 2", "NOT `a` BETWEEN 1 AND 2"),
    ("now()", "CURRENT_TIMESTAMP()"),
    ("LOCALTIMESTAMP(3)", "CURRENT_TIMESTAMP(3)"),
    ("curdate()", "CURRENT_DATE"),
    ("CONCAT(session_user(), SYSTEM_USER())", "CONCAT(USER(), USER())"),
    ("a COLLATE UCA1400_AI_CI", "`a` COLLATE uca1400_ai_ci"),
    ("ifnull(a, 1)", "IFNULL(`a`, 1)"),
    # a date part over its argument as written; DATE(d) the CAST the server makes of it
    ("DAYOFWEEK(d) + YEAR(d)", "DAYOFWEEK(`d`) + YEAR(`d`)"),
    ("DATE(d)", "CAST(`d` AS DATE)"),
    ("FROM_UNIXTIME(a, '%Y')", "DATE_FORMAT(FROM_UNIXTIME(`a`), '%Y')"),
    ("NVL(a, 1) + ADD_MONTHS(d, 2)", "IFNULL(`a`, 1) + (`d` + INTERVAL 2 MONTH)"),
    ("LPAD(s, 5) = NVL2(a, 1, 2)", "LPAD(`s`, 5) = NVL2(`a`, 1, 2)"),
    # (CHR is not CHAR, whose string is binary: the server writes CHAR(n USING its database's
    # charset), which the statement does not say)
    ("CHR(65) = TO_CHAR(d)", "CHR(65) = TO_CHAR(`d`, 'YYYY-MM-DD HH24:MI:SS')"),
    # an introducer's charset and a collation named canonically, a hex or bit literal after an
    # introducer its bytes' X'…'
    ("_UTF8 'x' COLLATE UTF8_BIN", "_utf8mb3 'x' COLLATE utf8mb3_bin"),
    (
        "s COLLATE 'utf8mb4_bin' = s COLLATE `latin1_bin`",
        "`s` COLLATE utf8mb4_bin = `s` COLLATE latin1_bin",
    ),
    (
        "_latin1 0x41 = _latin1 b'1000001' AND _latin1 0x1 = _binary X'0a'",
        "_latin1 X'41' = _latin1 X'41' AND _latin1 X'01' = _binary X'0A'",
    ),
    # a number with an exponent as written, a leading point too (a plain one is 0.5)
    (".5e-2 + .5", ".5e-2 + 0.5"),
    # IS NOT TRUE a test of its own, NOT (x IS TRUE) another (the server prints them apart)
    ("a IS NOT TRUE OR NOT (a IS TRUE)", "`a` IS NOT TRUE OR NOT `a` IS TRUE"),
    ("NOT (a IS NOT FALSE)", "NOT `a` IS NOT FALSE"),
    (
        "log(a) + log2(a) + space(2) + monthname(d)",
        "LOG(`a`) + LOG2(`a`) + SPACE(2) + MONTHNAME(`d`)",
    ),
    ("a || b", "`a` <> 0 OR `b` <> 0"),
    ("`A` + 1", "`A` + 1"),
    # an interval's quantity bare, as the server shows it (sqlglot would quote it)
    ("CURRENT_TIMESTAMP + INTERVAL 1 DAY", "CURRENT_TIMESTAMP() + INTERVAL 1 DAY"),
    ("d - INTERVAL '2' MONTH", "`d` - INTERVAL 2 MONTH"),
    ("d + INTERVAL '1:30' HOUR_MINUTE", "`d` + INTERVAL '1:30' HOUR_MINUTE"),
    # no comment is kept inside an expression (the server's SHOW CREATE TABLE shows none)
    ("a /* x */ + 1 -- y", "`a` + 1"),
    # a one-member IN is the comparison the server's grammar makes of it
    ("a IN (1)", "`a` = 1"),
    ("a NOT IN ((b))", "`a` <> `b`"),
    ("(a, b) IN ((1, 2))", "(`a`, `b`) = (1, 2)"),
    ("a IN (1, 2)", "`a` IN (1, 2)"),
    # a number literal as the server prints it, a minus folded into it
    ("007.50 + 1. + .5 + 00012", "7.50 + 1 + 0.5 + 12"),
    ("-(-5) + -0 + -0.0 + 1e-2", "5 + 0 + 0.0 + 1e-2"),
    ("-(-a)", "-(-`a`)"),
    # NOTs as the server's grammar reads them: two cancel, innermost first; one folds into
    # TRUE or FALSE; over XOR it negates the first operand
    ("NOT NOT NOT ABS(a)", "ABS(`a`) = 0"),
    ("NOT (NOT (2 OR b))", "2 OR `b` <> 0"),
    ("!(!(!TRUE)) + (NOT -FALSE)", "0 + 1"),
    ("TRUE IS NULL", "1 IS NULL"),
    ("NOT (a XOR b XOR c)", "`a` = 0 XOR `b` XOR `c`"),
    ("NOT (NOT (NOT (a XOR TRUE)))", "`a` XOR 0"),
    ("NOT (a XOR b > 1)", "`a` XOR `b` <= 1"),
    # a bound of a BETWEEN may itself be a BETWEEN, as the server prints and reads it
    (
        "a NOT BETWEEN a NOT BETWEEN b AND c AND d",
        "NOT `a` BETWEEN (NOT `a` BETWEEN `b` AND `c`) AND `d`",
    ),
    # NOT LIKE's two spellings, one form
    ("s NOT LIKE 'x'", "NOT `s` LIKE 'x'"),
    ("NOT (s LIKE 'x')", "NOT `s` LIKE 'x'"),
    ("s NOT LIKE 'x' ESCAPE '!'", "NOT `s` LIKE 'x' ESCAPE '!'"),
    ("NOT (s LIKE 'x' ESCAPE '!')", "NOT `s` LIKE 'x' ESCAPE '!'"),
    ("NOT (a XOR s LIKE 'x' ESCAPE '!')", "`a` XOR NOT `s` LIKE 'x' ESCAPE '!'"),
    ("s LIKE 'x' ESCAPE '!' = 0", "`s` LIKE 'x' ESCAPE '!' = 0"),
    # BETWEEN's upper bound is a predicate in the server's grammar
    ("x BETWEEN a AND b IN (1, 2)", "`x` BETWEEN `a` AND (`b` IN (1, 2))"),
    # GET_FORMAT's first argument a word, never a column (TIMESTAMP its synonym DATETIME)
    ("GET_FORMAT(DATE, 'EUR')", "GET_FORMAT(DATE, 'EUR')"),
    ("GET_FORMAT(timestamp, 'ISO')", "GET_FORMAT(DATETIME, 'ISO')"),
    # INTERVAL(n, n1, …), the function (sqlglot reads an interval over a tuple)
    ("INTERVAL(a, 1, 2) > 0", "INTERVAL(`a`, 1, 2) > 0"),
    ("(a /* x */ AND /* y */ b) # z", "`a` <> 0 AND `b` <> 0"),
]


@pytest.mark.parametrize("text,normal", NORMAL)
def test_normal_forms(text: str, normal: str) -> None:
    assert normalize_sql(text).sql == normal


def test_references_and_renames() -> None:
    e = normalize_sql("a + `B` * coalesce(c, a) > 0")
    assert referenced_columns(e) == {"a", "b", "c"}
    assert rename_column(e, "A", "x`y").sql == "`x``y` + `B` * COALESCE(`c`, `x``y`) > 0"


@pytest.mark.parametrize(
    "bad",
    [
        *("a +", "1; DROP TABLE t", "", "SELECT 1", "(a"),
        # half a byte, an unknown collation or charset, a collation of another charset
        *("X'0'", "s COLLATE nosuch", "s COLLATE DEFAULT", "_nosuch'x'"),
        "_latin1'x' COLLATE utf8mb4_bin",
    ],
)
def test_malformed_expressions(bad: str) -> None:
    with pytest.raises(DDLError):
        normalize_sql(bad)


@given(expressions)
def test_normalize_is_idempotent(text: str) -> None:
    once = normalize_sql(text)
    assert normalize_sql(once.sql) == once


@given(expressions)
def test_normalize_ignores_redundant_parentheses(text: str) -> None:
    assert normalize_sql(f"(({text}))") == normalize_sql(text)


@given(expressions)
def test_normalize_ignores_comments(text: str) -> None:
    assert normalize_sql(f"/* a */ ({text}) /* b */") == normalize_sql(text)


@pytest.fixture(scope="module")
def rows_cursor(mariadb: Any) -> Iterator[Any]:
    rows = [(None, 0, 1), (1, None, 0), (2, 3, None), (0, 0, 0), (-1, 5, 2), (None, None, None)]
    with scratch(mariadb, "CREATE TABLE v (a INT, b INT, c INT)") as conn, conn.cursor() as cur:
        cur.executemany("INSERT INTO v VALUES (%s, %s, %s)", rows)
        yield cur


#: texts whose meaning rests on precedence and associativity alone (no parentheses)
BARE = [
    "a = 0 < a",
    "a < b = c",
    "a <=> b < c",
    "a != b = c <=> a",
    "a >= b = c > a",
    "a = b IS NULL",
    "a IS NULL = b",
    "a = b IS NOT TRUE",
    "a = b LIKE c",
    "a < b IN (0, 1)",
    "a = b BETWEEN 0 AND 2",
    "NOT a = b < c",
    "a = b AND b < c = a OR c",
    "a + b = c * a < b - c",
    "a = b | c < a & b",
]


@pytest.mark.mariadb
@pytest.mark.parametrize("text", BARE)
def test_bare_comparisons_read_as_the_server_reads_them(rows_cursor: Any, text: str) -> None:
    """The server evaluates the bare text as it parses it; mvdd's normal form, parsed by mvdd
    and printed with only the parentheses precedence needs, must give the same values."""
    normal = normalize_sql(text).sql
    rows_cursor.execute(f"SELECT ({text}) <=> ({normal}) FROM v")
    assert all(row[0] == 1 for row in rows_cursor.fetchall()), (text, normal)


@pytest.mark.mariadb
@settings(max_examples=examples(120))
@given(st.lists(expressions, min_size=1, max_size=10))
# b'' is a number as 0x… are (X'' a string); an unsigned literal's negative difference fails
@example(["(NOT ABS(COALESCE(0x1F, b'')))", "(`a` - 0x1F)", "(b'' + X'0A')"])
def test_normal_form_means_the_same_on_the_server(rows_cursor: Any, batch: list[str]) -> None:
    """Evaluated on rows holding NULLs, zeros and numbers, each expression and its normal form
    give the same result (negation pushing, re-association and parentheses keep meaning)."""
    for text in batch:
        normal = normalize_sql(text).sql
        again = normalize_sql(normal).sql  # the normal form as mvdd reads it back
        try:
            rows_cursor.execute(f"SELECT ({text}) <=> ({normal}), ({text}) <=> ({again}) FROM v")
        except pymysql.err.OperationalError:
            # a value the server cannot compute (an unsigned hex literal's difference below
            # zero): each form must fail alike
            failures = {
                _failure(rows_cursor, f"SELECT ({t}) FROM v") for t in (text, normal, again)
            }
            assert len(failures) == 1 and None not in failures, (text, normal, again, failures)
            continue
        assert all(row == (1, 1) for row in rows_cursor.fetchall()), (text, normal, again)


def _failure(cursor: Any, sql: str) -> int | None:
    """The error code of the server's evaluation of ``sql``, or None when it succeeds."""
    try:
        cursor.execute(sql)
        cursor.fetchall()
    except pymysql.err.OperationalError as err:
        return int(err.args[0])
    return None


@pytest.mark.mariadb
@settings(max_examples=examples(60))
@given(st.lists(expressions, min_size=1, max_size=8))
# a NOT of a value that a negation meets gives the value back (a bare column its truth in an
# AND or an OR), where a NOT of a NOT the statement writes is the value's truth
@example(
    [
        "(NOT (`a` AND (NOT (-`a`))))",
        "NOT (b OR NOT (a + 1))",
        "NOT (b XOR NOT (-a))",
        "NOT (NOT (-a) OR NOT (b))",
        "NOT (b AND NOT abs(a))",
        "NOT (b XOR NOT a)",
        "NOT (b OR NOT a)",
        "b OR NOT (NOT (-a))",
    ]
)
@example(["(!(`a` NOT IN (0, (0 - 0x1F))))"])
def test_normal_form_is_the_one_the_server_shows(rows_cursor: Any, batch: list[str]) -> None:
    """Each expression a generated column on MariaDB: its SHOW CREATE TABLE, read back, holds
    the expression's normal form. The server's own printing is the oracle of the form (how its
    grammar folds NOTs, TRUE and FALSE, literals and precedence), where the test above is the
    oracle of the meaning. (Where the server cannot read its own text back, a BETWEEN as the
    lower bound of another, printed without parentheses, there is no oracle.)"""
    from mvdd import parse_table
    from tests.support.mariadb import show_create_table

    for text in batch:
        rows_cursor.execute("DROP TABLE IF EXISTS ex")
        rows_cursor.execute("DROP TABLE IF EXISTS ex2")
        try:
            rows_cursor.execute(
                f"CREATE TABLE ex (a INT, b INT, c INT, g BIGINT AS ({text}) VIRTUAL)"
            )
        except pymysql.err.OperationalError as err:
            # a constant the server folds while it makes the column, out of its type's range
            # (``0 - 0x1F``, unsigned: its 1690): no column, no printing to compare
            assert err.args[0] == 1690, (text, err)
            continue
        text_shown = show_create_table(rows_cursor.connection, "ex")
        try:
            rows_cursor.execute(text_shown.replace("CREATE TABLE `ex`", "CREATE TABLE `ex2`", 1))
        except pymysql.MySQLError:
            continue
        shown = parse_table(text_shown).column("g")
        assert shown.generated is not None
        assert shown.generated.expr == normalize_sql(text), (text, shown.generated.expr)


@pytest.mark.mariadb
@pytest.mark.parametrize(
    "default",
    [
        "(CURRENT_TIMESTAMP + INTERVAL 1 DAY)",
        "(CURRENT_TIMESTAMP - INTERVAL '3' HOUR)",
        "(CURRENT_TIMESTAMP + INTERVAL '1:30' HOUR_MINUTE)",
    ],
)
def test_intervals_render_as_the_server_shows_them(mdb: Any, default: str) -> None:
    """The server's own SHOW CREATE TABLE and mvdd's rendering give one normal form."""
    from mvdd import parse_table
    from tests.support.mariadb import show_create_table

    sql = f"CREATE TABLE iv (a DATETIME DEFAULT {default})"
    with mdb.cursor() as cur:
        cur.execute(sql)
    ours = parse_table(sql).column("a").default
    shown = parse_table(show_create_table(mdb, "iv")).column("a").default
    assert ours == shown
    assert isinstance(ours, Expr)
    assert "INTERVAL '" not in ours.sql or ":" in ours.sql


#: functions and forms the servers write back otherwise, or sqlglot would rewrite: each is
#: taken as the server takes it, holds one normal form with the server's SHOW CREATE TABLE,
#: renders to SQL the server runs, and means the same there (MySQL-only forms, `->` and
#: `->>`, are left out: MariaDB has a syntax error for them)
FUNCTIONS = [
    "UTC_DATE()",
    "UTC_TIME()",
    "CURDATE()",
    "DATE(NOW())",
    "DATE(d)",
    "TIMESTAMPDIFF(SECOND, d, d)",
    "DATE_ADD(d, INTERVAL 1 DAY)",
    "DATE_SUB(d, INTERVAL '1:30' HOUR_MINUTE)",
    "d + INTERVAL 1 DAY",
    "DATEDIFF(d, '2026-01-01')",
    "TO_DAYS(d)",
    "YEARWEEK(d)",
    "ROUND(a / 3)",
    "ROUND(a / 3, 1)",
    "s REGEXP 'a'",
    "s NOT REGEXP 'a'",
    "s LIKE 'a!%' ESCAPE '!'",
    "NOT s LIKE 'a%' ESCAPE '!'",
    "s NOT LIKE 'a%' ESCAPE '!'",
    "CAST(s AS UNSIGNED)",
    "CAST(a AS SIGNED)",
    "CAST(s AS BINARY)",
    "BINARY s",
    "CONVERT(s USING utf8mb4)",
    "LENGTH(s)",
    "OCTET_LENGTH(s)",
    "CHAR_LENGTH(s)",
    "IFNULL(s, 'x')",
    "POSITION('a' IN s)",
    "SPACE(2)",
    "MOD(a, 2)",
    "POW(a, 2)",
    "SUBSTRING(s FROM 1 FOR 2)",
    "TRIM(LEADING 'x' FROM s)",
    "DATE_FORMAT(d, '%Y')",
    "EXTRACT(YEAR FROM d)",
    "JSON_EXTRACT(s, '$.x')",
    "REPLACE(s, 'a', 'b')",
    "ADDDATE(d, INTERVAL 1 DAY)",
    "ADDDATE(d, 2)",
    "SUBDATE(d, 2)",
    "TIMESTAMPADD(DAY, 1, d)",
    "DAY(d)",
    "WEEKOFYEAR(d)",
    "TIME(d)",
    "TIMESTAMP(d)",
    "MID(s, 1, 2)",
    "BIN(a)",
    "OCT(a)",
    "ATAN2(a, 2)",
    "b'101'",
    # a bit literal's bytes as many as its digits fill, the leading zero ones kept
    "b'000000001'",
    "LENGTH(b'0000000000000000')",
    "N'x'",
    "TRUE",
    "s IS TRUE",
    "s IS NOT FALSE",
    "NOT (s IS FALSE) AND NOT (a IS NOT TRUE)",
    "a AND s",
    "a OR d IS NULL",
    "NOT (a AND s)",
    "a XOR s",
    "'a' 'b'",
    "CONCAT('a', 'b')",
    # an interval leading its operand, a number after an interval's sum
    "INTERVAL 1 DAY + d",
    "INTERVAL 1 MONTH + d - INTERVAL 1 DAY",
    "INTERVAL 1 DAY + d > d",
    "d + INTERVAL 1 DAY + 5",
    # date parts over their argument, spellings the server keeps
    "DAYOFWEEK(d) + YEAR(d) + WEEK(d, 1)",
    "MONTHNAME(d)",
    "LOG(a) + LOG2(a) + LOG10(a)",
    "FROM_UNIXTIME(a, '%Y')",
    "NVL(s, 'x')",
    "NVL2(a, s, 'y')",
    "ADD_MONTHS(d, 1)",
    "LPAD(s, 5)",
    "LENGTHB(s)",
    "TO_CHAR(d)",
    # a CAST's charset words and types
    "CAST(s AS CHAR(2) ASCII)",
    "CAST(s AS CHAR BINARY)",
    "CONVERT(s, CHAR UNICODE)",
    "CAST(s AS CHAR CHARACTER SET utf8 COLLATE utf8_bin)",
    "CAST(s AS BINARY(2))",
    "CAST(a AS DECIMAL) + CAST(a AS SIGNED INT)",
    "CONVERT(s USING utf8)",
    # operators as MySQL reads them
    "~~a",
    "ROW(a, 1) = ROW(1, a)",
    "LAST_VALUE(a, s)",
    "a + .5e-2",
    "COLUMN_GET(COLUMN_CREATE(1, s), 1 AS CHAR(3))",
    # WEIGHT_STRING's four numbers as the server shows them (length, weights, flags)
    "HEX(WEIGHT_STRING(s, 0, 0, 1))",
    "HEX(WEIGHT_STRING(s, 5, 3, 65))",
    # an interval's number as written (as a string, '1.5', it is one day, not two), its value
    # any expression
    "d + INTERVAL 1.5 DAY",
    "d - INTERVAL 2.5 HOUR",
    "d + INTERVAL 1e1 DAY",
    "d + INTERVAL '1.5' DAY",
    "d + INTERVAL a AND 1 DAY",
    # a function's operands whole expressions (mvdd writes NOT x as x = 0 in them)
    "TRIM(NOT s)",
    "TRIM(LEADING 'x' FROM a = 7)",
    "SUBSTRING(s, a = 7)",
    "SUBSTRING(s FROM a > 0 FOR NOT a)",
    "CONVERT(a = 7, SIGNED)",
    "CONVERT(s, UNSIGNED)",
    "EXTRACT(DAY FROM NOT a)",
    "POSITION('a' IN s = 'abc')",
    "JSON_OBJECT('k', a = 7)",
    # COLLATE binding its operand alone, BINARY any operand
    "s COLLATE utf8mb4_bin * 2",
    "CONCAT(s, 'x') COLLATE utf8mb4_bin = 'abcx'",
    "(s || 'x') COLLATE utf8mb4_bin LIKE 'a%'",
    "BINARY -a",
    "BINARY DATE'2026-01-01'",
]


@pytest.mark.mariadb
@pytest.mark.parametrize(
    "text",
    [
        "weight_string(s as char(2) level 1 desc, 2 reverse, 3)",
        "WEIGHT_STRING(s LEVEL 1-3)",
        "WEIGHT_STRING(s AS CHAR(2) LEVEL 4 REVERSE, 1 ASC)",
        "WEIGHT_STRING(s LEVEL 1 DESC REVERSE)",
        "WEIGHT_STRING(CONCAT(s, 'x') LEVEL 9)",
    ],
)
def test_weight_strings_levels_are_read_as_the_server_reads_them(
    typed_rows: Any, text: str
) -> None:
    """WEIGHT_STRING's LEVEL clause, which the server reads as the flags of its four-number
    form (settling them by the argument's collation, in the one form as in the other): mvdd
    reads that form, whose value is the clause's on every row, in a generated column the
    server takes too. (The server shows every form's flags settled, as mvdd, which does not
    know a collation's levels, does not.)"""
    from mvdd import parse_table
    from mvdd.ddl.statement import for_server

    sql = f"CREATE TABLE g (a INT, s VARCHAR(20), d DATETIME, x BLOB AS ({text}) VIRTUAL)"
    ours = parse_table(sql)
    generated = ours.column("x").generated
    assert generated is not None and generated.expr.sql.startswith("WEIGHT_STRING(")
    with typed_rows.cursor() as cur:
        cur.execute("DROP TABLE IF EXISTS g")
        cur.execute(for_server(ours.to_sql(), "mariadb"))  # mvdd's rendering runs there
        cur.execute("DROP TABLE g")
        cur.execute(f"SELECT ({text}) <=> ({generated.expr.sql}) FROM w")
        assert all(row == (1,) for row in cur.fetchall()), generated.expr.sql


@pytest.fixture(scope="module")
def typed_rows(mariadb: Any) -> Iterator[Any]:
    rows = [(None, None, None), (7, "abc", "2026-02-03 04:05:06"), (-2, "a%x", "1999-12-31")]
    table = "CREATE TABLE w (a INT, s VARCHAR(20), d DATETIME)"
    with scratch(mariadb, table) as conn, conn.cursor() as cur:
        cur.executemany("INSERT INTO w VALUES (%s, %s, %s)", rows)
        yield conn


@pytest.mark.mariadb
@pytest.mark.parametrize("text", FUNCTIONS)
def test_functions_round_trip_through_the_server(typed_rows: Any, text: str) -> None:
    from mvdd import parse_table
    from mvdd.ddl.statement import for_server
    from tests.support.mariadb import show_create_table

    sql = f"CREATE TABLE g (a INT, s VARCHAR(20), d DATETIME, x VARCHAR(200) AS ({text}) VIRTUAL)"
    ours = parse_table(sql)
    with typed_rows.cursor() as cur:
        cur.execute("DROP TABLE IF EXISTS g")
        cur.execute(sql)  # the server takes it, as mvdd does
        shown = parse_table(show_create_table(typed_rows, "g"))
        assert ours.column("x").generated == shown.column("x").generated, shown
        cur.execute("DROP TABLE g")
        cur.execute(for_server(ours.to_sql(), "mariadb"))  # mvdd's rendering runs there
        cur.execute("DROP TABLE g")
        generated = ours.column("x").generated
        assert generated is not None
        normal = generated.expr.sql
        cur.execute(f"SELECT ({text}) <=> ({normal}) FROM w")
        assert all(row == (1,) for row in cur.fetchall()), normal


@pytest.mark.mariadb
@pytest.mark.parametrize(
    "text",
    [
        "WEIGHT_STRING(s AS CHAR(0))",
        "WEIGHT_STRING(s AS BINARY)",
        "WEIGHT_STRING(s AS VARCHAR(2))",
        "WEIGHT_STRING(s AS BINARY(2) LEVEL 1)",
        "WEIGHT_STRING(s, 1, 2)",
        "WEIGHT_STRING(s LEVEL x)",
        "WEIGHT_STRING(s LEVEL 1.5)",
    ],
)
def test_weight_strings_the_server_refuses_are_refused(typed_rows: Any, text: str) -> None:
    import pymysql

    from mvdd import DDLError, parse_table

    sql = f"CREATE TABLE g (a INT, s VARCHAR(20), d DATETIME, x BLOB AS ({text}) VIRTUAL)"
    with typed_rows.cursor() as cur, pytest.raises(pymysql.MySQLError):
        cur.execute(sql)
    with pytest.raises(DDLError):
        parse_table(sql)
