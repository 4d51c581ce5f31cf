"""``simdup scan`` and ``simdup cache``: the near-duplicate groups of folders, as a report."""

from __future__ import annotations

import argparse
import contextlib
import os
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, NamedTuple, TextIO

from simdup_gui.cli_common import (
    TerminalProgress,
    UsageError,
    add_method_options,
    add_text_options,
    capped_jobs,
    check_outputs,
    compiling_note,
    csv_file,
    dask_address,
    jobs_value,
    k_value,
    kept_apart,
    max_bytes,
    open_cluster,
    share,
    text_settings,
    writing,
)
from simdup_gui.engine.folders import Walked, folders_key, walk_folders
from simdup_gui.engine.methods import method_class
from simdup_gui.engine.options import (
    GroupOptions,
    ReadOptions,
    RunOptions,
    ScanOptions,
    WalkOptions,
)
from simdup_gui.engine.output.outputs import write_atomically
from simdup_gui.engine.output.words import LANGUAGES, Words, system_language
from simdup_gui.engine.progress import ProgressEvent, no_progress
from simdup_gui.engine.read.walk import DEFAULT_EXTENSIONS, display_path, in_folders
from simdup_gui.engine.resources import default_cache_path
from simdup_gui.engine.store.kept_reports import (
    MOST_FILES,
    KeptReport,
    kept_report_digest,
    load_kept_report,
)

if TYPE_CHECKING:
    from simdup_gui.engine.results import ScanResult

# The scan, the report and the cache are imported when a scan runs: an unchanged folder's
# kept report needs none of them, nor numpy (store/kept_reports.py).


def add_scan_parsers(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """``simdup scan DIR...`` and ``simdup cache clear|path``."""
    cpus = max(1, os.cpu_count() or 1)

    p = sub.add_parser("scan", help="group the near-duplicate articles of a folder")
    p.add_argument("folder", nargs="+", help="the folder (or several, grouped together)")
    p.add_argument(
        "--k",
        type=k_value,
        help=f"largest Hamming distance (0-8, default {GroupOptions().k}); from 7 on, files sharing"
        " most of their text are candidates too, whatever their distance",
    )
    p.add_argument(
        "--min-similarity",
        type=share,
        metavar="S",
        help="least similarity (0-1), by the method's own measure: the default's is the Jaccard"
        " similarity of 5-character shingles, at least"
        f" {method_class('default').floor} unless given",
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
    p.add_argument(
        "--csv", metavar="FILE", type=csv_file, help="write the report here (default and -: stdout)"
    )
    p.add_argument("--html", metavar="FILE", help="also write the groups as an HTML page")
    p.add_argument(
        "--lang",
        choices=LANGUAGES,
        default=system_language(),
        help="the reports' language, CSV and HTML (default: the system's)",
    )
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


class _Tally(NamedTuple):
    """What the summary line says of a scan."""

    files: int
    megabytes: float
    cached: int
    seconds: float
    cancelled: bool
    groups: int
    duplicates: int
    errors: int
    links: int
    skipped: tuple[str, ...]  # hidden and tool folders
    other_types: tuple[tuple[str, int], ...]

    @classmethod
    def of(cls, result: ScanResult) -> _Tally:
        """A scan's result summed up."""
        return cls(
            len(result.files),
            sum(f.size for f in result.files) / 1e6,
            result.cached,
            result.seconds,
            result.cancelled,
            len(result.groups),
            sum(len(g) - 1 for g in result.groups),
            len(result.errors),
            len(result.links),
            result.skipped_folders,
            result.other_types,
        )

    @classmethod
    def kept(cls, walked: list[Walked], outcome: KeptReport, seconds: float) -> _Tally:
        """An unchanged folder's kept report summed up: every file from the cache."""
        entries = [entry for part in walked for entry in part.entries]
        other_types = sum((part.other_types for part in walked), Counter[str]())
        return cls(
            len(entries),
            sum(entry.size for entry in entries) / 1e6,
            len(entries),
            seconds,
            False,
            outcome.groups,
            outcome.duplicates,
            0,
            0,
            tuple(folder for part in walked for folder in part.skipped),
            tuple(other_types.most_common()),
        )


def _summary(tally: _Tally, options: ScanOptions, words: Words) -> str:
    """The one line a scan ends with, in the language of ``words``."""
    state = words(" (cancelled: partial results)") if tally.cancelled else ""
    cached = words(", {count} from cache", count=tally.cached) if tally.cached else ""
    links = words(", {links} not read", links=words.count(tally.links, "link"))
    hidden = len(tally.skipped)
    skipped = words(", {folders} skipped", folders=words.count(hidden, "hidden or tool folder"))
    others = sum(count for _, count in tally.other_types)
    if others:
        kinds = " ".join(f"{ext} {count}" for ext, count in tally.other_types[:4])
        files = words.count(others, "file")
        skipped = (skipped if hidden else "") + words(
            ", {files} of other types not read ({kinds}; --ext adds them)", files=files, kinds=kinds
        )
    return words(
        "simdup: {files} ({megabytes} MB{cached}) in {seconds} s{state}: {groups},"
        " {duplicates}, {errors} unreadable{links}{skipped} ({conditions})",
        files=words.count(tally.files, "file"),
        megabytes=f"{tally.megabytes:.1f}",
        cached=cached,
        seconds=f"{tally.seconds:.1f}",
        state=state,
        groups=words.count(tally.groups, "group"),
        duplicates=words.count(tally.duplicates, "duplicate"),
        errors=tally.errors,
        links=links if tally.links else "",
        skipped=skipped if hidden or others else "",
        conditions=words.note(options.describe()),
    )


def _options(args: argparse.Namespace, err: TextIO) -> ScanOptions:
    """The scan's options from the arguments (folders checked: a bad one is a UsageError)."""
    for folder in args.folder:
        if not os.path.isdir(folder):
            raise UsageError(f"{folder}: not a folder")
    for option, folders in (("--reference", args.reference), ("--exclude", args.exclude)):
        for folder in folders:
            if not os.path.isdir(folder) or not in_folders(folder, args.folder):
                where = " or ".join(args.folder)
                raise UsageError(f"{option} {folder}: not a folder inside {where}")
    settings = text_settings(args)
    return ScanOptions(
        WalkOptions(tuple(_extension(e) for e in args.ext), tuple(args.exclude)),
        ReadOptions(settings, max_bytes(args), args.skip_oversize),
        GroupOptions(
            GroupOptions().k if args.k is None else args.k,
            settings.method.floor if args.min_similarity is None else args.min_similarity,
            not_duplicates=kept_apart(),  # what the app was told, kept apart
            reference_folders=tuple(args.reference),
        ),
        # the console script is import-safe, so large scans may use processes
        RunOptions(capped_jobs(args.jobs, err), processes=None),
    )


def _report_key(
    args: argparse.Namespace, options: ScanOptions, walked: list[Walked]
) -> tuple[str, str] | None:
    """Where the report of these folders is kept, and its digest; None if it is not kept.

    Kept with the cache on, for the CSV alone (no --html page, no cluster), when every file
    of at most :data:`MOST_FILES` has its record from its own text (not TF-IDF weights over
    the folder) and the walk found nothing that a rescan reads again (links, errors).
    """
    if args.no_cache or args.html or args.dask or options.read.text.whole_folder:
        return None
    entries = [entry for part in walked for entry in part.entries]
    if len(entries) > MOST_FILES or any(entry.error for entry in entries):
        return None
    return folders_key(walked), kept_report_digest(walked, options, args.lang)


def _write_report(text: str, args: argparse.Namespace, out: TextIO) -> None:
    """The report's text to ``--csv`` (atomically, with a byte-order mark) or to ``out``."""
    if not args.csv:
        out.write(text)
        return
    with writing(args.csv):
        write_atomically(args.csv, lambda stream: stream.write(text), "utf-8-sig")


def run_scan(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``simdup scan``: an unchanged folder's kept report, or a scan and its report."""
    started = time.perf_counter()
    options = _options(args, err)
    check_outputs({"--csv": args.csv, "--html": args.html}, args.folder)
    if args.quiet:
        progress: Callable[[ProgressEvent], None] = no_progress
    elif err.isatty():
        progress = TerminalProgress(err)
    else:
        progress = compiling_note(err)
    walked = walk_folders(args.folder, options, progress)
    walking = time.perf_counter() - started
    key = _report_key(args, options, walked)
    outcome = load_kept_report(default_cache_path(), *key) if key else None
    if outcome is None:
        tally = _scan_and_report(args, options, walked, progress, key, out, err)
        tally = tally._replace(seconds=walking + tally.seconds)
    else:
        _write_report(outcome.report, args, out)
        tally = _Tally.kept(walked, outcome, time.perf_counter() - started)
    if args.verbose:
        for folder in tally.skipped:
            err.write(f"simdup: skipped folder {display_path(folder)}\n")
    summary = _summary(tally, options, Words(args.lang))
    err.write(("\r" if not args.quiet and err.isatty() else "") + summary + "\n")
    return 1 if tally.cancelled else 0


def _scan_and_report(
    args: argparse.Namespace,
    options: ScanOptions,
    walked: list[Walked],
    progress: Callable[[ProgressEvent], None],
    key: tuple[str, str] | None,
    out: TextIO,
    err: TextIO,
) -> _Tally:
    """Scan the walked folders and write the report (kept under ``key`` if given)."""
    from simdup_gui.engine.output.report import report_text, write_report
    from simdup_gui.engine.scan import scan
    from simdup_gui.engine.store.cache import FingerprintCache

    cache = FingerprintCache.disabled() if args.no_cache else FingerprintCache.default()
    with contextlib.ExitStack() as stack:
        stack.callback(cache.close)
        pool = open_cluster(stack, args.dask) if args.dask else None
        grouper = None
        if pool is not None:
            options = replace(options, run=RunOptions(pool.threads, processes=True))
            from simdup_gui.engine.cluster.table import cluster_grouper  # with --dask only

            grouper = cluster_grouper(pool.client)
        result = scan(
            walked, options, cache=cache, progress=progress, workers=pool, grouper=grouper
        )
        tally = _Tally.of(result)
        words = Words(args.lang)
        text = report_text(result, words) if key or not args.csv else None  # else streamed
        if key and text and not result.cancelled and not any(f.error for f in result.files):
            cache.put_kept_report(*key, KeptReport(text, tally.groups, tally.duplicates))
    for warning in result.warnings:
        err.write(f"simdup: warning: {warning}\n")
    if text is not None:
        _write_report(text, args, out)
    else:
        with writing(args.csv):
            write_report(result, args.csv, words)
    if args.html:
        from simdup_gui.engine.output.html_report import write_html_report  # with --html only

        with writing(args.html):
            write_html_report(result, args.html, words)
    return tally


def run_cache(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``simdup cache``."""
    from simdup_gui.engine.store.cache import FingerprintCache

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
