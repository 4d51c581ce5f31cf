"""Hide what only POSIX systems have, as Windows would: put this folder on ``PYTHONPATH``.

``fcntl`` cannot be imported, ``os.fork`` is gone, and no ``os``
call takes a folder's descriptor (``dir_fd``) or leaves a link unfollowed. Every process started
with this folder on its path hides them too (workers, the commands the tests run).
"""

from __future__ import annotations

import os
import sys


def hide() -> None:
    """Hide the POSIX-only modules and calls in this process."""
    sys.modules["fcntl"] = None  # type: ignore[assignment]
    for name in ("fork", "forkpty"):
        if hasattr(os, name):
            delattr(os, name)
    os.supports_dir_fd = set()  # type: ignore[misc]
    os.supports_follow_symlinks = set()  # type: ignore[misc]


if __name__ == "sitecustomize":  # as Python's start-up imports it (not pytest's collection)
    hide()
