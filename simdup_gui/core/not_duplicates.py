"""The pairs of files a person said are not duplicates, kept from session to session.

Like dupeGuru's ignore list: a pair judged different never comes back in a group. The list is a
JSON file in the user data folder (``not-duplicates.json``); a name that is not UTF-8 is kept
exactly (JSON escapes its stand-in characters). Every change is made under a lock, merged with
what is on disk (the app and the command line may both write it), and replaced atomically; a
damaged list is refused, never read as empty.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from simdup_gui.engine.output.outputs import write_atomically
from simdup_gui.engine.resources import user_folder

Pair = tuple[str, str]


class NotDuplicatesError(ValueError):
    """The list on disk cannot be read (one line, naming the file)."""


def default_path() -> Path:
    """Where the list lives."""
    return user_folder("data") / "not-duplicates.json"


def pair_of(a: str, b: str) -> Pair:
    """The pair of two paths, in the order the list keeps."""
    return (a, b) if a <= b else (b, a)


def load(path: Path | None = None) -> set[Pair]:
    """The list (empty when there is none yet); :class:`NotDuplicatesError` when it is damaged."""
    path = path or default_path()
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return set()
    except OSError as exc:
        raise NotDuplicatesError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    try:
        rows = json.loads(data.decode("utf-8"))
        if not isinstance(rows, list):
            raise TypeError
        pairs = set()
        for row in rows:
            a, b = row
            if not isinstance(a, str) or not isinstance(b, str):
                raise TypeError
            pairs.add(pair_of(a, b))
        return pairs
    except (ValueError, TypeError):
        raise NotDuplicatesError(
            f"{path}: damaged, not a list of pairs (fix it, or move it aside to start anew)"
        ) from None


def change(
    add: Iterable[Pair] = (),
    remove: Iterable[Pair] = (),
    clear: bool = False,
    path: Path | None = None,
) -> set[Pair]:
    """Add and remove pairs in the list on disk, under its lock; the list as written.

    What another writer saved meanwhile is kept: the change is applied to the file as it is now.
    """
    from filelock import FileLock

    path = path or default_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(path.with_name(path.name + ".lock")):
        pairs = set() if clear else load(path)
        pairs -= {pair_of(*p) for p in remove}
        pairs |= {pair_of(*p) for p in add}
        _write(pairs, path)
    return pairs


def _write(pairs: set[Pair], path: Path) -> None:
    """Write to a temporary file of its own, renamed over the list: never half written."""
    text = json.dumps(sorted(pairs), ensure_ascii=True)
    write_atomically(path, lambda stream: stream.write(text))
