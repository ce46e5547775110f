"""Transactions with data-dictionary read views (seeds 003 and 004).

A transaction binds each table's version the first time it touches the table, and keeps seeing
that version (repeatable read of the dictionary, as MySQL and PolarDB): DDL never waits for it.
A table created after the transaction began is visible to it (IEP-110 requirement 2); one altered
after it began but before its first access binds its new version (requirement 3).

At commit every bound table is checked from its bound version I to the current version C, step
by step (a change and its undo both count); if any step is not forward-compatible the commit
raises the retryable :class:`~mvdd.errors.SchemaChangedError` with the report. When a DDL lands,
the transactions it makes incompatible are marked rollback-only at once and fail at their next
operation (an optimisation: they could never commit).

Isolation (a ``str`` enum):

- ``repeatable_read`` (default): each table is read at its bound version for the whole life.
- ``read_committed``: each access sees the newest version (as Oracle); commit still checks from
  the first version seen.
- ``strict`` (IEP-110 option 3): any operation on a table whose schema changed since it was bound
  aborts the transaction.
"""

from __future__ import annotations

import threading
import weakref
from enum import StrEnum
from typing import Any, Self

import attrs

from mvdd.catalog.catalog import Catalog, begin_transaction
from mvdd.compat import Report, check_table_versions
from mvdd.errors import CatalogError, MvddError, NoSuchTableError, SchemaChangedError
from mvdd.model import Table


class Isolation(StrEnum):
    REPEATABLE_READ = "repeatable_read"
    READ_COMMITTED = "read_committed"
    STRICT = "strict"


#: each isolation by its name (a member is its own name too: they are strings)
_ISOLATIONS = {i.value: i for i in Isolation}


class TxState(StrEnum):
    ACTIVE = "active"
    ROLLBACK_ONLY = "rollback_only"
    COMMITTED = "committed"
    ROLLED_BACK = "rolled_back"


@attrs.frozen
class Binding:
    """A table a transaction has touched: its id, the version it bound (I), and that version's
    schema (an immutable value: a repeatable read hands back this very object)."""

    table_id: int
    name: str
    version: int
    table: Table = attrs.field(eq=False, repr=False)


class Registry:
    """The live transactions of one catalog, told about every batch of new versions.

    Without a lock: beginning and ending a transaction is a dict store and a dict pop or two
    (atomic in CPython), so DML threads never block one another, or block behind a DDL
    reviewing them, here. An abandoned transaction leaves when it is collected."""

    def __init__(self, catalog: Any) -> None:
        self._catalog = weakref.ref(catalog)
        self._live: dict[int, weakref.ref[Transaction]] = {}
        #: the strict ones among them, whom any new version of a table they bound breaks
        self._strict: dict[int, weakref.ref[Transaction]] = {}
        self.locks: Any = None  # a MetadataLocks when the MDL baseline is installed

    def add(self, tx: Transaction) -> None:
        key, live, strict = id(tx), self._live, self._strict

        def gone(_: weakref.ref[Transaction]) -> None:
            live.pop(key, None)
            strict.pop(key, None)

        ref = weakref.ref(tx, gone)
        live[key] = ref
        if tx.isolation is Isolation.STRICT:
            strict[key] = ref

    def discard(self, tx: Transaction) -> None:
        key = id(tx)
        self._live.pop(key, None)
        self._strict.pop(key, None)

    def __call__(self, changes: list[Any]) -> None:
        """A batch of versions landed: doom the transactions it makes incompatible.

        A range's verdict is its versions' verdicts one after the other, so a batch whose
        versions are each forward-compatible leaves every transaction as compatible as it was
        (one it broke earlier was doomed then): only the strict transactions, whom any move
        breaks, are reviewed, and a DDL beside any number of other transactions costs the
        judgement of its own version. A batch that breaks something reviews every live
        transaction. Each (table, bound version) is judged once per batch, however many
        transactions bound it, and a transaction the batch leaves compatible costs a few
        lookups here, no call."""
        if not self._live:
            return
        catalog = self._catalog()
        verdicts: dict[tuple[int, int], _Verdict | None] = {}
        first: dict[int, int] = {}  # each table's first version in the batch
        for c in changes:
            first[c.table_id] = min(first.get(c.table_id, c.version), c.version)
        harmless = True
        for tid, version in first.items():
            since = max(version - 1, 1)
            verdict = verdicts[(tid, since)] = _judge(catalog, tid, since)
            if verdict is None or verdict.breaks:
                harmless = False
        touched = first.keys()
        active = TxState.ACTIVE
        for ref in list((self._strict if harmless else self._live).values()):
            tx = ref()
            if tx is None or tx.state is not active:
                continue
            for binding in tuple(tx._bound.values()):  # (its DML thread may bind another)
                if binding.table_id not in touched:
                    continue
                key = (binding.table_id, binding.version)
                if key in verdicts:
                    verdict = verdicts[key]
                else:
                    verdict = verdicts[key] = _judge(catalog, *key)
                if verdict is None:
                    continue  # the table is gone from the catalog's ids: nothing to judge
                if verdict.dooms(tx):
                    tx._doom(verdict.report)
                    break

    def review(self, tx: Transaction, binding: Binding) -> None:
        """One transaction's new binding, judged as a batch's review judges it: a version
        that landed while the transaction was binding the version before it finds the
        binding only if its review came after it, so the transaction reviews itself (once
        the binding is stored, the newest version it sees is one a review will see too)."""
        verdict = _judge(self._catalog(), binding.table_id, binding.version)
        if verdict is not None and verdict.dooms(tx):
            tx._doom(verdict.report)


_ATTACH = threading.Lock()


def registry_of(catalog: Any) -> Registry:
    """The catalog's transaction registry (kept on the catalog; created, and subscribed to
    its new versions, on first use)."""
    registry = catalog.sessions
    if registry is None:
        with _ATTACH:
            registry = catalog.sessions
            if registry is None:
                registry = catalog.sessions = Registry(catalog)
                catalog.add_listener(registry)
    return registry


class Transaction:
    """A transaction's data-dictionary read view. Use ``cat.begin()`` to start one.

    >>> import mvdd
    >>> cat = mvdd.Catalog()
    >>> _ = cat.execute("CREATE TABLE t (a INT)")
    >>> tx = cat.begin()
    >>> tx.table("t").version
    1
    >>> _ = cat.execute("ALTER TABLE t ADD b INT")   # does not wait for tx
    >>> tx.table("t").column_names, cat.table("t").column_names
    (('a',), ('a', 'b'))
    >>> tx.commit()                                  # ADD nullable COLUMN: forward-compatible
    """

    def __init__(self, catalog: Any, *, isolation: str = "repeatable_read") -> None:
        try:
            self.isolation = _ISOLATIONS[isolation]
        except (KeyError, TypeError):
            raise CatalogError(
                f"isolation must be one of {[i.value for i in Isolation]}, not {isolation!r}"
            ) from None
        self.catalog = catalog
        self.state = TxState.ACTIVE
        self.doom: Report | None = None
        self._bound: dict[str, Binding] = {}
        # a bound table may be handed back as bound: active, and not read committed (a strict
        # transaction whose table changes is made rollback-only by the registry, which clears this)
        self._fast = self.isolation != Isolation.READ_COMMITTED
        self._lock = threading.Lock()
        self._registry = registry_of(catalog)
        self._registry.add(self)

    # -- reading ------------------------------------------------------------------------------

    @property
    def bound(self) -> dict[str, Binding]:
        """The tables this transaction has touched, by the name it used."""
        return dict(self._bound)

    def _usable(self) -> None:
        if self.state == TxState.ROLLBACK_ONLY:
            raise SchemaChangedError(
                "a schema change made this transaction unable to commit; retry it",
                table=self.doom.table if self.doom else None,
                report=self.doom,
            )
        if self.state != TxState.ACTIVE:
            raise CatalogError(f"the transaction is {self.state.value}")

    def table(self, name: str) -> Table:
        """The table as this transaction sees it; the first access binds its version."""
        if self._fast:  # the hot path: a bound table, as bound (one flag, one dict lookup)
            binding = self._bound.get(name)
            if binding is not None:
                return binding.table
        if self.state is not TxState.ACTIVE:
            self._usable()  # raises
        binding = self._bound.get(name)
        cat = self.catalog
        if binding is None:
            locks = self._registry.locks
            if locks is not None:
                locks.acquire_shared(name, self)
            table = cat.table(name)
            binding = self._bound[name] = Binding(table.id, name, table.version, table)
            if cat.version_by_id(table.id) != table.version:
                # a version landed between the read and the binding: its review may have
                # passed this transaction by before the binding was there to see
                self._registry.review(self, binding)
            return table
        if self.isolation == Isolation.READ_COMMITTED:
            try:
                return cat.table_by_id(binding.table_id)
            except MvddError as err:
                raise self._abort(err, binding) from None
        if (
            self.isolation == Isolation.STRICT
            and cat.version_by_id(binding.table_id) != binding.version
        ):
            raise self._abort(None, binding)
        return binding.table

    def _abort(self, err: MvddError | None, binding: Binding) -> SchemaChangedError:
        current = self.catalog.version_by_id(binding.table_id)
        report = check_table_versions(self.catalog, binding.table_id, binding.version, current)
        self._end(TxState.ROLLED_BACK)
        return SchemaChangedError(
            f"the schema of `{binding.name}` changed under the transaction (version "
            f"{binding.version} to {current}); retry it",
            table=binding.name,
            report=report,
        )

    # -- ending -------------------------------------------------------------------------------

    def commit(self) -> None:
        """Commit: every bound table must be forward-compatible from its bound version to the
        current one, step by step; else raise SchemaChangedError (retryable) with the report.
        Either way the transaction is over."""
        if self.state == TxState.ROLLBACK_ONLY:
            self._end(TxState.ROLLED_BACK)
            raise SchemaChangedError(
                "a schema change made this transaction unable to commit; retry it",
                table=self.doom.table if self.doom else None,
                report=self.doom,
            )
        if self.state is not TxState.ACTIVE:
            self._usable()  # raises
        self.catalog.refresh(wait=False)  # never waits for a statement being run
        for binding in self._bound.values():
            current = self.catalog.version_by_id(binding.table_id)
            if current == binding.version:
                continue
            report = check_table_versions(self.catalog, binding.table_id, binding.version, current)
            if not report.compatible:
                self._end(TxState.ROLLED_BACK)
                raise SchemaChangedError(
                    f"`{binding.name}` changed incompatibly since the transaction bound it "
                    f"(version {binding.version} to {current}); retry the transaction",
                    table=binding.name,
                    report=report,
                )
        self._end(TxState.COMMITTED)

    def rollback(self) -> None:
        """Roll back (always possible; a no-op once the transaction is over)."""
        if self.state in (TxState.ACTIVE, TxState.ROLLBACK_ONLY):
            self._end(TxState.ROLLED_BACK)

    def _end(self, state: TxState) -> None:
        self._fast = False
        self.state = state
        self._registry.discard(self)
        locks = self._registry.locks
        if locks is not None:
            locks.release_all(self)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        if exc_type is None:
            self.commit()
        else:
            self.rollback()

    # -- told by the registry ---------------------------------------------------------------------

    def _doom(self, report: Report) -> None:
        """A new version breaks this transaction: it becomes rollback-only (unless it ended
        meanwhile)."""
        with self._lock:
            if self.state == TxState.ACTIVE:
                self._fast = False
                self.doom = report
                self.state = TxState.ROLLBACK_ONLY


@attrs.frozen
class _Verdict:
    """A bound version judged against the current one: the forward check's report, whether
    it breaks a transaction, and whether the version moved (which breaks a strict one)."""

    report: Report
    breaks: bool
    moved: bool

    def dooms(self, tx: Transaction) -> bool:
        """Whether a transaction that bound the judged version cannot commit, or may not go
        on (a strict one, whose table moved)."""
        return self.breaks or (self.moved and tx.isolation is Isolation.STRICT)


def _judge(catalog: Any, table_id: int, version: int) -> _Verdict | None:
    """A bound version's forward check against the table's current version (None when the
    catalog no longer knows the table)."""
    try:
        current = catalog.version_by_id(table_id)
        report = check_table_versions(catalog, table_id, version, current)
    except NoSuchTableError:
        return None
    return _Verdict(report, not report.compatible, current != version)


@begin_transaction.register
def _(catalog: Catalog, *, isolation: str) -> Transaction:
    return Transaction(catalog, isolation=isolation)
