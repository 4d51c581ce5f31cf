"""Act on marked files: send them to the trash or move them, recoverably, with a manifest.

Nothing is ever deleted outright. Each file's outcome is recorded ("moved", "trashed" or
"failed: why") and written to a manifest CSV, so a move can be undone by hand.
"""

from __future__ import annotations

import csv
import os
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from simdup_gui.engine.walk import display_path


@dataclass(frozen=True)
class ActionOutcome:
    """What happened to one file."""

    path: str
    action: str  # "moved", "trashed" or "failed"
    destination: str = ""
    error: str = ""


def _free_name(target: Path) -> Path:
    """``target``, or ``name (2).ext`` … if that already exists."""
    if not target.exists():
        return target
    for n in range(2, 10_000):
        candidate = target.with_name(f"{target.stem} ({n}){target.suffix}")
        if not candidate.exists():
            return candidate
    raise FileExistsError(target)


def move_files(paths: Sequence[str], root: str, destination: str) -> list[ActionOutcome]:
    """Move files into ``destination``, keeping their paths relative to ``root``."""
    outcomes = []
    for path in paths:
        try:
            relative = os.path.relpath(path, root)
            if relative.startswith(".."):
                relative = os.path.basename(path)
            target = _free_name(Path(destination) / relative)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.move(path, target)
            outcomes.append(ActionOutcome(path, "moved", str(target)))
        except OSError as exc:
            outcomes.append(ActionOutcome(path, "failed", error=exc.strerror or str(exc)))
    return outcomes


def trash_files(
    paths: Sequence[str], send: Callable[[str], None] | None = None
) -> list[ActionOutcome]:
    """Send files to the system trash (recoverable), one by one."""
    if send is None:
        from send2trash import send2trash as send
    outcomes = []
    for path in paths:
        try:
            send(path)
            outcomes.append(ActionOutcome(path, "trashed"))
        except Exception as exc:  # send2trash raises its own errors as well as OSError
            outcomes.append(ActionOutcome(path, "failed", error=str(exc)))
    return outcomes


def write_manifest(outcomes: Sequence[ActionOutcome], folder: str) -> Path:
    """Write ``simdup-manifest-<time>.csv`` (UTF-8 with BOM) into ``folder``."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    path = _free_name(Path(folder) / f"simdup-manifest-{stamp}.csv")
    with open(path, "w", encoding="utf-8-sig", newline="") as stream:
        writer = csv.writer(stream, lineterminator="\r\n")
        writer.writerow(["path", "action", "destination", "error"])
        for o in outcomes:
            writer.writerow([display_path(o.path), o.action, display_path(o.destination), o.error])
    return path
