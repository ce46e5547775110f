"""MySQL / MariaDB server addresses, as every part of mvdd that connects to a server takes them.

``mysql://user:password@host:port/database`` (also ``mariadb://``); a unix socket as
``mysql://user:password@localhost/database?unix_socket=/path``; user and password
percent-encoded. Options in the query string: ``unix_socket``, ``connect_timeout``,
``read_timeout``, ``write_timeout`` (seconds), and whatever the caller allows besides (the
catalog store's ``prefix``). The password is never part of :attr:`Address.description` or of
``repr``.

>>> a = parse_address("mysql://app:s%40cret@db.example:3307/shop")
>>> a.description, a.connect_options()["password"]
('mysql://app@db.example:3307 database shop', 's@cret')
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any
from urllib.parse import parse_qs, unquote, urlparse

import attrs

from mvdd.errors import MvddError

SCHEMES = ("mysql", "mariadb")
#: connection options every address may carry
CONNECT_OPTIONS = frozenset({"unix_socket", "connect_timeout", "read_timeout", "write_timeout"})
_TIMEOUTS = ("connect_timeout", "read_timeout", "write_timeout")
#: PyMySQL ``connect`` arguments for a server on a unix socket: no TLS (see
#: :meth:`Address.connect_options`)
LOCAL_SOCKET: dict[str, Any] = {"ssl_disabled": True}


@attrs.frozen
class Address:
    """A parsed server address; :meth:`connect_options` are PyMySQL's ``connect`` arguments."""

    scheme: str
    user: str
    password: str = attrs.field(repr=False)
    host: str | None
    port: int | None
    unix_socket: str | None
    database: str | None
    timeouts: tuple[tuple[str, float], ...] = ()
    extra: tuple[tuple[str, str], ...] = ()

    @property
    def where(self) -> str:
        if self.unix_socket is not None:
            return f"localhost (unix socket {self.unix_socket})"
        return f"{self.host}:{self.port}"

    @property
    def description(self) -> str:
        """Where the server is, for messages: never the password."""
        base = f"{self.scheme}://{self.user}@{self.where}"
        return f"{base} database {self.database}" if self.database else base

    def option(self, name: str, default: str | None = None) -> str | None:
        return dict(self.extra).get(name, default)

    def connect_options(self, *, database: bool = True) -> dict[str, Any]:
        """PyMySQL ``connect`` arguments (utf8mb4, autocommit, a 10 s connect timeout unless
        the address says otherwise); ``database=False`` leaves the database out.

        A unix socket connection goes without TLS (:data:`LOCAL_SOCKET`): it never leaves the
        machine, and PyMySQL, told nothing, builds a TLS context for every connection it opens
        (loading the system's certificates: about 45 ms of CPU each) to offer TLS to a server
        that may then run it over the socket. Over TCP, PyMySQL's own default stays."""
        out: dict[str, Any] = {
            "user": self.user,
            "password": self.password,
            "charset": "utf8mb4",
            "autocommit": True,
            "connect_timeout": 10.0,
        }
        out.update(self.timeouts)
        if self.unix_socket is not None:
            out["unix_socket"] = self.unix_socket
            out.update(LOCAL_SOCKET)
        else:
            out["host"], out["port"] = self.host, self.port
        if database and self.database:
            out["database"] = self.database
        return out

    def with_database(self, database: str | None) -> Address:
        return attrs.evolve(self, database=database)


def parse_address(
    text: str,
    *,
    database: bool | None = None,
    options: Collection[str] = (),
    error: type[MvddError] = MvddError,
) -> Address:
    """Parse an address. ``database``: True requires one, False forbids one, None allows
    either; ``options``: query options allowed beside :data:`CONNECT_OPTIONS`; ``error``: the
    error class to raise (the message never holds the password)."""
    if not isinstance(text, str):
        raise error(f"a server address is text, not {type(text).__name__}")
    try:
        url = urlparse(text)
        port = url.port
    except ValueError as err:
        raise error(f"a malformed server address: {err}") from None
    if url.scheme not in SCHEMES:
        raise error(f"a server address is mysql://… or mariadb://…, not {url.scheme or '?'}://")
    name = unquote(url.path.lstrip("/")) or None
    if name is not None and "/" in name:
        raise error("a server address names at most one database: mysql://user@host/database")
    if database is True and name is None:
        raise error("the address names one database: mysql://user@host/database")
    if database is False and name is not None:
        raise error("the address must not name a database: mysql://user@host/")
    query = {k: v[-1] for k, v in parse_qs(url.query, keep_blank_values=True).items()}
    unknown = set(query) - CONNECT_OPTIONS - set(options)
    if unknown:
        raise error(f"unknown options in the address: {sorted(unknown)}")
    timeouts = []
    for key in _TIMEOUTS:
        if key in query:
            try:
                value = float(query[key])
            except ValueError:
                raise error(
                    f"a malformed address: {key} must be a number of seconds, not {query[key]!r}"
                ) from None
            if value <= 0:
                raise error(f"{key} must be positive")
            timeouts.append((key, value))
    socket = query.get("unix_socket")
    return Address(
        scheme=url.scheme,
        user=unquote(url.username or "root"),
        password=unquote(url.password or ""),
        host=None if socket is not None else (url.hostname or "localhost"),
        port=None if socket is not None else (port or 3306),
        unix_socket=socket,
        database=name,
        timeouts=tuple(timeouts),
        extra=tuple(sorted((k, v) for k, v in query.items() if k in set(options))),
    )


__all__ = ["CONNECT_OPTIONS", "LOCAL_SOCKET", "SCHEMES", "Address", "parse_address"]
