"""All-pairs and query speed of the permuted-table index against brute force and the peers.

    python tests/bench/bench_index.py                       # N = 10^4 … 10^7, k = 3
    python tests/bench/bench_index.py --sizes 1e6 --k 2 3

For each N: random fingerprints with 10 % planted neighbours (1..k bits flipped). Our all-pairs
time is compared, in the same process, with numpy brute force (every pair, measured up to
``--brute-max`` and checked equal to our answer there) and with the ``simhash`` PyPI package's
``SimhashIndex`` (built and asked for every fingerprint's near duplicates, up to ``--peer-max``).
Ratios are theirs / ours: how many times faster we are.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import machine, peak_rss_gb, planted_fingerprints, timed

from simdup_gui.engine.match.index import all_pairs, brute_force_pairs, plan_for_pairs


def simhash_pypi_pairs(fps: np.ndarray, k: int) -> int:
    """All pairs within k with the simhash package's SimhashIndex; returns the pair count."""
    import logging

    from simhash import Simhash, SimhashIndex

    logging.getLogger("simhash").setLevel(logging.ERROR)
    objs = [(str(i), Simhash(int(v))) for i, v in enumerate(fps)]
    index = SimhashIndex(objs, k=k)
    found = 0
    for i, obj in objs:
        found += sum(1 for j in index.get_near_dups(obj) if int(j) > int(i))
    return found


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", nargs="+", type=float, default=[1e4, 1e5, 1e6, 1e7])
    parser.add_argument("--k", nargs="+", type=int, default=[3])
    parser.add_argument("--brute-max", type=float, default=1e5)
    parser.add_argument("--peer-max", type=float, default=1e5)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    print(f"# all pairs, {machine()}")
    print("| N | k | tables | pairs | ours (s) | brute force (s) | × | simhash PyPI (s) | × |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for size in args.sizes:
        n = int(size)
        for k in args.k:
            fps = planted_fingerprints(n, k)
            all_pairs(fps[:100], k)  # the compiled kernels loaded before timing
            ours, seconds = timed(lambda fps=fps, k=k: all_pairs(fps, k, jobs=args.jobs))
            brute = peer = "–"
            brute_x = peer_x = "–"
            if n <= args.brute_max:
                want, brute_s = timed(lambda fps=fps, k=k: brute_force_pairs(fps, k))
                same = (
                    np.array_equal(want.i, ours.i)
                    and np.array_equal(want.j, ours.j)
                    and np.array_equal(want.distance, ours.distance)
                )
                if not same:
                    raise SystemExit(f"MISMATCH with brute force at N={n}, k={k}")
                brute, brute_x = f"{brute_s:.2f}", f"{brute_s / seconds:.0f}"
            if n <= args.peer_max:
                count, peer_s = timed(lambda fps=fps, k=k: simhash_pypi_pairs(fps, k))
                peer, peer_x = f"{peer_s:.2f}", f"{peer_s / seconds:.0f}"
                print(
                    f"  (simhash PyPI found {count} pairs, we found {len(ours)})", file=sys.stderr
                )
            tables = len(plan_for_pairs(k, n).permutations)
            print(
                f"| {n:.0e} | {k} | {tables} | {len(ours)} | {seconds:.3f} | {brute} | {brute_x} "
                f"| {peer} | {peer_x} |",
                flush=True,
            )
    print(f"\npeak memory of the run: {peak_rss_gb():.2f} GB")


if __name__ == "__main__":
    main()
