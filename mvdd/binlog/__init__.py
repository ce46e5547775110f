"""Reading MySQL / MariaDB binlogs: every row decoded with the schema valid at its position.

Built on the ``mysql-replication`` package (the replication protocol and the decoding of
values); mvdd supplies the schema of every row event from its catalog, never the server's
current one. See :mod:`mvdd.binlog.reader`.
"""

from mvdd.binlog.reader import BinlogReader, BinlogTransaction, Event, EventKind
from mvdd.binlog.source import Rows, Source
from mvdd.model import BinlogPosition

__all__ = [
    "BinlogPosition",
    "BinlogReader",
    "BinlogTransaction",
    "Event",
    "EventKind",
    "Rows",
    "Source",
]
