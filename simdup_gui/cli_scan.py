"""``simdup scan`` and ``simdup cache``: the near-duplicate groups of folders, as a report."""

from __future__ import annotations

import argparse
import contextlib
import os
from collections.abc import Callable
from dataclasses import replace
from typing import TextIO

from simdup_gui.cli_common import (
    TerminalProgress,
    UsageError,
    add_method_options,
    add_text_options,
    capped_jobs,
    check_output,
    compiling_note,
    dask_address,
    jobs_value,
    k_value,
    max_bytes,
    open_cluster,
    share,
    text_settings,
)
from simdup_gui.core import not_duplicates
from simdup_gui.engine.match.methods import FLOORS, thresholds_text
from simdup_gui.engine.options import ScanOptions
from simdup_gui.engine.output.report import report_text, write_report
from simdup_gui.engine.output.words import counted
from simdup_gui.engine.progress import ProgressEvent, no_progress
from simdup_gui.engine.read.walk import DEFAULT_EXTENSIONS, display_path, in_folders
from simdup_gui.engine.results import ScanResult
from simdup_gui.engine.scan import scan
from simdup_gui.engine.store.cache import FingerprintCache, default_cache_path


def add_scan_parsers(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """``simdup scan DIR...`` and ``simdup cache clear|path``."""
    cpus = max(1, os.cpu_count() or 1)

    p = sub.add_parser("scan", help="group the near-duplicate articles of a folder")
    p.add_argument("folder", nargs="+", help="the folder (or several, grouped together)")
    p.add_argument(
        "--k",
        type=k_value,
        help=f"largest Hamming distance (0-8, default {ScanOptions().k}); from 7 on, files sharing"
        " most of their text are candidates too, whatever their distance",
    )
    p.add_argument(
        "--min-similarity",
        type=share,
        metavar="S",
        help="least similarity (0-1), by the method's own measure: the default's is the Jaccard"
        f" similarity of 5-character shingles, at least {FLOORS['default']} unless given",
    )
    add_method_options(p, pairing=True)
    p.add_argument(
        "--reference",
        action="append",
        default=[],
        metavar="DIR",
        help="a folder inside FOLDER whose files are never acted on: a group's reference comes"
        " from it when it has one (repeat for more)",
    )
    p.add_argument(
        "--exclude",
        action="append",
        default=[],
        metavar="DIR",
        help="a folder inside FOLDER not to scan (repeat for more)",
    )
    p.add_argument("--csv", metavar="FILE", help="write the report here (default: stdout)")
    p.add_argument("--html", metavar="FILE", help="also write the groups as an HTML page")
    p.add_argument(
        "--jobs",
        type=jobs_value,
        default=cpus,
        help=f"parallel workers: processes for large scans (default {cpus})",
    )
    add_text_options(p)
    p.add_argument(
        "--ext",
        nargs="+",
        default=list(DEFAULT_EXTENSIONS),
        metavar="EXT",
        help="file extensions to read (default: %(default)s)",
    )
    p.add_argument("--skip-oversize", action="store_true", help="skip files over --max-mb")
    p.add_argument("--no-cache", action="store_true", help="neither use nor fill the cache")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    p.add_argument(
        "--verbose", action="store_true", help="list the hidden and tool folders skipped"
    )

    p.add_argument(
        "--dask",
        type=dask_address,
        metavar="ADDRESS",
        help="fingerprint on a Dask cluster: local:N (started and stopped here) or tcp://host:port",
    )

    p = sub.add_parser("cache", help="the fingerprint cache")
    p.add_argument("action", choices=["clear", "path"])


def _extension(text: str) -> str:
    return text.lower() if text.startswith(".") else "." + text.lower()


def _summary(result: ScanResult) -> str:
    options = result.options
    files = len(result.files)
    megabytes = sum(f.size for f in result.files) / 1e6
    duplicates = sum(len(g) - 1 for g in result.groups)
    state = " (cancelled: partial results)" if result.cancelled else ""
    cached = f", {result.cached} from cache" if result.cached else ""
    links = f", {counted(len(result.links), 'link')} not read" if result.links else ""
    hidden = result.skipped_folders
    skipped = f", {counted(len(hidden), 'hidden or tool folder')} skipped" if hidden else ""
    others = sum(count for _, count in result.other_types)
    if others:
        kinds = " ".join(f"{ext} {count}" for ext, count in result.other_types[:4])
        skipped += f", {counted(others, 'file')} of other types not read ({kinds}; --ext adds them)"
    return (
        f"simdup: {counted(files, 'file')} ({megabytes:.1f} MB{cached}) in {result.seconds:.1f} s"
        f"{state}: {counted(len(result.groups), 'group')}, {counted(duplicates, 'duplicate')},"
        f" {len(result.errors)} unreadable{links}{skipped}"
        f" ({thresholds_text(options.text.method, options.k, options.min_similarity)})"
    )


def run_scan(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``simdup scan``."""
    for folder in args.folder:
        if not os.path.isdir(folder):
            raise UsageError(f"{folder}: not a folder")
    for option, folders in (("--reference", args.reference), ("--exclude", args.exclude)):
        for folder in folders:
            if not os.path.isdir(folder) or not in_folders(folder, args.folder):
                where = " or ".join(args.folder)
                raise UsageError(f"{option} {folder}: not a folder inside {where}")
    settings = text_settings(args)
    options = ScanOptions(
        ScanOptions().k if args.k is None else args.k,
        tuple(_extension(e) for e in args.ext),
        settings,
        max_bytes=max_bytes(args),
        skip_oversize=args.skip_oversize,
        jobs=capped_jobs(args.jobs, err),
        min_similarity=(
            FLOORS[settings.method.name] if args.min_similarity is None else args.min_similarity
        ),
        processes=None,  # the console script is import-safe, so large scans may use processes
        not_duplicates=frozenset(not_duplicates.load()),  # what the app was told, kept apart
        reference_folders=tuple(args.reference),
        excluded_folders=tuple(args.exclude),
    )
    for output in (args.csv, args.html):
        if output:
            check_output(output, args.folder)
    if args.quiet:
        progress: Callable[[ProgressEvent], None] = no_progress
    elif err.isatty():
        progress = TerminalProgress(err)
    else:
        progress = compiling_note(err)
    cache = FingerprintCache.disabled() if args.no_cache else FingerprintCache.default()
    with contextlib.ExitStack() as stack:
        stack.callback(cache.close)
        pool = open_cluster(stack, args.dask) if args.dask else None
        grouper = None
        if pool is not None:
            options = replace(options, jobs=pool.threads, processes=True)
            from simdup_gui.engine.cluster.table import cluster_grouper  # with --dask only

            grouper = cluster_grouper(pool.client)
        result = scan(
            args.folder, options, cache=cache, progress=progress, workers=pool, grouper=grouper
        )
    for warning in result.warnings:
        err.write(f"simdup: warning: {warning}\n")
    if args.verbose:
        for folder in result.skipped_folders:
            err.write(f"simdup: skipped folder {display_path(folder)}\n")
    if args.csv:
        try:
            write_report(result, args.csv)
        except OSError as exc:
            raise UsageError(f"{args.csv}: {exc.strerror or exc}") from None
    else:
        out.write(report_text(result))
    if args.html:
        from simdup_gui.engine.output.html_report import write_html_report  # with --html only

        try:
            write_html_report(result, args.html)
        except OSError as exc:
            raise UsageError(f"{args.html}: {exc.strerror or exc}") from None
    err.write(("\r" if not args.quiet and err.isatty() else "") + _summary(result) + "\n")
    return 1 if result.cancelled else 0


def run_cache(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``simdup cache``."""
    path = default_cache_path()
    if args.action == "path":
        out.write(f"{path}\n")
        return 0
    cache = FingerprintCache(path)
    try:
        count = cache.clear()
    finally:
        cache.close()
    err.write(f"simdup: forgot {count} cached fingerprints ({path})\n")
    return 0
