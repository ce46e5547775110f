"""MySQL / MariaDB server addresses, as every part of mvdd that connects to a server takes them.

``mysql://user:password@host:port/database`` (also ``mariadb://``); a unix socket as
``mysql://user:password@localhost/database?unix_socket=/path``; user and password
percent-encoded. Options in the query string: ``unix_socket``, ``connect_timeout``,
``read_timeout``, ``write_timeout`` (seconds), TLS's (below), and whatever the caller allows
besides (the catalog store's ``prefix``). The password is never part of
:attr:`Address.description` or of ``repr``.

TLS, with the MySQL clients' words: ``ssl_mode`` is one of :data:`SSL_MODES` (any case);
``ssl_ca`` a PEM file of the certificate authorities to trust, ``ssl_cert`` and ``ssl_key`` a
client certificate and its key (the key may sit in the certificate's file).

- no ``ssl_mode``: ``verify_ca`` when ``ssl_ca`` is given, ``required`` when only a client
  certificate is; else TLS when the server offers it (PyMySQL's default) over TCP, and none
  over a unix socket, which never leaves the machine (:data:`LOCAL_SOCKET`);
- ``disabled``: never TLS (a certificate given with it is an error);
- ``preferred``: TLS when the server offers it, without checking its certificate, and a
  connection in the clear otherwise (files given with it are an error: it uses none);
- ``required``: TLS or no connection, the certificate unchecked (``ssl_ca`` with it is an
  error: an authority given is one to check);
- ``verify_ca``: ``required``, and the server's certificate must chain to ``ssl_ca`` (the
  system's trusted authorities when it is not given);
- ``verify_identity``: ``verify_ca``, and the certificate must name the host connected to
  (``localhost`` over a unix socket).

Every connection runs in UTC (:data:`SESSION_TIME_ZONE`, set as it opens): a TIMESTAMP is an
instant, which a session reads and writes as text in its time zone, and a binlog holds as UTC.
Read in the server's own zone, a snapshot's TIMESTAMP values and a binlog's would differ by
its offset, and a target in another zone would take the binlog's UTC text as its local time.

A connection that cannot be made as its mode says fails at once: it is never waited out as a
server that is away (:func:`mvdd.store.mysql.tls_failure`). Files are read when the address is
parsed, so a missing or unreadable one is an error naming its option then, not at the first
connection.

>>> a = parse_address("mysql://app:s%40cret@db.example:3307/shop")
>>> a.description, a.connect_options()["password"]
('mysql://app@db.example:3307 database shop', 's@cret')
"""

from __future__ import annotations

import functools
import os
import ssl
from collections.abc import Collection
from typing import Any
from urllib.parse import parse_qs, unquote, urlparse

import attrs

from mvdd.errors import MvddError

SCHEMES = ("mysql", "mariadb")
#: the TLS modes of ``ssl_mode``, weakest first (MySQL's ``--ssl-mode`` names)
SSL_MODES = ("disabled", "preferred", "required", "verify_ca", "verify_identity")
#: the TLS options of an address
TLS_OPTIONS = frozenset({"ssl_mode", "ssl_ca", "ssl_cert", "ssl_key"})
#: the time zone of every session mvdd opens (a TIMESTAMP's text is UTC there)
SESSION_TIME_ZONE = "+00:00"
#: connection options every address may carry
CONNECT_OPTIONS = (
    frozenset({"unix_socket", "connect_timeout", "read_timeout", "write_timeout"}) | TLS_OPTIONS
)
_TIMEOUTS = ("connect_timeout", "read_timeout", "write_timeout")
#: PyMySQL ``connect`` arguments for a server on a unix socket: no TLS (see
#: :meth:`Address.connect_options`)
LOCAL_SOCKET: dict[str, Any] = {"ssl_disabled": True}


@attrs.frozen
class Tls:
    """An address's TLS settings: its mode (None: the transport's default) and PEM files."""

    mode: str | None = None
    ca: str | None = None
    cert: str | None = None
    key: str | None = None

    @property
    def description(self) -> str:
        """The mode, and the files it trusts and presents: for messages."""
        parts = [self.mode or "default"]
        parts += [f"{name} {path}" for name, path in self.files]
        return "TLS " + ", ".join(parts)

    @property
    def files(self) -> tuple[tuple[str, str], ...]:
        named = (("ssl_ca", self.ca), ("ssl_cert", self.cert), ("ssl_key", self.key))
        return tuple((name, path) for name, path in named if path is not None)

    def context(self) -> ssl.SSLContext | None:
        """The TLS context of a connection that must run TLS (``required`` and stronger);
        None for the modes that leave it to PyMySQL (``preferred``) or go without."""
        if self.mode not in _CONTEXT_MODES:
            return None
        return _context(self)


#: the modes whose connections carry a context of mvdd's: (the peer's certificate checked,
#: its name checked)
_CONTEXT_MODES: dict[str | None, tuple[bool, bool]] = {
    "required": (False, False),
    "verify_ca": (True, False),
    "verify_identity": (True, True),
}


@functools.lru_cache(maxsize=64)
def _context(tls: Tls) -> ssl.SSLContext:
    """One context per distinct setting, built once a process (the system's authorities take
    some 45 ms of CPU to load) and shared by every connection: a context is safe across
    threads. Certificate files replaced on disk are read again by a new process."""
    check_cert, check_name = _CONTEXT_MODES[tls.mode]
    if check_cert:
        ctx = ssl.create_default_context(cafile=tls.ca)
        # MySQL's and MariaDB's own generated certificates lack extensions strict checking wants
        ctx.verify_flags &= ~getattr(ssl, "VERIFY_X509_STRICT", 0)
    else:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname = check_name
    ctx.verify_mode = ssl.CERT_REQUIRED if check_cert else ssl.CERT_NONE
    if tls.cert is not None:
        ctx.load_cert_chain(tls.cert, keyfile=tls.key)
    return ctx


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
    tls: Tls = Tls()

    @property
    def where(self) -> str:
        if self.unix_socket is not None:
            return f"localhost (unix socket {self.unix_socket})"
        return f"{self.host}:{self.port}"

    @property
    def description(self) -> str:
        """Where the server is, for messages: never the password."""
        base = f"{self.scheme}://{self.user}@{self.where}"
        if self.database:
            base += f" database {self.database}"
        return f"{base} (TLS {self.tls.mode})" if self.tls.mode is not None else base

    def option(self, name: str, default: str | None = None) -> str | None:
        return dict(self.extra).get(name, default)

    def connect_options(self, *, database: bool = True) -> dict[str, Any]:
        """PyMySQL ``connect`` arguments (utf8mb4, autocommit, the session in UTC, a 10 s
        connect timeout unless the address says otherwise); ``database=False`` leaves the
        database out.

        TLS as the address's ``ssl_mode`` says (the module's text). Without one, a unix socket
        connection goes without TLS (:data:`LOCAL_SOCKET`): it never leaves the machine, and
        PyMySQL, told nothing, builds a TLS context for every connection it opens (loading the
        system's certificates: about 45 ms of CPU each) to offer TLS to a server that may then
        run it over the socket. Over TCP, PyMySQL's own default stays."""
        out: dict[str, Any] = {
            "user": self.user,
            "password": self.password,
            "charset": "utf8mb4",
            "autocommit": True,
            "connect_timeout": 10.0,
            "init_command": f"SET time_zone = '{SESSION_TIME_ZONE}'",
        }
        out.update(self.timeouts)
        if self.unix_socket is not None:
            out["unix_socket"] = self.unix_socket
            if self.tls.mode is None:
                out.update(LOCAL_SOCKET)
        else:
            out["host"], out["port"] = self.host, self.port
        context = self.tls.context()
        if context is not None:
            out["ssl"] = context
        elif self.tls.mode == "disabled":
            out["ssl_disabled"] = True
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
        tls=_tls(query, error),
    )


def _tls(query: dict[str, str], error: type[MvddError]) -> Tls:
    """The TLS settings of an address's query, their files read once to find any fault now."""
    mode = query.get("ssl_mode")
    if mode is not None:
        mode = mode.lower()
        if mode not in SSL_MODES:
            raise error(f"ssl_mode is one of {', '.join(SSL_MODES)}, not {query['ssl_mode']!r}")
    tls = Tls(mode, query.get("ssl_ca"), query.get("ssl_cert"), query.get("ssl_key"))
    for name, path in tls.files:
        if not os.path.isfile(path) or not os.access(path, os.R_OK):
            raise error(f"{name}: {path!r} is not a file this process can read")
    if tls.key is not None and tls.cert is None:
        raise error("ssl_key is the key of a client certificate: name it with ssl_cert")
    if mode == "disabled" and tls.files:
        raise error(f"ssl_mode=disabled, yet {tls.files[0][0]} is given: TLS or not?")
    if mode == "required" and tls.ca is not None:
        raise error(
            "ssl_mode=required does not check the server's certificate: with ssl_ca, say "
            "ssl_mode=verify_ca (or leave ssl_mode out)"
        )
    if mode in (None, "preferred") and tls.files:
        mode = "verify_ca" if tls.ca is not None else "required"
        if query.get("ssl_mode") is not None:  # preferred, with files to trust or present
            raise error(
                f"ssl_mode=preferred does not check certificates nor present one: with "
                f"{tls.files[0][0]}, say ssl_mode={mode} (or leave ssl_mode out)"
            )
        tls = attrs.evolve(tls, mode=mode)
    try:
        tls.context()
    except (OSError, ssl.SSLError) as err:
        # which file: the reason names it for a missing one; a bad PEM says only what is wrong
        raise error(f"{tls.description}: {err}") from None
    return tls


__all__ = [
    "CONNECT_OPTIONS",
    "LOCAL_SOCKET",
    "SCHEMES",
    "SSL_MODES",
    "TLS_OPTIONS",
    "Address",
    "Tls",
    "parse_address",
]
