"""What a scan reads and how: the options every step of a scan takes."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from simdup_gui.engine.fingerprint.pipeline import TextSettings
from simdup_gui.engine.match.index import check_k
from simdup_gui.engine.read.reader import DEFAULT_MAX_BYTES
from simdup_gui.engine.read.walk import DEFAULT_EXTENSIONS


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

    def __post_init__(self) -> None:
        """Validate k, the size limit and the job count."""
        check_k(self.k)
        if self.jobs < 1:
            raise ValueError(f"jobs must be at least 1, got {self.jobs}")
        if self.max_bytes < 1:
            raise ValueError(f"max_bytes must be positive, got {self.max_bytes}")
