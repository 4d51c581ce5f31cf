"""Where simdup may write: never over an input, never half a file.

Every output the tool writes (the report, the pairs, a manifest, a folder files are moved to) is
checked here before any work starts, so a wrong path costs a one-line error, not a scan.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO


def real_path(path: str) -> str:
    """``path`` absolute and real, in the case the system compares paths in."""
    return os.path.normcase(os.path.realpath(path))


def _inside(path: str, folder: str) -> bool:
    """Whether ``path`` is ``folder`` or lies under it (as :func:`real_path` makes them)."""
    path, folder = real_path(path), real_path(folder)
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def output_problem(path: str, inputs: Sequence[str], *, folder: bool = False) -> str | None:
    """Why ``path`` cannot take an output (a file, or with ``folder`` a folder), or None.

    An output must not be an input or lie inside a scanned folder; a file's folder must exist
    and be writable, and the path must not be a folder. A path that exists and is not a regular
    file (a device, a FIFO) is fine: it is written through, never replaced.
    """
    for given in inputs:
        if _inside(path, given):
            where = "is" if real_path(path) == real_path(given) else "is inside"
            return f"{path} {where} the input {given}: choose a place outside it"
    if folder:
        if os.path.exists(path) and not os.path.isdir(path):
            return f"{path}: not a folder"
        parent = path if os.path.isdir(path) else os.path.dirname(os.path.abspath(path))
    else:
        if os.path.isdir(path):
            return f"{path}: is a folder, not a file"
        try:
            mode = os.stat(path).st_mode
        except OSError:
            mode = 0
        if mode and not stat.S_ISREG(mode):
            return None if os.access(path, os.W_OK) else f"{path}: not writable"
        parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        return f"{parent}: no such folder"
    if not os.access(parent, os.W_OK | os.X_OK):
        return f"{parent}: no permission to write there"
    return None


def with_suffix(destination: str, suggested: str) -> str:
    """``destination`` with the suggested name's extension, if a person left it out.

    A saved result or report named without it would be one its open dialog cannot see.
    """
    suffix = os.path.splitext(suggested)[1]
    if destination.lower().endswith(suffix.lower()):
        return destination
    return destination + suffix


def new_temp_file(folder: Path, name: str) -> tuple[int, Path]:
    """A new file beside the destination, made with the mode the user's umask gives new files."""
    for _ in range(100):
        temp = folder / f".{name}.{os.urandom(4).hex()}.tmp"
        try:
            return os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), temp
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name beside {name}")


def write_atomically(
    destination: str | os.PathLike[str], fill: Callable[[TextIO], None], encoding: str = "utf-8"
) -> Path:
    """Write text through ``fill`` to a temporary file beside ``destination``, then rename it.

    A reader never sees half a file, and a failure leaves nothing behind. A destination that
    exists and is not a regular file (a device, a FIFO, ``/dev/stdout``) is written through
    instead, never replaced.
    """
    target = Path(destination)
    if target.exists() and not target.is_file():
        with open(target, "w", encoding=encoding.removesuffix("-sig"), newline="") as stream:
            fill(stream)
        return target
    handle, temp = new_temp_file(target.parent, target.name)
    try:
        # A "-sig" codec's BOM is written here: that codec encodes each write in Python.
        codec = encoding.removesuffix("-sig")
        with os.fdopen(handle, "w", encoding=codec, newline="") as stream:
            if codec != encoding:
                stream.write("\ufeff")
            fill(stream)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    return target
