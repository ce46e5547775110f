"""Output folders a command writes whole and replaces on its next run (``mvdd tour``,
``replay`` and ``demo``).

A command replaces a folder only when the folder holds nothing but what that command writes
there (a missing or empty folder included). Any other folder — the user's home, the input
logs, a project checkout given by a slip of the keyboard — is refused with a
:class:`~mvdd.errors.CatalogError` naming what it holds, and not a file of it is touched. The
rule needs no marker file, so a folder a run left half-written (killed while it wrote, or while
it removed the last run's files) is still one the next run replaces.

>>> import tempfile, pathlib
>>> base = pathlib.Path(tempfile.mkdtemp())
>>> (base / "notes.txt").write_text("mine")
4
>>> replace_folder(base, {"report.md"}, "mvdd replay")
Traceback (most recent call last):
    ...
mvdd.errors.CatalogError: mvdd replay replaces its output folder, and ... holds what it
does not write ('notes.txt'): give a new or empty folder, or one an earlier run of it wrote
>>> (base / "notes.txt").read_text()
'mine'
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Collection
from pathlib import Path

from mvdd.errors import CatalogError, StoreError

#: a file written whole beside its final name, then renamed over it: ``.NAME.<32 hex digits>``
_TEMPORARY = re.compile(r"\.(?P<name>.+)\.[0-9a-f]{32}")


def foreign_entries(folder: Path, writes: Collection[str]) -> list[str]:
    """The names at the top of ``folder`` (none when it is missing) that are neither one of
    ``writes`` nor the temporary of one (``.NAME.<32 hex digits>``, as an atomic write of NAME
    leaves it when killed), sorted."""
    if not folder.exists():
        return []
    return sorted(
        name
        for name in (p.name for p in folder.iterdir())
        if name not in writes
        and not ((m := _TEMPORARY.fullmatch(name)) is not None and m["name"] in writes)
    )


def listed(names: list[str]) -> str:
    """The first five names, quoted, for an error message."""
    return ", ".join(map(repr, names[:5])) + (", …" if len(names) > 5 else "")


def replace_folder(path: str | os.PathLike[str], writes: Collection[str], what: str) -> Path:
    """Empty ``path`` (made if missing) for a new run of ``what``, which writes the entries
    named ``writes`` at its top. CatalogError, and nothing removed, when the path is a file or
    holds anything else."""
    folder = Path(path)
    try:
        if folder.exists() and not folder.is_dir():
            raise CatalogError(f"{what} writes a folder, and {str(folder)!r} is a file")
        foreign = foreign_entries(folder, writes)
        if foreign:
            raise CatalogError(
                f"{what} replaces its output folder, and {str(folder)!r} holds what it does not "
                f"write ({listed(foreign)}): give a new or empty folder, or one an earlier run of "
                "it wrote"
            )
        for entry in list(folder.iterdir()) if folder.exists() else []:
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry)
            else:
                entry.unlink()
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise StoreError(f"{what} cannot prepare its output folder {str(folder)!r}: {err}") from err
    return folder


__all__ = ["foreign_entries", "listed", "replace_folder"]
