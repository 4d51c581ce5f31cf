"""Passage fingerprints: the run hashes a text is found by when another copies part of it.

Winnowing (Schleimer, Wilkerson and Aiken, SIGMOD 2003): of the hashes of every run of RUN
units (``units.py``), each window of WINDOW consecutive runs keeps its least (the rightmost on
a tie). Any passage two texts share of RUN + WINDOW - 1 units or more (the guarantee, 13: CNKI's
rule as editors tell it) gives both the same fingerprint; about 2 / (WINDOW + 1) of a text's
runs are kept. A record keeps its fingerprints' top 32 bits, distinct and sorted (4 bytes each,
about 1 KB for a 2,000-character article).

>>> story = "春运返乡的旅客在火车站排队等候"
>>> a, b = passage_fingerprints(Batch.normalized([f"今天：{story}，记者报道了现场。", story]))
>>> bool(set(fingerprints(a)) & set(fingerprints(b)))
True
"""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import numpy.typing as npt

from simdup_gui.engine.arrays import distinct
from simdup_gui.engine.kernels import kernel_module
from simdup_gui.engine.reuse.units import RUN, run_hashes, text_units
from simdup_gui.engine.text.normalize import normalize
from simdup_gui.engine.text.tokens import Batch

WINDOW = 8  # runs per winnowing window: shared passages of RUN + WINDOW - 1 units are found
GUARANTEE = RUN + WINDOW - 1
U32 = npt.NDArray[np.uint32]


def winnowed(runs: npt.NDArray[np.uint64], window: int = WINDOW) -> npt.NDArray[np.int64]:
    """The places of the runs winnowing keeps: each window's least, the rightmost on a tie.

    A text with fewer runs than a window keeps its least.

    >>> winnowed(np.array([5, 3, 3, 9, 1, 4], np.uint64), window=3).tolist()
    [2, 4]
    """
    if not len(runs):
        return np.empty(0, np.int64)
    if len(runs) < window:
        return np.array([len(runs) - 1 - int(np.argmin(runs[::-1]))])
    views = np.lib.stride_tricks.sliding_window_view(runs, window)
    rightmost = window - 1 - np.argmin(views[:, ::-1], axis=1)
    return np.unique(np.arange(len(views)) + rightmost)


def passage_fingerprints(batch: Batch) -> list[bytes]:
    """Each text's passage fingerprints, as a record keeps them (``<u4``, distinct, sorted).

    The batch's texts normalised (``Batch.normalized``), all in one compiled pass
    (``kernels.passage_runs``; :func:`plain_fingerprints` defines it).
    """
    kernels = kernel_module("simdup_gui.engine.fingerprint.kernels")

    runs, owners = kernels.passage_runs(batch.codes, batch.flags, batch.bounds, RUN, WINDOW)
    top = (runs >> np.uint64(32)).astype(np.int64)
    keys = distinct(owners * (1 << 32) + top)  # each text's, each once, sorted
    cuts = np.searchsorted(keys >> 32, np.arange(len(batch.bounds)))
    data = (keys & 0xFFFFFFFF).astype("<u4").tobytes()
    return [data[4 * lo : 4 * hi] for lo, hi in pairwise(cuts.tolist())]


def plain_fingerprints(text: str) -> U32:
    """The definition of a text's passage fingerprints: its normalised units' runs, winnowed."""
    runs = run_hashes(text_units(normalize(text).strip()).hashes)
    return np.unique((runs[winnowed(runs)] >> np.uint64(32)).astype(np.uint32))


SAMPLE = 4  # a library keeps the fingerprints divisible by this (a quarter: passages of 52
# units and more are still found, nearly always)


def sampled(values: U32) -> U32:
    """The fingerprints a library keeps of these (the same ones for every text)."""
    return values[values % SAMPLE == 0]


def fingerprints(kept: bytes) -> U32:
    """A record's passage fingerprints."""
    return np.frombuffer(kept, dtype="<u4").astype(np.uint32)
