"""Script benchmark: reading a dump, as ``Catalog.execute`` reads a script.

A text of the shape ``mariadb-dump --routines --triggers`` writes (session settings in
executable comments, each table's DROP / CREATE, its rows in extended INSERTs under LOCK TABLES
and DISABLE KEYS, a trigger between DELIMITER commands), most of it rows, read whole by a
replica's catalog that skips what is no DDL of a table, against the dialect's tokenizer over
the whole text: what a reader that splits such a text by its tokens does before it reads a
statement (mvdd did, up to 09beed1; it now finds where the statements of no DDL end by a
search for quotes and semicolons and tokenizes their first word alone). Beside it, the same
dump's bytes written as ``--default-character-set=latin1`` writes them (``SET NAMES latin1``,
its rows' text in latin1), read as ``mvdd load`` reads a file (each statement in the client
charset of its moment), against the text.

Prints the figures and the ratio, and writes ``benchmarks/results/script_bench.json``.

    python benchmarks/script_bench.py [--quick]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import banner, machine, write
from mvdd import Catalog
from mvdd.ddl.dialect import DIALECT

HEAD = """/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;
/*!40101 SET NAMES utf8mb4 */;
/*!40103 SET @OLD_TIME_ZONE=@@TIME_ZONE */;
/*!40103 SET TIME_ZONE='+00:00' */;
/*!40014 SET @OLD_UNIQUE_CHECKS=@@UNIQUE_CHECKS, UNIQUE_CHECKS=0 */;
/*!40101 SET @OLD_SQL_MODE=@@SQL_MODE, SQL_MODE='NO_AUTO_VALUE_ON_ZERO' */;
"""


def dump(tables: int, rows: int, per_insert: int = 500) -> str:
    """A dump of ``tables`` tables of ``rows`` rows each."""
    out = [HEAD]
    for t in range(tables):
        name = f"t{t}"
        out.append(
            f"--\n-- Table structure for table `{name}`\n--\n\n"
            f"DROP TABLE IF EXISTS `{name}`;\n"
            "/*!40101 SET @saved_cs_client     = @@character_set_client */;\n"
            f"CREATE TABLE `{name}` (\n  `id` int(11) NOT NULL,\n"
            "  `note` varchar(40) DEFAULT NULL,\n  `at` datetime DEFAULT NULL,\n"
            "  `amount` decimal(10,2) NOT NULL DEFAULT 0.00,\n  PRIMARY KEY (`id`),\n"
            "  KEY `at` (`at`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 "
            "COLLATE=utf8mb4_general_ci;\n"
            "/*!40101 SET character_set_client = @saved_cs_client */;\n\n"
            f"LOCK TABLES `{name}` WRITE;\n/*!40000 ALTER TABLE `{name}` DISABLE KEYS */;\n"
        )
        for start in range(0, rows, per_insert):
            values = ",".join(
                f"({i},'rów {i}; it''s \\\\ a \\'note\\'','2024-01-01 00:00:{i % 60:02d}',{i}.50)"
                for i in range(start, min(rows, start + per_insert))
            )
            out.append(f"INSERT INTO `{name}` VALUES {values};\n")
        out.append(f"/*!40000 ALTER TABLE `{name}` ENABLE KEYS */;\nUNLOCK TABLES;\n")
        out.append(
            "DELIMITER ;;\n/*!50003 CREATE*/ /*!50017 DEFINER=`root`@`localhost`*/ "
            f"/*!50003 TRIGGER `{name}_bi` BEFORE INSERT ON `{name}` FOR EACH ROW BEGIN "
            "IF NEW.amount < 0 THEN SET NEW.amount = 0; END IF; END */;;\nDELIMITER ;\n"
        )
    out.append("/*!40103 SET TIME_ZONE=@OLD_TIME_ZONE */;\n")
    return "".join(out)


def best(fn: Any, repeat: int) -> float:
    """The best seconds of ``repeat`` calls of ``fn``."""
    took = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        took = min(took, time.perf_counter() - start)
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smaller dump, one round")
    args = parser.parse_args()
    info = machine()
    banner("script", info)
    tables, rows, repeat = (4, 2_000, 1) if args.quick else (20, 10_000, 3)
    text = dump(tables, rows)

    latin1 = text.replace("SET NAMES utf8mb4", "SET NAMES latin1").encode("latin1")

    def read(data: str | bytes = text) -> None:
        cat = Catalog(
            replica=True,
            flavor="mariadb",
            charset="utf8mb4",
            collation="utf8mb4_general_ci",
            on_unsupported="skip",
        )
        cat.execute(data, database="d")
        assert len(cat.tables()) == tables

    ours = best(read, repeat)
    floor = best(lambda: DIALECT.tokenize(text), repeat)
    from_bytes = best(lambda: read(latin1), repeat)
    mb = len(text.encode()) / 1e6
    results = {
        **info,
        "tables": tables,
        "rows": tables * rows,
        "megabytes": mb,
        "execute_s": ours,
        "tokenize_s": floor,
        "execute_mb_per_s": mb / ours,
        "execute_vs_tokenize": ours / floor,
        "latin1_bytes_s": from_bytes,
        "latin1_bytes_vs_text": from_bytes / ours,
    }
    print(
        f"a dump of {tables} tables, {tables * rows:,} rows, {mb:.1f} MB: read by a catalog in "
        f"{ours:.2f} s ({mb / ours:.1f} MB/s); the whole text's tokens {floor:.2f} s: "
        f"{ours / floor:.2f}x; its latin1 bytes read statement by statement {from_bytes:.2f} s: "
        f"{from_bytes / ours:.2f}x the text"
    )
    write("script_bench", results)


if __name__ == "__main__":
    main()
