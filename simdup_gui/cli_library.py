"""``simdup library add | check | stats | remove``: the archive library from the command line."""

from __future__ import annotations

import argparse
import csv
import os
from typing import TextIO

from simdup_gui.cli_common import (
    UsageError,
    add_text_options,
    csv_file,
    k_value,
    kept_apart,
    max_bytes,
    share,
    text_settings,
    waiting_said,
)
from simdup_gui.engine.library.build import add_fingerprints, add_folders, remove
from simdup_gui.engine.library.check import ArticleChecker, Match, check_fingerprint, said_apart
from simdup_gui.engine.library.store import Library, LibraryError, library_stats
from simdup_gui.engine.match.fingerprint_lists import parse_fingerprint
from simdup_gui.engine.options import ReadOptions, RunOptions, ScanOptions, TextSettings
from simdup_gui.engine.output.cells import fingerprint_hex, modified_text, safe_cell
from simdup_gui.engine.output.outputs import output_problem, write_atomically
from simdup_gui.engine.output.report import held_note
from simdup_gui.engine.output.words import Words, counted, system_language
from simdup_gui.engine.read.walk import display_path
from simdup_gui.engine.records import FileRecord
from simdup_gui.engine.reuse.sources import share_in
from simdup_gui.engine.scan import scan, scan_article
from simdup_gui.engine.store.cache import FingerprintCache

CHECK_COLUMNS = (
    "path",
    "match",
    "distance",
    "similarity",
    "share",  # of the target's text found in the match (a copy check's 复制比)
    "match_size",
    "match_mtime",
    "error",
    "notes",
)


def add_library_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """``simdup library …`` and its commands."""
    library = sub.add_parser(
        "library", help="a stored fingerprint library to check articles against"
    )
    commands = library.add_subparsers(dest="library_command", required=True)
    p = commands.add_parser("add", help="add folders of articles, or a file of fingerprints")
    p.add_argument("library", metavar="LIB")
    p.add_argument("folders", nargs="*", metavar="DIR")
    p.add_argument("--fingerprints", metavar="FILE", help="import precomputed fingerprints")
    p.add_argument("--prune", action="store_true", help="drop articles that are gone")
    p.add_argument(
        "--max-k",
        type=k_value,
        default=None,
        help="a new library answers k up to this (default 8; 3 keeps 10^8 fingerprints in 4 GB)",
    )
    add_text_options(p)
    p = commands.add_parser("check", help="targets (files or folders) or fingerprints against LIB")
    p.add_argument("library", metavar="LIB")
    p.add_argument("targets", nargs="*", metavar="TARGET")
    p.add_argument("--fp", nargs="+", metavar="HEX", help="fingerprints to look up")
    p.add_argument("--k", type=k_value, default=None, help="largest distance (default 8, --fp 3)")
    p.add_argument("--min-similarity", type=share, default=0.4, metavar="S")
    p.add_argument(
        "--csv", metavar="FILE", type=csv_file, help="write the rows here (default and -: stdout)"
    )
    add_text_options(p)
    p = commands.add_parser("stats", help="what the library holds")
    p.add_argument("library", metavar="LIB")
    p = commands.add_parser("remove", help="drop articles at or under paths")
    p.add_argument("library", metavar="LIB")
    p.add_argument("paths", nargs="+", metavar="PATH")


def run_library_command(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``simdup library``: its fingerprint settings are the options' (``add`` has them)."""
    settings = text_settings(args) if hasattr(args, "tokenizer") else TextSettings()
    return run_library(args, out, err, settings)


def run_library(args: argparse.Namespace, out: TextIO, err: TextIO, settings: TextSettings) -> int:
    """Run a library command; ``settings`` are the fingerprint settings the options give."""
    try:
        command = args.library_command
        if command == "add":
            return _add(args, err, settings)
        if command == "check":
            return _check(args, out, err, settings)
        if command == "stats":
            return _stats(args, out)
        return _remove(args, err)
    except LibraryError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:  # a full disk, a file gone while read
        raise UsageError(f"{args.library}: {exc.strerror or exc}") from None
    except (ValueError, KeyError, IndexError) as exc:  # damage its checksums do not cover
        raise UsageError(f"{args.library}: damaged library ({exc})") from None


def _options(args: argparse.Namespace, settings: TextSettings) -> ScanOptions:
    read = ReadOptions(settings, max_bytes(args))
    return ScanOptions(read=read, run=RunOptions(processes=None))


def _add(args: argparse.Namespace, err: TextIO, settings: TextSettings) -> int:
    if not args.folders and not args.fingerprints:
        raise UsageError("library add: give folders of articles or --fingerprints FILE")
    for folder in args.folders:
        if not os.path.isdir(folder):
            raise UsageError(f"{folder}: not a folder")
        problem = output_problem(args.library, [folder], folder=True)
        if problem:
            raise UsageError(problem)
    options = _options(args, settings)
    waiting = waiting_said(err)
    if args.fingerprints:
        done = add_fingerprints(args.library, args.fingerprints, options, args.max_k, waiting)
        imported = counted(done.imported, "fingerprint")
        err.write(f"simdup: imported {imported} into {args.library}\n")
    if args.folders:
        cache = FingerprintCache.default()
        try:
            done = add_folders(
                args.library,
                args.folders,
                options,
                prune=args.prune,
                cache=cache,
                progress=waiting,
                max_k=args.max_k,
            )
        finally:
            cache.close()
        for path in done.vanished:
            gone = "dropped" if done.pruned else "gone (--prune drops it)"
            err.write(f"simdup: {gone}: {display_path(path)}\n")
        words = Words(system_language())
        state = "" if done.written else words(" (nothing changed)")
        said = words(
            "simdup: {new} new, {changed} changed, {unchanged} unchanged, {gone} gone,"
            " {unreadable} unreadable{state}",
            new=done.new,
            changed=done.changed,
            unchanged=done.unchanged,
            gone=len(done.vanished),
            unreadable=len(done.unreadable),
            state=state,
        )
        err.write(said + "\n")
    return 0


def _check(args: argparse.Namespace, out: TextIO, err: TextIO, settings: TextSettings) -> int:
    library = Library.open(args.library)
    if library.settings != settings:
        raise UsageError(
            f"{args.library}: built with other fingerprint settings; check with the same options"
        )
    if not len(library.fingerprints):
        raise UsageError(f"{args.library}: the library is empty (add articles first)")
    if bool(args.fp) == bool(args.targets):
        raise UsageError("library check: give targets or --fp, not both or neither")
    if args.csv:
        problem = output_problem(args.csv, [*args.targets, args.library])
        if problem:
            raise UsageError(problem)
    if args.fp:
        rows = _fingerprint_rows(library, args.fp, 3 if args.k is None else args.k)
    else:
        rows = _article_rows(library, args, settings)
    if args.csv:
        try:
            write_atomically(args.csv, lambda s: _write_rows(s, rows), "utf-8-sig")
        except OSError as exc:
            raise UsageError(f"{args.csv}: {exc.strerror or exc}") from None
    else:
        _write_rows(out, rows)
    matched = len({r[0] for r in rows if r[1]})
    said = Words(system_language())(
        "simdup: {matched} of {checked} with a match in the library",
        matched=matched,
        checked=len({r[0] for r in rows}),
    )
    err.write(said + "\n")
    return 0


def _fingerprint_rows(library: Library, texts: list[str], k: int) -> list[list[object]]:
    rows: list[list[object]] = []
    for text in texts:
        try:
            fingerprint = parse_fingerprint(text)
        except ValueError as exc:
            raise UsageError(f"--fp: {exc}") from None
        shown = fingerprint_hex(fingerprint)
        matches = check_fingerprint(library, fingerprint, k)
        rows += [_row(library, shown, m) for m in matches] or [_unmatched(shown)]
    return rows


def _article_rows(
    library: Library, args: argparse.Namespace, settings: TextSettings
) -> list[list[object]]:
    options = _options(args, settings)
    records: list[FileRecord] = []
    for target in args.targets:
        if os.path.isdir(target):
            records += scan(os.path.abspath(target), options).files
        elif os.path.exists(target):
            records += scan_article(target, options).files
        else:
            raise UsageError(f"{target}: no such file or folder")
    k = 8 if args.k is None else args.k
    found = ArticleChecker(library, k, args.min_similarity, options.read).matches(records)
    apart = kept_apart()  # the pairs said to be not duplicates are no match
    rows: list[list[object]] = []
    for record, matches in zip(records, found, strict=True):
        shown = display_path(record.path)
        matches = [
            m for m in matches if not said_apart(record.path, library.name_of(m.entry), apart)
        ]
        if record.error:
            rows.append([shown, "", "", "", "", "", "", record.error, ""])
        else:
            rows += [_row(library, shown, m, record) for m in matches] or [_unmatched(shown)]
    return rows


def _unmatched(shown: str) -> list[object]:
    return [shown, *[""] * (len(CHECK_COLUMNS) - 1)]


def _row(
    library: Library, shown: str, match: Match, target: FileRecord | None = None
) -> list[object]:
    size = mtime = note = ""
    if match.entry < library.article_count:
        record = library.articles()[match.entry]
        size, mtime = str(record.size), modified_text(record.mtime_ns)
        if match.contained and target is not None:
            note = held_note(target, record, "the match")
    similar = "" if match.similarity is None else f"{100 * match.similarity:.1f}%"
    share = ""
    if match.similarity is not None and target is not None:
        share = f"{100 * share_in(target, library, match.entry):.1f}%"
    name = display_path(library.name_of(match.entry))
    return [shown, name, match.distance, similar, share, size, mtime, "", note]


def _write_rows(stream: TextIO, rows: list[list[object]]) -> None:
    writer = csv.writer(stream, lineterminator="\r\n")
    writer.writerow(CHECK_COLUMNS)
    writer.writerows([safe_cell(v) for v in row] for row in rows)


def _stats(args: argparse.Namespace, out: TextIO) -> int:
    library = Library.open(args.library)
    checked = library.verify()
    stats = library_stats(library)
    out.write(f"library: {args.library}\n")
    out.write(f"articles: {stats.articles} ({stats.article_bytes / 1e6:.1f} MB)\n")
    out.write(f"imported fingerprints: {stats.imported} from {stats.imported_files} files\n")
    out.write(f"near-duplicate groups among the articles: {stats.groups}\n")
    by_distance = " ".join(f"{d}:{c}" for d, c in enumerate(stats.by_distance))
    out.write(f"pairs within 8 bits, by distance: {by_distance}\n")
    used = ", ".join(f"{e or '?'} {c}" for e, c in stats.encodings)
    out.write(f"encodings: {used}\n")
    spoken = ", ".join(f"{lang or '?'} {c}" for lang, c in stats.languages)
    out.write(f"languages: {spoken}\n")
    out.write(f"settings: {stats.settings}; last update: {stats.updated}\n")
    sums = f"{checked} files match their checksums" if checked else "no checksums (older format)"
    out.write(f"checked: {sums}\n")
    return 0


def _remove(args: argparse.Namespace, err: TextIO) -> int:
    dropped = remove(args.library, [os.path.abspath(p) for p in args.paths], waiting_said(err))
    err.write(f"simdup: dropped {dropped} entries from {args.library}\n")
    return 0
