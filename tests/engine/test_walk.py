"""The walk: a file looked up by its name in its open folder gives the row its whole path gives.

The fast path (``walk._opened`` and the name's ``stat`` in ``walk._file_entry``) is held to
the plain one, which finds each file by its whole path, over random folders of articles,
other files, hidden and tool folders, links of every kind and FIFOs.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simdup_gui.engine.read import walk as walk_module
from simdup_gui.engine.read.walk import Entry, walk

POSIX = sys.platform != "win32"
STAT_BY_NAME = os.stat in os.supports_dir_fd  # Windows has none (nor SIMDUP_POSIXLESS)
KINDS = (
    "article",  # a regular file of an article type
    "other",  # a regular file of another type
    "hidden",  # a hidden article file
    "folder",  # a folder (its files are drawn into it)
    "tool folder",  # skipped, as node_modules is
    "link in",  # a link to an article of the folder
    "link out",  # a link to an article outside it
    "dangling",  # a link to nothing
    "folder link",  # a link to a folder, named as an article
    "fifo",  # a FIFO named as an article
    "folder named as an article",
)
ITEMS = st.lists(
    st.tuples(st.sampled_from(KINDS), st.integers(0, 3), st.integers(0, 2_000)), max_size=24
)


def _make(root: Path, outside: Path, items: list[tuple[str, int, int]]) -> None:
    """A folder tree from drawn items: (kind, which folder it goes in, a size)."""
    places = [root]
    target = outside / "elsewhere.txt"
    target.write_text("elsewhere", encoding="utf-8")
    for n, (kind, where, size) in enumerate(items):
        place = places[where % len(places)]
        name = f"item{n:02}"
        if kind == "article":
            (place / f"{name}.txt").write_bytes(b"x" * size)
            os.utime(place / f"{name}.txt", ns=(size * 10**9, size * 10**9 + n))
        elif kind == "other":
            (place / f"{name}.jpg").write_bytes(b"\xff" * size)
        elif kind == "hidden":
            (place / f".{name}.txt").write_text("hidden", encoding="utf-8")
        elif kind in ("folder", "tool folder"):
            folder = place / (name if kind == "folder" else "node_modules")
            if not folder.exists():
                folder.mkdir()
                (folder / "inside.md").write_text("inside", encoding="utf-8")
                places.append(folder)
        elif kind == "link in":
            articles = sorted(place.glob("*.txt"))
            (place / f"{name}.txt").symlink_to(articles[0] if articles else target)
        elif kind == "link out":
            (place / f"{name}.html").symlink_to(target)
        elif kind == "dangling":
            (place / f"{name}.md").symlink_to(place / "nothing-here.txt")
        elif kind == "folder link":
            (place / f"{name}.txt").symlink_to(outside, target_is_directory=True)
        elif kind == "fifo":
            os.mkfifo(place / f"{name}.txt")
        else:
            (place / f"{name}.html").mkdir()


@contextlib.contextmanager
def _not_opened(folder: str) -> Iterator[None]:
    """The plain walk's folder: never opened, so each file is found by its whole path."""
    yield None


def _walked(root: Path) -> tuple[list[Entry], list[str], Counter[str]]:
    skipped: list[str] = []
    other_types: Counter[str] = Counter()
    entries = list(walk(str(root), skipped=skipped, other_types=other_types))
    return entries, skipped, other_types


@pytest.mark.skipif(not POSIX, reason="links and FIFOs as POSIX makes them")
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(items=ITEMS)
def test_a_file_found_by_name_gives_the_row_its_whole_path_gives(
    items: list[tuple[str, int, int]],
) -> None:
    with tempfile.TemporaryDirectory() as temp:
        root, outside = Path(temp) / "articles", Path(temp) / "outside"
        root.mkdir()
        outside.mkdir()
        _make(root, outside, items)
        fast = _walked(root)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(walk_module, "_opened", _not_opened)
            plain = _walked(root)
        assert fast == plain
        for entry in fast[0]:
            if not entry.error:
                info = os.stat(entry.path)
                assert (entry.size, entry.mtime_ns) == (info.st_size, info.st_mtime_ns)


@pytest.mark.skipif(not STAT_BY_NAME, reason="no stat by name in an open folder here")
def test_regular_files_are_found_by_name_in_their_open_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every regular article takes the short lookup; a link still takes its whole path's."""
    for n in range(5):
        (tmp_path / f"a{n}.txt").write_text("article", encoding="utf-8")
    (tmp_path / "link.txt").symlink_to(tmp_path / "a0.txt")
    by_name = []
    stat = os.stat

    def counting(
        path: str, *, dir_fd: int | None = None, follow_symlinks: bool = True
    ) -> os.stat_result:
        if dir_fd is not None:
            by_name.append(path)
        return stat(path, dir_fd=dir_fd, follow_symlinks=follow_symlinks)

    monkeypatch.setattr(walk_module.os, "stat", counting)
    entries = list(walk(str(tmp_path)))
    assert sorted(by_name) == [f"a{n}.txt" for n in range(5)]
    assert [Path(e.path).name for e in entries if not e.error] == [f"a{n}.txt" for n in range(5)]


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="open files listed in /proc")
def test_a_walk_stopped_early_leaves_no_folder_open(tmp_path: Path) -> None:
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "x.txt").write_text("article", encoding="utf-8")
    before = len(os.listdir("/proc/self/fd"))
    files = walk(str(tmp_path))
    next(files)  # a folder is open here
    files.close()
    del files
    assert len(os.listdir("/proc/self/fd")) == before
