"""The hashes' constants (shingles, lines, passages, terms), shared by modules and kernels."""

from __future__ import annotations

import numpy as np

SHINGLE = 5  # characters per shingle
SKETCH = 128  # hashes per bottom-k sketch
SHINGLE_BASE = 0x100000001B3  # the shingle hash's polynomial base
LINE_BASE = 0x100000001B3  # the line hash's polynomial base (``lines.py``)
LINE_HASH_BITS = 48  # a line's value: its length above these bits, its hash in them
UNIT_BASE, RUN_BASE = 0x100000001B3, 0x9E3779B97F4A7C15  # ``reuse/units.py``'s hashes
STEM, STEM_BASE, PAIR_BASE = 5, 1_000_003, 0x9E3779B97F4A7C15  # ``reuse/retold.py``'s terms
PAD = np.uint64(2**64 - 1)  # fills short sketches; never a real hash's place in the minimum
