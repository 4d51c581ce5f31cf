"""The array types the engine's compiled loops take and give (type aliases only)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

Codes = npt.NDArray[np.uint32]  # code points of texts joined one after another
Flags = npt.NDArray[np.uint8]
Index = npt.NDArray[np.int64]
U64 = npt.NDArray[np.uint64]
F64 = npt.NDArray[np.float64]
Bytes = npt.NDArray[np.uint8]
Bytes2D = npt.NDArray[np.uint8]  # rows of bytes
Bools = npt.NDArray[np.bool_]
