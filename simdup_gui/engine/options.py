"""What a scan does, by stage: what it walks, how it reads, how it groups, how it runs.

Each stage's options are one frozen value, and those that change a result have one digest,
``key``, that every cache tier, saved result and kept report is keyed by:

* :class:`ReadOptions` (the text settings and how much of a file is read) make each file's
  record: the cache's rows, a folder's snapshot and its kept report carry ``ReadOptions.key``.
* :class:`GroupOptions` (k, the floors, what a person said of pairs and folders) make the
  groups from the records: cached groupings and kept reports carry ``GroupOptions.key``.
* :class:`RunOptions` (workers) change how fast, never what: they key nothing.
* :class:`WalkOptions` (extensions, excluded folders) say which files are read: a folder's
  walked files are in its digest (``folders.folder_state``), so they key nothing of their own.

Values only: this module imports nothing heavy, so every stage can take its options from it.
"""

from __future__ import annotations

import hashlib
import numbers
import os
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from simdup_gui.engine.methods import FingerprintMethod, method_from_dict, method_named
from simdup_gui.engine.read.documents import readers_version
from simdup_gui.engine.read.reader import DEFAULT_MAX_BYTES
from simdup_gui.engine.read.walk import DEFAULT_EXTENSIONS

TOKENIZERS = ("words", "chars")  # jieba words where there is Chinese, or one token per ideograph
WEIGHTINGS = ("tf", "tf1.5", "tfidf")  # term frequency, its 1.5th power, TF-IDF
PIPELINE_VERSION = 19  # bump when any step below changes what a fingerprint is
GROUPING_VERSION = 15  # bump when grouping changes (cached groups are then made again)
REPORT_VERSION = 5  # bump when the CSV report's rows change (kept reports are then made again)
MAX_K = 8  # the largest Hamming distance the index answers


def check_k(k: int) -> int:
    """Return ``k`` if it is a supported Hamming distance, else raise ValueError."""
    if not isinstance(k, numbers.Integral) or isinstance(k, bool) or not 0 <= k <= MAX_K:
        raise ValueError(f"k must be an integer from 0 to {MAX_K}, got {k!r}")
    return int(k)


def _digest(value: object) -> str:
    """A short digest of a value's ``repr`` (of plain values: the same value, the same digest)."""
    text = repr(value).encode("utf-8", "surrogateescape")
    return hashlib.blake2b(text, digest_size=8).hexdigest()


def _default_method() -> FingerprintMethod:
    return method_named("default")


@dataclass(frozen=True)
class TextSettings:
    """What a text's fingerprint is made of: its words, its template, the method."""

    tokenizer: str = "words"
    stopwords: bool = True
    weighting: str = "tf1.5"
    boilerplate: bool = True
    method: FingerprintMethod = field(default_factory=_default_method)

    def __post_init__(self) -> None:
        """Reject unknown tokenizers, weightings and methods; take a method kept as a dictionary.

        A method this simdup lacks (a newer one's, kept by name or as a dictionary) is a
        ValueError here, before anything takes the settings.
        """
        if isinstance(self.method, dict):  # as JSON keeps it
            object.__setattr__(self, "method", method_from_dict(self.method))
        elif isinstance(self.method, str):  # by name alone
            object.__setattr__(self, "method", method_named(self.method))
        if not isinstance(self.method, FingerprintMethod):
            raise TypeError(f"a method of the wrong kind: {self.method!r}")
        if self.tokenizer not in TOKENIZERS:
            raise ValueError(
                f"tokenizer must be one of {sorted(TOKENIZERS)}, not {self.tokenizer!r}"
            )
        if self.weighting not in WEIGHTINGS:
            raise ValueError(f"weighting must be one of {WEIGHTINGS}, not {self.weighting!r}")

    @property
    def whole_folder(self) -> bool:
        """Whether a file's fingerprint depends on the whole folder (TF-IDF weights)."""
        return self.weighting == "tfidf"

    @property
    def tf_power(self) -> float:
        """The power term frequencies are raised to for the simhash weights."""
        return 1.5 if self.weighting == "tf1.5" else 1.0

    def to_dict(self) -> dict[str, Any]:
        """The settings as JSON keeps them (the method as its own dictionary)."""
        return {
            "tokenizer": self.tokenizer,
            "stopwords": self.stopwords,
            "weighting": self.weighting,
            "boilerplate": self.boilerplate,
            "method": self.method.to_dict(),
        }

    @cached_property
    def version(self) -> str:
        """A short digest of the settings and the pipeline version: a library's fingerprints'.

        The method counts only for what changes a record (the default's adds nothing, so a
        library built before methods were objects keeps its digest).
        """
        settings = self.to_dict()
        del settings["method"]
        if self.method.read_settings:
            settings["method"] = self.method.read_settings
        text = repr((PIPELINE_VERSION, sorted(settings.items())))
        return hashlib.blake2b(text.encode(), digest_size=6).hexdigest()


@dataclass(frozen=True)
class ReadOptions:
    """Everything that makes a file's record: its text settings and how much of it is read."""

    text: TextSettings = field(default_factory=TextSettings)
    max_bytes: int = DEFAULT_MAX_BYTES
    skip_oversize: bool = False  # skip files over max_bytes instead of reading their start

    def __post_init__(self) -> None:
        """Validate the size limit."""
        if self.max_bytes < 1:
            raise ValueError(f"max_bytes must be positive, got {self.max_bytes}")

    @cached_property
    def key(self) -> str:
        """The digest every record is kept under: two options that make another record differ.

        The document readers' versions too: another PDFium may read a PDF's text otherwise.
        """
        readers = readers_version()
        return _digest((self.text.version, self.max_bytes, self.skip_oversize, readers))


@dataclass(frozen=True)
class GroupOptions:
    """Everything that makes the groups from the records, beside the method (``text``)."""

    k: int = 8  # candidates: fingerprints this many bits apart or fewer (best measured)
    min_similarity: float = 0.4  # and they must share this much text (Jaccard, best measured)
    min_chars: int = 0  # shorter texts are fingerprinted but never grouped
    # pairs of paths (each sorted) a person said are not duplicates: never in one group
    not_duplicates: frozenset[tuple[str, str]] = frozenset()
    # folders (within the scanned one) whose files are never marked, moved or trashed: a
    # group's reference comes from them when it has one (dupeGuru's reference folders)
    reference_folders: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        """Validate k."""
        check_k(self.k)

    @cached_property
    def key(self) -> str:
        """The digest cached groups are kept under (with the records' and the method's)."""
        apart = sorted(self.not_duplicates)
        values = (self.k, self.min_similarity, self.min_chars, apart, self.reference_folders)
        return _digest((GROUPING_VERSION, values))


@dataclass(frozen=True)
class RunOptions:
    """How a scan runs: never what it finds."""

    jobs: int = max(1, os.cpu_count() or 1)
    # Worker processes: False never, True always, None when jobs > 1 and many files. Where they
    # start with "spawn", they re-import the caller's __main__: scripts need `if __name__ ...`.
    processes: bool | None = False

    def __post_init__(self) -> None:
        """Validate the job count."""
        if self.jobs < 1:
            raise ValueError(f"jobs must be at least 1, got {self.jobs}")


@dataclass(frozen=True)
class WalkOptions:
    """Which files of a folder are read."""

    extensions: tuple[str, ...] = DEFAULT_EXTENSIONS
    excluded_folders: tuple[str, ...] = ()  # folders (within the scanned one) not walked


@dataclass(frozen=True)
class ScanOptions:
    """What to scan and how: each stage's options."""

    walk: WalkOptions = field(default_factory=WalkOptions)
    read: ReadOptions = field(default_factory=ReadOptions)
    group: GroupOptions = field(default_factory=GroupOptions)
    run: RunOptions = field(default_factory=RunOptions)

    @property
    def method(self) -> FingerprintMethod:
        """The fingerprint method: it reads the records and pairs them."""
        return self.read.text.method

    @cached_property
    def grouping_key(self) -> str:
        """The digest of all a scan's groups are made of beside its records' state.

        The records' options (the method's pairing among them: the method is read's), and the
        grouping's.
        """
        return _digest((self.read.key, self.method.to_dict(), self.group.key))

    def describe(self) -> str:
        """What a scan's pairs had to meet, in words: ``k=8, text similarity >= 40%``."""
        return self.method.describe(self.group.k, self.group.min_similarity)
