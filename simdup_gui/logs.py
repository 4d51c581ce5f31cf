"""Where simdup logs: a file in the user log folder, and standard error when asked.

The engine logs through ``logging.getLogger(__name__)`` and configures nothing; the command
and the app call :func:`start_logging` once. A scan's warnings and every failure with its
traceback go to the log file (``simdup.log``, rotated at 1 MB, three kept), so an error row
or a "scan failed" message can always be traced.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import TextIO

from simdup_gui.engine.resources import user_folder

_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
MAX_BYTES, BACKUPS = 1_000_000, 3  # the log file is rotated at this size, this many kept


class _LogFile(logging.Handler):
    """The rotating log file, made at the first record: most runs log nothing.

    Python's rotating handler lives in ``logging.handlers``, whose imports (sockets, pickle,
    queues) cost every start of the command about 10 ms.
    """

    def __init__(self, path: Path):
        super().__init__()
        self._path = path
        self._file: logging.Handler | None = None

    def emit(self, record: logging.LogRecord) -> None:
        """Write the record to the file, opening it first if need be."""
        if self._file is None:
            import logging.handlers

            self._file = logging.handlers.RotatingFileHandler(
                self._path, maxBytes=MAX_BYTES, backupCount=BACKUPS, encoding="utf-8", delay=True
            )
            self._file.setFormatter(self.formatter)
        self._file.emit(record)

    def close(self) -> None:
        """Close the file, if it was opened."""
        if self._file is not None:
            self._file.close()
        super().close()


def log_path() -> Path:
    """The log file: ``$SIMDUP_LOG_DIR/simdup.log`` or in the user log folder."""
    return Path(os.environ.get("SIMDUP_LOG_DIR") or user_folder("log")) / "simdup.log"


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
        handler = _LogFile(path)
        handler.setFormatter(logging.Formatter(_FORMAT))
        root.addHandler(handler)
    except OSError:
        path = None
    if stream is not None:
        shown = logging.StreamHandler(stream)
        shown.setFormatter(logging.Formatter("simdup: %(levelname)s: %(message)s"))
        root.addHandler(shown)
    return path
