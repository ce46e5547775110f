"""The table of ``mvdd/model/uca.txt``, made from a server: for each UCA collation MariaDB has
(the pad ones: a ``_nopad`` twin weighs alike), the characters its rule in
:data:`mvdd.model.collation.UCA_RULES` does not weigh as the server does.

A character's rule is its key under the collation (``unaccented``: its compatibility
decomposition without marks, case-folded; ``folded``: the same with its marks). Where the server's
``WEIGHT_STRING`` of a character and of its rule's text differ, the character is an exception:
``folded`` (its key its case folding) where that weighs as the character does, else ``kept``
(its key itself). Each line after the first of a rule lists what differs from the line it
names, whichever of the lines before is nearest, so the file stays small::

    PYTHONPATH=. python -m tests.support.uca > mvdd/model/uca.txt

``tests/test_collations.py`` holds the file to the server: its collations (:data:`COLLATIONS`)
are :func:`mvdd.model.collation.uca_names`.
"""

from __future__ import annotations

import string
import sys
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any

from mvdd.model.collation import UCA_RULES, UcaTable

#: the languages of MariaDB's UCA collations: UCA 4.0.0's ``utf8mb4_<language>_ci`` (and
#: ``croatian_mysql561``, ``myanmar``), UCA 14.0.0's ``utf8mb4_uca1400_<language>_ai_ci``
#: and ``_as_ci``
LANGUAGES = (
    *("croatian", "czech", "danish", "esperanto", "estonian", "german2", "hungarian"),
    *("icelandic", "latvian", "lithuanian", "persian", "polish", "romanian", "roman"),
    *("sinhala", "slovak", "slovenian", "spanish2", "spanish", "swedish", "turkish"),
    "vietnamese",
)
#: every collation of the table (its name after the charset's), the roots first
COLLATIONS = (
    "uca1400_ai_ci",
    "uca1400_as_ci",
    "unicode_ci",
    "unicode_520_ci",
    "thai_520_w2",
    *(f"{language}_ci" for language in (*LANGUAGES, "croatian_mysql561", "myanmar")),
    *(f"uca1400_{language}_{accents}_ci" for language in LANGUAGES for accents in ("ai", "as")),
)
#: a batch of WEIGHT_STRINGs in one SELECT
BATCH = 500


def rule_of(collation: str) -> str:
    """The rule of a collation of the table: accent-sensitive ones fold case alone."""
    return "folded" if "_as_" in collation or collation.endswith("_w2") else "unaccented"


def characters() -> list[str]:
    """Every character Python's Unicode database knows (no surrogate, private use or
    unassigned one)."""
    return [
        chr(code)
        for code in range(0x110000)
        if unicodedata.category(chr(code)) not in ("Cn", "Co", "Cs")
    ]


def weights(cur: Any, collation: str, texts: Sequence[str]) -> list[bytes]:
    """The server's WEIGHT_STRING of each text under ``utf8mb4_<collation>``."""
    out: list[bytes] = []
    for i in range(0, len(texts), BATCH):
        part = texts[i : i + BATCH]
        cur.execute(
            "SELECT " + ", ".join(f"WEIGHT_STRING(%s COLLATE utf8mb4_{collation})" for _ in part),
            part,
        )
        out += cur.fetchone()
    return out


def exceptions(cur: Any, collation: str, chars: Iterable[str]) -> UcaTable:
    """The characters among ``chars`` that the collation's rule does not weigh as the
    server does (kept, folded), and its :func:`contractions`."""
    rule = rule_of(collation)
    changed = [c for c in chars if UCA_RULES[rule](c) != c]
    own = weights(cur, collation, changed)
    ruled = weights(cur, collation, [UCA_RULES[rule](c) for c in changed])
    odd = [c for c, mine, theirs in zip(changed, own, ruled, strict=True) if mine != theirs]
    cased = [c for c in odd if c.casefold() != c]
    pairs = zip(
        cased,
        weights(cur, collation, cased),
        weights(cur, collation, [c.casefold() for c in cased]),
        strict=True,
    )
    folded = {c for c, mine, theirs in pairs if mine == theirs}
    table = UcaTable(rule, frozenset(odd) - folded, frozenset(folded), frozenset())
    return table._replace(contractions=contractions(cur, collation, table))


#: U+034F COMBINING GRAPHEME JOINER: weighs nothing, and keeps the characters about it from
#: making a contraction
JOINER = "\u034f"


def contractions(cur: Any, collation: str, table: UcaTable) -> frozenset[str]:
    """The contractions of two and three letters the collation weighs as one (``ch`` under
    ``czech_ci``, ``dzs`` under ``hungarian_ci``): among the ASCII letters and the Latin ones
    the table holds, in each case, a pair or a contraction's pair and a letter that weigh
    otherwise with a joiner between them."""
    latin = {c for c in table.kept | table.folded if c.isalpha() and ord(c) < 0x250}
    letters = sorted(
        {*string.ascii_letters, *latin, *(c.upper() for c in latin), *(c.lower() for c in latin)}
    )
    letters = [c for c in letters if len(c) == 1]
    found: set[str] = set()
    heads = [*letters]
    for _ in (2, 3):  # (pairs, then a contraction's pair and a letter)
        texts = [head + c for head in heads for c in letters]
        joined = weights(cur, collation, [t[:-1] + JOINER + t[-1] for t in texts])
        whole = weights(cur, collation, texts)
        made = {t for t, a, b in zip(texts, whole, joined, strict=True) if a != b}
        found |= made
        heads = sorted(made)
        if not heads:
            break
    return frozenset(found)


def spans(chars: Iterable[str]) -> list[str]:
    """Code points as runs: ``0105``, ``00C0..00C5``."""
    codes = sorted(map(ord, chars))
    out: list[str] = []
    i = 0
    while i < len(codes):
        j = i
        while j + 1 < len(codes) and codes[j + 1] == codes[j] + 1:
            j += 1
        out.append(f"{codes[i]:04X}" if i == j else f"{codes[i]:04X}..{codes[j]:04X}")
        i = j + 1
    return out


def delta(table: UcaTable, base: UcaTable | None) -> list[str]:
    """The tokens that make ``table`` of ``base`` (of nothing: None)."""
    empty: frozenset[str] = frozenset()
    kept, folded, made = (
        (base.kept, base.folded, base.contractions) if base is not None else (empty,) * 3
    )
    return [
        *(f"+{s}" for s in spans(table.kept - kept)),
        *(f"-{s}" for s in spans(kept - table.kept)),
        *(f"f+{s}" for s in spans(table.folded - folded)),
        *(f"f-{s}" for s in spans(folded - table.folded)),
        *(f"c+{sequence(t)}" for t in sorted(table.contractions - made)),
        *(f"c-{sequence(t)}" for t in sorted(made - table.contractions)),
    ]


def sequence(text: str) -> str:
    """A contraction's characters as code points: ``0063.0068``."""
    return ".".join(f"{ord(c):04X}" for c in text)


def lines(tables: dict[str, UcaTable]) -> list[str]:
    """The file's lines of ``tables`` (in their order), each made of the nearest line before
    it of the same rule."""
    out: list[str] = []
    made: dict[str, UcaTable] = {}
    for name, table in tables.items():
        choices = [("-", delta(table, None))] + [
            (other, delta(table, before))
            for other, before in made.items()
            if before.rule == table.rule
        ]
        base, tokens = min(choices, key=lambda choice: len(" ".join(choice[1])))
        out.append(" ".join([name, table.rule, base, *tokens]))
        made[name] = table
    return out


HEADER = """\
# The UCA collations' exceptions to their rule (mvdd.model.collation.UCA_RULES), as MariaDB {version}
# weighs them (WEIGHT_STRING), over the characters of Unicode {unicode}: a line a collation (its
# name after the charset's; a _nopad twin weighs alike), its rule, the line it is made of (-:
# none), then the characters added to (+) and taken from (-) that line's: kept (their key is
# themselves), after f folded (their key is their case folding), after c the contractions
# (code points joined by a point) of Latin letters it weighs as one. Made by
# tests/support/uca.py; tests/test_collations.py holds it to the server."""


def main() -> None:
    from mvdd.replicate.sandbox import Sandbox

    chars = characters()
    sandbox = Sandbox().start()
    try:
        conn = sandbox.connect()
        with conn.cursor() as cur:
            cur.execute("SELECT VERSION()")
            (version,) = cur.fetchone()
            tables = {name: exceptions(cur, name, chars) for name in COLLATIONS}
        conn.close()
    finally:
        sandbox.stop()
    print(HEADER.format(version=version.split("-")[0], unicode=unicodedata.unidata_version))
    for line in lines(tables):
        print(line)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
