"""What a scan reads and how: the settings that make a fingerprint, and a scan's options.

Values only: this module imports nothing heavy, so every stage can take its settings from it.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import asdict, dataclass, field

from simdup_gui.engine.match.tables import check_k
from simdup_gui.engine.read.reader import DEFAULT_MAX_BYTES
from simdup_gui.engine.read.walk import DEFAULT_EXTENSIONS

TOKENIZERS = ("words", "chars")  # jieba words where there is Chinese, or one token per ideograph
WEIGHTINGS = ("tf", "tf1.5", "tfidf")  # term frequency, its 1.5th power, TF-IDF
PIPELINE_VERSION = 11  # bump when any step below changes what a fingerprint is


@dataclass(frozen=True)
class TextSettings:
    """Everything that changes a fingerprint (and so keys the cache)."""

    tokenizer: str = "words"
    stopwords: bool = True
    weighting: str = "tf1.5"
    boilerplate: bool = True

    def __post_init__(self) -> None:
        """Reject unknown tokenizers and weightings."""
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

    @property
    def version(self) -> str:
        """A short digest of the settings and the pipeline version."""
        text = repr((PIPELINE_VERSION, sorted(asdict(self).items())))
        return hashlib.blake2b(text.encode(), digest_size=6).hexdigest()


@dataclass(frozen=True)
class ScanOptions:
    """What to scan and how."""

    k: int = 8  # candidates: fingerprints this many bits apart or fewer (best measured)
    extensions: tuple[str, ...] = DEFAULT_EXTENSIONS
    text: TextSettings = field(default_factory=TextSettings)
    max_bytes: int = DEFAULT_MAX_BYTES
    skip_oversize: bool = False  # skip files over max_bytes instead of reading their start
    jobs: int = max(1, os.cpu_count() or 1)
    # Worker processes: False never, True always, None when jobs > 1 and many files. Where they
    # start with "spawn", they re-import the caller's __main__: scripts need `if __name__ ...`.
    processes: bool | None = False
    min_chars: int = 0  # shorter texts are fingerprinted but never grouped
    min_similarity: float = 0.4  # and they must share this much text (Jaccard, best measured)
    # pairs of paths (each sorted) a person said are not duplicates: never in one group
    not_duplicates: frozenset[tuple[str, str]] = frozenset()
    # folders (within the scanned one) whose files are never marked, moved or trashed: a
    # group's reference comes from them when it has one (dupeGuru's reference folders)
    reference_folders: tuple[str, ...] = ()
    excluded_folders: tuple[str, ...] = ()  # folders (within the scanned one) not walked

    def __post_init__(self) -> None:
        """Validate k, the size limit and the job count."""
        check_k(self.k)
        if self.jobs < 1:
            raise ValueError(f"jobs must be at least 1, got {self.jobs}")
        if self.max_bytes < 1:
            raise ValueError(f"max_bytes must be positive, got {self.max_bytes}")
