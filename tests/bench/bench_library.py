"""The archive library at scale: import, disk, a cold check (the whole process), warm queries.

    python tests/bench/bench_library.py [--n 10000000]

Imports N random fingerprints (10 % planted near others) with ``simdup library add LIB
--fingerprints``, then times a cold ``simdup library check LIB --fp HEX`` (its own process:
start, imports, memory-mapped tables) with its peak memory, and the median of 1,000 warm
queries in this process; baseline in the same run: one numpy sort of N uint64.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from common import machine, planted_fingerprints  # noqa: E402

from simdup_gui.engine.library.check import check_fingerprint  # noqa: E402
from simdup_gui.engine.library.store import Library  # noqa: E402

COMMAND = [sys.executable, "-m", "simdup_gui.cli", "library"]


def run(n: int, max_k: int) -> dict[str, object]:
    fps = planted_fingerprints(n, 3)
    start = time.perf_counter()
    np.sort(fps)
    sort_seconds = time.perf_counter() - start
    with tempfile.TemporaryDirectory() as temp:
        np.save(Path(temp) / "fps.npy", fps)
        lib = Path(temp) / "LIB"
        start = time.perf_counter()
        add = [*COMMAND, "add", str(lib), "--fingerprints", f"{temp}/fps.npy"]
        subprocess.run([*add, "--max-k", str(max_k)], check=True)
        import_seconds = time.perf_counter() - start
        disk = sum(p.stat().st_size for p in lib.rglob("*") if p.is_file())
        query = f"{int(fps[12345]) ^ 0b101:016x}"
        measured = (  # in a process of its own, so its peak memory is the check's alone
            "import resource, subprocess, sys, time; start = time.perf_counter();"
            " done = subprocess.run(sys.argv[1:], capture_output=True, text=True, check=True);"
            " print(time.perf_counter() - start,"
            " resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, done.stdout.count(chr(10)))"
        )
        check = [*COMMAND, "check", str(lib), "--fp", query, "--k", "3"]
        done = subprocess.run(
            [sys.executable, "-c", measured, *check], capture_output=True, text=True, check=True
        )
        cold, peak_kb, rows = done.stdout.split()
        cold, peak = float(cold), int(peak_kb) / 1e6
        library = Library.open(lib)
        check_fingerprint(library, int(fps[0]), 3)  # pages in, as in a long-lived process
        times = {}
        for k in sorted({3, max_k}):
            samples = []
            for i in range(1000):
                q = int(fps[i * 97 % n]) ^ (1 << (i % 64))
                t = time.perf_counter()
                check_fingerprint(library, q, k)
                samples.append(time.perf_counter() - t)
            times[k] = float(np.median(samples)) * 1e6
    return {
        "n": n,
        "import_s": round(import_seconds, 1),
        "disk_gb": round(disk / 1e9, 2),
        "cold_check_s": round(cold, 2),
        "cold_peak_gb": round(peak, 2),
        "max_k": max_k,
        **{f"warm_median_us_k{k}": round(us) for k, us in times.items()},
        "numpy_sort_s": round(sort_seconds, 2),
        "matches": int(rows) - 1,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, nargs="+", default=[10_000_000])
    parser.add_argument("--max-k", type=int, default=8, help="the library's largest k")
    args = parser.parse_args()
    print(machine())
    for n in args.n:
        print(json.dumps(run(n, args.max_k)), flush=True)


if __name__ == "__main__":
    main()
