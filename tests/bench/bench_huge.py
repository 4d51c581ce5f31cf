"""The seed question at scale: 10^8 fingerprints, k = 2 and 3.

    python tests/bench/bench_huge.py [--n 1e8] [--k 2 3]

Each measurement runs in its own process so that its peak memory is its own:
* ``pairs``: all pairs within k (time, pair count, peak memory);
* ``query``: build the stored-table index (time, index bytes beyond the fingerprint array), then
  the median time of 1,000 queries (half near planted fingerprints, half random) against the
  median of a few brute-force scans, and peak memory.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from common import machine, peak_rss_gb, planted_fingerprints, timed  # noqa: E402

from simdup_gui.engine.match.index import (  # noqa: E402
    FingerprintIndex,
    all_pairs,
    brute_force_query,
)


def stage_pairs(n: int, k: int) -> dict[str, float]:
    fps = planted_fingerprints(n, k)
    pairs, seconds = timed(lambda: all_pairs(fps, k, jobs=2))
    return {"seconds": seconds, "pairs": len(pairs), "peak_gb": peak_rss_gb()}


def stage_query(n: int, k: int) -> dict[str, float]:
    import time

    fps = planted_fingerprints(n, k)
    index, build = timed(lambda: FingerprintIndex(fps, k))
    rng = np.random.default_rng(1)
    queries = [int(fps[i]) ^ (1 << int(rng.integers(64))) for i in rng.integers(0, n, 500)]
    queries += [int(q) for q in rng.integers(0, 2**64, 500, dtype=np.uint64, endpoint=False)]
    times, hits = [], 0
    for q in queries:
        start = time.perf_counter()
        ids, _ = index.query(q, k)
        times.append(time.perf_counter() - start)
        hits += len(ids)
    brute = []
    for q in queries[:3] + queries[-2:]:
        (want, _), seconds = timed(lambda q=q: brute_force_query(fps, q, k))
        brute.append(seconds)
        if want.tolist() != index.query(q, k)[0].tolist():
            raise SystemExit("MISMATCH with brute force")
    return {
        "build_seconds": build,
        "permutations": len(index.plan.permutations),
        "index_gb": index.nbytes / 1e9,
        "query_median_us": float(np.median(times)) * 1e6,
        "query_p99_us": float(np.percentile(times, 99)) * 1e6,
        "brute_median_ms": float(np.median(brute)) * 1e3,
        "hits": hits,
        "peak_gb": peak_rss_gb(),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=float, default=1e8)
    parser.add_argument("--k", nargs="+", type=int, default=[2, 3])
    parser.add_argument("--stage", choices=["pairs", "query"])
    args = parser.parse_args()
    n = int(args.n)
    if args.stage:
        run = stage_pairs if args.stage == "pairs" else stage_query
        print(json.dumps(run(n, args.k[0])))
        return
    print(f"# N = {n:.0e}, {machine()}")
    for k in args.k:
        for stage in ("query", "pairs"):
            done = subprocess.run(
                [sys.executable, __file__, "--n", str(n), "--k", str(k), "--stage", stage],
                capture_output=True,
                text=True,
                check=True,
            )
            print(f"k={k} {stage}: {done.stdout.strip()}", flush=True)


if __name__ == "__main__":
    main()
