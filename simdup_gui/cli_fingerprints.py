"""``simdup pairs`` and ``simdup query``: the index over a file of fingerprints."""

from __future__ import annotations

import argparse
import csv
import os
import time
from contextlib import ExitStack
from typing import TextIO

from simdup_gui.cli_common import (
    UsageError,
    capped_jobs,
    check_output,
    dask_address,
    jobs_value,
    k_value,
    open_cluster,
)
from simdup_gui.engine.cluster.pairs import PER_PIECE, cluster_all_pairs, scatter_parts
from simdup_gui.engine.match.fingerprint_lists import load_fingerprints, parse_fingerprint
from simdup_gui.engine.match.index import FingerprintIndex, Pairs, all_pairs
from simdup_gui.engine.output.cells import fingerprint_hex
from simdup_gui.engine.output.outputs import write_atomically
from simdup_gui.engine.output.words import counted


def add_fingerprint_parsers(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """``simdup pairs FILE`` and ``simdup query FILE FP...``."""
    p = sub.add_parser("pairs", help="all pairs within k among fingerprints in a file")
    p.add_argument("file", help="one fingerprint per line (16 hex or 64 binary digits), or .npy")
    p.add_argument("--k", type=k_value, default=3)
    p.add_argument("--out", metavar="FILE", help="write i,j,distance CSV here (default: stdout)")
    p.add_argument("--jobs", type=jobs_value, default=min(max(1, os.cpu_count() or 1), 2))
    p.add_argument(
        "--dask",
        type=dask_address,
        metavar="ADDRESS",
        help="run on a Dask cluster: local:N or tcp://…",
    )

    p = sub.add_parser("query", help="fingerprints within k of each query")
    p.add_argument("file")
    p.add_argument("fingerprints", nargs="+", metavar="FP")
    p.add_argument("--k", type=k_value, default=2)


def _write_pairs(pairs: Pairs, stream: TextIO) -> None:
    stream.write("i,j,distance\n")
    step = 1 << 20
    for lo in range(0, len(pairs), step):
        rows = zip(
            pairs.i[lo : lo + step].tolist(),
            pairs.j[lo : lo + step].tolist(),
            pairs.distance[lo : lo + step].tolist(),
            strict=True,
        )
        stream.write("".join(f"{i},{j},{d}\n" for i, j, d in rows))


def run_pairs(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``simdup pairs``."""
    if args.out:
        check_output(args.out, [args.file])
    fps = load_fingerprints(args.file)
    with ExitStack() as stack:
        started = time.perf_counter()
        if args.dask:
            client = open_cluster(stack, args.dask).client
            started = time.perf_counter()  # the cluster's start is not the pairs' time
            parts = scatter_parts(client, fps, max(1, len(fps) // PER_PIECE))
            pairs = cluster_all_pairs(client, parts, len(fps), args.k)
        else:
            pairs = all_pairs(fps, args.k, jobs=capped_jobs(args.jobs, err))
        seconds = time.perf_counter() - started
    if args.out:
        write_atomically(args.out, lambda stream: _write_pairs(pairs, stream))
    else:
        _write_pairs(pairs, out)
    err.write(
        f"simdup: {counted(len(pairs), 'pair')} within k={args.k} among"
        f" {counted(len(fps), 'fingerprint')}"
        f" in {seconds:.2f} s\n"
    )
    return 0


def run_query(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``simdup query``."""
    queries = []
    for text in args.fingerprints:
        try:
            queries.append(parse_fingerprint(text))
        except ValueError as exc:
            raise UsageError(f"query: {exc}") from None
    index = FingerprintIndex(load_fingerprints(args.file), args.k)
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(("query", "index", "distance"))
    for fp in queries:
        ids, dist = index.query(fp, args.k)
        shown = fingerprint_hex(fp)  # the query as parsed: one cell, whatever was typed
        writer.writerows((shown, i, d) for i, d in zip(ids.tolist(), dist.tolist(), strict=True))
        err.write(f"simdup: {shown}: {len(ids)} within k={args.k}\n")
    return 0
