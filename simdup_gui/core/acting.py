"""Acting on the marked files: the plan a person confirms, the action, what it did.

The session asks through :class:`Questions` (the window answers with dialogs, tests directly)
and gives an :class:`Action`, which may run on any thread: it holds what the scan saw of each
file and touches no state of the session.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from simdup_gui.engine.fingerprint.file_records import fingerprint_now
from simdup_gui.engine.options import ReadOptions
from simdup_gui.engine.output.actions import ActionOutcome, Manifest, Seen, act, manifest_path


@dataclass(frozen=True)
class Plan:
    """What acting on the marked files would do, for the person to confirm."""

    files: int
    groups: int
    size: int  # bytes
    paths: tuple[str, ...]
    destination: str | None = None  # None: the trash


@dataclass(frozen=True)
class Done:
    """What acting did: each file's outcome, and the manifest that records it."""

    outcomes: tuple[ActionOutcome, ...]
    manifest: Path


@dataclass(frozen=True)
class Action:
    """Acting on marked files, once asked: the files as the scan saw them, where, from where."""

    seen: tuple[Seen, ...]
    destination: str | None  # a folder to move them to; None: the trash
    root: str
    options: ReadOptions  # to take a file's fingerprint again as the scan did

    def run(self) -> Done:
        """Act: each file re-checked against the scan, the manifest written ahead of each step.

        Raises:
            OSError: the destination or the manifest could not be made (nothing was done).
        """
        if self.destination is not None:
            os.makedirs(self.destination, exist_ok=True)
        manifest = Manifest(manifest_path(self.destination))
        try:
            outcomes = act(
                self.seen,
                manifest,
                move_to=self.destination,
                root=self.root,
                fingerprint_of=fingerprint_now(self.options),
            )
        finally:
            manifest.close()
        return Done(tuple(outcomes), manifest.path)


class Questions(Protocol):
    """What the session asks the person (the window answers with dialogs, tests directly)."""

    def nothing_marked(self) -> None:
        """Say that no file is marked."""

    def destination(self) -> str | None:
        """Where to move the marked files (None: not now)."""

    def refuse(self, problem: str) -> None:
        """Say why this cannot be done."""

    def confirm(self, plan: Plan) -> bool:
        """Whether to go ahead with the plan."""
