"""Files whose bytes a process fingerprinted a moment ago: the same outcome, not read twice.

A folder of reposts holds many exact copies: an article saved twice, a page copied whole.
A copy would give its original's text, words and fingerprints again, so each process keeps
the outcomes of the last few thousand texts it analysed, by a digest of the bytes and of all
else that shapes them (the text settings, whether the name says HTML). A copy takes its
original's outcome with its own path, size, time and notes (its name's, its read's).
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from typing import NamedTuple

from simdup_gui.engine.fingerprint.simhash import Features
from simdup_gui.engine.options import TextSettings
from simdup_gui.engine.records import FileRecord

KEEP = 8_192  # outcomes kept per process: about 15 MB (a record holds a 1 KB sketch)

Key = tuple[bytes, int, bool, bool, TextSettings, str]
Fingerprinted = tuple[FileRecord, Features | None]  # a file's record, and its features for TF-IDF


class Known(NamedTuple):
    """What a text's bytes gave: its record, the notes its content gave, its features."""

    record: FileRecord
    notes: tuple[str, ...]  # the notes that came from the bytes (not the name's, not the read's)
    features: Features | None  # with TF-IDF weights only


def content_key(
    data: bytes, *, cut: bool, html_name: bool, settings: TextSettings, document: str = ""
) -> Key:
    """What decides the outcome of a file's bytes (those read; ``cut``: a long file's first).

    ``document``: the document format its name says (its reader reads it), else "".
    """
    digest = hashlib.blake2b(data, digest_size=16).digest()
    return digest, len(data), cut, html_name, settings, document


class Repeats:
    """The outcomes of the last ``keep`` distinct texts, by :func:`content_key` (thread-safe)."""

    def __init__(self, keep: int = KEEP):
        self._keep = keep
        self._known: OrderedDict[Key, Known] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Key) -> Known | None:
        """What the bytes gave before, or None."""
        with self._lock:
            known = self._known.get(key)
            if known is not None:
                self._known.move_to_end(key)
            return known

    def put(self, key: Key, known: Known) -> None:
        """Keep what the bytes gave, forgetting the least recently used beyond ``keep``."""
        with self._lock:
            self._known[key] = known
            self._known.move_to_end(key)
            while len(self._known) > self._keep:
                self._known.popitem(last=False)

    def __len__(self) -> int:
        return len(self._known)

    def clear(self) -> None:
        """Forget every outcome."""
        with self._lock:
            self._known.clear()


def as_copy(known: Known, record: FileRecord, notes: list[str]) -> Fingerprinted:
    """The outcome of a copy: ``known`` with the copy's path, size, time and own notes first."""
    copy = known.record._replace(
        path=record.path,
        size=record.size,
        mtime_ns=record.mtime_ns,
        notes=(*notes, *known.notes),
    )
    return copy, known.features
