"""Compatibility of schema changes, step by step: forward, backward and full (seed 003).

The rules are tables (:mod:`mvdd.compat.rules`); every verdict is a :class:`Report` listing its
violations.
"""

from mvdd.compat.check import (
    check,
    check_history,
    check_table_versions,
    check_versions,
    compatible_since,
    judge_step,
)
from mvdd.compat.report import Mode, Report, Violation
from mvdd.compat.rules import widens

__all__ = [
    "Mode",
    "Report",
    "Violation",
    "check",
    "check_history",
    "check_table_versions",
    "check_versions",
    "compatible_since",
    "judge_step",
    "widens",
]
