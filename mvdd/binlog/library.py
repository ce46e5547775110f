"""What mvdd adds to ``mysql-replication`` (python-mysql-replication) and what it uses of it.

The library speaks the replication protocol and decodes events; this module names the event
classes mvdd handles and teaches the library one thing it does not know yet: the status variable
``Q_GTID_FLAGS3`` (0x82) MariaDB writes in the query events of a two-phase ``ALTER``
(``binlog_alter_two_phase``): one byte of flags, followed by the sequence number of the
``START ALTER`` when the event is its ``COMMIT ALTER`` or ``ROLLBACK ALTER``. Without it the
library refuses those events (``StatusVariableMismatch``); with it, every other status
variable is read by the library exactly as before. The flags land on the event as
``mvdd_flags3``.

It also reads a statement's text in the charset its client sent it in. The library reads every
query as UTF-8 (undecodable bytes as ``\\xNN`` escapes); a server logs a statement as its
client wrote it, with the client's charset (``character_set_client``, the status variable
``Q_CHARSET_CODE``) beside it, so a DDL from a ``latin1`` or ``gbk`` session, non-ASCII names,
comments or defaults in it, read as UTF-8 is another statement or none. The query's bytes
are taken again from the event (the tail of its body) and read with that charset's codec
(:func:`query_charset`); the event's ``query`` is that text and ``mvdd_charset`` the charset
(None: UTF-8, or a charset whose text UTF-8 reads the same). A query that charset does not
read (a charset Python has no codec for, bytes that are no text of it) keeps the library's
text and names the charset in ``mvdd_unreadable``: the reader refuses such a statement as it
refuses any it cannot read.

And it keeps a DATE or DATETIME value that is no Python date as its text (the library gives
None for it, as for NULL): a zero date, a zero month or day, a day its month lacks; and it
reads a negative TIME with a fraction as the server wrote it (:func:`time2_value`: the
library read ``-01:00:00.0001`` as ``-00:59:59.9999``).
"""

from __future__ import annotations

import datetime as dt
import functools
import inspect
import logging
import zlib
from collections.abc import Sequence
from typing import Any

from pymysql.protocol import MysqlPacket
from pymysqlreplication import column as cl
from pymysqlreplication import event as ev
from pymysqlreplication import packet as pk
from pymysqlreplication import row_event as rows
from pymysqlreplication.constants import BINLOG
from pymysqlreplication.constants import FIELD_TYPE as F
from pymysqlreplication.constants.CHARSET import charset_by_id

from mvdd.errors import MvddError
from mvdd.model.encoding import UTF8_TEXT, python_codec
from mvdd.model.types import canonical_charset, canonical_collation

#: MariaDB's Q_GTID_FLAGS3 status variable and its flags
Q_GTID_FLAGS3 = 0x82
FL_START_ALTER = 0x02
FL_COMMIT_ALTER = 0x04
FL_ROLLBACK_ALTER = 0x08

#: the library's event classes mvdd asks for: every one it knows, so none is filtered out
#: silently (an event type it does not know arrives as NotImplementedEvent)
ALL_EVENTS = frozenset(
    {
        ev.QueryEvent,
        ev.RotateEvent,
        ev.StopEvent,
        ev.FormatDescriptionEvent,
        ev.XAPrepareEvent,
        ev.XidEvent,
        ev.GtidEvent,
        ev.BeginLoadQueryEvent,
        ev.ExecuteLoadQueryEvent,
        ev.HeartbeatLogEvent,
        ev.NotImplementedEvent,
        ev.MariadbGtidEvent,
        ev.RowsQueryLogEvent,
        ev.MariadbAnnotateRowsEvent,
        ev.RandEvent,
        ev.MariadbStartEncryptionEvent,
        ev.MariadbGtidListEvent,
        ev.MariadbBinLogCheckPointEvent,
        ev.UserVarEvent,
        ev.PreviousGtidsEvent,
        ev.IntvarEvent,
        rows.UpdateRowsEvent,
        rows.WriteRowsEvent,
        rows.DeleteRowsEvent,
        rows.TableMapEvent,
        rows.PartialUpdateRowsEvent,
    }
)

#: event types the library does not decode that carry nothing a row reader needs (MySQL's
#: anonymous GTID and transaction context events); any other unknown type is an error
HARMLESS_UNKNOWN: dict[int, str] = {
    BINLOG.ANONYMOUS_GTID_LOG_EVENT: "ANONYMOUS_GTID",
    0x24: "TRANSACTION_CONTEXT",
    0x25: "VIEW_CHANGE",
    BINLOG.IGNORABLE_LOG_EVENT: "IGNORABLE",
}
#: names of event types that stop a correct read, for the error message
REFUSED_UNKNOWN: dict[int, str] = {
    BINLOG.INCIDENT_EVENT: "INCIDENT (the source lost events: its binlog has a gap)",
    0x28: "TRANSACTION_PAYLOAD (MySQL binlog_transaction_compression)",
}
#: MariaDB's compressed events: type -> (the type of the event compressed, the column bitmaps
#: before its rows (0: a query event, whose statement is compressed), whether its post-header
#: is a version 2 row event's, with extra data behind it)
COMPRESSED_EVENTS: dict[int, tuple[int, int, bool]] = {
    0xA5: (BINLOG.QUERY_EVENT, 0, False),
    0xA6: (BINLOG.WRITE_ROWS_EVENT_V1, 1, False),
    0xA7: (BINLOG.UPDATE_ROWS_EVENT_V1, 2, False),
    0xA8: (BINLOG.DELETE_ROWS_EVENT_V1, 1, False),
    0xA9: (BINLOG.WRITE_ROWS_EVENT_V2, 1, True),
    0xAA: (BINLOG.UPDATE_ROWS_EVENT_V2, 2, True),
    0xAB: (BINLOG.DELETE_ROWS_EVENT_V2, 1, True),
}
#: the post-header's length of the events compressed, where a format description does not say
_POST_HEADERS = {
    BINLOG.QUERY_EVENT: 13,
    **dict.fromkeys(
        (BINLOG.WRITE_ROWS_EVENT_V1, BINLOG.UPDATE_ROWS_EVENT_V1, BINLOG.DELETE_ROWS_EVENT_V1), 8
    ),
    **dict.fromkeys(
        (BINLOG.WRITE_ROWS_EVENT_V2, BINLOG.UPDATE_ROWS_EVENT_V2, BINLOG.DELETE_ROWS_EVENT_V2), 10
    ),
}
#: the compression algorithms of a compressed event's header: number -> decompressor
_ALGORITHMS = {0: zlib.decompress}
#: the bytes before an event's body in a replication packet: the OK byte and the header
_HEAD = 20
#: the lengths of a packed integer by its first byte (the others are themselves)
_PACKED = {0xFC: 2, 0xFD: 3, 0xFE: 8}


#: MariaDB's compressed column types in a table map -> the type whose layout they share
COMPRESSED_COLUMNS = {140: F.BLOB, 141: F.VARCHAR}
#: a compressed column value's methods (its first byte's high four bits): 8, zlib
_ZLIB_METHOD = 8


def compressed_value(data: bytes) -> bytes:
    """A MariaDB ``COMPRESSED`` column's value from its stored bytes: empty for none; after a
    first byte of 0, the value itself (stored whole, compressing it did not pay); after a
    first byte ``method << 4 | raw << 3 | n`` (zlib is method 8; ``raw``: a deflate stream
    without zlib's wrapper, the server's default), the value's length in ``n`` big-endian bytes
    and its compressed stream. ValueError for bytes no server stores.

    >>> compressed_value(b""), compressed_value(b"\\x00abc")
    (b'', b'abc')
    >>> packed = zlib.compressobj(wbits=-15)
    >>> compressed_value(bytes([0x89, 5]) + packed.compress(b"hello") + packed.flush())
    b'hello'
    """
    if not data:
        return b""
    head = data[0]
    if head >> 4 == 0:
        return data[1:]
    size = head & 7
    if head >> 4 != _ZLIB_METHOD or not 1 <= size <= 4:
        raise ValueError(f"a compressed value's header 0x{head:02x} is none MariaDB writes")
    length = int.from_bytes(data[1 : 1 + size], "big")
    try:
        value = zlib.decompress(data[1 + size :], -15 if head & 8 else 15)
    except zlib.error as err:
        raise ValueError(f"a compressed value's data is no zlib stream ({err})") from None
    if len(value) != length:
        raise ValueError(f"a compressed value holds {len(value)} bytes, its header says {length}")
    return value


class CompressedEventError(ValueError):
    """A MariaDB compressed event whose data cannot be restored."""


def uncompressed_event(
    data: bytes, *, checksum: bool, post_header_lengths: Sequence[int] | None = None
) -> bytes:
    """A replication packet holding a MariaDB compressed event (``data``: the OK byte, the
    header, the body, a CRC32 when ``checksum``) as the packet of the event compressed: its
    type, its size and its checksum are the uncompressed event's, its position and the rest of
    its header the same. ``post_header_lengths`` are the format description's (None: the
    lengths the server writes).

    >>> body = bytes(8) + bytes([2, 0b11]) + bytes([0x81, 5]) + zlib.compress(b"ROWS!")
    >>> head = bytes(5) + bytes([0xA6]) + bytes(4) + (19 + len(body)).to_bytes(4, "little")
    >>> event = uncompressed_event(head + bytes(6) + body, checksum=False)
    >>> event[5], int.from_bytes(event[10:14], "little"), event[30:]
    (23, 34, b'ROWS!')
    """
    kind, bitmaps, version2 = COMPRESSED_EVENTS[data[5]]
    end = len(data) - 4 if checksum else len(data)
    if int.from_bytes(data[10:14], "little") != len(data) - 1:
        raise CompressedEventError("its size is not its header's")
    if checksum and zlib.crc32(data[1:end]) != int.from_bytes(data[end:], "little"):
        raise CompressedEventError("its checksum fails")
    body = data[_HEAD:end]
    declared = post_header_lengths or ()
    post = declared[kind - 1] if kind <= len(declared) else _POST_HEADERS[kind]
    start = _compressed_start(body, post, bitmaps, version2)
    if start >= len(body):
        raise CompressedEventError("it ends before its compressed data")
    header = body[start]
    algorithm, size = header >> 4 & 7, header & 7
    decompress = _ALGORITHMS.get(algorithm)
    if header & 0x80 == 0 or decompress is None or not 1 <= size <= 4:
        raise CompressedEventError(f"its compression header 0x{header:02x} is none mvdd reads")
    length = int.from_bytes(body[start + 1 : start + 1 + size], "big")
    try:
        restored = decompress(body[start + 1 + size :])
    except zlib.error as err:
        raise CompressedEventError(f"its data is no zlib stream ({err})") from None
    if len(restored) != length:
        raise CompressedEventError(f"it holds {len(restored)} bytes, its header says {length}")
    event = bytearray(data[:_HEAD] + body[:start] + restored)
    event[5] = kind
    event[10:14] = (len(event) - 1 + (4 if checksum else 0)).to_bytes(4, "little")
    if checksum:
        event += zlib.crc32(event[1:]).to_bytes(4, "little")
    return bytes(event)


def _compressed_start(body: bytes, post: int, bitmaps: int, version2: bool) -> int:
    """Where a compressed event's compressed data begins in its ``body``: a query event's
    after its status variables, its schema and the schema's NUL; a row event's after its
    column count (a packed integer) and its column bitmaps."""
    if not bitmaps:
        status, schema = int.from_bytes(body[11:13], "little"), body[8]
        return post + status + schema + 1
    # (a version 2 event's extra data follows its post-header; their length, these two bytes
    # among them, is the post-header's last field, at 8 however long a format says it is)
    at = post + (int.from_bytes(body[8:10], "little") - 2 if version2 else 0)
    if at >= len(body):
        return at
    first = body[at]
    width = _PACKED.get(first, 0)
    columns = int.from_bytes(body[at + 1 : at + 1 + width], "little") if width else first
    return at + 1 + width + bitmaps * ((columns + 7) // 8)


#: an event with this header flag may be skipped by a reader that does not know it
LOG_EVENT_IGNORABLE_F = 0x80


class _MetadataAdvice(logging.Filter):
    """The library advises ``binlog_row_metadata=FULL`` on every connection; mvdd does not need
    it (it supplies the columns itself), so the advice is dropped."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "BINLOG_ROW_METADATA" not in record.getMessage()


@functools.cache
def extend() -> None:
    """Teach the library MariaDB's ``Q_GTID_FLAGS3``, a statement's charset, MariaDB's
    compressed events and the dates it gives up on (once per process)."""
    logging.getLogger("pymysqlreplication").addFilter(_MetadataAdvice())
    original = ev.QueryEvent._read_status_vars_value_for_key

    def read(self: Any, key: int) -> None:
        if key != Q_GTID_FLAGS3:
            return original(self, key)  # type: ignore[no-any-return]
        flags = self.packet.read_uint8()
        self.mvdd_flags3 = flags
        if flags & (FL_COMMIT_ALTER | FL_ROLLBACK_ALTER):
            self.mvdd_start_alter = self.packet.read_uint64()
        return None

    ev.QueryEvent._read_status_vars_value_for_key = read  # type: ignore[method-assign]
    initial = ev.QueryEvent.__init__

    def init(self: Any, from_packet: Any, event_size: int, *args: Any, **kwargs: Any) -> None:
        initial(self, from_packet, event_size, *args, **kwargs)
        self.mvdd_charset = self.mvdd_unreadable = None
        client = getattr(self, "character_set_client", None)
        if client_charset(client) == "utf8mb3":
            # UTF-8's text, but a character beyond the BMP is no character of it: the catalog
            # reads it as the server does (mvdd.ddl.statement.iter_statements)
            self.mvdd_charset = "utf8mb3"
            return
        charset = query_charset(client)
        if charset is None:
            return
        data = from_packet.packet.get_all_data()
        # the query is the end of the body (after the header's 1 + 19 bytes, the post-header,
        # the status variables, the schema and its NUL); ``event_size`` leaves out a checksum
        start = 20 + self._declared_post_header_len(13) + self.status_vars_length
        start += self.schema_length + 1
        raw = bytes(data[start : 20 + event_size])
        if raw.decode("utf-8", "backslashreplace") != self.query:
            self.mvdd_unreadable = f"{charset} (its bytes were not found in the event)"
            return
        codec = python_codec(charset, statement=True)
        try:
            if codec is None:
                raw.decode("ascii")  # (ASCII reads the same in every client charset)
                return
            self.query = raw.decode(codec)
        except UnicodeDecodeError:
            self.mvdd_unreadable = charset
            return
        self.mvdd_charset = charset

    ev.QueryEvent.__init__ = init  # type: ignore[method-assign]
    wrap = pk.BinLogPacketWrapper.__init__
    signature = inspect.signature(wrap)

    def wrapped(self: Any, from_packet: Any, *args: Any, **kwargs: Any) -> None:
        data = from_packet.get_all_data()
        if len(data) > _HEAD and data[5] in COMPRESSED_EVENTS:
            given = signature.bind(self, from_packet, *args, **kwargs).arguments
            from_packet = MysqlPacket(
                uncompressed_event(
                    bytes(data),
                    checksum=bool(given["use_checksum"]),
                    post_header_lengths=given.get("post_header_lengths"),
                ),
                None,
            )
        wrap(self, from_packet, *args, **kwargs)

    pk.BinLogPacketWrapper.__init__ = wrapped  # type: ignore[method-assign]
    column = cl.Column._Column__parse_column_definition  # type: ignore[attr-defined]

    def define(self: Any, column_type: int, packet: Any) -> None:
        plain = COMPRESSED_COLUMNS.get(column_type)
        column(self, column_type if plain is None else plain, packet)
        self.mvdd_compressed = plain is not None

    cl.Column._Column__parse_column_definition = define  # type: ignore[attr-defined]
    for name, size, text in _TEMPORAL_READERS:
        setattr(rows.RowsEvent, name, _kept_text(getattr(rows.RowsEvent, name), size, text))

    def read_time2(self: Any, column: Any) -> dt.timedelta:
        return time2_value(self.packet.read(3 + ((column.fsp or 0) + 1) // 2))

    rows.RowsEvent._RowsEvent__read_time2 = read_time2  # type: ignore[attr-defined]


def _kept_text(
    reader: Any, size: Any, text: Any
) -> Any:  # (the library's private readers: typed as it types them, not at all)
    """The library's reader of a DATE or DATETIME value, giving the value's text where it
    gives None, a value that is no Python date (a zero date, a zero month or day, a day its
    month lacks: ``0000-00-00``, ``2020-00-15``, ``2020-02-30``), as the server prints it."""

    def read(self: Any, *args: Any) -> Any:
        data = self.packet.read(size(*args))
        self.packet.unread(data)
        try:
            value = reader(self, *args)
        except ValueError:  # (a DATE's reader fails on a day its month lacks, past its bytes)
            value = None
        return text(data, *args) if value is None else value

    return read


def _date_text(data: bytes) -> str:
    packed = int.from_bytes(data, "little")
    return f"{packed >> 9:04d}-{packed >> 5 & 15:02d}-{packed & 31:02d}"


def _datetime_text(data: bytes) -> str:  # (the old format: YYYYMMDDhhmmss as a number)
    day, time = divmod(int.from_bytes(data, "little"), 1_000_000)
    return f"{day // 10000:04d}-{day // 100 % 100:02d}-{day % 100:02d} " + (
        f"{time // 10000:02d}:{time // 100 % 100:02d}:{time % 100:02d}"
    )


def _datetime2_text(data: bytes, column: Any) -> str:
    packed = int.from_bytes(data[:5], "big")
    year, month = divmod(packed >> 22 & (1 << 17) - 1, 13)
    text = (
        f"{year:04d}-{month:02d}-{packed >> 17 & 31:02d} "
        f"{packed >> 12 & 31:02d}:{packed >> 6 & 63:02d}:{packed & 63:02d}"
    )
    fsp = column.fsp or 0
    if not fsp:
        return text
    fraction = int.from_bytes(data[5:], "big") // (10 if fsp % 2 else 1)
    return f"{text}.{fraction:0{fsp}d}"


#: the offset of TIME2's integer part (three bytes), and of its whole (six, fractions of 5 or 6)
TIME2_INT_OFFSET = 0x800000
TIME2_OFFSET = 0x800000000000
#: a fraction of one byte (1 or 2 digits) counts hundredths, of two (3 or 4 digits) ten-thousandths
_TIME2_FRACTIONS = {1: (0x100, 10_000), 2: (0x10000, 100)}


def time2_value(data: bytes) -> dt.timedelta:
    """A TIME in the server's format (MySQL 5.6's TIME2, which MariaDB writes too): a packed
    number, microseconds in its low 24 bits and ``hour << 12 | minute << 6 | second`` above
    them, negative for a negative time, stored with an offset so that bytes sort as times do.
    Its fraction (``len(data) - 3`` bytes) is stored apart from its integer part, unless it is
    three bytes; for a negative time with a fraction the integer part is one less and the
    fraction its complement (the server's ``my_time_packed_from_binary``).

    >>> str(time2_value(bytes.fromhex("801000"))), str(-time2_value(bytes.fromhex("7fefff ffff")))
    ('1:00:00', '1:00:00.000100')
    """
    size = len(data) - 3
    if size == 3:
        packed = int.from_bytes(data, "big") - TIME2_OFFSET
    else:
        whole = int.from_bytes(data[:3], "big") - TIME2_INT_OFFSET
        fraction = int.from_bytes(data[3:], "big")
        if size:
            span, unit = _TIME2_FRACTIONS[size]
            if whole < 0 and fraction:
                whole, fraction = whole + 1, fraction - span
            fraction *= unit
        packed = (whole << 24) + fraction
    magnitude = abs(packed)
    hms, micro = magnitude >> 24, magnitude & 0xFFFFFF
    value = dt.timedelta(
        hours=hms >> 12 & 0x3FF, minutes=hms >> 6 & 63, seconds=hms & 63, microseconds=micro
    )
    return -value if packed < 0 else value


#: the library's readers of DATE and DATETIME values (its private names), the bytes each reads
#: and their text
_TEMPORAL_READERS = (
    ("_RowsEvent__read_date", lambda: 3, _date_text),
    ("_RowsEvent__read_datetime", lambda: 8, _datetime_text),
    (
        "_RowsEvent__read_datetime2",
        lambda column: 5 + ((column.fsp or 0) + 1) // 2,
        _datetime2_text,
    ),
)


def server_collation(collation_id: int | None, flavor: str) -> str | None:
    """The collation a query event's session had as its server's (``Q_CHARSET_CODE``'s
    ``collation_server``: what a CREATE DATABASE naming no charset takes), by its ``flavor``'s
    ids; None for an event without the variable, or a collation mvdd does not know.

    >>> server_collation(8, "mariadb"), server_collation(224, "mariadb")
    ('latin1_swedish_ci', 'utf8mb4_unicode_ci')
    """
    found = charset_by_id(collation_id, flavor) if collation_id is not None else None
    if found is None:
        return None
    try:
        return canonical_collation(found.collation)
    except MvddError:
        return None


def client_charset(collation_id: int | None) -> str | None:
    """The charset of a query event's client (``Q_CHARSET_CODE``'s ``character_set_client``),
    by either server's collation ids; None for an event without the variable, or an id neither
    server's table names, or a charset mvdd does not know.

    >>> client_charset(33), client_charset(8), client_charset(None)
    ('utf8mb3', 'latin1', None)
    """
    if collation_id is None:
        return None
    found = charset_by_id(collation_id, "mariadb") or charset_by_id(collation_id, "mysql")
    if found is None:
        return None
    try:
        return canonical_charset(found.name)
    except MvddError:
        return None


def query_charset(collation_id: int | None) -> str | None:
    """The charset a query event's statement is written in, from its client's collation id
    (``Q_CHARSET_CODE``'s ``character_set_client``), when UTF-8 does not read it as its server
    does: None for the UTF-8 charsets, ``ascii``, ``binary`` (whose bytes the server reads as
    its own UTF-8), an event without the variable, and a collation id neither server's table
    names (the newer ones are all Unicode collations).

    >>> query_charset(8), query_charset(28), query_charset(45), query_charset(None)
    ('latin1', 'gbk', None, None)
    """
    charset = client_charset(collation_id)
    return None if charset is None or charset in UTF8_TEXT else charset


__all__ = [
    "ALL_EVENTS",
    "COMPRESSED_COLUMNS",
    "COMPRESSED_EVENTS",
    "FL_COMMIT_ALTER",
    "FL_ROLLBACK_ALTER",
    "FL_START_ALTER",
    "HARMLESS_UNKNOWN",
    "LOG_EVENT_IGNORABLE_F",
    "REFUSED_UNKNOWN",
    "CompressedEventError",
    "client_charset",
    "compressed_value",
    "extend",
    "query_charset",
    "server_collation",
    "time2_value",
    "uncompressed_event",
]
