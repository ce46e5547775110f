"""When two strings are one under a collation: the members of an ENUM or a SET meet each other
(two that are one are the servers' error 1291) and a value meets them (``DEFAULT 'A'`` of an
``ENUM('a')`` is ``'a'``).

:func:`collation_key` gives each collation a key function: two strings are one when their keys
are equal. Exact where mvdd holds the server's weights, each table tested against the server's
``WEIGHT_STRING`` in ``tests/test_mariadb_server.py``:

- ``binary`` and the ``_bin`` collations: the characters themselves;
- the collations of the one-byte charsets (:func:`sort_orders`): a weight a character, read
  from its byte (``latin1_swedish_ci`` makes ``é`` and ``E`` one, and keeps
  ``ä`` apart from ``a``);
- the ``_general_ci`` collations of the Unicode charsets (and their ``_nopad`` and
  ``_mysql500`` twins): a weight a character of the Basic Multilingual Plane, its upper case
  without accents (``ä`` is ``A``, ``ß`` is ``S``, but in ``_general_mysql500_ci`` itself),
  each character beyond it the same weight as U+FFFD.

Elsewhere (the UCA collations: ``utf8mb4_unicode_ci``, ``uca1400_*`` and the languages'; the
multibyte Asian charsets; ``latin1_german2_ci`` and the Czech ones, whose weights span
characters) the key is Unicode's case folding, without accents for the accent-insensitive UCA
ones (``_ai_``, and those named without ``_as_``): close to the server's, not its every weight.

>>> key = collation_key("utf8mb4_general_ci")
>>> key("Straße") == key("STRASE"), key("ä") == key("a"), key("😀") == key("😁")
(True, True, True)
>>> collation_key("utf8mb4_bin")("a") == collation_key("utf8mb4_bin")("A")
False
>>> key = collation_key("latin1_swedish_ci")
>>> key("é") == key("E"), key("ä") == key("a")
(True, False)
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Callable
from pathlib import Path

from mvdd.model.charsets import collation_charset
from mvdd.model.encoding import BEYOND_BMP, python_codec

#: the spans of the Basic Multilingual Plane whose characters weigh, under ``_general_ci``, the
#: upper case of their first letter without its accents (the others weigh themselves; the
#: server's table is older than Unicode's later letters)
_GENERAL_SPANS = (
    (0x0061, 0x017F),
    (0x0183, 0x0199),
    (0x01A0, 0x0233),
    (0x0253, 0x025B),
    (0x0260, 0x0260),
    (0x0263, 0x0263),
    (0x0268, 0x0269),
    (0x026F, 0x026F),
    (0x0272, 0x0275),
    (0x0280, 0x0280),
    (0x0283, 0x0283),
    (0x0288, 0x0288),
    (0x028A, 0x028B),
    (0x0292, 0x0292),
    (0x0345, 0x0345),
    (0x0386, 0x0386),
    (0x0388, 0x03D6),
    (0x03DB, 0x03F1),
    (0x0400, 0x040E),
    (0x0430, 0x0481),
    (0x048D, 0x04C4),
    (0x04C8, 0x04C8),
    (0x04CC, 0x04CC),
    (0x04D0, 0x04F5),
    (0x04F8, 0x04F9),
    (0x0561, 0x0586),
    (0x1E00, 0x1EF9),
    (0x1F00, 0x1FBA),
    (0x1FBC, 0x1FBE),
    (0x1FC2, 0x1FC8),
    (0x1FCA, 0x1FCA),
    (0x1FCC, 0x1FCC),
    (0x1FD0, 0x1FD2),
    (0x1FD6, 0x1FDA),
    (0x1FE0, 0x1FE2),
    (0x1FE4, 0x1FEA),
    (0x1FEC, 0x1FEC),
    (0x1FF2, 0x1FF8),
    (0x1FFA, 0x1FFA),
    (0x1FFC, 0x1FFC),
    (0x2170, 0x217F),
    (0x24D0, 0x24E9),
    (0xFF41, 0xFF5A),
)
#: the characters whose ``_general_ci`` weight is not that rule's
_GENERAL_ODD = {
    0x00DF: 0x0053,  # ß: S
    0x03F2: 0x03A3,  # ϲ (lunate sigma): Σ
    0x0439: 0x0419,  # й: Й (its breve kept)
    0x1F71: 0x1FBB,  # the Greek letters with oxia keep it, as their capitals do
    0x1F73: 0x1FC9,
    0x1F75: 0x1FCB,
    0x1F77: 0x1FDB,
    0x1F79: 0x1FF9,
    0x1F7B: 0x1FEB,
    0x1F7D: 0x1FFB,
}


def _base_upper(char: str) -> str:
    base = unicodedata.normalize("NFD", char)[0]
    upper = base.upper()
    return upper if len(upper) == 1 else base


_GENERAL: dict[int, int] = {
    **{
        code: ord(weight)
        for start, end in _GENERAL_SPANS
        for code in range(start, end + 1)
        if (weight := _base_upper(chr(code))) != chr(code)
    },
    **_GENERAL_ODD,
}
#: ``_general_mysql500_ci``'s: the same, but ß weighs itself (the table of MySQL 5.0)
_GENERAL_500 = {**_GENERAL, 0x00DF: 0x00DF}
#: the Unicode charsets, whose ``_general_ci`` and ``_general_nopad_ci`` weigh by _GENERAL
_UNICODE = ("utf8mb3", "utf8mb4", "ucs2", "utf16", "utf16le", "utf32")


def _general(text: str) -> str:
    if text.isascii():
        return text.upper()
    return BEYOND_BMP.sub("\ufffd", text.translate(_GENERAL))


def _general_500(text: str) -> str:
    return text.upper() if text.isascii() else text.translate(_GENERAL_500)


def _exact(text: str) -> str:
    return text


def _folded(text: str) -> str:
    return text.casefold()


def _unaccented(text: str) -> str:
    if text.isascii():
        return text.casefold()
    parts = unicodedata.normalize("NFKD", text)
    return "".join(c for c in parts if not unicodedata.combining(c)).casefold()


#: the Unicode charsets' collations weighed by the general table: what follows the charset's name
_GENERAL_KEYS = {
    "_general_ci": _general,
    "_general_nopad_ci": _general,
    "_general_mysql500_ci": _general_500,  # (utf8mb3's and ucs2's: no character beyond the BMP)
}


#: collation -> the weight of each of its charset's 256 bytes, a line each
_SORT_ORDERS = Path(__file__).with_name("sort_orders.txt")


@functools.cache
def sort_orders() -> dict[str, bytes]:
    """The weights of the collations of the one-byte charsets whose weights are a byte a
    character, and not the bytes themselves: collation -> the weight of each of its charset's
    256 bytes, as the server's ``WEIGHT_STRING`` gives them (the others of those charsets are
    their ``_bin`` collations, which weigh each byte as itself)."""
    lines = _SORT_ORDERS.read_text(encoding="ascii").splitlines()
    return {
        name: bytes.fromhex(weights)
        for name, weights in (line.split() for line in lines if not line.startswith("#"))
    }


def _weighed(collation: str) -> Callable[[str], str]:
    """A one-byte charset's collation: each character the weight of its byte."""
    table = sort_orders()[collation]
    codec = python_codec(collation_charset(collation))
    weights: dict[int, int] = {}
    if codec is not None:
        for byte, weight in enumerate(table):
            try:
                char = bytes([byte]).decode(codec)
            except UnicodeDecodeError:
                continue  # (a byte the charset has no character for: no text holds it)
            if char != "?" or byte == 0x3F:  # (a byte read as ? is not the ?)
                weights.setdefault(ord(char), weight)

    def key(text: str) -> str:
        return text.translate(weights)

    return key


@functools.cache
def collation_key(collation: str | None) -> Callable[[str], str]:
    """The key under which two strings are one in ``collation`` (None: not known yet, Unicode's
    case folding). See the module's docstring for where the key is the server's."""
    if collation is None:
        return _folded
    if collation in sort_orders():
        return _weighed(collation)
    if collation == "binary" or collation.endswith(("_bin", "_cs")):
        return _exact
    charset = collation_charset(collation)
    general = _GENERAL_KEYS.get(collation[len(charset or "") :]) if charset in _UNICODE else None
    if general is not None:
        return general
    if "_as_" in collation or charset not in _UNICODE:
        return _folded
    return _unaccented


__all__ = ["collation_key", "sort_orders"]
