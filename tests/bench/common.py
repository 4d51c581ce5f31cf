"""Shared helpers for the benchmarks: planted fingerprint sets, timing, memory."""

from __future__ import annotations

import os
import platform
import resource
import time
from collections.abc import Callable
from typing import TypeVar

import numpy as np

T = TypeVar("T")


def planted_fingerprints(n: int, k: int, share: float = 0.1, seed: int = 0) -> np.ndarray:
    """``n`` random fingerprints; ``share`` of them are copies of others with 1..k bits flipped."""
    rng = np.random.default_rng(seed)
    fps = rng.integers(0, 2**64, size=n, dtype=np.uint64, endpoint=False)
    m = int(n * share)
    sources = rng.integers(0, n, m)
    targets = rng.choice(n, m, replace=False)
    planted = fps[sources].copy()
    flips = rng.integers(1, k + 1, m) if k else np.zeros(m, dtype=np.int64)
    for step in range(k):
        bit = np.uint64(1) << rng.integers(0, 64, m).astype(np.uint64)
        planted[flips > step] ^= bit[flips > step]
    fps[targets] = planted
    return fps


def timed(fn: Callable[[], T]) -> tuple[T, float]:
    """Run ``fn`` once; return its result and the seconds it took."""
    start = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - start


def peak_rss_gb() -> float:
    """Peak resident memory of this process so far, in GB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / 1e9


def machine() -> str:
    """One line naming the machine the figures come from."""
    cpu = platform.processor() or platform.machine()
    return f"{cpu}, {os.cpu_count()} cores, numpy {np.__version__}"
