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

- the UCA collations of the Unicode charsets (``utf8mb4_unicode_ci``, ``_unicode_520_ci``,
  ``_uca1400_ai_ci`` and ``_as_ci``, and the languages' of each): a rule a character
  (:data:`UCA_RULES`: its compatibility decomposition, without its marks where the collation
  is accent-insensitive, case-folded; a Hangul syllable itself), but for the characters the
  server weighs otherwise, read from the server into ``uca.txt`` (:func:`uca_table`): each
  of them keeps itself, or its case folding where that weighs alike (``й`` is no ``и`` under
  ``utf8mb4_unicode_ci``, ``ą`` no ``a`` under ``utf8mb4_polish_ci``, ``I`` no ``i`` under
  ``utf8mb4_turkish_ci``). Each character's key weighs as the character does, so two texts
  whose keys are equal are one on the server: a member the key makes one with another is one
  there too, and a replica never refuses an ENUM its server took. The contractions of Latin
  letters the server weighs as one (``ch`` under ``czech_ci``) are read from it too, each a
  letter of the key. The key is finer than the server where a collation's weights span
  characters otherwise (``æ`` and ``ae``, ``ä`` and ``ae`` under ``german2_ci``, the kana of
  one sound): such members are taken;
- the multibyte Asian charsets' ``_ci`` collations (``big5``, ``cp932``, ``eucjpms``,
  ``euckr``, ``gb2312``, ``gbk``, ``sjis``, ``ujis``): an ASCII letter weighs its upper
  case, every other character itself (``Ａ`` is not ``ａ``), as the server weighs them, but
  for a few ASCII characters (``~`` is ``Y`` under ``gbk_chinese_ci``) and big5's, which weighs
  some characters of other scripts alike (this key keeps them apart);
- ``latin1_german2_ci``: each character its byte's weights, as the server gives them (``ä``
  weighs as ``ae``).

Elsewhere (the Czech ones of the one-byte charsets, whose weights span characters; ``tis620``;
a collation not named above) the key is Unicode's case folding: two texts it makes one are one
under every case-insensitive collation, and some the server makes one it keeps apart.

>>> key = collation_key("utf8mb4_general_ci")
>>> key("Straße") == key("STRASE"), key("ä") == key("a"), key("😀") == key("😁")
(True, True, True)
>>> collation_key("utf8mb4_bin")("a") == collation_key("utf8mb4_bin")("A")
False
>>> key = collation_key("latin1_swedish_ci")
>>> key("é") == key("E"), key("ä") == key("a")
(True, False)
>>> key = collation_key("utf8mb4_polish_ci")
>>> key("Ą") == key("ą"), key("ą") == key("a"), key("á") == key("a")
(True, False, True)
>>> key = collation_key("utf8mb4_czech_ci")
>>> key("CH") == key("ch"), key("cH") == key("ch")
(True, False)
"""

from __future__ import annotations

import functools
import string
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

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
UNICODE_CHARSETS = frozenset({"utf8mb3", "utf8mb4", "ucs2", "utf16", "utf16le", "utf32"})


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


#: the Unicode charsets' collations weighed by the general table: what follows the charset's name
_GENERAL_KEYS = {
    "_general_ci": _general,
    "_general_nopad_ci": _general,
    "_general_mysql500_ci": _general_500,  # (utf8mb3's and ucs2's: no character beyond the BMP)
}


def _uca_rule(marks: bool) -> Callable[[str], str]:
    """A UCA rule: a character's compatibility decomposition, its marks kept or not,
    case-folded; a Hangul syllable stays itself (the collations weigh it so, not as the jamo
    its decomposition spells)."""

    def rule(text: str) -> str:
        if text.isascii():
            return text.casefold()
        out = []
        for char in text:
            if "\uac00" <= char <= "\ud7a3":
                out.append(char)
                continue
            parts = unicodedata.normalize("NFKD", char)
            if not marks:
                parts = "".join(c for c in parts if not unicodedata.combining(c))
            out.append(parts.casefold())
        return "".join(out)

    return rule


#: the rules of the UCA collations' keys, a character at a time (:func:`uca_table`): the
#: accent-insensitive ones a character's compatibility decomposition without its marks, the
#: accent-sensitive ones with them, case-folded
UCA_RULES: dict[str, Callable[[str], str]] = {
    "unaccented": _uca_rule(marks=False),
    "folded": _uca_rule(marks=True),
}
#: the server's weights of the UCA collations where their rule misses them
_UCA = Path(__file__).with_name("uca.txt")


class UcaTable(NamedTuple):
    """A UCA collation's rule (a key of :data:`UCA_RULES`) and the characters it misses:
    ``kept`` weigh as themselves, ``folded`` as their case folding; and its
    ``contractions`` of Latin letters, the texts of two or three it weighs as one letter
    (``ch``, ``Ch`` and ``CH`` under ``czech_ci``, not ``cH``)."""

    rule: str
    kept: frozenset[str]
    folded: frozenset[str]
    contractions: frozenset[str]


def _chars(span: str) -> set[str]:
    first, _, last = span.partition("..")
    return {chr(code) for code in range(int(first, 16), int(last or first, 16) + 1)}


def _sequence(codes: str) -> set[str]:
    return {"".join(chr(int(code, 16)) for code in codes.split("."))}


#: a token's prefix in ``uca.txt`` -> which set of a table it changes, and how it reads
_TOKENS: dict[str, tuple[int, Callable[[str], set[str]]]] = {
    "c": (2, _sequence),
    "f": (1, _chars),
    "": (0, _chars),
}


@functools.cache
def _uca_lines() -> dict[str, tuple[str, str, list[str]]]:
    """``uca.txt``: a collation's name -> its rule, the line it is made of, its tokens."""
    out: dict[str, tuple[str, str, list[str]]] = {}
    for line in _UCA.read_text(encoding="ascii").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        name, rule, base, *tokens = line.split()
        out[name] = (rule, base, tokens)
    return out


def uca_names() -> list[str]:
    """The UCA collations of ``uca.txt``, by their names after the charset's."""
    return list(_uca_lines())


@functools.cache
def uca_table(name: str) -> UcaTable | None:
    """The table of a UCA collation by its name after the charset's (``polish_ci``,
    ``uca1400_polish_ai_ci``; a ``_nopad`` twin takes its pad one's), from ``uca.txt``: a
    line a collation, made of the line it names by the characters added (``+``) and taken
    (``-``), kept, folded (after ``f``) or contracted (after ``c``). None: none such."""
    line = _uca_lines().get(name)
    if line is None:
        return None
    rule, base, tokens = line
    held = uca_table(base) if base != "-" else None
    # (kept, folded, contractions): the base line's, changed by this one's tokens
    sets: list[set[str]] = [set(s) for s in held[1:]] if held else [set(), set(), set()]
    for token in tokens:
        prefix = token[0] if token[0] in "cf" else ""
        index, read = _TOKENS[prefix]
        sign, body = token[len(prefix)], token[len(prefix) + 1 :]
        (sets[index].update if sign == "+" else sets[index].difference_update)(read(body))
    return UcaTable(rule, *map(frozenset, sets))


def _uca(table: UcaTable) -> Callable[[str], str]:
    """The key of a UCA collation: each character its rule's text, or its own where the
    server weighs it otherwise (:class:`UcaTable`)."""
    rule = UCA_RULES[table.rule]
    plain_ascii = not any(c.isascii() for c in table.kept | table.folded)
    contractions = table.contractions
    firsts = {text[0] for text in contractions}

    @functools.lru_cache(maxsize=4096)
    def char_key(char: str) -> str:
        if char in table.kept:
            return char
        if char in table.folded:
            return char.casefold()
        if char == _CONTRACTED:  # (the mark of a contraction's key, see below)
            return char + char
        return rule(char)

    def key(text: str) -> str:
        if firsts.isdisjoint(text):
            if plain_ascii and text.isascii():
                return rule(text)
            return "".join(map(char_key, text))
        # a contraction, the longest first, weighs as one letter: its case folding after a
        # mark no character's key holds (a U+FFFF of the text is two), so that ``cH``,
        # no contraction, is not ``ch``
        out: list[str] = []
        i = 0
        while i < len(text):
            for size in (3, 2):
                part = text[i : i + size]
                if len(part) == size and part in contractions:
                    out.append(_CONTRACTED + part.casefold())
                    i += size
                    break
            else:
                out.append(char_key(text[i]))
                i += 1
        return "".join(out)

    return key


#: the mark before a contraction in a UCA key (a noncharacter)
_CONTRACTED = "\uffff"


#: the multibyte Asian charsets, whose ``_ci`` collations weigh an ASCII letter as its upper
#: case, the ASCII characters named here as the letter given (``~`` as ``Y`` under gbk's: the
#: server's WEIGHT_STRING), and every other character as itself (big5's weigh some characters
#: of other scripts alike, which this keeps apart)
_ASCII_CASED: dict[str, dict[str, str]] = {
    "big5": {"~": "Y", "`": "E"},
    "gb2312": {"~": "Y"},
    "gbk": {"~": "Y"},
    "cp932": {},
    "eucjpms": {},
    "euckr": {},
    "sjis": {},
    "ujis": {},
}


def _ascii_cased(charset: str) -> Callable[[str], str]:
    table = str.maketrans(
        {
            **dict(zip(string.ascii_lowercase, string.ascii_uppercase, strict=True)),
            **_ASCII_CASED[charset],
        }
    )

    def key(text: str) -> str:
        return text.translate(table)

    return key


#: the one-byte collations whose weights span characters: each byte's weight where it is not
#: the byte's own (an ASCII letter's upper case, else the byte), as the server's WEIGHT_STRING
#: gives it (``latin1_german2_ci``: ``ä`` weighs as ``AE``, ``ß`` as ``SS``, ``æ`` as ``\``)
_SPANNING = {
    "latin1_german2_ci": (
        "C0:41 C1:41 C2:41 C3:41 C4:4145 C5:41 C6:5C C7:43 C8:45 C9:45 CA:45 CB:45 CC:49 CD:49 "
        "CE:49 CF:49 D0:44 D1:4E D2:4F D3:4F D4:4F D5:4F D6:4F45 D9:55 DA:55 DB:55 DC:5545 "
        "DD:59 DF:5353 E0:41 E1:41 E2:41 E3:41 E4:4145 E5:41 E6:5C E7:43 E8:45 E9:45 EA:45 "
        "EB:45 EC:49 ED:49 EE:49 EF:49 F0:44 F1:4E F2:4F F3:4F F4:4F F5:4F F6:4F45 F8:D8 F9:55 "
        "FA:55 FB:55 FC:5545 FD:59 FE:DE FF:59"
    ),
}


def _spanning(collation: str) -> Callable[[str], str]:
    """A collation of :data:`_SPANNING`: each character the text of its byte's weights."""
    codec = python_codec(collation_charset(collation))
    special = {
        int(byte, 16): bytes.fromhex(weight)
        for byte, weight in (pair.split(":") for pair in _SPANNING[collation].split())
    }
    weights: dict[int, str] = {}
    for byte in range(256):
        try:
            char = bytes([byte]).decode(codec or "latin-1")
        except UnicodeDecodeError:
            continue
        if char != "?" or byte == 0x3F:  # (a byte read as ? is not the ?)
            weights.setdefault(
                ord(char), special.get(byte, bytes([byte]).upper()).decode("latin-1")
            )

    def key(text: str) -> str:
        return text.translate(weights)

    return key


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
    if collation in _SPANNING:
        return _spanning(collation)
    if collation == "binary" or collation.endswith(("_bin", "_cs")):
        return _exact
    charset = collation_charset(collation)
    if charset in UNICODE_CHARSETS:
        name = collation[len(charset) + 1 :]
        general = _GENERAL_KEYS.get("_" + name)
        if general is not None:
            return general
        table = uca_table(name.replace("_nopad", ""))
        return _uca(table) if table is not None else _folded
    if charset in _ASCII_CASED:
        return _ascii_cased(charset)
    return _folded


__all__ = [
    "UCA_RULES",
    "UNICODE_CHARSETS",
    "UcaTable",
    "collation_key",
    "sort_orders",
    "uca_names",
    "uca_table",
]
