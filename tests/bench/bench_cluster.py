"""The engine on Dask against itself in one process, in one run: the overhead of the dataflow.

    python tests/bench/bench_cluster.py [--n 10000000] [--rows 1000000] [--workers 2]

1. All pairs at k = 3 over ``--n`` synthetic fingerprints (10 % planted near copies): the
   in-process ``all_pairs`` (two threads) against ``cluster_all_pairs`` on ``local:N``, whose
   parts are made on the workers (the client never holds them). Both must give the same pairs.
   Per table group: the shuffle's bytes and seconds, for the estimate at scale.
2. ``simdup table`` end to end over a Parquet of ``--rows`` synthetic articles (a tenth of them
   edited copies): on this machine's processes and on ``local:N``, the same report.
3. On paper: what 10^9 articles would take on W workers, from the measured per-fingerprint costs.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from itertools import pairwise
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from common import machine, planted_fingerprints  # noqa: E402

from simdup_gui.engine.cluster.client import cluster_client  # noqa: E402
from simdup_gui.engine.cluster.pairs import PER_PIECE, cluster_all_pairs  # noqa: E402
from simdup_gui.engine.match.index import all_pairs  # noqa: E402
from simdup_gui.engine.match.permutations import (  # noqa: E402
    _PAIR_COST,
    _PERMUTATION_COST,
    bucket_bits,
    permutation_groups,
    plan_for_pairs,
)

PART = 1_000_000  # fingerprints a worker makes per input part


def synthetic_part(seed: int, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
    """Part ``seed``: ids lo..hi and their fingerprints (planted copies within the part)."""
    return np.arange(lo, hi, dtype=np.int64), planted_fingerprints(hi - lo, 3, 0.1, seed)


def pairs_figures(n: int, workers: int) -> dict[str, float]:
    bounds = [*range(0, n, PART), n]
    parts_here = [synthetic_part(s, lo, hi) for s, (lo, hi) in enumerate(pairwise(bounds))]
    fps = np.concatenate([p[1] for p in parts_here])
    del parts_here
    all_pairs(fps[:100_000], 3)  # the kernels loaded before timing
    start = time.perf_counter()
    here = all_pairs(fps, 3)
    in_process = time.perf_counter() - start
    with cluster_client(f"local:{workers}") as client:
        warm = [client.submit(synthetic_part, 0, 0, 100_000)]
        cluster_all_pairs(client, warm, 100_000, 3)  # each worker's kernels loaded
        start = time.perf_counter()
        parts = [
            client.submit(synthetic_part, s, lo, hi, pure=False)
            for s, (lo, hi) in enumerate(pairwise(bounds))
        ]
        there = cluster_all_pairs(client, parts, n, 3)
        on_cluster = time.perf_counter() - start
    assert np.array_equal(here.i, there.i), "pairs differ"
    assert np.array_equal(here.j, there.j), "pairs differ"
    plan = plan_for_pairs(3, n)
    groups = len(permutation_groups(plan, n)[1])
    print(f"\n## All pairs, k = 3, {n:,} fingerprints ({len(here):,} pairs, the same both ways)\n")
    print("| run | seconds | × in-process |")
    print("|---|---:|---:|")
    print(f"| in-process `all_pairs`, 2 threads | {in_process:.2f} | 1.0 |")
    ratio = on_cluster / in_process
    print(f"| `cluster_all_pairs` on local:{workers} | {on_cluster:.2f} | {ratio:.1f} |")
    shuffled = groups * n * 16
    print(
        f"\nPlan: {len(plan.permutations)} permutations in {groups} groups; the shuffle moves"
        f" {shuffled / 1e9:.2f} GB ({groups} × {n:,} × 16 bytes); reducers per group:"
        f" {min(64, max(1, n // PER_PIECE))}."
    )
    per_permutation = (
        on_cluster * workers / (len(plan.permutations) * n)
    )  # core-seconds per fingerprint
    return {"per_permutation": per_permutation, "n": n}


def articles_table(rows: int, path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(5)
    # 20,000 two-character words: distinct articles share few of them, as real ones do
    codes = rng.integers(0x4E00, 0x9FA5, (20_000, 2))
    words = np.array(["".join(map(chr, pair)) for pair in codes.tolist()])
    writer = None
    for lo in range(0, rows, 100_000):
        count = min(100_000, rows - lo)
        texts = ["".join(rng.choice(words, 60)) + "。" for _ in range(count)]
        for n in range(0, count, 10):  # a tenth edited copies of the row before
            if n + 1 < count:
                texts[n + 1] = texts[n].replace(texts[n][:2], "新闻", 1)
        table = pa.table({"id": [f"r{lo + n}" for n in range(count)], "text": texts})
        writer = writer or pq.ParquetWriter(path, table.schema)
        writer.write_table(table)
    if writer is not None:
        writer.close()


def table_figures(rows: int, workers: int) -> None:
    from simdup_gui.engine.cluster.table import scan_table_on_cluster
    from simdup_gui.engine.options import ScanOptions
    from simdup_gui.engine.output.report import report_text
    from simdup_gui.engine.table_scan import scan_table

    with tempfile.TemporaryDirectory() as folder:
        table = Path(folder) / "articles.parquet"
        articles_table(rows, table)
        size = table.stat().st_size / 1e6
        print(f"\n## A table end to end, {rows:,} rows ({size:.0f} MB of Parquet)\n")
        print("| run | seconds | rows/s | groups |")
        print("|---|---:|---:|---:|")
        reports = []
        with cluster_client(f"local:{workers}") as client:
            runs = (
                (
                    f"`scan_table`, this machine's {os.cpu_count()} processes",
                    lambda: scan_table([str(table)], "text", ScanOptions(), id_column="id"),
                ),
                (
                    f"local:{workers}, grouped on the client",
                    lambda: scan_table_on_cluster(
                        client, [str(table)], "text", id_column="id", group_on_cluster=False
                    ),
                ),
                (
                    f"local:{workers}, grouped on the cluster",
                    lambda: scan_table_on_cluster(
                        client, [str(table)], "text", id_column="id", group_on_cluster=True
                    ),
                ),
            )
            for label, run in runs:
                start = time.perf_counter()
                result = run()
                seconds = time.perf_counter() - start
                reports.append(report_text(result))
                print(
                    f"| {label} | {seconds:.1f} | {rows / seconds:,.0f} | {len(result.groups):,} |"
                )
        assert reports[0] == reports[1] == reports[2], "the reports differ"


def _work(n: int) -> tuple[int, float]:
    """The plan's tables for ``n`` and the cost model's work per fingerprint per table."""
    plan = plan_for_pairs(3, n)
    bits = max(bucket_bits(t.prefix_bits, n) for t in plan.permutations)
    return len(plan.permutations), _PERMUTATION_COST + _PAIR_COST * n / 2.0**bits / 2


def on_paper(per_permutation: float, measured_n: int) -> None:
    tables, work = _work(10**9)
    _, measured_work = _work(measured_n)
    core_seconds = per_permutation * work / measured_work * tables * 10**9
    print("\n## On paper: all pairs at k = 3 over 10^9 fingerprints\n")
    print(
        f"The plan for 10^9: {tables} permutations. Measured here:"
        f" {per_permutation * 1e9:.0f} core-ns per fingerprint per permutation (shuffle and"
        f" check), scaled by the cost model's work per"
        f" fingerprint at 10^9 ({work:.0f} against {measured_work:.0f}): {core_seconds / 3600:.1f}"
        " core-hours, divided among the workers (the network not counted):\n"
    )
    print("| workers | hours |")
    print("|---:|---:|")
    for workers in (16, 128, 1024):
        print(f"| {workers} | {core_seconds / workers / 3600:.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=10_000_000)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    print(f"# {machine()}")
    figures = pairs_figures(args.n, args.workers)
    on_paper(figures["per_permutation"], int(figures["n"]))
    if args.rows:
        table_figures(args.rows, args.workers)


if __name__ == "__main__":
    main()
