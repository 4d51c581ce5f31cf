"""What a scan reads and how: the settings that make a fingerprint, and a scan's options.

Values only: this module imports nothing heavy, so every stage can take its settings from it.
"""

from __future__ import annotations

import hashlib
import numbers
import os
from dataclasses import asdict, dataclass, field

from simdup_gui.engine.read.reader import DEFAULT_MAX_BYTES
from simdup_gui.engine.read.walk import DEFAULT_EXTENSIONS

TOKENIZERS = ("words", "chars")  # jieba words where there is Chinese, or one token per ideograph
WEIGHTINGS = ("tf", "tf1.5", "tfidf")  # term frequency, its 1.5th power, TF-IDF
PIPELINE_VERSION = 13  # bump when any step below changes what a fingerprint is
GROUPING_VERSION = 8  # bump when grouping changes (cached groups are then made again)
REPORT_VERSION = 1  # bump when the CSV report's rows change (kept reports are then made again)
MAX_K = 8  # the largest Hamming distance the index answers


METHODS = ("default", "simhash", "minhash", "sentences", "pinyin")  # docs/methods.md
NUM_PERM = 128  # MinHash permutations (the LSH bands times rows use at most this many)
FLOORS = {"default": 0.4, "simhash": 0.0, "minhash": 0.4, "sentences": 0.0, "pinyin": 0.995}
"""Each method's similarity floor when none is given (docs/methods.md: the measured best)."""
DISTANCES = ("default", "simhash")  # the methods whose pairs have a Hamming distance


def check_k(k: int) -> int:
    """Return ``k`` if it is a supported Hamming distance, else raise ValueError."""
    if not isinstance(k, numbers.Integral) or isinstance(k, bool) or not 0 <= k <= MAX_K:
        raise ValueError(f"k must be an integer from 0 to {MAX_K}, got {k!r}")
    return int(k)


@dataclass(frozen=True)
class Method:
    """Which of the survey's fingerprint methods finds the pairs, with its own settings.

    ``default`` is simdup's combination; the others are each one method alone (docs/methods.md).
    """

    name: str = "default"
    sentences: int = 3  # sentences: how many of the longest sentences are hashed
    shared: int = 2  # sentences: how many of them two articles must share
    bands: int = 0  # minhash: LSH bands (0: derived from the similarity floor, with rows)
    rows: int = 0  # minhash: rows per band (0: derived)

    def __post_init__(self) -> None:
        """Reject unknown methods and settings that cannot work."""
        if self.name not in METHODS:
            raise ValueError(f"method must be one of {', '.join(METHODS)}, not {self.name!r}")
        if not 1 <= self.sentences <= 64:
            raise ValueError(f"sentences must be 1 to 64, got {self.sentences}")
        if not 1 <= self.shared <= self.sentences:
            raise ValueError(f"shared sentences must be 1 to {self.sentences}, got {self.shared}")
        if (self.bands > 0) != (self.rows > 0) or self.bands < 0 or self.rows < 0:
            raise ValueError("bands and rows are given together, both positive")
        if self.bands * self.rows > NUM_PERM:
            used = self.bands * self.rows
            raise ValueError(f"bands x rows must be at most {NUM_PERM}, got {used}")

    @property
    def fingerprint_settings(self) -> tuple[str, int]:
        """What of the method changes a file's fingerprint (the rest changes only the pairs)."""
        return self.name, self.sentences if self.name == "sentences" else 0


@dataclass(frozen=True)
class TextSettings:
    """Everything that changes a fingerprint (and so keys the cache)."""

    tokenizer: str = "words"
    stopwords: bool = True
    weighting: str = "tf1.5"
    boilerplate: bool = True
    method: Method = field(default_factory=Method)

    def __post_init__(self) -> None:
        """Reject unknown tokenizers and weightings; take a method kept as a dictionary."""
        if isinstance(self.method, dict):  # as ``asdict`` and JSON keep it
            object.__setattr__(self, "method", Method(**self.method))
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
        settings = asdict(self)
        del settings["method"]  # only what changes a fingerprint: pairing settings do not
        if self.method.name != "default":  # (the default's caches stay valid)
            settings["method"] = self.method.fingerprint_settings
        text = repr((PIPELINE_VERSION, sorted(settings.items())))
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


def thresholds_text(method: Method, k: int, floor: float) -> str:
    """What a scan's pairs had to meet, in words: ``k=8, text similarity >= 40%``."""
    if method.name == "default":
        return f"k={k}, text similarity >= {100 * floor:g}%"
    if method.name == "sentences":
        return f"method sentences: {method.shared} of the {method.sentences} longest shared"
    parts = [f"k={k}"] if method.name == "simhash" else []
    parts += [f"similarity >= {100 * floor:g}%"] if floor > 0 else []
    return f"method {method.name}: {', '.join(parts) or 'no floor'}"
