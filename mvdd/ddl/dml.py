"""The few statements a replication target runs besides DDL, built as sqlglot trees and rendered
with every identifier quoted (any table or column name is safe):

- :func:`insert_rows`: one multi-row ``INSERT`` with the values as literals;
- :func:`checksum_query`: ``COUNT(*)`` and the sum of ``CRC32`` of each row's values as text
  joined by ``|`` (``CONCAT_WS`` skips NULLs), to compare a table with a copy computed elsewhere;
- :func:`show_create` and :func:`drop_table`;
- :func:`defaults_query`: the DEFAULTs a table keeps, which its SHOW CREATE TABLE may hide;
- what a binlog reader asks its source: :func:`show_create_database`, :func:`lock_table` (a
  read of no rows that takes the table's metadata lock);
- what a replicator runs: statement templates with PyMySQL's ``%s`` parameters
  (:func:`insert_template`, :func:`update_template`, :func:`delete_template`,
  :func:`select_template`), any ``%`` of a name doubled so the driver's formatting leaves it be.

Table names may be ``database.table`` pairs: :func:`table_ref` takes the database apart.

>>> print(drop_table("t"))
DROP TABLE IF EXISTS `t`

>>> print(insert_rows("t`x", ["a", "b"], [(1, "it's"), (None, "b")]))
INSERT INTO `t``x` (`a`, `b`) VALUES (1, 'it''s'), (NULL, 'b')
>>> print(checksum_query("t", ["a", "b"]))
SELECT COUNT(*), COALESCE(SUM(CRC32(CONCAT_WS('|', `a`, `b`))), 0) FROM `t`
>>> print(insert_template("t", ["b%"], upsert=True))
INSERT INTO `t` (`b%%`) VALUES (%s) ON DUPLICATE KEY UPDATE `b%%` = VALUES(`b%%`)
>>> print(update_template(("db", "t"), ["a"], ["k1", "k2"]))
UPDATE `db`.`t` SET `a` = %s WHERE `k1` = %s AND `k2` = %s
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any

from sqlglot import exp

from mvdd.ddl.dialect import PARAM
from mvdd.ddl.render import _id, _table, literal_node, sql
from mvdd.ddl.types import data_type
from mvdd.model import Column, ColumnType

#: the year a ``YEAR()`` of the zero year gives (the stored byte 0, plus 1900)
_ZERO_YEAR = 1900


def table_ref(table: str | tuple[str, str]) -> exp.Table:
    """A table reference: a name, or a (database, table) pair."""
    if isinstance(table, tuple):
        database, name = table
        return exp.Table(this=_id(name), db=_id(database))
    return _table(table)


def show_create_database(database: str) -> str:
    """``SHOW CREATE DATABASE database``.

    >>> print(show_create_database("sh`op"))
    SHOW CREATE DATABASE `sh``op`
    """
    return sql(exp.Show(this="CREATE DATABASE", target=_id(database)))


def lock_table(table: str | tuple[str, str]) -> str:
    """``SELECT 1 FROM table LIMIT 0``: reads nothing, but inside a transaction holds the
    table's metadata lock until the transaction ends (no DDL on it can commit meanwhile).

    >>> print(lock_table(("shop", "t")))
    SELECT 1 FROM `shop`.`t` LIMIT 0
    """
    return sql(exp.select(exp.Literal.number(1)).from_(table_ref(table)).limit(0))


def insert_rows(table: str, columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """``INSERT INTO table (columns) VALUES (…), (…)``; values are canonical Python values
    (int, Decimal, float, str, bytes, date/time, None)."""
    values = exp.Values(
        expressions=[exp.Tuple(expressions=[literal_node(v) for v in row]) for row in rows]
    )
    target = exp.Schema(this=_table(table), expressions=[_id(c) for c in columns])
    return sql(exp.Insert(this=target, expression=values))


def checksum_query(table: str, columns: Sequence[str]) -> str:
    """Row count and checksum of ``columns`` over the whole table."""
    text = exp.Anonymous(
        this="CONCAT_WS",
        expressions=[exp.Literal.string("|"), *(exp.Column(this=_id(c)) for c in columns)],
    )
    crc = exp.Anonymous(this="CRC32", expressions=[text])
    total = exp.Coalesce(this=exp.Sum(this=crc), expressions=[exp.Literal.number(0)])
    return sql(exp.select(exp.Count(this=exp.Star()), total).from_(_table(table)))


def defaults_query(table: str | tuple[str, str], columns: Sequence[str]) -> str:
    """Each of ``columns``' DEFAULT as the table keeps it, in hex of its UTF-8, read with no
    row (a right join to one): the server's SHOW CREATE TABLE writes a character beyond the
    BMP of a DEFAULT as ``?``, ``DEFAULT(column)`` gives it back.

    >>> print(defaults_query(("d", "t"), ["v"]))  # doctest: +NORMALIZE_WHITESPACE
    SELECT HEX(CAST(DEFAULT(`v`) AS CHAR CHARACTER SET utf8mb4))
    FROM `d`.`t` RIGHT JOIN (SELECT 1) AS `one` ON FALSE
    """
    utf8 = exp.DataType(this=exp.DType.CHARACTER_SET, kind=exp.Var(this="utf8mb4"))
    values = [
        exp.Hex(
            this=exp.Cast(
                this=exp.Anonymous(this="DEFAULT", expressions=[exp.Column(this=_id(c))]), to=utf8
            )
        )
        for c in columns
    ]
    one = exp.select(exp.Literal.number(1)).subquery(_id("one"))
    query = exp.select(*values).from_(table_ref(table))
    return sql(query.join(one, on=exp.false(), join_type="RIGHT"))


# --- templates with parameters ----------------------------------------------------------------


def _template(node: exp.Expr) -> str:
    return sql(node).replace("%", "%%").replace(PARAM, "%s")


def _params(n: int) -> exp.Tuple:
    return exp.Tuple(expressions=[exp.Placeholder() for _ in range(n)])


def _matches(columns: Sequence[str]) -> exp.Expr:
    """``c1 = %s AND c2 = %s …``"""
    return exp.and_(
        *(exp.EQ(this=exp.Column(this=_id(c)), expression=exp.Placeholder()) for c in columns)
    )


def insert_template(
    table: str | tuple[str, str], columns: Sequence[str], *, upsert: bool = False
) -> str:
    """``INSERT INTO table (columns) VALUES (%s, …)`` (one row; PyMySQL's ``executemany``
    sends many rows as one statement); ``upsert``: ``ON DUPLICATE KEY UPDATE`` every column to
    the new row's value (a row already there is overwritten)."""
    target = exp.Schema(this=table_ref(table), expressions=[_id(c) for c in columns])
    node = exp.Insert(this=target, expression=exp.Values(expressions=[_params(len(columns))]))
    if upsert:
        node.set(
            "conflict",
            exp.OnConflict(
                duplicate=True,
                action=exp.var("UPDATE"),
                expressions=[
                    exp.EQ(
                        this=exp.Column(this=_id(c)),
                        expression=exp.Anonymous(
                            this="VALUES", expressions=[exp.Column(this=_id(c))]
                        ),
                    )
                    for c in columns
                ],
            ),
        )
    return _template(node)


def update_template(
    table: str | tuple[str, str], columns: Sequence[str], key: Sequence[str]
) -> str:
    """``UPDATE table SET c = %s, … WHERE k = %s AND …``"""
    node = exp.Update(
        this=table_ref(table),
        expressions=[
            exp.EQ(this=exp.Column(this=_id(c)), expression=exp.Placeholder()) for c in columns
        ],
        where=exp.Where(this=_matches(key)),
    )
    return _template(node)


def delete_template(table: str | tuple[str, str], key: Sequence[str]) -> str:
    """``DELETE FROM table WHERE k = %s AND …``"""
    return _template(exp.Delete(this=table_ref(table), where=exp.Where(this=_matches(key))))


def shows_less(column: Column) -> bool:
    """Whether a SELECT of the column shows less than it stores: a YEAR(2) (two digits)."""
    return column.type.two_digit


def read_node(column: str | Column) -> exp.Expr:
    """What a SELECT reads for a column (by name, or a Column: by its type): the column, whose
    value is what it stores; but a SELECT of a YEAR(2) shows its year's last two digits only,
    so ``YEAR()`` of it gives the year it stores (the zero year as 0, as a binary log holds it).

    >>> from mvdd.model import ColumnType
    >>> print(sql(read_node(Column(id=1, name="y", type=ColumnType.of("year", width=2)))))
    IF(YEAR(`y`) = 1900, 0, YEAR(`y`)) AS `y`
    """
    if isinstance(column, str):
        return exp.Column(this=_id(column))
    node = exp.Column(this=_id(column.name))
    if not shows_less(column):
        return node
    year = exp.Year(this=node)
    stored = exp.If(
        this=exp.EQ(this=year, expression=literal_node(_ZERO_YEAR)),
        true=literal_node(0),
        false=year.copy(),
    )
    return exp.alias_(stored, _id(column.name))


#: what :func:`read_source` reads a column as, by the name given in its ``casts``
READ_AS: dict[str, exp.DataType] = {
    "text": exp.DataType.build("CHAR"),
    "number": exp.DataType(this=exp.DataType.Type.UBIGINT),
}


def read_source(
    table: str,
    columns: Sequence[Column],
    *,
    casts: Mapping[str, str] = {},
    flag: tuple[str, Sequence[str]] | None = None,
) -> str:
    """What a reader of ``columns`` names as the table it reads (Spark's JDBC ``dbtable``): the
    table; or, when a column's SELECT shows less than it stores, or ``casts`` names a column
    (name -> ``"text"`` or ``"number"``), or ``flag`` is given, a query reading each column by
    :func:`read_node`, those of ``casts`` as :data:`READ_AS` says: as the text the server prints
    for them (``CAST(… AS CHAR)``), or as their number (``CAST(… AS UNSIGNED)``: a BIT's), where
    a driver would make another value of it (a date no Java date holds, a BIT's bytes). A WHERE
    over its key columns filters it as it would the table. ``flag``: (a name, columns), one more
    column of that name, 1 where one of those columns holds the empty text (an ENUM's error
    value) and 0 elsewhere, as the server compares them.

    >>> from mvdd.model import ColumnType
    >>> print(read_source("t", [Column(id=1, name="y", type=ColumnType.of("year", width=2))]))
    (SELECT IF(YEAR(`y`) = 1900, 0, YEAR(`y`)) AS `y` FROM `t`) AS `q`
    >>> d = Column(id=1, name="d", type=ColumnType.of("date"))
    >>> print(read_source("t", [d], casts={"d": "text"}))
    (SELECT CAST(`d` AS CHAR) AS `d` FROM `t`) AS `q`
    >>> e = Column(id=2, name="e", type=ColumnType.of("enum", members=("x",)))
    >>> print(read_source("t", [e], flag=("bad", ["e"])))
    (SELECT `e`, COALESCE(`e` = '', 0) AS `bad` FROM `t`) AS `q`
    """
    if not casts and flag is None and not any(shows_less(c) for c in columns):
        return sql(table_ref(table))
    nodes = [
        exp.alias_(exp.cast(read_node(c.name), READ_AS[casts[c.name]]), _id(c.name))
        if c.name in casts
        else read_node(c)
        for c in columns
    ]
    if flag is not None:
        name, among = flag
        empty = exp.or_(
            *(exp.EQ(this=read_node(c), expression=exp.Literal.string("")) for c in among)
        )
        nodes.append(exp.alias_(exp.Coalesce(this=empty, expressions=[literal_node(0)]), _id(name)))
    query = exp.select(*nodes).from_(table_ref(table))
    return sql(exp.Subquery(this=query, alias=exp.TableAlias(this=_id("q"))))


def select_template(
    table: str | tuple[str, str],
    columns: Sequence[str | Column],
    key: Sequence[str],
    *,
    after: bool,
) -> str:
    """``SELECT columns FROM table [WHERE key after (%s, …)] ORDER BY k1, …``: a table's rows in
    key order, from the start or after a key (a copy resumed where it stopped; its parameters
    :func:`key_params`'s, the key written out column by column: :func:`_from`); each column read
    by :func:`read_node`.

    >>> print(select_template("t", ["a", "b", "v"], ["a", "b"], after=True))
    SELECT `a`, `b`, `v` FROM `t` WHERE `a` > %s OR (`a` = %s AND `b` > %s) ORDER BY `a`, `b`
    """
    node = exp.select(*(read_node(c) for c in columns)).from_(table_ref(table))
    if after:
        node = node.where(_from(key, [exp.Placeholder() for _ in key], "after"))
    node = node.order_by(*_columns(key))
    return _template(node)


def key_range(
    key: Sequence[str],
    low: Sequence[Any] | None,
    high: Sequence[Any] | None,
    typed: Mapping[str, ColumnType] = {},
    members: Mapping[str, Sequence[str]] = {},
) -> str:
    """The rows whose ``key`` is at or after ``low`` and before ``high`` in key order (an end
    None: open), values as literals: a partition of a table by key range. Written out column by
    column (:func:`_from`), which the servers' range optimizers read as ranges of the key's
    index; MariaDB scans the whole table for a comparison of row constructors (``(a, b) >=
    (…)``), a partition of a table of a composite key then costing a scan of all of it.

    >>> print(key_range(["id"], [10], [20]))
    `id` >= 10 AND `id` < 20
    >>> print(key_range(["a", "b"], ["x", 1], None))
    `a` > 'x' OR (`a` = 'x' AND `b` >= 1)

    ``typed``: key columns compared as a type (a column a read gives as text, whose text does
    not order as its values):

    >>> from mvdd.model import ColumnType
    >>> print(key_range(["t"], None, ["-1:00:00"], {"t": ColumnType.of("time")}))
    CAST(`t` AS TIME) < '-1:00:00'

    ``members``: key columns of an ENUM whose members' texts tell them apart (each member's,
    in their order), whose bound is a number (:func:`boundary`'s ``numbered``), compared by the
    texts of the members on either side of it, which the servers read as ranges (a comparison
    of an ENUM with a number they do not):

    >>> print(key_range(["e", "id"], [2, 7], None, members={"e": ["z", "a", "m"]}))
    `e` IN ('m') OR (`e` = 'a' AND `id` >= 7)
    """
    within = _key_range(key, low, high, typed, members)
    return "1 = 1" if within is None else sql(within)


def _columns(names: Sequence[str]) -> list[exp.Expr]:
    """Columns by name: a key's, in its order."""
    return [exp.Column(this=_id(n)) for n in names]


#: how a key compares with a bound -> the comparison of the key's last column, and of each
#: column before it
_ORDERS: dict[str, tuple[type[exp.Binary], type[exp.Binary]]] = {
    "from": (exp.GTE, exp.GT),
    "after": (exp.GT, exp.GT),
    "before": (exp.LT, exp.LT),
}


def _from(
    key: Sequence[str],
    bound: Sequence[Any],
    order: str,
    typed: Mapping[str, ColumnType] = {},
    members: Mapping[str, Sequence[str]] = {},
) -> exp.Expr:
    """``key`` at or after ``bound`` (``order`` "from"), after it, or before it, in the order
    of the key's columns: a term for each column, the columns before it equal to the bound's
    and it past the bound's, their OR (the bound's values, literals or nodes, in the order
    :func:`key_params` gives them). Keys are NOT NULL (a row's key:
    :func:`~mvdd.replicate.merge.row_key`), where this is the row constructors' comparison;
    the servers read it as ranges of the key's index.

    >>> print(sql(_from(["a", "b", "c"], [1, 2, 3], "before")))
    `a` < 1 OR (`a` = 1 AND `b` < 2) OR (`a` = 1 AND `b` = 2 AND `c` < 3)
    """
    last, before = _ORDERS[order]
    bound = [v if isinstance(v, exp.Expr) else literal_node(v) for v in bound]
    keys: list[exp.Expr] = [
        exp.Cast(this=exp.Column(this=_id(k)), to=data_type(typed[k]))
        if k in typed
        else exp.Column(this=_id(k))
        for k in key
    ]

    def compared(i: int, op: type[exp.Binary]) -> exp.Expr:
        texts = members.get(key[i])
        value = bound[i]
        if texts is None or not isinstance(value, exp.Literal) or value.is_string:
            return op(this=keys[i].copy(), expression=value.copy())
        # (the error value, 0, is the empty text; a member 1 onwards)
        picked = ("", *texts)[_MEMBERS[op](int(value.this))]
        if len(picked) == 1 and op is exp.EQ:
            return exp.EQ(this=keys[i].copy(), expression=exp.Literal.string(picked[0]))
        if not picked:
            return exp.false()
        return exp.In(this=keys[i].copy(), expressions=[exp.Literal.string(m) for m in picked])

    terms = [
        exp.and_(
            *(compared(j, exp.EQ) for j in range(i)),
            compared(i, last if i == len(key) - 1 else before),
        )
        for i in range(len(key))
    ]
    return exp.or_(*terms)


#: a comparison of an ENUM's number with a bound's -> the numbers of the members it holds for
_MEMBERS: dict[type[exp.Binary], Callable[[int], slice]] = {
    exp.EQ: lambda n: slice(n, n + 1),
    exp.GT: lambda n: slice(n + 1, None),
    exp.GTE: lambda n: slice(n, None),
    exp.LT: lambda n: slice(0, n),
}


def key_params(bound: Sequence[Any]) -> tuple[Any, ...]:
    """The parameters of a template comparing a key with ``bound`` (:func:`select_template`):
    each of the bound's first values as often as :func:`_from` names it.

    >>> key_params(["x", 1, 2])
    ('x', 'x', 1, 'x', 1, 2)
    """
    return tuple(v for i in range(len(bound)) for v in bound[: i + 1])


def _key_range(
    key: Sequence[str],
    low: Sequence[Any] | None,
    high: Sequence[Any] | None,
    typed: Mapping[str, ColumnType] = {},
    members: Mapping[str, Sequence[str]] = {},
) -> exp.Expr | None:
    """:func:`key_range`'s condition (None: both ends open)."""
    parts = [
        _from(key, bound, order, typed, members)
        for bound, order in ((low, "from"), (high, "before"))
        if bound is not None
    ]
    return exp.and_(*parts) if parts else None


def boundary(
    table: str | tuple[str, str],
    key: Sequence[str],
    offset: int,
    after: Sequence[Any] | None = None,
    numbered: Collection[str] = (),
    members: Mapping[str, Sequence[str]] = {},
) -> str:
    """The key of the row ``offset`` rows past the first at or after ``after`` (None: the
    table's first) in key order: a partition's bound. From the bound before it, the server
    reads the rows between the two, not every row before it. The columns of ``numbered``
    (an ENUM's or a SET's, which a key orders by their number, and a text compares by the
    text) are read as their number (``+ 0``), which a bound compares in the key's order
    (``members``: as :func:`key_range`'s).

    >>> print(boundary("t", ["a", "b"], 10, ["x", 1], numbered=["b"]))
    SELECT `a`, `b` + 0 FROM `t` WHERE `a` > 'x' OR (`a` = 'x' AND `b` >= 1) ORDER BY `a`, `b`
    LIMIT 1 OFFSET 10
    """
    picked = [
        exp.Add(this=exp.Column(this=_id(k)), expression=literal_node(0))
        if k in numbered
        else exp.Column(this=_id(k))
        for k in key
    ]
    node = exp.select(*picked).from_(table_ref(table))
    if after is not None:
        node = node.where(_from(key, after, "from", members=members))
    node = node.order_by(*_columns(key)).limit(1).offset(offset)
    return sql(node)


def row_bytes(
    table: str | tuple[str, str],
    columns: Sequence[str],
    rows: int,
    key: Sequence[str] = (),
    after: Sequence[Any] | None = None,
    members: Mapping[str, Sequence[str]] = {},
) -> str:
    """The average bytes of ``columns`` over ``rows`` rows of the table (each value's
    ``LENGTH``, a NULL's none): what a read of them carries a row. The first rows the server
    gives; with a ``key``, the first in its order, at or after ``after`` when given (a window
    of a sample spread over the table; ``members``: as :func:`key_range`'s).

    >>> print(row_bytes("t", ["a", "b"], 100))  # doctest: +NORMALIZE_WHITESPACE
    SELECT AVG(COALESCE(LENGTH(`a`), 0) + COALESCE(LENGTH(`b`), 0))
    FROM (SELECT `a`, `b` FROM `t` LIMIT 100) AS `sample`
    >>> print(row_bytes("t", ["a"], 100, ["id"], [5000]))  # doctest: +NORMALIZE_WHITESPACE
    SELECT AVG(COALESCE(LENGTH(`a`), 0))
    FROM (SELECT `a` FROM `t` WHERE `id` >= 5000 ORDER BY `id` LIMIT 100) AS `sample`
    """
    if not columns:
        raise ValueError("the bytes of no column")
    lengths: list[exp.Expr] = [
        exp.Coalesce(
            this=exp.Length(this=exp.Column(this=_id(c)), binary=True),
            expressions=[exp.Literal.number(0)],
        )
        for c in columns
    ]
    while len(lengths) > 1:  # (summed pairwise: a table's thousands of columns nest shallow)
        pairs = zip(lengths[::2], lengths[1::2], strict=False)
        summed = [exp.Add(this=a, expression=b) for a, b in pairs]
        lengths = summed + lengths[len(summed) * 2 :]
    (total,) = lengths
    inner = exp.select(*(exp.Column(this=_id(c)) for c in columns)).from_(table_ref(table))
    if after is not None:
        inner = inner.where(_from(key, after, "from", members=members))
    if key:
        inner = inner.order_by(*_columns(key))
    node = exp.select(exp.Avg(this=total)).from_(inner.limit(rows).subquery(_id("sample")))
    return sql(node)


def average_row_length(table: tuple[str, str]) -> str:
    """The server's statistics of a table's average row length (``AVG_ROW_LENGTH``: InnoDB's
    estimate over the whole table, its pages' bytes by its rows).

    >>> print(average_row_length(("db", "t")))  # doctest: +NORMALIZE_WHITESPACE
    SELECT `AVG_ROW_LENGTH` FROM `information_schema`.`TABLES`
    WHERE `TABLE_SCHEMA` = 'db' AND `TABLE_NAME` = 't'
    """
    database, name = table
    node = (
        exp.select(exp.Column(this=_id("AVG_ROW_LENGTH")))
        .from_(table_ref(("information_schema", "TABLES")))
        .where(exp.EQ(this=exp.Column(this=_id("TABLE_SCHEMA")), expression=literal_node(database)))
        .where(exp.EQ(this=exp.Column(this=_id("TABLE_NAME")), expression=literal_node(name)))
    )
    return sql(node)


def key_extent(table: str | tuple[str, str], key: str) -> str:
    """``SELECT MIN(key), MAX(key) FROM table``"""
    k = exp.Column(this=_id(key))
    return sql(exp.select(exp.Min(this=k), exp.Max(this=k.copy())).from_(table_ref(table)))


def create_like(table: str, source: str) -> str:
    """``CREATE TABLE table LIKE source``"""
    node = exp.Create(
        this=_table(table),
        kind="TABLE",
        properties=exp.Properties(expressions=[exp.LikeProperty(this=_table(source))]),
    )
    return sql(node)


def upsert_from(table: str, source: str, columns: Sequence[str]) -> str:
    """``INSERT INTO table (columns) SELECT columns FROM source ON DUPLICATE KEY UPDATE …``:
    every row of ``source`` into ``table``, a row already there overwritten."""
    cols = [exp.Column(this=_id(c)) for c in columns]
    node = exp.Insert(
        this=exp.Schema(this=_table(table), expressions=[_id(c) for c in columns]),
        expression=exp.select(*cols).from_(_table(source)),
        conflict=exp.OnConflict(
            duplicate=True,
            action=exp.var("UPDATE"),
            expressions=[
                exp.EQ(
                    this=exp.Column(this=_id(c)),
                    expression=exp.Anonymous(this="VALUES", expressions=[exp.Column(this=_id(c))]),
                )
                for c in columns
            ],
        ),
    )
    return _template(node)


def select_all(table: str | tuple[str, str], columns: Sequence[str | Column] | None = None) -> str:
    """``SELECT * FROM table``, or ``SELECT columns FROM table`` (each read by
    :func:`read_node`)

    >>> print(select_all(("shop", "a`b")))
    SELECT * FROM `shop`.`a``b`
    >>> print(select_all("t", ["id", "x y"]))
    SELECT `id`, `x y` FROM `t`
    """
    picked = [read_node(c) for c in columns] if columns is not None else [exp.Star()]
    return sql(exp.select(*picked).from_(table_ref(table)))


def select_run(
    table: str | tuple[str, str],
    columns: Sequence[str | Column] | None,
    key: Sequence[str],
    low: Sequence[Any] | None,
    high: Sequence[Any] | None,
    *,
    ordered: bool = False,
) -> str:
    """:func:`select_all`'s rows whose ``key`` is in [``low``, ``high``) (:func:`key_range`),
    in key order when ``ordered``: one run of a table read in key order.

    >>> print(select_run("t", ["id", "v"], ["id"], [10], [20]))
    SELECT `id`, `v` FROM `t` WHERE `id` >= 10 AND `id` < 20
    >>> print(select_run("t", None, ["id"], None, None, ordered=True))
    SELECT * FROM `t` ORDER BY `id`
    """
    node = exp.select(*([read_node(c) for c in columns] if columns is not None else [exp.Star()]))
    node = node.from_(table_ref(table))
    within = _key_range(key, low, high)
    if within is not None:
        node = node.where(within)
    if ordered:
        node = node.order_by(*_columns(key))
    return sql(node)


def count_rows(table: str | tuple[str, str]) -> str:
    """``SELECT COUNT(*) FROM table``"""
    return sql(exp.select(exp.Count(this=exp.Star())).from_(table_ref(table)))


def show_create(table: str | tuple[str, str], kind: str = "TABLE") -> str:
    """``SHOW CREATE TABLE table`` (a name, or a (database, table) pair); ``kind="SEQUENCE"``:
    MariaDB's ``SHOW CREATE SEQUENCE``.

    >>> print(show_create(("shop", "s"), kind="SEQUENCE"))
    SHOW CREATE SEQUENCE `shop`.`s`
    """
    if kind not in ("TABLE", "SEQUENCE"):
        raise ValueError(f"SHOW CREATE of a table or a sequence, not {kind!r}")
    return sql(exp.Show(this=f"CREATE {kind}", target=table_ref(table)))


def drop_table(table: str, *, if_exists: bool = True, temporary: bool = False) -> str:
    """``DROP [TEMPORARY] TABLE [IF EXISTS] table`` (a temporary one's drop never drops a
    table of that name that is not).

    >>> print(drop_table("c", temporary=True))
    DROP TEMPORARY TABLE IF EXISTS `c`
    """
    node = exp.Drop(tables=[_table(table)], kind="TABLE", exists=if_exists, temporary=temporary)
    return sql(node)


__all__ = [
    "average_row_length",
    "boundary",
    "checksum_query",
    "count_rows",
    "create_like",
    "delete_template",
    "drop_table",
    "insert_rows",
    "insert_template",
    "key_extent",
    "key_params",
    "key_range",
    "lock_table",
    "row_bytes",
    "select_all",
    "select_run",
    "select_template",
    "show_create",
    "show_create_database",
    "table_ref",
    "update_template",
    "upsert_from",
]
