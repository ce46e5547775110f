"""The server as the syntax oracle: what MariaDB refuses as a syntax error, mvdd refuses as
DDLParseError, and what it parses, mvdd does not refuse as one.

MariaDB's ``PREPARE`` parses a statement without running it: error 1064 is a syntax error, and
anything else (success, or an error about tables and columns) means the text parsed. Every
valid statement of the fixture corpora is cut at every token boundary, and each prefix is put to
both. Then the statements token mutations of the corpus found (each a class of leniency in
sqlglot's parser that mvdd closes) are put to both the same way.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator

import pymysql
import pytest

from mvdd import DDLParseError, MvddError
from mvdd.ddl.reserved import RESERVED
from mvdd.ddl.statement import parse_statements
from tests.support.fixtures import sequences, statements
from tests.support.mariadb import MariaDB

pytestmark = pytest.mark.mariadb

CORPUS = statements("create_tables.sql") + [
    s for _, seq in sequences("alter_sequences.sql") for s in seq
]
TOKEN = re.compile(r"`(?:[^`]|``)*`|'(?:[^'\\]|\\.|'')*'|\w+|\S")

#: statements token mutations of the corpus turned up, one per class of leniency
MUTATIONS = [
    "ALTER TABLE t DROP COLUMN",
    "ALTER TABLE t DROP COLUMN b,",
    "ALTER TABLE t ADD d INT,",
    "CREATE TABLE x (a INT,)",
    "ALTER TABLE t DROP INDEX",
    "ALTER TABLE t DROP PRIMARY",
    "ALTER TABLE t DROP COLUMN IF",
    "DROP TABLE IF",
    "CREATE TABLE IF",
    "ALTER TABLE t ALTER COLUMN a SET DEFAULT",
    "ALTER TABLE t ALTER COLUMN a SET",
    "ALTER TABLE t ADD PRIMARY KEY",
    "ALTER TABLE t ADD UNIQUE",
    "ALTER TABLE t ADD c VARCHAR",
    "ALTER TABLE t ADD e ENUM",
    "ALTER TABLE t ADD c INT AFTER",
    "ALTER TABLE t CONVERT TO CHARACTER SET latin1 COLLATE",
    "CREATE TABLE t (a INT) DEFAULT",
    "ALTER TABLE `order` RENAME COLUMN `select`",
    "ALTER TABLE t ADD b INT AS (a + 1) DEFAULT 3",
    "ALTER TABLE t ADD b INT AS (a + 1) AUTO_INCREMENT",
    "CREATE TABLE t (a, b INT)",
    "CREATE TABLE t (a INT, b (5))",
    "CREATE TABLE t (a VARCHAR(10 10))",
    "CREATE TABLE t (a INT DEFAULT (NOW() + INTERVAL 1 DAY DAY))",
    "CREATE TABLE t (a INT DEFAULT ())",
    # the word NOT where an operand stands (`!` is the operand's negation)
    "CREATE TABLE t (a INT, b INT AS (a + NOT a) VIRTUAL)",
    "CREATE TABLE t (a INT, b INT AS (a = NOT a) VIRTUAL)",
    "CREATE TABLE t (a INT, b INT AS (a BETWEEN 0 AND NOT a) VIRTUAL)",
    "CREATE TABLE t (a INT, b INT AS (! NOT a) VIRTUAL)",
    # a CAST to a type no server casts to, half a byte, an operator of another database
    "CREATE TABLE t (a INT, b INT AS (CAST(a AS TINYINT)) VIRTUAL)",
    "CREATE TABLE t (a INT, b INT AS (CAST(a AS INT(5))) VIRTUAL)",
    "CREATE TABLE t (a INT, b INT AS (a = X'0') VIRTUAL)",
    "CREATE TABLE t (a INT, b INT AS (a::INT) VIRTUAL)",
    "CREATE TABLE t (d DATETIME DEFAULT DATETIME '2020-01-01')",
    "CREATE TABLE t (d TIME DEFAULT TIME(3) '10:00')",
    "CREATE TABLE t (d DATE DEFAULT DATE 20200101)",
    # a DEFAULT of an expression without its parentheses (one operand alone needs none)
    "CREATE TABLE t (a INT DEFAULT 1 + 1)",
    "CREATE TABLE t (a INT DEFAULT -(1))",
    "CREATE TABLE t (a INT DEFAULT -'1')",
    "CREATE TABLE t (a INT DEFAULT - - 1)",
    "CREATE TABLE t (a INT DEFAULT NOT 1)",
    "CREATE TABLE t (a INT DEFAULT !1)",
    "CREATE TABLE t (a INT DEFAULT ~1)",
    "CREATE TABLE t (a INT DEFAULT (1) + 1)",
    "CREATE TABLE t (a DATE DEFAULT DATE '2020-01-01' + INTERVAL 1 DAY)",
    "ALTER TABLE t ALTER a SET DEFAULT 1 + 1",
    "ALTER TABLE t ALTER COLUMN a SET DEFAULT 1 = 1",
    "ALTER TABLE t MODIFY b INT DEFAULT 1 * 2",
    "CREATE TABLE t (a DOUBLE DEFAULT 2 . 5)",
    "CREATE TABLE t (a INT, CONSTRAINT pk KEY (a))",
    "CREATE TABLE t (a INT, UNIQUE KEY KEY u1 (a))",
    "CREATE TABLE t (a INT, KEY kb (a) COMMENT COMMENT 'x')",
    "CREATE TABLE t (a INT, FULLTEXT INDEX INDEX f (a))",
    "ALTER TABLE t ADD c INT FIRST FIRST",
    "ALTER TABLE t ADD ADD c INT",
    "ALTER TABLE t ADD c INT, d INT",
    "ALTER TABLE t ADD INDEX i (a), INDEX j (b)",
    "ALTER TABLE t PRIMARY KEY (b)",
    "ALTER TABLE t RENAME KEY u1 u1 TO u2",
    "ALTER TABLE t RENAME INDEX k1 k2",
    "CREATE TABLE t (a INT, KEY kab (, c))",
    "ALTER TABLE t ADD (a)",
    "CREATE TABLE t (a INT KEY k (a))",
    "CREATE TABLE t (b TEXT UNIQUE KEY (a(10)))",
    "CREATE TABLE t (a INT) ENGINE = DEFAULT CHARSET = utf8mb4",
    "CREATE TABLE t (d UNSIGNED DEFAULT 1)",
    "CREATE TABLE t (b VARCHAR(10) DEFAULT DEFAULT NULL)",
    "ALTER TABLE t ADD c CHAR(2) CHARACTER SET SET ascii",
    "CREATE TABLE t (c VARCHAR(64) CHARACTER SET ascii CHARACTER SET latin1)",
    "CREATE TABLE t (a INT, pos_a CHECK (a > 0))",
    "CREATE TABLE t (a INT, KEY (a) USING)",
    "ALTER TABLE t ADD INDEX USING (a)",
]
#: statements the server parses that sqlglot alone would not
VALID = [
    "ALTER TABLE t",
    "ALTER TABLE `order` WAIT 2",
    "CREATE TABLE t (a INT PRIMARY KEY) ENGINE = InnoDB STATS_PERSISTENT 0 PACK_KEYS = 1",
    "CREATE TABLE t (a INT) KEY_BLOCK_SIZE 8 MAX_ROWS=100",
    "CREATE TABLE t (b CHAR(4) CHARACTER SET BINARY)",
    "ALTER TABLE t ADD COLUMN a INT, ADD INDEX (a), ADD b INT",
    # one operand alone as a DEFAULT, and an expression in its parentheses
    "CREATE TABLE t (a INT DEFAULT - 1, b INT DEFAULT +2.5, c VARCHAR(9) DEFAULT _utf8mb4'x', "
    "d INT DEFAULT (1 + 1), e VARCHAR(9) DEFAULT CONCAT('a', 'b'), f INT DEFAULT -1.5e3)",
    "ALTER TABLE t ALTER a SET DEFAULT (1 + 1), ALTER COLUMN b SET DEFAULT -1",
    # a temporal literal of no such date parses (the server's error 1525 is no syntax error)
    "CREATE TABLE t (d DATE DEFAULT DATE '2020-02-30', e TIME DEFAULT TIME '1 10')",
    # statements a MariaDB binlog carries that change no schema, or change it under a prefix
    "ANALYZE TABLE t PERSISTENT FOR ALL",
    "ANALYZE LOCAL TABLES t, u PERSISTENT FOR COLUMNS (a) INDEXES ()",
    "OPTIMIZE NO_WRITE_TO_BINLOG TABLE t, u WAIT 3",
    "REPAIR TABLE t QUICK EXTENDED USE_FRM",
    "CHECK TABLE t FOR UPGRADE QUICK CHANGED",
    "CHECKSUM TABLES t, u QUICK",
    "ALTER TABLE t ORDER BY a DESC, b",
    "ALTER TABLE t ORDER BY a, `nulls`",
    "SET STATEMENT max_statement_time=10, sql_mode='' FOR ALTER TABLE t ADD COLUMN x INT",
    "SET STATEMENT lock_wait_timeout=1 FOR SET STATEMENT sql_mode=DEFAULT FOR DROP TABLE t",
    "RENAME TABLES IF EXISTS a WAIT 1 TO b, c TO d",
    "TRUNCATE TABLE t WAIT 1",
    "TRUNCATE t NOWAIT",
    "ALTER TABLE t RENAME COLUMN IF EXISTS a TO b, ALTER COLUMN IF EXISTS a SET DEFAULT 1",
    "ALTER TABLE t ALTER IF EXISTS b DROP DEFAULT",
    # a key's TYPE, MariaDB's other spelling of USING (after its name, and among the options)
    "ALTER TABLE t ADD KEY k USING HASH (a) USING BTREE, ADD INDEX j TYPE BTREE (a) COMMENT "
    "'c' TYPE HASH, ADD UNIQUE `type` TYPE HASH (b), ADD PRIMARY KEY (a) TYPE BTREE",
    "CREATE INDEX i TYPE HASH ON t (a) TYPE BTREE",
    # digits and an E that no exponent follows name a column
    "ALTER TABLE t ADD 1e INT DEFAULT 1e1, ADD 2E$ INT, ADD c INT AS (1e-x) VIRTUAL",
    "ALTER TABLE 1e.`t` ADD b INT, ADD c INT AS (1e.t.a + t.1e) VIRTUAL",
    # MariaDB's DEFAULT for a charset or a collation, and its RENAME INDEX IF EXISTS
    "ALTER TABLE t CONVERT TO CHARACTER SET DEFAULT COLLATE DEFAULT, RENAME INDEX IF EXISTS i TO j",
    "ALTER TABLE t CHARSET latin1 COLLATE DEFAULT, ADD c VARCHAR(3) CHARSET latin1 COLLATE DEFAULT",
    "ALTER DATABASE d CHARACTER SET DEFAULT COLLATE DEFAULT",
    "CREATE TABLE x (c POINT REF_SYSTEM_ID=4326 NOT NULL, d GEOMETRY REF_SYSTEM_ID = 0)",
    # MariaDB's system versioning, COMPRESSED columns and periods (some refused as unsupported,
    # none as malformed)
    "ALTER TABLE t ADD SYSTEM VERSIONING",
    "ALTER TABLE t DROP SYSTEM VERSIONING",
    "ALTER TABLE t DROP COLUMN a, DROP SYSTEM VERSIONING, DROP b",
    "ALTER TABLE t ADD PERIOD FOR SYSTEM_TIME (s, e), ADD SYSTEM VERSIONING",
    "ALTER TABLE t DROP b, DROP PERIOD FOR SYSTEM_TIME, DROP `period`",
    "ALTER TABLE t ADD `period` INT, ADD COLUMN period INT, ADD PERIOD FOR SYSTEM_TIME (period, e)",
    "ALTER TABLE t DROP `system`, ADD COLUMN system INT",
    "CREATE TABLE v (a INT) ENGINE=InnoDB WITH SYSTEM VERSIONING",
    "CREATE TABLE v (a INT, z TEXT /*M!100301 COMPRESSED*/ DEFAULT NULL)",
    "CREATE TABLE v (a INT, s DATE, e DATE, PERIOD FOR p (s, e), UNIQUE (a, p WITHOUT OVERLAPS))",
    "CREATE TABLE v (a INT, period INT, PRIMARY KEY (period))",
    # ODBC's escapes
    "CREATE TABLE v (a DATE DEFAULT {d '2020-01-01'}, b INT DEFAULT {x 1 + 1}, c INT CHECK "
    "(c <> {fn PI()}))",
    "ALTER TABLE t ALTER KEY i NOT IGNORED, ALTER INDEX j IGNORED",
    "CREATE UNIQUE INDEX i ON t (a) NOT IGNORED IGNORED COMMENT 'c' ALGORITHM=INPLACE",
]
#: forms near the ones above that both refuse
INVALID = [
    # a bare PERIOD right after ADD or DROP begins a PERIOD FOR, never a column's name
    "ALTER TABLE t DROP b, DROP period",
    "ALTER TABLE t ADD period INT",
    "ANALYZE TABLE t PERSISTENT FOR COLUMNS (a)",
    "ANALYZE TABLE t PERSISTENT FOR ALL COLUMNS",
    "ANALYZE t",
    "CHECKSUM TABLE t QUICK EXTENDED",
    "CHECK LOCAL TABLE t",
    "OPTIMIZE TABLE t QUICK",
    "OPTIMIZE TABLE t WAIT 3 NOWAIT",
    "REPAIR TABLE t FORCE",
    "SET STATEMENT max_statement_time=10 FOR",
    "SET STATEMENT FOR DROP TABLE t",
    "SET STATEMENT max_statement_time=10 DROP TABLE t",
    "SET STATEMENT max_statement_time=10, FOR DROP TABLE t",
    "SET STATEMENT @x=1 FOR DROP TABLE t",
    "RENAME TABLE IF a TO b",
    "RENAME TABLE a TO b WAIT 1",
    "TRUNCATE TABLE IF EXISTS t",
    "TRUNCATE TABLE t, u",
    "TRUNCATE TABLE t CASCADE",
    "TRUNCATE TABLE t WAIT",
    "ALTER TABLE t ADD INDEX TYPE BTREE (a)",
    "ALTER TABLE t ADD UNIQUE TYPE HASH (a)",
    "ALTER TABLE t ADD PRIMARY KEY TYPE BTREE (a)",
    "CREATE INDEX i ON t TYPE HASH (a)",
    "ALTER TABLE t ADD KEY k TYPE (a)",
    "ALTER TABLE t ADD c VARCHAR(3) NOT NULL COLLATE DEFAULT",
    "ALTER TABLE t ADD c VARCHAR(3) BINARY COLLATE DEFAULT",
    "ALTER TABLE t ADD c INT COLLATE DEFAULT",
    "ALTER TABLE t RENAME INDEX IF i TO j",
    "CREATE TABLE x (c POINT NOT NULL REF_SYSTEM_ID=4326)",
    "CREATE TABLE x (c INT REF_SYSTEM_ID=1)",
    "CREATE TABLE x (c POINT REF_SYSTEM_ID 1)",
    "ALTER TABLE t ORDER BY",
    "ALTER TABLE t ORDER BY a NULLS FIRST",
    "ALTER TABLE t ORDER BY a DESC NULLS LAST",
    "ALTER TABLE t ORDER BY a NULLS LAST, b",
    "ALTER TABLE t ORDER BY a WITH FILL",
    "CREATE TABLE t (a INT, KEY (a NULLS FIRST))",
    "ALTER TABLE t DROP SYSTEM",
    "CREATE TABLE v (a INT, s DATE, PERIOD FOR p (s))",
    "CREATE TABLE v (a INT CHECK (a <> {'x'}))",
    "CREATE TABLE v (a INT DEFAULT {x 1} + 1)",
    "ALTER TABLE t ADD SYSTEM INT",
    "CREATE TABLE v (a INT) WITH SYSTEM",
    "ALTER TABLE t ALTER INDEX i",
    "ALTER TABLE t ALTER INDEX i NOT",
    "ALTER TABLE t ALTER INDEX IF NOT EXISTS i IGNORED",
    "ALTER TABLE t ALTER INDEX IF i IGNORED",
    "ALTER TABLE t ADD KEY (a) NOT",
    "CREATE INDEX i ON t (a) IGNORED NOT",
    # a string names no table nor database (sqlglot takes one for a quoted name)
    'CREATE TABLE "x" (a INT)',
    'CREATE TABLE "p"."q" (a INT)',
    'ALTER TABLE "x" ADD b INT',
    'ALTER TABLE t RENAME TO "z"',
    'RENAME TABLE t TO "y"',
    'CREATE TABLE u LIKE "t"',
    'CREATE INDEX i ON "t" (a)',
    'DROP TABLE "t"',
    'CREATE DATABASE "d"',
    'ALTER DATABASE "d" CHARACTER SET latin1',
]
#: MySQL's syntax that MariaDB refuses: mvdd reads MySQL binlogs too, so it takes them
MYSQL_ONLY = [
    "DROP INDEX i ON t ALGORITHM=INPLACE LOCK=NONE",
    "ANALYZE TABLE t UPDATE HISTOGRAM ON a, b WITH 8 BUCKETS",
    "ALTER TABLE t ALTER INDEX i INVISIBLE",
]


@pytest.fixture(scope="module")
def oracle(mariadb: MariaDB) -> Iterator[pymysql.cursors.Cursor]:
    """A cursor in a database of its own: PREPARE needs a current database."""
    with (
        mariadb.database() as name,
        contextlib.closing(mariadb.connect(name)) as conn,
        conn.cursor() as cur,
    ):
        yield cur


def server_parses(cur: pymysql.cursors.Cursor, sql: str) -> bool:
    try:
        cur.execute("PREPARE s FROM %s", (sql,))
    except pymysql.MySQLError as err:
        return err.args[0] != 1064  # a table or column the server cannot find: it parsed
    cur.execute("DEALLOCATE PREPARE s")
    return True


def mvdd_parses(sql: str) -> bool:
    try:
        parse_statements(sql)
    except DDLParseError:
        return False
    except MvddError:
        return True  # parsed; refused for what it says (unsupported, impossible)
    return True


def disagreements(cur: pymysql.cursors.Cursor, texts: list[str]) -> list[tuple[str, str]]:
    out = []
    for sql in texts:
        server, ours = server_parses(cur, sql), mvdd_parses(sql)
        if server != ours:
            out.append((sql, "server parses it" if server else "server: syntax error"))
    return out


def prefixes() -> list[str]:
    out: dict[str, None] = {}
    for sql in CORPUS:
        for token in TOKEN.finditer(sql):
            out.setdefault(sql[: token.end()])
    return list(out)


def test_every_truncation_of_the_corpus_parses_as_on_the_server(
    oracle: pymysql.cursors.Cursor,
) -> None:
    texts = prefixes()
    found = disagreements(oracle, texts)
    print(f"\n{len(texts)} prefixes of {len(CORPUS)} statements; {len(found)} disagree")
    assert len(texts) > 4000
    assert not found, found[:20]


def test_mutations_found_by_fuzzing_are_syntax_errors_on_both(
    oracle: pymysql.cursors.Cursor,
) -> None:
    assert [sql for sql in MUTATIONS if server_parses(oracle, sql)] == []
    assert [sql for sql in MUTATIONS if mvdd_parses(sql)] == []


def test_what_the_server_parses_mvdd_parses(oracle: pymysql.cursors.Cursor) -> None:
    assert disagreements(oracle, VALID + INVALID) == []
    assert all(server_parses(oracle, sql) for sql in VALID)


def test_mysql_only_forms_are_taken_though_mariadb_refuses_them(
    oracle: pymysql.cursors.Cursor,
) -> None:
    assert [sql for sql in MYSQL_ONLY if server_parses(oracle, sql)] == []
    assert [sql for sql in MYSQL_ONLY if not mvdd_parses(sql)] == []


@pytest.mark.parametrize(
    "form",
    ["CREATE TABLE x (a INT, {} INT)", "ALTER TABLE t DROP COLUMN {}", "ALTER TABLE {} ADD a INT"],
)
def test_the_reserved_words_are_reserved_on_the_server(
    oracle: pymysql.cursors.Cursor, form: str
) -> None:
    bare = [form.format(w) for w in sorted(RESERVED)]
    assert [sql for sql in bare if server_parses(oracle, sql)] == []
    assert [sql for sql in bare if mvdd_parses(sql)] == []
    # quoted, each is a name like any other
    quoted = [form.format(f"`{w}`") for w in sorted(RESERVED)]
    assert [sql for sql in quoted if not mvdd_parses(sql)] == []


#: what may stand where a statement has a space, as the server reads it: comments of each kind
_GAPS = [" /* c */ ", " -- c\n", " # c\n", "/**/", "\n-- \n", " /*! */ "]


def commented(sql: str, turn: int = 0) -> str:
    """``sql`` with each space between its tokens (outside quotes) a comment, of each kind in
    turn from ``turn``."""
    out, at = [], 0
    for i, token in enumerate(TOKEN.finditer(sql)):
        gap = sql[at : token.start()]
        out.append(_GAPS[(turn + i) % len(_GAPS)] if gap.strip() == "" and gap else gap)
        out.append(token.group())
        at = token.end()
    return "".join(out) + sql[at:]


def test_a_comment_stands_where_a_space_does(oracle: pymysql.cursors.Cursor) -> None:
    """Every statement of the corpus, and every valid one, with a comment where it has a space
    (``PRIMARY /* c */ KEY``, ``ORDER -- c`` and a line break before ``BY``): parsed by both or
    by neither, and where mvdd parses it, read as the statement without its comments."""
    # (a statement with a comment of its own: its words are not a statement's to space)
    corpus = [sql for sql in CORPUS + VALID if not any(c in sql for c in ("/*", "--", "#"))]
    assert len(corpus) > 600
    texts = [commented(sql, turn) for sql in corpus for turn in (0, 3)]
    assert disagreements(oracle, texts) == []
    for sql in corpus:
        try:
            plain = parse_statements(sql)
        except MvddError:
            continue
        for turn in (0, 3):
            text = commented(sql, turn)
            assert [st.steps for st in parse_statements(text)] == [st.steps for st in plain], text
