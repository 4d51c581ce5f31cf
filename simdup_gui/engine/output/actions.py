"""Act on duplicates safely and undoably: re-check, write ahead, move or trash, restore.

The app's "Move marked to…" and "Send to trash" and ``simdup apply`` all go through :func:`act`:

* each file is first checked against what the scan saw of it (size, modification time, and the
  fingerprint when a way to take it is given); a file that changed is skipped, with the reason;
* the manifest gets a "moving" (or "trashing") row, flushed to disk, before a file is touched,
  and its outcome after; so whatever stops the work, :func:`restore` can undo what was done;
* nothing at a target is ever overwritten (a dangling link included): a free name is taken;
* across file systems a move is a copy, flushed to disk and compared byte for byte with the
  original, before the original is removed;
* nothing is deleted outright. The trash is the system's where ``restore`` can find a file in
  it again (the freedesktop.org trash of Linux and the BSDs); on Windows and macOS it is
  simdup's own (:func:`own_trash`): there send2trash deletes a file on a network drive for good
  (send2trash #2, #94), and macOS keeps where a trashed file came from where no program reads it.
"""

from __future__ import annotations

import csv
import errno
import filecmp
import importlib
import os
import shutil
import stat
import sys
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import NamedTuple
from urllib.parse import unquote_to_bytes

from simdup_gui.engine.output.cells import safe_cell, unsafe_cell
from simdup_gui.engine.read.walk import display_path
from simdup_gui.engine.resources import user_folder

MANIFEST_COLUMNS = (
    "path",
    "action",
    "destination",
    "error",
    "path_bytes",
    "destination_bytes",
    "size",
    "modified_ns",
)


class Seen(NamedTuple):
    """What the scan saw of a file to act on (``None``: not known, not checked)."""

    path: str
    size: int
    mtime_ns: int | None = None
    fingerprint: int | None = None
    reference: str = ""  # the copy kept in its place: nothing is done once it is gone


class ActionOutcome(NamedTuple):
    """What happened to one file.

    ``action``: "moving"/"trashing" (written ahead), "moved", "trashed", "restored", "skipped"
    (it changed since the scan: ``error`` says why), "failed", or in a dry run "would move"
    and "would trash".
    """

    path: str
    action: str
    destination: str = ""
    error: str = ""
    size: int | None = None  # the file acted on, as it was: restore checks what it moves back
    mtime_ns: int | None = None


def _raw(path: str) -> str:
    """The path's bytes in hex when its display form cannot give them back, else empty."""
    return os.fsencode(path).hex() if path and display_path(path) != path else ""


class Manifest:
    """A CSV of what was done, each row on disk before the next file is touched."""

    def __init__(self, path: Path) -> None:
        """Create ``path`` (never over an existing file) and write the header."""
        self.path = path
        self._stream = open(path, "x", encoding="utf-8-sig", newline="")  # noqa: SIM115
        self._writer = csv.writer(self._stream, lineterminator="\r\n")
        self._writer.writerow(MANIFEST_COLUMNS)
        self._sync()

    def write(self, outcome: ActionOutcome) -> None:
        """Add a row and put it on disk."""
        path, action, destination, error, size, mtime_ns = outcome
        row = (display_path(path), action, display_path(destination), error)
        known = ["" if size is None else size, "" if mtime_ns is None else mtime_ns]
        self._writer.writerow([*(safe_cell(v) for v in row), _raw(path), _raw(destination), *known])
        self._sync()

    def _sync(self) -> None:
        self._stream.flush()
        os.fsync(self._stream.fileno())

    def close(self) -> None:
        """Close the file."""
        self._stream.close()


def manifest_path(folder: str | os.PathLike[str] | None = None) -> Path:
    """A new ``simdup-manifest-<time>.csv`` in ``folder`` (default: the user data folder)."""
    if folder is None:
        folder = user_folder("data")
        os.makedirs(folder, exist_ok=True)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    return free_name(Path(folder) / f"simdup-manifest-{stamp}.csv")


def read_manifest(path: str | os.PathLike[str]) -> list[ActionOutcome]:
    """The rows of a manifest, paths as exact as they were written.

    Raises:
        ValueError: the file is not a manifest.
    """
    with open(path, encoding="utf-8-sig", newline="") as stream:
        rows = list(csv.reader(stream))
    if not rows or tuple(rows[0][:4]) != MANIFEST_COLUMNS[:4]:
        raise ValueError(f"{path}: not a simdup manifest")
    out = []
    for line, row in enumerate(rows[1:], 2):
        cells = [*row, *[""] * len(MANIFEST_COLUMNS)][: len(MANIFEST_COLUMNS)]
        shown, action, destination, error, raw_path, raw_destination, size, mtime = cells
        try:
            out.append(
                ActionOutcome(
                    os.fsdecode(bytes.fromhex(raw_path)) if raw_path else unsafe_cell(shown),
                    action,
                    os.fsdecode(bytes.fromhex(raw_destination))
                    if raw_destination
                    else unsafe_cell(destination),
                    unsafe_cell(error),
                    int(size) if size else None,
                    int(mtime) if mtime else None,
                )
            )
        except ValueError:
            raise ValueError(f"{path}: line {line} cannot be read") from None
    return out


def free_name(target: Path) -> Path:
    """``target``, or ``name (2).ext`` … if anything (a dangling link too) is there."""
    if not os.path.lexists(target):
        return target
    for n in range(2, 10_000):
        candidate = target.with_name(f"{target.stem} ({n}){target.suffix}")
        if not os.path.lexists(candidate):
            return candidate
    raise FileExistsError(target)


def changed(seen: Seen, fingerprint_of: Callable[[str], int | None] | None = None) -> str:
    """Why the file is no longer what the scan saw (empty when it is)."""
    try:
        info = os.lstat(seen.path)
    except FileNotFoundError:
        return "no longer there"
    except OSError as exc:
        return exc.strerror or str(exc)
    if seen.reference and not os.path.isfile(seen.reference):
        return "its group's reference is gone: kept"
    if stat.S_ISLNK(info.st_mode):
        return "a symbolic link: only real files are acted on"
    if not stat.S_ISREG(info.st_mode):
        return "not a regular file"
    if seen.mtime_ns is None:
        return "no modification time recorded: it cannot be checked, so it is kept"
    if info.st_size != seen.size:
        return "changed since the scan (size)"
    if info.st_mtime_ns // 1000 != seen.mtime_ns // 1000:
        return "changed since the scan (modification time)"
    checked = seen.fingerprint is not None and fingerprint_of is not None
    if checked and fingerprint_of(seen.path) != seen.fingerprint:  # type: ignore[misc]
        return "changed since the scan (text)"
    return ""


def _sync_file(path: Path) -> None:
    with open(path, "rb") as stream:
        os.fsync(stream.fileno())


_LINKS = os.link in os.supports_follow_symlinks  # a link of the file itself, not its target


def move_file(source: str, target: Path) -> Path:
    """Move ``source`` to ``target`` or a free name beside it; never over anything there.

    On one file system the file is moved by :func:`_move_within`; across file systems it is
    copied to a temporary name, flushed, compared byte for byte, given its name, then removed.
    Returns where it went.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    target = free_name(target)
    try:
        return _move_within(source, target)
    except OSError as exc:
        if exc.errno != errno.EXDEV:
            raise
    return _copy_across(source, target)


def _move_within(source: str, target: Path) -> Path:
    """Move on one file system, never over a file there.

    The file is linked at ``target`` (which fails rather than replace what appeared there
    meanwhile), then unlinked at ``source``; where there are no links it is renamed to a free
    name checked just before (Windows' rename never replaces a file).
    """
    if _LINKS:
        try:
            os.link(source, target, follow_symlinks=False)
        except OSError as exc:
            if exc.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.EMLINK, errno.ENOTSUP):
                raise
        else:
            os.unlink(source)
            return target
    target = free_name(target)
    os.rename(source, target)
    return target


def _copy_across(source: str, target: Path) -> Path:
    partial = free_name(target.with_name(f".{target.name}.simdup-partial"))
    try:
        shutil.copy2(source, partial)
        _sync_file(partial)
        if not filecmp.cmp(source, partial, shallow=False):
            raise OSError(errno.EIO, "the copy differs from the original")
        target = free_name(target)
        os.rename(partial, target)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    os.unlink(source)
    return target


def _unset_empty_xdg() -> None:
    """An empty ``XDG_*`` variable means unset (the XDG Base Directory specification)."""
    for name in ("XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME"):
        if name in os.environ and not os.environ[name].strip():
            del os.environ[name]


SYSTEM_TRASH = sys.platform not in ("win32", "darwin")  # where restore finds a file in it again
OWN_TRASH = ".simdup-trash"  # simdup's trash at the top of a volume other than the user's own


def system_trash() -> Callable[[str], None]:
    """The system trash's send function (send2trash), imported on first use.

    On Linux and the BSDs send2trash reads ``XDG_DATA_HOME`` once, when imported; it is read
    again here, so the trash is always the one the environment names now.
    """
    _unset_empty_xdg()
    from send2trash import send2trash

    if sys.platform not in ("win32", "darwin"):
        from send2trash import plat_other

        return importlib.reload(plat_other).send2trash
    return send2trash


def _volume_top(path: str) -> Path:
    """The folder at the top of the volume ``path`` is on."""
    top = Path(os.path.dirname(os.path.abspath(path)))
    while top.parent != top and not os.path.ismount(top):
        top = top.parent
    return top


def _device(path: Path) -> int | None:
    """The device of ``path`` or of its nearest folder that exists."""
    for folder in (path, *path.parents):
        try:
            return os.stat(folder).st_dev
        except OSError:
            continue
    return None


def own_trash(path: str) -> Path:
    """Where simdup's own trash keeps ``path``: a free name in a dated folder.

    The folder is in simdup's user data folder when that is on the file's volume, else in
    ``.simdup-trash`` at the top of the file's volume: a trashed file stays on its volume
    (moved, not copied). The manifest says where it went, so ``restore`` takes it back;
    emptying the trash is deleting the folder.
    """
    home = user_folder("data") / "trash"
    try:
        here: int | None = os.stat(path).st_dev
    except OSError:
        here = None
    folder = home if here is not None and here == _device(home) else _volume_top(path) / OWN_TRASH
    day = datetime.now().strftime("%Y-%m-%d")
    return free_name(folder / day / os.path.basename(path))


def act(
    files: Sequence[Seen],
    manifest: Manifest | None,
    *,
    move_to: str | None = None,
    root: str | None = None,
    send: Callable[[str], None] | None = None,
    fingerprint_of: Callable[[str], int | None] | None = None,
    dry_run: bool = False,
) -> list[ActionOutcome]:
    """Move the files into ``move_to`` (paths kept relative to ``root``) or send them to the trash.

    Each file is re-checked first (:func:`changed`); ``manifest`` records each step before and
    after it (a dry run records nothing and touches nothing). ``send`` is the trash's send
    function: by default the system trash where :data:`SYSTEM_TRASH`, else simdup's own
    (:func:`own_trash`).
    """
    outcomes = []
    if move_to is None and send is None and SYSTEM_TRASH and not dry_run:
        send = system_trash()
    for seen in files:
        why = changed(seen, fingerprint_of)
        if why or dry_run:
            target = "" if move_to is None else str(free_name(target_in(seen.path, root, move_to)))
            action = "skipped" if why else ("would move" if move_to is not None else "would trash")
            outcome = ActionOutcome(seen.path, action, target, why)
            outcomes.append(outcome)
            if manifest is not None and why:
                manifest.write(outcome)
            continue
        outcomes.append(_act_on(seen.path, manifest, move_to, root, send))
    return outcomes


def target_in(path: str, root: str | None, move_to: str) -> Path:
    """Where ``path`` goes in ``move_to``: its path relative to ``root`` (its name if outside)."""
    relative = os.path.relpath(path, root) if root else os.path.basename(path)
    if relative.startswith(".."):
        relative = os.path.basename(path)
    return Path(move_to) / relative


def _act_on(
    path: str,
    manifest: Manifest | None,
    move_to: str | None,
    root: str | None,
    send: Callable[[str], None] | None,
) -> ActionOutcome:
    try:
        info = os.lstat(path)
        was = {"size": info.st_size, "mtime_ns": info.st_mtime_ns}  # restore checks it by these
        if move_to is not None or send is None:  # moved, or into simdup's own trash
            moving, moved = ("moving", "moved") if move_to is not None else ("trashing", "trashed")
            target = free_name(target_in(path, root, move_to)) if move_to else own_trash(path)
            if manifest is not None:
                manifest.write(ActionOutcome(path, moving, str(target), **was))
            outcome = ActionOutcome(path, moved, str(move_file(path, target)), **was)
        else:
            if manifest is not None:
                manifest.write(ActionOutcome(path, "trashing", **was))
            send(path)
            outcome = ActionOutcome(path, "trashed", **was)
    except Exception as exc:  # send2trash raises its own errors as well as OSError
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        outcome = ActionOutcome(path, "failed", error=reason)
    if manifest is not None:
        manifest.write(outcome)
    return outcome


def restore(path: str | os.PathLike[str], *, dry_run: bool = False) -> list[ActionOutcome]:
    """Undo what a manifest records: moved files go back, trashed files come out of the trash.

    A file is put back only where nothing is now; a move a crash cut short is finished
    backwards (a partial copy is removed, the original kept). Running it twice does no harm.
    """
    last: dict[str, ActionOutcome] = {}
    for row in read_manifest(path):
        if row.action in ("moving", "moved", "trashing", "trashed"):
            last[row.path] = row
    return [_restore_one(row, dry_run) for row in last.values()]


def _same(path: str, row: ActionOutcome) -> bool:
    """Whether the file at ``path`` is the one the manifest's row acted on (size and time)."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    return (
        stat.S_ISREG(info.st_mode)
        and info.st_size == row.size
        and info.st_mtime_ns // 1000 == (row.mtime_ns or 0) // 1000
    )


def _restore_one(row: ActionOutcome, dry_run: bool) -> ActionOutcome:
    if row.size is None or row.mtime_ns is None:
        why = "the manifest does not record its size and time: not moved back"
        return ActionOutcome(row.path, "skipped", row.destination, why)
    here = os.path.lexists(row.path)
    if here and not _same(row.path, row):
        why = "another file is in its place: both kept"
        return ActionOutcome(row.path, "skipped", row.destination, why)
    try:
        if row.destination:  # moved, or into simdup's own trash: the manifest says where
            there = os.path.lexists(row.destination)
            if here and row.action in ("moving", "trashing"):  # stopped before the original went
                partial = Path(row.destination)
                if not dry_run:
                    partial.with_name(f".{partial.name}.simdup-partial").unlink(missing_ok=True)
                why = "never moved" + (": both copies kept" if there else "")
                return ActionOutcome(row.path, "skipped", row.destination, why)
            if here:
                return ActionOutcome(row.path, "skipped", row.destination, "already in place")
            if not there:
                why = "not found where " + ("moved" if "mov" in row.action else "trashed")
                return ActionOutcome(row.path, "failed", row.destination, why)
            if not _same(row.destination, row):
                why = "the file there is not the one moved (its size or time differ): kept"
                return ActionOutcome(row.path, "skipped", row.destination, why)
            if not dry_run:
                move_file(row.destination, Path(row.path))
            return ActionOutcome(row.path, "restored", row.destination)
        if here:
            return ActionOutcome(row.path, "skipped", "", "already in place")
        found = _in_trash(row.path)
        if found is None:
            return ActionOutcome(row.path, "failed", "", "not found in the trash")
        stored, info = found
        if not _same(str(stored), row):
            why = "the trashed file is not the one trashed (its size or time differ): kept"
            return ActionOutcome(row.path, "skipped", str(stored), why)
        if not dry_run:
            move_file(str(stored), Path(row.path))
            info.unlink(missing_ok=True)
        return ActionOutcome(row.path, "restored", str(stored))
    except OSError as exc:
        return ActionOutcome(row.path, "failed", row.destination, exc.strerror or str(exc))


def _trash_folders(path: str) -> Iterator[tuple[Path, Path]]:
    """The freedesktop.org trash folders a file may have gone to: home's, then its volume's.

    Each comes with the folder its relative paths start from.
    """
    _unset_empty_xdg()
    data = os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share")
    yield Path(data) / "Trash", Path("/")
    top = _volume_top(path)
    uid = os.getuid() if hasattr(os, "getuid") else 0
    yield top / ".Trash" / str(uid), top
    yield top / f".Trash-{uid}", top


def _in_trash(path: str) -> tuple[Path, Path] | None:
    """The newest trashed copy of ``path`` and its ``.trashinfo``, if the trash holds one."""
    wanted = os.fsencode(os.path.abspath(path))
    best: tuple[str, Path, Path] | None = None
    for folder, top in _trash_folders(path):
        info_folder = folder / "info"
        if not info_folder.is_dir():
            continue
        for info in info_folder.glob("*.trashinfo"):
            try:
                lines = info.read_bytes().splitlines()
            except OSError:
                continue
            fields = dict(line.split(b"=", 1) for line in lines if b"=" in line)
            original = unquote_to_bytes(fields.get(b"Path", b""))
            if not original.startswith(b"/"):
                original = os.fsencode(str(top)).rstrip(b"/") + b"/" + original
            stored = folder / "files" / info.name.removesuffix(".trashinfo")
            when = fields.get(b"DeletionDate", b"").decode("ascii", "replace")
            if original == wanted and os.path.lexists(stored) and (best is None or when > best[0]):
                best = (when, stored, info)
    return None if best is None else (best[1], best[2])
