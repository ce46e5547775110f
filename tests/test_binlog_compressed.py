"""MariaDB's compressed events (``log_bin_compress``) restored to the events they compress
(:func:`mvdd.binlog.library.uncompressed_event`).

The oracle is the server's writer: events are built here as ``log_event.cc`` builds them (a
query event's statement, or a row event's rows past its column count and bitmaps, replaced by
one header byte ``0x80 | n``, the length in ``n`` big-endian bytes and zlib's stream), and the
restored packet must be byte for byte the event that was compressed, its checksum included. An
event that cannot be restored is an error saying why, never another event; on a real server
(a compressed event damaged in its binlog file) the reader refuses it at its position. The
events a real server compresses are read in ``tests/test_binlog.py``.
"""

from __future__ import annotations

import contextlib
import struct
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mvdd import SchemaDriftError, SourceConfigError
from mvdd.binlog import BinlogReader
from mvdd.binlog.library import CompressedEventError, uncompressed_event
from tests.conftest import private_server
from tests.support.binlog import database
from tests.support.mariadb import MariaDB

#: compressed type -> (the type it compresses, its column bitmaps, a version 2 row event)
KINDS = {
    0xA5: (0x02, 0, False),
    0xA6: (0x17, 1, False),
    0xA7: (0x18, 2, False),
    0xA8: (0x19, 1, False),
    0xA9: (0x1E, 1, True),
    0xAA: (0x1F, 2, True),
    0xAB: (0x20, 1, True),
}


def packet(kind: int, body: bytes, *, checksum: bool, log_pos: int = 4321) -> bytes:
    """A replication packet: the OK byte, the event's header and body, its CRC32."""
    size = 19 + len(body) + (4 if checksum else 0)
    event = struct.pack("<IBIIIH", 1_700_000_000, kind, 7, size, log_pos, 0x0001) + body
    return b"\x00" + event + (zlib.crc32(event).to_bytes(4, "little") if checksum else b"")


def compress(data: bytes, level: int = 6) -> bytes:
    """``binlog_buf_compress``: the length in as few bytes as hold it (one at least)."""
    n = max(1, (len(data).bit_length() + 7) // 8)
    return bytes([0x80 | n]) + len(data).to_bytes(n, "big") + zlib.compress(data, level)


def packed(n: int) -> bytes:
    if n < 251:
        return bytes([n])
    for first, width in ((0xFC, 2), (0xFD, 3)):
        if n < 1 << 8 * width:
            return bytes([first]) + n.to_bytes(width, "little")
    return b"\xfe" + n.to_bytes(8, "little")


def head(kind: int, columns: int, extra: bytes, status: bytes, schema: bytes) -> bytes:
    """The part of a body before what is compressed."""
    _, bitmaps, version2 = KINDS[kind]
    if not bitmaps:
        post = struct.pack("<IIBHH", 99, 0, len(schema), 0, len(status))
        return post + status + schema + b"\x00"
    post = (4242).to_bytes(6, "little") + b"\x01\x00"
    if version2:
        post += (2 + len(extra)).to_bytes(2, "little") + extra
    return post + packed(columns) + bytes((columns + 7) // 8 * bitmaps)


@given(
    kind=st.sampled_from(sorted(KINDS)),
    columns=st.sampled_from([0, 1, 8, 9, 250, 251, 300, 70_000]),
    extra=st.binary(max_size=6),
    status=st.binary(max_size=40),
    schema=st.binary(max_size=64).filter(lambda s: b"\x00" not in s),
    chunk=st.binary(max_size=64),
    repeat=st.sampled_from([0, 1, 3, 300, 5000]),
    checksum=st.booleans(),
    level=st.sampled_from([0, 1, 9]),
)
def test_a_compressed_event_is_restored_to_the_event_it_compresses(
    kind: int,
    columns: int,
    extra: bytes,
    status: bytes,
    schema: bytes,
    chunk: bytes,
    repeat: int,
    checksum: bool,
    level: int,
) -> None:
    front = head(kind, columns, extra, status, schema)
    data = chunk * repeat  # (up to 320 KB: lengths of one to three bytes)
    compressed = packet(kind, front + compress(data, level), checksum=checksum)
    plain = packet(KINDS[kind][0], front + data, checksum=checksum)
    assert uncompressed_event(compressed, checksum=checksum) == plain


def test_the_format_descriptions_post_header_lengths_are_used() -> None:
    """A post-header longer than the server writes today (a format description says so) is
    skipped whole, as the library skips it when it reads the restored event."""
    front = (4242).to_bytes(6, "little") + b"\x01\x00" + b"more" + packed(3) + b"\x07"
    lengths = [0] * 0xAB
    lengths[0x17 - 1] = 12
    event = packet(0xA6, front + compress(b"rows"), checksum=True)
    restored = uncompressed_event(event, checksum=True, post_header_lengths=lengths)
    assert restored == packet(0x17, front + b"rows", checksum=True)


def rows_event(rows: bytes, *, checksum: bool = True) -> bytes:
    return packet(0xA6, head(0xA6, 2, b"", b"", b"") + rows, checksum=checksum)


@pytest.mark.parametrize(
    ("event", "checksum", "why"),
    [
        (rows_event(bytes([0x91, 4]) + zlib.compress(b"rows")), True, "header 0x91"),
        (rows_event(bytes([0x01, 4]) + zlib.compress(b"rows")), True, "header 0x01"),
        (rows_event(bytes([0x80]) + zlib.compress(b"rows")), True, "header 0x80"),
        (rows_event(bytes([0x85, 0, 0, 0, 0, 4]) + zlib.compress(b"rows")), True, "header 0x85"),
        (rows_event(bytes([0x81, 4]) + b"not zlib at all"), True, "no zlib stream"),
        (rows_event(bytes([0x81, 4]) + zlib.compress(b"rows")[:-3]), True, "no zlib stream"),
        (rows_event(bytes([0x81, 5]) + zlib.compress(b"rows")), True, "its header says 5"),
        (rows_event(compress(b"rows"))[:-1] + b"\x00", True, "checksum fails"),
        (rows_event(compress(b"rows"))[:-5], True, "size"),
        (rows_event(b""), True, "ends before its compressed data"),
        (
            packet(0xA7, (1).to_bytes(6, "little") + b"\0\0" + packed(9), checksum=False),
            False,
            "ends before",
        ),
    ],
)
def test_an_event_that_cannot_be_restored_says_why(event: bytes, checksum: bool, why: str) -> None:
    with pytest.raises(CompressedEventError, match=why):
        uncompressed_event(event, checksum=checksum)


def damage(server: MariaDB, kind: str, change: Callable[[bytearray], None]) -> tuple[str, int]:
    """The first event of ``kind`` (as ``SHOW BINLOG EVENTS`` names it) in the server's current
    binlog file changed in place by ``change``, its checksum made right again (so that only
    the change is wrong); the file and the event's position."""
    with contextlib.closing(server.connect()) as conn, conn.cursor() as cur:
        cur.execute("SELECT @@log_bin_basename")
        (base,) = cur.fetchone()
        cur.execute("SHOW MASTER STATUS")
        file = cur.fetchone()[0]
        cur.execute(f"SHOW BINLOG EVENTS IN '{file}'")
        start, end = next((row[1], row[4]) for row in cur.fetchall() if row[2] == kind)
    with (Path(base).parent / file).open("r+b") as binlog:
        binlog.seek(start)
        event = bytearray(binlog.read(end - start))
        change(event)
        event[-4:] = zlib.crc32(event[:-4]).to_bytes(4, "little")
        binlog.seek(start)
        binlog.write(event)
    return file, start


def _algorithm_1(event: bytearray) -> None:
    at = 19 + 8 + 1 + 1  # header, post-header, two columns, one bitmap byte
    assert event[at] & 0xF8 == 0x80, event.hex()  # (a zlib header, as the server's)
    event[at] |= 0x10


def _length_3001(event: bytearray) -> None:
    # raw deflate (8), zlib (method 8), two length bytes: 3,000 big-endian
    at = event.find(bytes([0x8A, 0x0B, 0xB8]))
    assert at > 0, event.hex()
    event[at + 2] += 1


@pytest.mark.mariadb
def test_a_damaged_compressed_event_on_a_server_is_refused_at_its_position() -> None:
    """A compressed row event whose header names an algorithm MariaDB does not have, in the
    server's own binlog file: the reader stops there with a SourceConfigError naming the
    event's position, and the rows after it are not read past it."""
    with private_server(binlog=True, server_id=71) as server, database(server) as db:
        server.execute("CREATE TABLE t (id INT PRIMARY KEY, v TEXT)", database=db)
        reader = BinlogReader(server.url(), tables=f"{db}.t")
        reader.check()
        server.execute("SET GLOBAL log_bin_compress = ON, GLOBAL log_bin_compress_min_len = 10")
        server.execute("INSERT INTO t VALUES (1, REPEAT('compress me ', 50))", database=db)
        server.execute("SET GLOBAL log_bin_compress = OFF")
        server.execute("INSERT INTO t VALUES (2, 'after')", database=db)
        file, start = damage(server, "Write_rows_compressed_v1", _algorithm_1)
        with pytest.raises(SourceConfigError, match="header 0x9") as info:
            list(reader.events())
        assert str(info.value.position) == f"{file}:{start}", info.value.position


@pytest.mark.mariadb
def test_a_damaged_compressed_value_is_refused_at_its_position() -> None:
    """A COMPRESSED column's value whose header says another length than its stream holds, in
    the server's own binlog file: the reader stops at the event with a SchemaDriftError
    naming table and position, no row handed out."""
    with private_server(binlog=True, server_id=72) as server, database(server) as db:
        server.execute("CREATE TABLE t (id INT PRIMARY KEY, v TEXT COMPRESSED)", database=db)
        reader = BinlogReader(server.url(), tables=f"{db}.t")
        reader.check()
        server.execute("INSERT INTO t VALUES (1, REPEAT('x', 3000))", database=db)
        damage(server, "Write_rows_v1", _length_3001)
        seen: list[object] = []
        with pytest.raises(SchemaDriftError, match="its header says 3001") as info:
            seen.extend(reader.events())
        assert seen == [] and info.value.table == f"{db}.t" and info.value.position is not None
