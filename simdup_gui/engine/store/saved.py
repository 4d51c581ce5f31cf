"""A scan's result saved to a file and opened again later, as dupeGuru's saved results.

One JSON document: the folder, the options that made the groups, and the records, pairs and
groups as the cache keeps them (``snapshot.pack``, ``groupings.grouping_blobs``, base64), so a
result opened again is checked as strictly as the cache is: a damaged or foreign file is one
clear error, never a half-read result.
"""

from __future__ import annotations

import base64
import json
import os
import struct
from dataclasses import dataclass
from typing import Any, TextIO

from simdup_gui.engine.match.groups import kept_files
from simdup_gui.engine.options import (
    GroupOptions,
    ReadOptions,
    ScanOptions,
    TextSettings,
    WalkOptions,
)
from simdup_gui.engine.output.outputs import write_atomically
from simdup_gui.engine.results import ScanResult
from simdup_gui.engine.store.groupings import grouping_blobs, stored_groups
from simdup_gui.engine.store.snapshot import READABLE_LAYOUTS, SNAPSHOT_LAYOUT, pack, unpack

FORMAT = "simdup result"
VERSION = 2  # 2: the options by stage (1: one flat set, still read)
SUFFIX = ".simdup"


class SavedResultError(ValueError):
    """A file that is not a saved result, or one this version cannot read (one line)."""


@dataclass(frozen=True)
class Choices:
    """What a person decided about a result, by path: kept with it when saved.

    ``references``: the copies picked by hand to keep, oldest choice first; ``keep_rule``: the
    "Keep in each group" rule and its folder ("" none); ``removed``: taken out of what is shown.
    """

    marked: tuple[str, ...] = ()
    references: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    keep_rule: tuple[str, str] = ("", "")


def save_result(
    result: ScanResult, path: str | os.PathLike[str], choices: Choices | None = None
) -> None:
    """Write ``result`` and the choices made on it to ``path`` (atomically)."""
    pairs, members, sizes = grouping_blobs(result.pairs, result.groups)
    options = result.options
    choices = choices or Choices()
    document = {
        "format": FORMAT,
        "version": VERSION,
        "layout": SNAPSHOT_LAYOUT,
        "root": result.root,
        "options": _options_document(options),
        "seconds": result.seconds,
        "records": _text(pack(result.files)),
        "pairs": _text(pairs),
        "members": _text(members),
        "sizes": _text(sizes),
        "choices": {
            "marked": list(choices.marked),
            "references": list(choices.references),
            "removed": list(choices.removed),
            "keep_rule": list(choices.keep_rule),
        },
    }

    def fill(stream: TextIO) -> None:
        json.dump(document, stream, ensure_ascii=True)

    write_atomically(path, fill)


def load_result(path: str | os.PathLike[str]) -> ScanResult:
    """The result saved in ``path``.

    Raises:
        SavedResultError: the file cannot be read, is not a saved result, or is damaged.
    """
    return load_saved(path)[0]


def load_saved(path: str | os.PathLike[str]) -> tuple[ScanResult, Choices]:
    """The result saved in ``path`` and the choices saved with it (none in an older file).

    Raises:
        SavedResultError: the file cannot be read, is not a saved result, or is damaged.
    """
    try:
        with open(path, encoding="utf-8") as stream:
            document = json.load(stream)
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise SavedResultError(f"{path}: {getattr(exc, 'strerror', None) or exc}") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise SavedResultError(f"{path}: not a saved simdup result")
    version = document.get("version")
    if version not in (1, VERSION) or document.get("layout") not in READABLE_LAYOUTS:
        raise SavedResultError(f"{path}: saved by another version of simdup: scan again")
    try:
        saved = document["options"]
        options = _options(saved if version == VERSION else _staged(saved))
        files = unpack(_bytes(document["records"]))
        pairs, groups = stored_groups(
            _bytes(document["pairs"]),
            _bytes(document["members"]),
            _bytes(document["sizes"]),
            len(files),
        )
        root, seconds = str(document["root"]), float(document["seconds"])
        choices = _choices(document.get("choices", {}))
    except (KeyError, TypeError, ValueError, IndexError, OverflowError, struct.error) as exc:
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise SavedResultError(f"{path}: damaged ({first})") from None
    kept = kept_files(files, options.group.reference_folders)
    return ScanResult(root, files, pairs, groups, options, seconds=seconds, kept=kept), choices


def _choices(saved: dict[str, Any]) -> Choices:
    """The choices a document keeps (TypeError, ValueError: damaged)."""
    if not isinstance(saved, dict):
        raise TypeError("choices of the wrong kind")
    lists = [saved.get(name, []) for name in ("marked", "references", "removed", "keep_rule")]
    if not all(isinstance(v, list) and all(isinstance(s, str) for s in v) for v in lists):
        raise TypeError("choices that are not lists of names")
    rule = tuple(lists[3]) if lists[3] else ("", "")
    if len(rule) != 2:
        raise ValueError("a keep rule that is not a rule and a folder")
    return Choices(tuple(lists[0]), tuple(lists[1]), tuple(lists[2]), rule)  # type: ignore[arg-type]


def _options_document(options: ScanOptions) -> dict[str, Any]:
    """The options that made a result, by stage, as JSON keeps them.

    Not the not-duplicates list (the app's own, applied to whatever it opens) nor how it ran.
    """
    read, group = options.read, options.group
    return {
        "walk": {
            "extensions": list(options.walk.extensions),
            "excluded_folders": list(options.walk.excluded_folders),
        },
        "read": {
            "text": read.text.to_dict(),
            "max_bytes": read.max_bytes,
            "skip_oversize": read.skip_oversize,
        },
        "group": {
            "k": group.k,
            "min_similarity": group.min_similarity,
            "min_chars": group.min_chars,
            "reference_folders": list(group.reference_folders),
        },
    }


def _staged(flat: dict[str, Any]) -> dict[str, Any]:
    """Version 1's flat options by stage."""
    return {
        "walk": {"extensions": flat["extensions"], "excluded_folders": []},
        "read": {
            "text": flat["text"],
            "max_bytes": ReadOptions().max_bytes,
            "skip_oversize": False,
        },
        "group": {
            "k": flat["k"],
            "min_similarity": flat["min_similarity"],
            "min_chars": flat["min_chars"],
            "reference_folders": flat["reference_folders"],
        },
    }


def _options(saved: dict[str, Any]) -> ScanOptions:
    """The options a document keeps (:func:`_options_document`).

    Raises:
        KeyError, TypeError, ValueError: a damaged document.
    """
    walk, read, group = saved["walk"], saved["read"], saved["group"]
    if not isinstance(read["text"], dict) or not isinstance(read["skip_oversize"], bool):
        raise TypeError("options of the wrong kind")
    lists = (walk["extensions"], walk["excluded_folders"], group["reference_folders"])
    if not all(isinstance(v, list) and all(isinstance(s, str) for s in v) for v in lists):
        raise TypeError("a list of names that is not one")
    if not 0.0 <= float(group["min_similarity"]) <= 1.0:  # NaN too
        raise ValueError(f"similarity {group['min_similarity']} is not between 0 and 1")
    if int(group["min_chars"]) < 0:
        raise ValueError(f"a negative text length ({group['min_chars']})")
    return ScanOptions(
        WalkOptions(
            tuple(str(e) for e in walk["extensions"]),
            tuple(str(f) for f in walk["excluded_folders"]),
        ),
        ReadOptions(TextSettings(**read["text"]), int(read["max_bytes"]), read["skip_oversize"]),
        GroupOptions(
            k=int(group["k"]),
            min_similarity=float(group["min_similarity"]),
            min_chars=int(group["min_chars"]),
            reference_folders=tuple(str(f) for f in group["reference_folders"]),
        ),
    )


def _text(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _bytes(text: object) -> bytes:
    if not isinstance(text, str):
        raise TypeError("a blob that is not text")
    return base64.b64decode(text.encode("ascii"), validate=True)
