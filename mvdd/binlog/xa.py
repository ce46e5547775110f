"""XA transactions in a binlog: rows logged when prepared, decided later.

MariaDB (10.5 and later) and MySQL (5.7 and later) log an XA transaction in two parts. Its
rows are logged when it is prepared: ``XA START xid`` … rows … ``XA END xid`` and an
XA_prepare event end one event group. Whether they happened is decided later, by an ``XA
COMMIT xid`` or an ``XA ROLLBACK xid`` in an event group of its own, other transactions
committing in between (a prepared transaction may wait there for hours, its coordinator down).
``XA COMMIT xid ONE PHASE`` needs no second part (MariaDB logs it as an ordinary transaction;
MySQL as one XA group whose XA_prepare event says "one phase").

A reader therefore holds a prepared group's rows and hands them out at its ``XA COMMIT``, the
moment they became visible, in the server's commit order, as that statement's transaction (its
end the resume point, its GTID the transaction's); it drops them at ``XA ROLLBACK``. A reader
that starts between the two parts (resumed from a checkpoint taken in between, or bootstrapped
from a snapshot, which does not see a prepared transaction's rows) finds the prepared group in
the server's binlog when the commit comes (:func:`find_prepared`, newest file first), so no
restart loses or repeats one. A group the server has purged is an error, never a skip.

An XA transaction's id is its (formatID, gtrid, bqual), as the statements and the XA_prepare
event carry it (:data:`Xid`); the server logs the statements' ids as hex literals
(``XA COMMIT X'7831',X'',1``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import pymysqlreplication.event as le

from mvdd.ddl.statement import Xid, xa_statement
from mvdd.errors import SourceConfigError
from mvdd.model import BinlogPosition


def prepared_xid(ev: Any) -> Xid:
    """The id of the transaction an XA_prepare event prepares."""
    return (int(ev.xid_format_id), bytes(ev.xid_gtrid), bytes(ev.xid_bqual))


def find_prepared(
    xid: Xid,
    before: BinlogPosition,
    files: list[str],
    events: Callable[[str], Iterable[Any]],
) -> BinlogPosition | None:
    """Where the event group that last prepared ``xid`` before ``before`` starts (its GTID
    event, or its ``XA START`` where the server logs no GTID), searching the binlog ``files``
    (oldest first, as the server lists them) from ``before``'s file back; None: in none.

    ``events(file)``: that file's events from its start (a stream that may go on into the next
    files: the search stops at the first event of another file), each with its ``packet``'s
    end position and size."""
    newest = files.index(before.file) if before.file in files else len(files) - 1
    for file in reversed(files[: newest + 1]):
        found = _prepared_in(xid, before, file, events(file))
        if found is not None:
            return found
    return None


def _prepared_in(
    xid: Xid, before: BinlogPosition, file: str, events: Iterable[Any]
) -> BinlogPosition | None:
    found = None
    group: int | None = None  # where the group being read starts
    gtid: int | None = None  # where the GTID event just read starts
    for ev in events:
        if isinstance(ev, le.RotateEvent):
            if ev.next_binlog != file:
                break
            continue
        start = ev.packet.log_pos - ev.packet.event_size  # (the whole event's, its header in)
        if file == before.file and start >= before.offset:
            break
        if isinstance(ev, le.GtidEvent | le.MariadbGtidEvent):
            gtid = group = start
            continue
        if isinstance(ev, le.QueryEvent) and xa_statement(ev.query)[0] in ("START", "BEGIN"):
            group = gtid if gtid is not None else start
        elif (
            isinstance(ev, le.XAPrepareEvent)
            and not ev.one_phase
            and group is not None
            and prepared_xid(ev) == xid
        ):
            found = BinlogPosition(file, group, before.era)
        gtid = None
    return found


def lost_prepare(xid: Xid, at: BinlogPosition) -> SourceConfigError:
    """The error of an ``XA COMMIT`` whose prepared group is in no binlog the server has."""
    return SourceConfigError(
        f"the XA COMMIT at {at} commits {format_xid(xid)}, whose XA PREPARE is in no binlog "
        "the server still has (purged): its rows cannot be read",
        position=at,
    )


def format_xid(xid: Xid) -> str:
    """An xid as the server writes it: ``X'7831',X'',1``."""
    format_id, gtrid, bqual = xid
    return f"X'{gtrid.hex()}',X'{bqual.hex()}',{format_id}"


__all__ = ["Xid", "find_prepared", "format_xid", "lost_prepare", "prepared_xid", "xa_statement"]
