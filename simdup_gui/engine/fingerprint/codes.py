"""The shingle sketch's sizes and constants, shared by ``shingles`` and its kernels."""

from __future__ import annotations

import numpy as np

SHINGLE = 5  # characters per shingle
SKETCH = 128  # hashes per bottom-k sketch
SHINGLE_BASE = 0x100000001B3  # the shingle hash's polynomial base
PAD = np.uint64(2**64 - 1)  # fills short sketches; never a real hash's place in the minimum
