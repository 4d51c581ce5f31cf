"""A scan's result saved to a file and opened again later, as dupeGuru's saved results.

One JSON document: the folder, the options that made the groups, and the records, pairs and
groups as the cache keeps them (``snapshot.pack``, ``groupings.grouping_blobs``, base64), so a
result opened again is checked as strictly as the cache is: a damaged or foreign file is one
clear error, never a half-read result.
"""

from __future__ import annotations

import base64
import dataclasses
import json
import os
from typing import TextIO

from simdup_gui.engine.match.groups import kept_files
from simdup_gui.engine.options import ScanOptions, TextSettings
from simdup_gui.engine.output.outputs import write_atomically
from simdup_gui.engine.results import ScanResult
from simdup_gui.engine.store.groupings import grouping_blobs, stored_groups
from simdup_gui.engine.store.snapshot import SNAPSHOT_LAYOUT, pack, unpack

FORMAT = "simdup result"
VERSION = 1
SUFFIX = ".simdup"


class SavedResultError(ValueError):
    """A file that is not a saved result, or one this version cannot read (one line)."""


def save_result(result: ScanResult, path: str | os.PathLike[str]) -> None:
    """Write ``result`` to ``path`` (atomically: a reader never sees half a file)."""
    pairs, members, sizes = grouping_blobs(result.pairs, result.groups)
    options = result.options
    document = {
        "format": FORMAT,
        "version": VERSION,
        "layout": SNAPSHOT_LAYOUT,
        "root": result.root,
        "options": {
            "k": options.k,
            "extensions": list(options.extensions),
            "text": dataclasses.asdict(options.text),
            "min_chars": options.min_chars,
            "min_similarity": options.min_similarity,
            "reference_folders": list(options.reference_folders),
        },
        "seconds": result.seconds,
        "records": _text(pack(result.files)),
        "pairs": _text(pairs),
        "members": _text(members),
        "sizes": _text(sizes),
    }

    def fill(stream: TextIO) -> None:
        json.dump(document, stream, ensure_ascii=True)

    write_atomically(path, fill)


def load_result(path: str | os.PathLike[str]) -> ScanResult:
    """The result saved in ``path``.

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
    if document.get("version") != VERSION or document.get("layout") != SNAPSHOT_LAYOUT:
        raise SavedResultError(f"{path}: saved by another version of simdup: scan again")
    try:
        saved = document["options"]
        options = ScanOptions(
            k=int(saved["k"]),
            extensions=tuple(str(e) for e in saved["extensions"]),
            text=TextSettings(**saved["text"]),
            min_chars=int(saved["min_chars"]),
            min_similarity=float(saved["min_similarity"]),
            reference_folders=tuple(str(f) for f in saved["reference_folders"]),
        )
        files = unpack(_bytes(document["records"]))
        pairs, groups = stored_groups(
            _bytes(document["pairs"]),
            _bytes(document["members"]),
            _bytes(document["sizes"]),
            len(files),
        )
        root, seconds = str(document["root"]), float(document["seconds"])
    except (KeyError, TypeError, ValueError) as exc:
        raise SavedResultError(f"{path}: damaged ({exc})") from None
    kept = kept_files(files, options.reference_folders)
    return ScanResult(root, files, pairs, groups, options, seconds=seconds, kept=kept)


def _text(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _bytes(text: object) -> bytes:
    if not isinstance(text, str):
        raise TypeError("a blob that is not text")
    return base64.b64decode(text.encode("ascii"), validate=True)
