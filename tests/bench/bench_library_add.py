"""Adding an archive to a library, and adding it again unchanged: the whole command.

    python tests/bench/bench_library_add.py [--mb 40] [--repeat 3]

Builds the 42 MB Chinese folder of edited copies (``bench_scan.py``'s ``zh-edited``, from
``../shared/eval/corpus``), then, ``--repeat`` times: ``simdup library add LIB FOLDER`` into a
new library with an empty cache folder (the first add: every file read and fingerprinted),
then the same command again on the unchanged folder (each file's size and time are the
library's: nothing read). The ratio is the median first add over the median add again.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_scan import build_folder, simdup_command, sources  # noqa: E402
from common import machine  # noqa: E402


def add(library: Path, folder: Path, cache: Path) -> float:
    """Seconds for one ``simdup library add`` (its cache in ``cache``)."""
    command = [*simdup_command(), "library", "add", str(library), str(folder)]
    start = time.perf_counter()
    environment = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    environment.pop("PYTHONDONTWRITEBYTECODE", None)  # a user's Python keeps its compiled modules
    subprocess.run(command, check=True, env=environment, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=40)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"# library add, {machine()}, median of {args.repeat}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "zh-edited"
        build_folder(folder, [path for path, _ in sources()["zh"]], args.mb, edited=True)
        files = sum(1 for _ in folder.iterdir())
        firsts, agains = [], []
        for attempt in range(args.repeat):
            library, cache = Path(tmp) / f"lib{attempt}", Path(tmp) / f"cache{attempt}"
            firsts.append(add(library, folder, cache))
            agains.append(add(library, folder, cache))
        first, again = statistics.median(firsts), statistics.median(agains)
        print(
            f"{files} files: first add {first:.2f} s, added again unchanged {again:.2f} s,"
            f" ratio {first / again:.1f}x (each run: first {', '.join(f'{t:.2f}' for t in firsts)};"
            f" again {', '.join(f'{t:.2f}' for t in agains)})"
        )


if __name__ == "__main__":
    main()
