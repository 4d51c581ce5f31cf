"""The pairs of files a person said are not duplicates, kept from session to session.

Like dupeGuru's ignore list: a pair judged different never comes back in a group. The list is a
JSON file in the user data folder (``not-duplicates.json``); a name that is not UTF-8 is kept
exactly (JSON escapes its stand-in characters).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from simdup_gui.engine.resources import user_folder

Pair = tuple[str, str]


def default_path() -> Path:
    """Where the list lives."""
    return user_folder("data") / "not-duplicates.json"


def load(path: Path | None = None) -> set[Pair]:
    """The list (empty when there is none, or it cannot be read)."""
    try:
        rows = json.loads((path or default_path()).read_text(encoding="utf-8"))
        return {(str(a), str(b)) for a, b in rows}
    except (OSError, ValueError, TypeError):
        return set()


def save(pairs: set[Pair], path: Path | None = None) -> None:
    """Write the list (to a new file renamed over the old: never half written)."""
    path = path or default_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(path.name + ".tmp")
    temp.write_text(json.dumps(sorted(pairs), ensure_ascii=True), encoding="utf-8")
    os.replace(temp, path)
