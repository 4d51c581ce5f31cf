"""``simdup``: the headless twin of the desktop app.

    simdup scan DIR [--k 3] [--csv FILE] [--jobs N]     duplicate groups of a folder's articles
    simdup pairs FILE [--k 3] [--out FILE]              all pairs within k among fingerprints
    simdup query FILE FP... [--k 2]                     fingerprints within k of each FP
    simdup apply REPORT (--move-to DIR | --trash)       act on a report's duplicates, re-checked
    simdup restore MANIFEST                             undo what apply (or the app) did
    simdup library add|check|stats|remove LIB ...       the archive library (see docs)
    simdup ignore add A B | list | remove A B | clear    pairs kept apart (not duplicates)
    simdup cache clear | path                           the fingerprint cache

Exit codes: 0 done (a scan with per-file errors is done), 1 cancelled, 2 bad input.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import io
import logging
import math
import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from simdup_gui.cli_library import LibraryUsageError, add_library_parser, run_library
from simdup_gui.core import not_duplicates
from simdup_gui.engine.fingerprint.files import fingerprint_file
from simdup_gui.engine.match.fingerprint_files import (
    FingerprintFileError,
    load_fingerprints,
    parse_fingerprint,
)
from simdup_gui.engine.match.index import MAX_K, FingerprintIndex, Pairs, all_pairs, check_k
from simdup_gui.engine.options import TOKENIZERS, WEIGHTINGS, ScanOptions, TextSettings
from simdup_gui.engine.output.actions import Manifest, act, manifest_path, restore
from simdup_gui.engine.output.cells import fingerprint_hex
from simdup_gui.engine.output.html_report import write_html_report
from simdup_gui.engine.output.outputs import output_problem, write_atomically
from simdup_gui.engine.output.report import (
    ReportError,
    report_duplicates,
    report_text,
    write_report,
)
from simdup_gui.engine.progress import ProgressEvent, no_progress
from simdup_gui.engine.read.walk import DEFAULT_EXTENSIONS, Entry, display_path
from simdup_gui.engine.results import ScanResult
from simdup_gui.engine.scan import scan
from simdup_gui.engine.store.cache import FingerprintCache, default_cache_path
from simdup_gui.logs import start_logging

log = logging.getLogger(__name__)
MAX_MB = 4096  # --max-mb: a file's text read at most


class UsageError(Exception):
    """Bad input: printed as one line, exit code 2."""


def _k(text: str) -> int:
    try:
        return check_k(int(text))
    except ValueError:
        raise argparse.ArgumentTypeError(f"k must be an integer from 0 to {MAX_K}") from None


def _share(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError("must be a number from 0 to 1")
    return value


def _jobs(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError("jobs must be a positive integer")
    return int(text)


def max_jobs() -> int:
    """The most workers worth starting: two per core (the work is computing, not waiting)."""
    return 2 * max(1, os.cpu_count() or 1)


def _capped_jobs(jobs: int, err: TextIO) -> int:
    """``jobs``, lowered to :func:`max_jobs` with a note."""
    if jobs > max_jobs():
        err.write(f"simdup: note: --jobs {jobs} lowered to {max_jobs()} (two per core)\n")
        return max_jobs()
    return jobs


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(message)


def build_parser() -> argparse.ArgumentParser:
    """The command-line grammar."""
    parser = _Parser(prog="simdup", description="Find near-duplicate articles (64-bit simhash).")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    cpus = max(1, os.cpu_count() or 1)

    p = sub.add_parser("scan", help="group the near-duplicate articles of a folder")
    p.add_argument("folder")
    p.add_argument(
        "--k",
        type=_k,
        default=ScanOptions().k,
        help="largest Hamming distance (0-8, default %(default)s); from 7 on, files sharing most"
        " of their text are candidates too, whatever their distance",
    )
    p.add_argument(
        "--min-similarity",
        type=_share,
        default=ScanOptions().min_similarity,
        metavar="S",
        help="least text similarity (Jaccard of 5-character shingles, 0-1, default %(default)s)",
    )
    p.add_argument("--csv", metavar="FILE", help="write the report here (default: stdout)")
    p.add_argument("--html", metavar="FILE", help="also write the groups as an HTML page")
    p.add_argument(
        "--jobs",
        type=_jobs,
        default=cpus,
        help=f"parallel workers: processes for large scans (default {cpus})",
    )
    _add_text_options(p)
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

    p = sub.add_parser("pairs", help="all pairs within k among fingerprints in a file")
    p.add_argument("file", help="one fingerprint per line (16 hex or 64 binary digits), or .npy")
    p.add_argument("--k", type=_k, default=3)
    p.add_argument("--out", metavar="FILE", help="write i,j,distance CSV here (default: stdout)")
    p.add_argument("--jobs", type=_jobs, default=min(cpus, 2))

    p = sub.add_parser("query", help="fingerprints within k of each query")
    p.add_argument("file")
    p.add_argument("fingerprints", nargs="+", metavar="FP")
    p.add_argument("--k", type=_k, default=2)
    p = sub.add_parser(
        "apply", help="move or trash a report's duplicates (never a reference), re-checked"
    )
    p.add_argument("report", help="a CSV report of simdup scan (or the app's Export)")
    how = p.add_mutually_exclusive_group(required=True)
    how.add_argument("--move-to", metavar="DIR", help="move them here, keeping their folders")
    how.add_argument("--trash", action="store_true", help="send them to the system trash")
    p.add_argument("--dry-run", action="store_true", help="say what would be done, do nothing")
    p.add_argument("--manifest", metavar="FILE", help="where to record what is done")
    _add_text_options(p)  # the scan's, so each file's fingerprint can be checked again
    p = sub.add_parser("restore", help="undo what a manifest records (moves and trash)")
    p.add_argument("manifest")
    p.add_argument("--dry-run", action="store_true", help="say what would be done, do nothing")
    add_library_parser(sub, _k, _share, _add_text_options)
    p = sub.add_parser("ignore", help="pairs of files that are not duplicates (kept apart)")
    p.add_argument("action", choices=["add", "list", "remove", "clear"])
    p.add_argument("paths", nargs="*", metavar="FILE", help="the two files of a pair")
    p = sub.add_parser("cache", help="the fingerprint cache")
    p.add_argument("action", choices=["clear", "path"])
    return parser


def _add_text_options(p: argparse.ArgumentParser) -> None:
    """The options that change a fingerprint (scan's, and apply's to check one again)."""
    p.add_argument("--weighting", choices=WEIGHTINGS, default=TextSettings().weighting)
    p.add_argument("--tokenizer", choices=sorted(TOKENIZERS), default="words")
    p.add_argument("--no-stopwords", action="store_true", help="keep function words")
    p.add_argument("--no-boilerplate", action="store_true", help="keep HTML site templates")
    p.add_argument("--max-mb", type=_megabytes, default=16, help="read at most this much of a file")


def _megabytes(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and 0 < value <= MAX_MB):
        raise argparse.ArgumentTypeError(f"must be a number of megabytes from 0 to {MAX_MB}")
    return value


def _text_settings(args: argparse.Namespace) -> TextSettings:
    return TextSettings(
        args.tokenizer, not args.no_stopwords, args.weighting, not args.no_boilerplate
    )


def _extension(text: str) -> str:
    return text.lower() if text.startswith(".") else "." + text.lower()


COMPILING = "simdup: preparing fast kernels, once on this machine (about 20 s)..."


class _Progress:
    """Progress on stderr, at most a few times a second."""

    def __init__(self, stream: TextIO) -> None:
        self.stream, self.last = stream, 0.0

    def __call__(self, event: object) -> None:
        if event.stage == "compiling":  # type: ignore[attr-defined]
            self.stream.write(f"\r{COMPILING}\n")
            self.stream.flush()
        now = time.monotonic()
        if now - self.last < 0.5:
            return
        self.last = now
        stage, done, total = event.stage, event.done, event.total  # type: ignore[attr-defined]
        self.stream.write(f"\r{stage}: {done}/{total or '?'} files   ")
        self.stream.flush()


def _summary(result: ScanResult) -> str:
    files = len(result.files)
    megabytes = sum(f.size for f in result.files) / 1e6
    duplicates = sum(len(g) - 1 for g in result.groups)
    state = " (cancelled: partial results)" if result.cancelled else ""
    cached = f", {result.cached} from cache" if result.cached else ""
    links = f", {_count(len(result.links), 'link')} not read" if result.links else ""
    hidden = result.skipped_folders
    skipped = f", {_count(len(hidden), 'hidden or tool folder')} skipped" if hidden else ""
    others = sum(count for _, count in result.other_types)
    if others:
        kinds = " ".join(f"{ext} {count}" for ext, count in result.other_types[:4])
        skipped += f", {_count(others, 'file')} of other types not read ({kinds}; --ext adds them)"
    return (
        f"simdup: {_count(files, 'file')} ({megabytes:.1f} MB{cached}) in {result.seconds:.1f} s"
        f"{state}: {_count(len(result.groups), 'group')}, {_count(duplicates, 'duplicate')},"
        f" {len(result.errors)} unreadable{links}{skipped}"
        f" (k={result.options.k}, text similarity >= {result.options.min_similarity:.0%})"
    )


def _count(number: int, noun: str) -> str:
    """``1 group``, ``2 groups``."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _check_output(path: str, inputs: list[str]) -> None:
    """Refuse an output path before any work: inside an input, or where nothing can be written."""
    problem = output_problem(path, inputs)
    if problem:
        raise UsageError(problem)


def _compiling_note(err: TextIO) -> Callable[[ProgressEvent], None]:
    """No progress (stderr is not a terminal), but the one line that explains a long first run."""

    def note(event: ProgressEvent) -> None:
        if event.stage == "compiling":
            err.write(COMPILING + "\n")
            err.flush()

    return note


def run_scan(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``simdup scan``."""
    if not os.path.isdir(args.folder):
        raise UsageError(f"{args.folder}: not a folder")
    settings = _text_settings(args)
    options = ScanOptions(
        args.k,
        tuple(_extension(e) for e in args.ext),
        settings,
        max_bytes=int(args.max_mb * 1024 * 1024),
        skip_oversize=args.skip_oversize,
        jobs=_capped_jobs(args.jobs, err),
        min_similarity=args.min_similarity,
        processes=None,  # the console script is import-safe, so large scans may use processes
        not_duplicates=frozenset(not_duplicates.load()),  # what the app was told, kept apart
    )
    for output in (args.csv, args.html):
        if output:
            _check_output(output, [args.folder])
    if args.quiet:
        progress: Callable[[ProgressEvent], None] = no_progress
    elif err.isatty():
        progress = _Progress(err)
    else:
        progress = _compiling_note(err)
    cache = FingerprintCache.disabled() if args.no_cache else FingerprintCache.default()
    try:
        result = scan(args.folder, options, cache=cache, progress=progress)
    finally:
        cache.close()
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
        try:
            write_html_report(result, args.html)
        except OSError as exc:
            raise UsageError(f"{args.html}: {exc.strerror or exc}") from None
    err.write(("\r" if not args.quiet and err.isatty() else "") + _summary(result) + "\n")
    return 1 if result.cancelled else 0


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
        _check_output(args.out, [args.file])
    fps = load_fingerprints(args.file)
    started = time.perf_counter()
    pairs = all_pairs(fps, args.k, jobs=_capped_jobs(args.jobs, err))
    seconds = time.perf_counter() - started
    if args.out:
        write_atomically(args.out, lambda stream: _write_pairs(pairs, stream))
    else:
        _write_pairs(pairs, out)
    err.write(
        f"simdup: {len(pairs)} pairs within k={args.k} among {len(fps)} fingerprints"
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


def run_ignore(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``simdup ignore``: the not-duplicates list the app keeps, from the command line."""
    pairs = not_duplicates.load()
    if args.action in ("add", "remove"):
        if len(args.paths) != 2:
            raise UsageError(f"ignore {args.action}: give the two files of a pair")
        a, b = (os.path.abspath(p) for p in args.paths)
        pair = (a, b) if a <= b else (b, a)
        if args.action == "add":
            pairs.add(pair)
        elif pair in pairs:
            pairs.discard(pair)
        else:
            raise UsageError(
                f"ignore remove: {display_path(a)} and {display_path(b)}: no such pair"
            )
    elif args.action == "clear":
        pairs.clear()
    elif args.paths:
        raise UsageError("ignore list takes no files")
    if args.action == "list":
        for a, b in sorted(pairs):
            out.write(f"{display_path(a)}\t{display_path(b)}\n")
    else:
        not_duplicates.save(pairs)
        err.write(f"simdup: {len(pairs)} pairs kept apart ({not_duplicates.default_path()})\n")
    return 0


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


def run_apply(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``simdup apply``."""
    try:
        files = [
            f._replace(path=os.path.abspath(f.path), reference=os.path.abspath(f.reference))
            for f in report_duplicates(args.report)
        ]
    except ReportError as exc:
        raise UsageError(str(exc)) from None
    named = [f.path for f in files] + [f.reference for f in files]
    root = os.path.commonpath(named) if named else os.getcwd()
    root = root if os.path.isdir(root) else os.path.dirname(root)
    if args.move_to:
        problem = output_problem(args.move_to, [root, args.report], folder=True)
        if problem:
            raise UsageError(problem)
    options = ScanOptions(text=_text_settings(args), max_bytes=int(args.max_mb * 1024 * 1024))

    def fingerprint_of(path: str) -> int | None:
        info = os.stat(path)
        return fingerprint_file(Entry(path, info.st_size, info.st_mtime_ns), options)[0].fingerprint

    manifest = None
    if not args.dry_run:
        manifest = _open_manifest(args.manifest, args.move_to, [root, args.report])
    try:
        outcomes = act(
            files,
            manifest,
            move_to=args.move_to,
            root=root,
            fingerprint_of=None if options.text.whole_folder else fingerprint_of,
            dry_run=args.dry_run,
        )
    finally:
        if manifest is not None:
            manifest.close()
    done = "moved" if args.move_to else "trashed"
    if args.dry_run:
        done = "would move" if args.move_to else "would trash"
    for o in outcomes:
        if o.error:
            err.write(f"simdup: {o.action} {display_path(o.path)}: {o.error}\n")
        elif args.dry_run:
            where = f" -> {display_path(o.destination)}" if o.destination else ""
            err.write(f"simdup: {o.action} {display_path(o.path)}{where}\n")
    counts = Counter(o.action for o in outcomes)
    where = f" (manifest: {manifest.path})" if manifest is not None else " (dry run: nothing done)"
    err.write(
        f"simdup: {done} {counts[done]}, skipped {counts['skipped']},"
        f" failed {counts['failed']}{where}\n"
    )
    return 0 if not counts["failed"] else 1


def _open_manifest(path: str | None, move_to: str | None, inputs: list[str]) -> Manifest:
    """The manifest, created before anything is done (a file that cannot be is exit 2)."""
    try:
        if path is None and move_to is not None:
            os.makedirs(move_to, exist_ok=True)
        if path is not None:
            _check_output(path, inputs)
            if os.path.lexists(path):
                raise UsageError(f"{path}: exists; a manifest is never written over a file")
        return Manifest(Path(path) if path else manifest_path(move_to))
    except OSError as exc:
        raise UsageError(f"manifest: {exc.strerror or exc}") from None


def run_restore(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``simdup restore``."""
    try:
        outcomes = restore(args.manifest, dry_run=args.dry_run)
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        raise UsageError(f"{args.manifest}: {getattr(exc, 'strerror', None) or exc}") from None
    for o in outcomes:
        if o.action != "restored":
            err.write(f"simdup: {o.action} {display_path(o.path)}: {o.error}\n")
    counts = Counter(o.action for o in outcomes)
    state = " (dry run: nothing done)" if args.dry_run else ""
    err.write(
        f"simdup: restored {counts['restored']}, skipped {counts['skipped']},"
        f" failed {counts['failed']}{state}\n"
    )
    return 0 if not counts["failed"] else 1


COMMANDS = {
    "scan": run_scan,
    "pairs": run_pairs,
    "query": run_query,
    "apply": run_apply,
    "restore": run_restore,
    "cache": run_cache,
    "ignore": run_ignore,
    "library": lambda args, out, err: run_library(
        args, out, err, _text_settings(args) if hasattr(args, "tokenizer") else TextSettings()
    ),
}


def main(
    argv: Sequence[str] | None = None, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    """Run the command line; return the exit code."""
    for stream, given in ((sys.stdout, out), (sys.stderr, err)):
        if given is None and isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(encoding="utf-8", errors="backslashreplace")  # whatever the locale
    out, err = out or sys.stdout, err or sys.stderr
    try:
        args = build_parser().parse_args(argv)
        start_logging(err if getattr(args, "verbose", False) else None)
        code = COMMANDS[args.command](args, out, err)
        out.flush()
        return code
    except (UsageError, FingerprintFileError, LibraryUsageError) as exc:
        err.write(f"simdup: error: {exc}\n")
        return 2
    except KeyboardInterrupt:
        err.write("simdup: interrupted\n")
        return 130
    except BrokenPipeError:
        _silence(out)
        return 0
    except OSError as exc:  # standard output full or gone
        log.debug("writing the output failed", exc_info=True)
        _silence(out)
        err.write(f"simdup: error: cannot write the output: {exc.strerror or exc}\n")
        return 2


def _silence(out: TextIO) -> None:
    """Point a failed standard output at nothing, so Python's last flush cannot fail again."""
    with contextlib.suppress(OSError, ValueError, io.UnsupportedOperation):
        os.dup2(os.open(os.devnull, os.O_WRONLY), out.fileno())


if __name__ == "__main__":
    sys.exit(main())
