"""The shard coordinator, rule by rule of seed 000, proven on MariaDB: after every step all the
downstream DDL runs on a real server, the target equals ``g.joined`` (column order included), and
a row from every unpaused shard goes in upstream and downstream alike."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import pymysql
import pytest

from mvdd import DDLError, JoinConflictError, NoSuchTableError, UnsupportedDDLError
from mvdd.shard import ShardGroup
from tests.support.mariadb import show_create_table
from tests.support.shards import Rig

pytestmark = pytest.mark.mariadb

BASE = "CREATE TABLE {t} (id INT NOT NULL, a INT NOT NULL, b VARCHAR(10), PRIMARY KEY (id))"
#: the target's string columns name the database default the group was given (the rig's server)
CS = "CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci"


def cs(sql: str) -> str:
    """Expected DDL with ``{CS}`` for the database's default charset."""
    return sql.replace("{CS}", CS)


def shards(n: int = 3, base: str = BASE) -> dict[str, str]:
    return {f"s{i}": base.format(t=f"tbl{i}") for i in range(1, n + 1)}


@pytest.fixture
def rig(mdb: Any) -> Iterator[Rig]:
    yield Rig(mdb, shards())


def on(rig: Rig, shards: list[str], alter: str) -> list[list[str]]:
    """Run one ALTER (``{t}`` is the table) on each shard in turn; the downstream of each."""
    out = []
    for s in shards:
        o = rig.ddl(s, alter.format(t=rig.tables[s]))
        assert o.conflict is None, o.conflict
        out.append(o.downstream)
    return out


# --- adding and dropping columns ------------------------------------------------------------


def test_add_column_first_remaining_last(rig: Rig) -> None:
    # (a UNIQUE key would be added last too, but rows already there would all hold the
    # default, upstream and downstream alike: this uses a plain key)
    first, middle, last = on(
        rig, ["s1", "s2", "s3"], "ALTER TABLE {t} ADD COLUMN c INT NOT NULL, ADD INDEX ic (c)"
    )
    assert first == ["ALTER TABLE `t` ADD COLUMN `c` INT NOT NULL DEFAULT 0"]
    assert middle == []
    assert last == [
        "ALTER TABLE `t` ALTER COLUMN `c` DROP DEFAULT",
        "ALTER TABLE `t` ADD INDEX `ic` (`c`)",
    ]
    assert rig.group.column_state("c") == "exists"


def test_a_unique_key_over_a_column_made_text_is_a_hash_downstream(mdb: Any) -> None:
    """A UNIQUE key over a VARCHAR that a group's shard makes TEXT: MariaDB keeps it as a
    hash (``USING HASH``), upstream and downstream alike, and the joined table says so (the
    key's spelling kept from before said a B-tree, which a TEXT part without a prefix cannot
    be: the group paused its shard)."""
    rig = Rig(mdb, shards(1))
    on(rig, ["s1"], "ALTER TABLE {t} ADD UNIQUE INDEX ix (b)")
    (last,) = on(rig, ["s1"], "ALTER TABLE {t} MODIFY COLUMN b TEXT")
    assert last == [cs("ALTER TABLE `t` MODIFY COLUMN `b` TEXT {CS} DEFAULT NULL")]
    for table in (rig.group.joined, rig.live(rig.target)):
        ix = table.find_index("ix")
        assert ix is not None and ix.using == "HASH", table.to_sql()
    assert not rig.group.paused


def test_add_column_variants_on_first_shard(rig: Rig) -> None:
    (a,) = on(rig, ["s1"], "ALTER TABLE {t} ADD COLUMN col4 INT")
    (b,) = on(rig, ["s1"], "ALTER TABLE {t} ADD COLUMN col6 INT NOT NULL DEFAULT 3")
    assert a == ["ALTER TABLE `t` ADD COLUMN `col4` INT DEFAULT NULL"]
    assert b == ["ALTER TABLE `t` ADD COLUMN `col6` INT NOT NULL DEFAULT 3"]
    # the remaining shards widen it: the most compatible type among shards
    (c,) = on(rig, ["s2"], "ALTER TABLE {t} ADD COLUMN col4 BIGINT")
    assert c == ["ALTER TABLE `t` MODIFY COLUMN `col4` BIGINT DEFAULT NULL"]


def test_implicit_defaults_of_every_family(mdb: Any) -> None:
    rig = Rig(mdb, shards(2))
    (out,) = on(
        rig,
        ["s1"],
        "ALTER TABLE {t} ADD COLUMN n DECIMAL(5,2) NOT NULL, ADD COLUMN f DOUBLE NOT NULL, "
        "ADD COLUMN s CHAR(3) NOT NULL, ADD COLUMN x TEXT NOT NULL, ADD COLUMN y VARBINARY(4) "
        "NOT NULL, ADD COLUMN e ENUM('p','q') NOT NULL, ADD COLUMN m SET('u','v') NOT NULL, "
        "ADD COLUMN d DATE NOT NULL, ADD COLUMN tm TIME NOT NULL, ADD COLUMN dt DATETIME(3) NOT "
        "NULL, ADD COLUMN yr YEAR NOT NULL, ADD COLUMN j JSON NOT NULL, ADD COLUMN bt BIT(3) NOT NULL, "
        "ADD COLUMN u UUID NOT NULL, ADD COLUMN i4 INET4 NOT NULL, ADD COLUMN i6 INET6 NOT NULL",
    )
    joined = rig.group.joined
    columns = ("n", "s", "e", "m", "d", "yr", "j", "u", "i4", "i6")
    assert [str(joined.column(c).default) for c in columns] == [
        "0.00",
        "",
        "p",
        "",
        "0000-00-00",
        "0",
        "null",
        "00000000-0000-0000-0000-000000000000",
        "0.0.0.0",
        "::",
    ]
    on(
        rig,
        ["s2"],
        "ALTER TABLE {t} ADD COLUMN n DECIMAL(5,2) NOT NULL, ADD COLUMN f DOUBLE NOT NULL, "
        "ADD COLUMN s CHAR(3) NOT NULL, ADD COLUMN x TEXT NOT NULL, ADD COLUMN y VARBINARY(4) "
        "NOT NULL, ADD COLUMN e ENUM('p','q') NOT NULL, ADD COLUMN m SET('u','v') NOT NULL, "
        "ADD COLUMN d DATE NOT NULL, ADD COLUMN tm TIME NOT NULL, ADD COLUMN dt DATETIME(3) NOT "
        "NULL, ADD COLUMN yr YEAR NOT NULL, ADD COLUMN j JSON NOT NULL, ADD COLUMN bt BIT(3) NOT NULL, "
        "ADD COLUMN u UUID NOT NULL, ADD COLUMN i4 INET4 NOT NULL, ADD COLUMN i6 INET6 NOT NULL",
    )
    assert all(c.default is None or c.nullable for c in rig.group.joined.columns[3:]) is False
    assert len(out) == 16


def test_drop_column_first_remaining_last(mdb: Any) -> None:
    base = (
        "CREATE TABLE {t} (id INT NOT NULL, a INT NOT NULL, col7 INT NOT NULL, PRIMARY KEY (id), "
        "KEY k7 (col7), KEY ka7 (a, col7), CONSTRAINT chk7 CHECK (col7 > 0))"
    )
    rig = Rig(mdb, shards(3, base))
    first, middle, last = on(rig, ["s1", "s2", "s3"], "ALTER TABLE {t} DROP COLUMN col7")
    # kept with a default; its indexes and checks dropped at once (upstream, the check went
    # with the column and ka7 became KEY (a))
    assert first == [
        "ALTER TABLE `t` DROP CONSTRAINT `chk7`",
        "ALTER TABLE `t` DROP INDEX `k7`",
        "ALTER TABLE `t` DROP INDEX `ka7`",
        "ALTER TABLE `t` ALTER COLUMN `col7` SET DEFAULT 0",
    ]
    assert middle == []
    assert last == ["ALTER TABLE `t` DROP COLUMN `col7`", "ALTER TABLE `t` ADD INDEX `ka7` (`a`)"]
    assert rig.group.column_state("col7") == "dropped"


def test_add_then_drop_on_one_shard_is_a_no_op_overall(rig: Rig) -> None:
    (add,) = on(rig, ["s1"], "ALTER TABLE {t} ADD COLUMN c INT")
    (drop,) = on(rig, ["s1"], "ALTER TABLE {t} DROP COLUMN c")
    assert add and drop == ["ALTER TABLE `t` DROP COLUMN `c`"]


# --- modifying columns ------------------------------------------------------------------------


def test_widening_takes_the_most_compatible_type(rig: Rig) -> None:
    (w1,) = on(rig, ["s1"], "ALTER TABLE {t} MODIFY a BIGINT NOT NULL")
    assert w1 == ["ALTER TABLE `t` MODIFY COLUMN `a` BIGINT NOT NULL"]
    (w2,) = on(rig, ["s2"], "ALTER TABLE {t} MODIFY a MEDIUMINT NOT NULL")
    assert w2 == []
    (n1,) = on(rig, ["s1"], "ALTER TABLE {t} MODIFY a INT NOT NULL")
    assert n1 == ["ALTER TABLE `t` MODIFY COLUMN `a` INT NOT NULL"]  # s3 still has INT
    (v,) = on(rig, ["s3"], "ALTER TABLE {t} MODIFY b VARCHAR(40)")
    assert v == [cs("ALTER TABLE `t` MODIFY COLUMN `b` VARCHAR(40) {CS} DEFAULT NULL")]


def test_text_sizes_charsets_and_enums(mdb: Any) -> None:
    base = (
        "CREATE TABLE {t} (id INT NOT NULL PRIMARY KEY, x TINYTEXT CHARACTER SET utf8mb3 COLLATE "
        "utf8mb3_bin, e ENUM('a','b') NOT NULL, v VARCHAR(8) CHARACTER SET latin1 COLLATE latin1_bin)"
    )
    rig = Rig(mdb, shards(2, base))
    on(rig, ["s1"], "ALTER TABLE {t} MODIFY x TEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin")
    assert str(rig.group.joined.column("x").type) == "text collate utf8mb4_bin"
    on(rig, ["s2"], "ALTER TABLE {t} MODIFY e ENUM('a','b','c') NOT NULL")
    assert rig.group.joined.column("e").type.members == ("a", "b", "c")
    on(rig, ["s2"], "ALTER TABLE {t} MODIFY v VARCHAR(8) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin")
    assert rig.group.joined.column("v").type.charset == "utf8mb4"
    # enum members reordered: no join
    out = rig.ddl("s1", "ALTER TABLE tbl1 MODIFY e ENUM('b','a') NOT NULL")
    assert out.conflict is not None and out.conflict.column == "e"


def test_nullability(rig: Rig) -> None:
    (first,) = on(rig, ["s1"], "ALTER TABLE {t} MODIFY a INT NULL")
    assert first == ["ALTER TABLE `t` MODIFY COLUMN `a` INT DEFAULT NULL"]
    # back to NOT NULL: NULLs written meanwhile take the type's zero first
    (back,) = on(rig, ["s1"], "ALTER TABLE {t} MODIFY a INT NOT NULL")
    assert back == [
        "UPDATE `t` SET `a` = 0 WHERE `a` IS NULL",
        "ALTER TABLE `t` MODIFY COLUMN `a` INT NOT NULL",
    ]
    (b_first, b_middle, b_last) = on(
        rig, ["s1", "s2", "s3"], "ALTER TABLE {t} MODIFY b VARCHAR(10) NOT NULL"
    )
    assert b_first == b_middle == []
    assert b_last == [
        "UPDATE `t` SET `b` = '' WHERE `b` IS NULL",
        cs("ALTER TABLE `t` MODIFY COLUMN `b` VARCHAR(10) {CS} NOT NULL"),
    ]


def test_not_null_at_last_fills_the_nulls_of_shards_that_lacked_the_column(rig: Rig) -> None:
    on(rig, ["s1"], "ALTER TABLE {t} ADD COLUMN c INT NULL")  # s2, s3 rows get NULL
    rig.run("UPDATE tbl1 SET c = 9 WHERE c IS NULL")  # upstream, s1 cleans its own first
    (out,) = on(rig, ["s1"], "ALTER TABLE {t} MODIFY c INT NOT NULL DEFAULT 9")
    assert out == [
        "UPDATE `t` SET `c` = 9 WHERE `c` IS NULL",
        "ALTER TABLE `t` MODIFY COLUMN `c` INT NOT NULL DEFAULT 9",
    ]
    assert (None,) not in rig.rows(["c"])


def test_defaults(rig: Rig) -> None:
    (d1,) = on(rig, ["s1"], "ALTER TABLE {t} ALTER COLUMN a SET DEFAULT 5")
    assert d1 == ["ALTER TABLE `t` ALTER COLUMN `a` SET DEFAULT 5"]  # a default > none
    out = rig.ddl("s2", "ALTER TABLE tbl2 ALTER COLUMN a SET DEFAULT 6")
    assert out.conflict is not None and "default" in str(out.conflict)
    assert rig.group.paused == {"s2"}
    # resolved by the paused shard going back (intrusive) or by s1 agreeing (non-intrusive)
    out = rig.ddl("s1", "ALTER TABLE tbl1 ALTER COLUMN a SET DEFAULT 6")
    assert out.resumed == {"s2"} and out.conflict is None
    assert rig.group.joined.column("a").default == 6
    (drop,) = on(rig, ["s1"], "ALTER TABLE {t} ALTER COLUMN a DROP DEFAULT")
    assert drop == []  # s2 still gives a default


# --- renaming columns -------------------------------------------------------------------------


def test_rename_procedure(rig: Rig) -> None:
    first, middle, last = on(rig, ["s1", "s2", "s3"], "ALTER TABLE {t} RENAME COLUMN a TO z")
    assert first == [
        "ALTER TABLE `t` ALTER COLUMN `a` SET DEFAULT 0",
        "ALTER TABLE `t` RENAME COLUMN `a` TO `z`",
        "ALTER TABLE `t` ADD COLUMN `a` INT DEFAULT NULL",
    ]
    assert middle == []
    assert last == [
        "ALTER TABLE `t` ALTER COLUMN `z` DROP DEFAULT",
        "UPDATE `t` SET `z` = `a` WHERE NOT `a` IS NULL",
        "ALTER TABLE `t` DROP COLUMN `a`",
    ]
    # every row written to `a` by a shard not yet renamed is now in `z`
    values = [row[0] for row in rig.rows(["z"])]
    assert 0 not in values and len(values) == rig.rows(["id"]).__len__()


def test_a_consumer_writing_both_columns_ends_a_merge_without_copying(mdb: Any) -> None:
    """Seed 000's `UPDATE t SET z = a` puts a row's value from before its shard renamed over
    one the shard wrote to `z` since; a consumer that writes both columns while the rename is
    under way (the replicator: `ShardGroup.also`) has every latest value in `z` already, and
    its group ends the merge without it."""
    rig = Rig(mdb, shards())
    rig.group = ShardGroup("t", shards(), dual_writes=True, charset="utf8mb4")
    *_, last = on(rig, ["s1", "s2", "s3"], "ALTER TABLE {t} RENAME COLUMN a TO z")
    assert last == [
        "ALTER TABLE `t` ALTER COLUMN `z` DROP DEFAULT",
        "ALTER TABLE `t` DROP COLUMN `a`",
    ]


def test_rename_back_merges_and_renames_back(rig: Rig) -> None:
    on(rig, ["s1"], "ALTER TABLE {t} RENAME COLUMN a TO z")
    (back,) = on(rig, ["s1"], "ALTER TABLE {t} RENAME COLUMN z TO a")
    assert back == [
        "ALTER TABLE `t` ALTER COLUMN `z` DROP DEFAULT",
        "UPDATE `t` SET `z` = `a` WHERE NOT `a` IS NULL",
        "ALTER TABLE `t` DROP COLUMN `a`",
        "ALTER TABLE `t` RENAME COLUMN `z` TO `a`",
    ]
    assert 0 not in [row[0] for row in rig.rows(["a"])]


def test_rename_on_a_single_shard_group_is_plain(mdb: Any) -> None:
    rig = Rig(mdb, shards(1))
    (out,) = on(rig, ["s1"], "ALTER TABLE {t} CHANGE a z BIGINT NOT NULL")
    assert out == [
        "ALTER TABLE `t` MODIFY COLUMN `a` BIGINT NOT NULL",
        "ALTER TABLE `t` RENAME COLUMN `a` TO `z`",
    ]


def test_rename_of_a_column_being_renamed_is_a_conflict(rig: Rig) -> None:
    on(rig, ["s1"], "ALTER TABLE {t} RENAME COLUMN b TO c")
    out = rig.ddl("s1", "ALTER TABLE tbl1 RENAME COLUMN a TO b")
    assert out.conflict is not None and out.conflict.shard == "s1"
    assert "rename" in out.conflict.message
    # the others go on; once b -> c is done everywhere, s1's a -> b starts a new rename
    on(rig, ["s2"], "ALTER TABLE {t} RENAME COLUMN b TO c")
    out = rig.ddl("s3", "ALTER TABLE tbl3 RENAME COLUMN b TO c")
    assert out.resumed == {"s1"}
    assert out.downstream[-3:] == [
        "ALTER TABLE `t` ALTER COLUMN `a` SET DEFAULT 0",
        "ALTER TABLE `t` RENAME COLUMN `a` TO `b`",
        "ALTER TABLE `t` ADD COLUMN `a` INT DEFAULT NULL",
    ]
    on(rig, ["s2", "s3"], "ALTER TABLE {t} RENAME COLUMN a TO b")
    assert not rig.group.paused and rig.group.column_state("a") == "dropped"


def test_renaming_a_key_column_waits_for_every_shard(rig: Rig) -> None:
    # seed 000's merge would drop the primary key until the last shard renamed (a rebuild,
    # and rows without a key meanwhile): a key column's rename waits, as TiDB DM coordinates it
    alter = "ALTER TABLE {t} CHANGE id pk INT NOT NULL"
    for shard, others in (("s1", {"s1"}), ("s2", {"s1", "s2"})):
        out = rig.ddl(shard, alter.format(t=rig.tables[shard]))
        assert out.conflict is None and out.waiting == ("id", "pk")
        assert out.downstream == [] and rig.group.paused == others
        assert rig.group.joined.primary_key is not None
        assert "waits for" in (rig.group.pause_reason(shard) or "")
    out = rig.ddl("s3", alter.format(t="tbl3"))
    assert out.resumed == {"s1", "s2"} and out.waiting is None and not rig.group.paused
    assert out.downstream == ["ALTER TABLE `t` RENAME COLUMN `id` TO `pk`"]
    key = rig.group.joined.primary_key
    assert key is not None and rig.group.joined.index_column_names(key) == ("pk",)


def test_renaming_a_partial_column_waits_for_the_shards_that_hold_it(rig: Rig) -> None:
    on(rig, ["s3"], "ALTER TABLE {t} DROP COLUMN b")
    out = rig.ddl("s1", "ALTER TABLE tbl1 RENAME COLUMN b TO c")
    assert out.waiting == ("b", "c") and rig.group.paused == {"s1"} and out.downstream == []
    out = rig.ddl("s2", "ALTER TABLE tbl2 RENAME COLUMN b TO c")
    assert out.resumed == {"s1"} and not rig.group.paused
    assert out.downstream == ["ALTER TABLE `t` RENAME COLUMN `b` TO `c`"]


def test_a_rename_that_narrows_the_column_keeps_it_as_wide_as_the_others(rig: Rig) -> None:
    """The merge renames the column that holds every shard's rows so far: a rename that also
    narrows it (here to TINYINT) once emitted MODIFY … TINYINT over the other shards' values,
    which their own upstream rows keep. While the rename is under way the renamed column joins
    the others' old one (they write both): it stays INT, narrows once every shard renamed, and
    widens with the old one where a shard not renamed yet widens that."""
    (first,) = on(rig, ["s1"], "ALTER TABLE {t} CHANGE a z TINYINT NOT NULL")
    assert not any("TINYINT" in text for text in first), first
    assert any(text.endswith("ADD COLUMN `a` INT DEFAULT NULL") for text in first), first
    group = rig.group
    assert group.joined.column("z").type.kind.name == "INT"
    for shard, written in (("s1", ("z", None)), ("s2", ("a", "z")), ("s3", ("a", "z"))):
        at = group.schema(shard).column("z" if shard == "s1" else "a").id
        dest, second = group.destination(shard, at), group.also(shard, at)
        assert dest is not None and (dest.name, second and second.name) == written
    # a shard not renamed widens `a`: `z`, which holds its rows too, widens with it
    (wider,) = on(rig, ["s2"], "ALTER TABLE {t} MODIFY a BIGINT NOT NULL")
    assert wider == [
        "ALTER TABLE `t` MODIFY COLUMN `z` BIGINT NOT NULL DEFAULT 0",
        "ALTER TABLE `t` MODIFY COLUMN `a` BIGINT DEFAULT NULL",
    ]
    # the renamed shard makes `z` a type the others' `a` has no join with: it pauses,
    # the others' column named as theirs
    out = rig.ddl("s1", "ALTER TABLE tbl1 MODIFY z VARCHAR(10) NOT NULL")
    assert out.conflict is not None and out.conflict.shard == "s1" and out.downstream == []
    assert "(as `a`)" in out.conflict.message, out.conflict.message
    rig.ddl("s1", "ALTER TABLE tbl1 MODIFY z TINYINT NOT NULL")
    assert not group.paused
    *_, last = on(rig, ["s2", "s3"], "ALTER TABLE {t} CHANGE a z TINYINT NOT NULL")
    assert last[0] == "ALTER TABLE `t` MODIFY COLUMN `z` TINYINT NOT NULL", last
    assert group.joined.find_column("a") is None


def test_a_column_the_shards_define_differently_merges_as_it_is_renamed(rig: Rig) -> None:
    """`a` is an INT on two shards and a BIGINT on the third (the target's a BIGINT): its
    rename once waited for every shard, paused. It merges now: the renamed column joins the
    renamed shard's INT and the others' `a` (a BIGINT, as theirs), and narrows once the BIGINT
    shard has renamed and the merge ended."""
    on(rig, ["s3"], "ALTER TABLE {t} MODIFY a BIGINT")
    group = rig.group
    assert group.joined.column("a").type.kind.name == "BIGINT"
    (first,) = on(rig, ["s1"], "ALTER TABLE {t} RENAME COLUMN a TO z")
    assert not group.paused and first[0] == "ALTER TABLE `t` RENAME COLUMN `a` TO `z`", first
    assert group.joined.column("z").type.kind.name == "BIGINT"
    assert group.joined.column("a").type.kind.name == "BIGINT"
    *_, last = on(rig, ["s3", "s2"], "ALTER TABLE {t} RENAME COLUMN a TO z")
    assert last[-1] == "ALTER TABLE `t` DROP COLUMN `a`", last
    assert group.joined.find_column("a") is None and not group.paused
    assert group.joined.column("z").type.kind.name == "BIGINT"
    (narrowed,) = on(rig, ["s3"], "ALTER TABLE {t} MODIFY z INT")
    assert narrowed == ["ALTER TABLE `t` MODIFY COLUMN `z` INT DEFAULT NULL"], narrowed


def test_a_rename_whose_column_gave_way_to_a_generated_one_of_its_name_goes_back(
    rig: Rig,
) -> None:
    """`a` is being renamed to `z` (s1 renamed it); s1 then lets its `z` go (renamed on, a
    conflict that pauses it, and dropped) and adds a generated `z`. Its generated `z` holds
    none of the renamed values: the rename ends as if s1 went back, the downstream `z`
    (every shard's values, written to both names meanwhile) renamed back to `a`. It once
    counted as the renamed column: the downstream `z` was dropped with the other shards' values
    and added anew."""
    on(rig, ["s1"], "ALTER TABLE {t} RENAME COLUMN a TO z")
    for alter in ("CHANGE z y BIGINT", "ADD COLUMN z INT AS (id % 5) VIRTUAL"):
        assert rig.ddl("s1", f"ALTER TABLE {rig.tables['s1']} {alter}").conflict is not None
    (back,) = on(rig, ["s1"], "ALTER TABLE {t} DROP COLUMN y")
    assert back == [
        "UPDATE `t` SET `z` = `a` WHERE NOT `a` IS NULL",
        "ALTER TABLE `t` DROP COLUMN `a`",
        "ALTER TABLE `t` RENAME COLUMN `z` TO `a`",
    ], back
    group = rig.group
    assert not group.paused and group.joined.find_column("z") is None


def test_a_shard_holding_both_names_of_a_rename_under_way_waits(rig: Rig) -> None:
    """While `a` is being renamed to `z`, a shard not renamed yet adding `z`, or the renamed
    one adding `a` anew, would hold both names: the shards still writing `a` write `z` too,
    and the merge that ends the rename copies `a` into `z`, so their two columns' values would
    mix. Each waits, paused, until the rename ends; then its column is a new one."""
    on(rig, ["s1"], "ALTER TABLE {t} RENAME COLUMN a TO z")
    for shard, alter in (("s2", "ADD COLUMN z INT"), ("s1", "ADD COLUMN a INT")):
        out = rig.ddl(shard, f"ALTER TABLE {rig.tables[shard]} {alter}")
        assert out.conflict is not None and out.conflict.shard == shard, alter
        assert "would hold both `a` and `z`" in out.conflict.message
        assert out.downstream == []
    assert rig.group.paused == {"s1", "s2"}
    out = rig.ddl("s3", "ALTER TABLE tbl3 RENAME COLUMN a TO z")
    assert out.conflict is None and rig.group.paused == {"s1", "s2"}  # (s2 holds `a` still)
    out = rig.ddl("s2", "ALTER TABLE tbl2 DROP COLUMN a")
    assert out.resumed == {"s1", "s2"} and not rig.group.paused
    assert out.downstream[-2:] == [
        "ALTER TABLE `t` DROP COLUMN `a`",
        "ALTER TABLE `t` ADD COLUMN `a` INT DEFAULT NULL",
    ]
    joined = rig.group.joined
    # s1's `a` is a column of its own downstream now, not the one its `z` was renamed from
    a, z = joined.column("a"), joined.column("z")
    s1 = rig.group.schema("s1")
    assert rig.group.destination("s1", s1.column("a").id) == a
    assert rig.group.also("s1", s1.column("a").id) is None
    assert rig.group.destination("s1", s1.column("z").id) == z


def test_a_merge_whose_two_names_are_renamed_at_once_ends_in_the_third(rig: Rig) -> None:
    """While `a` is being renamed to `z` (s1 renamed), s1 renames `z` to `y` and the others
    rename `a` to `y`: each alone is a rename of a column under way, refused (seed 000), so
    every shard pauses; once all of them have, their schemas agree, and they resume together:
    the merge ends as it would (`a`'s values into `z`, `a` dropped) and `z` is renamed to
    `y`. They once stayed paused for good, though their schemas agreed. Found by a state
    machine of random DDL on three shards, replicated."""
    on(rig, ["s1"], "ALTER TABLE {t} RENAME COLUMN a TO z")
    for shard, alter in (("s1", "z TO y"), ("s2", "a TO y"), ("s3", "a TO y")):
        out = rig.ddl(shard, f"ALTER TABLE {rig.tables[shard]} RENAME COLUMN {alter}")
        if shard != "s3":
            assert out.conflict is not None and "rename of it is under way" in out.conflict.message
            continue
        assert out.conflict is None and out.resumed == {"s1", "s2"}
        assert out.downstream == [
            "ALTER TABLE `t` ALTER COLUMN `z` DROP DEFAULT",
            "UPDATE `t` SET `z` = `a` WHERE NOT `a` IS NULL",
            "ALTER TABLE `t` DROP COLUMN `a`",
            "ALTER TABLE `t` RENAME COLUMN `z` TO `y`",
        ]
    assert not rig.group.paused and [c.name for c in rig.group.joined.columns] == ["id", "y", "b"]
    # every row written to `a` by a shard not yet renamed is in `y`
    assert 0 not in [row[0] for row in rig.rows(["y"])]


def test_renames_wait_on_request(mdb: Any) -> None:
    rig = Rig(mdb, shards(2))
    rig.group = ShardGroup("t", shards(2), renames="wait", charset="utf8mb4")
    out = rig.ddl("s1", "ALTER TABLE tbl1 RENAME COLUMN a TO z")
    assert out.waiting == ("a", "z") and out.downstream == []
    # going back is no rename at all: the shard goes on, downstream never moved
    out = rig.ddl("s1", "ALTER TABLE tbl1 RENAME COLUMN z TO a")
    assert not rig.group.paused and out.downstream == []
    assert rig.ddl("s1", "ALTER TABLE tbl1 RENAME COLUMN a TO z").waiting == ("a", "z")
    out = rig.ddl("s2", "ALTER TABLE tbl2 RENAME COLUMN a TO z")
    assert out.downstream == ["ALTER TABLE `t` RENAME COLUMN `a` TO `z`"]
    assert out.resumed == {"s1"} and not rig.group.paused


def test_two_renames_of_one_column_are_a_conflict_naming_both(mdb: Any) -> None:
    rig = Rig(mdb, shards(3))
    rig.group = ShardGroup("t", shards(3), renames="wait", charset="utf8mb4")
    rig.ddl("s1", "ALTER TABLE tbl1 RENAME COLUMN a TO z")
    out = rig.ddl("s2", "ALTER TABLE tbl2 RENAME COLUMN a TO y")
    assert out.conflict is not None and out.waiting is None
    assert {"s1", "s2"} <= set(out.conflict.shards or ())
    assert "`z`" in out.conflict.message and "`y`" in out.conflict.message
    # s2 agrees after all: it waits with s1, and the last shard's rename ends it
    rig.ddl("s2", "ALTER TABLE tbl2 RENAME COLUMN y TO z")
    assert rig.group.waiting("s2") == ("a", "z") and rig.group.conflict("s2") is None
    out = rig.ddl("s3", "ALTER TABLE tbl3 RENAME COLUMN a TO z")
    assert out.resumed == {"s1", "s2"}
    assert out.downstream == ["ALTER TABLE `t` RENAME COLUMN `a` TO `z`"]


def test_a_group_refuses_an_unknown_rename_procedure() -> None:
    with pytest.raises(DDLError, match="renames"):
        ShardGroup("t", shards(2), renames="guess")


# --- generated columns ------------------------------------------------------------------------


def test_generated_columns_added_last_dropped_first(rig: Rig) -> None:
    first, last = on(rig, ["s1", "s2"], "ALTER TABLE {t} ADD COLUMN g INT AS (a + 1) STORED")
    assert first == last == []
    (final,) = on(rig, ["s3"], "ALTER TABLE {t} ADD COLUMN g INT AS (a + 1) STORED")
    assert final == ["ALTER TABLE `t` ADD COLUMN `g` INT GENERATED ALWAYS AS (`a` + 1) STORED"]
    (drop,) = on(rig, ["s2"], "ALTER TABLE {t} DROP COLUMN g")
    assert drop == ["ALTER TABLE `t` DROP COLUMN `g`"]


def test_stored_generated_to_normal_and_back(mdb: Any) -> None:
    base = "CREATE TABLE {t} (id INT PRIMARY KEY, a INT, g INT AS (a + 1) STORED)"
    rig = Rig(mdb, shards(2, base))
    (first, last) = on(rig, ["s1", "s2"], "ALTER TABLE {t} MODIFY g INT")
    assert first == ["ALTER TABLE `t` MODIFY COLUMN `g` INT DEFAULT NULL"]
    assert last == []
    (first, last) = on(rig, ["s1", "s2"], "ALTER TABLE {t} MODIFY g INT AS (a - 1) STORED")
    assert first == []
    assert last == ["ALTER TABLE `t` MODIFY COLUMN `g` INT GENERATED ALWAYS AS (`a` - 1) STORED"]


def test_virtual_generated_to_normal_is_dropped_and_added(mdb: Any) -> None:
    base = "CREATE TABLE {t} (id INT PRIMARY KEY, a INT, g INT AS (a + 1) VIRTUAL)"
    rig = Rig(mdb, shards(2, base))
    rig.ddl("s1", "ALTER TABLE tbl1 DROP COLUMN g, ADD COLUMN g INT")
    assert rig.log[-2:] == [
        "ALTER TABLE `t` DROP COLUMN `g`",
        "ALTER TABLE `t` ADD COLUMN `g` INT DEFAULT NULL",
    ]


def test_different_generation_expressions_conflict(rig: Rig) -> None:
    on(rig, ["s1"], "ALTER TABLE {t} ADD COLUMN g INT AS (a + 1) STORED")
    out = rig.ddl("s2", "ALTER TABLE tbl2 ADD COLUMN g INT AS (a + 2) STORED")
    assert out.conflict is not None and out.conflict.column == "g"
    assert set(out.conflict.shards or ()) == {"s1", "s2"}


# --- constraints ------------------------------------------------------------------------------


def test_indexes_added_last_removed_first(rig: Rig) -> None:
    first, last_but_one, last = on(rig, ["s1", "s2", "s3"], "ALTER TABLE {t} ADD INDEX ib (b)")
    assert first == last_but_one == []
    assert last == ["ALTER TABLE `t` ADD INDEX `ib` (`b`)"]
    (drop,) = on(rig, ["s2"], "DROP INDEX ib ON {t}")
    assert drop == ["ALTER TABLE `t` DROP INDEX `ib`"]
    (create,) = on(rig, ["s2"], "CREATE UNIQUE INDEX ib2 ON {t} (b(4))")
    assert create == []


def test_same_index_name_with_other_parts_conflicts(rig: Rig) -> None:
    on(rig, ["s1"], "ALTER TABLE {t} ADD INDEX i (a)")
    out = rig.ddl("s2", "ALTER TABLE tbl2 ADD INDEX i (b)")
    assert out.conflict is not None and out.conflict.index == "i"
    assert out.conflict.definitions == ("INDEX `i` (`a`)", "INDEX `i` (`b`)")


def test_checks_added_last_removed_first(rig: Rig) -> None:
    first, _, last = on(
        rig, ["s1", "s2", "s3"], "ALTER TABLE {t} ADD CONSTRAINT pos CHECK (a >= 0)"
    )
    assert first == [] and last == ["ALTER TABLE `t` ADD CONSTRAINT `pos` CHECK (`a` >= 0)"]
    (drop,) = on(rig, ["s1"], "ALTER TABLE {t} DROP CONSTRAINT pos")
    assert drop == ["ALTER TABLE `t` DROP CONSTRAINT `pos`"]


def test_checks_whose_names_fold_alike_stay_two_and_go_one_by_one(rig: Rig) -> None:
    """MariaDB holds a check `İ` beside a check `i` (their UTF-8 lengths differ) and a DROP of
    either name drops the first of them: the join keeps both, and a target that must lose the
    second drops both and adds the first again (the rig verifies each step on the server,
    the order of the two checks included)."""
    first, second = "ADD CONSTRAINT `İ` CHECK (a >= 0)", "ADD CONSTRAINT i CHECK (a < 1000)"
    for shard, adds in (("s1", (first, second)), ("s2", (second, first))):
        for add in adds:
            on(rig, [shard], f"ALTER TABLE {{t}} {add}")
    on(rig, ["s3"], f"ALTER TABLE {{t}} {first}")
    (both,) = on(rig, ["s3"], f"ALTER TABLE {{t}} {second}")
    assert both == ["ALTER TABLE `t` ADD CONSTRAINT `i` CHECK (`a` < 1000)"]
    assert [c.name for c in rig.group.joined.checks] == ["İ", "i"]
    (drop,) = on(rig, ["s2"], "ALTER TABLE {t} DROP CONSTRAINT i")  # s2's first: its `i`
    assert drop == [
        "ALTER TABLE `t` DROP CONSTRAINT `İ`",
        "ALTER TABLE `t` DROP CONSTRAINT `i`",
        "ALTER TABLE `t` ADD CONSTRAINT `İ` CHECK (`a` >= 0)",
    ]
    assert [c.name for c in rig.group.joined.checks] == ["İ"]


# --- idempotent DDL ---------------------------------------------------------------------------


def test_idempotent_ddl_passes_through(rig: Rig) -> None:
    (comment,) = on(rig, ["s1"], "ALTER TABLE {t} COMMENT 'merged'")
    assert comment == ["ALTER TABLE `t` COMMENT='merged'"]
    (col_comment,) = on(rig, ["s2"], "ALTER TABLE {t} MODIFY b VARCHAR(10) COMMENT 'the b'")
    assert col_comment == [
        cs("ALTER TABLE `t` MODIFY COLUMN `b` VARCHAR(10) {CS} DEFAULT NULL COMMENT 'the b'")
    ]
    (order,) = on(rig, ["s3"], "ALTER TABLE {t} MODIFY b VARCHAR(10) COMMENT 'the b' AFTER id")
    assert order == [
        cs(
            "ALTER TABLE `t` MODIFY COLUMN `b` VARCHAR(10) {CS} DEFAULT NULL COMMENT 'the b' AFTER `id`"
        )
    ]
    assert rig.group.joined.column_names == ("id", "b", "a")


def test_a_truncate_empties_the_target_only_for_the_groups_only_shard() -> None:
    one = ShardGroup("t", {"s1": "CREATE TABLE t1 (a INT PRIMARY KEY)"})
    assert one.apply("s1", "TRUNCATE TABLE t1").downstream == ["TRUNCATE TABLE `t`"]
    one.disable_propagation()
    assert one.apply("s1", "TRUNCATE t1").downstream == []
    assert one.enable_propagation() == ["TRUNCATE TABLE `t`"]
    two = ShardGroup("t", {"s1": "CREATE TABLE t1 (a INT)", "s2": "CREATE TABLE t2 (a INT)"})
    assert two.apply("s1", "TRUNCATE TABLE t1").downstream == []
    assert two.remove_shard("s2").downstream == []
    assert two.apply("s1", "TRUNCATE TABLE t1").downstream == ["TRUNCATE TABLE `t`"]


def test_truncate_among_several_shards_and_rename_table_emit_nothing(rig: Rig) -> None:
    assert rig.ddl("s1", "TRUNCATE TABLE tbl1").downstream == []
    assert rig.ddl("s1", "RENAME TABLE tbl1 TO tbl1_new").downstream == []
    rig.tables["s1"] = "tbl1_new"
    (add,) = on(rig, ["s1"], "ALTER TABLE {t} ADD COLUMN c INT")
    assert add == ["ALTER TABLE `t` ADD COLUMN `c` INT DEFAULT NULL"]


def test_a_check_reaches_a_target_holding_rows_no_shard_holds_any_more(mdb: Any) -> None:
    """Rows kept downstream from a truncated shard (or one that left) need not meet a check the
    shards add later; the replicator's downstream session does not check them (a copying ALTER
    would check every row again). Found by a deep run of the shard machine."""
    rig = Rig(mdb, shards(2))  # a row from each shard: ids 1 and 2
    assert rig.ddl("s1", "TRUNCATE TABLE tbl1").downstream == []  # id 1 stays downstream
    *_, last = on(rig, ["s1", "s2"], "ALTER TABLE {t} ADD CONSTRAINT ck CHECK (id > 1)")
    assert last == ["ALTER TABLE `t` ADD CONSTRAINT `ck` CHECK (`id` > 1)"]
    widened = on(rig, ["s1", "s2"], "ALTER TABLE {t} MODIFY a BIGINT NOT NULL")
    assert widened == [["ALTER TABLE `t` MODIFY COLUMN `a` BIGINT NOT NULL"], []]  # a copy
    assert (1,) in rig.rows(["id"])
    with mdb.cursor() as cur, pytest.raises(pymysql.MySQLError, match="CONSTRAINT `ck` failed"):
        cur.execute("ALTER TABLE t MODIFY a INT NOT NULL")  # a session that checks: refused


def test_a_shard_resumes_into_a_narrower_column_over_values_no_shard_holds(mdb: Any) -> None:
    """s2 moves `a` to an ENUM (a conflict: s2 pauses), then s1 drops `a`: s2 resumes and the
    target's `a` becomes the ENUM, over s1's integers, which no shard holds any more. The
    downstream DDL converts them as the server does outside strict mode and warns, as the
    replicator runs it (:func:`mvdd.replicate.target.run_ddl`); under strict mode the target
    would refuse the ALTER. Found by a deep run of the shard machine (seed 3007)."""
    rig = Rig(mdb, shards(2))  # a row from each shard: ids 1 and 2
    rig.run("INSERT INTO tbl1 (id, a) VALUES (100, 1000)")  # and as replicated:
    rig.run("INSERT INTO t (id, a) VALUES (100, 1000)", conn=rig.down)
    assert rig.ddl("s2", "ALTER TABLE tbl2 MODIFY a ENUM('p','q','r') NOT NULL").conflict
    out = rig.ddl("s1", "ALTER TABLE tbl1 DROP COLUMN a")
    assert out.resumed == {"s2"}
    assert out.downstream[-1].startswith("ALTER TABLE `t` MODIFY COLUMN `a` ENUM('p', 'q', 'r')")
    assert rig.warnings == ["[1265] Data truncated for column 'a' at row 4"]
    assert (100, "") in rig.rows(["id", "a"])
    assert (2, "q") in rig.rows(["id", "a"])  # s2's row, as its own ALTER converted it
    with rig.down.cursor() as cur, pytest.raises(pymysql.MySQLError, match="Data truncated"):
        cur.execute("INSERT INTO t (id, a) VALUES (101, 's')")  # rows: strict as before
    with mdb.cursor() as cur, pytest.raises(pymysql.MySQLError, match="Data truncated"):
        cur.execute("ALTER TABLE t MODIFY a ENUM('p', 'q') NOT NULL")  # strict: refused


def test_an_invisible_index_reaches_a_mariadb_target_as_ignored(rig: Rig) -> None:
    """The group's downstream text speaks MySQL (INVISIBLE, which MariaDB refuses); the
    replicator renders each statement for its target's server (:func:`mvdd.ddl.statement.
    for_server`), so a MariaDB target gets IGNORED, and reads back invisible (the rig compares
    every index's visibility after each step)."""
    *_, last = on(rig, ["s1", "s2", "s3"], "ALTER TABLE {t} ADD INDEX ix (a) IGNORED")
    assert last == ["ALTER TABLE `t` ADD INDEX `ix` (`a`) INVISIBLE"]
    assert rig.live("t").find_index("ix").visible is False  # type: ignore[union-attr]
    assert "KEY `ix` (`a`) IGNORED" in show_create_table(rig.conn, "t")
    # visibility passes through, as comments do: the last shard to set it wins
    first, *rest = on(rig, ["s1", "s2", "s3"], "ALTER TABLE {t} ALTER INDEX ix NOT IGNORED")
    assert first == ["ALTER TABLE `t` ALTER INDEX `ix` VISIBLE"] and rest == [[], []]
    assert rig.live("t").find_index("ix").visible is True  # type: ignore[union-attr]
    assert rig.ddl("s2", "ALTER TABLE tbl2 ALTER INDEX ix IGNORED").downstream == [
        "ALTER TABLE `t` ALTER INDEX `ix` INVISIBLE"
    ]


# --- conflicts --------------------------------------------------------------------------------


def test_conflict_pauses_only_its_shard_and_resolves_non_intrusively(rig: Rig) -> None:
    on(rig, ["s2"], "ALTER TABLE {t} ADD COLUMN c FLOAT")
    out = rig.ddl("s1", "ALTER TABLE tbl1 ADD COLUMN c DATETIME")
    assert out.conflict is not None
    assert out.conflict.column == "c" and out.conflict.shard == "s1"
    assert set(out.conflict.shards or ()) >= {"s1", "s2"}
    assert rig.group.paused == {"s1"}
    assert rig.group.accepted("s1").find_column("c") is None
    assert rig.group.schema("s1").find_column("c") is not None
    # others go on; later DDL of the paused shard is still accepted upstream
    on(rig, ["s3"], "ALTER TABLE {t} ADD COLUMN d INT")
    assert rig.ddl("s1", "ALTER TABLE tbl1 ADD COLUMN e INT").conflict is not None
    # non-intrusive: s2 drops its c and adds the DATETIME one
    on(rig, ["s2"], "ALTER TABLE {t} DROP COLUMN c")
    assert rig.group.paused == frozenset()  # s1's c now joins: resumed
    assert rig.group.joined.column("c").type.kind == "DATETIME"
    assert rig.group.joined.find_column("e") is not None


def test_conflict_resolved_intrusively(rig: Rig) -> None:
    on(rig, ["s2"], "ALTER TABLE {t} ADD COLUMN c TEXT")
    assert rig.ddl("s1", "ALTER TABLE tbl1 ADD COLUMN c DATETIME").conflict is not None
    out = rig.ddl("s1", "ALTER TABLE tbl1 MODIFY c TEXT")
    assert out.resumed == {"s1"} and not rig.group.paused


def test_the_same_incompatible_change_on_every_shard_resumes_them_all(rig: Rig) -> None:
    change = "ALTER TABLE {} MODIFY a VARCHAR(12) NOT NULL"
    results = [rig.ddl(s, change.format(rig.tables[s])) for s in ("s1", "s2")]
    assert all(r.conflict is not None for r in results)
    last = rig.ddl("s3", change.format("tbl3"))
    assert last.resumed == {"s1", "s2"} and not rig.group.paused
    assert last.downstream == [cs("ALTER TABLE `t` MODIFY COLUMN `a` VARCHAR(12) {CS} NOT NULL")]


# --- operator controls ------------------------------------------------------------------------


def test_disable_and_enable_propagation(rig: Rig) -> None:
    rig.group.disable_propagation()
    assert rig.group.apply("s1", "ALTER TABLE tbl1 ADD COLUMN c INT").downstream == []
    rig.run("ALTER TABLE tbl1 ADD COLUMN c INT")
    assert rig.group.apply("s1", "ALTER TABLE tbl1 ADD INDEX ic (c)").downstream == []
    rig.run("ALTER TABLE tbl1 ADD INDEX ic (c)")
    held = rig.group.enable_propagation()
    assert held == ["ALTER TABLE `t` ADD COLUMN `c` INT DEFAULT NULL"]
    rig.downstream(held)


def test_set_schema(rig: Rig) -> None:
    rig.run("ALTER TABLE tbl1 ADD COLUMN c INT")
    out = rig.group.set_schema("s1", rig.live("tbl1").to_sql())
    rig.downstream(out.downstream)
    assert rig.group.joined.find_column("c") is not None
    assert rig.group.schema("s1", version=2).find_column("c") is not None


def test_add_and_remove_shards(rig: Rig) -> None:
    on(rig, ["s1", "s2"], "ALTER TABLE {t} ADD COLUMN c INT NOT NULL")
    assert rig.group.column_state("c") == "partial"
    rig.run("DROP TABLE tbl3")
    out = rig.group.remove_shard("s3")
    del rig.tables["s3"]
    rig.downstream(out.downstream)
    assert out.downstream == ["ALTER TABLE `t` ALTER COLUMN `c` DROP DEFAULT"]
    create = "CREATE TABLE tbl4 (id INT NOT NULL, a INT NOT NULL, b VARCHAR(20), PRIMARY KEY (id))"
    rig.run(create)
    rig.tables["s4"] = "tbl4"
    out = rig.group.add_shard("s4", create)
    rig.downstream(out.downstream)
    assert out.downstream == [
        cs("ALTER TABLE `t` MODIFY COLUMN `b` VARCHAR(20) {CS} DEFAULT NULL"),
        "ALTER TABLE `t` ALTER COLUMN `c` SET DEFAULT 0",
    ]
    out = rig.ddl("s4", "DROP TABLE tbl4")
    del rig.tables["s4"]
    assert "s4" not in rig.group.shards


def test_the_last_shards_leaving_a_paused_one_hand_it_the_whole_target(rig: Rig) -> None:
    """Found by the shard state machine: a shard joined with a schema that conflicts (so it
    never was in the join), then every other shard left. While no shard was in the join the
    target stayed as it was; the new shard then joined alone, but only the columns it holds
    were joined again, so a column it lacks stayed downstream."""
    on(rig, ["s1", "s2", "s3"], "ALTER TABLE {t} ALTER COLUMN a SET DEFAULT 4")
    create = "CREATE TABLE tbl4 (id INT NOT NULL, a INT NOT NULL DEFAULT 3, PRIMARY KEY (id))"
    rig.run(create)
    rig.tables["s4"] = "tbl4"
    assert rig.group.add_shard("s4", create).conflict is not None
    for gone in ("s1", "s2", "s3"):
        rig.run(f"DROP TABLE tbl{gone[1]}")
        out = rig.group.remove_shard(gone)
        del rig.tables[gone]
        rig.downstream(out.downstream)
    assert out.resumed == {"s4"} and not rig.group.paused
    assert out.downstream == [
        "ALTER TABLE `t` ALTER COLUMN `a` SET DEFAULT 3",
        "ALTER TABLE `t` DROP COLUMN `b`",
    ]
    assert rig.group.joined.equivalent(rig.group.schema("s4"))
    rig.verify()


def test_a_rename_back_onto_a_generated_column_renames_it_downstream(rig: Rig) -> None:
    """Found by the shard state machine: a rename under way ended by every shard going back
    to the old name, which had meanwhile become a stored generated column. The plan converted
    the column but dropped its rename, so the target kept the new name."""
    on(rig, ["s2", "s3"], "ALTER TABLE {t} ALTER COLUMN a SET DEFAULT 4")
    assert rig.ddl("s1", "ALTER TABLE tbl1 ALTER COLUMN a SET DEFAULT 3").conflict is not None
    rig.ddl("s1", "ALTER TABLE tbl1 MODIFY COLUMN b INT AS (id + 1) STORED")
    assert rig.ddl("s2", "ALTER TABLE tbl2 RENAME COLUMN b TO c").downstream == [
        "ALTER TABLE `t` RENAME COLUMN `b` TO `c`",
        cs("ALTER TABLE `t` ADD COLUMN `b` VARCHAR(10) {CS} DEFAULT NULL"),
    ]
    rig.verify()
    # the operator makes every shard the first one's table, and tells the group
    target = rig.group.schema("s1")
    for shard, change in (
        ("s2", "DROP COLUMN c, ADD COLUMN b INT AS (id + 1) STORED"),
        ("s3", "MODIFY COLUMN b INT AS (id + 1) STORED"),
    ):
        rig.run(f"ALTER TABLE tbl{shard[1]} {change}, ALTER COLUMN a SET DEFAULT 3")
        rig.downstream(rig.group.set_schema(shard, target).downstream)
    assert not rig.group.paused
    assert rig.group.joined.equivalent(target)
    rig.verify()  # the live target equals the joined schema, column names included


@pytest.mark.parametrize("column", ["c UUID, ADD KEY kc (c, a)", "c POINT"])
def test_a_type_the_target_cannot_cast_to_is_reached_by_dropping_the_column(
    rig: Rig, column: str
) -> None:
    """Found by the shard state machine: the operator settles a conflict between an INT and a
    UUID column by making every shard's column a UUID. The server cannot cast an INT to a
    UUID (nor to a spatial type), so the target drops the column and adds it again, with the
    index over it."""
    on(rig, ["s1", "s2", "s3"], "ALTER TABLE {t} ADD COLUMN c INT, ADD KEY kc (c, a)")
    rig.ddl("s1", "ALTER TABLE tbl1 DROP KEY kc, DROP COLUMN c")
    out = rig.ddl("s1", f"ALTER TABLE tbl1 ADD COLUMN {column}")
    assert out.conflict is not None and rig.group.paused == {"s1"}
    target = rig.group.schema("s1")
    for shard in ("s2", "s3"):
        rig.run(f"ALTER TABLE tbl{shard[1]} DROP KEY kc, DROP COLUMN c")
        rig.run(f"ALTER TABLE tbl{shard[1]} ADD COLUMN {column}")
        rig.downstream(rig.group.set_schema(shard, target).downstream)
    rig.downstream(rig.group.set_schema("s1", target).downstream)
    assert not rig.group.paused and rig.group.joined.equivalent(target)
    assert "DROP COLUMN `c`" in " ".join(rig.log)
    rig.verify()


def test_what_reads_a_column_dropped_and_added_again_goes_and_comes_with_it(rig: Rig) -> None:
    """The server drops a check over a dropped column with it when the check names no other
    column, and refuses the DROP COLUMN when it does or when a generated column reads it: a
    column the target drops and adds again (a type the server cannot cast to) takes both kinds
    of check and the generated column with it."""
    readers = (
        "ADD COLUMN g INT AS (c IS NULL), ADD CONSTRAINT ck CHECK (c IS NOT NULL OR a >= 0), "
        "ADD CONSTRAINT cn CHECK (c IS NOT NULL)"
    )
    on(rig, ["s1", "s2", "s3"], "ALTER TABLE {t} ADD COLUMN c INT DEFAULT 1, " + readers)
    change = "ALTER TABLE tbl{n} DROP CONSTRAINT ck, DROP CONSTRAINT cn, DROP g, DROP COLUMN c"
    again = "ALTER TABLE tbl{n} ADD COLUMN c UUID DEFAULT '0-0000000000000000000000000000001', "
    for n in (1, 2, 3):  # the operator tells the group each shard's schema once it changed
        rig.run(change.format(n=n))
        rig.run(again.format(n=n) + readers)
        rig.downstream(rig.group.set_schema(f"s{n}", rig.live(f"tbl{n}")).downstream)
    target = rig.live("tbl1")
    assert not rig.group.paused and rig.group.joined.equivalent(target)
    assert {c.name for c in rig.group.joined.checks} == {"ck", "cn"}
    rig.verify()


def test_an_index_over_a_generated_column_added_again_comes_with_it(rig: Rig) -> None:
    """A change of a generation expression drops the target's column and adds it again; the
    server takes the column out of every index over it, so the index goes and comes with it."""
    on(rig, ["s1", "s2", "s3"], "ALTER TABLE {t} ADD COLUMN g INT AS (a + 1), ADD KEY kg (g, a)")
    for shard in ("s1", "s2", "s3"):
        rig.ddl(shard, f"ALTER TABLE {rig.tables[shard]} MODIFY g INT AS (a + 2)")
    assert not rig.group.paused
    assert "DROP COLUMN `g`" in " ".join(rig.log)
    rig.verify()


@pytest.mark.parametrize("kind", ["STORED", "VIRTUAL"])
def test_a_generated_column_changes_its_type_in_place(rig: Rig, kind: str) -> None:
    """Its expression unchanged, a generated column's type, nullability and comment change by
    MODIFY, as a normal column's do."""
    on(rig, ["s1", "s2", "s3"], f"ALTER TABLE {{t}} ADD COLUMN g INT AS (a + 1) {kind}")
    for suffix in ("", " COMMENT 'x'"):  # a type waits for the last shard, a comment does not
        sent = []
        for shard in ("s1", "s2", "s3"):
            sql = f"ALTER TABLE {rig.tables[shard]} MODIFY g BIGINT AS (a + 1) {kind}{suffix}"
            sent += rig.ddl(shard, sql).downstream
        assert not rig.group.paused
        assert sent and all("MODIFY" in sql for sql in sent), sent
    rig.verify()


def test_a_shard_added_with_a_conflicting_schema_waits(rig: Rig) -> None:
    create = "CREATE TABLE tbl4 (id INT NOT NULL, a DATETIME NOT NULL, PRIMARY KEY (id))"
    rig.run(create)
    rig.tables["s4"] = "tbl4"
    out = rig.group.add_shard("s4", create)
    assert out.conflict is not None and rig.group.paused == {"s4"}
    rig.verify()
    out = rig.ddl("s4", "ALTER TABLE tbl4 MODIFY a INT NOT NULL")
    assert out.resumed == {"s4"}


# --- bad input --------------------------------------------------------------------------------


def test_bad_input_changes_nothing(rig: Rig) -> None:
    g = rig.group
    before = (g.joined, [g.schema(s) for s in g.shards])
    with pytest.raises(DDLError):
        g.apply("s1", "ALTER TABLE tbl1 DROP COLUMN nope")
    with pytest.raises(DDLError):
        g.apply("s1", "ALTER TABLE tbl1 ADD COLUMN c INT; ALTER TABLE tbl1 ADD COLUMN c INT")
    with pytest.raises(NoSuchTableError):
        g.apply("s1", "ALTER TABLE tbl2 ADD COLUMN c INT")
    with pytest.raises(NoSuchTableError):
        g.apply("nope", "ALTER TABLE tbl1 ADD COLUMN c INT")
    with pytest.raises(UnsupportedDDLError):
        g.apply("s1", "GRANT ALL ON *.* TO x")
    with pytest.raises(DDLError):
        g.apply("s1", "ALTER TABLE tbl1 ADD COLUMN")
    assert (g.joined, [g.schema(s) for s in g.shards]) == before


def test_initial_schemas_that_do_not_join() -> None:
    with pytest.raises(JoinConflictError) as err:
        ShardGroup("t", {"a": "CREATE TABLE x (c INT)", "b": "CREATE TABLE y (c DATE)"})
    assert err.value.column == "c"


# --- hostile identifiers ----------------------------------------------------------------------

HOSTILE = ["a`b", "x;y", "'q'", '"dq"', "a b", "名前", "drop table t", "--", "select"]


def test_hostile_identifiers(mdb: Any) -> None:
    from tests.support.mariadb import quote

    cols = ", ".join(f"{quote(n)} INT" for n in HOSTILE)
    target = "t`; DROP TABLE x; --"
    shard_sql = {
        f"s{i}": f"CREATE TABLE {quote(f'up`{i} x;')} (id INT NOT NULL PRIMARY KEY, {cols})"
        for i in (1, 2)
    }
    rig = Rig(mdb, shard_sql, target=target)
    for name in HOSTILE[:4]:
        new = name + "'`2"
        for s in ("s1", "s2"):
            table = quote(rig.tables[s])
            rig.ddl(s, f"ALTER TABLE {table} ADD COLUMN {quote(new)} INT NOT NULL")
            rig.ddl(s, f"ALTER TABLE {table} ADD INDEX {quote('i ' + new)} ({quote(new)})")
        rig.ddl(
            "s1",
            f"ALTER TABLE {quote(rig.tables['s1'])} RENAME COLUMN {quote(name)} TO {quote(name + '_r;')}",
        )
    with rig.conn.cursor() as cur:
        cur.execute("SHOW TABLES")
        tables = sorted(row[0] for row in cur.fetchall())
    assert tables == sorted([target, *rig.tables.values()])
    names = set(rig.live(target).column_names)
    assert {n + "'`2" for n in HOSTILE[:4]} <= names
    assert {n + "_r;" for n in HOSTILE[:4]} <= names


def test_a_counter_joins_only_with_its_key_on_every_shard(rig: Rig) -> None:
    """An AUTO_INCREMENT column without its key anywhere in the target is refused by the
    server: the shard adding it waits (a conflict) until every shard has column and key, then
    both reach the target in one statement; dropping goes the same way."""
    add = "ALTER TABLE {t} ADD COLUMN n INT UNIQUE AUTO_INCREMENT"
    for shard in ("s1", "s2"):
        out = rig.ddl(shard, add.format(t=rig.tables[shard]))
        assert out.downstream == [] and out.conflict is not None
        assert out.conflict.column == "n" and "AUTO_INCREMENT" in out.conflict.message
    assert rig.group.paused == {"s1", "s2"}
    last = rig.ddl("s3", add.format(t=rig.tables["s3"]))
    assert last.conflict is None and last.resumed == {"s1", "s2"}
    assert last.downstream == [
        "ALTER TABLE `t` ADD COLUMN `n` INT NOT NULL AUTO_INCREMENT, ADD UNIQUE `n` (`n`)"
    ]
    drop = "ALTER TABLE {t} DROP COLUMN n"
    for shard in ("s2", "s3"):
        assert rig.ddl(shard, drop.format(t=rig.tables[shard])).conflict is not None
    out = rig.ddl("s1", drop.format(t=rig.tables["s1"]))
    assert out.downstream == ["ALTER TABLE `t` DROP INDEX `n`, DROP COLUMN `n`"]
    assert rig.group.paused == frozenset()


def test_a_database_default_charset_is_known_before_it_joins(mdb: Any) -> None:
    """A column that follows the database default (utf8mb4 here) once joined with a shard's
    utf8mb3 column as utf8mb3: the first shard's 4-byte characters were refused downstream.
    Unknown, the default joins with nothing narrower; known, it joins as the charset it is."""
    a = "CREATE TABLE sa (id INT PRIMARY KEY, v VARCHAR(5))"
    b = "CREATE TABLE sb (id INT PRIMARY KEY, v VARCHAR(5) CHARACTER SET utf8)"
    with pytest.raises(JoinConflictError, match="database default"):
        ShardGroup("t", {"s1": a, "s2": b})
    with mdb.cursor() as cur:
        cur.execute("SELECT @@character_set_database, @@collation_database")
        charset, collation = cur.fetchone()
        g = ShardGroup("t", {"s1": a, "s2": b}, charset=charset, collation=collation)
        cur.execute(a)
        cur.execute(g.joined.to_sql())
        for table in ("sa", "t"):  # a row the first shard takes, the target takes too
            cur.execute(f"INSERT INTO {table} VALUES (1, %s)", ("😀🎉",))
        cur.execute("SELECT v FROM t")
        assert cur.fetchone() == ("😀🎉",)


def test_a_group_reads_its_shards_ddl_by_their_servers_flavor() -> None:
    """``ShardGroup(flavor="mariadb")`` reads a shard's DDL text by MariaDB's own ways
    (mvdd.ddl.rules.MARIADB; each pinned against the server in test_mariadb_server.py): a
    column's own REFERENCES makes a key, a DEFAULT of PI() alone is its value. Without a
    flavor, MySQL's: no key, the expression kept."""
    create = {"s1": "CREATE TABLE t1 (id INT PRIMARY KEY, a INT)"}
    alter = "ALTER TABLE t1 ADD p INT REFERENCES par (id), ADD r DOUBLE DEFAULT (PI())"
    mariadb, unknown = ShardGroup("t", create, flavor="mariadb"), ShardGroup("t", create)
    for group in (mariadb, unknown):
        group.apply("s1", alter)
    made, kept = mariadb.schema("s1"), unknown.schema("s1")
    assert [i.name for i in made.indexes] == ["PRIMARY", "p"] and made.column("r").default == (
        3.141592653589793
    )
    assert [i.name for i in kept.indexes] == ["PRIMARY"] and str(kept.column("r").default) == (
        "PI()"
    )
    assert mariadb.joined.column("r").default == 3.141592653589793
    with pytest.raises(DDLError, match="flavor must be one of"):
        ShardGroup("t", create, flavor="oracle")


def _calls(group: ShardGroup, ddl: list[tuple[str, str]]) -> int:
    """The Python functions (and C functions) called while ``group`` applies ``ddl``."""
    count = 0

    def profile(frame: Any, event: str, arg: Any) -> None:
        nonlocal count
        count += event in ("call", "c_call")

    sys.setprofile(profile)
    try:
        for shard, sql in ddl:
            group.apply(shard, sql)
    finally:
        sys.setprofile(None)
    return count


def test_a_ddl_calls_as_much_whatever_the_number_of_shards() -> None:
    """One shard's DDL visits the elements it touches and the shards paused, never the group's
    every shard: the same statements (a column the others lack added, widened and dropped; a
    column widened past the others' and narrowed back; a change the join refuses, which pauses
    the shard, and the one that resumes it) make as many calls in a group of 512 shards as in
    one of 8, within a percent (the module's memos of values, which both groups share, may
    hold a value for one and not the other: some tens of calls). A loop over the shards would
    cost a call or more for each shard and statement. (The time: ``benchmarks/shard_bench.py``.)"""
    runs = []
    for n in (8, 512):
        group = ShardGroup("merged", {f"s{i:03}": BASE.format(t=f"tbl{i:03}") for i in range(n)})
        first, middle = "000", f"{n // 2:03}"  # (names of one length: their tokens alike)
        stream = [
            (first, "ADD COLUMN extra INT NOT NULL"),
            (first, "MODIFY extra BIGINT NOT NULL"),
            (middle, "MODIFY a BIGINT NOT NULL"),
            (first, "MODIFY b INT"),  # (no join of a VARCHAR and an INT: paused)
            (first, "MODIFY b VARCHAR(10)"),  # (resumed)
            (first, "DROP COLUMN extra"),
            (middle, "MODIFY a INT NOT NULL"),
        ]
        runs.append((group, [(f"s{i}", f"ALTER TABLE tbl{i} {change}") for i, change in stream]))
    for _ in range(2):  # (the memos warmed, by both groups in turn; each group comes back)
        for group, ddl in runs:
            _calls(group, ddl)
            assert group.paused == frozenset() and group.joined.find_column("extra") is None
    few, many = (_calls(group, ddl) for group, ddl in runs)
    assert many <= 1.01 * few, (few, many)
