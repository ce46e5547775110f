"""Column definitions: a sqlglot ``ColumnDef`` -> a :class:`~mvdd.model.Column`, its place
(``FIRST`` / ``AFTER``) and the indexes its attributes declare.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import attrs
from sqlglot import exp

from mvdd.ddl import dialect as d
from mvdd.ddl import step as s
from mvdd.ddl.dialect import DIALECT
from mvdd.ddl.expr import normalize
from mvdd.ddl.name import ident, is_default_word
from mvdd.ddl.reserved import is_reserved
from mvdd.ddl.types import Implied, TypeAttrs, column_type
from mvdd.errors import (
    DDLError,
    DDLParseError,
    InvalidValueError,
    MvddError,
    UnsupportedDDLError,
)
from mvdd.model import (
    NO_DEFAULT,
    Column,
    ColumnType,
    Default,
    Expr,
    Family,
    Generated,
    IndexKind,
    TypeKind,
)
from mvdd.model.element import (
    HexText,
    bit_bytes,
    build_column,
    coerce_default,
    hex_bytes,
    introduced,
    number_literal,
)
from mvdd.model.types import (
    CHARSET_DEFAULT,
    COMPRESSIBLE,
    charsetless,
    resolve_charset,
    same_collation,
)


def _literal(node: exp.Expr) -> Any:
    """A literal's Python value (text stays text: the column type decides), or raises KeyError."""
    node = _strip(node)
    if isinstance(node, exp.Null):
        return None
    if isinstance(node, exp.Boolean):
        # the numbers 1 and 0, as the servers read them (a string column takes '1', not a byte)
        return Decimal(1 if node.this else 0)
    if isinstance(node, exp.Introducer):
        return introduced(node.name, _literal(node.expression))
    if isinstance(node, exp.National):
        return node.this  # N'…', a string in the national charset
    if isinstance(node, exp.Literal):
        if node.is_string:
            return node.this
        try:
            return number_literal(node.this)
        except InvalidValueError as err:
            raise DDLParseError(err.message) from None
    if isinstance(node, exp.Neg):
        inner = _literal(node.this)
        if isinstance(inner, Decimal):
            return type(inner)(-inner)  # (a double stays one)
    if isinstance(node, exp.BitString):
        return bit_bytes(str(node.this or ""))
    if isinstance(node, exp.HexString):
        data = hex_bytes(node.this)
        return HexText(data) if isinstance(node, d.QuotedHex) else data
    raise KeyError(node)


def _strip(node: exp.Expr) -> exp.Expr:
    while isinstance(node, exp.Paren):
        node = node.this
    return node


def raw_default(node: exp.Expr) -> Default:
    """A default as stated: None, a literal's raw value (numbers as Decimal, hex and bits as
    bytes, text as str), or an Expr. The column's type coerces raw values (:func:`coerce_default`)
    when the default meets its column."""
    try:
        return _literal(node)
    except KeyError:
        return normalize(node)


def versioning_mark(node: exp.ColumnDef) -> str | None:
    """A column definition's ``WITH`` or ``WITHOUT SYSTEM VERSIONING`` (the last one said), else
    ``AS ROW`` for its ``AS ROW START | END``, or None."""
    mark = None
    for c in node.constraints:
        kind = c.kind
        if isinstance(kind, d.SystemVersioning):
            mark = kind.name
        elif isinstance(kind, exp.GeneratedAsRowColumnConstraint) and mark is None:
            mark = "AS ROW"
    return mark


_JSON_CHECK = "JSON_VALID(`{}`)"
#: the kinds whose column a CHECK (json_valid(col)) makes (or keeps) a JSON
_JSON_KINDS = frozenset({TypeKind.LONGTEXT, TypeKind.JSON})


#: the types MariaDB's grammar lets a COLLATE DEFAULT follow (the character strings, not the
#: national ones, whose charset is fixed)
_COLLATE_DEFAULT_TYPES = frozenset(
    {
        exp.DType.CHAR,
        exp.DType.VARCHAR,
        exp.DType.TINYTEXT,
        exp.DType.TEXT,
        exp.DType.MEDIUMTEXT,
        exp.DType.LONGTEXT,
        exp.DType.ENUM,
        exp.DType.SET,
    }
)


def _collate_default(node: exp.ColumnDef, at: int) -> str | None:
    """:data:`~mvdd.model.types.CHARSET_DEFAULT` when the column's COLLATE at ``at`` is MariaDB's
    ``COLLATE DEFAULT``; a syntax error where the server's grammar has no place for it (it
    follows a character string's type, or its CHARACTER SET, at once); None for a collation's
    name."""
    if not is_default_word(node.constraints[at].kind.this):
        return None
    kind = node.args["kind"]
    before = node.constraints[:at]
    if (
        kind.this not in _COLLATE_DEFAULT_TYPES
        or len(before) > 1
        or not all(isinstance(c.kind, exp.CharacterSetColumnConstraint) for c in before)
    ):
        raise DDLParseError(
            "COLLATE DEFAULT follows a character string's type or its CHARACTER SET at once"
        )
    return CHARSET_DEFAULT


def _word(node: exp.Expr, what: str) -> str:
    """A charset or collation name as written (a bare reserved word is a syntax error)."""
    bare = isinstance(node, exp.Var | exp.Identifier | exp.Column) and not node.args.get("quoted")
    if bare and is_reserved(node.name) and node.name.upper() != "BINARY":  # the binary charset
        raise DDLParseError(f"{node.name!r} is a reserved word, not a {what}")
    return node.name


#: the runs of words a number type may take after its name, as MariaDB's grammar has them
#: (sqlglot reads an UNSIGNED right after the name into the type itself); each comes before
#: any attribute (:data:`_TYPE_TAIL`)
_SIGN_WORDS = frozenset(
    {
        ("SIGNED",),
        ("UNSIGNED",),
        ("ZEROFILL",),
        ("UNSIGNED", "ZEROFILL"),
        ("ZEROFILL", "UNSIGNED"),
    }
)


def _unsigned(kind: exp.DataType) -> bool:
    """Whether sqlglot read an UNSIGNED right after the type's name (``INT UNSIGNED`` is its
    UINT)."""
    return kind.this in _UNSIGNED_TYPES or isinstance(kind, d.UnsignedFloat)


_UNSIGNED_TYPES = frozenset(
    {
        exp.DType.UTINYINT,
        exp.DType.USMALLINT,
        exp.DType.UMEDIUMINT,
        exp.DType.UINT,
        exp.DType.UBIGINT,
        exp.DType.UDECIMAL,
        exp.DType.UDOUBLE,
    }
)
#: what MariaDB's grammar takes before a generated column's AS (…) only
_NOT_AFTER_AS = (
    exp.NotNullColumnConstraint,
    exp.PrimaryKeyColumnConstraint,
    exp.CollateColumnConstraint,
)
#: what a column definition states of its type after the type's name
_TYPE_TAIL = (
    exp.CharacterSetColumnConstraint,
    exp.BinaryColumnConstraint,
    exp.ZeroFillColumnConstraint,
    d.Signedness,
)
#: what may stand between a generated column's type and its AS (…)
_BEFORE_AS = (*_TYPE_TAIL, exp.CollateColumnConstraint, d.Compressed)


def _after_as_in_mariadbs_grammar(after: list[Any], column: str) -> None:
    """DDLParseError for a generated column's attribute after its AS (…) that MariaDB's
    grammar has not there: NULL, NOT NULL, PRIMARY KEY and COLLATE (before AS only), anything
    after its CHECK (the last)."""
    if any(isinstance(k, _NOT_AFTER_AS) for k in after):
        raise DDLParseError("NULL, NOT NULL, PRIMARY KEY or COLLATE after AS (…)", column=column)
    checks = [i for i, k in enumerate(after) if isinstance(k, d.MySQLCheck)]
    if checks and checks[0] < len(after) - 1:
        raise DDLParseError("a generated column's attribute after its CHECK", column=column)


def column_from_def(
    node: exp.ColumnDef,
    *,
    references: bool = False,
    mariadb: bool = False,
    named: bool = False,
    loose: bool = False,
    alike: bool = False,
    legacy_timestamps: bool = False,
    any_day: bool = False,
    round_fractions: bool = False,
    converting: tuple[str, str | None] | None = None,
    written_in: str | None = None,
    shown: bool = False,
    grammar: str | None = None,
) -> tuple[Column, s.Place, list[s.IndexSpec], Implied]:
    """A column (id 0) from a column definition, its FIRST/AFTER place, the indexes its
    attributes declare (``PRIMARY KEY``, ``UNIQUE``), and what its type leaves to its table's
    charset (:class:`~mvdd.ddl.types.Implied`: the ``_bin`` collation of the BINARY attribute
    without a CHARACTER SET, the TEXT kind of a ``TEXT(M)``; the step that adds or redefines
    it resolves them). ``references``: a ``REFERENCES …`` of
    its own is passed over (a replica's; the caller keeps what its server makes of it), not
    refused. ``mariadb``: the DEFAULT's value is read as MariaDB reads it
    (:attr:`~mvdd.ddl.rules.Rules.mariadb_values`). ``named``: its CHECK may be named
    (``CONSTRAINT c CHECK (…)``, MySQL 8's grammar, which a replica of MySQL or of an unknown
    server takes); else a CONSTRAINT inside a column definition is a syntax error, as on
    MariaDB. ``grammar``: the server whose grammar the definition is read in, when known
    (its flavor): MariaDB's has no NULL, NOT NULL, PRIMARY KEY or COLLATE after a generated
    column's AS (…), nor an attribute after its CHECK. ``loose``: its session was not strict
    (:func:`~mvdd.ddl.types.loosened`);
    ``alike``: an ENUM's or a SET's members may be one
    (:attr:`~mvdd.ddl.rules.Session.members_alike`);
    ``legacy_timestamps``: its session had no ``explicit_defaults_for_timestamp``
    (:func:`_legacy_timestamp`). A replica's (``references``) DEFAULT is read as its server
    took it (:func:`~mvdd.model.element.coerce_default`'s ``replica``; ``any_day``: its
    session had ALLOW_INVALID_DATES; ``round_fractions``: TIME_ROUND_FRACTIONAL).
    ``converting``: the (charset, collation) a CONVERT TO
    CHARACTER SET of the same statement gives a CHAR, VARCHAR or TEXT, in which its DEFAULT is
    judged, as the server judges it. ``shown``: the definition is a server's own account
    (:attr:`~mvdd.ddl.rules.Session.shown`), which states every default the column has."""
    name = ident(node.this, "column")
    kind = node.args.get("kind")
    if not isinstance(kind, exp.DataType):
        raise DDLParseError("column definition without a type", column=name)
    flags: dict[str, Any] = {}
    type_attrs: dict[str, Any] = {}
    indexes: list[s.IndexSpec] = []
    keys: set[IndexKind] = set()  # (the key words of the column's own: PRIMARY KEY, UNIQUE)
    default: Default = NO_DEFAULT
    said: tuple[exp.Expr, Default] | None = None  # (the DEFAULT's node and its raw value)
    in_type = True  # the type's own words (_TYPE_TAIL) come before any attribute
    signs: list[str] | None = None  # its SIGNED, UNSIGNED and ZEROFILL, when it has any
    compressed = False
    for at, constraint in enumerate(node.constraints):
        ck = constraint.kind
        if constraint.this is not None and not (named and isinstance(ck, d.MySQLCheck)):
            raise DDLParseError(
                "a CONSTRAINT name inside a column definition, or the word alone (name a check "
                "after the columns: CONSTRAINT c CHECK (…))",
                column=name,
            )
        if isinstance(ck, d.Compressed):
            # MariaDB's COMPRESSED: anywhere among the type's words and the attributes, once,
            # before a generated column's AS (…) (after it, a syntax error); zlib its method
            if compressed or "generated" in flags:
                raise DDLParseError("COMPRESSED twice, or after AS (…)", column=name)
            if ck.this is not None and ck.name != "zlib":
                raise DDLError(f"unknown compression method {ck.name!r} (MariaDB's: zlib)")
            compressed = True
            continue
        if isinstance(ck, _TYPE_TAIL):
            if not in_type:
                raise DDLParseError(
                    f"{constraint.sql(dialect=DIALECT)!r} goes with the type, before the "
                    "column's attributes",
                    column=name,
                )
        else:
            in_type = False
        if isinstance(ck, d.SystemVersioning):
            # WITHOUT: a change to only such columns keeps no history row (the step's table
            # decides whether the mark stays: apply's); WITH: the table is versioned, which
            # its statement reads (:func:`versioning_mark`)
            flags["unversioned"] = ck.name == "WITHOUT"
            continue
        if isinstance(ck, exp.NotNullColumnConstraint):
            flags["nullable"] = bool(ck.args.get("allow_null"))
        elif isinstance(ck, d.SerialDefault):  # (NOT NULL AUTO_INCREMENT UNIQUE)
            flags["nullable"] = False
            flags["auto_increment"] = True
            keys.add(IndexKind.UNIQUE)
        elif isinstance(ck, exp.DefaultColumnConstraint):
            default = raw_default(ck.this)
            said = (ck.this, default)  # (a literal's text keys its coerced value: _coerced)
        elif isinstance(ck, exp.AutoIncrementColumnConstraint):
            flags["auto_increment"] = True
        elif isinstance(ck, exp.CommentColumnConstraint):
            flags["comment"] = ck.this.this if isinstance(ck.this, exp.Literal) else ck.this.name
        elif isinstance(ck, exp.CharacterSetColumnConstraint):
            if "charset" in type_attrs:
                raise DDLParseError("a second CHARACTER SET in one column definition")
            type_attrs["charset"] = _word(ck.this, "character set")
        elif isinstance(ck, exp.CollateColumnConstraint):
            default_one = _collate_default(node, at)
            collation = default_one or _word(ck.this, "collation")
            if default_one is None and collation.upper() == CHARSET_DEFAULT:
                # (a quoted `DEFAULT` names a collation, which no server has: its 1273)
                raise DDLError(f"unknown collation {collation!r}", column=name)
            stated = type_attrs.get("collation")
            if stated is not None and not same_collation(stated, collation):
                raise DDLError(
                    f"conflicting declarations: COLLATE {stated} and COLLATE {collation}",
                    column=name,
                )
            if stated is None or charsetless(stated):  # (the one naming its charset kept)
                type_attrs["collation"] = collation
        elif isinstance(ck, exp.PrimaryKey):
            # `a INT KEY k (a)`: a key with a column list of its own, a comma short
            raise DDLParseError("a key with a column list inside a column definition")
        elif isinstance(ck, exp.ZeroFillColumnConstraint | d.Signedness):
            if signs is None:
                signs = ["UNSIGNED"] if _unsigned(kind) else []
            word = "ZEROFILL" if isinstance(ck, exp.ZeroFillColumnConstraint) else ck.name
            signs.append(word)
            if tuple(signs) not in _SIGN_WORDS:
                raise DDLParseError(f"{' '.join(signs)}: not a number type's words", column=name)
            if word != "SIGNED":  # (the default)
                type_attrs[word.lower()] = True
        elif isinstance(ck, exp.BinaryColumnConstraint):
            type_attrs["binary"] = True
        elif isinstance(ck, exp.ComputedColumnConstraint):
            if not all(isinstance(c.kind, _BEFORE_AS) for c in node.constraints[:at]):
                # both servers' grammar: AS (…) follows the type, its charset, collation and
                # COMPRESSED, never another attribute (`INT NOT NULL AS (…)`)
                raise DDLParseError("AS (…) after a column attribute", column=name)
            if grammar == "mariadb":
                _after_as_in_mariadbs_grammar([c.kind for c in node.constraints[at + 1 :]], name)
            flags["generated"] = Generated(
                normalize(ck.this), stored=bool(ck.args.get("persisted"))
            )
        elif isinstance(ck, exp.GeneratedAsRowColumnConstraint):
            # MariaDB's [GENERATED ALWAYS] AS ROW START | END: right after the type, as AS (…)
            if ck.args.get("hidden") or "row_period" in flags:
                raise DDLParseError("HIDDEN, or a second AS ROW START | END", column=name)
            if not all(isinstance(c.kind, _BEFORE_AS) for c in node.constraints[:at]):
                raise DDLParseError("AS ROW START | END after a column attribute", column=name)
            flags["row_period"] = "START" if ck.args.get("start") else "END"
            flags["nullable"] = False
        elif isinstance(ck, d.Persistent):
            if "generated" not in flags:
                raise DDLError("PERSISTENT without a generated column's AS (...)", column=name)
            flags["generated"] = Generated(flags["generated"].expr, stored=True)
        elif isinstance(ck, exp.InvisibleColumnConstraint):
            flags["invisible"] = True
        elif isinstance(ck, exp.OnUpdateColumnConstraint):
            flags["on_update"] = normalize(ck.this)
        elif isinstance(ck, exp.PrimaryKeyColumnConstraint):
            keys.add(IndexKind.PRIMARY)
        elif isinstance(ck, exp.UniqueColumnConstraint) and ck.this is not None:
            # `b TEXT UNIQUE KEY (a)`: a key with a column list of its own, a comma short
            raise DDLParseError("a key with a column list inside a column definition")
        elif isinstance(ck, exp.UniqueColumnConstraint):
            keys.add(IndexKind.UNIQUE)
        elif isinstance(ck, exp.Reference) and references:
            continue
        elif isinstance(ck, d.MySQLCheck):
            if "check" in flags:
                raise UnsupportedDDLError("more than one CHECK on one column", column=name)
            flags["check"] = normalize(ck.this)
        else:
            raise UnsupportedDDLError(
                f"unsupported column attribute {constraint.sql(dialect=DIALECT)!r}", column=name
            )
    if "generated" in flags or "row_period" in flags:
        given = [
            word
            for word, present in (
                ("DEFAULT", default is not NO_DEFAULT),
                ("AUTO_INCREMENT", "auto_increment" in flags),
                ("ON UPDATE", "on_update" in flags),
                ("NULL", flags.get("nullable") and "row_period" in flags),
                ("SYSTEM VERSIONING", "unversioned" in flags and "row_period" in flags),
                ("AS (…)", "generated" in flags and "row_period" in flags),
            )
            if present
        ]
        if given:
            # neither server's grammar has these beside AS (...) or AS ROW START | END: a
            # syntax error on both
            raise DDLParseError(f"a generated column takes no {given[0]}", column=name)
    if type_attrs.get("collation") == CHARSET_DEFAULT:
        # (COLLATE DEFAULT: the default collation of the column's charset, else its table's)
        del type_attrs["collation"]
        if "charset" in type_attrs:
            type_attrs["collation"] = resolve_charset(str(type_attrs["charset"]), None)[1]
        else:
            type_attrs["table_collation"] = CHARSET_DEFAULT
    if charsetless(type_attrs.get("collation")):
        # (a collation named without its charset: the column's, else its table's)
        bare = str(type_attrs.pop("collation")).lower()
        if "charset" in type_attrs:
            type_attrs["collation"] = resolve_charset(str(type_attrs["charset"]), bare)[1]
        else:
            type_attrs["table_collation"] = bare
    try:
        ctype, implied = column_type(
            kind,
            TypeAttrs(**type_attrs) if type_attrs else _NO_ATTRS,
            loose=loose,
            alike=alike,
        )
    except MvddError as err:
        raise err.locate(column=name) from None
    if implied.unique:
        flags.setdefault("nullable", False)
        flags["auto_increment"] = True
        keys.add(IndexKind.UNIQUE)
    # a column's own key words are a set, the primary key's over the unique key's, as both
    # servers read them (`PRIMARY KEY UNIQUE` is the primary key alone, `UNIQUE UNIQUE` one key,
    # `SERIAL PRIMARY KEY` no unique key beside the primary one)
    if IndexKind.PRIMARY in keys:
        indexes.append(
            s.IndexSpec(name="PRIMARY", kind=IndexKind.PRIMARY, parts=(s.PartSpec(name),))
        )
    elif IndexKind.UNIQUE in keys:
        indexes.append(s.IndexSpec(kind=IndexKind.UNIQUE, parts=(s.PartSpec(name),)))
    own_check = (
        ctype.kind in _JSON_KINDS
        and "check" in flags
        and flags["check"] == Expr(_JSON_CHECK.format(name.replace("`", "``")))
    )
    if ctype.kind == TypeKind.LONGTEXT and own_check:
        # MariaDB spells JSON as LONGTEXT utf8mb4_bin CHECK (json_valid(col))
        ctype = ColumnType.of(TypeKind.JSON)
        del flags["check"]
    elif ctype.kind == TypeKind.JSON and flags.get("check") is not None and mariadb:
        # MariaDB's JSON is that LONGTEXT with that check, unless the column states a check of
        # its own: json_valid(col) is the same JSON, another check makes it a plain LONGTEXT
        if own_check:
            del flags["check"]
        else:
            ctype = ColumnType.of(TypeKind.LONGTEXT).with_charset("utf8mb4", "utf8mb4_bin")
    if compressed:
        if ctype.kind not in COMPRESSIBLE:  # (a syntax error: the grammar has no place for it)
            raise DDLParseError(f"{ctype.kind} takes no COMPRESSED", column=name)
        try:
            ctype = ctype.compressing()
        except MvddError as err:
            raise err.locate(column=name) from None
        if (
            not shown
            and flags.get("nullable") is False
            and default is NO_DEFAULT
            and "generated" not in flags
        ):
            # MariaDB gives a NOT NULL compressed column without a DEFAULT the empty string
            # for one (SHOW CREATE TABLE says DEFAULT ''; a later DROP DEFAULT takes it away)
            default = ""
    if IndexKind.PRIMARY in keys:  # (its PRIMARY KEY, made above)
        if flags.get("nullable") is True:
            raise DDLError("a PRIMARY KEY column cannot be NULL", column=name)
        flags["nullable"] = False
    if flags.get("auto_increment"):
        # the server makes a counter NOT NULL, whatever the definition says (NULL, DEFAULT NULL)
        flags["nullable"] = False
        if default is None:
            default = NO_DEFAULT
    if legacy_timestamps and ctype.kind == TypeKind.TIMESTAMP and "row_period" not in flags:
        # (a period's ROW START / END is the server's to fill, in any session)
        default, implied = _legacy_timestamp(flags, default, ctype, implied)
    if not (isinstance(default, str) and ctype.family == Family.ENUM and ctype.charset is None):
        # (an ENUM's or a SET's text meets its members once its charset is known: its step's)
        judged = ctype
        if converting is not None and ctype.family in CONVERTED:
            judged = ctype.with_charset(*converting, checked=not alike)
        how = (mariadb, references, any_day, round_fractions, written_in)
        node_said = said[0] if said is not None and said[1] is default else None
        default = _coerced(default, node_said, judged, name, how)
    column = build_column(name=name, type=ctype, default=default, **flags)
    return column, place(node.args.get("position")), indexes, implied


_NO_ATTRS = TypeAttrs()


def _coerced(
    default: Default,
    said: exp.Expr | None,
    ctype: ColumnType,
    column: str,
    how: tuple[bool, bool, bool, bool, str | None],
) -> Default:
    """:func:`~mvdd.model.element.coerce_default` of a column's DEFAULT, read as ``how`` says
    (mariadb, replica, any_day, round_fractions, written_in). ``said``: the plain literal the
    value was read from as it stands, if it was one.

    Defaults repeat endlessly in a DDL stream (``DEFAULT 0``, ``DEFAULT ''``, ``DEFAULT 1``)
    and their reading is pure, so a plain literal's is read once and remembered by what it is
    made of: its text, whether it is a string, the column's type (whose hash is kept) with its
    display width, which its equality leaves out and a YEAR(2) reads (``DEFAULT 0`` is 2000
    there, 0 in a YEAR), and the reading; by its text, not its value, as ``1.0`` and ``1`` are
    one number but two texts. A value the type refuses is not remembered (it raises every time,
    naming its column). The values kept are immutable (numbers, text, bytes)."""
    mariadb, replica, any_day, round_fractions, written_in = how
    key = (
        (said.this, said.args.get("is_string"), type(default), ctype, ctype.width, how)
        if type(said) is exp.Literal
        else None
    )
    found = _DEFAULTS.get(key, _NOT_KEPT) if key is not None else _NOT_KEPT
    if found is not _NOT_KEPT:
        return found  # type: ignore[return-value]
    held = coerce_default(
        default,
        ctype,
        column,
        mariadb=mariadb,
        replica=replica,
        any_day=any_day,
        round_fractions=round_fractions,
        written_in=written_in,
    )
    if key is not None:
        if len(_DEFAULTS) >= _DEFAULTS_KEPT:
            _DEFAULTS.clear()
        _DEFAULTS[key] = held
    return held


#: (literal text, a string?, raw type, column type, its width, reading) -> the coerced default;
#: cleared whole when full, as :func:`~mvdd.ddl.types.column_type`'s types are
_DEFAULTS: dict[tuple[Any, ...], Default] = {}
_DEFAULTS_KEPT = 4096
_NOT_KEPT = object()


#: the families a CONVERT TO CHARACTER SET converts in a column its statement defines (an
#: ADD, a MODIFY, a CHANGE): their text, and their DEFAULT judged in it
CONVERTED = frozenset({Family.CHAR, Family.TEXT, Family.ENUM})


def _legacy_timestamp(
    flags: dict[str, Any], default: Default, ctype: ColumnType, implied: Implied
) -> tuple[Default, Implied]:
    """A TIMESTAMP as a session without ``explicit_defaults_for_timestamp`` defines it (MySQL
    5.7's and MariaDB's before 10.10 default): NOT NULL unless it says NULL; without a DEFAULT
    (or with DEFAULT NULL), the zero timestamp, and CURRENT_TIMESTAMP for its DEFAULT and ON
    UPDATE when it has no ON UPDATE and ends as its table's first TIMESTAMP column
    (``implied.auto_timestamp``, which the statement's steps settle once they are done:
    :func:`mvdd.ddl.apply.auto_timestamps`). Flags are changed in place."""
    if flags.get("nullable") is True:
        return default, implied
    flags["nullable"] = False
    if default is not NO_DEFAULT and default is not None:
        return default, implied
    zero = "0000-00-00 00:00:00" + ("." + "0" * ctype.fsp if ctype.fsp else "")
    if "on_update" in flags:
        return zero, implied
    return zero, attrs.evolve(implied, auto_timestamp=True)


def place(node: exp.Expr | None) -> s.Place:
    if node is None:
        return s.LAST
    where = str(node.args.get("position") or "").upper()
    if where == "FIRST":
        if node.this is not None:  # `FIRST FIRST`: sqlglot reads a column after FIRST
            raise DDLParseError("FIRST takes no column")
        return s.FIRST
    if where == "AFTER":
        return s.Place(after=ident(node.this, "column"))
    raise DDLError(f"unknown column position {node.sql(dialect=DIALECT)!r}")


__all__ = ["column_from_def", "raw_default"]
