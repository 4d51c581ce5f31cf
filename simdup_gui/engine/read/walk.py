"""Find the article files under a folder without following links or opening special files.

Symbolic links are never read: a link to a file is a row that names its target (a file of the
folder is read where it is, so a link is never its own target's duplicate, nor a reference,
nor moved; a file outside the folder is not the folder's), and a link to a folder is not
followed (so a link loop never hangs the walk). Hidden folders (``.git``, ``.svn`` …) and tool
folders (``node_modules`` …) are skipped and counted. Anything that matches the article
extensions but cannot be read as a regular file (a FIFO, a device, a socket, a dangling link)
is reported, never opened.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from operator import attrgetter
from typing import NamedTuple

DEFAULT_EXTENSIONS = (  # article formats: plain text and its markups, HTML, documents
    ".txt",
    ".text",
    ".md",
    ".markdown",
    ".rst",
    ".adoc",
    ".htm",
    ".html",
    ".xhtml",
    ".xml",
    ".docx",
    ".pdf",
    ".odt",
    ".epub",
    ".rtf",
    ".doc",  # old binary Word and WPS: a row saying to save them as .docx
    ".wps",
)
SKIPPED_FOLDERS = frozenset(
    {"__pycache__", "node_modules", "$RECYCLE.BIN", "System Volume Information"}
)


# A file's size and time are looked up by its name in its open folder where the system can
# (POSIX): a shorter lookup than the whole path's (10,130 files walked in 43 ms, not 51).
_STAT_BY_NAME = os.stat in os.supports_dir_fd and os.stat in os.supports_follow_symlinks

LINK = "symbolic link to "  # how a link's row starts: a link is not an error, and never read


def is_link(error: str) -> bool:
    """Whether a record's error says it is a symbolic link to a file (see :data:`LINK`)."""
    return error.startswith(LINK)


class Entry(NamedTuple):
    """A candidate article file, or a path that looked like one but cannot be read."""

    path: str
    size: int = 0
    mtime_ns: int = 0
    error: str = ""


def unchanged(path: str, size: int, mtime_ns: int) -> bool:
    """Whether the file at ``path`` still has this size and time (False: changed, or gone)."""
    try:
        info = os.stat(path)
    except OSError:
        return False
    return (info.st_size, info.st_mtime_ns) == (size, mtime_ns)


def display_path(path: str) -> str:
    r"""A path printable as UTF-8: bytes that are not UTF-8 are shown as ``\xNN``."""
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def _special_kind(mode: int) -> str:
    for test, name in (
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "not a regular file"


def walk(
    root: str,
    extensions: tuple[str, ...] = DEFAULT_EXTENSIONS,
    *,
    cancel: Callable[[], bool] = lambda: False,
    skipped: list[str] | None = None,
    other_types: Counter[str] | None = None,
    other_files: list[str] | None = None,
    excluded: tuple[str, ...] = (),
) -> Iterator[Entry]:
    """Yield every article file under ``root`` (sorted by path within each folder).

    Hidden and tool folders left out are added to ``skipped``, as the ``excluded`` folders
    (and what they hold) are; files of other types are counted in ``other_types`` by
    extension, and named in ``other_files`` (hidden files are neither).
    """
    wanted = tuple(e.lower() for e in extensions)
    left_out = {os.path.abspath(folder) for folder in excluded}
    inside = os.path.realpath(root).rstrip(os.sep) + os.sep
    stack = [root]
    while stack and not cancel():
        folder = stack.pop()
        try:
            with os.scandir(folder) as it:
                entries = sorted(it, key=attrgetter("name"))
        except OSError as exc:
            yield Entry(folder, error=f"folder not readable: {exc.strerror or exc}")
            continue
        subfolders = []
        with _opened(folder) as folder_fd:
            for entry in entries:
                try:
                    is_dir = entry.is_dir(follow_symlinks=False)
                except OSError:
                    is_dir = False
                if is_dir:
                    if (
                        not entry.name.startswith(".")
                        and entry.name not in SKIPPED_FOLDERS
                        and os.path.abspath(entry.path) not in left_out
                    ):
                        subfolders.append(entry.path)
                    elif skipped is not None:
                        skipped.append(entry.path)
                    continue
                if entry.name.startswith("."):
                    continue
                if not entry.name.lower().endswith(wanted) and not _links_a_folder(entry):
                    if other_types is not None:
                        other_types[os.path.splitext(entry.name)[1].lower() or "(none)"] += 1
                    if other_files is not None:
                        other_files.append(entry.path)
                    continue
                yield _file_entry(entry, inside, folder_fd)
        stack.extend(reversed(subfolders))


def not_read_for_type(path: str) -> str:
    """Why a file of another type was not read (a row of the app's problems)."""
    ending = os.path.splitext(path)[1].lower() or "(none)"
    return f"not read: {ending} is not among the file types read (Settings)"


def _links_a_folder(entry: os.DirEntry[str]) -> bool:
    """Whether the entry is a symbolic link to a folder: a row of its own, whatever its name."""
    try:
        return entry.is_symlink() and entry.is_dir(follow_symlinks=True)
    except OSError:
        return False


@contextlib.contextmanager
def _opened(folder: str) -> Iterator[int | None]:
    """The folder opened to look its files up by name, where the system can (else None)."""
    folder_fd = None
    if _STAT_BY_NAME:
        with contextlib.suppress(OSError):
            folder_fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        yield folder_fd
    finally:
        if folder_fd is not None:
            os.close(folder_fd)


def _file_entry(entry: os.DirEntry[str], inside: str, folder_fd: int | None) -> Entry:
    """The entry's row: a regular file's size and time, or why it is not read."""
    try:
        if folder_fd is not None and entry.is_file(follow_symlinks=False):  # not a link
            info = os.stat(entry.name, dir_fd=folder_fd, follow_symlinks=False)
            if stat.S_ISREG(info.st_mode):
                return Entry(entry.path, info.st_size, info.st_mtime_ns)
    except OSError:
        pass  # the whole path's stat below says why
    try:
        info = entry.stat(follow_symlinks=True)
    except FileNotFoundError:
        if entry.is_symlink():
            return Entry(entry.path, error="dangling symbolic link")
        return Entry(entry.path, error="file vanished before it was read")
    except OSError as exc:
        return Entry(entry.path, error=f"cannot stat: {exc.strerror or exc}")
    if stat.S_ISDIR(info.st_mode):
        return Entry(entry.path, error="symbolic link to a folder, not followed")
    if not stat.S_ISREG(info.st_mode):
        return Entry(entry.path, error=f"{_special_kind(info.st_mode)}, not read")
    if entry.is_symlink():
        target = os.path.realpath(entry.path)
        where = "read there" if target.startswith(inside) else "outside the folder: not read"
        return Entry(entry.path, error=f"{LINK}{display_path(target)} ({where})")
    return Entry(entry.path, info.st_size, info.st_mtime_ns)


def path_key(path: str) -> str:
    """What tells a path from another: absolute, in the system's case (Windows': any case)."""
    return os.path.normcase(os.path.abspath(path))


def in_folders(path: str, folders: Sequence[str]) -> bool:
    """Whether ``path`` is one of ``folders`` or lies inside one.

    Paths are made absolute and compared in the system's case (Windows': any case).
    """
    inside = os.path.normcase(os.path.join(os.path.abspath(path), ""))
    return any(
        inside.startswith(os.path.normcase(os.path.join(os.path.abspath(f), ""))) for f in folders
    )
