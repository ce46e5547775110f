"""TLS on every connection mvdd opens, against a real server that offers it: the address's
``ssl_mode`` honoured by PyMySQL's connections (the catalog's store, the binlog reader, the
downstream, the oracle) and by Spark's JDBC ones. The oracle is the server itself: accounts
created ``REQUIRE SSL`` and ``REQUIRE X509`` let in only connections that really run TLS (and
present a certificate), and its ``Ssl_cipher`` says what a session runs."""

from __future__ import annotations

import contextlib
import shutil
import ssl
import subprocess
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pymysql
import pytest

from mvdd import Catalog
from mvdd.binlog import BinlogReader
from mvdd.errors import MvddError, SourceConfigError, SourceLost, StoreError
from mvdd.replicate import Replicator
from mvdd.replicate.target import Target
from mvdd.replicate.verify import verify
from mvdd.store.address import parse_address
from mvdd.store.mysql import connection_lost, may_reconnect, tls_failure
from tests.conftest import missing, private_server
from tests.support.mariadb import MariaDB

pytestmark = pytest.mark.mariadb

PASSWORD = "tls-pa55"


def openssl(command: str, *args: str, cwd: Path) -> None:
    subprocess.run(["openssl", *command.split(), *args], cwd=cwd, check=True, capture_output=True)


def signed(folder: Path, name: str, subject: str, ca: str, names: str | None) -> None:
    """``name.pem`` and ``name-key.pem``: a certificate for ``subject`` signed by ``ca``."""
    key = f"-keyout {name}-key.pem -out {name}.csr"
    openssl(f"req -newkey rsa:2048 -nodes {key}", "-subj", subject, cwd=folder)
    extra = []
    if names is not None:
        (folder / f"{name}.cnf").write_text(f"subjectAltName={names}\n")
        extra = ["-extfile", f"{name}.cnf"]
    sign = f"-CA {ca}.pem -CAkey {ca}-key.pem -CAcreateserial -days 3650"
    openssl(f"x509 -req -in {name}.csr -out {name}.pem {sign}", *extra, cwd=folder)


def authority(folder: Path, name: str) -> None:
    key = f"-keyout {name}-key.pem -out {name}.pem"
    openssl(
        f"req -x509 -newkey rsa:2048 -nodes {key} -days 3650", "-subj", f"/CN={name}", cwd=folder
    )


@pytest.fixture(scope="module")
def certs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A test authority, the server's certificate (naming localhost), another naming only
    db.example, a client's, and an authority that signed none of them."""
    if shutil.which("openssl") is None:
        missing("openssl", "the tests make their certificates with it (Debian package openssl)")
    folder = tmp_path_factory.mktemp("certs")
    authority(folder, "ca")
    authority(folder, "other")
    signed(folder, "server", "/CN=localhost", "ca", "DNS:localhost,IP:127.0.0.1")
    signed(folder, "elsewhere", "/CN=db.example", "ca", "DNS:db.example")
    signed(folder, "client", "/CN=mvdd client", "ca", None)
    return folder


@pytest.fixture(scope="module")
def server(certs: Path) -> Iterator[MariaDB]:
    """A server with binary logs that offers TLS, with an account that needs it and one that
    needs a client certificate besides."""
    live = certs / "live"
    live.mkdir()
    for name in ("server.pem", "server-key.pem"):
        shutil.copy(certs / name, live / name)
    options = {
        "ssl-ca": certs / "ca.pem",
        "ssl-cert": live / "server.pem",
        "ssl-key": live / "server-key.pem",
    }
    with private_server(binlog=True, server_id=41, options=options) as found:
        found.execute(
            f"CREATE USER secure@localhost IDENTIFIED BY '{PASSWORD}' REQUIRE SSL",
            "GRANT ALL ON *.* TO secure@localhost",
            f"CREATE USER certified@localhost IDENTIFIED BY '{PASSWORD}' REQUIRE X509",
            "GRANT ALL ON *.* TO certified@localhost",
        )
        yield found


def url(server: MariaDB, database: str = "", *, user: str = "secure", **tls: Any) -> str:
    query = urllib.parse.urlencode({k: str(v) for k, v in tls.items()})
    base = server.url(database, user=user, password=None if user == "root" else PASSWORD)
    return f"{base}&{query}" if query else base


def cipher(address: str) -> str:
    """The cipher a connection to ``address`` runs ('' in the clear)."""
    options = parse_address(address).connect_options()
    with contextlib.closing(pymysql.connect(**options)) as conn, conn.cursor() as cur:
        cur.execute("SHOW SESSION STATUS LIKE 'Ssl_cipher'")
        return str(cur.fetchone()[1])


def refused_tls(address: str) -> BaseException:
    """The driver's error for a connection whose TLS is refused: never one to wait out."""
    with pytest.raises(pymysql.MySQLError) as info:
        cipher(address)
    err = info.value
    assert tls_failure(err) and not connection_lost(err) and not may_reconnect(err), err
    return err


@contextlib.contextmanager
def serving(server: MariaDB, certs: Path, name: str) -> Iterator[None]:
    """The server presents certificate ``name`` (``FLUSH SSL``), then its own again."""
    live = certs / "live"
    for suffix in (".pem", "-key.pem"):
        shutil.copy(certs / f"{name}{suffix}", live / f"server{suffix}")
    server.execute("FLUSH SSL")
    try:
        yield
    finally:
        for suffix in (".pem", "-key.pem"):
            shutil.copy(certs / f"server{suffix}", live / f"server{suffix}")
        server.execute("FLUSH SSL")


def test_each_mode_connects_as_it_says(server: MariaDB, certs: Path, mariadb: MariaDB) -> None:
    ca, other = certs / "ca.pem", certs / "other.pem"
    # in the clear: over a unix socket by default, and when disabled; the account refuses both
    for address in (url(server), url(server, ssl_mode="disabled")):
        with pytest.raises(pymysql.MySQLError) as info:
            cipher(address)
        assert info.value.args[0] == 1045 and not tls_failure(info.value)
    assert cipher(url(server, user="root")) == ""
    # TLS, the certificate unchecked, checked against the authority, and checked for the name
    modes: list[dict[str, Any]] = [
        {"ssl_mode": "preferred"},
        {"ssl_mode": "required"},
        {"ssl_mode": "verify_ca", "ssl_ca": ca},
        {"ssl_ca": ca},  # verify_ca by default
        {"ssl_mode": "verify_identity", "ssl_ca": ca},
    ]
    for tls in modes:
        assert cipher(url(server, **tls)), tls
    assert "CERTIFICATE_VERIFY_FAILED" in str(refused_tls(url(server, ssl_ca=other)))
    # a certificate that does not name the host: the authority's check passes, the name's fails
    with serving(server, certs, "elsewhere"):
        assert cipher(url(server, ssl_ca=ca))
        assert "localhost" in str(refused_tls(url(server, ssl_mode="verify_identity", ssl_ca=ca)))
    # a client certificate, for the account that wants one
    with pytest.raises(pymysql.MySQLError, match="denied"):
        cipher(url(server, user="certified", ssl_mode="required"))
    client: dict[str, Any] = {"ssl_cert": certs / "client.pem", "ssl_key": certs / "client-key.pem"}
    assert cipher(url(server, user="certified", **client))  # required by default
    assert cipher(url(server, user="certified", ssl_ca=ca, **client))
    # TLS required of a server without it: refused at once
    assert refused_tls(url(mariadb, user="root", ssl_mode="required")).args[0] == 2026


def test_bad_tls_settings_are_refused_when_the_address_is_read(certs: Path) -> None:
    base = "mysql://u@db.example/shop?"
    ca = certs / "ca.pem"
    for query, match in [
        ("ssl_mode=sometimes", "ssl_mode is one of disabled, preferred"),
        ("ssl_ca=/no/such/ca.pem", "ssl_ca: '/no/such/ca.pem' is not a file"),
        (f"ssl_ca={certs / 'server.csr'}", r"ssl_ca .*server\.csr: .*(CERTIFICATE|PEM)"),
        (f"ssl_key={certs / 'client-key.pem'}", "name it with ssl_cert"),
        (f"ssl_mode=disabled&ssl_ca={ca}", "ssl_mode=disabled, yet ssl_ca"),
        (f"ssl_mode=preferred&ssl_ca={ca}", "say ssl_mode=verify_ca"),
        (f"ssl_mode=required&ssl_ca={ca}", "does not check the server's certificate"),
        (f"ssl_cert={certs / 'client.pem'}&ssl_key={ca}", "ssl_cert .*client.pem"),
    ]:
        with pytest.raises(StoreError, match=match):
            Catalog.open(base + query, create=False)
    address = parse_address(f"mysql://u:secret@db.example/shop?ssl_ca={ca}")
    assert address.description == "mysql://u@db.example:3306 database shop (TLS verify_ca)"
    assert address.tls.mode == "verify_ca" and "secret" not in repr(address)
    # the same settings share one context, built once
    again = parse_address(f"mysql://v@db.example/other?ssl_ca={ca}")
    assert again.connect_options()["ssl"] is address.connect_options()["ssl"]


def test_a_tls_stream_cut_short_is_a_lost_connection() -> None:
    """A server going away in the middle of TLS ends the stream with an EOF: that is waited
    out; a certificate refused is not."""
    for cause, lost in [
        (ssl.SSLEOFError(8, "EOF occurred in violation of protocol"), True),
        (ssl.SSLZeroReturnError(6, "TLS/SSL connection has been closed"), True),
        (ssl.SSLCertVerificationError(1, "certificate verify failed"), False),
        (ssl.SSLError(1, "wrong version number"), False),
    ]:
        err = pymysql.err.OperationalError(2003, f"Can't connect to MySQL server ({cause})")
        err.original_exception = cause  # as PyMySQL's connect sets it
        assert tls_failure(err) is not lost and connection_lost(err) is lost, cause
        assert may_reconnect(err) is lost


def test_the_store_the_reader_and_the_downstream_run_tls(
    server: MariaDB, certs: Path, tmp_path: Path
) -> None:
    tls: dict[str, Any] = {"ssl_mode": "verify_identity", "ssl_ca": certs / "ca.pem"}
    server.execute("CREATE DATABASE tls_cat", "CREATE DATABASE tls_shop")
    with Catalog.open(url(server, "tls_cat", **tls)) as cat:
        cat.execute("CREATE TABLE t (a INT)")
        assert [c.name for c in cat.table("t").columns] == ["a"]
    with pytest.raises(StoreError, match="denied"):  # the same account in the clear
        Catalog.open(url(server, "tls_cat"))
    with pytest.raises(StoreError, match="CERTIFICATE_VERIFY_FAILED") as info:
        Catalog.open(url(server, "tls_cat", ssl_ca=certs / "other.pem"))
    assert "re-opened" not in str(info.value)  # not a connection to wait for
    # the binlog reader: its control and stream connections, through TLS
    with contextlib.closing(server.connect()) as conn, conn.cursor() as cur:
        cur.execute("SHOW MASTER STATUS")
        file, offset = cur.fetchone()[:2]
    server.execute(
        "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10))",
        "INSERT INTO t VALUES (1, 'through')",
        database="tls_shop",
    )
    reader = BinlogReader(
        url(server, **tls), tables="tls_shop.t", start=f"{file}:{offset}", catalog=Catalog()
    )
    rows = [e.row for e in reader.events() if e.kind == "insert"]
    assert rows == [{"id": 1, "v": "through"}]
    with pytest.raises(MvddError, match="CERTIFICATE_VERIFY_FAILED"):
        BinlogReader(url(server, ssl_ca=certs / "other.pem"), tables="tls_shop.t").check()
    target = Target(url(server, "tls_shop", **tls), "t")
    with target.cursor("a look") as cur:
        cur.execute("SHOW SESSION STATUS LIKE 'Ssl_cipher'")
        assert cur.fetchone()[1]
    target.close()


@pytest.mark.spark
def test_a_replicator_copies_and_follows_through_tls(
    server: MariaDB, certs: Path, tmp_path: Path, jdbc: list[str], spark: Any
) -> None:
    """The whole job: Spark's bulk copy over JDBC, the binlog, the downstream and the oracle,
    each through TLS for an account that has no other way in."""
    from mvdd.spark.jdbc import JdbcTlsError

    tls: dict[str, Any] = {"ssl_mode": "verify_identity", "ssl_ca": certs / "ca.pem"}
    server.execute("CREATE DATABASE tls_up", "CREATE DATABASE tls_dw")
    server.execute(
        "CREATE TABLE orders_01 (id BIGINT PRIMARY KEY, customer VARCHAR(20) NOT NULL)",
        *(f"INSERT INTO orders_01 VALUES ({i}, 'c{i}')" for i in range(1, 201)),
        database="tls_up",
    )
    up, down = url(server, **tls), url(server, "tls_dw", **tls)

    def replicator(source: str, state: str, target: str = "orders") -> Replicator:
        return Replicator(
            {"up": source},
            tables="tls_up.orders_*",
            target=target,
            downstream=down,
            state=str(tmp_path / state),
            bulk="spark",
        )

    replicator(up, "state").run()
    server.execute(
        "INSERT INTO orders_01 VALUES (500, 'after')",
        "ALTER TABLE orders_01 ADD COLUMN note VARCHAR(10) NULL",
        "UPDATE orders_01 SET note = 'tls' WHERE id = 7",
        database="tls_up",
    )
    r = replicator(up, "state")
    r.run()
    verdict = verify(r.group, {"up": up}, down, "orders")
    assert verdict.ok, verdict.differences
    assert verdict.rows == {"up/tls_up.orders_01": 201}
    # refused TLS, and a login refused for want of it, are told from a server away
    from mvdd.model import Column, ColumnType
    from mvdd.spark import bulk

    key = [Column(id=1, name="id", type=ColumnType.of("bigint"))]
    for address in (url(server, ssl_ca=certs / "other.pem"), url(server)):
        with pytest.raises(Exception) as refused:
            bulk.read(
                spark, parse_address(address), ("tls_up", "orders_01"), key, ["1 = 1"]
            ).collect()
        assert bulk.connection_lost(refused.value) is None, refused.value
    # preferred: PyMySQL's connections run TLS, Spark's go in the clear, which the account
    # refuses: the copy stops at once, naming the shard, instead of waiting for a server
    with pytest.raises(SourceConfigError, match=r"refused a connection: .*Access denied") as info:
        replicator(url(server, ssl_mode="preferred"), "state3", "preferred").run()
    assert not isinstance(info.value, SourceLost) and info.value.shard == "up/tls_up.orders_01"
    # Connector/J 2 takes no PEM client certificate: refused before any copy
    client: dict[str, Any] = {"ssl_cert": certs / "client.pem", "ssl_key": certs / "client-key.pem"}
    with pytest.raises(JdbcTlsError, match="keystore"):
        replicator(url(server, user="certified", **client), "state2", "copy").run()
