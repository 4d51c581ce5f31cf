"""How HTML's tag names and flags are coded for the HTML kernels (shared with ``html``)."""

from __future__ import annotations

import numpy as np

from simdup_gui.engine.arrays import Bytes, Index

VOID, RAW, HIDDEN = 1, 2, 4  # what a tag's flags say: no end tag; raw text inside; none shown


def words(*spelled: str) -> tuple[Bytes, Index]:
    """ASCII words as the kernels take them: their bytes one after another, and their bounds.

    The ``i``-th word is ``data[bounds[i]:bounds[i + 1]]``.
    """
    data = np.frombuffer("".join(spelled).encode("ascii"), np.uint8).copy()
    return data, np.cumsum([0] + [len(word) for word in spelled], dtype=np.int64)
