"""Verdicts: a report lists every violation, never a bare bool."""

from __future__ import annotations

from enum import StrEnum

import attrs


class Mode(StrEnum):
    """Which direction must hold between the initial schema I and the commit schema C."""

    FORWARD = "forward"  # a tuple written under I is valid under C, loses nothing, looks native
    BACKWARD = "backward"  # a tuple written under C is readable under I
    FULL = "full"  # both


@attrs.frozen(kw_only=True)
class Violation:
    """One step that breaks compatibility.

    Attributes:
        kind: what broke, e.g. ``drop_column``, ``type_change``, ``default_change``.
        table: the table's name (at the step).
        column: the column's name, if the step is about a column.
        column_id: the column's stable id, if the step is about a column.
        step: the step, as SQL.
        message: a sentence for people.
        direction: ``forward`` or ``backward``.
        version: the table version the step produced (0 when checked outside a catalog).
    """

    kind: str
    table: str
    column: str | None = None
    column_id: int | None = None
    step: str
    message: str
    direction: str = Mode.FORWARD.value
    version: int = 0

    def __str__(self) -> str:
        where = f"`{self.table}`" + (f".`{self.column}` (#{self.column_id})" if self.column else "")
        return f"{self.direction} {self.kind} at {where}: {self.message} [{self.step}]"


@attrs.frozen(kw_only=True)
class Report:
    """Every violation found between two schemas; ``compatible`` when there is none."""

    mode: str
    table: str
    violations: list[Violation] = attrs.field(factory=list)
    from_version: int | None = None
    to_version: int | None = None
    steps_checked: int = 0

    @property
    def compatible(self) -> bool:
        return not self.violations

    def __bool__(self) -> bool:
        return self.compatible

    def __str__(self) -> str:
        head = (
            f"{self.mode} check of `{self.table}`"
            + (f" v{self.from_version}→v{self.to_version}" if self.from_version is not None else "")
            + f": {self.steps_checked} steps, "
        )
        if self.compatible:
            return head + "compatible"
        return (
            head
            + f"{len(self.violations)} violation(s):\n"
            + "\n".join(f"  - {v}" for v in self.violations)
        )
