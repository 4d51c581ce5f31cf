"""Where simdup logs: a file in the user log folder, and standard error when asked.

The engine logs through ``logging.getLogger(__name__)`` and configures nothing; the command
and the app call :func:`start_logging` once. A scan's warnings and every failure with its
traceback go to the log file (``simdup.log``, rotated at 1 MB, three kept), so an error row
or a "scan failed" message can always be traced.
"""

from __future__ import annotations

import logging
import logging.handlers
import os
from pathlib import Path
from typing import TextIO

from platformdirs import user_log_dir

_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def log_path() -> Path:
    """The log file: ``$SIMDUP_LOG_DIR/simdup.log`` or in the user log folder."""
    folder = os.environ.get("SIMDUP_LOG_DIR") or user_log_dir("simdup", appauthor=False)
    return Path(folder) / "simdup.log"


def start_logging(stream: TextIO | None = None) -> Path | None:
    """Log to the file (and, given a ``stream``, to it as well); return the file's path.

    A log file that cannot be made is no reason to stop: then only ``stream`` logs, and None
    is returned.
    """
    root = logging.getLogger("simdup_gui")
    for handler in list(root.handlers):
        root.removeHandler(handler)
        handler.close()
    root.setLevel(logging.INFO)
    root.propagate = False
    path: Path | None = log_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handler = logging.handlers.RotatingFileHandler(
            path, maxBytes=1_000_000, backupCount=3, encoding="utf-8", delay=True
        )
        handler.setFormatter(logging.Formatter(_FORMAT))
        root.addHandler(handler)
    except OSError:
        path = None
    if stream is not None:
        shown = logging.StreamHandler(stream)
        shown.setFormatter(logging.Formatter("simdup: %(levelname)s: %(message)s"))
        root.addHandler(shown)
    return path
