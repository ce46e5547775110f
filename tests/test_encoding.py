"""The charsets' codecs (:mod:`mvdd.model.encoding`) against a real server, exhaustively: every
byte, every two bytes of a multi-byte charset (and EUC-JP's three-byte rows) read as the server
reads them (``CONVERT(… USING utf8mb4)``), and every character the server reads, or Python's
codec of that name would write, written as the server writes it (``CONVERT(_utf8mb4 … USING
charset)``: of a character's two byte sequences, the server's) or refused where the server has
no bytes for it.

Before these codecs the binary log's rows of a ``euckr`` column holding a character of its
Windows extension (``갂``), of a ``tis620``, ``cp1250`` or ``hebrew`` column holding a byte
Python's codec leaves undefined, stopped the reader; ``greek``, ``hebrew``, ``cp866``,
``koi8u``, ``sjis``, ``ujis``, ``eucjpms`` and ``big5`` text read as other characters than the
server's, and a DEFAULT of a character the server has (``ʽ`` in ``greek``) was refused."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pymysql
import pytest

from mvdd import Catalog, DDLError, parse_table
from mvdd.model.encoding import CODECS, UTF8_TEXT, holds, python_codec
from tests.support.mariadb import MariaDB, show_create_table

pytestmark = pytest.mark.mariadb

#: the charsets of UTF-16 and UTF-32, checked on their well-formed sequences apart (the server
#: refuses to store an ill-formed one, but for ucs2's lone surrogate, which it stores and which
#: no UTF-8 client reads), and the one the server lacks (gb18030: MariaDB 11)
_UNCHECKED = frozenset({"ucs2", "utf16", "utf16le", "utf32", "gb18030"})
CHARSETS = sorted(set(CODECS) - UTF8_TEXT - _UNCHECKED)
#: the charsets of characters of more than one byte
MULTI_BYTE = frozenset({"big5", "cp932", "eucjpms", "euckr", "gb2312", "gbk", "sjis", "ujis"})


#: the Python codec named like each charset whose codec is mvdd's own
PYTHON_NAMED = {
    "latin1": "cp1252",
    "greek": "iso8859-7",
    "hebrew": "iso8859-8",
    "cp1250": "cp1250",
    "cp1251": "cp1251",
    "cp1256": "cp1256",
    "cp1257": "cp1257",
    "cp866": "cp866",
    "koi8u": "koi8-u",
    "tis620": "tis-620",
    "hp8": "hp-roman8",
    "sjis": "shift_jis",
    "cp932": "cp932",
    "ujis": "euc_jp",
    "eucjpms": "euc_jp",
    "big5": "big5",
    "euckr": "euc_kr",
    "gbk": "gbk",
    "gb2312": "gb2312",
}


def sequences(charset: str) -> Iterator[bytes]:
    """Every byte; for a multi-byte charset every two bytes from 0x80 on, and EUC-JP's three
    bytes of JIS X 0212."""
    yield from (bytes([b]) for b in range(256))
    if charset not in MULTI_BYTE:
        return
    yield from (bytes([a, b]) for a in range(0x80, 0x100) for b in range(0x40, 0x100))
    if charset in ("ujis", "eucjpms"):
        yield from (bytes([0x8F, a, b]) for a in range(0xA1, 0xFF) for b in range(0xA1, 0xFF))


def on_server(server: MariaDB, expressions: list[str]) -> list[str | None]:
    """The server's value (hex) of each expression, 2,000 a query."""
    out: list[str | None] = []
    with server.connect() as conn, conn.cursor() as cur:
        for at in range(0, len(expressions), 2000):
            cur.execute("SELECT " + ", ".join(expressions[at : at + 2000]))
            out.extend(cur.fetchone())
    return out


def text(hexed: str | None) -> str | None:
    return None if hexed is None else bytes.fromhex(hexed).decode("utf-8")


def assert_reads_as_on_server(server: MariaDB, charset: str, seqs: list[bytes]) -> list[str | None]:
    """Each byte sequence read by the charset's codec as the server reads it (``CONVERT(…
    USING utf8mb4)``); the server's readings (hex)."""
    codec = python_codec(charset)
    assert codec is not None
    read = on_server(
        server,
        [f"HEX(CONVERT(CONVERT(X'{s.hex()}' USING {charset}) USING utf8mb4))" for s in seqs],
    )
    wrong = [
        (s.hex(), theirs, ours)
        for s, hexed in zip(seqs, read, strict=True)
        if (theirs := text(hexed)) != (ours := s.decode(codec))
    ]
    assert not wrong, (len(wrong), wrong[:10])
    return read


@pytest.mark.parametrize("charset", CHARSETS)
def test_a_charset_reads_and_writes_as_on_the_server(mariadb: MariaDB, charset: str) -> None:
    codec = python_codec(charset)
    assert codec is not None
    seqs = list(sequences(charset))
    read = assert_reads_as_on_server(mariadb, charset, seqs)

    # writing: the characters the server reads, and those Python's codec of its name reads
    python = PYTHON_NAMED.get(charset, codec)
    found = {ch for hexed in read if (t := text(hexed)) for ch in t}
    found.update(ch for s in seqs for ch in s.decode(python, errors="ignore"))
    chars = sorted(ch for ch in found if not ch.isascii() and ch != "\ufffd")
    written = on_server(
        mariadb, [f"HEX(CONVERT(_utf8mb4 X'{ch.encode().hex()}' USING {charset}))" for ch in chars]
    )
    refused = []
    for ch, hexed in zip(chars, written, strict=True):
        assert hexed is not None
        theirs = bytes.fromhex(hexed)
        if theirs == b"?":  # the server has no bytes for it
            if holds(charset, ch) is not False:
                refused.append((ch, "held", hexed))
            continue
        ours = ch.encode(codec)  # (of a character's two sequences, the one the server writes)
        if ours != theirs:
            refused.append((ch, hexed, ours.hex()))
    assert not refused, (len(refused), refused[:10])


#: UTF-16's and UTF-32's well-formed sequences: every code unit outside the surrogates, pairs
#: of surrogates at the ends of their ranges, and UTF-32's planes
_WIDE = {
    "ucs2": [u.to_bytes(2, "big") for u in (*range(0xD800), *range(0xE000, 0x10000))],
    "utf16": [u.to_bytes(2, "big") for u in (*range(0xD800), *range(0xE000, 0x10000))]
    + [bytes.fromhex(h) for h in ("d800dc00", "d83dde00", "dbffdfff")],
    "utf16le": [u.to_bytes(2, "little") for u in (*range(0xD800), *range(0xE000, 0x10000))]
    + [bytes.fromhex(h) for h in ("00d800dc", "3dd800de", "ffdbffdf")],
    "utf32": [u.to_bytes(4, "big") for u in (*range(0, 0xD800, 7), *range(0xE000, 0x110000, 97))],
}


@pytest.mark.parametrize("charset", sorted(_WIDE))
def test_the_utf16_and_utf32_charsets_read_as_on_the_server(mariadb: MariaDB, charset: str) -> None:
    """Every well-formed sequence of UTF-16 and UTF-32 reads as on the server."""
    assert_reads_as_on_server(mariadb, charset, _WIDE[charset])


#: characters each charset's server has, and ones it has not (its codec in Python has them, or
#: reads them from other bytes): a DEFAULT of each in a column of that charset
DEFAULTS = {
    "greek": ["ʽ", "€", "λ"],
    "hebrew": ["‾", "¯", "א"],
    "cp866": ["ⁿ", "№"],
    "koi8u": ["•", "∙"],
    "sjis": ["\\\\", "＼", "表"],
    "cp932": ["ⅰ", "\uf8f0"],
    "big5": ["碁", "╴", "十"],
    "euckr": ["갂", "이"],
    "eucjpms": ["①", "～", "〜"],
    "ujis": ["\ue000", "表"],
    "dec8": ["Œ", "€"],
    "armscii8": ["Ը"],
    "geostd8": ["ა"],
    "keybcs2": ["└"],
    "hp8": ["À"],
    "tis620": ["ก"],
    "latin1": ["€", "\x81"],
}


@pytest.mark.parametrize(
    ("charset", "char"), [(cs, ch) for cs, chars in DEFAULTS.items() for ch in chars]
)
def test_a_default_of_a_charset_is_taken_and_refused_as_on_the_server(
    mdb: Any, charset: str, char: str
) -> None:
    """A column's DEFAULT of a character its charset has is the server's; one it has not is
    refused, as the server refuses it (error 1067)."""
    sql = f"CREATE TABLE t (a VARCHAR(5) CHARACTER SET {charset} DEFAULT '{char}')"
    try:
        with mdb.cursor() as cur:
            cur.execute(sql)
        shown: Any = parse_table(show_create_table(mdb, "t"), replica=True).column("a").default
    except pymysql.MySQLError as err:
        shown = err.args[0]
    cat = Catalog()
    try:
        cat.execute(sql)
        ours: Any = cat.table("t").column("a").default
    except DDLError:
        ours = 1067
    assert ours == shown
