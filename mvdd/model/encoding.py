r"""MySQL / MariaDB charsets as Python codecs: how a charset's bytes are text, as the server reads
them.

:data:`CODECS` names the Python codec of each charset mvdd can read (``binary`` has none: its
values are bytes). Where the server reads a charset's bytes otherwise than Python's codec of
that name, or Python has none, the codec is mvdd's own, registered as ``mvdd-mysql-<charset>``:
MySQL's ``latin1`` is cp1252 with the five bytes cp1252 leaves undefined read as the C1
controls of the same value; ``greek``, ``hebrew``, ``cp866``, ``koi8u`` read a few bytes as
other characters; ``euckr`` is Windows' cp949 (the server reads its extension too); ``sjis``,
``ujis`` and ``eucjpms`` read a backslash where Python reads a fullwidth one, ``ujis`` and
``eucjpms`` their user-defined rows as private-use characters, ``eucjpms`` (eucJP-ms) the rest
as Windows' cp932 does; ``big5`` has seven more characters and seven fewer; ``hp8`` is HP
Roman-8; ``dec8``, ``keybcs2``, ``armscii8`` and ``geostd8``, which Python lacks, are the
server's tables. A byte the server cannot read is ``?`` (``tis620``'s undefined bytes: U+FFFD),
one per byte of an ill-formed sequence, one per well-formed character it has no mapping for,
as the server converts them; the exhaustive test against a server is
``tests/test_encoding.py``. ``swe7`` has no codec: its bytes below 0x80 are Swedish letters
where ASCII has punctuation.

Writing text in a charset (``str.encode``, :func:`holds`) takes only what reads back as the same
text: a character the server reads no byte sequence of the charset as is refused; a character
of two sequences is written as the server writes it (``cp932``: IBM's extensions, not NEC's
selection of them; ``eucjpms``: NEC's row, not JIS X 0212's).

>>> python_codec("latin1"), python_codec("utf8mb4"), python_codec("binary")
('mvdd-mysql-latin1', 'utf-8', None)
>>> holds("latin1", "é€"), holds("ascii", "é"), holds("utf8mb3", "😀"), holds("swe7", "é")
(True, False, False, None)
>>> b"\x81\x5f".decode(python_codec("sjis")), b"\xa1".decode(python_codec("greek"))
('\\', 'ʽ')
"""

from __future__ import annotations

import codecs
import contextlib
import functools
import re
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from mvdd.model.charsets import CHARSETS

# --- single-byte charsets ---------------------------------------------------------------------

#: the single-byte charsets the server reads otherwise than a Python codec: charset -> (the
#: Python codec, the bytes the server reads otherwise, what it reads a byte the Python codec
#: leaves undefined as: None for the C1 control of the byte's value)
_SINGLE: dict[str, tuple[str, dict[int, str], str | None]] = {
    "latin1": ("cp1252", {}, None),
    "greek": ("iso8859-7", {0xA1: "\u02bd", 0xA2: "\u02bc", 0xA4: "?", 0xA5: "?", 0xAA: "?"}, "?"),
    "hebrew": ("iso8859-8", {0xAF: "\u203e"}, "?"),
    "cp1250": ("cp1250", {}, "?"),
    "cp1251": ("cp1251", {}, "?"),
    "cp1256": ("cp1256", dict.fromkeys((0x8A, 0x8F, 0x98, 0x9A, 0x9F, 0xAA, 0xC0, 0xFF), "?"), "?"),
    "cp1257": ("cp1257", {}, "?"),
    "cp866": ("cp866", {0xFC: "\u207f", 0xFD: "\xb2"}, "?"),
    "koi8u": ("koi8-u", {0x95: "\u2022"}, "?"),
    "tis620": ("tis-620", {}, "\ufffd"),
    "hp8": ("hp-roman8", {}, "?"),
}


#: the single-byte charsets Python has no codec of, ASCII below 0x80: what the server reads
#: each byte from 0x80 on as (MariaDB's definitions; ``?`` for a byte it has no character for)
_UPPER_HALVES: dict[str, str] = {
    "dec8": (
        "\u0080\u0081\u0082\u0083\u0084\u0085\u0086\u0087\u0088\u0089\u008a\u008b\u008c\u008d"
        "\u008e\u008f\u0090\u0091\u0092\u0093\u0094\u0095\u0096\u0097\u0098\u0099\u009a\u009b"
        "\u009c\u009d\u009e\u009f\u00a0\u00a1\u00a2\u00a3?\u00a5?\u00a7\u00a4\u00a9"
        "\u00aa\u00ab????\u00b0\u00b1\u00b2\u00b3?\u00b5\u00b6\u00b7"
        "?\u00b9\u00ba\u00bb\u00bc\u00bd?\u00bf\u00c0\u00c1\u00c2\u00c3\u00c4\u00c5"
        "\u00c6\u00c7\u00c8\u00c9\u00ca\u00cb\u00cc\u00cd\u00ce\u00cf?\u00d1\u00d2\u00d3"
        "\u00d4\u00d5\u00d6\u0152\u00d8\u00d9\u00da\u00db\u00dc\u0178?\u00df\u00e0\u00e1"
        "\u00e2\u00e3\u00e4\u00e5\u00e6\u00e7\u00e8\u00e9\u00ea\u00eb\u00ec\u00ed\u00ee\u00ef"
        "?\u00f1\u00f2\u00f3\u00f4\u00f5\u00f6\u0153\u00f8\u00f9\u00fa\u00fb\u00fc\u00ff"
        "??"
    ),
    "keybcs2": (
        "\u010c\u00fc\u00e9\u010f\u00e4\u010e\u0164\u010d\u011b\u011a\u0139\u00cd\u013e\u013a"
        "\u00c4\u00c1\u00c9\u017e\u017d\u00f4\u00f6\u00d3\u016f\u00da\u00fd\u00d6\u00dc\u0160"
        "\u013d\u00dd\u0158\u0165\u00e1\u00ed\u00f3\u00fa\u0148\u0147\u016e\u00d4\u0161\u0159"
        "\u0155\u0154\u00bc\u00a1\u00ab\u00bb\u2591\u2592\u2593\u2502\u2524\u2561\u2562\u2556"
        "\u2555\u2563\u2551\u2557\u255d\u255c\u255b\u2510\u2514\u2534\u252c\u251c\u2500\u253c"
        "\u255e\u255f\u255a\u2554\u2569\u2566\u2560\u2550\u256c\u2567\u2568\u2564\u2565\u2559"
        "\u2558\u2552\u2553\u256b\u256a\u2518\u250c\u2588\u2584\u258c\u2590\u2580\u03b1\u00df"
        "\u0393\u03c0\u03a3\u03c3\u00b5\u03c4\u03a6\u0398\u03a9\u03b4\u221e\u03c6\u03b5\u2229"
        "\u2261\u00b1\u2265\u2264\u2320\u2321\u00f7\u2248\u00b0\u2219\u00b7\u221a\u207f\u00b2"
        "\u25a0\u00a0"
    ),
    "armscii8": (
        "\u0080\u0081\u0082\u0083\u0084\u0085\u0086\u0087\u0088\u0089\u008a\u008b\u008c\u008d"
        "\u008e\u008f\u0090\u0091\u0092\u0093\u0094\u0095\u0096\u0097\u0098\u0099\u009a\u009b"
        "\u009c\u009d\u009e\u009f\u00a0\u2741\u00a7\u0589\u0029\u0028\u00bb\u00ab\u2014\u002e"
        "\u055d\u002c\u002d\u055f\u2026\u055c\u055b\u055e\u0531\u0561\u0532\u0562\u0533\u0563"
        "\u0534\u0564\u0535\u0565\u0536\u0566\u0537\u0567\u0538\u0568\u0539\u0569\u053a\u056a"
        "\u053b\u056b\u053c\u056c\u053d\u056d\u053e\u056e\u053f\u056f\u0540\u0570\u0541\u0571"
        "\u0542\u0572\u0543\u0573\u0544\u0574\u0545\u0575\u0546\u0576\u0547\u0577\u0548\u0578"
        "\u0549\u0579\u054a\u057a\u054b\u057b\u054c\u057c\u054d\u057d\u054e\u057e\u054f\u057f"
        "\u0550\u0580\u0551\u0581\u0552\u0582\u0553\u0583\u0554\u0584\u0555\u0585\u0556\u0586"
        "\u2019\u0027"
    ),
    "geostd8": (
        "\u20ac?\u201a?\u201e\u2026\u2020\u2021?\u2030?\u2039??"
        "???\u2018\u2019\u201c\u201d\u2022\u2013\u2014???\u203a"
        "????\u00a0\u00a1\u00a2\u00a3\u00a4\u00a5\u00a6\u00a7\u00a8\u00a9"
        "\u00aa\u00ab\u00ac\u00ad\u00ae\u00af\u00b0\u00b1\u00b2\u00b3\u00b4\u00b5\u00b6\u00b7"
        "\u00b8\u00b9\u00ba\u00bb\u00bc\u00bd\u00be\u00bf\u10d0\u10d1\u10d2\u10d3\u10d4\u10d5"
        "\u10d6\u10f1\u10d7\u10d8\u10d9\u10da\u10db\u10dc\u10f2\u10dd\u10de\u10df\u10e0\u10e1"
        "\u10e2\u10f3\u10e3\u10e4\u10e5\u10e6\u10e7\u10e8\u10e9\u10ea\u10eb\u10ec\u10ed\u10ee"
        "\u10f4\u10ef\u10f0\u10f5??????????"
        "?????????????\u2116"
        "??"
    ),
}


def _table(charset: str) -> str:
    """What the server reads each byte of a single-byte charset as."""
    upper = _UPPER_HALVES.get(charset)
    if upper is not None:
        return "".join(map(chr, range(128))) + upper
    base, differs, undefined = _SINGLE[charset]
    return "".join(
        differs.get(b) or bytes([b]).decode(base, errors="ignore") or undefined or chr(b)
        for b in range(256)
    )


def _single_byte(name: str, table: str) -> Any:
    encoding: dict[int, int] = {}
    for b, ch in enumerate(table):
        if ch != "\ufffd":
            encoding.setdefault(ord(ch), b)  # (the first byte a character is read from: '?')

    def encode(text: str, errors: str = "strict") -> tuple[bytes, int]:
        return codecs.charmap_encode(text, errors, encoding)  # type: ignore[arg-type]

    def decode(data: bytes, errors: str = "strict") -> tuple[str, int]:
        return codecs.charmap_decode(data, errors, table)

    return codecs.CodecInfo(encode, decode, name=name)  # type: ignore[arg-type]


# --- multi-byte charsets ----------------------------------------------------------------------


def _ranges(*pairs: tuple[int, int]) -> frozenset[int]:
    return frozenset(b for lo, hi in pairs for b in range(lo, hi + 1))


def _two_byte(lead: frozenset[int], trail: frozenset[int]) -> Callable[[bytes, int], int]:
    """The shape of a charset of one- and two-byte characters: the length of the well-formed
    character at a position (a lead byte and a trail byte: 2; a byte below 0x80 or outside the
    lead bytes: 1, the Python codec says what it is), 0 for an ill-formed one."""

    def size(data: bytes, at: int) -> int:
        if data[at] not in lead:
            return 1
        return 2 if at + 1 < len(data) and data[at + 1] in trail else 0

    return size


_EUC_BYTES = _ranges((0xA1, 0xFE))


def _euc_jp(data: bytes, at: int) -> int:
    """The shape of EUC-JP (``ujis``, ``eucjpms``): two bytes of 0xA1..0xFE (JIS X 0208), 0x8E
    and a halfwidth katakana, 0x8F and two bytes of JIS X 0212."""
    lead, rest = data[at], data[at + 1 : at + 3]
    if lead < 0x80:
        return 1
    if lead == 0x8E:
        return 2 if rest[:1] and 0xA1 <= rest[0] <= 0xDF else 0
    if lead == 0x8F:
        return 3 if len(rest) == 2 and rest[0] in _EUC_BYTES and rest[1] in _EUC_BYTES else 0
    return 2 if lead in _EUC_BYTES and rest[:1] and rest[0] in _EUC_BYTES else 0


def _user_defined(pua: int, prefix: bytes = b"") -> dict[bytes, str]:
    """EUC-JP's user-defined rows 0xF5..0xFE (after ``prefix``) as the private-use characters
    from ``pua`` on, 94 a row."""
    return {
        prefix + bytes([0xF5 + row, 0xA1 + cell]): chr(pua + row * 94 + cell)
        for row in range(10)
        for cell in range(94)
    }


def _euc_user_rows() -> dict[bytes, str]:
    """EUC-JP's user-defined rows (``ujis``'s, ``eucjpms``'s), of JIS X 0208 and of JIS X 0212
    (after 0x8F), as the server reads them."""
    return _user_defined(0xE000) | _user_defined(0xE3AC, b"\x8f")


def _sjis_of_jis(row: int, cell: int) -> bytes:
    """The Shift JIS bytes of a JIS X 0208 row and cell (0x21..0x7E each)."""
    lead = (row + 1) // 2 + (0x70 if row <= 0x5E else 0xB0)
    trail = cell + (0x1F if row % 2 else 0x7E)
    return bytes([lead, trail + (1 if row % 2 and trail >= 0x7F else 0)])


#: eucJP-ms's IBM extensions in JIS X 0212's rows 0x73..0x74, from 0x8FF3F3 on, as MariaDB
#: reads them (the ones JIS X 0212 does not have already)
_EUCJPMS_IBM = (
    "\u2170\u2171\u2172\u2173\u2174\u2175\u2176\u2177\u2178\u2179\u2160\u2161\u2162\u2163"
    "\u2164\u2165\u2166\u2167\u2168\u2169\uff07\uff02\u3231\u2116\u2121\u70bb\u4efc\u50f4"
    "\u51ec\u5307\u5324\ufa0e\u548a\u5759\ufa0f\ufa10\u589e\u5bec\u5cf5\u5d53\ufa11\u5fb7"
    "\u6085\u6120\u654e\u663b\u6665\ufa12\uf929\u6801\ufa13\ufa14\u6a6b\u6ae2\u6df8\u6df2"
    "\u7028\ufa15\ufa16\u7501\u7682\u769e\ufa17\u7930\ufa18\ufa19\ufa1a\ufa1b\u7ae7\ufa1c"
    "\ufa1d\u7da0\u7dd6\ufa1e\u8362\ufa1f\u85b0\ufa20\ufa21\u8807\ufa22\u8b7f\u8cf4\u8d76"
    "\ufa23\ufa24\ufa25\u90de\ufa26\u9115\ufa27\ufa28\u9592\uf9dc\ufa29\u973b\u974d\u9751"
    "\ufa2a\ufa2b\ufa2c\u999e\u9ad9\u9b72\ufa2d\u9ed1"
)


@functools.cache
def _eucjpms_extra() -> dict[bytes, str]:
    """What the server reads for the eucJP-ms sequences Python's ``euc_jp`` cannot read: JIS X
    0208's rows as cp932 reads them (NEC's and IBM's extensions), the user-defined rows, the
    IBM extensions in JIS X 0212's rows."""
    out: dict[bytes, str] = {}
    for lead in range(0xA1, 0xF5):
        for trail in range(0xA1, 0xFF):
            seq = bytes([lead, trail])
            try:
                seq.decode("euc_jp")
            except UnicodeDecodeError:
                with contextlib.suppress(UnicodeDecodeError):
                    out[seq] = _sjis_of_jis(lead - 0x80, trail - 0x80).decode("cp932")
    cells = [(row, cell) for row in (0xF3, 0xF4) for cell in range(0xA1, 0xFF)]
    ibm = [bytes([0x8F, row, cell]) for row, cell in cells if (row, cell) >= (0xF3, 0xF3)]
    out.update(zip(ibm, _EUCJPMS_IBM, strict=True))
    return out | _euc_user_rows()


def _eucjpms_prefer() -> dict[str, bytes]:
    """eucJP-ms's characters of JIS X 0208's rows (NEC's, as cp932 has them), which the server
    writes so, where Python's ``euc_jp`` writes JIS X 0212's (``№``)."""
    out: dict[str, bytes] = {}
    for seq, ch in _eucjpms_extra().items():
        with contextlib.suppress(UnicodeEncodeError):
            if len(seq) == 2 and len(ch.encode("euc_jp")) == 3:
                out[ch] = seq
    return out


@attrs.frozen
class _MultiByte:
    """A multi-byte charset as the server reads it: ``codec`` (Python's) reads most of it;
    ``size`` gives the shape of a character; ``differs``: well-formed sequences the codec reads
    as another text; ``extra()``: what the server reads for sequences the codec cannot read (a
    sequence missing: ``?``); ``post``: characters the codec reads (from one sequence each) that
    the server reads as another; ``prefer()``: characters of two sequences the server writes as
    the other one than the codec does."""

    codec: str
    size: Callable[[bytes, int], int]
    differs: Mapping[bytes, str] = attrs.field(factory=dict)
    extra: Callable[[], dict[bytes, str]] = dict
    post: Mapping[int, str] = attrs.field(factory=dict)
    prefer: Callable[[], dict[str, bytes]] = dict


def _ibm_first() -> dict[str, bytes]:
    """cp932's characters of IBM's extensions (rows 0xFA..0xFC), which the server writes so,
    where Python's codec writes NEC's selection of them (rows 0xED..0xEE)."""
    ibm: dict[str, bytes] = {}
    for lead in (0xFA, 0xFB, 0xFC):
        for trail in (*range(0x40, 0x7F), *range(0x80, 0xFD)):
            seq = bytes([lead, trail])
            with contextlib.suppress(UnicodeDecodeError):
                ibm.setdefault(seq.decode("cp932"), seq)
    return {ch: seq for ch, seq in ibm.items() if ch.encode("cp932")[0] in (0xED, 0xEE)}


_SJIS = _two_byte(_ranges((0x81, 0x9F), (0xE0, 0xFC)), _ranges((0x40, 0x7E), (0x80, 0xFC)))
#: the multi-byte charsets the server reads otherwise than a Python codec (``gbk`` and
#: ``gb2312`` in their ill-formed sequences only: ``?``, where the codec fails)
_MULTI: dict[str, _MultiByte] = {
    "sjis": _MultiByte("shift_jis", _SJIS, post={0xFF3C: "\\"}),
    "cp932": _MultiByte(
        "cp932",
        _SJIS,
        post=dict.fromkeys((0x80, *range(0xF8F0, 0xF8F4)), "?"),
        prefer=_ibm_first,
    ),
    "ujis": _MultiByte(
        "euc_jp",
        _euc_jp,
        extra=_euc_user_rows,
        post={0xFF3C: "\\"},
    ),
    "eucjpms": _MultiByte(
        "euc_jp",
        _euc_jp,
        differs={b"\x8f\xa2\xb7": "\uff5e"},
        extra=_eucjpms_extra,
        prefer=_eucjpms_prefer,
        post={
            0x301C: "\uff5e",
            0x2016: "\u2225",
            0x2212: "\uff0d",
            0xA2: "\uffe0",
            0xA3: "\uffe1",
            0xAC: "\uffe2",
            0xA6: "\uffe4",
        },
    ),
    "big5": _MultiByte(
        "big5",
        _two_byte(_ranges((0xA1, 0xF9)), _ranges((0x40, 0x7E), (0xA1, 0xFE))),
        differs=dict.fromkeys(
            (bytes.fromhex(h) for h in ("a15a", "a1c3", "a1c5", "a1fe", "a240", "a2cc", "a2ce")),
            "\ufffd",
        ),
        extra=lambda: dict(
            zip(
                (bytes([0xF9, t]) for t in range(0xD6, 0xDD)),
                "\u7881\u92b9\u88cf\u58bb\u6052\u7ca7\u5afa",
                strict=True,
            )
        ),
    ),
    "euckr": _MultiByte(
        "cp949",
        _two_byte(_ranges((0x81, 0xFE)), _ranges((0x41, 0x5A), (0x61, 0x7A), (0x81, 0xFE))),
    ),
    "gbk": _MultiByte("gbk", _two_byte(_ranges((0x81, 0xFE)), _ranges((0x40, 0x7E), (0x80, 0xFE)))),
    "gb2312": _MultiByte("gb2312", _two_byte(_ranges((0xA1, 0xF7)), _EUC_BYTES)),
}


def _multi_byte(name: str, spec: _MultiByte) -> Any:
    extra = functools.cache(spec.extra)

    @functools.cache
    def written() -> dict[str, bytes]:
        """The bytes of the characters the codec cannot write: those only the extra sequences
        give, and those the server reads where the codec reads another (``post``)."""
        out = {text: seq for seq, text in reversed(extra().items())}
        for code, text in spec.post.items():
            if text != "?":
                out.setdefault(text, chr(code).encode(spec.codec))
        return out

    def read(err: UnicodeError) -> tuple[str, int]:
        assert isinstance(err, UnicodeDecodeError)
        data, at = err.object, err.start
        size = spec.size(data, at)
        if size == 0:
            return "?", at + 1
        return extra().get(bytes(data[at : at + size]), "?"), at + size

    def write(err: UnicodeError) -> tuple[bytes, int]:
        assert isinstance(err, UnicodeEncodeError)
        seq = written().get(err.object[err.start])
        if seq is None:
            raise err
        return seq, err.start + 1

    codecs.register_error(f"{name}-read", read)
    codecs.register_error(f"{name}-write", write)

    posted = [chr(code) for code in spec.post]

    def text(data: bytes) -> str:
        data = bytes(data)
        if any(seq in data for seq in spec.differs):
            out = _read_slowly(spec, data, extra())
        else:
            out = data.decode(spec.codec, f"{name}-read")
        # (a translation walks every character: only where one of its characters is there)
        return out.translate(spec.post) if any(ch in out for ch in posted) else out

    def decode(data: bytes, errors: str = "strict") -> tuple[str, int]:
        return text(data), len(data)

    prefer = functools.cache(spec.prefer)

    def encode(value: str, errors: str = "strict") -> tuple[bytes, int]:
        preferred = prefer()
        if preferred and any(ch in preferred for ch in value):
            data = b"".join(
                preferred.get(ch) or ch.encode(spec.codec, f"{name}-write") for ch in value
            )
        else:
            data = value.encode(spec.codec, f"{name}-write")
        if text(data) != value:  # a character whose bytes the server reads as another
            at = next(
                (
                    i
                    for i, ch in enumerate(value)
                    if text(ch.encode(spec.codec, f"{name}-write")) != ch
                ),
                0,
            )
            raise UnicodeEncodeError(name, value, at, at + 1, "the server reads it otherwise")
        return data, len(value)

    return codecs.CodecInfo(encode, decode, name=name)  # type: ignore[arg-type]


def _read_slowly(spec: _MultiByte, data: bytes, extra: Mapping[bytes, str]) -> str:
    """``data`` read a character at a time: what a text holding a sequence of ``differs`` needs
    (the sequence may be a part of two characters, so it is not replaced in the bytes)."""
    out: list[str] = []
    at = 0
    while at < len(data):
        size = spec.size(data, at)
        if size == 0:
            out.append("?")
            at += 1
            continue
        found = _sequence_text(spec, data[at : at + size], extra)
        out.append("?" if found is None else found)
        at += size
    return "".join(out)


def _sequence_text(spec: _MultiByte, seq: bytes, extra: Mapping[bytes, str]) -> str | None:
    """The text the server reads for one sequence of a multi-byte charset (None: none)."""
    found = spec.differs.get(seq)
    if found is None:
        try:
            found = seq.decode(spec.codec)
        except UnicodeDecodeError:
            found = extra.get(seq)
    return found


# --- the codecs -------------------------------------------------------------------------------


def _kept_apart(spec: _MultiByte) -> dict[int, str]:
    """The characters a statement's codec keeps as Python reads them, which its values' reads
    as the server does (a backslash: see :func:`python_codec`)."""
    return {code: text for code, text in spec.post.items() if text == "\\"}


#: the multi-byte charsets whose statements are read otherwise than their values
_STATEMENTS = frozenset(charset for charset, spec in _MULTI.items() if _kept_apart(spec))


@functools.cache
def _codec(name: str) -> Any:
    charset = name.removeprefix("mvdd_mysql_").removesuffix("_statement")
    if charset in _SINGLE or charset in _UPPER_HALVES:
        return _single_byte(f"mvdd-mysql-{charset}", _table(charset))
    spec = _MULTI[charset]
    if name.endswith("_statement"):  # (a backslash only where the text has one)
        post = {code: text for code, text in spec.post.items() if code not in _kept_apart(spec)}
        return _multi_byte(f"mvdd-mysql-{charset}-statement", attrs.evolve(spec, post=post))
    return _multi_byte(f"mvdd-mysql-{charset}", spec)


@functools.cache
def _register() -> None:
    names = {f"mvdd_mysql_{charset}" for charset in (*_SINGLE, *_UPPER_HALVES, *_MULTI)}
    names |= {f"mvdd_mysql_{charset}_statement" for charset in _STATEMENTS}
    codecs.register(lambda name: _codec(name) if name in names else None)


#: MySQL charset -> Python codec (the charsets Python can read)
CODECS: dict[str, str] = {
    "utf8mb3": "utf-8",
    "utf8mb4": "utf-8",
    "ascii": "ascii",
    "ucs2": "utf-16-be",
    "utf16": "utf-16-be",
    "utf16le": "utf-16-le",
    "utf32": "utf-32-be",
    "latin2": "iso8859-2",
    "latin5": "iso8859-9",
    "latin7": "iso8859-13",
    "cp850": "cp850",
    "cp852": "cp852",
    "koi8r": "koi8-r",
    "gb18030": "gb18030",
    "macroman": "mac-roman",
    "macce": "mac-latin2",
    **{charset: f"mvdd-mysql-{charset}" for charset in (*_SINGLE, *_UPPER_HALVES, *_MULTI)},
}


#: the charsets MariaDB flags as not ASCII's (its ``MY_CS_NONASCII``): a constant of another
#: type it converts to one as a whole text first (a double's DEFAULT in a VARCHAR is its whole
#: text, which the column holds or refuses, where an ASCII-based charset's column fits it)
NONASCII: frozenset[str] = frozenset({"ucs2", "utf16", "utf16le", "utf32", "sjis", "swe7"})
#: the charsets a script's statements split alike in: a byte below 0x80 is its ASCII
#: character wherever it stands (never a multi-byte character's part, as a backslash is of
#: ``sjis``'s, ``cp932``'s, ``big5``'s, ``gbk``'s and ``gb18030``'s; not a letter, as ``swe7``
#: reads a backquote), so its quotes, backslashes, semicolons and comments are the same bytes
ASCII_BASED: frozenset[str] = frozenset(CODECS) - {
    "big5", "cp932", "gbk", "gb18030", "sjis", "ucs2", "utf16", "utf16le", "utf32",
}  # fmt: skip
#: the charsets whose text UTF-8 reads as a server reads it: a statement written in one (its
#: client's charset) is its UTF-8 text (``ascii`` is UTF-8's first half; a ``binary``
#: client's bytes are the server's own UTF-8)
UTF8_TEXT: frozenset[str] = frozenset({"utf8mb3", "utf8mb4", "ascii", "binary"})


def python_codec(charset: str | None, *, statement: bool = False) -> str | None:
    """The Python codec of a charset (None: none Python knows, or ``binary``). ``statement``:
    the codec a statement written in the charset is read with: the same, but for the multibyte
    characters the server reads as a backslash (``sjis``'s and ``ujis``'s fullwidth one), which
    its parser never takes for an escape (it reads a statement's bytes a character at a time):
    Python's fullwidth backslash, so that mvdd's parser does not either."""
    _register()
    if statement and charset in _STATEMENTS:
        return f"mvdd-mysql-{charset}-statement"
    return CODECS.get(charset or "")


def statement_text(charset: str) -> dict[int, str]:
    """What the server reads for the characters a statement's codec reads otherwise than its
    values' (:func:`python_codec`), as a ``str.translate`` table: once a statement in that
    charset is parsed, its strings and names are these characters (``sjis``: the fullwidth
    backslash is a backslash)."""
    return _kept_apart(_MULTI[charset]) if charset in _STATEMENTS else {}


#: the Unicode charsets of the Basic Multilingual Plane alone
_BMP_ONLY = frozenset({"utf8mb3", "ucs2"})


def holds(charset: str | None, text: str) -> bool | None:
    """Whether a charset can write every character of ``text`` (None: not known here). Every
    charset writes ASCII; ``utf8mb3`` and ``ucs2`` write the characters up to U+FFFF (Python's
    codec of ``ucs2``, UTF-16's, would write the others as pairs)."""
    if text.isascii() or charset == "utf8mb4":
        return True
    if charset in _BMP_ONLY:
        return max(text) <= "\uffff"
    codec = python_codec(charset)
    if codec is None:
        return None
    try:
        text.encode(codec)
    except UnicodeEncodeError:
        return False
    return True


#: the bytes past ASCII's whitespace (tab, newline, vertical tab, form feed, carriage return,
#: space) a charset of one byte a character counts as space (the no-break space of each), by
#: the server's character tables; a charset of UTF-16's or UTF-32's units counts the space alone
_NO_BREAK_SPACE_A0 = [
    "dec8", "latin1", "latin2", "latin5", "latin7", "greek", "hebrew", "cp1250", "armscii8",
    "geostd8",
]  # fmt: skip
_MORE_SPACES: dict[str, bytes] = {
    **dict.fromkeys(_NO_BREAK_SPACE_A0, b"\xa0"),
    **dict.fromkeys(("cp852", "cp866", "keybcs2"), b"\xff"),
}
_ASCII_SPACES = "\t\n\v\f\r "


@functools.cache
def spaces(charset: str | None) -> str:
    """The characters a charset counts as space, which a CHAR's value past the column's length
    may be and is cut of silently (``'abc\\t'`` in a CHAR(3) is ``'abc'``; a VARCHAR refuses
    it, as any other character of a CHAR's).

    >>> spaces("latin1"), spaces("utf8mb4"), spaces("ucs2")
    ('\\t\\n\\x0b\\x0c\\r \\xa0', '\\t\\n\\x0b\\x0c\\r ', ' ')
    """
    if charset in _WIDE or charset == "ucs2":  # (the charsets of UTF-16's and UTF-32's units)
        return " "
    more, codec = _MORE_SPACES.get(charset or "", b""), python_codec(charset)
    return _ASCII_SPACES + (more.decode(codec) if more and codec is not None else "")


def holds_value(charset: str | None, text: str) -> bool | None:
    r"""Whether a text column of ``charset`` holds ``text`` as a value (:func:`holds`), where a
    lone surrogate is no character, save a :data:`KEPT_BYTE` in a charset of one byte a
    character: the servers keep any byte in one (``X'F6'`` in an ascii column is the byte
    0xF6, which they show as a ``?``), where a multi-byte charset refuses an ill-formed one.

    >>> holds_value("ascii", "a\udcf6"), holds_value("utf8mb4", "\udcf6")
    (True, False)
    """
    if text.isascii() or _SURROGATE.search(text) is None:
        return holds(charset, text)
    if charset not in KEEPS_BYTES or _one_byte_reading(charset) is None:
        return False
    rest = KEPT_BYTE.sub("", text)
    return False if _SURROGATE.search(rest) else holds(charset, rest)


#: a lone surrogate: no character (a byte kept as it is among them, :data:`KEPT_BYTE`)
_SURROGATE = re.compile("[\ud800-\udfff]")


def written_as(charset: str | None, text: str) -> str:
    """``text`` as ``charset`` writes it, as both servers convert text into it: each character
    it cannot write a ``?`` (:func:`holds`; a charset not known here keeps them).

    >>> written_as("latin1", "é€ą"), written_as("utf8mb3", "a😀"), written_as("ascii", "ab")
    ('é€?', 'a?', 'ab')
    """
    if holds(charset, text) is not False:
        return text
    return "".join(c if holds(charset, c) is not False or KEPT_BYTE.match(c) else "?" for c in text)


def read_as(data: bytes, charset: str | None) -> str | None:
    """``data`` read as text of ``charset`` the way the server reads bytes it takes for that
    charset's: a ``?`` for each byte of an ill-formed sequence (None: no codec reads it).

    >>> read_as("é".encode(), "latin1"), read_as("é".encode("latin1"), "utf8mb4")
    ('Ã©', '?')
    >>> read_as("é".encode(), "ascii"), read_as(b"a", "utf16"), read_as("😀".encode(), "utf8mb3")
    ('??', '?', '????')
    """
    codec = python_codec(charset)
    if codec is None:
        return None
    text = data.decode(codec, errors=_QUESTION_MARKS)
    if charset in _BMP_ONLY:  # (a character beyond it: a ? for each of its bytes, or units)
        marks = _BEYOND_BMP_MARKS[charset]
        text = BEYOND_BMP.sub(marks, text)
    return text


#: a byte of a member (an ENUM's or a SET's) that its charset does not read, kept as it is:
#: the lone surrogate U+DC00 + the byte (:func:`kept_text`; Python's ``surrogateescape``
#: character of it, past 0x7F)
_KEPT_RANGE = "\udc00-\udcff"
KEPT_BYTE = re.compile(f"[{_KEPT_RANGE}]")


def _kept(data: bytes) -> str:
    """Bytes kept as they are in a member's text (:data:`KEPT_BYTE`)."""
    return "".join(chr(0xDC00 + byte) for byte in data)


def kept_text(data: bytes, charset: str | None) -> str | None:
    r"""``data`` read as text of ``charset`` as the server keeps an ENUM's or a SET's member:
    its bytes as they are, also those that are no text of the charset (a ``CONVERT TO
    CHARACTER SET`` reads a member's bytes in the new charset, and a hex literal's member is
    its bytes). Each byte of an ill-formed sequence (of a character beyond the BMP, in
    ``utf8mb3``; a byte a one-byte charset has no character for) is a :data:`KEPT_BYTE`,
    which :func:`bytes_in` writes back and the server shows as a ``?``
    (:func:`without_kept`), as :func:`read_as` reads it. A charset of :data:`KEEPS_BYTES`
    only: the others (``ucs2``, ``gb18030``) read as :func:`read_as` does. None: no codec
    reads it, or a well-formed sequence of a multi-byte charset has no character there
    (which the server keeps as its bytes and shows as one ``?``: not modelled).

    >>> kept_text("é".encode(), "ascii"), kept_text(b"\xe9", "utf8mb4")
    ('\udcc3\udca9', '\udce9')
    >>> without_kept(kept_text("😀".encode(), "utf8mb3")), bytes_in("\udcc3\udca9", "ascii")
    ('????', b'\xc3\xa9')
    """
    codec = python_codec(charset)
    if codec is None or charset not in KEEPS_BYTES:
        return read_as(data, charset)
    one_byte = _one_byte_reading(charset)
    if one_byte is not None:
        return data.decode("latin-1").translate(one_byte)
    if charset in _MULTI:
        return _kept_multi_byte(charset, data)
    text = data.decode(codec, errors=_KEEP_BYTES)  # (UTF-8's, UTF-16's, UTF-32's)
    if charset in _BMP_ONLY:  # (a character beyond it: each of its bytes kept)
        text = BEYOND_BMP.sub(lambda m: _kept(m.group().encode()), text)
    return text


#: the charsets of UTF-16's and UTF-32's units whose members keep their bytes (``ucs2``, which
#: reads a character beyond the BMP as two units of its own, reads as :func:`read_as`)
_WIDE = frozenset({"utf16", "utf16le", "utf32"})


#: the charsets whose members :func:`kept_text` keeps the bytes of: those of one byte a
#: character, UTF-8's, the multi-byte ones mvdd reads as the server does (:data:`_MULTI`),
#: UTF-16's and UTF-32's
KEEPS_BYTES: frozenset[str] = (ASCII_BASED | frozenset(_MULTI) | _WIDE) - {"binary"}


def _keep_bytes(err: UnicodeError) -> tuple[str, int]:
    assert isinstance(err, UnicodeDecodeError)
    return _kept(err.object[err.start : err.end]), err.end


_KEEP_BYTES = "mvdd-keep-bytes"
codecs.register_error(_KEEP_BYTES, _keep_bytes)


def _kept_multi_byte(charset: str, data: bytes) -> str | None:
    """:func:`kept_text` of a multi-byte charset as the server reads it (:data:`_MULTI`): a
    character at a time, each byte of an ill-formed sequence kept (None: a well-formed one
    the charset has no character for)."""
    spec, extra = _MULTI[charset], _extra(charset)
    out: list[str] = []
    at = 0
    while at < len(data):
        size = spec.size(data, at) or 1
        seq = data[at : at + size]
        found = _sequence_text(spec, seq, extra)
        if found is not None:
            found = spec.post.get(ord(found), found) if len(found) == 1 else found
        if found is None or found == "?" != chr(seq[0]):
            if size > 1:
                return None  # (a sequence of the charset's shape without its character)
            found = _kept(seq)  # (an ill-formed byte, or one without its character)
        out.append(found)
        at += size
    return "".join(out)


@functools.cache
def _extra(charset: str) -> dict[bytes, str]:
    """:attr:`_MultiByte.extra` of a charset of :data:`_MULTI`, made once."""
    return _MULTI[charset].extra()


@functools.cache
def _one_byte_reading(charset: str) -> dict[int, str] | None:
    """How :func:`kept_text` reads each byte of a charset of one byte a character (None: one
    of more), as a ``str.translate`` table over the bytes' latin1 text: its character, or
    the byte kept where the charset has none (the server's ``?``, which mvdd's codecs write
    for it: cp1251's 0x98)."""
    if CHARSETS[charset][1] != 1:
        return None
    codec = python_codec(charset)
    assert codec is not None
    table: dict[int, str] = {}
    for byte in range(256):
        try:
            char = bytes([byte]).decode(codec)
        except UnicodeDecodeError:
            char = "?"
        table[byte] = char if char != "?" or byte == 0x3F else _kept(bytes([byte]))
    return table


def bytes_in(text: str, charset: str | None) -> bytes:
    """A member's bytes in its charset (``text`` of :func:`kept_text`; its kept bytes as they
    are). UTF-8's where no codec writes the charset."""
    codec = python_codec(charset) or "utf-8"
    if text.isascii() or not KEPT_BYTE.search(text):
        return text.encode(codec)
    return b"".join(  # (mvdd's own codecs write with their own error handlers)
        bytes([ord(part) - 0xDC00]) if KEPT_BYTE.fullmatch(part) else part.encode(codec)
        for part in _KEPT_APART.split(text)
        if part
    )


_KEPT_APART = re.compile(f"([{_KEPT_RANGE}])")


def without_kept(text: str) -> str:
    """``text`` as the server shows it: each :data:`KEPT_BYTE` a ``?``."""
    return text if text.isascii() else KEPT_BYTE.sub("?", text)


def _question_marks(err: UnicodeError) -> tuple[str, int]:
    assert isinstance(err, UnicodeDecodeError)
    return "?" * (err.end - err.start), err.end


_QUESTION_MARKS = "mvdd-question-marks"
#: what the charsets of the BMP alone read a character beyond it as: utf8mb3 each of its four
#: bytes a ?, ucs2 each of its two units (UTF-16's surrogates, which it has not)
_BEYOND_BMP_MARKS = {"utf8mb3": "????", "ucs2": "??"}
codecs.register_error(_QUESTION_MARKS, _question_marks)


#: a character beyond the Basic Multilingual Plane (which utf8mb3 and ucs2 cannot hold, and
#: MariaDB's SHOW CREATE TABLE writes as ``?`` in a member, a DEFAULT or a comment)
BEYOND_BMP = re.compile("[\U00010000-\U0010ffff]")


def shown_text(text: str) -> str:
    r"""``text`` as MariaDB's SHOW CREATE TABLE writes a member, a DEFAULT or a comment: each
    character beyond the Basic Multilingual Plane a ``?``, and each byte a member keeps that
    its charset does not read (:data:`KEPT_BYTE`).

    >>> shown_text("a😀b"), shown_text("\udcc3\udca9")
    ('a?b', '??')
    """
    return _SHOWN_AS_MARK.sub("?", text)


#: what :func:`shown_text` writes as a ``?``
_SHOWN_AS_MARK = re.compile(f"[\U00010000-\U0010ffff{_KEPT_RANGE}]")


def well_formed(data: bytes, charset: str | None) -> bool:
    """Whether bytes are a well-formed sequence of a multi-byte charset's characters (a lead
    byte with its trail, as the servers check a binary string made text: their error 1300);
    True for any other charset, whose codec says it.

    >>> well_formed(b"\\xc4\\xe3", "gbk"), well_formed(b"\\xca\\x16", "gbk")
    (True, False)
    """
    if charset not in _MULTI:
        return True
    kept = kept_text(data, charset)
    return kept is not None and KEPT_BYTE.search(kept) is None


def holds_every_character(charset: str | None) -> bool:
    """Whether a charset writes every character, those beyond the BMP too (``utf8mb4``,
    ``utf16``, ``utf16le``, ``utf32``)."""
    return holds(charset, "\U0001f600") is True


__all__ = [
    "ASCII_BASED",
    "BEYOND_BMP",
    "CODECS",
    "KEEPS_BYTES",
    "KEPT_BYTE",
    "NONASCII",
    "bytes_in",
    "holds",
    "holds_every_character",
    "holds_value",
    "kept_text",
    "python_codec",
    "read_as",
    "shown_text",
    "spaces",
    "statement_text",
    "well_formed",
    "without_kept",
    "written_as",
]
