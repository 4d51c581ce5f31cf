"""Whether the compiled kernels are on disk already, or the first scan must compile them.

numba keeps what it compiled beside each module (``__pycache__/<module>.<function>-<line>.*.nbi``
index files) or, where that folder is read-only, under ``NUMBA_CACHE_DIR``. A machine's first
scan compiles for about 20 seconds: the command and the app say so instead of going silent.
This looks at the files only; it imports neither numba nor the kernels.
"""

from __future__ import annotations

import os
from pathlib import Path

KERNEL_MODULES = ("text/token_kernels", "fingerprint/kernels", "read/html_kernels")


def kernels_compiled() -> bool:
    """Whether every kernel module has compiled code on disk newer than its source."""
    engine = Path(__file__).resolve().parents[1]
    for path in KERNEL_MODULES:
        folder, module = (engine / path).parent, Path(path).name
        places = [folder / "__pycache__"]
        if os.environ.get("NUMBA_CACHE_DIR"):
            places.append(Path(os.environ["NUMBA_CACHE_DIR"]))
        source = (folder / f"{module}.py").stat().st_mtime
        found = (
            index for place in places if place.is_dir() for index in place.rglob(f"{module}.*.nbi")
        )
        if not any(index.stat().st_mtime >= source for index in found):
            return False
    return True
