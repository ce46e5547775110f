"""Spark and MySQL / MariaDB through JDBC: MariaDB Connector/J (the Debian package
``libmariadb-java``), unix sockets included.

:func:`driver_jars` finds the driver (``MVDD_JDBC_JAR`` names it elsewhere; JNA, which
Connector/J needs for unix sockets, is taken from ``libjna-java`` when present) and raises
:class:`JdbcDriverMissing` naming the package otherwise. :func:`jdbc_options` turns an mvdd
server address into Spark's JDBC options: the ``jdbc:mysql:`` scheme (with Connector/J's
``permitMysqlScheme``) so Spark quotes names as MySQL does, a unix socket as ``localSocket``,
batched inserts rewritten into multi-row statements, and the driver's conversions that would
change values turned off (``TINYINT(1)`` is a number, ``YEAR`` a year).

TLS follows the address's ``ssl_mode`` (:mod:`mvdd.store.address`) through :data:`TLS_PARAMS`,
with one difference: Connector/J 2 has no ``preferred`` mode (TLS when the server offers it),
so Spark's connections of an address without a mode, or with ``preferred``, go in the clear;
a server that requires TLS wants ``ssl_mode=required`` or stronger in the address. Connector/J
2 takes a client certificate from a Java keystore only: an address with ``ssl_cert`` is a
:class:`JdbcTlsError` here (PyMySQL's connections present it).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import quote

from mvdd.errors import MvddError
from mvdd.store.address import SESSION_TIME_ZONE, Address

#: where Debian installs the driver and JNA
JAVA_DIRS = ("/usr/share/java", "/usr/local/share/java")
DRIVER = "org.mariadb.jdbc.Driver"


class JdbcDriverMissing(MvddError, RuntimeError):
    """MariaDB Connector/J is not installed (``apt-get install libmariadb-java``)."""


class JdbcTlsError(MvddError, ValueError):
    """An address's TLS settings that Spark's JDBC driver cannot honour."""


#: Connector/J's parameters for each TLS mode of an address (``serverSslCert`` is added for its
#: ``ssl_ca``; the modes left out go in the clear)
TLS_PARAMS: dict[str, tuple[str, ...]] = {
    "required": ("useSsl=true", "trustServerCertificate=true"),
    "verify_ca": ("useSsl=true", "disableSslHostnameVerification=true"),
    "verify_identity": ("useSsl=true",),
}


def _tls_params(address: Address) -> list[str]:
    tls = address.tls
    if tls.cert is not None:
        raise JdbcTlsError(
            f"{address.description}: Spark's JDBC driver (Connector/J 2) takes a client "
            "certificate from a Java keystore only, not ssl_cert's PEM file"
        )
    params = list(TLS_PARAMS.get(tls.mode or "", ()))
    if params and tls.ca is not None and tls.mode != "required":
        params.append(f"serverSslCert={quote(tls.ca, safe='/')}")
    return params


def driver_jars() -> list[str]:
    """The driver's jar, and JNA's when present (unix sockets)."""
    named = os.environ.get("MVDD_JDBC_JAR")
    found: list[str] = []
    if named:
        if not Path(named).is_file():
            raise JdbcDriverMissing(f"MVDD_JDBC_JAR names {named!r}, which is not a file")
        found.append(named)
    else:
        for folder in JAVA_DIRS:
            jar = Path(folder) / "mariadb-java-client.jar"
            if jar.is_file():
                found.append(str(jar))
                break
        else:
            raise JdbcDriverMissing(
                "MariaDB Connector/J is not installed: apt-get install libmariadb-java "
                "(make test and make demo install it when run as root), or set MVDD_JDBC_JAR"
            )
    for folder in JAVA_DIRS:
        for name in ("jna.jar", "jna-platform.jar"):
            jar = Path(folder) / name
            if jar.is_file() and str(jar) not in found:
                found.append(str(jar))
    return found


def jdbc_options(
    address: Address, *, database: str | None = None, session: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """Spark's JDBC options for a server (``url``, ``driver``, ``user``, ``password``); each
    connection's session in UTC, and with the ``session`` variables given (name -> value as
    SQL: a downstream session's, :class:`mvdd.replicate.target.Session`)."""
    db = database if database is not None else (address.database or "")
    variables = {"time_zone": f"'{SESSION_TIME_ZONE}'", **(session or {})}
    params = [
        "permitMysqlScheme",
        "tinyInt1isBit=false",
        "yearIsDateType=false",
        "useBatchMultiSend=true",
        "rewriteBatchedStatements=true",
        "useServerPrepStmts=false",
        # a TIMESTAMP's text in UTC, as every session mvdd opens (mvdd.store.address)
        "sessionVariables=" + ",".join(f"{name}={value}" for name, value in variables.items()),
    ]
    if address.unix_socket is not None:
        params.append(f"localSocket={quote(address.unix_socket, safe='/')}")
        where = "localhost"
    else:
        where = f"{address.host}:{address.port}"
    params += _tls_params(address)
    return {
        "url": f"jdbc:mysql://{where}/{quote(db, safe='')}?{'&'.join(params)}",
        "driver": DRIVER,
        "user": address.user,
        "password": address.password,
    }


__all__ = [
    "DRIVER",
    "TLS_PARAMS",
    "JdbcDriverMissing",
    "JdbcTlsError",
    "driver_jars",
    "jdbc_options",
]
