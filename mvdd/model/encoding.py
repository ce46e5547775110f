"""MySQL / MariaDB charsets as Python codecs: how a charset's bytes are text.

:data:`CODECS` names the Python codec of each charset Python can read (``binary`` has none: its
values are bytes); MySQL's ``latin1`` is cp1252 with the five bytes cp1252 leaves undefined
mapped to the C1 controls of the same value, registered here as ``mvdd-mysql-latin1``.

>>> python_codec("latin1"), python_codec("utf8mb4"), python_codec("binary")
('mvdd-mysql-latin1', 'utf-8', None)
>>> holds("latin1", "é€"), holds("ascii", "é"), holds("utf8mb3", "😀"), holds("armscii8", "é")
(True, False, False, None)
"""

from __future__ import annotations

import codecs
import functools


def _mysql_latin1() -> codecs.CodecInfo:
    # MySQL's latin1 is cp1252, with the five bytes cp1252 leaves undefined mapped to the C1
    # controls of the same value (so every byte decodes, as on the server)
    table = "".join(bytes([b]).decode("cp1252", errors="ignore") or chr(b) for b in range(256))
    encoding_table = codecs.charmap_build(table)

    def encode(text: str, errors: str = "strict") -> tuple[bytes, int]:
        return codecs.charmap_encode(text, errors, encoding_table)

    def decode(data: bytes, errors: str = "strict") -> tuple[str, int]:
        return codecs.charmap_decode(data, errors, table)

    return codecs.CodecInfo(encode, decode, name="mvdd-mysql-latin1")  # type: ignore[arg-type]


@functools.cache
def _register() -> None:
    codecs.register(lambda name: _mysql_latin1() if name == "mvdd_mysql_latin1" else None)


#: MySQL charset -> Python codec (the charsets Python can read)
CODECS: dict[str, str] = {
    "utf8mb3": "utf-8",
    "utf8mb4": "utf-8",
    "latin1": "mvdd-mysql-latin1",
    "ascii": "ascii",
    "ucs2": "utf-16-be",
    "utf16": "utf-16-be",
    "utf16le": "utf-16-le",
    "utf32": "utf-32-be",
    "latin2": "iso8859-2",
    "latin5": "iso8859-9",
    "latin7": "iso8859-13",
    "greek": "iso8859-7",
    "hebrew": "iso8859-8",
    "cp1250": "cp1250",
    "cp1251": "cp1251",
    "cp1256": "cp1256",
    "cp1257": "cp1257",
    "cp850": "cp850",
    "cp852": "cp852",
    "cp866": "cp866",
    "cp932": "cp932",
    "koi8r": "koi8-r",
    "koi8u": "koi8-u",
    "big5": "big5",
    "gbk": "gbk",
    "gb2312": "gb2312",
    "gb18030": "gb18030",
    "sjis": "shift_jis",
    "ujis": "euc_jp",
    "eucjpms": "euc_jp",
    "euckr": "euc_kr",
    "tis620": "tis-620",
    "macroman": "mac-roman",
    "macce": "mac-latin2",
}


#: the charsets whose text UTF-8 reads as a server reads it: a statement written in one (its
#: client's charset) is its UTF-8 text (``ascii`` is UTF-8's first half; a ``binary``
#: client's bytes are the server's own UTF-8)
UTF8_TEXT: frozenset[str] = frozenset({"utf8mb3", "utf8mb4", "ascii", "binary"})


def python_codec(charset: str | None) -> str | None:
    """The Python codec of a charset (None: none Python knows, or ``binary``)."""
    _register()
    return CODECS.get(charset or "")


def holds(charset: str | None, text: str) -> bool | None:
    """Whether a charset can write every character of ``text`` (None: not known here). Every
    charset writes ASCII; ``utf8mb3`` writes the characters up to U+FFFF."""
    if text.isascii() or charset == "utf8mb4":
        return True
    if charset == "utf8mb3":
        return max(text) <= "\uffff"
    codec = python_codec(charset)
    if codec is None:
        return None
    try:
        text.encode(codec)
    except UnicodeEncodeError:
        return False
    return True


__all__ = ["CODECS", "holds", "python_codec"]
