"""Progress reports and cooperative cancellation, with no UI attached.

Engine functions take ``progress`` and ``cancel`` keyword arguments. The defaults do nothing, so
the engine runs the same from the command line, from tests and from the desktop app.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class ProgressEvent:
    """One progress report: the stage, how far it is and the file at hand."""

    stage: str  # walking, preparing (or compiling), fingerprinting, indexing, grouping, done
    done: int
    total: int
    nbytes: int = 0
    current: str = ""
    total_bytes: int = 0


class Progress(Protocol):
    """Anything that takes progress events."""

    def __call__(self, event: ProgressEvent) -> None:
        """Receive one event."""


def no_progress(event: ProgressEvent) -> None:
    """The progress callback that ignores every event."""


class CancelToken:
    """A thread-safe cancel flag, polled by the engine between files and steps."""

    def __init__(self) -> None:
        """Start not cancelled."""
        self._event = threading.Event()

    def cancel(self) -> None:
        """Ask the running work to stop."""
        self._event.set()

    def __call__(self) -> bool:
        """Return True once cancelled (so a token is also a plain ``cancel()`` predicate)."""
        return self._event.is_set()


def never() -> bool:
    """The cancel predicate that is never true."""
    return False
