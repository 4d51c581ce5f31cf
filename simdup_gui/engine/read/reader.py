"""Read a file's bytes without changing it and without blocking on special files."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable

DEFAULT_MAX_BYTES = 16 * 1024 * 1024
_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
_NOATIME = getattr(os, "O_NOATIME", 0)


class ReadError(OSError):
    """The file could not be read; the message says why, for the results."""


def _open(path: str) -> int:
    if _NOATIME:
        try:
            return os.open(path, _FLAGS | _NOATIME)
        except PermissionError:
            pass  # O_NOATIME needs file ownership; fall back to a plain read-only open
    return os.open(path, _FLAGS)


def read_prefix(
    path: str,
    max_bytes: int = DEFAULT_MAX_BYTES,
    refuse: Callable[[bytes], str | None] | None = None,
) -> tuple[bytes, bool]:
    """Read at most ``max_bytes`` of a regular file; return the bytes and whether it was cut.

    The file is opened read-only, non-blocking and (where the OS allows) without updating its
    access time, and checked to be a regular file before any read. ``refuse`` sees the first
    megabyte: a reason it gives stops the read there (a large binary file is never read whole).

    Raises:
        ReadError: the file vanished, is unreadable, is not a regular file, or was refused.
    """
    try:
        fd = _open(path)
    except FileNotFoundError as exc:
        raise ReadError("file vanished before it was read") from exc
    except PermissionError as exc:
        raise ReadError("permission denied") from exc
    except OSError as exc:
        raise ReadError(f"cannot open: {exc.strerror or exc}") from exc
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ReadError("not a regular file, not read")
        data = bytearray()  # grown in place: the file's bytes held once, then copied once
        while len(data) <= max_bytes:
            chunk = os.read(fd, min(max_bytes + 1 - len(data), 1 << 20))
            if not chunk:
                break
            if not data and refuse is not None:
                why = refuse(chunk)
                if why:
                    raise ReadError(why)
            data += chunk
    except ReadError:
        raise
    except OSError as exc:
        raise ReadError(f"read failed: {exc.strerror or exc}") from exc
    finally:
        os.close(fd)
    cut = len(data) > max_bytes
    del data[max_bytes:]
    return bytes(data), cut
