"""``simdup reuse``: how much of each article was copied, from which article (查重)."""

from __future__ import annotations

import argparse
import os
from typing import TextIO

from simdup_gui.cli_common import (
    TerminalProgress,
    UsageError,
    capped_jobs,
    check_outputs,
    compiling_note,
    csv_file,
    jobs_value,
    kept_apart,
    megabytes,
    share,
    writing,
)
from simdup_gui.engine.options import GroupOptions, ReadOptions, RunOptions, ScanOptions
from simdup_gui.engine.output.words import LANGUAGES, Words, system_language
from simdup_gui.engine.progress import no_progress
from simdup_gui.engine.read.walk import in_folders
from simdup_gui.engine.reuse.align import LEAST, LONGEST_MATCH
from simdup_gui.engine.reuse.units import RUN


def match_length(text: str) -> int:
    """A passage's least units, from RUN (the runs the alignment matches) to LONGEST_MATCH."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not RUN <= value <= LONGEST_MATCH:
        raise argparse.ArgumentTypeError(f"must be a whole number from {RUN} to {LONGEST_MATCH}")
    return value


def add_reuse_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """``simdup reuse DIR...``."""
    cpus = max(1, os.cpu_count() or 1)
    p = sub.add_parser(
        "reuse", help="how much of each article was copied, from which (a copy check, 查重)"
    )
    p.add_argument("folder", nargs="+", help="the folder (or several, checked together)")
    p.add_argument(
        "--library", metavar="LIB", help="the archive library's articles are sources too"
    )
    p.add_argument(
        "--min-share",
        type=share,
        default=0.05,
        metavar="S",
        help="report a source an article copied at least this share of its text from (0-1,"
        " default %(default)s)",
    )
    p.add_argument(
        "--min-match",
        type=match_length,
        default=LEAST,
        metavar="N",
        help="the shortest copied passage reported, in words or Chinese characters (default"
        " %(default)s, as a copy check counts); a source needs twice as many copied",
    )
    p.add_argument(
        "--no-quotes",
        action="store_true",
        help="leave text in quotation marks out of the shares (去除引用)",
    )
    p.add_argument(
        "--own",
        action="append",
        default=[],
        metavar="DIR",
        help="a folder inside FOLDER of one's own published articles: their copying is"
        " reported, flagged, and each total is also given without them (去除本人已发表;"
        " repeat for more)",
    )
    p.add_argument(
        "--csv", metavar="FILE", type=csv_file, help="write the report here (default and -: stdout)"
    )
    p.add_argument("--html", metavar="FILE", help="also write each article beside its source")
    p.add_argument(
        "--lang",
        choices=LANGUAGES,
        default=system_language(),
        help="the reports' language, CSV and HTML (default: the system's)",
    )
    p.add_argument("--jobs", type=jobs_value, default=cpus, help=f"workers (default {cpus})")
    p.add_argument("--max-mb", type=megabytes, default=16, help="read at most this much of a file")
    p.add_argument("--no-cache", action="store_true", help="neither use nor fill the cache")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")


def run_reuse(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``simdup reuse``: scan the folders, then measure each article's sources."""
    from simdup_gui.engine.output.reuse_report import write_reuse_report, write_reuse_rows
    from simdup_gui.engine.reuse.sources import find_reuse
    from simdup_gui.engine.scan import scan
    from simdup_gui.engine.store.cache import FingerprintCache

    for folder in args.folder:
        if not os.path.isdir(folder):
            raise UsageError(f"{folder}: not a folder")
    for folder in args.own:
        if not os.path.isdir(folder) or not in_folders(folder, args.folder):
            raise UsageError(f"--own {folder}: not a folder inside {' or '.join(args.folder)}")
    library_folder = [args.library] if args.library else []  # never a report inside it
    check_outputs({"--csv": args.csv, "--html": args.html}, [*args.folder, *library_folder])
    library = _library(args.library)
    options = ScanOptions(
        read=ReadOptions(max_bytes=int(args.max_mb * 1024 * 1024)),
        group=GroupOptions(not_duplicates=kept_apart()),
        run=RunOptions(capped_jobs(args.jobs, err), processes=None),
    )
    progress = (
        no_progress
        if args.quiet
        else TerminalProgress(err)
        if err.isatty()
        else compiling_note(err)
    )
    cache = FingerprintCache.disabled() if args.no_cache else FingerprintCache.default()
    try:
        scanned = scan(args.folder, options, cache=cache, progress=progress)
    finally:
        cache.close()
    own = tuple(os.path.abspath(folder) for folder in args.own)
    result = find_reuse(
        scanned,
        min_share=args.min_share,
        quotes=not args.no_quotes,
        own=lambda path: bool(own) and in_folders(os.path.abspath(path), own),
        library=library,
        progress=progress,
        min_match=args.min_match,
    )
    words = Words(args.lang)
    if args.csv:
        with writing(args.csv):
            write_reuse_report(result, args.csv, words)
    else:
        write_reuse_rows(out, result, words)
    if args.html:
        from simdup_gui.engine.output.reuse_report import write_reuse_html

        with writing(args.html):
            write_reuse_html(result, args.html, words)
    if not args.quiet:
        copied = len(result.articles)
        summary = words(
            "simdup: {files} files: {copied} copied at least {share} % of their text from another",
            files=len(scanned.files),
            copied=copied,
            share=f"{100 * args.min_share:g}",
        )
        if result.problems:
            summary += words(
                ", {count} not measured again (the error rows say why)",
                count=len(result.problems),
            )
        err.write(("\r" if err.isatty() else "") + summary + "\n")
    return 1 if scanned.cancelled else 0


def _library(folder: str | None) -> object:
    """The library named, opened and checked (None without one)."""
    if folder is None:
        return None
    from simdup_gui.engine.library.store import Library, LibraryError

    try:  # checked whole before the scan: a damaged or stale library is a line, not a traceback
        library = Library.open(folder)
        library.refuse_if_stale()
        library.check_lookups()
    except LibraryError as exc:
        raise UsageError(str(exc)) from None
    return library
