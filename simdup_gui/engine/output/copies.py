"""Copies of files somewhere else: the originals are only read, nothing existing is replaced."""

from __future__ import annotations

import shutil
from collections.abc import Sequence

from simdup_gui.engine.output.actions import ActionOutcome, free_name, target_in


def copy_files(paths: Sequence[str], root: str, destination: str) -> list[ActionOutcome]:
    """Copy each file into ``destination``, its path kept relative to ``root``.

    A name already taken there gets a free one beside it (``name (2).ext``): the new file is
    created exclusively, so nothing that appeared meanwhile is written over either. A file
    that cannot be read or written is ``failed`` with the reason; the rest go on.
    """
    outcomes = []
    for path in paths:
        try:
            target = target_in(path, root, destination)
            target.parent.mkdir(parents=True, exist_ok=True)
            target = free_name(target)
            with open(path, "rb") as source, open(target, "xb") as copy:
                shutil.copyfileobj(source, copy)
            shutil.copystat(path, target)
            outcomes.append(ActionOutcome(path, "copied", str(target)))
        except OSError as exc:
            error = f"{exc.strerror or exc}"
            outcomes.append(ActionOutcome(path, "failed", error=error))
    return outcomes
