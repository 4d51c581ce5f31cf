"""``simdup table``: the near-duplicate articles of a corpus held in Parquet or JSON Lines files."""

from __future__ import annotations

import argparse
import os
from contextlib import ExitStack
from functools import partial
from typing import TextIO

from simdup_gui.cli_common import (
    TerminalProgress,
    UsageError,
    add_method_options,
    add_text_options,
    capped_jobs,
    check_output,
    dask_address,
    jobs_value,
    k_value,
    max_bytes,
    open_cluster,
    share,
    text_settings,
)
from simdup_gui.engine.cluster.table import scan_table_on_cluster
from simdup_gui.engine.options import GroupOptions, ReadOptions, RunOptions, ScanOptions
from simdup_gui.engine.output.parquet_tables import write_parquet
from simdup_gui.engine.output.report import report_text, write_report
from simdup_gui.engine.output.words import counted
from simdup_gui.engine.progress import no_progress
from simdup_gui.engine.read.tables import TableError, table_files
from simdup_gui.engine.table_scan import scan_table


def add_table_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """``simdup table``'s grammar."""
    cpus = max(1, os.cpu_count() or 1)
    p = sub.add_parser("table", help="group the near-duplicate rows of Parquet or JSONL tables")
    p.add_argument("table", nargs="+", help="Parquet or JSON Lines files (or globs)")
    p.add_argument("--text-column", required=True, metavar="NAME", help="the articles' column")
    p.add_argument("--id-column", metavar="NAME", help="the rows' ids (default: file#row)")
    p.add_argument("--html", action="store_true", help="the texts are web pages: strip them")
    p.add_argument("--csv", metavar="FILE", help="write the report here (default: stdout)")
    p.add_argument("--parquet", metavar="DIR", help="also write records, pairs, groups here")
    p.add_argument("--dask", type=dask_address, metavar="ADDRESS", help="local:N or tcp://…")
    p.add_argument(
        "--k", type=k_value, help=f"largest Hamming distance (default {GroupOptions().k})"
    )
    p.add_argument("--min-similarity", type=share, metavar="S", help="least similarity (0-1)")
    p.add_argument("--jobs", type=jobs_value, default=cpus, help=f"processes (default {cpus})")
    p.add_argument("--quiet", action="store_true", help="no summary on stderr")
    add_text_options(p)
    add_method_options(p, pairing=True)


def run_table(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``simdup table``."""
    settings = text_settings(args)
    try:
        paths = table_files(args.table)
    except TableError as exc:
        raise UsageError(str(exc)) from None
    if args.csv:
        check_output(args.csv, paths)
    if args.parquet:
        check_output(args.parquet, paths, folder=True)
    floor = settings.method.floor if args.min_similarity is None else args.min_similarity
    options = ScanOptions(
        read=ReadOptions(settings, max_bytes(args)),
        group=GroupOptions(GroupOptions().k if args.k is None else args.k, floor),
        run=RunOptions(capped_jobs(args.jobs, err), processes=None),
    )
    progress = TerminalProgress(err, "rows") if err.isatty() else no_progress
    with ExitStack() as stack:
        run = scan_table
        if args.dask:  # the same scan on the cluster's workers
            run = partial(scan_table_on_cluster, open_cluster(stack, args.dask).client)
        try:
            result = run(
                paths,
                args.text_column,
                options,
                id_column=args.id_column,
                html=args.html,
                progress=progress,
            )
        except TableError as exc:
            raise UsageError(str(exc)) from None
    if args.csv:
        write_report(result, args.csv)
    else:
        out.write(report_text(result))
    if args.parquet:
        write_parquet(result, args.parquet)
    if not args.quiet:
        if err.isatty():
            err.write("\r")
        duplicates = sum(len(g) - 1 for g in result.groups)
        err.write(
            f"simdup: {counted(len(result.files), 'row')} in {result.seconds:.1f} s:"
            f" {counted(len(result.groups), 'group')}, {counted(duplicates, 'duplicate')},"
            f" {len(result.errors)} without text"
            f" ({options.describe()})\n"
        )
    return 0
