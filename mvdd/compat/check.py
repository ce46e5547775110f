"""Checking compatibility step by step: of a list of statements, or of a catalog's versions.

A change from I to C is judged one simple step at a time (seed 003): a compound statement is its
steps in order, several versions are their statements in order, and a change and its undo both
count (``ADD COLUMN x`` then ``DROP COLUMN x`` is not forward-compatible, though I equals C).
Steps on other tables are compatible. Verdicts on a catalog's versions are cached per catalog,
table id, version and mode (versions never change), so checking a range costs one lookup per
version in it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from mvdd.compat.report import Mode, Report, Violation
from mvdd.compat.rules import BACKWARD, FORWARD, Finding, Rule
from mvdd.ddl import step as s
from mvdd.ddl.apply import apply, validate_table
from mvdd.ddl.order import in_server_order
from mvdd.ddl.rules import Rules
from mvdd.ddl.statement import parse_statements, parse_table
from mvdd.errors import CatalogError, MvddError, NoSuchVersionError, UnsupportedDDLError
from mvdd.model import Table


class _History(Protocol):
    """What a catalog offers the checker (the catalog layer sits above this one)."""

    #: whether the catalog follows a server (its statements already ran there), and which one
    replica: bool
    flavor: str | None

    def table_id(self, name: str) -> int: ...

    def table_by_id(self, table_id: int, *, version: int | None = None) -> Table: ...

    def history_by_id(self, table_id: int) -> list[Any]: ...

    def change_by_id(self, table_id: int, version: int) -> Any: ...

    def version_by_id(self, table_id: int) -> int: ...

    #: the verdicts judged on this catalog, by (table id, version, mode): a published version
    #: never changes, so neither does its verdict (its violations, the steps judged, whether it
    #: dropped the table)
    verdicts: dict[tuple[int, int, Mode], tuple[list[Violation], int, bool]]


def _mode(mode: str) -> Mode:
    try:
        return Mode(mode)
    except ValueError:
        raise CatalogError(f"mode must be forward, backward or full, not {mode!r}") from None


def _rules(mode: Mode) -> list[tuple[str, dict[type[s.Step], Rule]]]:
    if mode == Mode.FORWARD:
        return [("forward", FORWARD)]
    if mode == Mode.BACKWARD:
        return [("backward", BACKWARD)]
    return [("forward", FORWARD), ("backward", BACKWARD)]


def judge_step(
    step: s.Step, before: Table, after: Table | None, mode: str = "forward", *, version: int = 0
) -> list[Violation]:
    """The violations of one step, from ``before`` to ``after`` (None: the table is gone)."""
    out: list[Violation] = []
    for direction, table in _rules(_mode(mode)):
        rule = table.get(type(step))
        if rule is None:
            raise UnsupportedDDLError(f"no compatibility rule for {type(step).__name__}")
        findings: list[Finding] = rule(step, before, after)
        out.extend(
            Violation(
                kind=f.kind,
                table=before.name,
                column=f.column.name if f.column is not None else None,
                column_id=f.column.id if f.column is not None else None,
                step=str(step),
                message=f.message,
                direction=direction,
                version=version,
            )
            for f in findings
        )
    return out


def _walk(
    table: Table,
    steps: Iterable[s.Step],
    mode: str,
    version: int,
    *,
    rules: Rules = Rules.MVDD,
    result: Table | None = None,
) -> tuple[Table | None, list[Violation], int]:
    """Apply steps to ``table`` one at a time under ``rules``, judging each on it; stops if
    the table goes. ``result``: what the steps made, when a catalog holds it (a version, which
    its statement's session made under the catalog's rules): a lone step is judged against it
    rather than applied again, and so is a step the rules given refuse (the session that ran
    it took it: a replica's server, a session that was not strict), not raised."""
    steps = tuple(steps)
    violations: list[Violation] = []
    count = 0
    current: Table | None = table
    for st in steps:
        if current is None:
            break
        if st.table != current.name and not isinstance(st, s.CreateTable | s.CreateTableLike):
            continue  # a step on another table: compatible
        if isinstance(st, s.CreateTable | s.CreateTableLike):
            continue
        if isinstance(st, s.DropTable):
            after = None
        elif result is not None and len(steps) == 1:
            after = result
        else:
            try:
                after = apply(st, current, rules=rules)
            except MvddError:
                if result is None:
                    raise
                after = result
        violations.extend(judge_step(st, current, after, mode, version=version))
        count += 1
        current = after
    return current, violations, count


def _in_order(table: Table, steps: tuple[s.Step, ...]) -> list[s.Step]:
    """An ALTER TABLE's steps on ``table`` in the order they apply one by one, as a catalog
    keeps them (see :func:`~mvdd.ddl.order.in_server_order`)."""
    if len(steps) < 2 or any(x.table != table.name for x in steps):
        return list(steps)
    return [x for x, _ in in_server_order(table, steps)]


def check(initial: str | Table, steps: list[str], *, mode: str = "forward") -> Report:
    """Judge statements applied to ``initial`` (a CREATE TABLE or a Table), step by step.

    Raises DDLError when a statement is not valid DDL for the table (for example ADD COLUMN
    ... NOT NULL without a default): invalid DDL has no verdict.

    >>> report = check("CREATE TABLE t (a INT)", ["ALTER TABLE t ADD b INT, MODIFY a BIGINT"])
    >>> report.compatible, report.steps_checked
    (True, 2)
    >>> report = check("CREATE TABLE t (a INT)", ["ALTER TABLE t DROP a, ADD c INT"])
    >>> [v.kind for v in report.violations]
    ['drop_column']
    """
    table = parse_table(initial) if isinstance(initial, str) else initial
    name = table.name
    violations: list[Violation] = []
    count = 0
    current: Table | None = table
    for text in steps:
        for statement in parse_statements(text):
            if current is None:
                break
            try:
                after, found, n = _walk(current, _in_order(current, statement.steps), mode, 0)
                if after is not None:
                    validate_table(after)
            except MvddError as err:
                raise err.locate(
                    statement=statement.text, statement_index=statement.index
                ) from None
            violations.extend(found)
            count += n
            current = after
    return Report(mode=_mode(mode).value, table=name, violations=violations, steps_checked=count)


def check_versions(
    cat: _History, name: str, from_version: int, to_version: int, *, mode: str = "forward"
) -> Report:
    """Judge every step between two versions of a catalog's table (``from_version`` is I; the
    steps of versions ``from_version + 1 .. to_version`` are judged on the versions they
    produced). Each version is judged once per catalog and mode.

    Raises NoSuchVersionError for versions outside the table's history.
    """
    return check_table_versions(cat, cat.table_id(name), from_version, to_version, mode=mode)


def check_table_versions(
    cat: _History, table_id: int, from_version: int, to_version: int, *, mode: str = "forward"
) -> Report:
    """:func:`check_versions` by the table's stable id (it works for dropped and renamed
    tables too). Each version's steps are judged once per catalog and mode; a range is the
    concatenation of its versions' verdicts."""
    m = _mode(mode)
    head = cat.version_by_id(table_id)
    for version in (from_version, to_version):
        if isinstance(version, bool) or not isinstance(version, int):
            raise NoSuchVersionError(
                f"a version is an int, not {version!r}",
                table=cat.change_by_id(table_id, head).table,
            )
    if not 1 <= from_version <= to_version <= head:
        raise NoSuchVersionError(
            f"versions {from_version}..{to_version} are not within 1..{head}",
            table=cat.change_by_id(table_id, head).table,
        )
    violations: list[Violation] = []
    count = 0
    verdicts = cat.verdicts
    for version in range(from_version + 1, to_version + 1):
        cached = verdicts.get((table_id, version, m))
        found, n, dropped = (
            cached
            if cached is not None
            else _version_verdict(cat, table_id, cat.change_by_id(table_id, version), m)
        )
        violations.extend(found)
        count += n
        if dropped:
            break
    return Report(
        mode=m.value,
        table=cat.change_by_id(table_id, from_version).table,
        violations=violations,
        from_version=from_version,
        to_version=to_version,
        steps_checked=count,
    )


def _version_verdict(
    cat: _History, table_id: int, change: Any, mode: Mode
) -> tuple[list[Violation], int, bool]:
    """The violations of one version's steps, judged on the version before it, how many steps
    were judged, and whether the version dropped the table; kept in ``cat.verdicts``, so a
    range judged again costs one lookup per version, no change built. The steps apply under
    the catalog's rules (a replica's are its server's), and the version itself is what they
    made (:func:`_walk`'s ``result``)."""
    before = cat.table_by_id(table_id, version=change.version - 1)
    made = None if change.dropped else cat.table_by_id(table_id, version=change.version)
    rules = Rules.altered(replica=cat.replica, flavor=cat.flavor)
    _, found, n = _walk(before, change.steps, mode.value, change.version, rules=rules, result=made)
    verdict = (found, n, bool(change.dropped))
    cat.verdicts[(table_id, change.version, mode)] = verdict  # (two threads store equal ones)
    return verdict


def check_history(cat: _History, name: str, *, mode: str = "forward") -> Report:
    """Every violation over a table's whole history (each tagged with its version): the
    transitive check from version 1 to the current one."""
    table_id = cat.table_id(name)
    return check_table_versions(cat, table_id, 1, cat.version_by_id(table_id), mode=mode)


def compatible_since(cat: _History, name: str, version: int, *, mode: str = "forward") -> int:
    """The oldest version I such that every step from I to ``version`` is compatible: rows
    written under any version from I on can be read as ``version`` (I = ``version`` when the
    last step already breaks compatibility)."""
    oldest = version
    while oldest > 1 and check_versions(cat, name, oldest - 1, oldest, mode=mode).compatible:
        oldest -= 1
    return oldest
