"""A process that ends soon after the process that started it, however that one ended."""

from __future__ import annotations

import os
import signal
import threading
import time

PARENT_CHECK_S = 1.0  # how often a process looks whether its parent is still there


def watch_parent(parent: int) -> None:
    """End this process once ``parent`` is no longer its parent (it ended).

    An orphan is adopted by another process (init, or a subreaper), so its parent id changes
    (on every POSIX system; Windows gives the id of the process that started it, too).
    Ctrl+C, which a terminal sends to every process of the command, is the parent's to answer:
    a worker ignores it (it would print its own traceback, and leave the parent waiting).
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_S)
        os._exit(1)  # no clean-up to wait for: the work was the parent's

    if os.getppid() != parent:
        os._exit(1)  # gone already, while this process was starting
    threading.Thread(target=watch, name="watch-parent", daemon=True).start()
