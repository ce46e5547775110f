"""The versioned catalog: versions, history, positions, atomicity, tool cut-overs, sharing."""

from __future__ import annotations

import contextlib
import gc
import logging
import sqlite3
import threading
import weakref
from pathlib import Path
from typing import Any

import pytest

from mvdd import (
    Catalog,
    CatalogError,
    ConcurrentChangeError,
    DDLError,
    DDLParseError,
    MvddError,
    NoSuchTableError,
    NoSuchVersionError,
    PositionError,
    StoreError,
    UnsupportedDDLError,
)
from mvdd.catalog.history import Change
from mvdd.ddl import step as s
from mvdd.ddl.apply import apply_steps
from mvdd.ddl.statement import iter_statements, split_statements
from mvdd.store.base import Commit, VersionRow
from mvdd.store.memory import MemoryStore
from mvdd.store.sqlite import SQLiteStore
from tests.support.formats import assert_same_changes, format_2_sqlite, stored_format


def test_versions_count_statements_not_steps(catalog: Catalog) -> None:
    changes = catalog.execute(
        "CREATE TABLE t (a INT); ALTER TABLE t ADD b INT, ADD c INT, DROP a; ALTER TABLE t ADD d INT"
    )
    assert [c.version for c in changes] == [1, 2, 3]
    assert catalog.version("t") == 3
    assert [type(x) for x in changes[1].steps] == [s.AddColumn, s.AddColumn, s.DropColumn]
    assert catalog.table("t", version=2).column_names == ("b", "c")


def test_no_op_statements_add_no_version(catalog: Catalog) -> None:
    catalog.execute("CREATE TABLE t (a INT DEFAULT 1)")
    for sql in (
        "ALTER TABLE t ALTER a SET DEFAULT 1",
        "ALTER TABLE t MODIFY a INT DEFAULT 1",
        "ALTER TABLE t ADD COLUMN IF NOT EXISTS a INT",
        "ALTER TABLE t DROP COLUMN IF EXISTS z",
        "CREATE TABLE IF NOT EXISTS t (x INT)",
        "ALTER TABLE t FORCE",
    ):
        assert catalog.execute(sql) == []
    assert catalog.version("t") == 1
    # TRUNCATE keeps the schema but is a version: the data changed
    assert [c.version for c in catalog.execute("TRUNCATE TABLE t")] == [2]


def test_history_records_everything(catalog: Catalog) -> None:
    catalog.execute("CREATE TABLE t (a INT)", position=("binlog.000001", 100))
    catalog.execute("ALTER TABLE t ADD b INT", position=("binlog.000001", 250))
    history = catalog.history("t")
    assert [(h.version, h.statement, h.position) for h in history] == [
        (1, "CREATE TABLE t (a INT)", ("binlog.000001", 100)),
        (2, "ALTER TABLE t ADD b INT", ("binlog.000001", 250)),
    ]
    assert history[0].at <= history[1].at and history[0].at.tzinfo is not None
    assert history[1].table_id == history[0].table_id == catalog.table("t").id


def test_old_versions_never_change(catalog: Catalog) -> None:
    catalog.execute("CREATE TABLE t (a INT, b VARCHAR(3), KEY kb (b))")
    seen = {1: catalog.table("t", version=1).to_sql()}
    for i, sql in enumerate(
        [
            "ALTER TABLE t ADD c INT FIRST",
            "ALTER TABLE t RENAME COLUMN b TO bb",
            "ALTER TABLE t MODIFY a BIGINT AFTER bb",
            "ALTER TABLE t DROP INDEX kb, DROP COLUMN bb",
            "RENAME TABLE t TO u",
            "ALTER TABLE u ADD b VARCHAR(3)",
        ],
        start=2,
    ):
        catalog.execute(sql)
        name = "u" if i >= 6 else "t"
        seen[i] = catalog.table(name).to_sql()
        for version, text in seen.items():
            assert catalog.table(name, version=version).to_sql() == text


def test_a_failing_listener_is_logged_and_fails_nothing(
    catalog: Catalog, caplog: pytest.LogCaptureFixture
) -> None:
    """The versions are committed when the listeners hear of them: one that raises is logged,
    the others still hear, and the statement returns its changes."""
    heard: list[int] = []

    def failing(changes: list[Change]) -> None:
        raise RuntimeError("listener bug")

    catalog.execute("CREATE TABLE t (a INT)")
    catalog.add_listener(failing)
    catalog.add_listener(lambda changes: heard.extend(c.version for c in changes))
    with caplog.at_level(logging.ERROR, logger="mvdd.catalog"):
        (change,) = catalog.execute("ALTER TABLE t ADD b INT")
    assert change.version == 2 and catalog.version("t") == 2 and heard == [2]
    (record,) = caplog.records
    assert "t 2" in record.getMessage() and "listener bug" in (record.exc_text or "")


def test_a_superseded_version_keeps_its_schema_not_its_lookup_index(catalog: Catalog) -> None:
    """The history lets the lookup maps of a version older than the one before the head go
    (memory, and a garbage-collector visit per entry), in place; its lookups build them again
    and answer as before, for the history and for a reader holding the value. The version
    before the head keeps its maps: a check of the head's steps applies them to it."""
    catalog.execute("CREATE TABLE t (a INT, b VARCHAR(3), KEY kb (b))")
    held = catalog.table("t")
    assert held.column("B").id == 2 and held.indexed
    catalog.execute("ALTER TABLE t DROP COLUMN b, ADD c INT")
    assert catalog.table("t", version=1) is held  # the version before the head, as it was
    catalog.execute("ALTER TABLE t ADD d INT")
    old = catalog.table("t", version=1)
    assert old is held and not old.indexed
    assert catalog.table("t", version=2).indexed
    assert held.column("b").id == 2 and held.indexed  # (built again by the lookup)
    assert old.column("b").id == 2 and old.find_index("KB") is not None
    assert old.find_column("c") is None and catalog.table("t").column("c").id == 4
    assert catalog.table("t").indexed  # the head's is carried over, not rebuilt


def test_a_statement_written_in_another_charset_takes_its_introduced_literals_bytes_in_it(
    catalog: Catalog,
) -> None:
    """``execute(…, charset=…)``: the statement's text was written in that charset (a binlog's
    statement from a ``latin1`` client, read in it), so a literal under an introducer is its
    bytes in that charset; every other literal is the text as written. (The server oracle: the
    binlog test of client charsets.) A charset unknown, without a codec, or not holding the
    literal is refused, and nothing changes."""
    sql = (
        "CREATE TABLE {} (a VARCHAR(5) CHARACTER SET latin1 DEFAULT _latin1'é', "
        "b VARBINARY(4) DEFAULT _latin1'é', c VARCHAR(5) DEFAULT 'é')"
    )
    catalog.execute(sql.format("t"), charset="latin1")
    catalog.execute(sql.format("u"))  # UTF-8 text: _latin1'é' is the bytes C3 A9
    catalog.execute(sql.format("v"), charset="utf8")
    defaults = {
        name: tuple(c.default for c in catalog.table(name).columns) for name in ("t", "u", "v")
    }
    assert defaults == {
        "t": ("é", b"\xe9", "é"),
        "u": ("Ã©", b"\xc3\xa9", "é"),
        "v": ("Ã©", b"\xc3\xa9", "é"),
    }
    for charset, error, match in [
        ("nope", DDLError, "unknown character set"),
        ("swe7", DDLError, "no codec"),
        ("ascii", None, None),
    ]:
        if error is None:
            catalog.execute(sql.format("w"), charset=charset)
            assert catalog.table("w").column("a").default == "Ã©"
            continue
        with pytest.raises(error, match=match):
            catalog.execute(sql.format("w"), charset=charset)
    with pytest.raises(DDLParseError, match="no text of latin1") as info:
        catalog.execute("CREATE TABLE x (a TEXT DEFAULT _latin1'中')", charset="latin1")
    assert info.value.statement is not None
    assert catalog.tables() == ["t", "u", "v", "w"]


def test_a_statement_is_read_under_the_sql_mode_it_was_written_under(catalog: Catalog) -> None:
    """``execute(…, sql_mode=…)`` reads a statement under its session's mode (the server
    oracle: the binlog test of sql modes); a mode mvdd does not model is refused, and nothing
    changes."""
    catalog.execute('CREATE TABLE "t" ("z" INT, "a" TEXT DEFAULT (\'b\' || "z"))', sql_mode="ANSI")
    assert catalog.table("t").column("a").default.sql == "CONCAT('b', `z`)"  # type: ignore[union-attr]
    catalog.execute(
        r"ALTER TABLE t ADD u VARCHAR(5) DEFAULT 'a\nb'", sql_mode="NO_BACKSLASH_ESCAPES"
    )
    catalog.execute("ALTER TABLE t ADD r REAL", sql_mode=1)  # (REAL_AS_FLOAT's bit)
    table = catalog.table("t")
    assert table.column("u").default == "a\\nb" and table.column("r").type.kind == "FLOAT"
    with pytest.raises(DDLParseError):  # "…" a string in the default mode
        catalog.execute('CREATE TABLE "x" (a INT)')
    with pytest.raises(UnsupportedDDLError, match="ORACLE"):
        catalog.execute("CREATE TABLE x (a INT)", sql_mode="ORACLE,PIPES_AS_CONCAT")
    with pytest.raises(DDLError, match="bit 40"):
        catalog.execute("CREATE TABLE x (a INT)", sql_mode=1 << 40)
    # not strict: a VARCHAR or VARBINARY too long is the TEXT or BLOB holding it
    too_long = "ALTER TABLE t ADD v VARCHAR(70000) CHARACTER SET latin1, ADD w VARBINARY(70000)"
    with pytest.raises(DDLError, match="out of range"):
        catalog.execute(too_long, sql_mode="STRICT_ALL_TABLES")
    catalog.execute(too_long, sql_mode="NO_ENGINE_SUBSTITUTION")
    kinds = [c.type.kind for c in catalog.table("t").columns[-2:]]
    assert kinds == ["MEDIUMTEXT", "MEDIUMBLOB"] and catalog.version("t") == 4
    assert catalog.tables() == ["t"]


def test_a_timestamps_literal_default_is_kept_in_utc(catalog: Catalog) -> None:
    """``execute(…, time_zone=…)``: a TIMESTAMP's literal DEFAULT, written in that session's
    zone (an offset, or a zone's name with its clock changes), is kept as UTC text, as every
    session mvdd opens reads it; a DATETIME's, CURRENT_TIMESTAMP and a zero date are kept as
    written (the server oracle: the replication test of servers in other zones). An unknown
    zone is refused, and nothing changes."""
    sql = (
        "CREATE TABLE {} (a TIMESTAMP(3) NOT NULL DEFAULT '2021-01-01 00:00:00.5', "
        "b TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, c TIMESTAMP NOT NULL DEFAULT 0, "
        "d DATETIME DEFAULT '2021-01-01 00:00:00', e TIMESTAMP NULL DEFAULT 20210701120000)"
    )
    for name, zone in (("t", "+08:00"), ("u", "Europe/Berlin"), ("v", None)):
        catalog.execute(sql.format(name), time_zone=zone)
    catalog.execute("ALTER TABLE t ALTER e SET DEFAULT '2022-01-01 00:00:00'", time_zone="-03:30")
    defaults = {
        name: [str(c.default) for c in catalog.table(name).columns] for name in ("t", "u", "v")
    }
    assert defaults == {
        "t": ["2020-12-31 16:00:00.500", "CURRENT_TIMESTAMP()", "0000-00-00 00:00:00",
              "2021-01-01 00:00:00", "2022-01-01 03:30:00"],
        "u": ["2020-12-31 23:00:00.500", "CURRENT_TIMESTAMP()", "0000-00-00 00:00:00",
              "2021-01-01 00:00:00", "2021-07-01 10:00:00"],
        "v": ["2021-01-01 00:00:00.500", "CURRENT_TIMESTAMP()", "0000-00-00 00:00:00",
              "2021-01-01 00:00:00", "2021-07-01 12:00:00"],
    }  # fmt: skip
    for zone in ("Mars/Olympus", "+14:00", "SYSTEM"):
        with pytest.raises(DDLError, match="time zone"):
            catalog.execute(sql.format("w"), time_zone=zone)
    assert catalog.tables() == ["t", "u", "v"]


def test_a_catalog_reads_each_text_as_its_arguments_say_and_can_go() -> None:
    """A catalog keeps the context its last text was read in, for the next text read the same
    way: a text read another way (its server's name case, a session's settings) gets its own,
    and the catalog holds it, not the module, so a catalog no longer used can go."""
    cat = Catalog()
    cat.execute("CREATE TABLE T1 (a INT)")
    cat.lower_names = True
    cat.execute("CREATE TABLE T2 (a INT)")
    cat.execute('CREATE TABLE "T3" (a INT)', sql_mode="ANSI_QUOTES")
    cat.lower_names = False
    cat.execute("CREATE TABLE T4 (a TIMESTAMP)", explicit_defaults_for_timestamp=False)
    cat.execute("CREATE TABLE T5 (a TIMESTAMP)")
    assert cat.tables() == ["T1", "T4", "T5", "t2", "t3"]
    assert [cat.table(t).columns[0].nullable for t in ("T4", "T5")] == [False, True]
    gone = weakref.ref(cat)
    del cat
    gc.collect()
    assert gone() is None


def test_a_version_keeps_few_objects(monkeypatch: pytest.MonkeyPatch) -> None:
    """What an in-memory catalog keeps of each version past the cache: its version row with
    the statement's steps, the element rows it opened and their values, nothing more (no
    commit record, no change object, no copy of a row it ended, no list per version). Each
    object kept is a visit at every full garbage collection, and those come the more often the
    more objects each statement leaves alive: the count is the statement path's collector
    time. Counted over 600 statements (a MODIFY, an ADD and a DROP, in turn) with the cache at
    8 versions: 6.4 objects a version (12.4 with each of the above kept)."""
    from mvdd.catalog import history

    monkeypatch.setattr(history, "CACHE_SIZE", 8)
    cat = Catalog()
    cat.execute("CREATE TABLE t (a INT, b INT, c VARCHAR(5))")

    def run(n: int) -> None:
        for i in range(n):
            cat.execute(f"ALTER TABLE t MODIFY b BIGINT DEFAULT {i}")
            cat.execute("ALTER TABLE t ADD d INT")
            cat.execute("ALTER TABLE t DROP d")

    def tracked() -> int:
        gc.collect()
        gc.collect()  # (a tuple of untracked tuples is untracked a collection after them)
        return len(gc.get_objects())

    run(50)
    before = tracked()
    run(200)
    assert (tracked() - before) / 600 < 8


def test_the_history_cache_is_bounded_by_elements(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A wide table keeps fewer cached versions, not more memory: the elements the cache holds
    stay within the budget (counted exactly while readers rebuild versions in threads), the
    newest entry stays even when it alone is over, and every version still reads as the
    statements that made it say (version v has the columns a, c1 .. c(v-1))."""
    from mvdd.catalog import history

    monkeypatch.setattr(history, "CACHE_ELEMENTS", 40)
    catalog.execute("CREATE TABLE t (a INT)")
    for i in range(1, 30):
        catalog.execute(f"ALTER TABLE t ADD c{i} INT")
    hist = catalog._history("t")

    def expected(v: int) -> tuple[str, ...]:
        return ("a", *(f"c{i}" for i in range(1, v)))

    def read(versions: list[int]) -> None:
        for v in versions:
            assert catalog.table("t", version=v).column_names == expected(v)

    hist.forget()
    threads = [
        threading.Thread(target=read, args=([(k * 7 + j) % 30 + 1 for j in range(120)],))
        for k in range(4)
    ]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    read(list(range(1, 31)))
    versions, elements = hist.cached()
    assert elements == sum(history._size(t) for t in hist._cache.values())
    assert elements <= 40 and 1 <= versions < 30
    # one version over the budget on its own is still kept (the newest)
    read([30])
    assert hist.cached() == (1, 31)
    assert catalog.table("t").column_names == expected(30)


def test_lookup_errors(catalog: Catalog) -> None:
    catalog.execute("CREATE TABLE t (a INT)")
    with pytest.raises(NoSuchTableError) as info:
        catalog.table("nope")
    assert isinstance(info.value, LookupError) and info.value.table == "nope"
    for bad in (0, 2, -1, "1", True):
        with pytest.raises(NoSuchVersionError):
            catalog.table("t", version=bad)  # type: ignore[arg-type]
    with pytest.raises(CatalogError):
        catalog.table("t", version=1, position=5)


def test_a_failed_statement_changes_nothing(catalog: Catalog) -> None:
    catalog.execute("CREATE TABLE t (a INT)")
    before = (catalog.tables(), catalog.version("t"), catalog.table("t"))
    for bad in (
        "ALTER TABLE t ADD b INT, ADD b INT",
        "ALTER TABLE t ADD c INT, DROP COLUMN nope",
        "RENAME TABLE t TO u, nope TO v",
        "CREATE TABLE t (x INT)",
        "ALTER TABLE t ADD d INT NOT NULL",
        "ALTER TABLE t ADD e INT, ADD CHECK (nope > 0)",
    ):
        with pytest.raises(MvddError) as info:
            catalog.execute(bad)
        assert info.value.statement == bad
        assert (catalog.tables(), catalog.version("t"), catalog.table("t")) == before


def test_statements_before_a_failing_one_stay(catalog: Catalog) -> None:
    with pytest.raises(DDLError) as info:
        catalog.execute("CREATE TABLE t (a INT); ALTER TABLE t ADD b INT; ALTER TABLE t DROP nope")
    assert info.value.statement_index == 3
    assert catalog.version("t") == 2
    # statements run in turn: a syntax error in the second leaves the first committed ...
    with pytest.raises(DDLParseError) as err:
        catalog.execute("ALTER TABLE t ADD c INT; ALTER TABLE t ADD (")
    assert err.value.statement_index == 2 and catalog.version("t") == 3
    # ... but text that does not even tokenize commits nothing
    with pytest.raises(DDLParseError):
        catalog.execute("ALTER TABLE t ADD d INT; ALTER TABLE t COMMENT 'unterminated")
    assert catalog.version("t") == 3


def test_positions_and_the_boundary_rule(catalog: Catalog) -> None:
    catalog.execute("CREATE TABLE t (a INT)", position=10)
    catalog.execute("ALTER TABLE t ADD b INT", position=20)
    catalog.execute("ALTER TABLE t ADD c INT")  # no position: counts as 20
    catalog.execute("ALTER TABLE t ADD d INT", position=30)
    at = {p: catalog.table("t", position=p).column_names for p in (11, 20, 21, 30, 31)}
    # an event at p is decoded with the newest version whose position is strictly before p
    assert at == {
        11: ("a",),
        20: ("a",),
        21: ("a", "b", "c"),
        30: ("a", "b", "c"),
        31: ("a", "b", "c", "d"),
    }
    with pytest.raises(NoSuchVersionError):
        catalog.table("t", position=10)


def test_replay_is_idempotent_and_out_of_order_is_refused(catalog: Catalog) -> None:
    catalog.execute("CREATE TABLE t (a INT)", position=10)
    catalog.execute("ALTER TABLE t ADD b INT", position=20)
    # a worker restarting from position 5 replays both: nothing changes
    assert catalog.execute("CREATE TABLE t (a INT)", position=10) == []
    assert catalog.execute("ALTER TABLE t ADD b INT", position=20) == []
    assert catalog.version("t") == 2
    with pytest.raises(PositionError):
        catalog.execute("ALTER TABLE t ADD c INT", position=15)
    with pytest.raises(PositionError):
        catalog.execute("ALTER TABLE t ADD c INT", position=("binlog", 30))
    for bad in (1.5, "x", (), (1, None), True):
        with pytest.raises(PositionError):
            catalog.execute("ALTER TABLE t ADD c INT", position=bad)
    assert catalog.version("t") == 2


def test_a_no_op_replayed_behind_a_later_version_is_a_no_op(catalog: Catalog) -> None:
    """A statement that changed nothing added no version at its position: replayed after a
    later version (a worker started again behind its catalog), it is judged on the table as
    it stood there, and a no-op there is one again; one that would change it is refused."""
    catalog.execute("CREATE TABLE t (id INT, a INT)", position=10)
    catalog.execute("ALTER TABLE t MODIFY a INT FIRST", position=20)
    assert catalog.execute("ALTER TABLE t MODIFY a INT FIRST", position=25) == []
    catalog.execute("ALTER TABLE t ENGINE=InnoDB", position=26)
    assert catalog.execute("ALTER TABLE t ENGINE=InnoDB", position=27) == []  # (a rebuild)
    catalog.execute("ALTER TABLE t ADD INDEX ix (a)", position=30)
    assert catalog.execute("ALTER TABLE t MODIFY a INT FIRST", position=25) == []
    assert catalog.execute("ALTER TABLE t ENGINE=InnoDB", position=27) == []
    assert catalog.version("t") == 4
    # not a no-op where it stood (the column moved first at 20): out of order
    with pytest.raises(PositionError):
        catalog.execute("ALTER TABLE t MODIFY a INT FIRST", position=15)
    # nor one of a version after it (the index came at 30)
    with pytest.raises(PositionError):
        catalog.execute("ALTER TABLE t ADD INDEX ix (a)", position=25)
    assert catalog.version("t") == 4


def test_a_statement_replayed_behind_a_new_table_of_its_name_is_a_replay(
    catalog: Catalog,
) -> None:
    """A DROP (or any statement) replayed after a new table took its table's name (a worker
    started again behind its catalog): the new table did not exist at the statement's
    position, so it is not the statement's (it was judged out of order for it, and the
    replay refused); the old table's version there says the statement was applied. So with
    the old table renamed away: a statement of the new one replayed is not the old one's."""
    catalog.execute("CREATE TABLE t (old INT)", position=10)
    catalog.execute("ALTER TABLE t ADD COLUMN b INT", position=15)
    catalog.execute("DROP TABLE IF EXISTS t", position=20)
    catalog.execute("CREATE TABLE t (new INT)", position=30)
    for sql, at in [
        ("CREATE TABLE t (old INT)", 10),
        ("ALTER TABLE t ADD COLUMN b INT", 15),
        ("DROP TABLE IF EXISTS t", 20),
    ]:
        assert catalog.execute(sql, position=at) == [], sql
    assert catalog.table("t").column_names == ("new",) and catalog.version("t") == 1
    with pytest.raises(PositionError):  # (a statement no version of the old table records)
        catalog.execute("ALTER TABLE t ADD COLUMN c INT", position=17)
    # the old table renamed away, not dropped: named otherwise where the new one's CREATE is
    catalog.execute("CREATE TABLE v (old INT)", position=40)
    catalog.execute("RENAME TABLE v TO w", position=50)
    catalog.execute("CREATE TABLE v (new INT)", position=60)
    catalog.execute("ALTER TABLE w ADD COLUMN b INT", position=70)
    assert catalog.execute("CREATE TABLE v (new INT)", position=60) == []
    assert catalog.execute("CREATE TABLE v (old INT)", position=40) == []
    with pytest.raises(PositionError):  # (w was v at 45: no version of it says so)
        catalog.execute("ALTER TABLE w ADD COLUMN c INT", position=45)
    assert catalog.table("w").column_names == ("old", "b")


def test_a_statement_new_to_its_table_is_not_judged_by_the_names_earlier_table(
    catalog: Catalog,
) -> None:
    """A statement on the table that bears its name at its position, whose history ends
    before it, is new to that table, whatever another table that bore the name earlier did
    since (renamed away, then dropped): a no-op read again after a restart behind that drop
    passes (it was refused as out of order for the earlier table, for good), and a change
    applies. A no-op on a table renamed and dropped since is one too."""
    catalog.execute("CREATE TABLE t (a INT)", position=10)
    catalog.execute("RENAME TABLE t TO u", position=20)
    catalog.execute("CREATE TABLE t (a INT)", position=30)
    catalog.execute("DROP TABLE u", position=50)
    assert catalog.execute("ALTER TABLE t ALTER COLUMN a DROP DEFAULT", position=40) == []
    (change,) = catalog.execute("ALTER TABLE t ADD COLUMN b INT", position=45)
    assert (change.table, change.version) == ("t", 2)
    with pytest.raises(PositionError):  # (u bore no name t at 25: t was made at 30)
        catalog.execute("ALTER TABLE t ADD COLUMN c INT", position=25)
    # a no-op read again on a table dropped since: judged on the tables named so at its
    # position (it was planned on the names now, found none, and refused as out of order)
    catalog.execute("CREATE TABLE v (a INT, b INT)", position=60)
    catalog.execute("RENAME TABLE v TO w", position=70)
    catalog.execute("DROP TABLE w", position=80)
    assert catalog.execute("ALTER TABLE v MODIFY a INT FIRST", position=65) == []
    with pytest.raises(PositionError):  # (a change no version of v records)
        catalog.execute("ALTER TABLE v MODIFY a INT AFTER b", position=65)


def test_names_are_resolved_at_the_position(catalog: Catalog) -> None:
    catalog.execute("CREATE TABLE t (old INT)", position=1)
    catalog.execute("DROP TABLE t", position=2)
    catalog.execute("CREATE TABLE t (new INT)", position=3)
    catalog.execute("RENAME TABLE t TO u", position=4)
    assert catalog.table("t", position=2).column_names == ("old",)
    with pytest.raises(NoSuchVersionError):
        catalog.table("t", position=3)  # dropped at 2, re-created at 3: nothing in between
    assert catalog.table("t", position=4).column_names == ("new",)
    assert catalog.table("u", position=5).column_names == ("new",)
    with pytest.raises(NoSuchTableError):
        catalog.table("t")
    assert catalog.tables() == ["u"]


def test_multi_table_renames(catalog: Catalog) -> None:
    catalog.execute("CREATE TABLE a (x INT); CREATE TABLE b (y INT)")
    ids = {n: catalog.table(n).id for n in "ab"}
    changes = catalog.execute("RENAME TABLE a TO tmp, b TO a, tmp TO b")
    assert sorted((c.table, c.version) for c in changes) == [("a", 2), ("b", 2)]
    assert catalog.table("a").id == ids["b"] and catalog.table("a").column_names == ("y",)
    assert catalog.table("b").id == ids["a"]
    with pytest.raises(DDLError):
        catalog.execute("RENAME TABLE a TO b")


def test_a_name_with_a_dot_is_never_another_databases_table(catalog: Catalog) -> None:
    """A table named `d.t` and table `t` of database `d` are two tables on the server: with a
    default database each keeps its own (`x.d.t` and `d.t`), in a catalog of one database the
    name is the table's, and without any a dotted name that names no database is refused,
    naming it, where it would read as the other."""
    catalog.execute("CREATE TABLE `d.t` (a INT); CREATE TABLE d.t (b INT)", database="x")
    assert catalog.tables() == ["d.t", "x.d.t"]
    assert catalog.table("x.d.t").column_names == ("a",)
    assert catalog.table("d.t").column_names == ("b",)
    with pytest.raises(UnsupportedDDLError, match="has a dot and no database") as err:
        catalog.execute("ALTER TABLE `d.t` ADD c INT")
    assert err.value.table == "d.t"
    assert catalog.table("d.t").column_names == ("b",)
    one = Catalog(database="x")
    one.execute("CREATE TABLE `d.t` (a INT); ALTER TABLE x.`d.t` ADD c INT")
    assert one.tables() == ["d.t"] and one.table("d.t").column_names == ("a", "c")


def test_drop_and_recreate_is_a_new_table(catalog: Catalog) -> None:
    catalog.execute("CREATE TABLE t (a INT)")
    first = catalog.table("t").id
    (drop,) = catalog.execute("DROP TABLE t")
    assert drop.dropped and drop.version == 2
    catalog.execute("CREATE TABLE t (b INT)")
    assert catalog.table("t").id != first and catalog.version("t") == 1


def test_create_like_copies_the_schema(catalog: Catalog) -> None:
    catalog.execute("CREATE TABLE t (a INT PRIMARY KEY, b VARCHAR(3) DEFAULT 'x', KEY kb (b))")
    catalog.execute("CREATE TABLE t2 LIKE t")
    assert catalog.table("t2").equivalent(catalog.table("t"), ignore_order=False)
    assert catalog.table("t2").id != catalog.table("t").id


@pytest.mark.parametrize(
    "ghost,old,create",
    [
        ("_t_gho", "_t_del", "CREATE TABLE `_t_gho` LIKE `t`"),
        (
            "_t_new",
            "_t_old",
            "CREATE TABLE `_t_new` (id INT NOT NULL, a VARCHAR(10), PRIMARY KEY (id))",
        ),
    ],
)
def test_tool_cut_over_keeps_the_table(catalog: Catalog, ghost: str, old: str, create: str) -> None:
    catalog.execute("CREATE TABLE t (id INT NOT NULL, a VARCHAR(10), PRIMARY KEY (id))")
    before = catalog.table("t")
    catalog.execute(create)
    catalog.execute(f"ALTER TABLE `{ghost}` ADD COLUMN b INT DEFAULT 0, MODIFY a VARCHAR(20)")
    catalog.execute(f"ALTER TABLE `{ghost}` ADD INDEX kb (b)")
    catalog.execute(f"RENAME TABLE t TO `{old}`, `{ghost}` TO t")
    after = catalog.table("t")
    assert after.id == before.id and catalog.version("t") == before.version + 1
    assert after.column_names == ("id", "a", "b")
    # ids continue the table's own, so rows decode across the swap by id
    assert after.column("id").id == before.column("id").id
    assert after.column("a").id == before.column("a").id
    assert after.column("b").id > before.last_id
    # the version's steps are what the ghost went through
    steps = catalog.history("t")[-1].steps
    assert [type(x) for x in steps] == [s.AddColumn, s.ModifyColumn, s.AddIndex]
    assert all(x.table == "t" for x in steps)
    assert catalog.table(old).equivalent(before)
    catalog.execute(f"DROP TABLE `{old}`")
    assert catalog.tables() == ["t"]


def test_skip_policy_for_replication_workers(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="mvdd.catalog")
    strict = Catalog()
    with pytest.raises(UnsupportedDDLError):
        strict.execute("GRANT SELECT ON db.* TO u")
    lax = Catalog(on_unsupported="skip")
    changes = lax.execute(
        "GRANT SELECT ON *.* TO u; CREATE TABLE t (a INT); CREATE VIEW v AS SELECT 1"
    )
    assert [c.table for c in changes] == ["t"]
    assert any("skipped statement 1" in r.getMessage() for r in caplog.records)
    with pytest.raises(CatalogError):
        Catalog(on_unsupported="ignore")


def test_database_scope() -> None:
    cat = Catalog(database="shop")
    cat.execute("CREATE TABLE shop.t (a INT); ALTER TABLE t ADD b INT")
    assert cat.table("t").column_names == ("a", "b")
    with pytest.raises(UnsupportedDDLError):
        cat.execute("CREATE TABLE other.t (a INT)")


#: (the database a catalog tracks, the statement's default database, a qualified column of
#: table ``u``, whether it names ``u``)
QUALIFIERS = [
    (None, "d", "d.u.a", True),
    (None, "d", "u.a", True),
    (None, "d", "u.A", True),  # (a column's name is not)
    (None, "d", "e.u.a", False),  # another database's table
    (None, "d", "D.u.a", False),  # names of databases and tables are case-sensitive
    (None, "d", "d.U.a", False),
    (None, "d", "v.a", False),
    (None, None, "u.a", True),
    ("d", None, "d.u.a", True),
    ("d", None, "e.u.a", False),
]


@pytest.mark.parametrize("tracked,database,ordered,ok", QUALIFIERS)
def test_alter_order_by_qualifiers_name_the_altered_table(
    tracked: str | None, database: str | None, ordered: str, ok: bool
) -> None:
    """What the sequence corpus cannot say on the server (it runs in one database): a
    qualified ORDER BY column must name the altered table and its database, as MariaDB reads
    it; the statement changes nothing either way."""
    cat = Catalog(database=tracked)
    cat.execute("CREATE TABLE u (a INT)", database=database)
    before = cat.history(cat.tables()[0])
    if ok:
        assert cat.execute(f"ALTER TABLE u ORDER BY {ordered}", database=database) == []
    else:
        with pytest.raises(DDLError, match="ORDER BY"):
            cat.execute(f"ALTER TABLE u ORDER BY {ordered}", database=database)
    assert cat.history(cat.tables()[0]) == before


@pytest.mark.parametrize("tracked,database,qualified,ok", QUALIFIERS)
def test_a_qualified_column_of_an_expression_names_the_altered_table(
    tracked: str | None, database: str | None, qualified: str, ok: bool
) -> None:
    """What the server tests cannot say (they run in one database): a column an expression
    of the table names may be qualified by the table and its database, which the catalog
    drops (a rename then reaches it); another table's, or another database's, is refused and
    changes nothing."""
    cat = Catalog(database=tracked)
    cat.execute("CREATE TABLE u (a INT)", database=database)
    (name,) = cat.tables()
    clauses = f"ADD g INT AS ({qualified} + 1) VIRTUAL, ADD CONSTRAINT k CHECK ({qualified} > 0)"
    if ok:
        cat.execute(f"ALTER TABLE u {clauses}", database=database)
        cat.execute("ALTER TABLE u CHANGE a b INT", database=database)
        table = cat.table(name)
        generated = table.column("g").generated
        assert generated is not None and str(generated.expr) == "`b` + 1"
        assert [str(c.expr) for c in table.checks] == ["`b` > 0"]
    else:
        with pytest.raises(DDLError, match="of another table"):
            cat.execute(f"ALTER TABLE u {clauses}", database=database)
        assert cat.version(name) == 1


def test_storage_grows_with_changes_not_columns(catalog: Catalog) -> None:
    columns = ", ".join(f"c{i} INT" for i in range(50))
    catalog.execute(f"CREATE TABLE t ({columns})")
    base = catalog.storage("t")
    assert base == 51  # 50 columns + the table's own row
    for i in range(40):
        catalog.execute(f"ALTER TABLE t MODIFY c{i % 50} BIGINT DEFAULT {i}")
    assert catalog.storage("t") == base + 40
    catalog.execute("ALTER TABLE t ADD x INT FIRST")  # moves every column: 3 rows, not 51
    assert catalog.storage("t") == base + 40 + 3


def test_two_catalogs_share_one_sqlite_file(tmp_path: Path) -> None:
    path = str(tmp_path / "shared.db")
    with Catalog.open(path) as one, Catalog.open(path) as two:
        one.execute("CREATE TABLE t (a INT)")
        assert two.tables() == []  # not yet picked up
        two.refresh()
        assert two.table("t").column_names == ("a",)
        # two is stale for one's next change, but execute builds on fresh state
        one.execute("ALTER TABLE t ADD b INT")
        two.execute("ALTER TABLE t ADD c INT")
        one.refresh()
        assert one.table("t").column_names == two.table("t").column_names == ("a", "b", "c")
        assert [c.version for c in one.history("t")] == [1, 2, 3]


@pytest.mark.parametrize("shared", ["sqlite", "memory"])
def test_a_stale_catalog_never_decides_a_statement_on_its_stale_state(
    shared: str, tmp_path: Path
) -> None:
    """execute plans on the state a catalog holds without asking the store first: each outcome
    a fresh state would give, a stale one gives too (a statement refused on the stale state is
    tried on a fresh one; one accepted there is refused by the store's compare-and-set)."""
    store = MemoryStore()

    def opened() -> Catalog:
        return Catalog.open(str(tmp_path / "c.db")) if shared == "sqlite" else Catalog(store)

    with opened() as one, opened() as two:
        one.execute("CREATE TABLE t (a INT)")
        (change,) = two.execute("ALTER TABLE t ADD b INT")  # t is unknown to two's state
        assert change.version == 2 and two.table("t").column_names == ("a", "b")
        one.execute("ALTER TABLE t ADD c INT")
        with pytest.raises(DDLError, match="duplicate column"):
            two.execute("ALTER TABLE t ADD c INT")  # accepted on two's state, not on the store's
        assert two.version("t") == 3
        one.execute("CREATE TABLE u (a INT)")
        with pytest.raises(DDLError, match="exists"):
            two.execute("RENAME TABLE t TO u")
        one.execute("DROP TABLE u")
        two.execute("CREATE TABLE u (z INT)")  # u exists in two's state until it looks
        one.execute("ALTER TABLE t ADD d INT", position=10)
        with pytest.raises(PositionError):
            two.execute("ALTER TABLE t ADD e INT", position=5)
        assert two.execute("ALTER TABLE t ADD d INT", position=10) == []  # a replay
        one.execute("DROP TABLE t")
        with pytest.raises(NoSuchTableError):
            two.execute("ALTER TABLE t ADD f INT")
        one.refresh()
        assert one.tables() == two.tables() == ["u"]
        assert one.table("u").column_names == two.table("u").column_names == ("z",)
        assert [c.statement for c in one.history("u")] == [c.statement for c in two.history("u")]


def test_the_store_refuses_a_stale_writer(tmp_path: Path) -> None:
    with Catalog.open(str(tmp_path / "c.db")) as cat:
        cat.execute("CREATE TABLE t (a INT)")
        tid = cat.table("t").id
        stale = VersionRow(tid, 1, "t", "ALTER TABLE t ADD b INT", (), None, 0.0)
        with pytest.raises(ConcurrentChangeError) as info:
            cat.store.commit(Commit((stale,), (), (), {tid: 0}, {tid: "t"}))
        assert info.value.retryable
        assert cat.store.changes(0).last_seq == 1  # nothing was applied


@pytest.mark.parametrize("durable", [False, True], ids=["memory", "sqlite"])
def test_a_version_that_skips_its_head_is_refused(tmp_path: Path, durable: bool) -> None:
    """The version rows' key is the stores' compare-and-set, so a commit whose version does not
    follow the head it expects is malformed: refused before anything moves."""
    with Catalog.open(str(tmp_path / "c.db")) if durable else Catalog() as cat:
        cat.execute("CREATE TABLE t (a INT)")
        tid = cat.table("t").id
        skips = VersionRow(tid, 3, "t", "ALTER TABLE t ADD b INT", (), None, 0.0)
        with pytest.raises(StoreError, match="follows its head"):
            cat.store.commit(Commit((skips,), (), (), {tid: 1}, {tid: "t"}))
        assert cat.store.changes(0).last_seq == cat.store.last_seq() == 1


def _lock_is_free(store: SQLiteStore) -> bool:
    """Whether another thread can take the store's lock at once."""
    got: list[bool] = []

    def take() -> None:
        got.append(store._lock.acquire(timeout=0))
        if got[0]:
            store._lock.release()

    thread = threading.Thread(target=take)
    thread.start()
    thread.join()
    return got[0]


def test_a_store_transaction_ends_and_lets_go_on_every_exit(tmp_path: Path) -> None:
    """A SQL store's transaction (``mvdd.store.sql.Transaction``) against the real SQLite file:
    a clean block commits; a block that raises rolls back and its exception comes out as it
    was; an end that fails (here a COMMIT with no transaction left to end) raises the store's
    error naming what was done; and the lock is let go after each."""
    store = SQLiteStore(tmp_path / "s.db")
    bump = "UPDATE meta SET value = value + 1 WHERE key = 'last_seq'"
    with store._wrap("probe"), store._transaction() as cur:
        cur.execute(bump)
    assert store.last_seq() == 1 and _lock_is_free(store)
    with pytest.raises(KeyError, match="inside"), store._wrap("probe"), store._transaction() as cur:
        cur.execute(bump)
        raise KeyError("inside")
    assert store.last_seq() == 1 and _lock_is_free(store)  # rolled back
    with (
        pytest.raises(StoreError, match=r"SQLite probe failed on .*no transaction is active"),
        store._wrap("probe"),
        store._transaction() as cur,
    ):
        cur.execute(bump)
        cur.execute("COMMIT")  # (the transaction's own COMMIT then finds none)
    assert store.last_seq() == 2 and _lock_is_free(store)
    with pytest.raises(ConcurrentChangeError, match="probe conflicts"), store._wrap("probe"):
        raise sqlite3.IntegrityError("UNIQUE constraint failed")
    with pytest.raises(ValueError, match="not SQLite's"), store._wrap("probe"):
        raise ValueError("not SQLite's")
    store.close()


def test_the_memory_store_reads_changes_as_sqlite_does(tmp_path: Path) -> None:
    """The same statements on a memory store and on SQLite (the oracle): ``changes(after)``
    agrees for every ``after``, element rows ended by a later commit included, and an element
    whose id comes back after its end (an older version committed again, then a new column)."""
    script = [
        "CREATE TABLE t (a INT, b INT, KEY kb (b))",
        "ALTER TABLE t ADD c INT FIRST",
        "ALTER TABLE t MODIFY b BIGINT, DROP KEY kb",
        "CREATE TABLE u (x INT); RENAME TABLE t TO v, u TO t",
        "ALTER TABLE v DROP COLUMN c",
        "DROP TABLE t",
        "CREATE TABLE w (a INT)",
    ]
    with Catalog() as memory, Catalog.open(str(tmp_path / "c.db")) as durable:
        for cat in (memory, durable):
            for sql in script:
                cat.execute(sql)
            first = cat.table("w")
            cat.execute("ALTER TABLE w ADD b INT, ADD KEY k (a)")
            cat.commit_table("w", first, statement="-- w as it was")  # b and k end
            cat.execute("ALTER TABLE w ADD c INT")  # the id b had
            assert cat.table("w").columns[1].id == 2
        assert memory.store.last_seq() == durable.store.last_seq() == 11
        assert_same_changes(memory.store, durable.store)


def test_a_format_2_store_is_upgraded_to_the_rows_format_3_writes(tmp_path: Path) -> None:
    """Format 2 ended an element row in place (``until``, ``closed_seq``); format 3 only
    inserts rows, and an element ended without a new definition gets an end row. A store
    format 2 wrote (the fixture) opens as format 3 and reads as a memory catalog that ran the
    same statements (the oracle): every ``changes(after)``, every version of every table, and
    the statements after the upgrade; the index of ``closed_seq`` is gone."""
    path = tmp_path / "c.db"
    statements = format_2_sqlite(path)
    assert len(statements) == 10
    oracle = Catalog()
    for position, sql in enumerate(statements, start=1):
        oracle.execute(sql, position=position)
    more = ["ALTER TABLE w DROP d, ADD e INT FIRST", "DROP TABLE v", "CREATE TABLE v (y INT)"]
    with Catalog.open(str(path)) as cat:
        assert_same_changes(cat.store, oracle.store)
        for sql in more:
            assert [c.version for c in cat.execute(sql)] == [c.version for c in oracle.execute(sql)]
        assert_same_changes(cat.store, oracle.store)
    assert stored_format(path) == "3"
    with contextlib.closing(sqlite3.connect(path)) as db:
        indexes = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='index'")}
        assert "idx_elements_closed_seq" not in indexes and "idx_elements_opened_seq" in indexes
    with Catalog.open(str(path)) as cat:  # read back whole from the file
        for name in oracle.tables():
            for version in range(1, oracle.version(name) + 1):
                if not oracle.history(name)[version - 1].dropped:
                    assert cat.table(name, version=version) == oracle.table(name, version=version)
        assert cat.tables() == oracle.tables() == ["v", "w"]


def test_an_upgrade_cut_short_runs_again(tmp_path: Path) -> None:
    """A process killed after the upgrade's rows and before the new format number leaves a
    store the next open upgrades again, without a second end row."""
    path = tmp_path / "c.db"
    oracle = Catalog()
    for position, sql in enumerate(format_2_sqlite(path), start=1):
        oracle.execute(sql, position=position)
    with contextlib.closing(sqlite3.connect(path)) as db:
        ends = (
            "INSERT INTO elements (table_id, kind, element_id, since, prev, value, opened_seq) "
            "SELECT table_id, kind, element_id, until, NULL, '', closed_seq FROM elements e "
            "WHERE until IS NOT NULL AND NOT EXISTS (SELECT 1 FROM elements n WHERE "
            "n.table_id = e.table_id AND n.kind = e.kind AND n.element_id = e.element_id "
            "AND n.since = e.until)"
        )
        # the dropped c, c1, kb and kn; x and the metadata of u, dropped as t
        assert db.execute(ends).rowcount == 6
        db.commit()
    with Catalog.open(str(path)) as cat:
        assert_same_changes(cat.store, oracle.store)
    with contextlib.closing(sqlite3.connect(path)) as db:
        assert db.execute("SELECT COUNT(*) FROM elements WHERE value = ''").fetchone() == (6,)
    assert stored_format(path) == "3"


def test_a_format_1_store_is_upgraded_and_an_unknown_format_refused(tmp_path: Path) -> None:
    """Format 1 kept each table's head in ``tables.version`` and compared it; a store of that
    format is read as it is and moved to the current format when opened (an older mvdd then
    refuses it with a clear error instead of meeting heads it cannot compare). A format this
    mvdd does not know is refused and left alone."""
    path = tmp_path / "c.db"
    format_2_sqlite(path)
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("UPDATE meta SET value = '1' WHERE key = 'format'")
        db.execute(  # as format 1 kept it: the head
            "UPDATE tables SET version = "
            "(SELECT MAX(version) FROM versions WHERE versions.table_id = tables.table_id)"
        )
        db.commit()
    with Catalog.open(str(path)) as cat:
        cat.execute("ALTER TABLE w ADD c INT")
        assert cat.table("w").column_names == ("id", "d", "n", "c") and cat.version("w") == 4
    assert stored_format(path) == "3"
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("UPDATE meta SET value = '4' WHERE key = 'format'")
        db.commit()
    with pytest.raises(StoreError, match="holds store format 4; this mvdd reads format 3"):
        Catalog.open(str(path))
    assert stored_format(path) == "4"


def test_reopen_and_damaged_files(tmp_path: Path) -> None:
    path = tmp_path / "c.db"
    with Catalog.open(str(path)) as cat:
        cat.execute("CREATE TABLE t (a INT); ALTER TABLE t ADD b INT")
    with Catalog.open(str(path)) as cat:
        assert cat.version("t") == 2 and cat.table("t", version=1).column_names == ("a",)
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError):
        Catalog.open(str(garbage))
    closed = Catalog()
    closed.close()
    with pytest.raises(CatalogError):
        closed.execute("CREATE TABLE t (a INT)")


def test_a_sqlite_database_of_something_else_is_refused_untouched(tmp_path: Path) -> None:
    """An application's SQLite file (a table ``events``, as the store also has, and ``users``)
    is not a catalog: opening it is a StoreError naming its tables, and not a byte of the file
    changes (not its journal mode either), whether or not ``create``."""
    path = tmp_path / "app.db"
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        db.execute("CREATE TABLE events (x TEXT)")
        db.execute("CREATE TABLE users (name TEXT)")
        db.execute("INSERT INTO events VALUES ('kept')")
    before = path.read_bytes()
    for create in (True, False):
        with pytest.raises(StoreError, match=r"not an mvdd catalog \(it holds 'users'\)"):
            Catalog.open(str(path), create=create)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["app.db"]


def test_a_reader_opens_an_existing_catalog_and_makes_none(tmp_path: Path) -> None:
    """``create=False`` (the CLI's reading commands): a missing file and an empty one are
    refused, and no catalog is made there; an existing catalog opens, also at a path holding
    characters a URI gives meaning to."""
    missing = tmp_path / "missing.db"
    with pytest.raises(StoreError, match=r"there is no catalog at .*missing\.db"):
        Catalog.open(str(missing), create=False)
    assert not missing.exists()
    empty = tmp_path / "empty.db"
    empty.touch()
    with pytest.raises(StoreError, match=r"no catalog .*\(an empty SQLite database\)"):
        Catalog.open(str(empty), create=False)
    assert empty.read_bytes() == b""
    odd = tmp_path / "a b?c#d%20.db"
    with Catalog.open(str(odd)) as cat:
        cat.execute("CREATE TABLE t (a INT)")
    with Catalog.open(str(odd), create=False) as cat:
        assert cat.table("t").column_names == ("a",)
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".db") == [
        "a b?c#d%20.db",
        "empty.db",
    ]


def test_readers_never_see_a_half_written_version() -> None:
    cat = Catalog()
    cat.execute("CREATE TABLE t (c0 INT)")
    stop = threading.Event()
    problems: list[str] = []

    def read() -> None:
        while not stop.is_set():
            table = cat.table("t")
            # version n has exactly the columns c0..c(n-1)
            if table.column_names != tuple(f"c{i}" for i in range(table.version)):
                problems.append(f"version {table.version}: {table.column_names}")

    readers = [threading.Thread(target=read) for _ in range(3)]
    for r in readers:
        r.start()
    for i in range(1, 150):
        cat.execute(f"ALTER TABLE t ADD c{i} INT")
    stop.set()
    for r in readers:
        r.join()
    assert problems == []
    assert cat.version("t") == 150


def test_the_latest_read_follows_every_name_change(tmp_path: Path) -> None:
    """``cat.table(name)`` answers from a name -> head map kept beside the published state:
    checked against the history read by id (the independent path) after each statement, in
    this catalog and in another one on the same file that learns the statements by refresh."""
    path = str(tmp_path / "c.db")
    script = [
        "CREATE TABLE a (x INT); CREATE TABLE b (y INT)",
        "ALTER TABLE a ADD z INT",
        "RENAME TABLE a TO tmp, b TO a, tmp TO b",  # a swap in one statement
        "DROP TABLE b",
        "CREATE TABLE b (w INT)",
        "ALTER TABLE a RENAME TO c",
        "CREATE TABLE a LIKE c",
    ]
    with Catalog.open(path) as writer, Catalog.open(path) as reader:
        for sql in script:
            writer.execute(sql)
            reader.refresh()
            for cat in (writer, reader):
                for name in ("a", "b", "c", "tmp"):
                    if name in cat.tables():
                        tid = cat.table_id(name)
                        assert cat.table(name) == cat.table_by_id(tid), (sql, name)
                        assert cat.table(name).version == cat.version(name)
                    else:
                        with pytest.raises(NoSuchTableError):
                            cat.table(name)
        assert writer.table("c").column_names == ("y",)
        assert reader.table("b").column_names == ("w",)


def test_a_swap_in_one_statement_keeps_each_column_s_id(catalog: Catalog) -> None:
    """``CHANGE a b …, CHANGE b a …`` swaps the names (the server reads every clause against
    the table before the statement); each column keeps its id, so rows decode by what the
    column was, and the history's steps (through a temporary name) replay one by one."""
    catalog.execute("CREATE TABLE t (a INT, b VARCHAR(5), g INT AS (a + 1) VIRTUAL)")
    before = catalog.table("t")
    (change,) = catalog.execute("ALTER TABLE t CHANGE a b INT, CHANGE b a VARCHAR(5)")
    after = catalog.table("t")
    assert [(c.name, str(c.type)) for c in after.columns][:2] == [("b", "int"), ("a", "varchar(5)")]
    assert after.column("b").id == before.column("a").id
    assert after.column("a").id == before.column("b").id
    generated = after.column("g").generated
    assert generated is not None and "`b`" in generated.expr.sql  # g reads the same column
    assert [type(x) for x in change.steps] == [s.RenameColumn, s.ModifyColumn, s.ModifyColumn]
    assert apply_steps(before, catalog.history("t")[-1].steps).equivalent(after)
    with pytest.raises(DDLError) as err:  # a clause naming a name the statement gives
        catalog.execute("ALTER TABLE t CHANGE a x VARCHAR(5), MODIFY x TEXT")
    assert (err.value.column, err.value.step) == ("x", "ALTER TABLE `t` MODIFY COLUMN `x` TEXT")
    assert catalog.version("t") == 2


def test_a_key_made_for_a_foreign_key_is_kept_as_made_across_a_reopen(tmp_path: Path) -> None:
    """The key a replica keeps for a foreign key is stored as one the server made: after the
    catalog is opened again, a key that leads with its columns still replaces it (and its
    history replays to the same tables)."""
    path = str(tmp_path / "catalog.db")
    with Catalog.open(path, replica=True) as cat:
        cat.execute(
            "CREATE TABLE t (id INT PRIMARY KEY, p INT, FOREIGN KEY fk (p) REFERENCES x (id))"
        )
        assert [(i.name, i.generated) for i in cat.table("t").indexes] == [
            ("PRIMARY", False),
            ("fk", True),
        ]
    with Catalog.open(path, replica=True) as cat:
        assert cat.table("t").find_index("fk").generated  # type: ignore[union-attr]
        cat.execute("ALTER TABLE t ADD KEY k (p, id)")
        assert [i.name for i in cat.table("t").indexes] == ["PRIMARY", "k"]
        replayed = apply_steps(cat.table("t", version=1), cat.history("t")[-1].steps)
        assert replayed.equivalent(cat.table("t"))


def test_a_display_width_a_statement_changes_is_a_version_kept_across_a_reopen(
    tmp_path: Path,
) -> None:
    """A column redefined with only another display width is equal to the one before it (an
    ``INT(5)`` is an ``INT``) but not as the server shows it, and a YEAR made MariaDB's
    YEAR(2) reads its defaults otherwise (``DEFAULT 0`` is 2000): each is a version, whose
    width the store keeps; the same statement again changes nothing."""
    path = str(tmp_path / "catalog.db")
    with Catalog.open(path, replica=True, flavor="mariadb") as cat:
        cat.execute("CREATE TABLE t (a INT(11), y YEAR)")
        changed = [
            len(cat.execute(sql))
            for sql in (
                "ALTER TABLE t MODIFY y YEAR(2)",
                "ALTER TABLE t MODIFY y YEAR(2)",
                "ALTER TABLE t MODIFY a INT(5)",
                "ALTER TABLE t ALTER y SET DEFAULT 0",
            )
        ]
        assert changed == [1, 0, 1, 1]
    with Catalog.open(path, replica=True, flavor="mariadb") as cat:
        widths = [[c.type.width for c in cat.table("t", version=v).columns] for v in (1, 2, 3)]
        assert widths == [[11, None], [11, 2], [5, 2]]
        assert cat.table("t").column("y").default == 2000
        cat.execute("ALTER TABLE t MODIFY y YEAR, ALTER a SET DEFAULT 1")
        assert [c.type.width for c in cat.table("t").columns] == [5, None]


@pytest.mark.parametrize(
    "flavor,keys", [("mariadb", ["PRIMARY", "p"]), ("mysql", ["PRIMARY"]), (None, ["PRIMARY"])]
)
def test_a_columns_own_references_follows_the_replicas_server(
    flavor: str | None, keys: list[str]
) -> None:
    """MariaDB makes a foreign key of a column's own REFERENCES (and a key for it); MySQL
    ignores the clause, as a replica of an unknown server does; mvdd's own rules refuse it."""
    sql = "CREATE TABLE t (id INT PRIMARY KEY, p INT REFERENCES par (id))"
    cat = Catalog(replica=True, flavor=flavor)
    cat.execute(sql)
    assert [i.name for i in cat.table("t").indexes] == keys
    with pytest.raises(UnsupportedDDLError):
        Catalog().execute(sql)
    with pytest.raises(CatalogError):
        Catalog(replica=True, flavor="oracle")


#: statements of MySQL and MariaDB that change no table's schema, some of which sqlglot cannot
#: read (DO, XA, HANDLER, LOAD DATA …)
NOT_DDL = [
    "DO SETVAL(`sq`, 1, 0)",
    "HANDLER t READ FIRST",
    "XA START 'x'",
    "XA RECOVER",
    "INSTALL PLUGIN p SONAME 'x'",
    "UNINSTALL SONAME 'x'",
    "PURGE BINARY LOGS TO 'x'",
    "RESET QUERY CACHE",
    "CHANGE MASTER TO MASTER_HOST='h'",
    "LOAD DATA INFILE 'f' INTO TABLE t",
    "CACHE INDEX t IN c",
    "DEALLOCATE PREPARE s",
    "DROP PREPARE s",
    "SIGNAL SQLSTATE '45000'",
    "GET DIAGNOSTICS @a = NUMBER",
    "BACKUP STAGE START",
    "FLUSH TABLES t WITH READ LOCK",
    "SET STATEMENT max_statement_time=1 FOR DO 1",
    "ALTER INSTANCE ROTATE INNODB MASTER KEY",
    "ANALYZE FORMAT=JSON SELECT 1",
    "LOCK TABLES t WRITE",
    "INSERT INTO t VALUES (1, 'a;b')",
    "CALL p()",
    "EXECUTE s",
    "BEGIN NOT ATOMIC CREATE TABLE u (a INT); END",
    "CREATE DEFINER=`u`@`h` PROCEDURE p() BEGIN DROP TABLE t; CREATE TABLE u (a INT); END",
]


@pytest.mark.parametrize("sql", NOT_DDL)
def test_a_statement_of_no_ddl_is_unsupported_however_it_reads(
    catalog: Catalog, sql: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A statement of no DDL is an UnsupportedDDLError (a routine's body, a compound statement
    and what may run DDL mvdd does not see say so), which ``on_unsupported="skip"`` passes
    over, and changes nothing (logged: at WARNING what may run DDL, else at INFO); a statement
    of a word no statement has is malformed."""
    catalog.execute("CREATE TABLE t (a INT, b VARCHAR(5))")
    with pytest.raises(UnsupportedDDLError) as err:
        catalog.execute(sql)
    hides = sql.startswith(("CALL", "EXECUTE", "BEGIN"))
    if hides:
        assert "does not" in err.value.message
    skipping = Catalog(on_unsupported="skip")
    with caplog.at_level(logging.INFO, logger="mvdd.catalog"):
        assert skipping.execute(f"CREATE TABLE t (a INT); {sql}; DROP TABLE t") != []
    (skipped,) = [r for r in caplog.records if r.getMessage().startswith("skipped statement 2")]
    assert skipped.levelno == (logging.WARNING if hides else logging.INFO)
    assert skipping.tables() == [] and catalog.tables() == ["t"]
    with pytest.raises(DDLParseError):
        catalog.execute("CRATE TABLE u (a INT)")


def test_a_script_of_rows_reads_its_strings_as_its_sql_mode_does(catalog: Catalog) -> None:
    """A script's rows are passed over where their strings end as the session reads them: a
    backslash ends no string under NO_BACKSLASH_ESCAPES (the DDL after it read), and escapes
    the quote otherwise (the string running on: the text does not tokenize, nothing commits)."""
    catalog.execute("CREATE TABLE t (a VARCHAR(5))")
    script = "INSERT INTO t VALUES ('a\\'); CREATE TABLE u (x INT); INSERT INTO t VALUES ('b');"
    skipping = Catalog(on_unsupported="skip")
    skipping.execute(script + " DROP TABLE IF EXISTS t", sql_mode="NO_BACKSLASH_ESCAPES")
    assert skipping.tables() == ["u"]
    with pytest.raises(DDLParseError, match="cannot tokenize"):
        skipping.execute(script + " CREATE TABLE v (y INT)")
    assert skipping.tables() == ["u"]


#: SETs a text may hold that mvdd does not follow: (statement, what the refusal names)
UNFOLLOWED_SETTINGS = [
    ("SET default_storage_engine = MyISAM", "default_storage_engine"),
    ("SET @@session.sql_if_exists = 1", "sql_if_exists"),
    ("SET NAMES latin1", "latin1"),
    ("SET character_set_client = gbk", "gbk"),
    ("SET time_zone = SYSTEM", "SYSTEM"),
    ("SET sql_mode = REPLACE(@@sql_mode, 'STRICT_TRANS_TABLES', '')", "REPLACE"),
    ("SET sql_mode = @@global.sql_mode", "global"),
    ("SET @m = @@GLOBAL.sql_mode, sql_mode = 'ANSI'; SET sql_mode = @m", "global"),
]


@pytest.mark.parametrize("sql,named", UNFOLLOWED_SETTINGS)
def test_a_setting_mvdd_does_not_follow_is_unsupported(
    sql: str, named: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A SET of a variable that may change what later statements make, or of a value mvdd
    does not know, is an UnsupportedDDLError naming it, which ``on_unsupported="skip"`` passes
    over with a warning (the statements after it read without it, or in the session before
    a SET mvdd cannot read); the statements before it stay."""
    catalog = Catalog()
    with pytest.raises(UnsupportedDDLError, match=named):
        catalog.execute(f"CREATE TABLE t (a INT); {sql}; CREATE TABLE u (a INT)")
    assert catalog.tables() == ["t"]
    skipping = Catalog(on_unsupported="skip")
    with caplog.at_level(logging.INFO, logger="mvdd.catalog"):
        skipping.execute(f"{sql}; CREATE TABLE u (v VARCHAR(5))")
    assert skipping.tables() == ["u"]
    warned = [r for r in caplog.records if r.levelno == logging.WARNING]
    # (without it, or, where the SET is not read at all, in the session before it)
    assert warned and "the statements after it are read" in warned[-1].getMessage()
    assert [r.name for r in warned] == ["mvdd.catalog"]  # (said once: sqlglot's quiet)


def test_a_skipping_catalog_takes_the_assignments_of_a_set_it_follows(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Skipping, a SET's assignments mvdd does not follow (a variable, a value it does not
    know) are passed over with a warning naming them, and its other assignments taken: the
    statements after it are read in their mode and zone. A value the server refuses still
    stops the text there, the SET changing nothing; a catalog that raises for what it does not
    model takes none of the SET."""
    script = (
        "SET sql_mode = 'ANSI_QUOTES', default_storage_engine = MyISAM, time_zone = SYSTEM, "
        "@@session.time_zone = '+08:00', old_mode = ''; "
        "CREATE TABLE \"t\" (ts TIMESTAMP NULL DEFAULT '2020-01-01 08:00:00')"
    )
    skipping = Catalog(on_unsupported="skip")
    with caplog.at_level(logging.INFO, logger="mvdd.catalog"):
        skipping.execute(script)
    assert skipping.table("t").columns[0].default == "2020-01-01 00:00:00"  # (read at +08:00)
    (warned,) = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert all(name in warned for name in ("default_storage_engine", "SYSTEM", "old_mode"))
    assert "other assignments taken" in warned
    with pytest.raises(UnsupportedDDLError, match="default_storage_engine"):
        Catalog().execute(script)
    with pytest.raises(DDLError, match="NULL"):
        skipping.execute(
            "SET default_storage_engine = MyISAM, sql_mode = NULL; CREATE TABLE u (a INT)"
        )
    assert skipping.tables() == ["t"]


def test_split_statements_reads_the_text_after_a_set_of_the_mode_in_it() -> None:
    """``split_statements`` splits a text as ``iter_statements`` reads it: after a SET of
    NO_BACKSLASH_ESCAPES a backslash ends no string, and after one that puts the mode back it
    does again; a SET the server refuses (NULL), or one statement's own (SET STATEMENT … FOR),
    changes nothing of the text after it, and one naming a variable mvdd does not follow still
    sets the mode beside it."""
    script = (
        "SET sql_mode = 'NO_BACKSLASH_ESCAPES', nope = 1; CREATE TABLE a (s CHAR(2) DEFAULT 'x\\'); "
        "SET sql_mode = NULL; SET STATEMENT sql_mode = '' FOR CREATE TABLE b (s CHAR(2)); "
        "CREATE TABLE c (s CHAR(2) DEFAULT 'y\\'); SET sql_mode = DEFAULT; "
        "CREATE TABLE d (s CHAR(5) DEFAULT 'z\\';')"
    )
    split = split_statements(script)
    assert [text.split(" (")[0] for text in split] == [
        "SET sql_mode = 'NO_BACKSLASH_ESCAPES', nope = 1",
        "CREATE TABLE a",
        "SET sql_mode = NULL",
        "SET STATEMENT sql_mode = '' FOR CREATE TABLE b",
        "CREATE TABLE c",
        "SET sql_mode = DEFAULT",
        "CREATE TABLE d",
    ]
    assert split[-1].endswith("DEFAULT 'z\\';')")
    read = iter_statements(script.replace("SET sql_mode = NULL; ", ""), skip_unsupported=True)
    assert split_statements(script.replace("SET sql_mode = NULL; ", "")) == [
        one.text for one in read
    ]
    with pytest.raises(DDLParseError, match="cannot tokenize"):
        split_statements(script.split("; ")[1])  # (without the SET: a string left open)


def test_a_scripts_bytes_read_each_statement_in_its_client_charset() -> None:
    """A script's bytes (a file, a dump): each statement read in the client charset of its
    moment, as SET NAMES and character_set_client switch it (a literal the connection's text:
    a binary DEFAULT its bytes, a character it lacks a ?); rows of another charset's bytes
    passed over unread. A DDL statement holding a byte its charset does not read, or a switch
    to a charset that splits statements otherwise, stops there, the statements before kept;
    the bytes of such a charset from the start are read in it whole."""
    script = (
        "SET NAMES latin1; CREATE TABLE a (s VARCHAR(5) DEFAULT 'é' COMMENT 'ß', "
        "b BINARY(2) DEFAULT 'é'); INSERT INTO a VALUES ('ü', 'x');"
    ).encode("latin1") + (
        "SET character_set_client = utf8mb4; CREATE TABLE c (s VARCHAR(5) DEFAULT 'ą€', "
        "b VARBINARY(4) DEFAULT 'é€');"
    ).encode()
    catalog = Catalog(on_unsupported="skip")
    catalog.execute(script)
    a, c = catalog.table("a"), catalog.table("c")
    assert (a.columns[0].default, a.columns[0].comment, a.columns[1].default) == (
        "é",
        "ß",
        b"\xe9\x00",
    )
    # (read in utf8mb4, converted into the connection's latin1, which lacks ą)
    assert (c.columns[0].default, c.columns[1].default) == ("?€", "é€".encode("cp1252"))
    texts = [one.text for one in iter_statements(script, skip_unsupported=True)]
    assert texts[1].startswith("CREATE TABLE a (s VARCHAR(5) DEFAULT 'é'") and "'ü'" in texts[2]
    bad = Catalog()
    with pytest.raises(DDLParseError, match="byte 0xE9 is no utf8mb4 text") as err:
        bad.execute(b"CREATE TABLE a (x INT);\nCREATE TABLE b (s CHAR(2) DEFAULT '\xe9')")
    assert err.value.line == 2 and bad.tables() == ["a"]
    with pytest.raises(UnsupportedDDLError, match="gbk"):
        bad.execute(b"SET NAMES gbk; CREATE TABLE c (x INT)")
    assert bad.tables() == ["a"]
    gbk = Catalog()
    gbk.execute("CREATE TABLE g (s VARCHAR(3) DEFAULT '表')".encode("gbk"), charset="gbk")
    assert gbk.table("g").columns[0].default == "表"


def test_a_byte_order_mark_at_a_scripts_start_is_skipped() -> None:
    """A file an editor saved as UTF-8 with a byte order mark: the client skips it, and so
    does mvdd, in the text and in its bytes (its DELIMITER command read after it)."""
    script = "\ufeffDELIMITER //\nCREATE TABLE t (a INT)//\nDELIMITER ;\nCREATE TABLE u (b INT);"
    for sql in (script, script.encode()):
        catalog = Catalog()
        catalog.execute(sql)
        assert catalog.tables() == ["t", "u"]
    assert split_statements(script) == ["CREATE TABLE t (a INT)", "CREATE TABLE u (b INT)"]


def test_the_clients_use_command_ends_at_its_line() -> None:
    """A ``use`` at a line's start is the client's command: its line ends it, the words past
    the database's name passed over (``use d`` needs no semicolon); after another statement
    on its line it is the server's USE, which goes on to the next semicolon."""
    script = "use a\nCREATE TABLE t (x INT);\n use `b` more\nuse c; CREATE TABLE u (y INT)"
    assert split_statements(script) == [
        "use a", "CREATE TABLE t (x INT)", "use `b`", "use c", "CREATE TABLE u (y INT)"
    ]  # fmt: skip
    catalog = Catalog()
    catalog.execute(script)
    assert catalog.tables() == ["a.t", "c.u"]
    assert split_statements("DROP TABLE t; use a\nDROP TABLE u") == [
        "DROP TABLE t", "use a\nDROP TABLE u"
    ]  # fmt: skip
    program = "DELIMITER //\nuse a\nCREATE PROCEDURE p() BEGIN SELECT 1; END//\nDELIMITER ;"
    assert split_statements(program) == ["use a", "CREATE PROCEDURE p() BEGIN SELECT 1; END"]


def test_the_clients_one_letter_commands_are_read_as_it_reads_them() -> None:
    """``\\g`` and ``\\G`` end a statement, ``\\p`` prints it (nothing else), ``\\c`` drops the
    statement so far, ``\\q`` sends it and quits; in a string they are its text."""
    script = (
        "CREATE TABLE a (s CHAR(2) DEFAULT '\\\\g')\\gCREATE TABLE b (x INT)\\p\\G\n"
        "CREATE TABLE c (x INT) \\c\nCREATE TABLE d (x INT)\\q CREATE TABLE e (x INT);"
    )
    assert split_statements(script) == [
        "CREATE TABLE a (s CHAR(2) DEFAULT '\\\\g')", "CREATE TABLE b (x INT)",
        "CREATE TABLE d (x INT)",
    ]  # fmt: skip
    catalog = Catalog()
    catalog.execute(script)
    assert catalog.tables() == ["a", "b", "d"]
    assert catalog.table("a").columns[0].default == "\\g"


def test_an_ascii_client_or_connection_reads_a_text_as_the_server() -> None:
    """A text is text: an ascii client reads its characters beyond ASCII otherwise (the
    server's ?s), which mvdd does not follow; an ascii or utf8mb3 connection makes a literal's
    characters it lacks a ? (a binary DEFAULT's bytes of them)."""
    with pytest.raises(UnsupportedDDLError, match="ascii"):
        Catalog().execute("SET NAMES ascii; CREATE TABLE t (s CHAR(2) DEFAULT 'é')")
    catalog = Catalog()
    catalog.execute("SET NAMES ascii; CREATE TABLE t (s CHAR(2) DEFAULT 'e')")
    catalog.execute(
        "SET character_set_connection = utf8mb3; CREATE TABLE u (s VARCHAR(3) DEFAULT '😀é', "
        "b VARBINARY(4) DEFAULT '😀é'); SET character_set_connection = ascii; "
        "CREATE TABLE v (s VARCHAR(3) DEFAULT 'éa', b VARBINARY(4) DEFAULT 'éa')"
    )
    u, v = catalog.table("u"), catalog.table("v")
    assert [col.default for col in u.columns] == ["?é", "?é".encode()]
    assert [col.default for col in v.columns] == ["?a", b"?a"]


def test_settings_that_change_no_schema_are_passed_over() -> None:
    """``foreign_key_checks``, ``unique_checks``, a global variable, SET TRANSACTION, PASSWORD
    and ROLE change no table a statement makes: a text of them runs on a catalog that raises
    for what it does not model, and adds nothing."""
    catalog = Catalog()
    script = (
        "SET foreign_key_checks = 0, unique_checks = 0; SET GLOBAL default_storage_engine = "
        "MyISAM, sql_if_exists = 1; SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED; "
        "SET PASSWORD = 'x'; SET ROLE NONE; CREATE TABLE t (a INT); SET foreign_key_checks = 1"
    )
    assert [c.table for c in catalog.execute(script)] == ["t"]


def test_a_set_reads_its_values_before_it_assigns_them() -> None:
    """As on the server: each value of a SET is read in the session before it (``@m`` saves
    the mode before the SET beside it), a GLOBAL word holds for the assignments after it that
    name none (the session's zone stays), and a refused value changes none of them."""
    catalog = Catalog()
    catalog.execute(
        "SET @m = @@sql_mode, sql_mode = '', @n = @@sql_mode; SET GLOBAL sql_notes = 1, "
        "time_zone = '+05:00'; SET sql_mode = @n; "
        "CREATE TABLE t (ts TIMESTAMP NULL DEFAULT '2020-01-01 00:00:00')"
    )
    assert catalog.table("t").columns[0].default == "2020-01-01 00:00:00"
    with pytest.raises(DDLError, match="VARCHAR length 70000"):  # (@n: the strict mode)
        catalog.execute("SET @m = @@sql_mode; SET sql_mode = @m; CREATE TABLE u (v VARCHAR(70000))")
    with pytest.raises(DDLError, match="NULL"):
        catalog.execute("SET time_zone = '+08:00', sql_mode = NULL; CREATE TABLE v (a INT)")
    statements = list(iter_statements("SET time_zone = '+08:00', @x = 1; CREATE TABLE v (a INT)"))
    assert statements[0].settings is not None and statements[0].settings.variables == {"x": 1}
    assert statements[1].settings is statements[0].settings


def test_set_statement_sets_its_one_statement() -> None:
    """MariaDB's ``SET STATEMENT … FOR``: its settings make its one statement (strictness,
    zone, legacy TIMESTAMPs), read in the session's grammar; the statement after it reads in
    the text's session; a variable it may not set is refused, one mvdd does not follow passed
    over."""
    catalog = Catalog(replica=True, flavor="mariadb")
    catalog.execute(
        "SET STATEMENT sql_mode = '', time_zone = '+08:00' FOR CREATE TABLE t (v VARCHAR(70000), "
        "ts TIMESTAMP NULL DEFAULT '2020-01-01 08:00:00'); "
        "CREATE TABLE u (ts TIMESTAMP NULL DEFAULT '2020-01-01 08:00:00')"
    )
    v, ts = catalog.table("t").columns
    assert v.type.kind.name == "MEDIUMTEXT" and ts.default == "2020-01-01 00:00:00"
    assert catalog.table("u").columns[0].default == "2020-01-01 08:00:00"
    with pytest.raises(DDLParseError):
        catalog.execute("SET STATEMENT sql_mode = 'ANSI_QUOTES' FOR CREATE TABLE \"w\" (a INT)")
    with pytest.raises(DDLError, match="SET STATEMENT"):
        catalog.execute("SET STATEMENT character_set_connection = latin1 FOR DROP TABLE t")
    # (a variable mvdd does not follow: passed over, the statement never lost for it)
    catalog.execute("SET STATEMENT default_storage_engine = MyISAM FOR CREATE TABLE x (a INT)")
    assert catalog.tables() == ["t", "u", "x"]


def test_a_text_left_open_commits_nothing_unless_a_mode_before_it_may_close_it() -> None:
    """A text that does not tokenize commits nothing, SETs in it or not; where a SET of
    sql_mode before the trouble may make the text after it read otherwise, the statements are
    read up to it and the rest anew from it: under NO_BACKSLASH_ESCAPES ``'x\\'`` is a whole
    string, and a string still open in the rest fails there, after the statements before."""
    catalog = Catalog()
    with pytest.raises(DDLParseError, match="cannot tokenize"):
        catalog.execute(
            "CREATE TABLE a (x INT); SET foreign_key_checks = 0; CREATE TABLE b (s TEXT DEFAULT 'x"
        )
    assert catalog.tables() == []
    catalog.execute(
        "CREATE TABLE a (x INT); SET sql_mode = 'NO_BACKSLASH_ESCAPES'; "
        "CREATE TABLE b (s VARCHAR(3) DEFAULT 'x\\'); SET sql_mode = DEFAULT; "
        "CREATE TABLE c (s VARCHAR(3) DEFAULT 'x\\'')"
    )
    assert [catalog.table(t).columns[0].default for t in ("b", "c")] == ["x\\", "x'"]
    with pytest.raises(DDLParseError, match="cannot tokenize") as err:
        catalog.execute(
            "CREATE TABLE d (x INT); SET sql_mode = ''; CREATE TABLE e (s TEXT DEFAULT 'x\\')"
        )
    assert err.value.line == 1 and catalog.tables() == ["a", "b", "c", "d"]


def test_the_rows_a_commit_is_made_of_are_their_classes_own(tmp_path: Path) -> None:
    """The commit, its rows and its result are made as tuples of their fields in order
    (:data:`mvdd.store.base.made`), not through their class: each holds its class's fields,
    as its class makes it, on both embedded stores (a new table, a change, a rename, a drop)."""
    seen: list[Any] = []

    def recording(store: Any) -> Any:
        commit = store.commit

        def record(made_commit: Commit) -> Any:
            result = commit(made_commit)
            seen.extend([made_commit, *made_commit.versions, *made_commit.opened, result])
            seen.extend([result.rows, *result.rows.versions, *result.rows.opened])
            return result

        store.commit = record
        return store

    for store in (MemoryStore(), SQLiteStore(tmp_path / "rows.db")):
        cat = Catalog(store=recording(store))
        cat.execute("CREATE TABLE t (a INT PRIMARY KEY, b TEXT)")
        cat.execute("ALTER TABLE t ADD COLUMN c INT DEFAULT 1 FIRST, ADD KEY k (b(5))")
        cat.execute("RENAME TABLE t TO u")
        cat.execute("DROP TABLE u")
        cat.close()
    assert {type(row).__name__ for row in seen} >= {
        "Commit",
        "CommitResult",
        "Changes",
        "VersionRow",
        "ElementRow",
    }
    for row in seen:
        assert len(row) == len(type(row)._fields) and type(row)(*row) == row, row
