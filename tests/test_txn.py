"""Transactions with data-dictionary read views: IEP-110's requirements, isolation modes, commit
validation, rollback-only marking, the MDL baseline, and a multi-thread stress test."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import mvdd.txn.transaction as txn_module
from mvdd import Catalog, CatalogError, MvddError, SchemaChangedError
from mvdd.compat import Report, check_table_versions
from mvdd.model.row import validate_row
from mvdd.store.base import Commit, CommitResult
from mvdd.store.memory import MemoryStore
from mvdd.txn import MetadataLocks, TxState


@pytest.fixture
def cat() -> Catalog:
    c = Catalog()
    c.execute("CREATE TABLE t (id INT PRIMARY KEY, a INT, b VARCHAR(10) DEFAULT 'x')")
    c.execute("CREATE TABLE u (id INT PRIMARY KEY)")
    return c


def test_requirement_1_one_schema_per_table_for_the_whole_life(cat: Catalog) -> None:
    tx = cat.begin()
    first = tx.table("t")
    cat.execute("ALTER TABLE t ADD c INT")
    cat.execute("ALTER TABLE t MODIFY a BIGINT")
    for _ in range(3):
        assert tx.table("t") is first or tx.table("t") == first
    tx.commit()  # both changes are forward-compatible
    assert tx.state == TxState.COMMITTED


def test_requirement_2_tables_created_after_begin_are_visible(cat: Catalog) -> None:
    tx = cat.begin()
    cat.execute("CREATE TABLE late (x INT)")
    assert tx.table("late").column_names == ("x",)
    tx.commit()


def test_requirement_3_altered_before_first_access_binds_the_new_version(cat: Catalog) -> None:
    tx = cat.begin()
    cat.execute("ALTER TABLE t DROP COLUMN a")  # incompatible, but tx has not touched t yet
    assert tx.table("t").version == 2
    assert tx.state == TxState.ACTIVE
    tx.commit()


def test_incompatible_change_marks_rollback_only_at_once(cat: Catalog) -> None:
    tx = cat.begin()
    tx.table("t")
    cat.execute("ALTER TABLE t DROP COLUMN a")
    assert tx.state == TxState.ROLLBACK_ONLY
    assert [v.kind for v in tx.doom.violations] == ["drop_column"]  # type: ignore[union-attr]
    with pytest.raises(SchemaChangedError) as info:
        tx.table("t")
    assert info.value.retryable and info.value.report is tx.doom
    with pytest.raises(SchemaChangedError):
        tx.commit()


def judgements(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int, int]]:
    """The (table id, since, until) of each range the transactions' review judges from now on."""
    judged: list[tuple[int, int, int]] = []
    real = txn_module.check_table_versions

    def counting(catalog: Catalog, table_id: int, since: int, until: int) -> Report:
        judged.append((table_id, since, until))
        return real(catalog, table_id, since, until)

    monkeypatch.setattr(txn_module, "check_table_versions", counting)
    return judged


def test_a_ddl_judges_each_bound_version_once_for_all_its_transactions(
    cat: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    judged = judgements(monkeypatch)
    early = [cat.begin() for _ in range(30)]
    for tx in early:
        tx.table("t")  # version 1
    cat.execute("ALTER TABLE t ADD c INT")  # forward-compatible: every transaction lives on
    assert judged == [(cat.table_id("t"), 1, 2)]
    late = [cat.begin() for _ in range(30)]
    for tx in late:
        tx.table("t")  # version 2
    judged.clear()
    cat.execute("ALTER TABLE t DROP COLUMN a")
    tid = cat.table_id("t")
    assert sorted(judged) == [(tid, 1, 3), (tid, 2, 3)]  # two bound versions: two judgements
    assert {tx.state for tx in early + late} == {TxState.ROLLBACK_ONLY}
    assert len({id(tx.doom) for tx in early}) == 1  # the verdict is shared, not rebuilt


def test_a_compatible_ddl_judges_its_own_version_and_reviews_only_strict_transactions(
    cat: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A forward-compatible version breaks no transaction that was not broken before it (a
    range's verdict is its versions' verdicts in turn): the review judges that one version
    however many versions the live transactions bound, and dooms only the strict ones, whom
    any move breaks."""
    bound = []
    for n in range(3):  # repeatable-read transactions bound at versions 1, 2 and 3
        bound += [cat.begin() for _ in range(10)]
        for tx in bound[-10:]:
            tx.table("t")
        cat.execute(f"ALTER TABLE t ADD c{n} INT")
    strict = cat.begin(isolation="strict")
    strict.table("t")
    judged = judgements(monkeypatch)
    cat.execute("ALTER TABLE t MODIFY a BIGINT")  # widening: forward-compatible
    tid = cat.table_id("t")
    assert judged == [(tid, 4, 5)]
    assert {tx.state for tx in bound} == {TxState.ACTIVE}
    assert strict.state == TxState.ROLLBACK_ONLY and strict.doom is not None
    assert strict.doom.compatible  # doomed for the move, not for a violation
    for tx in bound:
        tx.commit()


@pytest.mark.parametrize(
    "isolation,sql,doomed",
    [
        ("strict", "ALTER TABLE t ADD c INT", True),  # any move breaks a strict one
        ("repeatable_read", "ALTER TABLE t DROP COLUMN a", True),
        ("repeatable_read", "ALTER TABLE t ADD c INT", False),
    ],
)
def test_a_version_landing_while_a_transaction_binds_is_judged_on_its_binding(
    cat: Catalog, monkeypatch: pytest.MonkeyPatch, isolation: str, sql: str, doomed: bool
) -> None:
    """Reading the head and storing the binding are two steps: a version landing between
    them is reviewed before the binding is there to see, so the transaction judges its own
    binding once stored."""
    tx = cat.begin(isolation=isolation)
    read = Catalog.table
    fired: list[bool] = []

    def racing(name: str, **kwargs: Any) -> Any:
        found = read(cat, name, **kwargs)
        if not fired:
            fired.append(True)
            cat.execute(sql)  # lands, and is reviewed, between the read and the binding
        return found

    monkeypatch.setattr(cat, "table", racing)
    assert tx.table("t").version == 1 and cat.version("t") == 2
    assert (tx.state == TxState.ROLLBACK_ONLY) == doomed


ALTERS = (
    "ALTER TABLE {t} ADD c{n} INT",  # forward-compatible
    "ALTER TABLE {t} MODIFY a BIGINT",  # widening: forward-compatible
    "ALTER TABLE {t} MODIFY a INT",  # narrowing: breaks a bound BIGINT
    "ALTER TABLE {t} DROP COLUMN c{n}",  # breaks a transaction that saw c{n}
)


@given(
    plan=st.lists(
        st.tuples(
            st.integers(0, len(ALTERS) - 1),
            st.sampled_from(["t", "u"]),
            st.lists(
                st.tuples(
                    st.sampled_from(["repeatable_read", "read_committed", "strict"]),
                    st.sampled_from([("t",), ("u",), ("t", "u")]),
                ),
                max_size=3,
            ),
            st.booleans(),
        ),
        min_size=1,
        max_size=12,
    )
)
def test_reviewed_states_agree_with_judging_each_transaction_alone(
    plan: list[tuple[int, str, list[tuple[str, tuple[str, ...]]], bool]],
) -> None:
    """Transactions of every isolation bound to one table or both between ALTERs of either,
    which another catalog of the same store writes: the reviewing catalog takes them in
    batches of one or more versions (when a step asks it to catch up). After the stream each
    transaction is rollback-only exactly when the check of its own range of a table it bound,
    from the version it first saw to the head (the oracle: the compatibility check called
    directly, one transaction at a time), says it cannot commit; a strict one also when a
    table it bound changed at all."""
    store = MemoryStore()
    writer, cat = Catalog(store), Catalog(store)
    writer.execute("CREATE TABLE t (id INT PRIMARY KEY, a INT); CREATE TABLE u LIKE t")
    cat.refresh()
    txs = []
    added = {"t": 0, "u": 0}
    for pick, table, binders, catch_up in plan:
        for isolation, tables in binders:
            tx = cat.begin(isolation=isolation)
            for name in tables:
                tx.table(name)
            txs.append(tx)
        n = added[table]
        if pick == 3 and f"c{n}" not in writer.table(table).column_names:
            pick = 0  # nothing to drop yet: add instead
        if pick == 0:
            n = added[table] = n + 1
        writer.execute(ALTERS[pick].format(t=table, n=n))
        if catch_up:
            cat.refresh()
    cat.refresh()
    for tx in txs:
        broken = False
        for name, binding in tx.bound.items():
            head = cat.version(name)
            broken |= not check_table_versions(
                cat, binding.table_id, binding.version, head
            ).compatible
            broken |= tx.isolation == "strict" and binding.version != head
        assert (tx.state == TxState.ROLLBACK_ONLY) == broken, (tx.isolation, tx.bound)


def test_changes_to_other_tables_do_not_matter(cat: Catalog) -> None:
    tx = cat.begin()
    tx.table("t")
    cat.execute("ALTER TABLE u DROP PRIMARY KEY, ADD x INT")
    cat.execute("DROP TABLE u")
    tx.commit()


def test_a_change_and_its_undo_both_count(cat: Catalog) -> None:
    tx = cat.begin()
    bound = tx.table("t")
    cat.execute("ALTER TABLE t ADD tmp INT")
    cat.execute("ALTER TABLE t DROP COLUMN tmp")
    assert cat.table("t").equivalent(bound)  # the schema looks the same ...
    with pytest.raises(SchemaChangedError) as info:  # ... but a drop happened in between
        tx.commit()
    assert [v.kind for v in info.value.report.violations] == ["drop_column"]
    assert tx.state == TxState.ROLLED_BACK


def test_drop_and_rename_fail_the_commit(cat: Catalog) -> None:
    for ddl, kind in (("RENAME TABLE t TO t2", "rename_table"), ("DROP TABLE t2", "drop_table")):
        tx = cat.begin()
        tx.table("t" if kind == "rename_table" else "t2")
        cat.execute(ddl)
        with pytest.raises(SchemaChangedError) as info:
            tx.commit()
        assert kind in [v.kind for v in info.value.report.violations]


def test_read_committed_sees_the_newest_version(cat: Catalog) -> None:
    tx = cat.begin(isolation="read_committed")
    assert tx.table("t").version == 1
    cat.execute("ALTER TABLE t ADD c INT")
    assert tx.table("t").version == 2 and "c" in tx.table("t").column_names
    tx.commit()
    tx = cat.begin(isolation="read_committed")
    tx.table("t")
    cat.execute("ALTER TABLE t DROP COLUMN c")
    with pytest.raises(SchemaChangedError):
        tx.table("t")


def test_strict_aborts_on_any_change_since_binding(cat: Catalog) -> None:
    tx = cat.begin(isolation="strict")
    tx.table("t")
    cat.execute("ALTER TABLE t ADD c INT")  # compatible, yet strict refuses to go on
    assert tx.state == TxState.ROLLBACK_ONLY
    with pytest.raises(SchemaChangedError):
        tx.table("t")
    tx2 = cat.begin(isolation="strict")
    tx2.table("t")
    tx2.commit()
    for wrong in ("serializable", ["strict"], None):  # unknown, unhashable, missing
        with pytest.raises(CatalogError):
            cat.begin(isolation=wrong)  # type: ignore[arg-type]


def test_with_commits_on_clean_exit_and_rolls_back_on_exception(cat: Catalog) -> None:
    with cat.begin() as tx:
        tx.table("t")
    assert tx.state == TxState.COMMITTED
    with pytest.raises(ZeroDivisionError), cat.begin() as tx2:
        tx2.table("t")
        1 / 0  # noqa: B018
    assert tx2.state == TxState.ROLLED_BACK
    with pytest.raises(CatalogError):
        tx2.table("t")
    with pytest.raises(SchemaChangedError), cat.begin() as tx3:
        tx3.table("t")
        cat.execute("ALTER TABLE t DROP COLUMN b")


def test_rows_are_validated_against_the_bound_version(cat: Catalog) -> None:
    tx = cat.begin()
    table = tx.table("t")
    cat.execute("ALTER TABLE t ADD c INT NOT NULL DEFAULT 7")
    assert validate_row(tx.table("t"), {"id": 1, "a": "2"}) == {"id": 1, "a": 2, "b": "x"}
    assert validate_row(cat.table("t"), {"id": 1})["c"] == 7
    with pytest.raises(MvddError):
        validate_row(table, {"id": 1, "c": 3})  # c is not in the bound version
    tx.commit()


def test_commit_sees_other_processes_and_their_batch_dooms_as_a_whole(tmp_path: Path) -> None:
    """A commit refreshes first; the versions another process committed arrive in one batch,
    and a DROP then an ADD of the same name breaks the transactions bound before them, though
    the batch's last version alone is compatible."""
    path = str(tmp_path / "c.db")
    with Catalog.open(path) as writer, Catalog.open(path) as reader:
        writer.execute("CREATE TABLE t (a INT, b INT)")
        first, second = reader.begin(), reader.begin()
        first.table("t")
        second.table("t")
        writer.execute("ALTER TABLE t DROP b")
        writer.execute("ALTER TABLE t ADD b INT")
        with pytest.raises(SchemaChangedError):
            first.commit()
        assert second.state == TxState.ROLLBACK_ONLY
        assert [v.kind for v in second.doom.violations] == ["drop_column"]  # type: ignore[union-attr]


def test_a_bound_table_is_handed_back_as_bound(cat: Catalog) -> None:
    tx = cat.begin()
    first = tx.table("t")
    cat.execute("ALTER TABLE t ADD c INT")
    assert tx.table("t") is first  # the very value bound, not a lookup of an equal one
    assert tx.bound["t"].table is first and tx.bound["t"].version == first.version
    tx.commit()
    with pytest.raises(CatalogError, match="committed"):
        tx.table("t")  # an ended transaction reads nothing, bound or not
    rolled = cat.begin()
    rolled.table("t")
    rolled.rollback()
    with pytest.raises(CatalogError, match="rolled_back"):
        rolled.table("t")


class _SlowStore(MemoryStore):
    """A store whose commit, once it has taken the rows, waits to be let go: the statement
    running it holds the catalog's writer lock with the store's sequence ahead of the
    catalog's (the moment between a statement's store commit and its publishing)."""

    def __init__(self) -> None:
        super().__init__()
        self.slow = False
        self.inside = threading.Event()
        self.go = threading.Event()

    def commit(self, commit: Commit) -> CommitResult:
        result = super().commit(commit)
        if self.slow:
            self.inside.set()
            self.go.wait(10)
        return result


def test_dml_does_not_wait_for_a_statement_being_published() -> None:
    store = _SlowStore()
    cat = Catalog(store)
    cat.execute("CREATE TABLE t (id INT PRIMARY KEY, a INT)")
    bound = cat.begin()
    bound.table("t")
    store.slow = True
    ddl = threading.Thread(target=cat.execute, args=("ALTER TABLE t DROP COLUMN a",))
    ddl.start()
    try:
        assert store.inside.wait(10)
        assert store.last_seq() == cat.seq + 1  # committed in the store, not yet published
        tx = cat.begin()  # does not wait for the writer lock
        assert tx.table("t").column_names == ("id", "a")  # the published state
        tx.commit()  # ordered before the statement being published
        # all that ran while the statement still held the lock (a wait would have outlasted it)
        assert ddl.is_alive() and store.last_seq() == cat.seq + 1
        assert bound.state == TxState.ACTIVE
    finally:
        store.go.set()
        ddl.join()
    # published: the transaction bound before it is told, and the next reads see it
    assert bound.state == TxState.ROLLBACK_ONLY
    with pytest.raises(SchemaChangedError):
        bound.table("t")
    assert cat.begin().table("t").column_names == ("id",)


def test_mdl_baseline_blocks_like_mysql(cat: Catalog) -> None:
    MetadataLocks.install(cat)
    long_tx = cat.begin()
    long_tx.table("t")
    events: list[str] = []

    def ddl() -> None:
        cat.execute("ALTER TABLE t ADD c INT")
        events.append("ddl done")

    def late_reader() -> None:
        tx = cat.begin()
        tx.table("t")
        events.append("late reader got t")
        tx.commit()

    d = threading.Thread(target=ddl)
    d.start()
    time.sleep(0.2)
    r = threading.Thread(target=late_reader)
    r.start()
    time.sleep(0.2)
    assert events == []  # the DDL waits for the long transaction, the late reader behind it
    long_tx.commit()
    d.join(5)
    r.join(5)
    assert events == ["ddl done", "late reader got t"]


def test_without_mdl_ddl_never_waits(cat: Catalog) -> None:
    long_tx = cat.begin()
    long_tx.table("t")
    started = time.perf_counter()
    cat.execute("ALTER TABLE t ADD c INT")
    assert time.perf_counter() - started < 0.5
    late = cat.begin()
    assert late.table("t").version == 2
    long_tx.commit()
    late.commit()


def test_stress_no_transaction_sees_two_schemas() -> None:
    """4 threads x 300 transactions with a DDL thread: no transaction ever sees two schemas of
    one table, and the only errors are retryable."""
    cat = Catalog()
    cat.execute("CREATE TABLE a (id INT PRIMARY KEY, x INT, y VARCHAR(10))")
    cat.execute("CREATE TABLE b (id INT PRIMARY KEY, z INT)")
    stop = threading.Event()
    seen_two: list[str] = []
    other_errors: list[BaseException] = []
    counts = {"committed": 0, "retried": 0}
    lock = threading.Lock()

    def worker(seed: int) -> None:
        rng = random.Random(seed)
        done = 0
        while done < 300:
            tx = cat.begin()
            try:
                views: dict[str, tuple[int, tuple[str, ...]]] = {}
                for _ in range(4):
                    for name in ("a", "b"):
                        table = tx.table(name)
                        first = views.setdefault(name, (table.version, table.column_names))
                        if (table.version, table.column_names) != first:
                            seen_two.append(
                                f"{name}: {first} then {(table.version, table.column_names)}"
                            )
                        validate_row(table, {"id": rng.randrange(1000)})
                    time.sleep(0.0002)  # storage I/O: other threads, the DDL one too, run meanwhile
                tx.commit()
                done += 1
                with lock:
                    counts["committed"] += 1
            except SchemaChangedError as err:
                assert err.retryable
                with lock:
                    counts["retried"] += 1
            except BaseException as err:
                other_errors.append(err)
                return

    def ddl() -> None:
        n = 0
        indexed = {"a": False, "b": False}
        while not stop.is_set():
            n += 1
            table = "a" if n % 2 else "b"
            if n % 3 == 0:  # a column added and dropped: breaks the transactions bound before
                cat.execute(f"ALTER TABLE {table} ADD c{n} INT")
                cat.execute(f"ALTER TABLE {table} DROP COLUMN c{n}")
            else:  # forward-compatible, and the tables keep their width (so their speed)
                verb = "DROP INDEX ix" if indexed[table] else "ADD INDEX ix (id)"
                cat.execute(f"ALTER TABLE {table} {verb}")
                indexed[table] = not indexed[table]
            time.sleep(0.001)

    workers = [threading.Thread(target=worker, args=(i,)) for i in range(4)]
    ddl_thread = threading.Thread(target=ddl)
    ddl_thread.start()
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    stop.set()
    ddl_thread.join()
    assert other_errors == []
    assert seen_two == []
    assert counts["committed"] == 1200
    assert counts["retried"] > 0  # the DDL stream did break some transactions
