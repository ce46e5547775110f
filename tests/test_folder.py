"""Output folders: a command replaces a folder holding only what it writes, and refuses any
other untouched (checked against the file tree itself, before and after)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mvdd import CatalogError, StoreError
from mvdd.store.folder import replace_folder

WRITES = {"report.md", "state", "catalog.db"}


def tree(root: Path) -> dict[str, bytes | None]:
    """Every path under ``root`` (links not followed) and a file's bytes."""
    out: dict[str, bytes | None] = {}
    for dirpath, dirs, files in os.walk(root):
        for name in dirs + files:
            path = Path(dirpath) / name
            rel = str(path.relative_to(root))
            out[rel] = path.read_bytes() if path.is_file() and not path.is_symlink() else None
    return out


def test_a_folder_of_its_own_output_is_emptied(tmp_path: Path) -> None:
    out = tmp_path / "out"
    (out / "state" / "deep").mkdir(parents=True)
    (out / "state" / "deep" / "x").write_text("old")
    (out / "report.md").write_text("old")
    assert replace_folder(out, WRITES, "mvdd test") == out
    assert tree(out) == {}
    # missing (its parents too), and empty
    assert replace_folder(tmp_path / "a" / "b", WRITES, "mvdd test").is_dir()
    assert tree(replace_folder(out, WRITES, "mvdd test")) == {}


def test_a_half_removed_or_half_written_folder_is_still_replaced(tmp_path: Path) -> None:
    """A run killed while it wrote (only some outputs there) or while the last run's files
    were removed leaves a folder the next run replaces: there is no marker to lose."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "catalog.db").write_bytes(b"partial")
    (out / f".report.md.{'a1' * 16}").write_text("an atomic write, cut short")
    replace_folder(out, WRITES, "mvdd test")
    assert tree(out) == {}
    # a name like a temporary, but of nothing the command writes, is someone else's
    (out / f".notes.{'a1' * 16}").write_text("mine")
    with pytest.raises(CatalogError, match=r"\.notes\."):
        replace_folder(out, WRITES, "mvdd test")


@pytest.mark.parametrize(
    "foreign",
    [["notes.txt"], ["report.md", ".git"], ["a", "b", "c", "d", "e", "f", "state"]],
)
def test_any_other_folder_is_refused_untouched(tmp_path: Path, foreign: list[str]) -> None:
    out = tmp_path / "home"
    out.mkdir()
    for name in foreign:
        (out / name).write_text(name)
    before = tree(tmp_path)
    others = sorted(n for n in foreign if n not in WRITES)
    with pytest.raises(CatalogError, match=f"mvdd test replaces .*{others[0]!r}") as caught:
        replace_folder(out, WRITES, "mvdd test")
    assert str(out) in str(caught.value)
    assert ("…" in str(caught.value)) == (len(others) > 5)
    assert tree(tmp_path) == before


def test_a_file_is_refused_and_a_link_is_not_followed(tmp_path: Path) -> None:
    path = tmp_path / "report"
    path.write_text("mine")
    with pytest.raises(CatalogError, match="is a file"):
        replace_folder(path, WRITES, "mvdd test")
    assert path.read_text() == "mine"
    # an output entry that is a link to the user's folder: the link goes, the folder stays
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "keep").write_text("keep")
    out = tmp_path / "out"
    out.mkdir()
    (out / "state").symlink_to(mine, target_is_directory=True)
    replace_folder(out, WRITES, "mvdd test")
    assert tree(out) == {} and (mine / "keep").read_text() == "keep"


def test_a_folder_it_cannot_make_is_a_store_error(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("mine")
    with pytest.raises(StoreError, match=r"cannot prepare its output folder .*file/out"):
        replace_folder(tmp_path / "file" / "out", WRITES, "mvdd test")
    assert (tmp_path / "file").read_text() == "mine"
