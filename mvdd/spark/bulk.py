"""The bulk copy of big shards with Spark: each shard read in parallel partitions by key range
over JDBC, turned into rows of the joined schema by :func:`~mvdd.spark.pipeline.merge_shards`
(native column expressions, no Python UDF), written to the target over JDBC.

A Spark task writes its partition in one transaction (Spark's JDBC writer commits each
partition at its end), so a killed copy leaves whole partitions or none; the replicator
(:mod:`mvdd.replicate.replicator`) copies a shard in chunks, records each chunk once written,
and writes a chunk a kill may have half written through a staging table and an upsert. The
rows are not one snapshot: the replicator notes the binlog position before and after the copy
and applies the binlog in between in safe mode (TiDB DM's).
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import attrs
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F
from pyspark.sql import types as T

from mvdd.ddl.dml import key_range, read_source, shows_less
from mvdd.model import Column, ColumnType
from mvdd.model.kind import CALENDAR, Family, TypeKind
from mvdd.shard import ShardGroup
from mvdd.spark.jdbc import jdbc_options
from mvdd.spark.pipeline import col, merge_shards, quoted
from mvdd.spark.types import cast, spark_type
from mvdd.store.address import Address


def ranges(
    key: Sequence[str],
    bounds: Sequence[Sequence[Any]],
    columns: Sequence[Column] = (),
    members: Mapping[str, Sequence[str]] = {},
) -> list[str]:
    """The predicates of the partitions a list of key bounds (ascending) cuts a table into:
    before the first, between each two, after the last. ``columns``: those :func:`read`
    reads, where a key column it gives as text is compared as its type
    (:func:`compared_as`); ``members``: ENUM columns compared through their members' texts
    (:func:`~mvdd.ddl.dml.key_range`'s)."""
    edges: list[Sequence[Any] | None] = [None, *bounds, None]
    typed = {c.name: t for c in columns if c.name in key and (t := compared_as(c)) is not None}
    return [key_range(key, lo, hi, typed, members) for lo, hi in itertools.pairwise(edges)]


def compared_as(column: Column) -> ColumnType | None:
    """The type a partition's range compares a column as, where :func:`read` gives its text
    and the text does not order as its values: a TIME's (a sign, hours past 99) and a
    DECIMAL's of more digits than Spark holds (a sign, digits of any number), compared as
    their type again (the text the server printed, read back exactly). None: as read (a
    date's text orders as the date)."""
    t = column.type
    if read_as(column) != "text" or t.kind in CALENDAR:
        return None
    return attrs.evolve(t, unsigned=False, zerofill=False)


def read(
    spark: SparkSession,
    address: Address,
    table: tuple[str, str],
    columns: Sequence[Column],
    predicates: Sequence[str],
    *,
    fetch: int = 10_000,
    errors: Sequence[str] = (),
) -> DataFrame:
    """A table's columns, one partition per predicate; and with ``errors`` (ENUM columns), the
    column :data:`FLAGGED` beside them, the server's 1 where one of those holds the ENUM's error
    value and 0 elsewhere (:func:`enum_errors`).

    ``CHAR(n)`` values come as the server gives them, without trailing spaces (as the binary
    log and every MySQL client see them): Spark's read-side padding of ``CHAR`` columns is
    turned off while the read is planned (the plan keeps it; the session's setting is put
    back). A column whose SELECT shows less than it stores (a YEAR(2)) is read through a
    query that gives what it stores (:func:`~mvdd.ddl.dml.read_node`), as the type's Spark
    type; so is a column Connector/J would make another value of (:func:`read_as`).

    A DATE, DATETIME or TIMESTAMP is read as the text the server prints (Connector/J reads a zero
    date as NULL, a zero month or day, or a day its month lacks, as another day, and Spark's dates
    hold none of them): the column is its value cast from that text (NULL for those: what the lake
    holds), and the text stands beside it under :func:`text_name`, which :func:`joined_rows`
    writes where the value is NULL."""
    options = jdbc_options(address, database=table[0])
    url = options.pop("url")
    options["fetchsize"] = str(fetch)
    casts = {c.name: how for c in columns if (how := read_as(c)) is not None}
    flag = (FLAGGED, errors) if errors else None
    source = read_source(table[1], columns, casts=casts, flag=flag)
    with _session_conf(spark, {PADDING: "false"}):
        df = spark.read.jdbc(url, source, predicates=list(predicates), properties=options)
        out = []
        for c in columns:
            value = col(c.name)
            if c.type.kind in CALENDAR:
                typed = cast(value, spark_type(c.type), tried=True)
                # (the year 0 too, which Spark's dates hold: NULL, as to_spark gives it)
                typed = F.when(F.year(typed) > 0, typed)
                out += [typed.alias(c.name), value.alias(text_name(c))]
            elif c.name in casts or shows_less(c):
                out.append(cast(value, spark_type(c.type)))
            else:
                out.append(value)
        if errors:
            out.append(col(FLAGGED))
        return df.select(*out)


def read_as(column: Column) -> str | None:
    """How :func:`read` reads a column where Connector/J would make another value of it (None:
    as Connector/J gives it), as :data:`mvdd.ddl.dml.READ_AS` names it: a date as the text the
    server prints (Connector/J reads the zero date as NULL, a zero month or day or a day its
    month lacks as another day), a TIME and a DECIMAL that Spark holds as text too (a
    ``java.sql.Time`` loses a TIME's sign, its hours past 24 and its microseconds; a DECIMAL of
    more than 38 digits loses digits), a BIT as its number (Connector/J gives a BIT(n > 1) as
    its bytes)."""
    t = column.type
    if t.kind == TypeKind.BIT:
        return "number"
    if t.kind in CALENDAR or (
        t.family in (Family.TEMPORAL, Family.DECIMAL) and spark_type(t) == T.StringType()
    ):
        return "text"
    return None


def text_name(column: Column) -> str:
    """The name a date column's text has in a frame :func:`read` gives: its name and a space
    (a MySQL column's name never ends in one)."""
    return f"{column.name} "


#: Spark pads ``CHAR(n)`` values read from JDBC to ``n`` characters unless this is off
PADDING = "spark.sql.readSideCharPadding"


@contextlib.contextmanager
def _session_conf(spark: SparkSession, settings: dict[str, str]) -> Iterator[None]:
    before: dict[str, str | None] = {key: spark.conf.get(key, None) for key in settings}
    for key, value in settings.items():
        spark.conf.set(key, value)
    try:
        yield
    finally:
        for key, old in before.items():
            if old is None:
                spark.conf.unset(key)
            else:
                spark.conf.set(key, old)


def joined_rows(
    df: DataFrame,
    group: ShardGroup,
    shard: str,
    version: int,
    columns: Sequence[str],
    also: Mapping[str, str] | None = None,
) -> DataFrame:
    """A shard's rows (read under its group ``version``, by :func:`read`) as rows of the joined
    schema, only the target ``columns`` the shard fills (the server gives the others their
    defaults). A date column fed by a shard's date column is its value's text, or where the
    value is NULL, the text the shard's server gave (a zero date …, which the target's session
    takes as it is: :data:`mvdd.replicate.target.DATES_AS_UPSTREAM`). ``also``: a target
    column -> the one of ``columns`` whose value it takes too (the renamed column of a rename
    under way, :meth:`~mvdd.shard.group.ShardGroup.also`, which the shard's rows fill as its
    old name's column)."""
    texts: dict[str, str] = {}  # a joined column -> the text of the shard's column feeding it
    present = set(df.columns)  # (a call into the JVM: asked once)
    for source in group.schema(shard, version=version).public_columns:
        dest = group.destination(shard, source.id)
        if (
            dest is not None
            and dest.type.kind in CALENDAR
            and source.type.kind in CALENDAR
            and text_name(source) in present
        ):
            texts[dest.name] = text_name(source)
    merged = merge_shards({shard: df}, group, keep=list(texts.values()), versions={shard: version})
    also = also or {}

    def value(c: str) -> Any:
        return F.coalesce(col(c).cast("string"), col(texts[c])) if c in texts else col(c)

    return merged.select(*(value(also.get(c, c)).alias(c) for c in columns))


#: the column :func:`read` adds for the rows holding an ENUM's error value: a name ending in
#: two spaces, which no column has (none ends in a space) nor a date's text (one: text_name)
FLAGGED = "enum error  "


def enum_errors() -> tuple[Any, Any]:
    """The rows of a frame :func:`read` gives with ``errors`` that hold an ENUM's error value in
    one of them (the shard's columns that feed the target's ENUMs without an empty member,
    :attr:`mvdd.replicate.merge.Route.empty`), and the other rows: two filters, ``(flagged,
    kept)``. The error value is the empty value a session outside strict mode stores for a
    value no member is, which the target's strict JDBC sessions refuse: the replicator writes
    those rows apart, one by one (:class:`mvdd.replicate.apply.Changes`).

    The server tells the two sets apart, in the column :data:`FLAGGED` it computes (``e = ''``
    under its own comparison), and the filters test that number: Spark's JDBC source hands them
    to the upstream's query, so the rows flagged cost the server a look at the chunk and send
    nothing where there are none; over a chunk :func:`held`, Spark tests the number itself. A
    test of the column's text in Spark would miss them: Connector/J reads an ENUM as a
    ``CHAR(n)``, and Spark pads a text compared with one to ``n`` characters (``e = ' '``). A
    filter on the joined frame instead (a cast of each column, or a COALESCE) reaches no query:
    each chunk was read whole twice."""
    flag = col(FLAGGED)
    return flag == F.lit(1), flag == F.lit(0)


@contextlib.contextmanager
def held(frame: DataFrame, *, writes: int) -> Iterator[DataFrame]:
    """``frame`` (a chunk :func:`read` gives) for ``writes`` writes. For one, the frame as it
    is: its write's query reads the chunk. For more (the lake and the target), the chunk held
    by Spark (in memory, then on its local disk) from the first write, which reads it in
    parallel partitions, to the last, and then let go: each row crosses from the upstream once,
    and every write takes the very rows of that one read (two reads could each meet rows the
    other did not). It saves the upstream a second read of each chunk, not time here: on the
    benchmark's machine (the servers on its two cores) holding costs what the second read did.
    """
    if writes < 2:
        yield frame
        return
    from pyspark import StorageLevel

    kept = frame.persist(StorageLevel.MEMORY_AND_DISK)
    try:
        yield kept
    finally:
        kept.unpersist()


def write(
    df: DataFrame,
    address: Address,
    table: str,
    *,
    batch: int = 5000,
    session: Mapping[str, str] | None = None,
) -> None:
    """Append rows to a table over JDBC (each partition in one transaction), each connection's
    ``session`` variables set as the target's own session has them
    (:class:`mvdd.replicate.target.Session`)."""
    options = jdbc_options(address, session=session)
    url = options.pop("url")
    options["batchsize"] = str(batch)
    options["isolationLevel"] = "READ_COMMITTED"
    df.write.jdbc(url, quoted(table), mode="append", properties=options)


#: Spark's error conditions for a JDBC connection it could not make
_LOST_CONDITIONS = frozenset({"FAILED_JDBC.CONNECTION"})
#: what a JDBC connection's failure says when the server refused the login (its error 1045,
#: which Connector/J raises as this exception) or TLS was refused as the address's mode wants
#: it (the server's certificate not trusted or not naming the host, a server without TLS)
_REFUSED = (
    "SQLInvalidAuthorizationSpecException",
    "Access denied for user",
    "PKIX path",
    "CertificateException",
    "No subject alternative",
    "No name matching",
    "ssl not enabled in the server",
)
#: what a Spark job's failure says when a JDBC connection went away under it (the Java
#: exceptions of MariaDB Connector/J and the JDK, and the server's words for a killed one)
_LOST_WORDS = (
    "SQLNonTransientConnectionException",
    "SQLTransientConnectionException",
    "SQLRecoverableException",
    "Communications link failure",
    "Connection refused",
    "Connection reset",
    "Broken pipe",
    "Socket fail",
    "Could not connect",
    "Connection was killed",
)


#: what a server says refusing a row (a value that does not fit, a key taken): Connector/J
#: raises some of these, from a batch, as a SQLTransientConnectionException, which a server
#: gone away raises too; the connection is there, and the row would be refused again
_ROW_REFUSED = (
    "Data truncated for column",
    "Data too long for column",
    "Out of range value for column",
    "Incorrect ",
    "Truncated incorrect",
    "cannot be null",
    "doesn't have a default value",
    "Duplicate entry",
    "CONSTRAINT `",
)


def _causes(err: BaseException) -> Iterator[str]:
    """The texts of a failure and of its causes: a Spark error's own text says only that a
    JDBC connection failed; its Java causes say why."""
    seen: BaseException | None = err
    for _ in range(16):
        if seen is None:
            return
        yield str(seen)
        origin = getattr(seen, "_origin", None)  # PySpark's Java exception
        if origin is not None:
            with contextlib.suppress(Exception):
                yield str(origin.toString())
        seen = getattr(seen, "_cause", None) or seen.__cause__


def refusal(err: BaseException) -> str | None:
    """What says that a Spark failure is a JDBC connection a server refused (the login, or TLS
    as the address's mode wants it): the line of its causes that says so, else None."""
    for text in _causes(err):
        for line in text.splitlines():
            if any(word in line for word in _REFUSED):
                return line.strip()
    return None


def connection_lost(err: BaseException) -> str | None:
    """What says that a Spark failure is a JDBC connection that could not be made or went away
    (a server restarting, a network cut, a killed connection), as opposed to a refusal: a job
    that can be run again from its last checkpoint once the server is back. None: it is not."""
    condition = getattr(err, "getCondition", None)
    lines = str(err).splitlines()
    if refusal(err) is not None:
        return None  # a login or TLS refused: a setting to change, not a server away
    if any(word in line for line in lines for word in _ROW_REFUSED):
        return None  # a row refused: the server is there
    if callable(condition) and condition() in _LOST_CONDITIONS:
        return lines[0].strip() if lines else str(condition())
    for line in lines:
        if any(word in line for word in _LOST_WORDS):
            return line.strip()
    return None


__all__ = [
    "FLAGGED",
    "connection_lost",
    "enum_errors",
    "held",
    "joined_rows",
    "ranges",
    "read",
    "read_as",
    "refusal",
    "text_name",
    "write",
]
