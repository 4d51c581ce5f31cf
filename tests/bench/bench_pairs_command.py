"""The whole ``simdup pairs FILE.npy --k 8`` command against one numpy sort of the same size.

    python tests/bench/bench_pairs_command.py [--n 1e6] [--k 8] [--python PATH]

10^6 random fingerprints, 10 % of them planted copies of others with 1..k bits flipped, saved
as ``.npy``. The command runs in a process of its own (Python's start, imports, loading the
compiled kernels, the pairs, writing them); the baseline is ``np.sort`` of 10^6 random uint64
in this process (the median of 7). Its pairs are checked against brute force for a sample of
2,000 fingerprints (each against all others), and its pair count against the planted ones.
A first run, not timed, builds the all-pairs kernels ahead of time (``engine/prebuilt.py``) or
compiles them, as a machine's first run does once. The command runs on ``--python`` (default:
this interpreter): give a virtual environment with ``pip install -e .`` alone to time what a
user's install does (the test extra adds SciPy, which numba imports, about 0.2 s more, where
the kernels are numba's).
"""

from __future__ import annotations

import argparse
import csv
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import machine, planted_fingerprints

SAMPLE = 2000


def sort_seconds(n: int) -> float:
    values = np.random.default_rng(1).integers(0, 2**64, n, dtype=np.uint64)
    times = []
    for _ in range(7):
        copy = values.copy()
        start = time.perf_counter()
        copy.sort()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def command_seconds(path: Path, k: int, out: Path, python: str) -> float:
    command = [python, "-m", "simdup_gui.cli", "pairs", str(path), "--k", str(k)]
    subprocess.run([*command, "--out", str(out)], check=True)  # a machine's first: not timed
    times = []
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run([*command, "--out", str(out)], check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def checked(fps: np.ndarray, k: int, out: Path) -> int:
    """The pairs in ``out``; those of a sample of fingerprints must equal brute force."""
    with out.open(encoding="utf-8") as stream:
        rows = [(int(r["i"]), int(r["j"]), int(r["distance"])) for r in csv.DictReader(stream)]
    sample = np.random.default_rng(2).choice(len(fps), SAMPLE, replace=False)
    wanted = set()
    for i in sample.tolist():
        distance = np.bitwise_count(fps ^ fps[i])
        for j in np.flatnonzero(distance <= k).tolist():
            if j != i:
                wanted.add((min(i, j), max(i, j), int(distance[j])))
    chosen = set(sample.tolist())
    found = {row for row in rows if row[0] in chosen or row[1] in chosen}
    assert found == wanted, f"{len(found ^ wanted)} pairs differ from brute force"
    return len(rows)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=float, default=1e6)
    parser.add_argument("--k", type=int, default=8)
    parser.add_argument("--python", default=sys.executable, help="what runs the command")
    args = parser.parse_args()
    n, k = int(args.n), args.k
    fps = planted_fingerprints(n, k)
    with tempfile.TemporaryDirectory() as folder:
        path, out = Path(folder) / "fps.npy", Path(folder) / "pairs.csv"
        np.save(path, fps)
        command = command_seconds(path, k, out, args.python)
        pairs = checked(fps, k, out)
    sort = sort_seconds(n)
    print(f"# simdup pairs, {machine()}")
    print("| N | k | pairs | whole command | one numpy sort | command / sort |")
    print("|---:|---:|---:|---:|---:|---:|")
    ratio = command / sort
    print(f"| {n:,} | {k} | {pairs:,} | {command:.2f} s | {sort * 1000:.1f} ms | {ratio:.0f} |")


if __name__ == "__main__":
    main()
