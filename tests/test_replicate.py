"""``mvdd replicate`` end to end on real servers: two upstream MariaDB servers with binary logs,
one downstream; the oracle is the upstream tables themselves (every row by key, every column,
counts) and the group's join (the target's schema)."""

from __future__ import annotations

import contextlib
import json
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pymysql
import pytest

from mvdd import SourceConfigError
from mvdd.ddl.dml import select_all
from mvdd.replicate import Replicator
from mvdd.replicate.merge import ReplicationError
from mvdd.replicate.verify import verify
from tests.conftest import private_server
from tests.support.binlog import promoted
from tests.support.mariadb import MariaDB
from tests.support.replication import (
    Servers,
    Setup,
    applied,
    assert_replicated,
    gtid_binlog_pos,
    setup,
    texts,
    verdict_of,
)

pytestmark = pytest.mark.mariadb

ROOT = Path(__file__).resolve().parent.parent
CREATE = (
    "CREATE TABLE {t} (id BIGINT NOT NULL, customer VARCHAR(32) NOT NULL, amount DECIMAL(10,2) "
    "NOT NULL DEFAULT 0.00, status ENUM('new','paid') NOT NULL DEFAULT 'new', PRIMARY KEY (id))"
)
SHARDS = {"up1": ["orders_01", "orders_02"], "up2": ["orders_03"]}


@pytest.fixture
def s(servers: Servers, tmp_path: Path) -> Any:
    with setup(servers, tmp_path) as found:
        for server, tables in SHARDS.items():
            found.run(server, *(CREATE.format(t=t) for t in tables))
        yield found


def rows(
    s: Setup, server: str, table: str, start: int, n: int, money: str = "amount", **extra: Any
) -> None:
    names = ["id", "customer", money, *extra]
    values = []
    for i in range(start, start + n):
        values.append(
            "("
            + ", ".join([str(i), f"'c{i}'", f"{i % 97}.5", *(str(v) for v in extra.values())])
            + ")"
        )
    s.run(server, f"INSERT INTO {table} ({', '.join(names)}) VALUES {', '.join(values)}")


def _target_values(s: Setup, column: str) -> dict[int, Any]:
    """A column of the target's rows, by id."""
    with s.servers.down.connect(s.dw) as conn, conn.cursor() as cur:
        cur.execute(select_all(s.target, ["id", column]))
        return dict(cur.fetchall())


def _as_upstream(s: Setup, r: Any, columns: str, expected: list[tuple[Any, ...]]) -> None:
    """The target's rows of ``columns`` (comma-separated), as the servers print them, are
    ``orders_01``'s upstream, which are ``expected``; and the target holds exactly the
    upstream rows."""
    down = texts(s.servers.down, s.dw, "orders", columns)
    assert down == texts(s.servers.up1, s.db, "orders_01", columns) == expected
    assert_replicated(s, r)


def every(s: Setup, sql: str, shards: dict[str, list[str]] = SHARDS) -> None:
    for server, tables in shards.items():
        for t in tables:
            s.run(server, sql.format(t=t))


def test_end_to_end_through_schema_changes_and_a_conflict(s: Setup) -> None:
    rows(s, "up1", "orders_01", 1, 300)
    rows(s, "up1", "orders_02", 10_001, 200)
    rows(s, "up2", "orders_03", 20_001, 250)
    r = s.replicator()
    status = r.run()
    assert assert_replicated(s, r) == {
        "up1/" + s.db + ".orders_01": 300,
        "up1/" + s.db + ".orders_02": 200,
        "up2/" + s.db + ".orders_03": 250,
    }
    assert all(not v["paused"] for v in status["shards"].values())

    # phase 1: shards change at different moments, with updates and deletes between
    s.run("up1", "ALTER TABLE orders_01 ADD COLUMN note VARCHAR(20) NULL")
    rows(s, "up1", "orders_01", 301, 50, note="'n'")
    s.run("up1", "UPDATE orders_01 SET status = 'paid' WHERE id % 7 = 0")
    s.run("up2", "DELETE FROM orders_03 WHERE id % 5 = 0")
    s.run("up2", "ALTER TABLE orders_03 MODIFY customer VARCHAR(64) NOT NULL")
    rows(s, "up2", "orders_03", 20_251, 40)
    s.run("up1", "ALTER TABLE orders_02 ADD COLUMN channel VARCHAR(8) NOT NULL DEFAULT 'web'")
    rows(s, "up1", "orders_02", 10_201, 30)
    r.run()
    assert_replicated(s, r)

    # phase 2: the others catch up; a rename goes round every shard
    s.run("up1", "ALTER TABLE orders_02 ADD COLUMN note VARCHAR(20) NULL")
    s.run("up2", "ALTER TABLE orders_03 ADD COLUMN note VARCHAR(20) NULL")
    every(s, "ALTER TABLE {t} RENAME COLUMN amount TO total")
    s.run("up2", "UPDATE orders_03 SET total = total + 1 WHERE id % 3 = 0")
    r = s.replicator()  # a new process would do the same: the state directory knows
    r.run()
    assert_replicated(s, r)
    assert r.group.joined.find_column("total") is not None
    assert r.group.joined.find_column("amount") is None

    # phase 3: a conflict pauses a shard (its rows wait in the state directory) ...
    # (the sources are read side by side: which DDL the group sees first is fixed by a run)
    s.run("up2", "ALTER TABLE orders_03 ADD COLUMN discount INT NOT NULL DEFAULT 0")
    r.run()
    s.run("up1", "ALTER TABLE orders_01 ADD COLUMN discount DECIMAL(5,2) NOT NULL DEFAULT 0.00")
    rows(s, "up1", "orders_01", 400, 20, money="total", discount="1.25")
    s.run("up1", "UPDATE orders_01 SET discount = 2.5 WHERE id = 401")
    s.run("up1", "DELETE FROM orders_01 WHERE id = 402")
    status = r.run()
    paused = {k for k, v in status["shards"].items() if v["paused"]}
    assert paused == {f"up1/{s.db}.orders_01"}
    assert status["shards"][f"up1/{s.db}.orders_01"]["held"] == 22
    assert "discount" in status["shards"][f"up1/{s.db}.orders_01"]["reason"]
    assert_replicated(s, r)
    # ... and its resolution releases them, upgraded
    s.run("up2", "ALTER TABLE orders_03 MODIFY discount DECIMAL(5,2) NOT NULL DEFAULT 0.00")
    s.run("up1", "ALTER TABLE orders_02 ADD COLUMN discount DECIMAL(5,2) NOT NULL DEFAULT 0.00")
    status = r.run()
    assert not any(v["paused"] for v in status["shards"].values())
    assert assert_replicated(s, r)[f"up1/{s.db}.orders_01"] == 350 + 19


def test_held_rows_meet_a_not_null_column_added_without_a_default(s: Setup) -> None:
    """A paused shard's held rows, released after its table gained a NOT NULL column without
    a default (MariaDB takes it and gives the rows it holds the type's zero value: 0, '', the
    first member), reach the target as the upstream holds them."""
    rows(s, "up1", "orders_01", 1, 10)
    r = s.replicator()
    r.run()
    s.run("up2", "ALTER TABLE orders_03 ADD COLUMN discount INT NOT NULL DEFAULT 0")
    r.run()
    s.run("up1", "ALTER TABLE orders_01 ADD COLUMN discount DECIMAL(5,2) NOT NULL DEFAULT 0.00")
    rows(s, "up1", "orders_01", 100, 5, discount="1.25")
    status = r.run()
    assert status["shards"][f"up1/{s.db}.orders_01"]["held"] == 5
    added = (
        "ADD COLUMN q INT NOT NULL, ADD COLUMN w VARCHAR(4) NOT NULL, "
        "ADD COLUMN k ENUM('a','b') NOT NULL"
    )
    s.run("up1", f"ALTER TABLE orders_01 {added}")
    rows(s, "up1", "orders_01", 200, 3, discount="2.5", q="7", w="'x'", k="'b'")
    every(s, f"ALTER TABLE {{t}} {added}", {"up1": ["orders_02"], "up2": ["orders_03"]})
    s.run("up2", "ALTER TABLE orders_03 MODIFY discount DECIMAL(5,2) NOT NULL DEFAULT 0.00")
    s.run("up1", "ALTER TABLE orders_02 ADD COLUMN discount DECIMAL(5,2) NOT NULL DEFAULT 0.00")
    status = r.run()
    assert not any(v["paused"] for v in status["shards"].values())
    assert assert_replicated(s, r)[f"up1/{s.db}.orders_01"] == 18
    assert _target_values(s, "w")[100] == "" and _target_values(s, "k")[100] == "a"


def test_rows_held_in_a_second_pause_survive_the_next_start(s: Setup) -> None:
    """A shard paused, resumed (its held rows released, the target's checkpoint naming the
    last of them) and paused again in one run: the rows of the second pause are still held
    when the next run starts, and reach the target when it resumes. Their numbers began
    again after the release, and the start forgot them as rows the target had. Found by a
    state machine of random DDL and DML on the shards."""
    r = s.replicator()
    s.run("up1", "ALTER TABLE orders_01 ADD COLUMN note INT DEFAULT 4")
    r.run()  # (orders_01's `note` first: the pauses below are all orders_03's, in its order)
    s.run("up2", "ALTER TABLE orders_03 MODIFY amount VARCHAR(12) NOT NULL DEFAULT '0'")
    rows(s, "up2", "orders_03", 1, 2)
    s.run("up2", "ALTER TABLE orders_03 MODIFY amount DECIMAL(10,2) NOT NULL DEFAULT 0.00")
    s.run("up2", "ALTER TABLE orders_03 ADD COLUMN note DATE")
    rows(s, "up2", "orders_03", 3, 3, note="'2021-05-10'")
    status = r.run()
    assert status["shards"][f"up2/{s.db}.orders_03"]["held"] == 3
    s.run("up2", "ALTER TABLE orders_03 DROP COLUMN note")
    r = s.replicator()  # (a new process: it starts from the state directory)
    status = r.run()
    assert not any(v["paused"] for v in status["shards"].values())
    assert assert_replicated(s, r)[f"up2/{s.db}.orders_03"] == 5


def test_held_rows_a_read_again_already_brought_are_released_in_safe_mode(s: Setup) -> None:
    """A shard read again (a tool's copy swapped in: rows came without row events) at a
    snapshot taken while its reader was behind: the snapshot holds rows the shard wrote in a
    pause the reader meets later, which holds them. Released when the shard resumed, they were
    inserted again ("Duplicate entry"), where a row of the binlog up to that snapshot is
    applied in safe mode. Found by a random DDL/DML harness."""
    rows(s, "up1", "orders_01", 1, 3)
    r = s.replicator()
    r.run()
    s.run(
        "up1",
        "CREATE TABLE _orders_01_gho LIKE orders_01",
        "INSERT INTO _orders_01_gho SELECT * FROM orders_01",
        "RENAME TABLE orders_01 TO _orders_01_del, _orders_01_gho TO orders_01",
        "DROP TABLE _orders_01_del",
        "ALTER TABLE orders_01 ALTER COLUMN amount SET DEFAULT 7.00",  # paused: not the others'
    )
    rows(s, "up1", "orders_01", 4, 2)  # (held)
    s.run("up1", "UPDATE orders_01 SET customer = 'x' WHERE id = 5")
    s.run("up1", "ALTER TABLE orders_01 ALTER COLUMN amount SET DEFAULT 0.00")  # resumed
    status = r.run()
    assert not any(v["paused"] for v in status["shards"].values())
    assert assert_replicated(s, r)[f"up1/{s.db}.orders_01"] == 5


def test_held_values_later_changes_of_type_converted_reach_the_target_as_upstream(
    s: Setup,
) -> None:
    """A paused shard's column changes type twice more before it resumes, in a session
    outside strict mode: DOUBLE, then DATETIME (the server makes each of these numbers the
    zero date), then VARCHAR again. Its held rows, decoded as DOUBLEs, reach the target as
    the upstream server converted them, by the downstream server's conversion through the
    same types. mvdd converted them itself, in one step from DOUBLE to VARCHAR ('611.25'),
    passing over the DATETIME; where the DATETIME was the last type, it read a number as an
    INSERT reads one (611.25 the 11th of June 2000) and had no date for -284.25, which
    stopped the replicator for good. Found by a state machine of random DDL and DML on the
    shards."""
    r = s.replicator()
    r.run()
    loose = "SET SESSION sql_mode = ''"
    s.run("up2", loose, "ALTER TABLE orders_03 MODIFY customer DOUBLE NOT NULL")
    s.run(
        "up2",
        "INSERT INTO orders_03 (id, customer) VALUES (1, 611.25), (2, -284.25), (3, 20211231.5)",
    )
    status = r.run()
    assert status["shards"][f"up2/{s.db}.orders_03"]["held"] == 3
    s.run("up2", loose, "ALTER TABLE orders_03 MODIFY customer DATETIME NOT NULL")
    s.run("up2", loose, "ALTER TABLE orders_03 MODIFY customer VARCHAR(32) NOT NULL")
    status = r.run()
    assert not any(v["paused"] for v in status["shards"].values())
    assert assert_replicated(s, r)[f"up2/{s.db}.orders_03"] == 3
    assert texts(s.servers.down, s.dw, "orders", "customer") == [
        (i, "0000-00-00 00:00:00") for i in (1, 2, 3)
    ]


def test_held_enum_error_values_are_converted_as_upstream(s: Setup) -> None:
    """A paused shard's column made an ENUM its values are not members of (each the ENUM's
    error value, the empty text), its rows then updated (held, their images holding the error
    value), and the column made text again: the held values are converted by the downstream
    server, which takes the error value only outside strict mode, where it was refused."""
    rows(s, "up2", "orders_03", 1, 3)
    r = s.replicator()
    r.run()
    loose = "SET SESSION sql_mode = ''"
    s.run("up2", loose, "ALTER TABLE orders_03 MODIFY customer ENUM('x','y') NOT NULL")
    s.run("up2", "UPDATE orders_03 SET amount = 5 WHERE id < 3")
    assert r.run()["shards"][f"up2/{s.db}.orders_03"]["held"] == 2
    s.run("up2", loose, "ALTER TABLE orders_03 MODIFY customer VARCHAR(32) NOT NULL")
    assert not any(v["paused"] for v in r.run()["shards"].values())
    assert assert_replicated(s, r)[f"up2/{s.db}.orders_03"] == 3
    assert texts(s.servers.down, s.dw, "orders", "customer") == [(i, "") for i in (1, 2, 3)]


def test_a_shards_ddl_that_changes_the_values_it_holds_reaches_its_target_rows(s: Setup) -> None:
    """A shard's own statements change the values its rows hold, with no row event, where
    the target's column stays as the other shards have it: a VARCHAR cut shorter (values cut),
    an ENUM's member dropped (its rows' values the empty error value), a column the target
    has already added with another default (its rows take this one's). The target's rows of
    that shard kept the old values; now they are read again from a snapshot, and the binlog
    from the DDL on is applied again in safe mode, writes after the DDL included. Found by a
    state machine of random DDL and DML on the shards."""
    rows(s, "up1", "orders_01", 1, 20)
    rows(s, "up1", "orders_02", 101, 5)
    s.run("up1", "UPDATE orders_01 SET status = 'paid' WHERE id % 3 = 0")
    r = s.replicator()
    r.run()
    loose = "SET SESSION sql_mode = ''"
    s.run("up1", loose, "ALTER TABLE orders_01 MODIFY customer VARCHAR(2) NOT NULL")
    s.run(
        "up1", "UPDATE orders_01 SET amount = 1 WHERE id = 3", "DELETE FROM orders_01 WHERE id = 4"
    )
    s.run("up1", loose, "ALTER TABLE orders_01 MODIFY status ENUM('new') NOT NULL DEFAULT 'new'")
    s.run("up1", "ALTER TABLE orders_02 ADD COLUMN note VARCHAR(8) NOT NULL")
    r.run()
    assert assert_replicated(s, r)[f"up1/{s.db}.orders_01"] == 19
    s.run("up1", "ALTER TABLE orders_01 ADD COLUMN note VARCHAR(8) NULL")
    s.run("up1", "INSERT INTO orders_01 (id, customer, note) VALUES (21, 'x', 'n'), (22, 'y', 'n')")
    s.run("up1", "UPDATE orders_01 SET amount = 2 WHERE id = 5")
    r = s.replicator()
    assert not any(v["paused"] for v in r.run()["shards"].values())
    assert assert_replicated(s, r)[f"up1/{s.db}.orders_01"] == 21
    assert _target_values(s, "note")[1] is None and _target_values(s, "customer")[10] == "c1"


def test_a_null_written_while_a_rename_is_under_way_reaches_the_target(s: Setup) -> None:
    """Seed 000's merge: one shard renames `note` to `memo` (downstream `note` becomes `memo`,
    and `note` is added back for the others), a shard not renamed yet writes NULL and a text
    to rows it held, and the rename ends. The merge's `UPDATE … SET memo = note WHERE note IS
    NOT NULL` kept `memo`'s older value where NULL was written; the shards not renamed now
    write both columns, so the target holds the upstream's rows while the rename is under way
    (verify compares them with `memo`) and after it. Found by a state machine of random DDL
    and DML on the shards."""
    every(s, "ALTER TABLE {t} ADD COLUMN note VARCHAR(20) NULL")
    rows(s, "up1", "orders_01", 1, 3, note="'old'")
    rows(s, "up2", "orders_03", 101, 2, note="'old'")
    r = s.replicator()
    r.run()
    s.run("up2", "ALTER TABLE orders_03 RENAME COLUMN note TO memo")
    r.run()
    assert_replicated(s, r)
    s.run("up1", "UPDATE orders_01 SET note = NULL WHERE id = 1")
    s.run("up1", "UPDATE orders_01 SET note = 'new' WHERE id = 2")
    rows(s, "up1", "orders_01", 4, 1, note="'n'")
    r.run()
    assert_replicated(s, r)
    s.run(
        "up1", *(f"ALTER TABLE {t} RENAME COLUMN note TO memo" for t in ("orders_01", "orders_02"))
    )
    r.run()
    assert r.group.joined.find_column("note") is None
    assert assert_replicated(s, r)[f"up1/{s.db}.orders_01"] == 4
    assert _target_values(s, "memo") == {
        1: None,
        2: "new",
        3: "old",
        4: "n",
        101: "old",
        102: "old",
    }


def test_a_value_written_after_its_shard_renamed_survives_the_merge(s: Setup) -> None:
    """While `note` is being renamed to `memo` (orders_03 renamed first), orders_01 writes a
    row (to `note` and `memo` downstream), renames, and updates the row (`memo` alone); the
    merge that ended the rename when orders_02 renamed last ran `UPDATE … SET memo = note`,
    putting the row's older value over the newer one. The replicator writes both columns
    while a rename is under way, so `memo` holds every row's latest value and its group emits
    no such UPDATE (`ShardGroup(dual_writes=True)`)."""
    every(s, "ALTER TABLE {t} ADD COLUMN note VARCHAR(20) NULL")
    r = s.replicator()
    r.run()
    s.run("up2", "ALTER TABLE orders_03 RENAME COLUMN note TO memo")
    r.run()
    rows(s, "up1", "orders_01", 1, 2, note="'old'")
    r.run()
    s.run("up1", "ALTER TABLE orders_01 RENAME COLUMN note TO memo")
    s.run("up1", "UPDATE orders_01 SET memo = 'new' WHERE id = 1")
    r.run()
    assert_replicated(s, r)
    s.run("up1", "ALTER TABLE orders_02 RENAME COLUMN note TO memo")
    r.run()
    assert r.group.joined.find_column("note") is None
    assert assert_replicated(s, r)[f"up1/{s.db}.orders_01"] == 2
    assert _target_values(s, "memo") == {1: "new", 2: "old"}


def test_a_rename_whose_column_narrowed_meanwhile_ends_with_the_upstream_values(s: Setup) -> None:
    """One shard renames `qty` to `n` and then narrows `n` to VARCHAR(3); the others write
    `qty` meanwhile and rename it the same way at last. The merge that ended the rename copied
    their `qty` values into `n` (`UPDATE … SET n = qty`), where 12345 does not fit: in strict
    mode the downstream refused it and the replicator stopped for good. Now `n` stays as wide
    as their `qty` while the rename is under way (it joins both), holds their values (they
    write both), no UPDATE ends the merge, and the shards' rows, whose own statement cut
    them, are read again."""
    every(s, "ALTER TABLE {t} ADD COLUMN qty INT NULL")
    rows(s, "up1", "orders_01", 1, 2, qty="7")
    r = s.replicator()
    r.run()
    loose = "SET SESSION sql_mode = ''"
    s.run("up2", loose, "ALTER TABLE orders_03 CHANGE qty n INT NULL")
    s.run("up2", loose, "ALTER TABLE orders_03 MODIFY n VARCHAR(3) NULL")
    r.run()
    s.run("up1", "UPDATE orders_01 SET qty = 12345 WHERE id = 2")
    r.run()
    s.run(
        "up1",
        loose,
        *(f"ALTER TABLE {t} CHANGE qty n VARCHAR(3) NULL" for t in ("orders_01", "orders_02")),
    )
    r.run()
    assert r.group.joined.find_column("qty") is None
    assert assert_replicated(s, r)[f"up1/{s.db}.orders_01"] == 2
    assert _target_values(s, "n") == {1: "7", 2: "123"}


def test_a_renamed_column_changed_over_the_others_rows_pauses_its_shard(s: Setup) -> None:
    """One shard renames `a` to `c` (once `c`, another shard's column, is gone), and then
    makes `c` a DATETIME while the others still write `a`, whose values `c` holds downstream
    (seed 000's merge renamed the column that held every row). The group joined `c` over the
    renamed shard alone and emitted `MODIFY c DATETIME` over the others' INTs: their values
    were zeroed, and verify found their `a` NULL downstream. Now `c` joins the others' `a`
    too while the rename is under way: INT and DATETIME have no join, so the shard pauses
    (naming the others' column as theirs) until they make the same change. Found by a state
    machine of random DDL and DML on three shards."""
    loose = "SET SESSION sql_mode = ''"
    every(s, "ALTER TABLE {t} ADD COLUMN a INT NULL")
    rows(s, "up1", "orders_01", 1, 2, a="5")
    rows(s, "up1", "orders_02", 101, 2, a="6")
    s.run("up2", "ALTER TABLE orders_03 ADD COLUMN c INT NOT NULL")
    rows(s, "up2", "orders_03", 201, 2, a="7", c="8")
    r = s.replicator()
    r.run()
    s.run("up2", "ALTER TABLE orders_03 DROP COLUMN c")
    s.run("up1", "ALTER TABLE orders_02 RENAME COLUMN a TO c")
    r.run()
    s.run("up1", loose, "ALTER TABLE orders_02 MODIFY c DATETIME NULL")
    rows(s, "up1", "orders_02", 103, 1, c="'2026-12-06 10:00:00'")
    shards = r.run()["shards"]
    paused = f"up1/{s.db}.orders_02"
    assert [name for name, v in shards.items() if v["paused"]] == [paused]
    assert re.search(r"orders_0[13]` \(as `a`\)", shards[paused]["reason"]), shards[paused]
    assert _target_values(s, "c") == {1: 5, 2: 5, 101: 6, 102: 6, 201: 7, 202: 7}
    for server, table in (("up1", "orders_01"), ("up2", "orders_03")):
        s.run(server, loose, f"ALTER TABLE {table} CHANGE a c DATETIME NULL")
    status = r.run()
    assert not any(v["paused"] for v in status["shards"].values())
    assert r.group.joined.find_column("a") is None
    assert assert_replicated(s, r)[paused] == 3


def test_a_column_the_shards_define_differently_is_renamed_without_a_pause(s: Setup) -> None:
    """`a` is a BIGINT on orders_03 and an INT on the others: a rename of it once paused the
    renaming shard until every shard had renamed. It merges now, the renamed column as wide
    as orders_03's BIGINT values, which it holds while the others rename."""
    every(s, "ALTER TABLE {t} ADD COLUMN a INT NULL")
    s.run("up2", "ALTER TABLE orders_03 MODIFY a BIGINT NULL")
    rows(s, "up1", "orders_01", 1, 2, a="5")
    rows(s, "up2", "orders_03", 201, 2, a=str(2**40))
    r = s.replicator()
    r.run()
    s.run("up1", "ALTER TABLE orders_01 RENAME COLUMN a TO z")
    rows(s, "up1", "orders_01", 3, 1, z="-6")
    rows(s, "up2", "orders_03", 203, 1, a=str(-(2**41)))
    status = r.run()
    assert not any(v["paused"] for v in status["shards"].values()), status["shards"]
    assert _target_values(s, "z") == {1: 5, 2: 5, 3: -6, 201: 2**40, 202: 2**40, 203: -(2**41)}
    assert_replicated(s, r)
    s.run("up2", "ALTER TABLE orders_03 RENAME COLUMN a TO z")
    s.run("up1", "ALTER TABLE orders_02 RENAME COLUMN a TO z")
    rows(s, "up2", "orders_03", 204, 1, z=str(2**42))
    status = r.run()
    assert not any(v["paused"] for v in status["shards"].values()), status["shards"]
    assert r.group.joined.find_column("a") is None
    assert str(r.group.joined.column("z").type.kind.name) == "BIGINT"
    assert assert_replicated(s, r)[f"up2/{s.db}.orders_03"] == 4


def test_a_rename_whose_column_gave_way_to_a_generated_one_keeps_the_values(s: Setup) -> None:
    """orders_02 renames `a` to `b` (the target's `b` holds every shard's values from then
    on), renames it on to `c` (a conflict: paused), adds a generated `b` and drops `c`. Its
    generated `b` holds none of the renamed values: the rename ends as if it went back, the
    target's `b` renamed back to `a`. It once counted as the renamed column: the target's `b`
    was dropped, with the other shards' values, and added anew (their `a` NULL downstream).
    Found by a random DDL/DML harness."""
    every(s, "ALTER TABLE {t} ADD COLUMN a INT NULL")
    rows(s, "up1", "orders_01", 1, 2, a="5")
    r = s.replicator()
    r.run()
    loose = "SET SESSION sql_mode = ''"
    s.run("up1", loose, "ALTER TABLE orders_02 RENAME COLUMN a TO b")
    s.run("up1", loose, "ALTER TABLE orders_02 CHANGE b c FLOAT")
    s.run("up1", loose, "ALTER TABLE orders_02 ADD COLUMN b INT AS (id % 5) VIRTUAL")
    rows(s, "up1", "orders_01", 3, 1, a="0")
    s.run("up1", loose, "ALTER TABLE orders_02 DROP COLUMN c")
    status = r.run()
    assert not any(v["paused"] for v in status["shards"].values()), status["shards"]
    assert r.group.joined.find_column("b") is None
    assert _target_values(s, "a") == {1: 5, 2: 5, 3: 0}
    assert_replicated(s, r)


def test_a_column_a_shard_drops_and_adds_again_takes_its_new_values(s: Setup) -> None:
    """orders_01 drops `a`, which the other shards keep (so does the target, with orders_01's
    values in its rows), and adds it again: upstream its rows hold NULL, the added column's
    value, which the target's `a` has for its default too, so the rows were not read again,
    and they kept their old values downstream. Found by the state machine of random DDL and
    DML with a killed replicator."""
    every(s, "ALTER TABLE {t} ADD COLUMN a INT NULL")
    rows(s, "up1", "orders_01", 1, 2, a="5")
    rows(s, "up2", "orders_03", 201, 1, a="7")
    r = s.replicator()
    r.run()
    s.run("up1", "ALTER TABLE orders_01 DROP COLUMN a")
    r.run()
    s.run("up1", "ALTER TABLE orders_01 ADD COLUMN a INT NULL")
    rows(s, "up1", "orders_01", 3, 1, a="6")
    r.run()
    assert _target_values(s, "a") == {1: None, 2: None, 3: 6, 201: 7}
    assert assert_replicated(s, r)[f"up1/{s.db}.orders_01"] == 3


@pytest.mark.parametrize("first", ["plain", "generated", "renamed"])
@pytest.mark.parametrize("how", ["VIRTUAL", "PERSISTENT"])
def test_a_generated_column_whose_target_column_is_plain_reaches_the_target(
    s: Setup, tmp_path: Path, how: str, first: str
) -> None:
    """orders_01 adds `k` as a plain column, orders_03 as a generated one (`id % 7`): the
    target's `k` is plain (it holds orders_01's values), and orders_03's rows there must hold
    the values its server computed. Its rows from before its ADD took theirs with no row
    event, and copies and reads left generated columns to the server: the target held NULL
    for them. Now the shard is read again after such a DDL, and a copy reads such a column
    too. Where orders_03's ADD came first (``first="generated"``: a generated column alone,
    which the join counts as absent, so the target had no `k`), its column fed no column
    downstream at all once orders_01 added its plain one: now it does, and the shard is read
    again. Likewise where orders_03's generated column took the name `k` by a rename
    (``first="renamed"``), which counted as no change of its values. Found by a state machine
    of random DDL and DML on three shards."""
    rows(s, "up2", "orders_03", 201, 3)
    r = s.replicator()
    r.run()
    plain = "ALTER TABLE orders_01 ADD COLUMN k INT NULL"
    if first in ("plain", "renamed"):
        s.run("up1", plain)
        r.run()
    named = "g" if first == "renamed" else "k"
    s.run("up2", f"ALTER TABLE orders_03 ADD COLUMN {named} INT AS (id % 7) {how}")
    rows(s, "up2", "orders_03", 204, 1)
    r.run()
    if first == "generated":  # the target's `k` is computed, then a plain one
        s.run("up1", plain)
    if first == "renamed":  # its values feed no column downstream, then the plain `k`
        s.run("up2", "ALTER TABLE orders_03 RENAME COLUMN g TO k")
    rows(s, "up1", "orders_01", 1, 2, k="40")
    r.run()
    assert assert_replicated(s, r)[f"up2/{s.db}.orders_03"] == 4
    expected = {1: 40, 2: 40, **{i: i % 7 for i in range(201, 205)}}
    assert _target_values(s, "k") == expected
    # a first copy (into another target) reads orders_03's `k` as well
    again = attrs.evolve(s, target="orders_again", state=str(tmp_path / "again"))
    r = again.replicator()
    r.run()
    assert assert_replicated(again, r)[f"up2/{s.db}.orders_03"] == 4
    assert _target_values(again, "k") == expected


def test_a_generated_column_the_target_column_cannot_hold_stays_upstream(s: Setup) -> None:
    """orders_01's `k` is a TIMESTAMP, orders_03's a generated INT (`id % 3`): the join counts
    a generated column as absent beside a plain one, so the target's `k` is the TIMESTAMP, which
    holds no value of orders_03's. Its rows' values were written there all the same, and the
    downstream refused them (`Incorrect datetime value: '1'`): the replicator stopped for good.
    Now they reach no column downstream, as the join has it. Found by a state machine of random
    DDL and DML on three shards."""
    r = s.replicator()
    r.run()
    s.run("up1", "ALTER TABLE orders_01 ADD COLUMN k TIMESTAMP NULL")
    rows(s, "up1", "orders_01", 1, 2, k="'2026-12-06 10:00:00'")
    s.run("up2", "ALTER TABLE orders_03 ADD COLUMN k INT AS (id % 3) PERSISTENT")
    rows(s, "up2", "orders_03", 201, 2)
    r.run()
    assert r.group.joined.column("k").type.kind.name == "TIMESTAMP"
    assert assert_replicated(s, r)[f"up2/{s.db}.orders_03"] == 2
    assert _target_values(s, "k")[201] is None


def test_a_column_narrows_over_values_no_shard_holds_any_more(
    s: Setup, caplog: pytest.LogCaptureFixture
) -> None:
    """Two shards drop a column the third narrowed: the join narrows, while the target's rows
    of the first two still hold values that do not fit. Those values belong to no shard any
    more; the downstream DDL converts them as the server does outside strict mode, and says
    so, instead of stopping the replicator for good. Found by a deep run of the shard
    machine."""
    every(s, "ALTER TABLE {t} ADD COLUMN note VARCHAR(20) NULL")
    rows(s, "up1", "orders_01", 1, 10, note="'a long note'")
    rows(s, "up1", "orders_02", 101, 10, note="'a long note'")
    rows(s, "up2", "orders_03", 201, 10, note="'n'")
    r = s.replicator()
    r.run()
    s.run("up2", "ALTER TABLE orders_03 MODIFY note VARCHAR(4) NULL")
    s.run("up1", "ALTER TABLE orders_01 DROP COLUMN note", "ALTER TABLE orders_02 DROP COLUMN note")
    rows(s, "up1", "orders_01", 11, 5)
    rows(s, "up2", "orders_03", 211, 5, note="'m'")
    with caplog.at_level("WARNING", logger="mvdd.replicate"):
        r.run()
    assert r.group.joined.column("note").type.length == 4
    assert assert_replicated(s, r)[f"up2/{s.db}.orders_03"] == 15
    (warned,) = [m for m in caplog.messages if "warnings running" in m]
    assert "20 warnings" in warned and "Data truncated for column 'note'" in warned
    # ... and counts them in the status, as the run returns it and as the state keeps it
    downstream = r.status()["downstream"]
    assert downstream["ddl_warnings"] == 20 and downstream["warned_statements"] == 1
    assert "MODIFY" in downstream["last_warning"]["statement"]
    assert len(downstream["last_warning"]["warnings"]) == 3
    assert s.replicator().status()["downstream"] == downstream
    r.run()  # nothing new: nothing more counted
    assert r.status()["downstream"] == downstream
    command = [sys.executable, "-m", "mvdd.cli", "status", "--state", s.state]
    said = subprocess.run([*command, "--json"], cwd=ROOT, capture_output=True, text=True)
    assert json.loads(said.stdout)["downstream"] == downstream
    said = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    assert "gave 20 warnings in 1 statement;" in " ".join(said.stdout.split()), said.stdout
    with s.servers.down.connect(s.dw) as conn, conn.cursor() as cur:
        cur.execute("SELECT DISTINCT note FROM orders WHERE id < 200 ORDER BY note")
        assert cur.fetchall() == ((None,), ("a lo",))  # the later rows of orders_01: NULL


def test_partitioned_shards_are_copied_and_followed(
    s: Setup, caplog: pytest.LogCaptureFixture
) -> None:
    """Shards partitioned by RANGE, by HASH and by KEY are copied and followed through their
    partitions' maintenance and a column added; a DROP PARTITION takes rows without row
    events: the replicator says so, naming the shard and the partitions, and the target keeps
    them (a target merging several shards does not know which rows were whose)."""
    ranges = "(PARTITION p0 VALUES LESS THAN (100), PARTITION p1 VALUES LESS THAN MAXVALUE)"
    s.run("up1", f"ALTER TABLE orders_01 PARTITION BY RANGE (id) {ranges}")
    s.run("up1", "ALTER TABLE orders_02 PARTITION BY HASH (id) PARTITIONS 3")
    s.run("up2", "ALTER TABLE orders_03 PARTITION BY KEY () PARTITIONS 2")
    rows(s, "up1", "orders_01", 1, 150)
    rows(s, "up1", "orders_02", 1001, 10)
    rows(s, "up2", "orders_03", 2001, 10)
    r = s.replicator()
    r.run()
    assert assert_replicated(s, r)[f"up1/{s.db}.orders_01"] == 150
    s.run(
        "up1",
        "ALTER TABLE orders_01 REORGANIZE PARTITION p1 INTO (PARTITION p1 VALUES LESS THAN "
        "(200), PARTITION p2 VALUES LESS THAN MAXVALUE)",
        "ALTER TABLE orders_02 COALESCE PARTITION 1",
        "ALTER TABLE orders_01 ANALYZE PARTITION ALL",
    )
    every(s, "ALTER TABLE {t} ADD COLUMN note VARCHAR(8) NULL DEFAULT 'p'")
    rows(s, "up1", "orders_01", 151, 99)
    s.run("up2", "ALTER TABLE orders_03 REMOVE PARTITIONING")
    rows(s, "up2", "orders_03", 2011, 5)
    r.run()
    counts = assert_replicated(s, r)
    assert counts[f"up1/{s.db}.orders_01"] == 249 and counts[f"up2/{s.db}.orders_03"] == 15
    s.run("up1", "ALTER TABLE orders_01 DROP PARTITION p0")  # ids 1 to 99, gone upstream
    rows(s, "up1", "orders_02", 1011, 5)
    with caplog.at_level("WARNING", logger="mvdd.replicate"):
        r.run()
    (warned,) = [m for m in caplog.messages if "without row events" in m]
    assert f"up1/{s.db}.orders_01: DROP PARTITION (p0)" in warned
    verdict = verdict_of(s, r)
    assert verdict.target_rows == 249 + 15 + 15 and verdict.rows[f"up1/{s.db}.orders_01"] == 150
    # the rows kept: on no shard any more
    assert verdict.target_rows - sum(verdict.rows.values()) == 99
    *kept, more = verdict.differences
    assert all("downstream and on no shard" in d for d in kept) and more == "… and 79 more"
    # a partition made a table into the pattern: a shard of its own, with rows the target has
    # from the partition's table; made a partition again, its table leaves the group
    s.run("up1", "ALTER TABLE orders_01 CONVERT PARTITION p2 TO TABLE orders_09")  # 200–249
    rows(s, "up1", "orders_09", 5001, 3)
    with caplog.at_level("WARNING", logger="mvdd.replicate"):
        status = r.run()
    assert f"up1/{s.db}.orders_09" in status["shards"]
    assert f"up1/{s.db}.orders_09: CONVERT PARTITION (the whole table)" in caplog.text
    assert f"up1/{s.db}.orders_01: CONVERT PARTITION (p2)" in caplog.text
    verdict = verdict_of(s, r)
    assert (
        verdict.rows[f"up1/{s.db}.orders_09"] == 53 and verdict.rows[f"up1/{s.db}.orders_01"] == 100
    )
    assert verdict.target_rows - sum(verdict.rows.values()) == 99
    s.run(
        "up1",
        "DELETE FROM orders_09 WHERE id > 5000",
        "ALTER TABLE orders_01 CONVERT TABLE orders_09 TO PARTITION p2 VALUES LESS THAN MAXVALUE",
    )
    rows(s, "up1", "orders_01", 6001, 2)
    status = r.run()
    assert f"up1/{s.db}.orders_09" not in status["shards"]
    verdict = verdict_of(s, r)
    assert verdict.rows[f"up1/{s.db}.orders_01"] == 152
    assert verdict.target_rows - sum(verdict.rows.values()) == 99


def _exchange_partition(s: Setup) -> None:
    """``EXCHANGE PARTITION`` of ``orders_01``'s p0 (rows 1–5; :data:`RANGES`) with a table
    outside the pattern (rows 50–52)."""
    s.run("up1", CREATE.format(t="swap"))
    rows(s, "up1", "swap", 50, 3)
    s.run("up1", "ALTER TABLE orders_01 EXCHANGE PARTITION p0 WITH TABLE swap")


def _import_tablespace(s: Setup) -> None:
    """InnoDB's ``DISCARD TABLESPACE`` of ``orders_01`` (rows 1–5), then ``IMPORT
    TABLESPACE`` of another table's file (rows 50–52), copied in as the server exports it."""
    server = s.servers.upstream("up1")
    s.run("up1", "CREATE TABLE src LIKE orders_01", "ALTER TABLE orders_01 DISCARD TABLESPACE")
    rows(s, "up1", "src", 50, 3)
    with contextlib.closing(server.connect(s.db)) as conn, conn.cursor() as cur:
        cur.execute("FLUSH TABLES src FOR EXPORT")  # (the files stay while the lock does)
        folder = server.base / "data" / s.db
        for suffix in ("ibd", "cfg"):
            shutil.copyfile(folder / f"src.{suffix}", folder / f"orders_01.{suffix}")
        cur.execute("UNLOCK TABLES")
    s.run("up1", "ALTER TABLE orders_01 IMPORT TABLESPACE")


RANGES = "PARTITION BY RANGE (id) (PARTITION p0 VALUES LESS THAN (100), PARTITION p1 VALUES LESS THAN MAXVALUE)"


@pytest.mark.parametrize(
    ("partitioned", "bring"), [(True, _exchange_partition), (False, _import_tablespace)]
)
def test_rows_brought_in_without_row_events_are_read(
    s: Setup, partitioned: bool, bring: Any
) -> None:
    """``EXCHANGE PARTITION`` with a table outside the pattern, or ``IMPORT TABLESPACE``,
    brings rows without row events: the shard is read again for the rows that came in (they
    were lost: the next UPDATE of one stopped the replicator), and until then its changes
    apply in safe mode; the rows that left (the exchanged partition's, the discarded
    tablespace's) stay in the target, on no shard, as the rows of a dropped partition do."""
    if partitioned:
        s.run("up1", f"ALTER TABLE orders_01 {RANGES}")
    rows(s, "up1", "orders_01", 1, 5)
    r = s.replicator()
    r.run()
    bring(s)
    s.run("up1", "UPDATE orders_01 SET status = 'paid' WHERE id = 50")
    r.run()
    verdict = verdict_of(s, r)
    assert verdict.rows[f"up1/{s.db}.orders_01"] == 3
    assert verdict.differences == tuple(
        f"the row ({i},) is downstream and on no shard" for i in range(1, 6)
    )
    assert _target_values(s, "status")[50] == "paid"


def test_uuid_and_inet_columns_are_copied_and_followed(s: Setup) -> None:
    """MariaDB's UUID, INET4 and INET6 columns reach the target from the snapshot and from the
    binlog, through a change of type to and from a string, and verify against the upstream."""
    every(s, "ALTER TABLE {t} ADD COLUMN u UUID NULL, ADD COLUMN ip INET6 NOT NULL DEFAULT '::1'")
    rows(s, "up1", "orders_01", 1, 5, u="UUID()", ip="'::ffff:10.0.0.1'")
    rows(s, "up2", "orders_03", 201, 5, u="'6ccd780c-baba-1026-9564-5b8c656024db'", ip="'fe80::1'")
    r = s.replicator()
    r.run()
    every(s, "ALTER TABLE {t} ADD COLUMN v4 INET4 NULL, MODIFY u CHAR(36) NULL")
    rows(s, "up1", "orders_02", 101, 5, u="'not a uuid'", v4="'10.0.0.01'")
    s.run("up1", "UPDATE orders_01 SET ip = '1:0:0:0:1::', v4 = '0.0.0.0' WHERE id = 2")
    r.run()
    assert r.group.joined.column("u").type.kind == "CHAR"
    s.run("up1", "DELETE FROM orders_02 WHERE u = 'not a uuid'")
    every(s, "ALTER TABLE {t} MODIFY u UUID NULL")
    rows(s, "up2", "orders_03", 211, 3, u="x'123e4567e89b82d30456426655440000'", ip="'::'")
    r.run()
    assert r.group.joined.column("u").type.kind == "UUID"
    assert assert_replicated(s, r) == {
        f"up1/{s.db}.orders_01": 5,
        f"up1/{s.db}.orders_02": 0,
        f"up2/{s.db}.orders_03": 8,
    }
    with s.servers.upstream("up1").connect(s.db) as conn, conn.cursor() as cur:
        cur.execute("SELECT u FROM orders_01 WHERE id = 2")
        (made,) = cur.fetchone()  # by UUID() upstream
    with s.servers.down.connect(s.dw) as conn, conn.cursor() as cur:
        cur.execute("SELECT u, ip, v4 FROM orders WHERE id IN (2, 211) ORDER BY id")
        assert cur.fetchall() == (
            (made, "1::1:0:0:0", "0.0.0.0"),
            # bytes in the server's sortable layout of a UUID, read in that layout upstream
            ("55440000-4266-0456-82d3-123e4567e89b", "::", None),
        )


def test_compressed_columns_and_a_compressed_binlog_reach_the_target(s: Setup) -> None:
    """MariaDB's COMPRESSED columns (added to every shard, one of them compressed no more by a
    later ALTER) reach the target from the snapshot and from the binlog, the binlog itself
    compressed for a while (``log_bin_compress``): the target holds the upstream's values."""
    every(
        s,
        "ALTER TABLE {t} ADD COLUMN note TEXT COMPRESSED NULL, "
        "ADD COLUMN tag VARCHAR(40) COMPRESSED NOT NULL",
    )
    rows(s, "up1", "orders_01", 1, 5, note="REPEAT('note é ', 100)", tag="'t1'")
    r = s.replicator()
    r.run()
    ups = [s.servers.upstream(name) for name in SHARDS]
    for up in ups:
        up.execute("SET GLOBAL log_bin_compress = ON, GLOBAL log_bin_compress_min_len = 10")
    try:
        rows(s, "up2", "orders_03", 201, 5, note="REPEAT('x', 3000)", tag="'compressed'")
        s.run("up1", "UPDATE orders_01 SET note = CONCAT(note, '!'), tag = '' WHERE id <= 2")
        every(s, "ALTER TABLE {t} MODIFY tag VARCHAR(60) NOT NULL")
        rows(s, "up1", "orders_02", 101, 3, note="'short'", tag="'plain'")
        s.run("up2", "DELETE FROM orders_03 WHERE id = 203")
    finally:
        for up in ups:
            up.execute("SET GLOBAL log_bin_compress = OFF, GLOBAL log_bin_compress_min_len = 256")
    rows(s, "up2", "orders_03", 211, 2, note="NULL", tag="'after'")
    r.run()
    assert assert_replicated(s, r) == {
        f"up1/{s.db}.orders_01": 5,
        f"up1/{s.db}.orders_02": 3,
        f"up2/{s.db}.orders_03": 6,
    }
    notes = _target_values(s, "note")
    assert notes[1] == "note é " * 100 + "!" and notes[201] == "x" * 3000 and notes[211] is None


def test_ddl_from_sessions_of_other_charsets_and_sql_modes_reaches_the_target(s: Setup) -> None:
    """A shard's DDL from a latin1 session under ANSI_QUOTES, and another's from a cp1250 one
    under NO_BACKSLASH_ESCAPES, reach the target as the upstream servers read them: the
    column's name, default and comment (a backslash in it, each written its session's
    way), and the rows."""
    r = s.replicator()
    r.run()
    sessions = {
        "up1": (
            "latin1",
            "ANSI_QUOTES",
            '"{t}"',
            "ADD \"größe\" VARCHAR(9) DEFAULT 'é€' COMMENT 'a\\\\b'",
        ),
        "up2": (
            "cp1250",
            "NO_BACKSLASH_ESCAPES",
            "{t}",
            "ADD `größe` VARCHAR(9) DEFAULT 'é€' COMMENT 'a\\b'",
        ),
    }
    for server, tables in SHARDS.items():
        charset, mode, name, action = sessions[server]
        upstream = s.servers.upstream(server)
        with (
            contextlib.closing(upstream.connect(s.db, charset=charset)) as conn,
            conn.cursor() as cur,
        ):
            cur.execute("SET SESSION sql_mode = %s", (mode,))
            for t in tables:
                cur.execute(f"ALTER TABLE {name.format(t=t)} {action}")
    rows(s, "up1", "orders_01", 1, 3)
    rows(s, "up2", "orders_03", 201, 3, **{"`größe`": "'中文'"})
    r.run()
    column = r.group.joined.column("größe")
    assert (column.default, column.comment) == ("é€", "a\\b")
    assert assert_replicated(s, r) == {
        f"up1/{s.db}.orders_01": 3,
        f"up1/{s.db}.orders_02": 0,
        f"up2/{s.db}.orders_03": 3,
    }
    assert set(_target_values(s, "größe").values()) == {"é€", "中文"}


def test_dates_no_python_date_holds_reach_the_target_as_they_are(s: Setup) -> None:
    """Zero dates, dates with a zero month or day and days their month lacks (which the
    server keeps outside NO_ZERO_DATE, NO_ZERO_IN_DATE, with ALLOW_INVALID_DATES), and the zero
    timestamp, copied and followed: the target holds the very values. (The library reads the
    first ones as NULL, the zero timestamp as 1970-01-01 00:00:00, which the target refused.)"""
    every(
        s,
        "ALTER TABLE {t} ADD d DATE NOT NULL DEFAULT '0000-00-00', ADD dt DATETIME(3) NULL, "
        "ADD old DATETIME NULL, ADD ts TIMESTAMP(2) NOT NULL DEFAULT '0000-00-00 00:00:00'",
    )
    values = [
        "(1, 'a', '0000-00-00', '0000-00-00 00:00:00.000', '2020-01-01 10:00:00', 0)",
        "(2, 'b', '2020-00-15', '2021-02-30 12:34:56.789', '2020-00-00 01:02:03', "
        "'2020-01-01 00:00:00.5')",
    ]
    insert = "INSERT INTO orders_01 (id, customer, d, dt, old, ts) VALUES "
    loose = "SET SESSION sql_mode = 'ALLOW_INVALID_DATES'"
    s.run("up1", loose, insert + values[0])
    r = s.replicator()
    r.run()
    s.run("up1", loose, insert + values[1].replace("(2,", "(3,"), insert + values[1])
    r.run()
    columns = "d, dt, old, ts"
    assert texts(s.servers.down, s.dw, "orders", columns) == texts(
        s.servers.up1, s.db, "orders_01", columns
    )
    assert len(texts(s.servers.down, s.dw, "orders", columns)) == 3


def test_an_enums_error_value_reaches_the_target_as_it_is(s: Setup) -> None:
    """An ENUM's error value (its index 0, the empty value a session outside strict mode
    stores for a value no member is), copied, inserted, and set by an update, reaches the
    target, whose strict session refused it: each such row is written outside strict mode,
    which must give one warning a value and no other."""
    every(s, "ALTER TABLE {t} ADD e ENUM('x','y') NULL, ADD f ENUM('p','q') NOT NULL")
    loose = "SET SESSION sql_mode = ''"
    insert = "INSERT INTO orders_01 (id, customer, e, f) VALUES "
    s.run("up1", loose, insert + "(1, 'a', 'nope', 'p'), (2, 'b', 'x', 'p'), (3, 'c', 'y', 0)")
    r = s.replicator()
    r.run()
    s.run(
        "up1",
        loose,
        insert + "(4, 'd', 'gone', 'nor this'), (5, 'e', 'x', 'q')",
        "UPDATE orders_01 SET e = 'missing' WHERE id = 2",
        "UPDATE orders_01 SET e = 'y', f = 'q' WHERE id = 1",
    )
    r.run()
    columns = "e, f, CAST(e AS UNSIGNED), CAST(f AS UNSIGNED)"
    _as_upstream(
        s,
        r,
        columns,
        [
            (1, "y", "q", "2", "2"),
            (2, "", "p", "0", "1"),
            (3, "y", "", "2", "0"),
            (4, "", "", "0", "0"),
            (5, "x", "q", "1", "2"),
        ],
    )


def test_shards_with_foreign_keys_and_the_servers_own_rules(s: Setup) -> None:
    """Shards whose tables reference a parent table and take MariaDB's own forms (a plain
    CURRENT_TIMESTAMP on a DATETIME(3), a JSON default that is not JSON, a DECIMAL scale above
    30, a YEAR(2), whose SELECT shows two digits of the years it stores) are copied and
    followed through a foreign key added and dropped, and verify against the upstream (the
    target keeps none of the foreign keys, and holds the YEAR(2)'s years in a YEAR)."""
    every(s, "CREATE TABLE cust_{t} (name VARCHAR(32) PRIMARY KEY)")
    every(s, "INSERT INTO cust_{t} SELECT DISTINCT CONCAT('c', seq) FROM seq_1_to_400")
    every(
        s,
        "ALTER TABLE {t} ADD CONSTRAINT fk_{t} FOREIGN KEY (customer) REFERENCES cust_{t} (name), "
        "ADD COLUMN at DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP, "
        "ADD COLUMN made YEAR(2) NULL DEFAULT 1901",
    )
    rows(s, "up1", "orders_01", 1, 5)
    rows(s, "up2", "orders_03", 201, 5)
    r = s.replicator()
    r.run()
    every(
        s,
        "ALTER TABLE {t} ADD COLUMN doc JSON DEFAULT 'none', ADD COLUMN rate DECIMAL(40,35) "
        "NOT NULL DEFAULT 0.5, DROP FOREIGN KEY fk_{t}",
    )
    rows(s, "up1", "orders_02", 101, 5, doc="'{}'", rate="0.25", made="'0000'")
    rows(s, "up2", "orders_03", 211, 3, doc="'[1]'", rate="0.125", made="2155")
    r.run()
    joined = r.group.joined
    assert joined.column("at").default is not None and joined.column("rate").type.scale == 35
    assert joined.column("doc").default == "none"
    # the copied rows' 1901 and the followed ones' years, as the target's YEAR holds them
    made = _target_values(s, "made")
    assert made[1] == made[201] == 1901 and made[101] == 0 and made[211] == 2155
    assert assert_replicated(s, r) == {
        f"up1/{s.db}.orders_01": 5,
        f"up1/{s.db}.orders_02": 5,
        f"up2/{s.db}.orders_03": 8,
    }


def test_a_new_shard_and_a_tools_cut_over(s: Setup) -> None:
    s.snapshot = "locked"  # the first run's snapshot as MySQL takes it, under a read lock
    rows(s, "up1", "orders_01", 1, 20)
    r = s.replicator()
    r.run()
    # a table created into the pattern joins the group; a tool's ghost never does
    s.run("up2", CREATE.format(t="orders_09"))
    rows(s, "up2", "orders_09", 90_001, 10)
    s.run(
        "up1",
        "CREATE TABLE _orders_01_gho LIKE orders_01",
        "ALTER TABLE _orders_01_gho ADD COLUMN placed DATE NULL",
        "INSERT INTO _orders_01_gho (id, customer, amount, status) "
        "SELECT id, customer, amount, status FROM orders_01",
        "RENAME TABLE orders_01 TO _orders_01_del, _orders_01_gho TO orders_01",
        "DROP TABLE _orders_01_del",
    )
    rows(s, "up1", "orders_01", 21, 5, placed="'2026-11-24'")
    status = r.run()
    assert f"up2/{s.db}.orders_09" in status["shards"]
    assert not any("_gho" in shard or "_del" in shard for shard in status["shards"])
    assert assert_replicated(s, r)[f"up1/{s.db}.orders_01"] == 25


@pytest.mark.parametrize(
    "how", ["RENAME TABLE {staged} TO orders_09", "ALTER TABLE {staged} RENAME TO orders_09"]
)
@pytest.mark.parametrize("aside", [False, True], ids=["its database", "a database not followed"])
def test_a_table_renamed_into_the_pattern_brings_its_rows(s: Setup, how: str, aside: bool) -> None:
    """A table made outside the pattern, filled, and renamed into it joins the group with the
    rows it holds (no row event brought them): they are read, and the binlog after the rename
    applies over them. From a database the patterns do not name, whose statements the reader
    never read, the table's schema is learned from the server's first (before:
    ``NoSuchTableError`` at the rename, for good)."""
    r = s.replicator()
    r.run()
    staged = f"{s.db}_aside._staged" if aside else "_staged"
    with contextlib.ExitStack() as stack:
        if aside:
            s.run("up2", f"CREATE DATABASE {s.db}_aside")
            stack.callback(s.run, "up2", f"DROP DATABASE IF EXISTS {s.db}_aside")
        s.run("up2", CREATE.format(t=staged))
        rows(s, "up2", staged, 90_001, 10)
        s.run(
            "up2",
            how.format(staged=staged),
            "UPDATE orders_09 SET status = 'paid' WHERE id = 90001",
            "DELETE FROM orders_09 WHERE id = 90002",
        )
        rows(s, "up2", "orders_09", 90_011, 2)
        r.run()
        assert assert_replicated(s, r)[f"up2/{s.db}.orders_09"] == 11
        assert _target_values(s, "status")[90_001] == "paid"


def test_rows_a_rename_brings_in_are_read_from_the_table_whatever_its_name_now(s: Setup) -> None:
    """A table renamed into the pattern with rows, then renamed within it, and a new table of
    the same schema made under its first name, all before the replicator reads its rows: they
    are read from the shard's table under its name now (before: from the new table of its
    first name, which passed for it, empty; the rows never came)."""
    r = s.replicator()
    r.run()
    s.run("up2", CREATE.format(t="_staged"))
    rows(s, "up2", "_staged", 90_001, 3)
    s.run("up2", "RENAME TABLE _staged TO orders_09", "RENAME TABLE orders_09 TO orders_10")
    s.run("up2", CREATE.format(t="orders_09"))
    rows(s, "up2", "orders_09", 91_001, 2)
    r.run()
    counts = assert_replicated(s, r)
    (new,) = (shard for shard in counts if shard.startswith(f"up2/{s.db}.orders_09#"))
    assert (counts[f"up2/{s.db}.orders_09"], counts[new]) == (3, 2)


def test_a_shard_renamed_out_of_the_pattern_leaves_and_its_name_is_free(s: Setup) -> None:
    """``RENAME TABLE orders_03 TO archive_03`` takes the shard out of the group (the binlog
    reader's event of a rename out bears the old name, which matched: the shard was followed
    under its new name, its rows still replicated, and a new table of its name refused as
    one the group had). The target keeps the rows it had from it."""
    rows(s, "up2", "orders_03", 1, 3)
    r = s.replicator()
    r.run()
    s.run("up2", "RENAME TABLE orders_03 TO archive_03", "DELETE FROM archive_03 WHERE id = 1")
    s.run("up2", CREATE.format(t="orders_03"))
    rows(s, "up2", "orders_03", 11, 2)
    status = r.run()
    assert f"up2/{s.db}.orders_03" in status["shards"]
    assert sorted(_target_values(s, "customer")) == [1, 2, 3, 11, 12]
    verdict = verdict_of(s, r)
    assert verdict.rows[f"up2/{s.db}.orders_03"] == 2
    assert verdict.differences == tuple(
        f"the row ({i},) is downstream and on no shard" for i in (1, 2, 3)
    )


def test_a_shard_that_leaves_paused_takes_the_rows_it_deleted_and_forgets_its_held_rows(
    s: Setup,
) -> None:
    """A shard paused (a type no other shard joins) deletes rows and leaves (DROP TABLE):
    its held changes are forgotten with it, the rows they delete leave the target (they
    stayed: the target held rows no shard has), the others stay as the target had them. A
    new table of its name, paused in turn, releases its own held rows only (the old table's
    were released with it: a version of another table, and the replicator stopped for good on
    an IndexError)."""
    r = s.replicator()
    r.run()
    s.run("up2", CREATE.format(t="orders_09"))
    rows(s, "up2", "orders_09", 90_001, 4)
    r.run()
    had = _target_values(s, "amount")
    s.run(
        "up2",
        "ALTER TABLE orders_09 MODIFY amount VARCHAR(20) NOT NULL",
        "DELETE FROM orders_09 WHERE id IN (90001, 90002)",
        "UPDATE orders_09 SET id = 90005 WHERE id = 90003",
        "UPDATE orders_09 SET amount = 9 WHERE id = 90004",
        "INSERT INTO orders_09 (id, customer, amount) VALUES (90001, 'new', 'x')",
    )
    status = r.run()
    assert status["shards"][f"up2/{s.db}.orders_09"]["held"] == 5
    s.run("up2", "DROP TABLE orders_09")
    r.run()
    kept = _target_values(s, "amount")
    assert {i: v for i, v in kept.items() if i > 90_000} == {i: had[i] for i in (90_001, 90_004)}
    s.run("up2", CREATE.format(t="orders_09"), "ALTER TABLE orders_09 MODIFY amount VARCHAR(20)")
    s.run("up2", "INSERT INTO orders_09 (id, customer, amount) VALUES (90010, 'c', '1.25')")
    s.run("up2", "ALTER TABLE orders_09 MODIFY amount DECIMAL(10,2) NOT NULL DEFAULT 0.00")
    r.run()
    verdict = verdict_of(s, r)
    assert verdict.rows[f"up2/{s.db}.orders_09"] == 1
    assert verdict.differences == tuple(
        f"the row ({i},) is downstream and on no shard" for i in (90_001, 90_004)
    )


def test_a_new_table_of_the_name_a_shard_renamed_within_the_pattern_joins(s: Setup) -> None:
    """A shard renamed within the pattern keeps its name (its identity: held rows,
    checkpoints); a new table of its old name joins as that name and ``#<table id>`` (it was
    refused as a shard the group had, for good). The status gives each shard's table."""
    rows(s, "up2", "orders_03", 1, 2)
    r = s.replicator()
    r.run()
    s.run("up2", "RENAME TABLE orders_03 TO orders_05", CREATE.format(t="orders_03"))
    rows(s, "up2", "orders_05", 11, 1)
    rows(s, "up2", "orders_03", 21, 3)
    status = r.run()
    tables = {shard: v["table"] for shard, v in status["shards"].items() if "orders_03" in shard}
    (new,) = [shard for shard in tables if "#" in shard]
    assert tables == {f"up2/{s.db}.orders_03": f"{s.db}.orders_05", new: f"{s.db}.orders_03"}
    counts = assert_replicated(s, r)
    assert counts[f"up2/{s.db}.orders_03"] == 3 and counts[new] == 3
    assert s.replicator().run()["shards"].keys() == status["shards"].keys()  # (as replayed)


def test_a_table_renamed_into_the_pattern_then_dropped_leaves_nothing_to_stop_on(
    s: Setup,
) -> None:
    """Its rows are read once the table is as the group has it; until then its changes apply
    in safe mode (the target lacks its rows): here it left before it could be read."""
    r = s.replicator()
    r.run()
    s.run("up2", CREATE.format(t="_staged"))
    rows(s, "up2", "_staged", 90_001, 3)
    s.run(
        "up2",
        "RENAME TABLE _staged TO orders_09",
        "UPDATE orders_09 SET status = 'paid' WHERE id = 90001",
        "DELETE FROM orders_09",
        "DROP TABLE orders_09",
    )
    status = r.run()
    assert f"up2/{s.db}.orders_09" not in status["shards"]
    assert_replicated(s, r)


def test_a_table_renamed_into_the_pattern_that_does_not_join_brings_its_rows_once_it_does(
    s: Setup,
) -> None:
    """Renamed in with a column the group cannot join, it waits; its changes meanwhile are
    held, released over rows the target lacks (in safe mode), and its rows read once it
    resumes."""
    r = s.replicator()
    r.run()
    s.run("up2", CREATE.format(t="_staged"), "ALTER TABLE _staged MODIFY customer INT NOT NULL")
    s.run(
        "up2",
        "INSERT INTO _staged (id, customer) VALUES (90001, 1), (90002, 2), (90003, 3)",
        "RENAME TABLE _staged TO orders_09",
        "UPDATE orders_09 SET status = 'paid' WHERE id = 90001",
        "DELETE FROM orders_09 WHERE id = 90002",
    )
    status = r.run()
    assert status["shards"][f"up2/{s.db}.orders_09"]["paused"]
    s.run(
        "up2",
        "ALTER TABLE orders_09 MODIFY customer VARCHAR(32) NOT NULL",
        "UPDATE orders_09 SET amount = 7 WHERE id = 90003",
    )
    r.run()
    assert assert_replicated(s, r)[f"up2/{s.db}.orders_09"] == 2
    assert _target_values(s, "amount")[90_003] == 7


def test_bad_input_is_one_clear_error_and_the_state_stays_usable(
    s: Setup, servers: Servers, tmp_path: Path
) -> None:
    rows(s, "up1", "orders_01", 1, 5)
    bad = s.url("up1").replace("mysqld.sock", "nowhere.sock")
    r = Replicator(
        {"up1": bad, "up2": s.url("up2")},
        tables=f"{s.db}.orders_*",
        target="orders",
        downstream=s.downstream_url(),
        state=s.state,
        retry=1,
    )
    with pytest.raises(SourceConfigError) as info:
        r.run()
    assert info.value.source == "up1" and "cannot connect" in str(info.value)
    # a wrong password: named, never shown
    servers.up1.execute(
        "CREATE USER IF NOT EXISTS 'repl_t'@'localhost' IDENTIFIED BY 'right-pw'",
        "GRANT ALL ON *.* TO 'repl_t'@'localhost'",
    )
    wrong = servers.up1.url(user="repl_t", password="wrong-pw")
    r = Replicator(
        {"up1": wrong, "up2": s.url("up2")},
        tables=f"{s.db}.orders_*",
        target="orders",
        downstream=s.downstream_url(),
        state=s.state,
    )
    with pytest.raises(SourceConfigError) as info:
        r.run()
    assert info.value.source == "up1" and "wrong-pw" not in str(info.value)
    # a downstream database that does not exist
    r = Replicator(
        {"up1": s.url("up1"), "up2": s.url("up2")},
        tables=f"{s.db}.orders_*",
        target="orders",
        downstream=servers.down.url("no_such_db"),
        state=s.state,
    )
    with pytest.raises(Exception, match="no_such_db"):
        r.run()
    # a pattern that matches nothing
    r = Replicator(
        {"up1": s.url("up1"), "up2": s.url("up2")},
        tables=f"{s.db}.nothing_*",
        target="orders",
        downstream=s.downstream_url(),
        state=str(tmp_path / "other"),
    )
    with pytest.raises(SourceConfigError, match="matches no table"):
        r.run()
    # after all that, the state directory works
    r = s.replicator()
    r.run()
    assert_replicated(s, r)


def test_a_checkpoint_the_server_purged_is_refused(s: Setup, servers: Servers) -> None:
    rows(s, "up2", "orders_03", 1, 5)
    r = s.replicator()
    r.run()
    rows(s, "up2", "orders_03", 100, 5)
    kept = _purge(servers.up2)
    assert kept
    with pytest.raises(SourceConfigError) as info:
        s.replicator().run()
    assert info.value.source == "up2" and "purged" in str(info.value)


def _purge(server: Any) -> list[str]:
    """Purge every binlog file but a new one (MariaDB keeps a file until its binlog
    checkpoint has passed: try until it is gone). Returns the files left."""
    with contextlib.closing(server.connect()) as conn, conn.cursor() as cur:
        cur.execute("SHOW MASTER STATUS")
        first = cur.fetchone()[0]
        cur.execute("FLUSH BINARY LOGS")
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            cur.execute("SHOW MASTER STATUS")
            newest = cur.fetchone()[0]
            cur.execute(f"PURGE BINARY LOGS TO '{newest}'")
            cur.execute("SHOW BINARY LOGS")
            files = [r[0] for r in cur.fetchall()]
            if first not in files:
                return files
            time.sleep(0.2)
    raise AssertionError(f"the server kept {first}")


def test_a_copy_whose_upstream_connection_dies_resumes_from_its_last_batch(
    s: Setup, servers: Servers, caplog: pytest.LogCaptureFixture
) -> None:
    # the snapshot's rows cannot be read on another connection: the replicator goes back to
    # its checkpoints (as after a kill) and the copy resumes after the last batch it wrote
    for start in range(0, 40_000, 2_000):
        rows(s, "up1", "orders_01", start, 2_000)
    rows(s, "up2", "orders_03", 100_000, 10)
    killed: list[int] = []
    done = threading.Event()

    def kill_the_copy() -> None:
        """Once a batch is downstream, the upstream ends the connection streaming the rows."""
        down = servers.down.connect(s.dw)
        up = servers.up1.connect()
        with contextlib.closing(down), contextlib.closing(up), up.cursor() as cur:
            while not done.is_set() and not killed:
                time.sleep(0.01)
                with contextlib.suppress(pymysql.MySQLError), down.cursor() as count:
                    count.execute("SELECT COUNT(*) FROM orders")
                    if count.fetchone()[0] == 0:
                        continue
                cur.execute(
                    "SELECT id FROM information_schema.processlist WHERE id <> CONNECTION_ID() "
                    "AND info LIKE %s",
                    (f"SELECT %FROM `{s.db}`.`orders_01`%ORDER BY%",),
                )
                for (conn_id,) in cur.fetchall():
                    cur.execute(f"KILL CONNECTION {int(conn_id)}")
                    killed.append(int(conn_id))

    killer = threading.Thread(target=kill_the_copy, daemon=True)
    killer.start()
    r = s.replicator()
    try:
        with caplog.at_level("INFO", logger="mvdd"):
            r.run()
    finally:
        done.set()
        killer.join(timeout=10)
    assert killed, "the copy ended before its connection could be killed"
    lost = [m for m in caplog.messages if "went away reading" in m and "orders_01" in m]
    assert lost, caplog.messages
    counts = assert_replicated(s, r)
    assert counts[f"up1/{s.db}.orders_01"] == 40_000


def test_a_sequence_the_patterns_match_stays_upstream(s: Setup) -> None:
    """A MariaDB sequence named like the shards (a table of one row to its server, the ids'
    generator) joins no group, made before the first run or after it: the shards' rows, ids
    it gave included, reach the target, and its own rows never do."""
    s.run("up1", "CREATE SEQUENCE orders_seq START WITH 500")
    s.run("up1", "INSERT INTO orders_01 (id, customer) VALUES (NEXTVAL(orders_seq), 'a')")
    r = s.replicator()
    r.run()
    s.run(
        "up2",
        "CREATE SEQUENCE orders_ids START WITH 900 CACHE 2",
        *(
            f"INSERT INTO orders_03 (id, customer) VALUES (NEXTVAL(orders_ids), 'b{i}')"
            for i in range(3)
        ),
        "ALTER SEQUENCE orders_ids RESTART WITH 950",
        "INSERT INTO orders_03 (id, customer) VALUES (NEXTVAL(orders_ids), 'c')",
        "DROP SEQUENCE orders_ids",
    )
    status = r.run()
    assert sorted(status["shards"]) == sorted(
        f"{server}/{s.db}.{t}" for server, tables in SHARDS.items() for t in tables
    )
    counts = assert_replicated(s, r)
    assert (counts[f"up1/{s.db}.orders_01"], counts[f"up2/{s.db}.orders_03"]) == (1, 4)
    assert sorted(_target_values(s, "customer").items()) == [
        (500, "a"),
        (900, "b0"),
        (901, "b1"),
        (902, "b2"),
        (950, "c"),
    ]


def test_xa_transactions_reach_the_target_at_their_commit(s: Setup) -> None:
    """Rows a shard writes in XA transactions (mvdd.binlog.xa) reach the target when the
    transaction commits, never when it rolls back: one prepared before the first run (its
    snapshot does not see the rows; the reader finds the prepared group in the binlog at the
    commit), one prepared and committed while the job follows, one rolled back."""
    with contextlib.closing(s.servers.up1.connect(s.db)) as conn, conn.cursor() as cur:

        def xa(xid: str, *statements: str) -> None:
            for sql in (f"XA START {xid}", *statements, f"XA END {xid}", f"XA PREPARE {xid}"):
                cur.execute(sql)

        xa("'early'", "INSERT INTO orders_01 (id, customer) VALUES (1, 'early')")
        r = s.replicator()
        r.run()
        rows(s, "up1", "orders_02", 10, 3)
        cur.execute("XA COMMIT 'early'")
        xa("'late'", "INSERT INTO orders_02 (id, customer) VALUES (20, 'late')")
        cur.execute("XA ROLLBACK 'late'")
        xa("'paid'", "UPDATE orders_01 SET status = 'paid' WHERE id = 1")
        cur.execute("XA COMMIT 'paid'")
    r.run()
    counts = assert_replicated(s, r)
    assert (counts[f"up1/{s.db}.orders_01"], counts[f"up1/{s.db}.orders_02"]) == (1, 3)
    assert _target_values(s, "status")[1] == "paid" and 20 not in _target_values(s, "status")


def test_a_shard_without_a_key_is_refused_at_start(s: Setup) -> None:
    s.run("up2", "CREATE TABLE orders_07 (a INT, b INT)")
    with pytest.raises(ReplicationError) as info:
        s.replicator().run()
    assert info.value.shard == f"up2/{s.db}.orders_07" and "KEY" in str(info.value)


def test_a_target_the_state_did_not_create_is_refused(s: Setup, servers: Servers) -> None:
    servers.down.execute("CREATE TABLE orders (id INT PRIMARY KEY)", database=s.dw)
    with pytest.raises(ReplicationError, match="did not create"):
        s.replicator().run()


def test_the_command_follows_stops_on_sigterm_and_serves_metrics(s: Setup) -> None:
    rows(s, "up1", "orders_01", 1, 10)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "mvdd.cli",
            *s.cli_args(),
            "--until",
            "forever",
            "--no-live",
            "--metrics-port",
            "0",  # the command takes a free port and names it: no window for another process
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stderr is not None
        said: list[str] = []  # the port is named on stderr, after any warning
        for line in iter(proc.stderr.readline, ""):
            said.append(line)
            if named := re.fullmatch(r"metrics on port (\d+)\n", line):
                port = int(named.group(1))
                break
        else:
            pytest.fail("the command ended before naming its port: " + "".join(said))
        metrics = ""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and f'{s.db}.orders_01"}} 10.0' not in metrics:
            time.sleep(0.3)
            with contextlib.suppress(OSError):
                metrics = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics").read().decode()
        assert "mvdd_rows_applied" in metrics and "mvdd_lag_seconds" in metrics, metrics[-500:]
        assert "mvdd_downstream_ddl_warnings 0.0" in metrics, metrics[-500:]
        rows(s, "up1", "orders_01", 11, 5)
        status = ""
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and '"rows": 15' not in status:
            time.sleep(0.3)
            status = subprocess.run(
                [sys.executable, "-m", "mvdd.cli", "status", "--state", s.state, "--json"],
                cwd=ROOT,
                capture_output=True,
                text=True,
                check=True,
            ).stdout
        shard = json.loads(status)["shards"][f"up1/{s.db}.orders_01"]
        assert shard["rows"] == 15 and not shard["paused"]
        assert json.loads(status)["downstream"]["ddl_warnings"] == 0
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0, proc.stderr.read() if proc.stderr else ""
    finally:
        if proc.poll() is None:
            proc.kill()


def test_the_command_prints_one_line_for_an_error(s: Setup) -> None:
    args = s.cli_args()
    args[args.index("--downstream") + 1] = s.servers.down.url("no_such_db")
    out = subprocess.run(
        [sys.executable, "-m", "mvdd.cli", *args], cwd=ROOT, capture_output=True, text=True
    )
    assert out.returncode == 1
    lines = [line for line in (out.stdout + out.stderr).splitlines() if line.strip()]
    assert len(lines) == 1 and "no_such_db" in lines[0] and "Traceback" not in lines[0], lines


def test_status_before_any_run_names_the_problem(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "mvdd.cli", "status", "--state", str(tmp_path / "x")],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 1 and "state directory" in out.stdout


def test_a_folder_of_something_else_is_not_made_a_state_directory(tmp_path: Path) -> None:
    """A replicator forgets its catalogs (``DIR/catalogs``) when a copy starts over, so a folder
    holding anything but a state directory's files is refused, and nothing is written there;
    ``mvdd status`` on it names the problem."""
    from mvdd import StoreError
    from mvdd.replicate.state import State

    mine = tmp_path / "mine"
    (mine / "catalogs").mkdir(parents=True)
    (mine / "catalogs" / "keep.db").write_text("mine")
    (mine / "notes.txt").write_text("mine")
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    with pytest.raises(StoreError, match=r"not a replicator's state directory .*'notes\.txt'"):
        State(mine)
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before
    kept = State(tmp_path / "new")  # a new one is made, and opens again
    kept.close()
    State(tmp_path / "new").close()


def test_a_state_directory_a_kill_left_mid_write_opens(tmp_path: Path) -> None:
    """A replicator killed while SQLite wrote its state's database with a rollback journal (a
    new database's first open writes its header so, before it turns to WAL) leaves the journal
    beside it: the next open takes the directory, and SQLite rolls the write back."""
    from mvdd.replicate.state import State

    folder = tmp_path / "state"
    folder.mkdir()
    killed = subprocess.run(
        [
            sys.executable,
            "-c",
            "import os, sqlite3, sys\n"
            "db = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
            "db.execute('BEGIN IMMEDIATE')\n"
            "db.execute('CREATE TABLE half (a)')\n"
            "db.execute('INSERT INTO half VALUES (1)')\n"
            "os.kill(os.getpid(), 9)\n",
            str(folder / "replicate.db"),
        ],
        check=False,
    )
    assert killed.returncode == -signal.SIGKILL
    assert (folder / "replicate.db-journal").exists()
    state = State(folder)
    assert not state.db["half"].exists()  # the write rolled back
    state.put("id", "after")
    assert state.id == "after"
    state.close()
    State(folder).close()


def test_the_status_names_the_gtid_position_applied(s: Setup) -> None:
    """Each shard's status names its source's GTID position applied, which once caught up is
    the server's own ``@@gtid_binlog_pos``: after the copy, after rows and a DDL followed (the
    two ways a source's checkpoint moves), read back by a new replicator on the state, and
    after a restart whose checkpoint was written without it (it is read at the position)."""
    rows(s, "up1", "orders_01", 1, 5)
    r = s.replicator()
    assert applied(r.run()) == gtid_binlog_pos(s)
    rows(s, "up2", "orders_03", 100, 5)
    s.run("up1", "ALTER TABLE orders_01 ADD COLUMN g INT NULL")
    before = gtid_binlog_pos(s)
    assert applied(r.run()) == before
    rows(s, "up1", "orders_02", 200, 3)
    assert applied(s.replicator().status()) == before  # (as the state last wrote it)
    assert applied(s.replicator().run()) == gtid_binlog_pos(s) != before
    # a checkpoint of an older writer, without the GTID
    s.servers.down.execute(
        "UPDATE mvdd_checkpoint SET data = JSON_REMOVE(data, '$.gtid') WHERE name LIKE 'source:%'",
        database=s.dw,
    )
    s.run("up2", "DELETE FROM orders_03 WHERE id = 100")
    assert applied(s.replicator().run()) == gtid_binlog_pos(s)
    assert_replicated(s, r)


def test_verify_finds_every_kind_of_difference(s: Setup) -> None:
    rows(s, "up1", "orders_01", 1, 10)
    rows(s, "up2", "orders_03", 100, 10)
    r = s.replicator()
    r.run()
    assert verify(
        r.group, {"up1": s.url("up1"), "up2": s.url("up2")}, s.downstream_url(), s.target
    ).ok
    s.servers.down.execute(
        "DELETE FROM orders WHERE id = 3",
        "UPDATE orders SET customer = 'wrong' WHERE id = 104",
        "INSERT INTO orders (id, customer) VALUES (999999, 'nobody')",
        database=s.dw,
    )
    found = verify(
        r.group, {"up1": s.url("up1"), "up2": s.url("up2")}, s.downstream_url(), s.target
    )
    text = "\n".join(found.differences)
    assert not found.ok
    assert "(3,) is missing" in text and "'wrong'" in text and "(999999,) is downstream" in text
    # read in runs of three target rows (each shard's rows of a run's span beside it): the same
    # differences, the same counts
    runs = verify(
        r.group, {"up1": s.url("up1"), "up2": s.url("up2")}, s.downstream_url(), s.target, run=3
    )
    assert sorted(runs.differences) == sorted(found.differences)
    assert (runs.rows, runs.target_rows) == (found.rows, found.target_rows)
    assert sum(found.rows.values()) == found.target_rows == 20
    s.servers.down.execute("ALTER TABLE orders ADD COLUMN extra INT", database=s.dw)
    found = verify(
        r.group, {"up1": s.url("up1"), "up2": s.url("up2")}, s.downstream_url(), s.target
    )
    assert any("schema" in d for d in found.differences)


@pytest.fixture(scope="module")
def zoned() -> Iterator[tuple[MariaDB, MariaDB]]:
    """An upstream server (binary logs) whose time zone is +08:00, a downstream one at -03:00."""
    with (
        private_server(binlog=True, server_id=51, options={"default-time-zone": "+08:00"}) as up,
        private_server(options={"default-time-zone": "-03:00"}) as down,
    ):
        yield up, down


def _utc_rows(server: MariaDB, database: str, table: str) -> list[tuple[Any, ...]]:
    """A table's rows and TIMESTAMP defaults as a session in UTC reads them."""
    with contextlib.closing(server.connect(database)) as conn, conn.cursor() as cur:
        cur.execute("SET time_zone = '+00:00'")
        cur.execute(f"SELECT * FROM {table} ORDER BY id")
        rows = [tuple(row) for row in cur.fetchall()]
        cur.execute(
            "SELECT column_name, column_default FROM information_schema.columns "
            "WHERE table_schema = %s AND table_name = %s ORDER BY ordinal_position",
            (database, table),
        )
        return [*rows, *cur.fetchall()]


@pytest.mark.parametrize("copy", ["auto", "spark"])
def test_timestamps_are_the_same_instants_on_servers_of_other_time_zones(
    zoned: tuple[MariaDB, MariaDB], spark: Any, tmp_path: Path, copy: str
) -> None:
    """An upstream server at +08:00 and a downstream one at -03:00: every TIMESTAMP the target
    holds is the instant the upstream holds, copied (by PyMySQL or by Spark) or followed, and
    so is every TIMESTAMP default, a binlog's DDL written in a session at +03:00 or in the
    server's SYSTEM zone among them (a DATETIME is no instant: its text is kept). Read in the
    servers' own zones, the copy would have kept the text and the binlog moved it."""
    up, down = zoned
    db, dw = "z_" + uuid.uuid4().hex[:8], "zd_" + uuid.uuid4().hex[:8]
    up.execute(f"CREATE DATABASE {db}")
    down.execute(f"CREATE DATABASE {dw}")
    up.execute(
        "CREATE TABLE t_1 (id INT PRIMARY KEY, ts TIMESTAMP(3) NULL, dt DATETIME NULL, "
        "d TIMESTAMP NOT NULL DEFAULT '2020-06-01 12:00:00')",
        "INSERT INTO t_1 (id, ts, dt) VALUES (1, '2020-01-01 00:00:00.5', '2020-01-01 00:00:00'), "
        "(2, '2021-03-28 02:30:00', '2021-03-28 02:30:00')",
        database=db,
    )
    r = Replicator(
        {"up": up.url()},
        tables=f"{db}.t_*",
        target="t",
        downstream=down.url(dw),
        state=str(tmp_path / "state"),
        bulk=copy,
    )
    r.run()
    up.execute(
        "SET time_zone = '+03:00'",
        "ALTER TABLE t_1 ADD e TIMESTAMP NOT NULL DEFAULT '2021-01-01 00:00:00', "
        "ALTER d SET DEFAULT '2022-01-01 00:00:00'",
        "INSERT INTO t_1 (id, ts) VALUES (3, '2022-02-02 02:02:02.25')",
        "SET time_zone = 'SYSTEM'",
        "ALTER TABLE t_1 ADD f TIMESTAMP NULL DEFAULT '2023-01-01 00:00:00'",
        "INSERT INTO t_1 (id, dt) VALUES (4, '2024-01-01 00:00:00')",
        database=db,
    )
    r.run()
    assert _utc_rows(down, dw, "t") == _utc_rows(up, db, "t_1")
    assert r.group.joined.column("e").default == "2020-12-31 21:00:00"  # (+03:00's midnight)


def test_system_versioned_shards_reach_the_target_as_their_current_rows(s: Setup) -> None:
    """Shards made system-versioned (MariaDB's WITH SYSTEM VERSIONING: the server keeps every
    row's past versions beside it, and logs them as rows) before the first run and while the job
    follows: the target holds their current rows, as a query of the shards reads them (an
    UPDATE's old version, a DELETE's ended row and DELETE HISTORY's past rows reach it as the
    changes they make to the current rows)."""
    s.run(
        "up1",
        "ALTER TABLE orders_01 ADD SYSTEM VERSIONING",
        "SET SESSION system_versioning_alter_history = KEEP",
        "ALTER TABLE orders_01 MODIFY amount DECIMAL(10,2) NOT NULL DEFAULT 0.00 "
        "WITHOUT SYSTEM VERSIONING",
    )
    rows(s, "up1", "orders_01", 1, 3)
    r = s.replicator()
    r.run()
    every(s, "ALTER TABLE {t} ADD SYSTEM VERSIONING", {"up1": ["orders_02"], "up2": ["orders_03"]})
    rows(s, "up1", "orders_02", 10, 3)
    rows(s, "up2", "orders_03", 20, 3)
    s.run(
        "up1",
        "UPDATE orders_01 SET status = 'paid' WHERE id = 1",
        "UPDATE orders_01 SET amount = 7 WHERE id = 3",  # (a column without versioning)
        "DELETE FROM orders_01 WHERE id = 2",
    )
    s.run(
        "up2",
        "UPDATE orders_03 SET customer = 'x' WHERE id > 20",
        "DELETE FROM orders_03 WHERE id = 20",
    )
    s.run("up1", "DELETE HISTORY FROM orders_01", "ALTER TABLE orders_02 DROP SYSTEM VERSIONING")
    s.run(
        "up2",
        "SET SESSION system_versioning_alter_history = KEEP",
        "ALTER TABLE orders_03 ADD COLUMN note VARCHAR(10)",
        "UPDATE orders_03 SET note = 'n' WHERE id = 21",
    )
    s.run("up1", "DELETE FROM orders_02 WHERE id = 10")
    r.run()
    counts = assert_replicated(s, r)
    assert (counts[f"up1/{s.db}.orders_01"], counts[f"up2/{s.db}.orders_03"]) == (2, 2)
    assert counts[f"up1/{s.db}.orders_02"] == 2
    assert _target_values(s, "status")[1] == "paid"
    assert _target_values(s, "amount")[3] == 7
    assert _target_values(s, "customer")[22] == "x"
    assert _target_values(s, "note") == {**dict.fromkeys([1, 3, 11, 12, 22]), 21: "n"}


def test_a_shard_of_its_own_period_columns_reaches_the_target_as_its_current_rows(
    s: Setup,
) -> None:
    """A shard system-versioned by period columns of its own (``GENERATED ALWAYS AS ROW START``
    / ``ROW END``, its keys ending with the ROW END column), made while the job follows: its
    current rows reach the target, the period columns plain columns there (a join is never
    versioned), its past versions never."""
    r = s.replicator()
    r.run()
    s.run(
        "up2",
        "CREATE TABLE orders_04 (id BIGINT NOT NULL, customer VARCHAR(32) NOT NULL, amount "
        "DECIMAL(10,2) NOT NULL DEFAULT 0.00, status ENUM('new','paid') NOT NULL DEFAULT 'new', "
        "s TIMESTAMP(6) GENERATED ALWAYS AS ROW START, e TIMESTAMP(6) GENERATED ALWAYS AS ROW "
        "END, PERIOD FOR SYSTEM_TIME (s, e), PRIMARY KEY (id)) WITH SYSTEM VERSIONING",
    )
    rows(s, "up2", "orders_04", 40, 3)
    s.run(
        "up2",
        "UPDATE orders_04 SET status = 'paid' WHERE id = 40",
        "DELETE FROM orders_04 WHERE id = 41",
    )
    r.run()
    counts = assert_replicated(s, r)
    assert counts[f"up2/{s.db}.orders_04"] == 2
    assert _target_values(s, "status")[40] == "paid" and 41 not in _target_values(s, "status")


def test_members_whose_bytes_their_charset_does_not_read_reach_the_target_as_they_are(
    s: Setup,
) -> None:
    """An ENUM's and a SET's members of bytes their charset has no character for (shown ``?``
    by the server, two such members alike), added while the replicator follows, inserted and
    set by an update, reach the target as the upstream holds them: the same member (its
    index) and the same bytes."""
    s.run("up1", "INSERT INTO orders_01 (id, customer) VALUES (1, 'a'), (2, 'b'), (3, 'c')")
    r = s.replicator()
    r.run()
    every(
        s,
        "ALTER TABLE {t} ADD e ENUM('a', X'C3A9', X'C39F') CHARACTER SET ascii NULL, "
        "ADD f SET('a', X'E9', X'DF') CHARACTER SET ascii NOT NULL",
    )
    s.run(
        "up1",
        "UPDATE orders_01 SET e = 2, f = 2 WHERE id = 1",
        "UPDATE orders_01 SET e = 3, f = 7 WHERE id = 2",
        "UPDATE orders_01 SET e = 'a', f = 'a' WHERE id = 3",
        "INSERT INTO orders_01 (id, customer, e, f) VALUES (4, 'd', 3, 4), (5, 'e', 2, 6)",
        "UPDATE orders_01 SET e = 3, f = 5 WHERE id = 1",
        "UPDATE orders_01 SET e = 2 WHERE id = 3",
        "DELETE FROM orders_01 WHERE id = 5",
    )
    r.run()
    columns = "HEX(e), HEX(f), CAST(e AS UNSIGNED), CAST(f AS UNSIGNED)"
    _as_upstream(
        s,
        r,
        columns,
        [
            (1, "C39F", "612CDF", "3", "5"),
            (2, "C39F", "612CE92CDF", "3", "7"),
            (3, "C3A9", "61", "2", "1"),
            (4, "C39F", "DF", "3", "4"),
        ],
    )


@pytest.mark.parametrize("bulk", ["auto", "spark"])
def test_members_a_loose_session_made_alike_reach_the_target(
    s: Setup, bulk: str, request: pytest.FixtureRequest, caplog: pytest.LogCaptureFixture
) -> None:
    """An ENUM's and a SET's members that are one in their collation (``'a'`` and ``'A'``),
    which a session that is not strict makes (MariaDB's 1291 a note there, an error in a
    strict one; the server matches a value's text to the first of them), two before the
    replicator's first run (read from SHOW CREATE TABLE, their rows copied: row by row, also
    where Spark's copy, which writes their text, was asked for; a SET's value read as the text
    of its members, which two alike make ambiguous) and one added while it follows, reach the
    target with their rows, each value its own member."""
    if bulk == "spark":
        request.getfixturevalue("jdbc")
    loose = "SET SESSION sql_mode = ''"
    for server, tables in SHARDS.items():
        s.run(
            server,
            loose,
            *(
                f"ALTER TABLE {t} ADD e ENUM('a', 'A', 'b') NULL, ADD f SET('x', 'X', 'y')"
                for t in tables
            ),
        )
    s.run(
        "up1",
        loose,
        "INSERT INTO orders_01 (id, customer, e, f) VALUES (1, 'a', 'a', 3), (2, 'b', NULL, 4)",
        "UPDATE orders_01 SET e = 2 WHERE id = 1",
    )
    r = s.replicator(bulk=bulk)
    with caplog.at_level("WARNING", logger="mvdd.replicate"):
        r.run()
    assert len([m for m in caplog.messages if "copying row by row" in m]) == (bulk == "spark")
    for server, tables in SHARDS.items():
        s.run(server, loose, *(f"ALTER TABLE {t} ADD g SET('p', 'P', 'q')" for t in tables))
    s.run(
        "up1",
        "UPDATE orders_01 SET g = 3 WHERE id = 1",
        "INSERT INTO orders_01 (id, customer, e, f, g) VALUES (3, 'c', 1, 2, 2), (4, 'd', 'b', 5, 5)",
        "UPDATE orders_01 SET e = 1 WHERE id = 4",
        "UPDATE orders_01 SET e = 2 WHERE id = 3",
        "INSERT INTO orders_01 (id, customer, e, f) VALUES (5, 'e', 'A', 1)",
        "DELETE FROM orders_01 WHERE id = 5",
    )
    r.run()
    columns = (
        "HEX(e), HEX(f), HEX(g), CAST(e AS UNSIGNED), CAST(f AS UNSIGNED), CAST(g AS UNSIGNED)"
    )
    _as_upstream(
        s,
        r,
        columns,
        [
            (1, "41", "782C58", "702C50", "2", "3", "3"),
            (2, None, "79", None, None, "4", None),
            (3, "41", "58", "50", "2", "2", "2"),
            (4, "61", "782C79", "702C71", "1", "5", "5"),
        ],
    )


def _shop(up: MariaDB, tmp: Path, downstream: str | None, lake: Path | None = None) -> Replicator:
    """A replicator of ``shop.orders_*`` on ``up`` into ``orders`` (downstream, in a lake, or
    both), its state directory in ``tmp``."""
    return Replicator(
        {"up1": up.url()},
        tables="shop.orders_*",
        target="orders",
        downstream=downstream,
        lake=str(lake) if lake is not None else None,
        state=str(tmp / "state"),
    )


@pytest.mark.parametrize("into", ["downstream", "lake"])
def test_a_failover_to_a_promoted_replica_is_followed(
    servers: Servers, tmp_path: Path, into: str, request: pytest.FixtureRequest
) -> None:
    """The source's primary fails over to a replica, promoted: the replicator pointed at it goes
    on where that server holds the GTID position the target has applied (its binlog's files
    numbered lower than the old primary's, whose last DDL it had followed), reads nothing twice
    and misses nothing, and follows its DDL; the target ends with the new primary's rows and
    schema, at its GTID position. Into a lake alone, the GTID position is the one its newest
    batch holds beside its position (a kill between a batch and its checkpoint: the batch's
    position wins)."""
    spark = request.getfixturevalue("spark") if into == "lake" else None
    dw = "dw_" + uuid.uuid4().hex[:8]
    servers.down.execute(f"CREATE DATABASE {dw}")
    lake = tmp_path / "lake"
    with (
        private_server(binlog=True, server_id=45) as old,
        private_server(binlog=True, server_id=46) as new,
    ):

        def replicator(up: MariaDB) -> Replicator:
            down = servers.down.url(dw) if into == "downstream" else None
            return _shop(up, tmp_path, down, lake if into == "lake" else None)

        old.execute(
            "CREATE DATABASE shop",
            "CREATE TABLE shop.orders_1 (id INT PRIMARY KEY, amount INT)",
            "INSERT INTO shop.orders_1 VALUES (1, 10), (2, 20)",
        )
        replicator(old).run()
        old.execute(*["FLUSH BINARY LOGS"] * 3)
        old.execute(
            "ALTER TABLE shop.orders_1 ADD note VARCHAR(10)",
            "INSERT INTO shop.orders_1 VALUES (3, 30, 'x')",
            "UPDATE shop.orders_1 SET amount = 11 WHERE id = 1",
        )
        replicator(old).run()
        if into == "lake":  # (its checkpoint older than its batches)
            kept = json.loads((lake / "checkpoint.json").read_text())
            kept["source:up1"]["position"] = None
            kept["source:up1"]["data"].pop("gtid")
            (lake / "checkpoint.json").write_text(json.dumps(kept))
        promoted(old, new)
        new.execute(
            "ALTER TABLE shop.orders_1 ADD qty INT NOT NULL DEFAULT 1",
            "INSERT INTO shop.orders_1 VALUES (4, 40, 'y', 4)",
            "UPDATE shop.orders_1 SET note = 'z', qty = 2 WHERE id = 2",
            "DELETE FROM shop.orders_1 WHERE id = 3",
        )
        r = replicator(new)
        status = r.run()
        with contextlib.closing(new.connect()) as conn, conn.cursor() as cur:
            cur.execute("SELECT @@gtid_binlog_pos")
            assert applied(status) == {"up1": str(cur.fetchone()[0])}
            cur.execute("SELECT id, amount, note, qty FROM shop.orders_1 ORDER BY id")
            upstream = [tuple(row) for row in cur.fetchall()]
        assert [c.name for c in r.group.joined.columns] == ["id", "amount", "note", "qty"]
        if into == "lake":
            from mvdd.replicate.lake import compact_lake
            from mvdd.spark import read_lake

            compact_lake(spark, lake)
            rows = read_lake(spark, lake).orderBy("id").collect()
            assert [(r["id"], r["amount"], r["note"], r["qty"]) for r in rows] == upstream
            return
        verdict = verify(r.group, {"up1": new.url()}, servers.down.url(dw), "orders")
        assert verdict.ok, verdict.differences
        assert verdict.rows == {"up1/shop.orders_1": 3}
        assert texts(servers.down, dw, "orders", "amount, note, qty") == [
            (i, str(a), n, str(q)) for i, a, n, q in upstream
        ]


def test_a_failover_during_the_first_copy_copies_again(
    servers: Servers,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The first run stops after its snapshot, its copy not done (a kill), and the primary fails
    over before it runs again: the copy's start is a place in the old server's binlog, which
    the promoted replica at the address does not hold (its GTID position there is another), so
    the copy starts over from the new server, whose rows the target then holds."""
    dw = "dw_" + uuid.uuid4().hex[:8]
    servers.down.execute(f"CREATE DATABASE {dw}")
    with (
        private_server(binlog=True, server_id=49) as old,
        private_server(binlog=True, server_id=50) as new,
    ):

        def replicator(up: MariaDB) -> Replicator:
            return _shop(up, tmp_path, servers.down.url(dw))

        old.execute(
            "CREATE DATABASE shop",
            "CREATE TABLE shop.orders_1 (id INT PRIMARY KEY, amount INT)",
            "INSERT INTO shop.orders_1 VALUES (1, 10), (2, 20)",
            *["FLUSH BINARY LOGS"] * 3,
            "INSERT INTO shop.orders_1 VALUES (3, 30)",
        )

        def killed(*_: Any, **__: Any) -> None:
            raise KeyboardInterrupt  # (the process dies: nothing after the snapshot is done)

        with monkeypatch.context() as patch:
            patch.setattr(Replicator, "_copy", killed)
            with pytest.raises(KeyboardInterrupt):
                replicator(old).run()
        promoted(old, new)
        new.execute(
            "ALTER TABLE shop.orders_1 ADD note VARCHAR(10)",
            "INSERT INTO shop.orders_1 VALUES (4, 40, 'y')",
            "DELETE FROM shop.orders_1 WHERE id = 1",
        )
        r = replicator(new)
        with caplog.at_level("WARNING", logger="mvdd.replicate"):
            status = r.run()
        assert any("not the one its copy began on" in m for m in caplog.messages)
        verdict = verify(r.group, {"up1": new.url()}, servers.down.url(dw), "orders")
        assert verdict.ok, verdict.differences
        assert verdict.rows == {"up1/shop.orders_1": 3}
        with contextlib.closing(new.connect()) as conn, conn.cursor() as cur:
            cur.execute("SELECT @@gtid_binlog_pos")
            assert applied(status) == {"up1": str(cur.fetchone()[0])}
