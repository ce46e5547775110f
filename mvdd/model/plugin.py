"""MariaDB's plugin types (``UUID``, ``INET4``, ``INET6``): their text and their bytes.

A value of these types is a fixed number of bytes (16, 4, 16): what a row, the binlog and a cast
to a binary string hold. A client reads and writes its text. mvdd's canonical value is the text
the server prints, so a value read from the binlog, one read with ``SELECT`` and one written in a
statement compare equal.

The rules are the server's (MariaDB 10.11), which differ from Python's ``uuid`` and
``ipaddress`` modules:

- ``UUID`` reads 32 hex digits, with any number of ``-`` anywhere but first or last. It refuses
  a version of 8 or more with variant 0 (the sortable layout below). It prints as lowercase
  8-4-4-4-12.
- ``INET4`` reads four dotted decimal numbers, each of one to three digits and at most 255
  (``01.02.003.004`` is ``1.2.3.4``). The text is 7 to 15 characters long.
- ``INET6`` reads RFC 4291 text (up to four hex digits a group, one ``::``, an INET4 as the
  last 32 bits), 2 to 39 characters. It prints the longest run of zero groups (the first of
  equal runs, a single group too) as ``::``, and the last 32 bits dotted when the address is
  IPv4-compatible (``::0.1.0.2``, never ``::1`` or ``::``) or IPv4-mapped (``::ffff:1.2.3.4``).
- A binary string of exactly the type's size is the value's bytes; one of another size is
  refused (it is not read as text). A UUID's bytes in the server's sortable layout (the node
  first, the time's low part last; how it stores a time-based UUID) are read in that layout.
  The binlog and a change of type to a binary string carry the bytes as written.

>>> text_of(K.INET6, from_text(K.INET6, "0:0:0:0:0:ffff:0102:0304"))
'::ffff:1.2.3.4'
>>> text_of(K.UUID, from_text(K.UUID, "123E4567E89B12D3A456-426655440000"))
'123e4567-e89b-12d3-a456-426655440000'
"""

from __future__ import annotations

from collections.abc import Callable

from mvdd.model.kind import PLUGIN_BYTES, TypeKind

K = TypeKind

_HEX = frozenset("0123456789abcdefABCDEF")


def _hyphens(text: str, i: int) -> int:
    while i < len(text) and text[i] == "-":
        i += 1
    return i


def _uuid_bytes(text: str) -> bytes | None:
    if len(text) < 32:
        return None
    out = bytearray()
    i = 0
    for n in range(16):
        hi = text[i] if i < len(text) else ""
        i = _hyphens(text, i + 1)  # hyphens may stand between a byte's two digits, too
        lo = text[i] if i < len(text) else ""
        if not (hi and lo and hi in _HEX and lo in _HEX):
            return None
        out.append(int(hi + lo, 16))
        i = i + 1 if n == 15 else _hyphens(text, i + 1)
    if i < len(text) or _sortable(out):
        return None  # text left over, or a version >= 8 with variant 0: no such UUID
    return bytes(out)


def _sortable(data: bytes | bytearray) -> bool:
    """The server's test for a UUID in its sortable layout: the variant's byte where the
    version's should be. Text of such a value is refused; a binary string of one is read in
    that layout."""
    variant = data[8] - 256 if data[8] > 127 else data[8]  # a C char
    return bool(data[6] & -variant & 0x80)


#: a UUID's parts: (offset as written, offset in the sortable layout, length)
_SEGMENTS = ((0, 12, 4), (4, 10, 2), (6, 8, 2), (8, 6, 2), (10, 0, 6))


def _uuid_binary(data: bytes) -> bytes:
    if not _sortable(data):
        return data
    out = bytearray(16)
    for written, stored, length in _SEGMENTS:
        out[written : written + length] = data[stored : stored + length]
    return bytes(out)


def _uuid_text(data: bytes) -> str:
    h = data.hex()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def _inet4_bytes(text: str) -> bytes | None:
    if not 7 <= len(text) <= 15 or text.endswith("."):
        return None
    parts = text.split(".")
    if len(parts) != 4:
        return None
    out = bytearray()
    for part in parts:
        # isdigit() admits other scripts' digits: the server reads ASCII ones only
        if not 1 <= len(part) <= 3 or not part.isascii() or not part.isdigit():
            return None
        value = int(part)
        if value > 255:
            return None
        out.append(value)
    return bytes(out)


def _inet4_text(data: bytes) -> str:
    return ".".join(str(b) for b in data)


def _inet6_bytes(text: str) -> bytes | None:
    if not 2 <= len(text) <= 39:
        return None
    out = bytearray()
    gap: int | None = None
    i, end = 0, len(text)
    if text[0] == ":":
        if text[1] != ":":
            return None
        i = 1
    group_start, digits, value = i, 0, 0
    while i < end:
        c = text[i]
        i += 1
        if c == ":":
            group_start = i
            if not digits:
                if gap is not None:
                    return None  # a second '::'
                gap = len(out)
                continue
            if i >= end or len(out) + 2 > 16:
                return None
            out += value.to_bytes(2, "big")
            digits, value = 0, 0
        elif c == ".":
            tail = _inet4_bytes(text[group_start:])
            if tail is None or len(out) + 4 > 16:
                return None
            out += tail
            digits = 0
            break
        else:
            if c not in _HEX or digits >= 4:
                return None
            value = value << 4 | int(c, 16)
            digits += 1
    if digits:
        if len(out) + 2 > 16:
            return None
        out += value.to_bytes(2, "big")
    if gap is not None:
        if len(out) == 16:
            return None  # '::' stands for at least one group
        out[gap:gap] = bytes(16 - len(out))
    return bytes(out) if len(out) == 16 else None


def _inet6_text(data: bytes) -> str:
    words = [int.from_bytes(data[i : i + 2], "big") for i in range(0, 16, 2)]
    gap_at, gap_len, run_at, run_len = -1, 0, -1, 0
    for i, word in enumerate([*words, 1]):  # the sentinel closes a run at the end
        if word == 0:
            run_at, run_len = (i, 1) if run_len == 0 else (run_at, run_len + 1)
        elif run_len:
            if run_len > gap_len:
                gap_at, gap_len = run_at, run_len
            run_len = 0
    text, i = "", 0
    while i < 8:
        if i == gap_at:
            text += "::" if i == 0 else ":"
            i += gap_len
        elif i == 6 and gap_at == 0 and (gap_len == 6 or (gap_len == 5 and words[5] == 0xFFFF)):
            return text + _inet4_text(data[12:])  # IPv4-compatible or IPv4-mapped
        else:
            text += f"{words[i]:x}" + (":" if i < 7 else "")
            i += 1
    return text


def _same(data: bytes) -> bytes:
    return data


#: kind -> (text to bytes, None if the server refuses it; a binary string of the kind's size
#: to bytes; bytes to the server's text)
CODECS: dict[
    TypeKind,
    tuple[Callable[[str], bytes | None], Callable[[bytes], bytes], Callable[[bytes], str]],
] = {
    K.UUID: (_uuid_bytes, _uuid_binary, _uuid_text),
    K.INET4: (_inet4_bytes, _same, _inet4_text),
    K.INET6: (_inet6_bytes, _same, _inet6_text),
}


def from_text(kind: TypeKind, text: str) -> bytes | None:
    """The bytes of a value given as text, or None if the server refuses the text."""
    return CODECS[kind][0](text)


def from_binary(kind: TypeKind, data: bytes) -> bytes:
    """The bytes of a value given as a binary string of the kind's size (a UUID's may be in
    the server's sortable layout, as a ``BINARY(16)`` copied from its storage is)."""
    return CODECS[kind][1](data)


def text_of(kind: TypeKind, data: bytes) -> str:
    """The text the server prints for a value's bytes (``len(data)`` is the kind's size)."""
    if len(data) != PLUGIN_BYTES[kind]:
        raise ValueError(f"a {kind} value is {PLUGIN_BYTES[kind]} bytes, not {len(data)}")
    return CODECS[kind][2](data)


__all__ = ["CODECS", "from_binary", "from_text", "text_of"]
