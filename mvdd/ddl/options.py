"""Table options as a storage engine judges them, under mvdd's own rules: the options an engine
defines (InnoDB's ``PAGE_COMPRESSED``, ``PAGE_COMPRESSION_LEVEL``, ``ENCRYPTED`` and
``ENCRYPTION_KEY_ID``) and the values each takes, and the create options InnoDB refuses
together, as a default MariaDB server judges them (10.11: ``innodb_strict_mode`` on, 16 KiB
pages, a file per table, no encryption plugin loaded).

- **Options a statement names** (:func:`check_named`): a name that is neither one of the
  server's own table options nor one its engine defines is refused (the server's 1911,
  ``Unknown option``), and so is a value the engine's option does not take (1912, ``Incorrect
  value``: ``PAGE_COMPRESSED=2``, ``PAGE_COMPRESSION_LEVEL=10``, ``ENCRYPTED=1``); a session
  with ``IGNORE_BAD_TABLE_OPTIONS`` takes both, as the server does with a warning. Only what
  the statement names is judged: an ALTER that changes the engine keeps the options the old one
  defined, which the server keeps too, inactive (``/* `PAGE_COMPRESSED`='1' */``), until an
  engine that defines them reads them again. An engine mvdd does not know defines what it
  likes.
- **A value's grammar** (:func:`check_written`, a table of the kinds each option takes in
  :data:`_GRAMMAR`): the server's own options take numbers (``MAX_ROWS`` no hex; the switches
  0 or 1; some ``DEFAULT``; ``INSERT_METHOD`` its words), an engine's a text, a name that is
  not a reserved word, a whole number or ``DEFAULT``; another form is a syntax error (1064) in
  any session. ``TRANSACTIONAL`` is InnoDB's and Aria's alone (:data:`REFUSED_OPTIONS`).
- **InnoDB's create options together** (:func:`check_innodb`, a rule each in :data:`_INNODB`):
  a table InnoDB holds, as a statement leaves it, takes no ``ROW_FORMAT=FIXED`` nor ``PAGE``; a
  ``KEY_BLOCK_SIZE`` of 1, 2, 4, 8 or 16 only (0 is none), and only with no ``ROW_FORMAT`` or a
  ``COMPRESSED`` one, never beside ``PAGE_COMPRESSED``; ``PAGE_COMPRESSED`` not with a
  ``COMPRESSED`` nor a ``REDUNDANT`` row format; ``PAGE_COMPRESSION_LEVEL`` only with
  ``PAGE_COMPRESSED``; ``ENCRYPTED=YES`` not (no key management plugin): the server's 140
  (``Wrong create options``) for a CREATE, 1478 for an ALTER, whether the statement named the
  option or left it from before (an ALTER to ``ROW_FORMAT=DYNAMIC`` of a table with a
  ``KEY_BLOCK_SIZE``). ``IGNORE_BAD_TABLE_OPTIONS`` does not lift these.
- **Values as the server keeps them**, for a replica and under mvdd's rules alike
  (:func:`kept`, a rule each in :data:`_KEPT`; :func:`flags_ored`, :func:`engine_kept`): the
  server's own numbers as the fields of its table definition hold them, an engine's option as
  the text of its value, Aria's row format under its own name, as ``SHOW CREATE TABLE``
  shows them.

``tests/test_mariadb_server.py`` holds all of it to MariaDB in scripts of CREATEs and ALTERs of
random options and engines, the options each statement leaves compared with the server's.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any, NamedTuple

import attrs
from sqlglot import exp

from mvdd.ddl.dialect import DIALECT, TABLE_OPTION_WORDS
from mvdd.ddl.reserved import is_reserved
from mvdd.errors import DDLError, DDLParseError
from mvdd.model.table import TableOptions

#: the server's own table options (any engine's), as the catalog keeps them in ``extra``; a
#: name outside these and its engine's own (:data:`ENGINE_OPTIONS`) is unknown to the server
SERVER_OPTIONS = frozenset(
    {*TABLE_OPTION_WORDS, "DATA DIRECTORY", "INDEX DIRECTORY", "SEQUENCE", "STORAGE"}
    | {"TABLESPACE", "UNION"}
) - {"PAGE_COMPRESSED", "PAGE_COMPRESSION_LEVEL"}  # (InnoDB's own: ENGINE_OPTIONS)


def _flag(text: str) -> bool | None:
    """A boolean option's value (``1``, ``YES``, ``ON``; ``0``, ``NO``, ``OFF``; quoted or
    not, any case), None for another."""
    word = _bare(text).upper()
    if word in ("YES", "ON"):
        return True
    if word in ("NO", "OFF"):
        return False
    number = _number(text)
    return None if number not in (0, 1) else bool(number)


def _number(text: str) -> int | None:
    """A number option's value (digits, a ``0x…``, a decimal or a float as the server takes
    it: :func:`leading_number`; quoted or not), None for another."""
    word = _bare(text)
    kind = written_kind(word)
    if kind == "hex":
        return int(word, 16)
    return leading_number(word) if kind in ("integer", "decimal", "float") else None


def _bare(text: str) -> str:
    return text[1:-1] if len(text) > 1 and text[0] == text[-1] and text[0] in "'\"" else text


def _in_range(low: int, high: int) -> Callable[[str], bool]:
    return lambda text: (n := _number(text)) is not None and low <= n <= high


#: a table option's value as written -> its kind in the servers' grammar (the first that
#: matches): DEFAULT, a quoted text, a quoted name, a number (its forms), a bare word
_WRITTEN: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(pattern, re.ASCII))
    for kind, pattern in (
        ("default", r"(?i:DEFAULT)"),
        ("string", r"'.*'|\".*\""),
        ("name", r"`.*`"),
        ("integer", r"[0-9]+"),
        ("hex", r"0x[0-9a-fA-F]+"),
        ("decimal", r"[0-9]*\.[0-9]*"),
        ("float", r"[0-9]*\.?[0-9]*[eE][-+]?[0-9]+"),
        ("word", r"[A-Za-z0-9_$]*[A-Za-z_$][A-Za-z0-9_$]*"),
    )
)
#: the kinds of value each of the server's own options takes, as both servers' grammar reads
#: them (``ulong_num``: any number; ``ulonglong_num``: no hex; the switches and counts also
#: DEFAULT); another kind is a syntax error (1064), in any session
_ULONG = frozenset({"integer", "hex", "decimal", "float"})
_SWITCH = _ULONG | {"default"}
_GRAMMAR: dict[str, frozenset[str]] = {
    **dict.fromkeys(
        ("AVG_ROW_LENGTH", "CHECKSUM", "TABLE_CHECKSUM", "DELAY_KEY_WRITE", "KEY_BLOCK_SIZE"),
        _ULONG,
    ),
    **dict.fromkeys(("MAX_ROWS", "MIN_ROWS"), _ULONG - {"hex"}),
    **dict.fromkeys(
        ("PACK_KEYS", "STATS_AUTO_RECALC", "STATS_PERSISTENT", "PAGE_CHECKSUM", "TRANSACTIONAL"),
        _SWITCH,
    ),
    "STATS_SAMPLE_PAGES": _SWITCH,
    "INSERT_METHOD": frozenset({"word"}),
}
#: the options whose number is a switch, 0 or 1 (another a syntax error)
_ZERO_OR_ONE = frozenset({"PACK_KEYS", "STATS_AUTO_RECALC", "STATS_PERSISTENT"})
#: the words of INSERT_METHOD (a MERGE table's)
_INSERT_METHODS = frozenset({"NO", "FIRST", "LAST"})
#: the kinds of value an option an engine defines takes (MariaDB's ``IDENT = TEXT | ident |
#: number | DEFAULT``: a name not reserved, no decimal point, no exponent)
_ENGINE_DEFINED = frozenset({"default", "string", "name", "integer", "hex", "word"})


def written_kind(text: str) -> str | None:
    """The kind of a table option's value as written (:data:`_WRITTEN`): None for another
    shape (an expression, ``x'01'``, a negative number), which no option takes.

    >>> [written_kind(t) for t in ("DEFAULT", "'1'", "`on`", "8", "0x1", "1.5", "1e3", "ON", "1+2")]
    ['default', 'string', 'name', 'integer', 'hex', 'decimal', 'float', 'word', None]
    """
    for kind, pattern in _WRITTEN:
        if pattern.fullmatch(text):
            return kind
    return None


def check_written(name: str, text: str) -> None:
    """DDLParseError for a table option's value the servers' grammar does not take where it is
    written (``MAX_ROWS='1'``, ``PACK_KEYS=2``, ``AVG_ROW_LENGTH=DEFAULT``,
    ``PAGE_COMPRESSED=ON``: ON is a reserved word): a syntax error on the server (1064),
    whatever the session, ``IGNORE_BAD_TABLE_OPTIONS`` too."""
    takes = _GRAMMAR.get(name) or (None if name in SERVER_OPTIONS else _ENGINE_DEFINED)
    if takes is None:
        return  # (the server's options of a grammar of their own: SEQUENCE, UNION …)
    kind = written_kind(text)
    fits = kind in takes and not (kind == "word" and is_reserved(text))
    if fits and name in _ZERO_OR_ONE and kind != "default":
        fits = leading_number(text) in (0, 1)
    if fits and name == "INSERT_METHOD":
        fits = text.upper() in _INSERT_METHODS
    if not fits:
        raise DDLParseError(f"{text} is not a value the table option {name} takes")


def leading_number(text: str) -> int:
    """A number as the server's ``ulong_num`` takes it: a hex's value, else its leading digits
    (``1.5`` and ``1e3`` are 1, as the server converts them)."""
    if text[:2] == "0x":
        return int(text, 16)
    digits = text[: len(text) - len(text.lstrip("0123456789"))]
    return int(digits or "0")


#: the server's own options the catalog keeps in fields of their own, not judged here
_FIELDS = frozenset(
    {"AUTO_INCREMENT", "CHARSET", "COLLATE", "COMMENT", "ENGINE", "ROW_FORMAT", "SYSTEM VERSIONING"}
)

#: the values the server's own options take, where it refuses others in any session (a syntax
#: error there)
_SERVER_VALUES: dict[str, Callable[[str], bool]] = {"STATS_SAMPLE_PAGES": _in_range(1, 65535)}

#: the options each engine defines, each with the test of the values it takes; an engine not
#: here (CONNECT, SPIDER …) may define any
ENGINE_OPTIONS: dict[str | None, Mapping[str, Callable[[str], bool]]] = {
    "InnoDB": {
        "PAGE_COMPRESSED": lambda text: _flag(text) is not None,
        "PAGE_COMPRESSION_LEVEL": _in_range(1, 9),
        "ENCRYPTED": lambda text: _bare(text).upper() in ("YES", "NO", "DEFAULT"),
        "ENCRYPTION_KEY_ID": _in_range(1, 2**32 - 1),
    },
    **{engine: {} for engine in ("MyISAM", "Aria", "MEMORY", "CSV")},
}
ENGINE_OPTIONS[None] = ENGINE_OPTIONS["InnoDB"]  # (the server's default engine)
#: the server's own options an engine refuses as unknown (1911): TRANSACTIONAL is InnoDB's and
#: Aria's only
REFUSED_OPTIONS: dict[str | None, frozenset[str]] = {
    engine: frozenset({"TRANSACTIONAL"}) for engine in ("MyISAM", "MEMORY", "CSV")
}


def check_named(
    options: TableOptions, named: Iterable[tuple[str, Any]], *, ignore_bad: bool
) -> None:
    """DDLError for an option a statement named (``named``: its (NAME, value) pairs as
    written, a value None for ``DEFAULT``) that the engine of the table it leaves
    (``options``) does not know, or a value its option does not take; ``ignore_bad``: the
    session's ``IGNORE_BAD_TABLE_OPTIONS`` (a CREATE's), under which both pass."""
    named = [(name, value) for name, value in named if name not in _FIELDS]
    for name, value in named:
        takes = _SERVER_VALUES.get(name)
        if takes is not None and value is not None and not takes(value):
            raise DDLError(f"incorrect value {value} for option {name!r}")
    defined = ENGINE_OPTIONS.get(options.engine)
    if defined is None or ignore_bad:
        return
    refused = REFUSED_OPTIONS.get(options.engine, frozenset())
    for name, value in named:
        if name in SERVER_OPTIONS and name not in refused:
            continue
        takes = defined.get(name)
        if takes is None:
            engine = options.engine or "InnoDB"
            raise DDLError(f"unknown option {name!r} (not one the {engine} engine defines)")
        if value is not None and not takes(value):
            raise DDLError(f"incorrect value {value} for option {name!r}")


#: the largest number a four-byte field of the table's definition holds
_UINT32 = 2**32
#: what MariaDB keeps of each of its own options' number (the table's definition holds each in
#: a field of its own width, some as a flag), as its SHOW CREATE TABLE shows it: the number
#: kept, None for none (the option is unset: ``CHECKSUM=0``, ``MAX_ROWS=0``)
_KEPT: dict[str, Callable[[int], int | None]] = {
    "AVG_ROW_LENGTH": lambda n: n % _UINT32 or None,
    "MAX_ROWS": lambda n: min(n, _UINT32 - 1) or None,
    "MIN_ROWS": lambda n: min(n, _UINT32 - 1) or None,
    "KEY_BLOCK_SIZE": lambda n: n % 65536 or None,
    "CHECKSUM": lambda n: 1 if n else None,
    "DELAY_KEY_WRITE": lambda n: 1 if n else None,
    "PAGE_CHECKSUM": lambda n: 1 if n else 0,
    "TRANSACTIONAL": lambda n: 1 if n else 0,
    **dict.fromkeys(("PACK_KEYS", "STATS_AUTO_RECALC", "STATS_PERSISTENT"), lambda n: n),
    "STATS_SAMPLE_PAGES": lambda n: n,
}
#: the server's other names of its options, each by the one it keeps
_ALIASES = {"TABLE_CHECKSUM": "CHECKSUM"}


def kept(name: str, value: str, *, whole: bool = False) -> tuple[str, str | None]:
    """A table option as MariaDB keeps it (and shows it), from its NAME and value as written:
    the server's own numbers as their fields hold them (:data:`_KEPT`: ``MAX_ROWS=1.5`` is 1,
    ``AVG_ROW_LENGTH=0x10`` 16, ``CHECKSUM=5`` 1, ``CHECKSUM=0`` none, ``TABLE_CHECKSUM`` is
    ``CHECKSUM``), an engine's option as the text of its value (``PAGE_COMPRESSED=0x1`` is
    ``'1'``, ``=yes`` ``'yes'``); a value None for none. ``whole``: an ALTER's KEY_BLOCK_SIZE,
    which InnoDB judges whole before it is kept (:func:`engine_kept`). A form no option takes
    stays as written, for the judgments.

    >>> kept("MAX_ROWS", "1.5"), kept("TABLE_CHECKSUM", "0x10"), kept("PAGE_COMPRESSED", "0x1")
    (('MAX_ROWS', '1'), ('CHECKSUM', '1'), ('PAGE_COMPRESSED', "'1'"))
    """
    name = _ALIASES.get(name, name)
    keep = _KEPT.get(name)
    if keep is not None:
        number = _number(value)
        if number is None:
            return name, value
        if whole and name == "KEY_BLOCK_SIZE":
            return name, str(number) if number else None
        number = keep(number)
        return name, None if number is None else str(number)
    if name == "INSERT_METHOD":
        return name, value.upper()
    if name in SERVER_OPTIONS:
        return name, value
    kind = written_kind(value)
    if kind in ("integer", "hex"):
        return name, _text(str(_number(value)))
    if kind == "word":
        return name, _text(value)
    if kind == "name":
        return name, _text(value[1:-1].replace("``", "`"))
    return name, value  # (a text, as written; a form the grammar refuses, for its judgment)


#: the server's options its grammar keeps as flags, OR'ed: in one statement, a value that
#: sets one stands whatever follows it (``CHECKSUM=1 CHECKSUM=0`` is ``CHECKSUM=1``)
_FLAGS = frozenset({"CHECKSUM", "DELAY_KEY_WRITE"})


def flags_ored(pairs: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    """One statement's options as the server keeps them (:func:`kept`'s pairs), a flag of
    :data:`_FLAGS` set once in it set whatever follows."""
    set_ = {name for name, value in pairs if name in _FLAGS and value is not None}
    return [(n, v) for n, v in pairs if v is not None or n not in set_] if set_ else pairs


#: the row formats an engine keeps under another name (Aria's own: FIXED, DYNAMIC, PAGE; the
#: others' names it takes as PAGE, its default)
_ROW_FORMATS_KEPT: dict[str | None, dict[str, str]] = {
    "Aria": dict.fromkeys(("COMPACT", "REDUNDANT", "COMPRESSED"), "PAGE"),
}


#: the options only some engines keep, each with those engines and its value that is none: a
#: MERGE table's INSERT_METHOD (in the MERGE table's own file: a table of another engine keeps
#: none, whatever it was before; NO is none)
_KEPT_BY: dict[str, tuple[frozenset[str | None], str]] = {
    "INSERT_METHOD": (frozenset({"MRG_MyISAM"}), "NO"),
}


def engine_kept(options: TableOptions, *, was: TableOptions | None, strict: bool) -> TableOptions:
    """A table's options after a statement, as its engine keeps them: a row format Aria does
    not have as its PAGE (:data:`_ROW_FORMATS_KEPT`), an option only some engines keep where
    they do (:data:`_KEPT_BY`), and an ALTER's KEY_BLOCK_SIZE of 65536 and up (which
    :func:`kept` left whole) in its two bytes (65544 is 8), once InnoDB judged it whole where
    it alters a table of its own in place (``was``: the table's options before an ALTER, None
    for a CREATE; ``strict``: mvdd's own rules, under which InnoDB refuses it, the server's
    1478; a table another engine held is made anew, from the two bytes)."""
    row_format = _ROW_FORMATS_KEPT.get(options.engine, {}).get(options.row_format or "")
    if row_format is not None:
        options = attrs.evolve(options, row_format=row_format)
    extra = dict(options.extra)
    gone = [
        (n, None)
        for n, (kept_by, none) in _KEPT_BY.items()
        if n in extra and (options.engine not in kept_by or extra[n] == none)
    ]
    if gone:
        options = options.with_options(gone)
    value = extra.get("KEY_BLOCK_SIZE")
    if value is None or (_number(value) or 0) < 65536:
        return options
    if strict and was is not None and innodb_options(was) is not None:
        check_innodb(options)
    return options.with_options([kept("KEY_BLOCK_SIZE", value)])


def _text(value: str) -> str:
    return exp.Literal.string(value).sql(dialect=DIALECT)


def created_block_size(value: str) -> str | None:
    """A CREATE TABLE's ``KEY_BLOCK_SIZE`` as the server keeps it, in two bytes: ``65544`` is
    8, ``65536`` none (None). (An ALTER refuses such a value: InnoDB judges it whole there.)

    >>> created_block_size("65544"), created_block_size("65536"), created_block_size("8")
    ('8', None, '8')
    """
    number = _number(value)
    return value if number is None or number < 65536 else kept("KEY_BLOCK_SIZE", value)[1]


class InnoDBOptions(NamedTuple):
    """The create options InnoDB judges together, as a table's options hold them
    (:func:`innodb_options`)."""

    row_format: str | None
    key_block_size: int  # (0: none)
    page_compressed: bool
    level: str | None
    encrypted: bool


def innodb_options(options: TableOptions) -> InnoDBOptions | None:
    """A table's create options as InnoDB reads them, where InnoDB holds the table (named, or
    the server's default); None for another engine."""
    if options.engine not in (None, "InnoDB"):
        return None
    extra = dict(options.extra)
    return InnoDBOptions(
        options.row_format,
        _number(extra.get("KEY_BLOCK_SIZE", "0")) or 0,
        _flag(extra.get("PAGE_COMPRESSED", "0")) is True,
        extra.get("PAGE_COMPRESSION_LEVEL"),
        _bare(extra.get("ENCRYPTED", "")).upper() == "YES",
    )


#: InnoDB's create options refused together: (the test, what the server refuses)
_INNODB: tuple[tuple[Callable[[InnoDBOptions], bool], str], ...] = (
    (lambda o: o.row_format in ("FIXED", "PAGE"), "InnoDB has no ROW_FORMAT={row_format}"),
    (
        lambda o: o.key_block_size not in (0, 1, 2, 4, 8, 16),
        "KEY_BLOCK_SIZE={key_block_size}: InnoDB's are 1, 2, 4, 8 and 16",
    ),
    (
        lambda o: o.key_block_size != 0 and o.row_format not in (None, "COMPRESSED"),
        "KEY_BLOCK_SIZE takes no ROW_FORMAT but COMPRESSED (its pages compressed; the table's "
        "is {row_format})",
    ),
    (
        lambda o: o.key_block_size != 0 and o.page_compressed,
        "PAGE_COMPRESSED and a KEY_BLOCK_SIZE: two compressions of one table",
    ),
    (
        lambda o: o.page_compressed and o.row_format in ("COMPRESSED", "REDUNDANT"),
        "PAGE_COMPRESSED with ROW_FORMAT={row_format}",
    ),
    (
        lambda o: o.level is not None and not o.page_compressed,
        "PAGE_COMPRESSION_LEVEL without PAGE_COMPRESSED",
    ),
    (
        lambda o: o.encrypted,
        "ENCRYPTED=YES needs an encryption plugin, which a default server does not load",
    ),
)


def check_innodb(options: TableOptions) -> None:
    """DDLError for create options InnoDB refuses together (:data:`_INNODB`), where the table's
    engine is InnoDB (named, or the server's default)."""
    found = innodb_options(options)
    if found is None:
        return
    for refused, why in _INNODB:
        if refused(found):
            raise DDLError(f"wrong create options: {why.format(**found._asdict())}")


__all__ = [
    "ENGINE_OPTIONS",
    "REFUSED_OPTIONS",
    "SERVER_OPTIONS",
    "InnoDBOptions",
    "check_innodb",
    "check_named",
    "check_written",
    "created_block_size",
    "engine_kept",
    "flags_ored",
    "innodb_options",
    "kept",
    "leading_number",
    "written_kind",
]
