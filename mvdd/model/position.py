"""Positions in a replicated log that are values of their own: a MySQL / MariaDB binlog position.

A catalog orders a table's versions by position (ints, tuples compared element-wise, or these).
:class:`BinlogPosition` orders binlog files by their numeric suffix, not as text, so
``mysql-bin.1000000`` follows ``mysql-bin.999999``; within a file, by offset.

A position is a place in one server's binlog. When a reader moves to another server that holds
the same history (a replica promoted after a failover: the same transactions, by their MariaDB
GTIDs, at other files and offsets), the positions it reads there are of the next **era**: every
position of an era follows every position of the eras before it, so a catalog's versions keep
their order across the move (a position of the new server may name a file of a lower number
than the old one's). Era 0 is written as ever, ``file:offset``; a later one ``file:offset@era``.

>>> p = BinlogPosition.parse("mysql-bin.000003:1234")
>>> str(p), p < BinlogPosition("mysql-bin.000010", 4)
('mysql-bin.000003:1234', True)
>>> BinlogPosition("mysql-bin.999999", 9) < BinlogPosition("mysql-bin.1000000", 4)
True
>>> moved = BinlogPosition.parse("mysql-bin.000001:4@1")
>>> str(moved), BinlogPosition("mysql-bin.000010", 4) < moved, moved.era
('mysql-bin.000001:4@1', True, 1)
"""

from __future__ import annotations

import re
from typing import Any

import attrs

from mvdd.errors import PositionError

_SUFFIX = re.compile(r"\.(\d+)$")


def _check_file(_: Any, __: Any, value: str) -> None:
    if not isinstance(value, str) or not value or value != value.strip() or "\0" in value:
        raise PositionError(f"a binlog file name is a non-empty name, not {value!r}")


def _check_offset(_: Any, __: Any, value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise PositionError(f"a binlog offset is a non-negative int, not {value!r}")


def _check_era(_: Any, __: Any, value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise PositionError(f"a binlog position's era is a non-negative int, not {value!r}")


@attrs.frozen(eq=True, order=False)
class BinlogPosition:
    """A place in a server's binary log: the file and the byte offset in it, and the era of the
    server it is on (0: the first server read; see the module's docstring).

    Ordered by era, then the file's numeric suffix (then its name), then the offset; comparing
    with any other kind of position raises TypeError (a catalog reports it as a
    PositionError).
    """

    file: str = attrs.field(validator=_check_file)
    offset: int = attrs.field(validator=_check_offset)
    era: int = attrs.field(default=0, validator=_check_era)
    _key: tuple[int, int, str, int] = attrs.field(init=False, eq=False, repr=False, hash=False)

    def __attrs_post_init__(self) -> None:
        m = _SUFFIX.search(self.file)
        suffix = int(m.group(1)) if m else -1
        object.__setattr__(self, "_key", (self.era, suffix, self.file, self.offset))

    @classmethod
    def parse(cls, text: str) -> BinlogPosition:
        """``"mysql-bin.000003:1234"`` (or ``…:1234@1``, of a later era) as a position;
        PositionError if it is not one."""
        if isinstance(text, BinlogPosition):
            return text
        if not isinstance(text, str) or ":" not in text:
            raise PositionError(f"a binlog position is written FILE:OFFSET, not {text!r}")
        file, _, offset = text.rpartition(":")
        offset, at, era = offset.partition("@")
        if not offset.isdigit() or (at and not era.isdigit()):
            raise PositionError(f"a binlog position is written FILE:OFFSET, not {text!r}")
        return cls(file, int(offset), int(era) if at else 0)

    def __str__(self) -> str:
        return f"{self.file}:{self.offset}@{self.era}" if self.era else f"{self.file}:{self.offset}"

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, BinlogPosition):
            return NotImplemented
        return self._key < other._key

    def __le__(self, other: object) -> bool:
        if not isinstance(other, BinlogPosition):
            return NotImplemented
        return self._key <= other._key

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, BinlogPosition):
            return NotImplemented
        return self._key > other._key

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, BinlogPosition):
            return NotImplemented
        return self._key >= other._key


#: a MariaDB GTID: replication domain, server id, sequence number
_GTID = re.compile(r"(\d+)-(\d+)-(\d+)")


def gtid_state(text: str | None) -> dict[int, str]:
    """A MariaDB GTID position (``gtid_slave_pos``'s form, ``0-1-5,2-1-9``; ``''`` or None:
    none) as each replication domain's last GTID. PositionError if it is no such text.

    >>> gtid_state("2-1-9,0-1-5") == gtid_state("0-1-5,2-1-9") == {0: "0-1-5", 2: "2-1-9"}
    True
    """
    last: dict[int, str] = {}
    for part in text.split(",") if text else ():
        m = _GTID.fullmatch(part)
        if m is None:
            raise PositionError(f"a MariaDB GTID is DOMAIN-SERVER-SEQUENCE, not {part!r}")
        last[int(m.group(1))] = m.group(0)
    return last


def gtid_after(state: str | None, gtid: str) -> str:
    """A MariaDB GTID position (:func:`gtid_state`'s form: the last GTID of each replication
    domain, comma-separated, by domain) once the transaction ``gtid`` is applied: its
    domain's GTID replaced. PositionError if either is no such text.

    >>> gtid_after("0-1-5,2-1-9", "0-3-6")
    '0-3-6,2-1-9'
    >>> gtid_after(None, "10-1-1"), gtid_after("2-1-4", "10-1-1")
    ('10-1-1', '2-1-4,10-1-1')
    """
    last = gtid_state(state)
    one = gtid_state(gtid)
    if len(one) != 1:
        raise PositionError(f"a MariaDB GTID is DOMAIN-SERVER-SEQUENCE, not {gtid!r}")
    last.update(one)
    return ",".join(last[d] for d in sorted(last))


__all__ = ["BinlogPosition", "gtid_after", "gtid_state"]
