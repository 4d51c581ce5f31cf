"""The values every stage passes on: what a scan learns of each file, and pairs of files."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import numpy.typing as npt


class FileRecord(NamedTuple):
    """What the scan learnt about one file (no text is kept).

    A named tuple: a rescan makes one per file from the cache, and these are the cheapest
    immutable records Python makes (a frozen dataclass takes five times as long).
    """

    path: str  # as the OS gave it: bytes of a name that are not UTF-8 are surrogates (PEP 383);
    # show it with walk.display_path
    size: int = 0
    mtime_ns: int = 0
    encoding: str = ""
    encoding_method: str = ""
    fingerprint: int | None = None
    features: int = 0
    chars: int = 0  # of text, whitespace not counted
    boilerplate: float = 0.0  # share of an HTML page's text dropped as site template
    notes: tuple[str, ...] = ()
    error: str = ""
    sketch: bytes = b""  # bottom-k shingle sketch of the text (see shingles.py)
    lead: int | None = None  # fingerprint of the text's opening (finds truncated copies)
    converted_chars: int = 0  # characters a conversion leaves behind (telltales.py)
    notice_chars: int = 0  # characters of lines that read like a repost notice or an ad
    language: str = ""  # "zh", "en" or "other" (telltales.language_of)
    signature: bytes = b""  # another method's signature (methods/), else empty
    lines: bytes = b""  # the text's lines by hash (fingerprint/lines.py): template evidence
    passages: bytes = b""  # its passage fingerprints (reuse/passages.py): what it shares
    title: str = ""  # what the article calls itself (fingerprint/titles.py)
    terms: bytes = b""  # its terms (reuse/retold.py): who may have retold whom

    def impossible(self) -> str:
        """Why no scan could have made this record (empty if one could): a damaged cache."""
        return impossible_values(
            self.size,
            self.mtime_ns,
            self.features,
            self.chars,
            self.converted_chars,
            self.notice_chars,
            boilerplate=self.boilerplate,
            fingerprints=(self.fingerprint, self.lead),
            sketch=self.sketch,
            signature=self.signature,
            lines=self.lines,
            passages=self.passages,
            terms=self.terms,
        )

    @property
    def ok(self) -> bool:
        """Whether the file has a fingerprint."""
        return self.fingerprint is not None and not self.error


FIELD_KINDS: dict[str, str] = {  # each field's type as written: "int", "int | None", ...
    name: getattr(kind, "__forward_arg__", kind)
    for name, kind in FileRecord.__annotations__.items()
}
KEY_FIELDS = ("path", "size", "mtime_ns")  # which file version a record is of
STORED_FIELDS = tuple(f for f in FileRecord._fields if f not in (*KEY_FIELDS, "error"))
"""What the cache keeps of a record: everything reading the file found (errors are retried)."""

SKETCH_BYTES = 128 * 8  # the longest shingle sketch (shingles.SKETCH hashes of 8 bytes)
SIGNATURE_BYTES = 64 * 8  # the longest signature: 64 sentences' hashes, or MinHash's 512 bytes
LINES_BYTES = 4_096 * 8  # the most lines a record keeps (lines.MOST_LINES), 8 bytes each
PASSAGES_BYTES = 1 << 22  # the most passage fingerprints' bytes: 4 MB of a 16 MB text's
TERMS_BYTES = 4_096 * 4  # the most terms' bytes a record keeps (retold.MOST_TERMS)


def impossible_values(
    *counts: int,
    boilerplate: float,
    fingerprints: tuple[int | None, ...],
    sketch: bytes,
    signature: bytes = b"",
    lines: bytes = b"",
    passages: bytes = b"",
    terms: bytes = b"",
) -> str:
    """Why these values cannot be a scan's (empty if they can); see ``FileRecord.impossible``."""
    if any(not isinstance(n, int) or n < 0 for n in counts):
        return "a negative or non-integer count"
    if not 0.0 <= boilerplate <= 1.0:
        return "a share out of range"
    if any(f is not None and not 0 <= f < 1 << 64 for f in fingerprints):
        return "a fingerprint that is not 64 bits"
    if not isinstance(sketch, bytes) or len(sketch) % 8 or len(sketch) > SKETCH_BYTES:
        return "a sketch of the wrong length"
    if not isinstance(signature, bytes) or len(signature) % 4 or len(signature) > SIGNATURE_BYTES:
        return "a signature of the wrong length"
    if not isinstance(lines, bytes) or len(lines) % 8 or len(lines) > LINES_BYTES:
        return "lines of the wrong length"
    if not isinstance(passages, bytes) or len(passages) % 4 or len(passages) > PASSAGES_BYTES:
        return "passages of the wrong length"
    if not isinstance(terms, bytes) or len(terms) % 4 or len(terms) > TERMS_BYTES:
        return "terms of the wrong length"
    return ""


@dataclass(frozen=True)
class Pairs:
    """All pairs ``i < j`` within distance k, sorted by (i, j)."""

    i: npt.NDArray[np.int64]
    j: npt.NDArray[np.int64]
    distance: npt.NDArray[np.uint8]

    def __len__(self) -> int:
        return len(self.i)

    @classmethod
    def empty(cls) -> Pairs:
        """No pairs."""
        return cls(np.empty(0, np.int64), np.empty(0, np.int64), np.empty(0, np.uint8))

    @classmethod
    def from_parts(
        cls, parts: Sequence[tuple[np.ndarray, np.ndarray, np.ndarray]], n: int
    ) -> Pairs:
        """Concatenate per-table results and sort them by (i, j)."""
        if not parts or not sum(len(p[0]) for p in parts):
            return cls.empty()
        i = np.concatenate([p[0] for p in parts]).astype(np.int64)
        j = np.concatenate([p[1] for p in parts]).astype(np.int64)
        d = np.concatenate([p[2] for p in parts]).astype(np.uint8)
        order = np.argsort(i * n + j, kind="stable")
        return cls(i[order], j[order], d[order])
