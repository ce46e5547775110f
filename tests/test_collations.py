"""Collation keys (:mod:`mvdd.model.collation`) against the server's weights (its
``WEIGHT_STRING``): where mvdd does not hold a collation's every weight, its key never makes
one what the server keeps apart, so a catalog never refuses as duplicates the ENUM or SET
members its server took (a replica would stop on them); and the UCA table ``uca.txt`` is the
server's."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import Any

import pytest

from mvdd import Catalog
from mvdd.errors import DDLError
from mvdd.model.charsets import CHARSETS
from mvdd.model.collation import UCA_RULES, collation_key, uca_table
from mvdd.model.encoding import holds, python_codec
from tests.support import uca

pytestmark = pytest.mark.mariadb

#: texts that collations weigh apart or alike: cases, accents that are letters of their own in
#: some languages, Cyrillic, Greek and kana, full-width forms, ligatures and the letters some
#: collations read as two, a character beyond the BMP and its mathematical twin
POOL = list(
    dict.fromkeys(
        [
            *"aAbBcCiIıİsSzZeEoOuUyY",
            *"áàäâåąćčçęėéèëłńñóöőøśšşţüűžźżæœðþÿ",
            *"αΑάеёЕЁйиЙўЎїЇ",
            *"かカｶがガｷ",
            *("Ａ", "ａ", "一", "中", "ﬁ", "ǆ", "ǅ", "Ǆ", "ĳ", "ß", "ẞ", "ſ", "😀", "😁", "𝐀"),
            *("ae", "AE", "ss", "SS", "ch", "Ch", "cH", "ll", "oe", "ue", "aa", "dz", "fi", "ij"),
            *("th", "a-b", "ab", "a b", "'", "-", "_", "й", "и", "LL", "lL", "Ll", "cch"),
            *("dz", "DZ", "Dz", "dZ", "dzs", "dž", "Dž", "DŽ", "dŽ", "lj", "Lj", "lJ", "nj"),
            *("cs", "gy", "ly", "ny", "sz", "ty", "zs", "\uffffch", "\uffff"),
        ]
    )
)


def _collations(cur: Any) -> list[tuple[str, str]]:
    """Every collation of the server with a charset Python can write: (name, charset), the
    charset-free UCA 14.0.0 ones under utf8mb4."""
    cur.execute("SELECT COLLATION_NAME, CHARACTER_SET_NAME FROM information_schema.COLLATIONS")
    out = []
    for name, charset in sorted(cur.fetchall()):
        if charset is None:
            name, charset = f"utf8mb4_{name}", "utf8mb4"
        if charset != "binary" and python_codec(charset) is not None:
            out.append((name, charset))
    return out


def _writable(texts: Sequence[str], charset: str) -> list[str]:
    """The texts ``charset`` writes, each as itself."""
    codec = python_codec(charset)
    assert codec is not None
    out = []
    for text in texts:
        try:
            if holds(charset, text) and text.encode(codec).decode(codec) == text:
                out.append(text)
        except UnicodeError:
            continue
    return out


def _weights(cur: Any, collation: str, charset: str, texts: Sequence[str]) -> list[bytes]:
    out: list[bytes] = []
    for i in range(0, len(texts), uca.BATCH):
        part = texts[i : i + uca.BATCH]
        cur.execute(
            "SELECT "
            + ", ".join(
                f"WEIGHT_STRING(CONVERT(%s USING {charset}) COLLATE {collation})" for _ in part
            ),
            part,
        )
        out += cur.fetchone()
    return out


def test_a_key_never_makes_one_what_the_server_keeps_apart(mdb: Any) -> None:
    """Every collation of the server, every pair of the pool's texts its charset can write:
    two that mvdd's key makes one weigh alike on the server. (The other way round, the key
    may keep apart what the server makes one, where mvdd does not hold its weights.) A key
    that reads accents away under every UCA collation, as mvdd's did, makes 2,600 pairs one
    that the server keeps apart (``ą`` and ``a`` under ``utf8mb4_polish_ci``, ``й`` and
    ``и`` under ``utf8mb4_unicode_ci``); one that folds every case under the Asian
    charsets, ``Ａ`` and ``ａ`` under ``sjis_japanese_ci``."""
    wrong: list[tuple[str, str, str]] = []
    checked = 0
    with mdb.cursor() as cur:
        for collation, charset in _collations(cur):
            texts = _writable(POOL, charset)
            theirs = _weights(cur, collation, charset, texts)
            key = collation_key(collation)
            mine = [key(text) for text in texts]
            for i, j in itertools.combinations(range(len(texts)), 2):
                if mine[i] == mine[j] and theirs[i] != theirs[j]:
                    wrong.append((collation, texts[i], texts[j]))
            checked += 1
    assert checked >= 450
    assert not wrong, wrong[:20]


def test_each_characters_uca_key_weighs_as_the_character(mdb: Any) -> None:
    """Each UCA collation of the table, on a sample of the characters its rule changes and of
    those the table holds: the server weighs a character's key as the character; and each
    character the table holds is one the rule misses (its rule's text weighs otherwise), so
    the table is the server's and no larger."""
    rng = random.Random(20261203)
    chars = uca.characters()
    changed = {name: [c for c in chars if rule(c) != c] for name, rule in UCA_RULES.items()}
    wrong: list[tuple[str, str, str]] = []
    with mdb.cursor() as cur:
        for name in uca.COLLATIONS:
            table = uca_table(name)
            assert table is not None, name
            held = sorted(table.kept | table.folded)
            sample = rng.sample(changed[table.rule], 300) + rng.sample(held, min(len(held), 200))
            collation = f"utf8mb4_{name}"
            key = collation_key(collation)
            own = _weights(cur, collation, "utf8mb4", sample)
            keyed = _weights(cur, collation, "utf8mb4", [key(c) for c in sample])
            ruled = _weights(cur, collation, "utf8mb4", [UCA_RULES[table.rule](c) for c in sample])
            for char, mine, by_key, by_rule in zip(sample, own, keyed, ruled, strict=True):
                if mine != by_key:
                    wrong.append((name, char, "its key weighs otherwise"))
                if (char in table.kept or char in table.folded) and mine == by_rule:
                    wrong.append((name, char, "held, but its rule weighs as it does"))
    assert not wrong, wrong[:20]


#: the charsets of the multibyte Asian collations whose keys fold ASCII letters alone
ASIAN = ("big5", "cp932", "eucjpms", "euckr", "gb2312", "gbk", "sjis", "ujis")


def _partitions(
    texts: Sequence[str], theirs: Sequence[bytes], key: Any
) -> tuple[list[list[str]], list[list[str]]]:
    """The texts grouped as the server's weights make them one, and as the key does."""
    server: dict[bytes, list[str]] = {}
    ours: dict[str, list[str]] = {}
    for text, weight in zip(texts, theirs, strict=True):
        server.setdefault(weight, []).append(text)
        ours.setdefault(key(text), []).append(text)
    return sorted(map(sorted, server.values())), sorted(map(sorted, ours.values()))


def test_the_asian_and_german2_collations_weigh_as_on_the_server(mdb: Any) -> None:
    """Under the ``_ci`` collations of the multibyte Asian charsets, ASCII and a sample of each
    charset's characters (its two-byte ones read from their bytes); under
    ``latin1_german2_ci``, its every character and the pairs of letters its umlauts weigh
    as: texts weigh alike exactly where mvdd's key makes them one (big5's collations, which
    weigh some characters of other scripts alike, only where the key makes them one)."""
    rng = random.Random(7)
    checked = 0
    with mdb.cursor() as cur:
        for collation, charset in _collations(cur):
            if collation == "latin1_german2_ci":
                codec = python_codec(charset)
                assert codec is not None
                chars = {bytes([b]).decode(codec, "replace") for b in range(256)}
                pool = [*sorted(chars - {"\ufffd"}), "ae", "AE", "oe", "ue", "ss", "SS", "ß"]
            elif charset in ASIAN and not collation.endswith("_bin"):
                codec = python_codec(charset)
                assert codec is not None and CHARSETS[charset][1] >= 2
                read = set()
                for first, second in itertools.product(range(0x81, 0xFF), range(0x40, 0xFF)):
                    try:
                        read.add(bytes([first, second]).decode(codec))
                    except UnicodeDecodeError:
                        continue
                pool = [chr(c) for c in range(0x20, 0x7F)] + rng.sample(sorted(read), 600)
            else:
                continue
            texts = _writable(pool, charset)
            server, ours = _partitions(
                texts, _weights(cur, collation, charset, texts), collation_key(collation)
            )
            if charset == "big5":
                # every group of the key's lies within one of the server's
                of = {text: group for group in server for text in group}
                assert all(set(group) <= set(of[group[0]]) for group in ours), collation
            else:
                assert ours == server, collation
            checked += 1
    assert checked >= 17


#: (statement, refused): ENUM members under the collations whose weights mvdd reads from the
#: server's table, and DEFAULTs that are one of them there, on a catalog and on the server alike
MEMBERS = [
    ("CREATE TABLE t (a ENUM('a','ą') COLLATE utf8mb4_polish_ci)", False),
    ("CREATE TABLE t (a ENUM('x','ą') COLLATE utf8mb4_polish_ci DEFAULT 'Ą')", False),
    ("CREATE TABLE t (a ENUM('a','á') COLLATE utf8mb4_polish_ci)", True),
    ("CREATE TABLE t (a ENUM('и','й') COLLATE utf8mb4_unicode_ci)", False),
    ("CREATE TABLE t (a ENUM('и','й') COLLATE utf8mb4_unicode_ci DEFAULT 'Й')", False),
    ("CREATE TABLE t (a ENUM('a','á') COLLATE utf8mb4_unicode_ci)", True),
    ("CREATE TABLE t (a ENUM('i','I') COLLATE utf8mb4_turkish_ci)", False),
    ("CREATE TABLE t (a ENUM('i','İ') COLLATE utf8mb4_turkish_ci)", True),
    ("CREATE TABLE t (a ENUM('a','á') COLLATE utf8mb4_uca1400_as_ci)", False),
    ("CREATE TABLE t (a ENUM('a','Ａ') COLLATE utf8mb4_uca1400_as_ci)", True),
    ("CREATE TABLE t (a SET('o','ö') COLLATE utf8mb4_swedish_ci DEFAULT 'Ö,o')", False),
    ("CREATE TABLE t (a ENUM('Ａ','ａ') CHARACTER SET sjis)", False),
    ("CREATE TABLE t (a ENUM('A','a') CHARACTER SET gbk)", True),
]


@pytest.mark.parametrize(("sql", "refused"), MEMBERS)
def test_members_under_the_server_read_collations_are_one_as_on_the_server(
    mdb: Any, sql: str, refused: bool
) -> None:
    """Each statement, on the server and on a catalog of mvdd's rules and a replica's: taken
    by all or refused by all (the servers' 1291 and 1067), and taken, the DEFAULT the member
    the server shows."""
    with mdb.cursor() as cur:
        cur.execute("DROP TABLE IF EXISTS t")
        try:
            cur.execute(sql)
        except Exception as err:
            assert refused, (sql, err)
            server = None
        else:
            assert not refused, sql
            cur.execute(
                "SELECT COLUMN_DEFAULT FROM information_schema.COLUMNS WHERE TABLE_NAME = 't'"
            )
            (server,) = cur.fetchone()
    for cat in (
        Catalog(charset="utf8mb4", collation="utf8mb4_general_ci"),
        Catalog(replica=True, flavor="mariadb", charset="utf8mb4", collation="utf8mb4_general_ci"),
    ):
        if refused:
            with pytest.raises(DDLError):
                cat.execute(sql)
            continue
        cat.execute(sql)
        default = cat.table("t").column("a").default
        ours = f"'{default}'" if isinstance(default, str) else None  # (NULL, or none)
        assert (None if server in (None, "NULL") else server) == ours, sql
